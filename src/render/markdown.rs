//! Markdown → [`Rendered`] styled lines for the preview pane (docs/DESIGN.md §6), in the spirit of
//! glow: `#` heading markers (H1 underlined with `─`), wrapped paragraphs, `│ ` block quotes,
//! `•`/`◦`/`▪` bullets by depth, numbered and task (`☐`/`☑`) lists, box-drawn tables fitted
//! to the width, code blocks as unwrapped lines truncated with `…` (plain
//! [`Role::CodeBlock`], to be replaced by [`crate::render::highlight::apply`]), dim HTML,
//! footnotes, and the YAML frontmatter as a dim [`Role::FrontMatter`] block. One blank line
//! separates blocks.
//!
//! Parsing is pulldown-cmark 0.13 with tables, strikethrough, task lists, footnotes and YAML
//! metadata blocks enabled. Rendering is done once per (node, width), never per frame.

use pulldown_cmark::{
    BlockQuoteKind, CodeBlockKind, Event, LinkType, MetadataBlockKind, Options, Parser, Tag, TagEnd,
};

use crate::render::containers::{self, Piece};
use crate::render::html;
use crate::render::table::{self, Row, Table};
use crate::render::terms::Terms;
use crate::render::text::{Line, Role, Span, Style};
use crate::render::width::str_width;
use crate::render::wrap::{chop, truncate_line, wrap};

/// How to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Width of the pane in terminal cells. No rendered line is wider. `0` renders nothing.
    pub width: u16,
    /// Search terms to mark as [`Role::Match`]: case-insensitive whole tokens or identifier
    /// parts (rules in [`crate::render::terms`]).
    pub terms: Vec<String>,
    /// Show the YAML frontmatter block (dim) instead of skipping it.
    pub show_frontmatter: bool,
    /// What happens to code lines wider than the pane.
    pub long_code: LongLines,
}

/// What happens to a code line wider than the pane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LongLines {
    /// Cut at the width with `…` (every line fits the width).
    #[default]
    Cut,
    /// Kept whole, wider than the width: the viewer scrolls sideways over the code block
    /// rows ([`Rendered::is_code_row`]).
    Keep,
    /// Cut into rows of the width, no character dropped; continuation rows carry the
    /// block's indentation.
    Wrap,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            width: 80,
            terms: Vec::new(),
            show_frontmatter: true,
            long_code: LongLines::Cut,
        }
    }
}

/// A code block found while rendering; its rows are `lines[first_line..first_line +
/// row_count()]` of [`Rendered::lines`], one per source line unless wrapped (the frame line
/// with its language, when any, is just before).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeBlock {
    /// The language: first word of the fence info string (`""` for none / indented code).
    pub lang: String,
    /// The code as in the source (raw, not sanitised; tabs not expanded), for highlighting.
    pub code: String,
    /// Index in [`Rendered::lines`] of the first code line.
    pub first_line: usize,
    /// Number of code lines (one per source line of code).
    pub line_count: usize,
    /// Per code line, the prefix spans (quote bars, list indentation) before the code.
    pub(crate) prefixes: Vec<Line>,
    /// The prefix of a continuation row (wrap mode).
    pub(crate) cont_prefix: Line,
    /// Per code line, how many rows it takes (1 unless wrapped).
    pub(crate) rows: Vec<usize>,
}

impl CodeBlock {
    /// Number of display rows of the block (its lines, wrapped ones counted per row).
    pub fn row_count(&self) -> usize {
        self.rows.iter().sum()
    }
}

/// The display rows of one code line: `prefix` then `content` (terms already marked), cut,
/// kept whole or wrapped at `width` cells per `mode`; continuation rows start with `cont`.
pub(crate) fn code_rows(
    prefix: &Line,
    cont: &Line,
    content: Vec<Span>,
    width: usize,
    mode: LongLines,
) -> Vec<Line> {
    let mut spans = prefix.spans.clone();
    match mode {
        LongLines::Cut => {
            spans.extend(content);
            vec![truncate_line(&Line::from_spans(spans), width)]
        }
        LongLines::Keep => {
            spans.extend(content);
            vec![Line::from_spans(spans)]
        }
        LongLines::Wrap => {
            let room = width.saturating_sub(prefix.width()).max(1);
            chop(&content, room)
                .into_iter()
                .enumerate()
                .map(|(i, row)| {
                    let mut l = if i == 0 { prefix.clone() } else { cont.clone() };
                    l.spans.extend(row.spans);
                    truncate_line(&l, width)
                })
                .collect()
        }
    }
}

/// The result of [`render_markdown`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    /// Display lines, none wider than the width rendered at.
    pub lines: Vec<Line>,
    /// For each line, the byte offset in the source text of the block (or code line, or table
    /// row) it comes from; non-decreasing. Same length as `lines`.
    pub line_offsets: Vec<usize>,
    /// Code blocks in document order.
    pub code_blocks: Vec<CodeBlock>,
    /// Headings as (line index, level 1..=6, plain heading text), in document order.
    pub headings: Vec<(usize, u8, String)>,
    /// Indices of lines containing a [`Role::Match`] span, ascending (for `n`/`N`).
    pub match_lines: Vec<usize>,
    /// The width rendered at, in cells.
    pub width: u16,
    /// The terms marked; [`crate::render::highlight::apply`] re-marks them in code.
    pub terms: Vec<String>,
    /// How long code lines were laid out (with [`LongLines::Keep`] code rows may be wider
    /// than `width`).
    pub long_code: LongLines,
}

impl Rendered {
    /// Whether line `i` is a code block row (the rows a sideways scroll moves).
    pub fn is_code_row(&self, i: usize) -> bool {
        let k = self.code_blocks.partition_point(|b| b.first_line <= i);
        k > 0 && i < self.code_blocks[k - 1].first_line + self.code_blocks[k - 1].row_count()
    }

    /// The sideways offset (cells) that shows the first search match of line `i` a third of
    /// the way into a pane `width` cells wide: `Some(0)` when it is visible unscrolled or `i`
    /// is no code row, `None` when the line holds no match.
    pub fn hscroll_for_match(&self, i: usize, width: usize) -> Option<usize> {
        let line = self.lines.get(i)?;
        let mut col = 0;
        for span in &line.spans {
            let w = str_width(&span.text);
            if span.style.role == Role::Match {
                let fits = col + w <= width;
                return Some(if fits || !self.is_code_row(i) {
                    0
                } else {
                    col.saturating_sub(width / 3)
                });
            }
            col += w;
        }
        None
    }

    /// The widest code row, in cells (how far a sideways scroll can go).
    pub fn widest_code_row(&self) -> usize {
        self.code_blocks
            .iter()
            .flat_map(|b| {
                &self.lines[b.first_line.min(self.lines.len())
                    ..(b.first_line + b.row_count()).min(self.lines.len())]
            })
            .map(Line::width)
            .max()
            .unwrap_or(0)
    }

    /// The lines as plain text (no styles), one `String` per line.
    pub fn plain_lines(&self) -> Vec<String> {
        self.lines.iter().map(Line::plain).collect()
    }
}

/// Render `text` (markdown) to styled lines at `opts.width` cells.
///
/// Never panics on any input or width; a width of 0 gives an empty [`Rendered`].
pub fn render_markdown(text: &str, opts: &RenderOptions) -> Rendered {
    let mut r = Renderer::new(opts);
    if opts.width == 0 {
        return r.out;
    }
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_GFM;
    // Custom containers (`::: warning`) cut the text; each stretch is parsed on its own.
    for piece in containers::split(text) {
        match piece {
            Piece::Text(range) => {
                let base = range.start;
                let Some(part) = text.get(range) else {
                    continue;
                };
                for (event, at) in Parser::new_ext(part, options).into_offset_iter() {
                    r.event(event, base + at.start);
                }
                r.flush_inline();
            }
            Piece::Open { at, kind, title } => r.open_box(&kind, &title, at),
            Piece::Close { .. } => r.close_box(),
        }
    }
    r.flush_inline();
    r.out
}

enum Container {
    Quote,
    /// A custom container (`::: warning`): a bar like a quote when it has a title, nothing
    /// for a code group.
    Box {
        titled: bool,
    },
    /// A list item or footnote definition: its marker is shown on its first line, then
    /// `indent` spaces.
    Item {
        marker: Option<Vec<Span>>,
        indent: usize,
    },
}

struct Code {
    lang: String,
    /// A code-group tab label: `[npm]` in the info string (`sh [npm]`).
    label: String,
    text: String,
    offset: Option<usize>,
}

struct Renderer {
    width: usize,
    terms: Terms,
    show_frontmatter: bool,
    long_code: LongLines,
    out: Rendered,
    containers: Vec<Container>,
    /// Open lists: the next number for ordered lists, `None` for bullets.
    lists: Vec<Option<u64>>,
    inline: Vec<Span>,
    /// Indices in `inline` where a hard break starts a new line.
    breaks: Vec<usize>,
    styles: Vec<Style>,
    /// Open links: destination, index in `inline` where the text starts, link type.
    links: Vec<(String, usize, LinkType)>,
    image_depth: usize,
    image_alt: String,
    offset: usize,
    blank_pending: bool,
    heading: Option<(u8, usize)>,
    code: Option<Code>,
    html: Option<String>,
    metadata: Option<String>,
    table: Option<Table>,
}

impl Renderer {
    fn new(opts: &RenderOptions) -> Renderer {
        Renderer {
            width: usize::from(opts.width),
            terms: Terms::new(&opts.terms),
            show_frontmatter: opts.show_frontmatter,
            long_code: opts.long_code,
            out: Rendered {
                width: opts.width,
                terms: opts.terms.clone(),
                long_code: opts.long_code,
                ..Rendered::default()
            },
            containers: Vec::new(),
            lists: Vec::new(),
            inline: Vec::new(),
            breaks: Vec::new(),
            styles: vec![Style::new(Role::Text)],
            links: Vec::new(),
            image_depth: 0,
            image_alt: String::new(),
            offset: 0,
            blank_pending: false,
            heading: None,
            code: None,
            html: None,
            metadata: None,
            table: None,
        }
    }

    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    /// Push an inline style derived from the current one: `role` replaces the current role
    /// unless that is a heading or table header (which keep their colour).
    fn push_style(&mut self, role: Role, f: impl Fn(Style) -> Style) {
        let cur = self.style();
        let mut s = f(cur);
        s.role = match cur.role {
            Role::Heading(_) | Role::TableHeader => cur.role,
            _ => role,
        };
        self.styles.push(s);
    }

    fn pop_style(&mut self) {
        if self.styles.len() > 1 {
            self.styles.pop();
        }
    }

    fn prefix_width(&self) -> usize {
        self.containers
            .iter()
            .map(|c| match c {
                Container::Quote | Container::Box { titled: true } => 2,
                Container::Box { titled: false } => 0,
                Container::Item { indent, .. } => *indent,
            })
            .sum()
    }

    fn content_width(&self) -> usize {
        self.width.saturating_sub(self.prefix_width()).max(1)
    }

    /// The prefix of the next content line; consumes pending item markers.
    fn take_prefix(&mut self) -> Vec<Span> {
        let mut spans = Vec::new();
        for c in &mut self.containers {
            match c {
                Container::Quote | Container::Box { titled: true } => {
                    spans.push(Span::role("│ ", Role::Quote));
                }
                Container::Box { titled: false } => {}
                Container::Item { marker, indent } => match marker.take() {
                    Some(m) => spans.extend(m),
                    None => spans.push(Span::role(" ".repeat(*indent), Role::Text)),
                },
            }
        }
        spans
    }

    fn push_line(&mut self, mut line: Line, offset: usize) {
        if line.width() > self.width {
            line = truncate_line(&line, self.width);
        }
        let offset = offset.max(self.out.line_offsets.last().copied().unwrap_or(0));
        self.out.lines.push(line);
        self.out.line_offsets.push(offset);
    }

    /// Push a row already laid out (code rows may be wider than the width when kept whole).
    fn push_row(&mut self, line: Line, offset: usize) {
        let offset = offset.max(self.out.line_offsets.last().copied().unwrap_or(0));
        self.out.lines.push(line);
        self.out.line_offsets.push(offset);
    }

    fn emit_blank_if_pending(&mut self) {
        if !self.blank_pending {
            return;
        }
        self.blank_pending = false;
        if self.out.lines.is_empty() {
            return;
        }
        let mut s = String::new();
        for c in &self.containers {
            match c {
                Container::Quote | Container::Box { titled: true } => s.push_str("│ "),
                Container::Box { titled: false } => {}
                Container::Item { indent, .. } => s.push_str(&" ".repeat(*indent)),
            }
        }
        let bars = s.trim_end();
        let line = Line::from_spans(if bars.is_empty() {
            Vec::new()
        } else {
            vec![Span::role(bars, Role::Quote)]
        });
        let offset = self.offset;
        self.push_line(line, offset);
    }

    /// Open a custom container: its title (bold, behind the bar) on the first line.
    fn open_box(&mut self, kind: &str, title: &str, offset: usize) {
        self.block_start(offset);
        self.emit_blank_if_pending();
        let titled = !title.is_empty() && kind != "code-group";
        self.containers.push(Container::Box { titled });
        if titled {
            self.emit(
                Line::from_spans(vec![Span::new(title, Style::new(Role::Strong).bold())]),
                offset,
            );
        }
        self.blank_pending = false;
    }

    /// Close the innermost custom container.
    fn close_box(&mut self) {
        self.flush_inline();
        if let Some(i) = self
            .containers
            .iter()
            .rposition(|c| matches!(c, Container::Box { .. }))
        {
            self.containers.truncate(i);
        }
        self.blank_pending = true;
    }

    /// Emit one content line (prefix added, terms marked, truncated to the width).
    fn emit(&mut self, content: Line, offset: usize) {
        self.emit_blank_if_pending();
        let mut spans = self.take_prefix();
        let mut content = content.spans;
        let hit = self.terms.mark(&mut content);
        spans.extend(content);
        if hit {
            self.out.match_lines.push(self.out.lines.len());
        }
        self.push_line(Line::from_spans(spans), offset);
    }

    /// Wrap and emit the pending inline spans (a paragraph, tight list item text, heading).
    fn flush_inline(&mut self) {
        if self.inline.is_empty() {
            self.breaks.clear();
            return;
        }
        let spans = std::mem::take(&mut self.inline);
        let breaks = std::mem::take(&mut self.breaks);
        let width = self.content_width();
        let offset = self.offset;
        let mut start = 0;
        for end in breaks.into_iter().chain(std::iter::once(spans.len())) {
            let end = end.clamp(start, spans.len());
            for line in wrap(&spans[start..end], width) {
                self.emit(line, offset);
            }
            start = end;
        }
    }

    fn block_start(&mut self, offset: usize) {
        self.flush_inline();
        self.offset = offset;
    }

    fn block_end(&mut self) {
        self.flush_inline();
        self.blank_pending = true;
    }

    fn text(&mut self, text: &str, offset: usize) {
        if let Some(code) = &mut self.code {
            code.offset.get_or_insert(offset);
            code.text.push_str(text);
        } else if let Some(meta) = &mut self.metadata {
            meta.push_str(text);
        } else if let Some(html) = &mut self.html {
            html.push_str(text);
        } else if self.image_depth > 0 {
            self.image_alt.push_str(text);
        } else {
            let style = self.style();
            self.inline.push(Span::new(text, style));
        }
    }

    fn event(&mut self, event: Event<'_>, offset: usize) {
        match event {
            Event::Start(tag) => self.start(tag, offset),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => self.text(&t, offset),
            Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                if self.image_depth > 0 {
                    self.image_alt.push_str(&t);
                } else {
                    let code_style = Style {
                        role: Role::InlineCode,
                        ..self.style()
                    };
                    self.inline.push(Span::new(&t, code_style));
                }
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                if let Some(html) = &mut self.html {
                    html.push_str(&t);
                } else if self.image_depth == 0 {
                    self.inline_html(&t);
                }
            }
            Event::FootnoteReference(label) => {
                self.inline
                    .push(Span::role(format!("[{label}]"), Role::Footnote));
            }
            Event::SoftBreak => {
                if self.image_depth > 0 {
                    self.image_alt.push(' ');
                } else {
                    let style = self.style();
                    self.inline.push(Span::new(" ", style));
                }
            }
            Event::HardBreak => self.breaks.push(self.inline.len()),
            Event::Rule => {
                self.block_start(offset);
                let w = self.content_width();
                self.emit(
                    Line::from_spans(vec![Span::role("─".repeat(w), Role::Rule)]),
                    offset,
                );
                self.blank_pending = true;
            }
            Event::TaskListMarker(checked) => {
                if let Some(Container::Item { marker, indent }) = self.containers.last_mut() {
                    if marker.is_some() {
                        let m = if checked { "☑ " } else { "☐ " };
                        *marker = Some(vec![Span::role(m, Role::ListMarker)]);
                        *indent = str_width(m);
                    } else {
                        let m = if checked { "☑ " } else { "☐ " };
                        self.inline.push(Span::role(m, Role::ListMarker));
                    }
                }
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>, offset: usize) {
        match tag {
            Tag::Paragraph => self.block_start(offset),
            Tag::Heading { level, .. } => self.start_heading(level as u8, offset),
            Tag::BlockQuote(kind) => self.start_quote(kind, offset),
            Tag::CodeBlock(kind) => self.start_code(&kind, offset),
            Tag::HtmlBlock => {
                self.block_start(offset);
                self.html = Some(String::new());
            }
            Tag::List(first) => {
                self.block_start(offset);
                self.lists.push(first);
            }
            Tag::Item => self.start_item(offset),
            Tag::FootnoteDefinition(label) => self.start_footnote(&label, offset),
            Tag::Table(aligns) => {
                self.block_start(offset);
                self.table = Some(Table {
                    aligns,
                    rows: Vec::new(),
                    header_rows: 0,
                });
            }
            Tag::TableHead => {
                self.styles.push(Style::new(Role::TableHeader).bold());
                self.start_table_row(offset);
            }
            Tag::TableRow => self.start_table_row(offset),
            Tag::TableCell => self.inline.clear(),
            Tag::Emphasis => self.push_style(Role::Emphasis, Style::italic),
            Tag::Strong => self.push_style(Role::Strong, Style::bold),
            Tag::Strikethrough => self.push_style(Role::Strike, Style::strike),
            Tag::Superscript | Tag::Subscript => self.push_style(Role::Text, |s| s),
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                self.push_style(Role::Link, Style::underline);
                self.links
                    .push((dest_url.to_string(), self.inline.len(), link_type));
            }
            Tag::Image { .. } => {
                if self.image_depth == 0 {
                    self.image_alt.clear();
                }
                self.image_depth += 1;
            }
            Tag::MetadataBlock(kind) => {
                self.block_start(offset);
                if kind == MetadataBlockKind::YamlStyle {
                    self.metadata = Some(String::new());
                }
            }
            Tag::DefinitionList | Tag::DefinitionListTitle | Tag::DefinitionListDefinition => {
                self.block_start(offset);
            }
        }
    }

    /// A heading opens: its style (levels 3 and up dimmed) and its `#` marker.
    fn start_heading(&mut self, level: u8, offset: usize) {
        self.block_start(offset);
        let mut style = Style::new(Role::Heading(level)).bold();
        if level >= 3 {
            style = style.dim();
        }
        self.styles.push(style);
        self.heading = Some((level, self.inline.len()));
        self.inline.push(Span::new(
            format!("{} ", "#".repeat(usize::from(level))),
            style,
        ));
    }

    /// A block quote opens; a GitHub alert (`> [!WARNING]`) is titled like a custom
    /// container.
    fn start_quote(&mut self, kind: Option<BlockQuoteKind>, offset: usize) {
        self.block_start(offset);
        self.emit_blank_if_pending();
        self.containers.push(Container::Quote);
        if let Some(kind) = kind {
            let title = format!("{kind:?}").to_uppercase();
            self.emit(
                Line::from_spans(vec![Span::new(title, Style::new(Role::Strong).bold())]),
                offset,
            );
            self.blank_pending = false;
        }
    }

    /// A code block opens: its language and `[label]` from a fence's info string.
    fn start_code(&mut self, kind: &CodeBlockKind<'_>, offset: usize) {
        self.block_start(offset);
        let (lang, label) = match kind {
            CodeBlockKind::Fenced(info) => (
                info.split(|c: char| c.is_whitespace() || c == ',' || c == '{' || c == '[')
                    .next()
                    .unwrap_or("")
                    .to_string(),
                info.split_once('[')
                    .and_then(|(_, rest)| rest.split_once(']'))
                    .map(|(l, _)| l.trim().to_string())
                    .unwrap_or_default(),
            ),
            CodeBlockKind::Indented => (String::new(), String::new()),
        };
        self.code = Some(Code {
            lang,
            label,
            text: String::new(),
            offset: None,
        });
    }

    /// A list item opens with its marker: the next number of an ordered list, else a
    /// bullet by nesting depth.
    fn start_item(&mut self, offset: usize) {
        self.block_start(offset);
        let depth = self.lists.len().saturating_sub(1);
        let marker = match self.lists.last_mut() {
            Some(Some(n)) => {
                let m = format!("{n}. ");
                *n = n.saturating_add(1);
                m
            }
            _ => match depth {
                0 => "• ".to_string(),
                1 => "◦ ".to_string(),
                _ => "▪ ".to_string(),
            },
        };
        let indent = str_width(&marker);
        self.containers.push(Container::Item {
            marker: Some(vec![Span::role(marker, Role::ListMarker)]),
            indent,
        });
    }

    /// A footnote definition opens, marked `[label]: ` like a list item.
    fn start_footnote(&mut self, label: &str, offset: usize) {
        self.block_start(offset);
        let marker = format!("[{label}]: ");
        let indent = str_width(&marker).min(6);
        self.containers.push(Container::Item {
            marker: Some(vec![Span::role(marker, Role::Footnote)]),
            indent,
        });
    }

    /// A table row (or the header row) opens in the open table.
    fn start_table_row(&mut self, offset: usize) {
        if let Some(t) = &mut self.table {
            t.rows.push(Row {
                offset,
                cells: Vec::new(),
            });
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.block_end(),
            TagEnd::Heading(_) => self.end_heading(),
            TagEnd::BlockQuote(_) => {
                self.flush_inline();
                if matches!(self.containers.last(), Some(Container::Quote)) {
                    self.containers.pop();
                }
                self.blank_pending = true;
            }
            TagEnd::CodeBlock => self.end_code(),
            TagEnd::HtmlBlock => self.end_html(),
            TagEnd::List(_) => {
                self.flush_inline();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank_pending = true;
                }
            }
            TagEnd::Item => {
                self.flush_inline();
                if matches!(self.containers.last(), Some(Container::Item { .. })) {
                    self.containers.pop();
                }
            }
            TagEnd::FootnoteDefinition => {
                self.flush_inline();
                if matches!(self.containers.last(), Some(Container::Item { .. })) {
                    self.containers.pop();
                }
                self.blank_pending = true;
            }
            TagEnd::Table => self.end_table(),
            TagEnd::TableHead => {
                self.pop_style();
                self.end_cell_row();
                if let Some(t) = &mut self.table {
                    t.header_rows = t.rows.len();
                }
            }
            TagEnd::TableRow => {}
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inline);
                self.breaks.clear();
                if let Some(row) = self.table.as_mut().and_then(|t| t.rows.last_mut()) {
                    row.cells.push(cell);
                }
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => self.pop_style(),
            TagEnd::Link => self.end_link(),
            TagEnd::Image => {
                self.image_depth = self.image_depth.saturating_sub(1);
                if self.image_depth == 0 {
                    let alt = self.image_alt.trim();
                    let text = if alt.is_empty() {
                        "[image]".to_string()
                    } else {
                        format!("[image: {alt}]")
                    };
                    self.inline.push(Span::new(text, Style::new(Role::Image)));
                }
            }
            TagEnd::MetadataBlock(_) => self.end_metadata(),
            TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition => {
                self.block_end();
            }
        }
    }

    fn end_cell_row(&mut self) {
        self.inline.clear();
        self.breaks.clear();
    }

    fn end_heading(&mut self) {
        let Some((level, start)) = self.heading.take() else {
            self.block_end();
            return;
        };
        self.pop_style();
        // A custom anchor `{#id}` after the heading text names the link target, not text.
        if let Some(last) = self
            .inline
            .get_mut(start + 1..)
            .and_then(<[Span]>::last_mut)
            && let Some(kept) = without_anchor(&last.text)
        {
            last.text = kept.to_string();
        }
        let text: String = self
            .inline
            .get(start + 1..)
            .unwrap_or(&[])
            .iter()
            .filter(|s| s.style.role != Role::LinkUrl)
            .map(|s| s.text.as_str())
            .collect();
        let first_line =
            self.out.lines.len() + usize::from(self.blank_pending && !self.out.lines.is_empty());
        let spans = std::mem::take(&mut self.inline);
        self.breaks.clear();
        let width = self.content_width();
        let offset = self.offset;
        let lines = wrap(&spans, width);
        let rule_w = lines.iter().map(Line::width).max().unwrap_or(0).min(width);
        for line in lines {
            self.emit(line, offset);
        }
        self.out
            .headings
            .push((first_line, level, text.trim().to_string()));
        if level == 1 && rule_w > 0 {
            self.emit(
                Line::from_spans(vec![Span::role("─".repeat(rule_w), Role::Rule)]),
                offset,
            );
        }
        self.blank_pending = true;
    }

    fn end_link(&mut self) {
        self.pop_style();
        let Some((dest, start, link_type)) = self.links.pop() else {
            return;
        };
        if self.image_depth > 0 || dest.is_empty() {
            return;
        }
        // In-page links (a table of contents) read as their text, like autolinks.
        if matches!(link_type, LinkType::Autolink | LinkType::Email) || dest.starts_with('#') {
            return;
        }
        let text: String = self
            .inline
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .map(|s| s.text.as_str())
            .collect();
        if text.trim() != dest {
            self.inline.push(Span::new(
                format!(" ({dest})"),
                Style::new(Role::LinkUrl).dim(),
            ));
        }
    }

    fn end_code(&mut self) {
        let Some(code) = self.code.take() else { return };
        let offset = self.offset;
        if !code.lang.is_empty() || !code.label.is_empty() {
            // The language (and a code-group tab label) in a frame line above the code,
            // so it never reads as a line of the code.
            let title = match (code.lang.is_empty(), code.label.is_empty()) {
                (false, false) => format!("{} · {}", code.lang, code.label),
                (true, _) => code.label.clone(),
                (false, true) => code.lang.clone(),
            };
            let head = format!("── {title} ");
            let fill = self.content_width().saturating_sub(str_width(&head));
            self.emit(
                Line::from_spans(vec![Span::new(
                    format!("{head}{}", "─".repeat(fill)),
                    Style::new(Role::CodeLang).dim(),
                )]),
                offset,
            );
        }
        self.emit_blank_if_pending();
        let first_line = self.out.lines.len();
        let mut prefixes = Vec::new();
        let mut rows = Vec::new();
        let mut cont_prefix = Line::new();
        let mut pos = code.offset.unwrap_or(offset);
        for src_line in code.text.lines() {
            let prefix = Line::from_spans(self.take_prefix());
            // Markers are consumed by the first line: what follows is the continuation.
            cont_prefix = Line::from_spans(self.take_prefix());
            let mut content = vec![Span::new(
                expand_tabs(src_line),
                Style::new(Role::CodeBlock),
            )];
            self.terms.mark(&mut content);
            let lines = code_rows(&prefix, &cont_prefix, content, self.width, self.long_code);
            rows.push(lines.len());
            prefixes.push(prefix);
            for line in lines {
                if line.spans.iter().any(|s| s.style.role == Role::Match) {
                    self.out.match_lines.push(self.out.lines.len());
                }
                self.push_row(line, pos);
            }
            pos += src_line.len() + 1;
        }
        let line_count = prefixes.len();
        self.out.code_blocks.push(CodeBlock {
            lang: code.lang,
            code: code.text,
            first_line,
            line_count,
            prefixes,
            cont_prefix,
            rows,
        });
        self.blank_pending = true;
    }

    /// Inline HTML: a comment is hidden, a badge shows its text, other tags stay dim.
    fn inline_html(&mut self, t: &str) {
        if t.starts_with("<!--") {
            return;
        }
        match html::badge_text(t) {
            Some(text) if text.is_empty() => {}
            Some(text) => {
                let style = Style {
                    role: Role::InlineCode,
                    ..self.style()
                };
                self.inline.push(Span::new(text, style));
            }
            None => self.inline.push(Span::new(t, Style::new(Role::Html).dim())),
        }
    }

    fn end_html(&mut self) {
        let Some(html) = self.html.take() else { return };
        let width = self.content_width();
        let offset = self.offset;
        // Comments, scripts and styles show nothing (not even the blank line after them).
        let Some(lines) = html::clean_block(&html).filter(|l| !l.is_empty()) else {
            return;
        };
        for src_line in &lines {
            let span = Span::new(expand_tabs(src_line), Style::new(Role::Html).dim());
            for line in wrap(&[span], width) {
                self.emit(line, offset);
            }
        }
        self.blank_pending = true;
    }

    fn end_metadata(&mut self) {
        let Some(meta) = self.metadata.take() else {
            return;
        };
        if !self.show_frontmatter {
            return;
        }
        let offset = self.offset;
        let style = Style::new(Role::FrontMatter).dim();
        self.emit(Line::from_spans(vec![Span::new("---", style)]), offset);
        for src_line in meta.trim_end_matches(['\n', '\r']).lines() {
            self.emit(
                Line::from_spans(vec![Span::new(expand_tabs(src_line), style)]),
                offset,
            );
        }
        self.emit(Line::from_spans(vec![Span::new("---", style)]), offset);
        self.blank_pending = true;
    }

    fn end_table(&mut self) {
        self.inline.clear();
        self.breaks.clear();
        let Some(t) = self.table.take() else { return };
        let width = self.content_width();
        for (line, offset) in table::layout(&t, width) {
            self.emit(line, offset);
        }
        self.blank_pending = true;
    }
}

/// `text` without a trailing heading anchor `{#id}` (`None` when it has none).
fn without_anchor(text: &str) -> Option<&str> {
    let t = text.trim_end();
    let open = t.strip_suffix('}')?.rfind("{#")?;
    let id = &t[open + 2..t.len() - 1];
    (!id.is_empty() && !id.contains(char::is_whitespace)).then(|| t[..open].trim_end())
}

/// Replace tabs by spaces up to the next multiple of 4 columns (code and raw lines).
pub fn expand_tabs(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\t') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut col = 0;
    for c in s.chars() {
        if c == '\t' {
            let n = 4 - col % 4;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += 1;
        }
    }
    std::borrow::Cow::Owned(out)
}
