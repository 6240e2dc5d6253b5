//! The real `curio` binary against the project's subject apps: exit codes, messages,
//! the record it leaves, and what survives a SIGKILL.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use curio_record::{RunRecord, Store};
use curio_subjects::Subject;
use tokio::process::Command;

fn curio() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_curio"));
    cmd.stdin(Stdio::null()).kill_on_drop(true);
    cmd
}

async fn run(args: &[&str]) -> (i32, String, String) {
    let out = curio().args(args).output().await.expect("run curio");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn not_a_url_is_a_usage_error() {
    let (code, _, err) = run(&["explore", "not-a-url"]).await;
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("invalid URL 'not-a-url'"), "{err}");
}

#[tokio::test]
async fn unreachable_start_page_is_an_infrastructure_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (code, _, err) = run(&[
        "explore",
        "http://127.0.0.1:9/",
        "--out",
        out,
        "--time",
        "20s",
    ])
    .await;
    assert_eq!(code, 3, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot load the start page http://127.0.0.1:9/"),
        "{err}"
    );
}

#[tokio::test]
async fn bad_flag_values_name_the_flag() {
    for (args, flag) in [
        (
            vec!["explore", "http://127.0.0.1:1/", "--time", "banana"],
            "--time",
        ),
        (
            vec!["explore", "http://127.0.0.1:1/", "--max-actions", "0"],
            "--max-actions",
        ),
        (
            vec!["explore", "http://127.0.0.1:1/", "--seed", "abc"],
            "--seed",
        ),
        (
            vec![
                "explore",
                "http://127.0.0.1:1/",
                "--browser-ws",
                "http://x/",
            ],
            "--browser-ws",
        ),
        (
            vec!["explore", "http://127.0.0.1:1/", "--origin", "nope"],
            "--origin",
        ),
        (
            vec!["explore", "http://127.0.0.1:1/", "--tau", "0"],
            "--tau",
        ),
        (
            vec!["explore", "http://127.0.0.1:1/", "--tau", "warm"],
            "--tau",
        ),
    ] {
        let (code, _, err) = run(&args).await;
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
}

#[tokio::test]
async fn missing_browser_is_an_infrastructure_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let (code, _, err) = run(&[
        "explore",
        "http://127.0.0.1:1/",
        "--out",
        out,
        "--chrome",
        "/nonexistent/chromium",
    ])
    .await;
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("/nonexistent/chromium"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_records_findings_with_traces() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let url = testbed.url("/t/exception");
    let (code, stdout, err) = run(&[
        "explore",
        &url,
        "--out",
        out,
        "--max-actions",
        "12",
        "--seed",
        "3",
    ])
    .await;
    assert_eq!(code, 1, "findings mean exit 1: {stdout}\n{err}");
    assert!(
        stdout.contains("uncaught_exception: Error: testbed boom"),
        "{stdout}"
    );
    let record = RunRecord::read_json(&dir.path().join("record.json")).expect("record.json");
    let summary = record.summary.as_ref().expect("finished run");
    assert_eq!(summary.stop_reason, "max_actions");
    assert_eq!(record.meta.seed, 3);
    let boom = record
        .findings
        .iter()
        .find(|f| f.message.contains("testbed boom"))
        .expect("the exception is a finding");
    assert_eq!(boom.trace[0].kind, curio_record::StepKind::Goto);
    assert_eq!(boom.trace[0].value.as_deref(), Some(url.as_str()));
    let last = boom.trace.last().unwrap();
    assert_eq!(last.kind, curio_record::StepKind::Click);
    assert_eq!(last.selector, "#boom");
    assert!(
        dir.path()
            .join(boom.screenshot.as_ref().expect("screenshot"))
            .exists()
    );
    // The same run, replayed with the same seed, makes the same choices.
    let dir2 = tempfile::tempdir().unwrap();
    let out2 = dir2.path().to_str().unwrap();
    run(&[
        "explore",
        &url,
        "--out",
        out2,
        "--max-actions",
        "12",
        "--seed",
        "3",
    ])
    .await;
    let again = RunRecord::read_json(&dir2.path().join("record.json")).unwrap();
    let steps = |r: &RunRecord| r.steps.iter().map(|s| s.step.clone()).collect::<Vec<_>>();
    assert_eq!(steps(&record), steps(&again));
    testbed.shutdown().await;
}

fn findings_in(store: &Path) -> Vec<String> {
    let Ok(store) = Store::open_read_only(store) else {
        return vec![];
    };
    let Ok(Some(run)) = store.latest_run() else {
        return vec![];
    };
    store
        .load_run(run)
        .map(|r| r.findings.into_iter().map(|f| f.signature).collect())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_keeps_every_finding_observed() {
    let demo = curio_subjects::serve(Subject::Demo).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let mut child = curio()
        .args(["explore", &demo.base_url(), "--time", "5m", "--seed", "5"])
        .arg("--out")
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Its own process group, so the kill takes its Chromium down with it, as a
        // killed CI job or container would, instead of leaving it to the machine.
        .process_group(0)
        .spawn()
        .unwrap();
    let started = Instant::now();
    let mut seen = vec![];
    while seen.len() < 2 && started.elapsed() < Duration::from_secs(150) {
        tokio::time::sleep(Duration::from_millis(300)).await;
        seen = findings_in(&db);
    }
    assert!(!seen.is_empty(), "no finding within the wait");
    let group = format!("-{}", child.id().expect("pid"));
    let killed = std::process::Command::new("kill")
        .args(["-KILL", "--", &group])
        .status();
    assert!(killed.unwrap().success());
    child.wait().await.unwrap();
    let after = Store::open_read_only(&db).expect("store survives");
    let run = after.latest_run().unwrap().expect("run");
    let record = after.load_run(run).unwrap();
    assert!(record.summary.is_none(), "a killed run has no summary");
    let kept: Vec<String> = record
        .findings
        .iter()
        .map(|f| f.signature.clone())
        .collect();
    for s in &seen {
        assert!(kept.contains(s), "lost {s}");
    }
    assert!(!record.steps.is_empty());
    demo.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_triggers_every_seeded_fault() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    // The demo's own budget is 90 s in a release build; this is a debug build sharing
    // the machine with the other tests, so the test gives it three.
    let (code, stdout, err) = run(&["demo", "--out", out, "--time", "180s"]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Demo ground truth:"))
        .unwrap_or_else(|| panic!("no ground truth line in {stdout}"));
    let counts: Vec<u32> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(counts.len(), 2, "{line}");
    assert_eq!(counts[0], counts[1], "{stdout}");
    // Each triggered fault is also one of Curio's findings.
    let record = RunRecord::read_json(&dir.path().join("record.json")).unwrap();
    assert!(record.findings.len() as u32 >= counts[1], "{stdout}");
}
