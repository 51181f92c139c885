//! The preview pane: a header line (title, id, lines, bytes, tokens, warnings) and the
//! visible slice of the cached rendered document.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::tui::bridge;
use crate::tui::state::app::{App, Focus};
use crate::tui::view::row::{Piece, fit};
use crate::util::human;

/// Draw the header into `header` and the body into `body`.
pub fn draw(frame: &mut Frame, app: &App, header: Rect, body: Rect) {
    let t = &app.theme;
    let Some(id) = app.current_node() else { return };
    let node = app.corpus.node(id);
    if header.area() > 0 {
        // The focused pane carries the cursor bar: the tree's cursor row, or this title.
        let title_style = if app.focus == Focus::Preview {
            t.cursor
        } else {
            t.query
        };
        let mut left: Vec<Piece> = vec![(format!("{} ", node.title), title_style)];
        if node.id != node.title {
            left.push((node.id.clone(), t.dim));
        }
        if let (Some(a), Some(b)) = (node.line_start, node.line_end) {
            left.push((format!(" · L{a}–{b}"), t.dim));
        }
        let tok = match app.tokens.total(id) {
            Some(n) => format!("{} tok", human::short_count(n)),
            None => "… tok".into(),
        };
        let mut right: Vec<Piece> = vec![
            (format!(" {}", human::short_bytes(node.bytes)), t.bytes),
            (" · ".into(), t.dim),
            (tok, t.tokens),
        ];
        if !node.warnings.is_empty() {
            right.push((format!(" · ! {}", node.warnings.len()), t.warn));
        }
        if let Some(doc) = &app.preview.doc {
            let h = body.height as usize;
            if doc.len() > h && h > 0 {
                let pct = ((app.preview.scroll + h).min(doc.len()) * 100) / doc.len().max(1);
                right.push((format!(" {pct:>3}%"), t.dim));
            }
        }
        right.push((" ".into(), t.dim));
        frame.render_widget(
            Paragraph::new(fit(left, right, header.width as usize, 10)),
            header,
        );
    }
    if body.area() == 0 {
        return;
    }
    let Some(doc) = &app.preview.doc else { return };
    let lines: Vec<Line> = doc
        .rendered
        .lines
        .iter()
        .skip(app.preview.scroll)
        .take(body.height as usize)
        .map(|l| bridge::line(l, t))
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
}
