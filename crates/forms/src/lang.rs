//! The constraint language of form fields: the rules a field's value must follow, written
//! as Jest-like expectations that people and language models read and write alike.
//!
//! ```text
//! expect(field('email')).toBeTruthy()
//! expect(field('password')).toHaveLengthCondition('>=', 8)
//! expect(field('return')).toHaveCompareCondition('>', field('depart'))
//! expect(field('age')).not.toHaveCompareCondition('<', 18)
//! expect(field('promo')).freeTextConstraint("must be a code printed on the voucher")
//! expect(field('city')).dummy(field('country'))
//! ```
//!
//! A [`Constraint`] names its subject field, may be negated with `.not`, and applies one of
//! fifteen [`Template`]s, or the `dummy` marker that only records that another field's
//! value matters. Its `Display` is the canonical text form: canonical template names,
//! field ids and string literals in single quotes, the text of `freeTextConstraint` in
//! double quotes, with `\'`, `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}` escapes so that a
//! constraint always prints on one line.
//!
//! [`parse`] reads exactly the canonical form back. [`parse_tolerant`] reads what language
//! models write: older and Jest spellings of template names, misspelt names mapped to the
//! nearest template, any quote style, loose whitespace, a trailing `;`, numbers written as
//! strings. [`parse_many`] picks every constraint out of a free-text answer.
//! [`Constraint::holds`] evaluates a constraint against field values.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

#[cfg(test)]
mod tests;

/// One of the constraint templates, named by its canonical Jest-like method name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Template {
    /// `toBeEqual(v)`: the value equals a literal or another field's value.
    ToBeEqual,
    /// `toHaveLengthCondition(op, n)`: the number of characters compares to `n` by `op`.
    ToHaveLengthCondition,
    /// `toBeTruthy()`: the value is not empty (whitespace does not count).
    ToBeTruthy,
    /// `toHaveCompareCondition(op, v)`: the value, a number, date or time, compares to a
    /// literal or another field's value by `op`.
    ToHaveCompareCondition,
    /// `toContainSubString(s)`: the value contains `s`.
    ToContainSubString,
    /// `toContainChar(c)`: the value contains the character `c`.
    ToContainChar,
    /// `toBeAlphabetical()`: the value is letters only.
    ToBeAlphabetical,
    /// `toBeNumerical()`: the value is a decimal number.
    ToBeNumerical,
    /// `toBeAlphaNumerical()`: the value is letters and digits only.
    ToBeAlphaNumerical,
    /// `toContainUpperCaseChars()`: the value has at least one uppercase letter.
    ToContainUpperCaseChars,
    /// `toContainSpecialChars()`: the value has a character that is neither a letter, a
    /// digit nor whitespace.
    ToContainSpecialChars,
    /// `toContainWhiteSpace()`: the value has a whitespace character.
    ToContainWhiteSpace,
    /// `toStartWithString(s)`: the value starts with `s`.
    ToStartWithString,
    /// `toEndWithString(s)`: the value ends with `s`.
    ToEndWithString,
    /// `freeTextConstraint("…")`: a rule no other template can express, in prose.
    FreeText,
    /// `dummy(field('id'))`: the value of another field matters to this one, in a way
    /// not stated.
    Dummy,
}

/// The shape of one argument of a [`Template`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Param {
    /// A literal string or number, or `field('id')`.
    Value,
    /// A comparison operator, written as a string: `'>='`.
    Operator,
    /// A non-negative whole number of characters.
    Length,
    /// A number, a date or time string, or `field('id')`.
    Comparable,
    /// A string.
    Text,
    /// A string of exactly one character.
    Char,
    /// Prose, in double quotes.
    Prose,
    /// `field('id')`.
    FieldRef,
}

impl Param {
    /// What an argument of this shape looks like, for error messages.
    fn describe(self) -> &'static str {
        match self {
            Param::Value => "a string, a number or field('…')",
            Param::Operator => "a comparison operator such as '>='",
            Param::Length => "a non-negative whole number",
            Param::Comparable => "a number, a date string or field('…')",
            Param::Text => "a single-quoted string",
            Param::Char => "a single-quoted string of one character",
            Param::Prose => "a double-quoted string",
            Param::FieldRef => "field('…')",
        }
    }
}

/// The kinds of fields a [`Template`] makes sense for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Applies {
    /// Any field.
    Any,
    /// Fields a person types text into.
    Text,
    /// Fields with ordered values: numbers, dates, times.
    Ordered,
}

/// Other spellings of template names: older names of the same templates and Jest's own
/// matchers with the same arguments. Matched case-insensitively by [`Template::nearest`].
const ALIASES: &[(&str, Template)] = &[
    ("toBe", Template::ToBeEqual),
    ("toEqual", Template::ToBeEqual),
    ("toContainSubstr", Template::ToContainSubString),
    ("toContain", Template::ToContainSubString),
    ("toBeAlpha", Template::ToBeAlphabetical),
    ("toBeAlphaNumeric", Template::ToBeAlphaNumerical),
    ("toBeNumeric", Template::ToBeNumerical),
    ("toStartWith", Template::ToStartWithString),
    ("toEndWith", Template::ToEndWithString),
    ("freeText", Template::FreeText),
];

impl Template {
    /// Every template, in the order of the published list, `dummy` last.
    pub const ALL: [Template; 16] = [
        Template::ToBeEqual,
        Template::ToHaveLengthCondition,
        Template::ToBeTruthy,
        Template::ToHaveCompareCondition,
        Template::ToContainSubString,
        Template::ToContainChar,
        Template::ToBeAlphabetical,
        Template::ToBeNumerical,
        Template::ToBeAlphaNumerical,
        Template::ToContainUpperCaseChars,
        Template::ToContainSpecialChars,
        Template::ToContainWhiteSpace,
        Template::ToStartWithString,
        Template::ToEndWithString,
        Template::FreeText,
        Template::Dummy,
    ];

    /// The canonical method name, as printed.
    pub fn name(self) -> &'static str {
        match self {
            Template::ToBeEqual => "toBeEqual",
            Template::ToHaveLengthCondition => "toHaveLengthCondition",
            Template::ToBeTruthy => "toBeTruthy",
            Template::ToHaveCompareCondition => "toHaveCompareCondition",
            Template::ToContainSubString => "toContainSubString",
            Template::ToContainChar => "toContainChar",
            Template::ToBeAlphabetical => "toBeAlphabetical",
            Template::ToBeNumerical => "toBeNumerical",
            Template::ToBeAlphaNumerical => "toBeAlphaNumerical",
            Template::ToContainUpperCaseChars => "toContainUpperCaseChars",
            Template::ToContainSpecialChars => "toContainSpecialChars",
            Template::ToContainWhiteSpace => "toContainWhiteSpace",
            Template::ToStartWithString => "toStartWithString",
            Template::ToEndWithString => "toEndWithString",
            Template::FreeText => "freeTextConstraint",
            Template::Dummy => "dummy",
        }
    }

    /// The template with exactly this canonical name (case-sensitive).
    pub fn from_name(name: &str) -> Option<Template> {
        Template::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The template a possibly misspelt name most likely means: the canonical name or an
    /// alias (`toBe`, `toContainSubstr`, `toBeAlpha`, …) at the smallest case-insensitive
    /// edit distance, provided that distance is at most a third of the name's length and
    /// no other template is as close.
    pub fn nearest(name: &str) -> Option<Template> {
        resolve_name(name).ok()
    }

    /// The shapes of the arguments, in order.
    pub fn params(self) -> &'static [Param] {
        match self {
            Template::ToBeEqual => &[Param::Value],
            Template::ToHaveLengthCondition => &[Param::Operator, Param::Length],
            Template::ToHaveCompareCondition => &[Param::Operator, Param::Comparable],
            Template::ToContainSubString
            | Template::ToStartWithString
            | Template::ToEndWithString => &[Param::Text],
            Template::ToContainChar => &[Param::Char],
            Template::FreeText => &[Param::Prose],
            Template::Dummy => &[Param::FieldRef],
            Template::ToBeTruthy
            | Template::ToBeAlphabetical
            | Template::ToBeNumerical
            | Template::ToBeAlphaNumerical
            | Template::ToContainUpperCaseChars
            | Template::ToContainSpecialChars
            | Template::ToContainWhiteSpace => &[],
        }
    }

    /// The number of arguments.
    pub fn arity(self) -> usize {
        self.params().len()
    }

    /// The kinds of fields the template makes sense for.
    pub fn applies_to(self) -> Applies {
        match self {
            Template::ToBeEqual
            | Template::ToBeTruthy
            | Template::ToBeNumerical
            | Template::FreeText
            | Template::Dummy => Applies::Any,
            Template::ToHaveCompareCondition => Applies::Ordered,
            Template::ToHaveLengthCondition
            | Template::ToContainSubString
            | Template::ToContainChar
            | Template::ToBeAlphabetical
            | Template::ToBeAlphaNumerical
            | Template::ToContainUpperCaseChars
            | Template::ToContainSpecialChars
            | Template::ToContainWhiteSpace
            | Template::ToStartWithString
            | Template::ToEndWithString => Applies::Text,
        }
    }
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Levenshtein distance between two strings, counted in chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The template `name` stands for, tolerating aliases, case and misspellings.
fn resolve_name(name: &str) -> Result<Template, ParseErrorKind> {
    if let Some(template) = Template::from_name(name) {
        return Ok(template);
    }
    let lower = name.to_lowercase();
    let spellings = Template::ALL
        .iter()
        .map(|&t| (t.name(), t))
        .chain(ALIASES.iter().copied());
    let mut best = usize::MAX;
    let mut closest: Vec<Template> = Vec::new();
    for (spelling, template) in spellings {
        let distance = edit_distance(&lower, &spelling.to_lowercase());
        if distance < best {
            best = distance;
            closest.clear();
        }
        if distance == best && !closest.contains(&template) {
            closest.push(template);
        }
    }
    if closest.is_empty() || 3 * best > name.chars().count() {
        return Err(ParseErrorKind::UnknownTemplate {
            name: name.to_owned(),
            suggestion: None,
        });
    }
    if closest.len() > 1 {
        return Err(ParseErrorKind::AmbiguousTemplate {
            name: name.to_owned(),
            candidates: closest,
        });
    }
    Ok(closest[0])
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Every operator.
    pub const ALL: [CmpOp; 6] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ];

    /// The canonical symbol.
    pub fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }

    /// The operator a symbol stands for: the canonical symbols and the aliases `=`,
    /// `===`, `!==` and `<>`.
    pub fn parse(symbol: &str) -> Option<CmpOp> {
        match symbol {
            "=" | "===" => Some(CmpOp::Eq),
            "!==" | "<>" => Some(CmpOp::Ne),
            _ => Self::from_symbol(symbol),
        }
    }

    /// The operator with exactly this canonical symbol.
    fn from_symbol(symbol: &str) -> Option<CmpOp> {
        CmpOp::ALL.into_iter().find(|op| op.as_str() == symbol)
    }

    /// The operator that holds exactly when this one does not.
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// Whether `left op right` holds, given how `left` orders against `right`.
    pub fn holds(self, ordering: Ordering) -> bool {
        match self {
            CmpOp::Eq => ordering.is_eq(),
            CmpOp::Ne => ordering.is_ne(),
            CmpOp::Lt => ordering.is_lt(),
            CmpOp::Le => ordering.is_le(),
            CmpOp::Gt => ordering.is_gt(),
            CmpOp::Ge => ordering.is_ge(),
        }
    }
}

impl fmt::Display for CmpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The right-hand side of an equality or comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    /// The value of another field, by id: `field('id')`.
    Field(String),
    /// A string literal: a date, a time, a code.
    Str(String),
    /// A number literal. Infinities print as `Infinity` and `-Infinity`, NaN as `NaN`.
    Number(f64),
}

impl fmt::Display for Operand {
    /// The operand as written in a constraint: `field('id')`, `'text'` or `8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Field(id) => write_field(f, id),
            Operand::Str(s) => write_quoted(f, s, '\''),
            Operand::Number(n) => write_number(f, *n),
        }
    }
}

/// What a constraint checks: a [`Template`] with its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// `toBeEqual(v)`
    ToBeEqual(Operand),
    /// `toHaveLengthCondition(op, n)`
    ToHaveLengthCondition(CmpOp, usize),
    /// `toBeTruthy()`
    ToBeTruthy,
    /// `toHaveCompareCondition(op, v)`
    ToHaveCompareCondition(CmpOp, Operand),
    /// `toContainSubString(s)`
    ToContainSubString(String),
    /// `toContainChar(c)`
    ToContainChar(char),
    /// `toBeAlphabetical()`
    ToBeAlphabetical,
    /// `toBeNumerical()`
    ToBeNumerical,
    /// `toBeAlphaNumerical()`
    ToBeAlphaNumerical,
    /// `toContainUpperCaseChars()`
    ToContainUpperCaseChars,
    /// `toContainSpecialChars()`
    ToContainSpecialChars,
    /// `toContainWhiteSpace()`
    ToContainWhiteSpace,
    /// `toStartWithString(s)`
    ToStartWithString(String),
    /// `toEndWithString(s)`
    ToEndWithString(String),
    /// `freeTextConstraint("…")`
    FreeText(String),
    /// `dummy(field('id'))`
    Dummy(String),
}

impl Check {
    /// The template this check applies.
    pub fn template(&self) -> Template {
        match self {
            Check::ToBeEqual(_) => Template::ToBeEqual,
            Check::ToHaveLengthCondition(..) => Template::ToHaveLengthCondition,
            Check::ToBeTruthy => Template::ToBeTruthy,
            Check::ToHaveCompareCondition(..) => Template::ToHaveCompareCondition,
            Check::ToContainSubString(_) => Template::ToContainSubString,
            Check::ToContainChar(_) => Template::ToContainChar,
            Check::ToBeAlphabetical => Template::ToBeAlphabetical,
            Check::ToBeNumerical => Template::ToBeNumerical,
            Check::ToBeAlphaNumerical => Template::ToBeAlphaNumerical,
            Check::ToContainUpperCaseChars => Template::ToContainUpperCaseChars,
            Check::ToContainSpecialChars => Template::ToContainSpecialChars,
            Check::ToContainWhiteSpace => Template::ToContainWhiteSpace,
            Check::ToStartWithString(_) => Template::ToStartWithString,
            Check::ToEndWithString(_) => Template::ToEndWithString,
            Check::FreeText(_) => Template::FreeText,
            Check::Dummy(_) => Template::Dummy,
        }
    }

    /// Writes the argument list, without parentheses.
    fn write_args(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::ToBeEqual(v) => write!(f, "{v}"),
            Check::ToHaveLengthCondition(op, n) => write!(f, "'{op}', {n}"),
            Check::ToHaveCompareCondition(op, v) => write!(f, "'{op}', {v}"),
            Check::ToContainSubString(s)
            | Check::ToStartWithString(s)
            | Check::ToEndWithString(s) => write_quoted(f, s, '\''),
            Check::ToContainChar(c) => write_quoted(f, c.encode_utf8(&mut [0; 4]), '\''),
            Check::FreeText(s) => write_quoted(f, s, '"'),
            Check::Dummy(id) => write_field(f, id),
            Check::ToBeTruthy
            | Check::ToBeAlphabetical
            | Check::ToBeNumerical
            | Check::ToBeAlphaNumerical
            | Check::ToContainUpperCaseChars
            | Check::ToContainSpecialChars
            | Check::ToContainWhiteSpace => Ok(()),
        }
    }
}

/// A rule on the value of one field: `expect(field('id'))[.not].template(args)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// The id of the field the rule is about.
    pub field: String,
    /// Whether the rule is `.not`: the check must fail.
    pub negated: bool,
    /// The template and its arguments.
    pub check: Check,
}

impl Constraint {
    /// The rule that `field` passes `check`.
    pub fn new(field: impl Into<String>, check: Check) -> Constraint {
        Constraint {
            field: field.into(),
            negated: false,
            check,
        }
    }

    /// The opposite rule: the same check with `.not` added or removed.
    pub fn negate(&self) -> Constraint {
        Constraint {
            negated: !self.negated,
            ..self.clone()
        }
    }

    /// The template of the check.
    pub fn template(&self) -> Template {
        self.check.template()
    }

    /// The ids of the other fields the arguments refer to with `field('id')`, in order.
    pub fn related_fields(&self) -> Vec<&str> {
        match &self.check {
            Check::ToBeEqual(Operand::Field(id))
            | Check::ToHaveCompareCondition(_, Operand::Field(id))
            | Check::Dummy(id) => vec![id.as_str()],
            _ => Vec::new(),
        }
    }

    /// Whether the rule holds when `values` gives each field's current value, or `None`
    /// when that cannot be told: prose and `dummy` rules, a field without a value, or a
    /// comparison between values that are neither both numbers nor both dates or times
    /// of the same shape.
    ///
    /// - `toBeTruthy`: non-empty after trimming whitespace.
    /// - `toBeEqual`: numeric equality when both sides are numbers, exact string equality
    ///   otherwise; a number literal never equals a value that is not a number.
    /// - `toHaveLengthCondition`: compares the number of chars.
    /// - `toHaveCompareCondition`: compares as numbers when both sides are numbers, else
    ///   as text when both sides are dates or times of the same shape (`YYYY-MM-DD`,
    ///   `YYYY-MM`, `YYYY-MM-DDTHH:MM[:SS]`, `HH:MM[:SS]`), whose text order is their
    ///   time order.
    /// - `toBeNumerical`: after trimming, an optional sign and decimal digits with at most
    ///   one decimal point (`-3`, `+0.5`, `.5`, `7.`); no exponent, no separators.
    /// - `toBeAlphabetical`: non-empty and every char a letter (any script); spaces,
    ///   hyphens and apostrophes do not count as letters.
    /// - `toBeAlphaNumerical`: non-empty and every char a letter or digit.
    /// - `toContainUpperCaseChars`, `toContainWhiteSpace`: any such char.
    /// - `toContainSpecialChars`: any char that is neither alphanumeric nor whitespace.
    /// - `toContainSubString`, `toContainChar`, `toStartWithString`, `toEndWithString`:
    ///   plain, case-sensitive text tests.
    ///
    /// `.not` inverts the result.
    pub fn holds(&self, values: &dyn Fn(&str) -> Option<String>) -> Option<bool> {
        if matches!(self.check, Check::FreeText(_) | Check::Dummy(_)) {
            return None;
        }
        let value = values(&self.field)?;
        let v = value.as_str();
        let passes = match &self.check {
            Check::ToBeEqual(rhs) => equals(v, &resolve(rhs, values)?),
            Check::ToHaveLengthCondition(op, n) => op.holds(v.chars().count().cmp(n)),
            Check::ToBeTruthy => !v.trim().is_empty(),
            Check::ToHaveCompareCondition(op, rhs) => op.holds(compare(v, &resolve(rhs, values)?)?),
            Check::ToContainSubString(s) => v.contains(s.as_str()),
            Check::ToContainChar(c) => v.contains(*c),
            Check::ToBeAlphabetical => !v.is_empty() && v.chars().all(char::is_alphabetic),
            Check::ToBeNumerical => parse_number(v).is_some(),
            Check::ToBeAlphaNumerical => !v.is_empty() && v.chars().all(char::is_alphanumeric),
            Check::ToContainUpperCaseChars => v.chars().any(char::is_uppercase),
            Check::ToContainSpecialChars => v
                .chars()
                .any(|c| !c.is_alphanumeric() && !c.is_whitespace()),
            Check::ToContainWhiteSpace => v.chars().any(char::is_whitespace),
            Check::ToStartWithString(s) => v.starts_with(s.as_str()),
            Check::ToEndWithString(s) => v.ends_with(s.as_str()),
            Check::FreeText(_) | Check::Dummy(_) => return None,
        };
        Some(passes != self.negated)
    }
}

impl fmt::Display for Constraint {
    /// The canonical text form, which [`parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expect(")?;
        write_field(f, &self.field)?;
        f.write_str(")")?;
        if self.negated {
            f.write_str(".not")?;
        }
        write!(f, ".{}(", self.template().name())?;
        self.check.write_args(f)?;
        f.write_str(")")
    }
}

impl FromStr for Constraint {
    type Err = ParseError;

    /// Strict parsing, as [`parse`].
    fn from_str(s: &str) -> Result<Constraint, ParseError> {
        parse(s)
    }
}

/// A right-hand side with field references looked up.
enum Resolved {
    Number(f64),
    Text(String),
}

fn resolve(operand: &Operand, values: &dyn Fn(&str) -> Option<String>) -> Option<Resolved> {
    match operand {
        Operand::Field(id) => values(id).map(Resolved::Text),
        Operand::Str(s) => Some(Resolved::Text(s.clone())),
        Operand::Number(n) => Some(Resolved::Number(*n)),
    }
}

fn equals(value: &str, rhs: &Resolved) -> bool {
    match rhs {
        Resolved::Number(n) => parse_number(value) == Some(*n),
        Resolved::Text(t) => match (parse_number(value), parse_number(t)) {
            (Some(a), Some(b)) => a == b,
            _ => value == t,
        },
    }
}

fn compare(value: &str, rhs: &Resolved) -> Option<Ordering> {
    let left = parse_number(value);
    match rhs {
        Resolved::Number(n) => left?.partial_cmp(n),
        Resolved::Text(t) => match (left, parse_number(t)) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ => {
                let (a, b) = (value.trim(), t.trim());
                let shape = temporal_shape(a)?;
                (temporal_shape(b)? == shape).then(|| a.cmp(b))
            }
        },
    }
}

/// The shape of a date or time whose text order is its time order, as a pattern with
/// `d` for digits, or `None` for other text.
fn temporal_shape(s: &str) -> Option<&'static str> {
    const SHAPES: [&str; 6] = [
        "dddd-dd-dd",
        "dddd-dd",
        "dddd-dd-ddTdd:dd",
        "dddd-dd-ddTdd:dd:dd",
        "dd:dd",
        "dd:dd:dd",
    ];
    let shape: String = s
        .chars()
        .map(|c| if c.is_ascii_digit() { 'd' } else { c })
        .collect();
    SHAPES.into_iter().find(|&known| known == shape)
}

/// A trimmed decimal number: optional sign, digits with at most one decimal point.
fn parse_number(s: &str) -> Option<f64> {
    let s = s.trim();
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    let mut point = false;
    let mut digit = false;
    for c in unsigned.chars() {
        match c {
            '0'..='9' => digit = true,
            '.' if !point => point = true,
            _ => return None,
        }
    }
    if digit { s.parse().ok() } else { None }
}

fn write_number(f: &mut fmt::Formatter<'_>, n: f64) -> fmt::Result {
    if n.is_nan() {
        f.write_str("NaN")
    } else if n.is_infinite() {
        f.write_str(if n > 0.0 { "Infinity" } else { "-Infinity" })
    } else {
        write!(f, "{n}")
    }
}

fn write_field(f: &mut fmt::Formatter<'_>, id: &str) -> fmt::Result {
    f.write_str("field(")?;
    write_quoted(f, id, '\'')?;
    f.write_str(")")
}

/// Writes `s` between `quote`s, escaping the quote, backslashes and control characters.
fn write_quoted(f: &mut fmt::Formatter<'_>, s: &str, quote: char) -> fmt::Result {
    use fmt::Write as _;
    f.write_char(quote)?;
    for c in s.chars() {
        match c {
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c == quote => write!(f, "\\{c}")?,
            c if c.is_control() => write!(f, "\\u{{{:x}}}", u32::from(c))?,
            c => f.write_char(c)?,
        }
    }
    f.write_char(quote)
}

/// Why a text is not a constraint, where, and the text itself.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind} (column {column} of `{text}`)", column = column(.text, *.offset))]
pub struct ParseError {
    kind: ParseErrorKind,
    offset: usize,
    text: String,
}

/// The 1-based char column of a byte offset.
fn column(text: &str, offset: usize) -> usize {
    text.get(..offset).map_or(offset, |s| s.chars().count()) + 1
}

impl ParseError {
    /// What was wrong.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The byte offset in [`ParseError::text`] where the problem was found.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The text that failed to parse: the whole input of [`parse`] and
    /// [`parse_tolerant`], or the offending line of a [`parse_many`] answer from
    /// `expect(` on.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// What was wrong with a constraint's text.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseErrorKind {
    /// Something other than what the grammar allows here; `found` quotes the text there.
    Expected {
        expected: &'static str,
        found: String,
    },
    /// A string literal without its closing quote on the same line.
    UnterminatedString,
    /// A malformed `\x`, `\u` escape in a string literal.
    InvalidEscape(String),
    /// An operator that is not one of `==`, `!=`, `<`, `<=`, `>`, `>=` (or, when parsing
    /// tolerantly, an alias of one).
    UnknownOperator(String),
    /// A template name that is not known; strict parsing suggests the nearest template.
    UnknownTemplate {
        name: String,
        suggestion: Option<Template>,
    },
    /// A misspelt template name equally close to several templates.
    AmbiguousTemplate {
        name: String,
        candidates: Vec<Template>,
    },
    /// Too many or too few arguments.
    WrongArity {
        template: Template,
        expected: usize,
        found: usize,
    },
    /// An argument of the wrong shape; `index` counts from 0.
    BadArgument {
        template: Template,
        index: usize,
        expected: &'static str,
        found: String,
    },
    /// Text after a complete constraint.
    TrailingInput(String),
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Expected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ParseErrorKind::UnterminatedString => f.write_str("unterminated string literal"),
            ParseErrorKind::InvalidEscape(escape) => write!(f, "invalid escape `{escape}`"),
            ParseErrorKind::UnknownOperator(op) => {
                write!(f, "unknown comparison operator `{op}`")
            }
            ParseErrorKind::UnknownTemplate { name, suggestion } => {
                write!(f, "unknown template `{name}`")?;
                match suggestion {
                    Some(t) => write!(f, " (did you mean `{t}`?)"),
                    None => Ok(()),
                }
            }
            ParseErrorKind::AmbiguousTemplate { name, candidates } => {
                write!(f, "template name `{name}` is ambiguous: it could be ")?;
                for (i, t) in candidates.iter().enumerate() {
                    let sep = if i == 0 { "" } else { " or " };
                    write!(f, "{sep}`{t}`")?;
                }
                Ok(())
            }
            ParseErrorKind::WrongArity {
                template,
                expected,
                found,
            } => write!(
                f,
                "`{template}` takes {expected} argument{}, found {found}",
                if *expected == 1 { "" } else { "s" }
            ),
            ParseErrorKind::BadArgument {
                template,
                index,
                expected,
                found,
            } => write!(
                f,
                "argument {} of `{template}` must be {expected}, found {found}",
                index + 1
            ),
            ParseErrorKind::TrailingInput(rest) => {
                write!(f, "unexpected `{rest}` after the constraint")
            }
        }
    }
}

/// Parses one constraint in the canonical form [`Constraint`]'s `Display` writes:
/// canonical template and operator names, single-quoted field ids and literals,
/// double-quoted prose, no text around it. Whitespace is allowed inside argument lists.
pub fn parse(text: &str) -> Result<Constraint, ParseError> {
    Parser::new(text, false).whole()
}

/// Parses one constraint as language models write them. On top of [`parse`], accepts:
///
/// - template aliases (`toBe`, `toContainSubstr`, `toBeAlpha`, …), any letter case, and
///   misspelt names, mapped to the nearest template ([`Template::nearest`]);
/// - operator aliases (`=`, `===`, `!==`, `<>`), quoted or bare;
/// - single, double or backtick quotes anywhere, `field(id)` without quotes, and a bare
///   `expect('id')` for `expect(field('id'))`;
/// - whitespace anywhere between tokens (`.not .toBe`), around the constraint, and a
///   trailing `;`;
/// - no parentheses after a template without arguments (`.toBeTruthy`);
/// - numbers written as strings where a number is expected (`'8'`), whole numbers
///   written with a fraction (`8.0`), numbers where text is expected;
/// - a plain string where a field reference is expected (`dummy('country')`);
/// - a trailing comma in an argument list;
/// - `toContainChar` with a longer string, read as `toContainSubString`.
pub fn parse_tolerant(text: &str) -> Result<Constraint, ParseError> {
    Parser::new(text, true).whole()
}

/// Picks every constraint out of a free-text answer: each `expect(` that does not
/// continue a longer word starts one, wherever it is (prose, markdown code fences,
/// bullets, numbered lists), and is parsed tolerantly; a constraint may span lines. When
/// one fails, the error is collected, naming the rest of its line, and the search goes
/// on from the next line. Constraints come in the order of the text, repeats included.
pub fn parse_many(text: &str) -> (Vec<Constraint>, Vec<ParseError>) {
    const START: &str = "expect(";
    let mut constraints = Vec::new();
    let mut errors = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find(START) {
        let start = from + found;
        let continues_word = text[..start].chars().next_back().is_some_and(is_ident_char);
        if continues_word {
            from = start + START.len();
            continue;
        }
        let line_end = text[start..]
            .find(['\n', '\r'])
            .map_or(text.len(), |i| start + i);
        // A failure may come from reading on into the next lines; the line alone decides.
        let parsed = Parser::new(&text[start..], true)
            .prefix()
            .or_else(|_| Parser::new(&text[start..line_end], true).prefix());
        match parsed {
            Ok((constraint, used)) => {
                constraints.push(constraint);
                from = start + used;
            }
            Err(error) => {
                errors.push(error);
                from = line_end;
            }
        }
    }
    (constraints, errors)
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// An argument as written, before it is checked against its template's parameter.
enum Lit<'a> {
    Str { text: String, quote: char },
    Num { value: f64, raw: &'a str },
    Field(String),
    Op(CmpOp),
    Ident(&'a str),
}

impl Lit<'_> {
    /// The argument as it was written, for error messages.
    fn describe(&self) -> String {
        match self {
            Lit::Str { text, quote } => {
                let mut out = String::new();
                out.push(*quote);
                out.push_str(text);
                out.push(*quote);
                out
            }
            Lit::Num { raw, .. } => (*raw).to_owned(),
            Lit::Field(id) => format!("field('{id}')"),
            Lit::Op(op) => op.as_str().to_owned(),
            Lit::Ident(name) => (*name).to_owned(),
        }
    }
}

/// A recursive-descent parser over one text; `tolerant` selects [`parse_tolerant`]'s
/// leniency over [`parse`]'s strictness.
struct Parser<'a> {
    src: &'a str,
    pos: usize,
    tolerant: bool,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, tolerant: bool) -> Parser<'a> {
        Parser {
            src,
            pos: 0,
            tolerant,
        }
    }

    /// One constraint and nothing else.
    fn whole(mut self) -> Result<Constraint, ParseError> {
        let constraint = self.constraint()?;
        if self.tolerant {
            self.skip_ws();
            if self.eat(';') {
                self.skip_ws();
            }
        }
        if self.pos < self.src.len() {
            let rest = self.rest().to_owned();
            return Err(self.error(self.pos, ParseErrorKind::TrailingInput(rest)));
        }
        Ok(constraint)
    }

    /// One constraint at the start of the text, with an optional `;` right after it, and
    /// the number of bytes read.
    fn prefix(mut self) -> Result<(Constraint, usize), ParseError> {
        let constraint = self.constraint()?;
        let end = self.pos;
        self.skip_while(|c| c == ' ' || c == '\t');
        if !self.eat(';') {
            self.pos = end;
        }
        Ok((constraint, self.pos))
    }

    fn constraint(&mut self) -> Result<Constraint, ParseError> {
        self.gap();
        if !self.keyword("expect") {
            return Err(self.expected("`expect(`"));
        }
        self.gap();
        self.open("`(` after `expect`")?;
        let field = self.subject()?;
        self.close()?;
        self.gap();
        self.punct('.', "`.` and a template name")?;
        self.gap();
        let mut name_at = self.pos;
        let mut name = self.name()?;
        let mut negated = false;
        if name == "not" || (self.tolerant && name.eq_ignore_ascii_case("not")) {
            negated = true;
            self.gap();
            self.punct('.', "`.` and a template name after `not`")?;
            self.gap();
            name_at = self.pos;
            name = self.name()?;
        }
        let template = self.template(name, name_at)?;
        let after_name = self.pos;
        self.gap();
        let args_at = self.pos;
        let args = if self.peek() == Some('(') {
            self.args()?
        } else if self.tolerant && template.arity() == 0 {
            self.pos = after_name;
            Vec::new()
        } else {
            return Err(self.expected("`(` after the template name"));
        };
        let check = self.check(template, args, args_at)?;
        Ok(Constraint {
            field,
            negated,
            check,
        })
    }

    /// The subject of `expect(…)`: `field('id')`, or tolerantly a bare string or name.
    fn subject(&mut self) -> Result<String, ParseError> {
        let at = self.pos;
        match self.arg()? {
            Lit::Field(id) => Ok(id),
            Lit::Str { text, .. } if self.tolerant => Ok(text),
            Lit::Ident(name) => Ok(name.to_owned()),
            _ => {
                self.pos = at;
                Err(self.expected("field('…')"))
            }
        }
    }

    fn template(&self, name: &str, at: usize) -> Result<Template, ParseError> {
        if self.tolerant {
            resolve_name(name).map_err(|kind| self.error(at, kind))
        } else {
            Template::from_name(name).ok_or_else(|| {
                let kind = ParseErrorKind::UnknownTemplate {
                    name: name.to_owned(),
                    suggestion: Template::nearest(name),
                };
                self.error(at, kind)
            })
        }
    }

    /// A parenthesised, comma-separated argument list, with the offset of each argument.
    fn args(&mut self) -> Result<Vec<(Lit<'a>, usize)>, ParseError> {
        self.open("`(`")?;
        let mut args = Vec::new();
        if self.eat(')') {
            return Ok(args);
        }
        loop {
            let at = self.pos;
            args.push((self.arg()?, at));
            self.skip_ws();
            if self.eat(',') {
                self.skip_ws();
                if self.tolerant && self.eat(')') {
                    return Ok(args);
                }
            } else if self.eat(')') {
                return Ok(args);
            } else {
                return Err(self.expected("`,` or `)`"));
            }
        }
    }

    fn arg(&mut self) -> Result<Lit<'a>, ParseError> {
        let at = self.pos;
        match self.peek() {
            Some(quote @ ('\'' | '"' | '`')) => Ok(Lit::Str {
                text: self.string()?,
                quote,
            }),
            Some('0'..='9' | '-' | '+' | '.') => self.number(),
            Some('<' | '>' | '=' | '!') if self.tolerant => {
                let symbol = self.skip_while(|c| matches!(c, '<' | '>' | '=' | '!'));
                CmpOp::parse(symbol).map(Lit::Op).ok_or_else(|| {
                    self.error(at, ParseErrorKind::UnknownOperator(symbol.to_owned()))
                })
            }
            Some(c) if is_ident_start(c) => {
                let name = self.name()?;
                if name == "Infinity" {
                    return Ok(Lit::Num {
                        value: f64::INFINITY,
                        raw: name,
                    });
                }
                if name == "NaN" {
                    return Ok(Lit::Num {
                        value: f64::NAN,
                        raw: name,
                    });
                }
                let is_field =
                    name == "field" || (self.tolerant && name.eq_ignore_ascii_case("field"));
                if is_field {
                    let after = self.pos;
                    self.gap();
                    if self.peek() == Some('(') {
                        return self.field_ref().map(Lit::Field);
                    }
                    self.pos = after;
                }
                if self.tolerant {
                    Ok(Lit::Ident(name))
                } else {
                    self.pos = at;
                    Err(self.expected("an argument"))
                }
            }
            _ => Err(self.expected("an argument")),
        }
    }

    /// `('id')` after `field`; tolerantly any quotes or a bare name.
    fn field_ref(&mut self) -> Result<String, ParseError> {
        self.open("`(`")?;
        let id = match self.peek() {
            Some('\'') => self.string()?,
            Some('"' | '`') if self.tolerant => self.string()?,
            Some(c) if self.tolerant && is_ident_start(c) => self.name()?.to_owned(),
            _ => return Err(self.expected("a single-quoted field id")),
        };
        self.close()?;
        Ok(id)
    }

    /// A number literal: decimal with optional sign, fraction and exponent, or
    /// `Infinity`, `-Infinity`.
    fn number(&mut self) -> Result<Lit<'a>, ParseError> {
        let start = self.pos;
        if matches!(self.peek(), Some('+' | '-')) {
            self.bump();
        }
        if self.rest().starts_with("Infinity") {
            self.pos += "Infinity".len();
            let raw = &self.src[start..self.pos];
            let value = if raw.starts_with('-') {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            return Ok(Lit::Num { value, raw });
        }
        let mut digits = self.skip_while(|c| c.is_ascii_digit()).len();
        if self.eat('.') {
            digits += self.skip_while(|c| c.is_ascii_digit()).len();
        }
        if digits == 0 {
            self.pos = start;
            return Err(self.expected("a number"));
        }
        let mut exponent = self.rest().chars();
        if matches!(exponent.next(), Some('e' | 'E')) {
            let sign = matches!(exponent.clone().next(), Some('+' | '-'));
            if sign {
                exponent.next();
            }
            if exponent.next().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1 + usize::from(sign);
                self.skip_while(|c| c.is_ascii_digit());
            }
        }
        let raw = &self.src[start..self.pos];
        match raw.parse() {
            Ok(value) => Ok(Lit::Num { value, raw }),
            Err(_) => {
                self.pos = start;
                Err(self.expected("a number"))
            }
        }
    }

    /// A quoted string literal on one line, with JavaScript escapes.
    fn string(&mut self) -> Result<String, ParseError> {
        let start = self.pos;
        let quote = self.bump().expect("called at a quote");
        let mut out = String::new();
        loop {
            match self.bump() {
                None | Some('\n' | '\r') => {
                    return Err(self.error(start, ParseErrorKind::UnterminatedString));
                }
                Some(c) if c == quote => return Ok(out),
                Some('\\') => {
                    let escape_at = self.pos - 1;
                    let c = self.escape().ok_or_else(|| {
                        let escape = self.src[escape_at..self.pos].to_owned();
                        if self.pos >= self.src.len() || escape.ends_with(['\n', '\r']) {
                            self.error(start, ParseErrorKind::UnterminatedString)
                        } else {
                            self.error(escape_at, ParseErrorKind::InvalidEscape(escape))
                        }
                    })?;
                    out.push(c);
                }
                Some(c) => out.push(c),
            }
        }
    }

    /// The character an escape stands for, after its backslash.
    fn escape(&mut self) -> Option<char> {
        Some(match self.bump()? {
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            '0' => '\0',
            'x' => char::from_u32(self.hex(2)?)?,
            'u' if self.eat('{') => {
                let digits = self.skip_while(|c| c.is_ascii_hexdigit());
                if digits.is_empty() || digits.len() > 6 || !self.eat('}') {
                    return None;
                }
                char::from_u32(u32::from_str_radix(digits, 16).ok()?)?
            }
            'u' => {
                let unit = self.hex(4)?;
                if (0xD800..0xDC00).contains(&unit) && self.rest().starts_with("\\u") {
                    self.pos += 2;
                    let low = self.hex(4)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                } else {
                    char::from_u32(unit)?
                }
            }
            '\n' | '\r' => return None,
            c => c,
        })
    }

    /// Exactly `n` hex digits.
    fn hex(&mut self, n: usize) -> Option<u32> {
        let digits = self.rest().get(..n)?;
        if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += n;
        u32::from_str_radix(digits, 16).ok()
    }

    /// Checks the arguments against the template's parameters.
    fn check(
        &self,
        template: Template,
        args: Vec<(Lit<'a>, usize)>,
        args_at: usize,
    ) -> Result<Check, ParseError> {
        if args.len() != template.arity() {
            let kind = ParseErrorKind::WrongArity {
                template,
                expected: template.arity(),
                found: args.len(),
            };
            return Err(self.error(args_at, kind));
        }
        let mut args = args.into_iter().enumerate();
        let mut next = move || {
            let (index, (lit, at)) = args.next().expect("arity was checked");
            Arg {
                template,
                index,
                lit,
                at,
            }
        };
        Ok(match template {
            Template::ToBeEqual => Check::ToBeEqual(self.operand(next(), Param::Value)?),
            Template::ToHaveLengthCondition => {
                let op = self.operator(next())?;
                Check::ToHaveLengthCondition(op, self.length(next())?)
            }
            Template::ToHaveCompareCondition => {
                let op = self.operator(next())?;
                Check::ToHaveCompareCondition(op, self.operand(next(), Param::Comparable)?)
            }
            Template::ToContainSubString => {
                Check::ToContainSubString(self.text(next(), Param::Text)?)
            }
            Template::ToStartWithString => {
                Check::ToStartWithString(self.text(next(), Param::Text)?)
            }
            Template::ToEndWithString => Check::ToEndWithString(self.text(next(), Param::Text)?),
            Template::ToContainChar => {
                let arg = next();
                let at = arg.at;
                let text = self.text(arg, Param::Char)?;
                let mut chars = text.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Check::ToContainChar(c),
                    (Some(_), Some(_)) if self.tolerant => Check::ToContainSubString(text),
                    _ => {
                        let kind = ParseErrorKind::BadArgument {
                            template,
                            index: 0,
                            expected: Param::Char.describe(),
                            found: format!("'{text}'"),
                        };
                        return Err(self.error(at, kind));
                    }
                }
            }
            Template::FreeText => Check::FreeText(self.text(next(), Param::Prose)?),
            Template::Dummy => Check::Dummy(self.field_arg(next())?),
            Template::ToBeTruthy => Check::ToBeTruthy,
            Template::ToBeAlphabetical => Check::ToBeAlphabetical,
            Template::ToBeNumerical => Check::ToBeNumerical,
            Template::ToBeAlphaNumerical => Check::ToBeAlphaNumerical,
            Template::ToContainUpperCaseChars => Check::ToContainUpperCaseChars,
            Template::ToContainSpecialChars => Check::ToContainSpecialChars,
            Template::ToContainWhiteSpace => Check::ToContainWhiteSpace,
        })
    }

    fn operand(&self, arg: Arg<'_>, param: Param) -> Result<Operand, ParseError> {
        match arg.lit {
            Lit::Field(id) => Ok(Operand::Field(id)),
            Lit::Num { value, .. } => Ok(Operand::Number(value)),
            Lit::Str { text, .. } if self.tolerant => Ok(match parse_number(&text) {
                Some(n) if param == Param::Comparable => Operand::Number(n),
                _ => Operand::Str(text),
            }),
            Lit::Str { text, quote: '\'' } => Ok(Operand::Str(text)),
            _ => Err(self.bad(&arg, param)),
        }
    }

    fn operator(&self, arg: Arg<'_>) -> Result<CmpOp, ParseError> {
        match &arg.lit {
            Lit::Op(op) => Ok(*op),
            Lit::Str { text, quote } if self.tolerant || *quote == '\'' => {
                let op = if self.tolerant {
                    CmpOp::parse(text.trim())
                } else {
                    CmpOp::from_symbol(text)
                };
                op.ok_or_else(|| self.error(arg.at, ParseErrorKind::UnknownOperator(text.clone())))
            }
            _ => Err(self.bad(&arg, Param::Operator)),
        }
    }

    fn length(&self, arg: Arg<'_>) -> Result<usize, ParseError> {
        let whole = |value: f64| {
            (value >= 0.0 && value.fract() == 0.0 && value <= 9_007_199_254_740_992.0)
                .then(|| usize::try_from(value as u64).ok())
                .flatten()
        };
        let n = match &arg.lit {
            Lit::Num { raw, .. } if raw.bytes().all(|b| b.is_ascii_digit()) => raw.parse().ok(),
            Lit::Num { value, .. } if self.tolerant => whole(*value),
            Lit::Str { text, .. } if self.tolerant => parse_number(text).and_then(whole),
            _ => None,
        };
        n.ok_or_else(|| self.bad(&arg, Param::Length))
    }

    fn text(&self, arg: Arg<'_>, param: Param) -> Result<String, ParseError> {
        let quote = if param == Param::Prose { '"' } else { '\'' };
        match arg.lit {
            Lit::Str { text, .. } if self.tolerant => Ok(text),
            Lit::Str { text, quote: q } if q == quote => Ok(text),
            Lit::Num { raw, .. } if self.tolerant => Ok(raw.to_owned()),
            _ => Err(self.bad(&arg, param)),
        }
    }

    fn field_arg(&self, arg: Arg<'_>) -> Result<String, ParseError> {
        match arg.lit {
            Lit::Field(id) => Ok(id),
            Lit::Str { text, .. } if self.tolerant => Ok(text),
            Lit::Ident(name) if self.tolerant => Ok(name.to_owned()),
            _ => Err(self.bad(&arg, Param::FieldRef)),
        }
    }

    fn bad(&self, arg: &Arg<'_>, param: Param) -> ParseError {
        let kind = ParseErrorKind::BadArgument {
            template: arg.template,
            index: arg.index,
            expected: param.describe(),
            found: arg.lit.describe(),
        };
        self.error(arg.at, kind)
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let matched = self.peek() == Some(c);
        if matched {
            self.pos += c.len_utf8();
        }
        matched
    }

    /// Skips the chars matching `pred` and returns them.
    fn skip_while(&mut self, pred: impl Fn(char) -> bool) -> &'a str {
        let rest = self.rest();
        let len = rest.find(|c| !pred(c)).unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }

    fn skip_ws(&mut self) {
        self.skip_while(char::is_whitespace);
    }

    /// Whitespace between tokens outside argument lists: tolerated only when tolerant.
    fn gap(&mut self) {
        if self.tolerant {
            self.skip_ws();
        }
    }

    /// An opening parenthesis and the whitespace after it.
    fn open(&mut self, what: &'static str) -> Result<(), ParseError> {
        self.punct('(', what)?;
        self.skip_ws();
        Ok(())
    }

    /// Whitespace and a closing parenthesis.
    fn close(&mut self) -> Result<(), ParseError> {
        self.skip_ws();
        self.punct(')', "`)`")
    }

    fn punct(&mut self, c: char, what: &'static str) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// An identifier: a template name, `expect`, `not`, `field`.
    fn name(&mut self) -> Result<&'a str, ParseError> {
        if !self.peek().is_some_and(is_ident_start) {
            return Err(self.expected("a name"));
        }
        Ok(self.skip_while(is_ident_char))
    }

    /// The identifier `word`, case-insensitively when tolerant; nothing is read otherwise.
    fn keyword(&mut self, word: &str) -> bool {
        let at = self.pos;
        let matched = self
            .name()
            .is_ok_and(|name| name == word || (self.tolerant && name.eq_ignore_ascii_case(word)));
        if !matched {
            self.pos = at;
        }
        matched
    }

    fn expected(&self, expected: &'static str) -> ParseError {
        let rest = self.rest();
        let found = if rest.is_empty() {
            "end of input".to_owned()
        } else {
            let snippet: String = rest.chars().take_while(|&c| c != '\n').take(20).collect();
            format!("`{snippet}`")
        };
        self.error(self.pos, ParseErrorKind::Expected { expected, found })
    }

    fn error(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            kind,
            offset,
            text: self.src.to_owned(),
        }
    }
}

/// One argument with its place, on its way to being checked.
struct Arg<'a> {
    template: Template,
    index: usize,
    lit: Lit<'a>,
    at: usize,
}
