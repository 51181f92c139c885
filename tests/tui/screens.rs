//! Screen tests of the TUI on `TestBackend`, driven by Actions through the real `update` and
//! worker-result paths (`tui::headless`). Snapshots are text only (insta); styles are
//! checked on specific cells.

use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use skillnav::formats::{LoadOptions, RootSpec, load_root};
use skillnav::model::{Corpus, Format, Mark, Node, NodeKind, Source, TextSpan};
use skillnav::tokens::Encoding;
use skillnav::tui::effects::headless;
use skillnav::tui::effects::worker_msg::WorkerMsg;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::app::App;
use skillnav::tui::update::update;

use crate::support::fs::{fixture_path, write};
use crate::support::tui::{
    act, app_on_corpus, draw, goto, id, row_text, screen, screen_text, span_text,
};

fn fixture(name: &str) -> PathBuf {
    fixture_path("tui").join(name)
}

/// The hono-mini fixture, its files' absolute paths rebased on `/fixtures/hono-mini`: a
/// skill's listing entry holds its SKILL.md location, so the token counts in the snapshots
/// must not depend on where the repository is checked out.
fn hono() -> Corpus {
    let dir = fixture("hono-mini");
    let spec = RootSpec {
        path: dir.clone(),
        label: "hono-mini".into(),
    };
    let mut c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
    let real = std::fs::canonicalize(&dir).unwrap_or(dir);
    for s in &mut c.sources {
        if let Some(p) = s.abs_path.as_ref().and_then(|p| p.strip_prefix(&real).ok()) {
            s.abs_path = Some(PathBuf::from("/fixtures/hono-mini").join(p));
        }
    }
    c
}

fn app_with(corpus: Corpus, w: u16, h: u16, no_color: bool) -> App {
    let mut app = app_on_corpus(corpus, Encoding::O200kBase, no_color, w, h);
    app.status.clear();
    app
}

fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        act(app, &[Action::SearchInsert(c)]);
    }
}

/// Row of the first line of the left pane (the tree) containing `needle`.
fn find_row(buf: &Buffer, needle: &str) -> Option<u16> {
    let w = (u32::from(buf.area.width) * 42 / 100) as u16;
    (1..buf.area.height).find(|y| span_text(buf, *y, 0, w).contains(needle))
}

#[test]
fn initial_frame_shows_tree_sizes_and_rendered_skill() {
    let app = app_with(hono(), 100, 30, false);
    let t = draw(&app);
    insta::assert_snapshot!("initial_frame", t.backend());
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱"),
        "{text}"
    );
    assert!(text.contains("▾ ◆ hono-mini"), "{text}");
}

#[test]
fn expand_and_collapse_rows() {
    let mut app = app_with(hono(), 100, 30, false);
    let rows_before = app.tree.rows.len();
    // Go to the last visible row (a folder or file) and open it.
    act(&mut app, &[Action::Bottom]);
    let cur = app.tree.current().expect("cursor");
    let kids = app.corpus.node(cur).children.len();
    assert!(kids > 0, "the last row has children");
    act(&mut app, &[Action::Expand]);
    assert_eq!(app.tree.rows.len(), rows_before + kids);
    insta::assert_snapshot!("expanded", draw(&app).backend());
    act(&mut app, &[Action::Collapse]);
    assert_eq!(app.tree.rows.len(), rows_before);
    assert_eq!(app.tree.current(), Some(cur));
    // Collapse on a collapsed node goes to the parent.
    act(&mut app, &[Action::Collapse]);
    assert_eq!(app.tree.current(), app.corpus.node(cur).parent);
}

#[test]
fn selection_marks_and_running_total() {
    let mut app = app_with(hono(), 100, 30, false);
    let middleware = app
        .corpus
        .find("hono-mini/references/middleware.md")
        .expect("middleware.md");
    app.tree.reveal(&app.corpus.clone(), middleware);
    act(&mut app, &[Action::ToggleSelect]);
    let parent = app.corpus.node(middleware).parent.expect("parent");
    assert_eq!(app.selection.mark(&app.corpus, middleware), Mark::Full);
    assert_eq!(app.selection.mark(&app.corpus, parent), Mark::Partial);
    let (tokens, complete) = app.tokens.sum_units(&app.selection.units(&app.corpus));
    assert!(complete);
    assert_eq!(tokens, app.tokens.total(middleware).expect("counted"));
    let t = draw(&app);
    let buf = t.backend().buffer();
    let text = screen_text(buf);
    let total = skillnav::util::human::short_count(tokens);
    assert!(
        text.contains(&format!("o200k · sel 1 · {total}/20k tok")),
        "{text}"
    );
    let y = find_row(buf, "middleware.md").expect("row");
    assert_eq!(buf[(0, y)].symbol(), "✓");
    let py = find_row(buf, "◆ hono-mini").expect("root row");
    assert_eq!(buf[(0, py)].symbol(), "◐");
    insta::assert_snapshot!("selected", t.backend());
    // Selecting the root absorbs the file: counted once.
    let root = app.corpus.roots[0];
    app.tree.reveal(&app.corpus.clone(), root);
    act(&mut app, &[Action::ToggleSelect]);
    assert_eq!(app.selection.len(), 1);
    let (all, _) = app.tokens.sum_units(&app.selection.units(&app.corpus));
    assert_eq!(Some(all), app.tokens.total(root));
}

#[test]
fn search_lists_results_and_enter_jumps_to_first_match() {
    let mut app = app_with(hono(), 100, 30, false);
    act(&mut app, &[Action::SearchOpen]);
    typed(&mut app, "cors");
    assert_eq!(app.mode(), Mode::Search);
    assert!(!app.search.view.content.is_empty(), "BM25 hits for cors");
    let t = draw(&app);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("Content (BM25) · "), "{text}");
    assert!(text.contains("Titles (fuzzy) · "), "{text}");
    insta::assert_snapshot!("search_results", t.backend());
    let first = app.search.view.content[0].node;
    act(&mut app, &[Action::SearchAccept]);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(!app.search.showing);
    assert_eq!(app.tree.current(), Some(first));
    let doc = app.preview.doc.clone().expect("preview");
    let first_match = *doc.matches().first().expect("a highlighted match");
    assert!(app.preview.scroll <= first_match);
    let t = draw(&app);
    let buf = t.backend().buffer();
    // The match is on screen and styled as a match (bold on the match background).
    let a = skillnav::tui::view::layout::areas(&app);
    let y = a.preview.y + (first_match - app.preview.scroll) as u16;
    let hit = (a.preview.x..a.preview.x + a.preview.width).find(|x| {
        buf[(*x, y)].modifier.contains(Modifier::BOLD)
            && row_text(buf, y).to_lowercase().contains("cors")
    });
    assert!(
        hit.is_some(),
        "match styled on row {y}: {}",
        row_text(buf, y)
    );
    // n steps to the next match.
    act(&mut app, &[Action::NextMatch]);
    assert!(app.status.starts_with("match "), "{}", app.status);
}

#[test]
fn keys_typed_into_search_never_trigger_commands() {
    let mut app = app_with(hono(), 100, 30, false);
    act(&mut app, &[Action::SearchOpen]);
    for c in ['q', 'y', '?', ' ', 'j'] {
        let key = crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Char(c),
            crossterm::event::KeyModifiers::NONE,
        );
        let a = skillnav::tui::runtime::action_for(&app, &crossterm::event::Event::Key(key))
            .expect("action");
        act(&mut app, &[a]);
    }
    assert!(!app.quit);
    assert_eq!(app.mode(), Mode::Search);
    assert_eq!(app.search.query, "qy? j");
    assert!(app.selection.is_empty());
}

#[test]
fn help_popup_lists_the_keymap() {
    let mut app = app_with(hono(), 100, 30, false);
    act(&mut app, &[Action::Help]);
    let t = draw(&app);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("select / deselect subtree"), "{text}");
    assert!(text.contains("␣"), "{text}");
    insta::assert_snapshot!("help", t.backend());
    act(&mut app, &[Action::Escape]);
    assert_eq!(app.mode(), Mode::Normal);
}

fn hand_corpus(title: &str, body: &str) -> Corpus {
    hand_corpus_with(title, body, None)
}

/// [`hand_corpus`], with a second heading `next` after the first when given (a file with
/// two headings keeps a row per heading; one heading shares the file's row).
fn hand_corpus_with(title: &str, body: &str, next: Option<&str>) -> Corpus {
    let mut c = Corpus::new();
    let first = format!("# {title}\n\n{body}\n");
    let second = next.map(|n| format!("# {n}\n")).unwrap_or_default();
    let text = format!("{first}{second}");
    let len = text.len();
    let src = c.add_source(Source::virtual_text(text));
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "hand", ""));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "doc.md", "doc.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: len,
    });
    let file = c.add_child(root, f);
    let mut s = Node::new(NodeKind::Section, Format::Markdown, title, "doc.md");
    s.seg = Some("s".into());
    s.summary = body.lines().next().unwrap_or("").to_string();
    s.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: first.len(),
        end: first.len(),
    });
    c.add_child(file, s);
    if let Some(n) = next {
        let mut s2 = Node::new(NodeKind::Section, Format::Markdown, n, "doc.md");
        s2.seg = Some("n".into());
        s2.span = Some(TextSpan {
            source: src,
            start: first.len(),
            own_end: len,
            end: len,
        });
        c.add_child(file, s2);
    }
    c.finalize();
    c
}

#[test]
fn cjk_and_emoji_titles_are_cut_with_ellipsis() {
    let title = "技能文档导航器🚀テスト非常に長いタイトルです";
    let mut app = app_with(hand_corpus_with(title, "正文", Some("Next")), 100, 8, false);
    let file = app.corpus.find("hand/doc.md").expect("file");
    app.tree.expanded.insert(file);
    app.tree.rebuild(&app.corpus.clone());
    act(&mut app, &[Action::Bottom, Action::MoveUp]);
    let t = draw(&app);
    insta::assert_snapshot!("cjk_title", t.backend());
    let buf = t.backend().buffer();
    let y = find_row(buf, "技能").expect("title row");
    let row = span_text(buf, y, 0, 42);
    assert_eq!(row, "        # 技能文档导航器🚀…    78B     20 ");
    assert_eq!(unicode_width::UnicodeWidthStr::width(row.as_str()), 42);
}

#[test]
fn escape_sequences_never_reach_the_buffer() {
    let title = "evil\x1b[2J\x1b]0;pwned\x07title";
    let body = "body \x1b[31mred\x1b[0m and \u{9b}31m csi\x08";
    let mut app = app_with(hand_corpus(title, body), 80, 12, false);
    let file = app.corpus.find("hand/doc.md").expect("file");
    app.tree.expanded.insert(file);
    app.tree.rebuild(&app.corpus.clone());
    act(&mut app, &[Action::Bottom]);
    let t = draw(&app);
    let buf = t.backend().buffer();
    for cell in buf.content() {
        assert!(
            !cell.symbol().chars().any(char::is_control),
            "control char in {:?}",
            cell.symbol()
        );
    }
    let text = screen_text(buf);
    assert!(text.contains("evil␛[2J␛]0;pwned␇title"), "{text}");
    assert!(text.contains("␛[31mred"), "{text}");
}

#[test]
fn no_color_draws_attributes_only() {
    let app = app_with(hono(), 100, 30, true);
    let t = draw(&app);
    let buf = t.backend().buffer();
    for cell in buf.content() {
        assert_eq!(
            (cell.fg, cell.bg),
            (Color::Reset, Color::Reset),
            "coloured cell {:?}",
            cell.symbol()
        );
    }
    let y = find_row(buf, "◆ hono-mini").expect("cursor row");
    assert!(buf[(2, y)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn stale_search_results_are_dropped() {
    let mut app = app_with(hono(), 100, 30, false);
    act(&mut app, &[Action::SearchOpen]);
    typed(&mut app, "cors");
    let before = app.search.view.content.len();
    let stale = app.search.generation - 1;
    skillnav::tui::update::apply(
        &mut app,
        WorkerMsg::SearchDone {
            generation: stale,
            content: Default::default(),
            titles: vec![],
        },
    );
    assert_eq!(app.search.view.content.len(), before);
}

#[test]
fn worker_failure_becomes_a_status_message() {
    let mut app = app_with(hono(), 100, 30, false);
    skillnav::tui::update::apply(
        &mut app,
        WorkerMsg::Failed {
            worker: "index",
            message: "boom".into(),
        },
    );
    assert_eq!(app.status, "index worker failed: boom");
    let text = screen(&app);
    assert!(text.contains("index worker failed: boom"), "{text}");
}

/// At 20×5 the panes were drawn cut (a search box, three tree rows, no status line); a
/// screen below 30×6 now says that it is too small and what it needs.
#[test]
fn a_20x5_screen_says_the_terminal_is_too_small() {
    let mut app = app_with(hono(), 100, 30, false);
    act(&mut app, &[Action::Resize(20, 5)]);
    assert_eq!(
        crate::support::tui::screen(&app),
        "Terminal too small  \n20×5, need 30×6     \n                    \n                    \n                    "
    );
    act(&mut app, &[Action::Resize(30, 6)]);
    assert_eq!(
        crate::support::tui::screen(&app),
        " / search                     \n  ▾ ◆ hono-mini          Σ20k \n    ▾ ★ hono             Σ20k \n      ▸ ≡ SKILL.md        656 \n      ▸ ▪ references     Σ19k \n                              "
    );
}

#[test]
fn tiny_sizes_and_resizes_draw() {
    let mut app = app_with(hono(), 100, 30, false);
    for (w, h) in [
        (2, 2),
        (1, 1),
        (20, 5),
        (3, 40),
        (200, 3),
        (39, 10),
        (40, 10),
        (100, 30),
    ] {
        act(
            &mut app,
            &[
                Action::Resize(w, h),
                Action::MoveDown,
                Action::FocusNext,
                Action::PageDown,
            ],
        );
        draw(&app);
        act(&mut app, &[Action::Help]);
        draw(&app);
        act(
            &mut app,
            &[
                Action::Escape,
                Action::SearchOpen,
                Action::SearchInsert('c'),
            ],
        );
        draw(&app);
        act(&mut app, &[Action::Escape]);
    }
    act(&mut app, &[Action::Resize(20, 5)]);
    insta::assert_snapshot!("size_20x5", draw(&app).backend());
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn action() -> impl Strategy<Value = Action> {
        prop_oneof![
            Just(Action::MoveDown),
            Just(Action::MoveUp),
            Just(Action::Top),
            Just(Action::Bottom),
            Just(Action::Expand),
            Just(Action::Collapse),
            Just(Action::FocusNext),
            Just(Action::ToggleSelect),
            Just(Action::SearchOpen),
            Just(Action::Escape),
            Just(Action::NextMatch),
            Just(Action::PrevMatch),
            Just(Action::PageDown),
            Just(Action::PageUp),
            Just(Action::HalfPageDown),
            Just(Action::Help),
            Just(Action::SearchAccept),
            Just(Action::SearchBackspace),
            Just(Action::SearchDeleteWord),
            Just(Action::SearchLeft),
            prop::sample::select(vec!['c', 'o', 'r', 's', ' ', 'é', '中', '🚀'])
                .prop_map(Action::SearchInsert),
            (0u16..130, 0u16..45).prop_map(|(w, h)| Action::Resize(w.max(1), h.max(1))),
            (0u16..130, 0u16..45, any::<bool>()).prop_map(|(col, row, down)| Action::ScrollAt {
                col,
                row,
                down
            }),
            (0u16..130, 0u16..45).prop_map(|(col, row)| Action::ClickAt { col, row }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn random_actions_and_sizes_never_panic(actions in prop::collection::vec(action(), 1..40)) {
            let mut app = app_with(hono(), 80, 24, false);
            for a in actions {
                update(&mut app, a);
                headless::settle(&mut app);
                draw(&app);
            }
        }
    }
}

#[test]
fn warnings_are_counted_in_the_status_line_and_listed_in_the_help() {
    let mut app = app_with(hono(), 100, 30, false);
    app.warnings
        .push("config.toml [brief] format: \"yaml\" is not md, xml or json; using md".into());
    let text = screen(&app);
    assert!(text.contains("! 1 warning (? lists them)"), "{text}");
    act(&mut app, &[Action::Help]);
    let text = screen(&app);
    assert!(text.contains("Warnings (1)"), "{text}");
    assert!(
        text.contains("config.toml [brief] format: \"yaml\" is not md, xml"),
        "{text}"
    );
}

#[test]
fn results_keep_the_selected_hit_when_the_index_completes() {
    let mut app = app_with(hono(), 100, 30, false);
    // The query is typed before the content index is ready: title hits only.
    let index = app.index.take().expect("indexed");
    act(&mut app, &[Action::SearchOpen]);
    typed(&mut app, "middleware");
    assert!(app.search.view.content.is_empty());
    assert!(screen(&app).contains("Content (BM25) · 0 (indexing…)"));
    act(&mut app, &[Action::MoveDown, Action::MoveDown]);
    let chosen = app.search.view.hit(2).expect("a third title hit").node;
    let title = app.corpus.node(chosen).title.clone();
    let generation = app.data_gen;
    skillnav::tui::update::apply(&mut app, WorkerMsg::IndexReady { generation, index });
    headless::settle(&mut app);
    // Content hits arrive above the titles; the hit under the cursor stays under it.
    let v = &app.search.view;
    assert_eq!(v.content.len(), 31);
    // The same node, at its first row: a title holding the query word, listed first.
    assert_eq!(app.search.selected, 2);
    assert_eq!(v.hit(app.search.selected).map(|h| h.node), Some(chosen));
    assert_eq!(
        app.status,
        "Index complete: 31 content hits added; the selected hit stays selected"
    );
    let text = screen(&app);
    assert!(text.contains("Content (BM25) · 31 "), "{text}");
    assert!(!text.contains("indexing…"), "{text}");
    assert!(text.contains(&title), "{text}");
}

/// The tree pane's part of each screen line (left of the first `│`), right-trimmed.
fn tree_rows(app: &App) -> Vec<String> {
    screen(app)
        .lines()
        .map(|l| l.split('│').next().unwrap_or("").trim_end().to_string())
        .collect()
}

/// The first tree row holding `needle` (panics with the screen when none does).
fn tree_row(app: &App, needle: &str) -> String {
    tree_rows(app)
        .into_iter()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no row {needle}:\n{}", screen(app)))
}

#[test]
fn a_collapsed_skill_whose_skill_md_is_not_utf8_shows_the_warning_mark() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("root");
    for (name, desc) in [("good", &b"Fine."[..]), ("latin", &b"caf\xe9 menu"[..])] {
        let mut text = format!("---\nname: {name}\ndescription: ").into_bytes();
        text.extend_from_slice(desc);
        text.extend_from_slice(b"\n---\nBody\n");
        write(&root, &format!("{name}/SKILL.md"), &text);
    }
    write(&root, "good/logo.bin", b"\x89PNG\0\0\0");
    let mut app = crate::support::tui::tui_over(&root, "root", 80, 12);
    let row = |app: &App, title: &str| tree_row(app, &format!("★ {title} "));
    assert!(row(&app, "latin").ends_with("!    Σ14"), "{}", screen(&app));
    assert!(!row(&app, "good").contains('!'), "{}", screen(&app));
    // A childless binary sums nothing: no Σ on its row.
    let logo = id(&app, "root/good/logo.bin");
    goto(&mut app, logo);
    let logo_row = tree_row(&app, "logo.bin");
    assert!(logo_row.ends_with(" 0"), "{logo_row}");
    assert!(!logo_row.contains('Σ'), "{logo_row}");
    // Opened, the mark is on the file's row, not on the skill's twice.
    let file = id(&app, "root/latin/SKILL.md");
    goto(&mut app, file);
    assert!(!row(&app, "latin").contains('!'), "{}", screen(&app));
    // The last SKILL.md row is latin's (good's comes first).
    let latin_md = tree_rows(&app)
        .into_iter()
        .rfind(|l| l.contains("≡ SKILL.md"))
        .unwrap_or_default();
    assert!(latin_md.contains('!'), "{}", screen(&app));
}

#[test]
fn a_lone_h2_under_a_lone_h1_keeps_its_row_and_a_search_hit_in_it_lands_on_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("rl2");
    write(
        &root,
        "b.md",
        b"# Alpha\n\none\n\n## Beta\n\ntwo\n\n### C1\n\nc1\n\n### C2\n\nc2\n",
    );
    let mut app = crate::support::tui::tui_over(&root, "rl2", 80, 12);
    // The file and its one H1 are one row; Beta is its child, C1 and C2 Beta's.
    let c1 = id(&app, "rl2/b.md#alpha/beta/c1");
    goto(&mut app, c1);
    let rows = tree_rows(&app);
    let titles: Vec<&str> = rows
        .iter()
        .filter_map(|r| {
            r.split_once(['≡', '#'])
                .map(|(_, t)| t.split("  ").next().unwrap_or("").trim())
        })
        .collect();
    assert_eq!(titles, ["b.md", "Beta", "C1", "C2"], "{}", screen(&app));
    let beta = id(&app, "rl2/b.md#alpha/beta");
    goto(&mut app, beta);
}

#[test]
fn a_licence_file_shows_its_default_explicit_level_in_the_exposure_column() {
    use skillnav::curate::exposure::Exposure;
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("root");
    write(
        &root,
        "kit/SKILL.md",
        b"---\nname: kit\ndescription: A kit.\n---\n# Kit\n\nBody.\n",
    );
    write(&root, "kit/LICENSE.txt", b"MIT License\n");
    let mut app = crate::support::tui::tui_over(&root, "root", 100, 12);
    let skill_md = id(&app, "root/kit/SKILL.md");
    app.curate.exposure.set(skill_md, Some(Exposure::Always));
    let licence = id(&app, "root/kit/LICENSE.txt");
    goto(&mut app, licence);
    let shown = screen(&app);
    assert!(tree_row(&app, "≡ LICENSE.txt").contains(" exp "), "{shown}");
    assert!(tree_row(&app, "≡ SKILL.md").contains(" alw "), "{shown}");
}
