//! Values that a form control accepts by its type and attributes alone (the HTML
//! standard's value sanitisation and constraint rules), for strategies that know nothing
//! more about a field. The form engine supplies better ones once it has studied a form.

use curio_page::Field;
use rand::Rng;

/// A value valid for `field` under its type and its `min`/`max`/`step`/`minlength`/
/// `maxlength` attributes. Varied by `rng` where the type allows it.
pub fn valid_value<R: Rng + ?Sized>(field: &Field, rng: &mut R) -> String {
    let value = match field.input_type.as_str() {
        "email" => pick(
            rng,
            &[
                "alex.morgan@example.com",
                "sam.lee@example.org",
                "kim@example.net",
            ],
        ),
        "tel" => pick(rng, &["+1 555 010 2030", "555-0100", "+44 20 7946 0958"]),
        "url" => pick(rng, &["https://example.com/", "https://example.org/about"]),
        "password" => "Curio-Pass-2024!".to_string(),
        "search" => pick(rng, &["shirt", "blue", "gift"]),
        "number" | "range" => number(field, rng),
        "date" => clamp_str(field, "2025-06-15"),
        "time" => clamp_str(field, "10:30"),
        "datetime-local" => clamp_str(field, "2025-06-15T10:30"),
        "month" => clamp_str(field, "2025-06"),
        "week" => clamp_str(field, "2025-W24"),
        "color" => "#3366cc".to_string(),
        "textarea" => pick(
            rng,
            &["Hello, this is a test message.", "Looks good to me."],
        ),
        _ => pick(rng, &["hello", "Test value", "Alex Morgan"]),
    };
    fit_length(field, value)
}

fn pick<R: Rng + ?Sized>(rng: &mut R, options: &[&str]) -> String {
    options[rng.random_range(0..options.len())].to_string()
}

fn number<R: Rng + ?Sized>(field: &Field, rng: &mut R) -> String {
    let parse = |s: &Option<String>| s.as_deref().and_then(|v| v.trim().parse::<f64>().ok());
    let min = parse(&field.min);
    let max = parse(&field.max);
    let step = field
        .step
        .as_deref()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(1.0);
    let (lo, hi) = match (min, max) {
        (Some(lo), Some(hi)) if lo <= hi => (lo, hi),
        (Some(lo), _) => (lo, lo + 10.0 * step),
        (None, Some(hi)) => ((hi - 10.0 * step).max(hi.min(1.0)), hi),
        (None, None) => (1.0, 10.0),
    };
    // A valid value sits on the step grid anchored at min (or 0).
    let base = min.unwrap_or(0.0);
    let first = ((lo - base) / step).ceil();
    let last = ((hi - base) / step).floor();
    let k = if last >= first {
        rng.random_range(first as i64..=last as i64) as f64
    } else {
        first
    };
    let v = base + k * step;
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v}")
    }
}

/// ISO-formatted values compare correctly as strings, so `min`/`max` clamp them directly.
fn clamp_str(field: &Field, default: &str) -> String {
    let mut v = default.to_string();
    if let Some(min) = field.min.as_deref().filter(|m| !m.is_empty())
        && v.as_str() < min
    {
        v = min.to_string();
    }
    if let Some(max) = field.max.as_deref().filter(|m| !m.is_empty())
        && v.as_str() > max
    {
        v = max.to_string();
    }
    v
}

fn fit_length(field: &Field, mut value: String) -> String {
    if let Some(min) = field.minlength {
        while value.chars().count() < min as usize {
            value.push('x');
        }
    }
    if let Some(max) = field.maxlength {
        value = value.chars().take(max as usize).collect();
    }
    value
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use curio_page::{Rect, Target};
    use rand::SeedableRng;

    /// A bare input of `input_type`, for tests.
    pub(crate) fn field(input_type: &str) -> Field {
        Field {
            target: Target {
                backend_node_id: 1,
                frame: 0,
                selector: "#f".into(),
                locator: "textbox".into(),
                rect: Rect::default(),
            },
            tag: "input".into(),
            input_type: input_type.into(),
            name: None,
            id: None,
            labels: vec![],
            placeholder: None,
            autocomplete: None,
            required: false,
            readonly: false,
            min: None,
            max: None,
            step: None,
            minlength: None,
            maxlength: None,
            pattern: None,
            inputmode: None,
            options: vec![],
            value: String::new(),
            checked: false,
        }
    }

    #[test]
    fn numbers_respect_min_max_step() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut f = field("number");
        f.min = Some("5".into());
        f.max = Some("20".into());
        f.step = Some("5".into());
        for _ in 0..50 {
            let v: i64 = valid_value(&f, &mut rng).parse().unwrap();
            assert!([5, 10, 15, 20].contains(&v), "{v}");
        }
    }

    #[test]
    fn lengths_and_dates_are_respected() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut f = field("text");
        f.minlength = Some(12);
        f.maxlength = Some(14);
        let v = valid_value(&f, &mut rng);
        assert!((12..=14).contains(&v.chars().count()), "{v}");
        let mut d = field("date");
        d.min = Some("2030-01-01".into());
        assert_eq!(valid_value(&d, &mut rng), "2030-01-01");
        assert!(valid_value(&field("email"), &mut rng).contains('@'));
    }
}
