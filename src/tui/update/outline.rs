//! The outline popup's handlers: `o` opens it on the current file with the cursor on the
//! current section; its keys move the cursor and `Enter` jumps there in the tree.

use crate::model::{Corpus, NodeId, NodeKind};
use crate::tui::input::action::Action;
use crate::tui::state::app::Focus;
use crate::tui::state::outline::{Outline, items, outline_root};

use super::ctx::{Ctx, Panes};

/// `o`: the outline of the file of `cur` (the current node), the cursor on the current
/// section; `None` (the status says why) when there is none.
pub fn open(corpus: &Corpus, cur: Option<NodeId>, ctx: &mut Ctx) -> Option<Outline> {
    let cur = cur?;
    let Some(root) = outline_root(corpus, cur) else {
        ctx.say("No outline here: o lists the headings of a file");
        return None;
    };
    let items = items(corpus, root);
    if items.is_empty() {
        *ctx.status = if corpus.node(root).kind == NodeKind::File {
            format!("{} has no headings", corpus.node(root).title)
        } else {
            "o lists the headings of a file: move onto one first".into()
        };
        return None;
    }
    let cursor = std::iter::once(cur)
        .chain(corpus.ancestors(cur))
        .find_map(|a| items.iter().position(|(n, _)| *n == a))
        .unwrap_or(0);
    Some(Outline {
        file: root,
        items,
        cursor,
        offset: 0,
    })
}

/// Keys of the outline `o` (`page` rows high), taken off the stack: the outline to put
/// back, or `None` when the key closes it (`Enter` jumps to the section in the tree).
pub fn action(
    mut o: Outline,
    action: Action,
    page: usize,
    corpus: &Corpus,
    panes: &mut Panes,
    ctx: &mut Ctx,
) -> Option<Outline> {
    let last = o.items.len().saturating_sub(1);
    match action {
        Action::MoveDown => o.cursor = (o.cursor + 1).min(last),
        Action::MoveUp => o.cursor = o.cursor.saturating_sub(1),
        Action::PageDown => o.cursor = (o.cursor + page).min(last),
        Action::PageUp => o.cursor = o.cursor.saturating_sub(page),
        Action::Top => o.cursor = 0,
        Action::Bottom => o.cursor = last,
        Action::Escape | Action::Outline => return None,
        Action::Confirm => {
            let Some((id, _)) = o.items.get(o.cursor).copied() else {
                return Some(o);
            };
            panes.search.showing = false;
            *panes.focus = Focus::Left;
            panes.tree.reveal(corpus, id);
            ctx.say(format!("Jumped to {}", corpus.node(id).title));
            return None;
        }
        _ => {}
    }
    if o.cursor < o.offset {
        o.offset = o.cursor;
    } else if o.cursor >= o.offset + page {
        o.offset = o.cursor + 1 - page;
    }
    Some(o)
}
