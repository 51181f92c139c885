//! The text jobs of the current state, shared by the copy keys, the brief preview and the
//! number beside the budget: the units a brief of the selection holds, the query whose hits
//! join it, the core's brief [`Request`] of both with the app's settings, and the job for a
//! brief or the rendered skill(s). Reads the app only.

use std::sync::Arc;

use crate::brief::{NothingToBrief, Request};
use crate::model::NodeId;
use crate::tui::effects::text_job::{SkillsText, Text, TextJob, skills_for};
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

/// The job building `text` over the app's corpus, index and encoding.
pub fn job(app: &App, text: Text) -> TextJob {
    TextJob {
        corpus: Arc::clone(&app.corpus),
        index: app.index.clone(),
        encoding: app.encoding(),
        text,
    }
}

/// The brief request of `units` with the app's format, mode, budget, exposure levels and
/// (with `r`) query: the request `skillnav brief --select …` builds for the same choices.
pub fn brief_request(app: &App, units: Vec<NodeId>) -> Request {
    let c = &app.curate;
    Request {
        units,
        query: query(app),
        top_k: QUERY_TOP_K,
        mode: c.mode,
        format: c.format,
        budget: c.budget,
        exposure: c.exposure.clone(),
        ..Request::new(&[], None)
    }
}

/// The status line for a request with nothing to brief: the core's reason and the keys
/// that change it.
pub fn nothing_status(nothing: NothingToBrief) -> String {
    let keys = match nothing {
        NothingToBrief::NoSections => "Space selects sections, r adds the query's hits",
        NothingToBrief::AllHidden(_) => "x sets another exposure level",
    };
    let reason = nothing.to_string();
    let mut chars = reason.chars();
    let capital: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{capital}{} ({keys})", chars.as_str())
}

/// The brief of the current state ([`selected_units`], [`brief_request`]), or the status
/// line saying why there is nothing to brief ([`Request::check`]).
pub fn brief_of_state(app: &App) -> Result<Request, String> {
    let req = brief_request(app, selected_units(app));
    req.check(&app.corpus).map_err(nothing_status)?;
    Ok(req)
}

/// The rendered skill(s) of the selection or the current node, if there is one.
pub fn skills_text(app: &App) -> Option<SkillsText> {
    let skills = skills_for(&app.corpus, &app.selection, app.current_node());
    (!skills.is_empty()).then(|| SkillsText {
        skills,
        args: app.curate.args.clone(),
        listing: app.curate.listing,
        vars: app.curate.vars.clone(),
        include_base_dir: app.curate.include_base_dir,
    })
}

/// The text of the preview's kind, or why there is none.
pub fn text_for(app: &App, kind: PreviewKind) -> Result<Text, String> {
    match kind {
        PreviewKind::Brief => brief_of_state(app).map(Text::Brief),
        PreviewKind::Skill => skills_text(app)
            .map(Text::Skills)
            .ok_or_else(|| "No skill here: Y renders a skill folder's SKILL.md".into()),
        PreviewKind::Agent => Err("The agent listing is built without a worker".into()),
    }
}
