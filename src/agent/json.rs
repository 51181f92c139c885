//! JSON shapes of the CLI (docs/DESIGN.md §7): nodes with the fields of docs/DESIGN.md §2,
//! and search hits. The CLI's `--json` output and the MCP tools build their documents from
//! these.

use serde_json::{Map, Value, json};

use crate::index::FilterMiss;
use crate::index::Hit;
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenTable;

/// One node as JSON, with children down to `depth` more levels (`None` = all).
/// `tokens` is always a count (the table must be fully counted).
pub fn node(corpus: &Corpus, tokens: &TokenTable, id: NodeId, depth: Option<usize>) -> Value {
    let n = corpus.node(id);
    let mut o = Map::new();
    o.insert("id".into(), json!(corpus.id(id)));
    o.insert("kind".into(), json!(n.kind.as_str()));
    o.insert("format".into(), json!(n.format.as_str()));
    o.insert("title".into(), json!(n.title));
    o.insert("summary".into(), json!(corpus.summary(id)));
    if let Some(d) = &n.detail {
        o.insert("detail".into(), json!(d));
    }
    o.insert("path".into(), json!(n.path));
    if let Some(l) = n.line_start {
        o.insert("line_start".into(), json!(l));
    }
    if let Some(l) = n.line_end {
        o.insert("line_end".into(), json!(l));
    }
    o.insert("bytes".into(), json!(n.bytes));
    o.insert("own_bytes".into(), json!(n.own_bytes));
    o.insert("tokens".into(), json!(tokens.total(id).unwrap_or(0)));
    o.insert("own_tokens".into(), json!(tokens.own(id).unwrap_or(0)));
    o.insert("flags".into(), json!(n.flags));
    o.insert("meta".into(), Value::Object((*n.meta).clone()));
    o.insert("warnings".into(), json!(n.warnings));
    let children: Vec<Value> = match depth {
        Some(0) => Vec::new(),
        _ => n
            .children
            .iter()
            .map(|c| node(corpus, tokens, *c, depth.map(|d| d - 1)))
            .collect(),
    };
    if depth != Some(0) || n.children.is_empty() {
        o.insert("children".into(), Value::Array(children));
    } else {
        o.insert("children_count".into(), json!(n.children.len()));
    }
    Value::Object(o)
}

/// One search hit as `search --json` prints it: `id, title, path, line_start, line_end,
/// score, source (bm25|fuzzy), scorer (skillnav|lazytools), copies` (ids of folded copies).
pub fn hit(corpus: &Corpus, h: &Hit) -> Value {
    let n = corpus.node(h.node);
    json!({
        "id": corpus.id(h.node),
        "title": n.title,
        "path": n.path,
        "line_start": n.line_start,
        "line_end": n.line_end,
        "score": h.score,
        "source": h.source,
        "signals": h.source.signals(),
        "scorer": h.scorer,
        "copies": h.copies.iter().map(|c| corpus.id(*c)).collect::<Vec<_>>(),
    })
}

/// The filters that left a search empty, as `search --json` and the MCP `search` tool print
/// them: `[{"key", "value", "known": [{"value", "count"}], "note"}]` (`note` is
/// [`FilterMiss::describe`]'s line).
pub fn filter_misses(misses: &[FilterMiss]) -> Value {
    misses
        .iter()
        .map(|m| {
            json!({
                "key": m.key,
                "value": m.value,
                "known": m.known.iter().map(|(v, n)| json!({"value": v, "count": n})).collect::<Vec<_>>(),
                "note": m.describe(),
            })
        })
        .collect()
}
