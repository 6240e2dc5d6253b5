//! The explore loop: episodes of actions from the start URL, every outcome recorded as
//! it happens, findings deduplicated, until the time or action budget runs out or the
//! user interrupts.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use curio_browser::{Browser, BrowserError, CoverageMap, LaunchError, Outcome, Tab, UserAction};
use curio_explorer::{Learner, LearnerConfig};
use curio_forms::{FieldValue, FormFiller, HeuristicFiller};

use crate::forms::{FormSolved, SessionTools, connect_model, solve_form};
use crate::set_back::{ChoicesMade, SetBack};
use crate::solved::{Accepted, Solved, SolvedFiller, form_signature};
use curio_page::{
    ActionKind, DomSnapshot, Field, Form, Page, StateTable, StateTableConfig, StorageAbstraction,
    normalize_url,
};
use curio_record::{
    BrokenLink, ExportError, Finding, FindingId, ObservationKind, ProgressPoint, RunId, RunMeta,
    RunRecord, RunStats, RunSummary, Severity, StateRecord, Step, StepKind, StepRecord, Store,
    StoreError, TransitionRecord, short_title,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::config::{RunConfig, StrategyKind};
use crate::findings::{self, BROKEN_LINKS, BROKEN_LINKS_MESSAGE, is_finding, signature_in};
use crate::login::{LoginError, log_in};
use crate::replay::{ReplayReport, replay_trace};
use crate::strategy::{
    Candidate, ChangeSource, Move, asks_to_confirm, candidates, change_choices, change_label,
    confirmations, deeper_first, edits, form_spread_key, fresh_settings, held_settings,
    leads_to_fresh, links_first, local_candidates, local_weights, note_used, offers_fresh,
    page_kind, plan_move, random_index, revealed_candidates, spread_key, submits, tour_candidates,
    untried_after, url_path, valid_first, views_first, writes_first,
};

/// Forms a run tests with a form-testing session (`form-sessions`); later new forms are
/// filled by the filler alone.
const MAX_FORM_SESSIONS: usize = 24;

/// How many more sessions a form gets in a run when the values it accepted are
/// refused later. More (three) cost exploring time and found no more faults in the
/// tracker's benchmark.
const MAX_RESESSIONS: u32 = 1;

/// With `change-contexts`: the changes a state remembers (the latest ones), and for how
/// many moves after it a change is remembered. Four moves reach an archived project's
/// Export, a blocked task's "Log time" then its time report, a new project's "New task"
/// form then the new task's report.
const CONTEXT_CHANGES: usize = 2;

/// With `setting-tours`, a setting's tour takes this many moves after it was stored (a
/// tab keeps a list's filter for every later page: its tour would take the episode),
/// and a setting's value not yet chosen comes first only while the episode has this
/// many moves left for it: the next episode's fresh tab forgets it, and a value chosen
/// is no longer new.
const SETTING_ROOM: u32 = 20;

/// Moves an episode may take past its length to confirm a change it posted last (see
/// [`asks_to_confirm`]).
const CONFIRM_ROOM: u32 = 1;
const CONTEXT_MOVES: u32 = 4;

/// With `local-after-change`: an action (or form) offered on at least this many kinds of
/// page (URLs with numbers generalised, without query) is navigation, not particular to
/// the page it is on.
const NAVIGATION_SPREAD: usize = 3;

/// Longest run of steps since a page loaded that a form session repeats to show its
/// form; after longer ones the session starts from the loaded page alone.
const MAX_REVEAL_STEPS: usize = 6;

/// Consecutive browser failures (not app failures) after which a run gives up.
const MAX_CONSECUTIVE_FAILURES: u32 = 8;

/// How the label of a change of what the tab stores begins (`stored tz=...`).
const STORED_CHANGE: &str = "stored ";

/// With `storage-states`: how many of the episode's latest changes of what the tab
/// stores a replay makes again before a finding's own trace.
const SETTINGS_REPLAYED: usize = 3;

/// Notes the kind of `page` among those each of its actions and forms is offered on
/// (up to [`NAVIGATION_SPREAD`] kinds).
fn note_spread(spread: &mut HashMap<String, Vec<String>>, page: &Page) {
    let kind = page_kind(&page.url);
    let keys = page.actions.iter().map(|a| a.key.0.clone());
    let forms = page.forms.iter().map(form_spread_key);
    for key in keys.chain(forms) {
        let kinds = spread.entry(key).or_default();
        if kinds.len() < NAVIGATION_SPREAD && !kinds.contains(&kind) {
            kinds.push(kind.clone());
        }
    }
}

/// Whether an action (or form) key, by the kinds of page it was offered on (`spread`),
/// is navigation: offered on at least [`NAVIGATION_SPREAD`] kinds.
fn navigation(spread: &HashMap<String, Vec<String>>) -> impl Fn(&str) -> bool + '_ {
    |key: &str| {
        spread
            .get(key)
            .is_some_and(|k| k.len() >= NAVIGATION_SPREAD)
    }
}

/// How often the run's progress (states, findings, coverage) is recorded and reported.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// What a run reports while it goes, for progress displays.
#[derive(Debug, Clone)]
pub enum RunEvent {
    Started {
        run: RunId,
        browser: String,
    },
    Step {
        index: u32,
        episode: u32,
        url: String,
        step: Step,
    },
    Finding {
        id: FindingId,
        kind: ObservationKind,
        message: String,
    },
    /// Every few seconds: how far the run has got.
    Progress {
        point: ProgressPoint,
        actions: u32,
        /// Forms studied by a form-testing session so far (`form-sessions`).
        forms: u32,
    },
    /// Something the user should know that is not a failure of the app.
    Note(String),
    /// A form session starts on the page at `url`; it runs for at most `cap`.
    FormSession {
        url: String,
        cap: Duration,
    },
    Finished {
        summary: RunSummary,
    },
}

/// The end of a run that could do its job (it may still have found failures).
#[derive(Debug)]
pub struct RunOutcome {
    pub run: RunId,
    pub record: RunRecord,
    pub store_path: PathBuf,
    pub record_path: PathBuf,
}

/// A failure of Curio's own infrastructure: the browser, the store, the start page.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Launch(#[from] LaunchError),
    #[error("browser failure while exploring {url}: {source}")]
    Browser {
        url: String,
        #[source]
        source: BrowserError,
    },
    #[error("cannot load the start page {url}: {reason}")]
    Unreachable { url: String, reason: String },
    #[error("cannot log in to {url}: {source}")]
    Login {
        url: String,
        #[source]
        source: LoginError,
    },
    #[error("no form to test on {url}")]
    NoForms { url: String },
    #[error(
        "invalid value {selector:?} for --deny-selector: not a CSS selector Chromium takes ({reason})"
    )]
    Selector { selector: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Export(#[from] ExportError),
    #[error("failed to write {path}: {source}")]
    Output {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Explores `config.start_url` until a budget runs out or Ctrl-C, reporting progress to
/// `on_event`. Everything observed is in the store before this returns, and in the
/// store as it happens, so a killed run keeps what it saw.
/// Refuses the user's selectors that Chromium does not take, before the run starts.
async fn check_selectors(browser: &Browser, config: &RunConfig) -> Result<(), RunError> {
    if config.guard.selectors().is_empty() {
        return Ok(());
    }
    let browser_error = |source| RunError::Browser {
        url: "about:blank".into(),
        source,
    };
    let tab = browser.new_tab().await.map_err(browser_error)?;
    let refused = config.guard.check_selectors(&tab).await;
    tab.close().await;
    match refused.map_err(browser_error)? {
        Some((selector, reason)) => Err(RunError::Selector { selector, reason }),
        None => Ok(()),
    }
}

pub async fn explore(
    config: RunConfig,
    on_event: &mut (dyn FnMut(RunEvent) + Send),
) -> Result<RunOutcome, RunError> {
    std::fs::create_dir_all(&config.out_dir).map_err(|source| RunError::Output {
        path: config.out_dir.clone(),
        source,
    })?;
    let browser = Browser::start(config.browser.clone()).await?;
    check_selectors(&browser, &config).await?;
    let mut store = Store::open(&config.store_path())?;
    let meta = RunMeta {
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        start_url: config.start_url.to_string(),
        strategy: config.strategy.name().to_string(),
        seed: config.seed,
        browser_version: browser.version().to_string(),
        started_at_ms: now_ms(),
        config: config.describe(),
    };
    let run = store.begin_run(&meta)?;
    let llm = match &config.llm {
        Some(llm) => {
            let mut note = |n: String| on_event(RunEvent::Note(n));
            connect_model(llm, &config.store_path(), &mut note, "form sessions go on").await
        }
        None => None,
    };
    on_event(RunEvent::Started {
        run,
        browser: browser.version().to_string(),
    });
    // The random walk does not learn from it, but keeps the transition graph too, so its
    // findings also get the shortest known trace.
    let mut lc = match config.strategy {
        StrategyKind::Curious => LearnerConfig::curious(),
        StrategyKind::WebExplor | StrategyKind::Random => LearnerConfig::webexplor(),
    };
    if !config.features.new_element_reward {
        lc.new_element_weight = 0.0;
    }
    lc.plan_to_untried = config.features.plan_to_untried;
    if let Some(n) = config.stuck_after {
        lc.stuck_after = n;
    }
    if let Some(t) = config.tau {
        lc.tau = t;
    }
    let learner = Learner::new(lc, config.seed);
    let mut explorer = Explorer {
        replays: ReplayCost::default(),
        form_time: Duration::ZERO,
        halt: None,
        notes: Vec::new(),
        rng: ChaCha8Rng::seed_from_u64(config.seed),
        filler: HeuristicFiller::new(config.dictionary.clone(), today()),
        solved: Solved::new(),
        learner,
        states: StateTable::new(StateTableConfig::default()),
        storage: StorageAbstraction::default(),
        changes: VecDeque::new(),
        since_change: HashSet::new(),
        stored: None,
        stored_at: None,
        change_source: None,
        revealed: BTreeSet::new(),
        openers: HashSet::new(),
        shows: HashMap::new(),
        editors: HashSet::new(),
        followed: HashSet::new(),
        chain: 0,
        chain_end: None,
        setters: HashSet::new(),
        probed: HashSet::new(),
        leads: HashSet::new(),
        last_click: None,
        spread: HashMap::new(),
        setups: HashMap::new(),
        post_answer: None,
        settings: Vec::new(),
        toured: HashSet::new(),
        since_load: Vec::new(),
        reach: Vec::new(),
        settings_made: VecDeque::new(),
        setting_control: None,
        solved_at: HashMap::new(),
        option_texts: HashMap::new(),
        choices_made: HashMap::new(),
        set_back: SetBack::default(),
        resolved: HashMap::new(),
        groups: HashMap::new(),
        start_state: None,
        current: None,
        plan: VecDeque::new(),
        edge_steps: HashMap::new(),
        config,
        store,
        run,
        browser,
        tab: None,
        coverage: CoverageMap::default(),
        step_index: 0,
        actions: 0,
        moves: 0,
        episode: 0,
        episode_moves: 0,
        need_reset: true,
        trace: Vec::new(),
        findings: HashMap::new(),
        alternates: HashMap::new(),
        page_kinds: BTreeSet::new(),
        failures: 0,
        browser_time: Duration::ZERO,
        replay_time: Duration::ZERO,
        transitions: HashMap::new(),
        llm,
        store_trouble: None,
        started: Instant::now(),
        last_progress: None,
    };
    let started = explorer.started;
    let mut result = explorer.run_loop(on_event).await;
    if let Ok(summary) = &mut result
        && summary.stop_reason != "interrupted"
        && explorer.config.verify_findings
    {
        let end = explorer.started + explorer.config.time;
        explorer.reconfirm(end, on_event).await?;
        summary.stats.replay_ms = explorer.replay_time.as_millis() as u64;
    }
    let wall = started.elapsed();
    explorer.note_progress(on_event)?;
    if let Some(tab) = explorer.tab.take() {
        explorer.coverage.merge(tab.coverage());
        tab.close().await;
    }
    let Explorer {
        mut store,
        browser,
        run,
        config,
        coverage,
        ..
    } = explorer;
    let coverage = coverage.summary(&config.browser.scope);
    browser.close().await;
    let mut summary = result?;
    summary.stats.wall_ms = wall.as_millis() as u64;
    summary.stats.peak_rss_kb = peak_rss_kb();
    store.set_coverage(run, &coverage)?;
    store.finish_run(run, &summary)?;
    on_event(RunEvent::Finished {
        summary: summary.clone(),
    });
    let record = store.load_run(run)?;
    let record_path = config.record_path();
    record.write_json(&record_path)?;
    Ok(RunOutcome {
        run,
        record,
        store_path: config.store_path(),
        record_path,
    })
}

/// The page the tab shows, modelled and placed among the known states.
struct Current {
    page: Page,
    snapshot: DomSnapshot,
    state: u32,
    keys: BTreeSet<String>,
    /// Elements the guard's selectors match on the page (`--deny-selector`).
    denied: Vec<i64>,
    /// Whether the page shows the login's check (true without a login or a check).
    logged_in: bool,
    /// The page is a popup of the app, shown in its own window with its opener.
    in_popup: bool,
}

/// Where a form was first met: the address its sessions load, the steps that show the
/// form there (opening its dialog), and the page it was on, which a session reads the
/// form from.
struct FormPlace {
    url: String,
    reveal: Vec<Step>,
    page: Page,
    snapshot: DomSnapshot,
    /// The form's place among the page's forms.
    index: usize,
}

/// The traces of a verified finding.
#[derive(Clone)]
struct Traces {
    signature: String,
    /// The one the finding keeps.
    kept: Vec<Step>,
    /// Every one tried, shortest first.
    tries: Vec<Vec<Step>>,
}

/// The most traces [`Explorer::restored`] replays for one finding: each costs a
/// replay at the end of the run.
const RESTORED_TRIES: usize = 6;

/// The most traces [`Explorer::skipped`] shortens for one finding, and the most steps
/// it leaves out of each: each costs a replay at the end of the run.
const SKIPPED_TRACES: usize = 3;
const SKIPPED_STEPS: usize = 4;

/// How many times the end-of-run check goes through the findings (see
/// [`Explorer::reconfirm`]).
const RECONFIRM_PASSES: usize = 2;

/// Longest a form session of `explore` runs; past it the session stops between
/// submissions and keeps what it found.
const FORM_SESSION_CAP: Duration = Duration::from_secs(30);

/// The share of the time budget that form sessions may take together.
const FORM_SESSIONS_SHARE: f64 = 0.3;

/// The traces that stopped short when replayed, each with the step it stopped at.
#[derive(Default)]
struct Stopped {
    /// At a choice its select no longer offers (see [`Explorer::restored`]).
    unoffered: Vec<(Vec<Step>, usize)>,
    /// At an element that is gone (see [`Explorer::skipped`]).
    missing: Vec<(Vec<Step>, usize)>,
}

impl Stopped {
    fn note(&mut self, trace: &[Step], report: &ReplayReport) {
        if let Some(at) = report.unoffered {
            self.unoffered.push((trace.to_vec(), at));
        }
        if let Some(at) = report.missing {
            self.missing.push((trace.to_vec(), at));
        }
    }
}

/// Where a recorded step comes from, so a finding can get its shortest trace.
struct StepContext<'a> {
    /// The state the move started in; `None` for an episode's `Goto`.
    state: Option<u32>,
    /// The URL of the page the move started on.
    page_url: &'a str,
    /// The move's steps up to and including this one.
    move_steps: &'a [Step],
    /// How the page the move started on was reached from the latest page the tab
    /// loaded by a GET (see [`Explorer::reach`]); empty for an episode's `Goto`.
    reach: &'a [Step],
    /// The page the move started on was a popup of the app: its URL is no page to load
    /// on its own (its script may need the window that opened it).
    in_popup: bool,
}

/// How long replays take: the sum and the count, kept from `&self` methods.
#[derive(Default)]
struct ReplayCost {
    micros: std::sync::atomic::AtomicU64,
    count: std::sync::atomic::AtomicU32,
}

impl ReplayCost {
    fn note(&self, took: Duration) {
        use std::sync::atomic::Ordering::Relaxed;
        self.micros.fetch_add(took.as_micros() as u64, Relaxed);
        self.count.fetch_add(1, Relaxed);
    }

    fn average(&self) -> Duration {
        use std::sync::atomic::Ordering::Relaxed;
        let count = u64::from(self.count.load(Relaxed));
        Duration::from_micros(self.micros.load(Relaxed).checked_div(count).unwrap_or(0))
    }
}

struct Explorer {
    /// What replays have cost, for the end-of-run check's share of the budget.
    replays: ReplayCost,
    /// Time spent in form sessions so far.
    form_time: Duration,
    /// Why the run must end now (`login_lost`), set where it cannot return.
    halt: Option<&'static str>,
    /// Notes for the user, given out with the next progress event.
    notes: Vec<String>,
    config: RunConfig,
    store: Store,
    run: RunId,
    browser: Browser,
    /// A fresh tab (and browser context) per episode, so that an episode's trace does
    /// not depend on cookies or storage left by earlier ones.
    tab: Option<Tab>,
    /// Coverage of the tabs closed so far.
    coverage: CoverageMap,
    rng: ChaCha8Rng,
    filler: HeuristicFiller,
    /// Values each form accepted in its form-testing session (`form-sessions`).
    solved: Solved,
    /// Chooses for `curious` and `webexplor`; for `random` it only keeps the graph.
    learner: Learner,
    states: StateTable,
    /// What pages keep in the browser, as part of their state (`storage-states`).
    storage: StorageAbstraction,
    /// The episode's latest changes (`change-contexts`), with the episode move that made
    /// each, oldest first.
    changes: VecDeque<(String, u32)>,
    /// The moves (candidate keys) taken since the latest change (`local-after-change`):
    /// each of the page's own actions once before any again.
    since_change: HashSet<String>,
    /// What the tab stored when last looked at in this episode (`storage-states`): a
    /// different fingerprint is a change too.
    stored: Option<String>,
    /// The episode's move count when what the tab stores last changed: a setting's tour
    /// (`setting-tours`) takes the [`SETTING_ROOM`] moves after it, not the episode.
    stored_at: Option<u32>,
    /// Where the latest form change of the episode was made (`local-after-change`).
    change_source: Option<ChangeSource>,
    /// The action keys the last move showed on the same page (`follow-reveals`).
    revealed: BTreeSet<String>,
    /// Action keys of selects whose choice changed what the tab stores (`setting-tours`):
    /// settings, whose values not yet chosen come first where they are offered.
    setters: HashSet<String>,
    /// Action keys of the clicks that showed selects on the same page, with the action
    /// keys and fields of those selects as last shown (`follow-reveals`): a "Filters"
    /// toggle and the filters it shows. One that shows a setting with options never
    /// chosen, hidden now, is taken first (`setting-tours`).
    shows: HashMap<String, Vec<(String, Field)>>,
    /// Action keys of the selects chosen at least once (`setting-tours`): one outside
    /// any form that is not comes first, to learn whether it stores a setting.
    probed: HashSet<String>,
    /// Keys of the clicks that last led to choices never made (`fresh-first`): a "Change
    /// plan" link to a form with plans and cycles never sent together, a "Filters"
    /// toggle showing a filter with options never chosen.
    leads: HashSet<String>,
    /// The click just taken and the URL it was taken on, until the page it led to is
    /// looked at (`fresh-first`).
    last_click: Option<(String, String)>,
    /// How many form changes in a row (`local-after-change`) were each made on the page
    /// the one before led to: 1 after a task blocked, 2 once time is logged on it.
    chain: u32,
    /// The path of the page the latest form change led to.
    chain_end: Option<String>,
    /// Each choice of a form change (`form key|value`) with each move (by spread key)
    /// taken right after it (`local-after-change`): the second changes tried after a
    /// first, so that the next one tries another.
    followed: HashSet<(String, String)>,
    /// Action keys whose click showed a form that posts (a "Log time" opening its
    /// dialog), for `local-after-change`: a way to a second change.
    openers: HashSet<String>,
    /// Action keys of the links that last led to a page with a form that posts ("Edit
    /// task"), for `local-after-change`: after two changes, the links that show come
    /// first.
    editors: HashSet<String>,
    /// The kinds of page (up to [`NAVIGATION_SPREAD`]) each action and form key was
    /// offered on (`local-after-change`, `setting-tours`).
    spread: HashMap<String, Vec<String>>,
    /// The settings the tab stores now, as fingerprint items (`setting-tours`).
    settings: Vec<String>,
    /// Each (setting, kind of page) seen together (`setting-tours`).
    toured: HashSet<(String, String)>,
    /// The steps taken on the page since it loaded (opening a dialog, a panel): what a
    /// form session repeats after loading the page to show the form it tests.
    since_load: Vec<Step>,
    /// The latest page the tab loaded by a GET (as a `Goto`) and the steps taken since:
    /// how the page now shown is reached again when it answered a POST (a review page
    /// is reached from the form that posted to it) or shows what clicks opened.
    reach: Vec<Step>,
    /// How the tab came to store what it stores now (`storage-states`): for each of
    /// the episode's latest changes of it, the move that made it with its
    /// [`Self::reach`]. A timer started pages ago is what a failure on billing needs,
    /// and the trace from the latest page loaded does not start it.
    settings_made: VecDeque<Vec<Step>>,
    /// The element (backend node) whose click made the latest change of what the tab
    /// stores (`local-after-change`): not among the page's own moves after it.
    setting_control: Option<i64>,
    /// Where each form (by signature) was first met: where and how its sessions load it.
    solved_at: HashMap<String, FormPlace>,
    /// The text of each option chosen in the run, by the select's selector and the
    /// option's value: who "3" in an assignee list was.
    option_texts: HashMap<(String, String), String>,
    /// Each select chosen in during the run, by locator: its latest step, the page it
    /// was on and the values it showed and was given, in order (see
    /// [`Self::restored`]).
    choices_made: HashMap<String, ChoicesMade>,
    /// Options the run took out of forms, and the selects set back to bring them back
    /// (`set-back`).
    set_back: SetBack,
    /// The latest submission of a form on each kind of page, as steps from loading the
    /// page: what the app keeps from it (saved preferences) may be what a later failure
    /// there needs, in a replay too.
    setups: HashMap<String, Vec<Step>>,
    /// The URL of the page shown, when it is the answer to a form posted from the
    /// page before it (a form shown again with its messages).
    post_answer: Option<String>,
    /// Forms whose accepted values were refused later, and how many sessions more they
    /// got (at most [`MAX_RESESSIONS`]).
    resolved: HashMap<String, u32>,
    /// Novelty group of each stored setting (`storage-states`), with or without a
    /// change just made (`change-contexts`), from 1; 0 is neither.
    groups: HashMap<String, u32>,
    /// The state of the start page in the first episode: where replays begin.
    start_state: Option<u32>,
    current: Option<Current>,
    /// Moves to take next, as (expected state, candidate key), planned by the learner
    /// when it was stuck.
    plan: VecDeque<(u32, String)>,
    /// The steps last performed for each (state, candidate key): how to replay an edge
    /// of the transition graph.
    edge_steps: HashMap<(u32, String), Vec<Step>>,
    step_index: u32,
    /// User actions performed.
    actions: u32,
    /// Moves chosen (a form macro is one move of several actions).
    moves: u32,
    episode: u32,
    episode_moves: u32,
    need_reset: bool,
    /// Steps of the current episode, from its `Goto`.
    trace: Vec<Step>,
    findings: HashMap<String, FindingId>,
    /// Every verified finding's traces, for the check at the end of the run.
    alternates: HashMap<FindingId, Traces>,
    page_kinds: BTreeSet<String>,
    failures: u32,
    browser_time: Duration,
    replay_time: Duration,
    /// Each distinct (from, to, move) with its number in the record and its count.
    transitions: HashMap<(u32, Option<u32>, String), (u32, u32)>,
    /// The model asked in form sessions, when one is configured and answered its check.
    llm: Option<curio_llm::LlmClient>,
    /// A store error met where it could not be returned (placing a page), returned at
    /// the next progress point.
    store_trouble: Option<StoreError>,
    started: Instant,
    last_progress: Option<Instant>,
}

impl Explorer {
    async fn run_loop(
        &mut self,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<RunSummary, RunError> {
        let end = tokio::time::Instant::from_std(self.started + self.config.time);
        let interrupt = tokio::signal::ctrl_c();
        tokio::pin!(interrupt);
        let stop_reason = loop {
            if let Some(reason) = self.halt.take() {
                break reason;
            }
            if self
                .config
                .max_actions
                .is_some_and(|max| self.actions >= max)
            {
                break "max_actions";
            }
            // The end-of-run check of the findings is part of the budget: exploring
            // stops early enough to leave it its time.
            let deadline = end - self.check_reserve();
            if tokio::time::Instant::now() >= deadline {
                break "time";
            }
            tokio::select! {
                biased;
                _ = &mut interrupt => break "interrupted",
                _ = tokio::time::sleep_until(deadline) => break "time",
                r = self.step(on_event) => r?,
            }
        };
        Ok(RunSummary {
            finished_at_ms: now_ms(),
            steps: self.step_index,
            episodes: self.episode,
            states: self.states.len() as u32,
            findings: self.findings.len() as u32,
            stop_reason: stop_reason.to_string(),
            stats: RunStats {
                actions: self.actions,
                page_kinds: self.page_kinds.len() as u32,
                wall_ms: 0,
                browser_ms: self.browser_time.as_millis() as u64,
                replay_ms: self.replay_time.as_millis() as u64,
                peak_rss_kb: None,
            },
        })
    }

    fn tab(&mut self) -> &mut Tab {
        self.tab
            .as_mut()
            .expect("a tab is open after start_episode")
    }

    async fn step(&mut self, on_event: &mut (dyn FnMut(RunEvent) + Send)) -> Result<(), RunError> {
        if self
            .last_progress
            .is_none_or(|t| t.elapsed() >= PROGRESS_EVERY)
        {
            self.note_progress(on_event)?;
        }
        if self.need_reset || self.tab.is_none() {
            return self.start_episode(on_event).await;
        }
        let current = match self.current.take() {
            Some(c) => c,
            None => match self.look().await {
                Ok((c, _)) => c,
                Err(e) => return self.browser_failure(e),
            },
        };
        // A popup's forms are studied where they live only; a form session loads its
        // page on its own, where the popup's script would miss its opener.
        if self.config.features.form_sessions && !current.in_popup {
            match self.solve_new_forms(&current, on_event).await {
                Ok(failing) => self.record_session_failures(failing, on_event).await?,
                Err(e) => return self.browser_failure(e),
            }
        }
        let mut filler = SolvedFiller {
            inner: &mut self.filler,
            solved: &self.solved,
        };
        let mut candidates = candidates(
            &current.page,
            &current.denied,
            &self.config.features,
            &self.config.guard,
            &mut filler,
            &mut self.rng,
        );
        // A withdrawn option brought back (`set-back`) comes before all else; the
        // select set back is left as it is until the option is offered again.
        let mut back = None;
        if self.config.features.set_back && self.plan.is_empty() {
            let made = &self.choices_made;
            self.set_back
                .note_offered(&current.page, &self.filler, made);
            back = self.set_back.choice(&current.page, &candidates, made);
            let set_back = &self.set_back;
            candidates.retain(|c| !set_back.holds(&current.page, c));
        }
        if let Some((click, url)) = self.last_click.take() {
            let navigated = url != current.page.url;
            if leads_to_fresh(&current.page, &candidates, navigated, &self.revealed) {
                self.leads.insert(click);
            } else {
                self.leads.remove(&click);
            }
        }
        // The choices of the form change the move follows right after (`chain` 1).
        let mut following: Vec<String> = Vec::new();
        // A setting's tour starts once the change's moves are taken, or at once when
        // its page has nothing of its own to look at under it.
        let mut tour_now = self.changes.is_empty();
        if self.config.features.local_after_change
            && !self.changes.is_empty()
            && self.plan.is_empty()
        {
            let navigation = navigation(&self.spread);
            let source = self.change_source.as_ref();
            let setting = self
                .changes
                .back()
                .is_some_and(|(c, _)| c.starts_with(STORED_CHANGE));
            let local;
            (candidates, local) = local_candidates(
                &current.page,
                candidates,
                navigation,
                source,
                setting,
                self.setting_control,
            );
            tour_now |= setting && !local;
            // One of each before any again: the toggle that opened a panel does not
            // take the moves a tab next to it needs.
            let taken = &self.since_change;
            if candidates.iter().any(|c| !taken.contains(&c.key)) {
                candidates.retain(|c| !taken.contains(&c.key));
            }
            let chain = if self
                .changes
                .iter()
                .any(|(c, _)| !c.starts_with(STORED_CHANGE))
            {
                self.chain
            } else {
                0
            };
            if setting && local {
                candidates = views_first(&current.page, candidates);
            } else if !setting && self.post_answer.as_ref() == Some(&current.page.url) {
                candidates = confirmations(&current.page, candidates);
            } else if !setting && local && chain == 1 {
                let made = self
                    .changes
                    .iter()
                    .rev()
                    .find(|(c, _)| !c.starts_with(STORED_CHANGE))
                    .map(|(c, _)| change_choices(c))
                    .unwrap_or_default();
                candidates = writes_first(&current.page, candidates, &self.openers);
                candidates = untried_after(&current.page, candidates, &made, &self.followed);
                // A page with nothing to fill and save shows the change: what is
                // under it first (an archived project's export). Where another change
                // can be made, the pair of changes is worth more.
                if !edits(&current.page) {
                    candidates = deeper_first(&current.page, candidates, &self.editors);
                }
                following = made;
            } else if !setting && local && chain >= 2 {
                candidates = links_first(&current.page, candidates, &self.editors);
            }
        }
        let revealed = std::mem::take(&mut self.revealed);
        if !revealed.is_empty() && self.plan.is_empty() {
            candidates = revealed_candidates(&current.page, candidates, &revealed);
            if self.config.features.local_after_change
                && self
                    .changes
                    .back()
                    .is_some_and(|(c, _)| !c.starts_with(STORED_CHANGE))
            {
                candidates = valid_first(&current.page, candidates);
            }
        } else if self.config.features.setting_tours
            && tour_now
            && self.plan.is_empty()
            && !self.settings.is_empty()
            && self
                .stored_at
                .is_some_and(|at| self.episode_moves < at + SETTING_ROOM)
        {
            let navigation = navigation(&self.spread);
            let (settings, toured) = (&self.settings, &self.toured);
            let unseen = |kind: &str| {
                settings
                    .iter()
                    .any(|s| !toured.contains(&(s.clone(), kind.to_string())))
            };
            candidates = tour_candidates(&current.page, candidates, navigation, unseen);
        }
        if self.config.features.setting_tours && self.plan.is_empty() {
            let (setters, probed) = (&self.setters, &self.probed);
            // The toggles that last showed options never chosen, of a setting hidden now.
            let toggles: HashSet<String> = self
                .shows
                .iter()
                .filter(|(_, selects)| {
                    !selects.iter().any(|(key, _)| current.keys.contains(key))
                        && selects.iter().any(|(key, field)| {
                            setters.contains(key) && offers_fresh(field, &self.filler)
                        })
                })
                .map(|(click, _)| click.clone())
                .collect();
            candidates = if self.episode_moves + SETTING_ROOM <= self.config.episode_steps {
                fresh_settings(&current.page, candidates, setters, probed, &toggles)
            } else {
                held_settings(&current.page, candidates, setters, probed, &toggles)
            };
        }
        if let Some(back) = back {
            candidates = vec![back];
        }
        let Some(index) = self.choose(&current, &candidates) else {
            self.need_reset = true;
            return Ok(());
        };
        let candidate = &candidates[index];
        if let Some(key) = spread_key(&current.page, candidate) {
            for made in following {
                self.followed.insert((made, key.clone()));
            }
        }
        if !self.changes.is_empty() {
            self.since_change.insert(candidate.key.clone());
        }
        let mut filler = SolvedFiller {
            inner: &mut self.filler,
            solved: &self.solved,
        };
        let planned = plan_move(
            &current.page,
            candidate,
            self.config.features.semantic_values,
            &mut filler,
            &mut self.rng,
        );
        let key = candidate.key.clone();
        let loaded_with = self.since_load.clone();
        let reach = self.reach.clone();
        let mut move_steps: Vec<Step> = Vec::new();
        let mut leave = false;
        let mut crashed = false;
        let multi = planned.len() > 1;
        // Whether the last page the move loaded answered a POST.
        let mut posted: Option<bool> = None;
        for p in planned {
            let t = Instant::now();
            // Inside a form macro, typing and choosing wait only while the page reacts;
            // the submit click waits as every move does. A box left as it is only
            // records its state.
            let outcome = match &p.action {
                None => Ok(Outcome {
                    url_before: current.page.url.clone(),
                    url_after: current.page.url.clone(),
                    ..Outcome::default()
                }),
                Some(action) if multi && !matches!(action, UserAction::Click(_)) => {
                    self.tab().perform_edit(action).await
                }
                Some(action) => self.tab().perform(action).await,
            };
            self.browser_time += t.elapsed();
            let outcome = match outcome {
                Ok(o) => o,
                // The page changed under us (a re-render): a form macro goes on with the
                // next field; a single action is simply not taken.
                Err(BrowserError::Stale { .. }) if multi => continue,
                Err(BrowserError::Stale { .. }) => break,
                Err(e) => return self.browser_failure(e),
            };
            self.failures = 0;
            if p.action.is_some() {
                self.actions += 1;
            }
            if let Some(UserAction::Select(target, value)) = &p.action {
                self.note_choice(&current.page, target, value, &p.step);
            }
            move_steps.push(p.step.clone());
            let navigated = outcome.url_after != outcome.url_before;
            if let Some(document) = outcome
                .responses
                .iter()
                .rev()
                .find(|r| r.resource_type == "Document")
            {
                posted = Some(document.method.eq_ignore_ascii_case("POST"));
            }
            if navigated {
                self.since_load.clear();
            } else {
                self.since_load.push(p.step.clone());
            }
            let loaded_by_get = outcome
                .responses
                .iter()
                .rev()
                .find(|r| r.resource_type == "Document")
                .is_some_and(|d| !d.method.eq_ignore_ascii_case("POST"));
            if navigated && loaded_by_get && !outcome.in_popup {
                self.reach = vec![goto(&outcome.url_after)];
            } else {
                self.reach.push(p.step.clone());
            }
            crashed = outcome.crashed;
            leave = !self.tab().scope().contains(&outcome.url_after)
                || !self.config.pages.allows(&outcome.url_after);
            let ctx = StepContext {
                state: Some(current.state),
                page_url: &current.page.url,
                move_steps: &move_steps,
                reach: &reach,
                in_popup: current.in_popup,
            };
            self.record(p.step, current.page.url.clone(), &outcome, ctx, on_event)
                .await?;
            if crashed || leave || (multi && navigated) {
                break;
            }
        }
        if move_steps.is_empty() {
            return Ok(()); // nothing happened; look again
        }
        note_used(&current.page, candidate, &move_steps, &mut self.filler);
        if let Move::Choose { action, .. } = candidate.kind
            && let Some(a) = current.page.actions.get(action)
        {
            self.probed.insert(a.key.0.clone());
        }
        if self.config.features.fresh_first && clicked(&current.page, candidate).is_some() {
            self.last_click = Some((candidate.key.clone(), current.page.url.clone()));
        }
        if submits(&current.page, candidate)
            && self.post_answer.as_ref() != Some(&current.page.url)
            && self.tab().scope().contains(&current.page.url)
        {
            let mut setup = vec![goto(&current.page.url)];
            setup.extend(loaded_with);
            setup.extend(move_steps.iter().cloned());
            self.setups.insert(page_kind(&current.page.url), setup);
        }
        self.moves += 1;
        self.episode_moves += 1;
        let mut form_change = false;
        // An invalid fill's change, made if the server took it: its form not shown again.
        let mut unsure = None;
        if self.tracks_changes() {
            let change = change_label(&current.page, candidate);
            let sure = match change {
                Some((form, label, true)) => Some((form, label)),
                Some((form, label, false)) => {
                    unsure = Some((form, label));
                    None
                }
                None => None,
            };
            if let Some((form, _)) = &sure {
                self.begin_change(form, &current.page.url);
                form_change = true;
            }
            self.note_change(sure.map(|(_, label)| label));
        }
        if self.episode_moves >= self.config.episode_steps || crashed || leave {
            self.need_reset = true;
        }
        if crashed {
            return Ok(());
        }
        if leave {
            // Leaving the app ends the episode and is not worth repeating.
            self.note_transition(current.state, None, &move_steps)?;
            self.edge_steps
                .insert((current.state, key.clone()), move_steps);
            self.learner.observe_off_scope(current.state, &key);
            return Ok(());
        }
        let stored_before = self.stored.clone();
        let (next, is_new) = match self.look().await {
            Ok(n) => n,
            Err(e) => return self.browser_failure(e),
        };
        if self.stored != stored_before {
            self.note_setting(&reach, &move_steps);
            if let Move::Choose { action, .. } = candidate.kind
                && let Some(a) = current.page.actions.get(action)
            {
                self.setters.insert(a.key.0.clone());
            }
            self.setting_control = match candidate.kind {
                Move::Single(i) => current
                    .page
                    .actions
                    .get(i)
                    .map(|a| a.target.backend_node_id),
                _ => None,
            };
        }
        // The answer to a POST (not redirected) cannot be opened again: a form met there
        // is studied, and a submission made there replayed, from a page that can be.
        let filled_on_answer = self.post_answer.as_ref() == Some(&current.page.url);
        match posted {
            Some(true) => self.post_answer = Some(next.page.url.clone()),
            Some(false) => self.post_answer = None,
            None if self.post_answer.as_ref() != Some(&next.page.url) => self.post_answer = None,
            None => {}
        }
        // A change posted as the episode's moves run out and answered by a page that
        // asks to confirm it (a review's "Confirm change") gets its confirmation
        // first: a change reviewed and never confirmed was never made.
        if self.need_reset
            && self.config.features.local_after_change
            && posted == Some(true)
            && self.episode_moves < self.config.episode_steps + CONFIRM_ROOM
            && asks_to_confirm(&next.page)
        {
            self.need_reset = false;
        }
        // A form the answer to a POST showed, filled there and answered by a POST again.
        let answered_again = filled_on_answer && posted == Some(true);
        let met = |signature: &str| {
            answered_again
                .then(|| self.solved_at.get(signature).map(|p| p.url.clone()))
                .flatten()
        };
        if let Some(signature) = refused(&current.page, candidate, &next.page, met) {
            // A refusal changed nothing; and values the form accepted once no longer
            // pass (a rule that moved with the app's data: seats at least the team's
            // members, who were invited since): its session runs again the next time
            // the form is met, once in a run. What the fill chose is still to be sent
            // (Business billed yearly, refused for a seat count the team outgrew).
            if let Move::Form { form, fill } = &candidate.kind
                && let Some(form) = current.page.forms.get(*form)
            {
                self.filler.refused(form, fill);
            }
            if self.tracks_changes() {
                self.changes.pop_back();
                self.chain = self.chain.saturating_sub(1);
            }
            form_change = false;
            let again = self.resolved.entry(signature.clone()).or_insert(0);
            if *again < MAX_RESESSIONS && self.solved.contains_key(&signature) {
                *again += 1;
                self.solved.remove(&signature);
            }
        }
        if let Some((form, label)) = unsure
            && !next.page.forms.iter().any(|f| form_signature(f) == form)
        {
            self.begin_change(&form, &current.page.url);
            self.remember_change(label);
            form_change = true;
        }
        if form_change {
            self.chain_end = url_path(&next.page.url);
        }
        if let Some(a) = clicked(&current.page, candidate)
            && a.href.is_some()
            && next.page.url != current.page.url
        {
            if edits(&next.page) {
                self.editors.insert(a.key.0.clone());
            } else {
                self.editors.remove(&a.key.0);
            }
        }
        let new_elements = next.keys.difference(&current.keys).count();
        // A click that opened something on the page (not a new page), and is still
        // there (a toggle that swapped itself, "Start timer" for "Stop timer", opened
        // nothing): what it showed.
        if self.config.features.follow_reveals
            && let Move::Single(i) = candidate.kind
            && current
                .page
                .actions
                .get(i)
                .is_some_and(|a| next.keys.contains(&a.key.0))
            && next.page.url == current.page.url
        {
            self.revealed = next.keys.difference(&current.keys).cloned().collect();
            let selects: Vec<(String, Field)> = next
                .page
                .actions
                .iter()
                .filter(|a| a.kind == ActionKind::Select && self.revealed.contains(&a.key.0))
                .filter_map(|a| Some((a.key.0.clone(), a.field.clone()?)))
                .collect();
            if !selects.is_empty()
                && let Some(a) = current.page.actions.get(i)
            {
                self.shows.insert(a.key.0.clone(), selects);
            }
            let shows_form = next.page.forms.iter().any(|f| {
                f.method.as_deref() == Some("post")
                    && f.submit.as_ref().is_some_and(|s| {
                        next.page.actions.iter().any(|a| {
                            a.target.backend_node_id == s.backend_node_id
                                && self.revealed.contains(&a.key.0)
                        })
                    })
            });
            if shows_form && let Some(a) = current.page.actions.get(i) {
                self.openers.insert(a.key.0.clone());
            }
        }
        self.note_transition(current.state, Some(next.state), &move_steps)?;
        self.edge_steps
            .insert((current.state, key.clone()), move_steps);
        let learner = &mut self.learner;
        learner.observe(current.state, &key, next.state, is_new, new_elements);
        if self.config.strategy != StrategyKind::Random
            && self.plan.is_empty()
            && learner.is_stuck()
            && let Some(start) = self.start_state
            && let Some(plan) = learner.plan_jump(start)
        {
            self.plan = plan
                .path
                .iter()
                .map(|e| (e.from, e.action.clone()))
                .chain(std::iter::once((
                    plan.target.state,
                    plan.target.action.clone(),
                )))
                .collect();
            self.need_reset = true;
        }
        // The session was lost (the app logged the user out, or it expired): the next
        // episode logs in again.
        if self.config.login.as_ref().is_some() && !next.logged_in {
            self.need_reset = true;
        }
        if !self.need_reset {
            self.current = Some(next);
        }
        Ok(())
    }

    /// The next candidate: the planned one while a jump is being replayed, else the
    /// strategy's choice.
    fn choose(&mut self, current: &Current, candidates: &[Candidate]) -> Option<usize> {
        let keys: Vec<String> = candidates.iter().map(|c| c.key.clone()).collect();
        let chosen = match self.config.strategy {
            StrategyKind::Random => random_index(candidates, &mut self.rng),
            _ if self.config.features.local_first || self.config.features.fresh_first => {
                let navigation = navigation(&self.spread);
                let leads = |key: &str| self.leads.contains(key);
                let weights = local_weights(
                    &current.page,
                    candidates,
                    navigation,
                    leads,
                    &self.config.features,
                );
                self.learner.choose_weighted(current.state, &keys, &weights)
            }
            _ => self.learner.choose(current.state, &keys),
        };
        if let Some((state, next)) = self.plan.pop_front() {
            match keys.iter().position(|k| *k == next) {
                Some(i) if state == current.state => return Some(i),
                // The app went elsewhere this time: give up the plan, explore from here.
                _ => self.plan.clear(),
            }
        }
        chosen
    }

    /// Remembers how the tab came to store what it stores now: the move just taken,
    /// from the latest page loaded by a GET (`reach`). Nothing stored, nothing to make.
    fn note_setting(&mut self, reach: &[Step], move_steps: &[Step]) {
        if self.stored.as_deref().is_none_or(str::is_empty) {
            self.settings_made.clear();
            return;
        }
        let mut made = reach.to_vec();
        made.extend(move_steps.iter().cloned());
        self.settings_made.push_back(made);
        while self.settings_made.len() > SETTINGS_REPLAYED {
            self.settings_made.pop_front();
        }
    }

    /// Whether the episode's latest changes are kept (`change-contexts`,
    /// `local-after-change`).
    fn tracks_changes(&self) -> bool {
        self.config.features.change_contexts || self.config.features.local_after_change
    }

    /// Forgets the changes made more than [`CONTEXT_MOVES`] moves ago, then remembers
    /// `change` (made by the move just taken).
    fn note_change(&mut self, change: Option<String>) {
        let now = self.episode_moves;
        self.changes.retain(|(_, at)| now - at < CONTEXT_MOVES);
        if let Some(change) = change {
            self.remember_change(change);
        }
    }

    /// Notes that the latest move made a form change with the form of `signature` on the
    /// page at `url`: where it was made, and how far the chain of changes goes.
    fn begin_change(&mut self, signature: &str, url: &str) {
        let path = url_path(url).unwrap_or_default();
        let now = self.episode_moves;
        let follows = self.chain_end.as_deref() == Some(path.as_str())
            && self
                .changes
                .iter()
                .any(|(c, at)| !c.starts_with(STORED_CHANGE) && now - at < CONTEXT_MOVES);
        self.chain = if follows { self.chain + 1 } else { 1 };
        self.change_source = Some(ChangeSource {
            form: signature.to_string(),
            path,
        });
    }

    /// Remembers `change`, made by the latest move, keeping the latest
    /// [`CONTEXT_CHANGES`].
    fn remember_change(&mut self, change: String) {
        self.since_change.clear();
        self.changes.retain(|(c, _)| *c != change);
        self.changes.push_back((change, self.episode_moves));
        while self.changes.len() > CONTEXT_CHANGES {
            self.changes.pop_front();
        }
    }

    /// Runs a short form-testing session on each form of the page not met before
    /// (once per form signature, at most [`MAX_FORM_SESSIONS`] per run), each submission
    /// in its own fresh context, and keeps the values it got accepted. Returns the
    /// submissions that provoked failures of the app.
    async fn solve_new_forms(
        &mut self,
        current: &Current,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<Vec<Vec<(Step, Outcome)>>, BrowserError> {
        let mut failing = Vec::new();
        if self.post_answer.as_ref() == Some(&current.page.url) {
            return Ok(failing);
        }
        for (i, form) in current.page.forms.iter().enumerate() {
            let signature = form_signature(form);
            // Form sessions together take at most their share of the budget; past it,
            // forms are filled by the moves' macros alone.
            let share = self.config.time.mul_f64(FORM_SESSIONS_SHARE);
            if self.solved.contains_key(&signature)
                || self.solved.len() >= MAX_FORM_SESSIONS
                || form.submit.is_none()
                || form.fields.is_empty()
                || self.form_time >= share
            {
                continue;
            }
            let t = Instant::now();
            let cap = FORM_SESSION_CAP.min(share - self.form_time);
            on_event(RunEvent::FormSession {
                url: current.page.url.clone(),
                cap,
            });
            let tools = SessionTools {
                browser: &self.browser,
                llm: self.llm.as_ref(),
                deadline: t + cap,
            };
            // Where the form was first met, and how it was shown there: a form shown
            // again by a refusal sits at an address a browser cannot open again (the
            // answer to a POST).
            let reveal = if self.since_load.len() <= MAX_REVEAL_STEPS {
                self.since_load.clone()
            } else {
                Vec::new()
            };
            let place = self
                .solved_at
                .entry(signature.clone())
                .or_insert_with(|| FormPlace {
                    url: current.page.url.clone(),
                    reveal,
                    page: current.page.clone(),
                    snapshot: current.snapshot.clone(),
                    index: i,
                });
            let (url, reveal) = (place.url.clone(), place.reveal.clone());
            let accepted = solve_form(
                tools,
                (&url, &reveal),
                &current.page,
                &current.snapshot,
                i,
                &self.config,
                self.config.seed ^ self.solved.len() as u64,
            )
            .await;
            self.browser_time += t.elapsed();
            self.form_time += t.elapsed();
            let solved = accepted?;
            if solved.cut {
                self.notes.push(format!(
                    "the form session on {} was cut after {:.0} s (its share of the budget)",
                    current.page.url,
                    t.elapsed().as_secs_f64()
                ));
            }
            self.solved.insert(signature, solved.accepted);
            failing.extend(solved.failing);
        }
        Ok(failing)
    }

    /// Records the submissions of form sessions that provoked failures, each as a trace
    /// of its own (the page's load, the fills, the submit) among the episode's steps, so
    /// that what a session provoked is a finding like any other, checked by replay.
    async fn record_session_failures(
        &mut self,
        failing: Vec<Vec<(Step, Outcome)>>,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        for submission in failing {
            let episode_trace = std::mem::take(&mut self.trace);
            let steps: Vec<Step> = submission.iter().map(|(s, _)| s.clone()).collect();
            let url = steps
                .first()
                .and_then(|s| s.value.clone())
                .unwrap_or_default();
            let mut recorded = Ok(());
            for (i, (step, outcome)) in submission.into_iter().enumerate() {
                let ctx = StepContext {
                    state: None,
                    page_url: &url,
                    move_steps: &steps[..=i],
                    reach: &[],
                    in_popup: false,
                };
                recorded = self
                    .record(step, url.clone(), &outcome, ctx, on_event)
                    .await;
                if recorded.is_err() {
                    break;
                }
            }
            self.trace = episode_trace;
            recorded?;
        }
        Ok(())
    }

    /// Snapshots the tab and places the page among the known states: by its normalised
    /// URL, what it stores (`storage-states`), the episode's latest changes
    /// (`change-contexts`) and its tag sequence.
    async fn look(&mut self) -> Result<(Current, bool), BrowserError> {
        let t = Instant::now();
        let capture = self.tab().snapshot().await;
        self.browser_time += t.elapsed();
        let capture = capture?;
        let mut page = Page::from_snapshot(&capture.snapshot);
        if self.config.features.action_guard {
            self.config.guard.strip_denied_options(&mut page);
        }
        let url = normalize_url(&page.url, &self.config.url_normalization);
        let mut place = url.clone();
        // The learner's novelty group: the stored setting, and whether a change was
        // just made (what is often done right after changes, such as leaving through
        // the navigation, fades there; an archived project's Export does not).
        let mut group_key = String::new();
        if self.config.features.storage_states {
            let t = Instant::now();
            // Unreadable storage (a page going away) reads as empty.
            let stored = self.tab().storage().await.unwrap_or_default();
            self.browser_time += t.elapsed();
            let settings = self.storage.items(&stored);
            let fingerprint = settings.join("; ");
            // A setting stored by the move just taken (a timezone, a filter, a timer)
            // is a change like a form's.
            if self.stored.as_ref().is_some_and(|s| *s != fingerprint) {
                self.stored_at = Some(self.episode_moves);
                if self.tracks_changes() {
                    self.remember_change(format!("{STORED_CHANGE}{fingerprint}"));
                }
            }
            self.stored = Some(fingerprint.clone());
            if self.config.features.setting_tours {
                let kind = page_kind(&page.url);
                for setting in &settings {
                    self.toured.insert((setting.clone(), kind.clone()));
                }
                self.settings = settings;
            }
            if !fingerprint.is_empty() {
                place = format!("{place} [{fingerprint}]");
                group_key = fingerprint;
            }
        }
        if self.config.features.change_contexts && !self.changes.is_empty() {
            let changes: Vec<&str> = self.changes.iter().map(|(c, _)| c.as_str()).collect();
            let changes = changes.join(" then ");
            place = format!("{place} after {changes}");
            group_key = format!("{group_key} after {changes}");
        }
        let group = if group_key.is_empty() {
            0
        } else {
            let next = self.groups.len() as u32 + 1;
            *self.groups.entry(group_key).or_insert(next)
        };
        let tags = if self.config.features.element_merging {
            &page.merged_tag_sequence
        } else {
            &page.tag_sequence
        };
        let found = self.states.lookup(&place, tags);
        self.learner.set_group(found.id.0, group);
        if found.is_new {
            self.note_state(found.id.0, &page.url).await;
        }
        self.page_kinds.insert(url);
        if self.config.features.local_after_change || self.config.features.setting_tours {
            note_spread(&mut self.spread, &page);
        }
        let keys = page.actions.iter().map(|a| a.key.0.clone()).collect();
        let t = Instant::now();
        let denied = if self.config.features.action_guard {
            let tab = self
                .tab
                .as_ref()
                .expect("a tab is open after start_episode");
            self.config.guard.denied_nodes(tab).await?
        } else {
            Vec::new()
        };
        let in_popup = self.tab.as_ref().is_some_and(Tab::in_popup);
        // A popup (a picker, a help window) shows none of the app's own frame, its
        // log-out control neither: the session is checked on the pages of the window.
        let logged_in = match &self.config.login {
            Some(_) if in_popup => true,
            Some(login) => {
                let tab = self
                    .tab
                    .as_ref()
                    .expect("a tab is open after start_episode");
                login.logged_in(tab).await?
            }
            None => true,
        };
        self.browser_time += t.elapsed();
        Ok((
            Current {
                page,
                snapshot: capture.snapshot,
                state: found.id.0,
                keys,
                denied,
                logged_in,
                in_popup,
            },
            found.is_new,
        ))
    }

    async fn start_episode(
        &mut self,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        let url = self.config.start_url.to_string();
        if self.step_index > 0 {
            self.episode += 1;
        }
        self.trace.clear();
        self.since_load.clear();
        self.reach = vec![goto(&url)];
        self.current = None;
        self.changes.clear();
        self.since_change.clear();
        self.stored = None;
        self.settings_made.clear();
        self.setting_control = None;
        self.post_answer = None;
        self.change_source = None;
        self.revealed.clear();
        self.last_click = None;
        self.stored_at = None;
        self.episode_moves = 0;
        let t = Instant::now();
        if let Some(old) = self.tab.take() {
            self.coverage.merge(old.coverage());
            old.close().await;
        }
        let tab = self.browser.new_tab().await;
        self.browser_time += t.elapsed();
        match tab {
            Ok(tab) => self.tab = Some(tab),
            Err(e) => return self.browser_failure(e),
        }
        if let Some(login) = self.config.login.clone() {
            let t = Instant::now();
            let logged_in = log_in(self.tab(), &login).await;
            self.browser_time += t.elapsed();
            if let Ok(check) = &logged_in
                && login.check.is_none()
                && check.is_some()
            {
                on_event(RunEvent::Note(format!(
                    "logged in; the session is checked on every page by {}",
                    check.as_deref().unwrap_or_default()
                )));
                if let Some(l) = self.config.login.as_mut() {
                    l.check = check.clone();
                }
            }
            if let Err(source) = logged_in {
                // A login that never worked is the configuration's fault; one that
                // stops working is the app's, and the run tries again.
                self.failures += 1;
                if self.step_index == 0 {
                    return Err(RunError::Login { url, source });
                }
                if self.failures >= MAX_CONSECUTIVE_FAILURES {
                    self.lose_login(&source, on_event);
                }
                self.need_reset = true;
                return Ok(());
            }
        }
        let t = Instant::now();
        let outcome = self.tab().goto(&url).await;
        self.browser_time += t.elapsed();
        let outcome = match outcome {
            Ok(o) => o,
            Err(e) => return self.browser_failure(e),
        };
        if let Some(reason) = &outcome.navigation_error {
            if self.step_index == 0 {
                return Err(RunError::Unreachable {
                    url,
                    reason: reason.clone(),
                });
            }
            self.failures += 1;
            if self.failures >= MAX_CONSECUTIVE_FAILURES {
                return Err(RunError::Unreachable {
                    url,
                    reason: reason.clone(),
                });
            }
        } else {
            self.need_reset = false;
        }
        let step = goto(&url);
        let steps = [step.clone()];
        let ctx = StepContext {
            state: None,
            page_url: &url,
            move_steps: &steps,
            reach: &[],
            in_popup: false,
        };
        self.record(step, url.clone(), &outcome, ctx, on_event)
            .await?;
        if self.need_reset {
            return Ok(());
        }
        match self.look().await {
            Ok((current, _)) => {
                if let Some(login) = &self.config.login
                    && !current.logged_in
                {
                    let source = LoginError::NotLoggedIn {
                        check: login.check.clone().unwrap_or_default(),
                        url: current.page.url.clone(),
                    };
                    self.failures += 1;
                    if self.episode == 0 {
                        return Err(RunError::Login { url, source });
                    }
                    if self.failures >= MAX_CONSECUTIVE_FAILURES {
                        self.lose_login(&source, on_event);
                    }
                    self.need_reset = true;
                    return Ok(());
                }
                if self.start_state.is_none() {
                    self.start_state = Some(current.state);
                }
                self.learner.episode_start(current.state);
                self.current = Some(current);
                Ok(())
            }
            Err(e) => self.browser_failure(e),
        }
    }

    /// Ends the run when logging in, which worked at first, keeps failing: the run
    /// itself may have taken the account away (deleted it, changed its password). What
    /// it found is kept and reported.
    fn lose_login(&mut self, source: &LoginError, on_event: &mut (dyn FnMut(RunEvent) + Send)) {
        on_event(RunEvent::Note(format!(
            "logging in failed {} times in a row ({source}); the run ends here with what it found",
            self.failures
        )));
        self.halt = Some("login_lost");
    }

    fn browser_failure(&mut self, e: BrowserError) -> Result<(), RunError> {
        self.failures += 1;
        self.need_reset = true;
        if self.failures >= MAX_CONSECUTIVE_FAILURES {
            let url = self.tab.as_ref().map(Tab::url).unwrap_or_default();
            return Err(RunError::Browser { url, source: e });
        }
        Ok(())
    }

    async fn record(
        &mut self,
        step: Step,
        page_url: String,
        outcome: &Outcome,
        ctx: StepContext<'_>,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        let index = self.step_index;
        self.step_index += 1;
        self.trace.push(step.clone());
        self.store.append_step(
            self.run,
            &StepRecord {
                index,
                episode: self.episode,
                step: step.clone(),
                page_url: page_url.clone(),
                result_url: outcome.url_after.clone(),
                duration_ms: outcome.duration.as_millis() as u64,
                js_click_fallback: outcome.js_click_fallback,
                settle_timed_out: outcome.settle_timed_out,
            },
        )?;
        on_event(RunEvent::Step {
            index,
            episode: self.episode,
            url: outcome.url_after.clone(),
            step: step.clone(),
        });
        for o in &outcome.observations {
            let mut o = o.clone();
            o.step = index;
            self.store.append_observation(self.run, &o)?;
            if !is_finding(&o) {
                continue;
            }
            // A link of the app's own that leads to a missing page joins the one
            // finding of broken links; a missing page the run typed or jumped to is not
            // a link.
            let mut signature = signature_in(&o, outcome);
            let link = (signature == BROKEN_LINKS).then(|| BrokenLink {
                url: o.url.clone(),
                page: page_url.clone(),
                text: step_text(&step),
                status: o.status.unwrap_or(404),
            });
            if link.is_some() && step.kind != StepKind::Click {
                signature = findings::signature(&o);
            }
            let link = link.filter(|_| step.kind == StepKind::Click);
            let known = self.findings.contains_key(&signature);
            let message = if link.is_some() {
                BROKEN_LINKS_MESSAGE.to_string()
            } else {
                o.message.clone()
            };
            let finding = Finding {
                id: FindingId(0),
                signature: signature.clone(),
                kind: o.kind,
                message: message.clone(),
                url: o.url.clone(),
                source: o.source.clone(),
                status: o.status,
                first_step: index,
                trace: self.trace.clone(),
                occurrences: 1,
                screenshot: None,
                reproduced: None,
                severity: Severity::of(o.kind, o.status),
                links: Vec::new(),
            };
            let id = self.store.record_finding(self.run, &finding)?;
            if let Some(link) = &link {
                self.store.add_broken_link(self.run, id, link)?;
            }
            if known {
                continue;
            }
            self.findings.insert(signature.clone(), id);
            if self.config.screenshots && !outcome.crashed {
                self.screenshot(id).await?;
            }
            on_event(RunEvent::Finding {
                id,
                kind: o.kind,
                message: short_title(&message),
            });
            if self.config.verify_findings {
                self.verify(id, &signature, &ctx).await?;
            }
        }
        Ok(())
    }

    /// Replays a new finding in a fresh context and keeps the first trace that
    /// reproduces it, trying the shortest first: straight to the page where it happened,
    /// then the triggering move (a bug report as a person would write it); from the
    /// latest page loaded by a GET; both again after the moves that made what the tab
    /// stores; the transition graph's shortest path from the start page to that state,
    /// then the move; the episode's own steps. The others are kept for
    /// [`Self::reconfirm`].
    async fn verify(
        &mut self,
        id: FindingId,
        signature: &str,
        ctx: &StepContext<'_>,
    ) -> Result<(), RunError> {
        let started = Instant::now();
        let mut tries: Vec<Vec<Step>> = Vec::new();
        if ctx.state.is_some() && !ctx.in_popup && self.tab().scope().contains(ctx.page_url) {
            let mut direct = vec![goto(ctx.page_url)];
            direct.extend(ctx.move_steps.iter().cloned());
            tries.push(direct);
        }
        // From the latest page loaded by a GET: the direct way to a page that answered
        // a POST (a review page) or showed a dialog.
        if !ctx.reach.is_empty() {
            let mut reached = ctx.reach.to_vec();
            reached.extend(ctx.move_steps.iter().cloned());
            tries.push(reached);
        }
        // Both again after making what the tab stores (a timer started pages earlier).
        if !self.settings_made.is_empty() {
            let made: Vec<Step> = self.settings_made.iter().flatten().cloned().collect();
            let again: Vec<Vec<Step>> = tries
                .iter()
                .map(|t| made.iter().chain(t.iter()).cloned().collect())
                .collect();
            tries.extend(again);
        }
        if let (Some(state), Some(start)) = (ctx.state, self.start_state)
            && let Some(path) = self.learner.shortest_path(start, state)
        {
            let mut short = vec![self.trace[0].clone()];
            let mut complete = true;
            for edge in &path {
                match self.edge_steps.get(&(edge.from, edge.action.clone())) {
                    Some(steps) => short.extend(steps.iter().cloned()),
                    None => complete = false,
                }
            }
            short.extend(ctx.move_steps.iter().cloned());
            if complete {
                tries.push(short);
            }
        }
        tries.push(self.trace.clone());
        // What was saved on the page earlier in the run (in another episode, perhaps)
        // may be what the failure needs: each trace again, after that submission.
        if let Some(setup) = self.setups.get(&page_kind(ctx.page_url)) {
            let again: Vec<Vec<Step>> = tries
                .iter()
                .map(|t| setup.iter().chain(t.iter()).cloned().collect())
                .collect();
            tries.extend(again);
        }
        // Each again without what was typed and chosen before the click that opened
        // what the failing move acts in (see `lean`), so that a trace changes no more
        // than the failure needs.
        let leaner: Vec<Vec<Step>> = tries.iter().filter_map(|t| lean(t)).collect();
        tries.extend(leaner);
        tries.sort_by_key(Vec::len);
        tries.dedup();
        let (trace, reproduced) = self.first_reproducing(&tries, signature).await;
        self.store
            .set_finding_trace(self.run, id, &trace, reproduced)?;
        let traces = Traces {
            signature: signature.to_string(),
            kept: trace,
            tries,
        };
        self.alternates.insert(id, traces);
        self.replay_time += started.elapsed();
        Ok(())
    }

    /// The first of `tries` that reproduces `signature`, with `Some(true)`; else the
    /// longest, with `Some(false)`, or `None` when the browser failed during a check
    /// (which says nothing about the finding).
    async fn first_reproducing(
        &self,
        tries: &[Vec<Step>],
        signature: &str,
    ) -> (Vec<Step>, Option<bool>) {
        self.first_reproducing_noting(tries, signature, &mut Stopped::default())
            .await
    }

    /// [`Self::first_reproducing`], noting in `stopped` each try that stopped short,
    /// and where.
    async fn first_reproducing_noting(
        &self,
        tries: &[Vec<Step>],
        signature: &str,
        stopped: &mut Stopped,
    ) -> (Vec<Step>, Option<bool>) {
        let mut verdict = (tries.last().cloned().unwrap_or_default(), Some(false));
        for trace in tries {
            let started = Instant::now();
            let replayed =
                replay_trace(&self.browser, self.config.login.as_ref(), trace, signature).await;
            self.replays.note(started.elapsed());
            match replayed {
                Ok(report) if report.reproduced => return (trace.clone(), Some(true)),
                Ok(report) => stopped.note(trace, &report),
                Err(_) => verdict.1 = None,
            }
        }
        verdict
    }

    /// Remembers a choice of `value` in the select `target` on `page`, made by `step`.
    fn note_choice(&mut self, page: &Page, target: &curio_page::Target, value: &str, step: &Step) {
        let field = page
            .actions
            .iter()
            .find(|a| a.target.backend_node_id == target.backend_node_id)
            .and_then(|a| a.field.as_ref());
        let option = field.and_then(|f| f.options.iter().find(|o| o.value == value));
        if let Some(option) = option {
            self.option_texts.insert(
                (step.selector.clone(), value.to_string()),
                option.text.trim().to_string(),
            );
        }
        if step.locator.is_empty() {
            return;
        }
        let made = self
            .choices_made
            .entry(step.locator.clone())
            .or_insert_with(|| ChoicesMade {
                page_url: page.url.clone(),
                step: step.clone(),
                values: Vec::new(),
            });
        made.page_url = page.url.clone();
        made.step = step.clone();
        // What it showed before is a value the app had too (a member's role as seeded).
        let shown = field.map(|f| f.value.as_str()).filter(|v| !v.is_empty());
        for value in shown.into_iter().chain([value]) {
            made.values.retain(|v| v != value);
            made.values.push(value.to_string());
        }
    }

    /// The text of the option of `value` in the select at `selector`, as the run saw
    /// it: chosen by a move, or offered in a form a session studied (whose own
    /// submissions find failures too).
    fn option_text(&self, selector: &str, value: &str) -> Option<&str> {
        if let Some(text) = self
            .option_texts
            .get(&(selector.to_string(), value.to_string()))
        {
            return Some(text);
        }
        let mut places: Vec<&FormPlace> = self.solved_at.values().collect();
        places.sort_by_key(|place| (&place.url, place.index));
        let forms = places
            .into_iter()
            .filter_map(|place| place.page.forms.get(place.index));
        offered_text(forms, selector, value)
    }

    /// The first of the `unoffered` traces (each stopped at a choice its select no
    /// longer offers) that reproduces `signature` once what the run changed about the
    /// option is set back: an assignee is offered no more once made a viewer, and the
    /// select that made them one is named after them ("Role of Priya Nair"). Each
    /// value such a select showed or was given in the run, but the latest, latest
    /// first, is chosen again (from the page it was last chosen on) before the trace.
    /// `None` when no select of the run is named after a missing option.
    async fn restored(
        &self,
        unoffered: &[(Vec<Step>, usize)],
        signature: &str,
    ) -> Option<(Vec<Step>, Option<bool>)> {
        let mut again: Vec<Vec<Step>> = Vec::new();
        for (trace, at) in unoffered {
            let step = &trace[*at];
            let Some(text) = step
                .value
                .as_ref()
                .and_then(|v| self.option_text(&step.selector, v))
                .filter(|t| t.chars().count() >= 3)
            else {
                continue;
            };
            let mut named: Vec<(&String, &ChoicesMade)> = self
                .choices_made
                .iter()
                .filter(|(locator, _)| **locator != step.locator && locator.contains(text))
                .collect();
            named.sort_by_key(|(locator, _)| *locator);
            for (_, made) in named {
                for value in made.values.iter().rev().skip(1) {
                    let mut restored = vec![
                        goto(&made.page_url),
                        Step {
                            value: Some(value.clone()),
                            ..made.step.clone()
                        },
                    ];
                    restored.extend(trace.iter().cloned());
                    again.push(restored);
                }
            }
        }
        again.dedup();
        again.truncate(RESTORED_TRIES);
        if again.is_empty() {
            return None;
        }
        Some(self.first_reproducing(&again, signature).await)
    }

    /// The first of the `missing` traces (each stopped at a step whose element is gone)
    /// that reproduces `signature` without that step, and without each next step it
    /// stops at for the same reason: a trace that clicked "Remove Priya Nair" on its way
    /// removed her, and its next replay finds no such button, which the failure seldom
    /// needs. `None` when there is no such trace.
    async fn skipped(
        &self,
        missing: &[(Vec<Step>, usize)],
        signature: &str,
    ) -> Option<(Vec<Step>, Option<bool>)> {
        let mut verdict = None;
        for (trace, at) in missing.iter().take(SKIPPED_TRACES) {
            let mut shorter = trace.clone();
            let mut at = *at;
            for _ in 0..SKIPPED_STEPS {
                shorter.remove(at);
                match replay_trace(
                    &self.browser,
                    self.config.login.as_ref(),
                    &shorter,
                    signature,
                )
                .await
                {
                    Ok(report) if report.reproduced => return Some((shorter, Some(true))),
                    Ok(ReplayReport {
                        missing: Some(next),
                        ..
                    }) => at = next,
                    Ok(_) => break,
                    Err(_) => {
                        verdict = Some((shorter, None));
                        break;
                    }
                }
            }
        }
        verdict
    }

    /// At the end of a run, checks again that every finding's trace reproduces it in the
    /// app as the run left it (records created, renamed and reordered by the run change
    /// the pages a trace goes through), and if not, keeps another of its traces that does.
    /// The findings are gone through twice, in order, as `curio replay` goes through
    /// them: a trace may change the app so that it, or an earlier finding's trace, no
    /// longer reproduces (it removed a member its own steps click).
    ///
    /// The check ends by `end` (the run's budget): what it had no time for keeps the
    /// verdict of its first replay, and a note says how many.
    async fn reconfirm(
        &mut self,
        end: Instant,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        let started = Instant::now();
        let mut ids: Vec<FindingId> = self.alternates.keys().copied().collect();
        ids.sort_by_key(|id| id.0);
        let mut now: HashMap<FindingId, (Vec<Step>, Option<bool>)> = HashMap::new();
        let mut out_of_time = false;
        'passes: for _ in 0..RECONFIRM_PASSES {
            for id in &ids {
                let Some(traces) = self.alternates.get(id).cloned() else {
                    continue;
                };
                let current = match now.get(id) {
                    // What did not reproduce had every repair tried already.
                    Some((_, reproduced)) if *reproduced != Some(true) => continue,
                    Some((trace, _)) => trace.clone(),
                    None => traces.kept.clone(),
                };
                let left = end.saturating_duration_since(Instant::now());
                let checked = tokio::time::timeout(left, self.recheck(&current, &traces)).await;
                match checked {
                    Ok(checked) => {
                        now.insert(*id, checked);
                    }
                    Err(_) => {
                        out_of_time = true;
                        break 'passes;
                    }
                }
            }
        }
        if out_of_time {
            let unchecked = ids.iter().filter(|id| !now.contains_key(id)).count();
            on_event(RunEvent::Note(format!(
                "the time budget ended the final check of the findings: {unchecked} of {} \
                 were not re-checked and keep the verdict of their first replay",
                ids.len()
            )));
        }
        // Every verdict is kept, the same trace's too: one that did not reproduce when
        // found may now.
        for id in &ids {
            if let Some((trace, reproduced)) = now.get(id) {
                self.store
                    .set_finding_trace(self.run, *id, trace, *reproduced)?;
            }
        }
        self.replay_time += started.elapsed();
        Ok(())
    }

    /// The time kept at the end of the budget for the end-of-run check of the findings:
    /// what replaying each once per pass has cost on average so far, at most a quarter
    /// of the budget; none without verification.
    fn check_reserve(&self) -> Duration {
        if !self.config.verify_findings {
            return Duration::ZERO;
        }
        let each = self.replays.average();
        let need = each * (self.alternates.len() * RECONFIRM_PASSES) as u32;
        need.min(self.config.time / 4)
    }

    /// The first trace that reproduces the finding of `traces` now: `current`, then the
    /// others it was verified with; then those again with the text its forms accept now
    /// ([`Self::retyped`]), with a choice set back ([`Self::restored`]), or without the
    /// steps whose elements are gone ([`Self::skipped`]).
    async fn recheck(&self, current: &[Step], traces: &Traces) -> (Vec<Step>, Option<bool>) {
        let signature = traces.signature.as_str();
        let mut order = vec![current.to_vec()];
        order.extend(traces.tries.iter().filter(|t| *t != current).cloned());
        let mut stopped = Stopped::default();
        let mut verdict = self
            .first_reproducing_noting(&order, signature, &mut stopped)
            .await;
        if verdict.1 == Some(false)
            && let Some(retyped) = self.retyped(&order, signature).await
            && retyped.1 == Some(true)
        {
            return retyped;
        }
        if verdict.1 == Some(false)
            && let Some(restored) = self.restored(&stopped.unoffered, signature).await
            && restored.1 == Some(true)
        {
            return restored;
        }
        if verdict.1 == Some(false)
            && let Some(skipped) = self.skipped(&stopped.missing, signature).await
        {
            if skipped.1 == Some(true) {
                return skipped;
            }
            if skipped.1.is_none() {
                verdict.1 = None;
            }
        }
        verdict
    }

    /// The first of `tries` that reproduces `signature` once the text they type into the
    /// forms the run studied is what those forms accept now, each form's session run
    /// again to learn it: a rule that moved with the app's data (seats at least the
    /// team's members, invited since) refuses what a trace typed earlier, and the
    /// failure behind the form is no longer reached. `None` when no session gives other
    /// text to type. Only the fields whose value the form asked for are typed anew.
    async fn retyped(
        &self,
        tries: &[Vec<Step>],
        signature: &str,
    ) -> Option<(Vec<Step>, Option<bool>)> {
        let typed: HashSet<&str> = tries
            .iter()
            .flatten()
            .filter(|s| s.kind == StepKind::Fill)
            .map(|s| s.selector.as_str())
            .collect();
        let mut forms: Vec<(&String, &FormPlace)> = self
            .solved_at
            .iter()
            .filter(|(_, place)| {
                place.page.forms.get(place.index).is_some_and(|f| {
                    f.fields
                        .iter()
                        .any(|field| typed.contains(field.target.selector.as_str()))
                })
            })
            .collect();
        forms.sort_by_key(|(form, _)| *form);
        let mut retype: HashMap<&str, String> = HashMap::new();
        for (form_signature, place) in forms {
            let tools = SessionTools {
                browser: &self.browser,
                llm: self.llm.as_ref(),
                deadline: Instant::now() + FORM_SESSION_CAP,
            };
            let at = (place.url.as_str(), place.reveal.as_slice());
            let solved = solve_form(
                tools,
                at,
                &place.page,
                &place.snapshot,
                place.index,
                &self.config,
                self.config.seed,
            )
            .await;
            let Ok(FormSolved {
                accepted: Some(now),
                ..
            }) = solved
            else {
                continue;
            };
            let before = self.solved.get(form_signature).and_then(Option::as_ref);
            let asked = |i: usize, accepted: Option<&Accepted>| {
                accepted.is_some_and(|a| a.needed.get(i) == Some(&true))
            };
            let fields = &place.page.forms[place.index].fields;
            for (i, (field, value)) in fields.iter().zip(&now.values).enumerate() {
                if let FieldValue::Text(text) = value
                    && (asked(i, Some(&now)) || asked(i, before))
                {
                    retype.insert(field.target.selector.as_str(), text.clone());
                }
            }
        }
        let again: Vec<Vec<Step>> = tries
            .iter()
            .map(|trace| {
                trace
                    .iter()
                    .map(|step| match retype.get(step.selector.as_str()) {
                        Some(text) if step.kind == StepKind::Fill => Step {
                            value: Some(text.clone()),
                            ..step.clone()
                        },
                        _ => step.clone(),
                    })
                    .collect()
            })
            .filter(|trace| !tries.contains(trace))
            .collect();
        if again.is_empty() {
            return None;
        }
        Some(self.first_reproducing(&again, signature).await)
    }

    /// Records a new state, with a screenshot of its first page when screenshots are on.
    /// Neither is worth failing the run for: `look` has no store errors to give.
    async fn note_state(&mut self, id: u32, url: &str) {
        let mut screenshot = None;
        if self.config.screenshots {
            let t = Instant::now();
            let png = self.tab().screenshot().await;
            self.browser_time += t.elapsed();
            let rel = format!("screenshots/state-{id}.png");
            let path = self.config.out_dir.join(&rel);
            if let Ok(png) = png
                && std::fs::create_dir_all(path.parent().unwrap_or(&self.config.out_dir))
                    .and_then(|_| std::fs::write(&path, png))
                    .is_ok()
            {
                screenshot = Some(rel);
            }
        }
        let state = StateRecord {
            id,
            url: url.to_string(),
            first_step: self.step_index.saturating_sub(1),
            screenshot,
        };
        if let Err(e) = self.store.add_state(self.run, &state) {
            self.store_trouble = Some(e);
        }
    }

    /// Counts a move between states and records it.
    fn note_transition(
        &mut self,
        from: u32,
        to: Option<u32>,
        steps: &[Step],
    ) -> Result<(), RunError> {
        let action = describe_move(steps);
        let next = self.transitions.len() as u32;
        let (position, count) = self
            .transitions
            .entry((from, to, action.clone()))
            .or_insert((next, 0));
        *count += 1;
        let record = TransitionRecord {
            from,
            to,
            action,
            count: *count,
        };
        self.store.set_transition(self.run, *position, &record)?;
        Ok(())
    }

    /// Records how far the run has got (states, findings, coverage so far) and reports it.
    fn note_progress(
        &mut self,
        on_event: &mut (dyn FnMut(RunEvent) + Send),
    ) -> Result<(), RunError> {
        if let Some(e) = self.store_trouble.take() {
            return Err(e.into());
        }
        self.last_progress = Some(Instant::now());
        let mut coverage = self.coverage.clone();
        if let Some(tab) = &self.tab {
            coverage.merge(tab.coverage());
        }
        let coverage = coverage.summary(&self.config.browser.scope);
        let point = ProgressPoint {
            elapsed_ms: self.started.elapsed().as_millis() as u64,
            steps: self.step_index,
            states: self.states.len() as u32,
            findings: self.findings.len() as u32,
            covered_blocks: coverage.covered_blocks(),
            total_blocks: coverage.total_blocks(),
        };
        self.store.append_progress(self.run, &point)?;
        for note in std::mem::take(&mut self.notes) {
            on_event(RunEvent::Note(note));
        }
        on_event(RunEvent::Progress {
            point,
            actions: self.actions,
            forms: self.solved.len() as u32,
        });
        Ok(())
    }

    async fn screenshot(&mut self, id: FindingId) -> Result<(), RunError> {
        let t = Instant::now();
        let png = self.tab().screenshot().await;
        self.browser_time += t.elapsed();
        let Ok(png) = png else {
            return Ok(()); // a missing picture must not lose the finding
        };
        let rel = format!("screenshots/finding-{}.png", id.0);
        let path = self.config.out_dir.join(&rel);
        let write = std::fs::create_dir_all(path.parent().unwrap_or(&self.config.out_dir))
            .and_then(|_| std::fs::write(&path, png));
        write.map_err(|source| RunError::Output { path, source })?;
        self.store.set_finding_screenshot(self.run, id, &rel)?;
        Ok(())
    }
}

/// The element `candidate` clicks on `page`, when it is a single click.
fn clicked<'a>(page: &'a Page, candidate: &Candidate) -> Option<&'a curio_page::Action> {
    match candidate.kind {
        Move::Single(i) => page.actions.get(i).filter(|a| a.kind == ActionKind::Click),
        _ => None,
    }
}

/// A move as a person would say it: `click button "Save"`, or for a form macro
/// `fill 3 fields, click button "Send"`.
fn describe_move(steps: &[Step]) -> String {
    let one = |s: &Step| format!("{} {}", s.kind.as_str(), s.locator);
    match steps {
        [] => String::new(),
        [only] => one(only),
        [field, last] => format!("fill {}, {}", field.locator, one(last)),
        [fields @ .., last] => format!("fill {} fields, {}", fields.len(), one(last)),
    }
}

/// When `candidate` was a valid form macro and the page it led to shows the same form
/// again at another address than the page it was filled on, the form's signature: the
/// submission was refused. A success leads elsewhere, or back to the form's own page (a
/// settings form saved). A form that a refusal showed, filled there and refused there
/// again, is at the same address: then `met` gives (of the form's signature) the page
/// the form was first met on, when the fill was made on the answer to a POST and was
/// answered by another, and an answer elsewhere than that page is a refusal too.
fn refused(
    before: &Page,
    candidate: &Candidate,
    after: &Page,
    met: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let Move::Form { form, fill } = &candidate.kind else {
        return None;
    };
    if fill.broken.is_some() {
        return None;
    }
    let signature = form_signature(before.forms.get(*form)?);
    let shown_again = after.forms.iter().any(|f| form_signature(f) == signature);
    let there = url_path(&after.url);
    let elsewhere = there != url_path(&before.url)
        || met(&signature).is_some_and(|home| url_path(&home) != there);
    (shown_again && elsewhere).then_some(signature)
}

/// The step that opens `url`.
/// `trace` without the typing and choosing done on the page before its last click
/// but one (the click that opened the dialog or panel the last move acts in), when
/// there was some: members' roles set on a team page before its invite dialog was
/// opened are no part of the invite's failure, and a trace that sets them again
/// stands in the way of a failure that needs those members as they were. Typing on
/// pages left before (by a `Goto`) is kept: what it saved may be what the failure
/// needs. `None` when there is nothing to leave out.
fn lean(trace: &[Step]) -> Option<Vec<Step>> {
    let last = trace.iter().rposition(|s| s.kind == StepKind::Click)?;
    let opened = trace[..last]
        .iter()
        .rposition(|s| s.kind == StepKind::Click)?;
    let loaded = trace[..opened]
        .iter()
        .rposition(|s| s.kind == StepKind::Goto)
        .unwrap_or(0);
    let typed = |i: usize, s: &Step| {
        (loaded..opened).contains(&i)
            && matches!(s.kind, StepKind::Fill | StepKind::Select | StepKind::Check)
    };
    let lean: Vec<Step> = trace
        .iter()
        .enumerate()
        .filter(|(i, s)| !typed(*i, s))
        .map(|(_, s)| s.clone())
        .collect();
    (lean.len() < trace.len()).then_some(lean)
}

/// The text of the option of `value` in the select at `selector` among `forms`.
fn offered_text<'a>(
    forms: impl IntoIterator<Item = &'a Form>,
    selector: &str,
    value: &str,
) -> Option<&'a str> {
    forms
        .into_iter()
        .flat_map(|form| &form.fields)
        .filter(|field| field.target.selector == selector)
        .flat_map(|field| &field.options)
        .find(|option| option.value == value)
        .map(|option| option.text.trim())
}

pub(crate) fn goto(url: &str) -> Step {
    Step {
        kind: StepKind::Goto,
        locator: String::new(),
        selector: String::new(),
        value: Some(url.to_string()),
        href: None,
    }
}

pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Today's civil date (UTC), for values that must lie in the future.
pub(crate) fn today() -> (i32, u32, u32) {
    let days = (now_ms() / 86_400_000) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = (yoe + era * 400 + i64::from(m <= 2)) as i32;
    (y, m, d)
}

/// Peak resident memory of this process in KiB (Linux), Chromium's processes excluded.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The text a person knows a step's element by: its locator without the element's kind
/// (`link "About"` -> `About`).
fn step_text(step: &Step) -> String {
    let locator = step.locator.trim();
    match (locator.find('"'), locator.rfind('"')) {
        (Some(a), Some(b)) if b > a => locator[a + 1..b].to_string(),
        _ => locator.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_with_form(url: &str, form: bool) -> Page {
        if form {
            page_with_fields(url, "form#plan", &["seats"])
        } else {
            page_with_fields(url, "", &[])
        }
    }

    /// A page at `url` with one form keyed `form_key` and a text box per name of
    /// `fields`; no form when `fields` is empty.
    fn page_with_fields(url: &str, form_key: &str, fields: &[&str]) -> Page {
        let target = serde_json::json!({
            "backend_node_id": 1, "frame": 0, "selector": "#seats",
            "locator": "textbox \"Seats\"", "rect": {"x": 0.0, "y": 0.0, "width": 1.0, "height": 1.0}
        });
        let fields: Vec<_> = fields
            .iter()
            .map(|name| {
                serde_json::json!({
                    "target": target, "tag": "input", "input_type": "text", "name": name,
                    "id": name, "labels": [], "placeholder": null, "autocomplete": null,
                    "required": false, "readonly": false, "min": null, "max": null,
                    "step": null, "minlength": null, "maxlength": null, "pattern": null,
                    "inputmode": null, "options": [], "value": "", "checked": false
                })
            })
            .collect();
        let forms = if fields.is_empty() {
            serde_json::json!([])
        } else {
            serde_json::json!([{
                "id": 0, "key": form_key, "target": null, "name": null, "html_id": null,
                "action": null, "method": null, "title": null, "fields": fields,
                "submit": target
            }])
        };
        serde_json::from_value(serde_json::json!({
            "url": url, "normalized_url": url, "title": "", "actions": [], "forms": forms,
            "texts": [], "tag_sequence": []
        }))
        .expect("a page")
    }

    #[test]
    fn a_valid_submission_answered_by_the_same_form_elsewhere_was_refused() {
        use curio_forms::{FieldValue, Filled, FormFill};
        let plans = page_with_form("http://a.test/billing/plans", true);
        let macro_with = |broken| Candidate {
            key: "form:plan#valid".into(),
            kind: Move::Form {
                form: 0,
                fill: FormFill {
                    values: vec![Filled {
                        field: 0,
                        value: FieldValue::Text("6".into()),
                    }],
                    broken,
                    variant: curio_forms::Variant::Valid,
                },
            },
        };
        let shown_again = page_with_form("http://a.test/billing/plans/review", true);
        let signature = form_signature(&plans.forms[0]);
        let unknown = |_: &str| None;
        assert_eq!(
            refused(&plans, &macro_with(None), &shown_again, unknown),
            Some(signature.clone())
        );
        // Filled again where a refusal showed it, and refused there again.
        let met = |_: &str| Some(plans.url.clone());
        assert_eq!(
            refused(&shown_again, &macro_with(None), &shown_again, met),
            Some(signature)
        );
        // A bad value on purpose, a settings form saved back to its page (which is
        // where it was met), a review page without the form: no refusal of valid values.
        assert_eq!(
            refused(&plans, &macro_with(Some(0)), &shown_again, unknown),
            None
        );
        let saved = page_with_form("http://a.test/billing/plans?done=1", true);
        assert_eq!(refused(&plans, &macro_with(None), &saved, unknown), None);
        assert_eq!(refused(&saved, &macro_with(None), &saved, met), None);
        let review = page_with_form("http://a.test/billing/plans/review", false);
        assert_eq!(refused(&plans, &macro_with(None), &review, unknown), None);
    }

    /// Forms without an id share a key wherever they sit at the same place; a page's
    /// own form among them is not navigation, and its macros are not the others'.
    #[test]
    fn a_form_at_the_place_of_other_pages_forms_is_the_page_s_own() {
        use crate::strategy::{NAVIGATION_WEIGHT, macro_key};
        use curio_forms::{FormFill, Variant};
        let main = "form|form||html/body/main/form";
        let mut spread = HashMap::new();
        for (url, field) in [
            ("http://a.test/projects/new", "name"),
            ("http://a.test/tasks/1/edit", "title"),
            ("http://a.test/settings", "zone"),
            ("http://a.test/team/invite", "email"),
        ] {
            note_spread(&mut spread, &page_with_fields(url, main, &[field]));
        }
        for url in [
            "http://a.test/",
            "http://a.test/help",
            "http://a.test/billing",
        ] {
            note_spread(&mut spread, &page_with_fields(url, "form#search", &["q"]));
        }
        let macro_of = |page: &Page| Candidate {
            key: macro_key(&page.forms[0], Variant::Valid),
            kind: Move::Form {
                form: 0,
                fill: FormFill {
                    values: Vec::new(),
                    broken: None,
                    variant: Variant::Valid,
                },
            },
        };
        let new_project = page_with_fields("http://a.test/projects/new", main, &["name"]);
        let search = page_with_fields("http://a.test/projects/new", "form#search", &["q"]);
        let navigation = navigation(&spread);
        let features = crate::config::Features::all();
        let weight = |page: &Page| {
            local_weights(page, &[macro_of(page)], &navigation, |_| false, &features)[0]
        };
        assert_eq!(weight(&new_project), 1.0);
        assert_eq!(weight(&search), NAVIGATION_WEIGHT);
        let edit_task = page_with_fields("http://a.test/tasks/1/edit", main, &["title"]);
        assert_ne!(macro_of(&new_project).key, macro_of(&edit_task).key);
        let other_task = page_with_fields("http://a.test/tasks/2/edit", main, &["title"]);
        assert_eq!(macro_of(&edit_task).key, macro_of(&other_task).key);
    }

    /// An action on `field`'s element of `kind` and `role`, in form `form`.
    fn action_on(
        field: &curio_page::Field,
        kind: curio_page::ActionKind,
        role: &str,
        form: Option<usize>,
    ) -> curio_page::Action {
        curio_page::Action {
            key: curio_page::ElementKey(format!("{kind:?} {role}")),
            kind,
            target: field.target.clone(),
            role: role.into(),
            tag: "input".into(),
            text: String::new(),
            href: None,
            form: form.map(curio_page::FormId),
            field: (kind != curio_page::ActionKind::Click).then(|| field.clone()),
        }
    }

    /// A page at `url` with one form of one field and `actions` (kind, role, form) on
    /// that field.
    fn page_acting(url: &str, actions: &[(curio_page::ActionKind, &str, Option<usize>)]) -> Page {
        let mut page = page_with_fields(url, "form#f", &["status"]);
        let field = page.forms[0].fields[0].clone();
        page.actions = actions
            .iter()
            .map(|&(kind, role, form)| action_on(&field, kind, role, form))
            .collect();
        page
    }

    /// The keys of `candidates`, in order.
    fn keys(candidates: Vec<Candidate>) -> Vec<String> {
        candidates.into_iter().map(|c| c.key).collect()
    }

    fn single(i: usize) -> Candidate {
        Candidate {
            key: format!("single{i}"),
            kind: Move::Single(i),
        }
    }

    /// Under a setting just stored, a page's tabs come first; a page without tabs
    /// keeps every candidate.
    #[test]
    fn a_page_s_views_come_first_under_a_new_setting() {
        use curio_page::ActionKind;
        let mut page = page_with_fields("http://a.test/projects/1", "form#f", &["name"]);
        let field = page.forms[0].fields[0].clone();
        page.actions = vec![
            action_on(&field, ActionKind::Click, "button", None),
            action_on(&field, ActionKind::Click, "tab", None),
            action_on(&field, ActionKind::Click, "link", None),
            action_on(&field, ActionKind::Click, "tab", None),
        ];
        let all: Vec<Candidate> = (0..4).map(single).collect();
        assert_eq!(
            keys(views_first(&page, all.clone())),
            ["single1", "single3"]
        );
        let no_tabs = vec![single(0), single(2)];
        assert_eq!(keys(views_first(&page, no_tabs)), ["single0", "single2"]);
    }

    /// After two changes, the links come first, and of them the ones not known to lead
    /// to a form that posts: a task's time report before its "Edit task".
    #[test]
    fn after_two_changes_the_links_that_show_come_first() {
        use crate::strategy::{edits, links_first};
        use curio_page::ActionKind;
        let mut page = page_acting(
            "http://a.test/tasks/1?done=logged",
            &[
                (ActionKind::Click, "button", None),
                (ActionKind::Click, "link", None),
                (ActionKind::Click, "link", None),
            ],
        );
        for (i, name) in [(1, "Edit task"), (2, "Time report")] {
            page.actions[i].key = curio_page::ElementKey(name.into());
            page.actions[i].href = Some(format!("/tasks/1/{i}"));
        }
        let all: Vec<Candidate> = (0..3).map(single).collect();
        let editors: HashSet<String> = ["Edit task".to_string()].into();
        assert_eq!(keys(links_first(&page, all.clone(), &editors)), ["single2"]);
        let none = HashSet::new();
        assert_eq!(
            keys(links_first(&page, all.clone(), &none)),
            ["single1", "single2"]
        );
        assert_eq!(
            keys(links_first(&page, vec![single(0)], &editors)),
            ["single0"]
        );
        // The page's form posts with a field: a link that leads to it edits.
        page.forms[0].method = Some("post".into());
        assert!(edits(&page));
        page.forms[0].method = Some("get".into());
        assert!(!edits(&page));
    }

    /// After a change, the links under the page's own path come first (a project's
    /// "Export"), before the links to other things (another project, the list), and not
    /// the ones known to lead to an editor; on the app's root, none is deeper.
    #[test]
    fn after_a_change_the_links_under_the_page_come_first() {
        use crate::strategy::deeper_first;
        use curio_page::ActionKind;
        let mut page = page_acting(
            "http://a.test/projects/2?saved=1",
            &[
                (ActionKind::Click, "link", None),
                (ActionKind::Click, "link", None),
                (ActionKind::Click, "link", None),
                (ActionKind::Click, "link", None),
                (ActionKind::Click, "button", None),
            ],
        );
        let links = [
            ("Edit project", "/projects/2/edit"),
            ("Export", "http://a.test/projects/2/export?status=archived"),
            ("Other project", "/projects/20"),
            ("Elsewhere", "http://b.test/projects/2/export"),
        ];
        for (i, (name, href)) in links.into_iter().enumerate() {
            page.actions[i].key = curio_page::ElementKey(name.into());
            page.actions[i].href = Some(href.into());
        }
        let all: Vec<Candidate> = (0..5).map(single).collect();
        let editors: HashSet<String> = ["Edit project".to_string()].into();
        assert_eq!(
            keys(deeper_first(&page, all.clone(), &editors)),
            ["single1"]
        );
        let none = HashSet::new();
        assert_eq!(
            keys(deeper_first(&page, all.clone(), &none)),
            ["single0", "single1"]
        );
        let others = vec![single(2), single(3), single(4)];
        assert_eq!(keys(deeper_first(&page, others.clone(), &none)).len(), 3);
        page.url = "http://a.test/".into();
        assert_eq!(keys(deeper_first(&page, all, &none)).len(), 5);
    }

    /// What a click revealed is used next, not closed or cleared: a popover's "Clear
    /// filters" and "Close" are left out while anything else it showed is there.
    #[test]
    fn what_was_revealed_is_used_not_dismissed() {
        use curio_page::ActionKind;
        let mut page = page_with_fields("http://a.test/projects/1", "form#f", &["name"]);
        let field = page.forms[0].fields[0].clone();
        let button = |text: &str| {
            let mut a = action_on(&field, ActionKind::Click, "button", None);
            a.key = curio_page::ElementKey(text.into());
            a.text = text.into();
            a
        };
        page.actions = vec![
            button("Clear filters"),
            button("Only mine"),
            button("Close"),
            button("Elsewhere"),
        ];
        let revealed: BTreeSet<String> = ["Clear filters", "Only mine", "Close"]
            .iter()
            .map(|k| k.to_string())
            .collect();
        let all: Vec<Candidate> = (0..4).map(single).collect();
        assert_eq!(
            keys(revealed_candidates(&page, all, &revealed)),
            ["single1"]
        );
    }

    /// With `fresh-first`, a valid fill whose key carries fresh choices and a fresh
    /// option of a select outside any form weigh more; the same moves once their
    /// choices were made, an invalid fill, a select inside a form, do not.
    #[test]
    fn choices_never_tried_weigh_more() {
        use crate::strategy::{FRESH_CHOICE_WEIGHT, macro_key};
        use curio_forms::{FormFill, Variant};
        use curio_page::ActionKind;
        let mut page = page_with_fields("http://a.test/billing/plans", "form#plan", &["cycle"]);
        let field = page.forms[0].fields[0].clone();
        page.actions = vec![
            action_on(&field, ActionKind::Select, "combobox", None),
            action_on(&field, ActionKind::Select, "combobox", Some(0)),
        ];
        let fill = |key: String, variant| Candidate {
            key,
            kind: Move::Form {
                form: 0,
                fill: FormFill {
                    values: Vec::new(),
                    broken: None,
                    variant,
                },
            },
        };
        let plain = macro_key(&page.forms[0], Variant::Valid);
        let choose = |action: usize, key: &str| Candidate {
            key: key.into(),
            kind: Move::Choose {
                action,
                value: "yearly".into(),
            },
        };
        let own = page.actions[0].key.0.clone();
        let candidates = [
            fill(format!("{plain}|business,yearly"), Variant::Valid),
            fill(plain.clone(), Variant::Valid),
            fill(format!("{plain}|business,yearly"), Variant::Empty),
            choose(0, &format!("{own}=yearly")),
            choose(0, &own),
            choose(1, &format!("{own}=yearly")),
        ];
        let no_navigation = |_: &str| false;
        let mut features = crate::config::Features::all();
        let fresh = FRESH_CHOICE_WEIGHT;
        assert_eq!(
            local_weights(&page, &candidates, no_navigation, |_| false, &features),
            [fresh, 1.0, 1.0, fresh, 1.0, 1.0]
        );
        features.fresh_first = false;
        assert_eq!(
            local_weights(&page, &candidates, no_navigation, |_| false, &features),
            [1.0; 6]
        );
    }

    /// A click that led to choices never made (a page's, or a panel's it opened) weighs
    /// as they do, a navigation link eight times its navigation weight; not once the
    /// choices are made.
    #[test]
    fn a_click_that_led_to_fresh_choices_weighs_as_they_do() {
        use crate::strategy::{FRESH_CHOICE_WEIGHT, NAVIGATION_WEIGHT, leads_to_fresh};
        use curio_page::ActionKind;
        let page = page_acting(
            "http://a.test/projects/1",
            &[
                (ActionKind::Select, "combobox", None),
                (ActionKind::Click, "link", None),
                (ActionKind::Click, "button", None),
            ],
        );
        let filter = page.actions[0].key.0.clone();
        let choose = |key: String| Candidate {
            key,
            kind: Move::Choose {
                action: 0,
                value: "archived".into(),
            },
        };
        let fresh = [choose(format!("{filter}=archived")), single(1), single(2)];
        let spent = [choose(filter.clone()), single(1), single(2)];
        let none = BTreeSet::new();
        let panel: BTreeSet<String> = [filter.clone()].into_iter().collect();
        assert!(leads_to_fresh(&page, &fresh, true, &none));
        assert!(leads_to_fresh(&page, &fresh, false, &panel));
        assert!(!leads_to_fresh(&page, &fresh, false, &none));
        assert!(!leads_to_fresh(&page, &spent, true, &panel));

        let mut features = crate::config::Features::all();
        let no_navigation = |_: &str| false;
        let led = |key: &str| key == "single1";
        let f = FRESH_CHOICE_WEIGHT;
        assert_eq!(
            local_weights(&page, &spent, no_navigation, led, &features),
            [1.0, f, 1.0]
        );
        let link = page.actions[1].key.0.clone();
        let navigation = |key: &str| key == link;
        assert_eq!(
            local_weights(&page, &spent, navigation, led, &features),
            [1.0, NAVIGATION_WEIGHT * f, 1.0]
        );
        assert_eq!(
            local_weights(&page, &spent, navigation, |_| false, &features),
            [1.0, NAVIGATION_WEIGHT, 1.0]
        );
        features.fresh_first = false;
        assert_eq!(
            local_weights(&page, &spent, no_navigation, led, &features),
            [1.0; 3]
        );
    }

    /// Right after a form change, a select outside any form is one of the page's own
    /// moves (a list's filter on the page a created task led back to); a form's select
    /// is not (its macro sends it), nor any select right after a setting was stored.
    #[test]
    fn a_page_s_own_selects_are_local_after_a_change() {
        use crate::strategy::local_candidates;
        use curio_page::ActionKind;
        let mut page = page_acting(
            "http://a.test/projects/1",
            &[
                (ActionKind::Select, "combobox", None),
                (ActionKind::Select, "listbox", Some(0)),
                (ActionKind::Click, "tab", None),
            ],
        );
        // The tab is not the form's submit button.
        page.actions[2].target.backend_node_id = 2;
        let choose = |action: usize| Candidate {
            key: format!("choose{action}"),
            kind: Move::Choose {
                action,
                value: "archived".into(),
            },
        };
        let candidates = vec![choose(0), choose(1), single(2)];
        let keys =
            |(cs, _): (Vec<Candidate>, bool)| cs.into_iter().map(|c| c.key).collect::<Vec<_>>();
        let no_navigation = |_: &str| false;
        assert_eq!(
            keys(local_candidates(
                &page,
                candidates.clone(),
                no_navigation,
                None,
                false,
                None
            )),
            ["choose0", "single2"]
        );
        assert_eq!(
            keys(local_candidates(
                &page,
                candidates.clone(),
                no_navigation,
                None,
                true,
                None
            )),
            ["single2"]
        );
        let filter = page.actions[0].key.0.clone();
        let everywhere = |key: &str| key == filter;
        assert_eq!(
            keys(local_candidates(
                &page, candidates, everywhere, None, false, None
            )),
            ["single2"]
        );
    }

    /// Right after a form change, the moves never taken after a change with the most of
    /// its choices come first: a task blocked then commented on, the next block is
    /// followed by the time log, not by another comment.
    #[test]
    fn after_a_change_the_moves_never_taken_after_its_choices_come_first() {
        use crate::strategy::{change_choices, untried_after};
        use curio_page::ActionKind;
        assert_eq!(
            change_choices("form:K|blocked,4"),
            ["form:K|blocked", "form:K|4"]
        );
        assert_eq!(change_choices("form:K|"), ["form:K"]);
        let page = page_acting(
            "http://a.test/tasks/1",
            &[
                (ActionKind::Click, "button", None),
                (ActionKind::Click, "link", None),
            ],
        );
        let candidates = vec![single(0), single(1)];
        let comment = page.actions[0].key.0.clone();
        let blocked = change_choices("form:K|blocked,4");
        let untried = |followed: &HashSet<(String, String)>| {
            keys(untried_after(&page, candidates.clone(), &blocked, followed))
        };
        let mut followed = HashSet::new();
        assert_eq!(untried(&followed), ["single0", "single1"]);
        followed.insert(("form:K|blocked".to_string(), comment.clone()));
        // A comment is new after assignee 4 only; the other move after both.
        assert_eq!(untried(&followed), ["single1"]);
        followed.insert(("form:K|4".to_string(), comment.clone()));
        assert_eq!(untried(&followed), ["single1"]);
        let link = page.actions[1].key.0.clone();
        followed.insert(("form:K|blocked".to_string(), link));
        // Each new after assignee 4 alone: both.
        followed.remove(&("form:K|4".to_string(), comment));
        assert_eq!(untried(&followed), ["single0", "single1"]);
    }

    /// A setter's options never chosen come first while the episode has room for a
    /// tour under them, and are held back when it has not.
    #[test]
    fn a_setting_is_chosen_only_with_room_for_its_tour() {
        use curio_page::ActionKind;
        let mut page = page_with_fields("http://a.test/settings", "form#f", &["name"]);
        let field = page.forms[0].fields[0].clone();
        page.actions = vec![
            action_on(&field, ActionKind::Select, "combobox", None),
            action_on(&field, ActionKind::Click, "link", None),
        ];
        let zone = page.actions[0].key.0.clone();
        let candidates = vec![
            Candidate {
                key: format!("{zone}=Asia/Kathmandu"),
                kind: Move::Choose {
                    action: 0,
                    value: "Asia/Kathmandu".into(),
                },
            },
            single(1),
        ];
        let setters: HashSet<String> = [zone.clone()].into_iter().collect();
        let probed: HashSet<String> = [zone.clone()].into_iter().collect();
        let none = HashSet::new();
        type Keys = HashSet<String>;
        let fresh = |page: &Page, c: &[Candidate], s: &Keys, p: &Keys, t: &Keys| {
            keys(fresh_settings(page, c.to_vec(), s, p, t))
        };
        let held = |page: &Page, c: &[Candidate], s: &Keys, p: &Keys, t: &Keys| {
            keys(held_settings(page, c.to_vec(), s, p, t))
        };
        let zone_key = candidates[0].key.clone();
        let both = [zone_key.clone(), "single1".to_string()];
        assert_eq!(
            fresh(&page, &candidates, &setters, &probed, &none),
            [zone_key.as_str()]
        );
        assert_eq!(
            held(&page, &candidates, &setters, &probed, &none),
            ["single1"]
        );
        assert_eq!(
            held(&page, &candidates[..1], &setters, &probed, &none),
            [zone_key.as_str()]
        );
        // A select outside any form never chosen comes first too, to learn whether it
        // stores a setting; once chosen, it is one move among the others.
        assert_eq!(
            fresh(&page, &candidates, &none, &none, &none),
            [zone_key.as_str()]
        );
        assert_eq!(fresh(&page, &candidates, &none, &probed, &none), both);
        // A click that shows such a setting, hidden now, comes first as the choice
        // would; with no room, it waits.
        let toggle: Keys = [page.actions[1].key.0.clone()].into_iter().collect();
        let clicks = [single(0), single(1)];
        assert_eq!(
            fresh(&page, &clicks, &setters, &probed, &none),
            ["single0", "single1"]
        );
        assert_eq!(
            fresh(&page, &clicks, &setters, &probed, &toggle),
            ["single1"]
        );
        assert_eq!(
            held(&page, &clicks, &setters, &probed, &toggle),
            ["single0"]
        );
        // Inside a form, a select's choice is the form's: no probe.
        page.actions[0].form = Some(curio_page::FormId(0));
        assert_eq!(fresh(&page, &candidates, &none, &none, &none), both);
    }

    #[test]
    fn a_lean_trace_leaves_out_the_typing_before_the_click_that_opened_the_form() {
        let step = |kind, locator: &str| Step {
            kind,
            locator: locator.to_string(),
            selector: String::new(),
            value: None,
            href: None,
        };
        let locators =
            |t: Option<Vec<Step>>| t.map(|t| t.into_iter().map(|s| s.locator).collect::<Vec<_>>());
        let expected = |l: &[&str]| Some(l.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let invite = vec![
            step(StepKind::Goto, "team"),
            step(StepKind::Select, "Role of Ana"),
            step(StepKind::Check, "Notify Ana"),
            step(StepKind::Click, "Invite member"),
            step(StepKind::Fill, "Name"),
            step(StepKind::Click, "Send invite"),
        ];
        assert_eq!(
            locators(lean(&invite)),
            expected(&["team", "Invite member", "Name", "Send invite"])
        );
        // What was typed on a page left by a `Goto` may be saved, and is kept.
        let saved = vec![
            step(StepKind::Goto, "profile"),
            step(StepKind::Fill, "Zone"),
            step(StepKind::Click, "Save"),
            step(StepKind::Goto, "team"),
            step(StepKind::Select, "Role of Ana"),
            step(StepKind::Click, "Invite member"),
            step(StepKind::Click, "Send invite"),
        ];
        assert_eq!(
            locators(lean(&saved)),
            expected(&[
                "profile",
                "Zone",
                "Save",
                "team",
                "Invite member",
                "Send invite"
            ])
        );
        // Typing in the form that the last click sends is the failure's own.
        let direct = vec![
            step(StepKind::Goto, "team"),
            step(StepKind::Click, "Invite member"),
            step(StepKind::Fill, "Name"),
            step(StepKind::Click, "Send invite"),
        ];
        assert_eq!(lean(&direct), None);
        assert_eq!(lean(&direct[..3]), None);
    }

    #[test]
    fn an_option_s_text_is_read_from_the_forms_studied() {
        let mut page = page_with_fields("http://127.0.0.1/tasks/new", "form#task", &["assignee"]);
        let assignee = &mut page.forms[0].fields[0];
        assignee.options = serde_json::from_value(serde_json::json!([
            {"value": "2", "text": "Sam Lee", "selected": true, "disabled": false},
            {"value": "3", "text": " Priya Nair ", "selected": false, "disabled": false}
        ]))
        .expect("options");
        assert_eq!(offered_text(&page.forms, "#seats", "3"), Some("Priya Nair"));
        assert_eq!(offered_text(&page.forms, "#seats", "4"), None);
        assert_eq!(offered_text(&page.forms, "#assignee", "3"), None);
    }

    #[test]
    fn civil_date() {
        let (y, m, d) = today();
        assert!(y >= 2024 && (1..=12).contains(&m) && (1..=31).contains(&d));
    }
}
