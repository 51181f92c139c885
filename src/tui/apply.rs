//! Applying worker results to the app: loaded roots, token counts, indexes, search
//! results, highlighted code, copy outcomes and failures. Results of a stale generation
//! are dropped.

use std::sync::Arc;

use super::app::{App, Effect, SearchView};
use super::curate::Question;
use super::curate::actions as curate;
use super::preview;
use super::update::sync;
use super::workers::WorkerMsg;
use crate::util::human;

/// Apply one worker result (stale generations are dropped).
pub fn apply(app: &mut App, msg: WorkerMsg) {
    match msg {
        WorkerMsg::LoadProgress { files } => {
            let (_, done, total) = app.progress.loading.unwrap_or((0, 0, 0));
            app.progress.loading = Some((files, done, total));
        }
        WorkerMsg::RootLoaded { corpus, done, total } => {
            let files = app.progress.loading.map_or(0, |l| l.0);
            app.progress.loading = Some((files, done, total));
            let first_new = app.corpus.roots.len();
            let first_node = app.corpus.len();
            Arc::make_mut(&mut app.corpus).append(*corpus);
            clear_layers(app);
            app.data_gen += 1;
            app.tokens.resize(&app.corpus);
            let corpus = Arc::clone(&app.corpus);
            for r in &corpus.roots[first_new..] {
                app.tree.expanded.insert(*r);
                for w in &corpus.node(*r).warnings {
                    app.warnings.push(w.to_string());
                }
            }
            // A single root with a single child (a skill folder) opens one level deeper.
            if corpus.roots.len() == 1 {
                if let [only] = corpus.node(corpus.roots[0]).children.as_slice() {
                    app.tree.expanded.insert(*only);
                }
            }
            app.tree.rebuild(&corpus);
            app.preview.invalidate();
            curate::on_loaded(app, first_node);
        }
        WorkerMsg::RootReloaded { root, corpus } => {
            clear_layers(app);
            super::reload::apply_reloaded(app, root, *corpus);
            if app.status.is_empty() || app.status.starts_with("Reloading ") {
                let title = app.corpus.roots.get(root).map(|r| app.corpus.node(*r).title.clone());
                app.status = format!("Reloaded {} from disk", title.unwrap_or_default());
            }
        }
        WorkerMsg::LoadDone => {
            app.progress.loading = None;
            if app.corpus.roots.len() > 1 || app.load_opts.namespace {
                // Same-named skills across scopes: mark the losers `shadowed` (FORMATS §5.2).
                let corpus = Arc::make_mut(&mut app.corpus);
                if app.load_opts.namespace {
                    crate::formats::namespace_skills(corpus);
                }
                crate::formats::resolve_scopes(corpus, app.load_opts.first_wins);
                clear_layers(app);
                app.preview.invalidate();
            }
            let texts = app.corpus.nodes.iter().filter(|n| n.span.is_some()).count();
            app.progress.counting = (texts > 0).then_some((0, texts));
            app.effects.push(Effect::StartBackground);
            curate::on_load_done(app);
            let n = app.corpus.len();
            if app.status.is_empty() {
                let roots = app.corpus.roots.len();
                let plural = if roots == 1 { "" } else { "s" };
                app.status = format!("Loaded {roots} root{plural} · {n} nodes");
            }
        }
        WorkerMsg::Tokens { generation, counts, done } => {
            if generation != app.data_gen {
                return;
            }
            for (id, n) in counts {
                app.tokens.set_own(id, n);
            }
            app.tokens.aggregate(&app.corpus);
            curate::recount(app);
            app.progress.counting = if done.0 >= done.1 { None } else { Some(done) };
            // Container summaries list child token sizes: re-render the shown one.
            let corpus = Arc::clone(&app.corpus);
            app.preview.cache.retain(|(n, _), _| corpus.node(*n).span.is_some());
            if app.preview.node.is_some_and(|n| corpus.node(n).span.is_none()) {
                app.preview.doc = None;
            }
        }
        WorkerMsg::FuzzyReady { generation, fuzzy } => {
            if generation == app.data_gen {
                app.fuzzy = Some(fuzzy);
                rerun_query(app);
            }
        }
        WorkerMsg::IndexProgress { generation, done } => {
            if generation == app.data_gen {
                app.progress.indexing = Some(done);
            }
        }
        WorkerMsg::IndexReady { generation, index } => {
            if generation == app.data_gen {
                app.index = Some(index);
                app.progress.indexing = None;
                rerun_query(app);
            }
        }
        WorkerMsg::SearchDone { generation, content, titles } => {
            if generation != app.search.generation {
                return;
            }
            app.search.pending = false;
            app.search.view = SearchView {
                query: app.search.query.clone(),
                content: content.hits,
                titles,
                terms: content.terms,
                did_you_mean: content.did_you_mean,
            };
            app.search.selected = app.search.selected.min(app.search.view.len().saturating_sub(1));
            // Only the query's hits in a brief change the total: not on every keystroke.
            if app.curate.with_query {
                curate::recount(app);
            }
        }
        WorkerMsg::Copied(result) => {
            app.copying = false;
            let note = std::mem::take(&mut app.curate.copy_note);
            app.status = match result {
                Ok(s) => s + &note,
                Err(e) => e,
            };
        }
        WorkerMsg::TextBuilt { generation, result } => curate::apply_preview(app, generation, result),
        WorkerMsg::CopyAsk(built) => {
            app.copying = false;
            app.status = format!(
                "The system clipboard is not available and {} is over the OSC 52 limit of {}",
                human::short_bytes(built.bytes),
                human::short_bytes(app.settings.clipboard.osc52_limit as u64)
            );
            curate::ask(app, Question::Oversize(built));
        }
        WorkerMsg::Exported(outcome) => super::curate::export::apply(app, outcome),
        WorkerMsg::Layers { generation, node, view } => {
            if generation == app.data_gen {
                app.layers.insert(node, view);
                app.preview.cache.retain(|(n, _), _| *n != node);
                if app.preview.node == Some(node) {
                    app.preview.doc = None;
                }
            }
        }
        WorkerMsg::Rendered { generation, doc } => preview::apply_rendered(app, generation, *doc),
        WorkerMsg::Highlighted { generation, node, width, blocks } => {
            preview::apply_highlight(app, generation, node, width, blocks);
        }
        WorkerMsg::Failed { worker, message } => {
            if worker == "clipboard" {
                app.copying = false;
            }

            app.status = format!("{worker} worker failed: {message}");
        }
    }
    sync(app);
}

/// Drop the disclosure layers computed on an older corpus.
fn clear_layers(app: &mut App) {
    app.layers.clear();
    app.preview.layers_requested.clear();
}

/// Re-run the current query (an index became available).
fn rerun_query(app: &mut App) {
    if !app.search.query.trim().is_empty() {
        app.search.generation += 1;
        app.search.pending = true;
        app.effects
            .push(Effect::Search { generation: app.search.generation, query: app.search.query.clone() });
    }
}
