//! Screen layout as a pure function of the terminal size, shared by the views (to draw) and
//! by `update` (page sizes, mouse hit-testing, scroll ranges of the popups), so both always
//! agree. Works down to 1×1:
//! every rectangle is clipped to the screen and may be empty.

use ratatui::layout::Rect;

use crate::tui::input::keymap::Mode;
use crate::tui::state::app::{App, Focus};

/// The rectangles of one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Areas {
    /// Search box and encoding/selection summary (top line).
    pub top: Rect,
    /// Tree or search results.
    pub left: Rect,
    /// The vertical separator between the panes (zero-width when only one pane shows).
    pub sep: Rect,
    /// Preview header line (title, id, sizes).
    pub preview_header: Rect,
    /// Preview body.
    pub preview: Rect,
    /// Status line and key hints (bottom line).
    pub status: Rect,
}

/// Below this width only the focused pane is shown.
pub const TWO_PANE_MIN_WIDTH: u16 = 40;

/// Smallest screen (columns, rows) the panes are drawn on; a smaller one only says so
/// (docs/DESIGN.md §6).
pub const MIN_SIZE: (u16, u16) = (30, 6);

/// Whether a `width`×`height` screen is below [`MIN_SIZE`].
pub fn too_small(width: u16, height: u16) -> bool {
    width < MIN_SIZE.0 || height < MIN_SIZE.1
}

/// Compute the layout for a `width`×`height` screen. `tree_percent` is the left pane share
/// (clamped to 20..=80); `focus` picks the single pane on narrow screens.
pub fn areas_for(width: u16, height: u16, tree_percent: u16, focus: Focus) -> Areas {
    let mut a = Areas {
        top: Rect::new(0, 0, width, height.min(1)),
        ..Areas::default()
    };
    if height >= 2 {
        a.status = Rect::new(0, height - 1, width, 1);
    }
    let mid_h = height.saturating_sub(2);
    if mid_h == 0 || width == 0 {
        return a;
    }
    let (left_w, sep_w) = if width >= TWO_PANE_MIN_WIDTH {
        let pct = u32::from(tree_percent.clamp(20, 80));
        ((u32::from(width) * pct / 100) as u16, 1)
    } else if focus == Focus::Left {
        (width, 0)
    } else {
        (0, 0)
    };
    a.left = Rect::new(0, 1, left_w, mid_h);
    a.sep = Rect::new(left_w, 1, sep_w, mid_h);
    let right_x = left_w + sep_w;
    let right_w = width - right_x;
    a.preview_header = Rect::new(right_x, 1, right_w, mid_h.min(1));
    a.preview = Rect::new(right_x, 2, right_w, mid_h.saturating_sub(1));
    a
}

/// The layout of the current frame: with the preview at full width (`f`) only the
/// focused pane shows, as on a narrow screen.
pub fn areas(app: &App) -> Areas {
    areas_of(
        app.size,
        app.settings.ui.tree_percent,
        app.focus,
        app.preview.wide,
    )
}

/// The layout of a frame on a `size` (columns, rows) screen with the left pane at
/// `tree_percent`, `focus` on a pane, and the preview at full width when `wide`: what
/// [`areas`] computes, from those values alone.
pub fn areas_of(size: (u16, u16), tree_percent: u16, focus: Focus, wide: bool) -> Areas {
    let a = areas_for(size.0, size.1, tree_percent, focus);
    if wide { single_pane(a, focus) } else { a }
}

/// `a` with one pane over the whole middle: the tree and results (`Focus::Left`) or the
/// preview.
fn single_pane(mut a: Areas, focus: Focus) -> Areas {
    let mid = Rect::new(0, a.left.y, a.top.width, a.left.height);
    a.sep = Rect::new(0, mid.y, 0, mid.height);
    if focus == Focus::Left {
        a.left = mid;
        a.preview_header = Rect::new(mid.width, mid.y, 0, mid.height.min(1));
        a.preview = Rect::new(mid.width, mid.y + 1, 0, mid.height.saturating_sub(1));
    } else {
        a.left = Rect::new(0, mid.y, 0, mid.height);
        a.preview_header = Rect::new(0, mid.y, mid.width, mid.height.min(1));
        a.preview = Rect::new(0, mid.y + 1, mid.width, mid.height.saturating_sub(1));
    }
    a
}

/// Lines of one preview page (the preview body's height, at least 1).
pub fn page(app: &App) -> usize {
    (areas(app).preview.height as usize).max(1)
}

/// Lines of one help page (the popup less its borders, at least 1).
pub fn help_page(app: &App) -> usize {
    (app.size.1 as usize).saturating_sub(4).max(1)
}

/// Widest the help popup gets, in cells (borders included).
pub const HELP_WIDTH: u16 = 84;

/// A warning as help lines of at most `width` cells: indented two cells, continuation lines
/// four.
pub fn warning_lines(w: &str, width: usize) -> Vec<String> {
    let lines = crate::render::wrap::wrap_text(w, width.saturating_sub(4).max(8));
    lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("  {l}")
            } else {
                format!("    {l}")
            }
        })
        .collect()
}

/// Number of lines in the help popup.
pub fn help_len(app: &App) -> usize {
    let width = app.size.0.min(HELP_WIDTH).saturating_sub(2) as usize;
    let warnings = if app.warnings.is_empty() {
        0
    } else {
        2 + app
            .warnings
            .iter()
            .map(|w| warning_lines(w, width).len())
            .sum::<usize>()
    };
    warnings
        + crate::tui::view::legend::legend_len()
        + Mode::ALL
            .iter()
            .map(|m| app.keymap.entries(*m).len() + 2)
            .sum::<usize>()
}

/// Inner (text) size of the preview popup on a `w`×`h` screen ([`preview_area`] less its
/// borders, the header line and the footer line).
pub fn preview_inner(w: u16, h: u16) -> (u16, u16) {
    let area = preview_area(w, h);
    (
        area.2.saturating_sub(2).max(1),
        area.3.saturating_sub(4).max(1),
    )
}

/// `(x, y, width, height)` of the preview popup on a `w`×`h` screen: the whole width
/// between the top line (the budget stays in view) and the status line; the whole screen
/// when it is shorter than 6 rows.
pub fn preview_area(w: u16, h: u16) -> (u16, u16, u16, u16) {
    if h < 6 {
        (0, 0, w, h)
    } else {
        (0, 1, w, h - 2)
    }
}

/// Rows of the outline list on a screen `h` rows high (the popup less borders and footer).
pub fn list_height(h: u16) -> usize {
    (h.saturating_sub(2).max(h.min(3)) as usize)
        .saturating_sub(3)
        .max(1)
}

/// The area of a list popup over the right part of `screen` (the tree stays visible): at
/// most `max_width` wide, two cells short of the screen's height, centred vertically;
/// empty when the screen has no room.
pub fn right_popup(screen: Rect, max_width: u16) -> Rect {
    let w = screen
        .width
        .saturating_sub(2)
        .min(max_width)
        .max(screen.width.min(10));
    let h = screen.height.saturating_sub(2).max(screen.height.min(3));
    Rect::new(
        screen.x + screen.width - w,
        screen.y + (screen.height - h) / 2,
        w,
        h,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_panes_at_120x40() {
        let a = areas_for(120, 40, 42, Focus::Left);
        assert_eq!(a.top, Rect::new(0, 0, 120, 1));
        assert_eq!(a.left, Rect::new(0, 1, 50, 38));
        assert_eq!(a.sep, Rect::new(50, 1, 1, 38));
        assert_eq!(a.preview_header, Rect::new(51, 1, 69, 1));
        assert_eq!(a.preview, Rect::new(51, 2, 69, 37));
        assert_eq!(a.status, Rect::new(0, 39, 120, 1));
    }

    #[test]
    fn tiny_screens_have_empty_panes() {
        let a = areas_for(2, 2, 42, Focus::Left);
        assert_eq!(a.top, Rect::new(0, 0, 2, 1));
        assert_eq!(a.status, Rect::new(0, 1, 2, 1));
        assert_eq!(a.left.area(), 0);
        let b = areas_for(1, 1, 42, Focus::Preview);
        assert_eq!(b.status.area(), 0);
        let c = areas_for(20, 5, 42, Focus::Preview);
        assert_eq!(c.left.width, 0);
        assert_eq!(c.preview, Rect::new(0, 2, 20, 2));
    }
}
