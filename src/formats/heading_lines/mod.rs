//! The top-level headings of a markdown text found line by line, without a full `CommonMark`
//! parse: the fast path of sectioning (docs/DESIGN.md §2 "Sectioning", §8 "to searchable").
//!
//! [`headings`] follows what decides whether a line starts a top-level heading — fenced
//! code and HTML blocks (kinds 1–7) at the top level, list items and block quotes (a heading
//! inside one is content, not a section) with their lazy continuation lines, paragraphs
//! (setext underlines, what may interrupt them) — with pulldown-cmark's rules, and
//! *declines* (`None`) wherever it cannot be sure to agree with pulldown-cmark: a line
//! outside a list item or quote when it is not known whether a paragraph is open in it
//! ([`inner`]), a setext underline under a possible table or link reference definition, an
//! indented block start inside a possible table, an empty list item, a footnote definition,
//! a tab before a quote marker, a vertical tab or form feed, a lone `\r` line break, a bracket
//! in a heading that a link reference of the text may resolve ([`labels`]). The caller then
//! parses with pulldown-cmark. A heading with inline markup gets its title from
//! pulldown-cmark run over that heading's lines alone ([`Title::Markup`]).
//!
//! Line classifiers live in [`blocks`]; `tests.rs` compares the scan with pulldown-cmark on
//! every markdown fixture, on cases it once got wrong, and on generated documents.

use std::ops::Range;

mod blocks;
mod inner;
mod labels;
#[cfg(test)]
mod tests;

use blocks::{
    Fence, HtmlEnd, atx_level, closes_fence, contains, has_lone_cr, has_pipe, html_start, indent,
    is_blank, is_hrule, is_html_kind7, is_markup, list_item, open_fence, setext_level,
};
use inner::{Inner, InnerState, continues_paragraph};
use labels::RefLabels;

/// A heading found by [`headings`]: level (1–6), the byte offset and 1-based line of its
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
struct Line<'a> {
    text: &'a [u8],
    start: usize,
    /// Start of the next line (or the end of the range).
    next: usize,
    no: u32,
}

/// The headings `sections::headings` finds in `text[from..to]` (offsets already
/// clamped to char boundaries), or `None` when this scanner cannot be sure to agree with
/// it (see the module doc). `first_line` is the 1-based line of `from`.
pub(crate) fn headings(text: &str, from: usize, to: usize, first_line: u32) -> Option<Vec<Found>> {
    let bytes = &text.as_bytes()[..to];
    // pulldown-cmark takes a vertical tab or form feed for a blank in some places and for
    // text in others: such a text is left to it.
    if has_lone_cr(&bytes[from..]) || memchr::memchr2(0x0b, 0x0c, &bytes[from..]).is_some() {
        return None;
    }
    let mut out = Vec::new();
    let mut fence: Option<Fence> = None;
    let mut html: Option<HtmlEnd> = None;
    let mut cont = Container::None;
    let mut inner = InnerState::opened_with(b"");
    let mut para: Option<Para> = None;
    // The labels the text may define link references for (`[label]:`): a heading with a
    // bracket that may be one is then left to pulldown-cmark, which resolves them over
    // the whole text.
    let labels = RefLabels::of(&bytes[from..]);
    let refdefs = labels.is_some();
    let labels = labels.unwrap_or_default();
    let mut pos = from;
    // Every line break, then the text's end (a last line without a break).
    let breaks = memchr::memchr_iter(b'\n', &bytes[from..]).map(|i| from + i);
    for (no, end) in (first_line..).zip(breaks.chain(std::iter::once(to))) {
        if pos >= to {
            break;
        }
        let next = if end < to { end + 1 } else { to };
        let mut t = &bytes[pos..end];
        if let [rest @ .., b'\r'] = t {
            t = rest;
        }
        let line = Line {
            text: t,
            start: pos,
            next,
            no,
        };
        pos = next;
        if let Some(f) = fence {
            if closes_fence(line.text, f) {
                fence = None;
            }
            continue;
        }
        if let Some(h) = html {
            match h {
                HtmlEnd::Marker(m) => {
                    if contains(line.text, m.as_bytes()) {
                        html = None;
                    }
                    continue;
                }
                HtmlEnd::Blank if is_blank(line.text) => html = None,
                HtmlEnd::Blank => continue,
            }
        }
        if is_blank(line.text) {
            para = None;
            if cont == Container::Quote {
                cont = Container::None;
            }
            inner.inner = Inner::NotPara;
            continue;
        }
        let (col, at) = indent(line.text);
        let rest = &line.text[at..];
        // Inside the open container?
        match cont {
            Container::List { w } if col >= w => {
                inner.inside_line(rest, col - w);
                continue;
            }
            // pulldown-cmark finds a quote marker after part of a tab (`\t>`).
            Container::Quote if line.text[..at].contains(&b'\t') => return None,
            Container::Quote if col <= 3 && rest.first() == Some(&b'>') => {
                let content = rest[1..].strip_prefix(b" ").unwrap_or(&rest[1..]);
                if is_blank(content) {
                    inner.inner = Inner::NotPara;
                } else {
                    let (rel, at) = indent(content);
                    inner.inside_line(&content[at..], rel);
                }
                continue;
            }
            _ => {}
        }
        let in_cont = cont != Container::None;
        if col >= 4 {
            // Indented code, or a paragraph's continuation (lazy, in a container).
            if in_cont {
                match inner.inner {
                    Inner::Para => continue,
                    Inner::NotPara => cont = Container::None,
                    Inner::Unknown => return None,
                }
            }
            if let Some(p) = &mut para {
                // A table row ignores indentation: a block start ends the table there.
                if p.pipe && !continues_paragraph(rest) {
                    return None;
                }
                p.pipe |= has_pipe(rest);
            }
            continue;
        }
        let Some(&first) = rest.first() else {
            continue;
        };
        // Setext underline of an open top-level paragraph (checked before the blocks that
        // could interrupt it, as pulldown-cmark does).
        if let (Some(p), Some(level)) = (para, setext_level(rest)) {
            if p.bracket || p.pipe {
                return None;
            }
            let title = setext_title(text, p.start, line.start, line.next, &labels)?;
            out.push(Found {
                level,
                start: p.start,
                line: p.line,
                title,
            });
            para = None;
            continue;
        }
        if first == b'#'
            && let Some(level) = atx_level(rest)
        {
            if para.is_some_and(|p| p.bracket) {
                return None;
            }
            let title = atx_title(line, at, level, &labels)?;
            out.push(Found {
                level,
                start: line.start,
                line: line.no,
                title,
            });
            para = None;
            cont = Container::None;
            continue;
        }
        if let Some(f) = open_fence(rest) {
            fence = Some(f);
            para = None;
            cont = Container::None;
            continue;
        }
        if is_hrule(rest) {
            para = None;
            cont = Container::None;
            continue;
        }
        if first == b'<' {
            if let Some(end) = html_start(&bytes[line.start + at..]) {
                para = None;
                cont = Container::None;
                // Kinds 1–5 may end on their first line.
                match end {
                    HtmlEnd::Marker(m) if contains(line.text, m.as_bytes()) => {}
                    _ => html = Some(end),
                }
                continue;
            }
            // An HTML block of kind 7 cannot interrupt a paragraph: the line continues an
            // open one (lazily, in a container).
            if in_cont {
                match inner.inner {
                    Inner::Para => continue,
                    Inner::NotPara => cont = Container::None,
                    Inner::Unknown => return None,
                }
            }
            if para.is_none() && is_html_kind7(rest) {
                html = Some(HtmlEnd::Blank);
                continue;
            }
        }
        if first == b'>' {
            para = None;
            cont = Container::Quote;
            let content = rest[1..].strip_prefix(b" ").unwrap_or(&rest[1..]);
            let (rel, at) = indent(content);
            inner = if rel >= 4 {
                InnerState {
                    inner: Inner::Unknown,
                    risk: true,
                }
            } else {
                InnerState::opened_with(&content[at..])
            };
            continue;
        }
        if rest.starts_with(b"[^") {
            return None; // a footnote definition, perhaps
        }
        if let Some(item) = list_item(rest) {
            let Some(w) = item.w else {
                return None; // an empty item or a tab after the marker
            };
            let starts = if in_cont {
                // A line outside the container: any list item starts there.
                true
            } else if let Some(p) = para {
                if p.pipe && !(item.bullet || item.one) {
                    return None; // a table row or a paragraph line
                }
                item.bullet || item.one
            } else {
                true
            };
            if starts {
                para = None;
                cont = Container::List { w: col + w };
                let c = &rest[item.content..];
                inner = if c.first() == Some(&b' ') {
                    // More than 4 spaces after the marker: indented code.
                    InnerState {
                        inner: Inner::Unknown,
                        risk: true,
                    }
                } else {
                    InnerState::opened_with(c)
                };
                continue;
            }
        }
        // Paragraph text: a lazy continuation in a container, or a top-level paragraph.
        if in_cont {
            match inner.inner {
                // A line starting with `|` may start a table instead.
                Inner::Para if first != b'|' => continue,
                Inner::NotPara => cont = Container::None,
                _ => return None,
            }
        }
        match &mut para {
            Some(p) => p.pipe |= has_pipe(rest),
            None => {
                para = Some(Para {
                    start: line.start,
                    line: line.no,
                    bracket: first == b'[' && refdefs,
                    pipe: has_pipe(rest),
                });
            }
        }
    }
    Some(out)
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
