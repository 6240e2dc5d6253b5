//! Ways to find an element again: a CSS selector that matches exactly it in its document,
//! and a readable Playwright-like locator.
//!
//! Selectors are used after a reload and in replays, so an id that a framework generates
//! anew on every render (`ember123`) is never used, neither as the selector nor as the
//! anchor of a structural path: it would match nothing next time.

use crate::context::Ctx;
use crate::keys::is_volatile_id;
use crate::model::Target;

/// The target for element `n`, named `name` with role `role`.
pub(crate) fn target(ctx: &Ctx<'_>, n: usize, role: &str, name: &str) -> Target {
    let selector = selector(ctx, n);
    Target {
        backend_node_id: ctx.doc.backend_node_id(n),
        frame: ctx.frame,
        locator: locator(role, name, &selector),
        selector,
        rect: ctx.rect(n),
    }
}

/// `role "name"`; `text "name"` for elements without a meaningful role; the selector
/// when there is no name to go by.
pub(crate) fn locator(role: &str, name: &str, selector: &str) -> String {
    if name.is_empty() {
        return selector.to_string();
    }
    let role = if role.is_empty() || role == "generic" || role == "none" || role == "presentation" {
        "text"
    } else {
        role
    };
    format!("{role} \"{}\"", escape_quoted(name))
}

fn escape_quoted(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A CSS selector matching exactly element `n` in its document: `#id`, else
/// `tag[name="..."]`, else a `>` path of `tag:nth-of-type(k)` steps from the nearest
/// ancestor with a usable id (or from `html`).
pub(crate) fn selector(ctx: &Ctx<'_>, n: usize) -> String {
    if let Some(s) = id_selector(ctx, n) {
        return s;
    }
    if let Some(s) = name_selector(ctx, n) {
        return s;
    }
    path_selector(ctx, n)
}

fn id_selector(ctx: &Ctx<'_>, n: usize) -> Option<String> {
    let id = ctx.doc.attr(n, "id")?;
    if id.is_empty() || is_volatile_id(id) || ctx.doc.elements_with_id(id).len() != 1 {
        return None;
    }
    Some(if is_css_identifier(id) {
        format!("#{id}")
    } else {
        format!("[id=\"{}\"]", escape_css_string(id))
    })
}

fn name_selector(ctx: &Ctx<'_>, n: usize) -> Option<String> {
    let doc = &ctx.doc;
    let name = doc.attr(n, "name").filter(|v| !v.is_empty())?;
    // Counted by the tag as sent; HTML tags are all uppercase there, so this counts the
    // same elements a case-insensitive type selector matches.
    let count = ctx
        .name_counts
        .get(&(doc.raw_name(n), name))
        .copied()
        .unwrap_or(0);
    (count == 1).then(|| {
        format!(
            "{}[name=\"{}\"]",
            type_selector(ctx, n),
            escape_css_string(name)
        )
    })
}

fn path_selector(ctx: &Ctx<'_>, n: usize) -> String {
    let doc = &ctx.doc;
    let mut steps = Vec::new();
    let mut current = n;
    let anchor = loop {
        if let Some(s) = (current != n).then(|| id_selector(ctx, current)).flatten() {
            break s;
        }
        if doc.tag(current) == "html" && doc.parent(current).is_none_or(|p| !doc.is_element(p)) {
            break "html".to_string();
        }
        let Some(parent) = doc.parent(current) else {
            // A detached or odd root: the step alone is the best there is.
            break step(ctx, current);
        };
        if doc.crosses_shadow_boundary(current) {
            // CSS cannot step from a host into its shadow tree with `>`; a descendant
            // combinator is what shadow-piercing engines (Playwright) accept.
            let host = std::iter::once(parent)
                .chain(doc.ancestors(parent))
                .find(|&h| doc.is_element(h))
                .map(|h| selector(ctx, h))
                .unwrap_or_default();
            steps.push(step(ctx, current));
            steps.reverse();
            return format!("{host} {}", steps.join(" > ")).trim().to_string();
        }
        if !doc.is_element(parent) {
            break step(ctx, current);
        }
        steps.push(step(ctx, current));
        current = parent;
    };
    steps.push(anchor);
    steps.reverse();
    steps.join(" > ")
}

/// `tag` or `tag:nth-of-type(k)` among the element's siblings.
fn step(ctx: &Ctx<'_>, n: usize) -> String {
    let (position, count) = ctx.doc.nth_of_type(n);
    let ty = type_selector(ctx, n);
    if count <= 1 {
        return ty;
    }
    format!("{ty}:nth-of-type({position})")
}

/// HTML type selectors match case-insensitively, SVG and MathML ones by the exact name.
fn type_selector(ctx: &Ctx<'_>, n: usize) -> String {
    let raw = ctx.doc.raw_name(n);
    let name = if raw.chars().any(|c| c.is_ascii_lowercase()) {
        raw.to_string()
    } else {
        ctx.doc.tag(n).to_string()
    };
    if is_css_identifier(&name) {
        name
    } else {
        escape_css_identifier(&name)
    }
}

/// Whether `s` can be written as an identifier without escapes (`#s`, `s`).
pub(crate) fn is_css_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = match chars.next() {
        Some('-') => {
            matches!(chars.clone().next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '-')
        }
        Some(c) => c.is_ascii_alphabetic() || c == '_',
        None => false,
    };
    first_ok
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The contents of a double-quoted CSS string.
pub(crate) fn escape_css_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\{:x} ", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// An identifier with everything CSS would not accept escaped (`CSS.escape`).
pub(crate) fn escape_css_identifier(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.chars().enumerate() {
        let ok = c.is_ascii_alphabetic()
            || c == '_'
            || !c.is_ascii()
            || (i > 0 && (c.is_ascii_digit() || c == '-'));
        if c == '\0' {
            out.push('\u{FFFD}');
        } else if c.is_control() || (i == 0 && c.is_ascii_digit()) {
            out.push_str(&format!("\\{:x} ", c as u32));
        } else if ok || (i == 0 && c == '-' && s.chars().count() > 1) {
            out.push(c);
        } else {
            out.push('\\');
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert!(is_css_identifier("cart-link"));
        assert!(is_css_identifier("_x1"));
        assert!(is_css_identifier("-foo"));
        assert!(!is_css_identifier("1st"));
        assert!(!is_css_identifier("-1"));
        assert!(!is_css_identifier("a.b"));
        assert!(!is_css_identifier("a b"));
        assert!(!is_css_identifier(""));
    }

    #[test]
    fn string_escaping() {
        assert_eq!(escape_css_string(r#"say "hi"\"#), r#"say \"hi\"\\"#);
        assert_eq!(escape_css_string("a\nb"), "a\\a b");
        assert_eq!(escape_css_string("user[0].name"), "user[0].name");
    }

    #[test]
    fn identifier_escaping() {
        assert_eq!(escape_css_identifier("1st"), "\\31 st");
        assert_eq!(escape_css_identifier("a.b:c"), "a\\.b\\:c");
        assert_eq!(escape_css_identifier("-x"), "-x");
    }

    #[test]
    fn locators() {
        assert_eq!(
            locator("button", "Add to cart", "#x"),
            "button \"Add to cart\""
        );
        assert_eq!(locator("generic", "Click me", "#x"), "text \"Click me\"");
        assert_eq!(locator("link", "", "html > body > a"), "html > body > a");
        assert_eq!(
            locator("link", "Say \"hi\"", "a"),
            "link \"Say \\\"hi\\\"\""
        );
    }
}
