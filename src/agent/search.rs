//! The `search` request: BM25 content hits and fuzzy title hits as pointers (id, title,
//! path, line range, bytes, tokens, score, the signals that scored it, the passage of at
//! most 300 characters that best matches the query),
//! never text; `hidden` and `explicit` nodes are never hits.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::error::{AgentResult, err};
use super::json as shapes;
use super::limits::{check_query, check_top_k};
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::index::filter::{filter_keys, search_all, split_filters_in};
use crate::index::{Hit, HitSource, Scorer, SearchOptions, SearchResult, match_ranges};
use crate::model::NodeId;

/// Most characters of a hit's snippet (the passage around its matched terms).
pub const SNIPPET_CHARS: usize = 300;

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
    /// Hits of the ranking skipped before the first one returned (paging: a result's
    /// `next_offset`); at most [`MAX_OFFSET`].
    pub offset: usize,
}

/// Largest `offset` a search accepts (the ranking is cut there).
pub const MAX_OFFSET: usize = 1_000;

/// Most ids of a hit's byte-identical copies listed (`copies`); `copies_count` gives them
/// all, so a section copied into 150 folders costs a line, not 150 ids.
pub const COPIES_SHOWN: usize = 5;

/// Run `a` on `ws`. The document is `search --json`'s (`query`, `hits`, `terms`,
/// `did_you_mean`, `suggestions`, `unknown_filter_keys`, `filter_misses`) with each hit
/// carrying also `bytes`, `tokens`, `exposure`, `signals` (`["bm25"]`, `["fuzzy"]` or both),
/// `snippet` and `copies_count` (its `copies` list holds the first [`COPIES_SHOWN`]), plus `encoding`, `generation`, `offset` (as asked), `left_out` (how
/// many of the `top_k` hits found were left out to keep the document under the server's
/// caps, in characters and tokens), `next_offset` (the `offset` that returns the first of
/// them, or null) and `next` (a line saying so, or null). BM25 hits come first (best
/// first), then title-only hits; at most `top_k` in all, after the first `offset` of that
/// ranking. Errors: an empty or over-long query, `top_k` out of range, `offset` over
/// [`MAX_OFFSET`], a `filters` key that no opened node has (the message lists the keys
/// there are).
pub fn search(ws: &Workspace, a: &SearchArgs) -> AgentResult<Value> {
    check_query(&a.query)?;
    check_top_k(a.top_k)?;
    if a.offset > MAX_OFFSET {
        return err(format!(
            "offset must be at most {MAX_OFFSET} (got {}); narrow the query instead",
            a.offset
        ));
    }
    let q = full_query(ws, a)?;
    let (res, titles) = run(ws, a, &q);
    let mut hits = hit_values(ws, a.top_k + a.offset, &res, &titles);
    hits.drain(..a.offset.min(hits.len()));
    let dym: Vec<Value> = res
        .did_you_mean
        .iter()
        .map(|(t, u)| json!({"typed": t, "used": u}))
        .collect();
    let rerank = res.rerank.map(|r| {
        json!({"candidates": r.candidates, "embedded": r.embedded, "ms": r.micros.div_ceil(1000)})
    });
    let doc = json!({
        "rerank": rerank,
        "query": a.query,
        "encoding": ws.counter().encoding().as_str(),
        "hits": [],
        "offset": a.offset,
        "left_out": 0,
        "next_offset": null,
        "next": null,
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
    });
    Ok(fit_hits(ws, doc, hits, a.offset))
}

/// The query with `kind` and `filters` appended as `key:value` words. Errors: a `filters`
/// key no opened node has.
fn full_query(ws: &Workspace, a: &SearchArgs) -> AgentResult<String> {
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
    Ok(q)
}

/// Whether `n` may be a hit: `always` and `on-demand` nodes only.
fn retrievable(ws: &Workspace, n: NodeId) -> bool {
    matches!(
        ws.exposure.level(&ws.corpus, n),
        Exposure::Always | Exposure::OnDemand
    )
}

/// The content hits and title hits of `q`.
fn run(ws: &Workspace, a: &SearchArgs, q: &str) -> (SearchResult, Vec<Hit>) {
    // Fetch more than asked: hidden and explicit hits are dropped below.
    let opts = SearchOptions {
        top_k: (a.top_k + a.offset).saturating_mul(4),
        prefix: false,
    };
    let corpus = &ws.corpus;
    if q != a.query || !split_filters_in(corpus, q).1.is_empty() {
        return search_all(corpus, Some(&ws.index), Some(&ws.fuzzy), q, &opts);
    }
    // Enough content hits leave no room for title-only ones: mark the content hits whose
    // titles match instead of scanning every title.
    let res = ws.index.search(corpus, q, &opts);
    let kept: Vec<NodeId> = res
        .hits
        .iter()
        .map(|h| h.node)
        .filter(|n| retrievable(ws, *n))
        .take(a.top_k + a.offset)
        .collect();
    if kept.len() < a.top_k + a.offset {
        let titles = ws.fuzzy.search_beside(q, opts.top_k, kept.len());
        return (res, titles);
    }
    let scores = ws.fuzzy.score_nodes(q, &kept);
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
}

/// The hit entries, content hits first, at most `top_k`; a node found by both gets both
/// signals in one entry.
fn hit_values(ws: &Workspace, top_k: usize, res: &SearchResult, titles: &[Hit]) -> Vec<Value> {
    let corpus = &ws.corpus;
    // The content hits a re-ranker re-ordered (docs/DESIGN.md §3 "Re-rank").
    let reranked: Vec<NodeId> = res.rerank.map_or_else(Vec::new, |r| {
        res.hits.iter().take(r.candidates).map(|h| h.node).collect()
    });
    let mut hits: Vec<(Value, NodeId)> = Vec::new();
    for h in res
        .hits
        .iter()
        .chain(titles.iter())
        .filter(|h| retrievable(ws, h.node))
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
        if hits.len() >= top_k {
            continue;
        }
        let mut v = shapes::hit(corpus, h);
        v["copies_count"] = json!(h.copies.len());
        if let Some(copies) = v.get_mut("copies").and_then(Value::as_array_mut) {
            copies.truncate(COPIES_SHOWN);
        }
        v["bytes"] = json!(corpus.node(h.node).bytes);
        v["tokens"] = json!(ws.tokens_of(h.node));
        v["exposure"] = json!(ws.exposure.level(corpus, h.node).as_str());
        v["signals"] = json!(signals);
        v["snippet"] = json!(snippet(ws, h.node, &res.terms));
        hits.push((v, h.node));
    }
    hits.into_iter().map(|(v, _)| v).collect()
}

/// `doc` with as many of `hits` (best first) as keep it under the server's caps
/// (characters, and tokens of the workspace's encoding), and `left_out` and `next` saying
/// how many did not fit, `next_offset` the `offset` (after `offset`) that returns them.
fn fit_hits(ws: &Workspace, mut doc: Value, hits: Vec<Value>, offset: usize) -> Value {
    let limits = ws.limits();
    let found = hits.len();
    // The frame with the longest `left_out`, `next_offset` and `next` it can get.
    doc["left_out"] = json!(found);
    doc["next_offset"] = json!(offset + found);
    doc["next"] = json!(left_out_line(found, offset + found, limits.max_chars));
    let frame = doc.to_string().chars().count();
    let mut used = frame;
    let mut keep = 0;
    for h in &hits {
        let size = h.to_string().chars().count() + 1;
        if used + size > limits.max_chars {
            break;
        }
        used += size;
        keep += 1;
    }
    let mut hits = hits;
    loop {
        hits.truncate(keep);
        let left = found - keep;
        doc["left_out"] = json!(left);
        (doc["next_offset"], doc["next"]) = if left == 0 {
            (Value::Null, Value::Null)
        } else {
            let next = offset + keep;
            (
                json!(next),
                json!(left_out_line(left, next, limits.max_chars)),
            )
        };
        doc["hits"] = Value::Array(hits.clone());
        let tokens = ws.counter().count(&doc.to_string());
        if tokens <= limits.max_tokens || keep == 0 {
            return doc;
        }
        // Over the token cap: keep the share of hits that fits, a tenth less.
        let share = u128::from(limits.max_tokens) * keep as u128 * 9 / 10 / u128::from(tokens);
        keep = usize::try_from(share).unwrap_or(0).min(keep - 1);
    }
}

/// The `next` line of a result that left `left` hits out, the first of them at
/// `next_offset`.
fn left_out_line(left: usize, next_offset: usize, max_chars: usize) -> String {
    format!(
        "{left} more hit(s) did not fit in this server's limit of {max_chars} characters: call search again with offset {next_offset} for them, or narrow the query (kind, filters)"
    )
}

/// The passage of `id`'s own text (heading lines left out, whitespace collapsed) that
/// best matches `terms`: at most [`SNIPPET_CHARS`] characters around the window holding
/// the most distinct matched terms (the earliest of equals), cut at word boundaries with
/// `…` where text was cut; the opening of the text when no term matches, the node's
/// summary when it has no text.
fn snippet(ws: &Workspace, id: NodeId, terms: &[String]) -> String {
    let corpus = &ws.corpus;
    let text = if corpus.node(id).span.is_some() {
        corpus.own_text(id)
    } else {
        ""
    };
    let body = collapse_body(text);
    if body.is_empty() {
        return passage_around(&collapse_body(corpus.summary(id)), 0);
    }
    let ranges = match_ranges(&body, terms);
    passage_around(&body, best_window(&body, &ranges))
}

/// The lines of `text` that are not headings, whitespace collapsed to single spaces.
fn collapse_body(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The byte offset in `body` of the match that starts the [`SNIPPET_CHARS`]-wide window
/// holding the most distinct matched words (0 without matches).
fn best_window(body: &str, ranges: &[std::ops::Range<usize>]) -> usize {
    let mut best = (0, 0);
    for (i, r) in ranges.iter().enumerate() {
        let end = r.start + SNIPPET_CHARS.saturating_sub(SNIPPET_LEAD);
        let mut words: Vec<String> = ranges[i..]
            .iter()
            .take_while(|m| m.end <= end)
            .filter_map(|m| body.get(m.clone()).map(str::to_lowercase))
            .collect();
        words.sort_unstable();
        words.dedup();
        if words.len() > best.0 {
            best = (words.len(), r.start);
        }
    }
    best.1
}

/// Characters of context kept before the first matched word of a snippet.
const SNIPPET_LEAD: usize = 60;

/// At most [`SNIPPET_CHARS`] characters of `body` from a word boundary up to
/// [`SNIPPET_LEAD`] characters before byte `at`, cut at a word boundary; `…` marks each
/// cut side.
fn passage_around(body: &str, at: usize) -> String {
    let before: Vec<(usize, char)> = body[..at].char_indices().collect();
    let mut start = before
        .len()
        .checked_sub(SNIPPET_LEAD)
        .map_or(0, |i| before[i].0);
    if start > 0 {
        // Start at the next word.
        start = body[start..]
            .find(' ')
            .map_or(start, |s| (start + s + 1).min(at));
    }
    let lead = if start > 0 { "…" } else { "" };
    let room = SNIPPET_CHARS - lead.chars().count();
    let rest = &body[start..];
    if rest.chars().count() <= room {
        return format!("{lead}{rest}");
    }
    // Leave a character for the closing `…`; end before the last space that fits.
    let limit = rest
        .char_indices()
        .nth(room - 1)
        .map_or(rest.len(), |(b, _)| b);
    let end = rest[..limit].rfind(' ').filter(|e| *e > 0).unwrap_or(limit);
    format!("{lead}{}…", rest[..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snippet_is_the_window_with_the_most_matched_terms_not_the_opening() {
        let filler = "lorem ipsum dolor sit amet ".repeat(30);
        let text = format!(
            "# Title\n\nbody once here. {filler}\n\nThe request body limit caps the\nsize of a body. {filler}"
        );
        let body = collapse_body(&text);
        let terms = vec!["body".to_string(), "limit".to_string()];
        let at = best_window(&body, &match_ranges(&body, &terms));
        let s = passage_around(&body, at);
        assert!(s.chars().count() <= SNIPPET_CHARS, "{}", s.chars().count());
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(
            s.contains("The request body limit caps the size of a body."),
            "{s}"
        );
        assert!(!s.contains('#'));
    }

    #[test]
    fn a_snippet_without_matches_is_the_opening_cut_at_a_word() {
        let body = collapse_body(&"word ".repeat(100));
        let s = passage_around(&body, best_window(&body, &[]));
        assert!(s.starts_with("word word") && s.ends_with("word…"), "{s}");
        assert!(s.chars().count() <= SNIPPET_CHARS);
        assert_eq!(passage_around("short text", 0), "short text");
    }

    #[test]
    fn a_hit_with_many_identical_copies_names_five_and_counts_them_all() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..12 {
            let dir = tmp.path().join(format!("copy-{i:02}"));
            std::fs::create_dir_all(&dir).unwrap();
            // Files that differ (not duplicates), holding one byte-identical section.
            std::fs::write(
                dir.join("guide.md"),
                format!("# Guide {i}\n\n## Rollback\n\nThe zebrafish rollback procedure.\n"),
            )
            .unwrap();
        }
        let ws = crate::agent::outline::tree_tests::open(tmp.path());
        let args = SearchArgs {
            query: "zebrafish rollback".into(),
            top_k: 5,
            ..SearchArgs::default()
        };
        let doc = search(&ws, &args).unwrap();
        let hit = &doc["hits"][0];
        assert_eq!(hit["copies_count"], json!(11), "{hit}");
        assert_eq!(hit["copies"].as_array().map(Vec::len), Some(COPIES_SHOWN));
    }
}
