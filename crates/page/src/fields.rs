//! Form controls: what kind of operation each one takes and everything its markup says
//! about the values it accepts.

use crate::actions::implicit_role;
use crate::context::Ctx;
use crate::labels::{field_labels, nearest_text};
use crate::locator::target;
use crate::model::{ActionKind, Field, Label, LabelSource, SelectOption};
use crate::text::{clean_label, collapse};

/// Every `type` HTML knows; anything else behaves as `text`.
const INPUT_TYPES: [&str; 22] = [
    "hidden",
    "text",
    "search",
    "tel",
    "url",
    "email",
    "password",
    "date",
    "month",
    "week",
    "time",
    "datetime-local",
    "number",
    "range",
    "color",
    "checkbox",
    "radio",
    "file",
    "submit",
    "image",
    "reset",
    "button",
];

/// The lowercased `type` of an input with HTML's defaulting (missing or unknown: `text`).
pub(crate) fn input_type(ctx: &Ctx<'_>, n: usize) -> String {
    let t = ctx
        .doc
        .attr(n, "type")
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default();
    if INPUT_TYPES.contains(&t.as_str()) {
        t
    } else {
        "text".to_string()
    }
}

/// The operation a native control takes, or `None` for non-controls and controls a user
/// cannot operate by clicking or typing (`hidden`, `file`).
pub(crate) fn native_kind(ctx: &Ctx<'_>, n: usize) -> Option<ActionKind> {
    match ctx.doc.tag(n) {
        "input" => match input_type(ctx, n).as_str() {
            "hidden" | "file" => None,
            "submit" | "button" | "reset" | "image" => Some(ActionKind::Click),
            "checkbox" | "radio" => Some(ActionKind::Check),
            _ => Some(ActionKind::Fill),
        },
        "textarea" => Some(ActionKind::Fill),
        "select" => Some(ActionKind::Select),
        "button" => Some(ActionKind::Click),
        _ => None,
    }
}

/// A control that carries a value a form submits: text-likes, checkboxes, radios,
/// selects and textareas (not buttons).
pub(crate) fn is_field(ctx: &Ctx<'_>, n: usize) -> bool {
    matches!(
        native_kind(ctx, n),
        Some(ActionKind::Fill | ActionKind::Check | ActionKind::Select)
    )
}

/// A `contenteditable` element that starts an editing host (not one nested in another).
pub(crate) fn is_editing_host(ctx: &Ctx<'_>, n: usize) -> bool {
    let editable = |x: usize| {
        ctx.doc.attr(x, "contenteditable").is_some_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "true" | "plaintext-only"
            )
        })
    };
    editable(n) && !ctx.doc.ancestors(n).any(editable)
}

fn is_check(ctx: &Ctx<'_>, n: usize) -> bool {
    ctx.doc.tag(n) == "input" && matches!(input_type(ctx, n).as_str(), "checkbox" | "radio")
}

/// The field for control (or editing host) `n`.
pub(crate) fn build_field(ctx: &Ctx<'_>, n: usize) -> Field {
    let doc = &ctx.doc;
    let tag = doc.tag(n).to_string();
    let input_type = match tag.as_str() {
        "input" => input_type(ctx, n),
        "textarea" => "textarea".to_string(),
        "select" if doc.has_attr(n, "multiple") => "select-multiple".to_string(),
        "select" => "select-one".to_string(),
        _ => "contenteditable".to_string(),
    };
    let labels = field_labels(ctx, n, is_check(ctx, n));
    // A text input's suggestions (`list` naming a `<datalist>`) are options too: values
    // the app knows, which it may insist on.
    let options = if tag == "select" {
        select_options(ctx, n)
    } else if tag == "input"
        && let Some(list) = doc
            .attr_nonblank(n, "list")
            .and_then(|id| doc.element_by_id(id.trim()))
            .filter(|&l| doc.tag(l) == "datalist")
    {
        select_options(ctx, list)
            .into_iter()
            .map(|o| SelectOption {
                selected: false,
                ..o
            })
            .collect()
    } else {
        Vec::new()
    };
    let value = match tag.as_str() {
        "input" => doc
            .input_value(n)
            .or_else(|| doc.attr(n, "value"))
            .unwrap_or("")
            .to_string(),
        "textarea" => doc
            .text_value(n)
            .map(str::to_string)
            .unwrap_or_else(|| doc.children(n).iter().map(|&c| doc.node_value(c)).collect()),
        "select" => options
            .iter()
            .filter(|o| o.selected)
            .map(|o| o.value.as_str())
            .collect::<Vec<_>>()
            .join(","),
        _ => ctx.visible_text(n),
    };
    let role = doc
        .attr_nonblank(n, "role")
        .and_then(|r| r.split_ascii_whitespace().next())
        .map(str::to_ascii_lowercase)
        .unwrap_or_else(|| implicit_role(ctx, n));
    let name = labels.first().map(|l| l.text.clone()).unwrap_or_default();
    let text_attr = |a: &str| doc.attr(n, a).map(str::to_string);
    let number_attr = |a: &str| doc.attr(n, a).and_then(|v| v.trim().parse::<u32>().ok());
    Field {
        target: target(ctx, n, &role, &name),
        tag,
        input_type,
        name: text_attr("name"),
        id: text_attr("id"),
        labels,
        placeholder: text_attr("placeholder"),
        autocomplete: text_attr("autocomplete"),
        required: doc.has_attr(n, "required")
            || doc
                .attr(n, "aria-required")
                .is_some_and(|v| v.trim() == "true"),
        readonly: doc.has_attr(n, "readonly")
            || doc
                .attr(n, "aria-readonly")
                .is_some_and(|v| v.trim() == "true"),
        min: text_attr("min"),
        max: text_attr("max"),
        step: text_attr("step"),
        minlength: number_attr("minlength"),
        maxlength: number_attr("maxlength"),
        pattern: text_attr("pattern"),
        inputmode: text_attr("inputmode"),
        options,
        value,
        checked: doc.input_checked(n),
    }
}

fn select_options(ctx: &Ctx<'_>, select: usize) -> Vec<SelectOption> {
    let doc = &ctx.doc;
    doc.subtree(select)
        .into_iter()
        .filter(|&o| doc.tag(o) == "option")
        .map(|o| {
            let text = doc
                .attr_nonblank(o, "label")
                .map(collapse)
                .unwrap_or_else(|| ctx.label_text(o));
            let value = doc
                .attr(o, "value")
                .map(str::to_string)
                .unwrap_or_else(|| text.clone());
            let disabled = doc.has_attr(o, "disabled")
                || doc
                    .ancestors(o)
                    .take_while(|&a| a != select)
                    .any(|a| doc.tag(a) == "optgroup" && doc.has_attr(a, "disabled"));
            SelectOption {
                value,
                text,
                selected: doc.option_selected(o),
                disabled,
            }
        })
        .collect()
}

/// The options of a radio group: one per radio, named by the radio's own label (or the
/// text beside it).
pub(crate) fn radio_options(ctx: &Ctx<'_>, radios: &[usize]) -> Vec<SelectOption> {
    let doc = &ctx.doc;
    radios
        .iter()
        .map(|&r| {
            let value = doc
                .input_value(r)
                .or_else(|| doc.attr(r, "value"))
                .unwrap_or("on")
                .to_string();
            let own_label = ctx.control_labels.get(&r).and_then(|labels| {
                labels
                    .iter()
                    .map(|&(l, _)| clean_label(&ctx.label_text(l)))
                    .find(|t| !t.is_empty())
            });
            let text = own_label
                .or_else(|| doc.attr_nonblank(r, "aria-label").map(clean_label))
                .or_else(|| ctx.labelledby_text(r).map(|t| clean_label(&t)))
                .or_else(|| nearest_text(ctx, r, true).map(|t| clean_label(&t)))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| value.clone());
            SelectOption {
                value,
                text,
                selected: doc.input_checked(r),
                disabled: !ctx.enabled(r),
            }
        })
        .collect()
}

/// One field for a whole radio group, placed at its first radio: the group's caption as
/// labels, the checked radio's value, every radio as an option.
pub(crate) fn radio_group_field(ctx: &Ctx<'_>, radios: &[usize]) -> Option<Field> {
    let &first = radios.first()?;
    let mut field = build_field(ctx, first);
    let options = radio_options(ctx, radios);
    field.labels = group_labels(ctx, radios);
    field.value = options
        .iter()
        .find(|o| o.selected)
        .map(|o| o.value.clone())
        .unwrap_or_default();
    field.checked = options.iter().any(|o| o.selected);
    field.required = radios.iter().any(|&r| ctx.doc.has_attr(r, "required"));
    field.options = options;
    Some(field)
}

/// A radio group is captioned by a `role=radiogroup`/`fieldset` around it or by the text
/// before its first radio; each radio's own label names an option, not the group.
fn group_labels(ctx: &Ctx<'_>, radios: &[usize]) -> Vec<Label> {
    let doc = &ctx.doc;
    let mut labels = Vec::new();
    let Some(&first) = radios.first() else {
        return labels;
    };
    let container = doc.ancestors(first).find(|&a| {
        (doc.tag(a) == "fieldset"
            || doc
                .attr(a, "role")
                .is_some_and(|r| matches!(r.trim(), "radiogroup" | "group")))
            && radios.iter().all(|&r| doc.is_ancestor(a, r))
    });
    if let Some(c) = container {
        if let Some(v) = doc.attr_nonblank(c, "aria-label") {
            labels.push(Label {
                text: clean_label(v),
                source: LabelSource::AriaLabel,
            });
        }
        if let Some(v) = ctx.labelledby_text(c) {
            labels.push(Label {
                text: clean_label(&v),
                source: LabelSource::AriaLabelledBy,
            });
        }
        if let Some(legend) = doc
            .children(c)
            .iter()
            .copied()
            .find(|&l| doc.tag(l) == "legend")
        {
            let text = clean_label(&ctx.label_text(legend));
            if !text.is_empty() {
                // The legend is the caption right above the group.
                labels.push(Label {
                    text,
                    source: LabelSource::NearestText,
                });
            }
        }
    }
    let caption = labels
        .is_empty()
        .then(|| nearest_text(ctx, first, false))
        .flatten()
        .map(|text| clean_label(&text))
        .filter(|text| !text.is_empty());
    if let Some(text) = caption {
        labels.push(Label {
            text,
            source: LabelSource::NearestText,
        });
    }
    labels.retain(|l| !l.text.is_empty());
    labels
}
