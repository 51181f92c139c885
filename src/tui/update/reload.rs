//! Reloading one root after an edit: the root is loaded again on a worker
//! ([`crate::tui::effects::jobs::Job::Reload`]), swapped into the corpus (the other roots are
//! kept as they are, [`crate::model::splice`]), and the tree, selection and cursor are carried over by string node id
//! (arena [`NodeId`]s shift when the root's node count changes). Token counts and the
//! indexes are rebuilt in the background, as after the first load.

use std::collections::HashSet;
use std::sync::Arc;

use crate::formats::LoadOptions;
use crate::model::splice::replace_root;
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::TokenTable;
use crate::tui::effect::Effect;
use crate::tui::state::app::{App, Progress};
use crate::tui::state::curate::Curate;
use crate::tui::state::followup::Msg;
use crate::tui::state::preview::PreviewState;
use crate::tui::state::search::{SearchState, SearchView};
use crate::tui::state::tree::TreeState;

use super::ctx::{Ctx, Shared};

/// What the loader reported of the linked pages of a remote root.
pub struct RemotePages<'a> {
    /// Index of the root.
    pub root: usize,
    /// The root's label.
    pub label: &'a str,
    /// `(pages done, pages in all)`.
    pub done: (usize, usize),
    /// The summary, once every page is done.
    pub report: Option<crate::remote::PageReport>,
}

/// Progress of the linked pages of a remote root: a status line while they arrive; once
/// all are done, the summary and a reload of the root from its spec in `shared` (deferred
/// into `remote_reloads` while the first load is still `loading`, so the reload never
/// races it).
pub fn remote_pages(
    pages: RemotePages,
    loading: bool,
    remote_reloads: &mut Vec<usize>,
    shared: &Shared,
    ctx: &mut Ctx,
) {
    let RemotePages {
        root,
        label,
        done: (done, total),
        report,
    } = pages;
    let label = crate::util::sanitize::sanitize_line(label);
    let Some(report) = report else {
        ctx.say(format!("{label}: fetching linked pages {done}/{total}"));
        return;
    };
    ctx.say(format!(
        "{label}: {}",
        crate::util::sanitize::sanitize_line(&report.summary())
    ));
    if report.fetched == 0 && report.removed == 0 {
        return;
    }
    if loading {
        remote_reloads.push(root);
    } else {
        ctx.queue(shared.reload(root));
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
    let kept = Kept::of(&app.tree, &app.selection, &app.curate, &old);
    swap_root_warnings(&mut app.warnings, &old, ix, &corpus);
    let new = Arc::new(splice_root(&app.load_opts, &old, ix, corpus));
    app.corpus = Arc::clone(&new);
    app.data_gen += 1;
    app.tokens = TokenTable::empty(app.encoding(), &new);
    app.index = None;
    app.fuzzy = None;
    app.tree.expanded = kept
        .expanded
        .iter()
        .filter_map(|s| new.find(s))
        .collect::<HashSet<_>>();
    restore_selection(&mut app.selection, &mut app.status, &new, &kept.selected);
    restore_exposure(&mut app.curate, &new, &kept);
    app.followups.push(Msg::Recount);
    restore_tree(&mut app.tree, &new, kept.cursor);
    let background = Effect::start_background(
        &app.settings.search,
        app.encoding(),
        crate::tui::state::app::Persisted::None,
    );
    app.effects.push(background);
    restart_search(&mut app.search, &mut app.preview, &mut app.progress, &new);
}

/// What the app holds by arena id, kept by string node id across the reload.
struct Kept {
    /// The cursor's node and its ancestors, nearest first.
    cursor: Option<Vec<String>>,
    expanded: Vec<String>,
    selected: Vec<String>,
    /// Exposure levels set on nodes.
    levels: Vec<(String, crate::curate::exposure::Exposure)>,
    /// Every node id of the old corpus.
    known: HashSet<String>,
}

impl Kept {
    /// What `tree`, `selection` and the exposure levels of `curate` hold over the `old`
    /// corpus, by id.
    fn of(tree: &TreeState, selection: &Selection, curate: &Curate, old: &Corpus) -> Self {
        let ids = |set: &mut dyn Iterator<Item = NodeId>| -> Vec<String> {
            set.map(|n| old.id(n)).collect()
        };
        let cursor = tree.current().map(|n| {
            std::iter::once(n)
                .chain(old.ancestors(n))
                .map(|a| old.id(a))
                .collect::<Vec<_>>()
        });
        let expanded = ids(&mut tree.expanded.iter().copied());
        let selected = ids(&mut selection.members());
        let levels: Vec<(String, crate::curate::exposure::Exposure)> = curate
            .exposure
            .entries()
            .into_iter()
            .map(|(n, e)| (old.id(n), e))
            .collect();
        let known: HashSet<String> = (0..old.nodes.len())
            .map(|i| old.id(NodeId(i as u32)))
            .collect();
        Kept {
            cursor,
            expanded,
            selected,
            levels,
            known,
        }
    }
}

/// The status bar's warning count: swap root `ix`'s load warnings for those of `corpus`.
fn swap_root_warnings(warnings: &mut Vec<String>, old: &Corpus, ix: usize, corpus: &Corpus) {
    for w in &old.node(old.roots[ix]).warnings {
        let w = w.to_string();
        if let Some(i) = warnings.iter().position(|x| *x == w) {
            warnings.remove(i);
        }
    }
    warnings.extend(
        corpus
            .roots
            .first()
            .map_or(&[][..], |r| &corpus.node(*r).warnings[..])
            .iter()
            .map(|w| w.to_string()),
    );
}

/// `old` with root `ix` replaced by `corpus`'s, which takes part in the scopes again
/// (docs/FORMATS.md §5.2): its namespace prefix, and `shadowed` marks across roots (the
/// other roots keep theirs; no warning twice); the skill lints marked.
fn splice_root(opts: &LoadOptions, old: &Corpus, ix: usize, corpus: Corpus) -> Corpus {
    let mut replaced = replace_root(old, ix, corpus);
    if opts.namespace {
        let r = replaced.roots[ix];
        crate::formats::namespace_root(&mut replaced, r);
    }
    if replaced.roots.len() > 1 || opts.namespace {
        crate::formats::resolve_scopes_for(
            &mut replaced,
            opts.effective_precedence(),
            opts.agent.is_some(),
        );
    }
    crate::skill::lints::mark(&mut replaced);
    replaced
}

/// Select the `selected` ids again in `new`; those that are gone (a heading renamed, a
/// file moved) are said on the `status` line, not dropped silently.
fn restore_selection(
    selection_out: &mut Selection,
    status: &mut String,
    new: &Corpus,
    selected: &[String],
) {
    let mut selection = Selection::new();
    let mut gone: Vec<&str> = Vec::new();
    for s in selected {
        match new.find(s) {
            Some(n) => selection.select(new, n),
            None => gone.push(s),
        }
    }
    *selection_out = selection;
    if !gone.is_empty() {
        let what = if gone.len() == 1 {
            "1 selected node is".to_string()
        } else {
            format!("{} selected nodes are", gone.len())
        };
        *status = format!(
            "{what} no longer there after the reload: {}",
            gone.join(", ")
        );
    }
}

/// Exposure levels follow their nodes by id; nodes new to the corpus bring their own.
fn restore_exposure(curate: &mut Curate, new: &Corpus, kept: &Kept) {
    let mut exposure = crate::curate::exposure::ExposureMap::new();
    for (id, e) in &kept.levels {
        if let Some(n) = new.find(id) {
            exposure.set(n, Some(*e));
        }
    }
    for (n, e) in crate::curate::exposure::ExposureMap::from_corpus(new).entries() {
        if !kept.known.contains(&new.id(n)) {
            exposure.set(n, Some(e));
        }
    }
    curate.exposure = exposure;
}

/// Rebuild the tree's rows over `new`, the cursor on the nearest surviving node of
/// `cursor` (the old cursor's node and its ancestors).
fn restore_tree(tree: &mut TreeState, new: &Corpus, cursor: Option<Vec<String>>) {
    tree.rows.clear();
    tree.rebuild(new);
    if let Some(chain) = cursor {
        let target = chain
            .iter()
            .filter_map(|s| new.find(s))
            .find_map(|id| tree.rows.iter().position(|r| r.id == id));
        tree.cursor = target.unwrap_or(0);
        tree.clamp();
    }
}

/// Drop what points at the old corpus's arena ids (search hits, the preview) while counting
/// and indexing restart over `new` (the caller queued them); the query re-runs on the new
/// index.
fn restart_search(
    search: &mut SearchState,
    preview: &mut PreviewState,
    progress: &mut Progress,
    new: &Corpus,
) {
    search.view = SearchView::default();
    search.selected = 0;
    preview.node = None;
    preview.invalidate();
    let texts = new.nodes.iter().filter(|n| n.span.is_some()).count();
    progress.counting = (texts > 0).then_some((0, texts));
    if !search.query.trim().is_empty() {
        search.generation += 1;
        search.pending = true;
    }
}
