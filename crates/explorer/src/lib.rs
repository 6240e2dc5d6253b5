//! Pure curiosity-driven exploration: the learner of WebExplor (Zheng et al., ICSE 2021,
//! `shared/papers/webexplor.txt`), with switchable improvements of Curio's own.
//!
//! The crate does no I/O, knows no browser and no async runtime. The runner calls it once
//! per step:
//!
//! 1. [`Learner::choose`] picks one of the actions available in the current state
//!    (Gumbel-softmax over Q-values), and records which actions the state offers;
//! 2. after the runner performed it and mapped the resulting page to a state,
//!    [`Learner::observe`] computes the curiosity reward `1/sqrt(N(s,a,s'))`, updates
//!    `Q(s,a) <- r + gamma * max_a' Q(s',a')` and the transition graph (the paper's DFA);
//! 3. when no new state was found for [`LearnerConfig::stuck_after`] steps,
//!    [`Learner::is_stuck`] says so and [`Learner::plan_jump`] returns a path from the start
//!    page to the most curious transition, to replay before exploring on from there.
//!
//! [`Learner::shortest_path`] gives the shortest known trace from the start page to any
//! state, which the runner uses to attach a short reproduction to each finding.
//!
//! # Identifiers
//!
//! States are [`StateId`]s chosen by the caller (dense, in creation order, but any `u32`
//! works). Actions are string keys, stable across visits of a state; they are interned to
//! `u32` ids internally, so each distinct key is stored once however many states offer it.
//!
//! # Determinism
//!
//! Given the seed and the same sequence of calls, every answer is the same: the only
//! randomness is a [`ChaCha8Rng`] drawn from in [`Learner::choose`] (exactly one Gumbel
//! draw per offered action, whatever the Q-values), hash maps are used for lookups only
//! and never iterated, and all tie-breaks are spelled out on the methods that make them.
//!
//! # Memory
//!
//! Per known state: about 100 bytes of fixed overhead (the record and its index entry),
//! plus 4 bytes per action offered on the last visit, 16 bytes per action ever tried
//! there, and 12 bytes per distinct outgoing transition. A state with 100 actions, all
//! tried once, each leading to one state, takes about 3.3 KB; 5 000 such states about
//! 16 MB. Action keys are stored once each in the interner.
//!
//! # No panics
//!
//! No method panics on any input: unknown states and actions behave as if they had no
//! recorded actions and had never been tried; odd configuration values (zero or negative
//! temperature, NaN) have documented fallbacks.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A state of the app under test, as numbered by the caller's state table.
pub type StateId = u32;

/// Interned action key.
type ActionId = u32;
/// Dense internal index of a state in [`Learner::states`].
type Node = u32;

/// The learner's parameters. Each field says whether it is the paper's (WebExplor, or the
/// public re-implementations summarised in `shared/papers/NOTES.md`) or Curio's addition.
///
/// [`LearnerConfig::webexplor`] is the paper-faithful setting; [`LearnerConfig::curious`]
/// (also the [`Default`]) is Curio's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearnerConfig {
    /// Discount of the Q update `Q(s,a) <- r + gamma * max_a' Q(s',a')` (the paper uses no
    /// learning-rate blend; NOTES: gamma 0.9 to 0.95). Default 0.9 in both settings.
    pub gamma: f64,
    /// Temperature of the Gumbel-softmax choice `argmax_a (Q(s,a)/tau + g_a)`. Paper:
    /// `tau = 1`, the default in both settings. `tau <= 0` or NaN means greedy (highest Q,
    /// ties broken by the Gumbel noise); `+inf` means uniform.
    pub tau: f64,
    /// Q-value of an action never tried in its state. The paper does not say; the
    /// paper-faithful setting uses 1.0, the reward of a first visit of a transition, so an
    /// untried action is as attractive as a fresh transition. Curio uses an optimistic
    /// 1/(1 - gamma) = 10.0 (with gamma 0.9): the highest value a chain of first visits
    /// could ever be worth, so untried actions are strongly favoured, and the values of
    /// actions leading to states that still have untried actions stay high (directed
    /// exploration, as in R-max). Curio's addition.
    pub initial_q: f64,
    /// Steps without a new state after which the learner is stuck and should plan a jump
    /// through the transition graph. The paper uses a time budget (one re-implementation:
    /// 120 s); we count steps so runs are reproducible: 40 in the paper-faithful setting
    /// (about 120 s at 3 s a step). Curio uses 20: its jumps aim at untried actions
    /// ([`LearnerConfig::plan_to_untried`]), so they pay off sooner (on the chain
    /// simulation of `tests/chain.rs`, 20 instead of 40 cuts the steps to the deepest state
    /// by a third). 0 means never stuck (the paper's "WebExplor (no DFA)" ablation).
    pub stuck_after: u32,
    /// Weight of the reward bonus for elements that appeared since the last step:
    /// `r = 1/sqrt(N) * (1 + new_element_weight * n/(n + new_element_saturation))` with `n`
    /// the number of new elements. 0.0 = off (paper). Curio: 0.5, so a step that reveals
    /// many new elements is worth up to 1.5 times a plain one. Curio's addition, after
    /// WebQT (NOTES: rewarding newly appeared elements).
    pub new_element_weight: f64,
    /// The `k` of the saturating bonus `n/(n + k)` above: half the bonus is reached at `k`
    /// new elements. Default 3.0 (3 new elements give half, 12 give 80 %). A value `<= 0`
    /// (or NaN) gives the full bonus for any `n > 0`. Curio's addition.
    pub new_element_saturation: f64,
    /// How [`Learner::plan_jump`] picks its target. `false` = paper: the transition of the
    /// graph with the highest curiosity `1/sqrt(N)` (least taken). `true`: a state that
    /// still has never-tried actions counts as infinitely curious and is preferred, the
    /// closest one first; the least-taken transition only when no such state is
    /// reachable. Curio's addition.
    pub plan_to_untried: bool,
    /// The value given to an action that left the app's scope, see
    /// [`Learner::observe_off_scope`]. One public re-implementation gives -9999 (NOTES),
    /// which, with `tau = 1`, means the action is never chosen again. Default -9999 in
    /// both settings.
    pub off_scope_reward: f64,
    /// What `max_a' Q(s', a')` is for a state `s'` the learner has never chosen in (no
    /// actions recorded), typically the brand-new state of a first visit, since the runner
    /// observes a transition before choosing in its target. `false` (paper-faithful
    /// setting; the paper does not say): 0, so a first step into a new page is worth only its reward,
    /// less than a self-loop in a known state (`1 + gamma * initial_q`), which biases
    /// the learner *against* novelty. `true`: `initial_q`, as if the unknown state offered
    /// one untried action. Either way, a state recorded with no actions (a dead end) is
    /// worth 0. Curio's addition.
    pub optimistic_new_states: bool,
    /// Whether an untried action's optimism fades with how often the same action (same
    /// key) was taken in other states: `initial_q / sqrt(1 + T(a))`, `T(a)` counting every
    /// transition taken with `a` anywhere. A navigation bar's "Home" link, untried on a new
    /// page but taken on ten others, is no longer worth a brand-new button; and
    /// [`Learner::plan_jump`] aims first at states offering an action never taken anywhere.
    /// `false` = paper (every untried action is worth `initial_q`). Curio's addition.
    pub global_novelty: bool,
}

impl LearnerConfig {
    /// The paper's learner: no new-element bonus, jumps to the least-taken transition,
    /// untried actions valued like a first visit (1.0).
    pub fn webexplor() -> Self {
        LearnerConfig {
            gamma: 0.9,
            tau: 1.0,
            initial_q: 1.0,
            stuck_after: 40,
            new_element_weight: 0.0,
            new_element_saturation: 3.0,
            plan_to_untried: false,
            off_scope_reward: -9999.0,
            optimistic_new_states: false,
            global_novelty: false,
        }
    }

    /// Curio's defaults: the paper's learner plus optimistic values for untried actions
    /// (`1/(1 - gamma)`) and for states not chosen in yet, a bonus for newly appeared
    /// elements (0.5), and earlier jumps (after 20 steps) to the closest state with untried
    /// actions.
    pub fn curious() -> Self {
        let base = Self::webexplor();
        LearnerConfig {
            initial_q: 1.0 / (1.0 - base.gamma),
            new_element_weight: 0.5,
            stuck_after: 20,
            plan_to_untried: true,
            optimistic_new_states: true,
            global_novelty: true,
            ..base
        }
    }
}

impl Default for LearnerConfig {
    /// [`LearnerConfig::curious`].
    fn default() -> Self {
        Self::curious()
    }
}

/// One transition of the graph: performing `action` in `from` led to `to`, `count` times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    pub from: StateId,
    pub action: String,
    pub to: StateId,
    /// How often this transition was taken, `N(from, action, to)`.
    pub count: u32,
}

/// Why [`Learner::plan_jump`] chose its target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TargetKind {
    /// The action has never been tried in the state ([`LearnerConfig::plan_to_untried`]).
    Untried,
    /// The least-taken transition of the graph (the paper's highest curiosity): last time
    /// the action led to `to`, and the transition was taken `count` times.
    LeastVisited { to: StateId, count: u32 },
}

/// What to do at the end of a [`Plan`]'s path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// The state the path ends in (where `action` is to be performed).
    pub state: StateId,
    /// The action to perform there.
    pub action: String,
    pub kind: TargetKind,
}

/// A jump planned when stuck: from the start page, replay `path` (each edge's action in
/// turn; the caller should give up the plan when a step lands elsewhere than the edge's
/// `to`), then perform the target action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Plan {
    /// Edges from the start state to `target.state`; empty if the target is in the start
    /// state.
    pub path: Vec<Edge>,
    pub target: Target,
}

/// Size of the transition graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GraphStats {
    /// States known to the learner (seen by `choose`, `observe` or `episode_start`).
    pub states: usize,
    /// Distinct transitions `(from, action, to)`.
    pub edges: usize,
    /// Calls of [`Learner::observe`], i.e. the sum of all transition counts.
    pub transitions_taken: u64,
    /// Calls of [`Learner::episode_start`].
    pub episodes: u64,
}

/// An action tried in a state: its Q-value and how often it was performed there.
#[derive(Clone, Copy, Debug)]
struct Tried {
    action: ActionId,
    /// Times performed in this state, over all outcomes (including off-scope ones).
    n: u32,
    q: f64,
}

/// An outgoing transition of a state.
#[derive(Clone, Copy, Debug)]
struct OutEdge {
    action: ActionId,
    to: Node,
    count: u32,
}

#[derive(Clone, Debug)]
struct StateData {
    id: StateId,
    /// Actions offered on the last `choose` in this state, in page order.
    available: Vec<ActionId>,
    /// Novelty group ([`Learner::set_group`]); 0 unless set.
    group: u32,
    /// Whether `choose` was ever called in this state.
    recorded: bool,
    /// Sorted by action.
    tried: Vec<Tried>,
    /// Sorted by (action, to).
    out: Vec<OutEdge>,
}

impl StateData {
    fn tried(&self, action: ActionId) -> Option<&Tried> {
        self.tried
            .binary_search_by_key(&action, |t| t.action)
            .ok()
            .map(|i| &self.tried[i])
    }

    /// Actions offered on the last visit that were never tried, in page order.
    fn untried(&self) -> impl Iterator<Item = ActionId> + '_ {
        self.available
            .iter()
            .copied()
            .filter(|&a| self.tried(a).is_none())
    }
}

/// Cost of a path in the graph: hops first, then the unreliability of its edges (per
/// mille: the share of the times an edge's action was performed in its source state that
/// it went elsewhere), then nothing: equal costs are broken by the order of exploration.
type Cost = (u32, u64);

/// Order of the paper's jump targets: (count, path cost to the source, source id,
/// action key, target id), lowest first.
type LeastVisitedKey<'a> = (u32, Cost, StateId, &'a str, StateId);

/// Result of a Dijkstra run: per node, its cost and predecessor (node, index in `out`).
struct Tree {
    cost: Vec<Option<Cost>>,
    pred: Vec<Option<(Node, usize)>>,
}

/// The WebExplor learner: Q-table, transition graph, stuck detection and jump planning.
#[derive(Clone, Debug)]
pub struct Learner {
    config: LearnerConfig,
    rng: ChaCha8Rng,
    /// Interner; a lookup table only, never iterated.
    action_ids: HashMap<Box<str>, ActionId>,
    action_names: Vec<Box<str>>,
    /// Per (novelty group, action id): transitions taken with it, in any state of the
    /// group; a lookup table only, never iterated.
    taken: HashMap<(u32, ActionId), u32>,
    /// Caller's state id -> node; a lookup table only, never iterated.
    nodes: HashMap<StateId, Node>,
    states: Vec<StateData>,
    steps_without_new: u32,
    edges: usize,
    transitions: u64,
    episodes: u64,
}

impl Learner {
    /// A learner with no knowledge, its choices drawn from a ChaCha8 stream seeded with
    /// `seed`.
    pub fn new(config: LearnerConfig, seed: u64) -> Self {
        Learner {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            action_ids: HashMap::new(),
            action_names: Vec::new(),
            taken: HashMap::new(),
            nodes: HashMap::new(),
            states: Vec::new(),
            steps_without_new: 0,
            edges: 0,
            transitions: 0,
            episodes: 0,
        }
    }

    /// The configuration the learner was made with.
    pub fn config(&self) -> &LearnerConfig {
        &self.config
    }

    /// Chooses among the actions available in `state` (keys in page order) and returns the
    /// chosen index; `None` when `actions` is empty.
    ///
    /// Gumbel-softmax as in the paper: `argmax_a (Q(s,a)/tau + g_a)` with `g_a ~ Gumbel(0,1)`
    /// i.i.d., which picks `a` with probability `softmax(Q/tau)_a`. Untried actions count
    /// as [`LearnerConfig::initial_q`]. Exactly one draw per action is taken from the RNG.
    /// Equal scores go to the first in page order.
    ///
    /// Also records `actions` as what `state` offers (replacing the previous visit's list),
    /// which [`Learner::observe`] maximises over and [`LearnerConfig::plan_to_untried`]
    /// looks for untried actions in.
    pub fn choose(&mut self, state: StateId, actions: &[String]) -> Option<usize> {
        self.choose_weighted(state, actions, &[])
    }

    /// [`Learner::choose`] with a prior over the actions: `weights[i]` (> 0; missing
    /// ones count as 1) multiplies action `i`'s softmax weight, so the choice is
    /// `argmax_a (Q(s,a)/tau + ln w_a + g_a)`, which picks `a` with probability
    /// proportional to `w_a * exp(Q(s,a)/tau)`. Greedy choice (`tau <= 0`) ignores the
    /// weights. The same RNG draws as [`Learner::choose`].
    pub fn choose_weighted(
        &mut self,
        state: StateId,
        actions: &[String],
        weights: &[f64],
    ) -> Option<usize> {
        let node = self.node(state);
        let mut available = std::mem::take(&mut self.states[node as usize].available);
        available.clear();
        for a in actions {
            available.push(self.intern(a));
        }
        self.states[node as usize].available = available;
        self.states[node as usize].recorded = true;

        let tau = self.config.tau;
        let soft = tau > 0.0;
        let data = &self.states[node as usize];
        let mut best: Option<(usize, f64, f64)> = None;
        for (i, &a) in data.available.iter().enumerate() {
            let q = data
                .tried(a)
                .map_or_else(|| self.untried_q(data.group, a), |t| t.q);
            let g = gumbel(&mut self.rng);
            // Softmax: score Q/tau + g. Greedy (tau <= 0 or NaN): Q, ties by g.
            let prior = weights.get(i).map_or(0.0, |w| w.ln());
            let (primary, secondary) = if soft {
                (q / tau + prior + g, 0.0)
            } else {
                (q, g)
            };
            let primary = if primary.is_nan() {
                f64::NEG_INFINITY
            } else {
                primary
            };
            let better = match best {
                None => true,
                Some((_, p, s)) => {
                    primary.total_cmp(&p).then(secondary.total_cmp(&s)) == Ordering::Greater
                }
            };
            if better {
                best = Some((i, primary, secondary));
            }
        }
        best.map(|(i, _, _)| i)
    }

    /// Learns from performing `action` in `from` and landing in `to`; returns the reward.
    ///
    /// - `N(from, action, to)` is incremented and the reward is the paper's curiosity
    ///   `r = 1/sqrt(N)`, times `1 + new_element_weight * n/(n + new_element_saturation)`
    ///   with `n = new_elements`, the elements that appeared since the last step (Curio's
    ///   bonus; off with weight 0).
    /// - `Q(from, action) <- r + gamma * max_a' Q(to, a')`, the max over the actions last
    ///   recorded for `to` by [`Learner::choose`] (untried ones count as `initial_q`); 0 if
    ///   `to` was recorded with no actions (a dead end); if `to` was never chosen in yet
    ///   (a new state), 0 or, with [`LearnerConfig::optimistic_new_states`], `initial_q`.
    /// - The transition is added to the graph (or its count updated).
    /// - Stuck detection: `to_is_new` (the caller's state table just created `to`) resets
    ///   the count of steps without a new state, anything else increments it.
    pub fn observe(
        &mut self,
        from: StateId,
        action: &str,
        to: StateId,
        to_is_new: bool,
        new_elements: usize,
    ) -> f64 {
        let a = self.intern(action);
        let f = self.node(from);
        let t = self.node(to);

        let out = &mut self.states[f as usize].out;
        let n = match out.binary_search_by_key(&(a, t), |e| (e.action, e.to)) {
            Ok(i) => {
                out[i].count = out[i].count.saturating_add(1);
                out[i].count
            }
            Err(i) => {
                out.insert(
                    i,
                    OutEdge {
                        action: a,
                        to: t,
                        count: 1,
                    },
                );
                self.edges += 1;
                1
            }
        };
        let r = self.reward(n, new_elements);

        let to_data = &self.states[t as usize];
        let max_next = if !to_data.recorded {
            if self.config.optimistic_new_states {
                self.config.initial_q
            } else {
                0.0
            }
        } else {
            to_data
                .available
                .iter()
                .map(|&b| {
                    to_data
                        .tried(b)
                        .map_or_else(|| self.untried_q(to_data.group, b), |x| x.q)
                })
                .fold(None, |m: Option<f64>, q| {
                    Some(match m {
                        Some(m) if m >= q => m,
                        _ => q,
                    })
                })
                .unwrap_or(0.0)
        };
        let q = r + self.config.gamma * max_next;
        self.set_q(f, a, q);

        self.transitions += 1;
        self.steps_without_new = if to_is_new {
            0
        } else {
            self.steps_without_new.saturating_add(1)
        };
        r
    }

    /// Learns that performing `action` in `from` left the app's scope (the runner ends the
    /// episode): `Q(from, action) <- off_scope_reward`, a terminal value with no successor
    /// (NOTES: one re-implementation gives -9999). No transition is added to the graph; the
    /// step counts as one without a new state. Returns the reward.
    pub fn observe_off_scope(&mut self, from: StateId, action: &str) -> f64 {
        let a = self.intern(action);
        let f = self.node(from);
        let r = self.config.off_scope_reward;
        self.set_q(f, a, r);
        self.steps_without_new = self.steps_without_new.saturating_add(1);
        r
    }

    /// Marks that an episode began at `start`, the start page's state. Only counted (and
    /// `start` made known): the stuck count is not reset by episodes, since a reset is not
    /// progress.
    pub fn episode_start(&mut self, start: StateId) {
        self.node(start);
        self.episodes += 1;
    }

    /// Puts `state` in novelty group `group` (all states start in group 0). With
    /// [`LearnerConfig::global_novelty`], an untried action's optimism fades with how often
    /// it was taken in states of the same group only: the caller groups states by
    /// something that changes what every page does (a setting the browser keeps), so
    /// that under a setting never met before the app is worth exploring again, its
    /// navigation included.
    pub fn set_group(&mut self, state: StateId, group: u32) {
        let node = self.node(state);
        self.states[node as usize].group = group;
    }

    /// Whether [`LearnerConfig::stuck_after`] steps (`observe` or `observe_off_scope` calls)
    /// went by without a new state. Never, with `stuck_after == 0`.
    pub fn is_stuck(&self) -> bool {
        self.config.stuck_after > 0 && self.steps_without_new >= self.config.stuck_after
    }

    /// Steps since the last new state (or since the last plan).
    pub fn steps_without_new_state(&self) -> u32 {
        self.steps_without_new
    }

    /// Plans a jump (meant for when [`Learner::is_stuck`]): the target and the shortest
    /// known path to it from `start`. Always resets the stuck count. `None` when `start` is
    /// unknown or no target is reachable from it.
    ///
    /// Target, among the states reachable from `start` in the graph:
    /// - with [`LearnerConfig::plan_to_untried`]: the closest state (by the path cost of
    ///   [`Learner::shortest_path`], then lowest state id) that offered, on its last visit,
    ///   an action never tried there; the target action is its first such action in page
    ///   order;
    /// - otherwise, or if there is none: the paper's transition with the highest curiosity
    ///   `1/sqrt(N)`, i.e. the lowest count; ties go to the closest source state, then
    ///   the lowest source id, the lowest action key (byte order), the lowest `to` id.
    ///
    /// The path is [`Learner::shortest_path`] to the target's state.
    pub fn plan_jump(&mut self, start: StateId) -> Option<Plan> {
        self.steps_without_new = 0;
        let &s = self.nodes.get(&start)?;
        let tree = self.dijkstra(s, None);

        if self.config.plan_to_untried {
            // With global novelty, an action never taken anywhere beats one merely
            // untried in its state: (fresh first, then cost, then state id).
            let mut best: Option<(bool, Cost, StateId, Node, ActionId)> = None;
            for (node, cost) in tree.cost.iter().enumerate() {
                let Some(cost) = *cost else { continue };
                let data = &self.states[node];
                let fresh = self
                    .config
                    .global_novelty
                    .then(|| data.untried().find(|&a| self.never_taken(data.group, a)))
                    .flatten();
                let Some(a) = fresh.or_else(|| data.untried().next()) else {
                    continue;
                };
                let key = (fresh.is_none(), cost, data.id);
                if best.is_none_or(|(f, c, id, _, _)| key < (f, c, id)) {
                    best = Some((fresh.is_none(), cost, data.id, node as Node, a));
                }
            }
            let best = best.map(|(_, c, id, n, a)| (c, id, n, a));
            if let Some((_, id, node, a)) = best {
                return Some(Plan {
                    path: self.path_to(&tree, node),
                    target: Target {
                        state: id,
                        action: self.name(a).to_owned(),
                        kind: TargetKind::Untried,
                    },
                });
            }
        }

        let mut best: Option<(LeastVisitedKey<'_>, Node)> = None;
        for (node, cost) in tree.cost.iter().enumerate() {
            let Some(cost) = *cost else { continue };
            let data = &self.states[node];
            for e in &data.out {
                let key = (
                    e.count,
                    cost,
                    data.id,
                    self.name(e.action),
                    self.states[e.to as usize].id,
                );
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, node as Node));
                }
            }
        }
        let ((count, _, id, action, to), node) = best?;
        Some(Plan {
            path: self.path_to(&tree, node),
            target: Target {
                state: id,
                action: action.to_owned(),
                kind: TargetKind::LeastVisited { to, count },
            },
        })
    }

    /// The shortest known path of edges from `start` to `state`: Dijkstra over the graph,
    /// fewest edges first; among paths of equal length, the most reliable one (each edge
    /// costs, in second place, the share of the times its action was performed in its
    /// source state that it led elsewhere). Remaining ties: states are settled in order of
    /// cost then state id, their edges relaxed in the order their action keys were first
    /// seen by the learner, then by target, and a state keeps the first predecessor that
    /// reached it at its lowest cost.
    ///
    /// `Some(vec![])` when `start == state`; `None` when `state` is unreachable or unknown.
    pub fn shortest_path(&self, start: StateId, state: StateId) -> Option<Vec<Edge>> {
        if start == state {
            return Some(Vec::new());
        }
        let &s = self.nodes.get(&start)?;
        let &t = self.nodes.get(&state)?;
        let tree = self.dijkstra(s, Some(t));
        tree.cost[t as usize]?;
        Some(self.path_to(&tree, t))
    }

    /// `Q(state, action)`; [`LearnerConfig::initial_q`] if the action was never tried there
    /// (or either is unknown).
    pub fn q(&self, state: StateId, action: &str) -> f64 {
        self.lookup(state, action)
            .and_then(|(n, a)| self.states[n as usize].tried(a))
            .map_or(self.config.initial_q, |t| t.q)
    }

    /// `N(from, action, to)`: how often performing `action` in `from` led to `to`.
    pub fn visits(&self, from: StateId, action: &str, to: StateId) -> u32 {
        let Some((f, a)) = self.lookup(from, action) else {
            return 0;
        };
        let Some(&t) = self.nodes.get(&to) else {
            return 0;
        };
        let out = &self.states[f as usize].out;
        out.binary_search_by_key(&(a, t), |e| (e.action, e.to))
            .map_or(0, |i| out[i].count)
    }

    /// The actions `state` offered on its last recorded visit that were never tried there,
    /// in page order (empty for an unknown state).
    pub fn untried_actions(&self, state: StateId) -> Vec<&str> {
        self.nodes.get(&state).map_or_else(Vec::new, |&n| {
            self.states[n as usize]
                .untried()
                .map(|a| self.name(a))
                .collect()
        })
    }

    /// Size of the transition graph.
    pub fn graph_stats(&self) -> GraphStats {
        GraphStats {
            states: self.states.len(),
            edges: self.edges,
            transitions_taken: self.transitions,
            episodes: self.episodes,
        }
    }

    /// The paper's curiosity with Curio's optional new-element bonus.
    fn reward(&self, n: u32, new_elements: usize) -> f64 {
        let curiosity = 1.0 / f64::from(n.max(1)).sqrt();
        let w = self.config.new_element_weight;
        if w == 0.0 || new_elements == 0 {
            return curiosity;
        }
        let n = new_elements as f64;
        let k = self.config.new_element_saturation;
        let f = if k > 0.0 { n / (n + k) } else { 1.0 };
        curiosity * (1.0 + w * f)
    }

    /// The value of `action` in a state of novelty group `group` where it was never
    /// tried: `initial_q`, faded by how often it was taken elsewhere in the group with
    /// [`LearnerConfig::global_novelty`].
    fn untried_q(&self, group: u32, action: ActionId) -> f64 {
        if !self.config.global_novelty {
            return self.config.initial_q;
        }
        let t = self.taken.get(&(group, action)).copied().unwrap_or(0);
        self.config.initial_q / (1.0 + f64::from(t)).sqrt()
    }

    /// Whether `action` was never taken in any state of novelty group `group`.
    fn never_taken(&self, group: u32, action: ActionId) -> bool {
        self.taken.get(&(group, action)).is_none_or(|&t| t == 0)
    }

    fn set_q(&mut self, node: Node, action: ActionId, q: f64) {
        let group = self.states[node as usize].group;
        let t = self.taken.entry((group, action)).or_insert(0);
        *t = t.saturating_add(1);
        let tried = &mut self.states[node as usize].tried;
        match tried.binary_search_by_key(&action, |t| t.action) {
            Ok(i) => {
                tried[i].q = q;
                tried[i].n = tried[i].n.saturating_add(1);
            }
            Err(i) => tried.insert(i, Tried { action, n: 1, q }),
        }
    }

    fn intern(&mut self, action: &str) -> ActionId {
        if let Some(&id) = self.action_ids.get(action) {
            return id;
        }
        let id = self.action_names.len() as ActionId;
        self.action_names.push(action.into());
        self.action_ids.insert(action.into(), id);
        id
    }

    fn name(&self, action: ActionId) -> &str {
        self.action_names
            .get(action as usize)
            .map_or("", |s| s.as_ref())
    }

    fn node(&mut self, state: StateId) -> Node {
        if let Some(&n) = self.nodes.get(&state) {
            return n;
        }
        let n = self.states.len() as Node;
        self.states.push(StateData {
            id: state,
            available: Vec::new(),
            group: 0,
            recorded: false,
            tried: Vec::new(),
            out: Vec::new(),
        });
        self.nodes.insert(state, n);
        n
    }

    fn lookup(&self, state: StateId, action: &str) -> Option<(Node, ActionId)> {
        Some((*self.nodes.get(&state)?, *self.action_ids.get(action)?))
    }

    /// Dijkstra from `start` with the lexicographic [`Cost`]; stops early once `stop` is
    /// settled.
    fn dijkstra(&self, start: Node, stop: Option<Node>) -> Tree {
        let len = self.states.len();
        let mut tree = Tree {
            cost: vec![None; len],
            pred: vec![None; len],
        };
        let mut settled = vec![false; len];
        let mut heap = BinaryHeap::new();
        tree.cost[start as usize] = Some((0, 0));
        heap.push(Reverse((
            (0u32, 0u64),
            self.states[start as usize].id,
            start,
        )));
        while let Some(Reverse((cost, _, node))) = heap.pop() {
            let u = node as usize;
            if settled[u] {
                continue;
            }
            settled[u] = true;
            if stop == Some(node) {
                break;
            }
            let data = &self.states[u];
            for (i, e) in data.out.iter().enumerate() {
                let v = e.to as usize;
                if settled[v] {
                    continue;
                }
                let n = data.tried(e.action).map_or(e.count, |t| t.n.max(e.count));
                let unreliability = u64::from(n - e.count) * 1000 / u64::from(n.max(1));
                let c = (
                    cost.0.saturating_add(1),
                    cost.1.saturating_add(unreliability),
                );
                if tree.cost[v].is_none_or(|old| c < old) {
                    tree.cost[v] = Some(c);
                    tree.pred[v] = Some((node, i));
                    heap.push(Reverse((c, self.states[v].id, e.to)));
                }
            }
        }
        tree
    }

    /// The edges from the tree's root to `target` (empty if unreachable or the root).
    fn path_to(&self, tree: &Tree, target: Node) -> Vec<Edge> {
        let mut path = Vec::new();
        let mut node = target;
        // A tree path has fewer edges than there are states; the bound only guards
        // against a malformed tree.
        while let Some((prev, i)) = tree.pred[node as usize] {
            if path.len() > self.states.len() {
                break;
            }
            let data = &self.states[prev as usize];
            let e = data.out[i];
            path.push(Edge {
                from: data.id,
                action: self.name(e.action).to_owned(),
                to: self.states[e.to as usize].id,
                count: e.count,
            });
            node = prev;
        }
        path.reverse();
        path
    }
}

/// A draw of the standard Gumbel distribution, `-ln(-ln U)` with `U` uniform in (0, 1).
fn gumbel(rng: &mut ChaCha8Rng) -> f64 {
    loop {
        let u: f64 = rng.random();
        if u > 0.0 {
            return -(-u.ln()).ln();
        }
    }
}

#[cfg(test)]
mod tests;
