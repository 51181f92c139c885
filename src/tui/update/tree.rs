//! Tree navigation beyond one row: collapse everything, open one level more, jump to the
//! parent row, sort a folder's children (tokens, bytes, name, natural), and the tree's page
//! size (`Ctrl-d`/`Ctrl-u` page the focused pane).

use crate::model::NodeId;
use crate::tui::input::action::Action;
use crate::tui::state::preview::PreviewState;
use crate::tui::state::tree::{SortKey, TreeState, compact_tail};
use crate::util::human;

use super::ctx::{Ctx, Panes, Shared};

/// Handle one of the tree actions ([`Action::CollapseAll`], [`Action::ExpandLevel`],
/// [`Action::GoParent`], [`Action::SortFolder`]) over `shared`'s corpus; other actions are
/// ignored. Sorting drops the preview's documents of the folder.
pub fn tree_action(
    tree: &mut TreeState,
    preview: &mut PreviewState,
    shared: &Shared,
    action: &Action,
    ctx: &mut Ctx,
) {
    let corpus = shared.corpus;
    match action {
        Action::CollapseAll => {
            tree.collapse_all(corpus);
            ctx.say("Collapsed all");
        }
        Action::ExpandLevel => {
            let n = tree.expand_level(corpus);
            ctx.say(if n == 0 {
                "Everything is open".into()
            } else {
                format!("Opened one level ({})", human::plural(n, "node"))
            });
        }
        Action::GoParent => match tree.parent_row() {
            Some(i) => tree.cursor = i,
            None => ctx.say("At the top"),
        },
        Action::SortFolder => sort_folder(tree, preview, shared, ctx),
        _ => {}
    }
}

/// Rows of one tree page (the left pane's height, at least 1).
pub fn tree_page(panes: &Panes, shared: &Shared) -> usize {
    (panes.areas(shared).left.height as usize).max(1)
}

/// `s`: the folder under the cursor when it is open, else the one holding the cursor,
/// goes to its next order.
fn sort_folder(tree: &mut TreeState, preview: &mut PreviewState, shared: &Shared, ctx: &mut Ctx) {
    let corpus = shared.corpus;
    let Some(cur) = tree.current() else {
        return;
    };
    let folder = if tree.expanded.contains(&cur) && !tree.children_of(corpus, cur).is_empty() {
        cur
    } else if let Some(i) = tree.parent_row() {
        tree.rows[i].id
    } else {
        ctx.say("Nothing to sort here");
        return;
    };
    let tail = compact_tail(corpus, folder);
    let current = tree.sorted.get(&tail).map(|(k, _)| *k);
    let next = SortKey::next(current);
    match next {
        None => {
            tree.sorted.remove(&tail);
        }
        Some(key) => {
            let mut kids: Vec<NodeId> = corpus.node(tail).children.to_vec();
            match key {
                SortKey::Tokens => {
                    kids.sort_by_key(|k| std::cmp::Reverse(shared.tokens.total(*k).unwrap_or(0)));
                }
                SortKey::Bytes => kids.sort_by_key(|k| std::cmp::Reverse(corpus.node(*k).bytes)),
                SortKey::Name => kids.sort_by_cached_key(|k| corpus.node(*k).title.to_lowercase()),
            }
            tree.sorted.insert(tail, (key, kids));
        }
    }
    tree.rebuild(corpus);
    // The folder's contents list in the preview follows the tree's order: build it again.
    preview.forget(|n| n != folder && n != tail);
    if preview.node.is_some_and(|n| n == folder || n == tail) {
        preview.doc = None;
    }
    ctx.say(format!(
        "{}: sorted by {}",
        corpus.node(folder).title,
        SortKey::label(next)
    ));
}
