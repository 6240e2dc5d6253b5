//! Why a request to the model server gave no usable answer.

use std::path::PathBuf;

/// Every failure names the URL (or cache file) involved so that the caller can tell the
/// user which server failed; none of them ever holds the API key.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// Connection refused, name not resolved, or no answer within the timeout, on every
    /// try.
    #[error("the model server at {url} cannot be reached: {reason}")]
    Unreachable { url: String, reason: String },
    /// The server does not serve the configured model.
    #[error("the model server at {url} does not serve the model `{model}`")]
    UnknownModel { model: String, url: String },
    /// HTTP 401 or 403: the key is missing, wrong or not allowed this model.
    #[error(
        "the model server at {url} refused the request as unauthorised (HTTP 401/403); \
         check the API key in CURIO_LLM_API_KEY"
    )]
    Unauthorized { url: String },
    /// Any other unsuccessful HTTP status, after the retries it deserved.
    #[error("the model server at {url} answered HTTP {status}: {body_excerpt}")]
    Status {
        url: String,
        status: u16,
        /// The start of the answer's body (at most 300 characters).
        body_excerpt: String,
    },
    /// A successful status whose body is not the JSON the API describes.
    #[error("the model server at {url} gave an answer Curio cannot read: {reason}")]
    Malformed { url: String, reason: String },
    /// The configured server address cannot be used.
    #[error("the model server address `{url}` cannot be used: {reason}")]
    BadUrl { url: String, reason: String },
    /// The local model cannot be loaded or failed to answer.
    #[error("the local model {} cannot be used: {reason}", path.display())]
    Local { path: PathBuf, reason: String },
    /// The answer cache in the run store could not be opened, read or written.
    #[error("the model answer cache in {} failed: {reason}", path.display())]
    Cache { path: PathBuf, reason: String },
}
