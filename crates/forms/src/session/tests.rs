//! The session driven end to end against simulated forms, with a small fake solver.

use curio_page::{ElementKey, Field, Form, FormId, Label, LabelSource, Rect, Target};
use rand::RngCore;

use super::*;
use crate::feedback::{attach_by_layout, classify};
use crate::lang::parse;
use crate::testing::{FieldState, Observation, SeenText};

fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

fn field(id: &str, input_type: &str, label: &str, y: f64) -> Field {
    Field {
        target: Target {
            backend_node_id: 1,
            frame: 0,
            selector: format!("#{id}"),
            locator: format!("textbox \"{label}\""),
            rect: rect(100.0, y, 200.0, 30.0),
        },
        tag: "input".into(),
        input_type: input_type.into(),
        name: Some(id.into()),
        id: Some(id.into()),
        labels: vec![Label {
            text: label.into(),
            source: LabelSource::For,
        }],
        placeholder: None,
        autocomplete: None,
        required: false,
        readonly: false,
        min: None,
        max: None,
        step: None,
        minlength: None,
        maxlength: None,
        pattern: None,
        inputmode: None,
        options: vec![],
        value: String::new(),
        checked: false,
    }
}

/// Fields 80 px apart from y=100, in order.
fn form_of(fields: &[(&str, &str, &str)]) -> Form {
    Form {
        id: FormId(0),
        key: ElementKey("form".into()),
        target: None,
        name: None,
        html_id: None,
        action: None,
        method: None,
        title: Some("Sign up".into()),
        fields: fields
            .iter()
            .enumerate()
            .map(|(i, (id, t, label))| field(id, t, label, 100.0 + 80.0 * i as f64))
            .collect(),
        submit: None,
    }
}

fn signup() -> Form {
    form_of(&[
        ("username", "text", "Username"),
        ("password", "password", "Password"),
        ("confirm", "password", "Confirm password"),
    ])
}

fn c(text: &str) -> Constraint {
    parse(text).unwrap()
}

/// Solves by a few rules, enough for the tests' constraints: starts from a value per
/// field type, applies each constraint in order (the target one broken), then copies
/// for equalities; `None` when a constraint that must hold does not.
struct FakeSolver {
    calls: usize,
}

impl FakeSolver {
    fn solve(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        target: Option<usize>,
    ) -> Option<Vec<FieldValue>> {
        self.calls += 1;
        let refs = field_refs(form);
        let mut values: Vec<String> = form
            .fields
            .iter()
            .map(|f| match f.input_type.as_str() {
                "password" => "secret".to_string(),
                "email" => "ada@example.com".to_string(),
                "number" => "30".to_string(),
                "checkbox" => "false".to_string(),
                _ => "Ada".to_string(),
            })
            .collect();
        let at = |name: &str| refs.iter().position(|r| r == name);
        let order: Vec<usize> = (0..constraints.len())
            .filter(|&i| Some(i) != target)
            .chain(target)
            .collect();
        let mut copies: Vec<(usize, usize, bool)> = Vec::new();
        for i in order {
            let cst = &constraints[i];
            let broken = Some(i) == target;
            let want = cst.negated == broken;
            let f = at(&cst.field)?;
            let v = &mut values[f];
            match &cst.check {
                Check::ToBeTruthy if want => {
                    if v.is_empty() {
                        *v = "Ada".into();
                    }
                }
                Check::ToBeTruthy => v.clear(),
                Check::ToHaveLengthCondition(CmpOp::Gt, n) if want => {
                    while v.chars().count() <= *n {
                        v.push('x');
                    }
                }
                Check::ToHaveLengthCondition(CmpOp::Lt, n) if want => {
                    *v = v.chars().take(n.checked_sub(1)?).collect();
                }
                Check::ToHaveLengthCondition(CmpOp::Ge, n) if want => {
                    while v.chars().count() < *n {
                        v.push('x');
                    }
                }
                Check::ToHaveLengthCondition(CmpOp::Ge, n) => {
                    *v = v.chars().take(n.checked_sub(1)?).collect();
                }
                Check::ToHaveLengthCondition(CmpOp::Le, n) if want => {
                    *v = v.chars().take(*n).collect();
                }
                Check::ToHaveLengthCondition(CmpOp::Le, n) => {
                    while v.chars().count() <= *n {
                        v.push('x');
                    }
                }
                Check::ToContainUpperCaseChars if want => {
                    if !v.chars().any(char::is_uppercase) {
                        let mut cs = v.chars();
                        *v = match cs.next() {
                            Some(first) => first.to_uppercase().chain(cs).collect(),
                            None => "A".into(),
                        };
                    }
                }
                Check::ToContainUpperCaseChars => *v = v.to_lowercase(),
                Check::ToContainSpecialChars if want => {
                    if v.chars().all(char::is_alphanumeric) {
                        v.push('!');
                    }
                }
                Check::ToContainSpecialChars => v.retain(char::is_alphanumeric),
                Check::ToBeEqual(Operand::Field(other)) => copies.push((f, at(other)?, want)),
                Check::ToBeEqual(Operand::Str(s)) if want => *v = s.clone(),
                Check::ToBeEqual(Operand::Str(s)) => {
                    v.push_str(if s.is_empty() { "x" } else { "_" })
                }
                Check::FreeText(_) | Check::Dummy(_) if !broken => {}
                _ => return None,
            }
        }
        for (f, other, equal) in copies {
            values[f] = if equal {
                values[other].clone()
            } else {
                format!("{}x", values[other])
            };
        }
        let lookup = |name: &str| at(name).map(|i| values[i].clone());
        for (i, cst) in constraints.iter().enumerate() {
            if Some(i) == target {
                continue;
            }
            // With a target, only rules on other fields must hold.
            let on_target_field = target.is_some_and(|t| constraints[t].field == cst.field);
            if !on_target_field && cst.holds(&lookup) == Some(false) {
                return None;
            }
        }
        Some(
            form.fields
                .iter()
                .zip(values)
                .map(|(f, v)| match f.input_type.as_str() {
                    "checkbox" => FieldValue::Check(v == "true"),
                    _ => FieldValue::Text(v),
                })
                .collect(),
        )
    }
}

impl ValueSolver for FakeSolver {
    fn satisfy(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        _rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>> {
        self.solve(form, constraints, None)
    }

    fn break_one(
        &mut self,
        form: &Form,
        constraints: &[Constraint],
        target: usize,
        _rng: &mut dyn RngCore,
    ) -> Option<Vec<FieldValue>> {
        self.solve(form, constraints, Some(target))
    }
}

/// What the browser would see after submitting `values` to a form whose server answers
/// `errors` (field index, message) or, with none, redirects to `/welcome`.
fn observe(
    form: &Form,
    values: &[FieldValue],
    errors: Vec<(Option<usize>, String)>,
) -> Observation {
    let labels: Vec<SeenText> = form
        .fields
        .iter()
        .map(|f| SeenText {
            text: f.label().unwrap_or_default().to_string(),
            rect: rect(f.target.rect.x, f.target.rect.y - 20.0, 150.0, 18.0),
            live: false,
            alarm: false,
        })
        .collect();
    let fields: Vec<FieldState> = form
        .fields
        .iter()
        .zip(values)
        .map(|(f, v)| FieldState {
            rect: f.target.rect,
            value: v.as_string(),
            ..FieldState::default()
        })
        .collect();
    let mut obs = Observation {
        url_before: "http://app.test/signup".into(),
        url_after: "http://app.test/signup".into(),
        texts_before: labels.clone(),
        texts_after: labels,
        fields,
        ..Observation::default()
    };
    if errors.is_empty() {
        obs.url_after = "http://app.test/welcome".into();
        obs.navigated = true;
        obs.texts_after = vec![SeenText {
            text: "Dashboard".into(),
            rect: rect(0.0, 0.0, 100.0, 20.0),
            live: false,
            alarm: false,
        }];
        obs.fields = vec![FieldState::default(); form.fields.len()];
        return obs;
    }
    for (f, message) in errors {
        let r = match f {
            Some(f) => {
                let b = form.fields[f].target.rect;
                rect(b.x, b.y + b.height + 4.0, 250.0, 18.0)
            }
            None => rect(0.0, 10.0, 600.0, 30.0),
        };
        obs.texts_after.push(SeenText {
            text: message,
            rect: r,
            live: false,
            alarm: false,
        });
    }
    obs
}

/// The server of the sign-up form: username required and at most 20 characters,
/// password at least 8, confirmation equal. No uppercase rule.
fn signup_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let v: Vec<String> = values.iter().map(FieldValue::as_string).collect();
    let mut errors = Vec::new();
    if v[0].trim().is_empty() {
        errors.push((Some(0), "Username is required".to_string()));
    } else if v[0].chars().count() > 20 {
        errors.push((Some(0), "Username is too long".to_string()));
    }
    if v[1].chars().count() < 8 {
        errors.push((
            Some(1),
            "Password must be at least 8 characters".to_string(),
        ));
    }
    if v[2] != v[1] {
        errors.push((Some(2), "Passwords do not match".to_string()));
    }
    errors
}

/// A simulated server: the errors (field or form, message) it answers to values.
type Server<'a> = &'a dyn Fn(&[FieldValue]) -> Vec<(Option<usize>, String)>;

struct Run {
    report: FormReport,
    purposes: Vec<Purpose>,
}

fn drive(
    form: Form,
    constraints: Vec<Constraint>,
    config: SessionConfig,
    server: Server<'_>,
) -> Run {
    drive_with(form, constraints, Vec::new(), config, server)
}

/// [`drive`], with a model's hypotheses besides the given constraints.
fn drive_with(
    form: Form,
    constraints: Vec<Constraint>,
    hypotheses: Vec<Constraint>,
    config: SessionConfig,
    server: Server<'_>,
) -> Run {
    let mut session = FormSession::new(form.clone(), constraints, config.clone(), 7);
    session.add_hypotheses(hypotheses);
    let mut solver = FakeSolver { calls: 0 };
    let mut purposes = Vec::new();
    let mut guard = 0;
    while let Some(sub) = session.next(&mut solver) {
        guard += 1;
        assert!(guard <= config.max_submissions, "over budget");
        assert_eq!(sub.values.len(), form.fields.len());
        purposes.push(sub.purpose);
        let obs = observe(&form, &sub.values, server(&sub.values));
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    assert!(session.next(&mut solver).is_none(), "done stays done");
    Run {
        report: session.report(),
        purposes,
    }
}

fn verdict(report: &FormReport, constraint: &str) -> Option<Verdict> {
    report
        .constraints
        .iter()
        .find(|r| r.constraint == constraint)
        .map(|r| r.verdict)
}

fn inferred() -> Vec<Constraint> {
    vec![
        c("expect(field('username')).toBeTruthy()"),
        c("expect(field('password')).toBeTruthy()"),
        c("expect(field('password')).toContainUpperCaseChars()"),
        c("expect(field('confirm')).toBeEqual(field('password'))"),
    ]
}

#[test]
fn reaches_success_by_learning_from_feedback_then_confirms_and_refutes() {
    let run = drive(
        signup(),
        inferred(),
        SessionConfig::default(),
        &signup_server,
    );
    let r = &run.report;
    assert!(r.reached, "{r:#?}");
    // The first attempt failed on the length rule, learnt from the message.
    assert_eq!(run.purposes[0], Purpose::Reach);
    assert_eq!(run.purposes[1], Purpose::Reach);
    assert!(matches!(run.purposes[2], Purpose::Negate(_)));
    let learnt = "expect(field('password')).toHaveLengthCondition('>=', 8)";
    assert!(
        r.constraints
            .iter()
            .any(|c| c.constraint == learnt && c.origin == Origin::Feedback),
        "{r:#?}"
    );
    assert_eq!(verdict(r, learnt), Some(Verdict::Confirmed));
    assert_eq!(
        verdict(r, "expect(field('username')).toBeTruthy()"),
        Some(Verdict::Confirmed)
    );
    assert_eq!(
        verdict(r, "expect(field('confirm')).toBeEqual(field('password'))"),
        Some(Verdict::Confirmed)
    );
    // The form does not enforce an uppercase letter: a discrepancy.
    let upper = r
        .constraints
        .iter()
        .find(|c| c.constraint == "expect(field('password')).toContainUpperCaseChars()")
        .unwrap();
    assert_eq!(upper.verdict, Verdict::Refuted);
    assert_eq!(r.fss[upper.fss.unwrap()].outcome, Outcome::Success);

    // States: password too short, success, username required, mismatch, everything
    // empty (a probe), username too long (a probe), password short and mismatched (a
    // probe).
    let signatures: Vec<&str> = r.fss.iter().map(|s| s.signature.as_str()).collect();
    assert_eq!(r.fss.len(), 7, "{signatures:#?}");
    assert!(
        r.fss
            .iter()
            .any(|s| matches!(s.purpose, Purpose::Probe(Probe::AllEmpty(_))))
    );
    assert_eq!(
        r.fss
            .iter()
            .filter(|s| s.outcome == Outcome::Success)
            .count(),
        1
    );
    assert!(signatures.contains(&"failure | username: username is too long"));
    assert!(
        r.fss
            .iter()
            .any(|s| matches!(s.purpose, Purpose::Probe(Probe::TooLong(0))))
    );
    assert!(r.submissions <= 60 && r.submissions == run.purposes.len());
    // Each state keeps the values that reached it: submitting them again gives it back.
    for s in &r.fss {
        let form = signup();
        let obs = observe(&form, &s.values, signup_server(&s.values));
        let layout = attach_by_layout(&form, &obs.fields);
        let fb = classify(&form, &obs, &layout);
        assert_eq!(fb.signature(&field_refs(&form)), s.signature);
    }
}

#[test]
fn hypotheses_are_judged_after_everything_the_rules_do() {
    let wrong = "expect(field('username')).toHaveLengthCondition('>=', 30)";
    let right = "expect(field('password')).toHaveLengthCondition('>=', 8)";
    let alone = drive(
        signup(),
        inferred(),
        SessionConfig::default(),
        &signup_server,
    );
    let run = drive_with(
        signup(),
        inferred(),
        vec![c(wrong), c(right)],
        SessionConfig::default(),
        &signup_server,
    );
    let r = &run.report;
    assert!(r.reached, "{r:#?}");
    // The session does what it does without the model first, then judges the model's.
    assert_eq!(&run.purposes[..alone.purposes.len()], &alone.purposes[..]);
    assert_eq!(r.fss[..alone.report.fss.len()], alone.report.fss[..]);
    let origin = |text: &str| {
        r.constraints
            .iter()
            .find(|c| c.constraint == text)
            .unwrap()
            .origin
    };
    assert_eq!(origin(wrong), Origin::Model);
    // The success breaks the wrong guess: refuted without a submission of its own.
    assert_eq!(verdict(r, wrong), Some(Verdict::Refuted));
    // The right one, which the form's message also taught, is negated: confirmed.
    assert_eq!(verdict(r, right), Some(Verdict::Confirmed));
}

/// The server of the sign-up form, for members only: the username must be Grace.
fn members_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let mut errors = signup_server(values);
    if values[0].as_string() != "Grace" {
        errors.push((Some(0), "No member goes by that name".to_string()));
    }
    errors
}

#[test]
fn the_model_has_its_turn_when_the_rules_get_no_success() {
    let mut rules = inferred();
    rules.push(c(
        "expect(field('password')).toHaveLengthCondition('>=', 8)",
    ));
    let config = SessionConfig {
        max_reach: 2,
        ..SessionConfig::default()
    };
    let alone = drive(signup(), rules.clone(), config.clone(), &members_server);
    assert!(!alone.report.reached, "{:#?}", alone.report);
    let grace = "expect(field('username')).toBeEqual('Grace')";
    let run = drive_with(signup(), rules, vec![c(grace)], config, &members_server);
    assert!(run.report.reached, "{:#?}", run.report);
    // The rules' reaches, as alone, then the model's, which succeeds.
    let tries = alone
        .purposes
        .iter()
        .take_while(|p| **p == Purpose::Reach)
        .count();
    assert!(tries >= 1);
    assert_eq!(&run.purposes[..tries], &alone.purposes[..tries]);
    assert_eq!(run.purposes[tries], Purpose::Reach);
    assert!(matches!(run.purposes[tries + 1], Purpose::Negate(_)));
    assert_eq!(verdict(&run.report, grace), Some(Verdict::Confirmed));
}

#[test]
fn probes_skip_what_a_negation_already_tried() {
    let run = drive(
        signup(),
        inferred(),
        SessionConfig::default(),
        &signup_server,
    );
    // username was emptied by negating toBeTruthy: no Empty probe of it.
    assert!(!run.purposes.contains(&Purpose::Probe(Probe::Empty(0))));
    assert!(run.purposes.contains(&Purpose::Probe(Probe::Whitespace(0))));
    // No two submissions with the same values.
    let report = run.report;
    assert!(report.submissions >= 10);
}

#[test]
fn stops_within_the_budget() {
    for budget in [1, 2, 3, 5] {
        let config = SessionConfig {
            max_submissions: budget,
            ..SessionConfig::default()
        };
        let run = drive(signup(), inferred(), config, &signup_server);
        assert_eq!(run.purposes.len(), budget);
        assert_eq!(run.report.submissions, budget);
    }
}

#[test]
fn deterministic_for_a_seed() {
    let a = drive(
        signup(),
        inferred(),
        SessionConfig::default(),
        &signup_server,
    );
    let b = drive(
        signup(),
        inferred(),
        SessionConfig::default(),
        &signup_server,
    );
    assert_eq!(a.report, b.report);
    assert_eq!(a.purposes, b.purposes);
}

#[test]
fn a_form_that_never_accepts_gives_up_reaching_and_still_probes() {
    let server = |_: &[FieldValue]| vec![(None, "Sorry, registrations are closed".to_string())];
    let run = drive(signup(), inferred(), SessionConfig::default(), &server);
    let r = &run.report;
    assert!(!r.reached);
    let reach = run
        .purposes
        .iter()
        .filter(|p| **p == Purpose::Reach)
        .count();
    assert!(reach <= 4, "{reach}");
    assert!(!run.purposes.iter().any(|p| matches!(p, Purpose::Negate(_))));
    assert!(run.purposes.iter().any(|p| matches!(p, Purpose::Probe(_))));
    assert!(
        r.constraints
            .iter()
            .all(|c| c.verdict == Verdict::Unverified)
    );
    assert_eq!(r.fss.len(), 1);
}

#[test]
fn constraints_the_solver_cannot_keep_together_are_dropped() {
    let mut constraints = inferred();
    constraints.push(c(
        "expect(field('username')).toHaveLengthCondition('>=', 30)",
    ));
    constraints.push(c(
        "expect(field('username')).toHaveLengthCondition('<=', 5)",
    ));
    let run = drive(
        signup(),
        constraints,
        SessionConfig::default(),
        &signup_server,
    );
    let r = &run.report;
    assert!(r.reached, "{r:#?}");
    let dropped: Vec<&str> = r
        .constraints
        .iter()
        .filter(|c| c.dropped)
        .map(|c| c.constraint.as_str())
        .collect();
    // First the given pair clash: the later one goes. Then the form says the username
    // is too long: what it says wins over the given minimum.
    assert_eq!(
        dropped,
        vec![
            "expect(field('username')).toHaveLengthCondition('>=', 30)",
            "expect(field('username')).toHaveLengthCondition('<=', 5)",
        ]
    );
    assert!(r.constraints.iter().any(|c| !c.dropped
        && c.constraint == "expect(field('username')).toHaveLengthCondition('<', 30)"));
}

#[test]
fn unobserved_submissions_count_but_make_no_state() {
    let form = signup();
    let mut session = FormSession::new(form, inferred(), SessionConfig::default(), 1);
    let mut solver = FakeSolver { calls: 0 };
    for _ in 0..3 {
        let sub = session.next(&mut solver).unwrap();
        assert_eq!(sub.purpose, Purpose::Reach);
        session.observe(Feedback::unknown());
    }
    let r = session.report();
    assert_eq!(r.submissions, 3);
    assert!(r.fss.is_empty());
    assert!(!r.reached);
}

#[test]
fn a_silent_form_is_a_base_for_negation() {
    // Accepts anything without a word, refuses an empty username.
    let form = signup();
    let mut session = FormSession::new(form.clone(), inferred(), SessionConfig::default(), 3);
    let mut solver = FakeSolver { calls: 0 };
    while let Some(sub) = session.next(&mut solver) {
        let v: Vec<String> = sub.values.iter().map(FieldValue::as_string).collect();
        let errors = if v[0].trim().is_empty() {
            vec![(Some(0), "Required".to_string())]
        } else {
            vec![]
        };
        let mut obs = observe(&form, &sub.values, errors.clone());
        if errors.is_empty() {
            // Stays, nothing changes.
            obs = observe(&form, &sub.values, vec![]);
            obs.url_after = obs.url_before.clone();
            obs.navigated = false;
            obs.texts_after = obs.texts_before.clone();
            obs.fields = form
                .fields
                .iter()
                .zip(&sub.values)
                .map(|(f, v)| FieldState {
                    rect: f.target.rect,
                    value: v.as_string(),
                    ..FieldState::default()
                })
                .collect();
        }
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    let r = session.report();
    assert!(!r.reached);
    assert_eq!(
        verdict(&r, "expect(field('username')).toBeTruthy()"),
        Some(Verdict::Confirmed)
    );
    assert_eq!(
        verdict(&r, "expect(field('password')).toContainUpperCaseChars()"),
        Some(Verdict::Unverified)
    );
}

#[test]
fn report_serialises_to_json() {
    let run = drive(
        signup(),
        inferred(),
        SessionConfig::default(),
        &signup_server,
    );
    let json = serde_json::to_string(&run.report).unwrap();
    let back: FormReport = serde_json::from_str(&json).unwrap();
    assert_eq!(back, run.report);
    assert!(json.contains("\"verdict\":\"refuted\""), "{json}");
}

fn rules_for(form: &Form, f: usize, message: &str, value: &str) -> Vec<String> {
    rules_from_text(
        form,
        &field_refs(form),
        f,
        message,
        value,
        Some("2026-12-04"),
    )
    .iter()
    .map(ToString::to_string)
    .collect()
}

#[test]
fn rules_read_from_messages() {
    let form = form_of(&[
        ("name", "text", "Name"),
        ("email", "email", "Email"),
        ("password", "password", "Password"),
        ("confirm", "password", "Confirm password"),
        ("start", "date", "Start date"),
        ("end", "date", "End date"),
        ("age", "number", "Age"),
        ("terms", "checkbox", "I accept the terms"),
        ("old", "password", "Current password"),
    ]);
    let cases: &[(usize, &str, &str, &[&str])] = &[
        (
            0,
            "This field is required",
            "",
            &["expect(field('name')).toBeTruthy()"],
        ),
        (
            0,
            "Hmm, really?",
            "",
            &["expect(field('name')).toBeTruthy()"],
        ),
        (
            0,
            "Choose between 6 and 500 seats for this plan and team.",
            "5",
            &[
                "expect(field('name')).toHaveCompareCondition('>=', 6)",
                "expect(field('name')).toHaveCompareCondition('<=', 500)",
            ],
        ),
        (
            0,
            "Up to 2,000 characters.",
            "",
            &["expect(field('name')).toHaveLengthCondition('<=', 2000)"],
        ),
        (
            4,
            "The start date cannot be in the past",
            "2020-01-01",
            &["expect(field('start')).toHaveCompareCondition('>=', '2026-12-04')"],
        ),
        (
            4,
            "Please pick a date in the future.",
            "2020-01-01",
            &["expect(field('start')).toHaveCompareCondition('>', '2026-12-04')"],
        ),
        (
            5,
            "An end date can't be in the future",
            "2030-01-01",
            &["expect(field('end')).toHaveCompareCondition('<=', '2026-12-04')"],
        ),
        (
            2,
            "Password must be at least 8 characters",
            "abc",
            &["expect(field('password')).toHaveLengthCondition('>=', 8)"],
        ),
        (
            2,
            "Please lengthen this text to 8 characters or more (you are currently using 3 characters).",
            "abc",
            &["expect(field('password')).toHaveLengthCondition('>=', 8)"],
        ),
        (
            0,
            "Name must be between 2 and 40 characters",
            "A",
            &[
                "expect(field('name')).toHaveLengthCondition('>=', 2)",
                "expect(field('name')).toHaveLengthCondition('<=', 40)",
            ],
        ),
        (
            2,
            "Must contain at least one uppercase letter",
            "secret12",
            &["expect(field('password')).toContainUpperCaseChars()"],
        ),
        (
            2,
            "Password needs a special character",
            "Secret12",
            &["expect(field('password')).toContainSpecialChars()"],
        ),
        (
            3,
            "Passwords do not match",
            "other",
            &["expect(field('confirm')).toBeEqual(field('password'))"],
        ),
        (
            2,
            "Passwords don't match",
            "x",
            &["expect(field('confirm')).toBeEqual(field('password'))"],
        ),
        (
            5,
            "End date must be after the start date",
            "2025-01-01",
            &["expect(field('end')).toHaveCompareCondition('>', field('start'))"],
        ),
        (
            5,
            "End date cannot be before the start date",
            "2025-01-01",
            &["expect(field('end')).toHaveCompareCondition('>=', field('start'))"],
        ),
        (
            8,
            "Must be different from your new password",
            "x",
            &["expect(field('old')).not.toBeEqual(field('password'))"],
        ),
        (
            6,
            "You must be at least 18 years old",
            "12",
            &["expect(field('age')).toHaveCompareCondition('>=', 18)"],
        ),
        (
            6,
            "Value must be less than or equal to 120.",
            "300",
            &["expect(field('age')).toHaveCompareCondition('<=', 120)"],
        ),
        (
            7,
            "Please check this box if you want to proceed.",
            "false",
            &["expect(field('terms')).toBeEqual('true')"],
        ),
        (
            1,
            "Please include an '@' in the email address. 'ada' is missing an '@'.",
            "ada",
            &["expect(field('email')).toContainChar('@')"],
        ),
        (
            1,
            "Please match the requested format.",
            "ada@x",
            &["expect(field('email')).freeTextConstraint(\"Please match the requested format.\")"],
        ),
        (
            0,
            "No spaces allowed",
            "Ada L",
            &["expect(field('name')).not.toContainWhiteSpace()"],
        ),
        (
            0,
            "Letters only, please",
            "R2D2",
            &["expect(field('name')).toBeAlphabetical()"],
        ),
    ];
    for (f, message, value, expected) in cases {
        assert_eq!(&rules_for(&form, *f, message, value), expected, "{message}");
    }
}

#[test]
fn feedback_replaces_the_rule_it_corrects() {
    let mut session = FormSession::new(
        signup(),
        vec![c(
            "expect(field('password')).toHaveLengthCondition('>=', 6)",
        )],
        SessionConfig::default(),
        1,
    );
    session.add(c(
        "expect(field('password')).toHaveLengthCondition('>=', 8)",
    ));
    let r = session.report();
    assert_eq!(r.constraints.len(), 2);
    assert!(r.constraints[0].dropped);
    assert!(!r.constraints[1].dropped);
    assert_eq!(
        session.active_constraints(),
        vec![c(
            "expect(field('password')).toHaveLengthCondition('>=', 8)"
        )]
    );
    // The opposite of a rule replaces it too; adding it twice changes nothing.
    session.add(c(
        "expect(field('password')).not.toHaveLengthCondition('>=', 8)",
    ));
    session.add(c(
        "expect(field('password')).not.toHaveLengthCondition('>=', 8)",
    ));
    assert_eq!(session.active_constraints().len(), 1);
    assert_eq!(session.report().constraints.len(), 3);
}

#[test]
fn a_page_quoting_the_values_back_is_one_state() {
    // Succeeds to a page that greets by username; refuses nothing.
    let form = signup();
    let mut session = FormSession::new(form.clone(), inferred(), SessionConfig::default(), 5);
    let mut solver = FakeSolver { calls: 0 };
    let mut greetings = Vec::new();
    while let Some(sub) = session.next(&mut solver) {
        let mut obs = observe(&form, &sub.values, vec![]);
        let greeting = format!("Welcome, {}!", sub.values[0].as_string().trim());
        greetings.push(greeting.clone());
        obs.texts_after.push(SeenText {
            text: greeting,
            rect: rect(0.0, 50.0, 300.0, 20.0),
            live: false,
            alarm: false,
        });
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    greetings.sort();
    greetings.dedup();
    assert!(greetings.len() > 2, "{greetings:?}");
    let r = session.report();
    // An empty username is greeted differently: that one is another text.
    let signatures: Vec<&str> = r.fss.iter().map(|s| s.signature.as_str()).collect();
    assert_eq!(
        signatures,
        vec![
            "success -> /welcome | form: welcome, ada!",
            "success -> /welcome | form: welcome, !"
        ]
    );
}

#[test]
fn a_failure_about_another_field_confirms_nothing() {
    // Negating the username rule failed, but only the password was complained about.
    let mut session = FormSession::new(
        signup(),
        vec![c("expect(field('username')).toBeTruthy()")],
        SessionConfig::default(),
        1,
    );
    session.judge(0, Outcome::Failure, None, Some(vec![1]));
    assert_eq!(session.report().constraints[0].verdict, Verdict::Unverified);
    session.judge(0, Outcome::Failure, None, Some(vec![0, 1]));
    assert_eq!(session.report().constraints[0].verdict, Verdict::Confirmed);
    session.judge(0, Outcome::Failure, None, None);
    assert_eq!(session.report().constraints[0].verdict, Verdict::Confirmed);
    session.judge(0, Outcome::Success, None, None);
    assert_eq!(session.report().constraints[0].verdict, Verdict::Refuted);
}

/// A trip of two legs and a guest box: the server refuses a second leg leaving from
/// where the first left, and a ticked guest box without the guest's name.
fn trip_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let v: Vec<String> = values.iter().map(FieldValue::as_string).collect();
    let mut errors = Vec::new();
    for (f, value) in v.iter().enumerate().take(4) {
        if value.trim().is_empty() {
            errors.push((Some(f), "Where to? We need a city here".to_string()));
        }
    }
    if !v[0].is_empty() && v[2] == v[0] {
        errors.push((Some(2), format!("You are already departing from {}", v[0])));
    }
    if v[4] == "true" && v[5].trim().is_empty() {
        errors.push((Some(5), "Tell us who is coming with you".to_string()));
    }
    errors
}

#[test]
fn probes_try_alike_fields_equal_and_boxes_ticked() {
    let form = form_of(&[
        ("from1", "text", "From (city)"),
        ("to1", "text", "To (city)"),
        ("from2", "text", "From (city)"),
        ("to2", "text", "To (city)"),
        ("guest", "checkbox", "Bringing a guest"),
        ("guest_name", "text", "Guest name"),
    ]);
    let mut session = FormSession::new(form.clone(), vec![], SessionConfig::default(), 3);
    let filler = crate::HeuristicFiller::new(crate::Dictionary::default(), (2026, 12, 4));
    let mut solver = crate::ConstraintSolver::new(filler);
    let mut purposes = Vec::new();
    while let Some(sub) = session.next(&mut solver) {
        purposes.push(sub.purpose);
        let obs = observe(&form, &sub.values, trip_server(&sub.values));
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    let report = session.report();
    let said = |start: &str| {
        report
            .fss
            .iter()
            .any(|s| s.messages.iter().any(|m| m.text.starts_with(start)))
    };
    assert!(report.reached, "{purposes:?}");
    assert!(said("You are already departing from"), "{purposes:?}");
    assert!(said("Tell us who is coming"), "{purposes:?}");
    assert!(purposes.contains(&Purpose::Probe(Probe::SameAs(2, 0))));
    assert!(purposes.contains(&Purpose::Probe(Probe::Toggle(4))));
}

/// A stay: the server refuses more than 30 nights, a rule no hint states.
fn stay_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let day = |i: usize| crate::scalar::parse_date(&values[i].as_string());
    match (day(0), day(1)) {
        (Some(a), Some(b)) if b - a > 30 => {
            vec![(None, "Invalid dates: stays are limited to 30 nights".into())]
        }
        (Some(_), Some(_)) => vec![],
        _ => vec![(None, "Invalid dates: pick both".into())],
    }
}

#[test]
fn probes_make_date_ranges_long() {
    let form = form_of(&[("in", "date", "Check-in"), ("out", "date", "Check-out")]);
    let mut session = FormSession::new(form.clone(), vec![], SessionConfig::default(), 5);
    let filler = crate::HeuristicFiller::new(crate::Dictionary::default(), (2026, 12, 4));
    let mut solver = crate::ConstraintSolver::new(filler);
    while let Some(sub) = session.next(&mut solver) {
        let obs = observe(&form, &sub.values, stay_server(&sub.values));
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    let report = session.report();
    let long = report
        .fss
        .iter()
        .find(|s| {
            s.messages
                .iter()
                .any(|m| m.text.contains("stays are limited"))
        })
        .unwrap_or_else(|| panic!("no state for a long stay: {:#?}", report.fss));
    assert_eq!(long.purpose, Purpose::Probe(Probe::LongSpan(1, 0)));
}

/// A catalogue search whose server wants a 10- or 13-digit ISBN and gives an example.
fn isbn_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let digits = values[1]
        .as_string()
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    if [10, 13].contains(&digits) {
        vec![]
    } else {
        vec![(
            Some(1),
            "ISBNs have 10 or 13 digits (hyphens are fine), e.g. 978-0-14-143951-8.".into(),
        )]
    }
}

#[test]
fn an_example_in_a_message_is_tried_next() {
    let form = form_of(&[("title", "text", "Title"), ("isbn", "text", "ISBN")]);
    let mut session = FormSession::new(form.clone(), vec![], SessionConfig::default(), 9);
    let filler = crate::HeuristicFiller::new(crate::Dictionary::default(), (2026, 12, 4));
    let mut solver = crate::ConstraintSolver::new(filler);
    let mut tried = Vec::new();
    while let Some(sub) = session.next(&mut solver) {
        tried.push(sub.values[1].as_string());
        let obs = observe(&form, &sub.values, isbn_server(&sub.values));
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    assert!(session.report().reached, "{tried:?}");
    assert!(
        tried.contains(&"978-0-14-143951-8".to_string()),
        "{tried:?}"
    );
}

/// A newsletter with a group of topic boxes: the server wants one ticked and says so
/// about no box in particular.
fn topics_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    if values[1..].contains(&FieldValue::Check(true)) {
        vec![]
    } else {
        vec![(None, "Error: pick at least one topic.".into())]
    }
}

#[test]
fn a_message_asking_for_one_of_a_group_ticks_its_first_box() {
    let mut form = form_of(&[
        ("email", "email", "Email"),
        ("t1", "checkbox", "Product news"),
        ("t2", "checkbox", "Tips"),
        ("t3", "checkbox", "Events"),
    ]);
    for f in &mut form.fields[1..] {
        f.name = Some("topics".into());
    }
    let mut session = FormSession::new(form.clone(), vec![], SessionConfig::default(), 4);
    let filler = crate::HeuristicFiller::new(crate::Dictionary::default(), (2026, 12, 4));
    let mut solver = crate::ConstraintSolver::new(filler);
    while let Some(sub) = session.next(&mut solver) {
        let obs = observe(&form, &sub.values, topics_server(&sub.values));
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    let report = session.report();
    assert!(report.reached, "{:#?}", report.fss);
    assert!(
        report
            .constraints
            .iter()
            .any(|c| c.constraint == "expect(field('t1')).toBeEqual('true')"),
        "{:#?}",
        report.constraints
    );
}

/// A booking that takes dates up to a year ahead and amounts in cents.
fn edges_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let mut errors = Vec::new();
    let day = crate::scalar::parse_date(&values[0].as_string());
    let today = crate::scalar::parse_date("2026-12-04").unwrap();
    if day.is_none_or(|d| d > today + 365) {
        errors.push((Some(0), "Error: bookings open a year ahead".to_string()));
    }
    let amount = values[1].as_string();
    if amount.split_once('.').is_some_and(|(_, d)| d.len() > 2) {
        errors.push((Some(1), "Error: amounts are in cents".to_string()));
    }
    errors
}

#[test]
fn probes_try_dates_far_ahead_and_numbers_off_their_step() {
    let mut form = form_of(&[("day", "date", "Day"), ("amount", "number", "Amount")]);
    form.fields[1].step = Some("0.01".into());
    let config = SessionConfig {
        today: Some("2026-12-04".into()),
        ..SessionConfig::default()
    };
    let (report, _) = solved(&form, config, 6, &edges_server);
    let said = |what: &str| {
        report
            .fss
            .iter()
            .any(|s| s.messages.iter().any(|m| m.text.contains(what)))
    };
    assert!(said("a year ahead"));
    assert!(said("in cents"));
}

/// A team plan whose server's message sits above the form, nearest the first field,
/// but names the field it is about.
fn seats_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    match values[1].as_string().trim().parse::<u32>() {
        Ok(n) if (10..=500).contains(&n) => vec![],
        _ => vec![(
            Some(0),
            "Choose between 10 and 500 seats for the team plan.".into(),
        )],
    }
}

#[test]
fn a_message_about_another_field_than_the_one_it_sits_by_refines_that_field() {
    let mut form = form_of(&[("team", "text", "Team name"), ("seats", "text", "Seats")]);
    form.fields[1].inputmode = Some("numeric".into());
    let (report, _) = solved(&form, SessionConfig::default(), 2, &seats_server);
    assert!(report.reached, "{:#?}", report.constraints);
    assert!(
        report
            .constraints
            .iter()
            .any(|c| c.constraint == "expect(field('seats')).toHaveCompareCondition('>=', 10)")
    );
}

/// A search that finds only what the site has: "No results" is accepted, but other
/// words are tried while reaching lasts, and one that finds something is the base.
fn search_server(values: &[FieldValue]) -> Vec<(Option<usize>, String)> {
    let q = values[0].as_string();
    if ["gardening", "sourdough"].contains(&q.as_str()) {
        vec![]
    } else {
        vec![(None, format!("Done: no results for {q}"))]
    }
}

#[test]
fn a_search_that_finds_nothing_is_no_base_while_other_words_remain() {
    let mut form = form_of(&[("q", "search", "Search")]);
    form.fields[0].placeholder = Some("Recipes, gardening guides and news from the kitchen".into());
    let mut session = FormSession::new(form.clone(), vec![], SessionConfig::default(), 1);
    let filler = crate::HeuristicFiller::new(crate::Dictionary::default(), (2026, 12, 4));
    let mut solver =
        crate::ConstraintSolver::new(filler).with_examples(crate::examples(&form, None));
    let mut tried = Vec::new();
    while let Some(sub) = session.next(&mut solver) {
        tried.push(sub.values[0].as_string());
        let obs = observe(&form, &sub.values, search_server(&sub.values));
        let layout = attach_by_layout(&form, &obs.fields);
        session.observe(classify(&form, &obs, &layout));
    }
    let report = session.report();
    assert!(
        report
            .fss
            .iter()
            .any(|s| s.outcome == Outcome::Success && s.messages.is_empty()),
        "{tried:?}"
    );
}

/// A session on `form` against `server` with the real solver and seed `seed`: its
/// report, and the purpose of each submission.
fn solved(
    form: &Form,
    config: SessionConfig,
    seed: u64,
    server: Server<'_>,
) -> (FormReport, Vec<Purpose>) {
    let mut session = FormSession::new(form.clone(), vec![], config, seed);
    let filler = crate::HeuristicFiller::new(crate::Dictionary::default(), (2026, 12, 4));
    let mut solver = crate::ConstraintSolver::new(filler);
    let mut purposes = Vec::new();
    while let Some(sub) = session.next(&mut solver) {
        purposes.push(sub.purpose);
        let obs = observe(form, &sub.values, server(&sub.values));
        let layout = attach_by_layout(form, &obs.fields);
        session.observe(classify(form, &obs, &layout));
    }
    (session.report(), purposes)
}

/// The purposes of a session that reached a success (seed 2).
fn solved_purposes(form: &Form, config: SessionConfig, server: Server<'_>) -> Vec<Purpose> {
    let (report, purposes) = solved(form, config, 2, server);
    assert!(report.reached, "{report:#?}");
    purposes
}

#[test]
fn a_short_session_sends_only_its_numbers_below_zero_and_letters_after_the_success() {
    let mut form = form_of(&[("team", "text", "Team name"), ("seats", "text", "Seats")]);
    form.fields[1].inputmode = Some("numeric".into());
    let config = SessionConfig {
        max_reach: 6,
        negate: false,
        probe: false,
        edges: true,
        ..SessionConfig::default()
    };
    let purposes = solved_purposes(&form, config.clone(), &seats_server);
    let after: Vec<&Purpose> = purposes
        .iter()
        .skip_while(|p| **p == Purpose::Reach)
        .collect();
    // The team's name is no number; the seats, typed as text, get letters too.
    assert_eq!(
        after,
        [
            &Purpose::Probe(Probe::Negative(1)),
            &Purpose::Probe(Probe::OtherType(1))
        ]
    );
    let without = SessionConfig {
        edges: false,
        ..config
    };
    let purposes = solved_purposes(&form, without, &seats_server);
    assert!(
        purposes.iter().all(|p| *p == Purpose::Reach),
        "{purposes:?}"
    );
    // A full session sends it among its probes.
    let purposes = solved_purposes(&form, SessionConfig::default(), &seats_server);
    assert!(purposes.contains(&Purpose::Probe(Probe::Negative(1))));
}
