//! What a search returns: [`Hit`]s (a node, its score, which signal and scorer found it),
//! the [`SearchResult`] of one query and its [`SearchOptions`].

use crate::model::NodeId;

/// Where a hit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HitSource {
    /// Content match, ranked by BM25.
    Bm25,
    /// Title/path match (`title | path`, see [`super::fuzzy`]), ranked by nucleo-matcher.
    Fuzzy,
    /// Content match of a fused query found by BM25 and scored by BM25 and the semantic
    /// signal ([`super::semantic`]).
    Hybrid,
    /// Content match of a fused query found by the semantic signal alone (among the top
    /// cosine documents, not among the BM25 candidates).
    Semantic,
}

impl HitSource {
    /// The signals that scored a hit from this source, as the CLI and MCP JSON name them.
    pub fn signals(self) -> &'static [&'static str] {
        match self {
            Self::Bm25 => &["bm25"],
            Self::Fuzzy => &["fuzzy"],
            Self::Hybrid => &["bm25", "semantic"],
            Self::Semantic => &["semantic"],
        }
    }

    /// Whether this is a content hit (BM25, hybrid or semantic), not a title hit.
    pub fn is_content(self) -> bool {
        self != Self::Fuzzy
    }
}

/// Which BM25 implementation scored a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scorer {
    /// Ours (docs/DESIGN.md §3).
    Skillnav,
    /// lazytools' (docs/FORMATS.md §2.7), on bundles.
    Lazytools,
}

/// One search hit.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// The matched node.
    pub node: NodeId,
    /// Score (BM25 sum, or the fuzzy matcher's score as f64).
    pub score: f64,
    /// BM25 or fuzzy.
    pub source: HitSource,
    /// Which scorer.
    pub scorer: Scorer,
    /// Other nodes of the same root whose own text is byte-identical after trimming, folded
    /// into this hit ("+N copies"), in document order. Always empty for fuzzy and lazytools
    /// hits.
    pub copies: Vec<NodeId>,
}

/// Options of one query.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Maximum hits per group.
    pub top_k: usize,
    /// Expand the last query word as a prefix while it is still being typed (the TUI; CLI
    /// `--prefix`): a complete last word is ranked as typed (docs/DESIGN.md §3).
    pub prefix: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            top_k: 10,
            prefix: false,
        }
    }
}

/// Result of a BM25 query.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Hits, best first (ties by document order).
    pub hits: Vec<Hit>,
    /// Index terms the query resolved to (lower-case; exact words found in some root, prefix
    /// expansions, did-you-mean replacements), in query order, without duplicates: pass them
    /// to [`super::match_ranges`] to highlight a hit's text.
    pub terms: Vec<String>,
    /// `(typed, used)` pairs, lower-case, for query words found in no root's vocabulary that
    /// were replaced by the closest term (see [`super::distance`]); in query order. Only a
    /// query of one word is corrected this way.
    pub did_you_mean: Vec<(String, String)>,
    /// `(typed, suggested)` pairs, lower-case, for words found in no root's vocabulary in a
    /// query of several words: the closest term, suggested but not searched; in query order.
    pub suggestions: Vec<(String, String)>,
    /// Keys of `key:value` words that looked like filters but whose key is neither `kind`
    /// nor a `meta` key of any opened node, lower-case, in query order: such words were
    /// searched as text ([`super::filter::search_all`] fills this; `std::io`-style words
    /// with `::` are never listed).
    pub unknown_filter_keys: Vec<String>,
    /// The `key:value` filters that no opened node passes on its own, with the values their
    /// keys do have ([`super::filter::filter_misses`]); filled by [`super::filter::search_all`] only
    /// when a filtered query found nothing at all.
    pub filter_misses: Vec<FilterMiss>,
    /// Set when a re-ranker re-ordered the first hits of this finished query
    /// ([`super::hook::Rerank`]): how many, and how long it took.
    pub rerank: Option<RerankRun>,
}

impl SearchResult {
    /// Why this result may not answer what was typed, one short line each, in this order:
    /// the unknown words of a longer query with their suggestion (`not found: kubelte →
    /// kubelet?`); then, only when there are no hits, the filter keys no opened node has
    /// (`unknown filter key: priority`) and the filters no node passes
    /// ([`FilterMiss::describe`]). Empty when there is nothing to say.
    /// `hits_shown` is whether the caller shows any hit (content or title).
    pub fn notes(&self, hits_shown: bool) -> Vec<String> {
        let mut notes: Vec<String> = self
            .suggestions
            .iter()
            .map(|(typed, suggested)| format!("not found: {typed} → {suggested}?"))
            .collect();
        if !hits_shown {
            notes.extend(
                self.unknown_filter_keys
                    .iter()
                    .map(|k| format!("unknown filter key: {k}")),
            );
            notes.extend(self.filter_misses.iter().map(|m| m.describe()));
        }
        notes
    }
}

/// What one re-rank did (the TUI's status and the CLI's label show it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RerankRun {
    /// Hits the re-ranker scored and re-ordered (the first `depth` of the first stage); the
    /// result then keeps the first `top_k` of them.
    pub candidates: usize,
    /// Texts that went through the model: the query and section passages not in its cache.
    pub embedded: usize,
    /// Wall time of the re-rank (query and candidate texts embedded, hits re-ordered), in
    /// microseconds.
    pub micros: u64,
}

/// Most known values named per missed filter.
pub const MISS_VALUES: usize = 8;

/// A filter no opened node passes, with the values its key has in the corpus.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FilterMiss {
    /// The filter's key, lower-case (`kind`, `status`, `tag`, …).
    pub key: String,
    /// The value asked for, lower-case.
    pub value: String,
    /// Values of `key` among the opened nodes (copies left out) with how many nodes have
    /// each: first those within "did you mean" distance of `value` (closest first,
    /// [`super::distance::max_distance`]), then the others; most nodes first, then by value;
    /// at most [`MISS_VALUES`]. A list field counts each of its items; values are
    /// lower-case, as filters compare them.
    pub known: Vec<(String, usize)>,
}

impl FilterMiss {
    /// One line for people: `no node has kind = sectoin (kind here: section 22156, file
    /// 1663, …)`, or `(no node has a kind value)` when the key has none.
    pub fn describe(&self) -> String {
        let mut s = format!("no node has {} = {}", self.key, self.value);
        if self.known.is_empty() {
            return s;
        }
        let known: Vec<String> = self.known.iter().map(|(v, n)| format!("{v} {n}")).collect();
        s.push_str(&format!(" ({} here: {})", self.key, known.join(", ")));
        s
    }
}
