//! Exposure levels in the tree: the `x` cycle, inheritance and the level column, own levels
//! of children, levels read from ADR metadata, and always / hidden levels in the brief.

use crossterm::event::KeyCode;
use skillnav::brief::Mode as BriefMode;
use skillnav::brief::{BriefFormat, Request};
use skillnav::curate::exposure::Exposure;
use skillnav::curate::recipe::Recipe;
use skillnav::model::{NodeId, NodeKind};
use skillnav::tui::input::action::Action;
use skillnav::tui::state::app::App;
use skillnav::util::human;

use super::*;
use crate::support::fs::fixture_path;
use crate::support::tui::*;

#[test]
fn exposure_cycles_inherits_to_children_and_shows_a_column() {
    let mut app = hono(120, 30);
    let refs = id(&app, REFERENCES);
    let other = id(&app, OTHER_MD);
    let skill_md = id(&app, "hono-mini/SKILL.md");
    goto(&mut app, refs);
    // Open the folder so its files are rows too.
    act(&mut app, &[Action::Expand]);
    goto(&mut app, refs);
    let before = no_level_column_yet(&app);
    x_cycles_the_levels_and_children_inherit(&mut app, [refs, other, skill_md]);
    own_level_bold_inherited_dim(&app);
    hidden_then_inherit_removes_the_column(&mut app, refs, &before);
}

/// No level is set: neither the folder's row nor its file's has a level column; the
/// folder's row.
fn no_level_column_yet(app: &App) -> String {
    let t = draw(app);
    let before = tree_row(app, t.backend().buffer(), "references").expect("references row");
    let other_before = tree_row(app, t.backend().buffer(), "other.md").expect("other.md row");
    for tag in [" alw ", " dem ", " exp ", " hid ", "   · "] {
        assert!(
            !before.contains(tag) && !other_before.contains(tag),
            "no column yet: {before:?}"
        );
    }

    before
}

/// `x` steps the folder `refs` through the levels: its children (`other`) inherit each,
/// a node outside it (`skill_md`) keeps the default, and the rows show the tags.
fn x_cycles_the_levels_and_children_inherit(app: &mut App, [refs, other, skill_md]: [NodeId; 3]) {
    let below = app.corpus.preorder(refs).len() - 1;
    let steps = [
        (Some(Exposure::Always), Exposure::Always, "alw", "always"),
        (
            Some(Exposure::OnDemand),
            Exposure::OnDemand,
            "dem",
            "on-demand",
        ),
        (
            Some(Exposure::Explicit),
            Exposure::Explicit,
            "exp",
            "explicit",
        ),
        (Some(Exposure::Hidden), Exposure::Hidden, "hid", "hidden"),
    ];
    for (own, level, tag, name) in steps {
        // `x` through the keymap.
        press(app, KeyCode::Char('x'));
        assert_eq!(app.curate.exposure.own(refs), own);
        assert_eq!(app.curate.exposure.level(&app.corpus, refs), level);
        // The children inherit it without a level of their own.
        assert_eq!(app.curate.exposure.own(other), None);
        assert_eq!(app.curate.exposure.level(&app.corpus, other), level);
        assert_eq!(
            app.curate.exposure.level(&app.corpus, skill_md),
            Exposure::OnDemand
        );
        assert_eq!(
            app.status,
            format!(
                "references: {name} (and its {below} descendants that set no level of their own)"
            )
        );
        let t = draw(app);
        let buf = t.backend().buffer();
        let row = tree_row(app, buf, "references").expect("references row");
        assert!(
            row.contains(&format!(" {tag} ")),
            "own level {tag} in {row:?}"
        );
        let child = tree_row(app, buf, "other.md").expect("other.md row");
        assert!(
            child.contains(&format!(" {tag} ")),
            "inherited level {tag} in {child:?}"
        );
        // A node outside the subtree shows the default `·`.
        let md = tree_row(app, buf, "SKILL.md").expect("SKILL.md row");
        assert!(md.contains("   · "), "default level in {md:?}");
    }
}

/// Own level bold (header style), inherited dim; hidden titles dim.
fn own_level_bold_inherited_dim(app: &App) {
    let t = draw(app);
    let buf = t.backend().buffer();
    let a = skillnav::tui::view::layout::areas(app);
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
    assert_eq!(
        buf[(x, y_child)].fg,
        app.theme.dim.fg.expect("dim colour"),
        "inherited tag is dim"
    );
    let x = col_of(y_child, "other.md");
    assert_eq!(
        buf[(x, y_child)].fg,
        app.theme.dim.fg.expect("dim colour"),
        "hidden title is dim"
    );
    let y_md = find("SKILL.md");
    let x = col_of(y_md, "SKILL.md");
    assert_eq!(buf[(x, y_md)].fg, app.theme.title.fg.expect("title colour"));
}

/// Hidden → inherit: the map is empty again and the column goes away.
fn hidden_then_inherit_removes_the_column(app: &mut App, refs: NodeId, before: &str) {
    press(app, KeyCode::Char('x'));
    assert_eq!(app.curate.exposure.own(refs), None);
    assert!(app.curate.exposure.is_empty());
    assert_eq!(app.status, "references: inherits on-demand");
    let t = draw(app);
    assert_eq!(
        tree_row(app, t.backend().buffer(), "references").as_deref(),
        Some(before)
    );
}

#[test]
fn a_childs_own_level_overrides_the_parent_and_hidden_leaves_the_budget() {
    let mut app = hono(120, 30);
    let refs = id(&app, REFERENCES);
    let other = id(&app, OTHER_MD);
    let middleware = id(&app, "hono-mini/references/middleware.md");
    select(&mut app, &[other]);
    let other_tokens = quoted_tokens(&app);
    assert_eq!(app.selection_tokens, (other_tokens, true));
    // references → hidden (4 presses), other.md → explicit (3 presses).
    goto(&mut app, refs);
    for _ in 0..4 {
        act(&mut app, &[Action::CycleExposure]);
    }
    assert_eq!(
        app.curate.exposure.level(&app.corpus, other),
        Exposure::Hidden
    );
    // A hidden selection adds nothing to the brief: 0 tokens beside the budget.
    assert_eq!(app.selection_tokens, (0, true));
    assert!(screen(&app).contains("o200k · sel 1 · 0/20k tok ▱▱▱▱▱▱▱▱"));
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
    assert_eq!(
        app.curate.exposure.level(&app.corpus, section),
        Exposure::Explicit
    );
    assert_eq!(
        app.curate.exposure.level(&app.corpus, middleware),
        Exposure::Hidden
    );
    // Explicit admits a selected node: the tokens are back (the brief now states its
    // levels, so it is the curated layout's, a few tokens more).
    assert!(app.selection_tokens.0 > other_tokens);
    assert_eq!(app.selection_tokens, (quoted_tokens(&app), true));
    let t = draw(&app);
    let buf = t.backend().buffer();
    let row = tree_row(&app, buf, "other.md").expect("row");
    assert!(row.contains(" exp "), "{row:?}");
    let row = tree_row(&app, buf, "middleware.md").expect("row");
    assert!(row.contains(" hid "), "{row:?}");
    let total = human::short_count(other_tokens);
    assert!(
        screen_text(buf).contains(&format!("o200k · sel 1 · {total}/20k tok")),
        "{}",
        screen_text(buf)
    );
}

#[test]
fn adr_levels_from_metadata_show_at_start_and_are_not_saved_in_recipes() {
    let dir = fixture_path("formats2/git-adr/adr-notes");
    let mut app = tui_over(&dir, "adr", 140, 40);
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
    assert_eq!(app.selection_tokens, (quoted_tokens(&app), true));
    // Saved recipes keep only the user's levels.
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "adr");
    press(&mut app, KeyCode::Enter);
    let r = Recipe::read(&app.store().join("adr.json")).expect("saved");
    assert!(r.exposure.is_empty(), "{:?}", r.exposure);
    assert_eq!(r.selected.len(), 1);
    assert!(
        app.status.contains(" · 1 selected · 0 exposure levels → "),
        "{}",
        app.status
    );
}

#[test]
fn always_units_join_the_brief_and_hidden_sections_are_cut_from_it() {
    let mut app = hono(100, 30);
    let skill_md = id(&app, "hono-mini/SKILL.md");
    let logger = id(&app, LOGGER);
    select(&mut app, &[logger]);
    goto(&mut app, skill_md);
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.curate.exposure.own(skill_md), Some(Exposure::Always));
    an_always_file_joins_the_count_and_the_brief(&mut app, logger);
    a_hidden_section_leaves_the_count_and_the_brief(&mut app, logger);
}

/// `SKILL.md` set to always: its text unit joins the count and the brief of the
/// selection (`logger`).
fn an_always_file_joins_the_count_and_the_brief(app: &mut App, logger: NodeId) {
    // The file's text unit (its top section; the frontmatter is no section) is always in.
    let hono_skill = id(app, "hono-mini/SKILL.md#hono-skill");
    assert_eq!(
        app.curate.exposure.always_units(&app.corpus),
        vec![hono_skill]
    );
    // The number beside the budget counts it too.
    let alone = skillnav::brief::selection_brief(&app.corpus, &[logger], None, counter()).sections;
    assert_eq!(alone, 1);
    let want = quoted_tokens(app);
    assert_eq!(app.selection_tokens, (want, true));
    press(app, KeyCode::Char('p'));
    let b = built(app);
    let exposure = app.curate.exposure.clone();
    let req = Request {
        units: vec![logger],
        query: None,
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Md,
        budget: Some(20_000),
        exposure: exposure.clone(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    };
    let core = skillnav::brief::build(&app.corpus, app.index.as_deref(), &req, counter());
    assert_eq!(
        b.text, core.text,
        "a level set: the curated layout, as `skillnav brief`"
    );
    assert_eq!(b.parts, 2);
    assert!(
        b.text.contains("## Logger Middleware") && b.text.contains("# Hono Skill"),
        "{}",
        b.text
    );
    press(app, KeyCode::Esc);
}

/// Hide the CORS section inside a selected file: cut from the count and the text.
fn a_hidden_section_leaves_the_count_and_the_brief(app: &mut App, logger: NodeId) {
    press(app, KeyCode::Char('x')); // SKILL.md: on-demand
    press(app, KeyCode::Char('x')); // explicit
    press(app, KeyCode::Char('x')); // hidden
    press(app, KeyCode::Char('x')); // inherit
    assert!(app.curate.exposure.is_empty());
    let file = id(app, "hono-mini/references/middleware.md");
    let cors = id(app, CORS);
    goto(app, logger);
    act(app, &[Action::ToggleSelect]);
    select(app, &[file]);
    goto(app, cors);
    for _ in 0..4 {
        press(app, KeyCode::Char('x'));
    }
    assert_eq!(app.curate.exposure.own(cors), Some(Exposure::Hidden));
    let cut = quoted_tokens(app);
    assert_eq!(app.selection_tokens, (cut, true));
    // The same brief of the file with no level set (the same curated layout).
    let whole = skillnav::brief::build_in(
        &app.corpus,
        None,
        &Request::new(&[file], None),
        skillnav::brief::Layout::curated(app.curate.format),
        counter(),
    )
    .tokens;
    assert!(
        cut < whole,
        "{cut} < {whole}: the hidden section leaves the count"
    );
    press(app, KeyCode::Char('B'));
    clear_input(app);
    type_text(app, "none");
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('p'));
    let b = built(app);
    assert!(!b.text.contains("## CORS Middleware"), "hidden section cut");
    assert!(b.text.contains("## Logger Middleware"));
    let exposure = app.curate.exposure.clone();
    let req = Request {
        units: vec![file],
        budget: None,
        query: None,
        top_k: 8,
        mode: BriefMode::Auto,
        format: BriefFormat::Md,
        exposure: exposure.clone(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    };
    assert_eq!(
        b.text,
        skillnav::brief::build(&app.corpus, app.index.as_deref(), &req, counter()).text
    );
}

/// `y` and `p` on a hidden section give the core's one "nothing to brief" reason
/// (`skillnav::brief::Request::check`, which `skillnav brief` and the MCP tool apply too)
/// with the key that changes it, and copy nothing.
#[test]
fn a_hidden_section_has_nothing_to_brief_in_the_copy_and_the_preview() {
    let mut app = hono(120, 30);
    let logger = id(&app, LOGGER);
    goto(&mut app, logger);
    app.curate.exposure.set(logger, Some(Exposure::Hidden));
    let said = "Nothing to brief: the section to brief is hidden (x sets another exposure level)";
    let copies = press(&mut app, KeyCode::Char('y'));
    assert!(copies.is_empty(), "{copies:?}");
    assert_eq!(app.status, said);
    assert!(!app.copying);
    press(&mut app, KeyCode::Char('p'));
    assert!(screen(&app).contains(said), "{}", screen(&app));
    let req = Request {
        exposure: app.curate.exposure.clone(),
        ..Request::new(&[logger], None)
    };
    let why = req.check(&app.corpus).expect_err("nothing to brief");
    assert_eq!(
        why.to_string(),
        "nothing to brief: the section to brief is hidden"
    );
}
