//! One tab in a browser context of its own: navigate, snapshot, perform, screenshot.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::page::CaptureScreenshotFormat;
use chromiumoxide::page::ScreenshotParams;
use chromiumoxide::types::{Command, Method, MethodId};
use curio_page::{COMPUTED_STYLES, DomSnapshot, Target};
use curio_record::ObservationKind;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use crate::cdp;
use crate::coverage::CoverageMap;
use crate::error::BrowserError;
use crate::events::Events;
use crate::input::Input;
use crate::launch::{Browser, Timeouts};
use crate::outcome::Outcome;
use crate::scope::Scope;
use crate::settle::{Wait, page_probe, settle, stop_loading};

/// Something a user does to one element.
#[derive(Debug, Clone, PartialEq)]
pub enum UserAction {
    Click(Target),
    /// Replace the content with this text; the string is the input type
    /// (`text`, `email`, `date`, ...), which decides how it is typed.
    Fill(Target, String, String),
    /// Choose the option with this value (or text).
    Select(Target, String),
    Check(Target),
}

impl UserAction {
    pub fn target(&self) -> &Target {
        match self {
            UserAction::Click(t)
            | UserAction::Fill(t, _, _)
            | UserAction::Select(t, _)
            | UserAction::Check(t) => t,
        }
    }
}

/// A page as captured: its DOM snapshot plus where it was.
#[derive(Debug, Clone)]
pub struct Capture {
    pub url: String,
    pub title: String,
    pub snapshot: DomSnapshot,
}

/// `DOMSnapshot.captureSnapshot`, answered straight into the page crate's wire types.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CaptureSnapshot {
    computed_styles: Vec<&'static str>,
    include_paint_order: bool,
}

impl Method for CaptureSnapshot {
    fn identifier(&self) -> MethodId {
        "DOMSnapshot.captureSnapshot".into()
    }
}

impl Command for CaptureSnapshot {
    type Response = DomSnapshot;
}

/// Every entry of both web storages of the main frame, as `[area:key, value]` pairs.
const STORAGE: &str = r#"(() => {
  const out = [];
  for (const [area, name] of [['local', 'localStorage'], ['session', 'sessionStorage']]) {
    try {
      const s = window[name];
      for (let i = 0; i < s.length; i++) {
        const k = s.key(i);
        out.push([area + ':' + k, String(s.getItem(k))]);
      }
    } catch (e) {}
  }
  return out;
})()"#;

/// Most elements [`Tab::query_selector_all`] returns.
pub const MAX_MATCHES: usize = 200;

/// After this many settles in a row that ended at the idle cap, the page is taken to be
/// one that never rests (a poll, an animation, a clock) ...
pub const BUSY_STREAK: u32 = 2;
/// ... and settling waits this long at most, until a settle ends quiet again.
pub const BUSY_IDLE: Duration = Duration::from_millis(500);

/// A page of the tab with its event journal.
struct Window {
    page: Page,
    events: Events,
    event_task: JoinHandle<()>,
}

/// What a popup opened by an action became.
enum Popup {
    /// Nothing opened, or only what the tab closed.
    None,
    /// A page the tab can show in its own window without losing anything (a link with
    /// `noopener`): its URL.
    Follow(String),
    /// The tab now shows the popup, in its own window, its opener kept behind it.
    Adopted,
}

pub struct Tab {
    page: Page,
    browser: Arc<chromiumoxide::Browser>,
    context: Option<Value>,
    events: Events,
    event_task: JoinHandle<()>,
    /// Settles in a row that ended at the idle cap (a page that polls or animates
    /// forever); from [`BUSY_STREAK`] on, settling waits at most [`BUSY_IDLE`].
    busy_streak: u32,
    /// The pages behind the one shown, each the opener of the next (and the last the
    /// opener of `page`): a popup of the app is shown in its own window, as a user meets
    /// it, never loaded where its `window.opener` would be lost.
    openers: Vec<Window>,
    timeouts: Timeouts,
    scope: Scope,
    collect_coverage: bool,
    coverage: CoverageMap,
}

impl std::fmt::Debug for Tab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tab")
            .field("target", self.page.target_id())
            .finish()
    }
}

impl Drop for Tab {
    fn drop(&mut self) {
        self.event_task.abort();
        for w in &self.openers {
            w.event_task.abort();
        }
    }
}

impl Tab {
    pub(crate) async fn open(browser: &Browser) -> Result<Tab, BrowserError> {
        let deadline = browser.config.timeouts.command;
        let context = browser_call(
            &browser.inner,
            "Target.createBrowserContext",
            json!({"disposeOnDetach": true}),
            deadline,
        )
        .await
        .ok()
        .and_then(|v| v.get("browserContextId").cloned());
        let (page, events, event_task) = open_page(
            browser.inner.as_ref(),
            context.as_ref(),
            &browser.config.scope,
            &browser.config.timeouts,
            browser.config.coverage,
        )
        .await?;
        Ok(Tab {
            page,
            browser: browser.inner.clone(),
            context,
            events,
            event_task,
            openers: Vec::new(),
            busy_streak: 0,
            timeouts: browser.config.timeouts,
            scope: browser.config.scope.clone(),
            collect_coverage: browser.config.coverage,
            coverage: CoverageMap::default(),
        })
    }

    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    pub fn timeouts(&self) -> &Timeouts {
        &self.timeouts
    }

    /// The main frame's URL as last seen.
    pub fn url(&self) -> String {
        self.events.lock().url.clone()
    }

    /// Navigates the tab and waits for the page to settle. A URL that cannot be loaded
    /// (refused, unknown host) is not an error: it is in `Outcome::navigation_error`.
    pub async fn goto(&mut self, url: &str) -> Result<Outcome, BrowserError> {
        // Chromium never answers a navigation to an unparsable URL; refuse it here.
        if let Err(e) = url::Url::parse(url) {
            return Err(BrowserError::Call {
                method: "Page.navigate".into(),
                reason: format!("invalid URL '{url}': {e}"),
            });
        }
        // A page typed into the address bar is loaded in the tab's first window: the
        // popups shown over it are closed, as a user closes them to go on.
        self.close_popups().await;
        let started = Instant::now();
        let mark = self.events.mark();
        let url_before = self.url();
        let answer = cdp::call(
            &self.page,
            "Page.navigate",
            json!({"url": url}),
            self.timeouts.navigation,
        )
        .await;
        let mut navigation_error = None;
        match answer {
            Ok(v) => {
                if let Some(e) = v.get("errorText").and_then(Value::as_str) {
                    navigation_error = Some(e.to_string());
                }
                if let Some(f) = v.get("frameId").and_then(Value::as_str) {
                    self.events.set_main_frame(f.to_string());
                }
            }
            Err(BrowserError::Timeout { .. }) => {
                stop_loading(&self.page, &self.timeouts).await;
                navigation_error = Some(format!(
                    "navigation to {url} did not commit within {:?}",
                    self.timeouts.navigation
                ));
            }
            Err(e) => return Err(e),
        }
        let expect = navigation_error.is_none();
        let mut outcome = self
            .finish(mark, url_before, started, false, expect, Wait::Full)
            .await?;
        outcome.navigation_error = navigation_error;
        Ok(outcome)
    }

    /// Performs one user action and waits for the page to settle.
    pub async fn perform(&mut self, action: &UserAction) -> Result<Outcome, BrowserError> {
        self.perform_waiting(action, Wait::Full).await
    }

    /// Performs an action that edits a field (typing, choosing, ticking) and waits for
    /// the page only while it reacts: a page that runs no request, timer or navigation
    /// for it and whose DOM holds still is not given a quiet period. Filling a form of
    /// ten fields this way costs a tenth of what ten `perform`s do.
    pub async fn perform_edit(&mut self, action: &UserAction) -> Result<Outcome, BrowserError> {
        self.perform_waiting(action, Wait::Brief).await
    }

    async fn perform_waiting(
        &mut self,
        action: &UserAction,
        wait: Wait,
    ) -> Result<Outcome, BrowserError> {
        let started = Instant::now();
        let mark = self.events.mark();
        let url_before = self.url();
        let target = action.target();
        let input = Input {
            page: &self.page,
            deadline: self.timeouts.command,
            events: &self.events,
            mark,
        };
        let object = input
            .resolve(target.backend_node_id, &target.selector, target.frame)
            .await
            .ok_or_else(|| BrowserError::Stale {
                locator: target.locator.clone(),
                selector: target.selector.clone(),
            })?;
        let js_fallback = match action {
            UserAction::Click(_) | UserAction::Check(_) => input.click(&object).await,
            UserAction::Fill(_, value, input_type) => input.fill(&object, value, input_type).await,
            UserAction::Select(_, value) => input.select(&object, value).await.map(|_| false),
        };
        let js_fallback = match js_fallback {
            Ok(f) => f,
            // The action itself may have crashed the page or navigated it mid-call.
            Err(e) if self.events.lock().crashed => {
                let _ = e;
                false
            }
            // Or closed it: a popup that closes itself when a choice is made.
            Err(e) => {
                if self.openers.is_empty() || self.shows_live_page().await {
                    return Err(e);
                }
                false
            }
        };
        self.finish(mark, url_before, started, js_fallback, false, wait)
            .await
    }

    async fn finish(
        &mut self,
        mark: crate::events::Mark,
        url_before: String,
        started: Instant,
        js_click_fallback: bool,
        expect_navigation: bool,
        wait: Wait,
    ) -> Result<Outcome, BrowserError> {
        // A popup that closed itself (a picker that wrote its choice into the opener's
        // form) gives the window back to its opener.
        let mut closed_popup = !self.openers.is_empty() && !self.shows_live_page().await;
        let mut timeouts = self.timeouts;
        if self.busy_streak >= BUSY_STREAK {
            timeouts.idle = timeouts.idle.min(BUSY_IDLE);
        }
        let settled: crate::settle::Settled = if closed_popup {
            Default::default()
        } else {
            settle(
                &self.page,
                &self.events,
                mark,
                &timeouts,
                expect_navigation,
                wait,
            )
            .await
        };
        if settled.idle_cap {
            self.busy_streak += 1;
        } else {
            self.busy_streak = 0;
        }
        closed_popup = closed_popup || (!self.openers.is_empty() && !self.shows_live_page().await);
        // The journal of the page acted on: a popup adopted or closed below changes the
        // page shown.
        let acting = self.events.clone();
        let crashed = acting.lock().crashed;
        if !crashed && !closed_popup && self.collect_coverage {
            self.take_coverage().await;
        }
        let popup = if closed_popup {
            Popup::None
        } else {
            self.handle_popups(mark).await
        };
        let mut outcome = {
            let j = acting.lock();
            Outcome {
                url_before,
                url_after: j.url.clone(),
                navigations: j.navigations[mark.navigations..].to_vec(),
                responses: j.responses[mark.responses..].to_vec(),
                observations: j.observations[mark.observations..].to_vec(),
                js_click_fallback,
                settle_timed_out: settled.timed_out.is_some(),
                settle_detail: settled.timed_out,
                navigation_error: None,
                crashed,
                in_popup: false,
                duration: Duration::ZERO,
            }
        };
        match popup {
            Popup::Follow(url) => {
                let more = Box::pin(self.goto(&url)).await?;
                outcome.absorb(more);
            }
            Popup::Adopted => {
                let more = self.settle_shown().await;
                outcome.absorb(more);
            }
            Popup::None => {}
        }
        if closed_popup {
            self.back_to_opener().await;
            let more = self.settle_shown().await;
            outcome.absorb(more);
        }
        outcome.in_popup = !self.openers.is_empty();
        if outcome.crashed {
            self.recover().await?;
        }
        outcome.duration = started.elapsed();
        Ok(outcome)
    }

    /// Windows the page shown opened during the action: an in-scope popup that can
    /// reach its opener is adopted (the tab shows it, its opener kept behind it); one
    /// that cannot (`noopener`) is closed and its URL followed in the tab, when the
    /// action did nothing else; every other is closed.
    async fn handle_popups(&mut self, mark: crate::events::Mark) -> Popup {
        let (opened, navigated) = {
            let j = self.events.lock();
            let opened: Vec<(String, bool)> = j.observations[mark.observations..]
                .iter()
                .filter(|o| o.kind == ObservationKind::Popup)
                .map(|o| (o.url.clone(), o.in_scope))
                .collect();
            (opened, j.navigations.len() > mark.navigations)
        };
        if opened.is_empty() {
            return Popup::None;
        }
        let app_page = opened
            .iter()
            .any(|(url, in_scope)| *in_scope && url.starts_with("http"));
        // Give the new target a moment to register before listing targets.
        let me = self.page.target_id().inner().clone();
        let mut mine: Vec<(String, bool)> = Vec::new();
        let end = Instant::now() + Duration::from_secs(1);
        while mine.is_empty() && Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(50)).await;
            mine = self.targets_opened_by(&me).await;
        }
        let adopt = (app_page && !navigated)
            .then(|| mine.iter().find(|(_, access)| *access))
            .flatten()
            .map(|(id, _)| id.clone());
        for (id, _) in &mine {
            if Some(id) != adopt.as_ref() {
                close_target(&self.browser, id, &self.timeouts).await;
            }
        }
        if let Some(id) = adopt {
            if self.adopt(&id).await.is_ok() {
                return Popup::Adopted;
            }
            close_target(&self.browser, &id, &self.timeouts).await;
        }
        if navigated {
            return Popup::None;
        }
        opened
            .into_iter()
            .find(|(url, in_scope)| *in_scope && url.starts_with("http"))
            .map_or(Popup::None, |(url, _)| Popup::Follow(url))
    }

    /// The page targets `opener` opened, with whether each can reach its opener.
    async fn targets_opened_by(&self, opener: &str) -> Vec<(String, bool)> {
        let Ok(v) = browser_call(
            &self.browser,
            "Target.getTargets",
            json!({}),
            self.timeouts.command,
        )
        .await
        else {
            return Vec::new();
        };
        v.get("targetInfos")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|t| t.get("openerId").and_then(Value::as_str) == Some(opener))
            .filter_map(|t| {
                let id = t.get("targetId")?.as_str()?.to_string();
                let access = t
                    .get("canAccessOpener")
                    .and_then(Value::as_bool)
                    .unwrap_or(true);
                Some((id, access))
            })
            .collect()
    }

    /// Whether the page shown is still open (a popup may have closed itself).
    async fn shows_live_page(&self) -> bool {
        let me = self.page.target_id().inner().clone();
        match browser_call(
            &self.browser,
            "Target.getTargets",
            json!({}),
            self.timeouts.command,
        )
        .await
        {
            Ok(v) => v
                .get("targetInfos")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .any(|t| t.get("targetId").and_then(Value::as_str) == Some(me.as_str())),
            Err(_) => true,
        }
    }

    /// Shows the popup `target` in the tab, its opener kept behind it.
    async fn adopt(&mut self, target: &str) -> Result<(), BrowserError> {
        let id = chromiumoxide::cdp::browser_protocol::target::TargetId::from(target.to_string());
        let end = Instant::now() + self.timeouts.command;
        let page = loop {
            match self.browser.get_page(id.clone()).await {
                Ok(page) => break page,
                Err(e) if Instant::now() >= end => {
                    return Err(BrowserError::Tab {
                        reason: format!("the popup {target} could not be attached: {e}"),
                    });
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        };
        let (events, task) = Events::start(&page, self.scope.clone(), self.timeouts.command)
            .await
            .map_err(|e| BrowserError::Tab {
                reason: e.to_string(),
            })?;
        let d = self.timeouts.command;
        let probe = page_probe();
        cdp::call(
            &page,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": probe}),
            d,
        )
        .await?;
        let _ = cdp::call(&page, "Runtime.evaluate", json!({"expression": probe}), d).await;
        let _ = cdp::call(
            &page,
            "Page.setInterceptFileChooserDialog",
            json!({"enabled": true}),
            d,
        )
        .await;
        let tree = cdp::call(&page, "Page.getFrameTree", json!({}), d).await?;
        if let (Some(frame), Some(url)) = (
            tree.pointer("/frameTree/frame/id").and_then(Value::as_str),
            tree.pointer("/frameTree/frame/url").and_then(Value::as_str),
        ) {
            events.set_location(frame.to_string(), url.to_string());
        }
        let opener = Window {
            page: std::mem::replace(&mut self.page, page),
            events: std::mem::replace(&mut self.events, events),
            event_task: std::mem::replace(&mut self.event_task, task),
        };
        self.openers.push(opener);
        Ok(())
    }

    /// Shows the opener of the popup shown (which is gone or closed now).
    async fn back_to_opener(&mut self) {
        let Some(opener) = self.openers.pop() else {
            return;
        };
        close_target(&self.browser, self.page.target_id().inner(), &self.timeouts).await;
        self.event_task.abort();
        self.page = opener.page;
        self.events = opener.events;
        self.event_task = opener.event_task;
    }

    /// Closes the popups shown over the tab's first window and shows it again.
    async fn close_popups(&mut self) {
        while !self.openers.is_empty() {
            self.back_to_opener().await;
        }
    }

    /// Whether the page shown is a popup (its opener behind it): its URL is no page to
    /// load on its own.
    pub fn in_popup(&self) -> bool {
        !self.openers.is_empty()
    }

    /// Lets the page now shown settle, and what it did meanwhile.
    async fn settle_shown(&mut self) -> Outcome {
        let mark = self.events.mark();
        let url_before = self.url();
        let settled = settle(
            &self.page,
            &self.events,
            mark,
            &self.timeouts,
            false,
            Wait::Full,
        )
        .await;
        let j = self.events.lock();
        Outcome {
            url_before,
            url_after: j.url.clone(),
            navigations: j.navigations[mark.navigations..].to_vec(),
            responses: j.responses[mark.responses..].to_vec(),
            observations: j.observations[mark.observations..].to_vec(),
            js_click_fallback: false,
            settle_timed_out: settled.timed_out.is_some(),
            settle_detail: settled.timed_out,
            navigation_error: None,
            crashed: j.crashed,
            in_popup: false,
            duration: Duration::ZERO,
        }
    }

    /// Replaces a crashed page with a fresh one in the same context.
    async fn recover(&mut self) -> Result<(), BrowserError> {
        close_target(&self.browser, self.page.target_id().inner(), &self.timeouts).await;
        let (page, events, task) = open_page(
            &self.browser,
            self.context.as_ref(),
            &self.scope,
            &self.timeouts,
            self.collect_coverage,
        )
        .await?;
        self.event_task.abort();
        self.page = page;
        self.events = events;
        self.event_task = task;
        Ok(())
    }

    /// One `DOMSnapshot.captureSnapshot` with layout boxes, paint order, clickability,
    /// the computed styles the page model needs, input values and checked state. The
    /// extra DOM rects (offset, client, scroll) are not asked for: the model uses the
    /// layout bounds, and on a page of 5,000 elements the rects cost Chromium about as
    /// much again as the rest of the snapshot.
    pub async fn snapshot(&self) -> Result<Capture, BrowserError> {
        let snapshot = cdp::execute(
            &self.page,
            CaptureSnapshot {
                computed_styles: COMPUTED_STYLES.to_vec(),
                include_paint_order: true,
            },
            self.timeouts.command,
        )
        .await?;
        let text = |i: i64| {
            usize::try_from(i)
                .ok()
                .and_then(|i| snapshot.strings.get(i))
                .cloned()
                .unwrap_or_default()
        };
        let (url, title) = snapshot
            .documents
            .first()
            .map(|d| (text(d.document_url), text(d.title)))
            .unwrap_or_default();
        Ok(Capture {
            url,
            title,
            snapshot,
        })
    }

    /// A PNG of the viewport.
    pub async fn screenshot(&self) -> Result<Vec<u8>, BrowserError> {
        let params = ScreenshotParams::builder()
            .format(CaptureScreenshotFormat::Png)
            .build();
        match tokio::time::timeout(self.timeouts.command, self.page.screenshot(params)).await {
            Err(_) => Err(BrowserError::Timeout {
                method: "Page.captureScreenshot".into(),
                after: self.timeouts.command,
            }),
            Ok(Err(e)) => Err(BrowserError::Call {
                method: "Page.captureScreenshot".into(),
                reason: e.to_string(),
            }),
            Ok(Ok(png)) => Ok(png),
        }
    }

    /// What the main frame's origin keeps in `localStorage` and `sessionStorage`, as
    /// (`local:key` or `session:key`, value) pairs sorted by key; empty where storage is
    /// unavailable (opaque origins, `about:blank`).
    pub async fn storage(&self) -> Result<Vec<(String, String)>, BrowserError> {
        let v = self.evaluate(STORAGE).await?;
        let mut pairs: Vec<(String, String)> = v
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| {
                let key = p.get(0)?.as_str()?;
                let value = p.get(1)?.as_str()?;
                Some((key.to_string(), value.to_string()))
            })
            .collect();
        pairs.sort();
        Ok(pairs)
    }

    /// Sets cookies in the tab's browser context, as a saved session has them: each a
    /// CDP `Network.CookieParam` (`name`, `value`, `domain` or `url`, `path`, `expires`,
    /// `httpOnly`, `secure`, `sameSite`).
    pub async fn set_cookies(&self, cookies: &[Value]) -> Result<(), BrowserError> {
        cdp::call(
            &self.page,
            "Network.setCookies",
            json!({ "cookies": cookies }),
            self.timeouts.command,
        )
        .await?;
        Ok(())
    }

    /// Evaluates a JavaScript expression in the main frame and returns its value.
    pub async fn evaluate(&self, expression: &str) -> Result<Value, BrowserError> {
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        let result = self.evaluate_remote(params).await?;
        Ok(result.get("value").cloned().unwrap_or(Value::Null))
    }

    /// `Runtime.evaluate` with `params`: its `result` (a remote object), or the
    /// exception the expression threw as an error.
    async fn evaluate_remote(&self, params: Value) -> Result<Value, BrowserError> {
        let v = cdp::call(
            &self.page,
            "Runtime.evaluate",
            params,
            self.timeouts.command,
        )
        .await?;
        if let Some(d) = v.get("exceptionDetails") {
            return Err(BrowserError::Answer {
                method: "Runtime.evaluate".into(),
                reason: d.to_string(),
            });
        }
        Ok(v.get("result").cloned().unwrap_or(Value::Null))
    }

    /// The elements that CSS `selector` matches in the page shown now, as Chromium's own
    /// `querySelectorAll` finds them (any selector it takes: classes, attribute
    /// operators, `:is()`, `:has()`, ...), in document order, in the main document and
    /// the documents of its same-origin frames: their `backendNodeId`s, at most
    /// [`MAX_MATCHES`]. `Ok(Err(reason))` when Chromium refuses the selector.
    pub async fn query_selector_all(
        &self,
        selector: &str,
    ) -> Result<Result<Vec<i64>, String>, BrowserError> {
        let quoted = serde_json::to_string(selector).unwrap_or_default();
        let expression = format!(
            r#"(() => {{
  const sel = {quoted};
  const out = [];
  const docs = [document];
  try {{ document.createDocumentFragment().querySelector(sel); }} catch (e) {{ return String(e.message); }}
  for (let i = 0; i < docs.length && out.length < {MAX_MATCHES}; i++) {{
    for (const el of docs[i].querySelectorAll(sel)) {{
      if (out.length >= {MAX_MATCHES}) break;
      out.push(el);
    }}
    for (const f of docs[i].querySelectorAll('iframe, frame')) {{
      try {{ if (f.contentDocument) docs.push(f.contentDocument); }} catch (e) {{}}
    }}
  }}
  return out;
}})()"#
        );
        let result = self
            .evaluate_remote(json!({"expression": expression}))
            .await?;
        if let Some(reason) = result.get("value").and_then(Value::as_str) {
            return Ok(Err(reason.to_string()));
        }
        let Some(array) = result.get("objectId").and_then(Value::as_str) else {
            return Ok(Ok(Vec::new()));
        };
        let props = cdp::call(
            &self.page,
            "Runtime.getProperties",
            json!({"objectId": array, "ownProperties": true}),
            self.timeouts.command,
        )
        .await?;
        let mut elements: Vec<(usize, String)> = props
            .get("result")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| {
                let index = p.get("name")?.as_str()?.parse::<usize>().ok()?;
                let id = p.pointer("/value/objectId")?.as_str()?.to_string();
                Some((index, id))
            })
            .collect();
        elements.sort();
        let mut ids = Vec::with_capacity(elements.len());
        for (_, object) in elements {
            let node = cdp::call(
                &self.page,
                "DOM.describeNode",
                json!({"objectId": object}),
                self.timeouts.command,
            )
            .await?;
            if let Some(id) = node.pointer("/node/backendNodeId").and_then(Value::as_i64) {
                ids.push(id);
            }
        }
        let _ = cdp::call(
            &self.page,
            "Runtime.releaseObject",
            json!({"objectId": array}),
            self.timeouts.command,
        )
        .await;
        Ok(Ok(ids))
    }

    /// Crashes the renderer on purpose (`Page.crash`), as tests of crash handling need,
    /// and returns the outcome: the crash recorded and a fresh page in its place.
    pub async fn crash(&mut self) -> Result<Outcome, BrowserError> {
        let started = Instant::now();
        let mark = self.events.mark();
        let url_before = self.url();
        let _ = cdp::call(&self.page, "Page.crash", json!({}), Duration::from_secs(2)).await;
        let end = Instant::now() + self.timeouts.command;
        while !self.events.lock().crashed && Instant::now() < end {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.finish(mark, url_before, started, false, false, Wait::Full)
            .await
    }

    async fn take_coverage(&mut self) {
        if let Ok(v) = cdp::call(
            &self.page,
            "Profiler.takePreciseCoverage",
            json!({}),
            self.timeouts.command,
        )
        .await
        {
            self.coverage.absorb(&v);
        }
    }

    /// How many observations the page has made so far: a mark for
    /// [`Tab::observations_since`].
    pub fn observation_mark(&self) -> usize {
        self.events.lock().observations.len()
    }

    /// The observations made since `mark`, waiting up to `limit` until one that `wanted`
    /// accepts comes in: what a slow server answers after the action's settle gave up.
    pub async fn observations_since(
        &self,
        mark: usize,
        limit: Duration,
        wanted: impl Fn(&curio_record::Observation) -> bool,
    ) -> Vec<curio_record::Observation> {
        let deadline = Instant::now() + limit;
        loop {
            let seen = self
                .events
                .lock()
                .observations
                .get(mark..)
                .map(<[_]>::to_vec)
                .unwrap_or_default();
            if seen.iter().any(&wanted) || Instant::now() >= deadline {
                return seen;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// JavaScript coverage accumulated by this tab (empty unless enabled).
    pub fn coverage(&self) -> &CoverageMap {
        &self.coverage
    }

    /// Forgets what pages stored in this tab, so that the next page loaded starts as in
    /// a fresh browser context: the session and local storage of the page shown now,
    /// the cookies of the tab's context, and the local storage, IndexedDB, cache storage
    /// and service workers of every origin the tab has had answers from. A new context
    /// costs Chromium a quarter of a second; this, a few round trips.
    pub async fn forget(&mut self) -> Result<(), BrowserError> {
        let _ = self
            .evaluate(
                "(() => { try { sessionStorage.clear(); localStorage.clear(); } catch (e) {} })()",
            )
            .await;
        match &self.context {
            Some(ctx) => {
                browser_call(
                    &self.browser,
                    "Storage.clearCookies",
                    json!({"browserContextId": ctx}),
                    self.timeouts.command,
                )
                .await?;
            }
            None => {
                cdp::call(
                    &self.page,
                    "Network.clearBrowserCookies",
                    json!({}),
                    self.timeouts.command,
                )
                .await?;
            }
        }
        let origins: std::collections::BTreeSet<String> = self
            .events
            .lock()
            .responses
            .iter()
            .filter_map(|r| url::Url::parse(&r.url).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .map(|u| u.origin().ascii_serialization())
            .collect();
        for origin in origins {
            cdp::call(
                &self.page,
                "Storage.clearDataForOrigin",
                json!({
                    "origin": origin,
                    "storageTypes": "local_storage,indexeddb,websql,cache_storage,service_workers,shared_storage,storage_buckets",
                }),
                self.timeouts.command,
            )
            .await?;
        }
        Ok(())
    }

    /// Closes the tab and disposes of its browser context.
    pub async fn close(self) {
        close_target(&self.browser, self.page.target_id().inner(), &self.timeouts).await;
        if let Some(ctx) = &self.context {
            let _ = browser_call(
                &self.browser,
                "Target.disposeBrowserContext",
                json!({"browserContextId": ctx}),
                self.timeouts.command,
            )
            .await;
        }
    }
}

async fn open_page(
    browser: &chromiumoxide::Browser,
    context: Option<&Value>,
    scope: &Scope,
    timeouts: &Timeouts,
    coverage: bool,
) -> Result<(Page, Events, JoinHandle<()>), BrowserError> {
    let mut params =
        chromiumoxide::cdp::browser_protocol::target::CreateTargetParams::new("about:blank");
    if let Some(ctx) = context.and_then(Value::as_str) {
        params.browser_context_id = Some(ctx.to_string().into());
    }
    let page = match tokio::time::timeout(timeouts.command, browser.new_page(params)).await {
        Err(_) => {
            return Err(BrowserError::Tab {
                reason: format!("no new page within {:?}", timeouts.command),
            });
        }
        Ok(Err(e)) => {
            return Err(BrowserError::Tab {
                reason: e.to_string(),
            });
        }
        Ok(Ok(p)) => p,
    };
    let (events, task) = Events::start(&page, scope.clone(), timeouts.command)
        .await
        .map_err(|e| BrowserError::Tab {
            reason: e.to_string(),
        })?;
    let d = timeouts.command;
    cdp::call(
        &page,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": page_probe()}),
        d,
    )
    .await?;
    // A file input's chooser is answered with a sample file, never a native dialog.
    cdp::call(
        &page,
        "Page.setInterceptFileChooserDialog",
        json!({"enabled": true}),
        d,
    )
    .await?;
    if coverage {
        cdp::call(&page, "Profiler.enable", json!({}), d).await?;
        cdp::call(
            &page,
            "Profiler.startPreciseCoverage",
            json!({"callCount": false, "detailed": true}),
            d,
        )
        .await?;
    }
    Ok((page, events, task))
}

/// Closes a tab or window. A target that is already gone is what closing wants, so
/// failures are ignored.
async fn close_target(browser: &chromiumoxide::Browser, target: &str, timeouts: &Timeouts) {
    let params = json!({"targetId": target});
    let _ = browser_call(browser, "Target.closeTarget", params, timeouts.command).await;
}

/// A browser-level CDP call (targets, contexts) with a deadline.
async fn browser_call(
    browser: &chromiumoxide::Browser,
    method: &'static str,
    params: Value,
    deadline: Duration,
) -> Result<Value, BrowserError> {
    let cmd = cdp::Raw::new(method, params);
    match tokio::time::timeout(deadline, browser.execute(cmd)).await {
        Err(_) => Err(BrowserError::Timeout {
            method: method.into(),
            after: deadline,
        }),
        Ok(Err(e)) => Err(BrowserError::Call {
            method: method.into(),
            reason: e.to_string(),
        }),
        Ok(Ok(r)) => Ok(r.result),
    }
}
