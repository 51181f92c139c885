//! Shared helpers of the TUI screen tests: draw an app on a `TestBackend` and read the
//! buffer back as text (cells covered by wide characters skipped).

#![allow(dead_code)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use skillnav::tui::effects::headless;
use skillnav::tui::input::action::Action;
use skillnav::tui::state::app::App;
use skillnav::tui::{update::update, view};

/// Apply each action through `update`, running the queued worker jobs after each.
pub fn act(app: &mut App, actions: &[Action]) {
    for a in actions {
        update(app, a.clone());
        headless::settle(app);
    }
}

/// Draw `app` at its size on a new `TestBackend`.
pub fn draw(app: &App) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(app.size.0, app.size.1)).expect("terminal");
    t.draw(|f| view::draw(f, app)).expect("draw");
    t
}

/// Text of row `y` from column `x0` to `x1`, skipping cells covered by wide characters.
pub fn span_text(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    let mut out = String::new();
    let mut skip = 0;
    for x in x0..x1.min(buf.area.width) {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        let sym = buf[(x, y)].symbol();
        skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
        out.push_str(sym);
    }
    out
}

/// Text of row `y`.
pub fn row_text(buf: &Buffer, y: u16) -> String {
    span_text(buf, y, 0, buf.area.width)
}

/// All rows, joined with `\n`.
pub fn screen_text(buf: &Buffer) -> String {
    (0..buf.area.height).map(|y| row_text(buf, y)).collect::<Vec<_>>().join("\n")
}
