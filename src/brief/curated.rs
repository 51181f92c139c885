//! Curated briefs (issue 5 parts 2, 3, 5): selected sections and query hits combined
//! (selected first, then retrieved), filtered by exposure level, shaped by a mode
//! (answer/extract/locate/summarize, `auto` by lazytools' intent rules), packed under a
//! token budget highest-value first, and written as markdown, XML or JSON.
//!
//! Order of value (what a budget keeps first): `always` sections, then selected ones in the
//! order given, then retrieved ones best BM25 score first. Packing is first-fit in that
//! order; everything left out is named (never cut silently). Layouts: [`super::curated_md`],
//! [`super::xml`], [`super::json`].

use std::fmt;

use super::Brief;
use super::lazytools::{Mode, resolve_mode};
use super::markdown::trim_trailing_blank_lines;
use crate::curate::exposure::{Exposure, ExposureMap};
use crate::index::{Index, SearchOptions};
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;

/// Output layout of a curated brief.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BriefFormat {
    /// Markdown (see [`super::curated_md`]).
    #[default]
    Md,
    /// Claude-style XML: one `<document>` per section (see [`super::xml`]).
    Xml,
    /// JSON (see [`super::json`]).
    Json,
}

impl BriefFormat {
    /// `md`, `xml` or `json` (the names [`BriefFormat::parse`] reads).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Md => "md",
            Self::Xml => "xml",
            Self::Json => "json",
        }
    }

    /// Parse `md`, `xml` or `json`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "md" | "markdown" => Some(Self::Md),
            "xml" => Some(Self::Xml),
            "json" => Some(Self::Json),
            _ => None,
        }
    }
}

/// Why a section is in a brief.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Its exposure level is `always`.
    Always,
    /// Selected by id.
    Selected,
    /// A BM25 hit of the query.
    Retrieved,
}

impl Origin {
    /// `always`, `selected`, `retrieved`.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Always => "always",
            Origin::Selected => "selected",
            Origin::Retrieved => "retrieved",
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One section of a curated brief, with the text the mode gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct BriefSection {
    /// The node.
    pub node: NodeId,
    /// Its stable string id.
    pub id: String,
    /// Title (the id when the title is blank); line breaks become spaces.
    pub title: String,
    /// Path relative to its root (may be empty).
    pub path: String,
    /// Root label (root id, else title).
    pub root: String,
    /// 1-based first line of the text shown, when known.
    pub line_start: Option<u32>,
    /// 1-based last line of the text shown, when known.
    pub line_end: Option<u32>,
    /// BM25 score (retrieved sections only).
    pub score: Option<f64>,
    /// Why it is included.
    pub origin: Origin,
    /// Its effective exposure level.
    pub exposure: Exposure,
    /// The text per mode (trailing blank lines trimmed; empty in locate mode).
    pub text: String,
    /// Exact tokens of `text` in the brief's encoding.
    pub tokens: u64,
}

/// What to build a curated brief from, and how.
#[derive(Clone, Debug)]
pub struct CuratedRequest<'a> {
    /// Selected text units (e.g. `Selection::units`), in order.
    pub selected: &'a [NodeId],
    /// Query for BM25 retrieval (needs an index).
    pub query: Option<&'a str>,
    /// Retrieved sections at most.
    pub top_k: usize,
    /// Mode; `Auto` resolves by [`resolve_mode`] on the query, `Answer` without one.
    pub mode: Mode,
    /// Layout.
    pub format: BriefFormat,
    /// Budget in tokens for the whole brief text; `None` = no limit.
    pub max_tokens: Option<u64>,
    /// Exposure levels; `None` = everything on-demand (no `always` sections).
    pub exposure: Option<&'a ExposureMap>,
}

/// Everything a layout needs besides the sections.
#[derive(Clone, Debug, PartialEq)]
pub struct BriefHead {
    /// The query, if any.
    pub query: Option<String>,
    /// Retrieval depth asked for.
    pub top_k: usize,
    /// The resolved mode (never `Auto`).
    pub mode: Mode,
    /// `(typed, searched as)` did-you-mean corrections.
    pub corrections: Vec<(String, String)>,
    /// The token budget, if any.
    pub max_tokens: Option<u64>,
    /// Encoding of all token counts.
    pub encoding: crate::tokens::Encoding,
}

/// Condensed text of summarize mode: at most this many characters (then `…`).
pub const SUMMARY_CHARS: usize = 300;

/// The mode a request resolves to: an explicit mode as is; `Auto` → [`resolve_mode`] on the
/// query (lazytools' intent rules, FORMATS §2.8), or `Answer` without a query.
pub fn effective_mode(mode: Mode, query: Option<&str>) -> Mode {
    match (mode, query) {
        (Mode::Auto, Some(q)) => resolve_mode(q),
        (Mode::Auto, None) => Mode::Answer,
        (m, _) => m,
    }
}

/// The candidate sections of `req`, in order of value, with mode-shaped text, plus the
/// did-you-mean corrections of the query. Duplicates are dropped (a node appears once, at
/// its most valuable origin); a retrieved hit inside an already listed selected section is
/// dropped too (its text is already there in answer/extract modes). Exposure: `hidden`
/// nodes never appear, `explicit` ones only when selected, retrieval skips both and still
/// returns up to `top_k` hits.
pub fn gather(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &CuratedRequest<'_>,
    counter: TokenCounter,
) -> (Vec<BriefSection>, Vec<(String, String)>, Mode) {
    let mode = effective_mode(req.mode, req.query);
    let none = ExposureMap::new();
    let exp = req.exposure.unwrap_or(&none);
    let mut picked: Vec<(NodeId, Origin, Option<f64>)> = Vec::new();
    let covered = |picked: &[(NodeId, Origin, Option<f64>)], id: NodeId| {
        picked.iter().any(|(p, o, _)| *p == id || (*o != Origin::Retrieved && corpus.is_within(id, *p)))
    };
    for id in exp.always_units(corpus) {
        picked.push((id, Origin::Always, None));
    }
    for &id in req.selected {
        if id.ix() < corpus.len() && exp.level(corpus, id).admits(true, false) && !covered(&picked, id) {
            // A selected unit holding `always` units carries their text: list it once.
            picked.retain(|(p, o, _)| !(*o == Origin::Always && corpus.is_within(*p, id)));
            picked.push((id, Origin::Selected, None));
        }
    }
    let mut corrections = Vec::new();
    if let (Some(q), Some(index)) = (req.query, index) {
        let ask = SearchOptions { top_k: req.top_k.saturating_add(64), prefix: false };
        let result = index.search(corpus, q, &ask);
        corrections = result.did_you_mean;
        let mut n = 0;
        for h in result.hits {
            if n >= req.top_k {
                break;
            }
            if !exp.level(corpus, h.node).admits(false, true) || covered(&picked, h.node) {
                continue;
            }
            picked.push((h.node, Origin::Retrieved, Some(h.score)));
            n += 1;
        }
    }
    let sections = picked
        .into_iter()
        .map(|(id, origin, score)| section(corpus, id, origin, score, mode, exp, counter))
        .collect();
    (sections, corrections, mode)
}

fn section(
    corpus: &Corpus,
    id: NodeId,
    origin: Origin,
    score: Option<f64>,
    mode: Mode,
    exp: &ExposureMap,
    counter: TokenCounter,
) -> BriefSection {
    let exposure = exp.level(corpus, id);
    let node = corpus.node(id);
    let root = corpus.node(corpus.root_of(id));
    let own = origin == Origin::Retrieved && mode != Mode::Extract;
    let (raw, line_end) = match node.span {
        Some(sp) if own && sp.own_end < sp.end => {
            let t = corpus.own_text(id);
            let lines = t.split_inclusive('\n').count() as u32;
            (std::borrow::Cow::Borrowed(t), node.line_start.map(|a| a + lines.max(1) - 1))
        }
        _ => (exp.visible_text(corpus, id), node.line_end),
    };
    let body = trim_trailing_blank_lines(&raw);
    let text = match mode {
        Mode::Locate => String::new(),
        Mode::Summarize => summary_of(&node.summary, body),
        _ => body.to_string(),
    };
    let title = if node.title.trim().is_empty() { &node.id } else { &node.title };
    BriefSection {
        node: id,
        id: node.id.clone(),
        title: one_line(title),
        path: one_line(&node.path),
        root: if root.id.is_empty() { root.title.clone() } else { root.id.clone() },
        line_start: node.line_start,
        line_end,
        score,
        origin,
        exposure,
        tokens: counter.count(&text),
        text,
    }
}

/// Summarize mode's text of a section: the node summary when it has one, else the
/// frontmatter `description` of a text that starts with one (a SKILL.md), else the first
/// paragraph of its text (after any frontmatter) that is not a heading; whitespace collapsed, cut to
/// [`SUMMARY_CHARS`] characters with a trailing `…` when longer.
pub fn summary_of(summary: &str, body: &str) -> String {
    // A leading frontmatter block is metadata, not prose: its `description` stands in for
    // the first paragraph (a SKILL.md), else it is skipped.
    let (described, body) = match crate::frontmatter::parse(body).filter(|fm| fm.block.end > 0) {
        Some(fm) => {
            let desc = match fm.get("description").map(|e| &e.value) {
                Some(crate::frontmatter::Value::Str(d)) if !d.trim().is_empty() => Some(d.clone()),
                _ => None,
            };
            (desc, body.get(fm.block.end..).unwrap_or(""))
        }
        None => (None, body),
    };
    let src = if !summary.trim().is_empty() {
        summary
    } else if let Some(d) = described.as_deref() {
        d
    } else {
        body.split("\n\n").map(str::trim).find(|p| !p.is_empty() && !p.starts_with('#')).unwrap_or("")
    };
    let flat = src.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= SUMMARY_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(SUMMARY_CHARS - 1).collect();
    cut.push('…');
    cut
}

pub(crate) fn one_line(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\n', '\r'], " ")
}

/// Build a curated brief: [`gather`], then pack under `req.max_tokens` (first-fit in order
/// of value, each step checked on the exact text, so the result's token count stays within
/// the budget unless even an empty brief exceeds it), then render in `req.format`. Left-out ids are in
/// [`Brief::left_out`] and stated in the text.
pub fn curated_brief(
    corpus: &Corpus,
    index: Option<&Index>,
    req: &CuratedRequest<'_>,
    counter: TokenCounter,
) -> Brief {
    let (sections, corrections, mode) = gather(corpus, index, req, counter);
    let head = BriefHead {
        query: req.query.map(str::to_string),
        top_k: req.top_k,
        mode,
        corrections,
        max_tokens: req.max_tokens,
        encoding: counter.encoding(),
    };
    render_packed(&head, &sections, req.format, counter)
}

/// First-fit of `sections` in order of value under `max` tokens, on estimates: the
/// brief's frame with no section but the longest left-out list (at most
/// [`super::curated_md::LEFT_OUT_LISTED`] ids in every layout), plus per section its text's
/// exact tokens and the tokens of its provenance (its block rendered with an empty text,
/// less the frame). Linear in the sections (a full render per step made XML and JSON
/// briefs of thousands of sections take many seconds).
fn pack(
    head: &BriefHead,
    sections: &[BriefSection],
    format: BriefFormat,
    max: u64,
    counter: TokenCounter,
) -> (Vec<bool>, Vec<u64>) {
    let render = |kept: &[&BriefSection], left: &[&str]| match format {
        BriefFormat::Md => super::curated_md::render(head, kept, left),
        BriefFormat::Xml => super::xml::render(head, kept, left),
        BriefFormat::Json => super::json::render(head, kept, left),
    };
    let all_ids: Vec<&str> = sections.iter().map(|s| s.id.as_str()).collect();
    let frame = counter.count(&render(&[], &all_ids));
    let bare = counter.count(&render(&[], &[]));
    let mut keep = vec![false; sections.len()];
    let mut costs = Vec::with_capacity(sections.len());
    let mut total = frame;
    for (i, s) in sections.iter().enumerate() {
        let empty = BriefSection { text: String::new(), ..s.clone() };
        let cost = counter.count(&render(&[&empty], &[])).saturating_sub(bare) + s.tokens;
        if total + cost <= max {
            keep[i] = true;
            total += cost;
        }
        costs.push(cost);
    }
    (keep, costs)
}

/// Up to this many sections a budget is packed first-fit on the exact text at every step;
/// above it, on estimates ([`pack`]) and then checked exactly.
pub const EXACT_PACK_MAX: usize = 64;

/// Exact tries of the fill step after packing on estimates.
const FILL_TRIES: usize = 16;

/// Render `sections` under `head` in `format`, packing under `head.max_tokens`.
pub fn render_packed(
    head: &BriefHead,
    sections: &[BriefSection],
    format: BriefFormat,
    counter: TokenCounter,
) -> Brief {
    // `list_left`: name the left-out ids (the real text) or not (for per-section costs).
    let render = |keep: &[bool], list_left: bool| -> String {
        let kept: Vec<&BriefSection> =
            sections.iter().zip(keep).filter(|(_, k)| **k).map(|(s, _)| s).collect();
        let left: Vec<&str> = if list_left {
            sections.iter().zip(keep).filter(|(_, k)| !**k).map(|(s, _)| s.id.as_str()).collect()
        } else {
            Vec::new()
        };
        match format {
            BriefFormat::Md => super::curated_md::render(head, &kept, &left),
            BriefFormat::Xml => super::xml::render(head, &kept, &left),
            BriefFormat::Json => super::json::render(head, &kept, &left),
        }
    };
    let mut keep = vec![true; sections.len()];
    let mut text = render(&keep, true);
    // The section texts alone over the budget: no need to count the whole text to know.
    let over = |text: &str, max: u64| {
        sections.iter().map(|s| s.tokens).sum::<u64>() > max || counter.count(text) > max
    };
    if let Some(max) = head.max_tokens
        && over(&text, max)
    {
        if sections.len() <= EXACT_PACK_MAX {
            // First-fit in order of value, each step checked on the exact text. A section
            // whose brief alone is over the budget is skipped without a full render.
            keep.iter_mut().for_each(|k| *k = false);
            for i in 0..sections.len() {
                let mut one = vec![false; sections.len()];
                one[i] = true;
                if counter.count(&render(&one, false)) > max {
                    continue;
                }
                keep[i] = true;
                if counter.count(&render(&keep, true)) > max {
                    keep[i] = false;
                }
            }
        } else {
            let costs;
            (keep, costs) = pack(head, sections, format, max, counter);
            // The estimate is within a few tokens (pieces tokenised apart); the exact count
            // of the whole text decides: drop the least valuable kept sections while over.
            let mut exact = counter.count(&render(&keep, true));
            while exact > max {
                let Some(last) = keep.iter().rposition(|k| *k) else { break };
                keep[last] = false;
                exact = counter.count(&render(&keep, true));
            }
            // The estimate counts the longest left-out list: fill the slack it leaves, in
            // order of value, checking each addition exactly (a bounded number of tries).
            let mut tries = 0;
            for i in 0..sections.len() {
                if keep[i] || costs[i] > max.saturating_sub(exact) {
                    continue;
                }
                if tries == FILL_TRIES {
                    break;
                }
                tries += 1;
                keep[i] = true;
                match counter.count(&render(&keep, true)) {
                    n if n <= max => exact = n,
                    _ => keep[i] = false,
                }
            }
        }
        text = render(&keep, true);
    }
    Brief {
        bytes: text.len(),
        tokens: counter.count(&text),
        encoding: counter.encoding(),
        sections: keep.iter().filter(|k| **k).count(),
        left_out: sections.iter().zip(&keep).filter(|(_, k)| !**k).map(|(s, _)| s.id.clone()).collect(),
        text,
    }
}
