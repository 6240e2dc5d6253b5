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
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Explore a web app from a start URL and report the failures found.
    Explore {
        /// The page to start from; its origin is the scope of the exploration.
        #[arg(value_name = "URL")]
        url: String,
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        browser: BrowserArgs,
    },
    /// Start the bundled demo shop, explore it for about a minute, and show what was found.
    Demo {
        #[command(flatten)]
        run: RunArgs,
        #[command(flatten)]
        browser: BrowserArgs,
    },
}

#[derive(Debug, Args)]
#[command(next_help_heading = "Run")]
pub(crate) struct RunArgs {
    /// How long to explore (e.g. 90s, 10m, 1h). [default: 5m; 60s for demo]
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, env = "CURIO_TIME")]
    pub time: Option<Duration>,
    /// Stop after this many actions.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), env = "CURIO_MAX_ACTIONS")]
    pub max_actions: Option<u32>,
    /// Longest episode in actions before going back to the start URL.
    #[arg(long, value_name = "N", default_value_t = 25, value_parser = clap::value_parser!(u32).range(1..))]
    pub episode_steps: u32,
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
}

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

fn parse_duration(s: &str) -> Result<Duration, String> {
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
