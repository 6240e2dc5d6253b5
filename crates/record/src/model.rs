//! The run's data model. Everything here is what reports and exports read, so it says
//! what happened in the app's terms (URLs, locators, messages), never in CDP's.

use serde::{Deserialize, Serialize};

/// Version of the `record.json` layout; bump on any incompatible change.
pub const SCHEMA_VERSION: u32 = 3;

/// Row id of a run in the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RunId(pub i64);

/// Number of a finding within its run, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FindingId(pub u32);

/// What a run was asked to do, written before its first step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunMeta {
    pub tool_version: String,
    pub start_url: String,
    pub strategy: String,
    pub seed: u64,
    pub browser_version: String,
    /// Unix time in milliseconds.
    pub started_at_ms: u64,
    /// The validated configuration, as given to the runner.
    pub config: serde_json::Value,
}

/// One user step, as needed to replay it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub kind: StepKind,
    /// Readable locator (`button "Save"`); empty for `Goto`.
    pub locator: String,
    /// CSS selector unique in its document; empty for `Goto`.
    pub selector: String,
    /// The value typed or chosen, or the URL for `Goto`.
    pub value: Option<String>,
    /// For a click on a link: the URL it pointed to, so that a replay finds the link
    /// again after its text or position changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    Goto,
    Click,
    Fill,
    Select,
    Check,
}

impl StepKind {
    /// The name used in `record.json` and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Goto => "goto",
            StepKind::Click => "click",
            StepKind::Fill => "fill",
            StepKind::Select => "select",
            StepKind::Check => "check",
        }
    }
}

/// A step as it was taken in the run, with what it led to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// Position in the run, from 0.
    pub index: u32,
    /// Episode the step belongs to, from 0; each episode starts with a `Goto`.
    pub episode: u32,
    pub step: Step,
    /// URL of the page the step was taken on.
    pub page_url: String,
    /// URL after the page settled.
    pub result_url: String,
    pub duration_ms: u64,
    /// The element was covered, so the click was done by script instead of the mouse.
    pub js_click_fallback: bool,
    /// Settling hit a hard timeout (the page kept loading, the network or DOM stayed busy).
    pub settle_timed_out: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ObservationKind {
    UncaughtException,
    UnhandledRejection,
    ConsoleError,
    /// A response with status 400..=499.
    HttpClientError,
    /// A response with status 500..=599.
    HttpServerError,
    /// A request that got no response (refused, aborted, DNS, blocked).
    NetworkFailure,
    RendererCrash,
    /// alert, confirm, prompt or beforeunload; recorded, not a failure.
    Dialog,
    /// A new tab or window the page opened; recorded, not a failure.
    Popup,
}

impl ObservationKind {
    /// The name used in `record.json` and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            ObservationKind::UncaughtException => "uncaught_exception",
            ObservationKind::UnhandledRejection => "unhandled_rejection",
            ObservationKind::ConsoleError => "console_error",
            ObservationKind::HttpClientError => "http_client_error",
            ObservationKind::HttpServerError => "http_server_error",
            ObservationKind::NetworkFailure => "network_failure",
            ObservationKind::RendererCrash => "renderer_crash",
            ObservationKind::Dialog => "dialog",
            ObservationKind::Popup => "popup",
        }
    }

    /// Whether this kind is a failure of the app (a finding when in scope).
    pub fn is_failure(self) -> bool {
        !matches!(self, ObservationKind::Dialog | ObservationKind::Popup)
    }
}

/// Where in the app's code something happened.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceLocation {
    pub url: String,
    pub line: u32,
    pub column: u32,
}

/// Something the browser reported during a step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Index of the step during which it was seen.
    pub step: u32,
    pub kind: ObservationKind,
    pub message: String,
    /// The request URL for network kinds; the page URL otherwise.
    pub url: String,
    pub source: Option<SourceLocation>,
    pub status: Option<u16>,
    pub method: Option<String>,
    /// Whether it comes from one of the app's own origins. Out-of-scope failures are
    /// noise (third-party fonts, analytics, widgets): kept, never findings.
    pub in_scope: bool,
}

/// A distinct failure of the app, with the steps that reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub id: FindingId,
    /// Deduplication key: kind + normalised message + source location or URL path.
    pub signature: String,
    pub kind: ObservationKind,
    pub message: String,
    pub url: String,
    pub source: Option<SourceLocation>,
    pub status: Option<u16>,
    /// Step at which it was first seen.
    pub first_step: u32,
    /// Steps that reproduce it from a fresh browser, starting with a `Goto`: the shortest
    /// known path to the page where it happened plus the triggering action when that
    /// replays, else the steps of its episode up to and including `first_step`.
    pub trace: Vec<Step>,
    /// Whether replaying `trace` in a fresh browser context during the run produced the
    /// same signature; `None` when it was not tried.
    #[serde(default)]
    pub reproduced: Option<bool>,
    /// How many times it was seen in the run.
    pub occurrences: u32,
    /// Screenshot file, relative to the run's output directory.
    pub screenshot: Option<String>,
}

/// JavaScript coverage, block level, accumulated over the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub scripts: Vec<ScriptCoverage>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptCoverage {
    pub url: String,
    pub covered_blocks: u32,
    pub total_blocks: u32,
}

impl Coverage {
    pub fn covered_blocks(&self) -> u32 {
        self.scripts.iter().map(|s| s.covered_blocks).sum()
    }
    pub fn total_blocks(&self) -> u32 {
        self.scripts.iter().map(|s| s.total_blocks).sum()
    }
}

/// How a run ended, written last. A run without one was killed or crashed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub finished_at_ms: u64,
    pub steps: u32,
    pub episodes: u32,
    pub states: u32,
    pub findings: u32,
    /// Why the run stopped: `time`, `max_actions`, `interrupted`, ...
    pub stop_reason: String,
    /// How the run spent its time and memory.
    #[serde(default)]
    pub stats: RunStats,
}

/// Where a run's time went, for benchmarks: the part spent waiting on the browser (CDP
/// calls, page loads, settling) against Curio's own work (page models, state lookups,
/// learning, the store).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunStats {
    /// User actions performed (a form macro counts each field and the submit).
    pub actions: u32,
    /// Distinct normalised URLs seen: kinds of pages reached.
    pub page_kinds: u32,
    /// Wall time of the exploring loop.
    pub wall_ms: u64,
    /// Time spent awaiting the browser within that loop.
    pub browser_ms: u64,
    /// Time spent replaying findings to check that they reproduce.
    pub replay_ms: u64,
    /// Peak resident memory of the Curio process (Linux `VmHWM`), Chromium excluded.
    pub peak_rss_kb: Option<u64>,
}

/// A whole run, as exported to `record.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub schema_version: u32,
    pub run_id: RunId,
    pub meta: RunMeta,
    pub steps: Vec<StepRecord>,
    pub findings: Vec<Finding>,
    /// Every observation, in order, findings' and noise alike.
    pub observations: Vec<Observation>,
    pub coverage: Coverage,
    /// `None` when the run did not finish (killed, crashed).
    pub summary: Option<RunSummary>,
}
