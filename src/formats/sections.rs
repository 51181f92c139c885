//! Heading-aware sectioning of markdown (docs/DESIGN.md §2), CommonMark-correct from
//! pulldown-cmark offsets.
//!
//! One pass over `Parser::new_ext(..).into_offset_iter()` finds the headings (ATX and
//! setext) and, for each section, the first sentence of its body as a one-line summary.
//! Because the events come from a real `CommonMark` parser, a `#` line inside a fenced code block
//! or an HTML block is never a heading, and a `---` after a list or code block is a
//! thematic break, not a setext underline. Headings nested inside block quotes, list items
//! or footnote definitions are content of that block, not sections (they cannot split the
//! surrounding block).

use std::sync::Arc;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::model::{Corpus, Format, Node, NodeId, NodeKind, SourceId, TextSpan, id};

/// Longest summary kept, in chars (the rest is cut and ends with `…`).
pub const SUMMARY_MAX_CHARS: usize = 160;

/// Bytes of body text gathered per section while looking for its first sentence: the most
/// [`first_sentence`] reads (twice [`SUMMARY_MAX_CHARS`] chars) at 4 bytes a char, so a CJK
/// or emoji paragraph is cut at the summary's length with `…` like an ASCII one.
const SUMMARY_SCAN_BYTES: usize = 4 * 2 * SUMMARY_MAX_CHARS;

/// One heading found in a markdown text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    /// 1–6.
    pub level: u8,
    /// Heading text (inline markup removed, whitespace collapsed, trimmed).
    pub title: String,
    /// Byte offset of the heading's first line start (into the whole text).
    pub start: usize,
    /// 1-based line of `start` in the whole text.
    pub line: u32,
    /// The id given by a `{#id}` heading attribute (`VitePress`, Pandoc, kramdown, Hugo), if
    /// any; the attribute block is not part of `title`.
    pub anchor: Option<String>,
}

/// Result of one scan: the headings plus summaries (`summaries[0]` is the text before the
/// first heading, `summaries[i + 1]` belongs to `headings[i]`).
#[derive(Debug)]
struct Scan {
    headings: Vec<Heading>,
    summaries: Vec<String>,
    /// 1-based line of the scanned range's first byte.
    first_line: u32,
    /// 1-based line of the scanned range's last byte (`first_line` when empty).
    last_line: u32,
}

/// Headings of `text[from..to]` (offsets are into `text`): ATX and setext, never inside
/// fenced code or HTML blocks; a `---` thematic break is not a heading. Out-of-range or
/// non-char-boundary offsets are clamped, never a panic.
pub fn headings(text: &str, from: usize, to: usize) -> Vec<Heading> {
    scan(text, from, to, false).headings
}

pub use crate::model::PREAMBLE_TITLE;

/// Add section nodes for `text[from..to]` of source `src` under `file` (nested by level;
/// text before the first heading, if not blank, becomes a level-0 section titled
/// [`PREAMBLE_TITLE`], its id segment the slug of the file's title). Returns the top-level section ids. Sets spans (`start` = heading line start,
/// `own_end` = next heading, `end` = next heading of the same or a higher level, or `to`),
/// 1-based inclusive lines, titles, `seg` (the slug of a `{#id}` heading attribute, with
/// `seg_given`, else GitHub slug of the title; `Corpus::finalize` adds `-2`, `-3` among
/// siblings, to made slugs before given ones), `level`, one-line `summary` (first sentence of the
/// body, at most [`SUMMARY_MAX_CHARS`] chars) and `format`. Sizes are left to
/// [`Corpus::finalize`], which derives them from the spans.
pub fn add_sections(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    from: usize,
    to: usize,
    format: Format,
) -> Vec<NodeId> {
    let Some(source) = corpus.sources.get(src.0 as usize) else {
        return Vec::new();
    };
    let plan = plan_sections(source.text(), from, to);
    apply_sections(corpus, file, src, plan, format)
}

/// The sections of one text, computed without a corpus so it can run on any thread
/// ([`plan_sections`], [`plan_sections_deferred`]); [`apply_sections`] turns it into nodes.
#[derive(Debug)]
pub struct SectionPlan {
    scan: Scan,
    from: usize,
    to: usize,
    prelude_blank: bool,
    /// The summaries are left to be made on first read ([`crate::model::LazySummary`]).
    deferred: bool,
}

/// Scan `text[from..to]` for [`add_sections`] (offsets clamped as in [`headings`]).
pub fn plan_sections(text: &str, from: usize, to: usize) -> SectionPlan {
    let (from, to) = clamp_range(text, from, to);
    let scan = scan(text, from, to, true);
    let first_start = scan.headings.first().map_or(to, |h| h.start);
    let prelude_blank = blank_but_comments(&text[from..first_start]);
    SectionPlan {
        scan,
        from,
        to,
        prelude_blank,
        deferred: false,
    }
}

/// Whether `text` holds nothing but whitespace and closed HTML comments
/// (`<!-- markdownlint-disable -->`, a licence or template marker): such a prelude shows
/// nothing when rendered, so it is no section of its own.
fn blank_but_comments(text: &str) -> bool {
    let mut rest = text;
    loop {
        let at = rest.len() - rest.trim_start().len();
        // A comment indented four columns or more is an indented code block: shown text.
        let line = &rest[rest[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1)..at];
        rest = &rest[at..];
        if rest.is_empty() {
            return true;
        }
        if line.len() >= 4 || line.contains('\t') {
            return false;
        }
        let Some(after) = rest.strip_prefix("<!--") else {
            return false;
        };
        let Some(end) = after.find("-->") else {
            return false;
        };
        rest = &after[end + 3..];
    }
}

/// [`plan_sections`] that leaves the summaries to be made on first read (docs/DESIGN.md §8
/// "to searchable"): the headings come from a line scan when it can be sure of them (it
/// agrees with the `CommonMark` parse; see [`headings_fast`]), and [`apply_sections`] then
/// attaches a [`crate::model::LazySummary`] to the sections, which parses the text when a
/// summary is first read, with the same result as [`plan_sections`]. Otherwise it is
/// [`plan_sections`].
pub fn plan_sections_deferred(text: &str, from: usize, to: usize) -> SectionPlan {
    let (from, to) = clamp_range(text, from, to);
    let first_line = line_of(text, from);
    let Some(headings) = headings_by_lines(text, from, to, first_line) else {
        return plan_sections(text, from, to);
    };
    let last_line = if to > from {
        first_line + count_breaks(text.as_bytes(), from, to - 1)
    } else {
        first_line
    };
    let first_start = headings.first().map_or(to, |h| h.start);
    let prelude_blank = blank_but_comments(&text[from..first_start]);
    SectionPlan {
        scan: Scan {
            summaries: vec![String::new(); headings.len() + 1],
            headings,
            first_line,
            last_line,
        },
        from,
        to,
        prelude_blank,
        deferred: true,
    }
}

/// The headings of `text[from..to]`, as [`headings`] finds them, by a line scan where it can
/// be sure of them and by the `CommonMark` parse elsewhere: the scan [`plan_sections_deferred`]
/// uses, public so tests and the fuzzer can compare the two.
pub fn headings_fast(text: &str, from: usize, to: usize) -> Vec<Heading> {
    let (from, to) = clamp_range(text, from, to);
    headings_by_lines(text, from, to, line_of(text, from))
        .unwrap_or_else(|| headings(text, from, to))
}

/// The headings of `text[from..to]` (clamped) by the line scan of
/// [`super::heading_lines`] (`first_line`: the line of `from`), titles made as [`scan`] makes
/// them; `None` where the scan declines.
pub(crate) fn headings_by_lines(
    text: &str,
    from: usize,
    to: usize,
    first_line: u32,
) -> Option<Vec<Heading>> {
    use super::heading_lines::Title;
    let found = super::heading_lines::headings(text, from, to, first_line)?;
    let mut out = Vec::with_capacity(found.len());
    for f in found {
        let (title, anchor) = match f.title {
            Title::Plain(r) => split_anchor_owned(collapse_ws(text.get(r)?)),
            Title::Markup(r) => {
                // The heading alone, as the whole-text parse reads it (only link
                // references reach outside a heading, and the scan declined those).
                let mut one = headings(text, r.start, r.end);
                if one.len() != 1 {
                    return None;
                }
                let h = one.pop()?;
                (h.title, h.anchor)
            }
        };
        out.push(Heading {
            level: f.level,
            title,
            start: f.start,
            line: f.line,
            anchor,
        });
    }
    Some(out)
}

/// The `(section start, summary)` pairs of `text[from..to]` that [`apply_sections`] gives
/// a plan of [`plan_sections`]: the prelude's at `from` (when no heading starts there),
/// then each heading's at its start. A [`crate::model::MakeSummaries`].
pub fn summaries_of(text: &str, from: usize, to: usize) -> Vec<(usize, String)> {
    let Scan {
        headings,
        summaries,
        ..
    } = scan(text, from, to, true);
    let mut summaries = summaries.into_iter();
    let prelude = summaries.next().unwrap_or_default();
    let mut out = Vec::with_capacity(headings.len() + 1);
    if headings.first().is_none_or(|h| h.start > from) {
        out.push((from, prelude));
    }
    out.extend(headings.iter().map(|h| h.start).zip(summaries));
    out
}

/// Add the section nodes of `plan` (made from source `src`'s text) under `file`; same
/// result as [`add_sections`].
pub fn apply_sections(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    plan: SectionPlan,
    format: Format,
) -> Vec<NodeId> {
    let SectionPlan {
        mut scan,
        from,
        to,
        prelude_blank,
        deferred,
    } = plan;
    let lazy = deferred
        .then(|| std::sync::Arc::new(crate::model::LazySummary::new(from, to, summaries_of)));
    let file_node = corpus.node(file);
    let (file_title, path) = (file_node.title.clone(), file_node.path.clone());
    let sections = FileSections {
        file,
        src,
        format,
        path,
        lazy,
        to,
    };
    let mut top = Vec::new();
    if prelude_blank {
        let first_start = scan.headings.first().map_or(to, |h| h.start);
        own_text_through(corpus, file, from, first_start);
    } else {
        top.push(sections.add_prelude(corpus, &file_title, from, &mut scan));
    }
    sections.add_headings(corpus, scan, &mut top);
    top
}

/// A prelude that is no section (blank lines, HTML comments) stays the file's own text:
/// when `file`'s own text ends at `from`, it now ends at `first_start`, so every byte of
/// the file is counted in one node (docs/DESIGN.md §2 "Sizes").
fn own_text_through(corpus: &mut Corpus, file: NodeId, from: usize, first_start: usize) {
    if let Some(span) = corpus.node_mut(file).span.as_mut()
        && span.own_end == from
        && first_start >= from
    {
        span.own_end = first_start.min(span.end);
    }
}

/// What the section nodes of one file share, for [`apply_sections`].
struct FileSections {
    file: NodeId,
    src: SourceId,
    format: Format,
    /// The file's path (shared with the file node).
    path: Arc<str>,
    lazy: Option<std::sync::Arc<crate::model::LazySummary>>,
    /// End of the sectioned range.
    to: usize,
}

impl FileSections {
    /// A section node titled `title`, with its summary, first line and span (`start`,
    /// `own_end`, `end` in the file's source).
    fn node(&self, title: String, summary: String, line: u32, span: [usize; 3]) -> Node {
        let mut n = Node::new(NodeKind::Section, self.format, title, self.path.clone());
        n.summary = summary;
        n.lazy_summary.clone_from(&self.lazy);
        n.line_start = Some(line);
        let [start, own_end, end] = span;
        n.span = Some(TextSpan {
            source: self.src,
            start,
            own_end,
            end,
        });
        n
    }

    /// Add the preamble section (the text before the first heading, from `from`) under
    /// the file, taking its summary from `scan`.
    fn add_prelude(
        &self,
        corpus: &mut Corpus,
        file_title: &str,
        from: usize,
        scan: &mut Scan,
    ) -> NodeId {
        let first_start = scan.headings.first().map_or(self.to, |h| h.start);
        // Headings start at line starts, so the prelude ends on the line before the first one.
        let prelude_line_end = scan.headings.first().map_or(scan.last_line, |h| {
            h.line.saturating_sub(1).max(scan.first_line)
        });
        let summary = std::mem::take(&mut scan.summaries[0]);
        let mut n = self.node(
            PREAMBLE_TITLE.to_string(),
            summary,
            scan.first_line,
            [from, first_start, first_start],
        );
        // The id keeps the file's slug (docs/DESIGN.md §2 "Sectioning").
        n.seg = Some(id::slug(file_title).into());
        n.line_end = Some(prelude_line_end);
        corpus.add_child(self.file, n)
    }

    /// Add a section per heading of `scan`, nested by level under the file; the top-level
    /// ones are pushed onto `top`.
    fn add_headings(&self, corpus: &mut Corpus, scan: Scan, top: &mut Vec<NodeId>) {
        let Scan {
            mut headings,
            mut summaries,
            last_line,
            ..
        } = scan;
        // Stack of open sections: (level, node, index into `headings`).
        let mut stack: Vec<(u8, NodeId, usize)> = Vec::new();
        for i in 0..headings.len() {
            let own_end = headings.get(i + 1).map_or(self.to, |n| n.start);
            // The node takes the heading's title: the scan is dropped after this loop.
            let title = std::mem::take(&mut headings[i].title);
            let h = &headings[i];
            while let Some(&(lvl, node, _)) = stack.last() {
                if lvl < h.level {
                    break;
                }
                stack.pop();
                close_section(corpus, node, h.start, h.line.saturating_sub(1).max(1));
            }
            let summary = std::mem::take(&mut summaries[i + 1]);
            let n = self.heading_node(h, title, summary, own_end);
            let parent = stack.last().map_or(self.file, |s| s.1);
            let node = corpus.add_child(parent, n);
            if stack.is_empty() {
                top.push(node);
            }
            stack.push((h.level, node, i));
        }
        for (_, node, _) in stack {
            close_section(corpus, node, self.to, last_line);
        }
    }

    /// The section node of heading `h` (its title taken out as `title`), whose own text
    /// ends at `own_end`.
    fn heading_node(&self, h: &Heading, title: String, summary: String, own_end: usize) -> Node {
        let mut n = self.node(title, summary, h.line, [h.start, own_end, self.to]);
        n.name_by_heading(h.anchor.as_deref());
        n.level = h.level;
        n
    }
}

/// Close an open section: its text and lines end at `end` and `line_end`.
fn close_section(corpus: &mut Corpus, node: NodeId, end: usize, line_end: u32) {
    let n = corpus.node_mut(node);
    if let Some(span) = &mut n.span {
        span.end = end;
    }
    n.line_end = Some(line_end);
}

/// Clamp `from..to` into `text` and onto char boundaries, past a leading byte-order mark.
pub(crate) fn clamp_range(text: &str, from: usize, to: usize) -> (usize, usize) {
    let mut to = to.min(text.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    let mut from = from.min(to);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    // A byte-order mark (U+FEFF, which Windows editors write first) is no text: a heading
    // right after it is the file's first heading, not a prelude paragraph.
    if text[from..to].starts_with('\u{feff}') {
        from += '\u{feff}'.len_utf8();
    }
    (from, to)
}

/// 1-based line of byte `pos` in `text`. Line breaks are `\n`, `\r\n` and a lone `\r`
/// (classic Mac OS), as in `CommonMark`, so a CR-only file has the same line numbers as its
/// LF twin.
pub fn line_of(text: &str, pos: usize) -> u32 {
    let pos = pos.min(text.len());
    1 + count_breaks(text.as_bytes(), 0, pos)
}

/// Line breaks in `bytes[from..to]`: every `\n`, and every `\r` not followed by `\n`
/// (looked up in the whole of `bytes`, so a range ending between `\r` and `\n` counts
/// the pair once, at its `\n`).
fn count_breaks(bytes: &[u8], from: usize, to: usize) -> u32 {
    let to = to.min(bytes.len());
    let from = from.min(to);
    let part = &bytes[from..to];
    if memchr::memchr(b'\r', part).is_none() {
        // No `\r` (nearly every file): memchr's vectorized count (a plain filter-and-count
        // loop was not vectorized, about 4 instructions a byte).
        return u32::try_from(memchr::memchr_iter(b'\n', part).count()).unwrap_or(u32::MAX);
    }
    let mut n = 0u32;
    for i in from..to {
        match bytes[i] {
            b'\n' => n += 1,
            b'\r' if bytes.get(i + 1) != Some(&b'\n') => n += 1,
            _ => {}
        }
    }
    n
}

/// Markdown extensions we parse with (GitHub-flavoured features that change block
/// structure; no metadata blocks: the caller strips frontmatter by passing `from`).
/// pulldown-cmark's heading-attribute option is off: it would also take a trailing
/// `{Title}` placeholder for attributes; [`split_anchor`] reads `{#id …}` alone.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
}

/// The body text [`scan`] gathers for one summary (soft breaks as spaces), and the byte
/// ranges of it that came from inline code spans: a `.`, `!` or `?` in one never ends the
/// summary's sentence (``Use `println!` to print.``), and the code stays in the summary
/// (docs/DESIGN.md §2 "Sectioning").
#[derive(Debug, Default)]
struct Body {
    text: String,
    /// Ranges of `text` that are inline code, in order.
    code: Vec<std::ops::Range<usize>>,
}

impl Body {
    /// Append `t` (inline code when `code`), cut on a char boundary at
    /// [`SUMMARY_SCAN_BYTES`] bytes in all.
    fn push_capped(&mut self, t: &str, code: bool) {
        let mut take = SUMMARY_SCAN_BYTES
            .saturating_sub(self.text.len())
            .min(t.len());
        while !t.is_char_boundary(take) {
            take -= 1;
        }
        let start = self.text.len();
        self.text.push_str(&t[..take]);
        if code && take > 0 {
            self.code.push(start..start + take);
        }
    }

    /// [`first_sentence`] of `prose`, a part of `self.text`, with the code ranges skipped.
    fn first_sentence(&self, prose: &str) -> String {
        let at = prose
            .as_ptr()
            .addr()
            .wrapping_sub(self.text.as_ptr().addr());
        first_sentence_in(prose, &self.code, at)
    }

    fn clear(&mut self) {
        self.text.clear();
        self.code.clear();
    }
}

/// Scan `text[from..to]` (clamped) for its headings, and each section's summary when
/// `want_summaries`.
fn scan(text: &str, from: usize, to: usize, want_summaries: bool) -> Scan {
    let (from, to) = clamp_range(text, from, to);
    let mut s = Scanner::new(text, from, want_summaries);
    for (ev, range) in Parser::new_ext(&text[from..to], options()).into_offset_iter() {
        s.event(ev, range.start);
    }
    s.finish(to)
}

/// The state of [`scan`] between pulldown-cmark events.
struct Scanner<'t> {
    bytes: &'t [u8],
    /// Start of the scanned range.
    from: usize,
    want_summaries: bool,
    headings: Vec<Heading>,
    summaries: Vec<String>,
    /// The open section's summary is found (or not wanted).
    done: bool,
    buf: Body,
    /// The open heading: level, start of its line, title so far.
    heading: Option<(u8, usize, String)>,
    /// Open block quotes, lists, footnote and definition lists.
    container: u32,
    /// Open code blocks, HTML blocks, tables and metadata blocks (no summary text).
    skip: u32,
    first_line: u32,
    /// Incremental line counting: `line` is the line of byte `line_pos`.
    line_pos: usize,
    line: u32,
    /// A label line (`URL: http…`, `Contents:`) is no summary, nor is the list right
    /// under it (its items name pages or options): the summary is the next prose.
    label: bool,
    /// An image is no prose: its alt text stays out of the summary, and so does the Pandoc /
    /// Quarto attribute block right after it (`![logo](logo.png){.lightbox width=150px}`).
    images: u32,
    after_image: bool,
}

impl<'t> Scanner<'t> {
    /// The scan of `text` from `from`, before its first event.
    fn new(text: &'t str, from: usize, want_summaries: bool) -> Self {
        let first_line = line_of(text, from);
        Scanner {
            bytes: text.as_bytes(),
            from,
            want_summaries,
            headings: Vec::new(),
            summaries: vec![String::new()],
            done: !want_summaries,
            buf: Body::default(),
            heading: None,
            container: 0,
            skip: 0,
            first_line,
            line_pos: from,
            line: first_line,
            label: false,
            images: 0,
            after_image: false,
        }
    }

    /// Take in one event, which starts at byte `start` of the scanned range.
    fn event(&mut self, ev: Event<'_>, start: usize) {
        // Only the event right after an image's end can be its attribute block.
        let right_after_image = std::mem::take(&mut self.after_image);
        match ev {
            Event::Start(Tag::Heading { level, .. })
                if self.container == 0 && self.heading.is_none() =>
            {
                self.heading_start(level as u8, start);
            }
            Event::End(TagEnd::Heading(_)) if self.container == 0 && self.heading.is_some() => {
                self.heading_end();
            }
            ev @ (Event::Text(_) | Event::Code(_)) => self.text(ev, right_after_image),
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, _, title)) = &mut self.heading {
                    title.push(' ');
                } else if !self.done && self.skip == 0 {
                    self.buf.text.push(' ');
                }
            }
            Event::Start(tag) => self.block_start(&tag),
            Event::End(tag) => self.block_end(tag),
            _ => {}
        }
    }

    /// A top-level heading starts at byte `start` of the range: it opens at its line's start.
    fn heading_start(&mut self, level: u8, start: usize) {
        self.flush();
        let from = self.from;
        let abs = from + start;
        let ls = self.bytes[from..abs]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(from, |p| from + p + 1);
        self.heading = Some((level, ls, String::new()));
    }

    /// The open heading ends: it is found, and a new section's summary is looked for.
    fn heading_end(&mut self) {
        if let Some((level, start, title)) = self.heading.take() {
            self.line += count_breaks(self.bytes, self.line_pos, start);
            self.line_pos = start;
            let (title, anchor) = split_anchor_owned(collapse_ws_owned(title));
            self.headings.push(Heading {
                level,
                title,
                start,
                line: self.line,
                anchor,
            });
            self.summaries.push(String::new());
            self.done = !self.want_summaries;
            self.label = false;
        }
    }

    /// Text or inline code: part of the open heading's title, or of the body gathered for
    /// the summary (an image's attribute block left out).
    fn text(&mut self, ev: Event<'_>, right_after_image: bool) {
        let code = matches!(ev, Event::Code(_));
        let (Event::Text(t) | Event::Code(t)) = ev else {
            return;
        };
        let t: &str = if right_after_image && t.starts_with('{') {
            t.find('}').map_or(&t, |end| &t[end + 1..])
        } else {
            &t
        };
        if let Some((_, _, title)) = &mut self.heading {
            title.push_str(t);
        } else if !self.done
            && self.skip == 0
            && self.images == 0
            && self.buf.text.len() < SUMMARY_SCAN_BYTES
        {
            self.buf.push_capped(t, code);
        }
    }

    /// A block or inline element starts (headings are [`Self::heading_start`]'s).
    fn block_start(&mut self, tag: &Tag<'_>) {
        match tag {
            Tag::BlockQuote(_)
            | Tag::List(_)
            | Tag::FootnoteDefinition(_)
            | Tag::DefinitionList => {
                self.flush();
                self.container += 1;
            }
            Tag::CodeBlock(_) | Tag::HtmlBlock | Tag::Table(_) | Tag::MetadataBlock(_) => {
                self.flush();
                self.skip += 1;
            }
            Tag::Paragraph | Tag::Item => self.flush(),
            Tag::Image { .. } => self.images += 1,
            _ => {}
        }
    }

    /// A block or inline element ends (headings are [`Self::heading_end`]'s).
    fn block_end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Image => {
                self.images = self.images.saturating_sub(1);
                self.after_image = self.images == 0;
            }
            TagEnd::BlockQuote(_)
            | TagEnd::List(_)
            | TagEnd::FootnoteDefinition
            | TagEnd::DefinitionList => {
                self.flush();
                self.container = self.container.saturating_sub(1);
            }
            TagEnd::CodeBlock | TagEnd::HtmlBlock | TagEnd::Table | TagEnd::MetadataBlock(_) => {
                self.skip = self.skip.saturating_sub(1);
            }
            TagEnd::Paragraph | TagEnd::Item => self.flush(),
            _ => {}
        }
    }

    /// A block of body text ended: its first sentence is the open section's summary when
    /// it is prose (not a label line, nor the list right under one).
    fn flush(&mut self) {
        let in_list = self.container > 0;
        let prose = without_container_fences(&self.buf.text);
        // Text without a letter or digit (what is left of `- <test>: <link>` once its
        // inline HTML is dropped, or a bare `...`) says nothing: the next paragraph may.
        if !self.done && prose.chars().any(char::is_alphanumeric) {
            if !crate::util::prose::is_prose(prose) {
                self.label = true;
            } else if !(in_list && self.label) {
                if let Some(last) = self.summaries.last_mut() {
                    *last = self.buf.first_sentence(prose);
                }
                self.done = true;
            }
        }
        self.buf.clear();
    }

    /// The scan once the range (ending at `to`) is read: the last summary flushed and the
    /// range's last line counted.
    fn finish(mut self, to: usize) -> Scan {
        self.flush();
        let last_line = if to > self.from {
            self.line + count_breaks(self.bytes, self.line_pos, (to - 1).max(self.line_pos))
        } else {
            self.first_line
        };
        Scan {
            headings: self.headings,
            summaries: self.summaries,
            first_line: self.first_line,
            last_line,
        }
    }
}

/// A heading title without its trailing attribute block `{#id .class key=value}` (`VitePress`,
/// Pandoc, kramdown, Hugo), and the id it gives. Only a block whose first item is `#id`
/// counts: `ADR-{ID}: {Title}` keeps its braces.
pub fn split_anchor(title: &str) -> (String, Option<String>) {
    match anchor_cut(title) {
        Some((keep, id)) => (title[..keep].to_string(), Some(id.to_string())),
        None => (title.to_string(), None),
    }
}

/// [`split_anchor`] of an owned title, reusing its buffer (the scan's path: every heading).
fn split_anchor_owned(mut title: String) -> (String, Option<String>) {
    match anchor_cut(&title) {
        Some((keep, id)) => {
            let id = id.to_string();
            title.truncate(keep);
            (title, Some(id))
        }
        None => (title, None),
    }
}

/// Where [`split_anchor`] cuts `title`: the length of the title it keeps (bytes) and the
/// attribute block's id, or `None` when there is no `{#id …}` block at the end.
fn anchor_cut(title: &str) -> Option<(usize, &str)> {
    let t = title.trim_end();
    let open = t.rfind("{#")?;
    if !t.ends_with('}') {
        return None;
    }
    let inner = &t[open + 2..t.len() - 1];
    let id = inner.split_whitespace().next().unwrap_or("");
    (!id.is_empty() && !inner.contains(['{', '}'])).then(|| (t[..open].trim_end().len(), id))
}

/// Collapse runs of whitespace (including newlines) to one space and trim.
///
/// Whitespace is `char::is_whitespace` (as `str::split_whitespace`); ASCII bytes are
/// classified without decoding, since this runs on every heading and summary.
pub fn collapse_ws(s: &str) -> String {
    if is_collapsed_ascii(s.as_bytes()) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let bytes = s.as_bytes();
    // `run..gap` is text to copy as it is: words separated by single spaces. A run ends at
    // any other whitespace (a longer gap, a tab, a newline), so prose costs one copy.
    let mut run: Option<usize> = None;
    // Start of the whitespace being read, `None` inside a word.
    let mut gap: Option<usize> = None;
    let flush = |out: &mut String, piece: &str| {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(piece);
    };
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let (space, len) = if b.is_ascii() {
            (matches!(b, b'\t'..=b'\r' | b' '), 1)
        } else {
            // `i` is always a char boundary: it moves by whole chars.
            let Some(c) = s[i..].chars().next() else {
                break;
            };
            (c.is_whitespace(), c.len_utf8())
        };
        if space {
            gap.get_or_insert(i);
        } else {
            match (run, gap) {
                (None, _) => run = Some(i),
                (Some(r), Some(g)) if !(i == g + 1 && bytes[g] == b' ') => {
                    flush(&mut out, &s[r..g]);
                    run = Some(i);
                }
                _ => {}
            }
            gap = None;
        }
        i += len;
    }
    if let Some(r) = run {
        flush(&mut out, &s[r..gap.unwrap_or(s.len())]);
    }
    out
}

/// [`collapse_ws`] of an owned string, which is returned as it is when there is nothing to
/// collapse (most headings).
fn collapse_ws_owned(s: String) -> String {
    if is_collapsed_ascii(s.as_bytes()) {
        s
    } else {
        collapse_ws(&s)
    }
}

/// Whether `b` is ASCII whose only whitespace is single spaces between words: text that
/// [`collapse_ws`] returns unchanged. One pass over the bytes, no decoding.
fn is_collapsed_ascii(b: &[u8]) -> bool {
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    // Folds without an early exit, so the compiler vectorizes both passes.
    let odd = b.iter().fold(0u8, |acc, &c| {
        acc | (c & 0x80) | u8::from(c.wrapping_sub(b'\t') < 5)
    });
    let double = b.iter().zip(b.iter().skip(1)).fold(0u8, |acc, (&x, &y)| {
        acc | (u8::from(x == b' ') & u8::from(y == b' '))
    });
    odd == 0 && double == 0
}

/// `s` (a paragraph's text, soft breaks as spaces) without the custom-container fences of
/// `VitePress` around or in it (`::: code-group`, `::: warning` and its kind word, a closing
/// `:::`): they are markup, not prose, so a summary never reads `::: code-group`.
fn without_container_fences(s: &str) -> &str {
    let mut t = s.trim();
    if let Some(rest) = t.strip_prefix(":::") {
        let rest = rest.trim_start_matches(':').trim_start();
        // The kind word (`warning`, `code-group`) goes with the fence.
        t = rest
            .find(char::is_whitespace)
            .map_or("", |i| rest[i..].trim_start());
    }
    t.strip_suffix(":::").map_or(t, str::trim_end)
}

/// The first sentence of `s` on one line: cut after the first `.`, `!` or `?` followed by
/// whitespace (or after `。`, `！`, `？`), whitespace collapsed, then limited to
/// [`SUMMARY_MAX_CHARS`] chars (a longer one ends with `…`).
pub fn first_sentence(s: &str) -> String {
    first_sentence_in(s, &[], 0)
}

/// [`first_sentence`] of `s` where no mark inside the byte ranges `code` (inline code spans,
/// in order, into a text in which `s` starts at byte `at`) ends the sentence.
fn first_sentence_in(s: &str, code: &[std::ops::Range<usize>], at: usize) -> String {
    let t = s.trim_start();
    let at = at + (s.len() - t.len());
    let s = t;
    let one_line = collapse_ws(&s[..sentence_end(s, code, at)]);
    // At most SUMMARY_MAX_CHARS bytes means at most that many chars: nothing to cut.
    if one_line.len() <= SUMMARY_MAX_CHARS {
        one_line
    } else {
        truncate_chars(&one_line, SUMMARY_MAX_CHARS)
    }
}

/// Where [`first_sentence`] cuts `s` (a byte offset): after the first `。`, `！` or `？`, or
/// before the first whitespace that follows `.`, `!` or `?`, or after twice
/// [`SUMMARY_MAX_CHARS`] chars (the result is truncated anyway); a mark inside one of the
/// `code` ranges (byte `i` of `s` is byte `at + i` of theirs) ends nothing. ASCII is read
/// byte by byte; only other chars are decoded.
fn sentence_end(s: &str, code: &[std::ops::Range<usize>], at: usize) -> usize {
    let bytes = s.as_bytes();
    // Whether byte `i` is inline code; `i` only grows, so `code` is walked once.
    let mut next_code = 0;
    let mut in_code = |i: usize| {
        while code.get(next_code).is_some_and(|r| r.end <= at + i) {
            next_code += 1;
        }
        code.get(next_code).is_some_and(|r| r.start <= at + i)
    };
    // The previous char when it ends a sentence (`.`, `!`, `?`), else 0.
    let mut prev = 0u8;
    let mut seen = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // Eight ASCII bytes without `.`, `!` or `?`, after a char that ends no sentence, cannot
        // end it: skip them at once (below the char limit, where each is one char).
        if prev == 0
            && seen + 8 <= 2 * SUMMARY_MAX_CHARS
            && let Some(chunk) = bytes
                .get(i..i + 8)
                .and_then(|c| <[u8; 8]>::try_from(c).ok())
            && ends_nothing(u64::from_le_bytes(chunk))
        {
            i += 8;
            seen += 8;
            continue;
        }
        let (space, len) = if b.is_ascii() {
            (matches!(b, b'\t'..=b'\r' | b' '), 1)
        } else {
            // `i` is always a char boundary: it moves by whole chars.
            let Some(ch) = s[i..].chars().next() else {
                break;
            };
            if matches!(ch, '。' | '！' | '？') && !in_code(i) {
                return i + ch.len_utf8();
            }
            (ch.is_whitespace(), ch.len_utf8())
        };
        if space && prev != 0 && !(prev == b'.' && ends_with_abbreviation(&bytes[..i])) {
            return i;
        }
        seen += 1;
        if seen > 2 * SUMMARY_MAX_CHARS {
            return i;
        }
        prev = if matches!(b, b'.' | b'!' | b'?') && !in_code(i) {
            b
        } else {
            0
        };
        i += len;
    }
    s.len()
}

/// Abbreviations whose `.` never ends a sentence in documentation, with whether they match
/// in any case (`E.g.`) or only as written (`Dr.`, not the acronym `DR.`). `etc.` often ends
/// a sentence and `ms.` is also a unit, so they are not ones.
const ABBREVIATIONS: [(&[u8], bool); 9] = [
    (b"e.g.", true),
    (b"i.e.", true),
    (b"cf.", true),
    (b"vs.", true),
    (b"viz.", true),
    (b"approx.", true),
    (b"Mr.", false),
    (b"Dr.", false),
    (b"Prof.", false),
];

/// Whether `before` (the text up to a `.` and the whitespace after it) ends with one of
/// [`ABBREVIATIONS`] as a whole word: `e.g.`, `(i.e.`, `Dr.`, not `cdr.`, `max_dr.` or `DR.`.
fn ends_with_abbreviation(before: &[u8]) -> bool {
    ABBREVIATIONS.iter().any(|&(a, any_case)| {
        let Some(start) = before.len().checked_sub(a.len()) else {
            return false;
        };
        let tail = &before[start..];
        let same = if any_case {
            tail.eq_ignore_ascii_case(a)
        } else {
            tail == a
        };
        same && start
            .checked_sub(1)
            .is_none_or(|j| !(before[j].is_ascii_alphanumeric() || before[j] == b'_'))
    })
}

/// Whether the eight bytes of `w` are all ASCII and none is `.`, `!` or `?` (a SWAR test: a
/// byte equal to `c` is a zero byte of `w ^ c…c`).
fn ends_nothing(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS != 0;
    w & HIGHS == 0
        && !has_zero(w ^ (ONES * u64::from(b'.')))
        && !has_zero(w ^ (ONES * u64::from(b'!')))
        && !has_zero(w ^ (ONES * u64::from(b'?')))
}

/// `s` limited to `max` chars; a cut string ends with `…` (counted in `max`).
pub fn truncate_chars(s: &str, max: usize) -> String {
    if s.is_ascii() {
        // A char is a byte: the same cut without decoding.
        return if s.len() <= max {
            s.to_string()
        } else {
            format!("{}…", s[..max.saturating_sub(1)].trim_end())
        };
    }
    if s.char_indices().nth(max).is_none() {
        s.to_string()
    } else {
        let keep = s
            .char_indices()
            .nth(max.saturating_sub(1))
            .map_or(s.len(), |(i, _)| i);
        format!("{}…", s[..keep].trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Source;

    fn titles(text: &str) -> Vec<(u8, String, u32)> {
        headings(text, 0, text.len())
            .into_iter()
            .map(|h| (h.level, h.title, h.line))
            .collect()
    }

    #[test]
    fn a_prelude_of_html_comments_only_is_no_section() {
        assert!(blank_but_comments(" \n<!-- template:attributes -->\n\n"));
        assert!(blank_but_comments("<!-- a -->\n<!--\nb\n-->\n"));
        assert!(blank_but_comments(""));
        assert!(!blank_but_comments("<!-- a -->\nIntro text.\n"));
        assert!(!blank_but_comments("<!-- never closed\n"));
        assert!(!blank_but_comments("<div>x</div>\n"));
        // Indented four spaces (or a tab) it is a code block, shown as text.
        assert!(!blank_but_comments("    <!-- snippet -->\n"));
        assert!(!blank_but_comments("\n\t<!-- snippet -->\n"));
        assert!(!blank_but_comments("<!-- a -->\n    <!-- code -->\n"));
        assert!(blank_but_comments("  <!-- two spaces -->\n"));
        assert!(!blank_but_comments(
            "  \n    <!-- code after a blank line -->\n"
        ));
    }

    #[test]
    fn atx_and_setext_headings() {
        let t = "# One\ntext\n\nTwo\n===\n\nThree\n---\nbody\n### Four ###\n";
        assert_eq!(
            titles(t),
            vec![
                (1, "One".into(), 1),
                (1, "Two".into(), 4),
                (2, "Three".into(), 7),
                (3, "Four".into(), 10)
            ]
        );
    }

    #[test]
    fn count_breaks_with_and_without_cr() {
        let text = b"a\nb\r\nc\rd\n\ne";
        let slow = |from: usize, to: usize| {
            (from..to)
                .filter(|&i| {
                    text[i] == b'\n' || (text[i] == b'\r' && text.get(i + 1) != Some(&b'\n'))
                })
                .count() as u32
        };
        for from in 0..text.len() {
            for to in from..=text.len() {
                assert_eq!(count_breaks(text, from, to), slow(from, to), "{from}..{to}");
            }
        }
        assert_eq!(count_breaks(b"x\ny\n\nz", 0, 6), 3);
        assert_eq!(count_breaks(b"x\ny", 5, 9), 0);
    }

    #[test]
    fn cr_only_and_crlf_headings_have_the_lines_and_starts_of_lf() {
        let lf = "# One\ntext\n\nTwo\n===\n\nThree\n---\nbody\n### Four ###\n";
        let cr = lf.replace('\n', "\r");
        assert_eq!(titles(&cr), titles(lf));
        let starts =
            |t: &str| -> Vec<usize> { headings(t, 0, t.len()).iter().map(|h| h.start).collect() };
        assert_eq!(starts(&cr), starts(lf));
        assert_eq!(titles(&lf.replace('\n', "\r\n")), titles(lf));
        assert_eq!(line_of("a\rb\r\nc\nd", 8), 4);
    }

    #[test]
    fn hashes_in_fences_and_html_are_not_headings() {
        let t = "# A\n```bash\n# comment\n```\n~~~\n# tilde\n~~~\n<div>\n# html\n</div>\n\n## B\n";
        assert_eq!(titles(t), vec![(1, "A".into(), 1), (2, "B".into(), 12)]);
    }

    #[test]
    fn rule_after_list_or_code_is_not_setext() {
        let t = "# A\n- item\n---\n```\ncode\n```\n---\ntext\n\n---\n";
        assert_eq!(titles(t), vec![(1, "A".into(), 1)]);
    }

    #[test]
    fn inline_markup_removed_from_titles() {
        let t = "## The `app.get()` *method* and [links](x)\n";
        assert_eq!(titles(t)[0].1, "The app.get() method and links");
    }

    #[test]
    fn heading_id_attributes_are_stripped_and_give_the_slug() {
        let t = "## Async Components {#async-components}\n\nText.\n### Basic Usage {#basic .tip}\n";
        let h = headings(t, 0, t.len());
        let got: Vec<(&str, Option<&str>)> = h
            .iter()
            .map(|h| (h.title.as_str(), h.anchor.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("Async Components", Some("async-components")),
                ("Basic Usage", Some("basic"))
            ]
        );
        assert_eq!(
            split_anchor("ADR-{ID}: {Title}"),
            ("ADR-{ID}: {Title}".to_string(), None)
        );
        assert_eq!(
            split_anchor("Object {key: value}"),
            ("Object {key: value}".to_string(), None)
        );
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let src = c.add_source(crate::model::Source::virtual_text(t.to_string()));
        let file = c.add_child(
            root,
            Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md"),
        );
        add_sections(&mut c, file, src, 0, t.len(), Format::Markdown);
        c.finalize();
        let ids: Vec<String> = (0..c.nodes.len() as u32)
            .map(NodeId)
            .filter(|n| c.node(*n).kind == NodeKind::Section)
            .map(|n| c.id(n))
            .collect();
        assert_eq!(
            ids,
            [
                "docs/a.md#async-components",
                "docs/a.md#async-components/basic"
            ]
        );
    }

    #[test]
    fn an_explicit_heading_id_after_two_same_plain_headings_keeps_its_name() {
        // Sibling sections: the `{#dup}` attribute names its section `dup` (it was `dup-3`);
        // the plain `Dup` headings take the suffixes. Nested ones are another sibling set.
        let t = "# Dup\none.\n# Dup\ntwo.\n# Other {#dup}\nthree.\n## Dup\n## Sub {#dup}\n";
        let (c, file) = load(t);
        let ids: Vec<(String, String)> = c
            .preorder(file)
            .into_iter()
            .skip(1)
            .map(|n| (c.id(n), c.node(n).title.clone()))
            .collect();
        let want = [
            ("r/doc.md#dup-2", "Dup"),
            ("r/doc.md#dup-3", "Dup"),
            ("r/doc.md#dup", "Other"),
            ("r/doc.md#dup/dup-2", "Dup"),
            ("r/doc.md#dup/dup", "Sub"),
        ]
        .map(|(i, t)| (i.to_string(), t.to_string()));
        assert_eq!(ids, want);
    }

    #[test]
    fn headings_in_lists_and_quotes_are_content() {
        let t = "# A\n- # not a section\n> ## quoted\n";
        assert_eq!(titles(t), vec![(1, "A".into(), 1)]);
    }

    #[test]
    fn headings_respect_from_offset() {
        let t = "# Skip\n# Keep\n";
        let h = headings(t, 7, t.len());
        assert_eq!(
            h,
            vec![Heading {
                level: 1,
                title: "Keep".into(),
                start: 7,
                line: 2,
                anchor: None
            }]
        );
        // Offsets out of range or inside a char never panic.
        assert!(headings("é# x", 1, 99).is_empty());
    }

    #[test]
    fn container_fences_are_no_summary() {
        assert_eq!(without_container_fences("::: code-group"), "");
        assert_eq!(
            without_container_fences("::: warning You can't use it here. :::"),
            "You can't use it here."
        );
        assert_eq!(without_container_fences("Plain: text."), "Plain: text.");
        let (c, file) = load("# A\n\n::: code-group\n\n```sh\nx\n```\n\n:::\n\nThen run it.\n");
        assert_eq!(c.node(c.node(file).children[0]).summary, "Then run it.");
    }

    #[test]
    fn collapse_ws_equals_split_whitespace_joined() {
        for s in [
            "",
            "   ",
            "a",
            " a  b\tc\n\r\x0bd\x0ce ",
            "x\u{a0}y\u{3000}z\u{2028}w",
            "caf\u{e9}  na\u{ef}ve \u{1f600}\u{85}end",
            "\u{1c}kept\u{1f}",
            "one two  three\n four five\tsix seven ",
            "  lead and trail  ",
            "a b",
            "\u{e9} \u{e9}\u{a0}\u{a0}x y",
        ] {
            let want = s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(collapse_ws(s), want, "{s:?}");
        }
    }

    #[test]
    fn first_sentence_cuts_and_truncates() {
        assert_eq!(first_sentence("Use it.  Then more."), "Use it.");
        assert_eq!(first_sentence("版本说明。第二句。"), "版本说明。");
        assert_eq!(first_sentence("no end"), "no end");
        assert_eq!(first_sentence("  Line one.\nLine two."), "Line one.");
        assert_eq!(first_sentence("v1.2 is out! Yes"), "v1.2 is out!");
        let long = "a".repeat(200);
        let s = first_sentence(&long);
        assert_eq!(s.chars().count(), SUMMARY_MAX_CHARS);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn abbreviations_do_not_end_the_first_sentence() {
        for (body, want) in [
            (
                "Get several values, e.g. a list of tags. Second.",
                "Get several values, e.g. a list of tags.",
            ),
            (
                "API call type (i.e. read or write). Next.",
                "API call type (i.e. read or write).",
            ),
            ("Ask Dr. Who first. Then go.", "Ask Dr. Who first."),
            ("Compare A vs. B here. More.", "Compare A vs. B here."),
            // `etc.` ends a sentence, and a word merely ending like an abbreviation is none.
            ("Keys, values etc. Next one.", "Keys, values etc."),
            ("Bundle size vs. speed. ok", "Bundle size vs. speed."),
            ("Take the cdr. Then more.", "Take the cdr."),
            ("Save duration_ms. Then go.", "Save duration_ms."),
            ("It takes 5 ms. Then more.", "It takes 5 ms."),
            ("NAT, IPIP and DR. Then more.", "NAT, IPIP and DR."),
            ("Ends with e.g.", "Ends with e.g."),
        ] {
            assert_eq!(first_sentence(body), want, "{body:?}");
            assert_eq!(first_sentence_by_char(body), want, "{body:?}");
        }
    }

    /// [`first_sentence`] as it was before its ASCII fast paths: char by char.
    fn first_sentence_by_char(s: &str) -> String {
        first_sentence_by_char_in(s, &[])
    }

    /// [`first_sentence_in`] char by char: a mark at a byte inside `code` (ranges into `s`)
    /// is a plain char.
    fn first_sentence_by_char_in(s: &str, code: &[std::ops::Range<usize>]) -> String {
        let shift = s.len() - s.trim_start().len();
        let s = s.trim_start();
        let is_code = |i: usize| code.iter().any(|r| r.contains(&(shift + i)));
        let mut cut = s.len();
        let mut prev = ' ';
        for (seen, (i, ch)) in s.char_indices().enumerate() {
            if matches!(ch, '。' | '！' | '？') && !is_code(i) {
                cut = i + ch.len_utf8();
                break;
            }
            let abbreviation = prev == '.' && ends_with_abbreviation(&s.as_bytes()[..i]);
            if (ch.is_whitespace() && matches!(prev, '.' | '!' | '?') && !abbreviation)
                || seen >= 2 * SUMMARY_MAX_CHARS
            {
                cut = i;
                break;
            }
            prev = if is_code(i) { 'c' } else { ch };
        }
        let one_line = s[..cut].split_whitespace().collect::<Vec<_>>().join(" ");
        if one_line.chars().count() <= SUMMARY_MAX_CHARS {
            return one_line;
        }
        let keep = one_line
            .char_indices()
            .nth(SUMMARY_MAX_CHARS - 1)
            .map_or(one_line.len(), |(i, _)| i);
        format!("{}…", one_line[..keep].trim_end())
    }

    #[test]
    fn first_sentence_and_collapse_ws_fast_paths_match_char_by_char_rules() {
        const PIECES: [&str; 20] = [
            "word",
            "a",
            " ",
            "  ",
            ".",
            "!",
            "?",
            "\t",
            "\n",
            "\r",
            "\u{b}",
            "。",
            "\u{e9}t\u{e9}",
            "\u{a0}",
            "v1.2",
            "\u{3000}",
            "x.y",
            "\u{1f600}",
            "e.g.",
            "I.E.",
        ];
        let mut seed = 0x2545_f491_u64;
        let mut texts = vec![
            "a".repeat(319) + ". b",
            "a".repeat(320) + ". b",
            "a".repeat(400),
            // Whitespace collapses, so the char limit's exact place shows in the summary.
            format!("a{}bcdefghijk", " ".repeat(317)),
            format!("a{}bcdefghijk", " ".repeat(318)),
            format!("a{}bcdefghijk", " ".repeat(319)),
            format!("{}.\u{a0}next", "b".repeat(7)),
            format!("{}\u{e9}{}", "c".repeat(150), "d".repeat(200)),
        ];
        let mut next = |below: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % below
        };
        // Texts whose pieces are inline code about one time in four (`code`: their ranges).
        let mut with_code = Vec::new();
        for k in 0..4000 {
            let n = next(120);
            let mut t = String::new();
            let mut code = Vec::new();
            for _ in 0..n {
                let piece = PIECES[next(PIECES.len() as u64) as usize];
                if k >= 2000 && next(4) == 0 {
                    code.push(t.len()..t.len() + piece.len());
                }
                t.push_str(piece);
            }
            if k < 2000 {
                texts.push(t);
            } else {
                with_code.push((t, code));
            }
        }
        with_code.push((
            format!("{}! b. c", "a".repeat(300)),
            vec![300..301, 303..304],
        ));
        with_code.push(("  Use println! now. More".into(), vec![2..5, 6..14]));
        for (t, code) in &with_code {
            assert_eq!(
                first_sentence_in(t, code, 0),
                first_sentence_by_char_in(t, code),
                "{t:?} {code:?}"
            );
        }
        for t in &texts {
            assert_eq!(first_sentence(t), first_sentence_by_char(t), "{t:?}");
            let joined = t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(collapse_ws(t), joined, "{t:?}");
            assert_eq!(collapse_ws_owned(t.clone()), joined, "{t:?}");
        }
    }

    fn load(text: &str) -> (Corpus, NodeId) {
        let mut c = Corpus::new();
        let src = c.add_source(Source::virtual_text(text.to_string()));
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
        let mut f = Node::new(NodeKind::File, Format::Markdown, "doc.md", "doc.md");
        f.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: 0,
            end: text.len(),
        });
        let file = c.add_child(root, f);
        add_sections(&mut c, file, src, 0, text.len(), Format::Markdown);
        c.finalize();
        (c, file)
    }

    fn dump(c: &Corpus, file: NodeId) -> Vec<String> {
        c.preorder(file)
            .into_iter()
            .skip(1)
            .map(|id| {
                let n = c.node(id);
                let s = n.span.unwrap_or(TextSpan {
                    source: SourceId(0),
                    start: 0,
                    own_end: 0,
                    end: 0,
                });
                format!(
                    "{} L{}-{} {}..{}..{} {:?}",
                    c.id(id),
                    n.line_start.unwrap_or(0),
                    n.line_end.unwrap_or(0),
                    s.start,
                    s.own_end,
                    s.end,
                    n.summary
                )
            })
            .collect()
    }

    #[test]
    fn sections_nest_with_level_jumps_and_prelude() {
        let t = "Intro text. More.\n\n# A\nalpha body.\n### C\ngamma\n## D\n# A\nagain\n";
        let (c, file) = load(t);
        assert_eq!(
            dump(&c, file),
            vec![
                "r/doc.md#docmd L1-2 0..19..19 \"Intro text.\"",
                "r/doc.md#a L3-7 19..35..52 \"alpha body.\"",
                "r/doc.md#a/c L5-6 35..47..47 \"gamma\"",
                "r/doc.md#a/d L7-7 47..52..52 \"\"",
                "r/doc.md#a-2 L8-9 52..62..62 \"again\"",
            ]
        );
        let a = c.find("r/doc.md#a").unwrap_or(NodeId(0));
        assert_eq!(c.node(a).bytes, 33);
        assert_eq!(c.node(a).own_bytes, 16);
        assert_eq!(c.node(a).level, 1);
    }

    #[test]
    fn blank_prelude_is_not_a_section() {
        let (c, file) = load("\n\n# Only\n");
        assert_eq!(dump(&c, file), vec!["r/doc.md#only L3-3 2..9..9 \"\""]);
    }

    #[test]
    fn a_byte_order_mark_before_the_first_heading_is_not_a_prelude() {
        let t = "\u{feff}# BOM title\n\nBOM body. Next.\n";
        let (c, file) = load(t);
        let kids = &c.node(file).children;
        assert_eq!(kids.len(), 1);
        let s = c.node(kids[0]);
        assert_eq!(
            (s.title.as_str(), s.summary.as_str()),
            ("BOM title", "BOM body.")
        );
        assert_eq!(
            (s.line_start, s.span.map(|sp| sp.start)),
            (Some(1), Some(3))
        );
        assert_eq!(titles(t), [(1, "BOM title".to_string(), 1)]);
    }

    #[test]
    fn cjk_and_emoji_summaries_are_cut_at_the_summary_length_with_an_ellipsis() {
        for body in [
            "这是一个很长的中文句子没有标点".repeat(20),
            "日本語のテキスト、".repeat(30),
            "\u{6587}\u{1f600}".repeat(200),
        ] {
            let (c, file) = load(&format!("# A\n\n{body}\n"));
            let summary = &c.node(c.node(file).children[0]).summary;
            assert_eq!(summary.chars().count(), SUMMARY_MAX_CHARS, "{summary}");
            assert!(summary.ends_with('…'), "{summary}");
        }
    }

    #[test]
    fn a_sentence_mark_inside_inline_code_does_not_end_the_summary() {
        for (body, want) in [
            (
                "Call `foo.bar()` to start. Then more.",
                "Call foo.bar() to start.",
            ),
            (
                "Use `println!` to print. Then more.",
                "Use println! to print.",
            ),
            (
                "The `?` operator returns early. More.",
                "The ? operator returns early.",
            ),
            (
                "Run `make check. now` first. More.",
                "Run make check. now first.",
            ),
            ("Type `e.g. this`: done. More.", "Type e.g. this: done."),
            ("`a.` `b!` c. d", "a. b! c."),
            // Only the code's marks: one right after a span still ends the sentence.
            ("Use `foo`. Then more.", "Use foo."),
            ("A `x` b! c", "A x b!"),
            ("Set `版本。` then go. More.", "Set 版本。 then go."),
        ] {
            let (c, file) = load(&format!("# A\n\n{body}\n"));
            assert_eq!(c.node(c.node(file).children[0]).summary, want, "{body:?}");
        }
        // A paragraph that opens a container fence: the ranges follow the cut prose.
        let (c, file) = load("# A\n\n::: tip\nCall `x.y? z` now. More.\n:::\n");
        assert_eq!(c.node(c.node(file).children[0]).summary, "Call x.y? z now.");
    }

    #[test]
    fn summary_skips_text_without_a_letter_or_digit() {
        // A KEP test-plan template: the inline HTML leaves only `:` of the list item.
        let t =
            "# Integration tests\n\n- <test>: <link to test coverage>\n\n...\n\nThe real prose.\n";
        let (c, file) = load(t);
        assert_eq!(c.node(c.node(file).children[0]).summary, "The real prose.");
    }

    #[test]
    fn summary_skips_code_and_tables_uses_list_items() {
        let t = "# A\n```\ncode.\n```\n| x |\n|---|\n| y |\n\n- first item. second\n";
        let (c, file) = load(t);
        assert_eq!(c.node(c.node(file).children[0]).summary, "first item.");
    }

    #[test]
    fn summary_skips_an_image_and_its_quarto_attributes() {
        // The llms.txt spec page (`answerdotai-spec-index.qmd.md`): a logo, then prose.
        let t = "# Proposal\n\n![llms.txt logo](logo.png){.lightbox width=150px .floatr}\n\nWe propose adding a file. More.\n";
        let (c, file) = load(t);
        assert_eq!(
            c.node(c.node(file).children[0]).summary,
            "We propose adding a file."
        );
        let t = "# A\n\nClick ![the icon](i.png){width=9} to start. More.\n";
        let (c, file) = load(t);
        assert_eq!(c.node(c.node(file).children[0]).summary, "Click to start.");
    }

    #[test]
    fn summary_skips_a_url_label_line_and_the_list_under_a_label() {
        // A Skill_Seekers page: `**URL:** …`, `**Contents:**` and its list, then text.
        let t = "# Cache\n\n**URL:** http://127.0.0.1:8765/docs/cache.md\n\n**Contents:**\n- Import\n- Usage\n\nThe Cache middleware caches. More.\n";
        let (c, file) = load(t);
        assert_eq!(
            c.node(c.node(file).children[0]).summary,
            "The Cache middleware caches."
        );
    }
}
