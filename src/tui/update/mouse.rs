//! Mouse over the panes (popups get the wheel as `j`/`k`, see `update::route`): the wheel
//! scrolls the pane under the pointer, a click selects a row or focuses a pane (positions are hit-tested against the same layout the views draw with); on a screen too small to draw the panes both do nothing.

use crate::tui::state::app::Focus;
use crate::tui::state::followup::Msg;
use crate::tui::state::results::{self, ResultRow};
use crate::tui::view::layout::too_small;

use super::ctx::{Ctx, Panes, Shared};

/// Lines the mouse wheel scrolls per notch.
pub const WHEEL_LINES: isize = 3;

/// The mouse wheel at (`col`, `row`) of `shared`'s screen: scroll the pane under the
/// pointer.
pub fn mouse_scroll(panes: &mut Panes, shared: &Shared, col: u16, row: u16, down: bool) {
    if too_small(shared.size.0, shared.size.1) {
        return;
    }
    let a = panes.areas(shared);
    let d = if down { WHEEL_LINES } else { -WHEEL_LINES };
    let pos = ratatui::layout::Position { x: col, y: row };
    if a.left.contains(pos) {
        if panes.search.showing {
            panes.search.move_hit(d);
        } else {
            panes.tree.move_by(d);
        }
    } else if a.preview.contains(pos) || a.preview_header.contains(pos) {
        panes.preview.scroll_by(d);
    }
}

/// A left click at (`col`, `row`) of `shared`'s screen: focus the search box, select a row
/// or focus a pane.
pub fn mouse_click(panes: &mut Panes, shared: &Shared, col: u16, row: u16, ctx: &mut Ctx) {
    if too_small(shared.size.0, shared.size.1) {
        return;
    }
    let a = panes.areas(shared);
    let pos = ratatui::layout::Position { x: col, y: row };
    if a.top.contains(pos) {
        ctx.follow(Msg::OpenSearch);
    } else if a.left.contains(pos) {
        *panes.focus = Focus::Left;
        let line = (row - a.left.y) as usize;
        let (search, tree) = (&mut *panes.search, &mut *panes.tree);
        if search.showing {
            search.active = false;
            let rows = results::rows(&search.view);
            if let Some(ResultRow::Hit(i)) = rows.get(search.offset + line) {
                search.selected = *i;
            }
        } else if tree.offset + line < tree.rows.len() {
            tree.cursor = tree.offset + line;
        }
    } else if a.preview.contains(pos) || a.preview_header.contains(pos) {
        panes.search.active = false;
        *panes.focus = Focus::Preview;
    }
}
