//! What the CLI tests share: running the real `curio` binary, and reading what
//! `curio forms` wrote.

use std::path::Path;
use std::process::Stdio;

use tokio::process::Command;

/// Runs `curio` with `args` and gives its exit code, stdout and stderr.
pub async fn run(args: &[&str]) -> (i32, String, String) {
    run_with_env(args, &[]).await
}

/// [`run`] with more environment variables.
#[allow(dead_code)] // not every test file sets any
pub async fn run_with_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_curio"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .expect("run curio");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the spec files of `specs` (there must be `files` of them) with Playwright Test,
/// installed by scripts/test from e2e/playwright/package.json, in Debian's Chromium;
/// whether every test passed, and what it printed.
#[allow(dead_code)] // not every test file runs Playwright
pub async fn run_playwright(specs: &Path, files: usize) -> (bool, String) {
    let pw = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../e2e/playwright");
    assert!(
        pw.join("node_modules/@playwright/test").is_dir(),
        "Playwright Test is missing: run scripts/test (or npm ci --prefix e2e/playwright)"
    );
    // Under e2e/playwright, so that the specs resolve @playwright/test.
    let dir = tempfile::Builder::new()
        .prefix("run-")
        .tempdir_in(&pw)
        .unwrap();
    let mut copied = 0;
    for entry in std::fs::read_dir(specs).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        copied += 1;
    }
    assert_eq!(copied, files, "spec files in {}", specs.display());
    let result = Command::new("npx")
        .args(["playwright", "test"])
        .current_dir(&pw)
        .env("CURIO_TESTS", dir.path().file_name().unwrap())
        .env("CURIO_CHROME", which_chromium())
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .expect("run npx playwright test");
    let report = format!(
        "{}\n{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    (result.status.success(), report)
}

/// The Chromium the suite uses: CURIO_CHROME, else the first on PATH.
fn which_chromium() -> String {
    if let Ok(c) = std::env::var("CURIO_CHROME") {
        return c;
    }
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let p = dir.join(name);
            if p.is_file() {
                return p.to_string_lossy().into_owned();
            }
        }
    }
    "/usr/bin/chromium".into()
}

/// The constraints of a form in forms.json that came from the model, in order.
#[allow(dead_code)] // not every test file asks a model
pub fn model_proposals(form: &serde_json::Value) -> Vec<&str> {
    form["inferred"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["source"] == "llm")
        .map(|r| r["constraint"].as_str().unwrap())
        .collect()
}

/// What negation said of `constraint` in a form of forms.json: `confirmed`, `refuted`,
/// `unverified`, or `absent` when the form has no such constraint.
#[allow(dead_code)] // not every test file asks a model
pub fn verdict<'a>(form: &'a serde_json::Value, constraint: &str) -> &'a str {
    form["report"]["constraints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["constraint"] == constraint)
        .and_then(|c| c["verdict"].as_str())
        .unwrap_or("absent")
}
