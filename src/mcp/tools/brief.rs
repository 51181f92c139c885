//! The `brief` tool: `brief(query?, ids?, recipe?, mode, format, max_tokens, top_k)` → an
//! object whose `text` is the same bytes as `skillnav brief` with the same arguments
//! ([`crate::agent::brief`]). The server's exposure levels apply; a brief over the result
//! caps is packed again under a lower budget, and the object's `note` says so. Aliases: `question`, `task` for `query`;
//! `id`, `select` for `ids`; `maxTokens`, `budget` for `max_tokens`; `topK`, `k` for `top_k`.

use serde_json::{Value, json};

use super::schema::{all_of, count, string, string_or_null, strings};
use super::{Input, define};
use crate::agent::brief::{BriefArgs, BriefOut, Prepared, prepare};
use crate::agent::error::{AgentResult, err};
use crate::agent::passage::Measure;
use crate::agent::workspace::Workspace;
use crate::brief::BriefFormat;
use crate::mcp::args::Args;
use crate::mcp::state::State;

/// The tool definition.
pub fn definition() -> Value {
    define(
        "brief",
        "Context brief",
        "A packed context brief (its `text` is the same text as `skillnav brief`): selected ids first, then the query's top hits, \
each with provenance, under max_tokens; left-out sections are named at the end.",
        Input {
            properties: json!({
                "query": {"type": "string", "description": "Retrieve sections for this query (aliases: question, task)."},
                "ids": {"type": "array", "items": {"type": "string"}, "description": "Section ids to include first (aliases: id, select)."},
                "recipe": {"type": "string", "description": "A saved recipe name (its selection, levels, budget, mode and format)."},
                "mode": {"type": "string", "enum": ["auto", "answer", "extract", "locate", "summarize"], "default": "auto"},
                "format": {"type": "string", "enum": ["md", "xml", "json", "lazytools"], "default": "md", "description": "Output format; without it, the recipe's (when it saved one), else md."},
                "max_tokens": {"type": "integer", "minimum": 1, "description": "Token budget of the whole brief."},
                "top_k": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Retrieved sections at most (default 8; with max_tokens: as many ranked sections as fit)."},
                "max_chars": {"type": "integer", "minimum": 1, "description": "Character budget (lazytools format)."},
                "include_quotes": {"type": "boolean", "default": true, "description": "lazytools answer mode: keep the excerpts."},
            }),
            required: &[],
        },
        output_schema(),
    )
}

/// The result's schema: `{"text", "format", "tokens", "encoding", "left_out", "note"}`:
/// the brief (the bytes `skillnav brief` prints), its format, its size in tokens of
/// `encoding`, the ids left out over the budget (the brief names them too), and a note when it was packed again to fit the result caps, else null (docs/MCP.md "Tools").
pub fn output_schema() -> Value {
    all_of(json!({
        "text": string(),
        "format": {"type": "string", "enum": ["md", "xml", "json", "lazytools"]},
        "tokens": count(),
        "encoding": string(),
        "left_out": strings(),
        "note": string_or_null(),
    }))
}

/// Run the tool.
pub fn call(state: &State, mut a: Args<'_>) -> AgentResult<Value> {
    let query = a.string(&["query", "question", "task"])?;
    let ids = a.strings(&["ids", "id", "select"])?;
    let recipe = a.string(&["recipe"])?;
    let mode = a.string(&["mode"])?.unwrap_or_else(|| "auto".into());
    // No format: the recipe's, else md (as `skillnav brief`).
    let format = match a.string(&["format"])? {
        None => None,
        Some(f) => match BriefFormat::parse(&f.trim().to_ascii_lowercase()) {
            Some(f) => Some(f),
            None => return err(format!("unknown format {f:?} (md, xml, json, lazytools)")),
        },
    };
    let max_tokens = a.uint(&["max_tokens", "maxTokens", "budget"])?;
    let top_k = a
        .uint(&["top_k", "topK", "k"])?
        .map(|k| usize::try_from(k).unwrap_or(usize::MAX));
    let max_chars = a
        .uint(&["max_chars", "maxChars"])?
        .map(|c| usize::try_from(c).unwrap_or(usize::MAX));
    let quotes = a.boolean(&["include_quotes", "includeQuotes"])?;
    a.finish()?;
    // The server's length caps; the blank-query rule inside is `prepare`'s too, so
    // `skillnav brief` refuses `''` with the same message.
    if let Some(q) = &query {
        crate::agent::limits::check_query(q)?;
    }
    if let Some(k) = top_k {
        crate::agent::limits::check_top_k(k)?;
    }
    let ws = state.fresh(&[]);
    let limits = ws.limits();
    let budget = match max_tokens {
        Some(m) => Some(limits.budget(Some(m), m)?),
        None => None,
    };
    let args = BriefArgs {
        query,
        ids,
        recipe,
        mode,
        format,
        top_k,
        budget: budget.as_ref().map(|b| b.tokens),
        max_chars: max_chars.map(|c| c.min(limits.max_chars)),
        no_quotes: quotes == Some(false),
    };
    let overlay = ws.config.recipe.as_ref().map(|_| &ws.exposure);
    let store = ws.store();
    let mut prepared = prepare(&ws.corpus, &args, store.as_ref(), overlay)?;
    let format = prepared.request.format;
    let (out, note) = fit(&ws, &mut prepared, budget.and_then(|b| b.note));
    Ok(json!({
        "text": out.text,
        "format": format.as_str(),
        "tokens": out.tokens,
        "encoding": ws.counter().encoding().as_str(),
        "left_out": out.left_out,
        "note": note,
    }))
}

/// Build `prepared`; over a result cap, pack it again under a budget scaled to fit, a few
/// times at most. The size that counts is the text as a JSON string (escapes included)
/// plus room for the other fields, since the result is a JSON object. Returns the brief and
/// the note on how it was limited (`note` when it was not packed again).
fn fit(
    ws: &Workspace,
    prepared: &mut Prepared,
    mut note: Option<String>,
) -> (BriefOut, Option<String>) {
    let limits = ws.limits();
    let index = prepared.needs_index().then_some(&ws.index);
    let mut out = prepared.build(&ws.corpus, index, ws.counter());
    for _ in 0..6 {
        let chars = Measure::JsonChars.of(&out.text) + FRAME_CHARS;
        if out.tokens <= limits.max_tokens && chars <= limits.max_chars {
            break;
        }
        let by_chars =
            (out.tokens as f64 * limits.max_chars as f64 / chars.max(1) as f64 * 0.9) as u64;
        let cap = prepared
            .budget()
            .unwrap_or(out.tokens)
            .min(limits.max_tokens)
            .min(by_chars)
            .max(1);
        prepared.cap_budget(cap);
        out = prepared.build(&ws.corpus, index, ws.counter());
        note = Some(format!(
            "the brief was packed under {cap} tokens to stay within this server's result limits ({} tokens, {} characters); pass ids or a smaller top_k for the rest",
            limits.max_tokens, limits.max_chars
        ));
    }
    (out, note)
}

/// Characters kept for the result object's other fields and a note beside the brief's text.
const FRAME_CHARS: usize = 600;
