//! A constraint solver for form values: realistic values from the [`HeuristicFiller`]
//! (a real city, a birth date thirty years back, check-out after check-in), repaired
//! field by field until every constraint holds, given the values already chosen for
//! the fields a constraint refers to.
//!
//! Repair is local search: a violated constraint proposes the nearest value of its
//! field that keeps it (pad or cut to a length, step over a bound, copy the field it
//! must equal, add the character it must contain, ...); the field's other rules are then
//! checked again, and the form's, for a few rounds. Breaking one constraint is the same
//! search with that constraint negated and its field held at the value that breaks it,
//! at the boundary when there is one (the day before the date it must not precede).

use curio_page::{Field, Form};
use rand::RngCore;

use crate::filler::{FieldValue, FormFiller, HeuristicFiller, Variant};
use crate::infer::mentions_digit;
use crate::lang::{Check, CmpOp, Constraint, Operand};
use crate::scalar::{format_date, parse_date, parse_number};
use crate::semantic::{Semantic, classify};
use crate::testing::{ValueSolver, field_refs};

/// Whole-form draws of the filler tried before `satisfy` gives up.
const DRAWS: usize = 6;
/// Fresh values of one field tried as starting points of its repair.
const FIELD_DRAWS: usize = 6;
/// Rounds of repair over the whole form.
const ROUNDS: usize = 6;
/// Fixes in a row on one field.
const STEPS: usize = 10;

/// Solves constraints over a form's fields, starting from realistic values.
#[derive(Debug, Clone)]
pub struct ConstraintSolver {
    filler: HeuristicFiller,
    /// Per field (by index), values the page offers: tried before the filler's.
    examples: Vec<Vec<String>>,
    /// Per search field, how many of its words were drawn: they take turns.
    turns: std::collections::HashMap<usize, usize>,
}

/// How a fix moves a value over a bound: well inside (to satisfy), or just past the
/// boundary (to break a rule where it is most likely to be caught).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Inside,
    Boundary,
}

impl ConstraintSolver {
    pub fn new(filler: HeuristicFiller) -> ConstraintSolver {
        ConstraintSolver {
            filler,
            examples: Vec::new(),
            turns: std::collections::HashMap::new(),
        }
    }

    /// Values the page offers per field (see [`crate::examples`]), taken first.
    pub fn with_examples(mut self, examples: Vec<Vec<String>>) -> ConstraintSolver {
        self.examples = examples;
        self
    }

    /// Takes `value` out of the examples of `field` (a model's guess the form refused).
    pub fn forget(&mut self, field: usize, value: &str) {
        if let Some(known) = self.examples.get_mut(field) {
            known.retain(|v| v != value);
        }
    }

    fn examples_of(&self, field: usize) -> &[String] {
        self.examples.get(field).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Realistic values for the whole form; text fields of one meaning (two cities,
    /// two names) get different values where the filler has more than one.
    fn draw(&mut self, form: &Form, rng: &mut dyn RngCore) -> Option<Vec<FieldValue>> {
        let fill = self.filler.fill(form, Variant::Valid, rng)?;
        // Choices rotate from one draw to the next, as the filler counts what it gave.
        self.filler.submitted(form, &fill);
        let mut values: Vec<FieldValue> = (0..form.fields.len())
            .map(|i| {
                fill.value_of(i)
                    .cloned()
                    .unwrap_or_else(|| current(&form.fields[i]))
            })
            .collect();
        let sems: Vec<Semantic> = form.fields.iter().map(classify).collect();
        // An example the page gives is a value it accepts.
        // The first is the likeliest; a search box's words take turns.
        for (f, value) in values.iter_mut().enumerate() {
            let examples = self.examples.get(f).map(Vec::as_slice).unwrap_or(&[]);
            let pick = if sems[f] == Semantic::Search && !examples.is_empty() {
                let turn = self.turns.entry(f).or_insert(0);
                *turn += 1;
                examples.get((*turn - 1) % examples.len())
            } else {
                examples.first()
            };
            if let (FieldValue::Text(_), Some(example)) = (&value, pick) {
                *value = FieldValue::Text(example.clone());
            }
        }
        // A text input with suggestions takes one of them: apps with a list of cities
        // or airports tend to know no others.
        for (f, field) in form.fields.iter().enumerate() {
            let suggestions = suggestions(field);
            if let FieldValue::Text(text) = &values[f]
                && !suggestions.is_empty()
                && !suggestions.contains(text)
            {
                let taken =
                    |v: &String| (0..f).any(|g| sems[g] == sems[f] && values[g].as_string() == *v);
                let free: Vec<&String> = suggestions.iter().filter(|v| !taken(v)).collect();
                let pool = if free.is_empty() {
                    suggestions.iter().collect()
                } else {
                    free
                };
                let pick = pool[(rng.next_u32() as usize) % pool.len()].clone();
                values[f] = FieldValue::Text(pick);
            }
        }
        for f in 0..values.len() {
            let FieldValue::Text(text) = &values[f] else {
                continue;
            };
            let repeats = !text.is_empty()
                && distinct(sems[f])
                && (0..f).any(|g| sems[g] == sems[f] && values[g] == values[f]);
            if !repeats {
                continue;
            }
            let mut others: Vec<String> = suggestions(&form.fields[f]);
            for _ in 0..FIELD_DRAWS {
                others.push(self.filler.value_for(&form.fields[f], rng));
            }
            for other in others {
                let other = FieldValue::Text(other);
                if (0..f).all(|g| sems[g] != sems[f] || values[g] != other) {
                    values[f] = other;
                    break;
                }
            }
        }
        Some(values)
    }

    /// Repairs `values` until every constraint of `wanted` holds; fields in `frozen`
    /// keep their value. `boundary` is the constraint (index into `wanted`) fixed at its
    /// boundary. Whether it succeeded.
    #[allow(clippy::too_many_arguments)]
    fn repair(
        &mut self,
        form: &Form,
        refs: &[String],
        wanted: &[Constraint],
        boundary: Option<usize>,
        values: &mut [FieldValue],
        frozen: &[bool],
        rng: &mut dyn RngCore,
    ) -> bool {
        for _ in 0..ROUNDS {
            let broken: Vec<usize> = (0..wanted.len())
                .filter(|&i| holds(&wanted[i], refs, values) == Some(false))
                .collect();
            if broken.is_empty() {
                return true;
            }
            let mut moved = false;
            let mut done: Vec<usize> = Vec::new();
            for i in broken {
                let Some(f) = refs.iter().position(|r| *r == wanted[i].field) else {
                    continue;
                };
                if frozen[f] || done.contains(&f) {
                    continue;
                }
                done.push(f);
                if let Some(v) = self.fix_field(form, refs, wanted, boundary, values, f, rng)
                    && v != values[f]
                {
                    values[f] = v;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        wanted.iter().all(|c| holds(c, refs, values) != Some(false))
    }

    /// A value of field `f` that keeps every constraint of `wanted` on it, given the
    /// other fields' values: the current value repaired, else fresh values repaired,
    /// else any option that fits.
    #[allow(clippy::too_many_arguments)]
    fn fix_field(
        &mut self,
        form: &Form,
        refs: &[String],
        wanted: &[Constraint],
        boundary: Option<usize>,
        values: &[FieldValue],
        f: usize,
        rng: &mut dyn RngCore,
    ) -> Option<FieldValue> {
        let field = &form.fields[f];
        let own: Vec<(usize, &Constraint)> = wanted
            .iter()
            .enumerate()
            .filter(|(_, c)| c.field == refs[f])
            .collect();
        let keeps = |v: &FieldValue| {
            let mut trial = values.to_vec();
            trial[f] = v.clone();
            own.iter()
                .all(|(_, c)| holds(c, refs, &trial) != Some(false))
        };
        // Choices: the options themselves are the candidates.
        if matches!(
            field.input_type.as_str(),
            "select-one" | "select-multiple" | "radio"
        ) {
            let mut options: Vec<FieldValue> = field
                .options
                .iter()
                .filter(|o| !o.disabled)
                .map(|o| FieldValue::Select(o.value.clone()))
                .collect();
            options.push(FieldValue::Select(String::new()));
            return options.into_iter().find(|v| keeps(v));
        }
        if field.input_type == "checkbox" {
            return [FieldValue::Check(true), FieldValue::Check(false)]
                .into_iter()
                .find(|v| keeps(v));
        }
        let mut starts: Vec<String> = vec![values[f].as_string()];
        starts.extend(self.examples_of(f).iter().cloned());
        starts.extend(suggestions(field));
        for _ in 0..FIELD_DRAWS {
            starts.push(self.filler.value_for(field, rng));
        }
        for start in starts {
            let mut text = start;
            for _ in 0..STEPS {
                let mut trial = values.to_vec();
                trial[f] = FieldValue::Text(text.clone());
                let Some(&(i, c)) = own
                    .iter()
                    .find(|(_, c)| holds(c, refs, &trial) == Some(false))
                else {
                    return Some(FieldValue::Text(text));
                };
                let mode = if Some(i) == boundary {
                    Mode::Boundary
                } else {
                    Mode::Inside
                };
                match self.fix(field, c, &text, refs, values, mode, rng) {
                    Some(next) if next != text => text = next,
                    _ => break,
                }
            }
        }
        None
    }

    /// When the target field alone cannot break a rule that compares it with another
    /// field (one adult can never be fewer than one room), other values of that field
    /// (its options, or bigger and smaller numbers) until the target can; the partner
    /// keeps its new value in `values`. The target's value.
    #[allow(clippy::too_many_arguments)]
    fn move_partner(
        &mut self,
        form: &Form,
        refs: &[String],
        goal: &Constraint,
        wanted: &[Constraint],
        at: usize,
        values: &mut [FieldValue],
        rng: &mut dyn RngCore,
    ) -> Option<FieldValue> {
        let f = refs.iter().position(|r| *r == goal.field)?;
        for other in goal.related_fields() {
            let Some(g) = refs.iter().position(|r| r == other) else {
                continue;
            };
            let field = &form.fields[g];
            let current = values[g].clone();
            let candidates: Vec<FieldValue> = if field.input_type.starts_with("select") {
                field
                    .options
                    .iter()
                    .filter(|o| !o.disabled && !o.value.is_empty())
                    .map(|o| FieldValue::Select(o.value.clone()))
                    .collect()
            } else if let Some(n) = parse_number(&current.as_string()) {
                [1.0, -1.0, 2.0, -2.0, 5.0, 10.0]
                    .iter()
                    .map(|d| FieldValue::Text(number_text(n + d)))
                    .collect()
            } else {
                Vec::new()
            };
            for candidate in candidates {
                values[g] = candidate;
                if let Some(v) = self.fix_field(form, refs, wanted, Some(at), values, f, rng) {
                    return Some(v);
                }
            }
            values[g] = current;
        }
        None
    }

    /// The nearest text to `text` that keeps `c` (a constraint on `field`).
    #[allow(clippy::too_many_arguments)]
    fn fix(
        &mut self,
        field: &Field,
        c: &Constraint,
        text: &str,
        refs: &[String],
        values: &[FieldValue],
        mode: Mode,
        rng: &mut dyn RngCore,
    ) -> Option<String> {
        let not = c.negated;
        let other = |op: &Operand| -> Option<String> {
            match op {
                Operand::Field(id) => {
                    let i = refs.iter().position(|r| r == id)?;
                    Some(values[i].as_string())
                }
                Operand::Str(s) => Some(s.clone()),
                Operand::Number(n) => Some(number_text(*n)),
            }
        };
        Some(match &c.check {
            Check::ToBeTruthy if !not => {
                let fresh = self.filler.value_for(field, rng);
                if fresh.trim().is_empty() {
                    "Sample".to_string()
                } else {
                    fresh
                }
            }
            Check::ToBeTruthy => String::new(),
            Check::ToBeEqual(op) if !not => other(op)?,
            Check::ToBeEqual(op) => {
                let same = other(op)?;
                return different_from(&same, text, || self.filler.value_for(field, rng));
            }
            Check::ToHaveLengthCondition(op, n) => {
                let op = if not { inverse(*op) } else { *op };
                let len = text.chars().count();
                let target = match op {
                    CmpOp::Eq => *n,
                    CmpOp::Ne => {
                        if len > *n {
                            return None;
                        }
                        n + 1
                    }
                    CmpOp::Ge => (*n).max(len),
                    CmpOp::Gt => (n + 1).max(len),
                    CmpOp::Le => (*n).min(len),
                    CmpOp::Lt => n.checked_sub(1)?.min(len),
                };
                resize(text, target)
            }
            Check::ToHaveCompareCondition(op, rhs) => {
                let op = if not { inverse(*op) } else { *op };
                let bound = other(rhs)?;
                step_past(field, &bound, op, mode)?
            }
            Check::ToContainSubString(s) if !not => format!("{text}{s}"),
            Check::ToContainSubString(s) => text.replace(s.as_str(), ""),
            Check::ToContainChar(ch) if !not => {
                if *ch == '@' && !text.is_empty() {
                    format!("{}@example.com", text.split('@').next().unwrap_or(text))
                } else {
                    format!("{text}{ch}")
                }
            }
            Check::ToContainChar(ch) => text.replace(*ch, ""),
            Check::ToBeAlphabetical if !not => {
                let letters: String = text.chars().filter(|c| c.is_alphabetic()).collect();
                if letters.is_empty() {
                    "Sample".into()
                } else {
                    letters
                }
            }
            Check::ToBeAlphabetical => format!("{text}7"),
            Check::ToBeNumerical if !not => {
                let digits: String = text.chars().filter(char::is_ascii_digit).collect();
                if digits.is_empty() {
                    "12345".into()
                } else {
                    digits
                }
            }
            Check::ToBeNumerical => {
                if text.is_empty() {
                    "abc".into()
                } else {
                    format!("{text}x")
                }
            }
            Check::ToBeAlphaNumerical if !not => {
                let kept: String = text.chars().filter(|c| c.is_alphanumeric()).collect();
                if kept.is_empty() {
                    "abc123".into()
                } else {
                    kept
                }
            }
            Check::ToBeAlphaNumerical => format!("{text}-!"),
            Check::ToContainUpperCaseChars if !not => capitalise(text),
            Check::ToContainUpperCaseChars => text.to_lowercase(),
            Check::ToContainSpecialChars if !not => format!("{text}!"),
            Check::ToContainSpecialChars => text
                .chars()
                .filter(|c| c.is_alphanumeric() || c.is_whitespace())
                .collect(),
            Check::ToContainWhiteSpace if !not => {
                let chars: Vec<char> = text.chars().collect();
                let mid = chars.len() / 2;
                let mut s: String = chars[..mid].iter().collect();
                s.push(' ');
                s.extend(&chars[mid..]);
                if s.trim().is_empty() { "a b".into() } else { s }
            }
            Check::ToContainWhiteSpace => text.chars().filter(|c| !c.is_whitespace()).collect(),
            Check::ToStartWithString(s) if !not => format!("{s}{text}"),
            Check::ToStartWithString(s) => {
                let rest = text.strip_prefix(s.as_str()).unwrap_or(text);
                if rest.starts_with(s.as_str()) || rest.is_empty() {
                    format!("x{rest}")
                } else {
                    rest.to_string()
                }
            }
            Check::ToEndWithString(s) if !not => format!("{text}{s}"),
            Check::ToEndWithString(s) => {
                let rest = text.strip_suffix(s.as_str()).unwrap_or(text);
                if rest.ends_with(s.as_str()) || rest.is_empty() {
                    format!("{rest}x")
                } else {
                    rest.to_string()
                }
            }
            Check::FreeText(t) if mentions_digit(t) => {
                if not {
                    text.chars().filter(|c| !c.is_ascii_digit()).collect()
                } else {
                    format!("{text}7")
                }
            }
            Check::FreeText(_) | Check::Dummy(_) => return None,
        })
    }
}

/// The values a text input suggests (its datalist), in order.
fn suggestions(field: &Field) -> Vec<String> {
    if matches!(
        field.input_type.as_str(),
        "select-one" | "select-multiple" | "radio"
    ) {
        return Vec::new();
    }
    field
        .options
        .iter()
        .filter(|o| !o.disabled && !o.value.trim().is_empty())
        .map(|o| o.value.clone())
        .collect()
}

/// Meanings whose fields on one form hold different values in real use.
fn distinct(sem: Semantic) -> bool {
    matches!(
        sem,
        Semantic::City
            | Semantic::Country
            | Semantic::Region
            | Semantic::StreetAddress
            | Semantic::PersonName
            | Semantic::FirstName
            | Semantic::LastName
            | Semantic::Company
            | Semantic::Title
    )
}

/// The value a field holds before anyone touches it.
fn current(field: &Field) -> FieldValue {
    match field.input_type.as_str() {
        "checkbox" => FieldValue::Check(field.checked),
        "select-one" | "select-multiple" | "radio" => FieldValue::Select(field.value.clone()),
        _ => FieldValue::Text(field.value.clone()),
    }
}

/// Whether `c` holds for `values`; free-text rules that ask for a digit are judged too.
/// `None` when it cannot be judged.
pub(crate) fn holds(c: &Constraint, refs: &[String], values: &[FieldValue]) -> Option<bool> {
    let lookup = |name: &str| {
        refs.iter()
            .position(|r| r == name)
            .and_then(|i| values.get(i))
            .map(FieldValue::as_string)
    };
    if let Check::FreeText(t) = &c.check
        && mentions_digit(t)
    {
        let v = lookup(&c.field)?;
        return Some(v.chars().any(|ch| ch.is_ascii_digit()) != c.negated);
    }
    c.holds(&lookup)
}

fn inverse(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        let s = format!("{n:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// `text` cut or padded to `len` characters, padding in the text's own kind (digits
/// for digits, letters otherwise).
fn resize(text: &str, len: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() >= len {
        return chars[..len].iter().collect();
    }
    let digits = !chars.is_empty() && chars.iter().all(char::is_ascii_digit);
    let pad: &[char] = if digits {
        &['4', '2', '7', '1', '9', '3']
    } else {
        &['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
    };
    let mut out = text.to_string();
    let mut i = 0;
    while out.chars().count() < len {
        out.push(pad[i % pad.len()]);
        i += 1;
    }
    out
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() => c.to_uppercase().chain(chars).collect(),
        _ => format!("A{text}"),
    }
}

/// A value other than `same`: the current one when it differs, a fresh one, the next
/// day or number, or the text with a letter added.
fn different_from(same: &str, text: &str, mut fresh: impl FnMut() -> String) -> Option<String> {
    if text != same && !text.trim().is_empty() {
        return Some(text.to_string());
    }
    for _ in 0..FIELD_DRAWS {
        let v = fresh();
        if v != same && !v.trim().is_empty() {
            return Some(v);
        }
    }
    if let Some(d) = parse_date(same.trim()) {
        return format_date(d + 1);
    }
    if let Some(n) = parse_number(same) {
        return Some(number_text(n + 1.0));
    }
    Some(format!("{same}x"))
}

/// The least of 1, 2 and 5 times a power of ten that is at least `n` (`n` itself when it
/// is below 1).
fn round_up_1_2_5(n: f64) -> f64 {
    if n < 1.0 {
        return n;
    }
    let mut power = 1.0;
    loop {
        for m in [1.0, 2.0, 5.0] {
            if m * power >= n {
                return m * power;
            }
        }
        power *= 10.0;
    }
}

/// A value of `field` on the right side of `bound` by `op`: well inside (a week past a
/// date, twice a whole least), or at the nearest step past the boundary.
fn step_past(field: &Field, bound: &str, op: CmpOp, mode: Mode) -> Option<String> {
    let bound = bound.trim();
    if let Some(day) = parse_date(bound) {
        let margin = if mode == Mode::Inside { 7 } else { 1 };
        let day = match op {
            CmpOp::Eq | CmpOp::Le | CmpOp::Ge if mode == Mode::Boundary => day,
            CmpOp::Eq => day,
            CmpOp::Ne | CmpOp::Gt | CmpOp::Ge => day + margin,
            CmpOp::Lt | CmpOp::Le => day - margin,
        };
        return format_date(day);
    }
    let n = parse_number(bound)?;
    let unit = field
        .step
        .as_deref()
        .and_then(parse_number)
        .filter(|s| *s > 0.0)
        .unwrap_or(if n.fract() == 0.0 { 1.0 } else { 0.01 });
    let v = match op {
        CmpOp::Eq | CmpOp::Ge | CmpOp::Le => n,
        CmpOp::Gt | CmpOp::Ne => n + unit,
        CmpOp::Lt => n - unit,
    };
    // A whole count kept well above its least (four times it, up to a round number):
    // the least moves with the app's data (seats at least the team's members, who are
    // invited meanwhile, also by replaying other findings), and a person types a round
    // number rather than the minimum. An upper bound is kept exactly, so that the two
    // meet where they are close.
    let whole = n.fract() == 0.0 && unit.fract() == 0.0 && n >= 0.0;
    if mode == Mode::Inside && whole && matches!(op, CmpOp::Ge | CmpOp::Gt) {
        return Some(number_text(round_up_1_2_5(v.max(4.0 * n))));
    }
    Some(number_text(v))
}

impl ValueSolver for ConstraintSolver {
    fn example(&mut self, field: usize, value: String) {
        if self.examples.len() <= field {
            self.examples.resize(field + 1, Vec::new());
        }
        let known = &mut self.examples[field];
        known.retain(|v| *v != value);
        known.insert(0, value);
    }

    fn satisfy(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>> {
        let refs = field_refs(form);
        let frozen = vec![false; form.fields.len()];
        for _ in 0..DRAWS {
            let mut values = self.draw(form, rng)?;
            if self.repair(form, &refs, constraints, None, &mut values, &frozen, rng) {
                return Some(values);
            }
        }
        None
    }

    fn break_one(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        target: usize,
        rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>> {
        let refs = field_refs(form);
        let goal = constraints.get(target)?;
        let f = refs.iter().position(|r| *r == goal.field)?;
        let others: Vec<Constraint> = constraints
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != target)
            .map(|(_, c)| c.clone())
            .collect();
        let base = self
            .satisfy(form, constraints, rng)
            .or_else(|| self.satisfy(form, &others, rng))?;
        // First keep the target field's other rules, then only the other fields'.
        let elsewhere: Vec<Constraint> = others
            .iter()
            .filter(|c| c.field != goal.field)
            .cloned()
            .collect();
        for keep in [&others, &elsewhere] {
            let mut wanted: Vec<Constraint> = keep.to_vec();
            wanted.push(goal.negate());
            let at = wanted.len() - 1;
            let mut values = base.clone();
            let free = vec![false; form.fields.len()];
            let Some(v) = self
                .fix_field(form, &refs, &wanted, Some(at), &values, f, rng)
                .or_else(|| self.move_partner(form, &refs, goal, &wanted, at, &mut values, rng))
            else {
                continue;
            };
            values[f] = v;
            let mut frozen = free;
            frozen[f] = true;
            if self.repair(form, &refs, &wanted, Some(at), &mut values, &frozen, rng) {
                return Some(values);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::dictionary::Dictionary;
    use crate::lang::parse;
    use crate::tests::{Build, form, input};

    const TODAY: (i32, u32, u32) = (2026, 12, 4);

    fn solver() -> ConstraintSolver {
        ConstraintSolver::new(HeuristicFiller::new(Dictionary::default(), TODAY))
    }

    fn signup() -> Form {
        form(vec![
            input("text").name("user").label("Username"),
            input("email").name("email").label("Email"),
            input("password").name("pw").label("Password"),
            input("password").name("pw2").label("Confirm password"),
            input("date").name("dob").label("Date of birth"),
            input("number").name("tickets").label("Tickets"),
            input("checkbox").name("terms").label("I accept the terms"),
        ])
    }

    fn rules() -> Vec<Constraint> {
        [
            "expect(field('user')).toBeTruthy()",
            "expect(field('user')).toHaveLengthCondition('>=', 3)",
            "expect(field('user')).toHaveLengthCondition('<=', 16)",
            "expect(field('user')).toBeAlphaNumerical()",
            "expect(field('email')).toContainChar('@')",
            "expect(field('pw')).toHaveLengthCondition('>=', 8)",
            r#"expect(field('pw')).freeTextConstraint("must contain a number")"#,
            "expect(field('pw')).toContainUpperCaseChars()",
            "expect(field('pw2')).toBeEqual(field('pw'))",
            "expect(field('dob')).toHaveCompareCondition('<=', '2013-12-04')",
            "expect(field('tickets')).toHaveCompareCondition('>=', 1)",
            "expect(field('tickets')).toHaveCompareCondition('<=', 6)",
            "expect(field('terms')).toBeEqual('true')",
        ]
        .iter()
        .map(|t| parse(t).unwrap())
        .collect()
    }

    fn all_hold(form: &Form, cs: &[Constraint], values: &[FieldValue]) -> bool {
        let refs = field_refs(form);
        cs.iter().all(|c| holds(c, &refs, values) == Some(true))
    }

    #[test]
    fn satisfies_a_sign_up_form() {
        let form = signup();
        let cs = rules();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let values = solver().satisfy(&form, &cs, &mut rng).expect("values");
        assert!(all_hold(&form, &cs, &values), "{values:?}");
    }

    #[test]
    fn breaks_each_rule_alone() {
        let form = signup();
        let cs = rules();
        let refs = field_refs(&form);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut s = solver();
        for target in 0..cs.len() {
            let values = s
                .break_one(&form, &cs, target, &mut rng)
                .unwrap_or_else(|| panic!("no values breaking {}", cs[target]));
            assert_eq!(
                holds(&cs[target], &refs, &values),
                Some(false),
                "{}",
                cs[target]
            );
            for (i, c) in cs.iter().enumerate() {
                // The target field's own other rules may have to give way (an empty
                // username breaks its length too); every other field's rules hold.
                if i != target && c.field != cs[target].field {
                    assert_ne!(
                        holds(c, &refs, &values),
                        Some(false),
                        "{c} while breaking {}",
                        cs[target]
                    );
                }
            }
        }
    }

    #[test]
    fn breaks_date_order_at_the_boundary() {
        let form = form(vec![
            input("date").name("in").label("Check-in"),
            input("date").name("out").label("Check-out"),
        ]);
        let cs = vec![
            parse("expect(field('in')).toHaveCompareCondition('>=', '2026-12-04')").unwrap(),
            parse("expect(field('out')).toHaveCompareCondition('>', field('in'))").unwrap(),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let values = solver().break_one(&form, &cs, 1, &mut rng).expect("values");
        assert_eq!(values[0], values[1], "check-out on the check-in day");
    }

    #[test]
    fn suggested_values_are_taken_and_alike_fields_differ() {
        let cities = [("Toronto", "Toronto"), ("Vancouver", "Vancouver")];
        let form = form(vec![
            input("text")
                .name("from")
                .label("From (city)")
                .options(&cities),
            input("text").name("to").label("To (city)").options(&cities),
        ]);
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let values = solver().satisfy(&form, &[], &mut rng).expect("values");
            let (a, b) = (values[0].as_string(), values[1].as_string());
            assert!(["Toronto", "Vancouver"].contains(&a.as_str()), "{a}");
            assert!(["Toronto", "Vancouver"].contains(&b.as_str()), "{b}");
            assert_ne!(a, b);
        }
    }

    /// A count below its least is raised to four times the least, up to a round number,
    /// not to the least itself (seats at least the team's members, who may be more by the
    /// next submission); an upper bound close above the least still holds.
    #[test]
    fn a_count_is_kept_well_above_its_least() {
        let form = form(vec![input("text").name("seats").label("Seats")]);
        let at_least = |n: u32| {
            parse(&format!(
                "expect(field('seats')).toHaveCompareCondition('>=', {n})"
            ))
        };
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let cs = vec![at_least(900).unwrap()];
        let values = solver().satisfy(&form, &cs, &mut rng).expect("values");
        assert_eq!(values[0].as_string(), "5000");
        let cs = vec![at_least(6).unwrap()];
        let values = solver().satisfy(&form, &cs, &mut rng).expect("values");
        assert_eq!(values[0].as_string(), "50");
        let at_most = parse("expect(field('seats')).toHaveCompareCondition('<=', 1200)").unwrap();
        let cs = vec![at_least(900).unwrap(), at_most];
        let values = solver().satisfy(&form, &cs, &mut rng).expect("values");
        assert_eq!(values[0].as_string(), "1200");
    }

    #[test]
    fn no_values_for_rules_that_contradict() {
        let form = form(vec![input("text").name("code").label("Code")]);
        let cs = vec![
            parse("expect(field('code')).toHaveLengthCondition('>=', 5)").unwrap(),
            parse("expect(field('code')).toHaveLengthCondition('<', 3)").unwrap(),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        assert!(solver().satisfy(&form, &cs, &mut rng).is_none());
    }

    /// A rule over one text field with random arguments.
    fn text_rule() -> impl Strategy<Value = Constraint> {
        let op = prop_oneof![
            Just(CmpOp::Ge),
            Just(CmpOp::Gt),
            Just(CmpOp::Le),
            Just(CmpOp::Lt),
            Just(CmpOp::Eq)
        ];
        let check = prop_oneof![
            (op.clone(), 1usize..20).prop_map(|(op, n)| Check::ToHaveLengthCondition(op, n)),
            Just(Check::ToBeTruthy),
            Just(Check::ToBeAlphaNumerical),
            Just(Check::ToContainUpperCaseChars),
            Just(Check::ToContainSpecialChars),
            "[a-z]{1,3}".prop_map(Check::ToStartWithString),
            "[0-9]{1,2}".prop_map(Check::ToEndWithString),
            proptest::char::range('a', 'z').prop_map(Check::ToContainChar),
        ];
        (check, any::<bool>()).prop_map(|(check, negated)| Constraint {
            field: "code".into(),
            negated,
            check,
        })
    }

    fn number_rule() -> impl Strategy<Value = Constraint> {
        let op = prop_oneof![
            Just(CmpOp::Ge),
            Just(CmpOp::Gt),
            Just(CmpOp::Le),
            Just(CmpOp::Lt)
        ];
        (op, -50i32..50, any::<bool>()).prop_map(|(op, n, negated)| Constraint {
            field: "qty".into(),
            negated,
            check: Check::ToHaveCompareCondition(op, Operand::Number(f64::from(n))),
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Whatever the solver answers keeps every rule: it never claims values that
        /// break one.
        #[test]
        fn satisfied_values_keep_every_rule(
            text in proptest::collection::vec(text_rule(), 1..4),
            numbers in proptest::collection::vec(number_rule(), 1..3),
            seed in any::<u64>(),
        ) {
            let form = form(vec![
                input("text").name("code").label("Code"),
                input("number").name("qty").label("Quantity"),
            ]);
            let cs: Vec<Constraint> = text.into_iter().chain(numbers).collect();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            if let Some(values) = solver().satisfy(&form, &cs, &mut rng) {
                prop_assert!(all_hold(&form, &cs, &values), "{values:?} for {cs:?}");
            }
        }

        /// A single satisfiable rule is always satisfied, and always broken on demand
        /// with the other field's rule kept.
        #[test]
        fn one_rule_is_kept_and_broken(rule in text_rule(), qty in number_rule(), seed in any::<u64>()) {
            let form = form(vec![
                input("text").name("code").label("Code"),
                input("number").name("qty").label("Quantity"),
            ]);
            let cs = vec![rule, qty];
            let refs = field_refs(&form);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = solver();
            let values = s.satisfy(&form, &cs, &mut rng);
            prop_assert!(values.is_some(), "no values for {cs:?}");
            let broken = s.break_one(&form, &cs, 0, &mut rng);
            prop_assert!(broken.is_some(), "cannot break {}", cs[0]);
            let broken = broken.unwrap();
            prop_assert_eq!(holds(&cs[0], &refs, &broken), Some(false));
            prop_assert_eq!(holds(&cs[1], &refs, &broken), Some(true));
        }
    }
}
