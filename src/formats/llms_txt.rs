//! The llms.txt family (FORMATS §7): the `llms.txt` link index, the `llms-ctx*.txt` expanded
//! form (`<project>` + `<doc>` elements) and concatenated `llms-full`/`llms-small` files.
//!
//! Owns: the pure parsers [`parse_llms_txt`] and [`parse_llms_ctx`], the H1 splitter
//! [`split_full`], file detection [`detect_file`] and the loaders [`load_file`] /
//! [`add_nodes`]. Also hosts three small helpers shared by the FORMATS-2 loaders
//! ([`add_text_file`], [`LineIndex`], [`nest_headings`]).
//!
//! The parsers are lenient where the reference parser (`AnswerDotAI/llms-txt`
//! `llms_txt/core.py`) raises: prose-only sections, text before a link, notes without a
//! colon, stray `###` lines and a file that is only `# Title` all parse; oddities become
//! warnings with 1-based line numbers.

use std::path::Path;

use crate::formats::markdown::{self, Heading};
use crate::formats::read::{ReadOutcome, read_file};
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, SourceId, TextSpan, Warning, id};

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
    /// short context (FORMATS §7).
    pub optional: bool,
}

/// A parsed llms.txt (FORMATS §7).
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

/// Whether a line opens or closes a fenced code block (``` or ~~~, up to 3 spaces indent).
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
pub fn parse_link_line(line: &str) -> Option<(&str, &str, &str, &str)> {
    let t = line.trim_start();
    let body = t.strip_prefix(['-', '*', '+'])?;
    if !body.is_empty() && !body.starts_with([' ', '\t']) {
        return None;
    }
    let body = body.trim_start();
    let bytes = body.as_bytes();
    let mut search = 0;
    while let Some(rel) = body[search..].find('[') {
        let open = search + rel;
        // Matching `]` with nesting.
        let mut depth = 0i32;
        let mut close = None;
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close?;
        if bytes.get(close + 1) == Some(&b'(') {
            let mut depth = 0i32;
            for (i, &b) in bytes.iter().enumerate().skip(close + 1) {
                match b {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            let title = body[open + 1..close].trim();
                            let url = body[close + 2..i].trim();
                            return Some((body[..open].trim(), title, url, &body[i + 1..]));
                        }
                    }
                    _ => {}
                }
            }
            return None;
        }
        search = close + 1;
    }
    None
}

/// Notes of a link from the text around it: the text after the link with one leading
/// `:`/`-`/`—` removed; else the text before it without a trailing `:`.
fn link_notes(prefix: &str, rest: &str) -> Option<String> {
    let r = rest.trim();
    let r = r.strip_prefix([':', '-', '\u{2014}', '\u{2013}']).unwrap_or(r).trim();
    if !r.is_empty() {
        return Some(r.to_string());
    }
    let p = prefix.trim().trim_end_matches(':').trim();
    (!p.is_empty()).then(|| p.to_string())
}

/// Parse an llms.txt (FORMATS §7) leniently. Never fails: a missing H1, an empty H2 name or
/// a fenced block left open become warnings. Lines inside fenced code are never headings or
/// links.
pub fn parse_llms_txt(text: &str) -> LlmsTxt {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = LlmsTxt { header_end: text.len(), ..LlmsTxt::default() };
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
                    out.warnings.push((lno, "llms.txt does not start with an H1 title".into()));
                    stage = Stage::Info;
                    info.push(line);
                }
            }
            Stage::Summary => {
                if let Some(q) = line.trim_start().strip_prefix('>').filter(|_| !fenced) {
                    summary.push(q.trim());
                } else if line.trim().is_empty() && summary.is_empty() {
                    continue;
                } else {
                    stage = Stage::Info;
                    info.push(line);
                }
            }
            Stage::Info => info.push(line),
            Stage::Sections => {
                let sec = match out.sections.last_mut() {
                    Some(s) => s,
                    None => continue,
                };
                match parse_link_line(line).filter(|_| !fenced) {
                    Some((prefix, title, url, rest)) => sec.links.push(LlmsLink {
                        title: title.to_string(),
                        url: url.to_string(),
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
        out.warnings.push((fence_line, "fenced code block is not closed".into()));
    }
    let s = summary.join(" ");
    out.summary = (!s.trim().is_empty()).then(|| s.trim().to_string());
    out.info = info.join("\n").trim().to_string();
    out
}

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

/// A parsed llms-ctx file (FORMATS §7 (a), `llms_txt2ctx` output).
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
        match decoded {
            Some((ch, len)) => {
                out.push(ch);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
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
        let Some(q) = after.chars().next().filter(|c| *c == '"' || *c == '\'') else { break };
        let Some(close) = after[1..].find(q) else { break };
        out.push((name, decode_entities(&after[1..1 + close])));
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
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')).unwrap_or(s.len());
    (end > 0 && s.as_bytes()[0].is_ascii_alphabetic()).then(|| &s[..end])
}

/// Parse an llms-ctx file: `<project title=… summary=…>` + info + section elements holding
/// `<doc title=… desc=…>…</doc>`. Doc contents are opaque (a `<project>` quoted inside a doc
/// is text). Never fails; an unclosed `<doc>` runs to the end with a warning.
pub fn parse_llms_ctx(text: &str) -> LlmsCtx {
    let li = LineIndex::new(text);
    let mut out = LlmsCtx { header_end: text.len(), ..LlmsCtx::default() };
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
        out.warnings.push((1, "llms-ctx file does not start with <project …>".into()));
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
            out.warnings.push((li.line(lt), format!("unterminated <{name}> tag")));
            break;
        };
        if name == "doc" {
            let attrs = parse_attrs(&text[lt + 4..gt]);
            let get = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            let content_start = gt + 1;
            let (content_end, end) = match text[content_start..].find("</doc>") {
                Some(i) => (content_start + i, content_start + i + "</doc>".len()),
                None => {
                    out.warnings.push((li.line(lt), "<doc> is not closed".into()));
                    (text.len(), text.len())
                }
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

/// A concatenated llms-full/llms-small file split at its H1s (FORMATS §7 (b)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullSplit {
    /// Text before the first H1 (the `<SYSTEM>…</SYSTEM>` line), as a byte range, when it
    /// holds anything but blanks.
    pub preamble: Option<(usize, usize)>,
    /// Every H1 (fence-aware), in order, with the byte offset where its part ends.
    pub parts: Vec<(Heading, usize)>,
}

/// Split a concatenated markdown file at its H1 headings using
/// [`markdown::headings`] (so `# comment` lines inside fenced code never split).
pub fn split_full(text: &str) -> FullSplit {
    let h1: Vec<Heading> =
        markdown::headings(text, 0, text.len()).into_iter().filter(|h| h.level == 1).collect();
    let first = h1.first().map(|h| h.start).unwrap_or(text.len());
    let preamble = (!text[..first].trim().is_empty()).then_some((0, first));
    let ends: Vec<usize> = h1.iter().skip(1).map(|h| h.start).chain(std::iter::once(text.len())).collect();
    FullSplit { preamble, parts: h1.into_iter().zip(ends).collect() }
}

/// The preamble's display title: the text of a `<SYSTEM>…</SYSTEM>` line without its tags,
/// else the first non-blank line, cut to 80 chars.
fn preamble_title(s: &str) -> String {
    let line = s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("preamble");
    let inner = line.strip_prefix("<SYSTEM>").map(|r| r.trim_end_matches("</SYSTEM>")).unwrap_or(line);
    inner.chars().take(80).collect()
}

/// Which member of the llms.txt family a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlmsKind {
    /// The `llms.txt` link index (H1, blockquote, H2 link lists).
    Index,
    /// An `llms-ctx*.txt` (`<project>` + `<doc>` elements).
    Ctx,
    /// A concatenated `llms-full`/`llms-small` file (many H1s, maybe a `<SYSTEM>` line).
    Full,
}

/// Classify a file of the llms.txt family from its name and first bytes (`head`, at least
/// the first line; more is fine). `None` for anything else.
///
/// Rules (FORMATS §7, §1.2): content starting with `<project` → [`LlmsKind::Ctx`]; the file
/// name must otherwise contain `llms` and end in `.txt`, or start with `llms` and end in
/// `.md` (Skill_Seekers' renamed copies); content starting with
/// `<SYSTEM>` or a name containing `-full`/`-small`/`-medium` → [`LlmsKind::Full`]; a name
/// containing `-ctx` (without `<project`) → `Full`; otherwise (`llms.txt`, `llms.md`) →
/// [`LlmsKind::Index`].
pub fn detect_file(path: &Path, head: &str) -> Option<LlmsKind> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let head = head.strip_prefix('\u{feff}').unwrap_or(head).trim_start();
    let llms_name = (name.starts_with("llms") && name.ends_with(".md"))
        || (name.contains("llms") && name.ends_with(".txt"));
    if head.starts_with("<project") && (llms_name || name.ends_with(".txt")) {
        return Some(LlmsKind::Ctx);
    }
    if !llms_name {
        return None;
    }
    if head.starts_with("<SYSTEM>") || ["-full", "-small", "-medium", "-ctx"].iter().any(|k| name.contains(k))
    {
        return Some(LlmsKind::Full);
    }
    Some(LlmsKind::Index)
}

/// Byte offset → 1-based line lookup for one text (binary search over line starts).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index the line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
        Self { starts }
    }

    /// 1-based line holding byte `offset`.
    pub fn line(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset).max(1) as u32
    }

    /// 1-based last line of the range `start..end` (the line holding `end - 1`).
    pub fn last_line(&self, start: usize, end: usize) -> u32 {
        self.line(end.saturating_sub(1).max(start))
    }
}

/// Read `abs` and add it as a `File` node (title = file name, `path` = `rel`, `bytes` = size
/// on disk, span = whole text) under `parent`, read with [`read_file`] (size limit, binary
/// sniffing). Returns the node and its source; the source is `None` when the file could not
/// be read or is binary (the node then carries a warning). Invalid UTF-8 is kept
/// byte-for-byte (flag `invalid-utf8`); an over-limit file is flagged `truncated`.
pub fn add_text_file(
    corpus: &mut Corpus,
    parent: NodeId,
    abs: &Path,
    rel: &str,
    format: Format,
) -> (NodeId, Option<SourceId>) {
    let title = abs.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| rel.to_string());
    let mut node = Node::new(NodeKind::File, format, title, rel);
    match read_file(abs) {
        ReadOutcome::Text { source, truncated } => {
            if source.invalid_utf8 {
                node.flags.set(Flag::InvalidUtf8);
            }
            if truncated {
                node.flags.set(Flag::Truncated);
                node.warnings.push(Warning::at(
                    "file over the read limit; only the start was read",
                    rel,
                    None,
                ));
            }
            let len = source.text.len();
            let lines = LineIndex::new(&source.text);
            node.bytes = source.size;
            node.line_start = Some(1);
            node.line_end = Some(lines.last_line(0, len));
            let src = corpus.add_source(source);
            node.span = Some(TextSpan { source: src, start: 0, own_end: len, end: len });
            (corpus.add_child(parent, node), Some(src))
        }
        ReadOutcome::Binary { size } => {
            node.bytes = size;
            node.flags.set(Flag::Binary);
            node.warnings.push(Warning::at("binary content (NUL byte); not parsed", rel, None));
            (corpus.add_child(parent, node), None)
        }
        ReadOutcome::Error(e) => {
            node.warnings.push(Warning::at(format!("cannot read: {e}"), rel, None));
            (corpus.add_child(parent, node), None)
        }
    }
}

/// Add heading sections for `hs` (already filtered to the levels wanted, in order) under
/// `parent`, nested by level: a heading's section runs to the next heading of the same or a
/// higher level (or `end`), its own text to the next heading of any level. Returns the
/// top-level section ids. Segments are heading slugs.
#[allow(clippy::too_many_arguments)]
pub fn nest_headings(
    corpus: &mut Corpus,
    parent: NodeId,
    src: SourceId,
    hs: &[Heading],
    end: usize,
    format: Format,
    path: &str,
    li: &LineIndex,
) -> Vec<NodeId> {
    let mut top = Vec::new();
    let mut stack: Vec<(u8, NodeId)> = Vec::new();
    for (i, h) in hs.iter().enumerate() {
        let own_end = hs.get(i + 1).map(|n| n.start).unwrap_or(end);
        let sec_end = hs[i + 1..].iter().find(|n| n.level <= h.level).map(|n| n.start).unwrap_or(end);
        while stack.last().is_some_and(|(l, _)| *l >= h.level) {
            stack.pop();
        }
        let mut node = Node::new(NodeKind::Section, format, h.title.clone(), path);
        node.seg = Some(id::slug(&h.title));
        node.level = h.level;
        node.line_start = Some(h.line);
        node.line_end = Some(li.last_line(h.start, sec_end));
        node.span = Some(TextSpan { source: src, start: h.start, own_end, end: sec_end });
        let under = stack.last().map(|(_, n)| *n).unwrap_or(parent);
        let nid = corpus.add_child(under, node);
        if stack.is_empty() {
            top.push(nid);
        }
        stack.push((h.level, nid));
    }
    top
}

/// First non-blank line of `s`, trimmed, cut to 200 chars.
pub(crate) fn first_line(s: &str) -> String {
    s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").chars().take(200).collect()
}

/// Read `abs` as a member of the llms family and add it under `parent` as a `File` node
/// (format `llms_txt`) with its structure (see [`add_nodes`]). The kind comes from
/// [`detect_file`]; a file it does not recognise is loaded as [`LlmsKind::Index`]. Returns
/// the file node.
pub fn load_file(corpus: &mut Corpus, parent: NodeId, abs: &Path, rel: &str) -> NodeId {
    let (file, src) = add_text_file(corpus, parent, abs, rel, Format::LlmsTxt);
    if let Some(src) = src {
        let head: String = corpus.sources[src.0 as usize].text.chars().take(256).collect();
        let kind = detect_file(abs, &head).unwrap_or(LlmsKind::Index);
        add_nodes(corpus, file, src, kind);
    }
    file
}

/// Add the structure of an llms-family file under its already-created `File` node `file`
/// whose text is source `src` (the whole file). The file node's `path` is used for the
/// children. After this the file's `own_end` is the start of its first child.
///
/// - [`LlmsKind::Index`]: a `Section` (level 1, the H1 title, spanning the header; summary
///   = the blockquote, detail = the info text), then per H2 a `Group` (seg = slug of the
///   name) holding one `Link` per entry (seg `link-<n>`, n counted 1.. over the whole file;
///   title; summary = notes; `meta.url`; span = the list line). A section without links is
///   a level-2 `Section` instead. The `Optional` section's group and links are flagged
///   `optional`. The file's summary is the blockquote.
/// - [`LlmsKind::Ctx`]: a header `Section` (project title, summary, info), then per section
///   element a `Group` holding one `Part` per `<doc>` (seg `part-<n>`, summary = desc,
///   span = the doc's content). An `optional` element's group and parts are flagged.
/// - [`LlmsKind::Full`]: a `Part` for the preamble (the `<SYSTEM>` line) and one `Part` per
///   H1 (seg `part-<n>`, fence-aware via [`markdown::headings`]), each holding its H2–H6
///   sections nested by level.
///
/// Parser warnings go to the file node with their line numbers.
pub fn add_nodes(corpus: &mut Corpus, file: NodeId, src: SourceId, kind: LlmsKind) {
    let text = corpus.sources[src.0 as usize].text.clone();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let path = corpus.node(file).path.clone();
    let li = LineIndex::new(&text);
    let first_child_start = match kind {
        LlmsKind::Index => add_index_nodes(corpus, file, src, &text, bom, &path, &li),
        LlmsKind::Ctx => add_ctx_nodes(corpus, file, src, &text, &path, &li),
        LlmsKind::Full => add_full_nodes(corpus, file, src, &text, &path, &li),
    };
    if let Some(span) = &mut corpus.node_mut(file).span {
        span.own_end = first_child_start.unwrap_or(span.end).clamp(span.start, span.end);
    }
}

fn span(src: SourceId, start: usize, own_end: usize, end: usize) -> Option<TextSpan> {
    Some(TextSpan { source: src, start, own_end, end })
}

fn add_index_nodes(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    text: &str,
    bom: usize,
    path: &str,
    li: &LineIndex,
) -> Option<usize> {
    let parsed = parse_llms_txt(&text[bom..]);
    let fmt = Format::LlmsTxt;
    for (line, msg) in &parsed.warnings {
        corpus.node_mut(file).warnings.push(Warning::at(msg.clone(), path, Some(*line)));
    }
    let header_end = bom + parsed.header_end;
    let title = parsed.title.clone().unwrap_or_else(|| corpus.node(file).title.clone());
    if let Some(s) = &parsed.summary {
        corpus.node_mut(file).summary = s.clone();
    }
    let mut first = None;
    if !text[..header_end].trim().is_empty() {
        let mut head = Node::new(NodeKind::Section, fmt, title.clone(), path);
        head.seg = Some(id::slug(&title));
        head.level = 1;
        head.summary = parsed.summary.clone().unwrap_or_default();
        head.detail = (!parsed.info.is_empty()).then(|| parsed.info.clone());
        head.line_start = Some(li.line(bom));
        head.line_end = Some(li.last_line(bom, header_end));
        head.span = span(src, bom, header_end, header_end);
        corpus.add_child(file, head);
        first = Some(bom);
    }
    let mut n = 0;
    for sec in &parsed.sections {
        let (start, end) = (bom + sec.start, bom + sec.end);
        first.get_or_insert(start);
        let name = if sec.name.is_empty() { "section".to_string() } else { sec.name.clone() };
        let mut g = Node::new(
            if sec.links.is_empty() { NodeKind::Section } else { NodeKind::Group },
            fmt,
            name.clone(),
            path,
        );
        g.seg = Some(id::slug(&name));
        g.level = if sec.links.is_empty() { 2 } else { 0 };
        g.summary = match (first_line(&sec.prose), sec.links.len()) {
            (p, _) if !p.is_empty() => p,
            (_, 1) => "1 link".to_string(),
            (_, k) => format!("{k} links"),
        };
        g.line_start = Some(sec.line);
        g.line_end = Some(li.last_line(start, end));
        let own_end = sec.links.first().map(|l| bom + l.start).unwrap_or(end);
        g.span = span(src, start, own_end, end);
        g.meta.insert("links".into(), sec.links.len().into());
        if sec.optional {
            g.flags.set(Flag::Optional);
        }
        let gid = corpus.add_child(file, g);
        for l in &sec.links {
            n += 1;
            let mut node = Node::new(NodeKind::Link, fmt, l.title.clone(), path);
            node.seg = Some(format!("link-{n}"));
            node.summary = l.notes.clone().unwrap_or_default();
            node.meta.insert("url".into(), l.url.clone().into());
            node.line_start = Some(li.line(bom + l.start));
            node.line_end = node.line_start;
            node.span = span(src, bom + l.start, bom + l.end, bom + l.end);
            if sec.optional {
                node.flags.set(Flag::Optional);
            }
            corpus.add_child(gid, node);
        }
    }
    first
}

fn add_ctx_nodes(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    text: &str,
    path: &str,
    li: &LineIndex,
) -> Option<usize> {
    let parsed = parse_llms_ctx(text);
    let fmt = Format::LlmsTxt;
    for (line, msg) in &parsed.warnings {
        corpus.node_mut(file).warnings.push(Warning::at(msg.clone(), path, Some(*line)));
    }
    if let Some(s) = &parsed.summary {
        corpus.node_mut(file).summary = s.clone();
    }
    let title = parsed.title.clone().unwrap_or_else(|| corpus.node(file).title.clone());
    let mut head = Node::new(NodeKind::Section, fmt, title.clone(), path);
    head.seg = Some(id::slug(&title));
    head.level = 1;
    head.summary = parsed.summary.clone().unwrap_or_default();
    head.detail = (!parsed.info.is_empty()).then(|| parsed.info.clone());
    head.line_start = Some(1);
    head.line_end = Some(li.last_line(0, parsed.header_end));
    head.span = span(src, 0, parsed.header_end, parsed.header_end);
    corpus.add_child(file, head);
    let mut group: Option<(String, NodeId)> = None;
    for (n, d) in parsed.docs.iter().enumerate() {
        let gid = match &group {
            Some((name, g)) if *name == d.section => *g,
            _ => {
                let label = if d.section.is_empty() { "docs".to_string() } else { d.section.clone() };
                let mut g = Node::new(NodeKind::Group, fmt, label.clone(), path);
                g.seg = Some(id::slug(&label));
                g.line_start = Some(li.line(d.start));
                if label.eq_ignore_ascii_case("optional") {
                    g.flags.set(Flag::Optional);
                }
                let g = corpus.add_child(file, g);
                group = Some((d.section.clone(), g));
                g
            }
        };
        let optional = corpus.node(gid).flags.has(Flag::Optional);
        let title = if d.title.is_empty() { format!("doc {}", n + 1) } else { d.title.clone() };
        let mut p = Node::new(NodeKind::Part, fmt, title, path);
        p.seg = Some(format!("part-{}", n + 1));
        p.summary = d.desc.clone().unwrap_or_default();
        p.line_start = Some(li.line(d.content_start));
        p.line_end = Some(li.last_line(d.content_start, d.content_end));
        p.span = span(src, d.content_start, d.content_end, d.content_end);
        if optional {
            p.flags.set(Flag::Optional);
        }
        corpus.add_child(gid, p);
        corpus.node_mut(gid).line_end = Some(li.last_line(d.start, d.end));
    }
    Some(0)
}

fn add_full_nodes(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    text: &str,
    path: &str,
    li: &LineIndex,
) -> Option<usize> {
    let fmt = Format::LlmsTxt;
    let split = split_full(text);
    let all = markdown::headings(text, 0, text.len());
    let mut n = 0;
    let mut first = None;
    if let Some((s, e)) = split.preamble {
        n += 1;
        let mut p = Node::new(NodeKind::Part, fmt, preamble_title(&text[s..e]), path);
        p.seg = Some(format!("part-{n}"));
        p.summary = "preamble".into();
        p.line_start = Some(li.line(s));
        p.line_end = Some(li.last_line(s, e));
        p.span = span(src, s, e, e);
        corpus.add_child(file, p);
        first = Some(s);
    }
    for (h, end) in &split.parts {
        n += 1;
        first.get_or_insert(h.start);
        let subs: Vec<Heading> =
            all.iter().filter(|s| s.level > 1 && s.start > h.start && s.start < *end).cloned().collect();
        let own_end = subs.first().map(|s| s.start).unwrap_or(*end);
        let mut p = Node::new(NodeKind::Part, fmt, h.title.clone(), path);
        p.seg = Some(format!("part-{n}"));
        p.level = 1;
        p.line_start = Some(h.line);
        p.line_end = Some(li.last_line(h.start, *end));
        p.span = span(src, h.start, own_end, *end);
        let pid = corpus.add_child(file, p);
        nest_headings(corpus, pid, src, &subs, *end, fmt, path, li);
    }
    first
}
