//! Handlers of the curation actions in the tree (called by `update` only): exposure levels,
//! budget, brief and rendered-skill copies, and the dispatch of the popups' keys (preview in
//! `preview.rs`, prompt and question in `prompt.rs`, recipes in `recipes.rs`). Text is built
//! on a worker ([`super::job`]); this only queues effects.

use std::sync::Arc;

use crate::curate::exposure::Exposure;
use crate::curate::units::{brief_tokens, brief_units};
use crate::model::NodeId;
use crate::tui::action::Action;
use crate::tui::app::{App, Effect, TextPurpose};
use crate::tui::keymap::Mode;
use crate::util::human;

use super::PreviewKind;
use super::job::{TextJob, What, skills_for};
use super::recipes;

pub use super::preview::{
    PREVIEW_MAX_BYTES, apply_preview, open_preview, preview_area, preview_inner, refresh_preview, sync,
};
pub use super::prompt::{ask, open_custom_budget, open_input};

/// Recompute the number beside the budget ([`brief_tokens`]) after the selection, the
/// exposure levels or the token counts changed.
pub fn recount(app: &mut App) {
    let (mut sum, mut complete) =
        brief_tokens(&app.corpus, &app.selection, &app.curate.exposure, &app.tokens);
    // With the query's hits added (`r`): the first QUERY_TOP_K content hits a brief would
    // add (their own text; not hidden or explicit; not inside a selected unit).
    if query(app).is_some() && app.search.view.query.trim() == app.search.query.trim() {
        let c = &app.corpus;
        let units = brief_units(c, &app.selection, &app.curate.exposure);
        let hits = app
            .search
            .view
            .content
            .iter()
            .filter(|h| app.curate.exposure.level(c, h.node).admits(false, true))
            .filter(|h| !units.iter().any(|u| c.is_within(h.node, *u)))
            .take(QUERY_TOP_K);
        for h in hits {
            match app.tokens.own(h.node) {
                Some(t) => sum += t,
                None => complete = false,
            }
        }
    }
    app.selection_tokens = (sum, complete);
}

/// Retrieved sections at most when a brief adds the search query's hits.
pub const QUERY_TOP_K: usize = 8;

/// Take the exposure levels of newly loaded nodes (`meta.exposure`, arena index `first`
/// on, e.g. ADRs are `explicit`) and recount the total beside the budget.
pub fn on_loaded(app: &mut App, first: usize) {
    let corpus = Arc::clone(&app.corpus);
    for (i, n) in corpus.nodes.iter().enumerate().skip(first) {
        if let Some(e) = n.meta.get("exposure").and_then(|v| v.as_str()).and_then(Exposure::parse) {
            app.curate.exposure.set(NodeId(i as u32), Some(e));
        }
    }
    recount(app);
}

/// Loading finished: apply the `--recipe FILE|NAME` of the command line once (a FILE that
/// does not exist yet is where `R` → `s` will save).
pub fn on_load_done(app: &mut App) {
    if !std::mem::take(&mut app.curate.recipe_pending) {
        return;
    }
    if let Some(path) = app.curate.recipe_file.clone() {
        if path.exists() {
            recipes::load_path(app, &path);
        } else {
            app.status = format!("New recipe file {}: R then s saves the selection to it", path.display());
        }
    } else if let Some(name) = app.curate.pending_name.take() {
        let path = app.curate.store.as_ref().map(|s| s.path(&name));
        match path {
            Some(Ok(p)) => recipes::load_path(app, &p),
            Some(Err(e)) => app.status = format!("Cannot load the recipe: {e}"),
            None => app.status = "No user data folder: give --recipe a FILE".into(),
        }
    }
}

/// `x`: the node's own level goes inherit → always → on-demand → explicit → hidden →
/// inherit; the status says what the subtree now gets.
pub fn cycle_exposure(app: &mut App) {
    let Some(id) = app.current_node() else { return };
    let ex = &mut app.curate.exposure;
    let next = match ex.own(id) {
        None => Some(Exposure::Always),
        Some(Exposure::Hidden) => None,
        Some(e) => Some(e.next()),
    };
    ex.set(id, next);
    let corpus = Arc::clone(&app.corpus);
    let level = app.curate.exposure.level(&corpus, id);
    let below = corpus.preorder(id).len() - 1;
    let title = &corpus.node(id).title;
    app.status = match next {
        Some(e) if below > 0 => {
            format!("{title}: {e} (and its {below} descendants that set no level of their own)")
        }
        Some(e) => format!("{title}: {e}"),
        None => format!("{title}: inherits {level}"),
    };
    recount(app);
}

/// `b`: next budget preset, then none, then the first preset again.
pub fn cycle_budget(app: &mut App) {
    let c = &mut app.curate;
    c.budget = match c.budget {
        None => c.presets.first().copied(),
        Some(b) => c.presets.iter().copied().find(|p| *p > b),
    };
    app.status = match c.budget {
        Some(b) => format!("Budget {} tokens", human::short_count(b)),
        None => "No token budget".into(),
    };
    refresh_preview(app);
}

/// Set the budget to `b` (from the prompt).
pub(super) fn set_budget(app: &mut App, b: Option<u64>) {
    app.curate.budget = b;
    app.status = match b {
        Some(1) => "Budget 1 token".into(),
        Some(b) => format!("Budget {} tokens", human::short_count(b)),
        None => "No token budget".into(),
    };
    refresh_preview(app);
}

/// The units a brief of the current state is made of: the selection's, else the current
/// node's.
fn selected_units(app: &App) -> Vec<NodeId> {
    crate::curate::units::selected_units(&app.corpus, &app.selection, app.current_node())
}

fn query(app: &App) -> Option<String> {
    let q = app.search.query.trim();
    (app.curate.with_query && !q.is_empty()).then(|| q.to_string())
}

pub(super) fn job(app: &App, what: What) -> TextJob {
    TextJob {
        corpus: Arc::clone(&app.corpus),
        index: app.index.clone(),
        exposure: app.curate.exposure.clone(),
        encoding: app.encoding(),
        what,
    }
}

fn brief_what(app: &App, units: Vec<NodeId>) -> What {
    What::Brief {
        units,
        query: query(app),
        format: app.curate.format,
        mode: app.curate.mode,
        max_tokens: app.curate.budget,
        top_k: QUERY_TOP_K,
    }
}

fn skills_what(app: &App) -> Option<What> {
    let skills = skills_for(&app.corpus, &app.selection, app.current_node());
    (!skills.is_empty()).then(|| What::Skills {
        skills,
        args: app.curate.args.clone(),
        listing: app.curate.listing,
        vars: app.curate.vars.clone(),
        include_base_dir: app.curate.include_base_dir,
    })
}

/// The job of the preview's kind, or why there is none.
pub(super) fn what_for(app: &App, kind: PreviewKind) -> Result<What, String> {
    match kind {
        PreviewKind::Brief => {
            let units = selected_units(app);
            let alone = query(app).is_none() && app.curate.exposure.always_units(&app.corpus).is_empty();
            let ex = &app.curate.exposure;
            if units.is_empty() && alone {
                Err("Nothing to brief: select sections (Space) or add the query's hits (r)".into())
            } else if alone
                && units
                    .iter()
                    .all(|u| ex.level(&app.corpus, *u) == crate::curate::exposure::Exposure::Hidden)
            {
                Err(format!(
                    "Nothing to brief: the {} hidden (x gives another exposure level)",
                    if units.len() == 1 {
                        "selected section is".to_string()
                    } else {
                        format!("{} selected sections are", units.len())
                    }
                ))
            } else {
                Ok(brief_what(app, units))
            }
        }
        PreviewKind::Skill => {
            skills_what(app).ok_or_else(|| "No skill here: Y renders a skill folder's SKILL.md".into())
        }
    }
}

/// `y`: copy a brief of the selection (or of the current node) with the current format,
/// mode, budget and exposure levels.
pub fn copy_brief(app: &mut App) {
    if app.copying {
        app.status = "A copy is already running…".into();
        return;
    }
    let units = selected_units(app);
    let always = !app.curate.exposure.always_units(&app.corpus).is_empty();
    if units.is_empty() && query(app).is_none() && !always {
        app.status = "Nothing to copy: the selection has no text".into();
        return;
    }
    let ex = &app.curate.exposure;
    if !units.is_empty()
        && query(app).is_none()
        && !always
        && units.iter().all(|u| ex.level(&app.corpus, *u) == Exposure::Hidden)
    {
        app.status = "Nothing to copy: the selection is hidden (x sets another exposure level)".into();
        return;
    }
    app.copying = true;
    app.curate.copy_note.clear();
    app.status = format!("Copying a brief of {}…", human::plural(units.len(), "section"));
    let job = job(app, brief_what(app, units));
    app.curate.generation += 1;
    app.effects.push(Effect::Text {
        generation: app.curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
    });
}

/// `Y`: copy the rendered skill of the current node, or of every selected skill (their
/// listing then each body).
pub fn copy_skill(app: &mut App) {
    if app.copying {
        app.status = "A copy is already running…".into();
        return;
    }
    let Some(what) = skills_what(app) else {
        app.status = "No skill here: Y renders a skill folder's SKILL.md".into();
        return;
    };
    let skills: &[NodeId] = match &what {
        What::Skills { skills, .. } => skills,
        What::Brief { .. } => &[],
    };
    let n = skills.len();
    // Selected items outside every skill are not part of a rendered skill: say so.
    let corpus = &app.corpus;
    let outside = app
        .selection
        .members()
        .filter(|m| !skills.iter().any(|s| corpus.is_within(*m, *s) || corpus.is_within(*s, *m)))
        .count();
    let note = match outside {
        0 => String::new(),
        k => format!(" ({} not in a skill, left out)", human::plural(k, "selected item")),
    };
    app.copying = true;
    app.status = if n == 1 {
        format!("Copying the rendered skill…{note}")
    } else {
        format!("Copying {n} rendered skills…{note}")
    };
    app.curate.copy_note = note;
    let job = job(app, what);
    app.curate.generation += 1;
    app.effects.push(Effect::Text {
        generation: app.curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
    });
}

/// Actions of the curation modes (preview, recipes, prompt, question).
pub fn curate_action(app: &mut App, action: Action) {
    match app.mode {
        Mode::Brief => super::preview::preview_action(app, action),
        Mode::Recipes => recipes::list_action(app, action),
        Mode::Input => super::prompt::input_action(app, action),
        Mode::Ask => super::prompt::ask_action(app, action),
        _ => {}
    }
}
