//! What a Curio run observed: the data model ([`RunRecord`] and its parts), the SQLite
//! [`Store`] that a run appends to as it goes, and the `record.json` export.

mod export;
mod model;
mod store;

pub use export::*;
pub use model::*;
pub use store::*;
