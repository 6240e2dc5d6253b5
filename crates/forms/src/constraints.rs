//! HTML constraint validation of a typed value: what the browser checks before it lets a
//! form submit (`required`, type, `min`/`max`/`step`, `minlength`/`maxlength`, `pattern`),
//! so that a "valid" value is never stopped before it reaches the server.

use curio_page::Field;

use crate::pattern::Pattern;
use crate::scalar::{Bounds, Grid, Scale};

/// The input types a person types free text into.
pub(crate) fn is_text_like(input_type: &str) -> bool {
    matches!(
        input_type,
        "text" | "search" | "tel" | "url" | "email" | "password" | "textarea" | "contenteditable"
    )
}

/// Types whose `pattern` attribute applies.
fn pattern_applies(input_type: &str) -> bool {
    matches!(
        input_type,
        "text" | "search" | "tel" | "url" | "email" | "password"
    )
}

/// `min`, `max` and the step grid of a field on `scale`. Range inputs default to 0..100,
/// as the browser does.
pub(crate) fn bounds_and_grid(field: &Field, scale: Scale) -> (Bounds, Grid) {
    let parse = |v: &Option<String>| v.as_deref().and_then(|s| scale.parse(s.trim()));
    let mut bounds = Bounds {
        lo: parse(&field.min),
        hi: parse(&field.max),
    };
    if field.input_type == "range" {
        bounds.lo = bounds.lo.or(Some(0.0));
        bounds.hi = bounds.hi.or(Some(100.0));
    }
    let step = match field.step.as_deref().map(str::trim) {
        Some(s) if s.eq_ignore_ascii_case("any") => None,
        Some(s) => Some(
            crate::scalar::parse_number(s)
                .filter(|v| *v > 0.0)
                .unwrap_or_else(|| scale.default_step()),
        ),
        None => Some(scale.default_step()),
    };
    let grid = Grid {
        base: bounds.lo.unwrap_or(0.0),
        step,
    };
    (bounds, grid)
}

/// Whether the browser would let `value` typed into `field` through its constraints.
/// Selects, checkboxes and radios are not typed into and always pass here.
pub(crate) fn accepts(field: &Field, value: &str) -> bool {
    let ty = field.input_type.as_str();
    if let Some(scale) = Scale::of_type(ty) {
        if value.is_empty() {
            return !field.required && ty != "range";
        }
        let Some(v) = scale.parse(value) else {
            return false;
        };
        let (bounds, grid) = bounds_and_grid(field, scale);
        let in_bounds = match (scale, bounds.lo, bounds.hi) {
            // A time range may wrap around midnight (min 22:00, max 06:00).
            (Scale::Time, Some(lo), Some(hi)) if lo > hi => v >= lo || v <= hi,
            _ => bounds.contains(v),
        };
        return in_bounds && grid.on_grid(v);
    }
    match ty {
        "color" => {
            return value.len() == 7
                && value.starts_with('#')
                && value[1..].bytes().all(|b| b.is_ascii_hexdigit());
        }
        t if !is_text_like(t) => return true,
        _ => {}
    }
    if value.is_empty() {
        return !field.required;
    }
    if ty == "contenteditable" {
        return true;
    }
    let len = value.encode_utf16().count();
    if field.minlength.is_some_and(|m| len < m as usize)
        || field.maxlength.is_some_and(|m| len > m as usize)
    {
        return false;
    }
    if ty == "email" && !is_email(value) {
        return false;
    }
    if ty == "url" && !is_url(value) {
        return false;
    }
    if ty != "textarea" && value.contains(['\n', '\r']) {
        return false;
    }
    pattern_ok(field, value)
}

/// Whether `value` matches the field's `pattern`, when there is one this crate can read.
pub(crate) fn pattern_ok(field: &Field, value: &str) -> bool {
    if !pattern_applies(&field.input_type) {
        return true;
    }
    match field
        .pattern
        .as_deref()
        .filter(|p| !p.is_empty())
        .map(Pattern::parse)
    {
        Some(Some(p)) => p.matches(value),
        _ => true,
    }
}

/// HTML's "valid e-mail address".
pub(crate) fn is_email(value: &str) -> bool {
    let Some((local, domain)) = value.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c));
    let domain_ok = !domain.is_empty()
        && domain.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    local_ok && domain_ok
}

/// An absolute URL, as far as a scheme and something after it go.
pub(crate) fn is_url(value: &str) -> bool {
    let Some((scheme, rest)) = value.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        && !rest.is_empty()
        && !value.contains(char::is_whitespace)
}
