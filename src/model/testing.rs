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
