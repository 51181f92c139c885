//! Saved selections in the TUI: the recipe list popup (`R`), load, save under a
//! name, delete; `--recipe FILE` is listed first, loaded at start, and saving under its name
//! writes that file. Recipes are small JSON files, so this I/O runs in `update`.

use std::path::Path;
use std::sync::Arc;

use crate::curate::exposure::ExposureMap;
use crate::curate::recipe::Recipe;
use crate::tui::input::action::Action;
use crate::tui::input::keymap::Mode;
use crate::tui::state::app::App;
use crate::tui::state::curate::{InputPurpose, Question, RecipeEntry, RecipeList};
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;

/// The entries of the list: the `--recipe FILE` first, then the store's recipes by name.
pub fn entries(app: &App) -> Vec<RecipeEntry> {
    let mut out = Vec::new();
    if let Some(f) = &app.curate.recipe_file {
        let label = f.file_name().map_or_else(
            || f.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        out.push(RecipeEntry {
            label: format!("{label} (--recipe)"),
            path: f.clone(),
        });
    }
    if let Some(store) = &app.curate.store {
        for name in store.list() {
            if let Ok(path) = store.path(&name) {
                if out.iter().any(|e| e.path == path) {
                    continue;
                }
                out.push(RecipeEntry { label: name, path });
            }
        }
    }
    out
}

/// `R`: open the list.
pub fn open(app: &mut App) {
    let entries = entries(app);
    let cursor = app
        .curate
        .recipe_name
        .as_ref()
        .and_then(|n| entries.iter().position(|e| e.label == *n))
        .unwrap_or(0);
    app.popups
        .push(Popup::Recipes(RecipeList { entries, cursor }));
}

/// Keys of the list `list`, taken off the stack (put back unless they close it).
pub fn list_action(app: &mut App, mut list: RecipeList, action: Action) {
    let n = list.entries.len();
    match action {
        Action::MoveDown => list.cursor = (list.cursor + 1).min(n.saturating_sub(1)),
        Action::MoveUp => list.cursor = list.cursor.saturating_sub(1),
        Action::Escape => return,
        Action::Confirm => match list.entries.get(list.cursor).cloned() {
            Some(e) => return load_path(app, &e.path),
            None => app.status = "No saved recipes yet: s saves the current selection".into(),
        },
        Action::RecipeSave => {
            let stem = app
                .curate
                .recipe_file
                .as_ref()
                .and_then(|f| f.file_stem())
                .map(|s| s.to_string_lossy().into_owned());
            let name = app.curate.recipe_name.clone().or(stem).unwrap_or_default();
            app.followups
                .push(Msg::OpenInput(InputPurpose::RecipeName, name));
        }
        Action::RecipeDelete => {
            if let Some(e) = list.entries.get(list.cursor).cloned() {
                app.followups.push(Msg::Ask(Question::DeleteRecipe(e)));
            }
        }
        _ => {}
    }
    app.popups.push(Popup::Recipes(list));
}

/// Load the recipe in `path`: its selection, exposure levels, budget, format, mode and
/// query replace the current ones; changed and missing sections are reported in the status
/// line and the warnings.
pub fn load_path(app: &mut App, path: &Path) {
    let recipe = match Recipe::read(path) {
        Ok(r) => r,
        Err(e) => {
            app.status = format!("Cannot load the recipe: {e}");
            return;
        }
    };
    let corpus = Arc::clone(&app.corpus);
    let applied = recipe.apply(&corpus);
    app.selection = applied.selection.clone();
    app.curate.exposure = applied.exposure.clone();
    // The recipe's budget, "none" included (`max_tokens: null`).
    app.curate.budget = recipe.max_tokens;
    if let Some(f) = recipe
        .format
        .as_deref()
        .and_then(crate::brief::BriefFormat::parse_layout)
    {
        app.curate.format = f;
    }
    if let Some(m) = recipe.mode.as_deref().and_then(crate::brief::Mode::parse) {
        app.curate.mode = m;
    }
    // Query hits are part of the brief only when the recipe has a query.
    match recipe.query.as_deref().filter(|q| !q.trim().is_empty()) {
        Some(q) => {
            app.followups.push(Msg::SetQuery(q.to_string()));
            app.curate.with_query = true;
        }
        None => app.curate.with_query = false,
    }
    app.curate.recipe_name = Some(recipe.name.clone());
    app.followups.push(Msg::Recount);
    // Loading the same recipe again replaces its warnings instead of adding them twice.
    let prefix = format!("recipe {}: ", recipe.name);
    app.warnings.retain(|w| !w.starts_with(&prefix));
    for w in applied.warnings() {
        app.warnings.push(format!("{prefix}{w}"));
    }
    let mut status = format!(
        "Loaded recipe {} · {} selected",
        recipe.name,
        applied.selection.len()
    );
    if !applied.changed.is_empty() {
        status.push_str(&format!(
            " · {} changed since saved: {}",
            applied.changed.len(),
            applied.changed.join(", ")
        ));
    }
    if !applied.missing.is_empty() {
        status.push_str(&format!(
            " · {} missing: {}",
            applied.missing.len(),
            applied.missing.join(", ")
        ));
    }
    app.status = status;
    app.followups.push(Msg::RefreshPreview);
}

/// The recipe of the current state under `name`: selection, the exposure levels that differ
/// from the corpus's own, budget, format, mode and (when added to briefs) the query.
pub fn capture(app: &App, name: &str) -> Recipe {
    let meta = ExposureMap::from_corpus(&app.corpus);
    let mut mine = ExposureMap::new();
    for (id, e) in app.curate.exposure.entries() {
        if meta.own(id) != Some(e) {
            mine.set(id, Some(e));
        }
    }
    let mut r = Recipe::capture(name, &app.corpus, &app.selection, &mine);
    r.max_tokens = app.curate.budget;
    r.format = Some(app.curate.format.as_str().into());
    r.mode = Some(app.curate.mode.as_str().into());
    let q = app.search.query.trim();
    r.query = (app.curate.with_query && !q.is_empty()).then(|| q.to_string());
    r
}

/// Save the current state as recipe `name`: into the `--recipe FILE` when `name` is the name
/// of the recipe loaded from it, else into the store.
pub fn save_named(app: &mut App, name: &str) {
    if !crate::curate::recipe::valid_name(name) {
        app.status = format!(
            "Invalid recipe name {name:?}: 1-64 of A-Z a-z 0-9 - _ . (not starting with . or ending in .json)"
        );
        app.followups
            .push(Msg::OpenInput(InputPurpose::RecipeName, name.to_string()));
        return;
    }
    let recipe = capture(app, name);
    let file_target = app
        .curate
        .recipe_file
        .clone()
        .filter(|f| Recipe::read(f).map_or(!f.exists(), |r| r.name == name));
    let result = match (&file_target, &app.curate.store) {
        (Some(f), _) => recipe.write(f).map(|()| f.clone()),
        (None, Some(store)) => store.save(&recipe),
        (None, None) => {
            app.status = "No user data folder to keep recipes in: start with --recipe FILE".into();
            return;
        }
    };
    match result {
        Ok(path) => {
            app.curate.recipe_name = Some(name.to_string());
            app.status = format!(
                "Saved recipe {name} · {} selected · {} → {}",
                recipe.selected.len(),
                crate::util::human::plural(recipe.exposure.len(), "exposure level"),
                crate::util::sanitize::sanitize_line(&path.display().to_string())
            );
            if app.mode() == Mode::Recipes {
                let entries = entries(app);
                let cursor = entries.iter().position(|e| e.path == path).unwrap_or(0);
                if let Some(Popup::Recipes(list)) = app.popups.last_mut() {
                    *list = RecipeList { entries, cursor };
                }
            }
        }
        Err(e) => app.status = format!("Cannot save the recipe: {e}"),
    }
}

/// Delete the recipe file of `entry` (after the question was answered yes).
pub fn delete(app: &mut App, entry: &RecipeEntry) {
    match std::fs::remove_file(&entry.path) {
        Ok(()) => {
            app.status = format!("Deleted recipe {}", entry.label);
            if app.curate.recipe_name.as_deref() == Some(entry.label.as_str()) {
                app.curate.recipe_name = None;
            }
        }
        Err(e) => app.status = format!("Cannot delete {}: {e}", entry.path.display()),
    }
    if app.mode() == Mode::Recipes {
        let entries = entries(app);
        if let Some(Popup::Recipes(list)) = app.popups.last_mut() {
            let cursor = list.cursor.min(entries.len().saturating_sub(1));
            *list = RecipeList { entries, cursor };
        }
    }
}

/// Loading finished: apply the `--recipe FILE|NAME` of the command line once (a FILE that
/// does not exist yet is where `R` → `s` will save).
pub fn on_load_done(app: &mut App) {
    if !std::mem::take(&mut app.curate.recipe_pending) {
        return;
    }
    if let Some(path) = app.curate.recipe_file.clone() {
        if path.exists() {
            load_path(app, &path);
        } else {
            app.status = format!(
                "New recipe file {}: R then s saves the selection to it",
                path.display()
            );
        }
    } else if let Some(name) = app.curate.pending_name.take() {
        let path = app.curate.store.as_ref().map(|s| s.path(&name));
        match path {
            Some(Ok(p)) => load_path(app, &p),
            Some(Err(e)) => app.status = format!("Cannot load the recipe: {e}"),
            None => app.status = "No user data folder: give --recipe a FILE".into(),
        }
    }
}
