//! Headless screen and flow tests of curation in the TUI, one file per feature:
//! exposure levels in the tree, the budget bar, the brief / rendered-skill preview, recipes,
//! export, disclosure layers, copies and the oversize-copy question, robustness. Driven
//! through the real `update` / worker-result paths (`tui::headless`), drawn on `TestBackend`;
//! expected texts are computed with the core APIs (`brief`, `render_skill`, `layers`,
//! `listing`, `recipe`) independently of the TUI.
//!
//! Fixtures: `tests/fixtures/tui_curate/` (hand-made skills, see its SOURCE.md), and read-only
//! `tests/fixtures/tui/hono-mini` and `tests/fixtures/formats/skills`; tests that write work
//! on temporary copies.

mod brief;
mod budget;
mod copy;
mod export;
mod exposure;
mod layers;
mod recipes;
mod robust;
mod skill;

use std::path::PathBuf;
use std::sync::Arc;

use crossterm::event::KeyCode;
use skillnav::tokens::{Encoding, TokenCounter};
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::app::App;
use skillnav::tui::state::built_text::BuiltText;

use crate::support::fs::fixture_path;
use crate::support::tui::{Tui, press, tui_over};

const LOGGER: &str = "hono-mini/references/middleware.md#hono_docs---middleware/logger-middleware";
const CORS: &str = "hono-mini/references/middleware.md#hono_docs---middleware/cors-middleware";
const MIDDLEWARE: &str = "hono-mini/references/middleware.md#hono_docs---middleware/middleware";
const OTHER_MD: &str = "hono-mini/references/other.md";
const REFERENCES: &str = "hono-mini/references";

/// The read-only hono-mini skill (a SKILL.md and two reference files).
fn hono_dir() -> PathBuf {
    fixture_path("tui/hono-mini")
}

/// An app of `w`×`h` cells over the hono-mini fixture, with its own recipe folder.
fn hono(w: u16, h: u16) -> Tui {
    tui_over(&hono_dir(), "hono-mini", w, h)
}

/// The o200k counter the apps count with.
fn counter() -> TokenCounter {
    TokenCounter::new(Encoding::O200kBase)
}

/// The number beside the budget for `app`'s selection, levels, format, mode and budget (and
/// the query's hits with `r`): the tokens of the core brief, packed under the budget, the
/// text `y` copies (docs/DESIGN.md §6).
fn quoted_tokens(app: &App) -> u64 {
    let units =
        skillnav::curate::units::selection_units(&app.corpus, &app.selection, &app.curate.exposure);
    let query = app.search.query.trim();
    let req = skillnav::brief::Request {
        units,
        query: (app.curate.with_query && !query.is_empty()).then(|| query.to_string()),
        top_k: 8,
        mode: app.curate.mode,
        format: app.curate.format,
        budget: app.curate.budget,
        exposure: app.curate.exposure.clone(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    };
    skillnav::brief::build(&app.corpus, app.index.as_deref(), &req, counter()).tokens
}

/// `v` sorted.
fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The string ids of the selection's members, sorted.
fn member_ids(app: &App) -> Vec<String> {
    sorted(app.selection.members().map(|n| app.corpus.id(n)).collect())
}

/// Open the recipe list and load the entry under the cursor.
fn load_first_recipe(app: &mut App) {
    press(app, KeyCode::Char('R'));
    assert_eq!(app.mode(), Mode::Recipes);
    press(app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
}

/// A 200 kB, 40k-token brief text: over the OSC 52 limit.
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
