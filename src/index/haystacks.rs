//! The haystacks of a [`super::FuzzyIndex`] in two shared buffers (docs/DESIGN.md §8): the
//! bytes of every ASCII haystack one after the other and the chars of every other haystack,
//! with one `(start, length)` per item instead of a heap string (and a lower-case copy) per
//! item.
//!
//! An item's haystack is exactly what nucleo's `Utf32String::from` makes of its text: the
//! bytes of an ASCII text, else its graphemes (`nucleo_matcher::chars::graphemes`, one char
//! each).

use nucleo_matcher::Utf32Str;

use crate::model::NodeId;

/// Set in [`Span::len`] when the item's haystack is in [`Haystacks::chars`].
const WIDE: u32 = 1 << 31;

/// Where one item's haystack is: `start` and length in its buffer, [`WIDE`] set for chars.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct Span {
    start: u32,
    len: u32,
}

/// The haystacks of the fuzzy index, in item order. Indices are items (`0..len()`).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Haystacks {
    nodes: Vec<NodeId>,
    spans: Vec<Span>,
    #[serde(with = "crate::util::pod_vec")]
    ascii: Vec<u8>,
    #[serde(with = "crate::util::pod_vec::chars")]
    chars: Vec<char>,
}

impl Haystacks {
    /// Add the haystack `text` of `node` as the next item; `false` (nothing added) when the
    /// buffers would pass 2 GiB of haystacks.
    pub fn push(&mut self, node: NodeId, text: &str) -> bool {
        let span = if text.is_ascii() {
            let (Ok(start), Ok(len)) = (u32::try_from(self.ascii.len()), u32::try_from(text.len()))
            else {
                return false;
            };
            if start.checked_add(len).is_none_or(|end| end >= WIDE) {
                return false;
            }
            self.ascii.extend_from_slice(text.as_bytes());
            Span { start, len }
        } else {
            let Ok(start) = u32::try_from(self.chars.len()) else {
                return false;
            };
            self.chars.extend(nucleo_matcher::chars::graphemes(text));
            let len = u32::try_from(self.chars.len()).unwrap_or(u32::MAX) - start;
            if start.checked_add(len).is_none_or(|end| end >= WIDE) {
                self.chars.truncate(start as usize);
                return false;
            }
            Span {
                start,
                len: len | WIDE,
            }
        };
        self.nodes.push(node);
        self.spans.push(span);
        true
    }

    /// Give back the buffers' spare capacity (they grow by doubling).
    pub fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.spans.shrink_to_fit();
        self.ascii.shrink_to_fit();
        self.chars.shrink_to_fit();
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of item `i` (panics when `i >= len()`, like a slice index).
    pub fn node(&self, i: usize) -> NodeId {
        self.nodes[i]
    }

    /// The nodes of all items, in item order.
    pub fn nodes(&self) -> &[NodeId] {
        &self.nodes
    }

    /// The haystack of item `i` as nucleo matches it (empty when `i >= len()`).
    pub fn hay(&self, i: usize) -> Utf32Str<'_> {
        let Some(s) = self.spans.get(i) else {
            return Utf32Str::Ascii(&[]);
        };
        let start = s.start as usize;
        if s.len & WIDE != 0 {
            let end = start + (s.len & !WIDE) as usize;
            Utf32Str::Unicode(self.chars.get(start..end).unwrap_or(&[]))
        } else {
            Utf32Str::Ascii(self.ascii.get(start..start + s.len as usize).unwrap_or(&[]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use nucleo_matcher::Utf32String;

    #[test]
    fn each_haystack_reads_back_as_nucleo_converts_it() {
        let texts = [
            "Middleware | docs/README.md",
            "",
            "naïve café | a/b.md",
            "e\u{301}t\u{e9} \r\n x",
            "HTTP/2 Server-Push",
            "渐进式披露",
        ];
        let mut h = Haystacks::default();
        for (i, t) in texts.iter().enumerate() {
            assert!(h.push(NodeId(i as u32 * 3), t));
        }
        h.shrink_to_fit();
        assert_eq!(h.len(), texts.len());
        for (i, t) in texts.iter().enumerate() {
            let want = Utf32String::from(*t);
            assert_eq!(h.hay(i), want.slice(..), "{t:?}");
            assert_eq!(h.node(i), NodeId(i as u32 * 3));
        }
        assert_eq!(h.hay(texts.len()), Utf32Str::Ascii(&[]));
    }
}
