//! Every outcome kind, captured from real headless Chromium driving the testbed app,
//! and the pages that try to hang the browser ending within their timeouts.

use std::time::{Duration, Instant};

use curio_browser::{
    Browser, BrowserConfig, LaunchError, Outcome, Scope, Tab, Timeouts, UserAction,
};
use curio_page::{Rect, Target};
use curio_record::{Observation, ObservationKind};
use curio_subjects::{RunningSubject, Subject};

fn target(selector: &str) -> Target {
    Target {
        backend_node_id: 0,
        frame: 0,
        selector: selector.into(),
        locator: selector.into(),
        rect: Rect::default(),
    }
}

fn short_timeouts() -> Timeouts {
    Timeouts {
        command: Duration::from_secs(5),
        navigation: Duration::from_secs(3),
        idle: Duration::from_millis(2000),
        ..Timeouts::default()
    }
}

struct Env {
    subject: RunningSubject,
    browser: Browser,
    tab: Tab,
}

async fn env_with(coverage: bool) -> Env {
    let subject = curio_subjects::serve(Subject::Testbed)
        .await
        .expect("serve testbed");
    let start = url::Url::parse(&subject.base_url()).unwrap();
    let config = BrowserConfig::builder()
        .timeouts(short_timeouts())
        .scope(Scope::new(&start, &[]))
        .coverage(coverage)
        .build();
    let browser = Browser::start(config).await.expect("launch chromium");
    let tab = browser.new_tab().await.expect("open tab");
    Env {
        subject,
        browser,
        tab,
    }
}

async fn env() -> Env {
    env_with(false).await
}

impl Env {
    async fn goto(&mut self, path: &str) -> Outcome {
        let url = self.subject.url(path);
        self.tab.goto(&url).await.expect("goto")
    }
    async fn click(&mut self, selector: &str) -> Outcome {
        self.tab
            .perform(&UserAction::Click(target(selector)))
            .await
            .expect("click")
    }
    async fn text(&self, selector: &str) -> String {
        let js = format!("document.querySelector('{selector}').textContent");
        self.tab
            .evaluate(&js)
            .await
            .unwrap()
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
    async fn close(self) {
        self.tab.close().await;
        self.browser.close().await;
        self.subject.shutdown().await;
    }
}

fn only(outcome: &Outcome, kind: ObservationKind) -> Vec<&Observation> {
    outcome
        .observations
        .iter()
        .filter(|o| o.kind == kind)
        .collect()
}

#[tokio::test]
async fn uncaught_exception_with_source() {
    let mut e = env().await;
    let first = e.goto("/t/exception").await;
    assert!(
        first.observations.iter().all(|o| !o.kind.is_failure()),
        "{first:?}"
    );
    let out = e.click("#boom").await;
    let ex = only(&out, ObservationKind::UncaughtException);
    assert_eq!(ex.len(), 1, "{out:?}");
    assert!(ex[0].message.contains("testbed boom"), "{}", ex[0].message);
    let src = ex[0].source.as_ref().expect("source location");
    assert!(src.url.ends_with("/t/exception"), "{src:?}");
    assert!(src.line > 0);
    assert!(ex[0].in_scope);
    assert!(!out.js_click_fallback);
    e.close().await;
}

#[tokio::test]
async fn console_error_and_unhandled_rejection() {
    let mut e = env().await;
    e.goto("/t/console").await;
    let out = e.click("#log").await;
    let c = only(&out, ObservationKind::ConsoleError);
    assert_eq!(c.len(), 1, "{out:?}");
    assert_eq!(c[0].message, "testbed console error");
    e.goto("/t/rejection").await;
    let out = e.click("#reject").await;
    let r = only(&out, ObservationKind::UnhandledRejection);
    assert_eq!(r.len(), 1, "{out:?}");
    assert!(
        r[0].message.contains("testbed rejection"),
        "{}",
        r[0].message
    );
    assert!(only(&out, ObservationKind::UncaughtException).is_empty());
    e.close().await;
}

#[tokio::test]
async fn http_client_and_server_errors() {
    let mut e = env().await;
    let out = e.goto("/t/status/404").await;
    let c = only(&out, ObservationKind::HttpClientError);
    assert_eq!(c.len(), 1, "{out:?}");
    assert_eq!(c[0].status, Some(404));
    assert_eq!(c[0].method.as_deref(), Some("GET"));
    let out = e.goto("/t/status/500").await;
    assert_eq!(
        only(&out, ObservationKind::HttpServerError)[0].status,
        Some(500)
    );
    e.goto("/t/fetch-status/503").await;
    let out = e.click("#fetch").await;
    let s = only(&out, ObservationKind::HttpServerError);
    assert_eq!(s.len(), 1, "{out:?}");
    assert!(s[0].url.ends_with("/t/status/503"));
    let fetch = out
        .responses
        .iter()
        .find(|r| r.status == 503)
        .expect("response");
    assert_eq!(fetch.resource_type, "Fetch");
    e.close().await;
}

#[tokio::test]
async fn dialogs_are_answered_and_recorded() {
    let mut e = env().await;
    for (page, kind, result) in [
        ("/t/alert", "alert", None),
        ("/t/confirm", "confirm", Some("true")),
        ("/t/prompt", "prompt", Some("curio")),
    ] {
        e.goto(page).await;
        let out = e.click("#open").await;
        let d = only(&out, ObservationKind::Dialog);
        assert_eq!(d.len(), 1, "{page}: {out:?}");
        assert!(
            d[0].message.starts_with(&format!("{kind}:")),
            "{}",
            d[0].message
        );
        if let Some(r) = result {
            assert_eq!(e.text("#result").await, r, "{page}");
        }
    }
    e.goto("/t/beforeunload").await;
    e.click("#arm").await;
    let out = e.click("#leave").await;
    let d = only(&out, ObservationKind::Dialog);
    assert_eq!(d.len(), 1, "{out:?}");
    assert!(
        d[0].message.starts_with("beforeunload:"),
        "{}",
        d[0].message
    );
    assert!(out.url_after.ends_with("/t/ok"), "{}", out.url_after);
    e.close().await;
}

/// A window the page opens with `window.open` is shown in its own window, its opener
/// behind it (its script may need `window.opener`); loading a page closes it. A
/// `target=_blank` link opens without an opener (`noopener`), so it is followed in the
/// tab itself.
#[tokio::test]
async fn popups_are_recorded_and_shown_with_their_opener() {
    let mut e = env().await;
    e.goto("/t/popup").await;
    let out = e.click("#popup").await;
    let p = only(&out, ObservationKind::Popup);
    assert_eq!(p.len(), 1, "{out:?}");
    assert!(p[0].url.ends_with("/t/ok"));
    assert!(out.url_after.ends_with("/t/ok"), "shown: {}", out.url_after);
    assert!(out.in_popup && e.tab.in_popup(), "{out:?}");
    let opener = e
        .tab
        .evaluate("window.opener !== null")
        .await
        .expect("evaluate");
    assert_eq!(opener, serde_json::json!(true), "the opener is kept");
    e.goto("/t/popup").await;
    assert!(!e.tab.in_popup(), "loading a page closes the popup");
    let out = e.click("#blank").await;
    assert_eq!(only(&out, ObservationKind::Popup).len(), 1, "{out:?}");
    assert!(
        out.url_after.ends_with("/t/ok"),
        "followed: {}",
        out.url_after
    );
    assert!(!out.in_popup, "{out:?}");
    e.close().await;
}

/// A page that never rests (a clock redrawn every 50 ms) ends its settles at the idle
/// cap; after two in a row, the tab waits for it at most `BUSY_IDLE`.
#[tokio::test]
async fn a_page_that_never_rests_is_waited_for_less() {
    let mut e = env().await;
    let loaded = e.goto("/t/ticker").await;
    assert!(loaded.settle_timed_out, "{loaded:?}");
    let second = e.click("#tick").await;
    let detail = second.settle_detail.clone().unwrap_or_default();
    assert!(detail.ends_with("after 2s"), "{detail}");
    let third = e.click("#tick").await;
    let detail = third.settle_detail.clone().unwrap_or_default();
    assert!(
        detail.ends_with(&format!("after {:?}", curio_browser::BUSY_IDLE)),
        "{detail}"
    );
    e.close().await;
}

#[tokio::test]
async fn renderer_crash_is_recorded_and_recovered() {
    let mut e = env().await;
    e.goto("/t/crash").await;
    let out = e.tab.crash().await.expect("crash");
    assert!(out.crashed);
    assert_eq!(
        only(&out, ObservationKind::RendererCrash).len(),
        1,
        "{out:?}"
    );
    // The tab works again.
    let out = e.goto("/t/exception").await;
    assert!(out.navigation_error.is_none());
    let out = e.click("#boom").await;
    assert_eq!(only(&out, ObservationKind::UncaughtException).len(), 1);
    e.close().await;
}

#[tokio::test]
async fn pages_that_never_finish_loading_end_within_timeouts() {
    let mut e = env().await;
    for page in ["/t/hang", "/t/never"] {
        let started = Instant::now();
        let out = e.goto(page).await;
        let took = started.elapsed();
        // Either the document committed and its load was stopped, or it never committed.
        assert!(
            out.settle_timed_out || out.navigation_error.is_some(),
            "{page}: {out:?}"
        );
        assert!(took < Duration::from_secs(8), "{page} took {took:?}");
    }
    // The stalled image of /t/hang does not hold later actions up.
    e.goto("/t/hang").await;
    let started = Instant::now();
    let out = e.click("#go").await;
    assert!(started.elapsed() < Duration::from_secs(3), "{out:?}");
    e.close().await;
}

#[tokio::test]
async fn infinite_redirect_ends_in_navigation_error() {
    let mut e = env().await;
    let started = Instant::now();
    let out = e.goto("/t/redirect-loop").await;
    assert!(started.elapsed() < Duration::from_secs(8));
    let err = out.navigation_error.clone().expect("navigation error");
    // Chromium gives up after 20 redirects; on a loaded machine those can take longer
    // than the test's 3 s navigation timeout, which then ends it instead. Either way the
    // loop ends in a recorded navigation error, in time.
    assert!(
        err.contains("TOO_MANY_REDIRECTS") || err.contains("did not commit within"),
        "{err}"
    );
    assert!(out.responses.iter().any(|r| r.status == 302), "{out:?}");
    e.close().await;
}

#[tokio::test]
async fn moving_and_covered_elements_fall_back_to_script_click() {
    let mut e = env().await;
    e.goto("/t/moving").await;
    let started = Instant::now();
    // The button jumps away on hover. Whether the press still lands on it (hover
    // handlers may run after the press) or the click falls back to script, the click
    // reaches it and the action ends in time.
    e.click("#runaway").await;
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(e.text("#result").await, "runaway clicked");
    let out = e.click("#covered").await;
    assert!(out.js_click_fallback);
    assert_eq!(e.text("#result").await, "covered clicked");
    // An uncovered element is clicked with the mouse.
    e.goto("/t/ok").await;
    let out = e.click("#go").await;
    assert!(!out.js_click_fallback);
    e.close().await;
}

#[tokio::test]
async fn other_origins_are_noise() {
    let mut e = env().await;
    let out = e.goto("/t/third-party").await;
    let failures: Vec<_> = out
        .observations
        .iter()
        .filter(|o| o.kind.is_failure())
        .collect();
    assert!(!failures.is_empty(), "{out:?}");
    assert!(failures.iter().all(|o| !o.in_scope), "{failures:?}");
    e.close().await;
}

#[tokio::test]
async fn typed_values_reach_the_server() {
    let mut e = env().await;
    e.goto("/t/form").await;
    let fill = |sel: &str, v: &str, t: &str| UserAction::Fill(target(sel), v.into(), t.into());
    for action in [
        fill("#name", "Ada Lovelace", "text"),
        fill("#email", "ada@example.com", "email"),
        fill("#qty", "7", "number"),
        UserAction::Select(target("#color"), "blue".into()),
        UserAction::Check(target("#agree")),
        fill("#comment", "line one\nline two", "textarea"),
    ] {
        e.tab.perform(&action).await.expect("perform");
    }
    // Typing replaces what was there.
    e.tab
        .perform(&fill("#name", "Grace Hopper", "text"))
        .await
        .unwrap();
    let out = e.click("#submit").await;
    assert!(out.navigated(), "{out:?}");
    let body = e.tab.evaluate("document.body.innerText").await.unwrap();
    let body = body.as_str().unwrap();
    for expected in [
        "name=Grace Hopper",
        "email=ada@example.com",
        "qty=7",
        "color=blue",
        "agree=yes",
    ] {
        assert!(body.contains(expected), "{expected} not in {body}");
    }
    assert!(body.contains("line one"), "{body}");
    e.close().await;
}

#[tokio::test]
async fn settling_waits_for_late_requests_and_dom_changes() {
    let mut e = env().await;
    e.goto("/t/delayed").await;
    let out = e.click("#load").await;
    assert!(!out.settle_timed_out, "{out:?}");
    assert_eq!(e.text("#done").await, "done");
    e.goto("/t/slow-nav").await;
    let out = e.click("#slow").await;
    assert!(out.url_after.ends_with("/t/slow-page"), "{out:?}");
    assert!(out.navigated());
    e.close().await;
}

#[tokio::test]
async fn snapshot_includes_same_origin_iframes() {
    let mut e = env().await;
    e.goto("/t/iframe").await;
    let capture = e.tab.snapshot().await.expect("snapshot");
    assert!(capture.url.ends_with("/t/iframe"));
    assert!(
        capture.snapshot.documents.len() >= 2,
        "{}",
        capture.snapshot.documents.len()
    );
    let png = e.tab.screenshot().await.expect("screenshot");
    assert_eq!(&png[1..4], b"PNG");
    e.close().await;
}

#[tokio::test]
async fn js_coverage_accumulates() {
    let mut e = env_with(true).await;
    e.goto("/t/exception").await;
    let before = e.tab.coverage().summary(e.tab.scope());
    e.click("#boom").await;
    let after = e.tab.coverage().summary(e.tab.scope());
    assert!(after.total_blocks() > 0, "{after:?}");
    assert!(
        after.covered_blocks() > before.covered_blocks(),
        "{before:?} -> {after:?}"
    );
    e.close().await;
}

#[tokio::test]
async fn attach_over_websocket() {
    let e = env().await;
    let config = BrowserConfig::builder()
        .ws_url(Some(e.browser.ws_url().to_string()))
        .build();
    let attached = Browser::start(config).await.expect("attach");
    assert_eq!(attached.version(), e.browser.version());
    let mut tab = attached.new_tab().await.expect("tab");
    let out = tab.goto(&e.subject.url("/t/ok")).await.unwrap();
    assert!(out.navigation_error.is_none());
    tab.close().await;
    attached.close().await;
    e.close().await;
}

#[tokio::test]
async fn unparsable_url_is_refused_at_once() {
    let mut e = env().await;
    let started = Instant::now();
    let err = e.tab.goto("not-a-url").await.unwrap_err();
    assert!(err.to_string().contains("invalid URL 'not-a-url'"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(1));
    e.close().await;
}

#[tokio::test]
async fn launch_errors_are_clear() {
    let err =
        curio_browser::find_chrome(Some(std::path::Path::new("/nonexistent/chrome"))).unwrap_err();
    assert!(matches!(err, LaunchError::NotExecutable { .. }));
    assert!(err.to_string().contains("/nonexistent/chrome"));
    let config = BrowserConfig::builder()
        .ws_url(Some("ws://127.0.0.1:9/devtools/browser/x".into()))
        .build();
    let err = Browser::start(config).await.unwrap_err();
    assert!(err.to_string().contains("ws://127.0.0.1:9/"), "{err}");
}

#[tokio::test]
async fn page_model_actions_drive_the_live_page() {
    let mut e = env().await;
    e.goto("/t/form").await;
    let capture = e.tab.snapshot().await.expect("snapshot");
    let page = curio_page::Page::from_snapshot(&capture.snapshot);
    let by_locator = |loc: &str| {
        page.actions
            .iter()
            .find(|a| a.target.locator == loc)
            .unwrap_or_else(|| {
                panic!(
                    "no action {loc} in {:?}",
                    page.actions
                        .iter()
                        .map(|a| &a.target.locator)
                        .collect::<Vec<_>>()
                )
            })
            .clone()
    };
    let name = by_locator("textbox \"Name\"");
    assert!(name.target.backend_node_id > 0);
    e.tab
        .perform(&UserAction::Fill(
            name.target.clone(),
            "Ada".into(),
            "text".into(),
        ))
        .await
        .unwrap();
    let submit = by_locator("button \"Submit\"");
    let out = e
        .tab
        .perform(&UserAction::Click(submit.target.clone()))
        .await
        .unwrap();
    assert!(out.navigated(), "{out:?}");
    let body = e.tab.evaluate("document.body.innerText").await.unwrap();
    assert!(body.as_str().unwrap().contains("name=Ada"), "{body}");
    // On the new document the old node is gone and its selector matches nothing: the
    // action is reported stale, not performed on something else.
    let err = e
        .tab
        .perform(&UserAction::Click(submit.target.clone()))
        .await;
    assert!(
        matches!(err, Err(curio_browser::BrowserError::Stale { .. })),
        "{err:?}"
    );
    e.close().await;
}

/// What a page stores, as one string: cookies, both web storages, IndexedDB databases.
const STORED: &str = r#"(async () => {
  const dbs = indexedDB.databases ? (await indexedDB.databases()).map(d => d.name) : [];
  return [document.cookie, localStorage.length, sessionStorage.length, dbs.join(',')].join('|');
})()"#;

#[tokio::test]
async fn forgetting_leaves_the_next_page_as_a_fresh_context_would() {
    let mut e = env().await;
    e.goto("/t/exception").await;
    let fresh = e.tab.evaluate(STORED).await.unwrap();
    assert_eq!(fresh, serde_json::json!("|0|0|"));
    e.tab
        .evaluate(
            r#"(async () => {
  document.cookie = 'visited=yes; path=/';
  localStorage.setItem('theme', 'dark');
  sessionStorage.setItem('step', '2');
  await new Promise((ok) => { const r = indexedDB.open('drafts'); r.onsuccess = () => { r.result.close(); ok(); }; });
})()"#,
        )
        .await
        .unwrap();
    e.goto("/t/exception").await;
    let kept = e.tab.evaluate(STORED).await.unwrap();
    assert_eq!(kept, serde_json::json!("visited=yes|1|1|drafts"));
    e.tab.forget().await.expect("forget");
    e.goto("/t/exception").await;
    let after = e.tab.evaluate(STORED).await.unwrap();
    assert_eq!(after, fresh);
    e.close().await;
}
