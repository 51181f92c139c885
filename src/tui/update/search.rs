//! The search box: editing the query (every edit starts a new query generation), moving
//! through the results and jumping to a hit.

use std::sync::Arc;

use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::followup::Msg;
use crate::tui::state::search::SearchView;
use crate::tui::view::layout::page;

/// Keys of the search box (letters type into the query).
pub fn search_action(app: &mut App, action: Action) {
    let s = &mut app.search;
    let chars: Vec<char> = s.query.chars().collect();
    let cur = s.cursor.min(chars.len());
    let mut edited: Option<Vec<char>> = None;
    match action {
        Action::SearchInsert(c) => {
            let mut v = chars.clone();
            v.insert(cur, c);
            s.cursor = cur + 1;
            edited = Some(v);
        }
        Action::Paste(text) => {
            let ins: Vec<char> = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let mut v = chars.clone();
            s.cursor = cur + ins.len();
            v.splice(cur..cur, ins);
            edited = Some(v);
        }
        Action::SearchBackspace if cur > 0 => {
            let mut v = chars.clone();
            v.remove(cur - 1);
            s.cursor = cur - 1;
            edited = Some(v);
        }
        Action::SearchDelete if cur < chars.len() => {
            let mut v = chars.clone();
            v.remove(cur);
            edited = Some(v);
        }
        Action::SearchDeleteWord => {
            let mut start = cur;
            while start > 0 && chars[start - 1] == ' ' {
                start -= 1;
            }
            while start > 0 && chars[start - 1] != ' ' {
                start -= 1;
            }
            let mut v = chars.clone();
            v.drain(start..cur);
            s.cursor = start;
            edited = Some(v);
        }
        Action::SearchClear => {
            s.cursor = 0;
            edited = Some(Vec::new());
        }
        Action::SearchLeft => s.cursor = cur.saturating_sub(1),
        Action::SearchRight => s.cursor = (cur + 1).min(chars.len()),
        Action::SearchHome => s.cursor = 0,
        Action::SearchEnd => s.cursor = chars.len(),
        Action::MoveDown => app.search.move_hit(1),
        Action::MoveUp => app.search.move_hit(-1),
        Action::PageDown => app.search.move_hit(page(app) as isize),
        Action::PageUp => app.search.move_hit(-(page(app) as isize)),
        Action::FocusNext => {
            app.search.active = false;
            app.focus = Focus::Left;
        }
        Action::SearchAccept => accept(app),
        Action::Escape => {
            app.search.active = false;
            app.search.showing = false;
            set_query(app, String::new());
        }
        _ => {}
    }
    if let Some(v) = edited {
        set_query(app, v.into_iter().collect());
    }
}

/// `Enter`: open exactly the highlighted hit (docs/DESIGN.md §3: the list shown is the
/// finished ranking once the last word is complete, so nothing is ranked again); with no
/// hit of this query shown yet, open its first one when it arrives. With the re-ranker on
/// and the highlight still on the first row, the query is ranked once more, re-ranked, and
/// the re-ranked list's first hit is opened (docs/DESIGN.md §3 "Re-rank").
fn accept(app: &mut App) {
    let rerank = app.index.as_ref().is_some_and(|i| i.reranker().is_some());
    let s = &mut app.search;
    s.active = false;
    if s.query.trim().is_empty() || (s.view.query == s.query && s.view.is_empty()) {
        s.showing = false;
    } else if s.view.query != s.query {
        s.jump_when_done = true;
    } else if rerank && !s.finished && s.selected == 0 {
        send_finished(app);
    } else {
        jump_to_hit(app);
    }
}

/// Send the shown query again as finished (re-ranked) and open its first hit on arrival.
fn send_finished(app: &mut App) {
    let s = &mut app.search;
    s.refine_at = None;
    s.finished = true;
    s.jump_when_done = true;
    s.rerun = None;
    s.generation += 1;
    s.pending = true;
    app.effects.push(Effect::Search {
        generation: s.generation,
        query: s.query.clone(),
    });
}

/// `/` (or a click on the search box): focus the search box, the results in the left pane.
pub fn open(app: &mut App) {
    app.search.active = true;
    app.focus = Focus::Left;
    app.search.showing = true;
    app.search.cursor = app.search.query.chars().count();
}

/// Replace the query and ask the search worker for results (a new generation).
pub fn set_query(app: &mut App, query: String) {
    let s = &mut app.search;
    if s.query == query {
        return;
    }
    s.cursor = s.cursor.min(query.chars().count());
    s.query = query;
    s.jump_when_done = false;
    s.finished = false;
    s.rerun = None;
    s.refine_at = None;
    s.generation += 1;
    s.selected = 0;
    s.offset = 0;
    if s.query.trim().is_empty() {
        s.view = SearchView::default();
        s.pending = false;
        if app.curate.with_query {
            // The query's hits leave the total beside the budget.
            app.followups.push(Msg::Recount);
        }
    } else {
        s.pending = true;
        app.effects.push(Effect::Search {
            generation: s.generation,
            query: s.query.clone(),
        });
        if app.index.as_ref().is_some_and(|i| i.reranker().is_some()) {
            app.search.refine_at =
                Some(std::time::Instant::now() + crate::tui::state::search::REFINE_PAUSE);
        }
    }
}

/// Typing paused (`Action::TypingPaused`, the loop's deadline): send the shown query again
/// as finished, so the re-ranker orders it; the highlighted hit stays highlighted when it is
/// among the refined results (the list re-sorts around it), and `Enter` then opens exactly
/// it. Nothing happens when the deadline is not due, the query is already finished, or its
/// first results have not arrived (they re-arm the deadline).
pub fn typing_paused(app: &mut App) {
    let s = &mut app.search;
    let due = s.refine_at.is_some_and(|t| t <= std::time::Instant::now());
    if !due || s.finished || s.query.trim().is_empty() {
        return;
    }
    if s.view.query != s.query {
        s.refine_at = Some(std::time::Instant::now() + crate::tui::state::search::REFINE_PAUSE);
        return;
    }
    s.refine_at = None;
    let keep = s.view.hit(s.selected).map(|h| h.node);
    s.finished = true;
    s.rerun = Some(crate::tui::state::search::Rerun {
        keep,
        index_ready: false,
    });
    s.generation += 1;
    s.pending = true;
    app.effects.push(Effect::Search {
        generation: s.generation,
        query: s.query.clone(),
    });
}

/// Jump to the selected hit: reveal it in the tree and scroll the preview to its first match.
pub fn jump_to_hit(app: &mut App) {
    let Some(hit) = app.search.view.hit(app.search.selected).cloned() else {
        return;
    };
    app.search.showing = false;
    app.search.active = false;
    app.focus = Focus::Left;
    let corpus = Arc::clone(&app.corpus);
    app.tree.reveal(&corpus, hit.node);
    // Context around the node: it sits a third of the way down, not on the last row.
    app.tree
        .center_cursor(crate::tui::view::layout::areas(app).left.height as usize);
    app.preview.want_first_match = true;
    app.status = format!("→ {}", corpus.node(hit.node).id);
}
