//! Progress on stderr while a run goes: a spinner with counts, and a line per new
//! finding. Hidden when stderr is not a terminal (CI logs stay clean).

use std::time::Duration;

use curio_runner::{RunConfig, RunEvent, RunOutcome};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::validate::Failure;

pub(crate) async fn explore(config: RunConfig) -> Result<RunOutcome, Failure> {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    let mut findings = 0u32;
    let mut on_event = |event: RunEvent| match event {
        RunEvent::Started { browser, .. } => bar.set_message(format!("started {browser}")),
        RunEvent::Step {
            index,
            episode,
            url,
            ..
        } => bar.set_message(format!(
            "step {index} · episode {} · {findings} findings · {url}",
            episode + 1
        )),
        RunEvent::Finding { id, kind, message } => {
            findings += 1;
            bar.println(format!("finding #{}: {}: {message}", id.0, kind.as_str()));
        }
        RunEvent::Finished { .. } => bar.finish_and_clear(),
    };
    let result = curio_runner::explore(config, &mut on_event).await;
    bar.finish_and_clear();
    Ok(result?)
}
