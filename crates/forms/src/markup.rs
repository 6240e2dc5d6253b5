//! The rules a form's markup states (required, lengths, bounds, types), as constraints.

use curio_page::Form;

use crate::lang::{Check, CmpOp, Constraint, Operand};
use crate::testing::field_refs;

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
