//! Captures a page's DOM snapshot exactly as `Tab::snapshot` takes it, for the page
//! model's fixtures: `cargo run -p curio-browser --example capture -- URL OUT.json`.

use std::process::ExitCode;

use curio_browser::{Browser, BrowserConfig};

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, out] = args.as_slice() else {
        eprintln!("usage: capture URL OUT.json");
        return ExitCode::from(2);
    };
    match capture(url, out).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(3)
        }
    }
}

async fn capture(url: &str, out: &str) -> Result<(), Box<dyn std::error::Error>> {
    let browser = Browser::start(BrowserConfig::builder().build()).await?;
    let mut tab = browser.new_tab().await?;
    let outcome = tab.goto(url).await?;
    if let Some(e) = outcome.navigation_error {
        return Err(format!("cannot load {url}: {e}").into());
    }
    let capture = tab.snapshot().await?;
    std::fs::write(out, serde_json::to_string(&capture.snapshot)?)
        .map_err(|e| format!("failed to write {out}: {e}"))?;
    tab.close().await;
    browser.close().await;
    Ok(())
}
