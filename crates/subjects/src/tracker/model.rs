//! The tracker's data: projects, tasks with comments and time entries, team members,
//! notification settings, billing, an activity log; the seed; dates and money.
//!
//! Everything lives in one [`Tracker`] behind the app's mutex. Lists grow with what a
//! run creates, up to fixed caps, so that a long run cannot exhaust memory; at a cap the
//! forms answer with a message instead.

use std::collections::VecDeque;
use std::time::{SystemTime, UNIX_EPOCH};

/// Days since 1970-01-01 (UTC).
pub(crate) type Day = i64;

/// The signed-in user, Alex Rivera.
pub(crate) const ME: u32 = 1;
/// Priya Nair, a contractor without an email address.
pub(crate) const PRIYA: u32 = 3;

pub(crate) const MAX_PROJECTS: usize = 200;
pub(crate) const MAX_TASKS: usize = 2000;
pub(crate) const MAX_COMMENTS: usize = 200;
pub(crate) const MAX_ENTRIES: usize = 200;
/// At this many members the oldest pending invitation expires to make room.
pub(crate) const MAX_MEMBERS: usize = 100;
const MAX_INVOICES: usize = 40;
const KEPT_ACTIVITY: usize = 200;

/// Longest comment the notification service copes with.
pub(crate) const COMMENT_LIMIT: usize = 280;
pub(crate) const MAX_SEATS: i64 = 500;

pub(crate) fn today() -> Day {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs() / 86_400).unwrap_or(0))
        .unwrap_or(0)
}

/// (year, month, day) of `day`, after Howard Hinnant's `civil_from_days`.
pub(crate) fn civil(day: Day) -> (i64, u32, u32) {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m as u32, d as u32)
}

pub(crate) fn from_civil(y: i64, m: u32, d: u32) -> Day {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `2025-06-15`.
pub(crate) fn iso(day: Day) -> String {
    let (y, m, d) = civil(day);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `15 Jun 2025`.
pub(crate) fn pretty(day: Day) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (y, m, d) = civil(day);
    let month = MONTHS.get(m as usize - 1).copied().unwrap_or("?");
    format!("{d} {month} {y}")
}

/// A strict `YYYY-MM-DD` between the years 1900 and 9999, or `None`.
pub(crate) fn parse_iso(text: &str) -> Option<Day> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |s: &str| -> Option<u32> {
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())
            .flatten()
    };
    let y = num(&text[..4])?;
    let m = num(&text[5..7])?;
    let d = num(&text[8..])?;
    if !(1900..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let day = from_civil(i64::from(y), m, d);
    (civil(day) == (i64::from(y), m, d)).then_some(day)
}

/// `123456` cents -> `"$1,234.56"`.
pub(crate) fn money(cents: u64) -> String {
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("${grouped}.{:02}", cents % 100)
}

/// `90` minutes -> `"1.5 h"`, `20` -> `"0.33 h"`.
pub(crate) fn hours(minutes: u32) -> String {
    let h = f64::from(minutes) / 60.0;
    let text = format!("{h:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} h")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TaskStatus {
    Todo,
    InProgress,
    InReview,
    Blocked,
    Done,
    Archived,
}

impl TaskStatus {
    pub(crate) const ALL: [TaskStatus; 6] = [
        TaskStatus::Todo,
        TaskStatus::InProgress,
        TaskStatus::InReview,
        TaskStatus::Blocked,
        TaskStatus::Done,
        TaskStatus::Archived,
    ];
    /// The board's columns; blocked tasks sit in "To do" with a tag, archived ones are
    /// not on the board.
    pub(crate) const BOARD: [TaskStatus; 4] = [
        TaskStatus::Todo,
        TaskStatus::InProgress,
        TaskStatus::InReview,
        TaskStatus::Done,
    ];

    pub(crate) fn slug(self) -> &'static str {
        match self {
            TaskStatus::Todo => "todo",
            TaskStatus::InProgress => "in_progress",
            TaskStatus::InReview => "in_review",
            TaskStatus::Blocked => "blocked",
            TaskStatus::Done => "done",
            TaskStatus::Archived => "archived",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            TaskStatus::Todo => "To do",
            TaskStatus::InProgress => "In progress",
            TaskStatus::InReview => "In review",
            TaskStatus::Blocked => "Blocked",
            TaskStatus::Done => "Done",
            TaskStatus::Archived => "Archived",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<TaskStatus> {
        TaskStatus::ALL.into_iter().find(|s| s.slug() == slug)
    }

    pub(crate) fn is_open(self) -> bool {
        !matches!(self, TaskStatus::Done | TaskStatus::Archived)
    }

    /// The board column a task shows in.
    pub(crate) fn column(self) -> Option<TaskStatus> {
        match self {
            TaskStatus::Blocked => Some(TaskStatus::Todo),
            TaskStatus::Archived => None,
            other => Some(other),
        }
    }

    /// Where the board's "Move to …" button takes a task.
    pub(crate) fn next(self) -> Option<TaskStatus> {
        match self {
            TaskStatus::Todo | TaskStatus::Blocked => Some(TaskStatus::InProgress),
            TaskStatus::InProgress => Some(TaskStatus::InReview),
            TaskStatus::InReview => Some(TaskStatus::Done),
            TaskStatus::Done | TaskStatus::Archived => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProjectStatus {
    Active,
    OnHold,
    Archived,
}

impl ProjectStatus {
    pub(crate) const ALL: [ProjectStatus; 3] = [
        ProjectStatus::Active,
        ProjectStatus::OnHold,
        ProjectStatus::Archived,
    ];

    pub(crate) fn slug(self) -> &'static str {
        match self {
            ProjectStatus::Active => "active",
            ProjectStatus::OnHold => "on_hold",
            ProjectStatus::Archived => "archived",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            ProjectStatus::Active => "Active",
            ProjectStatus::OnHold => "On hold",
            ProjectStatus::Archived => "Archived",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<ProjectStatus> {
        ProjectStatus::ALL.into_iter().find(|s| s.slug() == slug)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Owner,
    Admin,
    Member,
    Viewer,
}

impl Role {
    /// The roles an invitation or a role change may give; there is one owner.
    pub(crate) const ASSIGNABLE: [Role; 3] = [Role::Admin, Role::Member, Role::Viewer];

    pub(crate) fn slug(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Admin => "admin",
            Role::Member => "member",
            Role::Viewer => "viewer",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Role::Owner => "Owner",
            Role::Admin => "Admin",
            Role::Member => "Member",
            Role::Viewer => "Viewer",
        }
    }

    pub(crate) fn from_assignable_slug(slug: &str) -> Option<Role> {
        Role::ASSIGNABLE.into_iter().find(|r| r.slug() == slug)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    Starter,
    Team,
    Business,
}

impl Plan {
    pub(crate) const ALL: [Plan; 3] = [Plan::Starter, Plan::Team, Plan::Business];

    pub(crate) fn slug(self) -> &'static str {
        match self {
            Plan::Starter => "starter",
            Plan::Team => "team",
            Plan::Business => "business",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Plan::Starter => "Starter",
            Plan::Team => "Team",
            Plan::Business => "Business",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|p| p.slug() == slug)
    }

    /// Price per seat and month, in cents.
    pub(crate) fn seat_cents(self) -> u64 {
        match self {
            Plan::Starter => 600,
            Plan::Team => 1200,
            Plan::Business => 2400,
        }
    }

    pub(crate) fn blurb(self) -> &'static str {
        match self {
            Plan::Starter => "Projects, tasks and comments for small teams.",
            Plan::Team => "Adds time tracking, reports and board views.",
            Plan::Business => "Adds audit log, SSO and priority support. At least 5 seats.",
        }
    }

    pub(crate) fn min_seats(self) -> i64 {
        match self {
            Plan::Business => 5,
            _ => 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cycle {
    Monthly,
    Yearly,
}

impl Cycle {
    pub(crate) fn slug(self) -> &'static str {
        match self {
            Cycle::Monthly => "monthly",
            Cycle::Yearly => "yearly",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Cycle::Monthly => "Monthly",
            Cycle::Yearly => "Yearly",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<Cycle> {
        [Cycle::Monthly, Cycle::Yearly]
            .into_iter()
            .find(|c| c.slug() == slug)
    }

    /// Months billed at once; yearly billing gets two months free.
    pub(crate) fn billed_months(self) -> u64 {
        match self {
            Cycle::Monthly => 1,
            Cycle::Yearly => 10,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Digest {
    Never,
    Daily,
    Weekly,
}

impl Digest {
    pub(crate) const ALL: [Digest; 3] = [Digest::Never, Digest::Daily, Digest::Weekly];

    pub(crate) fn slug(self) -> &'static str {
        match self {
            Digest::Never => "never",
            Digest::Daily => "daily",
            Digest::Weekly => "weekly",
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Digest::Never => "Never",
            Digest::Daily => "Daily",
            Digest::Weekly => "Weekly",
        }
    }

    pub(crate) fn from_slug(slug: &str) -> Option<Digest> {
        Digest::ALL.into_iter().find(|d| d.slug() == slug)
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub(crate) id: u32,
    pub(crate) name: String,
    pub(crate) email: Option<String>,
    pub(crate) role: Role,
    pub(crate) title: String,
    pub(crate) colour: &'static str,
    /// Invited and not yet joined: no avatar, not assignable.
    pub(crate) pending: bool,
}

impl Member {
    pub(crate) fn initials(&self) -> String {
        self.name
            .split_whitespace()
            .filter_map(|w| w.chars().next())
            .take(2)
            .flat_map(char::to_uppercase)
            .collect()
    }

    pub(crate) fn assignable(&self) -> bool {
        !self.pending && self.role != Role::Viewer
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Project {
    pub(crate) id: u32,
    pub(crate) key: String,
    pub(crate) name: String,
    pub(crate) description: String,
    pub(crate) status: ProjectStatus,
    pub(crate) colour: &'static str,
    pub(crate) budget_hours: Option<u32>,
    pub(crate) created: Day,
    /// Created during the run, not seeded: has no billing profile yet.
    pub(crate) user_created: bool,
    pub(crate) next_number: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Comment {
    pub(crate) author: u32,
    pub(crate) body: String,
    pub(crate) day: Day,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntrySource {
    Manual,
    Timer,
}

#[derive(Debug, Clone)]
pub(crate) struct TimeEntry {
    pub(crate) id: u32,
    pub(crate) day: Day,
    pub(crate) minutes: u32,
    pub(crate) note: String,
    /// The task's status when the time was logged.
    pub(crate) status: TaskStatus,
    pub(crate) source: EntrySource,
    pub(crate) author: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Task {
    pub(crate) id: u32,
    pub(crate) project: u32,
    pub(crate) key: String,
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) status: TaskStatus,
    pub(crate) assignee: u32,
    /// Estimate in half hours.
    pub(crate) estimate_halves: u32,
    pub(crate) due: Day,
    pub(crate) comments: Vec<Comment>,
    pub(crate) entries: Vec<TimeEntry>,
    pub(crate) watched: bool,
}

impl Task {
    pub(crate) fn logged_minutes(&self) -> u32 {
        self.entries.iter().map(|e| e.minutes).sum()
    }

    pub(crate) fn estimate(&self) -> String {
        let h = self.estimate_halves / 2;
        if self.estimate_halves.is_multiple_of(2) {
            format!("{h} h")
        } else {
            format!("{h}.5 h")
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Notifications {
    pub(crate) email: bool,
    pub(crate) slack: bool,
    pub(crate) push: bool,
    pub(crate) digest: Digest,
}

#[derive(Debug, Clone)]
pub(crate) struct Card {
    pub(crate) holder: String,
    pub(crate) brand: &'static str,
    pub(crate) last4: String,
    pub(crate) exp_month: u32,
    pub(crate) exp_year: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Invoice {
    pub(crate) number: String,
    pub(crate) day: Day,
    pub(crate) lines: Vec<(String, u64)>,
}

impl Invoice {
    pub(crate) fn total(&self) -> u64 {
        self.lines.iter().map(|(_, c)| *c).sum()
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Billing {
    pub(crate) plan: Plan,
    pub(crate) cycle: Cycle,
    pub(crate) seats: u32,
    pub(crate) card: Card,
    /// "Cancel subscription" was used: the plan ends at the period's end.
    pub(crate) cancelled: bool,
    pub(crate) invoices: Vec<Invoice>,
    pub(crate) next_invoice: u32,
}

impl Billing {
    pub(crate) fn add_invoice(&mut self, day: Day, lines: Vec<(String, u64)>) {
        let number = format!("INV-{}", self.next_invoice);
        self.next_invoice = self.next_invoice.saturating_add(1);
        self.invoices.push(Invoice { number, day, lines });
        if self.invoices.len() > MAX_INVOICES {
            self.invoices.remove(0);
        }
    }

    /// What the current plan costs per billing period.
    pub(crate) fn period_cents(&self) -> u64 {
        self.plan.seat_cents() * u64::from(self.seats) * self.cycle.billed_months()
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Activity {
    pub(crate) day: Day,
    pub(crate) who: String,
    pub(crate) text: String,
    pub(crate) link: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct Tracker {
    pub(crate) projects: Vec<Project>,
    pub(crate) tasks: Vec<Task>,
    pub(crate) members: Vec<Member>,
    pub(crate) notifications: Notifications,
    pub(crate) billing: Billing,
    /// Newest first.
    pub(crate) activity: VecDeque<Activity>,
    next_project: u32,
    next_task: u32,
    next_entry: u32,
    next_member: u32,
}

const PALETTE: [&str; 8] = [
    "#4f7cac", "#6a9955", "#d97757", "#b55d8a", "#e2b93b", "#2a9d8f", "#8a6fb5", "#c0504d",
];

/// Seeded tasks: (project, title, status, assignee, estimate halves, due in days,
/// description).
const SEED_TASKS: [(u32, &str, TaskStatus, u32, u32, i64, &str); 11] = [
    (
        1,
        "Draft the new sitemap",
        TaskStatus::Done,
        ME,
        8,
        -10,
        "List every page of the old site and map it to the new structure.",
    ),
    (
        1,
        "Homepage mockup",
        TaskStatus::InProgress,
        ME,
        24,
        5,
        "Desktop and mobile mockups for the new homepage, in two variants.",
    ),
    (
        1,
        "Set up staging server",
        TaskStatus::Todo,
        4,
        12,
        9,
        "A staging copy of the site behind basic auth, deployed from the main branch.",
    ),
    (
        1,
        "Accessibility audit",
        TaskStatus::InReview,
        5,
        16,
        3,
        "Check contrast, keyboard navigation and screen reader labels on the mockups.",
    ),
    (
        1,
        "Migrate the old blog",
        TaskStatus::Archived,
        2,
        20,
        -30,
        "Superseded: the blog moves to the new CMS instead.",
    ),
    (
        2,
        "Push notification service",
        TaskStatus::InProgress,
        PRIYA,
        32,
        12,
        "Send release and reminder notifications through the new provider.",
    ),
    (
        2,
        "App store screenshots",
        TaskStatus::Todo,
        5,
        6,
        7,
        "Five screenshots per store and language, from the release candidate.",
    ),
    (
        2,
        "Beta tester onboarding",
        TaskStatus::Todo,
        ME,
        10,
        2,
        "Welcome mail, TestFlight invites and a short feedback form.",
    ),
    (
        2,
        "Crash reporting",
        TaskStatus::Done,
        4,
        12,
        -4,
        "Wire up crash reports and alert on new crash signatures.",
    ),
    (
        3,
        "Campaign landing page",
        TaskStatus::Todo,
        2,
        16,
        20,
        "One page with the offer, a signup form and the FAQ.",
    ),
    (
        3,
        "Newsletter copy",
        TaskStatus::InProgress,
        ME,
        8,
        14,
        "Three mails: announcement, reminder, last chance.",
    ),
];

impl Tracker {
    /// The demo data, with dates around `today`.
    pub(crate) fn seeded(today: Day) -> Tracker {
        let member = |id, name: &str, email: Option<&str>, role, title: &str, colour| Member {
            id,
            name: name.to_owned(),
            email: email.map(str::to_owned),
            role,
            title: title.to_owned(),
            colour,
            pending: false,
        };
        let members = vec![
            member(
                ME,
                "Alex Rivera",
                Some("alex@curio-tracker.test"),
                Role::Owner,
                "Product lead",
                PALETTE[0],
            ),
            member(
                2,
                "Sam Lee",
                Some("sam@curio-tracker.test"),
                Role::Admin,
                "Marketing",
                PALETTE[1],
            ),
            member(
                PRIYA,
                "Priya Nair",
                None,
                Role::Member,
                "Contractor, mobile",
                PALETTE[2],
            ),
            member(
                4,
                "Jonas Weber",
                Some("jonas@curio-tracker.test"),
                Role::Member,
                "Backend developer",
                PALETTE[3],
            ),
            member(
                5,
                "Mara Costa",
                Some("mara@curio-tracker.test"),
                Role::Member,
                "Designer",
                PALETTE[4],
            ),
            member(
                6,
                "Kenji Sato",
                Some("kenji@curio-tracker.test"),
                Role::Viewer,
                "Client contact",
                PALETTE[5],
            ),
        ];
        let project = |id, key: &str, name: &str, description: &str, status, budget| Project {
            id,
            key: key.to_owned(),
            name: name.to_owned(),
            description: description.to_owned(),
            status,
            colour: PALETTE[(id as usize - 1) % PALETTE.len()],
            budget_hours: budget,
            created: today - 60 + i64::from(id) * 7,
            user_created: false,
            next_number: 1,
        };
        let mut projects = vec![
            project(
                1,
                "WEB",
                "Website Redesign",
                "New structure, new look and an accessible homepage for the public website.",
                ProjectStatus::Active,
                Some(120),
            ),
            project(
                2,
                "MOB",
                "Mobile App Launch",
                "Everything between the release candidate and both app stores.",
                ProjectStatus::Active,
                Some(200),
            ),
            project(
                3,
                "MKT",
                "Q3 Marketing Campaign",
                "Landing page and newsletter for the autumn campaign, paused until the launch.",
                ProjectStatus::OnHold,
                None,
            ),
        ];
        let mut tasks = Vec::new();
        let mut next_entry = 1;
        for (i, (project_id, title, status, assignee, halves, due, description)) in
            SEED_TASKS.into_iter().enumerate()
        {
            let Some(project) = projects.iter_mut().find(|p| p.id == project_id) else {
                continue;
            };
            let key = format!("{}-{}", project.key, project.next_number);
            project.next_number += 1;
            let id = u32::try_from(i).unwrap_or(0) + 1;
            // Time on tasks that were started, logged while they were in progress.
            let mut entries = Vec::new();
            if status != TaskStatus::Todo {
                for (back, minutes, note) in [(6, 90, "First pass"), (2, 45, "Follow-up")] {
                    entries.push(TimeEntry {
                        id: next_entry,
                        day: today - back - i64::from(id % 3),
                        minutes: minutes + 15 * (id % 4),
                        note: note.to_owned(),
                        status: TaskStatus::InProgress,
                        source: EntrySource::Manual,
                        author: assignee,
                    });
                    next_entry += 1;
                }
            }
            let comments = match id % 3 {
                0 => vec![],
                1 => vec![Comment {
                    author: 2,
                    body: "Can we aim to have a first version by Friday?".to_owned(),
                    day: today - 3,
                }],
                _ => vec![
                    Comment {
                        author: assignee,
                        body: "Started on this, notes are in the shared folder.".to_owned(),
                        day: today - 4,
                    },
                    Comment {
                        author: ME,
                        body: "Thanks! Ping me when it is ready for review.".to_owned(),
                        day: today - 1,
                    },
                ],
            };
            tasks.push(Task {
                id,
                project: project_id,
                key,
                title: title.to_owned(),
                description: description.to_owned(),
                status,
                assignee,
                estimate_halves: halves,
                due: today + due,
                comments,
                entries,
                watched: id % 2 == 0,
            });
        }
        let invoice_lines = |month: &str| {
            vec![
                (format!("Team plan, 8 seats, {month}"), 9_600),
                ("Sales tax (0%)".to_owned(), 0),
            ]
        };
        let billing = Billing {
            plan: Plan::Team,
            cycle: Cycle::Monthly,
            seats: 8,
            card: Card {
                holder: "Alex Rivera".to_owned(),
                brand: "Visa",
                last4: "4242".to_owned(),
                exp_month: 8,
                exp_year: u32::try_from(civil(today).0 + 2).unwrap_or(2030),
            },
            cancelled: false,
            invoices: vec![
                Invoice {
                    number: "INV-1042".to_owned(),
                    day: today - 75,
                    lines: invoice_lines("three months ago"),
                },
                Invoice {
                    number: "INV-1043".to_owned(),
                    day: today - 45,
                    lines: invoice_lines("two months ago"),
                },
                Invoice {
                    number: "INV-1044".to_owned(),
                    day: today - 15,
                    lines: invoice_lines("last month"),
                },
            ],
            next_invoice: 1045,
        };
        let activity = [
            (
                1,
                "Mara Costa",
                "moved WEB-4 Accessibility audit to In review",
                "/tasks/4",
            ),
            (2, "Jonas Weber", "closed MOB-4 Crash reporting", "/tasks/9"),
            (
                3,
                "Sam Lee",
                "put Q3 Marketing Campaign on hold",
                "/projects/3",
            ),
            (
                4,
                "Priya Nair",
                "logged 2 h on MOB-1 Push notification service",
                "/tasks/6",
            ),
            (
                5,
                "Alex Rivera",
                "created MOB-3 Beta tester onboarding",
                "/tasks/8",
            ),
            (
                6,
                "Alex Rivera",
                "closed WEB-1 Draft the new sitemap",
                "/tasks/1",
            ),
            (
                8,
                "Mara Costa",
                "commented on WEB-2 Homepage mockup",
                "/tasks/2",
            ),
            (
                9,
                "Sam Lee",
                "invited Kenji Sato as Viewer",
                "/settings/team",
            ),
            (
                11,
                "Jonas Weber",
                "started WEB-3 Set up staging server",
                "/tasks/3",
            ),
            (
                12,
                "Alex Rivera",
                "created Mobile App Launch",
                "/projects/2",
            ),
            (14, "Alex Rivera", "created Website Redesign", "/projects/1"),
            (15, "Alex Rivera", "upgraded to the Team plan", "/billing"),
        ]
        .into_iter()
        .map(|(back, who, text, link)| Activity {
            day: today - back,
            who: who.to_owned(),
            text: text.to_owned(),
            link: Some(link.to_owned()),
        })
        .collect();
        let next_task = u32::try_from(tasks.len()).unwrap_or(0) + 1;
        Tracker {
            projects,
            tasks,
            members,
            notifications: Notifications {
                email: true,
                slack: false,
                push: true,
                digest: Digest::Weekly,
            },
            billing,
            activity,
            next_project: 4,
            next_task,
            next_entry,
            next_member: 7,
        }
    }

    /// Back to the seed, keeping id counters so that ids of deleted objects are never
    /// reused: a stale link answers "not found" instead of showing something else.
    pub(crate) fn reset(&mut self, today: Day) {
        let (p, t, e, m) = (
            self.next_project,
            self.next_task,
            self.next_entry,
            self.next_member,
        );
        let invoice = self.billing.next_invoice;
        *self = Tracker::seeded(today);
        self.next_project = self.next_project.max(p);
        self.next_task = self.next_task.max(t);
        self.next_entry = self.next_entry.max(e);
        self.next_member = self.next_member.max(m);
        self.billing.next_invoice = self.billing.next_invoice.max(invoice);
    }

    pub(crate) fn project(&self, id: u32) -> Option<&Project> {
        self.projects.iter().find(|p| p.id == id)
    }

    pub(crate) fn project_mut(&mut self, id: u32) -> Option<&mut Project> {
        self.projects.iter_mut().find(|p| p.id == id)
    }

    pub(crate) fn task(&self, id: u32) -> Option<&Task> {
        self.tasks.iter().find(|t| t.id == id)
    }

    pub(crate) fn task_mut(&mut self, id: u32) -> Option<&mut Task> {
        self.tasks.iter_mut().find(|t| t.id == id)
    }

    pub(crate) fn tasks_of(&self, project: u32) -> impl Iterator<Item = &Task> {
        self.tasks.iter().filter(move |t| t.project == project)
    }

    pub(crate) fn member(&self, id: u32) -> Option<&Member> {
        self.members.iter().find(|m| m.id == id)
    }

    pub(crate) fn member_name(&self, id: u32) -> &str {
        self.member(id).map_or("Former member", |m| m.name.as_str())
    }

    pub(crate) fn me(&self) -> &Member {
        // The owner cannot be removed, so this always finds them; the fallback keeps the
        // code free of panics.
        self.member(ME).unwrap_or(&self.members[0])
    }

    pub(crate) fn log(&mut self, day: Day, text: String, link: Option<String>) {
        let who = self.me().name.clone();
        self.activity.push_front(Activity {
            day,
            who,
            text,
            link,
        });
        self.activity.truncate(KEPT_ACTIVITY);
    }

    pub(crate) fn add_project(
        &mut self,
        key: String,
        name: String,
        description: String,
        budget_hours: Option<u32>,
        today: Day,
    ) -> u32 {
        let id = self.next_project;
        self.next_project = self.next_project.saturating_add(1);
        self.projects.push(Project {
            id,
            key,
            name,
            description,
            status: ProjectStatus::Active,
            colour: PALETTE[id as usize % PALETTE.len()],
            budget_hours,
            created: today,
            user_created: true,
            next_number: 1,
        });
        id
    }

    /// Adds a task to `project` (which must exist) and returns its id.
    pub(crate) fn add_task(
        &mut self,
        project: u32,
        title: String,
        description: String,
        assignee: u32,
        estimate_halves: u32,
        due: Day,
    ) -> Option<u32> {
        let id = self.next_task;
        let p = self.project_mut(project)?;
        let key = format!("{}-{}", p.key, p.next_number);
        p.next_number = p.next_number.saturating_add(1);
        self.next_task = self.next_task.saturating_add(1);
        self.tasks.push(Task {
            id,
            project,
            key,
            title,
            description,
            status: TaskStatus::Todo,
            assignee,
            estimate_halves,
            due,
            comments: Vec::new(),
            entries: Vec::new(),
            watched: true,
        });
        Some(id)
    }

    pub(crate) fn next_entry_id(&mut self) -> u32 {
        let id = self.next_entry;
        self.next_entry = self.next_entry.saturating_add(1);
        id
    }

    /// Invites a member. A full team drops its oldest pending invitation (invitations
    /// expire), so inviting always works; `None` only when nobody's invitation can go.
    pub(crate) fn add_member(&mut self, name: String, email: String, role: Role) -> Option<u32> {
        if self.members.len() >= MAX_MEMBERS {
            let oldest = self.members.iter().position(|m| m.pending)?;
            self.members.remove(oldest);
        }
        let id = self.next_member;
        self.next_member = self.next_member.saturating_add(1);
        self.members.push(Member {
            id,
            name,
            email: Some(email),
            role,
            title: "Invited".to_owned(),
            colour: PALETTE[id as usize % PALETTE.len()],
            pending: true,
        });
        Some(id)
    }

    /// A project key from a name: the initials of its words, or its first three letters,
    /// made unique with a number.
    pub(crate) fn suggest_key(&self, name: &str) -> String {
        let letters: Vec<char> = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || c.is_whitespace())
            .collect();
        let text: String = letters.into_iter().collect();
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut base: String = if words.len() >= 2 {
            words
                .iter()
                .filter_map(|w| w.chars().next())
                .take(4)
                .collect()
        } else {
            words.first().map_or("", |w| w).chars().take(3).collect()
        };
        base.make_ascii_uppercase();
        if base.len() < 2 {
            base = "PRJ".to_owned();
        }
        if !self.key_taken(&base) {
            return base;
        }
        (2..)
            .map(|n| format!("{base}{n}"))
            .find(|k| !self.key_taken(k))
            .unwrap_or(base)
    }

    /// Whether task `id` existed at some point (and was deleted if it is gone now).
    pub(crate) fn had_task(&self, id: u32) -> bool {
        id >= 1 && id < self.next_task
    }

    pub(crate) fn had_project(&self, id: u32) -> bool {
        id >= 1 && id < self.next_project
    }

    pub(crate) fn key_taken(&self, key: &str) -> bool {
        self.projects
            .iter()
            .any(|p| p.key.eq_ignore_ascii_case(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        assert_eq!(iso(0), "1970-01-01");
        assert_eq!(parse_iso("1970-01-01"), Some(0));
        assert_eq!(iso(20_000), "2024-10-04");
        assert_eq!(
            parse_iso("2024-02-29").map(iso).as_deref(),
            Some("2024-02-29")
        );
        assert_eq!(parse_iso("2023-02-29"), None);
        assert_eq!(parse_iso("2024-13-01"), None);
        assert_eq!(parse_iso("24-01-01"), None);
        assert_eq!(parse_iso("2024-1-011"), None);
        assert_eq!(parse_iso("abcd-ef-gh"), None);
        assert_eq!(parse_iso("+024-01-01"), None);
        assert_eq!(parse_iso("2024-01-0é"), None);
        assert_eq!(pretty(20_000), "4 Oct 2024");
        for day in [-1000, 0, 59, 60, 10_000, 30_000] {
            assert_eq!(parse_iso(&iso(day)), Some(day));
        }
    }

    #[test]
    fn money_and_hours() {
        assert_eq!(money(0), "$0.00");
        assert_eq!(money(9_600), "$96.00");
        assert_eq!(money(123_456_789), "$1,234,567.89");
        assert_eq!(hours(90), "1.5 h");
        assert_eq!(hours(60), "1 h");
        assert_eq!(hours(20), "0.33 h");
    }

    #[test]
    fn seed_is_consistent() {
        let t = Tracker::seeded(20_000);
        assert_eq!(t.projects.len(), 3);
        assert_eq!(t.tasks.len(), SEED_TASKS.len());
        assert!(t.tasks.iter().all(|task| t.project(task.project).is_some()));
        assert!(t.tasks.iter().all(|task| t.member(task.assignee).is_some()));
        // Blocked time and archived projects only come from what a run does.
        assert!(
            t.tasks
                .iter()
                .all(|task| task.status != TaskStatus::Blocked)
        );
        assert!(
            t.projects
                .iter()
                .all(|p| p.status != ProjectStatus::Archived)
        );
        assert_eq!(t.task(2).map(|task| task.key.as_str()), Some("WEB-2"));
        assert_eq!(t.task(6).map(|task| task.key.as_str()), Some("MOB-1"));
        assert!(t.member(PRIYA).is_some_and(|m| m.email.is_none()));
    }

    #[test]
    fn keys_are_suggested_unique() {
        let t = Tracker::seeded(20_000);
        assert_eq!(t.suggest_key("Customer Portal"), "CP");
        assert_eq!(t.suggest_key("website"), "WEB2");
        assert_eq!(t.suggest_key("<>"), "PRJ");
        assert_eq!(t.suggest_key("x"), "PRJ");
        assert_eq!(t.suggest_key("a b c d e f"), "ABCD");
    }

    #[test]
    fn reset_keeps_counters() {
        let mut t = Tracker::seeded(20_000);
        let p = t.add_project("NEW".into(), "New".into(), String::new(), None, 20_000);
        t.reset(20_000);
        assert!(t.project(p).is_none());
        let q = t.add_project("NEW".into(), "New".into(), String::new(), None, 20_000);
        assert!(q > p);
    }
}
