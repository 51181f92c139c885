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

/// Where the llms.txt parser is: before the H1, in the summary, in the free info text, or
/// among the H2 sections.
#[derive(PartialEq)]
enum Stage {
    Start,
    Summary,
    Info,
    Sections,
}

/// The llms.txt parser's state while it walks the lines: the result so far and the lines
/// gathered for the summary, the info text and the current section's prose.
struct LlmsParser<'a> {
    /// The result being built.
    out: LlmsTxt,
    /// The part of the file the current line belongs to.
    stage: Stage,
    /// Inside a fenced code block.
    in_fence: bool,
    /// 1-based line of the last fence line seen.
    fence_line: u32,
    /// The `>` lines' texts, trimmed.
    summary: Vec<&'a str>,
    /// The free text lines between the summary and the first H2.
    info: Vec<&'a str>,
    /// The current section's non-link lines.
    prose: Vec<&'a str>,
}

/// Parse an llms.txt (docs/FORMATS.md §7) leniently. Never fails: a missing H1, an empty H2 name or
/// a fenced block left open become warnings. Lines inside fenced code are never headings or
/// links.
pub fn parse_llms_txt(text: &str) -> LlmsTxt {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = LlmsParser {
        out: LlmsTxt {
            header_end: text.len(),
            ..LlmsTxt::default()
        },
        stage: Stage::Start,
        in_fence: false,
        fence_line: 0,
        summary: Vec::new(),
        info: Vec::new(),
        prose: Vec::new(),
    };
    for (n, (start, end, line)) in lines_with_offsets(text).enumerate() {
        p.line(text.len(), n as u32 + 1, start, end, line);
    }
    p.finish()
}

impl<'a> LlmsParser<'a> {
    /// Take line `lno` (bytes `start..end` of a text `len` bytes long): an H2 outside fenced
    /// code opens a section; any other line goes to the part of the file the parser is in.
    fn line(&mut self, len: usize, lno: u32, start: usize, end: usize, line: &'a str) {
        if is_fence(line) {
            self.in_fence = !self.in_fence;
            self.fence_line = lno;
        }
        let fenced = self.in_fence || is_fence(line);
        if !fenced && let Some(name) = h2_text(line) {
            self.open_section(len, lno, start, name);
            return;
        }
        match self.stage {
            Stage::Start => self.start_line(lno, line, fenced),
            Stage::Summary => self.summary_line(line, fenced),
            Stage::Info => self.info.push(line),
            Stage::Sections => self.section_line(lno, start, end, line, fenced),
        }
    }

    /// Close the current section (or the header) at `start` and open the H2 section `name`
    /// of line `lno`, reaching to the end (`len`) until the next H2.
    fn open_section(&mut self, len: usize, lno: u32, start: usize, name: &str) {
        if let Some(sec) = self.out.sections.last_mut() {
            sec.end = start;
            sec.prose = std::mem::take(&mut self.prose)
                .join("\n")
                .trim()
                .to_string();
        } else {
            self.out.header_end = start;
        }
        if name.is_empty() {
            self.out
                .warnings
                .push((lno, "H2 heading without a name".into()));
        }
        self.out.sections.push(LlmsSection {
            name: name.to_string(),
            line: lno,
            start,
            end: len,
            links: Vec::new(),
            prose: String::new(),
            optional: name.eq_ignore_ascii_case("optional"),
        });
        self.stage = Stage::Sections;
    }

    /// A line before anything: blank lines are skipped, an H1 is the title, anything else
    /// starts the info text with a warning.
    fn start_line(&mut self, lno: u32, line: &'a str, fenced: bool) {
        if line.trim().is_empty() {
            return;
        }
        if let Some(t) = h1_text(line).filter(|_| !fenced) {
            self.out.title = Some(t.to_string());
            self.stage = Stage::Summary;
        } else {
            self.out
                .warnings
                .push((lno, "llms.txt does not start with an H1 title".into()));
            self.stage = Stage::Info;
            self.info.push(line);
        }
    }

    /// A line after the H1: a `>` line adds to the summary, a blank line before it is
    /// skipped, anything else starts the info text.
    fn summary_line(&mut self, line: &'a str, fenced: bool) {
        if let Some(q) = line.trim_start().strip_prefix('>').filter(|_| !fenced) {
            self.summary.push(q.trim());
        } else if line.trim().is_empty() && self.summary.is_empty() {
            // A blank line before the summary: nothing to record.
        } else {
            self.stage = Stage::Info;
            self.info.push(line);
        }
    }

    /// A line inside a section: a link entry (outside fenced code) or prose.
    fn section_line(&mut self, lno: u32, start: usize, end: usize, line: &'a str, fenced: bool) {
        let Some(sec) = self.out.sections.last_mut() else {
            return;
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
            None => self.prose.push(line),
        }
    }

    /// The parsed file: the last section's prose, a warning for a fence left open, the
    /// summary and the info text.
    fn finish(self) -> LlmsTxt {
        let mut out = self.out;
        if let Some(sec) = out.sections.last_mut() {
            sec.prose = self.prose.join("\n").trim().to_string();
        }
        if self.in_fence {
            out.warnings
                .push((self.fence_line, "fenced code block is not closed".into()));
        }
        let s = self.summary.join(" ");
        out.summary = (!s.trim().is_empty()).then(|| s.trim().to_string());
        out.info = self.info.join("\n").trim().to_string();
        out
    }
}
