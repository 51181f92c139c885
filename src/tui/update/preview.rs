//! Keys of the preview's layout: sideways scroll of wide code rows, wrap ↔ scroll, raw ↔
//! rendered text, full width ↔ beside the tree. Changing the mode drops the cached
//! documents (they are laid out per mode); `sync` builds the current one again.

use crate::tui::input::action::Action;
use crate::tui::state::app::Focus;
use crate::tui::state::preview::PreviewState;

use super::ctx::{Ctx, Panes, Shared};

/// Cells one sideways step moves in a preview `width` cells wide: a third of it, at least 4.
fn step(width: u16) -> isize {
    (width as isize / 3).max(4)
}

/// Whether the shown document has code rows wider than the preview's `width` cells
/// (something to scroll).
pub fn can_scroll_sideways(preview: &PreviewState, width: u16) -> bool {
    let width = usize::from(width);
    preview
        .doc
        .as_ref()
        .is_some_and(|d| d.rendered.widest_code_row() > width)
}

/// Apply one preview-layout action to the panes (the layout of `shared`'s screen).
pub fn preview_action(panes: &mut Panes, shared: &Shared, action: &Action, ctx: &mut Ctx) {
    let width = panes.areas(shared).preview.width;
    let preview = &mut *panes.preview;
    match action {
        Action::ScrollLeft => preview.hscroll_by(-step(width)),
        Action::ScrollRight => {
            if can_scroll_sideways(preview, width) {
                preview.hscroll_by(step(width));
            } else {
                ctx.say("No wide code lines here");
            }
        }
        Action::ToggleWrap => {
            preview.mode.wrap = !preview.mode.wrap;
            preview.hscroll = 0;
            preview.invalidate();
            ctx.say(if preview.mode.wrap {
                "Long code lines wrap"
            } else {
                "Long code lines scroll sideways (← →, < >)"
            });
        }
        Action::PreviewRaw => {
            preview.mode.raw = !preview.mode.raw;
            preview.hscroll = 0;
            preview.invalidate();
            ctx.say(if preview.mode.raw {
                "Raw text"
            } else {
                "Rendered markdown"
            });
        }
        Action::ToggleWide => {
            preview.wide = !preview.wide;
            if preview.wide {
                *panes.focus = Focus::Preview;
            }
            ctx.say(if preview.wide {
                "Preview at full width (f again: beside the tree)"
            } else {
                "Preview beside the tree"
            });
        }
        _ => {}
    }
}
