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
    /// their top-level scalar members, each capped on its own (a filter's free-text
    /// member turning into presence only does not hide its status member), other JSON
    /// only its presence.
    pub fn fingerprint(&mut self, entries: &[(String, String)]) -> String {
        self.items(entries).join("; ")
    }

    /// The items of the fingerprint of `entries`, one per stored key (`tz=Asia/Kolkata`,
    /// `filter-N={status:archived}`), sorted: each a setting in force.
    pub fn items(&mut self, entries: &[(String, String)]) -> Vec<String> {
        let mut items = BTreeSet::new();
        for (key, value) in entries {
            let key = generalize(key);
            let item = match abstract_value(value) {
                Abstract::Scalar(v) => self.capped(&key, &key, '=', v),
                Abstract::Object(members) => {
                    let members: BTreeSet<String> = members
                        .into_iter()
                        .map(|(m, v)| self.capped(&format!("{key}.{m}"), &m, ':', v))
                        .collect();
                    format!("{key}={{{}}}", Vec::from_iter(members).join(","))
                }
                Abstract::Presence => key,
            };
            items.insert(item);
        }
        items.into_iter().collect()
    }

    /// `name` `sep` `value`, or `name` alone once `slot` has shown `max_values` other
    /// values.
    fn capped(&mut self, slot: &str, name: &str, sep: char, value: String) -> String {
        let values = self.seen.entry(slot.to_string()).or_default();
        if values.len() < self.max_values || values.contains(&value) {
            let item = format!("{name}{sep}{value}");
            values.insert(value);
            item
        } else {
            name.to_string()
        }
    }
}

impl Default for StorageAbstraction {
    fn default() -> Self {
        StorageAbstraction::new(16)
    }
}

/// What of a stored value counts in a fingerprint.
enum Abstract {
    /// A short value, generalised.
    Scalar(String),
    /// A JSON object's top-level scalar members (name, value), generalised.
    Object(Vec<(String, String)>),
    /// Only that something is stored.
    Presence,
}

fn abstract_value(value: &str) -> Abstract {
    let trimmed = value.trim();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(members)) => Abstract::Object(
                members
                    .iter()
                    .filter_map(|(k, v)| Some((generalize(k), scalar(v)?)))
                    .collect(),
            ),
            Ok(Value::Array(items)) => {
                Abstract::Scalar(if items.is_empty() { "[]" } else { "[…]" }.into())
            }
            _ => Abstract::Presence,
        };
    }
    if trimmed.chars().count() <= MAX_VALUE_CHARS {
        Abstract::Scalar(generalize(trimmed))
    } else {
        Abstract::Presence
    }
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

    #[test]
    fn an_object_member_full_of_text_does_not_hide_the_others() {
        let mut s = StorageAbstraction::new(3);
        let filter = |status: &str, text: &str| {
            entries(&[(
                "session:filter-4",
                &format!(r#"{{"status":"{status}","text":"{text}"}}"#),
            )])
        };
        for text in ["a", "b", "c", "d", "e"] {
            s.fingerprint(&filter("open", text));
        }
        // The text member is data by now; the status member still tells states apart.
        let open = s.fingerprint(&filter("open", "f"));
        let archived = s.fingerprint(&filter("archived", "g"));
        assert_eq!(open, "session:filter-N={status:open,text}");
        assert_eq!(archived, "session:filter-N={status:archived,text}");
    }
}
