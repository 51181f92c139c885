//! A text built on a worker (a brief or a rendered skill) and its sizes: what the app keeps
//! to copy, save or show (built by [`crate::tui::effects::text_job::build`]).

use crate::tokens::Encoding;

/// The built text and its sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltText {
    /// The exact text copied.
    pub text: String,
    /// `text.len()`.
    pub bytes: u64,
    /// Exact tokens of `text` in `encoding`.
    pub tokens: u64,
    /// The encoding of `tokens`.
    pub encoding: Encoding,
    /// Sections in the text (briefs) or skills rendered.
    pub parts: usize,
    /// Ids left out over the budget (named in the text too).
    pub left_out: Vec<String>,
    /// One-line description (`md · answer · 3 sections`, `rendered skill pdf`).
    pub label: String,
    /// File extension for saving it (`md`, `xml`, `json`).
    pub ext: &'static str,
}
