//! The `load_skill` tool: `load_skill(name, args?, offset?)` → the rendered body (in
//! passages when it is over the result caps), base directory and file list
//! ([`crate::agent::load_skill`]). Aliases: `skill` for `name`, `arguments` for `args`.

use serde_json::{Value, json};

use super::schema::{count, count_or_null, exposure, object, passage, string, strings};
use super::{Input, define};
use crate::agent::error::AgentResult;
use crate::agent::load_skill::load_skill;
use crate::mcp::args::Args;
use crate::mcp::state::State;

/// The tool definition.
pub fn definition() -> Value {
    define(
        "load_skill",
        "Load a skill",
        "A skill's SKILL.md body rendered as `skillnav render` renders it ($ARGUMENTS substituted), its base directory \
and its files (read them with resources/read on skill://<name>/<path>). A body over the result limit comes in passages: \
call again with offset=next_offset for the rest.",
        Input {
            properties: json!({
                "name": {"type": "string", "description": "The skill's name (alias: skill)."},
                "args": {"type": "string", "description": "The raw argument string for $ARGUMENTS, $0, $name (alias: arguments)."},
                "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Byte offset into the body: the next_offset of the last call."},
            }),
            required: &["name"],
        },
        output_schema(),
    )
}

/// The result's schema: `{"name", "base_dir", "exposure", "tokens", "encoding", "body",
/// "files"}`, plus `passage` and `next_offset` (null on the last passage) when the body
/// comes in passages (docs/MCP.md "Tools").
pub fn output_schema() -> Value {
    object(
        json!({
            "name": string(), "base_dir": string(), "exposure": exposure(), "tokens": count(),
            "encoding": string(), "body": string(), "files": strings(), "passage": passage(),
            "next_offset": count_or_null(),
        }),
        &[
            "name", "base_dir", "exposure", "tokens", "encoding", "body", "files",
        ],
    )
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Value> {
    let name = a.string(&["name", "skill"])?;
    let args = a.string(&["args", "arguments"])?;
    let offset = a
        .uint(&["offset"])?
        .map_or(0, |o| usize::try_from(o).unwrap_or(usize::MAX));
    a.finish()?;
    let Some(name) = name else {
        return crate::agent::error::err("name is missing: pass the skill's name");
    };
    let ws = state.fresh(&[]);
    load_skill(&ws, &name, args.as_deref(), offset)
}
