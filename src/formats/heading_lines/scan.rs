//! The line-by-line state machine of [`headings`](super::headings): the open top-level
//! blocks ([`Scan`]), one named step per kind of block a line may start or continue, and
//! the titles of the headings found.

use std::ops::Range;

use super::blocks::{
    Fence, HtmlEnd, atx_level, closes_fence, contains, has_pipe, html_start, indent, is_blank,
    is_hrule, is_html_kind7, is_markup, list_item, open_fence, setext_level,
};
use super::inner::{Inner, InnerState, continues_paragraph};
use super::labels::RefLabels;

/// A heading found by [`headings`](super::headings): level (1–6), the byte offset and 1-based line of its
/// first line's start, and where its title comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub level: u8,
    pub start: usize,
    pub line: u32,
    pub title: Title,
}

/// Where a found heading's title comes from (byte ranges into the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Title {
    /// Text without inline markup: the title is this text, whitespace collapsed (an ATX
    /// heading's closing `#`s already left out; a setext heading's lines).
    Plain(Range<usize>),
    /// Text with inline markup: the title is what `CommonMark` makes of the heading alone
    /// (these lines: the heading line, or the setext paragraph and its underline).
    Markup(Range<usize>),
}

/// The open container of the top level, if any.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    None,
    /// A list item whose content starts at column `w` (a line indented `w` columns or more,
    /// or blank, continues it).
    List {
        w: usize,
    },
    Quote,
}

/// The open top-level paragraph.
#[derive(Clone, Copy)]
struct Para {
    /// Byte offset of its first line's start.
    start: usize,
    /// 1-based line of `start`.
    line: u32,
    /// Its first line starts with `[` (it may be link reference definitions).
    bracket: bool,
    /// A line of it holds `|` (it may be, or turn into, a table).
    pipe: bool,
}

/// A line: its text without the line break, and where it starts.
#[derive(Clone, Copy)]
pub(super) struct Line<'a> {
    pub text: &'a [u8],
    pub start: usize,
    /// Start of the next line (or the end of the range).
    pub next: usize,
    pub no: u32,
}

/// A non-blank line the block steps look at, past the open container's checks. Each step
/// of [`Scan::line`] returns whether it took the line (the scan then goes on to the next
/// line; else the next step looks at it); one that declines the text returns `None`.
#[derive(Clone, Copy)]
struct BlockLine<'a> {
    line: Line<'a>,
    /// Column of the line's content, after its indentation (less than 4 here).
    col: usize,
    /// Byte where the line's content starts.
    at: usize,
    /// The line from `at` on, and its first byte.
    rest: &'a [u8],
    first: u8,
    /// A top-level container was open when the line started.
    in_cont: bool,
}

/// The state of the scan between lines: the open top-level blocks and the headings found.
pub(super) struct Scan<'t> {
    text: &'t str,
    bytes: &'t [u8],
    /// The labels the text may define link references for (`[label]:`): a heading with a
    /// bracket that may be one is then left to pulldown-cmark, which resolves them over
    /// the whole text.
    labels: RefLabels,
    /// The text may define link references at all.
    refdefs: bool,
    out: Vec<Found>,
    fence: Option<Fence>,
    html: Option<HtmlEnd>,
    cont: Container,
    inner: InnerState,
    para: Option<Para>,
}

impl<'t> Scan<'t> {
    /// The scan of `bytes[from..]` (`bytes`: `text`'s bytes up to the range's end), before
    /// its first line.
    pub(super) fn new(text: &'t str, bytes: &'t [u8], from: usize) -> Self {
        let labels = RefLabels::of(&bytes[from..]);
        Scan {
            text,
            bytes,
            refdefs: labels.is_some(),
            labels: labels.unwrap_or_default(),
            out: Vec::new(),
            fence: None,
            html: None,
            cont: Container::None,
            inner: InnerState::opened_with(b""),
            para: None,
        }
    }

    /// The headings found.
    pub(super) fn found(self) -> Vec<Found> {
        self.out
    }

    /// Scans the next line, or declines the whole text (`None`).
    pub(super) fn line(&mut self, line: Line<'_>) -> Option<()> {
        if self.in_open_block(line.text) {
            return Some(());
        }
        if is_blank(line.text) {
            self.blank_line();
            return Some(());
        }
        let (col, at) = indent(line.text);
        let rest = &line.text[at..];
        if self.inside_container(line.text, col, at)? {
            return Some(());
        }
        let in_cont = self.cont != Container::None;
        if col >= 4 {
            return self.indented_line(rest, in_cont);
        }
        let Some(&first) = rest.first() else {
            return Some(());
        };
        let l = BlockLine {
            line,
            col,
            at,
            rest,
            first,
            in_cont,
        };
        if self.setext_underline(&l)?
            || self.atx_heading(&l)?
            || self.fence_start(&l)
            || self.thematic_break(&l)
            || self.html_block(&l)?
            || self.quote_start(&l)
            || footnote_definition(rest)?
            || self.list_item_start(&l)?
        {
            return Some(());
        }
        self.paragraph_text(&l)
    }

    /// Whether the line belongs to an open fenced code or HTML block (closing it when it
    /// ends there). A blank line ending an HTML block of kind 6 or 7 is not taken.
    fn in_open_block(&mut self, text: &[u8]) -> bool {
        if let Some(f) = self.fence {
            if closes_fence(text, f) {
                self.fence = None;
            }
            return true;
        }
        if let Some(h) = self.html {
            match h {
                HtmlEnd::Marker(m) => {
                    if contains(text, m.as_bytes()) {
                        self.html = None;
                    }
                    return true;
                }
                HtmlEnd::Blank if is_blank(text) => self.html = None,
                HtmlEnd::Blank => return true,
            }
        }
        false
    }

    /// A blank line ends the open paragraph and quote, and any paragraph in a list item.
    fn blank_line(&mut self) {
        self.para = None;
        if self.cont == Container::Quote {
            self.cont = Container::None;
        }
        self.inner.inner = Inner::NotPara;
    }

    /// A line inside the open container (indented enough for the list item, or with the
    /// quote's marker), which then takes it.
    fn inside_container(&mut self, text: &[u8], col: usize, at: usize) -> Option<bool> {
        let rest = &text[at..];
        match self.cont {
            Container::List { w } if col >= w => {
                self.inner.inside_line(rest, col - w);
                Some(true)
            }
            // pulldown-cmark finds a quote marker after part of a tab (`\t>`).
            Container::Quote if text[..at].contains(&b'\t') => None,
            Container::Quote if col <= 3 && rest.first() == Some(&b'>') => {
                let content = rest[1..].strip_prefix(b" ").unwrap_or(&rest[1..]);
                if is_blank(content) {
                    self.inner.inner = Inner::NotPara;
                } else {
                    let (rel, at) = indent(content);
                    self.inner.inside_line(&content[at..], rel);
                }
                Some(true)
            }
            _ => Some(false),
        }
    }

    /// A line outside the open container that cannot start a block there: a lazy
    /// continuation of the paragraph open in it takes it, else the container closes.
    fn lazy_continuation(&mut self, in_cont: bool) -> Option<bool> {
        if in_cont {
            match self.inner.inner {
                Inner::Para => return Some(true),
                Inner::NotPara => self.cont = Container::None,
                Inner::Unknown => return None,
            }
        }
        Some(false)
    }

    /// A line indented 4 columns or more: indented code, or a paragraph's continuation
    /// (lazy, in a container).
    fn indented_line(&mut self, rest: &[u8], in_cont: bool) -> Option<()> {
        if self.lazy_continuation(in_cont)? {
            return Some(());
        }
        if let Some(p) = &mut self.para {
            // A table row ignores indentation: a block start ends the table there.
            if p.pipe && !continues_paragraph(rest) {
                return None;
            }
            p.pipe |= has_pipe(rest);
        }
        Some(())
    }

    /// Setext underline of an open top-level paragraph (checked before the blocks that
    /// could interrupt it, as pulldown-cmark does).
    fn setext_underline(&mut self, a: &BlockLine<'_>) -> Option<bool> {
        let (Some(p), Some(level)) = (self.para, setext_level(a.rest)) else {
            return Some(false);
        };
        if p.bracket || p.pipe {
            return None;
        }
        let title = setext_title(self.text, p.start, a.line.start, a.line.next, &self.labels)?;
        self.out.push(Found {
            level,
            start: p.start,
            line: p.line,
            title,
        });
        self.para = None;
        Some(true)
    }

    /// An ATX heading (`# Title`).
    fn atx_heading(&mut self, a: &BlockLine<'_>) -> Option<bool> {
        if a.first != b'#' {
            return Some(false);
        }
        let Some(level) = atx_level(a.rest) else {
            return Some(false);
        };
        if self.para.is_some_and(|p| p.bracket) {
            return None;
        }
        let title = atx_title(a.line, a.at, level, &self.labels)?;
        self.out.push(Found {
            level,
            start: a.line.start,
            line: a.line.no,
            title,
        });
        self.para = None;
        self.cont = Container::None;
        Some(true)
    }

    /// The opening of a fenced code block.
    fn fence_start(&mut self, a: &BlockLine<'_>) -> bool {
        let Some(f) = open_fence(a.rest) else {
            return false;
        };
        self.fence = Some(f);
        self.para = None;
        self.cont = Container::None;
        true
    }

    /// A thematic break (`---`, `***`, `___`).
    fn thematic_break(&mut self, a: &BlockLine<'_>) -> bool {
        if !is_hrule(a.rest) {
            return false;
        }
        self.para = None;
        self.cont = Container::None;
        true
    }

    /// A line starting with `<`: the start of an HTML block, or a lazy continuation.
    fn html_block(&mut self, a: &BlockLine<'_>) -> Option<bool> {
        if a.first != b'<' {
            return Some(false);
        }
        if let Some(end) = html_start(&self.bytes[a.line.start + a.at..]) {
            self.para = None;
            self.cont = Container::None;
            // Kinds 1–5 may end on their first line.
            match end {
                HtmlEnd::Marker(m) if contains(a.line.text, m.as_bytes()) => {}
                _ => self.html = Some(end),
            }
            return Some(true);
        }
        // An HTML block of kind 7 cannot interrupt a paragraph: the line continues an
        // open one (lazily, in a container).
        if self.lazy_continuation(a.in_cont)? {
            return Some(true);
        }
        if self.para.is_none() && is_html_kind7(a.rest) {
            self.html = Some(HtmlEnd::Blank);
            return Some(true);
        }
        Some(false)
    }

    /// The start of a block quote (`>`).
    fn quote_start(&mut self, a: &BlockLine<'_>) -> bool {
        if a.first != b'>' {
            return false;
        }
        self.para = None;
        self.cont = Container::Quote;
        let content = a.rest[1..].strip_prefix(b" ").unwrap_or(&a.rest[1..]);
        let (rel, at) = indent(content);
        self.inner = if rel >= 4 {
            InnerState {
                inner: Inner::Unknown,
                risk: true,
            }
        } else {
            InnerState::opened_with(&content[at..])
        };
        true
    }

    /// The start of a list item, when it may start one here.
    fn list_item_start(&mut self, a: &BlockLine<'_>) -> Option<bool> {
        let Some(item) = list_item(a.rest) else {
            return Some(false);
        };
        // `None`: an empty item or a tab after the marker.
        let w = item.w?;
        let starts = if a.in_cont {
            // A line outside the container: any list item starts there.
            true
        } else if let Some(p) = self.para {
            if p.pipe && !(item.bullet || item.one) {
                return None; // a table row or a paragraph line
            }
            item.bullet || item.one
        } else {
            true
        };
        if !starts {
            return Some(false);
        }
        self.para = None;
        self.cont = Container::List { w: a.col + w };
        let c = &a.rest[item.content..];
        self.inner = if c.first() == Some(&b' ') {
            // More than 4 spaces after the marker: indented code.
            InnerState {
                inner: Inner::Unknown,
                risk: true,
            }
        } else {
            InnerState::opened_with(c)
        };
        Some(true)
    }

    /// Paragraph text: a lazy continuation in a container, or a top-level paragraph.
    fn paragraph_text(&mut self, a: &BlockLine<'_>) -> Option<()> {
        if a.in_cont {
            match self.inner.inner {
                // A line starting with `|` may start a table instead.
                Inner::Para if a.first != b'|' => return Some(()),
                Inner::NotPara => self.cont = Container::None,
                _ => return None,
            }
        }
        match &mut self.para {
            Some(p) => p.pipe |= has_pipe(a.rest),
            None => {
                self.para = Some(Para {
                    start: a.line.start,
                    line: a.line.no,
                    bracket: a.first == b'[' && self.refdefs,
                    pipe: has_pipe(a.rest),
                });
            }
        }
        Some(())
    }
}

/// A footnote definition, perhaps (`[^`): declined (never taken).
fn footnote_definition(rest: &[u8]) -> Option<bool> {
    if rest.starts_with(b"[^") {
        return None;
    }
    Some(false)
}

/// The title of an ATX heading on `line` (`at`: the byte where `#` starts), or `None` when
/// it holds a bracket that a link reference of the text may resolve (the whole text is
/// then left to pulldown-cmark).
fn atx_title(line: Line<'_>, at: usize, level: u8, labels: &RefLabels) -> Option<Title> {
    let from = at + level as usize;
    let t = &line.text[from..];
    if labels.may_resolve(t) {
        return None;
    }
    if t.iter().any(|&b| is_markup(b)) {
        return Some(Title::Markup(line.start..line.next));
    }
    // pulldown-cmark's closing sequence: trailing spaces, then `#`s after a space (or
    // nothing but `#`s), then spaces.
    let mut limit = t.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    let closer = t[..limit]
        .iter()
        .rposition(|&b| b != b'#')
        .map_or(0, |i| i + 1);
    if closer == 0 {
        limit = 0;
    } else {
        let spaces = t[..closer].iter().rev().take_while(|&&b| b == b' ').count();
        if spaces > 0 {
            limit = closer - spaces;
        }
    }
    let start = line.start + from;
    Some(Title::Plain(start..start + limit))
}

/// The title of the setext heading whose paragraph starts at `start` and whose underline
/// is the line `underline..next` (`None` as for [`atx_title`]).
fn setext_title(
    text: &str,
    start: usize,
    underline: usize,
    next: usize,
    labels: &RefLabels,
) -> Option<Title> {
    let body = &text.as_bytes()[start..underline];
    if labels.may_resolve(body) {
        return None;
    }
    if body.iter().any(|&b| is_markup(b) && b != b'\t') {
        return Some(Title::Markup(start..next));
    }
    Some(Title::Plain(start..underline))
}
