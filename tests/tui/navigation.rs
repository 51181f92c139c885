//! Tree navigation habits and focus: paging the focused pane, collapse all / expand one
//! level, the parent row, sorting a folder, files with one H1 sharing the file's row, the
//! context kept around a search jump, `l` on a leaf, and the focused pane on screen.

use crossterm::event::{KeyCode, KeyModifiers};
use skillnav::tui::input::action::Action;
use skillnav::tui::state::app::Focus;

use crate::support::fs::fixture_path;
use crate::support::tui::{Tui, act, draw, goto, id, key_action, press, screen, tui_over};

fn hono(w: u16, h: u16) -> Tui {
    tui_over(&fixture_path("tui/hono-mini"), "hono-mini", w, h)
}

/// The titles of the tree's rows, indented two spaces a level.
fn rows(app: &Tui) -> Vec<String> {
    app.tree
        .rows
        .iter()
        .map(|r| {
            format!(
                "{}{}",
                "  ".repeat(r.depth as usize),
                app.corpus.node(r.id).title
            )
        })
        .collect()
}

fn ctrl(app: &mut Tui, c: char) {
    let a = key_action(app, KeyCode::Char(c), KeyModifiers::CONTROL);
    act(app, &[a]);
}

/// hono-mini with `references/middleware.md` open: its one H1 shares the file's row.
fn middleware_open(w: u16, h: u16) -> Tui {
    let mut app = hono(w, h);
    let md = id(&app, "hono-mini/references/middleware.md");
    goto(&mut app, md);
    press(&mut app, KeyCode::Char('l'));
    app
}

#[test]
fn a_file_with_one_h1_lists_its_pages_one_level_below_it() {
    let app = middleware_open(100, 14);
    let r = rows(&app);
    assert_eq!(
        r[..6],
        [
            "hono-mini",
            "  hono",
            "    SKILL.md",
            "    references",
            "      middleware.md",
            "        Cache Middleware",
        ]
    );
    // The heading `Hono_Docs - Middleware` has no row of its own.
    assert!(!r.iter().any(|t| t.contains("Hono_Docs")), "{r:?}");
    insta::assert_snapshot!("compact_h1", screen(&app));
}

#[test]
fn ctrl_d_and_ctrl_u_page_the_tree_when_it_has_the_focus() {
    let mut app = middleware_open(100, 14);
    // 14 rows: the left pane is 12 high, half a page is 6 rows.
    let start = app.tree.cursor;
    ctrl(&mut app, 'd');
    assert_eq!(app.tree.cursor, start + 6);
    ctrl(&mut app, 'd');
    assert_eq!(app.tree.cursor, start + 12);
    ctrl(&mut app, 'u');
    assert_eq!(app.tree.cursor, start + 6);
    assert_eq!(app.preview.scroll, 0);
    let a = key_action(&app, KeyCode::PageDown, KeyModifiers::NONE);
    act(&mut app, &[a]);
    assert_eq!(app.tree.cursor, start + 18);
}

#[test]
fn ctrl_d_scrolls_the_preview_when_it_has_the_focus() {
    let mut app = middleware_open(100, 14);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Preview);
    let cursor = app.tree.cursor;
    ctrl(&mut app, 'd');
    // The preview body is 11 rows (the pane less its header): half a page is 5 lines.
    assert_eq!((app.tree.cursor, app.preview.scroll), (cursor, 5));
    ctrl(&mut app, 'u');
    assert_eq!(app.preview.scroll, 0);
}

#[test]
fn minus_collapses_all_and_equals_opens_one_level_everywhere() {
    let mut app = middleware_open(100, 40);
    press(&mut app, KeyCode::Char('-'));
    assert_eq!(rows(&app), ["hono-mini", "  hono"]);
    assert_eq!(app.status, "Collapsed all");
    // The cursor was inside middleware.md: it lands on the nearest row left.
    assert_eq!(app.tree.cursor, 1);
    press(&mut app, KeyCode::Char('='));
    assert_eq!(
        rows(&app),
        ["hono-mini", "  hono", "    SKILL.md", "    references"]
    );
    assert_eq!(app.status, "Opened one level (1 node)");
    press(&mut app, KeyCode::Char('='));
    assert_eq!(
        rows(&app),
        [
            "hono-mini",
            "  hono",
            "    SKILL.md",
            "      When to Use This Skill",
            "      Quick Reference",
            "      Reference Files",
            "      Working with This Skill",
            "      Notes",
            "      Updating",
            "    references",
            "      middleware.md",
            "      other.md",
        ]
    );
    assert_eq!(app.status, "Opened one level (2 nodes)");
}

#[test]
fn capital_h_jumps_to_the_parent_row_without_collapsing() {
    let mut app = middleware_open(100, 40);
    let cache = app.tree.cursor + 1;
    app.tree.cursor = cache;
    act(&mut app, &[Action::Redraw]);
    let before = app.tree.rows.len();
    press(&mut app, KeyCode::Char('H'));
    assert_eq!(
        app.corpus.node(app.current_node().expect("cursor")).title,
        "middleware.md"
    );
    press(&mut app, KeyCode::Char('H'));
    assert_eq!(
        app.corpus.node(app.current_node().expect("cursor")).title,
        "references"
    );
    assert_eq!(app.tree.rows.len(), before, "H collapses nothing");
    // `h` on a compacted page also goes to the file, not to the hidden heading.
    app.tree.cursor = cache;
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(
        app.corpus.node(app.current_node().expect("cursor")).title,
        "middleware.md"
    );
}

#[test]
fn s_sorts_the_open_folder_by_tokens_bytes_name_then_natural() {
    let mut app = middleware_open(100, 40);
    let first_five = |app: &Tui| rows(app)[5..10].to_vec();
    let natural = first_five(&app);
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "middleware.md: sorted by tokens");
    assert_eq!(
        first_five(&app),
        [
            // 1470, 1171, 1141, 986 and 932 tokens (as `skillnav tree` counts them).
            "        Secure Headers Middleware",
            "        JWK Auth Middleware",
            "        Language Middleware",
            "        Middleware",
            "        JWT Auth Middleware",
        ]
    );
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "middleware.md: sorted by bytes");
    assert_eq!(first_five(&app)[0], "        Secure Headers Middleware");
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "middleware.md: sorted by name");
    assert_eq!(
        first_five(&app),
        [
            "        Basic Auth Middleware",
            "        Bearer Auth Middleware",
            "        Body Limit Middleware",
            "        Cache Middleware",
            "        Combine Middleware",
        ]
    );
    insta::assert_snapshot!("sorted_by_name", screen(&app));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "middleware.md: sorted by natural order");
    assert_eq!(first_five(&app), natural);
}

#[test]
fn enter_on_a_search_result_keeps_rows_above_and_below_the_node() {
    let mut app = hono(100, 14);
    press(&mut app, KeyCode::Char('/'));
    for c in "trailing slash".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    press(&mut app, KeyCode::Enter);
    let node = app.current_node().expect("cursor");
    assert_eq!(app.corpus.node(node).title, "Trailing Slash Middleware");
    // The left pane is 12 rows: the node sits on its 5th row (a third of the way down),
    // with rows of context after it, not on the last row.
    assert_eq!(app.tree.cursor - app.tree.offset, 4);
    assert!(app.tree.offset + 12 < app.tree.rows.len());
    insta::assert_snapshot!("search_jump_context", screen(&app));
}

#[test]
fn l_on_a_leaf_keeps_the_focus_in_the_tree_and_says_how_to_reach_the_preview() {
    let mut app = middleware_open(100, 14);
    press(&mut app, KeyCode::Char('j'));
    let leaf = app.current_node().expect("cursor");
    assert_eq!(app.corpus.node(leaf).title, "Cache Middleware");
    press(&mut app, KeyCode::Char('l'));
    assert_eq!(app.focus, Focus::Left);
    assert_eq!(
        app.status,
        "Cache Middleware has no children · Tab scrolls the preview"
    );
    // `j` and `G` still move the tree's cursor.
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(
        app.corpus.node(app.current_node().expect("cursor")).title,
        "CSRF Protection"
    );
    press(&mut app, KeyCode::Char('G'));
    assert_eq!(app.tree.cursor, app.tree.rows.len() - 1);
}

#[test]
fn the_focused_preview_carries_the_cursor_bar_and_its_hints() {
    let mut app = middleware_open(100, 14);
    let t = draw(&app);
    let buf = t.backend().buffer();
    let a = skillnav::tui::view::layout::areas(&app);
    let header = &buf[(a.preview_header.x, a.preview_header.y)];
    assert_ne!(header.style().bg, app.theme.cursor.bg);
    let last = screen(&app).lines().last().unwrap_or_default().to_string();
    assert!(
        last.ends_with("␣ select  y copy  / search  ? help  q quit  "),
        "{last}"
    );
    press(&mut app, KeyCode::Tab);
    let t = draw(&app);
    let buf = t.backend().buffer();
    let header = &buf[(a.preview_header.x, a.preview_header.y)];
    assert_eq!(header.style().bg, app.theme.cursor.bg);
    assert!(
        header
            .style()
            .add_modifier
            .contains(app.theme.cursor.add_modifier)
    );
    let last = screen(&app).lines().last().unwrap_or_default().to_string();
    assert!(
        last.ends_with("j scroll preview  C-d page  Tab back to tree  ? help  "),
        "{last}"
    );
}

#[test]
fn s_sorts_the_preview_contents_list_like_the_tree() {
    // A folder whose files are in a different order by name and by size.
    let dir = tempfile::tempdir().expect("tmp");
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).expect("mkdir");
    for (name, words) in [("alpha.md", 5), ("beta.md", 400), ("gamma.md", 80)] {
        let body = "lorem ipsum dolor ".repeat(words);
        std::fs::write(docs.join(name), format!("Text of {name}: {body}\n")).expect("write");
    }
    let mut app = tui_over(&docs, "docs", 100, 30);
    let contents = |app: &Tui| -> Vec<String> {
        let rows = crate::support::tui::preview_rows(app);
        let at = rows
            .iter()
            .position(|r| r.trim_start().starts_with("Contents (3)"))
            .expect("a contents list");
        rows[at..at + 4]
            .iter()
            .map(|r| r.split("  ").next().unwrap_or("").trim().to_string())
            .collect()
    };
    assert_eq!(rows(&app)[0], "docs");
    assert_eq!(
        contents(&app),
        ["Contents (3)", "≡ alpha.md", "≡ beta.md", "≡ gamma.md"]
    );
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "docs: sorted by tokens");
    assert_eq!(rows(&app)[1..], ["  beta.md", "  gamma.md", "  alpha.md"]);
    assert_eq!(
        contents(&app),
        [
            "Contents (3) · sorted by tokens",
            "≡ beta.md",
            "≡ gamma.md",
            "≡ alpha.md"
        ]
    );
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "docs: sorted by name");
    assert_eq!(
        contents(&app),
        [
            "Contents (3) · sorted by name",
            "≡ alpha.md",
            "≡ beta.md",
            "≡ gamma.md"
        ]
    );
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.status, "docs: sorted by natural order");
    assert_eq!(
        contents(&app),
        ["Contents (3)", "≡ alpha.md", "≡ beta.md", "≡ gamma.md"]
    );
}
