//! The Claude Code listing budget in the TUI: the top-bar meter and the row marks show the
//! numbers `list --agent claude-code --json` prints.

use crate::support::skills::thirty_skills;
use crate::support::tui::{app_with, draw, spec, top_line, tree_row};

#[test]
fn meter_and_row_marks_match_the_cli_numbers() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let skills = t.path().join("skills");
    thirty_skills(&skills);
    let store = t.path().join("recipes");
    let mut app = app_with(vec![spec(&skills, "skills")], 140, 40, &store, |_| {});
    app.load_opts.agent = Some("claude-code".into());
    let top = top_line(&app);
    assert!(top.contains(" listing 10,475 / 8,000 chars (131%) · o200k"), "{top}");
    let term = draw(&app);
    let buf = term.backend().buffer();
    let row = |title: &str| tree_row(&app, buf, title).unwrap_or_else(|| panic!("no row {title}"));
    assert!(row("s05").contains(" ✂164 "), "{}", row("s05"));
    assert!(row("s22").contains(" ∅ "), "{}", row("s22"));
    assert!(!row("s21").contains('∅'), "{}", row("s21"));
}
