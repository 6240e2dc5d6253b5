//! Tasks: "My tasks", the "New task" form, the task page (comments, time entries, the
//! "Log time" dialog, the timer, watching), editing, deletion, the time report, and the
//! small JSON endpoints the pages call.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::json;

use super::layout::{self, Missing, Nav, Problems, flash, page};
use super::model::{
    self, COMMENT_LIMIT, Comment, Day, EntrySource, MAX_COMMENTS, MAX_ENTRIES, MAX_TASKS, ME, Task,
    TaskStatus, TimeEntry, Tracker,
};
use super::projects::project_or_gone;
use super::scripts::{self, with_fault};
use super::{
    FormData, T03_500_TIME_HOURS, T04_500_LONG_COMMENT, T06_500_NEW_PROJECT_REPORT,
    T07_REJECTION_NOTIFY, T11_CONSOLE_BLOCKED_REPORT, TrackerState, parse_id,
};
use crate::html::escape;

fn badge(status: TaskStatus) -> String {
    format!(
        r#"<span class="badge {}">{}</span>"#,
        status.slug(),
        status.label()
    )
}

fn task_or_gone(data: &Tracker, raw: &str) -> Result<Task, Missing> {
    let id = parse_id(raw);
    match id.and_then(|id| data.task(id)) {
        Some(t) => Ok(t.clone()),
        None if id.is_some_and(|id| data.had_task(id)) => Err(Missing::Deleted {
            what: "task",
            back_href: "/tasks",
            back_text: "See your tasks",
        }),
        None => Err(Missing::Unknown),
    }
}

pub(crate) async fn mine(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let status = match query.get("status") {
        "" => "open",
        s => s,
    };
    let due = match query.get("due") {
        "overdue" => "overdue",
        "week" => "week",
        _ => "any",
    };
    let today = model::today();
    let data = state.data();
    let rows: String = data
        .tasks
        .iter()
        .filter(|t| t.assignee == ME)
        .filter(|t| match status {
            "all" => true,
            "open" => t.status.is_open(),
            slug => t.status.slug() == slug,
        })
        .filter(|t| match due {
            "overdue" => t.status.is_open() && t.due < today,
            "week" => t.due >= today && t.due <= today + 7,
            _ => true,
        })
        .map(|t| {
            let project = data.project(t.project).map_or("", |p| p.name.as_str());
            format!(
                r#"<tr><td><a href="/tasks/{id}">{key} {title}</a></td><td>{project}</td><td>{due}</td><td>{logged} of {estimate}</td><td>{badge}</td></tr>"#,
                id = t.id,
                key = escape(&t.key),
                title = escape(&t.title),
                project = escape(project),
                due = model::pretty(t.due),
                logged = model::hours(t.logged_minutes()),
                estimate = t.estimate(),
                badge = badge(t.status),
            )
        })
        .collect();
    drop(data);
    let mut statuses = format!(
        r#"<option value="open"{}>Open</option><option value="all"{}>All</option>"#,
        layout::selected("open", status),
        layout::selected("all", status)
    );
    for s in TaskStatus::ALL {
        statuses.push_str(&format!(
            r#"<option value="{}"{}>{}</option>"#,
            s.slug(),
            layout::selected(s.slug(), status),
            s.label()
        ));
    }
    let table = if rows.is_empty() {
        r#"<p class="notice">No tasks match. Try other filters.</p>"#.to_owned()
    } else {
        format!(
            "<table><tr><th>Task</th><th>Project</th><th>Due</th><th>Logged</th><th>Status</th></tr>{rows}</table>"
        )
    };
    let content = format!(
        r#"<h1>My tasks</h1>
<form method="get" action="/tasks" class="toolbar">
<label for="status" style="margin:0">Status</label>
<select id="status" name="status">{statuses}</select>
<label for="due" style="margin:0">Due</label>
<select id="due" name="due">
<option value="any"{any}>Any time</option>
<option value="overdue"{overdue}>Overdue</option>
<option value="week"{week}>In the next 7 days</option>
</select>
<button type="submit">Apply filters</button>
</form>
{table}"#,
        any = layout::selected("any", due),
        overdue = layout::selected("overdue", due),
        week = layout::selected("week", due),
    );
    page("My tasks", Nav::MyTasks, &content, "", None)
}

#[derive(Debug, Default)]
struct TaskForm {
    title: String,
    description: String,
    estimate: String,
    due: String,
    assignee: String,
    status: String,
}

impl TaskForm {
    fn from_form(form: &FormData) -> Self {
        Self {
            title: form.get("title").to_owned(),
            description: form.get("description").to_owned(),
            estimate: form.get("estimate").to_owned(),
            due: form.get("due").to_owned(),
            assignee: form.get("assignee").to_owned(),
            status: form.get("status").to_owned(),
        }
    }

    fn of(t: &Task) -> Self {
        let estimate = if t.estimate_halves.is_multiple_of(2) {
            (t.estimate_halves / 2).to_string()
        } else {
            format!("{}.5", t.estimate_halves / 2)
        };
        Self {
            title: t.title.clone(),
            description: t.description.clone(),
            estimate,
            due: model::iso(t.due),
            assignee: t.assignee.to_string(),
            status: t.status.slug().to_owned(),
        }
    }
}

/// What a valid task form holds.
struct CheckedTask {
    estimate_halves: u32,
    due: Day,
    assignee: u32,
}

/// The server's checks of a task form. A new task's due date must be after today; an
/// edited one may keep a past date. `current` is the assignee an edited task has, who
/// stays allowed even if no longer assignable.
fn check_task(
    data: &Tracker,
    values: &TaskForm,
    today: Day,
    new: bool,
    current: Option<u32>,
    problems: &mut Problems,
) -> Option<CheckedTask> {
    if values.title.is_empty() {
        problems.add("title", "Please give the task a title.");
    } else if values.title.chars().count() > 120 {
        problems.add("title", "Titles can be at most 120 characters.");
    }
    if values.description.chars().count() > 2000 {
        problems.add(
            "description",
            "Descriptions can be at most 2000 characters.",
        );
    }
    let estimate = if values.estimate.is_empty() {
        problems.add("estimate", "Please estimate the task in hours (1-40).");
        None
    } else {
        match values.estimate.parse::<f64>() {
            Ok(h) if (1.0..=40.0).contains(&h) && (h * 2.0).fract() == 0.0 => {
                Some((h * 2.0) as u32)
            }
            _ => {
                problems.add(
                    "estimate",
                    "The estimate must be between 1 and 40 hours, in steps of 0.5.",
                );
                None
            }
        }
    };
    let due = if values.due.is_empty() {
        problems.add("due", "Please pick a due date.");
        None
    } else {
        match model::parse_iso(&values.due) {
            None => {
                problems.add("due", "Please give the date as YYYY-MM-DD.");
                None
            }
            Some(day) if new && day <= today => {
                problems.add("due", "The due date must be after today.");
                None
            }
            Some(day) => Some(day),
        }
    };
    let assignee = values
        .assignee
        .parse::<u32>()
        .ok()
        .filter(|id| Some(*id) == current || data.member(*id).is_some_and(|m| m.assignable()));
    if assignee.is_none() {
        problems.add("assignee", "Please choose who works on this task.");
    }
    Some(CheckedTask {
        estimate_halves: estimate?,
        due: due?,
        assignee: assignee?,
    })
    .filter(|_| problems.is_empty())
}

fn assignee_options(data: &Tracker, current: &str, keep: Option<u32>) -> String {
    let mut options = format!(
        r#"<option value=""{}>Choose…</option>"#,
        layout::selected("", current)
    );
    if let Some(id) = keep.filter(|id| data.member(*id).is_none()) {
        let value = id.to_string();
        options.push_str(&format!(
            r#"<option value="{value}"{}>Former member</option>"#,
            layout::selected(&value, current)
        ));
    }
    for m in data
        .members
        .iter()
        .filter(|m| m.assignable() || Some(m.id) == keep)
    {
        let id = m.id.to_string();
        options.push_str(&format!(
            r#"<option value="{id}"{}>{}</option>"#,
            layout::selected(&id, current),
            escape(&m.name)
        ));
    }
    options
}

fn new_page(
    data: &Tracker,
    project: &model::Project,
    values: &TaskForm,
    problems: &Problems,
) -> Html<String> {
    let tomorrow = model::iso(model::today() + 1);
    let content = format!(
        r#"<p class="crumbs"><a href="/projects">Projects</a> › <a href="/projects/{pid}">{pkey}</a> › New task</p>
<h1>New task in {pname}</h1>
{summary}
<form method="post" action="/projects/{pid}/tasks/new" class="card">
<label for="title">Title</label>
<input id="title" name="title" type="text" required maxlength="120" value="{title}">{e_title}
<label for="description">Description <span class="muted">(optional)</span></label>
<textarea id="description" name="description" rows="3">{description}</textarea>{e_description}
<label for="estimate">Estimate in hours</label>
<input id="estimate" name="estimate" type="number" required min="1" max="40" step="0.5" value="{estimate}">{e_estimate}
<label for="due">Due date</label>
<input id="due" name="due" type="date" required min="{tomorrow}" value="{due}">{e_due}
<label for="assignee">Assignee</label>
<select id="assignee" name="assignee" required>{assignees}</select>{e_assignee}
<p><button type="submit" class="primary">Create task</button> <a href="/projects/{pid}">Back to project</a></p>
</form>"#,
        pid = project.id,
        pkey = escape(&project.key),
        pname = escape(&project.name),
        summary = problems.summary(),
        title = escape(&values.title),
        description = escape(&values.description),
        estimate = escape(&values.estimate),
        due = escape(&values.due),
        assignees = assignee_options(data, &values.assignee, None),
        e_title = problems.at("title"),
        e_description = problems.at("description"),
        e_estimate = problems.at("estimate"),
        e_due = problems.at("due"),
        e_assignee = problems.at("assignee"),
    );
    page("New task", Nav::Projects, &content, "", None)
}

pub(crate) async fn new_form(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Response {
    let data = state.data();
    match project_or_gone(&data, &id) {
        Ok(p) => new_page(&data, &p, &TaskForm::default(), &Problems::default()).into_response(),
        Err(missing) => missing.into_response(),
    }
}

pub(crate) async fn create(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let values = TaskForm::from_form(&FormData::parse(&body));
    let today = model::today();
    let mut data = state.data();
    let project = match project_or_gone(&data, &id) {
        Ok(p) => p,
        Err(missing) => return missing.into_response(),
    };
    let mut problems = Problems::default();
    let checked = check_task(&data, &values, today, true, None, &mut problems);
    if data.tasks.len() >= MAX_TASKS {
        problems.add(
            "title",
            "This workspace holds 2000 tasks at most. Delete some first.",
        );
    }
    let Some(checked) = checked.filter(|_| problems.is_empty()) else {
        return new_page(&data, &project, &values, &problems).into_response();
    };
    let title = values.title.clone();
    let Some(task) = data.add_task(
        project.id,
        values.title,
        values.description,
        checked.assignee,
        checked.estimate_halves,
        checked.due,
    ) else {
        return layout::not_found();
    };
    let key = data.task(task).map(|t| t.key.clone()).unwrap_or_default();
    data.log(
        today,
        format!("created {key} {title}"),
        Some(format!("/tasks/{task}")),
    );
    Redirect::to(&format!("/tasks/{task}?created=1")).into_response()
}

/// The task page's script: tabs, the "Log time" dialog, the comment counter, watching,
/// the timer, and, right after creation, notifying the assignee. `%NOTIFY%` becomes the
/// beacon when the server knows the notification will fail: the promise then rejects
/// with nobody to catch it (the seeded fault).
pub(super) const TASK_SCRIPT: &str = r#"<script>
(function () {
  var tabs = document.querySelectorAll('[role=tab]');
  function showTab(name) {
    tabs.forEach(function (tab) {
      var on = tab.getAttribute('data-tab') === name;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      document.getElementById('panel-' + tab.getAttribute('data-tab')).hidden = !on;
    });
  }
  tabs.forEach(function (tab) {
    tab.addEventListener('click', function () { showTab(tab.getAttribute('data-tab')); });
  });
  if (location.hash === '#time') showTab('time');

  var modal = document.getElementById('log-modal');
  document.getElementById('open-log').addEventListener('click', function () {
    modal.hidden = false;
    document.getElementById('hours').focus();
  });
  document.getElementById('close-log').addEventListener('click', function () { modal.hidden = true; });

  var body = document.getElementById('comment-body');
  var counter = document.getElementById('counter');
  function count() {
    var n = body.value.length;
    counter.textContent = n + ' / ' + TASK.limit;
    counter.className = 'counter' + (n > TASK.limit ? ' over' : '');
  }
  body.addEventListener('input', count);
  count();

  var watch = document.getElementById('watch');
  watch.addEventListener('click', function () {
    fetch('/api/tasks/' + TASK.id + '/watch', { method: 'POST' })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        watch.textContent = d.watching ? 'Unwatch' : 'Watch';
        watch.setAttribute('aria-pressed', d.watching ? 'true' : 'false');
        toast(d.watching ? 'You will be notified about changes.' : 'You will no longer be notified.');
      })
      .catch(function () { toast('Could not change watching, please try again.'); });
  });

  var timerButton = document.getElementById('timer');
  function showTimer() {
    var t = trackerTimer.read();
    timerButton.textContent = t && t.task === TASK.id ? 'Stop timer' : 'Start timer';
  }
  timerButton.addEventListener('click', function () {
    var t = trackerTimer.read();
    if (t && t.task === TASK.id) {
      var minutes = Math.ceil((Date.now() - t.started) / 60000 / 15) * 15;
      minutes = Math.min(Math.max(minutes, 15), 1440);
      trackerTimer.clear();
      document.getElementById('timer-hours').value = (minutes / 60).toFixed(2);
      document.getElementById('timer-form').submit();
      return;
    }
    toast(t ? 'Timer moved from ' + t.key + ' to ' + TASK.key + '.' : 'Timer started.');
    trackerTimer.start(TASK.id, TASK.key);
    showTimer();
  });
  showTimer();

  if (TASK.created) {
    %NOTIFY%
    fetch('/api/tasks/' + TASK.id + '/notify', { method: 'POST' })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (!d.delivered) throw new Error('notify assignee: ' + d.reason);
        toast('Task created. ' + d.who + ' was notified.');
      });
  }
})();
</script>"#;

/// Which part of the task page a failed submission goes back to.
#[derive(Debug, Default)]
struct TaskPageState {
    comment: String,
    comment_problem: Option<&'static str>,
    hours: String,
    date: String,
    note: String,
    log_problems: Problems,
}

fn task_page(
    data: &Tracker,
    t: &Task,
    form: &TaskPageState,
    created: bool,
    toast: Option<&str>,
) -> Html<String> {
    let today = model::today();
    let project = data.project(t.project);
    let (pid, pkey, pname) =
        project.map_or((0, "", ""), |p| (p.id, p.key.as_str(), p.name.as_str()));
    let logged = t.logged_minutes();
    let percent = (u64::from(logged) * 100)
        .checked_div(u64::from(t.estimate_halves) * 30)
        .unwrap_or(0)
        .min(100);
    let comments: String = if t.comments.is_empty() {
        r#"<p class="muted">No comments yet.</p>"#.to_owned()
    } else {
        t.comments
            .iter()
            .map(|c| {
                let author = data.member(c.author);
                format!(
                    r#"<div class="comment"><span class="avatar" style="background:{colour}">{initials}</span> <strong>{name}</strong> <span class="muted">{day}</span><p>{body}</p></div>"#,
                    colour = author.map_or("#888", |m| m.colour),
                    initials = escape(&author.map(|m| m.initials()).unwrap_or_default()),
                    name = escape(data.member_name(c.author)),
                    day = model::pretty(c.day),
                    body = escape(&c.body).replace('\n', "<br>"),
                )
            })
            .collect()
    };
    let entries: String = if t.entries.is_empty() {
        r#"<tr><td colspan="6" class="muted">No time logged yet.</td></tr>"#.to_owned()
    } else {
        t.entries
            .iter()
            .map(|e| {
                let source = match e.source {
                    EntrySource::Manual => "Manual",
                    EntrySource::Timer => "Timer",
                };
                format!(
                    r#"<tr><td>{day}</td><td>{who}</td><td>{hours}</td><td>{note}</td><td>{source}</td><td><form method="post" action="/tasks/{tid}/time/{eid}/delete"><button type="submit" aria-label="Delete entry of {day}">Delete</button></form></td></tr>"#,
                    day = model::pretty(e.day),
                    who = escape(data.member_name(e.author)),
                    hours = model::hours(e.minutes),
                    note = escape(&e.note),
                    tid = t.id,
                    eid = e.id,
                )
            })
            .collect()
    };
    let comment_problem = form
        .comment_problem
        .map(|p| format!(r#"<p class="error" role="alert">{p}</p>"#))
        .unwrap_or_default();
    let modal_hidden = if form.log_problems.is_empty() {
        " hidden"
    } else {
        ""
    };
    let date = if form.date.is_empty() && form.log_problems.is_empty() {
        model::iso(today)
    } else {
        form.date.clone()
    };
    let late = if t.status.is_open() && t.due < today {
        r#" <span class="error">overdue</span>"#
    } else {
        ""
    };
    let (watch_text, watch_pressed) = if t.watched {
        ("Unwatch", "true")
    } else {
        ("Watch", "false")
    };
    let content = format!(
        r#"<p class="crumbs"><a href="/projects">Projects</a> › <a href="/projects/{pid}">{pkey}</a> › {key}</p>
<div class="toolbar"><h1 style="margin:0">{key} {title}</h1> {badge}
<button type="button" id="watch" aria-pressed="{watch_pressed}">{watch_text}</button></div>
<table style="width:auto">
<tr><th>Project</th><td><a href="/projects/{pid}">{pname}</a></td></tr>
<tr><th>Assignee</th><td>{assignee}</td></tr>
<tr><th>Estimate</th><td>{estimate}</td></tr>
<tr><th>Due</th><td>{due}{late}</td></tr>
<tr><th>Logged</th><td>{logged} <span class="meter" style="display:inline-block;width:8rem;vertical-align:middle" role="img" aria-label="{percent}% of the estimate"><span style="width:{percent}%"></span></span></td></tr>
</table>
<p>{description}</p>
<div class="toolbar">
<a class="button" href="/tasks/{tid}/edit">Edit task</a>
<button type="button" id="timer">Start timer</button>
<button type="button" id="open-log" class="primary">Log time</button>
<a class="button" href="/tasks/{tid}/report">Time report</a>
</div>
<div role="tablist" aria-label="Task details">
<button type="button" role="tab" data-tab="comments" aria-selected="true" aria-controls="panel-comments">Comments ({ncomments})</button>
<button type="button" role="tab" data-tab="time" aria-selected="false" aria-controls="panel-time">Time entries ({nentries})</button>
</div>
<section id="panel-comments" role="tabpanel">
<div id="comments">{comments}</div>
<form method="post" action="/tasks/{tid}/comments" class="card">
{comment_problem}
<label for="comment-body">Add a comment</label>
<textarea id="comment-body" name="body" rows="3" placeholder="Write a comment; @mention teammates to notify them">{comment}</textarea>
<p><span id="counter" class="counter"></span> <button type="submit" class="primary">Post comment</button></p>
</form>
</section>
<section id="panel-time" role="tabpanel" hidden>
<table><tr><th>Date</th><th>Who</th><th>Hours</th><th>Note</th><th>Source</th><th></th></tr>{entries}</table>
</section>
<div class="modal" id="log-modal"{modal_hidden}>
<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="log-title">
<h2 id="log-title">Log time on {key}</h2>
{log_summary}
<form method="post" action="/tasks/{tid}/time">
<label for="hours">Hours</label>
<input id="hours" name="hours" type="text" inputmode="decimal" placeholder="e.g. 1.5" value="{hours}">{e_hours}
<label for="entry-date">Date</label>
<input id="entry-date" name="date" type="date" max="{today}" value="{date}">{e_date}
<label for="note">Note <span class="muted">(optional)</span></label>
<input id="note" name="note" type="text" value="{note}">{e_note}
<p><button type="submit" class="primary">Save entry</button> <button type="button" id="close-log">Close</button></p>
</form>
</div>
</div>
<form id="timer-form" method="post" action="/tasks/{tid}/time" hidden>
<input type="hidden" name="hours" id="timer-hours">
<input type="hidden" name="date" value="{today}">
<input type="hidden" name="note" value="Timer">
<input type="hidden" name="source" value="timer">
</form>"#,
        pkey = escape(pkey),
        pname = escape(pname),
        key = escape(&t.key),
        title = escape(&t.title),
        badge = badge(t.status),
        assignee = escape(data.member_name(t.assignee)),
        estimate = t.estimate(),
        due = model::pretty(t.due),
        logged = model::hours(logged),
        description = escape(&t.description),
        tid = t.id,
        ncomments = t.comments.len(),
        nentries = t.entries.len(),
        comment = escape(&form.comment),
        log_summary = form.log_problems.summary(),
        hours = escape(&form.hours),
        date = escape(&date),
        note = escape(&form.note),
        e_hours = form.log_problems.at("hours"),
        e_date = form.log_problems.at("date"),
        e_note = form.log_problems.at("note"),
        today = model::iso(today),
    );
    let notify_fails = created && data.member(t.assignee).is_none_or(|m| m.email.is_none());
    let notify = if notify_fails {
        format!("curioTruth('{T07_REJECTION_NOTIFY}');")
    } else {
        String::new()
    };
    let script = format!(
        "{}\n{}",
        scripts::data(
            "TASK",
            &json!({ "id": t.id, "key": t.key, "limit": COMMENT_LIMIT, "created": created })
        ),
        TASK_SCRIPT.replace("%NOTIFY%", &notify)
    );
    let title = format!("{} {}", t.key, t.title);
    page(&title, Nav::Projects, &content, &script, toast)
}

pub(crate) async fn detail(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = FormData::from_query(query.as_deref());
    let data = state.data();
    let t = match task_or_gone(&data, &id) {
        Ok(t) => t,
        Err(missing) => return missing.into_response(),
    };
    let created = query.get("created") == "1";
    let toast = if created {
        Some("Task created.")
    } else {
        flash(&query)
    };
    task_page(&data, &t, &TaskPageState::default(), created, toast).into_response()
}

fn edit_page(data: &Tracker, t: &Task, values: &TaskForm, problems: &Problems) -> Html<String> {
    let statuses: String = TaskStatus::ALL
        .iter()
        .map(|s| {
            format!(
                r#"<option value="{}"{}>{}</option>"#,
                s.slug(),
                layout::selected(s.slug(), &values.status),
                s.label()
            )
        })
        .collect();
    let content = format!(
        r#"<p class="crumbs"><a href="/tasks/{id}">{key}</a> › Edit</p>
<h1>Edit {key}</h1>
{summary}
<form method="post" action="/tasks/{id}/edit" class="card">
<label for="title">Title</label>
<input id="title" name="title" type="text" required maxlength="120" value="{title}">{e_title}
<label for="description">Description</label>
<textarea id="description" name="description" rows="3">{description}</textarea>{e_description}
<label for="status">Status</label>
<select id="status" name="status">{statuses}</select>{e_status}
<label for="assignee">Assignee</label>
<select id="assignee" name="assignee">{assignees}</select>{e_assignee}
<label for="estimate">Estimate in hours</label>
<input id="estimate" name="estimate" type="number" required min="1" max="40" step="0.5" value="{estimate}">{e_estimate}
<label for="due">Due date</label>
<input id="due" name="due" type="date" required value="{due}">{e_due}
<p><button type="submit" class="primary">Save changes</button> <a href="/tasks/{id}">Back to task</a></p>
</form>
<div class="danger-zone">
<h2>Delete this task</h2>
<p>Its comments and time entries are deleted with it.</p>
<form method="post" action="/tasks/{id}/delete"><button type="submit" class="danger">Delete task</button></form>
</div>"#,
        id = t.id,
        key = escape(&t.key),
        summary = problems.summary(),
        title = escape(&values.title),
        description = escape(&values.description),
        assignees = assignee_options(data, &values.assignee, Some(t.assignee)),
        estimate = escape(&values.estimate),
        due = escape(&values.due),
        e_title = problems.at("title"),
        e_description = problems.at("description"),
        e_status = problems.at("status"),
        e_assignee = problems.at("assignee"),
        e_estimate = problems.at("estimate"),
        e_due = problems.at("due"),
    );
    page("Edit task", Nav::Projects, &content, "", None)
}

pub(crate) async fn edit_form(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Response {
    let data = state.data();
    match task_or_gone(&data, &id) {
        Ok(t) => edit_page(&data, &t, &TaskForm::of(&t), &Problems::default()).into_response(),
        Err(missing) => missing.into_response(),
    }
}

pub(crate) async fn update(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let values = TaskForm::from_form(&FormData::parse(&body));
    let today = model::today();
    let mut data = state.data();
    let t = match task_or_gone(&data, &id) {
        Ok(t) => t,
        Err(missing) => return missing.into_response(),
    };
    let mut problems = Problems::default();
    let checked = check_task(
        &data,
        &values,
        today,
        false,
        Some(t.assignee),
        &mut problems,
    );
    let status = TaskStatus::from_slug(&values.status);
    if status.is_none() {
        problems.add("status", "Please choose a status.");
    }
    let (Some(checked), Some(status)) = (checked, status) else {
        return edit_page(&data, &t, &values, &problems).into_response();
    };
    if let Some(task) = data.task_mut(t.id) {
        task.title = values.title.clone();
        task.description = values.description;
        task.status = status;
        task.assignee = checked.assignee;
        task.estimate_halves = checked.estimate_halves;
        task.due = checked.due;
    }
    let text = if status != t.status {
        format!("moved {} {} to {}", t.key, values.title, status.label())
    } else {
        format!("edited {} {}", t.key, values.title)
    };
    data.log(today, text, Some(format!("/tasks/{}", t.id)));
    Redirect::to(&format!("/tasks/{}?done=task-saved", t.id)).into_response()
}

/// Really deletes the task with its comments and time.
pub(crate) async fn delete(State(state): State<TrackerState>, Path(id): Path<String>) -> Response {
    let mut data = state.data();
    let Some(t) = parse_id(&id).and_then(|id| data.task(id)).cloned() else {
        return Redirect::to("/tasks").into_response();
    };
    data.tasks.retain(|task| task.id != t.id);
    data.log(
        model::today(),
        format!("deleted {} {}", t.key, t.title),
        None,
    );
    Redirect::to(&format!("/projects/{}?done=task-deleted", t.project)).into_response()
}

/// Posts a comment. The notification service behind it cannot take more than 280
/// characters, and the handler does not check: longer comments crash it (the seeded
/// fault). The page's counter only warns.
pub(crate) async fn comment(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let form = FormData::parse(&body);
    let text = form.get("body").to_owned();
    let mut data = state.data();
    let t = match task_or_gone(&data, &id) {
        Ok(t) => t,
        Err(missing) => return missing.into_response(),
    };
    // Mentions are sent to the notification service before the comment is stored.
    if text.chars().count() > COMMENT_LIMIT {
        drop(data);
        return state.server_error(T04_500_LONG_COMMENT);
    }
    let problem = if text.is_empty() {
        Some("Write something before posting.")
    } else if t.comments.len() >= MAX_COMMENTS {
        Some("This task has 200 comments, the most it can hold.")
    } else {
        None
    };
    if let Some(problem) = problem {
        let form = TaskPageState {
            comment: text,
            comment_problem: Some(problem),
            ..TaskPageState::default()
        };
        return task_page(&data, &t, &form, false, None).into_response();
    }
    let today = model::today();
    if let Some(task) = data.task_mut(t.id) {
        task.comments.push(Comment {
            author: ME,
            body: text,
            day: today,
        });
    }
    data.log(
        today,
        format!("commented on {} {}", t.key, t.title),
        Some(format!("/tasks/{}", t.id)),
    );
    Redirect::to(&format!("/tasks/{}?done=commented#comments", t.id)).into_response()
}

/// Logs time. Hours that do not parse as a number crash the handler, which unwraps the
/// parse (the seeded fault); numbers out of range get a message like every other field.
pub(crate) async fn log_time(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let form = FormData::parse(&body);
    let today = model::today();
    let mut data = state.data();
    let t = match task_or_gone(&data, &id) {
        Ok(t) => t,
        Err(missing) => return missing.into_response(),
    };
    let raw_hours = form.get("hours");
    let Ok(hours) = raw_hours.parse::<f64>() else {
        drop(data);
        return state.server_error(T03_500_TIME_HOURS);
    };
    let mut problems = Problems::default();
    if !(hours.is_finite() && (0.25..=24.0).contains(&hours)) {
        problems.add("hours", "Hours must be between 0.25 and 24.");
    }
    let raw_date = form.get("date");
    let day = match model::parse_iso(raw_date) {
        _ if raw_date.is_empty() => {
            problems.add("date", "Please pick the day you worked.");
            None
        }
        None => {
            problems.add("date", "Please give the date as YYYY-MM-DD.");
            None
        }
        Some(day) if day > today => {
            problems.add("date", "You can't log time in the future.");
            None
        }
        Some(day) => Some(day),
    };
    let note = form.get("note");
    if note.chars().count() > 200 {
        problems.add("note", "Notes can be at most 200 characters.");
    }
    if t.entries.len() >= MAX_ENTRIES {
        problems.add(
            "hours",
            "This task has 200 time entries, the most it can hold.",
        );
    }
    let Some(day) = day.filter(|_| problems.is_empty()) else {
        let form = TaskPageState {
            hours: raw_hours.to_owned(),
            date: raw_date.to_owned(),
            note: note.to_owned(),
            log_problems: problems,
            ..TaskPageState::default()
        };
        return task_page(&data, &t, &form, false, None).into_response();
    };
    let source = if form.get("source") == "timer" {
        EntrySource::Timer
    } else {
        EntrySource::Manual
    };
    let minutes = (hours * 60.0).round() as u32;
    let entry = data.next_entry_id();
    if let Some(task) = data.task_mut(t.id) {
        let status = task.status;
        task.entries.push(TimeEntry {
            id: entry,
            day,
            minutes,
            note: note.to_owned(),
            status,
            source,
            author: ME,
        });
    }
    data.log(
        today,
        format!("logged {} on {} {}", model::hours(minutes), t.key, t.title),
        Some(format!("/tasks/{}", t.id)),
    );
    Redirect::to(&format!("/tasks/{}?done=logged#time", t.id)).into_response()
}

pub(crate) async fn delete_entry(
    State(state): State<TrackerState>,
    Path((id, entry)): Path<(String, String)>,
) -> Response {
    let mut data = state.data();
    let Some(task) = parse_id(&id).and_then(|id| data.task_mut(id)) else {
        return Redirect::to("/tasks").into_response();
    };
    let entry = parse_id(&entry);
    task.entries.retain(|e| Some(e.id) != entry);
    Redirect::to(&format!("/tasks/{}?done=entry-deleted#time", task.id)).into_response()
}

/// The report's chart colours time by the status the task had when it was logged, with
/// one colour for the timer's entries. "Blocked" has no colour, and the script logs a
/// console error for it (the seeded fault).
pub(super) const REPORT_SCRIPT: &str = r#"<script>
(function () {
  var COLOURS = { todo: '#9aa5b1', in_progress: '#1d4f91', in_review: '#e09f3e', done: '#2a9d8f', archived: '#7b8794' };
  var TRACKED = '#8a6fb5';
  var box = document.getElementById('entry-bars');
  var max = Math.max.apply(null, REPORT.entries.map(function (e) { return e.minutes; }).concat([60]));
  var reported = false;
  REPORT.entries.forEach(function (e) {
    var colour = e.source === 'timer' ? TRACKED : COLOURS[e.status];
    if (!colour) {
      if (!reported) {
        reported = true;
        curioTruth('%FAULT%');
        console.error('time report: no colour for status "' + e.status + '" (entry ' + e.id + ')');
      }
      colour = '#cccccc';
    }
    var bar = document.createElement('div');
    bar.className = 'bar';
    bar.style.width = Math.max(8, Math.round(90 * e.minutes / max)) + '%';
    bar.style.background = colour;
    bar.textContent = e.day + ' · ' + (e.minutes / 60).toFixed(2) + ' h';
    box.appendChild(bar);
  });
  if (REPORT.entries.length === 0) box.textContent = 'No time logged yet.';
  document.getElementById('print').addEventListener('click', function () {
    toast('Use your browser\'s print command to print this report.');
  });
})();
</script>"#;

/// The time report. Tasks of projects created during the run have no billing profile,
/// which the report looks up unconditionally (the seeded fault: a 500).
pub(crate) async fn report(State(state): State<TrackerState>, Path(id): Path<String>) -> Response {
    let data = state.data();
    let t = match task_or_gone(&data, &id) {
        Ok(t) => t,
        Err(missing) => return missing.into_response(),
    };
    let Some(project) = data.project(t.project).cloned() else {
        return layout::not_found();
    };
    if project.user_created {
        drop(data);
        return state.server_error(T06_500_NEW_PROJECT_REPORT);
    }
    let logged = t.logged_minutes();
    let by_member: String = data
        .members
        .iter()
        .filter_map(|m| {
            let minutes: u32 = t
                .entries
                .iter()
                .filter(|e| e.author == m.id)
                .map(|e| e.minutes)
                .sum();
            (minutes > 0).then(|| {
                format!(
                    "<tr><td>{}</td><td>{}</td></tr>",
                    escape(&m.name),
                    model::hours(minutes)
                )
            })
        })
        .collect();
    let mut entries = t.entries.clone();
    entries.sort_by_key(|e| (e.day, e.id));
    let entries_json: Vec<_> = entries
        .iter()
        .map(|e| {
            json!({
                "id": e.id,
                "day": model::pretty(e.day),
                "minutes": e.minutes,
                "status": e.status.slug(),
                "source": match e.source { EntrySource::Manual => "manual", EntrySource::Timer => "timer" },
            })
        })
        .collect();
    drop(data);
    let remaining = (i64::from(t.estimate_halves) * 30 - i64::from(logged)).max(0);
    let content = format!(
        r#"<p class="crumbs"><a href="/projects/{pid}">{pkey}</a> › <a href="/tasks/{tid}">{key}</a> › Time report</p>
<h1>Time report: {key} {title}</h1>
<div class="grid">
<div class="card"><div class="muted">Logged</div><div class="stat">{logged}</div></div>
<div class="card"><div class="muted">Estimate</div><div class="stat">{estimate}</div></div>
<div class="card"><div class="muted">Remaining</div><div class="stat">{remaining}</div></div>
<div class="card"><div class="muted">Billing profile</div><div class="stat" style="font-size:1rem">{pname}</div></div>
</div>
<section class="card">
<h2>Entries</h2>
<p class="muted"><span class="dot" style="background:#1d4f91"></span>in progress <span class="dot" style="background:#e09f3e"></span>in review <span class="dot" style="background:#2a9d8f"></span>done <span class="dot" style="background:#8a6fb5"></span>timer</p>
<div id="entry-bars" class="bars"></div>
</section>
<section>
<h2>By person</h2>
<table><tr><th>Person</th><th>Logged</th></tr>{by_member}</table>
</section>
<p><button type="button" id="print">Print report</button> <a href="/tasks/{tid}">Back to task</a></p>"#,
        pid = project.id,
        pkey = escape(&project.key),
        pname = escape(&project.name),
        tid = t.id,
        key = escape(&t.key),
        title = escape(&t.title),
        logged = model::hours(logged),
        estimate = t.estimate(),
        remaining = model::hours(u32::try_from(remaining).unwrap_or(0)),
    );
    let script = format!(
        "{}\n{}",
        scripts::data("REPORT", &json!({ "entries": entries_json })),
        with_fault(REPORT_SCRIPT, T11_CONSOLE_BLOCKED_REPORT)
    );
    page("Time report", Nav::Projects, &content, &script, None).into_response()
}

/// The board's "Move to …" buttons.
pub(crate) async fn move_status(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Json<serde_json::Value> {
    let form = FormData::parse(&body);
    let mut data = state.data();
    let Some(task) = parse_id(&id).and_then(|id| data.task_mut(id)) else {
        return Json(json!({ "ok": false, "error": "This task no longer exists." }));
    };
    let Some(status) =
        TaskStatus::from_slug(form.get("status")).filter(|s| TaskStatus::BOARD.contains(s))
    else {
        return Json(json!({ "ok": false, "error": "Tasks can only move between board columns." }));
    };
    task.status = status;
    let (tid, key, title) = (task.id, task.key.clone(), task.title.clone());
    let next = status.next();
    data.log(
        model::today(),
        format!("moved {key} {title} to {}", status.label()),
        Some(format!("/tasks/{tid}")),
    );
    Json(json!({
        "ok": true,
        "status": status.slug(),
        "label": status.label(),
        "column": status.column().unwrap_or(status).slug(),
        "next": next.map(TaskStatus::slug),
        "next_label": next.map(TaskStatus::label),
        "message": format!("{key} moved to {}.", status.label()),
    }))
}

/// Notifies a new task's assignee, by email: members without one cannot be notified,
/// and the answer says so (with a 200; it is the page that fails to handle it).
pub(crate) async fn notify(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Json<serde_json::Value> {
    let data = state.data();
    let Some(task) = parse_id(&id).and_then(|id| data.task(id)) else {
        return Json(json!({ "delivered": false, "reason": "task not found" }));
    };
    match data.member(task.assignee) {
        Some(m) if m.email.is_some() => Json(json!({ "delivered": true, "who": m.name })),
        Some(m) => Json(json!({
            "delivered": false,
            "reason": format!("{} has no email address", m.name),
        })),
        None => Json(json!({ "delivered": false, "reason": "assignee not found" })),
    }
}

pub(crate) async fn watch(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Json<serde_json::Value> {
    let mut data = state.data();
    let Some(task) = parse_id(&id).and_then(|id| data.task_mut(id)) else {
        return Json(json!({ "watching": false }));
    };
    task.watched = !task.watched;
    Json(json!({ "watching": task.watched }))
}
