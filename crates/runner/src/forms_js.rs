//! What the page tells about a submission, read by script in the main frame: the texts a
//! user sees, the texts added while the submission settles (kept even when they vanish
//! again), and each field's validity, `aria-invalid` and description.

use curio_forms::testing::{FieldState, SeenText};
use serde::Deserialize;
use serde_json::Value;

/// The script that walks the visible texts of a node: `textsIn(root, out)` pushes each
/// with its box, whether it sits in a live region, and whether it is shown as an alarm
/// (an `error`, `danger` or `invalid` class on it or its near ancestors, or red text),
/// leaving out the texts of buttons and links.
macro_rules! text_walk {
    () => {
        r#"
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION', 'TITLE']);
  const shown = (el) => {
    if (!el || !el.getBoundingClientRect) return false;
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && parseFloat(s.opacity || '1') > 0;
  };
  const live = (el) => !!(el && el.closest &&
    el.closest('[role=alert],[role=status],[aria-live]:not([aria-live=off]),output'));
  const ALARM_CLASS = /(^|[\s_-])(error|errors|danger|invalid)([\s_-]|$)/i;
  const alarm = (el) => {
    if (el.closest('button,a,[role=button],label')) return false;
    for (let e = el, i = 0; e && i < 3; e = e.parentElement, i++) {
      if (typeof e.className === 'string' && ALARM_CLASS.test(e.className)) return true;
    }
    const c = (getComputedStyle(el).color.match(/[\d.]+/g) || []).map(Number);
    return c.length >= 3 && c[0] >= 100 && c[0] >= 2 * Math.max(c[1], c[2]) + 10;
  };
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height};
  };
  const clean = (t) => t.replace(/\s+/g, ' ').trim().slice(0, 300);
  const textsIn = (root, out) => {
    if (!root) return out;
    if (root.nodeType === Node.TEXT_NODE) {
      const el = root.parentElement;
      const t = clean(root.textContent || '');
      if (t && el && !SKIP.has(el.tagName) && shown(el)) {
        out.push({text: t, rect: box(el), live: live(el), alarm: alarm(el)});
      }
      return out;
    }
    if (root.nodeType !== Node.ELEMENT_NODE || SKIP.has(root.tagName)) return out;
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = w.nextNode()) && out.length < 400) textsIn(n, out);
    return out;
  };
"#
    };
}

/// Installs the recorder of added texts and answers the visible texts now.
pub(crate) const WATCH: &str = concat!(
    "(() => {",
    text_walk!(),
    r#"
  window.__curioTexts = () => textsIn(document.body, []);
  window.__curioAdded = [];
  if (window.__curioObserver) window.__curioObserver.disconnect();
  const note = (node) => {
    if (window.__curioAdded.length >= 200) return;
    for (const t of textsIn(node, [])) window.__curioAdded.push(t);
  };
  window.__curioObserver = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') r.addedNodes.forEach(note);
      else note(r.target);
    }
  });
  window.__curioObserver.observe(document.body || document.documentElement, {
    childList: true, subtree: true, characterData: true, attributes: true,
    attributeFilter: ['style', 'class', 'hidden', 'aria-hidden', 'open'],
  });
  return window.__curioTexts();
})()"#
);

/// Reads texts, added texts and the fields named by the selectors in `__SELECTORS__`.
const READ: &str = r#"((selectors) => {
  const empty = {x: 0, y: 0, width: 0, height: 0};
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height};
  };
  const textOf = (ids) => (ids || '').split(/\s+/).filter(Boolean)
    .map((id) => document.getElementById(id))
    .filter(Boolean)
    .map((el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim())
    .filter(Boolean).join(' ');
  const fields = selectors.map((sel) => {
    let el = null;
    try { el = sel ? document.querySelector(sel) : null; } catch (e) { el = null; }
    if (!el) return {validation_message: '', aria_invalid: false, described_by: '', rect: empty, value: ''};
    const novalidate = !!(el.form && el.form.noValidate);
    const native = !novalidate && el.willValidate && el.validity && !el.validity.valid;
    return {
      validation_message: native ? (el.validationMessage || '') : '',
      aria_invalid: (el.getAttribute('aria-invalid') || '').toLowerCase() === 'true',
      described_by: textOf([el.getAttribute('aria-describedby'), el.getAttribute('aria-errormessage')].join(' ')),
      rect: box(el),
      value: el.type === 'checkbox' || el.type === 'radio' ? String(el.checked) : String(el.value ?? ''),
    };
  });
  const texts = window.__curioTexts ? window.__curioTexts() : [];
  return {texts, added: window.__curioAdded || [], fields, watched: !!window.__curioTexts};
})(__SELECTORS__)"#;

/// What [`read`] found after a submission.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Read {
    pub texts: Vec<SeenText>,
    pub added: Vec<SeenText>,
    pub fields: Vec<FieldState>,
    /// Whether the recorder was still there: false after a new document loaded.
    pub watched: bool,
}

/// The expression that reads the page after a submission, for fields found by
/// `selectors` (in form order).
pub(crate) fn read_expression(selectors: &[String]) -> String {
    let list = serde_json::to_string(selectors).unwrap_or_else(|_| "[]".into());
    READ.replace("__SELECTORS__", &list)
}

/// Texts from the answer of [`WATCH`]; nothing when the answer is not a list of them.
pub(crate) fn texts(value: Value) -> Vec<SeenText> {
    serde_json::from_value(value).unwrap_or_default()
}

/// The answer of [`read_expression`]'s script; empty when unreadable, and then the
/// texts must come from a fresh snapshot instead, so the recorder's absence shows.
pub(crate) fn read(value: Value) -> Read {
    serde_json::from_value(value).unwrap_or_default()
}

/// The page's texts with their boxes when the recorder is missing (the page changed
/// document): the same walk, without installing anything.
pub(crate) const TEXTS_ONLY: &str = concat!(
    "(() => {",
    text_walk!(),
    "return document.body ? textsIn(document.body, []) : []; })()"
);
