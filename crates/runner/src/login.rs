//! Logging in before each episode and each replay: a saved session (cookies and local
//! storage, as Playwright's `storageState` files hold them), the steps of `curio.toml`'s
//! `[login]` (go to a page, type into fields, click), or just a login page, a user name
//! and a password (Curio finds the form itself), then a check that the session is on (an
//! element only a logged-in page shows). While exploring, a page without that element
//! means the session was lost: the run logs in again in a new episode.
//!
//! Every selector a user writes (steps, check) is matched by Chromium itself
//! ([`Tab::query_selector_all`]): any CSS it takes, the first visible match used.

use curio_browser::{BrowserError, Tab, UserAction};
use curio_page::{Action, ActionKind, Field, Form, Page, Target};
use curio_record::{Step, StepKind};
use regex::Regex;
use serde::Serialize;

/// How to log in to the app.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Login {
    /// A saved session, put in place before the steps.
    pub session: Option<SavedSession>,
    /// Steps by CSS selector (`locator` empty); `Goto` values are absolute URLs.
    pub steps: Vec<Step>,
    /// A selector that matches on every page while logged in (a "Log out" link, the
    /// user's name); checked after logging in and on every page explored. With a
    /// [`Credentials`] login and no check given, Curio derives one from the page after
    /// logging in (its log-out control).
    pub check: Option<String>,
    /// A login page and what to type there; Curio finds the form.
    pub credentials: Option<Credentials>,
}

/// The two-line login: the page with the login form, a user name and a password.
#[derive(Clone, PartialEq)]
pub struct Credentials {
    /// Absolute URL of the page with the login form.
    pub url: String,
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("url", &self.url)
            .field("username", &self.username)
            .field("password", &"…")
            .finish()
    }
}

impl Login {
    /// The steps as recorded with the run: values typed are left out (passwords).
    pub fn describe(&self) -> serde_json::Value {
        let steps: Vec<serde_json::Value> = self
            .steps
            .iter()
            .map(|s| match s.kind {
                StepKind::Goto => serde_json::json!({"goto": s.value}),
                kind => serde_json::json!({kind.as_str(): s.selector}),
            })
            .collect();
        serde_json::json!({
            "steps": steps,
            "check": self.check,
            "session": self.session.as_ref().map(|s| s.source.display().to_string()),
            "form": self.credentials.as_ref().map(|c| serde_json::json!({
                "url": c.url,
                "username": c.username,
            })),
        })
    }

    /// Whether the page `tab` shows has the logged-in check (true when there is no
    /// check, or when Chromium refuses it: [`log_in`] reports that first).
    pub(crate) async fn logged_in(&self, tab: &Tab) -> Result<bool, BrowserError> {
        let Some(check) = &self.check else {
            return Ok(true);
        };
        Ok(match tab.query_selector_all(check).await? {
            Ok(found) => !found.is_empty(),
            Err(_) => true,
        })
    }
}

/// Performs the login steps in `tab` and checks the result; the error says which step
/// failed, or that the check did not hold, and on which page. Returns the check in
/// force: the one given, else the one a two-line login derived from the page it led to
/// (its log-out control), else none.
pub(crate) async fn log_in(tab: &mut Tab, login: &Login) -> Result<Option<String>, LoginError> {
    if let Some(session) = &login.session {
        restore(tab, session).await?;
    }
    for (i, step) in login.steps.iter().enumerate() {
        let failed = |reason: String| LoginError::Step {
            step: i + 1,
            reason,
        };
        let outcome = match step.kind {
            StepKind::Goto => tab.goto(step.value.as_deref().unwrap_or_default()).await,
            _ => {
                let action = find(tab, step).await.map_err(failed)?;
                tab.perform(&action).await
            }
        };
        let outcome = outcome.map_err(|e: BrowserError| failed(e.to_string()))?;
        if let Some(reason) = outcome.navigation_error {
            return Err(failed(reason));
        }
    }
    let mut check = login.check.clone();
    if let Some(credentials) = &login.credentials {
        let derived = log_in_with(tab, credentials).await?;
        if check.is_none() {
            check = derived;
        }
    }
    let browser = |e: BrowserError| LoginError::Browser(e.to_string());
    // Without steps or form the tab shows no page yet: the start page is checked
    // instead.
    let logged_in_page = !login.steps.is_empty() || login.credentials.is_some();
    if let Some(selector) = check.as_ref().filter(|_| logged_in_page) {
        match tab.query_selector_all(selector).await.map_err(browser)? {
            Err(reason) => {
                return Err(LoginError::Selector {
                    what: "the logged-in check".into(),
                    selector: selector.clone(),
                    url: tab.url(),
                    reason,
                });
            }
            Ok(found) if found.is_empty() => {
                return Err(LoginError::NotLoggedIn {
                    check: selector.clone(),
                    url: tab.url(),
                });
            }
            Ok(_) => {}
        }
    }
    Ok(check)
}

/// The element a login step's selector names on the page `tab` shows: the first match
/// that the page model sees as visible and operable the way the step needs, else the
/// first match.
async fn find(tab: &Tab, step: &Step) -> Result<UserAction, String> {
    let capture = tab.snapshot().await.map_err(|e| e.to_string())?;
    let page = Page::from_snapshot(&capture.snapshot);
    let matches = tab
        .query_selector_all(&step.selector)
        .await
        .map_err(|e| e.to_string())?
        .map_err(|reason| {
            format!(
                "{:?} is not a CSS selector Chromium takes ({reason}), on {}",
                step.selector, page.url
            )
        })?;
    let kind = match step.kind {
        StepKind::Click => ActionKind::Click,
        StepKind::Fill => ActionKind::Fill,
        StepKind::Select => ActionKind::Select,
        StepKind::Check => ActionKind::Check,
        StepKind::Goto => return Err("a goto has no element".into()),
    };
    let visible = matches.iter().find_map(|id| {
        page.actions
            .iter()
            .find(|a| a.target.backend_node_id == *id && a.kind == kind)
            .or_else(|| {
                page.actions
                    .iter()
                    .find(|a| a.target.backend_node_id == *id)
            })
    });
    let target = match (visible, matches.first()) {
        (Some(a), _) => a.target.clone(),
        (None, Some(&id)) => Target {
            backend_node_id: id,
            frame: 0,
            selector: step.selector.clone(),
            locator: step.selector.clone(),
            rect: Default::default(),
        },
        (None, None) => {
            return Err(format!(
                "no element matches {} {:?} on {}",
                step.kind.as_str(),
                step.selector,
                page.url
            ));
        }
    };
    let value = step.value.clone().unwrap_or_default();
    Ok(match step.kind {
        StepKind::Fill => {
            let input_type = visible
                .and_then(|a| a.field.as_ref())
                .map_or_else(|| "text".to_string(), |f| f.input_type.clone());
            UserAction::Fill(target, value, input_type)
        }
        StepKind::Select => UserAction::Select(target, value),
        StepKind::Check => UserAction::Check(target),
        _ => UserAction::Click(target),
    })
}

/// The login form of a page: the form with a visible password field, the field where
/// the user name goes (the last text, email or telephone field before the password),
/// and what submits it.
struct LoginForm<'a> {
    username: Option<&'a Field>,
    password: &'a Field,
    submit: Option<&'a Target>,
}

fn login_form(page: &Page) -> Option<LoginForm<'_>> {
    page.forms.iter().find_map(|form: &Form| {
        let at = form
            .fields
            .iter()
            .position(|f| f.input_type == "password")?;
        let username = form.fields[..at]
            .iter()
            .rev()
            .find(|f| matches!(f.input_type.as_str(), "text" | "email" | "tel") && !f.readonly);
        Some(LoginForm {
            username,
            password: &form.fields[at],
            submit: form.submit.as_ref(),
        })
    })
}

/// Words of a control that ends the session.
const LOG_OUT: &str =
    r"(?i)\b(log ?out|sign ?out|log ?off|sign ?off|abmelden|d[ée]connexion|cerrar sesi[oó]n)\b";

/// Logs in through the login form of `credentials.url`, and returns a check derived
/// from the page it leads to: a selector of its log-out control, when it has one.
async fn log_in_with(
    tab: &mut Tab,
    credentials: &Credentials,
) -> Result<Option<String>, LoginError> {
    let failed = |reason: String| LoginError::Form {
        url: credentials.url.clone(),
        reason,
    };
    let outcome = tab
        .goto(&credentials.url)
        .await
        .map_err(|e| failed(e.to_string()))?;
    if let Some(reason) = outcome.navigation_error {
        return Err(failed(reason));
    }
    let capture = tab.snapshot().await.map_err(|e| failed(e.to_string()))?;
    let page = Page::from_snapshot(&capture.snapshot);
    let form = login_form(&page).ok_or_else(|| {
        failed(format!(
            "{} shows no form with a visible password field",
            page.url
        ))
    })?;
    let type_into = |f: &Field, value: &str| {
        UserAction::Fill(f.target.clone(), value.to_string(), f.input_type.clone())
    };
    let mut actions = Vec::new();
    match form.username {
        Some(f) => actions.push(type_into(f, &credentials.username)),
        None if !credentials.username.is_empty() => {
            return Err(failed(format!(
                "the login form of {} has no field for the user name before its password",
                page.url
            )));
        }
        None => {}
    }
    actions.push(type_into(form.password, &credentials.password));
    let submit = form.submit.cloned().ok_or_else(|| {
        failed(format!(
            "the login form of {} has no button that submits it: give [login] steps",
            page.url
        ))
    })?;
    for action in &actions {
        tab.perform_edit(action)
            .await
            .map_err(|e| failed(e.to_string()))?;
    }
    let outcome = tab
        .perform(&UserAction::Click(submit))
        .await
        .map_err(|e| failed(e.to_string()))?;
    if let Some(reason) = outcome.navigation_error {
        return Err(failed(reason));
    }
    let capture = tab.snapshot().await.map_err(|e| failed(e.to_string()))?;
    let after = Page::from_snapshot(&capture.snapshot);
    if login_form(&after).is_some() && after.normalized_url == page.normalized_url {
        return Err(LoginError::Refused {
            url: credentials.url.clone(),
            username: credentials.username.clone(),
        });
    }
    Ok(log_out_selector(&after))
}

/// A selector for the page's log-out control that other pages of the app match too:
/// a link by the path it leads to, a form's button by the path the form posts to; else
/// its own selector.
pub(crate) fn log_out_selector(page: &Page) -> Option<String> {
    let words = Regex::new(LOG_OUT).expect("a valid pattern");
    let path = |url: &str| {
        url::Url::parse(url)
            .ok()
            .map(|u| u.path().to_string())
            .filter(|p| p.len() > 1)
    };
    let is_log_out = |a: &&Action| {
        words.is_match(&a.text)
            || words.is_match(&a.target.locator)
            || a.href.as_deref().is_some_and(|h| {
                words.is_match(&h.replace(['/', '-', '_', '?', '=', '&', '@', '.'], " "))
            })
    };
    let control = page
        .actions
        .iter()
        .filter(|a| a.kind == ActionKind::Click)
        .find(is_log_out)?;
    // A link by what says it logs out: its query (`?@action=logout`) when the words
    // are there, else its path.
    if let Some(url) = control
        .href
        .as_deref()
        .and_then(|h| url::Url::parse(h).ok())
    {
        // Only the query's part that says it (`@action=logout`): the rest (the page's
        // own columns and sorting) differs from page to page.
        let part = url.query().and_then(|q| {
            q.split('&')
                .find(|pair| words.is_match(&pair.replace(['=', '-', '_', '@', '+'], " ")))
        });
        if let Some(part) = part {
            return Some(format!("a[href*={}]", css_string(part)));
        }
        if let Some(p) = path(url.as_str()) {
            return Some(format!("a[href$={}]", css_string(&p)));
        }
    }
    let form = page.forms.iter().find(|f| {
        f.submit
            .as_ref()
            .is_some_and(|s| s.backend_node_id == control.target.backend_node_id)
    });
    if let Some(p) = form.and_then(|f| f.action.as_deref()).and_then(path) {
        return Some(format!("form[action$={}]", css_string(&p)));
    }
    Some(control.target.selector.clone())
}

/// `text` as a quoted CSS string.
fn css_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Cookies and local storage of a logged-in browser, read from a Playwright
/// `storageState` file.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedSession {
    /// The file it was read from.
    pub source: std::path::PathBuf,
    /// As CDP's `Network.setCookies` takes them.
    pub cookies: Vec<serde_json::Value>,
    /// Per origin, its `localStorage` entries.
    pub local_storage: Vec<(String, Vec<(String, String)>)>,
}

impl SavedSession {
    /// Reads a Playwright `storageState` JSON text: `{"cookies": [{name, value, domain,
    /// path, expires, httpOnly, secure, sameSite}], "origins": [{origin, localStorage:
    /// [{name, value}]}]}`.
    pub fn from_playwright(source: &std::path::Path, text: &str) -> Result<SavedSession, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut cookies = Vec::new();
        for c in v["cookies"].as_array().into_iter().flatten() {
            let (Some(name), Some(value)) = (c["name"].as_str(), c["value"].as_str()) else {
                return Err(format!("a cookie without name or value: {c}"));
            };
            let mut cookie = serde_json::json!({"name": name, "value": value});
            for key in ["domain", "path", "httpOnly", "secure", "sameSite", "url"] {
                if !c[key].is_null() {
                    cookie[key] = c[key].clone();
                }
            }
            // Playwright writes -1 for a session cookie; CDP wants no expiry then.
            if let Some(expires) = c["expires"].as_f64().filter(|e| *e > 0.0) {
                cookie["expires"] = expires.into();
            }
            cookies.push(cookie);
        }
        let mut local_storage = Vec::new();
        for o in v["origins"].as_array().into_iter().flatten() {
            let origin = o["origin"]
                .as_str()
                .ok_or_else(|| format!("an origin without its URL: {o}"))?;
            let entries = o["localStorage"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| {
                    Some((
                        e["name"].as_str()?.to_string(),
                        e["value"].as_str()?.to_string(),
                    ))
                })
                .collect();
            local_storage.push((origin.to_string(), entries));
        }
        if cookies.is_empty() && local_storage.is_empty() {
            return Err("it has no cookies and no origins".to_string());
        }
        Ok(SavedSession {
            source: source.to_owned(),
            cookies,
            local_storage,
        })
    }
}

/// Puts a saved session in place: its cookies in the tab's context, and its local
/// storage, origin by origin (each visited once to reach its storage).
async fn restore(tab: &mut Tab, session: &SavedSession) -> Result<(), LoginError> {
    let failed = |reason: String| LoginError::Session {
        file: session.source.display().to_string(),
        reason,
    };
    if !session.cookies.is_empty() {
        tab.set_cookies(&session.cookies)
            .await
            .map_err(|e| failed(e.to_string()))?;
    }
    for (origin, entries) in &session.local_storage {
        tab.goto(origin).await.map_err(|e| failed(e.to_string()))?;
        let entries = serde_json::to_string(entries).unwrap_or_default();
        tab.evaluate(&format!(
            "(() => {{ for (const [k, v] of {entries}) localStorage.setItem(k, v); }})()"
        ))
        .await
        .map_err(|e| failed(format!("{origin}: {e}")))?;
    }
    Ok(())
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum LoginError {
    #[error("the saved session {file} could not be restored: {reason}")]
    Session { file: String, reason: String },
    #[error("login step {step} failed: {reason}")]
    Step { step: usize, reason: String },
    #[error("after logging in, {url} has no element matching the logged-in check {check:?}")]
    NotLoggedIn { check: String, url: String },
    #[error("logging in on {url} failed: {reason}")]
    Form { url: String, reason: String },
    #[error(
        "the login form of {url} came back after logging in as {username:?}: is the password right?"
    )]
    Refused { url: String, username: String },
    #[error("{what} {selector:?} is not a CSS selector Chromium takes ({reason}), on {url}")]
    Selector {
        what: String,
        selector: String,
        url: String,
        reason: String,
    },
    #[error("browser failure while logging in: {0}")]
    Browser(String),
}

/// Which pages of the app may be explored: URLs that match an `include` pattern (any
/// URL when there are none) and no `exclude` pattern. A move that lands elsewhere ends
/// the episode, as leaving the app's origins does.
#[derive(Debug, Clone, Default)]
pub struct PageFilter {
    pub include: Vec<Regex>,
    pub exclude: Vec<Regex>,
}

impl PageFilter {
    pub fn allows(&self, url: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|r| r.is_match(url)))
            && !self.exclude.iter().any(|r| r.is_match(url))
    }

    pub fn describe(&self) -> PageFilterText {
        let texts = |v: &[Regex]| v.iter().map(|r| r.as_str().to_string()).collect();
        PageFilterText {
            include: texts(&self.include),
            exclude: texts(&self.exclude),
        }
    }
}

/// A [`PageFilter`] as recorded with the run.
#[derive(Debug, Clone, Serialize)]
pub struct PageFilterText {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_then_exclude() {
        let filter = PageFilter {
            include: vec![Regex::new("/app/").unwrap()],
            exclude: vec![Regex::new("/app/admin").unwrap()],
        };
        assert!(filter.allows("http://127.0.0.1/app/projects"));
        assert!(!filter.allows("http://127.0.0.1/app/admin/users"));
        assert!(!filter.allows("http://127.0.0.1/blog"));
        assert!(PageFilter::default().allows("http://127.0.0.1/anything"));
    }
}
