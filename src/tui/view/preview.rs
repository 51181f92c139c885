//! The preview pane: a header line (title, id, lines, bytes, tokens, warnings, the layout
//! modes on: `raw`, `wrap`, `→N` cells scrolled sideways) and the visible slice of the cached
//! rendered document, its code rows drawn from the sideways offset.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::render;
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
        let node_id = app.corpus.id(id);
        if node_id != node.title {
            left.push((node_id, t.dim));
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
        // The layout modes that are on, so a changed look is never a mystery.
        let p = &app.preview;
        if p.mode.raw {
            right.push((" · raw".into(), t.header));
        }
        if p.mode.wrap {
            right.push((" · wrap".into(), t.header));
        }
        if p.hscroll > 0 {
            right.push((format!(" · →{}", p.hscroll), t.header));
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
    let w = body.width as usize;
    let shift = app.preview.hscroll;
    let lines: Vec<Line> = doc
        .rendered
        .lines
        .iter()
        .enumerate()
        .skip(app.preview.scroll)
        .take(body.height as usize)
        .map(|(i, l)| {
            // Code rows are kept whole: drawn from the sideways offset behind a dim `‹`
            // (more to the left), cut with `…`.
            if doc.rendered.is_code_row(i) && shift > 0 && w > 1 {
                let mut row = render::slice_line(l, shift, w - 1);
                row.spans
                    .insert(0, render::Span::role("‹", render::Role::Dim));
                bridge::line(&row, t)
            } else if doc.rendered.is_code_row(i) && l.width() > w {
                bridge::line(&render::slice_line(l, 0, w), t)
            } else {
                bridge::line(l, t)
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), body);
}
