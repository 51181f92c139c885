//! Reloading one root after an edit: the root is loaded again on a worker
//! ([`crate::tui::effects::jobs::Job::Reload`]), swapped into the corpus (the other roots are
//! kept as they are, [`crate::model::splice`]), and the tree, selection and cursor are carried over by string node id
//! (arena [`NodeId`]s shift when the root's node count changes). Token counts and the
//! indexes are rebuilt in the background, as after the first load.

use std::collections::HashSet;
use std::sync::Arc;

use crate::model::splice::replace_root;
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::TokenTable;
use crate::tui::effect::Effect;
use crate::tui::state::app::App;
use crate::tui::state::followup::Msg;
use crate::tui::state::search::SearchView;

/// Progress of the linked pages of remote root `root`: a status line while they arrive; once
/// all are done, the summary and a reload of the root (deferred until the first load is
/// done, so the reload never races it).
pub fn remote_pages(
    app: &mut App,
    root: usize,
    label: &str,
    (done, total): (usize, usize),
    report: Option<crate::remote::PageReport>,
) {
    let label = crate::util::sanitize::sanitize_line(label);
    let Some(report) = report else {
        app.status = format!("{label}: fetching linked pages {done}/{total}");
        return;
    };
    app.status = format!(
        "{label}: {}",
        crate::util::sanitize::sanitize_line(&report.summary())
    );
    if report.fetched == 0 && report.removed == 0 {
        return;
    }
    if app.progress.loading.is_some() {
        app.remote_reloads.push(root);
    } else {
        app.effects.push(Effect::Reload { root });
    }
}

/// Swap a reloaded root into the app: keep the cursor on the same node id (or its nearest
/// surviving ancestor), the expanded nodes and the selection; restart token counting and
/// indexing; re-run the query once the new index is ready.
pub fn apply_reloaded(app: &mut App, ix: usize, corpus: Corpus) {
    if ix >= app.corpus.roots.len() {
        return;
    }
    let old = Arc::clone(&app.corpus);
    let ids = |set: &mut dyn Iterator<Item = NodeId>| -> Vec<String> {
        set.map(|n| old.node(n).id.clone()).collect()
    };
    let cursor = app.tree.current().map(|n| {
        std::iter::once(n)
            .chain(old.ancestors(n))
            .map(|a| old.node(a).id.clone())
            .collect::<Vec<_>>()
    });
    let expanded = ids(&mut app.tree.expanded.iter().copied());
    let selected = ids(&mut app.selection.members());
    let levels: Vec<(String, crate::curate::exposure::Exposure)> = app
        .curate
        .exposure
        .entries()
        .into_iter()
        .map(|(n, e)| (old.node(n).id.clone(), e))
        .collect();
    let known: HashSet<String> = old.nodes.iter().map(|n| n.id.clone()).collect();
    // The status bar's warning count: swap the root's load warnings for the new ones.
    for w in &old.node(old.roots[ix]).warnings {
        let w = w.to_string();
        if let Some(i) = app.warnings.iter().position(|x| *x == w) {
            app.warnings.remove(i);
        }
    }
    app.warnings.extend(
        corpus
            .roots
            .first()
            .map_or(&[][..], |r| &corpus.node(*r).warnings[..])
            .iter()
            .map(|w| w.to_string()),
    );
    let mut replaced = replace_root(&old, ix, corpus);
    // The reloaded root takes part in the scopes again (docs/FORMATS.md §5.2): its namespace
    // prefix, and `shadowed` marks across roots (the other roots keep theirs; no warning twice).
    if app.load_opts.namespace {
        let r = replaced.roots[ix];
        crate::formats::namespace_root(&mut replaced, r);
    }
    if replaced.roots.len() > 1 || app.load_opts.namespace {
        crate::formats::resolve_scopes_for(
            &mut replaced,
            app.load_opts.effective_precedence(),
            app.load_opts.agent.is_some(),
        );
    }
    crate::skill::lints::mark(&mut replaced);
    let new = Arc::new(replaced);
    app.corpus = Arc::clone(&new);
    app.data_gen += 1;
    app.tokens = TokenTable::empty(app.encoding(), &new);
    app.index = None;
    app.fuzzy = None;
    app.tree.expanded = expanded
        .iter()
        .filter_map(|s| new.find(s))
        .collect::<HashSet<_>>();
    let mut selection = Selection::new();
    let mut gone: Vec<&str> = Vec::new();
    for s in &selected {
        match new.find(s) {
            Some(n) => selection.select(&new, n),
            None => gone.push(s),
        }
    }
    app.selection = selection;
    // Selected sections whose ids are gone (a heading renamed, a file moved) are said, not
    // dropped silently.
    if !gone.is_empty() {
        let what = if gone.len() == 1 {
            "1 selected node is".to_string()
        } else {
            format!("{} selected nodes are", gone.len())
        };
        app.status = format!(
            "{what} no longer there after the reload: {}",
            gone.join(", ")
        );
    }
    // Exposure levels follow their nodes by id; nodes new to the corpus bring their own.
    let mut exposure = crate::curate::exposure::ExposureMap::new();
    for (id, e) in &levels {
        if let Some(n) = new.find(id) {
            exposure.set(n, Some(*e));
        }
    }
    for (n, e) in crate::curate::exposure::ExposureMap::from_corpus(&new).entries() {
        if !known.contains(&new.node(n).id) {
            exposure.set(n, Some(e));
        }
    }
    app.curate.exposure = exposure;
    app.followups.push(Msg::Recount);
    app.tree.rows.clear();
    app.tree.rebuild(&new);
    if let Some(chain) = cursor {
        let target = chain
            .iter()
            .filter_map(|s| new.find(s))
            .find_map(|id| app.tree.rows.iter().position(|r| r.id == id));
        app.tree.cursor = target.unwrap_or(0);
        app.tree.clamp();
    }
    // Hits point at arena ids of the old corpus: drop them; the query re-runs on the new index.
    app.search.view = SearchView::default();
    app.search.selected = 0;
    app.preview.node = None;
    app.preview.invalidate();
    let texts = new.nodes.iter().filter(|n| n.span.is_some()).count();
    app.progress.counting = (texts > 0).then_some((0, texts));
    app.effects.push(Effect::StartBackground);
    if !app.search.query.trim().is_empty() {
        app.search.generation += 1;
        app.search.pending = true;
    }
}
