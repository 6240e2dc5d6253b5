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
//! Everything that can go wrong comes back as an [`LlmError`] naming the server's URL, so
//! the caller can say which server failed and go on with its rules alone.

mod cache;
mod client;
mod config;
mod error;

pub use cache::ResponseCache;
pub use client::{Answer, LlmClient, Usage};
pub use config::{API_KEY_ENV, LlmConfig, Message, Role};
pub use error::LlmError;
