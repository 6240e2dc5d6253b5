//! What the client is pointed at, and the messages it sends.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The environment variable holding the API key of a hosted provider. Local servers
/// (Ollama, llama.cpp, vLLM, LM Studio) need none.
pub const API_KEY_ENV: &str = "CURIO_LLM_API_KEY";

/// Where the model server is and how hard to try it.
///
/// `Debug` is written by hand so that the key never reaches a log: it shows `<set>` or
/// `<none>` in its place.
#[derive(Clone)]
pub struct LlmConfig {
    /// The API root, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions`,
    /// `/embeddings` and `/models` are appended to it.
    pub base_url: String,
    /// The model name sent with every request, and part of every cache key.
    pub model: String,
    /// Sent as `Authorization: Bearer …` when set; see [`LlmConfig::from_env_key`].
    pub api_key: Option<String>,
    /// Limit for one request, from connecting to the last byte of the answer.
    pub timeout: Duration,
    /// How many times a request is tried again after HTTP 429, 500–599, a timeout or a
    /// broken connection.
    pub max_retries: u32,
    /// How many requests may be in flight at once, so that a local server running one
    /// model is not swamped; 0 is taken as 1.
    pub max_concurrent: usize,
    /// A GGUF model to run in this process instead of asking a server (the `local-llm`
    /// feature); `base_url` and `api_key` are then unused. See [`LlmConfig::local`].
    pub local: Option<PathBuf>,
    /// Threads the local model computes on. One by default: beside a browser on a small
    /// machine, two threads were slower than one.
    pub threads: usize,
}

impl Default for LlmConfig {
    /// Ollama's OpenAI-compatible API on this machine, no model chosen yet, no key,
    /// 60 s per request, 3 retries, 2 requests in flight.
    fn default() -> Self {
        LlmConfig {
            base_url: "http://127.0.0.1:11434/v1".to_owned(),
            model: String::new(),
            api_key: None,
            timeout: Duration::from_secs(60),
            max_retries: 3,
            max_concurrent: 2,
            local: None,
            threads: 1,
        }
    }
}

impl LlmConfig {
    /// The defaults for `base_url` and `model`, with the key read from
    /// [`API_KEY_ENV`] (`CURIO_LLM_API_KEY`); an unset or blank variable means no key.
    pub fn from_env_key(base_url: impl Into<String>, model: impl Into<String>) -> LlmConfig {
        LlmConfig {
            base_url: base_url.into(),
            model: model.into(),
            api_key: key_from_value(std::env::var(API_KEY_ENV).ok()),
            ..LlmConfig::default()
        }
    }
}

impl LlmConfig {
    /// The GGUF model at `path`, run in this process; its file name is the model's name
    /// in the cache.
    pub fn local(path: impl Into<PathBuf>) -> LlmConfig {
        let path = path.into();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        LlmConfig {
            base_url: String::new(),
            model: format!("local:{name}"),
            local: Some(path),
            ..LlmConfig::default()
        }
    }
}

/// Where `scripts/fetch-smollm2` installs SmolLM2-135M-Instruct: in `$CURIO_SMOLLM2_DIR`,
/// else `$XDG_DATA_HOME/curio/models/SmolLM2-135M-Instruct`, else the same under
/// `~/.local/share`.
pub fn default_local_model() -> PathBuf {
    let dir = match std::env::var_os("CURIO_SMOLLM2_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => {
            let data = std::env::var_os("XDG_DATA_HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
                .unwrap_or_default();
            data.join("curio/models/SmolLM2-135M-Instruct")
        }
    };
    dir.join("SmolLM2-135M-Instruct.Q4_1.gguf")
}

/// A key as found in the environment: surrounding blanks dropped, blank meaning none.
fn key_from_value(value: Option<String>) -> Option<String> {
    value
        .map(|key| key.trim().to_owned())
        .filter(|key| !key.is_empty())
}

impl fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field(
                "api_key",
                &if self.api_key.is_some() {
                    "<set>"
                } else {
                    "<none>"
                },
            )
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("max_concurrent", &self.max_concurrent)
            .field("local", &self.local)
            .field("threads", &self.threads)
            .finish()
    }
}

/// Who speaks in a chat message; written in lower case on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One chat message, as sent in `messages`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    /// The instructions that frame the conversation.
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: Role::System,
            content: content.into(),
        }
    }

    /// What Curio asks.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A model's earlier answer, e.g. in a worked example.
    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_or_missing_key_means_none() {
        assert_eq!(key_from_value(None), None);
        assert_eq!(key_from_value(Some("  \n".to_owned())), None);
        assert_eq!(
            key_from_value(Some(" sk-abc\n".to_owned())),
            Some("sk-abc".to_owned())
        );
    }

    #[test]
    fn debug_shows_whether_a_key_is_set_but_not_the_key() {
        let mut config = LlmConfig {
            api_key: Some("sk-secret-123".to_owned()),
            ..LlmConfig::default()
        };
        let shown = format!("{config:?}");
        assert!(shown.contains("<set>"), "{shown}");
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        config.api_key = None;
        assert!(format!("{config:?}").contains("<none>"));
    }

    #[test]
    fn roles_are_lower_case_on_the_wire() {
        let text = serde_json::to_string(&[
            Message::system("s"),
            Message::user("u"),
            Message::assistant("a"),
        ])
        .unwrap();
        assert_eq!(
            text,
            r#"[{"role":"system","content":"s"},{"role":"user","content":"u"},{"role":"assistant","content":"a"}]"#
        );
    }
}
