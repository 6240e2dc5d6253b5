//! The validated configuration of a run. Only this reaches the runner: the CLI parses
//! flags (and later `curio.toml`) and validates them into it.

use std::path::PathBuf;
use std::time::Duration;

use curio_browser::BrowserConfig;
use curio_forms::Dictionary;
use curio_page::UrlNormalization;
use serde::Serialize;
use url::Url;

use crate::guard::ActionGuard;
use crate::login::{Login, PageFilter};

/// How the next action is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StrategyKind {
    /// WebExplor's curiosity-driven Q-learning with Curio's additions (see [`Features`]).
    Curious,
    /// WebExplor as its paper describes it, no additions: the baseline to beat.
    WebExplor,
    /// A seeded uniform random walk over the page's actions.
    Random,
}

impl StrategyKind {
    pub const ALL: [StrategyKind; 3] = [
        StrategyKind::Curious,
        StrategyKind::WebExplor,
        StrategyKind::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Curious => "curious",
            StrategyKind::WebExplor => "webexplor",
            StrategyKind::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Option<StrategyKind> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The additions this strategy uses unless switched off.
    pub fn default_features(self) -> Features {
        match self {
            StrategyKind::Curious => Features::all(),
            StrategyKind::WebExplor | StrategyKind::Random => Features::none(),
        }
    }

    /// Longest episode in actions: the paper's 100 for `webexplor`; shorter for
    /// `curious`, which jumps straight to where it wants to be; the foundation's 25 for
    /// `random`, whose walks rarely profit from more.
    pub fn default_episode_steps(self) -> u32 {
        match self {
            StrategyKind::Curious => 40,
            StrategyKind::WebExplor => 100,
            StrategyKind::Random => 25,
        }
    }
}

/// Curio's additions to WebExplor, each switchable so a benchmark can show its worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Features {
    /// One action fills a whole form with values that should pass, then submits it.
    pub form_macro: bool,
    /// Variants of the form macro with one invalid value (empty, too long, wrong type,
    /// boundary number).
    pub invalid_inputs: bool,
    /// Repeated sibling elements count once in the state abstraction (3 rows = 30 rows).
    pub element_merging: bool,
    /// Reward for elements that appeared since the last step (dialogs, menus, tabs).
    pub new_element_reward: bool,
    /// Never take actions that match the deny list (log out, delete, reset, ...).
    pub action_guard: bool,
    /// Values for single fields from their semantics (labels, names, types) and user
    /// dictionaries instead of W3C-valid values by type alone.
    pub semantic_values: bool,
    /// When stuck, plan to the closest state that still has untried actions.
    pub plan_to_untried: bool,
    /// A choice never made yet (a select's option, a form macro's combination of
    /// options and checkbox states) makes its action new, so curiosity tries them all.
    pub fresh_choices: bool,
    /// What the page keeps in the browser (`localStorage`, `sessionStorage`) is part of
    /// the state, so the same page under a setting never seen before (a timezone, a
    /// running timer, a saved filter) is new and worth visiting again; and what was done
    /// under one setting does not make an action less novel under another (the
    /// learner's novelty groups), so the app is explored again under each new setting.
    pub storage_states: bool,
    /// Each new form (once per form) is tested by a short form-testing session that
    /// reaches a successful submission, learning its rules from the form's messages
    /// (`curio forms` without negation and probes); the form macro then types the
    /// values that succeeded.
    pub form_sessions: bool,
    /// What the last valid form submissions of the episode changed (the form and the
    /// choices it was sent with: a project archived, a task blocked, a plan picked) is
    /// part of the state for the next few moves, so the pages right after a change are
    /// new and their actions worth trying again (an archived project's Export, a blocked
    /// task's time report, the review's Confirm). These states are a novelty group of
    /// their own: what is often done right after a change (leaving through the
    /// navigation) fades there, what rarely is does not.
    pub change_contexts: bool,
    /// Right after a change (a valid form submission, a new stored setting), the next
    /// moves keep to what is particular to the page the change led to (its own links,
    /// buttons, tabs and forms) rather than the navigation found on every kind of page:
    /// that is where the change shows (an archived project's Export, "Send test" once
    /// every channel is cleared, a review's Confirm).
    pub local_after_change: bool,
    /// Right after a click shows new elements on the same page (a dialog, a panel, a
    /// menu), the next move is among them: what was opened is what to use next (the
    /// filters of a list, the fields of "Log time").
    pub follow_reveals: bool,
    /// A form's other buttons (a "Send test", "Preview" or "Calculate" that acts on what
    /// the form holds without submitting it) get a macro too: fill the form, then press
    /// the button, so the values reach what the button does; their choices rotate as the
    /// submit macro's do, on a count of their own.
    pub form_buttons: bool,
    /// Under a setting stored in the browser (with `storage-states`: a timezone just
    /// picked, a timer running, a saved filter), the navigation (links found on every
    /// kind of page) leads first to the sections not yet seen under that setting, once
    /// the moves right after the change are taken: a setting left behind by one page is
    /// what breaks another (a report under a timezone it has no offset for, billing
    /// while a timer runs), and there is one such tour per setting, not one per page.
    /// Where a select that stored a setting is offered, its options never chosen come
    /// first; so does a select outside any form never chosen, which may store one.
    pub setting_tours: bool,
    /// The learner's choice leans to what is particular to the page (its tabs, buttons,
    /// forms, filters) over the navigation found on every kind of page: each navigation
    /// action weighs a quarter of a page's own in the softmax. Where everything is
    /// equally new, a page's 23 navigation links would otherwise take most moves, and a
    /// form or a tab deep in the app is met often but rarely used.
    pub local_first: bool,
    /// The learner's choice leans to moves that try choices never tried together: a
    /// form's valid fill whose options were never sent together (a plan with a billing
    /// cycle), an option never chosen in a select that acts at once, outside any form
    /// (a display timezone): each weighs eight times a plain move in the softmax. Every
    /// untried action is otherwise worth the same, a link as much as the one fill in
    /// eight that carries the combination a server mishandles. A click that last led
    /// to such moves (a "Change plan" link, a "Filters" toggle) weighs eight times as
    /// much too, until it leads to none.
    pub fresh_first: bool,
    /// An option a form offered and never sent, which the form offers no more (Priya
    /// Nair as an assignee, once the run made her a viewer), is brought back: on a page
    /// where the run changed a select named after it ("Role of Priya Nair"), the next
    /// move sets that select back to a value it had. A change that takes a choice out of
    /// a form would otherwise hide for the rest of the run what that choice leads to.
    pub set_back: bool,
}

impl Features {
    pub const NAMES: [&'static str; 18] = [
        "form-macro",
        "invalid-inputs",
        "element-merging",
        "new-element-reward",
        "action-guard",
        "semantic-values",
        "plan-to-untried",
        "fresh-choices",
        "storage-states",
        "form-sessions",
        "change-contexts",
        "local-after-change",
        "follow-reveals",
        "form-buttons",
        "setting-tours",
        "local-first",
        "fresh-first",
        "set-back",
    ];

    pub fn all() -> Features {
        Features {
            form_macro: true,
            invalid_inputs: true,
            element_merging: true,
            new_element_reward: true,
            action_guard: true,
            semantic_values: true,
            plan_to_untried: true,
            fresh_choices: true,
            storage_states: true,
            form_sessions: true,
            change_contexts: true,
            local_after_change: true,
            follow_reveals: true,
            form_buttons: true,
            setting_tours: true,
            local_first: true,
            fresh_first: true,
            set_back: true,
        }
    }

    pub fn none() -> Features {
        Features {
            form_macro: false,
            invalid_inputs: false,
            element_merging: false,
            new_element_reward: false,
            action_guard: false,
            semantic_values: false,
            plan_to_untried: false,
            fresh_choices: false,
            storage_states: false,
            form_sessions: false,
            change_contexts: false,
            local_after_change: false,
            follow_reveals: false,
            form_buttons: false,
            setting_tours: false,
            local_first: false,
            fresh_first: false,
            set_back: false,
        }
    }

    /// Switches one feature by its flag name; false for an unknown name.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        let slot = match name {
            "form-macro" => &mut self.form_macro,
            "invalid-inputs" => &mut self.invalid_inputs,
            "element-merging" => &mut self.element_merging,
            "new-element-reward" => &mut self.new_element_reward,
            "action-guard" => &mut self.action_guard,
            "semantic-values" => &mut self.semantic_values,
            "plan-to-untried" => &mut self.plan_to_untried,
            "fresh-choices" => &mut self.fresh_choices,
            "storage-states" => &mut self.storage_states,
            "form-sessions" => &mut self.form_sessions,
            "change-contexts" => &mut self.change_contexts,
            "local-after-change" => &mut self.local_after_change,
            "follow-reveals" => &mut self.follow_reveals,
            "form-buttons" => &mut self.form_buttons,
            "setting-tours" => &mut self.setting_tours,
            "local-first" => &mut self.local_first,
            "fresh-first" => &mut self.fresh_first,
            "set-back" => &mut self.set_back,
            _ => return false,
        };
        *slot = on;
        true
    }
}

#[derive(Debug, Clone)]
pub struct RunConfig {
    pub start_url: Url,
    /// Wall-clock budget for exploring.
    pub time: Duration,
    /// Budget in actions (the initial navigation of each episode does not count).
    pub max_actions: Option<u32>,
    /// Longest episode in actions; then the run goes back to the start URL.
    pub episode_steps: u32,
    pub seed: u64,
    pub strategy: StrategyKind,
    pub features: Features,
    /// Steps without a new state after which the learner jumps to the most curious
    /// transition; `None` keeps the learner's default.
    pub stuck_after: Option<u32>,
    /// Temperature of the learner's Gumbel-softmax; `None` keeps the strategy's default.
    pub tau: Option<f64>,
    /// Actions never to take (used when `features.action_guard` is on).
    pub guard: ActionGuard,
    /// Values users want typed, per field and per semantic type.
    pub dictionary: Dictionary,
    /// How URLs are generalised before two pages are compared.
    pub url_normalization: UrlNormalization,
    /// Replay each new finding in a fresh browser context to check that its trace
    /// reproduces it (and fall back to the episode's steps when the short one does not).
    pub verify_findings: bool,
    /// Where `runs.db`, `record.json` and screenshots go.
    pub out_dir: PathBuf,
    /// Take a screenshot for every new finding and new state.
    pub screenshots: bool,
    /// Steps that log in, run at the start of each episode and each replay.
    pub login: Option<Login>,
    /// Which of the app's pages may be explored.
    pub pages: PageFilter,
    /// A language model asked about each form a form session studies (its constraints
    /// and values), answers cached in the run store.
    pub llm: Option<curio_llm::LlmConfig>,
    pub browser: BrowserConfig,
}

impl RunConfig {
    pub fn store_path(&self) -> PathBuf {
        self.out_dir.join("runs.db")
    }

    pub fn record_path(&self) -> PathBuf {
        self.out_dir.join("record.json")
    }

    /// What is recorded with the run, so it can be reproduced.
    pub fn describe(&self) -> serde_json::Value {
        serde_json::json!({
            "start_url": self.start_url.as_str(),
            "time_secs": self.time.as_secs_f64(),
            "max_actions": self.max_actions,
            "episode_steps": self.episode_steps,
            "seed": self.seed,
            "strategy": self.strategy,
            "features": self.features,
            "stuck_after": self.stuck_after,
            "tau": self.tau,
            "guard": self.guard,
            "url_normalization": self.url_normalization,
            "verify_findings": self.verify_findings,
            "out_dir": self.out_dir.display().to_string(),
            "origins": self.browser.scope.origins(),
            "pages": self.pages.describe(),
            "login": self.login.as_ref().map(Login::describe),
            "llm": self.llm.as_ref().map(|l| l.model.clone()),
            "coverage": self.browser.coverage,
        })
    }
}
