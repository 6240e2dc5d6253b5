//! `curio-forms-bench`: runs `curio forms` on every form of the forms gallery, each with
//! a freshly started gallery so that the app's record of the Form Submission States it
//! gave belongs to that form alone, for each variant (everything on, and FormNexus'
//! ablations: no relation graph, no feedback loop, no negation, no probes) and seed.
//!
//! With a model (`--llm-local GGUF`, or `--llm-url` and `--llm-model`) the `llm`
//! variants compare the built-in rules with rules plus the model, the model alone
//! (FormNexus' own way), and the paper's prompt ablations: no FERG context, no date, no
//! form context, no feedback.
//!
//! Per form and overall it prints, as FormNexus defines them: FSS coverage (the share of
//! the form's ground-truth states the app recorded giving) and passing rate (the share
//! of forms Curio got a successful submission through), with submissions and seconds per
//! form, and how many of the exported tests reproduced on every replay.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Parser;
use curio_subjects::{GALLERY_FORMS, GalleryForm, Subject};
use serde::Serialize;

/// The variants, by name: what each disables. Those named `llm…` ask the model too.
const VARIANTS: [(&str, &[&str]); 13] = [
    ("full", &[]),
    ("no-ferg", &["--disable", "ferg"]),
    ("no-feedback", &["--disable", "feedback"]),
    ("no-negation", &["--disable", "negation"]),
    ("no-probes", &["--disable", "probes"]),
    ("lexical", &["--embedder", "lexical"]),
    ("minilm", &["--embedder", "minilm"]),
    ("llm", &[]),
    ("llm-only", &["--disable", "rules"]),
    ("llm-no-ferg", &["--disable", "prompt-ferg"]),
    ("llm-no-date", &["--disable", "prompt-date"]),
    ("llm-no-form", &["--disable", "prompt-form"]),
    ("llm-no-feedback", &["--disable", "feedback"]),
];

#[derive(Debug, Parser)]
#[command(
    name = "curio-forms-bench",
    about = "curio forms on every gallery form: FSS coverage, passing rate, time per form"
)]
struct Args {
    /// Variants, comma-separated: full, no-ferg, no-feedback, no-negation, no-probes,
    /// lexical, minilm (the FERG's text embedder), and with a model llm (rules and
    /// model), llm-only (the model alone), llm-no-ferg, llm-no-date, llm-no-form,
    /// llm-no-feedback.
    #[arg(long, default_value = "full", value_delimiter = ',')]
    variants: Vec<String>,
    /// The GGUF model the `llm` variants run in process (a curio built with the
    /// local-llm feature).
    #[arg(long, value_name = "GGUF")]
    llm_local: Option<PathBuf>,
    /// The OpenAI-compatible server the `llm` variants ask, instead of --llm-local.
    #[arg(long, value_name = "URL")]
    llm_url: Option<String>,
    /// The model at --llm-url.
    #[arg(long, value_name = "NAME")]
    llm_model: Option<String>,
    /// Seeds, comma-separated.
    #[arg(long, default_value = "1", value_delimiter = ',')]
    seeds: Vec<u64>,
    /// Only these gallery forms (ids), comma-separated; all when empty.
    #[arg(long, value_delimiter = ',')]
    forms: Vec<String>,
    /// Replays of each state's test (Curio's own replay before it writes the test).
    #[arg(long, default_value_t = 5)]
    replays: u32,
    /// Where runs and the summary go.
    #[arg(long, default_value = "bench-forms-out")]
    out: PathBuf,
    /// The curio binary. [default: next to this one]
    #[arg(long)]
    curio: Option<PathBuf>,
}

#[derive(Debug, Clone, Serialize)]
struct FormRun {
    variant: String,
    seed: u64,
    form: String,
    category: String,
    /// Ground-truth states of the form, and those the app recorded giving.
    states: usize,
    covered: Vec<String>,
    missed: Vec<String>,
    /// Whether the app recorded one of the form's success states.
    passed: bool,
    /// States Curio told apart, and tests that reproduced on every replay.
    curio_states: usize,
    tests_reproduced: usize,
    submissions: usize,
    session_seconds: f64,
    wall_seconds: f64,
    /// Prompt and answer tokens the model used for this form (none from a cache: every
    /// run starts with an empty store).
    tokens: u64,
}

impl FormRun {
    fn coverage(&self) -> f64 {
        self.covered.len() as f64 / self.states.max(1) as f64
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
            .context("no curio binary next to curio-forms-bench; build it (cargo build --release -p curio) or pass --curio")?,
    };
    let forms: Vec<&GalleryForm> = GALLERY_FORMS
        .iter()
        .filter(|f| args.forms.is_empty() || args.forms.iter().any(|id| id == f.id))
        .collect();
    if forms.is_empty() {
        bail!("--forms names no gallery form (known: {})", form_ids());
    }
    for v in &args.variants {
        if !VARIANTS.iter().any(|(name, _)| name == v) {
            bail!(
                "unknown variant {v:?} (known: {})",
                VARIANTS.map(|(n, _)| n).join(", ")
            );
        }
        if v.starts_with("llm") && model_args(&args).is_empty() {
            bail!(
                "variant {v} needs a model: --llm-local GGUF (scripts/fetch-smollm2), or --llm-url and --llm-model"
            );
        }
    }
    if let Some(path) = args.llm_local.as_ref().filter(|p| !p.is_file()) {
        bail!(
            "--llm-local {}: no such file (scripts/fetch-smollm2 installs SmolLM2-135M-Instruct)",
            path.display()
        );
    }
    std::fs::create_dir_all(&args.out)?;
    let mut runs = Vec::new();
    for variant in &args.variants {
        for seed in &args.seeds {
            for form in &forms {
                match one_form(&curio, &args, variant, *seed, form).await {
                    Ok(r) => {
                        eprintln!(
                            "{variant} seed {seed} {}: {}/{} states, {}, {} submissions, {:.1} s",
                            r.form,
                            r.covered.len(),
                            r.states,
                            if r.passed { "passed" } else { "NOT passed" },
                            r.submissions,
                            r.session_seconds
                        );
                        runs.push(r);
                    }
                    Err(e) => eprintln!("{variant} seed {seed} {}: failed: {e:#}", form.id),
                }
            }
        }
    }
    let summary = args.out.join("results.json");
    std::fs::write(&summary, serde_json::to_string_pretty(&runs)?)?;
    print_tables(&runs, &args);
    println!("Per-form results: {}", summary.display());
    Ok(())
}

fn form_ids() -> String {
    GALLERY_FORMS
        .iter()
        .map(|f| f.id)
        .collect::<Vec<_>>()
        .join(", ")
}

async fn one_form(
    curio: &Path,
    args: &Args,
    variant: &str,
    seed: u64,
    form: &GalleryForm,
) -> Result<FormRun> {
    let dir = args.out.join(format!("{variant}-{seed}-{}", form.id));
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    std::fs::create_dir_all(&dir)?;
    let app = curio_subjects::serve(Subject::Gallery).await?;
    let url = app.url(form.path);
    let mut cmd = tokio::process::Command::new(curio);
    cmd.arg("forms")
        .arg(&url)
        .arg("--out")
        .arg(&dir)
        .arg("--seed")
        .arg(seed.to_string())
        .arg("--replays")
        .arg(args.replays.to_string());
    let extra = VARIANTS
        .iter()
        .find(|(n, _)| *n == variant)
        .map(|(_, a)| *a)
        .unwrap_or_default();
    cmd.args(extra);
    if variant.starts_with("llm") {
        cmd.args(model_args(args));
    }
    let log = std::fs::File::create(dir.join("curio.log"))?;
    let started = Instant::now();
    let status = cmd
        .env("CI", "1")
        .stdout(Stdio::null())
        .stderr(log)
        .status()
        .await
        .with_context(|| format!("running {}", curio.display()))?;
    let wall_seconds = started.elapsed().as_secs_f64();
    let hit = app.ground_truth().triggered_ids();
    let own: Vec<_> = Subject::Gallery
        .states()
        .iter()
        .filter(|s| s.form == form.id)
        .collect();
    app.shutdown().await;
    // 1: some state did not reproduce on every replay, which the table shows.
    if !matches!(status.code(), Some(0 | 1)) {
        bail!(
            "curio forms exited with {status}; see {}",
            dir.join("curio.log").display()
        );
    }
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("forms.json")).context("reading forms.json")?,
    )?;
    let result = json["forms"]
        .get(0)
        .context("forms.json has no form")?
        .clone();
    let tests = result["tests"].as_array().cloned().unwrap_or_default();
    let tests_reproduced = tests
        .iter()
        .filter(|t| t["reproduced"] == t["replays"])
        .count();
    Ok(FormRun {
        variant: variant.to_string(),
        seed,
        form: form.id.to_string(),
        category: form.category.name().to_string(),
        states: own.len(),
        covered: own
            .iter()
            .filter(|s| hit.contains(s.id))
            .map(|s| s.id.to_string())
            .collect(),
        missed: own
            .iter()
            .filter(|s| !hit.contains(s.id))
            .map(|s| s.id.to_string())
            .collect(),
        passed: own.iter().any(|s| s.success && hit.contains(s.id)),
        curio_states: result["report"]["fss"].as_array().map_or(0, Vec::len),
        tests_reproduced,
        submissions: result["report"]["submissions"].as_u64().unwrap_or(0) as usize,
        session_seconds: result["session_seconds"].as_f64().unwrap_or(0.0),
        wall_seconds,
        tokens: ["prompt_tokens", "completion_tokens"]
            .iter()
            .map(|k| result["llm"][k].as_u64().unwrap_or(0))
            .sum(),
    })
}

/// The model flags for `curio forms`; empty when no model was given.
fn model_args(args: &Args) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(path) = &args.llm_local {
        out.push("--llm-local".to_string());
        out.push(path.display().to_string());
    } else if let (Some(url), Some(model)) = (&args.llm_url, &args.llm_model) {
        out.extend(["--llm-url".to_string(), url.clone()]);
        out.extend(["--llm-model".to_string(), model.clone()]);
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn print_tables(runs: &[FormRun], args: &Args) {
    let first = args.variants.first().map(String::as_str).unwrap_or("full");
    println!("\nPer form ({first}, all seeds):");
    println!(
        "{:<12} {:<13} {:>9} {:>7} {:>7} {:>8} {:>9}  missed",
        "form", "category", "coverage", "passed", "tests", "submits", "seconds"
    );
    for r in runs.iter().filter(|r| r.variant == first) {
        println!(
            "{:<12} {:<13} {:>4}/{:<4} {:>7} {:>3}/{:<3} {:>8} {:>9.1}  {}",
            r.form,
            r.category,
            r.covered.len(),
            r.states,
            if r.passed { "yes" } else { "no" },
            r.tests_reproduced,
            r.curio_states,
            r.submissions,
            r.session_seconds,
            r.missed.join(" ")
        );
    }
    if args.variants.len() > 1 {
        println!("\nStates covered per form and variant (summed over seeds):");
        print!("{:<12}", "form");
        for v in &args.variants {
            print!(" {v:>16}");
        }
        println!();
        let mut forms: Vec<&str> = Vec::new();
        for r in runs {
            if !forms.contains(&r.form.as_str()) {
                forms.push(&r.form);
            }
        }
        for form in forms {
            print!("{form:<12}");
            for v in &args.variants {
                let rs: Vec<&FormRun> = runs
                    .iter()
                    .filter(|r| r.form == form && r.variant == *v)
                    .collect();
                let covered: usize = rs.iter().map(|r| r.covered.len()).sum();
                let states: usize = rs.iter().map(|r| r.states).sum();
                print!(" {:>16}", format!("{covered}/{states}"));
            }
            println!();
        }
    }
    println!("\nOverall (mean FSS coverage over forms, passing rate, medians per form):");
    println!(
        "{:<16} {:>6} {:>13} {:>12} {:>16} {:>14} {:>16} {:>13}",
        "variant",
        "forms",
        "FSS coverage",
        "passing",
        "tests reproduced",
        "submissions",
        "seconds/form",
        "tokens/form"
    );
    let mut by_variant: BTreeMap<&str, Vec<&FormRun>> = BTreeMap::new();
    for r in runs {
        by_variant.entry(&r.variant).or_default().push(r);
    }
    for v in &args.variants {
        let Some(rs) = by_variant.get(v.as_str()) else {
            continue;
        };
        let n = rs.len().max(1) as f64;
        let coverage = rs.iter().map(|r| r.coverage()).sum::<f64>() / n;
        let passing = rs.iter().filter(|r| r.passed).count() as f64 / n;
        let tests: usize = rs.iter().map(|r| r.curio_states).sum();
        let reproduced: usize = rs.iter().map(|r| r.tests_reproduced).sum();
        println!(
            "{:<16} {:>6} {:>12.1}% {:>11.1}% {:>10}/{:<5} {:>14.0} {:>16.1} {:>13.0}",
            v,
            rs.len(),
            coverage * 100.0,
            passing * 100.0,
            reproduced,
            tests,
            median(rs.iter().map(|r| r.submissions as f64).collect()),
            median(rs.iter().map(|r| r.session_seconds).collect()),
            median(rs.iter().map(|r| r.tokens as f64).collect()),
        );
    }
}
