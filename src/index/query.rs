//! Running a query (docs/DESIGN.md §3): tokenize it with our tokenizer, resolve each query word to
//! index terms (exact, prefix expansion of the last word, or a "did you mean" fallback),
//! score every root's BM25 index and every lazytools bundle, and merge the hits.
//!
//! Choices, documented here because they shape the scores:
//! - A query word is a token of [`crate::index::tokenize`](mod@crate::index::tokenize): `getUserById` yields five words
//!   (the whole identifier and its parts), each scored.
//! - Duplicated query words count **once** (`cache cache` = `cache`): BM25's query-term
//!   frequency is taken as 1.
//! - With [`SearchOptions::prefix`], the **last** token of the query (even a stopword, which
//!   is never in the vocabulary itself), while it is still being typed ([`last_word_complete`]
//!   is false), also matches up to [`MAX_EXPANSIONS`] vocabulary terms
//!   starting with it, highest document frequency first (ties alphabetical); its score in a
//!   document is the **max** over those terms, each term other than the word as typed
//!   weighted by [`EXPANSION_WEIGHT`], so an exact match outranks an expansion.
//! - "Did you mean" applies to a word found in **no** root's vocabulary (and, for the prefix
//!   word, with no expansion in any root): the best suggestion over all roots (see
//!   [`crate::index::distance`]). In a query of one word it is scored in every root and
//!   reported in [`SearchResult::did_you_mean`]; in a query of several words it is only
//!   suggested ([`SearchResult::suggestions`]): the other words carry the query, and a
//!   substituted word (`stash` → `slash`) would lift unrelated sections.
//! - A query word that is a whole English word (not part of an identifier, not the prefix
//!   word) also matches its singular/plural forms and, unless it is a whole identifier
//!   (`getUserById`), the terms sharing its English stem ([`crate::index::inflect`]); its
//!   score in a document is the **max** over the forms, the other forms weighted by
//!   [`EXPANSION_WEIGHT`], so exact matches keep their score and rank first.
//! - At most [`MAX_SUGGESTED`] words of one query are looked up for "did you mean" (each
//!   lookup scans the vocabulary), so a pasted page of typos costs what a few words do.
//! - A question-shaped query (at least 8 words) drops the words of the asking
//!   ([`super::question`]) before scoring.
//! - Hits of all roots and bundles are merged by score, ties by document order.
//! - A finished query (not `prefix`) of an index with semantic vectors attached
//!   ([`Index::attach_semantic`]) fuses BM25 with cosine similarity by the rule of
//!   [`super::semantic`]; its content hits are then [`HitSource::Hybrid`] or
//!   [`HitSource::Semantic`] and their scores lie in -0.5..=1.

use std::collections::HashSet;

use super::bm25::RootIndex;
use super::distance::{Suggestion, suggest};
use super::engine::Index;
use super::hit::{Hit, HitSource, Scorer, SearchOptions, SearchResult};
use super::semantic::{
    BM25_CANDIDATES, COSINE_CANDIDATES, FUSION_WEIGHT, QueryVector, SemanticIndex,
};
use super::tokenize::{is_cjk_char, scan};
use crate::model::Corpus;

/// Most vocabulary terms one prefix word expands to (docs/DESIGN.md §3).
pub const MAX_EXPANSIONS: usize = 64;

/// Weight of a term a query word only expands or folds to (a longer word it is a prefix
/// of, or its other number): below 1, so that a document holding the word as typed
/// outranks one holding only the other form, other things equal.
pub const EXPANSION_WEIGHT: f64 = 0.7;

/// Most words of one query looked up for a "did you mean" suggestion; later unknown words
/// get none.
pub const MAX_SUGGESTED: usize = 16;

/// One query word after tokenization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct QueryWord {
    /// Lower-case term.
    pub term: String,
    /// Expand as a prefix.
    pub prefix: bool,
}

impl QueryWord {
    /// Whether singular/plural forms and same-stem terms join this word ([`super::inflect`]).
    fn folds(&self) -> bool {
        !self.prefix
    }
}

/// Number of whole (not identifier-part) words of `query` that are not stopwords.
pub(crate) fn whole_words(query: &str) -> usize {
    let mut n = 0;
    scan(query, &mut |t| n += usize::from(!t.part && !t.stop));
    n
}

/// The terms of `query` that are parts of a split identifier (not folded), and the whole
/// identifiers they were split from (not stemmed).
fn identifier_terms(query: &str) -> (HashSet<String>, HashSet<String>) {
    let (mut parts, mut wholes) = (HashSet::new(), HashSet::new());
    let mut whole: Option<String> = None;
    scan(query, &mut |t| {
        if t.part && is_cjk_char(t.term) {
            return;
        }
        if t.part {
            parts.insert(t.term.to_owned());
            if let Some(w) = whole.take() {
                wholes.insert(w);
            }
        } else {
            whole = Some(t.term.to_owned());
        }
    });
    (parts, wholes)
}

/// Tokenize `query` into distinct words; with `prefix`, the last token becomes a prefix word.
pub(crate) fn parse(query: &str, prefix: bool) -> Vec<QueryWord> {
    let mut words: Vec<QueryWord> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut last: Option<String> = None;
    scan(query, &mut |t| {
        // A character of a CJK run of several: the run's bigrams carry it.
        if t.part && is_cjk_char(t.term) {
            return;
        }
        last = Some(t.term.to_owned());
        if !t.stop && seen.insert(t.term.to_owned()) {
            words.push(QueryWord {
                term: t.term.to_owned(),
                prefix: false,
            });
        }
    });
    if prefix && let Some(last) = last {
        words.retain(|w| w.term != last);
        words.push(QueryWord {
            term: last,
            prefix: true,
        });
    }
    words
}

/// `words` of a question-shaped `query` without its frame words (a prefix word is always
/// kept), unless fewer than [`super::question::MIN_KEPT`] would be left; any other query's words unchanged.
pub(crate) fn drop_frame_words(query: &str, words: Vec<QueryWord>) -> Vec<QueryWord> {
    if !super::question::is_question(query) {
        return words;
    }
    let kept: Vec<QueryWord> = words
        .iter()
        .filter(|w| w.prefix || !super::question::is_frame_word(&w.term))
        .cloned()
        .collect();
    if kept.len() < super::question::MIN_KEPT {
        words
    } else {
        kept
    }
}

/// Whether the last word of `query` is complete, so a prefix search ranks it as typed
/// (docs/DESIGN.md §3): a character that is not part of a word follows it (a space, `?`),
/// it is a stopword (`use` in `streaming tool use`: a whole English word, dropped as
/// typed), or it is itself a term of some root's vocabulary (`readiness`, `helper`). A
/// word no root holds (`midd`) is still being typed; so is an empty query.
pub fn last_word_complete(index: &Index, query: &str) -> bool {
    let mut last: Option<(String, usize, bool)> = None;
    scan(query, &mut |t| {
        if !(t.part && is_cjk_char(t.term)) {
            last = Some((t.term.to_owned(), t.range.end, t.stop));
        }
    });
    let Some((term, end, stop)) = last else {
        return false;
    };
    end < query.len() || stop || index.roots.iter().any(|r| r.vocab.find(&term).is_some())
}

/// Up to [`MAX_EXPANSIONS`] terms of `root` starting with `prefix`, highest df first.
fn expansions(root: &RootIndex, prefix: &str) -> Vec<u32> {
    let mut ids: Vec<u32> = root.vocab.prefix_range(prefix).collect();
    if ids.len() > MAX_EXPANSIONS {
        let cmp = |a: &u32, b: &u32| root.df(*b).cmp(&root.df(*a)).then(a.cmp(b));
        ids.select_nth_unstable_by(MAX_EXPANSIONS - 1, cmp);
        ids.truncate(MAX_EXPANSIONS);
        ids.sort_unstable_by(cmp);
    }
    ids
}

/// Append `t` to `terms` unless `seen` (the same terms as a set) already holds it.
fn push_unique(terms: &mut Vec<String>, seen: &mut HashSet<String>, t: &str) {
    if !seen.contains(t) {
        seen.insert(t.to_owned());
        terms.push(t.to_owned());
    }
}

/// Term ids with their weights (1 for the word itself, [`EXPANSION_WEIGHT`] for a prefix
/// expansion, inflection or same-stem term): one word's group in one root.
type TermGroup = Vec<(u32, f64)>;

/// Search candidates: (corpus order of the node, hit).
type Candidates = Vec<(u32, Hit)>;

/// Run `query` over every root and bundle of `index` (see the module doc).
pub(crate) fn search(index: &Index, query: &str, opts: &SearchOptions) -> SearchResult {
    let mut result = SearchResult::default();
    if opts.top_k == 0 || query.trim().is_empty() {
        return result;
    }
    let words = drop_frame_words(query, parse(query, opts.prefix));
    let groups = look_up_words(index, query, &words, &mut result);
    let semantic = semantic_query(index, query, opts, words.is_empty());
    let depth = if semantic.is_some() {
        opts.top_k.max(BM25_CANDIDATES)
    } else {
        opts.top_k
    };
    let (mut cands, keys) = root_candidates(index, &groups, depth);
    bundle_candidates(index, query, opts.top_k, &mut cands);
    if let Some((sem, qv)) = semantic {
        fuse(index, sem, &qv, &keys, &mut cands);
    }
    cands.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    cands.truncate(opts.top_k);
    result.hits = cands.into_iter().map(|(_, h)| h).collect();
    result
}

/// The term groups of `words` in each root (`groups[root][word]`, words found nowhere left
/// out); the terms looked up go to `result.terms`, and a word found nowhere gets a
/// suggestion or, in a one-word query, is replaced by it ([`suggest_instead`]).
fn look_up_words(
    index: &Index,
    query: &str,
    words: &[QueryWord],
    result: &mut SearchResult,
) -> Vec<Vec<TermGroup>> {
    let substitute = whole_words(query) <= 1;
    let (parts, identifiers) = identifier_terms(query);
    let mut seen_terms: HashSet<String> = HashSet::new();
    let mut looked_up = 0usize;
    let mut groups: Vec<Vec<TermGroup>> = vec![Vec::with_capacity(words.len()); index.roots.len()];
    for w in words {
        let forms = if w.folds() && !parts.contains(&w.term) {
            super::inflect::variants(&w.term)
        } else {
            Vec::new()
        };
        let stems = !parts.contains(&w.term) && !identifiers.contains(&w.term);
        let mut per_root: Vec<TermGroup> = Vec::with_capacity(index.roots.len());
        for r in &index.roots {
            let ids = word_terms(r, w, &forms, stems);
            for &(t, _) in &ids {
                push_unique(&mut result.terms, &mut seen_terms, r.vocab.term(t));
            }
            per_root.push(ids);
        }
        let found = per_root.iter().any(|ids| !ids.is_empty());
        if !found && looked_up < MAX_SUGGESTED {
            looked_up += 1;
            suggest_instead(index, w, substitute, &mut per_root, result, &mut seen_terms);
        }
        for (g, ids) in groups.iter_mut().zip(per_root) {
            if !ids.is_empty() {
                g.push(ids);
            }
        }
    }
    groups
}

/// The term ids of word `w` in root `r`: the word itself (or its prefix expansions), then,
/// for a word that folds, its `forms` and (with `stems`) the root's same-stem terms.
fn word_terms(r: &RootIndex, w: &QueryWord, forms: &[String], stems: bool) -> TermGroup {
    let exact = r.vocab.find(&w.term);
    let weigh = |t: u32| {
        (
            t,
            if Some(t) == exact {
                1.0
            } else {
                EXPANSION_WEIGHT
            },
        )
    };
    let mut ids: TermGroup = if w.prefix {
        expansions(r, &w.term).into_iter().map(weigh).collect()
    } else {
        exact.into_iter().map(weigh).collect()
    };
    if w.folds() {
        ids.extend(forms.iter().filter_map(|f| r.vocab.find(f)).map(weigh));
        if stems {
            let stemmed = super::inflect::same_stem(&r.vocab, &w.term);
            for t in stemmed {
                if !ids.iter().any(|&(id, _)| id == t) {
                    ids.push(weigh(t));
                }
            }
        }
    }
    ids
}

/// For word `w`, found in no root: the best suggestion of any root is offered in the
/// result, or (when `substitute`) searched instead, its term ids replacing the empty groups
/// `per_root` and its term joining `result`'s terms (`seen_terms`: the same as a set).
fn suggest_instead(
    index: &Index,
    w: &QueryWord,
    substitute: bool,
    per_root: &mut [TermGroup],
    result: &mut SearchResult,
    seen_terms: &mut HashSet<String>,
) {
    let mut best: Option<Suggestion> = None;
    for r in &index.roots {
        if let Some(s) = suggest(r, &w.term)
            && best.as_ref().is_none_or(|b| s.better_than(b))
        {
            best = Some(s);
        }
    }
    let Some(best) = best else { return };
    if !substitute {
        result.suggestions.push((w.term.clone(), best.term));
        return;
    }
    for (r, ids) in index.roots.iter().zip(per_root.iter_mut()) {
        *ids = r
            .vocab
            .find(&best.term)
            .into_iter()
            .map(|t| (t, 1.0))
            .collect();
    }
    push_unique(&mut result.terms, seen_terms, &best.term);
    result.did_you_mean.push((w.term.clone(), best.term));
}

/// The semantic signal joins finished queries of an index with vectors attached and some
/// root document (a corpus of lazytools bundles alone keeps lazytools' scores): the vectors
/// and the query's vector, when it does (`no_words`: the query kept no word).
fn semantic_query<'i>(
    index: &'i Index,
    query: &str,
    opts: &SearchOptions,
    no_words: bool,
) -> Option<(&'i std::sync::Arc<SemanticIndex>, QueryVector)> {
    (!opts.prefix && !no_words)
        .then(|| index.semantic())
        .flatten()
        .filter(|sem| !sem.is_empty())
        .and_then(|sem| {
            let model = crate::embed::model()?;
            Some((sem, SemanticIndex::query(model, query)?))
        })
}

/// The BM25 candidates of every root (`depth` per root) scored on `groups`, and the (root,
/// document) of each, parallel to them.
fn root_candidates(
    index: &Index,
    groups: &[Vec<TermGroup>],
    depth: usize,
) -> (Candidates, Vec<(usize, u32)>) {
    let mut cands: Candidates = Vec::new();
    let mut keys: Vec<(usize, u32)> = Vec::new();
    for (ri, (r, g)) in index.roots.iter().zip(groups).enumerate() {
        if g.is_empty() {
            continue;
        }
        let mut scratch = r.take_scratch();
        let scored = r.score(g, depth, &mut scratch);
        r.put_scratch(scratch);
        for (d, score) in scored {
            let node = r.docs[d as usize];
            let hit = Hit {
                node,
                score,
                source: HitSource::Bm25,
                scorer: Scorer::Skillnav,
                copies: r.copies_of(d).to_vec(),
            };
            cands.push((index.order_of(node), hit));
            keys.push((ri, d));
        }
    }
    (cands, keys)
}

/// Add the top `top_k` hits of each lazytools bundle to `cands`, by lazytools' own ranking.
fn bundle_candidates(index: &Index, query: &str, top_k: usize, cands: &mut Candidates) {
    for (_, stats) in &index.bundles {
        // Finite scores only: `lazytools::rank` drops the others, as the brief does.
        for (node, score) in super::lazytools::search(stats, query, top_k) {
            let hit = Hit {
                node,
                score,
                source: HitSource::Bm25,
                scorer: Scorer::Lazytools,
                copies: Vec::new(),
            };
            cands.push((index.order_of(node), hit));
        }
    }
}

/// Replace the scores of `cands` (root candidates first, keyed by `keys`, then bundle hits)
/// by the fused scores of [`super::semantic`]'s rule and add the top cosine documents that
/// are not candidates yet.
fn fuse(
    index: &Index,
    sem: &SemanticIndex,
    qv: &QueryVector,
    keys: &[(usize, u32)],
    cands: &mut Vec<(u32, Hit)>,
) {
    let max = cands.iter().map(|(_, h)| h.score).fold(0.0, f64::max);
    let norm = if max > 0.0 { max } else { 1.0 };
    for (i, (_, h)) in cands.iter_mut().enumerate() {
        let bm25 = FUSION_WEIGHT * h.score / norm;
        h.score = match keys.get(i) {
            Some(&(r, d)) => {
                h.source = HitSource::Hybrid;
                bm25 + FUSION_WEIGHT * sem.cosine(r, d, qv)
            }
            None => bm25,
        };
    }
    for (r, d, cos) in sem.top(qv, COSINE_CANDIDATES) {
        if keys.contains(&(r, d)) {
            continue;
        }
        let Some(root) = index.roots.get(r) else {
            continue;
        };
        let node = root.docs[d as usize];
        let hit = Hit {
            node,
            score: FUSION_WEIGHT * cos,
            source: HitSource::Semantic,
            scorer: Scorer::Skillnav,
            copies: root.copies_of(d).to_vec(),
        };
        cands.push((index.order_of(node), hit));
    }
}

impl Index {
    /// Run a BM25 query over all roots and bundles: the best `opts.top_k` hits, score
    /// descending, ties by document order (see [the module docs](self) for prefix expansion, "did you
    /// mean" and duplicate query words). An empty or stopword-only query, or an empty
    /// corpus, gives no hits. Scores are finite and positive. `corpus` must be the corpus the
    /// index was built from.
    ///
    /// With `opts.prefix`, a last word that is already complete ([`last_word_complete`]) is
    /// not expanded: the query is ranked as finished (`prefix: false`, semantic signal
    /// included), so the list shown while typing is the one `search` prints. A typed query
    /// (`opts.prefix`) is never re-ranked: the re-ranker costs hundreds of milliseconds and
    /// runs only for a query sent finished (docs/DESIGN.md §3 "Re-rank").
    pub fn search(&self, corpus: &Corpus, query: &str, opts: &SearchOptions) -> SearchResult {
        if opts.prefix && last_word_complete(self, query) {
            let finished = SearchOptions {
                prefix: false,
                ..opts.clone()
            };
            return search(self, query, &finished);
        }
        self.search_reranked(corpus, query, opts, search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(term: &str, prefix: bool) -> QueryWord {
        QueryWord {
            term: term.into(),
            prefix,
        }
    }

    #[test]
    fn duplicated_words_count_once() {
        assert_eq!(parse("cache Cache CACHE", false), [w("cache", false)]);
    }

    #[test]
    fn prefix_marks_last_token_even_a_stopword() {
        assert_eq!(
            parse("cors midd", true),
            [w("cors", false), w("midd", true)]
        );
        assert_eq!(parse("cors us", true), [w("cors", false), w("us", true)]);
        assert_eq!(parse("cors use", true), [w("cors", false), w("use", true)]);
        assert_eq!(parse("cors use", false), [w("cors", false)]);
        assert_eq!(
            parse("midd cors midd", true),
            [w("cors", false), w("midd", true)]
        );
    }

    #[test]
    fn whole_words_skip_stopwords_and_parts() {
        assert_eq!(whole_words("how do I stash getUserById"), 2);
        assert_eq!(whole_words("midleware"), 1);
        assert_eq!(whole_words("the"), 0);
    }

    #[test]
    fn identifier_query_yields_parts() {
        assert_eq!(
            parse("app.get", false),
            [w("app.get", false), w("app", false), w("get", false)]
        );
    }
}
