//! The `read` tool: `read(ids, max_tokens=8000, cursor?, variant?)` → sections with
//! provenance under the budget, a section larger than a reply in passages, and a cursor for
//! the rest ([`crate::agent::read`]).
//! Aliases: `id` for `ids`; `maxTokens`, `budget` for `max_tokens`.

use serde_json::{Value, json};

use super::schema::{
    all_of, count, count_or_null, exposure, list, object, passage, string, string_or_null, strings,
};
use super::{Input, define};
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
in passages (cut between paragraphs, lines or words; `passage` gives its byte range) that concatenate into its exact text. \
A folder id reads as the files under it, in tree order.",
        Input {
            properties: json!({
                "ids": {"type": "array", "items": {"type": "string"}, "description": "Section (or folder) ids in the order wanted (alias: id)."},
                "max_tokens": {"type": "integer", "minimum": 1, "default": 8000, "description": "Token budget of this answer (with a cursor: of the read that made it, unless given)."},
                "cursor": {"type": "string", "description": "The cursor of an earlier read: continues where it stopped (the next sections or passage)."},
                "variant": {"type": "string", "enum": ["quick", "standard", "complete", "auto"], "description": "Skill_Seekers llms variant to read from."},
            }),
            required: &[],
        },
        output_schema(),
    )
}

/// The result's schema: `{"encoding", "generation", "max_tokens", "tokens", "sections",
/// "left_out", "cursor", "next", "errors", "note"}`, each section with `passage` when it is
/// part of one, and `variant` and `ids` when read in an llms variant (docs/MCP.md "Tools").
pub fn output_schema() -> Value {
    let section = object(
        json!({
            "id": string(), "title": string(), "path": string(),
            "line_start": count_or_null(), "line_end": count_or_null(), "tokens": count(),
            "exposure": exposure(), "provenance": string(), "text": string(),
            "passage": passage(), "variant": string(), "ids": strings(),
        }),
        &[
            "id",
            "title",
            "path",
            "line_start",
            "line_end",
            "tokens",
            "exposure",
            "provenance",
            "text",
        ],
    );
    all_of(json!({
        "encoding": string(), "generation": count(), "max_tokens": count(), "tokens": count(),
        "sections": list(section), "left_out": strings(), "cursor": string_or_null(),
        "next": string_or_null(),
        "errors": list(all_of(json!({"id": string(), "error": string()}))),
        "note": string_or_null(),
    }))
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Value> {
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
    read(
        &ws,
        &ReadArgs {
            ids,
            max_tokens,
            cursor,
            variant,
        },
    )
}
