//! Small helpers shared by the loaders (llms.txt, `Skill_Seekers`, catalog, git-adr,
//! doc trees): reading a file into a `File` node, byte-offset → line lookup, and nesting
//! heading sections under a parent.

use std::path::Path;
use std::sync::Arc;

use crate::formats::sections::Heading;
use crate::formats::walk::read::{ReadOutcome, read_file};
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, SourceId, TextSpan, Warning};

/// Byte offset → 1-based line lookup for one text (binary search over line starts).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index the line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
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
    let title = abs
        .file_name()
        .map_or_else(|| rel.to_string(), |n| n.to_string_lossy().into_owned());
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
            let len = source.text_len();
            let lines = LineIndex::new(source.text());
            node.bytes = source.size;
            node.line_start = Some(1);
            node.line_end = Some(lines.last_line(0, len));
            let src = corpus.add_source(source);
            node.span = Some(TextSpan {
                source: src,
                start: 0,
                own_end: len,
                end: len,
            });
            (corpus.add_child(parent, node), Some(src))
        }
        ReadOutcome::Binary { size } => {
            node.bytes = size;
            node.flags.set(Flag::Binary);
            node.warnings.push(Warning::at(
                "binary content (NUL byte); not parsed",
                rel,
                None,
            ));
            (corpus.add_child(parent, node), None)
        }
        ReadOutcome::Error(e) => {
            node.warnings
                .push(Warning::at(format!("cannot read: {e}"), rel, None));
            (corpus.add_child(parent, node), None)
        }
    }
}

/// Add heading sections for `hs` (already filtered to the levels wanted, in order) under
/// `parent`, nested by level: a heading's section runs to the next heading of the same or a
/// higher level (or `end`), its own text to the next heading of any level. Returns the
/// top-level section ids. Segments are the slugs of `{#id}` heading attributes, else of
/// the titles.
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
    let path: Arc<str> = path.into();
    for (i, h) in hs.iter().enumerate() {
        let own_end = hs.get(i + 1).map_or(end, |n| n.start);
        let sec_end = hs[i + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map_or(end, |n| n.start);
        while stack.last().is_some_and(|(l, _)| *l >= h.level) {
            stack.pop();
        }
        let mut node = Node::new(
            NodeKind::Section,
            format,
            h.title.clone(),
            Arc::clone(&path),
        );
        // A `{#id}` attribute names the section, as in markdown files (docs/FORMATS.md §10).
        node.name_by_heading(h.anchor.as_deref());
        node.level = h.level;
        node.line_start = Some(h.line);
        node.line_end = Some(li.last_line(h.start, sec_end));
        node.span = Some(TextSpan {
            source: src,
            start: h.start,
            own_end,
            end: sec_end,
        });
        let under = stack.last().map_or(parent, |(_, n)| *n);
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
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .chars()
        .take(200)
        .collect()
}
