//! The HTTP side: requests and their retries, the cap on requests in flight, the cache in
//! front of them, and reading the answers.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use reqwest::{Method, StatusCode, Url};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::Semaphore;

use crate::{LlmConfig, LlmError, Message, ResponseCache};

/// How much of an unexpected body an error quotes.
const BODY_EXCERPT_CHARS: usize = 300;
/// The wait before the first retry; it doubles with each further one.
const FIRST_BACKOFF: Duration = Duration::from_millis(500);
/// The longest wait between two tries, whatever the server's `Retry-After` says.
const MAX_WAIT: Duration = Duration::from_secs(30);

/// The model's reply to a chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The assistant's text; may be empty.
    pub text: String,
    /// Whether it came from the cache rather than the server.
    pub cached: bool,
    /// Why the model stopped, as the server says: `stop`, or `length` when the answer was
    /// cut off at the token limit and may be incomplete.
    pub finish_reason: Option<String>,
}

impl Answer {
    /// The model hit its token limit: the text may be cut short.
    pub fn truncated(&self) -> bool {
        self.finish_reason.as_deref() == Some("length")
    }
}

/// What this client (and its clones) has used so far, for the run's report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// HTTP requests sent, retries included.
    pub requests: u64,
    /// Chats and embeddings answered from the cache, with no request.
    pub cache_hits: u64,
    /// Prompt tokens, as the servers' `usage` fields report them.
    pub prompt_tokens: u64,
    /// Completion tokens, as the servers' `usage` fields report them.
    pub completion_tokens: u64,
}

/// A client for one model on one OpenAI-compatible server. Cloning is cheap and clones
/// share the cap on requests in flight, the cache and the usage totals.
#[derive(Clone)]
pub struct LlmClient {
    inner: Arc<Inner>,
}

struct Inner {
    config: LlmConfig,
    backend: Backend,
    cache: Option<ResponseCache>,
    requests: AtomicU64,
    cache_hits: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
}

/// Who answers.
enum Backend {
    /// An OpenAI-compatible server.
    Http(Box<Http>),
    /// A GGUF model in this process.
    #[cfg(feature = "local-llm")]
    Local(crate::local::LocalModel),
}

impl Backend {
    /// The server, when answers come from one.
    fn http(&self) -> Option<&Http> {
        match self {
            Backend::Http(http) => Some(http),
            #[cfg(feature = "local-llm")]
            Backend::Local(_) => None,
        }
    }
}

/// An OpenAI-compatible server's endpoints and how to reach them.
struct Http {
    /// `Authorization: Bearer …`, marked sensitive, when a key is set.
    authorization: Option<HeaderValue>,
    client: reqwest::Client,
    chat_url: Url,
    embed_url: Url,
    models_url: Url,
    in_flight: Semaphore,
}

/// The chat request body. Its fields serialise in this order whatever serde_json's
/// features, so the same question always gives the same cache key.
#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: &'a [Message],
    temperature: f32,
    /// The grammar a local model's answer is held to; part of the cache key, and never
    /// sent to a server.
    #[serde(skip_serializing_if = "Option::is_none")]
    grammar: Option<&'a str>,
}

/// The embeddings request body.
#[derive(Serialize)]
struct EmbedRequest<'a> {
    model: &'a str,
    input: &'a [String],
}

/// A chat answer as the cache keeps it.
#[derive(Serialize, Deserialize)]
struct StoredAnswer {
    text: String,
    finish_reason: Option<String>,
}

/// Which endpoint a cached answer came from.
#[derive(Clone, Copy)]
enum Kind {
    Chat,
    Embed,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Chat => "chat",
            Kind::Embed => "embed",
        }
    }
}

/// A server's final answer to one request, whatever its status.
struct Reply {
    status: StatusCode,
    retry_after: Option<String>,
    body: String,
}

impl LlmClient {
    /// A client for `config`, answering from `cache` when it holds the answer.
    ///
    /// Fails with [`LlmError::BadUrl`] when `base_url` is not an absolute http(s) URL
    /// without query or fragment, or when the key cannot be sent as a header.
    pub fn new(config: LlmConfig, cache: Option<ResponseCache>) -> Result<LlmClient, LlmError> {
        let backend = match &config.local {
            Some(path) => local_backend(path, config.threads)?,
            None => Backend::Http(Box::new(Http::new(&config)?)),
        };
        Ok(LlmClient {
            inner: Arc::new(Inner {
                config,
                backend,
                cache,
                requests: AtomicU64::new(0),
                cache_hits: AtomicU64::new(0),
                prompt_tokens: AtomicU64::new(0),
                completion_tokens: AtomicU64::new(0),
            }),
        })
    }

    /// Whether answers come from a model in this process rather than a server.
    pub fn is_local(&self) -> bool {
        self.inner.backend.http().is_none()
    }

    /// Asks the model at temperature 0 (so that a run can be repeated) and returns the
    /// assistant's text, from the cache when the same model was asked the same messages
    /// before. A truncated answer is returned, not refused: see [`Answer::truncated`].
    pub async fn chat(&self, messages: &[Message]) -> Result<Answer, LlmError> {
        self.chat_shaped(messages, None).await
    }

    /// [`LlmClient::chat`], with the shape a usable answer takes as a GBNF grammar
    /// (llama.cpp's format). A local model is held to it; a server is not sent it (the
    /// OpenAI API has no such field), so its answers still need a tolerant reader.
    pub async fn chat_shaped(
        &self,
        messages: &[Message],
        grammar: Option<&str>,
    ) -> Result<Answer, LlmError> {
        let inner = &*self.inner;
        let request = json_text(&ChatRequest {
            model: &inner.config.model,
            messages,
            temperature: 0.0,
            grammar: grammar.filter(|_| self.is_local()),
        });
        // An entry this version cannot read is asked again and replaced.
        if let Some(stored) = self.cached(Kind::Chat, &request).await?
            && let Ok(stored) = serde_json::from_str::<StoredAnswer>(&stored)
        {
            inner.cache_hits.fetch_add(1, Ordering::Relaxed);
            return Ok(Answer {
                text: stored.text,
                cached: true,
                finish_reason: stored.finish_reason,
            });
        }
        let stored = match &inner.backend {
            Backend::Http(http) => self.chat_over_http(http, &request).await?,
            #[cfg(feature = "local-llm")]
            Backend::Local(model) => {
                inner.requests.fetch_add(1, Ordering::Relaxed);
                let answer = model.chat(messages, grammar).await?;
                inner
                    .prompt_tokens
                    .fetch_add(answer.prompt_tokens, Ordering::Relaxed);
                inner
                    .completion_tokens
                    .fetch_add(answer.completion_tokens, Ordering::Relaxed);
                let finish = if answer.truncated { "length" } else { "stop" };
                StoredAnswer {
                    text: answer.text,
                    finish_reason: Some(finish.to_owned()),
                }
            }
        };
        self.store(Kind::Chat, request, json_text(&stored)).await?;
        Ok(Answer {
            text: stored.text,
            cached: false,
            finish_reason: stored.finish_reason,
        })
    }

    /// The answer to a chat `request` from the server.
    async fn chat_over_http(&self, http: &Http, request: &str) -> Result<StoredAnswer, LlmError> {
        let url = &http.chat_url;
        let reply = self.call(http, Method::POST, url, Some(request)).await?;
        let body = self.successful(url, reply)?;
        let value = self.parse(url, &body)?;
        self.count_tokens(&value);
        let Some(choice) = value.get("choices").and_then(|choices| choices.get(0)) else {
            return Err(self.malformed(url, self.missing("choices[0]", &value, &body)));
        };
        let Some(text) = choice.pointer("/message/content").and_then(Value::as_str) else {
            return Err(self.malformed(
                url,
                "choices[0].message.content is missing or not text".to_owned(),
            ));
        };
        Ok(StoredAnswer {
            text: text.to_owned(),
            finish_reason: choice
                .get("finish_reason")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }

    /// One embedding vector per text, in the order of `texts`, from the cache when the
    /// same model was asked the same texts before.
    pub async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, LlmError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let inner = &*self.inner;
        let request = json_text(&EmbedRequest {
            model: &inner.config.model,
            input: texts,
        });
        if let Some(stored) = self.cached(Kind::Embed, &request).await?
            && let Ok(vectors) = serde_json::from_str::<Vec<Vec<f32>>>(&stored)
            && vectors.len() == texts.len()
        {
            inner.cache_hits.fetch_add(1, Ordering::Relaxed);
            return Ok(vectors);
        }
        let Some(http) = inner.backend.http() else {
            return Err(LlmError::Local {
                path: inner.config.local.clone().unwrap_or_default(),
                reason: "it gives no embeddings; a model server does".to_owned(),
            });
        };
        let url = &http.embed_url;
        let reply = self.call(http, Method::POST, url, Some(&request)).await?;
        let body = self.successful(url, reply)?;
        let value = self.parse(url, &body)?;
        self.count_tokens(&value);
        let vectors = self.read_vectors(url, &value, &body, texts.len())?;
        self.store(Kind::Embed, request, json_text(&vectors))
            .await?;
        Ok(vectors)
    }

    /// A cheap start-up check: asks `GET {base_url}/models` and fails with
    /// [`LlmError::UnknownModel`] when the server lists its models and the configured one
    /// is not among them (Ollama's `name:latest` counts as `name`). A server without the
    /// list (404 or 405) passes; one that cannot be reached fails with
    /// [`LlmError::Unreachable`].
    pub async fn check(&self) -> Result<(), LlmError> {
        let inner = &*self.inner;
        let Some(http) = inner.backend.http() else {
            // A local model was checked when it was loaded.
            return Ok(());
        };
        let url = &http.models_url;
        let reply = self.call(http, Method::GET, url, None).await?;
        if matches!(reply.status.as_u16(), 404 | 405) {
            return Ok(());
        }
        let body = self.successful(url, reply)?;
        let value = self.parse(url, &body)?;
        let Some(models) = value.get("data").and_then(Value::as_array) else {
            return Err(self.malformed(url, self.missing("a `data` list", &value, &body)));
        };
        let wanted = &inner.config.model;
        let listed = models
            .iter()
            .filter_map(|model| model.get("id").and_then(Value::as_str))
            .any(|id| same_model(id, wanted));
        if listed {
            Ok(())
        } else {
            Err(LlmError::UnknownModel {
                model: wanted.clone(),
                url: url.to_string(),
            })
        }
    }

    /// Totals so far, over this client and its clones.
    pub fn usage(&self) -> Usage {
        let inner = &*self.inner;
        Usage {
            requests: inner.requests.load(Ordering::Relaxed),
            cache_hits: inner.cache_hits.load(Ordering::Relaxed),
            prompt_tokens: inner.prompt_tokens.load(Ordering::Relaxed),
            completion_tokens: inner.completion_tokens.load(Ordering::Relaxed),
        }
    }

    /// Sends one request, trying again after 429, 5xx and transport failures up to
    /// `max_retries` times; returns the last reply, successful or not.
    async fn call(
        &self,
        http: &Http,
        method: Method,
        url: &Url,
        body: Option<&str>,
    ) -> Result<Reply, LlmError> {
        let max_retries = self.inner.config.max_retries;
        let mut attempt = 0;
        loop {
            let wait = match self.call_once(http, method.clone(), url, body).await {
                Ok(reply) if attempt >= max_retries || !worth_retrying(reply.status) => {
                    return Ok(reply);
                }
                Ok(reply) => retry_delay(attempt, reply.retry_after.as_deref()),
                Err(e) if attempt >= max_retries || e.is_builder() => {
                    return Err(self.unreachable(url, &e, attempt + 1));
                }
                Err(_) => retry_delay(attempt, None),
            };
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    /// One try, holding one of the `max_concurrent` permits while it is in flight (not
    /// while waiting to retry).
    async fn call_once(
        &self,
        http: &Http,
        method: Method,
        url: &Url,
        body: Option<&str>,
    ) -> Result<Reply, reqwest::Error> {
        let _permit = http
            .in_flight
            .acquire()
            .await
            .expect("the client never closes its semaphore");
        let mut request = http
            .client
            .request(method, url.clone())
            .header(ACCEPT, "application/json");
        if let Some(authorization) = &http.authorization {
            request = request.header(AUTHORIZATION, authorization.clone());
        }
        if let Some(body) = body {
            request = request
                .header(CONTENT_TYPE, "application/json")
                .body(body.to_owned());
        }
        self.inner.requests.fetch_add(1, Ordering::Relaxed);
        let response = request.send().await?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let body = response.text().await?;
        Ok(Reply {
            status,
            retry_after,
            body,
        })
    }

    /// The body of a successful reply, or the error its status means.
    fn successful(&self, url: &Url, reply: Reply) -> Result<String, LlmError> {
        let model = &self.inner.config.model;
        match reply.status.as_u16() {
            200..=299 => Ok(reply.body),
            401 | 403 => Err(LlmError::Unauthorized {
                url: url.to_string(),
            }),
            404 if mentions_unknown_model(&reply.body, model) => Err(LlmError::UnknownModel {
                model: model.clone(),
                url: url.to_string(),
            }),
            status => Err(LlmError::Status {
                url: url.to_string(),
                status,
                body_excerpt: self.excerpt(&reply.body),
            }),
        }
    }

    fn parse(&self, url: &Url, body: &str) -> Result<Value, LlmError> {
        serde_json::from_str(body)
            .map_err(|e| self.malformed(url, format!("not JSON ({e}): {}", self.excerpt(body))))
    }

    /// The vectors of an embeddings answer, put in input order by their `index`.
    fn read_vectors(
        &self,
        url: &Url,
        value: &Value,
        body: &str,
        count: usize,
    ) -> Result<Vec<Vec<f32>>, LlmError> {
        let malformed = |reason: String| self.malformed(url, reason);
        let Some(data) = value.get("data").and_then(Value::as_array) else {
            return Err(malformed(self.missing("a `data` list", value, body)));
        };
        if data.len() != count {
            return Err(malformed(format!(
                "{} vectors for {count} texts",
                data.len()
            )));
        }
        let mut vectors: Vec<Option<Vec<f32>>> = vec![None; count];
        for (position, item) in data.iter().enumerate() {
            let index = match item.get("index") {
                None | Some(Value::Null) => position,
                Some(index) => index
                    .as_u64()
                    .and_then(|index| usize::try_from(index).ok())
                    .filter(|&index| index < count)
                    .ok_or_else(|| {
                        malformed(format!("data[{position}].index is not one of the inputs"))
                    })?,
            };
            let vector = item
                .get("embedding")
                .and_then(Value::as_array)
                .ok_or_else(|| malformed(format!("data[{position}].embedding is missing")))?
                .iter()
                .map(|x| x.as_f64().map(|x| x as f32))
                .collect::<Option<Vec<f32>>>()
                .ok_or_else(|| {
                    malformed(format!(
                        "data[{position}].embedding holds something other than numbers"
                    ))
                })?;
            if vectors[index].replace(vector).is_some() {
                return Err(malformed(format!("two vectors for input {index}")));
            }
        }
        // Every slot is filled: as many vectors as slots, none twice.
        Ok(vectors.into_iter().flatten().collect())
    }

    fn count_tokens(&self, answer: &Value) {
        let tokens = |field: &str| {
            answer
                .get("usage")
                .and_then(|usage| usage.get(field))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        let inner = &*self.inner;
        inner
            .prompt_tokens
            .fetch_add(tokens("prompt_tokens"), Ordering::Relaxed);
        inner
            .completion_tokens
            .fetch_add(tokens("completion_tokens"), Ordering::Relaxed);
    }

    async fn cached(&self, kind: Kind, request: &str) -> Result<Option<String>, LlmError> {
        let Some(cache) = self.inner.cache.clone() else {
            return Ok(None);
        };
        let model = self.inner.config.model.clone();
        let request = request.to_owned();
        let path = cache.path().to_owned();
        off_thread(path, move || cache.get(&model, kind.as_str(), &request)).await
    }

    async fn store(&self, kind: Kind, request: String, answer: String) -> Result<(), LlmError> {
        let Some(cache) = self.inner.cache.clone() else {
            return Ok(());
        };
        let model = self.inner.config.model.clone();
        let path = cache.path().to_owned();
        off_thread(path, move || {
            cache.put(&model, kind.as_str(), &request, &answer)
        })
        .await
    }

    fn unreachable(&self, url: &Url, error: &reqwest::Error, tries: u32) -> LlmError {
        let reason = if error.is_timeout() {
            format!("no answer within {:?}", self.inner.config.timeout)
        } else {
            causes(error)
        };
        let tries = if tries == 1 {
            "1 try".to_owned()
        } else {
            format!("{tries} tries")
        };
        LlmError::Unreachable {
            url: url.to_string(),
            reason: self.redact(&format!("{reason} ({tries})")),
        }
    }

    fn malformed(&self, url: &Url, reason: String) -> LlmError {
        LlmError::Malformed {
            url: url.to_string(),
            reason: self.redact(&reason),
        }
    }

    /// The reason for a `Malformed` answer lacking `what`, quoting the server's own error
    /// message when the JSON carries one.
    fn missing(&self, what: &str, value: &Value, body: &str) -> String {
        match value
            .pointer("/error/message")
            .or_else(|| value.get("error"))
            .and_then(Value::as_str)
        {
            Some(message) => format!("no {what}; the server says: {message}"),
            None => format!("no {what} in {}", self.excerpt(body)),
        }
    }

    /// The start of a body, for an error message, with the key taken out in case the
    /// server echoes it.
    fn excerpt(&self, body: &str) -> String {
        self.redact(body)
            .trim()
            .chars()
            .take(BODY_EXCERPT_CHARS)
            .collect()
    }

    fn redact(&self, text: &str) -> String {
        match &self.inner.config.api_key {
            Some(key) if !key.is_empty() => text.replace(key.as_str(), "<redacted>"),
            _ => text.to_owned(),
        }
    }
}

impl Http {
    /// The endpoints under `config.base_url`.
    ///
    /// Fails with [`LlmError::BadUrl`] when `base_url` is not an absolute http(s) URL
    /// without query or fragment, or when the key cannot be sent as a header.
    fn new(config: &LlmConfig) -> Result<Http, LlmError> {
        let bad = |reason: String| LlmError::BadUrl {
            url: config.base_url.clone(),
            reason,
        };
        let root = api_root(&config.base_url).map_err(bad)?;
        let endpoint = |path: &str| {
            Url::parse(&format!("{root}{path}")).map_err(|e| bad(format!("{e} (with {path})")))
        };
        let chat_url = endpoint("/chat/completions")?;
        let embed_url = endpoint("/embeddings")?;
        let models_url = endpoint("/models")?;
        let authorization = match &config.api_key {
            Some(key) => {
                let mut value = HeaderValue::from_str(&format!("Bearer {key}")).map_err(|_| {
                    bad("the API key holds characters an HTTP header cannot carry".to_owned())
                })?;
                value.set_sensitive(true);
                Some(value)
            }
            None => None,
        };
        install_crypto_provider();
        let mut client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .user_agent(concat!("curio-llm/", env!("CARGO_PKG_VERSION")));
        if is_loopback(&chat_url) {
            // A model server on this machine is never behind the HTTP(S)_PROXY that a
            // hosted provider may need.
            client = client.no_proxy();
        }
        let client = client
            .build()
            .map_err(|e| bad(format!("the HTTP client cannot be set up: {}", causes(&e))))?;
        Ok(Http {
            in_flight: Semaphore::new(config.max_concurrent.max(1)),
            authorization,
            client,
            chat_url,
            embed_url,
            models_url,
        })
    }
}

/// The local model at `path`.
#[cfg(feature = "local-llm")]
fn local_backend(path: &std::path::Path, threads: usize) -> Result<Backend, LlmError> {
    crate::local::LocalModel::load(path, threads).map(Backend::Local)
}

/// Without the `local-llm` feature there is no local model.
#[cfg(not(feature = "local-llm"))]
fn local_backend(path: &std::path::Path, _threads: usize) -> Result<Backend, LlmError> {
    Err(LlmError::Local {
        path: path.to_owned(),
        reason: crate::LOCAL_UNAVAILABLE.to_owned(),
    })
}

impl fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmClient")
            .field("config", &self.inner.config)
            .field("cache", &self.inner.cache)
            .field("usage", &self.usage())
            .finish_non_exhaustive()
    }
}

/// The base URL without its trailing slashes, once it is known to be an absolute http(s)
/// URL to which endpoint paths can be appended.
fn api_root(base_url: &str) -> Result<String, String> {
    let trimmed = base_url.trim();
    if trimmed.is_empty() {
        return Err("it is empty".to_owned());
    }
    let url = Url::parse(trimmed).map_err(|e| e.to_string())?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "the scheme is `{}`, not http or https",
            url.scheme()
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("it names no host".to_owned());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("it has a query or fragment, so paths cannot be appended to it".to_owned());
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// Whether the server is on this machine.
fn is_loopback(url: &Url) -> bool {
    let host = url.host_str().unwrap_or_default();
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Makes rustls use *ring* (built with a C compiler alone, unlike aws-lc) unless the
/// program already chose a provider.
fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Losing a race to another thread installing one is fine.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

fn worth_retrying(status: StatusCode) -> bool {
    status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
}

/// The wait before retry number `attempt + 1`: the server's `Retry-After` in seconds when
/// it gives one, else 500 ms doubled per earlier retry; never more than 30 s.
fn retry_delay(attempt: u32, retry_after: Option<&str>) -> Duration {
    let wait = match retry_after.and_then(|value| value.trim().parse::<u64>().ok()) {
        Some(seconds) => Duration::from_secs(seconds),
        None => FIRST_BACKOFF.saturating_mul(2u32.saturating_pow(attempt)),
    };
    wait.min(MAX_WAIT)
}

/// Whether a 404's body is about the model rather than the path: it names the model,
/// carries OpenAI's `model_not_found` code, or says a model was not found / does not
/// exist. A bare "404 page not found" (a wrong base URL) is not.
fn mentions_unknown_model(body: &str, model: &str) -> bool {
    let lower = body.to_lowercase();
    lower.contains("model_not_found")
        || (!model.is_empty() && body.contains(model))
        || (lower.contains("model")
            && (lower.contains("not found") || lower.contains("does not exist")))
}

/// Whether a model id from `/models` is the configured one; Ollama lists `name:latest`
/// for the `name` it also accepts.
fn same_model(listed: &str, wanted: &str) -> bool {
    listed == wanted
        || listed.strip_suffix(":latest") == Some(wanted)
        || wanted.strip_suffix(":latest") == Some(listed)
}

/// A transport error's causes, innermost last, without the request URL reqwest puts
/// first (the error names it already).
fn causes(error: &reqwest::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let text = cause.to_string();
        if parts.last() != Some(&text) {
            parts.push(text);
        }
        source = cause.source();
    }
    if parts.is_empty() {
        error.to_string()
    } else {
        parts.join(": ")
    }
}

fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("request and answer bodies are plain JSON")
}

/// Runs a cache access on the blocking pool: the run store's writer may hold the file
/// for a moment, and that wait must not stall the runtime's workers.
async fn off_thread<T: Send + 'static>(
    path: PathBuf,
    work: impl FnOnce() -> Result<T, LlmError> + Send + 'static,
) -> Result<T, LlmError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| LlmError::Cache {
            path,
            reason: format!("the cache access did not finish: {e}"),
        })?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_half_a_second_and_stops_at_thirty() {
        assert_eq!(retry_delay(0, None), Duration::from_millis(500));
        assert_eq!(retry_delay(1, None), Duration::from_secs(1));
        assert_eq!(retry_delay(2, None), Duration::from_secs(2));
        assert_eq!(retry_delay(10, None), Duration::from_secs(30));
        assert_eq!(retry_delay(u32::MAX, None), Duration::from_secs(30));
    }

    #[test]
    fn retry_after_seconds_win_up_to_thirty() {
        assert_eq!(retry_delay(3, Some("0")), Duration::ZERO);
        assert_eq!(retry_delay(0, Some(" 7 ")), Duration::from_secs(7));
        assert_eq!(retry_delay(0, Some("3600")), Duration::from_secs(30));
        // An HTTP date is not understood: the backoff applies.
        assert_eq!(
            retry_delay(1, Some("Wed, 21 Oct 2015 07:28:00 GMT")),
            Duration::from_secs(1)
        );
    }

    #[test]
    fn only_overload_and_server_errors_are_retried() {
        for status in [429, 500, 502, 503, 504, 599] {
            assert!(
                worth_retrying(StatusCode::from_u16(status).unwrap()),
                "{status}"
            );
        }
        for status in [200, 400, 401, 403, 404, 422] {
            assert!(
                !worth_retrying(StatusCode::from_u16(status).unwrap()),
                "{status}"
            );
        }
    }

    #[test]
    fn base_urls() {
        assert_eq!(
            api_root("http://127.0.0.1:11434/v1/").unwrap(),
            "http://127.0.0.1:11434/v1"
        );
        assert_eq!(
            api_root(" https://api.example.com ").unwrap(),
            "https://api.example.com"
        );
        for bad in [
            "",
            "localhost:11434/v1",
            "ftp://host/v1",
            "http://host/v1?x=1",
            "http://",
        ] {
            assert!(api_root(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_404_about_the_model_is_told_from_a_wrong_path() {
        assert!(mentions_unknown_model(
            r#"{"error":{"code":"model_not_found"}}"#,
            "m"
        ));
        assert!(mentions_unknown_model(
            r#"{"error":{"message":"model \"llama9\" not found, try pulling it first"}}"#,
            "llama9"
        ));
        assert!(mentions_unknown_model(
            "The model `gpt-9` does not exist.",
            "gpt-9"
        ));
        assert!(!mentions_unknown_model("404 page not found", "llama3"));
    }

    #[test]
    fn local_servers_are_told_from_remote_ones() {
        for local in [
            "http://localhost:11434/v1",
            "http://127.0.0.2:8080",
            "http://[::1]:8000/v1",
        ] {
            assert!(is_loopback(&Url::parse(local).unwrap()), "{local}");
        }
        for remote in ["https://api.openai.com/v1", "http://192.168.1.20:11434/v1"] {
            assert!(!is_loopback(&Url::parse(remote).unwrap()), "{remote}");
        }
    }

    #[test]
    fn ollama_latest_tag_is_the_bare_name() {
        assert!(same_model("llama3.2:latest", "llama3.2"));
        assert!(same_model("llama3.2", "llama3.2:latest"));
        assert!(same_model("gpt-4o-mini", "gpt-4o-mini"));
        assert!(!same_model("llama3.2:1b", "llama3.2"));
    }
}
