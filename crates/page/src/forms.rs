//! Forms: every `<form>` that has something to operate, plus implicit forms, the
//! fields-and-button groups that single-page apps build without a `<form>` around them.

use std::collections::HashMap;

use crate::context::Ctx;
use crate::fields::{build_field, input_type, is_field, radio_group_field};
use crate::keys::{dedupe, is_volatile_id, structural_path};
use crate::labels::accessible_name;
use crate::locator::target;
use crate::model::{ElementKey, Field, Form, FormId, Target};
use crate::text::{MAX_TEXT_CHARS, truncate};

/// Words on a button that submits what is around it.
const SUBMIT_WORDS: [&str; 32] = [
    "submit",
    "send",
    "save",
    "search",
    "sign in",
    "signin",
    "log in",
    "login",
    "sign up",
    "signup",
    "register",
    "continue",
    "next",
    "book",
    "buy",
    "pay",
    "order",
    "apply",
    "go",
    "ok",
    "create",
    "add",
    "update",
    "confirm",
    "subscribe",
    "checkout",
    "check out",
    "find",
    "done",
    "proceed",
    "join",
    "reserve",
];

/// How far above a form its title may sit, in CSS pixels.
const TITLE_RANGE: f64 = 300.0;

/// Which form each element belongs to, by `(frame, node)`.
#[derive(Default)]
pub(crate) struct Membership {
    /// Kept `<form>` elements.
    forms: HashMap<(usize, usize), FormId>,
    /// Fields and submit buttons of implicit forms.
    implicit: HashMap<(usize, usize), FormId>,
}

impl Membership {
    /// The form element `n` belongs to: its `form=` owner or `<form>` ancestor, or the
    /// implicit form it was grouped into.
    pub(crate) fn form_of(&self, ctx: &Ctx<'_>, n: usize) -> Option<FormId> {
        if let Some(&id) = self.implicit.get(&(ctx.frame, n)) {
            return Some(id);
        }
        let owner = form_owner(ctx, n)?;
        self.forms.get(&(ctx.frame, owner)).copied()
    }
}

/// The `<form>` that owns element `n`: the one its `form` attribute names (and then only
/// that one, as in HTML), else the nearest `<form>` ancestor.
pub(crate) fn form_owner(ctx: &Ctx<'_>, n: usize) -> Option<usize> {
    let doc = &ctx.doc;
    if let Some(id) = doc.attr(n, "form") {
        return doc.element_by_id(id).filter(|&f| doc.tag(f) == "form");
    }
    doc.ancestors(n).find(|&a| doc.tag(a) == "form")
}

/// All forms of the admitted documents, ids in order, keys unique.
pub(crate) fn build_forms(ctxs: &[Ctx<'_>]) -> (Vec<Form>, Membership) {
    let mut forms: Vec<Form> = Vec::new();
    let mut membership = Membership::default();
    for ctx in ctxs {
        explicit_forms(ctx, &mut forms, &mut membership);
        implicit_forms(ctx, &mut forms, &mut membership);
    }
    let mut keys: Vec<String> = forms.iter().map(|f| f.key.0.clone()).collect();
    dedupe(&mut keys);
    for (form, key) in forms.iter_mut().zip(keys) {
        form.key = ElementKey(key);
    }
    (forms, membership)
}

fn explicit_forms(ctx: &Ctx<'_>, forms: &mut Vec<Form>, membership: &mut Membership) {
    let doc = &ctx.doc;
    let mut owned: HashMap<usize, Vec<usize>> = HashMap::new();
    for n in 0..doc.len() {
        if !matches!(doc.tag(n), "input" | "select" | "textarea" | "button") {
            continue;
        }
        if let Some(f) = form_owner(ctx, n) {
            owned.entry(f).or_default().push(n);
        }
    }
    for f in 0..doc.len() {
        if doc.tag(f) != "form" {
            continue;
        }
        let controls = owned.get(&f).map(Vec::as_slice).unwrap_or(&[]);
        let usable: Vec<usize> = controls
            .iter()
            .copied()
            .filter(|&c| ctx.visible(c) && ctx.enabled(c))
            .collect();
        let fields = collect_fields(ctx, &usable, controls);
        let submit = usable
            .iter()
            .copied()
            .find(|&c| is_submit_button(ctx, c))
            .or_else(|| usable.iter().copied().find(|&c| is_submit_like(ctx, c)))
            .or_else(|| {
                // `[role=button]` widgets are not form-associated; look inside the form.
                doc.subtree(f).into_iter().find(|&c| {
                    ctx.visible(c)
                        && ctx.enabled(c)
                        && !controls.contains(&c)
                        && is_submit_like(ctx, c)
                })
            });
        if fields.is_empty() && submit.is_none() {
            continue;
        }
        let id = FormId(forms.len());
        membership.forms.insert((ctx.frame, f), id);
        let role_name = doc
            .attr_nonblank(f, "aria-label")
            .map(str::to_string)
            .or_else(|| doc.attr_nonblank(f, "name").map(str::to_string))
            .unwrap_or_default();
        let action = doc
            .attr(f, "action")
            .map(|a| ctx.resolve(a))
            .or_else(|| Some(ctx.doc.url().to_string()).filter(|u| !u.is_empty()));
        let method = doc
            .attr(f, "method")
            .map(|m| m.trim().to_ascii_lowercase())
            .filter(|m| matches!(m.as_str(), "get" | "post" | "dialog"))
            .unwrap_or_else(|| "get".to_string());
        forms.push(Form {
            id,
            key: ElementKey(form_key(ctx, f)),
            target: Some(target(ctx, f, "form", &role_name)),
            name: doc.attr(f, "name").map(str::to_string),
            html_id: doc.attr(f, "id").map(str::to_string),
            action,
            method: Some(method),
            title: title(ctx, f, &usable),
            fields,
            submit: submit.map(|s| submit_target(ctx, s)),
        });
    }
}

fn implicit_forms(ctx: &Ctx<'_>, forms: &mut Vec<Form>, membership: &mut Membership) {
    let doc = &ctx.doc;
    let len = doc.len();
    // The first formless submit-like button in each subtree; children follow parents, so a
    // backward pass has seen every subtree before its root.
    let mut first_button: Vec<Option<usize>> = vec![None; len];
    for n in (0..len).rev() {
        let own = (ctx.visible(n)
            && ctx.enabled(n)
            && form_owner(ctx, n).is_none()
            && is_submit_like(ctx, n))
        .then_some(n);
        let below = doc
            .children(n)
            .iter()
            .filter_map(|&c| first_button[c])
            .min();
        first_button[n] = own.or(below);
    }

    let mut groups: Vec<(usize, usize, Vec<usize>)> = Vec::new(); // (container, button, fields)
    for n in 0..len {
        if !is_field(ctx, n) || !ctx.visible(n) || !ctx.enabled(n) || form_owner(ctx, n).is_some() {
            continue;
        }
        if doc.ancestors(n).any(|a| doc.tag(a) == "form") {
            // `form=` pointing nowhere: formless by HTML, but visibly part of a form.
            continue;
        }
        let Some((container, button)) = doc
            .ancestors(n)
            .find_map(|a| first_button[a].map(|b| (a, b)))
        else {
            continue;
        };
        match groups.iter_mut().find(|g| g.0 == container) {
            Some(g) => g.2.push(n),
            None => groups.push((container, button, vec![n])),
        }
    }
    // A button shared by nested containers belongs to the innermost one; the outer
    // fields only reached it by climbing past their own surroundings.
    let kept: Vec<&(usize, usize, Vec<usize>)> = groups
        .iter()
        .filter(|g| {
            !groups
                .iter()
                .any(|o| o.1 == g.1 && o.0 != g.0 && doc.is_ancestor(g.0, o.0))
        })
        .collect();
    for (container, button, members) in kept {
        let id = FormId(forms.len());
        for &m in members {
            membership.implicit.insert((ctx.frame, m), id);
        }
        membership.implicit.insert((ctx.frame, *button), id);
        let fields = collect_fields(ctx, members, members);
        forms.push(Form {
            id,
            key: ElementKey(format!(
                "form|implicit|{}",
                structural_path(ctx, *container)
            )),
            target: None,
            name: None,
            html_id: None,
            action: None,
            method: None,
            title: title(ctx, *container, members),
            fields,
            submit: Some(submit_target(ctx, *button)),
        });
    }
}

/// Fields in document order, one per radio group (`group_scope` holds the radios that
/// can share a group with the usable ones).
fn collect_fields(ctx: &Ctx<'_>, usable: &[usize], group_scope: &[usize]) -> Vec<Field> {
    let mut fields = Vec::new();
    let mut done_groups: Vec<&str> = Vec::new();
    for &c in usable {
        if !is_field(ctx, c) {
            continue;
        }
        let radio_name = (ctx.doc.tag(c) == "input" && input_type(ctx, c) == "radio")
            .then(|| ctx.doc.attr(c, "name"))
            .flatten()
            .filter(|name| !name.is_empty());
        match radio_name {
            Some(name) => {
                if done_groups.contains(&name) {
                    continue;
                }
                done_groups.push(name);
                let radios: Vec<usize> = group_scope
                    .iter()
                    .copied()
                    .filter(|&r| {
                        ctx.doc.tag(r) == "input"
                            && input_type(ctx, r) == "radio"
                            && ctx.doc.attr(r, "name") == Some(name)
                            && ctx.visible(r)
                    })
                    .collect();
                fields.extend(radio_group_field(ctx, &radios));
            }
            None => fields.push(build_field(ctx, c)),
        }
    }
    fields
}

/// The visible radios sharing `n`'s group: same name, same form owner, same document.
pub(crate) fn radio_group(ctx: &Ctx<'_>, n: usize) -> Vec<usize> {
    let Some(name) = ctx.doc.attr(n, "name").filter(|v| !v.is_empty()) else {
        return vec![n];
    };
    ctx.radio_groups
        .get(&(form_owner(ctx, n), name))
        .cloned()
        .unwrap_or_else(|| vec![n])
}

/// A button that submits its form natively.
fn is_submit_button(ctx: &Ctx<'_>, n: usize) -> bool {
    let doc = &ctx.doc;
    match doc.tag(n) {
        "button" => {
            let t = doc.attr(n, "type").map(|t| t.trim().to_ascii_lowercase());
            !matches!(t.as_deref(), Some("button" | "reset" | "menu"))
        }
        "input" => matches!(input_type(ctx, n).as_str(), "submit" | "image"),
        _ => false,
    }
}

/// A button whose words say it submits, or a submit button.
fn is_submit_like(ctx: &Ctx<'_>, n: usize) -> bool {
    let doc = &ctx.doc;
    let buttonish = match doc.tag(n) {
        "button" => doc
            .attr(n, "type")
            .is_none_or(|t| !t.trim().eq_ignore_ascii_case("reset")),
        "input" => matches!(input_type(ctx, n).as_str(), "submit" | "button" | "image"),
        _ => false,
    } || doc
        .attr(n, "role")
        .is_some_and(|r| r.split_ascii_whitespace().next() == Some("button"));
    if !buttonish {
        return false;
    }
    if doc.tag(n) == "input" && matches!(input_type(ctx, n).as_str(), "submit" | "image") {
        return true;
    }
    has_submit_word(&accessible_name(ctx, n, None))
}

pub(crate) fn has_submit_word(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 6 {
        return false;
    }
    let joined = words.join(" ");
    SUBMIT_WORDS.iter().any(|w| {
        joined == *w
            || joined.starts_with(&format!("{w} "))
            || joined.ends_with(&format!(" {w}"))
            || joined.contains(&format!(" {w} "))
    })
}

fn submit_target(ctx: &Ctx<'_>, n: usize) -> Target {
    let role = crate::actions::role_of(ctx, n);
    target(ctx, n, &role, &accessible_name(ctx, n, None))
}

fn form_key(ctx: &Ctx<'_>, f: usize) -> String {
    let doc = &ctx.doc;
    let ident = doc
        .attr_nonblank(f, "id")
        .filter(|id| !is_volatile_id(id))
        .map(|id| format!("#{id}"))
        .or_else(|| doc.attr_nonblank(f, "name").map(|n| format!("@{n}")))
        .unwrap_or_default();
    format!("form|form|{ident}|{}", structural_path(ctx, f))
}

/// A heading inside the form, the legend around its first field, or the nearest heading
/// just above it.
fn title(ctx: &Ctx<'_>, container: usize, fields: &[usize]) -> Option<String> {
    let doc = &ctx.doc;
    let text_of =
        |n: usize| Some(truncate(&ctx.visible_text(n), MAX_TEXT_CHARS)).filter(|t| !t.is_empty());

    // Descendants directly follow their ancestor in document order, so the first heading
    // after the container is inside it if any is.
    let after = ctx.headings.partition_point(|&h| h <= container);
    if let Some(&h) = ctx
        .headings
        .get(after)
        .filter(|&&h| doc.is_ancestor(container, h))
    {
        return text_of(h);
    }
    if let Some(&first) = fields.first() {
        let legend = doc
            .ancestors(first)
            .take_while(|&a| a != container)
            .find(|&a| doc.tag(a) == "fieldset")
            .and_then(|fs| {
                doc.children(fs)
                    .iter()
                    .copied()
                    .find(|&l| doc.tag(l) == "legend")
            })
            .and_then(|l| {
                Some(truncate(&ctx.label_text(l), MAX_TEXT_CHARS)).filter(|t| !t.is_empty())
            });
        if legend.is_some() {
            return legend;
        }
    }
    let before = ctx.headings.partition_point(|&h| h < container);
    let &h = ctx.headings[..before]
        .iter()
        .rev()
        .find(|&&h| !doc.is_ancestor(h, container))?;
    // A heading with another form in between titles that form.
    let first_form = ctx.form_elements.partition_point(|&f| f <= h);
    let other_form_between = ctx.form_elements[first_form..]
        .iter()
        .take_while(|&&f| f < container)
        .any(|&f| !doc.is_ancestor(f, container));
    if other_form_between {
        return None;
    }
    let gap = ctx.rect(container).y - (ctx.rect(h).y + ctx.rect(h).height);
    if (-4.0..=TITLE_RANGE).contains(&gap) {
        text_of(h)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submit_words() {
        for t in [
            "Search",
            "Sign in",
            "Create account",
            "Log in now",
            "Add to cart",
            "OK",
            "Save changes",
        ] {
            assert!(has_submit_word(t), "{t}");
        }
        for t in [
            "Cancel",
            "Delete",
            "Signature",
            "Goodbye",
            "",
            "Tell me more about the next big thing in town today",
        ] {
            assert!(!has_submit_word(t), "{t}");
        }
    }
}
