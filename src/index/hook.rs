//! The re-rank hook of a finished query (docs/DESIGN.md §3 "Re-rank"): an [`Index`] may
//! carry one [`Rerank`] (attached by `crate::rerank`), which re-orders the first
//! [`Rerank::depth`] content hits of every query that is not a prefix query. The index
//! knows only this trait, never the model behind it.

use std::fmt::Debug;

use serde::Serialize;

use super::engine::Index;
use super::hit::{Hit, SearchOptions, SearchResult};
use crate::model::Corpus;

/// A second-stage ranker of content hits. `Send + Sync`: one is shared by every query of
/// an index, on any thread.
pub trait Rerank: Send + Sync + Debug {
    /// Most leading hits re-ordered per query (the search fetches at least this many).
    fn depth(&self) -> usize;

    /// Re-order `hits` (the first [`Rerank::depth`] content hits of `query`, best first, all
    /// nodes of `corpus`) in place, best first, rewriting their scores; returns what ran.
    fn rerank(&self, corpus: &Corpus, query: &str, hits: &mut [Hit]) -> RerankRun;
}

/// What one re-rank did (the TUI's status and the CLI's label show it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RerankRun {
    /// Hits the re-ranker scored and re-ordered (the first `depth` of the first stage); the
    /// result then keeps the first `top_k` of them.
    pub candidates: usize,
    /// Of those, texts that went through the model (the others came from its cache).
    pub embedded: usize,
    /// Wall time of the re-rank (query and candidate texts embedded, hits re-ordered), in
    /// microseconds.
    pub micros: u64,
}

/// `inner(index, query, opts)`, and, for a finished query (`!opts.prefix`) of an index with
/// a re-ranker attached, its first `depth` content hits re-ordered by it (the search asks
/// for at least `depth` hits, the result is cut back to `opts.top_k`).
pub(super) fn search_reranked(
    index: &Index,
    corpus: &Corpus,
    query: &str,
    opts: &SearchOptions,
    inner: fn(&Index, &str, &SearchOptions) -> SearchResult,
) -> SearchResult {
    let Some(r) = index.reranker().filter(|_| !opts.prefix) else {
        return inner(index, query, opts);
    };
    let depth = r.depth();
    let wide = SearchOptions {
        top_k: opts.top_k.max(depth),
        ..opts.clone()
    };
    let mut res = inner(index, query, &wide);
    if res.hits.is_empty() {
        res.hits.truncate(opts.top_k);
        return res;
    }
    let n = res.hits.len().min(depth);
    res.rerank = Some(r.rerank(corpus, query, &mut res.hits[..n]));
    res.hits.truncate(opts.top_k);
    res
}
