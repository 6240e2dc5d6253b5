//! `curio forms`: every form on one page tested as FormNexus does. For each form: its
//! FERG, the constraints inferred from markup, semantics and relations, then the
//! form-testing state machine of `curio-forms` asks for submissions, each made here in a
//! fresh browser context (fill, submit, read every feedback channel), until its budget
//! is spent. Every Form Submission State found is replayed before it becomes a test.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use curio_browser::{Browser, BrowserConfig, BrowserError, Outcome, Tab, UserAction};
use curio_forms::feedback::{
    Channel, Feedback, Outcome as FeedbackOutcome, attach_by_layout, classify,
};
use curio_forms::prompt::{
    CONSTRAINT_SYSTEM, PromptParts, Refusal, VALUE_SYSTEM, constraint_grammar, constraint_prompt,
    feedback_prompt, proposals, value_from_answer, value_grammar, value_prompt,
};
use curio_forms::session::{FormReport, FormSession, Purpose, SessionConfig};

use crate::solved::Accepted;
use curio_forms::testing::{FieldState, Observation, field_refs};
use curio_forms::{
    ConstraintSolver, Dictionary, Ferg, FieldValue, HeuristicFiller, LexicalEmbedder, TextEmbedder,
    examples, infer,
};
use curio_llm::{LlmClient, LlmConfig, Message, ResponseCache, Usage};
use curio_minilm::MiniLmEmbedder;
use curio_page::{DomSnapshot, Field, Form, Page, Rect, form_dom};
use curio_record::{
    ConstraintRecord, FormFieldRecord, FormRecord, FssRecord, ObservationKind, RunMeta, RunRecord,
    RunStats, RunSummary, Step, Store,
};
use serde::Serialize;

use crate::endpoint_embed::EndpointEmbedder;
use crate::explore::{RunError, goto, today};
use crate::findings::is_finding;
use crate::forms_export;
use crate::forms_js::{self, Read, TEXTS_ONLY, WATCH};
use crate::login::{Login, log_in};
use crate::replay::{RADIO_BY_VALUE, user_action};
use crate::strategy::{kept_value, step_of, with_checked};
use curio_report::{TestFormat, form_test_files, write_tests};

/// How `curio forms` runs.
#[derive(Debug, Clone)]
pub struct FormsConfig {
    /// The page whose forms are tested.
    pub url: String,
    pub browser: BrowserConfig,
    pub seed: u64,
    pub dictionary: Dictionary,
    pub session: SessionConfig,
    /// Times each Form Submission State is submitted again before it becomes a test;
    /// a test is marked flaky unless every replay gives the same state.
    pub replays: u32,
    /// Only the forms whose index (0-based, in page order) is listed; all when empty.
    pub only: Vec<usize>,
    pub out_dir: PathBuf,
    /// Read each field's context from the Form Entity Relation Graph (its hints, and
    /// messages attached by it); without, only the field's own label and placeholder,
    /// and messages attached by layout alone (the ablation of FormNexus' Table 4).
    pub use_ferg: bool,
    /// How the FERG compares texts.
    pub embedder: Embedder,
    /// A language model to ask for each field's constraints, besides the built-in rules;
    /// its answers are cached in `out_dir/runs.db`.
    pub llm: Option<LlmConfig>,
    /// What the model's prompts give it (FormNexus' prompt ablations).
    pub prompt: PromptParts,
    /// Infer constraints with the built-in rules; without, the model's alone (FormNexus'
    /// own way, for comparison).
    pub rules: bool,
    /// How to log in before loading the page and before each submission.
    pub login: Option<Login>,
}

/// The text embedder of the FERG.
#[derive(Debug, Clone)]
pub enum Embedder {
    /// Words and character n-grams (`curio_forms::LexicalEmbedder`): always there.
    Lexical,
    /// all-MiniLM-L6-v2 (`curio_minilm`), from the directory `scripts/fetch-minilm`
    /// fills; without it, the lexical embedder, with a note saying so.
    MiniLm,
    /// An OpenAI-compatible `/embeddings` endpoint and model (`--embedder llm`), its
    /// answers cached in the run store; without it, the lexical embedder, with a note.
    Endpoint(LlmConfig),
}

impl Embedder {
    /// The embedder to use, and a note when the one asked for could not be loaded.
    async fn load(
        &self,
        out_dir: &std::path::Path,
    ) -> (Box<dyn TextEmbedder + Send + Sync>, Option<String>) {
        match self {
            Embedder::Endpoint(config) => {
                let cache = ResponseCache::open(&out_dir.join("runs.db")).ok();
                let connected = match LlmClient::new(config.clone(), cache) {
                    Ok(client) => EndpointEmbedder::connect(client, &config.model).await,
                    Err(e) => Err(e.to_string()),
                };
                match connected {
                    Ok(embedder) => (Box::new(embedder), None),
                    Err(e) => (
                        Box::new(LexicalEmbedder),
                        Some(format!("{e}; using the lexical embedder")),
                    ),
                }
            }
            Embedder::Lexical => (Box::new(LexicalEmbedder), None),
            Embedder::MiniLm => match MiniLmEmbedder::load(&MiniLmEmbedder::default_dir()) {
                Ok(m) => (Box::new(m), None),
                Err(e) => (
                    Box::new(LexicalEmbedder),
                    Some(format!("{e}; using the lexical embedder")),
                ),
            },
        }
    }
}

/// Progress, as it happens.
#[derive(Debug, Clone)]
pub enum FormsEvent {
    /// Form `form` (index on the page) is being tested.
    Form {
        form: usize,
        title: String,
        fields: usize,
        constraints: usize,
    },
    /// Something the user should know once: the embedder asked for is not installed.
    Note(String),
    /// One submission and the state it reached.
    Submitted {
        form: usize,
        purpose: String,
        signature: String,
        new_state: bool,
    },
}

/// One step of a form test: a field given a value, by its index in the form.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fill {
    pub field: usize,
    pub value: FieldValue,
}

/// A Form Submission State made into a test, with what its replays showed.
#[derive(Debug, Clone, Serialize)]
pub struct FssTest {
    /// Index into the report's `fss`.
    pub fss: usize,
    pub fills: Vec<Fill>,
    /// Where the submission led; the expectation of a successful one that navigates.
    pub url_after: String,
    pub replays: u32,
    /// Replays that reached the same state.
    pub reproduced: u32,
    /// What the replays that did not reach it got instead (their signatures, or why the
    /// submission could not be made).
    pub mismatches: Vec<String>,
}

/// Everything learnt about one form.
#[derive(Debug, Clone, Serialize)]
pub struct FormResult {
    /// Index of the form on the page.
    pub index: usize,
    pub title: String,
    pub form: Form,
    /// The name each field has in constraints, by field index.
    pub refs: Vec<String>,
    /// What the FERG attached to each field, best first.
    pub context: Vec<Vec<String>>,
    pub inferred: Vec<InferredRule>,
    pub report: FormReport,
    pub tests: Vec<FssTest>,
    /// Attempts that could not be made or read (a submit button that does nothing, a
    /// page gone mid-fill), with what happened; the form's testing went on.
    pub problems: Vec<String>,
    /// Wall time of the whole test of the form, replays included.
    pub seconds: f64,
    /// Wall time until the session was over: inference, every submission, feedback.
    pub session_seconds: f64,
    /// What the language model was asked and answered, when one was used.
    pub llm: Option<LlmUse>,
}

/// A constraint as inferred, before the form had its say.
#[derive(Debug, Clone, Serialize)]
pub struct InferredRule {
    pub constraint: String,
    /// `rules` (built in) or `llm` (proposed by the model).
    pub source: String,
}

/// What asking the model cost for one form.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LlmUse {
    /// Fields asked about.
    pub asked: usize,
    /// Constraints proposed that were new, about the field asked, and readable.
    pub proposed: usize,
    /// Constraints written that could not be used (unreadable, about another field,
    /// repeats of known rules).
    pub rejected: usize,
    /// Values the model proposed for text fields (the value prompt), the solver's first
    /// guesses.
    pub values: usize,
    /// Constraints added after a refused submission, from the model told the feedback.
    pub after_feedback: usize,
    pub requests: u64,
    pub cache_hits: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

/// What `curio forms` found on the page.
#[derive(Debug, Clone, Serialize)]
pub struct FormsOutcome {
    pub url: String,
    pub browser: String,
    /// The text embedder the FERG used (`lexical`, `minilm`).
    pub embedder: String,
    pub forms: Vec<FormResult>,
    /// Where the results were written.
    #[serde(skip)]
    pub json: PathBuf,
    /// The run as recorded in `out_dir/runs.db` and exported to `out_dir/record.json`,
    /// what reports are made from.
    #[serde(skip)]
    pub record: RunRecord,
}

/// Tests every form on `config.url`. A page without a form is an error (`NoForms`); an
/// attempt that goes wrong is recorded in the form's `problems` and the testing goes on.
pub async fn test_forms(
    config: FormsConfig,
    on_event: &mut (dyn FnMut(FormsEvent) + Send),
) -> Result<FormsOutcome, RunError> {
    std::fs::create_dir_all(&config.out_dir).map_err(|source| RunError::Output {
        path: config.out_dir.clone(),
        source,
    })?;
    // Opened before the model's answer cache adds its table to the same file.
    let mut store = Store::open(&config.out_dir.join("runs.db"))?;
    let (embedder, note) = config.embedder.load(&config.out_dir).await;
    if let Some(note) = note {
        on_event(FormsEvent::Note(note));
    }
    let llm = match &config.llm {
        Some(llm) => connect_llm(llm, &config.out_dir, on_event).await,
        None => None,
    };
    let browser = Browser::start(config.browser.clone()).await?;
    let helpers = Helpers {
        embedder: embedder.as_ref(),
        llm: llm.as_ref(),
    };
    let started_at_ms = crate::explore::now_ms();
    let run_id = store.begin_run(&RunMeta {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        start_url: config.url.clone(),
        strategy: "forms".to_string(),
        seed: config.seed,
        browser_version: browser.version().to_string(),
        started_at_ms,
        config: serde_json::json!({
            "replays": config.replays,
            "only": config.only,
            "use_ferg": config.use_ferg,
            "embedder": embedder.name(),
            "llm": config.llm.as_ref().map(|l| l.model.clone()),
        }),
    });
    let result = run(&browser, &config, helpers, on_event).await;
    let browser_version = browser.version().to_string();
    browser.close().await;
    let run_id = run_id?;
    let forms = result?;
    let mut outcome = FormsOutcome {
        url: config.url.clone(),
        browser: browser_version,
        embedder: embedder.name().to_string(),
        forms,
        json: config.out_dir.join("forms.json"),
        record: RunRecord::default(),
    };
    for form in &outcome.forms {
        store.add_form(run_id, &form_record(&config.url, form))?;
    }
    let finished_at_ms = crate::explore::now_ms();
    store.finish_run(
        run_id,
        &RunSummary {
            finished_at_ms,
            stop_reason: "done".to_string(),
            stats: RunStats {
                wall_ms: finished_at_ms.saturating_sub(started_at_ms),
                ..RunStats::default()
            },
            ..RunSummary::default()
        },
    )?;
    outcome.record = store.load_run(run_id)?;
    outcome
        .record
        .write_json(&config.out_dir.join("record.json"))?;
    let tests = config.out_dir.join("tests");
    for format in TestFormat::ALL {
        write_tests(&outcome.record, format, &tests).map_err(|e| RunError::Output {
            path: tests.clone(),
            source: std::io::Error::other(e.to_string()),
        })?;
    }
    let text = serde_json::to_string_pretty(&outcome).unwrap_or_default();
    std::fs::write(&outcome.json, text).map_err(|source| RunError::Output {
        path: outcome.json.clone(),
        source,
    })?;
    Ok(outcome)
}

/// What the record keeps of a tested form.
fn form_record(url: &str, form: &FormResult) -> FormRecord {
    let report = &form.report;
    let names: Vec<String> = report
        .constraints
        .iter()
        .map(|c| c.constraint.clone())
        .collect();
    let name_of = |field: Option<usize>| {
        field
            .and_then(|i| form.refs.get(i).cloned())
            .unwrap_or_default()
    };
    let mut record = FormRecord {
        page_url: url.to_string(),
        index: form.index as u32,
        title: form.title.clone(),
        fields: form
            .form
            .fields
            .iter()
            .zip(&form.refs)
            .map(|(f, name)| FormFieldRecord {
                name: name.clone(),
                locator: f.target.locator.clone(),
                kind: f.input_type.clone(),
            })
            .collect(),
        constraints: report
            .constraints
            .iter()
            .map(|c| ConstraintRecord {
                constraint: c.constraint.clone(),
                verdict: format!("{:?}", c.verdict).to_lowercase(),
                source: match c.origin {
                    curio_forms::session::Origin::Feedback => "feedback".to_string(),
                    curio_forms::session::Origin::Model => "llm".to_string(),
                    curio_forms::session::Origin::Given => form
                        .inferred
                        .iter()
                        .find(|r| r.constraint == c.constraint)
                        .map_or("rules", |r| r.source.as_str())
                        .to_string(),
                },
                fss: c.fss.map(|n| n as u32),
            })
            .collect(),
        fss: report
            .fss
            .iter()
            .enumerate()
            .map(|(n, fss)| {
                let test = form.tests.iter().find(|t| t.fss == n);
                FssRecord {
                    script: test.map(|t| forms_export::script(url, form, t)),
                    outcome: format!("{:?}", fss.outcome).to_lowercase(),
                    signature: fss.signature.clone(),
                    messages: fss
                        .messages
                        .iter()
                        .map(|m| (name_of(m.field), m.text.clone()))
                        .collect(),
                    values: fss
                        .values
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (name_of(Some(i)), v.as_string()))
                        .collect(),
                    purpose: describe(&fss.purpose, &names),
                    tests: Vec::new(),
                    replays: test.map_or(0, |t| t.replays),
                    reproduced: test.map_or(0, |t| t.reproduced),
                }
            })
            .collect(),
        submissions: report.submissions as u32,
        reached: report.reached,
        problems: form.problems.clone(),
        seconds: form.seconds,
    };
    let files = form_test_files(&record).map(|f| format!("tests/{f}"));
    for fss in &mut record.fss {
        if fss.script.is_some() {
            fss.tests = files.to_vec();
        }
    }
    record
}

/// The model at `config`, checked: `None`, with a note saying why, when it cannot be
/// used; the run then goes on with the built-in rules alone.
async fn connect_llm(
    config: &LlmConfig,
    out_dir: &std::path::Path,
    on_event: &mut (dyn FnMut(FormsEvent) + Send),
) -> Option<LlmClient> {
    let mut note = |n: String| on_event(FormsEvent::Note(n));
    connect_model(config, &out_dir.join("runs.db"), &mut note, "going on").await
}

/// The model at `config` with its answers cached in the run store `store`, checked;
/// `None` when it cannot be used, with a note saying why and that the run is `going on`
/// with the built-in rules alone.
pub(crate) async fn connect_model(
    config: &LlmConfig,
    store: &std::path::Path,
    note: &mut (dyn FnMut(String) + Send),
    going_on: &str,
) -> Option<LlmClient> {
    let cache = match ResponseCache::open(store) {
        Ok(c) => Some(c),
        Err(e) => {
            note(format!("{e}; model answers are not cached"));
            None
        }
    };
    let checked = match LlmClient::new(config.clone(), cache) {
        Ok(client) => client.check().await.map(|()| client),
        Err(e) => Err(e),
    };
    match checked {
        Ok(client) => Some(client),
        Err(e) => {
            note(format!("{e}; {going_on} with the built-in rules alone"));
            None
        }
    }
}

/// What helps read a form besides the page: the text embedder and, when there is one,
/// a language model.
#[derive(Clone, Copy)]
struct Helpers<'a> {
    embedder: &'a (dyn TextEmbedder + Send + Sync),
    llm: Option<&'a LlmClient>,
}

async fn run(
    browser: &Browser,
    config: &FormsConfig,
    helpers: Helpers<'_>,
    on_event: &mut (dyn FnMut(FormsEvent) + Send),
) -> Result<Vec<FormResult>, RunError> {
    let browser_error = |source| RunError::Browser {
        url: config.url.clone(),
        source,
    };
    let mut tab = browser.new_tab().await.map_err(browser_error)?;
    if let Some(login) = &config.login
        && let Err(source) = log_in(&mut tab, login).await
    {
        tab.close().await;
        return Err(RunError::Login {
            url: config.url.clone(),
            source,
        });
    }
    let loaded = tab.goto(&config.url).await.map_err(browser_error)?;
    if let Some(reason) = unreachable(&loaded) {
        tab.close().await;
        return Err(RunError::Unreachable {
            url: config.url.clone(),
            reason,
        });
    }
    let capture = tab.snapshot().await.map_err(browser_error);
    tab.close().await;
    let capture = capture?;
    let page = Page::from_snapshot(&capture.snapshot);
    let testable: Vec<usize> = page
        .forms
        .iter()
        .enumerate()
        .filter(|(i, f)| {
            !f.fields.is_empty() && (config.only.is_empty() || config.only.contains(i))
        })
        .map(|(i, _)| i)
        .collect();
    if testable.is_empty() {
        return Err(RunError::NoForms {
            url: config.url.clone(),
        });
    }
    let mut results = Vec::new();
    for index in testable {
        let form = FormUnderTest {
            page: &page,
            snapshot: &capture.snapshot,
            index,
            helpers,
        };
        let result = test_form(browser, config, form, on_event)
            .await
            .map_err(browser_error)?;
        results.push(result);
    }
    Ok(results)
}

/// Why a first load failed, if it did.
fn unreachable(outcome: &Outcome) -> Option<String> {
    if let Some(e) = &outcome.navigation_error {
        return Some(e.clone());
    }
    let status = outcome
        .responses
        .iter()
        .find(|r| r.resource_type == "Document" && r.url == outcome.url_after)
        .map(|r| r.status);
    match status {
        Some(s) if s >= 400 => Some(format!("HTTP {s}")),
        _ => None,
    }
}

/// The form's answer in `obs`: messages attached to fields by layout, else by the FERG.
/// The FERG holds the places of the page it was built on: a message is moved back by as
/// much as the form moved since (entries added above it), so that it meets them.
fn judge(form: &Form, obs: &Observation, ferg: Option<&Ferg>) -> Feedback {
    let layout = attach_by_layout(form, &obs.fields);
    let (dx, dy) = form
        .fields
        .iter()
        .zip(&obs.fields)
        .map(|(then, now)| (then.target.rect, now.rect))
        .find(|(then, now)| then.has_area() && now.has_area())
        .map_or((0.0, 0.0), |(then, now)| (now.x - then.x, now.y - then.y));
    let attach = |text: &str, rect: Rect| {
        layout(text, rect).or_else(|| ferg.and_then(|g| g.attach(text, rect.shifted(-dx, -dy))))
    };
    classify(form, obs, &attach)
}

/// Most submissions the explorer spends reaching a successful submission of one form.
pub(crate) const EXPLORE_SESSION_SUBMISSIONS: usize = 6;

/// Most submissions after that: the form's numbers below zero and its numbers typed as
/// text given letters, one field at a time.
const EXPLORE_SESSION_EDGES: usize = 2;

/// What a form session inside `explore` works with.
#[derive(Clone, Copy)]
pub(crate) struct SessionTools<'a> {
    pub browser: &'a Browser,
    pub llm: Option<&'a LlmClient>,
    /// When the session stops (between submissions), keeping what it found.
    pub deadline: Instant,
}

/// Values that get form `index` of `page` accepted: a form-testing session that only
/// reaches a success, learning the rules from the form's messages, then sends its numbers
/// below zero and letters in its numbers typed as text (at most
/// [`EXPLORE_SESSION_EDGES`]), each submission in a
/// fresh context that loads `url` and takes the `reveal` steps (opening the dialog the
/// form is in) before filling it. The failures its submissions provoked come back too.
pub(crate) async fn solve_form(
    tools: SessionTools<'_>,
    (url, reveal): (&str, &[Step]),
    page: &Page,
    snapshot: &DomSnapshot,
    index: usize,
    run: &crate::config::RunConfig,
    seed: u64,
) -> Result<FormSolved, BrowserError> {
    let deadline = tools.deadline;
    let (dictionary, login) = (&run.dictionary, run.login.as_ref());
    let form = page.forms[index].clone();
    let dom = form_dom(snapshot, page, form.id);
    let ferg = Ferg::build(&form, &dom, &LexicalEmbedder, seed);
    let (y, m, d) = today();
    let today_text = format!("{y:04}-{m:02}-{d:02}");
    let config = SessionConfig {
        max_submissions: EXPLORE_SESSION_SUBMISSIONS + EXPLORE_SESSION_EDGES,
        // With a model, half for the rules and half for the model's turn.
        max_reach: if tools.llm.is_some() {
            EXPLORE_SESSION_SUBMISSIONS / 2
        } else {
            EXPLORE_SESSION_SUBMISSIONS
        },
        refine: true,
        negate: false,
        probe: false,
        edges: true,
        today: Some(today_text.clone()),
    };
    let inferred = infer(&form, Some(&ferg), today());
    // The model's rules and values, when there is one, for its turn if the rules get no
    // success; its problems only cost help.
    let mut proposed = Vec::new();
    let mut guesses = vec![None; form.fields.len()];
    if let Some(client) = tools.llm {
        let parts = PromptParts::default();
        (proposed, _, _) = ask_llm(client, &form, &ferg, &inferred, &today_text, parts).await;
        let known: Vec<_> = inferred.iter().chain(&proposed).cloned().collect();
        (guesses, _) = ask_values(client, &form, &ferg, &known, &today_text, parts).await;
    }
    let mut session = FormSession::new(form.clone(), inferred, config, seed);
    session.add_hypotheses(proposed);
    session.add_model_values(guesses.clone());
    let mut solver = ConstraintSolver::new(HeuristicFiller::new(dictionary.clone(), today()))
        .with_examples(examples(&form, Some(&ferg)));
    let mut submitter = Submitter::new(tools.browser, login);
    submitter.reveal = reveal.to_vec();
    let mut cut = false;
    while let Some(submission) = session.next(&mut solver) {
        // A session has its share of the run's time; what it found so far is kept.
        if Instant::now() >= deadline {
            cut = true;
            break;
        }
        let feedback = match submitter.submit(url, &form, &submission.values).await {
            Ok(Attempt::Observed(obs)) => {
                let feedback = judge(&form, &obs, Some(&ferg));
                if feedback.outcome == FeedbackOutcome::Failure {
                    forget_guesses(&mut solver, &guesses, &feedback);
                }
                feedback
            }
            Ok(Attempt::Failed(_)) => Feedback::unknown(),
            Err(e) => {
                submitter.close().await;
                return Err(e);
            }
        };
        session.observe(feedback);
    }
    let failing = std::mem::take(&mut submitter.failing);
    submitter.close().await;
    // A success; else values the form's checks let through to a server error, which is
    // what exploring wants to reach again.
    let report = session.report();
    let accepted = accepted_values(&report.fss).map(|values| Accepted {
        needed: needed_fields(&report.fss, &values),
        values,
    });
    Ok(FormSolved {
        accepted,
        failing,
        cut,
    })
}

/// The values of a session's first success; else the values it sent to reach one that
/// the form's checks let through to a server error, which is what exploring wants to
/// reach again. Not a probe's: letters in a number that break the server are no way
/// past the form.
fn accepted_values(fss: &[curio_forms::session::Fss]) -> Option<Vec<FieldValue>> {
    let crashed = |s: &&curio_forms::session::Fss| {
        s.purpose == Purpose::Reach
            && s.messages
                .iter()
                .any(|m| matches!(m.channel, Channel::Http(status) if status >= 500))
            && s.messages.iter().all(|m| m.field.is_none())
    };
    fss.iter()
        .find(|s| s.outcome == curio_forms::feedback::Outcome::Success)
        .or_else(|| fss.iter().find(crashed))
        .map(|s| s.values.clone())
}

/// Per field of a form, whether the form asked for its `accepted` value: a message of
/// the session was about the field, or the value is not the session's first guess (a
/// message about the whole form, or placed by the wrong field, made the session change
/// it).
fn needed_fields(fss: &[curio_forms::session::Fss], accepted: &[FieldValue]) -> Vec<bool> {
    let first = fss.first().map(|s| s.values.as_slice()).unwrap_or_default();
    let mut needed: Vec<bool> = accepted
        .iter()
        .enumerate()
        .map(|(i, v)| first.get(i) != Some(v))
        .collect();
    for m in fss.iter().flat_map(|s| &s.messages) {
        if let Some(slot) = m.field.and_then(|f| needed.get_mut(f)) {
            *slot = true;
        }
    }
    needed
}

/// What a form session of `explore` brings back.
pub(crate) struct FormSolved {
    /// Values the form accepted (or let through to a server error).
    pub(crate) accepted: Option<Accepted>,
    /// The submissions that provoked failures of the app, each as its steps from the
    /// page's load with what each step observed: findings like any other.
    pub(crate) failing: Vec<Vec<(Step, Outcome)>>,
    /// The session ran out of its time before its submissions.
    pub(crate) cut: bool,
}

/// One form of the page, and how its texts are compared.
#[derive(Clone, Copy)]
struct FormUnderTest<'a> {
    page: &'a Page,
    snapshot: &'a DomSnapshot,
    index: usize,
    helpers: Helpers<'a>,
}

async fn test_form(
    browser: &Browser,
    config: &FormsConfig,
    under_test: FormUnderTest<'_>,
    on_event: &mut (dyn FnMut(FormsEvent) + Send),
) -> Result<FormResult, BrowserError> {
    let mut submitter = Submitter::new(browser, config.login.as_ref());
    let result = test_form_with(&mut submitter, config, under_test, on_event).await;
    submitter.close().await;
    result
}

async fn test_form_with(
    submitter: &mut Submitter<'_>,
    config: &FormsConfig,
    under_test: FormUnderTest<'_>,
    on_event: &mut (dyn FnMut(FormsEvent) + Send),
) -> Result<FormResult, BrowserError> {
    let started = Instant::now();
    let FormUnderTest {
        page,
        snapshot,
        index,
        helpers,
    } = under_test;
    let form = page.forms[index].clone();
    let refs = field_refs(&form);
    let dom = form_dom(snapshot, page, form.id);
    let ferg = Ferg::build(&form, &dom, helpers.embedder, config.seed);
    let mut inferred = if config.rules {
        infer(&form, config.use_ferg.then_some(&ferg), today())
    } else {
        Vec::new()
    };
    let mut sources = vec!["rules"; inferred.len()];
    let parts = config.prompt;
    let (y, m, d) = today();
    let today_text = format!("{y:04}-{m:02}-{d:02}");
    let mut problems = Vec::new();
    let mut guesses: Vec<Option<String>> = vec![None; form.fields.len()];
    let llm_start = helpers.llm.map(LlmClient::usage);
    // The form's time budget is for submitting: the model's reading is not counted.
    let asking = Instant::now();
    let mut llm = match helpers.llm {
        Some(client) => {
            let (proposed, mut used, problem) =
                ask_llm(client, &form, &ferg, &inferred, &today_text, parts).await;
            problems.extend(problem);
            sources.extend(std::iter::repeat_n("llm", proposed.len()));
            inferred.extend(proposed);
            let (values, problem) =
                ask_values(client, &form, &ferg, &inferred, &today_text, parts).await;
            problems.extend(problem);
            used.values = values.iter().flatten().count();
            guesses = values;
            Some(used)
        }
        None => None,
    };
    let mut model_time = asking.elapsed();
    let title = form
        .title
        .clone()
        .or_else(|| form.name.clone())
        .unwrap_or_else(|| format!("form {}", index + 1));
    on_event(FormsEvent::Form {
        form: index,
        title: title.clone(),
        fields: form.fields.len(),
        constraints: inferred.len(),
    });
    let session_config = SessionConfig {
        today: Some(today_text.clone()),
        ..config.session.clone()
    };
    // The rules come first in `inferred`, the model's proposals after them.
    let from_rules = sources.iter().filter(|s| **s == "rules").count();
    let mut session = FormSession::new(
        form.clone(),
        inferred[..from_rules].to_vec(),
        session_config,
        config.seed ^ index as u64,
    );
    session.add_hypotheses(inferred[from_rules..].to_vec());
    // Without the rules, the model's turn is from the start (FormNexus' own way).
    if !config.rules {
        session.model_first();
    }
    session.add_model_values(guesses.clone());
    let mut solver =
        ConstraintSolver::new(HeuristicFiller::new(config.dictionary.clone(), today()))
            .with_examples(examples(&form, config.use_ferg.then_some(&ferg)));
    let mut attempts: Vec<(Vec<FieldValue>, String, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Fields the model was asked about after a refusal, and what it taught.
    let mut asked_after = std::collections::BTreeSet::new();
    let mut learnt = Vec::new();
    while let Some(submission) = session.next(&mut solver) {
        if started.elapsed().saturating_sub(model_time) > FORM_BUDGET {
            problems.push(format!(
                "stopped after {FORM_BUDGET:?}: the form's time budget"
            ));
            break;
        }
        let purpose = describe(&submission.purpose, &session_constraint_names(&session));
        let attempt = submitter
            .submit(&config.url, &form, &submission.values)
            .await?;
        let mut told = Vec::new();
        let feedback = match attempt {
            Attempt::Observed(obs) => {
                let feedback = judge(&form, &obs, config.use_ferg.then_some(&ferg));
                if submission.purpose == Purpose::Reach
                    && feedback.outcome == FeedbackOutcome::Failure
                {
                    forget_guesses(&mut solver, &guesses, &feedback);
                    told = feedback
                        .messages
                        .iter()
                        .filter(|m| !matches!(m.channel, Channel::Http(_)))
                        .map(|m| (m.field, m.text.clone()))
                        .collect();
                }
                let signature = feedback.signature(&refs);
                attempts.push((
                    submission.values.clone(),
                    signature.clone(),
                    obs.url_after.clone(),
                ));
                let new_state = seen.insert(signature.clone());
                on_event(FormsEvent::Submitted {
                    form: index,
                    purpose,
                    signature,
                    new_state,
                });
                feedback
            }
            Attempt::Failed(why) => {
                problems.push(format!("{purpose}: {why}"));
                Feedback::unknown()
            }
        };
        session.observe(feedback);
        // A refusal on the way to a success: the model is told what was tried and what
        // the form said (FormNexus' feedback loop), once per field.
        if let (Some(client), Some(used)) = (helpers.llm, llm.as_mut())
            && !told.is_empty()
            && config.session.refine
            && session.reaching()
        {
            let tried: Vec<String> = submission
                .values
                .iter()
                .map(FieldValue::as_string)
                .collect();
            let asking = Instant::now();
            for index in told_fields(&form, &told, &asked_after) {
                asked_after.insert(index);
                let known = session.active_constraints();
                let messages = [
                    Message::system(CONSTRAINT_SYSTEM),
                    Message::user(feedback_prompt(
                        &form,
                        &ferg,
                        index,
                        &today_text,
                        Refusal {
                            tried: &tried,
                            feedback: &told,
                            known: &known,
                        },
                        parts,
                    )),
                ];
                let grammar = constraint_grammar(&form, index);
                match client.chat_shaped(&messages, Some(&grammar)).await {
                    Ok(answer) => {
                        used.asked += 1;
                        let (new, rejected) = proposals(&form, index, &answer.text, &known);
                        // Known also: what was set aside or dropped since.
                        let (new, repeats): (Vec<_>, Vec<_>) = new
                            .into_iter()
                            .partition(|c| !inferred.contains(c) && !learnt.contains(c));
                        used.rejected += rejected + repeats.len();
                        used.proposed += new.len();
                        learnt.extend(new.iter().cloned());
                        used.after_feedback += session.add_hypotheses(new);
                    }
                    Err(e) => {
                        problems.push(format!("asking the model about feedback stopped: {e}"));
                        break;
                    }
                }
            }
            model_time += asking.elapsed();
        }
    }
    if let (Some(client), Some(used), Some(start)) = (helpers.llm, llm.as_mut(), llm_start) {
        let after: Usage = client.usage();
        used.requests = after.requests - start.requests;
        used.cache_hits = after.cache_hits - start.cache_hits;
        used.prompt_tokens = after.prompt_tokens - start.prompt_tokens;
        used.completion_tokens = after.completion_tokens - start.completion_tokens;
    }
    // What the model taught after a refusal counts among the inferred rules, as its.
    sources.extend(std::iter::repeat_n("llm", learnt.len()));
    inferred.extend(learnt);
    let report = session.report();
    let session_seconds = started.elapsed().as_secs_f64();
    let mut tests = Vec::new();
    for (n, fss) in report.fss.iter().enumerate() {
        let url_after = attempts
            .iter()
            .find(|(values, sig, _)| *values == fss.values && *sig == fss.signature)
            .map(|(_, _, url)| url.clone())
            .unwrap_or_default();
        let mut reproduced = 0;
        let mut mismatches = Vec::new();
        for _ in 0..config.replays {
            match submitter.submit(&config.url, &form, &fss.values).await? {
                Attempt::Observed(obs) => {
                    let feedback = judge(&form, &obs, config.use_ferg.then_some(&ferg));
                    let signature = feedback.signature(&refs);
                    if signature == fss.signature {
                        reproduced += 1;
                    } else {
                        mismatches.push(signature);
                    }
                }
                Attempt::Failed(why) => mismatches.push(why),
            }
        }
        tests.push(FssTest {
            fss: n,
            fills: fills(&form, &fss.values),
            url_after,
            replays: config.replays,
            reproduced,
            mismatches,
        });
    }
    let context = (0..form.fields.len()).map(|i| ferg.context(i)).collect();
    Ok(FormResult {
        index,
        title,
        refs,
        context,
        inferred: inferred
            .iter()
            .zip(sources)
            .map(|(c, source)| InferredRule {
                constraint: c.to_string(),
                source: source.into(),
            })
            .collect(),
        report,
        tests,
        problems,
        seconds: started.elapsed().as_secs_f64(),
        session_seconds,
        llm,
        form,
    })
}

/// Asks the model for the constraints of each field of `form` (FormNexus' constraint
/// prompt) and returns the new ones it proposes, how many were asked, proposed and
/// rejected (the caller counts requests and tokens), and the problem that stopped the
/// asking, if one did.
async fn ask_llm(
    client: &LlmClient,
    form: &Form,
    ferg: &Ferg,
    known: &[curio_forms::lang::Constraint],
    today: &str,
    parts: PromptParts,
) -> (Vec<curio_forms::lang::Constraint>, LlmUse, Option<String>) {
    let mut known = known.to_vec();
    let mut proposed = Vec::new();
    let mut used = LlmUse::default();
    let mut problem = None;
    for index in 0..form.fields.len() {
        let messages = [
            Message::system(CONSTRAINT_SYSTEM),
            Message::user(constraint_prompt(form, ferg, index, today, parts)),
        ];
        let grammar = constraint_grammar(form, index);
        match client.chat_shaped(&messages, Some(&grammar)).await {
            Ok(answer) => {
                used.asked += 1;
                let (new, rejected) = proposals(form, index, &answer.text, &known);
                used.rejected += rejected;
                used.proposed += new.len();
                known.extend(new.iter().cloned());
                proposed.extend(new);
            }
            Err(e) => {
                problem = Some(format!("asking the model stopped: {e}"));
                break;
            }
        }
    }
    (proposed, used, problem)
}

/// After a refused submission, the model's values (`guesses`, by field) for the fields
/// the form blamed, or for all when it blamed the form as a whole, are no longer tried
/// first.
fn forget_guesses(solver: &mut ConstraintSolver, guesses: &[Option<String>], feedback: &Feedback) {
    let fields: Vec<Option<usize>> = feedback
        .messages
        .iter()
        .filter(|m| !matches!(m.channel, Channel::Http(_)))
        .map(|m| m.field)
        .chain(feedback.invalid.iter().map(|&f| Some(f)))
        .collect();
    let everything = fields.is_empty() || fields.contains(&None);
    for (f, guess) in guesses.iter().enumerate() {
        if let Some(g) = guess
            && (everything || fields.contains(&Some(f)))
        {
            solver.forget(f, g);
        }
    }
}

/// The fields to ask the model about after a refusal, not asked before: those the form's
/// messages are about first, then the others (a message's field is read from the
/// layout and may be another's).
fn told_fields(
    form: &Form,
    told: &[(Option<usize>, String)],
    asked: &std::collections::BTreeSet<usize>,
) -> Vec<usize> {
    let mut about: Vec<usize> = told.iter().filter_map(|(f, _)| *f).collect();
    about.extend(0..form.fields.len());
    let mut seen = std::collections::BTreeSet::new();
    about.retain(|f| !asked.contains(f) && seen.insert(*f));
    about
}

/// Asks the model for a value of each text field of `form` (FormNexus' value prompt):
/// the field's constraints and the values chosen so far for its related fields. The
/// values by field index (`None` where none was asked or usable), and the problem that
/// stopped the asking, if one did.
async fn ask_values(
    client: &LlmClient,
    form: &Form,
    ferg: &Ferg,
    constraints: &[curio_forms::lang::Constraint],
    today: &str,
    parts: PromptParts,
) -> (Vec<Option<String>>, Option<String>) {
    let mut chosen: Vec<Option<String>> = vec![None; form.fields.len()];
    for (index, field) in form.fields.iter().enumerate() {
        let typed = field.tag == "textarea"
            || (field.tag == "input"
                && !matches!(
                    field.input_type.as_str(),
                    "checkbox"
                        | "radio"
                        | "hidden"
                        | "file"
                        | "submit"
                        | "button"
                        | "reset"
                        | "image"
                        | "range"
                        | "color"
                ));
        if !typed || field.readonly {
            continue;
        }
        let messages = [
            Message::system(VALUE_SYSTEM),
            Message::user(value_prompt(
                form,
                ferg,
                index,
                today,
                constraints,
                &chosen,
                parts,
            )),
        ];
        match client
            .chat_shaped(&messages, Some(&value_grammar(field)))
            .await
        {
            Ok(answer) => chosen[index] = value_from_answer(&answer.text),
            Err(e) => {
                return (
                    chosen,
                    Some(format!("asking the model for values stopped: {e}")),
                );
            }
        }
    }
    (chosen, None)
}

fn session_constraint_names(session: &FormSession) -> Vec<String> {
    (0..)
        .map_while(|i| session.constraint(i).map(ToString::to_string))
        .collect()
}

/// A short account of why a submission is made.
fn describe(purpose: &Purpose, constraints: &[String]) -> String {
    match purpose {
        Purpose::Reach => "reach success".into(),
        Purpose::Negate(i) => format!("negate {}", constraints.get(*i).map_or("?", String::as_str)),
        Purpose::Probe(p) => format!("probe {p:?}"),
    }
}

/// The fills that give the form these values, skipping checkboxes left as they are.
fn fills(form: &Form, values: &[FieldValue]) -> Vec<Fill> {
    form.fields
        .iter()
        .zip(values)
        .enumerate()
        .filter(
            |(_, (field, value))| !matches!(value, FieldValue::Check(on) if *on == field.checked),
        )
        .map(|(i, (_, value))| Fill {
            field: i,
            value: value.clone(),
        })
        .collect()
}

/// How one submission went.
enum Attempt {
    Observed(Observation),
    /// It could not be made (the form or a field is gone, the page went away mid-fill,
    /// no submit button): why.
    Failed(String),
}

/// Makes submissions one after another in one tab, which forgets what each stored
/// before the next (cookies, web storage, IndexedDB): every submission starts as in a
/// fresh browser context, without the cost of one.
struct Submitter<'b> {
    browser: &'b Browser,
    /// How to log in before each submission (the tab forgets the session with the rest).
    login: Option<&'b Login>,
    tab: Option<Tab>,
    /// The submissions so far that provoked a failure of the app (an uncaught exception,
    /// a server error...), as their steps and outcomes.
    failing: Vec<Vec<(Step, Outcome)>>,
    /// Steps that show the form after the page loads (opening the dialog it is in),
    /// taken before each submission's fills.
    reveal: Vec<Step>,
}

impl<'b> Submitter<'b> {
    fn new(browser: &'b Browser, login: Option<&'b Login>) -> Self {
        Submitter {
            browser,
            login,
            tab: None,
            failing: Vec::new(),
            reveal: Vec::new(),
        }
    }

    /// Opens `url`, gives the form `values`, submits it and reads every channel of
    /// feedback.
    async fn submit(
        &mut self,
        url: &str,
        form: &Form,
        values: &[FieldValue],
    ) -> Result<Attempt, BrowserError> {
        let mut tab = match self.tab.take() {
            Some(mut tab) => match tab.forget().await {
                Ok(()) => tab,
                Err(_) => {
                    tab.close().await;
                    self.browser.new_tab().await?
                }
            },
            None => self.browser.new_tab().await?,
        };
        if let Some(login) = self.login
            && let Err(e) = log_in(&mut tab, login).await
        {
            self.tab = Some(tab);
            return Ok(Attempt::Failed(format!("logging in failed: {e}")));
        }
        let mut steps = Vec::new();
        let attempt = submit_in(&mut tab, (url, &self.reveal), form, values, &mut steps).await;
        if steps
            .iter()
            .any(|(_, o): &(Step, Outcome)| o.observations.iter().any(is_finding))
        {
            self.failing.push(steps);
        }
        match attempt {
            Ok(a) => {
                self.tab = Some(tab);
                Ok(a)
            }
            Err(e) => {
                tab.close().await;
                Err(e)
            }
        }
    }

    async fn close(self) {
        if let Some(tab) = self.tab {
            tab.close().await;
        }
    }
}

/// Makes one submission in `tab` on the page at `url`, once the `reveal` steps showed
/// the form; `steps` gets each step taken, with its outcome.
async fn submit_in(
    tab: &mut Tab,
    (url, reveal): (&str, &[Step]),
    form: &Form,
    values: &[FieldValue],
    steps: &mut Vec<(Step, Outcome)>,
) -> Result<Attempt, BrowserError> {
    let loaded = tab.goto(url).await?;
    steps.push((goto(url), loaded.clone()));
    if let Some(why) = unreachable(&loaded) {
        return Ok(Attempt::Failed(format!("{url} did not load: {why}")));
    }
    for step in reveal {
        let capture = tab.snapshot().await?;
        let page = Page::from_snapshot(&capture.snapshot);
        let Some(action) = user_action(&page, step) else {
            return Ok(Attempt::Failed(format!(
                "no element {} on {url} to show the form",
                step.locator
            )));
        };
        match tab.perform(&action).await {
            Ok(outcome) if outcome.navigated() => {
                return Ok(Attempt::Failed(format!(
                    "{} left {url} instead of showing the form",
                    step.locator
                )));
            }
            Ok(outcome) => steps.push((step.clone(), outcome)),
            Err(BrowserError::Stale { locator, .. }) => {
                return Ok(Attempt::Failed(format!("{locator} went away")));
            }
            Err(e) => return Err(e),
        }
    }
    // On a fresh load the form is where the first snapshot saw it: its selectors find it
    // again without a new snapshot. Otherwise (a form in a frame, a page that differs
    // between loads) the page is read again.
    let found = match by_selectors(tab, form).await {
        Some(f) => f,
        None => {
            let capture = tab.snapshot().await?;
            let page = Page::from_snapshot(&capture.snapshot);
            let Some(now) = same_form(&page, form) else {
                return Ok(Attempt::Failed(format!("the form is no longer on {url}")));
            };
            now.clone()
        }
    };
    let now = &found;
    for (field, value) in now.fields.iter().zip(values) {
        let Some(action) = action_for(field, value) else {
            if let Some(step) = kept_value(field, value) {
                let url = url.to_string();
                let kept = Outcome {
                    url_before: url.clone(),
                    url_after: url,
                    ..Outcome::default()
                };
                steps.push((step, kept));
            }
            continue;
        };
        let done = tab.perform_edit(&action).await;
        if let Ok(outcome) = &done {
            steps.push((with_checked(step_of(&action), value), outcome.clone()));
        }
        match done {
            Ok(outcome) if outcome.navigated() => {
                return Ok(Attempt::Failed(format!(
                    "the page navigated away to {} while filling {}",
                    outcome.url_after, field.target.locator
                )));
            }
            Ok(_) => {}
            Err(BrowserError::Stale { locator, .. }) => {
                return Ok(Attempt::Failed(format!(
                    "{locator} went away while filling"
                )));
            }
            Err(e) => return Err(e),
        }
    }
    let Some(submit) = now.submit.clone() else {
        return Ok(Attempt::Failed("the form has no submit button".into()));
    };
    let texts_before = forms_js::texts(tab.evaluate(WATCH).await?);
    let url_before = tab.url();
    let outcome = match tab.perform(&UserAction::Click(submit.clone())).await {
        Ok(o) => o,
        Err(BrowserError::Stale { locator, .. }) => {
            return Ok(Attempt::Failed(format!(
                "{locator} went away before submitting"
            )));
        }
        Err(e) => return Err(e),
    };
    steps.push((step_of(&UserAction::Click(submit.clone())), outcome.clone()));
    let selectors: Vec<String> = now
        .fields
        .iter()
        .map(|f| f.target.selector.clone())
        .collect();
    let mut read: Read = match tab.evaluate(&forms_js::read_expression(&selectors)).await {
        Ok(v) => forms_js::read(v),
        Err(_) => Read::default(),
    };
    if !read.watched {
        read.texts = tab
            .evaluate(TEXTS_ONLY)
            .await
            .map(forms_js::texts)
            .unwrap_or_default();
    }
    let mut fields = read.fields;
    fields.resize(form.fields.len(), FieldState::default());
    let statuses = outcome
        .responses
        .iter()
        .filter(|r| r.in_scope && matches!(r.resource_type.as_str(), "Document" | "XHR" | "Fetch"))
        .map(|r| r.status)
        .collect();
    let dialogs = outcome
        .observations
        .iter()
        .filter(|o| o.kind == ObservationKind::Dialog)
        .map(|o| o.message.clone())
        .collect();
    Ok(Attempt::Observed(Observation {
        url_before,
        url_after: outcome.url_after.clone(),
        navigated: outcome.navigated(),
        texts_before,
        texts_after: read.texts,
        added_texts: read.added,
        fields,
        statuses,
        dialogs,
        timed_out: outcome.settle_timed_out,
        sent: values
            .iter()
            .filter_map(|v| match v {
                FieldValue::Text(t) => Some(t.clone()),
                _ => None,
            })
            .collect(),
    }))
}

/// `form` with its targets found by selector alone, when every field and the submit
/// button are in the main frame and their selectors each match one element of the page
/// now; `None` otherwise.
async fn by_selectors(tab: &Tab, form: &Form) -> Option<Form> {
    let submit = form.submit.as_ref()?;
    let targets: Vec<&curio_page::Target> = form
        .fields
        .iter()
        .map(|f| &f.target)
        .chain(std::iter::once(submit))
        .collect();
    if targets
        .iter()
        .any(|t| t.frame != 0 || t.selector.is_empty())
    {
        return None;
    }
    let selectors: Vec<&str> = targets.iter().map(|t| t.selector.as_str()).collect();
    let check = format!(
        "{}.every(s => document.querySelectorAll(s).length === 1)",
        serde_json::to_string(&selectors).ok()?
    );
    if tab.evaluate(&check).await.ok()? != serde_json::Value::Bool(true) {
        return None;
    }
    let mut found = form.clone();
    for f in &mut found.fields {
        f.target.backend_node_id = 0;
    }
    if let Some(s) = &mut found.submit {
        s.backend_node_id = 0;
    }
    Some(found)
}

/// The form on a fresh load of the page that is `form`: same key, else same position
/// with the same number of fields.
fn same_form<'p>(page: &'p Page, form: &Form) -> Option<&'p Form> {
    page.forms.iter().find(|f| f.key == form.key).or_else(|| {
        page.forms
            .get(form.id.0)
            .filter(|f| f.fields.len() == form.fields.len())
    })
}

/// The user action that gives `field` the value; `None` when it already has it.
pub(crate) fn action_for(field: &Field, value: &FieldValue) -> Option<UserAction> {
    let target = field.target.clone();
    match value {
        // A fresh load shows the field as the first snapshot saw it.
        FieldValue::Text(v) if *v == field.value => None,
        FieldValue::Text(v) => Some(UserAction::Fill(
            target,
            v.clone(),
            field.input_type.clone(),
        )),
        // A radio group is one field at its first radio: check the radio with the value.
        FieldValue::Select(v) if field.input_type == "radio" => {
            if v.is_empty() {
                return None;
            }
            let name = field.name.as_deref().unwrap_or_default();
            let selector = format!(
                "{RADIO_BY_VALUE}{}][value={}]",
                css_string(name),
                css_string(v)
            );
            Some(UserAction::Check(curio_page::Target {
                backend_node_id: 0,
                selector,
                locator: format!("radio {v:?}"),
                ..target
            }))
        }
        FieldValue::Select(v) => Some(UserAction::Select(target, v.clone())),
        FieldValue::Check(on) if *on != field.checked => Some(UserAction::Check(target)),
        FieldValue::Check(_) => None,
    }
}

/// How long the submissions of one form may take (the model's reading aside) before its
/// session is cut short.
const FORM_BUDGET: Duration = Duration::from_secs(120);

/// A CSS string literal.
fn css_string(s: &str) -> String {
    let escaped: String = s
        .chars()
        .flat_map(|c| match c {
            '"' | '\\' => vec!['\\', c],
            '\n' => "\\a ".chars().collect(),
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

#[cfg(test)]
mod tests {
    use curio_forms::FieldValue;
    use curio_forms::feedback::{Channel, Message, Outcome};
    use curio_forms::session::{Fss, Probe, Purpose};

    fn fss(outcome: Outcome, hours: &str, status: Option<u16>, purpose: Purpose) -> Fss {
        let messages = match status {
            Some(code) => vec![Message::new(
                format!("HTTP {code}"),
                None,
                Channel::Http(code),
            )],
            None => vec![Message::new("Check the hours.", Some(0), Channel::Inline)],
        };
        Fss {
            signature: format!("{outcome:?} {hours}"),
            outcome,
            messages,
            values: vec![FieldValue::Text(hours.into())],
            purpose,
        }
    }

    /// A session whose success the form's answer hid, and whose probe broke the
    /// server, accepted nothing: the probe's letters are no valid fill. A submission
    /// meant to pass that the server failed on is what exploring reaches again.
    #[test]
    fn a_probe_that_breaks_the_server_is_not_accepted() {
        use super::accepted_values;
        let refused = fss(Outcome::Failure, "1.5", None, Purpose::Reach);
        let probe = Purpose::Probe(Probe::OtherType(0));
        let letters = fss(Outcome::Failure, "abcde", Some(500), probe);
        assert_eq!(accepted_values(&[refused.clone(), letters]), None);
        let through = fss(Outcome::Failure, "2", Some(500), Purpose::Reach);
        assert_eq!(
            accepted_values(&[refused.clone(), through]),
            Some(vec![FieldValue::Text("2".into())])
        );
        let saved = fss(Outcome::Success, "3", None, Purpose::Reach);
        assert_eq!(
            accepted_values(&[refused, saved]),
            Some(vec![FieldValue::Text("3".into())])
        );
    }
}
