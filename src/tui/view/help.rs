//! The help popup: the warnings, then, generated from the keymap, one section per mode, one
//! line per bound action with its keys and description; after the main screen's keys the
//! legend of its glyphs and numbers ([`LEGEND`]).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::view::layout::{HELP_WIDTH, warning_lines};
use crate::tui::view::legend::LEGEND;
use crate::tui::view::row::fit;

/// The help lines (also used to size the scroll range).
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut out = Vec::new();
    // The warnings the status line counts (`! 3 warnings`) are read here.
    if !app.warnings.is_empty() {
        out.push(fit(
            vec![(format!("Warnings ({})", app.warnings.len()), t.warn)],
            vec![],
            width,
            0,
        ));
        for w in &app.warnings {
            for l in warning_lines(w, width) {
                out.push(fit(vec![(l, t.popup)], vec![], width, 0));
            }
        }
        out.push(Line::default());
    }
    for mode in Mode::ALL {
        let title = match mode {
            Mode::Normal => "Tree, results and preview",
            Mode::Search => "Search box (letters always type)",
            Mode::Help => "This help",
            Mode::Form => "Frontmatter editor: field list (e on a skill)",
            Mode::Field => "Editor: a field's text (letters always type)",
            Mode::Raw => "Editor: raw YAML (letters always type)",
            Mode::Diff => "Editor: diff before saving",
            Mode::Prompt => "Editor: name of a new key",
            Mode::Confirm => "Editor: discard changes?",
            Mode::Outline => "Outline (o): headings of the file",
            Mode::Collisions => "Collision map (C): skills whose descriptions compete",
            Mode::Brief => "Brief preview (p): the exact text y copies",
            Mode::Recipes => "Saved selections (R)",
            Mode::Input => "A prompt (letters always type)",
            Mode::Ask => "A question",
        };
        out.push(fit(vec![(title.into(), t.header)], vec![], width, 0));
        for (keys, desc) in app.keymap.entries(mode) {
            out.push(fit(
                vec![
                    (format!("  {keys:<16} "), t.key),
                    (desc.to_string(), t.popup),
                ],
                vec![],
                width,
                0,
            ));
        }
        out.push(Line::default());
        // The legend follows the keys of the main screen it explains.
        if mode == Mode::Normal {
            legend_lines(app, width, &mut out);
        }
    }
    out
}

/// The legend's lines ([`LEGEND`]).
fn legend_lines(app: &App, width: usize, out: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    for (heading, rows) in LEGEND {
        out.push(fit(vec![((*heading).into(), t.header)], vec![], width, 0));
        for (shown, means) in *rows {
            out.push(fit(
                vec![
                    (format!("  {shown:<20} "), t.key),
                    ((*means).to_string(), t.popup),
                ],
                vec![],
                width,
                0,
            ));
        }
        out.push(Line::default());
    }
}

/// Draw the popup centred in `screen`, from line `scroll` on.
pub fn draw(frame: &mut Frame, app: &App, scroll: usize, screen: Rect) {
    let w = screen.width.min(HELP_WIDTH);
    let h = screen.height.saturating_sub(2).max(screen.height.min(3));
    let area = Rect::new(
        screen.x + (screen.width - w) / 2,
        screen.y + (screen.height - h) / 2,
        w,
        h,
    );
    if area.area() == 0 {
        return;
    }
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(app.theme.border)
        .style(app.theme.popup)
        .title(" keys · Esc closes ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let body: Vec<Line> = lines(app, inner.width as usize)
        .into_iter()
        .skip(scroll)
        .take(inner.height as usize)
        .collect();
    frame.render_widget(Paragraph::new(body), inner);
}
