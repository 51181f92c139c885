//! Splicing frontmatter edits into a file's raw bytes (docs/DESIGN.md §9): only the lines
//! of the edited key change; other keys, comments, quoting, block scalars, blank lines, the
//! BOM, line endings and the body (even bytes that are not UTF-8) stay byte-identical.
//! Every edit is re-parsed and checked to read back as the value asked for.

use std::ops::Range;

use super::entry::{Value, ValueStyle};
use super::guard;
use super::lines::{line_start_before, next_break};
use super::parse::{KeyNode, Parsed, parse_tree};
use super::quote::{self, BlockText, Context, Quoting};
use super::strict::verify_strict;
use crate::error::{Error, Result};

/// A new value for a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditValue {
    /// A string; one containing `\n` is written as a block scalar (`|`, `|-`, `|+`, or the
    /// entry's own `>` style) with the entry's indentation.
    Str(String),
    /// A list of strings (flow `[a, b]`, or `- a` lines when the entry already was one).
    List(Vec<String>),
}

impl EditValue {
    fn as_value(&self) -> Value {
        match self {
            Self::Str(s) => Value::Str(s.clone()),
            Self::List(l) => Value::List(l.clone()),
        }
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";
/// Content width used when wrapping a folded (`>`) block.
const FOLD_WIDTH: usize = 80;

/// The longest valid UTF-8 prefix of `bytes` (the frontmatter must lie inside it).
pub(crate) fn text_prefix(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}

/// Parse the frontmatter of raw file bytes. `Ok(None)` when there is none; an error when it
/// never closes (or holds bytes that are not UTF-8), since no edit can be placed safely.
pub(crate) fn parse_bytes(bytes: &[u8]) -> Result<Option<Parsed>> {
    let text = text_prefix(bytes);
    match parse_tree(text) {
        None => Ok(None),
        Some(p) if p.fm.block.is_empty() => Err(Error::Refused(
            "the frontmatter has no closing --- fence (or holds bytes that are not UTF-8); nothing written"
                .to_string(),
        )),
        Some(p) => Ok(Some(p)),
    }
}

/// Split a key path: an existing top-level key spelled exactly `key_path` wins, otherwise
/// dots separate nested keys (`metadata.version`).
fn segments(nodes: &[KeyNode], key_path: &str) -> Result<Vec<String>> {
    if key_path.is_empty() {
        return Err(Error::Usage("empty key".to_string()));
    }
    if key_path.contains(['\n', '\r']) {
        // A line break ends a key line in YAML, so such a key could never be found again.
        return Err(Error::Usage(format!(
            "key {key_path:?} holds a line break; keys are one line"
        )));
    }
    if nodes.iter().any(|n| n.key == key_path) || !key_path.contains('.') {
        return Ok(vec![key_path.to_string()]);
    }
    let segs: Vec<String> = key_path.split('.').map(str::to_string).collect();
    if segs.iter().any(String::is_empty) {
        return Err(Error::Usage(format!("bad key path `{key_path}`")));
    }
    Ok(segs)
}

/// The node at `segs` (last duplicate wins at every level, like [`super::Frontmatter::get`]).
pub(crate) fn find<'a>(nodes: &'a [KeyNode], segs: &[String]) -> Option<&'a KeyNode> {
    let (first, rest) = segs.split_first()?;
    let n = nodes.iter().rev().find(|n| &n.key == first)?;
    if rest.is_empty() {
        Some(n)
    } else {
        find(&n.children, rest)
    }
}

/// Look up `key_path` in raw file bytes (dotted for nested maps).
pub fn get(bytes: &[u8], key_path: &str) -> Result<Option<KeyNode>> {
    let Some(p) = parse_bytes(bytes)? else {
        return Ok(None);
    };
    let segs = segments(&p.nodes, key_path)?;
    Ok(find(&p.nodes, &segs).cloned())
}

/// Set `key_path` to `value` in a SKILL.md's raw bytes and return the new bytes.
///
/// Only the edited entry's lines change. An existing key keeps its key spelling, spacing,
/// trailing comment and style where the new value allows (quoted stays quoted, a `>`/`|`
/// block stays a block, a `- item` list stays one); a value equal to the current one leaves
/// the bytes untouched. A value written plain must also be [`quote::plain_safe`] (no
/// YAML 1.1/1.2 reader types it: `2.10`, `no`, `null`, `2024-01-01` are single-quoted),
/// except `true`/`false` for a [`BOOLEAN_KEYS`] key, which a client reads as a boolean.
/// A new key is appended at the end of the frontmatter (or of its
/// parent map for a dotted path, creating parents as needed); a file without frontmatter
/// gets a new block (after the BOM, in the file's line ending).
///
/// Errors: `Refused` when the frontmatter never closes, is not a map of keys (a list or a
/// scalar: a key added to it would not be YAML), or the value cannot be written so
/// that it reads back unchanged; `Usage` when a dotted path crosses a value that is not a
/// block map.
pub fn set(bytes: &[u8], key_path: &str, value: &EditValue) -> Result<Vec<u8>> {
    let Some(p) = parse_bytes(bytes)? else {
        return set_new_block(bytes, key_path, value);
    };
    if super::strict::not_a_mapping(yaml_of(bytes, &p)) {
        return Err(Error::Refused(
            "the frontmatter is not a mapping of keys; not edited".to_string(),
        ));
    }
    let segs = segments(&p.nodes, key_path)?;
    let text = text_prefix(bytes);
    if let Some(n) = find(&p.nodes, &segs) {
        if n.value == value.as_value() {
            return Ok(bytes.to_vec());
        }
        guard::refuse_anchor(text, n, key_path)?;
    }
    let mut refusal = None;
    for force_double in [false, true] {
        let (range, repl) = plan_set(text, &p, &segs, value, force_double)?;
        let out = splice(bytes, range, &repl);
        if reads_back(&out, &p, &segs, value) {
            match guard::keeps_strict(yaml_of(bytes, &p), yaml_of_bytes(&out), key_path) {
                Ok(()) => return Ok(out),
                Err(e) => refusal = Some(e),
            }
        }
    }
    Err(refusal.unwrap_or_else(|| {
        Error::Refused(format!(
            "cannot write `{key_path}` so that it reads back unchanged; nothing written"
        ))
    }))
}

/// Remove `key_path` (its whole entry: key line, value lines) from the raw bytes.
/// Errors: `Usage` when the file has no frontmatter or no such key.
pub fn unset(bytes: &[u8], key_path: &str) -> Result<Vec<u8>> {
    let Some(p) = parse_bytes(bytes)? else {
        return Err(Error::Usage("the file has no frontmatter".to_string()));
    };
    let segs = segments(&p.nodes, key_path)?;
    let n = find(&p.nodes, &segs)
        .ok_or_else(|| Error::Usage(format!("no key `{key_path}` in the frontmatter")))?;
    // A nested key's span starts at the key; take its indentation too.
    let text = text_prefix(bytes);
    guard::refuse_anchor(text, n, key_path)?;
    let line_start = line_start_before(text.as_bytes(), n.span.start);
    let start = if text[line_start..n.span.start]
        .bytes()
        .all(|b| b == b' ' || b == b'\t')
    {
        line_start
    } else {
        n.span.start
    };
    let out = splice(bytes, start..n.span.end, "");
    // Every other key must keep its value: removing lines can hand a stray line that was
    // skipped before (a `-` with no key above it) to the key before the removed one.
    let mut want = key_values(&p.nodes);
    remove_last(&mut want, &segs);
    match parse_bytes(&out) {
        Ok(Some(after)) if key_values(&after.nodes) == want => {
            guard::keeps_strict(yaml_of(bytes, &p), yaml_of(&out, &after), key_path)?;
            Ok(out)
        }
        _ => Err(Error::Refused(format!(
            "removing `{key_path}` would change the value of another key; nothing written"
        ))),
    }
}

/// The YAML between the fences of parsed raw bytes.
fn yaml_of<'a>(bytes: &'a [u8], p: &Parsed) -> &'a str {
    text_prefix(bytes).get(p.fm.yaml.clone()).unwrap_or("")
}

/// The YAML between the fences of raw bytes (empty when they have no closed frontmatter).
fn yaml_of_bytes(bytes: &[u8]) -> &str {
    match parse_bytes(bytes) {
        Ok(Some(p)) => yaml_of(bytes, &p),
        _ => "",
    }
}

/// Top-level keys and their values, in file order.
fn key_values(nodes: &[KeyNode]) -> Vec<(String, Value)> {
    nodes
        .iter()
        .map(|n| (n.key.clone(), n.value.clone()))
        .collect()
}

/// Remove the entry at `segs` (the last duplicate at every level, as [`find`]) from a list
/// of key/value pairs, descending into map values.
fn remove_last(kv: &mut Vec<(String, Value)>, segs: &[String]) {
    let Some((first, rest)) = segs.split_first() else {
        return;
    };
    let Some(i) = kv.iter().rposition(|(k, _)| k == first) else {
        return;
    };
    if rest.is_empty() {
        kv.remove(i);
    } else if let Value::Map(m) = &mut kv[i].1 {
        remove_last(std::sync::Arc::make_mut(m), rest);
    }
}

/// Quote exactly the plain values that strict YAML rejects (an unquoted `: `, a trailing
/// `:`, a leading indicator such as `@` or `` ` ``), as `Skill_Seekers` writes them (docs/FORMATS.md
/// §1.4). Returns the new bytes and the 1-based file lines of the repaired values (empty
/// when nothing needed repair; the bytes are then unchanged). Nothing is repaired when a
/// strict YAML reader accepts the frontmatter as it is; anchors, aliases and tags (`&a x`,
/// `*a`, `!t x`) are never re-quoted (docs/DESIGN.md §9).
pub fn repair(bytes: &[u8]) -> (Vec<u8>, Vec<u32>) {
    let Ok(Some(p)) = parse_bytes(bytes) else {
        return (bytes.to_vec(), Vec::new());
    };
    if verify_strict(yaml_of(bytes, &p)).is_ok() {
        return (bytes.to_vec(), Vec::new());
    }
    let text = text_prefix(bytes);
    let mut fixes: Vec<(Range<usize>, String, u32)> = Vec::new();
    collect_repairs(text, &p.nodes, &mut fixes);
    fixes.sort_by_key(|f| f.0.start);
    let mut out = bytes.to_vec();
    let mut lines = Vec::new();
    // Each fix is kept only when every key still reads the same afterwards (fixes are
    // applied from the end, so earlier spans stay valid).
    let want = key_values(&p.nodes);
    for (range, repl, line) in fixes.iter().rev() {
        let next = splice(&out, range.clone(), repl);
        if let Ok(Some(after)) = parse_bytes(&next)
            && key_values(&after.nodes) == want
        {
            out = next;
            lines.push(*line);
        }
    }
    lines.reverse();
    (out, lines)
}

fn collect_repairs(text: &str, nodes: &[KeyNode], out: &mut Vec<(Range<usize>, String, u32)>) {
    for n in nodes {
        // `key:value` (no blank after the colon) is one plain scalar to a strict reader, and
        // `key:'value'` a different key: write the blank, then the value.
        let colon = colon_end(text, n);
        let glued =
            n.value_span.start == colon && n.style != ValueStyle::Empty && n.value_span.end > colon;
        let structural = guard::starts_with_property(text, n);
        if n.style == ValueStyle::Plain
            && !structural
            && let Value::Str(s) = &n.value
            && !s.is_empty()
            && !quote::plain_ok(&s.replace(['\t', '\n'], " "), Context::Block)
        {
            let q = match quote::least_quoting(s, Context::Block) {
                Quoting::Plain => Quoting::Single,
                q => q,
            };
            let lead = if glued { " " } else { "" };
            out.push((
                n.value_span.clone(),
                format!("{lead}{}", quote::render(s, q, Context::Block)),
                n.lines.start,
            ));
        } else if glued && !structural {
            out.push((colon..colon, " ".to_string(), n.lines.start));
        }
        collect_repairs(text, &n.children, out);
    }
}

fn splice(bytes: &[u8], range: Range<usize>, repl: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + repl.len());
    out.extend_from_slice(&bytes[..range.start]);
    out.extend_from_slice(repl.as_bytes());
    out.extend_from_slice(&bytes[range.end..]);
    out
}

/// The edit reads back: the target holds `value`, every other top-level entry is unchanged,
/// and no new parser warning appeared.
fn reads_back(out: &[u8], before: &Parsed, segs: &[String], value: &EditValue) -> bool {
    let Ok(Some(after)) = parse_bytes(out) else {
        return false;
    };
    if find(&after.nodes, segs).map(|n| &n.value) != Some(&value.as_value()) {
        return false;
    }
    if after.fm.warnings.len() > before.fm.warnings.len() {
        return false;
    }
    let others = |p: &Parsed| -> Vec<(String, Value)> {
        p.nodes
            .iter()
            .filter(|n| n.key != segs[0])
            .map(|n| (n.key.clone(), n.value.clone()))
            .collect()
    };
    others(before) == others(&after)
}

/// Content end of the line containing byte `pos` (before its `\r\n`, `\n` or `\r`).
fn line_content_end(text: &str, pos: usize) -> usize {
    next_break(text.as_bytes(), pos).unwrap_or(text.len())
}

/// Content end of an entry's last line (its span ends after the line ending).
fn last_content_end(text: &str, span: &Range<usize>) -> usize {
    let b = text.as_bytes();
    let mut e = span.end;
    if e > span.start && b[e - 1] == b'\n' {
        e -= 1;
        if e > span.start && b[e - 1] == b'\r' {
            e -= 1;
        }
    } else if e > span.start && b[e - 1] == b'\r' {
        e -= 1;
    }
    e
}

/// A new key, quoted by the same rule as values (`on` → `'on'`, which YAML 1.1 would
/// read as the boolean true).
fn render_key(key: &str) -> String {
    quote::render(key, quote::least_quoting(key, Context::Flow), Context::Flow)
}

/// How a value will be written.
enum Rendering {
    Inline(String),
    Block(BlockText),
    Dashes(Vec<String>),
}

fn inline_str(s: &str, q: Quoting, force_double: bool) -> String {
    if force_double {
        quote::double_quote(s)
    } else {
        quote::render(s, q, Context::Block)
    }
}

fn flow_list(items: &[String], force_double: bool) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|i| {
            if force_double {
                quote::double_quote(i)
            } else {
                quote::render(i, quote::least_quoting(i, Context::Flow), Context::Flow)
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Keys whose value a client reads as a YAML boolean (Claude Code's skill frontmatter:
/// `disable-model-invocation`, `user-invocable`): `true` and `false` are written plain there,
/// not quoted as strings.
pub const BOOLEAN_KEYS: [&str; 2] = ["disable-model-invocation", "user-invocable"];

/// Whether setting `key` to `value` writes a plain YAML boolean ([`BOOLEAN_KEYS`]).
fn plain_boolean(key: &str, value: &EditValue) -> bool {
    BOOLEAN_KEYS.contains(&key) && matches!(value, EditValue::Str(s) if s == "true" || s == "false")
}

/// Choose the rendering for `value` of `key` replacing `old` (None for a new key at column
/// `indent`).
fn choose(
    text: &str,
    (key, old): (&str, Option<&KeyNode>),
    indent: usize,
    value: &EditValue,
    force_double: bool,
) -> Rendering {
    if let EditValue::Str(s) = value
        && plain_boolean(key, value)
    {
        return Rendering::Inline(s.clone());
    }
    let style = old.map_or(ValueStyle::Empty, |n| n.style);
    match value {
        EditValue::Str(s) => {
            let block_style = matches!(style, ValueStyle::Literal | ValueStyle::Folded);
            if !force_double && (s.contains('\n') || block_style) {
                let step = old.and_then(|n| block_step(text, n)).unwrap_or(2);
                let bt = if style == ValueStyle::Folded {
                    quote::folded_block(s, indent + step, FOLD_WIDTH)
                        .or_else(|| quote::literal_block(s, indent, step))
                } else {
                    quote::literal_block(s, indent, step)
                };
                if let Some(bt) = bt {
                    return Rendering::Block(bt);
                }
            }
            let q = match style {
                ValueStyle::SingleQuoted => Quoting::Single,
                ValueStyle::DoubleQuoted => Quoting::Double,
                _ => quote::least_quoting(s, Context::Block),
            };
            Rendering::Inline(inline_str(s, q, force_double))
        }
        EditValue::List(items) if style == ValueStyle::BlockList && !items.is_empty() => {
            Rendering::Dashes(
                items
                    .iter()
                    .map(|i| inline_str(i, quote::least_quoting(i, Context::Block), force_double))
                    .collect(),
            )
        }
        EditValue::List(items) => Rendering::Inline(flow_list(items, force_double)),
    }
}

/// Content indentation of an existing block scalar, relative to its key.
fn block_step(text: &str, n: &KeyNode) -> Option<usize> {
    if !matches!(n.style, ValueStyle::Literal | ValueStyle::Folded) {
        return None;
    }
    let body = &text[n.value_span.clone()];
    body.split(['\n', '\r'])
        .skip(1)
        .find(|l| !l.trim().is_empty())
        .map(|l| {
            let ind = l.len() - l.trim_start_matches([' ', '\t']).len();
            ind.saturating_sub(n.indent).max(1)
        })
}

/// Lines for a new `key: value` entry (and missing parents) at column `indent`, each
/// ending with `nl`.
fn new_entry_text(
    segs: &[String],
    value: &EditValue,
    indent: usize,
    nl: &str,
    force_double: bool,
) -> String {
    let pad = " ".repeat(indent);
    let key = render_key(&segs[0]);
    if segs.len() > 1 {
        return format!(
            "{pad}{key}:{nl}{}",
            new_entry_text(&segs[1..], value, indent + 2, nl, force_double)
        );
    }
    match choose("", (&segs[0], None), indent, value, force_double) {
        Rendering::Inline(r) => format!("{pad}{key}: {r}{nl}"),
        Rendering::Block(bt) => format!("{pad}{key}: {}{nl}{}{nl}", bt.header, bt.lines.join(nl)),
        Rendering::Dashes(items) => {
            let lines: Vec<String> = items.iter().map(|i| format!("{pad}- {i}")).collect();
            format!("{pad}{key}:{nl}{}{nl}", lines.join(nl))
        }
    }
}

/// [`set`] on a file without frontmatter: a new block in front, kept only when it reads
/// back as exactly `value` under `key_path` with no parser warning and the old bytes
/// untouched after it (tried with least quoting, then with double quotes everywhere).
fn set_new_block(bytes: &[u8], key_path: &str, value: &EditValue) -> Result<Vec<u8>> {
    let segs = segments(&[], key_path)?;
    for force_double in [false, true] {
        let out = create_block(bytes, &segs, value, force_double);
        let Ok(Some(after)) = parse_bytes(&out) else {
            continue;
        };
        let body_kept = out.len() >= after.fm.block.end
            && out[after.fm.block.end..] == *bytes.strip_prefix(BOM).unwrap_or(bytes);
        if body_kept
            && after.fm.warnings.is_empty()
            && after.nodes.len() == 1
            && find(&after.nodes, &segs).map(|n| &n.value) == Some(&value.as_value())
        {
            return Ok(out);
        }
    }
    Err(Error::Refused(format!(
        "cannot write `{key_path}` so that it reads back unchanged; nothing written"
    )))
}

fn create_block(bytes: &[u8], segs: &[String], value: &EditValue, force_double: bool) -> Vec<u8> {
    let bom = bytes.starts_with(BOM);
    let rest = if bom { &bytes[3..] } else { bytes };
    let nl = match next_break(rest, 0) {
        Some(i) if rest.get(i + 1) == Some(&b'\n') && rest[i] == b'\r' => "\r\n",
        Some(i) if rest[i] == b'\r' => "\r",
        _ => "\n",
    };
    let mut out = Vec::with_capacity(bytes.len() + 64);
    if bom {
        out.extend_from_slice(BOM);
    }
    out.extend_from_slice(
        format!(
            "---{nl}{}---{nl}",
            new_entry_text(segs, value, 0, nl, force_double)
        )
        .as_bytes(),
    );
    out.extend_from_slice(rest);
    out
}

/// Byte range to replace and its replacement for setting `segs` to `value`.
fn plan_set(
    text: &str,
    p: &Parsed,
    segs: &[String],
    value: &EditValue,
    force_double: bool,
) -> Result<(Range<usize>, String)> {
    let nl = p.fm.line_ending.as_str();
    if let Some(n) = find(&p.nodes, segs) {
        return Ok(replace_value(
            text,
            n,
            choose(text, (&n.key, Some(n)), n.indent, value, force_double),
            nl,
        ));
    }
    // Deepest existing ancestor.
    let mut depth = segs.len() - 1;
    while depth > 0 && find(&p.nodes, &segs[..depth]).is_none() {
        depth -= 1;
    }
    if depth == 0 {
        let at = p.fm.yaml.end;
        return Ok((at..at, new_entry_text(segs, value, 0, nl, force_double)));
    }
    let parent = find(&p.nodes, &segs[..depth]).ok_or_else(|| Error::Usage("no parent".into()))?;
    let rest = &segs[depth..];
    match (parent.style, parent.children.last()) {
        (ValueStyle::Map, Some(last)) => {
            let at = last.span.end;
            Ok((
                at..at,
                new_entry_text(rest, value, last.indent, nl, force_double),
            ))
        }
        (ValueStyle::Empty, _) => {
            let colon_end = colon_end(text, parent);
            let key_line_end = line_content_end(text, parent.key_span.start);
            let comment = &text[colon_end..key_line_end];
            let body = new_entry_text(rest, value, parent.indent + 2, nl, force_double);
            let body = body.strip_suffix(nl).unwrap_or(&body);
            Ok((colon_end..key_line_end, format!("{comment}{nl}{body}")))
        }
        (ValueStyle::Map, None) => Err(Error::Usage(format!(
            "`{}` is a flow map ({{…}}); set it as a whole",
            segs[..depth].join(".")
        ))),
        _ => Err(Error::Usage(format!(
            "`{}` is not a map; cannot set `{}`",
            segs[..depth].join("."),
            segs.join(".")
        ))),
    }
}

/// Byte just after the `:` that follows the key of `n`.
fn colon_end(text: &str, n: &KeyNode) -> usize {
    text[n.key_span.end..]
        .find(':')
        .map_or(n.key_span.end, |i| n.key_span.end + i + 1)
}

fn replace_value(text: &str, n: &KeyNode, r: Rendering, nl: &str) -> (Range<usize>, String) {
    let key_line_end = line_content_end(text, n.key_span.start);
    let last_end = last_content_end(text, &n.span);
    let colon = colon_end(text, n);
    let on_key_line = n.value_span.start <= key_line_end && n.style != ValueStyle::Empty;
    match r {
        Rendering::Inline(v) => {
            if n.style == ValueStyle::Empty {
                let at = n.value_span.start;
                let lead = if at == colon { " " } else { "" };
                let tail = if at < key_line_end { " " } else { "" };
                (at..at, format!("{lead}{v}{tail}"))
            } else if on_key_line {
                (n.value_span.clone(), v)
            } else {
                (
                    colon..last_end,
                    format!(" {v}{}", &text[colon..key_line_end]),
                )
            }
        }
        Rendering::Block(bt) => {
            let lines = bt.lines.join(nl);
            if on_key_line && matches!(n.style, ValueStyle::Literal | ValueStyle::Folded) {
                let vs = n.value_span.start;
                let hdr_len = text[vs..key_line_end]
                    .bytes()
                    .position(|b| !matches!(b, b'|' | b'>' | b'+' | b'-' | b'1'..=b'9'))
                    .unwrap_or(key_line_end - vs);
                let comment = &text[vs + hdr_len..key_line_end];
                (
                    n.value_span.clone(),
                    format!("{}{comment}{nl}{lines}", bt.header),
                )
            } else if on_key_line {
                let trailing = &text[n.value_span.end..last_end];
                (
                    n.value_span.start..last_end,
                    format!("{}{trailing}{nl}{lines}", bt.header),
                )
            } else {
                let comment = &text[colon..key_line_end];
                (
                    colon..last_end,
                    format!(" {}{comment}{nl}{lines}", bt.header),
                )
            }
        }
        Rendering::Dashes(items) => {
            // Only chosen when the entry already is a block list: keep its dash column.
            let line_start = line_start_before(text.as_bytes(), n.value_span.start);
            let pad = " ".repeat(n.value_span.start - line_start);
            let body: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{}- {v}", if i == 0 { "" } else { &pad }))
                .collect();
            (n.value_span.clone(), body.join(nl))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_str(t: &str, k: &str, v: &str) -> String {
        String::from_utf8(set(t.as_bytes(), k, &EditValue::Str(v.into())).unwrap()).unwrap()
    }

    #[test]
    fn a_boolean_key_is_written_plain_and_other_keys_keep_true_quoted() {
        let t = b"---\nname: x\n---\n";
        let set_to = |key: &str, v: &str| {
            String::from_utf8(set(t, key, &EditValue::Str(v.into())).unwrap()).unwrap()
        };
        assert_eq!(
            set_to("disable-model-invocation", "true"),
            "---\nname: x\ndisable-model-invocation: true\n---\n"
        );
        assert_eq!(
            set_to("user-invocable", "false"),
            "---\nname: x\nuser-invocable: false\n---\n"
        );
        assert_eq!(
            set_to("license", "true"),
            "---\nname: x\nlicense: 'true'\n---\n"
        );
        // Anything but true/false stays a quoted string.
        assert_eq!(
            set_to("user-invocable", "yes"),
            "---\nname: x\nuser-invocable: 'yes'\n---\n"
        );
        let quoted = b"---\ndisable-model-invocation: 'false'\n---\n";
        let out = set(
            quoted,
            "disable-model-invocation",
            &EditValue::Str("true".into()),
        )
        .unwrap();
        assert_eq!(out, b"---\ndisable-model-invocation: true\n---\n");
    }

    #[test]
    fn plain_value_replaced_in_place_keeping_comment() {
        assert_eq!(
            set_str("---\na: x  # c\nb: y\n---\n", "a", "z"),
            "---\na: z  # c\nb: y\n---\n"
        );
    }

    #[test]
    fn empty_value_gets_space_and_keeps_comment() {
        assert_eq!(
            set_str("---\na:\nb: # c\n---\n", "a", "v"),
            "---\na: v\nb: # c\n---\n"
        );
        assert_eq!(
            set_str("---\na:\nb: # c\n---\n", "b", "v"),
            "---\na:\nb: v # c\n---\n"
        );
    }

    #[test]
    fn new_key_appended_and_nested_parent_created() {
        assert_eq!(
            set_str("---\na: x\n---\nbody\n", "b", "w"),
            "---\na: x\nb: w\n---\nbody\n"
        );
        // `y` is a YAML 1.1 boolean, so a set `y` is quoted.
        assert_eq!(
            set_str("---\na: x\n---\n", "b", "y"),
            "---\na: x\nb: 'y'\n---\n"
        );
        assert_eq!(
            set_str("---\na: x\n---\n", "metadata.version", "1.10"),
            "---\na: x\nmetadata:\n  version: '1.10'\n---\n"
        );
        assert_eq!(
            set_str(
                "---\nmetadata:\n  author: j\nz: 1\n---\n",
                "metadata.version",
                "2"
            ),
            "---\nmetadata:\n  author: j\n  version: '2'\nz: 1\n---\n"
        );
        assert_eq!(
            set_str("---\nm: # c\n---\n", "m.k", "v"),
            "---\nm: # c\n  k: v\n---\n"
        );
    }

    #[test]
    fn multi_line_value_becomes_literal_block() {
        assert_eq!(
            set_str("---\nd: x\n---\n", "d", "a\nb"),
            "---\nd: |-\n  a\n  b\n---\n"
        );
        assert_eq!(
            set_str("---\nd: >\n  old\n---\n", "d", "new text\n"),
            "---\nd: >\n  new text\n---\n"
        );
    }

    #[test]
    fn scalar_parent_is_not_a_map() {
        let e = set(b"---\na: x\n---\n", "a.b", &EditValue::Str("v".into())).unwrap_err();
        assert_eq!(e.to_string(), "`a` is not a map; cannot set `a.b`");
    }

    #[test]
    fn flow_map_parent_is_refused_with_reason() {
        let e = set(b"---\nm: {a: b}\n---\n", "m.c", &EditValue::Str("v".into())).unwrap_err();
        assert_eq!(e.to_string(), "`m` is a flow map ({…}); set it as a whole");
    }

    #[test]
    fn unset_removes_entry_lines() {
        assert_eq!(
            unset(b"---\na: x\nb: |\n  y\nc: z\n---\n", "b").unwrap(),
            b"---\na: x\nc: z\n---\n"
        );
        assert!(unset(b"---\na: x\n---\n", "q").is_err());
    }

    #[test]
    fn unset_first_nested_child_takes_its_indentation() {
        let out = unset(b"---\nm:\n  a: 1\n  b: 2\n---\n", "m.a").unwrap();
        assert_eq!(out, b"---\nm:\n  b: 2\n---\n");
    }

    #[test]
    fn repair_quotes_only_offending_values() {
        let (out, lines) = repair(b"---\nname: n\ndescription: Use when: you need X\n---\n");
        assert_eq!(
            out,
            b"---\nname: n\ndescription: 'Use when: you need X'\n---\n"
        );
        assert_eq!(lines, [3]);
        let (same, none) = repair(b"---\nname: n\n---\n");
        assert_eq!(same, b"---\nname: n\n---\n");
        assert!(none.is_empty());
    }
}
