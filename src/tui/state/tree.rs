//! The tree pane's state: which nodes are expanded, the flattened visible rows, the cursor
//! and the scroll offset. Pure state over a [`Corpus`]; no drawing.

use std::collections::HashSet;

use crate::model::{Corpus, NodeId};

/// One visible row: a node and its depth (roots are depth 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The node shown.
    pub id: NodeId,
    /// Nesting depth (indent level).
    pub depth: u16,
}

/// Expanded set, visible rows, cursor (row index) and first visible row.
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
}

impl TreeState {
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
                let kids = &corpus.node(row.id).children;
                stack.extend(kids.iter().rev().map(|c| Row {
                    id: *c,
                    depth: row.depth.saturating_add(1),
                }));
            }
        }
        if let Some(cur) = current {
            let target = std::iter::once(cur)
                .chain(corpus.ancestors(cur))
                .find_map(|n| self.rows.iter().position(|r| r.id == n));
            self.cursor = target.unwrap_or(0);
        }
        self.clamp();
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
        if let Some(i) = self.rows.iter().position(|r| r.id == id) {
            self.cursor = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node, NodeKind};

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
