//! Curio's client for OpenAI-compatible model servers (OpenAI, Ollama, llama.cpp's server,
//! vLLM, LM Studio): chat completions and embeddings, with a SQLite cache of answers.
//!
//! The form-testing engine asks a model for a form's constraints and for values to type;
//! this crate is only the protocol layer under it. It keeps a run repeatable and cheap
//! (temperature 0, answers cached in the run store by the exact request), bounded
//! (per-request timeout, a cap on requests in flight, retries with backoff on overload)
//! and safe with a hosted provider's key (the key is only ever a request header: never in
//! `Debug` output, error messages or the cache).
//!
//! With the `local-llm` feature it also runs a GGUF model in process through llama.cpp
//! ([`LlmConfig::local`]), for machines without a model server: the same cache and usage
//! counts, and answers held to the grammar the caller gives ([`LlmClient::chat_shaped`]).
//!
//! Everything that can go wrong comes back as an [`LlmError`] naming the server's URL, so
//! the caller can say which server failed and go on with its rules alone.

mod cache;
mod client;
mod config;
mod error;
#[cfg(feature = "local-llm")]
mod local;

pub use cache::ResponseCache;
pub use client::{Answer, LlmClient, Usage};
pub use config::{API_KEY_ENV, LlmConfig, Message, Role, default_local_model};
pub use error::LlmError;

/// Whether this build runs GGUF models in process ([`LlmConfig::local`]).
pub const LOCAL_AVAILABLE: bool = cfg!(feature = "local-llm");

/// Why a local model cannot be used by a build without the `local-llm` feature.
pub const LOCAL_UNAVAILABLE: &str = "this curio was built without the `local-llm` feature \
    (build it with `cargo build --release --features local-llm`; it needs cmake and \
    libclang-dev)";
