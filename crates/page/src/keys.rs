//! Element keys that survive a reload: what is learned about an element on one visit
//! (values that worked, whether it navigates) must find the same element on the next.
//!
//! So a key uses only what does not change between renders of the same page: role, tag,
//! an id or name that a human wrote, a short text with numbers generalised, and the chain
//! of ancestor tags without sibling positions (positions shift as lists grow).

use std::collections::HashMap;

use crate::context::Ctx;

/// Characters of text kept in a key.
const KEY_TEXT_CHARS: usize = 32;

/// Id prefixes that frameworks number on every render.
const GENERATED_ID_PREFIXES: [&str; 14] = [
    "ember",
    "react-select-",
    "react-aria",
    "mui-",
    "radix-",
    "headlessui-",
    "downshift-",
    "ext-gen",
    "ext-comp",
    "yui_",
    "gwt-uid-",
    "j_idt",
    "uid-",
    "vue-",
];

/// Whether an id looks generated, so it differs between visits.
pub(crate) fn is_volatile_id(id: &str) -> bool {
    let lower = id.trim().to_ascii_lowercase();
    if lower.is_empty() {
        return true;
    }
    if lower.contains(':') || lower.contains('«') {
        // React's useId (`:r1:`, `«r1»`).
        return true;
    }
    let has_digit = lower.chars().any(|c| c.is_ascii_digit());
    if has_digit && GENERATED_ID_PREFIXES.iter().any(|p| lower.starts_with(p)) {
        return true;
    }
    if longest_digit_run(&lower) >= 3 {
        return true;
    }
    // uuid-ish or hash-ish: long runs of hex with digits mixed in.
    let hexish = lower
        .split(|c: char| !c.is_ascii_hexdigit())
        .any(|run| run.len() >= 8 && run.chars().any(|c| c.is_ascii_digit()));
    if hexish {
        return true;
    }
    // Random-looking alphanumerics: letters and digits alternate many times (`a8f3k2q`).
    let mut switches = 0;
    let mut prev: Option<bool> = None;
    for c in lower.chars().filter(char::is_ascii_alphanumeric) {
        let digit = c.is_ascii_digit();
        if prev.is_some_and(|p| p != digit) {
            switches += 1;
        }
        prev = Some(digit);
    }
    switches >= 4
}

fn longest_digit_run(s: &str) -> usize {
    s.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// Digit runs become `{n}`: counters and prices in texts change between visits.
pub(crate) fn generalise_digits(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push_str("{n}");
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

/// Ancestor tag names from the document root, without sibling positions
/// (`html/body/main/ul/li/a`), prefixed by the embedding frame's path.
pub(crate) fn structural_path(ctx: &Ctx<'_>, n: usize) -> String {
    let doc = &ctx.doc;
    let mut tags: Vec<&str> = std::iter::once(n)
        .chain(doc.ancestors(n))
        .map(|a| doc.tag(a))
        .filter(|t| !t.is_empty())
        .collect();
    tags.reverse();
    format!("{}{}", ctx.key_prefix, tags.join("/"))
}

/// `role|tag|id-or-name|text|path` for element `n`; uniqueness is added by [`dedupe`].
pub(crate) fn element_key(ctx: &Ctx<'_>, n: usize, role: &str, text: &str) -> String {
    let doc = &ctx.doc;
    let ident = doc
        .attr_nonblank(n, "id")
        .filter(|id| !is_volatile_id(id))
        .map(|id| format!("#{id}"))
        .or_else(|| {
            doc.attr_nonblank(n, "name")
                .filter(|name| !is_volatile_id(name))
                .map(|name| format!("@{name}"))
        })
        .unwrap_or_default();
    let short: String = text.chars().take(KEY_TEXT_CHARS).collect();
    format!(
        "{role}|{}|{ident}|{}|{}",
        doc.tag(n),
        generalise_digits(short.trim()),
        structural_path(ctx, n)
    )
}

/// Appends `#2`, `#3`, ... to repeated keys, in the order given (document order).
pub(crate) fn dedupe(keys: &mut [String]) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for key in keys.iter_mut() {
        let count = seen.entry(key.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            key.push_str(&format!("#{count}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_are_volatile() {
        for id in [
            "ember123",
            "ember7",
            "react-select-5-input",
            ":r1:",
            "«r3»",
            "mui-42",
            "radix-:R1mm:",
            "product-1001",
            "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
            "a8f3k2q9z",
            "j_idt12",
        ] {
            assert!(is_volatile_id(id), "{id} should be volatile");
        }
    }

    #[test]
    fn written_ids_are_stable() {
        for id in [
            "email",
            "cart-link",
            "main-nav",
            "step2",
            "h1-title",
            "user_name",
            "col-12",
            "deadbeef-form",
        ] {
            assert!(!is_volatile_id(id), "{id} should be stable");
        }
    }

    #[test]
    fn digits_are_generalised() {
        assert_eq!(generalise_digits("Cart (3)"), "Cart ({n})");
        assert_eq!(generalise_digits("$1,299.00"), "${n},{n}.{n}");
        assert_eq!(generalise_digits("Edit"), "Edit");
    }

    #[test]
    fn repeated_keys_get_counters_in_order() {
        let mut keys = vec![
            "a".to_string(),
            "b".to_string(),
            "a".to_string(),
            "a".to_string(),
        ];
        dedupe(&mut keys);
        assert_eq!(keys, ["a", "b", "a#2", "a#3"]);
    }
}
