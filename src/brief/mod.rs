//! Briefs: the text an agent gets. A markdown brief of selected sections (header with roots,
//! count and tokens; each section with id, path, line range, then its text), query briefs,
//! and (with the formats work) lazytools' `query_skill` layout.
//!
//! CONTRACT (owned by the brief helper):

use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;

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
    /// Sections left out (over budget), by id; never cut silently.
    pub left_out: Vec<String>,
}

/// Markdown brief of `units` (text-bearing nodes, e.g. from `Selection::units`).
pub fn selection_brief(_corpus: &Corpus, _units: &[NodeId], _counter: TokenCounter) -> Brief {
    todo!("brief helper")
}

pub mod lazytools;
