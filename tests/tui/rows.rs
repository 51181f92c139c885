//! Rows that say what they are: an ADR's status and date, a symlink alias's target, a
//! lazytools bundle's files in their source folders with summaries from text.

use crossterm::event::KeyCode;

use crate::support::fs::{fixture_path, tempdir, write};
use crate::support::tui::{draw, goto, id, press, screen, tree_row, tui_over};

#[test]
fn adr_rows_show_status_and_date_on_the_right() {
    let mut app = tui_over(&fixture_path("formats2/git-adr"), "git-adr", 160, 12);
    let notes = id(&app, "git-adr/adr-notes");
    goto(&mut app, notes);
    press(&mut app, KeyCode::Char('l'));
    let t = draw(&app);
    let row = tree_row(&app, t.backend().buffer(), "Use Architecture").expect("row");
    assert_eq!(
        row,
        "        ✎ Use Architecture D… accepted 2025-12-15 exp 1.0kB    215 "
    );
    insta::assert_snapshot!("adr_rows", screen(&app));
}

#[cfg(unix)]
#[test]
fn a_symlink_alias_shows_its_target_not_dup_sigma_0() {
    let tmp = tempdir();
    write(tmp.path(), "docs/guide.md", b"# Guide\n\nHow to use it.\n");
    std::os::unix::fs::symlink("guide.md", tmp.path().join("docs/latest.md")).expect("link");
    let mut app = tui_over(&tmp.path().join("docs"), "docs", 100, 8);
    let alias = id(&app, "docs/latest.md");
    goto(&mut app, alias);
    let t = draw(&app);
    let row = tree_row(&app, t.backend().buffer(), "latest.md").expect("row");
    // The token column is empty: the text is counted once, at its target.
    assert_eq!(row, "      ≡ latest.md  → guide.…   24B        ");
    assert!(!row.contains("dup") && !row.contains('Σ'), "{row}");
}

#[test]
fn a_lazytools_bundle_groups_its_files_by_source_folder() {
    let mut app = tui_over(&fixture_path("lazytools/hono-docs"), "hono-docs", 100, 16);
    let api = id(&app, "hono-docs/api");
    goto(&mut app, api);
    press(&mut app, KeyCode::Char('l'));
    insta::assert_snapshot!("lazytools_folders", screen(&app));
    let rows: Vec<String> = app
        .tree
        .rows
        .iter()
        .map(|r| app.corpus.node(r.id).title.clone())
        .collect();
    assert_eq!(
        rows[..6],
        [
            "hono-docs",
            "Hono Docs",
            "SKILL.md",
            "api",
            "context.md",
            "exception.md"
        ]
    );
}

#[test]
fn a_skill_named_otherwise_than_its_folder_shows_the_folder() {
    let tmp = tempdir();
    for folder in ["hono-unified", "hono-single-source"] {
        write(
            tmp.path(),
            &format!("{folder}/SKILL.md"),
            b"---\nname: hono\ndescription: Hono web framework.\n---\n\n# Hono\n\nBody.\n",
        );
    }
    let app = tui_over(tmp.path(), "seekers", 120, 8);
    let t = draw(&app);
    let buf = t.backend().buffer();
    let rows: Vec<String> = ["hono-single-source/", "hono-unified/"]
        .iter()
        .map(|f| tree_row(&app, buf, f).unwrap_or_else(|| panic!("{f}")))
        .collect();
    assert_eq!(
        rows,
        [
            "    ▸ ★ hono hono-single-source/ … !   67B    Σ19 ",
            "    ▸ ★ hono hono-unified/  Hono … !   67B    Σ19 ",
        ]
    );
}

/// The root's preview lists its contents; two skills named `hono` (the `Skill_Seekers`
/// folders `hono-single-source/` and `hono-unified/`) read `★ hono` twice there unless
/// each also shows its folder, as its tree row does.
#[test]
fn contents_list_tells_two_same_named_skills_apart_by_folder() {
    let tmp = tempdir();
    for folder in ["hono-unified", "hono-single-source"] {
        write(
            tmp.path(),
            &format!("{folder}/SKILL.md"),
            b"---\nname: hono\ndescription: Hono web framework.\n---\n\n# Hono\n\nBody.\n",
        );
    }
    let app = tui_over(tmp.path(), "seekers", 120, 24);
    let text = screen(&app);
    let contents: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split('│').nth(1))
        .filter(|l| l.starts_with("★ hono"))
        .map(str::trim_end)
        .collect();
    assert_eq!(
        contents,
        [
            "★ hono hono-single-source/  67B · 19 tok",
            "★ hono hono-unified/  67B · 19 tok"
        ]
    );
}
