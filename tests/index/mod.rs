//! Search: BM25 on corpora built in code and on the real Hono skill.

mod bm25;
mod brief_fill;
mod doc_tree;
mod eval;
mod hono;
mod long_queries;
mod persisted;
mod semantic;
mod skills;
#[cfg(feature = "tui")]
mod tui_search;
