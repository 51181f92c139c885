//! The file watcher: `notify` on every opened root (recursive) sets the state's "files
//! changed" flag, so the next request reloads before it answers.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use notify::{RecursiveMode, Watcher};

use super::state::State;

/// Watch the roots of `state`'s workspace. The watcher lives as long as the value returned;
/// `None` when the platform has no watcher (then changed files are still caught by the
/// per-read size and time check).
pub fn watch(state: &Arc<State>) -> Option<notify::RecommendedWatcher> {
    let weak = Arc::downgrade(state);
    let mut w = notify::recommended_watcher(move |ev: notify::Result<notify::Event>| {
        let changed = ev.is_ok_and(|e| !matches!(e.kind, notify::EventKind::Access(_)));
        if changed && let Some(s) = weak.upgrade() {
            s.dirty.store(true, Ordering::SeqCst);
        }
    })
    .ok()?;
    for p in state.snapshot().watched_paths() {
        let _ = w.watch(&p, RecursiveMode::Recursive);
    }
    Some(w)
}
