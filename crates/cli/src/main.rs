//! The `curio` binary: parses and validates arguments, runs the runner, shows progress,
//! prints the summary, and picks the exit code.

mod args;
mod config_file;
mod progress;
mod validate;

use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgMatches, CommandFactory, FromArgMatches};
use curio_record::{FindingId, RunRecord, Severity};
use curio_runner::{
    FindingReplay, FormsEvent, FormsOutcome, ReplayConfig, RunOutcome, replay_findings, test_forms,
};
use curio_subjects::Subject;

use crate::args::{Cli, Command};
use crate::config_file::ConfigFile;
use crate::validate::{Failure, forms_config, replay_browser, run_config, start_url};

fn main() -> ExitCode {
    // The matches are kept to tell flags given from defaults: given ones win over the
    // config file.
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
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
    match runtime.block_on(run(cli, matches)) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

async fn run(cli: Cli, matches: ArgMatches) -> Result<ExitCode, Failure> {
    if let Command::Init { path, force } = &cli.command {
        return init(path, *force);
    }
    let (file, _) = ConfigFile::load(cli.config.as_deref())?;
    let m = matches
        .subcommand()
        .map(|(_, m)| m.clone())
        .unwrap_or_default();
    match cli.command {
        Command::Explore {
            url,
            mut run,
            mut reports,
            mut browser,
        } => {
            let url = file.url(url, "explore")?;
            file.apply_run(&mut run, &m)?;
            file.apply_browser(&mut browser, &m)?;
            file.apply_reports(&mut reports, &m)?;
            let extras = file.extras(&start_url(&url)?)?;
            let config = run_config(&url, &run, &browser, Duration::from_secs(300), extras)?;
            let run_dir = config.out_dir.clone();
            let outcome = progress::explore(config).await?;
            print_summary(&outcome);
            write_reports(&outcome.record, &run_dir, &reports)?;
            let fail_on = reports.fail_on.unwrap_or_default();
            let fails = fail_on.fails(&outcome.record.findings);
            Ok(ExitCode::from(if fails { 1 } else { 0 }))
        }
        Command::Demo {
            mut run,
            mut reports,
            mut browser,
        } => {
            file.apply_run(&mut run, &m)?;
            file.apply_browser(&mut browser, &m)?;
            file.apply_reports(&mut reports, &m)?;
            let subject = curio_subjects::serve(Subject::Demo)
                .await
                .map_err(|e| Failure::Infra(format!("failed to start the demo app: {e}")))?;
            println!("Demo shop running at {}", subject.base_url());
            run.seed.get_or_insert(1);
            // The demo always shows its report.
            if reports.report_html.is_none() {
                reports.report_html = Some(run.out.join("report"));
            }
            let demo_url = subject.base_url();
            let extras = file.extras(&start_url(&demo_url)?)?;
            let config = run_config(&demo_url, &run, &browser, Duration::from_secs(90), extras)?;
            let run_dir = config.out_dir.clone();
            let result = progress::explore(config).await;
            let truth = subject.ground_truth().clone();
            subject.shutdown().await;
            let outcome = result?;
            print_summary(&outcome);
            print_ground_truth(&truth);
            write_reports(&outcome.record, &run_dir, &reports)?;
            // The demo succeeded if it ran; its findings are the point, not a failure.
            Ok(ExitCode::SUCCESS)
        }
        Command::Forms {
            url,
            mut forms,
            mut reports,
            mut browser,
        } => {
            let url = file.url(url, "forms")?;
            file.apply_forms(&mut forms, &m);
            file.apply_browser(&mut browser, &m)?;
            file.apply_reports(&mut reports, &m)?;
            let extras = file.extras(&start_url(&url)?)?;
            let config = forms_config(&url, &forms, &browser, extras)?;
            let run_dir = config.out_dir.clone();
            let quiet = std::env::var_os("CI").is_some();
            let mut on_event = |e: FormsEvent| print_forms_event(&e, quiet);
            let outcome = test_forms(config, &mut on_event).await?;
            print_forms(&outcome);
            write_reports(&outcome.record, &run_dir, &reports)?;
            let flaky = outcome
                .forms
                .iter()
                .flat_map(|f| &f.tests)
                .filter(|t| t.reproduced < t.replays)
                .count();
            Ok(ExitCode::from(if flaky > 0 { 1 } else { 0 }))
        }
        Command::Replay {
            record,
            findings,
            mut browser,
        } => {
            file.apply_browser(&mut browser, &m)?;
            replay(&record, &findings, &browser, &file).await
        }
        Command::Init { .. } => unreachable!("handled above"),
        Command::Export {
            record,
            format,
            out,
        } => {
            let file = record_file(&record);
            let run = RunRecord::read_json(&file).map_err(|e| Failure::Usage(e.to_string()))?;
            let format = curio_report::TestFormat::from_name(&format)
                .ok_or_else(|| Failure::Usage(format!("unknown test format '{format}'")))?;
            let written = curio_report::write_tests(&run, format, &out)
                .map_err(|e| Failure::Infra(e.to_string()))?;
            if written.is_empty() {
                println!(
                    "{} has no findings and no form answers to test.",
                    file.display()
                );
            }
            for path in written {
                println!("Wrote {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Report {
            record,
            mut reports,
        } => {
            file.apply_reports(&mut reports, &m)?;
            if !reports.any() {
                return Err(Failure::Usage(
                    "curio report: give at least one of --report-html DIR, --report-junit FILE, --report-json FILE".to_string(),
                ));
            }
            let file = record_file(&record);
            let run = RunRecord::read_json(&file).map_err(|e| Failure::Usage(e.to_string()))?;
            let run_dir = file.parent().unwrap_or(std::path::Path::new("."));
            write_reports(&run, run_dir, &reports)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `curio init`: the commented starter file, never over an existing one unless forced.
fn init(path: &std::path::Path, force: bool) -> Result<ExitCode, Failure> {
    if path.exists() && !force {
        return Err(Failure::Usage(format!(
            "{} exists; use --force to overwrite it",
            path.display()
        )));
    }
    std::fs::write(path, config_file::STARTER)
        .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
    println!(
        "Wrote {}; edit it, then run `curio explore`.",
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A record argument: the `record.json` itself, or the run's output directory.
fn record_file(path: &std::path::Path) -> std::path::PathBuf {
    if path.is_dir() {
        path.join("record.json")
    } else {
        path.to_path_buf()
    }
}

/// Writes each report asked for and says where.
fn write_reports(
    record: &RunRecord,
    run_dir: &std::path::Path,
    reports: &args::ReportArgs,
) -> Result<(), Failure> {
    let failed = |e: curio_report::ReportError| Failure::Infra(e.to_string());
    if let Some(dir) = &reports.report_html {
        let index = curio_report::write_html(record, run_dir, dir).map_err(failed)?;
        println!("HTML report: {}", index.display());
    }
    if let Some(file) = &reports.report_junit {
        let fail_on = reports.fail_on.unwrap_or_default().0;
        curio_report::write_junit(record, file, fail_on).map_err(failed)?;
        println!("JUnit report: {}", file.display());
    }
    if let Some(file) = &reports.report_json {
        curio_report::write_json(record, file).map_err(failed)?;
        println!("JSON report: {}", file.display());
    }
    Ok(())
}

/// `curio replay`: each chosen finding's trace in a fresh browser context.
async fn replay(
    path: &std::path::Path,
    wanted: &[u32],
    browser: &args::BrowserArgs,
    settings: &ConfigFile,
) -> Result<ExitCode, Failure> {
    let file = record_file(path);
    let record = RunRecord::read_json(&file).map_err(|e| Failure::Usage(e.to_string()))?;
    let ids: Vec<FindingId> = if wanted.is_empty() {
        record.findings.iter().map(|f| f.id).collect()
    } else {
        let mut ids = Vec::new();
        for n in wanted {
            if !record.findings.iter().any(|f| f.id.0 == *n) {
                return Err(Failure::Usage(format!(
                    "no finding #{n} in {} (it has {} findings)",
                    file.display(),
                    record.findings.len()
                )));
            }
            ids.push(FindingId(*n));
        }
        ids
    };
    if ids.is_empty() {
        println!("{} has no findings to replay.", file.display());
        return Ok(ExitCode::SUCCESS);
    }
    let scope = ReplayConfig::scope_of(&record).ok_or_else(|| {
        Failure::Usage(format!(
            "{}: start URL '{}' is not a URL",
            file.display(),
            record.meta.start_url
        ))
    })?;
    let start = start_url(&record.meta.start_url)?;
    let config = ReplayConfig {
        browser: replay_browser(browser, scope)?,
        login: settings.extras(&start)?.login,
    };
    let mut print = |r: &FindingReplay| {
        let Some(f) = record.findings.iter().find(|f| f.id == r.finding) else {
            return;
        };
        let verdict = if r.report.reproduced {
            "reproduced"
        } else {
            "NOT reproduced"
        };
        println!(
            "finding #{} {}: {verdict} after {} of {} steps ({:.1}s)",
            f.id.0,
            f.kind.as_str(),
            r.report.steps_done,
            f.trace.len(),
            r.duration.as_secs_f64()
        );
        println!("    {}", f.message);
        if let Some((step, why)) = &r.report.failed {
            println!("    stopped at step {}: {why}", step + 1);
        }
        if !r.report.reproduced && !r.report.signatures.is_empty() {
            println!("    saw instead: {}", r.report.signatures.join("; "));
        }
    };
    let results = replay_findings(config, &record, &ids, &mut print).await?;
    let failed = results.iter().filter(|r| !r.report.reproduced).count();
    println!(
        "{} of {} findings reproduced.",
        results.len() - failed,
        results.len()
    );
    Ok(ExitCode::from(if failed > 0 { 1 } else { 0 }))
}

fn print_forms_event(event: &FormsEvent, quiet: bool) {
    match event {
        FormsEvent::Form {
            form,
            title,
            fields,
            constraints,
        } => println!(
            "Form {} \"{title}\": {fields} fields, {constraints} constraints inferred.",
            form + 1
        ),
        FormsEvent::Note(note) => eprintln!("note: {note}"),
        FormsEvent::Submitted {
            purpose,
            signature,
            new_state,
            ..
        } => {
            if !quiet {
                let mark = if *new_state { "new state" } else { "seen" };
                println!("    {purpose}: {mark}: {signature}");
            }
        }
    }
}

fn print_forms(outcome: &FormsOutcome) {
    for form in &outcome.forms {
        let r = &form.report;
        let confirmed = r
            .constraints
            .iter()
            .filter(|c| c.verdict == curio_forms::session::Verdict::Confirmed)
            .count();
        let refuted = r
            .constraints
            .iter()
            .filter(|c| c.verdict == curio_forms::session::Verdict::Refuted)
            .count();
        println!(
            "Form {} \"{}\": {} submissions in {:.1}s, reached success: {}; {} constraints ({confirmed} confirmed, {refuted} refuted); {} form submission states.",
            form.index + 1,
            form.title,
            r.submissions,
            form.seconds,
            if r.reached { "yes" } else { "no" },
            r.constraints.len(),
            r.fss.len()
        );
        for problem in &form.problems {
            println!("    problem: {problem}");
        }
        for test in form.tests.iter().filter(|t| t.reproduced < t.replays) {
            println!(
                "    state {} reproduced {} of {} times: its test is marked flaky",
                test.fss + 1,
                test.reproduced,
                test.replays
            );
        }
    }
    println!("Results in {}.", outcome.json.display());
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
        let count = |level| r.findings.iter().filter(|f| f.severity == level).count();
        println!(
            "{} findings ({} errors, {} warnings, {} info):",
            r.findings.len(),
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info)
        );
    }
    for f in &r.findings {
        let kind = f.kind.as_str();
        println!(
            "  #{} [{}] {kind}: {}",
            f.id.0,
            f.severity.as_str(),
            f.title()
        );
        for l in &f.links {
            println!(
                "     link {:?} on {} -> {} (HTTP {})",
                l.text, l.page, l.url, l.status
            );
        }
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
        match f.reproduced {
            Some(true) => println!("     replayed in a fresh browser: reproduced"),
            Some(false) => println!("     replayed in a fresh browser: did NOT reproduce"),
            None => {}
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
