//! The user's selection of nodes: a parent selects its subtree, partial selection is
//! reported as such, and nothing is counted twice.

use std::collections::BTreeSet;

use super::corpus::Corpus;
use super::node::NodeId;

/// How much of a node's subtree is selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing below or at the node.
    None,
    /// Some descendants, not all.
    Partial,
    /// The node (and so its whole subtree).
    Full,
}

/// A normalised set of selected nodes: no member is a descendant of another member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    set: BTreeSet<NodeId>,
}

impl Selection {
    /// An empty selection.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of selected top-level members.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Selected members (normalised), in arena order.
    pub fn members(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.set.iter().copied()
    }

    /// Remove everything.
    pub fn clear(&mut self) {
        self.set.clear();
    }

    /// The mark of `id`.
    pub fn mark(&self, corpus: &Corpus, id: NodeId) -> Mark {
        if self.set.contains(&id) || corpus.ancestors(id).any(|a| self.set.contains(&a)) {
            return Mark::Full;
        }
        if self
            .set
            .iter()
            .any(|s| corpus.ancestors(*s).any(|a| a == id))
        {
            return Mark::Partial;
        }
        Mark::None
    }

    /// Toggle `id`: a fully selected node (directly or through an ancestor) is deselected
    /// (an ancestor member is split into its other children); otherwise `id` is selected and
    /// any selected descendants are absorbed.
    pub fn toggle(&mut self, corpus: &Corpus, id: NodeId) {
        match self.mark(corpus, id) {
            Mark::Full => self.deselect(corpus, id),
            _ => self.select(corpus, id),
        }
    }

    /// Select `id` and its subtree. When that completes a container without text of its
    /// own (a folder, a skill, a root: every child now selected), the container becomes the
    /// member instead, up the tree, so it shows as fully selected.
    pub fn select(&mut self, corpus: &Corpus, id: NodeId) {
        if self.mark(corpus, id) == Mark::Full {
            return;
        }
        self.set.retain(|s| !corpus.is_within(*s, id));
        self.set.insert(id);
        let mut cur = id;
        while let Some(p) = corpus.node(cur).parent {
            let parent = corpus.node(p);
            if parent.span.is_some() || !parent.children.iter().all(|c| self.set.contains(c)) {
                break;
            }
            for c in &parent.children {
                self.set.remove(c);
            }
            self.set.insert(p);
            cur = p;
        }
    }

    /// Deselect `id` and its subtree, keeping the rest of any selected ancestor.
    pub fn deselect(&mut self, corpus: &Corpus, id: NodeId) {
        if self.set.remove(&id) {
            return;
        }
        self.set.retain(|s| !corpus.is_within(*s, id));
        // Split the selected ancestor (if any) into the siblings along the path.
        let path: Vec<NodeId> = std::iter::once(id).chain(corpus.ancestors(id)).collect();
        if let Some(pos) = path.iter().position(|a| self.set.contains(a)) {
            let anc = path[pos];
            self.set.remove(&anc);
            for w in (1..=pos).rev() {
                let (child_on_path, parent) = (path[w - 1], path[w]);
                for c in &corpus.node(parent).children {
                    if *c != child_on_path {
                        self.set.insert(*c);
                    }
                }
            }
        }
    }

    /// The text-bearing nodes the selection stands for, in document order, each once:
    /// nodes with a text span whose nearest text-bearing ancestor is not also included,
    /// skipping `duplicate`/`alias` copies. Containers (skills, dirs) expand to their files.
    pub fn units(&self, corpus: &Corpus) -> Vec<NodeId> {
        let mut out = Vec::new();
        for root in &corpus.roots {
            let mut stack = vec![*root];
            while let Some(n) = stack.pop() {
                let node = corpus.node(n);
                // Copies reached through a selected parent are skipped (their canonical text
                // is counted once); a copy the user selected itself is included.
                if node.flags.is_copy() && !self.set.contains(&n) {
                    continue;
                }
                if node.span.is_some() && self.mark(corpus, n) == Mark::Full {
                    out.push(n);
                    continue;
                }
                if self.mark(corpus, n) != Mark::None {
                    stack.extend(node.children.iter().rev().copied());
                }
            }
        }
        out
    }

    /// Σ bytes of [`Selection::units`].
    pub fn bytes(&self, corpus: &Corpus) -> u64 {
        self.units(corpus)
            .into_iter()
            .map(|u| corpus.node(u).bytes)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node, NodeKind, TextSpan};

    /// root ▸ dir ▸ (a.md ▸ (s1, s2), b.md); a.md has text of its own.
    fn corpus() -> (Corpus, [NodeId; 6]) {
        let mut c = Corpus::new();
        let src = c.add_source(crate::model::Source::virtual_text(
            "# A\n\n## S1\n\nx\n\n## S2\n\ny\n".into(),
        ));
        let r = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
        let d = c.add_child(r, Node::new(NodeKind::Dir, Format::Markdown, "d", "d"));
        let mut a = Node::new(NodeKind::File, Format::Markdown, "a.md", "d/a.md");
        a.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: 5,
            end: 24,
        });
        let a = c.add_child(d, a);
        let mut s1 = Node::new(NodeKind::Section, Format::Markdown, "S1", "d/a.md");
        s1.span = Some(TextSpan {
            source: src,
            start: 5,
            own_end: 14,
            end: 14,
        });
        let s1 = c.add_child(a, s1);
        let mut s2 = Node::new(NodeKind::Section, Format::Markdown, "S2", "d/a.md");
        s2.span = Some(TextSpan {
            source: src,
            start: 14,
            own_end: 24,
            end: 24,
        });
        let s2 = c.add_child(a, s2);
        let b = c.add_child(
            d,
            Node::new(NodeKind::File, Format::Markdown, "b.md", "d/b.md"),
        );
        c.finalize();
        (c, [r, d, a, s1, s2, b])
    }

    #[test]
    fn selecting_every_child_of_a_container_selects_the_container() {
        let (c, [r, d, a, _, _, b]) = corpus();
        let mut s = Selection::new();
        s.select(&c, a);
        assert_eq!(s.mark(&c, d), Mark::Partial);
        s.select(&c, b);
        // The folder (and the root holding only it) has no text of its own: complete.
        assert_eq!(s.mark(&c, d), Mark::Full);
        assert_eq!(s.mark(&c, r), Mark::Full);
        assert_eq!(s.members().collect::<Vec<_>>(), [r]);
        s.deselect(&c, b);
        assert_eq!(s.mark(&c, d), Mark::Partial);
        assert_eq!(s.mark(&c, a), Mark::Full);
    }

    #[test]
    fn selecting_every_sub_section_leaves_a_file_with_own_text_partial() {
        let (c, [_, _, a, s1, s2, _]) = corpus();
        let mut s = Selection::new();
        s.select(&c, s1);
        s.select(&c, s2);
        assert_eq!(
            s.mark(&c, a),
            Mark::Partial,
            "a.md's own text (# A) is not selected"
        );
        assert_eq!(s.len(), 2);
    }
}
