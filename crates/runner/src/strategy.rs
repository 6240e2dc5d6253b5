//! What can be done on a page, as the strategies see it: the page's own actions (minus
//! the denied ones) and, with the form macro, one action per form and value variant.
//! Also the `random` baseline's choice, and how a chosen move becomes user actions.

use std::collections::{BTreeSet, HashSet};

use curio_browser::UserAction;
use curio_forms::{FieldValue, FormFill, FormFiller, Variant};
use curio_page::{Action, ActionKind, Field, Form, Page, UrlNormalization, normalize_url};
use curio_record::{Step, StepKind};
use rand::{Rng, RngCore};

use crate::config::Features;
use crate::forms::action_for;
use crate::guard::ActionGuard;
use crate::input_values::valid_value;
use crate::solved::form_signature;

/// One thing a strategy can choose on a page.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    /// Stable across visits of the page, so learned values carry over.
    pub key: String,
    pub kind: Move,
}

#[derive(Debug, Clone)]
pub(crate) enum Move {
    /// `page.actions[i]`.
    Single(usize),
    /// Choose option `value` in the select `page.actions[action]`.
    Choose { action: usize, value: String },
    /// Fill `page.forms[form]` with `fill`, then submit it.
    Form { form: usize, fill: FormFill },
    /// Fill `page.forms[form]` with `fill`, then press `page.actions[action]`, a button
    /// of the form other than its submit button.
    Press {
        form: usize,
        fill: FormFill,
        action: usize,
    },
}

/// An action ready to perform and to record.
#[derive(Debug, Clone)]
pub(crate) struct Planned {
    /// `None` for a box a form macro leaves as it is: its state is recorded in the trace
    /// (a replay sets it, whatever the app shows by then), nothing is done.
    pub action: Option<UserAction>,
    pub step: Step,
}

/// The candidates of `page` under `features`: the page's actions that the guard allows,
/// then a form macro per form (and per invalid variant) that can be filled and submitted,
/// and with `form-buttons` one per other button of the form.
/// `denied`: the elements the guard's selectors match ([`ActionGuard::denied_nodes`]).
pub(crate) fn candidates(
    page: &Page,
    denied: &[i64],
    features: &Features,
    guard: &ActionGuard,
    filler: &mut dyn FormFiller,
    rng: &mut dyn RngCore,
) -> Vec<Candidate> {
    let allowed = |a: &Action| !features.action_guard || !guard.denies(a, denied);
    let mut out: Vec<Candidate> = Vec::new();
    for (i, a) in page.actions.iter().enumerate().filter(|(_, a)| allowed(a)) {
        let mut key = a.key.0.clone();
        let mut kind = Move::Single(i);
        if let (ActionKind::Select, Some(field), true) =
            (a.kind, &a.field, features.semantic_values)
        {
            let mut value = filler.value_for(field, rng);
            if value == field.value
                && let Some(other) = other_option(field, filler, rng)
            {
                value = other;
            }
            let choice = FieldValue::Select(value.clone());
            if features.fresh_choices && rotates(field) && filler.fresh(field, &choice) {
                key = format!("{key}={value}");
            }
            kind = Move::Choose { action: i, value };
        }
        out.push(Candidate { key, kind });
    }
    if !features.form_macro {
        return out;
    }
    for (i, form) in page.forms.iter().enumerate() {
        let Some(submit) = &form.submit else {
            continue;
        };
        // The submit button must itself be allowed ("Delete account" forms stay shut).
        let submit_allowed = page
            .actions
            .iter()
            .find(|a| a.target.backend_node_id == submit.backend_node_id)
            .is_none_or(allowed);
        if !submit_allowed || form.fields.is_empty() {
            continue;
        }
        let variants: &[Variant] = if features.invalid_inputs {
            &Variant::ALL
        } else {
            &[Variant::Valid]
        };
        for &variant in variants {
            if let Some(fill) = filler.fill(form, variant, rng) {
                let mut key = macro_key(form, variant);
                if variant == Variant::Valid
                    && features.fresh_choices
                    && let Some(choices) = fresh_choices(form, &fill, filler)
                {
                    key = format!("{key}|{choices}");
                }
                // A boundary value never sent makes its own action too (0, -1, just
                // past the maximum...): servers mishandle one edge, not all.
                if variant == Variant::Boundary
                    && features.fresh_choices
                    && let Some(b) = fill.broken
                    && let (Some(field), Some(FieldValue::Text(v))) =
                        (form.fields.get(b), fill.value_of(b))
                    && filler.fresh_boundary(field, v)
                {
                    key = format!("{key}|{v}");
                }
                out.push(Candidate {
                    key,
                    kind: Move::Form { form: i, fill },
                });
            }
        }
        if features.form_buttons {
            out.extend(press_candidates(page, i, features, &allowed, filler, rng));
        }
    }
    out
}

/// Button texts that throw a form's values away rather than use them.
const DISCARDING: [&str; 8] = [
    "cancel", "close", "dismiss", "back", "discard", "clear", "reset", "×",
];

/// The form's buttons besides its submit button that the guard allows and that do not
/// discard what was typed, as indexes into `page.actions`.
fn other_buttons(page: &Page, form: &Form, allowed: &dyn Fn(&Action) -> bool) -> Vec<usize> {
    let submit = form.submit.as_ref().map(|s| s.backend_node_id);
    page.actions
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            a.kind == ActionKind::Click
                && a.form == Some(form.id)
                && a.href.is_none()
                && a.role == "button"
                && Some(a.target.backend_node_id) != submit
                && allowed(a)
        })
        .filter(|(_, a)| !a.text.is_empty() && !discards(&a.text))
        .map(|(i, _)| i)
        .collect()
}

/// Whether a button's `text` says it throws away what was typed or opened ("Cancel",
/// "Clear filters", "×").
fn discards(text: &str) -> bool {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '×')
        .any(|w| DISCARDING.contains(&w))
}

/// The form's key as its press macros count it: their rounds of choices (for checkboxes:
/// as they are, all cleared, all ticked) run apart from the submit macro's.
fn press_form(form: &Form, button: &Action) -> Form {
    let mut form = form.clone();
    form.key.0 = format!("{}>{}", form.key.0, button.key.0);
    form
}

/// With `form-buttons`: a valid fill of `page.forms[i]` and a press of each of its other
/// buttons, keyed by the button and, when they are new, the fill's choices.
fn press_candidates(
    page: &Page,
    i: usize,
    features: &Features,
    allowed: &dyn Fn(&Action) -> bool,
    filler: &mut dyn FormFiller,
    rng: &mut dyn RngCore,
) -> Vec<Candidate> {
    let form = &page.forms[i];
    let mut out = Vec::new();
    for action in other_buttons(page, form, allowed) {
        let counted = press_form(form, &page.actions[action]);
        // The form as it stands is what a plain click of the button sends: the press
        // macro starts at the next round (for checkboxes: all cleared).
        filler.skip_rounds(&counted, 1);
        let Some(fill) = filler.fill(&counted, Variant::Valid, rng) else {
            continue;
        };
        let mut key = press_key(form, &page.actions[action]);
        if features.fresh_choices
            && let Some(choices) = fresh_choices(form, &fill, filler)
        {
            key = format!("{key}|{choices}");
        }
        out.push(Candidate {
            key,
            kind: Move::Press {
                form: i,
                fill,
                action,
            },
        });
    }
    out
}

/// The learner's key of the macro that fills `form` and presses `button`, before any
/// fresh choices.
fn press_key(form: &Form, button: &Action) -> String {
    format!("press:{}>{}", form.key.0, button.key.0)
}

/// Choice fields with at most this many options rotate through them as new actions;
/// longer lists (countries, airports) would drown everything else in new keys.
const MAX_ROTATED_OPTIONS: usize = 16;

fn rotates(field: &Field) -> bool {
    field.options.len() <= MAX_ROTATED_OPTIONS
}

/// The choices of `fill` (options, checkbox states) in fields that rotate, in form order.
fn choices<'a>(form: &'a Form, fill: &'a FormFill) -> Vec<(&'a Field, &'a FieldValue)> {
    fill.values
        .iter()
        .filter_map(|f| form.fields.get(f.field).map(|field| (field, &f.value)))
        .filter(|(field, value)| !matches!(value, FieldValue::Text(_)) && rotates(field))
        .collect()
}

fn joined(choices: &[(&Field, &FieldValue)]) -> String {
    choices
        .iter()
        .map(|(_, value)| value.as_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// When `fill` makes a choice never sent before in a fill of `form` (an option, a
/// checkbox state; a single edit that was not saved does not count), or pairs two
/// choices never sent together in a valid fill, the fill's choices,
/// which make the macro a new action: curiosity then seeks every status, plan and
/// assignee out, not just the first one drawn, and every pair of them (a plan with each
/// billing cycle).
fn fresh_choices(form: &Form, fill: &FormFill, filler: &dyn FormFiller) -> Option<String> {
    let choices = choices(form, fill);
    let fresh = choices
        .iter()
        .any(|(field, value)| filler.unsent(form, field, value));
    let fresh_pair = || {
        choices.iter().enumerate().any(|(i, &a)| {
            choices[i + 1..]
                .iter()
                .any(|&b| filler.fresh_pair(form, a, b))
        })
    };
    (fresh || fresh_pair()).then(|| joined(&choices))
}

/// What a move changes in the app, for `change-contexts`: a form submitted, by its macro
/// or its submit button, named by the form and the choices it was sent with
/// (`form:K|blocked,alex`), with the form's signature, and whether the change is sure:
/// not for an invalid variant, a change only when the server took it (an "invalid"
/// budget a project is saved with, archived); `None` for other moves.
pub(crate) fn change_label(page: &Page, candidate: &Candidate) -> Option<(String, String, bool)> {
    let (form, choices, sure) = match &candidate.kind {
        Move::Form { form, fill } => {
            let form = page.forms.get(*form)?;
            (form, joined(&choices(form, fill)), fill.broken.is_none())
        }
        Move::Single(i) => {
            let action = page.actions.get(*i)?;
            let form = page.forms.iter().find(|f| {
                f.submit
                    .as_ref()
                    .is_some_and(|s| s.backend_node_id == action.target.backend_node_id)
            })?;
            (form, current_choices(form), true)
        }
        Move::Choose { .. } | Move::Press { .. } => return None,
    };
    Some((
        form_signature(form),
        format!("form:{}|{choices}", form.key.0),
        sure,
    ))
}

/// Whether `candidate` submits a form of `page`, valid or not: a form macro, or a click
/// on a form's submit button.
pub(crate) fn submits(page: &Page, candidate: &Candidate) -> bool {
    submitted(page, candidate).is_some()
}

/// The form of `page` that `candidate` submits: a form macro's, or the one whose
/// submit button it clicks.
fn submitted<'a>(page: &'a Page, candidate: &Candidate) -> Option<&'a Form> {
    match &candidate.kind {
        Move::Form { form, .. } => page.forms.get(*form),
        Move::Single(i) => page.actions.get(*i).and_then(|a| {
            page.forms.iter().find(|f| {
                f.submit
                    .as_ref()
                    .is_some_and(|s| s.backend_node_id == a.target.backend_node_id)
            })
        }),
        Move::Choose { .. } | Move::Press { .. } => None,
    }
}

/// The choices `form` holds as the page shows it, joined as [`joined`] does.
fn current_choices(form: &Form) -> String {
    form.fields
        .iter()
        .filter(|f| rotates(f))
        .filter_map(|f| match f.input_type.as_str() {
            "checkbox" => Some(f.checked.to_string()),
            "radio" => Some(
                f.options
                    .iter()
                    .find(|o| o.selected)
                    .map_or_else(String::new, |o| o.value.clone()),
            ),
            t if t.starts_with("select") => Some(f.value.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The learner's key of `form`'s macro with `variant` values, before any fresh choices:
/// by the form's signature, since main forms without an id share a key wherever they
/// sit at the same place, and the learner's novelty would fade one page's form for
/// having taken another's.
pub(crate) fn macro_key(form: &Form, variant: Variant) -> String {
    format!("form:{}#{}", form_signature(form), variant.as_str())
}

/// The key a form is counted under among the page's action keys, for
/// [`local_candidates`]: its signature, key and fields, since forms without an id share
/// a key wherever they sit at the same place (a page's main form).
pub(crate) fn form_spread_key(form: &Form) -> String {
    format!("form:{}", form_signature(form))
}

/// With `local-first`: the prior weight of a candidate that is navigation (its action,
/// or its form, offered on [`crate::explore`]'s spread of kinds of page: a sidebar link,
/// the header's search) against one particular to its page (a tab, a form's macro, a
/// filter): a quarter, so that a page with 13 actions of its own and 23 navigation
/// links spends about two moves in three on its own.
pub(crate) const NAVIGATION_WEIGHT: f64 = 0.25;

/// The key `candidate` is counted under for its spread over kinds of page: its
/// action's key, or its form's [`form_spread_key`].
pub(crate) fn spread_key(page: &Page, candidate: &Candidate) -> Option<String> {
    match &candidate.kind {
        Move::Single(i) | Move::Choose { action: i, .. } => {
            page.actions.get(*i).map(|a| a.key.0.clone())
        }
        Move::Form { form, .. } | Move::Press { form, .. } => {
            page.forms.get(*form).map(form_spread_key)
        }
    }
}

/// With `fresh-first`: the prior weight of a move that tries choices never tried
/// together (see [`crate::config::Features::fresh_first`]).
pub(crate) const FRESH_CHOICE_WEIGHT: f64 = 8.0;

/// The prior weight of each of `candidates` for the learner's choice: with
/// `local-first`, [`NAVIGATION_WEIGHT`] for navigation (`navigation` of its spread key);
/// with `fresh-first`, [`FRESH_CHOICE_WEIGHT`] for fresh choices and for clicks that
/// last led to a page or a panel offering some (`leads`, of their keys), times the
/// navigation weight for a navigation link; 1 for the rest.
pub(crate) fn local_weights(
    page: &Page,
    candidates: &[Candidate],
    navigation: impl Fn(&str) -> bool,
    leads: impl Fn(&str) -> bool,
    features: &Features,
) -> Vec<f64> {
    candidates
        .iter()
        .map(|c| {
            let lead = features.fresh_first && matches!(c.kind, Move::Single(_)) && leads(&c.key);
            let boost = if lead { FRESH_CHOICE_WEIGHT } else { 1.0 };
            if features.local_first && spread_key(page, c).is_some_and(|k| navigation(&k)) {
                NAVIGATION_WEIGHT * boost
            } else if features.fresh_first && fresh_choice(page, c) {
                FRESH_CHOICE_WEIGHT
            } else {
                boost
            }
        })
        .collect()
}

/// Whether `candidate` makes choices never made before: a valid fill (submitted, or
/// sent by another button of its form) or a choice in a select outside any form whose
/// key carries its choices, which it does only then.
pub(crate) fn fresh_choice(page: &Page, candidate: &Candidate) -> bool {
    match &candidate.kind {
        Move::Form { form, fill } if fill.variant == Variant::Valid => page
            .forms
            .get(*form)
            .is_some_and(|f| candidate.key != macro_key(f, Variant::Valid)),
        Move::Press { form, action, .. } => page
            .forms
            .get(*form)
            .zip(page.actions.get(*action))
            .is_some_and(|(f, a)| candidate.key != press_key(f, a)),
        Move::Choose { action, .. } => page
            .actions
            .get(*action)
            .is_some_and(|a| a.form.is_none() && candidate.key != a.key.0),
        _ => false,
    }
}

/// Where the latest change was made: the form and the path of its page.
#[derive(Debug, Clone)]
pub(crate) struct ChangeSource {
    /// The form's [`form_signature`].
    pub form: String,
    pub path: String,
}

/// The path of `url`, if it parses.
pub(crate) fn url_path(url: &str) -> Option<String> {
    url::Url::parse(url).ok().map(|u| u.path().to_string())
}

/// With `local-after-change`: of `candidates`, the ones particular to `page`, its own
/// links, buttons, tabs and selects outside any form (a list's filter) and its forms'
/// macros, leaving out what `navigation` says is offered on many kinds of page (a
/// sidebar, a search box), single edits of a form's field (the macro submits those),
/// and going back to the change's `source` (its form again, a link to its page), which
/// would make another change instead of looking at this one. After a stored `setting`
/// changed (a timezone, a filter), no form and no select at all: a setting
/// changes what pages show, which clicks look at (a board under the filter), while a
/// form saved then would be a change of its own and keep the tour of the app's pages
/// under the setting waiting. Nor the `control` (its backend node) whose click stored
/// the setting: clicked again, a "Start timer" that became "Stop timer" undoes it, and
/// each click is a change of its own. All of `candidates` when none is left; the flag
/// says which.
pub(crate) fn local_candidates(
    page: &Page,
    candidates: Vec<Candidate>,
    navigation: impl Fn(&str) -> bool,
    source: Option<&ChangeSource>,
    setting: bool,
    control: Option<i64>,
) -> (Vec<Candidate>, bool) {
    let same_form = |form: &Form| setting || source.is_some_and(|s| s.form == form_signature(form));
    let submits = |a: &Action| {
        page.forms.iter().any(|f| {
            same_form(f)
                && f.submit
                    .as_ref()
                    .is_some_and(|s| s.backend_node_id == a.target.backend_node_id)
        })
    };
    let back = |a: &Action| {
        source.is_some_and(|s| a.href.as_deref().and_then(url_path).as_ref() == Some(&s.path))
    };
    let stored_by = |a: &Action| setting && control == Some(a.target.backend_node_id);
    let local = |c: &Candidate| match &c.kind {
        Move::Single(i) => page.actions.get(*i).is_some_and(|a| {
            a.kind == ActionKind::Click
                && !navigation(&a.key.0)
                && !submits(a)
                && !back(a)
                && !stored_by(a)
        }),
        Move::Form { form, .. } | Move::Press { form, .. } => page
            .forms
            .get(*form)
            .is_some_and(|f| !navigation(&form_spread_key(f)) && !same_form(f)),
        // A select outside any form is the page's own control (a list's filter); one
        // inside a form is the form's, sent by its macro. Under a setting, another
        // setting would be a change of its own.
        Move::Choose { action, .. } => {
            !setting
                && page
                    .actions
                    .get(*action)
                    .is_some_and(|a| a.form.is_none() && !navigation(&a.key.0))
        }
    };
    if candidates.iter().any(local) {
        (candidates.into_iter().filter(local).collect(), true)
    } else {
        (candidates, false)
    }
}

/// With `local-after-change`, under a setting just stored: of `candidates`, the page's
/// views (its tabs), when it has any: a filter or a zone is what a board, a chart or a
/// timeline shows differently, and a page's tabs are few among its own moves. All of
/// `candidates` when none is a tab.
pub(crate) fn views_first(page: &Page, candidates: Vec<Candidate>) -> Vec<Candidate> {
    let tab = |c: &Candidate| match c.kind {
        Move::Single(i) => page
            .actions
            .get(i)
            .is_some_and(|a| a.kind == ActionKind::Click && a.role == "tab"),
        _ => false,
    };
    prefer(candidates, tab)
}

/// With `local-after-change`, on the page that answered a change just posted: of
/// `candidates`, the clicks on the submit button of a form that posts values the page
/// holds but shows no field for (hidden ones only): the page asks to confirm what was
/// posted (a review's "Confirm change"), and a change reviewed but never confirmed was
/// never made. All of `candidates` when none is.
pub(crate) fn confirmations(page: &Page, candidates: Vec<Candidate>) -> Vec<Candidate> {
    let confirms = |c: &Candidate| match c.kind {
        Move::Single(i) => page.actions.get(i).is_some_and(|a| {
            a.kind == ActionKind::Click
                && confirming_forms(page).any(|f| {
                    f.submit
                        .as_ref()
                        .is_some_and(|s| s.backend_node_id == a.target.backend_node_id)
                })
        }),
        _ => false,
    };
    prefer(candidates, confirms)
}

/// Whether `page` asks to confirm what was posted: a form that posts values it holds
/// but shows no field for, with a submit button (a review's "Confirm change").
pub(crate) fn asks_to_confirm(page: &Page) -> bool {
    confirming_forms(page).any(|f| f.submit.is_some())
}

fn confirming_forms(page: &Page) -> impl Iterator<Item = &Form> {
    page.forms
        .iter()
        .filter(|f| f.fields.is_empty() && posts(f))
}

/// The `candidates` that `keep` holds to, or all of them when none does.
fn prefer(candidates: Vec<Candidate>, keep: impl Fn(&Candidate) -> bool) -> Vec<Candidate> {
    if candidates.iter().any(&keep) {
        candidates.into_iter().filter(keep).collect()
    } else {
        candidates
    }
}

/// Whether `form` sends what it holds to be kept (a POST): a change, not a search.
fn posts(form: &Form) -> bool {
    form.method.as_deref() == Some("post")
}

/// Whether `candidate` is a valid fill of a form that posts, submitted.
fn valid_post(page: &Page, candidate: &Candidate) -> bool {
    match &candidate.kind {
        Move::Form { form, fill } => {
            fill.broken.is_none() && page.forms.get(*form).is_some_and(posts)
        }
        _ => false,
    }
}

/// With `local-after-change`, right after the first form change of the moves it
/// shapes: of `candidates`, the ones that make a second change where the first was
/// made: a valid fill of another form that posts, or a click known to show one
/// (`openers`, action keys: a "Log time" opening its dialog). What one change does to
/// the next (time logged on a task just blocked, counted apart) is what neither shows
/// alone. All of `candidates` when none is.
pub(crate) fn writes_first(
    page: &Page,
    candidates: Vec<Candidate>,
    openers: &HashSet<String>,
) -> Vec<Candidate> {
    let writes = |c: &Candidate| {
        valid_post(page, c)
            || matches!(c.kind, Move::Single(i) if page.actions.get(i).is_some_and(|a| {
                a.kind == ActionKind::Click && openers.contains(&a.key.0)
            }))
    };
    prefer(candidates, writes)
}

/// With `local-after-change`, right after a form change made with the choices `made`
/// (each `form key|value`): of `candidates`, the ones (by [`spread_key`]) never taken
/// right after a change with the most of them (`followed`). A task blocked then
/// commented on is a pair seen; blocked then logged time on is another, the one a time
/// report mishandles, and a comment new only to the task's assignee waits behind it.
/// All of `candidates` when none is new to any.
pub(crate) fn untried_after(
    page: &Page,
    candidates: Vec<Candidate>,
    made: &[String],
    followed: &HashSet<(String, String)>,
) -> Vec<Candidate> {
    let untried = |c: &Candidate| {
        spread_key(page, c).map_or(0, |k| {
            made.iter()
                .filter(|m| !followed.contains(&((*m).clone(), k.clone())))
                .count()
        })
    };
    let most = candidates.iter().map(untried).max().unwrap_or(0);
    prefer(candidates, |c| most > 0 && untried(c) == most)
}

/// The choices a change labelled by [`change_label`] was made with, each as `form
/// key|value`; the form key alone for a form without choices.
pub(crate) fn change_choices(label: &str) -> Vec<String> {
    let Some((form, choices)) = label.rsplit_once('|') else {
        return vec![label.to_string()];
    };
    if choices.is_empty() {
        return vec![form.to_string()];
    }
    choices.split(',').map(|v| format!("{form}|{v}")).collect()
}

/// With `local-after-change`, once two form changes shape the moves: of `candidates`,
/// the links, which show what the changes made together (the task's time report, the
/// project's export), and of those the ones not known to lead to a form that posts
/// (`editors`, action keys: "Edit task" changes again, it shows nothing). All of
/// `candidates` when none is a link.
pub(crate) fn links_first(
    page: &Page,
    candidates: Vec<Candidate>,
    editors: &HashSet<String>,
) -> Vec<Candidate> {
    let link = |c: &Candidate, views: bool| match c.kind {
        Move::Single(i) => page.actions.get(i).is_some_and(|a| {
            a.kind == ActionKind::Click
                && a.href.is_some()
                && !(views && editors.contains(&a.key.0))
        }),
        _ => false,
    };
    let links = prefer(candidates, |c| link(c, false));
    let views = prefer(links, |c| link(c, true));
    deeper_first(page, views, editors)
}

/// With `local-after-change`, after two form changes, or one on a page with nothing to
/// fill and save ([`edits`]): of `candidates`, the links that lead
/// under the path of `page` (a project's "Export" on the project's page, a task's "Time
/// report" on the task's) and are not known to lead to a form that posts (`editors`):
/// what shows the thing just changed, rather than the things next to it (the task's
/// project, another task). All of `candidates` when none is, or on the app's root.
pub(crate) fn deeper_first(
    page: &Page,
    candidates: Vec<Candidate>,
    editors: &HashSet<String>,
) -> Vec<Candidate> {
    let Ok(base) = url::Url::parse(&page.url) else {
        return candidates;
    };
    let path = base.path().trim_end_matches('/');
    if path.is_empty() {
        return candidates;
    }
    let under = format!("{path}/");
    let deeper = |c: &Candidate| match c.kind {
        Move::Single(i) => page.actions.get(i).is_some_and(|a| {
            a.kind == ActionKind::Click
                && !editors.contains(&a.key.0)
                && a.href
                    .as_deref()
                    .and_then(|h| base.join(h).ok())
                    .is_some_and(|u| u.origin() == base.origin() && u.path().starts_with(&under))
        }),
        _ => false,
    };
    prefer(candidates, deeper)
}

/// Whether `page` has a form that posts with fields to fill: an editor, where a link
/// that leads to it changes things rather than shows them.
pub(crate) fn edits(page: &Page) -> bool {
    page.forms.iter().any(|f| posts(f) && !f.fields.is_empty())
}

/// With `follow-reveals`, in what a click showed right after a form change: of
/// `candidates`, the valid fills of a form that posts (the dialog "Log time" opened,
/// filled to be saved: a second change). All of `candidates` when none is.
pub(crate) fn valid_first(page: &Page, candidates: Vec<Candidate>) -> Vec<Candidate> {
    prefer(candidates, |c| valid_post(page, c))
}

/// With `setting-tours`: of `candidates`, the choices of an option never chosen in a
/// select known to store a setting (`setters`, action keys: a display timezone, a
/// list's status filter), and the choices in a select outside any form never chosen at
/// all (not in `probed`), which may store one: each value is a setting of its own to see
/// the app under, and such a select is one move among a page's many (a panel's second
/// filter would wait behind the first). So do the clicks in `toggles`, which show such
/// a select hidden now (a "Filters" toggle: the status filter behind it is no move of
/// the page at all). All of `candidates` when none is.
pub(crate) fn fresh_settings(
    page: &Page,
    candidates: Vec<Candidate>,
    setters: &HashSet<String>,
    probed: &HashSet<String>,
    toggles: &HashSet<String>,
) -> Vec<Candidate> {
    prefer(candidates, |c| {
        fresh_setting(page, c, setters, probed, toggles)
    })
}

/// With `setting-tours`, when the episode has no room left for a tour: `candidates`
/// without the choices [`fresh_settings`] prefers. The next episode's fresh tab forgets
/// a setting, and a value chosen is no longer fresh: a timezone picked three moves
/// before the episode ends would be spent with nothing seen under it. All of
/// `candidates` when nothing else is left.
pub(crate) fn held_settings(
    page: &Page,
    candidates: Vec<Candidate>,
    setters: &HashSet<String>,
    probed: &HashSet<String>,
    toggles: &HashSet<String>,
) -> Vec<Candidate> {
    prefer(candidates, |c| {
        !fresh_setting(page, c, setters, probed, toggles)
    })
}

/// Whether `candidate` chooses an option never chosen in one of `setters`, or any
/// option in a select outside any form that is not in `probed`, or clicks one of
/// `toggles`.
fn fresh_setting(
    page: &Page,
    candidate: &Candidate,
    setters: &HashSet<String>,
    probed: &HashSet<String>,
    toggles: &HashSet<String>,
) -> bool {
    match &candidate.kind {
        Move::Choose { action, .. } => page.actions.get(*action).is_some_and(|a| {
            if setters.contains(&a.key.0) {
                candidate.key != a.key.0
            } else {
                a.form.is_none() && !probed.contains(&a.key.0)
            }
        }),
        Move::Single(i) => page
            .actions
            .get(*i)
            .is_some_and(|a| toggles.contains(&a.key.0)),
        _ => false,
    }
}

/// The kind of page at `url`: its path with numbers generalised, without the query.
pub(crate) fn page_kind(url: &str) -> String {
    let how = UrlNormalization {
        keep_query_values: false,
        drop_query: true,
        generalize_numeric_segments: true,
    };
    normalize_url(url, &how)
}

/// With `setting-tours`: of `candidates`, the links that are navigation (`navigation`
/// of their action key) to another kind of page of the same origin that is `unseen`
/// under a setting in force. All of `candidates` when none is.
pub(crate) fn tour_candidates(
    page: &Page,
    candidates: Vec<Candidate>,
    navigation: impl Fn(&str) -> bool,
    unseen: impl Fn(&str) -> bool,
) -> Vec<Candidate> {
    let origin = |u: &str| url::Url::parse(u).ok().map(|u| u.origin());
    let here = page_kind(&page.url);
    let leads = |c: &Candidate| match c.kind {
        Move::Single(i) => page.actions.get(i).is_some_and(|a| {
            a.kind == ActionKind::Click
                && navigation(&a.key.0)
                && a.href.as_deref().is_some_and(|href| {
                    let kind = page_kind(href);
                    origin(href).is_some()
                        && origin(href) == origin(&page.url)
                        && kind != here
                        && unseen(&kind)
                })
        }),
        _ => false,
    };
    prefer(candidates, leads)
}

/// With `follow-reveals`: of `candidates`, the ones on elements `revealed` by the move
/// just taken (their action keys): a dialog's fields, its form's macros, a panel's
/// controls. All of `candidates` when none is.
pub(crate) fn revealed_candidates(
    page: &Page,
    candidates: Vec<Candidate>,
    revealed: &BTreeSet<String>,
) -> Vec<Candidate> {
    prefer(candidates, |c| on_revealed(page, c, revealed, true))
}

/// Whether `candidate` is on elements `revealed` (their action keys); with `using`, not
/// a click that throws what was opened away (closes it, clears it).
fn on_revealed(
    page: &Page,
    candidate: &Candidate,
    revealed: &BTreeSet<String>,
    using: bool,
) -> bool {
    let shown = |node: i64| {
        page.actions
            .iter()
            .any(|a| a.target.backend_node_id == node && revealed.contains(&a.key.0))
    };
    match &candidate.kind {
        Move::Single(i) => page
            .actions
            .get(*i)
            .is_some_and(|a| revealed.contains(&a.key.0) && !(using && discards(&a.text))),
        Move::Choose { action: i, .. } | Move::Press { action: i, .. } => page
            .actions
            .get(*i)
            .is_some_and(|a| revealed.contains(&a.key.0)),
        Move::Form { form, .. } => page
            .forms
            .get(*form)
            .and_then(|f| f.submit.as_ref())
            .is_some_and(|s| shown(s.backend_node_id)),
    }
}

/// With `fresh-first`: whether a click led to choices never made ([`fresh_choice`]) among
/// `candidates`: anywhere on the page it `navigated` to, or else on what it `revealed`
/// (a filter panel's selects). Such a click is worth taking again while they last.
pub(crate) fn leads_to_fresh(
    page: &Page,
    candidates: &[Candidate],
    navigated: bool,
    revealed: &BTreeSet<String>,
) -> bool {
    candidates
        .iter()
        .any(|c| fresh_choice(page, c) && (navigated || on_revealed(page, c, revealed, false)))
}

/// The `random` baseline: one candidate uniformly at random.
pub(crate) fn random_index<R: Rng + ?Sized>(
    candidates: &[Candidate],
    rng: &mut R,
) -> Option<usize> {
    if candidates.is_empty() {
        None
    } else {
        Some(rng.random_range(0..candidates.len()))
    }
}

/// Tells `filler` which values a performed move entered, so that its choices rotate.
pub(crate) fn note_used(
    page: &Page,
    candidate: &Candidate,
    steps: &[Step],
    filler: &mut dyn FormFiller,
) {
    match &candidate.kind {
        Move::Form { form, fill } => {
            if let Some(form) = page.forms.get(*form) {
                filler.submitted(form, fill);
            }
        }
        Move::Press { form, fill, action } => {
            if let (Some(form), Some(button)) = (page.forms.get(*form), page.actions.get(*action)) {
                filler.submitted(&press_form(form, button), fill);
            }
        }
        Move::Choose { action, value } => {
            if let Some(field) = page.actions.get(*action).and_then(|a| a.field.as_ref()) {
                filler.used(field, &FieldValue::Select(value.clone()));
            }
        }
        Move::Single(i) => {
            let Some(action) = page.actions.get(*i) else {
                return;
            };
            let Some(field) = &action.field else { return };
            let value = match (&action.kind, steps.first()) {
                (ActionKind::Select, Some(Step { value: Some(v), .. })) => {
                    FieldValue::Select(v.clone())
                }
                (ActionKind::Check, Some(_)) => FieldValue::Check(!field.checked),
                _ => return,
            };
            filler.used(field, &value);
        }
    }
}

/// The user actions of a move, in order: one for a single action (after the recorded
/// states of its form's boxes, for a submit button); for a form macro one per field that
/// needs changing (and the recorded state of each box left as it is), then the submit
/// click.
pub(crate) fn plan_move(
    page: &Page,
    candidate: &Candidate,
    semantic_values: bool,
    filler: &mut dyn FormFiller,
    rng: &mut dyn RngCore,
) -> Vec<Planned> {
    match &candidate.kind {
        Move::Single(i) => {
            let action = &page.actions[*i];
            let value = match (&action.kind, &action.field) {
                (ActionKind::Fill, Some(f)) if semantic_values => Some(filler.value_for(f, rng)),
                (ActionKind::Fill, Some(f)) => Some(valid_value(f, rng)),
                _ => None,
            };
            // A click on a form's submit button sends its boxes as they are, perhaps as
            // the app saved them: the trace records their states first.
            let mut out: Vec<Planned> = submitted(page, candidate)
                .map(|form| {
                    form.fields
                        .iter()
                        .filter_map(|f| kept_value(f, &FieldValue::Check(f.checked)))
                        .map(|step| Planned { action: None, step })
                        .collect()
                })
                .unwrap_or_default();
            out.push(single(action, value, rng));
            out
        }
        Move::Choose { action, value } => {
            vec![single(&page.actions[*action], Some(value.clone()), rng)]
        }
        Move::Form { form, fill } => {
            let form = &page.forms[*form];
            let mut out = fill_planned(form, fill);
            if let Some(submit) = submit_planned(page, form) {
                out.push(submit);
            }
            out
        }
        Move::Press { form, fill, action } => {
            let mut out = fill_planned(&page.forms[*form], fill);
            out.push(single(&page.actions[*action], None, rng));
            out
        }
    }
}

/// One action per field of `form` that `fill` changes.
fn fill_planned(form: &Form, fill: &FormFill) -> Vec<Planned> {
    fill.values
        .iter()
        .filter_map(|f| form.fields.get(f.field).map(|field| (field, &f.value)))
        .filter_map(|(field, value)| field_action(field, value))
        .collect()
}

fn step(kind: StepKind, target: &curio_page::Target, value: Option<String>) -> Step {
    Step {
        kind,
        locator: target.locator.clone(),
        selector: target.selector.clone(),
        value,
        href: None,
    }
}

/// How `action` is recorded as a step of a trace.
pub(crate) fn step_of(action: &UserAction) -> Step {
    let (kind, value) = match action {
        UserAction::Click(_) => (StepKind::Click, None),
        UserAction::Fill(_, v, _) => (StepKind::Fill, Some(v.clone())),
        UserAction::Select(_, v) => (StepKind::Select, Some(v.clone())),
        UserAction::Check(_) => (StepKind::Check, None),
    };
    step(kind, action.target(), value)
}

fn single(action: &Action, fill_value: Option<String>, rng: &mut dyn RngCore) -> Planned {
    let target = action.target.clone();
    match action.kind {
        ActionKind::Click => Planned {
            step: Step {
                href: action.href.clone(),
                ..step(StepKind::Click, &target, None)
            },
            action: Some(UserAction::Click(target)),
        },
        ActionKind::Check => {
            // A radio is left ticked; a checkbox the other way round.
            let on = action
                .field
                .as_ref()
                .is_none_or(|f| f.input_type == "radio" || !f.checked);
            Planned {
                step: step(
                    StepKind::Check,
                    &target,
                    Some(checked_value(on).to_string()),
                ),
                action: Some(UserAction::Check(target)),
            }
        }
        ActionKind::Fill => {
            let value = fill_value.unwrap_or_else(|| "hello".to_string());
            let input_type = action
                .field
                .as_ref()
                .map_or_else(|| "text".to_string(), |f| f.input_type.clone());
            Planned {
                step: step(StepKind::Fill, &target, Some(value.clone())),
                action: Some(UserAction::Fill(target, value, input_type)),
            }
        }
        ActionKind::Select => {
            let value = fill_value.unwrap_or_else(|| random_option(action.field.as_ref(), rng));
            Planned {
                step: step(StepKind::Select, &target, Some(value.clone())),
                action: Some(UserAction::Select(target, value)),
            }
        }
    }
}

/// A real option of a select, at random; placeholder options ("Choose...") usually carry
/// an empty value, so real ones are preferred.
fn random_option(field: Option<&Field>, rng: &mut dyn RngCore) -> String {
    let options: Vec<&str> = field
        .iter()
        .flat_map(|f| f.options.iter())
        .filter(|o| !o.disabled)
        .map(|o| o.value.as_str())
        .collect();
    let real: Vec<&str> = options.iter().copied().filter(|v| !v.is_empty()).collect();
    let pool = if real.is_empty() { &options } else { &real };
    if pool.is_empty() {
        String::new()
    } else {
        pool[rng.random_range(0..pool.len())].to_string()
    }
}

/// Whether a select whose options rotate offers one never chosen besides the one it
/// shows: its choice would be a fresh candidate.
pub(crate) fn offers_fresh(field: &Field, filler: &dyn FormFiller) -> bool {
    rotates(field)
        && field.options.iter().any(|o| {
            !o.disabled
                && !o.value.is_empty()
                && o.value != field.value
                && filler.fresh(field, &FieldValue::Select(o.value.clone()))
        })
}

/// An option of a select other than the one it shows (choosing that changes nothing):
/// a never-used one if any, else any; real options (non-empty values) first.
fn other_option(field: &Field, filler: &dyn FormFiller, rng: &mut dyn RngCore) -> Option<String> {
    let others: Vec<&str> = field
        .options
        .iter()
        .filter(|o| !o.disabled && o.value != field.value)
        .map(|o| o.value.as_str())
        .collect();
    let real: Vec<&str> = others.iter().copied().filter(|v| !v.is_empty()).collect();
    let pool = if real.is_empty() { others } else { real };
    let fresh: Vec<&str> = pool
        .iter()
        .copied()
        .filter(|v| filler.fresh(field, &FieldValue::Select((*v).to_string())))
        .collect();
    let pool = if fresh.is_empty() { pool } else { fresh };
    if pool.is_empty() {
        return None;
    }
    Some(pool[rng.random_range(0..pool.len())].to_string())
}

/// The action that gives `field` the value `value` (a radio group's radio by its
/// value); `None` when it already has it.
fn field_action(field: &Field, value: &FieldValue) -> Option<Planned> {
    let Some(action) = action_for(field, value) else {
        return kept_value(field, value).map(|step| Planned { action: None, step });
    };
    Some(Planned {
        step: with_checked(step_of(&action), value),
        action: Some(action),
    })
}

/// The step of a field that `value` leaves as the page shows it (`action_for` has
/// nothing to do): a checkbox with its state, a text the page filled in (the seats a
/// team has now, a task's title) with that text. So a trace sets every value of the
/// fill, whatever the app shows when it is replayed.
pub(crate) fn kept_value(field: &Field, value: &FieldValue) -> Option<Step> {
    match value {
        FieldValue::Check(on) if field.input_type == "checkbox" && *on == field.checked => {
            Some(step(
                StepKind::Check,
                &field.target,
                Some(checked_value(*on).to_string()),
            ))
        }
        FieldValue::Text(text)
            if !text.is_empty()
                && *text == field.value
                && !field.readonly
                && field.input_type != "hidden" =>
        {
            Some(step(StepKind::Fill, &field.target, Some(text.clone())))
        }
        _ => None,
    }
}

/// `step` with the state a checkbox or radio is left in (`on`, `off`) as its value, when
/// `value` ticks or clears one: a replay then sets that state, whatever the app shows
/// at the time (preferences saved differently since), rather than toggling.
pub(crate) fn with_checked(step: Step, value: &FieldValue) -> Step {
    let on = match value {
        FieldValue::Check(on) => *on,
        FieldValue::Select(_) if step.kind == StepKind::Check => true,
        _ => return step,
    };
    Step {
        value: Some(checked_value(on).to_string()),
        ..step
    }
}

/// The value of a `Check` step that leaves its element ticked (`on`) or not.
pub(crate) fn checked_value(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

fn submit_planned(page: &Page, form: &Form) -> Option<Planned> {
    let submit = form.submit.as_ref()?;
    // Prefer the page's action for the button: its target carries the readable locator.
    let target = page
        .actions
        .iter()
        .find(|a| a.target.backend_node_id == submit.backend_node_id)
        .map_or_else(|| submit.clone(), |a| a.target.clone());
    Some(Planned {
        step: step(StepKind::Click, &target, None),
        action: Some(UserAction::Click(target)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input_values::tests::field;

    /// A fill that keeps what the page shows still writes it into the trace: the seats
    /// the team had when the plan was changed, which a fresh app shows otherwise.
    #[test]
    fn values_a_fill_leaves_as_the_page_shows_them_are_steps_of_the_trace() {
        let mut seats = field("number");
        seats.value = "8".into();
        let kept = field_action(&seats, &FieldValue::Text("8".into())).expect("a step");
        assert!(kept.action.is_none());
        assert_eq!(kept.step.kind, StepKind::Fill);
        assert_eq!(kept.step.value.as_deref(), Some("8"));
        let typed = field_action(&seats, &FieldValue::Text("12".into())).expect("a step");
        assert!(typed.action.is_some());
        // Nothing typed, nothing to keep.
        seats.value.clear();
        assert!(field_action(&seats, &FieldValue::Text(String::new())).is_none());
        let mut ticked = field("checkbox");
        ticked.checked = true;
        let kept = field_action(&ticked, &FieldValue::Check(true)).expect("a step");
        assert_eq!(kept.step.value.as_deref(), Some("on"));
    }
}
