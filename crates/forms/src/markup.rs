//! The rules a form's markup states (required, lengths, bounds, types), as constraints,
//! and a [`ValueSolver`] that draws realistic values from the [`HeuristicFiller`] and
//! keeps those that satisfy (or break exactly one of) the constraints.

use curio_page::Form;
use rand::RngCore;

use crate::filler::{FieldValue, FormFiller, HeuristicFiller, Variant};
use crate::lang::{Check, CmpOp, Constraint, Operand};
use crate::testing::{ValueSolver, field_refs};

/// Draws of the filler tried before a solver gives up.
const DRAWS: usize = 12;

/// Constraints that the markup of `form` states, in field order.
pub fn infer_from_markup(form: &Form) -> Vec<Constraint> {
    let refs = field_refs(form);
    let mut out = Vec::new();
    for (field, name) in form.fields.iter().zip(&refs) {
        if field.readonly {
            continue;
        }
        let mut push = |check| out.push(Constraint::new(name.clone(), check));
        if field.required {
            push(Check::ToBeTruthy);
        }
        if let Some(n) = field.minlength.filter(|n| *n > 0) {
            push(Check::ToHaveLengthCondition(CmpOp::Ge, n as usize));
        }
        if let Some(n) = field.maxlength {
            push(Check::ToHaveLengthCondition(CmpOp::Le, n as usize));
        }
        match field.input_type.as_str() {
            "email" => push(Check::ToContainChar('@')),
            "number" | "range" => push(Check::ToBeNumerical),
            _ => {}
        }
        let bound = |raw: &Option<String>| -> Option<Operand> {
            let raw = raw.as_deref()?.trim();
            if raw.is_empty() {
                return None;
            }
            Some(match raw.parse::<f64>() {
                Ok(n) => Operand::Number(n),
                Err(_) => Operand::Str(raw.to_string()),
            })
        };
        if let Some(min) = bound(&field.min) {
            push(Check::ToHaveCompareCondition(CmpOp::Ge, min));
        }
        if let Some(max) = bound(&field.max) {
            push(Check::ToHaveCompareCondition(CmpOp::Le, max));
        }
    }
    out
}

/// Values from a [`HeuristicFiller`], kept when they do what the constraints ask.
#[derive(Debug, Clone)]
pub struct FillerSolver {
    filler: HeuristicFiller,
}

impl FillerSolver {
    pub fn new(filler: HeuristicFiller) -> FillerSolver {
        FillerSolver { filler }
    }

    fn draw(&mut self, form: &Form, rng: &mut dyn RngCore) -> Option<Vec<FieldValue>> {
        let fill = self.filler.fill(form, Variant::Valid, rng)?;
        Some(
            (0..form.fields.len())
                .map(|i| {
                    fill.value_of(i).cloned().unwrap_or_else(|| {
                        if matches!(form.fields[i].input_type.as_str(), "checkbox") {
                            FieldValue::Check(form.fields[i].checked)
                        } else {
                            FieldValue::Text(form.fields[i].value.clone())
                        }
                    })
                })
                .collect(),
        )
    }
}

/// Whether every constraint holds for `values` (one that cannot be judged counts as kept).
fn keeps(form: &Form, constraints: &[&Constraint], values: &[FieldValue]) -> bool {
    let refs = field_refs(form);
    let lookup = |name: &str| {
        refs.iter()
            .position(|r| r == name)
            .and_then(|i| values.get(i))
            .map(FieldValue::as_string)
    };
    constraints.iter().all(|c| c.holds(&lookup) != Some(false))
}

/// Other values for one field that often break a rule: empty, blank, short, long, of
/// another kind, signs and edges of numbers.
fn alternatives(current: &FieldValue) -> Vec<FieldValue> {
    match current {
        FieldValue::Check(on) => vec![FieldValue::Check(!on)],
        FieldValue::Select(_) => vec![FieldValue::Select(String::new())],
        FieldValue::Text(text) => {
            let mut v: Vec<String> = vec![
                String::new(),
                "   ".into(),
                "a".into(),
                "x".repeat(300),
                "abc".into(),
                "12345".into(),
                "-1".into(),
                "0".into(),
                "99999999".into(),
                "1900-01-01".into(),
                "2999-12-31".into(),
            ];
            if let Some(c) = text.chars().next() {
                v.push(text.replacen(c, "", 1));
            }
            v.push(text.replace('@', " at "));
            v.push(text.to_lowercase());
            v.push(text.chars().filter(|c| c.is_alphanumeric()).collect());
            v.into_iter().map(FieldValue::Text).collect()
        }
    }
}

impl ValueSolver for FillerSolver {
    fn satisfy(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>> {
        let all: Vec<&Constraint> = constraints.iter().collect();
        (0..DRAWS)
            .filter_map(|_| self.draw(form, rng))
            .find(|values| keeps(form, &all, values))
    }

    fn break_one(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        target: usize,
        rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>> {
        let goal = constraints.get(target)?;
        let field = field_refs(form).iter().position(|r| *r == goal.field)?;
        let negated = goal.negate();
        let mut wanted: Vec<&Constraint> = constraints
            .iter()
            .enumerate()
            .filter(|(i, c)| *i != target && c.field != goal.field)
            .map(|(_, c)| c)
            .collect();
        wanted.push(&negated);
        let base = self.satisfy(form, constraints, rng)?;
        // Values of other fields that the target refers to are candidates too.
        let refs = field_refs(form);
        let mut candidates = alternatives(&base[field]);
        for other in goal.related_fields() {
            if let Some(i) = refs.iter().position(|r| r == other) {
                candidates.push(base[i].clone());
            }
        }
        candidates.into_iter().find_map(|value| {
            let mut values = base.clone();
            values[field] = value;
            keeps(form, &wanted, &values).then_some(values)
        })
    }
}
