//! Small corpora for the crate's unit tests (compiled only under `cfg(test)`).

use super::{Corpus, Format, Node, NodeKind, Source, TextSpan};

/// A finalized corpus of one root labelled `label` holding one markdown file `a.md` whose
/// whole text is `text` (a virtual source, no file on disk).
pub fn one_file_root(label: &str, text: &str) -> Corpus {
    let mut c = Corpus::new();
    let src = c.add_source(Source::virtual_text(text.to_string()));
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, label, ""));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: text.len(),
        end: text.len(),
    });
    c.add_child(root, f);
    c.finalize();
    c
}

/// A source of a new file `name` in `dir` holding `bytes`, read as the loader reads it
/// (its size and modification second recorded).
pub fn file_source(dir: &std::path::Path, name: &str, bytes: &[u8]) -> Source {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    let m = std::fs::metadata(&path).expect("metadata");
    let mtime = m
        .modified()
        .expect("mtime")
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after the epoch")
        .as_secs();
    Source::from_bytes(Some(path), bytes.to_vec(), m.len(), mtime)
}
