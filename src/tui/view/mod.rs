//! Drawing: pure functions of `&App` into a ratatui frame. Views never mutate state, never
//! do I/O and never parse; they slice the cached preview lines and format rows.

mod collisions;
mod curate;
mod editor;
mod framed;
mod help;
pub mod layers;
pub mod layout;
pub mod legend;
mod outline;
mod preview;
mod results;
mod row;
mod status;
mod top;
mod tree;

use ratatui::Frame;

use crate::tui::state::app::App;
use crate::tui::state::popup::Popup;
use crate::tui::view::layout::areas;

/// Draw the whole screen (a screen below [`layout::MIN_SIZE`] only says that it is).
pub fn draw(frame: &mut Frame, app: &App) {
    if layout::too_small(app.size.0, app.size.1) {
        draw_too_small(frame, app);
        return;
    }
    let a = areas(app);
    top::draw(frame, app, a.top);
    if app.search.showing {
        results::draw(frame, app, a.left);
    } else {
        tree::draw(frame, app, a.left);
    }
    if a.sep.width > 0 {
        let lines: Vec<ratatui::text::Line> = (0..a.sep.height)
            .map(|_| ratatui::text::Line::styled("│", app.theme.border))
            .collect();
        frame.render_widget(ratatui::widgets::Paragraph::new(lines), a.sep);
    }
    preview::draw(frame, app, a.preview_header, a.preview);
    status::draw(frame, app, a.status);
    match app.popups.last() {
        Some(Popup::Help { scroll }) => help::draw(frame, app, *scroll, frame.area()),
        Some(Popup::Editor(_)) => editor::draw(frame, app, frame.area()),
        Some(Popup::Outline(_)) => outline::draw(frame, app, frame.area()),
        Some(Popup::Collisions(_)) => collisions::draw(frame, app, frame.area()),
        Some(_) => curate::draw(frame, app, frame.area()),
        None => {}
    }
}

/// "Terminal too small", the size and the size needed, one per line, cut to the width.
fn draw_too_small(frame: &mut Frame, app: &App) {
    let (w, h) = app.size;
    let (mw, mh) = layout::MIN_SIZE;
    let lines: Vec<ratatui::text::Line> = [
        "Terminal too small".to_string(),
        format!("{w}×{h}, need {mw}×{mh}"),
    ]
    .into_iter()
    .map(|t| row::fit(vec![(t, app.theme.header)], vec![], usize::from(w), 0))
    .collect();
    frame.render_widget(ratatui::widgets::Paragraph::new(lines), frame.area());
}
