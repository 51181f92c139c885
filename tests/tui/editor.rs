//! The frontmatter editor, driven by Actions through the real `update` and
//! worker-result paths (`tui::headless`) on tempdir copies of `tests/fixtures/tui/edit/`:
//! exact bytes written (CRLF kept), a file changed on disk refused with a reload offer,
//! undo, read-only files, keys added and removed, reload of the tree after a save, and
//! `TestBackend` snapshots of the form, raw mode with a YAML error, and the diff popup.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use skillnav::formats::{LoadOptions, RootSpec};
use skillnav::model::{Corpus, NodeKind};
use skillnav::render::Theme;
use skillnav::tokens::Encoding;
use skillnav::tui::config::Settings;
use skillnav::tui::effects::headless;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::{KeyChord, Keymap, Mode};
use skillnav::tui::state::app::App;
use skillnav::tui::theme::UiTheme;
use skillnav::tui::{update::update, view};

use crate::support::fs::{copy_dir, fixture_path};
use crate::support::tui::{act, blank_app};

/// Copy the fixture skill folder `name` into a new temp dir; returns the dir and the copy.
fn copy_fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dst = tmp.path().join(name);
    copy_dir(&fixture_path("tui/edit").join(name), &dst);
    (tmp, dst)
}

fn app_on(dir: &Path, w: u16, h: u16) -> App {
    let mut app = blank_app(Encoding::Bytes4, true, w, h);
    let label = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    headless::load_specs(
        &mut app,
        vec![RootSpec {
            path: dir.to_path_buf(),
            label,
        }],
        LoadOptions::default(),
    );
    headless::settle(&mut app);
    app.status.clear();
    app
}

fn key(code: KeyCode, mods: KeyModifiers) -> Action {
    Action::TextKey(KeyChord { code, mods })
}

/// Type `s` into the focused text area (`\n` = Enter).
fn type_text(app: &mut App, s: &str) {
    for c in s.chars() {
        let a = if c == '\n' {
            key(KeyCode::Enter, KeyModifiers::NONE)
        } else {
            key(KeyCode::Char(c), KeyModifiers::NONE)
        };
        act(app, &[a]);
    }
}

/// Clear the current line of the focused text area (Home, then Ctrl-k).
fn clear_line(app: &mut App) {
    act(
        app,
        &[
            key(KeyCode::Home, KeyModifiers::NONE),
            key(KeyCode::Char('k'), KeyModifiers::CONTROL),
        ],
    );
}

/// Open the editor (`e` on the root, which holds one skill) and select row `field`.
fn open_at(app: &mut App, field: &str) {
    act(app, &[Action::EditOpen]);
    assert_eq!(app.mode(), Mode::Form, "status: {}", app.status);
    let ed = app.editor().expect("editor open");
    let i = ed
        .fields
        .iter()
        .position(|f| f.key == field)
        .unwrap_or_else(|| panic!("no row {field}"));
    for _ in 0..i {
        act(app, &[Action::MoveDown]);
    }
}

fn screen(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| view::draw(f, app)).expect("draw");
    let buf = t.backend().buffer();
    (0..h)
        .map(|y| {
            let row: String = (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect();
            row.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn skill_md(dir: &Path) -> Vec<u8> {
    std::fs::read(dir.join("SKILL.md")).expect("read SKILL.md")
}

#[test]
fn edit_description_on_crlf_file_writes_exact_bytes() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "description");
    act(&mut app, &[Action::EditField]);
    assert_eq!(app.mode(), Mode::Field);
    clear_line(&mut app);
    type_text(&mut app, "Edited in the form");
    act(&mut app, &[Action::EditorSave]);
    assert_eq!(app.mode(), Mode::Diff, "status: {}", app.status);
    act(&mut app, &[Action::Confirm]);
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(
        String::from_utf8(skill_md(&dir)).expect("utf8"),
        "---\r\nname: crlf-skill\r\ndescription: >-\r\n  Edited in the form\r\nlicense: MIT\r\n---\r\nBody line\r\n"
    );
    assert!(
        app.status
            .starts_with("Saved crlf-skill: crlf-skill/SKILL.md (2 lines removed, 1 added"),
        "{}",
        app.status
    );
}

#[test]
fn editing_a_description_updates_every_clients_cell_live() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let mut app = app_on(&dir, 120, 30);
    open_at(&mut app, "description");
    let cells = |app: &App| -> Vec<(String, String)> {
        app.editor()
            .map(|e| {
                e.clients
                    .iter()
                    .map(|(c, s)| (c.as_str().to_string(), s.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let codex = |app: &App| {
        cells(app)
            .into_iter()
            .find(|(c, _)| c == "codex")
            .map(|(_, s)| s)
            .unwrap_or_default()
    };
    assert_eq!(cells(&app).len(), 6);
    assert_eq!(codex(&app), "full");
    // 1,100 chars: over Codex's 1,024, under Claude Code's 1,536.
    act(&mut app, &[Action::EditField]);
    act(&mut app, &[Action::Paste("x".repeat(1100))]);
    assert_eq!(codex(&app), "not loaded");
    assert_eq!(cells(&app)[0], ("claude-code".into(), "full".into()));
    let text = screen(&app, 120, 30);
    // OpenCode refuses a description over 1,024 chars too.
    assert!(
        text.contains("clients full except codex not loaded · opencode not loaded"),
        "{text}"
    );
    // Back under the limit: Codex loads it again, before any save.
    clear_line(&mut app);
    type_text(&mut app, "Short again");
    assert_eq!(codex(&app), "full");
}

#[test]
fn file_changed_on_disk_is_refused_with_reload_offer() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "license");
    act(&mut app, &[Action::EditField]);
    clear_line(&mut app);
    type_text(&mut app, "Apache-2.0");
    act(&mut app, &[Action::EditorSave]);
    let other = b"---\nname: crlf-skill\nlicense: BSD\n---\nchanged elsewhere\n";
    std::fs::write(dir.join("SKILL.md"), other).expect("write");
    act(&mut app, &[Action::Confirm]);
    assert_eq!(skill_md(&dir), other, "nothing written");
    assert_eq!(app.mode(), Mode::Diff);
    let ed = app.editor().expect("still open");
    assert!(ed.stale);
    let msg = ed.message.clone().unwrap_or_default();
    assert!(
        msg == "Not saved: the file changed on disk. r reloads it and DROPS your edits; Esc goes back.",
        "{msg}"
    );
    let shown = screen(&app, 100, 30);
    assert!(
        shown.contains("r reload, dropping edits"),
        "the popup offers the reload and says what it costs:\n{shown}"
    );
    assert!(
        shown.contains("DROPS your edits"),
        "the whole message is shown:\n{shown}"
    );
    act(&mut app, &[Action::Reload]);
    assert_eq!(app.mode(), Mode::Form);
    let ed = app.editor().expect("reopened");
    assert_eq!(ed.file.bytes, other);
    let license = ed
        .fields
        .iter()
        .find(|f| f.key == "license")
        .map(|f| f.text.lines().join("\n"));
    assert_eq!(license.as_deref(), Some("BSD"));
}

#[test]
fn undo_restores_previous_bytes_and_again_redoes() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let before = skill_md(&dir);
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "license");
    act(&mut app, &[Action::EditField]);
    clear_line(&mut app);
    type_text(&mut app, "MIT");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    let after = skill_md(&dir);
    let expected = String::from_utf8(before.clone()).expect("utf8").replace(
        "license: Apache-2.0 # see LICENSE",
        "license: MIT # see LICENSE",
    );
    assert_eq!(
        String::from_utf8(after.clone()).expect("utf8"),
        expected,
        "comment kept, one line changed"
    );
    act(&mut app, &[Action::UndoSave]);
    assert_eq!(skill_md(&dir), before);
    assert!(app.status.starts_with("Undone:"), "{}", app.status);
    act(&mut app, &[Action::UndoSave]);
    assert_eq!(skill_md(&dir), after);
    assert!(app.status.starts_with("Redone:"), "{}", app.status);
    act(&mut app, &[Action::UndoSave]);
    assert_eq!(skill_md(&dir), before);
    assert!(app.status.starts_with("Undone:"), "{}", app.status);
}

#[cfg(unix)]
#[test]
fn read_only_file_gives_message_and_is_unchanged() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let path = dir.join("SKILL.md");
    let before = skill_md(&dir);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "license");
    act(&mut app, &[Action::EditField]);
    type_text(&mut app, "-x");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    assert_eq!(skill_md(&dir), before);
    assert_eq!(app.mode(), Mode::Diff);
    let msg = app
        .editor()
        .and_then(|e| e.message.clone())
        .unwrap_or_default();
    assert!(
        msg.ends_with("SKILL.md is read-only; nothing written"),
        "{msg}"
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod back");
}

#[test]
fn add_and_remove_metadata_entries() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "metadata.author");
    act(&mut app, &[Action::DeleteKey, Action::AddKey]);
    assert_eq!(app.mode(), Mode::Prompt);
    // Letters type into the prompt: `d`, `a`, `q` are not commands here.
    type_text(&mut app, "metadata.owner");
    act(&mut app, &[Action::Confirm]);
    assert_eq!(app.mode(), Mode::Field, "{}", app.status);
    type_text(&mut app, "docs team");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    assert!(!app.quit);
    let text = String::from_utf8(skill_md(&dir)).expect("utf8");
    assert_eq!(
        text,
        "---\nname: form-skill\ndescription: |\n  Fill and check PDF forms.\n  Use when a PDF has fields to fill.\nlicense: Apache-2.0 # see LICENSE\nmetadata:\n  version: \"1.0\"\n  owner: docs team\nallowed-tools: [Read, Grep]\nx-team: docs\n---\n# Form skill\n\nBody text.\n"
    );
}

#[test]
fn save_reloads_tree_and_keeps_cursor() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    act(&mut app, &[Action::MoveDown]);
    let skill = app.tree.current().expect("cursor");
    assert_eq!(app.corpus.node(skill).kind, NodeKind::Skill);
    let id = app.corpus.id(skill);
    act(
        &mut app,
        &[Action::EditOpen, Action::MoveDown, Action::EditField],
    );
    act(
        &mut app,
        &[
            key(KeyCode::Down, KeyModifiers::NONE),
            key(KeyCode::End, KeyModifiers::NONE),
        ],
    );
    type_text(&mut app, "\nAlso for signatures.");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    let cur = app.tree.current().expect("cursor");
    assert_eq!(app.corpus.id(cur), id, "cursor on the same node id");
    assert_eq!(
        app.corpus.node(cur).summary,
        "Fill and check PDF forms. Use when a PDF has fields to fill. Also for signatures."
    );
    assert!(app.index.is_some(), "re-indexed");
    assert_eq!(app.progress.counting, None, "re-counted");
    let file = app.corpus.node(cur).children[0];
    assert_eq!(
        app.corpus.node(file).bytes,
        skill_md(&dir).len() as u64,
        "sizes updated"
    );
    act(&mut app, &[Action::SearchOpen]);
    for c in "body".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    let hits: Vec<String> = app
        .search
        .view
        .content
        .iter()
        .map(|h| app.corpus.id(h.node))
        .collect();
    assert_eq!(
        hits,
        ["form-skill/SKILL.md#form-skill"],
        "the reloaded corpus is indexed"
    );
}

#[test]
fn escape_with_changes_asks_before_discarding() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let before = skill_md(&dir);
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "name");
    act(&mut app, &[Action::EditField]);
    type_text(&mut app, "xyz");
    act(&mut app, &[Action::Escape, Action::Escape]);
    assert_eq!(app.mode(), Mode::Confirm);
    assert!(screen(&app, 100, 30).contains("has unsaved changes."));
    act(&mut app, &[Action::Escape]);
    assert_eq!(app.mode(), Mode::Form, "n/Esc keeps editing");
    act(&mut app, &[Action::Escape, Action::Confirm]);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.editor().is_none());
    assert_eq!(skill_md(&dir), before);
}

#[test]
fn invalid_yaml_in_raw_mode_blocks_saving() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let before = skill_md(&dir);
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "name");
    act(&mut app, &[Action::ToggleRaw]);
    assert_eq!(app.mode(), Mode::Raw);
    act(
        &mut app,
        &[
            key(KeyCode::Down, KeyModifiers::NONE),
            key(KeyCode::End, KeyModifiers::NONE),
        ],
    );
    type_text(&mut app, " [oops");
    let err = app
        .editor()
        .and_then(|e| e.yaml_error.clone())
        .expect("a YAML error");
    assert_eq!(err.0, 3, "file line of `description: >- [oops`");
    act(&mut app, &[Action::EditorSave]);
    assert_eq!(app.mode(), Mode::Raw);
    assert!(
        app.status
            .starts_with("Invalid YAML at line 3 blocks saving"),
        "{}",
        app.status
    );
    assert_eq!(skill_md(&dir), before);
}

#[test]
fn raw_mode_edit_keeps_crlf() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "name");
    act(&mut app, &[Action::ToggleRaw]);
    act(&mut app, &[key(KeyCode::Char('>'), KeyModifiers::ALT)]);
    act(&mut app, &[key(KeyCode::End, KeyModifiers::NONE)]);
    type_text(&mut app, "\nmodel: sonnet");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    assert_eq!(
        String::from_utf8(skill_md(&dir)).expect("utf8"),
        "---\r\nname: crlf-skill\r\ndescription: >-\r\n  Windows line\r\n  endings here\r\nlicense: MIT\r\nmodel: sonnet\r\n---\r\nBody line\r\n"
    );
}

#[test]
fn snapshot_form_with_multiline_description_and_metadata() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 24);
    open_at(&mut app, "description");
    act(&mut app, &[Action::EditField]);
    insta::assert_snapshot!("editor_form", screen(&app, 100, 24));
}

#[test]
fn snapshot_raw_mode_with_yaml_error_line() {
    let (_tmp, dir) = copy_fixture("colon-skill");
    let mut app = app_on(&dir, 100, 16);
    act(&mut app, &[Action::EditOpen, Action::ToggleRaw]);
    let text = screen(&app, 100, 16);
    assert!(text.contains("✗ YAML line 3: "), "{text}");
    insta::assert_snapshot!("editor_raw_error", text);
}

#[test]
fn snapshot_diff_popup_shows_repaired_lines() {
    let (_tmp, dir) = copy_fixture("colon-skill");
    let mut app = app_on(&dir, 100, 24);
    open_at(&mut app, "license");
    act(&mut app, &[Action::EditField]);
    type_text(&mut app, "MIT");
    act(&mut app, &[Action::EditorSave]);
    assert_eq!(app.mode(), Mode::Diff, "{}", app.status);
    insta::assert_snapshot!("editor_diff", screen(&app, 100, 24));
    act(&mut app, &[Action::Confirm]);
    assert_eq!(
        String::from_utf8(skill_md(&dir)).expect("utf8"),
        "---\nname: colon-skill\ndescription: 'Use when: you need X'\nversion: 1.0\nlicense: MIT\n---\nBody.\n"
    );
}

#[test]
fn validation_updates_as_you_type_and_profile_switches() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "name");
    let rules = |app: &App| -> Vec<&'static str> {
        app.editor()
            .map(|e| e.findings.iter().map(|f| f.rule).collect())
            .unwrap_or_default()
    };
    assert_eq!(rules(&app), Vec::<&str>::new());
    act(
        &mut app,
        &[Action::EditField, key(KeyCode::End, KeyModifiers::NONE)],
    );
    type_text(&mut app, "_X");
    let ed = app.editor().expect("editor");
    let msgs: Vec<String> = ed
        .findings
        .iter()
        .map(|f| format!("{} {:?} {}", f.rule, f.severity, f.message))
        .collect();
    assert_eq!(
        msgs,
        [
            "name-case Error name 'crlf-skill_X' must be lower-case",
            "name-chars Error name 'crlf-skill_X' may only hold letters, digits and hyphens",
            "name-folder Warning name 'crlf-skill_X' differs from its folder 'crlf-skill'",
        ]
    );
    act(&mut app, &[Action::Escape, Action::ToggleProfile]);
    assert_eq!(app.status, "Validating with the spec profile");
    let ed = app.editor().expect("editor");
    let folder = ed
        .findings
        .iter()
        .find(|f| f.rule == "name-folder")
        .map(|f| f.severity);
    assert_eq!(
        folder,
        Some(skillnav::skill::validate::Severity::Error),
        "the spec requires name = folder"
    );
    // Rule findings are warnings the user may accept: the diff still opens and saves.
    act(&mut app, &[Action::EditorSave]);
    assert_eq!(app.mode(), Mode::Diff);
    assert!(screen(&app, 100, 30).contains("validation finding"));
}

#[test]
fn list_field_edits_one_item_per_line() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "allowed-tools");
    act(
        &mut app,
        &[
            Action::EditField,
            key(KeyCode::Char('>'), KeyModifiers::ALT),
        ],
    );
    act(&mut app, &[key(KeyCode::End, KeyModifiers::NONE)]);
    type_text(&mut app, "\nBash(git:*)");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    let text = String::from_utf8(skill_md(&dir)).expect("utf8");
    assert!(
        text.contains("\nallowed-tools: [Read, Grep, 'Bash(git:*)']\nx-team: docs\n"),
        "{text}"
    );
}

#[test]
fn delete_key_then_restore_and_remove_unknown_key() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "x-team");
    act(&mut app, &[Action::DeleteKey]);
    assert!(screen(&app, 100, 30).contains("Marked for removal"));
    act(&mut app, &[Action::DeleteKey]);
    assert!(
        !app.editor()
            .is_some_and(skillnav::tui::state::editor::Editor::dirty),
        "d again restores it"
    );
    act(
        &mut app,
        &[Action::DeleteKey, Action::EditorSave, Action::Confirm],
    );
    let text = String::from_utf8(skill_md(&dir)).expect("utf8");
    assert!(
        text.contains("allowed-tools: [Read, Grep]\n---\n# Form skill"),
        "{text}"
    );
}

#[test]
fn invalid_yaml_alone_is_not_dirty_but_ctrl_s_offers_the_repair() {
    let (_tmp, dir) = copy_fixture("colon-skill");
    let mut app = app_on(&dir, 100, 30);
    let skill_warnings = |app: &App| -> Vec<String> {
        // Frontmatter warnings live on the SKILL.md file node (not repeated on the skill).
        let file = app
            .corpus
            .nodes
            .iter()
            .find(|n| n.kind == NodeKind::File && n.title == "SKILL.md");
        file.expect("SKILL.md node")
            .warnings
            .iter()
            .map(|w| w.message.clone())
            .collect()
    };
    assert_eq!(
        skill_warnings(&app),
        ["unquoted ': ' in value of `description`; strict YAML parsers reject this"]
    );
    act(&mut app, &[Action::EditOpen]);
    assert!(
        !app.editor()
            .is_some_and(skillnav::tui::state::editor::Editor::dirty)
    );
    act(&mut app, &[Action::EditorSave]);
    assert_eq!(app.mode(), Mode::Diff);
    act(&mut app, &[Action::Confirm]);
    assert_eq!(
        String::from_utf8(skill_md(&dir)).expect("utf8"),
        "---\nname: colon-skill\ndescription: 'Use when: you need X'\nversion: 1.0\n---\nBody.\n"
    );
    assert_eq!(
        skill_warnings(&app),
        Vec::<String>::new(),
        "validation warnings updated after the save"
    );
    act(&mut app, &[Action::EditOpen, Action::Escape]);
    assert_eq!(app.mode(), Mode::Normal, "nothing to discard");
}

#[test]
fn file_without_frontmatter_gets_a_block() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    std::fs::write(dir.join("SKILL.md"), "# Just a body\n").expect("write");
    let mut app = app_on(&dir, 100, 30);
    act(&mut app, &[Action::MoveDown]);
    open_at(&mut app, "name");
    act(&mut app, &[Action::EditField]);
    type_text(&mut app, "crlf-skill");
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    assert_eq!(
        String::from_utf8(skill_md(&dir)).expect("utf8"),
        "---\nname: crlf-skill\n---\n# Just a body\n"
    );
}

#[test]
fn e_on_a_section_of_skill_md_opens_that_file() {
    let fixture = fixture_path("tui/hono-mini");
    let mut app = app_on(&fixture, 100, 30);
    let section = app
        .corpus
        .nodes
        .iter()
        .position(|n| n.kind == NodeKind::Section && &*n.path == "SKILL.md")
        .expect("a SKILL.md section");
    let id = skillnav::model::NodeId(section as u32);
    let (path, shown, folder, root) =
        skillnav::tui::update::editor::skill_file(&app.corpus, id).expect("inside SKILL.md");
    assert_eq!(
        path,
        fixture.canonicalize().expect("real path").join("SKILL.md")
    );
    assert_eq!(
        (shown.as_str(), folder.as_str(), root),
        ("hono-mini: hono-mini/SKILL.md", "hono-mini", 0)
    );
    act(&mut app, &[Action::EditOpen, Action::Escape]);
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(app.status, "Closed the editor (no changes)");
}

#[test]
fn reloading_one_root_keeps_cross_root_shadowed_marks() {
    // Two scopes with a skill of the same name: the last root wins, the first is shadowed.
    let (_a, first) = copy_fixture("form-skill");
    let (_b, second) = copy_fixture("form-skill");
    let theme = UiTheme::new(Theme::dark(), true);
    let mut app = App::new(
        Corpus::new(),
        Encoding::Bytes4,
        Keymap::defaults(),
        Settings::default(),
        theme,
    );
    update(&mut app, Action::Resize(100, 30));
    let specs = vec![
        RootSpec {
            path: first.clone(),
            label: "project".into(),
        },
        RootSpec {
            path: second.clone(),
            label: "user".into(),
        },
    ];
    headless::load_specs(&mut app, specs, LoadOptions::default());
    headless::settle(&mut app);
    let shadowed = |app: &App| -> Vec<(usize, usize)> {
        app.corpus
            .roots
            .iter()
            .enumerate()
            .flat_map(|(ri, r)| app.corpus.preorder(*r).into_iter().map(move |n| (ri, n)))
            .filter(|(_, n)| {
                app.corpus
                    .node(*n)
                    .flags
                    .has(skillnav::model::Flag::Shadowed)
            })
            .map(|(ri, n)| (ri, app.corpus.node(n).warnings.len()))
            .collect()
    };
    assert_eq!(
        shadowed(&app),
        [(0, 1)],
        "the first root's skill is shadowed, with one warning"
    );
    // An edit reloads the first root alone; the mark (and only one warning) survives, and
    // so does the winner's lack of one after the second root reloads.
    app.effects.push(skillnav::tui::effect::Effect::reload(
        0,
        &app.specs,
        &app.load_opts,
    ));
    headless::settle(&mut app);
    assert_eq!(shadowed(&app), [(0, 1)]);
    app.effects.push(skillnav::tui::effect::Effect::reload(
        1,
        &app.specs,
        &app.load_opts,
    ));
    headless::settle(&mut app);
    assert_eq!(shadowed(&app), [(0, 1)]);
}

#[test]
fn reload_all_picks_up_files_changed_outside_and_keeps_the_selection() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    let md = app.corpus.find("form-skill/SKILL.md").expect("SKILL.md");
    app.tree.reveal(&app.corpus.clone(), md);
    act(&mut app, &[Action::ToggleSelect]);
    let before = app.corpus.text(md).to_string();
    // Another program appends to the file; skillnav shows the old text until a reload.
    std::fs::write(
        dir.join("SKILL.md"),
        format!("{before}\n## Added outside\n\nNew text.\n"),
    )
    .expect("write");
    assert_eq!(app.corpus.text(md), before);
    act(&mut app, &[Action::ReloadAll]);
    let md = app.corpus.find("form-skill/SKILL.md").expect("SKILL.md");
    assert!(
        app.corpus
            .text(md)
            .ends_with("## Added outside\n\nNew text.\n"),
        "{}",
        app.corpus.text(md)
    );
    assert!(app.corpus.nodes.iter().any(|n| n.title == "Added outside"));
    assert_eq!(
        app.selection.mark(&app.corpus, md),
        skillnav::model::Mark::Full
    );
    assert_eq!(app.status, "Reloaded form-skill from disk");
}

#[test]
fn reload_says_which_selected_nodes_are_gone() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    let md = app.corpus.find("form-skill/SKILL.md").expect("SKILL.md");
    let section = app
        .corpus
        .node(md)
        .children
        .first()
        .copied()
        .expect("a section");
    let id = app.corpus.id(section);
    // The file's one H1 shares its tree row (the rows compact a file with one heading), so
    // the section is selected directly.
    let corpus = app.corpus.clone();
    app.selection.select(&corpus, section);
    // The heading is renamed outside skillnav: its id changes.
    let text = std::fs::read_to_string(dir.join("SKILL.md")).expect("read");
    let title = app.corpus.node(section).title.clone();
    std::fs::write(
        dir.join("SKILL.md"),
        text.replacen(&format!("# {title}"), "# Renamed heading", 1),
    )
    .expect("write");
    act(&mut app, &[Action::ReloadAll]);
    assert!(app.selection.is_empty());
    assert_eq!(
        app.status,
        format!("1 selected node is no longer there after the reload: {id}")
    );
}

#[test]
fn enter_in_single_line_name_field_confirms_instead_of_adding_a_line() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let before = String::from_utf8(skill_md(&dir)).expect("utf8");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "name");
    act(&mut app, &[Action::EditField]);
    assert!(screen(&app, 100, 30).contains("name · one line: Enter confirms"));
    clear_line(&mut app);
    type_text(&mut app, "release-notes\n");
    assert_eq!(app.mode(), Mode::Form, "Enter left the field");
    assert_eq!(app.status, "`name` set; Ctrl-s saves");
    let ed = app.editor().expect("editor");
    assert_eq!(ed.field().map(|f| f.text.lines().len()), Some(1));
    act(&mut app, &[Action::EditorSave, Action::Confirm]);
    assert_eq!(
        String::from_utf8(skill_md(&dir)).expect("utf8"),
        before.replace("name: form-skill\n", "name: release-notes\n")
    );
}

#[test]
fn paste_into_single_line_field_turns_line_breaks_into_spaces() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "license");
    act(&mut app, &[Action::EditField]);
    clear_line(&mut app);
    act(&mut app, &[Action::Paste("MIT\r\nor Apache-2.0".into())]);
    let ed = app.editor().expect("editor");
    let text = ed.field().map(|f| f.text.lines().join("\n"));
    assert_eq!(text.as_deref(), Some("MIT or Apache-2.0"));
}

#[test]
fn paste_of_esc_and_bel_into_a_field_leaves_them_out_and_says_so() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "license");
    act(&mut app, &[Action::EditField]);
    clear_line(&mut app);
    act(&mut app, &[Action::Paste("MIT\u{1b}[2J\u{7}\tok".into())]);
    let ed = app.editor().expect("editor");
    let text = ed.field().map(|f| f.text.lines().join("\n"));
    assert_eq!(text.as_deref(), Some("MIT[2J\tok"));
    assert_eq!(
        app.status,
        "Pasted without 2 control character(s) a terminal cannot show (U+001B, U+0007)"
    );
}

#[test]
fn a_field_holding_an_escaped_esc_from_the_file_is_named_and_shown_as_a_stand_in() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("esc-skill");
    crate::support::fs::write(
        &dir,
        "SKILL.md",
        b"---\nname: esc-skill\ndescription: \"Red \\e[31malert\\a text\"\n---\nBody.\n",
    );
    let mut app = app_on(&dir, 120, 30);
    open_at(&mut app, "description");
    let shown = screen(&app, 120, 30);
    assert!(
        shown.contains("▸ description              Red ␛[31malert␇ text"),
        "{shown}"
    );
    assert!(
        shown.contains(
            "⚠ `description` holds 2 control character(s) the form cannot show (U+001B, U+0007); r shows them escaped"
        ),
        "{shown}"
    );
}

#[test]
fn enter_in_description_still_adds_a_line() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    open_at(&mut app, "description");
    act(&mut app, &[Action::EditField]);
    assert!(screen(&app, 100, 30).contains("description · text: Enter adds a line"));
    type_text(&mut app, "\n");
    assert_eq!(app.mode(), Mode::Field);
}

#[test]
fn the_save_diff_wraps_a_long_line_so_a_change_at_its_end_shows() {
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 80, 14);
    open_at(&mut app, "x-team");
    act(&mut app, &[Action::EditField]);
    clear_line(&mut app);
    let long = "docs, with a long team description that runs well past the popup width, \
                ending in the changed word CHANGED";
    type_text(&mut app, long);
    act(&mut app, &[Action::EditorSave]);
    assert_eq!(app.mode(), Mode::Diff, "{}", app.status);
    let want = [
        " / search                                  bytes/4 · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱",
        "  ┌ Edit form-skill: form-skill/SKILL.md · form · claude-code · modified ────┐",
        "  │  when_to_use                    ┌ x-team · one line: Enter confirms ────┐│",
        "  │ ┌ Save? 1 line removed, 1 added ───────────────────────────────────────┐││",
        "  │ │-11 │ x-team: docs                                                    │││",
        "  │ │+11 │ x-team: docs, with a long team description that runs well past  │││",
        "  │ │    │ the popup width, ending in the changed word CHANGED             │││",
        "  │ │⚠ 1 validation finding; saving anyway is allowed                      │││",
        "  │ │Enter save  Esc back                                                  │││",
        "  │▸└──────────────────────────────────────────────────────────────────────┘┘│",
        "  │⚠ line 11: 'x-team' is not a spec or Claude Code field (ignored) (unknown…│",
        "  │Tab next field  C-s save  C-r raw/form  Esc field list                    │",
        "  └──────────────────────────────────────────────────────────────────────────┘",
        "",
    ];
    assert_eq!(screen(&app, 80, 14), want.join("\n"));
}

#[test]
fn u_undoes_an_external_editor_edit_and_again_redoes_it() {
    use skillnav::tui::update::after_external;
    use skillnav::tui::update::editor::before_external;
    let (_tmp, dir) = copy_fixture("form-skill");
    let mut app = app_on(&dir, 100, 30);
    let path = dir.join("SKILL.md");
    let before = skill_md(&dir);
    // What `E` does around the editor: read, let it write, then report back.
    let loaded = before_external(&path);
    let edited = String::from_utf8(before.clone())
        .expect("utf8")
        .replace("x-team: docs", "x-team: platform");
    std::fs::write(&path, &edited).expect("write");
    after_external(&mut app, &path, Some(0), loaded, Ok(()));
    assert_eq!(
        app.status,
        format!("Edited {} · reloading · u undoes", path.display())
    );
    act(&mut app, &[Action::UndoSave]);
    assert_eq!(skill_md(&dir), before);
    assert_eq!(
        app.status,
        format!(
            "Undone: {} has its previous bytes again (u redoes)",
            path.display()
        )
    );
    act(&mut app, &[Action::UndoSave]);
    assert_eq!(skill_md(&dir), edited.as_bytes());
    // An editor that changed nothing leaves nothing to undo.
    let loaded = before_external(&path);
    let mut app = app_on(&dir, 100, 30);
    after_external(&mut app, &path, Some(0), loaded, Ok(()));
    assert_eq!(
        app.status,
        format!("Edited {} (unchanged) · reloading", path.display())
    );
    act(&mut app, &[Action::UndoSave]);
    assert_eq!(app.status, "Nothing to undo: no save in this session");
}

#[test]
fn an_editor_too_small_to_draw_says_so_instead_of_showing_the_tree_beneath() {
    let (_tmp, dir) = copy_fixture("crlf-skill");
    let mut app = app_on(&dir, 30, 6);
    open_at(&mut app, "description");
    let shown = screen(&app, 30, 6);
    assert!(
        shown.starts_with("Window too small to edit\ncrlf-skill"),
        "{shown}"
    );
    assert!(shown.contains("resize it, or Esc"), "{shown}");
}

#[test]
fn e_on_a_latin1_frontmatter_or_a_binary_skill_md_says_what_is_wrong() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let latin = tmp.path().join("latin");
    std::fs::create_dir_all(&latin).expect("mkdir");
    std::fs::write(
        latin.join("SKILL.md"),
        b"---\nname: latin\ndescription: Caf\xe9 menus.\n---\nBody.\n",
    )
    .expect("write");
    let mut app = app_on(&latin, 100, 30);
    act(&mut app, &[Action::EditOpen]);
    assert_ne!(app.mode(), Mode::Form);
    assert!(
        app.status.contains("holds bytes that are not UTF-8"),
        "{}",
        app.status
    );
    let skills = tmp.path().join("skills");
    std::fs::create_dir_all(skills.join("binary")).expect("mkdir");
    std::fs::write(skills.join("binary/SKILL.md"), b"\0\0---\nname: binary\n").expect("write");
    let mut app = app_on(&skills, 100, 30);
    act(&mut app, &[Action::MoveDown, Action::EditOpen]);
    assert_ne!(app.mode(), Mode::Form);
    assert!(
        app.status.contains("SKILL.md holds no text"),
        "{}",
        app.status
    );
}
