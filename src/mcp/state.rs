//! The server's shared state: the current [`Workspace`] behind an `Arc` that a reload
//! swaps, the "files changed" flag the watcher sets, and token counting on a background
//! thread after every (re)load.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use crate::agent::workspace::Workspace;
use crate::agent::workspace::WorkspaceConfig;
use crate::model::NodeId;

/// What every request handler shares.
#[derive(Debug)]
pub struct State {
    current: RwLock<Arc<Workspace>>,
    /// Set by the file watcher: some file under a root changed since the last load.
    pub dirty: AtomicBool,
}

impl State {
    /// Load `config` and start counting its tokens.
    pub fn open(config: WorkspaceConfig) -> Arc<State> {
        let ws = Arc::new(Workspace::open(config));
        count_in_background(&ws);
        Arc::new(State {
            current: RwLock::new(ws),
            dirty: AtomicBool::new(false),
        })
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
