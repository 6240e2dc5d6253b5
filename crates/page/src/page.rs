//! Building a [`Page`] from a snapshot: admit the documents, then derive forms, actions,
//! texts and the tag sequence from them.

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
        Page {
            normalized_url: normalize_url(&url, &UrlNormalization::default()),
            url,
            title,
            actions,
            forms,
            texts,
            tag_sequence,
        }
    }
}

fn tag_sequence(ctx: &Ctx<'_>) -> Vec<String> {
    let doc = &ctx.doc;
    let mut skipped = vec![false; doc.len()];
    let mut out = Vec::new();
    for n in 0..doc.len() {
        let parent_skipped = doc.parent(n).is_some_and(|p| skipped[p]);
        let tag = doc.tag(n);
        skipped[n] = parent_skipped || SEQUENCE_SKIPPED.contains(&tag);
        if !skipped[n] && !tag.is_empty() {
            out.push(tag.to_string());
        }
    }
    out
}
