//! The exploration strategies through the real `curio` binary: forms that need realistic
//! values, the guard against irreversible actions, replaying findings, reproducibility.

mod common;
use common::run;

use curio_record::{RunRecord, StepKind};
use curio_subjects::Subject;

fn record_in(dir: &tempfile::TempDir) -> RunRecord {
    RunRecord::read_json(&dir.path().join("record.json")).expect("record.json")
}

fn booking_500(r: &RunRecord) -> Option<&curio_record::Finding> {
    r.findings
        .iter()
        .find(|f| f.message.contains("500") && f.url.contains("/t/booking"))
}

/// The booking form's server accepts only what a person would type (a full name, an
/// e-mail, ISO dates in order, a guest count, a ZIP code) in plain text inputs, and
/// then fails with a 500. The form macro with semantic values gets there; the paper's
/// W3C-by-type values cannot (none of them is an e-mail address in a text input).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn curious_passes_a_form_that_needs_realistic_values_and_the_finding_replays() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/booking");
    let curious = tempfile::tempdir().unwrap();
    let (code, stdout, err) = run(&[
        "explore",
        &url,
        "--out",
        curious.path().to_str().unwrap(),
        "--max-actions",
        "30",
        "--seed",
        "2",
    ])
    .await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    let record = record_in(&curious);
    let finding = booking_500(&record).unwrap_or_else(|| panic!("no booking 500: {stdout}"));
    assert_eq!(finding.reproduced, Some(true), "{stdout}");
    assert_eq!(finding.trace[0].kind, StepKind::Goto);
    let fills = finding
        .trace
        .iter()
        .filter(|s| s.kind == StepKind::Fill)
        .count();
    assert!(fills >= 6, "every field is filled: {:?}", finding.trace);
    assert_eq!(finding.trace.last().unwrap().selector, "#book");

    // `curio replay` says so too, in a fresh browser, against the same app.
    let (code, stdout, err) = run(&["replay", curious.path().to_str().unwrap()]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains(": reproduced"), "{stdout}");
    // A finding the record does not have is a usage error naming it.
    let (code, _, err) = run(&[
        "replay",
        curious.path().to_str().unwrap(),
        "--finding",
        "99",
    ])
    .await;
    assert_eq!(code, 2);
    assert!(err.contains("no finding #99"), "{err}");

    let paper = tempfile::tempdir().unwrap();
    let (_, stdout, err) = run(&[
        "explore",
        &url,
        "--strategy",
        "webexplor",
        "--out",
        paper.path().to_str().unwrap(),
        "--max-actions",
        "30",
        "--seed",
        "2",
    ])
    .await;
    let record = record_in(&paper);
    assert_eq!(record.meta.strategy, "webexplor", "{stdout}\n{err}");
    assert!(booking_500(&record).is_none(), "{stdout}");
    testbed.shutdown().await;
}

/// Explores `url` with seed 1 and at most `max_actions` actions, plus `extra` flags:
/// the run's record and what it printed.
async fn explore_seed_1(url: &str, max_actions: &str, extra: &[&str]) -> (RunRecord, String) {
    explore_seed(url, "1", max_actions, extra).await
}

/// As [`explore_seed_1`], with seed 2.
async fn explore_seed_2(url: &str, max_actions: &str, extra: &[&str]) -> (RunRecord, String) {
    explore_seed(url, "2", max_actions, extra).await
}

async fn explore_seed(
    url: &str,
    seed: &str,
    max_actions: &str,
    extra: &[&str],
) -> (RunRecord, String) {
    let (_, record, log) = explore_seed_kept(url, seed, max_actions, extra).await;
    (record, log)
}

/// Explores the testbed page at `path` with `seed`, at most `max_actions` actions and
/// `extra` flags, and asserts that a finding whose message contains `message` was made
/// and replayed.
async fn finding_replays(path: &str, seed: &str, max_actions: &str, extra: &[&str], message: &str) {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let (record, log) = explore_seed(&testbed.url(path), seed, max_actions, extra).await;
    let found = finding(&record, message);
    assert_eq!(found.reproduced, Some(true), "{:?}\n{log}", found.trace);
    testbed.shutdown().await;
}

/// As [`explore_seed`], also giving the run's directory, for `curio replay`.
async fn explore_seed_kept(
    url: &str,
    seed: &str,
    max_actions: &str,
    extra: &[&str],
) -> (tempfile::TempDir, RunRecord, String) {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let mut args = vec![
        "explore",
        url,
        "--out",
        dir,
        "--max-actions",
        max_actions,
        "--seed",
        seed,
    ];
    args.extend_from_slice(extra);
    let (_, stdout, err) = run(&args).await;
    let record = record_in(&out);
    (out, record, format!("{stdout}\n{err}"))
}

/// Sends `method` to `url` (an `http://host:port/path` of the testbed), with `body` as
/// a form when there is one: the whole answer.
fn http(method: &str, url: &str, body: Option<&str>) -> String {
    use std::io::{Read, Write};
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    let form = body.map_or_else(String::new, |body| {
        format!(
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
            body.len()
        )
    });
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{form}Connection: close\r\n\r\n{}",
        body.unwrap_or_default()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

fn finding<'a>(r: &'a RunRecord, message: &str) -> &'a curio_record::Finding {
    r.findings
        .iter()
        .find(|f| f.message.contains(message))
        .unwrap_or_else(|| panic!("no finding {message:?}: {:?}", r.findings))
}

/// The link to the failing report is renamed and points elsewhere at every visit, so
/// the steps that found the failure no longer lead to it; going straight to the report
/// page does, and is the trace the finding keeps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finding_behind_a_drifting_link_keeps_a_trace_straight_to_its_page() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let url = testbed.url("/t/renamed");
    let (code, stdout, err) = run(&["explore", &url, "--out", dir, "--max-actions", "6"]).await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    let record = record_in(&out);
    let crash = finding(&record, "renamed report crashed");
    assert_eq!(crash.reproduced, Some(true), "{:?}", crash.trace);
    assert_eq!(crash.trace.len(), 2, "{:?}", crash.trace);
    let goto = crash.trace[0].value.as_deref().unwrap_or_default();
    assert!(goto.contains("/t/renamed/"), "{goto}");
    let (code, stdout, err) = run(&["replay", dir]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    testbed.shutdown().await;
}

/// Only the newest report fails, and every visit to the list makes a newer one: the
/// report page the run went straight to stops failing once the run goes on. The check
/// at the end of the run finds that and keeps a trace through the list instead, so the
/// finding replays in the app as the run left it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn findings_are_checked_again_at_the_end_of_the_run() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let url = testbed.url("/t/latest");
    let (code, stdout, err) = run(&[
        "explore",
        &url,
        "--out",
        dir,
        "--max-actions",
        "8",
        "--episode-steps",
        "2",
    ])
    .await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    let record = record_in(&out);
    assert!(record.meta.start_url.ends_with("/t/latest"));
    let crash = finding(&record, "latest report crashed");
    assert_eq!(crash.reproduced, Some(true), "{:?}", crash.trace);
    assert_eq!(crash.trace[0].value.as_deref(), Some(url.as_str()));
    let (code, stdout, err) = run(&["replay", dir]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains(": reproduced"), "{stdout}");
    testbed.shutdown().await;
}

/// A setting kept in the browser makes the same page another state, so the explorer
/// visits the preview again after switching dark mode on, and the preview fails then.
/// Its trace goes through the switch: the preview alone, in a fresh browser, is fine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_browser_stores_is_part_of_the_state() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/stored");
    let (with, log) = explore_seed_1(&url, "16", &["--enable", "storage-states"]).await;
    let states = with.summary.as_ref().expect("finished").states;
    assert!(states >= 3, "{states} states: {log}");
    let dark = finding(&with, "no dark palette");
    assert_eq!(dark.reproduced, Some(true), "{:?}", dark.trace);
    assert!(
        dark.trace.iter().any(|s| s.locator.contains("Dark mode")),
        "{:?}",
        dark.trace
    );
    let (without, log) = explore_seed_1(&url, "16", &["--disable", "storage-states"]).await;
    let states = without.summary.as_ref().expect("finished").states;
    assert_eq!(states, 2, "{log}");
    testbed.shutdown().await;
}

/// /t/clock: a timer kept for the browser tab, started on a task's page, and billing,
/// which logs an error while the timer runs. The timer's button toggles, and is not
/// among the page's own moves after it stored the timer (else start and stop take
/// turns, each a change, and billing is never opened while the timer runs). Billing is
/// opened pages after the timer started, so the finding's trace starts the timer (from
/// the task's page, loaded) and then opens billing from where it was opened: two loads,
/// the timer between them, and no detour through the app's start page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finding_under_a_stored_setting_replays_the_move_that_stored_it() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/clock");
    let (record, log) = explore_seed_1(&url, "40", &[]).await;
    let usage = finding(&record, "no rate card");
    assert_eq!(usage.reproduced, Some(true), "{:?}\n{log}", usage.trace);
    let loads: Vec<&str> = usage
        .trace
        .iter()
        .filter(|s| s.kind == StepKind::Goto)
        .filter_map(|s| s.value.as_deref())
        .collect();
    assert_eq!(loads.len(), 2, "{:?}", usage.trace);
    assert!(loads[0].contains("/t/clock/tasks/"), "{:?}", usage.trace);
    assert!(
        usage.trace[1].locator.contains("Start timer"),
        "{:?}",
        usage.trace
    );
    assert!(usage.trace.len() <= 5, "{:?}", usage.trace);
    testbed.shutdown().await;
}

/// A rule only the server states (10 to 500 seats) stops the form macro's guesses; with
/// `form-sessions` the explorer learns it from the server's answer in a short session,
/// the macro then types accepted values, and the failure behind the form is found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn form_sessions_learn_what_only_the_server_says() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/seats");
    let found = |r: &RunRecord| r.findings.iter().any(|f| f.message.contains("500"));
    let (with, log) = explore_seed_1(&url, "60", &["--enable", "form-sessions"]).await;
    assert!(found(&with), "no 500 with form sessions: {log}");
    let (without, log) = explore_seed_1(&url, "60", &["--disable", "form-sessions"]).await;
    assert!(!found(&without), "a 500 without form sessions: {log}");
    testbed.shutdown().await;
}

/// What a form session provokes is a finding like any other: with no form macro and a
/// budget of one action, the explorer itself never submits the plan, yet the session's
/// accepted submission (a 500) is reported, with the session's steps as its trace, and
/// replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_form_session_provokes_is_reported() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/seats");
    let (record, log) = explore_seed_1(&url, "1", &["--disable", "form-macro"]).await;
    let crash = finding(&record, "500 Internal Server Error for POST");
    assert_eq!(crash.reproduced, Some(true), "{:?}\n{log}", crash.trace);
    assert_eq!(crash.trace[0].kind, StepKind::Goto, "{:?}", crash.trace);
    assert!(
        crash
            .trace
            .iter()
            .any(|s| s.kind == StepKind::Fill && s.locator.contains("Seats")),
        "{:?}",
        crash.trace
    );
    testbed.shutdown().await;
}

/// The team's plan needs a seat per member, and each plan saved grows the team: the
/// seats that once reached the Business plan's 500 are refused by the end of the run.
/// The check at the end runs the form's session again and types what the form accepts
/// now, so the finding still replays, in the app as the run left it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finding_behind_a_rule_that_moved_with_the_data_still_replays() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/roster");
    let (dir, record, log) = explore_seed_kept(&url, "1", "40", &[]).await;
    let crash = finding(&record, "500 Internal Server Error for POST");
    assert_eq!(crash.reproduced, Some(true), "{:?}\n{log}", crash.trace);
    let members = http("GET", &url, None);
    let members: u32 = members
        .split("The team has ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no member count: {members}"));
    let seats: Vec<u32> = crash
        .trace
        .iter()
        .filter(|s| s.kind == StepKind::Fill && s.locator.contains("Seats"))
        .filter_map(|s| s.value.as_deref()?.parse().ok())
        .collect();
    assert!(
        seats.iter().all(|n| *n >= members),
        "{members} members, the trace types {seats:?} seats"
    );
    let path = dir.path().to_str().unwrap();
    let (code, stdout, err) = run(&["replay", path]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains(": reproduced"), "{stdout}");
    testbed.shutdown().await;
}

/// /t/crew: roles chosen on the team page save at once, and a valid invite (in a dialog)
/// throws; a task for Ana fails with HTTP 500, and Ana made a viewer is no longer
/// offered as an assignee. The run chooses roles on the way to the invite dialog; the
/// invite's trace leaves them out, so replaying it does not make Ana a viewer, and the
/// task's finding still replays after it, at the end of the run and in `curio replay`.
/// With Ana a viewer, the task's replay says that its choice is no longer offered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_leaves_out_the_choices_made_before_opening_the_failing_dialog() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/crew");
    let (dir, record, log) = explore_seed_kept(&url, "2", "40", &[]).await;
    let invite = finding(&record, "reading 'url'");
    assert_eq!(invite.reproduced, Some(true), "{:?}\n{log}", invite.trace);
    assert!(
        !invite.trace.iter().any(|s| s.locator.contains("Role of")),
        "{:?}",
        invite.trace
    );
    let task = finding(&record, "500 Internal Server Error for POST");
    assert_eq!(task.reproduced, Some(true), "{:?}\n{log}", task.trace);
    let path = dir.path().to_str().unwrap();
    let role = testbed.url("/t/crew/role");
    http("POST", &role, Some("member=ana&role=member"));
    let (code, stdout, err) = run(&["replay", path]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains("2 of 2 findings reproduced"), "{stdout}");
    http("POST", &role, Some("member=ana&role=viewer"));
    let id = task.id.0.to_string();
    let (code, stdout, err) = run(&["replay", path, "--finding", &id]).await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    assert!(
        stdout.contains(r#"combobox "Assignee" on "#)
            && stdout.contains(r#"offers no option "ana""#),
        "{stdout}"
    );
    testbed.shutdown().await;
}

/// /t/crew again: this run leaves Ana a viewer, so by its end the task form no longer
/// offers her. The end-of-run check finds the replay stopped at that choice, finds the
/// select named after her ("Role of Ana") among the ones the run chose in, and sets
/// it back to a role she had before the task's trace; the finding replays, with Ana a
/// viewer again when `curio replay` runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_choice_no_longer_offered_is_offered_again_by_setting_back_what_hid_it() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/crew");
    let (dir, record, log) = explore_seed_kept(&url, "1", "40", &[]).await;
    let task = finding(&record, "500 Internal Server Error for POST");
    assert_eq!(task.reproduced, Some(true), "{:?}\n{log}", task.trace);
    let set_back = task
        .trace
        .iter()
        .position(|s| s.locator.contains("Role of Ana") && s.value.as_deref() == Some("member"));
    let assigned = task
        .trace
        .iter()
        .position(|s| s.locator.contains("Assignee") && s.value.as_deref() == Some("ana"));
    assert!(
        matches!((set_back, assigned), (Some(a), Some(b)) if a < b),
        "{:?}",
        task.trace
    );
    http(
        "POST",
        &testbed.url("/t/crew/role"),
        Some("member=ana&role=viewer"),
    );
    let id = task.id.0.to_string();
    let path = dir.path().to_str().unwrap();
    let (code, stdout, err) = run(&["replay", path, "--finding", &id]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    testbed.shutdown().await;
}

/// /t/crew with `set-back`: the run makes Ana a viewer before it first sees the task
/// form, which then offers Ben alone. "Role of Ben" beside "Role of Ana" tells that the
/// team's selects are named after the people the form offers, and that the one the
/// run changed names the person missing: back on the team page, the first move sets
/// Ana's role back, and a task for her finds the failure. Without `set-back` the same
/// run never assigns her one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_option_the_run_took_out_of_a_form_is_brought_back() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/crew");
    let (record, log) = explore_seed(&url, "4", "40", &[]).await;
    let steps = &record.steps;
    let set_back = (1..steps.len()).find(|&i| {
        steps[i].step.locator.contains("Role of Ana")
            && steps[i].step.value.as_deref() == Some("member")
            && steps[i - 1].page_url.ends_with("/t/crew/task")
            && steps[i - 1].result_url.ends_with("/t/crew")
    });
    let set_back = set_back.unwrap_or_else(|| panic!("Ana's role never set back\n{log}"));
    let assigned = steps.iter().position(|s| {
        s.step.locator.contains("Assignee") && s.step.value.as_deref() == Some("ana")
    });
    assert!(assigned.is_some_and(|a| a > set_back), "{log}");
    finding(&record, "500 Internal Server Error for POST /t/crew/task");

    http(
        "POST",
        &testbed.url("/t/crew/role"),
        Some("member=ana&role=member"),
    );
    let (record, log) = explore_seed(&url, "4", "40", &["--disable", "set-back"]).await;
    assert!(
        !record
            .findings
            .iter()
            .any(|f| f.message.contains("POST /t/crew/task")),
        "{log}"
    );
    testbed.shutdown().await;
}

/// Explores /t/lounge with the random strategy (which reads no storage), seed 1, for
/// `max_actions`, then replays the record: the run's clicks on Kim, the preview's
/// finding, `curio replay`'s exit code, and the output of both.
async fn lounge_run(max_actions: &str) -> (Vec<String>, curio_record::Finding, i32, String) {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/lounge");
    let (dir, record, log) =
        explore_seed_kept(&url, "1", max_actions, &["--strategy", "random"]).await;
    let kim = record
        .steps
        .iter()
        .map(|s| s.step.locator.clone())
        .filter(|l| l.contains("Kim"))
        .collect();
    let preview = finding(&record, "no dark palette in the lounge").clone();
    let (code, stdout, err) = run(&["replay", dir.path().to_str().unwrap()]).await;
    testbed.shutdown().await;
    (kim, preview, code, format!("{log}\n{stdout}\n{err}"))
}

/// /t/lounge: the run's first episode removes Kim, turns on dark mode and opens the
/// preview, which throws. The shorter traces do not turn on dark mode, and the
/// episode's own trace no longer replays (no "Remove Kim" button is left), so the
/// end-of-run check replays it without that step, and keeps the trace that reproduces.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_goes_on_without_a_step_whose_element_is_gone() {
    let (kim, preview, code, log) = lounge_run("4").await;
    assert_eq!(kim, [r#"button "Remove Kim""#], "{log}");
    assert_eq!(preview.reproduced, Some(true), "{:?}\n{log}", preview.trace);
    let locators: Vec<&str> = preview.trace.iter().map(|s| s.locator.as_str()).collect();
    assert_eq!(
        locators,
        ["", r#"button "Dark mode""#, r#"link "Preview""#],
        "{log}"
    );
    assert_eq!(code, 0, "{log}");
}

/// /t/lounge again, with a longer run that adds Kim back after the preview threw: the
/// episode's trace (Kim removed on the way) reproduces at the end-of-run check, and
/// removes Kim as it does. The findings are checked a second time, as `curio replay`
/// would check them, and that trace no longer replays, so the one without "Remove Kim"
/// is kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_that_undoes_what_it_needs_is_replaced_by_one_that_replays_again() {
    let (kim, preview, code, log) = lounge_run("8").await;
    assert_eq!(
        kim,
        [r#"button "Remove Kim""#, r#"button "Add Kim""#],
        "{log}"
    );
    assert_eq!(preview.reproduced, Some(true), "{:?}\n{log}", preview.trace);
    assert!(
        !preview.trace.iter().any(|s| s.locator.contains("Kim")),
        "{:?}",
        preview.trace
    );
    assert_eq!(code, 0, "{log}");
}

/// A count below zero breaks the stock form's server, and no value meant to pass is
/// one: the form's session, once a count is accepted, sends -1 too, so with a budget of
/// one action and no form macro the 500 is still found, and replays. Without the
/// session there is no 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_session_sends_a_count_below_zero() {
    only_a_form_session_finds_the_500("/t/stock", |v| v == "-1").await;
}

/// A number typed as text is parsed by the time entry's server, which fails on letters:
/// the form's session, once hours are accepted, sends letters in them too, so with a
/// budget of one action and no form macro the 500 is found, and replays. Without the
/// session there is no 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_session_sends_letters_in_a_number_typed_as_text() {
    only_a_form_session_finds_the_500("/t/hours", |v| v.parse::<f64>().is_err()).await;
}

/// With one action and no form macro, the form at testbed `path` gets a 500 that
/// replays, through a fill with a value that is `sent`; without form sessions, no 500.
async fn only_a_form_session_finds_the_500(path: &str, sent: fn(&str) -> bool) {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url(path);
    let (record, log) = explore_seed_1(&url, "1", &["--disable", "form-macro"]).await;
    let crash = finding(&record, "500 Internal Server Error for POST");
    assert_eq!(crash.reproduced, Some(true), "{:?}\n{log}", crash.trace);
    assert!(
        crash
            .trace
            .iter()
            .any(|s| s.kind == StepKind::Fill && s.value.as_deref().is_some_and(sent)),
        "{:?}",
        crash.trace
    );
    let (without, log) = explore_seed_1(
        &url,
        "1",
        &["--disable", "form-macro", "--disable", "form-sessions"],
    )
    .await;
    assert!(
        without.findings.iter().all(|f| !f.message.contains("500")),
        "{log}"
    );
    testbed.shutdown().await;
}

/// A form in a dialog is tested by its session as a user would: each submission opens
/// the dialog first, so what it provokes replays, through the same opening click.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_session_opens_the_dialog_its_form_is_in() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/seats-dialog");
    let (record, log) = explore_seed_1(&url, "2", &["--disable", "form-macro"]).await;
    let crash = finding(&record, "500 Internal Server Error for POST");
    assert_eq!(crash.reproduced, Some(true), "{:?}\n{log}", crash.trace);
    let locators: Vec<&str> = crash.trace.iter().map(|s| s.locator.as_str()).collect();
    let open = locators.iter().position(|l| l.contains("Change plan"));
    let fill = locators.iter().position(|l| l.contains("Seats"));
    assert!(open.is_some() && open < fill, "{locators:?}");
    testbed.shutdown().await;
}

/// A change in two steps (choose a plan, review, confirm): the macro picks radio buttons
/// by their value, choices rotate until Pro is billed yearly, and after the review of a
/// change the page is a new state (`change-contexts`), whose Confirm is worth taking.
/// The finding is replayed from the latest page loaded by a GET. Without the contexts,
/// the same pages are fewer states.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_confirmed_after_its_review_is_found() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/plan");
    let (with, log) = explore_seed_1(&url, "70", &["--enable", "change-contexts"]).await;
    let crash = finding(&with, "500");
    assert_eq!(crash.reproduced, Some(true), "{:?}\n{log}", crash.trace);
    assert!(
        crash.trace.iter().any(|s| s.kind == StepKind::Check
            && format!("{} {}", s.locator, s.selector)
                .to_lowercase()
                .contains("pro")),
        "Pro picked by its radio: {:?}",
        crash.trace
    );
    // The review page answered a POST: its trace loads the plans and submits from
    // there, without the episode's earlier confirmations.
    let confirms = crash.trace.iter().filter(|s| s.locator.contains("Confirm"));
    assert_eq!(confirms.count(), 1, "{:?}", crash.trace);
    assert_eq!(crash.trace[0].kind, StepKind::Goto, "{:?}", crash.trace);
    let states = |r: &RunRecord| r.summary.as_ref().expect("finished").states;
    let (without, log) = explore_seed_1(&url, "70", &["--disable", "change-contexts"]).await;
    assert!(
        states(&with) > states(&without),
        "{} states with contexts, {} without: {log}",
        states(&with),
        states(&without)
    );
    testbed.shutdown().await;
}

/// A change reviewed on a page that also links to pages of its own is confirmed right
/// after its review, every time: the review's Confirm (a form of hidden values) is the
/// move after a change posted, where a link would leave the change unmade.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewed_change_is_confirmed_next() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/upgrade");
    let (record, log) = explore_seed_1(&url, "40", &["--disable", "form-sessions"]).await;
    let confirmed = reviews_confirmed(&record, &log);
    assert!(confirmed >= 3, "{confirmed} reviews confirmed: {log}");
    testbed.shutdown().await;
}

/// A change reviewed as the episode's moves run out is confirmed before the episode
/// ends: with episodes of one move, each review (the macro's submission) is followed by
/// its Confirm, not by the next episode's start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_reviewed_as_the_episode_ends_is_confirmed() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/upgrade");
    let extra = ["--disable", "form-sessions", "--episode-steps", "1"];
    let (record, log) = explore_seed_1(&url, "30", &extra).await;
    let confirmed = reviews_confirmed(&record, &log);
    assert!(confirmed >= 3, "{confirmed} reviews confirmed: {log}");
    testbed.shutdown().await;
}

/// How many clicks of the run led to `/t/upgrade/review`, each checked to be followed
/// by a click on "Confirm" (the run may end right after the last one).
fn reviews_confirmed(record: &RunRecord, log: &str) -> usize {
    let reviews: Vec<usize> = record
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.result_url.ends_with("/t/upgrade/review"))
        .filter(|(_, s)| s.step.kind == StepKind::Click)
        .map(|(i, _)| i)
        .collect();
    let mut confirmed = 0;
    for i in reviews {
        let Some(next) = record.steps.get(i + 1) else {
            continue;
        };
        assert!(
            next.step.locator.contains("Confirm"),
            "step {} after a review: {:?}\n{log}",
            next.index,
            next.step
        );
        confirmed += 1;
    }
    confirmed
}

/// Time logged on a ticket while it is blocked breaks its time report: a change (the
/// status), a second change on the page it led to (hours logged in a dialog), then a
/// look (the report). After a first form change, the moves that change again come
/// first (a valid fill of another form, a click known to open one: "Log time"), and
/// after the second, the links.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_made_on_a_change_is_looked_at() {
    finding_replays("/t/ticket", "1", "150", &[], "no colour for blocked time").await;
}

/// A project form that the server saves whatever its name and budget hold: a fill
/// meant to be refused (an empty name, a budget past its maximum) that was taken is a
/// change too, and the project page it led to is looked at rather than left for the
/// form again; the export of an archived project is a 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_fill_the_server_took_is_a_change() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/plot");
    let (record, log) = explore_seed_2(&url, "80", &["--disable", "form-sessions"]).await;
    let saves = record
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| s.result_url.contains("saved=1") && s.step.kind == StepKind::Click)
        .map(|(i, _)| i)
        .collect::<Vec<_>>();
    assert!(saves.len() >= 4, "{} saves: {log}", saves.len());
    for i in saves {
        let Some(next) = record.steps.get(i + 1) else {
            continue;
        };
        assert!(
            !next.step.locator.contains("Edit project"),
            "step {} went back to the form after a save: {log}",
            next.index
        );
    }
    let crash = finding(&record, "500");
    assert_eq!(crash.reproduced, Some(true), "{:?}\n{log}", crash.trace);
    testbed.shutdown().await;
}

/// A popover opened by "Filters" closes at the next click elsewhere, among twelve other
/// buttons: what a click revealed is used next (`follow-reveals`), so its status
/// select is chosen, and throws.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_click_reveals_is_used_next() {
    finding_replays(
        "/t/popover",
        "1",
        "12",
        &["--disable", "form-sessions"],
        "broke the list",
    )
    .await;
}

/// "Send test" beside "Save" uses the channels the form holds, and throws when none is
/// ticked; saving keeps nothing. Unticking three boxes one click at a time is a long
/// shot; a fill of the form and a press of its other button (`form-buttons`) clears them
/// all in its second round.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_s_other_button_is_pressed_on_filled_values() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/channels");
    let (with, log) = explore_seed_2(&url, "24", &[]).await;
    let thrown = finding(&with, "reading 'value'");
    assert_eq!(thrown.reproduced, Some(true), "{:?}\n{log}", thrown.trace);
    let (without, log) = explore_seed_2(&url, "24", &["--disable", "form-buttons"]).await;
    assert!(
        without
            .findings
            .iter()
            .all(|f| !f.message.contains("reading 'value'")),
        "{:?}\n{log}",
        without.findings
    );
    testbed.shutdown().await;
}

/// The display zone picked on the settings page is kept in the browser, and the report,
/// one of ten sections, has no offset for one of the zones. Under each new zone the
/// navigation first tours the sections not yet seen under it (`setting-tours`): all ten
/// within a dozen moves of the change, the settings page's profile form left alone
/// (saving it would be a change of its own); without the tours the sections' panels
/// and the sections already seen take turns with them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_new_setting_the_sections_not_seen_under_it_come_first() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/zones");
    // The moves after the first zone picked until all ten sections were shown.
    let toured = |record: &RunRecord| {
        let picked = record
            .steps
            .iter()
            .position(|s| s.step.kind == StepKind::Select)
            .expect("a zone picked");
        let mut seen = std::collections::BTreeSet::new();
        for (n, s) in record.steps[picked + 1..].iter().enumerate() {
            let section = s.result_url.split("/t/zones/").nth(1);
            if let Some(section) = section {
                seen.insert(section.split('?').next().unwrap_or_default().to_string());
            }
            if seen.len() == 10 {
                return n + 1;
            }
        }
        usize::MAX
    };
    let (with, log) = explore_seed_2(&url, "60", &[]).await;
    assert!(toured(&with) <= 14, "{}\n{log}", toured(&with));
    let (without, log) = explore_seed_2(&url, "60", &["--disable", "setting-tours"]).await;
    assert!(toured(&without) > 14, "{}\n{log}", toured(&without));
    testbed.shutdown().await;
}

/// A theme kept in the browser, one select among eight moves of the page's own; the
/// charts have no palette for the last of its eight themes. Once a choice of it is
/// seen to store a setting, its themes not yet chosen come first where it is offered,
/// each a setting to tour the sections under, and the charts throw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_value_of_a_setting_is_chosen_in_turn() {
    finding_replays(
        "/t/display",
        "2",
        "120",
        &["--disable", "form-sessions"],
        "reading 'palette'",
    )
    .await;
}

/// /t/shelf: a filter kept for the browser tab and a board among eleven links found on
/// every page of the app; "Archived" in the filters, then the board, throws. Leaning to
/// the page's own tabs, toggle and filter over the navigation gets there within 30
/// moves; without, the moves go to the sections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_s_own_controls_come_before_the_navigation() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/shelf");
    let thrown = |record: &RunRecord| {
        record
            .findings
            .iter()
            .any(|f| f.message.contains("reading 'dataset'"))
    };
    let (with, log) = explore_seed(&url, "3", "30", &[]).await;
    assert!(thrown(&with), "{log}");
    let (without, log) = explore_seed(&url, "3", "30", &["--disable", "local-first"]).await;
    assert!(!thrown(&without), "{log}");
    testbed.shutdown().await;
}

/// /t/rack: the status filter is kept for the browser tab, shown by a "Filters" toggle
/// among sixteen item links, and has eight statuses; the board throws under the last.
/// Once the filter is known to store a setting, the toggle is taken on each visit
/// while the filter has a status never chosen, and each status gets its tour of the
/// tabs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_toggle_that_shows_a_setting_is_taken_while_its_values_last() {
    finding_replays("/t/rack", "1", "120", &[], "reading 'dataset'").await;
}

/// "Send test" throws while the server has no channel saved. The finding's trace
/// unticks the boxes and saves, and its replay leaves every box of the form unticked
/// whatever the app shows by then: a toggle would tick a box saved unticked, and a
/// trace that left out the box it did not need to touch would keep it as saved since.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_sets_boxes_as_the_trace_left_them_rather_than_toggling() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/prefs");
    let (out, record, log) = explore_seed_kept(&url, "1", "30", &[]).await;
    let dir = out.path().to_str().unwrap();
    let thrown = finding(&record, "reading 'channelName'");
    let trace = &thrown.trace;
    assert_eq!(thrown.reproduced, Some(true), "{trace:?}\n{log}");
    assert!(
        trace.iter().any(|s| s.kind == StepKind::Check
            && s.locator.contains("Email")
            && s.value.as_deref() == Some("off")),
        "{trace:?}"
    );
    assert!(
        trace.iter().any(|s| s.kind == StepKind::Check
            && s.locator.contains("Text message")
            && s.value.as_deref() == Some("off")),
        "{trace:?}"
    );
    assert!(
        trace.iter().any(|s| s.locator.contains("Save")),
        "{trace:?}"
    );
    // Saved unticked, a toggle would tick the box; saved ticked, it would untick it;
    // text messages saved ticked, a trace without their box would leave it ticked.
    for body in ["", "email=on", "sms=on", "email=on&sms=on"] {
        let saved = http("POST", &url, Some(body));
        assert!(saved.starts_with("HTTP/1.1 303"), "{saved}");
        let (code, stdout, err) = run(&["replay", dir]).await;
        assert_eq!(code, 0, "saved {body:?}: {stdout}\n{err}");
        assert!(stdout.contains("1 of 1 findings reproduced"), "{stdout}");
    }
    testbed.shutdown().await;
}

/// The link that led to a failure is gone at the next visit (a feed shows only its
/// newest item): the replay opens the address the link had, and reproduces.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finding_behind_a_link_that_is_gone_still_replays() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/feed");
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let (_, stdout, err) = run(&["explore", &url, "--out", dir, "--max-actions", "3"]).await;
    let record = record_in(&out);
    let item = finding(&record, "500");
    assert_eq!(
        item.reproduced,
        Some(true),
        "{:?}\n{stdout}\n{err}",
        item.trace
    );
    let (code, stdout, err) = run(&["replay", dir]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(stdout.contains(": reproduced"), "{stdout}");
    testbed.shutdown().await;
}

/// Right after a project is saved archived, its page's own "Export" is worth more than
/// the nine links of the navigation, and more than editing the project again
/// (`local-after-change`): the archived export's 500 is found, and replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn right_after_a_change_the_page_s_own_actions_come_first() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/desk");
    let (record, log) = explore_seed(&url, "3", "60", &[]).await;
    let export = finding(&record, "500");
    assert!(export.url.contains("/t/desk/export"), "{export:?}");
    assert_eq!(export.reproduced, Some(true), "{:?}\n{log}", export.trace);
    // The URL carries the status, so the trace may start on the saved project's page.
    assert!(
        export
            .trace
            .iter()
            .any(|s| s.value.as_deref().is_some_and(|v| v.contains("archived"))),
        "{:?}",
        export.trace
    );
    testbed.shutdown().await;
}

/// Right after a project of /t/works is saved archived, its own "Export" (a link under
/// the project's page) comes before the links to the other projects on that page: the
/// archived export's 500 is found with the next action. Seed 4 archives a project with
/// its fifth action.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn right_after_a_change_the_links_under_the_changed_page_come_first() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/works");
    let (record, log) = explore_seed(&url, "4", "8", &[]).await;
    let saved = record
        .steps
        .iter()
        .position(|s| s.result_url.contains("status=archived"))
        .expect("a project saved archived");
    let next = &record.steps[saved + 1];
    assert_eq!(next.step.locator, r#"link "Export""#, "{log}");
    let export = finding(&record, "500");
    assert!(export.url.contains("/export"), "{export:?}");
    assert_eq!(export.reproduced, Some(true), "{:?}\n{log}", export.trace);
    testbed.shutdown().await;
}

/// "Log out" and "Delete everything" are never taken with the guard on; without it the
/// same budget takes them (each logs a console error when it is).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guard_keeps_away_from_log_out_and_delete() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/guard");
    let guarded = tempfile::tempdir().unwrap();
    let (code, stdout, err) = run(&[
        "explore",
        &url,
        "--out",
        guarded.path().to_str().unwrap(),
        "--max-actions",
        "12",
        "--seed",
        "4",
    ])
    .await;
    assert_eq!(code, 0, "no findings: {stdout}\n{err}");
    let record = record_in(&guarded);
    assert!(record.steps.len() > 12, "it explored: {stdout}");
    for s in &record.steps {
        assert!(
            !s.step.locator.contains("Log out") && !s.step.locator.contains("Delete"),
            "took {:?}",
            s.step
        );
    }

    let unguarded = tempfile::tempdir().unwrap();
    let (code, stdout, _) = run(&[
        "explore",
        &url,
        "--disable",
        "action-guard",
        "--out",
        unguarded.path().to_str().unwrap(),
        "--max-actions",
        "12",
        "--seed",
        "4",
    ])
    .await;
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("guard: "), "{stdout}");
    testbed.shutdown().await;
}

/// Same seed, same app, same budget in actions: the same actions, for the learning
/// strategies as for the random walk.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_seed_same_actions_for_every_strategy() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let url = testbed.url("/t/form");
    for strategy in ["curious", "webexplor"] {
        let mut runs = Vec::new();
        for _ in 0..2 {
            let dir = tempfile::tempdir().unwrap();
            let (code, stdout, err) = run(&[
                "explore",
                &url,
                "--strategy",
                strategy,
                "--out",
                dir.path().to_str().unwrap(),
                "--max-actions",
                "15",
                "--seed",
                "11",
            ])
            .await;
            assert!(code == 0 || code == 1, "{stdout}\n{err}");
            let steps: Vec<_> = record_in(&dir).steps.into_iter().map(|s| s.step).collect();
            runs.push(steps);
        }
        assert!(runs[0].len() > 15, "{strategy}: {:?}", runs[0]);
        assert_eq!(runs[0], runs[1], "{strategy}");
    }
    testbed.shutdown().await;
}

#[tokio::test]
async fn bad_strategy_flags_are_usage_errors() {
    for (args, needle) in [
        (vec!["--strategy", "greedy"], "--strategy"),
        (vec!["--disable", "teleport"], "--disable"),
        (vec!["--deny-selector", "a[["], "--deny-selector"),
        (
            vec!["--inputs", "/nonexistent/inputs.json"],
            "/nonexistent/inputs.json",
        ),
    ] {
        let mut all = vec!["explore", "http://127.0.0.1:1/"];
        all.extend(args);
        let (code, _, err) = run(&all).await;
        assert_eq!(code, 2, "{all:?}: {err}");
        assert!(err.contains(needle), "{all:?}: {err}");
    }
}
