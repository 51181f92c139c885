//! The top line: the search box (query, hit counts, "did you mean") on the left and
//! `o200k · sel 3 · 4.2k tok` on the right.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::widgets::Paragraph;

use super::row::{Piece, fit};
use crate::render::width::str_width;
use crate::tui::app::App;
use crate::tui::keymap::Mode;
use crate::tui::update::selection_summary;

/// Draw the top line into `area` (and place the text cursor while searching).
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    if area.area() == 0 {
        return;
    }
    let t = &app.theme;
    let s = &app.search;
    let searching = app.mode == Mode::Search;
    let mut left: Vec<Piece> = vec![(" / ".into(), t.key.patch(t.top))];
    let prefix_w = 3;
    if s.query.is_empty() && !searching {
        left.push(("search".into(), t.dim.patch(t.top)));
    } else {
        left.push((s.query.clone(), t.query.patch(t.top)));
        let info = if s.query.trim().is_empty() {
            String::new()
        } else if s.pending {
            "  searching…".into()
        } else {
            let mut x = format!("  {} content · {} titles", s.view.content.len(), s.view.titles.len());
            if !s.view.did_you_mean.is_empty() {
                let dym: Vec<&str> = s.view.did_you_mean.iter().map(|(_, b)| b.as_str()).collect();
                x.push_str(&format!(" · did you mean {}", dym.join(" ")));
            }
            x
        };
        left.push((info, t.dim.patch(t.top)));
    }
    let right: Vec<Piece> =
        vec![(format!(" {} · {} ", app.encoding().short(), selection_summary(app)), t.top)];
    let mut line = fit(left, right, area.width as usize, 12);
    let w = line.width();
    if w < area.width as usize {
        line.spans.push(ratatui::text::Span::styled(" ".repeat(area.width as usize - w), t.top));
    }
    frame.render_widget(Paragraph::new(line).style(t.top), area);
    if searching {
        let before: String = s.query.chars().take(s.cursor).collect();
        let x = (prefix_w + str_width(&crate::sanitize::sanitize_line(&before))) as u16;
        if x < area.width {
            frame.set_cursor_position(Position { x: area.x + x, y: area.y });
        }
    }
}
