//! Testbed pages in the shape of classes of pages that real apps have and our own
//! subjects did not, each reproducing one way a real app met Curio:
//!
//! - `/t/picker`: a form whose helper links and button open a picker in a popup window
//!   (`window.open`). The picker's script
//!   reads and writes the form of the window that opened it (`window.opener.document`)
//!   and closes itself when a value is chosen, as issue trackers' calendars and keyword
//!   pickers do. Loaded in a window of its own, without its opener, the script throws:
//!   a failure no user ever sees.
//! - `/t/staff/login`: an administration login whose markup is the framework's, not
//!   ours: a text input named `username`, a password input, an `<input type="submit">`
//!   in a row of its own, a hidden token, and a log-out button in a form that posts. The
//!   staff pages behind it send a visitor without the `staff` cookie back to the login;
//!   the reports page logs a console error only a logged-in explorer reaches.
//! - `/t/sidebar`: a tracker whose login form sits in the sidebar of every page (no login
//!   page, fields without ids, a search form before it) and whose log-out is a link
//!   with an action in its query (`?@action=logout&@from=issues`, the rest of the query
//!   the page's own); the issue list logs a console
//!   error only a logged-in explorer sees.
//! - `/t/upload`: a form with a file input that takes images; the page logs the name and
//!   size of the file chosen as a console error, so that a test sees what the explorer
//!   gave it (a native file dialog would wait for a person forever).
//! - `/t/ticker`: a page that never rests: a clock redrawn every 50 ms, as dashboards,
//!   tickers and animations are.
//! - `/t/iconless`: a page whose declared icon is missing (the browser asks for it by
//!   itself), with a link to a page that exists.

use axum::Form;
use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use crate::html::{NO_FAVICON, form_value, has_cookie};

pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/t/picker", get(picker).post(picker_save))
        .route("/t/picker/choose", get(picker_choose))
        .route("/t/staff/login", get(staff_login).post(staff_login_submit))
        .route("/t/staff", get(staff_home))
        .route("/t/staff/orders", get(staff_orders))
        .route("/t/staff/reports", get(staff_reports))
        .route("/t/staff/logout", post(staff_logout))
        .route("/t/sidebar", get(sidebar).post(sidebar_login))
        .route("/t/sidebar/issues", get(sidebar_issues))
        .route("/t/upload", get(upload))
        .route("/t/ticker", get(ticker))
        .route("/t/iconless", get(iconless))
        .route("/t/iconless/next", get(iconless_next))
}

/// A redirect to `location` that sets (or, with `Max-Age=0`, clears) `cookie`: how the
/// login and log-out of these apps answer.
fn redirect_with_cookie(cookie: &'static str, location: &'static str) -> Response {
    (
        StatusCode::FOUND,
        [(header::SET_COOKIE, cookie), (header::LOCATION, location)],
    )
        .into_response()
}

fn document(title: &str, head: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n{head}\n</head>\n<body>\n<h1>{title}</h1>\n{body}\n</body>\n</html>\n"
    ))
}

/// A form with two pickers in popups: a keyword list and a calendar.
async fn picker() -> Html<String> {
    document(
        "New issue",
        NO_FAVICON,
        r#"<script>
function help_window(url, width, height) {
  window.open(url, 'HelpWindow', 'scrollbars=yes,resizable=yes,toolbar=no,height=' + height + ',width=' + width);
  return false;
}
</script>
<form name="itemSynopsis" method="post" action="/t/picker">
<label for="title">Title</label> <input id="title" name="title"><br>
<label for="keyword">Keywords</label> <input id="keyword" name="keyword">
<a href="javascript:help_window('/t/picker/choose?property=keyword&form=itemSynopsis', 300, 400)">(list)</a><br>
<label for="due">Due</label> <input id="due" name="due">
<a href="javascript:help_window('/t/picker/choose?property=due&form=itemSynopsis', 300, 200)">(cal)</a><br>
<button type="submit">Create</button>
</form>
<p><button type="button" onclick="help_window('/t/picker/choose?property=keyword&form=itemSynopsis&all=1', 400, 600)">All keywords</button></p>"#,
    )
}

async fn picker_save(Form(fields): Form<Vec<(String, String)>>) -> Html<String> {
    let count = fields.iter().filter(|(_, v)| !v.is_empty()).count();
    document(
        "Issue created",
        NO_FAVICON,
        &format!(r#"<p>Created with {count} fields.</p><p><a href="/t/picker">Another</a></p>"#),
    )
}

/// The picker: its script needs the window that opened it, as real pickers' do.
async fn picker_choose() -> Html<String> {
    document(
        "Choose",
        NO_FAVICON,
        r#"<script>
const params = new URLSearchParams(location.search);
const form = window.opener.document.forms[params.get('form')];
const field = form.elements[params.get('property')];
function choose(value) {
  field.value = value;
  window.close();
}
</script>
<ul>
<li><button type="button" onclick="choose('ui')">ui</button></li>
<li><button type="button" onclick="choose('backend')">backend</button></li>
<li><button type="button" onclick="choose('docs')">docs</button></li>
</ul>
<p><button type="button" onclick="window.close()">Cancel</button></p>
<p><a href="/t/picker/choose?property=keyword&form=itemSynopsis&page=2">More</a></p>"#,
    )
}

const STAFF_LOGIN: &str = r#"<div id="content-main">
<form action="/t/staff/login" method="post" id="login-form" class="login-form">
<input type="hidden" name="csrfmiddlewaretoken" value="k3y">
<div class="form-row">
<label class="required" for="id_username">Username:</label>
<input type="text" name="username" autofocus autocapitalize="none" autocomplete="username" maxlength="150" required id="id_username">
</div>
<div class="form-row">
<label class="required" for="id_password">Password:</label>
<input type="password" name="password" autocomplete="current-password" required id="id_password">
<input type="hidden" name="next" value="/t/staff">
</div>
<div class="submit-row"><input type="submit" value="Log in"></div>
</form>
</div>"#;

async fn staff_login() -> Html<String> {
    document("Site administration: log in", NO_FAVICON, STAFF_LOGIN)
}

async fn staff_login_submit(Form(fields): Form<Vec<(String, String)>>) -> Response {
    if form_value(&fields, "username") == "ann" && form_value(&fields, "password") == "s3cret" {
        return redirect_with_cookie("staff=ann; Path=/; HttpOnly", "/t/staff");
    }
    document(
        "Site administration: log in",
        NO_FAVICON,
        &format!(
            r#"<p class="errornote">Please enter the correct username and password for a staff account.</p>{STAFF_LOGIN}"#
        ),
    )
    .into_response()
}

fn staff(headers: &HeaderMap) -> bool {
    has_cookie(headers, "staff=ann")
}

/// A staff page with the framework's header (user tools with a log-out form), or the
/// way back to the login.
fn staff_page(headers: &HeaderMap, title: &str, body: &str) -> Response {
    if !staff(headers) {
        return (StatusCode::FOUND, [(header::LOCATION, "/t/staff/login")]).into_response();
    }
    document(
        title,
        NO_FAVICON,
        &format!(
            r#"<div id="user-tools">Welcome, <strong>ann</strong>.
<a href="/t/staff/orders">Orders</a> /
<form id="logout-form" method="post" action="/t/staff/logout"><input type="hidden" name="csrfmiddlewaretoken" value="k3y"><button type="submit">Log out</button></form>
</div>
{body}"#
        ),
    )
    .into_response()
}

async fn staff_home(headers: HeaderMap) -> Response {
    staff_page(
        &headers,
        "Site administration",
        r#"<p><a href="/t/staff/orders">Orders</a> · <a href="/t/staff/reports">Reports</a></p>"#,
    )
}

async fn staff_orders(headers: HeaderMap) -> Response {
    staff_page(
        &headers,
        "Orders",
        r#"<table><tr><td>#1</td><td>Paid</td></tr></table><p><a href="/t/staff">Home</a></p>"#,
    )
}

async fn staff_reports(headers: HeaderMap) -> Response {
    staff_page(
        &headers,
        "Reports",
        r#"<p>Nothing to report.</p><p><a href="/t/staff">Home</a></p>
<script>console.error('staff: the report chart failed to render');</script>"#,
    )
}

async fn staff_logout() -> Response {
    redirect_with_cookie("staff=; Path=/; Max-Age=0", "/t/staff/login")
}

/// A page of the sidebar tracker, for ann or for a visitor.
fn sidebar_page(headers: &HeaderMap, title: &str, body: &str) -> Html<String> {
    // The log-out link carries the page's own view, as real trackers' do.
    let side = if has_cookie(headers, "tracker=ann") {
        format!(
            r#"<p>Hello, ann</p><p><a href="/t/sidebar/issues">Issues</a></p>
<p><a href="/t/sidebar?@action=logout&amp;@from={}">Logout</a></p>"#,
            title.to_lowercase()
        )
    } else {
        r#"<form method="post" action="/t/sidebar">
<input size="10" required name="__login_name"><br>
<input type="password" name="__login_password"><br>
<input type="hidden" name="@action" value="Login">
<input type="submit" value="Login">
</form>"#
            .to_string()
    };
    document(
        title,
        NO_FAVICON,
        &format!(
            r#"<form method="get" action="/t/sidebar"><input name="search"> <button type="submit">Search</button></form>
<div class="sidebar">{side}</div>
<div class="content">{body}</div>"#
        ),
    )
}

async fn sidebar(
    headers: HeaderMap,
    axum::extract::Query(query): axum::extract::Query<Vec<(String, String)>>,
) -> Response {
    if form_value(&query, "@action") == "logout" {
        return redirect_with_cookie("tracker=; Path=/; Max-Age=0", "/t/sidebar");
    }
    sidebar_page(&headers, "Tracker", "<p>Welcome to the tracker.</p>").into_response()
}

async fn sidebar_login(Form(fields): Form<Vec<(String, String)>>) -> Response {
    if form_value(&fields, "__login_name") == "ann"
        && form_value(&fields, "__login_password") == "s3cret"
    {
        return redirect_with_cookie("tracker=ann; Path=/; HttpOnly", "/t/sidebar");
    }
    (StatusCode::FOUND, [(header::LOCATION, "/t/sidebar")]).into_response()
}

async fn sidebar_issues(headers: HeaderMap) -> Html<String> {
    let body = if has_cookie(&headers, "tracker=ann") {
        r#"<ul><li>#1 crash on save</li></ul>
<script>console.error('sidebar: the issue list failed to sort');</script>"#
    } else {
        "<p>Log in to see the issues.</p>"
    };
    sidebar_page(&headers, "Issues", body)
}

/// A file input that takes images, which says what it was given.
async fn upload() -> Html<String> {
    document(
        "Upload",
        NO_FAVICON,
        r#"<form method="get" action="/t/upload">
<label for="avatar">Choose from your computer</label>
<input type="file" id="avatar" name="avatar" accept="image/*">
</form>
<script>
document.getElementById('avatar').addEventListener('change', (e) => {
  const f = e.target.files[0];
  if (f) console.error('upload: got ' + f.name + ' of ' + f.size + ' bytes');
});
</script>"#,
    )
}

/// A clock redrawn every 50 ms, and a button that does nothing more.
async fn ticker() -> Html<String> {
    document(
        "Ticker",
        NO_FAVICON,
        r#"<p id="clock">0</p><button id="tick" type="button">Tick</button>
<script>
let n = 0;
setInterval(() => { document.getElementById('clock').textContent = String(++n); }, 50);
</script>"#,
    )
}

/// A page whose declared icon does not exist.
async fn iconless() -> Html<String> {
    document(
        "No icon",
        r#"<link rel="icon" href="/t/iconless/favicon.ico">"#,
        r#"<p><a href="/t/iconless/next">Next</a></p>"#,
    )
}

async fn iconless_next() -> Html<String> {
    document(
        "Next",
        r#"<link rel="icon" href="/t/iconless/favicon.ico">"#,
        r#"<p><a href="/t/iconless">Back</a></p>"#,
    )
}
