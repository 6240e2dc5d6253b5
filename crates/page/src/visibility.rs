//! Which nodes a user can see and which controls a user can operate.
//!
//! Visibility uses only what the snapshot's layout tree says: a node without a layout
//! object is not rendered (`display: none`, closed `<details>`, `<head>` ...). `visibility`
//! is inherited but can be overridden by a child, so only the node's own value counts,
//! whereas opacity multiplies down the tree and the snapshot reports each element's own
//! value, so every ancestor has to be checked.

use crate::model::Rect;
use crate::snapshot_index::{Doc, union};

pub(crate) struct Visibility {
    visible: Vec<bool>,
    enabled: Vec<bool>,
    /// Own box if non-empty, else the union of visible descendants' boxes: an inline `<a>`
    /// wrapping only a block or a positioned child can report an empty box of its own.
    boxes: Vec<Option<Rect>>,
}

impl Visibility {
    pub(crate) fn compute(doc: &Doc<'_>) -> Visibility {
        let len = doc.len();

        // Parents precede children, so one forward pass settles the inherited parts.
        let mut opaque = vec![false; len];
        let mut context_disabled = vec![false; len];
        for n in 0..len {
            let parent = doc.parent(n);
            let parent_opaque = parent.is_none_or(|p| opaque[p]);
            // Nodes without a layout object (display: contents, text without a box) have
            // no opacity of their own and simply pass the ancestors' on.
            opaque[n] = parent_opaque && doc.opacity(n).is_none_or(|o| o > 0.0);
            if let Some(p) = parent {
                context_disabled[n] = context_disabled[p]
                    || (doc.tag(p) == "fieldset"
                        && doc.has_attr(p, "disabled")
                        && first_legend(doc, p) != Some(n))
                    || aria_disabled(doc, p);
            }
        }

        let rendered: Vec<bool> = (0..len)
            .map(|n| {
                doc.layout(n).is_some()
                    && opaque[n]
                    && doc.display(n) != Some("none")
                    && !matches!(doc.visibility(n), Some("hidden" | "collapse"))
            })
            .collect();

        // Children follow parents, so walking backwards sees every subtree before its root.
        let mut boxes: Vec<Option<Rect>> = vec![None; len];
        for n in (0..len).rev() {
            let own = doc.rect(n).filter(|r| rendered[n] && perceivable(*r));
            let counts =
                doc.is_element(n) || (doc.is_text(n) && !doc.node_value(n).trim().is_empty());
            let mine = if counts { own } else { None };
            let below = doc
                .children(n)
                .iter()
                .filter_map(|&c| boxes[c])
                .reduce(union);
            boxes[n] = match (mine, below) {
                (Some(m), _) => Some(m),
                // Without a layout object of its own (`display: contents`) an element still
                // shows its children.
                (None, b) if opaque[n] && doc.display(n) != Some("none") => b,
                _ => None,
            };
        }

        let visible: Vec<bool> = (0..len)
            .map(|n| {
                if doc.is_text(n) {
                    rendered[n]
                        && !doc.node_value(n).trim().is_empty()
                        && doc.rect(n).is_some_and(perceivable)
                } else {
                    rendered[n] && boxes[n].is_some()
                }
            })
            .collect();

        let enabled: Vec<bool> = (0..len)
            .map(|n| !context_disabled[n] && !doc.has_attr(n, "disabled") && !aria_disabled(doc, n))
            .collect();

        Visibility {
            visible,
            enabled,
            boxes,
        }
    }

    pub(crate) fn visible(&self, n: usize) -> bool {
        self.visible.get(n).copied().unwrap_or(false)
    }

    pub(crate) fn enabled(&self, n: usize) -> bool {
        self.enabled.get(n).copied().unwrap_or(false)
    }

    /// The box to report for a visible element.
    pub(crate) fn rect(&self, n: usize) -> Rect {
        self.boxes.get(n).copied().flatten().unwrap_or_default()
    }
}

/// Big enough to see and at least partly on the page: skip links parked at
/// `left: -9999px` and 1px screen-reader-only boxes are not for the eye.
fn perceivable(r: Rect) -> bool {
    r.width > 1.0 && r.height > 1.0 && r.x + r.width > 0.0 && r.y + r.height > 0.0
}

fn aria_disabled(doc: &Doc<'_>, n: usize) -> bool {
    doc.attr(n, "aria-disabled")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// A disabled fieldset leaves the controls in its first `<legend>` child usable.
fn first_legend(doc: &Doc<'_>, fieldset: usize) -> Option<usize> {
    doc.children(fieldset)
        .iter()
        .copied()
        .find(|&c| doc.tag(c) == "legend")
}
