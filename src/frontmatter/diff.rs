//! The line diff shown for a frontmatter save:
//! exactly the changed lines of raw bytes, with 1-based line numbers.

/// Whether a diff line was removed or added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffKind {
    /// Present only in the old bytes.
    Removed,
    /// Present only in the new bytes.
    Added,
}

/// One changed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffLine {
    /// Removed or added.
    pub kind: DiffKind,
    /// 1-based line number in the old file (removed) or the new file (added).
    pub line: u32,
    /// The line's text without its line ending (invalid UTF-8 shown as U+FFFD).
    pub text: String,
}

/// Lines with their line break (`\n`, `\r\n` or a lone `\r`, as the parser reads them).
fn split_lines(b: &[u8]) -> Vec<&[u8]> {
    let mut v = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => i += 1,
            b'\n' | b'\r' => {}
            _ => {
                i += 1;
                continue;
            }
        }
        v.push(&b[start..=i]);
        i += 1;
        start = i;
    }
    if start < b.len() {
        v.push(&b[start..]);
    }
    v
}

fn show(l: &[u8]) -> String {
    let l = l.strip_suffix(b"\n").unwrap_or(l);
    let l = l.strip_suffix(b"\r").unwrap_or(l);
    String::from_utf8_lossy(l).into_owned()
}

/// Exactly the changed lines between `old` and `new` (lines compared as bytes, line endings
/// included, so a CRLF→LF change shows), removed lines before added ones in each hunk, with
/// 1-based line numbers. Common leading/trailing lines are skipped first; the middle uses a
/// longest-common-subsequence diff (falls back to remove-all/add-all when it exceeds
/// 4 million cell comparisons).
pub fn line_diff(old: &[u8], new: &[u8]) -> Vec<DiffLine> {
    let a = split_lines(old);
    let b = split_lines(new);
    let mut pre = 0;
    while pre < a.len() && pre < b.len() && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < a.len() - pre && suf < b.len() - pre && a[a.len() - 1 - suf] == b[b.len() - 1 - suf]
    {
        suf += 1;
    }
    let am = &a[pre..a.len() - suf];
    let bm = &b[pre..b.len() - suf];
    let line = |i: usize| u32::try_from(pre + i + 1).unwrap_or(u32::MAX);
    let mut out = Vec::new();
    let rm = |i: usize, out: &mut Vec<DiffLine>| {
        out.push(DiffLine {
            kind: DiffKind::Removed,
            line: line(i),
            text: show(am[i]),
        });
    };
    let add = |j: usize, out: &mut Vec<DiffLine>| {
        out.push(DiffLine {
            kind: DiffKind::Added,
            line: line(j),
            text: show(bm[j]),
        });
    };
    if am.len().saturating_mul(bm.len()) > 4_000_000 {
        (0..am.len()).for_each(|i| rm(i, &mut out));
        (0..bm.len()).for_each(|j| add(j, &mut out));
        return out;
    }
    // lcs[i][j] = LCS length of am[i..] and bm[j..].
    let w = bm.len() + 1;
    let mut lcs = vec![0u32; (am.len() + 1) * w];
    for i in (0..am.len()).rev() {
        for j in (0..bm.len()).rev() {
            lcs[i * w + j] = if am[i] == bm[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut added = Vec::new();
    while i < am.len() || j < bm.len() {
        if i < am.len() && j < bm.len() && am[i] == bm[j] {
            added.drain(..).for_each(|k| add(k, &mut out));
            i += 1;
            j += 1;
        } else if j < bm.len() && (i == am.len() || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]) {
            added.push(j);
            j += 1;
        } else {
            rm(i, &mut out);
            i += 1;
        }
    }
    added.drain(..).for_each(|k| add(k, &mut out));
    out
}

/// `diff` in words, for a save prompt or report: `1 line removed, 1 added` (one edited
/// line), `2 lines removed, 3 added`, `1 line added`, `2 lines removed`, `no lines` (empty).
/// A replaced line is one removal and one addition, never "2 changed lines".
pub fn describe(diff: &[DiffLine]) -> String {
    let removed = diff.iter().filter(|d| d.kind == DiffKind::Removed).count();
    let added = diff.len() - removed;
    let lines = |n: usize| format!("{n} line{}", if n == 1 { "" } else { "s" });
    match (removed, added) {
        (0, 0) => "no lines".to_string(),
        (0, a) => format!("{} added", lines(a)),
        (r, 0) => format!("{} removed", lines(r)),
        (r, a) => format!("{} removed, {a} added", lines(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_says_one_edited_line_is_one_removed_and_one_added() {
        let one = line_diff(b"a: 1\nb: 2\n", b"a: 1\nb: 3\n");
        assert_eq!(describe(&one), "1 line removed, 1 added");
        let colon = line_diff(b"x\nd: a\n", b"x\nd: 'a'\nl: MIT\n");
        assert_eq!(describe(&colon), "1 line removed, 2 added");
        assert_eq!(describe(&line_diff(b"a\n", b"a\nb\n")), "1 line added");
        assert_eq!(
            describe(&line_diff(b"a\nb\nc\n", b"a\n")),
            "2 lines removed"
        );
        assert_eq!(describe(&[]), "no lines");
    }

    #[test]
    fn diff_shows_exactly_changed_lines() {
        let d = line_diff(b"a\nb\nc\nd\n", b"a\nB\nc\nd\ne\n");
        assert_eq!(
            d,
            vec![
                DiffLine {
                    kind: DiffKind::Removed,
                    line: 2,
                    text: "b".into()
                },
                DiffLine {
                    kind: DiffKind::Added,
                    line: 2,
                    text: "B".into()
                },
                DiffLine {
                    kind: DiffKind::Added,
                    line: 5,
                    text: "e".into()
                },
            ]
        );
        assert!(line_diff(b"same\n", b"same\n").is_empty());
    }

    #[test]
    fn diff_of_cr_only_files_names_the_changed_line() {
        let d = line_diff(b"---\ra: 1\r---\rbody\r", b"---\ra: 2\r---\rbody\r");
        let got: Vec<(DiffKind, u32, &str)> = d
            .iter()
            .map(|l| (l.kind, l.line, l.text.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![(DiffKind::Removed, 2, "a: 1"), (DiffKind::Added, 2, "a: 2")]
        );
    }

    #[test]
    fn diff_sees_line_ending_change() {
        let d = line_diff(b"a\r\nb\n", b"a\nb\n");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].kind, DiffKind::Removed);
        assert_eq!(d[0].text, "a");
    }
}
