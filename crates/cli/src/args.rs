//! Command-line arguments, parsed raw by clap, then validated into a `RunConfig`.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "curio",
    version,
    about = "Explores a web app in a real headless Chromium and reports every failure it provokes",
    after_help = "Exit codes: 0 no findings, 1 findings, 2 usage error, 3 browser or infrastructure failure."
)]
pub(crate) struct Cli {
    /// Settings file; flags given on the command line win over it. [default: ./curio.toml
    /// when it exists]
    #[arg(long, global = true, value_name = "FILE", env = "CURIO_CONFIG")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Explore a web app from a start URL and report the failures found.
    Explore {
        /// The page to start from; its origin is the scope of the exploration.
        /// [default: `url` of the config file]
        #[arg(value_name = "URL")]
        url: Option<String>,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        reports: ReportArgs,
        #[command(flatten)]
        browser: BrowserArgs,
    },
    /// Start the bundled demo shop, explore it for a minute and a half, and show what was found.
    Demo {
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        reports: ReportArgs,
        #[command(flatten)]
        browser: BrowserArgs,
    },
    /// Test every form on one page: infer its rules, prove each by submitting values that
    /// keep it and values that break it, and write a test per distinct answer.
    #[command(
        after_help = "Exit codes: 0 every form tested, 1 some test did not reproduce, 2 usage error (or no form on the page), 3 browser or infrastructure failure."
    )]
    Forms {
        /// The page whose forms are tested. [default: `url` of the config file]
        #[arg(value_name = "URL")]
        url: Option<String>,
        #[command(flatten)]
        forms: FormsArgs,
        #[command(flatten)]
        reports: ReportArgs,
        #[command(flatten)]
        browser: BrowserArgs,
    },
    /// Replay findings of a saved run in a fresh browser and say whether they reproduce.
    #[command(
        after_help = "Exit codes: 0 every finding replayed reproduced, 1 some did not, 2 usage error, 3 browser or infrastructure failure."
    )]
    Replay {
        /// The run's record.json, or the output directory that holds it.
        #[arg(value_name = "RECORD")]
        record: PathBuf,
        /// The finding to replay (its number in the record). Repeatable. [default: all]
        #[arg(long = "finding", value_name = "N")]
        findings: Vec<u32>,
        #[command(flatten)]
        browser: BrowserArgs,
    },
    /// Write a commented starter curio.toml.
    Init {
        /// Where to write it.
        #[arg(value_name = "FILE", default_value = "curio.toml")]
        path: PathBuf,
        /// Overwrite the file if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Write tests from a saved run: one per finding (failing while the failure still
    /// happens) and one per form answer (Form Submission State).
    Export {
        /// The run's record.json, or the output directory that holds it.
        #[arg(value_name = "RECORD")]
        record: PathBuf,
        /// The test framework: playwright (Playwright Test, TypeScript) or selenium
        /// (pytest + Selenium, Python).
        #[arg(long, value_name = "NAME", default_value = "playwright", value_parser = ["playwright", "selenium"])]
        format: String,
        /// Where to write them (in a playwright/ or selenium/ folder).
        #[arg(long, value_name = "DIR", default_value = "curio-tests")]
        out: PathBuf,
    },
    /// Render reports of a saved run again: HTML, JUnit XML, JSON.
    #[command(
        after_help = "Exit codes: 0 reports written, 2 usage error (no report asked for, unreadable record), 3 a report could not be written."
    )]
    Report {
        /// The run's record.json, or the output directory that holds it.
        #[arg(value_name = "RECORD")]
        record: PathBuf,
        #[command(flatten)]
        reports: ReportArgs,
    },
}

#[derive(Debug, Args, Default)]
#[command(next_help_heading = "Reports")]
pub(crate) struct ReportArgs {
    /// Write an HTML report into this folder (index.html, screenshots; opens from disk).
    #[arg(long, value_name = "DIR")]
    pub report_html: Option<PathBuf>,
    /// Write a JUnit XML report: a test case per finding and per form answer (FSS).
    #[arg(long, value_name = "FILE")]
    pub report_junit: Option<PathBuf>,
    /// Write the run's record as JSON (the versioned record.json layout).
    #[arg(long, value_name = "FILE")]
    pub report_json: Option<PathBuf>,
    /// The least severity of a finding that fails the run (exit code 1) and its JUnit
    /// case: error (5xx, uncaught exceptions, crashes), warning (console errors, 4xx),
    /// info (401/403 refusals), or none. [default: warning]
    #[arg(long, value_name = "LEVEL", value_parser = parse_fail_on)]
    pub fail_on: Option<FailOn>,
}

/// The least severity that fails the run; `None`: nothing does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FailOn(pub Option<curio_record::Severity>);

impl Default for FailOn {
    fn default() -> Self {
        FailOn(Some(curio_record::Severity::Warning))
    }
}

impl FailOn {
    /// Whether a run with these findings fails.
    pub fn fails(self, findings: &[curio_record::Finding]) -> bool {
        self.0
            .is_some_and(|level| findings.iter().any(|f| f.severity >= level))
    }
}

pub(crate) fn parse_fail_on(s: &str) -> Result<FailOn, String> {
    if s.trim().eq_ignore_ascii_case("none") {
        return Ok(FailOn(None));
    }
    curio_record::Severity::parse(s)
        .map(|level| FailOn(Some(level)))
        .ok_or_else(|| format!("'{s}' is not a level: error, warning, info or none"))
}

impl ReportArgs {
    pub fn any(&self) -> bool {
        self.report_html.is_some() || self.report_junit.is_some() || self.report_json.is_some()
    }
}

#[derive(Debug, Args)]
#[command(next_help_heading = "Run")]
pub(crate) struct RunArgs {
    /// How long to explore (e.g. 90s, 10m, 1h). [default: 5m; 90s for demo]
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, env = "CURIO_TIME")]
    pub time: Option<Duration>,
    /// Stop after this many actions.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), env = "CURIO_MAX_ACTIONS")]
    pub max_actions: Option<u32>,
    /// How to choose the next action: curious (WebExplor plus Curio's additions),
    /// webexplor (the paper alone), random (a uniform random walk).
    #[arg(long, value_name = "NAME", default_value = "curious", value_parser = ["curious", "webexplor", "random"], env = "CURIO_STRATEGY")]
    pub strategy: String,
    /// Switch off one of the strategy's additions. Repeatable.
    #[arg(long = "disable", value_name = "FEATURE", value_parser = FEATURES)]
    pub disable: Vec<String>,
    /// Switch on an addition the strategy does not use by default. Repeatable.
    #[arg(long = "enable", value_name = "FEATURE", value_parser = FEATURES)]
    pub enable: Vec<String>,
    /// Longest episode in moves before going back to the start URL.
    /// [default: 40 curious, 100 webexplor, 25 random]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub episode_steps: Option<u32>,
    /// Moves without a new page state after which the learner jumps to the most
    /// curious transition it knows. [default: the learner's]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub stuck_after: Option<u32>,
    /// Temperature of the learner's Gumbel-softmax choice: lower prefers the most
    /// curious action more strongly, higher is closer to a random pick.
    /// [default: 1, the paper's]
    #[arg(long, value_name = "T", value_parser = parse_tau)]
    pub tau: Option<f64>,
    /// Never click an element whose text, label or link contains this phrase (whole
    /// words, case-insensitive). Repeatable; adds to the defaults (log out, delete,
    /// remove, reset, ...).
    #[arg(long = "deny", value_name = "TEXT")]
    pub deny: Vec<String>,
    /// Never operate an element this CSS selector matches. Repeatable.
    #[arg(long = "deny-selector", value_name = "CSS")]
    pub deny_selectors: Vec<String>,
    /// Drop the default deny phrases (keep only --deny ones).
    #[arg(long)]
    pub no_default_deny: bool,
    /// JSON file of input values: {"fields": {"coupon": ["SAVE10"]}, "semantics": {"city": ["Lyon"]}}.
    #[arg(long, value_name = "FILE")]
    pub inputs: Option<PathBuf>,
    /// Don't replay new findings to check that their steps reproduce them.
    #[arg(long)]
    pub no_verify: bool,
    /// Pages whose URLs differ only in query values are different pages.
    #[arg(long)]
    pub keep_query_values: bool,
    /// Ignore the query string when comparing pages.
    #[arg(long)]
    pub drop_query: bool,
    /// Numeric path segments (/projects/7) are not generalised.
    #[arg(long)]
    pub keep_numeric_segments: bool,
    /// Seed for every random choice; the same seed replays the same choices.
    /// [default: drawn at random and recorded]
    #[arg(long, value_name = "N", env = "CURIO_SEED")]
    pub seed: Option<u64>,
    /// Directory for the run store, record.json and screenshots.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "curio-out",
        env = "CURIO_OUT"
    )]
    pub out: PathBuf,
    /// More origins that belong to the app (failures elsewhere are noise). Repeatable.
    #[arg(long = "origin", value_name = "URL")]
    pub origins: Vec<String>,
    /// Don't take a screenshot for each new finding.
    #[arg(long)]
    pub no_screenshots: bool,
    /// Don't collect JavaScript coverage.
    #[arg(long)]
    pub no_coverage: bool,
    #[command(flatten)]
    pub model: ModelArgs,
}

/// The language model asked about forms, by `explore`'s form sessions and by `forms`.
#[derive(Debug, Args, Default)]
pub(crate) struct ModelArgs {
    /// An OpenAI-compatible server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio) asked for
    /// each field's constraints and a value besides the built-in rules, e.g.
    /// http://127.0.0.1:11434/v1; its key, if it needs one, in CURIO_LLM_API_KEY.
    #[arg(long, value_name = "URL", env = "CURIO_LLM_URL")]
    pub llm_url: Option<String>,
    /// The model to ask at --llm-url.
    #[arg(long, value_name = "NAME", env = "CURIO_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// A GGUF chat model to run in this process instead of a server, its answers held to
    /// the shape Curio reads (a build with the local-llm feature; scripts/fetch-smollm2
    /// installs SmolLM2-135M-Instruct).
    #[arg(long, value_name = "GGUF", env = "CURIO_LLM_LOCAL")]
    pub llm_local: Option<PathBuf>,
    /// Threads the --llm-local model computes on.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub llm_threads: u32,
}

#[derive(Debug, Args)]
#[command(next_help_heading = "Forms")]
pub(crate) struct FormsArgs {
    /// Directory for forms.json and the exported tests.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "curio-forms",
        env = "CURIO_OUT"
    )]
    pub out: PathBuf,
    /// Test only the form with this number (1-based, in page order). Repeatable.
    #[arg(long = "form", value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub only: Vec<u32>,
    /// Most submissions per form.
    #[arg(long, value_name = "N", default_value = "60", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_submissions: u32,
    /// Times each form submission state is submitted again before its test is written.
    #[arg(long, value_name = "N", default_value = "1")]
    pub replays: u32,
    /// Seed for every random choice. [default: 1]
    #[arg(long, value_name = "N", default_value = "1", env = "CURIO_SEED")]
    pub seed: u64,
    /// JSON file of input values: {"fields": {"coupon": ["SAVE10"]}, "semantics": {"city": ["Lyon"]}}.
    #[arg(long, value_name = "FILE")]
    pub inputs: Option<PathBuf>,
    /// Switch a part of form testing off, to measure what it is worth: the form's
    /// relation graph (hints and message attachment), learning rules from feedback,
    /// negating each rule, probing each field; the built-in `rules` (leaving the model's
    /// alone, FormNexus' own way); or a part of the model's prompts (`prompt-date`,
    /// `prompt-form` for the form's title and labels, `prompt-ferg` for the field's local
    /// context and related fields). Repeatable.
    #[arg(long, value_name = "PART", value_parser = clap::builder::PossibleValuesParser::new(FORM_PARTS))]
    pub disable: Vec<String>,
    /// How the form's relation graph compares texts: `lexical` (words and character
    /// n-grams), `minilm` (the all-MiniLM-L6-v2 sentence model, installed by
    /// scripts/fetch-minilm) or `llm` (the --llm-embed-model of --llm-url); without the
    /// model, Curio says so and uses `lexical`.
    #[arg(long, value_name = "NAME", default_value = "lexical", value_parser = ["lexical", "minilm", "llm"])]
    pub embedder: String,
    #[command(flatten)]
    pub model: ModelArgs,
    /// The embedding model at --llm-url, for `--embedder llm`.
    #[arg(long, value_name = "NAME", env = "CURIO_LLM_EMBED_MODEL")]
    pub llm_embed_model: Option<String>,
}

/// Names for `curio forms --disable`: parts of the engine, the built-in `rules` (the
/// model's constraints alone), and what the model's prompts give it.
pub(crate) const FORM_PARTS: [&str; 8] = [
    "ferg",
    "feedback",
    "negation",
    "probes",
    "rules",
    "prompt-date",
    "prompt-form",
    "prompt-ferg",
];

#[derive(Debug, Args)]
#[command(next_help_heading = "Browser")]
pub(crate) struct BrowserArgs {
    /// Chromium binary. [default: chromium, chromium-browser or google-chrome on PATH]
    #[arg(long, value_name = "PATH", env = "CURIO_CHROME")]
    pub chrome: Option<PathBuf>,
    /// Attach to a running browser's DevTools WebSocket instead of launching one.
    #[arg(long, value_name = "WS_URL", env = "CURIO_BROWSER_WS")]
    pub browser_ws: Option<String>,
    /// Longest wait for a page to load.
    #[arg(long, value_name = "DURATION", default_value = "15s", value_parser = parse_duration)]
    pub nav_timeout: Duration,
}

/// Names for --disable and --enable.
pub(crate) const FEATURES: [&str; 18] = curio_runner::Features::NAMES;

pub(crate) fn parse_tau(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 => Ok(t),
        _ => Err("expected a number above zero, such as 0.5 or 1".into()),
    }
}

pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let d = match s.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => humantime::parse_duration(s)
            .map_err(|e| format!("expected a duration such as 90s, 10m or 1h ({e})"))?,
    };
    if d.is_zero() {
        return Err("the duration must be more than zero".into());
    }
    Ok(d)
}
