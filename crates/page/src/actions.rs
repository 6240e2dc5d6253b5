//! What a user can do: the visible, enabled, operable elements and how to operate them.
//!
//! Native controls, links and ARIA widgets are certain. `isClickable` (event listeners,
//! labels) and `cursor: pointer` are only hints: they also mark the text inside a link or
//! the span inside a button, and a framework's root container listening for every click.
//! So a hinted element counts only where it is the innermost clickable thing and not
//! inside a certain one.

use std::collections::HashMap;

use crate::context::Ctx;
use crate::fields::{build_field, input_type, is_editing_host, native_kind, radio_options};
use crate::forms::{Membership, radio_group};
use crate::keys::element_key;
use crate::labels::accessible_name;
use crate::locator::target;
use crate::model::{Action, ActionKind, ElementKey, SelectOption};

/// Roles whose elements are operated by clicking.
const CLICK_ROLES: [&str; 11] = [
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "treeitem",
];

/// A hinted element covering this much of the document is a container, not a control.
const CONTAINER_AREA_SHARE: f64 = 0.9;

pub(crate) fn is_widget_role(role: &str) -> bool {
    role.split_ascii_whitespace()
        .next()
        .is_some_and(|r| CLICK_ROLES.contains(&r.to_ascii_lowercase().as_str()))
}

/// The explicit role (first token of `role`) or the one implied by tag and type.
pub(crate) fn role_of(ctx: &Ctx<'_>, n: usize) -> String {
    ctx.doc
        .attr(n, "role")
        .and_then(|r| r.split_ascii_whitespace().next())
        .map(str::to_ascii_lowercase)
        .unwrap_or_else(|| implicit_role(ctx, n))
}

/// The ARIA role HTML gives an element without a `role` attribute.
pub(crate) fn implicit_role(ctx: &Ctx<'_>, n: usize) -> String {
    let doc = &ctx.doc;
    let role = match doc.tag(n) {
        "a" | "area" if doc.has_attr(n, "href") => "link",
        "button" | "summary" => "button",
        "input" => match input_type(ctx, n).as_str() {
            "button" | "submit" | "reset" | "image" => "button",
            "checkbox" => "checkbox",
            "radio" => "radio",
            "number" => "spinbutton",
            "range" => "slider",
            "search" if !doc.has_attr(n, "list") => "searchbox",
            "hidden" | "file" => "generic",
            _ if doc.has_attr(n, "list") => "combobox",
            _ => "textbox",
        },
        "textarea" => "textbox",
        "select" => {
            let size = doc
                .attr(n, "size")
                .and_then(|s| s.trim().parse::<u32>().ok())
                .unwrap_or(0);
            if doc.has_attr(n, "multiple") || size > 1 {
                "listbox"
            } else {
                "combobox"
            }
        }
        "img" if doc.attr(n, "alt").is_some_and(str::is_empty) => "presentation",
        "img" => "img",
        "option" => "option",
        "li" => "listitem",
        "ul" | "ol" | "menu" => "list",
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => "heading",
        "nav" => "navigation",
        "main" => "main",
        "table" => "table",
        "tr" => "row",
        "td" => "cell",
        "th" => "columnheader",
        "form" => "form",
        "dialog" => "dialog",
        "details" | "fieldset" => "group",
        _ if is_editing_host(ctx, n) => "textbox",
        _ => "generic",
    };
    role.to_string()
}

#[derive(Clone, Copy, PartialEq)]
enum Candidate {
    None,
    /// Operable by what it is.
    Certain(ActionKind),
    /// Only `isClickable` or `cursor: pointer` says so.
    Hinted,
}

fn candidate(ctx: &Ctx<'_>, n: usize) -> Candidate {
    let doc = &ctx.doc;
    let tag = doc.tag(n);
    if tag.is_empty() || !ctx.visible(n) || !ctx.enabled(n) {
        return Candidate::None;
    }
    if matches!(tag, "input" | "textarea" | "select" | "button") {
        return native_kind(ctx, n).map_or(Candidate::None, Candidate::Certain);
    }
    if matches!(tag, "option" | "optgroup" | "html" | "body") {
        return Candidate::None;
    }
    if (tag == "a" && doc.has_attr(n, "href")) || tag == "summary" {
        return Candidate::Certain(ActionKind::Click);
    }
    if is_editing_host(ctx, n) {
        return Candidate::Certain(ActionKind::Fill);
    }
    if doc.attr(n, "role").is_some_and(is_widget_role) || doc.has_attr(n, "onclick") {
        return Candidate::Certain(ActionKind::Click);
    }
    let pointer_starts_here = doc.cursor(n) == Some("pointer")
        && doc
            .parent(n)
            .is_none_or(|p| doc.cursor(p) != Some("pointer"));
    if doc.is_clickable(n) || pointer_starts_here {
        return Candidate::Hinted;
    }
    Candidate::None
}

/// The operable elements of one document, in document order, with their kinds.
pub(crate) fn operable(ctx: &Ctx<'_>) -> Vec<(usize, ActionKind)> {
    let doc = &ctx.doc;
    let len = doc.len();
    let kinds: Vec<Candidate> = (0..len).map(|n| candidate(ctx, n)).collect();

    let mut contains_candidate = vec![false; len];
    for n in (0..len).rev() {
        let counts = kinds[n] != Candidate::None || contains_candidate[n];
        match doc.parent(n) {
            Some(p) if counts => contains_candidate[p] = true,
            _ => {}
        }
    }
    let mut inside_certain = vec![false; len];
    for n in 0..len {
        if let Some(p) = doc.parent(n) {
            inside_certain[n] = inside_certain[p] || matches!(kinds[p], Candidate::Certain(_));
        }
    }
    // The document's own layout box spans the whole scrollable page, not just its content.
    let doc_area = doc.rect(0).map_or(0.0, |r| r.width * r.height);

    let mut kept: Vec<(usize, ActionKind)> = Vec::new();
    let mut is_kept = vec![false; len];
    for n in 0..len {
        let kind = match kinds[n] {
            Candidate::None => continue,
            Candidate::Certain(kind) => kind,
            Candidate::Hinted => {
                let r = ctx.rect(n);
                let huge = doc_area > 0.0 && r.width * r.height >= CONTAINER_AREA_SHARE * doc_area;
                if contains_candidate[n] || inside_certain[n] || huge {
                    continue;
                }
                ActionKind::Click
            }
        };
        kept.push((n, kind));
        is_kept[n] = true;
    }
    // Clicking a label operates its control; when that control is itself an action the
    // label is a duplicate.
    kept.retain(|&(n, _)| {
        doc.tag(n) != "label"
            || ctx
                .label_control
                .get(&n)
                .is_none_or(|&c| !is_kept.get(c).copied().unwrap_or(false))
    });
    kept
}

/// The actions of one document (keys not yet made unique across the page).
pub(crate) fn build_actions(ctx: &Ctx<'_>, membership: &Membership) -> Vec<Action> {
    let doc = &ctx.doc;
    // Every radio of a group carries the group's options; work them out once per group.
    let mut group_options: HashMap<usize, Vec<SelectOption>> = HashMap::new();
    ctx.operable
        .iter()
        .map(|&(n, kind)| {
            let tag = doc.tag(n).to_string();
            let role = role_of(ctx, n);
            let field = (kind != ActionKind::Click).then(|| {
                let mut field = build_field(ctx, n);
                if tag == "input" && input_type(ctx, n) == "radio" {
                    let group = radio_group(ctx, n);
                    let first = group.first().copied().unwrap_or(n);
                    field.options = group_options
                        .entry(first)
                        .or_insert_with(|| radio_options(ctx, &group))
                        .clone();
                }
                field
            });
            let text = accessible_name(ctx, n, field.as_ref().map(|f| f.labels.as_slice()));
            let href = matches!(tag.as_str(), "a" | "area")
                .then(|| doc.attr(n, "href"))
                .flatten()
                .map(|h| ctx.resolve(h));
            Action {
                key: ElementKey(element_key(ctx, n, &role, &text)),
                kind,
                target: target(ctx, n, &role, &text),
                form: membership.form_of(ctx, n),
                role,
                tag,
                text,
                href,
                field,
            }
        })
        .collect()
}
