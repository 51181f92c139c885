//! The search results list: "Content (BM25)" hits with scores, then "Titles (fuzzy)".

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::glyphs;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::results::{ResultRow, rows};
use crate::tui::view::row::fit;
use crate::util::human;

/// Draw the results into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    if area.area() == 0 {
        return;
    }
    let w = area.width as usize;
    let t = &app.theme;
    let s = &app.search;
    let mut lines: Vec<Line> = Vec::new();
    if s.query.trim().is_empty() {
        lines.push(fit(
            vec![("Type to search titles and content".into(), t.dim)],
            vec![],
            w,
            0,
        ));
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let v = &s.view;
    let active = app.mode() == Mode::Search || app.focus == Focus::Left;
    for row in rows(v)
        .into_iter()
        .skip(s.offset)
        .take(area.height as usize)
    {
        let line = match row {
            ResultRow::ContentHeader => {
                let note = if app.index.is_none() {
                    " (indexing…)"
                } else {
                    ""
                };
                fit(
                    vec![(
                        format!("Content (BM25) · {}{note}", v.content.len()),
                        t.header,
                    )],
                    vec![],
                    w,
                    0,
                )
            }
            ResultRow::TitlesHeader => fit(
                vec![(format!("Titles (fuzzy) · {}", v.titles.len()), t.header)],
                vec![],
                w,
                0,
            ),
            ResultRow::Empty => fit(vec![("  no matches".into(), t.dim)], vec![], w, 0),
            ResultRow::Hit(i) => {
                let Some(hit) = v.hit(i) else { continue };
                let node = app.corpus.node(hit.node);
                let mut left = vec![
                    ("  ".to_string(), t.dim),
                    (format!("{} ", glyphs::kind(node.kind)), t.glyph_section),
                    (node.title.clone(), t.title),
                    (format!("  {}", node.id), t.dim),
                ];
                if !hit.copies.is_empty() {
                    left.insert(3, (format!(" +{} copies", hit.copies.len()), t.dim));
                }
                let right = if i < v.content.len() {
                    vec![(format!(" {:>7.2} ", hit.score), t.tokens)]
                } else {
                    vec![(format!(" {:>5} ", human::short_bytes(node.bytes)), t.bytes)]
                };
                let mut line = fit(left, right, w, 8);
                if i == s.selected {
                    let style = if active { t.cursor } else { t.cursor_dim };
                    line = line.patch_style(style);
                    let lw = line.width();
                    if lw < w {
                        line.spans.push(Span::styled(" ".repeat(w - lw), style));
                    }
                }
                line
            }
        };
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), area);
}
