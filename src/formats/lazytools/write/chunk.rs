//! lazytools' chunker (docs/FORMATS.md §2.6): normalisation, document title, heading-aware sections
//! with lazytools' heading regex `^(#{1,4})\s+(.+)$` (multiline, fences not special), the
//! preamble rule, split/merge by size, and character windows with paragraph snapping.
//!
//! Every length and offset here is in **characters** (Python code points).

use crate::formats::lazytools::pystr::{is_space, strip};
use crate::index::lazytools::tokenize;

/// Extensions chunked heading-aware (docs/FORMATS.md §2.6); others use character windows.
pub const HEADING_EXTENSIONS: [&str; 4] = [".md", ".mdx", ".rst", ".adoc"];

/// One chunk as written to chunks.jsonl (docs/FORMATS.md §2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocChunk {
    /// Source path as given (absolute for `build`).
    pub path: String,
    /// Document title.
    pub title: String,
    /// Section heading, `"<h> [k]"` for split pieces, or the title when empty.
    pub heading: String,
    /// Stripped chunk text.
    pub text: String,
    /// lazytools tokens of `text`.
    pub tokens: Vec<String>,
    /// `tokens.len()`.
    pub doc_len: usize,
    /// Index of the (heading, body) pair within the file; skips blank pieces.
    pub ordinal: usize,
}

/// lazytools' `_normalize`: CRLF/CR → LF; runs of spaces/tabs → one space; 3+ newlines → 2;
/// Python `strip()`.
pub fn normalize(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                while matches!(chars.peek(), Some(' ' | '\t')) {
                    chars.next();
                }
                out.push(' ');
            }
            '\n' => {
                let mut n = 1;
                while chars.peek() == Some(&'\n') {
                    chars.next();
                    n += 1;
                }
                out.push_str(if n >= 2 { "\n\n" } else { "\n" });
            }
            c => out.push(c),
        }
    }
    strip(&out).to_string()
}

/// Python `str.splitlines()` boundaries (without keeping ends).
fn splitlines(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        ) {
            out.push(&s[start..i]);
            let mut next = i + c.len_utf8();
            if c == '\r' && it.peek().map(|p| p.1) == Some('\n') {
                it.next();
                next += 1;
            }
            start = next;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// `pathlib` suffix of a file name: from the last `.` when it is neither the first nor the
/// last character (`".bashrc"` and `"x."` have none).
pub fn suffix(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 && i < name.len() - 1 => &name[i..],
        _ => "",
    }
}

/// `pathlib` stem: the name without [`suffix`].
pub fn stem(name: &str) -> &str {
    &name[..name.len() - suffix(name).len()]
}

/// lazytools' `_doc_title`: the first line that is non-empty after strip / lstrip `#` /
/// strip; else the file stem with `_`/`-` → spaces, stripped; else the file name.
pub fn doc_title(file_name: &str, text: &str) -> String {
    for line in splitlines(text) {
        let s = strip(strip(line).trim_start_matches('#'));
        if !s.is_empty() {
            return s.to_string();
        }
    }
    let st = stem(file_name).replace(['_', '-'], " ");
    let st = strip(&st);
    if st.is_empty() {
        file_name.to_string()
    } else {
        st.to_string()
    }
}

/// lazytools' `_char_chunks` on `text` (chars): windows of `chunk_size`, snapped back to the
/// last blank line when it lies at or after half the window, stripped, blank ones dropped;
/// the next window starts `overlap` chars before the cut (at least one char further).
pub fn char_chunks(text: &[char], chunk_size: usize, overlap: usize) -> Vec<String> {
    let n = text.len();
    let mut out = Vec::new();
    let mut start = 0usize;
    while start < n {
        let mut end = (start + chunk_size).min(n);
        let mut window = &text[start..end];
        if end < n
            && let Some(split) = rfind_blank_line(window)
            && split >= chunk_size / 2
        {
            window = &window[..split];
            end = start + split;
        }
        let s: String = window.iter().collect();
        let st = strip(&s);
        if !st.is_empty() {
            out.push(st.to_string());
        }
        if end >= n {
            break;
        }
        start = (start + 1).max(end.saturating_sub(overlap));
    }
    out
}

/// Index of the last `"\n\n"` in `w`.
fn rfind_blank_line(w: &[char]) -> Option<usize> {
    (0..w.len().saturating_sub(1))
        .rev()
        .find(|&i| w[i] == '\n' && w[i + 1] == '\n')
}

/// One match of `^(#{1,4})\s+(.+)$` (MULTILINE): start of the match and the range of group 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadingMatch {
    /// Char offset of the first `#`.
    pub start: usize,
    /// Char range of the heading text (group 2), before stripping.
    pub text: (usize, usize),
}

/// All non-overlapping matches of lazytools' heading regex, as Python's `finditer` finds
/// them (note `\s+` may cross newlines, so `"#\n# x"` is one heading with text `"# x"`).
pub fn heading_matches(t: &[char]) -> Vec<HeadingMatch> {
    let n = t.len();
    let mut out = Vec::new();
    let mut pos = 0usize;
    while pos <= n {
        // Next line start at or after `pos`.
        let Some(s) = (pos..=n).find(|&s| s == 0 || t[s - 1] == '\n') else {
            break;
        };
        match match_heading_at(t, s) {
            Some(m) => {
                pos = m.text.1.max(s + 1);
                out.push(m);
            }
            None => pos = s + 1,
        }
    }
    out
}

fn match_heading_at(t: &[char], s: usize) -> Option<HeadingMatch> {
    let n = t.len();
    let k = t[s..].iter().take_while(|c| **c == '#').count();
    if k == 0 || k > 4 {
        return None;
    }
    let j = s + k;
    if j >= n || !is_space(t[j]) {
        return None;
    }
    let mut e = j;
    while e < n && is_space(t[e]) {
        e += 1;
    }
    let line_end = |from: usize| (from..n).find(|&i| t[i] == '\n').unwrap_or(n);
    if e < n {
        return Some(HeadingMatch {
            start: s,
            text: (e, line_end(e)),
        });
    }
    // `\s+` ran to the end of the text: backtrack to the last non-newline char.
    let g = (j + 1..n).rev().find(|&i| t[i] != '\n')?;
    Some(HeadingMatch {
        start: s,
        text: (g, line_end(g)),
    })
}

fn collect(t: &[char]) -> String {
    t.iter().collect()
}

/// lazytools' `_heading_chunks`: `(heading, body)` pairs (docs/FORMATS.md §2.6 step 4).
pub fn heading_chunks(t: &[char], max_chunk: usize, overlap: usize) -> Vec<(String, String)> {
    let matches = heading_matches(t);
    if matches.is_empty() {
        return char_chunks(t, max_chunk, overlap)
            .into_iter()
            .map(|c| (String::new(), c))
            .collect();
    }
    let mut raw: Vec<(String, String)> = Vec::new();
    if matches[0].start > 50 {
        let pre = collect(&t[..matches[0].start]);
        let pre = strip(&pre);
        if !pre.is_empty() {
            raw.push((String::new(), pre.to_string()));
        }
    }
    for (i, m) in matches.iter().enumerate() {
        let end = matches.get(i + 1).map_or(t.len(), |n| n.start);
        let heading = collect(&t[m.text.0..m.text.1]);
        let body = collect(&t[m.start..end]);
        raw.push((strip(&heading).to_string(), strip(&body).to_string()));
    }
    let min_size = max_chunk / 4;
    let mut result: Vec<(String, String)> = Vec::new();
    for (heading, body) in raw {
        let len = body.chars().count();
        if len > max_chunk {
            let chars: Vec<char> = body.chars().collect();
            for (j, sub) in char_chunks(&chars, max_chunk, overlap)
                .into_iter()
                .enumerate()
            {
                let h = if j > 0 {
                    format!("{heading} [{}]", j + 1)
                } else {
                    heading.clone()
                };
                result.push((h, sub));
            }
        } else if len < min_size
            && let Some(prev) = result.last_mut()
        {
            prev.1.push_str("\n\n");
            prev.1.push_str(&body);
        } else {
            result.push((heading, body));
        }
    }
    result
}

/// lazytools' `_make_chunks` for one file: normalise, title, pairs (heading-aware for
/// [`HEADING_EXTENSIONS`], else char windows), then one [`DocChunk`] per non-blank piece.
/// `path` is written as is; `file_name` decides the title fallback and the mode.
pub fn make_chunks(
    path: &str,
    file_name: &str,
    text: &str,
    chunk_size: usize,
    overlap: usize,
) -> Vec<DocChunk> {
    let text = normalize(text);
    if text.is_empty() {
        return Vec::new();
    }
    let title = doc_title(file_name, &text);
    let chars: Vec<char> = text.chars().collect();
    let heading_mode = HEADING_EXTENSIONS.contains(&suffix(file_name).to_lowercase().as_str());
    let pairs = if heading_mode {
        heading_chunks(&chars, chunk_size, overlap)
    } else {
        char_chunks(&chars, chunk_size, overlap)
            .into_iter()
            .map(|c| (String::new(), c))
            .collect()
    };
    let mut out = Vec::new();
    for (i, (heading, body)) in pairs.into_iter().enumerate() {
        let text = strip(&body);
        if text.is_empty() {
            continue;
        }
        let tokens = tokenize(text);
        out.push(DocChunk {
            path: path.to_string(),
            title: title.clone(),
            heading: if heading.is_empty() {
                title.clone()
            } else {
                heading
            },
            text: text.to_string(),
            doc_len: tokens.len(),
            tokens,
            ordinal: i,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn normalize_collapses_spaces_and_blank_lines() {
        assert_eq!(
            normalize("  a\t\t b\r\n\r\n\r\n\nc  \r d \n"),
            "a b\n\nc \n d"
        );
    }

    #[test]
    fn heading_regex_quirks() {
        let t = chars("# A\n##### five\n#### four\n#\n# x\n#no\n  # indented");
        let got: Vec<String> = heading_matches(&t)
            .iter()
            .map(|m| collect(&t[m.text.0..m.text.1]))
            .collect();
        assert_eq!(got, vec!["A", "four", "# x"]);
    }

    #[test]
    fn short_preamble_is_dropped_long_one_kept() {
        let short = chars("intro\n# H\nbody");
        assert_eq!(
            heading_chunks(&short, 1800, 180),
            vec![("H".into(), "# H\nbody".into())]
        );
        let long: String = format!("{}\n# H\nbody", "p".repeat(60));
        let got = heading_chunks(&chars(&long), 1800, 180);
        // The preamble is a chunk with no heading; the tiny heading section is appended to it.
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, "");
        assert_eq!(got[0].1, format!("{}\n\n# H\nbody", "p".repeat(60)));
    }

    #[test]
    fn long_sections_split_with_numbered_headings() {
        let body = format!("# Big\n{}\n\n{}", "a".repeat(1000), "b".repeat(1500));
        let got = heading_chunks(&chars(&body), 1800, 180);
        assert_eq!(
            got.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
            vec!["Big", "Big [2]"]
        );
        assert_eq!(got[0].1, format!("# Big\n{}", "a".repeat(1000)));
    }

    #[test]
    fn char_windows_overlap() {
        let t = chars(&"x".repeat(4000));
        let got = char_chunks(&t, 1800, 180);
        assert_eq!(
            got.iter().map(|c| c.len()).collect::<Vec<_>>(),
            vec![1800, 1800, 760]
        );
    }

    #[test]
    fn titles_and_suffixes() {
        assert_eq!(doc_title("a.md", "\n ## Hello \nx"), "Hello");
        assert_eq!(doc_title("my_file-name.txt", "###"), "my file name");
        assert_eq!(suffix("x.MD"), ".MD");
        assert_eq!(suffix(".bashrc"), "");
        assert_eq!(stem("a.b.c"), "a.b");
    }
}
