//! The top line: the search box (query, hit counts, "did you mean") on the left and
//! `o200k · sel 3 · 4.2k/20k tok ▰▰▱▱▱▱▱▱` (the tokens of the brief `y` copies, packed under
//! the token budget, docs/DESIGN.md §6; `· 2 left out` when packing left sections out) on
//! the right, after the Claude Code listing meter when it is asked for or over budget.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::widgets::Paragraph;

use crate::render::width::str_width;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::view::row::{Piece, fit};
use crate::util::human;

/// Cells of the budget bar.
const BAR: usize = 8;

/// `o200k · sel 3 · 4.2k/20k tok ▰▰▱▱▱▱▱▱`: the brief `y` copies, packed under the budget;
/// `· 2 left out` (warning colour) when packing left sections out. Red with `+4k over` only
/// when even the packed brief is over (its frame alone); never for an estimate (`…`).
/// Without a budget: `o200k · sel 3 · 4.2k tok`.
fn budget_pieces(app: &App) -> Vec<Piece> {
    let t = &app.theme;
    let Some(budget) = app.curate.budget else {
        return vec![(
            format!(" {} · {} ", app.encoding().short(), app.selection_summary()),
            t.top,
        )];
    };
    let (tokens, complete) = app.selection_tokens;
    let more = if complete { "" } else { "…" };
    let head = format!(
        " {} · sel {} · {}{more}/{} tok ",
        app.encoding().short(),
        app.selection.len(),
        human::short_count(tokens),
        human::short_count(budget)
    );
    let filled =
        ((u128::from(tokens) * BAR as u128).div_ceil(u128::from(budget.max(1))) as usize).min(BAR);
    // An estimate (`…`) is the selection before packing: only the built brief can be over.
    let over = complete && tokens > budget;
    // Within 10% of the budget the bar warns: a brief adds its header and one provenance
    // line per section to the sections' text counted here.
    let near = tokens.saturating_mul(10) >= budget.saturating_mul(9);
    let bar_style = if over {
        t.top.patch(t.error)
    } else if near {
        t.top.patch(t.warn)
    } else {
        t.top.patch(t.mark)
    };
    let mut out: Vec<Piece> = vec![
        (head, t.top),
        ("▰".repeat(filled), bar_style),
        ("▱".repeat(BAR - filled), t.top.patch(t.dim)),
    ];
    if over {
        out.push((
            format!(" +{} over", human::short_count(tokens - budget)),
            t.top.patch(t.error),
        ));
    }
    if complete && app.brief_left_out > 0 {
        out.push((
            format!(" · {} left out", app.brief_left_out),
            t.top.patch(t.warn),
        ));
    }
    out.push((" ".into(), t.top));
    out
}

/// The Claude Code listing meter, `listing 10,475 / 8,000 chars (131%) ·`: shown with
/// `--agent claude-code`, or whenever the listing is over its budget (then red).
fn listing_pieces(app: &App) -> Vec<Piece> {
    let t = &app.theme;
    let Some((_, b)) = &app.listing else {
        return Vec::new();
    };
    let b = &b.listing;
    let over = b.needed_chars > b.budget_chars;
    if !over && app.load_opts.agent.as_deref() != Some("claude-code") {
        return Vec::new();
    }
    if b.entries.is_empty() {
        return Vec::new();
    }
    let style = if over { t.top.patch(t.error) } else { t.top };
    vec![(format!(" {}", b.meter()), style), (" ·".into(), t.top)]
}

/// Draw the top line into `area` (and place the text cursor while searching).
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    if area.area() == 0 {
        return;
    }
    let t = &app.theme;
    let s = &app.search;
    let searching = app.mode() == Mode::Search;
    let mut left: Vec<Piece> = vec![(" / ".into(), t.top.patch(t.key))];
    let prefix_w = 3;
    if s.query.is_empty() && !searching {
        left.push(("search".into(), t.top.patch(t.dim)));
    } else {
        left.push((s.query.clone(), t.top.patch(t.query)));
        let info = if s.query.trim().is_empty() {
            String::new()
        } else if s.pending {
            "  searching…".into()
        } else {
            let mut x = format!(
                "  {} content · {} titles",
                s.view.content.len(),
                s.view.titles.len()
            );
            if !s.view.did_you_mean.is_empty() {
                let dym: Vec<&str> = s
                    .view
                    .did_you_mean
                    .iter()
                    .map(|(_, b)| b.as_str())
                    .collect();
                x.push_str(&format!(" · did you mean {}", dym.join(" ")));
            }
            for note in &s.view.notes {
                x.push_str(" · ");
                x.push_str(note);
            }
            x
        };
        left.push((info, t.top.patch(t.dim)));
    }
    let mut right = listing_pieces(app);
    right.extend(budget_pieces(app));
    let mut line = fit(left, right, area.width as usize, 12);
    let w = line.width();
    if w < area.width as usize {
        line.spans.push(ratatui::text::Span::styled(
            " ".repeat(area.width as usize - w),
            t.top,
        ));
    }
    frame.render_widget(Paragraph::new(line).style(t.top), area);
    if searching {
        let before: String = s.query.chars().take(s.cursor).collect();
        let x = (prefix_w + str_width(&crate::util::sanitize::sanitize_line(&before))) as u16;
        if x < area.width {
            frame.set_cursor_position(Position {
                x: area.x + x,
                y: area.y,
            });
        }
    }
}
