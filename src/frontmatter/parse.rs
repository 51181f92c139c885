//! The lenient, span-recording frontmatter parser (docs/FORMATS.md §3.2–3.3, §5.1; docs/DESIGN.md
//! §9–10). One pass over a line table; every key and value keeps its byte span so edits can be
//! spliced without touching other bytes. Problems become `(line, message)` warnings.

use std::ops::Range;
use std::sync::Arc;

use super::entry::{Entry, Frontmatter, LineEnding, Value, ValueStyle};
use super::lines::{Line, indent_of, is_blank, next_break, split_until};
use super::scalar::{BlockHeader, parse_block_header, scan_quoted};

/// A key at any depth, with the spans the editor needs (top-level keys become [`Entry`]s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyNode {
    /// The key as read (quotes removed).
    pub key: String,
    /// Bytes of the key as written (quotes included).
    pub key_span: Range<usize>,
    /// Column (bytes of leading spaces/tabs) of the key.
    pub indent: usize,
    /// The value.
    pub value: Value,
    /// How the value is written.
    pub style: ValueStyle,
    /// Bytes of the whole entry, key through the end of its last line INCLUDING the line
    /// ending. Blank lines and comments after the value are not part of it (except the
    /// trailing empty lines of a keep-chomped `|+`/`>+` block, which are value). A nested
    /// key's span starts at the key, after its indentation.
    pub span: Range<usize>,
    /// Bytes of the value text, as [`super::Entry::value_span`].
    pub value_span: Range<usize>,
    /// 1-based file lines (inclusive start, exclusive end).
    pub lines: Range<u32>,
    /// Keys of a nested block map (style [`ValueStyle::Map`] written as indented lines).
    pub children: Vec<KeyNode>,
    /// The header of a block scalar value (`|-`, `>`, …).
    pub block: Option<BlockHeader>,
}

impl KeyNode {
    fn entry(&self) -> Entry {
        Entry {
            key: self.key.clone(),
            value: self.value.clone(),
            style: self.style,
            span: self.span.clone(),
            value_span: self.value_span.clone(),
            lines: self.lines.clone(),
            children: self.children.iter().map(Self::entry).collect(),
        }
    }
}

/// Full parse result: the public [`Frontmatter`] plus the key tree (same order as
/// `entries`) used by the editor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The frontmatter as the rest of the crate sees it.
    pub fm: Frontmatter,
    /// Top-level keys with nested children (parallel to `fm.entries`).
    pub nodes: Vec<KeyNode>,
}

/// At most this many warnings are kept per frontmatter (a file that merely starts with a
/// `---` rule can make a whole document "frontmatter"); one more line counts the rest.
pub const MAX_WARNINGS: usize = 50;

/// Parse and keep the key tree. `None` when `text` (after an optional BOM) does not start
/// with a `---` line. See [`super::parse()`].
pub fn parse_tree(text: &str) -> Option<Parsed> {
    let bom = text.starts_with('\u{feff}');
    let from = if bom { 3 } else { 0 };
    let bytes = text.as_bytes();
    let first_end = next_break(bytes, from).unwrap_or(text.len());
    if text[from..first_end].trim_end_matches([' ', '\t']) != "---" {
        return None;
    }
    let line_ending = match (bytes.get(first_end), bytes.get(first_end + 1)) {
        (Some(b'\r'), Some(b'\n')) => LineEnding::CrLf,
        (Some(b'\r'), _) => LineEnding::Cr,
        _ => LineEnding::Lf,
    };
    let (lines, closed) = split_until(text, from, is_closing_fence);
    if !closed {
        let fm = Frontmatter {
            bom,
            line_ending,
            block: 0..0,
            yaml: 0..0,
            entries: Vec::new(),
            warnings: vec![(1, "no closing --- fence; treated as body".to_string())],
        };
        return Some(Parsed {
            fm,
            nodes: Vec::new(),
        });
    }
    let close = lines.len() - 1;
    let mut p = P {
        text,
        lines: &lines,
        end: close,
        warnings: Vec::new(),
        tab_warned: vec![false; close],
        unclosed_from: [usize::MAX; 2],
        placeholder: text[..lines[close].start].contains(PLACEHOLDER),
        depth: 0,
    };
    let (nodes, _) = p.parse_map(1, 0);
    let mut warnings = p.warnings;
    warnings.sort_by_key(|w| w.0);
    if warnings.len() > MAX_WARNINGS {
        let extra = warnings.len() - MAX_WARNINGS;
        let line = warnings[MAX_WARNINGS].0;
        warnings.truncate(MAX_WARNINGS);
        warnings.push((
            line,
            format!("… and {extra} more problems in the frontmatter"),
        ));
    }
    let fm = Frontmatter {
        bom,
        line_ending,
        block: from..lines[close].end,
        yaml: lines[1.min(close)].start..lines[close].start,
        entries: nodes.iter().map(KeyNode::entry).collect(),
        warnings,
    };
    Some(Parsed { fm, nodes })
}

/// The invalid-UTF-8 placeholder of loaded sources ([`crate::model::INVALID_BYTE_PLACEHOLDER`]).
const PLACEHOLDER: char = '\u{1A}';

/// Keys and values read from a source with invalid UTF-8 would hold the loader's
/// same-length placeholder byte (docs/FORMATS.md §8: offsets stay file offsets); they hold
/// U+FFFD instead, as the `invalid UTF-8 bytes (shown as U+FFFD)` warning says
/// (docs/FORMATS.md §9.1). Spans are untouched. A block map's value is built from its
/// children, which were fixed before it, so it is left alone (`fixed_children`).
fn placeholders_to_replacement(n: &mut KeyNode, fixed_children: bool) {
    fn fix(s: &mut String) {
        if s.contains(PLACEHOLDER) {
            *s = s.replace(PLACEHOLDER, "\u{FFFD}");
        }
    }
    fn fix_value(v: &mut Value) {
        match v {
            Value::Str(s) => fix(s),
            Value::List(l) => l.iter_mut().for_each(fix),
            Value::Map(m) => Arc::make_mut(m).iter_mut().for_each(|(k, v)| {
                fix(k);
                fix_value(v);
            }),
        }
    }
    fix(&mut n.key);
    if !fixed_children {
        fix_value(&mut n.value);
    }
}

/// The closing fence: `---` or `...` at column 0, trailing spaces and tabs allowed. An
/// indented `---` is content (a line of a block scalar or of a multi-line quoted value),
/// as in YAML, where a document marker is only recognised at the start of a line.
pub(super) fn is_closing_fence(line: &str) -> bool {
    let t = line.trim_end_matches([' ', '\t']);
    t == "---" || t == "..."
}

/// A parsed value before it is attached to a key.
pub(super) struct ValOut {
    pub(super) value: Value,
    pub(super) style: ValueStyle,
    /// Index of the value's last line.
    pub(super) last: usize,
    pub(super) value_span: Range<usize>,
    pub(super) children: Vec<KeyNode>,
    pub(super) block: Option<BlockHeader>,
}

pub(super) struct P<'a> {
    pub(super) text: &'a str,
    pub(super) lines: &'a [Line],
    /// Index of the closing fence line (YAML lines are `1..end`).
    pub(super) end: usize,
    pub(super) warnings: Vec<(u32, String)>,
    pub(super) tab_warned: Vec<bool>,
    /// Per quote kind (single, double): a line from which a scan to the closing fence found
    /// no closing quote (`usize::MAX`: none yet); see `quoted_past_indent`.
    pub(super) unclosed_from: [usize; 2],
    /// The YAML holds the invalid-UTF-8 placeholder byte.
    pub(super) placeholder: bool,
    /// How many block maps enclose the line being parsed (0 at the top level).
    pub(super) depth: usize,
}

/// Block maps nested deeper than this are read as text: the parser recurses once per level,
/// and a bound keeps that within any thread's stack (docs/DESIGN.md §9).
pub const MAX_NESTING: usize = 512;

pub(super) fn is_dash(body: &str) -> bool {
    body == "-" || body.starts_with("- ") || body.starts_with("-\t")
}

pub(super) fn lineno(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// Byte index of the first `: ` / `:\t` / trailing `:` in a plain key candidate.
pub(super) fn key_colon(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    (0..b.len()).find(|&i| b[i] == b':' && matches!(b.get(i + 1), None | Some(b' ' | b'\t')))
}

/// Cut a plain scalar segment at a ` #` comment; returns (text, `had_comment`).
pub(super) fn cut_comment(s: &str) -> (&str, bool) {
    let b = s.as_bytes();
    for i in 1..b.len() {
        if b[i] == b'#' && (b[i - 1] == b' ' || b[i - 1] == b'\t') {
            return (&s[..i], true);
        }
    }
    (s, false)
}

pub(super) fn has_unquoted_colon(seg: &str) -> bool {
    seg.contains(": ") || seg.contains(":\t") || seg.ends_with(':')
}

impl<'a> P<'a> {
    pub(super) fn content(&self, i: usize) -> &'a str {
        let l = self.lines[i];
        &self.text[l.start..l.content_end]
    }

    pub(super) fn warn(&mut self, i: usize, msg: impl Into<String>) {
        self.warnings.push((lineno(i), msg.into()));
    }

    /// Indentation of line `i`, warning once if tabs are used for it.
    pub(super) fn ind(&mut self, i: usize) -> usize {
        let (n, tab) = indent_of(self.content(i));
        if tab && i < self.tab_warned.len() && !self.tab_warned[i] {
            self.tab_warned[i] = true;
            self.warn(i, "tab used for indentation; YAML allows only spaces");
        }
        n
    }

    pub(super) fn is_skippable(&self, i: usize) -> bool {
        let t = self.content(i);
        is_blank(t) || t.trim_start().starts_with('#')
    }

    /// Next line at or after `i` that is neither blank nor a comment.
    pub(super) fn next_content(&self, mut i: usize) -> Option<usize> {
        while i < self.end {
            if !self.is_skippable(i) {
                return Some(i);
            }
            i += 1;
        }
        None
    }

    /// Block map at indentation `indent` starting at line `i`; returns its keys and the
    /// index of the first line not consumed.
    pub(super) fn parse_map(&mut self, mut i: usize, indent: usize) -> (Vec<KeyNode>, usize) {
        let mut nodes = Vec::new();
        while i < self.end {
            if self.is_skippable(i) {
                i += 1;
                continue;
            }
            let ind = self.ind(i);
            if ind < indent {
                break;
            }
            if ind > indent {
                self.warn(i, "unexpected indented line; skipped");
                i += 1;
                continue;
            }
            let body = &self.content(i)[ind..];
            if is_dash(body) {
                self.warn(i, "list item without a key above it; skipped");
                i += 1;
                continue;
            }
            if let Some((key, key_span, vstart)) = self.key_at(i, ind) {
                let v = self.value_at(i, vstart, ind, &key);
                let last = v.last;
                let mut node = KeyNode {
                    key,
                    indent: ind,
                    span: key_span.start..self.lines[last].end,
                    key_span,
                    value: v.value,
                    style: v.style,
                    value_span: v.value_span,
                    lines: lineno(i)..lineno(last + 1),
                    children: v.children,
                    block: v.block,
                };
                if self.placeholder {
                    let built = node.style == ValueStyle::Map && !node.children.is_empty();
                    placeholders_to_replacement(&mut node, built);
                }
                nodes.push(node);
                i = last + 1;
            } else {
                self.warn(i, "line has no `key: value` colon; skipped");
                i += 1;
            }
        }
        (nodes, i)
    }

    /// Key on line `i` at column `ind`: (key, key span, value start after spaces).
    fn key_at(&mut self, i: usize, ind: usize) -> Option<(String, Range<usize>, usize)> {
        let start = self.lines[i].start + ind;
        let body = &self.content(i)[ind..];
        let (key, key_len, colon) = if body.starts_with(['"', '\'']) {
            let q = scan_quoted(&[body], 0, body.starts_with('"'))?;
            let after = &body[q.close_end..];
            let sp = after.len() - after.trim_start_matches([' ', '\t']).len();
            if !after[sp..].starts_with(':') {
                return None;
            }
            (q.value, q.close_end, q.close_end + sp)
        } else if let Some(c) = key_colon(body) {
            let k = body[..c].trim_end_matches([' ', '\t']);
            (k.to_string(), k.len(), c)
        } else {
            let c = body.find(':')?;
            self.warn(
                i,
                "no space after ':'; strict YAML reads this line as plain text",
            );
            let k = body[..c].trim_end_matches([' ', '\t']);
            (k.to_string(), k.len(), c)
        };
        let mut key = key;
        if key.contains('\r') {
            key.retain(|c| c != '\r');
        }
        if key.is_empty() {
            return None;
        }
        let after = &body[colon + 1..];
        let sp = after.len() - after.trim_start_matches([' ', '\t']).len();
        Some((key, start..start + key_len, start + colon + 1 + sp))
    }

    /// The value of a key at column `n` whose value text starts at byte `vstart` of line `i`.
    fn value_at(&mut self, i: usize, vstart: usize, n: usize, key: &str) -> ValOut {
        let rest = &self.text[vstart..self.lines[i].content_end];
        if !rest.is_empty() && !rest.starts_with('#') {
            return self.scalar_at(i, vstart, n, key);
        }
        if let Some(j) = self.next_content(i + 1) {
            let ind_j = self.ind(j);
            let body = &self.content(j)[ind_j..];
            if ind_j >= n && is_dash(body) {
                return self.block_list(j, ind_j, key);
            }
            if ind_j > n {
                if self.is_key_line(body) {
                    if self.depth >= MAX_NESTING {
                        return self.too_deep(j, ind_j, n, key);
                    }
                    self.depth += 1;
                    let (children, _) = self.parse_map(j, ind_j);
                    self.depth -= 1;
                    let last = children.last().map_or(j, |c| c.lines.end as usize - 2);
                    // Nested maps are shared, not copied (see `Value::Map`).
                    let value = Value::Map(Arc::new(
                        children
                            .iter()
                            .map(|c| (c.key.clone(), c.value.clone()))
                            .collect(),
                    ));
                    let vs = self.lines[j].start + ind_j;
                    let ve = children.last().map_or(vs, |c| c.value_span.end.max(vs));
                    return ValOut {
                        value,
                        style: ValueStyle::Map,
                        last,
                        value_span: vs..ve,
                        children,
                        block: None,
                    };
                }
                let off = self.lines[j].start + ind_j;
                return self.scalar_at(j, off, n, key);
            }
        }
        ValOut {
            value: Value::Str(String::new()),
            style: ValueStyle::Empty,
            last: i,
            value_span: vstart..vstart,
            children: Vec::new(),
            block: None,
        }
    }

    #[allow(
        clippy::unused_self,
        reason = "read beside the other line tests of the parser"
    )]
    pub(super) fn is_key_line(&self, body: &str) -> bool {
        if body.starts_with(['"', '\'']) {
            return scan_quoted(&[body], 0, body.starts_with('"'))
                .is_some_and(|q| body[q.close_end..].trim_start().starts_with(':'));
        }
        !body.starts_with(['[', '{', '|', '>', '#']) && key_colon(body).is_some()
    }

    /// Lines after `i` that may continue a value of a key at column `n`: blank lines and
    /// lines indented deeper than `n` (the range is `i+1..k`).
    pub(super) fn continuation_end(&self, i: usize, n: usize) -> usize {
        let mut k = i + 1;
        while k < self.end {
            let t = self.content(k);
            if !is_blank(t) && indent_of(t).0 <= n {
                break;
            }
            k += 1;
        }
        k
    }

    pub(super) fn scalar_at(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let line = self.lines[i];
        let rest = &self.text[off..line.content_end];
        if let Some(h) = parse_block_header(rest) {
            return self.block_scalar(i, off, n, h);
        }
        if rest.starts_with(['"', '\'']) {
            return self.quoted(i, off, n, key);
        }
        if rest.starts_with(['[', '{']) {
            return self.flow(i, off, n, key);
        }
        self.plain(i, off, n, key)
    }
}

pub(super) fn line_end(l: Line) -> usize {
    l.content_end
}
