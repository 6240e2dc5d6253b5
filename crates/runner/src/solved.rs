//! The form macro with values a form accepted: once a short form-testing session has
//! reached a successful submission of a form (`form-sessions`), the macro types those
//! values instead of fresh guesses, so that rules only the server states ("at least 5
//! seats") no longer stop exploration at the form.

use std::collections::HashMap;

use curio_forms::testing::field_refs;
use curio_forms::{FieldValue, Filled, FormFill, FormFiller, Variant};
use curio_page::{Field, Form};
use rand::RngCore;

/// What identifies a form across pages and visits: its key and its fields' names.
pub(crate) fn form_signature(form: &Form) -> String {
    format!("{}|{}", form.key.0, field_refs(form).join(","))
}

/// What a form accepted in its session.
#[derive(Debug, Clone)]
pub(crate) struct Accepted {
    /// A value per field of the form.
    pub(crate) values: Vec<FieldValue>,
    /// Per field, whether the form asked for its value (its messages were about the
    /// field); the filler's own guess did for the others.
    pub(crate) needed: Vec<bool>,
}

/// Accepted values per form signature; `None` for forms whose session found none.
pub(crate) type Solved = HashMap<String, Option<Accepted>>;

/// A [`FormFiller`] that answers with the accepted values of a form where there are
/// some: the typed text the form asked for and the boxes it had to tick. Choices still
/// come from the inner filler, so that they keep rotating, and so does text the filler's
/// own guess got through: the session sent it once already, and a key, a name or an
/// address an app stored is often refused as taken the next time.
pub(crate) struct SolvedFiller<'a> {
    pub(crate) inner: &'a mut dyn FormFiller,
    pub(crate) solved: &'a Solved,
}

impl FormFiller for SolvedFiller<'_> {
    fn fill(&mut self, form: &Form, variant: Variant, rng: &mut dyn RngCore) -> Option<FormFill> {
        let mut fill = self.inner.fill(form, variant, rng)?;
        let Some(Some(accepted)) = self.solved.get(&form_signature(form)) else {
            return Some(fill);
        };
        if variant != Variant::Valid || accepted.values.len() != form.fields.len() {
            return Some(fill);
        }
        for (i, value) in accepted.values.iter().enumerate() {
            // A box the session had to tick stays ticked; boxes ticked from the start
            // rotate with the choices (all cleared is a classic gap).
            let ticked = |i: usize| form.fields.get(i).is_some_and(|f| f.checked);
            let wanted = match value {
                FieldValue::Text(_) if accepted.needed.get(i) == Some(&true) => value.clone(),
                FieldValue::Text(_) => continue,
                FieldValue::Check(true) if !ticked(i) => value.clone(),
                _ => continue,
            };
            match fill.values.iter_mut().find(|f| f.field == i) {
                Some(filled) => filled.value = wanted,
                None => fill.values.push(Filled {
                    field: i,
                    value: wanted,
                }),
            }
        }
        fill.values.sort_by_key(|f| f.field);
        Some(fill)
    }

    fn value_for(&mut self, field: &Field, rng: &mut dyn RngCore) -> String {
        self.inner.value_for(field, rng)
    }

    fn used(&mut self, field: &Field, value: &FieldValue) {
        self.inner.used(field, value);
    }

    fn submitted(&mut self, form: &Form, fill: &FormFill) {
        self.inner.submitted(form, fill);
    }

    fn refused(&mut self, form: &Form, fill: &FormFill) {
        self.inner.refused(form, fill);
    }

    fn skip_rounds(&mut self, form: &Form, rounds: u32) {
        self.inner.skip_rounds(form, rounds);
    }

    fn fresh(&self, field: &Field, value: &FieldValue) -> bool {
        self.inner.fresh(field, value)
    }

    fn unsent(&self, form: &Form, field: &Field, value: &FieldValue) -> bool {
        self.inner.unsent(form, field, value)
    }

    fn fresh_boundary(&self, field: &Field, value: &str) -> bool {
        self.inner.fresh_boundary(field, value)
    }

    fn fresh_pair(&self, form: &Form, a: (&Field, &FieldValue), b: (&Field, &FieldValue)) -> bool {
        self.inner.fresh_pair(form, a, b)
    }
}

#[cfg(test)]
mod tests {
    use curio_forms::{Dictionary, HeuristicFiller};
    use curio_page::{ElementKey, FormId};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn field(name: &str, input_type: &str) -> Field {
        let mut f = crate::input_values::tests::field(input_type);
        f.name = Some(name.into());
        f.target.selector = format!("#{name}");
        f
    }

    #[test]
    fn the_text_a_form_asked_for_and_ticks_replace_guesses_in_valid_fills_only() {
        let form = Form {
            id: FormId(0),
            key: ElementKey("form|book".into()),
            target: None,
            name: None,
            html_id: None,
            action: None,
            method: None,
            title: None,
            fields: vec![
                field("seats", "number"),
                field("terms", "checkbox"),
                field("project", "text"),
            ],
            submit: None,
        };
        let mut inner = HeuristicFiller::new(Dictionary::default(), (2026, 12, 4));
        let mut solved = Solved::new();
        solved.insert(
            form_signature(&form),
            Some(Accepted {
                values: vec![
                    FieldValue::Text("5".into()),
                    FieldValue::Check(true),
                    FieldValue::Text("Accepted 7".into()),
                ],
                needed: vec![true, true, false],
            }),
        );
        let mut filler = SolvedFiller {
            inner: &mut inner,
            solved: &solved,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let fill = filler.fill(&form, Variant::Valid, &mut rng).unwrap();
        assert_eq!(fill.value_of(0), Some(&FieldValue::Text("5".into())));
        assert_eq!(fill.value_of(1), Some(&FieldValue::Check(true)));
        // Text the form did not ask for is the filler's own, as the form would get it
        // without a session.
        let mut plain = HeuristicFiller::new(Dictionary::default(), (2026, 12, 4));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let guess = plain.fill(&form, Variant::Valid, &mut rng).unwrap();
        assert_eq!(fill.value_of(2), guess.value_of(2));
        assert_ne!(
            fill.value_of(2),
            Some(&FieldValue::Text("Accepted 7".into()))
        );
        // An invalid variant keeps its broken value.
        for seed in 0..10 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            if let Some(f) = filler.fill(&form, Variant::WrongType, &mut rng)
                && f.broken == Some(0)
            {
                assert_ne!(f.value_of(0), Some(&FieldValue::Text("5".into())));
            }
        }
    }
}
