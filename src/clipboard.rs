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

/// Entry point of the hidden `skillnav __clipboard-serve` child: read the text from stdin,
/// take the clipboard and keep serving it until another program takes ownership. Returns
/// the process exit code.
pub fn serve_main() -> i32 {
    todo!("clipboard helper")
}
