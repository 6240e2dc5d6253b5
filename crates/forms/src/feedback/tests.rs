//! Classification of hand-built observations: every channel, attachment, keywords.

use curio_page::{ElementKey, Field, Form, FormId, Label, LabelSource, Rect, Target};

use super::*;
use crate::testing::{FieldState, Observation, SeenText, field_refs};

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

/// Name at y=100, email at y=180, password at y=260, each 30 px high at x=100..300.
fn signup() -> Form {
    Form {
        id: FormId(0),
        key: ElementKey("form".into()),
        target: None,
        name: None,
        html_id: Some("signup".into()),
        action: None,
        method: None,
        title: Some("Create your account".into()),
        fields: vec![
            field("name", "text", "Name", 100.0),
            field("email", "email", "Email", 180.0),
            field("password", "password", "Password", 260.0),
        ],
        submit: Some(Target {
            backend_node_id: 9,
            frame: 0,
            selector: "#go".into(),
            locator: "button \"Sign up\"".into(),
            rect: rect(100.0, 330.0, 80.0, 30.0),
        }),
    }
}

fn text(t: &str, x: f64, y: f64) -> SeenText {
    SeenText {
        text: t.into(),
        rect: rect(x, y, 180.0, 18.0),
        live: false,
        alarm: false,
    }
}

/// The page as it was before submitting: labels, title, button.
fn page_texts() -> Vec<SeenText> {
    vec![
        text("Create your account", 100.0, 20.0),
        text("Name", 100.0, 80.0),
        text("Email", 100.0, 160.0),
        text("Password", 100.0, 240.0),
        text("Sign up", 100.0, 336.0),
    ]
}

/// Fields still in place with these values.
fn fields_with(values: [&str; 3]) -> Vec<FieldState> {
    let form = signup();
    form.fields
        .iter()
        .zip(values)
        .map(|(f, v)| FieldState {
            rect: f.target.rect,
            value: v.into(),
            ..FieldState::default()
        })
        .collect()
}

/// A submission that stayed on the page, values still in the fields.
fn stayed() -> Observation {
    Observation {
        url_before: "http://app.test/signup".into(),
        url_after: "http://app.test/signup".into(),
        navigated: false,
        texts_before: page_texts(),
        texts_after: page_texts(),
        added_texts: vec![],
        fields: fields_with(["Ada Lovelace", "ada@example", "Secret123!"]),
        statuses: vec![],
        dialogs: vec![],
        timed_out: false,
        sent: vec![],
    }
}

fn judge(obs: &Observation) -> Feedback {
    let form = signup();
    let layout = attach_by_layout(&form, &obs.fields);
    classify(&form, obs, &layout)
}

#[test]
fn a_native_message_blocks_the_submission_and_is_about_its_field() {
    let mut obs = stayed();
    obs.fields[1].validation_message =
        "Please include an '@' in the email address. 'ada' is missing an '@'.".into();
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].channel, Channel::Native);
    assert_eq!(fb.messages[0].field, Some(1));
    assert!(fb.observed);
}

#[test]
fn native_messages_of_a_new_document_are_not_this_submissions() {
    let mut obs = stayed();
    obs.navigated = true;
    obs.fields[2].validation_message = "Please fill out this field.".into();
    let fb = judge(&obs);
    assert!(fb.messages.iter().all(|m| m.channel != Channel::Native));
}

#[test]
fn a_new_text_beside_a_field_without_any_keyword_is_an_error_about_it() {
    let mut obs = stayed();
    obs.texts_after
        .push(text("Hmm, that doesn't look like an email", 100.0, 214.0));
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].field, Some(1), "{fb:?}");
    assert_eq!(fb.messages[0].channel, Channel::Inline);
    // Even a wording with no keyword at all.
    let mut obs = stayed();
    obs.texts_after.push(text("Hmm, really?", 100.0, 214.0));
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages[0].field, Some(1));
}

#[test]
fn layout_attaches_to_the_field_just_above_or_left_and_not_farther() {
    let form = signup();
    let attach = attach_by_layout(&form, &[]);
    // Below the name field.
    assert_eq!(attach("x", rect(100.0, 134.0, 150.0, 18.0)), Some(0));
    // Right of the password field.
    assert_eq!(attach("x", rect(310.0, 262.0, 150.0, 18.0)), Some(2));
    // Between email and password, closer to email's bottom.
    assert_eq!(attach("x", rect(100.0, 215.0, 150.0, 18.0)), Some(1));
    // A banner at the top, a note far below, a box without area.
    assert_eq!(attach("x", rect(0.0, 0.0, 800.0, 40.0)), None);
    assert_eq!(attach("x", rect(100.0, 500.0, 150.0, 18.0)), None);
    assert_eq!(attach("x", rect(100.0, 134.0, 0.0, 0.0)), None);
    // A container around a field is no message about it.
    assert_eq!(attach("x", rect(90.0, 90.0, 400.0, 60.0)), None);
}

#[test]
fn a_toast_added_then_removed_is_seen() {
    let mut obs = stayed();
    obs.added_texts.push(SeenText {
        text: "Something went wrong, please try again".into(),
        rect: rect(600.0, 10.0, 200.0, 40.0),
        live: true,
        alarm: false,
    });
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].channel, Channel::Toast);
    assert_eq!(fb.messages[0].field, None);
}

#[test]
fn a_busy_text_that_came_and_went_is_no_feedback() {
    let mut obs = stayed();
    obs.added_texts.push(text("Submitting…", 100.0, 336.0));
    let fb = judge(&obs);
    assert!(fb.messages.is_empty(), "{fb:?}");
    assert_eq!(fb.outcome, Outcome::Unknown);
}

#[test]
fn a_redirect_to_another_page_without_messages_is_a_success() {
    let obs = Observation {
        url_before: "http://app.test/signup".into(),
        url_after: "http://app.test/thanks".into(),
        navigated: true,
        texts_before: page_texts(),
        texts_after: vec![
            text("Home", 0.0, 0.0),
            text("Your account is ready", 0.0, 100.0),
        ],
        fields: vec![FieldState::default(); 3],
        ..Observation::default()
    };
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Success);
    assert!(fb.messages.is_empty(), "{fb:?}");
    assert_eq!(fb.moved_to.as_deref(), Some("/thanks"));
    assert_eq!(fb.signature(&field_refs(&signup())), "success -> /thanks");
}

#[test]
fn a_redirect_to_an_error_page_is_a_failure() {
    let obs = Observation {
        url_before: "http://app.test/signup".into(),
        url_after: "http://app.test/oops".into(),
        navigated: true,
        texts_after: vec![text("Sorry, an unexpected error occurred", 0.0, 100.0)],
        ..Observation::default()
    };
    assert_eq!(judge(&obs).outcome, Outcome::Failure);
}

#[test]
fn a_server_error_is_a_failure_with_its_own_message() {
    let mut obs = stayed();
    obs.statuses = vec![200, 500];
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].channel, Channel::Http(500));
    assert_eq!(fb.messages[0].text, "HTTP 500");
    let refs = field_refs(&signup());
    assert_eq!(fb.signature(&refs), "failure | form: http 500");
    // A 500 even after a redirect that would look like success.
    let mut obs = stayed();
    obs.url_after = "http://app.test/done".into();
    obs.navigated = true;
    obs.statuses = vec![502];
    assert_eq!(judge(&obs).outcome, Outcome::Failure);
}

#[test]
fn keywords_match_whole_words() {
    assert_eq!(tone("Your data is valid"), Tone::Fine);
    assert_eq!(tone("invalid email"), Tone::Error);
    assert_eq!(tone("Please enter a valid email"), Tone::Error);
    assert_eq!(tone("Thanks! Your message has been sent."), Tone::Done);
    assert_eq!(
        tone("Thanks for signing up! Please verify your email."),
        Tone::Done
    );
    assert_eq!(tone("Thanks, but this email is already taken"), Tone::Error);
    assert_eq!(tone("Unavailable"), Tone::Error);
    assert_eq!(tone("Available"), Tone::Fine);
    assert_eq!(tone("Can’t be blank"), Tone::Error);
    assert_eq!(tone("Departure"), Tone::Neutral);

    // In a page: "valid" praise is no error, "invalid" is.
    let mut obs = stayed();
    obs.texts_after
        .push(text("Your data is valid", 100.0, 400.0));
    assert_ne!(judge(&obs).outcome, Outcome::Failure);
    let mut obs = stayed();
    obs.texts_after.push(text("invalid email", 100.0, 400.0));
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages[0].field, None);
}

#[test]
fn a_cleared_form_with_thanks_is_a_success() {
    let mut obs = stayed();
    obs.fields = fields_with(["", "", ""]);
    obs.texts_after
        .push(text("Thanks! We saved your details.", 100.0, 380.0));
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Success);
    assert_eq!(fb.messages.len(), 1);
    // Cleared with any change of the page is enough, even a wording without keyword.
    let mut obs = stayed();
    obs.fields = fields_with(["", "", ""]);
    obs.texts_after
        .push(text("We will get back to you soon", 100.0, 380.0));
    assert_eq!(judge(&obs).outcome, Outcome::Success);
    // Empty fields and nothing else changed: nothing tells.
    let mut obs = stayed();
    obs.fields = fields_with(["", "", ""]);
    assert_eq!(judge(&obs).outcome, Outcome::Unknown);
}

#[test]
fn paths_and_fragment_routes() {
    assert_eq!(path_of("http://a.test/signup?x=1#top"), "/signup");
    assert_eq!(path_of("http://a.test/"), "/");
    assert_eq!(path_of("http://a.test"), "/");
    assert_eq!(path_of("http://a.test/#/thanks"), "/#/thanks");
    assert_eq!(
        path_of("http://a.test/app#!/orders/12?x"),
        "/app#/orders/12"
    );
    let mut obs = stayed();
    obs.url_before = "http://app.test/#/signup".into();
    obs.url_after = "http://app.test/#/welcome".into();
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Success);
    assert_eq!(fb.moved_to.as_deref(), Some("/#/welcome"));
}

#[test]
fn a_form_replaced_by_a_message_is_a_success() {
    let mut obs = stayed();
    obs.fields = vec![FieldState::default(); 3];
    obs.texts_after = vec![
        text("Create your account", 100.0, 20.0),
        text("All set!", 100.0, 100.0),
    ];
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Success);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].field, None);
}

#[test]
fn aria_invalid_fields_fail_with_their_description() {
    let mut obs = stayed();
    obs.fields[2].aria_invalid = true;
    obs.fields[2].described_by = "Use 8 or more characters".into();
    obs.fields[0].aria_invalid = true;
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].field, Some(2));
    assert_eq!(fb.invalid, vec![0]);
    let refs = field_refs(&signup());
    assert_eq!(
        fb.signature(&refs),
        "failure | name: (invalid) | password: use N or more characters"
    );
}

#[test]
fn described_by_beats_layout() {
    let mut obs = stayed();
    // Drawn far from every field, but the email field names it.
    obs.texts_after
        .push(text("Enter an email like name@example.com", 600.0, 600.0));
    obs.fields[1].described_by = "Enter an email like name@example.com".into();
    obs.fields[1].aria_invalid = true;
    let fb = judge(&obs);
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].field, Some(1));
}

#[test]
fn old_texts_labels_and_typed_values_are_not_feedback() {
    let mut obs = stayed();
    obs.texts_before
        .push(text("Use 8 or more characters", 100.0, 292.0));
    obs.texts_after
        .push(text("Use 8 or more characters", 100.0, 292.0));
    // Moved by a layout change: still the same text.
    obs.texts_after.push(text("Password:", 100.0, 250.0));
    obs.texts_after.push(text("Ada Lovelace", 100.0, 134.0));
    let fb = judge(&obs);
    assert!(fb.messages.is_empty(), "{fb:?}");
}

#[test]
fn dialogs_are_read() {
    let mut obs = stayed();
    obs.dialogs.push("Please accept the terms".into());
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages[0].channel, Channel::Dialog);
    // A dialog without any keyword, on a page that stayed: refused too.
    let mut obs = stayed();
    obs.dialogs.push("Hmm, have another look".into());
    assert_eq!(judge(&obs).outcome, Outcome::Failure);
    // One that says thanks: accepted.
    let mut obs = stayed();
    obs.dialogs.push("Thank you!".into());
    assert_eq!(judge(&obs).outcome, Outcome::Success);
}

#[test]
fn signatures_ignore_digits_order_whitespace_and_typed_values() {
    let mut a = stayed();
    a.texts_after
        .push(text("Password must be at least 8 characters", 100.0, 294.0));
    a.texts_after.push(text("Required", 100.0, 134.0));
    let mut b = stayed();
    b.fields = fields_with(["", "ada@example", "Abc"]);
    b.texts_after.push(text("Required", 100.0, 134.0));
    b.texts_after.push(text(
        "Password  must be at least 10 characters",
        100.0,
        294.0,
    ));
    let refs = field_refs(&signup());
    let (fa, fb) = (judge(&a), judge(&b));
    assert_eq!(fa.signature(&refs), fb.signature(&refs));
    assert_eq!(
        fa.signature(&refs),
        "failure | name: required | password: password must be at least N characters"
    );
    // The value a message quotes is masked.
    let mut c = stayed();
    c.texts_after
        .push(text("ada@example is not an address we know", 100.0, 214.0));
    let mut d = stayed();
    d.fields[1].value = "bob@example".into();
    d.texts_after
        .push(text("bob@example is not an address we know", 100.0, 214.0));
    assert_eq!(judge(&c).signature(&refs), judge(&d).signature(&refs));
    // Different messages, different states.
    let mut e = stayed();
    e.texts_after.push(text("Required", 100.0, 214.0));
    assert_ne!(judge(&e).signature(&refs), fa.signature(&refs));
}

#[test]
fn nothing_visible_is_unknown() {
    let fb = judge(&stayed());
    assert_eq!(fb.outcome, Outcome::Unknown);
    assert!(fb.messages.is_empty());
    assert_eq!(Feedback::unknown().signature(&[]), "unknown");
    assert!(!Feedback::unknown().observed);
}

#[test]
fn feedback_round_trips_through_json() {
    let mut obs = stayed();
    obs.statuses = vec![422];
    obs.texts_after.push(text("Required", 100.0, 134.0));
    let fb = judge(&obs);
    let json = serde_json::to_string(&fb).unwrap();
    let back: Feedback = serde_json::from_str(&json).unwrap();
    assert_eq!(back, fb);
}

#[test]
fn normalisation() {
    assert_eq!(
        normalize("  At least 12\n characters "),
        "at least N characters"
    );
    assert_eq!(words("Don’t match!"), vec!["don't", "match"]);
    assert!(has_phrase(&words("Thanks a lot"), "thank*"));
    assert!(!has_phrase(&words("invalid"), "valid"));
}

#[test]
fn layout_composes_with_another_attacher() {
    // As the runner does: layout first, then a graph for what layout leaves.
    let form = signup();
    let mut obs = stayed();
    obs.texts_after.push(text("Too common", 700.0, 700.0));
    let layout = attach_by_layout(&form, &obs.fields);
    let graph = |t: &str, _: Rect| (t == "Too common").then_some(2);
    let attach = |t: &str, r| layout(t, r).or_else(|| graph(t, r));
    let fb = classify(&form, &obs, &attach);
    assert_eq!(fb.messages[0].field, Some(2));
    assert_eq!(fb.outcome, Outcome::Failure);
}

#[test]
fn a_form_rendered_again_at_another_address_with_a_note_beside_a_field_is_refused() {
    let mut obs = stayed();
    obs.url_after = "http://app.test/signup/submit".into();
    obs.navigated = true;
    obs.texts_after.push(text(
        "Use at least two words, like Ada Lovelace",
        100.0,
        134.0,
    ));
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure, "{fb:?}");
    assert_eq!(fb.messages.len(), 1);
    assert_eq!(fb.messages[0].field, Some(0));
    // The same address change with the form gone is the page left: a success.
    let mut gone = obs.clone();
    gone.fields = vec![FieldState::default(); 3];
    gone.texts_after = vec![text("Use the menu to find your way", 0.0, 100.0)];
    assert_eq!(judge(&gone).outcome, Outcome::Success);
}

/// A page the form came back on, its fields emptied, with `added` new texts.
fn posted(added: Vec<SeenText>, sent: &[&str]) -> Observation {
    let mut obs = stayed();
    obs.url_after = "http://app.test/signup?done=1".into();
    obs.navigated = true;
    obs.fields = fields_with(["", "", ""]);
    obs.texts_after.extend(added);
    obs.sent = sent.iter().map(|s| s.to_string()).collect();
    obs
}

#[test]
fn a_success_said_outright_makes_the_new_entry_beside_a_field_no_message() {
    // The new entry (its author and date) sits just below the name field.
    let entry = || {
        vec![
            text("Robin Diaz", 100.0, 134.0),
            text("6 Dec 2026", 290.0, 134.0),
        ]
    };
    let mut added = entry();
    added.push(SeenText {
        live: true,
        ..text("Comment posted.", 600.0, 10.0)
    });
    let fb = judge(&posted(added, &["Ada Lovelace"]));
    assert_eq!(fb.outcome, Outcome::Success, "{fb:?}");
    assert_eq!(fb.messages.len(), 1, "{fb:?}");
    assert_eq!(fb.messages[0].text, "Comment posted.");
    assert_eq!(fb.messages[0].field, None);
    // Without the success, a new text beside a field is still an error about it.
    let fb = judge(&posted(entry(), &["Ada Lovelace"]));
    assert_eq!(fb.outcome, Outcome::Failure);
    assert_eq!(fb.messages[0].field, Some(0));
}

#[test]
fn the_values_sent_shown_back_are_no_messages() {
    // The page shows the posted text, whose words would say success.
    let shown = text("Great service, thank you!", 100.0, 500.0);
    let fb = judge(&posted(vec![shown.clone()], &["Great service, thank you!"]));
    assert!(fb.messages.is_empty(), "{fb:?}");
    let fb = judge(&posted(vec![shown], &[]));
    assert_eq!(fb.messages.len(), 1, "{fb:?}");
}

#[test]
fn a_text_shown_as_an_alarm_on_the_forms_page_is_an_error() {
    let red = SeenText {
        live: true,
        alarm: true,
        ..text("Write something before posting.", 100.0, 20.0)
    };
    let mut obs = stayed();
    obs.texts_after.push(red.clone());
    let fb = judge(&obs);
    assert_eq!(fb.outcome, Outcome::Failure, "{fb:?}");
    assert_eq!(fb.messages[0].channel, Channel::Alert);
    // The same words in plain text say nothing.
    let mut obs = stayed();
    obs.texts_after.push(SeenText {
        alarm: false,
        ..red
    });
    assert_ne!(judge(&obs).outcome, Outcome::Failure);
    // On a page left for another, a red text (an "Overdue" badge) is no refusal.
    let mut obs = stayed();
    obs.url_after = "http://app.test/projects/7".into();
    obs.navigated = true;
    obs.fields = vec![FieldState::default(); 3];
    obs.texts_after = vec![SeenText {
        alarm: true,
        ..text("Overdue", 100.0, 300.0)
    }];
    assert_eq!(judge(&obs).outcome, Outcome::Success);
}
