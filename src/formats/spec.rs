//! What to open and how: [`RootSpec`] (one root: a path and its label) and
//! [`LoadOptions`] (link following, scope resolution, name spacing), shared by the root
//! labelling, the loader and its callers.

use std::path::PathBuf;

/// Options for loading.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadOptions {
    /// Follow symlinks that escape the opened roots (`--follow-links`).
    pub follow_links: bool,
    /// Same-named skills across scopes: first wins (default last wins).
    pub first_wins: bool,
    /// Prefix skill names with their scope (`project:pdf`), context-chef's namespace option.
    pub namespace: bool,
    /// Which same-named skill wins (`--precedence`); `first_wins` set overrides it.
    pub precedence: super::scopes::Precedence,
    /// The agent whose folders were discovered (`--agent`), if one was named.
    pub agent: Option<String>,
}

impl LoadOptions {
    /// The precedence in force: [`super::scopes::Precedence::FirstWins`] when `first_wins` is set,
    /// else `precedence`.
    pub fn effective_precedence(&self) -> super::scopes::Precedence {
        if self.first_wins {
            super::scopes::Precedence::FirstWins
        } else {
            self.precedence
        }
    }
}

/// One root to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSpec {
    /// Folder or file.
    pub path: PathBuf,
    /// Label: scope name for discovered roots, else the folder name (deduplicated).
    pub label: String,
}
