//! Tests from Form Submission States, one per state, as framework-neutral
//! [`TestScript`]s that the record keeps and `curio-report` writes as Playwright Test and
//! pytest + Selenium. Fields are found by stable locators (label, id, name, placeholder)
//! before CSS paths; each test fills the values that reached the state, submits, and
//! expects the feedback (or the page a success leads to).

use curio_forms::FieldValue;
use curio_forms::feedback::{Channel, Message, Outcome};
use curio_page::{Field, Form, LabelSource, Target};
use curio_record::{Expectation, Locate, TestScript, TestStep};

use crate::forms::{FormResult, FssTest};

/// The stable way to find `field`: its label when no other field of the form has the
/// same one, else its id, its name (unique in the form), its placeholder, its CSS path.
fn field_locator(form: &Form, index: usize) -> Locate {
    let field = &form.fields[index];
    let labelled = |f: &Field| {
        f.labels
            .iter()
            .find(|l| {
                matches!(
                    l.source,
                    LabelSource::For
                        | LabelSource::Wrapping
                        | LabelSource::AriaLabel
                        | LabelSource::AriaLabelledBy
                )
            })
            .map(|l| l.text.clone())
    };
    if field.input_type != "radio"
        && let Some(label) = labelled(field).filter(|l| !l.is_empty())
        && form
            .fields
            .iter()
            .filter(|f| labelled(f).as_deref() == Some(label.as_str()))
            .count()
            == 1
    {
        return Locate::Label(label);
    }
    if let Some(id) = field.id.as_deref().filter(|s| !s.is_empty()) {
        return Locate::Css(format!("[id={}]", css_string(id)));
    }
    if let Some(name) = field.name.as_deref().filter(|s| !s.is_empty())
        && (field.input_type == "radio"
            || form
                .fields
                .iter()
                .filter(|f| f.name.as_deref() == Some(name))
                .count()
                == 1)
    {
        return Locate::Css(format!("[name={}]", css_string(name)));
    }
    if let Some(p) = field.placeholder.as_deref().filter(|s| !s.is_empty()) {
        return Locate::Placeholder(p.to_string());
    }
    Locate::Css(field.target.selector.clone())
}

/// The submit button: by role and name when its locator reads `button "Name"`.
fn button_locator(target: &Target) -> Locate {
    if let Some(rest) = target.locator.strip_prefix("button ")
        && let Some(name) = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"'))
        && !name.is_empty()
    {
        return Locate::Role {
            role: "button".into(),
            name: name.to_string(),
        };
    }
    Locate::Css(target.selector.clone())
}

/// A CSS string literal.
fn css_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The messages a test can check in the page (HTTP statuses are not on the page).
fn checkable(messages: &[Message]) -> impl Iterator<Item = &Message> {
    messages
        .iter()
        .filter(|m| !matches!(m.channel, Channel::Http(_)))
}

fn test_name(form: &FormResult, test: &FssTest) -> String {
    let fss = &form.report.fss[test.fss];
    let what = match fss.outcome {
        Outcome::Success => "succeeds".to_string(),
        Outcome::Failure => {
            let fields: Vec<String> = fss
                .messages
                .iter()
                .map(|m| m.field.map_or("form".to_string(), |f| form.refs[f].clone()))
                .collect();
            format!("is refused ({})", dedup(fields).join(", "))
        }
        Outcome::Unknown => "gives no clear answer".to_string(),
    };
    format!("state {}: {} {what}", test.fss + 1, form.title)
}

fn dedup(mut v: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.clone()));
    v
}

/// The test of one Form Submission State of `form` on the page at `url`.
pub(crate) fn script(url: &str, form: &FormResult, test: &FssTest) -> TestScript {
    let fss = &form.report.fss[test.fss];
    let mut steps: Vec<TestStep> = test
        .fills
        .iter()
        .map(|fill| {
            let field = &form.form.fields[fill.field];
            let at = field_locator(&form.form, fill.field);
            match &fill.value {
                FieldValue::Text(v) => TestStep::Fill {
                    at,
                    value: v.clone(),
                },
                FieldValue::Select(v) if field.input_type == "radio" => TestStep::Radio {
                    name: field.name.clone().unwrap_or_default(),
                    value: v.clone(),
                },
                FieldValue::Select(v) => TestStep::Select {
                    at,
                    value: v.clone(),
                },
                FieldValue::Check(on) => TestStep::Check { at, on: *on },
            }
        })
        .collect();
    if let Some(submit) = &form.form.submit {
        steps.push(TestStep::Click {
            at: button_locator(submit),
        });
    }
    let mut expect = Vec::new();
    if fss.outcome == Outcome::Success && !test.url_after.is_empty() && test.url_after != url {
        expect.push(Expectation::Url(test.url_after.clone()));
    }
    for m in checkable(&fss.messages) {
        expect.push(match (&m.channel, m.field) {
            (Channel::Native, Some(f)) => Expectation::Validation {
                at: field_locator(&form.form, f),
                text: m.text.clone(),
            },
            (Channel::Dialog, _) => Expectation::Dialog(m.text.clone()),
            (Channel::Toast, _) => Expectation::Toast(m.text.clone()),
            _ => Expectation::Text(m.text.clone()),
        });
    }
    TestScript {
        name: test_name(form, test),
        url: url.to_string(),
        steps,
        expect,
    }
}
