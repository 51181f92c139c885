//! What `update` asks of the workers ([`Effect`]), queued in the app and run by
//! [`crate::tui::effects::jobs::run`]; and how a built text is used and delivered.

use std::sync::Arc;

use crate::model::NodeId;

use crate::tui::effects::export::ExportJob;
use crate::tui::effects::text_job::TextJob;
use crate::tui::state::built_text::BuiltText;

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
    },
    /// Copy an already built text (from the preview, or after the oversize question).
    CopyText {
        /// The text and its sizes.
        built: Arc<BuiltText>,
        /// Which path to take.
        route: crate::clipboard::Route,
    },
    /// Export the curated selection as a new skill folder.
    Export(Box<ExportJob>),
    /// Compute the disclosure layers of a skill or root for its preview.
    Layers {
        /// [`crate::tui::state::app::App::data_gen`] of the corpus.
        generation: u64,
        /// The skill or root.
        node: NodeId,
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
    /// Start token counting and index building (all roots are loaded).
    StartBackground,
    /// Load root `root` again (after a save, an undo or `$EDITOR`) and swap it in.
    Reload {
        /// Index into [`crate::tui::state::app::App::specs`] and the corpus roots.
        root: usize,
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
