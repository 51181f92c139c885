//! The `search` tool: `search(query, top_k=8, kind?, filters?, offset=0)` → hits as pointers
//! ([`crate::agent::search`]). Aliases: `question`, `q` for `query`; `topK`, `k`, `limit`
//! for `top_k`.

use serde_json::{Value, json};

use super::schema::{
    all_of, count, count_or_null, exposure, list, string, string_or_null, strings,
};
use super::{Input, define};
use crate::agent::error::AgentResult;
use crate::agent::search::{SearchArgs, search};
use crate::mcp::args::Args;
use crate::mcp::state::State;

/// Hits returned when `top_k` is not given.
pub const DEFAULT_TOP_K: usize = 8;

/// The tool definition.
pub fn definition() -> Value {
    define(
        "search",
        "Search sections",
        "BM25 + fuzzy-title search over the opened docs. Returns pointers, not text: id, title, path, line range, \
bytes, tokens (named encoding), score, signals, a snippet: the best-matching passage (≤ 300 chars). Read a hit with `read`.",
        Input {
            properties: json!({
                "query": {"type": "string", "description": "A few key words (alias: question). `key:value` words filter (status:proposed)."},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 100, "default": 8, "description": "Most hits."},
                "kind": {"type": "string", "description": "Only this node kind: section, file, adr, chunk, part, link, skill."},
                "offset": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 0, "description": "Hits of the ranking to skip: a result's next_offset pages on."},
                "filters": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Metadata filters, e.g. {\"status\": \"proposed\", \"tag\": \"process\"}."},
            }),
            required: &["query"],
        },
        output_schema(),
    )
}

/// The result's schema: `search --json`'s document with sizes on every hit, `left_out`
/// and `next` (docs/MCP.md "Tools").
pub fn output_schema() -> Value {
    let hit = all_of(json!({
        "id": string(), "title": string(), "path": string(),
        "line_start": count_or_null(), "line_end": count_or_null(),
        "bytes": count(), "tokens": count(), "score": {"type": "number"},
        "source": {"type": "string", "enum": ["bm25", "fuzzy", "hybrid", "semantic"]},
        "scorer": string(), "signals": strings(), "snippet": string(),
        "exposure": exposure(), "copies": strings(), "copies_count": count(),
    }));
    let rerank = json!({"anyOf": [
        all_of(json!({"candidates": count(), "embedded": count(), "ms": count()})),
        {"type": "null"},
    ]});
    let known = list(all_of(json!({"value": string(), "count": count()})));
    all_of(json!({
        "query": string(), "encoding": string(), "hits": list(hit),
        "offset": count(), "left_out": count(), "next_offset": count_or_null(),
        "next": string_or_null(), "terms": strings(),
        "did_you_mean": list(all_of(json!({"typed": string(), "used": string()}))),
        "suggestions": list(all_of(json!({"typed": string(), "suggested": string()}))),
        "unknown_filter_keys": strings(),
        "filter_misses": list(all_of(json!({"key": string(), "value": string(), "known": known, "note": string()}))),
        "generation": count(), "rerank": rerank,
    }))
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Value> {
    let query = a.string(&["query", "question", "q"])?.unwrap_or_default();
    let top_k = a
        .uint(&["top_k", "topK", "k", "limit"])?
        .map_or(DEFAULT_TOP_K, |k| usize::try_from(k).unwrap_or(usize::MAX));
    let kind = a.string(&["kind"])?;
    let filters = a.string_map(&["filters", "filter"])?;
    let offset = a
        .uint(&["offset"])?
        .map_or(0, |o| usize::try_from(o).unwrap_or(usize::MAX));
    a.finish()?;
    let ws = state.fresh(&[]);
    search(
        &ws,
        &SearchArgs {
            query,
            top_k,
            kind,
            filters,
            offset,
        },
    )
}
