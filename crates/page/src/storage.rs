//! What a page keeps in the browser, abstracted like its URL: the same page under a
//! setting never seen before (a display timezone, a running timer, a saved filter) is
//! another state, while values that only count or identify (ids, timestamps) and free
//! text (drafts) do not multiply states.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde_json::Value;

/// Longest string value kept in a fingerprint; longer ones count as present only.
const MAX_VALUE_CHARS: usize = 32;

/// Turns web-storage entries into a stable fingerprint.
#[derive(Debug, Clone)]
pub struct StorageAbstraction {
    /// Once a key has shown this many distinct abstract values it is treated as data
    /// (a draft, a search history) and only its presence counts.
    max_values: usize,
    seen: BTreeMap<String, HashSet<String>>,
}

impl StorageAbstraction {
    /// `max_values`: distinct values a key may show before only its presence counts.
    pub fn new(max_values: usize) -> StorageAbstraction {
        StorageAbstraction {
            max_values,
            seen: BTreeMap::new(),
        }
    }

    /// The fingerprint of `entries` (key, value): empty when nothing is stored. Digits
    /// in keys and values are generalised (`filter-3` is `filter-N`); JSON objects keep
    /// their top-level scalar members, other JSON only its presence.
    pub fn fingerprint(&mut self, entries: &[(String, String)]) -> String {
        let mut items = BTreeSet::new();
        for (key, value) in entries {
            let key = generalize(key);
            let item = match abstract_value(value) {
                Some(v) => {
                    let values = self.seen.entry(key.clone()).or_default();
                    if values.len() < self.max_values || values.contains(&v) {
                        values.insert(v.clone());
                        format!("{key}={v}")
                    } else {
                        key
                    }
                }
                None => key,
            };
            items.insert(item);
        }
        items.into_iter().collect::<Vec<_>>().join("; ")
    }
}

impl Default for StorageAbstraction {
    fn default() -> Self {
        StorageAbstraction::new(16)
    }
}

/// The value as it counts in a fingerprint, or `None` when only its presence counts.
fn abstract_value(value: &str) -> Option<String> {
    let trimmed = value.trim();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(members)) => {
                let scalars: BTreeSet<String> = members
                    .iter()
                    .filter_map(|(k, v)| Some(format!("{}:{}", generalize(k), scalar(v)?)))
                    .collect();
                Some(format!("{{{}}}", Vec::from_iter(scalars).join(",")))
            }
            Ok(Value::Array(items)) => Some(if items.is_empty() { "[]" } else { "[…]" }.into()),
            _ => None,
        };
    }
    (trimmed.chars().count() <= MAX_VALUE_CHARS).then(|| generalize(trimmed))
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Null => Some("null".into()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(_) => Some("N".into()),
        Value::String(s) if s.chars().count() <= MAX_VALUE_CHARS => Some(generalize(s)),
        _ => None,
    }
}

/// Every run of digits becomes `N`.
fn generalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_digits = false;
    for c in s.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !in_digits {
            out.push('N');
        }
        in_digits = c.is_ascii_digit();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn settings_separate_states_and_ids_do_not() {
        let mut s = StorageAbstraction::default();
        assert_eq!(s.fingerprint(&[]), "");
        let utc = s.fingerprint(&entries(&[("local:tz", "UTC")]));
        let ktm = s.fingerprint(&entries(&[("local:tz", "Asia/Kathmandu")]));
        assert_ne!(utc, ktm);
        assert_eq!(ktm, "local:tz=Asia/Kathmandu");
        // A filter saved per project: which project does not matter, the filter does.
        let a = s.fingerprint(&entries(&[(
            "session:filter-3",
            r#"{"status":"blocked","q":""}"#,
        )]));
        let b = s.fingerprint(&entries(&[(
            "session:filter-12",
            r#"{"status":"blocked","q":""}"#,
        )]));
        let c = s.fingerprint(&entries(&[(
            "session:filter-3",
            r#"{"status":"archived","q":""}"#,
        )]));
        assert_eq!(a, b);
        assert_ne!(a, c);
        // A timer: which task and when it started do not matter, that it runs does.
        let t1 = s.fingerprint(&entries(&[(
            "session:timer",
            r#"{"task":8,"started":1733212345000,"note":{"x":1}}"#,
        )]));
        let t2 = s.fingerprint(&entries(&[(
            "session:timer",
            r#"{"task":2,"started":1733219999000,"note":{"x":2}}"#,
        )]));
        assert_eq!(t1, t2);
        assert_eq!(t1, "session:timer={started:N,task:N}");
    }

    #[test]
    fn order_of_entries_does_not_matter() {
        let mut s = StorageAbstraction::default();
        let a = s.fingerprint(&entries(&[("local:a", "1"), ("local:b", "x")]));
        let b = s.fingerprint(&entries(&[("local:b", "x"), ("local:a", "7")]));
        assert_eq!(a, b);
        assert_eq!(a, "local:a=N; local:b=x");
    }

    #[test]
    fn free_text_counts_as_present_only() {
        let mut s = StorageAbstraction::new(3);
        let long = "a draft message that is much longer than any setting would be";
        assert_eq!(
            s.fingerprint(&entries(&[("local:draft", long)])),
            "local:draft"
        );
        // A key that keeps showing new values is data: after the cap, presence only,
        // while the values seen before the cap keep their own states.
        let names = ["Alex", "Priya", "Sam", "Jo", "Kim"];
        let prints: Vec<String> = names
            .iter()
            .map(|n| s.fingerprint(&entries(&[("local:name", n)])))
            .collect();
        assert_eq!(prints[0], "local:name=Alex");
        assert_eq!(prints[2], "local:name=Sam");
        assert_eq!(prints[3], "local:name");
        assert_eq!(prints[4], "local:name");
        assert_eq!(
            s.fingerprint(&entries(&[("local:name", "Priya")])),
            "local:name=Priya"
        );
        // Lists: empty or not.
        assert_eq!(
            s.fingerprint(&entries(&[("local:wish", "[]")])),
            "local:wish=[]"
        );
        assert_eq!(
            s.fingerprint(&entries(&[("local:wish", "[3,4]")])),
            "local:wish=[…]"
        );
    }
}
