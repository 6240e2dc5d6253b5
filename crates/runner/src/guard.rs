//! The guard against irreversible or session-ending actions: an explorer that logs
//! itself out, deletes the data it just created or resets the app spends the rest of
//! the run rebuilding what it lost (AutoE2E skips such actions for the same reason).

use curio_browser::{BrowserError, Tab};
use curio_page::{Action, Page, SelectOption};
use serde::Serialize;

/// Phrases that mark an action as one not to take, matched on word boundaries against
/// the element's text, its locator and its link target, case-insensitively, with `-`,
/// `_` and `/` read as spaces (so `/logout`, `log-out` and "Log out" all match).
pub const DEFAULT_DENY_PHRASES: [&str; 14] = [
    "log out",
    "logout",
    "log off",
    "sign out",
    "signout",
    "delete",
    "remove",
    "reset",
    "destroy",
    "deactivate",
    "unsubscribe",
    "cancel subscription",
    "close account",
    "delete account",
];

/// Actions never to take, by text and by CSS selector.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ActionGuard {
    /// Lowercase phrases, words separated by single spaces.
    pub phrases: Vec<String>,
    /// CSS selectors; an element any of them matches is never operated.
    pub selectors: Vec<String>,
}

impl ActionGuard {
    /// The default phrases plus `extra`.
    pub fn with_defaults(extra_phrases: &[String], selectors: &[String]) -> ActionGuard {
        let mut guard = ActionGuard {
            phrases: DEFAULT_DENY_PHRASES.iter().map(|p| p.to_string()).collect(),
            selectors: selectors.to_vec(),
        };
        guard
            .phrases
            .extend(extra_phrases.iter().map(|p| normalize(p)));
        guard.phrases.retain(|p| !p.is_empty());
        guard
    }

    /// Only the given phrases and selectors.
    pub fn only(phrases: &[String], selectors: &[String]) -> ActionGuard {
        ActionGuard {
            phrases: phrases
                .iter()
                .map(|p| normalize(p))
                .filter(|p| !p.is_empty())
                .collect(),
            selectors: selectors.to_vec(),
        }
    }

    /// Backend node ids of the elements the selectors match in the page `tab` shows
    /// (Chromium's own `querySelectorAll`; a selector it refuses matches nothing, and
    /// [`Self::check_selectors`] refuses it before the run).
    pub async fn denied_nodes(&self, tab: &Tab) -> Result<Vec<i64>, BrowserError> {
        let mut out = Vec::new();
        for selector in &self.selectors {
            if let Ok(ids) = tab.query_selector_all(selector).await? {
                out.extend(ids);
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// The selectors of elements never to operate.
    pub fn selectors(&self) -> &[String] {
        &self.selectors
    }

    /// The first selector Chromium refuses, with its reason.
    pub async fn check_selectors(
        &self,
        tab: &Tab,
    ) -> Result<Option<(String, String)>, BrowserError> {
        for selector in &self.selectors {
            if let Err(reason) = tab.query_selector_all(selector).await? {
                return Ok(Some((selector.clone(), reason)));
            }
        }
        Ok(None)
    }

    /// Takes out of the page's selects (and radio groups) every option whose text or
    /// value names an action not to take: choosing "Delete selected users" in a list's
    /// bulk-action menu, then its generic "Go", deletes as surely as a "Delete" button.
    pub fn strip_denied_options(&self, page: &mut Page) {
        let allowed = |o: &SelectOption| {
            ![o.text.as_str(), o.value.as_str()]
                .into_iter()
                .map(normalize)
                .any(|text| self.phrases.iter().any(|p| contains_phrase(&text, p)))
        };
        let fields = page
            .actions
            .iter_mut()
            .filter_map(|a| a.field.as_mut())
            .chain(page.forms.iter_mut().flat_map(|f| f.fields.iter_mut()));
        for field in fields {
            if field.input_type.starts_with("select") {
                field.options.retain(allowed);
            }
        }
    }

    /// Whether `action` is one not to take; `denied_nodes` comes from [`Self::denied_nodes`].
    pub fn denies(&self, action: &Action, denied_nodes: &[i64]) -> bool {
        if denied_nodes
            .binary_search(&action.target.backend_node_id)
            .is_ok()
        {
            return true;
        }
        let texts = [
            Some(action.text.as_str()),
            Some(action.target.locator.as_str()),
            action.href.as_deref().map(href_path),
        ];
        texts
            .into_iter()
            .flatten()
            .map(normalize)
            .any(|text| self.phrases.iter().any(|p| contains_phrase(&text, p)))
    }
}

/// The path and query of a link target: its host says nothing about what it does.
fn href_path(href: &str) -> &str {
    match href.find("://") {
        Some(i) => {
            let rest = &href[i + 3..];
            rest.find('/').map(|j| &rest[j..]).unwrap_or("")
        }
        None => href,
    }
}

/// Lowercase, with every run of non-alphanumeric characters turned into one space.
fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        } else {
            space = true;
        }
    }
    out
}

/// `phrase` occurs in `text` as whole words (both already normalised).
fn contains_phrase(text: &str, phrase: &str) -> bool {
    let mut from = 0;
    while let Some(i) = text[from..].find(phrase) {
        let start = from + i;
        let end = start + phrase.len();
        let before = start == 0 || text.as_bytes()[start - 1] == b' ';
        let after = end == text.len() || text.as_bytes()[end] == b' ';
        if before && after {
            return true;
        }
        from = start + 1;
        while !text.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use curio_page::{ActionKind, ElementKey, Rect, Target};

    fn action(text: &str, href: Option<&str>, id: i64) -> Action {
        Action {
            key: ElementKey(text.into()),
            kind: ActionKind::Click,
            target: Target {
                backend_node_id: id,
                frame: 0,
                selector: "#x".into(),
                locator: format!("button {text:?}"),
                rect: Rect::default(),
            },
            role: "button".into(),
            tag: "button".into(),
            text: text.into(),
            href: href.map(String::from),
            form: None,
            field: None,
        }
    }

    #[test]
    fn default_phrases_match_on_word_boundaries() {
        let g = ActionGuard::with_defaults(&[], &[]);
        for text in [
            "Log out",
            "LOGOUT",
            "Sign-out",
            "Delete project",
            "Reset demo data",
            "remove",
        ] {
            assert!(g.denies(&action(text, None, 1), &[]), "{text}");
        }
        for text in ["Logo", "Removed items", "Presets", "Deleted tasks", "Save"] {
            assert!(!g.denies(&action(text, None, 1), &[]), "{text}");
        }
        assert!(g.denies(&action("Bye", Some("http://h:1/account/logout"), 1), &[]));
        // The host does not count: a link to logout.example.com's home is harmless.
        assert!(!g.denies(&action("Home", Some("http://logout.example/"), 1), &[]));
    }

    #[test]
    fn user_phrases_and_nodes() {
        let g = ActionGuard::only(&["Archive all".into()], &[]);
        assert!(g.denies(&action("archive  ALL", None, 1), &[]));
        assert!(!g.denies(&action("Delete", None, 1), &[]));
        assert!(g.denies(&action("Save", None, 7), &[3, 7, 9]));
    }

    #[test]
    fn destructive_options_are_taken_out_of_selects() {
        let option = |value: &str, text: &str| SelectOption {
            value: value.into(),
            text: text.into(),
            selected: false,
            disabled: false,
        };
        let mut field: curio_page::Field = serde_json::from_value(serde_json::json!({
            "target": {"backend_node_id": 1, "frame": 0, "selector": "select", "locator": "combobox \"Action\"",
                       "rect": {"x": 0.0, "y": 0.0, "width": 10.0, "height": 10.0}},
            "tag": "select", "input_type": "select-one", "name": "action", "id": null,
            "labels": [], "placeholder": null, "autocomplete": null, "required": false,
            "readonly": false, "min": null, "max": null, "step": null, "minlength": null,
            "maxlength": null, "pattern": null, "inputmode": null, "options": [],
            "value": "", "checked": false
        }))
        .unwrap();
        field.options = vec![
            option("", "---------"),
            option("delete_selected", "Delete selected users"),
            option("export_csv", "Export as CSV"),
        ];
        let mut page: Page = serde_json::from_value(serde_json::json!({
            "url": "http://127.0.0.1/", "normalized_url": "http://127.0.0.1/", "title": "",
            "actions": [], "forms": [], "texts": [], "tag_sequence": [],
            "merged_tag_sequence": []
        }))
        .unwrap();
        page.forms.push(
            serde_json::from_value(serde_json::json!({
                "id": 0, "key": "form", "target": null, "name": null, "html_id": null,
                "action": null, "method": null, "title": null, "fields": [], "submit": null
            }))
            .unwrap(),
        );
        page.forms[0].fields.push(field);
        ActionGuard::with_defaults(&[], &[]).strip_denied_options(&mut page);
        let left: Vec<&str> = page.forms[0].fields[0]
            .options
            .iter()
            .map(|o| o.value.as_str())
            .collect();
        assert_eq!(left, vec!["", "export_csv"]);
    }
}
