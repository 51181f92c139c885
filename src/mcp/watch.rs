//! The file watcher: `notify` on every opened root (recursive) and on the recipes folder
//! marks the state's files changed ([`State::mark_changed`]), so the next request reloads
//! before it answers and the list-changed notifications follow ([`super::changes`]).

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
        let changed = ev.is_ok_and(|e| !matches!(e.kind, notify::EventKind::Access(_)));
        if changed && let Some(s) = weak.upgrade() {
            s.mark_changed();
        }
    })
    .ok()?;
    for p in roots {
        let _ = w.watch(p, RecursiveMode::Recursive);
    }
    if let Some(dir) = recipes {
        // Saved recipes are the prompts; a folder made later is not followed.
        let _ = w.watch(dir, RecursiveMode::NonRecursive);
    }
    Some(w)
}
