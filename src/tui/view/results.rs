//! The search results list: the title hits holding every query word, "Content (BM25)" hits
//! with scores, then "Titles (fuzzy)". A hit row: selection mark (`✓`/`◐`), kind glyph,
//! title with the matched terms highlighted, `‹ ancestor` (the nearest ancestor that tells it
//! apart from the other hits), `+N copies`; right-aligned its tokens; in a list of
//! [`SCORE_MIN_WIDTH`] cells or more also its id and its score (content) or bytes (titles).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::model::Mark;
use crate::render;
use crate::render::width::str_width;
use crate::tui::bridge;
use crate::tui::glyphs;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::results::{ResultRow, rows};
use crate::tui::view::row::{Piece, Shares, fit, left_room, share};
use crate::util::human;

/// Narrowest list (cells) whose hit rows show the id, and the score (content) or bytes
/// (titles) beside the tokens; a narrower one gives that room to the titles and their
/// `‹ ancestor` (docs/DESIGN.md §6).
pub const SCORE_MIN_WIDTH: usize = 40;

/// Fewest cells of a hit row's left part (mark, glyph, title…) that keep its tokens shown.
const MIN_LEFT: usize = 8;
/// How a hit's title and its `‹ ancestor` share a row too narrow for both: the title is
/// cut only when whole it leaves the ancestor less than 16 cells, and keeps 7 (six chars
/// and `…`, so `Summary` stays whole); an ancestor is not cut to less than 5 (` ‹ `, a
/// char and `…`).
const SHARES: Shares = Shares {
    min_first: 7,
    enough_second: 16,
    min_second: 5,
};

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
    let match_style = bridge::style(&render::Style::new(render::Role::Match), t);
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
            ResultRow::LeadHeader => fit(
                vec![(format!("Titles holding every word · {}", v.lead), t.header)],
                vec![],
                w,
                0,
            ),
            ResultRow::TitlesHeader => fit(
                vec![(
                    format!("Titles (fuzzy) · {}", v.titles.len() - v.lead),
                    t.header,
                )],
                vec![],
                w,
                0,
            ),
            ResultRow::Empty => fit(vec![("  no matches".into(), t.dim)], vec![], w, 0),
            ResultRow::Hit(i) => {
                let Some(line) = hit_line(app, i, w, match_style, active) else {
                    continue;
                };
                line
            }
        };
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The row of hit `i` (list order) in a list `w` cells wide; `None` past the last hit.
fn hit_line(
    app: &App,
    i: usize,
    w: usize,
    match_style: ratatui::style::Style,
    active: bool,
) -> Option<Line<'static>> {
    let (t, s) = (&app.theme, &app.search);
    let v = &s.view;
    let hit = v.hit(i)?;
    let node = app.corpus.node(hit.node);
    let mark = app.selection.mark(&app.corpus, hit.node);
    let tok = match app.tokens.total(hit.node) {
        Some(n) => format!(" {} tok", human::short_count(n)),
        None => " … tok".into(),
    };
    // A narrow list keeps its width for the titles: tokens only, no score.
    let right = if w < SCORE_MIN_WIDTH {
        vec![(format!("{tok} "), t.tokens)]
    } else if v.is_content(i) {
        vec![
            (format!("{tok:>9}"), t.tokens),
            (format!(" {:>6.2} ", hit.score), t.dim),
        ]
    } else {
        vec![
            (format!("{tok:>9}"), t.tokens),
            (format!(" {:>6} ", human::short_bytes(node.bytes)), t.bytes),
        ]
    };
    let mut left = vec![
        (
            format!("{} ", glyphs::mark(mark)),
            if mark == Mark::Partial {
                t.partial
            } else {
                t.mark
            },
        ),
        (format!("{} ", glyphs::kind(node.kind)), t.glyph_section),
    ];
    // The title and its `‹ ancestor` share the room left: the ancestor is what tells
    // same-titled hits apart, so it is never cut away whole (docs/DESIGN.md §6).
    let room = left_room(&right, w, MIN_LEFT)
        .saturating_sub(str_width(&left[0].0) + str_width(&left[1].0));
    let mut after: Vec<Piece> = v
        .label(i)
        .map(|a| (format!(" ‹ {}", app.corpus.node(a).title), t.glyph_dir))
        .into_iter()
        .collect();
    if !hit.copies.is_empty() {
        after.push((format!(" +{} copies", hit.copies.len()), t.dim));
    }
    let title = marked(&node.title, v.title_marks(i), t.title, match_style);
    let cells = |p: &[Piece]| p.iter().map(|(s, _)| str_width(s)).sum::<usize>();
    // Cut to the room, they end in `…`: an id after them would add a second one.
    let whole = cells(&title) + cells(&after) < room;
    left.extend(share(title, after, room, SHARES));
    if w >= SCORE_MIN_WIDTH && whole {
        left.push((format!("  {}", app.corpus.id(hit.node)), t.dim));
    }
    let mut line = fit(left, right, w, MIN_LEFT);
    if i == s.selected {
        let style = if active { t.cursor } else { t.cursor_dim };
        line = line.patch_style(style);
        let lw = line.width();
        if lw < w {
            line.spans.push(Span::styled(" ".repeat(w - lw), style));
        }
    }
    Some(line)
}

/// `title` cut into pieces at the byte ranges `marks` (the matched ones in `hit`).
fn marked(
    title: &str,
    marks: &[std::ops::Range<usize>],
    plain: ratatui::style::Style,
    hit: ratatui::style::Style,
) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = 0;
    for r in marks {
        let (Some(before), Some(m)) = (title.get(at..r.start), title.get(r.start..r.end)) else {
            continue;
        };
        if !before.is_empty() {
            out.push((before.to_string(), plain));
        }
        out.push((m.to_string(), hit));
        at = r.end;
    }
    if let Some(rest) = title.get(at..).filter(|r| !r.is_empty()) {
        out.push((rest.to_string(), plain));
    }
    out
}
