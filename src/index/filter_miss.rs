//! Why a filtered search is empty: the `key:value` filters of a query that no opened node
//! passes on its own (`kind:sectoin`, `status:implmented`), each with the values its key
//! does have, the nearest to the typo and then the most common first. Computed only when
//! a filtered search found nothing, so the keystroke path pays nothing for it; the CLI,
//! the MCP server and the TUI all say it the same way ([`FilterMiss::describe`]).

use std::collections::HashMap;

use serde_json::Value;

use super::filter::{MetaFilter, matches};
use crate::model::Corpus;

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

/// The filters among `filters` that no node of `corpus` passes alone (copies left out), in
/// query order. A key that is neither `kind` nor a `meta` key never reaches here
/// ([`super::filter::split_filters_in`] keeps such words as text). One pass over the nodes
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
    use crate::index::filter::split_filters;
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
