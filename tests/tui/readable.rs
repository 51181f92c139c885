//! Readable results and previews on a KEP-like tree (`tests/fixtures/tui/keps-mini`): search
//! hits told apart by their KEP, clean rendered markup with the raw text one key away, long
//! code lines scrolled sideways or wrapped, and the full-width preview.

use crossterm::event::KeyCode;
use ratatui::style::Color;
use skillnav::tui::input::action::Action;

use crate::support::fs::fixture_path;
use crate::support::tui::{Tui, act, draw, id, press, screen, select, span_text, tui_over};

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
