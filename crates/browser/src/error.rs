//! Errors of the browser layer. Failures of the app under test are never errors: they
//! are observations in an [`crate::Outcome`]. These are failures of the browser itself.

use std::path::PathBuf;
use std::time::Duration;

/// Chromium could not be found, started or reached.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error(
        "no chromium found (tried --chrome, CURIO_CHROME, and chromium, chromium-browser, google-chrome on PATH); install it with `apt-get install -y chromium` or pass --chrome PATH"
    )]
    NotFound,
    #[error("chromium at {path} does not exist or is not executable")]
    NotExecutable { path: PathBuf },
    #[error("failed to launch chromium at {path}: {reason}")]
    Launch { path: PathBuf, reason: String },
    #[error("failed to connect to the browser at {url}: {reason}")]
    Connect { url: String, reason: String },
    #[error("failed to create a temporary profile directory: {0}")]
    Profile(#[source] std::io::Error),
}

/// A CDP exchange with a running browser failed.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    #[error("browser call {method} timed out after {after:?}")]
    Timeout { method: String, after: Duration },
    #[error("browser call {method} failed: {reason}")]
    Call { method: String, reason: String },
    #[error("unexpected answer to {method}: {reason}")]
    Answer { method: String, reason: String },
    #[error("failed to open a tab: {reason}")]
    Tab { reason: String },
    #[error("element {locator} ({selector}) is no longer on the page")]
    Stale { locator: String, selector: String },
    #[error("the page's renderer crashed")]
    Crashed,
}
