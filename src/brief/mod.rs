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
//! [`layout`] (plain, md, xml, json), [`request`] (the request every front end builds).

pub mod layout;
pub mod lazytools;
pub mod mode;
pub mod model;
pub mod request;
pub mod select;

pub use layout::Layout;
pub use mode::{Mode, effective_mode, resolve_mode};
pub use model::{BriefFormat, BriefHead, BriefSection, LEFT_OUT_LISTED, Origin};
pub use request::{NothingToBrief, Request};

use std::borrow::Cow;

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
    /// The layout [`build`] chose; `None` for the lazytools format.
    pub layout: Option<Layout>,
    /// The resolved mode (never `Auto`; `Answer` for the plain layout, which states none).
    pub mode: Mode,
}

/// The layout `req` gets: the plain markdown layout for a selection alone or a query
/// alone, in md with mode `auto`, without exposure levels and not from a recipe; the
/// curated layout of its format otherwise (md states its mode and each section's origin);
/// `None` for [`BriefFormat::Lazytools`], whose text lazytools' own rules make.
pub fn layout_of(req: &Request) -> Option<Layout> {
    let mixed = req.query.is_some() && !req.units.is_empty();
    match req.format {
        BriefFormat::Lazytools => None,
        BriefFormat::Md
            if req.mode == Mode::Auto && req.exposure.is_empty() && !mixed && !req.from_recipe =>
        {
            Some(Layout::Plain)
        }
        format => Some(Layout::curated(format)),
    }
}

/// Build the brief of `req`: gather its sections in order of value (`always`, selected,
/// retrieved; [`select::gather`]), pack them under `req.budget` ([`select::pack`]) and
/// render them in [`layout_of`]. `index` is needed for the query's hits; without one a
/// plain brief ignores the query and a curated one retrieves nothing. The lazytools
/// format is lazytools' `query_skill` on the corpus's first bundle instead
/// ([`lazytools::brief`]). Never fails: no sections give a brief that says so
/// ([`Request::check`] tells a front end beforehand).
pub fn build(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &Request,
    counter: TokenCounter,
) -> Brief {
    match layout_of(req) {
        Some(layout) => build_in(corpus, index, req, layout, counter),
        None => lazytools::brief(corpus, req, counter),
    }
}

/// [`build`] in a layout the caller pins instead of [`layout_of`] (e.g. a curated layout
/// for a request that would get the plain one).
pub fn build_in(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &Request,
    layout: Layout,
    counter: TokenCounter,
) -> Brief {
    let (req, mode, plain) = resolved(index, req, layout);
    let mut head = BriefHead {
        query: req.query.clone(),
        top_k: 0,
        mode,
        corrections: Vec::new(),
        budget: req.budget,
        encoding: counter.encoding(),
    };
    // The frame a budget being filled leaves room for: this brief with no section.
    let frame = req
        .budget
        .map_or(0, |_| counter.count(&layout.render(&head, &[], &[])));
    let (sections, corrections) = select::gather(corpus, index, &req, mode, plain, frame, counter);
    head.corrections = corrections;
    // The brief states how many hits it holds, which only packing knows: hits already in
    // the selection, or over the budget, are not held (docs/DESIGN.md §5).
    let retrieved = |included: &mut dyn Iterator<Item = &BriefSection>| {
        included.filter(|s| s.origin == Origin::Retrieved).count()
    };
    head.top_k = if req.top_k == select::UNTIL_FULL {
        retrieved(&mut sections.iter().filter(|s| !s.spare))
    } else {
        req.top_k
    };
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
    req: &'a Request,
    layout: Layout,
) -> (Cow<'a, Request>, Mode, bool) {
    let plain = layout == Layout::Plain;
    let mode = if plain {
        Mode::Answer
    } else {
        effective_mode(req.mode, req.query.as_deref())
    };
    let req = if plain && index.is_none() && req.query.is_some() {
        Cow::Owned(Request {
            query: None,
            ..req.clone()
        })
    } else {
        Cow::Borrowed(req)
    };
    (req, mode, plain)
}

/// The plain brief of `units` (text-bearing nodes, e.g. from `Selection::units`) in the
/// order given, each with its full text; `budget` packs it under a token budget for the
/// whole text. Empty `units` give the "No sections selected." brief. Shorthand for
/// [`build`].
pub fn selection_brief(
    corpus: &Corpus,
    units: &[NodeId],
    budget: Option<u64>,
    counter: TokenCounter,
) -> Brief {
    let req = Request {
        budget,
        ..Request::new(units, None)
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
    budget: Option<u64>,
    counter: TokenCounter,
) -> Brief {
    let req = Request {
        top_k,
        budget,
        ..Request::new(&[], Some(query))
    };
    build(corpus, Some(index), &req, counter)
}
