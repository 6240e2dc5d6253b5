//! Block-level JavaScript coverage from the Profiler's precise coverage, accumulated
//! over a run.
//!
//! With detailed (block) coverage each function reports its whole range first and then
//! the nested blocks whose count differs. A block is identified by its script URL and
//! byte range; it counts as covered once any report gave it a non-zero count. Counters
//! reset on every take, so the union over takes is what the run covered.

use std::collections::{BTreeMap, HashMap};

use curio_record::{Coverage, ScriptCoverage};
use serde_json::Value;

use crate::scope::Scope;

#[derive(Debug, Clone, Default)]
pub struct CoverageMap {
    scripts: BTreeMap<String, HashMap<(u64, u64), bool>>,
}

impl CoverageMap {
    /// Folds in one `Profiler.takePreciseCoverage` answer.
    pub(crate) fn absorb(&mut self, answer: &Value) {
        let Some(scripts) = answer.get("result").and_then(Value::as_array) else {
            return;
        };
        for script in scripts {
            let url = script
                .get("url")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if url.is_empty() {
                continue; // eval'd code and our own probes
            }
            let blocks = self.scripts.entry(url.to_string()).or_default();
            let functions = script.get("functions").and_then(Value::as_array);
            for f in functions.into_iter().flatten() {
                let ranges = f.get("ranges").and_then(Value::as_array);
                for r in ranges.into_iter().flatten() {
                    let start = r.get("startOffset").and_then(Value::as_u64).unwrap_or(0);
                    let end = r.get("endOffset").and_then(Value::as_u64).unwrap_or(0);
                    let hit = r.get("count").and_then(Value::as_u64).unwrap_or(0) > 0;
                    *blocks.entry((start, end)).or_insert(false) |= hit;
                }
            }
        }
    }

    /// Folds in what another tab covered, so a run that opens a fresh tab (and browser
    /// context) per episode still reports the union over the whole run.
    pub fn merge(&mut self, other: &CoverageMap) {
        for (url, blocks) in &other.scripts {
            let mine = self.scripts.entry(url.clone()).or_default();
            for (range, hit) in blocks {
                *mine.entry(*range).or_insert(false) |= *hit;
            }
        }
    }

    /// Coverage of the scripts in scope, as recorded.
    pub fn summary(&self, scope: &Scope) -> Coverage {
        Coverage {
            scripts: self
                .scripts
                .iter()
                .filter(|(url, _)| scope.contains(url))
                .map(|(url, blocks)| {
                    let (covered_bytes, total_bytes) = bytes(blocks);
                    ScriptCoverage {
                        url: url.clone(),
                        covered_blocks: blocks.values().filter(|c| **c).count() as u32,
                        total_blocks: blocks.len() as u32,
                        covered_bytes,
                        total_bytes,
                    }
                })
                .collect(),
        }
    }
}

/// Bytes of a script that ran, and bytes that blocks span, as (covered, total). Blocks
/// nest (a function, its branches, their branches), and each byte counts as the innermost
/// block that holds it says; a sweep over the blocks in order of start keeps the open
/// ones on a stack.
fn bytes(blocks: &HashMap<(u64, u64), bool>) -> (u64, u64) {
    let mut ranges: Vec<(u64, u64, bool)> = blocks.iter().map(|(&(s, e), &h)| (s, e, h)).collect();
    ranges.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let (mut covered, mut total, mut pos) = (0, 0, 0);
    let mut open: Vec<(u64, bool)> = Vec::new();
    let mut paint = |from: u64, to: u64, hit: bool| {
        let len = to.saturating_sub(from);
        total += len;
        if hit {
            covered += len;
        }
    };
    for (start, end, hit) in ranges {
        while let Some(&(top_end, top_hit)) = open.last()
            && top_end <= start
        {
            paint(pos, top_end, top_hit);
            pos = pos.max(top_end);
            open.pop();
        }
        if let Some(&(_, top_hit)) = open.last() {
            paint(pos, start, top_hit);
        }
        pos = pos.max(start);
        // Blocks from different takes may overlap without nesting; the outer one bounds.
        let end = open.last().map_or(end, |&(top_end, _)| end.min(top_end));
        open.push((end, hit));
    }
    while let Some((top_end, top_hit)) = open.pop() {
        paint(pos, top_end, top_hit);
        pos = pos.max(top_end);
    }
    (covered, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn union_over_takes() {
        let mut map = CoverageMap::default();
        let take = |count_a: u64, count_b: u64| {
            json!({"result": [{"url": "http://a/app.js", "functions": [
                {"ranges": [{"startOffset": 0, "endOffset": 100, "count": 1},
                            {"startOffset": 10, "endOffset": 20, "count": count_a},
                            {"startOffset": 30, "endOffset": 40, "count": count_b}]}]}]})
        };
        map.absorb(&take(0, 0));
        map.absorb(&take(1, 0));
        map.absorb(&take(0, 0));
        let scope = Scope::default();
        let s = map.summary(&scope);
        assert_eq!(s.covered_blocks(), 2);
        assert_eq!(s.total_blocks(), 3);
        // 0..100 ran but for the block 30..40 that never did.
        assert_eq!(
            (s.scripts[0].covered_bytes, s.scripts[0].total_bytes),
            (90, 100)
        );

        let mut other = CoverageMap::default();
        other.absorb(&json!({"result": [
            {"url": "http://a/app.js", "functions": [{"ranges": [
                {"startOffset": 30, "endOffset": 40, "count": 2}]}]},
            {"url": "http://a/other.js", "functions": [{"ranges": [
                {"startOffset": 0, "endOffset": 5, "count": 0}]}]}]}));
        map.merge(&other);
        let s = map.summary(&scope);
        assert_eq!(s.covered_blocks(), 3);
        assert_eq!(s.total_blocks(), 4);
        assert_eq!(
            (s.scripts[0].covered_bytes, s.scripts[0].total_bytes),
            (100, 100)
        );
        assert_eq!(
            (s.scripts[1].covered_bytes, s.scripts[1].total_bytes),
            (0, 5)
        );
    }

    #[test]
    fn innermost_block_decides_each_byte() {
        let blocks: HashMap<(u64, u64), bool> = [
            ((0, 100), true),
            ((10, 50), false),
            ((20, 30), true),
            ((60, 70), false),
            ((200, 210), true),
        ]
        .into_iter()
        .collect();
        // 0..10, 20..30, 50..60, 70..100 and 200..210 ran.
        assert_eq!(bytes(&blocks), (10 + 10 + 10 + 30 + 10, 110));
    }
}
