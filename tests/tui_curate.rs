//! Headless screen and flow tests of curation in the TUI (issue 5): exposure levels in the
//! tree, the budget bar, the brief / rendered-skill preview, recipes, export, disclosure
//! layers and the oversize-copy question. Driven through the real `update` / worker-result
//! paths (`tui::headless`), drawn on `TestBackend`; expected texts are computed with the core
//! APIs (`brief`, `render_skill`, `layers`, `listing`, `recipe`) independently of the TUI.
//!
//! Fixtures: `tests/fixtures/tui_curate/` (hand-made skills, see its SOURCE.md), and read-only
//! `tests/fixtures/tui/hono-mini` and `tests/fixtures/formats/skills`; tests that write work
//! on temporary copies.

mod tui_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use tui_support::{draw, row_text, screen_text, span_text};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use skillnav::brief::curated::{BriefFormat, CuratedRequest, curated_brief};
use skillnav::brief::lazytools::Mode as BriefMode;
use skillnav::curate::exposure::Exposure;
use skillnav::curate::recipe::{Recipe, Store};
use skillnav::formats::{LoadOptions, RootSpec, load_root};
use skillnav::model::{Corpus, NodeId, NodeKind};
use skillnav::render::Theme;
use skillnav::skill::listing::{ListingEntry, ListingFormat, ListingOptions, format_listing};
use skillnav::skill::render::{RenderOptions, render_body, render_many, skill_from_text};
use skillnav::tokens::{Encoding, TokenCounter};
use skillnav::tui::config::Settings;
use skillnav::tui::effects::effect::{CopyRoute, Effect};
use skillnav::tui::effects::headless;
use skillnav::tui::effects::msg::WorkerMsg;
use skillnav::tui::effects::text::BuiltText;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::{Keymap, Mode};
use skillnav::tui::state::app::App;
use skillnav::tui::state::curate::{InputPurpose, PreviewKind, Question};
use skillnav::tui::theme::UiTheme;
use skillnav::tui::update::{apply, update};
use skillnav::util::human;

// ---------------------------------------------------------------- helpers

fn manifest(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn hono_dir() -> PathBuf {
    manifest("tests/fixtures/tui/hono-mini")
}

fn spec(path: &Path, label: &str) -> RootSpec {
    RootSpec { path: path.to_path_buf(), label: label.into() }
}

fn counter() -> TokenCounter {
    TokenCounter::new(Encoding::O200kBase)
}

/// An app of `w`×`h` cells over `specs`, loaded, counted and indexed; `store` replaces the
/// user's recipe folder (never the real one); `before_load` runs before loading.
fn app_with(specs: Vec<RootSpec>, w: u16, h: u16, store: &Path, before_load: impl FnOnce(&mut App)) -> App {
    let theme = UiTheme::new(Theme::dark(), false);
    let mut app =
        App::new(Corpus::new(), Encoding::O200kBase, Keymap::defaults(), Settings::default(), theme);
    app.curate.store = Some(Store::new(store));
    update(&mut app, Action::Resize(w, h));
    before_load(&mut app);
    headless::load_specs(&mut app, specs, LoadOptions::default());
    headless::settle(&mut app);
    app
}

fn app_over(path: &Path, label: &str, w: u16, h: u16, store: &Path) -> App {
    let mut app = app_with(vec![spec(path, label)], w, h, store, |_| {});
    app.status.clear();
    app
}

/// Apply `actions` one by one, running the queued jobs after each; the copy jobs' nodes.
fn act(app: &mut App, actions: &[Action]) -> Vec<Vec<NodeId>> {
    let mut copies = Vec::new();
    for a in actions {
        update(app, a.clone());
        copies.extend(headless::settle(app));
    }
    copies
}

/// The action a real key press gives in the current mode (through the keymap).
fn key_action(app: &App, code: KeyCode, mods: KeyModifiers) -> Action {
    let ev = Event::Key(KeyEvent::new(code, mods));
    skillnav::tui::runtime::action_for(app, &ev).expect("the key maps to an action")
}

/// Press one key (through the keymap) and run the queued jobs.
fn press(app: &mut App, code: KeyCode) -> Vec<Vec<NodeId>> {
    let a = key_action(app, code, KeyModifiers::NONE);
    act(app, &[a])
}

/// Type `text` into the open prompt, key by key.
fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        let a = key_action(app, KeyCode::Char(c), KeyModifiers::NONE);
        assert!(matches!(a, Action::TextKey(_)), "{c:?} types in the prompt, got {a:?}");
        act(app, &[a]);
    }
}

/// The prompt's text.
fn input_text(app: &App) -> String {
    app.input_box().as_ref().expect("a prompt is open").area.lines().join("")
}

/// Empty the open prompt with Backspace (the cursor starts at its end).
fn clear_input(app: &mut App) {
    let n = input_text(app).chars().count();
    for _ in 0..n {
        let a = key_action(app, KeyCode::Backspace, KeyModifiers::NONE);
        act(app, &[a]);
    }
    assert_eq!(input_text(app), "");
}

fn id(app: &App, node_id: &str) -> NodeId {
    app.corpus.find(node_id).unwrap_or_else(|| panic!("no node {node_id}"))
}

/// Put the tree cursor on `node` (its ancestors opened) and let the preview follow.
fn goto(app: &mut App, node: NodeId) {
    let corpus = Arc::clone(&app.corpus);
    app.tree.reveal(&corpus, node);
    act(app, &[Action::Redraw]);
    assert_eq!(app.current_node(), Some(node));
}

fn select(app: &mut App, nodes: &[NodeId]) {
    for n in nodes {
        goto(app, *n);
        act(app, &[Action::ToggleSelect]);
    }
}

/// The tree pane's text of the row showing `title` (the tree is the left pane).
fn tree_row(app: &App, buf: &Buffer, title: &str) -> Option<String> {
    let a = skillnav::tui::view::layout::areas(app);
    (a.left.y..a.left.y + a.left.height)
        .map(|y| span_text(buf, y, a.left.x, a.left.x + a.left.width))
        .find(|row| row.contains(title))
}

fn built(app: &App) -> Arc<BuiltText> {
    match app.brief_preview().as_ref().and_then(|p| p.built.clone()) {
        Some(Ok(b)) => b,
        other => panic!("no built preview text: {other:?}"),
    }
}

/// A copy of `src` (recursively) at `dst`.
fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).expect("mkdir");
    for e in std::fs::read_dir(src).expect("read_dir") {
        let e = e.expect("entry");
        let to = dst.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).expect("copy");
        }
    }
}

const LOGGER: &str = "hono-mini/references/middleware.md#hono_docs---middleware/logger-middleware";
const CORS: &str = "hono-mini/references/middleware.md#hono_docs---middleware/cors-middleware";
const MIDDLEWARE: &str = "hono-mini/references/middleware.md#hono_docs---middleware/middleware";
const OTHER_MD: &str = "hono-mini/references/other.md";
const REFERENCES: &str = "hono-mini/references";

// ---------------------------------------------------------------- 1. exposure levels

#[test]
fn exposure_cycles_inherits_to_children_and_shows_a_column() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 120, 30, store.path());
    let refs = id(&app, REFERENCES);
    let other = id(&app, OTHER_MD);
    let skill_md = id(&app, "hono-mini/SKILL.md");
    goto(&mut app, refs);
    // Open the folder so its files are rows too.
    act(&mut app, &[Action::Expand]);
    goto(&mut app, refs);

    let t = draw(&app);
    let before = tree_row(&app, t.backend().buffer(), "references").expect("references row");
    let other_before = tree_row(&app, t.backend().buffer(), "other.md").expect("other.md row");
    for tag in [" alw ", " dem ", " exp ", " hid ", "   · "] {
        assert!(!before.contains(tag) && !other_before.contains(tag), "no column yet: {before:?}");
    }

    let below = app.corpus.preorder(refs).len() - 1;
    let steps = [
        (Some(Exposure::Always), Exposure::Always, "alw", "always"),
        (Some(Exposure::OnDemand), Exposure::OnDemand, "dem", "on-demand"),
        (Some(Exposure::Explicit), Exposure::Explicit, "exp", "explicit"),
        (Some(Exposure::Hidden), Exposure::Hidden, "hid", "hidden"),
    ];
    for (own, level, tag, name) in steps {
        // `x` through the keymap.
        press(&mut app, KeyCode::Char('x'));
        assert_eq!(app.curate.exposure.own(refs), own);
        assert_eq!(app.curate.exposure.level(&app.corpus, refs), level);
        // The children inherit it without a level of their own.
        assert_eq!(app.curate.exposure.own(other), None);
        assert_eq!(app.curate.exposure.level(&app.corpus, other), level);
        assert_eq!(app.curate.exposure.level(&app.corpus, skill_md), Exposure::OnDemand);
        assert_eq!(
            app.status,
            format!("references: {name} (and its {below} descendants that set no level of their own)")
        );
        let t = draw(&app);
        let buf = t.backend().buffer();
        let row = tree_row(&app, buf, "references").expect("references row");
        assert!(row.contains(&format!(" {tag} ")), "own level {tag} in {row:?}");
        let child = tree_row(&app, buf, "other.md").expect("other.md row");
        assert!(child.contains(&format!(" {tag} ")), "inherited level {tag} in {child:?}");
        // A node outside the subtree shows the default `·`.
        let md = tree_row(&app, buf, "SKILL.md").expect("SKILL.md row");
        assert!(md.contains("   · "), "default level in {md:?}");
    }
    // Own level bold (header style), inherited dim; hidden titles dim.
    let t = draw(&app);
    let buf = t.backend().buffer();
    let a = skillnav::tui::view::layout::areas(&app);
    let find = |needle: &str| {
        (a.left.y..a.left.y + a.left.height)
            .find(|y| span_text(buf, *y, a.left.x, a.left.x + a.left.width).contains(needle))
            .expect("row")
    };
    let col_of = |y: u16, needle: &str| {
        let row = span_text(buf, y, 0, a.left.width);
        let byte = row.find(needle).expect("tag");
        unicode_width::UnicodeWidthStr::width(&row[..byte]) as u16
    };
    let y_child = find("other.md");
    let x = col_of(y_child, " hid ") + 1;
    assert_eq!(buf[(x, y_child)].fg, app.theme.dim.fg.expect("dim colour"), "inherited tag is dim");
    let x = col_of(y_child, "other.md");
    assert_eq!(buf[(x, y_child)].fg, app.theme.dim.fg.expect("dim colour"), "hidden title is dim");
    let y_md = find("SKILL.md");
    let x = col_of(y_md, "SKILL.md");
    assert_eq!(buf[(x, y_md)].fg, app.theme.title.fg.expect("title colour"));

    // Hidden → inherit: the map is empty again and the column goes away.
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.curate.exposure.own(refs), None);
    assert!(app.curate.exposure.is_empty());
    assert_eq!(app.status, "references: inherits on-demand");
    let t = draw(&app);
    assert_eq!(tree_row(&app, t.backend().buffer(), "references").as_deref(), Some(before.as_str()));
}

#[test]
fn a_childs_own_level_overrides_the_parent_and_hidden_leaves_the_budget() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 120, 30, store.path());
    let refs = id(&app, REFERENCES);
    let other = id(&app, OTHER_MD);
    let middleware = id(&app, "hono-mini/references/middleware.md");
    select(&mut app, &[other]);
    let other_tokens = app.tokens.total(other).expect("counted");
    assert_eq!(app.selection_tokens, (other_tokens, true));
    // references → hidden (4 presses), other.md → explicit (3 presses).
    goto(&mut app, refs);
    for _ in 0..4 {
        act(&mut app, &[Action::CycleExposure]);
    }
    assert_eq!(app.curate.exposure.level(&app.corpus, other), Exposure::Hidden);
    // A hidden selection adds nothing to the brief: 0 tokens beside the budget.
    assert_eq!(app.selection_tokens, (0, true));
    let t = draw(&app);
    assert!(screen_text(t.backend().buffer()).contains("o200k · sel 1 · 0/20k tok ▱▱▱▱▱▱▱▱"));
    goto(&mut app, other);
    for _ in 0..3 {
        act(&mut app, &[Action::CycleExposure]);
    }
    assert_eq!(app.curate.exposure.own(other), Some(Exposure::Explicit));
    assert_eq!(
        app.status,
        format!(
            "other.md: explicit (and its {} descendants that set no level of their own)",
            app.corpus.preorder(other).len() - 1
        )
    );
    let section = app.corpus.node(other).children[0];
    assert_eq!(app.curate.exposure.level(&app.corpus, section), Exposure::Explicit);
    assert_eq!(app.curate.exposure.level(&app.corpus, middleware), Exposure::Hidden);
    // Explicit admits a selected node: the tokens are back.
    assert_eq!(app.selection_tokens, (other_tokens, true));
    let t = draw(&app);
    let buf = t.backend().buffer();
    let row = tree_row(&app, buf, "other.md").expect("row");
    assert!(row.contains(" exp "), "{row:?}");
    let row = tree_row(&app, buf, "middleware.md").expect("row");
    assert!(row.contains(" hid "), "{row:?}");
    let total = human::short_count(other_tokens);
    assert!(screen_text(buf).contains(&format!("o200k · sel 1 · {total}/20k tok")), "{}", screen_text(buf));
}

// ---------------------------------------------------------------- 2. budget bar

/// The top line's text.
fn top_line(app: &App) -> String {
    row_text(draw(app).backend().buffer(), 0)
}

#[test]
fn budget_bar_cycles_presets_then_none() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    assert_eq!(app.curate.budget, Some(20_000));
    assert!(top_line(&app).ends_with(" o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ "), "{}", top_line(&app));
    let steps: [(Option<u64>, &str, &str); 5] = [
        (Some(100_000), "Budget 100k tokens", " o200k · sel 0 · 0/100k tok ▱▱▱▱▱▱▱▱ "),
        (None, "No token budget", " o200k · sel 0 · 0 tok "),
        (Some(8_000), "Budget 8.0k tokens", " o200k · sel 0 · 0/8.0k tok ▱▱▱▱▱▱▱▱ "),
        (Some(20_000), "Budget 20k tokens", " o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ "),
        (Some(100_000), "Budget 100k tokens", " o200k · sel 0 · 0/100k tok ▱▱▱▱▱▱▱▱ "),
    ];
    for (budget, status, top) in steps {
        press(&mut app, KeyCode::Char('b'));
        assert_eq!(app.curate.budget, budget);
        assert_eq!(app.status, status);
        let line = top_line(&app);
        assert!(line.ends_with(top), "{line:?} ends with {top:?}");
    }
    // With a selection under budget the bar fills in the theme's success colour.
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    press(&mut app, KeyCode::Char('b')); // none
    press(&mut app, KeyCode::Char('b')); // 8k
    let tokens = app.tokens.total(other).expect("counted");
    let filled = (tokens * 8).div_ceil(8_000) as usize;
    let bar = format!("{}{}", "▰".repeat(filled), "▱".repeat(8 - filled));
    let line = top_line(&app);
    assert!(
        line.ends_with(&format!(" o200k · sel 1 · {}/8.0k tok {bar} ", human::short_count(tokens))),
        "{line:?}"
    );
}

#[test]
fn custom_budget_below_the_selection_shows_the_exact_overage() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let small = id(&app, MIDDLEWARE);
    select(&mut app, &[small]);
    let tokens = app.tokens.total(small).expect("counted");
    assert_eq!(app.selection_tokens, (tokens, true));
    assert!((101..1000).contains(&tokens), "a short section: {tokens}");
    // `B` opens the prompt with the current budget.
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(app.input_box().as_ref().map(|i| i.purpose.clone()), Some(InputPurpose::Budget));
    assert_eq!(input_text(&app), "20000");
    let text = screen_text(draw(&app).backend().buffer());
    assert!(text.contains("Token budget") && text.contains("Tokens (12000, 12k; 0 = no budget):"), "{text}");
    // Invalid input keeps the prompt open with an error.
    clear_input(&mut app);
    type_text(&mut app, "abc");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(input_text(&app), "abc");
    assert_eq!(app.status, "not a token budget: \"abc\" (e.g. 12000, 12k, 0 for none)");
    assert_eq!(app.curate.budget, Some(20_000));
    // 100 tokens.
    clear_input(&mut app);
    type_text(&mut app, "100");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.input_box().is_none());
    assert_eq!(app.curate.budget, Some(100));
    assert_eq!(app.status, "Budget 100 tokens");
    let over = tokens - 100;
    let t = draw(&app);
    let buf = t.backend().buffer();
    let line = row_text(buf, 0);
    assert!(line.ends_with(&format!(" o200k · sel 1 · {tokens}/100 tok ▰▰▰▰▰▰▰▰ +{over} over ")), "{line:?}");
    // The bar keeps the top line's background (its colours: see the test below).
    let status_bg = app.theme.top.bg.expect("top background");
    let bar: Vec<u16> = (0..buf.area.width).filter(|x| buf[(*x, 0)].symbol() == "▰").collect();
    assert_eq!(bar.len(), 8);
    for x in bar {
        assert_eq!(buf[(x, 0)].bg, status_bg, "bar cell {x}");
    }
    // `0` means no budget.
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(input_text(&app), "100");
    clear_input(&mut app);
    type_text(&mut app, "0");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.curate.budget, None);
    assert_eq!(app.status, "No token budget");
    assert!(top_line(&app).ends_with(&format!(" o200k · sel 1 · {tokens} tok ")));
    // Esc leaves the budget as it was.
    press(&mut app, KeyCode::Char('B'));
    type_text(&mut app, "5k");
    press(&mut app, KeyCode::Esc);
    assert_eq!((app.mode(), app.curate.budget), (Mode::Normal, None));
}

/// BUG (src/tui/view/top.rs `budget_pieces`): the bar and overage styles are built as
/// `t.error.patch(t.top)` / `t.mark.patch(t.top)`; `patch` lets the *second* style win, so
/// the top line's foreground (status_fg) replaces the error / success colour and the bar is
/// never red (nor green). `t.top.patch(t.error)` (and the same for `mark`, `dim`, `key`,
/// `query`: the `/` key hint, the dim `search` placeholder and the query colour are lost the
/// same way) keeps the top line's background with the element's colour.
/// Repro: select a 198-token section, `B` `100` Enter, draw: the `▰` cells have fg
/// `Rgb(186, 194, 222)` (status_fg), not the theme's error `Rgb(243, 139, 168)`.
#[test]
fn budget_bar_cells_use_the_error_colour_when_over_and_success_under() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let small = id(&app, MIDDLEWARE);
    select(&mut app, &[small]);
    let cells = |app: &App, sym: &str| {
        let t = draw(app);
        let buf = t.backend().buffer();
        (0..buf.area.width)
            .filter(|x| buf[(*x, 0)].symbol() == sym)
            .map(|x| buf[(x, 0)].fg)
            .collect::<Vec<_>>()
    };
    // Under the 20k budget: filled cells in the success colour.
    let under = cells(&app, "▰");
    assert_eq!(under.len(), 1);
    assert_eq!(under[0], app.theme.mark.fg.expect("success colour"));
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    type_text(&mut app, "100");
    press(&mut app, KeyCode::Enter);
    let error = app.theme.error.fg.expect("error colour");
    let over = cells(&app, "▰");
    assert_eq!(over, vec![error; 8]);
    assert_eq!(cells(&app, "+"), vec![error], "the +N over text");
    // Within 10% under the budget the bar warns (a brief adds its header and provenance).
    let total = app.selection_tokens.0;
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    type_text(&mut app, &(total + total / 20).to_string());
    press(&mut app, KeyCode::Enter);
    let warn = app.theme.warn.fg.expect("warn colour");
    assert_eq!(cells(&app, "▰"), vec![warn; 8]);
    assert!(cells(&app, "+").is_empty());
}

// ---------------------------------------------------------------- 3. brief preview

#[test]
fn brief_preview_shows_the_exact_core_brief_and_copies_it() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let (logger, cors) = (id(&app, LOGGER), id(&app, CORS));
    select(&mut app, &[cors, logger]);
    let units = app.selection.units(&app.corpus);
    assert_eq!(units, vec![logger, cors], "document order");
    // `p` opens the preview; the text is built by a worker job.
    let a = key_action(&app, KeyCode::Char('p'), KeyModifiers::NONE);
    assert_eq!(a, Action::BriefPreview);
    update(&mut app, a);
    assert_eq!(app.mode(), Mode::Brief);
    assert!(app.brief_preview().as_ref().is_some_and(|p| p.built.is_none()), "building");
    let building = screen_text(draw(&app).backend().buffer());
    assert!(building.contains("Building…"), "{building}");
    headless::settle(&mut app);
    let b = built(&app);
    // md + auto + no exposure levels: the plain `pack` layout, as `skillnav brief`.
    let core = skillnav::brief::pack(&app.corpus, &units, 20_000, counter());
    assert_eq!(b.text, core.text);
    assert_eq!((b.bytes, b.tokens, b.parts), (core.bytes as u64, core.tokens, 2));
    assert!(b.left_out.is_empty());
    assert_eq!(b.label, "brief · md · 2 sections", "the plain layout states no mode");
    let t = draw(&app);
    let buf = t.backend().buffer();
    let text = screen_text(buf);
    assert!(text.contains(" Brief preview · md · auto "), "{text}");
    let head = span_text(buf, 2, 1, 99);
    let want = format!(
        "brief · md · 2 sections · {} tokens (o200k_base) · {} · budget 20k",
        human::short_count(core.tokens),
        human::short_bytes(core.bytes as u64)
    );
    assert!(head.contains(&want), "{head:?} has {want:?}");
    let p = app.brief_preview().cloned().expect("preview");
    let (iw, ih) = skillnav::tui::view::layout::preview_inner(100, 30);
    assert_eq!(p.wrapped, skillnav::render::wrap::wrap_text(&core.text, iw as usize));
    assert!(head.ends_with(&format!(" 1/{} ", p.wrapped.len())), "{head:?}");
    // The body lines are the brief's first lines.
    for (i, line) in p.wrapped.iter().take(ih as usize).enumerate() {
        let shown = span_text(buf, 3 + i as u16, 1, 1 + iw);
        assert_eq!(shown.trim_end(), line.trim_end(), "line {i}");
    }
    // Scrolling moves the window.
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(app.brief_preview().as_ref().map(|p| p.scroll), Some(1));
    let t = draw(&app);
    assert_eq!(span_text(t.backend().buffer(), 3, 1, 1 + iw).trim_end(), p.wrapped[1].trim_end());

    // `f`: xml, the curated layout with the same request.
    press(&mut app, KeyCode::Char('f'));
    assert_eq!(app.curate.format, BriefFormat::Xml);
    let b = built(&app);
    let exposure = app.curate.exposure.clone();
    let index = app.index.clone();
    let req = CuratedRequest {
        selected: &units,
        query: None,
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Xml,
        max_tokens: Some(20_000),
        exposure: Some(&exposure),
    };
    let xml = curated_brief(&app.corpus, index.as_deref(), &req, counter());
    assert!(
        b.text.starts_with("<context_brief mode=\"answer\" encoding=\"o200k_base\" sections=\"2\""),
        "{}",
        &b.text[..80]
    );
    assert!(
        b.text.contains(&format!("\n<document id=\"{LOGGER}\" title=\"Logger Middleware\"")),
        "{}",
        b.text
    );
    assert_eq!(b.text, xml.text);
    assert_eq!(b.tokens, xml.tokens);
    assert!(screen_text(draw(&app).backend().buffer()).contains(" Brief preview · xml · auto "));
    // `m`: auto → answer → extract.
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.curate.mode, BriefMode::Answer);
    press(&mut app, KeyCode::Char('m'));
    assert_eq!(app.curate.mode, BriefMode::Extract);
    let b = built(&app);
    let extract = curated_brief(
        &app.corpus,
        index.as_deref(),
        &CuratedRequest { mode: BriefMode::Extract, ..req.clone() },
        counter(),
    );
    assert_eq!(b.text, extract.text);
    assert_ne!(b.text, xml.text, "extract differs from answer");
    assert_eq!(b.label, "brief · xml · extract · 2 sections");
    assert!(screen_text(draw(&app).backend().buffer()).contains(" Brief preview · xml · extract "));

    // `y` closes the popup and queues a copy of exactly the text shown.
    let shown = built(&app);
    press_no_settle(&mut app, KeyCode::Char('y'));
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.brief_preview().is_none());
    assert!(app.copying);
    assert_eq!(app.status, "Copying brief · xml · extract · 2 sections…");
    match app.effects.as_slice() {
        [Effect::CopyText { built, route: CopyRoute::Auto }] => {
            assert_eq!(built.text, shown.text);
            assert!(Arc::ptr_eq(built, &shown), "the very text shown");
        }
        other => panic!("one copy effect expected: {other:?}"),
    }
}

/// Press a key through the keymap without running the queued jobs.
fn press_no_settle(app: &mut App, code: KeyCode) {
    let a = key_action(app, code, KeyModifiers::NONE);
    update(app, a);
}

#[test]
fn brief_over_budget_names_what_was_left_out() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 200, 30, store.path());
    let (logger, cors) = (id(&app, LOGGER), id(&app, CORS));
    select(&mut app, &[logger, cors]);
    press(&mut app, KeyCode::Char('p'));
    // A custom budget typed in the preview rebuilds it.
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(app.input_box().map(|_| app.mode_below()), Some(Mode::Brief));
    clear_input(&mut app);
    type_text(&mut app, "1k");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Brief);
    assert_eq!(app.curate.budget, Some(1_000));
    let units = app.selection.units(&app.corpus);
    let core = skillnav::brief::pack(&app.corpus, &units, 1_000, counter());
    assert_eq!(core.left_out, vec![CORS.to_string()]);
    let b = built(&app);
    assert_eq!(b.text, core.text);
    assert_eq!(b.left_out, core.left_out);
    assert!(b.tokens <= 1_000, "{}", b.tokens);
    assert!(b.text.contains(CORS), "the brief names the left-out id");
    let t = draw(&app);
    let head = row_text(t.backend().buffer(), 2);
    assert!(head.contains(" · budget 1.0k · left out 1: hono-mini/references/middleware.md#hono_docs---middleware/cors-middleware"), "{head:?}");
    assert!(head.contains("brief · md · 1 section · "), "{head:?}");
}

#[test]
fn brief_preview_without_a_selection_briefs_the_current_node_and_esc_closes() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let other = id(&app, OTHER_MD);
    goto(&mut app, other);
    press(&mut app, KeyCode::Char('p'));
    let core = skillnav::brief::pack(&app.corpus, &[other], 20_000, counter());
    assert_eq!(built(&app).text, core.text);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.brief_preview().is_none());
    assert!(app.effects.is_empty());
}

// ---------------------------------------------------------------- 4. rendered skills

const REPORT_BODY: &str = "# Convert a report\n\nConvert $file to text (first argument: $ARGUMENTS[0]).\n\n\
Write the result to ${OUT_DIR}/summary.md and quote all arguments: $ARGUMENTS.";

/// An app on the hand-made skills with the preview of `report-skill` open on the rendered
/// skill (`p`, then `Tab`); returns the skills folder too.
fn report_skill_preview(store: &Path) -> (App, PathBuf) {
    let dir = manifest("tests/fixtures/tui_curate/skills");
    let mut app = app_over(&dir, "skills", 100, 30, store);
    let skill = id(&app, "skills/report-skill");
    goto(&mut app, skill);
    press(&mut app, KeyCode::Char('p'));
    // Tab: the rendered skill instead of the brief.
    press(&mut app, KeyCode::Tab);
    (app, dir)
}

#[test]
fn rendered_skill_preview_keeps_placeholders_then_substitutes_typed_arguments() {
    let store = tempfile::tempdir().expect("tmp");
    let (mut app, dir) = report_skill_preview(store.path());
    assert_eq!(app.brief_preview().as_ref().map(|p| p.kind), Some(PreviewKind::Skill));
    let b = built(&app);
    let file_text = std::fs::read_to_string(dir.join("report-skill/SKILL.md")).expect("fixture");
    let parsed = skill_from_text(&file_text, "report-skill", "", None);
    assert_eq!(parsed.body, REPORT_BODY);
    assert_eq!(parsed.argument_names, vec!["file".to_string()]);
    // No arguments: every placeholder as written.
    assert_eq!(b.text, format!("{REPORT_BODY}\n"));
    assert_eq!(b.label, "rendered skill report-skill");
    assert_eq!((b.bytes, b.tokens), (b.text.len() as u64, counter().count(&b.text)));
    let t = draw(&app);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains(" Rendered skill preview "), "{text}");
    assert!(text.contains("Convert $file to text (first argument: $ARGUMENTS[0])."), "{text}");
    // `a`: type the arguments.
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(app.input_box().as_ref().map(|i| i.purpose.clone()), Some(InputPurpose::SkillArgs));
    assert_eq!(input_text(&app), "");
    type_text(&mut app, "report.pdf");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Brief);
    assert_eq!(app.curate.args.as_deref(), Some("report.pdf"));
    let b = built(&app);
    let opts = RenderOptions { args: Some("report.pdf".into()), ..RenderOptions::default() };
    let want = render_body(&parsed.body, &parsed.argument_names, None, &opts);
    assert_eq!(
        want,
        "# Convert a report\n\nConvert report.pdf to text (first argument: report.pdf).\n\n\
         Write the result to ${OUT_DIR}/summary.md and quote all arguments: report.pdf."
    );
    assert_eq!(b.text, format!("{want}\n"));
    assert_eq!(b.label, "rendered skill report-skill · args \"report.pdf\"");
    let t = draw(&app);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("Convert report.pdf to text (first argument: report.pdf)."), "{text}");
    assert!(text.contains("rendered skill report-skill · args \"report.pdf\" · "), "{text}");
    // An empty prompt means no arguments again.
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(input_text(&app), "report.pdf");
    clear_input(&mut app);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.curate.args, None);
    assert_eq!(built(&app).text, format!("{REPORT_BODY}\n"));
    // Tab back: the brief of the skill.
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.brief_preview().as_ref().map(|p| p.kind), Some(PreviewKind::Brief));
    assert!(built(&app).label.starts_with("brief · md · "));
}

#[test]
fn two_selected_skills_copy_and_preview_with_the_listing_first() {
    let store = tempfile::tempdir().expect("tmp");
    let dir = manifest("tests/fixtures/formats/skills");
    let mut app = app_over(&dir, "skills", 100, 30, store.path());
    let brand = id(&app, "skills/brand-guidelines");
    let theme = id(&app, "skills/theme-factory");
    select(&mut app, &[theme, brand]);
    // `Y`: the skills in tree order are copied.
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert_eq!(copies, vec![vec![brand, theme]]);
    assert!(app.copying);
    assert_eq!(app.status, "Copying 2 rendered skills…");
    apply(&mut app, WorkerMsg::Copied(Ok("Copied".into())));
    assert!(!app.copying);
    // The preview of both: the available-skills listing, then each body.
    press(&mut app, KeyCode::Char('p'));
    press(&mut app, KeyCode::Tab);
    let b = built(&app);
    let skill = |folder: &str| {
        let file = dir.join(folder).join("SKILL.md");
        let text = std::fs::read_to_string(&file).expect("fixture");
        skill_from_text(&text, folder, &file.to_string_lossy(), Some(dir.join(folder)))
    };
    let skills = [skill("brand-guidelines"), skill("theme-factory")];
    let listing = ListingOptions { format: ListingFormat::AvailableSkills, ..ListingOptions::default() };
    let want = render_many(&skills, listing, &RenderOptions::default());
    assert_eq!(b.text, want);
    let location = dir.join("brand-guidelines/SKILL.md");
    let head = "<available_skills>\n<skill>\n<name>\nbrand-guidelines\n</name>\n<description>\n";
    assert!(b.text.starts_with(head), "{}", &b.text[..120]);
    assert!(b.text.contains(&format!("<location>\n{}\n</location>", location.display())));
    assert!(b.text.contains("\n</available_skills>\n\n## brand-guidelines\n\n"));
    assert!(b.text.contains("\n\n## theme-factory\n\n"));
    assert_eq!(b.label, "2 skills · available-skills listing");
    assert_eq!(b.parts, 2);
    let t = draw(&app);
    assert_eq!(span_text(t.backend().buffer(), 3, 1, 99).trim_end(), "<available_skills>");
    // `l`: plain listing.
    press(&mut app, KeyCode::Char('l'));
    assert_eq!(app.curate.listing, ListingFormat::Plain);
    let b = built(&app);
    let plain = ListingOptions { format: ListingFormat::Plain, ..ListingOptions::default() };
    assert_eq!(b.text, render_many(&skills, plain, &RenderOptions::default()));
    assert!(b.text.starts_with("- brand-guidelines: "), "{}", &b.text[..60]);
    assert_eq!(b.label, "2 skills · plain listing");
}

#[test]
fn copy_skill_with_no_skill_here_says_so() {
    let store = tempfile::tempdir().expect("tmp");
    // A plain doc folder has no skills.
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::write(tmp.path().join("guide.md"), "# Guide\n\nText.\n").expect("write");
    let mut app = app_over(tmp.path(), "docs", 100, 30, store.path());
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert!(copies.is_empty());
    assert!(!app.copying);
    assert_eq!(app.status, "No skill here: Y renders a skill folder's SKILL.md");
}

// ---------------------------------------------------------------- 5. recipes

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn member_ids(app: &App) -> Vec<String> {
    sorted(app.selection.members().map(|n| app.corpus.node(n).id.clone()).collect())
}

/// Open the recipe list and load the entry under the cursor.
fn load_first_recipe(app: &mut App) {
    press(app, KeyCode::Char('R'));
    assert_eq!(app.mode(), Mode::Recipes);
    press(app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
}

#[test]
fn recipe_save_load_change_detection_and_delete() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("hono-mini");
    copy_dir(&hono_dir(), &root);
    let store_dir = tmp.path().join("recipes");
    let mut app = app_over(&root, "hono-mini", 100, 30, &store_dir);
    let (logger, other) = (id(&app, LOGGER), id(&app, OTHER_MD));
    select(&mut app, &[logger, other]);
    goto(&mut app, other);
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('x'));
    }
    assert_eq!(app.curate.exposure.own(other), Some(Exposure::Explicit));
    press(&mut app, KeyCode::Char('b'));
    assert_eq!(app.curate.budget, Some(100_000));
    let tokens_before = app.selection_tokens;

    // R: an empty list; s: name prompt; Enter saves.
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(app.mode(), Mode::Recipes);
    assert_eq!(app.recipe_list().as_ref().map(|l| l.entries.len()), Some(0));
    let text = screen_text(draw(&app).backend().buffer());
    assert!(text.contains(" Recipes (0) ") && text.contains("No saved recipes yet."), "{text}");
    assert!(text.contains(&format!("in {}", store_dir.display())), "{text}");
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(app.input_box().as_ref().map(|i| i.purpose.clone()), Some(InputPurpose::RecipeName));
    assert_eq!(input_text(&app), "");
    // An invalid name keeps the prompt open.
    type_text(&mut app, ".bad");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Input);
    assert!(app.status.starts_with("Invalid recipe name \".bad\""), "{}", app.status);
    clear_input(&mut app);
    type_text(&mut app, "hono-pick");
    press(&mut app, KeyCode::Enter);
    let file = store_dir.join("hono-pick.json");
    assert_eq!(
        app.status,
        format!("Saved recipe hono-pick · 2 selected · 1 exposure level → {}", file.display())
    );
    assert_eq!(app.mode(), Mode::Recipes, "back in the list");
    let list = app.recipe_list().cloned().expect("list");
    assert_eq!(list.entries.len(), 1);
    assert_eq!(
        (list.entries[0].label.as_str(), list.entries[0].path.as_path()),
        ("hono-pick", file.as_path())
    );
    let text = screen_text(draw(&app).backend().buffer());
    assert!(text.contains(" Recipes (1) ") && text.contains("● hono-pick"), "{text}");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);

    let r = Recipe::read(&file).expect("saved recipe");
    assert_eq!(r.name, "hono-pick");
    assert_eq!(
        sorted(r.selected.iter().map(|n| n.id.clone()).collect()),
        sorted(vec![LOGGER.into(), OTHER_MD.into()])
    );
    assert_eq!(r.exposure.len(), 1);
    assert_eq!((r.exposure[0].id.as_str(), r.exposure[0].level.as_str()), (OTHER_MD, "explicit"));
    assert_eq!(r.max_tokens, Some(100_000));
    assert_eq!(
        (r.format.as_deref(), r.mode.as_deref(), r.query.as_deref()),
        (Some("md"), Some("auto"), None)
    );

    // A new app over the same files loads the same state.
    let mut fresh = app_over(&root, "hono-mini", 100, 30, &store_dir);
    assert!(fresh.selection.is_empty());
    load_first_recipe(&mut fresh);
    assert_eq!(fresh.status, "Loaded recipe hono-pick · 2 selected");
    assert_eq!(member_ids(&fresh), member_ids(&app));
    let other2 = id(&fresh, OTHER_MD);
    assert_eq!(fresh.curate.exposure.own(other2), Some(Exposure::Explicit));
    assert_eq!(fresh.curate.exposure.entries().len(), 1);
    assert_eq!(fresh.curate.budget, Some(100_000));
    assert_eq!(fresh.curate.recipe_name.as_deref(), Some("hono-pick"));
    assert_eq!(fresh.selection_tokens, tokens_before);
    assert!(fresh.warnings.iter().all(|w| !w.starts_with("recipe ")), "{:?}", fresh.warnings);

    // Edit the selected Logger section on disk: the next load names it as changed.
    let md = root.join("references/middleware.md");
    let text = std::fs::read_to_string(&md).expect("read");
    let edited = text.replacen("## Logger Middleware\n", "## Logger Middleware\n\nEdited after saving.\n", 1);
    assert_ne!(text, edited);
    std::fs::write(&md, edited).expect("write");
    let mut changed = app_over(&root, "hono-mini", 100, 30, &store_dir);
    load_first_recipe(&mut changed);
    assert_eq!(
        changed.status,
        format!("Loaded recipe hono-pick · 2 selected · 1 changed since saved: {LOGGER}")
    );
    assert_eq!(member_ids(&changed), member_ids(&app), "a changed section is still selected");
    assert!(
        changed.warnings.iter().any(|w| w.starts_with("recipe hono-pick: ") && w.contains(LOGGER)),
        "{:?}",
        changed.warnings
    );

    // d asks, y deletes.
    press(&mut changed, KeyCode::Char('R'));
    press(&mut changed, KeyCode::Char('d'));
    assert_eq!(changed.mode(), Mode::Ask);
    let text = screen_text(draw(&changed).backend().buffer());
    assert!(text.contains(" Delete recipe? ") && text.contains("Delete hono-pick ("), "{text}");
    press(&mut changed, KeyCode::Char('y'));
    assert!(!file.exists());
    assert_eq!(changed.status, "Deleted recipe hono-pick");
    assert_eq!(changed.mode(), Mode::Recipes);
    assert_eq!(changed.recipe_list().as_ref().map(|l| l.entries.len()), Some(0));
    assert_eq!(changed.curate.recipe_name, None);
}

#[test]
fn recipe_file_from_the_command_line_is_applied_after_loading_and_saved_back() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store_dir = tmp.path().join("recipes");
    let root = hono_dir();
    // Write a recipe with the core API.
    let corpus = load_root(&spec(&root, "hono-mini"), &LoadOptions::default(), &mut |_| {});
    let mut sel = skillnav::model::Selection::new();
    let cors = corpus.find(CORS).expect("cors");
    sel.select(&corpus, cors);
    let mut ex = skillnav::curate::exposure::ExposureMap::new();
    ex.set(cors, Some(Exposure::Always));
    let mut recipe = Recipe::capture("cli-pick", &corpus, &sel, &ex);
    recipe.max_tokens = Some(8_000);
    recipe.format = Some("xml".into());
    let file = tmp.path().join("pick.json");
    recipe.write(&file).expect("write");

    let mut app = app_with(vec![spec(&root, "hono-mini")], 100, 30, &store_dir, |app| {
        app.curate.recipe_file = Some(file.clone());
        app.curate.recipe_pending = true;
    });
    assert!(!app.curate.recipe_pending);
    assert_eq!(app.status, "Loaded recipe cli-pick · 1 selected");
    assert_eq!(member_ids(&app), vec![CORS.to_string()]);
    let cors = id(&app, CORS);
    assert_eq!(app.curate.exposure.own(cors), Some(Exposure::Always));
    assert_eq!(app.curate.budget, Some(8_000));
    assert_eq!(app.curate.format, BriefFormat::Xml);
    assert_eq!(app.selection_tokens, (app.tokens.total(cors).expect("counted"), true));
    // Listed first; saving under its name writes the file, not the store.
    press(&mut app, KeyCode::Char('R'));
    let list = app.recipe_list().cloned().expect("list");
    assert_eq!(list.entries[0].label, "pick.json (--recipe)");
    assert_eq!(list.entries[0].path, file);
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(app.mode(), Mode::Normal);
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(input_text(&app), "cli-pick");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.status,
        format!("Saved recipe cli-pick · 2 selected · 1 exposure level → {}", file.display())
    );
    let saved = Recipe::read(&file).expect("read back");
    assert_eq!(
        sorted(saved.selected.iter().map(|n| n.id.clone()).collect()),
        sorted(vec![CORS.into(), LOGGER.into()])
    );
    assert!(Store::new(&store_dir).list().is_empty(), "nothing written to the store");
}

#[test]
fn missing_recipe_file_is_created_by_the_first_save() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store_dir = tmp.path().join("recipes");
    let file = tmp.path().join("new-pick.json");
    let mut app = app_with(vec![spec(&hono_dir(), "hono-mini")], 100, 30, &store_dir, |app| {
        app.curate.recipe_file = Some(file.clone());
        app.curate.recipe_pending = true;
    });
    assert_eq!(app.status, format!("New recipe file {}: R then s saves the selection to it", file.display()));
    assert!(app.selection.is_empty());
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(input_text(&app), "new-pick");
    press(&mut app, KeyCode::Enter);
    let r = Recipe::read(&file).expect("created");
    assert_eq!(r.name, "new-pick");
    assert_eq!(r.selected.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(), vec![OTHER_MD]);
}

// ---------------------------------------------------------------- 6. export

/// `X`, replace the prefilled folder with `dir`, Enter, run the export job.
fn export_into(app: &mut App, dir: &Path) {
    press(app, KeyCode::Char('X'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(app.input_box().as_ref().map(|i| i.purpose.clone()), Some(InputPurpose::ExportDir));
    clear_input(app);
    type_text(app, &dir.display().to_string());
    press(app, KeyCode::Enter);
}

fn section_titles(dir: &Path) -> Vec<String> {
    let c = load_root(&spec(dir, "export"), &LoadOptions::default(), &mut |_| {});
    let mut t: Vec<String> =
        c.nodes.iter().filter(|n| n.kind == NodeKind::Section).map(|n| n.title.clone()).collect();
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
    // Nothing selected: nothing to export.
    press(&mut app, KeyCode::Char('X'));
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(app.status, "Nothing to export: select sections first (Space)");
    let (logger, cors) = (id(&app, LOGGER), id(&app, CORS));
    select(&mut app, &[logger, cors]);
    press(&mut app, KeyCode::Char('X'));
    let cwd = std::env::current_dir().expect("cwd");
    assert_eq!(input_text(&app), cwd.join("hono-curated").display().to_string());
    let text = screen_text(draw(&app).backend().buffer());
    assert!(
        text.contains(" Export as a skill ")
            && text.contains("Folder to write (its name is the skill name):")
    );
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.effects.is_empty());

    let dir = tmp.path().join("out").join("my-skill");
    export_into(&mut app, &dir);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(
        app.status.starts_with(&format!("Exported 2 sections to {} · validates clean · ", dir.display())),
        "{}",
        app.status
    );
    assert!(app.status.ends_with(" tokens"), "{}", app.status);
    let skill_md = std::fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md written");
    assert!(skill_md.starts_with("---\nname: my-skill\ndescription: "), "{skill_md}");
    let findings = skillnav::skill::validate::validate_skill_md(
        &skill_md,
        "my-skill",
        None,
        skillnav::skill::validate::Profile::Spec,
    );
    assert!(findings.is_empty(), "{findings:?}");
    let titles = section_titles(&dir);
    for t in ["Logger Middleware", "CORS Middleware"] {
        assert!(titles.iter().any(|x| x == t), "{t} in {titles:?}");
    }
    assert!(!titles.iter().any(|x| x == "Cache Middleware"), "{titles:?}");

    // Again into the now non-empty folder, with one section: a question first.
    goto(&mut app, cors);
    act(&mut app, &[Action::ToggleSelect]);
    assert_eq!(member_ids(&app), vec![LOGGER.to_string()]);
    export_into(&mut app, &dir);
    assert_eq!(app.mode(), Mode::Ask);
    assert_eq!(
        app.question().as_ref().map(|a| a.question.clone()),
        Some(Question::ReplaceFolder(dir.clone()))
    );
    assert_eq!(app.status, format!("{} exists and is not empty", dir.display()));
    let text = screen_text(draw(&app).backend().buffer());
    assert!(text.contains(" Replace folder? ") && text.contains("exists and is not empty."), "{text}");
    // n: nothing changes.
    press(&mut app, KeyCode::Char('n'));
    assert_eq!((app.mode(), app.status.as_str()), (Mode::Normal, "Cancelled"));
    assert!(section_titles(&dir).iter().any(|x| x == "CORS Middleware"));
    // y: replaced.
    export_into(&mut app, &dir);
    assert_eq!(app.mode(), Mode::Ask);
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.status.starts_with(&format!("Exported 1 section to {} · ", dir.display())), "{}", app.status);
    let titles = section_titles(&dir);
    assert!(titles.iter().any(|x| x == "Logger Middleware"), "{titles:?}");
    assert!(!titles.iter().any(|x| x == "CORS Middleware"), "replaced: {titles:?}");
}

// ---------------------------------------------------------------- 7. disclosure layers

/// The preview pane's rows.
fn preview_rows(app: &App) -> Vec<String> {
    let t = draw(app);
    let buf = t.backend().buffer();
    let a = skillnav::tui::view::layout::areas(app);
    (a.preview.y..a.preview.y + a.preview.height)
        .map(|y| span_text(buf, y, a.preview.x, a.preview.x + a.preview.width))
        .collect()
}

/// Whether `row` is the layer row `label` with `tokens`: two spaces, the label, padding,
/// then `<count> tok`; returns the column where `tok` ends (the column is right-aligned).
fn layer_row(row: &str, label: &str, tokens: u64) -> Option<usize> {
    let rest = row.strip_prefix("  ")?.strip_prefix(label)?;
    let want = format!("{} tok", human::short_count(tokens));
    let after = rest.trim_start_matches(' ');
    if !after.starts_with(&want) || after.len() == rest.len() {
        return None;
    }
    Some(unicode_width::UnicodeWidthStr::width(&row[..row.len() - after.len()]) + want.len())
}

#[test]
fn skill_preview_shows_disclosure_layers_equal_to_the_core_counts() {
    let store = tempfile::tempdir().expect("tmp");
    let dir = manifest("tests/fixtures/formats/skills");
    let mut app = app_over(&dir, "skills", 140, 60, store.path());
    let skill = id(&app, "skills/theme-factory");
    goto(&mut app, skill);
    let l = skillnav::skill::layers::skill_layers(&app.corpus, skill, counter());
    assert_eq!(
        app.layers.get(&skill).map(|v| (**v).clone()),
        Some(skillnav::tui::state::preview::LayerView::Skill(l.clone()))
    );
    // The layers add up to the total.
    let refs: u64 = l.references.iter().map(|r| r.tokens).sum();
    assert_eq!(l.metadata_tokens + l.body_tokens + refs, l.total_tokens);
    let paths: Vec<&str> = l.references.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, vec!["LICENSE.txt", "themes/arctic-frost.md", "themes/ocean-depths.md"]);
    // Body = SKILL.md after its frontmatter block, counted independently.
    let text = std::fs::read_to_string(dir.join("theme-factory/SKILL.md")).expect("fixture");
    let fm = skillnav::frontmatter::parse(&text).expect("frontmatter");
    assert_eq!(l.body_tokens, counter().count(&text[fm.block.end..]));
    let rows = preview_rows(&app);
    let heading = rows
        .iter()
        .position(|r| r.contains("Disclosure layers (o200k_base)"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    let mut want = vec![("metadata (always)", l.metadata_tokens), ("SKILL.md body", l.body_tokens)];
    for r in &l.references {
        want.push((r.path.as_str(), r.tokens));
    }
    want.push(("total", l.total_tokens));
    let mut ends = Vec::new();
    for (i, (label, tokens)) in want.iter().enumerate() {
        let row = &rows[heading + 1 + i];
        let end = layer_row(row, label, *tokens);
        assert!(end.is_some(), "row {i}: {row:?} is {label} {tokens}");
        ends.push(end);
    }
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "token column right-aligned: {ends:?}");
    assert!(rows[heading + 1].contains("name + description in the listing"));
    assert!(rows[heading + 2].contains(&format!("on activation · {}", human::short_bytes(l.body_bytes))));
}

#[test]
fn root_preview_shows_the_always_loaded_listing_cost() {
    let store = tempfile::tempdir().expect("tmp");
    let dir = manifest("tests/fixtures/formats/skills");
    let mut app = app_over(&dir, "skills", 140, 60, store.path());
    let root = app.corpus.roots[0];
    goto(&mut app, root);
    // The listing, built here from the files.
    let entries: Vec<ListingEntry> = ["brand-guidelines", "claude-api", "theme-factory"]
        .iter()
        .map(|folder| {
            let file = dir.join(folder).join("SKILL.md");
            let text = std::fs::read_to_string(&file).expect("fixture");
            let fm = skillnav::frontmatter::parse(&text).expect("frontmatter");
            ListingEntry::from_frontmatter(&fm, folder, &file.to_string_lossy())
        })
        .collect();
    let opts = ListingOptions { format: ListingFormat::AvailableSkills, ..ListingOptions::default() };
    let listing = format_listing(&entries, opts);
    assert!(listing.starts_with("<available_skills>\n<skill>\n<name>\nbrand-guidelines\n</name>"));
    let always = counter().count(&listing);
    let r = skillnav::skill::layers::root_layers(&app.corpus, root, counter());
    assert_eq!(r.always_loaded_tokens, always);
    let rows = preview_rows(&app);
    let heading = rows
        .iter()
        .position(|r| r.contains("Always loaded (o200k_base)"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    let row = &rows[heading + 1];
    assert!(layer_row(row, "<available_skills>", always).is_some(), "{row:?}");
    assert!(row.contains("the listing of 3 skills, sent on every turn"), "{row:?}");
    // One row per skill with its total.
    for s in &r.skills {
        let shown = rows.iter().any(|r| layer_row(r, &s.entry.name, s.total_tokens).is_some());
        assert!(shown, "{} {} in {rows:#?}", s.entry.name, s.total_tokens);
    }
}

// ---------------------------------------------------------------- 8. oversize copy question

fn big_text() -> Arc<BuiltText> {
    let text = "word ".repeat(40_000);
    Arc::new(BuiltText {
        bytes: text.len() as u64,
        tokens: 40_000,
        encoding: Encoding::O200kBase,
        parts: 3,
        left_out: Vec::new(),
        label: "brief · md · answer · 3 sections".into(),
        ext: "md",
        text,
    })
}

#[test]
fn oversize_copy_asks_then_saves_to_a_file_sends_or_cancels() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let big = big_text();
    app.copying = true;
    apply(&mut app, WorkerMsg::CopyAsk(Arc::clone(&big)));
    assert!(!app.copying);
    assert_eq!(app.mode(), Mode::Ask);
    assert_eq!(
        app.question().as_ref().map(|a| a.question.clone()),
        Some(Question::Oversize(Arc::clone(&big)))
    );
    let limit = human::short_bytes(app.settings.clipboard.osc52_limit as u64);
    assert_eq!(
        app.status,
        format!("The system clipboard is not available and 200k is over the OSC 52 limit of {limit}")
    );
    let t = draw(&app);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains(" Over the OSC 52 limit "), "{text}");
    assert!(text.contains("over the OSC 52 limit of"), "{text}");
    assert!(text.contains("w save to a file  y send via OSC 52 anyway  n cancel"), "{text}");
    // Unbound keys do nothing; other actions keep the question open.
    let j = KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(skillnav::tui::runtime::action_for(&app, &Event::Key(j)), None);
    act(&mut app, &[Action::MoveDown]);
    assert_eq!(app.mode(), Mode::Ask);
    // w: saved to a file.
    press_no_settle(&mut app, KeyCode::Char('w'));
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.copying);
    assert_eq!(app.status, "Saving to a file…");
    match app.effects.as_slice() {
        [Effect::CopyText { built, route: CopyRoute::File }] => assert!(Arc::ptr_eq(built, &big)),
        other => panic!("a file copy expected: {other:?}"),
    }
    headless::settle(&mut app);
    apply(&mut app, WorkerMsg::Copied(Ok("Saved".into())));
    // y: sent via OSC 52 anyway.
    apply(&mut app, WorkerMsg::CopyAsk(Arc::clone(&big)));
    press_no_settle(&mut app, KeyCode::Char('y'));
    assert_eq!(app.status, "Sending via OSC 52…");
    assert!(matches!(app.effects.as_slice(), [Effect::CopyText { route: CopyRoute::Osc52, .. }]));
    headless::settle(&mut app);
    apply(&mut app, WorkerMsg::Copied(Ok("Sent".into())));
    // Esc: cancelled, nothing queued.
    apply(&mut app, WorkerMsg::CopyAsk(Arc::clone(&big)));
    press_no_settle(&mut app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    assert_eq!(app.status, "Copy cancelled");
    assert!(app.effects.is_empty());
    assert!(app.question().is_none());
    assert!(!app.copying);
}

#[test]
fn save_file_from_the_preview_queues_a_file_copy() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let other = id(&app, OTHER_MD);
    goto(&mut app, other);
    press(&mut app, KeyCode::Char('p'));
    let shown = built(&app);
    press_no_settle(&mut app, KeyCode::Char('w'));
    assert_eq!(app.mode(), Mode::Normal);
    match app.effects.as_slice() {
        [Effect::CopyText { built, route: CopyRoute::File }] => assert!(Arc::ptr_eq(built, &shown)),
        other => panic!("a file copy expected: {other:?}"),
    }
}

// ---------------------------------------------------------------- exposure in briefs

#[test]
fn always_units_join_the_brief_and_hidden_sections_are_cut_from_it() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let skill_md = id(&app, "hono-mini/SKILL.md");
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    goto(&mut app, skill_md);
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.curate.exposure.own(skill_md), Some(Exposure::Always));
    // The file's text unit (its top section; the frontmatter is no section) is always in.
    let hono_skill = id(&app, "hono-mini/SKILL.md#hono-skill");
    assert_eq!(app.curate.exposure.always_units(&app.corpus), vec![hono_skill]);
    // The number beside the budget counts it too.
    let want = app.tokens.total(logger).expect("counted") + app.tokens.total(hono_skill).expect("counted");
    assert_eq!(app.selection_tokens, (want, true));
    press(&mut app, KeyCode::Char('p'));
    let b = built(&app);
    let exposure = app.curate.exposure.clone();
    let req = CuratedRequest {
        selected: &[logger],
        query: None,
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Md,
        max_tokens: Some(20_000),
        exposure: Some(&exposure),
    };
    let core = curated_brief(&app.corpus, app.index.as_deref(), &req, counter());
    assert_eq!(b.text, core.text, "a level set: the curated layout, as `skillnav brief`");
    assert_eq!(b.parts, 2);
    assert!(b.text.contains("## Logger Middleware") && b.text.contains("# Hono Skill"), "{}", b.text);
    press(&mut app, KeyCode::Esc);

    // Hide the CORS section inside a selected file: cut from the count and the text.
    press(&mut app, KeyCode::Char('x')); // SKILL.md: on-demand
    press(&mut app, KeyCode::Char('x')); // explicit
    press(&mut app, KeyCode::Char('x')); // hidden
    press(&mut app, KeyCode::Char('x')); // inherit
    assert!(app.curate.exposure.is_empty());
    let file = id(&app, "hono-mini/references/middleware.md");
    let cors = id(&app, CORS);
    goto(&mut app, logger);
    act(&mut app, &[Action::ToggleSelect]);
    select(&mut app, &[file]);
    goto(&mut app, cors);
    for _ in 0..4 {
        press(&mut app, KeyCode::Char('x'));
    }
    assert_eq!(app.curate.exposure.own(cors), Some(Exposure::Hidden));
    let cut = app.tokens.total(file).expect("counted") - app.tokens.total(cors).expect("counted");
    assert_eq!(app.selection_tokens, (cut, true));
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    type_text(&mut app, "none");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('p'));
    let b = built(&app);
    assert!(!b.text.contains("## CORS Middleware"), "hidden section cut");
    assert!(b.text.contains("## Logger Middleware"));
    let exposure = app.curate.exposure.clone();
    let req = CuratedRequest { selected: &[file], max_tokens: None, exposure: Some(&exposure), ..req };
    assert_eq!(b.text, curated_brief(&app.corpus, app.index.as_deref(), &req, counter()).text);
}

// ---------------------------------------------------------------- query hits in briefs

#[test]
fn query_hits_join_the_brief_and_the_recipe() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 120, 30, store.path());
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    press(&mut app, KeyCode::Char('p'));
    // No query yet.
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.status, "No search query: type one with / first");
    assert!(!app.curate.with_query);
    press(&mut app, KeyCode::Esc);
    act(&mut app, &[Action::SearchOpen]);
    for c in "cors".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    act(&mut app, &[Action::SearchAccept]);
    assert_eq!(app.search.query, "cors");
    press(&mut app, KeyCode::Char('p'));
    press(&mut app, KeyCode::Char('r'));
    assert!(app.curate.with_query);
    assert_eq!(app.status, "Adding the hits of \"cors\"");
    let b = built(&app);
    let req = CuratedRequest {
        selected: &[logger],
        query: Some("cors"),
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Md,
        max_tokens: Some(20_000),
        exposure: Some(&app.curate.exposure),
    };
    let core = curated_brief(&app.corpus, app.index.as_deref(), &req, counter());
    assert_eq!(b.text, core.text);
    assert!(b.text.contains("## CORS Middleware"), "a hit of the query");
    let mode = skillnav::brief::curated::effective_mode(BriefMode::Auto, Some("cors")).as_str();
    assert!(b.label.starts_with(&format!("brief · md · {mode} · ")), "{}", b.label);
    let t = draw(&app);
    assert!(span_text(t.backend().buffer(), 2, 1, 119).contains(" · + hits of \"cors\""));
    // The total beside the budget counts the hits the brief adds (their own text).
    let hits: u64 = app
        .search
        .view
        .content
        .iter()
        .filter(|h| !app.corpus.is_within(h.node, logger))
        .take(8)
        .map(|h| app.tokens.own(h.node).expect("counted"))
        .sum();
    assert!(hits > 0);
    assert_eq!(app.selection_tokens, (app.tokens.total(logger).expect("counted") + hits, true));
    press(&mut app, KeyCode::Esc);
    // Saved with the recipe.
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "with-query");
    press(&mut app, KeyCode::Enter);
    let r = Recipe::read(&store.path().join("with-query.json")).expect("saved");
    assert_eq!(r.query.as_deref(), Some("cors"));
    // Loading it in a fresh app sets the query and adds its hits.
    let mut fresh = app_over(&hono_dir(), "hono-mini", 120, 30, store.path());
    load_first_recipe(&mut fresh);
    headless::settle(&mut fresh);
    assert_eq!(fresh.search.query, "cors");
    assert!(fresh.curate.with_query);
}

// ---------------------------------------------------------------- worker results

#[test]
fn stale_preview_texts_are_dropped() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let other = id(&app, OTHER_MD);
    goto(&mut app, other);
    press(&mut app, KeyCode::Char('p'));
    let good = built(&app);
    let generation = app.brief_preview().as_ref().map(|p| p.generation).expect("preview");
    let stale = BuiltText { text: "stale".into(), ..(*good).clone() };
    apply(&mut app, WorkerMsg::TextBuilt { generation: generation - 1, result: Ok(stale) });
    assert_eq!(built(&app).text, good.text);
    // A failed build is shown in the header.
    apply(&mut app, WorkerMsg::TextBuilt { generation, result: Err("No SKILL.md to render here".into()) });
    let t = draw(&app);
    assert!(span_text(t.backend().buffer(), 2, 1, 99).starts_with("No SKILL.md to render here"));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.status, "No SKILL.md to render here");
    assert_eq!(app.mode(), Mode::Brief, "nothing to copy: the popup stays");
}

// ---------------------------------------------------------------- recipe budget round trip

/// BUG? (src/tui/curate/recipes.rs `load_path` with `capture`): `capture` writes
/// `max_tokens: null` for "no budget", but `load_path` only sets the budget when
/// `max_tokens` is `Some`, so a recipe saved with no budget loads with whatever budget the
/// app has (20k by default): save → load does not give the same state back.
/// Repro: `b` twice (100k, none), select a section, `R` `s` `nobudget` Enter; a fresh app:
/// `R` Enter → `app.curate.budget == Some(20000)`, expected `None`.
#[test]
fn a_recipe_saved_without_a_budget_loads_without_one() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Char('b'));
    assert_eq!(app.curate.budget, None);
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "nobudget");
    press(&mut app, KeyCode::Enter);
    assert_eq!(Recipe::read(&store.path().join("nobudget.json")).expect("saved").max_tokens, None);
    let mut fresh = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    assert_eq!(fresh.curate.budget, Some(20_000));
    load_first_recipe(&mut fresh);
    assert_eq!(fresh.curate.budget, None);
}

// ---------------------------------------------------------------- robustness

#[test]
fn curation_popups_draw_at_tiny_sizes() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    let opens: [&[Action]; 5] = [
        &[Action::BriefPreview],
        &[Action::BriefPreview, Action::ToggleKind],
        &[Action::CustomBudget],
        &[Action::Recipes],
        &[Action::Recipes, Action::RecipeSave],
    ];
    for (w, h) in [(1, 1), (2, 2), (3, 3), (10, 4), (20, 5), (40, 8), (200, 3), (3, 60)] {
        act(&mut app, &[Action::Resize(w, h)]);
        for open in opens {
            act(&mut app, open);
            draw(&app);
            act(&mut app, &[Action::Escape, Action::Escape]);
            assert_eq!(app.mode(), Mode::Normal, "{open:?} at {w}x{h}");
        }
        apply(&mut app, WorkerMsg::CopyAsk(big_text()));
        draw(&app);
        act(&mut app, &[Action::Escape]);
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn action() -> impl Strategy<Value = Action> {
        let chord = |c: char| {
            Action::TextKey(skillnav::tui::input::keymap::KeyChord {
                code: KeyCode::Char(c),
                mods: KeyModifiers::NONE,
            })
        };
        prop_oneof![
            Just(Action::MoveDown),
            Just(Action::MoveUp),
            Just(Action::Expand),
            Just(Action::ToggleSelect),
            Just(Action::CycleExposure),
            Just(Action::CycleBudget),
            Just(Action::CustomBudget),
            Just(Action::BriefPreview),
            Just(Action::CopyBrief),
            Just(Action::CopySkill),
            Just(Action::CopyText),
            Just(Action::SaveFile),
            Just(Action::CycleFormat),
            Just(Action::CycleMode),
            Just(Action::CycleListing),
            Just(Action::ToggleKind),
            Just(Action::ToggleQuery),
            Just(Action::SetArgs),
            Just(Action::Recipes),
            Just(Action::RecipeSave),
            Just(Action::RecipeDelete),
            Just(Action::Confirm),
            Just(Action::Escape),
            Just(Action::PageDown),
            Just(Action::Bottom),
            prop::sample::select(vec!['1', 'k', 'a', '0', ' ', '中', '$']).prop_map(chord),
            Just(Action::TextKey(skillnav::tui::input::keymap::KeyChord {
                code: KeyCode::Backspace,
                mods: KeyModifiers::NONE
            })),
            Just(Action::Paste("a b\nc".into())),
            (1u16..130, 1u16..45).prop_map(|(w, h)| Action::Resize(w, h)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]
        /// Random curation key sequences at random sizes never panic, and the mode always
        /// has its popup state.
        #[test]
        fn random_curation_actions_never_panic(actions in prop::collection::vec(action(), 1..40)) {
            let store = tempfile::tempdir().expect("tmp");
            let dir = manifest("tests/fixtures/tui_curate/skills");
            let mut app = app_over(&dir, "skills", 80, 24, store.path());
            for a in actions {
                update(&mut app, a);
                headless::settle(&mut app);
                if matches!(app.effects.as_slice(), []) && app.copying {
                    apply(&mut app, WorkerMsg::Copied(Ok("done".into())));
                }
                draw(&app);
                match app.mode() {
                    Mode::Brief => prop_assert!(app.brief_preview().is_some()),
                    Mode::Recipes => prop_assert!(app.recipe_list().is_some()),
                    Mode::Input => prop_assert!(app.input_box().is_some()),
                    Mode::Ask => prop_assert!(app.question().is_some()),
                    _ => {}
                }
            }
        }
    }
}

// ---------------------------------------------------------------- levels from metadata

#[test]
fn adr_levels_from_metadata_show_at_start_and_are_not_saved_in_recipes() {
    let store = tempfile::tempdir().expect("tmp");
    let dir = manifest("tests/fixtures/formats2/git-adr/adr-notes");
    let mut app = app_over(&dir, "adr", 140, 40, store.path());
    let adr = app
        .corpus
        .all_preorder()
        .into_iter()
        .find(|n| app.corpus.node(*n).kind == NodeKind::Adr)
        .expect("an ADR");
    // The loader's `meta.exposure = explicit` is the ADR's own level from the start.
    assert_eq!(app.curate.exposure.own(adr), Some(Exposure::Explicit));
    goto(&mut app, adr);
    let title = app.corpus.node(adr).title.clone();
    let t = draw(&app);
    let row = tree_row(&app, t.backend().buffer(), &title[..title.len().min(12)]).expect("ADR row");
    assert!(row.contains(" exp "), "{row:?}");
    // Selected explicitly: in the brief; its tokens count.
    act(&mut app, &[Action::ToggleSelect]);
    assert_eq!(app.selection_tokens, (app.tokens.total(adr).expect("counted"), true));
    // Saved recipes keep only the user's levels.
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "adr");
    press(&mut app, KeyCode::Enter);
    let r = Recipe::read(&store.path().join("adr.json")).expect("saved");
    assert!(r.exposure.is_empty(), "{:?}", r.exposure);
    assert_eq!(r.selected.len(), 1);
    assert!(app.status.contains(" · 1 selected · 0 exposure levels → "), "{}", app.status);
}

#[test]
fn export_failures_become_status_messages() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 120, 30, &tmp.path().join("recipes"));
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
    assert_eq!(app.status, format!("Export failed: {}: exists and is not a folder", file.display()));
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), "x");
    // Everything selected is hidden.
    goto(&mut app, other);
    for _ in 0..4 {
        press(&mut app, KeyCode::Char('x'));
    }
    let dir = tmp.path().join("hidden-skill");
    export_into(&mut app, &dir);
    assert_eq!(app.status, "Export failed: nothing to export: the selection has no exposed sections");
    assert!(!dir.exists());
    assert_eq!(app.mode(), Mode::Normal);
}

#[test]
fn preview_scrolls_by_line_page_and_to_the_ends() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    let file = id(&app, "hono-mini/references/middleware.md");
    goto(&mut app, file);
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('p'));
    let (_, page) = skillnav::tui::view::layout::preview_inner(100, 30);
    let page = page as usize;
    let len = app.brief_preview().as_ref().map(|p| p.wrapped.len()).expect("preview");
    assert!(len > 3 * page, "a long brief: {len} lines");
    let scroll = |app: &App| app.brief_preview().as_ref().map(|p| p.scroll).expect("preview");
    press(&mut app, KeyCode::PageDown);
    assert_eq!(scroll(&app), page);
    press(&mut app, KeyCode::Char('k'));
    assert_eq!(scroll(&app), page - 1);
    press(&mut app, KeyCode::Char('G'));
    assert_eq!(scroll(&app), len - page, "the last page");
    let t = draw(&app);
    let buf = t.backend().buffer();
    assert!(span_text(buf, 2, 1, 99).ends_with(&format!(" {}/{len} ", len - page + 1)));
    let last = app.brief_preview().as_ref().map(|p| p.wrapped[len - 1].clone()).expect("preview");
    assert_eq!(span_text(buf, 2 + page as u16, 1, 99).trim_end(), last.trim_end());
    press(&mut app, KeyCode::Char('g'));
    assert_eq!(scroll(&app), 0);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(scroll(&app), 0);
    // A resize re-wraps at the new width.
    act(&mut app, &[Action::Resize(60, 20)]);
    let (iw, _) = skillnav::tui::view::layout::preview_inner(60, 20);
    let p = app.brief_preview().cloned().expect("preview");
    assert_eq!(p.wrap_width, iw);
    assert_eq!(p.wrapped, skillnav::render::wrap::wrap_text(&built(&app).text, iw as usize));
    assert!(p.wrapped.iter().all(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) <= iw as usize));
}

#[test]
fn copies_while_a_copy_runs_are_refused() {
    let store = tempfile::tempdir().expect("tmp");
    let dir = manifest("tests/fixtures/tui_curate/skills");
    let mut app = app_over(&dir, "skills", 100, 30, store.path());
    let skill = id(&app, "skills/report-skill");
    goto(&mut app, skill);
    // One skill: Y copies it.
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert_eq!(copies, vec![vec![skill]]);
    assert_eq!(app.status, "Copying the rendered skill…");
    assert!(press(&mut app, KeyCode::Char('Y')).is_empty());
    assert_eq!(app.status, "A copy is already running…");
    assert!(press(&mut app, KeyCode::Char('y')).is_empty());
    assert_eq!(app.status, "A copy is already running…");
    press(&mut app, KeyCode::Char('p'));
    press_no_settle(&mut app, KeyCode::Enter);
    assert_eq!(app.status, "A copy is already running…");
    assert_eq!(app.mode(), Mode::Brief, "the preview stays open");
    assert!(app.effects.is_empty());
    apply(&mut app, WorkerMsg::Copied(Ok("Copied 1 section".into())));
    press_no_settle(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(matches!(app.effects.as_slice(), [Effect::CopyText { route: CopyRoute::Auto, .. }]));
}

#[test]
fn skill_scripts_show_as_a_zero_token_layer() {
    let store = tempfile::tempdir().expect("tmp");
    let dir = manifest("tests/fixtures/curate/skills");
    let mut app = app_over(&dir, "skills", 140, 40, store.path());
    let skill = id(&app, "skills/deploy");
    goto(&mut app, skill);
    let l = skillnav::skill::layers::skill_layers(&app.corpus, skill, counter());
    assert_eq!(l.assets.iter().map(|a| a.path.as_str()).collect::<Vec<_>>(), vec!["scripts/deploy.sh"]);
    let bytes = std::fs::metadata(dir.join("deploy/scripts/deploy.sh")).expect("fixture").len();
    assert_eq!(l.assets[0].bytes, bytes);
    let rows = preview_rows(&app);
    let row =
        rows.iter().find(|r| r.starts_with("  1 scripts/assets")).unwrap_or_else(|| panic!("{rows:#?}"));
    assert!(layer_row(row, "1 scripts/assets", 0).is_some(), "{row:?}");
    assert!(row.contains(&format!("never loaded as text · {}", human::short_bytes(bytes))), "{row:?}");
    let total = rows.iter().find(|r| r.starts_with("  total")).expect("total row");
    assert!(layer_row(total, "total", l.total_tokens).is_some(), "{total:?}");
}

#[test]
fn skill_variables_are_substituted_before_arguments_and_the_base_dir_header_toggles() {
    let store = tempfile::tempdir().expect("tmp");
    let (mut app, dir) = report_skill_preview(store.path());
    // `v`: `${NAME}` values, quote-aware; a value holding `$0` is substituted later by the
    // arguments (FORMATS §5.3: vars run first).
    press(&mut app, KeyCode::Char('v'));
    assert_eq!(app.input_box().as_ref().map(|i| i.purpose.clone()), Some(InputPurpose::SkillVars));
    type_text(&mut app, "OUT_DIR=\"out $0\"");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Brief, "{} / {:?}", app.status, input_text(&app));
    assert_eq!(app.curate.vars.get("OUT_DIR").map(String::as_str), Some("out $0"));
    press(&mut app, KeyCode::Char('a'));
    type_text(&mut app, "q3.pdf");
    press(&mut app, KeyCode::Enter);
    let b = built(&app);
    assert!(b.text.contains("Write the result to out q3.pdf/summary.md"), "{}", b.text);
    // The prompt shows the values back in a form it parses.
    press(&mut app, KeyCode::Char('v'));
    assert_eq!(input_text(&app), "OUT_DIR=\"out $0\"");
    clear_input(&mut app);
    type_text(&mut app, "1BAD=x");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Input, "a bad name keeps the prompt open");
    assert_eq!(app.status, "not NAME=value: \"1BAD=x\"");
    press(&mut app, KeyCode::Esc);
    // `d`: the base-directory header of the interop design.
    press(&mut app, KeyCode::Char('d'));
    let base = std::fs::canonicalize(dir.join("report-skill")).expect("dir");
    let b = built(&app);
    assert!(
        b.text
            .starts_with(&format!("Base directory for this skill: {}\n\n# Convert a report", base.display())),
        "{}",
        b.text
    );
    press(&mut app, KeyCode::Char('d'));
    assert!(built(&app).text.starts_with("# Convert a report"));
}

#[test]
fn copy_skill_names_selected_items_outside_every_skill() {
    let store = tempfile::tempdir().expect("tmp");
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("mixed");
    copy_dir(&manifest("tests/fixtures/tui_curate/skills"), &root);
    std::fs::write(root.join("NOTES.md"), "# Loose notes\n\nNot part of any skill.\n").expect("write");
    let mut app = app_over(&root, "mixed", 100, 30, store.path());
    let skill = id(&app, "mixed/report-skill");
    let loose = id(&app, "mixed/NOTES.md");
    select(&mut app, &[skill, loose]);
    let copies = press(&mut app, KeyCode::Char('Y'));
    assert_eq!(copies, vec![vec![skill]]);
    assert_eq!(app.status, "Copying the rendered skill… (1 selected item not in a skill, left out)");
    apply(&mut app, WorkerMsg::Copied(Ok("Copied 1.2 kB · 300 tokens (o200k_base)".into())));
    assert_eq!(
        app.status,
        "Copied 1.2 kB · 300 tokens (o200k_base) (1 selected item not in a skill, left out)"
    );
    // The next copy starts without the note.
    press(&mut app, KeyCode::Char('y'));
    apply(&mut app, WorkerMsg::Copied(Ok("Copied 2 kB · 500 tokens (o200k_base)".into())));
    assert_eq!(app.status, "Copied 2 kB · 500 tokens (o200k_base)");
}

#[test]
fn export_writes_the_catalog_when_the_config_asks() {
    let store = tempfile::tempdir().expect("tmp");
    let mut app = app_over(&hono_dir(), "hono-mini", 100, 30, store.path());
    app.settings.brief.export_catalog = true;
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    let out = tempfile::tempdir().expect("tmp");
    let dir = out.path().join("logger-kit");
    export_into(&mut app, &dir);
    assert!(app.status.contains(" · validates clean · "), "{}", app.status);
    let catalog = std::fs::read_to_string(dir.join("assets/catalog.json")).expect("catalog written");
    let v: serde_json::Value = serde_json::from_str(&catalog).expect("json");
    assert!(v.is_object(), "{catalog}");
    // Without the setting (the default) there is none.
    app.settings.brief.export_catalog = false;
    let dir2 = out.path().join("logger-kit-two");
    export_into(&mut app, &dir2);
    assert!(dir2.join("SKILL.md").is_file() && !dir2.join("assets").exists());
}

#[test]
fn export_never_replaces_a_folder_holding_open_files() {
    let store = tempfile::tempdir().expect("tmp");
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("open-skills");
    copy_dir(&manifest("tests/fixtures/tui_curate/skills"), &root);
    let mut app = app_over(&root, "open-skills", 100, 30, store.path());
    let skill = id(&app, "open-skills/report-skill");
    select(&mut app, &[skill]);
    // The open root itself, and a folder above it: refused without a question.
    for target in [root.clone(), tmp.path().to_path_buf()] {
        export_into(&mut app, &target);
        assert_eq!(app.mode(), Mode::Normal, "no replace question for {}", target.display());
        assert!(
            app.status.starts_with(&format!("Export refused: {} holds files open here", target.display())),
            "{}",
            app.status
        );
    }
    assert!(root.join("report-skill/SKILL.md").is_file(), "the sources are untouched");
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
    assert!(err.to_string().contains("holds files that are open in skillnav"), "{err}");
    assert!(root.join("report-skill/SKILL.md").is_file());
}
