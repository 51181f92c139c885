//! The five tools, one file each: their definitions (name, description, input schema,
//! read-only hints) and their calls, which parse arguments and run the core request.

pub mod brief;
pub mod load_skill;
pub mod outline;
pub mod read;
pub mod search;

use serde_json::{Map, Value, json};

use super::args::Args;
use super::state::State;
use crate::agent::error::AgentResult;

/// What a tool call gives back: text blocks (the first is the result, JSON for every tool
/// but `brief`, whose text is the brief itself; a second one carries a note).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The result text.
    pub text: String,
    /// A note on how the request was limited, when it was.
    pub note: Option<String>,
}

impl Output {
    /// A JSON document as compact text.
    pub fn json(v: &Value) -> Output {
        Output {
            text: v.to_string(),
            note: None,
        }
    }
}

/// Every tool definition, as the `tools/list` JSON of one tool (`name`, `title`,
/// `description`, `inputSchema`, `annotations` with `readOnlyHint`).
pub fn definitions() -> Vec<Value> {
    vec![
        search::definition(),
        outline::definition(),
        read::definition(),
        brief::definition(),
        load_skill::definition(),
    ]
}

/// Call tool `name`; `None` when there is no such tool.
pub fn call(
    state: &State,
    name: &str,
    args: Option<&Map<String, Value>>,
) -> Option<AgentResult<Output>> {
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

/// A tool definition document with the read-only hints every tool carries.
pub fn define(
    name: &str,
    title: &str,
    description: &str,
    properties: Value,
    required: &[&str],
) -> Value {
    json!({
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": required},
        "annotations": {"title": title, "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
    })
}
