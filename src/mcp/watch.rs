//! The file watcher: `notify` on every opened root (recursive) and on the recipes folder.
//! An event whose paths are loaded files as they were loaded changes nothing; any other
//! marks the state's files changed ([`State::paths_changed`]), and lost events compare
//! every loaded file with the disk ([`State::rescan`]), so the next request reloads only
//! when something changed and the list-changed notifications follow ([`super::changes`]).
//! A root that cannot be watched is named on standard error.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use notify::{RecursiveMode, Watcher};

use super::state::State;

/// Watch `roots` (recursively) and the recipes folder `recipes` (when it exists) for
/// `state`, from before its first load is done. The watcher lives as long as the value
/// returned; `None` when the platform has no watcher (then changed files are still caught
/// by the per-read size and time check).
pub fn watch(
    state: &Arc<State>,
    roots: &[PathBuf],
    recipes: Option<&Path>,
) -> Option<notify::RecommendedWatcher> {
    let weak = Arc::downgrade(state);
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        let Some(s) = weak.upgrade() else {
            return;
        };
        match ev {
            Ok(e) if e.need_rescan() => s.rescan(),
            Ok(e) if matches!(e.kind, notify::EventKind::Access(_)) => {}
            Ok(e) => s.paths_changed(&e.paths),
            // An error means events may be lost (an overflowing queue, for one).
            Err(_) => s.rescan(),
        }
    })
    .ok()?;
    for p in roots {
        if let Err(e) = w.watch(p, RecursiveMode::Recursive) {
            // Too many folders for the platform's watch limit, for one: say so once.
            eprintln!(
                "skillnav mcp: not watching {} ({e}): a changed file is still caught when a request reads it",
                crate::util::sanitize::sanitize_line(&p.display().to_string())
            );
        }
    }
    if let Some(dir) = recipes {
        // Saved recipes are the prompts; a folder made later is not followed.
        let _ = w.watch(dir, RecursiveMode::NonRecursive);
    }
    Some(w)
}
