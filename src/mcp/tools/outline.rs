//! The `outline` tool: `outline(id?, depth?, query?, max_tokens=4000, full=false, offset=0)` → compact
//! rows of a subtree, the roots and skills catalog, or each root's children
//! ([`crate::agent::outline`]).

use serde_json::{Value, json};

use super::schema::{count, exposure, layers, list, object, string};
use super::{Input, define};
use crate::agent::error::AgentResult;
use crate::agent::outline::{OutlineArgs, outline};
use crate::mcp::args::Args;
use crate::mcp::state::State;

/// The tool definition.
pub fn definition() -> Value {
    define(
        "outline",
        "Outline",
        "The tree below a node as compact rows: id, title, tokens, a summary of at most 20 words (full: every field), \
as many levels as fit max_tokens. With a query, each row has `score` (best search score in its subtree, 0 when none) \
and children come best first: go down the highest score, then `read` the node. Without an id: the roots and skills \
catalog, or with depth or query each root's children.",
        Input {
            properties: json!({
                "id": {"type": "string", "description": "Node id (from search or an earlier outline); omit for the roots."},
                "depth": {"type": "integer", "minimum": 0, "maximum": 8, "description": "Most levels below the node (default: as many as fit max_tokens; 1 for roots with a query)."},
                "query": {"type": "string", "description": "Score every row by this search and order children best first."},
                "max_tokens": {"type": "integer", "minimum": 1, "default": 4000, "description": "Token budget of the result; fewer levels are shown to fit."},
                "full": {"type": "boolean", "default": false, "description": "Every tree --json field per row (path, lines, bytes, kind, meta…)."},
                "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "With id: skip the node's first children (those an earlier outline listed before more_children)."},
            }),
            required: &[],
        },
        output_schema(),
    )
}

/// The result's schema (docs/MCP.md "Tools"): `{"encoding", "generation", …}` with `node`
/// (one row, by id) or `roots` (the catalog's roots, or each root's row). A row is
/// `{"id", "title"?, "tokens", "summary"?, "score"?, "exposure"?, "layers"?, "children"?,
/// "children_count"?, "more_children"?}`, recursive through `$defs`; `full: true` rows carry
/// every `tree --json` field besides, so rows and the frame stay open to more keys.
pub fn output_schema() -> Value {
    let skill = object(
        json!({
            "name": string(), "id": string(), "description": string(), "exposure": exposure(),
            "shadowed": {"type": "boolean"}, "tokens": count(), "layers": layers(),
        }),
        &[
            "name",
            "id",
            "description",
            "exposure",
            "shadowed",
            "tokens",
        ],
    );
    let catalog_root = object(
        json!({
            "id": string(), "title": string(), "format": string(), "bytes": count(), "tokens": count(),
            "always_loaded_tokens": count(), "children_count": count(), "skills": list(skill),
            "more_skills": count(),
        }),
        &[
            "id",
            "title",
            "format",
            "bytes",
            "tokens",
            "always_loaded_tokens",
            "children_count",
            "skills",
        ],
    );
    let row = json!({
        "type": "object",
        "properties": {
            "id": string(), "title": string(), "tokens": count(), "summary": string(),
            "score": {"type": "number"}, "exposure": exposure(), "layers": layers(),
            "children": {"type": "array", "items": {"$ref": "#/$defs/row"}},
            "children_count": count(), "more_children": count(), "children_offset": count(),
        },
        "required": ["id"],
    });
    json!({
        "type": "object",
        "properties": {
            "encoding": string(), "generation": count(), "depth": count(), "max_tokens": count(),
            "tokens": count(), "always_loaded_tokens": count(), "truncated": string(),
            "node": {"$ref": "#/$defs/row"},
            "roots": {"type": "array", "items": {"anyOf": [catalog_root, {"$ref": "#/$defs/row"}]}},
        },
        "required": ["encoding", "generation"],
        "oneOf": [{"required": ["node"]}, {"required": ["roots"]}],
        "$defs": {"row": row},
    })
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Value> {
    let id = a.string(&["id", "node", "node_id"])?;
    let depth = a
        .uint(&["depth", "levels"])?
        .map(|d| usize::try_from(d).unwrap_or(usize::MAX));
    let query = a.string(&["query", "question", "q"])?;
    let max_tokens = a.uint(&["max_tokens", "maxTokens", "budget"])?;
    let full = a.boolean(&["full"])?.unwrap_or(false);
    let offset = a
        .uint(&["offset"])?
        .map_or(0, |o| usize::try_from(o).unwrap_or(usize::MAX));
    a.finish()?;
    let ws = state.fresh(&[]);
    let args = OutlineArgs {
        id,
        depth,
        query,
        max_tokens,
        full,
        offset,
    };
    outline(&ws, &args)
}
