//! A GGUF model run in this process by llama.cpp (the `local-llm` feature): no server, no
//! network, no key.
//!
//! Small models such as SmolLM2-135M-Instruct write prose when asked for JSON or for the
//! constraint language, so every answer that comes with a grammar (GBNF, llama.cpp's
//! format) is held to it token by token; the choice is greedy, the local form of
//! temperature 0. The model lives on a thread of its own, which takes one chat at a time:
//! llama.cpp's contexts are not shared between threads, and one model on one or two cores
//! gains nothing from answering two chats at once.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::mpsc;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use tokio::sync::oneshot;

use crate::{LlmError, Message, Role};

/// Tokens of prompt and answer together.
const CONTEXT_TOKENS: u32 = 4096;
/// Longest answer; an answer cut here is marked `length`, as a server would.
const MAX_ANSWER_TOKENS: usize = 192;

/// What the model wrote, and what it cost.
pub(crate) struct Generated {
    pub text: String,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// Cut at [`MAX_ANSWER_TOKENS`].
    pub truncated: bool,
}

/// A model loaded on its own thread.
pub(crate) struct LocalModel {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
}

struct Job {
    messages: Vec<Message>,
    grammar: Option<String>,
    reply: oneshot::Sender<Result<Generated, String>>,
}

/// llama.cpp's backend, started once per process.
fn backend() -> Result<&'static LlamaBackend, String> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            let mut backend = LlamaBackend::init().map_err(|e| e.to_string())?;
            // llama.cpp logs every tensor it loads to stderr otherwise.
            backend.void_logs();
            Ok(backend)
        })
        .as_ref()
        .map_err(Clone::clone)
}

impl LocalModel {
    /// Loads the GGUF file at `path` to answer on `threads` threads (at least one).
    pub(crate) fn load(path: &Path, threads: usize) -> Result<LocalModel, LlmError> {
        let failed = |reason: String| LlmError::Local {
            path: path.to_owned(),
            reason,
        };
        if !path.is_file() {
            return Err(failed(
                "there is no such file (scripts/fetch-smollm2 installs SmolLM2-135M-Instruct)"
                    .to_owned(),
            ));
        }
        let (jobs, queue) = mpsc::channel::<Job>();
        let (ready, loaded) = mpsc::sync_channel::<Result<(), String>>(1);
        let owned = path.to_owned();
        let threads = i32::try_from(threads.max(1)).unwrap_or(1);
        std::thread::Builder::new()
            .name("curio-local-model".to_owned())
            .spawn(move || serve(&owned, threads, queue, ready))
            .map_err(|e| failed(format!("its thread cannot start: {e}")))?;
        match loaded.recv() {
            Ok(Ok(())) => Ok(LocalModel {
                path: path.to_owned(),
                jobs,
            }),
            Ok(Err(reason)) => Err(failed(reason)),
            Err(_) => Err(failed("its thread stopped while loading it".to_owned())),
        }
    }

    /// The model's answer to `messages`, held to `grammar` when one is given.
    pub(crate) async fn chat(
        &self,
        messages: &[Message],
        grammar: Option<&str>,
    ) -> Result<Generated, LlmError> {
        let failed = |reason: String| LlmError::Local {
            path: self.path.clone(),
            reason,
        };
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job {
                messages: messages.to_vec(),
                grammar: grammar.map(str::to_owned),
                reply,
            })
            .map_err(|_| failed("its thread has stopped".to_owned()))?;
        answer
            .await
            .map_err(|_| failed("its thread stopped while answering".to_owned()))?
            .map_err(failed)
    }
}

/// The model's thread: loads it, says whether that worked, then answers jobs until the
/// last sender is dropped.
fn serve(
    path: &Path,
    threads: i32,
    queue: mpsc::Receiver<Job>,
    ready: mpsc::SyncSender<Result<(), String>>,
) {
    let loaded = backend().and_then(|backend| {
        let model = LlamaModel::load_from_file(backend, path, &LlamaModelParams::default())
            .map_err(|e| format!("llama.cpp cannot load it as a GGUF model ({e})"))?;
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(CONTEXT_TOKENS))
            .with_n_batch(CONTEXT_TOKENS)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        Ok((backend, model, params))
    });
    let (backend, model, params) = match loaded {
        Ok(parts) => parts,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let mut context = match model.new_context(backend, params) {
        Ok(c) => c,
        Err(e) => {
            let _ = ready.send(Err(format!("llama.cpp cannot make a context for it ({e})")));
            return;
        }
    };
    if ready.send(Ok(())).is_err() {
        return;
    }
    let mut held = Vec::new();
    while let Ok(job) = queue.recv() {
        let answer = generate(
            &model,
            &mut context,
            &mut held,
            &job.messages,
            job.grammar.as_deref(),
        );
        if answer.is_err() {
            // What the context holds is unknown: the next chat starts afresh.
            held.clear();
        }
        let _ = job.reply.send(answer);
    }
}

/// One chat: the messages in the model's own chat template, then greedy tokens under the
/// grammar until the model ends its turn or [`MAX_ANSWER_TOKENS`] are written.
///
/// `held` is what the context holds from the chat before: the prompt's start that it
/// shares (the system message, the form's context) is not read again.
fn generate(
    model: &LlamaModel,
    context: &mut LlamaContext<'_>,
    held: &mut Vec<LlamaToken>,
    messages: &[Message],
    grammar: Option<&str>,
) -> Result<Generated, String> {
    let template = model
        .chat_template(None)
        .map_err(|e| format!("it has no chat template ({e})"))?;
    let chat = messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::System => "system",
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            LlamaChatMessage::new(role.to_owned(), m.content.clone())
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("a message cannot be given to it ({e})"))?;
    let prompt = model
        .apply_chat_template(&template, &chat, true)
        .map_err(|e| format!("its chat template failed ({e})"))?;
    let vocab = model.vocab();
    let tokens = vocab.tokenize(prompt.as_bytes(), false, true);
    let room = CONTEXT_TOKENS as usize - MAX_ANSWER_TOKENS;
    if tokens.is_empty() || tokens.len() > room {
        return Err(format!(
            "the prompt is {} tokens; it takes at most {room}",
            tokens.len()
        ));
    }
    let mut sampler = match grammar {
        Some(g) => LlamaSampler::chain_simple([
            LlamaSampler::grammar(model, g, "root")
                .map_err(|e| format!("the answer's grammar is not valid GBNF ({e})"))?,
            LlamaSampler::greedy(),
        ]),
        None => LlamaSampler::greedy(),
    };
    // At least the prompt's last token is read again, for the first answer token.
    let shared = held
        .iter()
        .zip(&tokens)
        .take_while(|(a, b)| a == b)
        .count()
        .min(tokens.len() - 1);
    let kept = u32::try_from(shared)
        .ok()
        .and_then(|p0| context.clear_kv_cache_seq(Some(0), Some(p0), None).ok())
        .unwrap_or(false);
    let start = if kept {
        shared
    } else {
        context.clear_kv_cache();
        0
    };
    held.clear();
    let mut batch = LlamaBatch::new(CONTEXT_TOKENS as usize, 1);
    let last = tokens.len() - 1;
    for (i, token) in tokens.iter().enumerate().skip(start) {
        batch
            .add(*token, position(i), &[0], i == last)
            .map_err(|e| e.to_string())?;
    }
    context
        .decode(&mut batch)
        .map_err(|e| format!("it failed to read the prompt ({e})"))?;
    held.extend_from_slice(&tokens);
    let mut text = Vec::new();
    let mut written = 0;
    let mut truncated = true;
    while written < MAX_ANSWER_TOKENS {
        // Samples and accepts the token, moving the grammar on.
        let token = sampler.sample(context, batch.n_tokens() - 1);
        if vocab.is_eog(token) {
            truncated = false;
            break;
        }
        text.extend(vocab.token_to_piece(token, false, None));
        written += 1;
        held.push(token);
        batch.clear();
        batch
            .add(token, position(tokens.len() + written - 1), &[0], true)
            .map_err(|e| e.to_string())?;
        context
            .decode(&mut batch)
            .map_err(|e| format!("it failed while answering ({e})"))?;
    }
    Ok(Generated {
        text: String::from_utf8_lossy(&text).into_owned(),
        prompt_tokens: tokens.len() as u64,
        completion_tokens: written as u64,
        truncated,
    })
}

/// A token's position, which fits: positions stay under [`CONTEXT_TOKENS`].
fn position(i: usize) -> i32 {
    i32::try_from(i).unwrap_or(i32::MAX)
}
