//! Fuzzy title search (DESIGN.md §3): nucleo-matcher over one `title · path` haystack per
//! node, so typos of omission (`midleware`) still find `Middleware`.
//!
//! Haystacks: every node except the roots themselves and nodes flagged `duplicate`/`alias`
//! (or inside one), in document order; `title | path` ([`SEPARATOR`]), or just the title when
//! the path is empty or equal to it. The separator is ASCII on purpose: DESIGN.md writes
//! `title · path`, but a `·` makes every haystack non-ASCII, which puts nucleo on its UTF-32
//! path (measured ~2× slower on `corpus/large`). The pattern is parsed with nucleo's syntax (space-separated atoms,
//! all must match), case-insensitive, with Unicode normalisation (`Normalization::Smart`).
//! Scores are nucleo's (u32, higher is better) as f64; ties keep document order.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32String};

use super::{Hit, HitSource, Scorer};
use crate::model::{Corpus, NodeId};

/// Between title and path in a haystack.
pub const SEPARATOR: &str = " | ";

/// Longest haystack in chars; longer `title · path` strings are cut (nucleo's matrix is
/// quadratic and panics past `u32::MAX` codepoints).
pub const MAX_HAYSTACK_CHARS: usize = 1024;

/// Fuzzy matcher over one `title | path` string per node. `Send + Sync`; share it in an
/// `Arc` and query it from a worker thread (each query uses its own nucleo `Matcher`).
#[derive(Debug, Default)]
pub struct FuzzyIndex {
    items: Vec<(NodeId, Utf32String)>,
}

impl FuzzyIndex {
    /// Collect the haystacks of `corpus` (roots in order, each in pre-order).
    pub fn build(corpus: &Corpus) -> Self {
        let mut items = Vec::new();
        let mut stack: Vec<NodeId> = Vec::new();
        for &r in &corpus.roots {
            stack.extend(corpus.node(r).children.iter().rev().copied());
            while let Some(n) = stack.pop() {
                if n.ix() >= corpus.len() {
                    continue;
                }
                let node = corpus.node(n);
                if node.flags.is_copy() {
                    continue;
                }
                let mut hay = if node.path.is_empty() || node.path == node.title {
                    node.title.clone()
                } else {
                    format!("{}{SEPARATOR}{}", node.title, node.path)
                };
                if let Some((cut, _)) = hay.char_indices().nth(MAX_HAYSTACK_CHARS) {
                    hay.truncate(cut);
                }
                items.push((n, Utf32String::from(hay)));
                stack.extend(node.children.iter().rev().copied());
            }
        }
        Self { items }
    }

    /// Number of haystacks.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no haystacks.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Best `top_k` nodes for `query`, score descending, ties in document order; every hit
    /// has `source: Fuzzy`, `scorer: Skillnav` and no copies. An empty query gives no hits.
    pub fn search(&self, query: &str, top_k: usize) -> Vec<Hit> {
        if top_k == 0 || query.trim().is_empty() {
            return Vec::new();
        }
        let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
        if pattern.atoms.is_empty() {
            return Vec::new();
        }
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut scored: Vec<(u32, usize)> = self
            .items
            .iter()
            .enumerate()
            .filter_map(|(i, (_, hay))| pattern.score(hay.slice(..), &mut matcher).map(|s| (s, i)))
            .collect();
        let cmp = |a: &(u32, usize), b: &(u32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        if scored.len() > top_k {
            scored.select_nth_unstable_by(top_k - 1, cmp);
            scored.truncate(top_k);
        }
        scored.sort_unstable_by(cmp);
        scored
            .into_iter()
            .map(|(s, i)| Hit {
                node: self.items[i].0,
                score: f64::from(s),
                source: HitSource::Fuzzy,
                scorer: Scorer::Skillnav,
                copies: Vec::new(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn fuzzy_index_is_send_sync() {
        assert_send_sync::<FuzzyIndex>();
        assert_send_sync::<crate::index::Index>();
    }
}
