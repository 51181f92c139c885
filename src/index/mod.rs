//! Search over a corpus: BM25 per root with an inverted index (docs/DESIGN.md §3), lazytools'
//! own scorer on bundles (docs/FORMATS.md §2.7), and fuzzy title matching (nucleo-matcher).
//!
//! Modules: [`tokenize`](mod@tokenize) (our tokenizer, shared by documents, queries and highlighting),
//! `fold` (which nodes are documents; identical texts fold into "+N copies"), `tree_docs`
//! (doc-tree READMEs: navigation, their words indexed with the page they describe), `build`
//! (parallel tokenization into interned terms and CSR postings), [`bm25`] (the per-root
//! inverted index and scoring), [`query`] (prefix expansion, "did you mean", merging),
//! [`distance`] (bounded Damerau–Levenshtein), [`inflect`] (singular/plural forms of query words), [`fuzzy`] (its haystacks in shared buffers: `haystacks`), `highlight` ([`match_ranges`]), [`label`] (what tells hits apart),
//! and the build-time helpers `intern` (term interner) and `hash` (Fx hash).
//!
//! [`Index`] and [`FuzzyIndex`] are `Send + Sync`: build them on a worker thread and share
//! them in an `Arc`.

pub mod bm25;
mod build;
pub mod distance;
mod doc_text;
mod engine;
pub mod filter;
mod fold;
pub mod fuzzy;
pub(crate) mod hash;
mod haystacks;
mod hit;
mod hook;
pub mod inflect;
mod intern;
pub mod label;
mod matches;
pub mod query;
pub mod question;
pub mod semantic;
mod title_words;
pub mod tokenize;
pub(crate) mod tree_docs;

pub use engine::Index;
pub use fuzzy::FuzzyIndex;
pub use hit::{
    FilterMiss, Hit, HitSource, MISS_VALUES, RerankRun, Scorer, SearchOptions, SearchResult,
};
pub use hook::Rerank;
pub use matches::{holds_every_word, match_ranges};
pub use semantic::SemanticIndex;
pub use tokenize::{STOPWORDS, Token, tokenize, tokenize_with_offsets};

pub mod lazytools;
