//! The frontmatter editor popup: the form (field list + the selected value's text
//! area), raw mode (the YAML block with file line numbers), the problems of the edit (the
//! strict YAML error first, then the Agent Skills findings), a footer of keys generated
//! from the keymap, and the diff / new-key / discard popups drawn over it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::frontmatter::DiffKind;
use crate::skill::validate::Severity;
use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::state::editor::fields::{Field, FieldKind};
use crate::tui::state::editor::{Editor, View};
use crate::tui::view::row::{Piece, fit};

/// Lines of problems shown under the form at most.
const MAX_PROBLEM_LINES: usize = 3;

/// Draw the editor (and its popups) over `screen`, leaving the top and status lines.
pub fn draw(frame: &mut Frame, app: &App, screen: Rect) {
    let Some(ed) = app.editor() else { return };
    let w = screen
        .width
        .saturating_sub(4)
        .clamp(screen.width.min(20), 110);
    let h = screen.height.saturating_sub(2);
    let area = Rect::new(
        screen.x + (screen.width - w) / 2,
        screen.y + 1.min(screen.height),
        w,
        h,
    );
    if area.width < 10 || area.height < 5 {
        draw_too_small(frame, app, ed, screen);
        return;
    }
    frame.render_widget(
        Clear,
        Rect::new(screen.x, area.y, screen.width, area.height),
    );
    let t = &app.theme;
    let view = if ed.view == View::Raw {
        "raw YAML"
    } else {
        "form"
    };
    let dirty = if ed.dirty() { " · modified" } else { "" };
    let title = format!(
        " Edit {} · {view} · {}{dirty} ",
        ed.shown,
        ed.profile.as_str()
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(t.border)
        .style(t.popup)
        .title(fit(
            vec![(title, t.header)],
            vec![],
            area.width.saturating_sub(2) as usize,
            0,
        ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut problems = problem_lines(app, ed, inner.width as usize);
    // The client line, when the popup has room for it beside the form.
    if !ed.clients.is_empty() && inner.height >= MIN_HEIGHT_FOR_CLIENTS {
        problems.push(client_line(app, ed, inner.width as usize));
    }
    let foot_h = 1u16;
    let prob_h = (problems.len() as u16).min(inner.height.saturating_sub(foot_h + 2));
    let body_h = inner.height.saturating_sub(foot_h + prob_h);
    let body = Rect::new(inner.x, inner.y, inner.width, body_h);
    let probs = Rect::new(inner.x, inner.y + body_h, inner.width, prob_h);
    let foot = Rect::new(
        inner.x,
        inner.y + body_h + prob_h,
        inner.width,
        foot_h.min(inner.height),
    );
    match ed.view {
        View::Form => draw_form(frame, app, ed, body),
        View::Raw => draw_raw(frame, app, ed, body),
    }
    frame.render_widget(Paragraph::new(problems), probs);
    let footer_mode = match app.mode() {
        Mode::Diff | Mode::Prompt | Mode::Confirm => ed.back,
        m => m,
    };
    frame.render_widget(
        Paragraph::new(footer(app, footer_mode, inner.width as usize)),
        foot,
    );
    match app.mode() {
        Mode::Diff => draw_diff(frame, app, ed, area),
        Mode::Prompt => draw_prompt(frame, app, ed, area),
        Mode::Confirm => draw_confirm(frame, app, ed, area),
        _ => {}
    }
}

/// The editor still takes the keys when the window is too small to draw it: say so rather
/// than show the tree beneath it.
fn draw_too_small(frame: &mut Frame, app: &App, ed: &Editor, screen: Rect) {
    frame.render_widget(Clear, screen);
    let width = usize::from(screen.width);
    let lines: Vec<Line> = [
        "Window too small to edit".to_string(),
        ed.shown.clone(),
        "resize it, or Esc".to_string(),
    ]
    .into_iter()
    .map(|t| fit(vec![(t, app.theme.header)], vec![], width, 0))
    .collect();
    frame.render_widget(Paragraph::new(lines), screen);
}

/// The form: the field list on the left, the selected field's value on the right.
fn draw_form(frame: &mut Frame, app: &App, ed: &Editor, body: Rect) {
    let list_w = (body.width * 9 / 20).clamp(body.width.min(24), 50);
    let list = Rect::new(body.x, body.y, list_w, body.height);
    let value = Rect::new(body.x + list_w, body.y, body.width - list_w, body.height);
    frame.render_widget(Paragraph::new(field_lines(app, ed, list)), list);
    let Some(f) = ed.field() else { return };
    draw_value(frame, app, f, value);
}

/// The rows of the field list shown in `list`: marker, change flag, key, value preview.
fn field_lines(app: &App, ed: &Editor, list: Rect) -> Vec<Line<'static>> {
    let t = &app.theme;
    let key_w = ed
        .fields
        .iter()
        .map(|f| f.key.chars().count())
        .max()
        .unwrap_or(4)
        .min(24);
    let height = list.height as usize;
    let offset = if ed.selected >= height {
        ed.selected + 1 - height
    } else {
        0
    };
    let focused_list = app.mode() == Mode::Form;
    ed.fields
        .iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .map(|(i, f)| {
            let sel = i == ed.selected;
            let flag = if f.removed {
                "−"
            } else if f.changed() && f.original.is_none() {
                "+"
            } else if f.changed() {
                "*"
            } else {
                " "
            };
            let marker = if sel { "▸" } else { " " };
            let mut key_style = if f.original.is_none() && !f.changed() {
                t.dim
            } else {
                t.popup
            };
            if f.removed {
                key_style = key_style.add_modifier(Modifier::CROSSED_OUT);
            }
            let row_style = if sel && focused_list {
                t.cursor
            } else if sel {
                t.cursor_dim
            } else {
                Style::new()
            };
            let pieces: Vec<Piece> = vec![
                (format!("{marker}{flag}"), t.mark.patch(row_style)),
                (format!("{:<key_w$} ", f.key), key_style.patch(row_style)),
                (f.preview(), t.dim.patch(row_style)),
            ];
            fit(pieces, vec![], list.width.saturating_sub(1) as usize, 0)
        })
        .collect()
}

/// Field `f`'s value in a titled box in `value`: its text area (with a cursor when the
/// field is edited), or why the form cannot edit it.
fn draw_value(frame: &mut Frame, app: &App, f: &Field, value: Rect) {
    let t = &app.theme;
    let what = match f.kind {
        FieldKind::List => "list: one item per line",
        FieldKind::Map => "map",
        FieldKind::ReadOnly => "read-only here",
        FieldKind::Text if f.multi_line() => "text: Enter adds a line",
        FieldKind::Text => "one line: Enter confirms",
    };
    let focus = if app.mode() == Mode::Field {
        t.key
    } else {
        t.border
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(focus)
        .title(fit(
            vec![(format!(" {} · {what} ", f.key), t.header)],
            vec![],
            value.width as usize,
            0,
        ));
    let inner = block.inner(value);
    frame.render_widget(block, value);
    if f.editable() && !f.removed && app.mode() == Mode::Field {
        frame.render_widget(&f.text, inner);
    } else if f.editable() && !f.removed {
        // Not focused: no cursor, no cursor-line underline (a small copy; values are short).
        let mut quiet = f.text.clone();
        quiet.set_cursor_style(Style::new());
        quiet.set_cursor_line_style(Style::new());
        frame.render_widget(&quiet, inner);
    } else {
        let msg = if f.removed {
            "Marked for removal: saving deletes this key (d restores it)."
        } else if f.kind == FieldKind::Map {
            "The metadata entries are the metadata.* rows; `a` then metadata.<name> adds one, `d` on the map removes all of it."
        } else {
            "A nested value the form cannot edit: r switches to raw mode."
        };
        frame.render_widget(
            Paragraph::new(msg)
                .style(t.dim)
                .wrap(ratatui::widgets::Wrap { trim: true }),
            inner,
        );
    }
}

fn draw_raw(frame: &mut Frame, app: &App, ed: &Editor, body: Rect) {
    let Some(raw) = &ed.raw else { return };
    let t = &app.theme;
    let last = raw.fence as usize + raw.area.lines().len();
    let gutter = (last.to_string().len() + 2) as u16;
    if body.width <= gutter + 2 {
        return;
    }
    let text = Rect::new(body.x + gutter, body.y, body.width - gutter, body.height);
    frame.render_widget(&raw.area, text);
    // The text area scrolled while drawing: number the rows it shows with file lines.
    let (top, _) = raw.area.scroll_offset();
    let err_line = ed.yaml_error.as_ref().map(|e| e.0);
    let lines: Vec<Line> = (0..body.height as usize)
        .map(|r| top as usize + r)
        .take_while(|i| *i < raw.area.lines().len())
        .map(|i| {
            let file_line = raw.fence + 1 + i as u32;
            let style = if err_line == Some(file_line) {
                t.error
            } else {
                t.dim
            };
            Line::styled(
                format!("{:>w$} ", file_line, w = gutter as usize - 2),
                style,
            )
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines),
        Rect::new(body.x, body.y, gutter, body.height),
    );
}

/// The strict YAML error (red) and the rule findings (warnings), at most
/// [`MAX_PROBLEM_LINES`] lines.
fn problem_lines(app: &App, ed: &Editor, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let mut out = Vec::new();
    if let Err(e) = &ed.candidate {
        out.push(fit(
            vec![(format!("✗ cannot build the edit: {e}"), t.error)],
            vec![],
            width,
            0,
        ));
    }
    if let Some((line, msg)) = &ed.yaml_error {
        let at = if *line > 0 {
            format!("line {line}: ")
        } else {
            String::new()
        };
        out.push(fit(
            vec![(format!("✗ YAML {at}{msg} (blocks saving)"), t.error)],
            vec![],
            width,
            0,
        ));
    }
    for f in &ed.fields {
        let cs = f.controls();
        if !cs.is_empty() {
            let text = format!(
                "⚠ `{}` holds {} control character(s) the form cannot show ({}); r shows them escaped",
                f.key,
                cs.len(),
                crate::skill::safety::unicode::code_point_list(&cs)
            );
            out.push(fit(vec![(text, t.warn)], vec![], width, 0));
        }
    }
    let n = ed.findings.len();
    for (i, f) in ed.findings.iter().enumerate() {
        if out.len() + 1 == MAX_PROBLEM_LINES && i + 1 < n {
            let more = n - i;
            out.push(fit(
                vec![(format!("⚠ … {more} more findings"), t.warn)],
                vec![],
                width,
                0,
            ));
            break;
        }
        let at = f.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let (mark, style) = match f.severity {
            Severity::Error => ("✗", t.error),
            Severity::Warning => ("⚠", t.warn),
        };
        let text = format!("{mark} {at}{} ({}; may be saved)", f.message, f.rule);
        out.push(fit(vec![(text, style)], vec![], width, 0));
    }
    if out.is_empty() {
        out.push(fit(vec![("✓ valid".into(), t.mark)], vec![], width, 0));
    }
    out.truncate(MAX_PROBLEM_LINES);
    out
}

/// Rows inside the editor popup below which the client line is left out (the form keeps
/// its rows on a small terminal).
const MIN_HEIGHT_FOR_CLIENTS: u16 = 16;

/// `clients full in all 6`, or `clients full except codex not loaded · copilot cut 120`:
/// what each client does with the skill as edited (computed by the update step).
fn client_line(app: &App, ed: &Editor, width: usize) -> Line<'static> {
    let t = &app.theme;
    let style = |cell: &str| match cell {
        "full" => t.mark,
        "not loaded" | "unreachable" => t.error,
        _ => t.warn,
    };
    let mut pieces = vec![("clients ".to_string(), t.dim)];
    let others: Vec<&(crate::skill::clients::Client, String)> =
        ed.clients.iter().filter(|(_, c)| c != "full").collect();
    if others.is_empty() {
        pieces.push((format!("full in all {}", ed.clients.len()), t.mark));
        return fit(pieces, vec![], width, 0);
    }
    if others.len() < ed.clients.len() {
        pieces.push(("full".into(), t.mark));
        pieces.push((" except ".into(), t.dim));
    }
    for (i, (client, cell)) in others.iter().enumerate() {
        if i > 0 {
            pieces.push((" · ".into(), t.dim));
        }
        pieces.push((format!("{} ", client.as_str()), t.dim));
        pieces.push((cell.clone(), style(cell)));
    }
    fit(pieces, vec![], width, 0)
}

/// Key hints of `mode`, from the keymap.
fn footer(app: &App, mode: Mode, width: usize) -> Line<'static> {
    let actions: &[Action] = match mode {
        Mode::Form => &[
            Action::EditField,
            Action::NextField,
            Action::AddKey,
            Action::DeleteKey,
            Action::ToggleRaw,
            Action::ToggleProfile,
            Action::EditorSave,
            Action::Escape,
        ],
        Mode::Field => &[
            Action::NextField,
            Action::EditorSave,
            Action::ToggleRaw,
            Action::Escape,
        ],
        Mode::Raw => &[Action::EditorSave, Action::ToggleRaw, Action::Escape],
        Mode::Diff => &[Action::Confirm, Action::Escape, Action::Reload],
        Mode::Prompt | Mode::Confirm => &[Action::Confirm, Action::Escape],
        _ => &[],
    };
    let label = |a: &Action| match (mode, a) {
        (Mode::Form | Mode::Raw, Action::Escape) => "close",
        (Mode::Field, Action::Escape) => "field list",
        (Mode::Diff, Action::Confirm) => "save",
        (Mode::Diff | Mode::Prompt, Action::Escape) => "back",
        (Mode::Prompt, Action::Confirm) => "add",
        (Mode::Confirm, Action::Confirm) => "discard",
        (Mode::Confirm, Action::Escape) => "keep editing",
        (_, Action::Reload) => "reload, dropping edits",
        (_, a) => a.hint(),
    };
    let t = &app.theme;
    let mut pieces: Vec<Piece> = Vec::new();
    let stale = app.editor().is_some_and(|e| e.stale);
    for a in actions.iter().filter(|a| **a != Action::Reload || stale) {
        if let Some(k) = app.keymap.first_key(mode, a) {
            pieces.push((format!("{k} "), t.key));
            pieces.push((format!("{}  ", label(a)), t.popup));
        }
    }
    fit(pieces, vec![], width, 0)
}

/// A centred box of `w`×`h` inside `outer`, cleared, with a border and `title`.
pub(super) fn popup(
    frame: &mut Frame,
    app: &App,
    outer: Rect,
    w: u16,
    h: u16,
    title: String,
) -> Rect {
    let w = w
        .min(outer.width.saturating_sub(4))
        .max(outer.width.min(10));
    let h = h
        .min(outer.height.saturating_sub(2))
        .max(outer.height.min(3));
    let area = Rect::new(
        outer.x + (outer.width - w) / 2,
        outer.y + (outer.height - h) / 2,
        w,
        h,
    );
    crate::tui::view::framed::framed(frame, app, area, title)
}

fn draw_diff(frame: &mut Frame, app: &App, ed: &Editor, outer: Rect) {
    let t = &app.theme;
    let (add, del) = if t.no_color {
        (
            Style::new().add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::DIM),
        )
    } else {
        (Style::new().fg(Color::Green), Style::new().fg(Color::Red))
    };
    let title = format!(" Save? {} ", crate::frontmatter::describe_diff(&ed.diff));
    let mut tail: Vec<Line> = Vec::new();
    let width = outer.width.saturating_sub(6) as usize;
    if !ed.repaired.is_empty() {
        let lines: Vec<String> = ed.repaired.iter().map(u32::to_string).collect();
        let text = format!(
            "Repaired invalid YAML: quoted the values on line {}",
            lines.join(", ")
        );
        tail.push(fit(vec![(text, t.warn)], vec![], width, 0));
    }
    if !ed.findings.is_empty() {
        let n = ed.findings.len();
        let plural = if n == 1 { "" } else { "s" };
        let text = format!("⚠ {n} validation finding{plural}; saving anyway is allowed");
        tail.push(fit(vec![(text, t.warn)], vec![], width, 0));
    }
    if let Some(m) = &ed.message {
        tail.push(fit(vec![(m.clone(), t.error)], vec![], width, 0));
    }
    tail.push(footer(app, Mode::Diff, width));
    let num_w = ed
        .diff
        .iter()
        .map(|d| d.line.to_string().len())
        .max()
        .unwrap_or(1);
    // The popup's inner width (as `popup` sizes it), to count the wrapped rows.
    let room = 100u16
        .min(outer.width.saturating_sub(4))
        .max(outer.width.min(10))
        .saturating_sub(2) as usize;
    let rows_total: usize = ed
        .diff
        .iter()
        .map(|d| diff_rows(d, num_w, room, Style::new()).len())
        .sum();
    let h = (rows_total + tail.len() + 2).min(u16::MAX as usize) as u16;
    let inner = popup(frame, app, outer, 100, h, title);
    let diff_h = (inner.height as usize).saturating_sub(tail.len());
    let mut lines: Vec<Line> = ed
        .diff
        .iter()
        .skip(ed.diff_scroll)
        .flat_map(|d| {
            let style = if d.kind == DiffKind::Added { add } else { del };
            diff_rows(d, num_w, inner.width as usize, style)
        })
        .take(diff_h)
        .collect();
    lines.resize(diff_h, Line::default());
    lines.extend(tail);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The rows of one diff line at `width` cells: `+12 │ text`, the text wrapped (never cut,
/// so a change far along a long line shows) with continuation rows under the text.
fn diff_rows(
    d: &crate::frontmatter::DiffLine,
    num_w: usize,
    width: usize,
    style: Style,
) -> Vec<Line<'static>> {
    let sign = if d.kind == DiffKind::Added { "+" } else { "-" };
    let head = format!("{sign}{:>num_w$} │ ", d.line);
    let cont = format!("{:>w$} │ ", "", w = num_w + 1);
    let text = crate::util::sanitize::sanitize_line(&d.text);
    let room = width
        .saturating_sub(crate::render::width::str_width(&head))
        .max(1);
    crate::render::wrap::wrap_text(&text, room)
        .into_iter()
        .enumerate()
        .map(|(i, piece)| {
            let lead = if i == 0 { head.clone() } else { cont.clone() };
            fit(vec![(format!("{lead}{piece}"), style)], vec![], width, 0)
        })
        .collect()
}

fn draw_prompt(frame: &mut Frame, app: &App, ed: &Editor, outer: Rect) {
    let inner = popup(frame, app, outer, 60, 6, " Add a key ".into());
    if inner.height < 3 {
        return;
    }
    let t = &app.theme;
    let w = inner.width as usize;
    let help = fit(
        vec![(
            "Name (metadata.<name> adds a metadata entry):".into(),
            t.popup,
        )],
        vec![],
        w,
        0,
    );
    frame.render_widget(
        Paragraph::new(help),
        Rect::new(inner.x, inner.y, inner.width, 1),
    );
    frame.render_widget(&ed.prompt, Rect::new(inner.x, inner.y + 1, inner.width, 1));
    let foot = footer(app, Mode::Prompt, w);
    frame.render_widget(
        Paragraph::new(foot),
        Rect::new(inner.x, inner.y + inner.height - 1, inner.width, 1),
    );
}

fn draw_confirm(frame: &mut Frame, app: &App, ed: &Editor, outer: Rect) {
    let inner = popup(frame, app, outer, 60, 5, " Discard changes? ".into());
    let t = &app.theme;
    let w = inner.width as usize;
    let lines = vec![
        fit(
            vec![(format!("{} has unsaved changes.", ed.shown), t.popup)],
            vec![],
            w,
            0,
        ),
        Line::default(),
        footer(app, Mode::Confirm, w),
    ];
    frame.render_widget(Paragraph::new(lines), inner);
}
