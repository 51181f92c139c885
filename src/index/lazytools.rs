//! lazytools' BM25 (FORMATS §2.5–2.7) on bundles: its tokenizer, stopwords, vocab.json IDF,
//! manifest avgdl, heading and phrase boosts — reproducing its scores exactly.
//!
//! CONTRACT (owned by the lazytools helper).

use crate::model::{BundleStats, NodeId};

/// Score every chunk of `bundle` for `query`; return the top `top_k` `(chunk node, score)`
/// pairs with score > 0, best first, ties in chunk order (lazytools' stable sort).
pub fn search(_bundle: &BundleStats, _query: &str, _top_k: usize) -> Vec<(NodeId, f64)> {
    todo!("lazytools helper")
}
