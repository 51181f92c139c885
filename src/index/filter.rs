//! `key:value` filters inside a query (`status:proposed`, `tag:process`, `kind:adr`): they
//! restrict hits to nodes whose kind or `meta` field matches, so ADRs are filterable by
//! status (docs/FORMATS.md §4) and any format field is searchable the same way. A query made only
//! of filters lists every matching node.
//!
//! A word is a filter only when its key is `kind` or a `meta` key some node of the corpus
//! has (`tag` when some node has `tags`), and it holds no `::`: `std::io`,
//! `update:modelValue` and `v-on:click` stay text and are searched as words.
//!
//! When filters leave a search empty, [`filter_misses`] says why: each filter no opened node
//! passes on its own, with the values its key does have (the nearest to the typo, then the
//! most common). It runs only for an empty filtered result, so a keystroke pays nothing.

use std::collections::HashMap;

use serde_json::Value;

use super::engine::Index;
use super::fuzzy::FuzzyIndex;
use super::hit::{FilterMiss, Hit, HitSource, MISS_VALUES, Scorer, SearchOptions, SearchResult};
use crate::model::{Corpus, NodeId};

/// One `key:value` filter (both lower-cased for matching).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetaFilter {
    /// `kind`, or a `meta` key (`status`, `tags`/`tag`, `format`, `variant`, …).
    pub key: String,
    /// Value to match: equal to the field (ASCII case-insensitive), or to one item of a list.
    pub value: String,
}

/// Split `query` into its free text and its filters, by syntax alone. A filter is a
/// whitespace-separated word `key:value` without `::` whose key is ASCII letters, `_` or
/// `-` and whose value is non-empty and does not start with `/` (so `https://…` stays
/// text). [`split_filters_in`] also asks the corpus whether the key exists.
pub fn split_filters(query: &str) -> (String, Vec<MetaFilter>) {
    split_with(query, &|_| true)
}

/// Every key a filter can use on `corpus`, lower-case and sorted: `kind`, every `meta` key
/// some node has, and `tag` when some node has `tags`. One pass over the nodes.
pub fn filter_keys(corpus: &Corpus) -> std::collections::BTreeSet<String> {
    collect_keys(corpus, &|_| false)
}

/// The keys of [`filter_keys`], collected node by node until `enough` says the keys so far
/// suffice.
fn collect_keys(
    corpus: &Corpus,
    enough: &dyn Fn(&std::collections::BTreeSet<String>) -> bool,
) -> std::collections::BTreeSet<String> {
    let mut keys = std::collections::BTreeSet::from(["kind".to_string()]);
    for n in &corpus.nodes {
        for k in n.meta.keys() {
            let k = k.to_ascii_lowercase();
            if k == "tags" {
                keys.insert("tag".into());
            }
            keys.insert(k);
        }
        if enough(&keys) {
            break;
        }
    }
    keys
}

/// [`split_filters`], keeping as text every word whose key is neither `kind` nor a `meta` key
/// of some node of `corpus` (`tag` counts when some node has `tags`).
pub fn split_filters_in(corpus: &Corpus, query: &str) -> (String, Vec<MetaFilter>) {
    let (_, candidates) = split_filters(query);
    if candidates.is_empty() {
        return (
            query.split_whitespace().collect::<Vec<_>>().join(" "),
            candidates,
        );
    }
    let wanted: Vec<&str> = candidates.iter().map(|f| f.key.as_str()).collect();
    let known = collect_keys(corpus, &|keys| wanted.iter().all(|w| keys.contains(*w)));
    split_with(query, &|key| known.contains(key))
}

fn split_with(query: &str, known: &dyn Fn(&str) -> bool) -> (String, Vec<MetaFilter>) {
    let mut text = Vec::new();
    let mut filters = Vec::new();
    for word in query.split_whitespace() {
        match word.split_once(':') {
            Some((k, v))
                if !k.is_empty()
                    && !v.is_empty()
                    && !v.starts_with('/')
                    && !word.contains("::")
                    && k.chars()
                        .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
                    && known(&k.to_ascii_lowercase()) =>
            {
                filters.push(MetaFilter {
                    key: k.to_ascii_lowercase(),
                    value: v.to_lowercase(),
                });
            }
            _ => text.push(word),
        }
    }
    (text.join(" "), filters)
}

/// Whether node `id` passes every filter. `kind` matches the node kind; `tag` also looks in
/// `tags`; other keys look in `meta`.
pub fn matches(corpus: &Corpus, id: NodeId, filters: &[MetaFilter]) -> bool {
    let node = corpus.node(id);
    filters.iter().all(|f| {
        if f.key == "kind" {
            return node.kind.as_str() == f.value;
        }
        let field = node
            .meta
            .get(&f.key)
            .or_else(|| (f.key == "tag").then(|| node.meta.get("tags")).flatten());
        field.is_some_and(|v| value_matches(v, &f.value))
    })
}

fn value_matches(v: &Value, want: &str) -> bool {
    match v {
        Value::String(s) => s.to_lowercase() == want,
        Value::Array(items) => items.iter().any(|i| value_matches(i, want)),
        Value::Number(n) => n.to_string() == want,
        Value::Bool(b) => b.to_string() == want,
        _ => false,
    }
}

/// Every node passing `filters`, in document order, as title hits (score 0), at most
/// `limit`; copies (duplicates, aliases, variants) are left out.
pub fn list_matching(corpus: &Corpus, filters: &[MetaFilter], limit: usize) -> Vec<Hit> {
    corpus
        .all_preorder()
        .into_iter()
        .filter(|n| !corpus.is_copy(*n) && matches(corpus, *n, filters))
        .take(limit)
        .map(|node| Hit {
            node,
            score: 0.0,
            source: HitSource::Fuzzy,
            scorer: Scorer::Skillnav,
            copies: Vec::new(),
        })
        .collect()
}

/// Run `query` (free text plus `key:value` filters) on the BM25 index and the fuzzy titles,
/// either of which may still be missing (the TUI searches while indexing). Returns content
/// hits and title hits, each at most `opts.top_k`. With filters, hits are restricted to
/// matching nodes; filters alone list the matching nodes as title hits. Words that look
/// like filters but whose key no node has are searched as text and named in
/// [`SearchResult::unknown_filter_keys`]; when filters leave nothing, those no node passes
/// alone are named in [`SearchResult::filter_misses`] with the values their keys have.
pub fn search_all(
    corpus: &Corpus,
    index: Option<&Index>,
    fuzzy: Option<&FuzzyIndex>,
    query: &str,
    opts: &SearchOptions,
) -> (SearchResult, Vec<Hit>) {
    let (text, filters) = split_filters_in(corpus, query);
    let (_, candidates) = split_filters(query);
    let unknown: Vec<String> = candidates
        .into_iter()
        .filter(|c| !filters.iter().any(|f| f.key == c.key))
        .map(|c| c.key)
        .fold(Vec::new(), |mut v, k| {
            if !v.contains(&k) {
                v.push(k);
            }
            v
        });
    let (mut content, titles) = search_split(corpus, index, fuzzy, query, &text, &filters, opts);
    content.unknown_filter_keys = unknown;
    if !filters.is_empty() && content.hits.is_empty() && titles.is_empty() {
        content.filter_misses = filter_misses(corpus, &filters);
    }
    (content, titles)
}

fn search_split(
    corpus: &Corpus,
    index: Option<&Index>,
    fuzzy: Option<&FuzzyIndex>,
    query: &str,
    text: &str,
    filters: &[MetaFilter],
    opts: &SearchOptions,
) -> (SearchResult, Vec<Hit>) {
    if filters.is_empty() {
        let content = index
            .map(|i| i.search(corpus, query, opts))
            .unwrap_or_default();
        // Title hits fill in where the content hits leave room (typed titles always).
        let titles = fuzzy
            .map(|f| f.search_beside(query, opts.top_k, content.hits.len()))
            .unwrap_or_default();
        return (content, titles);
    }
    if text.is_empty() {
        return (
            SearchResult::default(),
            list_matching(corpus, filters, opts.top_k),
        );
    }
    // Filter before the top-k cut: rank every content hit, keep the matching ones, then cut
    // (a cut first lost most matches of a common word, `status:implementable pod`).
    let all = SearchOptions {
        top_k: corpus.nodes.len().max(opts.top_k),
        ..opts.clone()
    };
    let mut content = index
        .map(|i| i.search(corpus, text, &all))
        .unwrap_or_default();
    content.hits.retain(|h| matches(corpus, h.node, filters));
    content.hits.truncate(opts.top_k);
    let titles = fuzzy
        .map(|f| f.search_where(text, opts.top_k, &|n| matches(corpus, n, filters)))
        .unwrap_or_default();
    (content, titles)
}

/// The filters among `filters` that no node of `corpus` passes alone (copies left out), in
/// query order. A key that is neither `kind` nor a `meta` key never reaches here
/// ([`split_filters_in`] keeps such words as text). One pass over the nodes
/// per filter.
pub fn filter_misses(corpus: &Corpus, filters: &[MetaFilter]) -> Vec<FilterMiss> {
    let mut out: Vec<FilterMiss> = Vec::new();
    for f in filters {
        if out.iter().any(|m| m.key == f.key && m.value == f.value) {
            continue;
        }
        let ids = corpus.all_preorder();
        let live = ids.iter().copied().filter(|n| !corpus.is_copy(*n));
        if live
            .clone()
            .any(|n| matches(corpus, n, std::slice::from_ref(f)))
        {
            continue;
        }
        let mut counts: HashMap<String, usize> = HashMap::new();
        for n in live {
            let node = corpus.node(n);
            if f.key == "kind" {
                *counts.entry(node.kind.as_str().to_string()).or_default() += 1;
                continue;
            }
            let field = node
                .meta
                .get(&f.key)
                .or_else(|| (f.key == "tag").then(|| node.meta.get("tags")).flatten());
            if let Some(v) = field {
                count_values(v, &mut counts);
            }
        }
        let near = |v: &str| {
            let k = super::distance::max_distance(f.value.chars().count());
            super::distance::within(&f.value, v, k).unwrap_or(usize::MAX)
        };
        let mut known: Vec<(usize, String, usize)> =
            counts.into_iter().map(|(v, n)| (near(&v), v, n)).collect();
        known.sort_by(|a, b| {
            a.0.cmp(&b.0)
                .then(b.2.cmp(&a.2))
                .then_with(|| a.1.cmp(&b.1))
        });
        let mut known: Vec<(String, usize)> = known.into_iter().map(|(_, v, n)| (v, n)).collect();
        known.truncate(MISS_VALUES);
        out.push(FilterMiss {
            key: f.key.clone(),
            value: f.value.clone(),
            known,
        });
    }
    out
}

/// Count the values a filter can match in `v`, lower-cased as [`matches`] compares them: a
/// string, a number or a boolean, or each such item of a list.
fn count_values(v: &Value, counts: &mut HashMap<String, usize>) {
    match v {
        Value::String(s) => *counts.entry(s.to_lowercase()).or_default() += 1,
        Value::Number(n) => *counts.entry(n.to_string()).or_default() += 1,
        Value::Bool(b) => *counts.entry(b.to_string()).or_default() += 1,
        Value::Array(items) => items.iter().for_each(|i| count_values(i, counts)),
        Value::Null | Value::Object(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node, NodeKind};

    fn adrs() -> (Corpus, NodeId, NodeId) {
        let mut c = Corpus::new();
        let r = c.add_root(Node::new(NodeKind::Root, Format::GitAdr, "adr", ""));
        let mut a = Node::new(NodeKind::Adr, Format::GitAdr, "Use ADRs", "a.md");
        a.meta.insert("status".into(), "accepted".into());
        a.meta
            .insert("tags".into(), serde_json::json!(["process", "docs"]));
        let a = c.add_child(r, a);
        let mut b = Node::new(NodeKind::Adr, Format::GitAdr, "Drop Intel builds", "b.md");
        b.meta.insert("status".into(), "Proposed".into());
        let b = c.add_child(r, b);
        c.finalize();
        (c, a, b)
    }

    #[test]
    fn status_filter_splits_from_text_and_urls_stay_text() {
        let (text, f) = split_filters("binary status:Proposed https://x.y/z");
        assert_eq!(text, "binary https://x.y/z");
        assert_eq!(
            f,
            vec![MetaFilter {
                key: "status".into(),
                value: "proposed".into()
            }]
        );
    }

    #[test]
    fn colon_words_are_filters_only_for_known_keys() {
        let (c, _, _) = adrs();
        let (text, f) = split_filters_in(
            &c,
            "std::io update:modelValue v-on:click status:proposed kind:adr",
        );
        assert_eq!(text, "std::io update:modelValue v-on:click");
        assert_eq!(
            f.iter().map(|f| f.key.as_str()).collect::<Vec<_>>(),
            ["status", "kind"]
        );
        // `tag` is known because some node has `tags`; `kind::adr` is never a filter.
        let (text, f) = split_filters_in(&c, "tag:process kind::adr");
        assert_eq!((text.as_str(), f.len()), ("kind::adr", 1));
    }

    #[test]
    fn adrs_filter_by_status_tag_and_kind() {
        let (c, a, b) = adrs();
        let (_, f) = split_filters("status:proposed");
        assert_eq!(
            list_matching(&c, &f, 10)
                .iter()
                .map(|h| h.node)
                .collect::<Vec<_>>(),
            vec![b]
        );
        let (_, f) = split_filters("tag:process kind:adr");
        assert_eq!(
            list_matching(&c, &f, 10)
                .iter()
                .map(|h| h.node)
                .collect::<Vec<_>>(),
            vec![a]
        );
        let (_, f) = split_filters("status:rejected");
        assert!(list_matching(&c, &f, 10).is_empty());
    }

    #[test]
    fn unknown_filter_key_is_reported_not_silently_empty() {
        let (c, _, b) = adrs();
        let opts = SearchOptions::default();
        let (res, titles) = search_all(&c, None, None, "priority:high status:proposed", &opts);
        // `priority:high` is text (no node has `priority`): nothing matches, and the key is
        // named instead of the result being silently empty.
        assert_eq!(res.unknown_filter_keys, ["priority"]);
        assert!(res.hits.is_empty() && titles.is_empty());
        let (_, titles) = search_all(&c, None, None, "status:proposed", &opts);
        assert_eq!(titles.iter().map(|h| h.node).collect::<Vec<_>>(), vec![b]);
        let (res, _) = search_all(&c, None, None, "std::io v-on:click kind:adr", &opts);
        assert_eq!(res.unknown_filter_keys, ["v-on"]);
        let (res, _) = search_all(&c, None, None, "status:proposed", &opts);
        assert!(res.unknown_filter_keys.is_empty());
    }
}

#[cfg(test)]
mod miss_tests {
    use super::*;
    use crate::index::FilterMiss;
    use crate::model::{Format, Node, NodeKind};

    fn adrs() -> Corpus {
        let mut c = Corpus::new();
        let r = c.add_root(Node::new(NodeKind::Root, Format::GitAdr, "adr", ""));
        for (title, status, tags) in [
            ("Use ADRs", "accepted", vec!["process", "docs"]),
            ("Drop Intel builds", "Proposed", vec!["build"]),
            ("Keep CI", "accepted", vec!["process"]),
        ] {
            let mut a = Node::new(NodeKind::Adr, Format::GitAdr, title, "a.md");
            a.meta.insert("status".into(), status.into());
            a.meta.insert("tags".into(), serde_json::json!(tags));
            c.add_child(r, a);
        }
        c.finalize();
        c
    }

    #[test]
    fn misspelt_kind_is_named_with_the_kinds_that_exist() {
        let c = adrs();
        let (_, f) = split_filters("kind:adrs status:accepted");
        let misses = filter_misses(&c, &f);
        assert_eq!(
            misses,
            vec![FilterMiss {
                key: "kind".into(),
                value: "adrs".into(),
                known: vec![("adr".into(), 3), ("root".into(), 1)],
            }]
        );
        assert_eq!(
            misses[0].describe(),
            "no node has kind = adrs (kind here: adr 3, root 1)"
        );
    }

    #[test]
    fn a_kind_near_the_typo_is_named_before_more_common_ones() {
        let c = adrs();
        let (_, f) = split_filters("kind:rot");
        assert_eq!(
            filter_misses(&c, &f)[0].describe(),
            "no node has kind = rot (kind here: root 1, adr 3)"
        );
    }

    #[test]
    fn missed_status_and_tag_list_their_values_most_common_first() {
        let c = adrs();
        let (_, f) = split_filters("status:rejected tag:proces tag:process");
        let misses = filter_misses(&c, &f);
        let described: Vec<String> = misses.iter().map(FilterMiss::describe).collect();
        assert_eq!(
            described,
            [
                "no node has status = rejected (status here: accepted 2, proposed 1)",
                "no node has tag = proces (tag here: process 2, build 1, docs 1)",
            ]
        );
    }

    #[test]
    fn filters_that_match_alone_are_no_miss_even_when_their_combination_is_empty() {
        let c = adrs();
        let (_, f) = split_filters("status:proposed tag:process");
        assert!(filter_misses(&c, &f).is_empty());
    }
}
