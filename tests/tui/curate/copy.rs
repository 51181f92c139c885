//! Copies: the oversize question (save to a file, send anyway, cancel), saving from the
//! preview, copies refused while one runs.

use std::sync::Arc;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use skillnav::clipboard::Route;
use skillnav::tui::effect::Effect;
use skillnav::tui::effects::headless;
use skillnav::tui::effects::worker_msg::WorkerMsg;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::curate::Question;
use skillnav::tui::update::apply;
use skillnav::util::human;

use super::*;
use crate::support::fs::fixture_path;
use crate::support::tui::*;

#[test]
fn oversize_copy_asks_then_saves_to_a_file_sends_or_cancels() {
    let mut app = hono(100, 30);
    let big = big_text();
    app.copying = true;
    apply(&mut app, WorkerMsg::CopyAsk(Arc::clone(&big)));
    assert!(!app.copying);
    assert_eq!(app.mode(), Mode::Ask);
    assert_eq!(
        app.question().as_ref().map(|a| a.question.clone()),
        Some(Question::Oversize(Arc::clone(&big)))
    );
    let limit = human::short_bytes(app.settings.clipboard.osc52_limit as u64);
    assert_eq!(
        app.status,
        format!(
            "The system clipboard is not available and 200kB is over the OSC 52 limit of {limit}"
        )
    );
    let text = screen(&app);
    assert!(text.contains(" Over the OSC 52 limit "), "{text}");
    assert!(text.contains("over the OSC 52 limit of"), "{text}");
    assert!(
        text.contains("w save to a file  y send via OSC 52 anyway  n cancel"),
        "{text}"
    );
    // Unbound keys do nothing; other actions keep the question open.
    let j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(
        skillnav::tui::runtime::action_for(&app, &Event::Key(j)),
        None
    );
    act(&mut app, &[Action::MoveDown]);
    assert_eq!(app.mode(), Mode::Ask);
    // w: saved to a file.
    press_no_settle(&mut app, KeyCode::Char('w'));
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.copying);
    assert_eq!(app.status, "Saving to a file…");
    match app.effects.as_slice() {
        [
            Effect::CopyText {
                built,
                route: Route::File,
                ..
            },
        ] => assert!(Arc::ptr_eq(built, &big)),
        other => panic!("a file copy expected: {other:?}"),
    }
    headless::settle(&mut app);
    apply(&mut app, WorkerMsg::Copied(Ok("Saved".into())));
    // y: sent via OSC 52 anyway.
    apply(&mut app, WorkerMsg::CopyAsk(Arc::clone(&big)));
    press_no_settle(&mut app, KeyCode::Char('y'));
    assert_eq!(app.status, "Sending via OSC 52…");
    assert!(matches!(
        app.effects.as_slice(),
        [Effect::CopyText {
            route: Route::Osc52,
            ..
        }]
    ));
    headless::settle(&mut app);
    apply(&mut app, WorkerMsg::Copied(Ok("Sent".into())));
    // Esc: cancelled, nothing queued.
    apply(&mut app, WorkerMsg::CopyAsk(Arc::clone(&big)));
    press_no_settle(&mut app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(app.status, "Copy cancelled");
    assert!(app.effects.is_empty());
    assert!(app.question().is_none());
    assert!(!app.copying);
}

#[test]
fn save_file_from_the_preview_queues_a_file_copy() {
    let mut app = hono(100, 30);
    let other = id(&app, OTHER_MD);
    goto(&mut app, other);
    press(&mut app, KeyCode::Char('p'));
    let shown = built(&app);
    press_no_settle(&mut app, KeyCode::Char('w'));
    assert_eq!(app.mode(), Mode::Normal);
    match app.effects.as_slice() {
        [
            Effect::CopyText {
                built,
                route: Route::File,
                ..
            },
        ] => assert!(Arc::ptr_eq(built, &shown)),
        other => panic!("a file copy expected: {other:?}"),
    }
}

#[test]
fn copies_while_a_copy_runs_are_refused() {
    let dir = fixture_path("tui_curate/skills");
    let mut app = tui_over(&dir, "skills", 100, 30);
    let skill = id(&app, "skills/report-skill");
    goto(&mut app, skill);
    // One skill: Y copies it.
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert_eq!(copies, vec![vec![skill]]);
    assert_eq!(app.status, "Copying the rendered skill…");
    assert!(press(&mut app, KeyCode::Char('Y')).is_empty());
    assert_eq!(app.status, "A copy is already running…");
    assert!(press(&mut app, KeyCode::Char('y')).is_empty());
    assert_eq!(app.status, "A copy is already running…");
    press(&mut app, KeyCode::Char('p'));
    press_no_settle(&mut app, KeyCode::Enter);
    assert_eq!(app.status, "A copy is already running…");
    assert_eq!(app.mode(), Mode::Brief, "the preview stays open");
    assert!(app.effects.is_empty());
    apply(&mut app, WorkerMsg::Copied(Ok("Copied 1 section".into())));
    press_no_settle(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(matches!(
        app.effects.as_slice(),
        [Effect::CopyText {
            route: Route::Auto,
            ..
        }]
    ));
}
