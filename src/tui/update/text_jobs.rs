//! The text jobs of the current state, shared by the copy keys, the brief preview and the
//! number beside the budget: the units a brief of the selection holds, the query whose hits
//! join it, the core's brief [`Request`] of both with the app's settings, and the job for a
//! brief or the rendered skill(s). Reads the state only ([`Source`] and the curation
//! settings).

use std::sync::Arc;

use crate::brief::{NothingToBrief, Request};
use crate::model::{NodeId, Selection};
use crate::tui::effects::text_job::{SkillsText, Text, TextJob, skills_for};
use crate::tui::state::curate::{Curate, PreviewKind};
use crate::tui::state::search::SearchState;

use super::ctx::{Panes, Shared};

/// Retrieved sections at most when a brief adds the search query's hits.
pub const QUERY_TOP_K: usize = 8;

/// What the text of the current state is built from, besides the curation settings: the
/// shared data, the selection, the search (its query joins a brief with `r`) and the
/// current node.
pub struct Source<'a> {
    /// The corpus, index, encoding and settings.
    pub shared: &'a Shared<'a>,
    /// The user's selection.
    pub selection: &'a Selection,
    /// The search box and results.
    pub search: &'a SearchState,
    /// The node the preview shows (a brief of it when nothing is selected).
    pub current: Option<NodeId>,
}

impl<'a> Source<'a> {
    /// The source of `shared`, `panes` (the search and the current node) and `selection`.
    pub fn new(shared: &'a Shared<'a>, panes: &'a Panes<'a>, selection: &'a Selection) -> Self {
        Source {
            shared,
            selection,
            search: panes.search,
            current: panes.current_node(),
        }
    }
}

/// The units a brief of the current state is made of: the selection's, else the current
/// node's.
pub fn selected_units(src: &Source, curate: &Curate) -> Vec<NodeId> {
    crate::curate::units::selected_units(
        src.shared.corpus,
        src.selection,
        &curate.exposure,
        src.current,
    )
}

/// The search query whose hits join a brief (`r`), if any.
pub fn query(search: &SearchState, curate: &Curate) -> Option<String> {
    let q = search.query.trim();
    (curate.with_query && !q.is_empty()).then(|| q.to_string())
}

/// The job building `text` over the corpus, index and encoding of `shared`.
pub fn job(shared: &Shared, text: Text) -> TextJob {
    TextJob {
        corpus: Arc::clone(shared.corpus),
        index: shared.index.cloned(),
        encoding: shared.encoding(),
        text,
    }
}

/// The brief request of `units` with the format, mode, budget, exposure levels of `curate`
/// and (with `r`) the query of `search`: the request `skillnav brief --select …` builds
/// for the same choices.
pub fn brief_request(search: &SearchState, curate: &Curate, units: Vec<NodeId>) -> Request {
    let c = curate;
    Request {
        units,
        query: query(search, curate),
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
pub fn brief_of_state(src: &Source, curate: &Curate) -> Result<Request, String> {
    let req = brief_request(src.search, curate, selected_units(src, curate));
    req.check(src.shared.corpus).map_err(nothing_status)?;
    Ok(req)
}

/// The rendered skill(s) of the selection or the current node, if there is one.
pub fn skills_text(src: &Source, curate: &Curate) -> Option<SkillsText> {
    let skills = skills_for(src.shared.corpus, src.selection, src.current);
    (!skills.is_empty()).then(|| SkillsText {
        skills,
        args: curate.args.clone(),
        listing: curate.listing,
        vars: curate.vars.clone(),
        include_base_dir: curate.include_base_dir,
    })
}

/// The text of the preview's kind, or why there is none.
pub fn text_for(src: &Source, curate: &Curate, kind: PreviewKind) -> Result<Text, String> {
    match kind {
        PreviewKind::Brief => brief_of_state(src, curate).map(Text::Brief),
        PreviewKind::Skill => skills_text(src, curate)
            .map(Text::Skills)
            .ok_or_else(|| "No skill here: Y renders a skill folder's SKILL.md".into()),
        PreviewKind::Agent => Err("The agent listing is built without a worker".into()),
    }
}
