//! The server's shared state: the current [`Workspace`] behind an `Arc` that a reload
//! swaps (none until the first load, which runs on a thread of its own so the server
//! answers `initialize` at once; docs/MCP.md "Start-up"), the "files changed" flag and
//! signal the watcher sets (the signal wakes [`super::changes`]), token counting on a
//! background thread after every (re)load, and the standard-error report of the skills
//! `skills/list` leaves out (after the first load, and after a reload that changes it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::stale::LoadedFiles;
use crate::agent::workspace::Workspace;
use crate::agent::workspace::WorkspaceConfig;
use crate::agent::{listable, skills};
use crate::model::NodeId;

/// Longest `initialize` waits for the first load by default before it answers with
/// [`crate::agent::instructions::while_loading`] (docs/MCP.md "Start-up").
pub const INIT_WAIT: Duration = Duration::from_millis(50);

/// What every request handler shares.
#[derive(Debug)]
pub struct State {
    /// How long `initialize` waits for the first load (`None`: until it is done).
    pub init_wait: Option<Duration>,
    /// The loaded workspace; `None` while the first load runs.
    current: Mutex<Option<Arc<Workspace>>>,
    /// Signalled once the first load is in `current` (for [`State::snapshot`]).
    loaded: Condvar,
    /// `true` once the first load is in `current` (for [`State::ready`]).
    ready: tokio::sync::watch::Sender<bool>,
    /// Set by the file watcher: some file under a root changed since the last load.
    pub dirty: AtomicBool,
    /// Held while a request checks for a change and reloads ([`State::fresh`]), so a
    /// request that comes during a reload waits for its result instead of answering from
    /// the workspace the change made stale.
    reloading: Mutex<()>,
    /// Signalled with `dirty`: wakes the list-changed follower ([`super::changes::follow`]).
    pub changed: tokio::sync::Notify,
    /// The left-out report last written to standard error.
    reported: Mutex<Vec<String>>,
    /// The loaded files of the workspace of one generation ([`State::paths_changed`]).
    files: Mutex<Option<(u64, Arc<LoadedFiles>)>>,
    /// The watcher lost events while the first load ran ([`State::rescan`]): compare the
    /// loaded files with the disk once it is in place.
    rescan_after_load: AtomicBool,
    /// The file watcher, once registered ([`super::watch::watch`]); it lives as long as the
    /// state (its callback holds only a weak reference back).
    watcher: Mutex<Option<notify::RecommendedWatcher>>,
}

impl State {
    /// A state whose workspace is loading: `config` is loaded on a thread of its own
    /// (inline when no thread can be started), then its tokens are counted and the skills
    /// `skills/list` leaves out are named on standard error
    /// ([`crate::agent::listable::stderr_lines`]). Returns at once. `init_wait` is how long
    /// `initialize` waits for the load ([`State::init_wait`]).
    pub fn open(config: WorkspaceConfig, init_wait: Option<Duration>) -> Arc<State> {
        let state = Self::loading(init_wait);
        let loader = Arc::clone(&state);
        super::run_on_thread("mcp-load", move || {
            loader.install(Workspace::open(config));
        });
        state
    }

    /// A state whose first load is not in place yet ([`State::install`] puts it there).
    fn loading(init_wait: Option<Duration>) -> Arc<State> {
        Arc::new(State {
            init_wait,
            current: Mutex::new(None),
            loaded: Condvar::new(),
            ready: tokio::sync::watch::Sender::new(false),
            dirty: AtomicBool::new(false),
            reloading: Mutex::new(()),
            changed: tokio::sync::Notify::new(),
            reported: Mutex::new(Vec::new()),
            files: Mutex::new(None),
            rescan_after_load: AtomicBool::new(false),
            watcher: Mutex::new(None),
        })
    }

    /// Put the first load in place, wake every waiter, count its tokens and report the
    /// skills left out.
    fn install(&self, ws: Workspace) {
        let ws = Arc::new(ws);
        count_in_background(&ws);
        *lock(&self.current) = Some(Arc::clone(&ws));
        self.loaded.notify_all();
        self.ready.send_replace(true);
        self.report_left_out(&ws);
        if self.rescan_after_load.swap(false, Ordering::SeqCst) {
            self.rescan();
        }
    }

    /// Keep `watcher` for as long as this state lives.
    pub fn keep_watcher(&self, watcher: notify::RecommendedWatcher) {
        *lock(&self.watcher) = Some(watcher);
    }

    /// The workspace once the first load is done, waiting for it without blocking the
    /// runtime.
    pub async fn ready(&self) -> Arc<Workspace> {
        let mut rx = self.ready.subscribe();
        let _ = rx.wait_for(|done| *done).await;
        self.snapshot()
    }

    /// The workspace if the first load finishes within `wait`, else `None`.
    pub fn loaded_within(&self, wait: Duration) -> Option<Arc<Workspace>> {
        let until = Instant::now() + wait;
        let mut g = lock(&self.current);
        loop {
            if let Some(ws) = g.as_ref() {
                return Some(Arc::clone(ws));
            }
            let left = until.checked_duration_since(Instant::now())?;
            g = match self.loaded.wait_timeout(g, left) {
                Ok((g, _)) => g,
                Err(p) => p.into_inner().0,
            };
        }
    }

    /// Write the left-out report of `ws` to standard error when it differs from the last
    /// one written (nothing when no skill is left out and none was before; one line saying
    /// so when none is left out any more).
    fn report_left_out(&self, ws: &Workspace) {
        let lines = listable::stderr_lines(&skills::left_out(ws));
        let mut last = lock(&self.reported);
        if *last != lines {
            if lines.is_empty() {
                eprintln!("skillnav: skills/list leaves out no skill any more");
            }
            for l in &lines {
                eprintln!("{l}");
            }
            *last = lines;
        }
    }

    /// The current workspace, reloaded first when the watcher saw a change, or when a file
    /// behind one of `ids` changed on disk (so a read never serves stale text). One request
    /// reloads at a time; the others wait for it and get the reloaded workspace.
    pub fn fresh(&self, ids: &[NodeId]) -> Arc<Workspace> {
        let _one_at_a_time = lock(&self.reloading);
        let ws = self.snapshot();
        if self.dirty.swap(false, Ordering::SeqCst) || ws.changed_on_disk(ids) {
            return self.reload(&ws);
        }
        ws
    }

    /// Mark the files changed when one of `paths` (a file event's) is not a loaded file as
    /// it was loaded ([`LoadedFiles::unchanged`]); before the first load, always.
    pub fn paths_changed(&self, paths: &[std::path::PathBuf]) {
        let changed = match self.loaded_files() {
            Some(files) => paths.iter().any(|p| !files.unchanged(p)),
            None => true,
        };
        if changed {
            self.mark_changed();
        }
    }

    /// The watcher lost events: mark the files changed only when some loaded file differs
    /// from the disk ([`LoadedFiles::all_unchanged`]), so an overflow on a huge tree does
    /// not reload what did not change. A file created while events were lost is seen at
    /// the next event in its folder, or when a request reads a changed file. Events lost
    /// while the first load runs (a tree rewritten in bulk meanwhile, for one) are checked
    /// the same way once that load is in place, instead of making the first request load
    /// everything again.
    pub fn rescan(&self) {
        let Some(files) = self.loaded_files() else {
            self.rescan_after_load.store(true, Ordering::SeqCst);
            // The first load may have been put in place meanwhile: never leave the flag
            // for nobody to see.
            if self.loaded_files().is_some() && self.rescan_after_load.swap(false, Ordering::SeqCst)
            {
                self.rescan();
            }
            return;
        };
        if !files.all_unchanged() {
            self.mark_changed();
        }
    }

    /// The loaded files of the current workspace, built once per load.
    fn loaded_files(&self) -> Option<Arc<LoadedFiles>> {
        let ws = lock(&self.current).clone()?;
        let mut cache = lock(&self.files);
        match &*cache {
            Some((generation, files)) if *generation == ws.generation => Some(Arc::clone(files)),
            _ => {
                let files = Arc::new(LoadedFiles::of(&ws));
                *cache = Some((ws.generation, Arc::clone(&files)));
                Some(files)
            }
        }
    }

    /// Mark the files changed: the next request reloads, and the list-changed follower
    /// wakes.
    pub fn mark_changed(&self) {
        self.dirty.store(true, Ordering::SeqCst);
        self.changed.notify_one();
    }

    /// The current workspace as it is; while the first load runs, blocks the calling
    /// thread until it is done (async handlers await [`State::ready`] first).
    pub fn snapshot(&self) -> Arc<Workspace> {
        let mut g = lock(&self.current);
        loop {
            if let Some(ws) = g.as_ref() {
                return Arc::clone(ws);
            }
            g = match self.loaded.wait(g) {
                Ok(g) => g,
                Err(p) => p.into_inner(),
            };
        }
    }

    fn reload(&self, old: &Workspace) -> Arc<Workspace> {
        let ws = Arc::new(old.reopen());
        count_in_background(&ws);
        // The old workspace is released once its requests are done: drop the file list
        // that holds it.
        *lock(&self.files) = None;
        *lock(&self.current) = Some(Arc::clone(&ws));
        self.report_left_out(&ws);
        ws
    }
}

/// `m` locked, a poisoned lock taken as it is (the data is a plain value or an `Arc`).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// Count every node of `ws` on a thread of its own and hand the table to `ws`; then give
/// the memory counting freed back to the system (it read every text a persisted index
/// holds and let it go: docs/DESIGN.md §8 "Persisted index").
fn count_in_background(ws: &Arc<Workspace>) {
    let ws = Arc::clone(ws);
    std::thread::spawn(move || {
        let table = ws.count_tokens();
        ws.set_tokens(table);
        crate::util::memory::trim();
    });
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    use super::State;
    use crate::agent::outline::tree_tests::config;

    #[test]
    fn lost_events_reload_only_when_a_loaded_file_changed() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("guide.md");
        std::fs::write(&file, "# Guide\n\nText.\n").unwrap();
        let state = State::open(config(tmp.path()), None);
        assert!(state.loaded_within(Duration::from_secs(60)).is_some());
        state.rescan();
        state.paths_changed(&[std::fs::canonicalize(&file).unwrap()]);
        assert!(!state.dirty.load(Ordering::SeqCst), "nothing changed");
        std::fs::write(&file, "# Guide\n\nOther text.\n").unwrap();
        state.rescan();
        assert!(state.dirty.load(Ordering::SeqCst), "an edit is a change");
    }

    #[test]
    fn events_lost_during_the_first_load_reload_only_when_a_loaded_file_changed() {
        use crate::agent::workspace::Workspace;
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("guide.md");
        std::fs::write(&file, "# Guide\n\nText.\n").unwrap();
        // The load's own reads overflow the watcher's queue before the load is in place.
        let state = State::loading(None);
        state.rescan();
        assert!(
            !state.dirty.load(Ordering::SeqCst),
            "nothing to compare with yet"
        );
        state.install(Workspace::open(config(tmp.path())));
        assert!(
            !state.dirty.load(Ordering::SeqCst),
            "nothing changed: no reload"
        );
        let state = State::loading(None);
        let ws = Workspace::open(config(tmp.path()));
        state.rescan();
        std::fs::write(&file, "# Guide\n\nOther, longer text.\n").unwrap();
        state.install(ws);
        assert!(
            state.dirty.load(Ordering::SeqCst),
            "an edit during the load is a change"
        );
    }

    #[test]
    fn requests_that_come_during_a_reload_get_the_reloaded_workspace() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..200 {
            let text = format!("# Page {i}\n\nSome text about page {i}.\n\n## More\n\nMore.\n");
            std::fs::write(tmp.path().join(format!("p{i}.md")), text).unwrap();
        }
        let state = State::open(config(tmp.path()), None);
        let before = state
            .loaded_within(Duration::from_secs(60))
            .unwrap()
            .generation;
        for round in 1..=3u64 {
            state.mark_changed();
            let go = std::sync::Arc::new(std::sync::Barrier::new(6));
            let seen: Vec<u64> = (0..6)
                .map(|_| {
                    let (state, go) = (std::sync::Arc::clone(&state), std::sync::Arc::clone(&go));
                    std::thread::spawn(move || {
                        go.wait();
                        state.fresh(&[]).generation
                    })
                })
                .collect::<Vec<_>>()
                .into_iter()
                .map(|h| h.join().unwrap())
                .collect();
            // One reload per change, and no request answers from the stale workspace.
            assert_eq!(seen, vec![before + round; 6], "round {round}");
        }
    }

    #[test]
    fn an_event_on_a_new_file_is_a_change() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("guide.md"), "# Guide\n").unwrap();
        let state = State::open(config(tmp.path()), None);
        assert!(state.loaded_within(Duration::from_secs(60)).is_some());
        state.paths_changed(&[tmp.path().join("new.md")]);
        assert!(state.dirty.load(Ordering::SeqCst));
    }
}
