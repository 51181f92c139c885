//! lazytools' BM25 (docs/FORMATS.md §2.5–2.7) on bundles: its tokenizer, stopwords, vocab.json IDF,
//! manifest avgdl, heading and phrase boosts — reproducing its scores exactly (same floating
//! point operation order as lazybridge 0.7.9 `_bm25`).
//!
//! The index calls [`search`] for every bundle in
//! `corpus.bundles`; the `brief --format lazytools` path uses [`rank`].

use super::hash::FxHashMap;
use crate::model::{BundleStats, NodeId};

/// BM25 `k1` of lazytools (docs/FORMATS.md §2.7).
pub const K1: f64 = 1.5;
/// BM25 `b` of lazytools (docs/FORMATS.md §2.7).
pub const B: f64 = 0.75;
/// Added once per query token that is a substring of the lower-cased heading.
pub const HEADING_BOOST: f64 = 1.2;
/// Added when the first [`PHRASE_TOKENS`] query tokens, space-joined, occur in the
/// lower-cased chunk text.
pub const PHRASE_BOOST: f64 = 4.0;
/// How many leading query tokens form the boosted phrase.
pub const PHRASE_TOKENS: usize = 6;
/// IDF used for a query token missing from vocab.json.
pub const UNKNOWN_IDF: f64 = 0.5;

/// The 69 stopwords (45 English + 24 Italian) of docs/FORMATS.md §2.5, dropped after tokenizing.
pub const STOPWORDS: [&str; 69] = [
    "the", "a", "an", "and", "or", "of", "to", "for", "in", "on", "with", "by", "from", "is",
    "are", "was", "were", "be", "as", "that", "this", "it", "its", "at", "into", "how", "what",
    "why", "when", "which", "who", "can", "could", "should", "would", "use", "using", "used",
    "about", "than", "then", "them", "they", "their", "there", "de", "del", "della", "di", "e",
    "il", "la", "lo", "gli", "le", "un", "una", "uno", "che", "come", "per", "con", "su", "da",
    "nel", "nella", "delle", "dei", "degli",
];

/// Whether `t` is one of lazytools' [`STOPWORDS`].
pub fn is_stopword(t: &str) -> bool {
    STOPWORDS.contains(&t)
}

/// lazytools' `_tokenize` (docs/FORMATS.md §2.5): lower-case the whole text (full Unicode lowering,
/// as Python's `str.lower`), take every maximal run of `[a-zA-Z0-9_.]` of at least 2 chars, drop
/// stopwords. Order and duplicates are kept.
pub fn tokenize(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    let mut run_start: Option<usize> = None;
    let is_tok = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
    let bytes = lower.as_bytes();
    for i in 0..=bytes.len() {
        let inside = i < bytes.len() && is_tok(bytes[i]);
        match (inside, run_start) {
            (true, None) => run_start = Some(i),
            (false, Some(s)) => {
                let tok = &lower[s..i];
                if tok.len() >= 2 && !is_stopword(tok) {
                    out.push(tok.to_string());
                }
                run_start = None;
            }
            _ => {}
        }
    }
    out
}

/// lazytools' `_bm25` score of chunk `i` of `bundle` for the already tokenized query
/// `q_tokens` (docs/FORMATS.md §2.7): BM25 sum over query tokens (duplicates count), then +1.2 per
/// query token contained in the lower-cased heading, then +4.0 for the phrase. `0.0` for an
/// empty query or an index out of range.
pub fn score_chunk(bundle: &BundleStats, i: usize, q_tokens: &[String]) -> f64 {
    Query::new(q_tokens, bundle).score(bundle, i, &mut Vec::new())
}

/// A tokenized query prepared for scoring many chunks of one bundle: its distinct tokens (for
/// one pass over each chunk's tokens), each query token's slot and vocab.json IDF, and the
/// boosted phrase.
struct Query<'a> {
    tokens: &'a [String],
    slot: FxHashMap<&'a str, usize>,
    /// Bit `min(len, 63)` set for the byte length of each distinct token, and bit `b` of
    /// `firsts` for each first byte `b`: a chunk token failing either test is no query token,
    /// so it is not looked up.
    lens: u64,
    firsts: [u64; 4],
    /// Per query token (duplicates included): its slot and its IDF.
    terms: Vec<(usize, f64)>,
    phrase: String,
}

impl<'a> Query<'a> {
    fn new(tokens: &'a [String], bundle: &BundleStats) -> Self {
        let mut slot = FxHashMap::default();
        let mut terms = Vec::with_capacity(tokens.len());
        let (mut lens, mut firsts) = (0u64, [0u64; 4]);
        for t in tokens {
            lens |= len_bit(t);
            if let Some(&b) = t.as_bytes().first() {
                firsts[usize::from(b >> 6)] |= 1 << (b & 63);
            }
            let n = slot.len();
            let k = *slot.entry(t.as_str()).or_insert(n);
            let idf = bundle.idf.get(t.as_str()).copied().unwrap_or(UNKNOWN_IDF);
            terms.push((k, idf));
        }
        let phrase = tokens[..tokens.len().min(PHRASE_TOKENS)].join(" ");
        Self {
            tokens,
            slot,
            lens,
            firsts,
            terms,
            phrase,
        }
    }

    /// The score of chunk `i`; `tf_of` is scratch space (any content) reused across chunks.
    fn score(&self, bundle: &BundleStats, i: usize, tf_of: &mut Vec<u64>) -> f64 {
        if self.tokens.is_empty() {
            return 0.0;
        }
        let Some(tokens) = bundle.chunk_tokens.get(i) else {
            return 0.0;
        };
        tf_of.clear();
        tf_of.resize(self.slot.len(), 0);
        for t in tokens {
            let may_match = t.as_bytes().first().is_none_or(|&b| {
                self.lens & len_bit(t) != 0
                    && self.firsts[usize::from(b >> 6)] & (1 << (b & 63)) != 0
            });
            if !may_match {
                continue;
            }
            if let Some(&k) = self.slot.get(t.as_str()) {
                tf_of[k] += 1;
            }
        }
        let doc_len = bundle
            .chunk_doc_lens
            .get(i)
            .copied()
            .unwrap_or(tokens.len() as u64);
        let dl = if doc_len == 0 { 1.0 } else { doc_len as f64 };
        let avgdl = bundle.avgdl;
        let mut score = 0.0_f64;
        for &(k, idf) in &self.terms {
            let tf = tf_of[k];
            if tf == 0 {
                continue;
            }
            let tf = tf as f64;
            // Same operation order as Python: idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)).
            score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * dl / avgdl));
        }
        let heading = bundle.chunk_headings.get(i).map_or("", String::as_str);
        for tok in self.tokens {
            if lower_contains(heading, tok) {
                score += HEADING_BOOST;
            }
        }
        if !self.phrase.is_empty()
            && bundle
                .chunk_texts
                .get(i)
                .is_some_and(|t| lower_contains(t, &self.phrase))
        {
            score += PHRASE_BOOST;
        }
        score
    }
}

/// The bit of `t`'s byte length in [`Query`]'s length mask (lengths of 63 bytes and more
/// share the last bit).
fn len_bit(t: &str) -> u64 {
    1 << t.len().min(63)
}

/// Whether the lower-cased `text` (full Unicode lowering, as Python's `str.lower`) contains
/// `needle`, a lower-case ASCII string (query tokens and their phrase). An ASCII `text`
/// lowers byte by byte, so it is searched in place, each window compared ignoring ASCII case;
/// any other text is lowered first (a non-ASCII char may lower to ASCII: `K` to `k`).
fn lower_contains(text: &str, needle: &str) -> bool {
    if !text.is_ascii() {
        return text.to_lowercase().contains(needle);
    }
    let (hay, pat) = (text.as_bytes(), needle.as_bytes());
    let Some(&first) = pat.first() else {
        return true;
    };
    if hay.len() < pat.len() {
        return false;
    }
    let last_start = hay.len() - pat.len();
    let upper = first.to_ascii_uppercase();
    let mut from = 0;
    while from <= last_start {
        let window = &hay[from..=last_start];
        let found = if upper == first {
            memchr::memchr(first, window)
        } else {
            memchr::memchr2(first, upper, window)
        };
        let Some(at) = found else {
            return false;
        };
        let start = from + at;
        if hay[start..start + pat.len()].eq_ignore_ascii_case(pat) {
            return true;
        }
        from = start + 1;
    }
    false
}

/// Rank all chunks of `bundle` for `query` as lazytools does: score each, stable sort by
/// score descending (ties keep chunks.jsonl order), take the first `limit`, drop scores ≤ 0.
/// Returns `(chunk index into the bundle's parallel vectors, score)`.
///
/// One departure, where lazytools' result is not defined by its scores: a chunk whose score
/// is not finite (an IDF of `1e999` or `NaN` in vocab.json, or an overflow) is dropped first,
/// so the search and `brief --format lazytools` both rank only finite scores. On finite
/// scores the result is lazytools' own.
pub fn rank(bundle: &BundleStats, query: &str, limit: usize) -> Vec<(usize, f64)> {
    let q_tokens = tokenize(query);
    let q = Query::new(&q_tokens, bundle);
    let mut tf_of = Vec::new();
    let mut scored: Vec<(usize, f64)> = (0..bundle.chunk_tokens.len())
        .map(|i| (i, q.score(bundle, i, &mut tf_of)))
        .filter(|(_, s)| s.is_finite())
        .collect();
    scored.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    scored.truncate(limit);
    scored.retain(|(_, s)| *s > 0.0);
    scored
}

/// Score every chunk of `bundle` for `query`; return the top `top_k` `(chunk node, score)`
/// pairs with score > 0, best first, ties in chunk order (lazytools' stable sort). Scores
/// equal lazytools' `_bm25` bit for bit on its own bundles.
pub fn search(bundle: &BundleStats, query: &str, top_k: usize) -> Vec<(NodeId, f64)> {
    rank(bundle, query, top_k)
        .into_iter()
        .filter_map(|(i, s)| bundle.chunks.get(i).map(|n| (*n, s)))
        .collect()
}

#[cfg(test)]
#[allow(
    clippy::float_cmp,
    reason = "scores are compared with the reference exactly"
)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_keeps_dots_and_drops_stopwords() {
        assert_eq!(
            tokenize("How do I use app.get()? The returned. value… x 1.3 É_é"),
            vec!["do", "app.get", "returned.", "value", "1.3"]
        );
        assert_eq!(
            tokenize("Where is the JWT helper documented?"),
            vec!["where", "jwt", "helper", "documented"]
        );
    }

    #[test]
    fn lower_contains_is_lowering_then_contains() {
        let texts = [
            "",
            "Cookie Helper",
            "COOKIE-helper cookies",
            "app.GET() and App.get",
            "Kelvin \u{212a}ubelet and kubelet",
            "\u{130}stanbul ISTANBUL i\u{307}",
            "Stra\u{df}e STRASSE",
            "x",
            "ab ab ab abc",
            "Ab_1.2 aB_1.2",
        ];
        let needles = [
            "",
            "a",
            "ab",
            "abc",
            "cookie",
            "cookie helper",
            "get",
            "app.get",
            "kubelet",
            "istanbul",
            "i",
            "strasse",
            "ab_1.2",
            "1.2",
            "x",
            "zz",
        ];
        for t in texts {
            for n in needles {
                assert_eq!(
                    lower_contains(t, n),
                    t.to_lowercase().contains(n),
                    "{t:?} {n:?}"
                );
            }
        }
    }

    #[test]
    fn stopword_list_has_69_distinct_words() {
        let set: std::collections::HashSet<_> = STOPWORDS.iter().collect();
        assert_eq!(set.len(), 69);
        assert!(!is_stopword("where") && !is_stopword("do") && !is_stopword("me"));
    }

    fn bundle() -> BundleStats {
        let toks = |s: &str| tokenize(s);
        let texts = ["alpha beta gamma", "beta beta delta", "nothing here"];
        BundleStats {
            name: "t".into(),
            avgdl: 2.0,
            idf: [("beta".to_string(), 0.25), ("alpha".to_string(), 1.0)]
                .into_iter()
                .collect(),
            skill_md: None,
            chunks: vec![NodeId(1), NodeId(2), NodeId(3)],
            chunk_tokens: texts.iter().map(|t| toks(t)).collect(),
            chunk_paths: vec!["/x/a.md".into(); 3],
            chunk_headings: vec!["Alpha".into(), "Other".into(), "Beta things".into()],
            chunk_texts: texts.iter().map(|t| t.to_string()).collect(),
            chunk_doc_lens: vec![3, 3, 0],
        }
    }

    #[test]
    fn scores_follow_formula_and_boosts() {
        let b = bundle();
        let q = tokenize("alpha beta");
        let norm = K1 * (1.0 - B + B * 3.0 / 2.0);
        let expect0 = 1.0 * 1.0 * 2.5 / (1.0 + norm) + 0.25 * 1.0 * 2.5 / (1.0 + norm) + 1.2 + 4.0;
        assert_eq!(score_chunk(&b, 0, &q), expect0);
        let expect1 = 0.25 * 2.0 * 2.5 / (2.0 + norm);
        assert_eq!(score_chunk(&b, 1, &q), expect1);
        // Heading boost fires without any term match; doc_len 0 is treated as 1.
        assert_eq!(score_chunk(&b, 2, &q), 1.2);
        let hits = search(&b, "alpha beta", 2);
        assert_eq!(
            hits.iter().map(|h| h.0).collect::<Vec<_>>(),
            vec![NodeId(1), NodeId(3)]
        );
    }

    #[test]
    fn unknown_terms_use_idf_half_and_zero_scores_are_dropped() {
        let b = bundle();
        let s = score_chunk(&b, 1, &tokenize("delta"));
        // tf 1, IDF 0.5, plus the phrase boost ("delta" occurs in the text).
        assert_eq!(
            s,
            0.5 * 1.0 * 2.5 / (1.0 + K1 * (1.0 - B + B * 3.0 / 2.0)) + PHRASE_BOOST
        );
        assert!(search(&b, "zzz", 10).is_empty());
        assert!(search(&b, "the of", 10).is_empty());
    }
}
