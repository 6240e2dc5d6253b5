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
    /// The page shown after the action is a popup of the app, its opener behind it: its
    /// URL is no page to load on its own (its script may need `window.opener`).
    pub in_popup: bool,
    pub duration: Duration,
}

impl Outcome {
    /// Adds what happened next (a popup that loaded, the opener shown again) to this
    /// outcome: its URL after, navigations, answers and observations.
    pub fn absorb(&mut self, more: Outcome) {
        self.url_after = more.url_after;
        self.navigations.extend(more.navigations);
        self.responses.extend(more.responses);
        self.observations.extend(more.observations);
        self.settle_timed_out |= more.settle_timed_out;
        self.crashed |= more.crashed;
    }

    /// Whether the main frame moved to another document.
    pub fn navigated(&self) -> bool {
        !self.navigations.is_empty()
    }
}
