//! The local model (the `local-llm` feature): SmolLM2-135M-Instruct, from
//! `scripts/fetch-smollm2`, answers in process, held to the grammar it is given, and its
//! answers are cached like a server's.
#![cfg(feature = "local-llm")]

use curio_llm::{LlmClient, LlmConfig, Message, ResponseCache, default_local_model};

fn config() -> LlmConfig {
    let path = default_local_model();
    assert!(
        path.is_file(),
        "{} is missing: run scripts/fetch-smollm2 (scripts/test does)",
        path.display()
    );
    LlmConfig::local(path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_keep_to_the_grammar_and_are_cached() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ResponseCache::open(&dir.path().join("runs.db")).unwrap();
    let client = LlmClient::new(config(), Some(cache)).unwrap();
    assert!(client.is_local());
    client.check().await.unwrap();
    let messages = [
        Message::system("You answer questions about web forms."),
        Message::user("Describe, in a few words, the field: <input type=\"date\" id=\"arrival\">"),
    ];
    // Free, the model writes prose; held to a grammar, exactly a date.
    let free = client.chat(&messages).await.unwrap();
    assert!(!free.text.trim().is_empty());
    let date = "root ::= [12] [0-9] [0-9] [0-9] \"-\" [01] [0-9] \"-\" [0-3] [0-9]";
    let held = client.chat_shaped(&messages, Some(date)).await.unwrap();
    let shape = regex_like_date(&held.text);
    assert!(shape, "{:?}", held.text);
    assert_eq!(held.finish_reason.as_deref(), Some("stop"));
    assert_ne!(free.text, held.text);
    let usage = client.usage();
    assert_eq!(usage.requests, 2);
    assert!(
        usage.prompt_tokens > 0 && usage.completion_tokens > 0,
        "{usage:?}"
    );

    // The same question with the same grammar comes from the cache; another grammar is
    // another question.
    let again = client.chat_shaped(&messages, Some(date)).await.unwrap();
    assert!(again.cached);
    assert_eq!(again.text, held.text);
    let yes_no = client
        .chat_shaped(&messages, Some("root ::= \"yes\" | \"no\""))
        .await
        .unwrap();
    assert!(!yes_no.cached);
    assert!(
        matches!(yes_no.text.as_str(), "yes" | "no"),
        "{:?}",
        yes_no.text
    );
    // A local model has no embeddings endpoint: a clear error naming the file.
    let err = client.embed(&["a".to_string()]).await.unwrap_err();
    assert!(err.to_string().contains("SmolLM2"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grammar_that_is_not_gbnf_is_an_error_not_a_hang() {
    let client = LlmClient::new(config(), None).unwrap();
    let err = client
        .chat_shaped(&[Message::user("Hello")], Some("root ::= <<<"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("GBNF"), "{err}");
    // The model goes on answering.
    let ok = client
        .chat_shaped(&[Message::user("Hello")], Some("root ::= \"hi\""))
        .await
        .unwrap();
    assert_eq!(ok.text, "hi");
}

/// `YYYY-MM-DD` with plausible digits.
fn regex_like_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}
