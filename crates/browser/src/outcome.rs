//! What one action (or navigation) led to.

use std::time::Duration;

use curio_record::Observation;

/// A response the page received while the action settled.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub url: String,
    pub method: String,
    pub status: u16,
    /// CDP resource type: `Document`, `XHR`, `Fetch`, `Script`, `Image`, ...
    pub resource_type: String,
    pub in_scope: bool,
}

/// Everything observed from the start of an action until the page settled.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub url_before: String,
    pub url_after: String,
    /// Main-frame URLs navigated to, in order.
    pub navigations: Vec<String>,
    pub responses: Vec<Response>,
    /// Failures, dialogs and popups, in the order seen; `step` is left 0 for the runner.
    pub observations: Vec<Observation>,
    /// The element was covered (or moved away), so it was clicked by script.
    pub js_click_fallback: bool,
    /// Settling stopped at a hard timeout; `settle_detail` says which wait.
    pub settle_timed_out: bool,
    pub settle_detail: Option<String>,
    /// A main-frame navigation failed outright (`net::ERR_...`).
    pub navigation_error: Option<String>,
    /// The renderer crashed; the tab has been replaced by a fresh one.
    pub crashed: bool,
    pub duration: Duration,
}

impl Outcome {
    /// Whether the main frame moved to another document.
    pub fn navigated(&self) -> bool {
        !self.navigations.is_empty()
    }
}
