//! The collision map's handlers: `C` scores every pair of listed skills' descriptions
//! (`skill::overlap`, the effective set of all roots) and opens the flagged pairs; its keys
//! move the cursor, `Enter` opens the first skill's editor and `Tab` the second's.

use std::sync::Arc;

use crate::skill::overlap::{Entry, overlaps};
use crate::tui::input::action::Action;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::collisions::{Collisions, Pair};
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::list_height;

/// `C`: open the collision map of the loaded skills, or say there is no collision.
pub fn open(app: &mut App) {
    let entries = crate::skill::layers::corpus_entries(&app.corpus, &app.corpus.roots);
    let scored: Vec<Entry> = entries
        .iter()
        .map(|(_, e)| Entry {
            name: e.name.clone(),
            text: match &e.when_to_use {
                Some(w) => format!("{} {w}", e.description),
                None => e.description.clone(),
            },
        })
        .collect();
    let pairs: Vec<Pair> = overlaps(&scored)
        .into_iter()
        .map(|o| Pair {
            a: (entries[o.a].0, entries[o.a].1.name.clone()),
            b: (entries[o.b].0, entries[o.b].1.name.clone()),
            similarity: o.similarity,
            phrases: o.phrases,
        })
        .collect();
    if pairs.is_empty() {
        app.status = format!(
            "No collision: none of the {} listed skills' descriptions compete",
            entries.len()
        );
        return;
    }
    app.popups.push(Popup::Collisions(Collisions {
        pairs,
        cursor: 0,
        offset: 0,
    }));
}

/// Keys of the collision map, taken off the stack (put back unless they close it).
pub fn action(app: &mut App, mut c: Collisions, action: Action) {
    let page = list_height(app.size.1);
    let last = c.pairs.len().saturating_sub(1);
    match action {
        Action::MoveDown => c.cursor = (c.cursor + 1).min(last),
        Action::MoveUp => c.cursor = c.cursor.saturating_sub(1),
        Action::PageDown => c.cursor = (c.cursor + page).min(last),
        Action::PageUp => c.cursor = c.cursor.saturating_sub(page),
        Action::Top => c.cursor = 0,
        Action::Bottom => c.cursor = last,
        Action::Escape | Action::Collisions => return,
        Action::Confirm | Action::CollisionOther => {
            let Some(pair) = c.pairs.get(c.cursor) else {
                return app.popups.push(Popup::Collisions(c));
            };
            let (id, _) = if action == Action::Confirm {
                pair.a.clone()
            } else {
                pair.b.clone()
            };
            // Back to the tree on that skill, then its editor over it (`Esc` there returns
            // to the tree; `C` opens the map again).
            let corpus = Arc::clone(&app.corpus);
            app.search.showing = false;
            app.focus = Focus::Left;
            app.tree.reveal(&corpus, id);
            super::editor::open(app);
            return;
        }
        _ => {}
    }
    if c.cursor < c.offset {
        c.offset = c.cursor;
    } else if c.cursor >= c.offset + page {
        c.offset = c.cursor + 1 - page;
    }
    app.popups.push(Popup::Collisions(c));
}
