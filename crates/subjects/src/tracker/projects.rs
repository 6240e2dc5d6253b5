//! Projects: the list, the "New project" form, the project page (list, board and
//! timeline tabs, filters, inline rename), editing, export and deletion.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::json;

use super::layout::{self, Missing, Nav, Problems, flash, page};
use super::model::{self, MAX_PROJECTS, Project, ProjectStatus, TaskStatus, Tracker};
use super::scripts::{self, with_fault};
use super::{FormData, T08_UNCAUGHT_BOARD_FILTER, T13_500_EXPORT_ARCHIVED, TrackerState, parse_id};
use crate::html::escape;

const LIST_SCRIPT: &str = r#"<script>
(function () {
  var select = document.getElementById('sort');
  var body = document.getElementById('project-rows');
  // An empty filter renders no table: nothing to sort.
  if (!select || !body) return;
  function sort() {
    var rows = Array.prototype.slice.call(body.querySelectorAll('tr'));
    var by = select.value;
    rows.sort(function (a, b) {
      if (by === 'name') return a.getAttribute('data-name').localeCompare(b.getAttribute('data-name'));
      if (by === 'open') return Number(b.getAttribute('data-open')) - Number(a.getAttribute('data-open'));
      return Number(b.getAttribute('data-created')) - Number(a.getAttribute('data-created'));
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  select.addEventListener('change', sort);
})();
</script>"#;

pub(crate) async fn list(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let filter = ProjectStatus::from_slug(query.get("status"));
    let data = state.data();
    let rows: String = data
        .projects
        .iter()
        .filter(|p| filter.is_none_or(|s| p.status == s))
        .map(|p| {
            let open = data.tasks_of(p.id).filter(|t| t.status.is_open()).count();
            let minutes: u32 = data.tasks_of(p.id).map(|t| t.logged_minutes()).sum();
            let budget = p
                .budget_hours
                .map_or_else(|| "—".to_owned(), |b| format!("{b} h"));
            format!(
                r#"<tr data-name="{lname}" data-open="{open}" data-created="{created}"><td><span class="dot" style="background:{colour}"></span><a href="/projects/{id}">{name}</a></td><td>{key}</td><td><span class="badge {slug}">{status}</span></td><td>{open}</td><td>{logged}</td><td>{budget}</td></tr>"#,
                lname = escape(&p.name.to_lowercase()),
                created = p.created,
                colour = p.colour,
                id = p.id,
                name = escape(&p.name),
                key = escape(&p.key),
                slug = p.status.slug(),
                status = p.status.label(),
                logged = model::hours(minutes),
            )
        })
        .collect();
    drop(data);
    let mut filters = String::from(r#"<p class="toolbar">Show: "#);
    let all = if filter.is_none() {
        r#" aria-current="page""#
    } else {
        ""
    };
    filters.push_str(&format!(r#"<a href="/projects"{all}>All</a>"#));
    for s in ProjectStatus::ALL {
        let current = if filter == Some(s) {
            r#" aria-current="page""#
        } else {
            ""
        };
        filters.push_str(&format!(
            r#"<a href="/projects?status={}"{current}>{}</a>"#,
            s.slug(),
            s.label()
        ));
    }
    filters.push_str("</p>");
    let table = if rows.is_empty() {
        r#"<p class="notice">No projects here yet.</p>"#.to_owned()
    } else {
        format!(
            r#"<table><thead><tr><th>Project</th><th>Key</th><th>Status</th><th>Open tasks</th><th>Logged</th><th>Budget</th></tr></thead><tbody id="project-rows">{rows}</tbody></table>"#
        )
    };
    let content = format!(
        r#"<h1>Projects</h1>
<div class="toolbar">
<a class="button primary" href="/projects/new">New project</a>
<label for="sort" style="margin:0 0 0 1rem">Sort by</label>
<select id="sort"><option value="created">Newest</option><option value="name">Name</option><option value="open">Open tasks</option></select>
</div>
{filters}
{table}"#
    );
    page(
        "Projects",
        Nav::Projects,
        &content,
        LIST_SCRIPT,
        flash(&query),
    )
}

#[derive(Debug, Default)]
struct ProjectForm {
    name: String,
    key: String,
    description: String,
    budget: String,
    status: String,
}

impl ProjectForm {
    fn from_form(form: &FormData) -> Self {
        Self {
            name: form.get("name").to_owned(),
            key: form.get("key").to_owned(),
            description: form.get("description").to_owned(),
            budget: form.get("budget").to_owned(),
            status: form.get("status").to_owned(),
        }
    }

    fn of(p: &Project) -> Self {
        Self {
            name: p.name.clone(),
            key: p.key.clone(),
            description: p.description.clone(),
            budget: p.budget_hours.map(|b| b.to_string()).unwrap_or_default(),
            status: p.status.slug().to_owned(),
        }
    }

    /// Checks the fields both forms share; returns the budget.
    fn check_common(&self, problems: &mut Problems) -> Option<u32> {
        if self.name.is_empty() {
            problems.add("name", "Please give the project a name.");
        } else if self.name.chars().count() > 80 {
            problems.add("name", "Project names can be at most 80 characters.");
        }
        if self.description.chars().count() > 1000 {
            problems.add(
                "description",
                "Descriptions can be at most 1000 characters.",
            );
        }
        if self.budget.is_empty() {
            return None;
        }
        match self.budget.parse::<u32>() {
            Ok(b) if (1..=10_000).contains(&b) => Some(b),
            _ => {
                problems.add(
                    "budget",
                    "Budget must be a whole number of hours between 1 and 10000, or empty.",
                );
                None
            }
        }
    }
}

const NEW_PROJECT_SCRIPT: &str = r#"<script>
(function () {
  var name = document.getElementById('name');
  var hint = document.getElementById('key-hint');
  function suggest() {
    var words = name.value.replace(/[^A-Za-z0-9\s]/g, '').trim().split(/\s+/).filter(Boolean);
    var key = words.length >= 2 ? words.slice(0, 4).map(function (w) { return w[0]; }).join('') : (words[0] || '').slice(0, 3);
    key = key.toUpperCase();
    hint.textContent = key.length >= 2 ? 'Leave empty to use ' + key + '.' : 'Leave empty to derive it from the name.';
  }
  name.addEventListener('input', suggest);
  suggest();
})();
</script>"#;

fn new_page(values: &ProjectForm, problems: &Problems) -> Html<String> {
    let content = format!(
        r#"<p class="crumbs"><a href="/projects">Projects</a> › New project</p>
<h1>New project</h1>
{summary}
<form method="post" action="/projects" class="card">
<label for="name">Project name</label>
<input id="name" name="name" type="text" required maxlength="80" value="{name}">{e_name}
<label for="key">Key <span class="muted">(2-6 letters or digits, used in task numbers)</span></label>
<input id="key" name="key" type="text" maxlength="6" placeholder="e.g. WEB" value="{key}">{e_key}
<span id="key-hint" class="muted"></span>
<label for="description">Description <span class="muted">(optional)</span></label>
<textarea id="description" name="description" rows="3">{description}</textarea>{e_description}
<label for="budget">Budget in hours <span class="muted">(optional)</span></label>
<input id="budget" name="budget" type="number" min="1" max="10000" value="{budget}">{e_budget}
<p><button type="submit" class="primary">Create project</button> <a href="/projects">Back to projects</a></p>
</form>"#,
        summary = problems.summary(),
        name = escape(&values.name),
        key = escape(&values.key),
        description = escape(&values.description),
        budget = escape(&values.budget),
        e_name = problems.at("name"),
        e_key = problems.at("key"),
        e_description = problems.at("description"),
        e_budget = problems.at("budget"),
    );
    page(
        "New project",
        Nav::Projects,
        &content,
        NEW_PROJECT_SCRIPT,
        None,
    )
}

pub(crate) async fn new_form() -> Html<String> {
    new_page(&ProjectForm::default(), &Problems::default())
}

pub(crate) async fn create(State(state): State<TrackerState>, body: Bytes) -> Response {
    let values = ProjectForm::from_form(&FormData::parse(&body));
    let mut problems = Problems::default();
    let budget = values.check_common(&mut problems);
    let mut data = state.data();
    let key = if values.key.is_empty() {
        data.suggest_key(&values.name)
    } else {
        let key = values.key.to_ascii_uppercase();
        if !(2..=6).contains(&key.len()) || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
            problems.add("key", "Keys are 2 to 6 letters or digits, like WEB.");
        } else if data.key_taken(&key) {
            problems.add(
                "key",
                format!("The key {key} is already used by another project."),
            );
        }
        key
    };
    if data.projects.len() >= MAX_PROJECTS {
        problems.add("name", "Your plan allows 200 projects. Delete one first.");
    }
    if !problems.is_empty() {
        drop(data);
        return new_page(&values, &problems).into_response();
    }
    let today = model::today();
    let name = values.name.clone();
    let id = data.add_project(key, values.name, values.description, budget, today);
    data.log(
        today,
        format!("created {name}"),
        Some(format!("/projects/{id}")),
    );
    Redirect::to(&format!("/projects/{id}?done=project-created")).into_response()
}

/// The project page's script: filters (List tab only, kept per project for the browser
/// tab), tabs, moving cards on the board, inline rename. Showing the board highlights
/// the column of the status the list is filtered by; archived and blocked tasks have no
/// column of their own, so that throws (the seeded fault).
pub(super) const DETAIL_SCRIPT: &str = r#"<script>
(function () {
  var storageKey = 'tracker-filter-' + PROJECT.id;
  function readFilter() {
    var f = null;
    try { f = JSON.parse(sessionStorage.getItem(storageKey) || 'null'); } catch (_) {}
    f = f || {};
    return {
      status: typeof f.status === 'string' ? f.status : 'open',
      assignee: typeof f.assignee === 'string' ? f.assignee : 'all',
      text: typeof f.text === 'string' ? f.text : ''
    };
  }
  var filter = readFilter();
  function saveFilter() {
    try { sessionStorage.setItem(storageKey, JSON.stringify(filter)); } catch (_) {}
  }
  var statusSelect = document.getElementById('filter-status');
  var assigneeSelect = document.getElementById('filter-assignee');
  var textInput = document.getElementById('filter-text');
  statusSelect.value = filter.status;
  if (statusSelect.value !== filter.status) { filter.status = 'open'; statusSelect.value = 'open'; }
  assigneeSelect.value = filter.assignee;
  if (assigneeSelect.value !== filter.assignee) { filter.assignee = 'all'; assigneeSelect.value = 'all'; }
  textInput.value = filter.text;

  function applyFilter() {
    var shown = 0;
    var needle = filter.text.trim().toLowerCase();
    document.querySelectorAll('#task-rows tr[data-status]').forEach(function (row) {
      var s = row.getAttribute('data-status');
      var ok = filter.status === 'all' || (filter.status === 'open' ? (s !== 'done' && s !== 'archived') : s === filter.status);
      if (ok && filter.assignee !== 'all') ok = row.getAttribute('data-assignee') === filter.assignee;
      if (ok && needle) ok = row.getAttribute('data-title').indexOf(needle) >= 0;
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    document.getElementById('no-match').hidden = shown > 0;
    document.getElementById('filter-summary').textContent =
      shown + ' task(s) shown: ' + statusSelect.options[statusSelect.selectedIndex].text.toLowerCase();
  }
  statusSelect.addEventListener('change', function () { filter.status = statusSelect.value; saveFilter(); applyFilter(); });
  assigneeSelect.addEventListener('change', function () { filter.assignee = assigneeSelect.value; saveFilter(); applyFilter(); });
  textInput.addEventListener('input', function () { filter.text = textInput.value; saveFilter(); applyFilter(); });
  document.getElementById('clear-filters').addEventListener('click', function () {
    filter = { status: 'open', assignee: 'all', text: '' };
    statusSelect.value = 'open'; assigneeSelect.value = 'all'; textInput.value = '';
    saveFilter(); applyFilter();
  });
  var toggle = document.getElementById('filters-toggle');
  var panel = document.getElementById('filters');
  toggle.addEventListener('click', function () {
    panel.hidden = !panel.hidden;
    toggle.setAttribute('aria-expanded', panel.hidden ? 'false' : 'true');
  });
  applyFilter();

  function highlightBoard() {
    document.querySelectorAll('.column').forEach(function (c) { c.classList.remove('highlight'); });
    if (filter.status === 'all' || filter.status === 'open') return;
    var column = document.getElementById('col-' + filter.status);
    if (!column) curioTruth('%FAULT%');
    column.classList.add('highlight');
  }
  var tabs = document.querySelectorAll('[role=tab]');
  function showTab(name) {
    tabs.forEach(function (tab) {
      var on = tab.getAttribute('data-tab') === name;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      document.getElementById('panel-' + tab.getAttribute('data-tab')).hidden = !on;
    });
    if (name === 'board') highlightBoard();
  }
  tabs.forEach(function (tab) {
    tab.addEventListener('click', function () { showTab(tab.getAttribute('data-tab')); });
  });

  document.querySelectorAll('button[data-move]').forEach(function (button) {
    button.addEventListener('click', function () {
      var card = button.closest('.card');
      var id = card.getAttribute('data-task');
      button.disabled = true;
      fetch('/api/tasks/' + id + '/status', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'status=' + encodeURIComponent(button.getAttribute('data-move'))
      })
        .then(function (r) { return r.json(); })
        .then(function (d) {
          if (!d.ok) { toast(d.error); button.disabled = false; return; }
          var column = document.getElementById('col-' + d.column);
          if (column) column.appendChild(card);
          var tag = card.querySelector('.badge');
          if (tag) tag.remove();
          if (d.next) {
            button.setAttribute('data-move', d.next);
            button.textContent = 'Move to ' + d.next_label;
            button.disabled = false;
          } else {
            button.remove();
          }
          var row = document.querySelector('#task-rows tr[data-task="' + id + '"]');
          if (row) {
            row.setAttribute('data-status', d.status);
            var badge = row.querySelector('.badge');
            badge.className = 'badge ' + d.status;
            badge.textContent = d.label;
          }
          applyFilter();
          toast(d.message);
        })
        .catch(function () { button.disabled = false; toast('Could not move the task, please try again.'); });
    });
  });

  var renameButton = document.getElementById('rename');
  var renameForm = document.getElementById('rename-form');
  var renameInput = document.getElementById('rename-input');
  var renameMsg = document.getElementById('rename-msg');
  renameButton.addEventListener('click', function () {
    renameForm.hidden = false;
    renameButton.hidden = true;
    renameInput.value = document.getElementById('project-name').textContent;
    renameInput.focus();
  });
  document.getElementById('rename-close').addEventListener('click', function () {
    renameForm.hidden = true;
    renameButton.hidden = false;
    renameMsg.textContent = '';
  });
  renameForm.addEventListener('submit', function (event) {
    event.preventDefault();
    fetch('/api/projects/' + PROJECT.id + '/rename', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=' + encodeURIComponent(renameInput.value)
    })
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (!d.ok) { renameMsg.textContent = d.error; return; }
        document.getElementById('project-name').textContent = d.name;
        renameMsg.textContent = '';
        renameForm.hidden = true;
        renameButton.hidden = false;
        toast('Project renamed.');
      })
      .catch(function () { renameMsg.textContent = 'Could not rename the project, please try again.'; });
  });
})();
</script>"#;

/// The project `raw` names, or why there is none.
pub(crate) fn project_or_gone(data: &Tracker, raw: &str) -> Result<Project, Missing> {
    let id = parse_id(raw);
    match id.and_then(|id| data.project(id)) {
        Some(p) => Ok(p.clone()),
        None if id.is_some_and(|id| data.had_project(id)) => Err(Missing::Deleted {
            what: "project",
            back_href: "/projects",
            back_text: "See all projects",
        }),
        None => Err(Missing::Unknown),
    }
}

pub(crate) async fn detail(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = FormData::from_query(query.as_deref());
    let today = model::today();
    let data = state.data();
    let p = match project_or_gone(&data, &id) {
        Ok(p) => p,
        Err(missing) => return missing.into_response(),
    };
    let tasks: Vec<_> = data.tasks_of(p.id).cloned().collect();
    let logged: u32 = tasks.iter().map(|t| t.logged_minutes()).sum();
    let rows: String = tasks
        .iter()
        .map(|t| {
            let late = if t.status.is_open() && t.due < today {
                r#" <span class="error">overdue</span>"#
            } else {
                ""
            };
            format!(
                r#"<tr data-task="{id}" data-status="{slug}" data-assignee="{assignee}" data-title="{ltitle}"><td><a href="/tasks/{id}">{key} {title}</a></td><td>{who}</td><td>{due}{late}</td><td>{estimate}</td><td><span class="badge {slug}">{label}</span></td></tr>"#,
                id = t.id,
                slug = t.status.slug(),
                assignee = t.assignee,
                ltitle = escape(&t.title.to_lowercase()),
                key = escape(&t.key),
                title = escape(&t.title),
                who = escape(data.member_name(t.assignee)),
                due = model::pretty(t.due),
                estimate = t.estimate(),
                label = t.status.label(),
            )
        })
        .collect();
    let assignees: String = data
        .members
        .iter()
        .filter(|m| tasks.iter().any(|t| t.assignee == m.id))
        .map(|m| format!(r#"<option value="{}">{}</option>"#, m.id, escape(&m.name)))
        .collect();
    let statuses: String = TaskStatus::ALL
        .iter()
        .map(|s| format!(r#"<option value="{}">{}</option>"#, s.slug(), s.label()))
        .collect();
    let columns: String = TaskStatus::BOARD
        .iter()
        .map(|column| {
            let cards: String = tasks
                .iter()
                .filter(|t| t.status.column() == Some(*column))
                .map(|t| {
                    let tag = if t.status == TaskStatus::Blocked {
                        r#" <span class="badge blocked">Blocked</span>"#
                    } else {
                        ""
                    };
                    let mv = t
                        .status
                        .next()
                        .map(|n| {
                            format!(
                                r#"<button type="button" data-move="{}">Move to {}</button>"#,
                                n.slug(),
                                n.label()
                            )
                        })
                        .unwrap_or_default();
                    format!(
                        r#"<div class="card" data-task="{id}"><a href="/tasks/{id}">{key} {title}</a>{tag}<div class="muted">{who} · due {due}</div>{mv}</div>"#,
                        id = t.id,
                        key = escape(&t.key),
                        title = escape(&t.title),
                        who = escape(data.member_name(t.assignee)),
                        due = model::pretty(t.due),
                    )
                })
                .collect();
            format!(
                r#"<div class="column" id="col-{slug}"><h3>{label}</h3>{cards}</div>"#,
                slug = column.slug(),
                label = column.label(),
            )
        })
        .collect();
    let timeline = timeline(&data, &tasks);
    drop(data);

    let budget = match p.budget_hours {
        Some(b) if b > 0 => {
            let percent = (u64::from(logged) * 100 / (u64::from(b) * 60)).min(100);
            format!(
                r#"<p>Budget: {used} of {b} h <span class="meter" style="display:inline-block;width:10rem;vertical-align:middle" role="img" aria-label="{percent}% of budget used"><span style="width:{percent}%"></span></span></p>"#,
                used = model::hours(logged),
            )
        }
        _ => format!(
            "<p>Logged: {} <span class=\"muted\">(no budget)</span></p>",
            model::hours(logged)
        ),
    };
    let archived_note = if p.status == ProjectStatus::Archived {
        r#"<p class="notice">This project is archived. It is read-only for everyone but owners.</p>"#
    } else {
        ""
    };
    let content = format!(
        r#"<p class="crumbs"><a href="/projects">Projects</a> › {key}</p>
<div class="toolbar">
<h1 style="margin:0"><span class="dot" style="background:{colour}"></span><span id="project-name">{name}</span></h1>
<button type="button" id="rename">Rename</button>
<form id="rename-form" hidden>
<input id="rename-input" name="name" type="text" aria-label="Project name">
<button type="submit">Save name</button>
<button type="button" id="rename-close">Close</button>
<span id="rename-msg" class="error" role="alert"></span>
</form>
</div>
<p><span class="badge {slug}">{status}</span> · key {key} · created {created}</p>
{archived_note}
<p>{description}</p>
{budget}
<div class="toolbar">
<a class="button primary" href="/projects/{id}/tasks/new">New task</a>
<a class="button" href="/projects/{id}/edit">Edit project</a>
<a class="button" href="/projects/{id}/export">Export</a>
<form method="post" action="/projects/{id}/delete" style="margin-left:auto"><button type="submit" class="danger">Delete project</button></form>
</div>
<div role="tablist" aria-label="Task views">
<button type="button" role="tab" data-tab="list" aria-selected="true" aria-controls="panel-list">List</button>
<button type="button" role="tab" data-tab="board" aria-selected="false" aria-controls="panel-board">Board</button>
<button type="button" role="tab" data-tab="timeline" aria-selected="false" aria-controls="panel-timeline">Timeline</button>
</div>
<section id="panel-list" role="tabpanel">
<div class="toolbar">
<button type="button" id="filters-toggle" aria-expanded="false" aria-controls="filters">Filters</button>
<span id="filter-summary" class="muted"></span>
</div>
<div id="filters" class="card" hidden>
<label for="filter-status">Status</label>
<select id="filter-status"><option value="open">Open tasks</option><option value="all">All tasks</option>{statuses}</select>
<label for="filter-assignee">Assignee</label>
<select id="filter-assignee"><option value="all">Anyone</option>{assignees}</select>
<label for="filter-text">Title contains</label>
<input id="filter-text" type="text">
<p><button type="button" id="clear-filters">Clear filters</button></p>
</div>
<table><thead><tr><th>Task</th><th>Assignee</th><th>Due</th><th>Estimate</th><th>Status</th></tr></thead>
<tbody id="task-rows">{rows}</tbody></table>
<p id="no-match" class="muted" hidden>No tasks match the filters.</p>
</section>
<section id="panel-board" role="tabpanel" hidden>
<div class="board">{columns}</div>
</section>
<section id="panel-timeline" role="tabpanel" hidden>
{timeline}
</section>"#,
        key = escape(&p.key),
        colour = p.colour,
        name = escape(&p.name),
        slug = p.status.slug(),
        status = p.status.label(),
        created = model::pretty(p.created),
        description = escape(&p.description),
        id = p.id,
    );
    let script = format!(
        "{}\n{}",
        scripts::data("PROJECT", &json!({ "id": p.id })),
        with_fault(DETAIL_SCRIPT, T08_UNCAUGHT_BOARD_FILTER)
    );
    page(&p.name, Nav::Projects, &content, &script, flash(&query)).into_response()
}

/// Bars from each task's creation-ish start (due minus estimate in working days) to its
/// due date, drawn with divs.
fn timeline(data: &Tracker, tasks: &[model::Task]) -> String {
    let open: Vec<_> = tasks
        .iter()
        .filter(|t| t.status != TaskStatus::Archived)
        .collect();
    let Some(first) = open.iter().map(|t| t.due).min() else {
        return r#"<p class="muted">No tasks to show yet.</p>"#.to_owned();
    };
    let last = open.iter().map(|t| t.due).max().unwrap_or(first);
    let start = first - 7;
    let span = (last - start).max(1);
    let bars: String = open
        .iter()
        .map(|t| {
            let length = i64::from(t.estimate_halves / 16 + 2);
            let from = (t.due - length).max(start);
            let left = (from - start) * 90 / span;
            let width = ((t.due - from) * 90 / span).max(4);
            let colour = data.project(t.project).map_or("#888", |p| p.colour);
            format!(
                r#"<div class="bar" style="margin-left:{left}%;width:{width}%;background:{colour}" title="{key} due {due}">{key}</div>"#,
                key = escape(&t.key),
                due = model::pretty(t.due),
            )
        })
        .collect();
    format!(
        r#"<p class="muted">{} to {}</p><div class="bars timeline">{bars}</div>"#,
        model::pretty(start),
        model::pretty(last)
    )
}

fn edit_page(id: u32, values: &ProjectForm, problems: &Problems) -> Html<String> {
    let statuses: String = ProjectStatus::ALL
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
        r#"<p class="crumbs"><a href="/projects">Projects</a> › <a href="/projects/{id}">{key}</a> › Edit</p>
<h1>Edit project</h1>
{summary}
<form method="post" action="/projects/{id}/edit" class="card">
<label for="name">Project name</label>
<input id="name" name="name" type="text" required maxlength="80" value="{name}">{e_name}
<p class="muted">Key: {key} (keys cannot change once tasks use them)</p>
<label for="description">Description</label>
<textarea id="description" name="description" rows="3">{description}</textarea>{e_description}
<label for="status">Status</label>
<select id="status" name="status">{statuses}</select>{e_status}
<label for="budget">Budget in hours</label>
<input id="budget" name="budget" type="number" min="1" max="10000" value="{budget}">{e_budget}
<p><button type="submit" class="primary">Save changes</button> <a href="/projects/{id}">Back to project</a></p>
</form>"#,
        summary = problems.summary(),
        key = escape(&values.key),
        name = escape(&values.name),
        description = escape(&values.description),
        budget = escape(&values.budget),
        e_name = problems.at("name"),
        e_description = problems.at("description"),
        e_status = problems.at("status"),
        e_budget = problems.at("budget"),
    );
    page("Edit project", Nav::Projects, &content, "", None)
}

pub(crate) async fn edit_form(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Response {
    let data = state.data();
    match project_or_gone(&data, &id) {
        Ok(p) => edit_page(p.id, &ProjectForm::of(&p), &Problems::default()).into_response(),
        Err(missing) => missing.into_response(),
    }
}

pub(crate) async fn update(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let mut values = ProjectForm::from_form(&FormData::parse(&body));
    let mut data = state.data();
    let p = match project_or_gone(&data, &id) {
        Ok(p) => p,
        Err(missing) => return missing.into_response(),
    };
    values.key = p.key.clone();
    let mut problems = Problems::default();
    let budget = values.check_common(&mut problems);
    let status = ProjectStatus::from_slug(&values.status);
    if status.is_none() {
        problems.add("status", "Please choose a status.");
    }
    let Some(status) = status.filter(|_| problems.is_empty()) else {
        drop(data);
        return edit_page(p.id, &values, &problems).into_response();
    };
    let today = model::today();
    if let Some(project) = data.project_mut(p.id) {
        project.name = values.name.clone();
        project.description = values.description;
        project.status = status;
        project.budget_hours = budget;
    }
    let text = if status != p.status {
        format!("set {} to {}", values.name, status.label())
    } else {
        format!("edited {}", values.name)
    };
    data.log(today, text, Some(format!("/projects/{}", p.id)));
    Redirect::to(&format!("/projects/{}?done=project-saved", p.id)).into_response()
}

const EXPORT_SCRIPT: &str = r#"<script>
document.getElementById('copy').addEventListener('click', function () {
  var text = document.getElementById('csv').textContent;
  var done = function () { toast('CSV copied to the clipboard.'); };
  var failed = function () { toast('Copying is not allowed here; select the text instead.'); };
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  } catch (_) {
    failed();
  }
});
</script>"#;

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The export reads archived projects from the archive store, which nothing ever writes
/// to: archiving through "Edit project" only flips the status (the seeded fault).
pub(crate) async fn export(State(state): State<TrackerState>, Path(id): Path<String>) -> Response {
    let data = state.data();
    let p = match project_or_gone(&data, &id) {
        Ok(p) => p,
        Err(missing) => return missing.into_response(),
    };
    if p.status == ProjectStatus::Archived {
        drop(data);
        return state.server_error(T13_500_EXPORT_ARCHIVED);
    }
    let mut csv = String::from("key,title,status,assignee,estimate,due,logged\n");
    for t in data.tasks_of(p.id) {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            csv_field(&t.key),
            csv_field(&t.title),
            t.status.label(),
            csv_field(data.member_name(t.assignee)),
            t.estimate(),
            model::iso(t.due),
            model::hours(t.logged_minutes()),
        ));
    }
    drop(data);
    let content = format!(
        r#"<p class="crumbs"><a href="/projects">Projects</a> › <a href="/projects/{id}">{key}</a> › Export</p>
<h1>Export {name}</h1>
<p class="muted">All tasks of the project as CSV, ready for a spreadsheet.</p>
<p><button type="button" id="copy">Copy CSV</button> <a href="/projects/{id}">Back to project</a></p>
<pre id="csv" class="card">{csv}</pre>"#,
        id = p.id,
        key = escape(&p.key),
        name = escape(&p.name),
        csv = escape(&csv),
    );
    page("Export", Nav::Projects, &content, EXPORT_SCRIPT, None).into_response()
}

/// Really deletes the project and its tasks.
pub(crate) async fn delete(State(state): State<TrackerState>, Path(id): Path<String>) -> Response {
    let mut data = state.data();
    let Some(id) = parse_id(&id).filter(|id| data.project(*id).is_some()) else {
        return Redirect::to("/projects").into_response();
    };
    let name = data.project(id).map(|p| p.name.clone()).unwrap_or_default();
    data.projects.retain(|p| p.id != id);
    data.tasks.retain(|t| t.project != id);
    data.log(model::today(), format!("deleted {name}"), None);
    Redirect::to("/projects?done=project-deleted").into_response()
}

/// The inline rename: answers JSON, 200 even when the name is refused.
pub(crate) async fn rename(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Json<serde_json::Value> {
    let form = FormData::parse(&body);
    let name = form.get("name");
    let mut data = state.data();
    let Some(project) = parse_id(&id).and_then(|id| data.project_mut(id)) else {
        return Json(json!({ "ok": false, "error": "This project no longer exists." }));
    };
    if name.is_empty() {
        return Json(json!({ "ok": false, "error": "The name can't be empty." }));
    }
    if name.chars().count() > 80 {
        return Json(json!({ "ok": false, "error": "Names can be at most 80 characters." }));
    }
    project.name = name.to_owned();
    let link = format!("/projects/{}", project.id);
    data.log(
        model::today(),
        format!("renamed a project to {name}"),
        Some(link),
    );
    Json(json!({ "ok": true, "name": name }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_when_needed() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
