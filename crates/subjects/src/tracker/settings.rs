//! Settings: profile (with the device's display timezone), notifications (with "Send
//! test notification"), the team (invitations, roles, removal) and the advanced page with
//! "Reset demo data".

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::json;

use super::layout::{self, Nav, Problems, flash, page, settings_nav};
use super::model::{self, Digest, MAX_MEMBERS, ME, Role, Tracker};
use super::scripts::{self, with_fault};
use super::{
    FormData, T12_REJECTION_INVITE_AVATAR, T15_UNCAUGHT_TEST_NOTIFICATION, TrackerState,
    looks_like_email, parse_id,
};
use crate::html::escape;

/// The display timezones the profile offers, as IANA names and labels.
pub(crate) const ZONES: [(&str, &str); 6] = [
    ("UTC", "UTC"),
    ("Europe/Berlin", "Berlin (UTC+01:00)"),
    ("America/New_York", "New York (UTC−05:00)"),
    ("Asia/Kolkata", "Kolkata (UTC+05:30)"),
    ("Asia/Kathmandu", "Kathmandu (UTC+05:45)"),
    ("Australia/Sydney", "Sydney (UTC+10:00)"),
];

pub(crate) async fn index() -> Redirect {
    Redirect::to("/settings/profile")
}

#[derive(Debug, Default)]
struct ProfileForm {
    name: String,
    email: String,
    title: String,
}

const PROFILE_SCRIPT: &str = r#"<script>
(function () {
  var zone = document.getElementById('display-timezone');
  zone.value = trackerZone();
  if (!zone.value) zone.value = 'UTC';
  zone.addEventListener('change', function () {
    try { localStorage.setItem('tracker-tz', zone.value); } catch (_) {}
    toast('Display timezone saved on this device.');
  });
})();
</script>"#;

fn profile_page(values: &ProfileForm, problems: &Problems, toast: Option<&str>) -> Html<String> {
    let zones: String = ZONES
        .iter()
        .map(|(value, label)| format!(r#"<option value="{value}">{label}</option>"#))
        .collect();
    let content = format!(
        r#"<h1>Settings</h1>
{nav}
<form method="post" action="/settings/profile" class="card">
<h2>Profile</h2>
{summary}
<label for="name">Full name</label>
<input id="name" name="name" type="text" autocomplete="name" value="{name}">{e_name}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" value="{email}">{e_email}
<label for="title">Job title</label>
<input id="title" name="title" type="text" value="{title}">{e_title}
<p><button type="submit" class="primary">Save profile</button></p>
</form>
<section class="card">
<h2>This device</h2>
<label for="display-timezone">Display timezone</label>
<select id="display-timezone">{zones}</select>
<p class="muted">Used for the clock and for reports on this device. Saved as soon as you pick one.</p>
</section>"#,
        nav = settings_nav("/settings/profile"),
        summary = problems.summary(),
        name = escape(&values.name),
        email = escape(&values.email),
        title = escape(&values.title),
        e_name = problems.at("name"),
        e_email = problems.at("email"),
        e_title = problems.at("title"),
    );
    page("Profile", Nav::Settings, &content, PROFILE_SCRIPT, toast)
}

pub(crate) async fn profile(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let values = {
        let data = state.data();
        let me = data.me();
        ProfileForm {
            name: me.name.clone(),
            email: me.email.clone().unwrap_or_default(),
            title: me.title.clone(),
        }
    };
    profile_page(&values, &Problems::default(), flash(&query))
}

pub(crate) async fn save_profile(State(state): State<TrackerState>, body: Bytes) -> Response {
    let form = FormData::parse(&body);
    let values = ProfileForm {
        name: form.get("name").to_owned(),
        email: form.get("email").to_owned(),
        title: form.get("title").to_owned(),
    };
    let mut problems = Problems::default();
    if values.name.is_empty() {
        problems.add("name", "Please enter your name.");
    } else if values.name.chars().count() > 80 {
        problems.add("name", "Names can be at most 80 characters.");
    }
    if !looks_like_email(&values.email) {
        problems.add("email", "Please enter a valid email address.");
    }
    if values.title.chars().count() > 80 {
        problems.add("title", "Job titles can be at most 80 characters.");
    }
    if !problems.is_empty() {
        return profile_page(&values, &problems, None).into_response();
    }
    let mut data = state.data();
    if let Some(me) = data.members.iter_mut().find(|m| m.id == ME) {
        me.name = values.name;
        me.email = Some(values.email);
        me.title = values.title;
    }
    Redirect::to("/settings/profile?done=profile").into_response()
}

/// "Send test notification" names the first ticked channel in its message; with none
/// ticked there is no first one and it throws (the seeded fault).
pub(super) const NOTIFICATIONS_SCRIPT: &str = r#"<script>
document.getElementById('send-test').addEventListener('click', function () {
  var channels = Array.prototype.slice.call(document.querySelectorAll('input[name=channel]:checked'))
    .map(function (box) { return { name: box.value, label: box.getAttribute('data-label') }; });
  if (channels.length === 0) curioTruth('%FAULT%');
  var first = channels[0].label;
  fetch('/api/notifications/test', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: channels.map(function (c) { return 'channel=' + encodeURIComponent(c.name); }).join('&')
  })
    .then(function (r) { return r.json(); })
    .then(function (d) {
      toast('Test notification sent via ' + first + (d.sent > 1 ? ' and ' + (d.sent - 1) + ' more channel(s).' : '.'));
    })
    .catch(function () { toast('Could not send a test notification, please try again.'); });
});
</script>"#;

pub(crate) async fn notifications(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let prefs = state.data().notifications;
    let digests: String = Digest::ALL
        .iter()
        .map(|d| {
            format!(
                r#"<option value="{}"{}>{}</option>"#,
                d.slug(),
                layout::selected(d.slug(), prefs.digest.slug()),
                d.label()
            )
        })
        .collect();
    let content = format!(
        r#"<h1>Settings</h1>
{nav}
<form method="post" action="/settings/notifications" class="card">
<h2>Notifications</h2>
<fieldset>
<legend>Notify me through</legend>
<input type="checkbox" id="ch-email" name="channel" value="email" data-label="Email"{email}><label class="inline" for="ch-email">Email</label>
<input type="checkbox" id="ch-slack" name="channel" value="slack" data-label="Slack"{slack}><label class="inline" for="ch-slack">Slack</label>
<input type="checkbox" id="ch-push" name="channel" value="push" data-label="Push"{push}><label class="inline" for="ch-push">Push</label>
</fieldset>
<label for="digest">Summary digest</label>
<select id="digest" name="digest">{digests}</select>
<p><button type="submit" class="primary">Save preferences</button>
<button type="button" id="send-test">Send test notification</button></p>
</form>"#,
        nav = settings_nav("/settings/notifications"),
        email = layout::checked(prefs.email),
        slack = layout::checked(prefs.slack),
        push = layout::checked(prefs.push),
    );
    let script = with_fault(NOTIFICATIONS_SCRIPT, T15_UNCAUGHT_TEST_NOTIFICATION);
    page(
        "Notifications",
        Nav::Settings,
        &content,
        &script,
        flash(&query),
    )
}

pub(crate) async fn save_notifications(State(state): State<TrackerState>, body: Bytes) -> Redirect {
    let form = FormData::parse(&body);
    let mut data = state.data();
    let prefs = &mut data.notifications;
    prefs.email = form.has("channel", "email");
    prefs.slack = form.has("channel", "slack");
    prefs.push = form.has("channel", "push");
    if let Some(digest) = Digest::from_slug(form.get("digest")) {
        prefs.digest = digest;
    }
    Redirect::to("/settings/notifications?done=notifications")
}

pub(crate) async fn test_notification(body: Bytes) -> Json<serde_json::Value> {
    let form = FormData::parse(&body);
    let sent = ["email", "slack", "push"]
        .iter()
        .filter(|c| form.has("channel", c))
        .count();
    Json(json!({ "sent": sent }))
}

#[derive(Debug, Default)]
struct InviteForm {
    name: String,
    email: String,
    role: String,
}

/// The team page's script: the invite dialog, role changes that save at once, and,
/// right after an invitation, loading the new member's avatar. Invited members have
/// none yet; the answer is `{"avatar": null}` and the promise rejects with nobody to
/// catch it (the seeded fault).
pub(super) const TEAM_SCRIPT: &str = r#"<script>
(function () {
  var modal = document.getElementById('invite-modal');
  document.getElementById('open-invite').addEventListener('click', function () {
    modal.hidden = false;
    document.getElementById('invite-name').focus();
  });
  document.getElementById('close-invite').addEventListener('click', function () { modal.hidden = true; });

  document.querySelectorAll('select[data-member]').forEach(function (select) {
    select.addEventListener('change', function () {
      fetch('/api/members/' + select.getAttribute('data-member') + '/role', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'role=' + encodeURIComponent(select.value)
      })
        .then(function (r) { return r.json(); })
        .then(function (d) { toast(d.ok ? d.message : d.error); })
        .catch(function () { toast('Could not change the role, please try again.'); });
    });
  });

  if (TEAM.invited) {
    %INVITE%
    fetch('/api/members/' + TEAM.invited + '/avatar')
      .then(function (r) { return r.json(); })
      .then(function (d) {
        var avatar = document.getElementById('avatar-' + TEAM.invited);
        avatar.style.backgroundImage = 'url(' + d.avatar.url + ')';
      });
  }
})();
</script>"#;

fn team_page(
    data: &Tracker,
    invite: &InviteForm,
    problems: &Problems,
    invited: Option<u32>,
    toast: Option<&str>,
) -> Html<String> {
    let rows: String = data
        .members
        .iter()
        .map(|m| {
            let role = if m.role == Role::Owner {
                "Owner".to_owned()
            } else {
                let options: String = Role::ASSIGNABLE
                    .iter()
                    .map(|r| {
                        format!(
                            r#"<option value="{}"{}>{}</option>"#,
                            r.slug(),
                            layout::selected(r.slug(), m.role.slug()),
                            r.label()
                        )
                    })
                    .collect();
                format!(
                    r#"<select data-member="{id}" aria-label="Role of {name}">{options}</select>"#,
                    id = m.id,
                    name = escape(&m.name),
                )
            };
            let remove = if m.id == ME {
                String::new()
            } else {
                format!(
                    r#"<form method="post" action="/settings/team/{}/remove"><button type="submit" aria-label="Remove {}">Remove</button></form>"#,
                    m.id,
                    escape(&m.name)
                )
            };
            let status = if m.pending {
                "Invitation pending"
            } else {
                "Active"
            };
            format!(
                r#"<tr><td><span class="avatar" id="avatar-{id}" style="background-color:{colour}">{initials}</span> {name}</td><td>{email}</td><td>{title}</td><td>{role}</td><td>{status}</td><td>{remove}</td></tr>"#,
                id = m.id,
                colour = m.colour,
                initials = escape(&m.initials()),
                name = escape(&m.name),
                email = m
                    .email
                    .as_deref()
                    .map_or_else(|| r#"<span class="muted">no email</span>"#.to_owned(), escape),
                title = escape(&m.title),
            )
        })
        .collect();
    let roles: String = std::iter::once(format!(
        r#"<option value=""{}>Choose a role…</option>"#,
        layout::selected("", &invite.role)
    ))
    .chain(Role::ASSIGNABLE.iter().map(|r| {
        format!(
            r#"<option value="{}"{}>{}</option>"#,
            r.slug(),
            layout::selected(r.slug(), &invite.role),
            r.label()
        )
    }))
    .collect();
    let seats = data.billing.seats as usize;
    let used = data.members.len();
    let percent = (used * 100).checked_div(seats).unwrap_or(100).min(100);
    let over = if used > seats {
        r#" <span class="error">More members than seats: add seats in Billing.</span>"#
    } else {
        ""
    };
    let modal_hidden = if problems.is_empty() { " hidden" } else { "" };
    let content = format!(
        r#"<h1>Settings</h1>
{nav}
<div class="toolbar">
<h2 style="margin:0">Team</h2>
<button type="button" id="open-invite" class="primary">Invite member</button>
</div>
<p>{used} of {seats} seats used{over} <span class="meter" style="display:inline-block;width:10rem;vertical-align:middle" role="img" aria-label="{percent}% of seats used"><span style="width:{percent}%"></span></span> <a href="/billing">Manage seats</a></p>
<table><tr><th>Name</th><th>Email</th><th>Title</th><th>Role</th><th>Status</th><th></th></tr>{rows}</table>
<div class="modal" id="invite-modal"{modal_hidden}>
<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="invite-title">
<h2 id="invite-title">Invite a team member</h2>
{summary}
<form method="post" action="/settings/team/invite">
<label for="invite-name">Name</label>
<input id="invite-name" name="name" type="text" value="{iname}">{e_name}
<label for="invite-email">Email</label>
<input id="invite-email" name="email" type="email" value="{iemail}">{e_email}
<label for="invite-role">Role</label>
<select id="invite-role" name="role">{roles}</select>{e_role}
<p><button type="submit" class="primary">Send invite</button> <button type="button" id="close-invite">Close</button></p>
</form>
</div>
</div>"#,
        nav = settings_nav("/settings/team"),
        summary = problems.summary(),
        iname = escape(&invite.name),
        iemail = escape(&invite.email),
        e_name = problems.at("name"),
        e_email = problems.at("email"),
        e_role = problems.at("role"),
    );
    let avatar_missing = invited
        .and_then(|id| data.member(id))
        .is_some_and(|m| m.pending);
    let invite_beacon = if avatar_missing {
        with_fault("curioTruth('%FAULT%');", T12_REJECTION_INVITE_AVATAR)
    } else {
        String::new()
    };
    let script = format!(
        "{}\n{}",
        scripts::data(
            "TEAM",
            &json!({ "invited": invited.filter(|id| data.member(*id).is_some()) })
        ),
        TEAM_SCRIPT.replace("%INVITE%", &invite_beacon)
    );
    page("Team", Nav::Team, &content, &script, toast)
}

pub(crate) async fn team(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let data = state.data();
    let invited = parse_id(query.get("invited"));
    let toast = match invited.and_then(|id| data.member(id)) {
        Some(_) => Some("Invitation sent."),
        None => flash(&query),
    };
    team_page(
        &data,
        &InviteForm::default(),
        &Problems::default(),
        invited,
        toast,
    )
}

pub(crate) async fn invite(State(state): State<TrackerState>, body: Bytes) -> Response {
    let form = FormData::parse(&body);
    let values = InviteForm {
        name: form.get("name").to_owned(),
        email: form.get("email").to_owned(),
        role: form.get("role").to_owned(),
    };
    let mut problems = Problems::default();
    if values.name.is_empty() {
        problems.add("name", "Please enter the person's name.");
    } else if values.name.chars().count() > 80 {
        problems.add("name", "Names can be at most 80 characters.");
    }
    if !looks_like_email(&values.email) {
        problems.add("email", "Please enter a valid email address.");
    }
    let role = Role::from_assignable_slug(&values.role);
    if role.is_none() {
        problems.add("role", "Please choose a role.");
    }
    let mut data = state.data();
    let Some(role) = role.filter(|_| problems.is_empty()) else {
        return team_page(&data, &values, &problems, None, None).into_response();
    };
    let name = values.name.clone();
    let Some(id) = data.add_member(values.name, values.email, role) else {
        problems.add(
            "name",
            format!("Your workspace has {MAX_MEMBERS} members, the most it can hold."),
        );
        let values = InviteForm {
            name,
            ..InviteForm::default()
        };
        return team_page(&data, &values, &problems, None, None).into_response();
    };
    data.log(
        model::today(),
        format!("invited {name} as {}", role.label()),
        Some("/settings/team".to_owned()),
    );
    Redirect::to(&format!("/settings/team?invited={id}")).into_response()
}

/// Really removes a member; their tasks keep them as "Former member".
pub(crate) async fn remove_member(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Redirect {
    let mut data = state.data();
    if let Some(id) = parse_id(&id).filter(|id| *id != ME)
        && let Some(name) = data.member(id).map(|m| m.name.clone())
    {
        data.members.retain(|m| m.id != id);
        data.log(
            model::today(),
            format!("removed {name} from the team"),
            None,
        );
    }
    Redirect::to("/settings/team?done=member-removed")
}

pub(crate) async fn change_role(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Json<serde_json::Value> {
    let form = FormData::parse(&body);
    let mut data = state.data();
    let Some(member) = parse_id(&id).and_then(|id| data.members.iter_mut().find(|m| m.id == id))
    else {
        return Json(json!({ "ok": false, "error": "This member is no longer on the team." }));
    };
    let Some(role) = Role::from_assignable_slug(form.get("role")) else {
        return Json(json!({ "ok": false, "error": "Please choose a role." }));
    };
    if member.role == Role::Owner {
        return Json(json!({ "ok": false, "error": "The owner's role cannot change." }));
    }
    member.role = role;
    Json(json!({ "ok": true, "message": format!("{} is now {}.", member.name, role.label()) }))
}

/// A member's avatar: invited members have none yet.
pub(crate) async fn avatar(
    State(state): State<TrackerState>,
    Path(id): Path<String>,
) -> Json<serde_json::Value> {
    let data = state.data();
    match parse_id(&id).and_then(|id| data.member(id)) {
        Some(m) if !m.pending => Json(json!({
            "avatar": { "initials": m.initials(), "colour": m.colour, "url": "" }
        })),
        _ => Json(json!({ "avatar": null })),
    }
}

const ADVANCED_SCRIPT: &str = r#"<script>
(function () {
  var week = document.getElementById('week-start');
  try { week.value = localStorage.getItem('tracker-week-start') || 'monday'; } catch (_) {}
  week.addEventListener('change', function () {
    try { localStorage.setItem('tracker-week-start', week.value); } catch (_) {}
    toast('Saved on this device.');
  });
})();
</script>"#;

pub(crate) async fn advanced(RawQuery(query): RawQuery) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let content = format!(
        r#"<h1>Settings</h1>
{nav}
<section class="card">
<h2>Preferences</h2>
<label for="week-start">Weeks start on</label>
<select id="week-start"><option value="monday">Monday</option><option value="sunday">Sunday</option></select>
</section>
<section class="danger-zone">
<h2>Danger zone</h2>
<p>Put the demo workspace back as it was: projects, tasks, team and billing. Everything created since is lost.</p>
<form method="post" action="/settings/reset"><button type="submit" class="danger">Reset demo data</button></form>
</section>"#,
        nav = settings_nav("/settings/advanced"),
    );
    page(
        "Advanced settings",
        Nav::Settings,
        &content,
        ADVANCED_SCRIPT,
        flash(&query),
    )
}

pub(crate) async fn reset(State(state): State<TrackerState>) -> Redirect {
    state.data().reset(model::today());
    Redirect::to("/settings/advanced?done=reset")
}
