//! Data-entry forms: a shipping address (server-side, errors in a banner, placeholders
//! only), an invoice (HTML5 native validation plus page JavaScript for the date order,
//! labels in sibling spans), a support ticket (JSON over `fetch`, the server's field
//! errors shown inline) and a profile (server-side with inline errors, aria-label-only
//! inputs with cryptic names, a JavaScript bio counter).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};

use super::common::{
    civil_from_days, iso_date, js_string, looks_like_email_allowing_double_dots,
    native_truth_script, parse_date_long_year, raw_value, selected, today, value,
};
use super::{FormCategory, Gallery, GalleryForm, page};
use crate::ground_truth::FssSpec;
use crate::html::escape;

pub(super) const FORMS: &[GalleryForm] = &[
    GalleryForm {
        id: "address",
        category: FormCategory::DataEntry,
        title: "Shipping address",
        path: "/forms/address",
    },
    GalleryForm {
        id: "invoice",
        category: FormCategory::DataEntry,
        title: "New invoice",
        path: "/forms/invoice",
    },
    GalleryForm {
        id: "contact",
        category: FormCategory::DataEntry,
        title: "Contact support",
        path: "/forms/contact",
    },
    GalleryForm {
        id: "profile",
        category: FormCategory::DataEntry,
        title: "Edit profile",
        path: "/forms/profile",
    },
];

pub(super) const STATES: &[FssSpec] = &[
    // Shipping address: server-side, every problem listed in one banner.
    FssSpec {
        id: "address.saved",
        form: "address",
        success: true,
        description: "Redirect to an \"Address saved\" page: full name, street, city, a US ZIP \
                      (94105 or 94105-1804), country United States and an empty or plausible \
                      phone (e.g. +1 415 555 0132).",
    },
    FssSpec {
        id: "address.name-missing",
        form: "address",
        success: false,
        description: "Banner item \"Please enter the recipient's full name.\": full name empty \
                      or only spaces.",
    },
    FssSpec {
        id: "address.street-missing",
        form: "address",
        success: false,
        description: "Banner item \"We need a street address to deliver your order.\": street \
                      empty or only spaces.",
    },
    FssSpec {
        id: "address.city-missing",
        form: "address",
        success: false,
        description: "Banner item \"Which city should we ship to?\": city empty or only spaces.",
    },
    FssSpec {
        id: "address.zip-missing",
        form: "address",
        success: false,
        description: "Banner item \"Please add a ZIP code.\": ZIP empty or only spaces.",
    },
    FssSpec {
        id: "address.zip-invalid",
        form: "address",
        success: false,
        description: "Banner item \"Hmm, that doesn't look like a ZIP code...\": ZIP neither 5 \
                      digits nor 5+4 digits (e.g. 9410, abcde, 94105-18).",
    },
    FssSpec {
        id: "address.country-missing",
        form: "address",
        success: false,
        description: "Banner item \"Choose the country you're shipping to.\": the country \
                      select left at \"Country / region\".",
    },
    FssSpec {
        id: "address.country-unsupported",
        form: "address",
        success: false,
        description: "Banner item \"Sorry, we only ship within the United States for now.\": \
                      any country other than United States chosen.",
    },
    FssSpec {
        id: "address.phone-invalid",
        form: "address",
        success: false,
        description: "Banner item \"That phone number doesn't look right...\": phone given but \
                      with characters other than digits, spaces and a leading +, or fewer \
                      than 7 or more than 15 digits.",
    },
    // Invoice: native validation (recorded by the invalid listener) and page JS.
    FssSpec {
        id: "invoice.saved",
        form: "invoice",
        success: true,
        description: "Redirect to \"Invoice INV-… saved\": customer, invoice number empty or \
                      like INV-0042, issue date, due date empty or on/after the issue date, \
                      amount like 250.00, VAT 0-30 (e.g. 20).",
    },
    FssSpec {
        id: "invoice.customer-missing",
        form: "invoice",
        success: false,
        description: "Native \"Please fill out this field\" on Customer: customer empty or only \
                      spaces (the page trims it).",
    },
    FssSpec {
        id: "invoice.number-format",
        form: "invoice",
        success: false,
        description: "Native pattern message \"Please match the requested format: Format \
                      INV-0000...\" on Invoice number: a number not like INV-0042.",
    },
    FssSpec {
        id: "invoice.issue-missing",
        form: "invoice",
        success: false,
        description: "Native \"Please fill out this field\" on Issue date: the prefilled issue \
                      date cleared.",
    },
    FssSpec {
        id: "invoice.amount-missing",
        form: "invoice",
        success: false,
        description: "Native \"Please fill out this field\" on Amount: amount empty.",
    },
    FssSpec {
        id: "invoice.amount-too-small",
        form: "invoice",
        success: false,
        description: "Native \"Value must be greater than or equal to 0.01\" on Amount: 0 or a \
                      negative amount.",
    },
    FssSpec {
        id: "invoice.amount-precision",
        form: "invoice",
        success: false,
        description: "Native step message (\"Please enter a valid value. The two nearest valid \
                      values are...\") on Amount: more than two decimals, e.g. 10.005.",
    },
    FssSpec {
        id: "invoice.vat-negative",
        form: "invoice",
        success: false,
        description: "Native \"Value must be greater than or equal to 0\" on VAT %: a negative \
                      VAT rate.",
    },
    FssSpec {
        id: "invoice.vat-too-high",
        form: "invoice",
        success: false,
        description: "Native \"Value must be less than or equal to 30\" on VAT %: a VAT rate \
                      above 30.",
    },
    FssSpec {
        id: "invoice.due-before-issue",
        form: "invoice",
        success: false,
        description: "Page JS inline message \"The due date can't be before the issue date.\": \
                      a due date earlier than the issue date (all native checks passing).",
    },
    // Support ticket: JSON to /api/contact, 422 field errors shown inline.
    FssSpec {
        id: "contact.created",
        form: "contact",
        success: true,
        description: "201, status line \"Ticket #N created...\": name, email like \
                      ada@example.com, order number empty or 6 digits, a topic, a message of \
                      20 to 2000 characters.",
    },
    FssSpec {
        id: "contact.name-missing",
        form: "contact",
        success: false,
        description: "Inline \"Please tell us your name.\": name empty or only spaces.",
    },
    FssSpec {
        id: "contact.email-missing",
        form: "contact",
        success: false,
        description: "Inline \"We need your email address to reply.\": email empty or only \
                      spaces.",
    },
    FssSpec {
        id: "contact.email-invalid",
        form: "contact",
        success: false,
        description: "Inline \"That email address looks incomplete...\": email without @, \
                      without a dot in the domain, or with spaces.",
    },
    FssSpec {
        id: "contact.order-invalid",
        form: "contact",
        success: false,
        description: "Inline \"Order numbers have 6 digits, like 104233.\": order number given \
                      but not exactly 6 digits (an optional leading # is fine).",
    },
    FssSpec {
        id: "contact.topic-missing",
        form: "contact",
        success: false,
        description: "Inline \"Please choose a topic.\": topic left at \"Choose a topic…\".",
    },
    FssSpec {
        id: "contact.message-short",
        form: "contact",
        success: false,
        description: "Inline \"Please tell us a bit more (at least 20 characters)\": message \
                      shorter than 20 characters after trimming.",
    },
    FssSpec {
        id: "contact.message-long",
        form: "contact",
        success: false,
        description: "Inline \"That's a long one! Please keep it under 2,000 characters.\": \
                      message over 2000 characters.",
    },
    // Profile: server-side inline errors, bio length checked by page JS too.
    FssSpec {
        id: "profile.updated",
        form: "profile",
        success: true,
        description: "Redirect to \"Profile updated\": display name of 3-30 characters, a \
                      birth date at least 13 years ago (e.g. 1990-04-12), website empty or \
                      like https://example.com, bio up to 160 characters.",
    },
    FssSpec {
        id: "profile.name-missing",
        form: "profile",
        success: false,
        description: "Inline \"Choose a display name.\": display name empty or only spaces.",
    },
    FssSpec {
        id: "profile.name-length",
        form: "profile",
        success: false,
        description: "Inline \"Display names are 3 to 30 characters long.\": 1-2 or more than \
                      30 characters.",
    },
    FssSpec {
        id: "profile.birth-missing",
        form: "profile",
        success: false,
        description: "Inline \"Please add your date of birth.\": date of birth empty.",
    },
    FssSpec {
        id: "profile.birth-future",
        form: "profile",
        success: false,
        description: "Inline \"Your date of birth must be in the past.\": today or a later date.",
    },
    FssSpec {
        id: "profile.too-young",
        form: "profile",
        success: false,
        description: "Inline \"You must be at least 13 to have a profile.\": a past birth date \
                      less than 13 years ago.",
    },
    FssSpec {
        id: "profile.birth-implausible",
        form: "profile",
        success: false,
        description: "Inline \"Please enter a real date of birth.\": more than 120 years ago \
                      (or not a date).",
    },
    FssSpec {
        id: "profile.website-invalid",
        form: "profile",
        success: false,
        description: "Inline \"That doesn't look like a web address...\": website given but not \
                      http(s)://host.tld (e.g. example.com without https://, or with spaces).",
    },
    FssSpec {
        id: "profile.bio-long",
        form: "profile",
        success: false,
        description: "Inline \"Bio is too long (160 characters max).\" under the counter: bio \
                      over 160 characters (page JS on submit; the server says the same).",
    },
];

pub(super) fn routes() -> Router<Gallery> {
    Router::new()
        .route("/forms/address", get(address_form).post(address_submit))
        .route("/forms/address/saved", get(address_saved))
        .route("/forms/invoice", get(invoice_form).post(invoice_submit))
        .route("/forms/invoice/saved", get(invoice_saved))
        .route("/forms/contact", get(contact_form))
        .route("/api/contact", post(contact_api))
        .route("/forms/profile", get(profile_form).post(profile_submit))
        .route("/forms/profile/updated", get(profile_updated))
}

// ---------------------------------------------------------------------------------------
// Shipping address.

const COUNTRIES: [(&str, &str); 5] = [
    ("US", "United States"),
    ("CA", "Canada"),
    ("MX", "Mexico"),
    ("GB", "United Kingdom"),
    ("AU", "Australia"),
];

fn address_page(values: &HashMap<String, String>, problems: &[&str]) -> Html<String> {
    let banner = if problems.is_empty() {
        String::new()
    } else {
        let items: String = problems
            .iter()
            .map(|p| format!("<li>{}</li>", escape(p)))
            .collect();
        format!(
            r#"<div class="banner" role="alert"><p>We couldn't save this address:</p><ul>{items}</ul></div>"#
        )
    };
    let country = raw_value(values, "country");
    let options: String = COUNTRIES
        .iter()
        .map(|(code, name)| {
            format!(
                r#"<option value="{code}"{}>{name}</option>"#,
                selected(*code == country)
            )
        })
        .collect();
    let v = |name: &str| escape(raw_value(values, name));
    let body = format!(
        r#"{banner}<p>Where should we send your order? We deliver in 3-5 business days.</p>
<form method="post" action="/forms/address">
<div class="row"><input name="full_name" placeholder="Full name" autocomplete="name" size="40" value="{full_name}"></div>
<div class="row"><input name="street" placeholder="Street address, apt, suite" autocomplete="street-address" size="40" value="{street}"></div>
<div class="row"><input name="city" placeholder="City" autocomplete="address-level2" value="{city}"></div>
<div class="row"><input name="zip" placeholder="ZIP code (e.g. 94105)" autocomplete="postal-code" inputmode="numeric" value="{zip}"></div>
<div class="row"><select name="country" autocomplete="country"><option value="">Country / region</option>{options}</select></div>
<div class="row"><input name="phone" type="tel" placeholder="Phone (optional, for the courier)" autocomplete="tel" value="{phone}"></div>
<p><button type="submit">Save address</button></p>
</form>"#,
        full_name = v("full_name"),
        street = v("street"),
        city = v("city"),
        zip = v("zip"),
        phone = v("phone"),
    );
    page("Shipping address", &body)
}

async fn address_form() -> Html<String> {
    address_page(&HashMap::new(), &[])
}

fn is_zip(zip: &str) -> bool {
    let five = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
    match zip.split_once('-') {
        Some((head, tail)) => {
            five(head) && tail.len() == 4 && tail.bytes().all(|b| b.is_ascii_digit())
        }
        None => five(zip),
    }
}

fn is_phone(phone: &str) -> bool {
    let rest = phone.strip_prefix('+').unwrap_or(phone);
    let digits = rest.bytes().filter(u8::is_ascii_digit).count();
    rest.bytes().all(|b| b.is_ascii_digit() || b == b' ') && (7..=15).contains(&digits)
}

/// (state, message) of every problem of a submitted address, in form order.
fn address_problems(form: &HashMap<String, String>) -> Vec<(&'static str, &'static str)> {
    let mut problems = Vec::new();
    let blank = |name: &str| value(form, name).is_empty();
    if blank("full_name") {
        problems.push((
            "address.name-missing",
            "Please enter the recipient's full name.",
        ));
    }
    if blank("street") {
        problems.push((
            "address.street-missing",
            "We need a street address to deliver your order.",
        ));
    }
    if blank("city") {
        problems.push(("address.city-missing", "Which city should we ship to?"));
    }
    let zip = value(form, "zip");
    if zip.is_empty() {
        problems.push(("address.zip-missing", "Please add a ZIP code."));
    } else if !is_zip(zip) {
        problems.push((
            "address.zip-invalid",
            "Hmm, that doesn't look like a ZIP code. Use 5 digits (94105) or ZIP+4 (94105-1804).",
        ));
    }
    match raw_value(form, "country") {
        "" => problems.push((
            "address.country-missing",
            "Choose the country you're shipping to.",
        )),
        "US" => {}
        _ => problems.push((
            "address.country-unsupported",
            "Sorry, we only ship within the United States for now.",
        )),
    }
    let phone = value(form, "phone");
    if !phone.is_empty() && !is_phone(phone) {
        problems.push((
            "address.phone-invalid",
            "That phone number doesn't look right. Use digits and spaces, with an optional + in front.",
        ));
    }
    problems
}

async fn address_submit(
    State(state): State<Gallery>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let problems = address_problems(&form);
    if problems.is_empty() {
        state.hit("address.saved");
        return Redirect::to("/forms/address/saved").into_response();
    }
    for (id, _) in &problems {
        state.hit(id);
    }
    let messages: Vec<&str> = problems.iter().map(|(_, m)| *m).collect();
    address_page(&form, &messages).into_response()
}

async fn address_saved() -> Html<String> {
    page(
        "Address saved",
        r#"<p class="ok" role="status">Address saved. We'll ship your order there.</p>
<p><a href="/forms/address">Edit the address</a></p>"#,
    )
}

// ---------------------------------------------------------------------------------------
// Invoice.

const CURRENCIES: [&str; 4] = ["USD", "EUR", "GBP", "CHF"];
const DUE_BEFORE_ISSUE: &str = "The due date can't be before the issue date.";

/// Numbers for invoices saved without one.
static NEXT_INVOICE: AtomicU32 = AtomicU32::new(1001);

async fn invoice_form() -> Html<String> {
    let today = iso_date(today());
    let currencies: String = CURRENCIES
        .iter()
        .map(|c| format!("<option{}>{c}</option>", selected(*c == "USD")))
        .collect();
    let body = format!(
        r#"<p>Fields marked * are required.</p>
<form id="invoice-form" method="post" action="/forms/invoice">
<div class="row"><span>Customer *</span> <input name="customer" required autocomplete="organization" size="30"></div>
<div class="row"><span>Invoice number</span> <input name="number" pattern="INV-[0-9]{{4}}" title="Format INV-0000, e.g. INV-0042" placeholder="INV-0000"> <small>Leave empty to number it automatically.</small></div>
<div class="row"><span>Issue date *</span> <input type="date" name="issued" required value="{today}"></div>
<div class="row"><span>Due date</span> <input type="date" name="due" aria-describedby="due-error"> <small>Optional: leave empty if payable on receipt.</small> <span class="error" id="due-error"></span></div>
<div class="row"><span>Amount *</span> <input type="number" name="amount" required min="0.01" step="0.01" inputmode="decimal" placeholder="0.00"></div>
<div class="row"><span>Currency</span> <select name="currency">{currencies}</select></div>
<div class="row"><span>VAT %</span> <input type="number" name="vat" min="0" max="30" step="any" value="20"></div>
<p><button type="submit">Save invoice</button></p>
</form>
{native}{script}"#,
        script = INVOICE_SCRIPT.replace("DUE_BEFORE_ISSUE", &js_string(DUE_BEFORE_ISSUE)),
        native = native_truth_script(
            "invoice-form",
            &[
                ("customer", "valueMissing", "invoice.customer-missing"),
                ("number", "patternMismatch", "invoice.number-format"),
                ("issued", "valueMissing", "invoice.issue-missing"),
                ("amount", "valueMissing", "invoice.amount-missing"),
                ("amount", "rangeUnderflow", "invoice.amount-too-small"),
                ("amount", "stepMismatch", "invoice.amount-precision"),
                ("vat", "rangeUnderflow", "invoice.vat-negative"),
                ("vat", "rangeOverflow", "invoice.vat-too-high"),
            ],
        ),
    );
    page("New invoice", &body)
}

/// Trims the customer before the browser validates (a click on the submit button, real
/// or from pressing Enter, comes first), and checks the date order once the browser's
/// own checks pass.
const INVOICE_SCRIPT: &str = r#"<script>
(function () {
  var form = document.getElementById('invoice-form');
  var error = document.getElementById('due-error');
  form.querySelector('button[type=submit]').addEventListener('click', function () {
    form.elements['customer'].value = form.elements['customer'].value.trim();
  });
  form.addEventListener('submit', function (e) {
    error.textContent = '';
    var issued = form.elements['issued'].valueAsNumber, due = form.elements['due'].valueAsNumber;
    if (due < issued) {
      e.preventDefault();
      curioTruth('invoice.due-before-issue');
      error.textContent = DUE_BEFORE_ISSUE;
    }
  });
})();
</script>"#;

fn is_invoice_number(number: &str) -> bool {
    number
        .strip_prefix("INV-")
        .is_some_and(|n| n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What the page lets through; a client that skips the page's checks gets a bare 400,
/// which no browser user can see.
fn invoice_acceptable(form: &HashMap<String, String>) -> bool {
    let number = raw_value(form, "number");
    let Some(issued) = parse_date_long_year(raw_value(form, "issued")) else {
        return false;
    };
    let due_ok = match raw_value(form, "due") {
        "" => true,
        due => parse_date_long_year(due).is_some_and(|due| due >= issued),
    };
    let amount_ok = raw_value(form, "amount")
        .parse::<f64>()
        .is_ok_and(|a| a.is_finite() && a >= 0.01);
    let vat_ok = match raw_value(form, "vat") {
        "" => true,
        vat => vat.parse::<f64>().is_ok_and(|v| (0.0..=30.0).contains(&v)),
    };
    !value(form, "customer").is_empty()
        && (number.is_empty() || is_invoice_number(number))
        && due_ok
        && amount_ok
        && vat_ok
}

async fn invoice_submit(
    State(state): State<Gallery>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    if !invoice_acceptable(&form) {
        return (
            StatusCode::BAD_REQUEST,
            page("Bad request", "<p>This invoice could not be read.</p>"),
        )
            .into_response();
    }
    state.hit("invoice.saved");
    let number = match raw_value(&form, "number") {
        "" => format!(
            "INV-{:04}",
            NEXT_INVOICE.fetch_add(1, Ordering::Relaxed) % 10_000
        ),
        given => given.to_owned(),
    };
    Redirect::to(&format!("/forms/invoice/saved?number={number}")).into_response()
}

async fn invoice_saved(Query(q): Query<HashMap<String, String>>) -> Html<String> {
    let number = raw_value(&q, "number");
    let title = if is_invoice_number(number) {
        format!("Invoice {number} saved")
    } else {
        "Invoice saved".to_owned()
    };
    page(
        &title,
        r#"<p class="ok" role="status">The invoice is saved as a draft. You can send it to the customer from your invoice list.</p>
<p><a href="/forms/invoice">Create another invoice</a></p>"#,
    )
}

// ---------------------------------------------------------------------------------------
// Support ticket.

static NEXT_TICKET: AtomicU32 = AtomicU32::new(48_213);

async fn contact_form() -> Html<String> {
    let body = r#"<p>Our support team answers within one working day.</p>
<form id="ticket-form" novalidate>
<div class="row"><label for="t-name">Your name</label> <input id="t-name" name="name" autocomplete="name" aria-describedby="err-name"> <span class="error" id="err-name"></span></div>
<div class="row"><label for="t-email">Email address</label> <input id="t-email" name="email" type="email" autocomplete="email" aria-describedby="err-email"> <span class="error" id="err-email"></span></div>
<div class="row"><label for="t-order">Order number (optional)</label> <input id="t-order" name="order" inputmode="numeric" placeholder="e.g. 104233" aria-describedby="err-order"> <span class="error" id="err-order"></span></div>
<div class="row"><label for="t-topic">Topic</label> <select id="t-topic" name="category" aria-describedby="err-category"><option value="">Choose a topic…</option><option value="delivery">Delivery</option><option value="returns">Returns &amp; refunds</option><option value="billing">Billing</option><option value="product">Product question</option><option value="other">Something else</option></select> <span class="error" id="err-category"></span></div>
<div class="row"><label for="t-message">How can we help?</label><br><textarea id="t-message" name="message" rows="6" cols="60" aria-describedby="err-message"></textarea><br><small>Up to 2,000 characters.</small> <span class="error" id="err-message"></span></div>
<div class="row"><label><input type="checkbox" name="urgent"> This is urgent</label></div>
<p><button type="submit">Create ticket</button></p>
<p id="ticket-status" role="status"></p>
</form>
<script>
(function () {
  var form = document.getElementById('ticket-form');
  var status = document.getElementById('ticket-status');
  var names = ['name', 'email', 'order', 'category', 'message'];
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    names.forEach(function (n) { document.getElementById('err-' + n).textContent = ''; });
    status.textContent = '';
    status.className = '';
    var data = { urgent: form.elements['urgent'].checked };
    names.forEach(function (n) { data[n] = form.elements[n].value; });
    fetch('/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(data)
    }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      if (res.status === 201) {
        status.className = 'ok';
        status.textContent = 'Ticket #' + res.body.ticket + ' created. We will reply to ' + res.body.email + '.';
        form.reset();
      } else if (res.status === 422) {
        Object.keys(res.body.errors).forEach(function (n) {
          var el = document.getElementById('err-' + n);
          if (el) el.textContent = res.body.errors[n];
        });
      } else {
        status.className = 'error';
        status.textContent = 'Something went wrong. Please try again.';
      }
    }).catch(function () {
      status.className = 'error';
      status.textContent = 'We could not reach the server. Please try again.';
    });
  });
})();
</script>"#;
    page("Contact support", body)
}

/// (field, state, message) of every problem of a ticket, in form order.
fn ticket_problems(ticket: &serde_json::Value) -> Vec<(&'static str, &'static str, &'static str)> {
    let text = |name: &str| ticket.get(name).and_then(|v| v.as_str()).unwrap_or("");
    let mut problems = Vec::new();
    if text("name").trim().is_empty() {
        problems.push(("name", "contact.name-missing", "Please tell us your name."));
    }
    let email = text("email").trim();
    if email.is_empty() {
        problems.push((
            "email",
            "contact.email-missing",
            "We need your email address to reply.",
        ));
    } else if !looks_like_email_allowing_double_dots(email) {
        problems.push((
            "email",
            "contact.email-invalid",
            "That email address looks incomplete, e.g. name@example.com.",
        ));
    }
    let order = text("order").trim();
    let order = order.strip_prefix('#').unwrap_or(order);
    let six_digits = order.len() == 6 && order.bytes().all(|b| b.is_ascii_digit());
    if !order.is_empty() && !six_digits {
        problems.push((
            "order",
            "contact.order-invalid",
            "Order numbers have 6 digits, like 104233.",
        ));
    }
    if text("category").trim().is_empty() {
        problems.push((
            "category",
            "contact.topic-missing",
            "Please choose a topic.",
        ));
    }
    let message = text("message").trim().chars().count();
    if message < 20 {
        problems.push((
            "message",
            "contact.message-short",
            "Please tell us a bit more (at least 20 characters)",
        ));
    } else if message > 2000 {
        problems.push((
            "message",
            "contact.message-long",
            "That's a long one! Please keep it under 2,000 characters.",
        ));
    }
    problems
}

async fn contact_api(State(state): State<Gallery>, body: Bytes) -> Response {
    let Ok(ticket) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(serde_json::json!({ "error": "expected a JSON body" })),
        )
            .into_response();
    };
    let problems = ticket_problems(&ticket);
    if problems.is_empty() {
        state.hit("contact.created");
        let number = NEXT_TICKET.fetch_add(1, Ordering::Relaxed);
        let email = ticket["email"].as_str().unwrap_or("").trim();
        return (
            StatusCode::CREATED,
            Json(serde_json::json!({ "ticket": number, "email": email })),
        )
            .into_response();
    }
    let mut errors = serde_json::Map::new();
    for (name, id, message) in problems {
        state.hit(id);
        errors.insert(name.to_owned(), message.into());
    }
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        Json(serde_json::json!({ "errors": errors })),
    )
        .into_response()
}

// ---------------------------------------------------------------------------------------
// Profile.

const BIO_MAX: usize = 160;
const BIO_LONG: &str = "Bio is too long (160 characters max).";

fn profile_page(values: &HashMap<String, String>, errors: &HashMap<&str, &str>) -> Html<String> {
    let v = |name: &str| escape(raw_value(values, name));
    let e = |name: &str| {
        errors
            .get(name)
            .map(|m| format!(r#" <span class="error">{}</span>"#, escape(m)))
            .unwrap_or_default()
    };
    let bio = raw_value(values, "fld_d4").replace("\r\n", "\n");
    let body = format!(
        r#"<p>This is what other members see next to your posts.</p>
<form id="profile-form" method="post" action="/forms/profile" novalidate>
<div class="row"><input name="fld_a1" aria-label="Display name" autocomplete="nickname" size="30" value="{name}">{name_error}</div>
<div class="row"><input name="fld_b2" type="date" aria-label="Date of birth" autocomplete="bday" value="{birth}">{birth_error}</div>
<div class="row"><input name="fld_c3" type="url" aria-label="Website" autocomplete="url" size="40" value="{website}">{website_error}</div>
<div class="row"><textarea name="fld_d4" aria-label="Bio" rows="3" cols="50">{bio}</textarea> <small id="bio-count">0/160</small> <span class="error" id="bio-error">{bio_error}</span></div>
<p><button type="submit">Save changes</button></p>
</form>
{script}"#,
        script = PROFILE_SCRIPT.replace("BIO_LONG", &js_string(BIO_LONG)),
        name = v("fld_a1"),
        name_error = e("fld_a1"),
        birth = v("fld_b2"),
        birth_error = e("fld_b2"),
        website = v("fld_c3"),
        website_error = e("fld_c3"),
        bio = escape(&bio),
        bio_error = errors.get("fld_d4").map(|m| escape(m)).unwrap_or_default(),
    );
    page("Edit profile", &body)
}

/// A live `n/160` counter, and on submit the length check the server also makes.
const PROFILE_SCRIPT: &str = r#"<script>
(function () {
  var form = document.getElementById('profile-form');
  var bio = form.elements['fld_d4'];
  var count = document.getElementById('bio-count');
  var error = document.getElementById('bio-error');
  function length() { return Array.from(bio.value.replace(/\r\n/g, '\n')).length; }
  function update() {
    var n = length();
    count.textContent = n + '/160';
    count.className = n > 160 ? 'error' : '';
  }
  bio.addEventListener('input', update);
  update();
  form.addEventListener('submit', function (e) {
    error.textContent = '';
    if (length() > 160) {
      e.preventDefault();
      curioTruth('profile.bio-long');
      error.textContent = BIO_LONG;
    }
  });
})();
</script>"#;

async fn profile_form() -> Html<String> {
    profile_page(&HashMap::new(), &HashMap::new())
}

fn is_web_address(url: &str) -> bool {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let Some(rest) = rest else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.split(':').next().unwrap_or("");
    !url.contains(char::is_whitespace)
        && host
            .split_once('.')
            .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty() && !b.ends_with('.'))
}

/// (field, state, message) of every problem of a profile, in form order.
fn profile_problems(
    form: &HashMap<String, String>,
    today: i64,
) -> Vec<(&'static str, &'static str, &'static str)> {
    let mut problems = Vec::new();
    let name = value(form, "fld_a1");
    if name.is_empty() {
        problems.push(("fld_a1", "profile.name-missing", "Choose a display name."));
    } else if !(3..=30).contains(&name.chars().count()) {
        problems.push((
            "fld_a1",
            "profile.name-length",
            "Display names are 3 to 30 characters long.",
        ));
    }
    let birth = value(form, "fld_b2");
    if birth.is_empty() {
        problems.push((
            "fld_b2",
            "profile.birth-missing",
            "Please add your date of birth.",
        ));
    } else {
        let (ty, tm, td) = civil_from_days(today);
        match parse_date_long_year(birth) {
            Some(b) if b >= today => problems.push((
                "fld_b2",
                "profile.birth-future",
                "Your date of birth must be in the past.",
            )),
            Some(b) => {
                let (by, bm, bd) = civil_from_days(b);
                let age = ty - by - i64::from((tm, td) < (bm, bd));
                if age < 13 {
                    problems.push((
                        "fld_b2",
                        "profile.too-young",
                        "You must be at least 13 to have a profile.",
                    ));
                } else if age > 120 {
                    problems.push((
                        "fld_b2",
                        "profile.birth-implausible",
                        "Please enter a real date of birth.",
                    ));
                }
            }
            None => problems.push((
                "fld_b2",
                "profile.birth-implausible",
                "Please enter a real date of birth.",
            )),
        }
    }
    let website = value(form, "fld_c3");
    if !website.is_empty() && !is_web_address(website) {
        problems.push((
            "fld_c3",
            "profile.website-invalid",
            "That doesn't look like a web address. Include https://, e.g. https://example.com",
        ));
    }
    let bio = raw_value(form, "fld_d4").replace("\r\n", "\n");
    if bio.chars().count() > BIO_MAX {
        problems.push(("fld_d4", "profile.bio-long", BIO_LONG));
    }
    problems
}

async fn profile_submit(
    State(state): State<Gallery>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let problems = profile_problems(&form, today());
    if problems.is_empty() {
        state.hit("profile.updated");
        return Redirect::to("/forms/profile/updated").into_response();
    }
    let mut errors = HashMap::new();
    for (name, id, message) in problems {
        state.hit(id);
        errors.insert(name, message);
    }
    profile_page(&form, &errors).into_response()
}

async fn profile_updated() -> Html<String> {
    page(
        "Profile updated",
        r#"<p class="ok" role="status">Profile updated. Your changes are visible to other members now.</p>
<p><a href="/forms/profile">Back to your profile</a></p>"#,
    )
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::common::days_from_civil;
    use super::super::common::http::{get, hits, post, send};
    use super::*;
    use crate::{Subject, serve};

    #[test]
    fn values_are_checked() {
        assert!(is_zip("94105") && is_zip("94105-1804"));
        assert!(!is_zip("9410") && !is_zip("94105-18") && !is_zip("abcde"));
        assert!(is_phone("+1 415 555 0132") && !is_phone("555-0132") && !is_phone("+12"));
        assert!(
            looks_like_email_allowing_double_dots("ada@example.com")
                && !looks_like_email_allowing_double_dots("ada@example")
        );
        assert!(is_web_address("https://example.com/me") && !is_web_address("example.com"));
    }

    #[tokio::test]
    async fn address_saves_or_lists_problems_in_a_banner() {
        let app = serve(Subject::Gallery).await.unwrap();
        let page = get(&app, "/forms/address").await;
        assert_eq!(page.status, 200);
        assert!(page.body.contains(r#"placeholder="ZIP code (e.g. 94105)""#));
        assert!(!page.body.contains("<label"));

        let good = "full_name=Ada+Lovelace&street=1+Market+St&city=San+Francisco&zip=94105&country=US&phone=%2B1+415+555+0132";
        let saved = post(&app, "/forms/address", good).await;
        assert_eq!(saved.status, 303);
        assert_eq!(saved.location(), Some("/forms/address/saved"));
        assert!(
            get(&app, "/forms/address/saved")
                .await
                .body
                .contains("Address saved")
        );
        assert_eq!(hits(&app), BTreeSet::from(["address.saved".to_owned()]));

        let bad = post(
            &app,
            "/forms/address",
            "full_name=+&street=1+Market+St&city=San+Francisco&zip=941&country=CA",
        )
        .await;
        assert_eq!(bad.status, 200);
        assert!(bad.body.contains(r#"<div class="banner" role="alert">"#));
        assert!(bad.body.contains("doesn&#39;t look like a ZIP code"));
        assert!(bad.body.contains(r#"value="San Francisco""#));
        let expected = [
            "address.saved",
            "address.name-missing",
            "address.zip-invalid",
            "address.country-unsupported",
        ];
        assert_eq!(hits(&app), expected.map(String::from).into());
        app.shutdown().await;
    }

    #[tokio::test]
    async fn invoice_page_validates_natively_and_saves() {
        let app = serve(Subject::Gallery).await.unwrap();
        let page = get(&app, "/forms/invoice").await.body;
        assert!(page.contains(r#"pattern="INV-[0-9]{4}""#));
        assert!(page.contains(r#""amount stepMismatch":"invoice.amount-precision""#));
        assert!(page.contains("curioTruth('invoice.due-before-issue')"));
        assert!(page.contains(&format!(r#"value="{}""#, iso_date(today()))));
        assert!(!page.contains("<label"));

        let good = "customer=Acme+Corp&number=&issued=2025-03-01&due=2025-03-31&amount=250.00&currency=USD&vat=20";
        let saved = post(&app, "/forms/invoice", good).await;
        assert_eq!(saved.status, 303);
        let location = saved.location().unwrap().to_owned();
        assert!(
            location.starts_with("/forms/invoice/saved?number=INV-"),
            "{location}"
        );
        assert!(get(&app, &location).await.body.contains("saved"));
        let bypass = "customer=Acme&issued=2025-03-31&due=2025-03-01&amount=250";
        assert_eq!(post(&app, "/forms/invoice", bypass).await.status, 400);
        assert_eq!(hits(&app), BTreeSet::from(["invoice.saved".to_owned()]));
        app.shutdown().await;
    }

    #[tokio::test]
    async fn contact_api_creates_tickets_or_answers_field_errors() {
        let app = serve(Subject::Gallery).await.unwrap();
        assert!(
            get(&app, "/forms/contact")
                .await
                .body
                .contains("fetch('/api/contact'")
        );
        let json = "application/json";
        let good = r#"{"name":"Ada","email":"ada@example.com","order":"104233","category":"delivery","message":"My parcel has not arrived yet.","urgent":true}"#;
        let created = send(&app, "POST", "/api/contact", Some((json, good))).await;
        assert_eq!(created.status, 201);
        assert!(created.body.contains(r#""ticket":"#));
        assert_eq!(hits(&app), BTreeSet::from(["contact.created".to_owned()]));

        let short = r#"{"name":"Ada","email":"ada@example.com","order":"","category":"billing","message":"Help!","urgent":false}"#;
        let rejected = send(&app, "POST", "/api/contact", Some((json, short))).await;
        assert_eq!(rejected.status, 422);
        assert!(rejected.body.contains("at least 20 characters"));
        let expected = ["contact.created", "contact.message-short"];
        assert_eq!(hits(&app), expected.map(String::from).into());
        app.shutdown().await;
    }

    #[tokio::test]
    async fn profile_updates_or_shows_inline_errors() {
        let app = serve(Subject::Gallery).await.unwrap();
        let page = get(&app, "/forms/profile").await.body;
        assert!(page.contains(r#"name="fld_a1" aria-label="Display name""#));
        assert!(page.contains("curioTruth('profile.bio-long')"));

        let good =
            "fld_a1=ada_l&fld_b2=1990-04-12&fld_c3=https%3A%2F%2Fexample.com&fld_d4=Mathematician.";
        let saved = post(&app, "/forms/profile", good).await;
        assert_eq!(saved.status, 303);
        assert_eq!(saved.location(), Some("/forms/profile/updated"));
        assert_eq!(hits(&app), BTreeSet::from(["profile.updated".to_owned()]));

        let (y, m, d) = civil_from_days(today());
        let young = format!(
            "fld_a1=ada_l&fld_b2={}&fld_c3=&fld_d4=",
            iso_date(days_from_civil(y - 5, m, d.min(28)))
        );
        let rejected = post(&app, "/forms/profile", &young).await;
        assert_eq!(rejected.status, 200);
        assert!(rejected.body.contains("You must be at least 13"));
        assert!(rejected.body.contains(r#"value="ada_l""#));
        let expected = ["profile.updated", "profile.too-young"];
        assert_eq!(hits(&app), expected.map(String::from).into());
        app.shutdown().await;
    }
}
