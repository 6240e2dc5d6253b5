//! "Curio Forms": a gallery of realistic web forms over FormNexus' four categories
//! (travel, registration, data entry, query), each at `/forms/<id>`, listed on `/`.
//!
//! Markup is as varied as the web's (label for=, wrapping labels, placeholder only,
//! sibling spans, aria-label only, tables, fieldsets, cryptic names) and so is
//! validation (HTML5 native, page JavaScript with inline messages, server-side with
//! inline or banner messages, redirects, a message that vanishes). Each form declares
//! its Form Submission States ([`FssSpec`]): every distinct answer it can give. The app
//! records a state when it gives that answer: the server in its handler, the page's own
//! JavaScript through the truth beacon just before it shows a message, and for native
//! validation an `invalid` listener that reports the control the browser shows its
//! bubble on (the first invalid one). So coverage is measured by the app, not by Curio.

mod common;
mod data_entry;
mod query;
mod registration;
mod travel;

use std::sync::LazyLock;

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use serde::Serialize;

use crate::ground_truth::{FssSpec, GroundTruth};
use crate::html::{BEACON_SCRIPT, NO_FAVICON, escape};

/// FormNexus' categories of forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FormCategory {
    Travel,
    Registration,
    DataEntry,
    Query,
}

impl FormCategory {
    pub fn name(self) -> &'static str {
        match self {
            FormCategory::Travel => "travel",
            FormCategory::Registration => "registration",
            FormCategory::DataEntry => "data entry",
            FormCategory::Query => "query",
        }
    }
}

/// One form of the gallery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GalleryForm {
    /// Also the prefix of its states' ids (`<id>.…`).
    pub id: &'static str,
    pub category: FormCategory,
    pub title: &'static str,
    /// The page the form is on, e.g. `/forms/flight`.
    pub path: &'static str,
}

/// Every form of the gallery, in category order.
pub static FORMS: LazyLock<Vec<GalleryForm>> = LazyLock::new(|| {
    [
        travel::FORMS,
        registration::FORMS,
        data_entry::FORMS,
        query::FORMS,
    ]
    .concat()
});

/// Every Form Submission State of every form, form by form.
pub static STATES: LazyLock<Vec<FssSpec>> = LazyLock::new(|| {
    [
        travel::STATES,
        registration::STATES,
        data_entry::STATES,
        query::STATES,
    ]
    .concat()
});

/// What every handler of the gallery shares.
#[derive(Debug, Clone)]
pub(crate) struct Gallery {
    pub(crate) truth: GroundTruth,
}

impl Gallery {
    /// Records that the form gave the answer of state `id`.
    pub(crate) fn hit(&self, id: &str) {
        debug_assert!(STATES.iter().any(|s| s.id == id), "unknown state {id}");
        self.truth.record(id);
    }
}

pub(crate) fn router(truth: GroundTruth) -> Router {
    Router::new()
        .route("/", get(index))
        .merge(travel::routes())
        .merge(registration::routes())
        .merge(data_entry::routes())
        .merge(query::routes())
        .with_state(Gallery { truth })
}

/// A whole page: `title` as heading, `body` below it, with the truth beacon
/// (`curioTruth(id)`) defined before any of the page's own scripts.
pub(crate) fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">{NO_FAVICON}\
         <title>{t} · Curio Forms</title>{BEACON_SCRIPT}\
         <style>body{{font-family:sans-serif;max-width:46em;margin:1em auto}}\
         .error{{color:#b00}}.banner{{border:1px solid #b00;padding:.5em;color:#b00}}\
         .ok{{color:#070}}label{{display:inline-block;min-width:10em}}\
         .row{{margin:.4em 0}}</style></head>\
         <body><p><a href=\"/\">All forms</a></p><h1>{t}</h1>{body}</body></html>",
        t = escape(title)
    ))
}

async fn index() -> Html<String> {
    let mut body = String::new();
    for category in [
        FormCategory::Travel,
        FormCategory::Registration,
        FormCategory::DataEntry,
        FormCategory::Query,
    ] {
        body.push_str(&format!("<h2>{}</h2><ul>", escape(category.name())));
        for f in FORMS.iter().filter(|f| f.category == category) {
            body.push_str(&format!(
                "<li><a href=\"{}\">{}</a></li>",
                escape(f.path),
                escape(f.title)
            ));
        }
        body.push_str("</ul>");
    }
    page("Curio Forms", &body)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Every declared state is given somewhere in its form's file (a `hit`, a beacon or
    /// the native listener's map): its id appears there besides its declaration.
    #[test]
    fn every_state_is_given_somewhere() {
        let files: [(&str, &[FssSpec]); 4] = [
            (include_str!("travel.rs"), travel::STATES),
            (include_str!("registration.rs"), registration::STATES),
            (include_str!("data_entry.rs"), data_entry::STATES),
            (include_str!("query.rs"), query::STATES),
        ];
        for (source, states) in files {
            let code = source.split("#[cfg(test)]").next().unwrap_or(source);
            for s in states {
                let uses = code.matches(&format!("\"{}\"", s.id)).count()
                    + code.matches(&format!("'{}'", s.id)).count();
                assert!(uses >= 2, "{} is never given", s.id);
            }
        }
    }

    #[test]
    fn forms_and_states_are_consistent() {
        assert!(FORMS.len() >= 12, "{} forms", FORMS.len());
        let ids: BTreeSet<&str> = FORMS.iter().map(|f| f.id).collect();
        assert_eq!(ids.len(), FORMS.len(), "form ids are unique");
        let paths: BTreeSet<&str> = FORMS.iter().map(|f| f.path).collect();
        assert_eq!(paths.len(), FORMS.len(), "form paths are unique");
        for c in [
            FormCategory::Travel,
            FormCategory::Registration,
            FormCategory::DataEntry,
            FormCategory::Query,
        ] {
            assert!(
                FORMS.iter().filter(|f| f.category == c).count() >= 3,
                "{c:?}"
            );
        }
        let states: BTreeSet<&str> = STATES.iter().map(|s| s.id).collect();
        assert_eq!(states.len(), STATES.len(), "state ids are unique");
        for s in STATES.iter() {
            assert!(ids.contains(s.form), "{} names an unknown form", s.id);
            assert!(s.id.starts_with(&format!("{}.", s.form)), "{}", s.id);
        }
        for f in FORMS.iter() {
            let own: Vec<&FssSpec> = STATES.iter().filter(|s| s.form == f.id).collect();
            assert!(
                own.iter().any(|s| s.success),
                "{} has a success state",
                f.id
            );
            assert!(own.len() >= 2, "{} has failure states", f.id);
        }
    }
}
