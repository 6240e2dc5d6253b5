//! The contact form, whose "Order problem" submissions crash the server.

use std::collections::HashMap;

use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use super::layout::{Nav, page};
use super::{DemoState, F3_500_CONTACT, field, looks_like_email};
use crate::html::escape;

/// "Order problem" comes first, so it is the default: most people who write to a shop
/// write about an order, and it keeps the fault four steps from home.
const SUBJECTS: [&str; 4] = ["Order problem", "Product question", "Returns", "Other"];
const ORDER_PROBLEM: &str = SUBJECTS[0];

#[derive(Debug, Default)]
struct Message {
    name: String,
    email: String,
    subject: String,
    message: String,
}

fn form_page(values: &Message, problem: Option<&str>) -> Html<String> {
    let problem = problem
        .map(|p| format!(r#"<p class="error" role="alert">{}</p>"#, escape(p)))
        .unwrap_or_default();
    let subjects: String = SUBJECTS
        .iter()
        .map(|s| {
            let selected = if *s == values.subject {
                " selected"
            } else {
                ""
            };
            format!("<option{selected}>{s}</option>")
        })
        .collect();
    let content = format!(
        r#"<h1>Contact us</h1>
<p>Questions, problems, ideas: we answer within two working days.</p>
{problem}
<form method="post" action="/contact">
<label for="name">Your name</label>
<input id="name" name="name" type="text" autocomplete="name" value="{name}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="{email}">
<label for="subject">Subject</label>
<select id="subject" name="subject">{subjects}</select>
<label for="message">Message</label>
<textarea id="message" name="message" rows="5" placeholder="For order problems, please give your order number (e.g. #1042)">{message}</textarea>
<p><button type="submit" class="primary">Send</button></p>
</form>"#,
        name = escape(&values.name),
        email = escape(&values.email),
        message = escape(&values.message),
    );
    page("Contact", Nav::Contact, &content, DRAFT_SCRIPT)
}

/// Keeps the typed text of an unsent message as a draft on this device and restores it on
/// the next visit, unless the server sent the form back with the submitted values. A user
/// who leaves half-way loses nothing, and a random walk that fills the fields on
/// different visits still gets to send them all. The subject is not kept: it starts at
/// its default on every visit.
const DRAFT_SCRIPT: &str = r#"<script>
(function () {
  var names = ['name', 'email', 'message'];
  var fields = names.map(function (n) { return document.getElementById(n); });
  var echoed = fields.some(function (f) { return f.value !== ''; });
  if (!echoed) {
    try {
      var draft = JSON.parse(localStorage.getItem('curio-contact-draft') || '{}');
      fields.forEach(function (f, i) {
        if (typeof draft[names[i]] === 'string' && draft[names[i]] !== '') f.value = draft[names[i]];
      });
    } catch (_) {}
  }
  function save() {
    var draft = {};
    fields.forEach(function (f, i) { draft[names[i]] = f.value; });
    try { localStorage.setItem('curio-contact-draft', JSON.stringify(draft)); } catch (_) {}
  }
  fields.forEach(function (f) {
    f.addEventListener('input', save);
    f.addEventListener('change', save);
  });
  window.addEventListener('pagehide', save);
})();
</script>"#;

/// A sent message needs no draft any more.
const CLEAR_DRAFT_SCRIPT: &str = r#"<script>
try { localStorage.removeItem('curio-contact-draft'); } catch (_) {}
</script>"#;

pub(crate) async fn form() -> Html<String> {
    form_page(&Message::default(), None)
}

/// An invalid email gets the form back with a message (200); a non-empty "Order
/// problem" message crashes the ticket backend (500, the seeded fault); anything else
/// is thanked.
pub(crate) async fn submit(
    State(state): State<DemoState>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let values = Message {
        name: field(&form, "name").to_owned(),
        email: field(&form, "email").to_owned(),
        subject: field(&form, "subject").to_owned(),
        message: field(&form, "message").to_owned(),
    };
    if !looks_like_email(&values.email) {
        return form_page(&values, Some("Please enter a valid email address.")).into_response();
    }
    // The seeded bug: order problems are routed by the order number in the message,
    // and a message without one is not handled (the lookup fails and the server errors).
    if values.subject == ORDER_PROBLEM && order_number(&values.message).is_none() {
        state.truth.record(F3_500_CONTACT);
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            Html(
                "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Internal Server Error</title></head>\
                 <body><h1>Internal Server Error</h1>\
                 <p>The server encountered an unexpected condition that prevented it from fulfilling the request.</p>\
                 </body></html>\n",
            ),
        )
            .into_response();
    }
    let greeting = if values.name.is_empty() {
        "Thanks!".to_owned()
    } else {
        format!("Thanks, {}!", escape(&values.name))
    };
    let content = format!(
        r#"<h1>{greeting}</h1>
<p class="ok">We got your message and will reply to {email} within two working days.</p>
<p><a href="/">Back to the shop</a></p>"#,
        email = escape(&values.email),
    );
    page("Message sent", Nav::Contact, &content, CLEAR_DRAFT_SCRIPT).into_response()
}

/// The first `#`-prefixed or bare run of digits in a message, as customers write order
/// numbers ("order #1042", "order 1042").
fn order_number(message: &str) -> Option<u64> {
    message
        .split(|c: char| !c.is_ascii_digit())
        .find(|run| !run.is_empty())
        .and_then(|run| run.parse().ok())
}
