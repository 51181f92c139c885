//! The collision map (docs/AGENTS.md "Description overlap"): two skills whose listing
//! entries compete for the same requests. Every pair of entries (description, then
//! `when_to_use`) of the effective set is scored two ways:
//!
//! - **similarity**: the cosine of the two entries' BM25 term vectors, built with the
//!   search's own tokenizer ([`crate::index::tokenize`](mod@crate::index::tokenize), whole
//!   words, stopwords dropped) and BM25 weights ([`crate::index::bm25::idf`],
//!   [`crate::index::bm25::term_score`]) over the set itself, each word folded to its
//!   Snowball English stem and the words every description uses ([`ENTRY_STOPWORDS`]:
//!   `use`, `skill`, `user`, `asks`, …) left out;
//! - **shared trigger phrases**: the word n-grams (two words or more, stop words removed,
//!   not across `.;:()[]{}!?`; a comma does not end a phrase, since descriptions list
//!   their triggers as `routing, middleware, helpers`) both entries hold, stem for stem, kept only when no longer
//!   shared phrase holds them; looked for in the pairs at least [`FLAG_SIMILARITY`]
//!   similar.
//!
//! A pair is flagged ([`Overlap::flagged`]) when its similarity is at least
//! [`FLAG_SIMILARITY`] and it shares two phrases, or one of three words or more, that
//! weigh [`MIN_PHRASE_WEIGHT`] or more each (the sum of their words' IDF); or when its
//! similarity alone is at least [`FLAG_SIMILARITY_ALONE`]. One shared pair of words is not
//! enough: `Plan changes before editing` and `Apply planned changes` are two steps of a
//! task, not rivals.

use std::collections::{HashMap, HashSet};

use rust_stemmers::{Algorithm, Stemmer};

use crate::index::bm25::{idf, term_score};
use crate::index::tokenize::tokenize_with_offsets;

/// Least similarity of a flagged pair that shares a phrase.
pub const FLAG_SIMILARITY: f64 = 0.25;
/// Least similarity of a flagged pair without a shared phrase.
pub const FLAG_SIMILARITY_ALONE: f64 = 0.70;
/// Least weight (sum of IDF over its words) of a shared phrase that counts.
pub const MIN_PHRASE_WEIGHT: f64 = 2.0;

/// Words of a skill's listing entry that say how to use a skill rather than what it is
/// for (kept sorted): they are in nearly every description, so they are no trigger.
pub const ENTRY_STOPWORDS: [&str; 52] = [
    "also",
    "any",
    "anything",
    "ask",
    "asked",
    "asking",
    "asks",
    "based",
    "claude",
    "e.g",
    "eg",
    "etc",
    "even",
    "help",
    "helps",
    "if",
    "include",
    "includes",
    "including",
    "just",
    "kind",
    "kinds",
    "like",
    "make",
    "makes",
    "mention",
    "mentions",
    "need",
    "needed",
    "needs",
    "not",
    "only",
    "other",
    "request",
    "requests",
    "should",
    "skill",
    "skills",
    "some",
    "something",
    "sort",
    "such",
    "task",
    "tasks",
    "trigger",
    "triggers",
    "user",
    "users",
    "via",
    "want",
    "wants",
    "whenever",
];

/// One skill's listing entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The skill's name.
    pub name: String,
    /// Its description, then `when_to_use` (as the listing shows them).
    pub text: String,
}

/// One scored pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Overlap {
    /// Index of the first skill in the given entries (`a < b`).
    pub a: usize,
    /// Index of the second skill.
    pub b: usize,
    /// Cosine of the BM25 vectors, 0–1.
    pub similarity: f64,
    /// The shared trigger phrases as the first entry words them (lower-case), heaviest
    /// first; empty below [`FLAG_SIMILARITY`].
    pub phrases: Vec<String>,
    /// Whether the pair is reported (see the module doc).
    pub flagged: bool,
}

/// One content word of an entry: its stem, its byte range, and the clause it is in.
struct Word {
    stem: String,
    range: std::ops::Range<usize>,
    clause: usize,
}

fn words(text: &str) -> Vec<Word> {
    thread_local! {
        static ENGLISH: Stemmer = Stemmer::create(Algorithm::English);
    }
    let mut out = Vec::new();
    let mut clause = 0;
    let mut last_end = 0;
    for t in tokenize_with_offsets(text).into_iter().filter(|t| !t.part) {
        clause += text[last_end.min(t.range.start)..t.range.start]
            .chars()
            .filter(|c| ".;:()!?[]{}".contains(*c))
            .count();
        last_end = t.range.end;
        if ENTRY_STOPWORDS.binary_search(&t.term.as_str()).is_ok()
            || t.term.chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let stem = ENGLISH.with(|s| s.stem(&t.term).into_owned());
        out.push(Word {
            stem,
            range: t.range,
            clause,
        });
    }
    out
}

/// Most characters of an entry that are scored: Claude Code's per-entry cap (docs/AGENTS.md
/// "Listing budget"); the model never sees the rest, and it bounds the phrase table.
pub const MAX_ENTRY_CHARS: usize = 1536;

/// The scored part of an entry's text: its first [`MAX_ENTRY_CHARS`] characters.
fn scored_text(e: &Entry) -> &str {
    e.text
        .char_indices()
        .nth(MAX_ENTRY_CHARS)
        .map_or(e.text.as_str(), |(i, _)| &e.text[..i])
}

/// Every scored pair of `entries` with a similarity above zero, by `(a, b)`.
pub fn score_pairs(entries: &[Entry]) -> Vec<Overlap> {
    let docs: Vec<Vec<Word>> = entries.iter().map(|e| words(scored_text(e))).collect();
    let idfs = idf_table(&docs);
    let vectors: Vec<HashMap<&str, f64>> = vectors(&docs, &idfs);
    let mut postings: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, v) in vectors.iter().enumerate() {
        for s in v.keys() {
            postings.entry(s).or_default().push(i);
        }
    }
    let mut out = Vec::new();
    for a in 0..entries.len() {
        // Only the entries sharing a stem with `a` can score above zero.
        let mut partners: Vec<usize> = vectors[a]
            .keys()
            .flat_map(|s| postings[s].iter().copied().filter(|b| *b > a))
            .collect();
        partners.sort_unstable();
        partners.dedup();
        for b in partners {
            let similarity = cosine(&vectors[a], &vectors[b]);
            if similarity <= 0.0 {
                continue;
            }
            let shared = if similarity >= FLAG_SIMILARITY {
                shared_phrases(&docs[a], &docs[b], &idfs)
            } else {
                Vec::new()
            };
            let strong: Vec<usize> = shared
                .iter()
                .filter(|(_, w, _)| *w >= MIN_PHRASE_WEIGHT)
                .map(|(_, _, n)| *n)
                .collect();
            let evidence = strong.len() >= 2 || strong.iter().any(|n| *n >= 3);
            let flagged =
                (similarity >= FLAG_SIMILARITY && evidence) || similarity >= FLAG_SIMILARITY_ALONE;
            let phrases = shared
                .into_iter()
                .map(|(r, _, _)| {
                    scored_text(&entries[a])[r]
                        .to_lowercase()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            out.push(Overlap {
                a,
                b,
                similarity,
                phrases,
                flagged,
            });
        }
    }
    out
}

/// The flagged pairs of `entries` ([`score_pairs`] filtered), most similar first.
pub fn overlaps(entries: &[Entry]) -> Vec<Overlap> {
    let mut out: Vec<Overlap> = score_pairs(entries)
        .into_iter()
        .filter(|o| o.flagged)
        .collect();
    out.sort_by(|x, y| {
        y.similarity
            .total_cmp(&x.similarity)
            .then((x.a, x.b).cmp(&(y.a, y.b)))
    });
    out
}

/// BM25 IDF of every stem over the entries.
fn idf_table(docs: &[Vec<Word>]) -> HashMap<String, f64> {
    let mut df: HashMap<&str, usize> = HashMap::new();
    for d in docs {
        let uniq: HashSet<&str> = d.iter().map(|w| w.stem.as_str()).collect();
        for s in uniq {
            *df.entry(s).or_default() += 1;
        }
    }
    df.into_iter()
        .map(|(s, k)| (s.to_string(), idf(docs.len(), k)))
        .collect()
}

/// Each entry's BM25 weight per stem (term frequency saturated, length normalised).
fn vectors<'a>(docs: &'a [Vec<Word>], idfs: &HashMap<String, f64>) -> Vec<HashMap<&'a str, f64>> {
    let total: usize = docs.iter().map(Vec::len).sum();
    let avgdl = (total as f64 / docs.len().max(1) as f64).max(1.0);
    docs.iter()
        .map(|d| {
            let mut tf: HashMap<&str, u32> = HashMap::new();
            for w in d {
                *tf.entry(w.stem.as_str()).or_default() += 1;
            }
            let dl = d.len() as u32;
            tf.into_iter()
                .map(|(s, k)| {
                    (
                        s,
                        term_score(idfs.get(s).copied().unwrap_or(0.0), k, dl, avgdl),
                    )
                })
                .collect()
        })
        .collect()
}

fn cosine(x: &HashMap<&str, f64>, y: &HashMap<&str, f64>) -> f64 {
    let dot: f64 = x.iter().filter_map(|(k, v)| y.get(k).map(|w| v * w)).sum();
    let norm = |m: &HashMap<&str, f64>| m.values().map(|v| v * v).sum::<f64>().sqrt();
    let d = norm(x) * norm(y);
    if d == 0.0 { 0.0 } else { dot / d }
}

/// The maximal phrases `a` shares with `b`: runs of at least two consecutive words of one
/// clause whose stems follow each other in both entries (a longest-common-run table over the
/// two word lists), each sequence once and none inside a longer one; as byte ranges of
/// `a`'s text, with their weights (the sum of their words' IDF) and word counts, heaviest
/// first.
fn shared_phrases(
    a: &[Word],
    b: &[Word],
    idfs: &HashMap<String, f64>,
) -> Vec<(std::ops::Range<usize>, f64, usize)> {
    let joined = |w: &[Word], i: usize| i > 0 && w[i - 1].clause == w[i].clause;
    // run[i][j]: length of the common run ending at a[i], b[j].
    let mut run = vec![vec![0usize; b.len()]; a.len()];
    for i in 0..a.len() {
        for j in 0..b.len() {
            if a[i].stem == b[j].stem {
                let prev = if joined(a, i) && joined(b, j) {
                    run[i - 1][j - 1]
                } else {
                    0
                };
                run[i][j] = prev + 1;
            }
        }
    }
    let mut found: Vec<(usize, usize)> = Vec::new(); // (end index in a, length)
    for i in 0..a.len() {
        for j in 0..b.len() {
            let n = run[i][j];
            let extends = i + 1 < a.len() && j + 1 < b.len() && run[i + 1][j + 1] == n + 1;
            if n >= 2 && !extends {
                found.push((i, n));
            }
        }
    }
    found.sort_by_key(|&(i, n)| (std::cmp::Reverse(n), i));
    let stems = |(i, n): (usize, usize)| -> Vec<&str> {
        a[i + 1 - n..=i].iter().map(|w| w.stem.as_str()).collect()
    };
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for f in found {
        let s = stems(f);
        if !kept
            .iter()
            .any(|k| stems(*k).windows(s.len()).any(|w| w == s.as_slice()))
        {
            kept.push(f);
        }
    }
    let mut out: Vec<(std::ops::Range<usize>, f64, usize)> = kept
        .into_iter()
        .map(|(i, n)| {
            let words = &a[i + 1 - n..=i];
            let w = words
                .iter()
                .map(|t| idfs.get(&t.stem).copied().unwrap_or(0.0))
                .sum();
            (words[0].range.start..words[n - 1].range.end, w, n)
        })
        .collect();
    out.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.start.cmp(&y.0.start)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrelated_entries_give_no_pair_and_huge_entries_are_scored_on_their_head() {
        let e = |n: &str, t: String| Entry {
            name: n.into(),
            text: t,
        };
        let huge = "Fill in PDF forms and flatten the filled PDF. ".repeat(20_000);
        let pairs = score_pairs(&[
            e("a", huge.clone()),
            e("b", huge),
            e("c", "Lint Kubernetes manifests".into()),
        ]);
        assert_eq!(pairs.len(), 1, "c shares no word with a or b");
        assert_eq!((pairs[0].a, pairs[0].b, pairs[0].flagged), (0, 1, true));
        assert!((pairs[0].similarity - 1.0).abs() < 1e-9);
        assert_eq!(
            pairs[0].phrases[0],
            "fill in pdf forms and flatten the filled pdf"
        );
    }

    #[test]
    fn entry_stopwords_are_sorted_for_binary_search() {
        let mut s = ENTRY_STOPWORDS;
        s.sort_unstable();
        assert_eq!(s, ENTRY_STOPWORDS);
    }
}
