//! Running the app without a terminal: feed a loaded corpus, run the queued worker jobs
//! synchronously, apply their results. Screen tests and benchmarks drive the real
//! `update`/`apply` path through this, exactly as the event loop does, minus threads.

use std::sync::Arc;

use crate::index::{FuzzyIndex, Index};
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;

use super::app::{App, Effect, TextPurpose};
use super::curate::job::What;
use super::update::apply;
use super::workers::{SearchJob, WorkerMsg, run_search};

/// Append `corpus` as one loaded root batch and finish loading (as the loader would).
pub fn load(app: &mut App, corpus: Corpus) {
    apply(app, WorkerMsg::RootLoaded { corpus: Box::new(corpus), done: 1, total: 1 });
    apply(app, WorkerMsg::LoadDone);
}

/// Load `specs` synchronously as the loader worker would, remembering them (with
/// `opts`) for reloads after edits.
pub fn load_specs(app: &mut App, specs: Vec<crate::formats::RootSpec>, opts: crate::formats::LoadOptions) {
    let total = specs.len();
    for (i, spec) in specs.iter().enumerate() {
        let corpus = crate::formats::load_root(spec, &opts, &mut |_| {});
        apply(app, WorkerMsg::RootLoaded { corpus: Box::new(corpus), done: i + 1, total });
    }
    app.specs = specs;
    app.load_opts = opts;
    apply(app, WorkerMsg::LoadDone);
}

/// Run every queued effect synchronously until none is left: token counting, indexing,
/// searches, highlighting, reloads, previews of briefs and skills, layers and exports. Copy
/// jobs are not run: the units (briefs) or skills (rendered skills) of each are returned;
/// nor are `$EDITOR` runs (no terminal).
pub fn settle(app: &mut App) -> Vec<Vec<NodeId>> {
    let mut copies = Vec::new();
    while !app.effects.is_empty() {
        for effect in std::mem::take(&mut app.effects) {
            match effect {
                Effect::Search { generation, query } => {
                    let job = SearchJob::for_app(app, generation, query);
                    let (content, titles) = run_search(&job);
                    apply(app, WorkerMsg::SearchDone { generation, content, titles });
                }
                Effect::StartBackground => {
                    let corpus = Arc::clone(&app.corpus);
                    let generation = app.data_gen;
                    let ids: Vec<NodeId> = (0..corpus.len() as u32).map(NodeId).collect();
                    let counts = crate::tokens::count_nodes(&corpus, TokenCounter::new(app.encoding()), &ids);
                    let n = counts.len();
                    apply(app, WorkerMsg::Tokens { generation, counts, done: (n, n) });
                    let fuzzy = Arc::new(FuzzyIndex::build(&corpus));
                    apply(app, WorkerMsg::FuzzyReady { generation, fuzzy });
                    let index = Arc::new(Index::build(&corpus, &mut |_, _| {}));
                    apply(app, WorkerMsg::IndexReady { generation, index });
                }
                Effect::Highlight { generation, node, width, blocks } => {
                    let h = crate::render::Highlighter::shared();
                    let theme = app.theme.md.syntax();
                    let blocks = blocks
                        .into_iter()
                        .map(|(i, lang, code)| (i, h.highlight(&code, &lang, theme)))
                        .collect();
                    apply(app, WorkerMsg::Highlighted { generation, node, width, blocks });
                }
                Effect::Render { generation, node, width, terms } => {
                    let tokens = crate::tokens::TokenTable::default();
                    let doc = super::preview::build(&app.corpus, &tokens, node, width, &terms, None);
                    apply(app, WorkerMsg::Rendered { generation, doc: Box::new(doc) });
                }
                Effect::Text { generation, job, purpose: TextPurpose::Preview } => {
                    let result = super::curate::job::build(&job);
                    apply(app, WorkerMsg::TextBuilt { generation, result });
                }
                // No clipboard here: the job's nodes are returned instead.
                Effect::Text { job, purpose: TextPurpose::Copy, .. } => match job.what {
                    What::Brief { units, .. } => copies.push(units),
                    What::Skills { skills, .. } => copies.push(skills),
                },
                Effect::CopyText { .. } => {}
                Effect::Export(job) => {
                    apply(app, WorkerMsg::Exported(super::curate::export::run(&job)));
                }
                Effect::Layers { generation, node } => {
                    let counter = TokenCounter::new(app.encoding());
                    let view = Arc::new(super::layers::compute(&app.corpus, node, counter));
                    apply(app, WorkerMsg::Layers { generation, node, view });
                }
                Effect::Reload { root } => {
                    if let Some(spec) = app.specs.get(root).cloned() {
                        let corpus = crate::formats::load_root(&spec, &app.load_opts, &mut |_| {});
                        apply(app, WorkerMsg::RootReloaded { root, corpus: Box::new(corpus) });
                    }
                }
                // No terminal here to hand to an editor.
                Effect::External { .. } => {}
            }
        }
    }
    copies
}
