//! The five tools, one file each: their definitions (name, description, input and output
//! schemas, read-only hints) and their calls, which parse arguments and run the core
//! request. Every call gives back one JSON object, the tool's `structuredContent`, shaped
//! as its `outputSchema` says ([`schema`] holds the pieces the schemas share; docs/MCP.md
//! "Tools").

pub mod brief;
pub mod load_skill;
pub mod outline;
pub mod read;
pub mod schema;
pub mod search;

use serde_json::{Map, Value, json};

use super::args::Args;
use super::state::State;
use crate::agent::error::AgentResult;

/// Every tool definition, as the `tools/list` JSON of one tool (`name`, `title`,
/// `description`, `inputSchema`, `outputSchema`, `annotations` with `readOnlyHint`).
pub fn definitions() -> Vec<Value> {
    vec![
        search::definition(),
        outline::definition(),
        read::definition(),
        brief::definition(),
        load_skill::definition(),
    ]
}

/// Call tool `name`: its result object (what its `outputSchema` describes), or the tool
/// error's message; `None` when there is no such tool.
pub fn call(
    state: &State,
    name: &str,
    args: Option<&Map<String, Value>>,
) -> Option<AgentResult<Value>> {
    let a = Args::new(args);
    Some(match name {
        "search" => search::call(state, a),
        "outline" => outline::call(state, a),
        "read" => read::call(state, a),
        "brief" => brief::call(state, a),
        "load_skill" => load_skill::call(state, a),
        _ => return None,
    })
}

/// The text of a tool's input: its argument `properties` and the `required` names.
#[derive(Clone, Debug)]
pub struct Input<'a> {
    /// JSON Schema `properties` of the arguments.
    pub properties: Value,
    /// The arguments a call must pass.
    pub required: &'a [&'a str],
}

/// A tool definition document with its input schema, its `output` schema (an object
/// schema, [`schema::object`]) and the read-only hints every tool carries.
pub fn define(
    name: &str,
    title: &str,
    description: &str,
    input: Input<'_>,
    output: Value,
) -> Value {
    json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": {"type": "object", "properties": input.properties, "required": input.required},
        "outputSchema": output,
        "annotations": {"title": title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
    })
}
