//! Export as a skill: a valid skill written, the replace question, failures as status
//! messages, the catalog and active-skill settings, folders holding open files.

use std::path::Path;

use crossterm::event::KeyCode;
use skillnav::formats::{LoadOptions, load_root};
use skillnav::model::NodeKind;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::app::App;
use skillnav::tui::state::curate::{InputPurpose, Question};

use super::*;
use crate::support::fs::{copy_dir, fixture_path};
use crate::support::tui::*;

/// `X`, replace the prefilled folder with `dir`, Enter, keep the prefilled description,
/// Enter, run the export job.
fn export_into(app: &mut App, dir: &Path) {
    press(app, KeyCode::Char('X'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(input_purpose(app), Some(InputPurpose::ExportDir));
    clear_input(app);
    type_text(app, &dir.display().to_string());
    press(app, KeyCode::Enter);
    let typed = dir.display().to_string();
    if !typed.is_empty() {
        assert_eq!(
            input_purpose(app),
            Some(InputPurpose::ExportDescription(typed))
        );
        press(app, KeyCode::Enter);
    }
}

fn section_titles(dir: &Path) -> Vec<String> {
    let c = load_root(&spec(dir, "export"), &LoadOptions::default(), &mut |_| {});
    let mut t: Vec<String> = c
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Section)
        .map(|n| n.title.clone())
        .collect();
    t.sort();
    t.dedup();
    t
}

#[test]
fn export_writes_a_valid_skill_and_asks_before_replacing_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("hono-mini");
    copy_dir(&hono_dir(), &root);
    let mut app = app_over(&root, "hono-mini", 120, 30, &tmp.path().join("recipes"));
    nothing_selected_exports_nothing(&mut app);
    let (logger, cors) = (id(&app, LOGGER), id(&app, CORS));
    select(&mut app, &[logger, cors]);
    the_prompts_are_prefilled_and_esc_writes_nothing(&mut app);
    let dir = tmp.path().join("out").join("my-skill");
    export_writes_a_valid_skill(&mut app, &dir);
    replacing_a_folder_asks_first(&mut app, &dir, cors);
}

/// `X` with nothing selected says so.
fn nothing_selected_exports_nothing(app: &mut App) {
    press(app, KeyCode::Char('X'));
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(
        app.status,
        "Nothing to export: select sections first (Space)"
    );
}

/// `X` prefills the folder from the sources, Enter the description; Esc leaves without
/// writing.
fn the_prompts_are_prefilled_and_esc_writes_nothing(app: &mut App) {
    press(app, KeyCode::Char('X'));
    let cwd = std::env::current_dir().expect("cwd");
    assert_eq!(
        input_text(app),
        cwd.join("hono-docs-middleware").display().to_string()
    );
    let text = screen(app);
    assert!(
        text.contains(" Export as a skill: name ")
            && text.contains("Folder to write (its name is the skill name: a-z 0-9 -):"),
        "{text}"
    );
    // Enter: the description, prefilled from the sources; Esc leaves without writing.
    press(app, KeyCode::Enter);
    assert_eq!(
        input_purpose(app),
        Some(InputPurpose::ExportDescription(
            cwd.join("hono-docs-middleware").display().to_string()
        ))
    );
    assert_eq!(
        input_text(app),
        "Curated documentation from hono on Hono_Docs - Middleware (2 sections). \
         Use when a task needs these topics; read the referenced file of a section only when \
         needed."
    );
    // The description wraps over four lines of its box.
    insta::with_settings!({ snapshot_path => "../snapshots" }, {
        insta::assert_snapshot!("export_description_prompt", screen(app));
    });
    press(app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.effects.is_empty());
}

/// Export the two sections into `dir`: a valid skill holding exactly them.
fn export_writes_a_valid_skill(app: &mut App, dir: &Path) {
    export_into(app, dir);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(
        app.status.starts_with(&format!(
            "Exported 2 sections to {} · validates clean · ",
            dir.display()
        )),
        "{}",
        app.status
    );
    assert!(app.status.ends_with(" tokens"), "{}", app.status);
    let skill_md = std::fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md written");
    assert!(
        skill_md.starts_with(
            "---\nname: my-skill\ndescription: Curated documentation from hono on Hono_Docs - \
             Middleware (2 sections)."
        ),
        "{skill_md}"
    );
    let findings = skillnav::skill::validate::validate_skill_md(
        &skill_md,
        "my-skill",
        None,
        skillnav::skill::validate::Profile::Spec,
    );
    assert!(findings.is_empty(), "{findings:?}");
    let titles = section_titles(dir);
    for t in ["Logger Middleware", "CORS Middleware"] {
        assert!(titles.iter().any(|x| x == t), "{t} in {titles:?}");
    }
    assert!(
        !titles.iter().any(|x| x == "Cache Middleware"),
        "{titles:?}"
    );
}

/// Again into the now non-empty `dir`, with one section (`cors` unselected): a question
/// first; `n` changes nothing, `y` replaces the folder.
fn replacing_a_folder_asks_first(app: &mut App, dir: &Path, cors: skillnav::model::NodeId) {
    // Again into the now non-empty folder, with one section: a question first.
    goto(app, cors);
    act(app, &[Action::ToggleSelect]);
    assert_eq!(member_ids(app), vec![LOGGER.to_string()]);
    export_into(app, dir);
    assert_eq!(app.mode(), Mode::Ask);
    assert_eq!(
        app.question().as_ref().map(|a| a.question.clone()),
        Some(Question::ReplaceFolder(dir.to_path_buf()))
    );
    assert_eq!(
        app.status,
        format!("{} exists and is not empty", dir.display())
    );
    let text = screen(app);
    assert!(
        text.contains(" Replace folder? ") && text.contains("exists and is not empty."),
        "{text}"
    );
    // n: nothing changes.
    press(app, KeyCode::Char('n'));
    assert_eq!(
        (app.mode(), app.status.as_str()),
        (Mode::Normal, "Cancelled")
    );
    assert!(section_titles(dir).iter().any(|x| x == "CORS Middleware"));
    // y: replaced.
    export_into(app, dir);
    assert_eq!(app.mode(), Mode::Ask);
    press(app, KeyCode::Char('y'));
    assert_eq!(app.mode(), Mode::Normal);
    assert!(
        app.status
            .starts_with(&format!("Exported 1 section to {} · ", dir.display())),
        "{}",
        app.status
    );
    let titles = section_titles(dir);
    assert!(
        titles.iter().any(|x| x == "Logger Middleware"),
        "{titles:?}"
    );
    assert!(
        !titles.iter().any(|x| x == "CORS Middleware"),
        "replaced: {titles:?}"
    );
}

#[test]
fn export_failures_become_status_messages() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut app = app_over(
        &hono_dir(),
        "hono-mini",
        120,
        30,
        &tmp.path().join("recipes"),
    );
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    // The folder name is the skill name.
    let bad = tmp.path().join("Bad Name");
    export_into(&mut app, &bad);
    assert_eq!(
        app.status,
        format!(
            "Export failed: {}: the folder name is the skill name and must be 1-64 of a-z 0-9 and single '-'",
            bad.display()
        )
    );
    assert!(!bad.exists());
    // A file in the way.
    let file = tmp.path().join("afile");
    std::fs::write(&file, "x").expect("write");
    export_into(&mut app, &file);
    assert_eq!(
        app.status,
        format!(
            "Export failed: {}: exists and is not a folder",
            file.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "x");
    // Everything selected is hidden.
    goto(&mut app, other);
    for _ in 0..4 {
        press(&mut app, KeyCode::Char('x'));
    }
    let dir = tmp.path().join("hidden-skill");
    export_into(&mut app, &dir);
    assert_eq!(
        app.status,
        "Export failed: nothing to export: the selection has no exposed sections"
    );
    assert!(!dir.exists());
    assert_eq!(app.mode(), Mode::Normal);
}

#[test]
fn export_writes_the_catalog_when_the_config_asks() {
    let mut app = hono(100, 30);
    app.settings.brief.export_catalog = true;
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    let out = tempfile::tempdir().expect("tmp");
    let dir = out.path().join("logger-kit");
    export_into(&mut app, &dir);
    assert!(
        app.status.contains(" · validates clean · "),
        "{}",
        app.status
    );
    let catalog =
        std::fs::read_to_string(dir.join("assets/catalog.json")).expect("catalog written");
    let v: serde_json::Value = serde_json::from_str(&catalog).expect("json");
    assert!(v.is_object(), "{catalog}");
    // Without the setting (the default) there is none.
    app.settings.brief.export_catalog = false;
    let dir2 = out.path().join("logger-kit-two");
    export_into(&mut app, &dir2);
    assert!(dir2.join("SKILL.md").is_file() && !dir2.join("assets").exists());
}

#[test]
fn export_writes_an_active_skill_when_the_config_asks() {
    let mut app = hono(100, 30);
    app.settings.brief.export_active = true;
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    let out = tempfile::tempdir().expect("tmp");
    let dir = out.path().join("logger-active");
    export_into(&mut app, &dir);
    assert!(
        app.status.contains(" · validates clean · "),
        "{}",
        app.status
    );
    let md = std::fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md");
    assert!(md.contains("## How to read this skill\n"), "{md}");
    assert!(md.contains("| `logger-active/references/01-"), "{md}");
    // Without the setting (the default) the SKILL.md is the plain skeleton.
    app.settings.brief.export_active = false;
    let dir2 = out.path().join("logger-plain");
    export_into(&mut app, &dir2);
    let md2 = std::fs::read_to_string(dir2.join("SKILL.md")).expect("SKILL.md");
    assert!(!md2.contains("How to read this skill"), "{md2}");
}

#[test]
fn export_never_replaces_a_folder_holding_open_files() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("open-skills");
    copy_dir(&fixture_path("tui_curate/skills"), &root);
    let mut app = tui_over(&root, "open-skills", 100, 30);
    let skill = id(&app, "open-skills/report-skill");
    select(&mut app, &[skill]);
    // The open root itself, and a folder above it: refused without a question.
    for target in [root.clone(), tmp.path().to_path_buf()] {
        export_into(&mut app, &target);
        assert_eq!(
            app.mode(),
            Mode::Normal,
            "no replace question for {}",
            target.display()
        );
        assert!(
            app.status.starts_with(&format!(
                "Export refused: {} holds files open here",
                target.display()
            )),
            "{}",
            app.status
        );
    }
    assert!(
        root.join("report-skill/SKILL.md").is_file(),
        "the sources are untouched"
    );
    // The core refuses too, even when forced.
    let opts = skillnav::curate::export::ExportOptions {
        description: None,
        max_reference_bytes: 4096,
        with_catalog: false,
        force: true,
        counter: counter(),
    };
    let err = skillnav::curate::export::export_skill(
        &app.corpus,
        &app.selection.units(&app.corpus),
        &app.curate.exposure,
        &root,
        &opts,
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("holds files that are open in skillnav"),
        "{err}"
    );
    assert!(root.join("report-skill/SKILL.md").is_file());
}

#[test]
fn a_typed_description_goes_into_the_exported_frontmatter() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut app = app_over(
        &hono_dir(),
        "hono-mini",
        120,
        30,
        &tmp.path().join("recipes"),
    );
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    let dir = tmp.path().join("logging");
    press(&mut app, KeyCode::Char('X'));
    clear_input(&mut app);
    type_text(&mut app, &dir.display().to_string());
    press(&mut app, KeyCode::Enter);
    clear_input(&mut app);
    type_text(&mut app, "Hono request logging. Use when adding a logger.");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
    let skill_md = std::fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md written");
    assert!(
        skill_md.starts_with(
            "---\nname: logging\ndescription: Hono request logging. Use when adding a logger.\n---\n"
        ),
        "{skill_md}"
    );
}
