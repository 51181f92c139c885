//! The client listings in the TUI: the top-bar meter and the row marks show the numbers
//! `list --agent claude-code --json` prints, and the clients popup (`A`) has a column per
//! client whose cells are the statuses `list --agent X --json` prints.

use std::path::Path;

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
    assert!(row("s05").contains(" ✂166 "), "{}", row("s05"));
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
fn clients_popup_has_a_column_per_client_matching_the_cli() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let (home, proj) = (t.path().join("home"), t.path().join("proj"));
    let (text, label) = clients_popup(&home, &proj);
    let row = |name: &str| popup_row(&text, name);
    let header = row("skill");
    assert_eq!(
        header,
        [
            "skill",
            "claude-code",
            "codex",
            "copilot",
            "gemini",
            "opencode",
            "cursor"
        ]
    );
    // Claude Code's own rule: the personal pdf wins over the project one, whatever
    // `--precedence` says; s05 is cut by 166 chars, s22 loses its description.
    assert_eq!(row("pdf (project)")[1], "not loaded");
    assert_eq!(row("pdf (user)")[1], "dropped");
    assert_eq!(row("s05")[1], "cut 166");
    assert_eq!(row("s22")[1], "dropped");
    assert_eq!(row("s01")[1], "full");
    assert_cells_match_cli(&text, &home, &proj);
    // Columns as wide as their widest cell (`codex` holds no `not loaded`), one space apart
    // when two would pass 80 columns: 77 columns here (83 with two spaces, 91 when every
    // column was 11 wide).
    let widest = text
        .lines()
        .skip_while(|l| !l.starts_with("skill "))
        .take_while(|l| !l.is_empty())
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    assert_eq!(widest, 77, "{text}");
    assert!(
        text.contains(
            "\nskill         claude-code codex   copilot    gemini     opencode   cursor\n"
        ),
        "{text}"
    );
    // Every client's meter heads the popup; the label carries Claude Code's.
    assert!(
        text.starts_with("claude-code  listing 10,491 / 8,000 chars (131%) · 1 truncated · 10 dropped · 1 not loaded\n"),
        "{text}"
    );
    assert!(
        text.contains("\ngemini       no documented budget"),
        "{text}"
    );
    assert_eq!(
        label,
        "clients · 32 skills · claude-code listing 10,491 / 8,000 chars (131%)"
    );
}

/// Lay out Claude Code's scopes under `home` (a personal `pdf`) and `proj` (a project `pdf`
/// and thirty skills), load them headless for claude-code and open the clients popup (`A`):
/// its text and label.
fn clients_popup(home: &Path, proj: &Path) -> (String, String) {
    use skillnav::formats::{LoadOptions, Precedence, RootSpec, agents};
    use skillnav::tui::effects::headless;
    skill(&home.join(".claude/skills"), "pdf", "user pdf", None);
    skill(&proj.join(".claude/skills"), "pdf", "project pdf", None);
    thirty_skills(&proj.join(".claude/skills"));
    let specs: Vec<RootSpec> = agents::discover(proj, Some(home), Some("claude-code"))
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
    (b.text.clone(), b.label.clone())
}

/// The cells of the clients popup's row `name` (the row whose first cell is `name`) in the
/// popup `text`.
fn popup_row(text: &str, name: &str) -> Vec<String> {
    // Columns start where the header's words do (cells such as `not loaded` hold a space).
    let header = text
        .lines()
        .find(|l| l.starts_with("skill "))
        .unwrap_or_else(|| panic!("no header in\n{text}"));
    let h: Vec<char> = header.chars().collect();
    let starts: Vec<usize> = (0..h.len())
        .filter(|&i| h[i] != ' ' && (i == 0 || h[i - 1] == ' '))
        .collect();
    let row: Vec<char> = text
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")) || *l == name)
        .unwrap_or_else(|| panic!("no row {name} in\n{text}"))
        .chars()
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &a)| {
            let b = starts
                .get(k + 1)
                .copied()
                .unwrap_or(row.len())
                .min(row.len());
            row[a.min(b)..b]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

/// The popup `text`'s claude-code cells are the statuses `list --agent claude-code --json`
/// prints in `proj` with `home` as the home folder (the two `pdf`s aside).
fn assert_cells_match_cli(text: &str, home: &Path, proj: &Path) {
    let cli = crate::support::child::skillnav_command()
        .args(["list", "--agent", "claude-code", "--json"])
        .current_dir(proj)
        .env("HOME", home)
        .env("SKILLNAV_CONFIG_DIR", home.join("no-config"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    let v: serde_json::Value =
        serde_json::from_slice(&cli.stdout).unwrap_or_else(|e| panic!("json: {e}"));
    for s in v["skills"].as_array().into_iter().flatten() {
        let name = s["name"].as_str().unwrap_or("");
        if name == "pdf" {
            continue;
        }
        let want = match s["status"].as_str().unwrap_or("") {
            "truncated" => format!("cut {}", s["truncated_by"]),
            "not-loaded" => "not loaded".into(),
            other => other.to_string(),
        };
        assert_eq!(popup_row(text, name)[1], want, "{name}");
    }
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

#[test]
fn clients_popup_shows_the_trigger_eval_per_skill() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let dir = crate::support::fs::fixture_path("triggers/per-skill");
    let store = t.path().join("recipes");
    let mut app = app_with(vec![spec(&dir, "per-skill")], 140, 40, &store, |_| {});
    press(&mut app, KeyCode::Char('A'));
    let b = built(&app);
    assert!(
        b.text
            .contains("\ntrigger eval, claude-code (22 queries from evals/eval_queries.json; BM25 and the static table, without the model: `skillnav eval --triggers` uses an installed one)\n"),
        "{}",
        b.text
    );
    assert!(
        b.text
            .contains("\npdf-form-filler  P 0.75  R 0.75  F1 0.75  (3/4)\n"),
        "{}",
        b.text
    );
    assert!(
        b.text
            .contains("\n  ✗ pdf-form-filler: beaten by pdf-toolkit — Could you type my details"),
        "{}",
        b.text
    );
    assert!(
        b.text.ends_with('\n'),
        "w saves a text file that ends its last line"
    );
}

#[test]
fn a_malformed_eval_queries_file_is_named_in_the_clients_popup() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let dir = t.path().join("per-skill");
    crate::support::fs::copy_dir(
        &crate::support::fs::fixture_path("triggers/per-skill"),
        &dir,
    );
    crate::support::fs::write(
        &dir,
        "release-notes/evals/eval_queries.json",
        br#"[{"query": "clean this csv", "should_trigger": true},"#,
    );
    let store = t.path().join("recipes");
    let mut app = app_with(vec![spec(&dir, "per-skill")], 140, 40, &store, |_| {});
    press(&mut app, KeyCode::Char('A'));
    let b = built(&app);
    assert!(b.text.contains("\n\ntrigger eval: "), "{}", b.text);
    assert!(
        b.text
            .contains("release-notes/evals/eval_queries.json: not a list of"),
        "{}",
        b.text
    );
}

#[test]
fn collision_map_lists_the_planted_pairs_and_jumps_to_either_editor() {
    use skillnav::tui::input::action::Action;
    use skillnav::tui::input::keymap::Mode;
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let dir = t.path().join("overlap");
    crate::support::fs::copy_dir(&crate::support::fs::fixture_path("overlap"), &dir);
    let store = t.path().join("recipes");
    let mut app = app_with(vec![spec(&dir, "overlap")], 140, 40, &store, |_| {});
    press(&mut app, KeyCode::Char('C'));
    assert_eq!(app.mode(), Mode::Collisions, "{}", app.status);
    let pairs: Vec<(String, String)> = app
        .collisions()
        .map(|c| {
            c.pairs
                .iter()
                .map(|p| (p.a.1.clone(), p.b.1.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut sorted: Vec<(String, String)> = pairs
        .iter()
        .map(|(a, b)| {
            if a < b {
                (a.clone(), b.clone())
            } else {
                (b.clone(), a.clone())
            }
        })
        .collect();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            ("changelog-writer".to_string(), "release-notes".to_string()),
            ("pdf-form-filler".to_string(), "pdf-toolkit".to_string()),
            (
                "postgres-performance".to_string(),
                "sql-query-tuning".to_string()
            ),
        ]
    );
    let term = draw(&app);
    let screen = crate::support::tui::screen_text(term.backend().buffer());
    assert!(
        screen.contains("Collisions · 3 pairs competing"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("{} ⇄ {}", pairs[0].0, pairs[0].1)),
        "{screen}"
    );
    // Enter: the first skill's editor; Tab on the second pair: that pair's second skill.
    crate::support::tui::act(&mut app, &[Action::Confirm]);
    assert_eq!(app.mode(), Mode::Form, "{}", app.status);
    let shown = app.editor().map(|e| e.shown.clone()).unwrap_or_default();
    assert!(
        shown.ends_with(&format!("{}/SKILL.md", pairs[0].0)),
        "{shown}"
    );
    crate::support::tui::act(&mut app, &[Action::Escape]);
    press(&mut app, KeyCode::Char('C'));
    crate::support::tui::act(&mut app, &[Action::MoveDown, Action::CollisionOther]);
    let shown = app.editor().map(|e| e.shown.clone()).unwrap_or_default();
    assert!(
        shown.ends_with(&format!("{}/SKILL.md", pairs[1].1)),
        "{shown}"
    );
    // The editor says which collision it was opened for.
    let note = app
        .editor()
        .and_then(|e| e.message.clone())
        .unwrap_or_default();
    assert!(
        note.starts_with(&format!(
            "description-overlap with {} (similarity 0.",
            pairs[1].0
        )),
        "{note}"
    );
}
