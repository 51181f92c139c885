//! The `read` request: whole sections by id, each with one provenance line, packed in order
//! under a token budget and the character cap. What does not fit is named (`left_out`) and
//! handed back as a `cursor` (read it with a larger `max_tokens` when one section is over
//! the budget); a section larger than the server's cap is named in `too_large` with its
//! children's ids. Never half a section, never a silent cut.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::error::{AgentError, AgentResult, err};
use super::outline::served;
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::formats::catalog::{self, Variant};
use crate::model::{NodeId, NodeKind};

/// Default budget of one read, in tokens.
pub const DEFAULT_READ_TOKENS: u64 = 8_000;
/// Most ids one read may name.
pub const MAX_IDS: usize = 200;

/// A read request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadArgs {
    /// Ids (or exact titles) in the order wanted.
    pub ids: Vec<String>,
    /// Budget in tokens (`None`: [`DEFAULT_READ_TOKENS`]); 0 is an error, more than the
    /// server's cap is lowered with a note.
    pub max_tokens: Option<u64>,
    /// A `cursor` from an earlier read: the ids it left out (then `ids` may be empty).
    pub cursor: Option<String>,
    /// `Skill_Seekers` llms variant to read the sections from: `quick`, `standard`,
    /// `complete` or `auto`.
    pub variant: Option<String>,
}

/// One section ready to pack.
struct Piece {
    id: String,
    value: Value,
    tokens: u64,
    chars: usize,
    children: Vec<String>,
}

/// Run `a`: the document is `{"encoding", "generation", "max_tokens", "tokens", "sections":
/// [{"id", "title", "path", "line_start", "line_end", "tokens", "exposure", "provenance",
/// "text"}], "left_out": [id…], "cursor", "next", "too_large": [{"id", "tokens",
/// "children"}], "errors": [{"id", "error"}], "note"}`. Hidden sections are errors (never
/// text); `explicit` ones are served because they were asked for by id. Errors: no ids, too
/// many ids, a bad cursor or variant, `max_tokens` 0.
pub fn read(ws: &Workspace, a: &ReadArgs) -> AgentResult<Value> {
    let mut note: Vec<String> = Vec::new();
    let mut ids = a.ids.clone();
    if let Some(c) = &a.cursor {
        let (generation, rest) = decode_cursor(c)?;
        if generation != ws.generation {
            note.push(
                "the files changed since this cursor was made: its ids were looked up again".into(),
            );
        }
        if ids.is_empty() {
            ids = rest;
        } else {
            return err("pass either ids or cursor, not both");
        }
    }
    if ids.is_empty() {
        return err("ids is empty: pass the ids of sections to read (from search or outline)");
    }
    if ids.len() > MAX_IDS {
        return err(format!(
            "too many ids ({}; at most {MAX_IDS} per read)",
            ids.len()
        ));
    }
    let variant = match a.variant.as_deref() {
        None => None,
        Some(v) => match Variant::parse(v) {
            Some(v) => Some(v),
            None => {
                return err(format!(
                    "unknown variant {v:?} (quick, standard, complete, auto)"
                ));
            }
        },
    };
    let budget = ws.limits().budget(a.max_tokens, DEFAULT_READ_TOKENS)?;
    note.extend(budget.note.clone());
    let mut errors = Vec::new();
    let mut pieces = Vec::new();
    for key in &ids {
        let got = match variant {
            Some(v) => variant_piece(ws, key, v),
            None => section_piece(ws, key),
        };
        match got {
            Ok(p) => pieces.push(p),
            Err(e) => errors.push(json!({"id": key, "error": e.0})),
        }
    }
    // The JSON around the sections, in characters, kept free of the cap.
    let max_chars = ws.limits().max_chars.saturating_sub(2_000);
    let (mut tokens, mut chars) = (0u64, 0usize);
    let mut sections = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    let mut too_large = Vec::new();
    for p in pieces {
        if !left_out.is_empty() {
            left_out.push(p.id);
            continue;
        }
        // Larger than any read may return: only its children can be read.
        if p.tokens > ws.limits().max_tokens || p.chars > max_chars {
            too_large.push(json!({"id": p.id, "tokens": p.tokens, "children": p.children}));
            continue;
        }
        if tokens + p.tokens > budget.tokens || chars + p.chars > max_chars {
            left_out.push(p.id);
            continue;
        }
        tokens += p.tokens;
        chars += p.chars;
        sections.push(p.value);
    }
    let cursor = (!left_out.is_empty()).then(|| encode_cursor(ws.generation, &left_out));
    let next = cursor.as_ref().map(|_| {
        format!(
            "{} section(s) did not fit in {} tokens: call read with cursor to get them",
            left_out.len(),
            budget.tokens
        )
    });
    if !too_large.is_empty() {
        note.push(format!(
            "{} section(s) are larger than this server's limit of {} tokens ({} characters): read their children",
            too_large.len(),
            ws.limits().max_tokens,
            ws.limits().max_chars
        ));
    }
    Ok(json!({
        "encoding": ws.counter().encoding().as_str(),
        "generation": ws.generation,
        "max_tokens": budget.tokens,
        "tokens": tokens,
        "sections": sections,
        "left_out": left_out,
        "cursor": cursor,
        "next": next,
        "too_large": too_large,
        "errors": errors,
        "note": if note.is_empty() { Value::Null } else { json!(note.join("; ")) },
    }))
}

/// The section `key`: its text without hidden sub-sections.
fn section_piece(ws: &Workspace, key: &str) -> AgentResult<Piece> {
    let corpus = &ws.corpus;
    let id = served(ws, key)?;
    let n = corpus.node(id);
    if n.span.is_none() {
        let kids: Vec<&str> = n
            .children
            .iter()
            .map(|c| corpus.node(*c).id.as_str())
            .take(20)
            .collect();
        return err(format!(
            "{} is a {} without text of its own: read its children ({})",
            n.id,
            n.kind.as_str(),
            kids.join(", ")
        ));
    }
    let text = ws.exposure.visible_text(corpus, id);
    let tokens = match &text {
        std::borrow::Cow::Borrowed(_) => ws.tokens_of(id),
        std::borrow::Cow::Owned(t) => ws.counter().count(t),
    };
    Ok(piece(ws, id, &text, tokens))
}

fn piece(ws: &Workspace, id: NodeId, text: &str, tokens: u64) -> Piece {
    let corpus = &ws.corpus;
    let n = corpus.node(id);
    let lines = match (n.line_start, n.line_end) {
        (Some(a), Some(b)) => format!(" lines {a}-{b}"),
        (Some(a), None) => format!(" line {a}"),
        _ => String::new(),
    };
    let provenance = format!(
        "{} · {}{lines} · {tokens} tokens ({})",
        n.id,
        n.path,
        ws.counter().encoding()
    );
    let text = text.replace('\u{1A}', "\u{FFFD}");
    let value = json!({
        "id": n.id,
        "title": n.title,
        "path": n.path,
        "line_start": n.line_start,
        "line_end": n.line_end,
        "tokens": tokens,
        "exposure": ws.exposure.level(corpus, id).as_str(),
        "provenance": provenance,
        "text": text,
    });
    let chars = value.to_string().chars().count();
    let children = n
        .children
        .iter()
        .filter(|c| ws.exposure.level(corpus, **c) != Exposure::Hidden)
        .map(|c| corpus.node(*c).id.clone())
        .collect();
    Piece {
        id: n.id.clone(),
        value,
        tokens,
        chars,
        children,
    }
}

/// The section `key` in llms variant `v` of a `Skill_Seekers` (or catalog) skill, as
/// `skillnav show --variant` prints it.
fn variant_piece(ws: &Workspace, key: &str, v: Variant) -> AgentResult<Piece> {
    let corpus = &ws.corpus;
    let skills: Vec<NodeId> = corpus
        .all_preorder()
        .into_iter()
        .filter(|n| corpus.node(*n).kind == NodeKind::Skill)
        .collect();
    let scopes = if skills.is_empty() {
        corpus.roots.clone()
    } else {
        skills
    };
    let mut last = None;
    for skill in scopes {
        if ws.exposure.level(corpus, skill) == Exposure::Hidden {
            continue;
        }
        match catalog::show_section(corpus, skill, key, v) {
            Ok(shown) => {
                let nodes: Vec<NodeId> = shown
                    .nodes
                    .iter()
                    .copied()
                    .filter(|n| ws.exposure.level(corpus, *n) != Exposure::Hidden)
                    .collect();
                let Some(first) = nodes.first().copied() else {
                    return err(format!("{key:?} is hidden: not served"));
                };
                let text: Vec<&str> = nodes.iter().map(|n| corpus.text(*n)).collect();
                let text = text.join("\n");
                let tokens = ws.counter().count(&text);
                let mut p = piece(ws, first, &text, tokens);
                p.value["variant"] = json!(shown.variant.as_str());
                p.value["ids"] = json!(
                    nodes
                        .iter()
                        .map(|n| corpus.node(*n).id.clone())
                        .collect::<Vec<_>>()
                );
                return Ok(p);
            }
            Err(e) => last = Some(e.to_string()),
        }
    }
    err(last.unwrap_or_else(|| "nothing loaded".into()))
}

/// A cursor: the generation and the ids left out, as URL-safe base64 of a JSON array.
pub fn encode_cursor(generation: u64, ids: &[String]) -> String {
    URL_SAFE_NO_PAD.encode(json!([generation, ids]).to_string())
}

/// The generation and ids of a cursor made by [`encode_cursor`].
pub fn decode_cursor(c: &str) -> AgentResult<(u64, Vec<String>)> {
    let bad = || {
        AgentError(format!(
            "cursor {c:?} is not one this server made: pass the cursor of the last read"
        ))
    };
    let bytes = URL_SAFE_NO_PAD.decode(c.trim()).map_err(|_| bad())?;
    let v: (u64, Vec<String>) = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_foreign_ones_are_refused() {
        let ids = vec!["a/b.md#c".to_string(), "d".to_string()];
        let c = encode_cursor(3, &ids);
        assert_eq!(decode_cursor(&c), Ok((3, ids)));
        assert!(decode_cursor("not a cursor").is_err());
    }
}
