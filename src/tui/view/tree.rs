//! The tree pane: one row per visible node with indent, ▸/▾, kind glyph, title, dim
//! summary, flags, the Claude Code listing mark (`∅` description dropped for the budget,
//! `✂164` entry cut by 164 chars), the exposure level (once any is set: own level bold, inherited dim),
//! right-aligned bytes and tokens (`Σ` for containers, `…` while
//! uncounted) and the selection mark (✓ full, ◐ partial).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::curate::exposure::Exposure;
use crate::model::{Mark, NodeKind};

use crate::tui::glyphs;
use crate::tui::state::app::{App, Focus};
use crate::tui::view::row::{Piece, fit};
use crate::util::human;

/// Draw the tree into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    if area.area() == 0 {
        return;
    }
    let h = area.height as usize;
    let mut lines: Vec<Line> = Vec::with_capacity(h);
    if app.tree.rows.is_empty() {
        let msg = if app.progress.loading.is_some() {
            "Loading…"
        } else {
            "Nothing loaded"
        };
        lines.push(fit(
            vec![(msg.into(), app.theme.dim)],
            vec![],
            area.width as usize,
            0,
        ));
    }
    for i in (app.tree.offset..app.tree.rows.len()).take(h) {
        let mut line = row_line(app, i, area.width as usize);
        if i == app.tree.cursor {
            let style = if app.focus == Focus::Left {
                app.theme.cursor
            } else {
                app.theme.cursor_dim
            };
            line = line.patch_style(style);
            let w = line.width();
            if w < area.width as usize {
                line.spans.push(ratatui::text::Span::styled(
                    " ".repeat(area.width as usize - w),
                    style,
                ));
            }
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// The line of tree row `i` at `width` cells.
pub fn row_line(app: &App, i: usize, width: usize) -> Line<'static> {
    let t = &app.theme;
    let Some(row) = app.tree.rows.get(i) else {
        return Line::default();
    };
    let corpus = &app.corpus;
    let node = corpus.node(row.id);
    let mark = app.selection.mark(corpus, row.id);
    let mark_style = match mark {
        Mark::Full => t.mark,
        Mark::Partial => t.partial,
        Mark::None => t.dim,
    };
    let container = matches!(
        node.kind,
        NodeKind::Root | NodeKind::Skill | NodeKind::Dir | NodeKind::Group
    ) || node.span.is_none();
    let glyph_style = match node.kind {
        NodeKind::Root | NodeKind::Skill | NodeKind::Dir | NodeKind::Group => t.glyph_dir,
        NodeKind::File => t.glyph_file,
        _ => t.glyph_section,
    };
    let has_children = !app.tree.children_of(corpus, row.id).is_empty();
    // The exposure column shows once any level is set: the node's own level
    // bold, an inherited one dim, the default `·`.
    let exposure = &app.curate.exposure;
    let level = (!exposure.is_empty()).then(|| exposure.level(corpus, row.id));
    let indent = "  ".repeat(row.depth as usize);
    let mut left: Vec<Piece> = vec![
        (format!("{} ", glyphs::mark(mark)), mark_style),
        (
            format!(
                "{indent}{} ",
                glyphs::arrow(has_children, app.tree.expanded.contains(&row.id))
            ),
            t.glyph_dir,
        ),
        (format!("{} ", glyphs::kind(node.kind)), glyph_style),
        (
            node.title.clone(),
            if level == Some(Exposure::Hidden) {
                t.dim
            } else {
                t.title
            },
        ),
    ];
    if app.settings.ui.summaries && !node.summary.is_empty() && width >= 50 {
        left.push((format!("  {}", node.summary), t.dim));
    }
    let mut right: Vec<Piece> = Vec::new();
    if corpus.is_copy(row.id) {
        right.push((" dup".into(), t.dim));
    }
    if !node.warnings.is_empty() {
        right.push((" !".into(), t.warn));
    }
    if node.kind == NodeKind::Skill
        && let Some((_, b)) = &app.listing
        && let Some(f) = b.fate_of(row.id)
    {
        match f.fate() {
            crate::skill::budget::Fate::Dropped => right.push((" ∅".into(), t.error)),
            crate::skill::budget::Fate::Truncated => {
                right.push((format!(" ✂{}", f.truncated_by), t.warn));
            }
            crate::skill::budget::Fate::Fits => {}
        }
    }
    if let Some(level) = level.filter(|_| width >= 30) {
        let (text, style) = match exposure.own(row.id) {
            Some(own) => (own.tag(), t.header),
            None if corpus.ancestors(row.id).any(|a| exposure.own(a).is_some()) => {
                (level.tag(), t.dim)
            }
            None => ("·", t.dim),
        };
        right.push((format!(" {text:>3}"), style));
    }
    // Narrow panes keep the titles readable: bytes go first (the preview header shows
    // them), then tokens. Decided by the pane width alone, so columns stay aligned.
    if width >= 24 {
        let tok = match app.tokens.total(row.id) {
            Some(n) if container => format!("Σ{}", human::short_count(n)),
            Some(n) => human::short_count(n),
            None => "…".into(),
        };
        if width >= 36 {
            right.push((format!(" {:>5}", human::short_bytes(node.bytes)), t.bytes));
        }
        right.push((format!(" {tok:>6} "), t.tokens));
    }
    fit(left, right, width, 8)
}
