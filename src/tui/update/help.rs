//! Keys of the help popup: scroll by line, page or half page, top and bottom, close.

use crate::tui::input::action::Action;

/// Keys of the help popup scrolled to `scroll`, `page` lines high: the new scroll, or
/// `None` when the key closes it.
pub fn help_action(scroll: usize, action: Action, page: usize) -> Option<usize> {
    let scroll = match action {
        Action::MoveDown => scroll.saturating_add(1),
        Action::MoveUp => scroll.saturating_sub(1),
        Action::PageDown => scroll.saturating_add(page),
        Action::PageUp => scroll.saturating_sub(page),
        Action::HalfPageDown => scroll.saturating_add((page / 2).max(1)),
        Action::HalfPageUp => scroll.saturating_sub((page / 2).max(1)),
        Action::Top => 0,
        Action::Bottom => usize::MAX,
        Action::Escape | Action::Help => return None,
        _ => scroll,
    };
    Some(scroll)
}
