//! The Claude Code listing budget in the TUI: the top-bar meter and the row marks show the
//! numbers `list --agent claude-code --json` prints, and the effective-set popup (`A`) is
//! the listing `list --agent claude-code` prints.

use crossterm::event::KeyCode;
use skillnav::tokens::Encoding;

use crate::support::skills::{skill, thirty_skills};
use crate::support::tui::{app_with, blank_app, built, draw, press, spec, top_line, tree_row};

#[test]
fn meter_and_row_marks_match_the_cli_numbers() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let skills = t.path().join("skills");
    thirty_skills(&skills);
    let store = t.path().join("recipes");
    let mut app = app_with(vec![spec(&skills, "skills")], 140, 40, &store, |_| {});
    app.load_opts.agent = Some("claude-code".into());
    let top = top_line(&app);
    assert!(
        top.contains(" listing 10,475 / 8,000 chars (131%) · o200k"),
        "{top}"
    );
    let term = draw(&app);
    let buf = term.backend().buffer();
    let row = |title: &str| tree_row(&app, buf, title).unwrap_or_else(|| panic!("no row {title}"));
    assert!(row("s05").contains(" ✂164 "), "{}", row("s05"));
    assert!(row("s22").contains(" ∅ "), "{}", row("s22"));
    assert!(!row("s21").contains('∅'), "{}", row("s21"));
    // The root preview: the same meter and who loses the description, in drop order.
    let root = crate::support::tui::id(&app, "skills");
    crate::support::tui::goto(&mut app, root);
    let rows = crate::support::tui::preview_rows(&app);
    let meter = rows
        .iter()
        .find(|r| r.contains("claude-code listing"))
        .map(|r| r.trim().to_string());
    assert_eq!(
        meter.as_deref(),
        Some("claude-code listing 10,475 / 8,000 chars (131%)"),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.trim().starts_with("descriptions dropped: s30, s29, s28")),
        "{rows:?}"
    );
}

#[test]
fn effective_set_popup_is_the_cli_listing() {
    use skillnav::formats::{LoadOptions, Precedence, RootSpec, agents};
    use skillnav::tui::effects::headless;
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = (t.path().join("home"), t.path().join("proj"));
    skill(&home.join(".claude/skills"), "pdf", "user pdf", None);
    skill(&home.join(".cursor/skills"), "cur", "cursor skill", None);
    skill(&proj.join(".claude/skills"), "pdf", "project pdf", None);
    thirty_skills(&proj.join(".claude/skills"));
    let specs: Vec<RootSpec> = agents::discover(&proj, Some(&home), Some("claude-code"))
        .into_iter()
        .map(|(path, label)| RootSpec { path, label })
        .collect();
    let mut app = blank_app(Encoding::O200kBase, false, 140, 40);
    let opts = LoadOptions {
        precedence: Precedence::Spec,
        agent: Some("claude-code".into()),
        ..LoadOptions::default()
    };
    headless::load_specs(&mut app, specs, opts);
    headless::settle(&mut app);
    press(&mut app, KeyCode::Char('A'));
    let b = built(&app);
    let cli = crate::support::child::skillnav_command()
        .args(["list", "--agent", "claude-code", "--precedence", "spec"])
        .current_dir(&proj)
        .env("HOME", &home)
        .env("SKILLNAV_CONFIG_DIR", home.join("no-config"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert_eq!(
        format!("{}\n", b.text),
        String::from_utf8_lossy(&cli.stdout)
    );
    assert!(
        b.text.starts_with("- pdf: project pdf\n- s01: "),
        "{}",
        b.text
    );
    assert_eq!(
        b.label,
        "claude-code · 31 skills · listing 10,494 / 8,000 chars (131%) · 9 without description"
    );
    let top = top_line(&app);
    assert!(
        top.contains(" listing 10,494 / 8,000 chars (131%) · "),
        "{top}"
    );
}

#[test]
fn root_preview_counts_only_the_listed_skills_and_all_scopes() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (proj, user) = (t.path().join("proj"), t.path().join("user"));
    skill(&proj, "pdf", "project pdf", None);
    skill(&proj, "docx", "project docx", None);
    skill(&user, "pdf", "user pdf", None);
    let store = t.path().join("recipes");
    let mut app = app_with(
        vec![
            spec(&proj, "claude-code-project"),
            spec(&user, "claude-code-user"),
        ],
        140,
        40,
        &store,
        |_| {},
    );
    let root = crate::support::tui::id(&app, "claude-code-project");
    crate::support::tui::goto(&mut app, root);
    let rows = crate::support::tui::preview_rows(&app);
    let text = rows.join("\n");
    // project/pdf is shadowed by user/pdf (last wins): the agent sees docx from this root.
    assert!(
        text.contains("the listing of 1 skill, sent on every turn"),
        "{text}"
    );
    assert!(text.contains("all scopes"), "{text}");
    assert!(
        text.contains("the listing of every root together"),
        "{text}"
    );
    // Within budget and no `--agent claude-code`: no meter.
    assert!(!text.contains("claude-code listing"), "{text}");
}
