//! `curio forms --llm-local` (the `local-llm` feature): SmolLM2-135M-Instruct, run in
//! process by llama.cpp, is asked about every field of a gallery form. Its answers are
//! held to the constraint language's grammar, what it proposes goes through negation like
//! any rule, and a second run takes every answer from the run's cache.
#![cfg(feature = "local-llm")]

use std::path::PathBuf;

use curio_subjects::Subject;
use serde_json::Value;

mod common;

use common::{model_proposals, verdict};

/// The model `scripts/fetch-smollm2` installs, or the one `CURIO_LLM_LOCAL` names.
fn model() -> PathBuf {
    let path = std::env::var_os("CURIO_LLM_LOCAL")
        .map(PathBuf::from)
        .unwrap_or_else(curio_llm::default_local_model);
    assert!(
        path.is_file(),
        "{} is missing: run scripts/fetch-smollm2 (scripts/test does)",
        path.display()
    );
    path
}

async fn forms(url: &str, out: &std::path::Path) -> (Value, String) {
    let model = model();
    let (code, _, err) = common::run(&[
        "forms",
        url,
        "--out",
        out.to_str().unwrap(),
        "--replays",
        "0",
        "--llm-local",
        model.to_str().unwrap(),
    ])
    .await;
    assert!(matches!(code, 0 | 1), "{err}");
    let text = std::fs::read_to_string(out.join("forms.json")).expect("forms.json");
    let json: Value = serde_json::from_str(&text).unwrap();
    (json["forms"][0].clone(), err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_local_model_is_asked_and_its_proposals_go_through_negation() {
    let gallery = curio_subjects::serve(Subject::Gallery).await.unwrap();
    let url = gallery.url("/forms/contact");
    let out = tempfile::tempdir().unwrap();
    let (form, err) = forms(&url, out.path()).await;
    let llm = &form["llm"];
    let fields = form["refs"].as_array().unwrap().len() as u64;
    // Asked about every field, and it answered: tokens read and written in process.
    assert!(llm["asked"].as_u64().unwrap() >= fields, "{llm}\n{err}");
    assert!(llm["prompt_tokens"].as_u64().unwrap() > 0, "{llm}");
    assert!(llm["completion_tokens"].as_u64().unwrap() > 0, "{llm}");
    assert_eq!(llm["cache_hits"], 0, "{llm}");
    // In the constraint language: what it proposed was read as constraints on the field
    // asked about (the grammar allows nothing else).
    let proposed = model_proposals(&form);
    assert!(
        !proposed.is_empty(),
        "the model proposed nothing new: {form}"
    );
    assert_eq!(
        llm["proposed"].as_u64().unwrap(),
        proposed.len() as u64,
        "{llm}"
    );
    // Each proposal went through negation: the success reached already broke it
    // (refuted at once), or it was negated alone (confirmed or refuted); only one that
    // no values can break stays unverified.
    let verdicts: Vec<(&str, &str)> = proposed.iter().map(|c| (*c, verdict(&form, c))).collect();
    assert!(verdicts.iter().all(|(_, v)| *v != "absent"), "{verdicts:?}");
    assert!(
        verdicts
            .iter()
            .any(|(_, v)| *v == "refuted" || *v == "confirmed"),
        "{verdicts:?}"
    );
    // A hallucination costs a submission, never a wrong test: the form still gets
    // through.
    let fss = serde_json::to_string(&form["report"]["fss"]).unwrap();
    assert!(fss.contains("\"success\""), "{fss}");

    // The same run again: every answer from the cache, the same proposals.
    let (again, _) = forms(&url, out.path()).await;
    assert_eq!(again["llm"]["requests"], 0, "{}", again["llm"]);
    assert_eq!(
        again["llm"]["cache_hits"], llm["requests"],
        "{}",
        again["llm"]
    );
    assert_eq!(again["inferred"], form["inferred"]);
    gallery.shutdown().await;
}
