//! The Form Entity Relation Graph (FERG) of FormNexus: which texts around a form belong
//! to which field (its local context), and which fields belong together.
//!
//! Nodes are the form's fields and the text-bearing elements around them (labels,
//! hints, headings, messages) from a [`FormDom`]. Edges join `<label for>` /
//! `aria-labelledby` / `aria-describedby` pairs, DOM neighbours (parent and child, and
//! adjacent siblings, through the tree with chains of wrapper elements compressed away),
//! and visual neighbours (the nearest node left, right, above and below whose box
//! overlaps in the other axis). An edge weighs `0.5 cos(text) + 0.5 cos(structure)`:
//! text embeddings from a [`TextEmbedder`], structure from [`node2vec`] on the DOM tree;
//! structure alone when a node has no words.
//!
//! Pruning follows the paper: every text keeps only its best field (an explicit label
//! relation always wins), and text-to-text edges below `mean + 0.5 std` of their weights
//! are dropped. Each text then belongs to at most one field, the one it is most strongly
//! tied to, directly or through one other text (a path weighing the product of its two
//! edges): that is the field's local context ([`Ferg::context`]). Related fields
//! ([`Ferg::related`]) score `max(sim(label1, label2), sim(input1, input2))`, filtered
//! with the same `mean + 0.5 std` rule; two nodes with the same words (the "From" of
//! every leg of a multi-city form) compare by structure alone there. A radio group is one
//! field whose node is its first radio; the other radios stand for it in the tree and on
//! the screen, so each option's label finds the group. New texts, such as validation
//! messages after a submission, go to the nearest field with nothing in between, or to
//! none ([`Ferg::attach`]).
//!
//! Deterministic for a seed: no hash-map iteration decides anything.

use std::collections::HashMap;
use std::fmt::Write as _;

use curio_page::{DomNode, Form, FormDom, LabelSource, Rect};

use crate::embed::{LexicalEmbedder, TextEmbedder, cosine};
use crate::node2vec::{Node2VecConfig, node2vec, tree_adjacency};

#[cfg(test)]
mod tests;

/// The paper's lambda: an uncertain edge survives when its weight is at least
/// `mean + LAMBDA * std` of its kind.
pub const LAMBDA: f32 = 0.5;
/// Share of the text similarity in an edge weight (the rest is structure), as in the
/// authors' code.
pub const TEXT_SHARE: f32 = 0.5;
/// A visual neighbour further than this (CSS pixels, gap between boxes) is not a
/// neighbour: wide enough for a table's label column, not for the other side of a page.
const MAX_VISUAL_GAP: f64 = 300.0;
/// Slack for sub-pixel layout when comparing box edges.
const EDGE_SLACK: f64 = 2.0;
/// Smallest overlap (CSS pixels) of two boxes' projections for them to face each other.
const MIN_OVERLAP: f64 = 1.0;
/// A message further than this from every field (after [`ABOVE_PENALTY`]) is about the
/// form as a whole: about one form row.
const ATTACH_RANGE: f64 = 48.0;
/// Distance at which a message's proximity score halves.
const ATTACH_SCALE: f64 = 12.0;
/// Messages go below or right of their field; one above or left counts as this much
/// further away.
const ABOVE_PENALTY: f64 = 1.25;
/// Share of proximity (the rest is wording) in choosing a message's field.
const ATTACH_PROXIMITY_SHARE: f64 = 0.6;

/// What a graph node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FergNodeKind {
    /// The field at this index of [`Form::fields`].
    Field(usize),
    /// A text: a label, hint, heading or message.
    Text,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FergNode {
    pub kind: FergNodeKind,
    /// The element in [`FormDom::nodes`]; `None` for a field missing from the tree.
    pub dom: Option<usize>,
    /// A text node's text; for a field, the words of its markup (name, id, placeholder,
    /// `aria-label`, title, autocomplete, a telling type) that its text embedding is of.
    pub text: String,
    /// The text's own box for texts, the control's box for fields.
    pub rect: Rect,
}

/// Why two nodes are joined; one edge can have several reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum EdgeKind {
    /// A `<label>` (by `for` or wrapping) or an `aria-labelledby` target and its field.
    LabelFor,
    /// An `aria-describedby` / `aria-errormessage` target and its field.
    Describes,
    /// Parent and child, or adjacent siblings, in the compressed DOM tree.
    Structure,
    /// `b` is the nearest node left of `a` (right, above, below alike).
    Left,
    Right,
    Above,
    Below,
}

impl EdgeKind {
    fn flipped(self) -> EdgeKind {
        match self {
            EdgeKind::Left => EdgeKind::Right,
            EdgeKind::Right => EdgeKind::Left,
            EdgeKind::Above => EdgeKind::Below,
            EdgeKind::Below => EdgeKind::Above,
            k => k,
        }
    }

    fn explicit(self) -> bool {
        matches!(self, EdgeKind::LabelFor | EdgeKind::Describes)
    }
}

/// An undirected edge, `a < b`; directions in `kinds` are as seen from `a`.
#[derive(Debug, Clone, PartialEq)]
pub struct FergEdge {
    pub a: usize,
    pub b: usize,
    /// Sorted, without repeats.
    pub kinds: Vec<EdgeKind>,
    pub weight: f32,
    /// Survived pruning.
    pub kept: bool,
}

impl FergEdge {
    fn explicit(&self) -> bool {
        self.kinds.iter().any(|k| k.explicit())
    }
}

/// Settings of [`Ferg::build_with`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FergConfig {
    pub node2vec: Node2VecConfig,
}

/// How a text came to a field's local context.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Owner {
    field: usize,
    score: f32,
    /// Its edge to the field is explicit (`label for`, `aria-*`): rank 0 for labels,
    /// 1 for descriptions, 2 otherwise.
    rank: u8,
}

/// The form entity relation graph of one form. See the module documentation.
#[derive(Debug, Clone)]
pub struct Ferg {
    nodes: Vec<FergNode>,
    edges: Vec<FergEdge>,
    text_emb: Vec<Vec<f32>>,
    struct_emb: Vec<Option<Vec<f32>>>,
    /// Field index -> graph node.
    field_nodes: Vec<usize>,
    /// Per node, every box it occupies: its [`FergNode::rect`] first, then for a radio
    /// group the other radios' boxes.
    boxes: Vec<Vec<Rect>>,
    /// DOM elements that stand for a field besides its own node: the other radios of a
    /// radio group, as `(dom, graph node)`.
    members: Vec<(usize, usize)>,
    /// Per field, the names its markup gives it: `aria-label`, and placeholder or title.
    attribute_labels: Vec<(Option<String>, Option<String>)>,
    /// Per field: context texts (graph nodes), best first.
    context: Vec<Vec<(usize, f32)>>,
    /// Per field: related fields, most related first.
    related: Vec<Vec<(usize, f32)>>,
    related_threshold: Option<f32>,
    text_threshold: Option<f32>,
    embedder: String,
}

impl Ferg {
    /// The graph of `form` on its DOM `dom` (from [`curio_page::form_dom`]), with default
    /// settings; `seed` seeds node2vec.
    pub fn build(form: &Form, dom: &FormDom, embedder: &dyn TextEmbedder, seed: u64) -> Ferg {
        Ferg::build_with(form, dom, embedder, seed, &FergConfig::default())
    }

    pub fn build_with(
        form: &Form,
        dom: &FormDom,
        embedder: &dyn TextEmbedder,
        seed: u64,
        config: &FergConfig,
    ) -> Ferg {
        let mut ferg = Builder::new(form, dom).nodes();
        ferg.embedder = embedder.name().to_string();
        ferg.text_emb = ferg.nodes.iter().map(|n| embedder.embed(&n.text)).collect();
        let parents: Vec<Option<usize>> = dom.nodes.iter().map(|n| n.parent).collect();
        let structure = node2vec(&tree_adjacency(&parents), &config.node2vec, seed);
        ferg.struct_emb = ferg
            .nodes
            .iter()
            .map(|n| n.dom.and_then(|d| structure.get(d).cloned()))
            .collect();
        ferg.edges = edges(&ferg, dom, form.fields.len());
        for e in &mut ferg.edges {
            e.weight = sim_of(&ferg.text_emb, &ferg.struct_emb, e.a, e.b);
        }
        ferg.prune();
        ferg.assign_context();
        ferg.relate();
        ferg
    }

    /// The graph's nodes: fields first (in field order), then texts in document order.
    pub fn nodes(&self) -> &[FergNode] {
        &self.nodes
    }

    /// All edges found, with their weights and whether they survived pruning.
    pub fn edges(&self) -> &[FergEdge] {
        &self.edges
    }

    /// The similarity of two graph nodes: `0.5 cos(text) + 0.5 cos(structure)`, one of
    /// them alone when the other is missing for either node.
    pub fn similarity(&self, a: usize, b: usize) -> f32 {
        sim_of(&self.text_emb, &self.struct_emb, a, b)
    }

    /// The graph node of field `field`.
    pub fn field_node(&self, field: usize) -> Option<usize> {
        self.field_nodes.get(field).copied()
    }

    /// The local context of field `field`, best first: its label (`<label for>` or
    /// `aria-labelledby` texts; else its `aria-label`, then the attached text where
    /// labels go, left of it or above; else its placeholder or title), then its
    /// descriptions, then the other texts attached to it, most related first.
    pub fn context(&self, field: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let Some(list) = self.context.get(field) else {
            return out;
        };
        let f = self.field_nodes[field];
        let explicit = |t: usize| {
            self.edge(f, t)
                .is_some_and(|e| e.kinds.contains(&EdgeKind::LabelFor))
        };
        let mut push = |text: &str| {
            if !out.iter().any(|o| o == text) {
                out.push(text.to_string());
            }
        };
        if !list.first().is_some_and(|&(t, _)| explicit(t)) {
            let (aria, fallback) = &self.attribute_labels[field];
            let label = self.label_node(field);
            if let Some(a) = aria {
                push(a);
            }
            match label {
                Some(t) => push(&self.nodes[t].text),
                None => {
                    if let Some(p) = fallback.as_deref().filter(|_| aria.is_none()) {
                        push(p);
                    }
                }
            }
        }
        for &(t, _) in list {
            push(&self.nodes[t].text);
        }
        out
    }

    /// The texts of [`Ferg::context`] as graph nodes with their scores (no attribute
    /// label).
    pub fn context_nodes(&self, field: usize) -> &[(usize, f32)] {
        self.context.get(field).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The best label of `field` among the page's texts, if one is attached.
    pub fn label(&self, field: usize) -> Option<&str> {
        self.label_node(field).map(|t| self.nodes[t].text.as_str())
    }

    /// Fields related to `field` with their scores, most related first.
    pub fn related(&self, field: usize) -> Vec<(usize, f32)> {
        self.related.get(field).cloned().unwrap_or_default()
    }

    /// The field a new text (a validation message that appeared after a submission)
    /// belongs to: the nearest field with nothing in between, within about a form row,
    /// wording breaking near-ties; `None` when no field is that close (a banner, a
    /// summary: feedback about the form as a whole) and when `rect` is empty. Wording
    /// is compared with [`LexicalEmbedder`] whatever embedder built the graph (see
    /// [`Ferg::attach_with`]); `rect` is in the coordinates of the snapshot the graph
    /// was built from, so a message that moved the fields is best attached by a graph
    /// built on the new snapshot.
    pub fn attach(&self, text: &str, rect: Rect) -> Option<usize> {
        self.attach_with(&LexicalEmbedder, text, rect)
    }

    /// [`Ferg::attach`] comparing wording with `embedder`.
    pub fn attach_with(
        &self,
        embedder: &dyn TextEmbedder,
        text: &str,
        rect: Rect,
    ) -> Option<usize> {
        if !rect.has_area() {
            return None;
        }
        let message = embedder.embed(text);
        let mut best: Option<(f64, usize)> = None;
        for field in 0..self.field_nodes.len() {
            let f = self.field_nodes[field];
            let frect = self.nodes[f].rect;
            if !frect.has_area() {
                continue;
            }
            // The field and its texts beside and below it (a checkbox's label, a hint):
            // not those above, which a message below the field's row never follows.
            let mut region = vec![f];
            region.extend(self.context[field].iter().map(|&(t, _)| t).filter(|&t| {
                let r = self.nodes[t].rect;
                r.y + r.height > frect.y + EDGE_SLACK
            }));
            let targets = region
                .iter()
                .flat_map(|&r| self.boxes[r].iter().copied())
                .filter(|&r| r.has_area());
            let mut nearest: Option<f64> = None;
            for target in targets {
                let blocked = self.nodes.iter().enumerate().any(|(k, node)| {
                    // The message itself, when the graph was built after it appeared.
                    let itself = node.text == text && intersects(node.rect, rect);
                    !region.contains(&k)
                        && !itself
                        && intersects(node.rect, between_box(rect, target))
                });
                if blocked {
                    continue;
                }
                let mut d = gap(rect, target);
                if rect.y + rect.height <= target.y + EDGE_SLACK
                    || rect.x + rect.width <= target.x + EDGE_SLACK
                {
                    d *= ABOVE_PENALTY;
                }
                nearest = Some(nearest.map_or(d, |n: f64| n.min(d)));
            }
            let Some(d) = nearest.filter(|&d| d <= ATTACH_RANGE) else {
                continue;
            };
            let wording = std::iter::once(self.nodes[f].text.as_str())
                .chain(
                    self.context[field]
                        .iter()
                        .map(|&(t, _)| self.nodes[t].text.as_str()),
                )
                .chain(self.attribute_labels[field].0.as_deref())
                .chain(self.attribute_labels[field].1.as_deref())
                .map(|t| cosine(&message, &embedder.embed(t)))
                .fold(0.0f32, f32::max);
            let proximity = 1.0 / (1.0 + d / ATTACH_SCALE);
            let score = ATTACH_PROXIMITY_SHARE * proximity
                + (1.0 - ATTACH_PROXIMITY_SHARE) * f64::from(wording.max(0.0));
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, field));
            }
        }
        best.map(|(_, field)| field)
    }

    /// A human-readable dump: nodes, kept edges, each field's context and relations.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "FERG: {} nodes ({} fields), {} edges ({} kept), embedder {}, text threshold {}, related threshold {}",
            self.nodes.len(),
            self.field_nodes.len(),
            self.edges.len(),
            self.edges.iter().filter(|e| e.kept).count(),
            self.embedder,
            fmt_opt(self.text_threshold),
            fmt_opt(self.related_threshold),
        );
        for (i, n) in self.nodes.iter().enumerate() {
            let kind = match n.kind {
                FergNodeKind::Field(f) => format!("field {f}"),
                FergNodeKind::Text => "text".to_string(),
            };
            let _ = writeln!(
                out,
                "  n{i} {kind} {:?} @({:.0},{:.0} {:.0}x{:.0})",
                n.text, n.rect.x, n.rect.y, n.rect.width, n.rect.height
            );
        }
        for e in self.edges.iter().filter(|e| e.kept) {
            let _ = writeln!(out, "  n{} -- n{} {:?} {:.3}", e.a, e.b, e.kinds, e.weight);
        }
        for field in 0..self.field_nodes.len() {
            let related: Vec<String> = self.related[field]
                .iter()
                .map(|(j, s)| format!("{j} ({s:.3})"))
                .collect();
            let _ = writeln!(
                out,
                "  field {field}: context {:?}; related [{}]",
                self.context(field),
                related.join(", ")
            );
        }
        out
    }

    fn edge(&self, a: usize, b: usize) -> Option<&FergEdge> {
        let (a, b) = (a.min(b), a.max(b));
        self.edges.iter().find(|e| e.a == a && e.b == b)
    }

    fn is_field(&self, n: usize) -> bool {
        matches!(self.nodes[n].kind, FergNodeKind::Field(_))
    }

    /// Each text keeps its explicit field edges, else its best field edge; text-text
    /// edges keep `mean + LAMBDA std` and up; field-field edges stay (unused here).
    fn prune(&mut self) {
        let n = self.nodes.len();
        let mut best: Vec<Option<(usize, f32)>> = vec![None; n];
        let mut explicit: Vec<bool> = vec![false; n];
        for (i, e) in self.edges.iter().enumerate() {
            let (fa, fb) = (self.is_field(e.a), self.is_field(e.b));
            if fa == fb {
                continue;
            }
            let t = if fa { e.b } else { e.a };
            explicit[t] |= e.explicit();
            if best[t].is_none_or(|(_, w)| e.weight > w) {
                best[t] = Some((i, e.weight));
            }
        }
        let weights: Vec<f32> = self
            .edges
            .iter()
            .filter(|e| !self.is_field(e.a) && !self.is_field(e.b))
            .map(|e| e.weight)
            .collect();
        self.text_threshold = threshold(&weights);
        let text_threshold = self.text_threshold;
        let is_field: Vec<bool> = (0..n).map(|i| self.is_field(i)).collect();
        for (i, e) in self.edges.iter_mut().enumerate() {
            let (fa, fb) = (is_field[e.a], is_field[e.b]);
            e.kept = match (fa, fb) {
                (true, true) => true,
                (false, false) => text_threshold.is_some_and(|t| e.weight >= t),
                _ => {
                    let t = if fa { e.b } else { e.a };
                    if explicit[t] {
                        e.explicit()
                    } else {
                        best[t].is_some_and(|(b, _)| b == i)
                    }
                }
            };
        }
    }

    fn assign_context(&mut self) {
        let n = self.nodes.len();
        let mut owner: Vec<Option<Owner>> = vec![None; n];
        for e in self.edges.iter().filter(|e| e.kept) {
            let (fa, fb) = (self.is_field(e.a), self.is_field(e.b));
            if fa == fb {
                continue;
            }
            let (f, t) = if fa { (e.a, e.b) } else { (e.b, e.a) };
            let FergNodeKind::Field(field) = self.nodes[f].kind else {
                continue;
            };
            let rank = if e.kinds.contains(&EdgeKind::LabelFor) {
                0
            } else if e.kinds.contains(&EdgeKind::Describes) {
                1
            } else {
                2
            };
            let candidate = Owner {
                field,
                score: e.weight,
                rank,
            };
            // Several explicit fields (a label naming two): the best one.
            if owner[t].is_none_or(|o| (rank, -e.weight) < (o.rank, -o.score)) {
                owner[t] = Some(candidate);
            }
        }
        // A text may be tied more strongly to a field through a text neighbour than by
        // its own best field edge (a leg's legend, right under the previous leg's fields,
        // captions its own leg's first label): the stronger tie wins, a path weighing the
        // product of its two edges, and explicit relations stay. A text with a field
        // neighbour belongs to the form's fields anyway, the question is only which, so
        // any of its text edges may decide; a text without one joins a field only
        // through a text edge that survived pruning.
        let direct = owner.clone();
        for e in &self.edges {
            for (t, u) in [(e.a, e.b), (e.b, e.a)] {
                let fixed = direct[t].is_some_and(|o| o.rank < 2);
                let usable = e.kept || direct[t].is_some();
                if self.is_field(t) || self.is_field(u) || fixed || !usable {
                    continue;
                }
                let Some(o) = direct[u] else {
                    continue;
                };
                let score = e.weight.max(0.0) * o.score.max(0.0);
                if owner[t].is_none_or(|cur| score > cur.score) {
                    owner[t] = Some(Owner {
                        field: o.field,
                        score,
                        rank: 2,
                    });
                }
            }
        }
        let mut context: Vec<Vec<(usize, f32, u8)>> = vec![Vec::new(); self.field_nodes.len()];
        for (t, o) in owner.iter().enumerate() {
            if let Some(o) = o {
                context[o.field].push((t, o.score, o.rank));
            }
        }
        self.context = context
            .into_iter()
            .map(|mut list| {
                list.sort_by(|a, b| {
                    a.2.cmp(&b.2)
                        .then_with(|| {
                            if a.2 == 2 {
                                b.1.total_cmp(&a.1)
                            } else {
                                std::cmp::Ordering::Equal
                            }
                        })
                        .then(a.0.cmp(&b.0))
                });
                list.into_iter().map(|(t, s, _)| (t, s)).collect()
            })
            .collect();
    }

    /// The text that labels `field`: an explicit label, else its best attached text that
    /// sits where labels go (left of it on its row, or above it).
    fn label_node(&self, field: usize) -> Option<usize> {
        let f = *self.field_nodes.get(field)?;
        let frect = self.nodes[f].rect;
        let list = self.context.get(field)?;
        let explicit = list.iter().map(|&(t, _)| t).find(|&t| {
            self.edge(f, t)
                .is_some_and(|e| e.kinds.contains(&EdgeKind::LabelFor))
        });
        explicit.or_else(|| {
            list.iter()
                .map(|&(t, _)| t)
                .find(|&t| label_position(self.nodes[t].rect, frect))
        })
    }

    /// [`Ferg::similarity`] for relating fields, except that two nodes with the same
    /// words compare by structure alone: the "From" of every leg of a multi-city form, the
    /// `phone[]` of every row, say that both play the same part in repeated groups, not
    /// that they belong together; which copies do is the structure's to tell.
    fn pair_similarity(&self, a: usize, b: usize) -> f32 {
        let (ta, tb) = (self.nodes[a].text.trim(), self.nodes[b].text.trim());
        if !ta.is_empty()
            && ta.to_lowercase() == tb.to_lowercase()
            && let (Some(x), Some(y)) = (&self.struct_emb[a], &self.struct_emb[b])
        {
            return cosine(x, y);
        }
        self.similarity(a, b)
    }

    fn relate(&mut self) {
        let count = self.field_nodes.len();
        let labels: Vec<Option<usize>> = (0..count).map(|f| self.label_node(f)).collect();
        let mut scores: Vec<(usize, usize, f32)> = Vec::new();
        for i in 0..count {
            for j in i + 1..count {
                let inputs = self.pair_similarity(self.field_nodes[i], self.field_nodes[j]);
                let labels = match (labels[i], labels[j]) {
                    (Some(a), Some(b)) if a != b => self.pair_similarity(a, b),
                    _ => f32::NEG_INFINITY,
                };
                scores.push((i, j, inputs.max(labels)));
            }
        }
        let values: Vec<f32> = scores.iter().map(|s| s.2).collect();
        self.related_threshold = threshold(&values);
        let mut related: Vec<Vec<(usize, f32)>> = vec![Vec::new(); count];
        if let Some(t) = self.related_threshold {
            for &(i, j, s) in &scores {
                if s >= t {
                    related[i].push((j, s));
                    related[j].push((i, s));
                }
            }
        }
        for list in &mut related {
            list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        }
        self.related = related;
    }
}

fn fmt_opt(v: Option<f32>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"))
}

/// `mean + LAMBDA * std` of `values`; `None` without values.
fn threshold(values: &[f32]) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f32;
    let mean = values.iter().sum::<f32>() / n;
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / n;
    Some(mean + LAMBDA * var.sqrt())
}

fn sim_of(text: &[Vec<f32>], structure: &[Option<Vec<f32>>], a: usize, b: usize) -> f32 {
    let has_text = |v: &[f32]| v.iter().any(|&x| x != 0.0);
    let t = (has_text(&text[a]) && has_text(&text[b])).then(|| cosine(&text[a], &text[b]));
    let s = match (&structure[a], &structure[b]) {
        (Some(x), Some(y)) => Some(cosine(x, y)),
        _ => None,
    };
    match (t, s) {
        (Some(t), Some(s)) => TEXT_SHARE * t + (1.0 - TEXT_SHARE) * s,
        (Some(t), None) => t,
        (None, Some(s)) => s,
        (None, None) => 0.0,
    }
}

/// Collects the nodes of a graph.
struct Builder<'a> {
    form: &'a Form,
    dom: &'a FormDom,
}

impl<'a> Builder<'a> {
    fn new(form: &'a Form, dom: &'a FormDom) -> Builder<'a> {
        Builder { form, dom }
    }

    fn nodes(self) -> Ferg {
        let Builder { form, dom } = self;
        let mut nodes = Vec::new();
        let mut field_nodes = Vec::new();
        let mut dom_of_field: Vec<Option<usize>> = vec![None; form.fields.len()];
        for (d, n) in dom.nodes.iter().enumerate() {
            if let Some(f) = n.field.filter(|&f| f < form.fields.len())
                && dom_of_field[f].is_none()
            {
                dom_of_field[f] = Some(d);
            }
        }
        for (i, field) in form.fields.iter().enumerate() {
            field_nodes.push(nodes.len());
            nodes.push(FergNode {
                kind: FergNodeKind::Field(i),
                dom: dom_of_field[i],
                text: field_words(field),
                rect: field.target.rect,
            });
        }
        for (d, n) in dom.nodes.iter().enumerate() {
            if !is_text_node(dom, n) {
                continue;
            }
            nodes.push(FergNode {
                kind: FergNodeKind::Text,
                dom: Some(d),
                text: n.text.clone(),
                rect: if n.text_rect.has_area() {
                    n.text_rect
                } else {
                    n.rect
                },
            });
        }
        let attribute_labels = form
            .fields
            .iter()
            .map(|f| {
                let find = |sources: &[LabelSource]| {
                    f.labels
                        .iter()
                        .find(|l| sources.contains(&l.source))
                        .map(|l| l.text.clone())
                };
                (
                    find(&[LabelSource::AriaLabel]),
                    find(&[LabelSource::Placeholder, LabelSource::Title]),
                )
            })
            .collect();
        // The other radios of a radio group stand for the group.
        let mut members = Vec::new();
        let mut boxes: Vec<Vec<Rect>> = nodes.iter().map(|n| vec![n.rect]).collect();
        for (i, field) in form.fields.iter().enumerate() {
            let Some(name) = field
                .name
                .as_deref()
                .filter(|_| field.input_type == "radio")
            else {
                continue;
            };
            for (d, n) in dom.nodes.iter().enumerate() {
                let radio = n.tag == "input"
                    && n.input_type
                        .as_deref()
                        .is_some_and(|t| t.trim().eq_ignore_ascii_case("radio"));
                if radio && n.field.is_none() && n.name.as_deref() == Some(name) {
                    members.push((d, field_nodes[i]));
                    if n.visible && n.rect.has_area() {
                        boxes[field_nodes[i]].push(n.rect);
                    }
                }
            }
        }
        Ferg {
            nodes,
            boxes,
            members,
            edges: Vec::new(),
            text_emb: Vec::new(),
            struct_emb: Vec::new(),
            field_nodes,
            attribute_labels,
            context: Vec::new(),
            related: Vec::new(),
            related_threshold: None,
            text_threshold: None,
            embedder: String::new(),
        }
    }
}

/// The words of a field's own markup, which its text embedding is of.
fn field_words<'f>(field: &'f curio_page::Field) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut push = |s: Option<&'f str>| {
        if let Some(s) = s.map(str::trim).filter(|s| !s.is_empty())
            && !parts.contains(&s)
        {
            parts.push(s);
        }
    };
    push(field.name.as_deref());
    push(field.id.as_deref());
    push(field.placeholder.as_deref());
    for l in &field.labels {
        if matches!(l.source, LabelSource::AriaLabel | LabelSource::Title) {
            push(Some(l.text.as_str()));
        }
    }
    push(
        field
            .autocomplete
            .as_deref()
            .filter(|a| !matches!(a.trim(), "on" | "off")),
    );
    // Types that say what a field is for; `text`, `select-one` and the like say nothing.
    let telling = matches!(
        field.input_type.as_str(),
        "email"
            | "password"
            | "tel"
            | "url"
            | "date"
            | "month"
            | "week"
            | "time"
            | "datetime-local"
            | "number"
            | "search"
            | "color"
    );
    push(telling.then_some(field.input_type.as_str()));
    parts.join(" ")
}

/// A visible element with words of its own that is read, not operated.
fn is_text_node(dom: &FormDom, n: &DomNode) -> bool {
    if n.text.is_empty() || !n.visible || n.field.is_some() || is_operated(n) {
        return false;
    }
    let mut p = n.parent;
    while let Some(q) = p {
        if is_operated(&dom.nodes[q]) {
            return false;
        }
        p = dom.nodes[q].parent.filter(|&x| x < q);
    }
    true
}

fn is_operated(n: &DomNode) -> bool {
    matches!(n.tag.as_str(), "button" | "input" | "select" | "textarea")
        || n.role
            .as_deref()
            .is_some_and(|r| matches!(r.trim(), "button" | "checkbox" | "radio" | "switch"))
}

fn overlap_x(a: Rect, b: Rect) -> f64 {
    (a.x + a.width).min(b.x + b.width) - a.x.max(b.x)
}

fn overlap_y(a: Rect, b: Rect) -> f64 {
    (a.y + a.height).min(b.y + b.height) - a.y.max(b.y)
}

/// Gap between two boxes (0 when they touch or overlap).
fn gap(a: Rect, b: Rect) -> f64 {
    let dx = (-overlap_x(a, b)).max(0.0);
    let dy = (-overlap_y(a, b)).max(0.0);
    (dx * dx + dy * dy).sqrt()
}

/// Whether two boxes share some area.
fn intersects(a: Rect, b: Rect) -> bool {
    overlap_x(a, b) > 0.0 && overlap_y(a, b) > 0.0
}

/// The box between two boxes: in each axis, their overlap if they overlap, else the gap.
fn between_box(a: Rect, b: Rect) -> Rect {
    let axis = |a0: f64, a1: f64, b0: f64, b1: f64| {
        let (lo, hi) = if a1.min(b1) > a0.max(b0) {
            (a0.max(b0), a1.min(b1))
        } else {
            (a1.min(b1), a0.max(b0))
        };
        (lo, hi - lo)
    };
    let (x, width) = axis(a.x, a.x + a.width, b.x, b.x + b.width);
    let (y, height) = axis(a.y, a.y + a.height, b.y, b.y + b.height);
    Rect {
        x,
        y,
        width,
        height,
    }
}

/// Where labels go: left of the field on its row, or above it.
fn label_position(t: Rect, f: Rect) -> bool {
    let left = overlap_y(t, f) > MIN_OVERLAP && t.x + t.width <= f.x + EDGE_SLACK;
    let above = t.y + t.height <= f.y + EDGE_SLACK;
    left || above
}

/// Explicit, structural and visual edges, merged per pair.
fn edges(ferg: &Ferg, dom: &FormDom, fields: usize) -> Vec<FergEdge> {
    let nodes = &ferg.nodes;
    let mut kinds: HashMap<(usize, usize), Vec<EdgeKind>> = HashMap::new();
    let mut add = |a: usize, b: usize, kind: EdgeKind| {
        if a == b {
            return;
        }
        let (key, kind) = if a < b {
            ((a, b), kind)
        } else {
            ((b, a), kind.flipped())
        };
        let list = kinds.entry(key).or_default();
        if !list.contains(&kind) {
            list.push(kind);
        }
    };

    let mut of_dom: Vec<Option<usize>> = vec![None; dom.nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        if let Some(d) = n.dom
            && of_dom[d].is_none()
        {
            of_dom[d] = Some(i);
        }
    }
    for &(d, i) in &ferg.members {
        if let Some(slot) = of_dom.get_mut(d).filter(|s| s.is_none()) {
            *slot = Some(i);
        }
    }
    let field_node = |f: usize| (f < fields).then_some(f);

    // Explicit relations.
    for (i, n) in nodes.iter().enumerate() {
        if n.kind != FergNodeKind::Text {
            continue;
        }
        let Some(d) = n.dom else { continue };
        if let Some(f) = dom.nodes[d].label_for.and_then(field_node) {
            add(i, f, EdgeKind::LabelFor);
        }
        if let Some(f) = dom.nodes[d].describes.and_then(field_node) {
            add(i, f, EdgeKind::Describes);
        }
    }

    // The DOM tree compressed to the graph's nodes and the branchings between them.
    let len = dom.nodes.len();
    let mut kept_below = vec![0usize; len];
    for d in (0..len).rev() {
        if of_dom[d].is_some() {
            kept_below[d] += 1;
        }
        if let Some(p) = dom.nodes[d].parent.filter(|&p| p < d) {
            kept_below[p] += kept_below[d];
        }
    }
    let children = dom.children();
    let branching: Vec<bool> = (0..len)
        .map(|d| children[d].iter().filter(|&&c| kept_below[c] > 0).count() >= 2)
        .collect();
    let mut compressed_children: Vec<Vec<usize>> = vec![Vec::new(); len];
    for d in 0..len {
        if of_dom[d].is_none() && !branching[d] {
            continue;
        }
        let mut p = dom.nodes[d].parent.filter(|&p| p < d);
        while let Some(q) = p {
            if of_dom[q].is_some() || branching[q] {
                break;
            }
            p = dom.nodes[q].parent.filter(|&x| x < q);
        }
        if let Some(q) = p {
            compressed_children[q].push(d);
            if let (Some(a), Some(b)) = (of_dom[q], of_dom[d]) {
                add(a, b, EdgeKind::Structure);
            }
        }
    }
    for list in &compressed_children {
        for pair in list.windows(2) {
            if let (Some(a), Some(b)) = (of_dom[pair[0]], of_dom[pair[1]]) {
                add(a, b, EdgeKind::Structure);
            }
        }
    }

    // Visual neighbours, box by box: each radio of a group has its own.
    let boxes: Vec<(usize, Rect)> = ferg
        .boxes
        .iter()
        .enumerate()
        .flat_map(|(i, list)| list.iter().map(move |&r| (i, r)))
        .filter(|&(_, r)| r.has_area())
        .collect();
    for &(i, r) in &boxes {
        let mut nearest: [Option<(f64, usize)>; 4] = [None; 4];
        for &(j, s) in &boxes {
            if i == j {
                continue;
            }
            let candidates = [
                (
                    EdgeKind::Left,
                    s.x + s.width <= r.x + EDGE_SLACK && overlap_y(r, s) >= MIN_OVERLAP,
                    r.x - (s.x + s.width),
                ),
                (
                    EdgeKind::Right,
                    s.x >= r.x + r.width - EDGE_SLACK && overlap_y(r, s) >= MIN_OVERLAP,
                    s.x - (r.x + r.width),
                ),
                (
                    EdgeKind::Above,
                    s.y + s.height <= r.y + EDGE_SLACK && overlap_x(r, s) >= MIN_OVERLAP,
                    r.y - (s.y + s.height),
                ),
                (
                    EdgeKind::Below,
                    s.y >= r.y + r.height - EDGE_SLACK && overlap_x(r, s) >= MIN_OVERLAP,
                    s.y - (r.y + r.height),
                ),
            ];
            for (k, (_, ok, distance)) in candidates.iter().enumerate() {
                let distance = distance.max(0.0);
                if *ok && distance <= MAX_VISUAL_GAP && nearest[k].is_none_or(|(d, _)| distance < d)
                {
                    nearest[k] = Some((distance, j));
                }
            }
        }
        for (k, kind) in [
            EdgeKind::Left,
            EdgeKind::Right,
            EdgeKind::Above,
            EdgeKind::Below,
        ]
        .into_iter()
        .enumerate()
        {
            if let Some((_, j)) = nearest[k] {
                add(i, j, kind);
            }
        }
    }

    let mut out: Vec<FergEdge> = kinds
        .into_iter()
        .map(|((a, b), mut kinds)| {
            kinds.sort_unstable();
            FergEdge {
                a,
                b,
                kinds,
                weight: 0.0,
                kept: false,
            }
        })
        .collect();
    out.sort_by_key(|e| (e.a, e.b));
    out
}
