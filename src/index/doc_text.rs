//! A BM25 document's text as the index build sees it (docs/DESIGN.md §8 "Memory"): borrowed
//! from a held source, made for the index (a doc-tree page with its summary, a skill's
//! routing text), or left in a source whose text is not held (a spilled or persisted one).
//! [`DocReader`] reads those one source at a time and lets each go when the next is read,
//! so indexing a corpus whose texts were let go does not make them all held again.

use std::borrow::Cow;

use crate::model::{Corpus, SourceId};

/// The text of one document.
#[derive(Debug)]
pub(crate) enum DocText<'c> {
    /// The text itself.
    Text(Cow<'c, str>),
    /// Bytes `start..end` of a source whose text is not held.
    Kept {
        /// The source.
        source: SourceId,
        /// First byte.
        start: usize,
        /// End byte (exclusive).
        end: usize,
    },
}

impl DocText<'_> {
    /// Length in bytes (without reading a kept text).
    pub fn len(&self) -> usize {
        match self {
            Self::Text(t) => t.len(),
            Self::Kept { start, end, .. } => end.saturating_sub(*start),
        }
    }
}

/// Reads documents' texts, holding at most one source's text that is not held by the
/// corpus (the last one read): documents of one file come one after the other.
pub(crate) struct DocReader<'c> {
    corpus: &'c Corpus,
    open: Option<(SourceId, String)>,
}

impl<'c> DocReader<'c> {
    /// A reader of `corpus`'s texts.
    pub fn new(corpus: &'c Corpus) -> Self {
        Self { corpus, open: None }
    }

    /// Call `f` with the text of `doc` (empty when a kept text can no longer be read).
    pub fn with<R>(&mut self, doc: &DocText<'_>, f: impl FnOnce(&str) -> R) -> R {
        match doc {
            DocText::Text(t) => f(t),
            DocText::Kept { source, start, end } => f(self.slice(*source, *start, *end)),
        }
    }

    /// Bytes `start..end` of `source`, held by the corpus or read now.
    pub fn slice(&mut self, source: SourceId, start: usize, end: usize) -> &str {
        let Some(src) = self.corpus.sources.get(source.0 as usize) else {
            return "";
        };
        let text: &str = if src.is_held() {
            src.text()
        } else {
            if self.open.as_ref().is_none_or(|(s, _)| *s != source) {
                self.open = Some((source, src.read_text()));
            }
            self.open.as_ref().map_or("", |(_, t)| t.as_str())
        };
        text.get(start..end.min(text.len())).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::file_source;

    #[test]
    fn a_spilled_source_is_read_for_its_documents_and_not_held_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut corpus = Corpus::new();
        let text = b"# A\nalpha\n# B\nbeta\n";
        let src = corpus.add_source(file_source(dir.path(), "a.md", text));
        assert!(corpus.sources[0].spill());
        let mut r = DocReader::new(&corpus);
        let a = DocText::Kept {
            source: src,
            start: 0,
            end: 10,
        };
        let b = DocText::Kept {
            source: src,
            start: 10,
            end: 19,
        };
        assert_eq!(r.with(&a, str::to_string), "# A\nalpha\n");
        assert_eq!(r.with(&b, str::to_string), "# B\nbeta\n");
        assert_eq!(b.len(), 9);
        assert!(!corpus.sources[0].is_held(), "the reader did not hold it");
        assert_eq!(corpus.held_bytes(), 0);
    }
}
