//! Sentence embeddings for form texts with the all-MiniLM-L6-v2 model.
//!
//! [`curio_forms::LexicalEmbedder`] sees that "E-mail" and "Email address" share letters
//! but not that "Departure" is a date. [`MiniLmEmbedder`] stands in behind the same
//! [`TextEmbedder`] trait with a small sentence-transformers model that knows such
//! meanings: all-MiniLM-L6-v2, a 6-layer BERT of hidden size 384 (22 M parameters,
//! 90 MB of float32 weights), run on the CPU with candle.
//!
//! The embedding is the one sentence-transformers computes for this model (its
//! `modules.json`): the text is tokenised with the model's `tokenizer.json` and cut to
//! `max_seq_length` (256) word pieces, the BERT encoder turns the tokens into vectors,
//! these are averaged over the real (not padding) tokens, and the mean is scaled to unit
//! length, so the cosine of two embeddings is their dot product.
//!
//! Nothing is downloaded at run time: the model is read from a directory
//! ([`MiniLmEmbedder::default_dir`]) that `scripts/fetch-minilm` fills once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use candle_core::{DType, Device, Tensor};
use candle_nn::{Embedding, LayerNorm, Module};
use curio_forms::TextEmbedder;
use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationParams};

/// Directory name of the model under Curio's data directory.
const MODEL_DIR_NAME: &str = "all-MiniLM-L6-v2";
/// Longest input in word pieces, counting `[CLS]` and `[SEP]`, when the model directory
/// has no `sentence_bert_config.json` to say so; longer texts are truncated.
const DEFAULT_MAX_SEQ_LENGTH: usize = 256;
/// Texts run through the model together in [`MiniLmEmbedder::embed_batch`]. Texts are
/// sorted by length first, so a chunk pads little; chunks bound the memory an attention
/// matrix takes (`chunk x heads x length^2` floats).
const CHUNK: usize = 32;
/// Added to the attention scores of padding tokens so that softmax gives them no weight.
const MASKED_SCORE: f64 = -1e9;

/// What can go wrong loading the model; each message names the file or directory.
#[derive(Debug, thiserror::Error)]
pub enum MiniLmError {
    /// The model directory, or one of the files the model needs, is not there.
    #[error(
        "no {file} in the MiniLM model directory {}: run scripts/fetch-minilm to install the model",
        dir.display()
    )]
    Missing {
        /// The model directory.
        dir: PathBuf,
        /// The file missing from it.
        file: &'static str,
    },
    /// A model file is there but cannot be read or does not hold this model.
    #[error("cannot load {}: {reason}", path.display())]
    Load {
        /// The file that failed.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// The fields of the model's `config.json` (Hugging Face's BERT config) that the forward
/// pass needs.
#[derive(Debug, Deserialize)]
struct BertConfig {
    vocab_size: usize,
    hidden_size: usize,
    num_hidden_layers: usize,
    num_attention_heads: usize,
    intermediate_size: usize,
    hidden_act: String,
    max_position_embeddings: usize,
    type_vocab_size: usize,
    layer_norm_eps: f64,
}

impl BertConfig {
    /// Whether the forward pass here can run this configuration.
    fn check(&self) -> Result<(), String> {
        if self.hidden_act != "gelu" {
            return Err(format!(
                "hidden_act {:?}; only BERT's exact \"gelu\" is supported",
                self.hidden_act
            ));
        }
        if self.num_attention_heads == 0
            || !self.hidden_size.is_multiple_of(self.num_attention_heads)
        {
            return Err(format!(
                "hidden_size {} does not split into {} heads",
                self.hidden_size, self.num_attention_heads
            ));
        }
        if self.max_position_embeddings < 3 || self.type_vocab_size == 0 {
            return Err("max_position_embeddings or type_vocab_size too small".into());
        }
        Ok(())
    }
}

/// sentence-transformers' `sentence_bert_config.json`.
#[derive(Debug, Deserialize)]
struct SentenceBertConfig {
    max_seq_length: usize,
}

/// all-MiniLM-L6-v2 as a [`TextEmbedder`]: 384-dimensional unit vectors.
///
/// Embeddings are cached by text, since a run embeds the same labels many times; the
/// cache only grows, which suits the few thousand distinct texts of a run. The embedder
/// is `Send + Sync` and works from `&self`.
pub struct MiniLmEmbedder {
    tokenizer: Tokenizer,
    bert: Bert,
    cache: Mutex<HashMap<String, Vec<f32>>>,
}

impl std::fmt::Debug for MiniLmEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MiniLmEmbedder")
            .field("hidden", &self.bert.hidden)
            .field("layers", &self.bert.layers.len())
            .field("max_seq_length", &self.bert.max_len)
            .finish_non_exhaustive()
    }
}

impl MiniLmEmbedder {
    /// Loads the model from a directory holding config.json, tokenizer.json and
    /// model.safetensors (and optionally sentence_bert_config.json), as
    /// `scripts/fetch-minilm` installs it.
    pub fn load(dir: &Path) -> Result<MiniLmEmbedder, MiniLmError> {
        for file in ["config.json", "tokenizer.json", "model.safetensors"] {
            if !dir.join(file).is_file() {
                return Err(MiniLmError::Missing {
                    dir: dir.to_path_buf(),
                    file,
                });
            }
        }
        let config_path = dir.join("config.json");
        let config: BertConfig = read_json(&config_path)?;
        config.check().map_err(|reason| MiniLmError::Load {
            path: config_path,
            reason,
        })?;
        let sbert_path = dir.join("sentence_bert_config.json");
        let max_seq_length = if sbert_path.is_file() {
            let max = read_json::<SentenceBertConfig>(&sbert_path)?.max_seq_length;
            if max < 3 {
                return Err(MiniLmError::Load {
                    path: sbert_path,
                    reason: format!("max_seq_length {max} leaves no room for a word"),
                });
            }
            max
        } else {
            DEFAULT_MAX_SEQ_LENGTH
        }
        // No more tokens than the model has positions for.
        .min(config.max_position_embeddings);

        let tokenizer_path = dir.join("tokenizer.json");
        let tokenizer = load_tokenizer(&tokenizer_path, max_seq_length)?;

        let weights_path = dir.join("model.safetensors");
        let load_err = |reason: String| MiniLmError::Load {
            path: weights_path.clone(),
            reason,
        };
        let tensors = candle_core::safetensors::load(&weights_path, &Device::Cpu)
            .map_err(|e| load_err(e.to_string()))?;
        let bert = Bert::new(&config, max_seq_length, Weights(tensors)).map_err(load_err)?;

        let embedder = MiniLmEmbedder {
            tokenizer,
            bert,
            cache: Mutex::new(HashMap::new()),
        };
        // One pass through the model, so that a model that loads but cannot run fails
        // here, with a message, rather than in `embed`.
        embedder
            .compute(&["Email address", "Date"])
            .map_err(|reason| load_err(format!("the model does not run: {reason}")))?;
        Ok(embedder)
    }

    /// The model directory Curio uses: `$CURIO_MINILM_DIR` if set, else
    /// `<data dir>/curio/models/all-MiniLM-L6-v2` where the data dir is `$XDG_DATA_HOME`
    /// or `~/.local/share`. The path is returned whether or not it exists.
    pub fn default_dir() -> PathBuf {
        if let Some(dir) = std::env::var_os("CURIO_MINILM_DIR").filter(|d| !d.is_empty()) {
            return PathBuf::from(dir);
        }
        // The XDG spec has relative values of XDG_DATA_HOME ignored.
        let data = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
            .unwrap_or_else(|| {
                let home = std::env::var_os("HOME").map(PathBuf::from);
                home.unwrap_or_default().join(".local").join("share")
            });
        data.join("curio").join("models").join(MODEL_DIR_NAME)
    }

    /// Embeddings of many texts at once, in order: the texts not in the cache run through
    /// the model in padded batches of similar lengths. Each is the same as
    /// [`TextEmbedder::embed`] of that text, up to float rounding (1e-4).
    pub fn embed_batch(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        let mut todo: Vec<&str> = {
            let cache = self.cache();
            texts
                .iter()
                .copied()
                .filter(|t| !cache.contains_key(*t))
                .collect()
        };
        todo.sort_unstable();
        todo.dedup();
        if !todo.is_empty() {
            let computed = self.compute(&todo).unwrap_or_else(|e| {
                // `load` ran the model once, so only a bug gets here.
                panic!("all-MiniLM-L6-v2 failed on a model that passed its load check: {e}")
            });
            let mut cache = self.cache();
            for (text, v) in todo.into_iter().zip(computed) {
                cache.insert(text.to_owned(), v);
            }
        }
        let cache = self.cache();
        texts.iter().map(|t| cache[*t].clone()).collect()
    }

    fn cache(&self) -> MutexGuard<'_, HashMap<String, Vec<f32>>> {
        // A panic elsewhere cannot leave a half-written entry: inserts are single calls.
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Embeddings of `texts`, without the cache. Blank texts give the zero vector
    /// rather than the model's vector for an empty input: no words, no meaning to
    /// compare.
    fn compute(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, String> {
        let mut out = vec![Vec::new(); texts.len()];
        let mut encoded: Vec<(usize, Vec<u32>)> = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            if text.trim().is_empty() {
                out[i] = vec![0.0; self.bert.hidden];
                continue;
            }
            let encoding = self
                .tokenizer
                .encode(*text, true)
                .map_err(|e| format!("tokenizing {text:?}: {e}"))?;
            encoded.push((i, encoding.get_ids().to_vec()));
        }
        // Similar lengths together, so that little of a chunk is padding.
        encoded.sort_by_key(|(_, ids)| ids.len());
        for chunk in encoded.chunks(CHUNK) {
            let ids: Vec<&[u32]> = chunk.iter().map(|(_, ids)| ids.as_slice()).collect();
            let vectors = self.bert.embed(&ids).map_err(|e| e.to_string())?;
            for ((i, _), v) in chunk.iter().zip(vectors) {
                out[*i] = v;
            }
        }
        Ok(out)
    }
}

impl TextEmbedder for MiniLmEmbedder {
    /// The unit embedding of `text` (384 numbers); the zero vector for a blank text.
    fn embed(&self, text: &str) -> Vec<f32> {
        if let Some(v) = self.cache().get(text) {
            return v.clone();
        }
        self.embed_batch(&[text]).pop().unwrap_or_default()
    }

    fn name(&self) -> &str {
        "minilm"
    }
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, MiniLmError> {
    let err = |reason: String| MiniLmError::Load {
        path: path.to_path_buf(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    serde_json::from_str(&text).map_err(|e| err(e.to_string()))
}

/// The tokenizer of `tokenizer.json`, set up as sentence-transformers uses it: the file
/// itself pads every input to 128 tokens and truncates there; sentence-transformers pads
/// a batch only to its longest text and truncates at `max_seq_length`. Padding is done
/// here by [`Bert::embed`], so the tokenizer does none.
fn load_tokenizer(path: &Path, max_seq_length: usize) -> Result<Tokenizer, MiniLmError> {
    let err = |reason: String| MiniLmError::Load {
        path: path.to_path_buf(),
        reason,
    };
    let mut tokenizer = Tokenizer::from_file(path).map_err(|e| err(e.to_string()))?;
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: max_seq_length,
            ..TruncationParams::default()
        }))
        .map_err(|e| err(e.to_string()))?;
    Ok(tokenizer)
}

/// The tensors of `model.safetensors`, taken out by name with their shape checked.
struct Weights(HashMap<String, Tensor>);

impl Weights {
    fn take(&mut self, name: &str, shape: &[usize]) -> Result<Tensor, String> {
        let t = self
            .0
            .remove(name)
            .ok_or_else(|| format!("no tensor {name}"))?;
        if t.dims() != shape {
            return Err(format!(
                "tensor {name} has shape {:?}, expected {shape:?}",
                t.dims()
            ));
        }
        t.to_dtype(DType::F32).map_err(|e| e.to_string())
    }

    /// The weight `(out, inp)` and bias `(out)` of the linear layer `prefix`.
    fn linear(&mut self, prefix: &str, out: usize, inp: usize) -> Result<(Tensor, Tensor), String> {
        let w = self.take(&format!("{prefix}.weight"), &[out, inp])?;
        let b = self.take(&format!("{prefix}.bias"), &[out])?;
        Ok((w, b))
    }

    fn dense(&mut self, prefix: &str, out: usize, inp: usize) -> Result<Dense, String> {
        let (w, b) = self.linear(prefix, out, inp)?;
        Dense::new(&w, b).map_err(candle_err)
    }

    fn layer_norm(&mut self, prefix: &str, size: usize, eps: f64) -> Result<LayerNorm, String> {
        let w = self.take(&format!("{prefix}.weight"), &[size])?;
        let b = self.take(&format!("{prefix}.bias"), &[size])?;
        Ok(LayerNorm::new(w, b, eps))
    }
}

/// A fully connected layer, `x W^T + b`, with `W^T` stored contiguous as `(in, out)`:
/// the row-major layout the matrix kernel reads fastest when a few rows of `x` (the
/// tokens of a short label) meet the whole weight matrix.
struct Dense {
    weight_t: Tensor,
    bias: Tensor,
}

impl Dense {
    fn new(weight: &Tensor, bias: Tensor) -> candle_core::Result<Dense> {
        Ok(Dense {
            weight_t: weight.t()?.contiguous()?,
            bias,
        })
    }

    /// `x` is `(batch, len, in)`; the result `(batch, len, out)`.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let (batch, len, inp) = x.dims3()?;
        x.reshape((batch * len, inp))?
            .matmul(&self.weight_t)?
            .broadcast_add(&self.bias)?
            .reshape((batch, len, ()))
    }
}

/// One encoder layer of BERT (inference only: dropout is the identity).
struct Layer {
    /// Query, key and value projections as one matrix (`3 x hidden` outputs), the query
    /// part pre-scaled by `1/sqrt(head size)`.
    qkv: Dense,
    attention_out: Dense,
    attention_norm: LayerNorm,
    intermediate: Dense,
    out: Dense,
    out_norm: LayerNorm,
}

/// The BERT encoder of the model (Hugging Face's `BertModel` without its pooler, which
/// sentence-transformers does not use).
struct Bert {
    word_embeddings: Embedding,
    /// Position embeddings, rows `0..max_len`.
    position_embeddings: Tensor,
    /// The token type 0 embedding: every token of a single text has type 0.
    token_type_embedding: Tensor,
    embeddings_norm: LayerNorm,
    layers: Vec<Layer>,
    hidden: usize,
    heads: usize,
    max_len: usize,
}

fn candle_err(e: candle_core::Error) -> String {
    e.to_string()
}

impl Bert {
    /// The encoder of a checked `config`, for inputs of at most `max_seq_length` tokens
    /// (no more than the model's positions).
    fn new(config: &BertConfig, max_seq_length: usize, mut w: Weights) -> Result<Bert, String> {
        let c = config;
        let h = c.hidden_size;
        let max_len = max_seq_length;
        let head_scale = 1.0 / ((h / c.num_attention_heads) as f64).sqrt();

        let word = w.take("embeddings.word_embeddings.weight", &[c.vocab_size, h])?;
        let positions = w.take(
            "embeddings.position_embeddings.weight",
            &[c.max_position_embeddings, h],
        )?;
        let token_types = w.take(
            "embeddings.token_type_embeddings.weight",
            &[c.type_vocab_size, h],
        )?;
        let embeddings_norm = w.layer_norm("embeddings.LayerNorm", h, c.layer_norm_eps)?;

        let mut layers = Vec::with_capacity(c.num_hidden_layers);
        for i in 0..c.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let q = w.linear(&format!("{p}.attention.self.query"), h, h)?;
            let k = w.linear(&format!("{p}.attention.self.key"), h, h)?;
            let v = w.linear(&format!("{p}.attention.self.value"), h, h)?;
            let qkv = fuse_qkv(q, k, v, head_scale).map_err(candle_err)?;
            layers.push(Layer {
                qkv,
                attention_out: w.dense(&format!("{p}.attention.output.dense"), h, h)?,
                attention_norm: w.layer_norm(
                    &format!("{p}.attention.output.LayerNorm"),
                    h,
                    c.layer_norm_eps,
                )?,
                intermediate: w.dense(
                    &format!("{p}.intermediate.dense"),
                    c.intermediate_size,
                    h,
                )?,
                out: w.dense(&format!("{p}.output.dense"), h, c.intermediate_size)?,
                out_norm: w.layer_norm(&format!("{p}.output.LayerNorm"), h, c.layer_norm_eps)?,
            });
        }
        Ok(Bert {
            word_embeddings: Embedding::new(word, h),
            position_embeddings: positions.narrow(0, 0, max_len).map_err(candle_err)?,
            token_type_embedding: token_types.get(0).map_err(candle_err)?,
            embeddings_norm,
            layers,
            hidden: h,
            heads: c.num_attention_heads,
            max_len,
        })
    }

    /// Unit-length mean-pooled embeddings of tokenised texts (each with `[CLS]` and
    /// `[SEP]`, at most `max_len` ids), run as one batch padded to the longest.
    fn embed(&self, texts: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let batch = texts.len();
        let len = texts.iter().map(|t| t.len()).max().unwrap_or(0);
        if batch == 0 || len == 0 || len > self.max_len {
            candle_core::bail!("cannot embed {batch} texts of up to {len} tokens");
        }
        let mut ids = Vec::with_capacity(batch * len);
        let mut mask = Vec::with_capacity(batch * len);
        for t in texts {
            ids.extend_from_slice(t);
            ids.resize(ids.len() + len - t.len(), 0);
            mask.extend(std::iter::repeat_n(1f32, t.len()));
            mask.resize(mask.len() + len - t.len(), 0.0);
        }
        let device = &Device::Cpu;
        let ids = Tensor::from_vec(ids, (batch, len), device)?;
        let mask = Tensor::from_vec(mask, (batch, len), device)?;
        let padded = texts.iter().any(|t| t.len() < len);

        let tokens = self.forward(&ids, padded.then_some(&mask))?;
        // Mean over the real tokens, then unit length (sentence-transformers' Pooling
        // and Normalize modules; the clamps are theirs too).
        let mask = mask.unsqueeze(2)?;
        let summed = tokens.broadcast_mul(&mask)?.sum(1)?;
        let counts = mask.sum(1)?.maximum(1e-9)?;
        let mean = summed.broadcast_div(&counts)?;
        let norms = mean.sqr()?.sum_keepdim(1)?.sqrt()?.maximum(1e-12)?;
        mean.broadcast_div(&norms)?.to_vec2::<f32>()
    }

    /// The last hidden states, `(batch, len, hidden)`, of token ids `(batch, len)`;
    /// `mask` (1 for a token, 0 for padding) is needed only when there is padding.
    fn forward(&self, ids: &Tensor, mask: Option<&Tensor>) -> candle_core::Result<Tensor> {
        let (batch, len) = ids.dims2()?;
        let x = self
            .word_embeddings
            .forward(ids)?
            .broadcast_add(&self.position_embeddings.narrow(0, 0, len)?)?
            .broadcast_add(&self.token_type_embedding)?;
        let mut x = self.embeddings_norm.forward(&x)?;
        // (batch, 1, 1, len): the same for every head and every query token.
        let score_bias = match mask {
            Some(m) => Some(
                m.affine(-MASKED_SCORE, MASKED_SCORE)?
                    .reshape((batch, 1, 1, len))?,
            ),
            None => None,
        };
        let h = self.hidden;
        let head = h / self.heads;
        for layer in &self.layers {
            let qkv = layer.qkv.forward(&x)?;
            let split = |i: usize| -> candle_core::Result<Tensor> {
                qkv.narrow(2, i * h, h)?
                    .reshape((batch, len, self.heads, head))?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let (q, k, v) = (split(0)?, split(1)?, split(2)?);
            let mut scores = q.matmul(&k.t()?)?;
            if let Some(bias) = &score_bias {
                scores = scores.broadcast_add(bias)?;
            }
            let probs = candle_nn::ops::softmax_last_dim(&scores)?;
            let context = probs
                .matmul(&v)?
                .transpose(1, 2)?
                .contiguous()?
                .reshape((batch, len, h))?;
            let attended = layer
                .attention_norm
                .forward(&(layer.attention_out.forward(&context)? + &x)?)?;
            let inner = layer.intermediate.forward(&attended)?.gelu_erf()?;
            x = layer
                .out_norm
                .forward(&(layer.out.forward(&inner)? + &attended)?)?;
        }
        Ok(x)
    }
}

/// Query, key and value projections stacked into one: one matrix product per layer
/// instead of three. The query rows are scaled by `scale`, which puts BERT's division of
/// the attention scores by `sqrt(head size)` into the weights.
fn fuse_qkv(
    (qw, qb): (Tensor, Tensor),
    (kw, kb): (Tensor, Tensor),
    (vw, vb): (Tensor, Tensor),
    scale: f64,
) -> candle_core::Result<Dense> {
    let weight = Tensor::cat(&[&(qw * scale)?, &kw, &vw], 0)?;
    let bias = Tensor::cat(&[&(qb * scale)?, &kb, &vb], 0)?;
    Dense::new(&weight, bias)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedder_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<MiniLmEmbedder>();
    }

    #[test]
    fn missing_dir_names_the_path() {
        let dir = Path::new("/nonexistent/curio-minilm-test");
        let err = MiniLmEmbedder::load(dir).unwrap_err();
        assert!(
            matches!(&err, MiniLmError::Missing { dir: d, file: "config.json" } if d == dir),
            "{err:?}"
        );
        let msg = err.to_string();
        assert!(msg.contains("/nonexistent/curio-minilm-test"), "{msg}");
        assert!(msg.contains("scripts/fetch-minilm"), "{msg}");
    }

    #[test]
    fn missing_weights_are_named() {
        let dir = std::env::temp_dir().join(format!("curio-minilm-partial-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.json"), "{}").unwrap();
        std::fs::write(dir.join("tokenizer.json"), "{}").unwrap();
        let err = MiniLmEmbedder::load(&dir).unwrap_err();
        assert!(
            matches!(
                &err,
                MiniLmError::Missing {
                    file: "model.safetensors",
                    ..
                }
            ),
            "{err:?}"
        );
        // With every file there but unreadable, the error names the bad file.
        std::fs::write(dir.join("model.safetensors"), "not safetensors").unwrap();
        let err = MiniLmEmbedder::load(&dir).unwrap_err();
        match &err {
            MiniLmError::Load { path, .. } => assert_eq!(path, &dir.join("config.json")),
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("config.json"), "{err}");
        // A BERT this forward pass cannot run is refused with the same path.
        let relu = r#"{"vocab_size": 10, "hidden_size": 8, "num_hidden_layers": 1,
            "num_attention_heads": 2, "intermediate_size": 16, "hidden_act": "relu",
            "max_position_embeddings": 16, "type_vocab_size": 2, "layer_norm_eps": 1e-12}"#;
        std::fs::write(dir.join("config.json"), relu).unwrap();
        let err = MiniLmEmbedder::load(&dir).unwrap_err();
        assert!(
            matches!(&err, MiniLmError::Load { path, reason }
                if path == &dir.join("config.json") && reason.contains("relu")),
            "{err:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The model's tokenizer as the embedder sets it up, from the installed model.
    fn installed_tokenizer() -> Tokenizer {
        let path = MiniLmEmbedder::default_dir().join("tokenizer.json");
        load_tokenizer(&path, DEFAULT_MAX_SEQ_LENGTH).unwrap_or_else(|e| {
            panic!("{e}\nRun scripts/fetch-minilm to install all-MiniLM-L6-v2 (or set CURIO_MINILM_DIR).")
        })
    }

    fn ids(tokenizer: &Tokenizer, text: &str) -> Vec<u32> {
        tokenizer.encode(text, true).unwrap().get_ids().to_vec()
    }

    /// Token ids published for this tokenizer by another port of the model (accents
    /// stripped, CJK characters split), and those of the NumPy reference, which used
    /// Python's tokenizers with the same settings.
    #[test]
    fn tokenizes_like_sentence_transformers() {
        let tok = installed_tokenizer();
        assert_eq!(
            ids(&tok, "This is an example sentence"),
            [101, 2023, 2003, 2019, 2742, 6251, 102]
        );
        assert_eq!(
            ids(&tok, "Each sentence is converted."),
            [101, 2169, 6251, 2003, 4991, 1012, 102]
        );
        assert_eq!(
            ids(&tok, "Café déjà vu — 東京"),
            [101, 7668, 2139, 3900, 24728, 1517, 1879, 1755, 102]
        );
        let reference: serde_json::Value =
            serde_json::from_str(include_str!("../tests/reference.json")).unwrap();
        assert_eq!(reference["max_seq_length"], DEFAULT_MAX_SEQ_LENGTH);
        for case in reference["cases"].as_array().unwrap() {
            let expected: Vec<u32> = serde_json::from_value(case["token_ids"].clone()).unwrap();
            let text = case["text"].as_str().unwrap();
            assert_eq!(ids(&tok, text), expected, "{text:?}");
        }
    }
}
