//! Everything known about one admitted document, computed once and shared by the
//! builders of actions, fields and forms.

use std::collections::HashMap;

use url::Url;

use crate::actions::{is_widget_role, operable};
use crate::forms::form_owner;
use crate::model::{ActionKind, LabelSource, Rect};
use crate::snapshot_index::Doc;
use crate::text::{TextOptions, collapse, text_content};
use crate::visibility::Visibility;

/// Elements a `<label>` can label.
const LABELABLE: [&str; 7] = [
    "button", "input", "meter", "output", "progress", "select", "textarea",
];

/// Text inside these is what the element says, not a caption for a nearby field.
const INTERACTIVE_TEXT_OWNERS: [&str; 7] = [
    "a", "button", "select", "option", "textarea", "summary", "label",
];

pub(crate) struct Ctx<'a> {
    pub(crate) doc: Doc<'a>,
    pub(crate) vis: Visibility,
    /// Document index, reported as [`crate::Target::frame`].
    pub(crate) frame: usize,
    /// What relative URLs resolve against.
    pub(crate) base: Option<Url>,
    /// Structural path of the embedding frame element (with a trailing `/`), so keys of
    /// elements inside frames differ from the main document's.
    pub(crate) key_prefix: String,
    /// `<label>` element -> the control it labels.
    pub(crate) label_control: HashMap<usize, usize>,
    /// Control -> its `<label>` elements, in document order.
    pub(crate) control_labels: HashMap<usize, Vec<(usize, LabelSource)>>,
    /// Visible non-blank text nodes, in document order.
    pub(crate) texts: Vec<VisibleText>,
    /// Visible form controls and their boxes: they separate a caption from a field.
    pub(crate) control_boxes: Vec<(usize, Rect)>,
    /// The document's actions before naming: element and operation, in document order.
    pub(crate) operable: Vec<(usize, ActionKind)>,
    /// Indices into `texts` and `control_boxes` by top edge, with the tallest height of
    /// each: spatial searches look at a band of the page instead of all of it.
    pub(crate) texts_by_y: Vec<usize>,
    pub(crate) max_text_height: f64,
    pub(crate) controls_by_y: Vec<usize>,
    pub(crate) max_control_height: f64,
    /// How many elements share a tag and `name`, for selectors.
    pub(crate) name_counts: HashMap<(&'a str, &'a str), usize>,
    /// Visible radios by form owner and name, in document order.
    pub(crate) radio_groups: HashMap<(Option<usize>, &'a str), Vec<usize>>,
    /// Visible `h1`-`h4` and all `<form>` elements, in document order, for form titles.
    pub(crate) headings: Vec<usize>,
    pub(crate) form_elements: Vec<usize>,
}

pub(crate) struct VisibleText {
    pub(crate) node: usize,
    pub(crate) text: String,
    pub(crate) rect: Rect,
    /// Part of a label, a link, a button or an `aria-labelledby` target: it already
    /// belongs to something and must not caption another field.
    pub(crate) owned: bool,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(doc: Doc<'a>, vis: Visibility, key_prefix: String) -> Ctx<'a> {
        let base = Url::parse(doc.base_url())
            .or_else(|_| Url::parse(doc.url()))
            .ok();
        let mut ctx = Ctx {
            frame: doc.index,
            doc,
            vis,
            base,
            key_prefix,
            label_control: HashMap::new(),
            control_labels: HashMap::new(),
            texts: Vec::new(),
            control_boxes: Vec::new(),
            operable: Vec::new(),
            texts_by_y: Vec::new(),
            max_text_height: 0.0,
            controls_by_y: Vec::new(),
            max_control_height: 0.0,
            name_counts: HashMap::new(),
            radio_groups: HashMap::new(),
            headings: Vec::new(),
            form_elements: Vec::new(),
        };
        ctx.index_labels();
        ctx.operable = operable(&ctx);
        ctx.index_geometry();
        ctx.index_elements();
        ctx
    }

    fn index_elements(&mut self) {
        let doc = &self.doc;
        let mut name_counts: HashMap<(&'a str, &'a str), usize> = HashMap::new();
        let mut radio_groups: HashMap<(Option<usize>, &'a str), Vec<usize>> = HashMap::new();
        for n in 0..doc.len() {
            let tag = doc.tag(n);
            if tag.is_empty() {
                continue;
            }
            if let Some(name) = doc.attr(n, "name").filter(|v| !v.is_empty()) {
                // Keyed by the node name as sent (uppercase for every HTML element), which
                // borrows from the snapshot like the attribute does.
                *name_counts.entry((doc.raw_name(n), name)).or_default() += 1;
                if tag == "input"
                    && doc
                        .attr(n, "type")
                        .is_some_and(|t| t.trim().eq_ignore_ascii_case("radio"))
                    && self.vis.visible(n)
                {
                    radio_groups
                        .entry((form_owner(self, n), name))
                        .or_default()
                        .push(n);
                }
            }
            if matches!(tag, "h1" | "h2" | "h3" | "h4") && self.vis.visible(n) {
                self.headings.push(n);
            }
            if tag == "form" {
                self.form_elements.push(n);
            }
        }
        self.name_counts = name_counts;
        self.radio_groups = radio_groups;
    }

    fn index_labels(&mut self) {
        let doc = &self.doc;
        for n in 0..doc.len() {
            if doc.tag(n) != "label" {
                continue;
            }
            let (control, source) = match doc.attr(n, "for") {
                Some(id) => (
                    doc.element_by_id(id).filter(|&c| is_labelable(doc, c)),
                    LabelSource::For,
                ),
                None => (
                    doc.subtree(n)
                        .into_iter()
                        .skip(1)
                        .find(|&c| is_labelable(doc, c)),
                    LabelSource::Wrapping,
                ),
            };
            if let Some(c) = control {
                self.label_control.insert(n, c);
                self.control_labels.entry(c).or_default().push((n, source));
            }
        }
    }

    fn index_geometry(&mut self) {
        let doc = &self.doc;
        let mut labelledby_targets = vec![false; doc.len()];
        for n in 0..doc.len() {
            if let Some(ids) = doc.attr(n, "aria-labelledby") {
                for id in ids.split_ascii_whitespace() {
                    if let Some(t) = doc.element_by_id(id) {
                        labelledby_targets[t] = true;
                    }
                }
            }
        }
        let mut in_action = vec![false; doc.len()];
        for &(n, _) in &self.operable {
            if let Some(slot) = in_action.get_mut(n) {
                *slot = true;
            }
        }
        let mut texts = Vec::new();
        for n in 0..doc.len() {
            if !doc.is_text(n) || !self.vis.visible(n) {
                continue;
            }
            let text = collapse(doc.node_value(n));
            let Some(rect) = doc.rect(n) else {
                continue;
            };
            if text.is_empty() {
                continue;
            }
            let owned = doc.ancestors(n).any(|a| {
                labelledby_targets.get(a).copied().unwrap_or(false)
                    || in_action.get(a).copied().unwrap_or(false)
                    || INTERACTIVE_TEXT_OWNERS.contains(&doc.tag(a))
                    || doc.attr(a, "role").is_some_and(is_widget_role)
                    || doc.has_attr(a, "onclick")
                    || doc.has_attr(a, "contenteditable")
            });
            texts.push(VisibleText {
                node: n,
                text,
                rect,
                owned,
            });
        }
        self.texts = texts;
        self.control_boxes = (0..doc.len())
            .filter(|&n| {
                self.vis.visible(n)
                    && matches!(doc.tag(n), "input" | "select" | "textarea" | "button")
                    && is_labelable(doc, n)
            })
            .map(|n| (n, self.vis.rect(n)))
            .collect();
        self.texts_by_y = (0..self.texts.len()).collect();
        self.texts_by_y
            .sort_by(|&a, &b| self.texts[a].rect.y.total_cmp(&self.texts[b].rect.y));
        self.max_text_height = self.texts.iter().map(|t| t.rect.height).fold(0.0, f64::max);
        self.controls_by_y = (0..self.control_boxes.len()).collect();
        self.controls_by_y.sort_by(|&a, &b| {
            self.control_boxes[a]
                .1
                .y
                .total_cmp(&self.control_boxes[b].1.y)
        });
        self.max_control_height = self
            .control_boxes
            .iter()
            .map(|c| c.1.height)
            .fold(0.0, f64::max);
    }

    /// Visible texts whose top edge lies in `[top, bottom]`.
    pub(crate) fn texts_in_band(
        &self,
        top: f64,
        bottom: f64,
    ) -> impl Iterator<Item = &VisibleText> + '_ {
        let start = self
            .texts_by_y
            .partition_point(|&i| self.texts[i].rect.y < top);
        self.texts_by_y[start..]
            .iter()
            .map(|&i| &self.texts[i])
            .take_while(move |t| t.rect.y <= bottom)
    }

    /// Visible controls whose top edge lies in `[top, bottom]`.
    pub(crate) fn controls_in_band(
        &self,
        top: f64,
        bottom: f64,
    ) -> impl Iterator<Item = (usize, Rect)> + '_ {
        let start = self
            .controls_by_y
            .partition_point(|&i| self.control_boxes[i].1.y < top);
        self.controls_by_y[start..]
            .iter()
            .map(|&i| self.control_boxes[i])
            .take_while(move |c| c.1.y <= bottom)
    }

    pub(crate) fn visible(&self, n: usize) -> bool {
        self.vis.visible(n)
    }

    pub(crate) fn enabled(&self, n: usize) -> bool {
        self.vis.enabled(n)
    }

    pub(crate) fn rect(&self, n: usize) -> Rect {
        self.vis.rect(n)
    }

    /// Text content as rendered (name from content).
    pub(crate) fn visible_text(&self, n: usize) -> String {
        text_content(
            &self.doc,
            &self.vis,
            n,
            TextOptions {
                visible_only: true,
                skip_controls: false,
            },
        )
    }

    /// Text content including hidden parts, without controls' own text (label text).
    pub(crate) fn label_text(&self, n: usize) -> String {
        text_content(
            &self.doc,
            &self.vis,
            n,
            TextOptions {
                visible_only: false,
                skip_controls: true,
            },
        )
    }

    /// The concatenated texts of the elements an `aria-labelledby` value names.
    pub(crate) fn labelledby_text(&self, n: usize) -> Option<String> {
        let ids = self.doc.attr(n, "aria-labelledby")?;
        let parts: Vec<String> = ids
            .split_ascii_whitespace()
            .filter_map(|id| self.doc.element_by_id(id))
            .map(|t| {
                self.doc
                    .attr_nonblank(t, "aria-label")
                    .map(collapse)
                    .unwrap_or_else(|| self.label_text(t))
            })
            .filter(|t| !t.is_empty())
            .collect();
        let joined = parts.join(" ");
        (!joined.is_empty()).then_some(joined)
    }

    /// `href`/`action` resolved against the document's base URL; the raw value if it
    /// cannot be resolved.
    pub(crate) fn resolve(&self, raw: &str) -> String {
        let raw = raw.trim();
        match &self.base {
            Some(base) => base
                .join(raw)
                .map(String::from)
                .unwrap_or_else(|_| raw.to_string()),
            None => Url::parse(raw)
                .map(String::from)
                .unwrap_or_else(|_| raw.to_string()),
        }
    }
}

pub(crate) fn is_labelable(doc: &Doc<'_>, n: usize) -> bool {
    let tag = doc.tag(n);
    LABELABLE.contains(&tag)
        && !(tag == "input"
            && doc
                .attr(n, "type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden")))
}
