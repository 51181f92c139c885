//! "Did you mean": the closest vocabulary term to a query term absent from the vocabulary
//! (docs/DESIGN.md §3), by Damerau–Levenshtein distance in its optimal-string-alignment form
//! (insert, delete, substitute, swap two adjacent characters; counted in chars).
//!
//! The allowed distance grows with the typed term's length in chars ([`max_distance`]):
//! 1–2 chars: no suggestion (everything short is within 2 edits of everything); 3–4 chars:
//! 1 edit; 5 or more: 2 edits. Ties: higher document frequency, then alphabetical.
//! Fast on 100k-term vocabularies: only terms whose length in chars is within the allowed
//! distance are visited (the index keeps terms grouped by length), a 64-bit char-set
//! signature per term rules most of them out with one popcount, and a DP bounded by the best
//! distance so far stops as soon as two rows exceed it.

use super::bm25::RootIndex;

/// Largest edit distance at which a term of `len` chars gets a suggestion.
pub fn max_distance(len: usize) -> usize {
    match len {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    }
}

/// Optimal-string-alignment distance between `a` and `b` in chars, if it is at most `k`
/// (`None` when farther). Used for "did you mean" suggestions outside the index too.
pub fn within(a: &str, b: &str, k: usize) -> Option<usize> {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    bounded_osa(&a, &b, k, &mut Vec::new())
}

/// Optimal-string-alignment distance of `a` and `b` if it is `<= k`, else `None`.
/// `rows` is scratch space (three rows of `b.len() + 1`).
pub(crate) fn bounded_osa<T: PartialEq>(
    a: &[T],
    b: &[T],
    k: usize,
    rows: &mut Vec<usize>,
) -> Option<usize> {
    if a.len().abs_diff(b.len()) > k {
        return None;
    }
    let w = b.len() + 1;
    rows.clear();
    rows.resize(3 * w, 0);
    let (mut pp, mut p, mut c) = (0, w, 2 * w); // row i-2, i-1, i
    for (j, slot) in rows[p..p + w].iter_mut().enumerate() {
        *slot = j;
    }
    let mut prev_min = 0;
    for i in 1..=a.len() {
        rows[c] = i;
        let mut row_min = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (rows[p + j] + 1)
                .min(rows[c + j - 1] + 1)
                .min(rows[p + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(rows[pp + j - 2] + 1);
            }
            rows[c + j] = v;
            row_min = row_min.min(v);
        }
        // A transposition reaches back two rows, so stop only when two rows in a row are
        // beyond the bound.
        if row_min > k && prev_min > k {
            return None;
        }
        prev_min = row_min;
        (pp, p, c) = (p, c, pp);
    }
    let d = rows[p + b.len()];
    (d <= k).then_some(d)
}

/// A suggestion found in one root: distance, document frequency, term.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Suggestion {
    pub dist: usize,
    /// The typed word is a prefix of the term (`cach` → `cache`): the likelier intent.
    pub completes: bool,
    pub df: usize,
    pub term: String,
}

impl Suggestion {
    /// Whether `self` is a better suggestion than `other` (closer, then one the typed word
    /// is a prefix of, then higher df, then alphabetically first).
    pub fn better_than(&self, other: &Suggestion) -> bool {
        (
            self.dist,
            !self.completes,
            std::cmp::Reverse(self.df),
            &self.term,
        ) < (
            other.dist,
            !other.completes,
            std::cmp::Reverse(other.df),
            &other.term,
        )
    }
}

/// The best suggestion for `typed` (lower-case) in `root`'s vocabulary, if any is within
/// [`max_distance`]: closest first; at equal distance a term that `typed` is a prefix of
/// (`cach` → `cache`, not `each`), then the higher df. The exact term itself is never suggested. Only terms whose length in
/// chars is within the allowed distance are compared; ASCII pairs are compared as bytes.
pub(crate) fn suggest(root: &RootIndex, typed: &str) -> Option<Suggestion> {
    let a: Vec<char> = typed.chars().collect();
    let k = max_distance(a.len());
    if k == 0 {
        return None;
    }
    let ascii = typed.is_ascii();
    let sig_a = super::build::char_signature(typed);
    let mut best: Option<Suggestion> = None;
    let mut b: Vec<char> = Vec::new();
    let mut rows = Vec::new();
    for len in a.len().saturating_sub(k)..=a.len() + k {
        for &t in root.terms_of_len(len) {
            let bound = best.as_ref().map_or(k, |s| s.dist);
            // Each edit removes at most one char of `typed` and adds at most one: a char
            // class on one side only costs at least one edit.
            let sig_b = root.sig.get(t as usize).copied().unwrap_or(0);
            let only = (sig_a & !sig_b)
                .count_ones()
                .max((sig_b & !sig_a).count_ones());
            if only as usize > bound {
                continue;
            }
            let term = root.vocab.term(t);
            let d = if ascii && term.is_ascii() {
                bounded_osa(typed.as_bytes(), term.as_bytes(), bound, &mut rows)
            } else {
                b.clear();
                b.extend(term.chars());
                bounded_osa(&a, &b, bound, &mut rows)
            };
            let Some(d) = d else { continue };
            if d == 0 {
                continue;
            }
            let completes = term.starts_with(typed);
            let cand = Suggestion {
                dist: d,
                completes,
                df: root.df(t),
                term: String::new(),
            };
            let wins = match &best {
                None => true,
                Some(s) => {
                    (cand.dist, !cand.completes, std::cmp::Reverse(cand.df), term)
                        < (
                            s.dist,
                            !s.completes,
                            std::cmp::Reverse(s.df),
                            s.term.as_str(),
                        )
                }
            };
            if wins {
                best = Some(Suggestion {
                    term: term.to_owned(),
                    ..cand
                });
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_prefers_completing_the_typed_word() {
        let each = Suggestion {
            dist: 1,
            completes: false,
            df: 90,
            term: "each".into(),
        };
        let cache = Suggestion {
            dist: 1,
            completes: true,
            df: 3,
            term: "cache".into(),
        };
        assert!(cache.better_than(&each));
        let far = Suggestion {
            dist: 2,
            completes: true,
            df: 99,
            term: "caches".into(),
        };
        assert!(each.better_than(&far));
    }

    fn osa(a: &str, b: &str, k: usize) -> Option<usize> {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        bounded_osa(&a, &b, k, &mut Vec::new())
    }

    #[test]
    fn distances() {
        assert_eq!(osa("midleware", "middleware", 2), Some(1));
        assert_eq!(osa("teh", "the", 2), Some(1));
        assert_eq!(osa("kitten", "sitting", 3), Some(3));
        assert_eq!(osa("kitten", "sitting", 2), None);
        assert_eq!(osa("", "ab", 2), Some(2));
        assert_eq!(osa("größe", "grösse", 2), Some(2));
        assert_eq!(osa("abc", "abc", 0), Some(0));
    }

    #[test]
    fn length_thresholds() {
        assert_eq!(
            (
                max_distance(2),
                max_distance(3),
                max_distance(4),
                max_distance(5)
            ),
            (0, 1, 1, 2)
        );
    }
}
