//! Pages in the shape of real apps' through the real `curio` binary: popups explored
//! with their opener, the browser's own requests kept out of the findings, severities
//! and `--fail-on`, and logins written as people write them (their own CSS selectors,
//! or a login page, a user name and a password).

mod common;
use common::{run, run_with_env};

use std::path::Path;

use curio_record::{RunRecord, Severity};
use curio_subjects::Subject;

/// The password of the testbed's staff member, given to Curio by the environment.
const PASSWORD: (&str, &str) = ("CURIO_TEST_STAFF_PASSWORD", "s3cret");

fn record_in(dir: &Path) -> RunRecord {
    RunRecord::read_json(&dir.join("record.json")).expect("record.json")
}

/// A picker opened by `window.open` (and by a `target=_blank` link) reads the form of
/// the window that opened it. Curio shows it in its own window with its opener, as a
/// user meets it, chooses in it, and never loads it where its opener is missing: the
/// run has no finding, and it did work in the popup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_popup_is_explored_with_its_opener_and_never_alone() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let (code, stdout, err) = run(&[
        "explore",
        &testbed.url("/t/picker"),
        "--out",
        out.path().to_str().unwrap(),
        "--max-actions",
        "40",
        "--seed",
        "1",
        "--no-screenshots",
    ])
    .await;
    let record = record_in(out.path());
    let findings: Vec<&str> = record.findings.iter().map(|f| f.message.as_str()).collect();
    assert!(findings.is_empty(), "{findings:?}\n{stdout}\n{err}");
    assert_eq!(code, 0, "{stdout}\n{err}");
    let in_popup = record
        .steps
        .iter()
        .filter(|s| s.page_url.contains("/t/picker/choose"))
        .count();
    assert!(
        in_popup > 0,
        "some moves were made in the popup: {:?}",
        record
            .steps
            .iter()
            .map(|s| (&s.page_url, &s.step.locator))
            .collect::<Vec<_>>()
    );
    testbed.shutdown().await;
}

/// The browser asks for a page's icon by itself; its 404 is noise, kept in the record,
/// never a finding.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browsers_own_requests_are_noise() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let (code, stdout, err) = run(&[
        "explore",
        &testbed.url("/t/iconless"),
        "--out",
        out.path().to_str().unwrap(),
        "--max-actions",
        "6",
        "--seed",
        "1",
        "--no-screenshots",
    ])
    .await;
    let record = record_in(out.path());
    assert!(record.findings.is_empty(), "{stdout}\n{err}");
    assert_eq!(code, 0, "{stdout}\n{err}");
    let icon = record
        .observations
        .iter()
        .find(|o| o.url.ends_with("/t/iconless/favicon.ico"))
        .unwrap_or_else(|| panic!("the browser asked for the icon: {:?}", record.observations));
    assert_eq!(icon.status, Some(404));
    assert!(!icon.in_scope, "{icon:?}");
    testbed.shutdown().await;
}

/// A file input gets a small file of a type it accepts; no native dialog waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_input_gets_a_sample_file() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let (_, stdout, err) = run(&[
        "explore",
        &testbed.url("/t/upload"),
        "--out",
        out.path().to_str().unwrap(),
        "--max-actions",
        "8",
        "--seed",
        "1",
        "--no-screenshots",
        "--no-verify",
    ])
    .await;
    let record = record_in(out.path());
    assert!(
        record
            .findings
            .iter()
            .any(|f| f.message.contains("upload: got sample.png of 67 bytes")),
        "{stdout}\n{err}"
    );
    testbed.shutdown().await;
}

/// A console error is a warning: it fails the run by default and in JUnit, not with
/// `--fail-on error`, where its JUnit case passes and says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fail_on_decides_the_exit_code_and_the_junit_failures() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let junit = out.path().join("junit.xml");
    let args = |level: &'static str| {
        vec![
            "explore".to_string(),
            testbed.url("/t/console"),
            "--out".into(),
            out.path().to_str().unwrap().into(),
            "--max-actions".into(),
            "3".into(),
            "--no-screenshots".into(),
            "--report-junit".into(),
            junit.to_str().unwrap().into(),
            "--fail-on".into(),
            level.into(),
        ]
    };
    let warning = args("warning");
    let (code, stdout, err) = run(&warning.iter().map(String::as_str).collect::<Vec<_>>()).await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    let record = record_in(out.path());
    assert!(
        record
            .findings
            .iter()
            .all(|f| f.severity == Severity::Warning),
        "{:?}",
        record.findings
    );
    assert!(stdout.contains("[warning]"), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<failure"), "{xml}");

    let error = args("error");
    let (code, stdout, err) = run(&error.iter().map(String::as_str).collect::<Vec<_>>()).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(!xml.contains("<failure"), "{xml}");
    assert!(xml.contains("below the level that fails the run"), "{xml}");

    let bad = args("loud");
    let (code, _, err) = run(&bad.iter().map(String::as_str).collect::<Vec<_>>()).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--fail-on"), "{err}");
    testbed.shutdown().await;
}

/// Explores the testbed from `start` (seed, action budget) with `login` as the
/// `[login]` table: the exit code, the record, and what Curio printed.
async fn explore_logged_in(
    dir: &Path,
    base: &str,
    (start, seed, actions): (&str, u32, u32),
    login: &str,
) -> (i32, Option<RunRecord>, String) {
    let file = dir.join("curio.toml");
    std::fs::write(
        &file,
        format!(
            "url = \"{base}{start}\"\nseed = {seed}\n\n[budget]\nmax-actions = {actions}\n\n[login]\n{login}\n"
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (code, stdout, err) = run_with_env(
        &[
            "--config",
            file.to_str().unwrap(),
            "explore",
            "--no-screenshots",
            "--out",
            out.to_str().unwrap(),
        ],
        &[PASSWORD],
    )
    .await;
    let record = RunRecord::read_json(&out.join("record.json")).ok();
    (code, record, format!("{stdout}\n{err}"))
}

/// Explores the staff area with `login` as the `[login]` table.
async fn explore_staff(dir: &Path, base: &str, login: &str) -> (i32, Option<RunRecord>, String) {
    explore_logged_in(dir, base, ("/t/staff", 3, 25), login).await
}

fn reached_reports(record: &RunRecord) -> bool {
    record
        .findings
        .iter()
        .any(|f| f.message.contains("the report chart failed") && f.reproduced == Some(true))
}

/// The login page, a user name and a password are enough: Curio finds the form (the
/// framework's markup), logs in, derives the logged-in check from the log-out control,
/// and reaches (and replays) what only staff see. A wrong password is a configuration
/// error that says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_in_two_lines_reaches_the_staff_pages() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let base = testbed.base_url();
    let base = base.trim_end_matches('/');
    let dir = tempfile::tempdir().unwrap();
    let two_lines = "url = \"/t/staff/login\"\nusername = \"ann\"\npassword-env = \"CURIO_TEST_STAFF_PASSWORD\"";
    let (code, record, printed) = explore_staff(dir.path(), base, two_lines).await;
    assert_eq!(code, 1, "{printed}");
    assert!(reached_reports(&record.expect(&printed)), "{printed}");
    assert!(
        printed.contains("form[action$=\"/t/staff/logout\"]"),
        "the check is the log-out form: {printed}"
    );

    let wrong = "url = \"/t/staff/login\"\nusername = \"bob\"\npassword-env = \"CURIO_TEST_STAFF_PASSWORD\"";
    let (code, _, printed) = explore_staff(dir.path(), base, wrong).await;
    assert_eq!(code, 2, "{printed}");
    assert!(printed.contains("is the password right?"), "{printed}");
    testbed.shutdown().await;
}

/// A login form in the sidebar of every page (no login page, no ids, a search form
/// before it) logs in by the two lines too, and the check is the log-out link by the
/// action in its query.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sidebar_login_in_two_lines() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let base = testbed.base_url();
    let base = base.trim_end_matches('/');
    let dir = tempfile::tempdir().unwrap();
    let two_lines =
        "url = \"/t/sidebar\"\nusername = \"ann\"\npassword-env = \"CURIO_TEST_STAFF_PASSWORD\"";
    let (code, record, printed) =
        explore_logged_in(dir.path(), base, ("/t/sidebar", 2, 20), two_lines).await;
    assert_eq!(code, 1, "{printed}");
    assert!(
        printed.contains(r#"a[href*="@action=logout"]"#),
        "the check is the log-out link: {printed}"
    );
    let record = record.expect(&printed);
    assert!(
        record
            .findings
            .iter()
            .any(|f| f.message.contains("the issue list failed") && f.reproduced == Some(true)),
        "{printed}"
    );
    testbed.shutdown().await;
}

/// Login steps take the selectors people write: classes and descendants, attribute
/// selectors with and without quotes, `:has()`; a selector Chromium refuses is a
/// configuration error that names it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_steps_take_any_css_selector() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let base = testbed.base_url();
    let base = base.trim_end_matches('/');
    let dir = tempfile::tempdir().unwrap();
    let steps = r##"steps = [
  { goto = "/t/staff/login" },
  { fill = ".login-form input[name=username]", value = "ann" },
  { fill = 'input[type="password"]', value-env = "CURIO_TEST_STAFF_PASSWORD" },
  { click = "input[type=submit]" },
]
check = "#user-tools:has(form[action$='/logout'])""##;
    let (code, record, printed) = explore_staff(dir.path(), base, steps).await;
    assert_eq!(code, 1, "{printed}");
    assert!(reached_reports(&record.expect(&printed)), "{printed}");

    let refused = r##"steps = [
  { goto = "/t/staff/login" },
  { fill = "input[[name=username", value = "ann" },
]"##;
    let (code, _, printed) = explore_staff(dir.path(), base, refused).await;
    assert_eq!(code, 2, "{printed}");
    assert!(printed.contains("input[[name=username"), "{printed}");
    testbed.shutdown().await;
}
