//! The run's data model. Everything here is what reports and exports read, so it says
//! what happened in the app's terms (URLs, locators, messages), never in CDP's.

use serde::{Deserialize, Serialize};

/// Version of the `record.json` layout; bump on any incompatible change.
pub const SCHEMA_VERSION: u32 = 4;

/// Row id of a run in the store.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct RunId(pub i64);

/// Number of a finding within its run, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FindingId(pub u32);

/// What a run was asked to do, written before its first step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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
    /// How much it matters, from its kind and status ([`Severity::of`]).
    #[serde(default)]
    pub severity: Severity,
    /// For the grouped finding of the app's broken links (404s of pages its own links
    /// lead to): each link, the page it was on and its text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<BrokenLink>,
}

impl Finding {
    /// A title for lists and reports: the message, cut to a readable length (the record
    /// keeps the message and the URL whole).
    pub fn title(&self) -> String {
        short_title(&self.message)
    }
}

/// `text` on one line, cut at about 160 characters with an ellipsis.
pub fn short_title(text: &str) -> String {
    const MAX: usize = 160;
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= MAX {
        return line;
    }
    let mut out: String = line.chars().take(MAX - 1).collect();
    out.push('…');
    out
}

/// One link of the app that leads to a missing page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrokenLink {
    /// Where the link leads.
    pub url: String,
    /// The page it was on.
    pub page: String,
    /// Its text (or locator).
    pub text: String,
    /// The status the app answered with.
    pub status: u16,
}

/// How much a finding matters. Ordered: `Info` < `Warning` < `Error`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// A refusal the app means (401, 403): worth knowing, rarely a bug.
    Info,
    /// A console error, a 4xx of the app's own links, forms or resources, a request that
    /// got no answer.
    #[default]
    Warning,
    /// A crash of the app: a 5xx, an uncaught exception, an unhandled rejection, a
    /// renderer crash.
    Error,
}

impl Severity {
    pub const ALL: [Severity; 3] = [Severity::Error, Severity::Warning, Severity::Info];

    /// The severity of a failure of `kind` answered with `status`.
    pub fn of(kind: ObservationKind, status: Option<u16>) -> Severity {
        match kind {
            ObservationKind::HttpServerError
            | ObservationKind::UncaughtException
            | ObservationKind::UnhandledRejection
            | ObservationKind::RendererCrash => Severity::Error,
            ObservationKind::HttpClientError if matches!(status, Some(401 | 403)) => Severity::Info,
            ObservationKind::HttpClientError
            | ObservationKind::ConsoleError
            | ObservationKind::NetworkFailure => Severity::Warning,
            ObservationKind::Dialog | ObservationKind::Popup => Severity::Info,
        }
    }

    /// The name used in `record.json`, flags and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }

    pub fn parse(text: &str) -> Option<Severity> {
        Severity::ALL
            .into_iter()
            .find(|s| s.as_str().eq_ignore_ascii_case(text.trim()))
    }
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
    /// Bytes of source that ran (each byte as its innermost block says), and bytes that
    /// the blocks span.
    #[serde(default)]
    pub covered_bytes: u64,
    #[serde(default)]
    pub total_bytes: u64,
}

impl Coverage {
    pub fn covered_blocks(&self) -> u32 {
        self.scripts.iter().map(|s| s.covered_blocks).sum()
    }
    pub fn total_blocks(&self) -> u32 {
        self.scripts.iter().map(|s| s.total_blocks).sum()
    }
    pub fn covered_bytes(&self) -> u64 {
        self.scripts.iter().map(|s| s.covered_bytes).sum()
    }
    pub fn total_bytes(&self) -> u64 {
        self.scripts.iter().map(|s| s.total_bytes).sum()
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

/// An abstract page state of the run, as the explorer placed pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateRecord {
    /// The explorer's state number, from 0.
    pub id: u32,
    /// URL of the first page placed in it.
    pub url: String,
    /// Step after which it was first seen.
    pub first_step: u32,
    /// Screenshot of its first page, relative to the run's output directory.
    pub screenshot: Option<String>,
}

/// A move between states, with how often the run took it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransitionRecord {
    pub from: u32,
    /// `None` when the move left the app (another origin).
    pub to: Option<u32>,
    /// The move, readable (`click button "Save"`, `fill 3 fields, click button "Send"`).
    pub action: String,
    pub count: u32,
}

/// How far the run had got at one moment, for charts over time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgressPoint {
    /// Since the run began.
    pub elapsed_ms: u64,
    pub steps: u32,
    pub states: u32,
    pub findings: u32,
    /// JavaScript blocks of the app's scripts run so far, and known in all.
    pub covered_blocks: u32,
    pub total_blocks: u32,
}

/// One form as `curio forms` tested it: its fields, the rules inferred and what the form
/// said about each, and its distinct answers (Form Submission States) with their tests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormRecord {
    pub page_url: String,
    /// Position of the form on its page.
    pub index: u32,
    pub title: String,
    pub fields: Vec<FormFieldRecord>,
    pub constraints: Vec<ConstraintRecord>,
    pub fss: Vec<FssRecord>,
    pub submissions: u32,
    /// Whether a submission succeeded.
    pub reached: bool,
    /// Attempts that could not be made or read, with what happened.
    pub problems: Vec<String>,
    pub seconds: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormFieldRecord {
    /// The name constraints use for it.
    pub name: String,
    /// Readable locator (`textbox "Email"`).
    pub locator: String,
    /// Input type (`email`, `select`, `checkbox`, ...).
    pub kind: String,
}

/// A rule of a form and the form's verdict on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstraintRecord {
    /// In the constraint language (`len(password) >= 8`).
    pub constraint: String,
    /// `confirmed` (breaking it was refused), `refuted` (breaking it was accepted) or
    /// `unverified`.
    pub verdict: String,
    /// Where it came from: `rules`, `llm` or `feedback` (read from the form's messages).
    pub source: String,
    /// The Form Submission State (index into the form's `fss`) the verdict rests on.
    pub fss: Option<u32>,
}

/// A distinct answer of a form and the test that pins it down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FssRecord {
    /// `success`, `failure` or `unknown`.
    pub outcome: String,
    pub signature: String,
    /// What the form said, each with the field it is about (empty: the whole form).
    pub messages: Vec<(String, String)>,
    /// Field name and value of the submission that first produced it.
    pub values: Vec<(String, String)>,
    /// Why that submission was made (`reach`, `negate len(password) >= 8`, `probe ...`).
    pub purpose: String,
    /// The exported tests, relative to the run's output directory.
    pub tests: Vec<String>,
    pub replays: u32,
    /// Replays that reached the same answer.
    pub reproduced: u32,
    /// The test that pins this answer down, in terms any test framework can render.
    #[serde(default)]
    pub script: Option<TestScript>,
}

/// How a test finds an element, the most stable way first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Locate {
    /// By the text of its label (unique in the form).
    Label(String),
    /// By ARIA role and accessible name.
    Role {
        role: String,
        name: String,
    },
    Css(String),
    Placeholder(String),
}

/// One action of a test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestStep {
    /// Clear the field and type the text.
    Fill {
        at: Locate,
        value: String,
    },
    /// Choose the option with this value.
    Select {
        at: Locate,
        value: String,
    },
    /// Choose the radio button of group `name` with this value.
    Radio {
        name: String,
        value: String,
    },
    /// Tick (true) or untick (false) a checkbox.
    Check {
        at: Locate,
        on: bool,
    },
    Click {
        at: Locate,
    },
}

/// What a test expects to see once its steps are done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expectation {
    /// The page is at this URL.
    Url(String),
    /// The field's browser validation message.
    Validation { at: Locate, text: String },
    /// A JavaScript dialog with this message.
    Dialog(String),
    /// A text that appears in the page, perhaps briefly.
    Toast(String),
    /// A text visible in the page.
    Text(String),
}

/// A test, independent of any framework: open `url`, take the steps, check the
/// expectations. `curio-report` writes it as Playwright Test or pytest + Selenium.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestScript {
    /// The test's name (`state 2: Sign up is refused (email)`).
    pub name: String,
    pub url: String,
    pub steps: Vec<TestStep>,
    pub expect: Vec<Expectation>,
}

/// A whole run, as exported to `record.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    pub schema_version: u32,
    pub run_id: RunId,
    pub meta: RunMeta,
    pub steps: Vec<StepRecord>,
    pub findings: Vec<Finding>,
    /// Every observation, in order, findings' and noise alike.
    pub observations: Vec<Observation>,
    pub coverage: Coverage,
    /// The abstract states, by id.
    #[serde(default)]
    pub states: Vec<StateRecord>,
    /// Distinct moves between states, in the order first taken.
    #[serde(default)]
    pub transitions: Vec<TransitionRecord>,
    /// Progress over time, oldest first.
    #[serde(default)]
    pub progress: Vec<ProgressPoint>,
    /// The forms tested (by `curio forms`).
    #[serde(default)]
    pub forms: Vec<FormRecord>,
    /// `None` when the run did not finish (killed, crashed).
    pub summary: Option<RunSummary>,
}
