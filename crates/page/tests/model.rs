//! The page model on snapshots real Chromium took of the pages in `tests/fixtures/`.

use curio_page::{
    Action, ActionKind, DomSnapshot, Field, Form, FormId, LabelSource, Page, UrlNormalization,
    normalize_url, query_selector_all,
};

const FIXTURES: [&str; 6] = [
    "shop",
    "shop-reload",
    "register",
    "search",
    "table",
    "iframe",
];
const ORIGIN: &str = "http://127.0.0.1:8765";

fn snapshot(name: &str) -> DomSnapshot {
    let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("parse {path}: {e}"))
}

fn page(name: &str) -> Page {
    Page::from_snapshot(&snapshot(name))
}

fn action<'a>(page: &'a Page, locator: &str) -> &'a Action {
    let found: Vec<&Action> = page
        .actions
        .iter()
        .filter(|a| a.target.locator == locator)
        .collect();
    match found.as_slice() {
        [one] => one,
        _ => panic!(
            "expected one action {locator:?}, found {}; actions: {:?}",
            found.len(),
            locators(page)
        ),
    }
}

fn locators(page: &Page) -> Vec<&str> {
    page.actions
        .iter()
        .map(|a| a.target.locator.as_str())
        .collect()
}

fn form_field<'a>(form: &'a Form, name: &str) -> &'a Field {
    form.fields
        .iter()
        .find(|f| f.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no field {name} in form {:?}", form.key))
}

fn labels(field: &Field) -> Vec<(LabelSource, &str)> {
    field
        .labels
        .iter()
        .map(|l| (l.source, l.text.as_str()))
        .collect()
}

#[test]
fn shop_actions_are_the_visible_operable_elements_in_document_order() {
    let page = page("shop");
    assert_eq!(
        locators(&page),
        [
            "link \"Acme logo\"",
            "link \"Home\"",
            "link \"Products\"",
            "link \"🛒 Cart\"",
            "link \"Deals\"",
            "link \"Classic Anvil\"",
            "button \"Add to cart\"",
            "link \"Rocket Skates\"",
            "button \"Add to cart\"",
            "link \"Giant Magnet\"",
            "text \"Latest news\"",
            "text \"Click me\"",
            "tab \"Overview\"",
            "button \"Shipping info\"",
            "textbox \"Notes\"",
            "button \"Rate\"",
            "button \"Subscribe\"",
            "link \"Help centre\"",
            "link \"About us\"",
        ]
    );
    let kinds: Vec<ActionKind> = page.actions.iter().map(|a| a.kind).collect();
    assert_eq!(kinds.iter().filter(|k| **k == ActionKind::Fill).count(), 1);
    assert!(
        kinds
            .iter()
            .all(|k| matches!(k, ActionKind::Click | ActionKind::Fill))
    );

    // Disabled, display:none, closed <details>, <noscript> and <template> content, and the
    // skip link parked at left: -9999px: absent.
    for absent in [
        "Skip to content",
        "Sold out",
        "Hidden deal",
        "Template button",
        "We ship worldwide.",
    ] {
        assert!(
            page.actions.iter().all(|a| a.text != absent),
            "{absent} must not be an action"
        );
    }
    // The spans inside the cart link and the tile are part of those, not actions.
    assert!(page.actions.iter().all(|a| a.tag != "span"));
}

#[test]
fn shop_actions_carry_roles_tags_and_resolved_hrefs() {
    let page = page("shop");
    let products = action(&page, "link \"Products\"");
    assert_eq!(
        (products.kind, products.role.as_str(), products.tag.as_str()),
        (ActionKind::Click, "link", "a")
    );
    // Relative to <base href="/shop/">.
    assert_eq!(
        products.href.as_deref(),
        Some("http://127.0.0.1:8765/shop/products?sort=price&page=2")
    );
    assert_eq!(
        action(&page, "link \"Acme logo\"").href.as_deref(),
        Some("http://127.0.0.1:8765/")
    );
    assert_eq!(
        action(&page, "link \"Classic Anvil\"").href.as_deref(),
        Some("http://127.0.0.1:8765/product/1001")
    );
    assert_eq!(
        action(&page, "link \"About us\"").href.as_deref(),
        Some("https://example.com/about#team")
    );
    assert_eq!(
        action(&page, "link \"Deals\"").target.selector,
        "#main-nav > a:nth-of-type(4)"
    );
    assert_eq!(
        action(&page, "link \"🛒 Cart\"").target.selector,
        "#cart-link"
    );

    let tile = action(&page, "text \"Latest news\"");
    assert_eq!(
        (tile.role.as_str(), tile.tag.as_str(), tile.href.as_deref()),
        ("generic", "div", None)
    );
    assert_eq!(tile.target.selector, "#tile-news");
    assert_eq!(
        action(&page, "text \"Click me\"").target.selector,
        "#clicky"
    );
    assert_eq!(action(&page, "tab \"Overview\"").tag, "div");
    assert_eq!(action(&page, "button \"Shipping info\"").tag, "summary");

    let notes = action(&page, "textbox \"Notes\"");
    assert_eq!(notes.kind, ActionKind::Fill);
    let Some(field) = &notes.field else {
        panic!("a contenteditable Fill action has a field");
    };
    assert_eq!(
        (field.tag.as_str(), field.input_type.as_str()),
        ("div", "contenteditable")
    );
    assert_eq!(labels(field), [(LabelSource::AriaLabel, "Notes")]);

    // Inside an open shadow root: the selector pierces it the way Playwright's CSS does.
    let rate = action(&page, "button \"Rate\"");
    assert_eq!(
        rate.target.selector,
        "html > body > main > product-rating button"
    );
    assert!(rate.field.is_none() && rate.form.is_none());
}

#[test]
fn keys_are_unique_and_survive_a_reload_with_generated_ids() {
    let first_snapshot = snapshot("shop");
    let second_snapshot = snapshot("shop-reload");
    let generated = |s: &DomSnapshot| -> Vec<String> {
        s.strings
            .iter()
            .filter(|x| x.starts_with("ember"))
            .cloned()
            .collect()
    };
    // The page renamed its button and link at random: the two loads really differ.
    assert_eq!(generated(&first_snapshot).len(), 1);
    assert_ne!(generated(&first_snapshot), generated(&second_snapshot));

    let first = Page::from_snapshot(&first_snapshot);
    let second = Page::from_snapshot(&second_snapshot);
    let keys = |p: &Page| -> Vec<String> { p.actions.iter().map(|a| a.key.0.clone()).collect() };
    assert_eq!(keys(&first), keys(&second));
    for key in keys(&first) {
        assert!(
            !key.contains("ember") && !key.contains("react-select"),
            "volatile id in {key}"
        );
    }
    let subscribe = action(&first, "button \"Subscribe\"");
    assert_eq!(
        subscribe.key.0,
        "button|button||Subscribe|html/body/main/button"
    );
    assert_eq!(subscribe.target.selector, "html > body > main > button");
    assert_eq!(
        action(&first, "link \"Help centre\"").target.selector,
        "html > body > main > div:nth-of-type(5) > a"
    );
    assert_eq!(
        action(&first, "link \"🛒 Cart\"").key.0,
        "link|a|#cart-link|🛒 Cart|html/body/header/nav/a"
    );

    for name in FIXTURES {
        let page = page(name);
        let mut all = keys(&page);
        all.sort();
        all.dedup();
        assert_eq!(all.len(), page.actions.len(), "duplicate keys in {name}");
    }
}

#[test]
fn repeated_rows_get_numbered_keys_and_distinct_selectors() {
    let page = page("table");
    let edits: Vec<&Action> = page.actions.iter().filter(|a| a.text == "Edit").collect();
    let keys: Vec<&str> = edits.iter().map(|a| a.key.0.as_str()).collect();
    let base = "button|button||Edit|html/body/table/tbody/tr/td/button";
    assert_eq!(
        keys,
        [base.to_string(), format!("{base}#2"), format!("{base}#3")]
    );
    assert_eq!(
        edits[1].target.selector,
        "#users > tbody > tr:nth-of-type(2) > td:nth-of-type(2) > button:nth-of-type(1)"
    );
    let deletes = page.actions.iter().filter(|a| a.text == "Delete").count();
    assert_eq!(deletes, 3);
    assert_eq!(page.actions.len(), 7);
    assert_eq!(
        action(&page, "link \"New user\"").href.as_deref(),
        Some("http://127.0.0.1:8765/users/new")
    );
}

#[test]
fn every_selector_matches_exactly_its_element() {
    for name in FIXTURES {
        let snapshot = snapshot(name);
        let page = Page::from_snapshot(&snapshot);
        let mut targets: Vec<&curio_page::Target> =
            page.actions.iter().map(|a| &a.target).collect();
        for form in &page.forms {
            targets.extend(form.target.iter());
            targets.extend(form.submit.iter());
            targets.extend(form.fields.iter().map(|f| &f.target));
        }
        assert!(!targets.is_empty());
        for t in targets {
            assert_eq!(
                query_selector_all(&snapshot, t.frame, &t.selector),
                [t.backend_node_id],
                "{name}: selector {:?} ({})",
                t.selector,
                t.locator
            );
        }
    }
}

#[test]
fn registration_form_fields_and_constraints() {
    let page = page("register");
    assert_eq!(page.forms.len(), 1);
    let form = &page.forms[0];
    assert_eq!(form.id, FormId(0));
    assert_eq!(form.name.as_deref(), Some("signup"));
    assert_eq!(form.html_id.as_deref(), Some("signup"));
    assert_eq!(
        form.action.as_deref(),
        Some("http://127.0.0.1:8765/account/create")
    );
    assert_eq!(form.method.as_deref(), Some("post"));
    assert_eq!(form.title.as_deref(), Some("Create your account"));
    assert_eq!(form.key.0, "form|form|#signup|html/body/form");
    assert_eq!(
        form.target.as_ref().map(|t| t.selector.as_str()),
        Some("#signup")
    );
    let Some(submit) = &form.submit else {
        panic!("the form has a submit button");
    };
    assert_eq!(submit.locator, "button \"Create account\"");

    // Hidden, disabled, aria-disabled and disabled-fieldset controls are not fields; the
    // checkbox in the disabled fieldset's first legend is.
    let names: Vec<&str> = form
        .fields
        .iter()
        .filter_map(|f| f.name.as_deref())
        .collect();
    assert_eq!(
        names,
        [
            "email", "fullname", "phone", "password", "city", "zip", "age", "country", "plan",
            "bio", "company", "terms"
        ]
    );

    let email = form_field(form, "email");
    assert_eq!(email.input_type, "email");
    assert_eq!(
        labels(email),
        [
            (LabelSource::For, "Email address"),
            (LabelSource::Placeholder, "you@example.com")
        ]
    );
    assert!(email.required && !email.readonly);
    assert_eq!(email.autocomplete.as_deref(), Some("email"));
    assert_eq!(email.id.as_deref(), Some("email"));
    assert_eq!(email.target.locator, "textbox \"Email address\"");

    let fullname = form_field(form, "fullname");
    assert_eq!(labels(fullname), [(LabelSource::Wrapping, "Full name")]);
    assert_eq!(
        (
            fullname.input_type.as_str(),
            fullname.minlength,
            fullname.maxlength
        ),
        ("text", Some(2), Some(60))
    );

    let phone = form_field(form, "phone");
    assert_eq!(labels(phone), [(LabelSource::AriaLabel, "Phone number")]);
    assert_eq!(phone.pattern.as_deref(), Some("[0-9]{10}"));
    assert_eq!(phone.inputmode.as_deref(), Some("numeric"));
    assert!(!phone.required);

    let password = form_field(form, "password");
    assert_eq!(
        labels(password),
        [(LabelSource::AriaLabelledBy, "Password (8+ characters)")]
    );
    assert_eq!(
        (password.input_type.as_str(), password.minlength),
        ("password", Some(8))
    );

    assert_eq!(
        labels(form_field(form, "city")),
        [(LabelSource::Placeholder, "City")]
    );
    let zip = form_field(form, "zip");
    assert_eq!(labels(zip), [(LabelSource::Title, "Postal code")]);
    assert_eq!(zip.maxlength, Some(10));

    let age = form_field(form, "age");
    assert_eq!(labels(age), [(LabelSource::NearestText, "Age")]);
    assert_eq!(
        (
            age.input_type.as_str(),
            age.min.as_deref(),
            age.max.as_deref(),
            age.step.as_deref()
        ),
        ("number", Some("18"), Some("120"), Some("1"))
    );
    assert_eq!(age.value, "30");
    assert_eq!(age.target.locator, "spinbutton \"Age\"");

    let country = form_field(form, "country");
    assert_eq!(country.input_type, "select-one");
    assert_eq!(labels(country), [(LabelSource::For, "Country")]);
    let options: Vec<(&str, &str, bool, bool)> = country
        .options
        .iter()
        .map(|o| (o.value.as_str(), o.text.as_str(), o.selected, o.disabled))
        .collect();
    assert_eq!(
        options,
        [
            ("", "Choose…", false, false),
            ("fr", "France", false, false),
            ("Germany", "Germany", true, false),
            ("xx", "Atlantis", false, true),
        ]
    );
    assert_eq!(country.value, "Germany");

    let plan = form_field(form, "plan");
    assert_eq!(plan.input_type, "radio");
    assert_eq!(labels(plan), [(LabelSource::NearestText, "Plan")]);
    let radios: Vec<(&str, &str, bool)> = plan
        .options
        .iter()
        .map(|o| (o.value.as_str(), o.text.as_str(), o.selected))
        .collect();
    assert_eq!(
        radios,
        [
            ("free", "Free", true),
            ("pro", "Pro", false),
            ("team", "Team", false)
        ]
    );
    assert_eq!(plan.value, "free");
    assert!(plan.checked);

    let bio = form_field(form, "bio");
    assert_eq!(
        (
            bio.tag.as_str(),
            bio.input_type.as_str(),
            bio.value.as_str()
        ),
        ("textarea", "textarea", "Hello there")
    );

    let company = form_field(form, "company");
    assert_eq!(
        (company.input_type.as_str(), company.checked),
        ("checkbox", false)
    );
    assert_eq!(
        labels(company),
        [(LabelSource::Wrapping, "Company account")]
    );

    let terms = form_field(form, "terms");
    assert_eq!(labels(terms), [(LabelSource::For, "I accept the terms")]);
    assert_eq!((terms.value.as_str(), terms.required), ("yes", true));
}

#[test]
fn registration_actions_skip_hidden_disabled_and_duplicate_elements() {
    let page = page("register");
    assert_eq!(
        locators(&page),
        [
            "textbox \"Email address\"",
            "textbox \"Full name\"",
            "textbox \"Phone number\"",
            "textbox \"Password (8+ characters)\"",
            "textbox \"City\"",
            "textbox \"Postal code\"",
            "spinbutton \"Age\"",
            "combobox \"Country\"",
            "radio \"Free\"",
            "radio \"Pro\"",
            "radio \"Team\"",
            "textbox \"About you\"",
            "checkbox \"Company account\"",
            "checkbox \"I accept the terms\"",
            "button \"Create account\"",
            "button \"Reset\"",
        ]
    );
    assert!(page.actions.iter().all(|a| a.form == Some(FormId(0))));
    assert!(
        page.actions
            .iter()
            .all(|a| !a.text.starts_with("Hidden by"))
    );
    assert!(
        page.actions
            .iter()
            .all(|a| a.tag != "label" && a.tag != "span")
    );

    let kinds = |kind: ActionKind| page.actions.iter().filter(|a| a.kind == kind).count();
    assert_eq!(
        (
            kinds(ActionKind::Fill),
            kinds(ActionKind::Select),
            kinds(ActionKind::Check),
            kinds(ActionKind::Click)
        ),
        (8, 1, 5, 2)
    );

    // Each radio is its own Check action, with its own label and the group's options.
    let pro = action(&page, "radio \"Pro\"");
    assert_eq!((pro.kind, pro.role.as_str()), (ActionKind::Check, "radio"));
    let Some(field) = &pro.field else {
        panic!("a Check action has a field");
    };
    assert_eq!((field.value.as_str(), field.checked), ("pro", false));
    assert_eq!(field.options.len(), 3);
    assert_eq!(labels(field), [(LabelSource::Wrapping, "Pro")]);
    assert!(
        action(&page, "radio \"Free\"")
            .field
            .as_ref()
            .is_some_and(|f| f.checked)
    );

    let country = action(&page, "combobox \"Country\"");
    assert_eq!(
        (country.kind, country.target.selector.as_str()),
        (ActionKind::Select, "#country")
    );
    let email = action(&page, "textbox \"Email address\"");
    assert_eq!(
        email.key.0,
        "textbox|input|#email|Email address|html/body/form/div/input"
    );
    assert_eq!(
        action(&page, "textbox \"Postal code\"").target.selector,
        "input[name=\"zip\"]"
    );
    let submit = action(&page, "button \"Create account\"");
    assert_eq!(submit.target.selector, "#signup > button:nth-of-type(3)");
    assert_eq!(submit.target.rect.width, 106.390625);
}

#[test]
fn fields_outside_a_form_with_a_search_button_form_an_implicit_form() {
    let page = page("search");
    assert_eq!(page.forms.len(), 1);
    let form = &page.forms[0];
    assert!(form.target.is_none() && form.action.is_none() && form.method.is_none());
    assert_eq!(form.key.0, "form|implicit|html/body/div/section/div");
    assert_eq!(form.title.as_deref(), Some("Find a product"));
    let Some(submit) = &form.submit else {
        panic!("an implicit form has its button");
    };
    assert_eq!(submit.locator, "button \"Search\"");
    assert_eq!(submit.selector, "#app > section > div > span");

    let names: Vec<&str> = form
        .fields
        .iter()
        .filter_map(|f| f.name.as_deref())
        .collect();
    assert_eq!(names, ["q", "category"]);
    let q = form_field(form, "q");
    assert_eq!(q.input_type, "search");
    assert_eq!(
        labels(q),
        [
            (LabelSource::Placeholder, "Search products"),
            (LabelSource::NearestText, "Find a product")
        ]
    );

    for locator in [
        "searchbox \"Search products\"",
        "combobox \"Category\"",
        "button \"Search\"",
    ] {
        assert_eq!(action(&page, locator).form, Some(FormId(0)), "{locator}");
    }
    assert_eq!(action(&page, "button \"Search\"").tag, "span");
    // The newsletter box only reaches the Search button by climbing out of its own
    // section: it is not part of the search form.
    let newsletter = action(&page, "textbox \"Your email\"");
    assert_eq!(newsletter.form, None);
    let Some(field) = &newsletter.field else {
        panic!("a Fill action has a field");
    };
    assert_eq!(
        labels(field),
        [
            (LabelSource::Placeholder, "Your email"),
            (LabelSource::NearestText, "Newsletter")
        ]
    );
    assert_eq!(action(&page, "link \"Home\"").form, None);
}

#[test]
fn same_origin_iframe_actions_follow_the_main_document_with_their_frame() {
    let page = page("iframe");
    assert_eq!(
        locators(&page),
        [
            "link \"Back to cart\"",
            "link \"Contact us\"",
            "textbox \"Card number\"",
            "button \"Pay now\"",
            "link \"Payment terms\"",
        ]
    );
    let frames: Vec<usize> = page.actions.iter().map(|a| a.target.frame).collect();
    assert_eq!(frames, [0, 0, 1, 1, 1]);
    // srcdoc documents resolve against the parent's base URL.
    assert_eq!(
        action(&page, "link \"Payment terms\"").href.as_deref(),
        Some("http://127.0.0.1:8765/terms")
    );
    let card = action(&page, "textbox \"Card number\"");
    assert_eq!(
        card.key.0,
        "textbox|input|#card|Card number|html/body/iframe/html/body/form/input"
    );
    assert_eq!(card.target.selector, "#card");
    // Rects are in the frame's own coordinates.
    assert_eq!((card.target.rect.x, card.target.rect.y), (95.984375, 8.0));

    assert_eq!(page.forms.len(), 1);
    let form = &page.forms[0];
    assert_eq!(form.action.as_deref(), Some("http://127.0.0.1:8765/pay"));
    assert_eq!(form.method.as_deref(), Some("post"));
    assert_eq!(form.submit.as_ref().map(|s| s.frame), Some(1));
    assert_eq!(
        form_field(form, "card").autocomplete.as_deref(),
        Some("cc-number")
    );
    assert_eq!(card.form, Some(FormId(0)));

    assert!(
        page.texts
            .iter()
            .any(|t| t.frame == 1 && t.text == "Card number")
    );
    assert!(
        page.texts
            .iter()
            .any(|t| t.frame == 0 && t.text == "Need help?")
    );
    // The cross-origin frame (localhost) contributes nothing.
    assert!(page.actions.iter().all(|a| a.text != "Edit"));
}

#[test]
fn texts_are_visible_collapsed_and_have_boxes() {
    let page = page("shop");
    assert!(!page.texts.is_empty());
    for t in &page.texts {
        assert!(!t.text.trim().is_empty() && t.text == t.text.trim());
        assert!(t.rect.width > 0.0 && t.rect.height > 0.0, "{t:?}");
        assert_eq!(t.frame, 0);
    }
    let find = |s: &str| page.texts.iter().find(|t| t.text == s);
    let intro = find("Find the best anvils and rockets.")
        .unwrap_or_else(|| panic!("collapsed paragraph text"));
    assert_eq!((intro.rect.x, intro.rect.y), (0.0, 115.875));
    assert!(
        find("Rate this shop:").is_some(),
        "shadow DOM text is visible text"
    );
    for hidden in [
        "Skip to content",
        "Hidden deal",
        "We ship worldwide.",
        "<p>Please enable JavaScript</p>",
        "window.analytics = [];",
    ] {
        assert!(find(hidden).is_none(), "{hidden} is not visible");
    }

    let register = Page::from_snapshot(&snapshot("register"));
    for hidden in [
        "Hidden by display",
        "Hidden by opacity",
        "Hidden by visibility",
    ] {
        assert!(
            register.texts.iter().all(|t| t.text != hidden),
            "{hidden} is not visible"
        );
    }
    assert!(register.texts.iter().any(|t| t.text == "Create account"));
}

#[test]
fn tag_sequence_is_the_body_structure_without_scripts() {
    let page = page("shop");
    assert_eq!(
        &page.tag_sequence[..6],
        ["html", "body", "a", "header", "a", "img"]
    );
    for excluded in [
        "head", "title", "meta", "base", "style", "script", "noscript", "template",
    ] {
        assert!(
            !page.tag_sequence.iter().any(|t| t == excluded),
            "{excluded} in tag sequence"
        );
    }
    assert!(page.tag_sequence.iter().any(|t| t == "product-rating"));
    assert_eq!(page.tag_sequence.last().map(String::as_str), Some("a"));

    let table = Page::from_snapshot(&snapshot("table"));
    assert_eq!(
        table.tag_sequence.join(" "),
        "html body h1 table thead tr th th tbody tr td td button button tr td td button button \
         tr td td button button p a"
    );
}

#[test]
fn merged_tag_sequence_keeps_the_first_of_repeated_siblings() {
    let table = page("table");
    // Three identical rows become one, two `th` one `th`, Edit and Delete one `button`;
    // the two cells of a row differ (text vs buttons), so both stay.
    assert_eq!(
        table.merged_tag_sequence.join(" "),
        "html body h1 table thead tr th tbody tr td td button p a"
    );
    assert_eq!(table.state_tags(true), table.merged_tag_sequence.as_slice());
    assert_eq!(table.state_tags(false), table.tag_sequence.as_slice());

    // Merged is a subsequence of the full sequence, on every fixture.
    for name in FIXTURES {
        let p = page(name);
        let mut full = p.tag_sequence.iter();
        for tag in &p.merged_tag_sequence {
            assert!(full.any(|t| t == tag), "{name}: {tag} out of order");
        }
        assert!(!p.merged_tag_sequence.is_empty(), "{name}");
        assert!(p.merged_tag_sequence.len() <= p.tag_sequence.len());
    }
}

/// A one-document snapshot of the tree given as `(depth, name)` in document order; names
/// starting with `#` are text nodes. Depth 0 is the `<html>` element.
fn tree(nodes: &[(usize, &str)]) -> DomSnapshot {
    let mut strings = vec![
        "http://127.0.0.1:8765/t.html".to_string(),
        "#document".to_string(),
    ];
    let mut parent_index = vec![-1i64];
    let mut node_type = vec![9i64];
    let mut node_name = vec![1i64];
    let mut stack: Vec<i64> = vec![0];
    for &(depth, name) in nodes {
        stack.truncate(depth + 1);
        parent_index.push(*stack.last().unwrap_or(&0));
        let text = name.starts_with('#');
        node_type.push(if text { 3 } else { 1 });
        strings.push(if text {
            "#text".to_string()
        } else {
            name.to_ascii_uppercase()
        });
        node_name.push(strings.len() as i64 - 1);
        stack.push(parent_index.len() as i64 - 1);
    }
    let mut snapshot = DomSnapshot {
        strings,
        ..DomSnapshot::default()
    };
    let mut doc = curio_page::DocumentSnapshot {
        document_url: 0,
        ..Default::default()
    };
    doc.nodes.parent_index = parent_index;
    doc.nodes.node_type = node_type;
    doc.nodes.node_name = node_name;
    snapshot.documents.push(doc);
    snapshot
}

/// A list page with `rows` cards, each a `li` with a title link, a nested list of `tags`
/// badges and a button, separated by whitespace text; a script in the middle.
fn list_page(rows: usize, tags: usize) -> DomSnapshot {
    let mut nodes = vec![(0, "html"), (1, "body"), (2, "h1"), (2, "ul")];
    for r in 0..rows {
        nodes.push((3, "#ws"));
        nodes.push((3, "li"));
        nodes.push((4, "a"));
        nodes.push((5, "#title"));
        nodes.push((4, "ul"));
        for _ in 0..tags {
            nodes.push((5, "li"));
            nodes.push((6, "span"));
        }
        nodes.push((4, "button"));
        if r == 1 {
            nodes.push((3, "script"));
            nodes.push((4, "div"));
        }
    }
    nodes.extend([(2, "footer"), (3, "a"), (3, "a")]);
    tree(&nodes)
}

#[test]
fn merged_tag_sequence_is_the_same_for_3_and_30_rows() {
    let three = Page::from_snapshot(&list_page(3, 2));
    let thirty = Page::from_snapshot(&list_page(30, 2));
    let one = "html body h1 ul li a ul li span button footer a";
    assert_eq!(three.merged_tag_sequence.join(" "), one);
    assert_eq!(thirty.merged_tag_sequence, three.merged_tag_sequence);
    assert_ne!(thirty.tag_sequence, three.tag_sequence);
    assert_eq!(three.tag_sequence.len(), 4 + 3 * 8 + 3);

    // Rows whose nested lists differ only in length fold too (shapes are compared folded).
    let mixed = tree(&[
        (0, "html"),
        (1, "ul"),
        (2, "li"),
        (3, "b"),
        (3, "b"),
        (2, "li"),
        (3, "b"),
        (2, "li"),
        (3, "i"),
    ]);
    assert_eq!(
        Page::from_snapshot(&mixed).merged_tag_sequence.join(" "),
        "html ul li b li i"
    );
    // Only consecutive siblings: a different one in between starts a new run.
    let interrupted = tree(&[(0, "html"), (1, "p"), (1, "div"), (1, "p"), (1, "p")]);
    assert_eq!(
        Page::from_snapshot(&interrupted)
            .merged_tag_sequence
            .join(" "),
        "html p div p"
    );
    assert!(
        Page::from_snapshot(&tree(&[]))
            .merged_tag_sequence
            .is_empty()
    );
}

#[test]
fn page_url_title_and_normalized_url() {
    let page = page("shop");
    assert_eq!(page.url, format!("{ORIGIN}/shop.html"));
    assert_eq!(page.normalized_url, format!("{ORIGIN}/shop.html"));
    assert_eq!(page.title, "Acme Shop — Home");
    let products = action(&page, "link \"Products\"")
        .href
        .clone()
        .unwrap_or_default();
    assert_eq!(
        normalize_url(&products, &UrlNormalization::default()),
        format!("{ORIGIN}/shop/products?page&sort")
    );
    let anvil = action(&page, "link \"Classic Anvil\"")
        .href
        .clone()
        .unwrap_or_default();
    let skates = action(&page, "link \"Rocket Skates\"")
        .href
        .clone()
        .unwrap_or_default();
    let how = UrlNormalization::default();
    assert_eq!(normalize_url(&anvil, &how), normalize_url(&skates, &how));
    assert_eq!(
        normalize_url(&anvil, &how),
        format!("{ORIGIN}/product/{{n}}")
    );
    assert_eq!(Page::from_snapshot(&snapshot("iframe")).title, "Checkout");
}

#[test]
fn the_model_serializes_and_round_trips() {
    let page = page("register");
    let json = serde_json::to_string(&page).unwrap_or_else(|e| panic!("serialize: {e}"));
    let back: Page = serde_json::from_str(&json).unwrap_or_else(|e| panic!("deserialize: {e}"));
    assert_eq!(back, page);
}

/// Applies `f` to every integer in the JSON, recursively.
fn map_integers(value: &mut serde_json::Value, f: &dyn Fn(i64) -> i64) {
    match value {
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                *value = serde_json::Value::from(f(i));
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|v| map_integers(v, f)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|v| map_integers(v, f)),
        _ => {}
    }
}

type ArrayEdit = dyn Fn(&mut Vec<serde_json::Value>);

/// Applies `f` to every array in the JSON, innermost first.
fn map_arrays(value: &mut serde_json::Value, f: &ArrayEdit) {
    match value {
        serde_json::Value::Array(items) => {
            items.iter_mut().for_each(|v| map_arrays(v, f));
            f(items);
        }
        serde_json::Value::Object(map) => map.values_mut().for_each(|v| map_arrays(v, f)),
        _ => {}
    }
}

#[test]
fn malformed_snapshots_never_panic() {
    assert_eq!(
        Page::from_snapshot(&DomSnapshot::default()).actions.len(),
        0
    );
    assert_eq!(Page::from_snapshot(&DomSnapshot::default()).url, "");

    let integer_edits: [&dyn Fn(i64) -> i64; 5] =
        [&|i| i + 1_000_000, &|_| -1, &|_| 0, &|i| i / 2, &|i| -i];
    let array_edits: [&ArrayEdit; 4] = [
        &|a| a.truncate(a.len() / 2),
        &|a| a.reverse(),
        &|a| a.retain(|v| !v.is_number() || v.as_i64().is_some_and(|i| i % 3 != 0)),
        &|a| a.clear(),
    ];
    for name in FIXTURES {
        let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
        let original: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
        let mut variants = Vec::new();
        for edit in integer_edits {
            let mut v = original.clone();
            map_integers(&mut v, edit);
            variants.push(v);
        }
        for edit in array_edits {
            let mut v = original.clone();
            map_arrays(&mut v, edit);
            variants.push(v);
        }
        let count = variants.len();
        let mut parsed = 0;
        for (i, v) in variants.into_iter().enumerate() {
            // An edit that broke the schema itself (say, a negative count where an unsigned
            // one goes) is the browser crate's problem, not the model's.
            let Ok(snapshot) = serde_json::from_value::<DomSnapshot>(v) else {
                continue;
            };
            parsed += 1;
            let page = Page::from_snapshot(&snapshot);
            for a in &page.actions {
                let _ = query_selector_all(&snapshot, a.target.frame, &a.target.selector);
            }
            assert!(page.actions.len() < 1000, "{name} variant {i}");
        }
        assert_eq!(
            parsed, count,
            "{name}: every variant should still deserialize"
        );
    }
}
