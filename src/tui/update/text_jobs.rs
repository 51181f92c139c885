//! The text jobs of the current state, shared by the copy keys and the brief preview: the
//! units a brief of the selection holds, the query whose hits join it, and the job for a
//! brief or the rendered skill(s). Reads the app only.

use std::sync::Arc;

use crate::model::NodeId;
use crate::tui::effects::text_job::{TextJob, What, skills_for};
use crate::tui::state::app::App;
use crate::tui::state::curate::PreviewKind;

/// Retrieved sections at most when a brief adds the search query's hits.
pub const QUERY_TOP_K: usize = 8;

/// The units a brief of the current state is made of: the selection's, else the current
/// node's.
pub fn selected_units(app: &App) -> Vec<NodeId> {
    crate::curate::units::selected_units(
        &app.corpus,
        &app.selection,
        &app.curate.exposure,
        app.current_node(),
    )
}

/// The search query whose hits join a brief (`r`), if any.
pub fn query(app: &App) -> Option<String> {
    let q = app.search.query.trim();
    (app.curate.with_query && !q.is_empty()).then(|| q.to_string())
}

/// The job building `what` over the app's corpus, index, exposure levels and encoding.
pub fn job(app: &App, what: What) -> TextJob {
    TextJob {
        corpus: Arc::clone(&app.corpus),
        index: app.index.clone(),
        exposure: app.curate.exposure.clone(),
        encoding: app.encoding(),
        what,
    }
}

/// A brief of `units` with the current format, mode, budget and query.
pub fn brief_what(app: &App, units: Vec<NodeId>) -> What {
    What::Brief {
        units,
        query: query(app),
        format: app.curate.format,
        mode: app.curate.mode,
        max_tokens: app.curate.budget,
        top_k: QUERY_TOP_K,
    }
}

/// The rendered skill(s) of the selection or the current node, if there is one.
pub fn skills_what(app: &App) -> Option<What> {
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
pub fn what_for(app: &App, kind: PreviewKind) -> Result<What, String> {
    match kind {
        PreviewKind::Brief => {
            let units = selected_units(app);
            let alone =
                query(app).is_none() && app.curate.exposure.always_units(&app.corpus).is_empty();
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
        PreviewKind::Skill => skills_what(app)
            .ok_or_else(|| "No skill here: Y renders a skill folder's SKILL.md".into()),
        PreviewKind::Agent => Err("The agent listing is built without a worker".into()),
    }
}
