//! HTML's `pattern` attribute: whether a value matches it, and values that do.
//!
//! A pattern is a JavaScript regular expression matched against the whole value (HTML
//! compiles `^(?:pattern)$` with the `v` flag). `regex-syntax` reads it: the syntax that
//! forms use (classes, groups, alternatives, counted repetitions, `\d`, `\w`, `\s`,
//! `\uXXXX`, Unicode properties) is shared by both dialects. What `regex-syntax` refuses
//! (backreferences, lookaround) makes the pattern unknown, and callers then treat it as
//! such rather than guess. `\d` and `\w` keep JavaScript's ASCII meaning. `regex` does
//! the matching, in linear time whatever the pattern. `rand_regex` writes values, with
//! every class narrowed to what a person types: letters and digits where the class
//! allows them, else printable ASCII, else the class as it is.

use rand::{Rng, RngCore};
use regex_syntax::hir::{
    Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition,
};

/// Patterns longer than this are not "easy".
const MAX_SOURCE: usize = 512;
/// A pattern whose shortest match is this long is not one people fill by hand.
const MAX_MIN_LEN: usize = 2000;
/// Longest compiled matcher, in bytes of `regex`'s own accounting: `(a{1000}){1000}`
/// is refused rather than built.
const SIZE_LIMIT: usize = 1 << 20;
/// Repetitions without an upper bound (`+`, `*`, `{2,}`) run at most this many times
/// past their minimum when values are written, before callers ask for more.
const ROOM: u32 = 3;

/// A readable `pattern`, matched against the whole value as HTML does.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    matcher: regex::Regex,
    /// What values are written from; `None` when `rand_regex` cannot write it (a
    /// pattern with a word boundary `\b` inside).
    writer: Option<Hir>,
}

impl Pattern {
    /// `None` when the pattern uses syntax that cannot be read, or is too large.
    pub(crate) fn parse(source: &str) -> Option<Pattern> {
        if source.len() > MAX_SOURCE {
            return None;
        }
        let translated = ascii_escapes(source)?;
        let whole = format!("^(?:{translated})$");
        let hir = regex_syntax::ParserBuilder::new()
            .build()
            .parse(&whole)
            .ok()?;
        if hir.properties().minimum_len()? > MAX_MIN_LEN {
            return None;
        }
        let matcher = regex::RegexBuilder::new(&whole)
            .size_limit(SIZE_LIMIT)
            .build()
            .ok()?;
        let inner = regex_syntax::ParserBuilder::new()
            .build()
            .parse(&translated)
            .ok()?;
        let writer = rand_regex::Regex::with_hir(typable(inner.clone()), ROOM)
            .is_ok()
            .then_some(inner);
        Some(Pattern { matcher, writer })
    }

    pub(crate) fn matches(&self, value: &str) -> bool {
        self.matcher.is_match(value)
    }

    /// A value the pattern should accept; `extra` lets repetitions run longer, for callers
    /// that need to meet a `minlength`. Callers check the result with [`Pattern::matches`].
    pub(crate) fn generate(&self, extra: u32, rng: &mut dyn RngCore) -> String {
        let Some(hir) = &self.writer else {
            return String::new();
        };
        match rand_regex::Regex::with_hir(typable(hir.clone()), ROOM.saturating_add(extra)) {
            Ok(writer) => rng.sample::<String, _>(&writer),
            Err(_) => String::new(),
        }
    }
}

/// The pattern with `\d`, `\D`, `\w` and `\W` written as the ASCII classes they are in
/// JavaScript (in `regex` they are Unicode classes). `None` for `\D` and `\W` inside a
/// class, which have no such spelling, and for a dangling `\`.
fn ascii_escapes(source: &str) -> Option<String> {
    let mut out = String::with_capacity(source.len() + 16);
    let mut chars = source.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let e = chars.next()?;
                match (e, in_class) {
                    ('d', false) => out.push_str("[0-9]"),
                    ('d', true) => out.push_str("0-9"),
                    ('D', false) => out.push_str("[^0-9]"),
                    ('w', false) => out.push_str("[0-9A-Za-z_]"),
                    ('w', true) => out.push_str("0-9A-Za-z_"),
                    ('W', false) => out.push_str("[^0-9A-Za-z_]"),
                    ('D' | 'W', true) => return None,
                    _ => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // `[^]...]` and `[]...]`: a leading `]` is not the end in regex-syntax;
                // JavaScript's `[]` matches nothing. Both are rare enough to leave.
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// `hir` with every class narrowed to the characters a person would type: letters and
/// digits when the class has some, else printable ASCII, else left as it is. `^` and `$`
/// go: the whole value is matched anyway.
fn typable(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Class(Class::Unicode(class)) => Hir::class(Class::Unicode(narrow(class))),
        HirKind::Class(class) => Hir::class(class),
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(l) => Hir::literal(l.0),
        HirKind::Look(Look::Start | Look::End) => Hir::empty(),
        HirKind::Look(l) => Hir::look(l),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(typable(*r.sub)),
            ..r
        }),
        HirKind::Capture(c) => Hir::capture(Capture {
            sub: Box::new(typable(*c.sub)),
            ..c
        }),
        HirKind::Concat(parts) => Hir::concat(parts.into_iter().map(typable).collect()),
        HirKind::Alternation(parts) => Hir::alternation(parts.into_iter().map(typable).collect()),
    }
}

fn narrow(class: ClassUnicode) -> ClassUnicode {
    let alphanumeric = [('0', '9'), ('A', 'Z'), ('a', 'z')];
    let printable = [(' ', '~')];
    for allowed in [&alphanumeric[..], &printable[..]] {
        let mut narrowed =
            ClassUnicode::new(allowed.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)));
        narrowed.intersect(&class);
        if narrowed.ranges().iter().next().is_some() {
            return narrowed;
        }
    }
    class
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn check(pattern: &str, good: &[&str], bad: &[&str]) {
        let p = Pattern::parse(pattern).unwrap_or_else(|| panic!("parse {pattern}"));
        for g in good {
            assert!(p.matches(g), "{pattern} should match {g:?}");
        }
        for b in bad {
            assert!(!p.matches(b), "{pattern} should not match {b:?}");
        }
    }

    #[test]
    fn matches_whole_values() {
        check("[0-9]{5}", &["94107"], &["9410", "941077", "abcde", ""]);
        check(
            r"\d{3}-\d{3}-\d{4}",
            &["555-010-2030"],
            &["5550102030", "555-010-203"],
        );
        check("[A-Za-z ]+", &["Alex Morgan"], &["Alex1", ""]);
        check("a|bc", &["a", "bc"], &["abc", "b"]);
        check("(ab)*c?", &["", "abab", "abc", "c"], &["aba", "cc"]);
        check(
            r"[^@\s]+@[^@\s]+\.[a-z]{2,}",
            &["a@b.com"],
            &["a@b", "a b@c.de"],
        );
        check("^\\+?[0-9 ]{7,15}$", &["+1 555 010 2030"], &["call me"]);
        check("(?:x|y){2,3}", &["xy", "yyy"], &["x", "xxxx"]);
        check("a{2,}", &["aa", "aaaaa"], &["a"]);
        check("(a?){3}b", &["b", "ab", "aaab"], &["aaaab"]);
        check("[\\w.-]+", &["a.b-c_d"], &["a b"]);
        check(r"\u0041\x42", &["AB"], &["ab"]);
    }

    #[test]
    fn digits_and_words_are_ascii_as_in_javascript() {
        check(r"\d+", &["2024"], &["٢٠٢٤", "2O24"]);
        check(r"\w+", &["user_1"], &["usér"]);
        check(r"[\d ]+", &["12 34"], &["١٢"]);
        check(r"\D\W", &["a-"], &["1-", "ab"]);
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        for p in [
            r"(a)\1",
            "(?=a)a",
            r"[^\D]",
            "(ab",
            "*a",
            "a{2,1}",
            "(a{1000}){1000}",
            "\\",
        ] {
            assert!(Pattern::parse(p).is_none(), "{p}");
        }
    }

    #[test]
    fn generates_matching_values_a_person_could_type() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for pattern in [
            "[0-9]{5}",
            r"\d{3}-\d{3}-\d{4}",
            "[A-Z]{2}[0-9]{2,4}",
            "(SAVE|FREE)[0-9]+",
            "[^0-9]{3,}",
            r"[a-z]+@[a-z]+\.(com|org)",
            r"[^@\s]+@[^@\s]+\.[a-z]{2,}",
            ".{8,}",
            "^[A-Z][a-z]*$",
            r"\p{L}{3}",
        ] {
            let p = Pattern::parse(pattern).unwrap();
            for _ in 0..50 {
                let v = p.generate(0, &mut rng);
                assert!(p.matches(&v), "{pattern} generated {v:?}");
                assert!(v.chars().all(|c| c.is_ascii_graphic() || c == ' '), "{v:?}");
            }
        }
        // Letters and digits where the class allows them, not punctuation.
        let p = Pattern::parse(r"[^@\s]+").unwrap();
        let v = p.generate(0, &mut rng);
        assert!(v.chars().all(|c| c.is_ascii_alphanumeric()), "{v:?}");
    }

    #[test]
    fn more_room_makes_longer_values() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let p = Pattern::parse("[a-z]+").unwrap();
        let short = (0..30).map(|_| p.generate(0, &mut rng).len()).max();
        let long = (0..30).map(|_| p.generate(20, &mut rng).len()).max();
        assert!(short <= Some(4) && long > Some(10), "{short:?} {long:?}");
    }

    #[test]
    fn pathological_patterns_stay_fast() {
        let p = Pattern::parse("(a*)*(a|aa)*b").unwrap();
        assert!(!p.matches(&"a".repeat(300)));
    }
}
