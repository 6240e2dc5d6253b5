//! The explore loop: episodes of actions from the start URL, every outcome recorded as
//! it happens, findings deduplicated, until the time or action budget runs out or the
//! user interrupts.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use curio_browser::{Browser, BrowserError, LaunchError, Outcome, Tab};
use curio_page::Page;
use curio_record::{
    ExportError, Finding, FindingId, ObservationKind, RunId, RunMeta, RunRecord, RunSummary, Step,
    StepKind, StepRecord, Store, StoreError,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::{RunConfig, StrategyKind};
use crate::findings::{is_finding, signature};
use crate::strategy::random_choice;

/// Consecutive browser failures (not app failures) after which a run gives up.
const MAX_CONSECUTIVE_FAILURES: u32 = 8;

/// What a run reports while it goes, for progress displays.
#[derive(Debug, Clone)]
pub enum RunEvent {
    Started {
        run: RunId,
        browser: String,
    },
    Step {
        index: u32,
        episode: u32,
        url: String,
        step: Step,
    },
    Finding {
        id: FindingId,
        kind: ObservationKind,
        message: String,
    },
    Finished {
        summary: RunSummary,
    },
}

/// The end of a run that could do its job (it may still have found failures).
#[derive(Debug)]
pub struct RunOutcome {
    pub run: RunId,
    pub record: RunRecord,
    pub store_path: PathBuf,
    pub record_path: PathBuf,
}

/// A failure of Curio's own infrastructure: the browser, the store, the start page.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Launch(#[from] LaunchError),
    #[error("browser failure while exploring {url}: {source}")]
    Browser {
        url: String,
        #[source]
        source: BrowserError,
    },
    #[error("cannot load the start page {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error("failed to write {path}: {source}")]
    Output {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Explores `config.start_url` until a budget runs out or Ctrl-C, reporting progress to
/// `on_event`. Everything observed is in the store before this returns, and in the
/// store as it happens, so a killed run keeps what it saw.
pub async fn explore(
    config: RunConfig,
    on_event: &mut (dyn FnMut(RunEvent) + Send),
) -> Result<RunOutcome, RunError> {
    std::fs::create_dir_all(&config.out_dir).map_err(|source| RunError::Output {
        path: config.out_dir.clone(),
        source,
    })?;
    let browser = Browser::start(config.browser.clone()).await?;
    let tab = browser
        .new_tab()
        .await
        .map_err(|source| RunError::Browser {
            url: config.start_url.to_string(),
            source,
        })?;
    let mut store = Store::open(&config.store_path())?;
    let meta = RunMeta {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        start_url: config.start_url.to_string(),
        strategy: config.strategy.name().to_string(),
        seed: config.seed,
        browser_version: browser.version().to_string(),
        started_at_ms: now_ms(),
        config: config.describe(),
    };
    let run = store.begin_run(&meta)?;
    on_event(RunEvent::Started {
        run,
        browser: browser.version().to_string(),
    });
    let mut explorer = Explorer {
        rng: ChaCha8Rng::seed_from_u64(config.seed),
        config,
        store,
        run,
        tab,
        step_index: 0,
        actions: 0,
        episode: 0,
        episode_actions: 0,
        need_reset: true,
        trace: Vec::new(),
        findings: HashMap::new(),
        states: BTreeSet::new(),
        failures: 0,
    };
    let result = explorer.run_loop(on_event).await;
    let Explorer {
        mut store,
        tab,
        run,
        config,
        ..
    } = explorer;
    let coverage = tab.coverage().summary(tab.scope());
    tab.close().await;
    browser.close().await;
    let summary = result?;
    store.set_coverage(run, &coverage)?;
    store.finish_run(run, &summary)?;
    on_event(RunEvent::Finished {
        summary: summary.clone(),
    });
    let record = store.load_run(run)?;
    let record_path = config.record_path();
    record.write_json(&record_path)?;
    Ok(RunOutcome {
        run,
        record,
        store_path: config.store_path(),
        record_path,
    })
}

struct Explorer {
    config: RunConfig,
    store: Store,
    run: RunId,
    tab: Tab,
    rng: ChaCha8Rng,
    step_index: u32,
    actions: u32,
    episode: u32,
    episode_actions: u32,
    need_reset: bool,
    /// Steps of the current episode, from its `Goto`.
    trace: Vec<Step>,
    findings: HashMap<String, FindingId>,
    states: BTreeSet<String>,
    failures: u32,
}

impl Explorer {
    async fn run_loop(
        &mut self,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<RunSummary, RunError> {
        let deadline = tokio::time::Instant::now() + self.config.time;
        let interrupt = tokio::signal::ctrl_c();
        tokio::pin!(interrupt);
        let stop_reason = loop {
            if self
                .config
                .max_actions
                .is_some_and(|max| self.actions >= max)
            {
                break "max_actions";
            }
            tokio::select! {
                biased;
                _ = &mut interrupt => break "interrupted",
                _ = tokio::time::sleep_until(deadline) => break "time",
                r = self.step(on_event) => r?,
            }
        };
        Ok(RunSummary {
            finished_at_ms: now_ms(),
            steps: self.step_index,
            episodes: self.episode,
            states: self.states.len() as u32,
            findings: self.findings.len() as u32,
            stop_reason: stop_reason.to_string(),
        })
    }

    async fn step(&mut self, on_event: &mut (dyn FnMut(RunEvent) + Send)) -> Result<(), RunError> {
        if self.need_reset {
            return self.start_episode(on_event).await;
        }
        let capture = match self.tab.snapshot().await {
            Ok(c) => c,
            Err(e) => return self.browser_failure(e),
        };
        let page = Page::from_snapshot(&capture.snapshot);
        self.states.insert(page.normalized_url.clone());
        let Some(choice) = (match self.config.strategy {
            StrategyKind::Random => random_choice(&page, &mut self.rng),
        }) else {
            self.need_reset = true;
            return Ok(());
        };
        let outcome = match self.tab.perform(&choice.action).await {
            Ok(o) => o,
            // The page changed under us (a re-render); look again.
            Err(BrowserError::Stale { .. }) => return Ok(()),
            Err(e) => return self.browser_failure(e),
        };
        self.failures = 0;
        self.actions += 1;
        self.episode_actions += 1;
        if self.episode_actions >= self.config.episode_steps
            || outcome.crashed
            || !self.tab.scope().contains(&outcome.url_after)
        {
            self.need_reset = true;
        }
        self.record(choice.step, page.url, &outcome, on_event).await
    }

    async fn start_episode(
        &mut self,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        let url = self.config.start_url.to_string();
        if self.step_index > 0 {
            self.episode += 1;
        }
        self.trace.clear();
        self.episode_actions = 0;
        let outcome = match self.tab.goto(&url).await {
            Ok(o) => o,
            Err(e) => return self.browser_failure(e),
        };
        if let Some(reason) = &outcome.navigation_error {
            if self.step_index == 0 {
                return Err(RunError::Unreachable {
                    url,
                    reason: reason.clone(),
                });
            }
            self.failures += 1;
            if self.failures >= MAX_CONSECUTIVE_FAILURES {
                return Err(RunError::Unreachable {
                    url,
                    reason: reason.clone(),
                });
            }
        } else {
            self.need_reset = false;
        }
        let step = Step {
            kind: StepKind::Goto,
            locator: String::new(),
            selector: String::new(),
            value: Some(url.clone()),
        };
        self.record(step, url, &outcome, on_event).await
    }

    fn browser_failure(&mut self, e: BrowserError) -> Result<(), RunError> {
        self.failures += 1;
        self.need_reset = true;
        if self.failures >= MAX_CONSECUTIVE_FAILURES {
            return Err(RunError::Browser {
                url: self.tab.url(),
                source: e,
            });
        }
        Ok(())
    }

    async fn record(
        &mut self,
        step: Step,
        page_url: String,
        outcome: &Outcome,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        let index = self.step_index;
        self.step_index += 1;
        self.trace.push(step.clone());
        self.store.append_step(
            self.run,
            &StepRecord {
                index,
                episode: self.episode,
                step: step.clone(),
                page_url,
                result_url: outcome.url_after.clone(),
                duration_ms: outcome.duration.as_millis() as u64,
                js_click_fallback: outcome.js_click_fallback,
                settle_timed_out: outcome.settle_timed_out,
            },
        )?;
        on_event(RunEvent::Step {
            index,
            episode: self.episode,
            url: outcome.url_after.clone(),
            step,
        });
        for o in &outcome.observations {
            let mut o = o.clone();
            o.step = index;
            self.store.append_observation(self.run, &o)?;
            if !is_finding(&o) {
                continue;
            }
            let signature = signature(&o);
            let known = self.findings.contains_key(&signature);
            let finding = Finding {
                id: FindingId(0),
                signature: signature.clone(),
                kind: o.kind,
                message: o.message.clone(),
                url: o.url.clone(),
                source: o.source.clone(),
                status: o.status,
                first_step: index,
                trace: self.trace.clone(),
                occurrences: 1,
                screenshot: None,
            };
            let id = self.store.record_finding(self.run, &finding)?;
            if known {
                continue;
            }
            self.findings.insert(signature, id);
            if self.config.screenshots && !outcome.crashed {
                self.screenshot(id).await?;
            }
            on_event(RunEvent::Finding {
                id,
                kind: o.kind,
                message: o.message.clone(),
            });
        }
        Ok(())
    }

    async fn screenshot(&mut self, id: FindingId) -> Result<(), RunError> {
        let Ok(png) = self.tab.screenshot().await else {
            return Ok(()); // a missing picture must not lose the finding
        };
        let rel = format!("screenshots/finding-{}.png", id.0);
        let path = self.config.out_dir.join(&rel);
        let write = std::fs::create_dir_all(path.parent().unwrap_or(&self.config.out_dir))
            .and_then(|_| std::fs::write(&path, png));
        write.map_err(|source| RunError::Output { path, source })?;
        self.store.set_finding_screenshot(self.run, id, &rel)?;
        Ok(())
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
