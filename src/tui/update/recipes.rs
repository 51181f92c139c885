//! Saved selections in the TUI: the recipe list popup (`R`), load, save under a
//! name, delete; `--recipe FILE` is listed first, loaded at start, and saving under its name
//! writes that file. Recipes are small JSON files, so this I/O runs in `update`.

use std::path::Path;

use crate::curate::exposure::ExposureMap;
use crate::curate::recipe::Recipe;
use crate::model::{Corpus, Selection};
use crate::tui::input::action::Action;
use crate::tui::state::curate::{Curate, InputPurpose, Question, RecipeEntry, RecipeList};
use crate::tui::state::followup::Msg;
use crate::tui::state::popup::Popup;
use crate::tui::state::search::SearchState;

use super::ctx::Ctx;

/// What loading a recipe replaces: the selection, the curation settings (exposure levels,
/// budget, format, mode, recipe name) and the recipe's warnings.
pub struct Target<'a> {
    /// The user's selection.
    pub selection: &'a mut Selection,
    /// Curation settings.
    pub curate: &'a mut Curate,
    /// Warnings shown in the status line count.
    pub warnings: &'a mut Vec<String>,
}

/// The recipe list when it is the top popup of `popups` (the one to refresh after a save
/// or a delete).
pub fn top_list(popups: &mut [Popup]) -> Option<&mut RecipeList> {
    match popups.last_mut() {
        Some(Popup::Recipes(list)) => Some(list),
        _ => None,
    }
}

/// The entries of the list: the `--recipe FILE` first, then the store's recipes by name.
pub fn entries(curate: &Curate) -> Vec<RecipeEntry> {
    let mut out = Vec::new();
    if let Some(f) = &curate.recipe_file {
        let label = f.file_name().map_or_else(
            || f.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        out.push(RecipeEntry {
            label: format!("{label} (--recipe)"),
            path: f.clone(),
        });
    }
    if let Some(store) = &curate.store {
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

/// `R`: the list popup, the cursor on the loaded recipe.
pub fn open(curate: &Curate) -> Popup {
    let entries = entries(curate);
    let cursor = curate
        .recipe_name
        .as_ref()
        .and_then(|n| entries.iter().position(|e| e.label == *n))
        .unwrap_or(0);
    Popup::Recipes(RecipeList { entries, cursor })
}

/// Keys of the list `list`, taken off the stack: the list to put back, or `None` when the
/// key closes it (`Enter` loads the recipe into `target` from `corpus`).
pub fn list_action(
    mut list: RecipeList,
    action: Action,
    corpus: &Corpus,
    target: &mut Target,
    ctx: &mut Ctx,
) -> Option<RecipeList> {
    let n = list.entries.len();
    match action {
        Action::MoveDown => list.cursor = (list.cursor + 1).min(n.saturating_sub(1)),
        Action::MoveUp => list.cursor = list.cursor.saturating_sub(1),
        Action::Escape => return None,
        Action::Confirm => match list.entries.get(list.cursor).cloned() {
            Some(e) => {
                load_path(&e.path, corpus, target, ctx);
                return None;
            }
            None => ctx.say("No saved recipes yet: s saves the current selection"),
        },
        Action::RecipeSave => {
            let stem = target
                .curate
                .recipe_file
                .as_ref()
                .and_then(|f| f.file_stem())
                .map(|s| s.to_string_lossy().into_owned());
            let name = target
                .curate
                .recipe_name
                .clone()
                .or(stem)
                .unwrap_or_default();
            ctx.follow(Msg::OpenInput(InputPurpose::RecipeName, name));
        }
        Action::RecipeDelete => {
            if let Some(e) = list.entries.get(list.cursor).cloned() {
                ctx.follow(Msg::Ask(Question::DeleteRecipe(e)));
            }
        }
        _ => {}
    }
    Some(list)
}

/// Load the recipe in `path`: its selection, exposure levels, budget, format, mode and
/// query replace the current ones; changed and missing sections are reported in the status
/// line and the warnings.
pub fn load_path(path: &Path, corpus: &Corpus, target: &mut Target, ctx: &mut Ctx) {
    let recipe = match Recipe::read(path) {
        Ok(r) => r,
        Err(e) => {
            ctx.say(format!("Cannot load the recipe: {e}"));
            return;
        }
    };
    let applied = recipe.apply(corpus);
    *target.selection = applied.selection.clone();
    let curate = &mut *target.curate;
    curate.exposure = applied.exposure.clone();
    // The recipe's budget, "none" included (`max_tokens: null`).
    curate.budget = recipe.max_tokens;
    if let Some(f) = recipe
        .format
        .as_deref()
        .and_then(crate::brief::BriefFormat::parse_layout)
    {
        curate.format = f;
    }
    if let Some(m) = recipe.mode.as_deref().and_then(crate::brief::Mode::parse) {
        curate.mode = m;
    }
    // Query hits are part of the brief only when the recipe has a query.
    match recipe.query.as_deref().filter(|q| !q.trim().is_empty()) {
        Some(q) => {
            ctx.follow(Msg::SetQuery(q.to_string()));
            curate.with_query = true;
        }
        None => curate.with_query = false,
    }
    curate.recipe_name = Some(recipe.name.clone());
    ctx.follow(Msg::Recount);
    // Loading the same recipe again replaces its warnings instead of adding them twice.
    let prefix = format!("recipe {}: ", recipe.name);
    target.warnings.retain(|w| !w.starts_with(&prefix));
    for w in applied.warnings() {
        target.warnings.push(format!("{prefix}{w}"));
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
    ctx.say(status);
    ctx.follow(Msg::RefreshPreview);
}

/// The recipe of the current state under `name`: `selection` of `corpus`, the exposure
/// levels of `curate` that differ from the corpus's own, budget, format, mode and (when
/// added to briefs) the query of `search`.
pub fn capture(
    name: &str,
    corpus: &Corpus,
    selection: &Selection,
    search: &SearchState,
    curate: &Curate,
) -> Recipe {
    let meta = ExposureMap::from_corpus(corpus);
    let mut mine = ExposureMap::new();
    for (id, e) in curate.exposure.entries() {
        if meta.own(id) != Some(e) {
            mine.set(id, Some(e));
        }
    }
    let mut r = Recipe::capture(name, corpus, selection, &mine);
    r.max_tokens = curate.budget;
    r.format = Some(curate.format.as_str().into());
    r.mode = Some(curate.mode.as_str().into());
    let q = search.query.trim();
    r.query = (curate.with_query && !q.is_empty()).then(|| q.to_string());
    r
}

/// Save the current state, `recipe` ([`capture`]d under `name`): into the `--recipe FILE`
/// when `name` is the name of the recipe loaded from it, else into the store; the open list
/// (`list`, the top popup) shows it. An invalid name opens the prompt again.
pub fn save_named(
    name: &str,
    recipe: Recipe,
    curate: &mut Curate,
    list: Option<&mut RecipeList>,
    ctx: &mut Ctx,
) {
    if !crate::curate::recipe::valid_name(name) {
        ctx.say(format!(
            "Invalid recipe name {name:?}: 1-64 of A-Z a-z 0-9 - _ . (not starting with . or ending in .json)"
        ));
        ctx.follow(Msg::OpenInput(InputPurpose::RecipeName, name.to_string()));
        return;
    }
    let file_target = curate
        .recipe_file
        .clone()
        .filter(|f| Recipe::read(f).map_or(!f.exists(), |r| r.name == name));
    let result = match (&file_target, &curate.store) {
        (Some(f), _) => recipe.write(f).map(|()| f.clone()),
        (None, Some(store)) => store.save(&recipe),
        (None, None) => {
            ctx.say("No user data folder to keep recipes in: start with --recipe FILE");
            return;
        }
    };
    match result {
        Ok(path) => {
            curate.recipe_name = Some(name.to_string());
            *ctx.status = format!(
                "Saved recipe {name} · {} selected · {} → {}",
                recipe.selected.len(),
                crate::util::human::plural(recipe.exposure.len(), "exposure level"),
                crate::util::sanitize::sanitize_line(&path.display().to_string())
            );
            if let Some(list) = list {
                let entries = entries(curate);
                let cursor = entries.iter().position(|e| e.path == path).unwrap_or(0);
                *list = RecipeList { entries, cursor };
            }
        }
        Err(e) => ctx.say(format!("Cannot save the recipe: {e}")),
    }
}

/// Delete the recipe file of `entry` (after the question was answered yes); the open list
/// (`list`, the top popup) no longer shows it.
pub fn delete(
    entry: &RecipeEntry,
    curate: &mut Curate,
    list: Option<&mut RecipeList>,
    ctx: &mut Ctx,
) {
    match std::fs::remove_file(&entry.path) {
        Ok(()) => {
            ctx.say(format!("Deleted recipe {}", entry.label));
            if curate.recipe_name.as_deref() == Some(entry.label.as_str()) {
                curate.recipe_name = None;
            }
        }
        Err(e) => ctx.say(format!("Cannot delete {}: {e}", entry.path.display())),
    }
    if let Some(list) = list {
        let entries = entries(curate);
        let cursor = list.cursor.min(entries.len().saturating_sub(1));
        *list = RecipeList { entries, cursor };
    }
}

/// Loading finished: apply the `--recipe FILE|NAME` of the command line once (a FILE that
/// does not exist yet is where `R` → `s` will save) to `target`, from `corpus`.
pub fn on_load_done(corpus: &Corpus, target: &mut Target, ctx: &mut Ctx) {
    if !std::mem::take(&mut target.curate.recipe_pending) {
        return;
    }
    if let Some(path) = target.curate.recipe_file.clone() {
        if path.exists() {
            load_path(&path, corpus, target, ctx);
        } else {
            ctx.say(format!(
                "New recipe file {}: R then s saves the selection to it",
                path.display()
            ));
        }
    } else if let Some(name) = target.curate.pending_name.take() {
        let path = target.curate.store.as_ref().map(|s| s.path(&name));
        match path {
            Some(Ok(p)) => load_path(&p, corpus, target, ctx),
            Some(Err(e)) => ctx.say(format!("Cannot load the recipe: {e}")),
            None => ctx.say("No user data folder: give --recipe a FILE"),
        }
    }
}
