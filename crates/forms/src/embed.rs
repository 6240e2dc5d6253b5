//! Text embeddings for the form entity relation graph ([`crate::Ferg`]).
//!
//! The FormNexus authors embed texts with a hosted model (OpenAI's ADA). Curio stays
//! offline and deterministic, so the default is [`LexicalEmbedder`]: words and their
//! character n-grams hashed into a fixed-size vector. It sees that "Confirm password" and
//! `password_confirm` share words, and that "E-mail" and "email" share n-grams; it does
//! not know that "Departure" is a date. A model-based embedder can stand in behind the
//! same [`TextEmbedder`] trait.

/// Turns a text into a vector; texts about the same thing should point the same way.
pub trait TextEmbedder {
    /// The embedding of `text`. Every call returns a vector of the same length; the empty
    /// text may give the zero vector.
    fn embed(&self, text: &str) -> Vec<f32>;
    /// A short name for logs and [`crate::Ferg::describe`].
    fn name(&self) -> &str;
}

/// Length of a [`LexicalEmbedder`] vector: with the handful of words of a label, 512
/// buckets make collisions between unrelated features rare (a 10-word text has about 100
/// features) while a vector stays 2 KiB.
pub const LEXICAL_DIMENSIONS: usize = 512;
/// Character n-gram lengths taken from each `<word>` (padded with boundary marks).
const NGRAM_MIN: usize = 2;
const NGRAM_MAX: usize = 4;
/// Share of a word's weight on the whole word rather than on its n-grams: identical words
/// count more than words that merely look alike ("form" and "from" share 3 of 9 n-grams).
const WHOLE_WORD_SHARE: f32 = 0.5;
/// Weight of two adjacent words written as one, relative to a word of the text.
const JOINED_WEIGHT: f32 = 0.5;

/// Words and character n-grams hashed into [`LEXICAL_DIMENSIONS`] buckets, L2-normalised,
/// so that the cosine of two embeddings is their dot product.
///
/// The text is lowercased and split into words at anything not alphanumeric, at
/// lower-to-upper case changes (`confirmPassword`) and between letters and digits
/// (`from1`). Each word gets the same total weight, split between the whole word and its
/// 2- to 4-grams (of `<word>`, so prefixes and suffixes are marked): "From 1" and "To 1"
/// share half their weight, as "From 1" and "From 2" do. Buckets and signs come from
/// FNV-1a, so embeddings are the same on every machine and run.
#[derive(Debug, Clone, Copy, Default)]
pub struct LexicalEmbedder;

impl TextEmbedder for LexicalEmbedder {
    fn embed(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0.0f32; LEXICAL_DIMENSIONS];
        let words = words(text);
        for word in &words {
            add_word(&mut v, word, 1.0);
        }
        // Adjacent words written together: "E-mail" is also "email", "User name"
        // "username", "Zip code" "zipcode". Numbers stay apart ("From 1" is not "from1").
        for pair in words.windows(2) {
            let alphabetic = |w: &str| w.chars().all(char::is_alphabetic);
            if alphabetic(&pair[0]) && alphabetic(&pair[1]) {
                add_word(&mut v, &format!("{}{}", pair[0], pair[1]), JOINED_WEIGHT);
            }
        }
        normalize(&mut v);
        v
    }

    fn name(&self) -> &str {
        "lexical"
    }
}

/// Adds one word's features to `v`: `weight` in all, split between the whole word and
/// its n-grams (each n-gram `1/sqrt(count)` of the n-grams' share).
fn add_word(v: &mut [f32], word: &str, weight: f32) {
    add_feature(v, &format!("w:{word}"), weight * WHOLE_WORD_SHARE);
    let padded: Vec<char> = std::iter::once('<')
        .chain(word.chars())
        .chain(std::iter::once('>'))
        .collect();
    let mut grams: Vec<String> = Vec::new();
    for len in NGRAM_MIN..=NGRAM_MAX {
        for w in padded.windows(len) {
            let mut g = String::from("g:");
            g.extend(w);
            grams.push(g);
        }
    }
    // `padded` has at least 2 characters, so there is at least one n-gram.
    let each = weight * (1.0 - WHOLE_WORD_SHARE) / (grams.len().max(1) as f32).sqrt();
    for g in &grams {
        add_feature(v, g, each);
    }
}

/// The words of `text`, lowercased (see [`LexicalEmbedder`]).
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut out);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let case_change = p.is_lowercase() && c.is_uppercase();
            let digit_change = p.is_ascii_digit() != c.is_ascii_digit();
            if case_change || digit_change {
                flush(&mut current, &mut out);
            }
        }
        current.extend(c.to_lowercase());
        prev = Some(c);
    }
    flush(&mut current, &mut out);
    out
}

fn flush(current: &mut String, out: &mut Vec<String>) {
    if !current.is_empty() {
        out.push(std::mem::take(current));
    }
}

/// Adds `weight` to the bucket of `feature`, with a sign from the hash (signed hashing
/// keeps collisions from adding up to a similarity).
fn add_feature(v: &mut [f32], feature: &str, weight: f32) {
    let h = fnv1a(feature.as_bytes());
    let bucket = (h % v.len() as u64) as usize;
    let sign = if (h >> 63) == 0 { 1.0 } else { -1.0 };
    v[bucket] += sign * weight;
}

/// 64-bit FNV-1a.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

fn norm(v: &[f32]) -> f32 {
    v.iter().map(|x| x * x).sum::<f32>().sqrt()
}

/// Scales `v` to unit length; the zero vector stays zero.
pub fn normalize(v: &mut [f32]) {
    let n = norm(v);
    if n > 0.0 {
        for x in v {
            *x /= n;
        }
    }
}

/// Cosine similarity; 0 when either vector is zero or the lengths differ.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (na, nb) = (norm(a), norm(b));
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    (dot / (na * nb)).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim(a: &str, b: &str) -> f32 {
        let e = LexicalEmbedder;
        cosine(&e.embed(a), &e.embed(b))
    }

    #[test]
    fn words_split_at_case_digits_and_punctuation() {
        assert_eq!(words("confirmPassword"), ["confirm", "password"]);
        assert_eq!(words("leg1_from"), ["leg", "1", "from"]);
        assert_eq!(words("E-mail address:"), ["e", "mail", "address"]);
        assert_eq!(words("URL"), ["url"]);
        assert_eq!(words("  "), Vec::<String>::new());
    }

    #[test]
    fn embeddings_are_unit_deterministic_and_zero_for_no_words() {
        let e = LexicalEmbedder;
        let v = e.embed("Email address");
        assert_eq!(v.len(), LEXICAL_DIMENSIONS);
        assert!((norm(&v) - 1.0).abs() < 1e-5);
        assert_eq!(v, e.embed("Email address"));
        assert!(e.embed(" :* ").iter().all(|&x| x == 0.0));
        assert_eq!(cosine(&e.embed(""), &v), 0.0);
        // FNV-1a test vector: fixed buckets on every machine.
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn similar_wording_is_closer_than_different_wording() {
        assert!((sim("Password", "password") - 1.0).abs() < 1e-5);
        assert!(sim("Confirm password", "password_confirm") > 0.9);
        assert!(sim("User name", "username") > 0.5);
        assert!(sim("Password", "Confirm password") > sim("Password", "Email address"));
        assert!(sim("E-mail", "email") > 0.5);
        // Numbers count as much as words: leg 1's "From" is as near its "To" as leg 2's
        // "From".
        assert!((sim("From 1", "To 1") - sim("From 1", "From 2")).abs() < 0.1);
        assert!(sim("E-mail", "email") > sim("E-mail", "phone"));
        assert!(sim("First name", "Last name") > sim("First name", "Postal code"));
        assert!(sim("Email address", "Phone number").abs() < 0.2);
    }
}
