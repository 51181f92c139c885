//! The collision map popup: one row per pair of competing skills, `a ⇄ b`, their
//! similarity and the phrases they share (through `fit`, which sanitizes every piece), the
//! cursor row highlighted; a footer of its keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::view::layout::list_height;
use crate::tui::view::row::{Piece, fit};

/// Draw the collision map over the right part of `screen` (the tree stays visible).
pub fn draw(frame: &mut Frame, app: &App, screen: Rect) {
    let Some(c) = app.collisions() else { return };
    let t = &app.theme;
    let area = crate::tui::view::layout::right_popup(screen, 96);
    if area.area() == 0 {
        return;
    }
    let title = format!(
        " Collisions · {} competing ",
        crate::util::human::plural(c.pairs.len(), "pair")
    );
    let inner = crate::tui::view::framed::framed(frame, app, area, title);
    let width = inner.width as usize;
    let rows = list_height(app.size.1).min(inner.height.saturating_sub(1) as usize);
    let mut lines: Vec<Line> = Vec::new();
    for (i, p) in c.pairs.iter().enumerate().skip(c.offset).take(rows) {
        let shared = if p.phrases.is_empty() {
            "most of the same words".to_string()
        } else {
            p.phrases
                .iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut line = fit(
            vec![
                (p.a.1.clone(), t.header),
                (" ⇄ ".into(), t.dim),
                (p.b.1.clone(), t.header),
                (format!("  {shared}"), t.popup),
            ],
            vec![(format!(" {:.2}", p.similarity), t.tokens)],
            width,
            6,
        );
        if i == c.cursor {
            line = line.patch_style(t.cursor);
        }
        lines.push(line);
    }
    lines.resize(inner.height.saturating_sub(1) as usize, Line::default());
    let mut foot: Vec<Piece> = Vec::new();
    for (a, label) in [
        (Action::Confirm, "edit first"),
        (Action::CollisionOther, "edit second"),
        (Action::Escape, "close"),
    ] {
        if let Some(k) = app.keymap.first_key(Mode::Collisions, &a) {
            foot.push((format!("{k} "), t.key));
            foot.push((format!("{label}  "), t.popup));
        }
    }
    lines.push(fit(foot, vec![], width, 0));
    frame.render_widget(Paragraph::new(lines), inner);
}
