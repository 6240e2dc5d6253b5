//! Pure page modelling: a `DOMSnapshot.captureSnapshot` answer becomes a [`Page`] with
//! what a user sees (texts with boxes), what a user can do ([`Action`]s), the forms with
//! their fields and labels, the tag sequence and the normalised URL; and the state
//! abstraction of curiosity-driven exploration ([`StateTable`]), which tells whether a
//! page is a state seen before by URL and tag-sequence similarity ([`similarity`]).
//!
//! No I/O, no async, no CDP library: the browser crate hands over the wire-format
//! [`DomSnapshot`], and tests use the same JSON saved as fixtures.

mod actions;
mod context;
mod dom;
mod fields;
mod form_dom;
mod forms;
mod frames;
mod keys;
mod labels;
mod locator;
mod model;
mod page;
mod query;
pub mod similarity;
mod snapshot_index;
mod states;
mod storage;
mod text;
mod url_norm;
mod visibility;

pub use dom::*;
pub use form_dom::{
    CONTEXT_LEVELS, DomNode, FormDom, MAX_FORM_DOM_NODES, MAX_NODE_TEXT_CHARS, form_dom, form_doms,
};
pub use model::*;
pub use query::query_selector_all;
pub use similarity::{IndexedSeq, Match, Matcher, SequenceMatcher};
pub use states::{StateId, StateMatch, StateTable, StateTableConfig, TagInterner};
pub use storage::StorageAbstraction;
pub use url_norm::{UrlNormalization, normalize_url};
