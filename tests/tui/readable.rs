//! Readable results and previews on a KEP-like tree (`tests/fixtures/tui/keps-mini`): search
//! hits told apart by their KEP, clean rendered markup with the raw text one key away, long
//! code lines scrolled sideways or wrapped, and the full-width preview.

use crossterm::event::KeyCode;
use ratatui::style::Color;
use skillnav::tui::input::action::Action;

use crate::support::fs::fixture_path;
use crate::support::tui::{
    Tui, act, draw, goto, id, press, preview_rows, screen, select, span_text, tui_over,
};

fn keps(w: u16, h: u16) -> Tui {
    tui_over(&fixture_path("tui").join("keps-mini/keps"), "keps", w, h)
}

fn typed(app: &mut Tui, text: &str) {
    for c in text.chars() {
        act(app, &[Action::SearchInsert(c)]);
    }
}

#[test]
fn kep_summaries_name_their_kep_in_the_results() {
    let mut app = keps(140, 24);
    let picked = id(
        &app,
        "keps/sig-node/1287-in-place-update-pod-resources/README.md#in-place-update-of-pod-resources/summary",
    );
    select(&mut app, &[picked]);
    act(&mut app, &[Action::SearchOpen]);
    typed(&mut app, "summary");
    insta::assert_snapshot!("kep_results", screen(&app));
    // The matched term is drawn in the match colours: "Summary" of the first hit, not the
    // ancestor after it.
    let t = draw(&app);
    let buf = t.backend().buffer();
    let bg = |x: u16| buf[(x, 2)].bg;
    let theme = &app.theme.md.ui;
    let want = Color::Rgb(theme.match_bg.0, theme.match_bg.1, theme.match_bg.2);
    assert_eq!(span_text(buf, 2, 4, 11), "Summary");
    assert_eq!((bg(4), bg(10)), (want, want));
    assert_ne!(bg(14), want, "the ancestor is not marked");
}

/// The preview rows of the KEP-1029 Motivation section after a search for `unlink` jumped
/// to its 304-character code line.
fn on_long_code_line() -> Tui {
    let mut app = keps(100, 24);
    act(&mut app, &[Action::SearchOpen]);
    typed(&mut app, "unlink");
    act(&mut app, &[Action::SearchAccept, Action::FocusNext]);
    app
}

#[test]
fn long_code_line_scrolls_sideways_in_the_preview() {
    let mut app = on_long_code_line();
    // The jump to the hit scrolls the code row sideways to the match, a third into the pane.
    assert_eq!(app.preview.hscroll, 64);
    insta::assert_snapshot!("long_code_line_at_match", preview_rows(&app).join("\n"));
    // `h` (and ←) scroll back by a third of the pane, 19 cells; at column 0 the code is cut.
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('h'));
    }
    press(&mut app, KeyCode::Left);
    assert_eq!(app.preview.hscroll, 0);
    let before = preview_rows(&app);
    insta::assert_snapshot!("long_code_line_cut", before.join("\n"));
    // `l` (and →) scroll the code rows; prose stays.
    press(&mut app, KeyCode::Char('l'));
    press(&mut app, KeyCode::Right);
    assert_eq!(app.preview.hscroll, 38);
    insta::assert_snapshot!("long_code_line_scrolled", preview_rows(&app).join("\n"));
    press(&mut app, KeyCode::Char('<'));
    press(&mut app, KeyCode::Char('<'));
    assert_eq!(preview_rows(&app), before);
    // At column 0, `h` returns to the tree.
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(app.focus, skillnav::tui::state::app::Focus::Left);
}

#[test]
fn wrap_toggle_shows_the_whole_code_line() {
    let mut app = on_long_code_line();
    press(&mut app, KeyCode::Char('w'));
    insta::assert_snapshot!("long_code_line_wrapped", preview_rows(&app).join("\n"));
    press(&mut app, KeyCode::Char('w'));
    assert!(!app.preview.mode.wrap);
}

#[test]
fn full_width_preview_hides_the_tree_until_toggled_back() {
    let mut app = on_long_code_line();
    press(&mut app, KeyCode::Char('f'));
    insta::assert_snapshot!("full_width_preview", screen(&app));
    press(&mut app, KeyCode::Char('f'));
    let a = skillnav::tui::view::layout::areas(&app);
    assert_eq!((a.left.width, a.preview.x), (42, 43));
}

#[test]
fn raw_text_is_one_key_away_from_the_rendered_toc() {
    let mut app = keps(100, 16);
    let toc = id(
        &app,
        "keps/sig-node/1287-in-place-update-pod-resources/README.md#in-place-update-of-pod-resources/table-of-contents",
    );
    goto(&mut app, toc);
    let rendered = preview_rows(&app);
    insta::assert_snapshot!("toc_rendered", rendered.join("\n"));
    press(&mut app, KeyCode::Char('r'));
    assert!(app.preview.mode.raw);
    insta::assert_snapshot!("toc_raw", screen(&app));
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(preview_rows(&app), rendered);
}

#[test]
fn ctx_doc_headings_are_listed_in_the_outline_and_drillable() {
    let file = fixture_path("formats2").join("llms/answerdotai-llms-ctx-full.txt");
    let mut app = tui_over(&file, "ctx", 90, 24);
    let part = id(&app, "ctx/answerdotai-llms-ctx-full.txt#docs/part-2");
    goto(&mut app, part);
    press(&mut app, KeyCode::Char('o'));
    insta::assert_snapshot!("ctx_outline", screen(&app));
    // Down to "CLI" and Enter: the tree and the preview are on that heading.
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('j'));
    }
    press(&mut app, KeyCode::Enter);
    let cli = id(
        &app,
        "ctx/answerdotai-llms-ctx-full.txt#docs/part-2/how-to-use/cli",
    );
    assert_eq!(app.current_node(), Some(cli));
    assert_eq!(preview_rows(&app)[0].trim_end(), "### CLI");
}

#[test]
fn help_has_a_legend_of_glyphs_columns_units_and_the_mouse() {
    let mut app = keps(100, 40);
    act(&mut app, &[Action::Help]);
    // Past the main screen's keys: the legend.
    while !screen(&app).contains("the wheel scrolls the pane under it") {
        press(&mut app, KeyCode::Char('j'));
        assert!(
            matches!(app.popups.last(), Some(skillnav::tui::state::popup::Popup::Help { scroll }) if *scroll < 200),
            "no legend in the help"
        );
    }
    insta::assert_snapshot!("help_legend", screen(&app));
}

#[test]
fn preview_modes_draw_at_every_size_from_1x1() {
    let mut app = on_long_code_line();
    for key in ['f', 'l', 'r', 'l', 'w'] {
        press(&mut app, KeyCode::Char(key));
        for (w, h) in [(1, 1), (2, 3), (20, 5), (39, 10), (41, 12), (200, 50)] {
            act(&mut app, &[Action::Resize(w, h)]);
            let text = screen(&app);
            assert_eq!(text.lines().count(), usize::from(h), "{key} at {w}x{h}");
        }
    }
    assert!(app.preview.mode.raw && app.preview.mode.wrap && app.preview.wide);
}
