//! The tree pane: one row per visible node with indent, ▸/▾, kind glyph, title, dim
//! summary, a skill's folder when its name differs, an ADR's status and date, `→ target` of an alias, flags, the Claude Code listing mark (`∅` description dropped for the budget,
//! `✂164` entry cut by 164 chars), the exposure level (once any is set: own level bold, inherited dim),
//! right-aligned bytes and tokens (`Σ` for containers, `…` while
//! uncounted) and the selection mark (✓ full, ◐ partial).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::curate::exposure::Exposure;
use crate::model::{Mark, NodeId, NodeKind};

use crate::tui::glyphs;
use crate::tui::state::app::{App, Focus};
use crate::tui::state::tree::Row;
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
    // The exposure column shows once any level is set: the node's own level
    // bold, an inherited one dim, the default `·`.
    let exposure = &app.curate.exposure;
    let level = (!exposure.is_empty()).then(|| exposure.level(corpus, row.id));
    let mut left = title_pieces(app, *row, level);
    let mut right: Vec<Piece> = Vec::new();
    // An ADR says what it is on the right, where a long title cannot push it out: its
    // status, and its date when the pane has room; the summary keeps only the tags.
    let adr = adr_tags(node, width);
    let summary = match &adr {
        Some((pieces, rest)) => {
            right.extend(pieces.iter().map(|(text, role)| {
                let style = match role {
                    AdrRole::Live => t.mark,
                    AdrRole::Open => t.warn,
                    AdrRole::Past => t.dim,
                };
                (text.clone(), style)
            }));
            rest.as_str()
        }
        None => corpus.summary(row.id),
    };
    // A symlink alias or a cross-root copy of a skill says what it points to instead of
    // counting as a duplicate with no tokens of its own.
    let alias = alias_target(node);
    if let Some(target) = &alias {
        left.push((format!("  → {target}"), t.dim));
    } else if app.settings.ui.summaries && !summary.is_empty() && width >= 50 {
        left.push((format!("  {summary}"), t.dim));
    }
    flag_pieces(app, row.id, alias.is_some(), &mut right);
    if let Some(level) = level.filter(|_| width >= 30) {
        let (text, style) = match exposure.own(row.id) {
            Some(own) => (own.tag(), t.header),
            None if corpus.ancestors(row.id).any(|a| exposure.own(a).is_some()) => {
                (level.tag(), t.dim)
            }
            // A licence file is `explicit` by default (docs/DESIGN.md §5).
            None if level == Exposure::Explicit => (level.tag(), t.dim),
            None => ("·", t.dim),
        };
        right.push((format!(" {text:>3}"), style));
    }
    size_pieces(app, row.id, alias.is_some(), width, &mut right);
    fit(left, right, width, 8)
}

/// The left of a row: selection mark, indent and ▸/▾, kind glyph, title (dim when the
/// exposure `level` hides it), and a skill's folder when its name differs.
fn title_pieces(app: &App, row: Row, level: Option<Exposure>) -> Vec<Piece> {
    let t = &app.theme;
    let corpus = &app.corpus;
    let node = corpus.node(row.id);
    let mark = app.selection.mark(corpus, row.id);
    let mark_style = match mark {
        Mark::Full => t.mark,
        Mark::Partial => t.partial,
        Mark::None => t.dim,
    };
    let glyph_style = match node.kind {
        NodeKind::Root | NodeKind::Skill | NodeKind::Dir | NodeKind::Group => t.glyph_dir,
        NodeKind::File => t.glyph_file,
        _ => t.glyph_section,
    };
    let has_children = !app.tree.children_of(corpus, row.id).is_empty();
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
    // A skill named otherwise than its folder also shows the folder: two skills of one
    // name (one shadowing the other) can be told apart.
    if node.kind == NodeKind::Skill
        && let Some(folder) = node.path.rsplit('/').next().filter(|f| !f.is_empty())
        && folder != node.title
    {
        left.push((format!(" {folder}/"), t.dim));
    }
    left
}

/// The flags of node `id` on the right: ` dup` (a copy, unless an `alias`), ` !`
/// (warnings; on a collapsed skill also its files' warnings, such as a `SKILL.md` that is
/// not UTF-8), and a skill's Claude Code listing mark (`∅` dropped, `✂N` cut).
fn flag_pieces(app: &App, id: NodeId, alias: bool, right: &mut Vec<Piece>) {
    let t = &app.theme;
    let node = app.corpus.node(id);
    if app.corpus.is_copy(id) && !alias {
        right.push((" dup".into(), t.dim));
    }
    let files_warned = || {
        node.kind == NodeKind::Skill
            && !app.tree.expanded.contains(&id)
            && node
                .children
                .iter()
                .any(|c| !app.corpus.node(*c).warnings.is_empty())
    };
    if !node.warnings.is_empty() || files_warned() {
        right.push((" !".into(), t.warn));
    }
    if node.kind == NodeKind::Skill
        && let Some((_, b)) = &app.listing
        && let Some(f) = b.fate_of(id)
    {
        match f.fate() {
            crate::skill::budget::Fate::Dropped => right.push((" ∅".into(), t.error)),
            crate::skill::budget::Fate::Truncated => {
                right.push((format!(" ✂{}", f.truncated_by), t.warn));
            }
            crate::skill::budget::Fate::Fits => {}
        }
    }
}

/// The size columns of node `id`: bytes and tokens (`Σ` for containers, `…` while
/// uncounted, none for an `alias`, counted at its target).
fn size_pieces(app: &App, id: NodeId, alias: bool, width: usize, right: &mut Vec<Piece>) {
    let t = &app.theme;
    let node = app.corpus.node(id);
    // A node without text of its own that holds others sums them; a childless binary or
    // link is no container.
    let container = matches!(
        node.kind,
        NodeKind::Root | NodeKind::Skill | NodeKind::Dir | NodeKind::Group
    ) || (node.span.is_none() && !node.children.is_empty());
    // Narrow panes keep the titles readable: bytes go first (the preview header shows
    // them), then tokens. Decided by the pane width alone, so columns stay aligned.
    if width >= 24 {
        let tok = match app.tokens.total(id) {
            // Its tokens are counted at the target.
            _ if alias => String::new(),
            Some(n) if container => format!("Σ{}", human::short_count(n)),
            Some(n) => human::short_count(n),
            None => "…".into(),
        };
        if width >= 36 {
            right.push((format!(" {:>5}", human::short_bytes(node.bytes)), t.bytes));
        }
        right.push((format!(" {tok:>6} "), t.tokens));
    }
}

/// How an ADR's status reads: in force, still open, or no longer in force.
enum AdrRole {
    Live,
    Open,
    Past,
}

/// The right-hand pieces of an ADR row (` accepted`, then ` 2025-12-15` when `width` is at
/// least 60 cells) and what is left of its summary (`<status> · <date> · <tags>`: the tags);
/// `None` for other nodes or an ADR without a status.
fn adr_tags(node: &crate::model::Node, width: usize) -> Option<(Vec<(String, AdrRole)>, String)> {
    if node.kind != NodeKind::Adr || width < 40 {
        return None;
    }
    let status = node.meta.get("status")?.as_str()?.to_string();
    let date = node.meta.get("date").and_then(|d| d.as_str()).unwrap_or("");
    let role = match status.to_ascii_lowercase().as_str() {
        "accepted" | "approved" | "active" | "decided" => AdrRole::Live,
        "proposed" | "draft" | "open" | "pending" => AdrRole::Open,
        _ => AdrRole::Past,
    };
    let mut pieces = vec![(format!(" {status}"), role)];
    if width >= 60 && !date.is_empty() {
        pieces.push((format!(" {date}"), AdrRole::Past));
    }
    let mut rest = node.summary.as_str();
    for part in [status.as_str(), date] {
        if let Some(r) = rest.strip_prefix(part) {
            rest = r.strip_prefix(" · ").unwrap_or(r);
        }
    }
    Some((pieces, rest.to_string()))
}

/// What an alias row points to: `meta.alias_of` (a symlinked file, a skill already opened
/// in another root), else the walker's note (`link to skills/pdf, already loaded` →
/// `skills/pdf, already loaded`); `None` for nodes that are not aliases.
fn alias_target(node: &crate::model::Node) -> Option<String> {
    if !node.flags.has(crate::model::Flag::Alias) {
        return None;
    }
    let text = |k: &str| {
        node.meta
            .get(k)
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    text("alias_of").or_else(|| {
        text("note").map(|n| n.strip_prefix("link to ").map_or(n.clone(), str::to_string))
    })
}
