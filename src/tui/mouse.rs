//! Mouse: the wheel scrolls the pane under the pointer, a click selects a row or focuses
//! a pane (positions are hit-tested against the same layout the views draw with).

use super::action::Action;
use super::app::{App, Focus};
use super::keymap::Mode;
use super::results::{self, ResultRow};
use super::search::move_hit;
use super::update::{areas, normal_action, scroll_preview};

/// Lines the mouse wheel scrolls per notch.
const WHEEL_LINES: isize = 3;

pub(super) fn mouse_scroll(app: &mut App, col: u16, row: u16, down: bool) {
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

pub(super) fn mouse_click(app: &mut App, col: u16, row: u16) {
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
