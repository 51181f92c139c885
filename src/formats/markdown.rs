//! Heading-aware sectioning of markdown (DESIGN.md §2), CommonMark-correct from
//! pulldown-cmark offsets.
//!
//! CONTRACT (owned by the formats helper; bodies to be written).

use crate::model::{Corpus, Format, NodeId, SourceId};

/// One heading found in a markdown text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    /// 1–6.
    pub level: u8,
    /// Heading text (inline markup removed, trimmed).
    pub title: String,
    /// Byte offset of the heading's first line start.
    pub start: usize,
    /// 1-based line of `start`.
    pub line: u32,
}

/// Headings of `text[from..to]` (offsets are into `text`): ATX and setext, never inside
/// fenced code or HTML blocks; a `---` thematic break is not a heading.
pub fn headings(_text: &str, _from: usize, _to: usize) -> Vec<Heading> {
    todo!("formats helper")
}

/// Add section nodes for `text[from..to]` of source `src` under `file` (nested by level;
/// text before the first heading becomes a section titled after the file). Returns the
/// top-level section ids. Sets spans, lines, titles, slugs (`seg`) and `format`.
pub fn add_sections(
    _corpus: &mut Corpus,
    _file: NodeId,
    _src: SourceId,
    _from: usize,
    _to: usize,
    _format: Format,
) -> Vec<NodeId> {
    todo!("formats helper")
}
