//! What a handler of `update` is given instead of the whole app: a [`Ctx`] (the status
//! line, the effect queue and the follow-up queue, which every handler may write), the
//! read-only data it needs ([`Shared`]) and the state it changes (its own sub-state, or a
//! small group of them such as [`Panes`]). `update/mod.rs` alone holds the app whole: it
//! borrows it apart (its private `parts`) and hands each handler its pieces, so a handler's
//! signature says what it can touch.

use std::sync::Arc;

use crate::clipboard::CopyOptions;
use crate::formats::{LoadOptions, RootSpec};
use crate::index::Index;
use crate::model::{Corpus, NodeId};
use crate::tokens::{Encoding, TokenTable};
use crate::tui::config::Settings;
use crate::tui::effect::Effect;
use crate::tui::input::keymap::Keymap;
use crate::tui::state::app::{Focus, current_node};
use crate::tui::state::followup::Msg;
use crate::tui::state::preview::PreviewState;
use crate::tui::state::search::SearchState;
use crate::tui::state::tree::TreeState;
use crate::tui::theme::UiTheme;
use crate::tui::view::layout::{Areas, areas_of};

/// The context every handler gets: the three outputs shared by all features.
pub struct Ctx<'a> {
    /// The status line (the last action, error or warning), replaced or extended.
    pub status: &'a mut String,
    /// Jobs for the workers, each self-contained, run after the update.
    pub effects: &'a mut Vec<Effect>,
    /// Follow-ups for other features' handlers, routed after this one returns, in order.
    pub followups: &'a mut Vec<Msg>,
}

impl Ctx<'_> {
    /// Replace the status line with `text`.
    pub fn say(&mut self, text: impl Into<String>) {
        *self.status = text.into();
    }

    /// Queue `effect` for the workers.
    pub fn queue(&mut self, effect: Effect) {
        self.effects.push(effect);
    }

    /// Ask `msg` of another feature, after this handler.
    pub fn follow(&mut self, msg: Msg) {
        self.followups.push(msg);
    }
}

/// The data handlers read and never change while they run: the corpus and what was
/// computed over it, the settings and the screen size.
pub struct Shared<'a> {
    /// All loaded roots.
    pub corpus: &'a Arc<Corpus>,
    /// Generation of `corpus`.
    pub data_gen: u64,
    /// Token counts.
    pub tokens: &'a TokenTable,
    /// BM25 index, once built.
    pub index: Option<&'a Arc<Index>>,
    /// Keymaps.
    pub keymap: &'a Keymap,
    /// Settings.
    pub settings: &'a Settings,
    /// Styles (the syntax theme of highlighting jobs).
    pub theme: &'a UiTheme,
    /// What each root was loaded from (for reloads).
    pub specs: &'a [RootSpec],
    /// Loader options (for reloads).
    pub load_opts: &'a LoadOptions,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
}

impl Shared<'_> {
    /// The token encoding of the counts.
    pub fn encoding(&self) -> Encoding {
        self.tokens.encoding
    }

    /// The clipboard options of a copy (the configured OSC 52 limit).
    pub fn copy_options(&self) -> CopyOptions {
        self.settings.clipboard.copy_options()
    }

    /// Whether the re-ranker is attached to the index (`Enter` ranks once more).
    pub fn reranks(&self) -> bool {
        self.index.is_some_and(|i| i.reranker().is_some())
    }

    /// The reload of root number `root` from its spec.
    pub fn reload(&self, root: usize) -> Effect {
        Effect::reload(root, self.specs, self.load_opts)
    }
}

/// The panes of normal mode: the tree, the search box and results, the preview, and which
/// has the focus.
pub struct Panes<'a> {
    /// Tree pane.
    pub tree: &'a mut TreeState,
    /// Search box and results.
    pub search: &'a mut SearchState,
    /// Preview pane.
    pub preview: &'a mut PreviewState,
    /// Focused pane.
    pub focus: &'a mut Focus,
}

impl Panes<'_> {
    /// The node the preview shows: the selected hit while results are shown, else the tree
    /// cursor (as `App::current_node`).
    pub fn current_node(&self) -> Option<NodeId> {
        current_node(self.tree, self.search)
    }

    /// The layout of the frame these panes are drawn in on a `shared.size` screen.
    pub fn areas(&self, shared: &Shared) -> Areas {
        areas_of(
            shared.size,
            shared.settings.ui.tree_percent,
            *self.focus,
            self.preview.wide,
        )
    }

    /// Lines of one preview page (the preview body's height, at least 1).
    pub fn page(&self, shared: &Shared) -> usize {
        (self.areas(shared).preview.height as usize).max(1)
    }
}

/// The number beside the budget ([`crate::tui::state::app::App::selection_tokens`] and the
/// two fields kept with it).
pub struct Total<'a> {
    /// Tokens of the brief of the selection and whether the number is exact.
    pub tokens: &'a mut (u64, bool),
    /// Sections the budget left out of that brief (0 while only estimated).
    pub left_out: &'a mut usize,
    /// Generation of the exact count asked of a worker.
    pub generation: &'a mut u64,
}
