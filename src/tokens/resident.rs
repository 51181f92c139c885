//! The process's loaded BPE tables, one slot per encoding: loaded on first use (or ahead of
//! it by [`prefetch`]), shared as an `Arc`, and freed by [`release`] once the last user is
//! done with them (the next count loads them again).
//!
//! Tables load on a thread of their own (a new allocator arena), so releasing them gives
//! their memory back instead of leaving holes between long-lived allocations.
//!
//! A load runs under the slot's lock, so callers that need the tables while a prefetch is
//! loading them wait for that load instead of starting a second one, and [`now`] tells a
//! caller that would rather do other work meanwhile. The pre-tokenizer has a slot of its own
//! ([`pre`]): it is ready about 10 ms into a load, well before the tables.

use std::sync::{Arc, Mutex, TryLockError};

use super::Encoding;
use super::pretokenize::Pre;
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
static O200K_PRE: Mutex<Option<Arc<Pre>>> = Mutex::new(None);
static CL100K_PRE: Mutex<Option<Arc<Pre>>> = Mutex::new(None);

fn slot(encoding: Encoding) -> Option<&'static Mutex<Slot>> {
    match encoding {
        Encoding::O200kBase => Some(&O200K),
        Encoding::Cl100kBase => Some(&CL100K),
        Encoding::Bytes4 => None,
    }
}

fn pre_slot(encoding: Encoding) -> Option<&'static Mutex<Option<Arc<Pre>>>> {
    match encoding {
        Encoding::O200kBase => Some(&O200K_PRE),
        Encoding::Cl100kBase => Some(&CL100K_PRE),
        Encoding::Bytes4 => None,
    }
}

/// The pre-tokenizer of `encoding`, compiling it now unless a load (or another caller) has:
/// a caller that comes while it compiles waits for that compile. `None` for `bytes4` or if
/// it does not compile (then the tables do not load either).
pub fn pre(encoding: Encoding) -> Option<Arc<Pre>> {
    let mut s = pre_slot(encoding)?.lock().ok()?;
    if let Some(p) = &*s {
        return Some(Arc::clone(p));
    }
    let p = Arc::new(Pre::new(encoding)?);
    *s = Some(Arc::clone(&p));
    Some(p)
}

/// Where the tables of an encoding stand, asked without waiting ([`now`]).
pub enum Now {
    /// Loaded: count with these.
    Ready(Arc<Tables>),
    /// Not loaded yet: being loaded, or not asked for.
    NotYet,
    /// They did not load (or never can: `bytes4`); counts use `bpe-openai`'s own tables.
    Failed,
}

/// Where the tables of `encoding` stand now, without waiting for a load under way.
pub fn now(encoding: Encoding) -> Now {
    let Some(m) = slot(encoding) else {
        return Now::Failed;
    };
    match m.try_lock() {
        Ok(s) => match &*s {
            Slot::Loaded(t) => Now::Ready(Arc::clone(t)),
            Slot::Empty => Now::NotYet,
            Slot::Failed => Now::Failed,
        },
        Err(TryLockError::WouldBlock) => Now::NotYet,
        Err(TryLockError::Poisoned(_)) => Now::Failed,
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
        .spawn(move || Tables::load(encoding, move || pre(encoding)));
    match spawned {
        Ok(h) => h.join().ok().flatten(),
        Err(_) => Tables::load(encoding, move || pre(encoding)),
    }
}

/// Start loading the tables of `encoding` on a background thread (no-op when they are loaded
/// or being loaded, and for `bytes4`). Never waits.
pub fn prefetch(encoding: Encoding) {
    let Some(m) = slot(encoding) else { return };
    let empty = m.try_lock().is_ok_and(|s| matches!(*s, Slot::Empty));
    if !empty {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("bpe-load".into())
        .spawn(move || drop(get(encoding)));
    // No thread: the first count loads them instead.
    drop(spawned);
}

/// Drop the process's reference to the tables and the pre-tokenizer of `encoding`: their
/// memory is returned once the counters still holding them finish.
pub fn release(encoding: Encoding) {
    if let Some(m) = slot(encoding)
        && let Ok(mut s) = m.lock()
        && matches!(*s, Slot::Loaded(_))
    {
        *s = Slot::Empty;
        if let Some(p) = pre_slot(encoding)
            && let Ok(mut p) = p.lock()
        {
            *p = None;
        }
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
