//! The difflib port against what CPython 3.11 answers (embedded by
//! `tests/difflib/reference.py`, never run by the tests), plus properties on seeded random
//! sequences checked against a line-by-line transliteration of the Python code.

use std::collections::{HashMap, HashSet};

use curio_page::similarity::{calculate_ratio, real_quick_ratio};
use curio_page::{IndexedSeq, Match, Matcher, SequenceMatcher};

#[path = "difflib/expected.rs"]
mod expected;

/// How a test sequence is made; mirrors `reference.py`.
pub enum Gen {
    Lit(&'static [u32]),
    Uniform {
        seed: u64,
        len: usize,
        alphabet: u64,
    },
    Skewed {
        seed: u64,
        len: usize,
        alphabet: u64,
    },
    Mutate {
        seed: u64,
        base: &'static Gen,
        per_mille: u64,
        alphabet: u64,
    },
}

/// `find_longest_match(alo, ahi, blo, bhi)` and Python's answer.
pub struct Lmatch {
    pub alo: usize,
    pub ahi: usize,
    pub blo: usize,
    pub bhi: usize,
    pub found: (usize, usize, usize),
}

pub struct Case {
    pub name: &'static str,
    pub a: Gen,
    pub b: Gen,
    /// Length and checksum of the generated sequence, to catch generator drift.
    pub a_check: (usize, u64),
    pub b_check: (usize, u64),
    pub junk: Option<&'static [u32]>,
    pub autojunk: bool,
    pub ratio: f64,
    pub quick_ratio: f64,
    pub real_quick_ratio: f64,
    pub blocks: &'static [(usize, usize, usize)],
    pub longest: (usize, usize, usize),
    pub window: Lmatch,
}

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn build(g: &Gen) -> Vec<u32> {
    match *g {
        Gen::Lit(items) => items.to_vec(),
        Gen::Uniform {
            seed,
            len,
            alphabet,
        } => {
            let mut rng = SplitMix64(seed);
            (0..len).map(|_| rng.below(alphabet) as u32).collect()
        }
        Gen::Skewed {
            seed,
            len,
            alphabet,
        } => {
            let mut rng = SplitMix64(seed);
            (0..len)
                .map(|_| {
                    let mut e = rng.below(alphabet);
                    if rng.below(4) != 0 {
                        e %= 4;
                    }
                    e as u32
                })
                .collect()
        }
        Gen::Mutate {
            seed,
            base,
            per_mille,
            alphabet,
        } => mutate(&mut SplitMix64(seed), &build(base), per_mille, alphabet),
    }
}

fn mutate(rng: &mut SplitMix64, base: &[u32], per_mille: u64, alphabet: u64) -> Vec<u32> {
    let mut out = Vec::new();
    for &e in base {
        if rng.below(1000) < per_mille {
            match rng.below(3) {
                0 => continue,
                1 => {
                    out.push(rng.below(alphabet) as u32);
                    continue;
                }
                _ => out.push(rng.below(alphabet) as u32),
            }
        }
        out.push(e);
    }
    out
}

fn checksum(seq: &[u32]) -> u64 {
    seq.iter().fold(0u64, |h, &x| {
        h.wrapping_mul(31).wrapping_add(u64::from(x) + 1)
    })
}

fn triples(blocks: &[Match]) -> Vec<(usize, usize, usize)> {
    blocks.iter().map(|m| (m.a, m.b, m.size)).collect()
}

fn triple(m: Match) -> (usize, usize, usize) {
    (m.a, m.b, m.size)
}

#[test]
fn matches_cpython_on_every_embedded_case() {
    // One Matcher for every case: stale scratch from earlier comparisons must not leak.
    let mut matcher = Matcher::new();
    for case in expected::CASES {
        let name = case.name;
        let a = build(&case.a);
        let b = build(&case.b);
        assert_eq!((a.len(), checksum(&a)), case.a_check, "{name}: a generated");
        assert_eq!((b.len(), checksum(&b)), case.b_check, "{name}: b generated");
        let junk: HashSet<u32> = case.junk.unwrap_or(&[]).iter().copied().collect();

        // The generic API.
        let mut sm = SequenceMatcher::with_options(&a, &b, |x| junk.contains(x), case.autojunk);
        assert_eq!(sm.ratio(), case.ratio, "{name}: ratio");
        assert_eq!(sm.quick_ratio(), case.quick_ratio, "{name}: quick_ratio");
        assert_eq!(sm.real_quick_ratio(), case.real_quick_ratio, "{name}");
        assert_eq!(triples(&sm.get_matching_blocks()), case.blocks, "{name}");
        assert_eq!(
            triple(sm.find_longest_match(0, a.len(), 0, b.len())),
            case.longest,
            "{name}: longest"
        );
        let w = &case.window;
        assert_eq!(
            triple(sm.find_longest_match(w.alo, w.ahi, w.blo, w.bhi)),
            w.found,
            "{name}: window"
        );

        // The indexed API, with the elements themselves as keys.
        let indexed = IndexedSeq::with_options(b.clone(), |x| junk.contains(&x), case.autojunk);
        matcher.set_a(&a);
        assert_eq!(matcher.a(), a);
        assert_eq!(matcher.ratio(&indexed), case.ratio, "{name}: indexed");
        assert_eq!(matcher.quick_ratio(&indexed), case.quick_ratio, "{name}");
        assert_eq!(triples(&matcher.matching_blocks(&indexed)), case.blocks);
        assert_eq!(
            triple(matcher.find_longest_match(&indexed, w.alo, w.ahi, w.blo, w.bhi)),
            w.found,
            "{name}: indexed window"
        );

        // Keys too large for the dense table take the sparse path, same answers.
        let far = |x: u32| x.wrapping_mul(7919).wrapping_add(1 << 24);
        let a_far: Vec<u32> = a.iter().map(|&x| far(x)).collect();
        let b_far: Vec<u32> = b.iter().map(|&x| far(x)).collect();
        let sparse =
            IndexedSeq::with_options(b_far, |x| junk.iter().any(|&j| far(j) == x), case.autojunk);
        let mut far_matcher = Matcher::with_a(&a_far);
        assert_eq!(far_matcher.ratio(&sparse), case.ratio, "{name}: sparse");
        assert_eq!(far_matcher.quick_ratio(&sparse), case.quick_ratio);
        assert_eq!(triples(&far_matcher.matching_blocks(&sparse)), case.blocks);
        // Sparse `a` against a dense `b` and the other way round.
        let nothing_common = if a.is_empty() && b.is_empty() {
            1.0
        } else {
            0.0
        };
        assert_eq!(far_matcher.ratio(&indexed), nothing_common, "{name}: cross");
        matcher.set_a(&a);

        // A threshold test answers the exact ratio or nothing.
        for t in [0.0, case.ratio, case.ratio + 1e-9, 0.8, 1.0, f64::NAN] {
            let expect = (case.ratio >= t).then_some(case.ratio);
            assert_eq!(
                matcher.ratio_at_least(&indexed, t),
                expect,
                "{name}: at {t}"
            );
        }
    }
}

#[test]
fn empty_sequences_follow_python() {
    let none: [u32; 0] = [];
    let mut sm = SequenceMatcher::new(&none, &none);
    assert_eq!(sm.ratio(), 1.0);
    assert_eq!(sm.quick_ratio(), 1.0);
    assert_eq!(sm.real_quick_ratio(), 1.0);
    assert_eq!(triples(&sm.get_matching_blocks()), [(0, 0, 0)]);
    let mut sm = SequenceMatcher::new(&none, &[1u32, 2]);
    assert_eq!(sm.ratio(), 0.0);
    assert_eq!(calculate_ratio(0, 0), 1.0);
    assert_eq!(real_quick_ratio(0, 0), 1.0);
}

#[test]
fn out_of_range_bounds_are_clamped_not_a_panic() {
    let b = IndexedSeq::new(vec![1, 2, 3]);
    let mut m = Matcher::with_a(&[1, 2, 3]);
    assert_eq!(triple(m.find_longest_match(&b, 0, 99, 0, 99)), (0, 0, 3));
    assert_eq!(triple(m.find_longest_match(&b, 5, 2, 7, 1)), (5, 7, 0));
    assert_eq!(triple(m.find_longest_match(&b, 2, 2, 0, 3)), (2, 0, 0));
    assert_eq!(
        IndexedSeq::new(vec![u32::MAX, 0, u32::MAX]).occurrences(u32::MAX),
        [0, 2]
    );
}

/// CPython's `SequenceMatcher`, transliterated with the same dictionaries, as the oracle
/// for random inputs.
struct Naive<'s> {
    a: &'s [u32],
    b: &'s [u32],
    b2j: HashMap<u32, Vec<usize>>,
}

impl<'s> Naive<'s> {
    fn new(a: &'s [u32], b: &'s [u32]) -> Self {
        let mut b2j: HashMap<u32, Vec<usize>> = HashMap::new();
        for (i, &x) in b.iter().enumerate() {
            b2j.entry(x).or_default().push(i);
        }
        let n = b.len();
        if n >= 200 {
            let ntest = n / 100 + 1;
            b2j.retain(|_, idxs| idxs.len() <= ntest);
        }
        Naive { a, b, b2j }
    }

    // Index loops, to read like the Python it transliterates.
    #[allow(clippy::needless_range_loop)]
    fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let (a, b) = (self.a, self.b);
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        let mut j2len: HashMap<usize, usize> = HashMap::new();
        for i in alo..ahi {
            let mut newj2len = HashMap::new();
            for &j in self.b2j.get(&a[i]).map_or(&[][..], Vec::as_slice) {
                if j < blo {
                    continue;
                }
                if j >= bhi {
                    break;
                }
                let k = j
                    .checked_sub(1)
                    .and_then(|p| j2len.get(&p))
                    .copied()
                    .unwrap_or(0)
                    + 1;
                newj2len.insert(j, k);
                if k > bestsize {
                    (besti, bestj, bestsize) = (i + 1 - k, j + 1 - k, k);
                }
            }
            j2len = newj2len;
        }
        while besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1] {
            (besti, bestj, bestsize) = (besti - 1, bestj - 1, bestsize + 1);
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        Match {
            a: besti,
            b: bestj,
            size: bestsize,
        }
    }

    fn matching_blocks(&self) -> Vec<Match> {
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        let mut blocks = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let m = self.find_longest_match(alo, ahi, blo, bhi);
            let (i, j, k) = (m.a, m.b, m.size);
            if k > 0 {
                blocks.push(m);
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        blocks.sort();
        let mut out = Vec::new();
        let (mut i1, mut j1, mut k1) = (0, 0, 0);
        for m in blocks {
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
            b: self.b.len(),
            size: 0,
        });
        out
    }
}

/// A random pair: tag-like (skewed) or uniform, short or long (autojunk), the second
/// often a mutation of the first.
fn random_pair(rng: &mut SplitMix64) -> (Vec<u32>, Vec<u32>) {
    let len = match rng.below(4) {
        0 => rng.below(20) as usize,
        1 => 20 + rng.below(180) as usize,
        _ => 180 + rng.below(400) as usize,
    };
    let alphabet = 2 + rng.below(60);
    let skewed = rng.below(2) == 0;
    let a: Vec<u32> = (0..len)
        .map(|_| {
            let mut e = rng.below(alphabet);
            if skewed && rng.below(4) != 0 {
                e %= 4;
            }
            e as u32
        })
        .collect();
    let b = match rng.below(3) {
        0 => {
            let n = rng.below(600) as usize;
            (0..n).map(|_| rng.below(alphabet) as u32).collect()
        }
        _ => {
            let rate = rng.below(400);
            mutate(rng, &a, rate, alphabet)
        }
    };
    if rng.below(2) == 0 { (a, b) } else { (b, a) }
}

#[test]
fn random_pairs_agree_with_the_transliteration_and_keep_the_bounds_ordered() {
    let mut rng = SplitMix64(0x5eed);
    let mut matcher = Matcher::new();
    for round in 0..400 {
        let (a, b) = random_pair(&mut rng);
        let indexed = IndexedSeq::new(b.clone());
        let naive = Naive::new(&a, &b);
        matcher.set_a(&a);
        let blocks = matcher.matching_blocks(&indexed);
        assert_eq!(blocks, naive.matching_blocks(), "round {round}");
        let matched: usize = blocks.iter().map(|m| m.size).sum();
        let ratio = matcher.ratio(&indexed);
        assert_eq!(ratio, calculate_ratio(matched, a.len() + b.len()));
        let quick = matcher.quick_ratio(&indexed);
        let real_quick = real_quick_ratio(a.len(), b.len());
        assert!(
            real_quick >= quick && quick >= ratio,
            "round {round}: {real_quick} {quick} {ratio}"
        );
        assert!((0.0..=1.0).contains(&ratio));

        // Blocks are real, increasing and not adjacent.
        let mut last_end = (0, 0);
        for (n, m) in blocks.iter().enumerate() {
            assert_eq!(a.get(m.a..m.a + m.size), b.get(m.b..m.b + m.size));
            assert!(m.a >= last_end.0 && m.b >= last_end.1);
            if n > 0 && n + 1 < blocks.len() {
                assert!(m.a != last_end.0 || m.b != last_end.1, "adjacent blocks");
            }
            last_end = (m.a + m.size, m.b + m.size);
        }

        let (alo, ahi) = (a.len() / 3, a.len());
        let (blo, bhi) = (b.len() / 5, b.len() * 4 / 5);
        assert_eq!(
            matcher.find_longest_match(&indexed, alo, ahi, blo, bhi),
            naive.find_longest_match(alo, ahi, blo, bhi)
        );
        for t in [0.3, 0.5, 0.8, ratio] {
            assert_eq!(
                matcher.ratio_at_least(&indexed, t),
                (ratio >= t).then_some(ratio)
            );
        }

        let itself = IndexedSeq::new(a.clone());
        assert_eq!(matcher.ratio(&itself), 1.0, "round {round}: identical");
    }
}

#[test]
fn indexed_seq_exposes_python_s_b_side() {
    // 200 elements: autojunk applies, ntest = 3; 7 occurs 4 times (popular), 8 three times.
    let mut b: Vec<u32> = vec![7, 7, 7, 7, 8, 8, 8, 9];
    b.extend(100..292);
    let seq = IndexedSeq::with_options(b.clone(), |x| x == 9, true);
    assert_eq!(seq.len(), 200);
    assert_eq!(seq.as_slice(), b);
    assert_eq!(seq.popular_count(), 1);
    assert!(seq.occurrences(7).is_empty(), "popular");
    assert_eq!(seq.occurrences(8), [4, 5, 6]);
    assert!(seq.occurrences(9).is_empty(), "junk");
    assert!(seq.is_junk(9) && !seq.is_junk(7));
    assert_eq!(seq.counts()[..3], [(7, 4), (8, 3), (9, 1)]);
    assert!(seq.heap_bytes() >= 200 * 4);
    // One element fewer: no autojunk, 7 is searchable again.
    let short = IndexedSeq::new(b[..199].to_vec());
    assert_eq!(short.occurrences(7), [0, 1, 2, 3]);
    assert!(!short.is_empty() && IndexedSeq::new(Vec::new()).is_empty());
}
