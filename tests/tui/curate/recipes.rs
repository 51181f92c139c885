//! Recipes: save, load, change detection and delete; a recipe file from the command line;
//! the budget round trip.

use std::path::{Path, PathBuf};

use crossterm::event::KeyCode;
use skillnav::brief::BriefFormat;
use skillnav::curate::exposure::Exposure;
use skillnav::curate::recipe::{Recipe, Store};
use skillnav::formats::{LoadOptions, load_root};
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::app::App;
use skillnav::tui::state::curate::InputPurpose;

use super::*;
use crate::support::fs::copy_dir;
use crate::support::tui::*;

#[test]
fn recipe_save_load_change_detection_and_delete() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("hono-mini");
    copy_dir(&hono_dir(), &root);
    let store_dir = tmp.path().join("recipes");
    let mut app = app_over(&root, "hono-mini", 100, 30, &store_dir);
    let tokens_before = select_with_exposure_and_budget(&mut app);
    let file = save_from_the_recipe_list(&mut app, &store_dir);
    assert_saved_recipe(&file);
    a_fresh_app_loads_the_same_state(&root, &store_dir, &app, tokens_before);
    let mut changed = a_changed_section_is_named_on_load(&root, &store_dir, &app);
    delete_from_the_recipe_list(&mut changed, &file);
}

/// Select Logger and `other.md`, make the latter explicit and set the budget; the
/// selection's tokens.
fn select_with_exposure_and_budget(app: &mut App) -> (u64, bool) {
    let (logger, other) = (id(app, LOGGER), id(app, OTHER_MD));
    select(app, &[logger, other]);
    goto(app, other);
    for _ in 0..3 {
        press(app, KeyCode::Char('x'));
    }
    assert_eq!(app.curate.exposure.own(other), Some(Exposure::Explicit));
    press(app, KeyCode::Char('b'));
    assert_eq!(app.curate.budget, Some(8_000));
    app.selection_tokens
}

/// Save the selection from the recipe list (an invalid name first); the recipe's file.
fn save_from_the_recipe_list(app: &mut App, store_dir: &Path) -> PathBuf {
    // R: an empty list; s: name prompt; Enter saves.
    press(app, KeyCode::Char('R'));
    assert_eq!(app.mode(), Mode::Recipes);
    assert_eq!(app.recipe_list().as_ref().map(|l| l.entries.len()), Some(0));
    let text = screen(app);
    assert!(
        text.contains(" Recipes (0) ") && text.contains("No saved recipes yet."),
        "{text}"
    );
    assert!(
        text.contains(&format!("in {}", store_dir.display())),
        "{text}"
    );
    press(app, KeyCode::Char('s'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(input_purpose(app), Some(InputPurpose::RecipeName));
    assert_eq!(input_text(app), "");
    // An invalid name keeps the prompt open.
    type_text(app, ".bad");
    press(app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Input);
    assert!(
        app.status.starts_with("Invalid recipe name \".bad\""),
        "{}",
        app.status
    );
    clear_input(app);
    type_text(app, "hono-pick");
    press(app, KeyCode::Enter);
    let file = store_dir.join("hono-pick.json");
    assert_eq!(
        app.status,
        format!(
            "Saved recipe hono-pick · 2 selected · 1 exposure level → {}",
            file.display()
        )
    );
    assert_eq!(app.mode(), Mode::Recipes, "back in the list");
    let list = app.recipe_list().cloned().expect("list");
    assert_eq!(list.entries.len(), 1);
    assert_eq!(
        (
            list.entries[0].label.as_str(),
            list.entries[0].path.as_path()
        ),
        ("hono-pick", file.as_path())
    );
    let text = screen(app);
    assert!(
        text.contains(" Recipes (1) ") && text.contains("● hono-pick"),
        "{text}"
    );
    press(app, KeyCode::Esc);
    assert_eq!(app.mode(), Mode::Normal);
    file
}

/// The saved file holds the selection, the exposure level, the budget and the format.
fn assert_saved_recipe(file: &Path) {
    let r = Recipe::read(file).expect("saved recipe");
    assert_eq!(r.name, "hono-pick");
    assert_eq!(
        sorted(r.selected.iter().map(|n| n.id.clone()).collect()),
        sorted(vec![LOGGER.into(), OTHER_MD.into()])
    );
    assert_eq!(r.exposure.len(), 1);
    assert_eq!(
        (r.exposure[0].id.as_str(), r.exposure[0].level.as_str()),
        (OTHER_MD, "explicit")
    );
    assert_eq!(r.max_tokens, Some(8_000));
    assert_eq!(
        (r.format.as_deref(), r.mode.as_deref(), r.query.as_deref()),
        (Some("md"), Some("auto"), None)
    );
}

/// A new app over the same files loads the same state as `app`'s.
fn a_fresh_app_loads_the_same_state(
    root: &Path,
    store_dir: &Path,
    app: &App,
    tokens_before: (u64, bool),
) {
    // A new app over the same files loads the same state.
    let mut fresh = app_over(root, "hono-mini", 100, 30, store_dir);
    assert!(fresh.selection.is_empty());
    load_first_recipe(&mut fresh);
    assert_eq!(fresh.status, "Loaded recipe hono-pick · 2 selected");
    assert_eq!(member_ids(&fresh), member_ids(app));
    let other2 = id(&fresh, OTHER_MD);
    assert_eq!(fresh.curate.exposure.own(other2), Some(Exposure::Explicit));
    assert_eq!(fresh.curate.exposure.entries().len(), 1);
    assert_eq!(fresh.curate.budget, Some(8_000));
    assert_eq!(fresh.curate.recipe_name.as_deref(), Some("hono-pick"));
    assert_eq!(fresh.selection_tokens, tokens_before);
    assert!(
        fresh.warnings.iter().all(|w| !w.starts_with("recipe ")),
        "{:?}",
        fresh.warnings
    );
}

/// Edit the selected Logger section on disk: the next load names it as changed; that app.
fn a_changed_section_is_named_on_load(root: &Path, store_dir: &Path, app: &App) -> App {
    // Edit the selected Logger section on disk: the next load names it as changed.
    let md = root.join("references/middleware.md");
    let text = std::fs::read_to_string(&md).expect("read");
    let edited = text.replacen(
        "## Logger Middleware\n",
        "## Logger Middleware\n\nEdited after saving.\n",
        1,
    );
    assert_ne!(text, edited);
    std::fs::write(&md, edited).expect("write");
    let mut changed = app_over(root, "hono-mini", 100, 30, store_dir);
    load_first_recipe(&mut changed);
    assert_eq!(
        changed.status,
        format!("Loaded recipe hono-pick · 2 selected · 1 changed since saved: {LOGGER}")
    );
    assert_eq!(
        member_ids(&changed),
        member_ids(app),
        "a changed section is still selected"
    );
    assert!(
        changed
            .warnings
            .iter()
            .any(|w| w.starts_with("recipe hono-pick: ") && w.contains(LOGGER)),
        "{:?}",
        changed.warnings
    );
    changed
}

/// `d` asks, `y` deletes the recipe (its file too).
fn delete_from_the_recipe_list(changed: &mut App, file: &Path) {
    // d asks, y deletes.
    press(changed, KeyCode::Char('R'));
    press(changed, KeyCode::Char('d'));
    assert_eq!(changed.mode(), Mode::Ask);
    let text = screen(changed);
    assert!(
        text.contains(" Delete recipe? ") && text.contains("Delete hono-pick ("),
        "{text}"
    );
    press(changed, KeyCode::Char('y'));
    assert!(!file.exists());
    assert_eq!(changed.status, "Deleted recipe hono-pick");
    assert_eq!(changed.mode(), Mode::Recipes);
    assert_eq!(
        changed.recipe_list().as_ref().map(|l| l.entries.len()),
        Some(0)
    );
    assert_eq!(changed.curate.recipe_name, None);
}

#[test]
fn recipe_file_from_the_command_line_is_applied_after_loading_and_saved_back() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store_dir = tmp.path().join("recipes");
    let root = hono_dir();
    // Write a recipe with the core API.
    let corpus = load_root(
        &spec(&root, "hono-mini"),
        &LoadOptions::default(),
        &mut |_| {},
    );
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
    assert_eq!(app.selection_tokens, (quoted_tokens(&app), true));
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
        format!(
            "Saved recipe cli-pick · 2 selected · 1 exposure level → {}",
            file.display()
        )
    );
    let saved = Recipe::read(&file).expect("read back");
    assert_eq!(
        sorted(saved.selected.iter().map(|n| n.id.clone()).collect()),
        sorted(vec![CORS.into(), LOGGER.into()])
    );
    assert!(
        Store::new(&store_dir).list().is_empty(),
        "nothing written to the store"
    );
}

#[test]
fn missing_recipe_file_is_created_by_the_first_save() {
    let tmp = tempfile::tempdir().expect("tmp");
    let store_dir = tmp.path().join("recipes");
    let file = tmp.path().join("new-pick.json");
    let mut app = app_with(
        vec![spec(&hono_dir(), "hono-mini")],
        100,
        30,
        &store_dir,
        |app| {
            app.curate.recipe_file = Some(file.clone());
            app.curate.recipe_pending = true;
        },
    );
    assert_eq!(
        app.status,
        format!(
            "New recipe file {}: R then s saves the selection to it",
            file.display()
        )
    );
    assert!(app.selection.is_empty());
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(input_text(&app), "new-pick");
    press(&mut app, KeyCode::Enter);
    let r = Recipe::read(&file).expect("created");
    assert_eq!(r.name, "new-pick");
    assert_eq!(
        r.selected.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(),
        vec![OTHER_MD]
    );
}

/// BUG? (src/tui/curate/recipes.rs `load_path` with `capture`): `capture` writes
/// `max_tokens: null` for "no budget", but `load_path` only sets the budget when
/// `max_tokens` is `Some`, so a recipe saved with no budget loads with whatever budget the
/// app has (20k by default): save → load does not give the same state back.
/// Repro: `b` until none (8k, 4k, none), select a section, `R` `s` `nobudget` Enter; a fresh app:
/// `R` Enter → `app.curate.budget == Some(20000)`, expected `None`.
#[test]
fn a_recipe_saved_without_a_budget_loads_without_one() {
    let mut app = hono(100, 30);
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('b'));
    }
    assert_eq!(app.curate.budget, None);
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    press(&mut app, KeyCode::Char('R'));
    press(&mut app, KeyCode::Char('s'));
    type_text(&mut app, "nobudget");
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        Recipe::read(&app.store().join("nobudget.json"))
            .expect("saved")
            .max_tokens,
        None
    );
    let mut fresh = app_over(&hono_dir(), "hono-mini", 100, 30, app.store());
    assert_eq!(fresh.curate.budget, Some(20_000));
    load_first_recipe(&mut fresh);
    assert_eq!(fresh.curate.budget, None);
}
