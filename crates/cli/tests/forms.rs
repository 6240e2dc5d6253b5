//! `curio forms` through the real binary: every form of a page tested, its states found
//! and recorded by the app itself, tests exported and run by Playwright Test.

mod common;
use common::run;

use std::path::Path;
use std::process::Stdio;

use curio_subjects::Subject;
use serde_json::Value;
use tokio::process::Command;

fn forms_json(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("forms.json")).expect("forms.json");
    serde_json::from_str(&text).expect("forms.json is JSON")
}

/// `curio forms URL` with at most `submissions` submissions and `replays` replays of
/// each state, which must succeed; its first form's results and what it printed.
async fn test_first_form(
    url: &str,
    out: &Path,
    submissions: &str,
    replays: &str,
) -> (Value, String) {
    let (code, stdout, err) = run(&[
        "forms",
        url,
        "--out",
        out.to_str().unwrap(),
        "--max-submissions",
        submissions,
        "--replays",
        replays,
    ])
    .await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    (forms_json(out)["forms"][0].clone(), stdout)
}

/// Every test of `form` reached its state on every replay.
fn every_replay_reproduced(form: &Value) {
    for t in form["tests"].as_array().expect("tests") {
        assert_eq!(t["reproduced"], t["replays"], "{t}");
    }
}

/// A page with no form is a usage error that names the URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_without_a_form_says_so_and_exits_2() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/stored");
    let out = tempfile::tempdir().unwrap();
    let (code, stdout, err) = run(&["forms", &url, "--out", out.path().to_str().unwrap()]).await;
    assert_eq!(code, 2, "{stdout}\n{err}");
    assert!(err.contains("no form") && err.contains(&url), "{err}");
    testbed.shutdown().await;
}

/// The booking form answers with inline messages per field and a server error once every
/// field is right. `curio forms` finds these answers as distinct states, replays each,
/// and the Playwright tests it exports pass in Playwright Test with Debian's Chromium.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn form_states_are_found_replayed_and_exported_tests_pass_in_playwright() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/booking");
    let out = tempfile::tempdir().unwrap();
    let (form, stdout) = test_first_form(&url, out.path(), "10", "1").await;
    let states = form["report"]["fss"].as_array().expect("fss");
    assert!(states.len() >= 3, "{stdout}");
    let texts = serde_json::to_string(states).unwrap();
    assert!(texts.contains("booking engine unavailable"), "{texts}");
    assert!(texts.contains("first and last name"), "{texts}");
    every_replay_reproduced(&form);

    playwright_passes(out.path(), states.len()).await;
    testbed.shutdown().await;
}

/// A comment thread answers a comment with "Comment posted." and the new entry (author,
/// date, the comment itself) right below the box, and an empty comment with a red alert
/// on the page it was posted to. The first is a success with that one message, nothing
/// about the box and no rule learnt from the entry; the second a failure; each replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_posted_comment_is_a_success_and_an_empty_one_a_failure() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/thread");
    let out = tempfile::tempdir().unwrap();
    let (form, stdout) = test_first_form(&url, out.path(), "8", "1").await;
    assert_eq!(form["report"]["reached"], true, "{stdout}");
    let states = form["report"]["fss"].as_array().expect("fss");
    let texts = |state: &Value| -> Vec<String> {
        state["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| m["text"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let posted = states
        .iter()
        .find(|s| s["outcome"] == "success")
        .unwrap_or_else(|| panic!("no success: {stdout}"));
    assert_eq!(texts(posted), ["Comment posted."], "{stdout}");
    assert!(
        states.iter().any(|s| s["outcome"] == "failure"
            && texts(s).contains(&"Write something before posting.".to_string())),
        "{stdout}"
    );
    let rules = serde_json::to_string(&form["report"]["constraints"]).unwrap();
    assert!(
        !rules.contains("Robin Diaz") && !rules.contains("Dec 2026"),
        "{rules}"
    );
    every_replay_reproduced(&form);
    testbed.shutdown().await;
}

/// The feedback form turns a second message from the same browser away (by cookie).
/// Every submission starts as in a fresh browser, so the thanks is the success the
/// session finds and each replay gets it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_submission_starts_without_what_the_last_one_stored() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/once");
    let out = tempfile::tempdir().unwrap();
    let (form, _) = test_first_form(&url, out.path(), "8", "3").await;
    let texts = serde_json::to_string(&form["report"]["fss"]).unwrap();
    assert!(texts.contains("Thank you for your message"), "{texts}");
    assert!(!texts.contains("already sent"), "{texts}");
    every_replay_reproduced(&form);
    testbed.shutdown().await;
}

/// `--embedder minilm` reads the form with the sentence model that scripts/fetch-minilm
/// installs; where it is missing, Curio says so, names the directory, and goes on with
/// the lexical embedder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_minilm_embedder_is_used_when_installed_and_its_absence_is_said() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/once");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let args = [
        "forms",
        &url,
        "--out",
        dir,
        "--max-submissions",
        "2",
        "--replays",
        "0",
        "--embedder",
        "minilm",
    ];
    let (code, stdout, err) = run(&args).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert_eq!(forms_json(out.path())["embedder"], "minilm", "{err}");
    assert!(!err.contains("note:"), "{err}");

    let nowhere = out.path().join("no-model");
    let missing = Command::new(env!("CARGO_BIN_EXE_curio"))
        .args(args)
        .env("CURIO_MINILM_DIR", &nowhere)
        .stdin(Stdio::null())
        .output()
        .await
        .expect("run curio");
    let err = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(0), "{err}");
    assert_eq!(forms_json(out.path())["embedder"], "lexical");
    assert_eq!(err.matches("note:").count(), 1, "{err}");
    assert!(
        err.contains(nowhere.to_str().unwrap()) && err.contains("scripts/fetch-minilm"),
        "{err}"
    );
    testbed.shutdown().await;
}

/// Runs the Playwright tests `curio forms` exported into `out`; all `expected` must pass.
async fn playwright_passes(out: &Path, expected: usize) {
    let (passed, report) = common::run_playwright(&out.join("tests/playwright"), 1).await;
    assert!(passed, "{report}");
    assert!(report.contains(&format!("{expected} passed")), "{report}");
}

/// The gallery's sign-up form, checked on its server with inline messages: without any
/// LLM, `curio forms` provokes every answer the app has (by the app's own record), each
/// exported test reproduces on every replay, and Playwright Test runs them green.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_of_a_gallery_form_is_provoked_and_pinned_down() {
    let gallery = curio_subjects::serve(Subject::Gallery).await.unwrap();
    let url = gallery.url("/forms/signup");
    let out = tempfile::tempdir().unwrap();
    let (code, stdout, err) = run(&[
        "forms",
        &url,
        "--out",
        out.path().to_str().unwrap(),
        "--replays",
        "2",
    ])
    .await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    let hit = gallery.ground_truth().triggered_ids();
    let missed: Vec<&str> = Subject::Gallery
        .states()
        .iter()
        .filter(|s| s.form == "signup" && !hit.contains(s.id))
        .map(|s| s.id)
        .collect();
    assert!(
        missed.is_empty(),
        "states never given: {missed:?}\n{stdout}"
    );
    let json = forms_json(out.path());
    let form = &json["forms"][0];
    every_replay_reproduced(form);
    playwright_passes(out.path(), form["tests"].as_array().expect("tests").len()).await;
    gallery.shutdown().await;
}
