//! The search box: editing the query (every edit starts a new query generation), moving
//! through the results and jumping to a hit.

use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::state::app::Focus;
use crate::tui::state::followup::Msg;
use crate::tui::state::search::{SearchState, SearchView};

use super::ctx::{Ctx, Panes, Shared};

/// Keys of the search box (letters type into the query).
pub fn search_action(
    panes: &mut Panes,
    shared: &Shared,
    with_query: bool,
    action: Action,
    ctx: &mut Ctx,
) {
    let action = match edit(panes.search, action) {
        Ok(Some(v)) => {
            set_query(
                panes.search,
                shared,
                with_query,
                v.into_iter().collect(),
                ctx,
            );
            return;
        }
        Ok(None) => return,
        Err(other) => other,
    };
    let page = panes.page(shared);
    let s = &mut *panes.search;
    match action {
        Action::MoveDown => s.move_hit(1),
        Action::MoveUp => s.move_hit(-1),
        Action::PageDown => s.move_hit(page as isize),
        Action::PageUp => s.move_hit(-(page as isize)),
        Action::FocusNext => {
            s.active = false;
            *panes.focus = Focus::Left;
        }
        Action::SearchAccept => accept(panes, shared, ctx),
        Action::Escape => {
            s.active = false;
            s.showing = false;
            set_query(s, shared, with_query, String::new(), ctx);
        }
        _ => {}
    }
}

/// The editing keys of the search box on `s`: `Ok` with the edited query (`None` when only
/// the cursor moved) when `action` is one of them, else `Err` with the action, unused.
fn edit(s: &mut SearchState, action: Action) -> Result<Option<Vec<char>>, Action> {
    let chars: Vec<char> = s.query.chars().collect();
    let cur = s.cursor.min(chars.len());
    let mut v = chars.clone();
    match action {
        Action::SearchInsert(c) => {
            v.insert(cur, c);
            s.cursor = cur + 1;
        }
        Action::Paste(text) => {
            let ins: Vec<char> = text
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            s.cursor = cur + ins.len();
            v.splice(cur..cur, ins);
        }
        Action::SearchBackspace if cur > 0 => {
            v.remove(cur - 1);
            s.cursor = cur - 1;
        }
        Action::SearchDelete if cur < chars.len() => {
            v.remove(cur);
        }
        Action::SearchDeleteWord => {
            let mut start = cur;
            while start > 0 && chars[start - 1] == ' ' {
                start -= 1;
            }
            while start > 0 && chars[start - 1] != ' ' {
                start -= 1;
            }
            v.drain(start..cur);
            s.cursor = start;
        }
        Action::SearchClear => {
            s.cursor = 0;
            v.clear();
        }
        // The cursor moves; the query stays.
        Action::SearchLeft | Action::SearchRight | Action::SearchHome | Action::SearchEnd => {
            s.cursor = match action {
                Action::SearchLeft => cur.saturating_sub(1),
                Action::SearchRight => (cur + 1).min(chars.len()),
                Action::SearchHome => 0,
                _ => chars.len(),
            };
            return Ok(None);
        }
        other => return Err(other),
    }
    Ok(Some(v))
}

/// The query of `s` for the search worker (its generation, the hits per group of
/// `shared`'s settings, finished or typed).
fn query_effect(s: &SearchState, shared: &Shared) -> Effect {
    Effect::Search {
        generation: s.generation,
        query: s.query.clone(),
        top_k: shared.settings.search.top_k,
        finished: s.finished,
    }
}

/// `Enter`: open exactly the highlighted hit (docs/DESIGN.md §3: the list shown is the
/// finished ranking once the last word is complete, so nothing is ranked again); with no
/// hit of this query shown yet, open its first one when it arrives. With the re-ranker on
/// and the highlight still on the first row, the query is ranked once more, re-ranked, and
/// the re-ranked list's first hit is opened (docs/DESIGN.md §3 "Re-rank").
fn accept(panes: &mut Panes, shared: &Shared, ctx: &mut Ctx) {
    let rerank = shared.reranks();
    let s = &mut *panes.search;
    s.active = false;
    if s.query.trim().is_empty() || (s.view.query == s.query && s.view.is_empty()) {
        s.showing = false;
    } else if s.view.query != s.query {
        s.jump_when_done = true;
    } else if rerank && !s.finished && s.selected == 0 {
        send_finished(s, shared, ctx);
    } else {
        jump_to_hit(panes, shared, ctx);
    }
}

/// Send the shown query again as finished (re-ranked) and open its first hit on arrival.
fn send_finished(s: &mut SearchState, shared: &Shared, ctx: &mut Ctx) {
    s.refine_at = None;
    s.finished = true;
    s.jump_when_done = true;
    s.rerun = None;
    s.generation += 1;
    s.pending = true;
    ctx.queue(query_effect(s, shared));
}

/// `/` (or a click on the search box): focus the search box, the results in the left pane.
pub fn open(search: &mut SearchState, focus: &mut Focus) {
    search.active = true;
    *focus = Focus::Left;
    search.showing = true;
    search.cursor = search.query.chars().count();
}

/// Replace the query and ask the search worker for results (a new generation); clearing
/// it recounts the brief when its hits are in it (`with_query`).
pub fn set_query(
    s: &mut SearchState,
    shared: &Shared,
    with_query: bool,
    query: String,
    ctx: &mut Ctx,
) {
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
        if with_query {
            // The query's hits leave the total beside the budget.
            ctx.follow(Msg::Recount);
        }
    } else {
        s.pending = true;
        ctx.queue(query_effect(s, shared));
        if shared.reranks() {
            s.refine_at = Some(std::time::Instant::now() + crate::tui::state::search::REFINE_PAUSE);
        }
    }
}

/// Typing paused (`Action::TypingPaused`, the loop's deadline): send the shown query again
/// as finished, so the re-ranker orders it; the highlighted hit stays highlighted when it is
/// among the refined results (the list re-sorts around it), and `Enter` then opens exactly
/// it. Nothing happens when the deadline is not due, the query is already finished, or its
/// first results have not arrived (they re-arm the deadline).
pub fn typing_paused(s: &mut SearchState, shared: &Shared, ctx: &mut Ctx) {
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
    ctx.queue(query_effect(s, shared));
}

/// Jump to the selected hit: reveal it in the tree and scroll the preview to its first match.
pub fn jump_to_hit(panes: &mut Panes, shared: &Shared, ctx: &mut Ctx) {
    let Some(hit) = panes.search.view.hit(panes.search.selected).cloned() else {
        return;
    };
    panes.search.showing = false;
    panes.search.active = false;
    *panes.focus = Focus::Left;
    let corpus = shared.corpus;
    panes.tree.reveal(corpus, hit.node);
    // Context around the node: it sits a third of the way down, not on the last row.
    let height = panes.areas(shared).left.height as usize;
    panes.tree.center_cursor(height);
    panes.preview.want_first_match = true;
    ctx.say(format!("→ {}", corpus.id(hit.node)));
}
