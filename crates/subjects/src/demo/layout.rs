//! The shop's shared layout: header navigation, footer with the newsletter signup,
//! stylesheet and the beacon helper.
//!
//! Every page carries the same seven actions from the layout (five nav links, the
//! newsletter field and its button), so page-specific content is kept small: a random
//! walk must find each fault within a minute.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use crate::html::{BEACON_SCRIPT, NO_FAVICON, escape};

/// Which nav entry the page belongs to, for `aria-current`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nav {
    Home,
    Products,
    Cart,
    Contact,
    About,
    None,
}

const NAV: [(Nav, &str, &str); 5] = [
    (Nav::Home, "/", "Home"),
    (Nav::Products, "/products", "Products"),
    (Nav::Cart, "/cart", "Cart"),
    (Nav::Contact, "/contact", "Contact"),
    (Nav::About, "/about", "About"),
];

const CSS: &str = r#"<style>
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #222; background: #faf8f5; }
header { display: flex; align-items: center; gap: 2rem; padding: 0.8rem 2rem; background: #2f3e46; color: #fff; }
header .brand { font-weight: 700; font-size: 1.3rem; }
header nav a { color: #dfe7ea; margin-right: 1.2rem; text-decoration: none; }
header nav a[aria-current="page"] { color: #fff; border-bottom: 2px solid #f4a261; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 2rem 3rem; }
footer { padding: 1.5rem 2rem; background: #e9e4dc; color: #555; font-size: 0.9rem; }
footer form { display: flex; gap: 0.5rem; align-items: center; margin-bottom: 0.5rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 1rem; }
.card { background: #fff; border: 1px solid #e2ddd5; border-radius: 8px; padding: 1rem; }
.swatch { height: 6rem; border-radius: 6px; margin-bottom: 0.6rem; }
.price { font-weight: 600; color: #2a9d8f; }
.filters a { margin-right: 0.8rem; }
.filters a[aria-current="page"] { font-weight: 700; }
.notice { padding: 0.6rem 1rem; border-radius: 6px; background: #fff3cd; }
.error { color: #b00020; }
.ok { color: #2a7d2a; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #e2ddd5; }
label { display: block; margin-top: 0.7rem; }
input, select, textarea, button { font: inherit; }
button { padding: 0.35rem 0.9rem; border-radius: 5px; border: 1px solid #2f3e46; background: #fff; cursor: pointer; }
button.primary { background: #2f3e46; color: #fff; }
button:disabled { opacity: 0.5; cursor: not-allowed; }
</style>"#;

/// The footer's newsletter signup works: it posts the address and says thanks.
const NEWSLETTER_SCRIPT: &str = r#"<script>
document.getElementById('newsletter').addEventListener('submit', function (event) {
  event.preventDefault();
  var email = document.getElementById('newsletter-email').value.trim();
  var msg = document.getElementById('newsletter-msg');
  if (email.indexOf('@') < 1) {
    msg.textContent = 'Please enter your email address.';
    return;
  }
  fetch('/newsletter', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'email=' + encodeURIComponent(email)
  }).then(function () {
    msg.textContent = 'Thanks for subscribing!';
  }, function () {
    msg.textContent = 'Could not subscribe right now, please try again later.';
  });
});
</script>"#;

/// Renders a full page. `content` and `script` are trusted markup: callers escape
/// whatever user data they put in.
const NEWSLETTER_FORM: &str = r#"<form id="newsletter" action="/newsletter" method="post">
<label for="newsletter-email" style="margin:0">Get our newsletter</label>
<input id="newsletter-email" name="email" type="email" placeholder="you@example.com" autocomplete="email">
<button type="submit">Subscribe</button>
<span id="newsletter-msg" role="status"></span>
</form>
"#;

pub(crate) fn page(title: &str, nav: Nav, content: &str, script: &str) -> Html<String> {
    let mut links = String::new();
    for (entry, href, text) in NAV {
        let current = if entry == nav {
            r#" aria-current="page""#
        } else {
            ""
        };
        links.push_str(&format!(r#"<a href="{href}"{current}>{text}</a>"#));
    }
    let title = escape(title);
    // The newsletter box is on the landing pages only; on pages with a job to do
    // (product, cart, checkout, contact) it would compete with their own forms.
    let newsletter = if matches!(nav, Nav::Home | Nav::About) {
        format!("{NEWSLETTER_FORM}{NEWSLETTER_SCRIPT}\n")
    } else {
        String::new()
    };
    Html(format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Curio Shop</title>
{NO_FAVICON}
{CSS}
{BEACON_SCRIPT}
</head>
<body>
<header>
<div class="brand">Curio Shop</div>
<nav aria-label="Main">{links}</nav>
</header>
<main>
{content}
</main>
<footer>
{newsletter}<p>© 2025 Curio Shop · Small things, carefully chosen.</p>
</footer>
{script}
</body>
</html>
"#
    ))
}

/// The shop's 404 page, with the layout so that a lost user can go on.
pub(crate) fn not_found() -> Response {
    let content = r#"<h1>Page not found</h1>
<p class="notice">Sorry, we couldn't find that page. It may have moved.</p>"#;
    (
        StatusCode::NOT_FOUND,
        page("Page not found", Nav::None, content, ""),
    )
        .into_response()
}
