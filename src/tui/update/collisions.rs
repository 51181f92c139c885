//! The collision map's handlers: `C` scores every pair of listed skills' descriptions
//! (`skill::overlap`, the effective set of all roots) and opens the flagged pairs; its keys
//! move the cursor, `Enter` opens the first skill's editor and `Tab` the second's.

use crate::model::Corpus;
use crate::skill::overlap::{Entry, overlaps};
use crate::tui::input::action::Action;
use crate::tui::state::app::Focus;
use crate::tui::state::collisions::{Collisions, Pair};

use super::ctx::{Ctx, Panes};

/// What follows a key of the collision map.
pub enum After {
    /// The map stays open, as it is now.
    Keep(Collisions),
    /// The map closes.
    Close,
    /// The map closes on a skill the tree now shows: open its editor, with this note on
    /// the collision it came for.
    Edit(String),
}

/// `C`: the collision map of the loaded skills, or `None` when there is no collision (the
/// status says so).
pub fn open(corpus: &Corpus, ctx: &mut Ctx) -> Option<Collisions> {
    let entries = crate::skill::layers::corpus_entries(corpus, &corpus.roots);
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
        ctx.say(format!(
            "No collision: none of the {} listed skills' descriptions compete",
            entries.len()
        ));
        return None;
    }
    Some(Collisions {
        pairs,
        cursor: 0,
        offset: 0,
    })
}

/// Keys of the collision map `c` (`page` rows high), taken off the stack: what follows
/// ([`After`]); `Enter` and `Tab` reveal a skill of the pair in the tree first.
pub fn action(
    mut c: Collisions,
    action: Action,
    page: usize,
    corpus: &Corpus,
    panes: &mut Panes,
) -> After {
    let last = c.pairs.len().saturating_sub(1);
    match action {
        Action::MoveDown => c.cursor = (c.cursor + 1).min(last),
        Action::MoveUp => c.cursor = c.cursor.saturating_sub(1),
        Action::PageDown => c.cursor = (c.cursor + page).min(last),
        Action::PageUp => c.cursor = c.cursor.saturating_sub(page),
        Action::Top => c.cursor = 0,
        Action::Bottom => c.cursor = last,
        Action::Escape | Action::Collisions => return After::Close,
        Action::Confirm | Action::CollisionOther => {
            let Some(pair) = c.pairs.get(c.cursor) else {
                return After::Keep(c);
            };
            let ((id, _), (_, other)) = if action == Action::Confirm {
                (pair.a.clone(), pair.b.clone())
            } else {
                (pair.b.clone(), pair.a.clone())
            };
            let note = overlap_note(&other, pair);
            // Back to the tree on that skill, then its editor over it (`Esc` there returns
            // to the tree; `C` opens the map again).
            panes.search.showing = false;
            *panes.focus = Focus::Left;
            panes.tree.reveal(corpus, id);
            return After::Edit(note);
        }
        _ => {}
    }
    if c.cursor < c.offset {
        c.offset = c.cursor;
    } else if c.cursor >= c.offset + page {
        c.offset = c.cursor + 1 - page;
    }
    After::Keep(c)
}

/// The editor's note for a skill opened from the map: which skill it competes with, how
/// similar their entries are and the phrases both hold (`validate`'s `description-overlap`).
fn overlap_note(other: &str, pair: &crate::tui::state::collisions::Pair) -> String {
    let shared = if pair.phrases.is_empty() {
        String::new()
    } else {
        format!("; shared: {}", pair.phrases.join(", "))
    };
    format!(
        "description-overlap with {other} (similarity {:.2}{shared})",
        pair.similarity
    )
}
