//! Waiting for a page to settle after an action: navigation (if the action started one),
//! then quiet, each bounded by a hard timeout. Quiet means: no request started since the
//! action is still running, nothing changed on the network or in the DOM for a quiet
//! period, and no short timer the page set is still pending.
//!
//! The navigation is detected from events the journal has already collected since the
//! action's mark, never by waiting for a navigation after the click: a fast navigation
//! can finish before such a wait is even set up.

use std::time::{Duration, Instant};

use chromiumoxide::Page;
use serde_json::json;

use crate::cdp;
use crate::events::{Events, Mark};
use crate::launch::Timeouts;

const POLL: Duration = Duration::from_millis(15);

/// Timers set for at most this long count as work the page is about to do.
const SHORT_TIMER_MS: u32 = 1000;

/// Longest wait for pending short timers; a page polling with `setTimeout` always has
/// one, and must not hold every action up for the whole idle timeout.
const TIMER_WAIT: Duration = Duration::from_millis(1200);

/// Installed in every document: counts DOM mutations and pending short timers, so both
/// can be read with one evaluate.
pub(crate) const PAGE_PROBE: &str = r#"(() => {
  if (window.__curioProbe !== undefined) return;
  const probe = window.__curioProbe = {mutations: 0, timers: new Set()};
  new MutationObserver(ms => { probe.mutations += ms.length; })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  const setT = window.setTimeout, clearT = window.clearTimeout;
  window.setTimeout = function (fn, ms, ...args) {
    if (typeof fn !== 'function' || (Number(ms) || 0) > SHORT_TIMER_MS) return setT.call(this, fn, ms, ...args);
    const id = setT.call(this, function () { probe.timers.delete(id); return fn.apply(this, arguments); }, ms, ...args);
    probe.timers.add(id);
    return id;
  };
  window.clearTimeout = function (id) { probe.timers.delete(id); return clearT.call(this, id); };
})()"#;

/// The probe with its constants filled in.
pub(crate) fn page_probe() -> String {
    PAGE_PROBE.replace("SHORT_TIMER_MS", &SHORT_TIMER_MS.to_string())
}

#[derive(Debug, Default)]
pub(crate) struct Settled {
    pub timed_out: Option<String>,
    /// It ended at the idle cap: the network, the DOM or timers never rested.
    pub idle_cap: bool,
}

/// How long to wait for a page after an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// A quiet period, and a moment for a navigation the action may start: after a
    /// click or a key that may submit.
    Full,
    /// No quiet period while the action made the page do nothing: no request, no
    /// navigation, no short timer, and the DOM the same at two polls in a row. Once it
    /// does something, as `Full`. For typing into a field, where the page's own
    /// handlers run while the key is dispatched.
    Brief,
}

pub(crate) async fn settle(
    page: &Page,
    events: &Events,
    mark: Mark,
    timeouts: &Timeouts,
    expect_navigation: bool,
    wait: Wait,
) -> Settled {
    let mut settled = Settled::default();
    let start = Instant::now();
    let mut loaded = false;
    let mut last_mutations: Option<(i64, Instant)> = None;
    // When a timer was last seen pending: its callback may start a request whose event
    // has not reached us yet, so timers too must be quiet for a while.
    let mut timers_seen = start;
    let mut end = start + timeouts.idle;
    // Whether the action has set the page to work (a request, a navigation, a timer).
    let mut worked = false;
    loop {
        // A navigation the action started (seen at any point while settling) is waited
        // for first; a page that never finishes loading is stopped, as a user would
        // press Esc, and the run goes on with what has rendered.
        let navigating = {
            let j = events.lock();
            if j.crashed {
                return settled;
            }
            let started = expect_navigation
                || j.loads_started > mark.loads_started
                || j.navigations.len() > mark.navigations;
            started
                && !(j.loads_finished >= j.loads_started && j.loads_started > mark.loads_started)
        };
        if navigating && !loaded {
            if !wait_for_load(events, mark, timeouts).await {
                if events.lock().crashed {
                    return settled;
                }
                settled.timed_out = Some(format!(
                    "page did not finish loading within {:?}",
                    timeouts.navigation
                ));
                stop_loading(page, timeouts).await;
            }
            loaded = true;
            last_mutations = None;
            end = Instant::now() + timeouts.idle;
            continue;
        }
        let Some((mutations, timers)) = probe(page, timeouts).await else {
            break; // the document is going away or the renderer is gone
        };
        if timers > 0 {
            worked = true;
        }
        if !worked {
            let j = events.lock();
            worked = navigating
                || loaded
                || j.navigations.len() > mark.navigations
                || j.network_changed.is_some_and(|t| t >= mark.at);
        }
        let brief = wait == Wait::Brief && !worked;
        let quiet = if brief { POLL } else { timeouts.quiet };
        // Requests older than the action (a stalled image, a long poll) do not hold
        // the page up.
        let (network_quiet, busy_url) = {
            let j = events.lock();
            let busy = j
                .inflight
                .values()
                .find(|(started, _, _)| *started >= mark.at)
                .map(|(_, url, method)| {
                    let url: String = url.chars().take(120).collect();
                    format!("{method} {url}")
                });
            let calm = j.network_changed.is_none_or(|t| t.elapsed() >= quiet);
            (busy.is_none() && calm, busy)
        };
        let dom_quiet = match last_mutations {
            Some((n, since)) if n == mutations => since.elapsed() >= quiet,
            _ => {
                last_mutations = Some((mutations, Instant::now()));
                false
            }
        };
        if timers > 0 {
            timers_seen = Instant::now();
        }
        let timers_done = timers_seen.elapsed() >= quiet || start.elapsed() >= TIMER_WAIT;
        // Give a navigation the action may start a moment to show up.
        let grace_over = brief || start.elapsed() >= timeouts.navigation_grace;
        if network_quiet && dom_quiet && timers_done && grace_over {
            break;
        }
        if Instant::now() >= end {
            let what = if !network_quiet {
                match &busy_url {
                    Some(r) => format!("network still busy ({r})"),
                    None => "network still busy".to_string(),
                }
            } else if !dom_quiet {
                "DOM still changing".to_string()
            } else {
                "timers still pending".to_string()
            };
            settled
                .timed_out
                .get_or_insert(format!("{what} after {:?}", timeouts.idle));
            settled.idle_cap = true;
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    settled
}

/// Waits for the main frame to stop loading; `false` on timeout or crash.
async fn wait_for_load(events: &Events, mark: Mark, timeouts: &Timeouts) -> bool {
    let end = Instant::now() + timeouts.navigation;
    loop {
        {
            let j = events.lock();
            if j.crashed {
                return false;
            }
            if j.loads_finished >= j.loads_started && j.loads_started > mark.loads_started {
                return true;
            }
        }
        if Instant::now() >= end {
            return false;
        }
        tokio::time::sleep(POLL).await;
    }
}

pub(crate) async fn stop_loading(page: &Page, timeouts: &Timeouts) {
    let _ = cdp::call(page, "Page.stopLoading", json!({}), timeouts.command).await;
}

/// Mutation count and pending short timers of the main document.
async fn probe(page: &Page, timeouts: &Timeouts) -> Option<(i64, i64)> {
    let deadline = timeouts.command.min(Duration::from_secs(2));
    let v = cdp::call(
        page,
        "Runtime.evaluate",
        json!({
            "expression": "window.__curioProbe ? [window.__curioProbe.mutations, window.__curioProbe.timers.size] : [0, 0]",
            "returnByValue": true,
        }),
        deadline,
    )
    .await
    .ok()?;
    let pair = v.pointer("/result/value")?.as_array()?;
    Some((pair.first()?.as_i64()?, pair.get(1)?.as_i64()?))
}
