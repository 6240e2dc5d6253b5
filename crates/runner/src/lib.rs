//! The only async orchestration in Curio: it drives the browser through a run (the
//! explore loop with its budgets and cancellation), turns what the browser saw into
//! findings, and writes everything to the run store as it happens.

mod config;
mod explore;
mod findings;
mod input_values;
mod strategy;

pub use config::{RunConfig, StrategyKind};
pub use explore::{RunError, RunEvent, RunOutcome, explore};
pub use findings::signature;
pub use input_values::valid_value;
