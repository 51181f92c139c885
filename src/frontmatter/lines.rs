//! Line table of the frontmatter region: byte offsets of each line's start, content end
//! (before its line break) and end (after it), built once in O(n). A line break is `\r\n`,
//! `\n` or a lone `\r` (classic Mac OS), as YAML 1.2 §5.4 defines them (docs/FORMATS.md §9.1).

/// One line of the source text, as byte offsets into the ORIGINAL text (BOM included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// First byte of the line.
    pub start: usize,
    /// End of the line's content: before `\r\n`, `\n` or a lone `\r` (or end of text).
    pub content_end: usize,
    /// End of the line including its line ending.
    pub end: usize,
}

/// Split `text[from..]` into lines, stopping after the first line (other than the first
/// one) for which `stop` returns true on its content; returns the lines and whether `stop`
/// matched. Scans at most once over the text.
pub(crate) fn split_until(
    text: &str,
    from: usize,
    mut stop: impl FnMut(&str) -> bool,
) -> (Vec<Line>, bool) {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut pos = from;
    while pos < bytes.len() {
        let (content_end, end) = match next_break(bytes, pos) {
            Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => (i, i + 2),
            Some(i) => (i, i + 1),
            None => (bytes.len(), bytes.len()),
        };
        let line = Line {
            start: pos,
            content_end,
            end,
        };
        out.push(line);
        if out.len() > 1 && stop(&text[pos..content_end]) {
            return (out, true);
        }
        pos = end;
    }
    (out, false)
}

/// Byte index of the first `\n` or `\r` at or after `from`.
pub(crate) fn next_break(bytes: &[u8], from: usize) -> Option<usize> {
    bytes
        .get(from..)?
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .map(|i| from + i)
}

/// Byte just after the line break that ends the line holding byte `pos`, or the text's
/// length when that line is the last one.
#[cfg(test)]
pub(crate) fn line_end_after(bytes: &[u8], pos: usize) -> usize {
    match next_break(bytes, pos) {
        Some(i) if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') => i + 2,
        Some(i) => i + 1,
        None => bytes.len(),
    }
}

/// First byte of the line holding byte `pos` (just after the previous line break).
pub(crate) fn line_start_before(bytes: &[u8], pos: usize) -> usize {
    bytes[..pos.min(bytes.len())]
        .iter()
        .rposition(|&c| c == b'\n' || c == b'\r')
        .map_or(0, |i| i + 1)
}

/// Number of leading indentation bytes (spaces and tabs) of `s`, and whether a tab was
/// among them.
pub(crate) fn indent_of(s: &str) -> (usize, bool) {
    let mut n = 0;
    let mut tab = false;
    for b in s.bytes() {
        match b {
            b' ' => n += 1,
            b'\t' => {
                n += 1;
                tab = true;
            }
            _ => break,
        }
    }
    (n, tab)
}

/// True when `s` holds only spaces, tabs and `\r`.
pub(crate) fn is_blank(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t' || b == b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_crlf_and_lf_lines_with_offsets() {
        let t = "a\r\nbb\ncc";
        let (l, found) = split_until(t, 0, |_| false);
        assert!(!found);
        assert_eq!(
            l,
            vec![
                Line {
                    start: 0,
                    content_end: 1,
                    end: 3
                },
                Line {
                    start: 3,
                    content_end: 5,
                    end: 6
                },
                Line {
                    start: 6,
                    content_end: 8,
                    end: 8
                },
            ]
        );
    }

    #[test]
    fn lone_cr_ends_a_line_like_lf() {
        let (l, _) = split_until("a\rbb\r\ncc\r", 0, |_| false);
        let ends: Vec<(usize, usize, usize)> =
            l.iter().map(|x| (x.start, x.content_end, x.end)).collect();
        assert_eq!(ends, vec![(0, 1, 2), (2, 4, 6), (6, 8, 9)]);
        assert_eq!(line_start_before(b"a\rbb", 4), 2);
        assert_eq!(line_end_after(b"a\rbb\r\ncc", 3), 6);
    }

    #[test]
    fn stops_at_first_matching_line_after_the_first() {
        let (l, found) = split_until("---\nx\n---\ny\n", 0, |s| s == "---");
        assert!(found);
        assert_eq!(l.len(), 3);
    }
}
