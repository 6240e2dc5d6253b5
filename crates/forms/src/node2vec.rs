//! node2vec (Grover and Leskovec, 2016): structural embeddings of a graph's nodes, here
//! of a form's DOM tree for the form entity relation graph ([`crate::Ferg`]).
//!
//! Biased second-order random walks (return parameter `p`, in-out parameter `q`) turn
//! the graph into "sentences" of nodes; skip-gram with negative sampling, trained by
//! plain SGD as in word2vec, then places nodes that occur near each other in walks close
//! together. In a DOM tree, a label and the input beside it (siblings) share most of their
//! walks' neighbourhoods and end up close; a field three containers away does not.
//!
//! Everything is seeded ([`ChaCha8Rng`]) and single-threaded, so the same graph, config
//! and seed give bit-identical embeddings.

use rand::{Rng, RngCore, SeedableRng, seq::SliceRandom};
use rand_chacha::ChaCha8Rng;

/// The settings of [`node2vec`].
///
/// The FormNexus authors used 1024 dimensions, 200 walks of length 30 per node and a
/// window of 10, with a Python implementation taking seconds per form. Curio builds a
/// graph per form and per submission inside the exploration loop, so a 300-node form DOM
/// must embed in well under 100 ms in release; the [`Default`] settings take about 30 ms
/// there (2-core machine) and a few ms for a typical form. What the graph needs from the
/// embedding is which nodes are near which, in a tree of tens to hundreds of nodes, far
/// smaller than the graphs node2vec was designed for: 32 dimensions are plenty to tell
/// its branches apart, and 10 walks of 20 steps per node visit every short path around a
/// node many times. The choices were measured on a multi-city form (fields of the same leg
/// against fields of the next leg: mean cosine 0.88 against 0.09, the same order for every
/// seed) and on forms of 20 and 60 identical rows (the spread of cosines between
/// equivalent fields, pure noise: standard deviation 0.05 to 0.11). Doubling dimensions,
/// walks, negatives or epochs costs 1.3 to 2 times the time without a better ordering;
/// more negatives and epochs even blur the leg-against-leg contrast.
#[derive(Debug, Clone, PartialEq)]
pub struct Node2VecConfig {
    /// Length of each embedding vector. Default 32 (authors: 1024).
    pub dimensions: usize,
    /// Nodes per walk, the start included. Default 20 (authors: 30): in a form DOM tree
    /// of depth about 10 this still reaches well past a node's row and section.
    pub walk_length: usize,
    /// Walks started from every node. Default 10 (authors: 200).
    pub walks_per_node: usize,
    /// Largest skip-gram context window on each side; as in word2vec, each position
    /// draws its window from 1 to this, so nearer nodes weigh more. Default 5 (authors:
    /// 10): five steps cover a field, its row, the container and the neighbour rows.
    pub window: usize,
    /// Return parameter: weight `1/p` for stepping straight back. Default 1.
    pub p: f64,
    /// In-out parameter: weight `1/q` for stepping away from the previous node
    /// (`q > 1` keeps walks local, BFS-like; `q < 1` sends them outward). Default 1.
    pub q: f64,
    /// Negative samples per positive pair, drawn from the walk frequency^0.75 as in
    /// word2vec. Default 2 (word2vec: 5): in a graph of a few hundred nodes most draws
    /// would otherwise hit nodes near the centre, blurring what "near" means.
    pub negatives: usize,
    /// Walk positions in all, at least: a graph too small for `walks_per_node` to give
    /// this many gets more walks per node (up to [`MAX_WALKS_PER_NODE`]), since SGD over a
    /// few thousand positions leaves mostly its random start (on a 17-node form, the
    /// cosines of structurally equivalent fields spread with a standard deviation of 0.2
    /// at 3 400 positions, 0.05 at 6 800). Default 10 000, a few ms.
    pub min_positions: usize,
    /// Passes of SGD over all walks. Default 1: with the other defaults, a second pass
    /// doubles the time and barely changes the result.
    pub epochs: usize,
    /// Starting SGD step size, decaying linearly to 1/10 000 of it (word2vec's 0.025).
    pub learning_rate: f32,
}

impl Default for Node2VecConfig {
    fn default() -> Self {
        Node2VecConfig {
            dimensions: 32,
            walk_length: 20,
            walks_per_node: 10,
            window: 5,
            p: 1.0,
            q: 1.0,
            negatives: 2,
            min_positions: 10_000,
            epochs: 1,
            learning_rate: 0.025,
        }
    }
}

/// Beyond this, the sigmoid is taken as 0 or 1 (word2vec's `MAX_EXP`).
const MAX_LOGIT: f32 = 6.0;
/// word2vec's unigram distribution power for negative sampling.
const NEGATIVE_POWER: f64 = 0.75;
/// The step size never falls below this share of the starting one.
const MIN_LEARNING_SHARE: f32 = 1e-4;
/// Most walks per node [`Node2VecConfig::min_positions`] may ask for.
pub const MAX_WALKS_PER_NODE: usize = 100;
/// Slots per node of the negative-sampling table: enough that rounding leaves even the
/// rarest node of a small graph its share.
const TABLE_PER_NODE: usize = 64;

/// The undirected adjacency of a forest given by parent pointers (`parents[i]` the parent
/// of node `i`), each list sorted.
pub fn tree_adjacency(parents: &[Option<usize>]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); parents.len()];
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = p.filter(|&p| p < parents.len() && p != i) {
            adj[i].push(p);
            adj[p].push(i);
        }
    }
    for list in &mut adj {
        list.sort_unstable();
        list.dedup();
    }
    adj
}

/// One L2-normalised embedding per node of the undirected graph `adjacency` (neighbour
/// lists; out-of-range entries are ignored). Isolated nodes get a random unit vector of
/// their own, unrelated to the others.
pub fn node2vec(adjacency: &[Vec<usize>], config: &Node2VecConfig, seed: u64) -> Vec<Vec<f32>> {
    let n = adjacency.len();
    let dim = config.dimensions.max(1);
    if n == 0 {
        return Vec::new();
    }
    let adj: Vec<Vec<usize>> = adjacency
        .iter()
        .map(|l| {
            let mut l: Vec<usize> = l.iter().copied().filter(|&x| x < n).collect();
            l.sort_unstable();
            l.dedup();
            l
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let walks = walks(&adj, config, &mut rng);

    let mut input: Vec<f32> = (0..n * dim)
        .map(|_| (rng.random::<f32>() - 0.5) / dim as f32)
        .collect();
    let mut output = vec![0.0f32; n * dim];

    let mut counts = vec![0.0f64; n];
    for w in &walks {
        for &v in w {
            counts[v] += 1.0;
        }
    }
    let table = unigram_table(&counts);

    let positions: usize = walks.iter().map(Vec::len).sum();
    let steps = (positions * config.epochs).max(1);
    let mut done = 0usize;
    let mut grad = vec![0.0f32; dim];
    let window = config.window.max(1);
    for _ in 0..config.epochs {
        for walk in &walks {
            for (i, &center) in walk.iter().enumerate() {
                let share = 1.0 - done as f32 / steps as f32;
                let alpha = config.learning_rate * share.max(MIN_LEARNING_SHARE);
                done += 1;
                let reach = rng.random_range(1..=window);
                let lo = i.saturating_sub(reach);
                let hi = (i + reach).min(walk.len() - 1);
                for (j, &context) in walk.iter().enumerate().take(hi + 1).skip(lo) {
                    if j == i {
                        continue;
                    }
                    grad.fill(0.0);
                    for k in 0..=config.negatives {
                        let (target, label) = if k == 0 {
                            (context, 1.0)
                        } else {
                            let t = table[rng.next_u32() as usize % table.len()];
                            if t == context {
                                continue;
                            }
                            (t, 0.0)
                        };
                        let w = &input[center * dim..(center + 1) * dim];
                        let c = &mut output[target * dim..(target + 1) * dim];
                        let f = dot(w, c);
                        let predicted = if f > MAX_LOGIT {
                            1.0
                        } else if f < -MAX_LOGIT {
                            0.0
                        } else {
                            1.0 / (1.0 + (-f).exp())
                        };
                        let g = (label - predicted) * alpha;
                        for ((gr, cv), wv) in grad.iter_mut().zip(c.iter_mut()).zip(w) {
                            *gr += g * *cv;
                            *cv += g * wv;
                        }
                    }
                    for (wv, gr) in input[center * dim..(center + 1) * dim]
                        .iter_mut()
                        .zip(&grad)
                    {
                        *wv += gr;
                    }
                }
            }
        }
    }

    input
        .chunks_exact(dim)
        .map(|v| {
            let mut v = v.to_vec();
            crate::embed::normalize(&mut v);
            v
        })
        .collect()
}

/// Nodes repeated in proportion to their walk frequency^0.75, [`TABLE_PER_NODE`] slots
/// per node on average, so drawing a negative sample is one lookup (word2vec's table).
fn unigram_table(counts: &[f64]) -> Vec<usize> {
    let weights: Vec<f64> = counts.iter().map(|c| c.powf(NEGATIVE_POWER)).collect();
    let total: f64 = weights.iter().sum();
    let size = counts.len() * TABLE_PER_NODE;
    if total <= 0.0 {
        return (0..counts.len()).collect();
    }
    let mut table = Vec::with_capacity(size);
    let mut cumulative = 0.0;
    for (node, w) in weights.iter().enumerate() {
        cumulative += w;
        let until = ((cumulative / total) * size as f64).round() as usize;
        while table.len() < until.min(size) {
            table.push(node);
        }
    }
    if table.is_empty() {
        table.push(0);
    }
    table
}

/// The dot product, with eight partial sums so that it vectorises (a single running sum
/// of floats cannot be reordered by the compiler); the order is fixed, so the result is
/// the same on every run.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// `walks_per_node` rounds; each starts a walk from every node, in a shuffled order.
fn walks(adj: &[Vec<usize>], config: &Node2VecConfig, rng: &mut ChaCha8Rng) -> Vec<Vec<usize>> {
    let n = adj.len();
    let uniform = config.p == 1.0 && config.q == 1.0;
    let (inv_p, inv_q) = (1.0 / config.p.max(1e-9), 1.0 / config.q.max(1e-9));
    let mut order: Vec<usize> = (0..n).collect();
    let per_walk = n * config.walk_length.max(1);
    let rounds = config.walks_per_node.max(
        config
            .min_positions
            .div_ceil(per_walk)
            .min(MAX_WALKS_PER_NODE),
    );
    let mut out = Vec::with_capacity(n * rounds);
    let mut weights: Vec<f64> = Vec::new();
    for _ in 0..rounds {
        order.shuffle(rng);
        for &start in &order {
            let mut walk = Vec::with_capacity(config.walk_length);
            walk.push(start);
            while walk.len() < config.walk_length {
                let cur = walk[walk.len() - 1];
                let next_of = &adj[cur];
                if next_of.is_empty() {
                    break;
                }
                let next = match walk.len().checked_sub(2).map(|i| walk[i]) {
                    Some(prev) if !uniform => {
                        weights.clear();
                        weights.extend(next_of.iter().map(|&x| {
                            if x == prev {
                                inv_p
                            } else if adj[prev].binary_search(&x).is_ok() {
                                1.0
                            } else {
                                inv_q
                            }
                        }));
                        let total: f64 = weights.iter().sum();
                        let mut r = rng.random::<f64>() * total;
                        let mut chosen = next_of[next_of.len() - 1];
                        for (&x, &w) in next_of.iter().zip(&weights) {
                            if r < w {
                                chosen = x;
                                break;
                            }
                            r -= w;
                        }
                        chosen
                    }
                    _ => next_of[rng.random_range(0..next_of.len())],
                };
                walk.push(next);
            }
            out.push(walk);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::cosine;

    /// A form-like tree: root -> 3 rows -> (label, input) each, plus a deep branch.
    ///
    /// ```text
    /// 0 form
    /// ├─ 1 row ── 2 label, 3 input
    /// ├─ 4 row ── 5 label, 6 input
    /// ├─ 7 row ── 8 label, 9 input
    /// └─ 10 div ─ 11 div ─ 12 div ─ 13 p
    /// ```
    fn toy() -> Vec<Vec<usize>> {
        let parents = [
            None,
            Some(0),
            Some(1),
            Some(1),
            Some(0),
            Some(4),
            Some(4),
            Some(0),
            Some(7),
            Some(7),
            Some(0),
            Some(10),
            Some(11),
            Some(12),
        ];
        tree_adjacency(&parents)
    }

    #[test]
    fn deterministic_for_a_seed_and_different_across_seeds() {
        let cfg = Node2VecConfig::default();
        let a = node2vec(&toy(), &cfg, 7);
        let b = node2vec(&toy(), &cfg, 7);
        let c = node2vec(&toy(), &cfg, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.len(), 14);
        for v in &a {
            assert_eq!(v.len(), cfg.dimensions);
            let norm: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-4);
        }
    }

    #[test]
    fn siblings_are_closer_than_distant_nodes() {
        for seed in 0..5 {
            for cfg in [
                Node2VecConfig::default(),
                Node2VecConfig {
                    p: 0.5,
                    q: 2.0,
                    ..Node2VecConfig::default()
                },
            ] {
                let e = node2vec(&toy(), &cfg, seed);
                let sim = |a: usize, b: usize| cosine(&e[a], &e[b]);
                for (label, input) in [(2, 3), (5, 6), (8, 9)] {
                    for other in [2, 3, 5, 6, 8, 9, 13] {
                        if other == label || other == input {
                            continue;
                        }
                        assert!(
                            sim(label, input) > sim(label, other),
                            "seed {seed} {cfg:?}: {label}-{input} {} vs {label}-{other} {}",
                            sim(label, input),
                            sim(label, other)
                        );
                    }
                }
                assert!(sim(12, 13) > sim(13, 3), "seed {seed}");
            }
        }
    }

    #[test]
    fn degenerate_graphs() {
        let cfg = Node2VecConfig::default();
        assert!(node2vec(&[], &cfg, 1).is_empty());
        let lone = node2vec(&[vec![], vec![5]], &cfg, 1);
        assert_eq!(lone.len(), 2);
        assert!(lone.iter().all(|v| v.len() == cfg.dimensions));
        assert_eq!(
            tree_adjacency(&[Some(0), Some(9)]),
            vec![Vec::<usize>::new(); 2]
        );
    }
}
