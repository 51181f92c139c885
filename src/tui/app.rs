//! The whole UI state ([`App`]). Only [`crate::tui::update`] mutates it; views read `&App`.
//! Side effects the update asks for (worker jobs) are queued in [`App::effects`] and run by
//! the event loop, so the state machine itself is headless and testable.

use std::collections::HashMap;
use std::sync::Arc;

use crate::index::{FuzzyIndex, Hit, Index};
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::{Encoding, TokenTable};

use super::config::Settings;
use super::keymap::{Keymap, Mode};
use super::preview::PreviewDoc;
use super::theme::UiTheme;
use super::tree::TreeState;

/// Which pane has the focus in [`Mode::Normal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The left pane (tree or search results).
    Left,
    /// The preview.
    Preview,
}

/// A job for a worker, queued by `update` and dispatched by the event loop.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Run `query` (fuzzy titles + BM25) and report with `generation`.
    Search {
        /// Generation of the query.
        generation: u64,
        /// The query text.
        query: String,
    },
    /// Build a brief or rendered skill(s) on a worker, to preview or to copy.
    Text {
        /// [`super::curate::Curate::generation`] of the job.
        generation: u64,
        /// What to build.
        job: Box<super::curate::job::TextJob>,
        /// Preview it or copy it.
        purpose: TextPurpose,
    },
    /// Copy an already built text (from the preview, or after the oversize question).
    CopyText {
        /// The text and its sizes.
        built: Arc<super::curate::job::BuiltText>,
        /// Which path to take.
        route: CopyRoute,
    },
    /// Export the curated selection as a new skill folder.
    Export(Box<super::curate::export::ExportJob>),
    /// Compute the disclosure layers of a skill or root for its preview.
    Layers {
        /// [`App::data_gen`] of the corpus.
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
    },
    /// Start token counting and index building (all roots are loaded).
    StartBackground,
    /// Load root `root` again (after a save, an undo or `$EDITOR`) and swap it in.
    Reload {
        /// Index into [`App::specs`] and the corpus roots.
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

/// How to deliver a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyRoute {
    /// System clipboard, else OSC 52 when within the limit, else ask first.
    Auto,
    /// OSC 52 even over the limit (the user said so).
    Osc52,
    /// A file.
    File,
}

/// The last save made in the editor, kept for `u` (undo; undoing again redoes).
#[derive(Clone, Debug)]
pub struct SavedEdit {
    /// What the save did (holds the previous bytes).
    pub report: crate::frontmatter::SaveReport,
    /// Root of the file (reloaded after an undo).
    pub root: Option<usize>,
    /// Path shown in messages.
    pub shown: String,
    /// Whether `report` is an undo (so `u` now redoes the save).
    pub undone: bool,
}

/// Results of the current query, as shown in the left pane.
#[derive(Clone, Debug, Default)]
pub struct SearchView {
    /// The query these results answer.
    pub query: String,
    /// Content hits (BM25), best first.
    pub content: Vec<Hit>,
    /// Title hits (fuzzy), best first.
    pub titles: Vec<Hit>,
    /// Matched index terms (for highlighting in the preview).
    pub terms: Vec<String>,
    /// `(typed, suggested)` pairs.
    pub did_you_mean: Vec<(String, String)>,
}

impl SearchView {
    /// All hits in list order: content group, then title group.
    pub fn hit(&self, i: usize) -> Option<&Hit> {
        self.content.get(i).or_else(|| self.titles.get(i.checked_sub(self.content.len())?))
    }

    /// Number of selectable hits.
    pub fn len(&self) -> usize {
        self.content.len() + self.titles.len()
    }

    /// Whether there are no hits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The search box and its results.
#[derive(Clone, Debug, Default)]
pub struct SearchState {
    /// The query text.
    pub query: String,
    /// Cursor position in `query` (a char index).
    pub cursor: usize,
    /// Generation of the latest query sent to the worker.
    pub generation: u64,
    /// Results of the latest answered query.
    pub view: SearchView,
    /// Whether the latest query is still running.
    pub pending: bool,
    /// Selected hit (index into [`SearchView::hit`]).
    pub selected: usize,
    /// First visible list row.
    pub offset: usize,
    /// Whether the left pane shows results (else the tree).
    pub showing: bool,
}

/// Background progress shown in the status bar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Loading: `(files read, roots done, roots total)` while loading.
    pub loading: Option<(usize, usize, usize)>,
    /// Indexing: `(documents done, total)` while building the BM25 index.
    pub indexing: Option<(usize, usize)>,
    /// Counting tokens: `(nodes counted, total)` while counting.
    pub counting: Option<(usize, usize)>,
}

/// The preview pane: node shown, scroll, rendered-document cache, match cursor.
#[derive(Clone, Debug, Default)]
pub struct PreviewState {
    /// Node shown.
    pub node: Option<NodeId>,
    /// The document drawn (rendered at the current width, terms highlighted).
    pub doc: Option<Arc<PreviewDoc>>,
    /// First body line drawn.
    pub scroll: usize,
    /// Rendered documents by (node, width) without match highlighting.
    pub cache: HashMap<(NodeId, u16), Arc<PreviewDoc>>,
    /// Cache generation: bumped whenever the cache is cleared; highlight results of an
    /// older generation are dropped.
    pub generation: u64,
    /// Index into the document's match lines of the current match.
    pub match_ix: Option<usize>,
    /// Terms the cached documents were rendered with.
    pub terms: Vec<String>,
    /// Scroll to the first match once the document is built (after jumping to a hit).
    pub want_first_match: bool,
    /// Nodes whose disclosure layers were asked of a worker (since the corpus changed).
    pub layers_requested: std::collections::HashSet<NodeId>,
}

impl PreviewState {
    /// Drop every cached document (the corpus, token counts or terms changed).
    pub fn invalidate(&mut self) {
        self.cache.clear();
        self.doc = None;
        self.generation += 1;
    }
}

/// The UI state.
pub struct App {
    /// All loaded roots (grows while loading).
    pub corpus: Arc<Corpus>,
    /// Bumped whenever `corpus` changes; worker results of older data are dropped.
    pub data_gen: u64,
    /// Token counts in `encoding`.
    pub tokens: TokenTable,
    /// The user's selection.
    pub selection: Selection,
    /// Σ tokens a brief of the selection holds (selected units that are not `hidden`, plus
    /// `always` units; [`crate::curate::units::brief_tokens`]) and whether all of it is counted
    /// (kept up to date by `update`, so drawing never walks the corpus).
    pub selection_tokens: (u64, bool),
    /// BM25 index, once built.
    pub index: Option<Arc<Index>>,
    /// Fuzzy title index, once built.
    pub fuzzy: Option<Arc<FuzzyIndex>>,
    /// Keymaps.
    pub keymap: Keymap,
    /// Settings.
    pub settings: Settings,
    /// Styles of UI elements and markdown roles.
    pub theme: UiTheme,
    /// Current input mode.
    pub mode: Mode,
    /// Focused pane in normal mode.
    pub focus: Focus,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// Tree pane.
    pub tree: TreeState,
    /// Search box and results.
    pub search: SearchState,
    /// Preview pane.
    pub preview: PreviewState,
    /// First line of the help popup.
    pub help_scroll: usize,
    /// Background progress.
    pub progress: Progress,
    /// Last status message (last action, error, warning).
    pub status: String,
    /// Warnings collected from config and load (shown in the status line count).
    pub warnings: Vec<String>,
    /// Whether a copy is running.
    pub copying: bool,
    /// Set by [`crate::tui::action::Action::Quit`].
    pub quit: bool,
    /// Clear the terminal before the next draw ([`crate::tui::action::Action::Redraw`]).
    pub redraw: bool,
    /// Jobs for the workers, drained by the event loop.
    pub effects: Vec<Effect>,
    /// The frontmatter editor, while open (modes [`Mode::Form`] … [`Mode::Confirm`]).
    pub editor: Option<Box<super::editor::Editor>>,
    /// The last save of this session (`u` undoes it).
    pub last_save: Option<SavedEdit>,
    /// What each root was loaded from (index = root position), for reloads after edits.
    pub specs: Vec<crate::formats::RootSpec>,
    /// Loader options used for reloads.
    pub load_opts: crate::formats::LoadOptions,
    /// Exposure levels, budget, brief settings, recipes and their popups (issue 5).
    pub curate: super::curate::Curate,
    /// The outline popup, while open ([`Mode::Outline`]).
    pub outline: Option<super::outline::Outline>,
    /// Disclosure layers of skills and roots, computed on a worker for their previews.
    pub layers: HashMap<NodeId, Arc<super::layers::LayerView>>,
}

impl App {
    /// A new app over `corpus` (possibly empty while loading).
    pub fn new(
        corpus: Corpus,
        encoding: Encoding,
        keymap: Keymap,
        settings: Settings,
        theme: UiTheme,
    ) -> App {
        let tokens = TokenTable::empty(encoding, &corpus);
        let curate = super::curate::Curate::new(&settings);
        let mut app = App {
            corpus: Arc::new(corpus),
            data_gen: 0,
            tokens,
            selection: Selection::new(),
            selection_tokens: (0, true),
            index: None,
            fuzzy: None,
            keymap,
            settings,
            theme,
            mode: Mode::Normal,
            focus: Focus::Left,
            size: (80, 24),
            tree: TreeState::default(),
            search: SearchState::default(),
            preview: PreviewState::default(),
            help_scroll: 0,
            progress: Progress::default(),
            status: String::new(),
            warnings: Vec::new(),
            copying: false,
            quit: false,
            redraw: false,
            effects: Vec::new(),
            editor: None,
            last_save: None,
            specs: Vec::new(),
            load_opts: crate::formats::LoadOptions::default(),
            curate,
            outline: None,
            layers: HashMap::new(),
        };
        for r in app.corpus.roots.clone() {
            app.tree.expanded.insert(r);
        }
        app.tree.rebuild(&app.corpus);
        app
    }

    /// The token encoding.
    pub fn encoding(&self) -> Encoding {
        self.tokens.encoding
    }

    /// The node the preview should show: the selected hit while results are shown, else the
    /// tree cursor.
    pub fn current_node(&self) -> Option<NodeId> {
        if self.search.showing {
            if let Some(h) = self.search.view.hit(self.search.selected) {
                return Some(h.node);
            }
        }
        self.tree.current()
    }

    /// Terms to mark in the preview: the index terms of the last answered query, or its
    /// words when only titles matched; none once the query is cleared.
    pub fn highlight_terms(&self) -> Vec<String> {
        let v = &self.search.view;
        if self.search.query.trim().is_empty() {
            Vec::new()
        } else if !v.terms.is_empty() {
            v.terms.clone()
        } else {
            v.query.split_whitespace().map(str::to_lowercase).collect()
        }
    }
}
