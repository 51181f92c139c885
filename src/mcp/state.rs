//! The server's shared state: the current [`Workspace`] behind an `Arc` that a reload
//! swaps, the "files changed" flag and signal the watcher sets (the signal wakes
//! [`super::changes`]), token counting on a background
//! thread after every (re)load, and the standard-error report of the skills `skills/list`
//! leaves out (after the first load, and after a reload that changes it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::agent::workspace::Workspace;
use crate::agent::workspace::WorkspaceConfig;
use crate::agent::{listable, skills};
use crate::model::NodeId;

/// What every request handler shares.
#[derive(Debug)]
pub struct State {
    current: RwLock<Arc<Workspace>>,
    /// Set by the file watcher: some file under a root changed since the last load.
    pub dirty: AtomicBool,
    /// Signalled with `dirty`: wakes the list-changed follower ([`super::changes::follow`]).
    pub changed: tokio::sync::Notify,
    /// The left-out report last written to standard error.
    reported: Mutex<Vec<String>>,
}

impl State {
    /// Load `config`, start counting its tokens, and name on standard error the skills
    /// `skills/list` leaves out, with why ([`crate::agent::listable::stderr_lines`]).
    pub fn open(config: WorkspaceConfig) -> Arc<State> {
        let ws = Arc::new(Workspace::open(config));
        count_in_background(&ws);
        let state = Arc::new(State {
            current: RwLock::new(Arc::clone(&ws)),
            dirty: AtomicBool::new(false),
            changed: tokio::sync::Notify::new(),
            reported: Mutex::new(Vec::new()),
        });
        state.report_left_out(&ws);
        state
    }

    /// Write the left-out report of `ws` to standard error when it differs from the last
    /// one written (nothing when no skill is left out and none was before; one line saying
    /// so when none is left out any more).
    fn report_left_out(&self, ws: &Workspace) {
        let lines = listable::stderr_lines(&skills::left_out(ws));
        let mut last = match self.reported.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
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
    /// behind one of `ids` changed on disk (so a read never serves stale text).
    pub fn fresh(&self, ids: &[NodeId]) -> Arc<Workspace> {
        let ws = self.snapshot();
        if self.dirty.swap(false, Ordering::SeqCst) || ws.changed_on_disk(ids) {
            return self.reload(&ws);
        }
        ws
    }

    /// Mark the files changed: the next request reloads, and the list-changed follower
    /// wakes.
    pub fn mark_changed(&self) {
        self.dirty.store(true, Ordering::SeqCst);
        self.changed.notify_one();
    }

    /// The current workspace as it is.
    pub fn snapshot(&self) -> Arc<Workspace> {
        match self.current.read() {
            Ok(g) => Arc::clone(&g),
            Err(p) => Arc::clone(&p.into_inner()),
        }
    }

    fn reload(&self, old: &Workspace) -> Arc<Workspace> {
        let ws = Arc::new(old.reopen());
        count_in_background(&ws);
        match self.current.write() {
            Ok(mut g) => *g = Arc::clone(&ws),
            Err(p) => *p.into_inner() = Arc::clone(&ws),
        }
        self.report_left_out(&ws);
        ws
    }
}

/// Count every node of `ws` on a thread of its own and hand the table to `ws`.
fn count_in_background(ws: &Arc<Workspace>) {
    let ws = Arc::clone(ws);
    std::thread::spawn(move || {
        let table = ws.count_tokens();
        ws.set_tokens(table);
    });
}
