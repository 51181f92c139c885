//! The whole UI state ([`App`]). Only [`crate::tui::update`] mutates it; views read `&App`.
//! Side effects the update asks for (worker jobs) are queued in [`App::effects`] and run by
//! the event loop, so the state machine itself is headless and testable.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use crate::index::{FuzzyIndex, Index};
use crate::model::{Corpus, NodeId, Selection};
use crate::tokens::{Encoding, TokenTable};
use crate::tui::config::Settings;
use crate::tui::effect::Effect;
use crate::tui::input::keymap::{Keymap, Mode};
use crate::tui::state::curate::Curate;
use crate::tui::state::curate::{Ask, InputBox, PreviewPopup, RecipeList};
use crate::tui::state::editor::Editor;
use crate::tui::state::followup::Msg;
use crate::tui::state::outline::Outline;
pub use crate::tui::state::persisted::Persisted;
use crate::tui::state::popup::Popup;
use crate::tui::state::preview::{LayerView, PreviewState};
use crate::tui::state::search::SearchState;
use crate::tui::state::tree::TreeState;
use crate::tui::theme::UiTheme;
use crate::util::human;

/// Which pane has the focus in [`Mode::Normal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The left pane (tree or search results).
    Left,
    /// The preview.
    Preview,
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

/// What the loader sent that is not yet part of the corpus (see
/// `crate::tui::update::apply::merge_loaded`), in arrival order.
#[derive(Debug)]
pub enum Loaded {
    /// A loaded root, to be appended.
    Root(Corpus),
    /// Root number `.0` loaded again, to be swapped in.
    Reloaded(usize, Corpus),
    /// Every root is loaded.
    Done(Persisted),
}

/// The Claude Code listing of the corpus with what it was computed for: `(data_gen, node
/// count, loading over)` ([`App::listing`]).
pub type Listing = ((u64, usize, bool), Arc<crate::skill::budget::CorpusBudget>);

/// The UI state.
pub struct App {
    /// All loaded roots (grows while loading).
    pub corpus: Arc<Corpus>,
    /// Loader results waiting for the workers to release `corpus` (appended in place then,
    /// never by copying it).
    pub loaded: VecDeque<Loaded>,
    /// Bumped whenever `corpus` changes; worker results of older data are dropped.
    pub data_gen: u64,
    /// Token counts in `encoding`.
    pub tokens: TokenTable,
    /// The user's selection.
    pub selection: Selection,
    /// Tokens of the brief of the selection (selected units that are not `hidden`, plus
    /// `always` units, plus the query's hits with `r`) and whether it is exact: first the
    /// estimate from node sizes ([`crate::curate::units::brief_tokens`], `false`), then the
    /// worker's exact count of the brief `y` copies, packed under the budget
    /// ([`crate::tui::effects::text_job::brief_size`], `true`; docs/DESIGN.md §6). Kept up to
    /// date by `update`, so drawing never walks the corpus.
    pub selection_tokens: (u64, bool),
    /// Sections the budget left out of that brief (0 while only estimated).
    pub brief_left_out: usize,
    /// Generation of the exact count of `selection_tokens` asked of a worker
    /// ([`crate::tui::effect::Effect::CountBrief`]); a result of another is stale.
    pub count_gen: u64,
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
    /// The popups open over the panes, bottom first (the last one gets the keys).
    pub popups: Vec<Popup>,
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
    /// Background progress.
    pub progress: Progress,
    /// Last status message (last action, error, warning).
    pub status: String,
    /// The status line said how to install a re-rank model (it says so once).
    pub tier_hinted: bool,
    /// Warnings collected from config and load (shown in the status line count).
    pub warnings: Vec<String>,
    /// Whether a copy is running.
    pub copying: bool,
    /// Set by [`crate::tui::input::action::Action::Quit`].
    pub quit: bool,
    /// Clear the terminal before the next draw ([`crate::tui::input::action::Action::Redraw`]).
    pub redraw: bool,
    /// Jobs for the workers, drained by the event loop.
    pub effects: Vec<Effect>,
    /// Follow-ups one handler asked of another, routed by `update` after it.
    pub followups: Vec<Msg>,
    /// The last save of this session (`u` undoes it).
    pub last_save: Option<SavedEdit>,
    /// Remote roots whose linked pages arrived while the roots were still loading: reloaded
    /// once loading is done (docs/REMOTE.md "URLs").
    pub remote_reloads: Vec<usize>,
    /// What each root was loaded from (index = root position), for reloads after edits.
    pub specs: Vec<crate::formats::RootSpec>,
    /// Loader options used for reloads.
    pub load_opts: crate::formats::LoadOptions,
    /// Exposure levels, budget, brief settings, recipes and their popups.
    pub curate: Curate,
    /// Disclosure layers of skills and roots, computed on a worker for their previews.
    pub layers: HashMap<NodeId, Arc<LayerView>>,
    /// The Claude Code listing of the whole corpus under `[agent.claude-code]`, with what it
    /// was computed for: `data_gen`, the node count and whether loading was over (scopes are
    /// resolved then); kept up to date by `update`.
    pub listing: Option<Listing>,
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
        let curate = Curate::new(&settings);
        let mut app = App {
            corpus: Arc::new(corpus),
            loaded: VecDeque::new(),
            data_gen: 0,
            tokens,
            selection: Selection::new(),
            selection_tokens: (0, true),
            brief_left_out: 0,
            count_gen: 0,
            index: None,
            fuzzy: None,
            keymap,
            settings,
            theme,
            popups: Vec::new(),
            focus: Focus::Left,
            size: (80, 24),
            tree: TreeState::default(),
            search: SearchState::default(),
            preview: PreviewState::default(),
            progress: Progress::default(),
            status: String::new(),
            tier_hinted: false,
            warnings: Vec::new(),
            copying: false,
            quit: false,
            redraw: false,
            effects: Vec::new(),
            followups: Vec::new(),
            last_save: None,
            remote_reloads: Vec::new(),
            specs: Vec::new(),
            load_opts: crate::formats::LoadOptions::default(),
            curate,
            layers: HashMap::new(),
            listing: None,
        };
        for r in app.corpus.roots.clone() {
            app.tree.expanded.insert(r);
        }
        app.tree.rebuild(&app.corpus);
        app
    }

    /// The keymap mode: the top popup's, else the search box's while it has the focus,
    /// else normal.
    pub fn mode(&self) -> Mode {
        match self.popups.last() {
            Some(p) => p.mode(),
            None if self.search.active => Mode::Search,
            None => Mode::Normal,
        }
    }

    /// The keymap mode under the top popup (what closing it returns to).
    pub fn mode_below(&self) -> Mode {
        match self
            .popups
            .len()
            .checked_sub(2)
            .and_then(|i| self.popups.get(i))
        {
            Some(p) => p.mode(),
            None if self.search.active => Mode::Search,
            None => Mode::Normal,
        }
    }

    /// The brief preview popup, when open (under a prompt or question too).
    pub fn brief_preview(&self) -> Option<&PreviewPopup> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Brief(b) => Some(b),
            _ => None,
        })
    }

    /// The brief preview popup, when open, to change.
    pub fn brief_preview_mut(&mut self) -> Option<&mut PreviewPopup> {
        self.popups.iter_mut().rev().find_map(|p| match p {
            Popup::Brief(b) => Some(b),
            _ => None,
        })
    }

    /// The recipe list, when open.
    pub fn recipe_list(&self) -> Option<&RecipeList> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Recipes(l) => Some(l),
            _ => None,
        })
    }

    /// The one-line prompt, when open.
    pub fn input_box(&self) -> Option<&InputBox> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Input(i) => Some(&**i),
            _ => None,
        })
    }

    /// The question, when open.
    pub fn question(&self) -> Option<&Ask> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Ask(a) => Some(a),
            _ => None,
        })
    }

    /// The frontmatter editor, when open.
    pub fn editor(&self) -> Option<&Editor> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Editor(e) => Some(&**e),
            _ => None,
        })
    }

    /// The outline, when open.
    pub fn outline(&self) -> Option<&Outline> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Outline(o) => Some(o),
            _ => None,
        })
    }

    /// The open collision map, if any.
    pub fn collisions(&self) -> Option<&crate::tui::state::collisions::Collisions> {
        self.popups.iter().rev().find_map(|p| match p {
            Popup::Collisions(c) => Some(c),
            _ => None,
        })
    }

    /// The token encoding.
    pub fn encoding(&self) -> Encoding {
        self.tokens.encoding
    }

    /// The node the preview should show: the selected hit while results are shown, else the
    /// tree cursor.
    pub fn current_node(&self) -> Option<NodeId> {
        current_node(&self.tree, &self.search)
    }

    /// `sel N · 4.2k tok` (`…` while some selected part is still uncounted).
    pub fn selection_summary(&self) -> String {
        selection_summary(self.selection_tokens, self.selection.len())
    }

    /// Terms to mark in the preview: the index terms of the last answered query, or its
    /// words when only titles matched; none once the query is cleared.
    pub fn highlight_terms(&self) -> Vec<String> {
        self.search.highlight_terms()
    }
}

/// `sel N · 4.2k tok` for `selected` nodes of `(tokens, exact)` tokens (`…` while some
/// selected part is still uncounted): [`App::selection_summary`].
pub fn selection_summary((tokens, complete): (u64, bool), selected: usize) -> String {
    let more = if complete { "" } else { "…" };
    format!("sel {selected} · {}{more} tok", human::short_count(tokens))
}

/// The node the preview shows for `tree` and `search`: the selected hit while results are
/// shown, else the tree cursor ([`App::current_node`]).
pub fn current_node(tree: &TreeState, search: &SearchState) -> Option<NodeId> {
    if search.showing
        && let Some(h) = search.view.hit(search.selected)
    {
        return Some(h.node);
    }
    tree.current()
}
