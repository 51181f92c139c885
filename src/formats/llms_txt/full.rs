//! Concatenated `llms-full`/`llms-small` files (docs/FORMATS.md §7 (b)): split at H1 headings,
//! fence-aware, with the `<SYSTEM>` line as a preamble.

use crate::formats::sections::{self, Heading};

/// A concatenated llms-full/llms-small file split at its H1s (docs/FORMATS.md §7 (b)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FullSplit {
    /// Text before the first H1 (the `<SYSTEM>…</SYSTEM>` line), as a byte range, when it
    /// holds anything but blanks.
    pub preamble: Option<(usize, usize)>,
    /// Every H1 (fence-aware), in order, with the byte offset where its part ends.
    pub parts: Vec<(Heading, usize)>,
}

/// Split a concatenated markdown file at its H1 headings using
/// [`sections::headings`] (so `# comment` lines inside fenced code never split).
pub fn split_full(text: &str) -> FullSplit {
    let h1: Vec<Heading> = sections::headings(text, 0, text.len())
        .into_iter()
        .filter(|h| h.level == 1)
        .collect();
    let first = h1.first().map_or(text.len(), |h| h.start);
    let preamble = (!text[..first].trim().is_empty()).then_some((0, first));
    let ends: Vec<usize> = h1
        .iter()
        .skip(1)
        .map(|h| h.start)
        .chain(std::iter::once(text.len()))
        .collect();
    FullSplit {
        preamble,
        parts: h1.into_iter().zip(ends).collect(),
    }
}

/// The preamble's display title: the text of a `<SYSTEM>…</SYSTEM>` line without its tags,
/// else the first non-blank line, cut to 80 chars.
pub(super) fn preamble_title(s: &str) -> String {
    let line = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("preamble");
    let inner = line
        .strip_prefix("<SYSTEM>")
        .map_or(line, |r| r.trim_end_matches("</SYSTEM>"));
    inner.chars().take(80).collect()
}
