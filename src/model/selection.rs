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
        if self.set.iter().any(|s| corpus.ancestors(*s).any(|a| a == id)) {
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

    /// Select `id` and its subtree.
    pub fn select(&mut self, corpus: &Corpus, id: NodeId) {
        if self.mark(corpus, id) == Mark::Full {
            return;
        }
        self.set.retain(|s| !corpus.is_within(*s, id));
        self.set.insert(id);
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

    /// Σ tokens of [`Selection::units`] from `table`, and whether every unit was counted.
    pub fn tokens(&self, corpus: &Corpus, table: &crate::tokens::TokenTable) -> (u64, bool) {
        let mut sum = 0;
        let mut complete = true;
        for u in self.units(corpus) {
            match table.total(u) {
                Some(t) => sum += t,
                None => complete = false,
            }
        }
        (sum, complete)
    }

    /// Σ bytes of [`Selection::units`].
    pub fn bytes(&self, corpus: &Corpus) -> u64 {
        self.units(corpus).into_iter().map(|u| corpus.node(u).bytes).sum()
    }
}
