//! The `llms.txt` link-index parser (docs/FORMATS.md §7): H1 title, blockquote summary, free info
//! text, and H2 sections of `- [title](url): notes` lists, lenient where the reference
//! parser raises.

/// One `- [title](url): notes` entry of an llms.txt section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmsLink {
    /// Link text.
    pub title: String,
    /// Link target as written.
    pub url: String,
    /// Text after the link (a leading `:` removed), or the text before it when nothing
    /// follows; `None` when there is neither.
    pub notes: Option<String>,
    /// 1-based line.
    pub line: u32,
    /// Byte offset of the line start.
    pub start: usize,
    /// Byte offset after the line (including its line ending).
    pub end: usize,
}

/// One H2 section of an llms.txt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmsSection {
    /// Heading text after `## `.
    pub name: String,
    /// 1-based line of the heading.
    pub line: u32,
    /// Byte offset of the heading line.
    pub start: usize,
    /// Byte offset where the next H2 (or the file end) starts.
    pub end: usize,
    /// The list entries, in file order.
    pub links: Vec<LlmsLink>,
    /// Non-link lines (paragraphs, `###` lines, unparseable bullets), joined by `\n`.
    pub prose: String,
    /// The section is named `Optional` (case-insensitive): its links may be skipped for a
    /// short context (docs/FORMATS.md §7).
    pub optional: bool,
}

/// A parsed llms.txt (docs/FORMATS.md §7).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LlmsTxt {
    /// The H1 text; `None` when the file has no H1 (a warning is recorded).
    pub title: Option<String>,
    /// The blockquote summary (consecutive `>` lines joined by spaces).
    pub summary: Option<String>,
    /// Free text between the summary and the first H2, trimmed.
    pub info: String,
    /// Byte offset where the header (H1, summary, info) ends: the first H2 or the end.
    pub header_end: usize,
    /// H2 sections in file order.
    pub sections: Vec<LlmsSection>,
    /// Problems: (1-based line, message).
    pub warnings: Vec<(u32, String)>,
}

impl LlmsTxt {
    /// All links of all sections, in file order.
    pub fn links(&self) -> impl Iterator<Item = &LlmsLink> {
        self.sections.iter().flat_map(|s| s.links.iter())
    }
}

/// Iterate `(start, line_without_ending)` over `text`, tracking 1-based line numbers.
fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut off = 0;
    text.split_inclusive('\n').map(move |raw| {
        let start = off;
        off += raw.len();
        (start, off, raw.trim_end_matches(['\n', '\r']))
    })
}

/// Whether a line opens or closes a fenced code block (three backticks or tildes, up to 3
/// spaces indent).
fn is_fence(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    line.len() - t.len() <= 3 && (t.starts_with("```") || t.starts_with("~~~"))
}

/// The H2 text of `line` if it is an ATX H2 (`## name`, not `###`).
fn h2_text(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("##")?;
    if rest.starts_with('#') || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim())
}

/// The H1 text of `line` if it is an ATX H1.
fn h1_text(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('#')?;
    if rest.starts_with('#') || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim())
}

/// Split a bullet line into `(text before the link, title, url, text after the link)`.
/// Returns `None` when the line is not a `-`/`*`/`+` bullet holding a `[title](url)` link.
///
/// The destination is read as `CommonMark` reads it (`pulldown-cmark`): a link title
/// (`"t"`, `'t'`, `(t)`) is not part of the url, `<url>` loses its brackets, and
/// backslash escapes such as `\)` are resolved. A link `CommonMark` rejects (a space in a
/// bare destination, say) falls back to the lenient scan: everything between the
/// balanced parentheses, trimmed. The title is the text between the brackets as written.
pub fn parse_link_line(line: &str) -> Option<(&str, &str, String, &str)> {
    let t = line.trim_start();
    let body = t.strip_prefix(['-', '*', '+'])?;
    if !body.is_empty() && !body.starts_with([' ', '\t']) {
        return None;
    }
    let body = body.trim_start();
    let mut search = 0;
    while let Some(rel) = body[search..].find('[') {
        let open = search + rel;
        let close = matching(body, open, b'[', b']')?;
        if body.as_bytes().get(close + 1) == Some(&b'(') {
            let title = body[open + 1..close].trim();
            if let Some((url, len)) = commonmark_link(&body[open..]) {
                return Some((body[..open].trim(), title, url, &body[open + len..]));
            }
            let end = matching(body, close + 1, b'(', b')')?;
            let url = body[close + 2..end].trim().to_string();
            return Some((body[..open].trim(), title, url, &body[end + 1..]));
        }
        search = close + 1;
    }
    None
}

/// Byte offset of the `close` byte balancing the `open` byte at `from`, nesting counted.
fn matching(text: &str, from: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in text.as_bytes().iter().enumerate().skip(from) {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The destination of the inline link starting at byte 0 of `text`, and the link's length
/// in bytes; `None` when `CommonMark` sees no link there.
fn commonmark_link(text: &str) -> Option<(String, usize)> {
    use pulldown_cmark::{Event, Parser, Tag};
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::Link { dest_url, .. }) if range.start == 0 => {
                return Some((dest_url.into_string(), range.end));
            }
            Event::Start(Tag::Paragraph) => {}
            _ => return None,
        }
    }
    None
}

/// Notes of a link from the text around it: the text after the link with one leading
/// `:`/`-`/`—` removed; else the text before it without a trailing `:`.
fn link_notes(prefix: &str, rest: &str) -> Option<String> {
    let r = rest.trim();
    let r = r
        .strip_prefix([':', '-', '\u{2014}', '\u{2013}'])
        .unwrap_or(r)
        .trim();
    if !r.is_empty() {
        return Some(r.to_string());
    }
    let p = prefix.trim().trim_end_matches(':').trim();
    (!p.is_empty()).then(|| p.to_string())
}

/// Parse an llms.txt (docs/FORMATS.md §7) leniently. Never fails: a missing H1, an empty H2 name or
/// a fenced block left open become warnings. Lines inside fenced code are never headings or
/// links.
pub fn parse_llms_txt(text: &str) -> LlmsTxt {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = LlmsTxt {
        header_end: text.len(),
        ..LlmsTxt::default()
    };
    #[derive(PartialEq)]
    enum Stage {
        Start,
        Summary,
        Info,
        Sections,
    }
    let mut stage = Stage::Start;
    let mut in_fence = false;
    let mut fence_line = 0;
    let mut summary: Vec<&str> = Vec::new();
    let mut info: Vec<&str> = Vec::new();
    let mut prose: Vec<&str> = Vec::new();
    for (n, (start, end, line)) in lines_with_offsets(text).enumerate() {
        let lno = n as u32 + 1;
        if is_fence(line) {
            in_fence = !in_fence;
            fence_line = lno;
        }
        let fenced = in_fence || is_fence(line);
        if !fenced && let Some(name) = h2_text(line) {
            if let Some(sec) = out.sections.last_mut() {
                sec.end = start;
                sec.prose = std::mem::take(&mut prose).join("\n").trim().to_string();
            } else {
                out.header_end = start;
            }
            if name.is_empty() {
                out.warnings.push((lno, "H2 heading without a name".into()));
            }
            out.sections.push(LlmsSection {
                name: name.to_string(),
                line: lno,
                start,
                end: text.len(),
                links: Vec::new(),
                prose: String::new(),
                optional: name.eq_ignore_ascii_case("optional"),
            });
            stage = Stage::Sections;
            continue;
        }
        match stage {
            Stage::Start => {
                if line.trim().is_empty() {
                    continue;
                }
                if let Some(t) = h1_text(line).filter(|_| !fenced) {
                    out.title = Some(t.to_string());
                    stage = Stage::Summary;
                } else {
                    out.warnings
                        .push((lno, "llms.txt does not start with an H1 title".into()));
                    stage = Stage::Info;
                    info.push(line);
                }
            }
            Stage::Summary => {
                if let Some(q) = line.trim_start().strip_prefix('>').filter(|_| !fenced) {
                    summary.push(q.trim());
                } else if line.trim().is_empty() && summary.is_empty() {
                    // A blank line before the summary: nothing to record.
                } else {
                    stage = Stage::Info;
                    info.push(line);
                }
            }
            Stage::Info => info.push(line),
            Stage::Sections => {
                let Some(sec) = out.sections.last_mut() else {
                    continue;
                };
                match parse_link_line(line).filter(|_| !fenced) {
                    Some((prefix, title, url, rest)) => sec.links.push(LlmsLink {
                        title: title.to_string(),
                        url,
                        notes: link_notes(prefix, rest),
                        line: lno,
                        start,
                        end,
                    }),
                    None => prose.push(line),
                }
            }
        }
    }
    if let Some(sec) = out.sections.last_mut() {
        sec.prose = prose.join("\n").trim().to_string();
    }
    if in_fence {
        out.warnings
            .push((fence_line, "fenced code block is not closed".into()));
    }
    let s = summary.join(" ");
    out.summary = (!s.trim().is_empty()).then(|| s.trim().to_string());
    out.info = info.join("\n").trim().to_string();
    out
}
