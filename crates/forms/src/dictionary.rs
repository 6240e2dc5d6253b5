//! User dictionaries: the values a tester knows an app needs (a valid coupon, an existing
//! customer number, the cities the app serves), which no heuristic can guess.

use std::collections::HashMap;

use curio_page::Field;
use serde::Deserialize;

use crate::semantic::{Semantic, UnknownSemantic};

/// Values per field (by `name`, `id` or label text, case-insensitive) and per semantic.
///
/// JSON form: `{"fields": {"coupon": ["SAVE10"]}, "semantics": {"city": ["Lyon"]}}`; a
/// single string stands for a list of one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dictionary {
    fields: HashMap<String, Vec<String>>,
    semantics: HashMap<Semantic, Vec<String>>,
}

/// Why a dictionary could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DictionaryError {
    #[error("invalid dictionary json")]
    Json(#[source] serde_json::Error),
    #[error("unknown semantic {name:?} in dictionary \"semantics\" (known: {known})")]
    UnknownSemantic { name: String, known: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    fields: HashMap<String, OneOrMany>,
    #[serde(default)]
    semantics: HashMap<String, OneOrMany>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

impl Dictionary {
    pub fn empty() -> Self {
        Self::default()
    }

    /// Parses the JSON form. Unknown semantic names are an error rather than silently
    /// unused, since a typo there would quietly turn the dictionary off.
    pub fn from_json(text: &str) -> Result<Self, DictionaryError> {
        let raw: Raw = serde_json::from_str(text).map_err(DictionaryError::Json)?;
        let mut dictionary = Self::empty();
        for (key, values) in raw.fields {
            dictionary.insert_field(&key, values.into_vec());
        }
        for (name, values) in raw.semantics {
            let sem: Semantic = name.parse().map_err(|UnknownSemantic { name }| {
                DictionaryError::UnknownSemantic {
                    name,
                    known: Semantic::ALL
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            })?;
            dictionary.insert_semantic(sem, values.into_vec());
        }
        Ok(dictionary)
    }

    /// Adds values for fields whose `name`, `id` or label is `key` (case-insensitive).
    pub fn insert_field(&mut self, key: &str, values: Vec<String>) {
        if !values.is_empty() {
            self.fields
                .entry(normalize(key))
                .or_default()
                .extend(values);
        }
    }

    /// Adds values for every field of semantic `sem`.
    pub fn insert_semantic(&mut self, sem: Semantic, values: Vec<String>) {
        if !values.is_empty() {
            self.semantics.entry(sem).or_default().extend(values);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.semantics.is_empty()
    }

    /// Values for this very field: by `name`, then `id`, then each label, best first.
    pub fn for_field(&self, field: &Field) -> Option<&[String]> {
        if self.fields.is_empty() {
            return None;
        }
        let keys = [field.name.as_deref(), field.id.as_deref()]
            .into_iter()
            .flatten()
            .chain(field.labels.iter().map(|l| l.text.as_str()));
        keys.map(normalize)
            .filter(|k| !k.is_empty())
            .find_map(|k| self.fields.get(&k))
            .map(Vec::as_slice)
    }

    /// Values for fields of semantic `sem`.
    pub fn for_semantic(&self, sem: Semantic) -> Option<&[String]> {
        self.semantics.get(&sem).map(Vec::as_slice)
    }
}

/// Lowercase, whitespace collapsed, without the `:` and `*` that decorate labels.
fn normalize(key: &str) -> String {
    let key = key
        .trim()
        .trim_end_matches([':', '*', ' ', '\u{a0}'])
        .trim();
    key.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_and_normalizes() {
        let d = Dictionary::from_json(
            r#"{"fields": {"Coupon Code": ["SAVE10"], "ref": "R-1"}, "semantics": {"city": ["Lyon"], "postal-code": "69002"}}"#,
        )
        .unwrap();
        assert_eq!(d.fields.get("coupon code").unwrap(), &["SAVE10"]);
        assert_eq!(d.fields.get("ref").unwrap(), &["R-1"]);
        assert_eq!(d.for_semantic(Semantic::City).unwrap(), &["Lyon"]);
        assert_eq!(d.for_semantic(Semantic::PostalCode).unwrap(), &["69002"]);
        assert_eq!(normalize("  Coupon   code *: "), "coupon code");
    }

    #[test]
    fn rejects_typos_and_bad_json() {
        assert!(matches!(
            Dictionary::from_json(r#"{"semantics": {"citty": ["Lyon"]}}"#),
            Err(DictionaryError::UnknownSemantic { .. })
        ));
        assert!(matches!(
            Dictionary::from_json(r#"{"field": {}}"#),
            Err(DictionaryError::Json(_))
        ));
        assert!(Dictionary::from_json("{}").unwrap().is_empty());
        assert!(Dictionary::from_json("[").is_err());
    }
}
