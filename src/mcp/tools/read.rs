//! The `read` tool: `read(ids, max_tokens=8000, cursor?, variant?)` → sections with
//! provenance under the budget, a section larger than a reply in passages, and a cursor for
//! the rest ([`crate::agent::read`]).
//! Aliases: `id` for `ids`; `maxTokens`, `budget` for `max_tokens`.

use serde_json::{Value, json};

use super::{Output, define};
use crate::agent::error::AgentResult;
use crate::agent::read::{ReadArgs, decode_cursor, read};
use crate::mcp::args::Args;
use crate::mcp::state::State;

/// The tool definition.
pub fn definition() -> Value {
    define(
        "read",
        "Read sections",
        "Sections by id, each with a provenance line (id, path, lines, tokens). Packs whole sections in order under max_tokens; \
what does not fit is listed in left_out with a cursor: call read(cursor=...) for the rest. A section larger than one reply comes \
in passages (cut between paragraphs, lines or words; `passage` gives its byte range) that concatenate into its exact text.",
        json!({
            "ids": {"type": "array", "items": {"type": "string"}, "description": "Section ids in the order wanted (alias: id)."},
            "max_tokens": {"type": "integer", "minimum": 1, "default": 8000, "description": "Token budget of this answer."},
            "cursor": {"type": "string", "description": "The cursor of an earlier read: continues where it stopped (the next sections or passage)."},
            "variant": {"type": "string", "enum": ["quick", "standard", "complete", "auto"], "description": "Skill_Seekers llms variant to read from."},
        }),
        &[],
    )
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Output> {
    let ids = a.strings(&["ids", "id"])?;
    let max_tokens = a.uint(&["max_tokens", "maxTokens", "budget"])?;
    let cursor = a.string(&["cursor"])?;
    let variant = a.string(&["variant"])?;
    a.finish()?;
    let mut keys = ids.clone();
    if let Some(c) = &cursor
        && let Ok(given) = decode_cursor(c)
    {
        keys.extend(given.keys);
    }
    let probe = state.snapshot();
    let nodes: Vec<_> = keys
        .iter()
        .filter_map(|k| crate::agent::lookup::resolve(&probe.corpus, k))
        .collect();
    drop(probe);
    let ws = state.fresh(&nodes);
    let v = read(
        &ws,
        &ReadArgs {
            ids,
            max_tokens,
            cursor,
            variant,
        },
    )?;
    Ok(Output::json(&v))
}
