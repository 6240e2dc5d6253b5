//! `curio forms --llm-url`: a language model, here a local server speaking the OpenAI API
//! with answers fixed per field, is asked for each field's constraints; what it proposes
//! joins the built-in rules, and negation keeps what the form confirms.

use std::process::Stdio;
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use curio_subjects::Subject;
use serde_json::{Value, json};
use tokio::process::Command;

mod common;

use common::{model_proposals, verdict};

/// The model's answer to a constraint prompt: a true rule and a wrong one for the coupon
/// code, and a repeat of what the markup says for the name; to a value prompt, a code
/// of the shop's kind and a name.
fn answer(prompt: &str) -> String {
    if prompt.contains("Write a value for field 'coupon'") {
        "GIFT-7731".into()
    } else if prompt.contains("Write a value for field") {
        "Value: \"Ada Lovelace\"".into()
    } else if prompt.contains("constraints of field 'coupon'") {
        "Codes of this shop look like GIFT-2024:\n\
         expect(field('coupon')).toStartWithString('GIFT-')\n\
         expect(field('coupon')).toHaveLengthCondition('<=', 12)"
            .into()
    } else {
        "expect(field('holder')).toBeTruthy()".into()
    }
}

/// A model that knows nothing of coupons until the form refuses one: told the feedback,
/// it knows the shop's codes start with GIFT-.
fn answer_after_feedback(prompt: &str) -> String {
    if prompt.contains("Write a value for field 'coupon'") {
        "SAVE-10".into()
    } else if prompt.contains("Write a value for field") {
        "Ada Lovelace".into()
    } else if prompt.contains("constraints of field 'coupon' that explain the refusal")
        && prompt.contains("Values tried:")
        && prompt.contains("That coupon code is not valid.")
    {
        "expect(field('coupon')).toStartWithString('GIFT-')".into()
    } else {
        "expect(field('holder')).toBeTruthy()".into()
    }
}

type Prompts = Arc<Mutex<Vec<Value>>>;

#[derive(Clone)]
struct Model {
    prompts: Prompts,
    answer: fn(&str) -> String,
}

async fn chat(State(model): State<Model>, Json(body): Json<Value>) -> Json<Value> {
    let prompt = body["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    model.prompts.lock().unwrap().push(body.clone());
    Json(json!({
        "choices": [{"message": {"role": "assistant", "content": (model.answer)(&prompt)}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
}

/// A local OpenAI-compatible server; the requests it got.
async fn model_server() -> (String, Prompts) {
    model_server_answering(answer).await
}

/// A local OpenAI-compatible server answering with `answer`; the requests it got.
async fn model_server_answering(answer: fn(&str) -> String) -> (String, Prompts) {
    let prompts: Prompts = Arc::default();
    let model = Model {
        prompts: prompts.clone(),
        answer,
    };
    let app = Router::new()
        .route(
            "/v1/models",
            get(|| async { Json(json!({"data": [{"id": "coupon-expert"}]})) }),
        )
        .route("/v1/chat/completions", post(chat))
        .with_state(model);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), prompts)
}

async fn forms(url: &str, out: &std::path::Path, llm: Option<&str>) -> (Value, String) {
    forms_with(url, out, llm, &[]).await
}

/// [`forms`] with more arguments.
async fn forms_with(
    url: &str,
    out: &std::path::Path,
    llm: Option<&str>,
    more: &[&str],
) -> (Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_curio"));
    cmd.args(["forms", url, "--out", out.to_str().unwrap()])
        .args(["--max-submissions", "16", "--replays", "0"])
        .args(more);
    if let Some(llm) = llm {
        cmd.args(["--llm-url", llm, "--llm-model", "coupon-expert"]);
    }
    let done = cmd
        .env("CURIO_LLM_API_KEY", "sk-test-secret")
        .stdin(Stdio::null())
        .output()
        .await
        .expect("run curio");
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    assert!(matches!(done.status.code(), Some(0 | 1)), "{err}");
    let text = std::fs::read_to_string(out.join("forms.json")).expect("forms.json");
    let json: Value = serde_json::from_str(&text).unwrap();
    (json["forms"][0].clone(), err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_proposals_go_through_negation_and_answers_are_cached() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/coupon");
    let (llm, prompts) = model_server().await;
    let out = tempfile::tempdir().unwrap();

    let (form, err) = forms(&url, out.path(), Some(&llm)).await;
    let starts = "expect(field('coupon')).toStartWithString('GIFT-')";
    let short = "expect(field('coupon')).toHaveLengthCondition('<=', 12)";
    // The true rule gets the form past its check; breaking it is refused: confirmed.
    assert_eq!(verdict(&form, starts), "confirmed", "{form}\n{err}");
    // The wrong one is broken and the form still accepts: refuted, and no test says so.
    assert_eq!(verdict(&form, short), "refuted", "{form}");
    assert_eq!(model_proposals(&form), [starts, short]);
    let texts = serde_json::to_string(&form["report"]["fss"]).unwrap();
    assert!(texts.contains("Coupon applied"), "{texts}");
    // Each field once, then once more after the rules' first refusal.
    assert_eq!(form["llm"]["asked"], 4);
    assert_eq!(form["llm"]["values"], 2);
    // The rules get no success alone; in the model's turn its values are the first
    // tried: the success reached has its code.
    let success = form["report"]["fss"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["outcome"] == "success")
        .unwrap();
    assert!(
        success["values"].to_string().contains("GIFT-7731"),
        "{success}"
    );
    assert_eq!(
        form["llm"]["rejected"], 4,
        "the name's rule is one the markup gives, and the feedback taught nothing new"
    );

    // What the model was asked: FormNexus' constraint prompt for each field, then the
    // value prompt, then the feedback prompt, at temperature 0.
    let asked = prompts.lock().unwrap().clone();
    assert_eq!(asked.len(), 6);
    assert_eq!(asked[0]["temperature"], 0.0);
    let value = asked
        .iter()
        .map(|b| b["messages"][1]["content"].as_str().unwrap())
        .find(|p| p.contains("Write a value for field 'coupon'"))
        .unwrap();
    assert!(
        value.contains(&format!("- {starts}")),
        "its constraints: {value}"
    );
    let coupon = asked
        .iter()
        .map(|b| b["messages"][1]["content"].as_str().unwrap())
        .find(|p| p.contains("constraints of field 'coupon'"))
        .unwrap();
    assert!(coupon.contains("Today's date: 20"), "{coupon}");
    assert!(coupon.contains("Coupon code"), "{coupon}");
    assert!(
        coupon.contains(r#"<input type="text" id="coupon" name="coupon" required>"#),
        "{coupon}"
    );

    // Again: every answer comes from the run's cache; the key is nowhere in it.
    let (again, _) = forms(&url, out.path(), Some(&llm)).await;
    assert_eq!(prompts.lock().unwrap().len(), 6);
    assert_eq!(again["llm"]["cache_hits"], 6);
    assert_eq!(verdict(&again, starts), "confirmed");
    let store = std::fs::read(out.path().join("runs.db")).unwrap();
    assert!(!store.windows(14).any(|w| w == b"sk-test-secret"));

    // Without the model the rules alone never learn the prefix.
    let alone = tempfile::tempdir().unwrap();
    let (rules, _) = forms(&url, alone.path(), None).await;
    let texts = serde_json::to_string(&rules["report"]["fss"]).unwrap();
    assert!(!texts.contains("Coupon applied"), "{texts}");
    testbed.shutdown().await;
}

/// FormNexus' feedback loop: after a refused submission the model is asked again with
/// the values tried and what the form said, and the rule it then proposes is kept (and
/// confirmed by negation) before the session goes on reaching a success.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_told_the_feedback_finds_the_rule() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/coupon");
    let (llm, prompts) = model_server_answering(answer_after_feedback).await;
    let out = tempfile::tempdir().unwrap();
    let (form, err) = forms(&url, out.path(), Some(&llm)).await;
    let starts = "expect(field('coupon')).toStartWithString('GIFT-')";
    assert_eq!(verdict(&form, starts), "confirmed", "{form}\n{err}");
    assert_eq!(form["llm"]["after_feedback"], 1, "{form}");
    let texts = serde_json::to_string(&form["report"]["fss"]).unwrap();
    assert!(texts.contains("Coupon applied"), "{texts}");
    let asked = prompts.lock().unwrap().clone();
    assert!(
        asked.iter().any(|b| b["messages"][1]["content"]
            .as_str()
            .unwrap()
            .contains("A submission was refused. Values tried:")),
        "{asked:?}"
    );
    testbed.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_model_is_said_and_the_rules_go_on() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/once");
    // A port nothing listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let llm = format!("http://127.0.0.1:{port}/v1");
    let out = tempfile::tempdir().unwrap();
    let (form, err) = forms(&url, out.path(), Some(&llm)).await;
    assert!(
        err.contains(&llm) && err.contains("built-in rules alone"),
        "{err}"
    );
    assert!(form["llm"].is_null(), "{form}");
    let texts = serde_json::to_string(&form["report"]["fss"]).unwrap();
    assert!(texts.contains("Thank you for your message"), "{texts}");
    testbed.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_url_that_is_not_http_is_a_usage_error() {
    let out = tempfile::tempdir().unwrap();
    let done = Command::new(env!("CARGO_BIN_EXE_curio"))
        .args([
            "forms",
            "http://127.0.0.1:9/",
            "--out",
            out.path().to_str().unwrap(),
        ])
        .args(["--llm-url", "ftp://models.example/v1", "--llm-model", "m"])
        .stdin(Stdio::null())
        .output()
        .await
        .expect("run curio");
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--llm-url") && err.contains("ftp://models.example/v1"),
        "{err}"
    );
}

/// FormNexus' own way, for comparison: the model's constraints alone, none of the
/// built-in rules'; and its prompt ablations, each leaving a part of the prompt out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_alone_and_the_prompt_ablations() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/coupon");
    let (llm, prompts) = model_server().await;
    let out = tempfile::tempdir().unwrap();
    let (form, err) = forms_with(&url, out.path(), Some(&llm), &["--disable", "rules"]).await;
    let sources: Vec<&str> = form["inferred"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["source"].as_str().unwrap())
        .collect();
    // The name's rule, which the markup also gives, now comes from the model.
    assert_eq!(sources, ["llm", "llm", "llm"], "{form}\n{err}");
    let starts = "expect(field('coupon')).toStartWithString('GIFT-')";
    assert_eq!(verdict(&form, starts), "confirmed", "{form}");

    let ablated = tempfile::tempdir().unwrap();
    prompts.lock().unwrap().clear();
    let (form, err) = forms_with(
        &url,
        ablated.path(),
        Some(&llm),
        &["--disable", "prompt-date", "--disable", "prompt-ferg"],
    )
    .await;
    assert_eq!(verdict(&form, starts), "confirmed", "{form}\n{err}");
    let asked = prompts.lock().unwrap().clone();
    let coupon = asked
        .iter()
        .map(|b| b["messages"][1]["content"].as_str().unwrap())
        .find(|p| p.contains("constraints of field 'coupon'"))
        .unwrap();
    assert!(!coupon.contains("Today's date"), "{coupon}");
    assert!(
        !coupon.contains("Local context") && !coupon.contains("Related fields"),
        "{coupon}"
    );
    assert!(
        coupon.contains("Form context:"),
        "the form's context stays: {coupon}"
    );
    testbed.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_alone_needs_a_model() {
    let (code, _, err) = common::run(&["forms", "http://127.0.0.1:9/", "--disable", "rules"]).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--disable rules"), "{err}");
}

/// A build without the local-llm feature says so when asked for a local model.
#[cfg(not(feature = "local-llm"))]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_model_needs_the_feature() {
    let (code, _, err) = common::run(&[
        "forms",
        "http://127.0.0.1:9/",
        "--llm-local",
        "/models/small.gguf",
    ])
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("/models/small.gguf") && err.contains("local-llm"),
        "{err}"
    );
}

/// A bag of words hashed into 64 buckets: texts that share words are alike, as with a
/// real embedding model.
fn words_vector(text: &str) -> Vec<f32> {
    let mut v = vec![0.0f32; 64];
    for word in text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let h = word.bytes().fold(5381u32, |h, b| {
            h.wrapping_mul(33).wrapping_add(u32::from(b))
        });
        v[(h % 64) as usize] += 1.0;
    }
    v
}

/// A local OpenAI-compatible server with only an embedding model, `words`; the texts it
/// was asked to embed.
async fn embedding_server() -> (String, Prompts) {
    let asked: Prompts = Arc::default();
    let embed = |State(asked): State<Prompts>, Json(body): Json<Value>| async move {
        asked.lock().unwrap().push(body.clone());
        let inputs: Vec<String> = body["input"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t.as_str().map(str::to_string))
            .collect();
        let data: Vec<Value> = inputs
            .iter()
            .enumerate()
            .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": words_vector(t)}))
            .collect();
        Json(
            json!({"object": "list", "data": data, "usage": {"prompt_tokens": 5, "total_tokens": 5}}),
        )
    };
    let app = Router::new()
        .route(
            "/v1/models",
            get(|| async { Json(json!({"data": [{"id": "words"}]})) }),
        )
        .route("/v1/embeddings", post(embed))
        .with_state(asked.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/v1"), asked)
}

/// `--embedder llm`: the FERG compares texts with the endpoint's embeddings (as
/// FormNexus did with ADA's), each text asked once and cached in the run store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ferg_can_embed_with_the_endpoint() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/form");
    let (llm, asked) = embedding_server().await;
    let out = tempfile::tempdir().unwrap();
    let run = || async {
        let done = Command::new(env!("CARGO_BIN_EXE_curio"))
            .args(["forms", &url, "--out", out.path().to_str().unwrap()])
            .args(["--max-submissions", "12", "--replays", "0"])
            .args([
                "--embedder",
                "llm",
                "--llm-url",
                &llm,
                "--llm-embed-model",
                "words",
            ])
            .stdin(Stdio::null())
            .output()
            .await
            .expect("run curio");
        let err = String::from_utf8_lossy(&done.stderr).into_owned();
        assert_eq!(done.status.code(), Some(0), "{err}");
        let text = std::fs::read_to_string(out.path().join("forms.json")).unwrap();
        let json: Value = serde_json::from_str(&text).unwrap();
        (json, err)
    };
    let (first, err) = run().await;
    assert_eq!(first["embedder"], "llm:words", "{err}");
    assert!(!err.contains("note:"), "{err}");
    let requests = asked.lock().unwrap().len();
    assert!(requests > 3, "the form's texts were embedded: {requests}");
    let states = first["forms"][0]["report"]["fss"].as_array().unwrap().len();
    assert!(states >= 2, "{first}");

    // Again: every text comes from the cache, but for nothing.
    let (again, _) = run().await;
    assert_eq!(asked.lock().unwrap().len(), requests, "no new requests");
    assert_eq!(
        again["forms"][0]["report"]["fss"].as_array().unwrap().len(),
        states
    );

    // `--embedder llm` without an embedding model is a usage error.
    let done = Command::new(env!("CARGO_BIN_EXE_curio"))
        .args(["forms", &url, "--out", out.path().to_str().unwrap()])
        .args([
            "--embedder",
            "llm",
            "--llm-url",
            &llm,
            "--llm-model",
            "chat",
        ])
        .stdin(Stdio::null())
        .output()
        .await
        .unwrap();
    assert_eq!(done.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&done.stderr).contains("--llm-embed-model"));
    testbed.shutdown().await;
}

/// `curio explore --llm-url`: the form session that studies a form asks the model too,
/// so exploring types the coupon the shop takes (which no rule knows) and gets past it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_form_sessions_ask_the_model() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/coupon");
    let (llm, prompts) = model_server().await;
    let out = tempfile::tempdir().unwrap();
    let done = Command::new(env!("CARGO_BIN_EXE_curio"))
        .args(["explore", &url, "--out", out.path().to_str().unwrap()])
        .args(["--max-actions", "25", "--seed", "1", "--no-verify"])
        .args(["--llm-url", &llm, "--llm-model", "coupon-expert"])
        .stdin(Stdio::null())
        .output()
        .await
        .expect("run curio");
    testbed.shutdown().await;
    let err = String::from_utf8_lossy(&done.stderr).into_owned();
    assert!(matches!(done.status.code(), Some(0 | 1)), "{err}");
    assert!(!prompts.lock().unwrap().is_empty(), "the model was asked");
    let record =
        curio_record::RunRecord::read_json(&out.path().join("record.json")).expect("record");
    assert!(
        record
            .steps
            .iter()
            .any(|s| s.step.value.as_deref() == Some("GIFT-7731")),
        "the form macro typed the model's code: {:?}",
        record.steps
    );
}
