//! The only async orchestration in Curio: it drives the browser through a run (the
//! explore loop with its budgets and cancellation), turns what the browser saw into
//! findings, and writes everything to the run store as it happens.

mod config;
mod endpoint_embed;
mod explore;
mod findings;
mod forms;
mod forms_export;
mod forms_js;
mod guard;
mod input_values;
mod login;
mod replay;
mod set_back;
mod solved;
mod strategy;

pub use config::{Features, RunConfig, StrategyKind};
pub use explore::{RunError, RunEvent, RunOutcome, explore};
pub use findings::signature;
pub use forms::{
    Embedder, Fill, FormResult, FormsConfig, FormsEvent, FormsOutcome, FssTest, InferredRule,
    LlmUse, test_forms,
};
pub use guard::{ActionGuard, DEFAULT_DENY_PHRASES};
pub use input_values::valid_value;
pub use login::{Credentials, Login, LoginError, PageFilter, SavedSession};
pub use replay::{FindingReplay, ReplayConfig, ReplayReport, replay_findings};
