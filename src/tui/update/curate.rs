//! Handlers of the curation actions in the tree: selecting, exposure levels, the budget,
//! brief and rendered-skill copies, and the total beside the budget ([`recount`]). Text is
//! built on a worker ([`crate::tui::effects::text_job`]); this only queues effects.

use std::sync::Arc;

use crate::curate::exposure::Exposure;
use crate::curate::units::{brief_tokens, query_hit_tokens};
use crate::model::NodeId;
use crate::tui::effect::{Effect, TextPurpose};
use crate::tui::effects::text_job::Text;
use crate::tui::state::app::App;
use crate::tui::state::followup::Msg;
use crate::util::human;

use super::text_jobs::{QUERY_TOP_K, brief_of_state, brief_request, job, query, skills_text};

/// Recompute the number beside the budget after the selection, the exposure levels, the
/// token counts or (with `r`) the query's hits changed: at once the estimate from the
/// counted node sizes ([`brief_tokens`], shown with `…`), then, once every part is counted,
/// the exact tokens of the brief `y` copies, packed under the budget, from a worker
/// ([`crate::tui::effects::text_job::brief_size`]), so the top bar, the brief preview and
/// `skillnav brief` say the same (docs/DESIGN.md §6).
pub fn recount(app: &mut App) {
    let (mut sum, mut complete) = brief_tokens(
        &app.corpus,
        &app.selection,
        &app.curate.exposure,
        &app.tokens,
    );
    // With the query's hits added (`r`): the first QUERY_TOP_K content hits a brief would
    // add (their own text; not hidden or explicit; not inside a selected unit).
    if query(app).is_some() && app.search.view.query.trim() == app.search.query.trim() {
        let hits: Vec<NodeId> = app.search.view.content.iter().map(|h| h.node).collect();
        let ex = &app.curate.exposure;
        let (more, counted) = query_hit_tokens(
            &app.corpus,
            &app.selection,
            ex,
            &hits,
            QUERY_TOP_K,
            &app.tokens,
        );
        sum += more;
        complete &= counted;
    }
    app.count_gen += 1;
    app.brief_left_out = 0;
    let units =
        crate::curate::units::selection_units(&app.corpus, &app.selection, &app.curate.exposure);
    let req = brief_request(app, units);
    // Nothing a brief would hold (all hidden, or nothing selected): nothing is sent.
    if req.check(&app.corpus).is_err() {
        app.selection_tokens = (sum, complete);
        return;
    }
    app.selection_tokens = (sum, false);
    if complete {
        app.effects.push(Effect::CountBrief {
            generation: app.count_gen,
            job: Box::new(job(app, Text::Brief(req))),
        });
    }
}

/// Take the exposure levels of newly loaded nodes (`meta.exposure`, arena index `first`
/// on, e.g. ADRs are `explicit`) and recount the total beside the budget.
pub fn on_loaded(app: &mut App, first: usize) {
    let corpus = Arc::clone(&app.corpus);
    for (i, n) in corpus.nodes.iter().enumerate().skip(first) {
        if let Some(e) = n
            .meta
            .get("exposure")
            .and_then(|v| v.as_str())
            .and_then(Exposure::parse)
        {
            app.curate.exposure.set(NodeId(i as u32), Some(e));
        }
    }
    recount(app);
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
}

/// `b`: the next smaller budget preset (from a typed budget too), then none, then the
/// largest preset again: 100k → 20k → 8k → 4k → none → 100k with the default presets, so
/// tightening a brief is one press away (docs/DESIGN.md §5).
pub fn cycle_budget(app: &mut App) {
    let c = &mut app.curate;
    c.budget = match c.budget {
        None => c.presets.iter().copied().max(),
        Some(b) => c.presets.iter().copied().filter(|p| *p < b).max(),
    };
    app.status = match c.budget {
        Some(b) => format!("Budget {} tokens", human::short_count(b)),
        None => "No token budget".into(),
    };
    app.followups.push(Msg::RefreshPreview);
}

/// Set the budget to `b` (typed in the prompt).
pub fn set_budget(app: &mut App, b: Option<u64>) {
    app.curate.budget = b;
    app.status = match b {
        Some(1) => "Budget 1 token".into(),
        Some(b) => format!("Budget {} tokens", human::short_count(b)),
        None => "No token budget".into(),
    };
    app.followups.push(Msg::RefreshPreview);
    app.followups.push(Msg::Recount);
}

/// `y`: copy a brief of the selection (or of the current node) with the current format,
/// mode, budget and exposure levels.
pub fn copy_brief(app: &mut App) {
    if app.copying {
        app.status = "A copy is already running…".into();
        return;
    }
    let req = match brief_of_state(app) {
        Ok(req) => req,
        Err(why) => {
            app.status = why;
            return;
        }
    };
    app.copying = true;
    app.curate.copy_note.clear();
    app.status = format!(
        "Copying a brief of {}…",
        human::plural(req.units.len(), "section")
    );
    let job = job(app, Text::Brief(req));
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
    let Some(what) = skills_text(app) else {
        app.status = "No skill here: Y renders a skill folder's SKILL.md".into();
        return;
    };
    let skills: &[NodeId] = &what.skills;
    let n = skills.len();
    // Selected items outside every skill are not part of a rendered skill: say so.
    let corpus = &app.corpus;
    let outside = app
        .selection
        .members()
        .filter(|m| {
            !skills
                .iter()
                .any(|s| corpus.is_within(*m, *s) || corpus.is_within(*s, *m))
        })
        .count();
    let note = match outside {
        0 => String::new(),
        k => format!(
            " ({} not in a skill, left out)",
            human::plural(k, "selected item")
        ),
    };
    app.copying = true;
    app.status = if n == 1 {
        format!("Copying the rendered skill…{note}")
    } else {
        format!("Copying {n} rendered skills…{note}")
    };
    app.curate.copy_note = note;
    let job = job(app, Text::Skills(what));
    app.curate.generation += 1;
    app.effects.push(Effect::Text {
        generation: app.curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
    });
}

/// Space: select or deselect the current node and its subtree.
pub fn toggle_select(app: &mut App) {
    let Some(id) = app.current_node() else { return };
    let corpus = Arc::clone(&app.corpus);
    app.selection.toggle(&corpus, id);
    let verb = match app.selection.mark(&corpus, id) {
        crate::model::Mark::Full => "Selected",
        _ => "Deselected",
    };
    // The total is counted again after this action; the status names it then.
    app.followups.push(Msg::SelectionStatus(format!(
        "{verb} {}",
        corpus.node(id).title
    )));
}
