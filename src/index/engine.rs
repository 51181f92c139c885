//! The [`Index`] of a whole corpus: one BM25 inverted index per root, the lazytools
//! bundles, and the document order used for tie-breaking; built here, queried by
//! [`super::query`] (`Index::search`).

use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, OnceLock};

use super::hit::{Hit, SearchOptions, SearchResult};
use super::hook::Rerank;
use super::semantic::SemanticIndex;
use super::{bm25, build, fold};
use crate::model::{BundleStats, Corpus, NodeId};

/// The BM25 index of a whole corpus: one inverted index per root, plus the lazytools
/// bundles, which are scored by [`super::lazytools::search`] with their own statistics.
/// `Send + Sync`.
///
/// Documents (docs/DESIGN.md §3): nodes with a text span whose kind is a text unit (section,
/// chunk, part, link, adr) or a `File` with a span and no children (plain `.txt`); the text is
/// the node's own text. Not indexed: `duplicate`/`alias` nodes and everything inside them,
/// everything inside a lazytools bundle, texts empty after trimming. Byte-identical texts
/// (after trimming) within a root are indexed once and reported as [`super::Hit::copies`].
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Index {
    pub(crate) roots: Vec<bm25::RootIndex>,
    #[serde(skip)]
    pub(super) bundles: Vec<(NodeId, Arc<BundleStats>)>,
    /// Document order (global pre-order rank) of every node, for tie-breaking.
    #[serde(with = "crate::util::pod_vec")]
    pub(super) order: Vec<u32>,
    /// The semantic signal, once attached ([`Index::attach_semantic`]): finished queries
    /// fuse it with BM25 (docs/DESIGN.md §3 "Semantic signal").
    #[serde(skip)]
    pub(super) semantic: OnceLock<Arc<SemanticIndex>>,
    /// The second-stage ranker of finished queries, once attached
    /// ([`Index::attach_reranker`]; docs/DESIGN.md §3 "Re-rank").
    #[serde(skip)]
    pub(super) reranker: OnceLock<Arc<dyn Rerank>>,
}

/// The lazytools bundles of `corpus` that are not copies, sharing its statistics.
fn bundles_of(corpus: &Corpus) -> Vec<(NodeId, Arc<BundleStats>)> {
    corpus
        .bundles
        .iter()
        .filter(|(b, _)| !corpus.is_copy(*b))
        .cloned()
        .collect()
}

/// Corpora of at least this many nodes rank their document order on a second thread.
const PARALLEL_ORDER_MIN_NODES: usize = 8192;

impl Index {
    /// Build the index of every root of `corpus`. `progress(done, total)` counts documents
    /// (text units after folding, over all roots): it is called with `(0, total)` first,
    /// every 256 documents of the calling thread's share, after each root, and finally with
    /// `(total, total)`, always on the calling thread. Large roots (≥ 512 KiB of text) are
    /// tokenized on up to 4 threads.
    pub fn build(corpus: &Corpus, progress: &mut dyn FnMut(usize, usize)) -> Self {
        let collect = || -> Vec<fold::RootDocs<'_>> {
            corpus
                .roots
                .iter()
                .map(|&r| fold::collect_root(corpus, r))
                .collect()
        };
        // On a big tree the document order is ranked on a second thread while the
        // documents are collected (both only read the corpus).
        let (order, docs) = if corpus.len() >= PARALLEL_ORDER_MIN_NODES {
            std::thread::scope(|s| {
                let job = std::thread::Builder::new()
                    .name("skillnav-index".into())
                    .spawn_scoped(s, || fold::document_order(corpus));
                let docs = collect();
                let order = match job {
                    // A panic there is a bug: raise it here, as ranking here would.
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    Err(_) => fold::document_order(corpus),
                };
                (order, docs)
            })
        } else {
            (fold::document_order(corpus), collect())
        };
        let total: usize = docs.iter().map(|d| d.docs.len()).sum();
        progress(0, total);
        let done = AtomicUsize::new(0);
        let roots = docs
            .into_iter()
            .map(|rd| build::build_root(corpus, rd, &done, &mut |d| progress(d.min(total), total)))
            .collect();
        progress(total, total);
        Self {
            roots,
            bundles: bundles_of(corpus),
            order,
            semantic: OnceLock::new(),
            reranker: OnceLock::new(),
        }
    }

    /// Take the lazytools bundles of `corpus` again (an index read back from the persisted
    /// index, `src/store/`, does not store them: they are the corpus's, shared).
    pub fn share_bundles(&mut self, corpus: &Corpus) {
        self.bundles = bundles_of(corpus);
    }

    /// Attach a re-ranker: from then on every finished query (`prefix: false`) has its
    /// first [`Rerank::depth`] content hits re-ordered by it. Returns false (and keeps the
    /// first) when one was already attached.
    pub fn attach_reranker(&self, reranker: Arc<dyn Rerank>) -> bool {
        self.reranker.set(reranker).is_ok()
    }

    /// The attached re-ranker, if any.
    pub fn reranker(&self) -> Option<&Arc<dyn Rerank>> {
        self.reranker.get()
    }

    /// `inner(self, query, opts)`, and, for a finished query (`!opts.prefix`) of an index with
    /// a re-ranker attached, its first `depth` content hits re-ordered by it (the search asks
    /// for at least `depth` hits, the result is cut back to `opts.top_k`).
    pub(super) fn search_reranked(
        &self,
        corpus: &Corpus,
        query: &str,
        opts: &SearchOptions,
        inner: fn(&Index, &str, &SearchOptions) -> SearchResult,
    ) -> SearchResult {
        let Some(r) = self.reranker().filter(|_| !opts.prefix) else {
            return inner(self, query, opts);
        };
        let depth = r.depth();
        let wide = SearchOptions {
            top_k: opts.top_k.max(depth),
            ..opts.clone()
        };
        let mut res = inner(self, query, &wide);
        if res.hits.is_empty() {
            res.hits.truncate(opts.top_k);
            return res;
        }
        let n = res.hits.len().min(depth);
        let first_max = res.hits[..n].iter().map(|h| h.score).fold(0.0, f64::max);
        res.rerank = Some(r.rerank(corpus, query, &mut res.hits[..n]));
        below_reranked(&mut res.hits, n, first_max);
        res.hits.truncate(opts.top_k);
        res
    }

    /// Attach the semantic vectors of this index's documents (built by
    /// [`Index::build_semantic`]): from then on every exact query
    /// (`prefix: false`) fuses cosine similarity with BM25. Returns false (and keeps the
    /// first) when vectors were already attached.
    pub fn attach_semantic(&self, semantic: Arc<SemanticIndex>) -> bool {
        self.semantic.set(semantic).is_ok()
    }

    /// The attached semantic vectors, if any.
    pub fn semantic(&self) -> Option<&Arc<SemanticIndex>> {
        self.semantic.get()
    }

    /// Embed this index's documents with the embedded static model and attach them, reusing
    /// rows of `previous` whose text is unchanged; threads as for [`Index::build`]. Returns
    /// false when the model is unavailable or vectors were already attached.
    pub fn embed(&self, corpus: &Corpus, previous: Option<&SemanticIndex>) -> bool {
        let Some(model) = crate::embed::model() else {
            return false;
        };
        if self.semantic.get().is_some() {
            return false;
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        let sem = self.build_semantic(corpus, model, previous, threads);
        self.attach_semantic(Arc::new(sem))
    }

    /// The semantic vectors of this index's documents (`corpus` is the corpus it was built
    /// from), embedded with `model` on up to `threads` threads, reusing the rows of
    /// `previous` whose embedded text is unchanged (docs/DESIGN.md §3 "Semantic signal").
    pub fn build_semantic(
        &self,
        corpus: &Corpus,
        model: &crate::embed::StaticModel,
        previous: Option<&SemanticIndex>,
        threads: usize,
    ) -> SemanticIndex {
        let roots: Vec<&[NodeId]> = self.roots.iter().map(|r| r.docs.as_slice()).collect();
        SemanticIndex::from_docs(corpus, &roots, model, previous, threads)
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

    /// Total postings `(document, tf)` over all roots.
    pub fn posting_count(&self) -> usize {
        self.roots.iter().map(|r| r.post_doc.len()).sum()
    }

    /// Approximate heap bytes held by the index.
    pub fn heap_bytes(&self) -> usize {
        self.roots.iter().map(|r| r.heap_bytes()).sum::<usize>() + self.order.capacity() * 4
    }

    /// Document frequency of `term` (lower-case, as [`super::tokenize()`] yields it) in the index of
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

/// Put the scores of the hits after the first `n` (re-ranked: their scores are now the
/// re-ranker's) below the lowest re-ranked one, in their order: each becomes that lowest
/// score less its BM25 shortfall from `first_max` (the best first-stage score of the
/// re-ranked hits), in proportion. Scores then fall along the list, so whatever compares
/// hits by score (an outline's subtree scores, for one) sees the re-ranked hits first,
/// as the list does.
fn below_reranked(hits: &mut [Hit], n: usize, first_max: f64) {
    let Some(floor) = hits[..n].iter().map(|h| h.score).reduce(f64::min) else {
        return;
    };
    let spread = floor.abs().max(f64::EPSILON);
    let max = if first_max > 0.0 { first_max } else { 1.0 };
    for h in &mut hits[n..] {
        let shortfall = 1.0 - (h.score / max).clamp(0.0, 1.0);
        h.score = floor - shortfall * spread;
    }
}

#[cfg(test)]
mod tests {
    use super::below_reranked;
    use crate::index::{Hit, HitSource, Scorer};
    use crate::model::NodeId;

    fn hits(scores: &[f64]) -> Vec<Hit> {
        scores
            .iter()
            .enumerate()
            .map(|(i, s)| Hit {
                node: NodeId(i as u32),
                score: *s,
                source: HitSource::Bm25,
                scorer: Scorer::Skillnav,
                copies: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn hits_after_the_reranked_ones_score_below_them_in_their_order() {
        // Two re-ranked hits (fused scores near 0.6) over BM25 scores of 20 and 18; the
        // tail's BM25 scores 15 and 5 must fall below 0.55, in that order.
        let mut h = hits(&[0.61, 0.55, 15.0, 5.0]);
        below_reranked(&mut h, 2, 20.0);
        let s: Vec<f64> = h.iter().map(|h| h.score).collect();
        assert!(s.windows(2).all(|w| w[0] >= w[1]), "{s:?}");
        assert!(s[2] < 0.55 && s[3] < s[2], "{s:?}");
        assert!((s[2] - 0.55 * 0.75).abs() < 1e-9, "{s:?}");
    }

    #[test]
    fn a_negative_lowest_reranked_score_still_tops_the_tail() {
        let mut h = hits(&[0.2, -0.1, 9.0]);
        below_reranked(&mut h, 2, 10.0);
        assert!(h[2].score < -0.1, "{}", h[2].score);
    }
}
