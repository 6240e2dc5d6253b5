//! The FERG's text embedder from an OpenAI-compatible `/embeddings` endpoint (FormNexus
//! used OpenAI's ADA embeddings). The FERG asks for embeddings one text at a time and
//! synchronously; each new text is one request (answered from the run store's cache
//! when asked before), made by blocking this worker thread on the async client.

use std::collections::HashMap;
use std::sync::Mutex;

use curio_forms::TextEmbedder;
use curio_llm::LlmClient;
use tokio::runtime::Handle;

pub(crate) struct EndpointEmbedder {
    client: LlmClient,
    runtime: Handle,
    name: String,
    known: Mutex<HashMap<String, Vec<f32>>>,
    /// The first request that failed, to say so once; later texts then embed as empty
    /// vectors (similarity 0), and the FERG leans on structure alone.
    failure: Mutex<Option<String>>,
}

impl EndpointEmbedder {
    /// Checks the endpoint with one text, so that a wrong model or URL shows at once.
    pub(crate) async fn connect(
        client: LlmClient,
        model: &str,
    ) -> Result<EndpointEmbedder, String> {
        let probe = client
            .embed(&["form".to_string()])
            .await
            .map_err(|e| e.to_string())?;
        if probe.first().is_none_or(Vec::is_empty) {
            return Err(format!("embedding model {model} answered no vector"));
        }
        Ok(EndpointEmbedder {
            client,
            runtime: Handle::current(),
            name: format!("llm:{model}"),
            known: Mutex::default(),
            failure: Mutex::default(),
        })
    }

    /// What went wrong with the endpoint during the run, if anything.
    pub(crate) fn failure(&self) -> Option<String> {
        self.failure.lock().ok()?.clone()
    }
}

impl TextEmbedder for EndpointEmbedder {
    fn embed(&self, text: &str) -> Vec<f32> {
        if text.trim().is_empty() {
            return Vec::new();
        }
        if let Some(v) = self.known.lock().ok().and_then(|k| k.get(text).cloned()) {
            return v;
        }
        if self.failure().is_some() {
            return Vec::new();
        }
        let texts = [text.to_string()];
        // The multi-threaded runtime lets this worker block while the request runs on it.
        let answer =
            tokio::task::block_in_place(|| self.runtime.block_on(self.client.embed(&texts)));
        match answer {
            Ok(mut vectors) if vectors.len() == 1 => {
                let v = vectors.remove(0);
                if let Ok(mut known) = self.known.lock() {
                    known.insert(text.to_string(), v.clone());
                }
                v
            }
            Ok(_) => Vec::new(),
            Err(e) => {
                if let Ok(mut failure) = self.failure.lock() {
                    failure.get_or_insert_with(|| e.to_string());
                }
                Vec::new()
            }
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}
