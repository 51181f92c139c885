//! Applying worker results to the app: loaded roots, token counts, indexes, search
//! results (those two in [`results`]), highlighted code, copy outcomes and failures.
//! Results of a stale generation are dropped.

use std::collections::HashMap;
use std::sync::Arc;

use crate::index::{Hit, SearchResult};
use crate::model::{Corpus, NodeId, Selection};
use crate::render::{self, Line};
use crate::tokens::TokenTable;
use crate::tui::effect::Effect;
use crate::tui::effects::worker_msg::WorkerMsg;
use crate::tui::state::app::{App, Loaded, Persisted, Progress, selection_summary};
use crate::tui::state::built_text::BuiltText;
use crate::tui::state::curate::{Curate, Question};
use crate::tui::state::followup::Msg;
use crate::tui::state::preview::{LayerView, PreviewDoc, PreviewState};
use crate::util::human;

use super::ctx::{Ctx, Shared, Total};
use super::{Parts, brief, curate, export, recipes, reload, results};

/// Apply one worker result (stale generations are dropped). The results that change the
/// corpus, the token counts or an index take the app whole (they replace what every other
/// handler reads); the others go to one small handler each, with the app borrowed apart.
pub fn apply(app: &mut App, msg: WorkerMsg) {
    match msg {
        WorkerMsg::LoadProgress { files } => load_progress(&mut app.progress, files),
        WorkerMsg::RootLoaded {
            corpus,
            done,
            total,
        } => root_loaded(app, *corpus, done, total),
        WorkerMsg::RootReloaded { root, corpus } => {
            app.loaded.push_back(Loaded::Reloaded(root, *corpus));
            merge_loaded(app);
        }
        WorkerMsg::LoadDone {
            persisted,
            warnings,
        } => {
            app.warnings.extend(warnings);
            app.loaded.push_back(Loaded::Done(persisted));
            merge_loaded(app);
        }
        WorkerMsg::Tokens {
            generation,
            counts,
            done,
        } => {
            if generation == app.data_gen {
                store_counts(&mut app.tokens, &app.corpus, counts);
                super::recount(app);
                counts_done(&mut app.progress, &mut app.preview, &app.corpus, done);
            }
        }
        WorkerMsg::FuzzyReady { generation, fuzzy } => {
            if results::fuzzy_ready(&mut app.fuzzy, app.data_gen, generation, fuzzy) {
                rerun_query(app, false);
            }
        }
        WorkerMsg::IndexReady { generation, index } => {
            let progress = &mut app.progress;
            if results::index_ready(&mut app.index, progress, app.data_gen, generation, index) {
                rerun_query(app, true);
            }
        }
        other => apply_parts(&mut super::parts(app), other),
    }
}

/// Send the shown query again because an index became ready (`index_ready`: the content
/// index) ([`results::rerun_query`]).
fn rerun_query(app: &mut App, index_ready: bool) {
    let mut p = super::parts(app);
    results::rerun_query(p.panes.search, &p.shared, index_ready, &mut p.ctx);
}

/// Apply a worker result that changes neither the corpus nor the counts nor an index, to
/// the app borrowed apart (`p`): one small handler per message.
fn apply_parts(p: &mut Parts, msg: WorkerMsg) {
    let ctx = &mut p.ctx;
    match msg {
        WorkerMsg::RemotePages {
            root,
            label,
            done,
            report,
        } => {
            let pages = reload::RemotePages {
                root,
                label: &label,
                done,
                report,
            };
            let loading = p.progress.loading.is_some();
            reload::remote_pages(pages, loading, p.remote_reloads, &p.shared, ctx);
        }
        WorkerMsg::BriefCounted {
            generation,
            tokens,
            left_out,
        } => brief_counted(
            &mut p.total,
            p.selection,
            (generation, tokens, left_out),
            ctx,
        ),
        WorkerMsg::IndexProgress { generation, done } => {
            if generation == p.shared.data_gen {
                p.progress.indexing = Some(done);
            }
        }
        WorkerMsg::SearchDone {
            generation,
            content,
            titles,
        } => search_done(p, (generation, content, titles)),
        WorkerMsg::Copied(result) => copied(p.copying, p.curate, result, ctx),
        WorkerMsg::TextBuilt { generation, result } => {
            brief::apply_preview(p.popups, generation, result, ctx);
        }
        WorkerMsg::CopyAsk(built) => copy_ask(p.copying, &p.shared, built, ctx),
        WorkerMsg::Exported(outcome) => export::apply(outcome, p.warnings, ctx),
        WorkerMsg::Layers {
            generation,
            node,
            view,
        } => layers_built(
            p.layers,
            p.panes.preview,
            p.shared.data_gen,
            (generation, node, view),
        ),
        WorkerMsg::Rendered { generation, doc } => {
            apply_rendered(p.panes.preview, generation, *doc);
        }
        WorkerMsg::Highlighted {
            generation,
            node,
            width,
            blocks,
        } => apply_highlight(p.panes.preview, generation, node, width, blocks),
        WorkerMsg::TierHint => tier_hint(p.tier_hinted, ctx),
        WorkerMsg::Failed { worker, message } => worker_failed(p.copying, worker, &message, ctx),
        WorkerMsg::Warning(message) => {
            ctx.say(message.clone());
            p.warnings.push(message);
        }
        // Applied with the app whole (`apply`).
        WorkerMsg::LoadProgress { .. }
        | WorkerMsg::RootLoaded { .. }
        | WorkerMsg::RootReloaded { .. }
        | WorkerMsg::LoadDone { .. }
        | WorkerMsg::Tokens { .. }
        | WorkerMsg::FuzzyReady { .. }
        | WorkerMsg::IndexReady { .. } => {}
    }
}

/// A query's results arrived (`(generation, content, titles)`, [`results::search_done`]):
/// when they were the awaited ones and the query's hits are in the brief, its total is
/// counted again (not on every keystroke otherwise).
fn search_done(p: &mut Parts, result: (u64, SearchResult, Vec<Hit>)) {
    let ctx = &mut p.ctx;
    if results::search_done(&mut p.panes, &p.shared, result, ctx) && p.curate.with_query {
        let src = super::Source::new(&p.shared, &p.panes, p.selection);
        curate::recount(&src, p.curate, &mut p.total, ctx);
    }
}

/// The loader found `files` files so far.
fn load_progress(progress: &mut Progress, files: usize) {
    let (_, done, total) = progress.loading.unwrap_or((0, 0, 0));
    progress.loading = Some((files, done, total));
}

/// A root finished loading (`done` of `total`): queued, then merged when it can be.
fn root_loaded(app: &mut App, corpus: Corpus, done: usize, total: usize) {
    let files = app.progress.loading.map_or(0, |l| l.0);
    app.progress.loading = Some((files, done, total));
    app.loaded.push_back(Loaded::Root(corpus));
    merge_loaded(app);
}

/// Token counts of nodes of the current generation arrived: stored in `tokens` and summed
/// up the tree of `corpus` (the caller recounts the brief, then [`counts_done`]).
fn store_counts(tokens: &mut TokenTable, corpus: &Corpus, counts: Vec<(NodeId, u64)>) {
    for (id, n) in counts {
        tokens.set_own(id, n);
    }
    tokens.aggregate(corpus);
}

/// After a batch of counts (`done`: counted of all): the progress, and the shown container
/// summary rendered again (it lists child token sizes).
fn counts_done(
    progress: &mut Progress,
    preview: &mut PreviewState,
    corpus: &Corpus,
    done: (usize, usize),
) {
    progress.counting = if done.0 >= done.1 { None } else { Some(done) };
    // Container summaries list child token sizes: re-render the shown one.
    preview.forget(|n| corpus.node(n).span.is_some());
    if preview.node.is_some_and(|n| corpus.node(n).span.is_none()) {
        preview.doc = None;
    }
}

/// The exact size of the brief arrived (`(generation, tokens, left out)`; `selection`
/// sized): a status ending in the estimate says it too.
fn brief_counted(
    total: &mut Total,
    selection: &Selection,
    (generation, tokens, left_out): (u64, u64, usize),
    ctx: &mut Ctx,
) {
    if generation == *total.generation {
        *total.left_out = left_out;
        // A status ending in the estimate (`Selected X · sel 1 · 922… tok`) says
        // the exact number too.
        let before = selection_summary(*total.tokens, selection.len());
        *total.tokens = (tokens, true);
        if let Some(head) = ctx.status.strip_suffix(before.as_str()) {
            let now = format!(
                "{head}{}",
                selection_summary(*total.tokens, selection.len())
            );
            ctx.say(now);
        }
    }
}

/// A copy to the clipboard finished: its outcome (and the copy's note, taken from
/// `curate`) is the status.
fn copied(copying: &mut bool, curate: &mut Curate, result: Result<String, String>, ctx: &mut Ctx) {
    *copying = false;
    let note = std::mem::take(&mut curate.copy_note);
    ctx.say(match result {
        Ok(s) => s + &note,
        Err(e) => e,
    });
}

/// A text too big for OSC 52 (the limit of `shared`'s settings) with no system clipboard:
/// ask what to do with it.
fn copy_ask(copying: &mut bool, shared: &Shared, built: Arc<BuiltText>, ctx: &mut Ctx) {
    *copying = false;
    ctx.say(format!(
        "The system clipboard is not available and {} is over the OSC 52 limit of {}",
        human::short_bytes(built.bytes),
        human::short_bytes(shared.settings.clipboard.osc52_limit as u64)
    ));
    ctx.follow(Msg::Ask(Question::Oversize(built)));
}

/// A node's layers view arrived (`(generation, node, view)`, kept while `generation` is
/// `data_gen`): stored, and the node's preview rendered again.
fn layers_built(
    layers: &mut HashMap<NodeId, Arc<LayerView>>,
    preview: &mut PreviewState,
    data_gen: u64,
    (generation, node, view): (u64, NodeId, Arc<LayerView>),
) {
    if generation == data_gen {
        layers.insert(node, view);
        preview.forget(|n| n != node);
        if preview.node == Some(node) {
            preview.doc = None;
        }
    }
}

/// Once per session (`tier_hinted`), the status says how to install a re-ranking model.
fn tier_hint(tier_hinted: &mut bool, ctx: &mut Ctx) {
    // Added after what the line says (a refusal the user just caused, the load
    // summary), never in its place.
    if !*tier_hinted {
        *tier_hinted = true;
        let now = if ctx.status.is_empty() {
            crate::rerank::HINT.to_string()
        } else {
            format!("{} · {}", ctx.status, crate::rerank::HINT)
        };
        ctx.say(now);
    }
}

/// A worker failed: the status says which and why (a failed copy is no longer running).
fn worker_failed(copying: &mut bool, worker: &str, message: &str, ctx: &mut Ctx) {
    if worker == "clipboard" {
        *copying = false;
    }

    ctx.say(format!("{worker} worker failed: {message}"));
}

/// Take in what the loader sent, in order, as far as it can be done without copying the
/// corpus: a loaded root is appended in place only while the UI holds the only handle to
/// the corpus (a worker still running a query, a brief or a preview holds another and drops
/// it before its result arrives, so the next result or key comes back here). A reload waits
/// behind the roots loaded before it.
pub fn merge_loaded(app: &mut App) {
    while let Some(next) = app.loaded.pop_front() {
        let taken = match next {
            Loaded::Root(corpus) => {
                if let Some(c) = Arc::get_mut(&mut app.corpus) {
                    let (first_new, first_node) = (c.roots.len(), c.len());
                    c.append(corpus);
                    root_appended(app, first_new, first_node);
                    true
                } else {
                    app.loaded.push_front(Loaded::Root(corpus));
                    false
                }
            }
            Loaded::Reloaded(root, corpus) => {
                root_reloaded(app, root, corpus);
                true
            }
            Loaded::Done(persisted) => match load_done(app, persisted) {
                Ok(()) => true,
                Err(persisted) => {
                    app.loaded.push_front(Loaded::Done(persisted));
                    false
                }
            },
        };
        if !taken {
            return;
        }
    }
}

/// The roots from `first_new` (nodes from `first_node`) were appended: grow the token
/// table, expand them, take their warnings and exposure levels.
fn root_appended(app: &mut App, first_new: usize, first_node: usize) {
    clear_layers(&mut app.layers, &mut app.preview);
    app.data_gen += 1;
    app.tokens.resize(&app.corpus);
    let corpus = Arc::clone(&app.corpus);
    for r in &corpus.roots[first_new..] {
        app.tree.expanded.insert(*r);
        for w in &corpus.node(*r).warnings {
            app.warnings.push(w.to_string());
        }
    }
    // A single root with a single child (a skill folder) opens one level deeper; not the
    // first of several roots still loading (the same screen whether the roots arrive one
    // by one or whole from the persisted index).
    let roots_to_load = app.progress.loading.map_or(1, |(_, _, total)| total);
    if corpus.roots.len() == 1
        && roots_to_load <= 1
        && let [only] = corpus.node(corpus.roots[0]).children.as_slice()
    {
        app.tree.expanded.insert(*only);
    }
    app.tree.rebuild(&corpus);
    app.preview.invalidate();
    curate::take_levels(&mut app.curate, &corpus, first_node);
    super::recount(app);
}

/// Root number `root` was loaded again: swap it in.
fn root_reloaded(app: &mut App, root: usize, corpus: Corpus) {
    clear_layers(&mut app.layers, &mut app.preview);
    reload::apply_reloaded(app, root, corpus);
    if app.status.is_empty() || app.status.starts_with("Reloading ") {
        let title = app
            .corpus
            .roots
            .get(root)
            .map(|r| app.corpus.node(*r).title.clone());
        app.status = format!("Reloaded {} from disk", title.unwrap_or_default());
    }
}

/// Every root is loaded: finish the corpus as every front end does (namespaces, scopes
/// across roots, lints: `crate::agent::workspace::finish_corpus`; a corpus restored from
/// the persisted index is finished already) and start counting and indexing. Gives
/// `persisted` back (nothing done) while a worker still holds the corpus to finish.
fn load_done(app: &mut App, persisted: Persisted) -> Result<(), Persisted> {
    let restored = matches!(persisted, Persisted::Restored(..));
    if !restored {
        // Same-named skills across scopes: mark the losers `shadowed` (docs/FORMATS.md §5.2).
        let Some(corpus) = Arc::get_mut(&mut app.corpus) else {
            return Err(persisted);
        };
        crate::agent::workspace::finish_corpus(corpus, &app.load_opts);
        clear_layers(&mut app.layers, &mut app.preview);
        app.preview.invalidate();
    }
    app.progress.loading = None;
    for root in std::mem::take(&mut app.remote_reloads) {
        app.effects
            .push(Effect::reload(root, &app.specs, &app.load_opts));
    }
    let texts = app.corpus.nodes.iter().filter(|n| n.span.is_some()).count();
    app.progress.counting = (texts > 0).then_some((0, texts));
    app.effects.push(Effect::start_background(
        &app.settings.search,
        app.encoding(),
        persisted,
    ));
    let mut p = super::parts(app);
    let mut target = recipes::Target {
        selection: &mut *p.selection,
        curate: &mut *p.curate,
        warnings: &mut *p.warnings,
    };
    recipes::on_load_done(p.shared.corpus, &mut target, &mut p.ctx);
    let n = app.corpus.len();
    if app.status.is_empty() {
        let roots = app.corpus.roots.len();
        let plural = if roots == 1 { "" } else { "s" };
        let from = if restored {
            " · from the saved index"
        } else {
            ""
        };
        app.status = format!("Loaded {roots} root{plural} · {n} nodes{from}");
    }
    Ok(())
}

/// Drop the disclosure layers computed on an older corpus.
fn clear_layers(layers: &mut HashMap<NodeId, Arc<LayerView>>, preview: &mut PreviewState) {
    layers.clear();
    preview.layers_requested.clear();
}

/// Store a document rendered by the worker in the preview `p` and show it when it is the
/// one awaited. Results of an older cache generation are dropped.
pub fn apply_rendered(p: &mut PreviewState, generation: u64, doc: PreviewDoc) {
    let (Some(node), width) = (doc.node, doc.rendered.width) else {
        return;
    };
    if generation != p.generation {
        return;
    }
    let doc = Arc::new(doc);
    p.store((node, width), Arc::clone(&doc));
    if p.doc
        .as_ref()
        .is_some_and(|d| d.pending && d.node == Some(node) && d.rendered.width == width)
    {
        p.doc = Some(doc);
    }
}

/// Swap highlighted code lines into the cached document of (`node`, `width`) of the
/// preview `p` and, when it is the one shown, into the preview. Results of an older cache
/// generation are dropped.
pub fn apply_highlight(
    p: &mut PreviewState,
    generation: u64,
    node: NodeId,
    width: u16,
    blocks: Vec<(usize, Vec<Line>)>,
) {
    if generation != p.generation {
        return;
    }
    let Some(cached) = p.cache.get_mut(&(node, width)) else {
        return;
    };
    // The shown document is this one: let go of it first, so the lines change in place.
    let shown = p.doc.take_if(|d| Arc::ptr_eq(d, cached)).is_some();
    let d = Arc::make_mut(cached);
    for (i, lines) in blocks {
        render::apply(&mut d.rendered, i, lines, width);
    }
    if shown
        || p.doc
            .as_ref()
            .is_some_and(|d| d.node == Some(node) && d.rendered.width == width)
    {
        p.doc = Some(Arc::clone(cached));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::one_file_root;
    use crate::tokens::Encoding;
    use crate::tui::config::Settings;
    use crate::tui::input::keymap::Keymap;
    use crate::tui::theme::UiTheme;

    fn app() -> App {
        let theme = UiTheme::new(crate::render::Theme::dark(), false);
        App::new(
            Corpus::new(),
            Encoding::Bytes4,
            Keymap::defaults(),
            Settings::default(),
            theme,
        )
    }

    #[test]
    fn remote_pages_that_arrive_while_loading_reload_their_root_once_loading_is_done() {
        let mut app = app();
        app.progress.loading = Some((0, 0, 1));
        let pages = |report| WorkerMsg::RemotePages {
            root: 0,
            label: "docs.example".into(),
            done: (2, 3),
            report,
        };
        apply(&mut app, pages(None));
        assert_eq!(app.status, "docs.example: fetching linked pages 2/3");
        let report = crate::remote::PageReport {
            fetched: 2,
            unchanged: 0,
            failed: vec!["x: not found (404)".into()],
            removed: 0,
            not_followed: 0,
        };
        apply(&mut app, pages(Some(report)));
        assert_eq!(
            app.status,
            "docs.example: 3 linked pages: 2 fetched, 0 unchanged, 1 failed (x: not found (404))"
        );
        assert!(
            app.effects.is_empty(),
            "no reload while the first load runs"
        );
        apply(
            &mut app,
            WorkerMsg::RootLoaded {
                corpus: Box::new(one_file_root("a", "first")),
                done: 1,
                total: 1,
            },
        );
        apply(&mut app, WorkerMsg::load_done());
        assert!(
            app.effects
                .iter()
                .any(|e| matches!(e, Effect::Reload { root: 0, .. })),
            "the deferred reload is queued once loading is done"
        );
        assert!(app.remote_reloads.is_empty());
    }

    #[test]
    fn a_root_loaded_while_a_worker_holds_the_corpus_waits_and_is_appended_in_place() {
        let mut app = app();
        apply(
            &mut app,
            WorkerMsg::RootLoaded {
                corpus: Box::new(one_file_root("a", "first")),
                done: 1,
                total: 2,
            },
        );
        assert_eq!(app.corpus.roots.len(), 1);
        // A worker (a query, a brief) holds the corpus: the next root waits instead of a copy.
        let held = Arc::clone(&app.corpus);
        let before = Arc::as_ptr(&app.corpus);
        apply(
            &mut app,
            WorkerMsg::RootLoaded {
                corpus: Box::new(one_file_root("b", "second")),
                done: 2,
                total: 2,
            },
        );
        apply(&mut app, WorkerMsg::load_done());
        assert_eq!((app.corpus.roots.len(), app.loaded.len()), (1, 2));
        assert_eq!(
            app.progress.loading,
            Some((0, 2, 2)),
            "progress is shown at once"
        );
        assert!(app.effects.is_empty(), "counting waits for the roots");
        // The worker is done: the waiting root and the end of loading go in, in place.
        drop(held);
        merge_loaded(&mut app);
        assert_eq!((app.corpus.roots.len(), app.loaded.len()), (2, 0));
        assert_eq!(
            Arc::as_ptr(&app.corpus),
            before,
            "appended in place, not copied"
        );
        assert_eq!(app.progress.loading, None);
        assert!(matches!(
            app.effects.as_slice(),
            [Effect::StartBackground { .. }]
        ));
        assert_eq!(
            app.corpus
                .text(app.corpus.node(app.corpus.roots[1]).children[0]),
            "second"
        );
    }
}
