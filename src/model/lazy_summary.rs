//! Section summaries made when first read instead of at load (docs/DESIGN.md §8 "to
//! searchable"): finding a markdown file's headings takes a line scan, while its summaries
//! (the first sentence of each section's body) take a full `CommonMark` parse. The loader
//! attaches one [`LazySummary`] to every section of such a file; the first
//! [`crate::model::Corpus::summary`] of any of them parses the file once and keeps all its
//! summaries.

use std::sync::OnceLock;

/// Makes the `(section start, summary)` pairs of `text[from..to]`, sorted by start (byte
/// offsets into `text`).
pub type MakeSummaries = fn(text: &str, from: usize, to: usize) -> Vec<(usize, String)>;

/// The summaries of one sectioned range of a source text, made on first use; shared by
/// the range's section nodes, each found by its span's start.
#[derive(Debug)]
pub struct LazySummary {
    /// Start of the sectioned range (bytes into the source text).
    from: usize,
    /// End of the sectioned range (bytes, exclusive).
    to: usize,
    make: MakeSummaries,
    made: OnceLock<Vec<(usize, String)>>,
}

impl LazySummary {
    /// The summaries of `text[from..to]` (`text`: the source the sections live in), made
    /// by `make` when first asked for.
    pub fn new(from: usize, to: usize, make: MakeSummaries) -> Self {
        Self {
            from,
            to,
            make,
            made: OnceLock::new(),
        }
    }

    /// The byte range of the text whose summaries this makes (`from..to`).
    pub fn range(&self) -> (usize, usize) {
        (self.from, self.to)
    }

    /// Bytes of the sectioned range (what making its summaries parses).
    pub fn len(&self) -> usize {
        self.to.saturating_sub(self.from)
    }

    /// Whether the range is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the summaries are made already.
    pub fn is_made(&self) -> bool {
        self.made.get().is_some()
    }

    /// The summary of the section starting at byte `start` of `text` (the source text the
    /// range was sectioned from); `None` when no section starts there.
    pub fn get<'a>(&'a self, text: &str, start: usize) -> Option<&'a str> {
        let made = self.made.get_or_init(|| {
            if self.from <= self.to && self.to <= text.len() {
                (self.make)(text, self.from, self.to)
            } else {
                Vec::new() // the text changed under the corpus: no summaries
            }
        });
        let i = made.binary_search_by_key(&start, |(s, _)| *s).ok()?;
        made.get(i).map(|(_, s)| s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two(_: &str, from: usize, _: usize) -> Vec<(usize, String)> {
        vec![(from, "first".into()), (from + 10, "second".into())]
    }

    #[test]
    fn a_section_finds_its_summary_by_its_start() {
        let lazy = LazySummary::new(2, 30, two);
        let text = "x".repeat(40);
        assert_eq!(lazy.get(&text, 2), Some("first"));
        assert_eq!(lazy.get(&text, 12), Some("second"));
        assert_eq!(lazy.get(&text, 5), None);
    }

    #[test]
    fn a_range_past_the_text_gives_no_summary() {
        let lazy = LazySummary::new(2, 30, two);
        assert_eq!(lazy.get("short", 2), None);
    }
}
