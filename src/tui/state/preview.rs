//! The preview pane's state: the node shown, its rendered document ([`PreviewDoc`]), the
//! scroll, the cache by (node, width) and the current match; and the disclosure layers of a
//! skill or root ([`LayerView`]) shown in its summary.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use crate::model::NodeId;
use crate::render::Rendered;
use crate::skill::budget::ListingBudget;
use crate::skill::layers::{RootLayers, SkillLayers};

/// A rendered preview body.
#[derive(Clone, Debug, Default)]
pub struct PreviewDoc {
    /// The node.
    pub node: Option<NodeId>,
    /// Lines, code blocks, match lines (from [`crate::render::render_markdown`] or the summary).
    pub rendered: Rendered,
    /// A placeholder shown while a worker renders a large text.
    pub pending: bool,
}

impl PreviewDoc {
    /// Indices of lines holding a search match (for `n`/`N`).
    pub fn matches(&self) -> &[usize] {
        &self.rendered.match_lines
    }

    /// Number of body lines.
    pub fn len(&self) -> usize {
        self.rendered.lines.len()
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.rendered.lines.is_empty()
    }
}

/// How the preview lays out the text of a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PreviewMode {
    /// The raw text instead of the rendered markdown.
    pub raw: bool,
    /// Long code lines (and raw lines) wrap instead of scrolling sideways.
    pub wrap: bool,
}

impl PreviewMode {
    /// How long code lines are laid out in this mode.
    pub fn long_code(self) -> crate::render::LongLines {
        if self.wrap {
            crate::render::LongLines::Wrap
        } else {
            crate::render::LongLines::Keep
        }
    }
}

/// The layers of one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerView {
    /// A skill's layers.
    Skill(SkillLayers),
    /// A root's skills and its always-loaded cost, with the Claude Code listing budget
    /// over all roots.
    Root(RootLayers, Option<ListingBudget>),
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
    /// Code blocks of each cached document already highlighted or asked of a worker (kept
    /// beside the shared documents, so asking never copies one).
    pub requested: HashMap<(NodeId, u16), BTreeSet<usize>>,
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
    pub layers_requested: HashSet<NodeId>,
    /// Raw or rendered, long lines wrapped or kept (the cache holds this mode's documents).
    pub mode: PreviewMode,
    /// Cells the code rows (every row of a raw text) are scrolled sideways.
    pub hscroll: usize,
    /// The preview takes the whole width (the tree hidden until toggled back).
    pub wide: bool,
}

impl PreviewState {
    /// Drop every cached document (the corpus, token counts or terms changed).
    pub fn invalidate(&mut self) {
        self.cache.clear();
        self.requested.clear();
        self.doc = None;
        self.generation += 1;
    }

    /// Cache a freshly rendered document of (node, width) (none of its blocks asked yet).
    pub fn store(&mut self, key: (NodeId, u16), doc: Arc<PreviewDoc>) {
        self.requested.remove(&key);
        self.cache.insert(key, doc);
    }

    /// Drop the cached documents of the nodes `keep` refuses.
    pub fn forget(&mut self, keep: impl Fn(NodeId) -> bool) {
        self.cache.retain(|(n, _), _| keep(*n));
        self.requested.retain(|(n, _), _| keep(*n));
    }

    /// Scroll the code rows sideways by `delta` cells (not left of the first column).
    pub fn hscroll_by(&mut self, delta: isize) {
        self.hscroll = (self.hscroll as isize).saturating_add(delta).max(0) as usize;
    }

    /// Scroll the preview by `delta` lines (not above the top).
    pub fn scroll_by(&mut self, delta: isize) {
        self.scroll = (self.scroll as isize).saturating_add(delta).max(0) as usize;
    }
}
