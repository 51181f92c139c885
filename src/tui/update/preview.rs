//! Keys of the preview's layout: sideways scroll of wide code rows, wrap ↔ scroll, raw ↔
//! rendered text, full width ↔ beside the tree. Changing the mode drops the cached
//! documents (they are laid out per mode); `sync` builds the current one again.

use crate::tui::input::action::Action;
use crate::tui::state::app::{App, Focus};
use crate::tui::view::layout::areas;

/// Cells one sideways step moves: a third of the preview, at least 4.
fn step(app: &App) -> isize {
    (areas(app).preview.width as isize / 3).max(4)
}

/// Whether the shown document has code rows wider than the preview (something to scroll).
pub fn can_scroll_sideways(app: &App) -> bool {
    let width = usize::from(areas(app).preview.width);
    app.preview
        .doc
        .as_ref()
        .is_some_and(|d| d.rendered.widest_code_row() > width)
}

/// Apply one preview-layout action.
pub fn preview_action(app: &mut App, action: &Action) {
    match action {
        Action::ScrollLeft => app.preview.hscroll_by(-step(app)),
        Action::ScrollRight => {
            if can_scroll_sideways(app) {
                app.preview.hscroll_by(step(app));
            } else {
                app.status = "No wide code lines here".into();
            }
        }
        Action::ToggleWrap => {
            app.preview.mode.wrap = !app.preview.mode.wrap;
            app.preview.hscroll = 0;
            app.preview.invalidate();
            app.status = if app.preview.mode.wrap {
                "Long code lines wrap"
            } else {
                "Long code lines scroll sideways (← →, < >)"
            }
            .into();
        }
        Action::PreviewRaw => {
            app.preview.mode.raw = !app.preview.mode.raw;
            app.preview.hscroll = 0;
            app.preview.invalidate();
            app.status = if app.preview.mode.raw {
                "Raw text"
            } else {
                "Rendered markdown"
            }
            .into();
        }
        Action::ToggleWide => {
            app.preview.wide = !app.preview.wide;
            if app.preview.wide {
                app.focus = Focus::Preview;
            }
            app.status = if app.preview.wide {
                "Preview at full width (f again: beside the tree)"
            } else {
                "Preview beside the tree"
            }
            .into();
        }
        _ => {}
    }
}
