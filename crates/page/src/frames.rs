//! Which documents of a snapshot belong to the page model.
//!
//! Chromium puts out-of-process (cross-site) frames in their own snapshot, so what arrives
//! here is the main document plus same-process frames. Same-process is not same-origin
//! (sibling subdomains, other ports, sandboxed or `data:` frames), and a user cannot
//! operate a frame whose `<iframe>` is hidden, so each document is admitted only through a
//! visible frame element of an admitted document and only with the main document's origin.

use url::{Origin, Url};

use crate::snapshot_index::Doc;
use crate::visibility::Visibility;

/// An admitted document and the frame element that embeds it.
pub(crate) struct Frame {
    pub(crate) doc: usize,
    /// `(document, node)` of the `<iframe>`/`<frame>`; `None` for the main document.
    pub(crate) host: Option<(usize, usize)>,
    origin: Origin,
}

/// Admitted documents, main document first, then in snapshot order.
pub(crate) fn admitted_frames(docs: &[Option<(Doc<'_>, Visibility)>]) -> Vec<Frame> {
    let Some(Some((main, _))) = docs.first() else {
        return Vec::new();
    };
    let main_origin = origin_of(main.url(), None);
    let mut frames = vec![Frame {
        doc: 0,
        host: None,
        origin: main_origin.clone(),
    }];
    let mut seen = vec![false; docs.len()];
    seen[0] = true;
    let mut next = 0;
    while let Some(frame) = frames.get(next) {
        next += 1;
        let parent_index = frame.doc;
        let parent_origin = frame.origin.clone();
        let Some(Some((parent, parent_vis))) = docs.get(parent_index) else {
            continue;
        };
        for n in 0..parent.len() {
            let Some(child) = parent.content_document(n) else {
                continue;
            };
            if seen.get(child).copied().unwrap_or(true) || !parent_vis.visible(n) {
                continue;
            }
            let Some(Some((child_doc, _))) = docs.get(child) else {
                continue;
            };
            let sandboxed = parent.attr(n, "sandbox").is_some_and(|s| {
                !s.split_ascii_whitespace()
                    .any(|t| t.eq_ignore_ascii_case("allow-same-origin"))
            });
            let origin = if sandboxed {
                Origin::new_opaque()
            } else {
                origin_of(child_doc.url(), Some(&parent_origin))
            };
            if origin != main_origin {
                continue;
            }
            seen[child] = true;
            frames.push(Frame {
                doc: child,
                host: Some((parent_index, n)),
                origin,
            });
        }
    }
    frames.sort_by_key(|f| f.doc);
    frames
}

/// `about:blank` and `about:srcdoc` documents run in their creator's origin.
fn origin_of(url: &str, parent: Option<&Origin>) -> Origin {
    match Url::parse(url) {
        Ok(u) if u.scheme() == "about" => parent.cloned().unwrap_or_else(|| u.origin()),
        Ok(u) => u.origin(),
        Err(_) => Origin::new_opaque(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_documents_inherit_the_parent_origin() {
        let parent = Url::parse("http://127.0.0.1:8000/a")
            .map(|u| u.origin())
            .ok();
        let Some(parent) = parent else {
            panic!("test URL must parse");
        };
        assert_eq!(origin_of("about:srcdoc", Some(&parent)), parent);
        assert_eq!(
            origin_of("http://127.0.0.1:8000/b?x", Some(&parent)),
            parent
        );
        assert_ne!(origin_of("http://localhost:8000/b", Some(&parent)), parent);
        assert_ne!(origin_of("data:text/html,hi", Some(&parent)), parent);
        assert_ne!(origin_of("not a url", Some(&parent)), parent);
    }
}
