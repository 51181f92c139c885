//! The brief request: what to build a brief from and how ([`Request`]), and the one rule
//! for a request that has nothing to brief ([`Request::check`], [`NothingToBrief`]). Every
//! front end builds a [`Request`] from its own input — `skillnav brief` and the MCP `brief`
//! tool through [`crate::agent::brief::prepare`], the TUI from its selection and settings —
//! and hands it to [`super::build`], so the same request gives the same bytes everywhere.

use std::fmt;

use super::mode::Mode;
use super::model::BriefFormat;
use crate::curate::exposure::{Exposure, ExposureMap};
use crate::model::{Corpus, NodeId};

/// `top_k` of a request that takes ranked sections until its budget is full (up to
/// `FILL_CANDIDATES` hits of the gather step are looked at, best first; a section that
/// does not fit is passed over for smaller ones after it). Without a budget it means
/// `FILL_CANDIDATES`.
pub const UNTIL_FULL: usize = usize::MAX;

/// Retrieved sections at most when a request gives no `top_k` and no budget.
pub const DEFAULT_TOP_K: usize = 8;

/// What to build a brief from, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Selected text units (e.g. [`crate::curate::units::selection_units`]), in brief order.
    pub units: Vec<NodeId>,
    /// Query for BM25 retrieval (needs an index); the task of the lazytools format.
    pub query: Option<String>,
    /// Retrieved sections at most; [`UNTIL_FULL`]: as many as fit `budget`.
    pub top_k: usize,
    /// Mode; `Auto` resolves by [`super::resolve_mode`] on the query, `Answer` without one.
    pub mode: Mode,
    /// Output format.
    pub format: BriefFormat,
    /// Token budget of the whole brief text (in the brief's encoding); `None`: no limit.
    /// The one name of this value from `[brief] budget` and the `b` key to the layouts,
    /// which print it as `max_tokens` (`skillnav brief --max-tokens`, the MCP argument).
    pub budget: Option<u64>,
    /// Exposure levels (docs/DESIGN.md §5); empty: everything on-demand, no `always`
    /// sections.
    pub exposure: ExposureMap,
    /// The request comes from a saved recipe (a recipe's brief always states its mode).
    pub from_recipe: bool,
    /// Character budget of [`BriefFormat::Lazytools`] (lazytools' `max_chars`; `None`:
    /// its 10000). Other formats ignore it.
    pub max_chars: Option<usize>,
    /// [`BriefFormat::Lazytools`] in answer mode quotes the full excerpts (lazytools'
    /// `include_quotes`). Other formats ignore it.
    pub quotes: bool,
}

impl Request {
    /// A request for `units` and/or `query` with the defaults: md, `auto`, no budget, no
    /// exposure levels, top [`DEFAULT_TOP_K`].
    pub fn new(units: &[NodeId], query: Option<&str>) -> Self {
        Request {
            units: units.to_vec(),
            query: query.map(str::to_string),
            top_k: DEFAULT_TOP_K,
            mode: Mode::Auto,
            format: BriefFormat::Md,
            budget: None,
            exposure: ExposureMap::new(),
            from_recipe: false,
            max_chars: None,
            quotes: true,
        }
    }

    /// The `top_k` of a request that gives none: ranked sections until a budget is full
    /// ([`UNTIL_FULL`]) when `budget` is set, else [`DEFAULT_TOP_K`].
    pub fn default_top_k(budget: Option<u64>) -> usize {
        if budget.is_some() {
            UNTIL_FULL
        } else {
            DEFAULT_TOP_K
        }
    }

    /// The query as retrieval uses it: `None` for no query or a blank one.
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref().filter(|q| !q.trim().is_empty())
    }

    /// Whether building needs the BM25 index (the request has a query and is not
    /// lazytools', which ranks on its bundle).
    pub fn needs_index(&self) -> bool {
        self.query().is_some() && self.format != BriefFormat::Lazytools
    }

    /// The one rule for a request with nothing to brief, applied by every front end before
    /// it builds: no query and no `always` section, and either no selected unit or only
    /// `hidden` ones (a hidden unit is never sent, docs/DESIGN.md §5). Errors: the
    /// [`NothingToBrief`] case; the caller adds how its own input fixes it.
    pub fn check(&self, corpus: &Corpus) -> Result<(), NothingToBrief> {
        if self.query().is_some() || !self.exposure.always_units(corpus).is_empty() {
            return Ok(());
        }
        let hidden = |u: &NodeId| self.exposure.level(corpus, *u) == Exposure::Hidden;
        match self.units.len() {
            0 => Err(NothingToBrief::NoSections),
            n if self.units.iter().all(hidden) => Err(NothingToBrief::AllHidden(n)),
            _ => Ok(()),
        }
    }
}

/// Why a [`Request`] has nothing to brief.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NothingToBrief {
    /// No selected section, no query and no `always` section.
    NoSections,
    /// Every one of this many selected sections is `hidden`, with no query and no
    /// `always` section.
    AllHidden(usize),
}

impl fmt::Display for NothingToBrief {
    /// `nothing to brief: …`, lower-case; front ends add their own way out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self {
            NothingToBrief::NoSections => {
                "no section is selected, no query is given and none is exposed always".to_string()
            }
            NothingToBrief::AllHidden(1) => "the section to brief is hidden".to_string(),
            NothingToBrief::AllHidden(n) => format!("the {n} sections to brief are hidden"),
        };
        write!(f, "nothing to brief: {why}")
    }
}

impl std::error::Error for NothingToBrief {}
