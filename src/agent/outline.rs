//! The `outline` request: a node's subtree as compact rows (id, title, tokens, a summary of
//! at most [`SUMMARY_WORDS`] words; `full` adds `tree --json`'s fields), or without an id
//! the catalog of roots and skills with their always-loaded tokens, or each root's children
//! `depth` levels down. The depth shown is the deepest whose result fits a token budget
//! (`max_tokens`, `o200k_base` or the workspace's encoding). With a `query`, every row
//! carries `score`, the best search score in its subtree, and children come best first
//! (docs/MCP.md "Outline"). `hidden` nodes are left out; a result that does not fit at one
//! level lists fewer children and says which argument gets the rest.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::error::{AgentResult, err};
use super::json as shapes;
use super::limits::check_query;
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::index::{Hit, SearchOptions};
use crate::model::{Corpus, Flag, NodeId, NodeKind};
use crate::skill::layers::{layers_json, root_layers, skill_layers};
use crate::tokens::TokenTable;

/// Deepest outline one request may ask for.
pub const MAX_DEPTH: usize = 8;

/// Token budget of an outline when `max_tokens` is not given.
pub const DEFAULT_OUTLINE_TOKENS: u64 = 4_000;

/// Most words of a row's summary (a longer one is cut and ends with `…`).
pub const SUMMARY_WORDS: usize = 20;

/// Content hits looked at to score the subtrees of a query-guided outline.
pub const SCORE_HITS: usize = 1_000;

/// An outline request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutlineArgs {
    /// A node id or exact title; `None` for the roots.
    pub id: Option<String>,
    /// Most levels below the node (or below each root); `None`: as deep as the budget allows.
    pub depth: Option<usize>,
    /// Score every row by this query and order children best first.
    pub query: Option<String>,
    /// Token budget of the whole result (lowered to the server's cap with a `note`).
    pub max_tokens: Option<u64>,
    /// Rows with every `tree --json` field instead of the compact ones.
    pub full: bool,
    /// Children of the node (`id`) to skip before the ones listed: where an earlier outline
    /// stopped (`more_children`). Only with `id`.
    pub offset: usize,
}

/// Outline `a.id` (an id or exact title), or without an id: the catalog when neither
/// `depth` nor `query` is given, else `{"roots": [row…]}` with each root's children
/// `depth` levels down (1 with only a query).
///
/// A compact row is `{"id", "title"?, "tokens", "summary"?, "score"?, "exposure"?,
/// "layers"?, "children" | "children_count"?, "more_children"?}`: a child's `id` is given
/// from the `/` or `#` where it continues its parent's ([`relative_id`], undone by
/// [`full_id`]), `title` is left out when the id's last segment names it, `tokens` counts
/// the subtree in the workspace's encoding, `summary` has at most [`SUMMARY_WORDS`] words
/// and is left out when empty or equal to the title or the parent's, a file whose one child
/// is its `#` heading section lists that section's children, `score` (with a query) is the best BM25
/// score of a hit in the subtree (0 when none), `exposure` is given when not `on-demand`,
/// `layers` on skills, `children_count` when children exist but are below the depth shown.
/// With `full`, a row is `tree --json`'s node plus these. The document also has
/// `encoding`, `generation`, `depth` (levels shown), `tokens` (the result's own tokens),
/// `max_tokens`, and `truncated` when fewer levels or children than asked are shown.
/// Errors: unknown or hidden id, depth over [`MAX_DEPTH`], an empty or over-long query,
/// `max_tokens` 0.
pub fn outline(ws: &Workspace, a: &OutlineArgs) -> AgentResult<Value> {
    if let Some(depth) = a.depth.filter(|d| *d > MAX_DEPTH) {
        return err(format!(
            "depth must be at most {MAX_DEPTH} (got {depth}); outline a child id instead"
        ));
    }
    if let Some(q) = &a.query {
        check_query(q)?;
    }
    if a.offset > 0 && a.id.is_none() {
        return err("offset needs id: it skips that node's first children");
    }
    let budget = ws.limits().budget(a.max_tokens, DEFAULT_OUTLINE_TOKENS)?;
    let tops = match &a.id {
        Some(key) => vec![served(ws, key)?],
        None if a.depth.is_none() && a.query.is_none() => {
            return Ok(fit_catalog(ws.limits().max_chars, catalog(ws)));
        }
        None => visible_roots(ws),
    };
    let scores = a.query.as_deref().map(|q| subtree_scores(ws, q));
    let rows = Rows {
        ws,
        empty: TokenTable::empty(ws.counter().encoding(), &ws.corpus),
        scores,
        full: a.full,
        offset: a.offset,
    };
    let asked = match (&a.id, a.depth) {
        (None, None) => 1,
        (_, d) => d.unwrap_or(MAX_DEPTH),
    };
    let mut doc = fit(&rows, &tops, a.id.is_some(), asked, budget.tokens);
    if let Some(note) = budget.note {
        doc["note"] = json!(note);
    }
    Ok(doc)
}

/// The node `key` names, unless it is hidden. Errors name the id.
pub fn served(ws: &Workspace, key: &str) -> AgentResult<NodeId> {
    let Some(node) = super::lookup::resolve(&ws.corpus, key) else {
        return err(format!(
            "no node with id {key:?} (ids come from search or outline; it may be gone after a reload)"
        ));
    };
    if ws.exposure.level(&ws.corpus, node) == Exposure::Hidden {
        return err(format!("{key:?} is hidden: not served"));
    }
    Ok(node)
}

/// The node to read for node `id` (asked as `key`): for a symbolic link to a file of the
/// same root (an alias, not read twice) the file it links to, unless hidden; else `id`.
/// Errors: a link to a file outside the opened folder, which is not read without
/// `--follow-links`.
pub fn link_target(ws: &Workspace, key: &str, id: NodeId) -> AgentResult<NodeId> {
    let corpus = &ws.corpus;
    let node = corpus.node(id);
    if node.span.is_some() || node.kind != NodeKind::File {
        return Ok(id);
    }
    if node.flags.has(Flag::ExternalLink) {
        return err(format!(
            "{key} is a link to a file outside the opened folder, which is not read: start the server with --follow-links to read it"
        ));
    }
    match crate::formats::walk::link_target(corpus, id) {
        Some(t) => served(ws, &corpus.id(t)),
        None => Ok(id),
    }
}

/// The roots that are not hidden, in load order.
fn visible_roots(ws: &Workspace) -> Vec<NodeId> {
    ws.corpus
        .roots
        .iter()
        .copied()
        .filter(|r| ws.exposure.level(&ws.corpus, *r) != Exposure::Hidden)
        .collect()
}

/// Tokens of a hit's whole text (sub-sections included) up to which a hit inside it lifts
/// it instead of itself ([`subtree_scores`]): reading it reads both.
pub const WHOLE_READ_TOKENS: u64 = 4_000;

/// The best BM25 score of `q`'s retrievable content hits (the first [`SCORE_HITS`]) in each
/// node's subtree: every hit (and every copy folded into it) lifts itself and its
/// ancestors, with these exceptions (a hit's text holds its sub-sections'; docs/MCP.md
/// "Outline"):
/// - a hit inside a better-scoring hit lifts nothing, so a walk that reaches the better hit
///   stops there;
/// - a hit inside the text of a hit of at most [`WHOLE_READ_TOKENS`] lifts the outermost such hit in
///   its place, so a walk stops at the text that holds both instead of stepping into a
///   short sub-section (a "See also" list) that happens to score higher;
/// - likewise a hit inside a doc tree's `doc.md` of at most [`WHOLE_READ_TOKENS`] lifts that
///   file: the page (or the pages a merge joined) is the unit a doc tree is read in
///   (docs/FORMATS.md §6), so a walk that reaches it reads it whole;
/// - when the best hit and the best one outside it score within [`NEAR_TIE`] of each other,
///   every hit under their lowest common ancestor lifts that ancestor (no root, at most
///   [`TIE_READ_TOKENS`] tokens), so a walk reads both instead of guessing.
///
/// Nodes without a hit below them are absent (score 0).
pub fn subtree_scores(ws: &Workspace, q: &str) -> HashMap<NodeId, f64> {
    let corpus = &ws.corpus;
    let opts = SearchOptions {
        top_k: SCORE_HITS,
        prefix: false,
    };
    let res = ws.index.search(corpus, q, &opts);
    let own = own_hit_scores(ws, &res.hits);
    let mut lifted: Vec<(NodeId, f64)> = Vec::new();
    for (&start, &score) in &own {
        if corpus
            .ancestors(start)
            .any(|a| own.get(&a).is_some_and(|s| *s > score))
        {
            continue;
        }
        let from = corpus
            .ancestors(start)
            .filter(|a| {
                (own.contains_key(a) && holds_text_of(corpus, *a, start)
                    || crate::index::tree_docs::is_page_file(corpus, *a))
                    && ws.tokens_of(*a) <= WHOLE_READ_TOKENS
            })
            .last()
            .unwrap_or(start);
        lifted.push((from, score));
    }
    if let Some(tie) = near_tie(ws, &lifted) {
        for (from, _) in &mut lifted {
            if *from == tie || corpus.ancestors(*from).any(|a| a == tie) {
                *from = tie;
            }
        }
    }
    let mut best: HashMap<NodeId, f64> = HashMap::new();
    for (from, score) in lifted {
        let mut at = Some(from);
        while let Some(n) = at {
            let s = best.entry(n).or_insert(0.0);
            if score > *s {
                *s = score;
            }
            at = corpus.node(n).parent;
        }
    }
    best
}

/// Least share of the best hit's score a hit elsewhere must have to be a near tie with it
/// ([`subtree_scores`]).
pub const NEAR_TIE: f64 = 0.85;

/// Tokens of a node up to which two near-tied hits under it lift it ([`subtree_scores`]): read
/// whole (a folder file by file), it fits the default `read` budget (8,000) with its
/// entries' provenance.
pub const TIE_READ_TOKENS: u64 = 6_000;

/// The node a walk should read when the evidence is split: the lowest common ancestor of
/// the best lifted hit and the best one outside it (neither holding the other), when that
/// one scores at least [`NEAR_TIE`] of the best, and the ancestor is no root and has at most
/// [`TIE_READ_TOKENS`] tokens. A near tie between a page and its sub-page, or two sibling
/// pages, is a coin toss for the ranking; reading what holds both costs one read
/// (docs/MCP.md "Outline").
fn near_tie(ws: &Workspace, lifted: &[(NodeId, f64)]) -> Option<NodeId> {
    let corpus = &ws.corpus;
    let &(top, top_score) = lifted.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    if top_score <= 0.0 {
        return None;
    }
    let inside = |n: NodeId, of: NodeId| n == of || corpus.ancestors(n).any(|a| a == of);
    let &(other, score) = lifted
        .iter()
        .filter(|(n, _)| !inside(*n, top) && !inside(top, *n))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if score < NEAR_TIE * top_score {
        return None;
    }
    let common = corpus.ancestors(top).find(|a| inside(other, *a))?;
    (corpus.node(common).kind != NodeKind::Root && ws.tokens_of(common) <= TIE_READ_TOKENS)
        .then_some(common)
}

/// Whether node `outer`'s text span holds node `inner`'s (same source), as a section's holds
/// its sub-sections'; a skill's routing text holds nothing.
fn holds_text_of(corpus: &Corpus, outer: NodeId, inner: NodeId) -> bool {
    match (corpus.node(outer).span, corpus.node(inner).span) {
        (Some(o), Some(i)) => o.source == i.source && o.start <= i.start && i.end <= o.end,
        _ => false,
    }
}

/// Each retrievable hit's node, and each copy folded into a hit, with its best score.
fn own_hit_scores(ws: &Workspace, hits: &[Hit]) -> HashMap<NodeId, f64> {
    let mut own: HashMap<NodeId, f64> = HashMap::new();
    for h in hits {
        if !matches!(
            ws.exposure.level(&ws.corpus, h.node),
            Exposure::Always | Exposure::OnDemand
        ) {
            continue;
        }
        for n in std::iter::once(h.node).chain(h.copies.iter().copied()) {
            let s = own.entry(n).or_insert(0.0);
            if h.score > *s {
                *s = h.score;
            }
        }
    }
    own
}

/// What builds rows: the workspace, an empty table (`tree --json` shapes want one), the
/// subtree scores of a query, and whether rows are full.
struct Rows<'a> {
    ws: &'a Workspace,
    empty: TokenTable,
    scores: Option<HashMap<NodeId, f64>>,
    full: bool,
    /// Children of the top row skipped before the listed ones ([`OutlineArgs::offset`]).
    offset: usize,
}

/// The row a child is listed below: its full id and its short summary (empty for a top
/// row).
#[derive(Default)]
struct Above {
    id: String,
    summary: String,
}

/// Whether `id`'s last segment (after its last `/` or `#`) is `title` or its slug, also once
/// a leading number is taken off both (`1.2. Load rules` in `1-2-load-rules` or
/// `02-load-rules`), so a compact row leaves the title out.
fn id_names_title(id: &str, title: &str) -> bool {
    let last = id.rsplit(['/', '#']).next().unwrap_or(id);
    let slug = crate::model::id::slug(title);
    if last == title || slug == last {
        return true;
    }
    let unnumbered = |s: &str| {
        s.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-')
            .to_string()
    };
    let words = unnumbered(&slug);
    !words.is_empty() && words == unnumbered(last)
}

/// A compact row's id: the part of `id` after `parent` when it continues it (then starting
/// with `/` or `#`: the full id is the parent's followed by it), else `id` whole.
pub fn relative_id<'a>(id: &'a str, parent: &str) -> &'a str {
    match id.strip_prefix(parent) {
        Some(rest) if !parent.is_empty() && (rest.starts_with('/') || rest.starts_with('#')) => {
            rest
        }
        _ => id,
    }
}

/// The full id of a compact row whose `id` is `shown`, listed below a row whose full id is
/// `parent` ([`relative_id`] undone).
pub fn full_id(shown: &str, parent: &str) -> String {
    if shown.starts_with('/') || shown.starts_with('#') {
        format!("{parent}{shown}")
    } else {
        shown.to_string()
    }
}

/// The levels and children a row shows, and whether anything was left below them.
struct Shape {
    depth: usize,
    kids: usize,
    cut: bool,
}

/// The outline document of `tops` (one node by id, or the roots) at the deepest depth up to
/// `asked` whose result fits `budget` tokens and the character cap; when even one level
/// does not fit, fewer children per node (then the node alone), with `truncated` saying so.
fn fit(rows: &Rows<'_>, tops: &[NodeId], by_id: bool, asked: usize, budget: u64) -> Value {
    let mut chosen: Option<(Value, Shape)> = None;
    for depth in asked.min(1)..=asked {
        let mut shape = Shape {
            depth,
            kids: usize::MAX,
            cut: false,
        };
        let doc = document(rows, tops, by_id, &mut shape);
        if !fits(rows.ws, &doc, budget) {
            // A deeper level with fewer children per node beats stopping a level short.
            if depth > 1
                && let Some(capped) = capped_level(rows, tops, by_id, depth, budget)
            {
                chosen = Some(capped);
            }
            break;
        }
        let done = !shape.cut;
        chosen = Some((doc, shape));
        if done {
            break;
        }
    }
    let (doc, shape) =
        chosen.unwrap_or_else(|| fewer_children(rows, tops, by_id, budget, asked > 0));
    finish(rows.ws, doc, &shape, asked, budget)
}

/// Fewest children per node a deeper level may show in place of a shallower whole one.
const MIN_CAPPED_KIDS: usize = 25;

/// `depth` levels with at most 200, 100, 50 or 25 children per node: the first that fits
/// `budget`, if any.
fn capped_level(
    rows: &Rows<'_>,
    tops: &[NodeId],
    by_id: bool,
    depth: usize,
    budget: u64,
) -> Option<(Value, Shape)> {
    let mut kids = 200;
    while kids >= MIN_CAPPED_KIDS {
        let mut shape = Shape {
            depth,
            kids,
            cut: false,
        };
        let doc = document(rows, tops, by_id, &mut shape);
        if fits(rows.ws, &doc, budget) {
            return Some((doc, shape));
        }
        kids /= 2;
    }
    None
}

/// One level (when `one_level`) with fewer children per node (200, then halves) until it
/// fits `budget`, else the nodes alone.
fn fewer_children(
    rows: &Rows<'_>,
    tops: &[NodeId],
    by_id: bool,
    budget: u64,
    one_level: bool,
) -> (Value, Shape) {
    let mut kids = if one_level { 200 } else { 0 };
    while kids >= 1 {
        let mut shape = Shape {
            depth: 1,
            kids,
            cut: false,
        };
        let doc = document(rows, tops, by_id, &mut shape);
        if fits(rows.ws, &doc, budget) {
            return (doc, shape);
        }
        kids /= 2;
    }
    let mut shape = Shape {
        depth: 0,
        kids: 0,
        cut: true,
    };
    let doc = document(rows, tops, by_id, &mut shape);
    (doc, shape)
}

/// Whether `doc` (less the frame [`finish`] adds) fits `budget` tokens and the character cap.
fn fits(ws: &Workspace, doc: &Value, budget: u64) -> bool {
    // Room for the fields `finish` adds: `tokens`, `max_tokens`, `truncated`.
    const FRAME_TOKENS: u64 = 60;
    const FRAME_CHARS: usize = 400;
    let text = doc.to_string();
    text.chars().count() + FRAME_CHARS <= ws.limits().max_chars
        && ws.counter().count(&text) + FRAME_TOKENS <= budget
}

/// The frame of one outline: `encoding`, `generation`, `depth`, and `node` (by id) or
/// `roots`, rows built to `shape`.
fn document(rows: &Rows<'_>, tops: &[NodeId], by_id: bool, shape: &mut Shape) -> Value {
    let ws = rows.ws;
    let mut doc = json!({
        "encoding": ws.counter().encoding().as_str(),
        "generation": ws.generation,
        "depth": shape.depth,
    });
    let depth = shape.depth;
    let listed: Vec<Value> = tops.iter().map(|t| rows.entry(*t, depth, shape)).collect();
    if by_id {
        doc["node"] = listed.into_iter().next().unwrap_or(Value::Null);
    } else {
        doc["roots"] = Value::Array(listed);
    }
    doc
}

/// `doc` with `max_tokens`, `truncated` (when fewer levels than `asked` or fewer children
/// are shown) and its own `tokens`.
fn finish(ws: &Workspace, mut doc: Value, shape: &Shape, asked: usize, budget: u64) -> Value {
    doc["max_tokens"] = json!(budget);
    if shape.kids == 0 {
        doc["truncated"] = json!(format!(
            "cut to fit {budget} tokens and {} characters: this node alone fills the result; outline its children by id",
            ws.limits().max_chars
        ));
    } else if shape.kids != usize::MAX || (shape.depth < asked && shape.cut) {
        let (kids, offset) = if shape.kids == usize::MAX {
            (String::new(), "")
        } else {
            (
                format!(", first {} children per node", shape.kids),
                ", pass offset (the children already listed) for a node's next children",
            )
        };
        doc["truncated"] = json!(format!(
            "cut to fit {budget} tokens and {} characters (depth {}{kids}): outline a child by id{offset}, or raise max_tokens",
            ws.limits().max_chars,
            shape.depth
        ));
    }
    // The count includes its own digits: count again once it is written.
    doc["tokens"] = json!(0);
    for _ in 0..2 {
        doc["tokens"] = json!(ws.counter().count(&doc.to_string()));
    }
    doc
}

impl Rows<'_> {
    /// `id`'s row with its visible children `depth` levels down (at most `shape.kids` per
    /// node, best score first with a query); marks `shape.cut` when children are left
    /// below the depth.
    fn entry(&self, id: NodeId, depth: usize, shape: &mut Shape) -> Value {
        self.entry_below(id, &Above::default(), depth, shape)
    }

    /// [`Rows::entry`] of a node listed below the row `above`. A child file whose one child
    /// is its `#` heading section with sub-sections, and which holds no text of its own
    /// (no frontmatter, nothing before the heading), keeps its own fields under that
    /// section's id (the same text), so its children's ids continue the section's.
    fn entry_below(&self, id: NodeId, above: &Above, depth: usize, shape: &mut Shape) -> Value {
        let corpus = &self.ws.corpus;
        let mut o = self.head(id, above);
        let mut here = Above {
            id: corpus.id(id),
            summary: short_summary(corpus.summary(id)),
        };
        if let Some(s) = self.lifted(id)
            && !above.id.is_empty()
            && !self.visible(s).is_empty()
            && self.same_text(id)
        {
            here.id.clone_from(&corpus.id(s));
            o.insert("id".into(), json!(relative_id(&here.id, &above.id)));
        }
        let visible = self.children(id);
        if visible.is_empty() {
            if self.full {
                o.insert("children".into(), json!([]));
            }
        } else if depth == 0 {
            o.insert("children_count".into(), json!(visible.len()));
            shape.cut = true;
        } else {
            let kids = shape.kids;
            let skip = if above.id.is_empty() { self.offset } else { 0 };
            let shown: Vec<Value> = visible
                .iter()
                .skip(skip)
                .take(kids)
                .map(|c| self.entry_below(*c, &here, depth - 1, shape))
                .collect();
            if skip > 0 {
                o.insert("children_offset".into(), json!(skip));
            }
            let more = visible.len().saturating_sub(skip + shown.len());
            if more > 0 {
                o.insert("more_children".into(), json!(more));
            }
            o.insert("children".into(), Value::Array(shown));
        }
        Value::Object(o)
    }

    /// The visible children of `id`, best subtree score first when there is a query (a
    /// file [`Rows::lifted`] into its section: that section's children).
    fn children(&self, id: NodeId) -> Vec<NodeId> {
        let mut kids = self.visible(self.lifted(id).unwrap_or(id));
        if self.scores.is_some() {
            kids.sort_by(|a, b| self.score(*b).total_cmp(&self.score(*a)));
        }
        kids
    }

    /// Whether file `id` holds no text outside its children but whitespace (reading its
    /// one section then reads everything it has).
    fn same_text(&self, id: NodeId) -> bool {
        let corpus = &self.ws.corpus;
        corpus.node(id).span.is_none() || corpus.own_text(id).trim().is_empty()
    }

    /// The children of `id` that are not hidden, in order.
    fn visible(&self, id: NodeId) -> Vec<NodeId> {
        let ws = self.ws;
        let corpus = &ws.corpus;
        corpus
            .node(id)
            .children
            .iter()
            .copied()
            .filter(|c| ws.exposure.level(corpus, *c) != Exposure::Hidden)
            .collect()
    }

    /// The one section of a file whose only visible child is its `#` heading section
    /// (compact rows only): reading either reads the same text, so the outline lists the
    /// section's children in the file's place.
    fn lifted(&self, id: NodeId) -> Option<NodeId> {
        let corpus = &self.ws.corpus;
        if self.full || corpus.node(id).kind != NodeKind::File {
            return None;
        }
        match self.visible(id)[..] {
            [only] if corpus.node(only).kind == NodeKind::Section => Some(only),
            _ => None,
        }
    }

    /// The subtree score of `id` (0 without a hit, or without a query).
    fn score(&self, id: NodeId) -> f64 {
        self.scores
            .as_ref()
            .and_then(|s| s.get(&id).copied())
            .unwrap_or(0.0)
    }

    /// `id`'s own fields: compact (`id` after `above`'s when it continues it, `title` unless
    /// the id's last segment names it, `tokens`, short `summary` unless it is the title or `above`'s)
    /// or full (`tree --json`'s), then `score`, `exposure` and `layers` as [`outline`] says.
    fn head(&self, id: NodeId, above: &Above) -> Map<String, Value> {
        let ws = self.ws;
        let corpus = &ws.corpus;
        let n = corpus.node(id);
        let mut o = if self.full {
            self.full_fields(id)
        } else {
            let mut o = Map::new();
            let nid = corpus.id(id);
            o.insert("id".into(), json!(relative_id(&nid, &above.id)));
            let title = n.title.trim();
            if !id_names_title(&nid, title) {
                o.insert("title".into(), json!(n.title));
            }
            o.insert("tokens".into(), json!(ws.tokens_of(id)));
            let summary = short_summary(corpus.summary(id));
            if !summary.is_empty() && summary != title && summary != above.summary {
                o.insert("summary".into(), json!(summary));
            }
            o
        };
        if self.scores.is_some() {
            o.insert("score".into(), json!(round2(self.score(id))));
        }
        let level = ws.exposure.level(corpus, id);
        if self.full || level != Exposure::OnDemand {
            o.insert("exposure".into(), json!(level.as_str()));
        }
        if n.kind == NodeKind::Skill {
            o.insert(
                "layers".into(),
                layers_json(&skill_layers(corpus, id, ws.counter())),
            );
        }
        o
    }

    /// `tree --json`'s fields of `id` without its children, with exact `tokens` and
    /// `own_tokens`.
    fn full_fields(&self, id: NodeId) -> Map<String, Value> {
        let ws = self.ws;
        let corpus = &ws.corpus;
        let mut v = shapes::node(corpus, &self.empty, id, Some(0));
        v["tokens"] = json!(ws.tokens_of(id));
        let own = if corpus.node(id).span.is_some() {
            ws.counter().count(corpus.own_text(id))
        } else {
            0
        };
        v["own_tokens"] = json!(own);
        let mut o = match v {
            Value::Object(o) => o,
            _ => Map::new(),
        };
        o.remove("children");
        o.remove("children_count");
        o
    }
}

/// `summary` with whitespace collapsed, cut after [`SUMMARY_WORDS`] words (then ending
/// with `…`).
pub fn short_summary(summary: &str) -> String {
    let words: Vec<&str> = summary.split_whitespace().collect();
    if words.len() <= SUMMARY_WORDS {
        return words.join(" ");
    }
    format!("{}…", words[..SUMMARY_WORDS].join(" "))
}

/// `x` rounded to two decimals (a score's precision in a row).
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `doc` (a [`catalog`]) cut to fewer than `max_chars` characters (less 400 for the
/// frame): without the skills' `layers` first, then with fewer skills per root (each root
/// then says how many in `more_skills`), and `truncated` saying so.
fn fit_catalog(max_chars: usize, mut doc: Value) -> Value {
    let room = max_chars.saturating_sub(400);
    let size = |d: &Value| d.to_string().chars().count();
    if size(&doc) <= room {
        return doc;
    }
    let roots = doc["roots"].as_array().cloned().unwrap_or_default();
    let mut keep = usize::MAX;
    loop {
        let cut: Vec<Value> = roots.iter().map(|r| trim_root(r, keep)).collect();
        doc["roots"] = Value::Array(cut);
        doc["truncated"] = json!(format!(
            "cut to fit {max_chars} characters (skills without layers{}): call outline with a root's id to see all of it",
            if keep == usize::MAX {
                String::new()
            } else {
                format!(", first {keep} skills per root")
            }
        ));
        if size(&doc) <= room || keep == 0 {
            return doc;
        }
        keep = if keep == usize::MAX { 200 } else { keep / 2 };
    }
}

/// Root entry `root` of a catalog with its skills' `layers` dropped and at most `keep`
/// skills (the number left out in `more_skills`).
fn trim_root(root: &Value, keep: usize) -> Value {
    let mut r = root.clone();
    let skills = r["skills"].as_array().cloned().unwrap_or_default();
    let shown: Vec<Value> = skills
        .iter()
        .take(keep)
        .map(|s| {
            let mut s = s.clone();
            if let Some(o) = s.as_object_mut() {
                o.remove("layers");
            }
            s
        })
        .collect();
    if skills.len() > shown.len() {
        r["more_skills"] = json!(skills.len() - shown.len());
    }
    r["skills"] = Value::Array(shown);
    r
}

/// Every root (id, title, format, bytes, tokens, always-loaded tokens of its skill
/// listing) with its non-hidden skills (name, id, description, exposure, layers).
fn catalog(ws: &Workspace) -> Value {
    let corpus = &ws.corpus;
    let counter = ws.counter();
    let mut roots = Vec::new();
    let mut always_total = 0;
    for &r in &corpus.roots {
        if ws.exposure.level(corpus, r) == Exposure::Hidden {
            continue;
        }
        let layers = root_layers(corpus, r, counter);
        always_total += layers.always_loaded_tokens;
        let skills: Vec<Value> = layers
            .skills
            .iter()
            .filter(|s| ws.exposure.level(corpus, s.skill) != Exposure::Hidden)
            .map(|s| {
                let n = corpus.node(s.skill);
                json!({
                    "name": s.entry.name,
                    "id": corpus.id(s.skill),
                    "description": s.entry.description,
                    "exposure": ws.exposure.level(corpus, s.skill).as_str(),
                    "shadowed": n.flags.has(Flag::Shadowed),
                    "tokens": ws.tokens_of(s.skill),
                    "layers": layers_json(s),
                })
            })
            .collect();
        let n = corpus.node(r);
        roots.push(json!({
            "id": corpus.id(r),
            "title": n.title,
            "format": n.format.as_str(),
            "bytes": n.bytes,
            "tokens": ws.tokens_of(r),
            "always_loaded_tokens": layers.always_loaded_tokens,
            "children_count": n.children.len(),
            "skills": skills,
        }));
    }
    json!({
        "encoding": counter.encoding().as_str(),
        "generation": ws.generation,
        "always_loaded_tokens": always_total,
        "roots": roots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_catalog_over_the_cap_drops_layers_then_skills_and_says_so() {
        let skills: Vec<Value> = (0..500)
            .map(|i| {
                json!({"name": format!("skill-{i:03}"), "id": format!("skills/skill-{i:03}"),
                       "description": "Does one thing well.", "layers": {"listing": 30, "body": 900}})
            })
            .collect();
        let doc =
            json!({"roots": [{"id": "skills", "skills": skills}], "always_loaded_tokens": 15_000});
        let cut = fit_catalog(10_000, doc.clone());
        let root = &cut["roots"][0];
        let shown = root["skills"].as_array().map_or(0, Vec::len);
        assert_eq!((shown, root["more_skills"].clone()), (100, json!(400)));
        assert_eq!(root["skills"][0].get("layers"), None);
        assert!(cut.to_string().chars().count() <= 9_600);
        assert_eq!(
            cut["truncated"],
            "cut to fit 10000 characters (skills without layers, first 100 skills per root): call outline with a root's id to see all of it"
        );
        assert_eq!(fit_catalog(1_000_000, doc.clone()), doc);
    }
}

#[cfg(test)]
pub(crate) mod tree_tests {
    use std::fmt::Write as _;
    use std::path::Path;

    use super::*;
    use crate::agent::workspace::WorkspaceConfig;
    use crate::formats::{LoadOptions, RootSpec};
    use crate::tokens::{Encoding, TokenCounter};

    const WORDS: [&str; 48] = [
        "kernel",
        "thread",
        "memory",
        "register",
        "vector",
        "cache",
        "load",
        "store",
        "branch",
        "predicate",
        "operand",
        "scalar",
        "shared",
        "global",
        "barrier",
        "warp",
        "texture",
        "surface",
        "module",
        "entry",
        "function",
        "state",
        "space",
        "address",
        "integer",
        "float",
        "conversion",
        "rounding",
        "mode",
        "atomic",
        "fence",
        "scope",
        "grid",
        "block",
        "cluster",
        "launch",
        "parameter",
        "constant",
        "pointer",
        "alignment",
        "size",
        "type",
        "value",
        "result",
        "source",
        "target",
        "version",
        "directive",
    ];

    /// `n` words from a seeded sequence, as sentences of eight words.
    fn prose(seed: &mut u64, n: usize) -> String {
        let mut out = String::new();
        for i in 0..n {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let w = WORDS[usize::try_from(*seed >> 33).unwrap_or(0) % WORDS.len()];
            out.push_str(w);
            out.push(if i % 8 == 7 { '.' } else { ' ' });
            if i % 8 == 7 {
                out.push(' ');
            }
        }
        out.trim_end().to_string()
    }

    /// A progressive-exposure doc tree (docs/FORMATS.md §6) in `dir`: a README listing
    /// `chapters` chapter folders, each a README listing `leaves` leaf folders, each leaf a
    /// README (a 40-word summary) and a `doc.md` of an intro and two sub-sections.
    pub(crate) fn doc_tree(dir: &Path, chapters: usize, leaves: usize, words: usize) {
        let mut seed = 7;
        let mut top = String::from("# Mini ISA\n\n");
        for c in 1..=chapters {
            let name = format!("{c}-Chapter-{}", WORDS[c]);
            let _ = writeln!(top, "- **{name}** — {}", prose(&mut seed, 24));
            let cdir = dir.join(&name);
            let mut readme = format!("# {c}. Chapter {}\n\n", WORDS[c]);
            for l in 1..=leaves {
                let leaf = format!(
                    "{c}-{l}-{}-{}",
                    WORDS[(c * 7 + l) % 48],
                    WORDS[(l * 5 + c) % 48]
                );
                let summary = prose(&mut seed, 40);
                let _ = writeln!(readme, "- **{leaf}** — {summary}");
                let ldir = cdir.join(&leaf);
                std::fs::create_dir_all(&ldir).unwrap();
                let title = format!("{c}.{l}. {}", leaf.replace('-', " "));
                std::fs::write(ldir.join("README.md"), format!("# {title}\n\n{summary}\n"))
                    .unwrap();
                let doc = format!(
                    "# {title}\n\n{}\n\n## Rules of {}\n\n{}\n\n## Examples of {}\n\n{}\n",
                    prose(&mut seed, words / 3),
                    WORDS[(l + c) % 48],
                    prose(&mut seed, words / 3),
                    WORDS[(l * 3 + c) % 48],
                    prose(&mut seed, words / 3),
                );
                std::fs::write(ldir.join("doc.md"), doc).unwrap();
            }
            std::fs::write(cdir.join("README.md"), readme).unwrap();
        }
        std::fs::write(dir.join("README.md"), top).unwrap();
    }

    pub(crate) fn open(dir: &Path) -> Workspace {
        Workspace::open(config(dir))
    }

    /// The workspace configuration of one root `dir` labelled `isa`.
    pub(crate) fn config(dir: &Path) -> WorkspaceConfig {
        WorkspaceConfig {
            specs: vec![RootSpec {
                path: dir.to_path_buf(),
                label: "isa".into(),
            }],
            load: LoadOptions::default(),
            counter: TokenCounter::new(Encoding::O200kBase),
            recipe: None,
            recipes_dir: None,
            limits: crate::agent::limits::Limits::default(),
        }
    }

    /// Every row of `v` and its descendants, with full ids, depth-first.
    fn rows(v: &Value, parent: &str, out: &mut Vec<(String, Value)>) {
        let id = full_id(v["id"].as_str().unwrap_or(""), parent);
        out.push((id.clone(), v.clone()));
        for c in v["children"].as_array().into_iter().flatten() {
            rows(c, &id, out);
        }
    }

    #[test]
    fn the_whole_outline_of_a_66_file_20k_token_doc_tree_costs_at_most_a_fifth_of_its_tokens() {
        let tmp = tempfile::tempdir().unwrap();
        doc_tree(tmp.path(), 5, 6, 480);
        let ws = open(tmp.path());
        let root = ws.corpus.roots[0];
        let tree = ws.tokens_of(root);
        let a = OutlineArgs {
            id: Some("isa".into()),
            max_tokens: Some(25_000),
            ..OutlineArgs::default()
        };
        let o = outline(&ws, &a).unwrap();
        let mut all = Vec::new();
        rows(&o["node"], "", &mut all);
        // Every node but 66: a file whose one child is its `#` section is one row (under
        // the section's id when the section has sub-sections).
        assert_eq!(all.len(), ws.corpus.len() - 66);
        assert!(all.iter().all(|(_, r)| r.get("children_count").is_none()));
        assert_eq!((o["depth"].clone(), o.get("truncated")), (json!(4), None));
        let cost = o["tokens"].as_u64().unwrap();
        let full = OutlineArgs {
            full: true,
            max_tokens: Some(1_000_000),
            ..a.clone()
        };
        let full = outline(&ws, &full).unwrap();
        // The `tree --json` rows of before: two levels already cost more and are cut.
        assert_eq!(full["depth"], json!(2));
        assert!(
            full["tokens"].as_u64().unwrap() > cost,
            "{}",
            full["tokens"]
        );
        assert!(full.get("truncated").is_some());
        assert_eq!(ws.counter().count(&o.to_string()), cost);
        assert!((20_000..21_000).contains(&tree), "{tree}");
        assert!(cost * 100 <= tree * 20, "{cost} of {tree}");
        let ids: Vec<&str> = all.iter().map(|(id, _)| id.as_str()).collect();
        assert!(
            ids.contains(
                &"isa/1-Chapter-thread/1-1-branch-load/doc.md#11-1-1-branch-load/rules-of-memory"
            ),
            "{ids:?}"
        );
        let leaf = &all
            .iter()
            .find(|(id, _)| id == "isa/1-Chapter-thread/1-1-branch-load/doc.md#11-1-1-branch-load")
            .expect("the lifted section row")
            .1;
        assert_eq!(leaf["id"], json!("/doc.md#11-1-1-branch-load"));
        assert_eq!(leaf["children"][0]["id"], json!("/rules-of-memory"));
    }

    #[test]
    fn a_numbered_title_that_the_id_already_names_is_left_out() {
        assert!(id_names_title(
            "isa/1-Chapter-thread/1-1-branch-load",
            "1.1. 1 1 branch load"
        ));
        assert!(id_names_title("docs/02-install", "2. Install"));
        assert!(id_names_title("docs/install", "Install"));
        assert!(!id_names_title("docs/02-install", "2. Upgrade"));
        assert!(!id_names_title("docs/2", "2. Overview"));
    }

    #[test]
    fn the_depth_shown_is_the_deepest_that_fits_max_tokens() {
        let tmp = tempfile::tempdir().unwrap();
        doc_tree(tmp.path(), 5, 6, 480);
        let ws = open(tmp.path());
        let a = OutlineArgs {
            id: Some("isa".into()),
            max_tokens: Some(2_500),
            ..OutlineArgs::default()
        };
        let o = outline(&ws, &a).unwrap();
        let two = OutlineArgs {
            depth: Some(2),
            max_tokens: Some(25_000),
            ..a.clone()
        };
        let at_two = outline(&ws, &two).unwrap()["tokens"].as_u64().unwrap();
        let three = OutlineArgs {
            depth: Some(3),
            ..two
        };
        let at_three = outline(&ws, &three).unwrap()["tokens"].as_u64().unwrap();
        assert!(at_two <= 2_500 && at_three > 2_500, "{at_two} {at_three}");
        assert_eq!(o["depth"], json!(2));
        assert!(o["tokens"].as_u64().unwrap() <= 2_500);
        assert_eq!(
            o["truncated"],
            "cut to fit 2500 tokens and 49999 characters (depth 2): outline a child by id, or raise max_tokens"
        );
        let leaf = &o["node"]["children"][1]["children"][1];
        assert_eq!(
            (leaf["id"].clone(), leaf["children_count"].clone()),
            (json!("/1-1-branch-load"), json!(2))
        );
        let words = leaf["summary"].as_str().unwrap().split_whitespace().count();
        assert_eq!(words, SUMMARY_WORDS);
    }

    #[test]
    fn a_budget_below_one_level_lists_fewer_children_then_the_node_alone() {
        let tmp = tempfile::tempdir().unwrap();
        doc_tree(tmp.path(), 5, 6, 480);
        let ws = open(tmp.path());
        let at = |max_tokens: u64| {
            let a = OutlineArgs {
                id: Some("isa/1-Chapter-thread".into()),
                max_tokens: Some(max_tokens),
                ..OutlineArgs::default()
            };
            outline(&ws, &a).unwrap()
        };
        let o = at(300);
        assert_eq!(o["depth"], json!(1));
        let shown = o["node"]["children"].as_array().map_or(0, Vec::len);
        assert_eq!(
            shown + o["node"]["more_children"].as_u64().unwrap() as usize,
            7
        );
        assert!(
            o["truncated"]
                .as_str()
                .unwrap()
                .contains("children per node"),
            "{o}"
        );
        let o = at(80);
        assert_eq!(
            (o["depth"].clone(), o["node"]["children_count"].clone()),
            (json!(0), json!(7))
        );
        assert!(
            o["truncated"].as_str().unwrap().contains("this node alone"),
            "{o}"
        );
    }

    #[test]
    fn offset_lists_the_children_after_the_ones_shown_and_a_deep_level_caps_them() {
        let tmp = tempfile::tempdir().unwrap();
        let big = tmp.path().join("big");
        std::fs::create_dir_all(&big).unwrap();
        for i in 0..300 {
            std::fs::write(big.join(format!("n{i:03}.md")), format!("# N{i}\n\nnote\n")).unwrap();
        }
        std::fs::write(tmp.path().join("small.md"), "# Small\n\ntext\n").unwrap();
        let ws = open(tmp.path());
        let at = |offset: usize| {
            let a = OutlineArgs {
                id: Some("isa/big".into()),
                depth: Some(1),
                max_tokens: Some(2_000),
                offset,
                ..OutlineArgs::default()
            };
            outline(&ws, &a).unwrap()
        };
        let first = at(0);
        let shown = first["node"]["children"].as_array().map_or(0, Vec::len);
        let more = first["node"]["more_children"].as_u64().unwrap() as usize;
        assert_eq!((shown + more, shown < 300), (300, true), "{first}");
        let next = at(shown);
        assert_eq!(next["node"]["children_offset"], json!(shown));
        assert_eq!(
            next["node"]["children"][0]["id"],
            json!(format!("/n{shown:03}.md"))
        );
        let total = shown
            + next["node"]["children"].as_array().map_or(0, Vec::len)
            + next["node"]["more_children"].as_u64().unwrap_or(0) as usize;
        assert_eq!(total, 300);
        // Two levels asked from the root: the big folder's children are capped rather than
        // the whole outline falling back to one level.
        let two = OutlineArgs {
            id: Some("isa".into()),
            depth: Some(2),
            max_tokens: Some(3_000),
            ..OutlineArgs::default()
        };
        let o = outline(&ws, &two).unwrap();
        assert_eq!(o["depth"], json!(2), "{o}");
        assert!(
            o["truncated"].as_str().unwrap().contains("pass offset"),
            "{o}"
        );
        let no_id = OutlineArgs {
            offset: 5,
            depth: Some(1),
            ..OutlineArgs::default()
        };
        assert!(outline(&ws, &no_id).is_err());
    }

    /// The scores of `query` on the children of `id`, by child id.
    fn child_scores(ws: &Workspace, id: &str, query: &str) -> Vec<(String, f64)> {
        let a = OutlineArgs {
            id: Some(id.into()),
            query: Some(query.into()),
            depth: Some(1),
            ..OutlineArgs::default()
        };
        let o = outline(ws, &a).unwrap();
        o["node"]["children"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().to_string(),
                    c["score"].as_f64().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn a_weaker_hit_inside_a_better_one_does_not_score_so_the_walk_stops_at_the_better_one() {
        let tmp = tempfile::tempdir().unwrap();
        let body = "## Narwhal\n\nThe narwhal tusk: narwhal pods, narwhal songs, narwhal diet.\n\n\
                    ### Habitat\n\nCold water, where one narwhal and many seals swim past the ice.\n\n\
                    ## Walrus\n\nThe walrus and its pup rest on the ice floe.\n\n\
                    ### Seal\n\nA seal swims by.\n\n\
                    ### Narwhal sighting\n\nOnce a narwhal was seen far out past the floe by the \
                    walrus herd resting on the ice in the cold grey morning light.\n";
        std::fs::write(tmp.path().join("sea.md"), format!("# Sea\n\n{body}")).unwrap();
        let ws = open(tmp.path());
        let top = child_scores(&ws, "isa/sea.md#sea", "narwhal");
        assert_eq!(top[0].0, "/narwhal", "{top:?}");
        // Inside the best hit (Narwhal), its weaker Habitat hit lifts nothing: a walk
        // reading Narwhal reads Habitat too.
        assert_eq!(
            child_scores(&ws, "isa/sea.md#sea/narwhal", "narwhal"),
            [("/habitat".to_string(), 0.0)]
        );
        // Walrus itself scores nothing, so the better hit below it still lifts it and
        // scores in its place.
        let walrus = child_scores(&ws, "isa/sea.md#sea/walrus", "narwhal");
        assert_eq!(walrus[0].0, "/narwhal-sighting", "{walrus:?}");
        assert!(walrus[0].1 > 0.0, "{walrus:?}");
        assert!(
            top.iter()
                .any(|(id, s)| id == "/walrus" && (*s - walrus[0].1).abs() < 1e-9),
            "{top:?}"
        );
    }

    #[test]
    fn a_better_hit_inside_a_short_hit_lifts_the_short_one_so_the_walk_reads_both() {
        let tmp = tempfile::tempdir().unwrap();
        let page = "# Derive\n\nThe compiler can provide basic implementations for some \
                    traits via the derive attribute, and many other words around it so \
                    that this page is longer than its list of links below.\n\n\
                    ## See also\n\n- [derive traits](https://example.org/derive)\n";
        std::fs::write(tmp.path().join("derive.md"), page).unwrap();
        std::fs::write(tmp.path().join("other.md"), "# Other\n\nNothing here.\n").unwrap();
        let ws = open(tmp.path());
        let own = own_hit_scores(
            &ws,
            &ws.index
                .search(&ws.corpus, "derive traits", &SearchOptions::default())
                .hits,
        );
        let find = |id: &str| ws.corpus.find(id).unwrap();
        let page_id = find("isa/derive.md#derive");
        let see_also = find("isa/derive.md#derive/see-also");
        // The short link list scores higher than the page that holds it...
        assert!(own[&see_also] > own[&page_id], "{own:?}");
        // ...yet it lifts the page (2 sections far below WHOLE_READ_TOKENS): the walk stops
        // at the page, whose text holds the list.
        assert_eq!(
            child_scores(&ws, "isa/derive.md#derive", "derive traits"),
            [("/see-also".to_string(), 0.0)]
        );
        let scores = subtree_scores(&ws, "derive traits");
        assert_eq!(scores.get(&page_id), Some(&own[&see_also]));
    }

    #[test]
    fn a_near_tie_between_two_pages_lifts_the_folder_that_holds_both_so_the_walk_reads_it() {
        let tmp = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = tmp.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("ch/swim.md", "# Swim\n\nA zebrafish swims here.\n");
        write("ch/sleep.md", "# Sleep\n\nA zebrafish sleeps here.\n");
        write(
            "far/long.md",
            "# Long\n\nOne zebrafish among many other words that make this page \
             much longer than the two short pages, so that it scores lower.\n",
        );
        let ws = open(tmp.path());
        let top = child_scores(&ws, "isa", "zebrafish");
        assert_eq!(top[0].0, "/ch", "{top:?}");
        assert!(top[0].1 > top[1].1 && top[1].1 > 0.0, "{top:?}");
        // Below the folder nothing scores: the walk stops at it and reads both pages.
        let inside = child_scores(&ws, "isa/ch", "zebrafish");
        assert!(inside.iter().all(|(_, s)| *s == 0.0), "{inside:?}");
        // A page that clearly wins is walked into as before.
        write(
            "ch/sleep.md",
            "# Sleep\n\nA zebrafish, zebrafish and zebrafish sleep.\n",
        );
        let ws = open(tmp.path());
        let inside = child_scores(&ws, "isa/ch", "zebrafish");
        assert_eq!(inside[0].0, "/sleep.md", "{inside:?}");
        assert!(inside[0].1 > inside[1].1 / NEAR_TIE, "{inside:?}");
    }

    #[test]
    fn a_query_scores_each_subtree_and_lists_the_best_child_first() {
        let tmp = tempfile::tempdir().unwrap();
        doc_tree(tmp.path(), 5, 6, 480);
        let doc = tmp
            .path()
            .join("3-Chapter-register/3-4-float-address/doc.md");
        let text = std::fs::read_to_string(&doc).unwrap();
        std::fs::write(
            &doc,
            text.replace(
                "## Examples of",
                "## Examples of\n\nA zebrafish swims here.\n\n## Zebra of",
            ),
        )
        .unwrap();
        let ws = open(tmp.path());
        let a = OutlineArgs {
            query: Some("zebrafish".into()),
            depth: Some(1),
            ..OutlineArgs::default()
        };
        let o = outline(&ws, &a).unwrap();
        let kids = o["roots"][0]["children"].as_array().unwrap();
        assert_eq!(kids[0]["id"], "/3-Chapter-register");
        assert!(kids[0]["score"].as_f64().unwrap() > 0.0);
        assert!(
            kids[1..].iter().all(|k| k["score"] == json!(0.0)),
            "{kids:?}"
        );
        assert_eq!(o["roots"][0]["score"], kids[0]["score"]);
        let a = OutlineArgs {
            id: Some("isa/3-Chapter-register".into()),
            query: Some("zebrafish".into()),
            depth: Some(1),
            ..OutlineArgs::default()
        };
        let o = outline(&ws, &a).unwrap();
        assert_eq!(o["node"]["children"][0]["id"], "/3-4-float-address");
    }

    #[test]
    fn a_hit_inside_a_short_doc_md_lifts_the_file_so_the_walk_reads_every_merged_page() {
        let tmp = tempfile::tempdir().unwrap();
        doc_tree(tmp.path(), 2, 2, 60);
        let chapter = tmp.path().join("2-Chapter-memory");
        let name = std::fs::read_dir(&chapter)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .find(|n| n.starts_with("2-1-"))
            .unwrap();
        let leaf = chapter.join(&name);
        std::fs::write(
            leaf.join("README.md"),
            "# 2.1. Texture\n\nMerged from: 2-1-texture to 2-1-shared\n\nTwo short pages.\n",
        )
        .unwrap();
        std::fs::write(
            leaf.join("doc.md"),
            "# Texture\n\nTexture memory holds images.\n\n---\n\n# Shared\n\n\
             Shared memory is where a zebrafish of data waits.\n",
        )
        .unwrap();
        let ws = open(tmp.path());
        let leaf_id = format!("isa/2-Chapter-memory/{name}");
        let rows = child_scores(&ws, &leaf_id, "zebrafish");
        let doc = rows.iter().find(|(id, _)| id == "/doc.md").unwrap();
        assert!(doc.1 > 0.0, "{rows:?}");
        // The part holding the hit scores nothing of its own: the walk stops at the file
        // and reads both pages.
        assert_eq!(
            child_scores(&ws, &format!("{leaf_id}/doc.md"), "zebrafish"),
            [("#part-1".to_string(), 0.0), ("#part-2".to_string(), 0.0)]
        );
    }

    #[test]
    fn without_an_id_or_depth_the_catalog_is_served() {
        let tmp = tempfile::tempdir().unwrap();
        doc_tree(tmp.path(), 2, 2, 60);
        let ws = open(tmp.path());
        let o = outline(&ws, &OutlineArgs::default()).unwrap();
        assert_eq!(o["roots"][0]["children_count"], json!(3));
        assert!(o["roots"][0].get("children").is_none());
        let a = OutlineArgs {
            depth: Some(1),
            ..OutlineArgs::default()
        };
        let o = outline(&ws, &a).unwrap();
        let ids: Vec<&str> = o["roots"][0]["children"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["id"].as_str())
            .collect();
        assert_eq!(
            ids,
            ["/README.md", "/1-Chapter-thread", "/2-Chapter-memory"]
        );
    }

    #[test]
    fn a_summary_keeps_twenty_words_and_marks_the_cut() {
        let long = (1..=25)
            .map(|i| format!("w{i}"))
            .collect::<Vec<_>>()
            .join("  ");
        let short = short_summary(&long);
        assert_eq!(short.split_whitespace().count(), 20);
        assert!(short.ends_with("w20…"), "{short}");
        assert_eq!(short_summary(" a\n b "), "a b");
        assert_eq!(relative_id("r/a.md#b", "r/a.md"), "#b");
        assert_eq!(relative_id("r/ab.md", "r/a"), "r/ab.md");
        assert_eq!(full_id("#b", "r/a.md"), "r/a.md#b");
    }
}
