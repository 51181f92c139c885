//! Clipboard chain (DESIGN.md §5): native (arboard; on Linux kept served after exit) →
//! OSC 52 (for SSH/tmux; never confirmed) → a file. No terminal-library types: the CLI
//! uses it too.
//!
//! CONTRACT (owned by the clipboard helper):

use std::path::PathBuf;

/// Which path the text took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CopyOutcome {
    /// The system clipboard holds the text.
    Copied,
    /// An OSC 52 sequence was written to the terminal; `over_limit` when larger than the
    /// configured limit (many terminals drop big payloads).
    Osc52 {
        /// Payload exceeded the limit.
        over_limit: bool,
    },
    /// Written to this file instead.
    Saved(PathBuf),
}

/// Copy `text`, trying each path in turn.
pub fn copy(_text: &str) -> crate::error::Result<CopyOutcome> {
    todo!("clipboard helper")
}
