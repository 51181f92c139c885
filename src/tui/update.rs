//! The only mutators of [`App`]: [`update`] applies one [`Action`] (the search box's
//! actions live in `search.rs`, the mouse's in `mouse.rs`), [`apply`] one worker result
//! (`apply.rs`). Both finish with [`sync`], which keeps the cursors visible and the preview
//! in step with the current node. Work for the workers is queued in [`App::effects`].

use std::sync::Arc;

use super::action::Action;
use super::app::{App, Focus};
pub use super::apply::apply;
use super::curate::PreviewKind;
use super::curate::actions::{self as curate, curate_action};
use super::editor::actions::{self as edit, editor_action};
use super::keymap::Mode;
use super::layout::{self, Areas};
use super::mouse::{mouse_click, mouse_scroll};
use super::preview;
use super::results;
use super::search::{jump_to_hit, move_hit, search_action, set_query};
use crate::util::human;

/// The layout of the current frame.
pub fn areas(app: &App) -> Areas {
    layout::areas(app.size.0, app.size.1, app.settings.ui.tree_percent, app.focus)
}

/// Apply one user action.
pub fn update(app: &mut App, action: Action) {
    match action {
        Action::Resize(w, h) => app.size = (w, h),
        Action::ScrollAt { .. } | Action::ClickAt { .. }
            if app.mode.is_editor() || app.mode.is_curate() || app.mode == Mode::Outline => {}
        Action::ScrollAt { col, row, down } => mouse_scroll(app, col, row, down),
        Action::ClickAt { col, row } => mouse_click(app, col, row),
        Action::Quit => app.quit = true,
        Action::Redraw => app.redraw = true,
        other => match app.mode {
            Mode::Help => help_action(app, other),
            Mode::Search => search_action(app, other),
            Mode::Normal => normal_action(app, other),
            Mode::Form | Mode::Field | Mode::Raw | Mode::Diff | Mode::Prompt | Mode::Confirm => {
                editor_action(app, other)
            }
            Mode::Brief | Mode::Recipes | Mode::Input | Mode::Ask => curate_action(app, other),
            Mode::Outline => super::outline::action(app, other),
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
        Action::Top => app.help_scroll = 0,
        Action::Bottom => app.help_scroll = usize::MAX,
        Action::Escape | Action::Help => app.mode = Mode::Normal,
        _ => {}
    }
}

fn help_page(app: &App) -> usize {
    (app.size.1 as usize).saturating_sub(4).max(1)
}

pub(super) fn normal_action(app: &mut App, action: Action) {
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
        Action::CopyBrief => curate::copy_brief(app),
        Action::CopySkill => curate::copy_skill(app),
        Action::Outline => super::outline::open(app),
        Action::ReloadAll => {
            let n = app.specs.len();
            for root in 0..n {
                app.effects.push(super::app::Effect::Reload { root });
            }
            app.status = if n == 0 {
                "Nothing to reload".into()
            } else {
                format!("Reloading {} from disk…", human::plural(n, "root"))
            };
        }
        Action::BriefPreview => curate::open_preview(app, PreviewKind::Brief),
        Action::CycleExposure => curate::cycle_exposure(app),
        Action::CycleBudget => curate::cycle_budget(app),
        Action::CustomBudget => curate::open_custom_budget(app),
        Action::Recipes => super::curate::recipes::open(app),
        Action::Export => super::curate::export::start(app),
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
        Action::EditOpen => edit::open(app),
        Action::EditExternal => edit::open_external(app),
        Action::UndoSave => edit::undo(app),
        // Text input only means something in the search box.
        _ => {}
    }
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
    curate::recount(app);
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
    format!("sel {} · {}{more} tok", app.selection.len(), human::short_count(tokens))
}

pub(super) fn page(app: &App) -> usize {
    (areas(app).preview.height as usize).max(1)
}

pub(super) fn scroll_preview(app: &mut App, delta: isize) {
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
    curate::sync(app);
    let max_help = help_len(app).saturating_sub(help_page(app));
    app.help_scroll = app.help_scroll.min(max_help);
}

/// A warning as help lines of at most `width` cells: indented two cells, continuation lines
/// four.
pub fn warning_lines(w: &str, width: usize) -> Vec<String> {
    let lines = crate::render::wrap::wrap_text(w, width.saturating_sub(4).max(8));
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("  {l}") } else { format!("    {l}") })
        .collect()
}

/// Number of lines in the help popup.
pub fn help_len(app: &App) -> usize {
    let width = app.size.0.min(super::view::HELP_WIDTH).saturating_sub(2) as usize;
    let warnings = if app.warnings.is_empty() {
        0
    } else {
        2 + app.warnings.iter().map(|w| warning_lines(w, width).len()).sum::<usize>()
    };
    warnings + super::keymap::Mode::ALL.iter().map(|m| app.keymap.entries(*m).len() + 2).sum::<usize>()
}
