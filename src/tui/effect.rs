//! What `update` asks of the workers ([`Effect`]), queued in the app and run by
//! [`crate::tui::effects::jobs::run`]; and how a built text is used and delivered.
//!
//! An effect is self-contained: the handler that queues it fills in every option its job
//! needs (clipboard options, encoding, syntax theme, the spec of a reload, …), so turning
//! it into jobs ([`crate::tui::effects::jobs::jobs_for`]) reads no app state. Only the data
//! that changes while the app runs (the corpus handle, its generation and the indexes) is
//! taken when the effect is dispatched, not when it is queued: a queued effect must not
//! hold the corpus, which the app extends in place once it holds the only handle.

use std::sync::Arc;

use crate::clipboard::CopyOptions;
use crate::config::{AgentSettings, SearchSettings};
use crate::formats::{LoadOptions, RootSpec};
use crate::model::NodeId;
use crate::render::SyntaxTheme;
use crate::tokens::Encoding;

use crate::tui::effects::export::ExportJob;
use crate::tui::effects::text_job::TextJob;
use crate::tui::state::built_text::BuiltText;
use crate::tui::state::persisted::Persisted;

/// A job for a worker, queued by `update` and dispatched by the event loop.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Run `query` (fuzzy titles + BM25) and report with `generation`.
    Search {
        /// Generation of the query.
        generation: u64,
        /// The query text: its last word is expanded as a prefix while it is still being
        /// typed (docs/DESIGN.md §3).
        query: String,
        /// Hits per group (`[search] top_k`).
        top_k: usize,
        /// Rank the query as finished: no prefix expansion, and the re-ranker runs.
        finished: bool,
    },
    /// Build the brief of the selection to size it, packed under the budget
    /// ([`crate::tui::effects::text_job::brief_size`]), the number beside the budget; reported with
    /// `generation` ([`crate::tui::state::app::App::count_gen`]).
    CountBrief {
        /// Generation of the count.
        generation: u64,
        /// The brief, with its budget.
        job: Box<TextJob>,
    },
    /// Build a brief or rendered skill(s) on a worker, to preview or to copy.
    Text {
        /// [`crate::tui::state::curate::Curate::generation`] of the job.
        generation: u64,
        /// What to build.
        job: Box<TextJob>,
        /// Preview it or copy it.
        purpose: TextPurpose,
        /// Clipboard options of a copy.
        opts: CopyOptions,
    },
    /// Copy an already built text (from the preview, or after the oversize question).
    CopyText {
        /// The text and its sizes.
        built: Arc<BuiltText>,
        /// Which path to take.
        route: crate::clipboard::Route,
        /// Clipboard options.
        opts: CopyOptions,
    },
    /// Export the curated selection as a new skill folder.
    Export(Box<ExportJob>),
    /// Compute the disclosure layers of a skill or root for its preview.
    Layers {
        /// [`crate::tui::state::app::App::data_gen`] of the corpus.
        generation: u64,
        /// The skill or root.
        node: NodeId,
        /// Token encoding of the counts.
        encoding: Encoding,
        /// The listing budget shown on roots (`[agent.claude-code]`).
        profile: AgentSettings,
        /// Show it even within budget (`--agent claude-code`).
        show_budget: bool,
    },
    /// Highlight code blocks of the preview of `node` at `width` (those near the window).
    Highlight {
        /// Preview cache generation the result belongs to.
        generation: u64,
        /// The node previewed.
        node: NodeId,
        /// Body width in cells.
        width: u16,
        /// `(block index, language, code)` of each block to highlight.
        blocks: Vec<(usize, String, String)>,
        /// Syntax theme of the code.
        theme: SyntaxTheme,
    },
    /// Render the preview of a large text node on a worker.
    Render {
        /// Preview cache generation the result belongs to.
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
    /// Start token counting and index building (all roots are loaded) over the corpus of
    /// the moment the effect is dispatched.
    StartBackground {
        /// Token encoding of the counts.
        encoding: Encoding,
        /// Embed the documents (`[search] semantic`).
        semantic: bool,
        /// The settings whose re-ranker is attached to the index, unless `[search]
        /// semantic` is off.
        rerank: Option<SearchSettings>,
        /// Indexes restored from the persisted index, or the file to persist the new ones
        /// to.
        persisted: Persisted,
    },
    /// Load root `root` again (after a save, an undo or `$EDITOR`) and swap it in.
    Reload {
        /// Index into [`crate::tui::state::app::App::specs`] and the corpus roots.
        root: usize,
        /// What the root was loaded from; `None` (nothing to run) for a root without one.
        spec: Option<RootSpec>,
        /// Loader options.
        opts: LoadOptions,
    },
    /// Suspend the TUI, run `$VISUAL`/`$EDITOR` on `path`, resume, reload `root`.
    External {
        /// The file to edit.
        path: std::path::PathBuf,
        /// Root to reload afterwards.
        root: Option<usize>,
    },
}

/// What a built text is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextPurpose {
    /// Show it in the preview popup.
    Preview,
    /// Copy it at once (`y`, `Y`).
    Copy,
}

impl Effect {
    /// The reload of root number `root`, loaded from `specs[root]` with `opts` (a root
    /// without a spec gets an effect that runs nothing).
    pub fn reload(root: usize, specs: &[RootSpec], opts: &LoadOptions) -> Effect {
        Effect::Reload {
            root,
            spec: specs.get(root).cloned(),
            opts: opts.clone(),
        }
    }

    /// The background work after a (re)load with `settings` (whether to embed and which
    /// re-ranker to attach), counting in `encoding`; the indexes come from or go to
    /// `persisted`.
    pub fn start_background(
        settings: &SearchSettings,
        encoding: Encoding,
        persisted: Persisted,
    ) -> Effect {
        Effect::StartBackground {
            encoding,
            semantic: settings.semantic.table(),
            rerank: settings.semantic.model().then(|| settings.clone()),
            persisted,
        }
    }
}
