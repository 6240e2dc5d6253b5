//! The state table: same URL and similar tag sequences make one state, best match first.

use curio_page::{
    IndexedSeq, Matcher, SequenceMatcher, StateId, StateMatch, StateTable, StateTableConfig,
    TagInterner,
};

fn tags(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn letters(s: &str) -> Vec<String> {
    s.chars().map(|c| c.to_string()).collect()
}

fn ratio(a: &[String], b: &[String]) -> f64 {
    SequenceMatcher::new(a, b).ratio()
}

#[test]
fn ids_are_dense_and_urls_separate_states() {
    let mut table = StateTable::default();
    assert_eq!(table.config().threshold, 0.8);
    assert!(table.is_empty());
    let page = tags("html body div ul li li li p a");
    let first = table.lookup("http://x/list", &page);
    assert_eq!(
        first,
        StateMatch {
            id: StateId(0),
            is_new: true,
            similarity: 1.0
        }
    );
    let again = table.lookup("http://x/list", &page);
    assert_eq!(
        (again.id, again.is_new, again.similarity),
        (StateId(0), false, 1.0)
    );
    // The same tags under another URL are another state.
    let other = table.lookup("http://x/other", &page);
    assert_eq!((other.id, other.is_new), (StateId(1), true));
    // Different enough at the first URL.
    let form = table.lookup("http://x/list", &tags("html body form input input button"));
    assert_eq!((form.id, form.is_new), (StateId(2), true));
    assert_eq!(table.len(), 3);
    assert_eq!(table.url_of(StateId(1)), Some("http://x/other"));
    assert_eq!(table.url_of(StateId(2)), Some("http://x/list"));
    assert_eq!(table.url_of(StateId(3)), None);
    assert_eq!(table.states_of("http://x/list"), [StateId(0), StateId(2)]);
    assert_eq!(table.states_of("http://nowhere"), []);
    let ids = table.tag_ids_of(StateId(2)).unwrap_or_default();
    let names: Vec<&str> = ids
        .iter()
        .filter_map(|&t| table.interner().name(t))
        .collect();
    assert_eq!(names, ["html", "body", "form", "input", "input", "button"]);
}

#[test]
fn a_similar_page_is_the_known_state_with_its_exact_ratio() {
    let mut table = StateTable::default();
    let known = tags("html body header nav a a a main h1 ul li li li li footer p");
    table.lookup("u", &known);
    let similar = tags("html body header nav a a a main h1 ul li li li footer p");
    let m = table.lookup("u", &similar);
    assert!(!m.is_new);
    assert_eq!(m.id, StateId(0));
    assert_eq!(m.similarity, ratio(&similar, &known));
    assert!(m.similarity >= 0.8 && m.similarity < 1.0);
    // Still the first page's state: the state keeps the sequence it was created with.
    assert_eq!(
        table.tag_ids_of(StateId(0)).map(<[u32]>::len),
        Some(known.len())
    );
}

#[test]
fn the_best_state_wins_not_the_first() {
    let mut table = StateTable::default();
    let a = letters("abcdefghijklmnopqrst");
    let b = letters("abcdefghijklmnuvwxyz");
    assert!(ratio(&b, &a) < 0.8);
    assert!(table.lookup("u", &a).is_new);
    assert!(table.lookup("u", &b).is_new);
    let page = letters("abcdefghijklmnopwxyz");
    assert_eq!(ratio(&page, &a), 0.8);
    assert_eq!(ratio(&page, &b), 0.9);
    let m = table.lookup("u", &page);
    assert_eq!((m.id, m.is_new, m.similarity), (StateId(1), false, 0.9));

    // On a tie the earlier state wins.
    let tie = letters("abcdefghijklmnopqxyz");
    assert_eq!(ratio(&tie, &a), ratio(&tie, &b));
    assert_eq!(table.lookup("u", &tie).id, StateId(0));
}

#[test]
fn thresholds_at_the_extremes() {
    let mut never = StateTable::new(StateTableConfig { threshold: 1.5 });
    let page = tags("html body p");
    assert_eq!(never.lookup("u", &page).id, StateId(0));
    assert_eq!(never.lookup("u", &page).id, StateId(1));
    let mut nan = StateTable::new(StateTableConfig {
        threshold: f64::NAN,
    });
    assert!(nan.lookup("u", &page).is_new);
    assert!(nan.lookup("u", &page).is_new);

    let mut always = StateTable::new(StateTableConfig { threshold: 0.0 });
    always.lookup("u", &page);
    let m = always.lookup("u", &tags("nav ul li"));
    assert_eq!((m.id, m.is_new, m.similarity), (StateId(0), false, 0.0));

    let mut exact = StateTable::new(StateTableConfig { threshold: 1.0 });
    exact.lookup("u", &page);
    assert!(exact.lookup("u", &tags("html body p p")).is_new);
    assert!(!exact.lookup("u", &page).is_new);
}

#[test]
fn page_models_look_up_with_or_without_merged_repeats() {
    let path = format!("{}/tests/fixtures/table.json", env!("CARGO_MANIFEST_DIR"));
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    let snapshot: curio_page::DomSnapshot =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("parse {path}: {e}"));
    let page = curio_page::Page::from_snapshot(&snapshot);
    let mut table = StateTable::default();
    let merged = table.lookup_page(&page, true);
    assert!(merged.is_new);
    assert_eq!(table.url_of(merged.id), Some(page.normalized_url.as_str()));
    assert_eq!(
        table.tag_ids_of(merged.id).map(<[u32]>::len),
        Some(page.merged_tag_sequence.len())
    );
    // The full sequence (three rows) is too far from the merged one (one row) at 0.8.
    assert!(ratio(&page.tag_sequence, &page.merged_tag_sequence) < 0.8);
    assert!(table.lookup_page(&page, false).is_new);
    assert!(!table.lookup_page(&page, true).is_new);
}

#[test]
fn empty_pages_are_a_state_too() {
    let mut table = StateTable::default();
    assert!(table.lookup("", &[]).is_new);
    let m = table.lookup("", &[]);
    assert_eq!((m.id, m.is_new, m.similarity), (StateId(0), false, 1.0));
    assert!(table.lookup("", &tags("html")).is_new);
}

#[test]
fn interner_gives_dense_ids_in_order_of_appearance() {
    let mut interner = TagInterner::new();
    let mut out = Vec::new();
    interner.intern_all(&["div", "span", "div", "a"], &mut out);
    assert_eq!(out, [0, 1, 0, 2]);
    assert_eq!(interner.get("span"), Some(1));
    assert_eq!(interner.get("p"), None);
    assert_eq!(interner.name(2), Some("a"));
    assert_eq!(interner.name(3), None);
    assert_eq!(interner.len(), 3);
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const VOCAB: [&str; 16] = [
    "div", "span", "a", "li", "ul", "td", "tr", "p", "img", "button", "input", "form", "h2", "nav",
    "table", "section",
];

/// A page: a template (by seed) of `len` tags, then `edits` random edits.
fn random_page(rng: &mut Rng, template: u64, len: usize, edits: usize) -> Vec<String> {
    let mut t = Rng(template * 7919 + 17);
    let mut page: Vec<String> = (0..len)
        .map(|_| {
            let k = t.below(VOCAB.len() as u64);
            VOCAB[if t.below(3) == 0 { k } else { k % 4 } as usize].to_string()
        })
        .collect();
    for _ in 0..edits {
        let at = rng.below(page.len() as u64 + 1) as usize;
        let tag = VOCAB[rng.below(VOCAB.len() as u64) as usize].to_string();
        match rng.below(3) {
            0 if at < page.len() => {
                page.remove(at);
            }
            1 if at < page.len() => page[at] = tag,
            _ => page.insert(at, tag),
        }
    }
    page
}

/// The table against brute force: every state of the URL compared in full.
#[test]
fn lookups_agree_with_comparing_every_state() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for threshold in [0.8, 0.5, 0.95] {
        let mut table = StateTable::new(StateTableConfig { threshold });
        // The oracle: plain ratios against every state (own interner and matcher).
        let mut known: Vec<(String, IndexedSeq)> = Vec::new();
        let mut interner = TagInterner::new();
        let mut matcher = Matcher::new();
        for step in 0..300 {
            let url = format!("http://app/{}", rng.below(4));
            let template = rng.below(4);
            let len = [30, 150, 250, 400][template as usize];
            let edits = if rng.below(3) == 0 {
                rng.below(40)
            } else {
                rng.below(4)
            } as usize;
            let page = random_page(&mut rng, template, len, edits);
            let mut ids = Vec::new();
            interner.intern_all(&page, &mut ids);
            let mut expected: Option<(usize, f64)> = None;
            for (id, (u, seq)) in known.iter().enumerate() {
                if *u != url {
                    continue;
                }
                matcher.set_a(&ids);
                let r = matcher.ratio(seq);
                if r >= threshold && expected.is_none_or(|(_, best)| r > best) {
                    expected = Some((id, r));
                }
            }
            let m = table.lookup(&url, &page);
            match expected {
                Some((id, r)) => assert_eq!(
                    (m.id, m.is_new, m.similarity),
                    (StateId(id as u32), false, r),
                    "step {step}"
                ),
                None => {
                    assert_eq!(
                        (m.id, m.is_new),
                        (StateId(known.len() as u32), true),
                        "step {step}"
                    );
                    known.push((url, IndexedSeq::new(ids)));
                }
            }
        }
        assert_eq!(table.len(), known.len());
        assert!(table.heap_bytes() > 0);
    }
}
