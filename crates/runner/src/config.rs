//! The validated configuration of a run. Only this reaches the runner: the CLI parses
//! flags (and later `curio.toml`) and validates them into it.

use std::path::PathBuf;
use std::time::Duration;

use curio_browser::BrowserConfig;
use serde::Serialize;
use url::Url;

/// How the next action is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrategyKind {
    /// A seeded uniform random walk over the page's actions (the baseline).
    Random,
}

impl StrategyKind {
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Random => "random",
        }
    }
}

#[derive(Debug, Clone)]
pub struct RunConfig {
    pub start_url: Url,
    /// Wall-clock budget for exploring.
    pub time: Duration,
    /// Budget in actions (the initial navigation of each episode does not count).
    pub max_actions: Option<u32>,
    /// Longest episode in actions; then the run goes back to the start URL.
    pub episode_steps: u32,
    pub seed: u64,
    pub strategy: StrategyKind,
    /// Where `runs.db`, `record.json` and screenshots go.
    pub out_dir: PathBuf,
    /// Take a screenshot for every new finding.
    pub screenshots: bool,
    pub browser: BrowserConfig,
}

impl RunConfig {
    pub fn store_path(&self) -> PathBuf {
        self.out_dir.join("runs.db")
    }

    pub fn record_path(&self) -> PathBuf {
        self.out_dir.join("record.json")
    }

    /// What is recorded with the run, so it can be reproduced.
    pub fn describe(&self) -> serde_json::Value {
        serde_json::json!({
            "start_url": self.start_url.as_str(),
            "time_secs": self.time.as_secs_f64(),
            "max_actions": self.max_actions,
            "episode_steps": self.episode_steps,
            "seed": self.seed,
            "strategy": self.strategy,
            "out_dir": self.out_dir.display().to_string(),
            "origins": self.browser.scope.origins(),
            "coverage": self.browser.coverage,
        })
    }
}
