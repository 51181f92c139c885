//! Search over a corpus: BM25 per root with an inverted index (DESIGN.md §3), lazytools'
//! own scorer on bundles (FORMATS §2.7), and fuzzy title matching (nucleo-matcher).
//!
//! CONTRACT (owned by the index helper; bodies to be written):

use crate::model::{Corpus, NodeId};

/// Where a hit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HitSource {
    /// Content match, ranked by BM25.
    Bm25,
    /// Title · path match, ranked by nucleo-matcher.
    Fuzzy,
}

/// Which BM25 implementation scored a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scorer {
    /// Ours (DESIGN.md §3).
    Skillnav,
    /// lazytools' (FORMATS §2.7), on bundles.
    Lazytools,
}

/// One search hit.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The matched node.
    pub node: NodeId,
    /// Score (BM25 sum, or the fuzzy matcher's score as f64).
    pub score: f64,
    /// BM25 or fuzzy.
    pub source: HitSource,
    /// Which scorer.
    pub scorer: Scorer,
    /// Other nodes with identical text folded into this hit ("+N copies").
    pub copies: Vec<NodeId>,
}

/// Options of one query.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Maximum hits per group.
    pub top_k: usize,
    /// Expand the last query word as a prefix (while typing; CLI `--prefix`).
    pub prefix: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self { top_k: 10, prefix: false }
    }
}

/// Result of a BM25 query.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Hits, best first (ties by document order).
    pub hits: Vec<Hit>,
    /// Index terms that matched (after prefix expansion and did-you-mean), for highlighting.
    pub terms: Vec<String>,
    /// `(typed, suggested)` pairs for query words absent from the vocabulary.
    pub did_you_mean: Vec<(String, String)>,
}

/// The BM25 index of a whole corpus (one inverted index per root). `Send + Sync`.
#[derive(Debug, Default)]
pub struct Index {}

impl Index {
    /// Build the index; `progress(done, total)` is called as roots/documents are indexed.
    pub fn build(_corpus: &Corpus, _progress: &mut dyn FnMut(usize, usize)) -> Self {
        todo!("index helper")
    }

    /// Run a BM25 query over all roots.
    pub fn search(&self, _corpus: &Corpus, _query: &str, _opts: &SearchOptions) -> SearchResult {
        todo!("index helper")
    }
}

/// Fuzzy matcher over one `title · path` string per node.
#[derive(Debug, Default)]
pub struct FuzzyIndex {}

impl FuzzyIndex {
    /// Collect the haystacks of `corpus`.
    pub fn build(_corpus: &Corpus) -> Self {
        todo!("index helper")
    }

    /// Best `top_k` nodes for `query`.
    pub fn search(&self, _query: &str, _top_k: usize) -> Vec<Hit> {
        todo!("index helper")
    }
}

/// Byte ranges in `text` where any of `terms` occurs as a token (for highlighting).
pub fn match_ranges(_text: &str, _terms: &[String]) -> Vec<std::ops::Range<usize>> {
    todo!("index helper")
}

pub mod lazytools;
