//! The DOM around one form: the element tree the form entity relation graph (FERG) of
//! `curio-forms` is built on, which [`Page`] does not keep.
//!
//! [`form_dom`] takes the subtree of the form's root (the `<form>`, or for an implicit
//! form the nearest common ancestor of its fields and submit button) plus a little
//! context above it: up to [`CONTEXT_LEVELS`] ancestors, each with the few small text
//! blocks just before the form's branch (the form's heading, an intro line). Every kept
//! element becomes a [`DomNode`] with its own visible text, its box, and which field of
//! the form it is or labels.
//!
//! Text nodes are not nodes of their own: an element's [`DomNode::text`] is its direct
//! visible text. Inside a pure-text element (no control below it) inline formatting
//! children (`Date of <b>birth</b>`, a required-marker `<span>*</span>`) are folded into
//! the element's text and left out of the tree, so a caption stays one unit.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::context::Ctx;
use crate::dom::DomSnapshot;
use crate::fields::input_type;
use crate::model::{Form, FormId, Page, Rect};
use crate::snapshot_index::{Doc, union};
use crate::text::{collapse, truncate};
use crate::visibility::Visibility;

/// Ancestors of the form's root taken along as context (the root's parent is level 1).
pub const CONTEXT_LEVELS: usize = 2;
/// Element siblings just before the form's branch kept per context level.
const CONTEXT_SIBLINGS: usize = 2;
/// Largest subtree (in snapshot nodes) a context sibling may have: a heading or an
/// intro paragraph, not a navigation bar or another form.
const CONTEXT_SUBTREE_NODES: usize = 24;
/// Most nodes a [`FormDom`] holds; the rest of a giant form is left out, in document
/// order, so pathological pages stay cheap.
pub const MAX_FORM_DOM_NODES: usize = 2000;
/// Longest [`DomNode::text`] kept, in characters.
pub const MAX_NODE_TEXT_CHARS: usize = 200;

/// Never part of what a user reads or operates.
const SKIPPED_TAGS: [&str; 7] = [
    "script", "style", "noscript", "template", "head", "title", "option",
];

/// Page furniture and other forms: never the context of a form.
const NOT_CONTEXT_TAGS: [&str; 5] = ["form", "nav", "menu", "footer", "aside"];

/// Elements whose own content is not text a user reads as a caption.
const OPAQUE_TAGS: [&str; 4] = ["select", "textarea", "datalist", "optgroup"];

/// Elements that are operated rather than read.
const CONTROL_TAGS: [&str; 4] = ["input", "select", "textarea", "button"];

/// The element tree around one form, in document order; a node's parent comes before it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FormDom {
    pub nodes: Vec<DomNode>,
    /// The form's root element in [`FormDom::nodes`] (`None` for an empty tree).
    pub root: Option<usize>,
}

/// One element of a [`FormDom`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DomNode {
    /// Index of the parent in [`FormDom::nodes`]; `None` for the topmost node.
    pub parent: Option<usize>,
    /// Lowercase tag name.
    pub tag: String,
    /// The element's own visible text, whitespace-collapsed, at most
    /// [`MAX_NODE_TEXT_CHARS`]: its direct text children, plus inline formatting children
    /// when nothing operable is below it; for `<input type=submit|button|reset>` its value.
    pub text: String,
    /// Union of the boxes of the text pieces in [`DomNode::text`]; zero without text.
    pub text_rect: Rect,
    /// The element's layout box (for `display: contents`, that of its visible children).
    pub rect: Rect,
    pub visible: bool,
    /// `backendNodeId` in the snapshot.
    pub backend_node_id: i64,
    /// Index into [`Form::fields`] when this element is that field's control (for a radio
    /// group, its first radio).
    pub field: Option<usize>,
    /// The field (index into [`Form::fields`]) this `<label>` labels, by `for=` or by
    /// wrapping it, or that names this element in its `aria-labelledby`. Labels of single
    /// radios are option names, not the group's label, and are not counted.
    pub label_for: Option<usize>,
    /// The field whose `aria-describedby` or `aria-errormessage` names this element.
    pub describes: Option<usize>,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The `type` attribute as written.
    pub input_type: Option<String>,
    pub placeholder: Option<String>,
    pub aria_label: Option<String>,
    /// The explicit `role` attribute.
    pub role: Option<String>,
    pub aria_live: Option<String>,
    pub class: Option<String>,
}

impl FormDom {
    /// Children of every node, in document order.
    pub fn children(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(p) = n.parent.filter(|&p| p < i) {
                out[p].push(i);
            }
        }
        out
    }

    /// The node of field `field` (index into [`Form::fields`]), if it is in the tree.
    pub fn field_node(&self, field: usize) -> Option<usize> {
        self.nodes.iter().position(|n| n.field == Some(field))
    }
}

/// The DOM around form `form` of `page`, which must have been built from `snapshot`. An
/// unknown form, or one whose elements are not in the snapshot, gives an empty tree.
pub fn form_dom(snapshot: &DomSnapshot, page: &Page, form: FormId) -> FormDom {
    let Some(form) = page.forms.get(form.0) else {
        return FormDom::default();
    };
    let Some(frame) = form_frame(form) else {
        return FormDom::default();
    };
    let Some(doc) = Doc::new(snapshot, frame) else {
        return FormDom::default();
    };
    let vis = Visibility::compute(&doc);
    let ctx = Ctx::new(doc, vis, String::new());
    build(&ctx, &Index::new(&ctx), form)
}

/// [`form_dom`] for every form of `page`, in [`Page::forms`] order; the documents are
/// indexed once, not once per form.
pub fn form_doms(snapshot: &DomSnapshot, page: &Page) -> Vec<FormDom> {
    let mut frames: Vec<usize> = page.forms.iter().filter_map(form_frame).collect();
    frames.sort_unstable();
    frames.dedup();
    let mut ctxs: Vec<(usize, Ctx<'_>, Index)> = Vec::new();
    for frame in frames {
        if let Some(doc) = Doc::new(snapshot, frame) {
            let vis = Visibility::compute(&doc);
            let ctx = Ctx::new(doc, vis, String::new());
            let index = Index::new(&ctx);
            ctxs.push((frame, ctx, index));
        }
    }
    page.forms
        .iter()
        .map(|form| {
            form_frame(form)
                .and_then(|frame| ctxs.iter().find(|(f, _, _)| *f == frame))
                .map(|(_, ctx, index)| build(ctx, index, form))
                .unwrap_or_default()
        })
        .collect()
}

fn form_frame(form: &Form) -> Option<usize> {
    form.target
        .as_ref()
        .map(|t| t.frame)
        .or_else(|| form.fields.first().map(|f| f.target.frame))
        .or_else(|| form.submit.as_ref().map(|t| t.frame))
}

/// Per-document facts computed once.
struct Index {
    by_backend: HashMap<i64, usize>,
    /// Something visible at or below the node.
    shown: Vec<bool>,
    /// A control strictly below the node.
    control_below: Vec<bool>,
}

impl Index {
    fn new(ctx: &Ctx<'_>) -> Index {
        let doc = &ctx.doc;
        let len = doc.len();
        let mut by_backend = HashMap::new();
        for n in 0..len {
            if doc.is_element(n) {
                by_backend.entry(doc.backend_node_id(n)).or_insert(n);
            }
        }
        // Children follow their parent, so a backward pass sees subtrees before roots.
        let mut shown = vec![false; len];
        let mut control_below = vec![false; len];
        for n in (0..len).rev() {
            shown[n] = shown[n] || ctx.visible(n);
            if let Some(p) = doc.parent(n) {
                shown[p] |= shown[n];
                control_below[p] |= control_below[n] || is_control(doc, n);
            }
        }
        Index {
            by_backend,
            shown,
            control_below,
        }
    }
}

fn is_control(doc: &Doc<'_>, n: usize) -> bool {
    CONTROL_TAGS.contains(&doc.tag(n)) || doc.has_attr(n, "contenteditable")
}

fn build(ctx: &Ctx<'_>, index: &Index, form: &Form) -> FormDom {
    let doc = &ctx.doc;
    let frame = ctx.frame;
    let node_of = |backend: i64| index.by_backend.get(&backend).copied();

    let mut field_of: HashMap<usize, usize> = HashMap::new();
    for (i, f) in form.fields.iter().enumerate() {
        if f.target.frame == frame
            && let Some(n) = node_of(f.target.backend_node_id)
        {
            field_of.entry(n).or_insert(i);
        }
    }
    let mut anchors: Vec<usize> = form
        .target
        .iter()
        .chain(form.submit.iter())
        .filter(|t| t.frame == frame)
        .filter_map(|t| node_of(t.backend_node_id))
        .collect();
    anchors.extend(field_of.keys().copied());
    anchors.sort_unstable();
    let Some(root) = common_ancestor(doc, &anchors) else {
        return FormDom::default();
    };

    // Labels and descriptions, by element.
    let mut label_for: HashMap<usize, usize> = HashMap::new();
    let mut describes: HashMap<usize, usize> = HashMap::new();
    let mut fields_sorted: Vec<(usize, usize)> = field_of.iter().map(|(&n, &i)| (n, i)).collect();
    fields_sorted.sort_unstable();
    for &(n, i) in &fields_sorted {
        let radio = doc.tag(n) == "input" && input_type(ctx, n) == "radio";
        if !radio && let Some(labels) = ctx.control_labels.get(&n) {
            for &(label, _) in labels {
                label_for.entry(label).or_insert(i);
            }
        }
        let named = |attr: &str| -> Vec<usize> {
            doc.attr(n, attr)
                .map(|ids| {
                    ids.split_ascii_whitespace()
                        .filter_map(|id| doc.element_by_id(id))
                        .collect()
                })
                .unwrap_or_default()
        };
        for t in named("aria-labelledby") {
            label_for.entry(t).or_insert(i);
        }
        for t in named("aria-describedby")
            .into_iter()
            .chain(named("aria-errormessage"))
        {
            describes.entry(t).or_insert(i);
        }
    }

    let mut out = Builder {
        ctx,
        index,
        nodes: Vec::new(),
        field_of: &field_of,
        label_for: &label_for,
        describes: &describes,
    };

    // The chain of context ancestors, topmost first.
    let mut chain: Vec<usize> = vec![root];
    for _ in 0..CONTEXT_LEVELS {
        let top = chain[chain.len() - 1];
        if doc.tag(top) == "body" {
            break;
        }
        match doc
            .parent(top)
            .filter(|&p| !matches!(doc.tag(p), "html" | ""))
        {
            Some(p) => chain.push(p),
            None => break,
        }
    }
    chain.reverse();
    let mut parent: Option<usize> = None;
    for pair in chain.windows(2) {
        let (above, below) = (pair[0], pair[1]);
        let me = out.push(above, parent);
        for s in context_siblings(ctx, index, below) {
            out.subtree(s, Some(me));
        }
        parent = Some(me);
    }
    let root_index = out.nodes.len();
    out.subtree(root, parent);
    let root = (out.nodes.len() > root_index).then_some(root_index);
    FormDom {
        nodes: out.nodes,
        root,
    }
}

/// The nearest node that is `nodes[0]` or an ancestor of it and contains all `nodes`.
fn common_ancestor(doc: &Doc<'_>, nodes: &[usize]) -> Option<usize> {
    let (&first, rest) = nodes.split_first()?;
    let mut candidate = first;
    for &n in rest {
        while candidate != n && !doc.is_ancestor(candidate, n) {
            candidate = doc.parent(candidate)?;
        }
    }
    Some(candidate)
}

/// Up to [`CONTEXT_SIBLINGS`] small, visible, text-bearing element siblings right before
/// `n`, with no control in them, in document order.
fn context_siblings(ctx: &Ctx<'_>, index: &Index, n: usize) -> Vec<usize> {
    let doc = &ctx.doc;
    let Some(p) = doc.parent(n) else {
        return Vec::new();
    };
    let kids = doc.children(p);
    let Some(pos) = kids.iter().position(|&k| k == n) else {
        return Vec::new();
    };
    let mut found: Vec<usize> = kids[..pos]
        .iter()
        .rev()
        .copied()
        .filter(|&k| doc.is_element(k) && !SKIPPED_TAGS.contains(&doc.tag(k)) && index.shown[k])
        .take(CONTEXT_SIBLINGS)
        .filter(|&k| {
            !index.control_below[k]
                && !is_control(doc, k)
                && !NOT_CONTEXT_TAGS.contains(&doc.tag(k))
                && doc
                    .attr(k, "role")
                    .is_none_or(|r| !r.trim().eq_ignore_ascii_case("navigation"))
                && doc.subtree_limited(k, CONTEXT_SUBTREE_NODES).is_some()
                && !ctx.visible_text(k).is_empty()
        })
        .collect();
    found.reverse();
    found
}

struct Builder<'c, 'a> {
    ctx: &'c Ctx<'a>,
    index: &'c Index,
    nodes: Vec<DomNode>,
    field_of: &'c HashMap<usize, usize>,
    label_for: &'c HashMap<usize, usize>,
    describes: &'c HashMap<usize, usize>,
}

impl Builder<'_, '_> {
    /// `n` and the kept elements below it, in document order.
    fn subtree(&mut self, n: usize, parent: Option<usize>) {
        let doc = &self.ctx.doc;
        let mut stack: Vec<(usize, Option<usize>)> = vec![(n, parent)];
        while let Some((x, parent)) = stack.pop() {
            if self.nodes.len() >= MAX_FORM_DOM_NODES {
                return;
            }
            if !self.keeps(x) {
                continue;
            }
            let me = self.push(x, parent);
            if OPAQUE_TAGS.contains(&doc.tag(x)) {
                continue;
            }
            let folding = self.folds_children(x);
            for &c in doc.children(x).iter().rev() {
                if !(folding && self.foldable(c)) {
                    stack.push((c, Some(me)));
                }
            }
        }
    }

    fn keeps(&self, n: usize) -> bool {
        let doc = &self.ctx.doc;
        doc.is_element(n)
            && !SKIPPED_TAGS.contains(&doc.tag(n))
            && (self.index.shown[n] || self.field_of.contains_key(&n))
    }

    /// A pure-text element: its inline children are part of its text.
    fn folds_children(&self, n: usize) -> bool {
        !self.index.control_below[n] && !OPAQUE_TAGS.contains(&self.ctx.doc.tag(n))
    }

    /// An inline formatting element that is only text, all the way down.
    fn foldable(&self, c: usize) -> bool {
        let doc = &self.ctx.doc;
        doc.is_element(c)
            && doc.display(c) == Some("inline")
            && !matches!(doc.tag(c), "label" | "img" | "svg" | "iframe" | "object")
            && !is_control(doc, c)
            && !doc.has_attr(c, "id")
            && !doc.has_attr(c, "role")
            && !doc.has_attr(c, "aria-live")
            && doc
                .children(c)
                .iter()
                .all(|&k| !doc.is_element(k) || self.foldable(k))
    }

    fn push(&mut self, n: usize, parent: Option<usize>) -> usize {
        let ctx = self.ctx;
        let doc = &ctx.doc;
        let (text, text_rect) = self.own_text(n);
        let attr = |name: &str| doc.attr(n, name).map(str::to_string);
        self.nodes.push(DomNode {
            parent,
            tag: doc.tag(n).to_string(),
            text,
            text_rect: text_rect.unwrap_or_default(),
            rect: ctx.rect(n),
            visible: ctx.visible(n),
            backend_node_id: doc.backend_node_id(n),
            field: self.field_of.get(&n).copied(),
            label_for: self.label_for.get(&n).copied(),
            describes: self.describes.get(&n).copied(),
            id: attr("id"),
            name: attr("name"),
            input_type: attr("type"),
            placeholder: attr("placeholder"),
            aria_label: attr("aria-label"),
            role: attr("role"),
            aria_live: attr("aria-live"),
            class: attr("class"),
        });
        self.nodes.len() - 1
    }

    fn own_text(&self, n: usize) -> (String, Option<Rect>) {
        let ctx = self.ctx;
        let doc = &ctx.doc;
        if OPAQUE_TAGS.contains(&doc.tag(n)) {
            return (String::new(), None);
        }
        if doc.tag(n) == "input" {
            let button = matches!(input_type(ctx, n).as_str(), "submit" | "button" | "reset");
            let text = if button {
                doc.attr(n, "value").map(collapse).unwrap_or_default()
            } else {
                String::new()
            };
            let rect = (!text.is_empty()).then(|| ctx.rect(n));
            return (truncate(&text, MAX_NODE_TEXT_CHARS), rect);
        }
        let folding = self.folds_children(n);
        let mut raw = String::new();
        let mut rect: Option<Rect> = None;
        let mut stack: Vec<usize> = doc.children(n).iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            if doc.is_text(c) {
                let value = doc.node_value(c);
                if value.trim().is_empty() {
                    // Never "visible", but separates words when rendered.
                    raw.push(' ');
                } else if ctx.visible(c) {
                    raw.push_str(value);
                    if let Some(r) = doc.rect(c) {
                        rect = Some(rect.map_or(r, |prev| union(prev, r)));
                    }
                }
            } else if folding && self.foldable(c) {
                stack.extend(doc.children(c).iter().rev());
            } else if doc.is_element(c) {
                // Text on both sides of a separate element is two pieces.
                raw.push(' ');
            }
        }
        (truncate(&collapse(&raw), MAX_NODE_TEXT_CHARS), rect)
    }
}
