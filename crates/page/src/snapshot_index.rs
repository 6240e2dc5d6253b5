//! Random access over one document of a snapshot.
//!
//! The wire format is a set of parallel arrays keyed by node or layout index, with strings
//! interned in a shared table and rare properties stored sparsely. Everything here is
//! checked: a snapshot comes from an arbitrary web page (and possibly a different Chromium
//! than the one we tested with), so a missing entry, an out-of-range index or a parent
//! pointing forward must degrade to "absent", never panic or loop.

use std::collections::HashMap;

use crate::dom::{DocumentSnapshot, DomSnapshot, RareBooleanData, RareStringData};
use crate::model::Rect;

pub(crate) const ELEMENT_NODE: i64 = 1;
pub(crate) const TEXT_NODE: i64 = 3;
pub(crate) const DOCUMENT_FRAGMENT_NODE: i64 = 11;

/// Positions in [`crate::COMPUTED_STYLES`].
const STYLE_DISPLAY: usize = 0;
const STYLE_VISIBILITY: usize = 1;
const STYLE_OPACITY: usize = 2;
const STYLE_CURSOR: usize = 3;

/// One document of a snapshot, with the lookups the page model needs precomputed.
pub(crate) struct Doc<'a> {
    /// Index of this document in [`DomSnapshot::documents`].
    pub(crate) index: usize,
    strings: &'a [String],
    raw: &'a DocumentSnapshot,
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    /// Lowercase tag for element nodes (pseudo elements excluded), empty otherwise.
    tags: Vec<String>,
    node_type: Vec<i64>,
    pseudo: Vec<bool>,
    /// Inside a shadow tree (Chromium 156 flattens shadow roots: their children hang
    /// directly under the host, flagged in `shadowRootType`).
    shadow: Vec<bool>,
    attrs: Vec<Vec<(&'a str, &'a str)>>,
    /// See [`Doc::nth_of_type`].
    type_position: Vec<(usize, usize)>,
    /// The node's first layout object, which carries its computed style.
    layout: Vec<Option<usize>>,
    /// Union of the bounds of all the node's layout objects.
    rect: Vec<Option<Rect>>,
    input_value: Vec<Option<&'a str>>,
    text_value: Vec<Option<&'a str>>,
    input_checked: Vec<bool>,
    option_selected: Vec<bool>,
    clickable: Vec<bool>,
    content_document: Vec<Option<usize>>,
    ids: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Doc<'a> {
    pub(crate) fn new(snapshot: &'a DomSnapshot, index: usize) -> Option<Doc<'a>> {
        let raw = snapshot.documents.get(index)?;
        let strings = snapshot.strings.as_slice();
        let nodes = &raw.nodes;
        let len = nodes.parent_index.len();
        let lookup = |i: i64| -> Option<&'a str> {
            usize::try_from(i)
                .ok()
                .and_then(|i| strings.get(i))
                .map(String::as_str)
        };

        // Pre-order means a parent always comes before its children; anything else is
        // treated as a root so that ancestor walks always terminate.
        let parent: Vec<Option<usize>> = nodes
            .parent_index
            .iter()
            .enumerate()
            .map(|(i, &p)| usize::try_from(p).ok().filter(|&p| p < i))
            .collect();
        let mut children = vec![Vec::new(); len];
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = *p {
                children[p].push(i);
            }
        }

        let node_type: Vec<i64> = (0..len)
            .map(|i| nodes.node_type.get(i).copied().unwrap_or(0))
            .collect();
        let mut pseudo = sparse_flags(&nodes.pseudo_type.index, len);
        let mut tags = Vec::with_capacity(len);
        for i in 0..len {
            let name = nodes
                .node_name
                .get(i)
                .and_then(|&s| lookup(s))
                .unwrap_or("");
            if name.starts_with("::") {
                pseudo[i] = true;
            }
            if node_type[i] == ELEMENT_NODE && !pseudo[i] {
                tags.push(name.to_ascii_lowercase());
            } else {
                tags.push(String::new());
            }
        }

        let attrs: Vec<Vec<(&'a str, &'a str)>> = (0..len)
            .map(|i| {
                let Some(pairs) = nodes.attributes.get(i) else {
                    return Vec::new();
                };
                pairs
                    .chunks_exact(2)
                    .filter_map(|kv| {
                        let name = lookup(kv[0])?;
                        // Chromium leaves "" out of the string table and sends -1 instead,
                        // so a missing value is an empty one, not an absent attribute.
                        Some((name, lookup(kv[1]).unwrap_or("")))
                    })
                    .collect()
            })
            .collect();

        let shadow = sparse_flags(&nodes.shadow_root_type.index, len);
        let mut type_position = vec![(1, 1); len];
        for kids in &children {
            let mut counts: HashMap<(&str, bool), usize> = HashMap::new();
            for &k in kids {
                if !tags[k].is_empty() {
                    let c = counts.entry((tags[k].as_str(), shadow[k])).or_default();
                    *c += 1;
                    type_position[k].0 = *c;
                }
            }
            for &k in kids {
                if let Some(&c) = counts.get(&(tags[k].as_str(), shadow[k])) {
                    type_position[k].1 = c;
                }
            }
        }

        let layout_tree = &raw.layout;
        let mut layout = vec![None; len];
        let mut rect: Vec<Option<Rect>> = vec![None; len];
        for (li, &ni) in layout_tree.node_index.iter().enumerate() {
            let Some(ni) = usize::try_from(ni).ok().filter(|&n| n < len) else {
                continue;
            };
            if layout[ni].is_none() {
                layout[ni] = Some(li);
            }
            if let Some(r) = layout_tree.bounds.get(li).and_then(|b| rect_from(b)) {
                rect[ni] = Some(match rect[ni] {
                    Some(prev) => union(prev, r),
                    None => r,
                });
            }
        }

        let mut ids: HashMap<&'a str, Vec<usize>> = HashMap::new();
        for (i, a) in attrs.iter().enumerate() {
            if tags[i].is_empty() {
                continue;
            }
            let id = a.iter().find(|(k, _)| k.eq_ignore_ascii_case("id"));
            if let Some(&(_, v)) = id.filter(|(_, v)| !v.is_empty()) {
                ids.entry(v).or_default().push(i);
            }
        }

        let mut content_document = vec![None; len];
        let cdi = &nodes.content_document_index;
        for (k, &ni) in cdi.index.iter().enumerate() {
            let (Some(ni), Some(doc)) = (
                usize::try_from(ni).ok().filter(|&n| n < len),
                cdi.value.get(k).and_then(|&d| usize::try_from(d).ok()),
            ) else {
                continue;
            };
            content_document[ni] = Some(doc);
        }

        Some(Doc {
            index,
            strings,
            raw,
            parent,
            children,
            tags,
            node_type,
            pseudo,
            shadow,
            attrs,
            type_position,
            layout,
            rect,
            input_value: sparse_strings(&nodes.input_value, len, strings),
            text_value: sparse_strings(&nodes.text_value, len, strings),
            input_checked: sparse_flags_of(&nodes.input_checked, len),
            option_selected: sparse_flags_of(&nodes.option_selected, len),
            clickable: sparse_flags_of(&nodes.is_clickable, len),
            content_document,
            ids,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    pub(crate) fn string(&self, i: i64) -> Option<&'a str> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.strings.get(i))
            .map(String::as_str)
    }

    pub(crate) fn url(&self) -> &'a str {
        self.string(self.raw.document_url).unwrap_or("")
    }

    pub(crate) fn base_url(&self) -> &'a str {
        self.string(self.raw.base_url).unwrap_or("")
    }

    pub(crate) fn title(&self) -> &'a str {
        self.string(self.raw.title).unwrap_or("")
    }

    pub(crate) fn parent(&self, n: usize) -> Option<usize> {
        self.parent.get(n).copied().flatten()
    }

    pub(crate) fn children(&self, n: usize) -> &[usize] {
        self.children.get(n).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Ancestors from the parent up to the root.
    pub(crate) fn ancestors(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.parent(n), move |&p| self.parent(p))
    }

    /// Whether `ancestor` is a proper ancestor of `n`.
    pub(crate) fn is_ancestor(&self, ancestor: usize, n: usize) -> bool {
        // Descendants follow their ancestors in pre-order, which makes most checks cheap.
        ancestor < n && self.ancestors(n).any(|a| a == ancestor)
    }

    /// `n` and everything below it, in document order.
    pub(crate) fn subtree(&self, n: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            out.push(x);
            stack.extend(self.children(x).iter().rev());
        }
        out
    }

    /// Like [`Doc::subtree`], or `None` once it has more than `limit` nodes.
    pub(crate) fn subtree_limited(&self, n: usize, limit: usize) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(x) = stack.pop() {
            if out.len() >= limit {
                return None;
            }
            out.push(x);
            stack.extend(self.children(x).iter().rev());
        }
        Some(out)
    }

    pub(crate) fn node_type(&self, n: usize) -> i64 {
        self.node_type.get(n).copied().unwrap_or(0)
    }

    /// A real element (not a pseudo element like `::marker`).
    pub(crate) fn is_element(&self, n: usize) -> bool {
        !self.tag(n).is_empty()
    }

    pub(crate) fn is_text(&self, n: usize) -> bool {
        self.node_type(n) == TEXT_NODE && !self.pseudo.get(n).copied().unwrap_or(false)
    }

    pub(crate) fn in_shadow_tree(&self, n: usize) -> bool {
        self.shadow.get(n).copied().unwrap_or(false)
    }

    /// Whether `n` is a top-level node of a shadow tree, whose parent is the host (or a
    /// shadow root node, in snapshots that include those).
    pub(crate) fn crosses_shadow_boundary(&self, n: usize) -> bool {
        match self.parent(n) {
            Some(p) => {
                self.node_type(p) == DOCUMENT_FRAGMENT_NODE
                    || (self.in_shadow_tree(n) && !self.in_shadow_tree(p))
            }
            None => false,
        }
    }

    /// `n`'s 1-based position among its element siblings with the same tag in the same
    /// tree, and how many there are: what `:nth-of-type` counts.
    pub(crate) fn nth_of_type(&self, n: usize) -> (usize, usize) {
        self.type_position.get(n).copied().unwrap_or((1, 1))
    }

    /// The node name as sent: uppercase for HTML elements, as written for SVG and MathML.
    pub(crate) fn raw_name(&self, n: usize) -> &'a str {
        self.raw
            .nodes
            .node_name
            .get(n)
            .and_then(|&s| self.string(s))
            .unwrap_or("")
    }

    /// Lowercase tag name; empty for anything but an element.
    pub(crate) fn tag(&self, n: usize) -> &str {
        self.tags.get(n).map(String::as_str).unwrap_or("")
    }

    pub(crate) fn node_value(&self, n: usize) -> &'a str {
        self.raw
            .nodes
            .node_value
            .get(n)
            .and_then(|&s| self.string(s))
            .unwrap_or("")
    }

    pub(crate) fn backend_node_id(&self, n: usize) -> i64 {
        self.raw.nodes.backend_node_id.get(n).copied().unwrap_or(0)
    }

    pub(crate) fn attr(&self, n: usize, name: &str) -> Option<&'a str> {
        self.attrs
            .get(n)?
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }

    pub(crate) fn has_attr(&self, n: usize, name: &str) -> bool {
        self.attr(n, name).is_some()
    }

    /// The attribute with surrounding whitespace removed, or `None` when absent or blank.
    pub(crate) fn attr_nonblank(&self, n: usize, name: &str) -> Option<&'a str> {
        self.attr(n, name).map(str::trim).filter(|v| !v.is_empty())
    }

    /// Elements whose `id` is exactly `id`.
    pub(crate) fn elements_with_id(&self, id: &str) -> &[usize] {
        self.ids.get(id).map(Vec::as_slice).unwrap_or(&[])
    }

    pub(crate) fn element_by_id(&self, id: &str) -> Option<usize> {
        self.elements_with_id(id).first().copied()
    }

    pub(crate) fn layout(&self, n: usize) -> Option<usize> {
        self.layout.get(n).copied().flatten()
    }

    /// The node's layout bounds (union over its layout objects).
    pub(crate) fn rect(&self, n: usize) -> Option<Rect> {
        self.rect.get(n).copied().flatten()
    }

    fn style(&self, n: usize, which: usize) -> Option<&'a str> {
        let li = self.layout(n)?;
        let s = *self.raw.layout.styles.get(li)?.get(which)?;
        self.string(s)
    }

    pub(crate) fn display(&self, n: usize) -> Option<&'a str> {
        self.style(n, STYLE_DISPLAY)
    }

    pub(crate) fn visibility(&self, n: usize) -> Option<&'a str> {
        self.style(n, STYLE_VISIBILITY)
    }

    /// Computed opacity; `None` without a layout object or an unparsable value.
    pub(crate) fn opacity(&self, n: usize) -> Option<f64> {
        self.style(n, STYLE_OPACITY)?.trim().parse().ok()
    }

    pub(crate) fn cursor(&self, n: usize) -> Option<&'a str> {
        self.style(n, STYLE_CURSOR)
    }

    pub(crate) fn input_value(&self, n: usize) -> Option<&'a str> {
        self.input_value.get(n).copied().flatten()
    }

    pub(crate) fn text_value(&self, n: usize) -> Option<&'a str> {
        self.text_value.get(n).copied().flatten()
    }

    pub(crate) fn input_checked(&self, n: usize) -> bool {
        self.input_checked.get(n).copied().unwrap_or(false)
    }

    pub(crate) fn option_selected(&self, n: usize) -> bool {
        self.option_selected.get(n).copied().unwrap_or(false)
    }

    pub(crate) fn is_clickable(&self, n: usize) -> bool {
        self.clickable.get(n).copied().unwrap_or(false)
    }

    pub(crate) fn content_document(&self, n: usize) -> Option<usize> {
        self.content_document.get(n).copied().flatten()
    }
}

fn sparse_flags(index: &[i64], len: usize) -> Vec<bool> {
    let mut out = vec![false; len];
    for &i in index {
        if let Some(slot) = usize::try_from(i).ok().and_then(|i| out.get_mut(i)) {
            *slot = true;
        }
    }
    out
}

fn sparse_flags_of(data: &RareBooleanData, len: usize) -> Vec<bool> {
    sparse_flags(&data.index, len)
}

fn sparse_strings<'a>(
    data: &RareStringData,
    len: usize,
    strings: &'a [String],
) -> Vec<Option<&'a str>> {
    let mut out = vec![None; len];
    for (k, &i) in data.index.iter().enumerate() {
        let Some(slot) = usize::try_from(i).ok().and_then(|i| out.get_mut(i)) else {
            continue;
        };
        // A present entry with -1 is an empty value (see `Doc::new` on attributes).
        let value = data
            .value
            .get(k)
            .and_then(|&s| usize::try_from(s).ok())
            .and_then(|s| strings.get(s))
            .map(String::as_str)
            .unwrap_or("");
        *slot = Some(value);
    }
    out
}

pub(crate) fn rect_from(b: &[f64]) -> Option<Rect> {
    match b {
        [x, y, width, height, ..] if [x, y, width, height].iter().all(|v| v.is_finite()) => {
            Some(Rect {
                x: *x,
                y: *y,
                width: *width,
                height: *height,
            })
        }
        _ => None,
    }
}

pub(crate) fn union(a: Rect, b: Rect) -> Rect {
    if is_empty(a) {
        return b;
    }
    if is_empty(b) {
        return a;
    }
    let x = a.x.min(b.x);
    let y = a.y.min(b.y);
    let right = (a.x + a.width).max(b.x + b.width);
    let bottom = (a.y + a.height).max(b.y + b.height);
    Rect {
        x,
        y,
        width: right - x,
        height: bottom - y,
    }
}

fn is_empty(r: Rect) -> bool {
    !(r.width > 0.0 && r.height > 0.0)
}
