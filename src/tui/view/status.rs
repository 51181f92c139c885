//! The bottom line: progress or the last action on the left, key hints on the right
//! (generated from the keymap of the current mode; with the preview focused they say so).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::{App, Focus};
use crate::tui::view::row::{Piece, fit};

/// Draw the status line into `area`.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    if area.area() == 0 {
        return;
    }
    let t = &app.theme;
    let mut left: Vec<Piece> = vec![(" ".into(), t.status)];
    let p = &app.progress;
    if let Some((files, done, total)) = p.loading {
        left.push((
            format!("Loading… {files} files ({done}/{total} roots)  "),
            t.status.patch(t.warn),
        ));
    }
    if let Some((done, total)) = p.indexing {
        left.push((
            format!("Indexing {}%  ", percent(done, total)),
            t.status.patch(t.warn),
        ));
    }
    if let Some((done, total)) = p.counting {
        left.push((
            format!("Counting tokens {}%  ", percent(done, total)),
            t.status.patch(t.warn),
        ));
    }
    if !app.warnings.is_empty() {
        left.push((
            format!(
                "! {} (? lists them)  ",
                crate::util::human::plural(app.warnings.len(), "warning")
            ),
            t.status.patch(t.warn),
        ));
    }
    left.push((app.status.clone(), t.status));
    let mut right = hints(app);
    if !right.is_empty() {
        right.insert(0, (" ".into(), t.status));
    }
    // The status text matters more than the hints: they give way when it needs the room.
    let left_w: usize = left
        .iter()
        .map(|(t, _)| crate::render::width::str_width(t))
        .sum();
    let mut line = fit(left, right, area.width as usize, left_w.max(20));
    let w = line.width();
    if w < area.width as usize {
        line.spans.push(ratatui::text::Span::styled(
            " ".repeat(area.width as usize - w),
            t.status,
        ));
    }
    frame.render_widget(Paragraph::new(line).style(t.status), area);
}

fn percent(done: usize, total: usize) -> usize {
    (done * 100).checked_div(total).unwrap_or(0).min(100)
}

/// Key hints of the current mode: `␣ select  y copy  / search  ? help  q quit`.
fn hints(app: &App) -> Vec<Piece> {
    let actions: &[Action] = match app.mode() {
        // The preview has the focus: say so, with the keys that scroll it and leave it.
        Mode::Normal if app.focus == Focus::Preview => &[
            Action::MoveDown,
            Action::HalfPageDown,
            Action::FocusNext,
            Action::Help,
        ],
        Mode::Normal => &[
            Action::SelectDown,
            Action::CopyBrief,
            Action::SearchOpen,
            Action::Help,
            Action::Quit,
        ],
        // The curation popups show their keys in their own footer.
        Mode::Brief | Mode::Recipes | Mode::Input | Mode::Ask => &[],
        Mode::Outline | Mode::Collisions => &[],
        Mode::Search => &[Action::SearchAccept, Action::MoveDown, Action::Escape],
        Mode::Help => &[Action::Escape],
        // The editor's popups show their keys in their own footer.
        Mode::Form | Mode::Field | Mode::Raw | Mode::Diff | Mode::Prompt | Mode::Confirm => &[],
    };
    let t = &app.theme;
    let mut out = Vec::new();
    for a in actions {
        if let Some(k) = app.keymap.first_key(app.mode(), a) {
            out.push((format!("{k} "), t.status.patch(t.key)));
            let preview = app.focus == Focus::Preview && app.mode() == Mode::Normal;
            let label = match a {
                Action::MoveDown if preview => "scroll preview",
                Action::HalfPageDown if preview => "page",
                Action::FocusNext if preview => "back to tree",
                Action::MoveDown => "next",
                _ => a.hint(),
            };
            out.push((format!("{label}  "), t.status));
        }
    }
    out
}
