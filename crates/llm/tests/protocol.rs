//! The client against a local server speaking the OpenAI API on 127.0.0.1: what it sends,
//! how it reads answers and failures, its retries, its cap on requests in flight, its
//! cache, and that the API key never leaks.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use curio_llm::{LlmClient, LlmConfig, LlmError, Message, ResponseCache, Role, Usage};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const KEY: &str = "sk-test-9f8e7d6c5b4a";
const MODEL: &str = "test-model";

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    authorization: Option<String>,
    content_type: Option<String>,
    body: String,
}

impl Seen {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("the client sends JSON")
    }
}

/// What the server answers to one request.
struct Canned {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: String,
    delay: Duration,
}

impl Canned {
    fn json(status: u16, body: Value) -> Canned {
        Canned::text(status, body.to_string())
    }

    fn text(status: u16, body: impl Into<String>) -> Canned {
        Canned {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    fn header(mut self, name: &'static str, value: &str) -> Canned {
        self.headers.push((name, value.to_owned()));
        self
    }

    fn after(mut self, delay: Duration) -> Canned {
        self.delay = delay;
        self
    }
}

/// A chat answer as OpenAI gives it, with token counts.
fn chat_answer(text: &str) -> Canned {
    chat_answer_with(json!(text), "stop")
}

fn chat_answer_with(content: Value, finish_reason: &str) -> Canned {
    Canned::json(
        200,
        json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": MODEL,
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason
            }],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
        }),
    )
}

type Script = dyn Fn(usize, &Seen) -> Canned + Send + Sync;

struct Shared {
    seen: Mutex<Vec<Seen>>,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
    script: Box<Script>,
}

/// A scripted OpenAI-compatible server on 127.0.0.1; `script` gets each request's number
/// (from 0) and the request.
struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl Server {
    async fn start(script: impl Fn(usize, &Seen) -> Canned + Send + Sync + 'static) -> Server {
        let shared = Arc::new(Shared {
            seen: Mutex::new(Vec::new()),
            in_flight: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            script: Box::new(script),
        });
        let app = Router::new()
            .fallback(answer)
            .with_state(Arc::clone(&shared));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Server { addr, shared }
    }

    fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().unwrap().clone()
    }

    fn requests(&self) -> usize {
        self.shared.seen.lock().unwrap().len()
    }

    fn peak_in_flight(&self) -> usize {
        self.shared.peak.load(Ordering::SeqCst)
    }
}

async fn answer(
    State(shared): State<Arc<Shared>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let text = |name: header::HeaderName| {
        headers
            .get(name)
            .map(|value| value.to_str().unwrap().to_owned())
    };
    let seen = Seen {
        method: method.to_string(),
        path: uri.path().to_owned(),
        authorization: text(header::AUTHORIZATION),
        content_type: text(header::CONTENT_TYPE),
        body,
    };
    let number = {
        let mut log = shared.seen.lock().unwrap();
        log.push(seen.clone());
        log.len() - 1
    };
    let canned = (shared.script)(number, &seen);
    let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    shared.peak.fetch_max(now, Ordering::SeqCst);
    tokio::time::sleep(canned.delay).await;
    shared.in_flight.fetch_sub(1, Ordering::SeqCst);
    let mut response = (StatusCode::from_u16(canned.status).unwrap(), canned.body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    for (name, value) in canned.headers {
        response.headers_mut().insert(
            HeaderName::from_static(name),
            HeaderValue::from_str(&value).unwrap(),
        );
    }
    response
}

fn config(server: &Server, key: Option<&str>) -> LlmConfig {
    LlmConfig {
        base_url: server.base_url(),
        model: MODEL.to_owned(),
        api_key: key.map(str::to_owned),
        timeout: Duration::from_secs(10),
        max_retries: 3,
        max_concurrent: 2,
        ..LlmConfig::default()
    }
}

fn client(config: LlmConfig) -> LlmClient {
    LlmClient::new(config, None).unwrap()
}

fn question() -> Vec<Message> {
    vec![
        Message::system("You state the constraints of web form fields."),
        Message::user("Field `zip`, label \"ZIP code\", hint \"e.g. 94105\"."),
    ]
}

/// A port on 127.0.0.1 where nothing listens.
fn dead_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Fails the test instead of hanging it when a limit the client should enforce is gone.
async fn within<T>(limit: Duration, work: impl Future<Output = T>) -> T {
    tokio::time::timeout(limit, work)
        .await
        .expect("the client should have given up by now")
}

// 1. Request shape

#[tokio::test]
async fn chat_posts_model_messages_and_temperature_zero_with_the_bearer_key() {
    let server = Server::start(|_, _| chat_answer("^\\d{5}$")).await;
    let client = client(config(&server, Some(KEY)));
    let answer = client.chat(&question()).await.unwrap();
    assert_eq!(answer.text, "^\\d{5}$");
    assert!(!answer.cached);
    assert_eq!(answer.finish_reason.as_deref(), Some("stop"));

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    let request = &seen[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(
        request.authorization.as_deref(),
        Some(&*format!("Bearer {KEY}"))
    );
    assert_eq!(request.content_type.as_deref(), Some("application/json"));
    let body = request.json();
    assert_eq!(body["model"], MODEL);
    assert_eq!(body["temperature"].as_f64(), Some(0.0));
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": "You state the constraints of web form fields."},
            {"role": "user", "content": "Field `zip`, label \"ZIP code\", hint \"e.g. 94105\"."}
        ])
    );
}

#[tokio::test]
async fn no_authorization_header_without_a_key() {
    let server = Server::start(|_, _| chat_answer("ok")).await;
    client(config(&server, None))
        .chat(&[Message::user("hi")])
        .await
        .unwrap();
    assert_eq!(server.seen()[0].authorization, None);
}

#[tokio::test]
async fn embeddings_post_model_and_input_and_come_back_in_input_order() {
    // The server lists the vectors in reverse; their `index` says where each belongs.
    let server = Server::start(|_, _| {
        Canned::json(
            200,
            json!({
                "object": "list",
                "data": [
                    {"object": "embedding", "index": 2, "embedding": [3.0, 0.5]},
                    {"object": "embedding", "index": 1, "embedding": [2.0, 0.5]},
                    {"object": "embedding", "index": 0, "embedding": [1.0, 0.5]}
                ],
                "model": MODEL,
                "usage": {"prompt_tokens": 9, "total_tokens": 9}
            }),
        )
    })
    .await;
    let client = client(config(&server, Some(KEY)));
    let texts = ["First name", "Last name", "E-mail"].map(String::from);
    let vectors = client.embed(&texts).await.unwrap();
    assert_eq!(
        vectors,
        vec![vec![1.0, 0.5], vec![2.0, 0.5], vec![3.0, 0.5]]
    );
    let seen = server.seen();
    assert_eq!(seen[0].method, "POST");
    assert_eq!(seen[0].path, "/v1/embeddings");
    assert_eq!(
        seen[0].authorization.as_deref(),
        Some(&*format!("Bearer {KEY}"))
    );
    assert_eq!(
        seen[0].json(),
        json!({"model": MODEL, "input": ["First name", "Last name", "E-mail"]})
    );
    assert_eq!(client.usage().prompt_tokens, 9);
    // No texts, no request.
    assert!(client.embed(&[]).await.unwrap().is_empty());
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn the_client_is_cheap_to_share_between_tasks() {
    fn shareable<T: Clone + Send + Sync + 'static>() {}
    shareable::<LlmClient>();
    shareable::<ResponseCache>();
}

// 2. The key never leaks

#[tokio::test]
async fn the_key_is_in_no_debug_output_error_or_cache_file() {
    let leaks = |text: &str| text.contains(KEY);
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");

    // Every route answers with a body that echoes the key, as some providers do.
    let server = Server::start(|_, seen| {
        let echo = format!("key {KEY} was used");
        match seen.path.as_str() {
            "/v1/chat/completions" if seen.body.contains("unauthorised") => {
                Canned::json(401, json!({"error": {"message": echo}}))
            }
            "/v1/chat/completions" if seen.body.contains("status") => {
                Canned::json(400, json!({"error": {"message": echo}}))
            }
            "/v1/chat/completions" if seen.body.contains("garbage") => {
                Canned::text(200, format!("<html>{echo}</html>"))
            }
            "/v1/chat/completions" if seen.body.contains("no choices") => {
                Canned::json(200, json!({"error": echo}))
            }
            "/v1/chat/completions" => chat_answer("fine"),
            _ => Canned::json(
                404,
                json!({"error": {"message": format!("model 'x' not found ({echo})"), "code": "model_not_found"}}),
            ),
        }
    })
    .await;
    let mut with_key = config(&server, Some(KEY));
    with_key.max_retries = 0;
    let cache = ResponseCache::open(&db).unwrap();
    let client = LlmClient::new(with_key.clone(), Some(cache.clone())).unwrap();

    assert!(format!("{with_key:?}").contains("<set>"));
    assert!(!leaks(&format!("{with_key:?}")));
    assert!(!leaks(&format!("{client:?}")));
    assert!(!leaks(&format!("{cache:?}")));

    let mut errors = Vec::new();
    for prompt in ["unauthorised", "status", "garbage", "no choices"] {
        errors.push(client.chat(&[Message::user(prompt)]).await.unwrap_err());
    }
    errors.push(client.embed(&["unknown".to_owned()]).await.unwrap_err());
    let unreachable = LlmClient::new(
        LlmConfig {
            base_url: format!("http://127.0.0.1:{}/v1", dead_port()),
            ..with_key.clone()
        },
        None,
    )
    .unwrap();
    errors.push(unreachable.chat(&question()).await.unwrap_err());
    errors.push(
        LlmClient::new(
            LlmConfig {
                base_url: "127.0.0.1:11434/v1".to_owned(),
                ..with_key.clone()
            },
            None,
        )
        .unwrap_err(),
    );
    errors.push(ResponseCache::open(dir.path()).unwrap_err());
    // With the local-llm feature the file is missing; without, the feature is.
    let missing = dir.path().join("missing.gguf");
    errors.push(LlmClient::new(LlmConfig::local(&missing), None).unwrap_err());
    assert!(
        errors.last().unwrap().to_string().contains("missing.gguf"),
        "{}",
        errors.last().unwrap()
    );

    let kinds: Vec<&str> = errors
        .iter()
        .map(|error| match error {
            LlmError::Unauthorized { .. } => "unauthorized",
            LlmError::Status { .. } => "status",
            LlmError::Malformed { .. } => "malformed",
            LlmError::UnknownModel { .. } => "unknown model",
            LlmError::Unreachable { .. } => "unreachable",
            LlmError::BadUrl { .. } => "bad url",
            LlmError::Cache { .. } => "cache",
            LlmError::Local { .. } => "local",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "unauthorized",
            "status",
            "malformed",
            "malformed",
            "unknown model",
            "unreachable",
            "bad url",
            "cache",
            "local"
        ]
    );
    for error in &errors {
        assert!(!leaks(&error.to_string()), "{error}");
        assert!(!leaks(&format!("{error:?}")), "{error:?}");
    }
    // The echoed bodies are still quoted, with the key taken out.
    assert!(
        errors[1].to_string().contains("<redacted> was used"),
        "{}",
        errors[1]
    );

    client.chat(&question()).await.unwrap();
    assert_eq!(cache.entries().unwrap(), 1);
    drop(client);
    drop(cache);
    let bytes = std::fs::read(&db).unwrap();
    let contains = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    // The file does hold the request and its answer…
    assert!(contains("ZIP code") && contains(MODEL) && contains("fine"));
    // …but not the key.
    assert!(!contains(KEY));
}

// 3. Retries

#[tokio::test]
async fn overload_is_retried_until_the_server_answers() {
    let server = Server::start(|number, _| {
        if number < 2 {
            Canned::json(429, json!({"error": {"message": "slow down"}})).header("retry-after", "0")
        } else {
            chat_answer("third time")
        }
    })
    .await;
    let client = client(config(&server, None));
    let answer = within(Duration::from_secs(5), client.chat(&question()))
        .await
        .unwrap();
    assert_eq!(answer.text, "third time");
    assert_eq!(server.requests(), 3);
    assert_eq!(client.usage().requests, 3);
}

#[tokio::test]
async fn a_server_error_that_lasts_is_a_status_error_after_every_retry() {
    let server =
        Server::start(|_, _| Canned::text(503, "model is loading").header("retry-after", "0"))
            .await;
    let mut config = config(&server, None);
    config.max_retries = 2;
    let error = within(Duration::from_secs(5), client(config).chat(&question()))
        .await
        .unwrap_err();
    match &error {
        LlmError::Status {
            url,
            status,
            body_excerpt,
        } => {
            assert_eq!(*status, 503);
            assert_eq!(url, &format!("{}/chat/completions", server.base_url()));
            assert_eq!(body_excerpt, "model is loading");
        }
        other => panic!("expected a status error, got {other:?}"),
    }
    assert_eq!(server.requests(), 3);
}

#[tokio::test]
async fn a_bad_request_is_not_retried() {
    let long = "x".repeat(1000);
    let server = Server::start(move |_, _| Canned::text(400, long.clone())).await;
    let error = client(config(&server, None))
        .chat(&question())
        .await
        .unwrap_err();
    match error {
        LlmError::Status {
            status,
            body_excerpt,
            ..
        } => {
            assert_eq!(status, 400);
            assert_eq!(body_excerpt.chars().count(), 300);
        }
        other => panic!("expected a status error, got {other:?}"),
    }
    assert_eq!(server.requests(), 1);
}

/// How long a chat takes when the server gives `first` and then an answer, and how many
/// requests it got.
async fn time_to_answer_after(first: fn() -> Canned) -> (Duration, usize) {
    let server = Server::start(move |number, _| {
        if number == 0 {
            first()
        } else {
            chat_answer("ok")
        }
    })
    .await;
    let started = Instant::now();
    client(config(&server, None))
        .chat(&question())
        .await
        .unwrap();
    (started.elapsed(), server.requests())
}

#[tokio::test]
async fn retries_back_off_from_half_a_second_and_honour_retry_after() {
    // No Retry-After: the first retry waits 500 ms.
    let (waited, _) = time_to_answer_after(|| Canned::text(500, "oops")).await;
    assert!(waited >= Duration::from_millis(480), "{waited:?}");
    assert!(waited < Duration::from_secs(2), "{waited:?}");

    // Retry-After: 1 makes it wait a second instead.
    let (waited, requests) =
        time_to_answer_after(|| Canned::text(429, "busy").header("retry-after", "1")).await;
    assert!(waited >= Duration::from_millis(980), "{waited:?}");
    assert_eq!(requests, 2);
}

/// A bare HTTP/1.1 server on 127.0.0.1 that drops the first connection as soon as the
/// request arrives, then answers every later one.
async fn flaky_server(answer: String) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&connections);
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else {
                return;
            };
            let first = count.fetch_add(1, Ordering::SeqCst) == 0;
            let answer = answer.clone();
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buffer = [0u8; 4096];
                // Read the head and the body its Content-Length announces.
                loop {
                    let Ok(read) = stream.read(&mut buffer).await else {
                        return;
                    };
                    if read == 0 {
                        return;
                    }
                    request.extend_from_slice(&buffer[..read]);
                    let text = String::from_utf8_lossy(&request).to_lowercase();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text
                            .lines()
                            .find_map(|line| line.strip_prefix("content-length:"))
                            .and_then(|value| value.trim().parse::<usize>().ok())
                            .unwrap_or(0);
                        if request.len() >= end + 4 + length {
                            break;
                        }
                    }
                }
                if first {
                    return; // dropped: the connection closes with no answer
                }
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                    answer.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
                let _ = stream.shutdown().await;
            });
        }
    });
    (addr, connections)
}

#[tokio::test]
async fn a_dropped_connection_is_retried() {
    let answer = chat_answer("after the drop").body;
    let (addr, connections) = flaky_server(answer).await;
    let client = client(LlmConfig {
        base_url: format!("http://{addr}/v1"),
        model: MODEL.to_owned(),
        timeout: Duration::from_secs(5),
        ..LlmConfig::default()
    });
    let answer = within(Duration::from_secs(5), client.chat(&question()))
        .await
        .unwrap();
    assert_eq!(answer.text, "after the drop");
    assert_eq!(connections.load(Ordering::SeqCst), 2);
}

// 4. The cap on requests in flight

#[tokio::test]
async fn no_more_than_max_concurrent_requests_are_in_flight() {
    let server = Server::start(|_, _| chat_answer("slow").after(Duration::from_millis(200))).await;
    let client = client(config(&server, None));
    let started = Instant::now();
    let mut chats = tokio::task::JoinSet::new();
    for field in 0..6 {
        let client = client.clone();
        chats.spawn(async move {
            client
                .chat(&[Message::user(format!("field {field}"))])
                .await
        });
    }
    while let Some(done) = chats.join_next().await {
        assert_eq!(done.unwrap().unwrap().text, "slow");
    }
    assert_eq!(server.requests(), 6);
    assert_eq!(server.peak_in_flight(), 2);
    // Three rounds of two.
    assert!(
        started.elapsed() >= Duration::from_millis(590),
        "{:?}",
        started.elapsed()
    );
}

// 5. The cache

#[tokio::test]
async fn the_cache_answers_repeated_questions_across_clients_and_reopenings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.db");
    // The run store already holds its own tables.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE runs (id INTEGER PRIMARY KEY, url TEXT);
             INSERT INTO runs (url) VALUES ('http://127.0.0.1:8080/');",
        )
        .unwrap();
    }
    let server = Server::start(|number, _| chat_answer(&format!("answer {number}"))).await;

    let client_one = LlmClient::new(
        config(&server, None),
        Some(ResponseCache::open(&db).unwrap()),
    )
    .unwrap();
    let first = client_one.chat(&question()).await.unwrap();
    let again = client_one.chat(&question()).await.unwrap();
    assert_eq!((first.text.as_str(), first.cached), ("answer 0", false));
    assert_eq!((again.text.as_str(), again.cached), ("answer 0", true));
    assert_eq!(again.finish_reason.as_deref(), Some("stop"));
    assert_eq!(server.requests(), 1);
    assert_eq!(
        client_one.usage(),
        Usage {
            requests: 1,
            cache_hits: 1,
            prompt_tokens: 11,
            completion_tokens: 7
        }
    );
    drop(client_one);

    // A later run: a new client on the same file, opened again.
    let client_two = LlmClient::new(
        config(&server, None),
        Some(ResponseCache::open(&db).unwrap()),
    )
    .unwrap();
    let later = client_two.chat(&question()).await.unwrap();
    assert_eq!((later.text.as_str(), later.cached), ("answer 0", true));
    assert_eq!(server.requests(), 1);

    // Another question, or another model, is asked.
    let mut other = question();
    other.push(Message {
        role: Role::User,
        content: "And `city`?".to_owned(),
    });
    assert!(!client_two.chat(&other).await.unwrap().cached);
    assert_eq!(server.requests(), 2);
    let mut other_model = config(&server, None);
    other_model.model = "other-model".to_owned();
    let client_three =
        LlmClient::new(other_model, Some(ResponseCache::open(&db).unwrap())).unwrap();
    let fresh = client_three.chat(&question()).await.unwrap();
    assert_eq!((fresh.text.as_str(), fresh.cached), ("answer 2", false));
    assert_eq!(server.requests(), 3);
    assert_eq!(server.seen()[2].json()["model"], "other-model");
    assert_eq!(
        client_two.usage(),
        Usage {
            requests: 1,
            cache_hits: 1,
            prompt_tokens: 11,
            completion_tokens: 7
        }
    );

    // The run store's table is untouched.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let url: String = conn
        .query_row("SELECT url FROM runs", [], |row| row.get(0))
        .unwrap();
    assert_eq!(url, "http://127.0.0.1:8080/");
}

#[tokio::test]
async fn embeddings_are_cached_too() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(|_, _| {
        Canned::json(
            200,
            json!({"data": [{"index": 0, "embedding": [0.25, -1.5]}]}),
        )
    })
    .await;
    let cache = ResponseCache::open(&dir.path().join("runs.db")).unwrap();
    let client = LlmClient::new(config(&server, None), Some(cache)).unwrap();
    let texts = vec!["Postal code".to_owned()];
    assert_eq!(client.embed(&texts).await.unwrap(), vec![vec![0.25, -1.5]]);
    assert_eq!(client.embed(&texts).await.unwrap(), vec![vec![0.25, -1.5]]);
    assert_eq!(server.requests(), 1);
    assert_eq!(client.usage().cache_hits, 1);
}

// 6. Malformed and truncated answers

#[tokio::test]
async fn unreadable_answers_are_malformed_but_truncated_and_empty_ones_are_answers() {
    let server = Server::start(|_, seen| {
        let body = seen.json();
        let prompt = body["messages"][0]["content"].as_str().unwrap().to_owned();
        match prompt.as_str() {
            "not json" => Canned::text(200, "<html>Bad gateway</html>"),
            "no choices" => Canned::json(200, json!({"id": "x", "object": "chat.completion"})),
            "no content" => Canned::json(
                200,
                json!({"choices": [{"message": {"role": "assistant"}}]}),
            ),
            "truncated" => chat_answer_with(json!("^\\d{5"), "length"),
            "empty" => chat_answer(""),
            _ => unreachable!(),
        }
    })
    .await;
    let client = client(config(&server, None));
    let ask = |prompt: &'static str| {
        let client = client.clone();
        async move { client.chat(&[Message::user(prompt)]).await }
    };
    for prompt in ["not json", "no choices", "no content"] {
        match ask(prompt).await {
            Err(LlmError::Malformed { url, reason }) => {
                assert_eq!(url, format!("{}/chat/completions", server.base_url()));
                assert!(!reason.is_empty());
            }
            other => panic!("{prompt}: expected Malformed, got {other:?}"),
        }
    }
    let truncated = ask("truncated").await.unwrap();
    assert_eq!(truncated.text, "^\\d{5");
    assert_eq!(truncated.finish_reason.as_deref(), Some("length"));
    assert!(truncated.truncated());
    assert!(!truncated.cached);
    let empty = ask("empty").await.unwrap();
    assert_eq!(empty.text, "");
    assert!(!empty.truncated());
    // Malformed answers were not retried.
    assert_eq!(server.requests(), 5);
}

#[tokio::test]
async fn unreadable_embeddings_are_malformed() {
    let server = Server::start(|number, _| match number {
        0 => Canned::json(200, json!({"object": "list"})),
        1 => Canned::json(200, json!({"data": [{"index": 0, "embedding": [1.0]}]})),
        2 => Canned::json(
            200,
            json!({"data": [{"index": 0, "embedding": [1.0]}, {"index": 1, "embedding": "AAAA"}]}),
        ),
        _ => Canned::json(
            200,
            json!({"data": [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [2.0]}]}),
        ),
    })
    .await;
    let client = client(config(&server, None));
    let texts = vec!["a".to_owned(), "b".to_owned()];
    for _ in 0..4 {
        let error = client.embed(&texts).await.unwrap_err();
        assert!(matches!(error, LlmError::Malformed { .. }), "{error:?}");
    }
}

// 7. Unknown model

#[tokio::test]
async fn a_404_about_the_model_is_an_unknown_model_error() {
    let server = Server::start(|_, _| {
        Canned::json(
            404,
            json!({"error": {"message": "model 'x' not found", "code": "model_not_found"}}),
        )
    })
    .await;
    let mut config = config(&server, None);
    config.model = "x".to_owned();
    let error = client(config).chat(&question()).await.unwrap_err();
    match &error {
        LlmError::UnknownModel { model, url } => {
            assert_eq!(model, "x");
            assert_eq!(url, &format!("{}/chat/completions", server.base_url()));
        }
        other => panic!("expected UnknownModel, got {other:?}"),
    }
    assert!(error.to_string().contains("`x`"), "{error}");
    assert_eq!(server.requests(), 1);
}

#[tokio::test]
async fn a_404_for_a_wrong_path_is_a_status_error() {
    let server = Server::start(|_, _| Canned::text(404, "404 page not found")).await;
    let error = client(config(&server, None))
        .chat(&question())
        .await
        .unwrap_err();
    assert!(
        matches!(error, LlmError::Status { status: 404, .. }),
        "{error:?}"
    );
}

#[tokio::test]
async fn check_looks_the_model_up_in_the_server_list() {
    let server = Server::start(|_, seen| {
        assert_eq!(
            (seen.method.as_str(), seen.path.as_str()),
            ("GET", "/v1/models")
        );
        Canned::json(
            200,
            json!({"object": "list", "data": [
                {"id": "llama3.2:latest", "object": "model"},
                {"id": "nomic-embed-text:latest", "object": "model"}
            ]}),
        )
    })
    .await;
    let with_model = |model: &str| {
        let mut config = config(&server, Some(KEY));
        config.model = model.to_owned();
        client(config)
    };
    with_model("llama3.2").check().await.unwrap();
    with_model("llama3.2:latest").check().await.unwrap();
    match with_model("gpt-4o-mini").check().await {
        Err(LlmError::UnknownModel { model, url }) => {
            assert_eq!(model, "gpt-4o-mini");
            assert_eq!(url, format!("{}/models", server.base_url()));
        }
        other => panic!("expected UnknownModel, got {other:?}"),
    }
    assert_eq!(
        server.seen()[0].authorization.as_deref(),
        Some(&*format!("Bearer {KEY}"))
    );
}

#[tokio::test]
async fn check_passes_a_server_without_a_model_list_and_reports_a_refused_key() {
    let server = Server::start(|_, seen| {
        if seen.authorization.is_some() {
            Canned::text(404, "404 page not found")
        } else {
            Canned::json(401, json!({"error": {"message": "missing key"}}))
        }
    })
    .await;
    client(config(&server, Some(KEY))).check().await.unwrap();
    let error = client(config(&server, None)).check().await.unwrap_err();
    match error {
        LlmError::Unauthorized { url } => assert_eq!(url, format!("{}/models", server.base_url())),
        other => panic!("expected Unauthorized, got {other:?}"),
    }
}

// 8. Unreachable

#[tokio::test]
async fn nothing_listening_is_unreachable_naming_the_url() {
    let base_url = format!("http://127.0.0.1:{}/v1", dead_port());
    let config = LlmConfig {
        base_url: base_url.clone(),
        model: MODEL.to_owned(),
        timeout: Duration::from_secs(2),
        max_retries: 1,
        ..LlmConfig::default()
    };
    let bound = config.timeout * (config.max_retries + 1);
    let client = client(config);
    let started = Instant::now();
    let error = within(bound * 2, client.chat(&question()))
        .await
        .unwrap_err();
    assert!(started.elapsed() < bound, "{:?}", started.elapsed());
    match &error {
        LlmError::Unreachable { url, reason } => {
            assert_eq!(url, &format!("{base_url}/chat/completions"));
            assert!(reason.contains("2 tries"), "{reason}");
        }
        other => panic!("expected Unreachable, got {other:?}"),
    }
    assert!(error.to_string().contains(&base_url), "{error}");
    assert_eq!(client.usage().requests, 2);

    let error = within(bound * 2, client.check()).await.unwrap_err();
    assert!(
        matches!(&error, LlmError::Unreachable { url, .. } if url == &format!("{base_url}/models")),
        "{error:?}"
    );
}

#[test]
fn unusable_base_urls_are_refused_by_name() {
    for base_url in [
        "",
        "127.0.0.1:11434/v1",
        "ftp://127.0.0.1/v1",
        "http://127.0.0.1/v1?key=1",
    ] {
        let config = LlmConfig {
            base_url: base_url.to_owned(),
            model: MODEL.to_owned(),
            ..LlmConfig::default()
        };
        match LlmClient::new(config, None) {
            Err(LlmError::BadUrl { url, reason }) => {
                assert_eq!(url, base_url);
                assert!(!reason.is_empty());
            }
            other => panic!("{base_url:?}: expected BadUrl, got {other:?}"),
        }
    }
}

// 9. Timeout

#[tokio::test]
async fn a_server_that_never_answers_times_out_on_every_try() {
    let server = Server::start(|_, _| chat_answer("too late").after(Duration::from_secs(60))).await;
    let mut config = config(&server, None);
    config.timeout = Duration::from_millis(300);
    config.max_retries = 1;
    let client = client(config);
    let started = Instant::now();
    let error = within(Duration::from_secs(5), client.chat(&question()))
        .await
        .unwrap_err();
    let took = started.elapsed();
    // 300 ms, 500 ms of backoff, 300 ms.
    assert!(took >= Duration::from_millis(1000), "{took:?}");
    assert!(took < Duration::from_secs(2), "{took:?}");
    match &error {
        LlmError::Unreachable { url, reason } => {
            assert_eq!(url, &format!("{}/chat/completions", server.base_url()));
            assert!(reason.contains("no answer within 300ms"), "{reason}");
        }
        other => panic!("expected Unreachable, got {other:?}"),
    }
    assert_eq!(server.requests(), 2);
}

/// A cache file that cannot be created is an error naming it, not a silent run without cache.
#[test]
fn a_cache_in_a_missing_directory_fails_naming_the_file() {
    let path = Path::new("/nonexistent-curio-dir/runs.db");
    let error = ResponseCache::open(path).unwrap_err();
    assert!(
        error.to_string().contains("/nonexistent-curio-dir/runs.db"),
        "{error}"
    );
}

#[test]
fn an_https_client_can_be_built_with_the_bundled_tls() {
    let config = LlmConfig {
        base_url: "https://api.openai.com/v1".to_owned(),
        model: "gpt-4o-mini".to_owned(),
        api_key: Some(KEY.to_owned()),
        ..LlmConfig::default()
    };
    LlmClient::new(config, None).unwrap();
}

/// Set only in the child process `from_env_key_reads_curio_llm_api_key` starts.
const CHILD: &str = "CURIO_LLM_TEST_CHILD";

#[test]
fn from_env_key_reads_curio_llm_api_key() {
    // The environment is changed only in a child run of this test binary.
    let run = |key: Option<&str>| {
        let mut child = std::process::Command::new(std::env::current_exe().unwrap());
        child
            .args(["--exact", "env_key_child", "--nocapture"])
            .env(CHILD, key.unwrap_or("<unset>"))
            .env_remove(curio_llm::API_KEY_ENV);
        if let Some(key) = key {
            child.env(curio_llm::API_KEY_ENV, key);
        }
        let output = child.output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        assert!(output.status.success(), "{stdout}");
        assert!(stdout.contains("1 passed"), "{stdout}");
    };
    run(Some(" sk-from-env \n"));
    run(Some(""));
    run(None);
}

#[test]
fn env_key_child() {
    let Ok(given) = std::env::var(CHILD) else {
        return; // not the child run
    };
    let config = LlmConfig::from_env_key("https://api.example.com/v1", "gpt-4o-mini");
    assert_eq!(config.base_url, "https://api.example.com/v1");
    assert_eq!(config.model, "gpt-4o-mini");
    let expected = match given.trim() {
        "" | "<unset>" => None,
        key => Some(key.to_owned()),
    };
    assert_eq!(config.api_key, expected);
    assert_eq!(config.timeout, Duration::from_secs(60));
    assert_eq!((config.max_retries, config.max_concurrent), (3, 2));
}
