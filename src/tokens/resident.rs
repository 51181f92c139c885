//! The process's loaded BPE tables, one slot per encoding: loaded on first use (or ahead of
//! it by [`prefetch`]), shared as an `Arc`, and freed by [`release`] once the last user is
//! done with them (the next count loads them again).
//!
//! Tables load on a thread of their own (a new allocator arena), so releasing them gives
//! their memory back instead of leaving holes between long-lived allocations.
//!
//! A load runs under the slot's lock, so callers that need the tables while a prefetch is
//! loading them wait for that load instead of starting a second one.

use std::sync::{Arc, Mutex};

use super::Encoding;
use super::tables::Tables;

/// What a slot holds.
enum Slot {
    /// Nothing loaded (never, or released).
    Empty,
    Loaded(Arc<Tables>),
    /// The embedded tables did not load: count with `bpe-openai`'s (kept, not retried).
    Failed,
}

static O200K: Mutex<Slot> = Mutex::new(Slot::Empty);
static CL100K: Mutex<Slot> = Mutex::new(Slot::Empty);

fn slot(encoding: Encoding) -> Option<&'static Mutex<Slot>> {
    match encoding {
        Encoding::O200kBase => Some(&O200K),
        Encoding::Cl100kBase => Some(&CL100K),
        Encoding::Bytes4 => None,
    }
}

/// The tables of `encoding`, loading them now if needed; `None` for `bytes4` or when the
/// embedded tables fail to load.
pub fn get(encoding: Encoding) -> Option<Arc<Tables>> {
    let mut s = slot(encoding)?.lock().ok()?;
    match &*s {
        Slot::Loaded(t) => Some(Arc::clone(t)),
        Slot::Failed => None,
        Slot::Empty => {
            let Some(t) = load_apart(encoding) else {
                *s = Slot::Failed;
                return None;
            };
            let t = Arc::new(t);
            *s = Slot::Loaded(Arc::clone(&t));
            Some(t)
        }
    }
}

/// Load the tables of `encoding` on a thread of their own, joined before returning: the
/// allocator gives a new thread an arena of its own, so the tables do not sit between the
/// caller's long-lived allocations and their memory goes back to the system when they are
/// released (docs/DESIGN.md §8). Loads on the calling thread when no thread can start.
fn load_apart(encoding: Encoding) -> Option<Tables> {
    let spawned = std::thread::Builder::new()
        .name("bpe-load".into())
        .spawn(move || Tables::load(encoding));
    match spawned {
        Ok(h) => h.join().ok().flatten(),
        Err(_) => Tables::load(encoding),
    }
}

/// Whether the tables of `encoding` are loaded now.
pub fn is_loaded(encoding: Encoding) -> bool {
    slot(encoding)
        .and_then(|m| m.lock().ok())
        .is_some_and(|s| matches!(*s, Slot::Loaded(_)))
}

/// Start loading the tables of `encoding` on a background thread (no-op when loaded or for
/// `bytes4`).
pub fn prefetch(encoding: Encoding) {
    if slot(encoding).is_none() || is_loaded(encoding) {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("bpe-load".into())
        .spawn(move || drop(get(encoding)));
    // No thread: the first count loads them instead.
    drop(spawned);
}

/// Drop the process's reference to the tables of `encoding`: their memory is returned once
/// the counters still holding them finish.
pub fn release(encoding: Encoding) {
    if let Some(m) = slot(encoding)
        && let Ok(mut s) = m.lock()
        && matches!(*s, Slot::Loaded(_))
    {
        *s = Slot::Empty;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_loaded_apart_count_the_same_after_a_release() {
        let text = "Released tables load again: naïve café, 渐进式披露 \r\n  x";
        let first = get(Encoding::Cl100kBase).unwrap().count(text);
        release(Encoding::Cl100kBase);
        let again = get(Encoding::Cl100kBase).unwrap().count(text);
        assert_eq!(first, again);
        assert_eq!(first, bpe_openai::cl100k_base().count(text) as u64);
        assert!(get(Encoding::Bytes4).is_none());
    }
}
