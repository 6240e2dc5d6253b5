//! Checks of the real model: against an independent NumPy implementation
//! (tests/reference.py, its output in tests/reference.json), against numbers published
//! for all-MiniLM-L6-v2, and for the similarities Curio relies on.
//!
//! The model is read from `MiniLmEmbedder::default_dir()` (`$CURIO_MINILM_DIR`, else
//! Curio's data directory); these tests fail when it is not installed there.

use std::sync::OnceLock;

use curio_forms::TextEmbedder;
use curio_minilm::MiniLmEmbedder;

/// Embedding length of all-MiniLM-L6-v2.
const DIM: usize = 384;

fn load_fresh() -> MiniLmEmbedder {
    let dir = MiniLmEmbedder::default_dir();
    MiniLmEmbedder::load(&dir).unwrap_or_else(|e| {
        panic!(
            "all-MiniLM-L6-v2 is not usable: {e}\n\
             (scripts/fetch-minilm installs it in {}; CURIO_MINILM_DIR chooses another \
             directory)",
            dir.display()
        )
    })
}

/// One embedder shared by the tests of this file (loading takes a moment).
fn model() -> &'static MiniLmEmbedder {
    static MODEL: OnceLock<MiniLmEmbedder> = OnceLock::new();
    MODEL.get_or_init(load_fresh)
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn sim(a: &str, b: &str) -> f32 {
    let m = model();
    dot(&m.embed(a), &m.embed(b))
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

fn reference() -> serde_json::Value {
    serde_json::from_str(include_str!("reference.json")).expect("tests/reference.json")
}

#[test]
fn matches_the_numpy_reference() {
    let reference = reference();
    let cases = reference["cases"].as_array().expect("cases");
    assert!(cases.len() >= 6);
    let model = model();
    for case in cases {
        let text = case["text"].as_str().expect("text");
        let expected: Vec<f32> = case["embedding"]
            .as_array()
            .expect("embedding")
            .iter()
            .map(|x| x.as_f64().expect("number") as f32)
            .collect();
        let got = model.embed(text);
        assert_eq!(got.len(), DIM);
        let diff = max_abs_diff(&got, &expected);
        let shown: String = text.chars().take(40).collect();
        println!("{shown:?}: max |candle - numpy| = {diff:.2e}");
        assert!(
            diff < 1e-4,
            "{shown:?}: differs from the reference by {diff}"
        );
    }
}

/// Numbers printed in sentence-transformers' documentation for this model (the
/// quickstart of sbert.net and `SentenceTransformer.similarity`'s docs), to 4 decimals.
#[test]
fn matches_the_published_similarities() {
    let m = model();
    let e: Vec<Vec<f32>> = [
        "The weather is lovely today.",
        "It's so sunny outside!",
        "He drove to the stadium.",
    ]
    .iter()
    .map(|s| m.embed(s))
    .collect();
    for (i, j, cosine, manhattan) in [
        (0, 1, 0.6660, 12.6269),
        (0, 2, 0.1046, 20.2167),
        (1, 2, 0.1411, 20.1288),
    ] {
        let c = dot(&e[i], &e[j]);
        assert!(
            (c - cosine).abs() < 1e-4,
            "cos({i}, {j}) = {c}, published {cosine}"
        );
        let l1: f32 = e[i].iter().zip(&e[j]).map(|(x, y)| (x - y).abs()).sum();
        assert!(
            (l1 - manhattan).abs() < 1e-3,
            "manhattan({i}, {j}) = {l1}, published {manhattan}"
        );
    }
}

/// The leading components of the model card's example sentences, as printed by other
/// implementations (sentence-transformers through DJL and ONNX ports) for this model.
#[test]
fn matches_published_leading_components() {
    let m = model();
    let example = m.embed("This is an example sentence");
    let published = [
        0.067_656_93,
        0.063_495_93,
        0.048_713_14,
        0.079_304_95,
        0.037_448_06,
        0.002_652_73,
    ];
    let diff = max_abs_diff(&example[..6], &published);
    assert!(diff < 1e-5, "{:?} vs {published:?}", &example[..6]);
    let converted = m.embed("Each sentence is converted");
    assert!(
        (converted[0] - 0.086_438_59).abs() < 1e-5,
        "{}",
        converted[0]
    );
}

#[test]
fn similar_meanings_are_closer() {
    let email = sim("E-mail", "Email address");
    let unrelated = sim("E-mail", "Departure date");
    println!(
        "cos(E-mail, Email address) = {email:.3}, cos(E-mail, Departure date) = {unrelated:.3}"
    );
    assert!(email > unrelated);
    let travel = sim("Departure date", "Date of travel");
    let password = sim("Departure date", "Password");
    println!("cos(Departure date, Date of travel) = {travel:.3}, cos(…, Password) = {password:.3}");
    assert!(travel > password);
    assert!(
        sim("Confirm password", "Repeat your password") > sim("Confirm password", "First name")
    );
}

#[test]
fn embeddings_are_unit_vectors_and_blank_is_zero() {
    let m = model();
    assert_eq!(m.name(), "minilm");
    for text in ["Email address", "x", " :* ", "Départ — 東京"] {
        let v = m.embed(text);
        assert_eq!(v.len(), DIM);
        assert!((dot(&v, &v).sqrt() - 1.0).abs() < 1e-5, "{text:?}");
    }
    for blank in ["", "   ", "\n\t"] {
        let v = m.embed(blank);
        assert_eq!(v.len(), DIM);
        assert!(v.iter().all(|&x| x == 0.0), "{blank:?}");
    }
    // Cached: the same vector again.
    assert_eq!(m.embed("Email address"), m.embed("Email address"));
}

#[test]
fn long_texts_are_truncated_at_256_word_pieces() {
    let m = model();
    let words: Vec<String> = (0..400).map(|i| format!("word{}", i % 7)).collect();
    let long = words.join(" ");
    // Far past the first 256 word pieces, so the model sees the same tokens.
    let longer = format!("{long} and then something entirely different");
    assert!(max_abs_diff(&m.embed(&long), &m.embed(&longer)) < 1e-6);
}

#[test]
fn batch_equals_one_by_one() {
    // Fresh embedders, so that neither side reads the other's cache.
    let one_by_one = load_fresh();
    let batched = load_fresh();
    let reference = reference();
    let long = reference["cases"]
        .as_array()
        .and_then(|c| c.last())
        .and_then(|c| c["text"].as_str())
        .expect("long reference text")
        .to_owned();
    let texts = [
        "Email address",
        "Departure date",
        "",
        "Confirm your password",
        "Email address",
        "First name",
        "Please enter the date of your return flight",
        "Zip",
        long.as_str(),
        "Passenger 2: last name",
    ];
    let batch = batched.embed_batch(&texts);
    assert_eq!(batch.len(), texts.len());
    for (text, b) in texts.iter().zip(&batch) {
        let single = one_by_one.embed(text);
        let diff = max_abs_diff(&single, b);
        assert!(diff < 1e-4, "{text:?}: batch differs by {diff}");
    }
    assert!(batched.embed_batch(&[]).is_empty());
}

#[test]
fn usable_from_many_threads() {
    let m = model();
    let labels = [
        "Card number",
        "Expiry date",
        "Security code",
        "Name on card",
    ];
    let from_threads: Vec<Vec<f32>> = std::thread::scope(|s| {
        let handles: Vec<_> = labels.iter().map(|l| s.spawn(move || m.embed(l))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (l, v) in labels.iter().zip(&from_threads) {
        assert_eq!(v, &m.embed(l));
    }
}
