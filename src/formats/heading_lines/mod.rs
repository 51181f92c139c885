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
//! The per-line state machine lives in [`scan`], line classifiers in [`blocks`]; `tests.rs` compares the scan with pulldown-cmark on
//! every markdown fixture, on cases it once got wrong, and on generated documents.

mod blocks;
mod inner;
mod labels;
mod scan;
#[cfg(test)]
mod tests;

pub(crate) use scan::{Found, Title};

use blocks::has_lone_cr;
use scan::{Line, Scan};

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
    let mut scan = Scan::new(text, bytes, from);
    for line in lines(bytes, from, to, first_line) {
        scan.line(line)?;
    }
    Some(scan.found())
}

/// The lines of `bytes[from..to]` (`to` is `bytes.len()`), each without its line break
/// (`\n` or `\r\n`); `first_line` is the 1-based line of `from`.
fn lines(bytes: &[u8], from: usize, to: usize, first_line: u32) -> impl Iterator<Item = Line<'_>> {
    let mut pos = from;
    // Every line break, then the text's end (a last line without a break).
    let breaks = memchr::memchr_iter(b'\n', &bytes[from..]).map(move |i| from + i);
    (first_line..)
        .zip(breaks.chain(std::iter::once(to)))
        .map_while(move |(no, end)| {
            if pos >= to {
                return None;
            }
            let next = if end < to { end + 1 } else { to };
            let mut text = &bytes[pos..end];
            if let [rest @ .., b'\r'] = text {
                text = rest;
            }
            let line = Line {
                text,
                start: pos,
                next,
                no,
            };
            pos = next;
            Some(line)
        })
}
