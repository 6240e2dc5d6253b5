//! Pure page modelling: a `DOMSnapshot.captureSnapshot` answer becomes a [`Page`] with
//! what a user sees (texts with boxes), what a user can do ([`Action`]s), the forms with
//! their fields and labels, the tag sequence and the normalised URL.
//!
//! No I/O, no async, no CDP library: the browser crate hands over the wire-format
//! [`DomSnapshot`], and tests use the same JSON saved as fixtures.

mod actions;
mod context;
mod dom;
mod fields;
mod forms;
mod frames;
mod keys;
mod labels;
mod locator;
mod model;
mod page;
mod query;
mod snapshot_index;
mod text;
mod url_norm;
mod visibility;

pub use dom::*;
pub use model::*;
pub use query::query_selector_all;
pub use url_norm::{UrlNormalization, normalize_url};
