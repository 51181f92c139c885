//! The file watcher: `notify` on every opened root (recursive) and on the recipes folder
//! marks the state's files changed ([`State::mark_changed`]), so the next request reloads
//! before it answers and the list-changed notifications follow ([`super::changes`]).

use std::sync::Arc;

use notify::{RecursiveMode, Watcher};

use super::state::State;

/// Watch the roots of `state`'s workspace and its recipes folder (when it exists). The watcher lives as long as the value returned;
/// `None` when the platform has no watcher (then changed files are still caught by the
/// per-read size and time check).
pub fn watch(state: &Arc<State>) -> Option<notify::RecommendedWatcher> {
    let weak = Arc::downgrade(state);
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        let changed = ev.is_ok_and(|e| !matches!(e.kind, notify::EventKind::Access(_)));
        if changed && let Some(s) = weak.upgrade() {
            s.mark_changed();
        }
    })
    .ok()?;
    let ws = state.snapshot();
    for p in ws.watched_paths() {
        let _ = w.watch(&p, RecursiveMode::Recursive);
    }
    if let Some(store) = ws.store() {
        // Saved recipes are the prompts; a folder made later is not followed.
        let _ = w.watch(&store.dir, RecursiveMode::NonRecursive);
    }
    Some(w)
}
