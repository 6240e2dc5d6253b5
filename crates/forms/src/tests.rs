//! Behaviour of the public API on hand-built forms: no browser, many seeds.

use curio_page::{ElementKey, Field, Form, FormId, Label, LabelSource, Rect, SelectOption, Target};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::constraints::accepts;
use crate::filler::vary;
use crate::scalar::{Scale, days_from_civil};
use crate::{
    Dictionary, FieldValue, FormFill, FormFiller, HeuristicFiller, RangeRole, Semantic, Variant,
    classify, range_role,
};

const TODAY: (i32, u32, u32) = (2025, 6, 15);

/// A select named `name`, labelled `label`, with `options` (value, text).
fn select(name: &str, label: &str, options: &[(&str, &str)]) -> Field {
    input("select-one").name(name).label(label).options(options)
}

pub(crate) fn input(input_type: &str) -> Field {
    let tag = match input_type {
        "textarea" => "textarea",
        "select-one" | "select-multiple" => "select",
        _ => "input",
    };
    Field {
        target: Target {
            backend_node_id: 1,
            frame: 0,
            selector: "#f".into(),
            locator: "textbox".into(),
            rect: Rect::default(),
        },
        tag: tag.into(),
        input_type: input_type.into(),
        name: None,
        id: None,
        labels: vec![],
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

/// Chainable setters for hand-built fields.
pub(crate) trait Build: Sized {
    fn label(self, text: &str) -> Self;
    fn name(self, name: &str) -> Self;
    fn placeholder(self, text: &str) -> Self;
    fn autocomplete(self, value: &str) -> Self;
    fn inputmode(self, value: &str) -> Self;
    fn required(self) -> Self;
    fn readonly(self) -> Self;
    fn min(self, v: &str) -> Self;
    fn max(self, v: &str) -> Self;
    fn step(self, v: &str) -> Self;
    fn minlength(self, n: u32) -> Self;
    fn maxlength(self, n: u32) -> Self;
    fn pattern(self, p: &str) -> Self;
    fn options(self, options: &[(&str, &str)]) -> Self;
    fn checked(self) -> Self;
}

impl Build for Field {
    fn label(mut self, text: &str) -> Self {
        self.labels.push(Label {
            text: text.into(),
            source: LabelSource::For,
        });
        self
    }
    fn name(mut self, name: &str) -> Self {
        self.name = Some(name.into());
        self
    }
    fn placeholder(mut self, text: &str) -> Self {
        self.placeholder = Some(text.into());
        self
    }
    fn autocomplete(mut self, value: &str) -> Self {
        self.autocomplete = Some(value.into());
        self
    }
    fn inputmode(mut self, value: &str) -> Self {
        self.inputmode = Some(value.into());
        self
    }
    fn required(mut self) -> Self {
        self.required = true;
        self
    }
    fn readonly(mut self) -> Self {
        self.readonly = true;
        self
    }
    fn min(mut self, v: &str) -> Self {
        self.min = Some(v.into());
        self
    }
    fn max(mut self, v: &str) -> Self {
        self.max = Some(v.into());
        self
    }
    fn step(mut self, v: &str) -> Self {
        self.step = Some(v.into());
        self
    }
    fn minlength(mut self, n: u32) -> Self {
        self.minlength = Some(n);
        self
    }
    fn maxlength(mut self, n: u32) -> Self {
        self.maxlength = Some(n);
        self
    }
    fn pattern(mut self, p: &str) -> Self {
        self.pattern = Some(p.into());
        self
    }
    fn options(mut self, options: &[(&str, &str)]) -> Self {
        self.options = options
            .iter()
            .map(|(value, text)| SelectOption {
                value: value.to_string(),
                text: text.to_string(),
                selected: false,
                disabled: false,
            })
            .collect();
        self
    }
    fn checked(mut self) -> Self {
        self.checked = true;
        self
    }
}

pub(crate) fn form(fields: Vec<Field>) -> Form {
    Form {
        id: FormId(0),
        key: ElementKey("form|test".into()),
        target: None,
        name: None,
        html_id: None,
        action: Some("http://127.0.0.1/submit".into()),
        method: Some("post".into()),
        title: None,
        fields,
        submit: None,
    }
}

fn filler() -> HeuristicFiller {
    HeuristicFiller::new(Dictionary::empty(), TODAY)
}

fn fill(
    filler: &mut HeuristicFiller,
    form: &Form,
    variant: Variant,
    seed: u64,
) -> Option<FormFill> {
    filler.fill(form, variant, &mut ChaCha8Rng::seed_from_u64(seed))
}

fn text_of(fill: &FormFill, field: usize) -> String {
    match fill.value_of(field) {
        Some(FieldValue::Text(s)) => s.clone(),
        other => panic!("field {field}: expected text, got {other:?}"),
    }
}

fn today() -> i64 {
    days_from_civil(2025, 6, 15)
}

fn date(s: &str) -> i64 {
    Scale::Date
        .parse(s)
        .unwrap_or_else(|| panic!("not an ISO date: {s:?}")) as i64
}

// ---- Semantics ----

#[test]
fn classifies_typical_labels() {
    let cases: Vec<(Field, Semantic)> = vec![
        (input("text").label("E-mail address"), Semantic::Email),
        (input("tel").label("Your phone"), Semantic::Phone),
        (input("text").label("Your phone"), Semantic::Phone),
        (
            input("text").label("ZIP / Postal code"),
            Semantic::PostalCode,
        ),
        (input("text").name("first_name"), Semantic::FirstName),
        (input("text").name("lastName"), Semantic::LastName),
        (input("text").label("Check-in"), Semantic::Date),
        (input("date").label("Check-out"), Semantic::Date),
        (input("number").label("Hours spent"), Semantic::Hours),
        (input("text").label("Hours spent"), Semantic::Hours),
        (
            input("password").label("Confirm password"),
            Semantic::PasswordConfirm,
        ),
        (
            input("password").name("password2"),
            Semantic::PasswordConfirm,
        ),
        (input("password").label("Password"), Semantic::Password),
        (input("text").placeholder("e.g. Paris"), Semantic::City),
        (
            input("text").autocomplete("postal-code"),
            Semantic::PostalCode,
        ),
        (
            input("text").autocomplete("shipping address-level2"),
            Semantic::City,
        ),
        (input("email").label("Contact"), Semantic::Email),
        (
            input("email").label("Confirm e-mail"),
            Semantic::EmailConfirm,
        ),
        (input("text").label("Company name"), Semantic::Company),
        (input("text").label("Full name"), Semantic::PersonName),
        (input("text").label("Name"), Semantic::PersonName),
        (input("text").label("Username"), Semantic::Username),
        (
            input("text").label("Street address"),
            Semantic::StreetAddress,
        ),
        (
            input("text").label("Address line 2"),
            Semantic::AddressLine2,
        ),
        (input("text").label("State / Province"), Semantic::Region),
        (input("select-one").label("Country"), Semantic::Country),
        (input("text").label("Card number"), Semantic::CardNumber),
        (input("text").label("Expiry (MM/YY)"), Semantic::CardExpiry),
        (input("text").label("CVV"), Semantic::Cvv),
        (input("number").label("Quantity"), Semantic::Quantity),
        (
            input("number").label("Number of guests"),
            Semantic::Quantity,
        ),
        (input("text").label("Price ($)"), Semantic::Price),
        (input("number").label("Discount (%)"), Semantic::Percentage),
        (input("number").min("1900").max("2100"), Semantic::Year),
        (input("number"), Semantic::Integer),
        (input("number").step("0.01"), Semantic::Decimal),
        (input("date").label("Date of birth"), Semantic::BirthDate),
        (input("date").label("Expiry date"), Semantic::Date),
        (input("month").label("Expiry"), Semantic::CardExpiry),
        (input("text").label("Departure airport"), Semantic::City),
        (input("search").name("q"), Semantic::Search),
        (input("text").name("q"), Semantic::Search),
        (input("textarea").label("Your message"), Semantic::Message),
        (input("textarea"), Semantic::Message),
        (input("text").label("Website"), Semantic::Url),
        (
            input("text").placeholder("you@example.com"),
            Semantic::Email,
        ),
        (input("text").placeholder("DD/MM/YYYY"), Semantic::Date),
        (input("text").inputmode("numeric"), Semantic::Integer),
        (input("text").label("Subject"), Semantic::Title),
        (
            input("checkbox").label("I agree to the Terms"),
            Semantic::Consent,
        ),
        (input("checkbox").label("Send me news"), Semantic::Toggle),
        (input("radio").label("Size"), Semantic::Choice),
        (input("color"), Semantic::Color),
        (input("time").label("Pickup time"), Semantic::Time),
        (input("text").label("Prénom"), Semantic::FirstName),
        (input("text").name("emailAddress"), Semantic::Email),
        (input("text").name("zipcode"), Semantic::PostalCode),
        (input("text"), Semantic::Text),
    ];
    for (field, want) in cases {
        assert_eq!(
            classify(&field),
            want,
            "{:?}",
            (&field.labels, &field.name, &field.placeholder)
        );
    }
}

#[test]
fn semantic_names_are_stable_and_parse_back() {
    assert_eq!(Semantic::PostalCode.as_str(), "postal_code");
    assert_eq!(Semantic::PasswordConfirm.as_str(), "password_confirm");
    for &sem in Semantic::ALL {
        assert_eq!(sem.as_str().parse::<Semantic>(), Ok(sem));
        assert_eq!(
            serde_json::to_string(&sem).unwrap(),
            format!("\"{}\"", sem.as_str())
        );
    }
    assert_eq!("Postal-Code".parse::<Semantic>(), Ok(Semantic::PostalCode));
    assert!("nope".parse::<Semantic>().is_err());
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.as_str()).collect();
    assert_eq!(
        names,
        ["valid", "empty", "too_long", "wrong_type", "boundary"]
    );
}

#[test]
fn range_roles_from_words() {
    let cases = [
        (input("date").label("Start date"), RangeRole::Start),
        (input("date").label("End date"), RangeRole::End),
        (input("date").label("Check-in"), RangeRole::Start),
        (input("date").label("Check-out"), RangeRole::End),
        (input("date").label("From"), RangeRole::Start),
        (input("date").label("To"), RangeRole::End),
        (input("date").label("Departure"), RangeRole::Start),
        (input("date").label("Return"), RangeRole::End),
        (input("date").label("Due date"), RangeRole::End),
        (input("date").label("Valid until"), RangeRole::End),
        (input("date").name("date_from"), RangeRole::Start),
        (input("date").name("dateTo"), RangeRole::End),
        (input("number").label("Min price"), RangeRole::Start),
        (input("number").label("Maximum price"), RangeRole::End),
        (input("text").label("Add to cart"), RangeRole::None),
        (input("date").label("Date"), RangeRole::None),
        (input("date").label("Start and end"), RangeRole::None),
    ];
    for (field, want) in cases {
        assert_eq!(range_role(&field), want, "{:?}", field.labels);
    }
}

// ---- Valid fills ----

/// A registration-and-booking form touching most semantics.
fn big_form() -> Form {
    form(vec![
        input("text").label("First name").required(),
        input("text").label("Last name").required(),
        input("email").label("E-mail").required(),
        input("email").label("Confirm e-mail").required(),
        input("password").label("Password").required().minlength(8),
        input("password").label("Confirm password").required(),
        input("tel").label("Phone"),
        input("text")
            .label("ZIP code")
            .pattern("[0-9]{5}")
            .maxlength(5),
        input("text").label("City"),
        input("select-one").label("Country").options(&[
            ("", "Choose a country"),
            ("FR", "France"),
            ("US", "United States"),
            ("DE", "Germany"),
        ]),
        input("date").label("Check-in").required(),
        input("date").label("Check-out").required(),
        input("number").label("Guests").min("1").max("8"),
        input("text").label("Hours spent"),
        input("textarea").label("Message").maxlength(500),
        input("radio")
            .label("Room")
            .options(&[("single", "Single"), ("double", "Double")]),
        input("checkbox").label("I accept the terms").required(),
        input("checkbox").label("Newsletter"),
        input("hidden").name("csrf"),
        input("submit"),
        input("text").label("Reference").readonly(),
    ])
}

#[test]
fn valid_fill_covers_every_fillable_field_and_passes_constraints() {
    let f = big_form();
    let mut filler = filler();
    for seed in 0..200 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        assert_eq!(fill.broken, None);
        let filled: Vec<usize> = fill.values.iter().map(|v| v.field).collect();
        assert_eq!(filled, (0..18).collect::<Vec<_>>(), "seed {seed}");
        for v in &fill.values {
            if let FieldValue::Text(s) = &v.value {
                assert!(
                    accepts(&f.fields[v.field], s),
                    "seed {seed} field {}: {s:?}",
                    v.field
                );
            }
        }
        assert!(text_of(&fill, 2).contains('@'));
        assert_eq!(text_of(&fill, 7).len(), 5);
        assert!(text_of(&fill, 7).bytes().all(|b| b.is_ascii_digit()));
        assert!(
            matches!(fill.value_of(9), Some(FieldValue::Select(v)) if !v.is_empty()),
            "seed {seed}"
        );
        assert!(
            matches!(fill.value_of(15), Some(FieldValue::Select(v)) if v == "single" || v == "double")
        );
        assert_eq!(fill.value_of(16), Some(&FieldValue::Check(true)));
        assert!(matches!(fill.value_of(17), Some(FieldValue::Check(_))));
        let guests: i64 = text_of(&fill, 12).parse().unwrap();
        assert!((1..=5).contains(&guests), "{guests}");
        let hours: f64 = text_of(&fill, 13).parse().unwrap();
        assert!(hours > 0.0 && hours <= 24.0);
        let name = text_of(&fill, 0);
        assert!(name.chars().all(char::is_alphabetic), "{name}");
    }
}

#[test]
fn ranges_are_ordered() {
    let forms = [
        form(vec![
            input("date").label("Check-in"),
            input("date").label("Check-out"),
        ]),
        form(vec![
            input("text").label("Start date"),
            input("text").label("End date"),
        ]),
        form(vec![
            input("date").label("Arrival"),
            input("date").label("Departure"),
        ]),
        form(vec![
            input("date").label("Departure").min("2025-06-15"),
            input("date").label("Return").max("2025-12-31"),
        ]),
    ];
    let mut filler = filler();
    for (n, f) in forms.iter().enumerate() {
        for seed in 0..200 {
            let fill = fill(&mut filler, f, Variant::Valid, seed).unwrap();
            let start = date(&text_of(&fill, 0));
            let end = date(&text_of(&fill, 1));
            assert!(end > start, "form {n} seed {seed}: {start} .. {end}");
            if n != 1 {
                // Bookings lie ahead.
                assert!(start > today(), "form {n} seed {seed}");
            }
        }
    }
}

#[test]
fn min_max_pairs_and_times_are_ordered() {
    let f = form(vec![
        input("number").label("Min price").min("0").max("1000"),
        input("number").label("Max price").min("0").max("1000"),
        input("time").label("Start time").step("900"),
        input("time").label("End time").step("900"),
        input("select-one").label("Year from").options(&[
            ("", "Any"),
            ("2019", "2019"),
            ("2020", "2020"),
            ("2021", "2021"),
        ]),
        input("select-one").label("Year to").options(&[
            ("", "Any"),
            ("2019", "2019"),
            ("2020", "2020"),
            ("2021", "2021"),
        ]),
    ]);
    let mut filler = filler();
    for seed in 0..200 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        let lo: f64 = text_of(&fill, 0).parse().unwrap();
        let hi: f64 = text_of(&fill, 1).parse().unwrap();
        assert!(lo <= hi, "seed {seed}: {lo} > {hi}");
        let t0 = Scale::Time.parse(&text_of(&fill, 2)).unwrap();
        let t1 = Scale::Time.parse(&text_of(&fill, 3)).unwrap();
        assert!(t1 > t0, "seed {seed}");
        assert_eq!(t0 % 900.0, 0.0);
        let (Some(FieldValue::Select(y0)), Some(FieldValue::Select(y1))) =
            (fill.value_of(4), fill.value_of(5))
        else {
            panic!("selects");
        };
        assert!(
            y0.parse::<i32>().unwrap() <= y1.parse::<i32>().unwrap(),
            "{y0} {y1}"
        );
    }
}

#[test]
fn confirmations_repeat_their_original() {
    let f = form(vec![
        input("email").label("Email"),
        input("text").label("Repeat email"),
        input("password").label("Current password"),
        input("password").label("New password").minlength(10),
        input("password").label("Confirm new password"),
    ]);
    let reversed = form(vec![
        input("password").label("Repeat password").required(),
        input("password").label("Password").minlength(16),
    ]);
    let mut filler = filler();
    for seed in 0..100 {
        let main = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        assert_eq!(text_of(&main, 0), text_of(&main, 1));
        assert_eq!(text_of(&main, 3), text_of(&main, 4));
        assert!(text_of(&main, 3).chars().count() >= 10);
        let rev = fill(&mut filler, &reversed, Variant::Valid, seed).unwrap();
        assert_eq!(
            text_of(&rev, 0),
            text_of(&rev, 1),
            "confirmation before original"
        );
        assert!(text_of(&rev, 1).chars().count() >= 16);
    }
}

/// What the browser accepts for a number input, written independently of the crate.
fn number_ok(value: &str, min: Option<f64>, max: Option<f64>, step: Option<f64>) -> bool {
    let Ok(v) = value.parse::<f64>() else {
        return false;
    };
    if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
        return false;
    }
    match step {
        None => true,
        Some(step) => {
            let k = (v - min.unwrap_or(0.0)) / step;
            (k - k.round()).abs() < 1e-6
        }
    }
}

#[test]
fn numbers_honour_min_max_step_over_many_seeds() {
    let labels = [
        "Quantity",
        "Price",
        "Discount %",
        "Hours",
        "Age",
        "Year",
        "",
        "Amount",
    ];
    let steps = [
        None,
        Some("1"),
        Some("0.5"),
        Some("0.01"),
        Some("5"),
        Some("3"),
        Some("any"),
    ];
    let mut filler = filler();
    for seed in 0..600u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let label = labels[rng.random_range(0..labels.len())];
        let step = steps[rng.random_range(0..steps.len())];
        let min = rng.random_bool(0.7).then(|| rng.random_range(-50..50));
        let max = rng
            .random_bool(0.7)
            .then(|| min.unwrap_or(0) + rng.random_range(0..120));
        let mut field = input("number").label(label);
        if let Some(m) = min {
            field = field.min(&m.to_string());
        }
        if let Some(m) = max {
            field = field.max(&m.to_string());
        }
        if let Some(s) = step {
            field = field.step(s);
        }
        let f = form(vec![field]);
        let fill = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        let value = text_of(&fill, 0);
        let step = match step {
            Some("any") => None,
            Some(s) => Some(s.parse().unwrap()),
            None => Some(1.0),
        };
        let (min, max) = (min.map(f64::from), max.map(f64::from));
        assert!(
            number_ok(&value, min, max, step),
            "seed {seed}: {label:?} min {min:?} max {max:?} step {step:?} -> {value:?}"
        );
        if label == "Quantity" && min.is_none_or(|m| m <= 1.0) && max.is_none_or(|m| m >= 6.0) {
            assert!(value.parse::<f64>().unwrap() >= 1.0, "seed {seed}: {value}");
        }
    }
}

#[test]
fn dates_honour_min_max_step_and_meaning() {
    let mut filler = filler();
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let lo = today() + rng.random_range(-400..400);
        let hi = lo + rng.random_range(0..60);
        let step = rng.random_range(1..10);
        let iso = |d: i64| Scale::Date.format(d as f64, 0).unwrap();
        let f = form(vec![
            input("date")
                .label("Booking date")
                .min(&iso(lo))
                .max(&iso(hi))
                .step(&step.to_string()),
            input("date").label("Booking date"),
            input("date").label("Date of birth"),
            input("month").label("Card expiry"),
            input("datetime-local").label("Appointment"),
            input("week"),
            input("text")
                .label("Delivery date")
                .placeholder("dd/mm/yyyy"),
        ]);
        let fill = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        let d = date(&text_of(&fill, 0));
        assert!(d >= lo && d <= hi && (d - lo) % step == 0, "seed {seed}");
        assert!(date(&text_of(&fill, 1)) > today(), "booking in the future");
        let birth = date(&text_of(&fill, 2));
        assert!(birth < today() - 18 * 365, "adult birth date");
        let expiry = Scale::Month.parse(&text_of(&fill, 3)).unwrap();
        assert!(expiry > Scale::Month.parse("2025-06").unwrap());
        let appointment = Scale::DateTime.parse(&text_of(&fill, 4)).unwrap();
        assert!(appointment > today() as f64 * 86_400.0);
        assert!(Scale::Week.parse(&text_of(&fill, 5)).is_some());
        let dmy = text_of(&fill, 6);
        let parts: Vec<&str> = dmy.split('/').collect();
        assert_eq!(parts.len(), 3, "{dmy}");
        assert!(date(&format!("{}-{}-{}", parts[2], parts[1], parts[0])) > today());
        for v in &fill.values {
            if let FieldValue::Text(s) = &v.value {
                assert!(
                    accepts(&f.fields[v.field], s),
                    "seed {seed} field {}: {s:?}",
                    v.field
                );
            }
        }
    }
}

#[test]
fn text_fields_meet_lengths_and_patterns() {
    let f = form(vec![
        input("text").label("Name").minlength(20).required(),
        input("text").label("City").maxlength(4),
        input("tel").label("Phone").pattern(r"\d{10}"),
        input("text")
            .label("Code")
            .pattern("[A-Z]{3}-[0-9]{2}")
            .required(),
        input("email").label("Email").maxlength(18),
        input("password").label("Password").pattern("[a-z]{6,10}"),
        input("text").label("Country").maxlength(2),
        input("text").label("Date").pattern(r"\d{2}/\d{2}/\d{4}"),
        input("text").label("Exp. year").maxlength(2),
        input("text").label("Exp. month"),
    ]);
    let mut filler = filler();
    for seed in 0..100 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        for v in &fill.values {
            let FieldValue::Text(s) = &v.value else {
                panic!("text");
            };
            assert!(
                accepts(&f.fields[v.field], s),
                "seed {seed} field {}: {s:?}",
                v.field
            );
        }
    }
}

// ---- Dictionaries ----

#[test]
fn dictionary_wins() {
    let dictionary = Dictionary::from_json(
        r#"{"fields": {"coupon": ["SAVE10"], "Promo code": "PROMO"},
            "semantics": {"city": ["Lyon"], "country": ["Germany"]}}"#,
    )
    .unwrap();
    let mut filler = HeuristicFiller::new(dictionary, TODAY);
    let f = form(vec![
        input("text").name("coupon"),
        input("text").label("Promo code:"),
        input("text").label("City"),
        input("select-one").label("Country").options(&[
            ("", "-- choose --"),
            ("fr", "France"),
            ("de", "Germany"),
        ]),
        input("text").label("Town").pattern("[0-9]+"),
    ]);
    for seed in 0..50 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
        assert_eq!(text_of(&fill, 0), "SAVE10");
        assert_eq!(text_of(&fill, 1), "PROMO");
        assert_eq!(text_of(&fill, 2), "Lyon");
        assert_eq!(fill.value_of(3), Some(&FieldValue::Select("de".into())));
        // A semantic entry the field refuses gives way to a value it accepts.
        assert_ne!(text_of(&fill, 4), "Lyon");
        assert!(accepts(&f.fields[4], &text_of(&fill, 4)));
    }
}

// ---- Invalid variants ----

#[test]
fn each_invalid_variant_breaks_exactly_one_field() {
    let f = big_form();
    let mut filler = filler();
    for variant in [
        Variant::Empty,
        Variant::TooLong,
        Variant::WrongType,
        Variant::Boundary,
    ] {
        let mut broken_fields = std::collections::BTreeSet::new();
        for seed in 0..80 {
            let valid = fill(&mut filler, &f, Variant::Valid, seed).unwrap();
            let bad = fill(&mut filler, &f, variant, seed).unwrap();
            let broken = bad.broken.expect("broken field");
            broken_fields.insert(broken);
            assert_eq!(
                valid.values.iter().map(|v| v.field).collect::<Vec<_>>(),
                bad.values.iter().map(|v| v.field).collect::<Vec<_>>()
            );
            // Confirmations follow their broken original.
            let follower = match broken {
                2 => Some(3),
                4 => Some(5),
                _ => None,
            };
            for (v, b) in valid.values.iter().zip(&bad.values) {
                if v.field == broken {
                    assert_ne!(v.value, b.value, "{variant:?} seed {seed}");
                } else if Some(v.field) == follower {
                    assert_eq!(Some(&b.value), bad.value_of(broken));
                } else if let FieldValue::Text(_) = v.value {
                    assert_eq!(
                        v.value, b.value,
                        "{variant:?} seed {seed} field {}",
                        v.field
                    );
                } else {
                    // Choices rotate with the broken field: any valid one will do.
                    let field = &f.fields[v.field];
                    let ok = match &b.value {
                        FieldValue::Select(s) => field.options.iter().any(|o| &o.value == s),
                        _ => true,
                    };
                    assert!(
                        ok,
                        "{variant:?} seed {seed} field {}: {:?}",
                        v.field, b.value
                    );
                }
            }
            let value = bad.value_of(broken).unwrap();
            let field = &f.fields[broken];
            match (variant, value) {
                (Variant::Empty, FieldValue::Text(s)) => assert_eq!(s, ""),
                (Variant::Empty, FieldValue::Select(s)) => assert_eq!(s, ""),
                (Variant::Empty, FieldValue::Check(on)) => assert!(!on),
                (Variant::TooLong, FieldValue::Text(s)) => {
                    assert!(s.chars().count() >= 300);
                    assert!(
                        field.maxlength.is_none(),
                        "prefers fields without maxlength"
                    );
                }
                (Variant::WrongType, FieldValue::Text(s)) => {
                    assert!(
                        !accepts(field, s) || classify(field) != Semantic::Text,
                        "{s}"
                    );
                }
                (Variant::Boundary, FieldValue::Text(s)) => assert!(!s.is_empty()),
                other => panic!("{other:?}"),
            }
            filler.submitted(&f, &bad);
        }
        assert!(
            broken_fields.len() > 1,
            "{variant:?} always breaks the same field"
        );
    }
}

#[test]
fn invalid_values_have_the_promised_shape() {
    let mut filler = filler();
    let one = |f: Field, variant: Variant, seed: u64, filler: &mut HeuristicFiller| {
        let form = form(vec![f]);
        fill(filler, &form, variant, seed).map(|fill| text_of(&fill, 0))
    };
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let v = one(
            input("number").label("Quantity").min("1").max("10"),
            Variant::Boundary,
            seed,
            &mut filler,
        )
        .unwrap();
        assert!(
            ["0", "1", "10", "11", "-1", "99999999"].contains(&v.as_str()),
            "{v}"
        );
        seen.insert(v);
        let d = one(
            input("date").label("Due date"),
            Variant::Boundary,
            seed,
            &mut filler,
        )
        .unwrap();
        assert!(
            ["1900-01-01", "2999-12-31", "2025-06-14"].contains(&d.as_str()),
            "{d}"
        );
    }
    assert!(seen.len() >= 5, "{seen:?}");
    assert_eq!(
        one(
            input("text").label("Quantity"),
            Variant::WrongType,
            1,
            &mut filler
        )
        .as_deref(),
        Some("abc")
    );
    assert_eq!(
        one(
            input("email").label("Email"),
            Variant::WrongType,
            1,
            &mut filler
        )
        .as_deref(),
        Some("not-an-email")
    );
    let name = one(
        input("text").label("First name"),
        Variant::WrongType,
        1,
        &mut filler,
    )
    .unwrap();
    assert!(name.chars().any(|c| c.is_ascii_digit()));
    let long = one(
        input("email").label("Email"),
        Variant::TooLong,
        1,
        &mut filler,
    )
    .unwrap();
    assert!(long.len() >= 300 && long.ends_with("@example.com"));
    let capped = one(
        input("text").label("Code").maxlength(350),
        Variant::TooLong,
        1,
        &mut filler,
    )
    .unwrap();
    assert_eq!(capped.chars().count(), 351);
    // A start broken past its end is the point of Boundary: the end keeps its value.
    let past = one(
        input("text").label("Start date"),
        Variant::Boundary,
        3,
        &mut filler,
    )
    .unwrap();
    assert!(Scale::Date.parse(&past).is_some(), "{past}");
}

#[test]
fn none_when_the_variant_applies_to_no_field() {
    let mut filler = filler();
    let choices = form(vec![
        input("checkbox").label("Newsletter"),
        input("select-one")
            .label("Size")
            .options(&[("s", "Small"), ("m", "Medium")]),
        input("radio")
            .label("Colour")
            .options(&[("r", "Red"), ("b", "Blue")])
            .checked(),
    ]);
    assert!(fill(&mut filler, &choices, Variant::Valid, 1).is_some());
    for variant in [
        Variant::Empty,
        Variant::TooLong,
        Variant::WrongType,
        Variant::Boundary,
    ] {
        assert_eq!(fill(&mut filler, &choices, variant, 1), None, "{variant:?}");
    }
    let plain = form(vec![input("text").label("Comment")]);
    assert!(fill(&mut filler, &plain, Variant::Empty, 1).is_some());
    assert!(fill(&mut filler, &plain, Variant::TooLong, 1).is_some());
    assert_eq!(fill(&mut filler, &plain, Variant::WrongType, 1), None);
    assert_eq!(fill(&mut filler, &plain, Variant::Boundary, 1), None);
    let nothing = form(vec![
        input("hidden").name("token"),
        input("submit"),
        input("text").label("Id").readonly(),
    ]);
    for variant in Variant::ALL {
        assert_eq!(fill(&mut filler, &nothing, variant, 1), None, "{variant:?}");
    }
    assert_eq!(fill(&mut filler, &form(vec![]), Variant::Valid, 1), None);
}

// ---- Determinism, single values, robustness ----

#[test]
fn same_seed_same_values() {
    let f = big_form();
    let mut a = filler();
    let mut b = filler();
    for variant in Variant::ALL {
        for seed in 0..20 {
            assert_eq!(
                fill(&mut a, &f, variant, seed),
                fill(&mut b, &f, variant, seed),
                "{variant:?}"
            );
        }
    }
    let first = fill(&mut a, &f, Variant::Valid, 1);
    assert!((2..10).any(|seed| fill(&mut a, &f, Variant::Valid, seed) != first));
}

#[test]
fn value_for_fills_one_field() {
    let mut filler = filler();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    assert!(filler.value_for(&input("email"), &mut rng).contains('@'));
    assert_eq!(
        filler.value_for(&input("text").label("Card number"), &mut rng),
        "4242424242424242"
    );
    assert_eq!(
        filler.value_for(&input("text").label("CVV"), &mut rng),
        "123"
    );
    assert_eq!(
        filler
            .value_for(&input("text").label("Expiry (MM/YY)"), &mut rng)
            .len(),
        5
    );
    let qty: i64 = filler
        .value_for(&input("number").label("Qty"), &mut rng)
        .parse()
        .unwrap();
    assert!((1..=5).contains(&qty));
    let select = input("select-one").options(&[("", "Select..."), ("a", "A")]);
    assert_eq!(filler.value_for(&select, &mut rng), "a");
    assert!(["true", "false"].contains(&filler.value_for(&input("checkbox"), &mut rng).as_str()));
    assert_eq!(filler.value_for(&input("submit"), &mut rng), "");
    let dictionary =
        Dictionary::from_json(r#"{"semantics": {"email": ["me@corp.test"]}}"#).unwrap();
    let mut with = HeuristicFiller::new(dictionary, TODAY);
    assert_eq!(with.value_for(&input("email"), &mut rng), "me@corp.test");
}

#[test]
fn no_panics_on_hostile_markup() {
    let types = [
        "text",
        "number",
        "range",
        "date",
        "month",
        "week",
        "time",
        "datetime-local",
        "email",
        "url",
        "tel",
        "password",
        "search",
        "color",
        "textarea",
        "select-one",
        "radio",
        "checkbox",
        "contenteditable",
        "bogus",
    ];
    let junk = [
        "",
        "abc",
        "-1",
        "0",
        "1e308",
        "-1e308",
        "NaN",
        "99999999999999999999",
        "2025-13-45",
        "0001-01-01",
        "275760-09-13",
        "23:59:59.999",
        "9999-W53",
        "any",
        "0.0000001",
        "(((",
        "[",
        "a{99999}",
        "\\",
        "0000-00",
        "-0",
    ];
    let mut filler = filler();
    for seed in 0..400u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut fields = Vec::new();
        for _ in 0..rng.random_range(0..6) {
            let mut field = input(types[rng.random_range(0..types.len())]);
            let junk_attr = |rng: &mut ChaCha8Rng| {
                rng.random_bool(0.5)
                    .then(|| junk[rng.random_range(0..junk.len())].to_string())
            };
            field.min = junk_attr(&mut rng);
            field.max = junk_attr(&mut rng);
            field.step = junk_attr(&mut rng);
            field.pattern = junk_attr(&mut rng);
            let length = |rng: &mut ChaCha8Rng| match rng.random_range(0..10) {
                0..=5 => None,
                6 => Some(u32::MAX),
                7 => Some(0),
                _ => Some(rng.random_range(1..50)),
            };
            field.minlength = length(&mut rng);
            field.maxlength = length(&mut rng);
            field.required = rng.random_bool(0.5);
            if let Some(label) = junk_attr(&mut rng) {
                field = field.label(&label);
            }
            if rng.random_bool(0.5) {
                field = field.options(&[("", ""), ("x", "Choose"), ("0", "-- pick --")]);
                if rng.random_bool(0.5) {
                    for o in &mut field.options {
                        o.disabled = true;
                    }
                }
            }
            fields.push(field);
        }
        let f = form(fields);
        for variant in Variant::ALL {
            let _ = fill(&mut filler, &f, variant, seed);
        }
        for field in &f.fields {
            let _ = filler.value_for(field, &mut rng);
        }
    }
}

#[test]
fn choices_rotate_from_the_preselected_one_through_every_option() {
    let mut subject = input("select-one").label("Subject").options(&[
        ("order", "Order problem"),
        ("product", "Product question"),
        ("other", "Something else"),
    ]);
    subject.options[1].selected = true;
    let f = form(vec![subject]);
    let mut filler = filler();
    let mut chosen = Vec::new();
    for seed in 0..6 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).expect("a fill");
        // Fills that are not submitted do not count.
        let _ = self::fill(&mut filler, &f, Variant::Valid, seed + 100);
        filler.submitted(&f, &fill);
        chosen.push(fill.value_of(0).expect("a value").as_string());
    }
    assert_eq!(chosen[0], "product", "the preselected option first");
    let mut first_round = chosen[..3].to_vec();
    first_round.sort();
    assert_eq!(first_round, ["order", "other", "product"], "{chosen:?}");
    let mut second_round = chosen[3..].to_vec();
    second_round.sort();
    assert_eq!(second_round, ["order", "other", "product"], "{chosen:?}");
}

/// A fill with a field left empty is refused before anything is stored: the status it
/// was sent with still gets its turn in the valid fills' first round.
#[test]
fn the_choices_of_a_fill_with_a_broken_field_are_still_to_be_sent() {
    let title = input("text").name("title").label("Title");
    let status = select(
        "status",
        "Status",
        &[("todo", "To do"), ("blocked", "Blocked"), ("done", "Done")],
    );
    let f = form(vec![title, status]);
    for run in 0..5 {
        let mut filler = filler();
        let broken = fill(&mut filler, &f, Variant::Empty, run * 10).expect("a fill");
        assert_eq!(broken.broken, Some(0));
        filler.submitted(&f, &broken);
        let mut chosen = std::collections::BTreeSet::new();
        for seed in 1..4 {
            let fill = fill(&mut filler, &f, Variant::Valid, run * 10 + seed).expect("a fill");
            filler.submitted(&f, &fill);
            chosen.insert(fill.value_of(1).expect("a status").as_string());
        }
        assert_eq!(chosen.len(), 3, "run {run}: {chosen:?}");
    }
}

/// A list's status filter and a form's status select share a name and a label, not
/// their options: the filter's uses do not count for the form, which still gets to
/// "archived" in its turn.
#[test]
fn fields_with_other_options_rotate_apart() {
    let filter = select(
        "status",
        "Status",
        &[("open", "Open"), ("archived", "Archived")],
    );
    let status = select(
        "status",
        "Status",
        &[
            ("active", "Active"),
            ("on_hold", "On hold"),
            ("archived", "Archived"),
        ],
    );
    let edit = form(vec![status]);
    let mut filler = filler();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..6 {
        let value = filler.value_for(&filter, &mut rng);
        filler.used(&filter, &FieldValue::Select(value));
    }
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..3 {
        let fill = fill(&mut filler, &edit, Variant::Valid, seed).expect("a fill");
        filler.submitted(&edit, &fill);
        chosen.insert(fill.value_of(0).expect("a value").as_string());
    }
    assert_eq!(chosen.len(), 3, "{chosen:?}");
}

/// A member made a viewer is no longer offered as an assignee; once offered again, they
/// are the one still to be assigned, as the others' turns were kept meanwhile.
#[test]
fn turns_outlast_a_change_of_the_options() {
    let members = |ids: &[&'static str]| {
        let options: Vec<(&str, &str)> = ids.iter().map(|&id| (id, id)).collect();
        select("assignee", "Assignee", &options)
    };
    let title = input("text").name("title").label("Title");
    let mut filler = filler();
    let without = form(vec![title.clone(), members(&["1", "2", "4"])]);
    for seed in 0..6 {
        let fill = fill(&mut filler, &without, Variant::Valid, seed).expect("a fill");
        filler.submitted(&without, &fill);
    }
    let with = form(vec![title, members(&["1", "2", "3", "4"])]);
    let fill = fill(&mut filler, &with, Variant::Valid, 0).expect("a fill");
    assert_eq!(fill.value_of(1), Some(&FieldValue::Select("3".into())));
}

/// A radio group sits at its first radio, whose name is that option's label: "Starter
/// (current)" once the app's plan is Starter. The group's turns outlast that change, so
/// the plan not sent yet is still the next one.
#[test]
fn a_radio_group_keeps_its_turns_when_its_first_option_is_renamed() {
    let plans = |first: &str| {
        let mut group = input("radio")
            .label("Choose a plan")
            .name("plan")
            .options(&[
                ("starter", "Starter"),
                ("team", "Team"),
                ("business", "Business"),
            ]);
        group.target.locator = format!("radio {first:?}");
        group
    };
    let before = form(vec![plans("Starter")]);
    let mut filler = filler();
    let mut sent = std::collections::BTreeSet::new();
    for seed in 0..2 {
        let fill = fill(&mut filler, &before, Variant::Valid, seed).expect("a fill");
        filler.submitted(&before, &fill);
        sent.insert(fill.value_of(0).expect("a plan").as_string());
    }
    let after = form(vec![plans("Starter current")]);
    let fill = fill(&mut filler, &after, Variant::Valid, 0).expect("a fill");
    let next = fill.value_of(0).expect("a plan").as_string();
    assert!(!sent.contains(&next), "{next} again after {sent:?}");
}

/// A valid fill the server refused (a seat count the team outgrew) stored nothing: its
/// plan and cycle are still to be sent together, and each is still unsent.
#[test]
fn a_fill_the_server_refused_is_still_to_be_sent() {
    let plan = select(
        "plan",
        "Plan",
        &[("team", "Team"), ("business", "Business")],
    );
    let cycle = select(
        "cycle",
        "Billing cycle",
        &[("monthly", "Monthly"), ("yearly", "Yearly")],
    );
    let f = form(vec![plan, cycle]);
    let mut filler = filler();
    let first = fill(&mut filler, &f, Variant::Valid, 0).expect("a fill");
    let (Some(a), Some(b)) = (first.value_of(0), first.value_of(1)) else {
        panic!("both chosen: {first:?}");
    };
    filler.submitted(&f, &first);
    assert!(!filler.unsent(&f, &f.fields[0], a));
    assert!(!filler.fresh_pair(&f, (&f.fields[0], a), (&f.fields[1], b)));
    filler.refused(&f, &first);
    assert!(filler.unsent(&f, &f.fields[0], a), "{first:?}");
    assert!(filler.unsent(&f, &f.fields[1], b), "{first:?}");
    assert!(filler.fresh_pair(&f, (&f.fields[0], a), (&f.fields[1], b)));
}

#[test]
fn single_choices_rotate_too() {
    let zone = input("select-one").label("Display timezone").options(&[
        ("UTC", "UTC"),
        ("Europe/Berlin", "Berlin"),
        ("Asia/Kathmandu", "Kathmandu"),
        ("Australia/Sydney", "Sydney"),
    ]);
    let mut filler = filler();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..4 {
        let value = filler.value_for(&zone, &mut rng);
        filler.used(&zone, &FieldValue::Select(value.clone()));
        seen.insert(value);
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

#[test]
fn combinations_of_choices_take_turns() {
    let mut team = input("radio").label("Plan").name("plan").options(&[
        ("basic", "Basic"),
        ("team", "Team"),
        ("pro", "Pro"),
    ]);
    team.options[1].selected = true;
    let cycle = select(
        "cycle",
        "Billing cycle",
        &[("monthly", "Monthly"), ("yearly", "Yearly")],
    );
    let f = form(vec![team, cycle]);
    let mut filler = filler();
    let mut pairs = std::collections::BTreeSet::new();
    let fresh = |filler: &HeuristicFiller, fill: &FormFill| {
        let (Some(a), Some(b)) = (fill.value_of(0), fill.value_of(1)) else {
            panic!("both chosen: {fill:?}");
        };
        filler.fresh_pair(&f, (&f.fields[0], a), (&f.fields[1], b))
    };
    // A refused fill does not try its combination.
    let bad = fill(&mut filler, &f, Variant::Valid, 9).expect("a fill");
    let refused = FormFill {
        broken: Some(1),
        ..bad.clone()
    };
    filler.submitted(&f, &refused);
    assert!(fresh(&filler, &bad));
    let mut filler = self::filler();
    for seed in 0..6 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).expect("a fill");
        assert!(fresh(&filler, &fill), "{pairs:?} then {fill:?}");
        filler.submitted(&f, &fill);
        assert!(!fresh(&filler, &fill));
        let value = |i| {
            fill.value_of(i)
                .map(FieldValue::as_string)
                .unwrap_or_default()
        };
        pairs.insert((value(0), value(1)));
    }
    // Six fills, the six combinations (not Pro always billed monthly).
    assert_eq!(pairs.len(), 6, "{pairs:?}");
    let seventh = fill(&mut filler, &f, Variant::Valid, 6).expect("a fill");
    assert!(!fresh(&filler, &seventh));
}

#[test]
fn boundary_values_take_turns() {
    let f = form(vec![
        input("number")
            .label("Seats")
            .name("seats")
            .min("1")
            .max("500"),
    ]);
    let mut filler = filler();
    let mut sent = Vec::new();
    for seed in 0..6 {
        let fill = fill(&mut filler, &f, Variant::Boundary, seed).expect("a fill");
        let value = text_of(&fill, 0);
        assert!(
            filler.fresh_boundary(&f.fields[0], &value),
            "{value} again: {sent:?}"
        );
        filler.submitted(&f, &fill);
        assert!(!filler.fresh_boundary(&f.fields[0], &value));
        sent.push(value);
    }
    // Just past each edge (0 is also the first below 1), each edge, -1 and a huge
    // number: each once.
    let mut sorted = sent.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), sent.len(), "{sent:?}");
    assert!(sent.contains(&"-1".to_string()), "{sent:?}");
}

#[test]
fn a_choice_repeated_in_every_row_rotates_once_for_all_rows() {
    let row = |n: u32, who: &str| {
        let mut role = input("select-one")
            .label(&format!("Role of {who}"))
            .options(&[("admin", "Admin"), ("member", "Member")]);
        role.name = None;
        role.id = None;
        role.target.selector = format!(
            "html > body > table > tbody > tr:nth-of-type({n}) > td:nth-of-type(4) > select"
        );
        role
    };
    let (priya, kenji) = (row(2, "Priya"), row(5, "Kenji"));
    let mut filler = filler();
    filler.used(&priya, &FieldValue::Select("admin".into()));
    assert!(!filler.fresh(&kenji, &FieldValue::Select("admin".into())));
    assert!(filler.fresh(&kenji, &FieldValue::Select("member".into())));
    // Fields with a name keep their own rotation.
    let named = select("role", "Role", &[("admin", "Admin")]);
    assert!(filler.fresh(&named, &FieldValue::Select("admin".into())));
}

#[test]
fn optional_checkboxes_go_as_they_are_then_all_cleared_then_all_ticked() {
    let f = form(vec![
        input("checkbox").label("Email").name("channel").checked(),
        input("checkbox").label("Slack").name("channel"),
        input("checkbox").label("Push").name("channel").checked(),
        input("checkbox")
            .label("I accept the terms")
            .name("terms")
            .required(),
    ]);
    let mut filler = filler();
    let mut rounds = Vec::new();
    for seed in 0..3 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).expect("a fill");
        filler.submitted(&f, &fill);
        let on: Vec<bool> = (0..4)
            .map(|i| fill.value_of(i) == Some(&FieldValue::Check(true)))
            .collect();
        rounds.push(on);
    }
    assert_eq!(
        rounds,
        [
            vec![true, false, true, true],
            vec![false, false, false, true],
            vec![true, true, true, true],
        ]
    );
}

#[test]
fn skipped_rounds_start_later_and_never_go_back() {
    let f = form(vec![
        input("checkbox").label("Email").name("channel").checked(),
        input("checkbox").label("Push").name("channel").checked(),
    ]);
    let mut filler = filler();
    let ticked = |fill: &FormFill| {
        (0..2)
            .map(|i| fill.value_of(i) == Some(&FieldValue::Check(true)))
            .collect::<Vec<_>>()
    };
    filler.skip_rounds(&f, 1);
    let first = fill(&mut filler, &f, Variant::Valid, 0).expect("a fill");
    assert_eq!(ticked(&first), [false, false], "all cleared first");
    filler.submitted(&f, &first);
    filler.skip_rounds(&f, 1);
    let second = fill(&mut filler, &f, Variant::Valid, 0).expect("a fill");
    assert_eq!(ticked(&second), [true, true], "then all ticked");
}

#[test]
fn choices_picked_on_their_own_still_take_their_turn_in_fills() {
    let status = select(
        "status",
        "Status",
        &[
            ("active", "Active"),
            ("on_hold", "On hold"),
            ("archived", "Archived"),
        ],
    );
    let f = form(vec![status.clone()]);
    let mut filler = filler();
    let archived = FieldValue::Select("archived".into());
    for _ in 0..3 {
        filler.used(&status, &archived);
        filler.used(&status, &FieldValue::Select("on_hold".into()));
    }
    assert!(filler.unsent(&f, &status, &archived), "picked, never saved");
    let mut sent = Vec::new();
    for seed in 0..3 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).expect("a fill");
        filler.submitted(&f, &fill);
        sent.push(fill.value_of(0).expect("a status").as_string());
    }
    sent.sort();
    assert_eq!(sent, ["active", "archived", "on_hold"]);
    assert!(!filler.unsent(&f, &status, &archived));
}

#[test]
fn a_choice_sent_in_one_form_is_still_to_be_sent_in_another() {
    let assignee = select(
        "assignee",
        "Assignee",
        &[("1", "Alex"), ("2", "Sam"), ("3", "Priya")],
    );
    let title = input("text").name("title").label("Title");
    let status = select("status", "Status", &[("todo", "To do"), ("done", "Done")]);
    let edit = form(vec![title.clone(), status, assignee.clone()]);
    let create = form(vec![title, assignee.clone()]);
    let mut filler = filler();
    let priya = FieldValue::Select("3".into());
    for seed in 0..3 {
        let fill = fill(&mut filler, &edit, Variant::Valid, seed).expect("a fill");
        filler.submitted(&edit, &fill);
    }
    assert!(
        !filler.unsent(&edit, &assignee, &priya),
        "every member was assigned in edits"
    );
    assert!(
        filler.unsent(&create, &assignee, &priya),
        "no new task went to Priya"
    );
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 0..3 {
        let fill = fill(&mut filler, &create, Variant::Valid, seed).expect("a fill");
        filler.submitted(&create, &fill);
        chosen.insert(fill.value_of(1).expect("an assignee").as_string());
    }
    assert_eq!(chosen.len(), 3, "{chosen:?}");
}

#[test]
fn a_choice_is_fresh_until_used() {
    let role = input("select-one")
        .label("Role")
        .options(&[("member", "Member"), ("admin", "Admin")]);
    let title = input("text").label("Title");
    let mut filler = filler();
    let admin = FieldValue::Select("admin".into());
    assert!(filler.fresh(&role, &admin));
    assert!(
        !filler.fresh(&title, &FieldValue::Text("x".into())),
        "text never rotates"
    );
    filler.used(&role, &admin);
    assert!(!filler.fresh(&role, &admin));
    assert!(filler.fresh(&role, &FieldValue::Select("member".into())));
}

#[test]
fn an_optional_promo_code_is_left_empty_and_a_required_one_is_filled() {
    assert_eq!(
        classify(&input("text").label("Promo code (optional)")),
        Semantic::Coupon
    );
    let f = form(vec![
        input("text").label("Promo code (optional)").name("promo"),
        input("text").label("Voucher").name("voucher").required(),
    ]);
    let mut filler = filler();
    for seed in 0..20 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).expect("a fill");
        assert_eq!(text_of(&fill, 0), "");
        assert!(!text_of(&fill, 1).is_empty());
    }
}

#[test]
fn invalid_fills_break_each_field_in_turn_under_every_choice() {
    let mut subject = select(
        "subject",
        "Subject",
        &[
            ("order", "Order problem"),
            ("returns", "Returns"),
            ("product", "Product question"),
            ("other", "Other"),
        ],
    );
    subject.options[0].selected = true;
    let f = form(vec![
        input("text").label("Your name").name("name"),
        input("email").label("Email").name("email"),
        subject,
        input("textarea").label("Message").name("message"),
    ]);
    let mut filler = filler();
    let mut broken = Vec::new();
    for seed in 0..12 {
        let fill = fill(&mut filler, &f, Variant::Empty, seed).expect("a fill");
        assert_eq!(fill.variant, Variant::Empty);
        filler.submitted(&f, &fill);
        let chosen = fill
            .value_of(2)
            .map(FieldValue::as_string)
            .unwrap_or_default();
        broken.push((fill.broken.expect("a broken field"), chosen));
    }
    // The three text fields take turns at being empty...
    let mut turns: Vec<usize> = broken[..3].iter().map(|(b, _)| *b).collect();
    turns.sort();
    assert_eq!(turns, vec![0, 1, 3], "{broken:?}");
    // ...and the first four empty messages are sent under the four subjects.
    let mut subjects: Vec<&str> = broken
        .iter()
        .filter(|(b, _)| *b == 3)
        .map(|(_, s)| s.as_str())
        .take(4)
        .collect();
    subjects.sort();
    assert_eq!(
        subjects,
        vec!["order", "other", "product", "returns"],
        "{broken:?}"
    );
}

#[test]
fn typed_text_sent_in_a_valid_fill_is_not_sent_again() {
    // A project key: short text, nothing in its label says what it means, so every
    // guess is the one short text; an app that stores it refuses it the next time.
    let key = input("text")
        .label("Key")
        .name("key")
        .required()
        .maxlength(6);
    let f = form(vec![key.clone()]);
    let mut filler = filler();
    let mut sent = Vec::new();
    for seed in 0..5 {
        let fill = fill(&mut filler, &f, Variant::Valid, seed).expect("a fill");
        filler.submitted(&f, &fill);
        let text = fill.value_of(0).expect("a key").as_string();
        assert!(accepts(&key, &text), "{text:?} fits the field");
        assert!(!sent.contains(&text), "{text:?} sent twice: {sent:?}");
        sent.push(text);
    }
    // A fill broken on purpose stores nothing: its text may come again.
    let bad = fill(&mut filler, &f, Variant::Valid, 9).expect("a fill");
    let mut broken = bad.clone();
    broken.broken = Some(0);
    filler.submitted(&f, &broken);
    let again = fill(&mut filler, &f, Variant::Valid, 9).expect("a fill");
    assert_eq!(bad.value_of(0), again.value_of(0));
    // A valid fill the server refused was no better: its text comes no more.
    filler.submitted(&f, &again);
    filler.refused(&f, &again);
    let next = fill(&mut filler, &f, Variant::Valid, 9).expect("a fill");
    assert_ne!(again.value_of(0), next.value_of(0));
}

#[test]
fn variants_keep_the_length_and_kinds_of_characters() {
    assert_eq!(vary("Green", 1).as_deref(), Some("Greeo"));
    assert_eq!(vary("Green", 27).as_deref(), Some("Grefo"));
    assert_eq!(vary("AZ-9", 1).as_deref(), Some("AA-9"));
    // An email keeps its domain.
    assert_eq!(
        vary("kim@example.net", 2).as_deref(),
        Some("kio@example.net")
    );
    assert_eq!(vary("1500", 1), None);
    let all: std::collections::HashSet<String> =
        (1..=100).filter_map(|n| vary("team", n)).collect();
    assert_eq!(all.len(), 100);
    assert!(!all.contains("team"));
}

/// A fill refused for its one bad value (the seats left empty) is made again with a
/// good value and the same choices when they are still due their turn, as a person
/// fixes what the form said and keeps the plan and the cycle they picked; a choice
/// already sent more often than another still waits for the others.
#[test]
fn the_fresh_choices_of_a_fill_refused_for_a_bad_value_are_made_again() {
    let plan = select(
        "plan",
        "Plan",
        &[
            ("starter", "Starter"),
            ("team", "Team"),
            ("business", "Business"),
        ],
    );
    let cycle = select(
        "cycle",
        "Billing cycle",
        &[("monthly", "Monthly"), ("yearly", "Yearly")],
    );
    let seats = input("text").name("seats").label("Seats");
    let f = form(vec![plan, cycle, seats]);
    let choose = |fill: &FormFill, plan: &str, cycle: &str| {
        let mut values = fill.values.clone();
        values[0].value = FieldValue::Select(plan.into());
        values[1].value = FieldValue::Select(cycle.into());
        FormFill {
            values,
            ..fill.clone()
        }
    };
    let choices = |fill: &FormFill| {
        [0, 1].map(|i| {
            fill.value_of(i)
                .map(FieldValue::as_string)
                .unwrap_or_default()
        })
    };
    for seed in 0..8 {
        let mut filler = filler();
        let empty = fill(&mut filler, &f, Variant::Empty, seed).expect("a fill");
        assert_eq!(empty.broken, Some(2), "{empty:?}");
        filler.submitted(&f, &choose(&empty, "business", "yearly"));
        let again = fill(&mut filler, &f, Variant::Valid, seed + 20).expect("a fill");
        assert_eq!(choices(&again), ["business", "yearly"], "seed {seed}");
        assert_eq!(again.broken, None);
        filler.submitted(&f, &again);
        let next = fill(&mut filler, &f, Variant::Valid, seed + 30).expect("a fill");
        assert_ne!(choices(&next)[0], "business", "seed {seed}");

        // Business was sent; a refused fill choosing it again does not put it before
        // the plans still to be sent.
        let empty = fill(&mut filler, &f, Variant::Empty, seed + 40).expect("a fill");
        filler.submitted(&f, &choose(&empty, "business", "monthly"));
        let after = fill(&mut filler, &f, Variant::Valid, seed + 50).expect("a fill");
        assert_ne!(choices(&after)[0], "business", "seed {seed}");
    }
}
