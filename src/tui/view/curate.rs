//! The curation popups: brief / rendered-skill preview (the exact text with its bytes and
//! tokens), the recipe list, the one-line prompt and the question. Pure drawing from the
//! state in [`crate::tui::state::curate::Curate`]; the preview's lines were wrapped in `update`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::state::built_text::BuiltText;
use crate::tui::state::curate::{
    Ask, InputBox, InputPurpose, PreviewKind, PreviewPopup, Question, RecipeList,
};
use crate::tui::state::popup::Popup;
use crate::tui::view::editor::popup;
use crate::tui::view::layout::preview_area;
use crate::tui::view::row::{Piece, fit};
use crate::util::human;

/// Draw the popup of the current curation mode over `screen`.
pub fn draw(frame: &mut Frame, app: &App, screen: Rect) {
    // A prompt or question opened from the preview or the list shows over it (the popup
    // under the first prompt, else under the question).
    let prompt = |p: &Popup| matches!(p, Popup::Input(_));
    let over = app
        .popups
        .iter()
        .position(prompt)
        .unwrap_or(app.popups.len().saturating_sub(1));
    let base = match app.popups.last() {
        Some(Popup::Input(_) | Popup::Ask(_)) => {
            over.checked_sub(1).and_then(|i| app.popups.get(i))
        }
        top => top,
    };
    match base {
        Some(Popup::Brief(p)) => draw_preview(frame, app, p, screen),
        Some(Popup::Recipes(list)) => draw_recipes(frame, app, list, screen),
        _ => {}
    }
    match app.popups.last() {
        Some(Popup::Input(input)) => draw_input(frame, app, input, screen),
        Some(Popup::Ask(a)) => draw_ask(frame, app, a, screen),
        _ => {}
    }
}

/// Key hints of `mode` with popup-specific labels.
fn footer(app: &App, mode: Mode, actions: &[Action], width: usize) -> Line<'static> {
    let t = &app.theme;
    let mut pieces: Vec<Piece> = Vec::new();
    for a in actions {
        if let Some(k) = app.keymap.first_key(mode, a) {
            let label = match (mode, a) {
                (Mode::Recipes, Action::Confirm) => "load",
                (Mode::Input, Action::Confirm) => "ok",
                (_, Action::Escape) => "close",
                (Mode::Ask, Action::Confirm) => "yes",
                _ => a.hint(),
            };
            pieces.push((format!("{k} "), t.key));
            pieces.push((format!("{label}  "), t.popup));
        }
    }
    fit(pieces, vec![], width, 0)
}

/// The preview popup: its title, the head line (size, budget, what was left out, the
/// scroll position), the text, and the keys of its kind.
fn draw_preview(frame: &mut Frame, app: &App, p: &PreviewPopup, screen: Rect) {
    let t = &app.theme;
    let (x, y, pw, ph) = preview_area(screen.width, screen.height);
    let area = Rect::new(screen.x + x, screen.y + y, pw, ph);
    if area.area() == 0 {
        return;
    }
    let c = &app.curate;
    let title = match p.kind {
        PreviewKind::Brief => format!(
            " Brief preview · {} · {} ",
            c.format.as_str(),
            c.mode.as_str()
        ),
        PreviewKind::Skill => " Rendered skill preview ".to_string(),
        PreviewKind::Agent => " Clients · what each agent client lists ".to_string(),
    };
    let inner = crate::tui::view::framed::framed(frame, app, area, title);
    if inner.height == 0 {
        return;
    }
    let w = inner.width as usize;
    let head: Line = match &p.built {
        None => fit(vec![("Building…".into(), t.dim)], vec![], w, 0),
        Some(Err(e)) => fit(vec![(e.clone(), t.warn)], vec![], w, 0),
        Some(Ok(b)) => preview_head(app, p, b, w),
    };
    let body_h = (inner.height as usize).saturating_sub(2);
    let mut lines = vec![head];
    lines.extend(
        p.wrapped
            .iter()
            .skip(p.scroll)
            .take(body_h)
            .map(|l| fit(vec![(l.clone(), t.popup)], vec![], w, 0)),
    );
    lines.resize(inner.height.saturating_sub(1) as usize, Line::default());
    if inner.height >= 2 {
        lines.push(footer(app, Mode::Brief, preview_actions(p.kind), w));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The head line of a built preview text `b`, `w` cells wide: label, tokens, bytes, the
/// budget, what was left out, the query's hits, and the scroll position.
fn preview_head(app: &App, p: &PreviewPopup, b: &BuiltText, w: usize) -> Line<'static> {
    let t = &app.theme;
    let c = &app.curate;
    let mut left: Vec<Piece> = vec![
        (format!("{} · ", b.label), t.popup),
        (
            format!(
                "{} tokens ({})",
                human::short_count(b.tokens),
                b.encoding.as_str()
            ),
            t.tokens,
        ),
        (format!(" · {}", human::short_bytes(b.bytes)), t.bytes),
    ];
    if let Some(budget) = c.budget.filter(|_| p.kind == PreviewKind::Brief) {
        let style = if b.tokens > budget { t.error } else { t.dim };
        left.push((format!(" · budget {}", human::short_count(budget)), style));
    }
    if !b.left_out.is_empty() {
        left.push((
            format!(
                " · left out {}: {}",
                b.left_out.len(),
                b.left_out.join(", ")
            ),
            t.warn,
        ));
    }
    if c.with_query && p.kind == PreviewKind::Brief && !app.search.query.trim().is_empty() {
        left.push((format!(" · + hits of {:?}", app.search.query.trim()), t.dim));
    }
    let pos = if p.wrapped.is_empty() {
        String::new()
    } else {
        format!(
            " {}/{} ",
            (p.scroll + 1).min(p.wrapped.len()),
            p.wrapped.len()
        )
    };
    fit(left, vec![(pos, t.dim)], w, 10)
}

/// The keys the footer of a preview of `kind` shows.
fn preview_actions(kind: PreviewKind) -> &'static [Action] {
    match kind {
        PreviewKind::Brief => &[
            Action::CopyText,
            Action::CycleFormat,
            Action::CycleMode,
            Action::ToggleQuery,
            Action::CycleBudget,
            Action::ToggleKind,
            Action::SaveFile,
            Action::Escape,
        ],
        PreviewKind::Skill => &[
            Action::CopyText,
            Action::SetArgs,
            Action::SetVars,
            Action::ToggleBaseDir,
            Action::CycleListing,
            Action::ToggleKind,
            Action::SaveFile,
            Action::Escape,
        ],
        PreviewKind::Agent => &[Action::CopyText, Action::SaveFile, Action::Escape],
    }
}

fn draw_recipes(frame: &mut Frame, app: &App, list: &RecipeList, screen: Rect) {
    let t = &app.theme;
    let n = list.entries.len();
    let h = (n.max(1) + 5).min(u16::MAX as usize) as u16;
    let inner = popup(frame, app, screen, 70, h, format!(" Recipes ({n}) "));
    if inner.height == 0 {
        return;
    }
    let w = inner.width as usize;
    let list_h = (inner.height as usize).saturating_sub(3).max(1);
    let top = list.cursor.saturating_sub(list_h.saturating_sub(1));
    let mut lines: Vec<Line> = Vec::new();
    if n == 0 {
        lines.push(fit(
            vec![("No saved recipes yet.".into(), t.dim)],
            vec![],
            w,
            0,
        ));
    }
    for (i, e) in list.entries.iter().enumerate().skip(top).take(list_h) {
        let current = app.curate.recipe_name.as_deref() == Some(e.label.as_str());
        let mut line = fit(
            vec![
                (if current { "● ".into() } else { "  ".into() }, t.mark),
                (e.label.clone(), t.popup),
            ],
            vec![],
            w,
            0,
        );
        if i == list.cursor {
            // The whole row, not just its text.
            let pad = w.saturating_sub(line.width());
            line.spans.push(ratatui::text::Span::raw(" ".repeat(pad)));
            line = line.patch_style(t.cursor);
        }
        lines.push(line);
    }
    lines.resize(list_h, Line::default());
    let folder = app.curate.store.as_ref().map_or_else(
        || "no user data folder".to_string(),
        |s| s.dir.display().to_string(),
    );
    lines.push(fit(vec![(format!("in {folder}"), t.dim)], vec![], w, 0));
    lines.push(Line::default());
    lines.push(footer(
        app,
        Mode::Recipes,
        &[
            Action::Confirm,
            Action::RecipeSave,
            Action::RecipeDelete,
            Action::Escape,
        ],
        w,
    ));
    frame.render_widget(Paragraph::new(lines), inner);
}

fn draw_input(frame: &mut Frame, app: &App, input: &InputBox, screen: Rect) {
    let (title, help) = match input.purpose {
        InputPurpose::RecipeName => (
            " Save recipe ",
            "Name (A-Z a-z 0-9 - _ .; the same name replaces it):",
        ),
        InputPurpose::Budget => (" Token budget ", "Tokens (12000, 12k; 0 = no budget):"),
        InputPurpose::ExportDir => (
            " Export as a skill: name ",
            "Folder to write (its name is the skill name: a-z 0-9 -):",
        ),
        InputPurpose::ExportDescription(_) => (
            " Export as a skill: description ",
            "Description (what it holds, when to use it; from the sources):",
        ),
        InputPurpose::SkillArgs => (
            " Skill arguments ",
            "Text for $ARGUMENTS · empty keeps the placeholders · \"\" blanks them:",
        ),
        InputPurpose::SkillVars => (
            " Skill variables ",
            "${NAME} values: NAME=value … (quotes for spaces):",
        ),
    };
    // A wrapped description gets four text lines; the other prompts one.
    let rows: u16 = if matches!(input.purpose, InputPurpose::ExportDescription(_)) {
        4
    } else {
        1
    };
    let inner = popup(frame, app, screen, 72, 5 + rows, title.into());
    if inner.height < 3 {
        return;
    }
    let rows = rows.min(inner.height - 2);
    let t = &app.theme;
    let w = inner.width as usize;
    let line = fit(vec![(help.into(), t.popup)], vec![], w, 0);
    frame.render_widget(
        Paragraph::new(line),
        Rect::new(inner.x, inner.y, inner.width, 1),
    );
    frame.render_widget(
        &input.area,
        Rect::new(inner.x, inner.y + 1, inner.width, rows),
    );
    let foot = footer(app, Mode::Input, &[Action::Confirm, Action::Escape], w);
    frame.render_widget(
        Paragraph::new(foot),
        Rect::new(inner.x, inner.y + inner.height - 1, inner.width, 1),
    );
}

fn draw_ask(frame: &mut Frame, app: &App, a: &Ask, screen: Rect) {
    let t = &app.theme;
    let (title, text, actions): (&str, String, &[Action]) = match &a.question {
        Question::DeleteRecipe(e) => (
            " Delete recipe? ",
            format!("Delete {} ({})?", e.label, e.path.display()),
            &[Action::Confirm, Action::Escape],
        ),
        Question::Oversize(b) => (
            " Over the OSC 52 limit ",
            format!(
                "The system clipboard is not available. {} ({} tokens) is over the OSC 52 limit of {}: \
                 many terminals drop it silently. Save it to a file, or send it anyway?",
                human::short_bytes(b.bytes),
                human::short_count(b.tokens),
                human::short_bytes(app.settings.clipboard.osc52_limit as u64)
            ),
            &[Action::SaveFile, Action::Confirm, Action::Escape],
        ),
        Question::ReplaceFolder(d) => (
            " Replace folder? ",
            format!(
                "{} exists and is not empty. Delete everything in it and write the export there?",
                d.display()
            ),
            &[Action::Confirm, Action::Escape],
        ),
    };
    let inner = popup(frame, app, screen, 72, 8, title.into());
    if inner.height == 0 {
        return;
    }
    let w = inner.width as usize;
    let words = [crate::render::Span::role(text, crate::render::Role::Text)];
    let mut lines: Vec<Line> = crate::render::wrap(&words, w)
        .iter()
        .map(|l| fit(vec![(l.plain(), t.popup)], vec![], w, 0))
        .collect();
    lines.resize((inner.height as usize).saturating_sub(1), Line::default());
    let mut foot = footer(app, Mode::Ask, actions, w);
    if matches!(a.question, Question::Oversize(_)) {
        // Name the two ways out plainly.
        foot = fit(
            vec![
                (
                    app.keymap
                        .first_key(Mode::Ask, &Action::SaveFile)
                        .unwrap_or_default(),
                    t.key,
                ),
                (" save to a file  ".into(), t.popup),
                (
                    app.keymap
                        .first_key(Mode::Ask, &Action::Confirm)
                        .unwrap_or_default(),
                    t.key,
                ),
                (" send via OSC 52 anyway  ".into(), t.popup),
                (
                    app.keymap
                        .first_key(Mode::Ask, &Action::Escape)
                        .unwrap_or_default(),
                    t.key,
                ),
                (" cancel".into(), t.popup),
            ],
            vec![],
            w,
            0,
        );
    }
    lines.push(foot);
    frame.render_widget(Paragraph::new(lines), inner);
}
