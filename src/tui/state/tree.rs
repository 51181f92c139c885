//! The tree pane's state: which nodes are expanded, the flattened visible rows, the cursor
//! and the scroll offset, and the per-folder sort orders. Pure state over a [`Corpus`]; no
//! drawing.
//!
//! One view-model rule lives here: a file whose only child is a heading section (a page
//! with one H1) is one row, the section's children shown one level below the file
//! ([`compact_tail`]); the core tree (and `skillnav tree`) keeps both nodes.

use std::collections::{HashMap, HashSet};

use crate::model::{Corpus, NodeId, NodeKind};

/// One visible row: a node and its depth (roots are depth 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The node shown.
    pub id: NodeId,
    /// Nesting depth (indent level).
    pub depth: u16,
}

/// How the children of one folder are ordered (`s` cycles natural → tokens → bytes → name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortKey {
    /// Biggest token count (Σ of the subtree) first.
    Tokens,
    /// Biggest byte size first.
    Bytes,
    /// By title, case-insensitive.
    Name,
}

impl SortKey {
    /// The next order after `current` (`None` is the loader's natural order).
    pub fn next(current: Option<SortKey>) -> Option<SortKey> {
        match current {
            None => Some(SortKey::Tokens),
            Some(SortKey::Tokens) => Some(SortKey::Bytes),
            Some(SortKey::Bytes) => Some(SortKey::Name),
            Some(SortKey::Name) => None,
        }
    }

    /// The word shown in the status line.
    pub fn label(current: Option<SortKey>) -> &'static str {
        match current {
            None => "natural order",
            Some(SortKey::Tokens) => "tokens",
            Some(SortKey::Bytes) => "bytes",
            Some(SortKey::Name) => "name",
        }
    }
}

/// Expanded set, visible rows, cursor (row index), first visible row and sort orders.
#[derive(Clone, Debug, Default)]
pub struct TreeState {
    /// Expanded nodes.
    pub expanded: HashSet<NodeId>,
    /// Rows in display order (recomputed by [`TreeState::rebuild`]).
    pub rows: Vec<Row>,
    /// Index of the cursor row in `rows`.
    pub cursor: usize,
    /// Index of the first row drawn.
    pub offset: usize,
    /// Folders shown in another order than the loader's: the key and the children in that
    /// order (used only while it is still a permutation of the folder's children, so a
    /// reload that changed them falls back to the natural order).
    pub sorted: HashMap<NodeId, (SortKey, Vec<NodeId>)>,
}

/// The node whose children a row of `id` shows: `id` itself, or, for a file whose only
/// child is a heading section, that section (one step only: a lone `##` under the lone `#`
/// keeps its own row, so it can be seen, selected and reached from a search hit).
pub fn compact_tail(corpus: &Corpus, id: NodeId) -> NodeId {
    let node = corpus.node(id);
    match node.children.as_slice() {
        [only] if node.kind == NodeKind::File && corpus.node(*only).kind == NodeKind::Section => {
            *only
        }
        _ => id,
    }
}

impl TreeState {
    /// The sort (`s`) that applies to `id`'s own children, with their order: `None` in the
    /// natural order, or when `id` is a file whose row shows a heading's children instead
    /// (its sort belongs to that heading).
    pub fn sort_of(&self, corpus: &Corpus, id: NodeId) -> Option<(SortKey, Vec<NodeId>)> {
        if compact_tail(corpus, id) != id {
            return None;
        }
        let (key, _) = self.sorted.get(&id)?;
        Some((*key, self.children_of(corpus, id)))
    }

    /// The children a row of `id` shows, in the folder's sort order.
    pub fn children_of(&self, corpus: &Corpus, id: NodeId) -> Vec<NodeId> {
        let tail = compact_tail(corpus, id);
        let kids = &corpus.node(tail).children;
        if let Some((_, order)) = self.sorted.get(&tail)
            && order.len() == kids.len()
            && order.iter().all(|k| kids.contains(k))
        {
            return order.clone();
        }
        kids.to_vec()
    }

    /// Recompute the visible rows, keeping the cursor on the same node when it is still
    /// visible (else on its nearest visible ancestor).
    pub fn rebuild(&mut self, corpus: &Corpus) {
        let current = self.current();
        self.rows.clear();
        let mut stack: Vec<Row> = corpus
            .roots
            .iter()
            .rev()
            .map(|r| Row { id: *r, depth: 0 })
            .collect();
        while let Some(row) = stack.pop() {
            self.rows.push(row);
            if self.expanded.contains(&row.id) {
                let kids = self.children_of(corpus, row.id);
                stack.extend(kids.iter().rev().map(|c| Row {
                    id: *c,
                    depth: row.depth.saturating_add(1),
                }));
            }
        }
        if let Some(cur) = current {
            self.cursor = self.row_of(corpus, cur).unwrap_or(0);
        }
        self.clamp();
    }

    /// The row showing `id`, else the row of its nearest visible ancestor.
    pub fn row_of(&self, corpus: &Corpus, id: NodeId) -> Option<usize> {
        std::iter::once(id)
            .chain(corpus.ancestors(id))
            .find_map(|n| self.rows.iter().position(|r| r.id == n))
    }

    /// The node under the cursor.
    pub fn current(&self) -> Option<NodeId> {
        self.rows.get(self.cursor).map(|r| r.id)
    }

    /// Keep the cursor inside the rows.
    pub fn clamp(&mut self) {
        self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
    }

    /// Move the cursor by `delta` rows (clamped).
    pub fn move_by(&mut self, delta: isize) {
        let max = self.rows.len().saturating_sub(1) as isize;
        self.cursor = (self.cursor as isize + delta).clamp(0, max.max(0)) as usize;
    }

    /// Adjust `offset` so the cursor is inside a window of `height` rows.
    pub fn scroll_to_cursor(&mut self, height: usize) {
        if height == 0 {
            return;
        }
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + height {
            self.offset = self.cursor + 1 - height;
        }
        let max_offset = self.rows.len().saturating_sub(height);
        self.offset = self.offset.min(max_offset);
    }

    /// Expand every ancestor of `id`, rebuild, and put the cursor on `id`.
    pub fn reveal(&mut self, corpus: &Corpus, id: NodeId) {
        for a in corpus.ancestors(id) {
            self.expanded.insert(a);
        }
        self.rebuild(corpus);
        if let Some(i) = self.row_of(corpus, id) {
            self.cursor = i;
        }
    }

    /// Put the first drawn row so the cursor sits a third of the way down a window of
    /// `height` rows (context above and below it), clamped to the rows.
    pub fn center_cursor(&mut self, height: usize) {
        let max_offset = self.rows.len().saturating_sub(height);
        self.offset = self.cursor.saturating_sub(height / 3).min(max_offset);
    }

    /// Collapse every node except the roots.
    pub fn collapse_all(&mut self, corpus: &Corpus) {
        self.expanded.retain(|id| corpus.node(*id).parent.is_none());
        self.rebuild(corpus);
    }

    /// Expand every visible row that has children: the tree shows one level more.
    /// Returns how many nodes opened.
    pub fn expand_level(&mut self, corpus: &Corpus) -> usize {
        let before = self.expanded.len();
        let open: Vec<NodeId> = self
            .rows
            .iter()
            .map(|r| r.id)
            .filter(|id| !self.children_of(corpus, *id).is_empty())
            .collect();
        self.expanded.extend(open);
        self.rebuild(corpus);
        self.expanded.len() - before
    }

    /// The row of the parent of the cursor row (the row it is drawn under).
    pub fn parent_row(&self) -> Option<usize> {
        let depth = self.rows.get(self.cursor)?.depth;
        (0..self.cursor).rev().find(|i| self.rows[*i].depth < depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node};

    fn corpus() -> (Corpus, NodeId, NodeId, NodeId) {
        let mut c = Corpus::new();
        let r = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
        let a = c.add_child(r, Node::new(NodeKind::Dir, Format::Markdown, "a", "a"));
        let b = c.add_child(
            a,
            Node::new(NodeKind::File, Format::Markdown, "b.md", "a/b.md"),
        );
        c.finalize();
        (c, r, a, b)
    }

    #[test]
    fn reveal_expands_ancestors_and_collapse_keeps_cursor_on_ancestor() {
        let (c, r, a, b) = corpus();
        let mut t = TreeState::default();
        t.rebuild(&c);
        assert_eq!(t.rows, vec![Row { id: r, depth: 0 }]);
        t.reveal(&c, b);
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.current(), Some(b));
        assert_eq!(t.rows[2].depth, 2);
        t.expanded.remove(&a);
        t.rebuild(&c);
        assert_eq!(t.current(), Some(a));
    }

    #[test]
    fn scroll_keeps_cursor_visible() {
        let mut t = TreeState {
            rows: vec![
                Row {
                    id: NodeId(0),
                    depth: 0
                };
                10
            ],
            ..Default::default()
        };
        t.move_by(7);
        t.scroll_to_cursor(3);
        assert_eq!((t.cursor, t.offset), (7, 5));
        t.move_by(-100);
        t.scroll_to_cursor(3);
        assert_eq!((t.cursor, t.offset), (0, 0));
        t.move_by(100);
        assert_eq!(t.cursor, 9);
    }
}
