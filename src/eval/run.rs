//! One question's outcome: where its gold section ranks among the content hits of the query
//! (the ranking `skillnav search` prints, filters applied) and whether the brief
//! `skillnav brief --query Q --max-tokens N` builds (ranked sections until the budget is
//! full) holds it.

use serde::Serialize;

use super::questions::{Kind, Question};
use crate::brief::{self, Request};
use crate::index::filter::search_all;
use crate::index::{FuzzyIndex, Index, SearchOptions};
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;

/// Ranks past this one are not looked at (MRR@10).
pub const RANK_DEPTH: usize = 10;

/// Hits fetched to find the copies a gold section was folded into.
const COPY_DEPTH: usize = 200;

/// How to evaluate.
#[derive(Clone, Debug)]
pub struct EvalOptions {
    /// Token budget of the brief whose containment is measured (whole brief text).
    pub max_tokens: u64,
    /// The encoding of `max_tokens` and of the brief sizes.
    pub counter: TokenCounter,
    /// Fuse the semantic signal with BM25 (the index's vectors are attached before the
    /// questions run; docs/DESIGN.md §3 "Semantic signal").
    pub semantic: bool,
    /// Re-rank every question's first hits with this (docs/DESIGN.md §3 "Re-rank").
    pub rerank: Option<std::sync::Arc<dyn crate::index::Rerank>>,
}

/// What happened to one question.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// The question's id.
    pub id: String,
    /// Its kind.
    pub kind: Kind,
    /// Its query.
    pub query: String,
    /// 1-based rank of the first gold section among the top [`RANK_DEPTH`] content hits.
    pub rank: Option<usize>,
    /// Whether a gold section is one of the brief's sections.
    pub in_brief: bool,
    /// Exact tokens of the whole brief text.
    pub brief_tokens: u64,
    /// Ids of the top 3 hits (to read a miss).
    pub top: Vec<String>,
    /// No gold section of the question exists in the opened roots (counted as a miss).
    pub unresolved: bool,
}

/// Evaluate `questions` over `corpus` (with its `index` and `fuzzy` titles).
pub fn evaluate(
    corpus: &Corpus,
    index: &Index,
    fuzzy: &FuzzyIndex,
    questions: &[&Question],
    opts: &EvalOptions,
) -> Vec<Outcome> {
    questions
        .iter()
        .map(|q| one(corpus, index, fuzzy, q, opts))
        .collect()
}

fn one(
    corpus: &Corpus,
    index: &Index,
    fuzzy: &FuzzyIndex,
    q: &Question,
    opts: &EvalOptions,
) -> Outcome {
    let mut gold: Vec<NodeId> = q.gold.iter().flat_map(|g| g.resolve(corpus)).collect();
    let unresolved = gold.is_empty();
    // A gold section whose text is identical to an earlier one is folded into that one's
    // hit: the hit counts as the gold section.
    let wide = SearchOptions {
        top_k: COPY_DEPTH,
        prefix: false,
    };
    let (all, _) = search_all(corpus, Some(index), Some(fuzzy), &q.query, &wide);
    for h in &all.hits {
        if h.copies.iter().any(|c| gold.contains(c)) && !gold.contains(&h.node) {
            gold.push(h.node);
        }
    }
    let hits = &all.hits[..all.hits.len().min(RANK_DEPTH)];
    let rank = hits
        .iter()
        .position(|h| gold.contains(&h.node))
        .map(|i| i + 1);
    // The brief `skillnav brief --query Q --max-tokens N` builds: ranked sections until full.
    let req = Request {
        budget: Some(opts.max_tokens),
        top_k: brief::select::UNTIL_FULL,
        ..Request::new(&[], Some(&q.query))
    };
    let b = brief::build(corpus, Some(index), &req, opts.counter);
    Outcome {
        id: q.id.clone(),
        kind: q.kind,
        query: q.query.clone(),
        rank,
        in_brief: b.included.iter().any(|n| gold.contains(n)),
        brief_tokens: b.tokens,
        top: hits.iter().take(3).map(|h| corpus.id(h.node)).collect(),
        unresolved,
    }
}
