//! Progress on stderr while a run goes: a spinner with the run's counts (states, actions
//! per minute, findings, time left) and a line per new finding. Hidden when stderr is not
//! a terminal or `CI` is set, so CI logs stay clean.

use std::time::Duration;

use curio_runner::{RunConfig, RunEvent, RunOutcome};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::validate::Failure;

/// A spinner on stderr, or nothing in CI.
pub(crate) fn spinner() -> ProgressBar {
    let target = if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

pub(crate) async fn explore(config: RunConfig) -> Result<RunOutcome, Failure> {
    let bar = spinner();
    let budget = config.time;
    let mut counts = String::new();
    let mut on_event = |event: RunEvent| match event {
        RunEvent::Started { browser, .. } => bar.set_message(format!("started {browser}")),
        RunEvent::Step { url, .. } => bar.set_message(format!("{counts} · {url}")),
        RunEvent::Progress {
            point,
            actions,
            forms,
        } => {
            let elapsed = Duration::from_millis(point.elapsed_ms);
            let minutes = elapsed.as_secs_f64() / 60.0;
            let per_minute = if minutes > 0.0 {
                f64::from(actions) / minutes
            } else {
                0.0
            };
            let left = budget.saturating_sub(elapsed).as_secs();
            counts = format!(
                "{} states · {per_minute:.0} actions/min · {} findings · {forms} forms studied · {}% JS blocks · {}m{:02}s left",
                point.states,
                point.findings,
                percent(point.covered_blocks, point.total_blocks),
                left / 60,
                left % 60
            );
            bar.set_message(counts.clone());
        }
        RunEvent::Finding { id, kind, message } => {
            bar.println(format!("finding #{}: {}: {message}", id.0, kind.as_str()));
        }
        RunEvent::FormSession { url, cap } => bar.set_message(format!(
            "{counts} · studying a form on {url} (at most {}s)",
            cap.as_secs()
        )),
        // A note is for the user whether the progress line shows or not.
        RunEvent::Note(note) if bar.is_hidden() => eprintln!("note: {note}"),
        RunEvent::Note(note) => bar.println(format!("note: {note}")),
        RunEvent::Finished { .. } => bar.finish_and_clear(),
    };
    let result = curio_runner::explore(config, &mut on_event).await;
    bar.finish_and_clear();
    Ok(result?)
}

fn percent(part: u32, whole: u32) -> u64 {
    (u64::from(part) * 100)
        .checked_div(u64::from(whole))
        .unwrap_or(0)
}
