//! The work of the jobs [`run`](super::jobs::run) hands over whole: building the indexes
//! (then warming summaries, embedding and attaching the re-ranker), the disclosure layers
//! of a node, highlighting code blocks and rendering a large preview. Each reports its
//! [`WorkerMsg`] through `emit`, dropping the corpus it holds first.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::index::{FuzzyIndex, Index, SemanticIndex};
use crate::model::{Corpus, NodeId};
use crate::tokens::{Encoding, TokenCounter};

use super::worker_msg::WorkerMsg;
use crate::tui::state::app::Persisted;

/// How long one code block's highlighting may take before it is shown plain.
const HIGHLIGHT_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// Sectioned ranges of at least this many bytes get their summaries made in the background
/// once the indexes are built; a smaller one is parsed when its first row is drawn (about
/// 0.4 ms at 64 KiB).
const WARM_SUMMARY_BYTES: usize = 64 * 1024;

/// The indexes of `corpus`: the restored ones of `persisted`, sent at once, or built
/// ([`build_indexes`]) and then, when `persisted` names a file, written to it (a folder
/// that cannot be written is a [`WorkerMsg::Warning`]).
pub fn indexes(
    corpus: &Corpus,
    generation: u64,
    persisted: Persisted,
    emit: &mut dyn FnMut(WorkerMsg),
) -> Arc<Index> {
    if let Persisted::Restored(index, fuzzy) = persisted {
        emit(WorkerMsg::FuzzyReady { generation, fuzzy });
        emit(WorkerMsg::IndexReady {
            generation,
            index: Arc::clone(&index),
        });
        return index;
    }
    let (index, fuzzy) = build_indexes(corpus, generation, emit);
    if let Persisted::Pending(pending) = persisted {
        let pending = Arc::unwrap_or_clone(pending);
        if let Some(w) = crate::store::save(pending, corpus, &index, &fuzzy) {
            emit(WorkerMsg::Warning(w));
        }
    }
    index
}

/// Build the fuzzy title index, then the BM25 index (reporting progress about every
/// 80 ms); both are sent as soon as they are built.
pub fn build_indexes(
    corpus: &Corpus,
    generation: u64,
    emit: &mut dyn FnMut(WorkerMsg),
) -> (Arc<Index>, Arc<FuzzyIndex>) {
    let fuzzy = Arc::new(FuzzyIndex::build(corpus));
    emit(WorkerMsg::FuzzyReady {
        generation,
        fuzzy: Arc::clone(&fuzzy),
    });
    let mut last = Instant::now();
    let index = Index::build(corpus, &mut |done, total| {
        if last.elapsed() >= Duration::from_millis(80) {
            last = Instant::now();
            emit(WorkerMsg::IndexProgress {
                generation,
                done: (done, total),
            });
        }
    });
    let index = Arc::new(index);
    emit(WorkerMsg::IndexReady {
        generation,
        index: Arc::clone(&index),
    });
    (index, fuzzy)
}

/// The idle work once the index is searchable: big files' summaries, the embedding (with
/// `semantic`, reusing `previous`'s vectors) and the re-ranker of `rerank`'s settings.
pub fn after_indexes(
    corpus: &Corpus,
    index: &Index,
    semantic: bool,
    previous: Option<&SemanticIndex>,
    rerank: Option<crate::config::SearchSettings>,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    // Summaries are made on first read (docs/DESIGN.md §2 "Sectioning"): those of big
    // files are made here, so drawing their rows never parses one.
    corpus.warm_summaries(WARM_SUMMARY_BYTES);
    // Embedding is an idle pass after the index is searchable (and counting may run
    // beside it): a finished query is re-fused once the vectors are in.
    if semantic {
        index.embed(corpus, previous);
    }
    if let Some(settings) = rerank {
        attach_tier(index, &settings, emit);
    }
}

/// Attach the re-rank tier of `settings` to `index` (docs/DESIGN.md §3 "Re-rank"); without
/// a model the app is told (its status line says once how to install one), a model that
/// does not load is a failed worker.
fn attach_tier(
    index: &Index,
    settings: &crate::config::SearchSettings,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    match crate::rerank::tier(settings, settings.semantic) {
        crate::rerank::Tier::Ready(r) => {
            index.attach_reranker(r);
        }
        crate::rerank::Tier::NoModel => emit(WorkerMsg::TierHint),
        crate::rerank::Tier::Broken(e) => emit(WorkerMsg::Failed {
            worker: "re-rank",
            message: e.to_string(),
        }),
        crate::rerank::Tier::Off => {}
    }
}

/// Compute the disclosure layers of `node`, counted in `encoding`, with the listing
/// budget of `profile` (shown on roots, or always with `show_budget`).
pub fn layers(
    corpus: Arc<Corpus>,
    generation: u64,
    node: NodeId,
    encoding: Encoding,
    profile: &crate::config::AgentSettings,
    show_budget: bool,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    let counter = TokenCounter::new(encoding);
    let view = Arc::new(super::layers::compute(
        &corpus,
        node,
        counter,
        profile,
        show_budget,
    ));
    drop(corpus);
    emit(WorkerMsg::Layers {
        generation,
        node,
        view,
    });
}

/// Highlight the code blocks `(index, language, code)` of `node`'s preview with `theme`
/// (a block that takes over `HIGHLIGHT_DEADLINE`, 2 s, stays plain).
pub fn highlight(
    generation: u64,
    node: NodeId,
    width: u16,
    blocks: Vec<(usize, String, String)>,
    theme: crate::render::SyntaxTheme,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    let h = crate::render::Highlighter::shared();
    let blocks = blocks
        .into_iter()
        .map(|(i, lang, code)| {
            (
                i,
                h.highlight_within(&code, &lang, theme, HIGHLIGHT_DEADLINE),
            )
        })
        .collect();
    emit(WorkerMsg::Highlighted {
        generation,
        node,
        width,
        blocks,
    });
}

/// Render the preview of `node` at `width` with `terms` marked.
pub fn render(
    corpus: Arc<Corpus>,
    generation: u64,
    node: NodeId,
    width: u16,
    terms: &[String],
    mode: crate::tui::state::preview::PreviewMode,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    let tokens = crate::tokens::TokenTable::default();
    let doc = super::preview_doc::build(
        &corpus,
        &tokens,
        node,
        width,
        terms,
        super::preview_doc::Container::default(),
        mode,
    );
    drop(corpus);
    emit(WorkerMsg::Rendered {
        generation,
        doc: Box::new(doc),
    });
}
