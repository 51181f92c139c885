//! The re-rank hook of a finished query (docs/DESIGN.md §3 "Re-rank"): an
//! [`super::Index`] may carry one [`Rerank`] (attached by `crate::rerank`), which
//! re-orders the first [`Rerank::depth`] content hits of every query that is not a prefix
//! query (`Index::search_reranked` in `engine.rs`). The index knows only this trait,
//! never the model behind it.

use std::fmt::Debug;

use super::hit::{Hit, RerankRun};
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
