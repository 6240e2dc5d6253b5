//! `curio-bench`: runs each strategy on each subject app with a time budget and several
//! seeds, a freshly started app per run, then replays every finding against the same app,
//! and prints per strategy what was triggered (the app's own record), what was reported
//! (Curio's findings), page kinds reached, actions per minute, the share of wall time
//! spent in Curio's own code, and peak memory.
//!
//! Curio runs as the real `curio` binary, the way users run it, so its memory is its own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Parser;
use curio_record::RunRecord;
use curio_subjects::{FaultSpec, Subject};
use serde::Serialize;

#[derive(Debug, Parser)]
#[command(
    name = "curio-bench",
    about = "Each strategy on each subject app, several seeds: faults triggered and reported"
)]
struct Args {
    /// Subject apps, comma-separated.
    #[arg(long, default_value = "tracker", value_delimiter = ',')]
    subjects: Vec<String>,
    /// Strategies, comma-separated.
    #[arg(
        long,
        default_value = "curious,webexplor,random",
        value_delimiter = ','
    )]
    strategies: Vec<String>,
    /// Seeds, comma-separated.
    #[arg(long, default_value = "1,2,3", value_delimiter = ',')]
    seeds: Vec<u64>,
    /// Time budget per run (e.g. 10m).
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    time: Duration,
    /// Runs at the same time (each with its own app and browser).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Where runs, logs and the summary go.
    #[arg(long, default_value = "bench-out")]
    out: PathBuf,
    /// The curio binary. [default: next to this one]
    #[arg(long)]
    curio: Option<PathBuf>,
    /// More arguments for every `curio explore` (after `--`).
    #[arg(last = true)]
    extra: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
struct RunResult {
    subject: String,
    strategy: String,
    seed: u64,
    faults: usize,
    triggered: Vec<String>,
    reported: Vec<String>,
    findings: usize,
    replayed: usize,
    reproduced: usize,
    page_kinds: u32,
    states: u32,
    actions: u32,
    wall_ms: u64,
    browser_ms: u64,
    replay_ms: u64,
    peak_rss_kb: Option<u64>,
}

impl RunResult {
    fn actions_per_minute(&self) -> f64 {
        self.actions as f64 / (self.wall_ms.max(1) as f64 / 60_000.0)
    }

    /// Share of the loop's wall time not spent awaiting the browser (checking replays
    /// included as browser time: they are page loads and clicks).
    fn own_share(&self) -> f64 {
        let waits = self.browser_ms + self.replay_ms;
        self.wall_ms.saturating_sub(waits) as f64 / self.wall_ms.max(1) as f64
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    let curio = match &args.curio {
        Some(p) => p.clone(),
        None => std::env::current_exe()?
            .with_file_name("curio")
            .canonicalize()
            .context("no curio binary next to curio-bench; build it (cargo build --release -p curio) or pass --curio")?,
    };
    let mut jobs = Vec::new();
    for subject in &args.subjects {
        let subject: Subject = subject
            .parse()
            .map_err(|e| anyhow::anyhow!("--subjects: {e}"))?;
        // Seed-major, so that with --jobs equal to the number of strategies the runs that
        // share the machine are the strategies being compared.
        for seed in &args.seeds {
            for strategy in &args.strategies {
                jobs.push((subject, strategy.clone(), *seed));
            }
        }
    }
    std::fs::create_dir_all(&args.out)?;
    eprintln!(
        "{} runs of {} each, {} at a time: about {} minutes",
        jobs.len(),
        humantime::format_duration(args.time),
        args.jobs,
        (jobs.len() as u64 * (args.time.as_secs() + 60)).div_ceil(args.jobs.max(1) as u64 * 60)
    );
    let semaphore = std::sync::Arc::new(tokio::sync::Semaphore::new(args.jobs.max(1)));
    let mut handles = Vec::new();
    for (subject, strategy, seed) in jobs {
        let permit = semaphore.clone().acquire_owned().await?;
        let curio = curio.clone();
        let out = args.out.clone();
        let extra = args.extra.clone();
        let time = args.time;
        handles.push(tokio::spawn(async move {
            let r = one_run(&curio, subject, &strategy, seed, time, &out, &extra).await;
            drop(permit);
            r
        }));
    }
    let mut results = Vec::new();
    for h in handles {
        match h.await? {
            Ok(r) => {
                eprintln!(
                    "{} {} seed {}: triggered {}/{}, reported {}, {} findings ({} of {} replayed), {:.0} actions/min",
                    r.subject,
                    r.strategy,
                    r.seed,
                    r.triggered.len(),
                    r.faults,
                    r.reported.len(),
                    r.findings,
                    r.reproduced,
                    r.replayed,
                    r.actions_per_minute()
                );
                results.push(r);
            }
            Err(e) => eprintln!("run failed: {e:#}"),
        }
    }
    let summary = args.out.join("results.json");
    std::fs::write(&summary, serde_json::to_string_pretty(&results)?)?;
    print_table(&results, &args);
    println!("Per-run results: {}", summary.display());
    Ok(())
}

async fn one_run(
    curio: &Path,
    subject: Subject,
    strategy: &str,
    seed: u64,
    time: Duration,
    out: &Path,
    extra: &[String],
) -> Result<RunResult> {
    let dir = out.join(format!("{}-{strategy}-{seed}", subject.name()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    let app = curio_subjects::serve(subject).await?;
    let started = Instant::now();
    let status = tokio::process::Command::new(curio)
        .arg("explore")
        .arg(app.base_url())
        .args(["--strategy", strategy, "--seed", &seed.to_string()])
        .arg("--time")
        .arg(format!("{}s", time.as_secs()))
        .arg("--out")
        .arg(&dir)
        .args(extra)
        .env("CI", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dir.join("explore.log"))?)
        .stderr(std::fs::File::create(dir.join("explore.err"))?)
        .status()
        .await?;
    // 0: nothing found, 1: findings. Anything else is a failed run.
    if !matches!(status.code(), Some(0 | 1)) {
        app.shutdown().await;
        bail!(
            "curio explore failed ({status}) after {:.0?}; see {}",
            started.elapsed(),
            dir.join("explore.err").display()
        );
    }
    // Replays go against the same app instance: some findings need objects the run made.
    let replay = tokio::process::Command::new(curio)
        .arg("replay")
        .arg(&dir)
        .env("CI", "1")
        .stdin(Stdio::null())
        .output()
        .await?;
    std::fs::write(dir.join("replay.log"), &replay.stdout)?;
    std::fs::write(dir.join("replay.err"), &replay.stderr)?;
    let truth = app.ground_truth().clone();
    app.shutdown().await;

    let record = RunRecord::read_json(&dir.join("record.json"))?;
    let replay_text = String::from_utf8_lossy(&replay.stdout);
    let reproduced = replay_text
        .lines()
        .filter(|l| l.starts_with("finding #") && l.contains(": reproduced"))
        .count();
    let triggered: BTreeSet<String> = truth.triggered_ids();
    let reported = truth
        .faults()
        .iter()
        .filter(|f| is_reported(f, &record))
        .map(|f| f.id.to_string())
        .collect();
    let summary = record.summary.clone().unwrap_or_default();
    Ok(RunResult {
        subject: subject.name().to_string(),
        strategy: strategy.to_string(),
        seed,
        faults: truth.faults().len(),
        triggered: triggered.into_iter().collect(),
        reported,
        findings: record.findings.len(),
        replayed: record.findings.len(),
        reproduced,
        page_kinds: summary.stats.page_kinds,
        states: summary.states,
        actions: summary.stats.actions,
        wall_ms: summary.stats.wall_ms,
        browser_ms: summary.stats.browser_ms,
        replay_ms: summary.stats.replay_ms,
        peak_rss_kb: summary.stats.peak_rss_kb,
    })
}

/// A seeded fault counts as reported when one of Curio's findings carries its marker (a
/// piece of its message, URL or script location that no other failure has).
fn is_reported(fault: &FaultSpec, record: &RunRecord) -> bool {
    record.findings.iter().any(|f| {
        f.message.contains(fault.marker)
            || f.url.contains(fault.marker)
            || f.source
                .as_ref()
                .is_some_and(|s| s.url.contains(fault.marker))
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn print_table(results: &[RunResult], args: &Args) {
    for subject in &args.subjects {
        let of_subject: Vec<&RunResult> =
            results.iter().filter(|r| &r.subject == subject).collect();
        let Some(first) = of_subject.first() else {
            continue;
        };
        println!(
            "\n{subject}: {} seeded faults, {} per run, seeds {:?} (medians over seeds)",
            first.faults,
            humantime::format_duration(args.time),
            args.seeds
        );
        println!(
            "{:<10} {:>9} {:>8} {:>10} {:>7} {:>11} {:>9} {:>10} {:>9}",
            "strategy",
            "triggered",
            "reported",
            "page kinds",
            "states",
            "actions/min",
            "own time",
            "replayed",
            "peak RSS"
        );
        let mut per_fault: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
        for strategy in &args.strategies {
            let runs: Vec<&&RunResult> = of_subject
                .iter()
                .filter(|r| &r.strategy == strategy)
                .collect();
            if runs.is_empty() {
                continue;
            }
            for r in &runs {
                for id in &r.triggered {
                    *per_fault
                        .entry(id.clone())
                        .or_default()
                        .entry(strategy.clone())
                        .or_default() += 1;
                }
            }
            let m = |f: &dyn Fn(&RunResult) -> f64| median(runs.iter().map(|r| f(r)).collect());
            let replayed: usize = runs.iter().map(|r| r.replayed).sum();
            let reproduced: usize = runs.iter().map(|r| r.reproduced).sum();
            let peak = runs.iter().filter_map(|r| r.peak_rss_kb).max().unwrap_or(0);
            println!(
                "{:<10} {:>9} {:>8} {:>10} {:>7} {:>11.0} {:>8.1}% {:>10} {:>6} MB",
                strategy,
                m(&|r| r.triggered.len() as f64),
                m(&|r| r.reported.len() as f64),
                m(&|r| r.page_kinds as f64),
                m(&|r| r.states as f64),
                m(&|r| r.actions_per_minute()),
                100.0 * m(&|r| r.own_share()),
                format!("{reproduced}/{replayed}"),
                peak / 1024
            );
        }
        println!("faults triggered, in how many of the seeds:");
        for (fault, by) in per_fault {
            let cells: Vec<String> = args
                .strategies
                .iter()
                .map(|s| format!("{s} {}", by.get(s).copied().unwrap_or(0)))
                .collect();
            println!("  {fault:<32} {}", cells.join("  "));
        }
    }
}
