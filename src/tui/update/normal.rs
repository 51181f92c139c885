//! Keys of the tree, the results list and the preview (normal mode): moving, expanding and
//! collapsing, switching panes, selecting, jumping between matches and scrolling.

use std::sync::Arc;

use crate::tui::effect::Effect;
use crate::tui::input::action::Action;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::page;
use crate::util::human;

/// Keys of normal mode that stay in the tree, the results and the preview.
pub fn normal_action(app: &mut App, action: Action) {
    let results = app.search.showing && app.focus == Focus::Left;
    match action {
        Action::MoveDown | Action::MoveUp => {
            let d = if action == Action::MoveDown { 1 } else { -1 };
            match (app.focus, results) {
                (Focus::Preview, _) => app.preview.scroll_by(d),
                (Focus::Left, true) => app.search.move_hit(d),
                (Focus::Left, false) => app.tree.move_by(d),
            }
        }
        Action::Top | Action::Bottom => {
            let top = action == Action::Top;
            match (app.focus, results) {
                (Focus::Preview, _) => app.preview.scroll = if top { 0 } else { usize::MAX },
                (Focus::Left, true) => {
                    app.search
                        .move_hit(if top { isize::MIN / 2 } else { isize::MAX / 2 });
                }
                (Focus::Left, false) => {
                    app.tree
                        .move_by(if top { isize::MIN / 2 } else { isize::MAX / 2 });
                }
            }
        }
        Action::Expand => match (app.focus, results) {
            (Focus::Left, true) => app.followups.push(Msg::JumpToHit),
            (Focus::Left, false) => expand(app),
            (Focus::Preview, _) => app.followups.push(Msg::PreviewSideways(true)),
        },
        Action::Collapse => match (app.focus, results) {
            (Focus::Left, true) => app.search.showing = false,
            (Focus::Left, false) => collapse(app),
            (Focus::Preview, _) if app.preview.hscroll > 0 => {
                app.followups.push(Msg::PreviewSideways(false));
            }
            (Focus::Preview, _) => app.focus = Focus::Left,
        },
        Action::FocusNext => {
            app.focus = if app.focus == Focus::Left {
                Focus::Preview
            } else {
                Focus::Left
            };
        }
        Action::ReloadAll => {
            let n = app.specs.len();
            for root in 0..n {
                app.effects.push(Effect::Reload { root });
            }
            app.status = if n == 0 {
                "Nothing to reload".into()
            } else {
                format!("Reloading {} from disk…", human::plural(n, "root"))
            };
        }
        Action::Escape => {
            if app.search.showing {
                app.search.showing = false;
            } else if !app.search.query.is_empty() {
                app.followups.push(Msg::SetQuery(String::new()));
                app.status = "Search cleared".into();
            } else if app.focus == Focus::Preview {
                app.focus = Focus::Left;
            }
        }
        Action::NextMatch => step_match(app, true),
        Action::PrevMatch => step_match(app, false),
        Action::PageDown | Action::PageUp | Action::HalfPageDown | Action::HalfPageUp => {
            page_focused(app, &action, results);
        }
        Action::Help => {
            app.popups.push(Popup::Help { scroll: 0 });
        }
        // Text input only means something in the search box.
        _ => {}
    }
}

fn expand(app: &mut App) {
    let Some(id) = app.tree.current() else { return };
    let corpus = Arc::clone(&app.corpus);
    let node = corpus.node(id);
    if app.tree.children_of(&corpus, id).is_empty() {
        // A leaf keeps the focus in the tree, so `j`/`k`/`G` still move the cursor.
        let tab = app
            .keymap
            .first_key(crate::tui::input::keymap::Mode::Normal, &Action::FocusNext)
            .unwrap_or_else(|| "tab".into());
        app.status = format!("{} has no children · {tab} scrolls the preview", node.title);
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
    } else if let Some(i) = app.tree.parent_row() {
        // The row drawn above at a lower depth: the parent, or the file a compacted
        // heading belongs to.
        app.tree.cursor = i;
    }
}

/// The paging keys move the focused pane: the tree's cursor, the results' selection or the
/// preview's scroll, by the pane's page (or half of it).
fn page_focused(app: &mut App, action: &Action, results: bool) {
    let pane = match app.focus {
        Focus::Preview => page(app),
        Focus::Left => super::tree::tree_page(app),
    };
    let half = (pane / 2).max(1);
    let d = match action {
        Action::PageDown => pane as isize,
        Action::PageUp => -(pane as isize),
        Action::HalfPageDown => half as isize,
        _ => -(half as isize),
    };
    match (app.focus, results) {
        (Focus::Preview, _) => app.preview.scroll_by(d),
        (Focus::Left, true) => app.search.move_hit(d),
        (Focus::Left, false) => app.tree.move_by(d),
    }
}

fn step_match(app: &mut App, forward: bool) {
    let Some(doc) = app.preview.doc.clone() else {
        return;
    };
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
        (None, true) => matches
            .iter()
            .position(|l| *l >= app.preview.scroll)
            .unwrap_or(0),
        (None, false) => matches
            .iter()
            .rposition(|l| *l < app.preview.scroll)
            .unwrap_or(n - 1),
        (Some(i), true) => (i + 1) % n,
        (Some(i), false) => (i + n - 1) % n,
    };
    app.preview.match_ix = Some(next);
    app.preview.scroll = match_scroll(matches[next], page(app));
    let width = usize::from(crate::tui::view::layout::areas(app).preview.width);
    app.preview.hscroll = doc
        .rendered
        .hscroll_for_match(matches[next], width)
        .unwrap_or(0);
    app.status = format!("match {}/{}", next + 1, n);
}

/// Scroll so that `line` sits a third of the way down the page.
fn match_scroll(line: usize, page: usize) -> usize {
    line.saturating_sub(page / 3)
}
