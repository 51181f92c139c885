//! The `outline` tool: `outline(id?, depth=2)` → a subtree, or the roots and skills
//! catalog without an id ([`crate::agent::outline`]).

use serde_json::{Value, json};

use super::{Output, define};
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
        json!({
            "id": {"type": "string", "description": "Node id (from search or an earlier outline); omit for the catalog."},
            "depth": {"type": "integer", "minimum": 0, "maximum": 8, "default": 2, "description": "Levels below the node."},
        }),
        &[],
    )
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Output> {
    let id = a.string(&["id", "node", "node_id"])?;
    let depth = a
        .uint(&["depth", "levels"])?
        .map_or(DEFAULT_DEPTH, |d| usize::try_from(d).unwrap_or(usize::MAX));
    a.finish()?;
    let ws = state.fresh(&[]);
    Ok(Output::json(&outline(&ws, id.as_deref(), depth)?))
}
