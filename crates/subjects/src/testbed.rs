//! The testbed: one minimal, deterministic page per browser behaviour, under `/t/...`,
//! for the browser layer's tests, plus an index at `/` that links to all of them.
//!
//! It has no seeded faults: the failures here are the point of each page, and the
//! tests that use a page know what it does.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use axum::Form;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use futures::{StreamExt, future, stream};

use crate::html::{NO_FAVICON, escape, form_value, has_cookie};
use crate::serve::Stop;

/// How long the stalling endpoints stall: far beyond any test's timeout, yet finite so
/// that a forgotten connection does not pin a task forever. They also end as soon as the
/// app shuts down.
const STALL: Duration = Duration::from_secs(600);
/// How long `/t/slow-page` takes to answer.
const SLOW_PAGE: Duration = Duration::from_millis(500);

pub(crate) fn router(stop: Stop) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/t/ok", get(ok))
        .route("/t/link", get(link))
        .route("/t/exception", get(exception))
        .route("/t/console", get(console))
        .route("/t/rejection", get(rejection))
        .route("/t/status/{code}", get(status))
        .route("/t/fetch-status/{code}", get(fetch_status))
        .route("/t/alert", get(alert))
        .route("/t/confirm", get(confirm))
        .route("/t/prompt", get(prompt))
        .route("/t/beforeunload", get(beforeunload))
        .route("/t/popup", get(popup))
        .route("/t/hang", get(hang))
        .route("/t/slow-resource", get(slow_resource))
        .route("/t/never", get(never))
        .route("/t/redirect-loop", get(redirect_loop))
        .route("/t/redirect-loop2", get(redirect_loop2))
        .route("/t/moving", get(moving))
        .route("/t/crash", get(crash))
        .route("/t/form", get(form).post(form_echo))
        .route("/t/booking", get(booking).post(booking_submit))
        .route("/t/seats", get(seats).post(seats_submit))
        .route("/t/seats-dialog", get(seats_dialog))
        .route("/t/roster", get(roster))
        .route("/t/roster/save", axum::routing::post(roster_save))
        .route("/t/crew", get(crew))
        .route("/t/crew/role", axum::routing::post(crew_role))
        .route("/t/crew/invite", axum::routing::post(crew_invite))
        .route("/t/crew/task", get(crew_task).post(crew_task_create))
        .route("/t/lounge", get(lounge))
        .route("/t/lounge/remove", axum::routing::post(lounge_remove))
        .route("/t/lounge/add", axum::routing::post(lounge_add))
        .route("/t/lounge/preview", get(lounge_preview))
        .route("/t/stock", get(stock).post(stock_submit))
        .route("/t/hours", get(hours).post(hours_submit))
        .route("/t/thread", get(thread))
        .route("/t/thread/comments", axum::routing::post(thread_comment))
        .route("/t/guard", get(guard))
        .route("/t/guard/logout", get(guard_logout))
        .route("/t/hostile", get(hostile))
        .route("/t/login", get(login).post(login_submit))
        .route("/t/members", get(members))
        .route("/t/members/projects", get(members_projects))
        .route("/t/members/projects/archive", get(members_archive))
        .route("/t/members/leave", get(members_leave))
        .route(
            "/t/members/profile",
            get(members_profile).post(members_profile_save),
        )
        .route("/t/third-party", get(third_party))
        .route("/t/iframe", get(iframe))
        .route("/t/delayed", get(delayed))
        .route("/t/slow-nav", get(slow_nav))
        .route("/t/slow-page", get(slow_page))
        .route("/t/renamed", get(renamed))
        .route("/t/renamed/{n}", get(renamed_report))
        .route("/t/latest", get(latest))
        .route("/t/latest/{n}", get(latest_report))
        .route("/t/stored", get(stored))
        .route("/t/stored/preview", get(stored_preview))
        .route("/t/once", get(once).post(once_submit))
        .route("/t/coupon", get(coupon).post(coupon_submit))
        .route("/t/plan", get(plan))
        .route("/t/plan/review", axum::routing::post(plan_review))
        .route("/t/plan/confirm", axum::routing::post(plan_confirm))
        .route("/t/upgrade", get(upgrade))
        .route("/t/upgrade/review", axum::routing::post(upgrade_review))
        .route("/t/upgrade/confirm", axum::routing::post(upgrade_confirm))
        .route("/t/upgrade/{topic}", get(upgrade_topic))
        .route("/t/ticket", get(ticket))
        .route("/t/ticket/edit", get(ticket_edit).post(ticket_save))
        .route("/t/ticket/time", axum::routing::post(ticket_time))
        .route("/t/ticket/comment", axum::routing::post(ticket_comment))
        .route("/t/ticket/report", get(ticket_report))
        .route("/t/popover", get(popover))
        .route("/t/feed", get(feed))
        .route("/t/feed/{n}", get(feed_item))
        .route("/t/channels", get(channels))
        .route("/t/channels/saved", axum::routing::post(channels_saved))
        .route("/t/prefs", get(prefs).post(prefs_save))
        .route("/t/zones", get(zones).post(zones_save))
        .route("/t/zones/{section}", get(zones_section))
        .route("/t/desk", get(desk))
        .route("/t/desk/edit", get(desk_edit).post(desk_save))
        .route("/t/desk/export", get(desk_export))
        .route("/t/desk/{section}", get(desk_section))
        .route("/t/works", get(works))
        .route("/t/works/{id}", get(works_project))
        .route("/t/works/{id}/edit", get(works_edit).post(works_save))
        .route("/t/works/{id}/export", get(works_export))
        .route("/t/display", get(display).post(display_save))
        .route("/t/display/{section}", get(display_section))
        .route("/t/plot", get(plot))
        .route("/t/plot/edit", get(plot_edit).post(plot_save))
        .route("/t/plot/export", get(plot_export))
        .route("/t/plot/{section}", get(plot_section))
        .route("/t/shelf", get(shelf))
        .route("/t/shelf/{section}", get(shelf_section))
        .route("/t/rack", get(rack))
        .route("/t/rack/items/{n}", get(rack_item))
        .route("/t/clock", get(clock))
        .route("/t/clock/{section}", get(clock_section))
        .route("/t/clock/tasks/{n}", get(clock_task))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .merge(crate::lookalike::routes())
        .layer(axum::Extension(Prefs::default()))
        .layer(axum::Extension(KimRemoved::default()))
        .layer(axum::Extension(AnaViewer::default()))
        .with_state(stop)
}

/// A complete document; `head` goes into `<head>` (after the title), `body` into
/// `<body>`. Both are trusted markup.
fn doc(title: &str, head: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         {NO_FAVICON}\n{head}\n</head>\n<body>\n<h1>{title}</h1>\n{body}\n</body>\n</html>\n",
        title = escape(title),
    )
}

fn page(title: &str, body: &str) -> Html<String> {
    Html(doc(title, "", body))
}

/// Every page, for the index; `/t/status` and `/t/fetch-status` with examples. The
/// never-answering `/t/slow-resource` is a sub-resource, not a page, so it is left out.
const PAGES: [&str; 56] = [
    "/t/ok",
    "/t/link",
    "/t/exception",
    "/t/console",
    "/t/rejection",
    "/t/status/200",
    "/t/status/404",
    "/t/status/500",
    "/t/fetch-status/404",
    "/t/fetch-status/500",
    "/t/alert",
    "/t/confirm",
    "/t/prompt",
    "/t/beforeunload",
    "/t/popup",
    "/t/hang",
    "/t/never",
    "/t/redirect-loop",
    "/t/moving",
    "/t/crash",
    "/t/form",
    "/t/booking",
    "/t/seats",
    "/t/guard",
    "/t/third-party",
    "/t/iframe",
    "/t/delayed",
    "/t/slow-nav",
    "/t/slow-page",
    "/t/renamed",
    "/t/latest",
    "/t/stored",
    "/t/once",
    "/t/coupon",
    "/t/plan",
    "/t/seats-dialog",
    "/t/roster",
    "/t/crew",
    "/t/lounge",
    "/t/desk",
    "/t/works",
    "/t/feed",
    "/t/popover",
    "/t/channels",
    "/t/zones",
    "/t/prefs",
    "/t/shelf",
    "/t/rack",
    "/t/clock",
    "/t/stock",
    "/t/hours",
    "/t/thread",
    "/t/upgrade",
    "/t/ticket",
    "/t/plot",
    "/t/display",
];

async fn index() -> Html<String> {
    let items: String = PAGES
        .iter()
        .map(|p| format!(r#"<li><a href="{p}">{p}</a></li>"#))
        .collect();
    page("Curio testbed", &format!("<ul>{items}</ul>"))
}

async fn ok() -> Html<String> {
    page(
        "OK",
        r#"<p id="result">ready</p>
<button id="go" type="button">Go</button>
<script>
document.getElementById('go').addEventListener('click', function () {
  document.getElementById('result').textContent = 'clicked';
});
</script>"#,
    )
}

async fn link() -> Html<String> {
    page("Link", r#"<p><a id="next" href="/t/ok">Next</a></p>"#)
}

async fn exception() -> Html<String> {
    page(
        "Exception",
        r#"<button id="boom" type="button">Boom</button>
<script>
document.getElementById('boom').addEventListener('click', function () {
  throw new Error('testbed boom');
});
</script>"#,
    )
}

async fn console() -> Html<String> {
    page(
        "Console",
        r#"<button id="log" type="button">Log</button>
<script>
document.getElementById('log').addEventListener('click', function () {
  console.error('testbed console error');
});
</script>"#,
    )
}

async fn rejection() -> Html<String> {
    page(
        "Rejection",
        r#"<button id="reject" type="button">Reject</button>
<script>
document.getElementById('reject').addEventListener('click', function () {
  Promise.reject(new Error('testbed rejection'));
});
</script>"#,
    )
}

/// A status worth answering with: final (not 1xx) and valid.
fn parse_status(code: &str) -> Option<StatusCode> {
    code.parse::<u16>()
        .ok()
        .filter(|c| (200..=599).contains(c))
        .and_then(|c| StatusCode::from_u16(c).ok())
}

async fn status(Path(code): Path<String>) -> Response {
    let Some(status) = parse_status(&code) else {
        return (
            StatusCode::BAD_REQUEST,
            page("Bad status", "<p>Use a status code from 200 to 599.</p>"),
        )
            .into_response();
    };
    // These statuses must not carry a body.
    if matches!(status.as_u16(), 204 | 205 | 304) {
        return status.into_response();
    }
    let body = format!(r#"<p id="status">{}</p>"#, status.as_u16());
    (status, page(&format!("Status {}", status.as_u16()), &body)).into_response()
}

async fn fetch_status(Path(code): Path<String>) -> Response {
    let Some(status) = parse_status(&code) else {
        return (
            StatusCode::BAD_REQUEST,
            page("Bad status", "<p>Use a status code from 200 to 599.</p>"),
        )
            .into_response();
    };
    let code = status.as_u16();
    page(
        &format!("Fetch status {code}"),
        &format!(
            r#"<p id="result">idle</p>
<button id="fetch" type="button">Fetch</button>
<script>
document.getElementById('fetch').addEventListener('click', function () {{
  fetch('/t/status/{code}').then(function (r) {{
    document.getElementById('result').textContent = 'status ' + r.status;
  }});
}});
</script>"#
        ),
    )
    .into_response()
}

/// A page with `#open`, which runs `open_js` and writes its result into `#result`.
fn dialog_page(title: &str, open_js: &str) -> Html<String> {
    page(
        title,
        &format!(
            r#"<p id="result">idle</p>
<button id="open" type="button">Open</button>
<script>
document.getElementById('open').addEventListener('click', function () {{
  var result = document.getElementById('result');
  {open_js}
}});
</script>"#
        ),
    )
}

async fn alert() -> Html<String> {
    dialog_page(
        "Alert",
        "alert('testbed alert'); result.textContent = 'alert closed';",
    )
}

async fn confirm() -> Html<String> {
    dialog_page(
        "Confirm",
        "result.textContent = String(confirm('testbed confirm'));",
    )
}

async fn prompt() -> Html<String> {
    dialog_page(
        "Prompt",
        "var answer = prompt('testbed prompt', ''); \
         result.textContent = answer === null ? 'null' : answer;",
    )
}

/// Chromium shows a beforeunload dialog only for a page the user interacted with, so
/// the handler is installed by a click on `#arm`, which is that interaction.
async fn beforeunload() -> Html<String> {
    page(
        "Beforeunload",
        r#"<p id="result">idle</p>
<button id="arm" type="button">Arm</button>
<p><a id="leave" href="/t/ok">Leave</a></p>
<script>
document.getElementById('arm').addEventListener('click', function () {
  window.addEventListener('beforeunload', function (event) {
    event.preventDefault();
    event.returnValue = 'testbed beforeunload';
  });
  document.getElementById('result').textContent = 'armed';
});
</script>"#,
    )
}

async fn popup() -> Html<String> {
    page(
        "Popup",
        r#"<button id="popup" type="button">Popup</button>
<p><a id="blank" href="/t/ok" target="_blank">Open in new tab</a></p>
<script>
document.getElementById('popup').addEventListener('click', function () {
  window.open('/t/ok');
});
</script>"#,
    )
}

/// The image never arrives, so the load event never fires; the page is usable anyway.
async fn hang() -> Html<String> {
    page(
        "Hang",
        r#"<img src="/t/slow-resource" alt="never loads" width="10" height="10">
<p id="result">ready</p>
<button id="go" type="button">Go</button>
<script>
document.getElementById('go').addEventListener('click', function () {
  document.getElementById('result').textContent = 'clicked';
});
</script>"#,
    )
}

async fn slow_resource(State(stop): State<Stop>) -> StatusCode {
    stop.sleep(STALL).await;
    StatusCode::NO_CONTENT
}

/// Headers and the first part of the document go out at once; the rest waits for the
/// stall to end, so the document never finishes loading.
async fn never(State(stop): State<Stop>) -> Response {
    let head = Bytes::from(
        doc(
            "Never",
            "",
            r#"<p id="partial">partial content</p>
<p id="result">ready</p>
<button id="go" type="button">Go</button>
<script>
document.getElementById('go').addEventListener('click', function () {
  document.getElementById('result').textContent = 'clicked';
});
</script>"#,
        )
        // Cut before the closing tags so that even the parser knows it is not done.
        .replace("</body>\n</html>\n", ""),
    );
    let tail = async move {
        stop.sleep(STALL).await;
        Ok::<_, Infallible>(Bytes::from_static(b"</body>\n</html>\n"))
    };
    let body = stream::once(future::ready(Ok::<_, Infallible>(head))).chain(stream::once(tail));
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        Body::from_stream(body),
    )
        .into_response()
}

/// A 302 that leads to `/t/redirect-loop2`, which leads back here: the browser gives
/// up after its redirect limit.
async fn redirect_loop() -> impl IntoResponse {
    (StatusCode::FOUND, [(header::LOCATION, "/t/redirect-loop2")])
}

async fn redirect_loop2() -> impl IntoResponse {
    (StatusCode::FOUND, [(header::LOCATION, "/t/redirect-loop")])
}

/// `#runaway` jumps to another corner whenever the pointer comes over it; `#covered`
/// sits under a transparent overlay, so a click at its centre lands on the overlay and
/// only a click on the element itself reaches it.
async fn moving() -> Html<String> {
    page(
        "Moving",
        r#"<div id="arena" style="position:relative;width:600px;height:400px;border:1px solid #999">
<button id="runaway" type="button" style="position:absolute;left:20px;top:20px">Catch me</button>
<button id="covered" type="button" style="position:absolute;left:300px;top:200px">Covered</button>
<div id="overlay" style="position:absolute;left:280px;top:180px;width:160px;height:80px;background:transparent;z-index:10"></div>
</div>
<p id="result">idle</p>
<script>
var spots = [[20, 20], [480, 340], [480, 20], [20, 340]];
var spot = 0;
var runaway = document.getElementById('runaway');
function flee() {
  spot = (spot + 1) % spots.length;
  runaway.style.left = spots[spot][0] + 'px';
  runaway.style.top = spots[spot][1] + 'px';
}
runaway.addEventListener('mouseover', flee);
runaway.addEventListener('pointerenter', flee);
runaway.addEventListener('click', function () {
  document.getElementById('result').textContent = 'runaway clicked';
});
document.getElementById('covered').addEventListener('click', function () {
  document.getElementById('result').textContent = 'covered clicked';
});
</script>"#,
    )
}

async fn crash() -> Html<String> {
    page(
        "Crash",
        r#"<p id="result">This page is crashed from the test with Page.crash.</p>"#,
    )
}

async fn form() -> Html<String> {
    page(
        "Form",
        r#"<form method="post" action="/t/form">
<label for="name">Name</label> <input id="name" name="name" type="text"><br>
<label for="email">Email</label> <input id="email" name="email" type="email"><br>
<label for="qty">Quantity</label> <input id="qty" name="qty" type="number" min="1" max="10"><br>
<label for="color">Colour</label>
<select id="color" name="color"><option value="red">Red</option><option value="green">Green</option><option value="blue">Blue</option></select><br>
<label><input id="agree" name="agree" type="checkbox" value="yes"> I agree</label><br>
<label for="comment">Comment</label> <textarea id="comment" name="comment"></textarea><br>
<button id="submit" type="submit">Submit</button>
</form>"#,
    )
}

/// Echoes the fields in the order they arrived, one `name=value` line each.
async fn form_echo(Form(fields): Form<Vec<(String, String)>>) -> Html<String> {
    let lines: String = fields
        .iter()
        .map(|(name, value)| format!("{}={}\n", escape(name), escape(value)))
        .collect();
    page("Form received", &format!(r#"<pre id="echo">{lines}</pre>"#))
}

/// A team plan whose server alone knows the rule on seats (10 to 500), stated only in
/// its answer to a refused submission; an accepted plan answers 500.
async fn seats() -> Html<String> {
    page("Team plan", SEATS_FORM)
}

/// The team plan's form in a dialog that "Change plan" opens: on a fresh load the form
/// is hidden.
async fn seats_dialog() -> Html<String> {
    Html(doc(
        "Billing",
        "",
        &format!(
            r#"<button type="button" id="open">Change plan</button>
<div id="dialog" role="dialog" hidden>{SEATS_FORM}</div>
<script>
document.getElementById('open').addEventListener('click', function () {{
  document.getElementById('dialog').hidden = false;
}});
</script>"#
        ),
    ))
}

const SEATS_FORM: &str = r#"<form method="post" action="/t/seats">
<label for="team">Team name</label> <input id="team" name="team"><br>
<label for="seats">Seats</label> <input id="seats" name="seats" inputmode="numeric"><br>
<button type="submit">Start plan</button>
</form>"#;

async fn seats_submit(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let seats = fields
        .iter()
        .find(|(n, _)| n == "seats")
        .and_then(|(_, v)| v.trim().parse::<u32>().ok());
    match seats {
        Some(n) if (10..=500).contains(&n) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            page("Error", "<p>plan service unavailable</p>"),
        )
            .into_response(),
        _ => page(
            "Team plan",
            &format!(
                "<p class=\"error\">Choose between 10 and 500 seats for the team plan.</p>{SEATS_FORM}"
            ),
        )
        .into_response(),
    }
}

/// Members of `/t/roster`'s team.
static MEMBERS: AtomicU32 = AtomicU32::new(3);

/// A team plan whose rule on seats moves with the app's data: at least one seat per
/// member (stated only in the server's answer to a refused plan), and each plan saved
/// brings in the two people waiting for a seat. So seats a plan was accepted with are
/// refused once the team has grown. A valid Business plan answers 500; a Team plan is
/// saved.
async fn roster() -> Html<String> {
    let members = MEMBERS.load(Ordering::SeqCst);
    page(
        "Team",
        &format!("<p>The team has {members} members.</p>{ROSTER_FORM}"),
    )
}

const ROSTER_FORM: &str = r#"<form method="post" action="/t/roster/save">
<label for="plan">Plan</label> <select id="plan" name="plan"><option value="team">Team</option><option value="business">Business</option></select><br>
<label for="seats">Seats</label> <input id="seats" name="seats" inputmode="numeric"><br>
<button type="submit">Save plan</button>
</form>"#;

async fn roster_save(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let value = |name: &str| sent(&fields, name);
    let members = MEMBERS.load(Ordering::SeqCst);
    match value("seats").parse::<u32>() {
        Ok(n) if (members..=500).contains(&n) && value("plan") == "business" => (
            StatusCode::INTERNAL_SERVER_ERROR,
            page("Error", "<p>business plans are not set up</p>"),
        )
            .into_response(),
        Ok(n) if (members..=500).contains(&n) => {
            MEMBERS.fetch_add(2, Ordering::SeqCst);
            Redirect::to("/t/roster").into_response()
        }
        _ => refused(
            "Team",
            &format!("Choose between {members} and 500 seats: one per member at least."),
            ROSTER_FORM,
        ),
    }
}

/// Whether Ana, on `/t/crew`, is a viewer (who cannot be given tasks): one for each
/// app served.
#[derive(Clone, Default)]
struct AnaViewer(std::sync::Arc<AtomicBool>);

/// A team page whose role selects save as they change (no form), and an invitation
/// in a dialog: a valid invite shows the team again with the new member, whose avatar
/// is missing, and the page throws. "New task" assigns work to members who are not
/// viewers; a task for Ana fails with HTTP 500 (she has no email to be told by). A
/// role chosen on the way to the invite dialog is no part of the invite's failure,
/// and Ana made a viewer takes her out of the task form.
async fn crew(
    axum::Extension(ana_viewer): axum::Extension<AnaViewer>,
    Query(query): Query<Vec<(String, String)>>,
) -> Html<String> {
    let role = |viewer: bool| {
        let (member, viewer) = if viewer {
            ("", " selected")
        } else {
            (" selected", "")
        };
        format!(
            r#"<option value="member"{member}>Member</option><option value="viewer"{viewer}>Viewer</option>"#
        )
    };
    let invited = query.iter().any(|(k, _)| k == "invited");
    let thrown = if invited {
        "var joined = JSON.parse(document.getElementById('joined').textContent); \
         document.getElementById('welcome').textContent = joined.avatar.url;"
    } else {
        ""
    };
    Html(doc(
        "Crew",
        "",
        &format!(
            r#"<p><a href="/t/crew/task">New task</a></p>
<p id="welcome"></p><script type="application/json" id="joined">{{"avatar": null}}</script>
<table>
<tr><td>Ana</td><td><select aria-label="Role of Ana" data-member="ana">{ana}</select></td></tr>
<tr><td>Ben</td><td><select aria-label="Role of Ben" data-member="ben">{ben}</select></td></tr>
</table>
<button type="button" id="open-invite">Invite member</button>
<div id="invite" role="dialog" hidden><form method="post" action="/t/crew/invite">
<label for="name">Name</label> <input id="name" name="name" required><br>
<label for="email">Email</label> <input id="email" name="email" type="email" required><br>
<button type="submit">Send invite</button>
</form></div>
<script>
document.querySelectorAll('select[data-member]').forEach(function (s) {{
  s.addEventListener('change', function () {{
    fetch('/t/crew/role', {{method: 'POST', headers: {{'Content-Type': 'application/x-www-form-urlencoded'}},
      body: 'member=' + s.dataset.member + '&role=' + s.value}});
  }});
}});
document.getElementById('open-invite').addEventListener('click', function () {{
  document.getElementById('invite').hidden = false;
}});
{thrown}
</script>"#,
            ana = role(ana_viewer.0.load(Ordering::SeqCst)),
            ben = role(false),
        ),
    ))
}

/// Whether Kim, on `/t/lounge`, has been removed: one for each app served, so that
/// runs against two of them at once do not see each other's Kim.
#[derive(Clone, Default)]
struct KimRemoved(std::sync::Arc<AtomicBool>);

/// A setting kept on the device ("Dark mode") that the preview has no palette for, so
/// it throws; and a member, Kim, whom "Remove Kim" takes off the page and "Add Kim"
/// brings back. A run that removed Kim on its way to the preview leaves a trace whose
/// replay finds no such button while she is away, and removes her when she is back,
/// though the failure never needed her.
async fn lounge(axum::Extension(removed): axum::Extension<KimRemoved>) -> Html<String> {
    let kim = if removed.0.load(Ordering::SeqCst) {
        r#"<li id="kim"><button type="button" id="add-kim">Add Kim</button></li>"#
    } else {
        r#"<li id="kim">Kim <button type="button" id="remove-kim">Remove Kim</button></li>"#
    };
    page(
        "Lounge",
        &format!(
            r#"<button id="dark" type="button">Dark mode</button>
<ul>{kim}<li>Lee</li></ul>
<p><a href="/t/lounge/preview">Preview</a></p>
<script>
document.getElementById('dark').addEventListener('click', function () {{
  localStorage.setItem('theme', 'dark');
}});
document.querySelectorAll('#kim button').forEach(function (b) {{
  b.addEventListener('click', function () {{
    var change = b.id === 'add-kim' ? 'add' : 'remove';
    fetch('/t/lounge/' + change, {{method: 'POST'}}).then(function () {{
      document.getElementById('kim').remove();
    }});
  }});
}});
</script>"#
        ),
    )
}

async fn lounge_remove(axum::Extension(removed): axum::Extension<KimRemoved>) -> StatusCode {
    removed.0.store(true, Ordering::SeqCst);
    StatusCode::NO_CONTENT
}

async fn lounge_add(axum::Extension(removed): axum::Extension<KimRemoved>) -> StatusCode {
    removed.0.store(false, Ordering::SeqCst);
    StatusCode::NO_CONTENT
}

async fn lounge_preview() -> Html<String> {
    dark_throwing_preview("Lounge preview", "no dark palette in the lounge")
}

/// Saves a role chosen on `/t/crew` (only Ana's is kept).
async fn crew_role(
    axum::Extension(ana_viewer): axum::Extension<AnaViewer>,
    Form(fields): Form<Vec<(String, String)>>,
) -> StatusCode {
    if sent(&fields, "member") == "ana" {
        ana_viewer
            .0
            .store(sent(&fields, "role") == "viewer", Ordering::SeqCst);
    }
    StatusCode::NO_CONTENT
}

async fn crew_invite(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let name = sent(&fields, "name");
    let email = sent(&fields, "email");
    if name.is_empty() || !email.contains('@') {
        return refused(
            "Crew",
            "Give the person's name and email address.",
            "<p><a href=\"/t/crew\">Back to the team</a></p>",
        );
    }
    Redirect::to("/t/crew?invited=1").into_response()
}

async fn crew_task(axum::Extension(ana_viewer): axum::Extension<AnaViewer>) -> Html<String> {
    let ana = if ana_viewer.0.load(Ordering::SeqCst) {
        ""
    } else {
        r#"<option value="ana">Ana</option>"#
    };
    page(
        "New task",
        &format!(
            r#"<form method="post" action="/t/crew/task">
<label for="title">Title</label> <input id="title" name="title" required><br>
<label for="assignee">Assignee</label> <select id="assignee" name="assignee">{ana}<option value="ben">Ben</option></select><br>
<button type="submit">Create task</button>
</form>"#
        ),
    )
}

async fn crew_task_create(Form(fields): Form<Vec<(String, String)>>) -> Response {
    match sent(&fields, "assignee") {
        _ if sent(&fields, "title").is_empty() => refused(
            "New task",
            "Give the task a title.",
            "<p><a href=\"/t/crew/task\">Try again</a></p>",
        ),
        "ana" => crashed("notify assignee: Ana has no email address"),
        _ => Redirect::to("/t/crew").into_response(),
    }
}

/// A stock adjustment: how many items arrived. Every count from 1 to 1000 is taken
/// ("Stock updated"), 0, more and non-numbers get a message, and a count below zero
/// reaches code that fails with HTTP 500: only a value sent on purpose finds it.
async fn stock() -> Html<String> {
    page("Stock", STOCK_FORM)
}

const STOCK_FORM: &str = r#"<form method="post" action="/t/stock">
<label for="count">Items received</label> <input id="count" name="count" inputmode="numeric"><br>
<button type="submit">Update stock</button>
</form>"#;

async fn stock_submit(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let message = match sent(&fields, "count").parse::<i64>() {
        Ok(n) if n < 0 => return crashed("stock ledger underflow"),
        Ok(1..=1000) => return page("Stock", "<p>Stock updated.</p>").into_response(),
        _ => "Enter a number of items from 1 to 1000.",
    };
    refused("Stock", message, STOCK_FORM)
}

/// A time entry: hours worked, typed as text with a decimal keyboard. Empty hours and
/// numbers outside 0.25-24 get a message; anything else that is no number reaches a
/// parse the server unwraps and fails with HTTP 500: letters sent on purpose find it.
async fn hours() -> Html<String> {
    page("Log time", HOURS_FORM)
}

const HOURS_FORM: &str = r#"<form method="post" action="/t/hours">
<label for="hours">Hours</label> <input id="hours" name="hours" inputmode="decimal" placeholder="e.g. 1.5"><br>
<button type="submit">Save entry</button>
</form>"#;

async fn hours_submit(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let raw = sent(&fields, "hours");
    let message = match raw.parse::<f64>() {
        _ if raw.is_empty() => "Please enter the hours you worked.",
        Err(_) => return crashed("invalid float literal"),
        Ok(h) if (0.25..=24.0).contains(&h) => {
            return page("Log time", "<p>Time logged.</p>").into_response();
        }
        Ok(_) => "Hours must be between 0.25 and 24.",
    };
    refused("Log time", message, HOURS_FORM)
}

/// A discussion whose comment form answers the way server-rendered apps do: a comment
/// is stored and the thread shown again with "Comment posted." and the new entry (its
/// author, date and text) right below the box; an empty one comes back at the address
/// posted to, with a red alert whose words say no error.
async fn thread(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let posted = sent(&query, "posted");
    let (flash, entry) = if posted.is_empty() {
        (String::new(), String::new())
    } else {
        (
            r#"<p role="status">Comment posted.</p>"#.to_string(),
            format!(
                r#"<div class="comment"><strong>Robin Diaz</strong> <span>6 Dec 2026</span><p>{}</p></div>"#,
                escape(posted)
            ),
        )
    };
    thread_page(&flash, &entry)
}

/// The thread with `above` over the comment form and `entry` first in the list.
fn thread_page(above: &str, entry: &str) -> Html<String> {
    page(
        "Discussion",
        &format!(
            r#"<style>.form-error {{ color: #c62828; }}</style>{above}
<form method="post" action="/t/thread/comments">
<label for="body">Add a comment</label><br>
<textarea id="body" name="body" rows="2"></textarea> <button type="submit">Post comment</button>
</form>
<div id="comments">{entry}<div class="comment"><strong>Sam Lee</strong> <span>2 Dec 2026</span><p>Notes are in the shared folder.</p></div></div>"#
        ),
    )
}

async fn thread_comment(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let body = sent(&fields, "body");
    if body.is_empty() {
        let alert = r#"<p class="form-error" role="alert">Write something before posting.</p>"#;
        return thread_page(alert, "").into_response();
    }
    // Every byte but letters and digits percent-encoded: what the query parser decodes.
    let encoded: String = body
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    Redirect::to(&format!("/t/thread?posted={encoded}")).into_response()
}

/// The value of field `name` among the `fields` a form sent, trimmed; empty when absent.
fn sent<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map_or("", |(_, v)| v.trim())
}

/// HTTP 500 with `detail`, as a server whose code failed.
fn crashed(detail: &str) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        page("Error", &format!("<p>{detail}</p>")),
    )
        .into_response()
}

/// Page `title` with the form's `message` above the `form`, shown again.
fn refused(title: &str, message: &str, form: &str) -> Response {
    page(title, &format!("<p class=\"error\">{message}</p>{form}")).into_response()
}

/// A booking form whose server checks every value the way real back ends do, in plain
/// text inputs (no HTML types or constraints to read): only a submission a real person
/// would make gets through, and the server then fails with HTTP 500. Anything else comes
/// back with 200 and messages. Random or type-only values do not get past it.
async fn booking() -> Html<String> {
    page("Booking", BOOKING_FORM)
}

const BOOKING_FORM: &str = r#"<form method="post" action="/t/booking">
<label for="fullname">Full name</label> <input id="fullname" name="fullname"><br>
<label for="mail">E-mail address</label> <input id="mail" name="mail"><br>
<label for="checkin">Check-in date</label> <input id="checkin" name="checkin" placeholder="YYYY-MM-DD"><br>
<label for="checkout">Check-out date</label> <input id="checkout" name="checkout" placeholder="YYYY-MM-DD"><br>
<label for="guests">Number of guests</label> <input id="guests" name="guests"><br>
<label for="zip">ZIP code</label> <input id="zip" name="zip"><br>
<button id="book" type="submit">Book</button>
</form>"#;

async fn booking_submit(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let get = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    let date = |s: &str| {
        let b = s.as_bytes();
        (s.len() == 10 && b[4] == b'-' && b[7] == b'-')
            .then(|| s.replace('-', "").parse::<u32>().ok())
            .flatten()
    };
    let mut problems = Vec::new();
    let name = get("fullname");
    if !(name.contains(' ') && name.chars().all(|c| c.is_alphabetic() || " '-".contains(c))) {
        problems.push("Please enter your first and last name.");
    }
    let mail = get("mail");
    if !(mail.contains('@') && mail.rsplit('@').next().is_some_and(|d| d.contains('.'))) {
        problems.push("That e-mail address does not look right.");
    }
    match (date(&get("checkin")), date(&get("checkout"))) {
        (Some(a), Some(b)) if b > a => {}
        (Some(_), Some(_)) => problems.push("Check-out must come after check-in."),
        _ => problems.push("Dates are written YYYY-MM-DD."),
    }
    if !get("guests")
        .parse::<u32>()
        .is_ok_and(|g| (1..=8).contains(&g))
    {
        problems.push("Between 1 and 8 guests, please.");
    }
    let zip = get("zip");
    if !(zip.len() == 5 && zip.chars().all(|c| c.is_ascii_digit())) {
        problems.push("A ZIP code has 5 digits.");
    }
    if problems.is_empty() {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            page("Error", "<p>booking engine unavailable</p>"),
        )
            .into_response();
    }
    let items: String = problems
        .iter()
        .map(|p| format!("<li class=\"error\">{p}</li>"))
        .collect();
    page("Booking", &format!("<ul>{items}</ul>{BOOKING_FORM}")).into_response()
}

/// Two actions an explorer must never take (they would end the session or destroy data;
/// here each logs a console error if taken) beside harmless ones.
async fn guard() -> Html<String> {
    page(
        "Guard",
        r#"<p id="result">ready</p>
<button id="one" type="button">Show details</button>
<button id="two" type="button">Hide details</button>
<button id="wipe" type="button">Delete everything</button>
<p><a id="logout" href="/t/guard/logout">Log out</a></p>
<script>
document.getElementById('one').addEventListener('click', function () {
  document.getElementById('result').textContent = 'details';
});
document.getElementById('two').addEventListener('click', function () {
  document.getElementById('result').textContent = 'ready';
});
document.getElementById('wipe').addEventListener('click', function () {
  console.error('guard: everything deleted');
});
</script>"#,
    )
}

/// A page whose own text is markup that would run if a report printed it unescaped: a
/// heading and a button label that spell out `<script>` and `<img onerror>`, and a
/// button that logs them in a console error (a finding whose message carries them).
/// Each payload would set the document's title to `pwned`.
async fn hostile() -> Html<String> {
    page(
        "Hostile",
        r#"<h2 id="greeting">Hello &lt;script&gt;document.title='pwned'&lt;/script&gt;</h2>
<button id="hostile" type="button">&lt;img src=x onerror="document.title='pwned'"&gt;</button>
<p><a id="away" href="/t/ok">More &lt;b&gt;details&lt;/b&gt;</a></p>
<script>
document.getElementById('hostile').addEventListener('click', function () {
  console.error('hostile: <script>document.title="pwned"</' + 'script><img src=x onerror="document.title=\'pwned\'">');
});
</script>"#,
    )
}

async fn guard_logout() -> Html<String> {
    Html(doc(
        "Logged out",
        "",
        r#"<p>You are logged out.</p><p><a href="/t/guard">Back</a></p>
<script>console.error('guard: logged out');</script>"#,
    ))
}

/// Numbers handed out by `/t/renamed` and `/t/latest`: each visit gets a new one.
static ISSUED: AtomicU32 = AtomicU32::new(1);

/// A link that is renamed and points elsewhere at every visit (a record list that the
/// app keeps changing), to a report whose button always throws.
async fn renamed() -> Html<String> {
    let n = ISSUED.fetch_add(1, Ordering::SeqCst);
    page(
        "Renamed",
        &format!(r#"<p><a id="report" href="/t/renamed/{n}">Report {n}</a></p>"#),
    )
}

async fn renamed_report(Path(n): Path<u32>) -> Html<String> {
    page(
        &format!("Report {n}"),
        r#"<button id="crash" type="button">Crash</button>
<script>
document.getElementById('crash').addEventListener('click', function () {
  throw new Error('renamed report crashed');
});
</script>"#,
    )
}

/// A link that keeps its name but points to the newest report at every visit; only the
/// newest report's button throws, older ones say they are outdated.
async fn latest() -> Html<String> {
    let n = ISSUED.fetch_add(1, Ordering::SeqCst);
    page(
        "Latest",
        &format!(r#"<p><a id="report" href="/t/latest/{n}">Latest report</a></p>"#),
    )
}

async fn latest_report(Path(n): Path<u32>) -> Html<String> {
    let newest = ISSUED.load(Ordering::SeqCst) - 1;
    let script = if n == newest {
        "throw new Error('latest report crashed');"
    } else {
        "document.getElementById('crash').textContent = 'Outdated';"
    };
    page(
        &format!("Report {n}"),
        &format!(
            r#"<button id="crash" type="button">Crash</button>
<script>
document.getElementById('crash').addEventListener('click', function () {{
  {script}
}});
</script>"#
        ),
    )
}

/// A setting kept in `localStorage` that changes nothing on the page itself; the preview
/// throws when it is on.
async fn stored() -> Html<String> {
    page(
        "Stored",
        r#"<button id="dark" type="button">Dark mode</button>
<p><a id="preview" href="/t/stored/preview">Preview</a></p>
<script>
document.getElementById('dark').addEventListener('click', function () {
  localStorage.setItem('theme', 'dark');
});
</script>"#,
    )
}

async fn stored_preview() -> Html<String> {
    dark_throwing_preview("Preview", "no dark palette")
}

/// A preview page that throws `message` when the stored theme is dark.
fn dark_throwing_preview(title: &str, message: &str) -> Html<String> {
    page(
        title,
        &format!(
            r#"<p id="result">preview</p>
<script>
if (localStorage.getItem('theme') === 'dark') {{ throw new Error('{message}'); }}
</script>"#
        ),
    )
}

/// Sub-resources on other origins (port 9 of the loopback, where nothing listens) fail;
/// the page's own content is fine.
async fn third_party() -> Html<String> {
    Html(doc(
        "Third party",
        r#"<link rel="stylesheet" href="http://localhost:9/font.css">
<script src="http://127.0.0.1:9/widget.js"></script>"#,
        r#"<img src="http://127.0.0.1:9/pixel.png" alt="" width="1" height="1">
<p id="content">Own content is fine.</p>
<p id="result">ready</p>
<button id="go" type="button">Go</button>
<script>
document.getElementById('go').addEventListener('click', function () {
  document.getElementById('result').textContent = 'clicked';
});
</script>"#,
    ))
}

async fn iframe() -> Html<String> {
    page(
        "Iframe",
        r#"<iframe id="frame" src="/t/ok" width="400" height="200"></iframe>"#,
    )
}

async fn delayed() -> Html<String> {
    page(
        "Delayed",
        r#"<button id="load" type="button">Load</button>
<div id="out"></div>
<script>
document.getElementById('load').addEventListener('click', function () {
  setTimeout(function () {
    fetch('/t/status/200').then(function (r) { return r.text(); }).then(function () {
      var p = document.createElement('p');
      p.id = 'done';
      p.textContent = 'done';
      document.getElementById('out').appendChild(p);
    });
  }, 300);
});
</script>"#,
    )
}

async fn slow_nav() -> Html<String> {
    page(
        "Slow nav",
        r#"<p><a id="slow" href="/t/slow-page">Slow page</a></p>"#,
    )
}

async fn slow_page(State(stop): State<Stop>) -> Html<String> {
    stop.sleep(SLOW_PAGE).await;
    page("Slow page", r#"<p id="result">slow page loaded</p>"#)
}

/// A feedback form that takes one message per visitor: the first submission sets a
/// cookie and thanks, every later one from the same browser is turned away. A tester
/// whose submissions leak cookies into each other sees the form change its answer.
async fn once() -> Html<String> {
    page("Feedback", ONCE_FORM)
}

const ONCE_FORM: &str = r#"<form method="post" action="/t/once">
<label for="topic">Topic</label> <input id="topic" name="topic" required><br>
<label for="note">Your message</label> <textarea id="note" name="note" required></textarea><br>
<button type="submit">Send</button>
</form>"#;

async fn once_submit(headers: axum::http::HeaderMap) -> Response {
    let sent = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|c| c.split(';').any(|kv| kv.trim() == "sent=1"));
    if sent {
        return page(
            "Feedback",
            &format!("<p class=\"error\">You have already sent us a message.</p>{ONCE_FORM}"),
        )
        .into_response();
    }
    (
        [(header::SET_COOKIE, "sent=1; Path=/")],
        page("Feedback", "<p>Thank you for your message.</p>"),
    )
        .into_response()
}

/// A members' area behind a login form and a session cookie: `/t/login` takes user
/// `ann` with password `s3cret` and sets `member=ann`; every page under `/t/members`
/// sends a visitor without it back to the login form. Deep inside, the projects'
/// archive logs a console error (a finding only a logged-in explorer reaches), and
/// "Leave the club" ends the session (an action the explorer must be told to avoid: it
/// is not among the default deny phrases).
async fn login() -> Html<String> {
    page("Sign in", LOGIN_FORM)
}

const LOGIN_FORM: &str = r#"<form method="post" action="/t/login">
<label for="user">User</label> <input id="user" name="user" required><br>
<label for="password">Password</label> <input id="password" name="password" type="password" required><br>
<button id="signin" type="submit">Sign in</button>
</form>"#;

async fn login_submit(Form(fields): Form<Vec<(String, String)>>) -> Response {
    if form_value(&fields, "user") == "ann" && form_value(&fields, "password") == "s3cret" {
        return (
            StatusCode::SEE_OTHER,
            [
                (header::SET_COOKIE, "member=ann; Path=/; HttpOnly"),
                (header::LOCATION, "/t/members"),
            ],
        )
            .into_response();
    }
    page(
        "Sign in",
        &format!("<p class=\"error\">Wrong user or password.</p>{LOGIN_FORM}"),
    )
    .into_response()
}

fn member(headers: &axum::http::HeaderMap) -> bool {
    has_cookie(headers, "member=ann")
}

/// A members' page, or the way back to the login form.
fn members_page(headers: &axum::http::HeaderMap, title: &str, body: &str) -> Response {
    if !member(headers) {
        return (StatusCode::SEE_OTHER, [(header::LOCATION, "/t/login")]).into_response();
    }
    page(
        title,
        &format!(
            r#"<p id="whoami">Signed in as ann · <a id="leave" href="/t/members/leave">Leave the club</a></p>
{body}"#
        ),
    )
    .into_response()
}

async fn members(headers: axum::http::HeaderMap) -> Response {
    members_page(
        &headers,
        "Members",
        r#"<p><a href="/t/members/projects">Projects</a></p>"#,
    )
}

async fn members_projects(headers: axum::http::HeaderMap) -> Response {
    members_page(
        &headers,
        "Projects",
        r#"<ul><li>Apollo</li><li>Gemini</li></ul>
<p><a href="/t/members/projects/archive">Archive</a> · <a href="/t/members">Members</a></p>"#,
    )
}

async fn members_archive(headers: axum::http::HeaderMap) -> Response {
    members_page(
        &headers,
        "Archive",
        r#"<p>Old projects.</p><p><a href="/t/members/projects">Projects</a></p>
<script>console.error('members: the archive failed to load');</script>"#,
    )
}

const PROFILE_FORM: &str = r#"<form method="post" action="/t/members/profile">
<label for="display">Display name</label> <input id="display" name="display" required minlength="3"><br>
<button type="submit">Save profile</button>
</form>"#;

/// A form only members reach: a display name of at least 3 characters.
async fn members_profile(headers: axum::http::HeaderMap) -> Response {
    members_page(&headers, "Profile", PROFILE_FORM)
}

async fn members_profile_save(headers: axum::http::HeaderMap) -> Response {
    members_page(&headers, "Profile", "<p>Profile saved.</p>")
}

async fn members_leave() -> Response {
    (
        [(header::SET_COOKIE, "member=; Path=/; Max-Age=0")],
        page(
            "Goodbye",
            r#"<p>You left the club.</p><p><a href="/t/login">Sign in</a></p>"#,
        ),
    )
        .into_response()
}

/// A coupon form whose server takes only codes that start with `GIFT-`, and says no more
/// than "not valid": nothing on the page tells the rule, which a person (or a language
/// model) knows from coupons elsewhere.
async fn coupon() -> Html<String> {
    page("Redeem a coupon", COUPON_FORM)
}

const COUPON_FORM: &str = r#"<form method="post" action="/t/coupon">
<label for="holder">Your name</label> <input id="holder" name="holder" required><br>
<label for="coupon">Coupon code</label> <input id="coupon" name="coupon" required><br>
<button type="submit">Redeem</button>
</form>"#;

async fn coupon_submit(Form(fields): Form<Vec<(String, String)>>) -> Html<String> {
    let code = fields
        .iter()
        .find(|(n, _)| n == "coupon")
        .map(|(_, v)| v.trim())
        .unwrap_or_default();
    if code.starts_with("GIFT-") {
        page(
            "Redeem a coupon",
            "<p>Thank you! Coupon applied to your next order.</p>",
        )
    } else {
        page(
            "Redeem a coupon",
            &format!("<p class=\"error\">That coupon code is not valid.</p>{COUPON_FORM}"),
        )
    }
}

/// A plan change in two steps, as in real billing pages: choose a plan (radio buttons)
/// and a billing cycle, "Review", then "Confirm" on the review page. Confirming the Pro
/// plan billed yearly answers 500; every other change is applied.
async fn plan() -> Html<String> {
    page("Change plan", PLAN_FORM)
}

const PLAN_FORM: &str = r#"<form method="post" action="/t/plan/review">
<fieldset><legend>Plan</legend>
<label><input type="radio" name="plan" value="basic"> Basic</label>
<label><input type="radio" name="plan" value="team" checked> Team</label>
<label><input type="radio" name="plan" value="pro"> Pro</label>
</fieldset>
<label for="cycle">Billing cycle</label>
<select id="cycle" name="cycle"><option value="monthly">Monthly</option><option value="yearly">Yearly</option></select>
<button type="submit">Review</button>
</form>
<p><a href="/t/plan">Plans</a></p>"#;

async fn plan_review(Form(fields): Form<Vec<(String, String)>>) -> Html<String> {
    review_page("Review the change", &fields, "/t/plan", "")
}

/// The review of the plan change in `fields`, under `base` (`base/confirm` makes it),
/// with `links` of the page's own before "Back to plans".
fn review_page(title: &str, fields: &[(String, String)], base: &str, links: &str) -> Html<String> {
    let get = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or(String::new(), |(_, v)| escape(v))
    };
    let (plan, cycle) = (get("plan"), get("cycle"));
    page(
        title,
        &format!(
            r#"<p>New plan: {plan}, billed {cycle}.</p>
<form method="post" action="{base}/confirm">
<input type="hidden" name="plan" value="{plan}"><input type="hidden" name="cycle" value="{cycle}">
<button type="submit">Confirm</button>
</form>
<p>{links}<a href="{base}">Back to plans</a></p>"#
        ),
    )
}

async fn plan_confirm(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let has = |name: &str, value: &str| fields.iter().any(|(n, v)| n == name && v == value);
    if has("plan", "pro") && has("cycle", "yearly") {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            page("Error", "<p>no yearly price for Pro</p>"),
        )
            .into_response();
    }
    page(
        "Plan changed",
        r#"<p>Your plan was changed.</p><p><a href="/t/plan">Plans</a></p>"#,
    )
    .into_response()
}

/// A plan change reviewed before it is made, whose review page also links to two pages
/// of its own besides "Back": the change is only made by its Confirm.
async fn upgrade() -> Html<String> {
    page(
        "Upgrade",
        &PLAN_FORM
            .replace("/t/plan/review", "/t/upgrade/review")
            .replace("/t/plan", "/t/upgrade"),
    )
}

async fn upgrade_review(Form(fields): Form<Vec<(String, String)>>) -> Html<String> {
    review_page(
        "Review the upgrade",
        &fields,
        "/t/upgrade",
        r#"<a href="/t/upgrade/details">Plan details</a> · <a href="/t/upgrade/terms">Terms</a> · "#,
    )
}

async fn upgrade_confirm(Form(fields): Form<Vec<(String, String)>>) -> Html<String> {
    let plan = fields
        .iter()
        .find(|(n, _)| n == "plan")
        .map_or(String::new(), |(_, v)| escape(v));
    page(
        "Upgraded",
        &format!(r#"<p>You are now on {plan}.</p><p><a href="/t/upgrade">Plans</a></p>"#),
    )
}

async fn upgrade_topic(Path(topic): Path<String>) -> Html<String> {
    page(
        "Upgrade",
        &format!(
            r#"<p>About plans: {}.</p><p><a href="/t/upgrade">Plans</a></p>"#,
            escape(&topic)
        ),
    )
}

/// A ticket whose state travels in its address: its status, and the hours logged
/// while it was blocked (`late`).
struct Ticket {
    status: &'static str,
    late: u32,
}

impl Ticket {
    fn from(fields: &[(String, String)]) -> Ticket {
        let get = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str())
        };
        Ticket {
            status: match get("status") {
                Some("blocked") => "blocked",
                Some("done") => "done",
                _ => "open",
            },
            late: get("late").and_then(|v| v.parse().ok()).unwrap_or(0),
        }
    }

    fn query(&self) -> String {
        format!("status={}&late={}", self.status, self.late)
    }

    fn hidden(&self) -> String {
        format!(
            r#"<input type="hidden" name="status" value="{}"><input type="hidden" name="late" value="{}">"#,
            self.status, self.late
        )
    }
}

/// A ticket page: "Edit ticket" (status, title), "Log time" (a dialog), a comment
/// form, a watch toggle, tabs, and its "Time report", which has no colour for time
/// logged while the ticket was blocked and logs a console error: three changes and a
/// look, in that order.
async fn ticket(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    ticket_page(&Ticket::from(&query), None)
}

/// The ticket page, with `problem` the hours refused: the dialog shown with it.
fn ticket_page(t: &Ticket, problem: Option<&str>) -> Html<String> {
    let (q, hidden) = (t.query(), t.hidden());
    let (shown, problem) = match problem {
        Some(p) => ("", format!(r#"<p role="alert">{p}</p>"#)),
        None => (" hidden", String::new()),
    };
    page(
        "Ticket",
        &format!(
            r#"<p>Status: {status}</p>
<p><a href="/t/ticket/edit?{q}">Edit ticket</a> <a href="/t/ticket/report?{q}">Time report</a></p>
<p><button type="button" id="watch">Watch</button> <button type="button" id="open-log">Log time</button></p>
<div role="tablist"><button type="button" role="tab" aria-selected="true">Comments</button> <button type="button" role="tab" aria-selected="false">History</button></div>
<form method="post" action="/t/ticket/comment">{hidden}
<label for="body">Comment</label> <textarea id="body" name="body"></textarea>
<button type="submit">Post comment</button>
</form>
<div id="log"{shown}><form method="post" action="/t/ticket/time">{hidden}{problem}
<label for="hours">Hours</label> <input id="hours" name="hours" type="text" inputmode="decimal">
<button type="submit">Save entry</button> <button type="button" id="close-log">Close</button>
</form></div>
<script>
document.getElementById('open-log').onclick = function () {{ document.getElementById('log').hidden = false; }};
document.getElementById('close-log').onclick = function () {{ document.getElementById('log').hidden = true; }};
var watch = document.getElementById('watch');
watch.onclick = function () {{ watch.textContent = watch.textContent === 'Watch' ? 'Unwatch' : 'Watch'; }};
document.querySelectorAll('[role=tab]').forEach(function (tab) {{
  tab.onclick = function () {{
    document.querySelectorAll('[role=tab]').forEach(function (t) {{ t.setAttribute('aria-selected', t === tab ? 'true' : 'false'); }});
  }};
}});
</script>"#,
            status = t.status
        ),
    )
}

async fn ticket_edit(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let t = Ticket::from(&query);
    let options = status_options(&["open", "blocked", "done"], t.status);
    page(
        "Edit ticket",
        &format!(
            r#"<form method="post" action="/t/ticket/edit"><input type="hidden" name="late" value="{late}">
<label for="title">Title</label> <input id="title" name="title" required>
<label for="status">Status</label> <select id="status" name="status">{options}</select>
<button type="submit">Save changes</button>
</form>
<p><a href="/t/ticket?{q}">Back to the ticket</a></p>"#,
            late = t.late,
            q = t.query()
        ),
    )
}

async fn ticket_save(Form(fields): Form<Vec<(String, String)>>) -> Redirect {
    let t = Ticket::from(&fields);
    Redirect::to(&format!("/t/ticket?saved=1&{}", t.query()))
}

async fn ticket_time(Form(fields): Form<Vec<(String, String)>>) -> Response {
    let mut t = Ticket::from(&fields);
    let hours = fields
        .iter()
        .find(|(k, _)| k == "hours")
        .and_then(|(_, v)| v.trim().parse::<f64>().ok())
        .filter(|h| (0.25..=24.0).contains(h));
    if hours.is_none() {
        return ticket_page(&t, Some("Enter hours between 0.25 and 24.")).into_response();
    }
    if t.status == "blocked" {
        t.late += 1;
    }
    Redirect::to(&format!("/t/ticket?logged=1&{}", t.query())).into_response()
}

async fn ticket_comment(Form(fields): Form<Vec<(String, String)>>) -> Redirect {
    Redirect::to(&format!("/t/ticket?{}", Ticket::from(&fields).query()))
}

async fn ticket_report(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let t = Ticket::from(&query);
    let script = if t.late > 0 {
        "<script>console.error('time report: no colour for blocked time');</script>"
    } else {
        ""
    };
    page(
        "Time report",
        &format!(
            r#"<p>Time logged on the ticket.</p>{script}<p><a href="/t/ticket?{}">Back to the ticket</a></p>"#,
            t.query()
        ),
    )
}

/// Twelve buttons and a "Filters" button whose popover closes at any other click; a
/// status chosen in the popover throws.
async fn popover() -> Html<String> {
    let buttons: String = (1..=12)
        .map(|i| format!(r#"<button type="button" class="other">Action {i}</button> "#))
        .collect();
    page(
        "Popover",
        &format!(
            r#"<p>{buttons}</p>
<p><button type="button" id="open">Filters</button></p>
<div id="panel" hidden><label for="status">Status</label>
<select id="status"><option value="all" selected>All</option><option value="open">Open</option><option value="archived">Archived</option></select></div>
<script>
var panel = document.getElementById('panel');
document.getElementById('open').addEventListener('click', function () {{ panel.hidden = false; }});
document.querySelectorAll('.other').forEach(function (b) {{
  b.addEventListener('click', function () {{ panel.hidden = true; }});
}});
document.getElementById('status').addEventListener('change', function (e) {{
  if (e.target.value !== 'all') throw new Error('filter ' + e.target.value + ' broke the list');
}});
</script>"#
        ),
    )
}

/// Items shown so far by `/t/feed`.
static FED: AtomicU32 = AtomicU32::new(0);

/// An activity feed that shows only its newest item, a new one at every visit: a link
/// followed once is gone at the next visit. Every item's page answers 500.
async fn feed() -> Html<String> {
    let n = FED.fetch_add(1, Ordering::SeqCst);
    page(
        "Feed",
        &format!(r#"<ul><li><a href="/t/feed/{n}">created item {n}</a></li></ul>"#),
    )
}

async fn feed_item(Path(n): Path<u32>) -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        page("Error", &format!("<p>item {n} cannot be shown</p>")),
    )
        .into_response()
}

/// Notification channels, three of four ticked, with "Send test" beside "Save": the test
/// names the first ticked channel and throws when none is. Saving leads elsewhere and
/// keeps nothing, so only the form's values at the press count.
async fn channels() -> Html<String> {
    let boxes: String = [
        ("email", true),
        ("sms", false),
        ("slack", true),
        ("push", true),
    ]
    .iter()
    .map(|(c, on)| {
        let checked = if *on { " checked" } else { "" };
        format!(
            r#"<input type="checkbox" id="ch-{c}" name="channel" value="{c}"{checked}><label for="ch-{c}">{c}</label> "#
        )
    })
    .collect();
    page(
        "Channels",
        &format!(
            r#"<form method="post" action="/t/channels/saved">
<fieldset><legend>Notify me through</legend>{boxes}</fieldset>
<button type="submit">Save</button> <button type="button" id="test">Send test</button>
</form>
<p id="sent"></p>
<script>
document.getElementById('test').addEventListener('click', function () {{
  var ticked = Array.prototype.slice.call(document.querySelectorAll('input[name=channel]:checked'));
  document.getElementById('sent').textContent = 'Sent via ' + ticked[0].value;
}});
</script>"#
        ),
    )
}

async fn channels_saved() -> Html<String> {
    page(
        "Saved",
        r#"<p>Your channels were saved.</p><p><a href="/t/channels">Channels</a></p>"#,
    )
}

/// The sections of `/t/desk`'s navigation, each a page of its own.
const DESK_SECTIONS: [&str; 9] = [
    "inbox", "calendar", "people", "files", "reports", "news", "help", "about", "contact",
];

/// A project with a status, among a navigation to nine other pages. Saving the project
/// archived (`/t/desk/edit`) and then "Export" on its page gives a 500; the status is in
/// the URL, so the app keeps nothing.
async fn desk(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let status = desk_status(&query);
    desk_page(
        "Project",
        &format!(
            r#"<p>Status: {status}</p>
<p><a href="/t/desk/edit?status={status}">Edit project</a> <a href="/t/desk/export?status={status}">Export</a></p>"#
        ),
    )
}

fn desk_status(query: &[(String, String)]) -> &'static str {
    let status = query.iter().find(|(k, _)| k == "status").map(|(_, v)| v);
    match status.map(String::as_str) {
        Some("on_hold") => "on_hold",
        Some("archived") => "archived",
        _ => "active",
    }
}

fn desk_page(title: &str, body: &str) -> Html<String> {
    sections_page(title, body, ("/t/desk", "Project"), &DESK_SECTIONS)
}

/// A page under `home` (its address and link text) with a navigation to `home` and to
/// each of its `sections` (`home/section`), then `body`.
fn sections_page(title: &str, body: &str, home: (&str, &str), sections: &[&str]) -> Html<String> {
    let (base, name) = home;
    let links: String = sections
        .iter()
        .map(|s| format!(r#"<li><a href="{base}/{s}">{s}</a></li>"#))
        .collect();
    page(
        title,
        &format!(r#"<nav><ul><li><a href="{base}">{name}</a></li>{links}</ul></nav>{body}"#),
    )
}

/// A 404 for a section a sections page does not have.
fn missing_section(sections: &[&str], section: &str) -> Option<Response> {
    (!sections.contains(&section)).then(|| StatusCode::NOT_FOUND.into_response())
}

async fn desk_section(Path(section): Path<String>) -> Response {
    if let Some(missing) = missing_section(&DESK_SECTIONS, &section) {
        return missing;
    }
    desk_page(&section, "<p>Nothing here yet.</p>").into_response()
}

/// The projects of `/t/works`, by id.
const WORKS: [&str; 3] = ["Apollo", "Borealis", "Cygnus"];

/// A page of `/t/works`, with a navigation to the list of projects.
fn works_page(title: &str, body: &str) -> Html<String> {
    page(
        title,
        &format!(r#"<nav><a href="/t/works">All projects</a></nav>{body}"#),
    )
}

/// Links to every project but the one of `id` (every one for 0).
fn works_links(id: u32) -> String {
    (1..)
        .zip(WORKS)
        .filter(|(i, _)| *i != id)
        .map(|(i, name)| format!(r#"<li><a href="/t/works/{i}">{name}</a></li>"#))
        .collect()
}

/// Three projects, each with a status kept in its URL, and links on each to the others.
/// Saving one archived (`/t/works/<id>/edit`) and then "Export" on its page gives a
/// 500; the other projects, a link away on the same page, export fine.
async fn works() -> Html<String> {
    works_page("Projects", &format!("<ul>{}</ul>", works_links(0)))
}

async fn works_project(
    Path(id): Path<u32>,
    Query(query): Query<Vec<(String, String)>>,
) -> Response {
    let Some(name) = id.checked_sub(1).and_then(|i| WORKS.get(i as usize)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let status = desk_status(&query);
    works_page(
        name,
        &format!(
            r#"<p>Status: {status}</p>
<p><a href="/t/works/{id}/edit?status={status}">Edit project</a> <a href="/t/works/{id}/export?status={status}">Export</a></p>
<h2>Related projects</h2><ul>{related}</ul>"#,
            related = works_links(id)
        ),
    )
    .into_response()
}

async fn works_edit(
    Path(id): Path<u32>,
    Query(query): Query<Vec<(String, String)>>,
) -> Html<String> {
    let options = status_options(&["active", "on_hold", "archived"], desk_status(&query));
    works_page(
        "Edit project",
        &format!(
            r#"<form method="post" action="/t/works/{id}/edit">
<label for="status">Status</label> <select id="status" name="status">{options}</select>
<button type="submit">Save</button>
</form>"#
        ),
    )
}

async fn works_save(Path(id): Path<u32>, Form(fields): Form<Vec<(String, String)>>) -> Redirect {
    let status = desk_status(&fields);
    Redirect::to(&format!("/t/works/{id}?saved=1&status={status}"))
}

async fn works_export(Query(query): Query<Vec<(String, String)>>) -> Response {
    export(&query, works_page)
}

/// The `<option>`s of `statuses`, with `current` selected.
fn status_options(statuses: &[&str], current: &str) -> String {
    statuses
        .iter()
        .map(|s| {
            let selected = if *s == current { " selected" } else { "" };
            format!(r#"<option value="{s}"{selected}>{s}</option>"#)
        })
        .collect()
}

async fn desk_edit(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let status = desk_status(&query);
    let options = status_options(&["active", "on_hold", "archived"], status);
    desk_page(
        "Edit project",
        &format!(
            r#"<form method="post" action="/t/desk/edit">
<label for="status">Status</label> <select id="status" name="status">{options}</select>
<button type="submit">Save</button>
</form>"#
        ),
    )
}

async fn desk_save(Form(fields): Form<Vec<(String, String)>>) -> Redirect {
    let status = desk_status(&fields);
    Redirect::to(&format!("/t/desk?saved=1&status={status}"))
}

async fn desk_export(Query(query): Query<Vec<(String, String)>>) -> Response {
    export(&query, desk_page)
}

/// An export of the project whose status `query` holds, on a page of `layout`: a 500
/// for an archived one.
fn export(query: &[(String, String)], layout: fn(&str, &str) -> Html<String>) -> Response {
    if desk_status(query) == "archived" {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            page("Error", "<p>cannot export an archived project</p>"),
        )
            .into_response();
    }
    layout("Export", "<p>Your export is ready.</p>").into_response()
}

/// As `/t/desk`, with a project form of a name and a budget besides the status, which
/// the server saves whatever they hold: a fill meant to be refused saves the status it
/// was sent with too.
async fn plot(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let status = desk_status(&query);
    plot_page(
        "Project",
        &format!(
            r#"<p>Status: {status}</p>
<p><a href="/t/plot/edit?status={status}">Edit project</a> <a href="/t/plot/export?status={status}">Export</a></p>"#
        ),
    )
}

const PLOT_SECTIONS: [&str; 3] = ["inbox", "files", "help"];

fn plot_page(title: &str, body: &str) -> Html<String> {
    sections_page(title, body, ("/t/plot", "Project"), &PLOT_SECTIONS)
}

async fn plot_export(Query(query): Query<Vec<(String, String)>>) -> Response {
    export(&query, plot_page)
}

async fn plot_section(Path(section): Path<String>) -> Response {
    if let Some(missing) = missing_section(&PLOT_SECTIONS, &section) {
        return missing;
    }
    plot_page(&section, "<p>Nothing here yet.</p>").into_response()
}

async fn plot_edit(Query(query): Query<Vec<(String, String)>>) -> Html<String> {
    let status = desk_status(&query);
    let options = status_options(&["active", "on_hold", "archived"], status);
    plot_page(
        "Edit project",
        &format!(
            r#"<form method="post" action="/t/plot/edit">
<label for="name">Project name</label> <input id="name" name="name" required maxlength="40" value="Website">
<label for="budget">Budget in hours</label> <input id="budget" name="budget" type="number" min="1" max="100" value="10">
<label for="status">Status</label> <select id="status" name="status">{options}</select>
<button type="submit">Save</button>
</form>"#
        ),
    )
}

async fn plot_save(Form(fields): Form<Vec<(String, String)>>) -> Redirect {
    let status = desk_status(&fields);
    Redirect::to(&format!("/t/plot?saved=1&status={status}"))
}

/// The saved preferences of `/t/prefs`: whether email and text messages are ticked.
#[derive(Clone)]
struct Prefs(std::sync::Arc<std::sync::Mutex<(bool, bool)>>);

impl Default for Prefs {
    fn default() -> Self {
        Prefs(std::sync::Arc::new(std::sync::Mutex::new((true, false))))
    }
}

/// Notification preferences kept by the server (email ticked, text messages not, at
/// first): "Send test" (outside the form) uses the first saved channel, and throws when
/// none is saved. What it needs was saved earlier, perhaps episodes earlier, and may be
/// saved otherwise by the time a trace is replayed.
async fn prefs(axum::Extension(prefs): axum::Extension<Prefs>) -> Html<String> {
    let (email, sms) = *prefs.0.lock().unwrap_or_else(|e| e.into_inner());
    let ticked = |on: bool| if on { " checked" } else { "" };
    let saved: Vec<String> = [(email, "email"), (sms, "sms")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| format!(r#"{{"channelName":"{name}"}}"#))
        .collect();
    page(
        "Notifications",
        &format!(
            r#"<form method="post" action="/t/prefs">
<label><input type="checkbox" name="email" value="on"{email}> Email</label>
<label><input type="checkbox" name="sms" value="on"{sms}> Text message</label>
<button type="submit">Save</button>
</form>
<p><button type="button" id="send">Send test</button></p>
<script>
var saved = [{saved}];
document.getElementById('send').addEventListener('click', function () {{
  document.title = 'Sent to ' + saved[0].channelName;
}});
</script>"#,
            email = ticked(email),
            sms = ticked(sms),
            saved = saved.join(","),
        ),
    )
}

async fn prefs_save(
    axum::Extension(prefs): axum::Extension<Prefs>,
    Form(fields): Form<Vec<(String, String)>>,
) -> Redirect {
    let on = |name: &str| fields.iter().any(|(k, v)| k == name && v == "on");
    *prefs.0.lock().unwrap_or_else(|e| e.into_inner()) = (on("email"), on("sms"));
    Redirect::to("/t/prefs")
}

/// The sections of `/t/zones`, each linked from every page of it.
const ZONE_SECTIONS: [&str; 10] = [
    "inbox", "calendar", "contacts", "files", "notes", "tasks", "team", "billing", "report", "help",
];

/// A settings page whose display zone is kept in `localStorage` as soon as it is
/// picked, and a report among ten sections that has no offset for one of the zones:
/// it throws on load while Kathmandu is in force. Each section has panels to open,
/// where a curious explorer lingers; the settings page also has a profile form, whose
/// saves are changes of their own.
async fn zones() -> Html<String> {
    zones_page(
        "Settings",
        r#"<form method="post" action="/t/zones">
<label for="name">Your name</label> <input id="name" name="name" required>
<label for="email">Email</label> <input id="email" name="email" type="email">
<button type="submit">Save profile</button>
</form>
<label for="zone">Display zone</label>
<select id="zone"><option value="utc">UTC</option><option value="berlin">Berlin</option><option value="kathmandu">Kathmandu</option></select>
<script>
var zone = document.getElementById('zone');
zone.value = localStorage.getItem('tb-zone') || 'utc';
zone.addEventListener('change', function () { localStorage.setItem('tb-zone', zone.value); });
</script>"#,
    )
}

async fn zones_save() -> Redirect {
    Redirect::to("/t/zones?saved=1")
}

fn zones_page(title: &str, body: &str) -> Html<String> {
    sections_page(title, body, ("/t/zones", "Settings"), &ZONE_SECTIONS)
}

async fn zones_section(Path(section): Path<String>) -> Response {
    if let Some(missing) = missing_section(&ZONE_SECTIONS, &section) {
        return missing;
    }
    let panels: String = ["Summary", "Details", "History"]
        .iter()
        .map(|p| {
            format!(
                r#"<p><button type="button" onclick="this.parentNode.nextElementSibling.hidden = !this.parentNode.nextElementSibling.hidden">{p}</button></p>
<div hidden><p>{p} of {section}.</p><p><a href="/t/zones/{section}?panel={p}">Link to this panel</a></p></div>"#
            )
        })
        .collect();
    let script = if section == "report" {
        r#"<p id="zone-name"></p>
<script>
var zones = { utc: { offsetName: 'UTC' }, berlin: { offsetName: 'CET' } };
document.getElementById('zone-name').textContent = zones[localStorage.getItem('tb-zone') || 'utc'].offsetName;
</script>"#
    } else {
        ""
    };
    zones_page(&section, &format!("{panels}{script}")).into_response()
}

/// The sections of `/t/display`, each linked from every page of it.
const DISPLAY_SECTIONS: [&str; 4] = ["inbox", "files", "charts", "help"];

/// The themes of `/t/display`; the charts have no palette for the last one.
const THEMES: [&str; 8] = [
    "light", "dark", "sepia", "ocean", "forest", "rose", "slate", "contrast",
];

/// Display settings: a theme kept in the browser (`localStorage`) among eight, a
/// profile form and six buttons of the page's own. The charts section has no palette
/// for the "contrast" theme and throws.
async fn display() -> Html<String> {
    let options: String = THEMES
        .iter()
        .map(|t| format!(r#"<option value="{t}">{t}</option>"#))
        .collect();
    let buttons: String = ["Preview", "Compact", "Wide", "Large text", "Animations", "Sounds"]
        .iter()
        .map(|b| format!(r#"<button type="button" onclick="this.textContent = this.textContent + ' ✓'">{b}</button> "#))
        .collect();
    display_page(
        "Display",
        &format!(
            r#"<form method="post" action="/t/display">
<label for="name">Your name</label> <input id="name" name="name" required>
<button type="submit">Save profile</button>
</form>
<p>{buttons}</p>
<label for="theme">Theme</label> <select id="theme">{options}</select>
<script>
var theme = document.getElementById('theme');
theme.value = localStorage.getItem('tb-theme') || 'light';
theme.addEventListener('change', function () {{ localStorage.setItem('tb-theme', theme.value); }});
</script>"#
        ),
    )
}

async fn display_save() -> Redirect {
    Redirect::to("/t/display?saved=1")
}

fn display_page(title: &str, body: &str) -> Html<String> {
    sections_page(title, body, ("/t/display", "Display"), &DISPLAY_SECTIONS)
}

async fn display_section(Path(section): Path<String>) -> Response {
    if let Some(missing) = missing_section(&DISPLAY_SECTIONS, &section) {
        return missing;
    }
    let script = if section == "charts" {
        let palettes: String = THEMES[..THEMES.len() - 1]
            .iter()
            .map(|t| format!("{t}: {{ palette: '#{}' }}, ", t.len()))
            .collect();
        format!(
            r#"<p id="palette"></p>
<script>
var themes = {{ {palettes} }};
document.getElementById('palette').textContent = themes[localStorage.getItem('tb-theme') || 'light'].palette;
</script>"#
        )
    } else {
        String::new()
    };
    display_page(&section, &format!("<p>The {section}.</p>{script}")).into_response()
}

/// The sections of `/t/shelf`, each linked from every page of it.
const SHELF_SECTIONS: [&str; 10] = [
    "books", "films", "music", "games", "maps", "photos", "letters", "stamps", "coins", "toys",
];

/// A list with a filter kept for the browser tab (`sessionStorage`) and a board tab
/// among ten sections: the board highlights the filtered status's column, and there is
/// no column for archived items, so choosing "Archived" in the filters and then opening
/// the board throws. Three controls of the page's own among eleven links found on every
/// page of it.
async fn shelf() -> Html<String> {
    shelf_page(
        "Shelf",
        r#"<div role="tablist"><button type="button" role="tab" id="tab-list" aria-selected="true">List</button><button type="button" role="tab" id="tab-board" aria-selected="false">Board</button></div>
<p><button type="button" id="filters-toggle" aria-expanded="false">Filters</button></p>
<div id="filters" hidden><label for="shelf-status">Status</label>
<select id="shelf-status"><option value="all">All</option><option value="open">Open</option><option value="done">Done</option><option value="archived">Archived</option></select></div>
<section id="panel-list"><ul><li data-status="open">Sort the attic</li><li data-status="done">Label the boxes</li><li data-status="archived">Old catalogue</li></ul></section>
<section id="panel-board" hidden><div id="col-open">Open</div><div id="col-done">Done</div></section>
<script>
var shelfStatus = document.getElementById('shelf-status');
shelfStatus.value = sessionStorage.getItem('tb-shelf-status') || 'all';
shelfStatus.addEventListener('change', function () { sessionStorage.setItem('tb-shelf-status', shelfStatus.value); });
document.getElementById('filters-toggle').addEventListener('click', function () {
  var panel = document.getElementById('filters');
  panel.hidden = !panel.hidden;
  this.setAttribute('aria-expanded', String(!panel.hidden));
});
function show(board) {
  document.getElementById('panel-list').hidden = board;
  document.getElementById('panel-board').hidden = !board;
  document.getElementById('tab-list').setAttribute('aria-selected', String(!board));
  document.getElementById('tab-board').setAttribute('aria-selected', String(board));
  if (board && shelfStatus.value !== 'all') {
    document.getElementById('col-' + shelfStatus.value).dataset.highlight = 'yes';
  }
}
document.getElementById('tab-list').addEventListener('click', function () { show(false); });
document.getElementById('tab-board').addEventListener('click', function () { show(true); });
</script>"#,
    )
}

fn shelf_page(title: &str, body: &str) -> Html<String> {
    sections_page(title, body, ("/t/shelf", "Shelf"), &SHELF_SECTIONS)
}

async fn shelf_section(Path(section): Path<String>) -> Response {
    if let Some(missing) = missing_section(&SHELF_SECTIONS, &section) {
        return missing;
    }
    shelf_page(&section, "<p>Nothing on this shelf yet.</p>").into_response()
}

/// The items listed on `/t/rack`, each with a page of its own.
const RACK_ITEMS: [&str; 16] = [
    "Anchor", "Bellows", "Compass", "Dory", "Easel", "Flask", "Gimbal", "Hammock", "Inkwell",
    "Jib", "Kettle", "Lantern", "Mallet", "Net", "Oar", "Pulley",
];

/// The statuses of `/t/rack`'s filter; the board has a column for each but the last.
const RACK_STATUSES: [&str; 8] = [
    "open", "todo", "review", "waiting", "paused", "done", "lent", "scrapped",
];

/// A list of sixteen items, each linking to its page, with a filter behind a
/// "Filters" toggle, kept for the browser tab (`sessionStorage`), and a board tab that
/// highlights the filtered status's column. There is no column for scrapped items:
/// "Scrapped" in the filters, then the board, throws. The filter has nine options and
/// is shown only by its toggle, one move among the nineteen of the page.
async fn rack() -> Html<String> {
    let rows: String = RACK_ITEMS
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let status = RACK_STATUSES[i % RACK_STATUSES.len()];
            format!(r#"<li data-status="{status}"><a href="/t/rack/items/{i}">{name}</a></li>"#)
        })
        .collect();
    let options: String = RACK_STATUSES
        .iter()
        .map(|s| {
            let mut label = s.to_string();
            label[..1].make_ascii_uppercase();
            format!(r#"<option value="{s}">{label}</option>"#)
        })
        .collect();
    let columns: String = RACK_STATUSES[..RACK_STATUSES.len() - 1]
        .iter()
        .map(|s| format!(r#"<div id="col-{s}">{s}</div>"#))
        .collect();
    page(
        "Rack",
        &format!(
            r#"<div role="tablist"><button type="button" role="tab" id="tab-list" aria-selected="true">List</button><button type="button" role="tab" id="tab-board" aria-selected="false">Board</button></div>
<p><button type="button" id="filters-toggle" aria-expanded="false">Filters</button></p>
<div id="filters" hidden><label for="rack-status">Status</label>
<select id="rack-status"><option value="all">All</option>{options}</select></div>
<section id="panel-list"><ul>{rows}</ul></section>
<section id="panel-board" hidden>{columns}</section>
<script>
var rackStatus = document.getElementById('rack-status');
rackStatus.value = sessionStorage.getItem('tb-rack-status') || 'all';
rackStatus.addEventListener('change', function () {{ sessionStorage.setItem('tb-rack-status', rackStatus.value); }});
document.getElementById('filters-toggle').addEventListener('click', function () {{
  var panel = document.getElementById('filters');
  panel.hidden = !panel.hidden;
  this.setAttribute('aria-expanded', String(!panel.hidden));
}});
function show(board) {{
  document.getElementById('panel-list').hidden = board;
  document.getElementById('panel-board').hidden = !board;
  document.getElementById('tab-list').setAttribute('aria-selected', String(!board));
  document.getElementById('tab-board').setAttribute('aria-selected', String(board));
  if (board && rackStatus.value !== 'all') {{
    document.getElementById('col-' + rackStatus.value).dataset.highlight = 'yes';
  }}
}}
document.getElementById('tab-list').addEventListener('click', function () {{ show(false); }});
document.getElementById('tab-board').addEventListener('click', function () {{ show(true); }});
</script>"#
        ),
    )
}

async fn rack_item(Path(n): Path<usize>) -> Response {
    let Some(name) = RACK_ITEMS.get(n) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    page(
        name,
        &format!(r#"<p>{name}, on the rack.</p><p><a href="/t/rack">Back to the rack</a></p>"#),
    )
    .into_response()
}

/// The sections of `/t/clock`, each linked from every page of it.
const CLOCK_SECTIONS: [&str; 5] = ["tasks", "billing", "notes", "people", "help"];

/// A timer kept for the browser tab (`sessionStorage`), started on a task's page, and a
/// billing section whose usage meter has no rate card for a running timer: it logs a
/// console error on load while the timer runs. The timer is started pages before
/// billing is opened, so a trace from the latest page loaded does not start it.
async fn clock() -> Html<String> {
    clock_page("Clock", "<p>Track the time your tasks take.</p>")
}

fn clock_page(title: &str, body: &str) -> Html<String> {
    sections_page(title, body, ("/t/clock", "Clock"), &CLOCK_SECTIONS)
}

async fn clock_section(Path(section): Path<String>) -> Response {
    if let Some(missing) = missing_section(&CLOCK_SECTIONS, &section) {
        return missing;
    }
    let body = match section.as_str() {
        "tasks" => (1..=3)
            .map(|n| format!(r#"<p><a href="/t/clock/tasks/{n}">Task {n}</a></p>"#))
            .collect(),
        "billing" => r#"<p>Usage this month.</p>
<script>
if (sessionStorage.getItem('tb-clock')) console.error('billing usage: no rate card for a running timer');
</script>"#
            .to_string(),
        _ => "<p>Nothing here yet.</p>".to_string(),
    };
    clock_page(&section, &body).into_response()
}

async fn clock_task(Path(n): Path<u32>) -> Response {
    if !(1..=3).contains(&n) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let body = r#"<p><button type="button" id="timer">Start timer</button></p>
<script>
var timer = document.getElementById('timer');
function label() { timer.textContent = sessionStorage.getItem('tb-clock') ? 'Stop timer' : 'Start timer'; }
label();
timer.addEventListener('click', function () {
  if (sessionStorage.getItem('tb-clock')) sessionStorage.removeItem('tb-clock');
  else sessionStorage.setItem('tb-clock', 'running');
  label();
});
</script>"#;
    clock_page(&format!("Task {n}"), body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes() {
        assert_eq!(parse_status("404"), Some(StatusCode::NOT_FOUND));
        assert_eq!(parse_status("200"), Some(StatusCode::OK));
        assert_eq!(parse_status("100"), None);
        assert_eq!(parse_status("600"), None);
        assert_eq!(parse_status("abc"), None);
    }
}
