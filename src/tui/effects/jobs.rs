//! The one body of every job: [`jobs_for`] turns a queued [`Effect`] (which carries its
//! options) and the [`Live`] data of the moment (the corpus and indexes) into self-contained
//! [`Job`]s on the UI thread, and [`run`] does the
//! work and reports [`WorkerMsg`]s through `emit`. The threaded runtime
//! ([`crate::tui::effects::workers`]) runs each job on a thread; the headless driver
//! ([`crate::tui::effects::headless`]) runs the same [`run`] inline.
//!
//! A job that holds the corpus drops it before it reports its last result, so when that
//! result arrives the UI holds the only handle again and can extend the corpus in place.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::clipboard::{CopyOptions, CopyOutcome, Route};
use crate::formats::{LoadOptions, RootSpec};
use crate::index::{FuzzyIndex, Hit, Index, SearchOptions, SearchResult, SemanticIndex};
use crate::model::{Corpus, NodeId};
use crate::tokens::{Encoding, TokenCounter};
use crate::tui::state::app::{App, Persisted};

use super::export::ExportJob;
use super::text_job::TextJob;
use super::work;
use super::worker_msg::WorkerMsg;
use crate::tui::effect::{Effect, TextPurpose};
use crate::tui::state::built_text::BuiltText;

/// One query for the search worker.
pub struct SearchJob {
    /// Query generation.
    pub generation: u64,
    /// Query text.
    pub query: String,
    /// Corpus searched.
    pub corpus: Arc<Corpus>,
    /// BM25 index, when built.
    pub index: Option<Arc<Index>>,
    /// Fuzzy index, when built.
    pub fuzzy: Option<Arc<FuzzyIndex>>,
    /// Hits per group.
    pub top_k: usize,
    /// Rank the query as finished (`Enter` with the re-ranker on): no prefix expansion, and
    /// the re-ranker runs; otherwise the typed query, which is never re-ranked.
    pub finished: bool,
}

/// A unit of work with everything it needs (sendable to a thread).
pub enum Job {
    /// Load `specs` one root at a time, streaming each corpus as it is ready.
    Load {
        /// The roots to load.
        specs: Vec<RootSpec>,
        /// Loader options.
        opts: LoadOptions,
    },
    /// Load root number `root` again (after an edit of one of its files).
    Reload {
        /// Index of the root in the corpus.
        root: usize,
        /// What it was loaded from.
        spec: RootSpec,
        /// Loader options.
        opts: LoadOptions,
    },
    /// Count tokens of every text-bearing node, in batches about every 60 ms, once `after`
    /// opens (searchable first: counting leaves the cores to indexing).
    CountTokens {
        /// The corpus.
        corpus: Arc<Corpus>,
        /// The encoding.
        encoding: Encoding,
        /// Data generation counted.
        generation: u64,
        /// Opens when its sender is dropped (by [`Job::BuildIndexes`] once both indexes are
        /// built, or when that job ends any other way).
        after: crossbeam_channel::Receiver<()>,
    },
    /// Build the fuzzy title index, then the BM25 index (with progress); then, with
    /// `semantic`, embed its documents in the background (docs/DESIGN.md §3 "Semantic
    /// signal"): the vectors attach to the index already sent, and `Enter` searches fuse
    /// them from then on (never the searches while typing).
    BuildIndexes {
        /// The corpus.
        corpus: Arc<Corpus>,
        /// Data generation indexed.
        generation: u64,
        /// Dropped once both indexes are built: lets the counting of [`Job::CountTokens`] start.
        done: crossbeam_channel::Sender<()>,
        /// Embed the documents (`[search] semantic`).
        semantic: bool,
        /// The vectors of the index this one replaces, reused for unchanged texts.
        previous: Option<Arc<SemanticIndex>>,
        /// Unless `[search] semantic` is off: the settings whose re-ranker (the installed
        /// model) is attached to the index (docs/DESIGN.md §3 "Re-rank"; `Enter` searches
        /// re-rank, typing never does).
        rerank: Option<crate::config::SearchSettings>,
        /// Restored indexes (sent instead of built), or the file the built ones are
        /// persisted to once sent (docs/DESIGN.md §8 "Persisted index").
        persisted: Persisted,
    },
    /// Run one query.
    Search(SearchJob),
    /// Build a text: for the preview popup, or to copy at once (then delivered like
    /// [`Job::CopyText`] with [`Route::Auto`]).
    Text {
        /// Generation of the job.
        generation: u64,
        /// What to build.
        job: TextJob,
        /// Preview or copy.
        purpose: TextPurpose,
        /// Clipboard options.
        opts: CopyOptions,
    },
    /// Build a brief to size it ([`super::text_job::brief_size`]).
    CountBrief {
        /// Generation of the count.
        generation: u64,
        /// The brief.
        job: TextJob,
    },
    /// Copy an already built text by `route`.
    CopyText {
        /// The text.
        built: Arc<BuiltText>,
        /// Which path to take.
        route: Route,
        /// Clipboard options.
        opts: CopyOptions,
    },
    /// Export the curated selection.
    Export(ExportJob),
    /// Compute the disclosure layers of `node` (a skill or root).
    Layers {
        /// The corpus.
        corpus: Arc<Corpus>,
        /// Data generation.
        generation: u64,
        /// The node.
        node: NodeId,
        /// Token encoding of the counts.
        encoding: Encoding,
        /// The listing budget shown on roots (`[agent.claude-code]`).
        profile: crate::config::AgentSettings,
        /// Show it even within budget (`--agent claude-code`).
        show_budget: bool,
    },
    /// Highlight code blocks `(index, language, code)` with `theme`.
    Highlight {
        /// Preview cache generation.
        generation: u64,
        /// The node previewed.
        node: NodeId,
        /// Body width in cells.
        width: u16,
        /// The blocks.
        blocks: Vec<(usize, String, String)>,
        /// Syntax theme.
        theme: crate::render::SyntaxTheme,
    },
    /// Render the preview of `node` at `width` with `terms` marked (a large text).
    Render {
        /// The corpus.
        corpus: Arc<Corpus>,
        /// Preview cache generation.
        generation: u64,
        /// The node.
        node: NodeId,
        /// Body width in cells.
        width: u16,
        /// Search terms to mark.
        terms: Vec<String>,
        /// Raw or rendered, long lines kept or wrapped.
        mode: crate::tui::state::preview::PreviewMode,
    },
}

impl Job {
    /// The worker's name in thread names and failure messages.
    pub fn worker(&self) -> &'static str {
        match self {
            Job::Load { .. } | Job::Reload { .. } => "loader",
            Job::CountTokens { .. } => "tokens",
            Job::BuildIndexes { .. } => "index",
            Job::Search(_) => "search",
            Job::Text { .. } | Job::CopyText { .. } => "clipboard",
            Job::CountBrief { .. } => "tokens",
            Job::Export(_) => "export",
            Job::Layers { .. } => "layers",
            Job::Highlight { .. } => "highlight",
            Job::Render { .. } => "preview",
        }
    }
}

/// The data that changes while the app runs, read when an effect is dispatched (not when
/// it is queued): the corpus handle (the app extends it in place while it holds the only
/// one), its generation and the indexes built over it.
#[derive(Clone, Copy)]
pub struct Live<'a> {
    /// All loaded roots.
    pub corpus: &'a Arc<Corpus>,
    /// Generation of `corpus` (worker results of another are dropped).
    pub data_gen: u64,
    /// BM25 index, once built.
    pub index: Option<&'a Arc<Index>>,
    /// Fuzzy title index, once built.
    pub fuzzy: Option<&'a Arc<FuzzyIndex>>,
}

impl<'a> Live<'a> {
    /// The live data of `app` (its corpus, data generation and indexes).
    pub fn of(app: &'a App) -> Self {
        Live {
            corpus: &app.corpus,
            data_gen: app.data_gen,
            index: app.index.as_ref(),
            fuzzy: app.fuzzy.as_ref(),
        }
    }
}

/// The jobs of `effect` over the `live` data: one each, two for
/// [`Effect::StartBackground`] (indexing, then counting: the counting job waits for the
/// indexes, so run them in this order when running them one after the other), none for
/// [`Effect::External`] (the event loop runs `$EDITOR` itself) or a reload of a root that
/// has no spec. Everything else a job needs travels in the effect.
pub fn jobs_for(effect: Effect, live: &Live) -> Vec<Job> {
    let job = match effect {
        Effect::Search {
            generation,
            query,
            top_k,
            finished,
        } => Job::Search(SearchJob {
            generation,
            query,
            corpus: Arc::clone(live.corpus),
            index: live.index.cloned(),
            fuzzy: live.fuzzy.cloned(),
            top_k,
            finished,
        }),
        Effect::Layers {
            generation,
            node,
            encoding,
            profile,
            show_budget,
        } => Job::Layers {
            corpus: Arc::clone(live.corpus),
            generation,
            node,
            encoding,
            profile,
            show_budget,
        },
        Effect::Render {
            generation,
            node,
            width,
            terms,
            mode,
        } => Job::Render {
            corpus: Arc::clone(live.corpus),
            generation,
            node,
            width,
            terms,
            mode,
        },
        Effect::StartBackground {
            encoding,
            semantic,
            rerank,
            persisted,
        } => return background_jobs(live, encoding, (semantic, rerank), persisted),
        Effect::Reload { root, spec, opts } => match spec {
            Some(spec) => Job::Reload { root, spec, opts },
            None => return Vec::new(),
        },
        other => return carried(other).into_iter().collect(),
    };
    vec![job]
}

/// The job of an effect that carries all it needs (a text, a count, a copy, an export, a
/// highlighting); `None` for the others (and for `$EDITOR`, which the event loop runs).
fn carried(effect: Effect) -> Option<Job> {
    Some(match effect {
        Effect::Text {
            generation,
            job,
            purpose,
            opts,
        } => Job::Text {
            generation,
            job: *job,
            purpose,
            opts,
        },
        Effect::CountBrief { generation, job } => Job::CountBrief {
            generation,
            job: *job,
        },
        Effect::CopyText { built, route, opts } => Job::CopyText { built, route, opts },
        Effect::Export(job) => Job::Export(*job),
        Effect::Highlight {
            generation,
            node,
            width,
            blocks,
            theme,
        } => Job::Highlight {
            generation,
            node,
            width,
            blocks,
            theme,
        },
        _ => return None,
    })
}

/// The background work after a (re)load: build the indexes or take the restored ones of
/// `persisted` (embedding with `semantic`, re-ranking with `rerank`), then count the tokens
/// in `encoding` once both are in (searchable first).
fn background_jobs(
    live: &Live,
    encoding: Encoding,
    (semantic, rerank): (bool, Option<crate::config::SearchSettings>),
    persisted: Persisted,
) -> Vec<Job> {
    let corpus = Arc::clone(live.corpus);
    let generation = live.data_gen;
    let (done, after) = crossbeam_channel::bounded(0);
    vec![
        Job::BuildIndexes {
            corpus: Arc::clone(&corpus),
            generation,
            done,
            semantic,
            previous: live.index.and_then(|i| i.semantic().cloned()),
            rerank,
            persisted,
        },
        Job::CountTokens {
            corpus,
            encoding,
            generation,
            after,
        },
    ]
}

/// Do `job`, reporting its results through `emit` in order.
pub fn run(job: Job, emit: &mut dyn FnMut(WorkerMsg)) {
    match job {
        Job::Load { specs, opts } => load(&specs, &opts, emit),
        Job::Reload { root, spec, opts } => reload(root, &spec, &opts, emit),
        Job::CountTokens {
            corpus,
            encoding,
            generation,
            after,
        } => {
            // Searchable first: wait until the indexes are built (or their job is gone).
            let _ = after.recv();
            count_tokens(corpus, encoding, generation, emit);
        }
        Job::BuildIndexes {
            corpus,
            generation,
            done,
            semantic,
            previous,
            rerank,
            persisted,
        } => {
            let index = work::indexes(&corpus, generation, persisted, emit);
            drop(done);
            work::after_indexes(&corpus, &index, semantic, previous.as_deref(), rerank, emit);
        }
        Job::Search(job) => search(job, emit),
        Job::Text {
            generation,
            job,
            purpose,
            opts,
        } => text(generation, job, purpose, &opts, emit),
        Job::CountBrief { generation, job } => count_brief(generation, job, emit),
        Job::CopyText { built, route, opts } => deliver(built, route, &opts, emit),
        Job::Export(job) => {
            let outcome = super::export::run(&job);
            drop(job);
            emit(WorkerMsg::Exported(outcome));
        }
        Job::Layers {
            corpus,
            generation,
            node,
            encoding,
            profile,
            show_budget,
        } => work::layers(
            corpus,
            generation,
            node,
            encoding,
            &profile,
            show_budget,
            emit,
        ),
        Job::Highlight {
            generation,
            node,
            width,
            blocks,
            theme,
        } => work::highlight(generation, node, width, blocks, theme, emit),
        Job::Render {
            corpus,
            generation,
            node,
            width,
            terms,
            mode,
        } => work::render(corpus, generation, node, width, &terms, mode, emit),
    }
}

/// Load root number `root` again from `spec`.
fn reload(root: usize, spec: &RootSpec, opts: &LoadOptions, emit: &mut dyn FnMut(WorkerMsg)) {
    let corpus = crate::formats::load_root(spec, opts, &mut |_| {});
    emit(WorkerMsg::RootReloaded {
        root,
        corpus: Box::new(corpus),
    });
}

/// Run one query and report its results (the job, which holds the corpus, dropped first).
fn search(job: SearchJob, emit: &mut dyn FnMut(WorkerMsg)) {
    let (content, titles) = run_search(&job);
    let generation = job.generation;
    drop(job);
    emit(WorkerMsg::SearchDone {
        generation,
        content,
        titles,
    });
}

/// Build a text: report it for the preview, or deliver it to the clipboard.
fn text(
    generation: u64,
    job: TextJob,
    purpose: TextPurpose,
    opts: &CopyOptions,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    let result = super::text_job::build(&job);
    drop(job);
    match (purpose, result) {
        (TextPurpose::Preview, result) => emit(WorkerMsg::TextBuilt { generation, result }),
        (TextPurpose::Copy, Ok(built)) => {
            deliver(Arc::new(built), Route::Auto, opts, emit);
        }
        (TextPurpose::Copy, Err(e)) => emit(WorkerMsg::Copied(Err(e))),
    }
}

/// Size a brief: its tokens and how many parts it left out.
fn count_brief(generation: u64, job: TextJob, emit: &mut dyn FnMut(WorkerMsg)) {
    let (tokens, left_out) = super::text_job::brief_size(&job);
    drop(job);
    emit(WorkerMsg::BriefCounted {
        generation,
        tokens,
        left_out,
    });
}

/// Load `specs`: whole from the persisted index when none of their files changed, else one
/// root at a time (a root whose loader panics is reported and skipped), recording what is
/// read so the result can be persisted once indexed (docs/DESIGN.md §8 "Persisted index").
fn load(specs: &[RootSpec], opts: &LoadOptions, emit: &mut dyn FnMut(WorkerMsg)) {
    let req = crate::agent::workspace::index_request(specs, opts);
    let loading = match crate::store::begin(&req) {
        crate::store::Begun::Reused(indexed) => return restored(*indexed, specs.len(), emit),
        crate::store::Begun::Load(loading) => loading,
    };
    let total = specs.len();
    let mut failed = false;
    let spill = loading.is_full();
    for (i, spec) in specs.iter().enumerate() {
        match load_one(spec, opts, spill, emit) {
            Some(corpus) => emit(WorkerMsg::RootLoaded {
                corpus: Box::new(corpus),
                done: i + 1,
                total,
            }),
            None => failed = true,
        }
    }
    let loaded = loading.finish();
    // A root that failed to load is not persisted: the next start tries it again.
    let persisted = match loaded.pending {
        Some(p) if !failed => Persisted::Pending(Arc::new(p)),
        _ => Persisted::None,
    };
    emit(WorkerMsg::LoadDone {
        persisted,
        warnings: loaded.warnings,
    });
}

/// Load one root, reporting progress about every 50 ms; `None` (reported) when its loader
/// panics. With `spill` (a full load), the root's texts are let go as they are read and
/// read again from the files when shown (docs/DESIGN.md §8 "Memory").
fn load_one(
    spec: &RootSpec,
    opts: &LoadOptions,
    spill: bool,
    emit: &mut dyn FnMut(WorkerMsg),
) -> Option<Corpus> {
    let loaded = {
        let mut last = Instant::now();
        let mut progress = |files: usize| {
            if last.elapsed() >= Duration::from_millis(50) {
                last = Instant::now();
                emit(WorkerMsg::LoadProgress { files });
            }
        };
        catch_unwind(AssertUnwindSafe(|| {
            if !spill {
                return crate::formats::load_root(spec, opts, &mut progress);
            }
            let load = || crate::formats::load_root(spec, opts, &mut progress);
            let mut corpus = crate::formats::walk::spill::while_spilling(load);
            corpus.spill_texts();
            corpus
        }))
    };
    if loaded.is_err() {
        let message = format!("{}: loading failed", spec.path.display());
        emit(WorkerMsg::Failed {
            worker: "loader",
            message,
        });
    }
    loaded.ok()
}

/// The roots whole from the persisted index, with the indexes to use instead of building.
fn restored(indexed: crate::store::Indexed, total: usize, emit: &mut dyn FnMut(WorkerMsg)) {
    let persisted = Persisted::Restored(Arc::new(indexed.index), Arc::new(indexed.fuzzy));
    emit(WorkerMsg::RootLoaded {
        corpus: Box::new(indexed.corpus),
        done: total,
        total,
    });
    emit(WorkerMsg::LoadDone {
        persisted,
        warnings: indexed.warnings,
    });
}

/// `ids` (nodes with text, in tree order) in runs of `min` nodes, except that a run is not
/// cut inside a source whose text is not held: that text is read once for all its
/// sections (docs/DESIGN.md §8 "Memory"), not once per run of a file of 80,000.
fn source_chunks<'a>(corpus: &Corpus, ids: &'a [NodeId], min: usize) -> Vec<&'a [NodeId]> {
    let source = |id: NodeId| corpus.node(id).span.map(|s| s.source);
    let held = |id: NodeId| {
        source(id)
            .and_then(|s| corpus.sources.get(s.0 as usize))
            .is_none_or(crate::model::Source::is_held)
    };
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..ids.len() {
        let cut = source(ids[i]) != source(ids[i - 1]) || held(ids[i - 1]);
        if i - start >= min && cut {
            out.push(&ids[start..i]);
            start = i;
        }
    }
    if start < ids.len() {
        out.push(&ids[start..]);
    }
    out
}

/// Count tokens of every text-bearing node, reporting a batch about every 60 ms; the last
/// batch (all counted) is reported after the corpus is dropped and the BPE tables released.
fn count_tokens(
    corpus: Arc<Corpus>,
    encoding: Encoding,
    generation: u64,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    let counter = TokenCounter::new(encoding);
    let ids: Vec<NodeId> = corpus
        .all_preorder()
        .into_iter()
        .filter(|i| corpus.node(*i).span.is_some())
        .collect();
    let total = ids.len();
    let mut done = 0;
    let mut pending = Vec::new();
    let mut last = Instant::now();
    for chunk in source_chunks(&corpus, &ids, 256) {
        pending.extend(crate::tokens::count_nodes(&corpus, counter, chunk));
        done += chunk.len();
        if last.elapsed() >= Duration::from_millis(60) && done < total {
            last = Instant::now();
            let counts = std::mem::take(&mut pending);
            emit(WorkerMsg::Tokens {
                generation,
                counts,
                done: (done, total),
            });
        }
    }
    drop(corpus);
    crate::tokens::cache::flush();
    // Counting is done: free the BPE tables (a later count loads them again).
    counter.release();
    emit(WorkerMsg::Tokens {
        generation,
        counts: pending,
        done: (total, total),
    });
}

/// Run one query: fuzzy titles and (when the index is built) BM25, with prefix expansion
/// of the last word while it is still being typed (docs/DESIGN.md §3); `key:value` words filter by
/// kind or format field (`status:proposed`).
pub fn run_search(job: &SearchJob) -> (SearchResult, Vec<Hit>) {
    let opts = SearchOptions {
        top_k: job.top_k,
        prefix: !job.finished,
    };
    crate::index::filter::search_all(
        &job.corpus,
        job.index.as_deref(),
        job.fuzzy.as_deref(),
        &job.query,
        &opts,
    )
}

/// The clipboard chain of the TUI, by the one policy ([`crate::clipboard::deliver`]): a
/// text over the OSC 52 limit that the system clipboard did not take is not sent before the
/// user chose ([`WorkerMsg::CopyAsk`]). The status names the path taken and what the budget
/// left out.
fn deliver(
    built: Arc<BuiltText>,
    route: Route,
    opts: &CopyOptions,
    emit: &mut dyn FnMut(WorkerMsg),
) {
    use crate::clipboard::{Delivered, status_line_with_limit};
    let status = |o: &CopyOutcome| {
        let mut s = status_line_with_limit(
            o,
            built.bytes,
            built.tokens,
            built.encoding,
            opts.osc52_limit,
        );
        if !built.left_out.is_empty() {
            s.push_str(&format!(
                " · left out {} over the budget",
                built.left_out.len()
            ));
        }
        s
    };
    match crate::clipboard::deliver(&built.text, built.ext, route, true, opts) {
        Ok(Delivered::AskFirst) => emit(WorkerMsg::CopyAsk(built)),
        Ok(Delivered::Done(o)) => emit(WorkerMsg::Copied(Ok(status(&o)))),
        Err(e) => emit(WorkerMsg::Copied(Err(format!("copy failed: {e}")))),
    }
}
