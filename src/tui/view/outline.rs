//! The outline popup: the file's headings indented by depth, each with its token size, the
//! cursor row highlighted; a window of [`crate::tui::view::layout::list_height`] rows.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::tui::glyphs;
use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::view::layout::list_height;
use crate::tui::view::row::{Piece, fit};
use crate::util::human;

/// Draw the outline over the right part of `screen` (the tree stays visible).
pub fn draw(frame: &mut Frame, app: &App, screen: Rect) {
    let Some(o) = app.outline() else { return };
    let t = &app.theme;
    let area = crate::tui::view::layout::right_popup(screen, 72);
    if area.area() == 0 {
        return;
    }
    let corpus = &app.corpus;
    let title = format!(
        " Outline · {} ({}) ",
        corpus.node(o.file).title,
        crate::util::human::plural(o.items.len(), "heading")
    );
    let inner = crate::tui::view::framed::framed(frame, app, area, title);
    let width = inner.width as usize;
    let rows = list_height(app.size.1).min(inner.height.saturating_sub(1) as usize);
    let mut lines: Vec<Line> = Vec::new();
    for (i, (id, depth)) in o.items.iter().enumerate().skip(o.offset).take(rows) {
        let n = corpus.node(*id);
        let indent = "  ".repeat(depth.saturating_sub(1) as usize);
        let tok = app
            .tokens
            .total(*id)
            .map_or_else(|| "…".to_string(), human::short_count);
        let mut line = fit(
            vec![
                (
                    format!("{indent}{} ", glyphs::kind(n.kind)),
                    t.glyph_section,
                ),
                (n.title.clone(), t.popup),
            ],
            vec![(format!(" {tok:>5} tok"), t.tokens)],
            width,
            8,
        );
        if i == o.cursor {
            line = line.patch_style(t.cursor);
        }
        lines.push(line);
    }
    lines.resize(inner.height.saturating_sub(1) as usize, Line::default());
    let mut foot: Vec<Piece> = Vec::new();
    for (a, label) in [(Action::Confirm, "jump"), (Action::Escape, "close")] {
        if let Some(k) = app.keymap.first_key(Mode::Outline, &a) {
            foot.push((format!("{k} "), t.key));
            foot.push((format!("{label}  "), t.popup));
        }
    }
    lines.push(fit(foot, vec![], width, 0));
    frame.render_widget(Paragraph::new(lines), inner);
}
