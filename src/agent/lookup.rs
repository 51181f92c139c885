//! Finding a node by what an agent or a user typed: an id, else a title.

use crate::model::id::nfc;
use crate::model::{Corpus, NodeId};

/// Find a node by exact id, else by exact title (first in document order, copies skipped),
/// else by case-insensitive title. Ids and titles match in either Unicode form (NFC or the
/// node's own, e.g. a decomposed macOS file name).
pub fn resolve(corpus: &Corpus, key: &str) -> Option<NodeId> {
    if let Some(id) = corpus.find(key) {
        return Some(id);
    }
    let all = corpus.all_preorder();
    let key = nfc(key);
    all.iter()
        .copied()
        .find(|n| nfc(&corpus.node(*n).title) == key && !corpus.is_copy(*n))
        .or_else(|| {
            all.iter().copied().find(|n| {
                nfc(&corpus.node(*n).title).eq_ignore_ascii_case(&key) && !corpus.is_copy(*n)
            })
        })
}
