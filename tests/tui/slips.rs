//! Small slips of the TUI: a block-scalar description shown once in the skill preview,
//! the recipe name box refusing characters as they are typed, the arguments prompt's words.

use crossterm::event::KeyCode;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::curate::InputPurpose;

use crate::support::fs::{fixture_path, tempdir, write};
use crate::support::tui::{
    act, goto, id, input_purpose, input_text, press, preview_rows, screen, tui_over, type_text,
};

#[test]
fn a_block_scalar_description_shows_once_in_the_skill_preview() {
    let tmp = tempdir();
    write(
        tmp.path(),
        "folded/SKILL.md",
        b"---\nname: folded\ndescription: >\n  Reads folded YAML descriptions\n  over several lines.\n---\n\n# Folded\n\nBody.\n",
    );
    let mut app = tui_over(tmp.path(), "tmp", 100, 20);
    let skill = id(&app, "tmp/folded");
    goto(&mut app, skill);
    let rows = preview_rows(&app);
    let hits = rows
        .iter()
        .filter(|r| r.contains("Reads folded YAML descriptions"))
        .count();
    assert_eq!(hits, 1, "{rows:#?}");
    assert_eq!(
        rows[0].trim_end(),
        "Reads folded YAML descriptions over several lines."
    );
}

#[test]
fn the_recipe_name_box_refuses_spaces_as_they_are_typed() {
    let mut app = tui_over(&fixture_path("tui/hono-mini"), "hono-mini", 100, 30);
    press(&mut app, KeyCode::Char(' '));
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(input_purpose(&app), Some(InputPurpose::RecipeName));
    type_text(&mut app, "my hono/set");
    assert_eq!(input_text(&app), "myhonoset");
    assert_eq!(
        app.status,
        "Recipe names take A-Z a-z 0-9 - _ . (no spaces)"
    );
    act(
        &mut app,
        &[skillnav::tui::input::action::Action::Paste(
            "-v2 final".into(),
        )],
    );
    assert_eq!(input_text(&app), "myhonoset-v2final");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Recipes);
    assert_eq!(
        app.recipe_list().map(|l| l.entries[0].label.clone()),
        Some("myhonoset-v2final".into())
    );
}

#[test]
fn the_arguments_prompt_says_what_empty_and_quotes_do() {
    let mut app = tui_over(&fixture_path("tui/hono-mini"), "hono-mini", 100, 30);
    let skill = id(&app, "hono-mini/hono");
    goto(&mut app, skill);
    press(&mut app, KeyCode::Char('p'));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(input_purpose(&app), Some(InputPurpose::SkillArgs));
    let text = screen(&app);
    let line = text
        .lines()
        .find(|l| l.contains("$ARGUMENTS"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("│Text for $ARGUMENTS · empty keeps the placeholders · \"\" blanks them:"),
        "{line}"
    );
    assert!(text.contains("┌ Skill arguments ─"), "{text}");
}
