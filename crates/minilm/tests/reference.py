#!/usr/bin/env python3
"""Reference embeddings for curio-minilm's tests, computed without candle.

An independent NumPy implementation of what sentence-transformers does with
all-MiniLM-L6-v2: tokenise (the `tokenizers` package, truncation to
max_seq_length), run the BERT encoder in float64, mean-pool the token vectors
and L2-normalise. The Rust test (tests/model.rs) compares candle's float32
embeddings with these.

Usage: python3 tests/reference.py MODEL_DIR > tests/reference.json
Needs: pip install numpy safetensors tokenizers
"""

import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

# A text of 300 words: far more than max_seq_length word pieces, so it checks
# that both sides truncate at the same place.
LONG_WORDS = (
    "please fill in the booking form below with the name of every passenger "
    "the departure date the return date and an email address where we can send "
    "the tickets passwords must have at least eight characters and the postal "
    "code must match the country you choose"
).split()
LONG_TEXT = " ".join(LONG_WORDS[i % len(LONG_WORDS)] for i in range(300))

TEXTS = [
    "Email address",
    "Departure date",
    "Confirm your password",
    "This is an example sentence",
    "Each sentence is converted",
    "E-mail",
    LONG_TEXT,
]


def layer_norm(x, weight, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


_erf = np.frompyfunc(math.erf, 1, 1)


def gelu(x):
    """The exact GELU of BERT's "gelu": x/2 * (1 + erf(x / sqrt 2))."""
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)).astype(np.float64))


def softmax(x):
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


class Bert:
    def __init__(self, model_dir):
        self.config = json.loads((model_dir / "config.json").read_text())
        raw = load_file(str(model_dir / "model.safetensors"))
        self.w = {k: v.astype(np.float64) for k, v in raw.items()}
        assert self.config["hidden_act"] == "gelu"

    def linear(self, x, prefix):
        return x @ self.w[prefix + ".weight"].T + self.w[prefix + ".bias"]

    def ln(self, x, prefix):
        return layer_norm(
            x,
            self.w[prefix + ".weight"],
            self.w[prefix + ".bias"],
            self.config["layer_norm_eps"],
        )

    def forward(self, ids):
        """Token vectors of one unpadded sequence (so no attention mask)."""
        c = self.config
        n = len(ids)
        heads = c["num_attention_heads"]
        head = c["hidden_size"] // heads
        x = (
            self.w["embeddings.word_embeddings.weight"][ids]
            + self.w["embeddings.position_embeddings.weight"][:n]
            + self.w["embeddings.token_type_embeddings.weight"][0]
        )
        x = self.ln(x, "embeddings.LayerNorm")
        for i in range(c["num_hidden_layers"]):
            p = f"encoder.layer.{i}."
            q = self.linear(x, p + "attention.self.query").reshape(n, heads, head)
            k = self.linear(x, p + "attention.self.key").reshape(n, heads, head)
            v = self.linear(x, p + "attention.self.value").reshape(n, heads, head)
            scores = np.einsum("qhd,khd->hqk", q, k) / math.sqrt(head)
            ctx = np.einsum("hqk,khd->qhd", softmax(scores), v).reshape(n, -1)
            attn = self.ln(
                self.linear(ctx, p + "attention.output.dense") + x,
                p + "attention.output.LayerNorm",
            )
            inter = gelu(self.linear(attn, p + "intermediate.dense"))
            x = self.ln(self.linear(inter, p + "output.dense") + attn, p + "output.LayerNorm")
        return x


def main():
    model_dir = Path(sys.argv[1])
    max_seq_length = json.loads((model_dir / "sentence_bert_config.json").read_text())[
        "max_seq_length"
    ]
    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    # tokenizer.json itself pads to and truncates at 128; sentence-transformers
    # overrides both (no padding for one text, truncation at max_seq_length).
    tok.no_padding()
    tok.enable_truncation(max_seq_length)
    bert = Bert(model_dir)
    cases = []
    for text in TEXTS:
        ids = tok.encode(text).ids
        tokens = bert.forward(ids)
        pooled = tokens.mean(axis=0)
        emb = pooled / np.linalg.norm(pooled)
        cases.append(
            {
                "text": text,
                "token_ids": ids,
                "embedding": [round(float(x), 8) for x in emb],
            }
        )
    digest = hashlib.sha256((model_dir / "model.safetensors").read_bytes()).hexdigest()
    out = {
        "about": "all-MiniLM-L6-v2 embeddings from tests/reference.py (NumPy, float64)",
        "model_sha256": digest,
        "max_seq_length": max_seq_length,
        "cases": cases,
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
