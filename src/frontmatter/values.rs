//! Value parsers of the frontmatter parser (YAML 1.2 §7–8 in block context): quoted,
//! flow, plain (with continuation lines), block scalars, and block lists. Each returns the
//! value, its style, its last line and its byte span; problems become warnings.

use super::entry::{Value, ValueStyle};
use super::lines::{indent_of, is_blank};
use super::parse::{P, ValOut, cut_comment, has_unquoted_colon, is_dash, key_colon, line_end};
use super::scalar::{BlockHeader, block_value, flow_scalar, scan_flow, scan_quoted};

impl P<'_> {
    pub(super) fn quoted(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let double = self.text[off..].starts_with('"');
        let k = self.continuation_end(i, n);
        let cands: Vec<&str> = (i..k).map(|x| self.content(x)).collect();
        let rel = off - self.lines[i].start;
        let style = if double {
            ValueStyle::DoubleQuoted
        } else {
            ValueStyle::SingleQuoted
        };
        let found = scan_quoted(&cands, rel, double)
            .or_else(|| self.quoted_past_indent(i, rel, n, key, double));
        if let Some(q) = found {
            let last = i + q.last_line;
            let end = self.lines[last].start + q.close_end;
            let after = &self.text[end..self.lines[last].content_end];
            let t = after.trim_start_matches([' ', '\t']);
            if !(t.is_empty() || t.starts_with('#') && t.len() < after.len()) {
                if q.last_line == 0 {
                    // `description: "Hono" is fast` (docs/FORMATS.md §1.4): a raw value that
                    // merely starts with a quote; keep the whole text as written.
                    self.warn(
                        i,
                        format!(
                            "value of `{key}` continues after its closing quote; taken as written; \
                             strict YAML parsers reject this"
                        ),
                    );
                    return self.raw_line_value(i, off);
                }
                self.warn(
                    last,
                    format!("text after the closing quote of `{key}` ignored"),
                );
            }
            for e in q.bad_escapes {
                self.warn(
                    i,
                    format!("unknown escape `{e}` in value of `{key}`; kept as written"),
                );
            }
            ValOut {
                value: Value::Str(q.value),
                style,
                last,
                value_span: off..end,
                children: Vec::new(),
                block: None,
            }
        } else {
            self.warn(
                i,
                format!("unterminated quote in value of `{key}`; value taken to end of line"),
            );
            self.raw_line_value(i, off)
        }
    }

    /// A quoted value that only closes after a line at or left of its key's column `n`
    /// (`description: "a` / `# b` / `  c"`): `PyYAML` reads every line up to the closing
    /// quote as content (`a # b c`), so it is read that way when the closing quote ends its
    /// line (nothing but blanks or a comment after it); a warning names the first such line.
    /// `None` when it never closes that way. A scan of one quote kind that finds no closing
    /// quote at all is not repeated for a later value (O(n) over the frontmatter).
    fn quoted_past_indent(
        &mut self,
        i: usize,
        rel: usize,
        n: usize,
        key: &str,
        double: bool,
    ) -> Option<super::scalar::Quoted> {
        let kind = usize::from(double);
        if self.unclosed_from[kind] <= i {
            return None;
        }
        let cands: Vec<&str> = (i..self.end).map(|x| self.content(x)).collect();
        let Some(q) = scan_quoted(&cands, rel, double) else {
            self.unclosed_from[kind] = i;
            return None;
        };
        let after = cands[q.last_line][q.close_end..].trim_start_matches([' ', '\t']);
        if !(after.is_empty() || after.starts_with('#')) {
            return None;
        }
        let first = (i + 1..=i + q.last_line).find(|&x| {
            let t = self.content(x);
            !is_blank(t) && indent_of(t).0 <= n
        })?;
        self.warn(
            first,
            format!(
                "line inside the quoted value of `{key}` is not indented; read as part of it, as PyYAML does"
            ),
        );
        Some(q)
    }

    /// The rest of line `i` from `off` as a plain value (comment cut, trailing blanks
    /// trimmed), for values that only look quoted or bracketed.
    fn raw_line_value(&mut self, i: usize, off: usize) -> ValOut {
        let (seg, _) = cut_comment(&self.text[off..self.lines[i].content_end]);
        let raw = seg.trim_end_matches([' ', '\t', '\r']);
        ValOut {
            value: Value::Str(raw.replace('\r', "")),
            style: ValueStyle::Plain,
            last: i,
            value_span: off..off + raw.len(),
            children: Vec::new(),
            block: None,
        }
    }

    /// A flow collection (`[a, b]`, `{k: v}`). One that never closes is not a collection:
    /// its value is the rest of the line as written (`[unclosed`, style `Plain`), with a
    /// warning, like a value that only looks quoted.
    pub(super) fn flow(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let is_map = self.text[off..].starts_with('{');
        let k = self.continuation_end(i, n);
        let cands: Vec<&str> = (i..k).map(|x| self.content(x)).collect();
        let rel = off - self.lines[i].start;
        let Some(flow) = scan_flow(&cands, rel) else {
            self.warn(
                i,
                format!("unclosed bracket in value of `{key}`; value taken to end of line"),
            );
            return self.raw_line_value(i, off);
        };
        let last = i + flow.last_line;
        let end = self.lines[last].start + flow.close_end;
        let after = self.text[end..self.lines[last].content_end].trim_start_matches([' ', '\t']);
        if !after.is_empty() && !after.starts_with('#') {
            self.warn(
                last,
                format!("text after the closing bracket of `{key}` ignored"),
            );
        }
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
            self.warn(
                i,
                format!("empty item in `{key}`; strict YAML parsers reject this"),
            );
        }
        let items = flow.items.iter().filter(|it| !it.raw.is_empty());
        let (value, style) = if is_map {
            let pairs = items
                .map(|it| match key_colon(&it.raw) {
                    Some(c) => (
                        flow_scalar(&it.raw[..c]),
                        Value::Str(flow_scalar(&it.raw[c + 1..])),
                    ),
                    None => (flow_scalar(&it.raw), Value::Str(String::new())),
                })
                .collect();
            (Value::Map(std::sync::Arc::new(pairs)), ValueStyle::Map)
        } else {
            (
                Value::List(items.map(|it| flow_scalar(&it.raw)).collect()),
                ValueStyle::FlowList,
            )
        };
        ValOut {
            value,
            style,
            last,
            value_span: off..end,
            children: Vec::new(),
            block: None,
        }
    }

    pub(super) fn plain(&mut self, i: usize, off: usize, n: usize, key: &str) -> ValOut {
        let colon_msg =
            format!("unquoted ': ' in value of `{key}`; strict YAML parsers reject this");
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

    pub(super) fn block_scalar(
        &mut self,
        i: usize,
        off: usize,
        n: usize,
        h: BlockHeader,
    ) -> ValOut {
        let indent = if let Some(m) = h.indent {
            n + m
        } else {
            let first = (i + 1..self.end).find(|&j| !is_blank(self.content(j)));
            match first.map(|j| indent_of(self.content(j)).0) {
                Some(lead) if lead > n => lead,
                _ => n + 1,
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
        let body_end = if h.chomp == super::scalar::Chomp::Keep {
            j
        } else {
            last_content + 1
        };
        let texts: Vec<&str> = (i + 1..body_end.max(i + 1))
            .map(|x| self.content(x))
            .collect();
        let value = block_value(&texts, indent, h);
        let last = body_end.saturating_sub(1).max(i);
        let vend = if last == i {
            self.text[off..line_end(self.lines[i])].trim_end().len() + off
        } else {
            self.lines[last].content_end
        };
        ValOut {
            value: Value::Str(value),
            style: if h.literal {
                ValueStyle::Literal
            } else {
                ValueStyle::Folded
            },
            last,
            value_span: off..vend,
            children: Vec::new(),
            block: Some(h),
        }
    }

    /// Block list whose `-` items sit at column `d`, starting at line `j`.
    pub(super) fn block_list(&mut self, j: usize, d: usize, key: &str) -> ValOut {
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
            let text = if let Value::Str(s) = v.value {
                s
            } else {
                self.warn(
                    k,
                    format!("nested collection in a list item of `{key}`; kept as text"),
                );
                self.text[v.value_span.clone()].to_string()
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

    /// A block map at line `j`, column `d`, nested deeper than [`super::parse::MAX_NESTING`]
    /// under a key at column `n`: its source text through the last line indented deeper
    /// than `n`, kept as one text value (style `Map`, so it is never re-quoted) with a
    /// warning.
    pub(super) fn too_deep(&mut self, j: usize, d: usize, n: usize, key: &str) -> ValOut {
        let mut last = j;
        for k in j + 1..self.end {
            let t = self.content(k);
            if !is_blank(t) {
                if indent_of(t).0 <= n {
                    break;
                }
                last = k;
            }
        }
        let off = self.lines[j].start + d;
        let end = self.lines[last].content_end;
        self.warn(
            j,
            format!(
                "maps nested more than {} levels deep in `{key}`; read as text",
                super::parse::MAX_NESTING
            ),
        );
        ValOut {
            value: Value::Str(self.text[off..end].replace('\r', "")),
            style: ValueStyle::Map,
            last,
            value_span: off..end,
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
        self.warn(
            i,
            format!("map or list inside a list item of `{key}`; kept as text"),
        );
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
