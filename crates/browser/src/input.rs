//! Acting like a user: scroll into view, move the mouse to a visible point of the
//! element and click there, type with key events.

use std::time::Duration;

use chromiumoxide::Page;
use serde_json::{Value, json};

use crate::cdp;
use crate::error::BrowserError;
use crate::events::{Events, Mark};

/// Scrolls the element into view and aims at the centre of its first visible box, in the
/// top viewport's coordinates (adding the offsets of same-origin frames on the way).
/// Checks that the top-most element there is this element (or inside it, or a label of
/// it), walking into frames, which `elementFromPoint` on the top document cannot see.
/// When it is, arms a listener that notes whether the next click reaches the element, so
/// a press that lands elsewhere (the element moved on hover) is caught. One round trip
/// instead of five.
const AIM: &str = r#"function() {
  const el = this;
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  else el.scrollIntoView({block: 'center', inline: 'center'});
  const box = Array.from(el.getClientRects()).find(r => r.width >= 1 && r.height >= 1);
  if (!box) return {hit: false};
  let x = box.left + box.width / 2, y = box.top + box.height / 2;
  let win = el.ownerDocument.defaultView;
  while (win && win.frameElement) {
    const f = win.frameElement, r = f.getBoundingClientRect();
    x += r.left + f.clientLeft; y += r.top + f.clientTop;
    win = win.parent;
  }
  let doc = win ? win.document : document, px = x, py = y, e = doc.elementFromPoint(px, py);
  while (e && (e.tagName === 'IFRAME' || e.tagName === 'FRAME') && e !== el) {
    let inner;
    try { inner = e.contentDocument; } catch (_) { inner = null; }
    if (!inner) break;
    const r = e.getBoundingClientRect();
    px -= r.left + e.clientLeft; py -= r.top + e.clientTop;
    doc = inner; e = doc.elementFromPoint(px, py);
  }
  const label = e && e.closest ? e.closest('label') : null;
  const hit = !!e && (e === el || el.contains(e) || (!!label && label.control === el));
  if (hit) {
    el.__curioClicked = false;
    el.addEventListener('click', () => { el.__curioClicked = true; }, {once: true, capture: true});
  }
  return {hit, x, y};
}"#;

const WAS_CLICKED: &str = "function() { return this.__curioClicked === true; }";

const SELECT_CONTENT: &str = r#"function() {
  this.focus();
  if (typeof this.select === 'function') { this.select(); return; }
  const r = this.ownerDocument.createRange(); r.selectNodeContents(this);
  const s = this.ownerDocument.getSelection(); s.removeAllRanges(); s.addRange(r);
}"#;

/// Inputs whose browser UI takes typed digits in a locale-dependent order: their value is
/// set the way the UI would set it, with the same events.
const SET_VALUE: &str = r#"function(v) {
  this.focus();
  const d = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(this), 'value');
  if (d && d.set) d.set.call(this, v); else this.value = v;
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
}"#;

const SELECT_OPTION: &str = r#"function(v) {
  const opts = Array.from(this.options || []);
  const o = opts.find(o => o.value === v) || opts.find(o => o.text.trim() === v);
  if (!o) return false;
  this.focus();
  if (this.multiple) { o.selected = !o.selected; } else { this.value = o.value; }
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"#;

/// Value-setting input types (see [`SET_VALUE`]).
const PICKER_TYPES: [&str; 7] = [
    "date",
    "time",
    "datetime-local",
    "month",
    "week",
    "color",
    "range",
];

pub(crate) struct Input<'a> {
    pub page: &'a Page,
    pub deadline: Duration,
    /// The tab's journal and the action's mark in it, to see a navigation the click set
    /// off: asking the old document anything then waits until it is gone.
    pub events: &'a Events,
    pub mark: Mark,
}

impl Input<'_> {
    async fn call(&self, method: &'static str, params: Value) -> Result<Value, BrowserError> {
        cdp::call(self.page, method, params, self.deadline).await
    }

    pub(crate) async fn call_on(
        &self,
        object_id: &str,
        function: &str,
        args: Vec<Value>,
    ) -> Result<Value, BrowserError> {
        let arguments: Vec<Value> = args.into_iter().map(|v| json!({"value": v})).collect();
        let v = self
            .call(
                "Runtime.callFunctionOn",
                json!({
                    "objectId": object_id,
                    "functionDeclaration": function,
                    "arguments": arguments,
                    "returnByValue": true,
                    "userGesture": true,
                    "awaitPromise": false,
                }),
            )
            .await?;
        Ok(v.pointer("/result/value").cloned().unwrap_or(Value::Null))
    }

    /// The element's live object: by backend node id, else by selector in the main
    /// document (the node was replaced, e.g. by a re-render).
    pub(crate) async fn resolve(
        &self,
        backend_node_id: i64,
        selector: &str,
        frame: usize,
    ) -> Option<String> {
        if backend_node_id > 0 {
            let r = self
                .call("DOM.resolveNode", json!({"backendNodeId": backend_node_id}))
                .await;
            if let Ok(v) = r
                && let Some(id) = v.pointer("/object/objectId").and_then(Value::as_str)
            {
                return Some(id.to_string());
            }
        }
        if frame != 0 || selector.is_empty() {
            return None;
        }
        let expr = format!(
            "document.querySelector({})",
            serde_json::to_string(selector).ok()?
        );
        let v = self
            .call("Runtime.evaluate", json!({"expression": expr}))
            .await
            .ok()?;
        if v.pointer("/result/subtype").and_then(Value::as_str) == Some("null") {
            return None;
        }
        v.pointer("/result/objectId")
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    /// Clicks with real mouse events at a visible point of the element. Returns `true`
    /// when the element was covered or kept moving away and was clicked by script.
    pub(crate) async fn click(&self, object_id: &str) -> Result<bool, BrowserError> {
        for _attempt in 0..3 {
            let aim = self.call_on(object_id, AIM, vec![]).await?;
            let point = aim
                .get("x")
                .and_then(Value::as_f64)
                .zip(aim.get("y").and_then(Value::as_f64));
            let (true, Some((x, y))) = (aim.get("hit") == Some(&Value::Bool(true)), point) else {
                break;
            };
            self.mouse("mouseMoved", x, y).await?;
            self.mouse("mousePressed", x, y).await?;
            self.mouse("mouseReleased", x, y).await?;
            // If the page is going away because of the click, the click did its work.
            let was_clicked = self.call_on(object_id, WAS_CLICKED, vec![]);
            tokio::select! {
                answer = was_clicked => match answer {
                    Ok(Value::Bool(false)) => continue,
                    _ => return Ok(false),
                },
                _ = self.navigation_started() => return Ok(false),
            }
        }
        self.call_on(object_id, "function() { this.click(); }", vec![])
            .await?;
        Ok(true)
    }

    async fn navigation_started(&self) {
        loop {
            {
                let j = self.events.lock();
                if j.loads_started > self.mark.loads_started
                    || j.navigations.len() > self.mark.navigations
                {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn mouse(&self, kind: &str, x: f64, y: f64) -> Result<(), BrowserError> {
        let mut params = json!({"type": kind, "x": x, "y": y});
        if kind != "mouseMoved" {
            params["button"] = json!("left");
            params["buttons"] = json!(if kind == "mousePressed" { 1 } else { 0 });
            params["clickCount"] = json!(1);
        }
        self.call("Input.dispatchMouseEvent", params)
            .await
            .map(|_| ())
    }

    /// Replaces the element's content with `value`, typed. Returns the click fallback
    /// flag of focusing it.
    pub(crate) async fn fill(
        &self,
        object_id: &str,
        value: &str,
        input_type: &str,
    ) -> Result<bool, BrowserError> {
        if PICKER_TYPES.contains(&input_type) {
            self.call_on(object_id, SET_VALUE, vec![json!(value)])
                .await?;
            return Ok(false);
        }
        let fallback = self.click(object_id).await?;
        self.call_on(object_id, SELECT_CONTENT, vec![]).await?;
        if value.is_empty() {
            self.key("Backspace", "Backspace", None, 8).await?;
            return Ok(fallback);
        }
        // All but the last character arrive as text input (one round trip, the same
        // `input` events), the last as a real keystroke, so handlers listening to keys
        // (live validation, search-as-you-type) see the complete value.
        let last = value.char_indices().last().map_or(0, |(i, _)| i);
        if last > 0 {
            self.call("Input.insertText", json!({"text": &value[..last]}))
                .await?;
        }
        match &value[last..] {
            "\n" => self.key("Enter", "Enter", Some("\r"), 13).await?,
            text => {
                self.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": "keyDown", "key": text, "text": text, "unmodifiedText": text}),
                )
                .await?;
                self.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": "keyUp", "key": text}),
                )
                .await?;
            }
        }
        Ok(fallback)
    }

    async fn key(
        &self,
        key: &str,
        code: &str,
        text: Option<&str>,
        vk: i64,
    ) -> Result<(), BrowserError> {
        let mut down =
            json!({"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk});
        if let Some(t) = text {
            down["text"] = json!(t);
        }
        self.call("Input.dispatchKeyEvent", down).await?;
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk}),
        )
        .await
        .map(|_| ())
    }

    /// Chooses the option with this value (or visible text). `false` if there is none.
    pub(crate) async fn select(&self, object_id: &str, value: &str) -> Result<bool, BrowserError> {
        let _ = self
            .call("DOM.scrollIntoViewIfNeeded", json!({"objectId": object_id}))
            .await;
        let v = self
            .call_on(object_id, SELECT_OPTION, vec![json!(value)])
            .await?;
        Ok(v.as_bool().unwrap_or(false))
    }
}
