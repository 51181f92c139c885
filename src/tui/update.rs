//! The only mutator of [`App`]: [`update`] applies one [`Action`], [`apply`] one worker
//! result. Both finish with [`sync`], which keeps the cursors visible and the preview in
//! step with the current node. Work for the workers is queued in [`App::effects`].

use std::sync::Arc;

use crate::model::Selection;

use super::action::Action;
use super::app::{App, Effect, Focus, SearchView};
use super::format;
use super::keymap::Mode;
use super::layout::{self, Areas};
use super::preview;
use super::results::{self, ResultRow};
use super::workers::WorkerMsg;

/// Lines the mouse wheel scrolls per notch.
const WHEEL_LINES: isize = 3;

/// The layout of the current frame.
pub fn areas(app: &App) -> Areas {
    layout::areas(app.size.0, app.size.1, app.settings.ui.tree_percent, app.focus)
}

/// Apply one user action.
pub fn update(app: &mut App, action: Action) {
    match action {
        Action::Resize(w, h) => app.size = (w, h),
        Action::ScrollAt { col, row, down } => mouse_scroll(app, col, row, down),
        Action::ClickAt { col, row } => mouse_click(app, col, row),
        Action::Quit => app.quit = true,
        Action::Redraw => app.redraw = true,
        other => match app.mode {
            Mode::Help => help_action(app, other),
            Mode::Search => search_action(app, other),
            Mode::Normal => normal_action(app, other),
        },
    }
    sync(app);
}

fn help_action(app: &mut App, action: Action) {
    let page = help_page(app);
    match action {
        Action::MoveDown => app.help_scroll = app.help_scroll.saturating_add(1),
        Action::MoveUp => app.help_scroll = app.help_scroll.saturating_sub(1),
        Action::PageDown | Action::HalfPageDown => app.help_scroll = app.help_scroll.saturating_add(page),
        Action::PageUp | Action::HalfPageUp => app.help_scroll = app.help_scroll.saturating_sub(page),
        Action::Escape | Action::Help => app.mode = Mode::Normal,
        _ => {}
    }
}

fn help_page(app: &App) -> usize {
    (app.size.1 as usize).saturating_sub(4).max(1)
}

fn normal_action(app: &mut App, action: Action) {
    let results = app.search.showing && app.focus == Focus::Left;
    match action {
        Action::MoveDown | Action::MoveUp => {
            let d = if action == Action::MoveDown { 1 } else { -1 };
            match (app.focus, results) {
                (Focus::Preview, _) => scroll_preview(app, d),
                (Focus::Left, true) => move_hit(app, d),
                (Focus::Left, false) => app.tree.move_by(d),
            }
        }
        Action::Top | Action::Bottom => {
            let top = action == Action::Top;
            match (app.focus, results) {
                (Focus::Preview, _) => app.preview.scroll = if top { 0 } else { usize::MAX },
                (Focus::Left, true) => move_hit(app, if top { isize::MIN / 2 } else { isize::MAX / 2 }),
                (Focus::Left, false) => app.tree.move_by(if top { isize::MIN / 2 } else { isize::MAX / 2 }),
            }
        }
        Action::Expand => match (app.focus, results) {
            (Focus::Left, true) => jump_to_hit(app),
            (Focus::Left, false) => expand(app),
            (Focus::Preview, _) => {}
        },
        Action::Collapse => match (app.focus, results) {
            (Focus::Left, true) => app.search.showing = false,
            (Focus::Left, false) => collapse(app),
            (Focus::Preview, _) => app.focus = Focus::Left,
        },
        Action::FocusNext => {
            app.focus = if app.focus == Focus::Left { Focus::Preview } else { Focus::Left };
        }
        Action::ToggleSelect => toggle_select(app),
        Action::CopyBrief => copy_brief(app),
        Action::SearchOpen => {
            app.mode = Mode::Search;
            app.focus = Focus::Left;
            app.search.showing = true;
            app.search.cursor = app.search.query.chars().count();
        }
        Action::Escape => {
            if app.search.showing {
                app.search.showing = false;
            } else if !app.search.query.is_empty() {
                set_query(app, String::new());
                app.status = "Search cleared".into();
            } else if app.focus == Focus::Preview {
                app.focus = Focus::Left;
            }
        }
        Action::NextMatch => step_match(app, true),
        Action::PrevMatch => step_match(app, false),
        Action::PageDown => scroll_preview(app, page(app) as isize),
        Action::PageUp => scroll_preview(app, -(page(app) as isize)),
        Action::HalfPageDown => scroll_preview(app, (page(app) / 2).max(1) as isize),
        Action::HalfPageUp => scroll_preview(app, -((page(app) / 2).max(1) as isize)),
        Action::Help => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Action::Paste(_) | Action::SearchInsert(_) => {}
        _ => {}
    }
}

fn search_action(app: &mut App, action: Action) {
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
            let ins: Vec<char> = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
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
        Action::MoveDown => move_hit(app, 1),
        Action::MoveUp => move_hit(app, -1),
        Action::PageDown => move_hit(app, page(app) as isize),
        Action::PageUp => move_hit(app, -(page(app) as isize)),
        Action::FocusNext => {
            app.mode = Mode::Normal;
            app.focus = Focus::Left;
        }
        Action::SearchAccept => {
            app.mode = Mode::Normal;
            if app.search.view.is_empty() {
                app.search.showing = false;
            } else {
                jump_to_hit(app);
            }
        }
        Action::Escape => {
            app.mode = Mode::Normal;
            app.search.showing = false;
            set_query(app, String::new());
        }
        _ => {}
    }
    if let Some(v) = edited {
        set_query(app, v.into_iter().collect());
    }
}

/// Replace the query and ask the search worker for results (a new generation).
fn set_query(app: &mut App, query: String) {
    let s = &mut app.search;
    if s.query == query {
        return;
    }
    s.cursor = s.cursor.min(query.chars().count());
    s.query = query;
    s.generation += 1;
    s.selected = 0;
    s.offset = 0;
    if s.query.trim().is_empty() {
        s.view = SearchView::default();
        s.pending = false;
    } else {
        s.pending = true;
        app.effects.push(Effect::Search { generation: s.generation, query: s.query.clone() });
    }
}

fn move_hit(app: &mut App, delta: isize) {
    let n = app.search.view.len();
    if n == 0 {
        return;
    }
    let max = n as isize - 1;
    app.search.selected = (app.search.selected as isize).saturating_add(delta).clamp(0, max) as usize;
}

/// Jump to the selected hit: reveal it in the tree and scroll the preview to its first match.
fn jump_to_hit(app: &mut App) {
    let Some(hit) = app.search.view.hit(app.search.selected).cloned() else { return };
    app.search.showing = false;
    app.mode = Mode::Normal;
    app.focus = Focus::Left;
    let corpus = Arc::clone(&app.corpus);
    app.tree.reveal(&corpus, hit.node);
    app.preview.want_first_match = true;
    app.status = format!("→ {}", corpus.node(hit.node).id);
}

fn expand(app: &mut App) {
    let Some(id) = app.tree.current() else { return };
    let corpus = Arc::clone(&app.corpus);
    let node = corpus.node(id);
    if node.children.is_empty() {
        app.focus = Focus::Preview;
    } else if app.tree.expanded.insert(id) {
        app.tree.rebuild(&corpus);
    } else {
        app.tree.move_by(1);
    }
}

fn collapse(app: &mut App) {
    let Some(id) = app.tree.current() else { return };
    let corpus = Arc::clone(&app.corpus);
    if app.tree.expanded.remove(&id) {
        app.tree.rebuild(&corpus);
    } else if let Some(p) = corpus.node(id).parent {
        if let Some(i) = app.tree.rows.iter().position(|r| r.id == p) {
            app.tree.cursor = i;
        }
    }
}

fn toggle_select(app: &mut App) {
    let Some(id) = app.current_node() else { return };
    let corpus = Arc::clone(&app.corpus);
    app.selection.toggle(&corpus, id);
    app.selection_tokens = app.selection.tokens(&corpus, &app.tokens);
    let verb = match app.selection.mark(&corpus, id) {
        crate::model::Mark::Full => "Selected",
        _ => "Deselected",
    };
    app.status = format!("{verb} {} · {}", corpus.node(id).title, selection_summary(app));
}

/// `sel N · 4.2k tok` (`…` while some selected part is still uncounted).
pub fn selection_summary(app: &App) -> String {
    let (tokens, complete) = app.selection_tokens;
    let more = if complete { "" } else { "…" };
    format!("sel {} · {}{more} tok", app.selection.len(), format::count(tokens))
}

fn copy_brief(app: &mut App) {
    if app.copying {
        app.status = "A copy is already running…".into();
        return;
    }
    let units = if app.selection.is_empty() {
        let Some(id) = app.current_node() else { return };
        let mut one = Selection::new();
        one.select(&app.corpus, id);
        one.units(&app.corpus)
    } else {
        app.selection.units(&app.corpus)
    };
    if units.is_empty() {
        app.status = "Nothing to copy: the selection has no text".into();
        return;
    }
    app.copying = true;
    app.status = format!("Copying a brief of {} sections…", units.len());
    app.effects.push(Effect::Copy { units });
}

fn page(app: &App) -> usize {
    (areas(app).preview.height as usize).max(1)
}

fn scroll_preview(app: &mut App, delta: isize) {
    app.preview.scroll = (app.preview.scroll as isize).saturating_add(delta).max(0) as usize;
}

fn step_match(app: &mut App, forward: bool) {
    let Some(doc) = app.preview.doc.clone() else { return };
    let matches = doc.matches();
    if matches.is_empty() {
        app.status = if app.highlight_terms().is_empty() {
            "No search terms".into()
        } else {
            "No matches here".into()
        };
        return;
    }
    let n = matches.len();
    let next = match (app.preview.match_ix, forward) {
        (None, true) => matches.iter().position(|l| *l >= app.preview.scroll).unwrap_or(0),
        (None, false) => matches.iter().rposition(|l| *l < app.preview.scroll).unwrap_or(n - 1),
        (Some(i), true) => (i + 1) % n,
        (Some(i), false) => (i + n - 1) % n,
    };
    app.preview.match_ix = Some(next);
    app.preview.scroll = match_scroll(matches[next], page(app));
    app.status = format!("match {}/{}", next + 1, n);
}

/// Scroll so that `line` sits a third of the way down the page.
fn match_scroll(line: usize, page: usize) -> usize {
    line.saturating_sub(page / 3)
}

fn mouse_scroll(app: &mut App, col: u16, row: u16, down: bool) {
    let a = areas(app);
    let d = if down { WHEEL_LINES } else { -WHEEL_LINES };
    let pos = ratatui::layout::Position { x: col, y: row };
    if a.left.contains(pos) {
        if app.search.showing {
            move_hit(app, d);
        } else {
            app.tree.move_by(d);
        }
    } else if a.preview.contains(pos) || a.preview_header.contains(pos) {
        scroll_preview(app, d);
    } else if app.mode == Mode::Help {
        app.help_scroll = (app.help_scroll as isize + d).max(0) as usize;
    }
}

fn mouse_click(app: &mut App, col: u16, row: u16) {
    if app.mode == Mode::Help {
        return;
    }
    let a = areas(app);
    let pos = ratatui::layout::Position { x: col, y: row };
    if a.top.contains(pos) {
        normal_action(app, Action::SearchOpen);
    } else if a.left.contains(pos) {
        app.focus = Focus::Left;
        let line = (row - a.left.y) as usize;
        if app.search.showing {
            if app.mode == Mode::Search {
                app.mode = Mode::Normal;
            }
            let rows = results::rows(&app.search.view);
            if let Some(ResultRow::Hit(i)) = rows.get(app.search.offset + line) {
                app.search.selected = *i;
            }
        } else if app.tree.offset + line < app.tree.rows.len() {
            app.tree.cursor = app.tree.offset + line;
        }
    } else if a.preview.contains(pos) || a.preview_header.contains(pos) {
        if app.mode == Mode::Search {
            app.mode = Mode::Normal;
        }
        app.focus = Focus::Preview;
    }
}

/// Apply one worker result (stale generations are dropped).
pub fn apply(app: &mut App, msg: WorkerMsg) {
    match msg {
        WorkerMsg::LoadProgress { files } => {
            let (_, done, total) = app.progress.loading.unwrap_or((0, 0, 0));
            app.progress.loading = Some((files, done, total));
        }
        WorkerMsg::RootLoaded { corpus, done, total } => {
            let files = app.progress.loading.map_or(0, |l| l.0);
            app.progress.loading = Some((files, done, total));
            let first_new = app.corpus.roots.len();
            Arc::make_mut(&mut app.corpus).append(*corpus);
            app.data_gen += 1;
            app.tokens.resize(&app.corpus);
            let corpus = Arc::clone(&app.corpus);
            for r in &corpus.roots[first_new..] {
                app.tree.expanded.insert(*r);
                for w in &corpus.node(*r).warnings {
                    app.warnings.push(w.to_string());
                }
            }
            // A single root with a single child (a skill folder) opens one level deeper.
            if corpus.roots.len() == 1 {
                if let [only] = corpus.node(corpus.roots[0]).children.as_slice() {
                    app.tree.expanded.insert(*only);
                }
            }
            app.tree.rebuild(&corpus);
            app.preview.invalidate();
        }
        WorkerMsg::LoadDone => {
            app.progress.loading = None;
            let texts = app.corpus.nodes.iter().filter(|n| n.span.is_some()).count();
            app.progress.counting = (texts > 0).then_some((0, texts));
            app.effects.push(Effect::StartBackground);
            let n = app.corpus.len();
            if app.status.is_empty() {
                app.status = format!("Loaded {} roots · {} nodes", app.corpus.roots.len(), n);
            }
        }
        WorkerMsg::Tokens { generation, counts, done } => {
            if generation != app.data_gen {
                return;
            }
            for (id, n) in counts {
                app.tokens.set_own(id, n);
            }
            app.tokens.aggregate(&app.corpus);
            app.selection_tokens = app.selection.tokens(&app.corpus, &app.tokens);
            app.progress.counting = if done.0 >= done.1 { None } else { Some(done) };
            // Container summaries list child token sizes: re-render the shown one.
            let corpus = Arc::clone(&app.corpus);
            app.preview.cache.retain(|(n, _), _| corpus.node(*n).span.is_some());
            if app.preview.node.is_some_and(|n| corpus.node(n).span.is_none()) {
                app.preview.doc = None;
            }
        }
        WorkerMsg::FuzzyReady { generation, fuzzy } => {
            if generation == app.data_gen {
                app.fuzzy = Some(fuzzy);
                rerun_query(app);
            }
        }
        WorkerMsg::IndexProgress { generation, done } => {
            if generation == app.data_gen {
                app.progress.indexing = Some(done);
            }
        }
        WorkerMsg::IndexReady { generation, index } => {
            if generation == app.data_gen {
                app.index = Some(index);
                app.progress.indexing = None;
                rerun_query(app);
            }
        }
        WorkerMsg::SearchDone { generation, content, titles } => {
            if generation != app.search.generation {
                return;
            }
            app.search.pending = false;
            app.search.view = SearchView {
                query: app.search.query.clone(),
                content: content.hits,
                titles,
                terms: content.terms,
                did_you_mean: content.did_you_mean,
            };
            app.search.selected = app.search.selected.min(app.search.view.len().saturating_sub(1));
        }
        WorkerMsg::Copied(result) => {
            app.copying = false;
            app.status = match result {
                Ok(s) => s,
                Err(e) => e,
            };
        }
        WorkerMsg::Highlighted { generation, node, width, blocks } => {
            preview::apply_highlight(app, generation, node, width, blocks);
        }
        WorkerMsg::Failed { worker, message } => {
            if worker == "clipboard" {
                app.copying = false;
            }
            app.status = format!("{worker} worker failed: {message}");
        }
    }
    sync(app);
}

/// Re-run the current query (an index became available).
fn rerun_query(app: &mut App) {
    if !app.search.query.trim().is_empty() {
        app.search.generation += 1;
        app.search.pending = true;
        app.effects
            .push(Effect::Search { generation: app.search.generation, query: app.search.query.clone() });
    }
}

/// Keep cursors visible and the preview on the current node.
pub fn sync(app: &mut App) {
    let a = areas(app);
    app.tree.clamp();
    app.tree.scroll_to_cursor(a.left.height as usize);
    let h = a.left.height as usize;
    if h > 0 && !app.search.view.is_empty() {
        let row = results::row_of_hit(&app.search.view, app.search.selected);
        // Keep the group header above the first hit visible.
        let top = if app.search.selected == 0 { 0 } else { row };
        if top < app.search.offset {
            app.search.offset = top;
        } else if row >= app.search.offset + h {
            app.search.offset = row + 1 - h;
        }
    } else {
        app.search.offset = 0;
    }
    preview::sync(app, a.preview.width, a.preview.height as usize);
    let max_help = help_len(app).saturating_sub(help_page(app));
    app.help_scroll = app.help_scroll.min(max_help);
}

/// Number of lines in the help popup.
pub fn help_len(app: &App) -> usize {
    super::keymap::Mode::ALL.iter().map(|m| app.keymap.entries(*m).len() + 2).sum()
}
