//! The DOM around a form: on snapshots real Chromium took of `tests/fixtures/`, and on
//! small hand-built snapshots with layout.

use curio_page::{
    DocumentSnapshot, DomNode, DomSnapshot, FormDom, FormId, Page, form_dom, form_doms,
};

fn snapshot(name: &str) -> DomSnapshot {
    let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("parse {path}: {e}"))
}

fn node<'a>(dom: &'a FormDom, tag: &str, text: &str) -> &'a DomNode {
    dom.nodes
        .iter()
        .find(|n| n.tag == tag && n.text == text)
        .unwrap_or_else(|| panic!("no <{tag}> {text:?} in {:#?}", texts(dom)))
}

fn texts(dom: &FormDom) -> Vec<(&str, &str)> {
    dom.nodes
        .iter()
        .map(|n| (n.tag.as_str(), n.text.as_str()))
        .collect()
}

fn is_below(dom: &FormDom, mut n: usize, ancestor: usize) -> bool {
    while let Some(p) = dom.nodes[n].parent {
        if p == ancestor {
            return true;
        }
        n = p;
    }
    false
}

/// Parents come first, every field of the form is there exactly once, as its control.
fn check_shape(page: &Page, id: FormId, dom: &FormDom) {
    for (i, n) in dom.nodes.iter().enumerate() {
        assert!(n.parent.is_none_or(|p| p < i), "parent after child at {i}");
        assert_eq!(n.parent.is_none(), i == 0, "one topmost node");
    }
    let form = &page.forms[id.0];
    for (i, field) in form.fields.iter().enumerate() {
        let found: Vec<&DomNode> = dom.nodes.iter().filter(|n| n.field == Some(i)).collect();
        assert_eq!(found.len(), 1, "field {i}");
        assert_eq!(found[0].backend_node_id, field.target.backend_node_id);
        assert_eq!(found[0].tag, field.tag);
        assert_eq!(found[0].rect, field.target.rect);
        let root = dom.root.expect("a root");
        let at = dom.field_node(i).expect("field node");
        assert!(is_below(dom, at, root), "field {i} under the root");
    }
}

#[test]
fn registration_form_tree_with_labels_and_heading() {
    let snap = snapshot("register");
    let page = Page::from_snapshot(&snap);
    let dom = form_dom(&snap, &page, FormId(0));
    check_shape(&page, FormId(0), &dom);
    let root = dom.root.expect("root");
    assert_eq!(dom.nodes[root].tag, "form");
    assert_eq!(dom.nodes[root].id.as_deref(), Some("signup"));

    // The heading above the form comes along as context, beside the form, not in it.
    let heading = dom
        .nodes
        .iter()
        .position(|n| n.tag == "h2")
        .expect("heading");
    assert_eq!(dom.nodes[heading].text, "Create your account");
    assert!(!is_below(&dom, heading, root));
    assert_eq!(dom.nodes[heading].parent, dom.nodes[root].parent);
    assert_eq!(dom.nodes[0].tag, "body");

    let field = |name: &str| {
        page.forms[0]
            .fields
            .iter()
            .position(|f| f.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("field {name}"))
    };
    // <label for>, wrapping <label>, aria-labelledby.
    assert_eq!(
        node(&dom, "label", "Email address:").label_for,
        Some(field("email"))
    );
    assert_eq!(
        node(&dom, "label", "Full name *").label_for,
        Some(field("fullname"))
    );
    assert_eq!(
        node(&dom, "span", "Password").label_for,
        Some(field("password"))
    );
    assert_eq!(
        node(&dom, "span", "(8+ characters)").label_for,
        Some(field("password"))
    );
    assert_eq!(
        node(&dom, "label", "I accept the terms *").label_for,
        Some(field("terms"))
    );
    // A radio's own label names an option, not the group; the group is at its first radio.
    let free = node(&dom, "label", "Free");
    assert_eq!(free.label_for, None);
    let plan = dom.field_node(field("plan")).expect("plan");
    assert_eq!(dom.nodes[plan].name.as_deref(), Some("plan"));
    assert_eq!(dom.nodes[plan].input_type.as_deref(), Some("radio"));
    assert_eq!(
        dom.nodes
            .iter()
            .filter(|n| n.name.as_deref() == Some("plan"))
            .count(),
        3
    );
    // Own text only: the row around "Plan:" says just that.
    let row = node(&dom, "div", "Plan:");
    assert!(row.text_rect.width < 60.0 && row.rect.width > 1000.0);
    // Attributes.
    let email = &dom.nodes[dom.field_node(field("email")).expect("email")];
    assert_eq!(email.placeholder.as_deref(), Some("you@example.com"));
    assert_eq!(email.input_type.as_deref(), Some("email"));
    assert_eq!(email.id.as_deref(), Some("email"));
    let phone = &dom.nodes[dom.field_node(field("phone")).expect("phone")];
    assert_eq!(phone.aria_label.as_deref(), Some("Phone number"));
    // Hidden inputs and hidden buttons are not in the tree; the submit button is.
    assert!(dom.nodes.iter().all(|n| n.name.as_deref() != Some("csrf")));
    assert!(dom.nodes.iter().all(|n| !n.text.starts_with("Hidden by")));
    assert_eq!(
        node(&dom, "button", "Create account").class.as_deref(),
        Some("primary")
    );
    // Texts sit inside their element's box.
    for n in &dom.nodes {
        if !n.text.is_empty() {
            assert!(n.text_rect.width > 0.0, "{n:?}");
            assert!(n.text_rect.x >= n.rect.x - 1.0 && n.text_rect.y >= n.rect.y - 1.0);
        }
    }
}

#[test]
fn implicit_form_root_is_the_common_ancestor_of_fields_and_button() {
    let snap = snapshot("search");
    let page = Page::from_snapshot(&snap);
    let dom = form_dom(&snap, &page, FormId(0));
    check_shape(&page, FormId(0), &dom);
    let root = dom.root.expect("root");
    assert_eq!(dom.nodes[root].tag, "div");
    assert_eq!(dom.nodes[root].class.as_deref(), Some("controls"));
    let button = dom
        .nodes
        .iter()
        .position(|n| n.text == "Search")
        .expect("button");
    assert_eq!(dom.nodes[button].role.as_deref(), Some("button"));
    assert!(is_below(&dom, button, root));
    // The section's heading is context; the navigation bar is not.
    assert_eq!(
        node(&dom, "h3", "Find a product").parent,
        dom.nodes[root].parent
    );
    assert!(
        dom.nodes.iter().all(|n| n.tag != "nav"),
        "{:?}",
        texts(&dom)
    );
    assert_eq!(
        dom.nodes[dom.field_node(1).expect("category")]
            .aria_label
            .as_deref(),
        Some("Category")
    );
}

#[test]
fn forms_in_frames_and_all_forms_at_once() {
    for name in ["register", "search", "iframe", "shop", "table"] {
        let snap = snapshot(name);
        let page = Page::from_snapshot(&snap);
        let all = form_doms(&snap, &page);
        assert_eq!(all.len(), page.forms.len(), "{name}");
        for (i, dom) in all.iter().enumerate() {
            assert_eq!(*dom, form_dom(&snap, &page, FormId(i)), "{name}");
            check_shape(&page, FormId(i), dom);
        }
    }
    let snap = snapshot("iframe");
    let page = Page::from_snapshot(&snap);
    let dom = form_dom(&snap, &page, FormId(0));
    assert_eq!(node(&dom, "label", "Card number").label_for, Some(0));
    assert_eq!(form_dom(&snap, &page, FormId(7)), FormDom::default());
}

/// `(depth, what, attributes, box)`, see [`laid_out`].
type Spec<'a> = (usize, &'a str, &'a [(&'a str, &'a str)], [f64; 4]);

/// A one-document snapshot with layout. Nodes are `(depth, what, attributes, box)` in
/// document order, depth 0 being `<html>`; `what` is a tag, or `#` and a text node's value.
/// Elements display as `inline` when they are `b`, `span` or `label`, `block` otherwise.
fn laid_out(nodes: &[Spec<'_>]) -> DomSnapshot {
    let mut strings: Vec<String> = Vec::new();
    let mut intern = |s: &str| -> i64 {
        match strings.iter().position(|x| x == s) {
            Some(i) => i as i64,
            None => {
                strings.push(s.to_string());
                strings.len() as i64 - 1
            }
        }
    };
    let mut doc = DocumentSnapshot {
        document_url: intern("http://127.0.0.1:8765/t.html"),
        title: -1,
        base_url: -1,
        ..Default::default()
    };
    let n = &mut doc.nodes;
    n.parent_index.push(-1);
    n.node_type.push(9);
    n.node_name.push(intern("#document"));
    n.node_value.push(-1);
    n.backend_node_id.push(1);
    n.attributes.push(Vec::new());
    let visible = intern("visible");
    let opaque = intern("1");
    let auto = intern("auto");
    let mut stack: Vec<i64> = vec![0];
    for (i, &(depth, what, attrs, rect)) in nodes.iter().enumerate() {
        let index = i as i64 + 1;
        stack.truncate(depth + 1);
        n.parent_index.push(*stack.last().unwrap_or(&0));
        stack.push(index);
        n.backend_node_id.push(index + 1);
        let display = match what.strip_prefix('#') {
            Some(value) => {
                n.node_type.push(3);
                n.node_name.push(intern("#text"));
                n.node_value.push(intern(value));
                "inline"
            }
            None => {
                n.node_type.push(1);
                n.node_name.push(intern(&what.to_ascii_uppercase()));
                n.node_value.push(-1);
                if matches!(what, "b" | "span" | "label") {
                    "inline"
                } else if what == "input" {
                    "inline-block"
                } else {
                    "block"
                }
            }
        };
        n.attributes.push(
            attrs
                .iter()
                .flat_map(|&(k, v)| [intern(k), intern(v)])
                .collect(),
        );
        let display = intern(display);
        doc.layout.node_index.push(index);
        doc.layout.styles.push(vec![display, visible, opaque, auto]);
        doc.layout.bounds.push(rect.to_vec());
    }
    DomSnapshot {
        documents: vec![doc],
        strings,
    }
}

#[test]
fn inline_formatting_folds_into_captions_and_descriptions_are_linked() {
    const NONE: &[(&str, &str)] = &[];
    let snap = laid_out(&[
        (0, "html", NONE, [0.0, 0.0, 800.0, 400.0]),
        (1, "body", NONE, [0.0, 0.0, 800.0, 400.0]),
        (2, "h1", NONE, [0.0, 0.0, 800.0, 30.0]),
        (3, "#Sign up", NONE, [0.0, 0.0, 80.0, 30.0]),
        (2, "form", NONE, [0.0, 40.0, 800.0, 200.0]),
        (3, "div", NONE, [0.0, 40.0, 800.0, 20.0]),
        (4, "label", &[("for", "dob")], [0.0, 40.0, 100.0, 20.0]),
        (5, "#Date of ", NONE, [0.0, 40.0, 50.0, 20.0]),
        (5, "b", NONE, [50.0, 40.0, 40.0, 20.0]),
        (6, "#birth", NONE, [50.0, 40.0, 40.0, 20.0]),
        (5, "span", &[("class", "req")], [90.0, 40.0, 10.0, 20.0]),
        (6, "#*", NONE, [90.0, 40.0, 10.0, 20.0]),
        (
            4,
            "input",
            &[("id", "dob"), ("name", "dob")],
            [110.0, 40.0, 150.0, 20.0],
        ),
        (4, "span", &[("class", "hint")], [270.0, 40.0, 90.0, 20.0]),
        (5, "#(dd/mm/yyyy)", NONE, [270.0, 40.0, 90.0, 20.0]),
        (3, "div", NONE, [0.0, 70.0, 800.0, 20.0]),
        (4, "label", NONE, [0.0, 70.0, 260.0, 20.0]),
        (5, "#Email ", NONE, [0.0, 70.0, 50.0, 20.0]),
        (
            5,
            "input",
            &[("name", "email"), ("aria-describedby", "email-error")],
            [110.0, 70.0, 150.0, 20.0],
        ),
        (
            3,
            "p",
            &[("id", "email-error"), ("aria-live", "polite")],
            [0.0, 95.0, 300.0, 20.0],
        ),
        (4, "#Not an email ", NONE, [0.0, 95.0, 100.0, 20.0]),
        (4, "b", NONE, [100.0, 95.0, 100.0, 20.0]),
        (5, "#address", NONE, [100.0, 95.0, 100.0, 20.0]),
        (3, "button", NONE, [0.0, 130.0, 60.0, 20.0]),
        (4, "#Send", NONE, [5.0, 130.0, 50.0, 20.0]),
    ]);
    let page = Page::from_snapshot(&snap);
    assert_eq!(page.forms.len(), 1, "{page:#?}");
    let dom = form_dom(&snap, &page, FormId(0));
    check_shape(&page, FormId(0), &dom);
    assert_eq!(
        texts(&dom),
        [
            ("body", ""),
            ("h1", "Sign up"),
            ("form", ""),
            ("div", ""),
            ("label", "Date of birth*"),
            ("input", ""),
            ("span", "(dd/mm/yyyy)"),
            ("div", ""),
            ("label", "Email"),
            ("input", ""),
            ("p", "Not an email address"),
            ("button", "Send"),
        ]
    );
    let dob = node(&dom, "label", "Date of birth*");
    assert_eq!(dob.label_for, Some(0));
    assert_eq!(dob.text_rect.width, 100.0);
    assert_eq!(node(&dom, "label", "Email").label_for, Some(1));
    let error = node(&dom, "p", "Not an email address");
    assert_eq!(error.describes, Some(1));
    assert_eq!(error.aria_live.as_deref(), Some("polite"));
    assert_eq!(node(&dom, "span", "(dd/mm/yyyy)").label_for, None);
}
