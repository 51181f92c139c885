//! Whether a load on this thread may let the texts of the markdown files it sections go
//! (docs/DESIGN.md §8 "Memory"): [`while_spilling`] runs a load so; the persisted index
//! (`crate::store::open`) asks for it on a full load, which indexes the texts by reading
//! the files again one at a time. A front end that keeps previews of what it shows (the
//! TUI) does not ask for it.

use std::cell::Cell;

thread_local! {
    static SPILL: Cell<bool> = const { Cell::new(false) };
}

/// Run `load` with spilling on for this thread (restored afterwards, also on a panic).
pub fn while_spilling<R>(load: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SPILL.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SPILL.with(|s| s.replace(true)));
    load()
}

/// Whether spilling is on for this thread.
pub(crate) fn on() -> bool {
    SPILL.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spilling_is_on_only_inside_the_call_and_restored_after_a_panic() {
        assert!(!on());
        assert!(while_spilling(on));
        let caught = std::panic::catch_unwind(|| while_spilling(|| panic!("a loader bug")));
        assert!(caught.is_err());
        assert!(!on(), "restored after the panic");
    }
}
