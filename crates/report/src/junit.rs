//! JUnit XML for CI: a test suite for the exploration, with a test case per finding
//! (failed, with its steps, when its severity is at the level that fails the run) and one that fails when the run did not finish, and a test
//! suite per form tested, with a test case per Form Submission State (failed when its
//! replays did not all reach it again). Written to fit the schemas CI systems read
//! (Jenkins' `junit-10.xsd`, and the Ant layout with `system-out` and `system-err`).

use std::path::Path;

use curio_record::{FormRecord, RunRecord, Severity};
use minijinja::{Environment, context};
use serde::Serialize;

use crate::view::{View, clean, describe_step, kind_label};
use crate::{ReportError, create_parent};

const TEMPLATE: &str = include_str!("../templates/junit.xml");

/// Longest test case name, in characters: CI pages show names in one line.
const MAX_NAME: usize = 160;

#[derive(Debug, Serialize)]
struct Suite {
    name: String,
    seconds: String,
    failures: usize,
    cases: Vec<Case>,
}

#[derive(Debug, Serialize)]
struct Case {
    name: String,
    classname: String,
    failure: Option<Failure>,
    /// What a case that passes still says (a finding below the level that fails).
    output: Option<String>,
}

#[derive(Debug, Serialize)]
struct Failure {
    r#type: String,
    message: String,
    text: String,
}

/// Writes the run's JUnit XML to `path`, creating its directory.
///
/// A finding below `fail_on` (all of them when it is `None`) is a test case that passes,
/// its severity and message in its output.
pub fn write_junit(
    record: &RunRecord,
    path: &Path,
    fail_on: Option<Severity>,
) -> Result<(), ReportError> {
    create_parent(path)?;
    let xml = junit_xml(record, fail_on).map_err(|source| ReportError::Render {
        path: path.to_owned(),
        source,
    })?;
    std::fs::write(path, xml).map_err(|source| ReportError::Write {
        path: path.to_owned(),
        source,
    })
}

/// The run's JUnit XML text.
pub fn junit_xml(
    record: &RunRecord,
    fail_on: Option<Severity>,
) -> Result<String, minijinja::Error> {
    let view = View::new(record);
    let seconds = format!("{:.3}", view.seconds);
    let mut suites = Vec::new();
    if !record.steps.is_empty() || record.forms.is_empty() {
        suites.push(exploration(record, &seconds, fail_on));
    }
    suites.extend(record.forms.iter().map(form_suite));
    let tests: usize = suites.iter().map(|s| s.cases.len()).sum();
    let failures: usize = suites.iter().map(|s| s.failures).sum();
    let properties = [
        ("start_url", view.start_url.clone()),
        ("strategy", view.strategy.clone()),
        ("seed", view.seed.clone()),
        ("browser", view.browser.clone()),
        ("curio", view.tool_version.clone()),
    ];
    let mut env = Environment::new();
    // The `.xml` name turns on escaping of every value the template prints.
    env.add_template("junit.xml", TEMPLATE)?;
    env.get_template("junit.xml")?.render(context! {
        suites,
        tests,
        failures,
        seconds,
        properties,
        // xs:dateTime without a zone, as the Ant schema wants it.
        timestamp => view.started.trim_end_matches('Z'),
    })
}

fn exploration(record: &RunRecord, seconds: &str, fail_on: Option<Severity>) -> Suite {
    let classname = "curio.explore".to_string();
    let mut cases = vec![Case {
        name: "run finished".to_string(),
        classname: classname.clone(),
        failure: record.summary.is_none().then(|| Failure {
            r#type: "interrupted".to_string(),
            message: "the run did not finish (killed or crashed)".to_string(),
            text: String::new(),
        }),
        output: None,
    }];
    for f in &record.findings {
        let label = kind_label(f.kind);
        let mut text = String::from("Steps to reproduce:\n");
        for (i, step) in f.trace.iter().enumerate() {
            text.push_str(&format!("{}. {}\n", i + 1, describe_step(step)));
        }
        text.push_str(&format!("\nAt: {}\n", clean(&f.url)));
        if let Some(s) = &f.source {
            text.push_str(&format!(
                "Source: {}:{}:{}\n",
                clean(&s.url),
                s.line,
                s.column
            ));
        }
        let replay = match f.reproduced {
            Some(true) => "reproduced",
            Some(false) => "did not reproduce",
            None => "not checked",
        };
        text.push_str(&format!("Replay: {replay}\nSeen {} times\n", f.occurrences));
        for l in &f.links {
            text.push_str(&format!(
                "Link {:?} on {} to {} (HTTP {})\n",
                clean(&l.text),
                clean(&l.page),
                clean(&l.url),
                l.status
            ));
        }
        let fails = fail_on.is_some_and(|level| f.severity >= level);
        cases.push(Case {
            name: short(&format!(
                "finding #{} [{}]: {label}: {}",
                f.id.0,
                f.severity.as_str(),
                f.title()
            )),
            classname: classname.clone(),
            failure: fails.then(|| Failure {
                r#type: f.kind.as_str().to_string(),
                message: clean(&f.title()),
                text: text.clone(),
            }),
            output: (!fails).then(|| {
                format!(
                    "{} (below the level that fails the run)\n{}\n{text}",
                    f.severity.as_str(),
                    clean(&f.message)
                )
            }),
        });
    }
    Suite {
        name: clean(&format!("explore {}", record.meta.start_url)),
        seconds: seconds.to_string(),
        failures: cases.iter().filter(|c| c.failure.is_some()).count(),
        cases,
    }
}

fn form_suite(form: &FormRecord) -> Suite {
    let classname = clean(&format!("curio.forms.{}", form.title));
    let cases: Vec<Case> = form
        .fss
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let said: Vec<&str> = s.messages.iter().map(|(_, m)| m.as_str()).collect();
            let name = match said.is_empty() {
                true => format!("FSS {}: {}", i + 1, s.outcome),
                false => format!("FSS {}: {}: {}", i + 1, s.outcome, said.join(" / ")),
            };
            let failure = (s.reproduced < s.replays).then(|| Failure {
                r#type: "not_reproduced".to_string(),
                message: format!(
                    "{} of {} replays reached this answer again",
                    s.reproduced, s.replays
                ),
                text: s
                    .values
                    .iter()
                    .map(|(field, value)| clean(&format!("{field} = {value:?}\n")))
                    .collect(),
            });
            Case {
                name: short(&name),
                classname: classname.clone(),
                failure,
                output: None,
            }
        })
        .collect();
    Suite {
        name: clean(&format!("form {} on {}", form.title, form.page_url)),
        seconds: format!("{:.3}", form.seconds),
        failures: cases.iter().filter(|c| c.failure.is_some()).count(),
        cases,
    }
}

fn short(text: &str) -> String {
    let text = clean(&text.replace(['\n', '\r', '\t'], " "));
    if text.chars().count() <= MAX_NAME {
        return text;
    }
    let mut s: String = text.chars().take(MAX_NAME - 1).collect();
    s.push('…');
    s
}
