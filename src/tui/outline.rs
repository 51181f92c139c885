//! The outline popup (`o`, DESIGN §6): the headings of the current file (its sections,
//! chunks and parts, nested) with their token sizes; `Enter` jumps there in the tree and
//! the preview. State only; drawn by `view/outline.rs`.

use std::sync::Arc;

use crate::model::{Corpus, NodeId, NodeKind};

use super::action::Action;
use super::app::{App, Focus};
use super::keymap::Mode;

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
    if let Some(f) =
        std::iter::once(id).chain(corpus.ancestors(id)).find(|n| corpus.node(*n).kind == NodeKind::File)
    {
        return Some(f);
    }
    let n = corpus.node(id);
    if n.kind.is_text_unit() { n.parent } else { (!n.children.is_empty()).then_some(id) }
}

/// The text units below `root` in document order with their depth.
pub fn items(corpus: &Corpus, root: NodeId) -> Vec<(NodeId, u16)> {
    let mut out = Vec::new();
    let mut stack: Vec<(NodeId, u16)> = corpus.node(root).children.iter().rev().map(|c| (*c, 1)).collect();
    while let Some((n, d)) = stack.pop() {
        let node = corpus.node(n);
        if node.kind.is_text_unit() {
            out.push((n, d));
            stack.extend(node.children.iter().rev().map(|c| (*c, d.saturating_add(1))));
        }
    }
    out
}

/// `o`: open the outline of the current node's file, the cursor on the current section.
pub fn open(app: &mut App) {
    let Some(cur) = app.current_node() else { return };
    let corpus = Arc::clone(&app.corpus);
    let Some(root) = outline_root(&corpus, cur) else {
        app.status = "No outline here: o lists the headings of a file".into();
        return;
    };
    let items = items(&corpus, root);
    if items.is_empty() {
        app.status = if corpus.node(root).kind == NodeKind::File {
            format!("{} has no headings", corpus.node(root).title)
        } else {
            "o lists the headings of a file: move onto one first".into()
        };
        return;
    }
    let cursor = std::iter::once(cur)
        .chain(corpus.ancestors(cur))
        .find_map(|a| items.iter().position(|(n, _)| *n == a))
        .unwrap_or(0);
    app.outline = Some(Outline { file: root, items, cursor, offset: 0 });
    app.mode = Mode::Outline;
}

/// Rows of the outline list on a screen `h` rows high (the popup less borders and footer).
pub fn list_height(h: u16) -> usize {
    (h.saturating_sub(2).max(h.min(3)) as usize).saturating_sub(3).max(1)
}

/// Actions of [`Mode::Outline`].
pub fn action(app: &mut App, action: Action) {
    let page = list_height(app.size.1);
    let Some(o) = app.outline.as_mut() else {
        app.mode = Mode::Normal;
        return;
    };
    let last = o.items.len().saturating_sub(1);
    match action {
        Action::MoveDown => o.cursor = (o.cursor + 1).min(last),
        Action::MoveUp => o.cursor = o.cursor.saturating_sub(1),
        Action::PageDown => o.cursor = (o.cursor + page).min(last),
        Action::PageUp => o.cursor = o.cursor.saturating_sub(page),
        Action::Top => o.cursor = 0,
        Action::Bottom => o.cursor = last,
        Action::Escape | Action::Outline => {
            app.outline = None;
            app.mode = Mode::Normal;
        }
        Action::Confirm => {
            let Some((id, _)) = o.items.get(o.cursor).copied() else { return };
            app.outline = None;
            app.mode = Mode::Normal;
            let corpus = Arc::clone(&app.corpus);
            app.search.showing = false;
            app.focus = Focus::Left;
            app.tree.reveal(&corpus, id);
            app.status = format!("Jumped to {}", corpus.node(id).title);
        }
        _ => {}
    }
    if let Some(o) = app.outline.as_mut() {
        if o.cursor < o.offset {
            o.offset = o.cursor;
        } else if o.cursor >= o.offset + page {
            o.offset = o.cursor + 1 - page;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node};

    #[test]
    fn outline_lists_nested_sections_of_the_file() {
        let mut c = Corpus::new();
        let r = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
        let f = c.add_child(r, Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md"));
        let s1 = c.add_child(f, Node::new(NodeKind::Section, Format::Markdown, "One", "a.md"));
        let s11 = c.add_child(s1, Node::new(NodeKind::Section, Format::Markdown, "One.1", "a.md"));
        let s2 = c.add_child(f, Node::new(NodeKind::Section, Format::Markdown, "Two", "a.md"));
        c.finalize();
        assert_eq!(outline_root(&c, s11), Some(f));
        assert_eq!(outline_root(&c, f), Some(f));
        assert_eq!(outline_root(&c, r), Some(r));
        assert_eq!(items(&c, f), vec![(s1, 1), (s11, 2), (s2, 1)]);
    }
}
