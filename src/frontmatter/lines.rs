//! Line table of the frontmatter region: byte offsets of each line's start, content end
//! (before `\r\n` / `\n`) and end (after the line ending), built once in O(n).

/// One line of the source text, as byte offsets into the ORIGINAL text (BOM included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// First byte of the line.
    pub start: usize,
    /// End of the line's content: before `\r\n` or `\n` (or end of text).
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
        let nl = memchr_nl(&bytes[pos..]).map(|i| pos + i);
        let (content_end, end) = match nl {
            Some(i) => {
                let ce = if i > pos && bytes[i - 1] == b'\r' {
                    i - 1
                } else {
                    i
                };
                (ce, i + 1)
            }
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

fn memchr_nl(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'\n')
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
    fn stops_at_first_matching_line_after_the_first() {
        let (l, found) = split_until("---\nx\n---\ny\n", 0, |s| s == "---");
        assert!(found);
        assert_eq!(l.len(), 3);
    }
}
