//! Applying worker results to the app: loaded roots, token counts, indexes, search
//! results (those two in [`results`]), highlighted code, copy outcomes and failures.
//! Results of a stale generation are dropped.

use std::sync::Arc;

use crate::model::{Corpus, NodeId};
use crate::render::{self, Line};
use crate::tui::effect::Effect;
use crate::tui::effects::worker_msg::WorkerMsg;
use crate::tui::state::app::{App, Loaded};
use crate::tui::state::built_text::BuiltText;
use crate::tui::state::curate::Question;
use crate::tui::state::followup::Msg;
use crate::tui::state::preview::{LayerView, PreviewDoc};
use crate::util::human;

use super::{brief, curate, export, recipes, reload, results};

/// Apply one worker result (stale generations are dropped).
pub fn apply(app: &mut App, msg: WorkerMsg) {
    match msg {
        WorkerMsg::LoadProgress { files } => load_progress(app, files),
        WorkerMsg::RootLoaded {
            corpus,
            done,
            total,
        } => root_loaded(app, *corpus, done, total),
        WorkerMsg::RootReloaded { root, corpus } => {
            app.loaded.push_back(Loaded::Reloaded(root, *corpus));
            merge_loaded(app);
        }
        WorkerMsg::RemotePages {
            root,
            label,
            done,
            report,
        } => reload::remote_pages(app, root, &label, done, report),
        WorkerMsg::LoadDone => {
            app.loaded.push_back(Loaded::Done);
            merge_loaded(app);
        }
        WorkerMsg::Tokens {
            generation,
            counts,
            done,
        } => tokens_counted(app, generation, counts, done),
        WorkerMsg::BriefCounted {
            generation,
            tokens,
            left_out,
        } => brief_counted(app, generation, tokens, left_out),
        WorkerMsg::FuzzyReady { generation, fuzzy } => results::fuzzy_ready(app, generation, fuzzy),
        WorkerMsg::IndexProgress { generation, done } => {
            if generation == app.data_gen {
                app.progress.indexing = Some(done);
            }
        }
        WorkerMsg::IndexReady { generation, index } => results::index_ready(app, generation, index),
        WorkerMsg::SearchDone {
            generation,
            content,
            titles,
        } => results::search_done(app, generation, content, titles),
        WorkerMsg::Copied(result) => copied(app, result),
        WorkerMsg::TextBuilt { generation, result } => {
            let mut p = super::parts(app);
            brief::apply_preview(p.popups, generation, result, &mut p.ctx);
        }
        WorkerMsg::CopyAsk(built) => copy_ask(app, built),
        WorkerMsg::Exported(outcome) => {
            let mut p = super::parts(app);
            export::apply(outcome, p.warnings, &mut p.ctx);
        }
        WorkerMsg::Layers {
            generation,
            node,
            view,
        } => layers_built(app, generation, node, view),
        WorkerMsg::Rendered { generation, doc } => apply_rendered(app, generation, *doc),
        WorkerMsg::Highlighted {
            generation,
            node,
            width,
            blocks,
        } => {
            apply_highlight(app, generation, node, width, blocks);
        }
        WorkerMsg::TierHint => tier_hint(app),
        WorkerMsg::Failed { worker, message } => worker_failed(app, worker, &message),
    }
}

/// The loader found `files` files so far.
fn load_progress(app: &mut App, files: usize) {
    let (_, done, total) = app.progress.loading.unwrap_or((0, 0, 0));
    app.progress.loading = Some((files, done, total));
}

/// A root finished loading (`done` of `total`): queued, then merged when it can be.
fn root_loaded(app: &mut App, corpus: Corpus, done: usize, total: usize) {
    let files = app.progress.loading.map_or(0, |l| l.0);
    app.progress.loading = Some((files, done, total));
    app.loaded.push_back(Loaded::Root(corpus));
    merge_loaded(app);
}

/// Token counts of nodes arrived (`done`: counted of all): stored and summed up the tree,
/// the brief recounted, and the shown container summary rendered again.
fn tokens_counted(
    app: &mut App,
    generation: u64,
    counts: Vec<(NodeId, u64)>,
    done: (usize, usize),
) {
    if generation != app.data_gen {
        return;
    }
    for (id, n) in counts {
        app.tokens.set_own(id, n);
    }
    app.tokens.aggregate(&app.corpus);
    super::recount(app);
    app.progress.counting = if done.0 >= done.1 { None } else { Some(done) };
    // Container summaries list child token sizes: re-render the shown one.
    let corpus = Arc::clone(&app.corpus);
    app.preview.forget(|n| corpus.node(n).span.is_some());
    if app
        .preview
        .node
        .is_some_and(|n| corpus.node(n).span.is_none())
    {
        app.preview.doc = None;
    }
}

/// The exact size of the brief arrived: a status ending in the estimate says it too.
fn brief_counted(app: &mut App, generation: u64, tokens: u64, left_out: usize) {
    if generation == app.count_gen {
        app.brief_left_out = left_out;
        // A status ending in the estimate (`Selected X · sel 1 · 922… tok`) says
        // the exact number too.
        let before = app.selection_summary();
        app.selection_tokens = (tokens, true);
        if let Some(head) = app.status.strip_suffix(before.as_str()) {
            app.status = format!("{head}{}", app.selection_summary());
        }
    }
}

/// A copy to the clipboard finished: its outcome (and the copy's note) is the status.
fn copied(app: &mut App, result: Result<String, String>) {
    app.copying = false;
    let note = std::mem::take(&mut app.curate.copy_note);
    app.status = match result {
        Ok(s) => s + &note,
        Err(e) => e,
    };
}

/// A text too big for OSC 52 with no system clipboard: ask what to do with it.
fn copy_ask(app: &mut App, built: Arc<BuiltText>) {
    app.copying = false;
    app.status = format!(
        "The system clipboard is not available and {} is over the OSC 52 limit of {}",
        human::short_bytes(built.bytes),
        human::short_bytes(app.settings.clipboard.osc52_limit as u64)
    );
    app.followups.push(Msg::Ask(Question::Oversize(built)));
}

/// A node's layers view arrived: stored, and the node's preview rendered again.
fn layers_built(app: &mut App, generation: u64, node: NodeId, view: Arc<LayerView>) {
    if generation == app.data_gen {
        app.layers.insert(node, view);
        app.preview.forget(|n| n != node);
        if app.preview.node == Some(node) {
            app.preview.doc = None;
        }
    }
}

/// Once per session, the status says how to install a re-ranking model.
fn tier_hint(app: &mut App) {
    // Added after what the line says (a refusal the user just caused, the load
    // summary), never in its place.
    if !app.tier_hinted {
        app.tier_hinted = true;
        app.status = if app.status.is_empty() {
            crate::rerank::HINT.to_string()
        } else {
            format!("{} · {}", app.status, crate::rerank::HINT)
        };
    }
}

/// A worker failed: the status says which and why.
fn worker_failed(app: &mut App, worker: &str, message: &str) {
    if worker == "clipboard" {
        app.copying = false;
    }

    app.status = format!("{worker} worker failed: {message}");
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
            Loaded::Done => {
                let done = load_done(app);
                if !done {
                    app.loaded.push_front(Loaded::Done);
                }
                done
            }
        };
        if !taken {
            return;
        }
    }
}

/// The roots from `first_new` (nodes from `first_node`) were appended: grow the token
/// table, expand them, take their warnings and exposure levels.
fn root_appended(app: &mut App, first_new: usize, first_node: usize) {
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
    if corpus.roots.len() == 1
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
    clear_layers(app);
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

/// Every root is loaded: resolve the scopes across roots and start counting and indexing.
/// `false` (nothing done) while a worker still holds the corpus the scopes must change.
fn load_done(app: &mut App) -> bool {
    if app.corpus.roots.len() > 1 || app.load_opts.namespace {
        // Same-named skills across scopes: mark the losers `shadowed` (docs/FORMATS.md §5.2).
        let Some(corpus) = Arc::get_mut(&mut app.corpus) else {
            return false;
        };
        if app.load_opts.namespace {
            crate::formats::namespace_skills(corpus);
        }
        crate::formats::resolve_scopes_for(
            corpus,
            app.load_opts.effective_precedence(),
            app.load_opts.agent.is_some(),
        );
        clear_layers(app);
        app.preview.invalidate();
    }
    if let Some(corpus) = Arc::get_mut(&mut app.corpus) {
        crate::skill::lints::mark(corpus);
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
        app.status = format!("Loaded {roots} root{plural} · {n} nodes");
    }
    true
}

/// Drop the disclosure layers computed on an older corpus.
fn clear_layers(app: &mut App) {
    app.layers.clear();
    app.preview.layers_requested.clear();
}

/// Store a document rendered by the worker and show it when it is the one awaited.
/// Results of an older cache generation are dropped.
pub fn apply_rendered(app: &mut App, generation: u64, doc: PreviewDoc) {
    let p = &mut app.preview;
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

/// Swap highlighted code lines into the cached document of (`node`, `width`) and, when it
/// is the one shown, into the preview. Results of an older cache generation are dropped.
pub fn apply_highlight(
    app: &mut App,
    generation: u64,
    node: NodeId,
    width: u16,
    blocks: Vec<(usize, Vec<Line>)>,
) {
    let p = &mut app.preview;
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
        apply(&mut app, WorkerMsg::LoadDone);
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
        apply(&mut app, WorkerMsg::LoadDone);
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
