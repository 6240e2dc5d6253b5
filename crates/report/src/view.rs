//! What the templates show, computed from the record: readable steps, percentages,
//! durations, the detail around each finding. Text from the app is kept as it is (the
//! templates escape it) but for the control characters XML cannot hold.

use std::time::{Duration, UNIX_EPOCH};

use curio_record::{
    Finding, FormRecord, Observation, ObservationKind, RunRecord, ScriptCoverage, Severity, Step,
    StepKind,
};
use serde::Serialize;

#[derive(Debug, Serialize)]
pub(crate) struct View {
    pub title: String,
    pub start_url: String,
    pub strategy: String,
    pub seed: String,
    pub browser: String,
    pub tool_version: String,
    pub started: String,
    /// Whole seconds since the run began until it finished (or its last step).
    pub seconds: f64,
    pub duration: String,
    pub finished: bool,
    pub stop_reason: String,
    pub steps: usize,
    pub actions: u32,
    pub episodes: u32,
    pub states: usize,
    pub page_kinds: u32,
    pub coverage: CoverageView,
    pub findings: Vec<FindingView>,
    /// The findings by severity, the most severe first; severities without findings
    /// are left out.
    pub by_severity: Vec<SeverityGroup>,
    pub reproduced: usize,
    /// Failures of origins outside the app, kept as noise.
    pub noise: usize,
    pub state_list: Vec<StateView>,
    pub transitions: usize,
    /// Every distinct move: from, what, to (`outside the app` when it left), how often.
    pub moves: Vec<(String, String, String, u32)>,
    pub forms: Vec<FormView>,
    pub fss: usize,
}

#[derive(Debug, Serialize)]
pub(crate) struct CoverageView {
    pub blocks: String,
    pub bytes: String,
    pub scripts: Vec<ScriptView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ScriptView {
    pub url: String,
    pub blocks: String,
    pub bytes: String,
    pub percent: u32,
}

#[derive(Debug, Serialize)]
pub(crate) struct FindingView {
    pub id: u32,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// The message cut to a readable length; `message` is whole.
    pub title: String,
    /// The broken links a grouped finding lists.
    pub links: Vec<LinkView>,
    pub kind: String,
    pub kind_label: String,
    pub message: String,
    pub url: String,
    pub source: Option<String>,
    pub status: Option<u16>,
    pub occurrences: u32,
    /// `reproduced`, `did not reproduce` or `not checked`.
    pub reproduced: String,
    pub reproduced_ok: bool,
    pub steps: Vec<String>,
    pub screenshot: Option<String>,
    /// What the browser reported during the step that first showed it.
    pub detail: Vec<ObservationView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct LinkView {
    pub text: String,
    pub page: String,
    pub url: String,
    pub status: u16,
}

/// The findings of one severity, for the report's sections.
#[derive(Debug, Serialize)]
pub(crate) struct SeverityGroup {
    pub severity: String,
    pub findings: Vec<FindingView>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ObservationView {
    pub kind: String,
    pub message: String,
    pub url: String,
    pub status: Option<u16>,
    pub method: Option<String>,
    pub source: Option<String>,
    pub in_scope: bool,
}

#[derive(Debug, Serialize)]
pub(crate) struct StateView {
    pub id: u32,
    pub url: String,
    pub first_step: u32,
    pub screenshot: Option<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct FormView {
    pub anchor: String,
    pub title: String,
    pub page_url: String,
    pub reached: bool,
    pub submissions: u32,
    pub seconds: String,
    pub fields: Vec<(String, String, String)>,
    pub constraints: Vec<ConstraintView>,
    pub fss: Vec<FssView>,
    pub problems: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(crate) struct ConstraintView {
    pub constraint: String,
    pub verdict: String,
    pub source: String,
    pub fss: Option<u32>,
}

#[derive(Debug, Serialize)]
pub(crate) struct FssView {
    pub number: usize,
    pub outcome: String,
    pub messages: Vec<String>,
    pub values: Vec<String>,
    pub purpose: String,
    pub tests: Vec<String>,
    pub replays: String,
    pub stable: bool,
}

impl View {
    pub fn new(record: &RunRecord) -> View {
        let meta = &record.meta;
        let summary = record.summary.as_ref();
        let seconds = match summary {
            Some(s) => s.finished_at_ms.saturating_sub(meta.started_at_ms) as f64 / 1000.0,
            None => record
                .progress
                .last()
                .map_or(0.0, |p| p.elapsed_ms as f64 / 1000.0),
        };
        let failures: Vec<&Observation> = record
            .observations
            .iter()
            .filter(|o| o.kind.is_failure())
            .collect();
        let findings: Vec<FindingView> = record
            .findings
            .iter()
            .map(|f| finding(f, &record.observations))
            .collect();
        let forms: Vec<FormView> = record.forms.iter().enumerate().map(form).collect();
        View {
            title: clean(&format!("Curio report: {}", meta.start_url)),
            start_url: clean(&meta.start_url),
            strategy: clean(&meta.strategy),
            seed: meta.seed.to_string(),
            browser: clean(&meta.browser_version),
            tool_version: clean(&meta.tool_version),
            started: humantime::format_rfc3339_seconds(
                UNIX_EPOCH + Duration::from_millis(meta.started_at_ms),
            )
            .to_string(),
            seconds,
            duration: humantime::format_duration(Duration::from_secs(seconds as u64)).to_string(),
            finished: summary.is_some(),
            stop_reason: summary.map_or_else(
                || "did not finish (killed or crashed)".to_string(),
                |s| clean(&s.stop_reason),
            ),
            steps: record.steps.len(),
            actions: summary.map_or(0, |s| s.stats.actions),
            episodes: summary.map_or(0, |s| s.episodes),
            states: record.states.len(),
            page_kinds: summary.map_or(0, |s| s.stats.page_kinds),
            coverage: coverage(&record.coverage.scripts),
            reproduced: record
                .findings
                .iter()
                .filter(|f| f.reproduced == Some(true))
                .count(),
            by_severity: Severity::ALL
                .into_iter()
                .map(|level| SeverityGroup {
                    severity: level.as_str().to_string(),
                    findings: record
                        .findings
                        .iter()
                        .filter(|f| f.severity == level)
                        .map(|f| finding(f, &record.observations))
                        .collect(),
                })
                .filter(|g| !g.findings.is_empty())
                .collect(),
            findings,
            noise: failures.iter().filter(|o| !o.in_scope).count(),
            state_list: record
                .states
                .iter()
                .map(|s| StateView {
                    id: s.id,
                    url: clean(&s.url),
                    first_step: s.first_step,
                    screenshot: s.screenshot.as_deref().map(clean),
                })
                .collect(),
            transitions: record.transitions.len(),
            moves: record
                .transitions
                .iter()
                .map(|t| {
                    let to =
                        t.to.map_or_else(|| "outside the app".to_string(), |s| format!("S{s}"));
                    (format!("S{}", t.from), clean(&t.action), to, t.count)
                })
                .collect(),
            fss: forms.iter().map(|f| f.fss.len()).sum(),
            forms,
        }
    }
}

fn coverage(scripts: &[ScriptCoverage]) -> CoverageView {
    let blocks = |c: u64, t: u64| format!("{c} of {t} blocks ({}%)", percent(c, t));
    let bytes = |c: u64, t: u64| format!("{c} of {t} bytes ({}%)", percent(c, t));
    let sum = |f: fn(&ScriptCoverage) -> u64| scripts.iter().map(f).sum::<u64>();
    CoverageView {
        blocks: blocks(
            sum(|s| u64::from(s.covered_blocks)),
            sum(|s| u64::from(s.total_blocks)),
        ),
        bytes: bytes(sum(|s| s.covered_bytes), sum(|s| s.total_bytes)),
        scripts: scripts
            .iter()
            .map(|s| ScriptView {
                url: clean(&s.url),
                blocks: blocks(u64::from(s.covered_blocks), u64::from(s.total_blocks)),
                bytes: bytes(s.covered_bytes, s.total_bytes),
                percent: percent(u64::from(s.covered_blocks), u64::from(s.total_blocks)),
            })
            .collect(),
    }
}

fn finding(f: &Finding, observations: &[Observation]) -> FindingView {
    let (reproduced, reproduced_ok) = match f.reproduced {
        Some(true) => ("reproduced", true),
        Some(false) => ("did not reproduce", false),
        None => ("not checked", false),
    };
    FindingView {
        id: f.id.0,
        severity: f.severity.as_str().to_string(),
        title: clean(&f.title()),
        links: f
            .links
            .iter()
            .map(|l| LinkView {
                text: clean(&l.text),
                page: clean(&l.page),
                url: clean(&l.url),
                status: l.status,
            })
            .collect(),
        kind: f.kind.as_str().to_string(),
        kind_label: kind_label(f.kind).to_string(),
        message: clean(&f.message),
        url: clean(&f.url),
        source: f
            .source
            .as_ref()
            .map(|s| clean(&format!("{}:{}:{}", s.url, s.line, s.column))),
        status: f.status,
        occurrences: f.occurrences,
        reproduced: reproduced.to_string(),
        reproduced_ok,
        steps: f.trace.iter().map(describe_step).collect(),
        screenshot: f.screenshot.as_deref().map(clean),
        detail: observations
            .iter()
            .filter(|o| o.step == f.first_step)
            .map(|o| ObservationView {
                kind: o.kind.as_str().to_string(),
                message: clean(&o.message),
                url: clean(&o.url),
                status: o.status,
                method: o.method.as_deref().map(clean),
                source: o
                    .source
                    .as_ref()
                    .map(|s| clean(&format!("{}:{}:{}", s.url, s.line, s.column))),
                in_scope: o.in_scope,
            })
            .collect(),
    }
}

fn form((i, f): (usize, &FormRecord)) -> FormView {
    FormView {
        anchor: format!("form-{}", i + 1),
        title: clean(&f.title),
        page_url: clean(&f.page_url),
        reached: f.reached,
        submissions: f.submissions,
        seconds: format!("{:.1}", f.seconds),
        fields: f
            .fields
            .iter()
            .map(|x| (clean(&x.name), clean(&x.locator), clean(&x.kind)))
            .collect(),
        constraints: f
            .constraints
            .iter()
            .map(|c| ConstraintView {
                constraint: clean(&c.constraint),
                verdict: clean(&c.verdict),
                source: clean(&c.source),
                fss: c.fss.map(|n| n + 1),
            })
            .collect(),
        fss: f
            .fss
            .iter()
            .enumerate()
            .map(|(n, s)| FssView {
                number: n + 1,
                outcome: clean(&s.outcome),
                messages: s
                    .messages
                    .iter()
                    .map(|(field, text)| match field.as_str() {
                        "" => clean(text),
                        field => clean(&format!("{field}: {text}")),
                    })
                    .collect(),
                values: s
                    .values
                    .iter()
                    .map(|(field, value)| clean(&format!("{field} = {value:?}")))
                    .collect(),
                purpose: clean(&s.purpose),
                tests: s.tests.iter().map(|t| clean(t)).collect(),
                replays: format!("{} of {}", s.reproduced, s.replays),
                stable: s.reproduced == s.replays,
            })
            .collect(),
        problems: f.problems.iter().map(|p| clean(p)).collect(),
    }
}

/// A step as a person would write it in a bug report.
pub(crate) fn describe_step(step: &Step) -> String {
    let value = step.value.as_deref().unwrap_or_default();
    let text = match step.kind {
        StepKind::Goto => format!("Go to {value}"),
        StepKind::Click => format!("Click {}", step.locator),
        StepKind::Fill if value.is_empty() => format!("Clear {}", step.locator),
        StepKind::Fill => format!("Type {value:?} into {}", step.locator),
        StepKind::Select => format!("Choose {value:?} in {}", step.locator),
        StepKind::Check => match step.value.as_deref() {
            Some("on") => format!("Tick {}", step.locator),
            Some("off") => format!("Untick {}", step.locator),
            _ => format!("Tick or untick {}", step.locator),
        },
    };
    clean(&text)
}

pub(crate) fn kind_label(kind: ObservationKind) -> &'static str {
    match kind {
        ObservationKind::UncaughtException => "Uncaught exception",
        ObservationKind::UnhandledRejection => "Unhandled promise rejection",
        ObservationKind::ConsoleError => "Console error",
        ObservationKind::HttpClientError => "HTTP client error",
        ObservationKind::HttpServerError => "HTTP server error",
        ObservationKind::NetworkFailure => "Network failure",
        ObservationKind::RendererCrash => "Renderer crash",
        ObservationKind::Dialog => "Dialog",
        ObservationKind::Popup => "Popup",
    }
}

fn percent(part: u64, whole: u64) -> u32 {
    (part * 100).checked_div(whole).unwrap_or(0) as u32
}

/// The text without the control characters XML 1.0 cannot hold (an app's console may
/// print terminal colour codes); tabs and newlines stay.
pub(crate) fn clean(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_read_like_a_bug_report() {
        let step = |kind, locator: &str, value: Option<&str>| Step {
            kind,
            locator: locator.to_string(),
            selector: String::new(),
            value: value.map(str::to_string),
            href: None,
        };
        assert_eq!(
            describe_step(&step(StepKind::Goto, "", Some("http://127.0.0.1/"))),
            "Go to http://127.0.0.1/"
        );
        assert_eq!(
            describe_step(&step(StepKind::Fill, "textbox \"Email\"", Some("a@b.c"))),
            "Type \"a@b.c\" into textbox \"Email\""
        );
        assert_eq!(
            describe_step(&step(StepKind::Fill, "textbox \"Email\"", Some(""))),
            "Clear textbox \"Email\""
        );
    }

    #[test]
    fn control_characters_are_dropped() {
        assert_eq!(clean("\u{1b}[31mred\u{1b}[0m\tok\n"), "[31mred[0m\tok\n");
    }
}
