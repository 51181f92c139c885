//! The `outline` tool: `outline(id?, depth=2)` → a subtree, or the roots and skills
//! catalog without an id ([`crate::agent::outline`]).

use serde_json::{Value, json};

use super::schema::{count, exposure, layers, list, node, object, string};
use super::{Input, define};
use crate::agent::error::AgentResult;
use crate::agent::outline::outline;
use crate::mcp::args::Args;
use crate::mcp::state::State;

/// Levels shown when `depth` is not given.
pub const DEFAULT_DEPTH: usize = 2;

/// The tool definition.
pub fn definition() -> Value {
    define(
        "outline",
        "Outline",
        "The tree below a node: ids, titles, summaries, bytes, tokens, exposure level, and each skill's layer costs. \
Without an id: the roots and skills catalog with the always-loaded tokens.",
        Input {
            properties: json!({
                "id": {"type": "string", "description": "Node id (from search or an earlier outline); omit for the catalog."},
                "depth": {"type": "integer", "minimum": 0, "maximum": 8, "default": 2, "description": "Levels below the node."},
            }),
            required: &[],
        },
        output_schema(),
    )
}

/// The result's schema: with an id, `{"encoding", "generation", "node", "truncated"?}`
/// (the node recursive through `$defs`); without, the catalog `{"encoding", "generation",
/// "always_loaded_tokens", "roots", "truncated"?}` (docs/MCP.md "Tools").
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
    let root = object(
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
    let mut v = object(
        json!({
            "encoding": string(), "generation": count(), "node": {"$ref": "#/$defs/node"},
            "always_loaded_tokens": count(), "roots": list(root), "truncated": string(),
        }),
        &["encoding", "generation"],
    );
    v["oneOf"] = json!([
        {"required": ["node"]},
        {"required": ["roots", "always_loaded_tokens"]},
    ]);
    v["$defs"] = json!({"node": node()});
    v
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Value> {
    let id = a.string(&["id", "node", "node_id"])?;
    let depth = a
        .uint(&["depth", "levels"])?
        .map_or(DEFAULT_DEPTH, |d| usize::try_from(d).unwrap_or(usize::MAX));
    a.finish()?;
    let ws = state.fresh(&[]);
    outline(&ws, id.as_deref(), depth)
}
