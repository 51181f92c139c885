//! Tree navigation beyond one row: collapse everything, open one level more, jump to the
//! parent row, sort a folder's children (tokens, bytes, name, natural), and the tree's page
//! size (`Ctrl-d`/`Ctrl-u` page the focused pane).

use std::sync::Arc;

use crate::model::NodeId;
use crate::tui::input::action::Action;
use crate::tui::state::app::App;
use crate::tui::state::tree::{SortKey, compact_tail};
use crate::tui::view::layout::areas;
use crate::util::human;

/// Handle one of the tree actions ([`Action::CollapseAll`], [`Action::ExpandLevel`],
/// [`Action::GoParent`], [`Action::SortFolder`]); other actions are ignored.
pub fn tree_action(app: &mut App, action: &Action) {
    let corpus = Arc::clone(&app.corpus);
    match action {
        Action::CollapseAll => {
            app.tree.collapse_all(&corpus);
            app.status = "Collapsed all".into();
        }
        Action::ExpandLevel => {
            let n = app.tree.expand_level(&corpus);
            app.status = if n == 0 {
                "Everything is open".into()
            } else {
                format!("Opened one level ({})", human::plural(n, "node"))
            };
        }
        Action::GoParent => match app.tree.parent_row() {
            Some(i) => app.tree.cursor = i,
            None => app.status = "At the top".into(),
        },
        Action::SortFolder => sort_folder(app),
        _ => {}
    }
}

/// Rows of one tree page (the left pane's height, at least 1).
pub fn tree_page(app: &App) -> usize {
    (areas(app).left.height as usize).max(1)
}

/// `s`: the folder under the cursor when it is open, else the one holding the cursor,
/// goes to its next order.
fn sort_folder(app: &mut App) {
    let corpus = Arc::clone(&app.corpus);
    let Some(cur) = app.tree.current() else {
        return;
    };
    let folder =
        if app.tree.expanded.contains(&cur) && !app.tree.children_of(&corpus, cur).is_empty() {
            cur
        } else if let Some(i) = app.tree.parent_row() {
            app.tree.rows[i].id
        } else {
            app.status = "Nothing to sort here".into();
            return;
        };
    let tail = compact_tail(&corpus, folder);
    let current = app.tree.sorted.get(&tail).map(|(k, _)| *k);
    let next = SortKey::next(current);
    match next {
        None => {
            app.tree.sorted.remove(&tail);
        }
        Some(key) => {
            let mut kids: Vec<NodeId> = corpus.node(tail).children.clone();
            match key {
                SortKey::Tokens => {
                    kids.sort_by_key(|k| std::cmp::Reverse(app.tokens.total(*k).unwrap_or(0)));
                }
                SortKey::Bytes => kids.sort_by_key(|k| std::cmp::Reverse(corpus.node(*k).bytes)),
                SortKey::Name => kids.sort_by_cached_key(|k| corpus.node(*k).title.to_lowercase()),
            }
            app.tree.sorted.insert(tail, (key, kids));
        }
    }
    app.tree.rebuild(&corpus);
    // The folder's contents list in the preview follows the tree's order: build it again.
    app.preview.forget(|n| n != folder && n != tail);
    if app.preview.node.is_some_and(|n| n == folder || n == tail) {
        app.preview.doc = None;
    }
    app.status = format!(
        "{}: sorted by {}",
        corpus.node(folder).title,
        SortKey::label(next)
    );
}
