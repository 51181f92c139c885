//! Search over a corpus: BM25 per root with an inverted index (DESIGN.md §3), lazytools'
//! own scorer on bundles (FORMATS §2.7), and fuzzy title matching (nucleo-matcher).
//!
//! Modules: [`tokenize`](mod@tokenize) (our tokenizer, shared by documents, queries and highlighting),
//! `fold` (which nodes are documents; identical texts fold into "+N copies"), `build`
//! (parallel tokenization into interned terms and CSR postings), [`bm25`] (the per-root
//! inverted index and scoring), [`query`] (prefix expansion, "did you mean", merging),
//! [`distance`] (bounded Damerau–Levenshtein), [`fuzzy`], `highlight` ([`match_ranges`]),
//! and the build-time helpers `intern` (term interner) and `hash` (Fx hash).
//!
//! [`Index`] and [`FuzzyIndex`] are `Send + Sync`: build them on a worker thread and share
//! them in an `Arc`.

use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use crate::model::{BundleStats, Corpus, NodeId};

pub mod bm25;
mod build;
pub mod distance;
pub mod filter;
mod fold;
pub mod fuzzy;
mod hash;
mod highlight;
mod intern;
pub mod query;
pub mod tokenize;

pub use fuzzy::FuzzyIndex;
pub use highlight::match_ranges;
pub use tokenize::{STOPWORDS, Token, tokenize, tokenize_with_offsets};

/// Where a hit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HitSource {
    /// Content match, ranked by BM25.
    Bm25,
    /// Title/path match (`title | path`, see [`fuzzy`]), ranked by nucleo-matcher.
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
    /// Other nodes of the same root whose own text is byte-identical after trimming, folded
    /// into this hit ("+N copies"), in document order. Always empty for fuzzy and lazytools
    /// hits.
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
    /// Index terms the query resolved to (lower-case; exact words found in some root, prefix
    /// expansions, did-you-mean replacements), in query order, without duplicates: pass them
    /// to [`match_ranges`] to highlight a hit's text.
    pub terms: Vec<String>,
    /// `(typed, used)` pairs, lower-case, for query words found in no root's vocabulary that
    /// were replaced by the closest term (see [`distance`]); in query order.
    pub did_you_mean: Vec<(String, String)>,
}

/// The BM25 index of a whole corpus: one inverted index per root, plus the lazytools
/// bundles, which are scored by [`lazytools::search`] with their own statistics.
/// `Send + Sync`.
///
/// Documents (DESIGN.md §3): nodes with a text span whose kind is a text unit (section,
/// chunk, part, link, adr) or a `File` with a span and no children (plain `.txt`); the text is
/// the node's own text. Not indexed: `duplicate`/`alias` nodes and everything inside them,
/// everything inside a lazytools bundle, texts empty after trimming. Byte-identical texts
/// (after trimming) within a root are indexed once and reported as [`Hit::copies`].
#[derive(Debug, Default)]
pub struct Index {
    roots: Vec<bm25::RootIndex>,
    bundles: Vec<(NodeId, Arc<BundleStats>)>,
    /// Document order (global pre-order rank) of every node, for tie-breaking.
    order: Vec<u32>,
}

impl Index {
    /// Build the index of every root of `corpus`. `progress(done, total)` counts documents
    /// (text units after folding, over all roots): it is called with `(0, total)` first,
    /// every 256 documents of the calling thread's share, after each root, and finally with
    /// `(total, total)`, always on the calling thread. Large roots (≥ 512 KiB of text) are
    /// tokenized on up to 4 threads.
    pub fn build(corpus: &Corpus, progress: &mut dyn FnMut(usize, usize)) -> Self {
        let order = fold::document_order(corpus);
        let docs: Vec<fold::RootDocs<'_>> =
            corpus.roots.iter().map(|&r| fold::collect_root(corpus, r)).collect();
        let total: usize = docs.iter().map(|d| d.docs.len()).sum();
        progress(0, total);
        let done = AtomicUsize::new(0);
        let roots = docs
            .into_iter()
            .map(|rd| build::build_root(rd, &done, &mut |d| progress(d.min(total), total)))
            .collect();
        progress(total, total);
        let bundles = corpus.bundles.iter().filter(|(b, _)| !corpus.is_copy(*b)).cloned().collect();
        Self { roots, bundles, order }
    }

    /// Run a BM25 query over all roots and bundles: the best `opts.top_k` hits, score
    /// descending, ties by document order (see [`query`] for prefix expansion, "did you
    /// mean" and duplicate query words). An empty or stopword-only query, or an empty
    /// corpus, gives no hits. Scores are finite and positive. `corpus` must be the corpus the
    /// index was built from.
    pub fn search(&self, _corpus: &Corpus, query: &str, opts: &SearchOptions) -> SearchResult {
        query::search(self, query, opts)
    }

    /// Number of BM25 documents over all roots (after folding identical texts; bundle chunks
    /// are not counted: lazytools scores them).
    pub fn doc_count(&self) -> usize {
        self.roots.iter().map(|r| r.n()).sum()
    }

    /// Number of distinct terms, summed over the roots' vocabularies.
    pub fn vocab_len(&self) -> usize {
        self.roots.iter().map(|r| r.vocab.len()).sum()
    }

    /// Number of roots indexed.
    pub fn root_count(&self) -> usize {
        self.roots.len()
    }

    /// Number of lazytools bundles searched with their own scorer.
    pub fn bundle_count(&self) -> usize {
        self.bundles.len()
    }

    /// Total postings `(document, tf)` over all roots.
    pub fn posting_count(&self) -> usize {
        self.roots.iter().map(|r| r.post_doc.len()).sum()
    }

    /// Approximate heap bytes held by the index.
    pub fn heap_bytes(&self) -> usize {
        self.roots.iter().map(|r| r.heap_bytes()).sum::<usize>() + self.order.capacity() * 4
    }

    /// Document frequency of `term` (lower-case, as [`tokenize()`] yields it) in the index of
    /// `root`; `None` if `root` is not an indexed root.
    pub fn df(&self, root: NodeId, term: &str) -> Option<usize> {
        let r = self.roots.iter().find(|r| r.root == root)?;
        Some(r.vocab.find(term).map_or(0, |t| r.df(t)))
    }

    /// Every BM25 document (node), roots in order, each root in document order. Folded
    /// copies and bundle chunks are not included.
    pub fn documents(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.roots.iter().flat_map(|r| r.docs.iter().copied())
    }

    /// Document order (global pre-order rank) of `node`; `u32::MAX` for unknown nodes.
    pub fn order_of(&self, node: NodeId) -> u32 {
        self.order.get(node.ix()).copied().unwrap_or(u32::MAX)
    }
}

pub mod lazytools;
