//! Replaying a recorded trace in a fresh browser context, to tell whether a finding
//! reproduces: during a run (to keep the shortest trace that does) and afterwards
//! (`curio replay`).

use std::time::Duration;

use curio_browser::{Browser, BrowserConfig, BrowserError, Outcome, Scope, Tab, UserAction};
use curio_page::{Action, ActionKind, Page};
use curio_record::{FindingId, Observation, RunRecord, Step, StepKind};
use url::Url;

use crate::explore::RunError;
use crate::findings::{is_finding, is_wanted, signature, signature_in};
use crate::login::{Login, log_in};

/// What replaying one trace showed.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    /// The wanted signature was observed.
    pub reproduced: bool,
    /// Steps performed (the trace may stop early: reproduced, or an element is missing).
    pub steps_done: usize,
    /// The step that could not be performed, and why.
    pub failed: Option<(usize, String)>,
    /// The step that stopped at a choice its select no longer offers, when that is why.
    pub unoffered: Option<usize>,
    /// The step whose element is gone (a member removed, a button hidden), when that is
    /// why it stopped.
    pub missing: Option<usize>,
    /// Signatures of every finding-worthy observation seen, in order, deduplicated.
    pub signatures: Vec<String>,
}

/// Replays `trace` in a new tab (its own browser context: no cookies, no storage),
/// after logging in when the run did, and watches for `wanted`. Stops as soon as it is
/// seen. A login that fails is a replay that did not get past its first step.
pub(crate) async fn replay_trace(
    browser: &Browser,
    login: Option<&Login>,
    trace: &[Step],
    wanted: &str,
) -> Result<ReplayReport, BrowserError> {
    let mut tab = browser.new_tab().await?;
    let report = match login {
        Some(login) => match log_in(&mut tab, login).await {
            Ok(_) => replay_in(&mut tab, trace, wanted).await,
            Err(e) => Ok(ReplayReport {
                reproduced: false,
                steps_done: 0,
                failed: Some((0, e.to_string())),
                unoffered: None,
                missing: None,
                signatures: Vec::new(),
            }),
        },
        None => replay_in(&mut tab, trace, wanted).await,
    };
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
        unoffered: None,
        missing: None,
        signatures: Vec::new(),
    };
    let mut mark = tab.observation_mark();
    for (i, step) in trace.iter().enumerate() {
        mark = tab.observation_mark();
        let outcome = match step.kind {
            StepKind::Goto => tab.goto(step.value.as_deref().unwrap_or_default()).await?,
            _ => {
                let capture = tab.snapshot().await?;
                let page = Page::from_snapshot(&capture.snapshot);
                // A box the step leaves ticked (or not) that already is: nothing to do.
                if already_checked(&page, step) {
                    report.steps_done = i + 1;
                    continue;
                }
                let Some(action) = user_action(&page, step) else {
                    // A link that is gone (an activity feed moved on) still says where
                    // it led: the replay opens that address.
                    if let Some(href) = link_address(step, &page.url) {
                        let outcome = tab.goto(&href).await?;
                        report.steps_done = i + 1;
                        absorb(&mut report, &outcome, wanted);
                        if report.reproduced || outcome.crashed {
                            break;
                        }
                        continue;
                    }
                    report.failed =
                        Some((i, format!("no element {} on {}", step.locator, page.url)));
                    report.missing = Some(i);
                    break;
                };
                if let Some(value) = missing_option(&page, &action) {
                    report.failed = Some((
                        i,
                        format!(
                            "{} on {} offers no option {value:?}",
                            step.locator, page.url
                        ),
                    ));
                    report.unoffered = Some(i);
                    break;
                }
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
    // Every step done and not yet seen: a loaded machine or a slow server may answer
    // after the last step's settle gave up, so its answer is waited for a while.
    if !report.reproduced && report.failed.is_none() && report.steps_done == trace.len() {
        let late = tab
            .observations_since(mark, LATE_ANSWER, |o| is_finding(o) && is_wanted(o, wanted))
            .await;
        absorb_observations(&mut report, &late, None, wanted);
    }
    Ok(report)
}

/// How long a replay waits after its last step for the failure it replays.
const LATE_ANSWER: Duration = Duration::from_secs(5);

fn absorb(report: &mut ReplayReport, outcome: &Outcome, wanted: &str) {
    absorb_observations(report, &outcome.observations, Some(outcome), wanted);
}

fn absorb_observations(
    report: &mut ReplayReport,
    observations: &[Observation],
    outcome: Option<&Outcome>,
    wanted: &str,
) {
    for o in observations.iter().filter(|o| is_finding(o)) {
        let s = match outcome {
            Some(outcome) => signature_in(o, outcome),
            None => signature(o),
        };
        if s == wanted || is_wanted(o, wanted) {
            report.reproduced = true;
        }
        if !report.signatures.contains(&s) {
            report.signatures.push(s);
        }
    }
}

/// How a radio picked by its value is selected (`crate::forms::action_for`).
/// Where a recorded click on a link led, when it stays on the origin of `page_url`.
fn link_address(step: &Step, page_url: &str) -> Option<String> {
    if step.kind != StepKind::Click {
        return None;
    }
    let href = url::Url::parse(step.href.as_deref()?).ok()?;
    let page = url::Url::parse(page_url).ok()?;
    (href.origin() == page.origin() && matches!(href.scheme(), "http" | "https"))
        .then(|| href.to_string())
}

pub(crate) const RADIO_BY_VALUE: &str = "input[type=radio][name=";

/// Whether `step` leaves a checkbox or radio in a state (`on`, `off`) that the element
/// it found on `page` already shows.
fn already_checked(page: &Page, step: &Step) -> bool {
    let on = match (step.kind, step.value.as_deref()) {
        (StepKind::Check, Some("on")) => true,
        (StepKind::Check, Some("off")) => false,
        _ => return false,
    };
    let Some(UserAction::Check(target)) = user_action(page, step) else {
        return false;
    };
    page.actions
        .iter()
        .filter(|a| {
            target.backend_node_id != 0 && a.target.backend_node_id == target.backend_node_id
        })
        .filter_map(|a| a.field.as_ref())
        .any(|f| f.checked == on)
}

/// The value `action` chooses when its select on `page` offers no option of that
/// value (an assignee who has since become a viewer): choosing it would leave the
/// select as it was, and the replay would go on as if it had been chosen.
fn missing_option(page: &Page, action: &UserAction) -> Option<String> {
    let UserAction::Select(target, value) = action else {
        return None;
    };
    let field = page
        .actions
        .iter()
        .find(|a| a.target.backend_node_id == target.backend_node_id)
        .and_then(|a| a.field.as_ref())?;
    let offered = field
        .options
        .iter()
        .any(|o| o.value == *value || o.text.trim() == value);
    (!field.options.is_empty() && !offered).then(|| value.clone())
}

/// The action on `page` that `step` recorded, of the same kind.
pub(crate) fn user_action(page: &Page, step: &Step) -> Option<UserAction> {
    let kind_matches = |a: &&Action| match step.kind {
        StepKind::Click => a.kind == ActionKind::Click,
        StepKind::Fill => a.kind == ActionKind::Fill,
        StepKind::Select => a.kind == ActionKind::Select,
        StepKind::Check => a.kind == ActionKind::Check,
        StepKind::Goto => false,
    };
    // Lists grow and reorder while an app is used, so positional selectors drift, and
    // records get renamed, so texts drift: the element with both the same selector and
    // the same locator is surely it; else the only element with that locator; else a
    // link to the same URL; else the selector, unless it now holds a link elsewhere;
    // else the first with the locator.
    let candidates: Vec<&Action> = page.actions.iter().filter(kind_matches).collect();
    let same_locator: Vec<&Action> = candidates
        .iter()
        .copied()
        .filter(|a| a.target.locator == step.locator)
        .collect();
    let by_href = step.href.as_ref().and_then(|href| {
        let same: Vec<&Action> = candidates
            .iter()
            .copied()
            .filter(|a| a.href.as_ref() == Some(href))
            .collect();
        same.iter()
            .copied()
            .find(|a| a.target.locator == step.locator)
            .or_else(|| same.first().copied())
    });
    let by_selector = candidates
        .iter()
        .copied()
        .find(|a| a.target.selector == step.selector)
        .filter(|a| step.href.is_none() || a.href == step.href);
    let action = same_locator
        .iter()
        .copied()
        .find(|a| a.target.selector == step.selector)
        .or_else(|| (same_locator.len() == 1).then(|| same_locator[0]))
        .or(by_href)
        .or(by_selector)
        .or_else(|| same_locator.first().copied());
    let Some(action) = action else {
        // A radio picked by its value (a form macro's choice in a radio group) is found
        // by that selector in the page, as when it was picked.
        return (step.kind == StepKind::Check && step.selector.starts_with(RADIO_BY_VALUE)).then(
            || {
                UserAction::Check(curio_page::Target {
                    backend_node_id: 0,
                    frame: 0,
                    selector: step.selector.clone(),
                    locator: step.locator.clone(),
                    rect: Default::default(),
                })
            },
        );
    };
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
    /// How to log in before each replay, when the app needs it.
    pub login: Option<Login>,
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
        let report = replay_trace(
            &browser,
            config.login.as_ref(),
            &finding.trace,
            &finding.signature,
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use curio_page::{ElementKey, Rect, Target};

    fn link(text: &str, selector: &str, id: i64) -> Action {
        Action {
            key: ElementKey(text.into()),
            kind: ActionKind::Click,
            target: Target {
                backend_node_id: id,
                frame: 0,
                selector: selector.into(),
                locator: format!("link {text:?}"),
                rect: Rect::default(),
            },
            role: "link".into(),
            tag: "a".into(),
            text: text.into(),
            href: None,
            form: None,
            field: None,
        }
    }

    fn page(actions: Vec<Action>) -> Page {
        Page {
            url: "http://h/".into(),
            normalized_url: "http://h/".into(),
            title: String::new(),
            actions,
            forms: vec![],
            texts: vec![],
            tag_sequence: vec![],
            merged_tag_sequence: vec![],
        }
    }

    fn click(locator: &str, selector: &str) -> Step {
        Step {
            kind: StepKind::Click,
            locator: locator.into(),
            selector: selector.into(),
            value: None,
            href: None,
        }
    }

    fn id(a: Option<UserAction>) -> i64 {
        a.expect("an action").target().backend_node_id
    }

    #[test]
    fn a_grown_list_does_not_fool_the_replay() {
        // Recorded when "Website Redesign" was the first row; a new row now comes first.
        let now = page(vec![
            link("New Project", "li:nth-child(1) > a", 1),
            link("Website Redesign", "li:nth-child(2) > a", 2),
        ]);
        let step = click("link \"Website Redesign\"", "li:nth-child(1) > a");
        assert_eq!(id(user_action(&now, &step)), 2);
        // Two elements with the locator: the selector decides.
        let twice = page(vec![
            link("Open", "li:nth-child(1) > a", 1),
            link("Open", "li:nth-child(2) > a", 2),
        ]);
        assert_eq!(
            id(user_action(
                &twice,
                &click("link \"Open\"", "li:nth-child(2) > a")
            )),
            2
        );
        // No element with the locator: the selector alone.
        assert_eq!(
            id(user_action(
                &twice,
                &click("link \"Gone\"", "li:nth-child(1) > a")
            )),
            1
        );
        assert!(user_action(&twice, &click("link \"Gone\"", "#nowhere")).is_none());
    }

    #[test]
    fn a_renamed_link_is_found_by_where_it_points() {
        let to = |mut a: Action, href: &str| {
            a.href = Some(format!("http://127.0.0.1:8080{href}"));
            a
        };
        // An activity feed: recorded when "set Website to Archived" came first; the
        // record was renamed and a newer entry now holds the first position.
        let now = page(vec![
            to(
                link("changed the plan", "li:nth-child(1) > a", 1),
                "/billing",
            ),
            to(
                link("set Web shop to Archived", "li:nth-child(2) > a", 2),
                "/projects/2",
            ),
        ]);
        let step = Step {
            href: Some("http://127.0.0.1:8080/projects/2".into()),
            ..click("link \"set Website to Archived\"", "li:nth-child(1) > a")
        };
        assert_eq!(id(user_action(&now, &step)), 2);
        // The link is gone: the selector must not click another link in its place.
        let gone = page(vec![to(
            link("changed the plan", "li:nth-child(1) > a", 1),
            "/billing",
        )]);
        assert!(user_action(&gone, &step).is_none());
    }
}
