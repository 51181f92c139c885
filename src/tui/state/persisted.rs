//! [`Persisted`]: what the persisted index gave the TUI's load, or takes once the load is
//! indexed (docs/DESIGN.md §8 "Persisted index").

use std::sync::Arc;

use crate::index::{FuzzyIndex, Index};

/// What the persisted index gave a load, or takes once its indexes are built.
#[derive(Clone, Debug, Default)]
pub enum Persisted {
    /// Nothing is persisted (`--no-index-cache`, a remote root, no cache folder, a test).
    #[default]
    None,
    /// The roots came whole from the persisted index, finished and indexed: these indexes
    /// are used instead of building new ones.
    Restored(Arc<Index>, Arc<FuzzyIndex>),
    /// The index file to write once the indexes are built, with its manifest.
    Pending(Arc<crate::store::Pending>),
}

impl PartialEq for Persisted {
    /// The same variant holding the same indexes or the same pending file (by pointer).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Persisted::None, Persisted::None) => true,
            (Persisted::Restored(a, b), Persisted::Restored(c, d)) => {
                Arc::ptr_eq(a, c) && Arc::ptr_eq(b, d)
            }
            (Persisted::Pending(a), Persisted::Pending(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}
