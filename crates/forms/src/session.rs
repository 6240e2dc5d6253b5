//! Testing one form as FormNexus does, as a state machine without I/O: it says what to
//! submit next ([`FormSession::next`]), is told what the form answered
//! ([`FormSession::observe`]), and at the end reports the constraints with their verdicts
//! and the Form Submission States found ([`FormSession::report`]).
//!
//! 1. **Reach** a successful submission: values that keep every constraint. After a
//!    failure, the messages attached to a field refine its constraints (simple rules on
//!    the wording: "required", "at least 8 characters", "must contain an uppercase letter",
//!    "passwords do not match", "must be after the start date", "must be different
//!    from", a number giving the bound); constraints the solver cannot satisfy together
//!    are dropped. At most [`SessionConfig::max_reach`] submissions.
//! 2. **Negate** each constraint alone, keeping the others: a failure confirms it, a
//!    success refutes it (a discrepancy between what the form's meaning suggests and
//!    what it enforces); no clear answer leaves it unverified.
//! 3. **Probe** what the rules missed, one field at a time from the successful values:
//!    empty, whitespace only, too long, another type, a number below zero; a probe a
//!    negation already made is skipped. A short session can make numbers below zero
//!    and letters in a number typed as text alone ([`SessionConfig::edges`]).
//! 4. **Judge** a language model's hypotheses ([`Origin::Model`]), each negated alone,
//!    last, so that they never take the budget of the rules' negations and probes.
//!
//! The rules reach first, as they would alone. Only when they get no success does the
//! model have its turn ([`FormSession::model_turn`]): its hypotheses join and the caller
//! tries its values first, for another `max_reach` submissions; a hypothesis the form
//! then refuses is set aside. So with a model the session does everything it does
//! without, and more.
//!
//! Every distinct [`Feedback::signature`] is a Form Submission State (values the page
//! quotes back masked: "Thanks, Ada!" and "Thanks, Bob!" are one state); the first
//! submission that reached it is kept, to become a test. The whole session is at most
//! [`SessionConfig::max_submissions`] submissions and deterministic for a seed.

use std::collections::VecDeque;

use curio_page::{Field, Form};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::feedback::{self, Channel, Feedback, Message, Outcome, Tone, collapse, has_phrase};
use crate::filler::FieldValue;
use crate::lang::{Check, CmpOp, Constraint, Operand};
use crate::semantic::{Semantic, classify};
use crate::testing::{ValueSolver, field_refs};

#[cfg(test)]
mod tests;

/// How far a session goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionConfig {
    /// Most submissions in all.
    pub max_submissions: usize,
    /// Most submissions trying to reach a success.
    pub max_reach: usize,
    /// Refine constraints from the feedback of failed submissions (phase 1).
    pub refine: bool,
    /// Negate each constraint (phase 2).
    pub negate: bool,
    /// Probe each field with empty, blank, too long and wrong-type values (phase 3).
    pub probe: bool,
    /// Without `probe`, still probe each number field below zero, and each number typed
    /// as text with letters (phase 3): the probes worth a short session's budget, as
    /// servers check a count's upper bound and zero more often than its sign, and parse
    /// a text field's number trusting the page's hint.
    pub edges: bool,
    /// Today, `YYYY-MM-DD`: what "in the past" and "in the future" in a message are
    /// relative to. Without it such a message becomes a free-text rule.
    pub today: Option<String>,
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            max_submissions: 60,
            max_reach: 4,
            refine: true,
            negate: true,
            probe: true,
            edges: false,
            today: None,
        }
    }
}

/// A value that rules may have missed, in one field (index into `form.fields`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Probe {
    /// Nothing: empty text, no option, unchecked.
    Empty(usize),
    /// Spaces only.
    Whitespace(usize),
    /// 300 characters.
    TooLong(usize),
    /// Letters in a number field, digits in a name, ...
    OtherType(usize),
    /// One character, the first of the value: the shortest text that is not empty.
    TooShort(usize),
    /// Every field left empty, as a user who presses the button first (the field is the
    /// first one).
    AllEmpty(usize),
    /// An unchecked box checked, and the optional field right after it (the one a box
    /// usually reveals or makes required) left empty.
    Toggle(usize),
    /// A number between two steps of the field's `step` (10.005 where cents are asked).
    OffStep(usize),
    /// A number field's value below zero (-1 seats, hours or items).
    Negative(usize),
    /// A date this many days from today: a child's or an unlikely old birth date, a
    /// booking far ahead.
    DateAt(usize, i64),
    /// The first field, the end of a date range, 100 days after the second, its start.
    LongSpan(usize, usize),
    /// The first field given the value of the second, an earlier field of the same
    /// meaning (a second leg leaving from where the first left).
    SameAs(usize, usize),
}

impl Probe {
    /// The field probed.
    pub fn field(self) -> usize {
        match self {
            Probe::Empty(f)
            | Probe::Whitespace(f)
            | Probe::TooLong(f)
            | Probe::OtherType(f)
            | Probe::TooShort(f)
            | Probe::AllEmpty(f)
            | Probe::Toggle(f)
            | Probe::LongSpan(f, _)
            | Probe::OffStep(f)
            | Probe::Negative(f)
            | Probe::DateAt(f, _)
            | Probe::SameAs(f, _) => f,
        }
    }
}

/// Why a submission is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// To reach a successful submission.
    Reach,
    /// To break one constraint (index into the report's `constraints`), keeping the rest.
    Negate(usize),
    /// To probe one field.
    Probe(Probe),
}

/// Values to submit, one per field of the form (by index), and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    pub values: Vec<FieldValue>,
    pub purpose: Purpose,
}

/// What the form said about a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Breaking it made the submission fail.
    Confirmed,
    /// Breaking it still succeeded: the form does not enforce it.
    Refuted,
    /// Not told: never negated, no values broke it, or no clear answer.
    Unverified,
}

/// Where a constraint came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// Given to the session (inferred from the form before any submission).
    Given,
    /// Read from the form's feedback to a failed submission.
    Feedback,
    /// Proposed by a language model: a hypothesis. It is kept while reaching a success
    /// until a submission made with it is refused about its fields; then it is set
    /// aside, so that a wrong proposal costs one submission, and judged once a success
    /// is reached: refuted at once when the success breaks it, else negated alone.
    Model,
}

/// One constraint and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstraintResult {
    /// Its canonical text (`lang::parse` reads it back).
    pub constraint: String,
    pub verdict: Verdict,
    pub origin: Origin,
    /// Left out: the solver could not keep it with the others, or feedback replaced it.
    pub dropped: bool,
    /// The Form Submission State (index into the report's `fss`) the verdict rests on.
    pub fss: Option<usize>,
}

/// A Form Submission State: a distinct answer of the form, with the first submission that
/// produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fss {
    pub signature: String,
    pub outcome: Outcome,
    pub messages: Vec<Message>,
    pub values: Vec<FieldValue>,
    pub purpose: Purpose,
}

/// What a session found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormReport {
    /// Every constraint the session held, given ones first, in the order `Purpose::Negate`
    /// indexes them.
    pub constraints: Vec<ConstraintResult>,
    pub fss: Vec<Fss>,
    /// Submissions asked for.
    pub submissions: usize,
    /// Whether a submission succeeded before the negations.
    pub reached: bool,
}

#[derive(Debug, Clone)]
struct Entry {
    constraint: Constraint,
    origin: Origin,
    verdict: Verdict,
    dropped: bool,
    /// A model's hypothesis set aside while reaching (see [`Origin::Model`]).
    aside: bool,
    fss: Option<usize>,
}

#[derive(Debug, Clone)]
struct Attempt {
    values: Vec<FieldValue>,
    purpose: Purpose,
    outcome: Outcome,
    /// Messages in all, to pick the least refused base when no success came.
    messages: usize,
    fss: Option<usize>,
    observed: bool,
    /// The fields its messages were about; `None` when one was about the form as a
    /// whole (or there were none), so that it may be about any field.
    blamed: Option<Vec<usize>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Reach,
    Negate,
    Probe,
    /// A model's hypotheses negated, after the rules' negations and the probes, so that
    /// they never take the budget those would have had.
    Judge,
    Done,
}

/// The form-testing state machine of one form. See the module documentation.
#[derive(Debug, Clone)]
pub struct FormSession {
    form: Form,
    refs: Vec<String>,
    entries: Vec<Entry>,
    config: SessionConfig,
    rng: ChaCha8Rng,
    phase: Phase,
    pending: Option<Submission>,
    submissions: usize,
    reach_attempts: usize,
    reached: bool,
    /// The values negations and probes start from, their outcome and state.
    base: Option<(Vec<FieldValue>, Outcome, Option<usize>)>,
    attempts: Vec<Attempt>,
    fss: Vec<Fss>,
    /// Per state, its signature with the values typed masked: what tells states apart.
    fss_keys: Vec<String>,
    negations: VecDeque<usize>,
    probes: VecDeque<Probe>,
    /// The model's hypotheses to negate in [`Phase::Judge`].
    hypotheses: VecDeque<usize>,
    /// The rules reached no success alone: the model's hypotheses and values are tried.
    model_turn: bool,
    /// Values a model guessed, by field, to try first in its turn.
    model_values: Vec<Option<String>>,
    /// Constraints whose negation was submitted.
    negated: Vec<usize>,
    /// Examples the feedback gave, (field, value), for the solver at the next call.
    examples: Vec<(usize, String)>,
}

impl FormSession {
    /// A session over `form`, starting from `constraints` (fields named as
    /// [`field_refs`] names them).
    pub fn new(
        form: Form,
        constraints: Vec<Constraint>,
        config: SessionConfig,
        seed: u64,
    ) -> FormSession {
        let refs = field_refs(&form);
        let mut entries: Vec<Entry> = Vec::new();
        for c in constraints {
            if entries.iter().all(|e| e.constraint != c) {
                entries.push(Entry {
                    constraint: c,
                    origin: Origin::Given,
                    verdict: Verdict::Unverified,
                    dropped: false,
                    aside: false,
                    fss: None,
                });
            }
        }
        FormSession {
            form,
            refs,
            entries,
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            phase: Phase::Reach,
            pending: None,
            submissions: 0,
            reach_attempts: 0,
            reached: false,
            base: None,
            attempts: Vec::new(),
            fss: Vec::new(),
            fss_keys: Vec::new(),
            negations: VecDeque::new(),
            probes: VecDeque::new(),
            hypotheses: VecDeque::new(),
            model_turn: false,
            model_values: Vec::new(),
            negated: Vec::new(),
            examples: Vec::new(),
        }
    }

    /// Adds a model's proposals as hypotheses ([`Origin::Model`]): negation judges them
    /// after the rules, and in the model's turn the reach keeps them until the form
    /// refuses them. Only before the reach is over (later, what is being negated must not
    /// change); answers how many were new.
    pub fn add_hypotheses(&mut self, constraints: Vec<Constraint>) -> usize {
        if self.phase != Phase::Reach {
            return 0;
        }
        let mut added = 0;
        for c in constraints {
            if self.entries.iter().all(|e| e.constraint != c) {
                self.entries.push(Entry {
                    constraint: c,
                    origin: Origin::Model,
                    verdict: Verdict::Unverified,
                    dropped: false,
                    // Out of the reach until the model's turn.
                    aside: !self.model_turn,
                    fss: None,
                });
                added += 1;
            }
        }
        added
    }

    fn start_model_turn(&mut self) {
        self.model_turn = true;
        for i in self.model_waiting() {
            self.entries[i].aside = false;
        }
        self.give_model_values();
    }

    /// The model's hypotheses waiting, set aside.
    fn model_waiting(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| {
                let e = &self.entries[i];
                e.origin == Origin::Model && e.aside && !e.dropped
            })
            .collect()
    }

    /// Whether the session is still trying to reach a success.
    pub fn reaching(&self) -> bool {
        self.phase == Phase::Reach
    }

    /// The form under test.
    pub fn form(&self) -> &Form {
        &self.form
    }

    /// Constraint `index` as `Purpose::Negate` names it.
    pub fn constraint(&self, index: usize) -> Option<&Constraint> {
        self.entries.get(index).map(|e| &e.constraint)
    }

    /// The constraints in force (neither dropped nor set aside).
    pub fn active_constraints(&self) -> Vec<Constraint> {
        self.active()
            .into_iter()
            .map(|i| self.entries[i].constraint.clone())
            .collect()
    }

    /// What to submit next; `None` when the session is over (every phase done, or the
    /// budget spent). A submission not [`observe`](FormSession::observe)d before the
    /// next call counts as one that could not be made.
    pub fn next(&mut self, solver: &mut dyn ValueSolver) -> Option<Submission> {
        if self.pending.is_some() {
            self.observe(Feedback::unknown());
        }
        for (field, value) in std::mem::take(&mut self.examples) {
            solver.example(field, value);
        }
        loop {
            if self.submissions >= self.config.max_submissions {
                self.phase = Phase::Done;
            }
            match self.phase {
                Phase::Reach => {
                    if self.reach_attempts >= self.reach_limit() {
                        self.end_reach();
                        continue;
                    }
                    // The model's values, when its turn has just come.
                    for (field, value) in std::mem::take(&mut self.examples) {
                        solver.example(field, value);
                    }
                    match self.reach_values(solver) {
                        Some(values) => {
                            self.reach_attempts += 1;
                            return Some(self.submit(values, Purpose::Reach));
                        }
                        None => self.end_reach(),
                    }
                }
                Phase::Negate => {
                    let Some(i) = self.negations.pop_front() else {
                        self.start_probes();
                        continue;
                    };
                    if let Some(values) = self.negation_values(solver, i) {
                        self.negated.push(i);
                        return Some(self.submit(values, Purpose::Negate(i)));
                    }
                }
                Phase::Probe => {
                    let Some(probe) = self.probes.pop_front() else {
                        self.phase = Phase::Judge;
                        continue;
                    };
                    if let Some(values) = self.probe_values(probe) {
                        return Some(self.submit(values, Purpose::Probe(probe)));
                    }
                }
                Phase::Judge => {
                    let Some(i) = self.hypotheses.pop_front() else {
                        self.phase = Phase::Done;
                        continue;
                    };
                    if let Some(values) = self.negation_values(solver, i) {
                        self.negated.push(i);
                        return Some(self.submit(values, Purpose::Negate(i)));
                    }
                }
                Phase::Done => return None,
            }
        }
    }

    /// What the form answered to the last submission.
    pub fn observe(&mut self, feedback: Feedback) {
        let Some(submission) = self.pending.take() else {
            return;
        };
        let observed = feedback.observed;
        let fss = observed.then(|| self.record(&feedback, &submission));
        self.attempts.push(Attempt {
            values: submission.values.clone(),
            purpose: submission.purpose,
            outcome: feedback.outcome,
            messages: feedback.messages.len() + feedback.invalid.len(),
            fss,
            observed,
            blamed: blamed(&self.form, &feedback),
        });
        if !observed {
            return;
        }
        match submission.purpose {
            Purpose::Reach => match feedback.outcome {
                // "No results for …": accepted, but a search that finds something is
                // the success worth building on; other values are tried while the
                // budget for reaching lasts, and this one is the base if none does.
                Outcome::Success
                    if found_nothing(&feedback) && self.reach_attempts < self.reach_limit() =>
                {
                    self.reached = true;
                    if self.base.is_none() {
                        self.base = Some((submission.values, Outcome::Success, fss));
                    }
                }
                Outcome::Success => {
                    self.reached = true;
                    self.base = Some((submission.values, Outcome::Success, fss));
                    self.end_reach();
                }
                Outcome::Unknown => {
                    // Not refused: as good a base as the form gives.
                    self.base = Some((submission.values, Outcome::Unknown, fss));
                    self.end_reach();
                }
                Outcome::Failure => {
                    if self.model_turn {
                        self.set_aside(touched(&self.form, &feedback).as_deref());
                    }
                    if self.config.refine {
                        self.refine(&feedback, &submission.values);
                    }
                }
            },
            Purpose::Negate(i) => {
                self.judge(i, feedback.outcome, fss, blamed(&self.form, &feedback))
            }
            Purpose::Probe(_) => {}
        }
    }

    /// The constraints with their verdicts and the states found so far.
    pub fn report(&self) -> FormReport {
        FormReport {
            constraints: self
                .entries
                .iter()
                .map(|e| ConstraintResult {
                    constraint: e.constraint.to_string(),
                    verdict: e.verdict,
                    origin: e.origin,
                    dropped: e.dropped,
                    fss: e.fss,
                })
                .collect(),
            fss: self.fss.clone(),
            submissions: self.submissions,
            reached: self.reached,
        }
    }

    fn submit(&mut self, values: Vec<FieldValue>, purpose: Purpose) -> Submission {
        self.submissions += 1;
        let submission = Submission { values, purpose };
        self.pending = Some(submission.clone());
        submission
    }

    /// The state of `feedback` (index into `fss`), recorded when new. Submissions whose
    /// messages differ only in the values they quote back are the same state; the state
    /// keeps the signature of its first submission as is, which a replay of its values
    /// reproduces.
    fn record(&mut self, feedback: &Feedback, submission: &Submission) -> usize {
        let signature = feedback.signature(&self.refs);
        let typed: Vec<String> = submission
            .values
            .iter()
            .filter(|v| !matches!(v, FieldValue::Check(_)))
            .map(FieldValue::as_string)
            .collect();
        let key = feedback.signature_masking(&self.refs, &typed);
        if let Some(i) = self.fss_keys.iter().position(|k| *k == key) {
            return i;
        }
        self.fss_keys.push(key);
        self.fss.push(Fss {
            signature,
            outcome: feedback.outcome,
            messages: feedback.messages.clone(),
            values: submission.values.clone(),
            purpose: submission.purpose,
        });
        self.fss.len() - 1
    }

    /// Submissions trying to reach a success: `max_reach`, twice that while every
    /// accepted search found nothing (a search has many words to try, each cheap).
    fn reach_limit(&self) -> usize {
        let limit = self.config.max_reach.max(1);
        if self.reached || self.model_turn {
            limit * 2
        } else {
            limit
        }
    }

    fn active(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| !self.entries[i].dropped && !self.entries[i].aside)
            .collect()
    }

    /// Values a model guessed, by field, for the solver to try first in the model's turn
    /// (that turn then comes even without hypotheses).
    pub fn add_model_values(&mut self, values: Vec<Option<String>>) {
        self.model_values = values;
        if self.model_turn {
            self.give_model_values();
        }
    }

    fn give_model_values(&mut self) {
        for (field, value) in self.model_values.iter().enumerate() {
            if let Some(v) = value {
                self.examples.push((field, v.clone()));
            }
        }
    }

    /// The model's turn from the start: its hypotheses are kept while reaching (for
    /// testing the model alone).
    pub fn model_first(&mut self) {
        if self.phase == Phase::Reach && self.submissions == 0 {
            self.start_model_turn();
        }
    }

    /// Whether the rules got no success alone and the model has its turn at reaching:
    /// its values should then be tried first.
    pub fn model_turn(&self) -> bool {
        self.model_turn
    }

    /// After a refused reach in the model's turn: its hypotheses about the fields the
    /// form blamed (`None`: the form as a whole, so any field) are set aside until
    /// negation.
    fn set_aside(&mut self, blamed: Option<&[usize]>) {
        let refs = &self.refs;
        for e in self
            .entries
            .iter_mut()
            .filter(|e| e.origin == Origin::Model && !e.dropped && !e.aside)
        {
            let involved = std::iter::once(e.constraint.field.as_str())
                .chain(e.constraint.related_fields())
                .filter_map(|name| refs.iter().position(|r| r == name));
            let about = match blamed {
                None => true,
                Some(fields) => involved.into_iter().any(|f| fields.contains(&f)),
            };
            e.aside |= about;
        }
    }

    /// Values that keep every constraint in force; when the solver finds none, the
    /// constraints it cannot keep together are dropped (feedback's kept first). `None`
    /// when no values new to the session can be found.
    fn reach_values(&mut self, solver: &mut dyn ValueSolver) -> Option<Vec<FieldValue>> {
        let n = self.form.fields.len();
        for _ in 0..3 {
            let active: Vec<Constraint> = self.active_constraints();
            let values = match solver.satisfy(&self.form, &active, &mut self.rng) {
                Some(v) => v,
                None => self.relax(solver)?,
            };
            if values.len() != n {
                return None;
            }
            let tried = self
                .attempts
                .iter()
                .any(|a| a.observed && a.purpose == Purpose::Reach && a.values == values);
            if !tried {
                return Some(values);
            }
        }
        None
    }

    /// Keeps the largest set of constraints the solver satisfies, adding them one by one
    /// (feedback's first, then the given ones, then a model's, each in order); drops the
    /// rest, or sets a model's aside. Answers the values for the kept set.
    fn relax(&mut self, solver: &mut dyn ValueSolver) -> Option<Vec<FieldValue>> {
        let mut order: Vec<usize> = self.active();
        // The form's own word first, then the rules, then a model's guesses.
        order.sort_by_key(|&i| {
            let rank = match self.entries[i].origin {
                Origin::Feedback => 0,
                Origin::Given => 1,
                Origin::Model => 2,
            };
            (rank, i)
        });
        let mut kept: Vec<usize> = Vec::new();
        let mut values = solver.satisfy(&self.form, &[], &mut self.rng)?;
        for i in order {
            let mut trial = kept.clone();
            trial.push(i);
            trial.sort_unstable();
            let set: Vec<Constraint> = trial
                .iter()
                .map(|&j| self.entries[j].constraint.clone())
                .collect();
            match solver.satisfy(&self.form, &set, &mut self.rng) {
                Some(v) => {
                    kept = trial;
                    values = v;
                }
                // A model's guess waits for negation; a rule is dropped.
                None if self.entries[i].origin == Origin::Model => self.entries[i].aside = true,
                None => self.entries[i].dropped = true,
            }
        }
        Some(values)
    }

    /// Phase 1 is over: negate from a base that was not refused, else probe from the
    /// least refused attempt.
    fn end_reach(&mut self) {
        if self.phase != Phase::Reach {
            return;
        }
        // The rules got nothing accepted: the model's turn, when it has proposed anything.
        let model_has =
            self.model_values.iter().any(Option::is_some) || !self.model_waiting().is_empty();
        if self.base.is_none() && !self.model_turn && model_has {
            self.start_model_turn();
            return;
        }
        if self.base.is_none() {
            self.base = self
                .attempts
                .iter()
                .filter(|a| a.observed && a.purpose == Purpose::Reach)
                .min_by_key(|a| a.messages)
                .or_else(|| self.attempts.iter().find(|a| a.purpose == Purpose::Reach))
                .map(|a| (a.values.clone(), a.outcome, a.fss));
        }
        // An unobserved attempt's "unknown" is no base to negate from.
        let negatable = matches!(self.base, Some((_, Outcome::Success | Outcome::Unknown, _)))
            && self
                .attempts
                .iter()
                .any(|a| a.observed && a.outcome != Outcome::Failure);
        if negatable && self.config.negate {
            self.phase = Phase::Negate;
            self.plan_negations();
        } else {
            self.start_probes();
        }
    }

    fn plan_negations(&mut self) {
        let Some((base, outcome, base_fss)) = self.base.clone() else {
            return;
        };
        let mut planned = self.active();
        // The hypotheses set aside are negated too, after the rest, each alone.
        planned.extend((0..self.entries.len()).filter(|&i| {
            let e = &self.entries[i];
            e.aside && !e.dropped
        }));
        for i in planned {
            let c = &self.entries[i].constraint;
            if matches!(c.check, Check::Dummy(_)) {
                continue;
            }
            // The base already breaks it and was accepted: refuted without a submission.
            if outcome == Outcome::Success && c.holds(&self.lookup(&base)) == Some(false) {
                self.entries[i].verdict = Verdict::Refuted;
                self.entries[i].fss = base_fss;
                continue;
            }
            // Hypotheses the success did without wait until the rules are done.
            if self.entries[i].origin == Origin::Model && self.entries[i].aside {
                self.hypotheses.push_back(i);
            } else {
                self.negations.push_back(i);
            }
        }
    }

    /// Values breaking constraint `i` and keeping the others; `None` when there are none
    /// to submit (no values found, or values already submitted, whose answer then
    /// decides).
    fn negation_values(
        &mut self,
        solver: &mut dyn ValueSolver,
        i: usize,
    ) -> Option<Vec<FieldValue>> {
        let mut active = self.active();
        if !active.contains(&i) {
            // A hypothesis set aside: broken while the constraints in force are kept.
            active.push(i);
        }
        let target = active.iter().position(|&j| j == i)?;
        let set: Vec<Constraint> = active
            .iter()
            .map(|&j| self.entries[j].constraint.clone())
            .collect();
        let values = solver.break_one(&self.form, &set, target, &mut self.rng)?;
        if values.len() != self.form.fields.len()
            || set[target].holds(&self.lookup(&values)) == Some(true)
        {
            return None;
        }
        if let Some(a) = self
            .attempts
            .iter()
            .find(|a| a.observed && a.values == values)
        {
            let (outcome, fss, blamed) = (a.outcome, a.fss, a.blamed.clone());
            self.judge(i, outcome, fss, blamed);
            return None;
        }
        Some(values)
    }

    /// The verdict on constraint `i` from the answer to its negation. A failure whose
    /// messages are all about fields the constraint does not involve confirms nothing.
    fn judge(
        &mut self,
        i: usize,
        outcome: Outcome,
        fss: Option<usize>,
        blamed: Option<Vec<usize>>,
    ) {
        let Some(entry) = self.entries.get(i) else {
            return;
        };
        let c = &entry.constraint;
        let involved: Vec<usize> = std::iter::once(c.field.as_str())
            .chain(c.related_fields())
            .filter_map(|name| self.refs.iter().position(|r| r == name))
            .collect();
        let elsewhere = blamed.is_some_and(|b| !b.iter().any(|f| involved.contains(f)));
        let entry = &mut self.entries[i];
        entry.verdict = match outcome {
            Outcome::Failure if elsewhere => Verdict::Unverified,
            Outcome::Failure => Verdict::Confirmed,
            Outcome::Success => Verdict::Refuted,
            Outcome::Unknown => Verdict::Unverified,
        };
        entry.fss = fss;
    }

    fn start_probes(&mut self) {
        self.phase = Phase::Judge;
        if !self.config.probe && !self.config.edges {
            return;
        }
        let Some((base, _, _)) = &self.base else {
            return;
        };
        // Numbers below zero; letters in a number typed as text, which the server
        // parses itself (a browser keeps letters out of a number field).
        let sendable = |p: &Probe| {
            let f = p.field();
            !self.form.fields[f].readonly
                && probe_value(&self.form.fields[f], &base[f], *p).is_some()
        };
        let edges: Vec<Probe> = (0..self.form.fields.len())
            .flat_map(|f| {
                let field = &self.form.fields[f];
                let typed = kind_of(field) == Kind::Text && counts(field);
                [
                    Some(Probe::Negative(f)),
                    typed.then_some(Probe::OtherType(f)),
                ]
            })
            .flatten()
            .filter(sendable)
            .collect();
        if !self.config.probe {
            self.probes = edges.into();
            self.phase = Phase::Probe;
            return;
        }
        let mut probes = VecDeque::new();
        if self.form.fields.len() > 1 {
            probes.push_back(Probe::AllEmpty(0));
        }
        for (f, field) in self.form.fields.iter().enumerate() {
            if field.readonly {
                continue;
            }
            for probe in [
                Probe::Empty(f),
                Probe::Whitespace(f),
                Probe::TooShort(f),
                Probe::TooLong(f),
                Probe::OtherType(f),
            ] {
                if probe_value(field, &base[f], probe).is_some() && !self.negation_covers(probe) {
                    probes.push_back(probe);
                }
            }
        }
        // Boxes that change what else the form asks for.
        for (f, field) in self.form.fields.iter().enumerate() {
            if kind_of(field) == Kind::Check
                && !field.readonly
                && base.get(f) == Some(&FieldValue::Check(false))
            {
                probes.push_back(Probe::Toggle(f));
            }
        }
        // Numbers off their step; dates at the edges of what their meaning allows.
        for (f, field) in self.form.fields.iter().enumerate() {
            if field.readonly {
                continue;
            }
            let stepped = step_of(field).is_some();
            if kind_of(field) == Kind::Number && stepped {
                probes.push_back(Probe::OffStep(f));
            }
            if field.input_type == "date" && self.config.today.is_some() {
                if classify(field) == Semantic::BirthDate {
                    probes.push_back(Probe::DateAt(f, -5 * 365));
                    probes.push_back(Probe::DateAt(f, -130 * 365));
                } else {
                    probes.push_back(Probe::DateAt(f, 2 * 365));
                }
            }
        }
        // The letters are among the other types above.
        probes.extend(
            edges
                .into_iter()
                .filter(|p| matches!(p, Probe::Negative(_))),
        );
        // Ranges made long: the end far after the start (a stay, a rental, a loan).
        for (end, start) in date_ranges(&self.form) {
            probes.push_back(Probe::LongSpan(end, start));
        }
        // Fields of one meaning given the same value, unless a rule already relates them.
        let sems: Vec<Semantic> = self.form.fields.iter().map(classify).collect();
        for f in 0..self.form.fields.len() {
            for g in 0..f {
                let alike = sems[f] == sems[g]
                    && matches!(
                        sems[f],
                        Semantic::City
                            | Semantic::Country
                            | Semantic::Region
                            | Semantic::Date
                            | Semantic::Email
                            | Semantic::Phone
                            | Semantic::PersonName
                    )
                    && same_kind(&self.form.fields[f], &self.form.fields[g]);
                let alike = alike || same_choices(&self.form.fields[f], &self.form.fields[g]);
                // A model's hypotheses are judged apart and change no probe.
                let related = self.entries.iter().any(|e| {
                    let c = &e.constraint;
                    let names = [self.refs[f].as_str(), self.refs[g].as_str()];
                    e.origin != Origin::Model
                        && names.contains(&c.field.as_str())
                        && c.related_fields().iter().any(|r| names.contains(r))
                });
                if alike && !related && base.get(f) != base.get(g) {
                    probes.push_back(Probe::SameAs(f, g));
                }
            }
        }
        self.probes = probes;
        self.phase = Phase::Probe;
    }

    /// Whether a negation already submitted tried what `probe` would.
    fn negation_covers(&self, probe: Probe) -> bool {
        let field = &self.refs[probe.field()];
        self.negated.iter().any(|&i| {
            let c = &self.entries[i].constraint;
            if &c.field != field || c.negated {
                return false;
            }
            match (probe, &c.check) {
                (Probe::Empty(_), Check::ToBeTruthy) => true,
                (Probe::Empty(_), Check::ToBeEqual(Operand::Str(s))) => s == "true",
                (Probe::Empty(_), Check::ToHaveLengthCondition(CmpOp::Ge, n)) => *n >= 1,
                (Probe::Empty(_), Check::ToHaveLengthCondition(CmpOp::Gt, _)) => true,
                (Probe::TooLong(_), Check::ToHaveLengthCondition(CmpOp::Le | CmpOp::Lt, _)) => true,
                (
                    Probe::OtherType(_),
                    Check::ToBeNumerical | Check::ToBeAlphabetical | Check::ToBeAlphaNumerical,
                ) => true,
                _ => false,
            }
        })
    }

    fn probe_values(&self, probe: Probe) -> Option<Vec<FieldValue>> {
        let (base, _, _) = self.base.as_ref()?;
        let f = probe.field();
        let mut values = base.clone();
        match probe {
            Probe::Toggle(_) => {
                values[f] = FieldValue::Check(true);
                let next = f + 1;
                if let Some(field) = self.form.fields.get(next)
                    && !field.required
                    && matches!(kind_of(field), Kind::Text | Kind::Number | Kind::Date)
                {
                    values[next] = FieldValue::Text(String::new());
                }
            }
            Probe::SameAs(_, g) => values[f] = base.get(g)?.clone(),
            Probe::OffStep(_) => {
                let (step, decimals) = step_of(&self.form.fields[f])?;
                let v: f64 = base.get(f)?.as_string().trim().parse().ok()?;
                values[f] = FieldValue::Text(format!("{:.*}", decimals + 1, v + step / 2.0));
            }
            Probe::DateAt(_, offset) => {
                let today = crate::scalar::parse_date(self.config.today.as_deref()?)?;
                values[f] = FieldValue::Text(crate::scalar::format_date(today + offset)?);
            }
            Probe::LongSpan(_, start) => {
                let day = crate::scalar::parse_date(base.get(start)?.as_string().trim())?;
                values[f] = FieldValue::Text(crate::scalar::format_date(day + 100)?);
            }
            Probe::AllEmpty(_) => {
                for (i, field) in self.form.fields.iter().enumerate() {
                    if field.readonly {
                        continue;
                    }
                    if let Some(v) = probe_value(field, &base[i], Probe::Empty(i)) {
                        values[i] = v;
                    }
                }
                if values == *base {
                    return None;
                }
            }
            _ => values[f] = probe_value(self.form.fields.get(f)?, base.get(f)?, probe)?,
        }
        if self.attempts.iter().any(|a| a.values == values) {
            return None;
        }
        Some(values)
    }

    fn lookup<'a>(&'a self, values: &'a [FieldValue]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name: &str| {
            self.refs
                .iter()
                .position(|r| r == name)
                .and_then(|i| values.get(i))
                .map(FieldValue::as_string)
        }
    }

    /// Phase 1 after a failure: constraints from each message about a field.
    fn refine(&mut self, feedback: &Feedback, values: &[FieldValue]) {
        for m in &feedback.messages {
            if matches!(m.channel, Channel::Http(_)) {
                continue;
            }
            if m.channel != Channel::Native
                && matches!(feedback::tone(&m.text), Tone::Fine | Tone::Done)
            {
                continue;
            }
            let Some(f) = message_field(&self.form, m)
                .or_else(|| unticked_group(&self.form, &m.text, values))
            else {
                continue;
            };
            if f >= self.form.fields.len() {
                continue;
            }
            let value = values.get(f).map(FieldValue::as_string).unwrap_or_default();
            // A message quoting the refused value back gives no example of a good one.
            if let Some(example) = crate::infer::example_in(&m.text)
                && example.trim() != value.trim()
            {
                self.examples.push((f, example));
            }
            let today = self.config.today.as_deref();
            for c in rules_from_text(&self.form, &self.refs, f, &m.text, &value, today) {
                self.add(c);
            }
        }
        for &f in &feedback.invalid {
            let empty = values
                .get(f)
                .is_none_or(|v| v.as_string().trim().is_empty());
            if f < self.form.fields.len() && empty {
                let c = required(&self.form.fields[f], &self.refs[f]);
                self.add(c);
            }
        }
    }

    /// Adds a constraint learnt from feedback; those in force it replaces (same field,
    /// same template and direction, or its opposite) are dropped.
    fn add(&mut self, c: Constraint) {
        // A model's hypotheses are judged apart: the form's word neither takes them in
        // nor drops them, so that the rules go as they would without a model.
        let own = |e: &Entry| e.origin != Origin::Model;
        if self
            .entries
            .iter()
            .any(|e| own(e) && !e.dropped && e.constraint == c)
        {
            return;
        }
        for e in self.entries.iter_mut().filter(|e| own(e) && !e.dropped) {
            if replaces(&c, &e.constraint) {
                e.dropped = true;
            }
        }
        // Taken back in when it had been dropped before.
        if let Some(e) = self
            .entries
            .iter_mut()
            .find(|e| own(e) && e.constraint == c)
        {
            e.dropped = false;
            return;
        }
        self.entries.push(Entry {
            constraint: c,
            origin: Origin::Feedback,
            verdict: Verdict::Unverified,
            dropped: false,
            aside: false,
            fss: None,
        });
    }
}

/// The field a message is about: the one it is attached to, unless it names another
/// field's label better ("Choose between 10 and 500 seats" or "That coupon code is not
/// valid" shown above the first field), else the one it names.
fn message_field(form: &Form, m: &Message) -> Option<usize> {
    let named = mentioned_field(form, &m.text, None);
    let attached = m.field.filter(|&a| {
        named.is_none_or(|n| {
            n == a || label_share(&form.fields[a], &m.text) >= label_share(&form.fields[n], &m.text)
        })
    });
    attached.or(named)
}

/// The fields the messages of `feedback` are about; `None` when any is about the form as
/// a whole, or there is none.
fn blamed(form: &Form, feedback: &Feedback) -> Option<Vec<usize>> {
    let mut fields: Vec<usize> = feedback.invalid.clone();
    for m in &feedback.messages {
        fields.push(message_field(form, m)?);
    }
    if fields.is_empty() {
        return None;
    }
    fields.sort_unstable();
    fields.dedup();
    Some(fields)
}

/// The fields a refusal may be about: those [`blamed`] and those its messages are
/// shown at; `None` when one message was about the form as a whole.
fn touched(form: &Form, feedback: &Feedback) -> Option<Vec<usize>> {
    let mut fields = blamed(form, feedback)?;
    fields.extend(feedback.messages.iter().filter_map(|m| m.field));
    fields.sort_unstable();
    fields.dedup();
    Some(fields)
}

/// Whether `new` takes the place of `old`.
fn replaces(new: &Constraint, old: &Constraint) -> bool {
    if new.field != old.field {
        return false;
    }
    if *old == new.negate() {
        return true;
    }
    if new.negated != old.negated {
        return false;
    }
    let side = |op: CmpOp| match op {
        CmpOp::Gt | CmpOp::Ge => 1,
        CmpOp::Lt | CmpOp::Le => 2,
        CmpOp::Eq | CmpOp::Ne => 3,
    };
    match (&new.check, &old.check) {
        (Check::ToHaveLengthCondition(a, _), Check::ToHaveLengthCondition(b, _)) => {
            side(*a) == side(*b)
        }
        (Check::ToHaveCompareCondition(a, x), Check::ToHaveCompareCondition(b, y)) => {
            side(*a) == side(*b) && matches!(x, Operand::Field(_)) == matches!(y, Operand::Field(_))
        }
        (Check::ToBeEqual(Operand::Field(_)), Check::ToBeEqual(Operand::Field(_))) => true,
        _ => false,
    }
}

/// The broad kind of a field, for rules and probes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Number,
    Date,
    Choice,
    Check,
    Other,
}

fn kind_of(field: &Field) -> Kind {
    match field.input_type.as_str() {
        "number" | "range" => Kind::Number,
        "date" | "datetime-local" | "month" | "week" | "time" => Kind::Date,
        "select-one" | "select-multiple" | "radio" => Kind::Choice,
        "checkbox" => Kind::Check,
        "file" | "color" | "hidden" | "submit" | "button" | "reset" | "image" => Kind::Other,
        _ => Kind::Text,
    }
}

fn same_kind(a: &Field, b: &Field) -> bool {
    let k = kind_of(a);
    k == kind_of(b) && (k != Kind::Text || a.input_type == b.input_type)
}

/// The value `probe` gives `field`, whose value in the base is `base`; `None` when the
/// probe means nothing for the field or changes nothing.
fn probe_value(field: &Field, base: &FieldValue, probe: Probe) -> Option<FieldValue> {
    let kind = kind_of(field);
    let text = |s: String| match base {
        FieldValue::Text(b) if *b != s => Some(FieldValue::Text(s)),
        _ => None,
    };
    match probe {
        Probe::Empty(_) => match (kind, base) {
            (Kind::Check, FieldValue::Check(true)) => Some(FieldValue::Check(false)),
            (Kind::Choice, FieldValue::Select(v)) if !v.is_empty() => {
                let none = field.input_type == "radio"
                    || field
                        .options
                        .iter()
                        .any(|o| o.value.is_empty() && !o.disabled);
                none.then(|| FieldValue::Select(String::new()))
            }
            (Kind::Text | Kind::Number | Kind::Date, _) => text(String::new()),
            _ => None,
        },
        Probe::Whitespace(_) if kind == Kind::Text => text("   ".into()),
        Probe::TooShort(_) if kind == Kind::Text => {
            let FieldValue::Text(b) = base else {
                return None;
            };
            let first = b.trim().chars().next()?;
            (b.trim().chars().count() >= 2).then(|| FieldValue::Text(first.to_string()))
        }
        Probe::TooLong(_) if kind == Kind::Number => text("9".repeat(300)),
        Probe::TooLong(_) if kind == Kind::Text => {
            let FieldValue::Text(b) = base else {
                return None;
            };
            let b = b.trim();
            let pad = 300usize.saturating_sub(b.chars().count());
            // Keep the value's shape: an email stays an email, longer.
            let long = if b.contains('@') {
                format!("{}{b}", "a".repeat(pad))
            } else {
                format!("{b}{}", "x".repeat(pad))
            };
            text(long)
        }
        Probe::OtherType(_) if kind == Kind::Number => text("abc".into()),
        Probe::OtherType(_) if kind == Kind::Text => {
            let FieldValue::Text(b) = base else {
                return None;
            };
            let letters = b.chars().filter(|c| c.is_alphabetic()).count();
            let digits = b.chars().filter(|c| c.is_ascii_digit()).count();
            if field.input_type == "tel" || digits > letters {
                text("abcde".into())
            } else {
                text("12345".into())
            }
        }
        Probe::Negative(_) if counts(field) => {
            let FieldValue::Text(b) = base else {
                return None;
            };
            let v: f64 = b.trim().parse().ok()?;
            (v >= 0.0).then(|| FieldValue::Text("-1".into()))
        }
        Probe::Whitespace(_)
        | Probe::TooShort(_)
        | Probe::AllEmpty(_)
        | Probe::Negative(_)
        | Probe::TooLong(_)
        | Probe::OtherType(_)
        | Probe::Toggle(_)
        | Probe::LongSpan(..)
        | Probe::OffStep(_)
        | Probe::DateAt(..)
        | Probe::SameAs(..) => None,
    }
}

/// Whether `field` asks for a number: its type, its keyboard (`inputmode`) or its
/// meaning (a quantity, a price).
fn counts(field: &Field) -> bool {
    kind_of(field) == Kind::Number
        || (kind_of(field) == Kind::Text
            && (matches!(field.inputmode.as_deref(), Some("numeric" | "decimal"))
                || matches!(classify(field), Semantic::Quantity | Semantic::Price)))
}

/// Whether a successful answer says the search found nothing.
fn found_nothing(feedback: &Feedback) -> bool {
    feedback.messages.iter().any(|m| {
        let w = feedback::words(&m.text);
        [
            "no results",
            "no result",
            "nothing found",
            "no matches",
            "no match",
            "0 results",
            "found 0",
            "no items",
        ]
        .iter()
        .any(|p| has_phrase(&w, p))
    })
}

/// The first box of a group of checkboxes sharing a name, none of them ticked, when a
/// message about no field in particular asks to pick at least one ("Pick at least one
/// topic").
fn unticked_group(form: &Form, text: &str, values: &[FieldValue]) -> Option<usize> {
    let w = feedback::words(text);
    let asks = ["at least one", "pick", "choose", "select", "tick", "check"]
        .iter()
        .any(|p| has_phrase(&w, p));
    if !asks {
        return None;
    }
    let boxes: Vec<usize> = (0..form.fields.len())
        .filter(|&i| form.fields[i].input_type == "checkbox")
        .collect();
    boxes.iter().copied().find(|&i| {
        let name = form.fields[i].name.as_deref();
        let group: Vec<usize> = boxes
            .iter()
            .copied()
            .filter(|&j| name.is_some() && form.fields[j].name.as_deref() == name)
            .collect();
        group.len() >= 2
            && group[0] == i
            && group
                .iter()
                .all(|&j| values.get(j) != Some(&FieldValue::Check(true)))
    })
}

/// `text` with the commas that group thousands taken out ("2,000" -> "2000").
fn without_thousands_separators(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let grouped = c == ','
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.len() >= i + 4
            && chars[i + 1..i + 4].iter().all(char::is_ascii_digit)
            && chars.get(i + 4).is_none_or(|c| !c.is_ascii_digit());
        if !grouped {
            out.push(c);
        }
    }
    out
}

/// The step of a number field and its decimals: its `step`, or 1 when it has none (as
/// HTML says); `None` for `step="any"` and other fields.
fn step_of(field: &Field) -> Option<(f64, usize)> {
    if field.input_type != "number" {
        return None;
    }
    match field.step.as_deref().map(str::trim) {
        None | Some("") => Some((1.0, 0)),
        Some(s) => {
            let step: f64 = s.parse().ok().filter(|v: &f64| *v > 0.0)?;
            Some((step, s.split_once('.').map_or(0, |(_, d)| d.len())))
        }
    }
}

/// Two selects offering the same three or more choices (from and to stations).
fn same_choices(a: &Field, b: &Field) -> bool {
    let values = |f: &Field| -> Vec<String> {
        f.options
            .iter()
            .filter(|o| !o.value.is_empty())
            .map(|o| o.value.clone())
            .collect()
    };
    kind_of(a) == Kind::Choice
        && kind_of(b) == Kind::Choice
        && values(a).len() >= 3
        && values(a) == values(b)
}

/// Date ranges of the form as (end, start) field pairs: a date field whose words close a
/// range, with the nearest date field before it that opens one.
fn date_ranges(form: &Form) -> Vec<(usize, usize)> {
    use crate::semantic::{RangeRole, range_role};
    let dated = |f: &Field| matches!(f.input_type.as_str(), "date" | "datetime-local");
    let roles: Vec<RangeRole> = form.fields.iter().map(range_role).collect();
    (0..form.fields.len())
        .filter(|&e| dated(&form.fields[e]) && roles[e] == RangeRole::End)
        .filter_map(|e| {
            (0..e)
                .rev()
                .find(|&s| dated(&form.fields[s]) && roles[s] == RangeRole::Start)
                .map(|s| (e, s))
        })
        .collect()
}

/// The rule that a field has a value: checked for a checkbox, non-empty otherwise.
fn required(field: &Field, name: &str) -> Constraint {
    if kind_of(field) == Kind::Check {
        Constraint::new(name, Check::ToBeEqual(Operand::Str("true".into())))
    } else {
        Constraint::new(name, Check::ToBeTruthy)
    }
}

/// Words that say nothing of which field a text is about.
const STOPWORDS: &[&str] = &[
    "your", "the", "a", "an", "of", "and", "or", "please", "enter", "field", "is", "required",
    "optional", "select", "choose", "to", "for", "in", "on", "my", "you", "this",
];

/// The words naming a field: its best label, else placeholder, else name or id split
/// at case changes and punctuation.
fn field_words(field: &Field) -> Vec<String> {
    let source = field
        .label()
        .map(str::to_string)
        .or_else(|| field.placeholder.clone())
        .or_else(|| field.name.clone())
        .or_else(|| field.id.clone())
        .unwrap_or_default();
    let mut spaced = String::new();
    let mut prev_lower = false;
    for c in source.chars() {
        if c.is_uppercase() && prev_lower {
            spaced.push(' ');
        }
        prev_lower = c.is_lowercase();
        spaced.push(c);
    }
    feedback::words(&spaced)
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && !STOPWORDS.contains(&w.as_str()))
        .collect()
}

/// The share of the words of `field`'s label that `text` has (a word of the text
/// starting with one counts, for plurals).
fn label_share(field: &Field, text: &str) -> f64 {
    let words = feedback::words(text);
    let label = field_words(field);
    if label.is_empty() {
        return 0.0;
    }
    let found = label
        .iter()
        .filter(|l| words.iter().any(|w| w.starts_with(l.as_str())))
        .count();
    found as f64 / label.len() as f64
}

/// The field a text names by its label ("Passwords do not match" names "Password"),
/// other than `except`: the best share of the label's words found (a word of the text
/// starting with one counts, for plurals), at least half of them.
fn mentioned_field(form: &Form, text: &str, except: Option<usize>) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for (i, field) in form.fields.iter().enumerate() {
        if Some(i) == except {
            continue;
        }
        if field_words(field).is_empty() {
            continue;
        }
        let score = label_share(field, text);
        if score >= 0.5 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| i)
}

/// The field a relation in a message about `f` is with: the field the text names, else
/// the nearest field of the same kind before it, else after it.
fn partner(form: &Form, f: usize, text: &str) -> Option<usize> {
    let me = &form.fields[f];
    mentioned_field(form, text, Some(f))
        .filter(|&p| kind_of(&form.fields[p]) == kind_of(me))
        .or_else(|| (0..f).rev().find(|&p| same_kind(&form.fields[p], me)))
        .or_else(|| (f + 1..form.fields.len()).find(|&p| same_kind(&form.fields[p], me)))
}

const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

fn number(word: &str) -> Option<f64> {
    if let Some(i) = NUMBER_WORDS.iter().position(|w| *w == word) {
        return Some(i as f64);
    }
    if word.chars().all(|c| c.is_ascii_digit()) && !word.is_empty() {
        return word.parse().ok();
    }
    None
}

/// Character classes a number in a message may count ("at least 1 uppercase letter"),
/// which make it no length.
const CLASS_WORDS: &[&str] = &[
    "uppercase",
    "upper",
    "capital",
    "capitals",
    "lowercase",
    "lower",
    "special",
    "symbol",
    "symbols",
    "number",
    "numbers",
    "numeral",
    "numerals",
];

/// Bounds a message states with numbers: `(op, n)` meaning "the value `op` n".
fn bounds(words: &[String]) -> Vec<(CmpOp, f64)> {
    let counts_class = |k: usize| {
        let next = words.get(k + 1).map(String::as_str).unwrap_or("");
        CLASS_WORDS.contains(&next)
            || ((next.starts_with("digit") || next.starts_with("letter"))
                && words.iter().any(|w| {
                    w.starts_with("contain")
                        || w.starts_with("include")
                        || w == "have"
                        || w == "has"
                        || w == "with"
                }))
    };
    let ends = |k: usize, phrase: &str| {
        let p: Vec<&str> = phrase.split(' ').collect();
        k >= p.len() && words[k - p.len()..k].iter().zip(&p).all(|(w, p)| w == p)
    };
    let follows = |k: usize, phrase: &str| {
        // Right after the number, or after one unit word ("8 characters or more").
        let p: Vec<&str> = phrase.split(' ').collect();
        (1..=2).any(|skip| {
            let from = k + skip;
            words.len() >= from + p.len()
                && words[from..from + p.len()]
                    .iter()
                    .zip(&p)
                    .all(|(w, p)| w == p)
        })
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let Some(n) = number(&words[k]) else {
            k += 1;
            continue;
        };
        if counts_class(k) {
            k += 1;
            continue;
        }
        // between A and B, from A to B
        if (ends(k, "between") || ends(k, "from"))
            && words.get(k + 1).is_some_and(|w| w == "and" || w == "to")
            && let Some(m) = words.get(k + 2).and_then(|w| number(w))
        {
            out.push((CmpOp::Ge, n.min(m)));
            out.push((CmpOp::Le, n.max(m)));
            k += 3;
            continue;
        }
        let op = if [
            "at least",
            "greater than or equal to",
            "more than or equal to",
            "minimum",
            "min",
            "minimum of",
            "no less than",
            "no fewer than",
            "not less than",
            "not be less than",
        ]
        .iter()
        .any(|p| ends(k, p))
            || [
                "or more",
                "or longer",
                "or greater",
                "or above",
                "or higher",
                "or over",
                "or older",
            ]
            .iter()
            .any(|p| follows(k, p))
        {
            Some(CmpOp::Ge)
        } else if [
            "more than",
            "greater than",
            "longer than",
            "over",
            "above",
            "older than",
        ]
        .iter()
        .any(|p| ends(k, p))
        {
            Some(CmpOp::Gt)
        } else if [
            "at most",
            "less than or equal to",
            "maximum",
            "max",
            "maximum of",
            "no more than",
            "not more than",
            "up to",
            "not exceed",
            "cannot exceed",
            "can't exceed",
            "exceed",
            "no longer than",
            "within",
            "not be more than",
        ]
        .iter()
        .any(|p| ends(k, p))
            || [
                "or less",
                "or fewer",
                "or shorter",
                "or below",
                "or lower",
                "or under",
                "or younger",
            ]
            .iter()
            .any(|p| follows(k, p))
        {
            Some(CmpOp::Le)
        } else if [
            "less than",
            "fewer than",
            "shorter than",
            "under",
            "below",
            "lower than",
            "younger than",
        ]
        .iter()
        .any(|p| ends(k, p))
        {
            Some(CmpOp::Lt)
        } else if ends(k, "exactly") || ends(k, "be") || ends(k, "must be") {
            Some(CmpOp::Eq)
        } else {
            None
        };
        if let Some(op) = op {
            out.push((op, n));
        }
        k += 1;
    }
    out
}

/// A `YYYY-MM-DD` date written in the text.
fn date_literal(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len().saturating_sub(9)).find_map(|i| {
        let s: String = chars[i..i + 10].iter().collect();
        let b = s.as_bytes();
        let shape = s.char_indices().all(|(j, c)| {
            if j == 4 || j == 7 {
                c == '-'
            } else {
                c.is_ascii_digit()
            }
        });
        let alone = |j: Option<&char>| j.is_none_or(|c| !c.is_ascii_digit());
        (shape
            && b.len() == 10
            && alone(i.checked_sub(1).and_then(|j| chars.get(j)))
            && alone(chars.get(i + 10)))
        .then_some(s)
    })
}

/// A string quoted right after one of the phrases ("must start with 'AB'").
fn quoted_after(text: &str, phrases: &[&str]) -> Option<String> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return None;
    }
    for p in phrases {
        let Some(at) = lower.find(p) else {
            continue;
        };
        let rest = text[at + p.len()..].trim_start();
        let mut chars = rest.chars();
        let Some(q) = chars
            .next()
            .filter(|c| matches!(c, '\'' | '"' | '\u{201c}' | '\u{2018}'))
        else {
            continue;
        };
        let close = match q {
            '\u{201c}' => '\u{201d}',
            '\u{2018}' => '\u{2019}',
            c => c,
        };
        let inner: String = chars.take_while(|&c| c != close).collect();
        if !inner.is_empty() {
            return Some(inner);
        }
    }
    None
}

/// The constraints a text about field `f` states (a message after a submission, `value`
/// being what the field held then, or a hint before any).
pub(crate) fn rules_from_text(
    form: &Form,
    refs: &[String],
    f: usize,
    text: &str,
    value: &str,
    today: Option<&str>,
) -> Vec<Constraint> {
    let text = &without_thousands_separators(text);
    let w = feedback::words(text);
    let has = |p: &str| has_phrase(&w, p);
    let any = |ps: &[&str]| ps.iter().any(|p| has(p));
    let field = &form.fields[f];
    let kind = kind_of(field);
    let me = refs[f].as_str();
    let mut out: Vec<Constraint> = Vec::new();

    // Equal to, or different from, another field.
    if !any(&["format", "pattern", "requested"]) {
        let different = any(&[
            "be different",
            "different from",
            "differ from",
            "must differ",
            "should differ",
            "cannot be the same",
            "can't be the same",
            "must not be the same",
            "should not be the same",
            "are the same",
            "is the same",
            "must not match",
            "cannot match",
            "can't match",
            "must not equal",
            "cannot equal",
            "can't equal",
            "not be equal",
            "cannot reuse",
            "can't reuse",
        ]);
        let same = !different
            && any(&[
                "must be the same",
                "should be the same",
                "must be identical",
                "not identical",
                "match",
                "matches",
                "mismatch*",
                "must equal",
                "not the same",
                "aren't the same",
                "are different",
                "is different",
                "differ",
            ]);
        if (different || same)
            && let Some(p) = partner(form, f, text)
        {
            if different {
                out.push(
                    Constraint::new(me, Check::ToBeEqual(Operand::Field(refs[p].clone()))).negate(),
                );
            } else if p < f {
                out.push(Constraint::new(
                    me,
                    Check::ToBeEqual(Operand::Field(refs[p].clone())),
                ));
            } else {
                out.push(Constraint::new(
                    refs[p].clone(),
                    Check::ToBeEqual(Operand::Field(me.to_string())),
                ));
            }
        }
    }

    // Order of dates and times.
    let datey = kind == Kind::Date || any(&["date", "time", "day"]);
    if datey
        && any(&[
            "after", "later", "before", "earlier", "prior", "precede*", "follow*",
        ])
    {
        let op = if any(&[
            "on or after",
            "not before",
            "cannot be before",
            "can't be before",
            "must not be before",
            "no earlier",
            "not be earlier",
        ]) {
            CmpOp::Ge
        } else if any(&[
            "on or before",
            "not after",
            "cannot be after",
            "can't be after",
            "must not be after",
            "no later",
            "not be later",
        ]) {
            CmpOp::Le
        } else if any(&["after", "later", "follow*"]) {
            CmpOp::Gt
        } else {
            CmpOp::Lt
        };
        if let Some(d) = date_literal(text) {
            out.push(Constraint::new(
                me,
                Check::ToHaveCompareCondition(op, Operand::Str(d)),
            ));
        } else if let Some(p) = partner(form, f, text).filter(|&p| kind_of(&form.fields[p]) == kind)
        {
            out.push(Constraint::new(
                me,
                Check::ToHaveCompareCondition(op, Operand::Field(refs[p].clone())),
            ));
        }
    }
    if datey && any(&["future", "past", "today"]) && out.is_empty() {
        // "cannot be in the past", "must be a future date", "can't be in the future".
        let denies = any(&[
            "cannot",
            "can't",
            "must not",
            "should not",
            "not be",
            "not in",
            "no",
        ]);
        let op = match (has("future"), has("past") || has("today"), denies) {
            (true, false, false) => Some(CmpOp::Gt),
            (true, false, true) => Some(CmpOp::Le),
            (false, true, false) if has("past") => Some(CmpOp::Lt),
            (false, true, true) => Some(CmpOp::Ge),
            _ => None,
        };
        match (op, today) {
            (Some(op), Some(day)) => out.push(Constraint::new(
                me,
                Check::ToHaveCompareCondition(op, Operand::Str(day.to_string())),
            )),
            _ => out.push(Constraint::new(me, Check::FreeText(collapse(text)))),
        }
    }

    // Bounds from numbers: of the length, or of the value.
    if kind != Kind::Date && kind != Kind::Choice && kind != Kind::Check {
        let unit = any(&[
            "character*",
            "char",
            "chars",
            "long",
            "length",
            "short",
            "letters",
            "digits",
        ]);
        // A field that takes numbers (by its keyboard, or the number it was given)
        // bounds its value, unless the text counts characters.
        let numeric = matches!(field.inputmode.as_deref(), Some("numeric" | "decimal"))
            || value.trim().parse::<f64>().is_ok();
        let valued = kind == Kind::Number
            || (!unit && numeric)
            || (!unit
                && any(&[
                    "value",
                    "age",
                    "old",
                    "years",
                    "amount",
                    "greater",
                    "older",
                    "younger",
                    "price",
                    "quantity",
                    "number between",
                ]));
        let found = bounds(&w);
        for (op, n) in &found {
            if valued {
                out.push(Constraint::new(
                    me,
                    Check::ToHaveCompareCondition(*op, Operand::Number(*n)),
                ));
            } else if *n >= 0.0 {
                out.push(Constraint::new(
                    me,
                    Check::ToHaveLengthCondition(*op, n.round() as usize),
                ));
            }
        }
        if found.is_empty() {
            let len = value.chars().count();
            let num: Option<f64> = value.trim().parse().ok();
            if has("too short") {
                out.push(Constraint::new(
                    me,
                    Check::ToHaveLengthCondition(CmpOp::Gt, len),
                ));
            } else if has("too long") && len > 0 {
                out.push(Constraint::new(
                    me,
                    Check::ToHaveLengthCondition(CmpOp::Lt, len),
                ));
            } else if let Some(x) = num.filter(|_| kind == Kind::Number) {
                if any(&["too small", "too low", "too few"]) {
                    out.push(Constraint::new(
                        me,
                        Check::ToHaveCompareCondition(CmpOp::Gt, Operand::Number(x)),
                    ));
                } else if any(&["too large", "too high", "too big", "too many"]) {
                    out.push(Constraint::new(
                        me,
                        Check::ToHaveCompareCondition(CmpOp::Lt, Operand::Number(x)),
                    ));
                }
            }
        }
    }

    // Character classes.
    if kind == Kind::Text {
        let not = (has("no") && any(&["allowed", "permitted"]))
            || any(&[
                "not contain",
                "cannot contain",
                "can't contain",
                "must not contain",
                "should not contain",
                "not allowed",
                "are not allowed",
                "aren't allowed",
                "not permitted",
                "must not include",
                "cannot include",
                "can't include",
                "must not have",
                "cannot have",
                "can't have",
                "should not have",
            ]);
        let push_class = |out: &mut Vec<Constraint>, check: Check, negated: bool| {
            let c = Constraint::new(me, check);
            out.push(if negated { c.negate() } else { c });
        };
        if any(&["uppercase", "upper case", "capital*"]) {
            push_class(
                &mut out,
                Check::ToContainUpperCaseChars,
                not && !has("at least"),
            );
        }
        if any(&["special", "symbol*", "punctuation"]) {
            push_class(
                &mut out,
                Check::ToContainSpecialChars,
                not && !has("at least"),
            );
        }
        if any(&["space", "spaces", "whitespace", "white space"]) {
            push_class(&mut out, Check::ToContainWhiteSpace, not);
        }
        let contains = any(&[
            "contain*", "include*", "at least", "have", "has", "with", "one",
        ]);
        if any(&[
            "alphanumeric",
            "letters and numbers",
            "letters and digits",
            "letters or numbers",
            "letters or digits",
            "numbers and letters",
        ]) {
            push_class(&mut out, Check::ToBeAlphaNumerical, false);
        } else if any(&[
            "letters only",
            "only letters",
            "alphabetic*",
            "only contain letters",
            "only alphabet*",
        ]) {
            push_class(&mut out, Check::ToBeAlphabetical, false);
        } else if any(&["number*", "digit*", "numeral*"]) && contains && !not {
            // "must contain a number": no template says so.
            out.push(Constraint::new(me, Check::FreeText(collapse(text))));
        } else if any(&[
            "numbers only",
            "only numbers",
            "digits only",
            "only digits",
            "numeric",
            "numerical",
            "a number",
            "whole number",
            "only contain numbers",
            "only contain digits",
        ]) {
            push_class(&mut out, Check::ToBeNumerical, false);
        }
        if text.contains('@')
            && any(&[
                "include*", "contain*", "missing", "need*", "must", "require*",
            ])
        {
            out.push(Constraint::new(me, Check::ToContainChar('@')));
        }
        if let Some(s) = quoted_after(
            text,
            &["start with", "starts with", "begin with", "begins with"],
        ) {
            out.push(Constraint::new(me, Check::ToStartWithString(s)));
        }
        if let Some(s) = quoted_after(text, &["end with", "ends with"]) {
            out.push(Constraint::new(me, Check::ToEndWithString(s)));
        }
    }

    if out.is_empty() {
        let asks = any(&[
            "required",
            "blank",
            "empty",
            "fill out",
            "fill in",
            "missing",
            "please enter",
            "please select",
            "please choose",
            "please provide",
            "please check",
            "must accept",
            "must agree",
            "accept the",
            "agree to",
            "select one",
            "select an",
            "select a",
            "choose one",
            "choose a",
            "enter your",
            "enter a",
            "mandatory",
            "this field",
            "provide",
        ]);
        let judges = any(&[
            "valid",
            "invalid",
            "format",
            "not a",
            "not an",
            "doesn't look",
            "does not look",
            "isn't",
            "incorrect",
            "wrong",
            "unrecognized",
            "not recognized",
        ]);
        let nothing = value.trim().is_empty() || (kind == Kind::Check && value == "false");
        if nothing || (asks && !judges) {
            out.push(required(field, me));
        } else {
            out.push(Constraint::new(me, Check::FreeText(collapse(text))));
        }
    }
    let mut unique: Vec<Constraint> = Vec::new();
    for c in out {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    unique
}
