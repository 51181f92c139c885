//! The `search` request: BM25 content hits and fuzzy title hits as pointers (id, title,
//! path, line range, bytes, tokens, score, the signals that scored it, a one-line snippet),
//! never text; `hidden` and `explicit` nodes are never hits.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::error::{AgentResult, err};
use super::json as shapes;
use super::limits::{check_query, check_top_k};
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::index::filter::{filter_keys, search_all, split_filters_in};
use crate::index::{Hit, HitSource, Scorer, SearchOptions, match_ranges};
use crate::model::NodeId;

/// Most characters of a hit's snippet.
pub const SNIPPET_CHARS: usize = 160;

/// A search request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchArgs {
    /// Free text (and optional `key:value` filter words).
    pub query: String,
    /// Most hits returned.
    pub top_k: usize,
    /// Only nodes of this kind (`section`, `adr`, `file`, …).
    pub kind: Option<String>,
    /// `key → value` filters on node metadata (`status → proposed`, `tag → process`).
    pub filters: BTreeMap<String, String>,
}

/// Run `a` on `ws`. The document is `search --json`'s (`query`, `hits`, `terms`,
/// `did_you_mean`, `suggestions`, `unknown_filter_keys`, `filter_misses`) with each hit carrying also `bytes`, `tokens`, `exposure`, `signals`
/// (`["bm25"]`, `["fuzzy"]` or both) and `snippet`, plus `encoding` and `generation`.
/// BM25 hits come first (best first), then title-only hits; at most `top_k` in all.
/// Errors: an empty or over-long query, `top_k` out of range, a `filters` key that no
/// opened node has (the message lists the keys there are).
pub fn search(ws: &Workspace, a: &SearchArgs) -> AgentResult<Value> {
    check_query(&a.query)?;
    check_top_k(a.top_k)?;
    let mut q = a.query.clone();
    if let Some(k) = &a.kind {
        q.push_str(&format!(" kind:{}", k.trim()));
    }
    if !a.filters.is_empty() {
        // A structured filter is never searched as text (a typed `key:value` word whose key
        // no node has is): an unknown key is an error naming the keys there are.
        let keys = filter_keys(&ws.corpus);
        for k in a.filters.keys() {
            let key = k.trim().to_ascii_lowercase();
            if !keys.contains(&key) {
                let known: Vec<&str> = keys.iter().map(String::as_str).collect();
                return err(format!(
                    "filters: no opened node has the key `{}` (keys here: {})",
                    k.trim(),
                    known.join(", ")
                ));
            }
        }
    }
    for (k, v) in &a.filters {
        q.push_str(&format!(" {}:{}", k.trim(), v.trim().replace(' ', "-")));
    }
    // Fetch more than asked: hidden and explicit hits are dropped below.
    let opts = SearchOptions {
        top_k: a.top_k.saturating_mul(4),
        prefix: false,
    };
    let corpus = &ws.corpus;
    let retrievable = |n: NodeId| {
        matches!(
            ws.exposure.level(corpus, n),
            Exposure::Always | Exposure::OnDemand
        )
    };
    let (res, titles) = if q == a.query && split_filters_in(corpus, &q).1.is_empty() {
        // Enough content hits leave no room for title-only ones: mark the content hits whose
        // titles match instead of scanning every title.
        let res = ws.index.search(corpus, &q, &opts);
        let kept: Vec<NodeId> = res
            .hits
            .iter()
            .map(|h| h.node)
            .filter(|n| retrievable(*n))
            .take(a.top_k)
            .collect();
        if kept.len() >= a.top_k {
            let scores = ws.fuzzy.score_nodes(&q, &kept);
            let titles = kept
                .iter()
                .zip(scores)
                .filter_map(|(n, s)| {
                    s.map(|score| Hit {
                        node: *n,
                        score,
                        source: HitSource::Fuzzy,
                        scorer: Scorer::Skillnav,
                        copies: Vec::new(),
                    })
                })
                .collect();
            (res, titles)
        } else {
            let titles = ws.fuzzy.search_beside(&q, opts.top_k, kept.len());
            (res, titles)
        }
    } else {
        search_all(corpus, Some(&ws.index), Some(&ws.fuzzy), &q, &opts)
    };
    // The content hits a re-ranker re-ordered (docs/DESIGN.md §3 "Re-rank").
    let reranked: Vec<NodeId> = res.rerank.map_or_else(Vec::new, |r| {
        res.hits.iter().take(r.candidates).map(|h| h.node).collect()
    });
    let mut hits: Vec<(Value, NodeId)> = Vec::new();
    for h in res
        .hits
        .iter()
        .chain(titles.iter())
        .filter(|h| retrievable(h.node))
    {
        let mut signals = h.source.signals().to_vec();
        if h.source.is_content() && reranked.contains(&h.node) {
            signals.push("rerank");
        }
        if let Some((v, _)) = hits.iter_mut().find(|(_, n)| *n == h.node) {
            if let Some(s) = v.get_mut("signals").and_then(Value::as_array_mut) {
                for signal in signals {
                    if !s.iter().any(|x| x == signal) {
                        s.push(json!(signal));
                    }
                }
            }
            continue;
        }
        if hits.len() >= a.top_k {
            continue;
        }
        let mut v = shapes::hit(corpus, h);
        let n = corpus.node(h.node);
        v["bytes"] = json!(n.bytes);
        v["tokens"] = json!(ws.tokens_of(h.node));
        v["exposure"] = json!(ws.exposure.level(corpus, h.node).as_str());
        v["signals"] = json!(signals);
        v["snippet"] = json!(snippet(ws, h.node, &res.terms));
        hits.push((v, h.node));
    }
    let dym: Vec<Value> = res
        .did_you_mean
        .iter()
        .map(|(t, u)| json!({"typed": t, "used": u}))
        .collect();
    let rerank = res.rerank.map(|r| {
        json!({"candidates": r.candidates, "embedded": r.embedded, "ms": r.micros.div_ceil(1000)})
    });
    Ok(json!({
        "rerank": rerank,
        "query": a.query,
        "encoding": ws.counter().encoding().as_str(),
        "hits": hits.into_iter().map(|(v, _)| v).collect::<Vec<_>>(),
        "terms": res.terms,
        "did_you_mean": dym,
        "suggestions": res
            .suggestions
            .iter()
            .map(|(t, s)| json!({"typed": t, "suggested": s}))
            .collect::<Vec<_>>(),
        "unknown_filter_keys": res.unknown_filter_keys,
        "filter_misses": shapes::filter_misses(&res.filter_misses),
        "generation": ws.generation,
    }))
}

/// One line of `id`'s own visible text: the first non-heading line holding a matched term,
/// else the node's summary; whitespace collapsed, at most [`SNIPPET_CHARS`] characters.
fn snippet(ws: &Workspace, id: NodeId, terms: &[String]) -> String {
    let corpus = &ws.corpus;
    let text = if corpus.node(id).span.is_some() {
        corpus.own_text(id)
    } else {
        ""
    };
    let line = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .find(|l| !match_ranges(l, terms).is_empty())
        .map_or_else(|| corpus.summary(id).to_string(), str::to_string);
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= SNIPPET_CHARS {
        return line;
    }
    let cut: String = line.chars().take(SNIPPET_CHARS - 1).collect();
    format!("{cut}…")
}
