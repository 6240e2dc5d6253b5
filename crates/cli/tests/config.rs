//! `curio.toml` through the real binary: logging in before each episode and replay,
//! the deny list kept, flags winning over the file, unknown keys refused, `curio init`.

mod common;
use common::{run, run_with_env};

/// The password of the testbed's member, given to Curio by the environment.
const PASSWORD: (&str, &str) = ("CURIO_TEST_MEMBER_PASSWORD", "s3cret");

use std::path::{Path, PathBuf};

use curio_record::RunRecord;
use curio_subjects::Subject;

/// A config file for the testbed's members' area, logging in as ann with the password
/// from the environment; `deny` is the `[deny]` table's `text`.
fn members_config(dir: &Path, base: &str, deny: &str) -> String {
    let file = dir.join("curio.toml");
    std::fs::write(
        &file,
        format!(
            r##"url = "{base}/t/members"
seed = 4

[budget]
max-actions = 30

[deny]
text = [{deny}]

[login]
steps = [
  {{ goto = "/t/login" }},
  {{ fill = "#user", value = "ann" }},
  {{ fill = "#password", value-env = "CURIO_TEST_MEMBER_PASSWORD" }},
  {{ click = "button[type=submit]" }},
]
check = "#whoami"
"##
        ),
    )
    .unwrap();
    file.to_str().unwrap().to_string()
}

fn clicked_leave(record: &RunRecord) -> bool {
    record
        .steps
        .iter()
        .any(|s| s.step.locator.contains("Leave the club"))
}

/// `curio explore` of the members' area with `deny` as the deny list; the exit code,
/// the record (if one was written), and what it printed.
async fn explore_members(
    dir: &Path,
    base: &str,
    deny: &str,
    out: &str,
) -> (i32, Option<RunRecord>, String) {
    let config = members_config(dir, base, deny);
    let out = dir.join(out);
    let (code, stdout, err) = run_with_env(
        &[
            "--config",
            &config,
            "explore",
            "--out",
            out.to_str().unwrap(),
        ],
        &[PASSWORD],
    )
    .await;
    let record = RunRecord::read_json(&out.join("record.json")).ok();
    (code, record, format!("{stdout}\n{err}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_steps_reach_pages_behind_the_login_and_the_deny_list_is_kept() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let base = testbed.base_url();
    let base = base.trim_end_matches('/');
    let dir = tempfile::tempdir().unwrap();
    let (code, record, printed) =
        explore_members(dir.path(), base, r#""Leave the club""#, "out").await;
    assert_eq!(code, 1, "{printed}");
    let record = record.unwrap();
    let archive = record
        .findings
        .iter()
        .find(|f| f.message.contains("the archive failed to load"))
        .unwrap_or_else(|| panic!("the members' archive was reached: {printed}"));
    assert_eq!(archive.reproduced, Some(true), "replays log in first");
    assert!(!clicked_leave(&record), "{:?}", record.steps);
    let recorded = record.meta.config.to_string();
    assert!(recorded.contains("#password"), "{recorded}");
    assert!(
        !recorded.contains("s3cret"),
        "the password is not recorded: {recorded}"
    );

    // `curio replay` logs in from the same file.
    let config = dir.path().join("curio.toml");
    let out = dir.path().join("out");
    let (code, stdout, err) = run_with_env(
        &[
            "--config",
            config.to_str().unwrap(),
            "replay",
            out.to_str().unwrap(),
        ],
        &[PASSWORD],
    )
    .await;
    assert_eq!(code, 0, "{stdout}\n{err}");

    // Without "Leave the club" in the deny list, exploring does click it: the list is
    // what kept the run away.
    let (_, record, printed) = explore_members(dir.path(), base, "", "out-no-deny").await;
    assert!(clicked_leave(&record.expect(&printed)), "{printed}");
    testbed.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_that_does_not_log_in_is_a_configuration_error() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("curio.toml");
    std::fs::write(
        &file,
        r##"[login]
steps = [{ goto = "/t/login" }, { fill = "#user", value = "ann" }, { fill = "#password", value = "wrong" }, { click = "#signin" }]
check = "#whoami"
"##,
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, _, err) = run(&[
        "--config",
        file.to_str().unwrap(),
        "explore",
        &testbed.url("/t/members"),
        "--out",
        out.to_str().unwrap(),
        "--max-actions",
        "3",
    ])
    .await;
    testbed.shutdown().await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cannot log in") && err.contains("#whoami"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_win_over_the_file_which_fills_in_the_rest() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("from-file");
    let file = dir.path().join("settings.toml");
    std::fs::write(
        &file,
        format!(
            r#"url = "{}"
seed = 42
out = "{}"

[budget]
max-actions = 2

[explore]
strategy = "random"
verify = false
tau = 0.25
"#,
            testbed.url("/t/ok"),
            out.display()
        ),
    )
    .unwrap();
    let (code, stdout, err) = run(&[
        "--config",
        file.to_str().unwrap(),
        "explore",
        "--strategy",
        "webexplor",
    ])
    .await;
    testbed.shutdown().await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    let record = RunRecord::read_json(&out.join("record.json")).unwrap();
    assert_eq!(record.meta.strategy, "webexplor", "the flag wins");
    assert_eq!(record.meta.seed, 42, "the file fills in");
    assert_eq!(record.meta.config["verify_findings"], false);
    assert_eq!(record.meta.config["tau"], 0.25);
    assert!(record.summary.unwrap().stats.actions <= 2);
}

/// Runs `curio explore` with a `curio.toml` in `dir` that names an unused port and then
/// holds `rest`: the exit code, stderr and the file's path.
async fn explore_with_file(dir: &tempfile::TempDir, rest: &str) -> (i32, String, PathBuf) {
    let file = dir.path().join("curio.toml");
    std::fs::write(&file, format!("url = \"http://127.0.0.1:9/\"\n{rest}")).unwrap();
    let (code, _, err) = run(&["--config", file.to_str().unwrap(), "explore"]).await;
    (code, err, file)
}

#[tokio::test]
async fn a_bad_temperature_in_the_file_names_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let (code, err, _) = explore_with_file(&dir, "[explore]\ntau = -1\n").await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("explore.tau") && err.contains("-1"), "{err}");
}

#[tokio::test]
async fn unknown_keys_are_usage_errors_that_name_key_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let (code, err, file) = explore_with_file(&dir, "[deny]\ntexts = [\"Archive\"]\n").await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 3") && err.contains("texts"), "{err}");
    assert!(err.contains(file.to_str().unwrap()), "{err}");

    let missing = dir.path().join("missing.toml");
    let (code, _, err) = run(&["--config", missing.to_str().unwrap(), "explore"]).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.toml"), "{err}");
}

#[tokio::test]
async fn init_writes_a_starter_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("curio.toml");
    let path = file.to_str().unwrap();
    let (code, stdout, err) = run(&["init", path]).await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[login]") && text.contains("[deny]"),
        "{text}"
    );
    let (code, _, err) = run(&["init", path]).await;
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    let (code, _, _) = run(&["init", path, "--force"]).await;
    assert_eq!(code, 0);
}

/// A saved session (Playwright's storageState file) logs in without any step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_session_logs_in() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("state.json"),
        r#"{"cookies": [{"name": "member", "value": "ann", "domain": "127.0.0.1", "path": "/",
            "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Lax"}],
            "origins": []}"#,
    )
    .unwrap();
    let file = dir.path().join("curio.toml");
    std::fs::write(
        &file,
        format!(
            r##"url = "{}"
seed = 2

[budget]
max-actions = 20

[deny]
text = ["Leave the club"]

[login]
storage-state = "state.json"
check = "#whoami"
"##,
            testbed.url("/t/members")
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let (code, stdout, err) = run(&[
        "--config",
        file.to_str().unwrap(),
        "explore",
        "--out",
        out.to_str().unwrap(),
    ])
    .await;
    testbed.shutdown().await;
    assert_eq!(code, 1, "{stdout}\n{err}");
    let record = RunRecord::read_json(&out.join("record.json")).unwrap();
    let archive = record
        .findings
        .iter()
        .find(|f| f.message.contains("the archive failed to load"))
        .unwrap_or_else(|| panic!("the members' archive was reached: {stdout}"));
    assert_eq!(archive.reproduced, Some(true), "{stdout}");
}

/// `curio forms` logs in too: the form behind the login is the one tested (without the
/// login, the page sends the browser to the sign-in form), each submission logged in
/// afresh.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forms_behind_a_login_are_tested_logged_in() {
    let testbed = curio_subjects::serve(Subject::Testbed).await.unwrap();
    let base = testbed.base_url();
    let dir = tempfile::tempdir().unwrap();
    let config = members_config(dir.path(), base.trim_end_matches('/'), "");
    let out = dir.path().join("forms");
    let (code, stdout, err) = run_with_env(
        &[
            "--config",
            &config,
            "forms",
            &testbed.url("/t/members/profile"),
            "--out",
            out.to_str().unwrap(),
            "--max-submissions",
            "8",
            "--replays",
            "1",
        ],
        &[PASSWORD],
    )
    .await;
    testbed.shutdown().await;
    assert_eq!(code, 0, "{stdout}\n{err}");
    let record = RunRecord::read_json(&out.join("record.json")).unwrap();
    let form = &record.forms[0];
    assert_eq!(form.fields[0].name, "display", "{form:?}");
    assert_eq!(form.fields.len(), 1, "not the sign-in form: {form:?}");
    assert!(form.reached, "a submission succeeded: {form:?}");
    // The rule the markup gives is confirmed: each submission reached the form.
    assert!(
        form.constraints.iter().any(|c| c.verdict == "confirmed"),
        "{form:?}"
    );
}
