//! Briefs: the text an agent gets. A brief holds sections chosen from a selection, a
//! query's top-k BM25 hits and the `always`-exposed sections, each with its provenance (id,
//! path, line range, score) and its text, optionally packed under a token budget.
//!
//! One pipeline: [`build`] is the only place that decides a brief's layout; it gathers and
//! packs the sections once ([`select`]) and a layout ([`layout`]) only renders them. The
//! CLI (`skillnav brief`), the TUI (`y`, `p`) and the MCP server call [`build`], so the same
//! request gives the same bytes everywhere. [`lazytools`] reproduces lazytools'
//! `query_skill` output byte for byte (a separate format with its own ranking).
//!
//! Module map: [`model`] (the head, sections, origins, formats and shared text helpers),
//! [`mode`] (answer/extract/locate/summarize and `auto`), [`select`] (gather and pack),
//! [`layout`] (plain, md, xml, json).

pub mod layout;
pub mod lazytools;
pub mod mode;
pub mod model;
pub mod select;

pub use layout::Layout;
pub use mode::{Mode, effective_mode, resolve_mode};
pub use model::{BriefFormat, BriefHead, BriefSection, LEFT_OUT_LISTED, Origin};

use crate::curate::exposure::ExposureMap;
use crate::index::Index;
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;

/// A rendered brief and its exact size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Brief {
    /// The text to hand to an agent.
    pub text: String,
    /// `text.len()` in bytes.
    pub bytes: usize,
    /// Exact token count of `text` in `encoding`.
    pub tokens: u64,
    /// The encoding of `tokens`.
    pub encoding: crate::tokens::Encoding,
    /// Number of sections included.
    pub sections: usize,
    /// The nodes of the included sections, in brief order.
    pub included: Vec<NodeId>,
    /// Sections left out (over budget), by id, in their original order; never cut silently
    /// (the brief's closing line names them too).
    pub left_out: Vec<String>,
    /// The layout [`build`] chose.
    pub layout: Layout,
    /// The resolved mode (never `Auto`; `Answer` for the plain layout, which states none).
    pub mode: Mode,
}

/// What to build a brief from, and how.
#[derive(Clone, Copy, Debug)]
pub struct BriefRequest<'a> {
    /// Selected text units (e.g. `Selection::units`), in order.
    pub selected: &'a [NodeId],
    /// Query for BM25 retrieval (needs an index).
    pub query: Option<&'a str>,
    /// Retrieved sections at most; [`select::UNTIL_FULL`]: as many as fit `max_tokens`.
    pub top_k: usize,
    /// Mode; `Auto` resolves by [`resolve_mode`] on the query, `Answer` without one.
    pub mode: Mode,
    /// Output format.
    pub format: BriefFormat,
    /// Budget in tokens for the whole brief text; `None` = no limit.
    pub max_tokens: Option<u64>,
    /// Exposure levels; `None` = everything on-demand (no `always` sections).
    pub exposure: Option<&'a ExposureMap>,
    /// The request comes from a saved recipe (a recipe's brief always states its mode).
    pub from_recipe: bool,
}

impl<'a> BriefRequest<'a> {
    /// A request for `selected` and/or `query` with the defaults: md, `auto`, no budget, no
    /// exposure levels, top 8.
    pub fn new(selected: &'a [NodeId], query: Option<&'a str>) -> Self {
        BriefRequest {
            selected,
            query,
            top_k: 8,
            mode: Mode::Auto,
            format: BriefFormat::Md,
            max_tokens: None,
            exposure: None,
            from_recipe: false,
        }
    }

    /// The layout this request gets: the plain markdown layout for a selection alone or a
    /// query alone, in md with mode `auto`, without exposure levels and not from a recipe;
    /// the curated layout of its format otherwise (md states its mode and each section's
    /// origin).
    pub fn layout(&self) -> Layout {
        let no_levels = self.exposure.is_none_or(ExposureMap::is_empty);
        let mixed = self.query.is_some() && !self.selected.is_empty();
        match self.format {
            BriefFormat::Md
                if self.mode == Mode::Auto && no_levels && !mixed && !self.from_recipe =>
            {
                Layout::Plain
            }
            format => Layout::curated(format),
        }
    }
}

/// Build the brief of `req`: gather its sections in order of value (`always`, selected,
/// retrieved; [`select::gather`]), pack them under `req.max_tokens` ([`select::pack`]) and
/// render them in [`BriefRequest::layout`]. `index` is needed for the query's hits; without
/// one a plain brief ignores the query and a curated one retrieves nothing. Never fails:
/// no sections give a brief that says so.
pub fn build(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &BriefRequest<'_>,
    counter: TokenCounter,
) -> Brief {
    build_in(corpus, index, req, req.layout(), counter)
}

/// [`build`] in a layout the caller pins instead of [`BriefRequest::layout`] (e.g. a curated
/// layout for a request that would get the plain one).
pub fn build_in(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &BriefRequest<'_>,
    layout: Layout,
    counter: TokenCounter,
) -> Brief {
    let (req, mode, plain) = resolved(index, req, layout);
    let mut head = BriefHead {
        query: req.query.map(str::to_string),
        top_k: 0,
        mode,
        corrections: Vec::new(),
        max_tokens: req.max_tokens,
        encoding: counter.encoding(),
    };
    // The frame a budget being filled leaves room for: this brief with no section.
    let frame = req
        .max_tokens
        .map_or(0, |_| counter.count(&layout.render(&head, &[], &[])));
    let (sections, corrections) = select::gather(corpus, index, &req, mode, plain, frame, counter);
    head.corrections = corrections;
    if req.top_k != select::UNTIL_FULL {
        head.top_k = req.top_k;
        return select::pack(&head, &sections, layout, counter);
    }
    // Filling a budget: the brief states how many hits it took, which only packing knows.
    let retrieved = |included: &mut dyn Iterator<Item = &BriefSection>| {
        included.filter(|s| s.origin == Origin::Retrieved).count()
    };
    head.top_k = retrieved(&mut sections.iter().filter(|s| !s.spare));
    let brief = select::pack(&head, &sections, layout, counter);
    let took = retrieved(&mut sections.iter().filter(|s| brief.included.contains(&s.node)));
    if took == head.top_k {
        return brief;
    }
    head.top_k = took;
    select::pack(&head, &sections, layout, counter)
}

/// `req` as its layout builds it: the mode the sections are shaped by (the plain layout
/// carries each section's whole text, as answer mode does), whether every selected unit is
/// kept as given (plain), and no query for a plain brief without an index.
fn resolved<'a>(
    index: Option<&Index>,
    req: &BriefRequest<'a>,
    layout: Layout,
) -> (BriefRequest<'a>, Mode, bool) {
    let plain = layout == Layout::Plain;
    let mode = if plain {
        Mode::Answer
    } else {
        effective_mode(req.mode, req.query)
    };
    let req = BriefRequest {
        query: req.query.filter(|_| !plain || index.is_some()),
        ..*req
    };
    (req, mode, plain)
}

/// Σ exact tokens (in `counter`'s encoding) of the section texts a brief of `req` quotes,
/// with no budget applied (texts without trailing blank lines, shaped by the mode;
/// provenance lines and headings not counted). Not a node's size: the `Sources:` line states
/// the sources as stored (docs/DESIGN.md §2 Sizes).
pub fn section_tokens(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &BriefRequest<'_>,
    counter: TokenCounter,
) -> u64 {
    let unbounded = BriefRequest {
        max_tokens: None,
        ..*req
    };
    let (req, mode, plain) = resolved(index, &unbounded, req.layout());
    let (sections, _) = select::gather(corpus, index, &req, mode, plain, 0, counter);
    sections.iter().map(|s| s.tokens).sum()
}

/// The plain brief of `units` (text-bearing nodes, e.g. from `Selection::units`) in the
/// order given, each with its full text; `max_tokens` packs it under a budget for the whole
/// text. Empty `units` give the "No sections selected." brief. Shorthand for [`build`].
pub fn selection_brief(
    corpus: &Corpus,
    units: &[NodeId],
    max_tokens: Option<u64>,
    counter: TokenCounter,
) -> Brief {
    let req = BriefRequest {
        max_tokens,
        ..BriefRequest::new(units, None)
    };
    build(corpus, None, &req, counter)
}

/// The plain brief of the top `top_k` BM25 hits of `query` (no prefix expansion), best
/// first, each with its own text (a section up to its first sub-heading: the BM25 document
/// that was scored) and a `score` in its provenance line (a skill hit, matched on its
/// routing text, brings the first section of its `SKILL.md` with the skill's score; see
/// docs/DESIGN.md §3); did-you-mean corrections the
/// search applied are shown on a `Searched as:` line. Shorthand for [`build`].
pub fn query_brief(
    corpus: &Corpus,
    index: &Index,
    query: &str,
    top_k: usize,
    max_tokens: Option<u64>,
    counter: TokenCounter,
) -> Brief {
    let req = BriefRequest {
        top_k,
        max_tokens,
        ..BriefRequest::new(&[], Some(query))
    };
    build(corpus, Some(index), &req, counter)
}
