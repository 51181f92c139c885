//! Behaviour of the TUI state machine without snapshots: code highlighting off the UI
//! thread, copy jobs and their status, match stepping, mouse, loading progress.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use skillnav::model::{Corpus, Format, Node, NodeKind, Source, TextSpan};
use skillnav::render::{Role, Theme};
use skillnav::tokens::Encoding;
use skillnav::tui::config::Settings;
use skillnav::tui::effect::Effect;
use skillnav::tui::effects::headless;
use skillnav::tui::effects::worker_msg::WorkerMsg;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Keymap;
use skillnav::tui::state::app::{App, Focus};
use skillnav::tui::theme::UiTheme;
use skillnav::tui::{update, view};

use crate::support::tui::{act, app_on_corpus};

const DOC: &str = "# Guide\n\nIntro about cors.\n\n## Setup\n\nRun this:\n\n```rust\nfn main() {\n    let cors = 1;\n}\n```\n\nMore cors text.\n\n## Other\n\nNothing here.\n";

/// A root with one file `guide.md` and its sections (hand-made).
fn corpus() -> Corpus {
    let mut c = Corpus::new();
    let src = c.add_source(Source::virtual_text(DOC.to_string()));
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "guide.md", "guide.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: DOC.len(),
    });
    let file = c.add_child(root, f);
    let setup = DOC.find("## Setup").unwrap_or(0);
    let other = DOC.find("## Other").unwrap_or(0);
    for (title, seg, start, end) in [
        ("Guide", "guide", 0, setup),
        ("Setup", "setup", setup, other),
        ("Other", "other", other, DOC.len()),
    ] {
        let mut s = Node::new(NodeKind::Section, Format::Markdown, title, "guide.md");
        s.seg = Some(seg.into());
        s.span = Some(TextSpan {
            source: src,
            start,
            own_end: end,
            end,
        });
        c.add_child(file, s);
    }
    c.finalize();
    c
}

fn app(w: u16, h: u16) -> App {
    app_on_corpus(corpus(), Encoding::Bytes4, false, w, h)
}

/// An empty app of `w`×`h` waiting for `roots` roots to load.
fn loading(roots: usize, w: u16, h: u16) -> App {
    let theme = UiTheme::new(Theme::dark(), false);
    let mut app = App::new(
        Corpus::new(),
        Encoding::Bytes4,
        Keymap::defaults(),
        Settings::default(),
        theme,
    );
    app.progress.loading = Some((0, 0, roots));
    update::update(&mut app, Action::Resize(w, h));
    app
}

/// `corpus` arrives as root `done` of `total`.
fn root_loaded(app: &mut App, corpus: Corpus, done: usize, total: usize) {
    let corpus = Box::new(corpus);
    update::apply(
        app,
        WorkerMsg::RootLoaded {
            corpus,
            done,
            total,
        },
    );
}

#[test]
fn loading_progress_then_counting_then_done() {
    let mut app = loading(1, 80, 6);
    update::apply(&mut app, WorkerMsg::LoadProgress { files: 7 });
    assert_eq!(app.progress.loading, Some((7, 0, 1)));
    let mut t = Terminal::new(TestBackend::new(80, 6)).expect("terminal");
    t.draw(|f| view::draw(f, &app)).expect("draw");
    let bottom: String = (0..80)
        .map(|x| t.backend().buffer()[(x, 5)].symbol().to_string())
        .collect();
    assert!(bottom.contains("Loading… 7 files (0/1 roots)"), "{bottom}");
    root_loaded(&mut app, corpus(), 1, 1);
    assert_eq!(
        app.tree.rows.len(),
        5,
        "a lone root opens its only child: root, file, 3 sections"
    );
    update::apply(&mut app, WorkerMsg::load_done());
    assert_eq!(app.progress.loading, None);
    assert_eq!(app.progress.counting, Some((0, 4)));
    assert!(matches!(
        app.effects.as_slice(),
        [Effect::StartBackground { .. }]
    ));
    headless::settle(&mut app);
    assert_eq!(app.progress.counting, None);
    assert!(app.index.is_some() && app.fuzzy.is_some());
    // Σ of the root = bytes/4 of each section's own text (the file has no own text).
    let root = app.corpus.roots[0];
    let expect: u64 = app
        .corpus
        .node(app.corpus.roots[0])
        .children
        .iter()
        .flat_map(|f| app.corpus.node(*f).children.clone())
        .map(|s| (app.corpus.own_text(s).len() as u64).div_ceil(4))
        .sum();
    assert_eq!(app.tokens.total(root), Some(expect));
}

#[test]
fn the_first_of_two_roots_keeps_its_only_child_closed_as_when_both_arrive_at_once() {
    let mut app = loading(2, 80, 20);
    root_loaded(&mut app, corpus(), 1, 2);
    assert_eq!(app.tree.rows.len(), 2, "root and its file, the file closed");
    let mut both = corpus();
    both.append(corpus());
    let mut whole = loading(2, 80, 20);
    root_loaded(&mut whole, both, 2, 2);
    assert_eq!(
        whole.tree.rows.len(),
        4,
        "two roots, each with its file closed"
    );
}

#[test]
fn code_blocks_are_highlighted_by_the_worker_path() {
    let mut app = app(100, 30);
    let setup = app.corpus.find("docs/guide.md#setup").expect("setup");
    app.tree.reveal(&app.corpus.clone(), setup);
    // Moving the cursor queues a highlight job for the visible block; settle runs it.
    update::update(&mut app, Action::MoveUp);
    update::update(&mut app, Action::MoveDown);
    assert!(
        app.effects
            .iter()
            .any(|e| matches!(e, Effect::Highlight { .. })),
        "{:?}",
        app.effects
    );
    headless::settle(&mut app);
    let doc = app.preview.doc.clone().expect("doc");
    let block = &doc.rendered.code_blocks[0];
    let line = &doc.rendered.lines[block.first_line];
    assert_eq!(line.plain(), "fn main() {");
    let colours: std::collections::HashSet<_> =
        line.spans.iter().filter_map(|s| s.style.fg).collect();
    assert!(colours.len() >= 2, "syntax colours on {line:?}");
}

#[test]
fn copy_with_nothing_selected_copies_the_current_node() {
    let mut app = app(100, 30);
    let file = app.corpus.find("docs/guide.md").expect("file");
    app.tree.reveal(&app.corpus.clone(), file);
    let copies = act(&mut app, &[Action::CopyBrief]);
    let sections: Vec<_> = app.corpus.node(file).children.to_vec();
    assert_eq!(copies, vec![vec![file]], "the file is one text unit");
    assert!(app.copying);
    assert_eq!(app.status, "Copying a brief of 1 section…");
    // A second `y` while copying does not queue another job.
    assert!(act(&mut app, &[Action::CopyBrief]).is_empty());
    update::apply(
        &mut app,
        WorkerMsg::Copied(Ok("Copied 1.2 kB · 300 tokens (bytes4)".into())),
    );
    assert!(!app.copying);
    assert_eq!(app.status, "Copied 1.2 kB · 300 tokens (bytes4)");
    // With a selection, the selection's units are copied, in document order.
    app.tree.reveal(&app.corpus.clone(), sections[2]);
    act(
        &mut app,
        &[Action::ToggleSelect, Action::MoveUp, Action::ToggleSelect],
    );
    let copies = act(&mut app, &[Action::CopyBrief]);
    assert_eq!(copies, vec![vec![sections[1], sections[2]]]);
}

#[test]
fn n_and_shift_n_step_through_matches() {
    let mut app = app(100, 30);
    act(&mut app, &[Action::SearchOpen]);
    for c in "cors".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    act(&mut app, &[Action::Escape]);
    assert!(
        app.search.query.is_empty(),
        "Esc in the search box clears it"
    );
    act(&mut app, &[Action::SearchOpen]);
    for c in "cors".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    // Show the whole file: its preview has every match.
    let file = app.corpus.find("docs/guide.md").expect("file");
    act(&mut app, &[Action::FocusNext]);
    assert_eq!(app.focus, Focus::Left);
    act(&mut app, &[Action::Collapse]);
    app.tree.reveal(&app.corpus.clone(), file);
    act(&mut app, &[Action::Top, Action::MoveDown]);
    assert_eq!(app.tree.current(), Some(file));
    let doc = app.preview.doc.clone().expect("doc");
    let matches = doc.matches().to_vec();
    assert_eq!(matches.len(), 3, "intro, code and 'More cors text'");
    act(&mut app, &[Action::NextMatch]);
    assert_eq!(app.status, "match 1/3");
    act(
        &mut app,
        &[Action::NextMatch, Action::NextMatch, Action::NextMatch],
    );
    assert_eq!(app.status, "match 1/3", "wraps around");
    act(&mut app, &[Action::PrevMatch]);
    assert_eq!(app.status, "match 3/3");
    let line = &doc.rendered.lines[matches[0]];
    assert!(
        line.spans
            .iter()
            .any(|s| s.style.role == Role::Match && s.text == "cors"),
        "{line:?}"
    );
}

#[test]
fn mouse_click_selects_a_row_and_wheel_scrolls() {
    let mut app = app(100, 30);
    let file = app.corpus.find("docs/guide.md").expect("file");
    app.tree.expanded.insert(file);
    app.tree.rebuild(&app.corpus.clone());
    // Row 3 of the tree pane (screen row 1 + 2) is the first section.
    act(&mut app, &[Action::ClickAt { col: 5, row: 3 }]);
    assert_eq!(app.tree.cursor, 2);
    act(
        &mut app,
        &[Action::ScrollAt {
            col: 5,
            row: 3,
            down: true,
        }],
    );
    assert_eq!(app.tree.cursor, 4);
    act(&mut app, &[Action::ClickAt { col: 60, row: 5 }]);
    assert_eq!(app.focus, Focus::Preview);
    act(&mut app, &[Action::ClickAt { col: 60, row: 0 }]);
    assert_eq!(app.mode(), skillnav::tui::input::keymap::Mode::Search);
}

#[test]
fn did_you_mean_shows_in_the_search_box() {
    let mut app = app(100, 12);
    act(&mut app, &[Action::SearchOpen]);
    for c in "corz".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    assert_eq!(
        app.search.view.did_you_mean,
        vec![("corz".to_string(), "cors".to_string())]
    );
    let mut t = Terminal::new(TestBackend::new(100, 12)).expect("terminal");
    t.draw(|f| view::draw(f, &app)).expect("draw");
    let top: String = (0..100)
        .map(|x| t.backend().buffer()[(x, 0)].symbol().to_string())
        .collect();
    assert!(top.starts_with(" / corz  "), "{top}");
    assert!(top.contains("· did you mean cors"), "{top}");
}

#[test]
fn large_texts_render_on_a_worker_with_a_placeholder() {
    // A 77 KB file: above the synchronous render limit.
    let body: String = (0..2000)
        .map(|i| format!("Line {i} of the long file with cors.\n\n"))
        .collect();
    let text = format!("# Big\n\n{body}");
    assert!(text.len() > skillnav::tui::effects::preview_doc::SYNC_RENDER_MAX_BYTES);
    let mut c = Corpus::new();
    let src = c.add_source(Source::virtual_text(text.clone()));
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "big", ""));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "big.md", "big.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: text.len(),
        end: text.len(),
    });
    let file = c.add_child(root, f);
    c.finalize();
    let theme = UiTheme::new(Theme::dark(), false);
    let mut app = App::new(
        Corpus::new(),
        Encoding::Bytes4,
        Keymap::defaults(),
        Settings::default(),
        theme,
    );
    update::update(&mut app, Action::Resize(100, 30));
    update::apply(
        &mut app,
        WorkerMsg::RootLoaded {
            corpus: Box::new(c),
            done: 1,
            total: 1,
        },
    );
    update::update(&mut app, Action::MoveDown);
    assert_eq!(app.tree.current(), Some(file));
    let doc = app.preview.doc.clone().expect("placeholder");
    assert!(doc.pending);
    assert_eq!(text.len(), 76_897);
    assert_eq!(doc.rendered.lines[0].plain(), "Rendering 77kB…");
    assert!(
        app.effects
            .iter()
            .any(|e| matches!(e, Effect::Render { node, .. } if *node == file))
    );
    headless::settle(&mut app);
    let doc = app.preview.doc.clone().expect("rendered");
    assert!(!doc.pending);
    assert_eq!(doc.rendered.lines[0].plain(), "# Big");
    assert!(doc.len() > 2000);
}

#[test]
fn outline_lists_the_file_headings_and_jumps_to_one() {
    let mut app = app(100, 30);
    let file = app.corpus.find("docs/guide.md").expect("file");
    let setup = app.corpus.find("docs/guide.md#setup").expect("setup");
    app.tree.reveal(&app.corpus.clone(), file);
    act(&mut app, &[Action::Outline]);
    assert_eq!(app.mode(), skillnav::tui::input::keymap::Mode::Outline);
    let o = app.outline().cloned().expect("outline");
    let titles: Vec<&str> = o
        .items
        .iter()
        .map(|(n, _)| app.corpus.node(*n).title.as_str())
        .collect();
    assert_eq!(titles, ["Guide", "Setup", "Other"]);
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    t.draw(|f| view::draw(f, &app)).expect("draw");
    let top: String = (0..100)
        .map(|x| t.backend().buffer()[(x, 1)].symbol().to_string())
        .collect();
    assert!(top.contains("Outline · guide.md (3 headings)"), "{top}");
    act(&mut app, &[Action::MoveDown, Action::Confirm]);
    assert_eq!(app.mode(), skillnav::tui::input::keymap::Mode::Normal);
    assert_eq!(app.tree.current(), Some(setup));
    assert_eq!(app.preview.node, Some(setup));
    assert_eq!(app.status, "Jumped to Setup");
    // A node outside any file has no outline.
    app.tree.cursor = 0;
    act(&mut app, &[Action::Outline]);
    assert_eq!(app.mode(), skillnav::tui::input::keymap::Mode::Normal);
}

/// A stand-in re-ranker for the typing-pause test: it reverses the hits it is given.
#[derive(Debug)]
struct Reverse;

impl skillnav::index::Rerank for Reverse {
    fn depth(&self) -> usize {
        50
    }

    fn rerank(
        &self,
        _: &Corpus,
        _: &str,
        hits: &mut [skillnav::index::Hit],
    ) -> skillnav::index::RerankRun {
        hits.reverse();
        skillnav::index::RerankRun {
            candidates: hits.len(),
            embedded: 0,
            micros: 0,
        }
    }
}

#[test]
fn a_typing_pause_re_ranks_the_list_and_keeps_the_highlighted_hit() {
    use std::time::Instant;
    let mut app = app(100, 30);
    let index = app.index.clone().expect("index");
    assert!(index.attach_reranker(std::sync::Arc::new(Reverse)));
    act(&mut app, &[Action::SearchOpen]);
    for c in "cors".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    assert!(app.search.refine_at.is_some(), "typing arms the deadline");
    let nodes = |app: &App| -> Vec<_> { app.search.view.content.iter().map(|h| h.node).collect() };
    let typed = nodes(&app);
    assert!(typed.len() >= 2, "{typed:?}");
    act(&mut app, &[Action::MoveDown]);
    let kept = app.search.view.hit(app.search.selected).map(|h| h.node);
    // Before the deadline nothing is ranked again.
    act(&mut app, &[Action::TypingPaused]);
    assert!(!app.search.finished);
    app.search.refine_at = Some(Instant::now());
    act(&mut app, &[Action::TypingPaused]);
    assert!(app.search.finished && app.search.refine_at.is_none());
    let refined = nodes(&app);
    let mut reversed = typed.clone();
    reversed.reverse();
    assert_eq!(refined, reversed, "the list re-sorts visibly");
    assert_eq!(
        app.search.view.hit(app.search.selected).map(|h| h.node),
        kept,
        "the highlighted hit stays highlighted"
    );
    // Enter opens exactly that hit: no third ranking.
    let generation = app.search.generation;
    act(&mut app, &[Action::SearchAccept]);
    assert_eq!(app.search.generation, generation);
    assert_eq!(app.tree.current(), kept);
}
