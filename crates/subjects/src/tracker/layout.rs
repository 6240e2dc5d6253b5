//! The tracker's shared layout: a header with the search box, the running timer, a clock
//! and the user menu (which holds "Log out"); a collapsible sidebar with the main
//! navigation; a toast; the footer. Also the sub-navigations of settings and billing,
//! inline messages and the 404 page.
//!
//! The clock ticks every second and the sidebar remembers being collapsed on the device:
//! noisy, but harmless.

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

use super::FormData;
use super::scripts::COMMON;
use crate::html::{BEACON_SCRIPT, NO_FAVICON, escape};

/// Which sidebar entry the page belongs to, for `aria-current`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nav {
    Dashboard,
    Projects,
    MyTasks,
    Reports,
    Activity,
    Team,
    Settings,
    Billing,
    Help,
    None,
}

const NAV: [(Nav, &str, &str, &str); 9] = [
    (Nav::Dashboard, "/", "Dashboard", "◧"),
    (Nav::Projects, "/projects", "Projects", "▤"),
    (Nav::MyTasks, "/tasks", "My tasks", "☑"),
    (Nav::Reports, "/reports", "Reports", "▥"),
    (Nav::Activity, "/activity", "Activity", "↻"),
    (Nav::Team, "/settings/team", "Team", "☺"),
    (Nav::Settings, "/settings/profile", "Settings", "⚙"),
    (Nav::Billing, "/billing", "Billing", "$"),
    (Nav::Help, "/help", "Help", "?"),
];

const CSS: &str = r#"<style>
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #1f2933; background: #f4f5f7; }
a { color: #2457a6; }
header.top { display: flex; align-items: center; gap: 1rem; padding: 0.5rem 1.2rem; background: #1d2b3a; color: #fff; }
header.top .brand { font-weight: 700; font-size: 1.15rem; color: #fff; text-decoration: none; margin-right: 1rem; }
header.top form { display: flex; gap: 0.3rem; flex: 1; max-width: 26rem; }
header.top input[type=search] { flex: 1; padding: 0.25rem 0.5rem; border-radius: 4px; border: 0; }
header.top .spacer { flex: 1; }
#clock { font-variant-numeric: tabular-nums; color: #c9d6e3; min-width: 8.5rem; text-align: right; }
#timer-indicator { color: #ffd166; font-variant-numeric: tabular-nums; text-decoration: none; }
.user-menu { position: relative; }
.user-menu summary { cursor: pointer; list-style: none; padding: 0.2rem 0.6rem; border-radius: 4px; background: #2c3e50; }
.user-menu .menu { position: absolute; right: 0; top: 2.2rem; background: #fff; color: #1f2933; border: 1px solid #d5dbe1; border-radius: 6px; padding: 0.5rem; min-width: 13rem; z-index: 10; box-shadow: 0 4px 12px rgba(0,0,0,.15); }
.user-menu .menu a, .user-menu .menu button { display: block; width: 100%; text-align: left; margin: 0.2rem 0; }
.layout { display: flex; min-height: calc(100vh - 3rem); }
aside.sidebar { width: 13rem; background: #fff; border-right: 1px solid #e1e5ea; padding: 0.8rem 0.6rem; flex-shrink: 0; }
aside.sidebar nav a { display: flex; gap: 0.6rem; padding: 0.35rem 0.6rem; border-radius: 5px; text-decoration: none; color: #1f2933; }
aside.sidebar nav a[aria-current="page"] { background: #e3ecf8; color: #1d4f91; font-weight: 600; }
aside.sidebar .icon { width: 1.2rem; text-align: center; }
body.collapsed aside.sidebar { width: 3.4rem; }
body.collapsed aside.sidebar .label { display: none; }
#sidebar-toggle { margin-bottom: 0.6rem; font-size: 0.8rem; }
main { flex: 1; padding: 1.2rem 2rem 3rem; max-width: 72rem; }
footer { padding: 1rem 2rem; color: #6b7785; font-size: 0.85rem; border-top: 1px solid #e1e5ea; background: #fff; }
footer a { margin-right: 1rem; }
h1 { margin-top: 0.2rem; font-size: 1.6rem; }
.crumbs { font-size: 0.85rem; color: #6b7785; }
.subnav { display: flex; gap: 0.3rem; border-bottom: 1px solid #d5dbe1; margin-bottom: 1rem; }
.subnav a { padding: 0.35rem 0.8rem; text-decoration: none; color: #3e4c59; border-radius: 5px 5px 0 0; }
.subnav a[aria-current="page"] { background: #fff; border: 1px solid #d5dbe1; border-bottom-color: #fff; margin-bottom: -1px; font-weight: 600; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 1rem; }
.card { background: #fff; border: 1px solid #e1e5ea; border-radius: 8px; padding: 1rem; margin-bottom: 1rem; }
.stat { font-size: 1.8rem; font-weight: 700; }
.muted { color: #6b7785; }
.badge { display: inline-block; padding: 0 0.5rem; border-radius: 999px; font-size: 0.8rem; background: #e4e7eb; }
.badge.todo { background: #e4e7eb; } .badge.in_progress { background: #d0e2ff; } .badge.in_review { background: #fde8c8; }
.badge.blocked { background: #f9d0d0; } .badge.done { background: #d3f0d9; } .badge.archived { background: #ddd; color: #555; }
.badge.active { background: #d3f0d9; } .badge.on_hold { background: #fde8c8; }
.dot { display: inline-block; width: 0.7rem; height: 0.7rem; border-radius: 50%; margin-right: 0.3rem; }
.avatar { display: inline-flex; align-items: center; justify-content: center; width: 1.8rem; height: 1.8rem; border-radius: 50%; color: #fff; font-size: 0.75rem; font-weight: 700; }
.error { color: #b00020; }
.ok { color: #1e7b34; }
.notice { padding: 0.6rem 1rem; border-radius: 6px; background: #fff3cd; }
.field-error { color: #b00020; font-size: 0.85rem; display: block; }
table { border-collapse: collapse; width: 100%; background: #fff; }
td, th { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid #e1e5ea; }
label { display: block; margin-top: 0.7rem; font-weight: 500; }
label.inline { display: inline; font-weight: normal; margin: 0 1rem 0 0.2rem; }
input, select, textarea, button { font: inherit; }
input[type=text], input[type=email], input[type=date], input[type=number], input[type=password], select, textarea { padding: 0.3rem 0.5rem; border: 1px solid #c4cdd5; border-radius: 4px; min-width: 14rem; }
textarea { width: 100%; }
button, .button { padding: 0.3rem 0.9rem; border-radius: 5px; border: 1px solid #1d2b3a; background: #fff; cursor: pointer; color: #1d2b3a; text-decoration: none; display: inline-block; }
button.primary, .button.primary { background: #1d4f91; border-color: #1d4f91; color: #fff; }
button.danger { border-color: #b00020; color: #b00020; }
.toolbar { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin: 0.6rem 0; }
[role=tablist] { display: flex; gap: 0.3rem; margin: 1rem 0 0.6rem; }
[role=tab] { border-radius: 5px 5px 0 0; }
[role=tab][aria-selected=true] { background: #1d4f91; color: #fff; }
.board { display: grid; grid-template-columns: repeat(4, 1fr); gap: 0.8rem; }
.column { background: #eef1f4; border-radius: 8px; padding: 0.6rem; min-height: 8rem; }
.column.highlight { outline: 3px solid #1d4f91; }
.column .card { margin-bottom: 0.5rem; padding: 0.6rem; }
.bars .bar { height: 1.2rem; border-radius: 4px; margin: 0.2rem 0; color: #fff; font-size: 0.75rem; padding-left: 0.4rem; white-space: nowrap; }
.timeline { position: relative; }
.modal { position: fixed; inset: 0; background: rgba(15, 23, 42, 0.45); display: flex; align-items: flex-start; justify-content: center; padding-top: 8vh; z-index: 20; }
.modal .dialog { background: #fff; border-radius: 10px; padding: 1.2rem 1.5rem; width: 30rem; max-width: 95vw; }
#toast { position: fixed; right: 1.5rem; bottom: 1.5rem; background: #1d2b3a; color: #fff; padding: 0.6rem 1rem; border-radius: 6px; z-index: 30; }
.comment { border-left: 3px solid #c4cdd5; padding: 0.2rem 0.8rem; margin: 0.6rem 0; background: #fff; }
.counter.over { color: #b00020; font-weight: 600; }
.plans { display: grid; grid-template-columns: repeat(3, 1fr); gap: 0.8rem; }
.plans label { border: 1px solid #c4cdd5; border-radius: 8px; padding: 0.8rem; background: #fff; margin: 0; }
.meter { height: 0.8rem; background: #e4e7eb; border-radius: 4px; overflow: hidden; }
.meter span { display: block; height: 100%; background: #1d4f91; }
.danger-zone { border: 1px solid #f0b4b4; border-radius: 8px; padding: 1rem; background: #fff7f7; }
mark { background: #ffe58f; }
canvas { max-width: 100%; background: #fff; border: 1px solid #e1e5ea; border-radius: 6px; }
</style>"#;

/// Renders a full page. `content` and `script` are trusted markup: callers escape
/// whatever user data they put in. `toast` is shown for a few seconds after load.
pub(crate) fn page(
    title: &str,
    nav: Nav,
    content: &str,
    script: &str,
    toast: Option<&str>,
) -> Html<String> {
    let mut links = String::new();
    for (entry, href, text, icon) in NAV {
        let current = if entry == nav {
            r#" aria-current="page""#
        } else {
            ""
        };
        links.push_str(&format!(
            r#"<a href="{href}" aria-label="{text}"{current}><span class="icon" aria-hidden="true">{icon}</span><span class="label">{text}</span></a>"#
        ));
    }
    let title = escape(title);
    let toast = escape(toast.unwrap_or_default());
    Html(format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Curio Tracker</title>
{NO_FAVICON}
{CSS}
{BEACON_SCRIPT}
</head>
<body>
<header class="top">
<a class="brand" href="/">Curio Tracker</a>
<form role="search" action="/search" method="get">
<input type="search" name="q" aria-label="Search projects, tasks and comments" placeholder="Search projects, tasks, comments">
<button type="submit">Search</button>
</form>
<span class="spacer"></span>
<a id="timer-indicator" href="/tasks" hidden></a>
<time id="clock" aria-label="Current time"></time>
<details class="user-menu">
<summary>Alex Rivera ▾</summary>
<div class="menu">
<a href="/settings/profile">Your profile</a>
<a href="/settings/notifications">Notification settings</a>
<a href="/billing">Plan and billing</a>
<form method="post" action="/logout"><button type="submit">Log out</button></form>
</div>
</details>
</header>
<div class="layout">
<aside class="sidebar">
<button type="button" id="sidebar-toggle" aria-controls="main-nav" aria-expanded="true">Collapse sidebar</button>
<nav id="main-nav" aria-label="Main">{links}</nav>
</aside>
<main>
{content}
</main>
</div>
<footer>
<a href="/help">Help center</a><a href="/status">System status</a><a href="/help/shortcuts">Keyboard shortcuts</a>
<span>Curio Tracker 2.4.1</span>
</footer>
<div id="toast" role="status" hidden data-message="{toast}"></div>
{COMMON}
{script}
</body>
</html>
"#
    ))
}

/// A page without the app's chrome, for the signed-out pages.
pub(crate) fn bare_page(title: &str, content: &str) -> Html<String> {
    let title = escape(title);
    Html(format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Curio Tracker</title>
{NO_FAVICON}
{CSS}
</head>
<body>
<header class="top"><span class="brand">Curio Tracker</span></header>
<main style="max-width: 30rem; margin: 3rem auto;">
{content}
</main>
</body>
</html>
"#
    ))
}

/// A tab strip of links, the current one marked.
fn subnav(label: &str, entries: &[(&str, &str)], current: &str) -> String {
    let links: String = entries
        .iter()
        .map(|(href, text)| {
            let mark = if *href == current {
                r#" aria-current="page""#
            } else {
                ""
            };
            format!(r#"<a href="{href}"{mark}>{text}</a>"#)
        })
        .collect();
    format!(r#"<nav class="subnav" aria-label="{label}">{links}</nav>"#)
}

pub(crate) fn settings_nav(current: &str) -> String {
    subnav(
        "Settings",
        &[
            ("/settings/profile", "Profile"),
            ("/settings/notifications", "Notifications"),
            ("/settings/team", "Team"),
            ("/settings/advanced", "Advanced"),
        ],
        current,
    )
}

pub(crate) fn billing_nav(current: &str) -> String {
    subnav(
        "Billing",
        &[
            ("/billing", "Overview"),
            ("/billing/plans", "Change plan"),
            ("/billing/invoices", "Invoices"),
            ("/billing/payment", "Payment method"),
        ],
        current,
    )
}

/// An inline validation message for a form, or nothing.
pub(crate) fn problem(problem: Option<&str>) -> String {
    problem
        .map(|p| format!(r#"<p class="error" role="alert">{}</p>"#, escape(p)))
        .unwrap_or_default()
}

/// A form's validation problems, each shown next to its field.
#[derive(Debug, Default)]
pub(crate) struct Problems(Vec<(&'static str, String)>);

impl Problems {
    pub(crate) fn add(&mut self, field: &'static str, message: impl Into<String>) {
        self.0.push((field, message.into()));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The alert above the form: how many fields need a look.
    pub(crate) fn summary(&self) -> String {
        match self.0.len() {
            0 => String::new(),
            1 => r#"<p class="error" role="alert">Please fix the problem below.</p>"#.to_owned(),
            n => format!(r#"<p class="error" role="alert">Please fix the {n} problems below.</p>"#),
        }
    }

    /// The messages for `field`, to put right after it.
    pub(crate) fn at(&self, field: &str) -> String {
        self.0
            .iter()
            .filter(|(f, _)| *f == field)
            .map(|(_, m)| format!(r#"<span class="field-error">{}</span>"#, escape(m)))
            .collect()
    }
}

/// `selected` for the option whose value is `current`.
pub(crate) fn selected(value: &str, current: &str) -> &'static str {
    if value == current { " selected" } else { "" }
}

pub(crate) fn checked(on: bool) -> &'static str {
    if on { " checked" } else { "" }
}

/// The toast for `?done=CODE` after a redirect: what the last action did.
pub(crate) fn flash(query: &FormData) -> Option<&'static str> {
    Some(match query.get("done") {
        "project-created" => "Project created.",
        "project-saved" => "Project saved.",
        "project-deleted" => "Project deleted.",
        "task-saved" => "Task saved.",
        "task-deleted" => "Task deleted.",
        "commented" => "Comment posted.",
        "logged" => "Time logged.",
        "entry-deleted" => "Time entry deleted.",
        "profile" => "Profile saved.",
        "notifications" => "Notification preferences saved.",
        "member-removed" => "Member removed.",
        "reset" => "Demo data restored.",
        "seats" => "Seats updated.",
        "plan" => "Plan changed.",
        "card" => "Payment method updated.",
        "cancelled" => "Subscription cancelled. It ends with the current period.",
        "resumed" => "Welcome back! Your subscription continues.",
        "welcome" => "Signed in. Welcome back!",
        _ => return None,
    })
}

/// Why a project or task page has nothing to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    /// It existed and was deleted: the activity log and the running timer keep links to
    /// such things, so it gets a normal page that says so, not an error.
    Deleted {
        what: &'static str,
        back_href: &'static str,
        back_text: &'static str,
    },
    /// It never existed: a 404, which no visible link leads to.
    Unknown,
}

impl IntoResponse for Missing {
    fn into_response(self) -> Response {
        match self {
            Missing::Deleted {
                what,
                back_href,
                back_text,
            } => {
                let content = format!(
                    r#"<h1>This {what} was deleted</h1>
<p class="notice">Someone on your team deleted this {what}. Its comments and time entries went with it.</p>
<p><a href="{back_href}">{back_text}</a></p>"#
                );
                page("Deleted", Nav::None, &content, "", None).into_response()
            }
            Missing::Unknown => not_found(),
        }
    }
}

/// The 404 page, with the layout so that a lost user can go on.
pub(crate) fn not_found() -> Response {
    let content = r#"<h1>Not found</h1>
<p class="notice">We couldn't find that page. It may have been moved or deleted.</p>
<p><a href="/">Back to the dashboard</a></p>"#;
    (
        StatusCode::NOT_FOUND,
        page("Not found", Nav::None, content, "", None),
    )
        .into_response()
}
