//! `set-back`: an option the run took out of a form comes back. Made a viewer on the
//! team page, Priya Nair is no longer offered as an assignee; the select named after
//! her ("Role of Priya Nair") is set back to an earlier value on the next page where
//! it can be chosen in, and left as it is until a form offers her again.

use std::collections::{BTreeSet, HashMap};

use curio_forms::{FieldValue, FormFiller};
use curio_page::{ActionKind, Page};
use curio_record::Step;

use crate::solved::form_signature;
use crate::strategy::{Candidate, Move};

/// The choices made in one select during a run (see `Explorer::restored`).
pub(crate) struct ChoicesMade {
    /// The page it was chosen in last.
    pub(crate) page_url: String,
    /// The latest step that chose in it.
    pub(crate) step: Step,
    /// The values it showed before a choice and was given, first to latest, each once
    /// (where it was last).
    pub(crate) values: Vec<String>,
}

/// What the run knows of the options its forms offered and of the selects it set
/// back, by the locators of the selects chosen in (`made`, kept by the explorer).
#[derive(Default)]
pub(crate) struct SetBack {
    /// The options each select of a form offered in the run, by the form's signature
    /// and the select's locator: (value, text), in order first seen.
    offered: HashMap<String, Vec<(String, String)>>,
    /// The texts of options a form offered, never sent, and offers no more: Priya
    /// Nair, once made a viewer, in an assignee list.
    withdrawn: BTreeSet<String>,
    /// The locators of the selects seen in the run: "Role of Sam Lee" beside "Role of
    /// Priya Nair" tells that the rows are named after members.
    select_names: BTreeSet<String>,
    /// The selects set back, by locator, with the option that brought them back: no
    /// move chooses in one again until a form offers that option.
    held: HashMap<String, String>,
}

impl SetBack {
    /// Notes the options the selects of `page`'s forms offer: an option offered before
    /// and never sent in a fill of its form (as `filler` counts) is withdrawn while a
    /// select of the form offers it no more; offered again, it is not. So is an option
    /// never seen that a select the run changed (`made`) is named after, where selects
    /// named the same way after the options offered were seen ("Role of Priya Nair"
    /// changed, and "Role of Sam Lee" seen, where the assignees are Sam Lee and
    /// others): the change may have been made before the form was first seen.
    pub(crate) fn note_offered(
        &mut self,
        page: &Page,
        filler: &dyn FormFiller,
        made: &HashMap<String, ChoicesMade>,
    ) {
        self.select_names.extend(
            page.actions
                .iter()
                .filter(|a| a.kind == ActionKind::Select)
                .map(|a| a.target.locator.clone()),
        );
        for form in &page.forms {
            let signature = form_signature(form);
            for field in form.fields.iter().filter(|f| f.tag == "select") {
                let now: Vec<(String, String)> = field
                    .options
                    .iter()
                    .filter(|o| !o.value.is_empty() && !o.disabled)
                    .map(|o| (o.value.clone(), o.text.trim().to_string()))
                    .collect();
                let key = format!("{signature}#{}", field.target.locator);
                let before = self.offered.entry(key).or_default();
                for (value, text) in before.iter() {
                    let gone = !now.iter().any(|(_, t)| t == text);
                    let choice = FieldValue::Select(value.clone());
                    if gone && filler.unsent(form, field, &choice) {
                        self.withdrawn.insert(text.clone());
                    }
                }
                let texts: Vec<&str> = now.iter().map(|(_, t)| t.as_str()).collect();
                for name in unoffered_names(&texts, &self.select_names, made.keys()) {
                    if !before.iter().any(|(_, t)| *t == name) {
                        self.withdrawn.insert(name);
                    }
                }
                for (value, text) in now {
                    self.withdrawn.remove(&text);
                    self.held.retain(|_, held| *held != text);
                    if !before.iter().any(|(_, t)| *t == text) {
                        before.push((value, text));
                    }
                }
            }
        }
    }

    /// The move that brings a withdrawn option back, when `candidates` choose in a
    /// select named after it ("Role of Priya Nair") that the run changed (`made`):
    /// that select set back to the latest value it showed or was given before the one
    /// it shows, where it still offers it, unless it was set back already and no form
    /// offered the option since. The option is no longer withdrawn; it is again if its
    /// form is seen without it once more.
    pub(crate) fn choice(
        &mut self,
        page: &Page,
        candidates: &[Candidate],
        made: &HashMap<String, ChoicesMade>,
    ) -> Option<Candidate> {
        for candidate in candidates {
            let Move::Choose { action: i, .. } = candidate.kind else {
                continue;
            };
            let Some((action, field)) = page
                .actions
                .get(i)
                .and_then(|a| Some((a, a.field.as_ref()?)))
            else {
                continue;
            };
            let locator = &action.target.locator;
            // Set back once already, and the option is still not offered: the select
            // is not what hides it (an invited member still pending).
            if self.held.contains_key(locator) {
                continue;
            }
            let Some(text) = self
                .withdrawn
                .iter()
                .find(|t| t.chars().count() >= 3 && locator.contains(t.as_str()))
                .cloned()
            else {
                continue;
            };
            let Some(made) = made.get(locator) else {
                continue;
            };
            let offered = |v: &str| field.options.iter().any(|o| o.value == v && !o.disabled);
            let Some(back) = made
                .values
                .iter()
                .rev()
                .find(|v| **v != field.value && offered(v))
            else {
                continue;
            };
            self.withdrawn.remove(&text);
            self.held.insert(locator.clone(), text);
            return Some(Candidate {
                key: format!("{}={back}", action.key.0),
                kind: Move::Choose {
                    action: i,
                    value: back.clone(),
                },
            });
        }
        None
    }

    /// Whether `candidate` chooses in one of the selects (by locator) of `page` that
    /// are held as they were set back.
    pub(crate) fn holds(&self, page: &Page, candidate: &Candidate) -> bool {
        match candidate.kind {
            Move::Choose { action, .. } => page
                .actions
                .get(action)
                .is_some_and(|a| self.held.contains_key(&a.target.locator)),
            _ => false,
        }
    }
}

/// The names, not among `offered`, of the `changed` selects named like the `seen`
/// selects named after an option offered: with "Role of Sam Lee" seen and Sam Lee
/// offered, "Role of Priya Nair" changed names Priya Nair. Names and options of fewer
/// than three characters are left out.
pub(crate) fn unoffered_names<'a>(
    offered: &[&str],
    seen: &BTreeSet<String>,
    changed: impl Iterator<Item = &'a String>,
) -> Vec<String> {
    let long = |t: &str| t.chars().count() >= 3;
    let mut shapes: BTreeSet<(&str, &str)> = BTreeSet::new();
    for locator in seen {
        for option in offered.iter().filter(|t| long(t)) {
            // A select named after the option and nothing else ("Sam Lee") tells
            // nothing: every select would be named after something.
            if let Some(at) = locator.find(option)
                && let (before, after) = (&locator[..at], &locator[at + option.len()..])
                && !(before.ends_with('"') && after.starts_with('"'))
            {
                shapes.insert((before, after));
            }
        }
    }
    let mut names: Vec<String> = changed
        .filter_map(|locator| {
            shapes.iter().find_map(|(before, after)| {
                let name = locator.strip_prefix(before)?.strip_suffix(after)?;
                (long(name) && !offered.contains(&name)).then(|| name.to_string())
            })
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_named_after_the_options_offered_name_the_ones_missing() {
        let seen: BTreeSet<String> = [
            r#"combobox "Role of Sam Lee""#,
            r#"combobox "Role of Priya Nair""#,
            r#"combobox "Sam Lee""#,
            r#"combobox "Status""#,
        ]
        .map(String::from)
        .into();
        let changed: Vec<String> = [
            r#"combobox "Role of Priya Nair""#,
            r#"combobox "Status""#,
            r#"combobox "Role of Al""#,
            r#"combobox "Role of Sam Lee""#,
        ]
        .map(String::from)
        .into();
        let offered = ["Sam Lee", "Jonas Weber"];
        assert_eq!(
            unoffered_names(&offered, &seen, changed.iter()),
            vec!["Priya Nair".to_string()]
        );
        // No select is named like the ones after an option offered.
        assert!(unoffered_names(&["Alex Rivera"], &seen, changed.iter()).is_empty());
    }
}
