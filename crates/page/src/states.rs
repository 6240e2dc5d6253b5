//! State abstraction for curiosity-driven exploration (WebExplor): which visited pages
//! count as the same *state*.
//!
//! Two pages are the same state when their normalised URLs are equal and their tag
//! sequences are similar: `difflib.SequenceMatcher(None, new, known).ratio() >=
//! threshold` (see [`crate::similarity`]; the new page is `a`, the known state `b`).
//! URLs tell pages apart cheaply; the ratio lets one URL hold several states (a list
//! and its empty state, a dialog open or closed) without counting every changed row as
//! new.

use std::collections::HashMap;

use crate::similarity::{IndexedSeq, Matcher};

/// Tag names to small dense ids, so that sequences are `Vec<u32>`: comparisons become
/// integer compares and `b2j` a table indexed by id. Ids are given in order of first
/// appearance, 0, 1, 2, ...
#[derive(Debug, Clone, Default)]
pub struct TagInterner {
    ids: HashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl TagInterner {
    pub fn new() -> TagInterner {
        TagInterner::default()
    }

    /// The id of `tag`, given a new one if it was never seen.
    pub fn intern(&mut self, tag: &str) -> u32 {
        if let Some(id) = self.get(tag) {
            return id;
        }
        // Four billion distinct tag names do not fit in memory anyway; saturate rather
        // than panic.
        let id = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        self.names.push(tag.into());
        self.ids.insert(tag.into(), id);
        id
    }

    /// Interns every tag, appending the ids to `out` (which is not cleared, so a caller
    /// can reuse one buffer).
    pub fn intern_all<S: AsRef<str>>(&mut self, tags: &[S], out: &mut Vec<u32>) {
        out.reserve(tags.len());
        for tag in tags {
            out.push(self.intern(tag.as_ref()));
        }
    }

    /// The id of `tag` if it was interned.
    pub fn get(&self, tag: &str) -> Option<u32> {
        self.ids.get(tag).copied()
    }

    /// The tag name of `id`.
    pub fn name(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(|n| &**n)
    }

    /// How many distinct tags were interned (ids are `0..len()`).
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A state, numbered densely from 0 in creation order, so that callers can keep per-state
/// data (visit counts, curiosity rewards) in a plain `Vec` indexed by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

/// How [`StateTable`] decides that a page is a known state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateTableConfig {
    /// The least `ratio(new page, known state)` for the page to be that state. Default
    /// 0.8, WebExplor's value. Above 1.0 (or NaN) nothing matches and every lookup makes
    /// a new state; 0.0 or below puts every page of a URL into its first state.
    pub threshold: f64,
}

impl Default for StateTableConfig {
    fn default() -> Self {
        StateTableConfig { threshold: 0.8 }
    }
}

/// The answer of [`StateTable::lookup`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateMatch {
    pub id: StateId,
    /// The page matched no known state, and `id` was created for it.
    pub is_new: bool,
    /// `ratio(page, state)`: at least the threshold for a known state; 1.0 for a new one
    /// (the state is the page itself).
    pub similarity: f64,
}

#[derive(Debug, Clone)]
struct State {
    url: u32,
    /// The state's tag ids with `b2j` precomputed. Measured on 3,000-tag pages (see
    /// `benches/states.rs`): building it takes ~30 µs, several times a typical rejected
    /// comparison, and a state is compared with many later pages; it adds ~7% to the
    /// memory of the sequence itself (under `autojunk` only the rarer tags have positions).
    seq: IndexedSeq,
    /// Of the tag ids, to find an identical page without comparing.
    hash: u64,
}

/// The known states, with the logic that maps a page to one of them or to a new one.
///
/// A lookup compares the page only with states of the same normalised URL, **best
/// first**: it answers the state with the highest ratio (the earliest created among
/// equals) if that ratio reaches the threshold. The order of the search is
/// branch-and-bound: an identical page is found by hash at once; otherwise each
/// candidate's `real_quick_ratio` (lengths) and `quick_ratio` (tag counts), both upper
/// bounds of the ratio, drop those that cannot reach the threshold, and the rest are
/// compared fully in decreasing order of `quick_ratio`, stopping when the bound falls
/// below the best ratio found; a full comparison itself stops as soon as it cannot reach
/// the threshold (or the best so far). Best-first rather than first-match makes the answer
/// independent of how states happened to be numbered.
#[derive(Debug, Clone, Default)]
pub struct StateTable {
    config: StateTableConfig,
    tags: TagInterner,
    urls: Vec<String>,
    url_ids: HashMap<String, u32>,
    /// States of each URL, in creation order.
    by_url: Vec<Vec<StateId>>,
    states: Vec<State>,
    // Scratch, reused by every lookup.
    /// Holds the page being looked up as its `a`.
    matcher: Matcher,
    page: Vec<u32>,
    candidates: Vec<(f64, StateId)>,
}

impl StateTable {
    pub fn new(config: StateTableConfig) -> StateTable {
        StateTable {
            config,
            ..StateTable::default()
        }
    }

    pub fn config(&self) -> &StateTableConfig {
        &self.config
    }

    /// The state of a page with this normalised URL and tag sequence (either
    /// [`crate::Page::tag_sequence`] or, to treat lists of any length alike,
    /// [`crate::Page::merged_tag_sequence`]; use one of them consistently): the most
    /// similar known state of that URL if it is similar enough, else a new state.
    pub fn lookup(&mut self, normalized_url: &str, tags: &[String]) -> StateMatch {
        self.page.clear();
        self.tags.intern_all(tags, &mut self.page);
        let url = self.url_ids.get(normalized_url).copied();
        if let Some(url) = url
            && let Some(found) = self.best_known(url)
        {
            return found;
        }
        let url = match url {
            Some(url) => url,
            None => {
                let id = u32::try_from(self.urls.len()).unwrap_or(u32::MAX);
                self.urls.push(normalized_url.to_string());
                self.url_ids.insert(normalized_url.to_string(), id);
                self.by_url.push(Vec::new());
                id
            }
        };
        let id = StateId(u32::try_from(self.states.len()).unwrap_or(u32::MAX));
        self.states.push(State {
            url,
            hash: hash_ids(&self.page),
            seq: IndexedSeq::new(self.page.clone()),
        });
        if let Some(list) = self.by_url.get_mut(url as usize) {
            list.push(id);
        }
        StateMatch {
            id,
            is_new: true,
            similarity: 1.0,
        }
    }

    /// [`StateTable::lookup`] for a page model: its normalised URL and, with
    /// `merge_repeats`, its [`crate::Page::merged_tag_sequence`], else its
    /// [`crate::Page::tag_sequence`].
    pub fn lookup_page(&mut self, page: &crate::Page, merge_repeats: bool) -> StateMatch {
        self.lookup(&page.normalized_url, page.state_tags(merge_repeats))
    }

    /// The best known state of `url` for `self.page`, if it reaches the threshold.
    fn best_known(&mut self, url: u32) -> Option<StateMatch> {
        let threshold = self.config.threshold;
        let ids = self.by_url.get(url as usize)?;
        let page = &self.page;
        let found = |id: StateId, similarity: f64| StateMatch {
            id,
            is_new: false,
            similarity,
        };

        // An identical page: ratio 1.0, which nothing beats (and only an identical
        // sequence reaches), so the earliest identical state is the answer.
        if 1.0 >= threshold {
            let hash = hash_ids(page);
            for &id in ids {
                if let Some(s) = self.states.get(id.0 as usize)
                    && s.hash == hash
                    && s.seq.as_slice() == page.as_slice()
                {
                    return Some(found(id, 1.0));
                }
            }
        }

        self.matcher.set_a(page);
        self.candidates.clear();
        for &id in ids {
            let Some(s) = self.states.get(id.0 as usize) else {
                continue;
            };
            if self.matcher.real_quick_ratio(&s.seq) < threshold {
                continue;
            }
            let quick = self.matcher.quick_ratio(&s.seq);
            if quick >= threshold {
                self.candidates.push((quick, id));
            }
        }
        self.candidates
            .sort_unstable_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));

        let mut best: Option<(StateId, f64)> = None;
        for &(bound, id) in &self.candidates {
            if let Some((best_id, best_ratio)) = best
                && (bound < best_ratio || (bound == best_ratio && id > best_id))
            {
                break;
            }
            let Some(s) = self.states.get(id.0 as usize) else {
                continue;
            };
            let min = best.map_or(threshold, |(_, r)| r.max(threshold));
            let Some(r) = self.matcher.ratio_at_least(&s.seq, min) else {
                continue;
            };
            let better = match best {
                None => true,
                Some((best_id, best_ratio)) => r > best_ratio || (r == best_ratio && id < best_id),
            };
            if better {
                best = Some((id, r));
            }
        }
        best.map(|(id, r)| found(id, r))
    }

    /// How many states there are; ids are `0..len()`.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The normalised URL of a state.
    pub fn url_of(&self, id: StateId) -> Option<&str> {
        let state = self.states.get(id.0 as usize)?;
        self.urls.get(state.url as usize).map(String::as_str)
    }

    /// The states of a normalised URL, in creation order.
    pub fn states_of(&self, normalized_url: &str) -> &[StateId] {
        self.url_ids
            .get(normalized_url)
            .and_then(|&u| self.by_url.get(u as usize))
            .map_or(&[], Vec::as_slice)
    }

    /// The tag sequence a state was created from (the first page seen in it), as ids of
    /// [`StateTable::interner`].
    pub fn tag_ids_of(&self, id: StateId) -> Option<&[u32]> {
        self.states.get(id.0 as usize).map(|s| s.seq.as_slice())
    }

    /// The tag names behind the ids.
    pub fn interner(&self) -> &TagInterner {
        &self.tags
    }

    /// Approximate heap memory of the known states (sequences, indexes, URLs), in bytes,
    /// scratch buffers excluded: to keep an eye on what a long run costs.
    pub fn heap_bytes(&self) -> usize {
        let states: usize = self
            .states
            .iter()
            .map(|s| s.seq.heap_bytes() + std::mem::size_of::<State>())
            .sum();
        let urls: usize = self.urls.iter().map(|u| 2 * u.capacity() + 48).sum();
        let by_url: usize = self.by_url.iter().map(|v| v.capacity() * 4 + 24).sum();
        let tags: usize = self.tags.names.iter().map(|n| 2 * n.len() + 40).sum();
        states + urls + by_url + tags
    }
}

/// A quick 64-bit hash of a tag-id sequence (FxHash-style; no need to resist crafted
/// collisions, since a hash match is always confirmed by comparing the sequences).
fn hash_ids(ids: &[u32]) -> u64 {
    const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    ids.iter().fold(ids.len() as u64, |h, &x| {
        (h.rotate_left(5) ^ u64::from(x)).wrapping_mul(K)
    })
}
