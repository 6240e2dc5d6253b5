//! Logging in before each episode and each replay: the steps of `curio.toml`'s
//! `[login]` (go to a page, type into fields, click), then a check that the session is
//! on (an element only a logged-in page shows). While exploring, a page without that
//! element means the session was lost: the run logs in again in a new episode.

use curio_browser::{BrowserError, Tab};
use curio_page::{Page, query_selector_all};
use curio_record::{Step, StepKind};
use regex::Regex;
use serde::Serialize;

use crate::replay::user_action;

/// How to log in to the app.
#[derive(Debug, Clone, PartialEq)]
pub struct Login {
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
        serde_json::json!({"steps": steps, "check": self.check})
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
    if let Some(check) = &login.check {
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

#[derive(Debug, Clone, thiserror::Error)]
pub enum LoginError {
    #[error("login step {step} failed: {reason}")]
    Step { step: usize, reason: String },
    #[error("after the login steps, {url} has no element matching the logged-in check {check:?}")]
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
