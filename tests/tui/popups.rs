//! Mouse and resize with every popup open: the wheel does what `j`/`k` do in that popup
//! (never scrolls the panes under it), clicks do nothing, and a resize keeps the popup on
//! top and drawable at every size.

use crossterm::event::KeyCode;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::popup::Popup;

use crate::support::fs::{copy_dir, fixture_path};
use crate::support::tui::{
    Tui, act, draw, goto, id, input_text, key_action, press, screen, tui_over, type_text,
};

/// A copy of hono-mini (the editor and the recipes may write), 100×30.
fn hono() -> (tempfile::TempDir, Tui) {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("hono-mini");
    copy_dir(&fixture_path("tui/hono-mini"), &root);
    let app = tui_over(&root, "hono-mini", 100, 30);
    (tmp, app)
}

fn wheel(app: &mut Tui, col: u16, row: u16, down: bool) {
    act(app, &[Action::ScrollAt { col, row, down }]);
}

/// Resize through the sizes a user drags through, drawing each; the popup stays on top
/// with the same mode, and the app ends at 100×30.
fn resize_keeps(app: &mut Tui, mode: Mode) {
    for (w, h) in [(1, 1), (20, 5), (50, 12), (200, 50), (100, 30)] {
        act(app, &[Action::Resize(w, h)]);
        let t = draw(app);
        assert_eq!(t.backend().buffer().area.width, w);
        assert_eq!(app.mode(), mode, "at {w}×{h}");
    }
}

/// The tree's cursor and the preview's scroll: what a wheel over the panes would change.
fn panes(app: &Tui) -> (usize, usize) {
    (app.tree.cursor, app.preview.scroll)
}

#[test]
fn help_popup_scrolls_with_the_wheel_anywhere_and_survives_resizes() {
    let (_tmp, mut app) = hono();
    press(&mut app, KeyCode::Char('?'));
    let before = panes(&app);
    // Over the tree's area, over the preview's area: the help scrolls, the panes don't.
    wheel(&mut app, 5, 10, true);
    wheel(&mut app, 80, 10, true);
    assert!(matches!(app.popups.last(), Some(Popup::Help { scroll: 6 })));
    wheel(&mut app, 5, 10, false);
    assert!(matches!(app.popups.last(), Some(Popup::Help { scroll: 3 })));
    act(&mut app, &[Action::ClickAt { col: 5, row: 5 }]);
    assert_eq!(app.mode(), Mode::Help);
    assert_eq!(panes(&app), before);
    resize_keeps(&mut app, Mode::Help);
}

#[test]
fn outline_moves_its_cursor_with_the_wheel() {
    let (_tmp, mut app) = hono();
    let md = id(&app, "hono-mini/SKILL.md");
    goto(&mut app, md);
    press(&mut app, KeyCode::Char('o'));
    assert_eq!(app.mode(), Mode::Outline);
    let before = panes(&app);
    wheel(&mut app, 5, 10, true);
    assert_eq!(app.outline().map(|o| o.cursor), Some(3));
    wheel(&mut app, 5, 10, true);
    wheel(&mut app, 5, 10, false);
    assert_eq!(app.outline().map(|o| o.cursor), Some(3));
    act(&mut app, &[Action::ClickAt { col: 5, row: 5 }]);
    assert_eq!(panes(&app), before);
    resize_keeps(&mut app, Mode::Outline);
    insta::assert_snapshot!("outline_after_wheel", screen(&app));
}

#[test]
fn brief_preview_scrolls_with_the_wheel_and_rewraps_on_resize() {
    let (_tmp, mut app) = hono();
    let md = id(&app, "hono-mini/references/middleware.md");
    goto(&mut app, md);
    press(&mut app, KeyCode::Char('p'));
    assert_eq!(app.mode(), Mode::Brief);
    let before = panes(&app);
    wheel(&mut app, 5, 10, true);
    assert_eq!(app.brief_preview().map(|p| p.scroll), Some(3));
    wheel(&mut app, 5, 10, false);
    assert_eq!(app.brief_preview().map(|p| p.scroll), Some(0));
    assert_eq!(panes(&app), before);
    resize_keeps(&mut app, Mode::Brief);
    act(&mut app, &[Action::Resize(60, 20)]);
    let width = app.brief_preview().map(|p| p.wrap_width);
    assert_eq!(width, Some(58));
    act(&mut app, &[Action::Resize(100, 30)]);
}

#[test]
fn recipe_list_prompt_and_question_take_the_wheel_without_typing_or_moving_panes() {
    let (_tmp, mut app) = hono();
    let md = id(&app, "hono-mini/references/other.md");
    goto(&mut app, md);
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.mode(), Mode::Input);
    type_text(&mut app, "one");
    let before = panes(&app);
    // The prompt binds no j/k: the wheel neither types nor moves anything.
    wheel(&mut app, 5, 10, true);
    act(&mut app, &[Action::ClickAt { col: 5, row: 5 }]);
    assert_eq!(input_text(&app), "one");
    assert_eq!(panes(&app), before);
    resize_keeps(&mut app, Mode::Input);
    press(&mut app, KeyCode::Enter);
    // Two recipes, the list on the first: the wheel moves to the last and stops there.
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "two");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Recipes);
    assert_eq!(app.recipe_list().map(|l| l.entries.len()), Some(2));
    wheel(&mut app, 5, 10, true);
    assert_eq!(app.recipe_list().map(|l| l.cursor), Some(1));
    wheel(&mut app, 5, 10, false);
    assert_eq!(app.recipe_list().map(|l| l.cursor), Some(0));
    resize_keeps(&mut app, Mode::Recipes);
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(app.mode(), Mode::Ask);
    wheel(&mut app, 5, 10, true);
    act(&mut app, &[Action::ClickAt { col: 5, row: 5 }]);
    assert_eq!(app.mode(), Mode::Ask, "the question is still asked");
    resize_keeps(&mut app, Mode::Ask);
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.mode(), Mode::Recipes);
    assert_eq!(panes(&app), before);
}

#[test]
fn editor_form_moves_between_fields_with_the_wheel() {
    let (_tmp, mut app) = hono();
    let skill = id(&app, "hono-mini/SKILL.md");
    goto(&mut app, skill);
    press(&mut app, KeyCode::Char('e'));
    assert_eq!(app.mode(), Mode::Form);
    let fields = app.editor().map_or(0, |e| e.fields.len());
    assert!(fields >= 2, "{fields} fields");
    let before = panes(&app);
    wheel(&mut app, 5, 10, true);
    assert_eq!(app.editor().map(|e| e.selected), Some(3.min(fields - 1)));
    wheel(&mut app, 5, 10, false);
    assert_eq!(app.editor().map(|e| e.selected), Some(0));
    act(&mut app, &[Action::ClickAt { col: 5, row: 5 }]);
    assert_eq!(panes(&app), before);
    resize_keeps(&mut app, Mode::Form);
}

#[test]
fn export_prompts_keep_their_text_through_wheel_clicks_and_resizes() {
    let (tmp, mut app) = hono();
    let md = id(&app, "hono-mini/references/other.md");
    goto(&mut app, md);
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Char('X'));
    let folder = input_text(&app);
    let before = panes(&app);
    wheel(&mut app, 5, 10, true);
    act(&mut app, &[Action::ClickAt { col: 5, row: 5 }]);
    assert_eq!(input_text(&app), folder);
    resize_keeps(&mut app, Mode::Input);
    crate::support::tui::clear_input(&mut app);
    type_text(
        &mut app,
        &tmp.path().join("other-kit").display().to_string(),
    );
    press(&mut app, KeyCode::Enter);
    let description = input_text(&app);
    assert_eq!(
        description,
        "Curated documentation from hono on Hono_Docs - Other (1 section). Use when a task needs these \
         topics; read the referenced file of a section only when needed."
    );
    wheel(&mut app, 5, 10, false);
    act(&mut app, &[Action::ClickAt { col: 50, row: 15 }]);
    resize_keeps(&mut app, Mode::Input);
    assert_eq!(input_text(&app), description);
    assert_eq!(panes(&app), before);
}

/// `Ctrl-d`/`Ctrl-u` page the focused pane everywhere else; in the (long) help they did
/// nothing. At 100×30 a page is 26 rows, half a page 13.
#[test]
fn help_popup_pages_by_half_with_ctrl_d_and_ctrl_u() {
    let (_tmp, mut app) = hono();
    press(&mut app, KeyCode::Char('?'));
    let ctrl = |app: &mut Tui, c| {
        let a = key_action(
            app,
            KeyCode::Char(c),
            crossterm::event::KeyModifiers::CONTROL,
        );
        act(app, &[a]);
    };
    ctrl(&mut app, 'd');
    assert!(matches!(
        app.popups.last(),
        Some(Popup::Help { scroll: 13 })
    ));
    ctrl(&mut app, 'd');
    ctrl(&mut app, 'u');
    assert!(matches!(
        app.popups.last(),
        Some(Popup::Help { scroll: 13 })
    ));
    assert!(screen(&app).contains("C-d"), "C-d is listed in the help");
}
