//! Applying what the search workers send: a finished query's results become the search
//! view, and an index that becomes ready re-runs the shown query, keeping its highlighted
//! hit under the cursor.

use std::sync::Arc;

use crate::index::{FuzzyIndex, Hit, Index, SearchResult};
use crate::tui::effect::Effect;
use crate::tui::state::app::App;
use crate::tui::state::search::{Rerun, SearchView};
use crate::util::human;

use super::search;

/// The fuzzy title index is ready: the shown query runs again with it.
pub fn fuzzy_ready(app: &mut App, generation: u64, fuzzy: Arc<FuzzyIndex>) {
    if generation == app.data_gen {
        app.fuzzy = Some(fuzzy);
        rerun_query(app, false);
    }
}

/// The content index is ready: the shown query runs again with it.
pub fn index_ready(app: &mut App, generation: u64, index: Arc<Index>) {
    if generation == app.data_gen {
        app.index = Some(index);
        app.progress.indexing = None;
        rerun_query(app, true);
    }
}

/// A query's results arrived: they become the search view (the cursor kept in range, or
/// on the hit a re-run kept), then the jump asked for on Enter, the re-rank note, and
/// the brief's total when the query's hits are in it.
pub fn search_done(app: &mut App, generation: u64, content: SearchResult, titles: Vec<Hit>) {
    if generation != app.search.generation {
        return;
    }
    app.search.pending = false;
    let rerun = app.search.rerun.take();
    let reranked = content.rerank;
    show_results(app, content, titles);
    if let Some(r) = rerun {
        keep_selected(app, r);
    }
    if std::mem::take(&mut app.search.jump_when_done) {
        if app.search.view.is_empty() {
            app.search.showing = false;
        } else {
            let mut p = super::parts(app);
            search::jump_to_hit(&mut p.panes, &p.shared, &mut p.ctx);
        }
    }
    // A re-ranked (finished) query says so beside the jump's status.
    if let Some(run) = reranked {
        let note = crate::rerank::describe(&run);
        app.status = if app.status.is_empty() {
            note
        } else {
            format!("{} · {note}", app.status)
        };
    }
    // Only the query's hits in a brief change the total: not on every keystroke.
    if app.curate.with_query {
        super::recount(app);
    }
}

/// The search view of a query's hits, with the cursor kept within it.
fn show_results(app: &mut App, content: SearchResult, titles: Vec<Hit>) {
    let notes = content.notes(!content.hits.is_empty() || !titles.is_empty());
    app.search.view = SearchView::new(
        &app.corpus,
        app.search.query.clone(),
        content.hits,
        titles,
        content.terms,
        content.did_you_mean,
    );
    app.search.view.notes = notes;
    app.search.selected = app
        .search
        .selected
        .min(app.search.view.len().saturating_sub(1));
}

/// Re-run the current query (an index became available).
/// Send the current query again because an index became ready (`index_ready`: the content
/// index), remembering the selected
/// hit so that [`keep_selected`] can keep it under the cursor.
fn rerun_query(app: &mut App, index_ready: bool) {
    let s = &mut app.search;
    if !s.query.trim().is_empty() {
        let keep = s
            .rerun
            .and_then(|r| r.keep)
            .or_else(|| s.view.hit(s.selected).map(|h| h.node));
        let index_ready = index_ready || s.rerun.is_some_and(|r| r.index_ready);
        s.rerun = Some(Rerun { keep, index_ready });
        s.generation += 1;
        s.pending = true;
        app.effects.push(Effect::Search {
            generation: s.generation,
            query: s.query.clone(),
            top_k: app.settings.search.top_k,
            finished: s.finished,
        });
    }
}

/// After the results of a re-run arrived: the hit selected before stays selected when it is
/// among them (else the cursor keeps its row), and when the content index is what became
/// ready the status says that the results are now complete.
fn keep_selected(app: &mut App, r: Rerun) {
    let v = &app.search.view;
    if let Some(i) = r
        .keep
        .and_then(|n| (0..v.len()).find(|&i| v.hit(i).is_some_and(|h| h.node == n)))
    {
        app.search.selected = i;
    }
    if r.index_ready {
        let kept = if r.keep.is_some()
            && app.search.view.hit(app.search.selected).map(|h| h.node) == r.keep
        {
            "; the selected hit stays selected"
        } else {
            ""
        };
        app.status = format!(
            "Index complete: {} added{kept}",
            human::plural(app.search.view.content.len(), "content hit")
        );
    }
}
