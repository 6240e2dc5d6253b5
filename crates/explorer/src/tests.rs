use super::*;

fn keys(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// The paper's config with planning by count only and no stuck detection in the way.
fn paper() -> LearnerConfig {
    LearnerConfig::webexplor()
}

#[test]
fn reward_is_inverse_sqrt_of_transition_count() {
    let mut l = Learner::new(paper(), 1);
    for n in 1..=10u32 {
        let r = l.observe(0, "go", 1, n == 1, 0);
        assert!(close(r, 1.0 / f64::from(n).sqrt()), "n={n} r={r}");
        assert_eq!(l.visits(0, "go", 1), n);
    }
    // Another outcome of the same action is its own transition.
    assert!(close(l.observe(0, "go", 2, true, 0), 1.0));
    assert_eq!(l.visits(0, "go", 2), 1);
    assert_eq!(l.visits(0, "go", 1), 10);
    assert_eq!(l.visits(0, "nope", 1), 0);
    assert_eq!(l.visits(7, "go", 1), 0);
    let s = l.graph_stats();
    assert_eq!((s.states, s.edges, s.transitions_taken), (3, 2, 11));
}

#[test]
fn new_element_bonus_saturates() {
    let config = LearnerConfig {
        new_element_weight: 0.5,
        new_element_saturation: 3.0,
        ..paper()
    };
    let mut l = Learner::new(config, 1);
    // n = 3: f = 1/2, bonus factor 1.25.
    assert!(close(l.observe(0, "a", 1, true, 3), 1.25));
    // Second time, 1/sqrt(2) * (1 + 0.5 * 9/12).
    assert!(close(
        l.observe(0, "a", 1, false, 9),
        (1.0 + 0.5 * 0.75) / 2f64.sqrt()
    ));
    // No new elements, no bonus.
    assert!(close(l.observe(0, "b", 1, false, 0), 1.0));
    // Huge counts approach, never exceed, 1 + weight.
    let r = l.observe(0, "c", 1, false, usize::MAX);
    assert!(r <= 1.5 && r > 1.49);
    // Paper: weight 0 ignores new elements.
    let mut p = Learner::new(paper(), 1);
    assert!(close(p.observe(0, "a", 1, true, 50), 1.0));
}

/// Hand-worked example, gamma 0.9, initial_q 1.0:
///
/// ```text
/// states 0, 1, 2; recorded actions: 0: [x, y], 1: [u, v], 2: [] (none recorded)
/// 1. observe(1, u, 2)  N=1 r=1     Q(1,u) = 1 + 0.9*0              = 1
/// 2. observe(0, x, 1)  N=1 r=1     Q(0,x) = 1 + 0.9*max(1, 1)      = 1.9
///                                   (Q(1,u)=1, Q(1,v)=initial 1)
/// 3. observe(1, v, 0)  N=1 r=1     Q(1,v) = 1 + 0.9*max(1.9, 1)    = 2.71
/// 4. observe(0, x, 1)  N=2 r=1/√2  Q(0,x) = 1/√2 + 0.9*max(1, 2.71) = 0.7071.. + 2.439
/// 5. observe(0, y, 0)  N=1 r=1     Q(0,y) = 1 + 0.9*max(Q(0,x), 1) (self-loop, old Q(0,y))
/// ```
#[test]
fn q_update_is_exact_on_a_hand_worked_example() {
    let mut l = Learner::new(paper(), 7);
    l.choose(0, &keys(&["x", "y"]));
    l.choose(1, &keys(&["u", "v"]));

    assert!(close(l.observe(1, "u", 2, true, 0), 1.0));
    assert!(close(l.q(1, "u"), 1.0));

    l.observe(0, "x", 1, false, 0);
    assert!(close(l.q(0, "x"), 1.9));

    l.observe(1, "v", 0, false, 0);
    assert!(close(l.q(1, "v"), 2.71));

    let r = l.observe(0, "x", 1, false, 0);
    assert!(close(r, 1.0 / 2f64.sqrt()));
    let q0x = 1.0 / 2f64.sqrt() + 0.9 * 2.71;
    assert!(close(l.q(0, "x"), q0x));

    l.observe(0, "y", 0, false, 0);
    assert!(close(l.q(0, "y"), 1.0 + 0.9 * q0x));

    // Untried and unknown: initial_q.
    assert!(close(l.q(2, "anything"), 1.0));
    assert!(close(l.q(99, "x"), 1.0));
    assert!(close(l.q(0, "never"), 1.0));
}

#[test]
fn gamma_and_initial_q_are_used() {
    let config = LearnerConfig {
        gamma: 0.5,
        initial_q: 4.0,
        ..paper()
    };
    let mut l = Learner::new(config, 0);
    l.choose(1, &keys(&["a"]));
    l.observe(0, "go", 1, true, 0);
    assert!(close(l.q(0, "go"), 1.0 + 0.5 * 4.0));
}

/// A learner where `Q(0, "hi") = 1` and `Q(0, "lo") = 0` exactly: gamma 0 makes Q the
/// reward of a first visit, and an off-scope reward of 0 sets `lo`.
fn hi_lo(tau: f64, seed: u64) -> Learner {
    let config = LearnerConfig {
        gamma: 0.0,
        off_scope_reward: 0.0,
        tau,
        ..paper()
    };
    let mut l = Learner::new(config, seed);
    l.observe(0, "hi", 1, true, 0);
    l.observe_off_scope(0, "lo");
    assert!(close(l.q(0, "hi"), 1.0));
    assert!(close(l.q(0, "lo"), 0.0));
    l
}

#[test]
fn optimistic_new_states_values_unknown_states_at_initial_q() {
    for (optimistic, expected) in [(false, 1.0), (true, 1.0 + 0.9 * 3.0)] {
        let config = LearnerConfig {
            initial_q: 3.0,
            optimistic_new_states: optimistic,
            ..paper()
        };
        let mut l = Learner::new(config, 0);
        // 1 was never chosen in.
        l.observe(0, "new", 1, true, 0);
        assert!(close(l.q(0, "new"), expected), "optimistic {optimistic}");
        // 2 is a dead end: recorded with no actions, worth 0 either way.
        assert_eq!(l.choose(2, &[]), None);
        l.observe(0, "dead", 2, true, 0);
        assert!(close(l.q(0, "dead"), 1.0), "optimistic {optimistic}");
    }
}

#[test]
fn gumbel_choice_follows_softmax() {
    let mut l = hi_lo(1.0, 42);
    let actions = keys(&["hi", "lo"]);
    let draws = 20_000;
    let mut first = 0;
    for _ in 0..draws {
        if l.choose(0, &actions) == Some(0) {
            first += 1;
        }
    }
    let p = f64::from(first) / f64::from(draws);
    let e = std::f64::consts::E;
    let expected = e / (e + 1.0);
    // The standard deviation is about 0.0031; allow 4 of them.
    assert!(
        (p - expected).abs() < 0.0125,
        "p = {p}, expected {expected}"
    );

    // tau 0.5 doubles the gap: e^2 / (e^2 + 1) ~ 0.881.
    let mut l = hi_lo(0.5, 43);
    let first = (0..draws)
        .filter(|_| l.choose(0, &actions) == Some(0))
        .count();
    let p = first as f64 / f64::from(draws);
    let expected = e * e / (e * e + 1.0);
    assert!((p - expected).abs() < 0.01, "p = {p}, expected {expected}");
}

#[test]
fn prior_weights_multiply_the_softmax() {
    // hi is worth 1 more than lo; a weight of 1/e on hi cancels that gap exactly.
    let mut l = hi_lo(1.0, 44);
    let actions = keys(&["hi", "lo"]);
    let e = std::f64::consts::E;
    let draws = 20_000;
    let first = (0..draws)
        .filter(|_| l.choose_weighted(0, &actions, &[1.0 / e, 1.0]) == Some(0))
        .count();
    let p = first as f64 / f64::from(draws);
    assert!((p - 0.5).abs() < 0.0125, "p = {p}, expected 0.5");
    // Weights left out count as 1: the plain softmax.
    let first = (0..draws)
        .filter(|_| l.choose_weighted(0, &actions, &[]) == Some(0))
        .count();
    let p = first as f64 / f64::from(draws);
    let expected = e / (e + 1.0);
    assert!(
        (p - expected).abs() < 0.0125,
        "p = {p}, expected {expected}"
    );
}

#[test]
fn temperature_extremes() {
    let actions = keys(&["lo", "hi"]);
    // tau <= 0 or NaN: greedy.
    for tau in [0.0, -1.0, f64::NAN] {
        let mut l = hi_lo(tau, 3);
        for _ in 0..200 {
            assert_eq!(l.choose(0, &actions), Some(1), "tau {tau}");
        }
    }
    // tau = inf: uniform.
    let mut l = hi_lo(f64::INFINITY, 3);
    let hi = (0..4000)
        .filter(|_| l.choose(0, &actions) == Some(1))
        .count();
    assert!((1800..2200).contains(&hi), "hi chosen {hi} of 4000");
}

#[test]
fn empty_actions_give_none_and_record_nothing_to_try() {
    let mut l = Learner::new(paper(), 0);
    assert_eq!(l.choose(5, &[]), None);
    assert!(l.untried_actions(5).is_empty());
    // A state with no recorded actions is worth 0 downstream.
    l.observe(4, "a", 5, true, 0);
    assert!(close(l.q(4, "a"), 1.0));
}

#[test]
fn same_seed_same_choices_different_seed_different() {
    let actions: Vec<String> = (0..20).map(|i| format!("a{i}")).collect();
    let run = |seed: u64| -> Vec<Option<usize>> {
        let mut l = Learner::new(LearnerConfig::curious(), seed);
        let mut out = Vec::new();
        let mut state = 0;
        for step in 0..300u32 {
            let c = l.choose(state, &actions);
            out.push(c);
            let i = c.unwrap_or(0) as u32;
            let next = (state * 7 + i) % 13;
            l.observe(state, &actions[i as usize], next, step < 13, i as usize % 4);
            state = next;
        }
        out
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
}

#[test]
fn stuck_after_steps_without_new_state() {
    let config = LearnerConfig {
        stuck_after: 5,
        ..paper()
    };
    let mut l = Learner::new(config, 0);
    l.episode_start(0);
    l.observe(0, "a", 1, true, 0);
    for i in 0..4 {
        l.observe(1, "stay", 1, false, 0);
        assert!(!l.is_stuck(), "after {} steps", i + 1);
    }
    // Episodes do not reset the count.
    l.episode_start(0);
    l.observe_off_scope(1, "leave");
    assert!(l.is_stuck());
    assert_eq!(l.steps_without_new_state(), 5);
    // A new state resets it.
    l.observe(1, "b", 2, true, 0);
    assert!(!l.is_stuck());
    for _ in 0..5 {
        l.observe(2, "stay", 2, false, 0);
    }
    assert!(l.is_stuck());
    // Planning resets it, even when nothing is reachable.
    assert!(l.plan_jump(999).is_none());
    assert!(!l.is_stuck());

    // stuck_after 0: never stuck.
    let mut never = Learner::new(
        LearnerConfig {
            stuck_after: 0,
            ..paper()
        },
        0,
    );
    for _ in 0..1000 {
        never.observe(0, "a", 0, false, 0);
    }
    assert!(!never.is_stuck());
}

/// ```text
///   0 --a--> 1 --b--> 2 --c--> 3 --t--> 4      (the target: t taken once)
///   0 --s--> 3                                 (shortcut)
///   every other transition taken several times
/// ```
fn diamond(config: LearnerConfig) -> Learner {
    let mut l = Learner::new(config, 0);
    l.episode_start(0);
    for _ in 0..3 {
        l.observe(0, "a", 1, false, 0);
        l.observe(1, "b", 2, false, 0);
        l.observe(2, "c", 3, false, 0);
        l.observe(0, "s", 3, false, 0);
        l.observe(3, "back", 0, false, 0);
    }
    l.observe(3, "t", 4, true, 0);
    l.observe(4, "home", 0, false, 0);
    l.observe(4, "home", 0, false, 0);
    l
}

#[test]
fn plan_jump_targets_least_visited_transition_by_shortest_path() {
    let mut l = diamond(paper());
    let plan = l.plan_jump(0).expect("a plan");
    assert_eq!(
        plan.target,
        Target {
            state: 3,
            action: "t".into(),
            kind: TargetKind::LeastVisited { to: 4, count: 1 },
        }
    );
    assert_eq!(
        plan.path,
        vec![Edge {
            from: 0,
            action: "s".into(),
            to: 3,
            count: 3
        }]
    );
    // From 1 the only way to 3 is the long one.
    let path = l.shortest_path(1, 3).expect("reachable");
    let steps: Vec<(u32, &str, u32)> = path
        .iter()
        .map(|e| (e.from, e.action.as_str(), e.to))
        .collect();
    assert_eq!(steps, vec![(1, "b", 2), (2, "c", 3)]);
}

#[test]
fn plan_jump_prefers_reachable_sources() {
    let mut l = diamond(paper());
    // A transition taken once, but from a state unreachable from 0.
    l.observe(9, "z", 8, true, 0);
    let plan = l.plan_jump(0).expect("a plan");
    assert_eq!(plan.target.state, 3);
    // From 9 it is the only one reachable.
    let plan = l.plan_jump(9).expect("a plan");
    assert_eq!(plan.target.state, 9);
    assert!(plan.path.is_empty());
    assert!(l.plan_jump(12345).is_none());
}

#[test]
fn plan_to_untried_prefers_a_reachable_state_with_untried_actions() {
    let config = LearnerConfig {
        plan_to_untried: true,
        ..paper()
    };
    let mut l = diamond(config.clone());
    l.choose(0, &keys(&["a", "s"]));
    l.choose(1, &keys(&["b"]));
    l.choose(2, &keys(&["c", "d", "e"])); // d, e untried
    l.choose(3, &keys(&["t", "back"]));
    l.choose(9, &keys(&["far"])); // untried but unreachable
    let plan = l.plan_jump(0).expect("a plan");
    assert_eq!(
        plan.target,
        Target {
            state: 2,
            action: "d".into(),
            kind: TargetKind::Untried
        }
    );
    let steps: Vec<(u32, &str, u32)> = plan
        .path
        .iter()
        .map(|e| (e.from, e.action.as_str(), e.to))
        .collect();
    assert_eq!(steps, vec![(0, "a", 1), (1, "b", 2)]);
    assert_eq!(l.untried_actions(2), vec!["d", "e"]);

    // Closest first: an untried action in 1 wins over the one in 2.
    l.choose(1, &keys(&["b", "new"]));
    let plan = l.plan_jump(0).expect("a plan");
    assert_eq!((plan.target.state, plan.target.action.as_str()), (1, "new"));

    // Once everything reachable is tried, back to the least-visited transition.
    for (s, a, t) in [(1, "new", 1), (2, "d", 2), (2, "e", 2)] {
        l.observe(s, a, t, false, 0);
    }
    let plan = l.plan_jump(0).expect("a plan");
    assert!(matches!(plan.target.kind, TargetKind::LeastVisited { .. }));
}

#[test]
fn shortest_path_unreachable_and_unknown() {
    let l = diamond(paper());
    assert_eq!(l.shortest_path(0, 0), Some(vec![]));
    assert_eq!(l.shortest_path(0, 77), None);
    assert_eq!(l.shortest_path(77, 0), None);
    let mut l = l;
    l.observe(9, "z", 8, true, 0);
    assert_eq!(l.shortest_path(0, 9), None);
    assert_eq!(l.shortest_path(0, 8), None);
    assert!(l.shortest_path(9, 0).is_none());
    assert_eq!(l.shortest_path(9, 8).map(|p| p.len()), Some(1));
}

#[test]
fn shortest_path_prefers_reliable_edges_among_equally_short() {
    let mut l = Learner::new(paper(), 0);
    // Two 2-step routes 0 -> 3: via 1 (p goes to 1 only half the time) and via 2.
    l.observe(0, "p", 1, true, 0);
    l.observe(0, "p", 5, true, 0);
    l.observe(1, "x", 3, true, 0);
    l.observe(0, "q", 2, true, 0);
    l.observe(2, "y", 3, false, 0);
    let path = l.shortest_path(0, 3).expect("reachable");
    assert_eq!(path[0].action, "q");
    // But never a longer path for reliability.
    l.observe(0, "direct", 3, false, 0);
    l.observe(0, "direct", 6, true, 0);
    l.observe(0, "direct", 7, true, 0);
    let path = l.shortest_path(0, 3).expect("reachable");
    assert_eq!(path.len(), 1);
}

#[test]
fn tie_breaks_are_deterministic() {
    // Two equally short, equally reliable routes: the first-seen action wins, whatever
    // the seed; and the least-visited ties go to the lowest action key.
    let build = |seed: u64, order: bool| {
        let mut l = Learner::new(paper(), seed);
        let (first, second) = if order { ("m", "k") } else { ("k", "m") };
        l.observe(0, first, 1, true, 0);
        l.observe(0, second, 2, true, 0);
        l.observe(1, "x", 3, true, 0);
        l.observe(2, "x", 3, false, 0);
        l
    };
    for seed in 0..5 {
        let l = build(seed, true);
        assert_eq!(l.shortest_path(0, 3).expect("path")[0].action, "m");
        let l = build(seed, false);
        assert_eq!(l.shortest_path(0, 3).expect("path")[0].action, "k");
        // All transitions taken once: the closest source (0), then lowest key.
        for order in [true, false] {
            let mut l = build(seed, order);
            let plan = l.plan_jump(0).expect("plan");
            assert_eq!((plan.target.state, plan.target.action.as_str()), (0, "k"));
            assert!(plan.path.is_empty());
        }
    }
    // Same calls, same plans, on a bigger random graph.
    let graph = |seed: u64| {
        let mut l = Learner::new(LearnerConfig::curious(), seed);
        let actions: Vec<String> = (0..6).map(|i| format!("a{i}")).collect();
        let mut s = 0u32;
        let mut plans = Vec::new();
        for step in 0..500u32 {
            let i = l.choose(s, &actions).unwrap_or(0);
            let t = (s * 5 + i as u32 * 3 + step % 2) % 40;
            l.observe(s, &actions[i], t, false, 0);
            s = t;
            if step % 50 == 49 {
                plans.push(l.plan_jump(0));
                plans.push(l.shortest_path(0, s).map(|path| Plan {
                    path,
                    target: Target {
                        state: s,
                        action: String::new(),
                        kind: TargetKind::Untried,
                    },
                }));
            }
        }
        plans
    };
    assert_eq!(graph(5), graph(5));
}

#[test]
fn odd_inputs_do_not_panic() {
    let mut l = Learner::new(
        LearnerConfig {
            tau: -1.0,
            gamma: f64::NAN,
            new_element_saturation: 0.0,
            new_element_weight: 1.0,
            ..LearnerConfig::curious()
        },
        0,
    );
    assert_eq!(l.choose(u32::MAX, &keys(&["", ""])), Some(0));
    l.observe(u32::MAX, "", u32::MAX, true, usize::MAX);
    l.observe_off_scope(3, "");
    assert!(l.plan_jump(u32::MAX).is_some());
    assert!(l.shortest_path(u32::MAX, u32::MAX).is_some());
    let _ = l.q(u32::MAX, "");
    let _ = l.graph_stats();
}

#[test]
fn config_serializes() {
    let json = serde_json::to_string(&LearnerConfig::curious()).expect("json");
    assert!(json.contains("\"plan_to_untried\":true"));
    let back: LearnerConfig = serde_json::from_str(&json).expect("parse");
    assert_eq!(back, LearnerConfig::curious());
    assert_eq!(LearnerConfig::default(), LearnerConfig::curious());
}

#[test]
fn global_novelty_fades_actions_taken_elsewhere() {
    let config = LearnerConfig {
        initial_q: 10.0,
        ..paper()
    };
    let faded = LearnerConfig {
        global_novelty: true,
        ..config.clone()
    };
    for (cfg, expect_home) in [(config, 10.0), (faded, 10.0 / 4.0f64.sqrt())] {
        let mut l = Learner::new(cfg, 3);
        // "home" is taken three times from other states.
        for from in 0..3 {
            l.choose(from, &keys(&["home"]));
            l.observe(from, "home", 9, from == 0, 0);
        }
        l.choose(5, &keys(&["home", "fresh"]));
        let v = |l: &Learner, a: &str| {
            let id = l.action_ids[a];
            l.untried_q(0, id)
        };
        assert!(close(v(&l, "home"), expect_home));
        assert!(close(v(&l, "fresh"), 10.0));
    }
}

#[test]
fn novelty_counts_apart_in_each_group() {
    let config = LearnerConfig {
        initial_q: 10.0,
        global_novelty: true,
        ..paper()
    };
    let mut l = Learner::new(config, 3);
    // "reports" is taken from three states of group 0 (no setting stored)...
    for from in 0..3 {
        l.choose(from, &keys(&["reports"]));
        l.observe(from, "reports", 9, from == 0, 0);
    }
    // ...and none of group 1 (a timezone never used before).
    l.set_group(5, 1);
    l.set_group(6, 0);
    for state in [5, 6] {
        l.choose(state, &keys(&["reports"]));
    }
    let id = l.action_ids["reports"];
    assert!(close(l.untried_q(0, id), 10.0 / 2.0));
    assert!(close(l.untried_q(1, id), 10.0));
    // Taking it in group 1 fades it there, not more in group 0.
    l.observe(5, "reports", 9, false, 0);
    assert!(close(l.untried_q(1, id), 10.0 / 2f64.sqrt()));
    assert!(close(l.untried_q(0, id), 10.0 / 2.0));
    // A jump aims at the state where it was never taken in its group.
    let mut l2 = Learner::new(
        LearnerConfig {
            plan_to_untried: true,
            ..l.config().clone()
        },
        3,
    );
    l2.choose(0, &keys(&["reports", "a", "b"]));
    l2.observe(0, "reports", 9, true, 0);
    l2.observe(0, "a", 1, true, 0);
    l2.observe(0, "b", 2, true, 0);
    l2.set_group(2, 1);
    l2.choose(1, &keys(&["reports"]));
    l2.choose(2, &keys(&["reports"]));
    let plan = l2.plan_jump(0).expect("a plan");
    assert_eq!(plan.target.state, 2);
}

#[test]
fn jumps_prefer_actions_never_taken_anywhere() {
    let config = LearnerConfig {
        plan_to_untried: true,
        global_novelty: true,
        ..paper()
    };
    let mut l = Learner::new(config, 5);
    // 0 -a-> 1 -b-> 2; state 1 offers "home" (taken elsewhere), state 2 offers "brand-new".
    l.choose(0, &keys(&["a", "home"]));
    l.observe(0, "home", 0, false, 0);
    l.observe(0, "a", 1, true, 0);
    l.choose(1, &keys(&["b", "home"]));
    l.observe(1, "b", 2, true, 0);
    l.choose(2, &keys(&["brand-new"]));
    let plan = l.plan_jump(0).expect("a plan");
    assert_eq!(plan.target.state, 2);
    assert_eq!(plan.target.action, "brand-new");
    assert_eq!(plan.path.len(), 2);
}
