//! The FERG on hand-built forms (a [`Form`] and its [`FormDom`] laid out by hand), and
//! on a snapshot real Chromium took.

use curio_page::{
    DomNode, ElementKey, Field, Form, FormDom, FormId, Label, LabelSource, Rect, Target,
};

use super::*;
use crate::embed::LexicalEmbedder;

/// Every property is checked with node2vec seeded each of these ways: a few in debug
/// builds, where node2vec is slow, more with `--release` (all hold for 0..100).
const SEEDS: std::ops::Range<u64> = if cfg!(debug_assertions) { 0..3 } else { 0..20 };

fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
    Rect {
        x,
        y,
        width,
        height,
    }
}

/// A form and its DOM, built in document order.
struct Fixture {
    form: Form,
    dom: FormDom,
}

impl Fixture {
    fn new(r: Rect) -> Fixture {
        let mut dom = FormDom::default();
        dom.nodes.push(DomNode {
            tag: "form".into(),
            rect: r,
            visible: true,
            ..DomNode::default()
        });
        dom.root = Some(0);
        Fixture {
            form: Form {
                id: FormId(0),
                key: ElementKey("form|test".into()),
                target: None,
                name: None,
                html_id: None,
                action: None,
                method: None,
                title: None,
                fields: Vec::new(),
                submit: None,
            },
            dom,
        }
    }

    fn el(&mut self, parent: usize, tag: &str, r: Rect) -> usize {
        self.dom.nodes.push(DomNode {
            parent: Some(parent),
            tag: tag.into(),
            rect: r,
            visible: true,
            ..DomNode::default()
        });
        self.dom.nodes.len() - 1
    }

    /// An element whose text fills its box.
    fn text(&mut self, parent: usize, tag: &str, text: &str, r: Rect) -> usize {
        let n = self.el(parent, tag, r);
        self.dom.nodes[n].text = text.into();
        self.dom.nodes[n].text_rect = r;
        n
    }

    /// A `<label for>` of a field added later or before.
    fn label_for(&mut self, parent: usize, text: &str, r: Rect, field: usize) -> usize {
        let n = self.text(parent, "label", text, r);
        self.dom.nodes[n].label_for = Some(field);
        n
    }

    /// A field and its control; returns the field's index.
    fn input(&mut self, parent: usize, input_type: &str, name: &str, r: Rect) -> usize {
        let index = self.form.fields.len();
        let tag = if input_type == "select-one" {
            "select"
        } else {
            "input"
        };
        self.form.fields.push(Field {
            target: Target {
                backend_node_id: 100 + index as i64,
                frame: 0,
                selector: format!("[name=\"{name}\"]"),
                locator: format!("textbox \"{name}\""),
                rect: r,
            },
            tag: tag.into(),
            input_type: input_type.into(),
            name: Some(name.into()),
            id: None,
            labels: Vec::new(),
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
            options: Vec::new(),
            value: String::new(),
            checked: false,
        });
        let n = self.el(parent, tag, r);
        let node = &mut self.dom.nodes[n];
        node.field = Some(index);
        node.name = Some(name.into());
        node.input_type = Some(input_type.into());
        node.backend_node_id = 100 + index as i64;
        index
    }

    fn placeholder(&mut self, field: usize, text: &str) {
        let f = &mut self.form.fields[field];
        f.placeholder = Some(text.into());
        f.labels.push(Label {
            text: text.into(),
            source: LabelSource::Placeholder,
        });
        let n = self.dom.field_node(field).expect("field node");
        self.dom.nodes[n].placeholder = Some(text.into());
    }

    fn ferg(&self, seed: u64) -> Ferg {
        let ferg = Ferg::build(&self.form, &self.dom, &LexicalEmbedder, seed);
        if seed == SEEDS.start {
            // Same input, same graph.
            let again = Ferg::build(&self.form, &self.dom, &LexicalEmbedder, seed);
            assert_eq!(ferg.describe(), again.describe());
        }
        ferg
    }

    fn field(&self, name: &str) -> usize {
        self.form
            .fields
            .iter()
            .position(|f| f.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no field {name}"))
    }
}

/// A sign-up card: a heading outside the form, then rows of label above input, a hint
/// under the password, and the submit button.
fn signup() -> Fixture {
    let mut fx = Fixture::new(rect(20.0, 50.0, 360.0, 360.0));
    // The card around the form, as FormDom puts context: re-root under a div.
    fx.dom.nodes[0].tag = "div".into();
    fx.dom.nodes[0].rect = rect(0.0, 0.0, 400.0, 420.0);
    fx.text(0, "h2", "Create an account", rect(20.0, 10.0, 200.0, 28.0));
    let form = fx.el(0, "form", rect(20.0, 50.0, 360.0, 360.0));
    let rows = [
        ("Username", "text", "username"),
        ("Email", "email", "email"),
        ("Password", "password", "password"),
        ("Confirm password", "password", "password_confirmation"),
    ];
    for (k, (label, input_type, name)) in rows.into_iter().enumerate() {
        let y = 60.0 + 75.0 * k as f64;
        let row = fx.el(form, "div", rect(20.0, y, 360.0, 70.0));
        let field = fx.form.fields.len();
        let width = 8.0 * label.len() as f64;
        fx.label_for(row, label, rect(20.0, y, width, 18.0), field);
        fx.input(row, input_type, name, rect(20.0, y + 22.0, 300.0, 24.0));
        if name == "password" {
            fx.text(
                row,
                "small",
                "At least 8 characters",
                rect(20.0, y + 50.0, 160.0, 16.0),
            );
        }
    }
    let button = fx.el(form, "button", rect(20.0, 370.0, 100.0, 30.0));
    fx.dom.nodes[button].text = "Sign up".into();
    fx
}

/// Labels in the table cell left of each input, no `for`, a note right of the phone.
fn table_form() -> Fixture {
    let mut fx = Fixture::new(rect(0.0, 0.0, 620.0, 200.0));
    let table = fx.el(0, "table", rect(0.0, 0.0, 620.0, 160.0));
    let body = fx.el(table, "tbody", rect(0.0, 0.0, 620.0, 160.0));
    let rows = [
        ("First name", "first_name"),
        ("Last name", "last_name"),
        ("E-mail", "email"),
        ("Phone", "phone"),
    ];
    for (k, (label, name)) in rows.into_iter().enumerate() {
        let y = 40.0 * k as f64;
        let tr = fx.el(body, "tr", rect(0.0, y, 620.0, 40.0));
        let cell = fx.el(tr, "td", rect(0.0, y, 150.0, 40.0));
        fx.dom.nodes[cell].text = label.into();
        fx.dom.nodes[cell].text_rect = rect(4.0, y + 12.0, 8.0 * label.len() as f64, 16.0);
        let cell = fx.el(tr, "td", rect(150.0, y, 300.0, 40.0));
        let input_type = if name == "phone" { "tel" } else { "text" };
        let field = fx.input(cell, input_type, name, rect(154.0, y + 8.0, 280.0, 24.0));
        if name == "email" {
            // An example, not a label: the caption in the cell comes first.
            fx.placeholder(field, "name@example.com");
        }
        if name == "phone" {
            let cell = fx.el(tr, "td", rect(450.0, y, 170.0, 40.0));
            fx.dom.nodes[cell].text = "(optional)".into();
            fx.dom.nodes[cell].text_rect = rect(454.0, y + 12.0, 70.0, 16.0);
        }
    }
    let button = fx.el(0, "input", rect(154.0, 170.0, 80.0, 24.0));
    fx.dom.nodes[button].text = "Save".into();
    fx.dom.nodes[button].input_type = Some("submit".into());
    fx
}

/// A log-in box whose inputs only have placeholders, and a link under the password.
fn placeholder_form() -> Fixture {
    let mut fx = Fixture::new(rect(0.0, 0.0, 320.0, 200.0));
    let row = fx.el(0, "div", rect(0.0, 0.0, 320.0, 40.0));
    let email = fx.input(row, "email", "login", rect(10.0, 8.0, 300.0, 24.0));
    fx.placeholder(email, "Email address");
    let row = fx.el(0, "div", rect(0.0, 40.0, 320.0, 60.0));
    let password = fx.input(row, "password", "pass", rect(10.0, 48.0, 300.0, 24.0));
    fx.placeholder(password, "Password");
    fx.text(
        row,
        "a",
        "Forgot your password?",
        rect(10.0, 76.0, 150.0, 16.0),
    );
    let button = fx.el(0, "button", rect(10.0, 110.0, 80.0, 30.0));
    fx.dom.nodes[button].text = "Log in".into();
    fx
}

/// A multi-city flight search: per leg, a legend and three labelled inputs side by side,
/// with the same label texts in every leg.
fn multi_city(legs: usize) -> Fixture {
    let mut fx = Fixture::new(rect(0.0, 0.0, 760.0, 60.0 + 110.0 * legs as f64));
    fx.text(0, "h3", "Multi-city trip", rect(10.0, 5.0, 160.0, 24.0));
    for leg in 0..legs {
        let y = 40.0 + 110.0 * leg as f64;
        let set = fx.el(0, "fieldset", rect(0.0, y, 760.0, 100.0));
        fx.text(
            set,
            "legend",
            &format!("Flight {}", leg + 1),
            rect(10.0, y, 70.0, 20.0),
        );
        for (k, (label, part, input_type)) in [
            ("From", "origin", "text"),
            ("To", "destination", "text"),
            ("Departure date", "date", "date"),
        ]
        .into_iter()
        .enumerate()
        {
            let x = 10.0 + 250.0 * k as f64;
            let cell = fx.el(set, "div", rect(x, y + 25.0, 240.0, 70.0));
            let field = fx.form.fields.len();
            let width = 8.0 * label.len() as f64;
            fx.label_for(cell, label, rect(x, y + 25.0, width, 18.0), field);
            fx.input(
                cell,
                input_type,
                &format!("legs[{leg}][{part}]"),
                rect(x, y + 47.0, 230.0, 26.0),
            );
        }
    }
    fx
}

fn first_related(ferg: &Ferg, field: usize) -> Option<usize> {
    ferg.related(field).first().map(|&(j, _)| j)
}

#[test]
fn signup_context_starts_with_each_fields_label() {
    for seed in SEEDS {
        let fx = signup();
        let ferg = fx.ferg(seed);
        for (name, label) in [
            ("username", "Username"),
            ("email", "Email"),
            ("password", "Password"),
            ("password_confirmation", "Confirm password"),
        ] {
            let context = ferg.context(fx.field(name));
            assert_eq!(
                context.first().map(String::as_str),
                Some(label),
                "{name}: {context:?}\n{}",
                ferg.describe()
            );
            assert_eq!(ferg.label(fx.field(name)), Some(label));
        }
        let password = ferg.context(fx.field("password"));
        assert!(
            password.contains(&"At least 8 characters".to_string()),
            "{password:?}"
        );
        // Each text belongs to one field at most.
        let mut all: Vec<String> = (0..4).flat_map(|f| ferg.context(f)).collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count);
        // The button is operated, not read: not a text of the graph.
        assert!(ferg.nodes().iter().all(|n| n.text != "Sign up"));
    }
}

#[test]
fn signup_password_confirmation_relates_to_the_password() {
    for seed in SEEDS {
        let fx = signup();
        let ferg = fx.ferg(seed);
        let (password, confirm) = (fx.field("password"), fx.field("password_confirmation"));
        assert_eq!(
            first_related(&ferg, confirm),
            Some(password),
            "{}",
            ferg.describe()
        );
        assert_eq!(
            first_related(&ferg, password),
            Some(confirm),
            "{}",
            ferg.describe()
        );
        // Relations are symmetric and sorted.
        for f in 0..fx.form.fields.len() {
            let list = ferg.related(f);
            assert!(list.windows(2).all(|w| w[0].1 >= w[1].1));
            for (g, s) in list {
                assert!(ferg.related(g).contains(&(f, s)));
            }
        }
    }
}

#[test]
fn messages_attach_to_the_field_above_them_and_banners_to_none() {
    for seed in SEEDS {
        let fx = signup();
        let ferg = fx.ferg(seed);
        // Rows at y = 60 + 75k: label at y, input at y + 22 .. y + 46.
        let under = |k: f64| rect(20.0, 60.0 + 75.0 * k + 48.0, 220.0, 16.0);
        assert_eq!(
            ferg.attach("Passwords do not match", under(3.0)),
            Some(fx.field("password_confirmation")),
            "{}",
            ferg.describe()
        );
        assert_eq!(
            ferg.attach("This username is taken", under(0.0)),
            Some(fx.field("username"))
        );
        assert_eq!(
            ferg.attach("Please enter a valid email address", under(1.0)),
            Some(fx.field("email"))
        );
        // Under the password's hint, still the password's.
        assert_eq!(
            ferg.attach("Too short", rect(20.0, 60.0 + 150.0 + 68.0, 100.0, 14.0)),
            Some(fx.field("password"))
        );
        // Right of the input, on its row.
        assert_eq!(
            ferg.attach("Invalid", rect(330.0, 60.0 + 75.0 + 26.0, 50.0, 16.0)),
            Some(fx.field("email"))
        );
        // A banner at the top of the card, and one between the heading and the first label.
        assert_eq!(
            ferg.attach(
                "Please correct the errors below",
                rect(0.0, 0.0, 400.0, 8.0)
            ),
            None
        );
        assert_eq!(
            ferg.attach(
                "Please correct the errors below",
                rect(20.0, 40.0, 360.0, 16.0)
            ),
            None
        );
        // Far below the form.
        assert_eq!(
            ferg.attach("Server error, try again", rect(20.0, 900.0, 300.0, 20.0)),
            None
        );
    }
}

#[test]
fn table_labels_in_the_cell_to_the_left() {
    for seed in SEEDS {
        let fx = table_form();
        let ferg = fx.ferg(seed);
        for (name, label) in [
            ("first_name", "First name"),
            ("last_name", "Last name"),
            ("email", "E-mail"),
            ("phone", "Phone"),
        ] {
            let context = ferg.context(fx.field(name));
            assert_eq!(
                context.first().map(String::as_str),
                Some(label),
                "{name}: {context:?}\n{}",
                ferg.describe()
            );
        }
        assert_eq!(
            ferg.context(fx.field("phone")),
            ["Phone", "(optional)"],
            "{}",
            ferg.describe()
        );
        // First and last name go together.
        assert_eq!(
            first_related(&ferg, fx.field("first_name")),
            Some(fx.field("last_name")),
            "{}",
            ferg.describe()
        );
        // A message right under the e-mail input.
        assert_eq!(
            ferg.attach("Not a valid e-mail", rect(154.0, 80.0 + 33.0, 200.0, 6.0)),
            Some(fx.field("email")),
            "{}",
            ferg.describe()
        );
    }
}

#[test]
fn placeholder_only_fields_are_named_by_their_placeholder() {
    for seed in SEEDS {
        let fx = placeholder_form();
        let ferg = fx.ferg(seed);
        assert_eq!(ferg.context(fx.field("login")), ["Email address"]);
        assert_eq!(
            ferg.context(fx.field("pass")),
            ["Password", "Forgot your password?"],
            "{}",
            ferg.describe()
        );
        assert_eq!(ferg.label(fx.field("login")), None);
    }
}

#[test]
fn multi_city_destination_relates_to_its_legs_origin() {
    for seed in SEEDS {
        for legs in [2, 3] {
            let fx = multi_city(legs);
            let ferg = fx.ferg(seed);
            for leg in 0..legs {
                let origin = fx.field(&format!("legs[{leg}][origin]"));
                let destination = fx.field(&format!("legs[{leg}][destination]"));
                assert_eq!(
                    ferg.context(origin).first().map(String::as_str),
                    Some("From")
                );
                // A leg's legend, right under the previous leg's fields, captions its own
                // leg if any.
                let legend = format!("Flight {}", leg + 1);
                for (f, field) in fx.form.fields.iter().enumerate() {
                    let own = field
                        .name
                        .as_deref()
                        .is_some_and(|n| n.starts_with(&format!("legs[{leg}]")));
                    assert!(
                        own || !ferg.context(f).contains(&legend),
                        "seed {seed}: {legend} with field {f}\n{}",
                        ferg.describe()
                    );
                }
                assert_eq!(
                    ferg.context(destination).first().map(String::as_str),
                    Some("To")
                );
                let of_origin: Vec<usize> = ferg.related(origin).iter().map(|r| r.0).collect();
                let of_destination: Vec<usize> =
                    ferg.related(destination).iter().map(|r| r.0).collect();
                // Of the other route fields, its own leg's comes first.
                let route = |list: &[usize]| {
                    list.iter().copied().find(|&f| {
                        let name = fx.form.fields[f].name.as_deref().unwrap_or("");
                        name.ends_with("[origin]") || name.ends_with("[destination]")
                    })
                };
                assert_eq!(
                    route(&of_destination),
                    Some(origin),
                    "seed {seed}, {legs} legs, leg {leg}: {of_destination:?}\n{}",
                    ferg.describe()
                );
                assert_eq!(
                    route(&of_origin),
                    Some(destination),
                    "seed {seed}, {legs} legs, leg {leg}: {of_origin:?}\n{}",
                    ferg.describe()
                );
            }
        }
    }
}

#[test]
fn degenerate_forms_do_not_panic() {
    // No DOM at all: fields still get their attribute labels, by text alone.
    let mut fx = placeholder_form();
    fx.dom = FormDom::default();
    let ferg = fx.ferg(1);
    assert_eq!(ferg.context(0), ["Email address"]);
    assert_eq!(ferg.attach("x", rect(0.0, 0.0, 0.0, 0.0)), None);
    // An empty form.
    let empty = Fixture::new(rect(0.0, 0.0, 10.0, 10.0));
    let ferg = empty.ferg(1);
    assert!(ferg.context(0).is_empty() && ferg.related(0).is_empty());
    assert_eq!(ferg.attach("Error", rect(0.0, 0.0, 10.0, 10.0)), None);
    assert!(ferg.describe().starts_with("FERG: 0 nodes"));
}

#[test]
fn registration_page_from_a_real_snapshot() {
    for seed in SEEDS {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../page/tests/fixtures/register.json"
        );
        let json = std::fs::read_to_string(path).expect("fixture");
        let snapshot: curio_page::DomSnapshot = serde_json::from_str(&json).expect("snapshot");
        let page = curio_page::Page::from_snapshot(&snapshot);
        let form = &page.forms[0];
        let dom = curio_page::form_dom(&snapshot, &page, FormId(0));
        let ferg = Ferg::build(form, &dom, &LexicalEmbedder, seed);
        let field = |name: &str| {
            form.fields
                .iter()
                .position(|f| f.name.as_deref() == Some(name))
                .unwrap_or_else(|| panic!("field {name}"))
        };
        let first = |name: &str| ferg.context(field(name)).first().cloned();
        assert_eq!(
            first("email").as_deref(),
            Some("Email address:"),
            "{}",
            ferg.describe()
        );
        assert_eq!(first("fullname").as_deref(), Some("Full name *"));
        assert_eq!(first("phone").as_deref(), Some("Phone number"));
        assert_eq!(first("password").as_deref(), Some("Password"));
        assert_eq!(first("city").as_deref(), Some("City"));
        assert_eq!(first("age").as_deref(), Some("Age"), "{}", ferg.describe());
        assert_eq!(first("country").as_deref(), Some("Country"));
        assert_eq!(first("terms").as_deref(), Some("I accept the terms *"));
        assert!(
            ferg.context(field("password"))
                .contains(&"(8+ characters)".to_string())
        );
        // A radio group: its caption first, then its options' labels, beside the other
        // radios.
        let plan = ferg.context(field("plan"));
        assert_eq!(
            plan.first().map(String::as_str),
            Some("Plan:"),
            "{}",
            ferg.describe()
        );
        for option in ["Free", "Pro", "Team"] {
            assert!(plan.contains(&option.to_string()), "{plan:?}");
        }
        assert_eq!(first("bio").as_deref(), Some("About you"));
    }
}

/// A form of `rows` rows (label, input, hint each), in a DOM of a few nodes per row.
fn long_form(rows: usize) -> Fixture {
    let mut fx = Fixture::new(rect(0.0, 0.0, 600.0, 60.0 * rows as f64));
    for k in 0..rows {
        let y = 60.0 * k as f64;
        let row = fx.el(0, "div", rect(0.0, y, 600.0, 56.0));
        let wrap = fx.el(row, "div", rect(0.0, y, 600.0, 56.0));
        let field = fx.form.fields.len();
        fx.label_for(
            wrap,
            &format!("Question {k}"),
            rect(0.0, y, 90.0, 18.0),
            field,
        );
        let inner = fx.el(wrap, "span", rect(0.0, y + 20.0, 300.0, 24.0));
        fx.input(
            inner,
            "text",
            &format!("q{k}"),
            rect(0.0, y + 20.0, 300.0, 24.0),
        );
        fx.text(wrap, "small", "Optional", rect(0.0, y + 44.0, 60.0, 12.0));
    }
    fx
}

/// `cargo test -p curio-forms --release --lib ferg::tests::timing -- --ignored --nocapture`
#[test]
#[ignore = "timing print; run in release"]
fn timing() {
    for rows in [20, 60] {
        let fx = long_form(rows);
        let runs = 20;
        let start = std::time::Instant::now();
        for seed in 0..runs {
            let ferg = Ferg::build(&fx.form, &fx.dom, &LexicalEmbedder, seed);
            assert!(!ferg.context(0).is_empty());
        }
        println!(
            "FERG of {rows} fields, {} DOM nodes: {:?} per build",
            fx.dom.nodes.len(),
            start.elapsed() / runs as u32
        );
    }
    let parents: Vec<Option<usize>> = (0..300)
        .map(|i| if i == 0 { None } else { Some((i - 1) / 3) })
        .collect();
    let adjacency = tree_adjacency(&parents);
    let start = std::time::Instant::now();
    let runs = 10;
    for seed in 0..runs {
        let _ = node2vec(&adjacency, &Node2VecConfig::default(), seed);
    }
    println!(
        "node2vec of a 300-node tree: {:?} per run",
        start.elapsed() / runs as u32
    );
}
