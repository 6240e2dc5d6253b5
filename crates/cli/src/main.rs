//! The `curio` binary: parses and validates arguments, runs the runner, shows progress,
//! prints the summary, and picks the exit code.

mod args;
mod progress;
mod validate;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use curio_record::RunRecord;
use curio_runner::RunOutcome;
use curio_subjects::Subject;

use crate::args::{Cli, Command};
use crate::validate::{Failure, run_config};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // clap: help and version are not errors.
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: failed to start the async runtime: {e}");
            return ExitCode::from(3);
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

async fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Explore { url, run, browser } => {
            let config = run_config(&url, &run, &browser, Duration::from_secs(300))?;
            let outcome = progress::explore(config).await?;
            print_summary(&outcome);
            let findings = outcome.record.findings.len();
            Ok(ExitCode::from(if findings > 0 { 1 } else { 0 }))
        }
        Command::Demo { run, browser } => {
            let subject = curio_subjects::serve(Subject::Demo)
                .await
                .map_err(|e| Failure::Infra(format!("failed to start the demo app: {e}")))?;
            println!("Demo shop running at {}", subject.base_url());
            let mut run = run;
            run.seed.get_or_insert(1);
            let config = run_config(&subject.base_url(), &run, &browser, Duration::from_secs(60))?;
            let result = progress::explore(config).await;
            let truth = subject.ground_truth().clone();
            subject.shutdown().await;
            let outcome = result?;
            print_summary(&outcome);
            print_ground_truth(&truth);
            // The demo succeeded if it ran; its findings are the point, not a failure.
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn print_summary(outcome: &RunOutcome) {
    let r: &RunRecord = &outcome.record;
    if let Some(s) = &r.summary {
        println!(
            "Explored {} in {} steps over {} episodes, {} distinct pages (stopped: {}).",
            r.meta.start_url,
            s.steps,
            s.episodes + 1,
            s.states,
            s.stop_reason
        );
    }
    let cov = &r.coverage;
    if cov.total_blocks() > 0 {
        println!(
            "JavaScript coverage: {} of {} blocks in {} scripts.",
            cov.covered_blocks(),
            cov.total_blocks(),
            cov.scripts.len()
        );
    }
    if r.findings.is_empty() {
        println!("No findings.");
    } else {
        println!("{} findings:", r.findings.len());
    }
    for f in &r.findings {
        let kind = f.kind.as_str();
        println!("  #{} {kind}: {}", f.id.0, f.message);
        match &f.source {
            Some(s) => println!("     at {}:{}:{}", s.url, s.line, s.column),
            None => println!("     at {}", f.url),
        }
        println!("     seen {} time(s); steps to reproduce:", f.occurrences);
        for (i, step) in f.trace.iter().enumerate() {
            let what = match (&step.value, step.locator.is_empty()) {
                (Some(v), true) => v.clone(),
                (Some(v), false) => format!("{} = {v:?}", step.locator),
                (None, _) => step.locator.clone(),
            };
            println!("       {}. {} {what}", i + 1, step.kind.as_str());
        }
        if let Some(shot) = &f.screenshot {
            println!(
                "     screenshot: {}",
                outcome.record_path.with_file_name(shot).display()
            );
        }
    }
    println!(
        "Record: {} (store {}, run {})",
        outcome.record_path.display(),
        outcome.store_path.display(),
        outcome.run.0
    );
}

fn print_ground_truth(truth: &curio_subjects::GroundTruth) {
    let hit = truth.triggered_ids();
    println!(
        "Demo ground truth: {} of {} seeded faults triggered (counted by the app itself):",
        truth.faults().iter().filter(|f| hit.contains(f.id)).count(),
        truth.faults().len()
    );
    for f in truth.faults() {
        let mark = if hit.contains(f.id) {
            "found "
        } else {
            "missed"
        };
        println!("  [{mark}] {}: {}", f.id, f.description);
    }
}
