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
    let handler = move |ev: notify::Result<notify::Event>| {
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
    };
    let mut w = notify::RecommendedWatcher::new(handler, config()).ok()?;
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

/// The watcher's configuration: no access events. The load's and every read's own opens
/// would otherwise fill the kernel queue of a big tree (inotify's 16,384 events), and each
/// overflow costs a rescan of every loaded file.
fn config() -> notify::Config {
    notify::Config::default().with_event_kinds(notify::EventKindMask::CORE)
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use notify::Watcher;

    #[test]
    fn reading_a_watched_file_sends_no_event_and_writing_it_does() {
        let dir = tempfile::tempdir().expect("tmp");
        let file = dir.path().join("a.md");
        std::fs::write(&file, "# A\n").expect("write");
        let (tx, rx) = mpsc::channel();
        let mut w = notify::RecommendedWatcher::new(
            move |ev: notify::Result<notify::Event>| {
                let _ = tx.send(ev.map(|e| e.kind));
            },
            super::config(),
        )
        .expect("watcher");
        w.watch(dir.path(), notify::RecursiveMode::Recursive)
            .expect("watch");
        for _ in 0..50 {
            std::fs::read_to_string(&file).expect("read");
        }
        std::fs::write(&file, "# B\n").expect("write");
        let first = rx.recv_timeout(Duration::from_secs(10)).expect("an event");
        assert!(
            matches!(
                first,
                Ok(notify::EventKind::Modify(_) | notify::EventKind::Create(_))
            ),
            "{first:?}"
        );
    }
}
