//! The `read` request: sections by id, each with one provenance line, packed in order under
//! a token budget and the character cap (docs/MCP.md "Result size caps"). A section that
//! fits is served whole; one that does not fit beside the sections already packed waits for
//! the next reply (named in `left_out`, handed back as a `cursor`); one larger than a whole
//! reply is served in passages ([`super::passage`]) whose texts concatenate into its exact
//! text, the cursor pointing at the next byte. An id without text of its own (a folder, a
//! root) is read as the texts under it, file by file in tree order, the cursor counting the
//! files served. Every reply that hands back a cursor serves at least one byte the one
//! before did not, so following cursors always ends. Never a silent cut.

use std::borrow::Cow;
use std::ops::Range;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::error::{AgentError, AgentResult, err};
use super::outline::{link_target, served};
use super::passage::{self, Measure};
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::formats::catalog::{self, Variant};
use crate::model::{NodeId, NodeKind};

/// Default budget of one read, in tokens.
pub const DEFAULT_READ_TOKENS: u64 = 8_000;
/// Most ids one read may name.
pub const MAX_IDS: usize = 200;
/// Characters kept free in a section entry for numbers that grow once a passage's range
/// is known (offsets, lines, tokens).
const ENTRY_SLACK: usize = 120;
/// Fewest characters a reply must have left for text once its ids, errors and cursor are
/// written; fewer is an error asking for fewer ids.
const MIN_TEXT_ROOM: usize = 2_000;
/// Most texts one reply takes from under one folder id (each is a section entry); the
/// cursor continues with the next.
pub const MAX_FOLDER_TEXTS: usize = 200;

/// A read request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadArgs {
    /// Ids (or exact titles) in the order wanted.
    pub ids: Vec<String>,
    /// Budget in tokens (`None`: [`DEFAULT_READ_TOKENS`]); 0 is an error, more than the
    /// server's cap is lowered with a note.
    pub max_tokens: Option<u64>,
    /// A `cursor` from an earlier read: where it stopped (then `ids` must be empty).
    pub cursor: Option<String>,
    /// `Skill_Seekers` llms variant to read the sections from: `quick`, `standard`,
    /// `complete` or `auto` (a cursor carries the variant it was made with).
    pub variant: Option<String>,
}

/// Where a read resumes: the decoded form of a `cursor` (docs/MCP.md "Cursors").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The workspace generation the cursor was made in.
    pub generation: u64,
    /// The ids (as asked) still to read, in order.
    pub keys: Vec<String>,
    /// Texts under the first key already served whole, when it is a folder (0 otherwise):
    /// the reply resumes at its text of this number, in tree order.
    pub file: usize,
    /// Bytes of the first key's text (of a folder: of its text numbered `file`) already
    /// served (0: from its start); always a character boundary of that text.
    pub offset: usize,
    /// FNV-1a 64 of the first text's bytes before `offset` (0 when `offset` is 0): a
    /// changed text is read again from its start instead of continuing mid-way.
    pub check: u64,
    /// The llms variant the read used, if any.
    pub variant: Option<String>,
    /// The `max_tokens` the read that made the cursor was asked for (`None`: the default):
    /// a read by cursor without its own `max_tokens` keeps that budget.
    pub max_tokens: Option<u64>,
}

/// One section (or variant text) ready to pack.
struct Piece<'w> {
    /// The key as asked (what a cursor carries).
    key: String,
    /// The key's place in the request's keys.
    key_ix: usize,
    /// The text's number under its key when the key is a folder (`None`: the key's own
    /// text).
    file: Option<usize>,
    /// The node whose id, title and path the entry shows.
    node: NodeId,
    /// The visible text as stored (hidden sub-sections cut out).
    text: Cow<'w, str>,
    /// Tokens of the whole `text`.
    tokens: u64,
    /// Whether `text` is the node's own span, so a passage's line numbers can be counted.
    exact_lines: bool,
    /// For variant reads: the variant used and the ids of the nodes joined.
    variant: Option<(String, Vec<String>)>,
}

/// What the packing produced.
#[derive(Default)]
struct Packed {
    sections: Vec<Value>,
    tokens: u64,
    chars: usize,
    /// The piece index and byte offset the next reply starts at.
    resume: Option<(usize, usize)>,
}

/// The pieces of a request, the errors of keys without any, and where gathering stopped
/// early: a folder with more texts than one reply takes, whose later texts and keys wait
/// for the cursor.
struct Gathered<'w> {
    pieces: Vec<Piece<'w>>,
    errors: Vec<Value>,
    /// Keys (by place) that have an error entry.
    failed: Vec<usize>,
    /// The folder key (by place) cut after its last piece, and the number of its next text.
    cut: Option<(usize, usize)>,
}

/// Run `a`: the document is `{"encoding", "generation", "max_tokens", "tokens", "sections":
/// [{"id", "title", "path", "line_start", "line_end", "tokens", "exposure", "provenance",
/// "text", "passage"?}], "left_out": [id…], "cursor", "next", "errors": [{"id", "error"}],
/// "note"}`. `tokens` are the served texts' tokens in the workspace's encoding; a
/// `passage` (`{"from", "to", "bytes", "last"}`, byte offsets into the section's text)
/// marks an entry holding part of a section. The whole document stays under the server's
/// character cap. Hidden sections are errors (never text); `explicit` ones are served
/// because they were asked for by id. Errors: no ids, too many ids (or ids so long that
/// no text would fit), ids and cursor both, a bad cursor or variant, `max_tokens` 0.
pub fn read(ws: &Workspace, a: &ReadArgs) -> AgentResult<Value> {
    let mut note: Vec<String> = Vec::new();
    let cursor = request(ws, a, &mut note)?;
    let variant = parse_variant(cursor.variant.as_deref())?;
    let budget = ws.limits().budget(cursor.max_tokens, DEFAULT_READ_TOKENS)?;
    note.extend(budget.note.clone());
    let got = gather(ws, &cursor, variant, budget.tokens);
    let start = resume_offset(&got.pieces, &cursor, &mut note);
    let room = text_room(ws, &cursor, &got)?;
    let packed = pack(ws, &got.pieces, start, budget.tokens, room);
    let (left_out, next_cursor, next) = continuation(ws, &cursor, &got, &packed);
    Ok(json!({
        "encoding": ws.counter().encoding().as_str(),
        "generation": ws.generation,
        "max_tokens": budget.tokens,
        "tokens": packed.tokens,
        "sections": packed.sections,
        "left_out": left_out,
        "cursor": next_cursor,
        "next": next,
        "errors": got.errors,
        "note": if note.is_empty() { Value::Null } else { json!(note.join("; ")) },
    }))
}

/// The keys, offset and variant of `a`: its ids, or its cursor's. Errors: ids and cursor
/// both, neither, too many ids, a cursor this server did not make.
fn request(ws: &Workspace, a: &ReadArgs, note: &mut Vec<String>) -> AgentResult<Cursor> {
    let mut c = Cursor {
        generation: ws.generation,
        keys: a.ids.clone(),
        variant: a.variant.clone(),
        max_tokens: a.max_tokens,
        ..Cursor::default()
    };
    if let Some(text) = &a.cursor {
        if !a.ids.is_empty() {
            return err("pass either ids or cursor, not both");
        }
        let given = decode_cursor(text)?;
        if given.generation != ws.generation {
            note.push(
                "the files changed since this cursor was made: its ids were looked up again".into(),
            );
        }
        let variant = a.variant.clone().or(given.variant.clone());
        let max_tokens = a.max_tokens.or(given.max_tokens);
        c = Cursor {
            variant,
            max_tokens,
            ..given
        };
    }
    if c.keys.is_empty() {
        return err("ids is empty: pass the ids of sections to read (from search or outline)");
    }
    if c.keys.len() > MAX_IDS {
        return err(format!(
            "too many ids ({}; at most {MAX_IDS} per read)",
            c.keys.len()
        ));
    }
    Ok(c)
}

fn parse_variant(v: Option<&str>) -> AgentResult<Option<Variant>> {
    match v {
        None => Ok(None),
        Some(v) => match Variant::parse(v) {
            Some(v) => Ok(Some(v)),
            None => err(format!(
                "unknown variant {v:?} (quick, standard, complete, auto)"
            )),
        },
    }
}

/// The pieces of `c`'s keys in order (a folder key's texts from its cursor's `file` on when
/// it is the first key), and an error entry for each key that has none. Gathering stops
/// after a folder cut to what `budget` tokens can take ([`folder_pieces`]).
fn gather<'w>(
    ws: &'w Workspace,
    c: &Cursor,
    variant: Option<Variant>,
    budget: u64,
) -> Gathered<'w> {
    let mut got = Gathered {
        pieces: Vec::new(),
        errors: Vec::new(),
        failed: Vec::new(),
        cut: None,
    };
    for (ix, key) in c.keys.iter().enumerate() {
        let skip = if ix == 0 { c.file } else { 0 };
        let pieces = match variant {
            Some(v) => variant_piece(ws, key, v).map(|p| (vec![p], None)),
            None => key_pieces(ws, key, skip, budget),
        };
        match pieces {
            Ok((mut pieces, cut)) => {
                for p in &mut pieces {
                    p.key_ix = ix;
                }
                got.pieces.append(&mut pieces);
                if let Some(next) = cut {
                    got.cut = Some((ix, next));
                    unknown_after(ws, c, ix, &mut got);
                    break;
                }
            }
            Err(e) => {
                got.errors.push(json!({"id": key, "error": e.0}));
                got.failed.push(ix);
            }
        }
    }
    got
}

/// Error entries, in this reply already, for the keys after place `cut` (a folder whose
/// later texts wait for the cursor) that name no served node: they are not gathered yet,
/// but an unknown id is said at once rather than when the cursor reaches it.
fn unknown_after(ws: &Workspace, c: &Cursor, cut: usize, got: &mut Gathered<'_>) {
    for (ix, key) in c.keys.iter().enumerate().skip(cut + 1) {
        if let Err(e) = served(ws, key) {
            got.errors.push(json!({"id": key, "error": e.0}));
            got.failed.push(ix);
        }
    }
}

/// The byte offset the first piece resumes at: the cursor's, when the first piece is the
/// cursor's first key and its text before the offset is unchanged; else 0 (with a note
/// when a changed text is read again from its start).
fn resume_offset(pieces: &[Piece<'_>], c: &Cursor, note: &mut Vec<String>) -> usize {
    let Some(first) = pieces.first() else {
        return 0;
    };
    if c.offset == 0 || first.key_ix != 0 || first.file.unwrap_or(0) != c.file {
        return 0;
    }
    let text = first.text.as_bytes();
    if c.offset <= text.len()
        && first.text.is_char_boundary(c.offset)
        && fnv1a(&text[..c.offset]) == c.check
    {
        return c.offset;
    }
    note.push(format!(
        "{} changed since this cursor was made: it is read again from its start",
        first.key
    ));
    0
}

/// Characters left for section entries once the rest of the reply is written: the
/// server's cap less the document with every piece left out (the largest `left_out` and
/// cursor this reply can have), its errors and notes. Errors: less than
/// [`MIN_TEXT_ROOM`] left.
fn text_room(ws: &Workspace, c: &Cursor, got: &Gathered<'_>) -> AgentResult<usize> {
    let mut ids: Vec<String> = got.pieces.iter().map(|p| ws.corpus.id(p.node)).collect();
    if let Some((k, _)) = got.cut {
        ids.extend(c.keys[k..].iter().cloned());
    }
    let widest = Cursor {
        generation: ws.generation,
        keys: c.keys.clone(),
        file: usize::MAX,
        offset: usize::MAX,
        check: u64::MAX,
        variant: c.variant.clone(),
        max_tokens: Some(u64::MAX),
    };
    let skeleton = json!({
        "encoding": ws.counter().encoding().as_str(), "generation": u64::MAX,
        "max_tokens": u64::MAX, "tokens": u64::MAX, "sections": [],
        "left_out": ids, "cursor": encode_cursor(&widest), "next": "",
        "errors": got.errors, "note": "",
    });
    // Notes and the `next` line: short sentences naming at most one id each; commas
    // between entries.
    let longest = ids.iter().map(|i| i.chars().count()).max().unwrap_or(0);
    let reserve = skeleton.to_string().chars().count() + 1_000 + 3 * longest + 2 * got.pieces.len();
    let room = ws.limits().max_chars.saturating_sub(reserve);
    if room < MIN_TEXT_ROOM {
        return err(format!(
            "these {} ids leave no room for text under this server's limit of {} characters: pass fewer ids",
            c.keys.len(),
            ws.limits().max_chars
        ));
    }
    Ok(room)
}

/// Pack `pieces` (the first from byte `start`) under `budget` tokens and `room`
/// characters: whole while they fit; the first entry of a reply is served as a passage
/// when it does not fit whole; anything after waits for the next reply.
fn pack(ws: &Workspace, pieces: &[Piece<'_>], start: usize, budget: u64, room: usize) -> Packed {
    let mut out = Packed::default();
    for (i, p) in pieces.iter().enumerate() {
        let from = if i == 0 { start } else { 0 };
        let tokens_left = budget.saturating_sub(out.tokens);
        let chars_left = room.saturating_sub(out.chars);
        let placed = whole_rest(ws, p, from, tokens_left, chars_left).or_else(|| {
            out.sections
                .is_empty()
                .then(|| passage_of(ws, p, from, tokens_left, chars_left))
        });
        let Some((value, tokens, end)) = placed else {
            out.resume = Some((i, from));
            break;
        };
        out.tokens += tokens;
        out.chars += value.to_string().chars().count() + 1;
        out.sections.push(value);
        if end < p.text.len() {
            out.resume = Some((i, end));
            break;
        }
    }
    out
}

/// The entry of `p`'s text from byte `from` to its end, with its tokens and end, when it
/// fits in `tokens_left` and `chars_left`.
fn whole_rest(
    ws: &Workspace,
    p: &Piece<'_>,
    from: usize,
    tokens_left: u64,
    chars_left: usize,
) -> Option<(Value, u64, usize)> {
    let len = p.text.len();
    let frame = entry(ws, p, from..from, 0).to_string().chars().count() + ENTRY_SLACK;
    if frame + Measure::JsonChars.of(&p.text[from..]) > chars_left {
        return None;
    }
    let tokens = if from == 0 {
        p.tokens
    } else {
        ws.counter().count(&p.text[from..])
    };
    (tokens <= tokens_left).then(|| (entry(ws, p, from..len, tokens), tokens, len))
}

/// The entry of the passage of `p` from byte `from` that fits `tokens_left` and
/// `chars_left` ([`passage::fit`]), with its tokens and end.
fn passage_of(
    ws: &Workspace,
    p: &Piece<'_>,
    from: usize,
    tokens_left: u64,
    chars_left: usize,
) -> (Value, u64, usize) {
    let frame = entry(ws, p, from..from, 0).to_string().chars().count() + ENTRY_SLACK;
    let max = chars_left.saturating_sub(frame).max(1);
    let (cut, tokens) = passage::fit(
        &p.text,
        from,
        max,
        Measure::JsonChars,
        tokens_left,
        ws.counter(),
    );
    (entry(ws, p, from..cut.end, tokens), tokens, cut.end)
}

/// `left_out`, `cursor` and `next` of a reply: the ids still to read from where the
/// packing stopped (or from a cut folder's next text), or nothing when everything was
/// served. `left_out` names the sections gathered and not served, then a cut folder's id
/// (for its texts not gathered yet), then the keys not gathered after it.
fn continuation(
    ws: &Workspace,
    c: &Cursor,
    got: &Gathered<'_>,
    packed: &Packed,
) -> (Vec<String>, Option<String>, Option<String>) {
    let (at, file, offset, check) = match (packed.resume, got.cut) {
        (Some((i, offset)), _) => {
            let p = &got.pieces[i];
            let check = if offset == 0 {
                0
            } else {
                fnv1a(&p.text.as_bytes()[..offset])
            };
            (i, p.file.unwrap_or(0), offset, check)
        }
        (None, Some((_, next))) => (got.pieces.len(), next, 0, 0),
        (None, None) => return (Vec::new(), None, None),
    };
    let key_ix = got
        .pieces
        .get(at)
        .map_or_else(|| got.cut.map_or(0, |(k, _)| k), |p| p.key_ix);
    let cursor = Cursor {
        generation: ws.generation,
        keys: (key_ix..c.keys.len())
            .filter(|k| !got.failed.contains(k))
            .map(|k| c.keys[k].clone())
            .collect(),
        file,
        offset,
        check,
        variant: c.variant.clone(),
        max_tokens: c.max_tokens,
    };
    let mut ids: Vec<String> = got.pieces[at..]
        .iter()
        .map(|p| ws.corpus.id(p.node))
        .collect();
    if let Some((k, _)) = got.cut {
        let waiting = (k..c.keys.len()).filter(|i| !got.failed.contains(i));
        ids.extend(waiting.map(|i| c.keys[i].clone()));
    }
    let next = match got.pieces.get(at) {
        Some(p) if offset > 0 => format!(
            "{} is served in passages: {offset} of its {} bytes so far; call read with cursor for the next passage ({} section(s) to go)",
            ids[0],
            p.text.len(),
            ids.len()
        ),
        _ => format!(
            "{} section(s) did not fit in this reply: call read with cursor to get them",
            ids.len()
        ),
    };
    (ids, Some(encode_cursor(&cursor)), Some(next))
}

/// The pieces of `key`: its text without hidden sub-sections, or for a node without text
/// of its own, its texts from number `skip` on ([`folder_pieces`]) and, when they were cut
/// short, the number of the next one.
fn key_pieces<'w>(
    ws: &'w Workspace,
    key: &str,
    skip: usize,
    budget: u64,
) -> AgentResult<(Vec<Piece<'w>>, Option<usize>)> {
    let id = link_target(ws, key, served(ws, key)?)?;
    if ws.corpus.node(id).span.is_some() {
        return Ok((vec![section_piece(ws, key, id, None)], None));
    }
    folder_pieces(ws, key, id, skip, budget)
}

/// The texts under `id`, a node without text of its own (a folder, a root): each outermost
/// node with text (a file; a section of a file without text of its own) that is not hidden,
/// in tree order. Nothing under it is an error.
fn text_units(ws: &Workspace, key: &str, id: NodeId) -> AgentResult<Vec<NodeId>> {
    let corpus = &ws.corpus;
    let mut out = Vec::new();
    let mut stack: Vec<NodeId> = corpus.node(id).children.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        if ws.exposure.level(corpus, n) == Exposure::Hidden {
            continue;
        }
        let node = corpus.node(n);
        if node.span.is_some() {
            out.push(n);
        } else {
            stack.extend(node.children.iter().rev().copied());
        }
    }
    if out.is_empty() {
        return err(format!(
            "{key} is a {} with no text under it",
            corpus.node(id).kind.as_str()
        ));
    }
    Ok(out)
}

/// The pieces of the texts under folder `id` ([`text_units`]) from number `skip` on, while
/// their tokens stay within `budget` (the text that passes it included: the reply stops
/// there) and at most [`MAX_FOLDER_TEXTS`] of them; with the number of the next text when
/// some are left. A `skip` past the end gives none.
fn folder_pieces<'w>(
    ws: &'w Workspace,
    key: &str,
    id: NodeId,
    skip: usize,
    budget: u64,
) -> AgentResult<(Vec<Piece<'w>>, Option<usize>)> {
    let units = text_units(ws, key, id)?;
    if skip >= units.len() {
        return err(format!(
            "the cursor points past the last text of {key:?} (it has {}): read {key:?} without a cursor to start over",
            units.len()
        ));
    }
    let mut pieces = Vec::new();
    let mut tokens = 0u64;
    for (i, n) in units.iter().enumerate().skip(skip) {
        if tokens > budget || pieces.len() == MAX_FOLDER_TEXTS {
            return Ok((pieces, Some(i)));
        }
        let p = section_piece(ws, key, *n, Some(i));
        tokens += p.tokens;
        pieces.push(p);
    }
    Ok((pieces, None))
}

/// The piece of node `id` asked for as `key` (text number `file` under it when `key` is a
/// folder): its text without hidden sub-sections.
fn section_piece<'w>(ws: &'w Workspace, key: &str, id: NodeId, file: Option<usize>) -> Piece<'w> {
    let text = ws.exposure.visible_text(&ws.corpus, id);
    let (tokens, exact_lines) = match &text {
        Cow::Borrowed(_) => (ws.tokens_of(id), true),
        Cow::Owned(t) => (ws.counter().count(t), false),
    };
    Piece {
        key: key.to_string(),
        key_ix: 0,
        file,
        node: id,
        text,
        tokens,
        exact_lines,
        variant: None,
    }
}

/// The entry of `p`'s text bytes `range` holding `tokens` tokens: the whole section, or a
/// passage of it (with `passage` and, when countable, the passage's own line range).
fn entry(ws: &Workspace, p: &Piece<'_>, range: Range<usize>, tokens: u64) -> Value {
    let corpus = &ws.corpus;
    let n = corpus.node(p.node);
    let len = p.text.len();
    let part = range.start > 0 || range.end < len;
    let (mut first, mut last) = (n.line_start, n.line_end);
    if part && p.exact_lines {
        let head = &p.text[..range.start];
        let body = &p.text[range.clone()];
        let lines_in = |t: &str| u32::try_from(t.matches('\n').count()).unwrap_or(u32::MAX);
        let (before, inside) = (lines_in(head), lines_in(body.trim_end_matches('\n')));
        first = n.line_start.map(|l| l.saturating_add(before));
        last = first.map(|l| l.saturating_add(inside));
    }
    let lines = match (first, last) {
        (Some(a), Some(b)) => format!(" lines {a}-{b}"),
        (Some(a), None) => format!(" line {a}"),
        _ => String::new(),
    };
    let bytes = if part {
        format!(" · bytes {}-{} of {len}", range.start, range.end)
    } else {
        String::new()
    };
    let provenance = format!(
        "{} · {}{lines}{bytes} · {tokens} tokens ({})",
        corpus.id(p.node),
        n.path,
        ws.counter().encoding()
    );
    let mut value = json!({
        "id": corpus.id(p.node),
        "title": n.title,
        "path": n.path,
        "line_start": first,
        "line_end": last,
        "tokens": tokens,
        "exposure": ws.exposure.level(corpus, p.node).as_str(),
        "provenance": provenance,
        "text": p.text[range.clone()].replace('\u{1A}', "\u{FFFD}"),
    });
    if part {
        value["passage"] =
            json!({"from": range.start, "to": range.end, "bytes": len, "last": range.end == len});
    }
    if let Some((v, ids)) = &p.variant {
        value["variant"] = json!(v);
        value["ids"] = json!(ids);
    }
    value
}

/// The section `key` in llms variant `v` of a `Skill_Seekers` (or catalog) skill, as
/// `skillnav show --variant` prints it.
fn variant_piece<'w>(ws: &'w Workspace, key: &str, v: Variant) -> AgentResult<Piece<'w>> {
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
                let ids = nodes.iter().map(|n| corpus.id(*n)).collect();
                return Ok(Piece {
                    key: key.to_string(),
                    key_ix: 0,
                    file: None,
                    node: first,
                    tokens: ws.counter().count(&text),
                    text: Cow::Owned(text),
                    exact_lines: false,
                    variant: Some((shown.variant.as_str().to_string(), ids)),
                });
            }
            Err(e) => last = Some(e.to_string()),
        }
    }
    err(last.unwrap_or_else(|| "nothing loaded".into()))
}

/// FNV-1a, 64 bits, of `bytes`: a cursor's check of the text it already served.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A cursor as text: URL-safe base64 (no padding) of the JSON array `[generation, [key…],
/// offset, check, variant, file, max_tokens]` (docs/MCP.md "Cursors").
pub fn encode_cursor(c: &Cursor) -> String {
    let wire = json!([
        c.generation,
        c.keys,
        c.offset,
        c.check,
        c.variant,
        c.file,
        c.max_tokens
    ]);
    URL_SAFE_NO_PAD.encode(wire.to_string())
}

/// The cursor [`encode_cursor`] made, or one of its older forms: six elements (before it
/// carried `max_tokens`: the default budget), five (before folders were read: `file` 0), or
/// two, `[generation, [key…]]` (before passages: from the first key's start). Errors:
/// anything else.
pub fn decode_cursor(c: &str) -> AgentResult<Cursor> {
    let bad = || {
        AgentError(format!(
            "cursor {c:?} is not one this server made: pass the cursor of the last read"
        ))
    };
    let bytes = URL_SAFE_NO_PAD.decode(c.trim()).map_err(|_| bad())?;
    let parts: Vec<Value> = serde_json::from_slice(&bytes).map_err(|_| bad())?;
    // `[generation, keys, offset, check, variant, file, max_tokens]`, or one of its older
    // forms: the first 2, 5 or 6 elements (the missing ones at their defaults).
    if !matches!(parts.len(), 2 | 5 | 6 | 7) {
        return Err(bad());
    }
    Ok(Cursor {
        generation: part(&parts, 0).ok_or_else(bad)?,
        keys: part(&parts, 1).ok_or_else(bad)?,
        offset: part(&parts, 2).ok_or_else(bad)?,
        check: part(&parts, 3).ok_or_else(bad)?,
        variant: part(&parts, 4).ok_or_else(bad)?,
        file: part(&parts, 5).ok_or_else(bad)?,
        max_tokens: part(&parts, 6).ok_or_else(bad)?,
    })
}

/// Element `i` of a cursor's array read as `T`: its default when the array is shorter,
/// `None` when the element is not a `T`.
fn part<T: serde::de::DeserializeOwned + Default>(parts: &[Value], i: usize) -> Option<T> {
    match parts.get(i) {
        None => Some(T::default()),
        Some(v) => T::deserialize(v).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_foreign_ones_are_refused() {
        let c = Cursor {
            generation: 3,
            keys: vec!["a/b.md#c".to_string(), "d".to_string()],
            file: 7,
            offset: 1_234,
            check: fnv1a(b"abc"),
            variant: Some("quick".into()),
            max_tokens: Some(50),
        };
        assert_eq!(decode_cursor(&encode_cursor(&c)), Ok(c));
        assert!(decode_cursor("not a cursor").is_err());
        let six = URL_SAFE_NO_PAD.encode(r#"[5,["z"],3,9,null,2]"#);
        let want = Cursor {
            generation: 5,
            keys: vec!["z".into()],
            file: 2,
            offset: 3,
            check: 9,
            ..Cursor::default()
        };
        assert_eq!(decode_cursor(&six), Ok(want));
        let five = URL_SAFE_NO_PAD.encode(r#"[4,["y"],12,99,null]"#);
        let want = Cursor {
            generation: 4,
            keys: vec!["y".into()],
            offset: 12,
            check: 99,
            ..Cursor::default()
        };
        assert_eq!(decode_cursor(&five), Ok(want));
        let old = URL_SAFE_NO_PAD.encode(r#"[2,["x"]]"#);
        let want = Cursor {
            generation: 2,
            keys: vec!["x".into()],
            ..Cursor::default()
        };
        assert_eq!(decode_cursor(&old), Ok(want));
    }

    #[test]
    fn a_folder_of_more_texts_than_one_reply_takes_goes_on_at_the_next_text() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..230 {
            let path = tmp.path().join(format!("n{i:03}.md"));
            std::fs::write(path, format!("note {i}\n")).unwrap();
        }
        let mut config = crate::agent::outline::tree_tests::config(tmp.path());
        config.limits.max_chars = 1_000_000;
        let ws = Workspace::open(config);
        let a = ReadArgs {
            ids: vec!["isa".into(), "no/such".into(), "isa/n000.md".into()],
            max_tokens: Some(20_000),
            ..ReadArgs::default()
        };
        let first = read(&ws, &a).unwrap();
        let texts = |v: &Value| -> Vec<String> {
            v["sections"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|s| s["text"].as_str().unwrap_or_default().to_string())
                .collect()
        };
        let served = texts(&first);
        assert_eq!(
            (served.len(), served[199].as_str()),
            (MAX_FOLDER_TEXTS, "note 199\n")
        );
        // An unknown id after the folder is said in the first reply, not when the cursor
        // reaches it.
        assert_eq!(first["left_out"], json!(["isa", "isa/n000.md"]));
        assert_eq!(first["errors"][0]["id"], json!("no/such"));
        let c = decode_cursor(first["cursor"].as_str().unwrap()).unwrap();
        assert_eq!((c.keys.len(), c.file, c.offset), (2, 200, 0));
        let a = ReadArgs {
            cursor: first["cursor"].as_str().map(str::to_string),
            max_tokens: Some(20_000),
            ..ReadArgs::default()
        };
        let rest = read(&ws, &a).unwrap();
        let served = texts(&rest);
        assert_eq!(served.len(), 31);
        assert_eq!(
            (served[0].as_str(), served[30].as_str()),
            ("note 200\n", "note 0\n")
        );
        assert_eq!(rest["cursor"], Value::Null);
        // A hand-edited cursor past the folder's last text is said, not skipped silently.
        let past = encode_cursor(&Cursor { file: 230, ..c });
        let a = ReadArgs {
            cursor: Some(past),
            ..ReadArgs::default()
        };
        let v = read(&ws, &a).unwrap();
        assert_eq!(v["errors"][0]["id"], json!("isa"));
        let msg = v["errors"][0]["error"].as_str().unwrap_or_default();
        assert!(
            msg.starts_with("the cursor points past the last text of \"isa\" (it has 230)"),
            "{v}"
        );
        assert_eq!(texts(&v), vec!["note 0\n".to_string()]);
    }

    #[test]
    fn a_cursor_keeps_the_max_tokens_of_the_read_that_made_it() {
        let tmp = tempfile::tempdir().unwrap();
        let para = "word ".repeat(40);
        let text = format!("# Big\n\n{}", format!("{para}\n\n").repeat(60));
        std::fs::write(tmp.path().join("big.md"), &text).unwrap();
        let ws = Workspace::open(crate::agent::outline::tree_tests::config(tmp.path()));
        let first = read(
            &ws,
            &ReadArgs {
                ids: vec!["isa/big.md".into()],
                max_tokens: Some(200),
                ..ReadArgs::default()
            },
        )
        .unwrap();
        let by_cursor = |cursor: &Value, max_tokens: Option<u64>| {
            read(
                &ws,
                &ReadArgs {
                    cursor: cursor.as_str().map(str::to_string),
                    max_tokens,
                    ..ReadArgs::default()
                },
            )
            .unwrap()
        };
        let second = by_cursor(&first["cursor"], None);
        assert_eq!(second["max_tokens"], json!(200), "{second}");
        assert!(second["tokens"].as_u64().unwrap() <= 200, "{second}");
        // A max_tokens given with the cursor still wins, and the next cursor carries it.
        let third = by_cursor(&second["cursor"], Some(400));
        assert_eq!(third["max_tokens"], json!(400));
        let fourth = by_cursor(&third["cursor"], None);
        assert_eq!(fourth["max_tokens"], json!(400));
    }

    #[test]
    fn a_link_reads_as_the_file_it_links_to_and_a_link_out_of_the_root_says_how_to_read_it() {
        let tmp = tempfile::tempdir().unwrap();
        let docs = tmp.path().join("docs");
        std::fs::create_dir_all(&docs).unwrap();
        std::fs::write(docs.join("real.md"), "# Real\n\nThe text.\n").unwrap();
        std::fs::write(tmp.path().join("outside.md"), "# Out\n").unwrap();
        std::os::unix::fs::symlink("real.md", docs.join("link.md")).unwrap();
        std::os::unix::fs::symlink("../outside.md", docs.join("out.md")).unwrap();
        let ws = Workspace::open(crate::agent::outline::tree_tests::config(&docs));
        let root = ws.corpus.id(ws.corpus.roots[0]);
        let v = read(
            &ws,
            &ReadArgs {
                ids: vec![format!("{root}/link.md"), format!("{root}/out.md")],
                ..ReadArgs::default()
            },
        )
        .unwrap();
        assert_eq!(
            v["sections"][0]["id"],
            json!(format!("{root}/real.md")),
            "{v}"
        );
        assert_eq!(v["sections"][0]["text"], json!("# Real\n\nThe text.\n"));
        let msg = v["errors"][0]["error"].as_str().unwrap_or_default();
        assert!(
            msg.ends_with("start the server with --follow-links to read it"),
            "{v}"
        );
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
