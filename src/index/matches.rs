//! Highlighting: where the matched index terms occur in a text (docs/DESIGN.md §3, "matched terms
//! are highlighted in the preview").

use std::collections::HashSet;
use std::ops::Range;

use super::tokenize::scan;

/// Byte ranges in `text` of every token (a whole word, a part of a split identifier, or a CJK
/// bigram, see [`crate::index::tokenize`](mod@crate::index::tokenize)) equal to one of `terms` (compared lower-cased).
/// A matching whole identifier covers its parts; overlapping CJK bigrams merge into one
/// range. The ranges are sorted, non-overlapping and on char boundaries of `text`.
pub fn match_ranges(text: &str, terms: &[String]) -> Vec<Range<usize>> {
    let wanted: HashSet<String> = terms
        .iter()
        .map(|t| t.to_lowercase())
        .filter(|t| !t.is_empty())
        .collect();
    let mut out: Vec<Range<usize>> = Vec::new();
    if wanted.is_empty() {
        return out;
    }
    scan(text, &mut |t| {
        if !wanted.contains(t.term) {
            return;
        }
        match out.last_mut() {
            Some(last) if t.range.start < last.end => last.end = last.end.max(t.range.end),
            _ => out.push(t.range),
        }
    });
    out
}

/// Whether `title` holds every word of `query` among its own terms (whole words,
/// identifier parts and CJK terms as [`super::tokenize()`] gives them; stopwords aside): such
/// a title hit is listed above the content hits (docs/DESIGN.md §3). A query without a word
/// (empty, stopwords only) holds nothing.
pub fn holds_every_word(title: &str, query: &str) -> bool {
    let want = super::tokenize::tokenize(query);
    if want.is_empty() {
        return false;
    }
    let have: HashSet<String> = super::tokenize::tokenize(title).into_iter().collect();
    want.iter().all(|w| have.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranges as `(start, end)` pairs.
    fn ranges(text: &str, terms: &[&str]) -> Vec<(usize, usize)> {
        let terms: Vec<String> = terms.iter().map(|s| s.to_string()).collect();
        match_ranges(text, &terms)
            .into_iter()
            .map(|r| (r.start, r.end))
            .collect()
    }

    #[test]
    fn whole_identifier_covers_its_parts() {
        assert_eq!(
            ranges("call getUserById now", &["getuserbyid", "user"]),
            [(5, 16)]
        );
    }

    #[test]
    fn parts_of_identifiers_match() {
        let text = "use app.get and parse_frontmatter()";
        assert_eq!(ranges(text, &["get", "frontmatter"]), [(8, 11), (22, 33)]);
    }

    #[test]
    fn terms_compare_lowercased() {
        assert_eq!(
            ranges("Middleware, MIDDLEWARE", &["Middleware"]),
            [(0, 10), (12, 22)]
        );
    }

    #[test]
    fn cjk_bigrams_merge() {
        // 東京都 = 9 bytes; bigrams 東京 (0..6) and 京都 (3..9) overlap.
        assert_eq!(ranges("東京都です", &["東京", "京都"]), [(0, 9)]);
    }

    #[test]
    fn no_terms_no_ranges() {
        assert!(ranges("anything", &[]).is_empty());
        assert!(ranges("", &["x"]).is_empty());
    }
}
