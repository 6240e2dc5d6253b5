//! Replaying a recorded trace in a fresh browser context, to tell whether a finding
//! reproduces: during a run (to keep the shortest trace that does) and afterwards
//! (`curio replay`).

use std::time::Duration;

use curio_browser::{Browser, BrowserConfig, BrowserError, Outcome, Scope, Tab, UserAction};
use curio_page::{Action, ActionKind, Page};
use curio_record::{FindingId, RunRecord, Step, StepKind};
use url::Url;

use crate::explore::RunError;
use crate::findings::{is_finding, signature};

/// What replaying one trace showed.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// The wanted signature was observed.
    pub reproduced: bool,
    /// Steps performed (the trace may stop early: reproduced, or an element is missing).
    pub steps_done: usize,
    /// The step that could not be performed, and why.
    pub failed: Option<(usize, String)>,
    /// Signatures of every finding-worthy observation seen, in order, deduplicated.
    pub signatures: Vec<String>,
}

/// Replays `trace` in a new tab (its own browser context: no cookies, no storage) and
/// watches for `wanted`. Stops as soon as it is seen.
pub(crate) async fn replay_trace(
    browser: &Browser,
    trace: &[Step],
    wanted: &str,
) -> Result<ReplayReport, BrowserError> {
    let mut tab = browser.new_tab().await?;
    let report = replay_in(&mut tab, trace, wanted).await;
    tab.close().await;
    report
}

async fn replay_in(
    tab: &mut Tab,
    trace: &[Step],
    wanted: &str,
) -> Result<ReplayReport, BrowserError> {
    let mut report = ReplayReport {
        reproduced: false,
        steps_done: 0,
        failed: None,
        signatures: Vec::new(),
    };
    for (i, step) in trace.iter().enumerate() {
        let outcome = match step.kind {
            StepKind::Goto => tab.goto(step.value.as_deref().unwrap_or_default()).await?,
            _ => {
                let capture = tab.snapshot().await?;
                let page = Page::from_snapshot(&capture.snapshot);
                let Some(action) = user_action(&page, step) else {
                    report.failed =
                        Some((i, format!("no element {} on {}", step.locator, page.url)));
                    break;
                };
                match tab.perform(&action).await {
                    Ok(o) => o,
                    Err(BrowserError::Stale { .. }) => {
                        report.failed = Some((i, format!("{} went stale", step.locator)));
                        break;
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        report.steps_done = i + 1;
        absorb(&mut report, &outcome, wanted);
        if report.reproduced {
            break;
        }
        if outcome.crashed {
            break;
        }
    }
    Ok(report)
}

fn absorb(report: &mut ReplayReport, outcome: &Outcome, wanted: &str) {
    for o in outcome.observations.iter().filter(|o| is_finding(o)) {
        let s = signature(o);
        if s == wanted {
            report.reproduced = true;
        }
        if !report.signatures.contains(&s) {
            report.signatures.push(s);
        }
    }
}

/// The action on `page` that `step` recorded: same selector and kind, else the same
/// readable locator (selectors with positions can shift when a list grows).
fn user_action(page: &Page, step: &Step) -> Option<UserAction> {
    let kind_matches = |a: &&Action| match step.kind {
        StepKind::Click => a.kind == ActionKind::Click,
        StepKind::Fill => a.kind == ActionKind::Fill,
        StepKind::Select => a.kind == ActionKind::Select,
        StepKind::Check => a.kind == ActionKind::Check,
        StepKind::Goto => false,
    };
    let action = page
        .actions
        .iter()
        .filter(kind_matches)
        .find(|a| a.target.selector == step.selector)
        .or_else(|| {
            page.actions
                .iter()
                .filter(kind_matches)
                .find(|a| a.target.locator == step.locator)
        })?;
    let target = action.target.clone();
    let value = step.value.clone().unwrap_or_default();
    Some(match step.kind {
        StepKind::Fill => {
            let input_type = action
                .field
                .as_ref()
                .map_or_else(|| "text".to_string(), |f| f.input_type.clone());
            UserAction::Fill(target, value, input_type)
        }
        StepKind::Select => UserAction::Select(target, value),
        StepKind::Check => UserAction::Check(target),
        _ => UserAction::Click(target),
    })
}

/// How `curio replay` runs.
#[derive(Debug, Clone)]
pub struct ReplayConfig {
    pub browser: BrowserConfig,
}

impl ReplayConfig {
    /// Scope from the record: the start URL's origin plus the origins the run allowed.
    pub fn scope_of(record: &RunRecord) -> Option<Scope> {
        let start = Url::parse(&record.meta.start_url).ok()?;
        let origins: Vec<String> = record
            .meta
            .config
            .get("origins")
            .and_then(|o| o.as_array())
            .into_iter()
            .flatten()
            .filter_map(|o| o.as_str().map(String::from))
            .collect();
        Some(Scope::new(&start, &origins))
    }
}

/// The verdict on one finding of a saved run.
#[derive(Debug, Clone)]
pub struct FindingReplay {
    pub finding: FindingId,
    pub report: ReplayReport,
    pub duration: Duration,
}

/// Replays the given findings of `record`, each in a fresh browser context.
pub async fn replay_findings(
    config: ReplayConfig,
    record: &RunRecord,
    findings: &[FindingId],
    on_result: &mut (dyn FnMut(&FindingReplay) + Send),
) -> Result<Vec<FindingReplay>, RunError> {
    let browser = Browser::start(config.browser).await?;
    let mut out = Vec::new();
    for id in findings {
        let Some(finding) = record.findings.iter().find(|f| f.id == *id) else {
            continue;
        };
        let started = std::time::Instant::now();
        let report = replay_trace(&browser, &finding.trace, &finding.signature)
            .await
            .map_err(|source| RunError::Browser {
                url: record.meta.start_url.clone(),
                source,
            });
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                browser.close().await;
                return Err(e);
            }
        };
        let result = FindingReplay {
            finding: *id,
            report,
            duration: started.elapsed(),
        };
        on_result(&result);
        out.push(result);
    }
    browser.close().await;
    Ok(out)
}
