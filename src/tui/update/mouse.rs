//! Mouse over the panes (popups get the wheel as `j`/`k`, see `update::route`): the wheel
//! scrolls the pane under the pointer, a click selects a row or focuses a pane (positions are hit-tested against the same layout the views draw with); on a screen too small to draw the panes both do nothing.

use crate::tui::state::app::{App, Focus};
use crate::tui::state::followup::Msg;
use crate::tui::state::results::{self, ResultRow};
use crate::tui::view::layout::{areas, too_small};

/// Lines the mouse wheel scrolls per notch.
pub const WHEEL_LINES: isize = 3;

/// The mouse wheel at (`col`, `row`): scroll the pane under the pointer.
pub fn mouse_scroll(app: &mut App, col: u16, row: u16, down: bool) {
    if too_small(app.size.0, app.size.1) {
        return;
    }
    let a = areas(app);
    let d = if down { WHEEL_LINES } else { -WHEEL_LINES };
    let pos = ratatui::layout::Position { x: col, y: row };
    if a.left.contains(pos) {
        if app.search.showing {
            app.search.move_hit(d);
        } else {
            app.tree.move_by(d);
        }
    } else if a.preview.contains(pos) || a.preview_header.contains(pos) {
        app.preview.scroll_by(d);
    }
}

/// A left click at (`col`, `row`): focus the search box, select a row or focus a pane.
pub fn mouse_click(app: &mut App, col: u16, row: u16) {
    if too_small(app.size.0, app.size.1) {
        return;
    }
    let a = areas(app);
    let pos = ratatui::layout::Position { x: col, y: row };
    if a.top.contains(pos) {
        app.followups.push(Msg::OpenSearch);
    } else if a.left.contains(pos) {
        app.focus = Focus::Left;
        let line = (row - a.left.y) as usize;
        if app.search.showing {
            app.search.active = false;
            let rows = results::rows(&app.search.view);
            if let Some(ResultRow::Hit(i)) = rows.get(app.search.offset + line) {
                app.search.selected = *i;
            }
        } else if app.tree.offset + line < app.tree.rows.len() {
            app.tree.cursor = app.tree.offset + line;
        }
    } else if a.preview.contains(pos) || a.preview_header.contains(pos) {
        app.search.active = false;
        app.focus = Focus::Preview;
    }
}
