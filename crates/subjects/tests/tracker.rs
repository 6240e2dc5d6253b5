//! Serves "Curio Tracker" and checks it over real HTTP: every page kind answers, every
//! visible link works but the seeded broken ones, each server-side fault fires on exactly
//! the requests its steps make (and is recorded), valid and handled-invalid submissions
//! fire nothing, client-side faults' pages carry their beacons, and the irreversible
//! actions work without breaking the app.

mod common;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use common::{Reply, assert_truth_only_in_scripts, attr_values, get, post, without_scripts};
use curio_subjects::{FaultKind, RunningSubject, Subject, serve};

/// Percent-encodes a form value the way a browser does.
fn enc(value: &str) -> String {
    let mut out = String::new();
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'*' => {
                out.push(char::from(b));
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn hits(app: &RunningSubject) -> BTreeMap<String, u32> {
    app.ground_truth()
        .hits()
        .into_iter()
        .map(|h| (h.id, h.count))
        .collect()
}

fn only(id: &str, count: u32) -> BTreeMap<String, u32> {
    BTreeMap::from([(id.to_owned(), count)])
}

fn location(reply: &Reply) -> String {
    assert_eq!(reply.status, 303, "not a redirect: {}", reply.body);
    reply.header("location").expect("location").to_owned()
}

/// The start tag that contains `needle`.
fn tag_with<'a>(html: &'a str, needle: &str) -> &'a str {
    let at = html.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    let start = html[..at].rfind('<').expect("tag start");
    let end = at + html[at..].find('>').expect("tag end");
    &html[start..=end]
}

fn attr(tag: &str, name: &str) -> String {
    attr_values(tag, name)
        .first()
        .unwrap_or_else(|| panic!("{tag} has no {name}"))
        .to_string()
}

/// A valid new-task form for the page at `new_form`, due on the form's earliest day.
async fn valid_task(app: &RunningSubject, new_form: &str, title: &str, assignee: &str) -> String {
    let page = get(app, new_form).await;
    assert_eq!(page.status, 200, "{new_form}");
    let due = attr(tag_with(&page.body, r#"id="due""#), "min");
    form(&[
        ("title", title),
        ("description", ""),
        ("estimate", "4"),
        ("due", &due),
        ("assignee", assignee),
    ])
}

/// Creates a task through the form and returns its page's path (with `?created=1`).
async fn create_task(app: &RunningSubject, project: u32, title: &str, assignee: &str) -> String {
    let new_form = format!("/projects/{project}/tasks/new");
    let body = valid_task(app, &new_form, title, assignee).await;
    let created = post(app, &new_form, &body).await;
    let to = location(&created);
    assert!(to.ends_with("?created=1"), "{to}");
    to
}

/// The entries a time report hands its chart script.
fn report_entries(html: &str) -> Vec<serde_json::Value> {
    let start = html.find("var REPORT = ").expect("report data") + "var REPORT = ".len();
    let end = start + html[start..].find(";\n").expect("end of report data");
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).expect("report json");
    data["entries"].as_array().cloned().unwrap_or_default()
}

#[test]
fn faults_cover_every_kind_at_depths_2_to_12() {
    let faults = Subject::Tracker.faults();
    assert_eq!(faults.len(), 15);
    let count = |kind| faults.iter().filter(|f| f.kind == kind).count();
    assert!(count(FaultKind::UncaughtException) >= 2);
    assert!(count(FaultKind::UnhandledRejection) >= 2);
    assert!(count(FaultKind::ConsoleError) >= 2);
    assert!(count(FaultKind::ServerError) >= 2);
    assert!(count(FaultKind::BrokenLink) >= 1);
    assert!(faults.iter().all(|f| (2..=12).contains(&f.depth_hint)));
    assert!(faults.iter().filter(|f| f.depth_hint >= 8).count() >= 2);
    let ids: BTreeSet<&str> = faults.iter().map(|f| f.id).collect();
    assert_eq!(ids.len(), faults.len());
    assert_eq!("tracker".parse::<Subject>().unwrap(), Subject::Tracker);
    assert_eq!(Subject::Tracker.to_string(), "tracker");
}

#[tokio::test]
async fn every_page_kind_answers_200() {
    let app = serve(Subject::Tracker).await.unwrap();
    let layout = [
        r#"href="/projects""#,
        r#"href="/tasks""#,
        r#"href="/reports""#,
        r#"href="/settings/team""#,
        r#"href="/billing""#,
        r#"href="/help""#,
        r#"id="sidebar-toggle""#,
        r#"id="clock""#,
        r#"action="/search""#,
        ">Log out</button>",
        "curioTruth(id)",
    ];
    let pages: [(&str, &[&str]); 32] = [
        (
            "/",
            &[
                "Due soon",
                r#"href="/tasks/8""#,
                r#"href="/projects/1""#,
                "week-chart",
            ],
        ),
        (
            "/projects",
            &[
                r#"href="/projects/new""#,
                "Website Redesign",
                r#"id="sort""#,
            ],
        ),
        ("/projects?status=on_hold", &["Q3 Marketing Campaign"]),
        (
            "/projects/new",
            &[r#"name="name""#, r#"name="key""#, "Create project</button>"],
        ),
        (
            "/projects/1",
            &[
                "New task</a>",
                "Edit project</a>",
                "Export</a>",
                "Delete project</button>",
                r#"data-tab="board""#,
                r#"id="filters-toggle""#,
                r#"id="col-in_review""#,
                r#"id="rename""#,
            ],
        ),
        (
            "/projects/1/edit",
            &[r#"name="status""#, "Save changes</button>"],
        ),
        (
            "/projects/1/export",
            &["key,title,status", "WEB-2,Homepage mockup"],
        ),
        (
            "/projects/1/tasks/new",
            &[
                r#"name="estimate""#,
                r#"type="date""#,
                "Choose…",
                "Create task</button>",
            ],
        ),
        ("/tasks", &["My tasks", "Apply filters</button>", "WEB-2"]),
        ("/tasks?status=all&due=overdue", &["My tasks"]),
        (
            "/tasks/2",
            &[
                "Edit task</a>",
                r#"id="timer""#,
                "Log time</button>",
                "Time report</a>",
                r#"name="hours""#,
                "Post comment</button>",
                "Save entry</button>",
            ],
        ),
        (
            "/tasks/2/edit",
            &[
                r#"<option value="blocked">Blocked</option>"#,
                "Delete task</button>",
            ],
        ),
        (
            "/tasks/2/report",
            &["Time report: WEB-2", r#"id="entry-bars""#],
        ),
        ("/reports", &["project-chart", "day-chart", r#"id="range""#]),
        ("/activity", &[r#"id="load-more""#, "Mara Costa"]),
        ("/search?q=mockup", &["WEB-2 Homepage mockup", "result(s)"]),
        ("/search?q=", &["Type a word"]),
        (
            "/help",
            &[r#"href="/docs/api""#, "Send message</button>", "<details>"],
        ),
        ("/help/shortcuts", &["Keyboard shortcuts", "<kbd>"]),
        ("/status", &["Operational", r#"id="refresh""#]),
        (
            "/settings/profile",
            &[r#"id="display-timezone""#, "Save profile</button>"],
        ),
        (
            "/settings/notifications",
            &[r#"id="send-test""#, r#"value="slack""#],
        ),
        (
            "/settings/team",
            &[
                "Invite member</button>",
                "Priya Nair",
                "Send invite</button>",
            ],
        ),
        ("/settings/advanced", &["Reset demo data</button>"]),
        (
            "/billing",
            &[
                "Update seats</button>",
                "Cancel subscription</button>",
                r#"id="usage-note""#,
            ],
        ),
        (
            "/billing/plans",
            &[r#"value="business""#, "Review change</button>"],
        ),
        (
            "/billing/invoices",
            &[r#"href="/billing/invoices/INV-1042""#],
        ),
        (
            "/billing/invoices/INV-1044",
            &[r#"href="/billing/invoices/INV-1044/pdf""#],
        ),
        (
            "/billing/payment",
            &[r#"name="number""#, "Save card</button>"],
        ),
        ("/login", &["Sign in</button>"]),
        ("/logout", &[r#"href="/login""#, "logged out"]),
        ("/settings", &[]),
    ];
    for (path, expected) in pages {
        let mut reply = get(&app, path).await;
        if path == "/settings" {
            assert_eq!(location(&reply), "/settings/profile");
            reply = get(&app, "/settings/profile").await;
        }
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply
                .header("content-type")
                .is_some_and(|ct| ct.starts_with("text/html")),
            "{path}"
        );
        let bare = path == "/login" || path == "/logout";
        for needle in expected
            .iter()
            .chain(if bare { &[][..] } else { &layout[..] })
        {
            assert!(reply.body.contains(needle), "{path} lacks {needle}");
        }
        assert_truth_only_in_scripts(path, &reply.body);
    }
    // Pages that only a form submission shows.
    let review = post(
        &app,
        "/billing/plans/review",
        "plan=starter&cycle=monthly&seats=8&promo=",
    )
    .await;
    assert_eq!(review.status, 200);
    assert!(review.body.contains("Confirm change</button>"));
    let out = post(&app, "/logout", "").await;
    assert_eq!(out.status, 200);
    assert!(out.body.contains("Log in again"));
    assert_eq!(get(&app, "/tasks/999").await.status, 404);
    assert_eq!(get(&app, "/projects/abc").await.status, 404);
    assert_eq!(get(&app, "/billing/invoices/INV-1").await.status, 404);
    assert_eq!(get(&app, "/favicon.ico").await.status, 204);
    assert!(app.ground_truth().hits().is_empty());
    app.shutdown().await;
}

/// Follows every link and GET form a user can see, from the dashboard: all work but the
/// seeded broken links, and none leads to the truth endpoints.
#[tokio::test]
async fn every_visible_link_works_except_the_seeded_ones() {
    let app = serve(Subject::Tracker).await.unwrap();
    let mut seen = BTreeSet::from(["/".to_owned()]);
    let mut queue = VecDeque::from(["/".to_owned()]);
    let mut broken = BTreeSet::new();
    while let Some(path) = queue.pop_front() {
        let reply = get(&app, &path).await;
        if reply.status == 303 {
            let to = location(&reply);
            if seen.insert(to.clone()) {
                queue.push_back(to);
            }
            continue;
        }
        if reply.status != 200 {
            broken.insert((path, reply.status));
            continue;
        }
        assert_truth_only_in_scripts(&path, &reply.body);
        let markup = without_scripts(&reply.body);
        let mut next: Vec<String> = attr_values(&markup, "href")
            .into_iter()
            .filter(|href| href.starts_with('/'))
            .map(|href| href.replace("&amp;", "&"))
            .collect();
        if markup.contains(r#"action="/search" method="get""#) {
            next.push("/search?q=design".to_owned());
        }
        if markup.contains(r#"method="get" action="/tasks""#) {
            next.push("/tasks?status=all&due=week".to_owned());
        }
        for link in next {
            if seen.len() < 400 && seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    for must in [
        "/billing/invoices/INV-1043",
        "/tasks/11/report",
        "/projects/3/export",
    ] {
        assert!(seen.contains(must), "{must} not reached: {seen:?}");
    }
    let expected: BTreeSet<(String, u16)> = [
        "/docs/api",
        "/billing/invoices/INV-1042/pdf",
        "/billing/invoices/INV-1043/pdf",
        "/billing/invoices/INV-1044/pdf",
    ]
    .into_iter()
    .map(|p| (p.to_owned(), 404))
    .collect();
    assert_eq!(broken, expected);
    let h = hits(&app);
    assert_eq!(
        h.keys().cloned().collect::<BTreeSet<_>>(),
        BTreeSet::from([
            "T01-broken-link-api-docs".to_owned(),
            "T02-broken-link-invoice-pdf".to_owned()
        ])
    );
    assert_eq!(h["T02-broken-link-invoice-pdf"], 3);
    app.shutdown().await;
}

#[tokio::test]
async fn t01_t02_broken_links_count_only_their_targets() {
    let app = serve(Subject::Tracker).await.unwrap();
    assert_eq!(get(&app, "/docs/other").await.status, 404);
    assert_eq!(
        get(&app, "/billing/invoices/INV-9999/pdf").await.status,
        404
    );
    assert!(hits(&app).is_empty());

    // Sidebar "Help", then "API documentation".
    let help = get(&app, "/help").await;
    assert!(
        help.body
            .contains(r#"<a href="/docs/api">API documentation</a>"#)
    );
    let docs = get(&app, "/docs/api").await;
    assert_eq!(docs.status, 404);
    assert!(docs.body.contains("Not found"));
    assert_eq!(hits(&app), only("T01-broken-link-api-docs", 1));

    // "Billing", "Invoices", an invoice, "Download PDF".
    assert!(
        get(&app, "/billing")
            .await
            .body
            .contains(r#"href="/billing/invoices""#)
    );
    assert!(
        get(&app, "/billing/invoices")
            .await
            .body
            .contains(r#"href="/billing/invoices/INV-1042""#)
    );
    let invoice = get(&app, "/billing/invoices/INV-1042").await;
    assert!(
        invoice.body.contains(
            r#"<a class="button" href="/billing/invoices/INV-1042/pdf">Download PDF</a>"#
        )
    );
    assert_eq!(
        get(&app, "/billing/invoices/INV-1042/pdf").await.status,
        404
    );
    let h = hits(&app);
    assert_eq!(h.len(), 2);
    assert_eq!(h["T02-broken-link-invoice-pdf"], 1);

    // The same, as the truth endpoint reports it.
    let report = get(&app, "/__truth").await;
    let json: serde_json::Value = serde_json::from_str(&report.body).unwrap();
    assert_eq!(json["subject"], "tracker");
    assert_eq!(json["faults"].as_array().map(Vec::len), Some(15));
    let reported: BTreeMap<String, u64> = json["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["id"].as_str().unwrap().to_owned(),
                h["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        reported,
        BTreeMap::from([
            ("T01-broken-link-api-docs".to_owned(), 1),
            ("T02-broken-link-invoice-pdf".to_owned(), 1)
        ])
    );
    app.shutdown().await;
}

#[tokio::test]
async fn t03_time_entry_hours_that_are_not_numbers_answer_500() {
    let app = serve(Subject::Tracker).await.unwrap();
    let task = get(&app, "/tasks/8").await.body;
    let date = attr(tag_with(&task, r#"id="entry-date""#), "value");
    let hours = tag_with(&task, r#"id="hours""#);
    assert!(hours.contains(r#"type="text""#) && !hours.contains("required"));
    assert!(!hours.contains("pattern") && !hours.contains("maxlength"));

    // "Save entry" with the dialog as it opens: Hours empty.
    let empty = post(
        &app,
        "/tasks/8/time",
        &form(&[("hours", ""), ("date", &date), ("note", "")]),
    )
    .await;
    assert_eq!(empty.status, 500);
    assert!(empty.body.contains("Internal Server Error"));
    assert_eq!(hits(&app), only("T03-500-time-entry-hours", 1));
    for junk in ["abc", "1,5", "two"] {
        let reply = post(
            &app,
            "/tasks/8/time",
            &form(&[("hours", junk), ("date", &date), ("note", "")]),
        )
        .await;
        assert_eq!(reply.status, 500, "{junk}");
    }
    assert_eq!(hits(&app), only("T03-500-time-entry-hours", 4));
    // Nothing was stored.
    assert!(
        get(&app, "/tasks/8")
            .await
            .body
            .contains("Time entries (0)")
    );
    app.shutdown().await;
}

#[tokio::test]
async fn t04_comments_over_280_characters_answer_500() {
    let app = serve(Subject::Tracker).await.unwrap();
    let task = get(&app, "/tasks/2").await.body;
    let area = tag_with(&task, r#"id="comment-body""#);
    assert!(!area.contains("maxlength") && !area.contains("required"));

    let at_limit = "y".repeat(280);
    let ok = post(&app, "/tasks/2/comments", &form(&[("body", &at_limit)])).await;
    assert_eq!(location(&ok), "/tasks/2?done=commented#comments");
    assert!(hits(&app).is_empty());

    let long = "x".repeat(300);
    let reply = post(&app, "/tasks/2/comments", &form(&[("body", &long)])).await;
    assert_eq!(reply.status, 500);
    assert_eq!(hits(&app), only("T04-500-long-comment", 1));
    let page = get(&app, "/tasks/2").await.body;
    assert!(page.contains(&at_limit));
    assert!(!page.contains(&long));
    app.shutdown().await;
}

#[tokio::test]
async fn t05_negative_seat_counts_answer_500() {
    let app = serve(Subject::Tracker).await.unwrap();
    let billing = get(&app, "/billing").await.body;
    let seats = tag_with(&billing, r#"id="seats""#);
    assert!(seats.contains(r#"type="text""#) && !seats.contains("min="));

    for (value, message) in [
        ("0", "at least one seat"),
        ("abc", "whole number"),
        ("", "whole number"),
        ("501", "contact sales"),
        ("99999999", "contact sales"),
        ("3", "remove some"),
    ] {
        let reply = post(&app, "/billing/seats", &form(&[("seats", value)])).await;
        assert_eq!(reply.status, 200, "{value}");
        assert!(reply.body.contains(message), "{value}: {message}");
    }
    assert!(hits(&app).is_empty());
    let reply = post(&app, "/billing/seats", "seats=-1").await;
    assert_eq!(reply.status, 500);
    assert_eq!(hits(&app), only("T05-500-negative-seats", 1));
    let ok = post(&app, "/billing/seats", "seats=12").await;
    assert_eq!(location(&ok), "/billing?done=seats");
    assert!(get(&app, "/billing").await.body.contains("12 seats"));
    app.shutdown().await;
}

#[tokio::test]
async fn t06_time_report_of_a_task_in_a_created_project_answers_500() {
    let app = serve(Subject::Tracker).await.unwrap();
    // Seeded projects' reports work, also for tasks created in them.
    let seeded_task = create_task(&app, 1, "Cookie banner", "4").await;
    let seeded_id = seeded_task
        .trim_start_matches("/tasks/")
        .trim_end_matches("?created=1");
    assert_eq!(
        get(&app, &format!("/tasks/{seeded_id}/report"))
            .await
            .status,
        200
    );
    assert_eq!(get(&app, "/tasks/2/report").await.status, 200);

    // "Projects", "New project", fill the name, "Create project".
    assert!(
        get(&app, "/projects")
            .await
            .body
            .contains(r#"href="/projects/new""#)
    );
    let created = post(
        &app,
        "/projects",
        &form(&[
            ("name", "Customer Portal"),
            ("key", ""),
            ("description", ""),
            ("budget", ""),
        ]),
    )
    .await;
    let project_page = location(&created);
    assert_eq!(project_page, "/projects/4?done=project-created");
    let project = get(&app, &project_page).await.body;
    assert!(project.contains("Customer Portal"));
    assert!(project.contains(r#"href="/projects/4/tasks/new""#));
    assert!(project.contains("key CP"));

    // "New task", fill it validly, "Create task", then "Time report".
    let task_page = create_task(&app, 4, "Login page", "4").await;
    let task = get(&app, &task_page).await;
    assert_eq!(task.status, 200);
    assert!(task.body.contains("CP-1 Login page"));
    let id = task_page
        .trim_start_matches("/tasks/")
        .trim_end_matches("?created=1");
    let report_link = format!(r#"href="/tasks/{id}/report""#);
    assert!(task.body.contains(&report_link));
    assert!(hits(&app).is_empty());
    let report = get(&app, &format!("/tasks/{id}/report")).await;
    assert_eq!(report.status, 500);
    assert_eq!(hits(&app), only("T06-500-report-new-project", 1));
    app.shutdown().await;
}

#[tokio::test]
async fn t13_export_of_a_project_archived_through_edit_answers_500() {
    let app = serve(Subject::Tracker).await.unwrap();
    let edit = get(&app, "/projects/3/edit").await.body;
    let name = attr(tag_with(&edit, r#"id="name""#), "value");
    // Saving unchanged or on hold keeps the export working.
    let body = |status: &str| {
        form(&[
            ("name", &name),
            ("description", "Paused."),
            ("status", status),
            ("budget", ""),
        ])
    };
    let saved = post(&app, "/projects/3/edit", &body("on_hold")).await;
    assert_eq!(location(&saved), "/projects/3?done=project-saved");
    assert_eq!(get(&app, "/projects/3/export").await.status, 200);
    assert!(hits(&app).is_empty());

    let archived = post(&app, "/projects/3/edit", &body("archived")).await;
    assert_eq!(location(&archived), "/projects/3?done=project-saved");
    let page = get(&app, "/projects/3?done=project-saved").await.body;
    assert!(page.contains("This project is archived"));
    assert!(page.contains(r#"href="/projects/3/export""#));
    let export = get(&app, "/projects/3/export").await;
    assert_eq!(export.status, 500);
    assert_eq!(hits(&app), only("T13-500-export-archived", 1));
    app.shutdown().await;
}

#[tokio::test]
async fn t14_confirming_business_yearly_answers_500() {
    let app = serve(Subject::Tracker).await.unwrap();
    let plans = get(&app, "/billing/plans").await.body;
    let seats = attr(tag_with(&plans, r#"id="plan-seats""#), "value");
    assert_eq!(seats, "8");
    let body = |plan: &str, cycle: &str| {
        form(&[
            ("plan", plan),
            ("cycle", cycle),
            ("seats", &seats),
            ("promo", ""),
        ])
    };
    let review = post(&app, "/billing/plans/review", &body("business", "yearly")).await;
    assert_eq!(review.status, 200);
    assert!(review.body.contains("Team → Business"));
    assert!(
        review
            .body
            .contains(r#"<input type="hidden" name="cycle" value="yearly">"#)
    );
    assert!(hits(&app).is_empty());
    let confirm = post(&app, "/billing/plans/confirm", &body("business", "yearly")).await;
    assert_eq!(confirm.status, 500);
    assert_eq!(hits(&app), only("T14-500-business-yearly", 1));

    // Other changes are applied and invoiced.
    let monthly = post(&app, "/billing/plans/confirm", &body("business", "monthly")).await;
    assert_eq!(location(&monthly), "/billing?done=plan");
    let billing = get(&app, "/billing").await.body;
    assert!(billing.contains("<p class=\"stat\">Business</p>"));
    assert!(
        get(&app, "/billing/invoices")
            .await
            .body
            .contains("INV-1045")
    );
    assert_eq!(hits(&app), only("T14-500-business-yearly", 1));
    app.shutdown().await;
}

/// Every form, filled validly or invalidly in ways the server handles: 200 with the
/// message, or a redirect; never a seeded fault.
#[tokio::test]
async fn valid_and_handled_submissions_fire_nothing() {
    let app = serve(Subject::Tracker).await.unwrap();
    let task = get(&app, "/tasks/2").await.body;
    let today = attr(tag_with(&task, r#"id="entry-date""#), "value");

    // Time entries.
    for (hours, date, note, message) in [
        ("0", today.as_str(), "", "between 0.25 and 24"),
        ("-1", &today, "", "between 0.25 and 24"),
        ("25", &today, "", "between 0.25 and 24"),
        ("99999999", &today, "", "between 0.25 and 24"),
        ("NaN", &today, "", "between 0.25 and 24"),
        ("2", "", "", "the day you worked"),
        ("2", "2026-13-01", "", "YYYY-MM-DD"),
        ("2", "2999-01-01", "", "in the future"),
        ("2", &today, &"n".repeat(201), "at most 200"),
    ] {
        let reply = post(
            &app,
            "/tasks/2/time",
            &form(&[("hours", hours), ("date", date), ("note", note)]),
        )
        .await;
        assert_eq!(reply.status, 200, "{hours} {date}");
        assert!(reply.body.contains(message), "{hours} {date}: {message}");
        // The dialog is open again with what was typed.
        assert!(reply.body.contains(r#"<div class="modal" id="log-modal">"#));
    }
    let logged = post(
        &app,
        "/tasks/2/time",
        &form(&[("hours", "1.5"), ("date", &today), ("note", "Review <b>")]),
    )
    .await;
    assert_eq!(location(&logged), "/tasks/2?done=logged#time");
    let timer = post(
        &app,
        "/tasks/2/time",
        &form(&[
            ("hours", "0.25"),
            ("date", &today),
            ("note", "Timer"),
            ("source", "timer"),
        ]),
    )
    .await;
    assert_eq!(timer.status, 303);
    let page = get(&app, "/tasks/2").await.body;
    assert!(page.contains("Review &lt;b&gt;"));
    assert!(page.contains("Time entries (4)"));

    // Comments.
    let empty = post(&app, "/tasks/2/comments", "body=++").await;
    assert_eq!(empty.status, 200);
    assert!(empty.body.contains("Write something before posting."));
    let comment = post(
        &app,
        "/tasks/2/comments",
        &form(&[("body", "<script>alert(1)</script> looks good")]),
    )
    .await;
    assert_eq!(comment.status, 303);
    let page = get(&app, "/tasks/2").await.body;
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; looks good"));

    // New projects.
    for (pairs, message) in [
        (vec![("name", "")], "give the project a name"),
        (vec![("name", "Docs"), ("key", "a b")], "2 to 6 letters"),
        (vec![("name", "Docs"), ("key", "web")], "already used"),
        (vec![("name", "Docs"), ("budget", "abc")], "Budget must be"),
        (vec![("name", "Docs"), ("budget", "0")], "Budget must be"),
        (vec![("name", &"n".repeat(81))], "at most 80"),
    ] {
        let reply = post(&app, "/projects", &form(&pairs)).await;
        assert_eq!(reply.status, 200, "{pairs:?}");
        assert!(reply.body.contains(message), "{pairs:?}: {message}");
    }
    let project = post(
        &app,
        "/projects",
        &form(&[("name", "Docs site"), ("key", "doc"), ("budget", "40")]),
    )
    .await;
    assert_eq!(location(&project), "/projects/4?done=project-created");
    assert!(get(&app, "/projects/4").await.body.contains("key DOC"));

    // New tasks: each problem on its own, then a valid one.
    let valid = valid_task(&app, "/projects/1/tasks/new", "Footer links", "5").await;
    let with = |name: &str, value: &str| {
        valid
            .split('&')
            .map(|pair| {
                if pair.starts_with(&format!("{name}=")) {
                    format!("{name}={}", enc(value))
                } else {
                    pair.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("&")
    };
    let today_iso = today.clone();
    for (name, value, message) in [
        ("title", "", "give the task a title"),
        ("title", &"t".repeat(121), "at most 120"),
        ("estimate", "", "estimate the task"),
        ("estimate", "0", "between 1 and 40"),
        ("estimate", "41", "between 1 and 40"),
        ("estimate", "1.25", "between 1 and 40"),
        ("estimate", "abc", "between 1 and 40"),
        ("due", "", "pick a due date"),
        ("due", &today_iso, "after today"),
        ("due", "2020-01-01", "after today"),
        ("due", "01/02/2099", "YYYY-MM-DD"),
        ("assignee", "", "who works on this"),
        ("assignee", "6", "who works on this"),
        ("assignee", "999", "who works on this"),
    ] {
        let reply = post(&app, "/projects/1/tasks/new", &with(name, value)).await;
        assert_eq!(reply.status, 200, "{name}={value}");
        assert!(reply.body.contains(message), "{name}={value}: {message}");
    }
    let created = post(&app, "/projects/1/tasks/new", &valid).await;
    let task_page = location(&created);
    let created_page = get(&app, &task_page).await.body;
    assert!(created_page.contains("Footer links"));
    assert!(created_page.contains(r#""created":true"#));

    // Editing: invalid, then a status change.
    let edit = get(&app, "/tasks/3/edit").await.body;
    let keep = |status: &str, due: &str| {
        form(&[
            ("title", &attr(tag_with(&edit, r#"id="title""#), "value")),
            ("description", "Staging behind basic auth."),
            ("status", status),
            ("assignee", "4"),
            (
                "estimate",
                &attr(tag_with(&edit, r#"id="estimate""#), "value"),
            ),
            ("due", due),
        ])
    };
    let old_due = attr(tag_with(&edit, r#"id="due""#), "value");
    let bad = post(&app, "/tasks/3/edit", &keep("in_progress", "tomorrow")).await;
    assert_eq!(bad.status, 200);
    assert!(bad.body.contains("YYYY-MM-DD"));
    let bad = post(&app, "/tasks/3/edit", &keep("nope", &old_due)).await;
    assert_eq!(bad.status, 200);
    assert!(bad.body.contains("choose a status"));
    let saved = post(&app, "/tasks/3/edit", &keep("in_progress", "2020-01-01")).await;
    assert_eq!(location(&saved), "/tasks/3?done=task-saved");

    // Invitations.
    for (pairs, message) in [
        (
            vec![
                ("name", ""),
                ("email", "kim@example.net"),
                ("role", "member"),
            ],
            "enter the person",
        ),
        (
            vec![("name", "Kim"), ("email", "kim"), ("role", "member")],
            "valid email",
        ),
        (
            vec![("name", "Kim"), ("email", "kim@example.net"), ("role", "")],
            "choose a role",
        ),
        (
            vec![
                ("name", "Kim"),
                ("email", "kim@example.net"),
                ("role", "owner"),
            ],
            "choose a role",
        ),
    ] {
        let reply = post(&app, "/settings/team/invite", &form(&pairs)).await;
        assert_eq!(reply.status, 200, "{pairs:?}");
        assert!(reply.body.contains(message), "{pairs:?}: {message}");
        assert!(
            reply
                .body
                .contains(r#"<div class="modal" id="invite-modal">"#)
        );
    }

    // Plans.
    for (body, message) in [
        (
            "plan=team&cycle=monthly&seats=8&promo=",
            "your current plan",
        ),
        (
            "plan=starter&cycle=monthly&seats=8&promo=NOPE",
            "promo code is not valid",
        ),
        (
            "plan=starter&cycle=monthly&seats=3&promo=",
            "Choose between 6 and 500",
        ),
        (
            "plan=starter&cycle=monthly&seats=-1&promo=",
            "Choose between 6 and 500",
        ),
        (
            "plan=starter&cycle=monthly&seats=abc&promo=",
            "whole number",
        ),
        ("plan=gold&cycle=monthly&seats=8&promo=", "choose a plan"),
        ("plan=starter&cycle=weekly&seats=8&promo=", "how often"),
    ] {
        for path in ["/billing/plans/review", "/billing/plans/confirm"] {
            let reply = post(&app, path, body).await;
            assert_eq!(reply.status, 200, "{path} {body}");
            assert!(reply.body.contains(message), "{path} {body}: {message}");
        }
    }
    let review = post(
        &app,
        "/billing/plans/review",
        "plan=starter&cycle=yearly&seats=10&promo=launch20",
    )
    .await;
    assert!(review.body.contains("Promo LAUNCH20"));
    let confirmed = post(
        &app,
        "/billing/plans/confirm",
        "plan=starter&cycle=yearly&seats=10&promo=LAUNCH20",
    )
    .await;
    assert_eq!(location(&confirmed), "/billing?done=plan");

    // Payment method.
    for (pairs, message) in [
        (
            vec![
                ("holder", ""),
                ("number", "4242 4242 4242 4242"),
                ("expiry", "12/40"),
                ("cvc", "123"),
            ],
            "name on the card",
        ),
        (
            vec![
                ("holder", "Alex"),
                ("number", "4242 4242 4242 4241"),
                ("expiry", "12/40"),
                ("cvc", "123"),
            ],
            "number doesn&#39;t look right",
        ),
        (
            vec![
                ("holder", "Alex"),
                ("number", "4242424242424242"),
                ("expiry", "01/20"),
                ("cvc", "123"),
            ],
            "expired",
        ),
        (
            vec![
                ("holder", "Alex"),
                ("number", "4242424242424242"),
                ("expiry", "1240"),
                ("cvc", "123"),
            ],
            "MM/YY",
        ),
        (
            vec![
                ("holder", "Alex"),
                ("number", "4242424242424242"),
                ("expiry", "12/40"),
                ("cvc", "abc"),
            ],
            "security code",
        ),
    ] {
        let reply = post(&app, "/billing/payment", &form(&pairs)).await;
        assert_eq!(reply.status, 200, "{pairs:?}");
        assert!(reply.body.contains(message), "{pairs:?}: {message}");
    }
    let card = post(
        &app,
        "/billing/payment",
        &form(&[
            ("holder", "Alex Rivera"),
            ("number", "5555 5555 5555 4444"),
            ("expiry", "12/40"),
            ("cvc", "321"),
        ]),
    )
    .await;
    assert_eq!(location(&card), "/billing/payment?done=card");
    assert!(
        get(&app, "/billing")
            .await
            .body
            .contains("Mastercard ending in 4444")
    );

    // Profile, notifications, support, sign-in.
    let bad = post(&app, "/settings/profile", "name=Alex&email=alex&title=").await;
    assert_eq!(bad.status, 200);
    assert!(bad.body.contains("valid email"));
    let ok = post(
        &app,
        "/settings/profile",
        "name=Alex+R.&email=alex%40example.com&title=Lead",
    )
    .await;
    assert_eq!(location(&ok), "/settings/profile?done=profile");
    let none = post(&app, "/settings/notifications", "digest=daily").await;
    assert_eq!(
        location(&none),
        "/settings/notifications?done=notifications"
    );
    let prefs = get(&app, "/settings/notifications").await.body;
    assert!(!tag_with(&prefs, r#"id="ch-email""#).contains("checked"));
    let support = post(&app, "/help", "topic=Billing&message=").await;
    assert!(support.body.contains("describe your question"));
    let support = post(&app, "/help", "topic=Billing&message=Hello").await;
    assert!(support.body.contains("Thanks! Our support team"));
    let login = post(&app, "/login", "email=alex&password=x").await;
    assert_eq!(login.status, 200);
    let login = post(&app, "/login", "email=alex%40example.com&password=").await;
    assert_eq!(login.status, 200);
    let login = post(&app, "/login", "email=alex%40example.com&password=x").await;
    assert_eq!(location(&login), "/?done=welcome");

    // The JSON endpoints the pages call.
    let renamed = post(&app, "/api/projects/1/rename", "name=").await;
    assert!(renamed.body.contains(r#""ok":false"#));
    let renamed = post(&app, "/api/projects/1/rename", "name=Website+2.0").await;
    assert!(renamed.body.contains(r#""ok":true"#));
    let moved = post(&app, "/api/tasks/7/status", "status=in_progress").await;
    assert!(moved.body.contains(r#""next":"in_review""#));
    let refused = post(&app, "/api/tasks/7/status", "status=blocked").await;
    assert!(refused.body.contains(r#""ok":false"#));
    let notified = post(&app, "/api/tasks/2/notify", "").await;
    assert!(notified.body.contains(r#""delivered":true"#));
    let watched = post(&app, "/api/tasks/2/watch", "").await;
    assert!(watched.body.contains("watching"));
    let role = post(&app, "/api/members/5/role", "role=admin").await;
    assert!(role.body.contains("Mara Costa is now Admin."));
    let owner = post(&app, "/api/members/1/role", "role=viewer").await;
    assert!(owner.body.contains(r#""ok":false"#));
    let avatar = get(&app, "/api/members/2/avatar").await;
    assert!(avatar.body.contains("initials"));
    let test = post(
        &app,
        "/api/notifications/test",
        "channel=email&channel=push",
    )
    .await;
    assert_eq!(test.body, r#"{"sent":2}"#);
    let activity = get(&app, "/api/activity?page=2").await;
    let json: serde_json::Value = serde_json::from_str(&activity.body).unwrap();
    assert!(!json["items"].as_array().unwrap().is_empty());

    // Exports and reports of seeded projects work.
    assert_eq!(get(&app, "/projects/1/export").await.status, 200);
    assert_eq!(get(&app, "/tasks/2/report").await.status, 200);
    assert!(hits(&app).is_empty(), "{:?}", hits(&app));
    app.shutdown().await;
}

#[tokio::test]
async fn client_fault_pages_carry_their_beacons() {
    let app = serve(Subject::Tracker).await.unwrap();

    // T08: the board tab after filtering the list by a status without a column.
    let project = get(&app, "/projects/1").await.body;
    assert!(project.contains("curioTruth('T08-uncaught-board-filter')"));
    assert!(project.contains(r#"<option value="archived">Archived</option>"#));
    assert!(project.contains(r#"id="col-in_progress""#));
    assert!(!project.contains(r#"id="col-archived""#) && !project.contains(r#"id="col-blocked""#));
    assert!(project.contains("column.classList.add('highlight')"));

    // T09: billing while the tab's timer runs.
    let billing = get(&app, "/billing").await.body;
    assert!(billing.contains("curioTruth('T09-console-timer-billing')"));
    assert!(billing.contains("console.error('billing usage: "));
    assert!(billing.contains("trackerTimer.read()"));
    let task = get(&app, "/tasks/2").await.body;
    assert!(task.contains("trackerTimer.start(TASK.id, TASK.key)"));

    // T10: reports with the Kathmandu display timezone.
    let reports = get(&app, "/reports").await.body;
    assert!(reports.contains("curioTruth('T10-uncaught-reports-timezone')"));
    assert!(reports.contains("'Asia/Kolkata'") && !reports.contains("Kathmandu"));
    let profile = get(&app, "/settings/profile").await.body;
    assert!(profile.contains(r#"<option value="Asia/Kathmandu">Kathmandu (UTC+05:45)</option>"#));
    assert!(profile.contains("localStorage.setItem('tracker-tz'"));

    // T15: a test notification with no channel ticked.
    let prefs = get(&app, "/settings/notifications").await.body;
    assert!(prefs.contains("curioTruth('T15-uncaught-test-notification')"));
    assert!(tag_with(&prefs, r#"id="ch-email""#).contains("checked"));
    assert!(tag_with(&prefs, r#"id="ch-push""#).contains("checked"));
    assert!(!tag_with(&prefs, r#"id="ch-slack""#).contains("checked"));

    // T11: the report colours time logged while blocked; seeded tasks have none.
    let report = get(&app, "/tasks/4/report").await.body;
    assert!(report.contains("curioTruth('T11-console-blocked-report')"));
    assert!(
        report_entries(&report)
            .iter()
            .all(|e| e["status"] != "blocked")
    );
    let edit = get(&app, "/tasks/4/edit").await.body;
    let blocked = form(&[
        ("title", &attr(tag_with(&edit, r#"id="title""#), "value")),
        ("description", ""),
        ("status", "blocked"),
        ("assignee", "5"),
        (
            "estimate",
            &attr(tag_with(&edit, r#"id="estimate""#), "value"),
        ),
        ("due", &attr(tag_with(&edit, r#"id="due""#), "value")),
    ]);
    assert_eq!(post(&app, "/tasks/4/edit", &blocked).await.status, 303);
    let today = attr(
        tag_with(&get(&app, "/tasks/4").await.body, r#"id="entry-date""#),
        "value",
    );
    let by_timer = form(&[("hours", "0.5"), ("date", &today), ("source", "timer")]);
    assert_eq!(post(&app, "/tasks/4/time", &by_timer).await.status, 303);
    let blocked_sources = |report: &str| -> Vec<String> {
        report_entries(report)
            .iter()
            .filter(|e| e["status"] == "blocked")
            .map(|e| e["source"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let report = get(&app, "/tasks/4/report").await.body;
    assert_eq!(blocked_sources(&report), ["timer"]);
    let by_hand = form(&[("hours", "1.5"), ("date", &today), ("note", "")]);
    assert_eq!(post(&app, "/tasks/4/time", &by_hand).await.status, 303);
    let report = get(&app, "/tasks/4/report").await.body;
    assert_eq!(blocked_sources(&report), ["timer", "manual"]);

    // T07: a created task's page notifies the assignee; Priya has no email.
    let priya = create_task(&app, 2, "Release notes", "3").await;
    let page = get(&app, &priya).await.body;
    assert!(page.contains("curioTruth('T07-rejection-notify-assignee');"));
    assert!(page.contains("throw new Error('notify assignee: '"));
    let id = priya
        .trim_start_matches("/tasks/")
        .trim_end_matches("?created=1");
    let answer = post(&app, &format!("/api/tasks/{id}/notify"), "").await;
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains(r#""delivered":false"#));
    let later = get(&app, &format!("/tasks/{id}")).await.body;
    assert!(!later.contains("T07-"));
    let jonas = create_task(&app, 2, "QA pass", "4").await;
    assert!(!get(&app, &jonas).await.body.contains("T07-"));

    // T12: the team page right after an invitation loads the new member's avatar.
    assert!(!get(&app, "/settings/team").await.body.contains("T12-"));
    let invited = post(
        &app,
        "/settings/team/invite",
        "name=Kim+Park&email=kim%40example.net&role=member",
    )
    .await;
    let to = location(&invited);
    assert_eq!(to, "/settings/team?invited=7");
    let team = get(&app, &to).await.body;
    assert!(team.contains("curioTruth('T12-rejection-invite-avatar');"));
    assert!(team.contains("d.avatar.url"));
    assert!(team.contains("Invitation pending"));
    let avatar = get(&app, "/api/members/7/avatar").await;
    assert_eq!(avatar.body, r#"{"avatar":null}"#);

    // Serving pages never counts a client-side fault: only the beacon does.
    assert!(hits(&app).is_empty(), "{:?}", hits(&app));
    let beacon = post(&app, "/__truth/hit?f=T08-uncaught-board-filter", "").await;
    assert_eq!(beacon.status, 204);
    assert_eq!(hits(&app), only("T08-uncaught-board-filter", 1));
    app.shutdown().await;
}

/// "Delete", "Remove", "Log out", "Reset demo data", "Cancel subscription" all work,
/// and the app stays usable after them.
#[tokio::test]
async fn irreversible_actions_work_and_the_app_survives_them() {
    let app = serve(Subject::Tracker).await.unwrap();
    let created = create_task(&app, 1, "Temporary", "4").await;
    let id = created
        .trim_start_matches("/tasks/")
        .trim_end_matches("?created=1")
        .to_owned();

    // Delete a time entry, a task, a project.
    let task = get(&app, "/tasks/2").await.body;
    let entry_action = attr_values(&task, "action")
        .into_iter()
        .find(|a| a.contains("/time/") && a.ends_with("/delete"))
        .expect("an entry's delete form")
        .to_owned();
    let deleted = post(&app, &entry_action, "").await;
    assert_eq!(location(&deleted), "/tasks/2?done=entry-deleted#time");
    assert!(
        get(&app, "/tasks/2")
            .await
            .body
            .contains("Time entries (1)")
    );
    let deleted = post(&app, &format!("/tasks/{id}/delete"), "").await;
    assert_eq!(location(&deleted), "/projects/1?done=task-deleted");
    let gone = get(&app, &format!("/tasks/{id}")).await;
    assert_eq!(gone.status, 200);
    assert!(gone.body.contains("This task was deleted"));
    let deleted = post(&app, "/projects/1/delete", "").await;
    assert_eq!(location(&deleted), "/projects?done=project-deleted");
    assert!(
        !get(&app, "/projects")
            .await
            .body
            .contains("Website Redesign")
    );
    assert!(
        get(&app, "/projects/1")
            .await
            .body
            .contains("This project was deleted")
    );
    assert!(
        get(&app, "/tasks/2")
            .await
            .body
            .contains("This task was deleted")
    );
    // The dashboard and the activity log, which links to deleted things, still work.
    assert_eq!(get(&app, "/").await.status, 200);
    assert!(
        get(&app, "/activity")
            .await
            .body
            .contains(r#"href="/tasks/4""#)
    );

    // Remove a member: their tasks show them as a former member and stay editable.
    let team = get(&app, "/settings/team").await.body;
    assert!(team.contains(r#"aria-label="Remove Jonas Weber">Remove</button>"#));
    assert!(!team.contains("Remove Alex Rivera"));
    let removed = post(&app, "/settings/team/4/remove", "").await;
    assert_eq!(location(&removed), "/settings/team?done=member-removed");
    let owner = post(&app, "/settings/team/1/remove", "").await;
    assert_eq!(owner.status, 303);
    let team = get(&app, "/settings/team").await.body;
    assert!(!team.contains("Jonas Weber") && team.contains("Alex Rivera"));
    let edit = get(&app, "/tasks/9/edit").await.body;
    assert!(edit.contains(r#"<option value="4" selected>Former member</option>"#));

    // Cancel the subscription and keep it after all.
    let cancelled = post(&app, "/billing/cancel", "").await;
    assert_eq!(location(&cancelled), "/billing?done=cancelled");
    let billing = get(&app, "/billing").await.body;
    assert!(billing.contains("Keep my subscription</button>"));
    assert!(billing.contains("Update seats</button>"));
    let resumed = post(&app, "/billing/resume", "").await;
    assert_eq!(location(&resumed), "/billing?done=resumed");
    assert!(
        get(&app, "/billing")
            .await
            .body
            .contains("Cancel subscription</button>")
    );

    // Log out and back in.
    let out = post(&app, "/logout", "").await;
    assert_eq!(out.status, 200);
    assert!(
        out.body
            .contains(r#"<a class="button primary" href="/login">Log in again</a>"#)
    );
    assert!(!out.body.contains("curioTruth"));
    let back = post(
        &app,
        "/login",
        "email=alex%40curio-tracker.test&password=secret",
    )
    .await;
    assert_eq!(location(&back), "/?done=welcome");
    assert!(
        get(&app, "/?done=welcome")
            .await
            .body
            .contains("Welcome back")
    );

    // Reset brings the seed back; what the run created is gone, and ids are not reused.
    let reset = post(&app, "/settings/reset", "").await;
    assert_eq!(location(&reset), "/settings/advanced?done=reset");
    assert!(
        get(&app, "/projects")
            .await
            .body
            .contains("Website Redesign")
    );
    assert!(
        get(&app, "/settings/team")
            .await
            .body
            .contains("Jonas Weber")
    );
    let stale = get(&app, &format!("/tasks/{id}")).await;
    assert!(stale.body.contains("This task was deleted"));
    let fresh = create_task(&app, 1, "After reset", "4").await;
    assert_ne!(fresh, created);
    assert!(hits(&app).is_empty(), "{:?}", hits(&app));
    app.shutdown().await;
}

#[tokio::test]
async fn junk_input_gets_pages_not_crashes() {
    let app = serve(Subject::Tracker).await.unwrap();
    let junk = [
        "",
        "&&&===&",
        "%",
        "%ZZ=%FF%FE",
        "seats=999999999999999999999999",
        "estimate=1e400&due=9999-99-99&title=x&assignee=4",
        "name=%00%01&key=%E2%82%AC%E2%82%AC",
    ];
    let posts = [
        "/projects",
        "/projects/1/edit",
        "/projects/1/tasks/new",
        "/tasks/2/edit",
        "/tasks/2/comments",
        "/settings/profile",
        "/settings/notifications",
        "/settings/team/invite",
        "/billing/seats",
        "/billing/plans/review",
        "/billing/plans/confirm",
        "/billing/payment",
        "/help",
        "/login",
        "/api/projects/1/rename",
        "/api/tasks/2/status",
        "/api/members/2/role",
        "/api/notifications/test",
    ];
    for path in posts {
        for body in junk {
            let reply = post(&app, path, body).await;
            assert!(
                reply.status == 200 || reply.status == 303,
                "{path} {body:?}: {}",
                reply.status
            );
        }
    }
    for path in [
        "/tasks/abc",
        "/tasks/99999999999999999999",
        "/projects/-1/edit",
        "/projects/0",
        "/tasks/0/report",
        "/billing/invoices/%3Cb%3E",
        "/search?q=%FF%3Cscript%3E",
        "/api/activity?page=-3",
        "/api/activity?page=999999999999999999999",
        "/tasks?status=%3Cb%3E&due=x",
    ] {
        let reply = get(&app, path).await;
        assert!(
            reply.status == 200 || reply.status == 404,
            "{path}: {}",
            reply.status
        );
        assert!(!reply.body.contains("<script>alert") && !reply.body.contains("<b>"));
    }
    assert!(hits(&app).is_empty(), "{:?}", hits(&app));
    app.shutdown().await;
}
