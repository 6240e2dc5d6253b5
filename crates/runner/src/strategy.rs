//! Choosing the next action. This module holds the `random` baseline: a seeded uniform
//! random walk over the page's actions, inputs filled with values valid for their type.

use curio_browser::UserAction;
use curio_page::{Action, ActionKind, Page};
use curio_record::{Step, StepKind};
use rand::Rng;

use crate::input_values::valid_value;

/// An action chosen on a page, ready to perform and to record.
#[derive(Debug, Clone)]
pub(crate) struct Choice {
    pub action: UserAction,
    pub step: Step,
}

/// Picks one of `page`'s actions uniformly at random; `None` when there is nothing to do.
pub(crate) fn random_choice<R: Rng + ?Sized>(page: &Page, rng: &mut R) -> Option<Choice> {
    if page.actions.is_empty() {
        return None;
    }
    let action = &page.actions[rng.random_range(0..page.actions.len())];
    Some(choose_input(action, rng))
}

fn choose_input<R: Rng + ?Sized>(action: &Action, rng: &mut R) -> Choice {
    let target = action.target.clone();
    let step = |kind, value: Option<String>| Step {
        kind,
        locator: target.locator.clone(),
        selector: target.selector.clone(),
        value,
    };
    match action.kind {
        ActionKind::Click => Choice {
            step: step(StepKind::Click, None),
            action: UserAction::Click(target.clone()),
        },
        ActionKind::Check => Choice {
            step: step(StepKind::Check, None),
            action: UserAction::Check(target.clone()),
        },
        ActionKind::Fill => {
            let (value, input_type) = match &action.field {
                Some(f) => (valid_value(f, rng), f.input_type.clone()),
                None => ("hello".to_string(), "text".to_string()),
            };
            Choice {
                step: step(StepKind::Fill, Some(value.clone())),
                action: UserAction::Fill(target.clone(), value, input_type),
            }
        }
        ActionKind::Select => {
            let options: Vec<&str> = action
                .field
                .iter()
                .flat_map(|f| f.options.iter())
                .filter(|o| !o.disabled)
                .map(|o| o.value.as_str())
                .collect();
            // Placeholder options ("Choose...") usually carry an empty value; prefer real ones.
            let real: Vec<&str> = options.iter().copied().filter(|v| !v.is_empty()).collect();
            let pool = if real.is_empty() { &options } else { &real };
            let value = if pool.is_empty() {
                String::new()
            } else {
                pool[rng.random_range(0..pool.len())].to_string()
            };
            Choice {
                step: step(StepKind::Select, Some(value.clone())),
                action: UserAction::Select(target.clone(), value),
            }
        }
    }
}
