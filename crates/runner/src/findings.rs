//! From observations to findings: what counts, and when two are the same failure.

use curio_browser::Outcome;
use curio_record::{Observation, ObservationKind};

/// The signature of the one finding that groups the app's broken links: pages its own
/// links lead to that answer 404 or 410. Each is a link in the finding's list, not a
/// finding of its own: a site with many missing pages is one thing to fix, and it must
/// not bury the crashes.
pub const BROKEN_LINKS: &str = "http_client_error|broken links";

/// The message of that finding.
pub const BROKEN_LINKS_MESSAGE: &str = "Links to missing pages (HTTP 404)";

/// Whether `o` says a page is missing: a 404 or 410 answer to a GET.
pub(crate) fn is_missing_page(o: &Observation) -> bool {
    o.kind == ObservationKind::HttpClientError
        && matches!(o.status, Some(404 | 410))
        && o.method.as_deref().is_none_or(|m| m == "GET")
}

/// The signature of `o` seen in `outcome`: [`BROKEN_LINKS`] for a missing page the tab
/// was loading as a document (a link followed), else [`signature`].
pub(crate) fn signature_in(o: &Observation, outcome: &Outcome) -> String {
    let document = outcome
        .responses
        .iter()
        .any(|r| r.url == o.url && r.resource_type == "Document");
    if document && is_missing_page(o) {
        BROKEN_LINKS.to_string()
    } else {
        signature(o)
    }
}

/// Whether `o` is the failure of signature `wanted` (a missing page for the broken
/// links).
pub(crate) fn is_wanted(o: &Observation, wanted: &str) -> bool {
    if wanted == BROKEN_LINKS {
        is_missing_page(o)
    } else {
        signature(o) == wanted
    }
}

/// Deduplication key of an observation: kind, normalised message and where it comes
/// from (script location, else the URL path). Numbers are generalised, so the same fault
/// at `/reviews/3` and `/reviews/5` is one, and so is quoted text, which is usually the
/// data that was typed (`no campaign for code "SPRING"` and `... "hello"` are one fault).
pub fn signature(o: &Observation) -> String {
    let place = match &o.source {
        Some(s) if !s.url.is_empty() => format!("{}:{}", url_path(&s.url), s.line),
        _ => url_path(&o.url),
    };
    format!(
        "{}|{}|{}",
        o.kind.as_str(),
        generalize(&normalize_message(&o.message)),
        generalize(&place)
    )
}

/// Whether an observation becomes a finding.
pub(crate) fn is_finding(o: &Observation) -> bool {
    o.in_scope && o.kind.is_failure()
}

/// Queries longer than this are left out of signatures: a long query carries data (a
/// traceback sent back in a link, a token), not what failed.
const LONG_QUERY: usize = 64;

fn normalize_message(message: &str) -> String {
    let collapsed = message
        .split_whitespace()
        .map(|word| match word.split_once('?') {
            Some((path, query)) if query.len() > LONG_QUERY => format!("{path}?…"),
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = String::with_capacity(collapsed.len());
    let mut quote: Option<char> = None;
    for c in collapsed.chars() {
        match quote {
            Some(q) if c == q => {
                out.push(c);
                quote = None;
            }
            Some(_) => {}
            None => {
                out.push(c);
                if matches!(c, '"' | '\'' | '`') {
                    out.push('…');
                    quote = Some(c);
                }
            }
        }
    }
    out.chars().take(200).collect()
}

/// Replaces every run of digits with `N`, and the capital letters of record keys such
/// as `MOB-3` or `JIRA-1234` with `K`: `K-N` whatever the record.
fn generalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                if out.ends_with('-') {
                    let key = out[..out.len() - 1]
                        .chars()
                        .rev()
                        .take_while(|c| c.is_ascii_uppercase())
                        .count();
                    let before = out.len() - 1 - key;
                    let starts_word = out[..before]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric());
                    if key >= 2 && starts_word {
                        out.replace_range(before..out.len() - 1, "K");
                    }
                }
                out.push('N');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

fn url_path(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(u) if u.has_host() => u.path().to_string(),
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use curio_record::{ObservationKind, SourceLocation};

    fn obs(kind: ObservationKind, message: &str, url: &str) -> Observation {
        Observation {
            step: 0,
            kind,
            message: message.into(),
            url: url.into(),
            source: None,
            status: None,
            method: None,
            in_scope: true,
        }
    }

    #[test]
    fn same_fault_on_two_ids_is_one_signature() {
        let a = obs(
            ObservationKind::HttpServerError,
            "HTTP 500 for GET /api/reviews/3",
            "http://h:1/api/reviews/3?x=1",
        );
        let b = obs(
            ObservationKind::HttpServerError,
            "HTTP 500 for GET /api/reviews/17",
            "http://h:1/api/reviews/17?x=2",
        );
        assert_eq!(signature(&a), signature(&b));
        let c = obs(
            ObservationKind::HttpClientError,
            "HTTP 404 for GET /api/reviews/3",
            "http://h:1/api/reviews/3",
        );
        assert_ne!(signature(&a), signature(&c));
    }

    #[test]
    fn findings_that_differ_in_a_long_query_are_one() {
        let long = |q: &str| {
            obs(
                ObservationKind::HttpClientError,
                &format!("HTTP 403 Forbidden for GET /newticket?description={q}"),
                &format!("http://h:1/newticket?description={q}"),
            )
        };
        let a = long(&"Traceback%20(most%20recent%20call%20last)".repeat(40));
        let b = long(&"ValueError%20in%20line%2012%20of%20form".repeat(30));
        assert_eq!(signature(&a), signature(&b));
        // A short query is what was asked: kept.
        let c = long("x");
        let d = long("y");
        assert_ne!(signature(&c), signature(&d));
    }

    #[test]
    fn a_missing_page_is_wanted_by_the_broken_links() {
        let mut o = obs(
            ObservationKind::HttpClientError,
            "HTTP 404 Not Found for GET /wiki/About",
            "http://h:1/wiki/About",
        );
        o.status = Some(404);
        o.method = Some("GET".into());
        assert!(is_wanted(&o, BROKEN_LINKS));
        o.status = Some(403);
        assert!(!is_wanted(&o, BROKEN_LINKS));
        assert!(is_wanted(&o, &signature(&o)));
    }

    #[test]
    fn quoted_input_is_generalised() {
        let a = obs(
            ObservationKind::ConsoleError,
            "coupon service: no such campaign for code \"Alex Morgan\"",
            "http://h/cart",
        );
        let b = obs(
            ObservationKind::ConsoleError,
            "coupon service: no such campaign for code \"hello\"",
            "http://h/cart",
        );
        assert_eq!(signature(&a), signature(&b));
        let c = obs(
            ObservationKind::ConsoleError,
            "coupon service: timeout",
            "http://h/cart",
        );
        assert_ne!(signature(&a), signature(&c));
    }

    #[test]
    fn record_keys_are_generalised() {
        let a = obs(
            ObservationKind::ConsoleError,
            "timer running on MOB-3 cannot be metered",
            "http://h/billing",
        );
        let b = obs(
            ObservationKind::ConsoleError,
            "timer running on WEB-12 cannot be metered",
            "http://h/billing",
        );
        assert_eq!(signature(&a), signature(&b));
        assert!(signature(&a).contains("on K-N cannot"), "{}", signature(&a));
        // Not a record key: a lowercase word, or letters inside a longer word.
        assert_eq!(generalize("utf-8 and xMOB-3"), "utf-N and xMOB-N");
    }

    #[test]
    fn source_location_separates_same_message() {
        let mut a = obs(
            ObservationKind::UncaughtException,
            "TypeError: x is undefined",
            "http://h/p",
        );
        let mut b = a.clone();
        a.source = Some(SourceLocation {
            url: "http://h/app.js".into(),
            line: 10,
            column: 1,
        });
        b.source = Some(SourceLocation {
            url: "http://h/lib.js".into(),
            line: 10,
            column: 1,
        });
        assert_ne!(signature(&a), signature(&b));
    }

    #[test]
    fn noise_and_dialogs_are_not_findings() {
        let mut o = obs(
            ObservationKind::NetworkFailure,
            "net::ERR_CONNECTION_REFUSED",
            "http://127.0.0.1:9/font.css",
        );
        o.in_scope = false;
        assert!(!is_finding(&o));
        assert!(!is_finding(&obs(
            ObservationKind::Dialog,
            "alert: hi",
            "http://h/"
        )));
        assert!(is_finding(&obs(
            ObservationKind::ConsoleError,
            "boom",
            "http://h/"
        )));
    }
}
