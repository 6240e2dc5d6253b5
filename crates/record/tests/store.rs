//! The run store end to end: round trips through SQLite and `record.json`, several runs
//! in one file, a reader following a live writer, and a writer killed with SIGKILL.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use curio_record::{
    ConstraintRecord, Coverage, Expectation, Finding, FindingId, FormFieldRecord, FormRecord,
    FssRecord, Locate, Observation, ObservationKind, ProgressPoint, RunId, RunMeta, RunRecord,
    RunStats, RunSummary, SCHEMA_VERSION, ScriptCoverage, Severity, SourceLocation, StateRecord,
    Step, StepKind, StepRecord, Store, StoreError, TestScript, TestStep, TransitionRecord,
};
use serde_json::json;

fn meta(seed: u64) -> RunMeta {
    RunMeta {
        tool_version: "0.1.0".to_owned(),
        start_url: "http://127.0.0.1:8080/".to_owned(),
        strategy: "random".to_owned(),
        seed,
        browser_version: "HeadlessChrome/140.0".to_owned(),
        started_at_ms: 1_760_000_000_000,
        config: json!({
            "max_actions": 200,
            "headless": true,
            "origins": ["http://127.0.0.1:8080"],
            "timeouts": { "settle_ms": 500, "step_ms": null },
        }),
    }
}

fn goto(url: &str) -> Step {
    Step {
        kind: StepKind::Goto,
        locator: String::new(),
        selector: String::new(),
        value: Some(url.to_owned()),
        href: None,
    }
}

fn click(name: &str) -> Step {
    Step {
        kind: StepKind::Click,
        locator: format!("button \"{name}\""),
        selector: format!("#{name}"),
        value: None,
        href: None,
    }
}

fn step_record(index: u32, episode: u32, step: Step) -> StepRecord {
    StepRecord {
        index,
        episode,
        step,
        page_url: "http://127.0.0.1:8080/".to_owned(),
        result_url: format!("http://127.0.0.1:8080/after/{index}"),
        duration_ms: 100 + u64::from(index),
        js_click_fallback: index % 2 == 1,
        settle_timed_out: index % 3 == 2,
    }
}

fn steps() -> Vec<StepRecord> {
    vec![
        step_record(0, 0, goto("http://127.0.0.1:8080/")),
        step_record(1, 0, click("save")),
        step_record(
            2,
            0,
            Step {
                kind: StepKind::Fill,
                locator: "textbox \"Name\"".to_owned(),
                selector: "form > input:nth-child(2)".to_owned(),
                value: Some("Zoë 'quoted' \"name\"".to_owned()),
                href: None,
            },
        ),
        step_record(3, 1, goto("http://127.0.0.1:8080/other")),
        step_record(
            4,
            1,
            Step {
                kind: StepKind::Select,
                locator: "combobox \"Size\"".to_owned(),
                selector: "#size".to_owned(),
                value: Some("large".to_owned()),
                href: None,
            },
        ),
        step_record(
            5,
            1,
            Step {
                kind: StepKind::Check,
                locator: "checkbox \"Agree\"".to_owned(),
                selector: "#agree".to_owned(),
                value: None,
                href: None,
            },
        ),
    ]
}

fn observations() -> Vec<Observation> {
    vec![
        Observation {
            step: 1,
            kind: ObservationKind::UncaughtException,
            message: "TypeError: x is undefined".to_owned(),
            url: "http://127.0.0.1:8080/".to_owned(),
            source: Some(SourceLocation {
                url: "http://127.0.0.1:8080/app.js".to_owned(),
                line: 12,
                column: 7,
            }),
            status: None,
            method: None,
            in_scope: true,
        },
        Observation {
            step: 1,
            kind: ObservationKind::HttpServerError,
            message: "500 Internal Server Error".to_owned(),
            url: "http://127.0.0.1:8080/api/save".to_owned(),
            source: None,
            status: Some(500),
            method: Some("POST".to_owned()),
            in_scope: true,
        },
        Observation {
            step: 0,
            kind: ObservationKind::NetworkFailure,
            message: "net::ERR_NAME_NOT_RESOLVED".to_owned(),
            url: "https://fonts.example.com/font.woff2".to_owned(),
            source: None,
            status: None,
            method: Some("GET".to_owned()),
            in_scope: false,
        },
        Observation {
            step: 4,
            kind: ObservationKind::Dialog,
            message: "alert: saved".to_owned(),
            url: "http://127.0.0.1:8080/other".to_owned(),
            source: None,
            status: None,
            method: None,
            in_scope: true,
        },
    ]
}

/// A finding as the runner hands it over; its id and count are the store's to set.
fn finding(signature: &str, first_step: u32) -> Finding {
    // Odd steps give an HTTP finding (status, no source), even ones a script error.
    let status = (first_step % 2 == 1).then_some(404);
    Finding {
        id: FindingId(99),
        signature: signature.to_owned(),
        kind: ObservationKind::ConsoleError,
        message: format!("error {signature}"),
        url: "http://127.0.0.1:8080/".to_owned(),
        source: status.is_none().then(|| SourceLocation {
            url: "http://127.0.0.1:8080/app.js".to_owned(),
            line: first_step,
            column: 1,
        }),
        status,
        first_step,
        trace: vec![goto("http://127.0.0.1:8080/"), click("save")],
        occurrences: 42,
        screenshot: None,
        reproduced: None,
        severity: Severity::Warning,
        links: Vec::new(),
    }
}

fn summary(findings: u32) -> RunSummary {
    RunSummary {
        finished_at_ms: 1_760_000_060_000,
        steps: 6,
        episodes: 2,
        states: 4,
        findings,
        stop_reason: "max_actions".to_owned(),
        stats: RunStats {
            actions: 3,
            page_kinds: 2,
            wall_ms: 1000,
            browser_ms: 900,
            replay_ms: 0,
            peak_rss_kb: Some(50_000),
        },
    }
}

fn coverage() -> Coverage {
    Coverage {
        scripts: vec![
            ScriptCoverage {
                url: "http://127.0.0.1:8080/app.js".to_owned(),
                covered_blocks: 40,
                total_blocks: 100,
                covered_bytes: 1200,
                total_bytes: 4000,
            },
            // Two anonymous scripts: both must be kept.
            ScriptCoverage {
                url: String::new(),
                covered_blocks: 1,
                total_blocks: 2,
                covered_bytes: 10,
                total_bytes: 20,
            },
            ScriptCoverage {
                url: String::new(),
                covered_blocks: 3,
                total_blocks: 3,
                covered_bytes: 30,
                total_bytes: 30,
            },
        ],
    }
}

fn states() -> Vec<StateRecord> {
    vec![
        StateRecord {
            id: 0,
            url: "http://127.0.0.1:8080/".to_owned(),
            first_step: 0,
            screenshot: Some("screenshots/state-0.png".to_owned()),
        },
        StateRecord {
            id: 1,
            url: "http://127.0.0.1:8080/cart".to_owned(),
            first_step: 1,
            screenshot: None,
        },
    ]
}

fn transitions() -> Vec<TransitionRecord> {
    vec![
        TransitionRecord {
            from: 0,
            to: Some(1),
            action: "click link \"Cart\"".to_owned(),
            count: 3,
        },
        TransitionRecord {
            from: 1,
            to: None,
            action: "click link \"Help\"".to_owned(),
            count: 1,
        },
    ]
}

fn form() -> FormRecord {
    FormRecord {
        page_url: "http://127.0.0.1:8080/signup".to_owned(),
        index: 0,
        title: "Sign up".to_owned(),
        fields: vec![FormFieldRecord {
            name: "email".to_owned(),
            locator: "textbox \"Email\"".to_owned(),
            kind: "email".to_owned(),
        }],
        constraints: vec![ConstraintRecord {
            constraint: "required(email)".to_owned(),
            verdict: "confirmed".to_owned(),
            source: "rules".to_owned(),
            fss: Some(1),
        }],
        fss: vec![FssRecord {
            outcome: "failure".to_owned(),
            signature: "failure|email:required".to_owned(),
            messages: vec![("email".to_owned(), "Please fill in this field.".to_owned())],
            values: vec![("email".to_owned(), String::new())],
            purpose: "negate required(email)".to_owned(),
            tests: vec!["tests/playwright/form-0.spec.ts".to_owned()],
            replays: 2,
            reproduced: 2,
            script: Some(TestScript {
                name: "state 1: Sign up is refused (email)".to_owned(),
                url: "http://127.0.0.1:8080/signup".to_owned(),
                steps: vec![
                    TestStep::Fill {
                        at: Locate::Label("Email".to_owned()),
                        value: String::new(),
                    },
                    TestStep::Click {
                        at: Locate::Role {
                            role: "button".to_owned(),
                            name: "Sign up".to_owned(),
                        },
                    },
                ],
                expect: vec![Expectation::Validation {
                    at: Locate::Label("Email".to_owned()),
                    text: "Please fill in this field.".to_owned(),
                }],
            }),
        }],
        submissions: 4,
        reached: true,
        problems: Vec::new(),
        seconds: 1.5,
    }
}

fn progress() -> Vec<ProgressPoint> {
    (0..3)
        .map(|i| ProgressPoint {
            elapsed_ms: 1000 * i as u64,
            steps: 2 * i,
            states: i,
            findings: i / 2,
            covered_blocks: 10 * i,
            total_blocks: 100,
        })
        .collect()
}

#[test]
fn full_run_round_trips_through_store_and_json() {
    let dir = tempfile::tempdir().unwrap();
    // A missing parent directory is created.
    let db = dir.path().join("out/nested/runs.db");
    let mut store = Store::open(&db).unwrap();
    let meta = meta(u64::MAX);
    let run = store.begin_run(&meta).unwrap();

    for step in steps() {
        store.append_step(run, &step).unwrap();
    }
    for observation in observations() {
        store.append_observation(run, &observation).unwrap();
    }
    let recorded: Vec<FindingId> = [("a", 1), ("b", 2), ("a", 3), ("a", 4), ("c", 5)]
        .into_iter()
        .map(|(signature, step)| {
            store
                .record_finding(run, &finding(signature, step))
                .unwrap()
        })
        .collect();
    assert_eq!(recorded, [1, 2, 1, 1, 3].map(FindingId));
    store
        .set_finding_screenshot(run, FindingId(2), "screenshots/finding-2.png")
        .unwrap();
    let short = vec![goto("http://127.0.0.1:8080/"), click("short")];
    store
        .set_finding_trace(run, FindingId(3), &short, Some(true))
        .unwrap();
    assert!(matches!(
        store.set_finding_trace(run, FindingId(9), &short, Some(true)),
        Err(StoreError::NoSuchFinding { .. })
    ));
    // Coverage is replaced, not added to.
    store
        .set_coverage(
            run,
            &Coverage {
                scripts: vec![ScriptCoverage {
                    url: "http://127.0.0.1:8080/gone.js".to_owned(),
                    covered_blocks: 1,
                    total_blocks: 1,
                    covered_bytes: 5,
                    total_bytes: 5,
                }],
            },
        )
        .unwrap();
    store.set_coverage(run, &coverage()).unwrap();
    for state in states() {
        store.add_state(run, &state).unwrap();
    }
    let transitions = transitions();
    for (position, t) in transitions.iter().enumerate() {
        // Written when first taken, then again with its new count.
        let first = TransitionRecord {
            count: 1,
            ..t.clone()
        };
        store.set_transition(run, position as u32, &first).unwrap();
        store.set_transition(run, position as u32, t).unwrap();
    }
    for point in progress() {
        store.append_progress(run, &point).unwrap();
    }
    store.add_form(run, &form()).unwrap();
    store.finish_run(run, &summary(3)).unwrap();

    let mut findings = vec![finding("a", 1), finding("b", 2), finding("c", 5)];
    for (finding, (id, occurrences)) in findings.iter_mut().zip([(1, 3), (2, 1), (3, 1)]) {
        finding.id = FindingId(id);
        finding.occurrences = occurrences;
    }
    findings[1].screenshot = Some("screenshots/finding-2.png".to_owned());
    findings[2].trace = short;
    findings[2].reproduced = Some(true);
    let expected = RunRecord {
        schema_version: SCHEMA_VERSION,
        run_id: run,
        meta: meta.clone(),
        steps: steps(),
        findings,
        observations: observations(),
        coverage: coverage(),
        states: states(),
        transitions,
        progress: progress(),
        forms: vec![form()],
        summary: Some(summary(3)),
    };

    let loaded = store.load_run(run).unwrap();
    assert_eq!(loaded, expected);
    assert_eq!(store.runs().unwrap(), [(run, meta, Some(summary(3)))]);
    assert_eq!(store.latest_run().unwrap(), Some(run));

    // The same after closing and reopening the file.
    drop(store);
    assert_eq!(Store::open(&db).unwrap().load_run(run).unwrap(), expected);

    // And through record.json.
    let json_path = dir.path().join("record.json");
    loaded.write_json(&json_path).unwrap();
    assert_eq!(RunRecord::read_json(&json_path).unwrap(), expected);
    let json: serde_json::Value = serde_json::from_str(&loaded.to_json_pretty()).unwrap();
    assert_eq!(json["findings"][0]["kind"], "console_error");
    assert_eq!(json["meta"]["seed"], u64::MAX);
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["out", "record.json"], "no temporary file is left");
}

#[test]
fn two_runs_in_one_file_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let mut store = Store::open(&db).unwrap();
    assert_eq!(store.latest_run().unwrap(), None);
    assert!(store.runs().unwrap().is_empty());

    let first = store.begin_run(&meta(1)).unwrap();
    let second = store.begin_run(&meta(2)).unwrap();
    assert_ne!(first, second);
    // Interleaved, as two runners sharing the file would write.
    for step in steps() {
        store.append_step(first, &step).unwrap();
        if step.index < 2 {
            store.append_step(second, &step).unwrap();
        }
    }
    store
        .append_observation(second, &observations()[0])
        .unwrap();
    // Same signature in both runs: separate findings, each numbered from 1.
    assert_eq!(
        store.record_finding(first, &finding("x", 0)).unwrap(),
        FindingId(1)
    );
    assert_eq!(
        store.record_finding(second, &finding("y", 0)).unwrap(),
        FindingId(1)
    );
    assert_eq!(
        store.record_finding(second, &finding("x", 1)).unwrap(),
        FindingId(2)
    );
    assert_eq!(
        store.record_finding(first, &finding("x", 3)).unwrap(),
        FindingId(1)
    );
    store.set_coverage(first, &coverage()).unwrap();
    store.finish_run(second, &summary(2)).unwrap();

    let a = store.load_run(first).unwrap();
    let b = store.load_run(second).unwrap();
    assert_eq!(
        (a.run_id, a.meta.seed, b.run_id, b.meta.seed),
        (first, 1, second, 2)
    );
    assert_eq!(a.steps.len(), 6);
    assert_eq!(b.steps, steps()[..2]);
    assert!(a.observations.is_empty());
    assert_eq!(b.observations, observations()[..1]);
    let counts = |r: &RunRecord| -> Vec<_> {
        r.findings
            .iter()
            .map(|f| (f.id.0, f.signature.clone(), f.occurrences))
            .collect()
    };
    assert_eq!(counts(&a), [(1, "x".to_owned(), 2)]);
    assert_eq!(counts(&b), [(1, "y".to_owned(), 1), (2, "x".to_owned(), 1)]);
    assert_eq!(a.coverage, coverage());
    assert_eq!(b.coverage, Coverage::default());
    assert_eq!((a.summary, b.summary), (None, Some(summary(2))));

    let runs: Vec<_> = store
        .runs()
        .unwrap()
        .into_iter()
        .map(|(id, meta, summary)| (id, meta.seed, summary.is_some()))
        .collect();
    assert_eq!(runs, [(first, 1, false), (second, 2, true)]);
    assert_eq!(store.latest_run().unwrap(), Some(second));
}

#[test]
fn read_only_store_sees_appends_of_a_writer_still_open() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let mut writer = Store::open(&db).unwrap();
    let run = writer.begin_run(&meta(3)).unwrap();
    writer.append_step(run, &steps()[0]).unwrap();

    let reader = Store::open_read_only(&db).unwrap();
    assert_eq!(reader.latest_run().unwrap(), Some(run));
    let seen = reader.load_run(run).unwrap();
    assert_eq!((seen.steps.len(), seen.findings.len()), (1, 0));

    writer.append_step(run, &steps()[1]).unwrap();
    writer.record_finding(run, &finding("late", 1)).unwrap();
    let seen = reader.load_run(run).unwrap();
    assert_eq!(seen.steps, steps()[..2]);
    assert_eq!(seen.findings.len(), 1);
    assert_eq!(seen.summary, None);

    writer.finish_run(run, &summary(1)).unwrap();
    assert_eq!(reader.load_run(run).unwrap().summary, Some(summary(1)));

    // The reader cannot write.
    let mut reader = reader;
    let err = reader.append_step(run, &steps()[2]).unwrap_err();
    assert!(matches!(err, StoreError::Write { .. }), "{err}");
}

#[test]
fn read_only_store_opens_a_cleanly_closed_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let mut writer = Store::open(&db).unwrap();
    let run = writer.begin_run(&meta(4)).unwrap();
    writer.append_step(run, &steps()[0]).unwrap();
    drop(writer);

    let reader = Store::open_read_only(&db).unwrap();
    assert_eq!(reader.load_run(run).unwrap().steps, steps()[..1]);
}

#[test]
fn read_only_open_of_a_missing_file_fails_without_creating_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("missing.db");
    let err = Store::open_read_only(&db).unwrap_err();
    assert!(matches!(err, StoreError::Open { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("failed to open run store {}: ", db.display())),
        "{err}"
    );
    assert!(!db.exists());
}

/// The broken links of the grouped finding: each link once per page, in the order
/// found, with the severity of the finding's kind and status.
#[test]
fn broken_links_join_their_finding() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let mut store = Store::open(&db).unwrap();
    let run = store.begin_run(&meta(1)).unwrap();
    let mut f = finding("http_client_error|broken links", 1);
    f.kind = ObservationKind::HttpClientError;
    let id = store.record_finding(run, &f).unwrap();
    let link = |url: &str, page: &str| curio_record::BrokenLink {
        url: url.into(),
        page: page.into(),
        text: "About".into(),
        status: 404,
    };
    store
        .add_broken_link(run, id, &link("/about", "/"))
        .unwrap();
    store
        .add_broken_link(run, id, &link("/about", "/"))
        .unwrap();
    store
        .add_broken_link(run, id, &link("/about", "/help"))
        .unwrap();
    let loaded = store.load_run(run).unwrap();
    let got = &loaded.findings[0];
    assert_eq!(
        got.links,
        vec![link("/about", "/"), link("/about", "/help")]
    );
    assert_eq!(got.severity, Severity::Warning);
    assert!(
        store
            .add_broken_link(run, FindingId(9), &link("/x", "/"))
            .is_err()
    );
}

/// A store of the layout before broken links is brought up to date when opened for
/// writing, its runs kept.
#[test]
fn a_version_4_store_gains_the_links_column() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let run = {
        let mut store = Store::open(&db).unwrap();
        let run = store.begin_run(&meta(1)).unwrap();
        store.record_finding(run, &finding("a", 2)).unwrap();
        run
    };
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("ALTER TABLE findings DROP COLUMN links; PRAGMA user_version = 4;")
        .unwrap();
    drop(conn);
    let store = Store::open(&db).unwrap();
    let loaded = store.load_run(run).unwrap();
    assert_eq!(loaded.findings.len(), 1);
    assert!(loaded.findings[0].links.is_empty());
}

#[test]
fn store_with_an_unknown_schema_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    drop(Store::open(&db).unwrap());
    rusqlite::Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();

    for err in [
        Store::open(&db).unwrap_err(),
        Store::open_read_only(&db).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                StoreError::SchemaVersion {
                    found: 99,
                    expected: 5,
                    ..
                }
            ),
            "{err}"
        );
        let message = err.to_string();
        assert!(message.contains(&db.display().to_string()), "{message}");
    }
}

#[test]
fn a_foreign_database_is_not_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("other.db");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE runs (name TEXT)")
        .unwrap();
    let err = Store::open(&db).unwrap_err();
    assert!(matches!(err, StoreError::NotAStore { .. }), "{err}");
}

#[test]
fn writes_to_unknown_runs_and_findings_fail() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    let mut store = Store::open(&db).unwrap();
    let run = store.begin_run(&meta(5)).unwrap();
    let ghost = RunId(run.0 + 1);

    let err = store.append_step(ghost, &steps()[0]).unwrap_err();
    assert!(matches!(err, StoreError::Write { .. }), "{err}");
    let err = store.record_finding(ghost, &finding("a", 0)).unwrap_err();
    assert!(matches!(err, StoreError::Write { .. }), "{err}");
    let err = store.finish_run(ghost, &summary(0)).unwrap_err();
    assert!(
        matches!(err, StoreError::NoSuchRun { run, .. } if run == ghost),
        "{err}"
    );
    let err = store.set_coverage(ghost, &Coverage::default()).unwrap_err();
    assert!(matches!(err, StoreError::NoSuchRun { .. }), "{err}");
    let err = store.load_run(ghost).unwrap_err();
    assert!(matches!(err, StoreError::NoSuchRun { .. }), "{err}");
    let err = store
        .set_finding_screenshot(run, FindingId(1), "x.png")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "run store {} has no finding 1 in run {}",
            db.display(),
            run.0
        )
    );
    // A step index is taken once per run.
    store.append_step(run, &steps()[0]).unwrap();
    let err = store.append_step(run, &steps()[0]).unwrap_err();
    assert!(
        err.to_string().starts_with(&format!(
            "failed to append step 0 to run {} in run store ",
            run.0
        )),
        "{err}"
    );
}

/// Set to the store path in the child process of the SIGKILL test.
const CRASH_CHILD_DB: &str = "CURIO_RECORD_CRASH_CHILD_DB";
const CRASH_FINDINGS: u32 = 5;
const CRASH_ROUNDS: u32 = 3;

/// The child of `sigkill_loses_nothing_written`: writes a run that never finishes, says
/// `ready`, and hangs until killed. Does nothing unless run by that test.
#[test]
#[ignore = "run by sigkill_loses_nothing_written in a child process"]
fn crash_child_writes_then_hangs() {
    let Some(db) = std::env::var_os(CRASH_CHILD_DB) else {
        return;
    };
    let mut store = Store::open(Path::new(&db)).unwrap();
    let run = store.begin_run(&meta(6)).unwrap();
    for round in 0..CRASH_ROUNDS {
        for n in 0..CRASH_FINDINGS {
            let index = round * CRASH_FINDINGS + n;
            store
                .append_step(run, &step_record(index, 0, click("go")))
                .unwrap();
            store
                .record_finding(run, &finding(&format!("sig-{n}"), index))
                .unwrap();
        }
    }
    store
        .set_finding_screenshot(run, FindingId(2), "screenshots/2.png")
        .unwrap();
    println!("ready");
    std::io::stdout().flush().unwrap();
    // Bounded, so that an orphan ends on its own should the parent die first.
    std::thread::sleep(Duration::from_secs(120));
}

/// Kills the child if the test fails before it does.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[cfg(unix)]
#[test]
fn sigkill_loses_nothing_written() {
    use std::os::unix::process::ExitStatusExt;

    let dir = tempfile::tempdir().unwrap();
    let db: PathBuf = dir.path().join("runs.db");
    let mut child = KillOnDrop(
        Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "crash_child_writes_then_hangs",
                "--nocapture",
                "--ignored",
            ])
            .env(CRASH_CHILD_DB, &db)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let stdout = child.0.stdout.take().unwrap();
    let ready = BufReader::new(stdout)
        .lines()
        .map(Result::unwrap)
        // libtest may print the test's name on the same line first.
        .any(|line| line.trim_end().ends_with("ready"));
    assert!(ready, "the child exited without saying ready");

    // Child::kill is SIGKILL on Unix: no destructor, no SQLite close, no checkpoint.
    child.0.kill().unwrap();
    let status = child.0.wait().unwrap();
    // SIGKILL is 9 on every Unix; spelled out to avoid a libc dependency.
    assert_eq!(status.signal(), Some(9), "{status}");

    // Everything is still in the WAL, not checkpointed into the main file: the reopen
    // below has to recover it.
    let wal = dir.path().join("runs.db-wal");
    assert!(std::fs::metadata(&wal).unwrap().len() > 0);

    let check = |store: &Store| {
        assert_eq!(store.runs().unwrap().len(), 1);
        let run = store.latest_run().unwrap().unwrap();
        let record = store.load_run(run).unwrap();
        assert_eq!(record.summary, None, "a killed run has no summary");
        assert_eq!(record.steps.len() as u32, CRASH_ROUNDS * CRASH_FINDINGS);
        let findings: Vec<_> = record
            .findings
            .iter()
            .map(|f| (f.id.0, f.signature.clone(), f.occurrences, f.first_step))
            .collect();
        let expected: Vec<_> = (0..CRASH_FINDINGS)
            .map(|n| (n + 1, format!("sig-{n}"), CRASH_ROUNDS, n))
            .collect();
        assert_eq!(findings, expected);
        assert_eq!(
            record.findings[1].screenshot.as_deref(),
            Some("screenshots/2.png")
        );
    };
    // Read-only first, as a report tool would on the killed run's file; then as a
    // writer, which recovers the WAL, and can go on with another run.
    check(&Store::open_read_only(&db).unwrap());
    let mut store = Store::open(&db).unwrap();
    check(&store);
    let next = store.begin_run(&meta(7)).unwrap();
    assert_eq!(store.latest_run().unwrap(), Some(next));
}
