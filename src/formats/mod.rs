//! Loading: detect the format of each folder and run its loader into a [`crate::model::Corpus`].
//!
//! CONTRACT (owned by the formats helper):

use std::path::{Path, PathBuf};

use crate::model::Corpus;

/// Options for loading.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Follow symlinks that escape the opened roots.
    pub follow_links: bool,
    /// Same-named skills across scopes: first wins (default last wins).
    pub first_wins: bool,
}

/// One root to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSpec {
    /// Folder or file.
    pub path: PathBuf,
    /// Label: scope name for discovered roots, else the folder name (deduplicated).
    pub label: String,
}

/// Load one root. Never fails: problems become warnings on nodes.
pub fn load_root(_spec: &RootSpec, _opts: &LoadOptions, _progress: &mut dyn FnMut(usize)) -> Corpus {
    todo!("formats helper")
}

/// Labels for PATH arguments: folder names, deduplicated in sorted real-path order.
pub fn root_specs(_paths: &[PathBuf]) -> Vec<RootSpec> {
    todo!("formats helper")
}

/// The default roots when no PATH is given (`./.claude/skills`, `./.agents/skills`,
/// `~/.claude/skills`, `~/.agents/skills`; scopes `project`, `user`).
pub fn discover_roots(_cwd: &Path) -> Vec<RootSpec> {
    todo!("formats helper")
}

pub mod lazytools;
pub mod markdown;
