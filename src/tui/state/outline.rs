//! The outline popup (`o`, docs/DESIGN.md §6): the headings of the current file (its sections,
//! chunks and parts, nested) with their token sizes; `Enter` jumps there in the tree and
//! the preview. State only; the keys are in `update/outline.rs`, drawing in
//! `view/outline.rs`.

use crate::model::{Corpus, NodeId, NodeKind};

/// The open outline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    /// The file (or other text container) outlined.
    pub file: NodeId,
    /// Its text units in document order, with their depth below `file` (1 = top level).
    pub items: Vec<(NodeId, u16)>,
    /// Cursor (index into `items`).
    pub cursor: usize,
    /// First item drawn.
    pub offset: usize,
}

/// The file `id` belongs to: itself or its nearest `File` ancestor; for a file-less text
/// unit (a bundle chunk) its parent.
pub fn outline_root(corpus: &Corpus, id: NodeId) -> Option<NodeId> {
    if let Some(f) = std::iter::once(id)
        .chain(corpus.ancestors(id))
        .find(|n| corpus.node(*n).kind == NodeKind::File)
    {
        return Some(f);
    }
    let n = corpus.node(id);
    if n.kind.is_text_unit() {
        n.parent
    } else {
        (!n.children.is_empty()).then_some(id)
    }
}

/// The text units below `root` (and the groups holding them) in document order with their
/// depth.
pub fn items(corpus: &Corpus, root: NodeId) -> Vec<(NodeId, u16)> {
    let mut out = Vec::new();
    let mut stack: Vec<(NodeId, u16)> = corpus
        .node(root)
        .children
        .iter()
        .rev()
        .map(|c| (*c, 1))
        .collect();
    while let Some((n, d)) = stack.pop() {
        let node = corpus.node(n);
        // A group (an llms-ctx `<docs>` element) is listed with its parts below it.
        if node.kind.is_text_unit() || node.kind == NodeKind::Group {
            out.push((n, d));
            stack.extend(
                node.children
                    .iter()
                    .rev()
                    .map(|c| (*c, d.saturating_add(1))),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node};

    #[test]
    fn outline_lists_nested_sections_of_the_file() {
        let mut c = Corpus::new();
        let r = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
        let f = c.add_child(
            r,
            Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md"),
        );
        let s1 = c.add_child(
            f,
            Node::new(NodeKind::Section, Format::Markdown, "One", "a.md"),
        );
        let s11 = c.add_child(
            s1,
            Node::new(NodeKind::Section, Format::Markdown, "One.1", "a.md"),
        );
        let s2 = c.add_child(
            f,
            Node::new(NodeKind::Section, Format::Markdown, "Two", "a.md"),
        );
        c.finalize();
        assert_eq!(outline_root(&c, s11), Some(f));
        assert_eq!(outline_root(&c, f), Some(f));
        assert_eq!(outline_root(&c, r), Some(r));
        assert_eq!(items(&c, f), vec![(s1, 1), (s11, 2), (s2, 1)]);
    }
}
