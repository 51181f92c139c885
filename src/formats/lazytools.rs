//! lazytools / lazytoolkit doc-skill bundles (FORMATS §2): manifest.json + vocab.json +
//! chunks.jsonl (+ SKILL.md).
//!
//! CONTRACT (owned by the lazytools helper).

use std::path::Path;

use crate::model::{Corpus, NodeId};

/// Whether `dir` holds a bundle (manifest.json, vocab.json and chunks.jsonl).
pub fn is_bundle(dir: &Path) -> bool {
    dir.join("manifest.json").is_file()
        && dir.join("vocab.json").is_file()
        && dir.join("chunks.jsonl").is_file()
}

/// Load the bundle in `dir` (relative path `rel` inside its root, `""` for the root itself)
/// as children of `parent`, registering its [`crate::model::BundleStats`] in
/// `corpus.bundles` keyed by `parent`. Problems become warnings naming file and line.
pub fn load(_corpus: &mut Corpus, _parent: NodeId, _dir: &Path, _rel: &str) {
    todo!("lazytools helper")
}
