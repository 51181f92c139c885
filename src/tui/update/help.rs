//! Keys of the help popup: scroll by line or page, top and bottom, close.

use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::view::layout::help_page;

/// Keys of the help popup.
pub fn help_action(app: &mut App, action: Action) {
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
