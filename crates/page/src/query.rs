//! Evaluating the selectors this crate builds against a snapshot, without a browser: to
//! check that each matches exactly one element. Selectors that users write (login steps,
//! checks, `--deny-selector`) are matched by Chromium itself, never here.
//!
//! Only the CSS subset this crate writes is understood: type selectors (`div`, `*`),
//! `#id`, `[attr]`, `[attr="value"]`, `:nth-of-type(k)`, and the child (`>`) and
//! descendant (space) combinators. Type selectors match case-insensitively, and the
//! descendant combinator reaches into open shadow trees as Playwright's CSS engine does.
//! Anything else makes the selector match nothing.

use crate::dom::DomSnapshot;
use crate::snapshot_index::Doc;

#[derive(Debug, Default, PartialEq)]
struct Compound {
    tag: Option<String>,
    id: Option<String>,
    attrs: Vec<(String, Option<String>)>,
    nth_of_type: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Combinator {
    Child,
    Descendant,
}

/// `backendNodeId`s of the elements of document `frame` that `selector` matches, in
/// document order. Empty when the selector is outside the supported subset.
pub fn query_selector_all(snapshot: &DomSnapshot, frame: usize, selector: &str) -> Vec<i64> {
    let Some(doc) = Doc::new(snapshot, frame) else {
        return Vec::new();
    };
    let Some((compounds, combinators)) = parse(selector) else {
        return Vec::new();
    };
    (0..doc.len())
        .filter(|&n| matches_at(&doc, n, &compounds, &combinators, compounds.len() - 1))
        .map(|n| doc.backend_node_id(n))
        .collect()
}

fn matches_at(
    doc: &Doc<'_>,
    n: usize,
    compounds: &[Compound],
    combinators: &[Combinator],
    i: usize,
) -> bool {
    let Some(compound) = compounds.get(i) else {
        return false;
    };
    if !matches_compound(doc, n, compound) {
        return false;
    }
    if i == 0 {
        return true;
    }
    match combinators.get(i - 1) {
        Some(Combinator::Child) => {
            !doc.crosses_shadow_boundary(n)
                && doc.parent(n).is_some_and(|p| {
                    doc.is_element(p) && matches_at(doc, p, compounds, combinators, i - 1)
                })
        }
        Some(Combinator::Descendant) => doc
            .ancestors(n)
            .any(|a| doc.is_element(a) && matches_at(doc, a, compounds, combinators, i - 1)),
        None => false,
    }
}

fn matches_compound(doc: &Doc<'_>, n: usize, c: &Compound) -> bool {
    let tag = doc.tag(n);
    if tag.is_empty() {
        return false;
    }
    if c.tag
        .as_ref()
        .is_some_and(|t| t != "*" && !t.eq_ignore_ascii_case(tag))
    {
        return false;
    }
    if c.id
        .as_ref()
        .is_some_and(|id| doc.attr(n, "id") != Some(id.as_str()))
    {
        return false;
    }
    for (name, value) in &c.attrs {
        match (doc.attr(n, name), value) {
            (None, _) => return false,
            (Some(actual), Some(v)) if actual != v => return false,
            _ => {}
        }
    }
    if let Some(k) = c.nth_of_type
        && doc.nth_of_type(n).0 != k
    {
        return false;
    }
    true
}

fn parse(selector: &str) -> Option<(Vec<Compound>, Vec<Combinator>)> {
    let chars: Vec<char> = selector.trim().chars().collect();
    let mut i = 0;
    let mut compounds = Vec::new();
    let mut combinators = Vec::new();
    loop {
        let compound = parse_compound(&chars, &mut i)?;
        compounds.push(compound);
        let had_space = skip_spaces(&chars, &mut i);
        match chars.get(i) {
            None => break,
            Some('>') => {
                i += 1;
                skip_spaces(&chars, &mut i);
                combinators.push(Combinator::Child);
            }
            Some(_) if had_space => combinators.push(Combinator::Descendant),
            Some(_) => return None,
        }
    }
    Some((compounds, combinators))
}

fn skip_spaces(chars: &[char], i: &mut usize) -> bool {
    let start = *i;
    while chars.get(*i).is_some_and(|c| c.is_whitespace()) {
        *i += 1;
    }
    *i > start
}

fn parse_compound(chars: &[char], i: &mut usize) -> Option<Compound> {
    let mut c = Compound::default();
    if chars.get(*i) == Some(&'*') {
        *i += 1;
        c.tag = Some("*".to_string());
    } else if chars.get(*i).is_some_and(|&ch| starts_ident(ch)) {
        c.tag = Some(parse_ident(chars, i)?);
    }
    let mut any = c.tag.is_some();
    loop {
        match chars.get(*i) {
            Some('#') => {
                *i += 1;
                c.id = Some(parse_ident(chars, i)?);
            }
            Some('[') => {
                *i += 1;
                skip_spaces(chars, i);
                let name = parse_ident(chars, i)?;
                skip_spaces(chars, i);
                let value = match chars.get(*i) {
                    Some(']') => None,
                    Some('=') => {
                        *i += 1;
                        skip_spaces(chars, i);
                        let v = match chars.get(*i) {
                            Some('"') | Some('\'') => parse_string(chars, i)?,
                            _ => parse_ident(chars, i)?,
                        };
                        skip_spaces(chars, i);
                        Some(v)
                    }
                    _ => return None,
                };
                if chars.get(*i) != Some(&']') {
                    return None;
                }
                *i += 1;
                c.attrs.push((name, value));
            }
            Some(':') => {
                let rest: String = chars.get(*i..)?.iter().collect();
                let prefix = ":nth-of-type(";
                if !rest.starts_with(prefix) {
                    return None;
                }
                *i += prefix.chars().count();
                let start = *i;
                while chars.get(*i).is_some_and(char::is_ascii_digit) {
                    *i += 1;
                }
                let k: String = chars.get(start..*i)?.iter().collect();
                c.nth_of_type = Some(k.parse().ok()?);
                if chars.get(*i) != Some(&')') {
                    return None;
                }
                *i += 1;
            }
            _ => break,
        }
        any = true;
    }
    any.then_some(c)
}

fn starts_ident(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '-' || c == '\\' || !c.is_ascii()
}

fn parse_ident(chars: &[char], i: &mut usize) -> Option<String> {
    let mut out = String::new();
    while let Some(&c) = chars.get(*i) {
        if c == '\\' {
            *i += 1;
            out.push(parse_escape(chars, i)?);
        } else if c.is_alphanumeric() || c == '_' || c == '-' || !c.is_ascii() {
            out.push(c);
            *i += 1;
        } else {
            break;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// After a backslash: up to six hex digits and one optional space, or a literal char.
fn parse_escape(chars: &[char], i: &mut usize) -> Option<char> {
    let start = *i;
    while *i < start + 6 && chars.get(*i).is_some_and(char::is_ascii_hexdigit) {
        *i += 1;
    }
    if *i > start {
        let hex: String = chars.get(start..*i)?.iter().collect();
        if chars.get(*i).is_some_and(|c| c.is_whitespace()) {
            *i += 1;
        }
        let code = u32::from_str_radix(&hex, 16).ok()?;
        return Some(char::from_u32(code).unwrap_or('\u{FFFD}'));
    }
    let c = *chars.get(*i)?;
    *i += 1;
    Some(c)
}

fn parse_string(chars: &[char], i: &mut usize) -> Option<String> {
    let quote = *chars.get(*i)?;
    *i += 1;
    let mut out = String::new();
    loop {
        let c = *chars.get(*i)?;
        *i += 1;
        match c {
            '\\' => out.push(parse_escape(chars, i)?),
            c if c == quote => return Some(out),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_the_locator_writes() {
        let Some((c, comb)) = parse(r#"#main-nav > a:nth-of-type(2)"#) else {
            panic!("should parse");
        };
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].id.as_deref(), Some("main-nav"));
        assert_eq!(c[1].tag.as_deref(), Some("a"));
        assert_eq!(c[1].nth_of_type, Some(2));
        assert_eq!(comb, [Combinator::Child]);

        let Some((c, _)) = parse(r#"input[name="a\"b\\c"]"#) else {
            panic!("should parse");
        };
        assert_eq!(
            c[0].attrs,
            [("name".to_string(), Some("a\"b\\c".to_string()))]
        );

        let Some((c, _)) = parse(r"#\31 st") else {
            panic!("should parse");
        };
        assert_eq!(c[0].id.as_deref(), Some("1st"));

        let Some((_, comb)) = parse("div span") else {
            panic!("should parse");
        };
        assert_eq!(comb, [Combinator::Descendant]);
    }

    #[test]
    fn rejects_what_it_does_not_support() {
        for s in [
            "",
            "a:hover",
            "a + b",
            "a,b",
            "[x",
            "a:nth-of-type(x)",
            "> a",
        ] {
            assert!(parse(s).is_none(), "{s}");
        }
    }
}
