//! The brief preview: exactly the core brief in each format and mode, left-out sections,
//! query hits, stale worker results, scrolling.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyModifiers};
use skillnav::brief::Mode as BriefMode;
use skillnav::brief::{BriefFormat, Request};
use skillnav::clipboard::Route;
use skillnav::curate::recipe::Recipe;
use skillnav::tui::effect::Effect;
use skillnav::tui::effects::headless;
use skillnav::tui::effects::worker_msg::WorkerMsg;
use skillnav::tui::input::action::Action;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::app::App;
use skillnav::tui::state::built_text::BuiltText;
use skillnav::tui::update::{apply, update};
use skillnav::util::human;

use super::*;
use crate::support::tui::*;

#[test]
fn brief_preview_shows_the_exact_core_brief_and_copies_it() {
    let mut app = hono(100, 30);
    let (logger, cors) = (id(&app, LOGGER), id(&app, CORS));
    select(&mut app, &[cors, logger]);
    let units = app.selection.units(&app.corpus);
    assert_eq!(units, vec![logger, cors], "document order");
    let core = preview_builds_the_core_brief(&mut app, &units);
    preview_shows_and_scrolls_the_brief(&mut app, &core);
    format_and_mode_keys_rebuild_it(&mut app, &units);
    copy_closes_the_preview_and_copies_the_text_shown(&mut app);
}

/// `p` opens the preview, built by a worker job: exactly the core brief; that brief.
fn preview_builds_the_core_brief(
    app: &mut App,
    units: &[skillnav::model::NodeId],
) -> skillnav::brief::Brief {
    // `p` opens the preview; the text is built by a worker job.
    let a = key_action(app, KeyCode::Char('p'), KeyModifiers::NONE);
    assert_eq!(a, Action::BriefPreview);
    update(app, a);
    assert_eq!(app.mode(), Mode::Brief);
    assert!(
        app.brief_preview()
            .as_ref()
            .is_some_and(|p| p.built.is_none()),
        "building"
    );
    let building = screen(app);
    assert!(building.contains("Building…"), "{building}");
    headless::settle(app);
    let b = built(app);
    // md + auto + no exposure levels: the plain `pack` layout, as `skillnav brief`.
    let core = skillnav::brief::selection_brief(&app.corpus, units, Some(20_000), counter());
    assert_eq!(b.text, core.text);
    assert_eq!(
        (b.bytes, b.tokens, b.parts),
        (core.bytes as u64, core.tokens, 2)
    );
    assert!(b.left_out.is_empty());
    assert_eq!(
        b.label, "brief · md · 2 sections",
        "the plain layout states no mode"
    );
    core
}

/// The popup's title, head line and first body lines show the brief; `j` scrolls it.
fn preview_shows_and_scrolls_the_brief(app: &mut App, core: &skillnav::brief::Brief) {
    let t = draw(app);
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
    assert_eq!(
        p.wrapped,
        skillnav::render::wrap::wrap_text(&core.text, iw as usize)
    );
    assert!(
        head.ends_with(&format!(" 1/{} ", p.wrapped.len())),
        "{head:?}"
    );
    // The body lines are the brief's first lines.
    for (i, line) in p.wrapped.iter().take(ih as usize).enumerate() {
        let shown = span_text(buf, 3 + i as u16, 1, 1 + iw);
        assert_eq!(shown.trim_end(), line.trim_end(), "line {i}");
    }
    // Scrolling moves the window.
    press(app, KeyCode::Char('j'));
    assert_eq!(app.brief_preview().as_ref().map(|p| p.scroll), Some(1));
    let t = draw(app);
    assert_eq!(
        span_text(t.backend().buffer(), 3, 1, 1 + iw).trim_end(),
        p.wrapped[1].trim_end()
    );
}

/// `f` switches to xml (the curated layout with the same request), `m` steps the mode:
/// each rebuilds exactly the core brief of that request.
fn format_and_mode_keys_rebuild_it(app: &mut App, units: &[skillnav::model::NodeId]) {
    // `f`: xml, the curated layout with the same request.
    press(app, KeyCode::Char('f'));
    assert_eq!(app.curate.format, BriefFormat::Xml);
    let b = built(app);
    let exposure = app.curate.exposure.clone();
    let index = app.index.clone();
    let req = Request {
        units: units.to_vec(),
        query: None,
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Xml,
        budget: Some(20_000),
        exposure: exposure.clone(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    };
    let xml = skillnav::brief::build(&app.corpus, index.as_deref(), &req, counter());
    assert!(
        b.text
            .starts_with("<context_brief mode=\"answer\" encoding=\"o200k_base\" sections=\"2\""),
        "{}",
        &b.text[..80]
    );
    assert!(
        b.text.contains(&format!(
            "\n<document id=\"{LOGGER}\" title=\"Logger Middleware\""
        )),
        "{}",
        b.text
    );
    assert_eq!(b.text, xml.text);
    assert_eq!(b.tokens, xml.tokens);
    assert!(screen(app).contains(" Brief preview · xml · auto "));
    // `m`: auto → answer → extract.
    press(app, KeyCode::Char('m'));
    assert_eq!(app.curate.mode, BriefMode::Answer);
    press(app, KeyCode::Char('m'));
    assert_eq!(app.curate.mode, BriefMode::Extract);
    let b = built(app);
    let extract = skillnav::brief::build(
        &app.corpus,
        index.as_deref(),
        &Request {
            mode: BriefMode::Extract,
            ..req.clone()
        },
        counter(),
    );
    assert_eq!(b.text, extract.text);
    assert_ne!(b.text, xml.text, "extract differs from answer");
    assert_eq!(b.label, "brief · xml · extract · 2 sections");
    assert!(screen(app).contains(" Brief preview · xml · extract "));
}

/// `y` closes the popup and queues a copy of exactly the text shown.
fn copy_closes_the_preview_and_copies_the_text_shown(app: &mut App) {
    let shown = built(app);
    press_no_settle(app, KeyCode::Char('y'));
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.brief_preview().is_none());
    assert!(app.copying);
    assert_eq!(app.status, "Copying brief · xml · extract · 2 sections…");
    match app.effects.as_slice() {
        [
            Effect::CopyText {
                built,
                route: Route::Auto,
                ..
            },
        ] => {
            assert_eq!(built.text, shown.text);
            assert!(Arc::ptr_eq(built, &shown), "the very text shown");
        }
        other => panic!("one copy effect expected: {other:?}"),
    }
}

#[test]
fn brief_over_budget_names_what_was_left_out() {
    let mut app = hono(200, 30);
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
    let core = skillnav::brief::selection_brief(&app.corpus, &units, Some(1_000), counter());
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
    let mut app = hono(100, 30);
    let other = id(&app, OTHER_MD);
    goto(&mut app, other);
    press(&mut app, KeyCode::Char('p'));
    let core = skillnav::brief::selection_brief(&app.corpus, &[other], Some(20_000), counter());
    assert_eq!(built(&app).text, core.text);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.brief_preview().is_none());
    assert!(app.effects.is_empty());
}

#[test]
fn query_hits_join_the_brief_and_the_recipe() {
    let mut app = hono(120, 30);
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
    let req = Request {
        units: vec![logger],
        query: Some("cors".into()),
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Md,
        budget: Some(20_000),
        exposure: app.curate.exposure.clone(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    };
    let core = skillnav::brief::build(&app.corpus, app.index.as_deref(), &req, counter());
    assert_eq!(b.text, core.text);
    assert!(b.text.contains("## CORS Middleware"), "a hit of the query");
    let mode = skillnav::brief::effective_mode(BriefMode::Auto, Some("cors")).as_str();
    assert!(
        b.label.starts_with(&format!("brief · md · {mode} · ")),
        "{}",
        b.label
    );
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
    assert_eq!(app.selection_tokens, (quoted_tokens(&app), true));
    press(&mut app, KeyCode::Esc);
    // Saved with the recipe.
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "with-query");
    press(&mut app, KeyCode::Enter);
    let r = Recipe::read(&app.store().join("with-query.json")).expect("saved");
    assert_eq!(r.query.as_deref(), Some("cors"));
    // Loading it in a fresh app sets the query and adds its hits.
    let mut fresh = app_over(&hono_dir(), "hono-mini", 120, 30, app.store());
    load_first_recipe(&mut fresh);
    headless::settle(&mut fresh);
    assert_eq!(fresh.search.query, "cors");
    assert!(fresh.curate.with_query);
}

#[test]
fn stale_preview_texts_are_dropped() {
    let mut app = hono(100, 30);
    let other = id(&app, OTHER_MD);
    goto(&mut app, other);
    press(&mut app, KeyCode::Char('p'));
    let good = built(&app);
    let generation = app
        .brief_preview()
        .as_ref()
        .map(|p| p.generation)
        .expect("preview");
    let stale = BuiltText {
        text: "stale".into(),
        ..(*good).clone()
    };
    apply(
        &mut app,
        WorkerMsg::TextBuilt {
            generation: generation - 1,
            result: Ok(stale),
        },
    );
    assert_eq!(built(&app).text, good.text);
    // A failed build is shown in the header.
    apply(
        &mut app,
        WorkerMsg::TextBuilt {
            generation,
            result: Err("No SKILL.md to render here".into()),
        },
    );
    let t = draw(&app);
    assert!(span_text(t.backend().buffer(), 2, 1, 99).starts_with("No SKILL.md to render here"));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.status, "No SKILL.md to render here");
    assert_eq!(app.mode(), Mode::Brief, "nothing to copy: the popup stays");
}

#[test]
fn preview_scrolls_by_line_page_and_to_the_ends() {
    let mut app = hono(100, 30);
    let file = id(&app, "hono-mini/references/middleware.md");
    goto(&mut app, file);
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('p'));
    let (_, page) = skillnav::tui::view::layout::preview_inner(100, 30);
    let page = page as usize;
    let len = app
        .brief_preview()
        .as_ref()
        .map(|p| p.wrapped.len())
        .expect("preview");
    assert!(len > 3 * page, "a long brief: {len} lines");
    let scroll = |app: &App| {
        app.brief_preview()
            .as_ref()
            .map(|p| p.scroll)
            .expect("preview")
    };
    press(&mut app, KeyCode::PageDown);
    assert_eq!(scroll(&app), page);
    press(&mut app, KeyCode::Char('k'));
    assert_eq!(scroll(&app), page - 1);
    press(&mut app, KeyCode::Char('G'));
    assert_eq!(scroll(&app), len - page, "the last page");
    let t = draw(&app);
    let buf = t.backend().buffer();
    assert!(span_text(buf, 2, 1, 99).ends_with(&format!(" {}/{len} ", len - page + 1)));
    let last = app
        .brief_preview()
        .as_ref()
        .map(|p| p.wrapped[len - 1].clone())
        .expect("preview");
    assert_eq!(
        span_text(buf, 2 + page as u16, 1, 99).trim_end(),
        last.trim_end()
    );
    press(&mut app, KeyCode::Char('g'));
    assert_eq!(scroll(&app), 0);
    press(&mut app, KeyCode::PageUp);
    assert_eq!(scroll(&app), 0);
    // A resize re-wraps at the new width.
    act(&mut app, &[Action::Resize(60, 20)]);
    let (iw, _) = skillnav::tui::view::layout::preview_inner(60, 20);
    let p = app.brief_preview().cloned().expect("preview");
    assert_eq!(p.wrap_width, iw);
    assert_eq!(
        p.wrapped,
        skillnav::render::wrap::wrap_text(&built(&app).text, iw as usize)
    );
    assert!(
        p.wrapped
            .iter()
            .all(|l| unicode_width::UnicodeWidthStr::width(l.as_str()) <= iw as usize)
    );
}
