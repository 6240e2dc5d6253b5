//! Pure form understanding: what each field of a form is for, values a real user would
//! type there, and values that should be refused.
//!
//! The explorer's form macro action fills every field of a form and submits, as one
//! action: [`FormFiller::fill`] with [`Variant::Valid`] gets past validation to the code
//! behind it; the invalid variants break exactly one field, since servers that mishandle
//! bad input are a main source of 500s. [`HeuristicFiller`] reads meaning from labels and
//! markup ([`classify`], [`range_role`]); a constraint engine is to follow behind the same
//! trait. No I/O, and deterministic for a given `rng`.

mod constraints;
mod dictionary;
mod embed;
pub mod feedback;
mod ferg;
mod filler;
mod infer;
pub mod lang;
mod markup;
mod node2vec;
mod pattern;
pub mod prompt;
mod realistic;
mod scalar;
mod semantic;
pub mod session;
mod solve;
pub mod testing;
mod words;

#[cfg(test)]
mod tests;

pub use dictionary::{Dictionary, DictionaryError};
pub use embed::{LEXICAL_DIMENSIONS, LexicalEmbedder, TextEmbedder, cosine};
pub use ferg::{EdgeKind, Ferg, FergConfig, FergEdge, FergNode, FergNodeKind};
pub use filler::{FieldValue, Filled, FormFill, FormFiller, HeuristicFiller, Variant};
pub use infer::{examples, infer};
pub use markup::infer_from_markup;
pub use node2vec::{Node2VecConfig, node2vec, tree_adjacency};
pub use semantic::{RangeRole, Semantic, UnknownSemantic, classify, range_role};
pub use solve::ConstraintSolver;
