//! The `llms-ctx*.txt` parser (docs/FORMATS.md §7 (a), `llms_txt2ctx` output): `<project>` header
//! and `<doc title=… desc=…>` elements grouped by their section element.

use super::shared::LineIndex;

/// One `<doc title="…" desc="…">…</doc>` element of an llms-ctx file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtxDoc {
    /// The enclosing section element's tag name (`docs`, `optional`, `examples`, …);
    /// empty when the doc is not inside one.
    pub section: String,
    /// `title` attribute (entities decoded).
    pub title: String,
    /// `desc` attribute (entities decoded), if any.
    pub desc: Option<String>,
    /// Byte offset of `<doc`.
    pub start: usize,
    /// Byte offset of the content (after the open tag's `>`).
    pub content_start: usize,
    /// Byte offset where the content ends (the `</doc>`, or the text end if unclosed).
    pub content_end: usize,
    /// Byte offset after `</doc>`.
    pub end: usize,
}

/// A parsed llms-ctx file (docs/FORMATS.md §7 (a), `llms_txt2ctx` output).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LlmsCtx {
    /// `<project title=…>`.
    pub title: Option<String>,
    /// `<project summary=…>`.
    pub summary: Option<String>,
    /// Text between the project open tag and the first element, trimmed.
    pub info: String,
    /// Byte offset where the header ends (the first element after `<project>`).
    pub header_end: usize,
    /// The docs, in file order.
    pub docs: Vec<CtxDoc>,
    /// Problems: (1-based line, message).
    pub warnings: Vec<(u32, String)>,
}

/// Decode the five XML entities plus numeric `&#NN;`/`&#xHH;` references.
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let semi = tail.find(';').filter(|&j| j <= 10);
        let decoded = semi.and_then(|j| {
            let ent = &tail[1..j];
            let ch = match ent {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                _ => {
                    let num = ent.strip_prefix('#')?;
                    let code = match num.strip_prefix(['x', 'X']) {
                        Some(h) => u32::from_str_radix(h, 16).ok()?,
                        None => num.parse().ok()?,
                    };
                    char::from_u32(code)
                }
            }?;
            Some((ch, j + 1))
        });
        if let Some((ch, len)) = decoded {
            out.push(ch);
            rest = &tail[len..];
        } else {
            out.push('&');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Parse `name="v"`/`name='v'` attributes of a tag body (the text between the tag name and
/// `>`). Values are entity-decoded.
fn parse_attrs(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let after = rest[eq + 1..].trim_start();
        let Some(q) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            break;
        };
        let Some(close) = after[1..].find(q) else {
            break;
        };
        out.push((name, decode_entities(&after[1..=close])));
        rest = after[close + 2..].trim_start();
    }
    out
}

/// End of a tag starting at `lt` (the `>`), honouring quoted attribute values.
fn tag_end(text: &str, lt: usize) -> Option<usize> {
    let mut quote: Option<u8> = None;
    for (i, &b) in text.as_bytes().iter().enumerate().skip(lt) {
        match (quote, b) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The tag name at `text[lt..]` (after `<` or `</`), if it looks like an element name.
fn tag_name(s: &str) -> Option<&str> {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(s.len());
    (end > 0 && s.as_bytes()[0].is_ascii_alphabetic()).then(|| &s[..end])
}

/// Parse an llms-ctx file: `<project title=… summary=…>` + info + section elements holding
/// `<doc title=… desc=…>…</doc>`. Doc contents are opaque (a `<project>` quoted inside a doc
/// is text). Never fails; an unclosed `<doc>` runs to the end with a warning.
pub fn parse_llms_ctx(text: &str) -> LlmsCtx {
    let li = LineIndex::new(text);
    let mut out = LlmsCtx {
        header_end: text.len(),
        ..LlmsCtx::default()
    };
    let mut pos = 0;
    if let Some(p) = text.find("<project")
        && text[..p].trim().is_empty()
        && let Some(gt) = tag_end(text, p)
    {
        for (k, v) in parse_attrs(&text[p + "<project".len()..gt]) {
            match k.as_str() {
                "title" => out.title = Some(v),
                "summary" => out.summary = Some(v),
                _ => {}
            }
        }
        pos = gt + 1;
        let info_end = text[pos..]
            .match_indices('<')
            .map(|(i, _)| pos + i)
            .find(|&i| tag_name(&text[i + 1..]).is_some())
            .unwrap_or(text.len());
        out.info = text[pos..info_end].trim().to_string();
        out.header_end = info_end;
        pos = info_end;
    } else {
        out.warnings
            .push((1, "llms-ctx file does not start with <project …>".into()));
    }
    let mut stack: Vec<String> = Vec::new();
    while let Some(rel) = text[pos..].find('<') {
        let lt = pos + rel;
        let after = &text[lt + 1..];
        if let Some(name) = after.strip_prefix('/').and_then(tag_name) {
            if let Some(ix) = stack.iter().rposition(|s| s == name) {
                stack.truncate(ix);
            }
            pos = lt + 2 + name.len();
            continue;
        }
        let Some(name) = tag_name(after) else {
            pos = lt + 1;
            continue;
        };
        let Some(gt) = tag_end(text, lt) else {
            out.warnings
                .push((li.line(lt), format!("unterminated <{name}> tag")));
            break;
        };
        if name == "doc" {
            let attrs = parse_attrs(&text[lt + 4..gt]);
            let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            let content_start = gt + 1;
            let (content_end, end) = if let Some(i) = text[content_start..].find("</doc>") {
                (content_start + i, content_start + i + "</doc>".len())
            } else {
                out.warnings
                    .push((li.line(lt), "<doc> is not closed".into()));
                (text.len(), text.len())
            };
            out.docs.push(CtxDoc {
                section: stack.last().cloned().unwrap_or_default(),
                title: get("title").unwrap_or_default(),
                desc: get("desc"),
                start: lt,
                content_start,
                content_end,
                end,
            });
            pos = end;
        } else {
            if name != "project" && !text[lt..gt].ends_with('/') {
                stack.push(name.to_string());
            }
            pos = gt + 1;
        }
    }
    out
}
