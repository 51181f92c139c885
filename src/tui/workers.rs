//! Background workers and the messages they send to the UI thread: loading, token
//! counting, index building, per-keystroke search, clipboard copy and code highlighting.
//!
//! Every worker body runs under `catch_unwind`: a panic becomes [`WorkerMsg::Failed`] (a
//! status message), never a crash. Results carry the generation they were asked for; the
//! UI drops stale ones.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::formats::{LoadOptions, RootSpec};
use crate::index::{FuzzyIndex, Hit, Index, SearchOptions, SearchResult};
use crate::model::{Corpus, NodeId};
use crate::tokens::{Encoding, TokenCounter};

use super::app::{CopyRoute, TextPurpose};
use super::curate::job::{BuiltText, TextJob};

/// A message from a worker to the UI thread.
pub enum WorkerMsg {
    /// Files read so far while loading the current root.
    LoadProgress {
        /// Files read in the root being loaded.
        files: usize,
    },
    /// One root finished loading.
    RootLoaded {
        /// The root's corpus (to be appended).
        corpus: Box<Corpus>,
        /// Roots done so far.
        done: usize,
        /// Roots to load.
        total: usize,
    },
    /// All roots are loaded.
    LoadDone,
    /// One root was loaded again after an edit (to be swapped in at `root`).
    RootReloaded {
        /// Index of the root in the corpus.
        root: usize,
        /// The root's new corpus.
        corpus: Box<Corpus>,
    },
    /// A batch of own-text token counts.
    Tokens {
        /// Data generation counted.
        generation: u64,
        /// `(node, tokens)` pairs.
        counts: Vec<(NodeId, u64)>,
        /// Nodes counted so far and in all.
        done: (usize, usize),
    },
    /// The fuzzy title index is ready.
    FuzzyReady {
        /// Data generation indexed.
        generation: u64,
        /// The index.
        fuzzy: Arc<FuzzyIndex>,
    },
    /// BM25 indexing progress.
    IndexProgress {
        /// Data generation.
        generation: u64,
        /// Documents done and in all.
        done: (usize, usize),
    },
    /// The BM25 index is ready.
    IndexReady {
        /// Data generation indexed.
        generation: u64,
        /// The index.
        index: Arc<Index>,
    },
    /// Results of one query.
    SearchDone {
        /// Query generation.
        generation: u64,
        /// Content hits (empty while the BM25 index is being built).
        content: SearchResult,
        /// Title hits.
        titles: Vec<Hit>,
    },
    /// The clipboard copy finished: the status line, or an error message.
    Copied(Result<String, String>),
    /// A text for the preview popup was built (or why it could not be).
    TextBuilt {
        /// [`crate::tui::curate::Curate::generation`] of the job.
        generation: u64,
        /// The text, or a status message.
        result: Result<super::curate::job::BuiltText, String>,
    },
    /// The system clipboard failed and the text is over the OSC 52 limit: ask the user.
    CopyAsk(Arc<super::curate::job::BuiltText>),
    /// An export finished.
    Exported(super::curate::export::ExportOutcome),
    /// The disclosure layers of a skill or root.
    Layers {
        /// Data generation they were computed on.
        generation: u64,
        /// The node.
        node: NodeId,
        /// The layers.
        view: Arc<super::layers::LayerView>,
    },
    /// A preview document rendered off the UI thread.
    Rendered {
        /// Preview cache generation.
        generation: u64,
        /// The document (its node and width inside).
        doc: Box<super::preview::PreviewDoc>,
    },
    /// Highlighted code blocks for the preview.
    Highlighted {
        /// Preview cache generation.
        generation: u64,
        /// Node previewed.
        node: NodeId,
        /// Body width.
        width: u16,
        /// `(block index, one highlighted line per code line)`.
        blocks: Vec<(usize, Vec<crate::render::Line>)>,
    },
    /// A worker panicked or failed.
    Failed {
        /// Which worker.
        worker: &'static str,
        /// What happened.
        message: String,
    },
}

/// Run `f`, turning a panic into [`WorkerMsg::Failed`] on `tx`.
pub fn guarded(tx: &Sender<WorkerMsg>, worker: &'static str, f: impl FnOnce()) {
    if let Err(p) = catch_unwind(AssertUnwindSafe(f)) {
        let message = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panicked".into());
        let _ = tx.send(WorkerMsg::Failed { worker, message });
    }
}

/// Spawn a named thread running `f` under [`guarded`]. A thread that cannot start is
/// reported as [`WorkerMsg::Failed`].
pub fn spawn(
    tx: &Sender<WorkerMsg>,
    worker: &'static str,
    f: impl FnOnce(&Sender<WorkerMsg>) + Send + 'static,
) {
    let thread_tx = tx.clone();
    let res = std::thread::Builder::new().name(format!("skillnav-{worker}")).spawn(move || {
        guarded(&thread_tx, worker, || f(&thread_tx));
    });
    if let Err(e) = res {
        let _ = tx.send(WorkerMsg::Failed { worker, message: format!("cannot start a thread: {e}") });
    }
}

/// Load `specs` one root at a time, streaming each corpus as it is ready.
pub fn load(tx: &Sender<WorkerMsg>, specs: Vec<RootSpec>, opts: LoadOptions) {
    spawn(tx, "loader", move |tx| {
        let total = specs.len();
        for (i, spec) in specs.iter().enumerate() {
            let mut last = Instant::now();
            let progress_tx = tx.clone();
            let mut progress = move |files: usize| {
                if last.elapsed() >= Duration::from_millis(50) {
                    last = Instant::now();
                    let _ = progress_tx.send(WorkerMsg::LoadProgress { files });
                }
            };
            let loaded =
                catch_unwind(AssertUnwindSafe(|| crate::formats::load_root(spec, &opts, &mut progress)));
            match loaded {
                Ok(corpus) => {
                    let _ = tx.send(WorkerMsg::RootLoaded { corpus: Box::new(corpus), done: i + 1, total });
                }
                Err(_) => {
                    let message = format!("{}: loading failed", spec.path.display());
                    let _ = tx.send(WorkerMsg::Failed { worker: "loader", message });
                }
            }
        }
        let _ = tx.send(WorkerMsg::LoadDone);
    });
}

/// Load `spec` again (root number `root`) after an edit of one of its files.
pub fn reload(tx: &Sender<WorkerMsg>, root: usize, spec: RootSpec, opts: LoadOptions) {
    spawn(tx, "loader", move |tx| {
        let corpus = crate::formats::load_root(&spec, &opts, &mut |_| {});
        let _ = tx.send(WorkerMsg::RootReloaded { root, corpus: Box::new(corpus) });
    });
}

/// Count tokens of every text-bearing node, sending a batch about every 60 ms.
pub fn count_tokens(tx: &Sender<WorkerMsg>, corpus: Arc<Corpus>, encoding: Encoding, generation: u64) {
    spawn(tx, "tokens", move |tx| {
        let counter = TokenCounter::new(encoding);
        counter.warm_up();
        let ids: Vec<NodeId> =
            corpus.all_preorder().into_iter().filter(|i| corpus.node(*i).span.is_some()).collect();
        let total = ids.len();
        let mut done = 0;
        let mut pending = Vec::new();
        let mut last = Instant::now();
        for chunk in ids.chunks(256) {
            pending.extend(crate::tokens::count_nodes(&corpus, counter, chunk));
            done += chunk.len();
            if last.elapsed() >= Duration::from_millis(60) || done == total {
                last = Instant::now();
                let counts = std::mem::take(&mut pending);
                if tx.send(WorkerMsg::Tokens { generation, counts, done: (done, total) }).is_err() {
                    return;
                }
            }
        }
        if total == 0 {
            let _ = tx.send(WorkerMsg::Tokens { generation, counts: Vec::new(), done: (0, 0) });
        }
    });
}

/// Build the fuzzy title index, then the BM25 index (with progress).
pub fn build_indexes(tx: &Sender<WorkerMsg>, corpus: Arc<Corpus>, generation: u64) {
    spawn(tx, "index", move |tx| {
        let fuzzy = Arc::new(FuzzyIndex::build(&corpus));
        let _ = tx.send(WorkerMsg::FuzzyReady { generation, fuzzy });
        let mut last = Instant::now();
        let progress_tx = tx.clone();
        let index = Index::build(&corpus, &mut |done, total| {
            if last.elapsed() >= Duration::from_millis(80) {
                last = Instant::now();
                let _ = progress_tx.send(WorkerMsg::IndexProgress { generation, done: (done, total) });
            }
        });
        let _ = tx.send(WorkerMsg::IndexReady { generation, index: Arc::new(index) });
    });
}

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
}

impl SearchJob {
    /// The job for query `query` (generation `generation`) over the app's current corpus and
    /// indexes — the one place both the threaded runtime and the headless driver build it.
    pub fn for_app(app: &super::app::App, generation: u64, query: String) -> Self {
        Self {
            generation,
            query,
            corpus: Arc::clone(&app.corpus),
            index: app.index.clone(),
            fuzzy: app.fuzzy.clone(),
            top_k: app.settings.search.top_k,
        }
    }
}

/// Start the long-lived search worker; it always runs only the newest queued query.
pub fn search_worker(tx: &Sender<WorkerMsg>) -> Sender<SearchJob> {
    let (job_tx, job_rx) = crossbeam_channel::unbounded::<SearchJob>();
    spawn(tx, "search", move |tx| search_loop(tx, &job_rx));
    job_tx
}

fn search_loop(tx: &Sender<WorkerMsg>, rx: &Receiver<SearchJob>) {
    while let Ok(mut job) = rx.recv() {
        // Skip queries typed over: only the newest matters.
        while let Ok(newer) = rx.try_recv() {
            job = newer;
        }
        let ran = catch_unwind(AssertUnwindSafe(|| run_search(&job)));
        let msg = match ran {
            Ok((content, titles)) => WorkerMsg::SearchDone { generation: job.generation, content, titles },
            Err(_) => {
                WorkerMsg::Failed { worker: "search", message: format!("query {:?} failed", job.query) }
            }
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
}

/// Run one query: fuzzy titles and (when the index is built) BM25 with prefix expansion;
/// `key:value` words filter by kind or format field (`status:proposed`).
pub fn run_search(job: &SearchJob) -> (SearchResult, Vec<Hit>) {
    let opts = SearchOptions { top_k: job.top_k, prefix: true };
    crate::index::filter::search_all(
        &job.corpus,
        job.index.as_deref(),
        job.fuzzy.as_deref(),
        &job.query,
        &opts,
    )
}

/// Build the text of `job`: for the preview popup (reports [`WorkerMsg::TextBuilt`]) or to
/// copy at once (then delivered like [`copy_text`] with [`CopyRoute::Auto`]).
pub fn text(
    tx: &Sender<WorkerMsg>,
    generation: u64,
    job: TextJob,
    purpose: TextPurpose,
    opts: crate::clipboard::CopyOptions,
) {
    spawn(tx, "clipboard", move |tx| {
        let result = super::curate::job::build(&job);
        match (purpose, result) {
            (TextPurpose::Preview, result) => {
                let _ = tx.send(WorkerMsg::TextBuilt { generation, result });
            }
            (TextPurpose::Copy, Ok(built)) => deliver(tx, Arc::new(built), CopyRoute::Auto, &opts),
            (TextPurpose::Copy, Err(e)) => {
                let _ = tx.send(WorkerMsg::Copied(Err(e)));
            }
        }
    });
}

/// Copy an already built text by `route`.
pub fn copy_text(
    tx: &Sender<WorkerMsg>,
    built: Arc<BuiltText>,
    route: CopyRoute,
    opts: crate::clipboard::CopyOptions,
) {
    spawn(tx, "clipboard", move |tx| deliver(tx, built, route, &opts));
}

/// The clipboard chain of the TUI (issue 5 §9): the system clipboard first; when it fails, a
/// text within `opts.osc52_limit` goes over OSC 52 (else a file), and a larger one is not
/// sent before the user chose ([`WorkerMsg::CopyAsk`]). The status names the path taken.
fn deliver(
    tx: &Sender<WorkerMsg>,
    built: Arc<BuiltText>,
    route: CopyRoute,
    opts: &crate::clipboard::CopyOptions,
) {
    use crate::clipboard::{
        CopyOptions, CopyOutcome, copy_native, copy_with, save_to_file_as, status_line_with_limit,
    };
    let status = |o: &CopyOutcome| {
        let mut s = status_line_with_limit(o, built.bytes, built.tokens, built.encoding, opts.osc52_limit);
        if !built.left_out.is_empty() {
            s.push_str(&format!(" · left out {} over the budget", built.left_out.len()));
        }
        s
    };
    let result = match route {
        CopyRoute::Auto => {
            if copy_native(&built.text, opts).is_ok() {
                Ok(CopyOutcome::Copied)
            } else if built.text.len() > opts.osc52_limit && opts.osc52 {
                let _ = tx.send(WorkerMsg::CopyAsk(built));
                return;
            } else {
                copy_with(&built.text, &CopyOptions { native: false, ..opts.clone() })
            }
        }
        CopyRoute::Osc52 => {
            copy_with(&built.text, &CopyOptions { native: false, oversize_to_file: false, ..opts.clone() })
        }
        CopyRoute::File => {
            save_to_file_as(&built.text, opts.fallback_dir.as_deref(), built.ext).map(CopyOutcome::Saved)
        }
    };
    let _ = tx.send(WorkerMsg::Copied(result.map(|o| status(&o)).map_err(|e| format!("copy failed: {e}"))));
}

/// Export the curated selection (issue 5 §7).
pub fn export(tx: &Sender<WorkerMsg>, job: super::curate::export::ExportJob) {
    spawn(tx, "export", move |tx| {
        let _ = tx.send(WorkerMsg::Exported(super::curate::export::run(&job)));
    });
}

/// Compute the disclosure layers of `node` (a skill or root).
pub fn layers(
    tx: &Sender<WorkerMsg>,
    corpus: Arc<Corpus>,
    generation: u64,
    node: NodeId,
    encoding: Encoding,
) {
    spawn(tx, "layers", move |tx| {
        let view = Arc::new(super::layers::compute(&corpus, node, TokenCounter::new(encoding)));
        let _ = tx.send(WorkerMsg::Layers { generation, node, view });
    });
}

/// Render the preview of `node` at `width` with `terms` marked (a large text).
pub fn render(
    tx: &Sender<WorkerMsg>,
    corpus: Arc<Corpus>,
    generation: u64,
    node: NodeId,
    width: u16,
    terms: Vec<String>,
) {
    spawn(tx, "preview", move |tx| {
        let tokens = crate::tokens::TokenTable::default();
        let doc = super::preview::build(&corpus, &tokens, node, width, &terms, None);
        let _ = tx.send(WorkerMsg::Rendered { generation, doc: Box::new(doc) });
    });
}

/// Highlight `blocks` (`(index, language, code)`) with `theme` and report them.
pub fn highlight(
    tx: &Sender<WorkerMsg>,
    generation: u64,
    node: NodeId,
    width: u16,
    blocks: Vec<(usize, String, String)>,
    theme: crate::render::SyntaxTheme,
) {
    spawn(tx, "highlight", move |tx| {
        let h = crate::render::Highlighter::shared();
        let blocks =
            blocks.into_iter().map(|(i, lang, code)| (i, h.highlight(&code, &lang, theme))).collect();
        let _ = tx.send(WorkerMsg::Highlighted { generation, node, width, blocks });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_panic_becomes_a_failed_message() {
        let (tx, rx) = crossbeam_channel::unbounded();
        guarded(&tx, "index", || panic!("index exploded"));
        match rx.try_recv() {
            Ok(WorkerMsg::Failed { worker, message }) => {
                assert_eq!((worker, message.as_str()), ("index", "index exploded"));
            }
            _ => panic!("expected a Failed message"),
        }
        spawn(&tx, "search", |_| panic!("formatted {}", 42));
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(WorkerMsg::Failed { worker, message }) => {
                assert_eq!((worker, message.as_str()), ("search", "formatted 42"))
            }
            _ => panic!("expected a Failed message from the thread"),
        }
    }
}
