//! What is open inside a list item or quote as far as its lines tell, for the heading line
//! scan ([`super::headings`]): whether a line outside the container continues a paragraph
//! in it lazily (pulldown-cmark then keeps the container open) or closes it.

use super::blocks::{atx_level, has_pipe, is_blank, is_hrule, list_item, open_fence, setext_level};

/// What the open container's innermost block is, as far as its lines tell: a line outside
/// it continues an open paragraph lazily, or closes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Inner {
    /// Surely a paragraph that a plain line continues.
    Para,
    /// Surely no paragraph (the last line was blank).
    NotPara,
    /// Not known: a plain line outside the container makes this scanner decline.
    Unknown,
}

/// The state of the open container: its innermost block, and whether a block that hides
/// what its lines are (fenced code, HTML, a table, indented code) may be open in it — then
/// no later line of the container is taken for paragraph text.
#[derive(Clone, Copy, Debug)]
pub(super) struct InnerState {
    pub inner: Inner,
    pub risk: bool,
}

impl InnerState {
    /// A container opened by a list item whose content (after the marker and its
    /// spaces) is `c`, or by a quote marker followed by `c` (indentation removed).
    pub(super) fn opened_with(c: &[u8]) -> Self {
        let mut s = InnerState {
            inner: Inner::NotPara,
            risk: false,
        };
        if is_blank(c) {
            return s;
        }
        if hides_lines(c) {
            s.risk = true;
            s.inner = Inner::Unknown;
        } else if list_item(c).is_some() {
            s.inside_line(c, 0);
        } else {
            s.inner = item_content_is_text(c);
        }
        s
    }

    /// After a non-blank line inside the container whose text (indentation removed) is
    /// `c`, `rel` columns right of the container's content column.
    pub(super) fn inside_line(&mut self, c: &[u8], rel: usize) {
        if hides_lines(c) || (rel >= 4 && self.inner != Inner::Para) {
            self.risk = true;
        }
        self.inner = if self.risk {
            Inner::Unknown
        } else if self.inner == Inner::Para && continues_paragraph(c) {
            Inner::Para
        } else if let Some(item) = list_item(c) {
            match item.w {
                Some(_) if rel < 4 => item_content_is_text(&c[item.content..]),
                _ => Inner::Unknown,
            }
        } else if self.inner == Inner::NotPara && rel < 4 && starts_paragraph(c) {
            Inner::Para
        } else {
            Inner::Unknown
        };
    }
}

/// Whether a line whose text is `c` may open a block whose later lines are not what they
/// look like: a fence, HTML, a table (any `|`), a footnote definition.
pub(super) fn hides_lines(c: &[u8]) -> bool {
    open_fence(c).is_some() || c.first() == Some(&b'<') || has_pipe(c) || c.starts_with(b"[^")
}

/// Whether a list item's content `c` (after the marker and its spaces) starts a paragraph:
/// plain text, after a task-list box `[ ]`/`[x]` if any; content that starts with a space
/// (more than 4 after the marker: indented code) does not.
pub(super) fn item_content_is_text(c: &[u8]) -> Inner {
    let c = match c {
        [b'[', b' ' | b'x' | b'X', b']', b' ', rest @ ..] => rest,
        _ => c,
    };
    if starts_paragraph(c) {
        Inner::Para
    } else {
        Inner::Unknown
    }
}

/// Whether a line whose text is `c` (not indented) starts a paragraph: it continues one
/// ([`continues_paragraph`]) and may not be a link reference definition.
pub(super) fn starts_paragraph(c: &[u8]) -> bool {
    !may_be_refdef(c) && continues_paragraph(c)
}

/// Whether `c` may start a link reference definition `[label]: …`: it starts with `[` and
/// its first unescaped `]` is followed by `:` or is not on this line.
pub(super) fn may_be_refdef(c: &[u8]) -> bool {
    if c.first() != Some(&b'[') {
        return false;
    }
    let mut escaped = false;
    for (i, &b) in c.iter().enumerate().skip(1) {
        match b {
            b'\\' if !escaped => escaped = true,
            b']' if !escaped => return c.get(i + 1) == Some(&b':'),
            _ => escaped = false,
        }
    }
    true
}

/// Whether a line whose text (indentation removed) is `c` continues an open paragraph
/// rather than starting a block or a table, for this scanner's purposes: no heading, fence,
/// thematic break, setext underline, HTML, quote, list item, footnote, and no `|` at all.
pub(super) fn continues_paragraph(c: &[u8]) -> bool {
    let Some(&first) = c.first() else {
        return false;
    };
    !(matches!(first, b'<' | b'>' | b'|')
        || atx_level(c).is_some()
        || open_fence(c).is_some()
        || is_hrule(c)
        || setext_level(c).is_some()
        || list_item(c).is_some()
        || c.starts_with(b"[^")
        || has_pipe(c))
}
