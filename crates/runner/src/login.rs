//! Logging in before each episode and each replay: a saved session (cookies and local
//! storage, as Playwright's `storageState` files hold them) and the steps of
//! `curio.toml`'s `[login]` (go to a page, type into fields, click), then a check that
//! the session is on (an element only a logged-in page shows). While exploring, a page without that
//! element means the session was lost: the run logs in again in a new episode.

use curio_browser::{BrowserError, Tab};
use curio_page::{Page, query_selector_all};
use curio_record::{Step, StepKind};
use regex::Regex;
use serde::Serialize;

use crate::replay::user_action;

/// How to log in to the app.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Login {
    /// A saved session, put in place before the steps.
    pub session: Option<SavedSession>,
    /// Steps by CSS selector (`locator` empty); `Goto` values are absolute URLs.
    pub steps: Vec<Step>,
    /// A selector that matches on every page while logged in (a "Log out" link, the
    /// user's name); checked after logging in and on every page explored.
    pub check: Option<String>,
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
        })
    }

    /// Whether the page captured in `snapshot` shows the logged-in check (true when
    /// there is no check).
    pub(crate) fn logged_in(&self, snapshot: &curio_page::DomSnapshot) -> bool {
        self.check
            .as_ref()
            .is_none_or(|sel| !query_selector_all(snapshot, 0, sel).is_empty())
    }
}

/// Performs the login steps in `tab` and checks the result; the error says which step
/// failed, or that the check did not hold, and on which page.
pub(crate) async fn log_in(tab: &mut Tab, login: &Login) -> Result<(), LoginError> {
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
                let capture = tab.snapshot().await.map_err(|e| failed(e.to_string()))?;
                let page = Page::from_snapshot(&capture.snapshot);
                let action = user_action(&page, step).ok_or_else(|| {
                    failed(format!(
                        "no element for {} {:?} on {}",
                        step.kind.as_str(),
                        step.selector,
                        page.url
                    ))
                })?;
                tab.perform(&action).await
            }
        };
        let outcome = outcome.map_err(|e: BrowserError| failed(e.to_string()))?;
        if let Some(reason) = outcome.navigation_error {
            return Err(failed(reason));
        }
    }
    // Without steps the tab shows no page yet: the start page is checked instead.
    if let Some(check) = login.check.as_ref().filter(|_| !login.steps.is_empty()) {
        let capture = tab.snapshot().await.map_err(|e| LoginError::Step {
            step: login.steps.len(),
            reason: e.to_string(),
        })?;
        if !login.logged_in(&capture.snapshot) {
            return Err(LoginError::NotLoggedIn {
                check: check.clone(),
                url: tab.url(),
            });
        }
    }
    Ok(())
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
