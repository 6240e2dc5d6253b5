//! Text as a user reads it: whitespace-collapsed text content of a subtree, with the image
//! `alt`s a screen reader would speak, and the clean-ups labels need.

use crate::snapshot_index::Doc;
use crate::visibility::Visibility;

/// Longest action text kept; enough to tell buttons apart without carrying paragraphs.
pub(crate) const MAX_TEXT_CHARS: usize = 80;

/// Never part of what a user reads.
const NON_CONTENT_TAGS: [&str; 6] = ["script", "style", "noscript", "template", "head", "title"];

/// Controls whose own text (option lists, typed values) is not part of a label's text.
const CONTROL_TAGS: [&str; 4] = ["input", "select", "textarea", "button"];

/// Elements that break the line even when the snapshot has no layout object for them.
const BLOCK_TAGS: [&str; 22] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "li",
    "p",
    "tr",
];

pub(crate) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// At most `max` characters, cut at a word boundary when one is reasonably close. No
/// ellipsis is added: the result stays a substring of the original, which keeps
/// substring-matching locators (`button "Add to ca"`) working.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    match cut.rfind(' ') {
        Some(i) if i >= cut.len() / 2 => cut[..i].trim_end().to_string(),
        _ => cut,
    }
}

/// Whitespace-collapsed, without the trailing `:` and required-marker `*` of form labels.
pub(crate) fn clean_label(s: &str) -> String {
    let collapsed = collapse(s);
    collapsed
        .trim_end_matches(|c: char| c == ':' || c == '*' || c.is_whitespace())
        .trim_start_matches(|c: char| c == '*' || c.is_whitespace())
        .to_string()
}

#[derive(Clone, Copy)]
pub(crate) struct TextOptions {
    /// Only rendered text (name from content); otherwise also hidden text, as
    /// `aria-labelledby` and `<label>` use it.
    pub(crate) visible_only: bool,
    /// Leave out what controls inside the subtree contain (a label's text).
    pub(crate) skip_controls: bool,
}

/// The text of `root`'s subtree, whitespace-collapsed, block boundaries as spaces.
pub(crate) fn text_content(
    doc: &Doc<'_>,
    vis: &Visibility,
    root: usize,
    opts: TextOptions,
) -> String {
    enum Step {
        Enter(usize),
        Leave,
    }
    let mut out = String::new();
    let mut stack = vec![Step::Enter(root)];
    while let Some(step) = stack.pop() {
        let n = match step {
            Step::Leave => {
                out.push(' ');
                continue;
            }
            Step::Enter(n) => n,
        };
        if doc.is_text(n) {
            // Whitespace-only text is never "visible" but still separates words when rendered.
            let rendered_space = doc.node_value(n).trim().is_empty() && doc.layout(n).is_some();
            if !opts.visible_only || vis.visible(n) || rendered_space {
                out.push_str(doc.node_value(n));
            }
            continue;
        }
        let tag = doc.tag(n);
        if NON_CONTENT_TAGS.contains(&tag) {
            continue;
        }
        if n != root && opts.skip_controls && CONTROL_TAGS.contains(&tag) {
            continue;
        }
        if opts.visible_only
            && doc
                .attr(n, "aria-hidden")
                .is_some_and(|v| v.trim() == "true")
        {
            continue;
        }
        if tag == "img"
            || (tag == "input"
                && doc
                    .attr(n, "type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("image")))
        {
            let alt = doc
                .attr(n, "alt")
                .filter(|_| !opts.visible_only || vis.visible(n));
            if let Some(alt) = alt {
                out.push(' ');
                out.push_str(alt);
                out.push(' ');
            }
            continue;
        }
        if tag == "select" || tag == "textarea" {
            // Their option texts or contents are values, not names.
            continue;
        }
        let block = match doc.display(n) {
            Some(d) => !d.starts_with("inline") && d != "contents",
            None => BLOCK_TAGS.contains(&tag),
        } || tag == "br";
        if block {
            out.push(' ');
            stack.push(Step::Leave);
        }
        for &c in doc.children(n).iter().rev() {
            stack.push(Step::Enter(c));
        }
    }
    collapse(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapse_joins_runs_of_whitespace() {
        assert_eq!(
            collapse("  Find   the best\n\t anvils  "),
            "Find the best anvils"
        );
        assert_eq!(collapse(" \n "), "");
    }

    #[test]
    fn truncate_cuts_at_word_boundary_without_ellipsis() {
        assert_eq!(truncate("short", 80), "short");
        assert_eq!(truncate("one two three four", 10), "one two");
        assert_eq!(truncate("abcdefghijklmnop", 5), "abcde");
        // Multi-byte characters are counted, not bytes.
        assert_eq!(truncate("ééééé", 3), "ééé");
    }

    #[test]
    fn clean_label_strips_colons_and_required_marks() {
        assert_eq!(clean_label(" Email address: "), "Email address");
        assert_eq!(clean_label("Full name * "), "Full name");
        assert_eq!(clean_label("* Phone :*"), "Phone");
        assert_eq!(clean_label("Time: 10:30"), "Time: 10:30");
    }
}
