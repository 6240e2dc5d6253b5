//! The easy part of HTML's `pattern` attribute: enough of JavaScript regular expressions to
//! check a value against `[0-9]{5}` or `\d{3}-\d{4}|[A-Z]{2}\d+` and to write a value that
//! matches. Anything beyond (backreferences, lookaround, word boundaries, Unicode
//! properties, set operations) is refused, and callers then treat the pattern as unknown
//! rather than guess.
//!
//! Matching follows every path at once (sets of positions), so no pattern can make it
//! take exponential time.

use rand::{Rng, RngCore};

/// Patterns longer than this, or nested deeper, are not "easy".
const MAX_SOURCE: usize = 512;
const MAX_DEPTH: usize = 16;
const MAX_REPEAT: u32 = 1000;
const MAX_MIN_LEN: u64 = 2000;

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Char(char),
    Class(Class),
    /// `.`: anything but a line terminator.
    Any,
    Start,
    End,
    /// Alternatives, each a sequence.
    Group(Vec<Vec<Node>>),
    Repeat(Box<Node>, u32, Option<u32>),
}

#[derive(Debug, Clone, PartialEq)]
struct Class {
    negated: bool,
    ranges: Vec<(char, char)>,
}

impl Class {
    fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= c && c <= b) != self.negated
    }
}

const DIGITS: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{a0}', '\u{a0}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{feff}', '\u{feff}'),
];

/// A parsed `pattern`, matched against the whole value as HTML does.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pattern {
    branches: Vec<Vec<Node>>,
}

impl Pattern {
    /// `None` when the pattern uses syntax this module does not handle.
    pub(crate) fn parse(source: &str) -> Option<Pattern> {
        if source.len() > MAX_SOURCE {
            return None;
        }
        let mut parser = Parser {
            chars: source.chars().collect(),
            pos: 0,
        };
        let branches = parser.alternatives(0)?;
        // A pattern whose shortest match is this long is not one people fill by hand.
        (parser.pos == parser.chars.len() && min_len_group(&branches) <= MAX_MIN_LEN)
            .then_some(Pattern { branches })
    }

    pub(crate) fn matches(&self, value: &str) -> bool {
        let input: Vec<char> = value.chars().collect();
        let mut start = vec![false; input.len() + 1];
        start[0] = true;
        let end = run_group(&self.branches, &input, &start);
        end[input.len()]
    }

    /// A value the pattern should accept; `extra` lets repetitions run longer, for callers
    /// that need to meet a `minlength`. Callers check the result with [`Pattern::matches`].
    pub(crate) fn generate(&self, extra: u32, rng: &mut dyn RngCore) -> String {
        let mut out = String::new();
        gen_group(&self.branches, extra, rng, &mut out);
        out
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn alternatives(&mut self, depth: usize) -> Option<Vec<Vec<Node>>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut branches = vec![self.sequence(depth)?];
        while self.peek() == Some('|') {
            self.pos += 1;
            branches.push(self.sequence(depth)?);
        }
        Some(branches)
    }

    fn sequence(&mut self, depth: usize) -> Option<Vec<Node>> {
        let mut nodes = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom(depth)?;
            let atom = self.quantified(atom)?;
            nodes.push(atom);
        }
        Some(nodes)
    }

    fn atom(&mut self, depth: usize) -> Option<Node> {
        let c = self.next()?;
        Some(match c {
            '(' => {
                if self.peek() == Some('?') {
                    self.pos += 1;
                    match self.next()? {
                        ':' => {}
                        '<' if !matches!(self.peek(), Some('=' | '!')) => {
                            // A named group: skip the name.
                            while self.next()? != '>' {}
                        }
                        _ => return None,
                    }
                }
                let inner = self.alternatives(depth + 1)?;
                if self.next()? != ')' {
                    return None;
                }
                Node::Group(inner)
            }
            '[' => Node::Class(self.class()?),
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '\\' => self.escape(false)?,
            '*' | '+' | '?' | '{' | ')' => return None,
            other => Node::Char(other),
        })
    }

    fn quantified(&mut self, atom: Node) -> Option<Node> {
        let (min, max) = match self.peek() {
            Some('*') => {
                self.pos += 1;
                (0, None)
            }
            Some('+') => {
                self.pos += 1;
                (1, None)
            }
            Some('?') => {
                self.pos += 1;
                (0, Some(1))
            }
            Some('{') => {
                self.pos += 1;
                let min = self.number()?;
                let max = match self.next()? {
                    '}' => Some(min),
                    ',' if self.peek() == Some('}') => {
                        self.pos += 1;
                        None
                    }
                    ',' => {
                        let max = self.number()?;
                        if self.next()? != '}' || max < min {
                            return None;
                        }
                        Some(max)
                    }
                    _ => return None,
                };
                (min, max)
            }
            _ => return Some(atom),
        };
        if self.peek() == Some('?') {
            // Lazy or greedy, the set of full matches is the same.
            self.pos += 1;
        }
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return None;
        }
        Some(Node::Repeat(Box::new(atom), min, max))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let text: String = self.chars.get(start..self.pos)?.iter().collect();
        text.parse::<u32>().ok().filter(|n| *n <= MAX_REPEAT)
    }

    fn class(&mut self) -> Option<Class> {
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let mut ranges = Vec::new();
        loop {
            let c = self.next()?;
            let low = match c {
                ']' => break,
                '[' => return None,
                '\\' => match self.escape(true)? {
                    Node::Char(c) => c,
                    Node::Class(Class {
                        negated: false,
                        ranges: r,
                    }) => {
                        ranges.extend(r);
                        continue;
                    }
                    _ => return None,
                },
                c => c,
            };
            if self.peek() == Some('-') && self.chars.get(self.pos + 1).is_some_and(|&n| n != ']') {
                self.pos += 1;
                let high = match self.next()? {
                    '\\' => match self.escape(true)? {
                        Node::Char(c) => c,
                        _ => return None,
                    },
                    '[' => return None,
                    c => c,
                };
                if high < low {
                    return None;
                }
                ranges.push((low, high));
            } else {
                if c != '\\'
                    && matches!(self.peek(), Some(n) if n == c)
                    && "&-!#%,:;<=>@`~".contains(c)
                {
                    // `&&`, `--` and friends are set operations under the `v` flag.
                    return None;
                }
                ranges.push((low, low));
            }
        }
        Some(Class { negated, ranges })
    }

    fn escape(&mut self, in_class: bool) -> Option<Node> {
        let c = self.next()?;
        let class = |negated: bool, ranges: &[(char, char)]| {
            Node::Class(Class {
                negated,
                ranges: ranges.to_vec(),
            })
        };
        Some(match c {
            'd' => class(false, DIGITS),
            'D' if !in_class => class(true, DIGITS),
            'w' => class(false, WORD),
            'W' if !in_class => class(true, WORD),
            's' => class(false, SPACE),
            'S' if !in_class => class(true, SPACE),
            't' => Node::Char('\t'),
            'n' => Node::Char('\n'),
            'r' => Node::Char('\r'),
            'f' => Node::Char('\u{c}'),
            'v' => Node::Char('\u{b}'),
            'b' if in_class => Node::Char('\u{8}'),
            '0' if !self.peek().is_some_and(|n| n.is_ascii_digit()) => Node::Char('\0'),
            'x' => {
                let hex: String = [self.next()?, self.next()?].iter().collect();
                Node::Char(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?)
            }
            'u' => {
                let hex: String = if self.peek() == Some('{') {
                    self.pos += 1;
                    let mut hex = String::new();
                    loop {
                        match self.next()? {
                            '}' => break,
                            h => hex.push(h),
                        }
                        if hex.len() > 6 {
                            return None;
                        }
                    }
                    hex
                } else {
                    (0..4).map(|_| self.next()).collect::<Option<String>>()?
                };
                Node::Char(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?)
            }
            c if c.is_ascii_alphanumeric() => return None,
            c => Node::Char(c),
        })
    }
}

fn min_len_group(branches: &[Vec<Node>]) -> u64 {
    branches
        .iter()
        .map(|b| b.iter().map(min_len).fold(0u64, u64::saturating_add))
        .min()
        .unwrap_or(0)
}

fn min_len(node: &Node) -> u64 {
    match node {
        Node::Char(_) | Node::Class(_) | Node::Any => 1,
        Node::Start | Node::End => 0,
        Node::Group(branches) => min_len_group(branches),
        Node::Repeat(inner, min, _) => min_len(inner).saturating_mul(u64::from(*min)),
    }
}

fn run_group(branches: &[Vec<Node>], input: &[char], starts: &[bool]) -> Vec<bool> {
    let mut out = vec![false; starts.len()];
    for branch in branches {
        let mut cur = starts.to_vec();
        for node in branch {
            cur = run_node(node, input, &cur);
            if !cur.iter().any(|&b| b) {
                break;
            }
        }
        for (o, c) in out.iter_mut().zip(cur) {
            *o |= c;
        }
    }
    out
}

fn run_node(node: &Node, input: &[char], cur: &[bool]) -> Vec<bool> {
    let mut next = vec![false; cur.len()];
    let mut one = |test: &dyn Fn(char) -> bool| {
        for (i, &c) in input.iter().enumerate() {
            if cur[i] && test(c) {
                next[i + 1] = true;
            }
        }
    };
    match node {
        Node::Char(want) => one(&|c| c == *want),
        Node::Class(class) => one(&|c| class.contains(c)),
        Node::Any => one(&|c| !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')),
        Node::Start => next[0] = cur[0],
        Node::End => {
            let last = cur.len() - 1;
            next[last] = cur[last];
        }
        Node::Group(branches) => return run_group(branches, input, cur),
        Node::Repeat(inner, min, max) => {
            let mut result = if *min == 0 {
                cur.to_vec()
            } else {
                vec![false; cur.len()]
            };
            let mut frontier = cur.to_vec();
            let mut count = 0u32;
            while max.is_none_or(|m| count < m) {
                let stepped = run_node(inner, input, &frontier);
                count += 1;
                if !stepped.iter().any(|&b| b) {
                    break;
                }
                let stable = stepped == frontier;
                if count >= *min {
                    let grew = stepped.iter().zip(&result).any(|(&s, &r)| s && !r);
                    for (r, s) in result.iter_mut().zip(&stepped) {
                        *r |= *s;
                    }
                    if !grew && max.is_none() {
                        break;
                    }
                }
                if stable && count >= *min {
                    break;
                }
                frontier = stepped;
            }
            return result;
        }
    }
    next
}

/// Characters a person would type, tried first when a class allows them.
const FRIENDLY: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const FALLBACK: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.@";

fn gen_group(branches: &[Vec<Node>], extra: u32, rng: &mut dyn RngCore, out: &mut String) {
    if branches.is_empty() {
        return;
    }
    let branch = &branches[rng.random_range(0..branches.len())];
    for node in branch {
        gen_node(node, extra, rng, out);
    }
}

fn gen_node(node: &Node, extra: u32, rng: &mut dyn RngCore, out: &mut String) {
    match node {
        Node::Char(c) => out.push(*c),
        Node::Any => out.push(pick_char(FRIENDLY, rng)),
        Node::Start | Node::End => {}
        Node::Group(branches) => gen_group(branches, extra, rng, out),
        Node::Class(class) => {
            let friendly: Vec<char> = FRIENDLY.chars().filter(|&c| class.contains(c)).collect();
            let chosen = if !friendly.is_empty() {
                friendly[rng.random_range(0..friendly.len())]
            } else if class.negated {
                let other: Vec<char> = FALLBACK.chars().filter(|&c| class.contains(c)).collect();
                match other.len() {
                    0 => '\u{2603}',
                    n => other[rng.random_range(0..n)],
                }
            } else {
                let printable: Vec<char> = class
                    .ranges
                    .iter()
                    .flat_map(|&(a, b)| (a..=b).take(64))
                    .filter(|c| !c.is_control())
                    .collect();
                match printable.len() {
                    0 => class.ranges.first().map_or('x', |r| r.0),
                    n => printable[rng.random_range(0..n)],
                }
            };
            out.push(chosen);
        }
        Node::Repeat(inner, min, max) => {
            let roomy = min.saturating_add(3).saturating_add(extra);
            let hi = max.map_or(roomy, |m| m.min(roomy)).max(*min);
            let lo = if *min == 0 && hi > 0 { 1 } else { *min };
            let count = rng.random_range(lo.min(hi)..=hi);
            for _ in 0..count {
                gen_node(inner, extra, rng, out);
            }
        }
    }
}

fn pick_char(set: &str, rng: &mut dyn RngCore) -> char {
    let chars: Vec<char> = set.chars().collect();
    chars
        .get(rng.random_range(0..chars.len().max(1)))
        .copied()
        .unwrap_or('x')
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
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        for p in [
            r"(a)\1",
            "(?=a)a",
            r"\bword",
            r"\p{L}+",
            "[[a-z]--[aeiou]]",
            "a**",
            "(ab",
            "*a",
            "a{2,1}",
            "(a{1000}){1000}",
        ] {
            assert_eq!(Pattern::parse(p), None, "{p}");
        }
    }

    #[test]
    fn generates_matching_values() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for pattern in [
            "[0-9]{5}",
            r"\d{3}-\d{3}-\d{4}",
            "[A-Z]{2}[0-9]{2,4}",
            "(SAVE|FREE)[0-9]+",
            "[^0-9]{3,}",
            r"[a-z]+@[a-z]+\.(com|org)",
            ".{8,}",
            "^[A-Z][a-z]*$",
        ] {
            let p = Pattern::parse(pattern).unwrap();
            for _ in 0..50 {
                let v = p.generate(0, &mut rng);
                assert!(p.matches(&v), "{pattern} generated {v:?}");
            }
        }
    }

    #[test]
    fn pathological_patterns_stay_fast() {
        let p = Pattern::parse("(a*)*(a|aa)*b").unwrap();
        assert!(!p.matches(&"a".repeat(300)));
    }
}
