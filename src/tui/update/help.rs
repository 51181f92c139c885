//! Keys of the help popup: scroll by line or page, top and bottom, close.

use crate::tui::input::action::Action;
use crate::tui::state::app::App;
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::help_page;

/// Keys of the help popup scrolled to `scroll` (put back unless they close it).
pub fn help_action(app: &mut App, scroll: usize, action: Action) {
    let page = help_page(app);
    let scroll = match action {
        Action::MoveDown => scroll.saturating_add(1),
        Action::MoveUp => scroll.saturating_sub(1),
        Action::PageDown | Action::HalfPageDown => scroll.saturating_add(page),
        Action::PageUp | Action::HalfPageUp => scroll.saturating_sub(page),
        Action::Top => 0,
        Action::Bottom => usize::MAX,
        Action::Escape | Action::Help => return,
        _ => scroll,
    };
    app.popups.push(Popup::Help { scroll });
}
