//! The outline popup's handlers: `o` opens it on the current file with the cursor on the
//! current section; its keys move the cursor and `Enter` jumps there in the tree.

use std::sync::Arc;

use crate::model::NodeKind;
use crate::tui::input::action::Action;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::outline::{Outline, items, outline_root};
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::list_height;

/// `o`: open the outline of the current node's file, the cursor on the current section.
pub fn open(app: &mut App) {
    let Some(cur) = app.current_node() else {
        return;
    };
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
    app.popups.push(Popup::Outline(Outline {
        file: root,
        items,
        cursor,
        offset: 0,
    }));
}

/// Keys of the outline `o`, taken off the stack (put back unless they close it).
pub fn action(app: &mut App, mut o: Outline, action: Action) {
    let page = list_height(app.size.1);
    let last = o.items.len().saturating_sub(1);
    match action {
        Action::MoveDown => o.cursor = (o.cursor + 1).min(last),
        Action::MoveUp => o.cursor = o.cursor.saturating_sub(1),
        Action::PageDown => o.cursor = (o.cursor + page).min(last),
        Action::PageUp => o.cursor = o.cursor.saturating_sub(page),
        Action::Top => o.cursor = 0,
        Action::Bottom => o.cursor = last,
        Action::Escape | Action::Outline => return,
        Action::Confirm => {
            let Some((id, _)) = o.items.get(o.cursor).copied() else {
                return app.popups.push(Popup::Outline(o));
            };
            let corpus = Arc::clone(&app.corpus);
            app.search.showing = false;
            app.focus = Focus::Left;
            app.tree.reveal(&corpus, id);
            app.status = format!("Jumped to {}", corpus.node(id).title);
            return;
        }
        _ => {}
    }
    if o.cursor < o.offset {
        o.offset = o.cursor;
    } else if o.cursor >= o.offset + page {
        o.offset = o.cursor + 1 - page;
    }
    app.popups.push(Popup::Outline(o));
}
