//! Keys of the help popup: scroll by line, page or half page, top and bottom, close.

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
        Action::PageDown => scroll.saturating_add(page),
        Action::PageUp => scroll.saturating_sub(page),
        Action::HalfPageDown => scroll.saturating_add((page / 2).max(1)),
        Action::HalfPageUp => scroll.saturating_sub((page / 2).max(1)),
        Action::Top => 0,
        Action::Bottom => usize::MAX,
        Action::Escape | Action::Help => return,
        _ => scroll,
    };
    app.popups.push(Popup::Help { scroll });
}
