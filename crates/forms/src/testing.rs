//! What the parts of form testing hand each other: how a constraint names a field, what
//! the browser saw around one submission, and the interface of a value solver.
//!
//! The browser layer fills an [`Observation`]; feedback classification turns it into
//! messages attached to fields; the form-testing state machine asks a [`ValueSolver`] for
//! values that keep every constraint, or break exactly one.

use std::collections::HashMap;

use curio_page::{Form, Rect};
use rand::RngCore;
use serde::{Deserialize, Serialize};

use crate::filler::FieldValue;
use crate::lang::Constraint;

/// The name a constraint uses for each field of `form` (`field('…')`), by field index:
/// the field's `id`, else its `name`, else `field-N` (N its index). Names are unique in
/// the form: a repeat gets `#2`, `#3`, ... appended. Radio buttons sharing a name are
/// already one field in the page model.
pub fn field_refs(form: &Form) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    form.fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let base =
                f.id.as_deref()
                    .filter(|s| !s.trim().is_empty())
                    .or(f.name.as_deref().filter(|s| !s.trim().is_empty()))
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("field-{i}"));
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 { base } else { format!("{base}#{n}") }
        })
        .collect()
}

/// A visible text and where it was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeenText {
    pub text: String,
    pub rect: Rect,
    /// Whether it sat in (or was) a `role=alert`, `role=status` or `aria-live` region.
    pub live: bool,
    /// Whether it was shown as an alarm: red, or with an `error`, `danger` or `invalid`
    /// class on it or near above it.
    #[serde(default)]
    pub alarm: bool,
}

/// One field of the form after the submission settled (same order as `form.fields`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FieldState {
    /// The browser's `validationMessage` (native validation; never in the DOM); empty
    /// when the field is valid or gone.
    pub validation_message: String,
    /// `aria-invalid="true"` on the field.
    pub aria_invalid: bool,
    /// Text of the elements its `aria-describedby` / `aria-errormessage` name.
    pub described_by: String,
    /// Where the field is now; zero when it is gone.
    pub rect: Rect,
    /// Its value now.
    pub value: String,
}

/// What the browser saw around one submission: the raw material of feedback.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Observation {
    pub url_before: String,
    pub url_after: String,
    /// Whether a new document replaced the one the form was on.
    pub navigated: bool,
    /// Visible texts just before the submit click and after the submission settled.
    pub texts_before: Vec<SeenText>,
    pub texts_after: Vec<SeenText>,
    /// Texts added to the document while the submission settled, in order, including
    /// ones removed again since (a message that vanishes after 3 s).
    pub added_texts: Vec<SeenText>,
    /// Per field of the form, by index; empty when the form is gone.
    pub fields: Vec<FieldState>,
    /// HTTP statuses of the documents and fetch/XHR requests answered meanwhile.
    pub statuses: Vec<u16>,
    /// Messages of JavaScript dialogs (`alert()`, `confirm()`) shown meanwhile.
    pub dialogs: Vec<String>,
    /// Whether the submission did not settle in time.
    pub timed_out: bool,
    /// The texts typed into the form's fields for this submission: the page may show
    /// them back (a posted comment) once the fields are gone or emptied.
    #[serde(default)]
    pub sent: Vec<String>,
}

/// Chooses values for a whole form from its constraints.
pub trait ValueSolver {
    /// A value for every field of `form` (by index, as `form.fields`) that keeps every
    /// constraint, realistic for the field's meaning; `None` when none was found.
    fn satisfy(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>>;

    /// The form's feedback gave `value` as an example of what field `field` (by index)
    /// takes ("… e.g. 978-0-14-143951-8"): a value worth trying there.
    fn example(&mut self, _field: usize, _value: String) {}

    /// Values that break `constraints[target]` and keep all the others (those on other
    /// fields, and the target field's other rules where they can be kept); `None` when
    /// no such values were found.
    fn break_one(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        target: usize,
        rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>>;
}
