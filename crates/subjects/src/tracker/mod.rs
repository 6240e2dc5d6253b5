//! "Curio Tracker": a project-tracker back office with fifteen seeded faults, deeper and
//! wider than the shop: projects hold tasks, tasks hold comments and time entries, and
//! there are settings (profile, notifications, team) and billing (plan, invoices, payment
//! method) around them.
//!
//! Server-rendered pages share one layout (header with search, clock and user menu, a
//! collapsible sidebar, a toast); inline JS does what a real back office's would: tabs,
//! modals, inline edit, filters, charts, a running timer. All data lives in one
//! server-side [`model::Tracker`] behind a mutex, so whatever a run creates persists for
//! the life of the app; the browser keeps only per-device preferences (sidebar, display
//! timezone, the running timer, list filters).
//!
//! The faults sit 2 to 11 user steps from the dashboard and need what real bugs need:
//! valid, server-checked form submissions, a particular order of actions, invalid input
//! that reaches the server, or objects created earlier in the run. None sits behind an
//! action whose text says delete, remove, log out, reset or cancel subscription; those
//! actions exist (and work) so that an explorer's guard has something to avoid. See
//! [`FAULTS`] for the exact steps.
//!
//! Validation failures always answer 200 with the form and an inline message, and
//! unknown ids answer 404 only where no visible link leads, so that the seeded faults are
//! the only failures an explorer can meet.

mod billing;
mod layout;
mod model;
mod pages;
mod projects;
mod scripts;
mod settings;
mod tasks;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::Router;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use crate::ground_truth::{FaultKind, FaultSpec, GroundTruth};

pub(crate) const T01_BROKEN_API_DOCS: &str = "T01-broken-link-api-docs";
pub(crate) const T02_BROKEN_INVOICE_PDF: &str = "T02-broken-link-invoice-pdf";
pub(crate) const T03_500_TIME_HOURS: &str = "T03-500-time-entry-hours";
pub(crate) const T04_500_LONG_COMMENT: &str = "T04-500-long-comment";
pub(crate) const T05_500_NEGATIVE_SEATS: &str = "T05-500-negative-seats";
pub(crate) const T06_500_NEW_PROJECT_REPORT: &str = "T06-500-report-new-project";
pub(crate) const T07_REJECTION_NOTIFY: &str = "T07-rejection-notify-assignee";
pub(crate) const T08_UNCAUGHT_BOARD_FILTER: &str = "T08-uncaught-board-filter";
pub(crate) const T09_CONSOLE_TIMER_BILLING: &str = "T09-console-timer-billing";
pub(crate) const T10_UNCAUGHT_REPORTS_TIMEZONE: &str = "T10-uncaught-reports-timezone";
pub(crate) const T11_CONSOLE_BLOCKED_REPORT: &str = "T11-console-blocked-report";
pub(crate) const T12_REJECTION_INVITE_AVATAR: &str = "T12-rejection-invite-avatar";
pub(crate) const T13_500_EXPORT_ARCHIVED: &str = "T13-500-export-archived";
pub(crate) const T14_500_BUSINESS_YEARLY: &str = "T14-500-business-yearly";
pub(crate) const T15_UNCAUGHT_TEST_NOTIFICATION: &str = "T15-uncaught-test-notification";

/// The tracker's seeded faults. Steps start on the dashboard (`/`); "a task" is any task
/// page, which the dashboard's "Due soon" list links to directly.
pub static FAULTS: [FaultSpec; 15] = [
    FaultSpec {
        id: T01_BROKEN_API_DOCS,
        kind: FaultKind::BrokenLink,
        description: "Sidebar \"Help\", then \"API documentation\": the link leads to /docs/api, \
                      a 404.",
        depth_hint: 2,
        marker: "/docs/api",
    },
    FaultSpec {
        id: T02_BROKEN_INVOICE_PDF,
        kind: FaultKind::BrokenLink,
        description: "Sidebar \"Billing\", \"Invoices\", any invoice (e.g. INV-1042), then \
                      \"Download PDF\": /billing/invoices/<number>/pdf is a 404 for every \
                      invoice.",
        depth_hint: 4,
        marker: "/pdf",
    },
    FaultSpec {
        id: T03_500_TIME_HOURS,
        kind: FaultKind::ServerError,
        description: "A task page (e.g. \"Due soon\" on the dashboard), \"Log time\" (opens a \
                      dialog), then \"Save entry\" with an Hours value that is not a number: \
                      empty (the default), \"abc\", \"1,5\". POST /tasks/<id>/time answers 500 \
                      instead of a message. Numbers outside 0.25-24 get a message.",
        depth_hint: 3,
        marker: "/time",
    },
    FaultSpec {
        id: T04_500_LONG_COMMENT,
        kind: FaultKind::ServerError,
        description: "A task page, type a comment longer than 280 characters (the field has \
                      no maxlength; a counter only warns), \"Post comment\": POST \
                      /tasks/<id>/comments answers 500. An empty comment gets a message.",
        depth_hint: 3,
        marker: "/comments",
    },
    FaultSpec {
        id: T05_500_NEGATIVE_SEATS,
        kind: FaultKind::ServerError,
        description: "Sidebar \"Billing\", type a negative number (e.g. -1) into \"Seats\", \
                      \"Update seats\": POST /billing/seats answers 500. 0, more than 500, \
                      fewer than the team's members and non-numbers get messages.",
        depth_hint: 3,
        // With the method: a seat count the form turns down ("abc", 0) answers the
        // billing page at /billing/seats, where T09 may log its console error, so the
        // path alone is in that finding's URL too.
        marker: "POST /billing/seats",
    },
    FaultSpec {
        id: T06_500_NEW_PROJECT_REPORT,
        kind: FaultKind::ServerError,
        description: "Needs objects created in the run: sidebar \"Projects\", \"New project\", \
                      fill \"Project name\", \"Create project\"; on the new project's page \
                      \"New task\", fill Title, Estimate (1-40), Due date (after today) and \
                      choose an Assignee, \"Create task\"; then \"Time report\" on that task: \
                      GET /tasks/<id>/report answers 500 for any task of a project created \
                      in the run (seeded projects work).",
        depth_hint: 11,
        // The report's path is no marker: T11 logs its console error on that very page
        // (and T10 throws on /reports). This is the only failing GET under /tasks/.
        marker: "GET /tasks/",
    },
    FaultSpec {
        id: T07_REJECTION_NOTIFY,
        kind: FaultKind::UnhandledRejection,
        description: "A valid task creation assigned to Priya Nair: a project (dashboard \
                      card), \"New task\", fill Title, Estimate (1-40), Due date (after \
                      today), choose Assignee \"Priya Nair\", \"Create task\". The created \
                      task's page (?created=1) notifies the assignee; Priya has no email, the \
                      answer says so and the uncaught promise rejects.",
        depth_hint: 7,
        marker: "notify assignee:",
    },
    FaultSpec {
        id: T08_UNCAUGHT_BOARD_FILTER,
        kind: FaultKind::UncaughtException,
        description: "Order matters: a project page, \"Filters\" (List tab), pick Status \
                      \"Archived\" (or \"Blocked\"), then the \"Board\" tab: the board \
                      highlights the filtered status's column, which does not exist, and \
                      throws a TypeError. The filter is kept per project for the browser \
                      tab.",
        depth_hint: 4,
        marker: "reading 'classList'",
    },
    FaultSpec {
        id: T09_CONSOLE_TIMER_BILLING,
        kind: FaultKind::ConsoleError,
        description: "Order matters: a task page, \"Start timer\", then sidebar \"Billing\" \
                      while the timer runs: the usage meter logs console.error(\"billing \
                      usage: ...\"). The timer is kept for the browser tab until stopped.",
        depth_hint: 3,
        marker: "billing usage: no rate card",
    },
    FaultSpec {
        id: T10_UNCAUGHT_REPORTS_TIMEZONE,
        kind: FaultKind::UncaughtException,
        description: "Order matters: sidebar \"Settings\" (profile), pick Display timezone \
                      \"Kathmandu (UTC+05:45)\" (saved on the device at once), then sidebar \
                      \"Reports\": the chart has no offset for that zone and throws a \
                      TypeError on load.",
        depth_hint: 3,
        marker: "reading 'zoneName'",
    },
    FaultSpec {
        id: T11_CONSOLE_BLOCKED_REPORT,
        kind: FaultKind::ConsoleError,
        description: "A task page, \"Edit task\", pick Status \"Blocked\", \"Save changes\"; \
                      \"Log time\", fill Hours (e.g. 1.5), \"Save entry\"; then \"Time \
                      report\": the chart has no colour for time logged while blocked and \
                      logs console.error(\"time report: ...\"). Time from the timer is drawn \
                      in its own colour and does not count.",
        depth_hint: 8,
        marker: "time report: no colour",
    },
    FaultSpec {
        id: T12_REJECTION_INVITE_AVATAR,
        kind: FaultKind::UnhandledRejection,
        description: "A valid invitation: sidebar \"Team\", \"Invite member\" (opens a \
                      dialog), fill Name, a valid Email, choose a Role, \"Send invite\". The \
                      team page shown after it (?invited=<id>) loads the new member's \
                      avatar, gets {\"avatar\":null} and the uncaught promise rejects.",
        depth_hint: 6,
        marker: "reading 'url'",
    },
    FaultSpec {
        id: T13_500_EXPORT_ARCHIVED,
        kind: FaultKind::ServerError,
        description: "A project page, \"Edit project\", pick Status \"Archived\", \"Save \
                      changes\", then \"Export\" on the project page: GET \
                      /projects/<id>/export answers 500 for archived projects.",
        depth_hint: 5,
        marker: "/export",
    },
    FaultSpec {
        id: T14_500_BUSINESS_YEARLY,
        kind: FaultKind::ServerError,
        description: "Sidebar \"Billing\", \"Change plan\", pick plan \"Business\", Billing \
                      cycle \"Yearly\", \"Review change\" (validated: seats 5-500, known \
                      promo code or none), then \"Confirm change\": POST \
                      /billing/plans/confirm answers 500. Other plans and cycles are \
                      applied.",
        depth_hint: 6,
        marker: "/billing/plans/confirm",
    },
    FaultSpec {
        id: T15_UNCAUGHT_TEST_NOTIFICATION,
        kind: FaultKind::UncaughtException,
        description: "Order matters: sidebar \"Settings\", \"Notifications\", untick \"Email\" \
                      and \"Push\" (Slack starts unticked), then \"Send test notification\": \
                      with no channel ticked it throws a TypeError.",
        depth_hint: 5,
        marker: "reading 'label'",
    },
];

#[derive(Clone)]
pub(crate) struct TrackerState {
    pub(crate) truth: GroundTruth,
    data: Arc<Mutex<model::Tracker>>,
}

impl TrackerState {
    pub(crate) fn data(&self) -> MutexGuard<'_, model::Tracker> {
        // Every update keeps the data consistent on its own (pushes and field writes), so
        // a panicking handler is no reason to fail every later request.
        self.data.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records seeded fault `id` and answers the plain 500 page a crashed backend gives.
    pub(crate) fn server_error(&self, id: &str) -> Response {
        self.truth.record(id);
        internal_server_error()
    }
}

fn internal_server_error() -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Html(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Internal Server Error</title></head>\
             <body><h1>Internal Server Error</h1>\
             <p>The server encountered an unexpected condition that prevented it from fulfilling the request.</p>\
             </body></html>\n",
        ),
    )
        .into_response()
}

/// A parsed `application/x-www-form-urlencoded` body or query string. Parsing never
/// fails: bad escapes stay as typed and invalid UTF-8 is replaced, so that no request
/// body can make a handler answer anything but the page a user would get.
#[derive(Debug, Default, Clone)]
pub(crate) struct FormData(Vec<(String, String)>);

impl FormData {
    pub(crate) fn parse(raw: &[u8]) -> Self {
        FormData(
            raw.split(|b| *b == b'&')
                .filter(|pair| !pair.is_empty())
                .map(|pair| {
                    let (name, value) = match pair.iter().position(|b| *b == b'=') {
                        Some(i) => (&pair[..i], &pair[i + 1..]),
                        None => (pair, &b""[..]),
                    };
                    (decode(name), decode(value))
                })
                .collect(),
        )
    }

    pub(crate) fn from_query(query: Option<&str>) -> Self {
        Self::parse(query.unwrap_or_default().as_bytes())
    }

    /// The first value of `name`, as sent; empty when absent.
    pub(crate) fn raw(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default()
    }

    /// The first value of `name`, trimmed; empty when absent.
    pub(crate) fn get(&self, name: &str) -> &str {
        self.raw(name).trim()
    }

    /// Whether `name` was sent with `value` (checkboxes sharing a name).
    pub(crate) fn has(&self, name: &str, value: &str) -> bool {
        self.0.iter().any(|(n, v)| n == name && v == value)
    }
}

fn decode(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < raw.len() => match (hex(raw[i + 1]), hex(raw[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push(hi * 16 + lo);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// A path id, or `None` for anything that is not one (which the handler answers with
/// its 404 page).
pub(crate) fn parse_id(raw: &str) -> Option<u32> {
    raw.parse().ok()
}

/// Something on each side of an '@' and a dot in the domain: what the tracker's forms
/// accept as an email.
pub(crate) fn looks_like_email(email: &str) -> bool {
    email.len() <= 120
        && !email.contains(char::is_whitespace)
        && email.split_once('@').is_some_and(|(user, domain)| {
            !user.is_empty()
                && !domain.contains('@')
                && domain
                    .split_once('.')
                    .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty())
        })
}

pub(crate) fn router(truth: GroundTruth) -> Router {
    let state = TrackerState {
        truth,
        data: Arc::new(Mutex::new(model::Tracker::seeded(model::today()))),
    };
    Router::new()
        // Dashboard and the pages around it.
        .route("/", get(pages::dashboard))
        .route("/reports", get(pages::reports))
        .route("/activity", get(pages::activity))
        .route("/api/activity", get(pages::activity_api))
        .route("/search", get(pages::search))
        .route("/help", get(pages::help).post(pages::contact_support))
        .route("/help/shortcuts", get(pages::shortcuts))
        .route("/status", get(pages::status))
        .route("/login", get(pages::login_form).post(pages::login))
        .route("/logout", get(pages::logged_out).post(pages::logout))
        .route("/favicon.ico", get(pages::favicon))
        // Projects.
        .route("/projects", get(projects::list).post(projects::create))
        .route("/projects/new", get(projects::new_form))
        .route("/projects/{id}", get(projects::detail))
        .route(
            "/projects/{id}/edit",
            get(projects::edit_form).post(projects::update),
        )
        .route("/projects/{id}/export", get(projects::export))
        .route("/projects/{id}/delete", post(projects::delete))
        .route(
            "/projects/{id}/tasks/new",
            get(tasks::new_form).post(tasks::create),
        )
        .route("/api/projects/{id}/rename", post(projects::rename))
        // Tasks.
        .route("/tasks", get(tasks::mine))
        .route("/tasks/{id}", get(tasks::detail))
        .route(
            "/tasks/{id}/edit",
            get(tasks::edit_form).post(tasks::update),
        )
        .route("/tasks/{id}/delete", post(tasks::delete))
        .route("/tasks/{id}/comments", post(tasks::comment))
        .route("/tasks/{id}/time", post(tasks::log_time))
        .route("/tasks/{id}/time/{entry}/delete", post(tasks::delete_entry))
        .route("/tasks/{id}/report", get(tasks::report))
        .route("/api/tasks/{id}/status", post(tasks::move_status))
        .route("/api/tasks/{id}/notify", post(tasks::notify))
        .route("/api/tasks/{id}/watch", post(tasks::watch))
        // Settings.
        .route("/settings", get(settings::index))
        .route(
            "/settings/profile",
            get(settings::profile).post(settings::save_profile),
        )
        .route(
            "/settings/notifications",
            get(settings::notifications).post(settings::save_notifications),
        )
        .route("/api/notifications/test", post(settings::test_notification))
        .route("/settings/team", get(settings::team))
        .route("/settings/team/invite", post(settings::invite))
        .route("/settings/team/{id}/remove", post(settings::remove_member))
        .route("/api/members/{id}/role", post(settings::change_role))
        .route("/api/members/{id}/avatar", get(settings::avatar))
        .route("/settings/advanced", get(settings::advanced))
        .route("/settings/reset", post(settings::reset))
        // Billing.
        .route("/billing", get(billing::overview))
        .route("/billing/seats", post(billing::update_seats))
        .route("/billing/cancel", post(billing::cancel))
        .route("/billing/resume", post(billing::resume))
        .route("/billing/plans", get(billing::plans))
        .route("/billing/plans/review", post(billing::review))
        .route("/billing/plans/confirm", post(billing::confirm))
        .route("/billing/invoices", get(billing::invoices))
        .route("/billing/invoices/{number}", get(billing::invoice))
        .route("/billing/invoices/{number}/pdf", get(billing::invoice_pdf))
        .route(
            "/billing/payment",
            get(billing::payment).post(billing::save_payment),
        )
        .fallback(pages::not_found)
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn form_data_decodes_like_browsers_encode() {
        let f = FormData::parse(b"name=Ada+L%C3%B6we&x=%3Cb%3E&empty=&bare&bad=%zz%4&c=1&c=2");
        assert_eq!(f.get("name"), "Ada Löwe");
        assert_eq!(f.get("x"), "<b>");
        assert_eq!(f.get("empty"), "");
        assert_eq!(f.get("bare"), "");
        assert_eq!(f.get("bad"), "%zz%4");
        assert_eq!(f.get("missing"), "");
        assert!(f.has("c", "1") && f.has("c", "2") && !f.has("c", "3"));
        assert_eq!(FormData::parse(b"a=%ff%fe").get("a"), "\u{fffd}\u{fffd}");
        assert_eq!(FormData::parse(b"a=%").get("a"), "%");
        assert_eq!(FormData::parse(b"a=%4").get("a"), "%4");
        assert_eq!(FormData::from_query(None).get("a"), "");
    }

    #[test]
    fn emails() {
        assert!(looks_like_email("kim@example.net"));
        assert!(!looks_like_email("kim@example"));
        assert!(!looks_like_email("@example.net"));
        assert!(!looks_like_email("kim example@x.y"));
        assert!(!looks_like_email("hello"));
    }

    #[test]
    fn faults_are_unique_cover_every_kind_and_depths_2_to_12() {
        let ids: BTreeSet<&str> = FAULTS.iter().map(|f| f.id).collect();
        assert_eq!(ids.len(), FAULTS.len());
        for kind in [
            FaultKind::UncaughtException,
            FaultKind::UnhandledRejection,
            FaultKind::ConsoleError,
            FaultKind::ServerError,
        ] {
            assert!(
                FAULTS.iter().filter(|f| f.kind == kind).count() >= 2,
                "{kind:?}"
            );
        }
        assert!(FAULTS.iter().any(|f| f.kind == FaultKind::BrokenLink));
        assert!(FAULTS.iter().all(|f| (2..=12).contains(&f.depth_hint)));
        assert!(FAULTS.iter().filter(|f| f.depth_hint >= 8).count() >= 2);
    }

    fn marker(id: &str) -> &'static str {
        FAULTS.iter().find(|f| f.id == id).unwrap().marker
    }

    #[test]
    fn markers_are_distinct_and_http_markers_are_paths() {
        for f in &FAULTS {
            assert!(!f.marker.trim().is_empty(), "{}", f.id);
            // Distinct, and none inside another: a finding with the longer one would
            // also count the fault of the shorter one.
            for g in FAULTS.iter().filter(|g| g.id != f.id) {
                assert!(!g.marker.contains(f.marker), "{} in {}", f.id, g.id);
            }
            if matches!(f.kind, FaultKind::ServerError | FaultKind::BrokenLink) {
                // A path, or a method and a path where the path alone is also the URL
                // of another fault's page.
                let path = ["GET ", "POST "]
                    .iter()
                    .find_map(|m| f.marker.strip_prefix(m))
                    .unwrap_or(f.marker);
                assert!(path.starts_with('/'), "{}", f.id);
            }
        }
        assert_eq!(marker(T01_BROKEN_API_DOCS), pages::API_DOCS);
    }

    /// Findings as Curio words them: the message, then the page's URL (that of the
    /// request for HTTP failures; an inline script's location is its page's URL). One
    /// per fault, and one more wherever a fault's page shares a path with another fault.
    const FINDINGS: [(&str, &str, &str); 16] = [
        (
            T01_BROKEN_API_DOCS,
            "HTTP 404 Not Found for GET /docs/api",
            "http://127.0.0.1:8080/docs/api",
        ),
        (
            T02_BROKEN_INVOICE_PDF,
            "HTTP 404 Not Found for GET /billing/invoices/INV-1042/pdf",
            "http://127.0.0.1:8080/billing/invoices/INV-1042/pdf",
        ),
        (
            T03_500_TIME_HOURS,
            "HTTP 500 Internal Server Error for POST /tasks/8/time",
            "http://127.0.0.1:8080/tasks/8/time",
        ),
        (
            T04_500_LONG_COMMENT,
            "HTTP 500 Internal Server Error for POST /tasks/2/comments",
            "http://127.0.0.1:8080/tasks/2/comments",
        ),
        (
            T05_500_NEGATIVE_SEATS,
            "HTTP 500 Internal Server Error for POST /billing/seats",
            "http://127.0.0.1:8080/billing/seats",
        ),
        (
            T06_500_NEW_PROJECT_REPORT,
            "HTTP 500 Internal Server Error for GET /tasks/21/report",
            "http://127.0.0.1:8080/tasks/21/report",
        ),
        (
            T07_REJECTION_NOTIFY,
            "Error: notify assignee: Priya Nair has no email address",
            "http://127.0.0.1:8080/tasks/21?created=1",
        ),
        (
            T08_UNCAUGHT_BOARD_FILTER,
            "TypeError: Cannot read properties of null (reading 'classList')",
            "http://127.0.0.1:8080/projects/1",
        ),
        (
            T09_CONSOLE_TIMER_BILLING,
            "billing usage: no rate card for live time, cannot meter the timer running on WEB-2",
            "http://127.0.0.1:8080/billing",
        ),
        // The seats form sent back with a message.
        (
            T09_CONSOLE_TIMER_BILLING,
            "billing usage: no rate card for live time, cannot meter the timer running on WEB-2",
            "http://127.0.0.1:8080/billing/seats",
        ),
        (
            T10_UNCAUGHT_REPORTS_TIMEZONE,
            "TypeError: Cannot read properties of undefined (reading 'zoneName')",
            "http://127.0.0.1:8080/reports",
        ),
        (
            T11_CONSOLE_BLOCKED_REPORT,
            "time report: no colour for status \"blocked\" (entry 9)",
            "http://127.0.0.1:8080/tasks/4/report",
        ),
        (
            T12_REJECTION_INVITE_AVATAR,
            "TypeError: Cannot read properties of null (reading 'url')",
            "http://127.0.0.1:8080/settings/team?invited=7",
        ),
        (
            T13_500_EXPORT_ARCHIVED,
            "HTTP 500 Internal Server Error for GET /projects/3/export",
            "http://127.0.0.1:8080/projects/3/export",
        ),
        (
            T14_500_BUSINESS_YEARLY,
            "HTTP 500 Internal Server Error for POST /billing/plans/confirm",
            "http://127.0.0.1:8080/billing/plans/confirm",
        ),
        (
            T15_UNCAUGHT_TEST_NOTIFICATION,
            "TypeError: Cannot read properties of undefined (reading 'label')",
            "http://127.0.0.1:8080/settings/notifications",
        ),
    ];

    #[test]
    fn each_finding_carries_its_own_marker_only() {
        crate::ground_truth::assert_markers_tell_findings_apart(&FAULTS, &FINDINGS);
    }

    /// The client-side markers come from the code the pages run: the property a
    /// TypeError names, or the text the script throws or logs.
    #[test]
    fn client_markers_match_the_scripts() {
        for (id, script, code) in [
            (
                T07_REJECTION_NOTIFY,
                tasks::TASK_SCRIPT,
                "new Error('notify assignee: '",
            ),
            (
                T08_UNCAUGHT_BOARD_FILTER,
                projects::DETAIL_SCRIPT,
                "column.classList",
            ),
            (
                T09_CONSOLE_TIMER_BILLING,
                billing::OVERVIEW_SCRIPT,
                "console.error('billing usage: no rate card",
            ),
            (
                T10_UNCAUGHT_REPORTS_TIMEZONE,
                pages::REPORTS_SCRIPT,
                "zone.zoneName",
            ),
            (
                T11_CONSOLE_BLOCKED_REPORT,
                tasks::REPORT_SCRIPT,
                "console.error('time report: no colour",
            ),
            (
                T12_REJECTION_INVITE_AVATAR,
                settings::TEAM_SCRIPT,
                "d.avatar.url",
            ),
            (
                T15_UNCAUGHT_TEST_NOTIFICATION,
                settings::NOTIFICATIONS_SCRIPT,
                "channels[0].label",
            ),
        ] {
            assert!(script.contains(code), "{id}: {code}");
            let m = marker(id);
            let read = m
                .strip_prefix("reading '")
                .and_then(|p| p.strip_suffix('\''))
                .map(|p| format!(".{p}"));
            assert!(code.contains(read.as_deref().unwrap_or(m)), "{id}: {m}");
        }
    }
}
