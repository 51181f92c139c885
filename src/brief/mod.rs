//! Briefs: the text an agent gets (DESIGN.md §5). A markdown brief of selected sections or
//! of a query's top-k BM25 hits, each section with its provenance (id, path, line range,
//! score) and its full text, optionally packed under a token budget; plus lazytools'
//! `query_skill` layout ([`lazytools`]) and the human number formats ([`human_bytes`],
//! [`human_count`]) the CLI, TUI and clipboard statuses share.
//!
//! # Markdown layout (exact; pinned by `tests/brief_golden.rs`)
//!
//! ```text
//! # Context brief
//!
//! [Query: <query> · top <k> by BM25]           (query briefs only)
//! [Searched as: <typed> → <corrected>, …]      (query briefs, when did-you-mean applied)
//! Sources: <roots> · <N> section(s) · <T> tokens (<encoding>) · <B> bytes
//!
//! ---
//!
//! ## <section title>
//! `<id>` · <path> · lines <start>–<end>[ · score <s:.3>]
//!
//! <the section's full text, trailing blank lines trimmed>
//!
//! ---
//! …one block per section…
//!
//! Left out (over the <max>-token budget): <id>, <id>, …
//! ```
//!
//! - The last two lines (a blank line and `Left out …`) appear only when a budget left
//!   sections out; past 50 ids the line names the first 50, then ` and <n> more (<total> in
//!   all)`.
//!
//! - `<roots>`: root labels of the *included* sections, comma-separated, in first-appearance
//!   order (`none` when a budget left every section out).
//! - `<T>`/`<B>`: Σ tokens (exact, `TokenCounter::count` of each section text as included)
//!   and Σ bytes of the section texts, with `,` thousands separators ([`human_count`]).
//! - The provenance line: the id as a code span; the path relative to its root (omitted when
//!   empty); `lines a–b` (en dash) when the node has both line numbers and `b > a`, `line a`
//!   when it has only a start or `a == b`, nothing when it has no line range.
//! - The title is the node title (its id when the title is blank); line breaks in titles and
//!   paths become spaces. A section with no text shows `_(no text)_`.
//! - The text ends with `---\n` (or with the `Left out` line). Nothing is sanitised (a brief
//!   goes to the clipboard or a file, not the terminal) and nothing is cut silently.
//! - Selection briefs include each section's full text (`Corpus::text`, sub-sections
//!   included); query briefs each hit's own text (see [`query_brief`]).
//! - No sections: `# Context brief\n\nNo sections selected.\n` for a selection;
//!   for a query the header lines, a blank line and `No sections matched.`.

pub mod curated;
pub mod curated_md;
pub mod json;
pub mod lazytools;
mod markdown;
pub mod xml;

pub use curated::{BriefFormat, BriefSection, CuratedRequest, Origin, curated_brief};

use crate::index::{Index, SearchOptions};
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;
use markdown::{Entry, Head};

/// A rendered brief and its exact size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brief {
    /// The text to hand to an agent.
    pub text: String,
    /// `text.len()` in bytes.
    pub bytes: usize,
    /// Exact token count of `text` in `encoding`.
    pub tokens: u64,
    /// The encoding of `tokens`.
    pub encoding: crate::tokens::Encoding,
    /// Number of sections included.
    pub sections: usize,
    /// Sections left out (over budget), by id, in their original order; never cut silently
    /// (the brief's closing line names them too).
    pub left_out: Vec<String>,
}

/// Options of [`query_brief`].
#[derive(Clone, Copy, Debug)]
pub struct QueryBriefOptions {
    /// How many BM25 hits to ask [`Index::search`] for.
    pub top_k: usize,
    /// Budget in tokens (in `counter`'s encoding) for the whole brief text; `None` = no limit.
    /// Sections that do not fit are left out as in [`pack`].
    pub max_tokens: Option<u64>,
    /// Counts the brief's tokens.
    pub counter: TokenCounter,
}

/// Markdown brief of `units` (text-bearing nodes, e.g. from `Selection::units`), in the order
/// given, each with its full text (`Corpus::text`), in the layout of the [module docs](self).
/// Nodes without a text span are included with `_(no text)_`. Never fails; empty `units`
/// give the "No sections selected." brief with 0 sections.
pub fn selection_brief(corpus: &Corpus, units: &[NodeId], counter: TokenCounter) -> Brief {
    markdown::build(corpus, &Head::Selection, &entries(units), None, counter)
}

/// Like [`selection_brief`] but under a budget of `max_tokens` tokens for the *whole* brief
/// text. First-fit in order: each section is kept if it still fits, otherwise left out and
/// the next one is tried (a later, smaller section may still fit). The result is checked on
/// the exact text: `Brief::tokens <= max_tokens` unless even the header with no sections
/// exceeds it. Left-out ids are all in [`Brief::left_out`] and in the brief's closing line
/// `Left out (over the <max>-token budget): id, id` (past 50 ids, the first 50 and
/// `and <n> more (<total> in all)`, so a huge selection still leaves room for sections).
pub fn pack(corpus: &Corpus, units: &[NodeId], max_tokens: u64, counter: TokenCounter) -> Brief {
    markdown::build(corpus, &Head::Selection, &entries(units), Some(max_tokens), counter)
}

/// Brief of the top-k BM25 hits of `query` (`index.search` with `opts.top_k`, no prefix
/// expansion), best first, each section's provenance line ending in `score <s:.3>`; under
/// `opts.max_tokens` when set (as in [`pack`]). No hits give the "No sections matched." brief.
///
/// Each hit shows its *own* text (`Corpus::own_text`: the BM25 document that was scored, a
/// section up to its first sub-heading), so a parent and a child that both match never
/// repeat text; its line range is that of the own text (`line_start` + its line count − 1,
/// trailing blank lines included, like the loaders' ranges). Sub-sections that matched are
/// hits of their own. Did-you-mean corrections the search applied are shown on a
/// `Searched as: typed → used` line.
pub fn query_brief(corpus: &Corpus, index: &Index, query: &str, opts: &QueryBriefOptions) -> Brief {
    let result = index.search(corpus, query, &SearchOptions { top_k: opts.top_k, prefix: false });
    let hits: Vec<Entry> =
        result.hits.iter().map(|h| Entry { node: h.node, score: Some(h.score), own_text: true }).collect();
    let head = Head::Query { query, top_k: opts.top_k, corrections: &result.did_you_mean };
    markdown::build(corpus, &head, &hits, opts.max_tokens, opts.counter)
}

fn entries(units: &[NodeId]) -> Vec<Entry> {
    units.iter().map(|n| Entry { node: *n, score: None, own_text: false }).collect()
}
