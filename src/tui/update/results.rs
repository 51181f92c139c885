//! Applying what the search workers send: a finished query's results become the search
//! view, and an index that becomes ready re-runs the shown query, keeping its highlighted
//! hit under the cursor.

use std::sync::Arc;

use crate::index::{FuzzyIndex, Hit, Index, SearchResult};
use crate::model::Corpus;
use crate::tui::effect::Effect;
use crate::tui::state::app::Progress;
use crate::tui::state::search::{Rerun, SearchState, SearchView};
use crate::util::human;

use super::ctx::{Ctx, Panes, Shared};
use super::search;

/// The fuzzy title index of generation `generation` is ready: stored in `slot` when it is
/// of the corpus shown (`data_gen`); `true` then (the caller runs the shown query again).
pub fn fuzzy_ready(
    slot: &mut Option<Arc<FuzzyIndex>>,
    data_gen: u64,
    generation: u64,
    fuzzy: Arc<FuzzyIndex>,
) -> bool {
    let fresh = generation == data_gen;
    if fresh {
        *slot = Some(fuzzy);
    }
    fresh
}

/// The content index of generation `generation` is ready: stored in `slot` (indexing is
/// over) when it is of the corpus shown (`data_gen`); `true` then (the caller runs the
/// shown query again).
pub fn index_ready(
    slot: &mut Option<Arc<Index>>,
    progress: &mut Progress,
    data_gen: u64,
    generation: u64,
    index: Arc<Index>,
) -> bool {
    let fresh = generation == data_gen;
    if fresh {
        *slot = Some(index);
        progress.indexing = None;
    }
    fresh
}

/// A query's results arrived (`(generation, content, titles)`): they become the search
/// view (the cursor kept in range, or on the hit a re-run kept), then the jump asked for on
/// Enter and the re-rank note. `true` when they were the awaited ones (the caller then
/// recounts the brief when the query's hits are in it).
pub fn search_done(
    panes: &mut Panes,
    shared: &Shared,
    (generation, content, titles): (u64, SearchResult, Vec<Hit>),
    ctx: &mut Ctx,
) -> bool {
    let s = &mut *panes.search;
    if generation != s.generation {
        return false;
    }
    s.pending = false;
    let rerun = s.rerun.take();
    let reranked = content.rerank;
    show_results(s, shared.corpus, content, titles);
    if let Some(r) = rerun {
        keep_selected(s, r, ctx);
    }
    if std::mem::take(&mut s.jump_when_done) {
        if s.view.is_empty() {
            s.showing = false;
        } else {
            search::jump_to_hit(panes, shared, ctx);
        }
    }
    // A re-ranked (finished) query says so beside the jump's status.
    if let Some(run) = reranked {
        let note = crate::rerank::describe(&run);
        let now = if ctx.status.is_empty() {
            note
        } else {
            format!("{} · {note}", ctx.status)
        };
        ctx.say(now);
    }
    true
}

/// The search view of a query's hits over `corpus`, with the cursor kept within it.
fn show_results(s: &mut SearchState, corpus: &Corpus, content: SearchResult, titles: Vec<Hit>) {
    let notes = content.notes(!content.hits.is_empty() || !titles.is_empty());
    s.view = SearchView::new(
        corpus,
        s.query.clone(),
        content.hits,
        titles,
        content.terms,
        content.did_you_mean,
    );
    s.view.notes = notes;
    s.selected = s.selected.min(s.view.len().saturating_sub(1));
}

/// Send the current query of `s` again because an index became ready (`index_ready`: the
/// content index), remembering the selected hit so that it stays under the cursor when the
/// results arrive.
pub fn rerun_query(s: &mut SearchState, shared: &Shared, index_ready: bool, ctx: &mut Ctx) {
    if !s.query.trim().is_empty() {
        let keep = s
            .rerun
            .and_then(|r| r.keep)
            .or_else(|| s.view.hit(s.selected).map(|h| h.node));
        let index_ready = index_ready || s.rerun.is_some_and(|r| r.index_ready);
        s.rerun = Some(Rerun { keep, index_ready });
        s.generation += 1;
        s.pending = true;
        ctx.queue(Effect::Search {
            generation: s.generation,
            query: s.query.clone(),
            top_k: shared.settings.search.top_k,
            finished: s.finished,
        });
    }
}

/// After the results of a re-run arrived: the hit selected before stays selected when it is
/// among them (else the cursor keeps its row), and when the content index is what became
/// ready the status says that the results are now complete.
fn keep_selected(s: &mut SearchState, r: Rerun, ctx: &mut Ctx) {
    let v = &s.view;
    if let Some(i) = r
        .keep
        .and_then(|n| (0..v.len()).find(|&i| v.hit(i).is_some_and(|h| h.node == n)))
    {
        s.selected = i;
    }
    if r.index_ready {
        let kept = if r.keep.is_some() && s.view.hit(s.selected).map(|h| h.node) == r.keep {
            "; the selected hit stays selected"
        } else {
            ""
        };
        ctx.say(format!(
            "Index complete: {} added{kept}",
            human::plural(s.view.content.len(), "content hit")
        ));
    }
}
