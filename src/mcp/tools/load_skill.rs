//! The `load_skill` tool: `load_skill(name, args?)` → the rendered body, base directory and
//! file list ([`crate::agent::load_skill`]). Aliases: `skill` for `name`, `arguments` for
//! `args`.

use serde_json::{Value, json};

use super::{Output, define};
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
and its files (read them with resources/read on skill://<name>/<path>).",
        json!({
            "name": {"type": "string", "description": "The skill's name (alias: skill)."},
            "args": {"type": "string", "description": "The raw argument string for $ARGUMENTS, $0, $name (alias: arguments)."},
        }),
        &["name"],
    )
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Output> {
    let name = a.string(&["name", "skill"])?;
    let args = a.string(&["args", "arguments"])?;
    a.finish()?;
    let Some(name) = name else {
        return crate::agent::error::err("name is missing: pass the skill's name");
    };
    let ws = state.fresh(&[]);
    Ok(Output::json(&load_skill(&ws, &name, args.as_deref())?))
}
