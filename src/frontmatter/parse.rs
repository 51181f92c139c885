//! The lenient, span-recording frontmatter parser (FORMATS §3.2–3.3, §5.1; DESIGN §9–10).
//! One pass over a line table; every key and value keeps its byte span so edits can be
//! spliced without touching other bytes. Problems become `(line, message)` warnings.

use std::ops::Range;

use super::lines::{Line, indent_of, is_blank, split_until};
use super::scalar::{BlockHeader, block_value, flow_scalar, parse_block_header, scan_flow, scan_quoted};
use super::{Entry, Frontmatter, LineEnding, Value, ValueStyle};

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
    /// ending (the last line is the closing-fence-free last line of the value).
    pub span: Range<usize>,
    /// Bytes of the value text (block scalars: header through the last content byte).
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

/// Parse and keep the key tree. `None` when `text` (after an optional BOM) does not start
/// with a `---` line. See [`super::parse`].
pub fn parse_tree(text: &str) -> Option<Parsed> {
    let bom = text.starts_with('\u{feff}');
    let from = if bom { 3 } else { 0 };
    let first_end = text[from..].find('\n').map_or(text.len(), |i| from + i);
    let first = text[from..first_end].strip_suffix('\r').unwrap_or(&text[from..first_end]);
    if first.trim_end_matches([' ', '\t']) != "---" {
        return None;
    }
    let line_ending =
        if text.as_bytes().get(first_end.wrapping_sub(1)) == Some(&b'\r') && first_end < text.len() {
            LineEnding::CrLf
        } else {
            LineEnding::Lf
        };
    let (lines, closed) = split_until(text, from, |s| {
        let t = s.trim();
        t == "---" || t == "..."
    });
    if !closed {
        let fm = Frontmatter {
            bom,
            line_ending,
            block: 0..0,
            yaml: 0..0,
            entries: Vec::new(),
            warnings: vec![(1, "no closing --- fence; treated as body".to_string())],
        };
        return Some(Parsed { fm, nodes: Vec::new() });
    }
    let close = lines.len() - 1;
    let mut p = P { text, lines: &lines, end: close, warnings: Vec::new(), tab_warned: vec![false; close] };
    let (nodes, _) = p.parse_map(1, 0);
    let mut warnings = p.warnings;
    warnings.sort_by_key(|w| w.0);
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

/// A parsed value before it is attached to a key.
struct ValOut {
    value: Value,
    style: ValueStyle,
    /// Index of the value's last line.
    last: usize,
    value_span: Range<usize>,
    children: Vec<KeyNode>,
    block: Option<BlockHeader>,
}

struct P<'a> {
    text: &'a str,
    lines: &'a [Line],
    /// Index of the closing fence line (YAML lines are `1..end`).
    end: usize,
    warnings: Vec<(u32, String)>,
    tab_warned: Vec<bool>,
}

fn is_dash(body: &str) -> bool {
    body == "-" || body.starts_with("- ") || body.starts_with("-\t")
}

fn lineno(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// Byte index of the first `: ` / `:\t` / trailing `:` in a plain key candidate.
fn key_colon(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    (0..b.len()).find(|&i| b[i] == b':' && matches!(b.get(i + 1), None | Some(b' ') | Some(b'\t')))
}

/// Cut a plain scalar segment at a ` #` comment; returns (text, had_comment).
fn cut_comment(s: &str) -> (&str, bool) {
    let b = s.as_bytes();
    for i in 1..b.len() {
        if b[i] == b'#' && (b[i - 1] == b' ' || b[i - 1] == b'\t') {
            return (&s[..i], true);
        }
    }
    (s, false)
}

fn has_unquoted_colon(seg: &str) -> bool {
    seg.contains(": ") || seg.contains(":\t") || seg.ends_with(':')
}

impl<'a> P<'a> {
    fn content(&self, i: usize) -> &'a str {
        let l = self.lines[i];
        &self.text[l.start..l.content_end]
    }

    fn warn(&mut self, i: usize, msg: impl Into<String>) {
        self.warnings.push((lineno(i), msg.into()));
    }

    /// Indentation of line `i`, warning once if tabs are used for it.
    fn ind(&mut self, i: usize) -> usize {
        let (n, tab) = indent_of(self.content(i));
        if tab && i < self.tab_warned.len() && !self.tab_warned[i] {
            self.tab_warned[i] = true;
            self.warn(i, "tab used for indentation; YAML allows only spaces");
        }
        n
    }

    fn is_skippable(&self, i: usize) -> bool {
        let t = self.content(i);
        is_blank(t) || t.trim_start().starts_with('#')
    }

    /// Next line at or after `i` that is neither blank nor a comment.
    fn next_content(&self, mut i: usize) -> Option<usize> {
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
    fn parse_map(&mut self, mut i: usize, indent: usize) -> (Vec<KeyNode>, usize) {
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
            match self.key_at(i, ind) {
                Some((key, key_span, vstart)) => {
                    let v = self.value_at(i, vstart, ind, &key);
                    let last = v.last;
                    nodes.push(KeyNode {
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
                    });
                    i = last + 1;
                }
                None => {
                    self.warn(i, "line has no `key: value` colon; skipped");
                    i += 1;
                }
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
            self.warn(i, "no space after ':'; strict YAML reads this line as plain text");
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
                    let (children, _) = self.parse_map(j, ind_j);
                    let last = children.last().map_or(j, |c| c.lines.end as usize - 2);
                    let value =
                        Value::Map(children.iter().map(|c| (c.key.clone(), c.value.clone())).collect());
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

    fn is_key_line(&self, body: &str) -> bool {
        if body.starts_with(['"', '\'']) {
            return scan_quoted(&[body], 0, body.starts_with('"'))
                .is_some_and(|q| body[q.close_end..].trim_start().starts_with(':'));
        }
        !body.starts_with(['[', '{', '|', '>', '#']) && key_colon(body).is_some()
    }

    /// Lines after `i` that may continue a value of a key at column `n`: blank lines and
    /// lines indented deeper than `n` (the range is `i+1..k`).
    fn continuation_end(&self, i: usize, n: usize) -> usize {
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

    fn scalar_at(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
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

    fn quoted(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let double = self.text[off..].starts_with('"');
        let k = self.continuation_end(i, n);
        let cands: Vec<&str> = (i..k).map(|x| self.content(x)).collect();
        let rel = off - self.lines[i].start;
        let style = if double { ValueStyle::DoubleQuoted } else { ValueStyle::SingleQuoted };
        match scan_quoted(&cands, rel, double) {
            Some(q) => {
                let last = i + q.last_line;
                let end = self.lines[last].start + q.close_end;
                let after = &self.text[end..self.lines[last].content_end];
                let t = after.trim_start_matches([' ', '\t']);
                if !(t.is_empty() || t.starts_with('#') && t.len() < after.len()) {
                    self.warn(last, format!("text after the closing quote of `{key}` ignored"));
                }
                for e in q.bad_escapes {
                    self.warn(i, format!("unknown escape `{e}` in value of `{key}`; kept as written"));
                }
                ValOut {
                    value: Value::Str(q.value),
                    style,
                    last,
                    value_span: off..end,
                    children: Vec::new(),
                    block: None,
                }
            }
            None => {
                self.warn(i, format!("unterminated quote in value of `{key}`; value taken to end of line"));
                let raw = self.text[off + 1..line_end(self.lines[i])].trim_end_matches([' ', '\t']);
                ValOut {
                    value: Value::Str(raw.to_string()),
                    style,
                    last: i,
                    value_span: off..off + 1 + raw.len(),
                    children: Vec::new(),
                    block: None,
                }
            }
        }
    }

    fn flow(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let is_map = self.text[off..].starts_with('{');
        let k = self.continuation_end(i, n);
        let cands: Vec<&str> = (i..k).map(|x| self.content(x)).collect();
        let rel = off - self.lines[i].start;
        let (flow, last, end) = match scan_flow(&cands, rel) {
            Some(f) => {
                let last = i + f.last_line;
                let end = self.lines[last].start + f.close_end;
                let after = self.text[end..self.lines[last].content_end].trim_start_matches([' ', '\t']);
                if !after.is_empty() && !after.starts_with('#') {
                    self.warn(last, format!("text after the closing bracket of `{key}` ignored"));
                }
                (f, last, end)
            }
            None => {
                self.warn(i, format!("unclosed bracket in value of `{key}`; value taken to end of line"));
                let raw = self.text[off..self.lines[i].content_end].trim_end_matches([' ', '\t']);
                let closed = format!("{raw}{}", if is_map { '}' } else { ']' });
                let f = scan_flow(&[closed.as_str()], 0).unwrap_or(super::scalar::Flow {
                    items: Vec::new(),
                    last_line: 0,
                    close_end: 0,
                });
                (f, i, off + raw.len())
            }
        };
        let mut nested = false;
        let mut empty = false;
        for it in &flow.items {
            nested |= it.nested;
            empty |= it.raw.is_empty();
        }
        if nested {
            self.warn(i, format!("nested collection in `{key}`; kept as text"));
        }
        if empty {
            self.warn(i, format!("empty item in `{key}`; strict YAML parsers reject this"));
        }
        let items = flow.items.iter().filter(|it| !it.raw.is_empty());
        let (value, style) = if is_map {
            let pairs = items
                .map(|it| match key_colon(&it.raw) {
                    Some(c) => (flow_scalar(&it.raw[..c]), Value::Str(flow_scalar(&it.raw[c + 1..]))),
                    None => (flow_scalar(&it.raw), Value::Str(String::new())),
                })
                .collect();
            (Value::Map(pairs), ValueStyle::Map)
        } else {
            (Value::List(items.map(|it| flow_scalar(&it.raw)).collect()), ValueStyle::FlowList)
        };
        ValOut { value, style, last, value_span: off..end, children: Vec::new(), block: None }
    }

    fn plain(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let colon_msg = format!("unquoted ': ' in value of `{key}`; strict YAML parsers reject this");
        let (seg, mut done) = cut_comment(&self.text[off..self.lines[i].content_end]);
        let seg = seg.trim_end_matches([' ', '\t']);
        if has_unquoted_colon(seg) {
            self.warn(i, colon_msg.clone());
        }
        let mut value = seg.to_string();
        let mut last = i;
        let mut vend = off + seg.len();
        let mut j = i + 1;
        let mut pending = 0usize;
        while !done && j < self.end {
            let t = self.content(j);
            if is_blank(t) {
                pending += 1;
                j += 1;
                continue;
            }
            let ind = indent_of(t).0;
            if ind <= n || t[ind..].starts_with('#') {
                break;
            }
            self.ind(j);
            let (s, c) = cut_comment(&t[ind..]);
            done = c;
            let s = s.trim_end_matches([' ', '\t']);
            if has_unquoted_colon(s) {
                self.warn(j, colon_msg.clone());
            }
            if pending == 0 {
                if !value.is_empty() {
                    value.push(' ');
                }
            } else {
                for _ in 0..pending {
                    value.push('\n');
                }
            }
            pending = 0;
            value.push_str(s);
            last = j;
            vend = self.lines[j].start + ind + s.len();
            j += 1;
        }
        if value.contains('\r') {
            value.retain(|c| c != '\r');
        }
        ValOut {
            value: Value::Str(value),
            style: ValueStyle::Plain,
            last,
            value_span: off..vend,
            children: Vec::new(),
            block: None,
        }
    }

    fn block_scalar(&mut self, i: usize, off: usize, n: usize, h: BlockHeader) -> ValOut {
        let indent = match h.indent {
            Some(m) => n + m,
            None => {
                let first = (i + 1..self.end).find(|&j| !is_blank(self.content(j)));
                match first.map(|j| indent_of(self.content(j)).0) {
                    Some(lead) if lead > n => lead,
                    _ => n + 1,
                }
            }
        };
        let mut j = i + 1;
        let mut last_content = i;
        while j < self.end {
            let t = self.content(j);
            if !is_blank(t) {
                if indent_of(t).0 < indent {
                    break;
                }
                if t.as_bytes()[..indent].contains(&b'\t') {
                    self.ind(j);
                }
                last_content = j;
            }
            j += 1;
        }
        let body_end = if h.chomp == super::scalar::Chomp::Keep { j } else { last_content + 1 };
        let texts: Vec<&str> = (i + 1..body_end.max(i + 1)).map(|x| self.content(x)).collect();
        let value = block_value(&texts, indent, h);
        let last = body_end.saturating_sub(1).max(i);
        let vend = if last == i {
            self.text[off..line_end(self.lines[i])].trim_end().len() + off
        } else {
            self.lines[last].content_end
        };
        ValOut {
            value: Value::Str(value),
            style: if h.literal { ValueStyle::Literal } else { ValueStyle::Folded },
            last,
            value_span: off..vend,
            children: Vec::new(),
            block: Some(h),
        }
    }

    /// Block list whose `-` items sit at column `d`, starting at line `j`.
    fn block_list(&mut self, j: usize, d: usize, key: &str) -> ValOut {
        let mut items = Vec::new();
        let mut k = j;
        let mut last = j;
        let mut vend = self.lines[j].start + d + 1;
        while k < self.end {
            if self.is_skippable(k) {
                k += 1;
                continue;
            }
            let ind = self.ind(k);
            if ind > d {
                self.warn(k, "unexpected indented line; skipped");
                k += 1;
                continue;
            }
            if ind < d || !is_dash(&self.content(k)[d..]) {
                break;
            }
            let after_dash = &self.content(k)[d + 1..];
            let sp = after_dash.len() - after_dash.trim_start_matches([' ', '\t']).len();
            let off = self.lines[k].start + d + 1 + sp;
            let rest = &self.text[off..self.lines[k].content_end];
            let v = if rest.is_empty() || rest.starts_with('#') {
                match self.next_content(k + 1) {
                    Some(m) if indent_of(self.content(m)).0 > d => {
                        let mi = self.ind(m);
                        let moff = self.lines[m].start + mi;
                        let mbody = &self.content(m)[mi..];
                        if is_dash(mbody) || self.is_key_line(mbody) {
                            self.raw_item(m, moff, d, key)
                        } else {
                            self.scalar_at(m, moff, d, key)
                        }
                    }
                    _ => ValOut {
                        value: Value::Str(String::new()),
                        style: ValueStyle::Empty,
                        last: k,
                        value_span: off..off,
                        children: Vec::new(),
                        block: None,
                    },
                }
            } else if self.is_key_line(rest) {
                self.raw_item(k, off, d, key)
            } else {
                self.scalar_at(k, off, d, key)
            };
            let text = match v.value {
                Value::Str(s) => s,
                _ => {
                    self.warn(k, format!("nested collection in a list item of `{key}`; kept as text"));
                    self.text[v.value_span.clone()].to_string()
                }
            };
            items.push(text);
            last = v.last;
            vend = v.value_span.end.max(off);
            k = v.last + 1;
        }
        ValOut {
            value: Value::List(items),
            style: ValueStyle::BlockList,
            last,
            value_span: self.lines[j].start + d..vend,
            children: Vec::new(),
            block: None,
        }
    }

    /// A list item holding a map or list: its source text from `off` through the last line
    /// indented deeper than `d`, kept as text with a warning.
    fn raw_item(&mut self, i: usize, off: usize, d: usize, key: &str) -> ValOut {
        let mut last = i;
        let mut k = i + 1;
        while k < self.end {
            let t = self.content(k);
            if !is_blank(t) {
                if indent_of(t).0 <= d {
                    break;
                }
                last = k;
            }
            k += 1;
        }
        let end = self.lines[last].content_end;
        let raw = self.text[off..end].to_string();
        self.warn(i, format!("map or list inside a list item of `{key}`; kept as text"));
        ValOut {
            value: Value::List(vec![raw]),
            style: ValueStyle::BlockList,
            last,
            value_span: off..end,
            children: Vec::new(),
            block: None,
        }
    }
}

fn line_end(l: Line) -> usize {
    l.content_end
}
