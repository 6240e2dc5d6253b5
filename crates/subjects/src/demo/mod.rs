//! "Curio Shop": a small, realistic shop with five seeded faults, the app Curio's demo
//! and benchmarks explore.
//!
//! Server-rendered pages share one layout; inline JS does what a real shop's would
//! (wishlist, reviews, coupon, newsletter). The cart is one global, server-side cart: the
//! app serves one explorer at a time, and the catalogue bounds the cart's size.
//!
//! Each fault is a few steps from the home page and each page offers few actions, so a
//! uniform random walk that fills fields with plausible values finds all of them within
//! about a minute. See [`FAULTS`] for the steps.

mod cart;
mod catalog;
mod contact;
mod layout;
mod shop;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::Router;
use axum::routing::{get, post};

use crate::ground_truth::{FaultKind, FaultSpec, GroundTruth};

pub(crate) const F1_UNCAUGHT_WISHLIST: &str = "F1-uncaught-wishlist";
pub(crate) const F2_CONSOLE_COUPON: &str = "F2-console-coupon";
pub(crate) const F3_500_CONTACT: &str = "F3-500-contact";
pub(crate) const F4_BROKEN_LINK: &str = "F4-broken-link";
pub(crate) const F5_REJECTION_REVIEWS: &str = "F5-rejection-reviews";

/// The shop's seeded faults.
pub static FAULTS: [FaultSpec; 5] = [
    FaultSpec {
        id: F1_UNCAUGHT_WISHLIST,
        kind: FaultKind::UncaughtException,
        description: "Product page: \"Add to wishlist\", then \"Share wishlist\" (shown once the \
                      wishlist is not empty, also on later product pages) throws a TypeError.",
        depth_hint: 3,
        marker: "reading 'shareId'",
    },
    FaultSpec {
        id: F2_CONSOLE_COUPON,
        kind: FaultKind::ConsoleError,
        description: "Cart page: \"Apply coupon\" with any non-empty code other than SAVE10 logs \
                      console.error(\"coupon service: ...\"). The typed code is remembered \
                      across visits.",
        depth_hint: 3,
        marker: "coupon service: no such campaign",
    },
    FaultSpec {
        id: F3_500_CONTACT,
        kind: FaultKind::ServerError,
        description: "Contact page: sending the form with a valid email and subject \"Order \
                      problem\" (the default) but no order number in the message answers HTTP 500. \
                      Unsent fields are kept as a draft across visits.",
        depth_hint: 3,
        marker: "/contact",
    },
    FaultSpec {
        id: F4_BROKEN_LINK,
        kind: FaultKind::BrokenLink,
        description: "About page: the \"Our story\" link leads to /blog/our-story, a 404.",
        depth_hint: 2,
        marker: "/blog/our-story",
    },
    FaultSpec {
        id: F5_REJECTION_REVIEWS,
        kind: FaultKind::UnhandledRejection,
        description: "Product page of a garden product (Herb Planter, Watering Can, Pruning \
                      Shears; two are featured on the home page): \"Load reviews\" gets malformed \
                      JSON and the uncaught r.json() promise rejects.",
        depth_hint: 2,
        // The rejection is the browser's: Chromium says "SyntaxError: Failed to execute
        // 'json' on 'Response': Unterminated string in JSON at position 54 (...)", and
        // every V8 version's JSON parse errors name JSON.
        marker: "JSON",
    },
];

#[derive(Clone)]
pub(crate) struct DemoState {
    pub(crate) truth: GroundTruth,
    shop: Arc<Mutex<cart::Shop>>,
}

impl DemoState {
    pub(crate) fn shop(&self) -> MutexGuard<'_, cart::Shop> {
        // The shop's data stays consistent across a panicking handler (every update is
        // a single push or field write), so serving on is better than failing every
        // later request.
        self.shop.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A trimmed form field, empty when absent.
fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> &'a str {
    form.get(name).map(|v| v.trim()).unwrap_or_default()
}

/// Something on each side of an '@': what the shop's forms accept as an email.
fn looks_like_email(email: &str) -> bool {
    email
        .split_once('@')
        .is_some_and(|(user, domain)| !user.is_empty() && !domain.is_empty())
}

pub(crate) fn router(truth: GroundTruth) -> Router {
    let state = DemoState {
        truth,
        shop: Arc::default(),
    };
    Router::new()
        .route("/", get(shop::home))
        .route("/products", get(shop::products))
        .route("/products/{id}", get(shop::product))
        .route("/api/reviews/{id}", get(shop::reviews))
        .route("/about", get(shop::about))
        .route("/newsletter", post(shop::newsletter))
        .route("/favicon.ico", get(shop::favicon))
        .route("/cart", get(cart::cart))
        .route("/cart/add", post(cart::add))
        .route("/cart/remove", post(cart::remove))
        .route("/checkout", get(cart::checkout).post(cart::place_order))
        .route("/orders/{number}", get(cart::order))
        .route("/contact", get(contact::form).post(contact::submit))
        .fallback(shop::not_found)
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        assert!(looks_like_email("a@b"));
        assert!(!looks_like_email("@b"));
        assert!(!looks_like_email("a@"));
        assert!(!looks_like_email("ab"));
    }

    #[test]
    fn fault_ids_are_unique_and_shallow() {
        for (i, f) in FAULTS.iter().enumerate() {
            assert!(FAULTS[i + 1..].iter().all(|g| g.id != f.id));
            assert!((2..=4).contains(&f.depth_hint), "{}", f.id);
        }
    }

    #[test]
    fn markers_are_distinct_and_http_markers_are_paths() {
        for f in &FAULTS {
            assert!(!f.marker.trim().is_empty(), "{}", f.id);
            // Distinct, and none inside another: a finding with the longer one would
            // also count the fault of the shorter one.
            for g in FAULTS.iter().filter(|g| g.id != f.id) {
                assert!(!g.marker.contains(f.marker), "{} in {}", f.id, g.id);
            }
            if matches!(f.kind, FaultKind::ServerError | FaultKind::BrokenLink) {
                assert!(f.marker.starts_with('/'), "{}", f.id);
            }
        }
        // The one missing page that counts as the broken link.
        let broken = FAULTS.iter().find(|f| f.id == F4_BROKEN_LINK).unwrap();
        assert_eq!(broken.marker, shop::OUR_STORY);
    }

    /// One finding per fault as Curio words it: the message, then the page's URL (that
    /// of the request for HTTP failures; an inline script's location is its page's URL).
    const FINDINGS: [(&str, &str, &str); 5] = [
        (
            F1_UNCAUGHT_WISHLIST,
            "TypeError: Cannot read properties of undefined (reading 'shareId')",
            "http://127.0.0.1:8080/products/3",
        ),
        (
            F2_CONSOLE_COUPON,
            "coupon service: no such campaign for code \"WELCOME\"",
            "http://127.0.0.1:8080/cart",
        ),
        (
            F3_500_CONTACT,
            "HTTP 500 Internal Server Error for POST /contact",
            "http://127.0.0.1:8080/contact",
        ),
        (
            F4_BROKEN_LINK,
            "HTTP 404 Not Found for GET /blog/our-story",
            "http://127.0.0.1:8080/blog/our-story",
        ),
        (
            F5_REJECTION_REVIEWS,
            "SyntaxError: Failed to execute 'json' on 'Response': Unterminated string in JSON \
             at position 54 (line 1 column 55)",
            "http://127.0.0.1:8080/products/3",
        ),
    ];

    #[test]
    fn each_finding_carries_its_own_marker_only() {
        crate::ground_truth::assert_markers_tell_findings_apart(&FAULTS, &FINDINGS);
    }

    /// The client-side markers come from the code the pages run.
    #[test]
    fn client_markers_match_the_scripts() {
        let garden = catalog::PRODUCTS
            .iter()
            .find(|p| p.category == catalog::Category::Garden)
            .unwrap();
        let product = shop::product_script(garden);
        // "reading 'shareId'": the wishlist has no owner.
        assert!(product.contains("list.owner.shareId"));
        // The reviews' JSON is parsed by r.json(), whose rejection nobody catches.
        assert!(product.contains("r.json()"));
        assert!(cart::coupon_script().contains("console.error('coupon service: no such campaign"));
    }
}
