//! A faithful port of Python's `difflib.SequenceMatcher` (CPython 3.11), the
//! Ratcliff/Obershelp similarity WebExplor uses to decide whether two pages are the same
//! state.
//!
//! Faithful means: the same matching blocks, the same tie-breaking, and bit-for-bit the
//! same `ratio()` — including `autojunk`, the "popular element" heuristic (when `b` has
//! 200 elements or more, every element occurring more than `1 + len(b) / 100` times in `b`
//! is left out of the search for matches, although matches may still be *extended* over
//! it). For tag sequences that heuristic matters a lot: `div`, `span`, `li` are popular on
//! any large page, so the ratio of two long pages rests on their rarer tags. The
//! differences from Python are only in how the work is done:
//!
//! - The b side (Python's `set_seq2`: `b2j`, `bjunk`, `fullbcount`) is an [`IndexedSeq`],
//!   built once and reused for every comparison against it. Comparing many new pages with
//!   one known state is the hot path, so **`b` is the known state and `a` the new page**.
//!   `ratio` is not symmetric; keep that orientation everywhere.
//! - Elements are `u32` keys and `b2j` is a dense table indexed by key (one slice of
//!   positions per key), because tag ids from a [`crate::TagInterner`] are small and
//!   dense. [`SequenceMatcher`] maps any `Eq + Hash` element type onto such keys
//!   for the general, Python-like API.
//! - The `a` side (Python's `set_seq1`) lives in a [`Matcher`], indexed once by element
//!   so that what `a` shares with each `b` is found without rescanning `a`; the matcher
//!   also holds the scratch of the search (Python's `j2len` dictionaries as one stamped
//!   array, the queue), so a comparison allocates nothing once warmed up.
//! - `find_longest_match` skips runs of rows of `a` that are too short to beat the best
//!   block found so far: with `autojunk`, most rows are isolated between popular elements,
//!   and Python scans them only to find nothing longer. The answer is unchanged.
//! - [`Matcher::ratio_at_least`] stops as soon as the ratio provably cannot reach a bound,
//!   which is all a threshold test needs; when it answers, the answer is the exact ratio.
//!
//! `isjunk` is supported (as a predicate over keys when building an [`IndexedSeq`]), but
//! the state abstraction uses none, as `SequenceMatcher(None, a, b)` does.

use std::collections::HashMap;
use std::hash::Hash;

/// A matching block: `a[a..a + size] == b[b..b + size]`. Python's `Match` named tuple;
/// ordered like the tuple, which is how `get_matching_blocks` sorts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Match {
    pub a: usize,
    pub b: usize,
    pub size: usize,
}

/// Python's `_calculate_ratio`: `2 * matches / length`, and 1.0 for two empty sequences
/// (they are identical). The same floating-point operations, so the same bits.
pub fn calculate_ratio(matches: usize, length: usize) -> f64 {
    if length == 0 {
        1.0
    } else {
        2.0 * matches as f64 / length as f64
    }
}

/// Python's `real_quick_ratio`: an upper bound on `ratio` from the lengths alone
/// (at most `min(len(a), len(b))` elements can match).
pub fn real_quick_ratio(a_len: usize, b_len: usize) -> f64 {
    calculate_ratio(a_len.min(b_len), a_len.saturating_add(b_len))
}

/// Keys up to this bound get a dense `b2j` table (4 bytes per possible key); sequences
/// with larger keys fall back to a hash map, so an odd key never costs gigabytes.
const DENSE_KEY_LIMIT: u32 = 1 << 16;

/// Positions are stored as `u32`; longer inputs are cut here. (A `Vec<u32>` of this
/// length is 16 GiB, so no real sequence gets near it.)
const MAX_LEN: usize = u32::MAX as usize;

/// Where each key occurs in `b`, popular and junk keys left out: Python's `b2j`.
#[derive(Debug, Clone)]
enum B2j {
    /// Positions of key `k` are `positions[starts[k]..starts[k + 1]]`.
    Dense { starts: Vec<u32> },
    /// Key -> range in `positions`, for sequences with keys >= [`DENSE_KEY_LIMIT`].
    Sparse(HashMap<u32, (u32, u32)>),
}

/// The `b` side of a comparison, preprocessed once: the sequence, `b2j` (with junk and,
/// under `autojunk`, popular elements removed), the junk set and the element counts that
/// `quick_ratio` needs. Build one per known state and compare any number of `a`s with it.
#[derive(Debug, Clone)]
pub struct IndexedSeq {
    seq: Vec<u32>,
    b2j: B2j,
    positions: Vec<u32>,
    /// `(key, count in seq)` for every distinct key, ascending: Python's `fullbcount`.
    counts: Vec<(u32, u32)>,
    /// Keys the `isjunk` predicate rejected (Python's `bjunk`), ascending; usually empty.
    junk: Vec<u32>,
    /// How many distinct keys `autojunk` declared popular (Python's `bpopular`).
    popular: usize,
}

impl IndexedSeq {
    /// `SequenceMatcher(None, _, b)`: no junk predicate, `autojunk` on.
    pub fn new(b: Vec<u32>) -> IndexedSeq {
        IndexedSeq::with_options(b, |_| false, true)
    }

    /// `SequenceMatcher(isjunk, _, b, autojunk)`. `is_junk` is asked once per distinct key.
    pub fn with_options(mut b: Vec<u32>, is_junk: impl Fn(u32) -> bool, autojunk: bool) -> Self {
        b.truncate(MAX_LEN);
        b.shrink_to_fit();
        let n = b.len();

        // fullbcount, as a sorted list of (key, count).
        let mut sorted = b.clone();
        sorted.sort_unstable();
        let mut counts: Vec<(u32, u32)> = Vec::new();
        for &k in &sorted {
            match counts.last_mut() {
                Some((last, c)) if *last == k => *c += 1,
                _ => counts.push((k, 1)),
            }
        }
        drop(sorted);
        counts.shrink_to_fit();

        // Python deletes junk from b2j first, then (among the rest) the popular elements.
        let junk: Vec<u32> = counts
            .iter()
            .map(|&(k, _)| k)
            .filter(|&k| is_junk(k))
            .collect();
        let ntest = n / 100 + 1;
        let mut popular = 0;
        let keep = |k: u32, c: u32| -> bool {
            if junk.binary_search(&k).is_ok() {
                return false;
            }
            !(autojunk && n >= 200 && c as usize > ntest)
        };
        let kept: Vec<(u32, u32)> = counts
            .iter()
            .copied()
            .filter(|&(k, c)| {
                let kept = keep(k, c);
                if !kept && junk.binary_search(&k).is_err() {
                    popular += 1;
                }
                kept
            })
            .collect();

        // b2j as ranges of `positions`, in key order; the positions of a key are ascending
        // because b is scanned in order, as Python appends them.
        let max_key = counts.last().map_or(0, |&(k, _)| k);
        let b2j = if max_key < DENSE_KEY_LIMIT {
            let mut starts = vec![0u32; max_key as usize + 2];
            for &(k, c) in &kept {
                starts[k as usize + 1] = c;
            }
            for i in 1..starts.len() {
                starts[i] += starts[i - 1];
            }
            B2j::Dense { starts }
        } else {
            let mut map = HashMap::with_capacity(kept.len());
            let mut total = 0u32;
            for &(k, c) in &kept {
                map.insert(k, (total, total + c));
                total += c;
            }
            B2j::Sparse(map)
        };
        let total: usize = kept.iter().map(|&(_, c)| c as usize).sum();
        let mut positions = vec![0u32; total];
        let mut fill: HashMap<u32, u32> = HashMap::new();
        let mut fill_dense: Vec<u32> = match &b2j {
            B2j::Dense { starts } => starts.clone(),
            B2j::Sparse(_) => Vec::new(),
        };
        for (i, &k) in b.iter().enumerate() {
            let slot = match &b2j {
                B2j::Dense { starts } => {
                    let (s, e) = (starts[k as usize], starts[k as usize + 1]);
                    if s == e {
                        continue;
                    }
                    let at = &mut fill_dense[k as usize];
                    let slot = *at;
                    *at += 1;
                    slot
                }
                B2j::Sparse(map) => {
                    let Some(&(s, _)) = map.get(&k) else {
                        continue;
                    };
                    let at = fill.entry(k).or_insert(s);
                    let slot = *at;
                    *at += 1;
                    slot
                }
            };
            positions[slot as usize] = i as u32;
        }

        IndexedSeq {
            seq: b,
            b2j,
            positions,
            counts,
            junk,
            popular,
        }
    }

    /// The sequence itself.
    pub fn as_slice(&self) -> &[u32] {
        &self.seq
    }

    pub fn len(&self) -> usize {
        self.seq.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }

    /// How many distinct elements `autojunk` took out of the search (Python's `bpopular`).
    pub fn popular_count(&self) -> usize {
        self.popular
    }

    /// `(key, count)` for every distinct element, ascending by key.
    pub fn counts(&self) -> &[(u32, u32)] {
        &self.counts
    }

    /// Python's `b2j[key]`: where `key` occurs in `b`, ascending; empty for junk, popular
    /// and absent keys.
    pub fn occurrences(&self, key: u32) -> &[u32] {
        let range = match &self.b2j {
            B2j::Dense { starts } => {
                let k = key as usize;
                match (starts.get(k), starts.get(k + 1)) {
                    (Some(&s), Some(&e)) => (s, e),
                    _ => return &[],
                }
            }
            B2j::Sparse(map) => match map.get(&key) {
                Some(&r) => r,
                None => return &[],
            },
        };
        self.positions
            .get(range.0 as usize..range.1 as usize)
            .unwrap_or(&[])
    }

    /// Python's `isbjunk`.
    pub fn is_junk(&self, key: u32) -> bool {
        !self.junk.is_empty() && self.junk.binary_search(&key).is_ok()
    }

    /// Heap memory held, in bytes: what a known state costs.
    pub fn heap_bytes(&self) -> usize {
        let b2j = match &self.b2j {
            B2j::Dense { starts } => starts.capacity() * 4,
            B2j::Sparse(map) => map.capacity() * 16,
        };
        self.seq.capacity() * 4
            + b2j
            + self.positions.capacity() * 4
            + self.counts.capacity() * 8
            + self.junk.capacity() * 4
    }
}

/// The `a` side of comparisons plus reusable scratch space: Python's `set_seq1` state
/// (kept as the positions of each element in `a`, so that what `a` and a given `b` have in
/// common is found without scanning `a`), `j2len` as one stamped array, the block queue.
/// Set `a` once ([`Matcher::set_a`]) and compare it with any number of [`IndexedSeq`]s;
/// after warming up, a comparison allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct Matcher {
    a: Vec<u32>,
    /// Where each key occurs in `a`: see [`Matcher::a_occurrences`].
    a_index: AIndex,
    a_positions: Vec<u32>,
    /// `j2len[j] = (stamp of the row that wrote it, length)`; a read is valid only for the
    /// stamp of the row just above the current one. Stamps only grow (until they wrap,
    /// when the array is cleared once), so stale entries never need clearing. Eight bytes
    /// an entry keep the array of a 3,000-tag `b` in L1.
    j2len: Vec<(u32, u32)>,
    stamp: u32,
    /// Positions `i` of `a` whose element occurs in the current `b2j`, ascending: the only
    /// rows of the search that can find anything.
    hits: Vec<u32>,
    /// For each entry of `hits`, the end (exclusive) of the run of consecutive positions
    /// it belongs to.
    run_end: Vec<u32>,
    queue: Vec<(usize, usize, usize, usize)>,
    blocks: Vec<Match>,
    pairs: Vec<(u32, u32)>,
}

/// A stamp no row of the search gets.
const NO_ROW: u32 = u32::MAX;

/// Ranges of `Matcher::a_positions` per key.
#[derive(Debug, Clone)]
enum AIndex {
    /// Key `k` at `positions[starts[k]..starts[k + 1]]`.
    Dense { starts: Vec<u32> },
    /// The `n`th smallest key of `a` at `positions[starts[n]..starts[n + 1]]`.
    Sparse { keys: Vec<u32>, starts: Vec<u32> },
}

impl AIndex {
    /// The range of `key`'s positions; empty if `a` lacks it.
    fn range(&self, key: u32) -> (u32, u32) {
        let (starts, n) = match self {
            AIndex::Dense { starts } => (starts, key as usize),
            AIndex::Sparse { keys, starts } => match keys.binary_search(&key) {
                Ok(n) => (starts, n),
                Err(_) => return (0, 0),
            },
        };
        match (starts.get(n), starts.get(n + 1)) {
            (Some(&s), Some(&e)) => (s, e),
            _ => (0, 0),
        }
    }
}

impl Default for AIndex {
    fn default() -> Self {
        AIndex::Dense { starts: Vec::new() }
    }
}

impl Matcher {
    pub fn new() -> Matcher {
        Matcher::default()
    }

    /// A matcher with `a` set.
    pub fn with_a(a: &[u32]) -> Matcher {
        let mut m = Matcher::new();
        m.set_a(a);
        m
    }

    /// Python's `set_seq1`: the sequence compared with every `b` from now on.
    pub fn set_a(&mut self, a: &[u32]) {
        let a = &a[..a.len().min(MAX_LEN)];
        self.a.clear();
        self.a.extend_from_slice(a);
        self.a_positions.clear();
        self.a_positions.resize(a.len(), 0);
        let max_key = a.iter().copied().max().unwrap_or(0);
        if max_key < DENSE_KEY_LIMIT {
            // Counting sort: counts, running totals as range ends, then filled from the
            // back so that each range ends up ascending and `starts[k]` its start.
            let mut starts = match std::mem::take(&mut self.a_index) {
                AIndex::Dense { starts } => starts,
                AIndex::Sparse { starts, .. } => starts,
            };
            starts.clear();
            starts.resize(max_key as usize + 2, 0);
            for &x in a {
                starts[x as usize] += 1;
            }
            let mut total = 0;
            for s in starts.iter_mut() {
                total += *s;
                *s = total;
            }
            for (i, &x) in a.iter().enumerate().rev() {
                let s = &mut starts[x as usize];
                *s -= 1;
                self.a_positions[*s as usize] = i as u32;
            }
            self.a_index = AIndex::Dense { starts };
        } else {
            self.pairs.clear();
            self.pairs
                .extend(a.iter().enumerate().map(|(i, &x)| (x, i as u32)));
            self.pairs.sort_unstable();
            let mut keys = Vec::new();
            let mut starts = Vec::new();
            for (n, &(x, i)) in self.pairs.iter().enumerate() {
                if keys.last() != Some(&x) {
                    keys.push(x);
                    starts.push(n as u32);
                }
                self.a_positions[n] = i;
            }
            starts.push(a.len() as u32);
            self.a_index = AIndex::Sparse { keys, starts };
        }
    }

    /// The current `a`.
    pub fn a(&self) -> &[u32] {
        &self.a
    }

    /// Where `key` occurs in `a`, ascending.
    pub fn a_occurrences(&self, key: u32) -> &[u32] {
        let (s, e) = self.a_index.range(key);
        self.a_positions.get(s as usize..e as usize).unwrap_or(&[])
    }

    /// Prepares the scratch for comparing `a` with `b`: the rows worth searching.
    fn prepare(&mut self, b: &IndexedSeq) {
        self.hits.clear();
        let searchable = b
            .counts
            .iter()
            .filter(|&&(k, _)| !b.occurrences(k).is_empty());
        let total: usize = searchable
            .clone()
            .map(|&(k, _)| self.a_occurrences(k).len())
            .sum();
        if total.saturating_mul(8) < self.a.len() {
            // Few: gather them by key and sort.
            for &(k, _) in searchable {
                let (s, e) = self.a_index.range(k);
                if let Some(found) = self.a_positions.get(s as usize..e as usize) {
                    self.hits.extend_from_slice(found);
                }
            }
            self.hits.sort_unstable();
        } else {
            for (i, &x) in self.a.iter().enumerate() {
                if !b.occurrences(x).is_empty() {
                    self.hits.push(i as u32);
                }
            }
        }
        self.run_end.clear();
        self.run_end.resize(self.hits.len(), 0);
        let mut end = self.hits.len() as u32;
        for n in (0..self.hits.len()).rev() {
            if self.hits.get(n + 1) != Some(&(self.hits[n] + 1)) {
                end = n as u32 + 1;
            }
            self.run_end[n] = end;
        }
        if self.j2len.len() < b.len() {
            self.j2len.resize(b.len(), (0, 0));
        }
    }

    /// Python's `find_longest_match(alo, ahi, blo, bhi)`: the longest junk-free block
    /// in `a[alo..ahi]` and `b[blo..bhi]` (earliest in `a`, then in `b`, among the longest),
    /// extended by equal non-junk and then equal junk elements on both ends. `(alo, blo, 0)`
    /// when nothing matches. Bounds are clamped to the sequences (Python would raise).
    pub fn find_longest_match(
        &mut self,
        b: &IndexedSeq,
        alo: usize,
        ahi: usize,
        blo: usize,
        bhi: usize,
    ) -> Match {
        self.prepare(b);
        let ahi = ahi.min(self.a.len());
        let bhi = bhi.min(b.len());
        self.longest(b, alo, ahi, blo, bhi)
    }

    /// The search itself, after [`Matcher::prepare`]; bounds already clamped.
    fn longest(&mut self, b: &IndexedSeq, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let a = self.a.as_slice();
        let bs = b.as_slice();
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);
        if alo < ahi && blo < bhi {
            let first = self.hits.partition_point(|&i| (i as usize) < alo);
            let last = self.hits.partition_point(|&i| (i as usize) < ahi);
            let mut prev_i = usize::MAX;
            let mut prev_stamp = NO_ROW;
            let mut n = first;
            while n < last {
                // A run of consecutive rows can only yield blocks as long as the run: if
                // that cannot beat the best so far, skip it whole. (Python scans it and
                // finds nothing longer, and the first of the longest is already found.)
                let run_end = self
                    .run_end
                    .get(n)
                    .map_or(last, |&e| (e as usize).min(last));
                let run = n..run_end.max(n + 1);
                n = run.end;
                if run.len() <= bestsize {
                    continue;
                }
                for &i in self.hits.get(run).unwrap_or(&[]) {
                    let i = i as usize;
                    let Some(&x) = a.get(i) else { continue };
                    let occ = b.occurrences(x);
                    // (The searches are skipped for the whole of b, the first and costliest call.)
                    let lo = if blo == 0 {
                        0
                    } else {
                        occ.partition_point(|&j| (j as usize) < blo)
                    };
                    let hi = if bhi >= b.len() {
                        occ.len()
                    } else {
                        occ.partition_point(|&j| (j as usize) < bhi)
                    };
                    // The previous row is only readable if it was the row just above.
                    let readable = if prev_i.wrapping_add(1) == i {
                        prev_stamp
                    } else {
                        NO_ROW
                    };
                    if self.stamp >= NO_ROW - 1 {
                        self.j2len.fill((0, 0));
                        self.stamp = 0;
                    }
                    self.stamp += 1;
                    let stamp = self.stamp;
                    // Descending j lets one array hold both rows: j reads j - 1, which this
                    // row has not written yet. Python scans ascending and keeps the first
                    // (smallest j) of the longest, so ties go to the smaller j here.
                    let (mut row_k, mut row_j) = (0usize, 0usize);
                    for &j in occ.get(lo..hi).unwrap_or(&[]).iter().rev() {
                        let j = j as usize;
                        let k = match j.checked_sub(1).and_then(|p| self.j2len.get(p)) {
                            Some(&(s, len)) if s == readable => len as usize + 1,
                            _ => 1,
                        };
                        if let Some(slot) = self.j2len.get_mut(j) {
                            *slot = (stamp, k as u32);
                        }
                        if k >= row_k {
                            row_k = k;
                            row_j = j;
                        }
                    }
                    if row_k > bestsize {
                        besti = i + 1 - row_k;
                        bestj = row_j + 1 - row_k;
                        bestsize = row_k;
                    }
                    prev_i = i;
                    prev_stamp = stamp;
                }
            }
        }

        let eq = |i: usize, j: usize| a.get(i).is_some_and(|x| bs.get(j) == Some(x));
        let junk = |j: usize| bs.get(j).is_some_and(|&x| b.is_junk(x));
        // Extend by non-junk on each end, then suck up matching junk.
        for want_junk in [false, true] {
            while besti > alo
                && bestj > blo
                && junk(bestj - 1) == want_junk
                && eq(besti - 1, bestj - 1)
            {
                besti -= 1;
                bestj -= 1;
                bestsize += 1;
            }
            while besti + bestsize < ahi
                && bestj + bestsize < bhi
                && junk(bestj + bestsize) == want_junk
                && eq(besti + bestsize, bestj + bestsize)
            {
                bestsize += 1;
            }
        }
        Match {
            a: besti,
            b: bestj,
            size: bestsize,
        }
    }

    /// Runs Python's queue of `get_matching_blocks`, leaving the blocks (unsorted) in
    /// `self.blocks`. Returns the number of matched elements, or `None` as soon as the
    /// ratio provably stays below `min_ratio` (never, for `min_ratio` <= 0 or NaN).
    fn run(&mut self, b: &IndexedSeq, min_ratio: f64) -> Option<usize> {
        self.prepare(b);
        self.blocks.clear();
        self.queue.clear();
        let (la, lb) = (self.a.len(), b.len());
        let total = la + lb;
        // Every queued region can add at most its shorter side: `matched + cap` bounds
        // the final count from above.
        let mut matched = 0usize;
        let mut cap = la.min(lb);
        self.queue.push((0, la, 0, lb));
        while let Some((alo, ahi, blo, bhi)) = self.queue.pop() {
            cap -= (ahi - alo).min(bhi - blo);
            let m = self.longest(b, alo, ahi, blo, bhi);
            let (i, j, k) = (m.a, m.b, m.size);
            if k > 0 {
                matched += k;
                self.blocks.push(m);
                if alo < i && blo < j {
                    self.queue.push((alo, i, blo, j));
                    cap += (i - alo).min(j - blo);
                }
                if i + k < ahi && j + k < bhi {
                    self.queue.push((i + k, ahi, j + k, bhi));
                    cap += (ahi - i - k).min(bhi - j - k);
                }
            }
            if calculate_ratio(matched + cap, total) < min_ratio {
                return None;
            }
        }
        Some(matched)
    }

    /// Python's `get_matching_blocks()`: non-adjacent matching blocks, ascending, then
    /// the sentinel `(len(a), len(b), 0)`.
    pub fn matching_blocks(&mut self, b: &IndexedSeq) -> Vec<Match> {
        let _ = self.run(b, f64::NEG_INFINITY);
        self.blocks.sort_unstable();
        let mut out = Vec::with_capacity(self.blocks.len() + 1);
        let (mut i1, mut j1, mut k1) = (0, 0, 0);
        for m in &self.blocks {
            if i1 + k1 == m.a && j1 + k1 == m.b {
                k1 += m.size;
            } else {
                if k1 > 0 {
                    out.push(Match {
                        a: i1,
                        b: j1,
                        size: k1,
                    });
                }
                (i1, j1, k1) = (m.a, m.b, m.size);
            }
        }
        if k1 > 0 {
            out.push(Match {
                a: i1,
                b: j1,
                size: k1,
            });
        }
        out.push(Match {
            a: self.a.len(),
            b: b.len(),
            size: 0,
        });
        out
    }

    /// Python's `ratio()`: `2 * M / (len(a) + len(b))` with `M` the elements in matching
    /// blocks; 1.0 when both are empty.
    pub fn ratio(&mut self, b: &IndexedSeq) -> f64 {
        let matched = self.run(b, f64::NEG_INFINITY).unwrap_or(0);
        calculate_ratio(matched, self.a.len() + b.len())
    }

    /// `Some(ratio)` (exactly [`Matcher::ratio`]) if it is at least `min_ratio`, `None`
    /// otherwise — found out early, without finishing the search, when the regions left
    /// cannot make up the difference. This is the threshold test of the state table.
    pub fn ratio_at_least(&mut self, b: &IndexedSeq, min_ratio: f64) -> Option<f64> {
        if self.real_quick_ratio(b) < min_ratio {
            return None;
        }
        let matched = self.run(b, min_ratio)?;
        let r = calculate_ratio(matched, self.a.len() + b.len());
        (r >= min_ratio).then_some(r)
    }

    /// Python's `quick_ratio()`: an upper bound on `ratio` from element counts alone
    /// (the size of the multiset intersection). Costs one step per distinct element of `b`.
    pub fn quick_ratio(&self, b: &IndexedSeq) -> f64 {
        let common: usize = b
            .counts
            .iter()
            .map(|&(k, c)| (self.a_occurrences(k).len()).min(c as usize))
            .sum();
        calculate_ratio(common, self.a.len() + b.len())
    }

    /// Python's `real_quick_ratio()`: see [`real_quick_ratio`].
    pub fn real_quick_ratio(&self, b: &IndexedSeq) -> f64 {
        real_quick_ratio(self.a.len(), b.len())
    }
}

/// Python's `SequenceMatcher(isjunk, a, b, autojunk)` over any `Eq + Hash` elements
/// (`Clone` because `b`'s distinct elements are kept as keys; `Copy` ids and `&str` are
/// cheapest), for when there is one pair to compare. The elements are mapped to dense
/// keys (`b`'s distinct elements in order of first appearance; elements of `a` that `b`
/// lacks share one extra key, which never equals anything in `b`), then compared with
/// [`IndexedSeq`] and [`Matcher`]. For many comparisons against the same `b`, use those
/// directly with interned ids.
#[derive(Debug, Clone)]
pub struct SequenceMatcher<T> {
    keys: HashMap<T, u32>,
    b: IndexedSeq,
    matcher: Matcher,
}

impl<T: Clone + Eq + Hash> SequenceMatcher<T> {
    /// `SequenceMatcher(None, a, b)`.
    pub fn new(a: &[T], b: &[T]) -> SequenceMatcher<T> {
        SequenceMatcher::with_options(a, b, |_| false, true)
    }

    /// `SequenceMatcher(isjunk, a, b, autojunk)`.
    pub fn with_options(
        a: &[T],
        b: &[T],
        is_junk: impl Fn(&T) -> bool,
        autojunk: bool,
    ) -> SequenceMatcher<T> {
        let mut keys: HashMap<T, u32> = HashMap::new();
        let mut elements: Vec<T> = Vec::new();
        let b_keys: Vec<u32> = b
            .iter()
            .take(MAX_LEN)
            .map(|x| {
                if let Some(&k) = keys.get(x) {
                    return k;
                }
                let k = elements.len() as u32;
                keys.insert(x.clone(), k);
                elements.push(x.clone());
                k
            })
            .collect();
        let junk = |k: u32| elements.get(k as usize).is_some_and(&is_junk);
        let b = IndexedSeq::with_options(b_keys, junk, autojunk);
        let mut sm = SequenceMatcher {
            keys,
            b,
            matcher: Matcher::new(),
        };
        sm.set_seq1(a);
        sm
    }

    /// Python's `set_seq1`: compare another `a` with the same `b`.
    pub fn set_seq1(&mut self, a: &[T]) {
        let absent = self.keys.len() as u32;
        let keys: Vec<u32> = a
            .iter()
            .take(MAX_LEN)
            .map(|x| self.keys.get(x).copied().unwrap_or(absent))
            .collect();
        self.matcher.set_a(&keys);
    }

    /// See [`Matcher::find_longest_match`].
    pub fn find_longest_match(&mut self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        self.matcher.find_longest_match(&self.b, alo, ahi, blo, bhi)
    }

    /// See [`Matcher::matching_blocks`].
    pub fn get_matching_blocks(&mut self) -> Vec<Match> {
        self.matcher.matching_blocks(&self.b)
    }

    /// See [`Matcher::ratio`].
    pub fn ratio(&mut self) -> f64 {
        self.matcher.ratio(&self.b)
    }

    /// See [`Matcher::quick_ratio`].
    pub fn quick_ratio(&self) -> f64 {
        self.matcher.quick_ratio(&self.b)
    }

    /// See [`real_quick_ratio`].
    pub fn real_quick_ratio(&self) -> f64 {
        self.matcher.real_quick_ratio(&self.b)
    }
}
