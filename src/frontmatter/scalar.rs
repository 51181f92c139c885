//! YAML scalar semantics used by the parser (YAML 1.2 §7–8): double-quoted escapes,
//! quoted-scalar line folding, block scalars (`|`, `>`, chomping, indentation), and flow
//! collections (`[a, "b, c"]`, `{k: v}`). Pure functions over line texts; no coercion.

use super::lines::{indent_of, is_blank};

/// Block scalar chomping indicator (YAML 1.2 §8.1.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chomp {
    /// `-`: drop the final line break and trailing empty lines.
    Strip,
    /// no indicator: keep one final line break, drop trailing empty lines.
    Clip,
    /// `+`: keep the final line break and trailing empty lines.
    Keep,
}

/// A parsed block scalar header (`|2-`, `>+`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockHeader {
    /// `|` (true) or `>` (false).
    pub literal: bool,
    /// Chomping indicator.
    pub chomp: Chomp,
    /// Explicit indentation indicator (1–9), relative to the parent's indentation.
    pub indent: Option<usize>,
}

/// Parse a block scalar header at the start of `s` (`|`, `>-`, `|2+`, optionally followed by
/// spaces and a `#` comment). `None` when `s` is not a valid header.
pub fn parse_block_header(s: &str) -> Option<BlockHeader> {
    let b = s.as_bytes();
    let literal = match b.first()? {
        b'|' => true,
        b'>' => false,
        _ => return None,
    };
    let mut chomp = Chomp::Clip;
    let mut indent = None;
    let mut i = 1;
    for _ in 0..2 {
        match b.get(i) {
            Some(b'-') if chomp == Chomp::Clip => chomp = Chomp::Strip,
            Some(b'+') if chomp == Chomp::Clip => chomp = Chomp::Keep,
            Some(c @ b'1'..=b'9') if indent.is_none() => indent = Some(usize::from(c - b'0')),
            _ => break,
        }
        i += 1;
    }
    let rest = &s[i..];
    let trimmed = rest.trim_start_matches([' ', '\t']);
    if trimmed.is_empty() || (trimmed.starts_with('#') && trimmed.len() < rest.len()) {
        Some(BlockHeader {
            literal,
            chomp,
            indent,
        })
    } else {
        None
    }
}

/// Build a block scalar's value from the lines that belong to it (content lines and empty
/// lines, trailing empty lines included) with content indentation `indent` (bytes), per
/// YAML 1.2 §8.1 (the same algorithm as libyaml): literal keeps line breaks, folded joins
/// adjacent non-indented lines with one space and turns each empty line into `\n`; more-
/// indented lines keep their breaks. Chomping applies to the final break.
pub fn block_value(lines: &[&str], indent: usize, header: BlockHeader) -> String {
    let mut s = String::new();
    let mut leading_break = false;
    let mut trailing_breaks = 0usize;
    let mut leading_blank = false;
    for line in lines {
        if is_blank(line) && line.len() <= indent {
            trailing_breaks += 1;
            continue;
        }
        let text = line.get(indent..).unwrap_or("");
        let trailing_blank = text.starts_with([' ', '\t']);
        if !header.literal && leading_break && !leading_blank && !trailing_blank {
            if trailing_breaks == 0 {
                s.push(' ');
            }
        } else if leading_break {
            s.push('\n');
        }
        push_newlines(&mut s, trailing_breaks);
        trailing_breaks = 0;
        leading_blank = trailing_blank;
        s.push_str(text);
        leading_break = true;
    }
    if s.contains('\r') {
        s.retain(|c| c != '\r');
    }
    match header.chomp {
        Chomp::Strip => {}
        Chomp::Clip => {
            if leading_break {
                s.push('\n');
            }
        }
        Chomp::Keep => {
            if leading_break {
                s.push('\n');
            }
            push_newlines(&mut s, trailing_breaks);
        }
    }
    s
}

fn push_newlines(s: &mut String, n: usize) {
    for _ in 0..n {
        s.push('\n');
    }
}

/// Result of scanning a quoted scalar.
#[derive(Debug)]
pub struct Quoted {
    /// The value (escapes processed, lines folded).
    pub value: String,
    /// Index (into the given lines) of the line holding the closing quote.
    pub last_line: usize,
    /// Byte offset just after the closing quote within that line.
    pub close_end: usize,
    /// Unknown escapes seen, as written (e.g. `\q`).
    pub bad_escapes: Vec<String>,
}

/// Scan a quoted scalar whose opening quote is at byte `open` of `lines[0]`; later lines are
/// the caller's continuation candidates (already limited to lines that may continue it).
/// Folding per YAML 1.2 §7.3: trailing and leading white space around a line break is
/// dropped, a single break becomes a space, each empty line becomes `\n`; in double quotes
/// a `\` before the break joins without a space. `None` when no closing quote is found.
pub fn scan_quoted(lines: &[&str], open: usize, double: bool) -> Option<Quoted> {
    let quote = if double { '"' } else { '\'' };
    let mut out = String::new();
    let mut bad_escapes = Vec::new();
    let mut li = 0;
    let mut pos = open + 1;
    loop {
        let line = *lines.get(li)?;
        let mut ws_start: Option<usize> = None;
        let mut escaped_break = false;
        while let Some(c) = line.get(pos..).and_then(|r| r.chars().next()) {
            if double && c == '\\' {
                let after = &line[pos + 1..];
                if after.is_empty() {
                    escaped_break = true;
                    break;
                }
                let (text, used) = unescape_one(after);
                if let Some(t) = text {
                    out.push_str(&t);
                } else {
                    let bad: String = after.chars().take(1).collect();
                    bad_escapes.push(format!("\\{bad}"));
                    out.push('\\');
                    out.push_str(&bad);
                }
                pos += 1 + used;
                ws_start = None;
                continue;
            }
            if c == quote {
                if !double && line[pos + 1..].starts_with('\'') {
                    out.push('\'');
                    pos += 2;
                    ws_start = None;
                    continue;
                }
                return Some(Quoted {
                    value: out,
                    last_line: li,
                    close_end: pos + 1,
                    bad_escapes,
                });
            }
            if c == '\r' {
                // A stray carriage return is never value text (values hold no `\r`
                // unless written as the `\r` escape).
                pos += 1;
                continue;
            }
            if c == ' ' || c == '\t' {
                ws_start.get_or_insert(out.len());
            } else {
                ws_start = None;
            }
            out.push(c);
            pos += c.len_utf8();
        }
        if !escaped_break && let Some(w) = ws_start {
            out.truncate(w);
        }
        li += 1;
        let mut empty = 0;
        while lines.get(li).is_some_and(|l| is_blank(l)) {
            empty += 1;
            li += 1;
        }
        let next = lines.get(li)?;
        if escaped_break || empty > 0 {
            push_newlines(&mut out, empty);
        } else {
            out.push(' ');
        }
        pos = indent_of(next).0;
    }
}

/// Decode one double-quoted escape; `s` starts just after the backslash. Returns the text
/// (None for an unknown escape) and the bytes consumed after the backslash.
fn unescape_one(s: &str) -> (Option<String>, usize) {
    let Some(c) = s.chars().next() else {
        return (None, 0);
    };
    let simple = match c {
        '0' => Some('\0'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        't' | '\t' => Some('\t'),
        'n' => Some('\n'),
        'v' => Some('\u{b}'),
        'f' => Some('\u{c}'),
        'r' => Some('\r'),
        'e' => Some('\u{1b}'),
        ' ' => Some(' '),
        '"' => Some('"'),
        '/' => Some('/'),
        '\\' => Some('\\'),
        'N' => Some('\u{85}'),
        '_' => Some('\u{a0}'),
        'L' => Some('\u{2028}'),
        'P' => Some('\u{2029}'),
        _ => None,
    };
    if let Some(ch) = simple {
        return (Some(ch.to_string()), c.len_utf8());
    }
    let digits = match c {
        'x' => 2,
        'u' => 4,
        'U' => 8,
        _ => return (None, c.len_utf8()),
    };
    let hex = s.get(1..1 + digits);
    match hex
        .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .and_then(char::from_u32)
    {
        Some(ch) => (Some(ch.to_string()), 1 + digits),
        None => (None, c.len_utf8()),
    }
}

/// One item of a flow collection, still as written.
#[derive(Debug, PartialEq, Eq)]
pub struct FlowItem {
    /// The item text with line breaks folded to spaces, trimmed.
    pub raw: String,
    /// The item contains a nested `[…]` or `{…}`.
    pub nested: bool,
}

/// Result of scanning a flow collection.
#[derive(Debug)]
pub struct Flow {
    /// Items split at top-level commas (an empty trailing item is dropped).
    pub items: Vec<FlowItem>,
    /// Index of the line holding the closing bracket.
    pub last_line: usize,
    /// Byte offset just after the closing bracket within that line.
    pub close_end: usize,
}

/// Scan a flow collection whose opening `[` or `{` is at byte `open` of `lines[0]`, across
/// the continuation lines given, honouring quotes, nesting and `#` comments. `None` when it
/// never closes.
pub fn scan_flow(lines: &[&str], open: usize) -> Option<Flow> {
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut nested = false;
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (li, line) in lines.iter().enumerate() {
        let start = if li == 0 { open } else { 0 };
        let mut prev_ws = true;
        let mut iter = line[start..].char_indices().peekable();
        while let Some((i, c)) = iter.next() {
            let at = start + i;
            if let Some(q) = quote {
                cur.push(c);
                if q == '"' && c == '\\' && !escaped {
                    escaped = true;
                    continue;
                }
                if c == q && !escaped {
                    if q == '\'' && iter.peek().is_some_and(|&(_, n)| n == '\'') {
                        iter.next();
                        cur.push('\'');
                        continue;
                    }
                    quote = None;
                }
                escaped = false;
                continue;
            }
            match c {
                '#' if prev_ws => break,
                '[' | '{' => {
                    depth += 1;
                    if depth > 1 {
                        nested = true;
                        cur.push(c);
                    }
                }
                ']' | '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        let raw = cur.trim().to_string();
                        if !raw.is_empty() {
                            push_item(&mut items, raw, nested);
                        }
                        return Some(Flow {
                            items,
                            last_line: li,
                            close_end: at + 1,
                        });
                    }
                    cur.push(c);
                }
                ',' if depth == 1 => {
                    let raw = cur.trim().to_string();
                    push_item(&mut items, raw, nested);
                    cur.clear();
                    nested = false;
                }
                '"' | '\'' if cur.trim().is_empty() || depth > 1 => {
                    quote = Some(c);
                    cur.push(c);
                }
                _ => cur.push(c),
            }
            prev_ws = c == ' ' || c == '\t';
        }
        // A line break inside the collection; `flow_scalar` folds it (plain and quoted).
        cur.push('\n');
    }
    None
}

fn push_item(items: &mut Vec<FlowItem>, raw: String, nested: bool) {
    items.push(FlowItem { raw, nested });
}

/// The value of a flow scalar as written (`"a\tb"`, `'it''s'`, `plain  text`; lines
/// separated by `\n`): quotes removed with escapes processed; plain text keeps the spaces
/// inside a line (`a  b` stays `a  b`, as in YAML 1.2 §7.3.3) and folds each line break,
/// with the blanks around it, into one space, or into `n` newlines after `n` empty lines.
pub fn flow_scalar(raw: &str) -> String {
    let t = raw.trim_matches([' ', '\t', '\n']);
    if t.starts_with('"') || t.starts_with('\'') {
        let parts: Vec<&str> = t.split('\n').collect();
        if let Some(q) = scan_quoted(&parts, 0, t.starts_with('"')) {
            return q.value;
        }
    }
    let mut out = String::with_capacity(t.len());
    let mut empty_lines = 0usize;
    for line in t.split('\n').map(|l| l.trim_matches([' ', '\t'])) {
        if line.is_empty() {
            empty_lines += 1;
            continue;
        }
        if !out.is_empty() {
            if empty_lines == 0 {
                out.push(' ');
            } else {
                out.extend(std::iter::repeat_n('\n', empty_lines));
            }
        }
        empty_lines = 0;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hdr(s: &str) -> BlockHeader {
        parse_block_header(s).expect("valid header")
    }

    #[test]
    fn block_headers_parse_chomping_and_indent() {
        assert_eq!(
            hdr("|-"),
            BlockHeader {
                literal: true,
                chomp: Chomp::Strip,
                indent: None
            }
        );
        assert_eq!(
            hdr(">+ # c"),
            BlockHeader {
                literal: false,
                chomp: Chomp::Keep,
                indent: None
            }
        );
        assert_eq!(
            hdr("|2-"),
            BlockHeader {
                literal: true,
                chomp: Chomp::Strip,
                indent: Some(2)
            }
        );
        assert_eq!(
            hdr("|-2"),
            BlockHeader {
                literal: true,
                chomp: Chomp::Strip,
                indent: Some(2)
            }
        );
        assert_eq!(parse_block_header("|x"), None);
        assert_eq!(parse_block_header(">#c"), None);
    }

    #[test]
    fn literal_block_chomping() {
        let lines = ["  a", "  b", "", ""];
        assert_eq!(block_value(&lines, 2, hdr("|")), "a\nb\n");
        assert_eq!(block_value(&lines, 2, hdr("|-")), "a\nb");
        assert_eq!(block_value(&lines, 2, hdr("|+")), "a\nb\n\n\n");
    }

    #[test]
    fn folded_block_joins_lines_and_keeps_more_indented() {
        let lines = ["  a", "  b", "", "  c", "    d", "  e"];
        assert_eq!(block_value(&lines, 2, hdr(">")), "a b\nc\n  d\ne\n");
    }

    #[test]
    fn double_quoted_escapes_and_folding() {
        let q = scan_quoted(
            &[r#"k: "a\tb\u00e9 \"x\"  "#, "   c", "", "  d\\", "  e\""],
            3,
            true,
        )
        .unwrap();
        assert_eq!(q.value, "a\tbé \"x\" c\nde");
        assert_eq!(q.last_line, 4);
        assert_eq!(q.close_end, 4);
    }

    #[test]
    fn single_quoted_doubles_quote() {
        let q = scan_quoted(&["'it''s \"x\"'"], 0, false).unwrap();
        assert_eq!(q.value, "it's \"x\"");
    }

    #[test]
    fn flow_list_with_quoted_commas() {
        let f = scan_flow(&[r#"[a, "b, c", 'd', ]"#], 0).unwrap();
        let vals: Vec<String> = f.items.iter().map(|i| flow_scalar(&i.raw)).collect();
        assert_eq!(vals, ["a", "b, c", "d"]);
        assert_eq!(scan_flow(&["[]"], 0).unwrap().items, vec![]);
        assert!(scan_flow(&["[a, b"], 0).is_none());
    }
}
