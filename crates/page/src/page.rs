//! Building a [`Page`] from a snapshot: admit the documents, then derive forms, actions,
//! texts and the tag sequence from them.

use std::collections::HashMap;

use crate::actions::build_actions;
use crate::context::Ctx;
use crate::dom::DomSnapshot;
use crate::forms::build_forms;
use crate::frames::admitted_frames;
use crate::keys::dedupe;
use crate::model::{ElementKey, Page, TextNode};
use crate::snapshot_index::Doc;
use crate::text::collapse;
use crate::url_norm::{UrlNormalization, normalize_url};
use crate::visibility::Visibility;

/// Elements whose content is not page structure a user sees.
const SEQUENCE_SKIPPED: [&str; 5] = ["head", "script", "style", "noscript", "template"];

impl Page {
    /// The page model of a `DOMSnapshot.captureSnapshot` answer taken with
    /// `computedStyles = COMPUTED_STYLES` and `includePaintOrder` (the DOM rects are not used).
    ///
    /// Document 0 is the main frame; same-origin frames inside visible `<iframe>`s are
    /// added after it. Never panics: missing or inconsistent parts of the snapshot make
    /// the model smaller, not wrong.
    pub fn from_snapshot(snapshot: &DomSnapshot) -> Page {
        let mut docs: Vec<Option<(Doc<'_>, Visibility)>> = (0..snapshot.documents.len())
            .map(|i| {
                Doc::new(snapshot, i).map(|doc| {
                    let vis = Visibility::compute(&doc);
                    (doc, vis)
                })
            })
            .collect();
        let frames = admitted_frames(&docs);

        // Frames come parent first, so a parent's prefix is known before its children's.
        let mut prefixes: Vec<(usize, String)> = Vec::new();
        for frame in &frames {
            let prefix = match frame.host {
                None => String::new(),
                Some((parent_doc, host)) => {
                    let parent_prefix = prefixes
                        .iter()
                        .find(|(d, _)| *d == parent_doc)
                        .map(|(_, p)| p.clone())
                        .unwrap_or_default();
                    match docs.get(parent_doc) {
                        Some(Some((doc, _))) => {
                            let tags: Vec<&str> = std::iter::once(host)
                                .chain(doc.ancestors(host))
                                .map(|a| doc.tag(a))
                                .filter(|t| !t.is_empty())
                                .collect();
                            let path: Vec<&str> = tags.into_iter().rev().collect();
                            format!("{parent_prefix}{}/", path.join("/"))
                        }
                        _ => parent_prefix,
                    }
                }
            };
            prefixes.push((frame.doc, prefix));
        }
        prefixes.sort_by_key(|(d, _)| *d);

        let ctxs: Vec<Ctx<'_>> = prefixes
            .into_iter()
            .filter_map(|(d, prefix)| {
                let (doc, vis) = docs.get_mut(d)?.take()?;
                Some(Ctx::new(doc, vis, prefix))
            })
            .collect();

        let (forms, membership) = build_forms(&ctxs);

        let mut actions = Vec::new();
        for ctx in &ctxs {
            actions.extend(build_actions(ctx, &membership));
        }
        let mut keys: Vec<String> = actions.iter().map(|a| a.key.0.clone()).collect();
        dedupe(&mut keys);
        for (action, key) in actions.iter_mut().zip(keys) {
            action.key = ElementKey(key);
        }

        let texts = ctxs
            .iter()
            .flat_map(|ctx| {
                ctx.texts.iter().map(|t| TextNode {
                    text: collapse(&t.text),
                    rect: t.rect,
                    frame: ctx.frame,
                })
            })
            .collect();

        let main = ctxs.first().filter(|c| c.frame == 0);
        let url = main.map(|c| c.doc.url().to_string()).unwrap_or_default();
        let title = main.map(|c| collapse(c.doc.title())).unwrap_or_default();
        let tag_sequence = main.map(tag_sequence).unwrap_or_default();
        let merged_tag_sequence = main.map(merged_tag_sequence).unwrap_or_default();
        Page {
            normalized_url: normalize_url(&url, &UrlNormalization::default()),
            url,
            title,
            actions,
            forms,
            texts,
            tag_sequence,
            merged_tag_sequence,
        }
    }
}

fn tag_sequence(ctx: &Ctx<'_>) -> Vec<String> {
    let doc = &ctx.doc;
    let skipped = sequence_skipped(ctx);
    (0..doc.len())
        .filter(|&n| !skipped[n] && !doc.tag(n).is_empty())
        .map(|n| doc.tag(n).to_string())
        .collect()
}

/// Per node: left out of the tag sequence with its subtree (`head`, `script`, ...).
fn sequence_skipped(ctx: &Ctx<'_>) -> Vec<bool> {
    let doc = &ctx.doc;
    let mut skipped = vec![false; doc.len()];
    for n in 0..doc.len() {
        let parent_skipped = doc.parent(n).is_some_and(|p| skipped[p]);
        skipped[n] = parent_skipped || SEQUENCE_SKIPPED.contains(&doc.tag(n));
    }
    skipped
}

/// No structure: a text or comment node, or anything skipped.
const NO_SHAPE: u32 = u32::MAX;

/// The tag sequence without repeated siblings (see [`Page::merged_tag_sequence`]).
///
/// Every node gets a *shape*: its tag and the shapes of its children, with runs of equal
/// consecutive shapes folded to one, hash-consed to a number so that equal shapes get
/// equal numbers (exactly; no hash collisions). Comparing folded shapes means rows that
/// differ only in how many items a nested list has still count as repeats. Then every
/// element whose shape equals that of the previous element sibling is dropped with its
/// subtree. Text and comments between siblings do not break a run; neither do skipped
/// elements such as `<script>`.
fn merged_tag_sequence(ctx: &Ctx<'_>) -> Vec<String> {
    let doc = &ctx.doc;
    let len = doc.len();
    let skipped = sequence_skipped(ctx);

    // Children always come after their parent (the index guarantees it), so a reverse
    // scan sees every child's shape before its parent's.
    let mut shape = vec![NO_SHAPE; len];
    let mut shapes: HashMap<(&str, Vec<u32>), u32> = HashMap::new();
    for n in (0..len).rev() {
        if skipped[n] {
            continue;
        }
        let mut kids: Vec<u32> = Vec::new();
        for &c in doc.children(n) {
            let s = shape.get(c).copied().unwrap_or(NO_SHAPE);
            if s != NO_SHAPE && kids.last() != Some(&s) {
                kids.push(s);
            }
        }
        let tag = doc.tag(n);
        if tag.is_empty() && kids.is_empty() {
            continue;
        }
        let next = u32::try_from(shapes.len()).unwrap_or(NO_SHAPE - 1);
        shape[n] = *shapes.entry((tag, kids)).or_insert(next);
    }

    let mut dropped = vec![false; len];
    for n in 0..len {
        let mut previous = NO_SHAPE;
        for &c in doc.children(n) {
            let s = shape.get(c).copied().unwrap_or(NO_SHAPE);
            if s == NO_SHAPE {
                continue;
            }
            if s == previous
                && let Some(d) = dropped.get_mut(c)
            {
                *d = true;
            }
            previous = s;
        }
    }
    for n in 0..len {
        if doc.parent(n).is_some_and(|p| dropped[p]) {
            dropped[n] = true;
        }
    }
    (0..len)
        .filter(|&n| !skipped[n] && !dropped[n] && !doc.tag(n).is_empty())
        .map(|n| doc.tag(n).to_string())
        .collect()
}
