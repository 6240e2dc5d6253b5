//! What the CLI tests share: running the real `curio` binary.

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
