//! Reports through the real `curio` binary: the HTML report of a subject-app run opened in
//! headless Chromium (nothing from the app runs in it), the JUnit file against the schema
//! CI systems read, and `curio report` rendering them again from the saved run.

mod common;
use common::run;

use std::path::Path;

use curio_browser::{Browser, BrowserConfig, Scope};
use curio_record::RunRecord;
use curio_subjects::Subject;
use serde_json::Value;

/// Opens a report page in headless Chromium and evaluates `facts` (a JS expression) in
/// it; gives its value and the failures the page had (exceptions, console errors,
/// failed loads).
async fn inspect(index: &Path, facts: &str) -> (Value, Vec<String>) {
    let config = BrowserConfig::builder().scope(Scope::default()).build();
    let browser = Browser::start(config).await.expect("launch chromium");
    let mut tab = browser.new_tab().await.expect("open tab");
    let outcome = tab
        .goto(&format!("file://{}", index.display()))
        .await
        .expect("open the report");
    let problems: Vec<String> = outcome
        .observations
        .iter()
        .filter(|o| o.kind.is_failure())
        .map(|o| format!("{}: {}", o.kind.as_str(), o.message))
        .collect();
    let facts = tab.evaluate(facts).await.expect("read the report");
    tab.close().await;
    browser.close().await;
    (facts, problems)
}

/// What the HTML report of an exploration shows.
const EXPLORE_FACTS: &str = r#"(() => {
  const loaded = img => img.complete && img.naturalWidth > 0;
  return {
    title: document.title,
    text: document.body.innerText,
    scripts: document.scripts.length,
    payloadImages: document.querySelectorAll('img[src="x"]').length,
    findings: [...document.querySelectorAll('article.finding')].map(a => a.id),
    shots: [...document.querySelectorAll('article.finding img.shot')].map(loaded),
    thumbs: [...document.querySelectorAll('#states img.thumb')].map(loaded),
    graphBoxes: document.querySelectorAll('#states .graph svg g[id^="state-node-"]').length,
    graphLinks: [...document.querySelectorAll('#states .graph svg a.state-link')]
      .map(a => a.getAttribute('href')),
    charts: document.querySelectorAll('#progress svg').length,
  };
})()"#;

/// What the HTML report of `curio forms` shows of its first form.
const FORM_FACTS: &str = r#"(() => {
  const form = document.querySelector('section.form');
  const rows = sel => form.querySelectorAll(sel).length;
  return {
    fields: rows('table:nth-of-type(1) tr') - 1,
    confirmed: rows('td.verdict-confirmed'),
    fss: form.querySelectorAll('table')[2].querySelectorAll('tr').length - 1,
    text: form.innerText,
  };
})()"#;

/// Runs `curio COMMAND` on a testbed page with `args`, writing the run to `run/`, the
/// HTML report to `html/` and the JUnit file to `junit.xml` of a fresh folder; checks the
/// exit code and gives the folder, the run's record and what it printed.
async fn run_on_testbed(
    command: &str,
    page: &str,
    args: &[&str],
    code: i32,
) -> (tempfile::TempDir, RunRecord, String) {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = |name: &str| out.path().join(name).to_str().unwrap().to_string();
    let (run_dir, html, junit) = (dir("run"), dir("html"), dir("junit.xml"));
    let url = testbed.url(page);
    let mut all = vec![command, &url, "--out", &run_dir];
    all.extend_from_slice(args);
    all.extend(["--report-html", &html, "--report-junit", &junit]);
    let (got, stdout, err) = run(&all).await;
    testbed.shutdown().await;
    assert_eq!(got, code, "{stdout}\n{err}");
    let record = RunRecord::read_json(&out.path().join("run/record.json")).unwrap();
    (out, record, stdout)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_html_report_shows_everything_and_runs_nothing_of_the_app() {
    let (out, record, stdout) = run_on_testbed(
        "explore",
        "/t/hostile",
        &["--max-actions", "6", "--seed", "3"],
        1,
    )
    .await;
    let (run_dir, html, junit) = (
        out.path().join("run"),
        out.path().join("html"),
        out.path().join("junit.xml"),
    );
    let hostile = record
        .findings
        .iter()
        .find(|f| f.message.contains("<script>"))
        .unwrap_or_else(|| panic!("the console error is a finding: {stdout}"));
    assert!(hostile.screenshot.is_some());
    assert!(
        hostile.trace.iter().any(|s| s.locator.contains("onerror")),
        "the step names the button by its text: {:?}",
        hostile.trace
    );
    assert!(stdout.contains("HTML report: "), "{stdout}");

    // The report folder stands alone: the run's folder is gone when it is opened.
    std::fs::remove_dir_all(&run_dir).unwrap();
    let (facts, problems) = inspect(&html.join("index.html"), EXPLORE_FACTS).await;
    assert!(problems.is_empty(), "the report page failed: {problems:?}");
    assert_ne!(facts["title"], "pwned", "a payload ran");
    assert_eq!(facts["scripts"], 0, "{facts}");
    assert_eq!(facts["payloadImages"], 0, "{facts}");
    let text = facts["text"].as_str().unwrap();
    assert!(
        text.contains(r#"<script>document.title="pwned"</script>"#),
        "{text}"
    );
    assert!(
        text.contains(r#"<img src=x onerror="document.title='pwned'">"#),
        "{text}"
    );
    let ids: Vec<String> = record
        .findings
        .iter()
        .map(|f| format!("finding-{}", f.id.0))
        .collect();
    assert_eq!(facts["findings"], serde_json::json!(ids));
    let shots = facts["shots"].as_array().unwrap();
    assert_eq!(shots.len(), record.findings.len(), "{facts}");
    assert!(
        shots.iter().all(|s| s == true),
        "a screenshot is missing: {facts}"
    );
    let thumbs = facts["thumbs"].as_array().unwrap();
    assert_eq!(thumbs.len(), record.states.len(), "{facts}");
    assert!(
        thumbs.iter().all(|s| s == true),
        "a state screenshot is missing: {facts}"
    );
    assert!(record.states.len() >= 2, "{:?}", record.states);
    assert_eq!(facts["graphBoxes"], record.states.len(), "{facts}");
    let links = facts["graphLinks"].as_array().unwrap();
    assert_eq!(links.len(), record.states.len(), "{facts}");
    assert!(
        links
            .iter()
            .all(|l| l.as_str().unwrap().starts_with("screenshots/state-")),
        "{facts}"
    );
    assert_eq!(facts["charts"], 2, "{facts}");

    // The JUnit file: a failed test case per finding, in the schema CI systems read.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(
        xml.matches("<failure ").count(),
        record.findings.len(),
        "{xml}"
    );
    validate_junit(&junit);
    assert!(!xml.contains("<script>"), "{xml}");

    // `curio report` renders the same reports from the saved record alone.
    let again = out.path().join("again");
    let record_json = again.join("record.json");
    std::fs::create_dir_all(&again).unwrap();
    std::fs::write(&record_json, record.to_json_pretty()).unwrap();
    let junit2 = again.join("junit.xml");
    let (code, stdout, err) = run(&[
        "report",
        again.to_str().unwrap(),
        "--report-junit",
        junit2.to_str().unwrap(),
        "--report-json",
        again.join("copy.json").to_str().unwrap(),
    ])
    .await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert_eq!(std::fs::read_to_string(&junit2).unwrap(), xml);
    assert_eq!(
        RunRecord::read_json(&again.join("copy.json")).unwrap(),
        record
    );
}

/// Checks a JUnit file against Jenkins' `junit-10.xsd` (the schema its JUnit and xUnit
/// plugins read) with xmllint.
fn validate_junit(file: &Path) {
    let schema = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/junit-10.xsd");
    let out = std::process::Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(&schema)
        .arg(file)
        .output()
        .expect("xmllint (Debian's libxml2-utils, installed by scripts/test)");
    assert!(
        out.status.success(),
        "{} does not validate: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn report_without_a_report_flag_or_record_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(&["report", dir.path().to_str().unwrap()]).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--report-html"), "{err}");
    let (code, _, err) = run(&[
        "report",
        dir.path().to_str().unwrap(),
        "--report-junit",
        "x.xml",
    ])
    .await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("record.json"), "{err}");
}

/// `curio forms` records its run too: the reports show each form's fields, rules with
/// the form's verdict, and its Form Submission States with their tests, and the JUnit
/// file has a test case per state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn form_reports_show_rules_states_and_tests() {
    let args = ["--max-submissions", "20", "--replays", "1"];
    let (out, record, _) = run_on_testbed("forms", "/t/form", &args, 0).await;
    let (html, junit) = (out.path().join("html"), out.path().join("junit.xml"));
    assert_eq!(record.meta.strategy, "forms");
    let form = &record.forms[0];
    assert!(form.fss.len() >= 2, "{form:?}");
    assert!(
        form.constraints.iter().any(|c| c.verdict == "confirmed"),
        "{form:?}"
    );
    let tested: Vec<&str> = form
        .fss
        .iter()
        .flat_map(|s| &s.tests)
        .map(String::as_str)
        .collect();
    assert!(tested.iter().any(|t| t.ends_with(".spec.ts")), "{tested:?}");

    let xml = std::fs::read_to_string(&junit).unwrap();
    validate_junit(&junit);
    assert_eq!(xml.matches("<testcase ").count(), form.fss.len(), "{xml}");

    for t in &tested {
        assert!(html.join(t).is_file(), "{t} is copied beside the report");
    }
    let (facts, problems) = inspect(&html.join("index.html"), FORM_FACTS).await;
    assert!(problems.is_empty(), "the report page failed: {problems:?}");
    assert_eq!(facts["fields"], form.fields.len(), "{facts}");
    assert_eq!(
        facts["confirmed"],
        form.constraints
            .iter()
            .filter(|c| c.verdict == "confirmed")
            .count(),
        "{facts}"
    );
    assert_eq!(facts["fss"], form.fss.len(), "{facts}");
    let text = facts["text"].as_str().unwrap();
    for (_, message) in form.fss.iter().flat_map(|s| s.messages.first()) {
        assert!(text.contains(message.as_str()), "{message} in {text}");
    }
}

/// `curio export` writes a test per finding from a saved run: Playwright Test runs the
/// finding's steps and the test fails while the app still fails that way; the pytest
/// file is valid Python.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exported_finding_tests_fail_while_the_bug_is_there() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run_dir = dir.path().join("run");
    let (code, stdout, err) = run(&[
        "explore",
        &testbed.url("/t/console"),
        "--out",
        run_dir.to_str().unwrap(),
        "--max-actions",
        "3",
        "--seed",
        "1",
    ])
    .await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    let tests = dir.path().join("tests");
    for format in ["playwright", "selenium"] {
        let (code, stdout, err) = run(&[
            "export",
            run_dir.to_str().unwrap(),
            "--format",
            format,
            "--out",
            tests.to_str().unwrap(),
        ])
        .await;
        assert_eq!(code, 0, "{stdout}\n{err}");
    }
    let python = tests.join("selenium/test_findings.py");
    let compiled = std::process::Command::new("python3")
        .args(["-m", "py_compile"])
        .arg(&python)
        .output()
        .unwrap();
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let (passed, report) = common::run_playwright(&tests.join("playwright"), 1).await;
    testbed.shutdown().await;
    assert!(!passed, "the bug is still there: {report}");
    assert!(report.contains("1 failed"), "{report}");
    assert!(report.contains("testbed console error"), "{report}");

    let (code, _, err) = run(&["export", run_dir.to_str().unwrap(), "--format", "cypress"]).await;
    assert_eq!(code, 2, "{err}");
}
