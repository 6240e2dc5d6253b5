//! Registration forms: an account sign-up (server-side, inline errors, redirect to a
//! welcome page), a newsletter subscription (page JavaScript, one toast that vanishes
//! after three seconds, then a `fetch`) and an event registration (server-side, inline
//! errors tied to their fields with `aria-invalid` and `aria-describedby`, one field
//! required only when a checkbox is ticked).

use axum::extract::{Query, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Form, Json, Router};

use super::common::{
    Fields, Problem, fss, looks_like_email_without_double_dots, problem_for, query_string,
    raw_value, record, value,
};
use super::{FormCategory, Gallery, GalleryForm, page};
use crate::ground_truth::FssSpec;
use crate::html::escape;

pub(super) const FORMS: &[GalleryForm] = &[
    GalleryForm {
        id: "signup",
        category: FormCategory::Registration,
        title: "Create an account",
        path: "/forms/signup",
    },
    GalleryForm {
        id: "newsletter",
        category: FormCategory::Registration,
        title: "Newsletter subscription",
        path: "/forms/newsletter",
    },
    GalleryForm {
        id: "event",
        category: FormCategory::Registration,
        title: "Event registration",
        path: "/forms/event",
    },
];

pub(super) const STATES: &[FssSpec] = &[
    // signup: server-side, messages inline under each field; username and email kept,
    // passwords cleared as real sites do.
    fss(
        "signup.success",
        "signup",
        true,
        "Redirect to a welcome page. E.g. username ada1815, email ada@example.com, password \
         and confirmation analytical9, terms ticked.",
    ),
    fss(
        "signup.username-missing",
        "signup",
        false,
        "\"Choose a username.\" under Username: empty or only spaces.",
    ),
    fss(
        "signup.username-format",
        "signup",
        false,
        "\"Usernames are 3–16 characters, letters and digits only.\" under Username: \
         shorter than 3, longer than 16, or with spaces, punctuation or accents.",
    ),
    fss(
        "signup.email-missing",
        "signup",
        false,
        "\"Enter your email address. We'll send you a confirmation link.\" under Email: \
         empty or only spaces.",
    ),
    fss(
        "signup.email-invalid",
        "signup",
        false,
        "\"Hmm, that doesn't look like an email address.\" under Email: no @, no dot in \
         the domain, spaces, etc.",
    ),
    fss(
        "signup.password-short",
        "signup",
        false,
        "\"Your password needs at least 8 characters.\" under Password: empty or shorter \
         than 8 (the hint says so).",
    ),
    fss(
        "signup.password-digit",
        "signup",
        false,
        "\"Add at least one digit (0–9) to your password.\" under Password: 8 or more \
         characters without a digit.",
    ),
    fss(
        "signup.password-mismatch",
        "signup",
        false,
        "\"Passwords do not match.\" under Confirm password when it differs from Password.",
    ),
    fss(
        "signup.terms",
        "signup",
        false,
        "\"You must accept the Terms of Service to create an account.\" under the terms \
         checkbox when it is not ticked.",
    ),
    // newsletter: page JS, one toast at a time that is removed after 3 s.
    fss(
        "newsletter.success",
        "newsletter",
        true,
        "A message that stays: \"You're subscribed! Check your inbox to confirm.\" E.g. \
         email ada@example.com, topic Product news, frequency Weekly (name optional).",
    ),
    fss(
        "newsletter.email-missing",
        "newsletter",
        false,
        "Toast \"Enter your email so we know where to send it.\": email empty or only \
         spaces (checked first).",
    ),
    fss(
        "newsletter.email-invalid",
        "newsletter",
        false,
        "Toast \"That email address looks incomplete. Please check it.\": email without @, \
         without a dot in the domain, with spaces, etc.",
    ),
    fss(
        "newsletter.no-topic",
        "newsletter",
        false,
        "Toast \"Pick at least one topic.\": valid email but no topic ticked.",
    ),
    fss(
        "newsletter.no-frequency",
        "newsletter",
        false,
        "Toast \"How often should we write? Choose weekly or monthly.\": email and topic \
         fine but no frequency chosen.",
    ),
    // event: server-side, inline messages linked by aria-describedby, aria-invalid set.
    fss(
        "event.success",
        "event",
        true,
        "Redirect to a confirmation page. E.g. Ada Lovelace, ada@example.com, phone empty \
         or +1 555 123 4567, 1 ticket, no guest (or a guest named Charles Babbage with 2 \
         tickets).",
    ),
    fss(
        "event.name-missing",
        "event",
        false,
        "\"Please enter your full name as it should appear on your badge.\" under Full \
         name: empty or only spaces.",
    ),
    fss(
        "event.email-missing",
        "event",
        false,
        "\"We send your tickets by email, so we need your address.\" under Email: empty.",
    ),
    fss(
        "event.email-invalid",
        "event",
        false,
        "\"That email address isn't quite right. Check for typos.\" under Email: not an \
         address (no @, no dot in the domain, spaces).",
    ),
    fss(
        "event.phone-invalid",
        "event",
        false,
        "\"Enter a phone number with 7 to 15 digits, like +1 555 123 4567.\" under Phone \
         (optional): letters or other symbols, a + not at the start, or too few/many digits.",
    ),
    fss(
        "event.tickets-range",
        "event",
        false,
        "\"You can book between 1 and 6 tickets per order.\" under Tickets: empty, not a \
         whole number, 0 or less, 7 or more.",
    ),
    fss(
        "event.guest-name-missing",
        "event",
        false,
        "\"Since you're bringing a guest, please tell us their name.\" under Guest's name \
         when the guest box is ticked and the name is empty.",
    ),
    fss(
        "event.guest-tickets",
        "event",
        false,
        "\"With a guest you'll need at least 2 tickets.\" under Tickets when the guest box \
         is ticked and 1 ticket is chosen (hint: guests need their own ticket).",
    ),
];

pub(super) fn routes() -> Router<Gallery> {
    Router::new()
        .route("/forms/signup", get(signup_form).post(signup_submit))
        .route("/forms/signup/welcome", get(signup_welcome))
        .route(
            "/forms/newsletter",
            get(newsletter_form).post(newsletter_submit),
        )
        .route("/forms/event", get(event_form).post(event_submit))
        .route("/forms/event/confirmed", get(event_confirmed))
}

/// `<p class="error" id="NAME-error">` for `field`'s problem, if any.
fn error_for(problems: &[Problem], field: &str) -> String {
    problem_for(problems, field)
        .map(|p| {
            format!(
                r#"<p class="error" id="{field}-error">{}</p>"#,
                escape(&p.message)
            )
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// signup

fn check_signup(fields: &[(String, String)]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let username = value(fields, "username");
    if username.is_empty() {
        problems.push(Problem::new(
            "username",
            "signup.username-missing",
            "Choose a username.",
        ));
    } else if !((3..=16).contains(&username.chars().count())
        && username.chars().all(|c| c.is_ascii_alphanumeric()))
    {
        problems.push(Problem::new(
            "username",
            "signup.username-format",
            "Usernames are 3–16 characters, letters and digits only.",
        ));
    }
    let email = value(fields, "email");
    if email.is_empty() {
        problems.push(Problem::new(
            "email",
            "signup.email-missing",
            "Enter your email address. We'll send you a confirmation link.",
        ));
    } else if !looks_like_email_without_double_dots(email) {
        problems.push(Problem::new(
            "email",
            "signup.email-invalid",
            "Hmm, that doesn't look like an email address.",
        ));
    }
    let password = raw_value(fields, "password");
    if password.chars().count() < 8 {
        problems.push(Problem::new(
            "password",
            "signup.password-short",
            "Your password needs at least 8 characters.",
        ));
    } else if !password.chars().any(|c| c.is_ascii_digit()) {
        problems.push(Problem::new(
            "password",
            "signup.password-digit",
            "Add at least one digit (0–9) to your password.",
        ));
    }
    if raw_value(fields, "password_confirm") != password {
        problems.push(Problem::new(
            "password_confirm",
            "signup.password-mismatch",
            "Passwords do not match.",
        ));
    }
    if value(fields, "terms").is_empty() {
        problems.push(Problem::new(
            "terms",
            "signup.terms",
            "You must accept the Terms of Service to create an account.",
        ));
    }
    problems
}

fn signup_page(fields: &[(String, String)], problems: &[Problem]) -> Html<String> {
    let terms = if value(fields, "terms").is_empty() {
        ""
    } else {
        " checked"
    };
    let body = format!(
        r#"<p>Create your free account. It takes less than a minute.</p>
<form method="post" action="/forms/signup" novalidate>
<div class="row"><label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" value="{username}">
<small>3–16 letters or digits.</small>{username_err}</div>
<div class="row"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" placeholder="you@example.com" value="{email}">{email_err}</div>
<div class="row"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password">
<small>At least 8 characters, including a number.</small>{password_err}</div>
<div class="row"><label for="password_confirm">Confirm password</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password">{confirm_err}</div>
<div class="row"><input id="terms" name="terms" type="checkbox" value="yes"{terms}>
<label for="terms">I accept the Terms of Service and the Privacy Policy</label>{terms_err}</div>
<p><button type="submit">Create account</button></p>
</form>"#,
        username = escape(value(fields, "username")),
        email = escape(value(fields, "email")),
        username_err = error_for(problems, "username"),
        email_err = error_for(problems, "email"),
        password_err = error_for(problems, "password"),
        confirm_err = error_for(problems, "password_confirm"),
        terms_err = error_for(problems, "terms"),
    );
    page("Create an account", &body)
}

async fn signup_form() -> Html<String> {
    signup_page(&[], &[])
}

async fn signup_submit(State(state): State<Gallery>, Form(fields): Form<Fields>) -> Response {
    let problems = check_signup(&fields);
    if !problems.is_empty() {
        record(&state, &problems);
        return signup_page(&fields, &problems).into_response();
    }
    state.hit("signup.success");
    let query = query_string(&[("user", value(&fields, "username"))]);
    Redirect::to(&format!("/forms/signup/welcome?{query}")).into_response()
}

async fn signup_welcome(Query(q): Query<Fields>) -> Html<String> {
    let body = format!(
        r#"<p class="ok">Welcome aboard, {}! Your account is ready.</p>
<p>We've sent a confirmation link to your inbox. <a href="/">Explore more forms</a></p>"#,
        escape(value(&q, "user"))
    );
    page("Welcome", &body)
}

// ---------------------------------------------------------------------------------------
// newsletter

const TOPICS: [(&str, &str); 4] = [
    ("product", "Product news"),
    ("tips", "Tips & tutorials"),
    ("events", "Events near you"),
    ("deals", "Deals & discounts"),
];

/// The first problem of a subscription, in the order the page checks them.
fn check_newsletter(fields: &[(String, String)]) -> Option<(&'static str, &'static str)> {
    let email = value(fields, "email");
    let topics = fields
        .iter()
        .filter(|(n, v)| n == "topics" && !v.trim().is_empty())
        .count();
    let frequency = value(fields, "frequency");
    if email.is_empty() {
        Some((
            "newsletter.email-missing",
            "Enter your email so we know where to send it.",
        ))
    } else if !looks_like_email_without_double_dots(email) {
        Some((
            "newsletter.email-invalid",
            "That email address looks incomplete. Please check it.",
        ))
    } else if topics == 0 {
        Some(("newsletter.no-topic", "Pick at least one topic."))
    } else if !["weekly", "monthly"].contains(&frequency) {
        Some((
            "newsletter.no-frequency",
            "How often should we write? Choose weekly or monthly.",
        ))
    } else {
        None
    }
}

async fn newsletter_form() -> Html<String> {
    let topics: String = TOPICS
        .iter()
        .map(|(v, label)| {
            format!(
                r#"<label><input type="checkbox" name="topics" value="{v}"> {}</label><br>"#,
                escape(label)
            )
        })
        .collect();
    let body = format!(
        r#"<p>Get the best of our blog in your inbox. No spam, unsubscribe any time.</p>
<form id="newsletter-form" method="post" action="/forms/newsletter" novalidate>
<div class="row"><input name="first_name" type="text" autocomplete="given-name" placeholder="First name (optional)"></div>
<div class="row"><input name="email" type="email" autocomplete="email" aria-label="Email address" placeholder="you@example.com"></div>
<fieldset><legend>What are you interested in?</legend>{topics}</fieldset>
<fieldset><legend>How often?</legend>
<label><input type="radio" name="frequency" value="weekly"> Weekly digest</label>
<label><input type="radio" name="frequency" value="monthly"> Monthly roundup</label>
</fieldset>
<p><button type="submit">Subscribe</button></p>
</form>
<div id="newsletter-done" role="status"></div>
<div id="toasts" style="position:fixed;bottom:1em;right:1em"></div>
{NEWSLETTER_SCRIPT}"#
    );
    page("Newsletter subscription", &body)
}

/// Checks the form in the page and shows the first problem as a toast that is removed
/// after three seconds; a good subscription is sent with `fetch` and its thanks stay.
const NEWSLETTER_SCRIPT: &str = r#"<script>
(function () {
  var form = document.getElementById('newsletter-form');
  var done = document.getElementById('newsletter-done');
  var toasts = document.getElementById('toasts');
  function toast(text) {
    toasts.innerHTML = '';
    var t = document.createElement('div');
    t.className = 'banner';
    t.setAttribute('role', 'alert');
    t.style.background = '#fff';
    t.textContent = text;
    toasts.appendChild(t);
    setTimeout(function () { t.remove(); }, 3000);
  }
  function looksLikeEmail(s) {
    var at = s.indexOf('@');
    if (at < 1 || s.indexOf('@', at + 1) >= 0 || /\s/.test(s)) return false;
    var domain = s.slice(at + 1);
    return domain.indexOf('.') >= 0 && domain[0] !== '.' &&
      domain[domain.length - 1] !== '.' && domain.indexOf('..') < 0;
  }
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    done.textContent = '';
    var email = form.elements.email.value.trim();
    var topics = form.querySelectorAll('input[name="topics"]:checked').length;
    var frequency = form.querySelector('input[name="frequency"]:checked');
    var problem = null;
    if (!email) problem = ['newsletter.email-missing', 'Enter your email so we know where to send it.'];
    else if (!looksLikeEmail(email)) problem = ['newsletter.email-invalid', 'That email address looks incomplete. Please check it.'];
    else if (!topics) problem = ['newsletter.no-topic', 'Pick at least one topic.'];
    else if (!frequency) problem = ['newsletter.no-frequency', 'How often should we write? Choose weekly or monthly.'];
    if (problem) {
      curioTruth(problem[0]);
      toast(problem[1]);
      return;
    }
    fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)) })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (answer.ok) {
          var p = document.createElement('p');
          p.className = 'ok';
          p.textContent = answer.message;
          done.appendChild(p);
          form.reset();
        } else {
          toast(answer.message);
        }
      })
      .catch(function () { toast('Something went wrong. Please try again later.'); });
  });
})();
</script>"#;

/// The `fetch` of the page; it checks again (and records what it answers) because a
/// request can come without the page's checks.
async fn newsletter_submit(
    State(state): State<Gallery>,
    Form(fields): Form<Fields>,
) -> Json<serde_json::Value> {
    if let Some((id, message)) = check_newsletter(&fields) {
        state.hit(id);
        return Json(serde_json::json!({"ok": false, "message": message}));
    }
    state.hit("newsletter.success");
    let name = value(&fields, "first_name");
    let message = if name.is_empty() {
        "You're subscribed! Check your inbox to confirm.".to_owned()
    } else {
        format!("You're subscribed, {name}! Check your inbox to confirm.")
    };
    Json(serde_json::json!({"ok": true, "message": message}))
}

// ---------------------------------------------------------------------------------------
// event

const DIETS: [&str; 6] = [
    "No special requirements",
    "Vegetarian",
    "Vegan",
    "Gluten-free",
    "Halal",
    "Kosher",
];

/// 7 to 15 digits, with spaces, dashes, dots, brackets and one leading `+` allowed.
fn phone_ok(text: &str) -> bool {
    let digits = text.chars().filter(char::is_ascii_digit).count();
    let rest = text.strip_prefix('+').unwrap_or(text);
    (7..=15).contains(&digits)
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || " -.()".contains(c))
}

fn check_event(fields: &[(String, String)]) -> Vec<Problem> {
    let mut problems = Vec::new();
    if value(fields, "full_name").is_empty() {
        problems.push(Problem::new(
            "full_name",
            "event.name-missing",
            "Please enter your full name as it should appear on your badge.",
        ));
    }
    let email = value(fields, "email");
    if email.is_empty() {
        problems.push(Problem::new(
            "email",
            "event.email-missing",
            "We send your tickets by email, so we need your address.",
        ));
    } else if !looks_like_email_without_double_dots(email) {
        problems.push(Problem::new(
            "email",
            "event.email-invalid",
            "That email address isn't quite right. Check for typos.",
        ));
    }
    let phone = value(fields, "phone");
    if !phone.is_empty() && !phone_ok(phone) {
        problems.push(Problem::new(
            "phone",
            "event.phone-invalid",
            "Enter a phone number with 7 to 15 digits, like +1 555 123 4567.",
        ));
    }
    let guest = !value(fields, "guest").is_empty();
    match value(fields, "tickets").parse::<u32>() {
        Ok(n) if (1..=6).contains(&n) => {
            if guest && n < 2 {
                problems.push(Problem::new(
                    "tickets",
                    "event.guest-tickets",
                    "With a guest you'll need at least 2 tickets.",
                ));
            }
        }
        _ => problems.push(Problem::new(
            "tickets",
            "event.tickets-range",
            "You can book between 1 and 6 tickets per order.",
        )),
    }
    if guest && value(fields, "guest_name").is_empty() {
        problems.push(Problem::new(
            "guest_name",
            "event.guest-name-missing",
            "Since you're bringing a guest, please tell us their name.",
        ));
    }
    problems
}

fn event_page(fields: &[(String, String)], problems: &[Problem]) -> Html<String> {
    // An input's accessibility attributes: its hint and, when it has one, its message.
    let aria = |name: &str, hint: bool| {
        let mut ids = Vec::new();
        if hint {
            ids.push(format!("{name}-hint"));
        }
        let invalid = problem_for(problems, name).is_some();
        if invalid {
            ids.push(format!("{name}-error"));
        }
        let mut out = String::new();
        if invalid {
            out.push_str(r#" aria-invalid="true""#);
        }
        if !ids.is_empty() {
            out.push_str(&format!(r#" aria-describedby="{}""#, ids.join(" ")));
        }
        out
    };
    let v = |name: &str| escape(value(fields, name));
    let tickets = if fields.is_empty() {
        "1".to_owned()
    } else {
        v("tickets")
    };
    let diet = value(fields, "diet");
    let diets: String = DIETS
        .iter()
        .map(|d| {
            let sel = if *d == diet { " selected" } else { "" };
            format!("<option{sel}>{d}</option>")
        })
        .collect();
    let guest = if value(fields, "guest").is_empty() {
        ""
    } else {
        " checked"
    };
    let body = format!(
        r#"<p><strong>Open Source Summit 2026</strong> · two days of talks and workshops. Registration is free; lunch is included.</p>
<form method="post" action="/forms/event" novalidate>
<fieldset><legend>About you</legend>
<div class="row"><label for="full_name">Full name</label>
<input id="full_name" name="full_name" type="text" autocomplete="name" value="{name}"{name_aria}>{name_err}</div>
<div class="row"><label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" value="{email}"{email_aria}>{email_err}</div>
<div class="row"><label for="phone">Phone</label>
<input id="phone" name="phone" type="tel" autocomplete="tel" value="{phone}"{phone_aria}>
<small id="phone-hint">Optional, for last-minute changes. E.g. +1 555 123 4567</small>{phone_err}</div>
</fieldset>
<fieldset><legend>Tickets</legend>
<div class="row"><label for="tickets">Number of tickets</label>
<input id="tickets" name="tickets" type="number" min="1" max="6" value="{tickets}"{tickets_aria}>
<small id="tickets-hint">Up to 6 per order.</small>{tickets_err}</div>
<div class="row"><label for="diet">Dietary needs</label>
<select id="diet" name="diet">{diets}</select></div>
</fieldset>
<fieldset><legend>Guest</legend>
<div class="row"><input id="guest" name="guest" type="checkbox" value="yes"{guest}>
<label for="guest">I'm bringing a guest</label></div>
<div class="row"><label for="guest_name">Guest's name</label>
<input id="guest_name" name="guest_name" type="text" autocomplete="off" value="{guest_name}"{guest_aria}>
<small id="guest_name-hint">Required if you're bringing a guest. Guests need their own ticket.</small>{guest_err}</div>
</fieldset>
<p><button type="submit">Register</button></p>
</form>"#,
        name = v("full_name"),
        email = v("email"),
        phone = v("phone"),
        guest_name = v("guest_name"),
        name_aria = aria("full_name", false),
        email_aria = aria("email", false),
        phone_aria = aria("phone", true),
        tickets_aria = aria("tickets", true),
        guest_aria = aria("guest_name", true),
        name_err = error_for(problems, "full_name"),
        email_err = error_for(problems, "email"),
        phone_err = error_for(problems, "phone"),
        tickets_err = error_for(problems, "tickets"),
        guest_err = error_for(problems, "guest_name"),
    );
    page("Event registration", &body)
}

async fn event_form() -> Html<String> {
    event_page(&[], &[])
}

async fn event_submit(State(state): State<Gallery>, Form(fields): Form<Fields>) -> Response {
    let problems = check_event(&fields);
    if !problems.is_empty() {
        record(&state, &problems);
        return event_page(&fields, &problems).into_response();
    }
    state.hit("event.success");
    let query = query_string(&[
        ("name", value(&fields, "full_name")),
        ("email", value(&fields, "email")),
        ("tickets", value(&fields, "tickets")),
        ("guest", value(&fields, "guest_name")),
    ]);
    Redirect::to(&format!("/forms/event/confirmed?{query}")).into_response()
}

async fn event_confirmed(Query(q): Query<Fields>) -> Html<String> {
    let guest = match value(&q, "guest") {
        "" => String::new(),
        g => format!(" Your guest {} is on the list too.", escape(g)),
    };
    let body = format!(
        r#"<p class="ok">You're registered, {name}! {tickets} ticket(s) are on their way to {email}.{guest}</p>
<p><a href="/">Back to all forms</a></p>"#,
        name = escape(value(&q, "name")),
        tickets = escape(value(&q, "tickets")),
        email = escape(value(&q, "email")),
    );
    page("See you there", &body)
}

#[cfg(test)]
mod tests {
    use super::super::common::http::{get, hits, post};
    use super::*;
    use crate::{Subject, serve};

    #[test]
    fn every_state_of_this_file_is_well_formed() {
        for s in STATES {
            assert!(FORMS.iter().any(|f| f.id == s.form), "{}", s.id);
            assert!(s.id.starts_with(&format!("{}.", s.form)), "{}", s.id);
        }
        for f in FORMS {
            let n = STATES.iter().filter(|s| s.form == f.id).count();
            assert!((3..=10).contains(&n), "{}: {n} states", f.id);
        }
        assert!(phone_ok("+1 555 123 4567"));
        assert!(phone_ok("(030) 1234-5678"));
        assert!(!phone_ok("555-CALL-NOW"));
        assert!(!phone_ok("12 3+45 6789"));
        assert!(!phone_ok("12345"));
    }

    #[tokio::test]
    async fn registration_pages_render() {
        let app = serve(Subject::Gallery).await.unwrap();
        for (path, needle) in [
            ("/forms/signup", r#"autocomplete="new-password""#),
            (
                "/forms/newsletter",
                "setTimeout(function () { t.remove(); }, 3000)",
            ),
            ("/forms/event", "<legend>Guest</legend>"),
        ] {
            let reply = get(&app, path).await;
            assert_eq!(reply.status, 200, "{path}");
            assert!(reply.body.contains(needle), "{path} lacks {needle}");
        }
        assert!(hits(&app).is_empty());
        app.shutdown().await;
    }

    const SIGNUP: &str = "username=ada1815&email=ada%40example.com&password=analytical9&password_confirm=analytical9&terms=yes";

    #[tokio::test]
    async fn signup_success_and_failures() {
        let app = serve(Subject::Gallery).await.unwrap();
        let ok = post(&app, "/forms/signup", SIGNUP).await;
        assert_eq!(ok.status, 303);
        assert_eq!(ok.location(), Some("/forms/signup/welcome?user=ada1815"));
        let welcome = get(&app, "/forms/signup/welcome?user=ada1815").await;
        assert!(welcome.body.contains("Welcome aboard, ada1815!"));
        assert_eq!(hits(&app), ["signup.success".to_owned()].into());

        let app = serve(Subject::Gallery).await.unwrap();
        let mismatch = post(
            &app,
            "/forms/signup",
            &SIGNUP.replace(
                "password_confirm=analytical9",
                "password_confirm=analytical8",
            ),
        )
        .await;
        assert_eq!(mismatch.status, 200);
        assert!(mismatch.body.contains("Passwords do not match."));
        assert!(mismatch.body.contains(r#"value="ada1815""#));
        assert_eq!(hits(&app), ["signup.password-mismatch".to_owned()].into());
        post(
            &app,
            "/forms/signup",
            "username=a+b&email=ada&password=longenough&password_confirm=longenough",
        )
        .await;
        post(&app, "/forms/signup", "username=+&email=&password=short1").await;
        let all = hits(&app);
        for s in [
            "signup.username-format",
            "signup.email-invalid",
            "signup.password-digit",
            "signup.terms",
            "signup.username-missing",
            "signup.email-missing",
            "signup.password-short",
        ] {
            assert!(all.contains(s), "{s} in {all:?}");
        }
        assert!(!all.contains("signup.success"));
        app.shutdown().await;
    }

    #[tokio::test]
    async fn newsletter_answers_json() {
        let app = serve(Subject::Gallery).await.unwrap();
        let ok = post(
            &app,
            "/forms/newsletter",
            "first_name=Ada&email=ada%40example.com&topics=product&topics=tips&frequency=weekly",
        )
        .await;
        let json: serde_json::Value = serde_json::from_str(&ok.body).unwrap();
        assert_eq!(json["ok"], true);
        assert_eq!(
            json["message"],
            "You're subscribed, Ada! Check your inbox to confirm."
        );
        assert_eq!(hits(&app), ["newsletter.success".to_owned()].into());

        let app = serve(Subject::Gallery).await.unwrap();
        let none = post(
            &app,
            "/forms/newsletter",
            "email=ada%40example.com&frequency=weekly",
        )
        .await;
        let json: serde_json::Value = serde_json::from_str(&none.body).unwrap();
        assert_eq!(json["ok"], false);
        assert_eq!(json["message"], "Pick at least one topic.");
        assert_eq!(hits(&app), ["newsletter.no-topic".to_owned()].into());
        app.shutdown().await;
    }

    const EVENT: &str = "full_name=Ada+Lovelace&email=ada%40example.com&phone=%2B1+555+123+4567&tickets=2&diet=Vegan&guest=yes&guest_name=Charles+Babbage";

    #[tokio::test]
    async fn event_success_and_failures() {
        let app = serve(Subject::Gallery).await.unwrap();
        let ok = post(&app, "/forms/event", EVENT).await;
        assert_eq!(ok.status, 303);
        let confirmed = get(&app, ok.location().unwrap()).await;
        assert!(confirmed.body.contains("You're registered, Ada Lovelace!"));
        assert!(confirmed.body.contains("Charles Babbage"));
        assert_eq!(hits(&app), ["event.success".to_owned()].into());

        let app = serve(Subject::Gallery).await.unwrap();
        let no_guest = post(
            &app,
            "/forms/event",
            &EVENT.replace("guest_name=Charles+Babbage", "guest_name=+"),
        )
        .await;
        assert_eq!(no_guest.status, 200);
        assert!(no_guest.body.contains(
            r#"aria-invalid="true" aria-describedby="guest_name-hint guest_name-error""#
        ));
        assert!(no_guest.body.contains(
            r#"<p class="error" id="guest_name-error">Since you&#39;re bringing a guest"#
        ));
        assert!(no_guest.body.contains(r#"<option selected>Vegan</option>"#));
        assert_eq!(hits(&app), ["event.guest-name-missing".to_owned()].into());
        post(
            &app,
            "/forms/event",
            "full_name=&email=ada&phone=555-CALL&tickets=7",
        )
        .await;
        post(
            &app,
            "/forms/event",
            "full_name=Ada&email=&tickets=1&guest=yes&guest_name=Bob",
        )
        .await;
        let all = hits(&app);
        for s in [
            "event.name-missing",
            "event.email-invalid",
            "event.phone-invalid",
            "event.tickets-range",
            "event.email-missing",
            "event.guest-tickets",
        ] {
            assert!(all.contains(s), "{s} in {all:?}");
        }
        assert!(!all.contains("event.success"));
        app.shutdown().await;
    }
}
