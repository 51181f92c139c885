//! Handlers of the curation actions in the tree: selecting, exposure levels, the budget,
//! brief and rendered-skill copies, and the total beside the budget ([`recount`]). Text is
//! built on a worker ([`crate::tui::effects::text_job`]); this only queues effects.

use crate::curate::exposure::Exposure;
use crate::curate::units::{brief_tokens, query_hit_tokens};
use crate::model::{Corpus, NodeId, Selection};
use crate::tui::effect::{Effect, TextPurpose};
use crate::tui::effects::text_job::Text;
use crate::tui::state::curate::Curate;
use crate::tui::state::followup::Msg;
use crate::util::human;

use super::ctx::{Ctx, Total};
use super::text_jobs::{
    QUERY_TOP_K, Source, brief_of_state, brief_request, job, query, skills_text,
};

/// Recompute the number beside the budget after the selection, the exposure levels, the
/// token counts or (with `r`) the query's hits changed: at once the estimate from the
/// counted node sizes ([`brief_tokens`], shown with `…`), then, once every part is counted,
/// the exact tokens of the brief `y` copies, packed under the budget, from a worker
/// ([`crate::tui::effects::text_job::brief_size`]), so the top bar, the brief preview and
/// `skillnav brief` say the same (docs/DESIGN.md §6).
pub fn recount(src: &Source, curate: &Curate, total: &mut Total, ctx: &mut Ctx) {
    let (shared, search) = (src.shared, src.search);
    let corpus = shared.corpus;
    let (mut sum, mut complete) =
        brief_tokens(corpus, src.selection, &curate.exposure, shared.tokens);
    // With the query's hits added (`r`): the first QUERY_TOP_K content hits a brief would
    // add (their own text; not hidden or explicit; not inside a selected unit).
    if query(search, curate).is_some() && search.view.query.trim() == search.query.trim() {
        let hits: Vec<NodeId> = search.view.content.iter().map(|h| h.node).collect();
        let ex = &curate.exposure;
        let (more, counted) =
            query_hit_tokens(corpus, src.selection, ex, &hits, QUERY_TOP_K, shared.tokens);
        sum += more;
        complete &= counted;
    }
    *total.generation += 1;
    *total.left_out = 0;
    let units = crate::curate::units::selection_units(corpus, src.selection, &curate.exposure);
    let req = brief_request(search, curate, units);
    // Nothing a brief would hold (all hidden, or nothing selected): nothing is sent.
    if req.check(corpus).is_err() {
        *total.tokens = (sum, complete);
        return;
    }
    *total.tokens = (sum, false);
    if complete {
        ctx.queue(Effect::CountBrief {
            generation: *total.generation,
            job: Box::new(job(shared, Text::Brief(req))),
        });
    }
}

/// Take the exposure levels of nodes newly loaded into `corpus` (`meta.exposure`, arena
/// index `first` on, e.g. ADRs are `explicit`); the caller recounts the total beside the
/// budget.
pub fn take_levels(curate: &mut Curate, corpus: &Corpus, first: usize) {
    for (i, n) in corpus.nodes.iter().enumerate().skip(first) {
        if let Some(e) = n
            .meta
            .get("exposure")
            .and_then(|v| v.as_str())
            .and_then(Exposure::parse)
        {
            curate.exposure.set(NodeId(i as u32), Some(e));
        }
    }
}

/// `x`: the own level of `current` (a node of `corpus`) goes inherit → always → on-demand
/// → explicit → hidden → inherit; the status says what the subtree now gets.
pub fn cycle_exposure(
    curate: &mut Curate,
    corpus: &Corpus,
    current: Option<NodeId>,
    ctx: &mut Ctx,
) {
    let Some(id) = current else { return };
    let ex = &mut curate.exposure;
    let next = match ex.own(id) {
        None => Some(Exposure::Always),
        Some(Exposure::Hidden) => None,
        Some(e) => Some(e.next()),
    };
    ex.set(id, next);
    let level = curate.exposure.level(corpus, id);
    let below = corpus.preorder(id).len() - 1;
    let title = &corpus.node(id).title;
    *ctx.status = match next {
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
pub fn cycle_budget(curate: &mut Curate, ctx: &mut Ctx) {
    let c = curate;
    c.budget = match c.budget {
        None => c.presets.iter().copied().max(),
        Some(b) => c.presets.iter().copied().filter(|p| *p < b).max(),
    };
    *ctx.status = match c.budget {
        Some(b) => format!("Budget {} tokens", human::short_count(b)),
        None => "No token budget".into(),
    };
    ctx.follow(Msg::RefreshPreview);
}

/// Set the budget to `b` (typed in the prompt).
pub fn set_budget(curate: &mut Curate, b: Option<u64>, ctx: &mut Ctx) {
    curate.budget = b;
    *ctx.status = match b {
        Some(1) => "Budget 1 token".into(),
        Some(b) => format!("Budget {} tokens", human::short_count(b)),
        None => "No token budget".into(),
    };
    ctx.follow(Msg::RefreshPreview);
    ctx.follow(Msg::Recount);
}

/// `y`: copy a brief of the selection (or of the current node) with the current format,
/// mode, budget and exposure levels; `copying` is set until the copy is done.
pub fn copy_brief(src: &Source, curate: &mut Curate, copying: &mut bool, ctx: &mut Ctx) {
    if *copying {
        ctx.say("A copy is already running…");
        return;
    }
    let req = match brief_of_state(src, curate) {
        Ok(req) => req,
        Err(why) => {
            ctx.say(why);
            return;
        }
    };
    *copying = true;
    curate.copy_note.clear();
    ctx.say(format!(
        "Copying a brief of {}…",
        human::plural(req.units.len(), "section")
    ));
    let job = job(src.shared, Text::Brief(req));
    curate.generation += 1;
    ctx.queue(Effect::Text {
        generation: curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
        opts: src.shared.copy_options(),
    });
}

/// `Y`: copy the rendered skill of the current node, or of every selected skill (their
/// listing then each body); `copying` is set until the copy is done.
pub fn copy_skill(src: &Source, curate: &mut Curate, copying: &mut bool, ctx: &mut Ctx) {
    if *copying {
        ctx.say("A copy is already running…");
        return;
    }
    let Some(what) = skills_text(src, curate) else {
        ctx.say("No skill here: Y renders a skill folder's SKILL.md");
        return;
    };
    let skills: &[NodeId] = &what.skills;
    let n = skills.len();
    // Selected items outside every skill are not part of a rendered skill: say so.
    let corpus = src.shared.corpus;
    let outside = src
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
    *copying = true;
    ctx.say(if n == 1 {
        format!("Copying the rendered skill…{note}")
    } else {
        format!("Copying {n} rendered skills…{note}")
    });
    curate.copy_note = note;
    let job = job(src.shared, Text::Skills(what));
    curate.generation += 1;
    ctx.queue(Effect::Text {
        generation: curate.generation,
        job: Box::new(job),
        purpose: TextPurpose::Copy,
        opts: src.shared.copy_options(),
    });
}

/// Space: select or deselect `current` (a node of `corpus`) and its subtree.
pub fn toggle_select(
    selection: &mut Selection,
    corpus: &Corpus,
    current: Option<NodeId>,
    ctx: &mut Ctx,
) {
    let Some(id) = current else { return };
    selection.toggle(corpus, id);
    let verb = match selection.mark(corpus, id) {
        crate::model::Mark::Full => "Selected",
        _ => "Deselected",
    };
    // The total is counted again after this action; the status names it then.
    ctx.follow(Msg::SelectionStatus(format!(
        "{verb} {}",
        corpus.node(id).title
    )));
}
