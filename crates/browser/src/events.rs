//! Collects a tab's CDP events into one shared journal while actions run.
//!
//! One task per tab listens to every event stream the outcome needs and folds them into
//! [`Journal`]. An action marks the journal, acts, waits for the page to settle, then
//! drains what arrived since the mark. Dialogs are answered here, at once, because a
//! page blocked on `alert()` would otherwise hang every later call.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::inspector::EventTargetCrashed;
use chromiumoxide::cdp::browser_protocol::network::{
    EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent, EventResponseReceived,
};
use chromiumoxide::cdp::browser_protocol::page::{
    EventFileChooserOpened, EventFrameNavigated, EventFrameStartedLoading,
    EventFrameStoppedLoading, EventJavascriptDialogOpening, EventNavigatedWithinDocument,
    EventWindowOpen,
};
use chromiumoxide::cdp::js_protocol::runtime::{
    ConsoleApiCalledType, EventConsoleApiCalled, EventExceptionThrown, RemoteObject,
};
use curio_record::{Observation, ObservationKind, SourceLocation};
use futures::stream::{BoxStream, SelectAll};
use futures::{Stream, StreamExt};
use serde_json::json;
use tokio::task::JoinHandle;

use crate::cdp;
use crate::outcome::Response;
use crate::scope::{Scope, browser_own};

/// Text typed into `prompt()` dialogs.
pub(crate) const PROMPT_TEXT: &str = "curio";

/// What the tab's events said, accumulated.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    pub observations: Vec<Observation>,
    pub responses: Vec<Response>,
    pub navigations: Vec<String>,
    /// Requests started and not yet finished, with when they started.
    pub inflight: HashMap<String, (Instant, String, String)>,
    pub main_frame: Option<String>,
    /// Main-frame navigations started (a counter, so a wait can tell "since my mark").
    pub loads_started: u64,
    pub loads_finished: u64,
    pub crashed: bool,
    pub url: String,
    /// Last time a request started or ended.
    pub network_changed: Option<Instant>,
    /// The method of each request whose start was folded in (the latest
    /// [`MAX_REMEMBERED`] or so).
    methods: HashMap<String, String>,
    /// Answers and ends of requests whose start was not folded in yet: each kind of
    /// event comes in a stream of its own, and under load an answer can be read before
    /// the request it answers. They are folded in when the request's start is.
    early: HashMap<String, Early>,
}

/// What came for a request before its start did.
#[derive(Debug, Default)]
struct Early {
    response: Option<Arc<EventResponseReceived>>,
    finished: bool,
}

/// Requests whose early events a journal keeps at most; past it they are dropped.
const MAX_EARLY: usize = 256;

/// Requests whose method a journal remembers at most; past it it starts again.
const MAX_REMEMBERED: usize = 8192;

impl Journal {
    /// Folds in the answer `e` to a request sent with `method`: a response, and an
    /// observation when its status is an error.
    fn response(&mut self, e: &EventResponseReceived, method: String, scope: &Scope) {
        let r = &e.response;
        let status = r.status.clamp(0, u16::MAX as i64) as u16;
        let kind_of_resource = resource_type(&e.r#type);
        let in_scope = scope.contains(&r.url);
        self.responses.push(Response {
            url: r.url.clone(),
            method: method.clone(),
            status,
            resource_type: kind_of_resource.clone(),
            in_scope,
        });
        // The browser's own requests (the site's icon) are noise, never the app's failure.
        let in_scope = in_scope && !browser_own(&r.url, &kind_of_resource);
        let kind = match status {
            400..=499 => ObservationKind::HttpClientError,
            500..=599 => ObservationKind::HttpServerError,
            _ => return,
        };
        let text = if r.status_text.is_empty() {
            format!("HTTP {status}")
        } else {
            format!("HTTP {status} {}", r.status_text)
        };
        self.observations.push(Observation {
            step: 0,
            kind,
            message: format!("{text} for {method} {}", path_of(&r.url)),
            url: r.url.clone(),
            source: None,
            status: Some(status),
            method: Some(method),
            in_scope,
        });
    }

    /// The early events of request `id`, kept until its start comes.
    fn early_entry(&mut self, id: &str) -> &mut Early {
        if self.early.len() >= MAX_EARLY && !self.early.contains_key(id) {
            self.early.clear();
        }
        self.early.entry(id.to_string()).or_default()
    }
}

/// Handle on the journal of one tab.
#[derive(Debug, Clone)]
pub(crate) struct Events {
    journal: Arc<Mutex<Journal>>,
}

/// Positions in the journal at the start of an action.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pub observations: usize,
    pub responses: usize,
    pub navigations: usize,
    pub loads_started: u64,
    pub at: Instant,
}

enum Event {
    Exception(Arc<EventExceptionThrown>),
    Console(Arc<EventConsoleApiCalled>),
    Request(Arc<EventRequestWillBeSent>),
    Response(Arc<EventResponseReceived>),
    Finished(Arc<EventLoadingFinished>),
    Failed(Arc<EventLoadingFailed>),
    Dialog(Arc<EventJavascriptDialogOpening>),
    WindowOpen(Arc<EventWindowOpen>),
    Navigated(Arc<EventFrameNavigated>),
    WithinDocument(Arc<EventNavigatedWithinDocument>),
    StartedLoading(Arc<EventFrameStartedLoading>),
    StoppedLoading(Arc<EventFrameStoppedLoading>),
    FileChooser(Arc<EventFileChooserOpened>),
    Crashed,
}

async fn listen<T, F>(
    page: &Page,
    streams: &mut SelectAll<BoxStream<'static, Event>>,
    wrap: F,
) -> Result<(), chromiumoxide::error::CdpError>
where
    T: chromiumoxide::cdp::IntoEventKind + Unpin + Send + Sync + 'static + std::fmt::Debug,
    F: Fn(Arc<T>) -> Event + Send + 'static,
    chromiumoxide::listeners::EventStream<T>: Stream<Item = Arc<T>>,
{
    let stream = page.event_listener::<T>().await?;
    streams.push(stream.map(wrap).boxed());
    Ok(())
}

/// Gives the file input `node` a sample file of a type it accepts.
async fn choose_file(page: &Page, node: i64, deadline: Duration) {
    let accept = cdp::call(
        page,
        "DOM.describeNode",
        json!({"backendNodeId": node}),
        deadline,
    )
    .await
    .ok()
    .and_then(|v| {
        let attributes = v.pointer("/node/attributes")?.as_array()?.clone();
        attributes
            .chunks(2)
            .find(|pair| pair[0].as_str() == Some("accept"))
            .and_then(|pair| pair.get(1)?.as_str().map(str::to_string))
    })
    .unwrap_or_default();
    if let Some(file) = crate::upload::sample_file(&accept) {
        let params = json!({"files": [file.display().to_string()], "backendNodeId": node});
        let _ = cdp::call(page, "DOM.setFileInputFiles", params, deadline).await;
    }
}

impl Events {
    /// Subscribes to the tab's events and starts the task that folds them in.
    pub(crate) async fn start(
        page: &Page,
        scope: Scope,
        command_timeout: Duration,
    ) -> Result<(Events, JoinHandle<()>), chromiumoxide::error::CdpError> {
        let mut s = SelectAll::new();
        listen(page, &mut s, Event::Exception).await?;
        listen(page, &mut s, Event::Console).await?;
        listen(page, &mut s, Event::Request).await?;
        listen(page, &mut s, Event::Response).await?;
        listen(page, &mut s, Event::Finished).await?;
        listen(page, &mut s, Event::Failed).await?;
        listen(page, &mut s, Event::Dialog).await?;
        listen(page, &mut s, Event::WindowOpen).await?;
        listen(page, &mut s, Event::Navigated).await?;
        listen(page, &mut s, Event::WithinDocument).await?;
        listen(page, &mut s, Event::StartedLoading).await?;
        listen(page, &mut s, Event::StoppedLoading).await?;
        listen(page, &mut s, Event::FileChooser).await?;
        listen(page, &mut s, |_: Arc<EventTargetCrashed>| Event::Crashed).await?;
        let events = Events {
            journal: Arc::new(Mutex::new(Journal::default())),
        };
        let task_events = events.clone();
        let page = page.clone();
        let task = tokio::spawn(async move {
            while let Some(event) = s.next().await {
                if let Event::FileChooser(e) = &event {
                    // A file input asks for a file: a sample of a type it accepts.
                    if let Some(node) = &e.backend_node_id {
                        let page = page.clone();
                        let node = *node.inner();
                        tokio::spawn(async move {
                            choose_file(&page, node, command_timeout).await;
                        });
                    }
                    continue;
                }
                if let Event::Dialog(_) = &event {
                    // Answer first: the page is frozen until we do.
                    let page = page.clone();
                    tokio::spawn(async move {
                        let params = json!({"accept": true, "promptText": PROMPT_TEXT});
                        let _ = cdp::call(
                            &page,
                            "Page.handleJavaScriptDialog",
                            params,
                            command_timeout,
                        )
                        .await;
                    });
                }
                task_events.fold(event, &scope);
            }
        });
        Ok((events, task))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Journal> {
        // A panic while holding the lock cannot leave the journal inconsistent in a way
        // that matters more than losing the run, so a poisoned lock is used as is.
        self.journal.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn mark(&self) -> Mark {
        let j = self.lock();
        Mark {
            observations: j.observations.len(),
            responses: j.responses.len(),
            navigations: j.navigations.len(),
            loads_started: j.loads_started,
            at: Instant::now(),
        }
    }

    /// Forgets request bookkeeping of a previous document (its requests will never
    /// report finishing once the tab moves on).
    pub(crate) fn set_main_frame(&self, frame: String) {
        self.lock().main_frame = Some(frame);
    }

    /// The main frame and its URL of a page whose first navigation came before the
    /// journal started (a popup adopted after it opened).
    pub(crate) fn set_location(&self, frame: String, url: String) {
        let mut j = self.lock();
        j.main_frame = Some(frame);
        j.url = url;
    }

    fn fold(&self, event: Event, scope: &Scope) {
        let mut j = self.lock();
        let page_url = j.url.clone();
        let observe = |kind, message: String, url: String, source: Option<SourceLocation>| {
            // Code without a script URL (inline handlers, eval) belongs to the page.
            let from = match &source {
                Some(s) if !s.url.is_empty() => s.url.as_str(),
                _ => url.as_str(),
            };
            let in_scope = scope.contains(from);
            Observation {
                step: 0,
                kind,
                message,
                url,
                source,
                status: None,
                method: None,
                in_scope,
            }
        };
        match event {
            Event::Exception(e) => {
                let d = &e.exception_details;
                let rejection = d.text.contains("(in promise)");
                let message = d
                    .exception
                    .as_ref()
                    .and_then(describe_exception)
                    .unwrap_or_else(|| d.text.clone());
                let source = d
                    .stack_trace
                    .as_ref()
                    .and_then(|st| st.call_frames.first())
                    .map(|f| SourceLocation {
                        url: f.url.clone(),
                        line: (f.line_number + 1).max(0) as u32,
                        column: (f.column_number + 1).max(0) as u32,
                    })
                    .or_else(|| {
                        d.url.clone().map(|url| SourceLocation {
                            url,
                            line: (d.line_number + 1).max(0) as u32,
                            column: (d.column_number + 1).max(0) as u32,
                        })
                    });
                let kind = if rejection {
                    ObservationKind::UnhandledRejection
                } else {
                    ObservationKind::UncaughtException
                };
                let o = observe(kind, message, page_url, source);
                j.observations.push(o);
            }
            Event::Console(e) => {
                if e.r#type != ConsoleApiCalledType::Error {
                    return;
                }
                let message = e.args.iter().map(remote_text).collect::<Vec<_>>().join(" ");
                let source = e
                    .stack_trace
                    .as_ref()
                    .and_then(|st| st.call_frames.first())
                    .map(|f| SourceLocation {
                        url: f.url.clone(),
                        line: (f.line_number + 1).max(0) as u32,
                        column: (f.column_number + 1).max(0) as u32,
                    });
                let o = observe(ObservationKind::ConsoleError, message, page_url, source);
                j.observations.push(o);
            }
            Event::Request(e) => {
                let id = e.request_id.inner().clone();
                if let Some(r) = &e.redirect_response {
                    j.responses.push(Response {
                        url: r.url.clone(),
                        method: e.request.method.clone(),
                        status: r.status.clamp(0, u16::MAX as i64) as u16,
                        resource_type: resource_type(&e.r#type),
                        in_scope: scope.contains(&r.url),
                    });
                }
                // A `data:` URL (the date picker's own icon, an inline image) is answered
                // inside the renderer and does not always report its end; it is no
                // network work the page waits for.
                if e.request.url.starts_with("data:") {
                    return;
                }
                let now = Instant::now();
                j.network_changed = Some(now);
                if j.methods.len() >= MAX_REMEMBERED {
                    j.methods.clear();
                }
                j.methods.insert(id.clone(), e.request.method.clone());
                let early = j.early.remove(&id).unwrap_or_default();
                if let Some(response) = &early.response {
                    j.response(response, e.request.method.clone(), scope);
                }
                if !early.finished {
                    j.inflight
                        .insert(id, (now, e.request.url.clone(), e.request.method.clone()));
                }
            }
            Event::Response(e) => {
                let id = e.request_id.inner();
                match j.methods.get(id).cloned() {
                    Some(method) => j.response(&e, method, scope),
                    // A `data:` URL never announced its start.
                    None if e.response.url.starts_with("data:") => {}
                    None => j.early_entry(id).response = Some(e.clone()),
                }
            }
            Event::Finished(e) => {
                let id = e.request_id.inner();
                if j.inflight.remove(id).is_none() && !j.methods.contains_key(id) {
                    j.early_entry(id).finished = true;
                }
                j.network_changed = Some(Instant::now());
            }
            Event::Failed(e) => {
                let id = e.request_id.inner();
                let gone = j.inflight.remove(id);
                if gone.is_none() && !j.methods.contains_key(id) {
                    j.early_entry(id).finished = true;
                }
                j.network_changed = Some(Instant::now());
                // Requests aborted because the page moved on are not failures.
                if e.canceled == Some(true) || e.error_text == "net::ERR_ABORTED" {
                    return;
                }
                // A request blocked before it was sent (an unsafe port, a blocker) was
                // never announced; without its URL it cannot be blamed on the app.
                let (url, method) = gone.map(|(_, u, m)| (u, m)).unwrap_or_default();
                let in_scope = !url.is_empty() && scope.contains(&url) && !browser_own(&url, "");
                j.observations.push(Observation {
                    step: 0,
                    kind: ObservationKind::NetworkFailure,
                    message: format!("{} for {method} {url}", e.error_text),
                    url,
                    source: None,
                    status: None,
                    method: Some(method),
                    in_scope,
                });
            }
            Event::Dialog(e) => {
                let kind = serde_json::to_value(&e.r#type)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_else(|| "dialog".into());
                let o = observe(
                    ObservationKind::Dialog,
                    format!("{kind}: {}", e.message),
                    e.url.clone(),
                    None,
                );
                j.observations.push(o);
            }
            Event::WindowOpen(e) => {
                let o = observe(
                    ObservationKind::Popup,
                    format!("opened {}", e.url),
                    e.url.clone(),
                    None,
                );
                j.observations.push(o);
            }
            Event::Navigated(e) => {
                if e.frame.parent_id.is_none() {
                    let url = e.frame.url.clone() + e.frame.url_fragment.as_deref().unwrap_or("");
                    j.main_frame = Some(e.frame.id.inner().clone());
                    j.url = url.clone();
                    j.navigations.push(url);
                }
            }
            Event::WithinDocument(e) => {
                if j.main_frame.as_deref() == Some(e.frame_id.inner().as_str()) {
                    j.url = e.url.clone();
                    j.navigations.push(e.url.clone());
                }
            }
            Event::StartedLoading(e) => {
                if j.main_frame.is_none() || j.main_frame.as_deref() == Some(e.frame_id.inner()) {
                    j.loads_started += 1;
                }
            }
            Event::StoppedLoading(e) => {
                if j.main_frame.is_none() || j.main_frame.as_deref() == Some(e.frame_id.inner()) {
                    j.loads_finished = j.loads_started;
                }
            }
            // Answered by the journal's task, not folded in.
            Event::FileChooser(_) => {}
            Event::Crashed => {
                j.crashed = true;
                let o = observe(
                    ObservationKind::RendererCrash,
                    "the page's renderer crashed".into(),
                    page_url,
                    None,
                );
                j.observations.push(o);
            }
        }
    }
}

fn describe_exception(obj: &RemoteObject) -> Option<String> {
    if let Some(d) = &obj.description {
        // The description carries the stack after the first line.
        return d.lines().next().map(str::to_string);
    }
    obj.value.as_ref().map(|v| match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

fn remote_text(obj: &RemoteObject) -> String {
    match (&obj.value, &obj.description) {
        (Some(serde_json::Value::String(s)), _) => s.clone(),
        (Some(v), _) => v.to_string(),
        (None, Some(d)) => d.lines().next().unwrap_or_default().to_string(),
        (None, None) => obj
            .unserializable_value
            .as_ref()
            .map(|u| u.inner().clone())
            .unwrap_or_default(),
    }
}

fn resource_type<T: serde::Serialize>(t: &T) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Path and query of a URL, for short messages.
fn path_of(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) => match u.query() {
            Some(q) => format!("{}?{q}", u.path()),
            None => u.path().to_string(),
        },
        Err(_) => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: &str, method: &str) -> Event {
        let e = serde_json::from_value(json!({
            "requestId": id, "loaderId": "L", "documentURL": "http://127.0.0.1:1/seats",
            "request": {
                "url": "http://127.0.0.1:1/seats", "method": method, "headers": {},
                "initialPriority": "VeryHigh", "referrerPolicy": "no-referrer"
            },
            "timestamp": 1.0, "wallTime": 1.0, "initiator": {"type": "other"},
            "redirectHasExtraInfo": false, "type": "Document", "frameId": "F"
        }))
        .expect("a request");
        Event::Request(Arc::new(e))
    }

    fn response(id: &str, status: i64) -> Event {
        let e = serde_json::from_value(json!({
            "requestId": id, "loaderId": "L", "timestamp": 2.0, "type": "Document",
            "response": {
                "url": "http://127.0.0.1:1/seats", "status": status,
                "statusText": "Internal Server Error", "headers": {}, "mimeType": "text/html",
                "charset": "utf-8", "connectionReused": false, "connectionId": 1.0,
                "encodedDataLength": 10.0, "securityState": "neutral"
            },
            "hasExtraInfo": false, "frameId": "F"
        }))
        .expect("a response");
        Event::Response(Arc::new(e))
    }

    fn finished(id: &str) -> Event {
        let e = serde_json::from_value(json!({
            "requestId": id, "timestamp": 3.0, "encodedDataLength": 10.0
        }))
        .expect("an end");
        Event::Finished(Arc::new(e))
    }

    /// Each kind of event has a stream of its own: an answer, or an end, read before
    /// the request's start is still the request's, with its method.
    #[test]
    fn an_answer_read_before_its_request_keeps_the_request_s_method() {
        let scope = Scope::new(&"http://127.0.0.1:1/".parse().unwrap(), &[]);
        let events = Events {
            journal: Arc::new(Mutex::new(Journal::default())),
        };
        events.fold(response("1", 500), &scope);
        events.fold(finished("1"), &scope);
        assert!(events.lock().observations.is_empty());
        events.fold(request("1", "POST"), &scope);
        let j = events.lock();
        assert_eq!(j.observations.len(), 1);
        assert_eq!(
            j.observations[0].message,
            "HTTP 500 Internal Server Error for POST /seats"
        );
        assert_eq!(j.responses[0].method, "POST");
        // Its end came first too: nothing is left waiting for it.
        assert!(j.inflight.is_empty() && j.early.is_empty());
        drop(j);
        // In order, as before.
        events.fold(request("2", "POST"), &scope);
        events.fold(response("2", 500), &scope);
        events.fold(finished("2"), &scope);
        let j = events.lock();
        assert_eq!(j.observations.len(), 2);
        assert!(j.observations[1].message.ends_with("for POST /seats"));
        assert!(j.inflight.is_empty() && j.early.is_empty());
    }
}
