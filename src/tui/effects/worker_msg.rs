//! What the workers send back to the UI thread ([`WorkerMsg`]): loaded roots, token
//! counts, indexes, search results, built texts, copy outcomes, rendered and highlighted
//! previews, failures. Each result carries the generation it was asked for.

use std::sync::Arc;

use crate::index::{FuzzyIndex, Hit, Index, SearchResult};
use crate::model::{Corpus, NodeId};
use crate::tui::state::app::Persisted;
use crate::tui::state::preview::{LayerView, PreviewDoc};

use crate::tui::effects::export::ExportOutcome;
use crate::tui::state::built_text::BuiltText;

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
    LoadDone {
        /// What the persisted index gave the load, or takes once it is indexed.
        persisted: Persisted,
        /// Problems with the persisted index, one line each.
        warnings: Vec<String>,
    },
    /// Linked pages of a remote llms.txt root fetched so far (docs/REMOTE.md "URLs").
    RemotePages {
        /// Index of the root.
        root: usize,
        /// The root's label (`hono.dev`).
        label: String,
        /// Pages done and in all.
        done: (usize, usize),
        /// The outcome, once every page is done.
        report: Option<crate::remote::PageReport>,
    },
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
    /// The exact number beside the budget ([`crate::tui::effects::text_job::brief_size`]).
    BriefCounted {
        /// [`crate::tui::state::app::App::count_gen`] of the count.
        generation: u64,
        /// Tokens of the brief `y` would copy (packed under the budget).
        tokens: u64,
        /// Sections the budget left out of it.
        left_out: usize,
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
        /// [`crate::tui::state::curate::Curate::generation`] of the job.
        generation: u64,
        /// The text, or a status message.
        result: Result<BuiltText, String>,
    },
    /// The system clipboard failed and the text is over the OSC 52 limit: ask the user.
    CopyAsk(Arc<BuiltText>),
    /// An export finished.
    Exported(ExportOutcome),
    /// The disclosure layers of a skill or root.
    Layers {
        /// Data generation they were computed on.
        generation: u64,
        /// The node.
        node: NodeId,
        /// The layers.
        view: Arc<LayerView>,
    },
    /// A preview document rendered off the UI thread.
    Rendered {
        /// Preview cache generation.
        generation: u64,
        /// The document (its node and width inside).
        doc: Box<PreviewDoc>,
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
    /// No re-rank model is installed: the status line says how to install one, once per app
    /// ([`crate::rerank::HINT`]).
    TierHint,
    /// A worker's warning, for the warnings list and the status line (a persisted index
    /// that cannot be written).
    Warning(String),
    /// A worker panicked or failed.
    Failed {
        /// Which worker.
        worker: &'static str,
        /// What happened.
        message: String,
    },
}

impl WorkerMsg {
    /// [`WorkerMsg::LoadDone`] of a load that persists nothing.
    pub fn load_done() -> Self {
        WorkerMsg::LoadDone {
            persisted: Persisted::None,
            warnings: Vec::new(),
        }
    }
}
