//! `skillnav search`: BM25 content hits and fuzzy title hits, as text or JSON; `key:value`
//! words filter by kind or format field (`status:proposed`, `tag:process`, `kind:adr`).

use std::io::Write;
use std::sync::Arc;

use serde_json::json;

use crate::index::filter::search_all;
use crate::index::{Hit, HitSource, Index, Rerank, SearchOptions, SearchResult};
use crate::model::Corpus;
use crate::store::{How, Indexed};
use crate::util::sanitize::sanitize_line;

/// The flags of `skillnav search`.
#[derive(Clone, Debug)]
pub struct CliSearch {
    /// Hits per group.
    pub top_k: usize,
    /// Expand the last word as a prefix.
    pub prefix: bool,
    /// Fuse the semantic signal (finished queries only: not with `prefix`).
    pub semantic: bool,
    /// The re-rank tier's re-ranker, when a model is installed (finished queries only).
    pub rerank: Option<Arc<dyn Rerank>>,
    /// Print JSON.
    pub json: bool,
}

/// Run `query` and print both hit groups (content first, then fuzzy titles).
pub fn run(
    out: &mut dyn Write,
    indexed: &Indexed,
    query: &str,
    o: &CliSearch,
) -> std::io::Result<()> {
    let (top_k, prefix, as_json) = (o.top_k, o.prefix, o.json);
    let (corpus, index) = (&indexed.corpus, &indexed.index);
    attach_signals(corpus, index, o);
    let opts = SearchOptions { top_k, prefix };
    let (res, fuzzy) = search_all(corpus, Some(index), Some(&indexed.fuzzy), query, &opts);
    let reranked = res.rerank.map_or(0, |r| r.candidates);
    if let Some(run) = &res.rerank {
        eprintln!("skillnav: {}", crate::rerank::describe(run));
    }
    if as_json {
        return write_json_result(out, corpus, query, &res, &fuzzy, reranked, indexed.how);
    }
    write_notes(out, &res, fuzzy.is_empty())?;
    writeln!(
        out,
        "Content ({}): {} hits",
        content_label(&res, reranked),
        res.hits.len()
    )?;
    for h in &res.hits {
        print_hit(out, corpus, h)?;
    }
    writeln!(out, "Titles (fuzzy): {} hits", fuzzy.len())?;
    for h in &fuzzy {
        print_hit(out, corpus, h)?;
    }
    Ok(())
}

/// Attach to `index` (of `corpus`) the semantic signal when `o` asks for it (not with
/// `prefix`) and `o`'s re-ranker.
fn attach_signals(corpus: &Corpus, index: &Index, o: &CliSearch) {
    if o.semantic && !o.prefix {
        index.embed(corpus, None);
    }
    if let Some(r) = &o.rerank {
        index.attach_reranker(Arc::clone(r));
    }
}

/// `search --json`'s `index` object: how the persisted index served this search
/// (docs/DESIGN.md §8 "Persisted index").
fn index_state(how: How) -> serde_json::Value {
    match how {
        How::Built => json!({"state": "built"}),
        How::Reused => json!({"state": "reused", "files_read": 0}),
        How::Updated { read, reused } => {
            json!({"state": "updated", "files_read": read, "files_reused": reused})
        }
    }
}

/// Print the result as one JSON object: the hits (the first `reranked` content hits marked
/// as re-ranked, then the fuzzy title hits), the terms, the corrections and suggestions,
/// the filter notes, the re-rank run and how the index was made (`how`).
fn write_json_result(
    out: &mut dyn Write,
    corpus: &Corpus,
    query: &str,
    res: &SearchResult,
    fuzzy: &[Hit],
    reranked: usize,
    how: How,
) -> std::io::Result<()> {
    let hits: Vec<_> = res
        .hits
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let mut v = crate::agent::json::hit(corpus, h);
            if i < reranked {
                mark_reranked(&mut v);
            }
            v
        })
        .chain(fuzzy.iter().map(|h| crate::agent::json::hit(corpus, h)))
        .collect();
    let dym: Vec<_> = res
        .did_you_mean
        .iter()
        .map(|(a, b)| json!({"typed": a, "used": b}))
        .collect();
    let sug: Vec<_> = res
        .suggestions
        .iter()
        .map(|(a, b)| json!({"typed": a, "suggested": b}))
        .collect();
    let mut v = json!({"query": query, "hits": hits, "terms": res.terms, "did_you_mean": dym, "suggestions": sug, "unknown_filter_keys": res.unknown_filter_keys, "filter_misses": crate::agent::json::filter_misses(&res.filter_misses)});
    if let Some(run) = &res.rerank {
        v["rerank"] = json!({"candidates": run.candidates, "embedded": run.embedded, "ms": run.micros.div_ceil(1000)});
    }
    v["index"] = index_state(how);
    super::json_out::write_json(out, &v)
}

/// Print the text result's notes: the did-you-mean corrections, the suggestions and, when
/// nothing was found (`no_titles` and no content hit), the unknown filter keys and the
/// filters no node passes.
fn write_notes(out: &mut dyn Write, res: &SearchResult, no_titles: bool) -> std::io::Result<()> {
    for (typed, used) in &res.did_you_mean {
        writeln!(
            out,
            "did you mean: {} → {}",
            sanitize_line(typed),
            sanitize_line(used)
        )?;
    }
    for (typed, suggested) in &res.suggestions {
        writeln!(
            out,
            "not found: {} (did you mean {}?)",
            sanitize_line(typed),
            sanitize_line(suggested)
        )?;
    }
    if res.hits.is_empty() && no_titles {
        for key in &res.unknown_filter_keys {
            writeln!(
                out,
                "unknown filter key: {} (no opened node has it; the word was searched as text)",
                sanitize_line(key)
            )?;
        }
        for miss in &res.filter_misses {
            writeln!(out, "{}", sanitize_line(&miss.describe()))?;
        }
    }
    Ok(())
}

/// The signals behind the content hits, for their group's heading (`BM25 + semantic`, …):
/// semantic when a hit came from it, re-rank when `reranked` hits were re-ordered.
fn content_label(res: &SearchResult, reranked: usize) -> &'static str {
    match (
        res.hits.iter().any(|h| h.source != HitSource::Bm25),
        reranked > 0,
    ) {
        (true, true) => "BM25 + semantic + re-rank",
        (true, false) => "BM25 + semantic",
        (false, true) => "BM25 + re-rank",
        (false, false) => "BM25",
    }
}

/// Add `"rerank"` to a JSON hit's `signals` (a hit among the re-ranked first ones).
pub fn mark_reranked(v: &mut serde_json::Value) {
    if let Some(s) = v
        .get_mut("signals")
        .and_then(serde_json::Value::as_array_mut)
    {
        s.push(json!("rerank"));
    }
}

fn print_hit(out: &mut dyn Write, corpus: &Corpus, h: &Hit) -> std::io::Result<()> {
    let n = corpus.node(h.node);
    let copies = if h.copies.is_empty() {
        String::new()
    } else {
        format!("  (+{} copies)", h.copies.len())
    };
    let line = n.line_start.map(|l| format!(":{l}")).unwrap_or_default();
    writeln!(
        out,
        "  {:>8.3}  {}  {}{line}{copies}",
        h.score,
        sanitize_line(&n.title),
        sanitize_line(&corpus.id(h.node))
    )
}
