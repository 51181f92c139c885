//! Fuzzy title search (docs/DESIGN.md §3): nucleo-matcher over one `title · path` haystack per
//! node, so typos of omission (`midleware`) still find `Middleware`.
//!
//! Haystacks: every node except the roots themselves and nodes flagged `duplicate`/`alias`
//! (or inside one), in document order; `title | path` ([`SEPARATOR`]), or just the title when
//! the path is empty or equal to it. The separator is ASCII on purpose: the first design wrote
//! `title · path`, but a `·` makes every haystack non-ASCII, which puts nucleo on its UTF-32
//! path (measured ~2× slower on `corpus/large`). The pattern is parsed with nucleo's syntax (space-separated atoms,
//! all must match), case-insensitive, with Unicode normalisation (`Normalization::Smart`).
//! Scores are nucleo's (u32, higher is better) as f64; ties keep document order.
//!
//! On a big tree ([`BIG_TREE_ITEMS`]) the candidates come from the word table built with the
//! index (`title_words`): the haystacks holding every word as typed, the best placed of them
//! scored; else those holding each word typed or within its typo distance, scored with the
//! near word put in for the typo ([`TYPO_PENALTY`] per edit). Beside content hits, only
//! typed titles and fill-ins above [`FILL_MIN_PERCENT`] are listed
//! ([`FuzzyIndex::search_beside`]).

use std::borrow::Cow;

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str, Utf32String};

use super::haystacks::Haystacks;
use super::hit::{Hit, HitSource, Scorer};
use super::title_words::{Near, TitleWords, start_bonus};
use crate::model::id::nfc;
use crate::model::{Corpus, NodeId};

/// Searches over at least this many haystacks are split across threads.
const PARALLEL_MIN_ITEMS: usize = 8192;
/// Most threads one fuzzy search uses.
const MAX_THREADS: usize = 4;
/// Weakest hit kept, in percent of the score of the query against itself (nucleo scores).
pub const MIN_SCORE_PERCENT: u32 = 60;

/// From this many haystacks on, a tree is big, and letters scattered over unrelated titles
/// are noise there (`cors` matched in `Controller Resources`): when some haystack holds
/// every query word as typed (case-insensitive), only such haystacks are hits; else the
/// haystacks holding each query word typed or within its typo distance
/// ([`super::distance::max_distance`]; a one-word query: within its distance).
pub const BIG_TREE_ITEMS: usize = 2000;

/// Weakest title hit that is not a typed match and fills the room beside content hits
/// ([`FuzzyIndex::search_beside`]), in percent of the query's score against itself.
pub const FILL_MIN_PERCENT: u32 = 80;

/// Title hits that are not typed matches listed beside any number of content hits when
/// every query word is long (5 chars or more; [`FuzzyIndex::search_beside`]).
pub const FILL_TYPO_MIN: usize = 3;

/// What one edit costs a typo hit (`FuzzyIndex::near`), in nucleo score points (one
/// matched char scores 16).
pub const TYPO_PENALTY: u32 = 16;

/// Most haystacks the typed and the typo pass of a big tree score with nucleo
/// (`FuzzyIndex::typed`, `FuzzyIndex::near`): 16 per hit asked for, at least 256.
pub const TYPED_CAP: usize = 1024;

/// How many haystacks a big tree's pass scores with nucleo for `top_k` hits.
fn cap(top_k: usize) -> usize {
    top_k.saturating_mul(16).clamp(256, TYPED_CAP)
}

/// Most words a query may hold to be matched against titles: more than any real heading
/// holds (the longest in the shared corpus have 22). A longer query (a pasted paragraph or
/// log) gets no title hits, only BM25 ones; the typo pass keeps one entry per haystack per
/// query word, so without this bound a pasted 10,000-word text took gigabytes.
pub const MAX_TITLE_QUERY_WORDS: usize = 32;

/// Longest title query in chars ([`MAX_HAYSTACK_CHARS`]: no haystack is longer, so no
/// title could hold such a query). A longer query (a pasted log line, one 3,000-char word)
/// gets no title hits, only BM25 ones: nucleo scores each atom in a `u16`, and the score of
/// a query against itself (the base of [`MIN_SCORE_PERCENT`]) overflowed it (a panic in a
/// debug build) from about 2,520 chars of one word on.
pub const MAX_TITLE_QUERY_CHARS: usize = MAX_HAYSTACK_CHARS;

/// Between title and path in a haystack.
pub const SEPARATOR: &str = " | ";

/// Longest haystack in chars; longer `title · path` strings are cut (nucleo's matrix is
/// quadratic and panics past `u32::MAX` codepoints).
pub const MAX_HAYSTACK_CHARS: usize = 1024;

/// Fuzzy matcher over one `title | path` string per node. `Send + Sync`; share it in an
/// `Arc` and query it from a worker thread (each query uses its own nucleo `Matcher`).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct FuzzyIndex {
    /// Per item, its node and haystack (in shared buffers; an ASCII haystack is lower-cased
    /// when a word test needs it, not kept twice).
    hays: Haystacks,
    /// Per item, the [`char_mask`] of its haystack: the pre-filter of [`FuzzyIndex::scored`].
    #[serde(with = "crate::util::pod_vec")]
    masks: Vec<u64>,
    /// The distinct words of the haystacks with the items holding them (built for a big
    /// tree only): the candidates of its typed and typo passes.
    words: TitleWords,
    /// Word tests of ASCII haystacks take the char-by-char path too (only tests set it, to
    /// compare the two paths).
    char_by_char: bool,
}

/// The ASCII letters and digits of `hay` as bits (`a`–`z` → 0–25, `0`–`9` → 26–35, case
/// folded); a haystack with any non-ASCII char gets every bit (case folding and
/// normalisation could turn such a char into any letter, so it is never filtered out).
fn char_mask(hay: Utf32Str<'_>) -> u64 {
    match hay {
        Utf32Str::Ascii(b) => b.iter().fold(0, |m, c| m | ascii_bit(*c)),
        Utf32Str::Unicode(_) => u64::MAX,
    }
}

fn ascii_bit(c: u8) -> u64 {
    match c.to_ascii_lowercase() {
        c @ b'a'..=b'z' => 1 << (c - b'a'),
        c @ b'0'..=b'9' => 1 << (26 + c - b'0'),
        _ => 0,
    }
}

/// The letters and digits every hit of `pattern` must hold: each char of each positive atom
/// (every atom kind matches its needle's chars, in order) that is an ASCII letter or digit.
/// A haystack whose [`char_mask`] lacks one of them cannot match, so it is not scored.
fn needle_mask(pattern: &Pattern) -> u64 {
    pattern
        .atoms
        .iter()
        .filter(|a| !a.negative)
        .flat_map(|a| a.needle_text().chars().collect::<Vec<char>>())
        .filter_map(|c| u8::try_from(c).ok())
        .fold(0, |m, c| m | ascii_bit(c))
}

/// `(nucleo score, item, word match level)`: higher level first, then higher score, then
/// document order.
type Scored = (u32, usize, u8);

fn cmp(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.2.cmp(&a.2).then(b.0.cmp(&a.0)).then(a.1.cmp(&b.1))
}

impl FuzzyIndex {
    /// Collect the haystacks of `corpus` (roots in order, each in pre-order).
    pub fn build(corpus: &Corpus) -> Self {
        let mut hays = Haystacks::default();
        let mut masks = Vec::new();
        let mut stack: Vec<NodeId> = Vec::new();
        let mut hay = String::new();
        for &r in &corpus.roots {
            stack.extend(corpus.node(r).children.iter().rev().copied());
            while let Some(n) = stack.pop() {
                if n.ix() >= corpus.len() {
                    continue;
                }
                let node = corpus.node(n);
                if node.flags.is_copy() {
                    continue;
                }
                hay.clear();
                hay.push_str(&node.title);
                if !node.path.is_empty() && *node.path != *node.title {
                    hay.push_str(SEPARATOR);
                    hay.push_str(&node.path);
                }
                // NFC, as queries: a decomposed title matches a composed query.
                if let Cow::Owned(s) = nfc(&hay) {
                    hay = s;
                }
                if let Some((cut, _)) = hay.char_indices().nth(MAX_HAYSTACK_CHARS) {
                    hay.truncate(cut);
                }
                if hays.push(n, &hay) {
                    masks.push(char_mask(hays.hay(hays.len() - 1)));
                }
                stack.extend(node.children.iter().rev().copied());
            }
        }
        hays.shrink_to_fit();
        masks.shrink_to_fit();
        // Only a big tree's passes use the word table.
        let words = if hays.len() < BIG_TREE_ITEMS {
            TitleWords::default()
        } else {
            TitleWords::build((0..hays.len()).map(|i| hays.hay(i)))
        };
        Self {
            hays,
            masks,
            words,
            char_by_char: false,
        }
    }

    /// Number of haystacks.
    pub fn len(&self) -> usize {
        self.hays.len()
    }

    /// Whether there are no haystacks.
    pub fn is_empty(&self) -> bool {
        self.hays.is_empty()
    }

    /// The fuzzy score of each of `nodes` for `query` (`None`: no haystack, or below the
    /// [`MIN_SCORE_PERCENT`] threshold [`FuzzyIndex::search`] applies), without scanning
    /// every haystack: for marking hits found otherwise as title matches too.
    pub fn score_nodes(&self, query: &str, nodes: &[NodeId]) -> Vec<Option<f64>> {
        let query = &*nfc(query);
        let Some((pattern, perfect)) = title_pattern(query, 1) else {
            return vec![None; nodes.len()];
        };
        let mut m = Matcher::new(Config::DEFAULT);
        let min = perfect * MIN_SCORE_PERCENT / 100;
        nodes
            .iter()
            .map(|n| {
                let i = self.hays.nodes().iter().position(|id| id == n)?;
                pattern
                    .score(self.hays.hay(i), &mut m)
                    .filter(|s| *s >= min)
                    .map(f64::from)
            })
            .collect()
    }

    /// The best `top_k` items (by [`cmp`]) among those `keep` accepts whose nucleo score is at
    /// least `min` and whose `level` is at least `min_level`. Only haystacks holding every
    /// letter and digit of the pattern are scored ([`needle_mask`]; the others cannot match),
    /// and `keep` is asked before the (costlier) nucleo score. More than 8192
    /// haystacks are scored on up to 4 threads (scoped; the result is the same as on one).
    fn scored(
        &self,
        pattern: &Pattern,
        min: u32,
        top_k: usize,
        keep: &(dyn Fn(usize) -> bool + Sync),
        level: &(dyn Fn(Utf32Str<'_>) -> u8 + Sync),
        min_level: u8,
    ) -> Vec<Scored> {
        let need = needle_mask(pattern);
        let score_range = |range: std::ops::Range<usize>| -> Vec<Scored> {
            let mut matcher = Matcher::new(Config::DEFAULT);
            let mut out: Vec<Scored> = self.masks[range.clone()]
                .iter()
                .zip(range)
                .filter(|(mask, i)| **mask & need == need && keep(*i))
                .filter_map(|(_, i)| {
                    let hay = self.hays.hay(i);
                    pattern.score(hay, &mut matcher).map(|s| (s, i, hay))
                })
                .filter(|(s, _, _)| *s >= min)
                .map(|(s, i, hay)| (s, i, level(hay)))
                .filter(|h| h.2 >= min_level)
                .collect();
            if out.len() > top_k {
                out.select_nth_unstable_by(top_k - 1, cmp);
                out.truncate(top_k);
            }
            out
        };
        let n = self.hays.len();
        let threads = std::thread::available_parallelism()
            .map_or(1, |t| t.get())
            .min(MAX_THREADS);
        let mut scored: Vec<Scored> = if n < PARALLEL_MIN_ITEMS || threads < 2 {
            score_range(0..n)
        } else {
            let per = n.div_ceil(threads);
            std::thread::scope(|s| {
                let score_range = &score_range;
                let handles: Vec<_> = (1..threads)
                    .map(|t| {
                        let r = (t * per).min(n)..((t + 1) * per).min(n);
                        (
                            r.clone(),
                            std::thread::Builder::new().spawn_scoped(s, move || score_range(r)),
                        )
                    })
                    .collect();
                let mut all = score_range(0..per.min(n));
                for (r, h) in handles {
                    // A failed spawn or a panicking matcher: score that slice here instead.
                    let part = match h {
                        Ok(h) => h.join().ok(),
                        Err(_) => None,
                    };
                    all.extend(part.unwrap_or_else(|| score_range(r)));
                }
                all
            })
        };
        if scored.len() > top_k {
            scored.select_nth_unstable_by(top_k - 1, cmp);
            scored.truncate(top_k);
        }
        scored
    }

    /// Per query word, per item: 0 when the item does not hold the word as a substring
    /// (case-insensitive), else 1 + the nucleo start bonus of its best placed occurrence
    /// ([`start_bonus`]). An alphanumeric word is looked up in the word table
    /// ([`TitleWords::mark_typed`]: an occurrence lies inside one haystack word); any other
    /// is searched in every haystack holding its letters and digits (`finders`, over the
    /// words' UTF-8; the [`char_mask`] pre-filter).
    fn typed_marks(&self, words: &[Vec<char>], finders: &[memchr::memmem::Finder]) -> Vec<Vec<u8>> {
        words
            .iter()
            .zip(finders)
            .map(|(w, f)| {
                let mut m = vec![0u8; self.hays.len()];
                if w.is_empty() {
                } else if w.iter().all(|c| c.is_alphanumeric()) {
                    self.words.mark_typed(&w.iter().collect::<String>(), &mut m);
                } else {
                    let need = w
                        .iter()
                        .filter_map(|c| u8::try_from(*c).ok())
                        .fold(0, |m, c| m | ascii_bit(c));
                    let mut lower = Vec::new();
                    for (i, slot) in m.iter_mut().enumerate() {
                        if self.masks[i] & need != need {
                            continue;
                        }
                        if let Some(b) = self.word_bonus(i, w, f, &mut lower) {
                            *slot = b + 1;
                        }
                    }
                }
                m
            })
            .collect()
    }

    /// The typed pass of a big tree: the best `top_k` (by [`cmp`], level 2) of the haystacks
    /// holding every query word as a substring (`typed`, from [`FuzzyIndex::typed_marks`])
    /// whose nucleo score is at least `min`. Only the best of them ([`cap`]) by the sum of
    /// their words' start bonuses (then document order) are scored with nucleo: that bonus
    /// is the one nucleo gives the first char of a contiguous match, so the haystacks it
    /// ranks first are the ones nucleo ranks first (a word that is in every path, such as
    /// `readme`, no longer costs a nucleo pass per haystack).
    fn typed(&self, pattern: &Pattern, min: u32, top_k: usize, typed: &[Vec<u8>]) -> Vec<Scored> {
        let need = needle_mask(pattern);
        let mut cands: Vec<(u16, usize)> = (0..self.hays.len())
            .filter(|&i| self.masks[i] & need == need)
            .filter_map(|i| {
                typed
                    .iter()
                    .map(|m| m[i].checked_sub(1).map(u16::from))
                    .sum::<Option<u16>>()
                    .map(|b| (b, i))
            })
            .collect();
        let by_bonus = |a: &(u16, usize), b: &(u16, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        if cands.len() > cap(top_k) {
            cands.select_nth_unstable_by(cap(top_k) - 1, by_bonus);
            cands.truncate(cap(top_k));
        }
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut out: Vec<Scored> = cands
            .iter()
            .filter_map(|&(_, i)| {
                pattern
                    .score(self.hays.hay(i), &mut matcher)
                    .filter(|s| *s >= min)
                    .map(|s| (s, i, 2))
            })
            .collect();
        if out.len() > top_k {
            out.select_nth_unstable_by(top_k - 1, cmp);
            out.truncate(top_k);
        }
        out
    }

    /// The typo pass of a big tree: the items where every one of `words` is within its typo
    /// distance of a word of the haystack (`near`, per query word and item) or, in a query
    /// of several words, typed as it is (`typed`). Ranked by their total distance (then
    /// document order), the [`cap`] closest are scored with nucleo against the query with
    /// each word replaced by the haystack's near word, minus [`TYPO_PENALTY`] per edit, so a
    /// transposed or extra letter (`kubelte`, `topollogy`) matches as well as a missing one;
    /// kept when that is at least `min`. Level 1 for a one-word query, 0 for a longer one.
    fn near(
        &self,
        min: u32,
        top_k: usize,
        words: &[Vec<char>],
        typed: &[Vec<u8>],
        near: &[Vec<Option<Near>>],
    ) -> Vec<Scored> {
        let several = words.len() > 1;
        // Query word `w` of item `i`: `Some(None)` typed as it is (or an exact word),
        // `Some(Some(n))` the near word `n` to put in, `None` neither.
        let fit = |w: usize, i: usize| -> Option<Option<Near>> {
            match near[w][i] {
                Some(n) if n.dist == 0 => Some(None),
                _ if several && typed[w][i] > 0 => Some(None),
                Some(n) => Some(Some(n)),
                None => None,
            }
        };
        let mut cands: Vec<(u32, usize)> = (0..self.hays.len())
            .filter(|&i| near.iter().any(|m| m[i].is_some()))
            .filter_map(|i| {
                (0..words.len())
                    .map(|w| fit(w, i).map(|n| n.map_or(0, |n| u32::from(n.dist))))
                    .sum::<Option<u32>>()
                    .map(|d| (d, i))
            })
            .collect();
        if cands.len() > cap(top_k) {
            cands.select_nth_unstable(cap(top_k) - 1);
            cands.truncate(cap(top_k));
        }
        let level = u8::from(!several);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut corrected = String::new();
        // Candidates mostly share their corrected query: parse each one once.
        let mut patterns: Vec<(String, Pattern)> = Vec::new();
        let mut out: Vec<Scored> = cands
            .iter()
            .filter_map(|&(dist, i)| {
                corrected.clear();
                for (w, word) in words.iter().enumerate() {
                    if w > 0 {
                        corrected.push(' ');
                    }
                    match fit(w, i)? {
                        Some(n) => corrected.push_str(self.words.text(n.word)),
                        None => corrected.extend(word.iter()),
                    }
                }
                let k = if let Some(k) = patterns.iter().position(|(q, _)| *q == corrected) {
                    k
                } else {
                    let p = Pattern::parse(&corrected, CaseMatching::Ignore, Normalization::Smart);
                    patterns.push((corrected.clone(), p));
                    patterns.len() - 1
                };
                let s = patterns[k]
                    .1
                    .score(self.hays.hay(i), &mut matcher)?
                    .saturating_sub(dist * TYPO_PENALTY);
                (s >= min).then_some((s, i, level))
            })
            .collect();
        if out.len() > top_k {
            out.select_nth_unstable_by(top_k - 1, cmp);
            out.truncate(top_k);
        }
        out
    }

    /// The best [`start_bonus`] of the occurrences of `word` (lower-case chars; `finder`
    /// searches its UTF-8) in item `i`, or `None` when it does not occur (case-insensitive
    /// substring). An ASCII haystack is searched in lower case (written into `lower`).
    fn word_bonus(
        &self,
        i: usize,
        word: &[char],
        finder: &memchr::memmem::Finder,
        lower: &mut Vec<u8>,
    ) -> Option<u8> {
        let hay = self.hays.hay(i);
        if word.is_empty() {
            return None;
        }
        match hay {
            Utf32Str::Ascii(b) if !b.is_empty() && !self.char_by_char => {
                lower.clear();
                lower.extend(b.iter().map(u8::to_ascii_lowercase));
                finder
                    .find_iter(lower.as_slice())
                    .map(|p| {
                        let prev = p.checked_sub(1).map(|q| char::from(b[q]));
                        start_bonus(prev, char::from(b[p]))
                    })
                    .max()
            }
            _ => unicode_bonus(hay, word),
        }
    }

    /// Best `top_k` nodes for `query`, score descending, ties in document order; every hit
    /// has `source: Fuzzy`, `scorer: Skillnav` and no copies. An empty query, or one of
    /// more than [`MAX_TITLE_QUERY_WORDS`] words, gives no hits. More than 8192 haystacks
    /// are scored on up to 4 threads (scoped; the result is the same as on one).
    pub fn search(&self, query: &str, top_k: usize) -> Vec<Hit> {
        self.search_items(query, top_k)
            .into_iter()
            .map(|(s, i, _)| self.hit(s, i))
            .collect()
    }

    /// The title hits shown beside `content` BM25 hits of the same query (docs/DESIGN.md
    /// §3): a title holding every query word as typed (case-insensitive) is always a hit;
    /// any other fuzzy hit (a typo of a word, letters of a short tree's titles) only fills
    /// the room the content hits leave in `top_k` (at least [`FILL_TYPO_MIN`] when every
    /// query word has 5 chars or more, so two edits are allowed in it) and only when it
    /// scores at least [`FILL_MIN_PERCENT`] of the query against itself. Best first, as [`FuzzyIndex::search`].
    pub fn search_beside(&self, query: &str, top_k: usize, content: usize) -> Vec<Hit> {
        let scored = self.search_items(query, top_k);
        let query = &*nfc(query);
        let Some((_, perfect)) = title_pattern(query, top_k) else {
            return Vec::new();
        };
        let words: Vec<Vec<char>> = query
            .split_whitespace()
            .map(|w| w.chars().flat_map(char::to_lowercase).collect())
            .collect();
        let floor = perfect * FILL_MIN_PERCENT / 100;
        // A typo of long words (two edits allowed in each) is a strong signal: a few such
        // hits are listed even beside a full list of content hits.
        let long = words
            .iter()
            .all(|w| super::distance::max_distance(w.len()) >= 2);
        let reserved = if long { FILL_TYPO_MIN.min(top_k) } else { 0 };
        let mut room = top_k.saturating_sub(content).max(reserved);
        scored
            .into_iter()
            .filter(|&(s, i, _)| {
                let typed = words.iter().all(|w| holds_word(self.hays.hay(i), w));
                if typed {
                    return true;
                }
                if room == 0 || s < floor {
                    return false;
                }
                room -= 1;
                true
            })
            .map(|(s, i, _)| self.hit(s, i))
            .collect()
    }

    fn hit(&self, score: u32, i: usize) -> Hit {
        Hit {
            node: self.hays.node(i),
            score: f64::from(score),
            source: HitSource::Fuzzy,
            scorer: Scorer::Skillnav,
            copies: Vec::new(),
        }
    }

    /// The best `top_k` title hits of `query` among the nodes `keep` accepts, as
    /// [`FuzzyIndex::search`] ranks them but without its typed-words and typo passes: every
    /// accepted haystack holding the query's letters and digits is scored with nucleo (`keep`
    /// is asked first, so a narrow filter costs little). For `key:value` filters
    /// ([`super::filter`]): filtering before the top-k cut finds the first `top_k` matching
    /// titles, not those of the unfiltered first few hundred.
    pub fn search_where(
        &self,
        query: &str,
        top_k: usize,
        keep: &(dyn Fn(NodeId) -> bool + Sync),
    ) -> Vec<Hit> {
        let query = &*nfc(query);
        let Some((pattern, perfect)) = title_pattern(query, top_k) else {
            return Vec::new();
        };
        let min = perfect * MIN_SCORE_PERCENT / 100;
        let nodes = self.hays.nodes();
        let mut scored = self.scored(
            &pattern,
            min,
            top_k,
            &|i| nodes.get(i).is_some_and(|n| keep(*n)),
            &|_| 1,
            0,
        );
        scored.sort_unstable_by(cmp);
        scored.into_iter().map(|(s, i, _)| self.hit(s, i)).collect()
    }

    /// [`FuzzyIndex::search`] as scored items, best first.
    fn search_items(&self, query: &str, top_k: usize) -> Vec<Scored> {
        let query = &*nfc(query);
        let Some((pattern, perfect)) = title_pattern(query, top_k) else {
            return Vec::new();
        };
        let min = perfect * MIN_SCORE_PERCENT / 100;
        let words: Vec<Vec<char>> = query
            .split_whitespace()
            .map(|w| w.chars().flat_map(char::to_lowercase).collect())
            .collect();
        let word_strs: Vec<String> = words.iter().map(|w| w.iter().collect()).collect();
        let finders: Vec<memchr::memmem::Finder> = word_strs
            .iter()
            .map(|w| memchr::memmem::Finder::new(w.as_bytes()))
            .collect();
        let mut scored = if self.hays.len() < BIG_TREE_ITEMS {
            self.scored(&pattern, min, top_k, &|_| true, &|_| 1, 0)
        } else {
            // Titles holding every word as typed ([`FuzzyIndex::typed`]); when there are
            // none, those holding each word as typed or within its typo distance (a one-word
            // query: within its distance).
            let marks = self.typed_marks(&words, &finders);
            let typed = self.typed(&pattern, min, top_k, &marks);
            if typed.is_empty() {
                // Per query word, the closest word within its typo distance each item
                // holds, from the word table (not a distance test of every haystack word).
                let near: Vec<Vec<Option<Near>>> = words
                    .iter()
                    .map(|w| {
                        let mut m = vec![None; self.hays.len()];
                        self.words.mark_near(w, &mut m);
                        m
                    })
                    .collect();
                self.near(min, top_k, &words, &marks, &near)
            } else {
                typed
            }
        };
        scored.sort_unstable_by(cmp);
        scored
    }
}

/// The best [`start_bonus`] of the occurrences of `word` (lower-case chars) in `hay`,
/// compared char by char on the lower-cased haystack (each lower-case char mapped back to
/// the char it came from); `None` when it does not occur.
fn unicode_bonus(hay: Utf32Str<'_>, word: &[char]) -> Option<u8> {
    let orig: Vec<char> = hay.chars().collect();
    let (lower, from): (Vec<char>, Vec<usize>) = orig
        .iter()
        .enumerate()
        .flat_map(|(j, c)| c.to_lowercase().map(move |l| (l, j)))
        .unzip();
    lower
        .windows(word.len())
        .enumerate()
        .filter(|(_, win)| *win == word)
        .map(|(k, _)| {
            let j = from[k];
            start_bonus(j.checked_sub(1).map(|q| orig[q]), orig[j])
        })
        .max()
}

/// Whether `hay` holds `word` (lower-case chars) as a substring, ignoring case; no
/// allocation for an ASCII haystack.
fn holds_word(hay: Utf32Str<'_>, word: &[char]) -> bool {
    if word.is_empty() {
        return false;
    }
    match hay {
        Utf32Str::Ascii(b) => {
            word.len() <= b.len()
                && b.windows(word.len()).any(|win| {
                    win.iter()
                        .zip(word)
                        .all(|(x, c)| char::from(x.to_ascii_lowercase()) == *c)
                })
        }
        Utf32Str::Unicode(cs) => {
            let lower: Vec<char> = cs.iter().flat_map(|c| c.to_lowercase()).collect();
            lower.windows(word.len()).any(|win| win == word)
        }
    }
}

/// The nucleo pattern of a title query (already NFC) and the score of the query matched
/// against itself (a hit must reach a percent of it: [`MIN_SCORE_PERCENT`], which drops
/// letters picked out of unrelated words, "widgets" in "Write Grading Results", while typos
/// and partial words still match), or `None` when nothing can match: `top_k` 0, a blank
/// query, more than [`MAX_TITLE_QUERY_WORDS`] words or [`MAX_TITLE_QUERY_CHARS`] chars, or
/// no atom. Every nucleo pattern of a search comes from here or from a haystack's words.
fn title_pattern(query: &str, top_k: usize) -> Option<(Pattern, u32)> {
    let trimmed = query.trim();
    if top_k == 0
        || trimmed.is_empty()
        || trimmed.chars().nth(MAX_TITLE_QUERY_CHARS).is_some()
        || query
            .split_whitespace()
            .nth(MAX_TITLE_QUERY_WORDS)
            .is_some()
    {
        return None;
    }
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    if pattern.atoms.is_empty() {
        return None;
    }
    let mut m = Matcher::new(Config::DEFAULT);
    let perfect = pattern
        .score(Utf32String::from(trimmed).slice(..), &mut m)
        .unwrap_or(0);
    Some((pattern, perfect))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::model::{Format, Node, NodeKind};

    fn assert_send_sync<T: Send + Sync>() {}

    /// Whether each of `words` (lower-case chars) is within its typo distance
    /// ([`crate::index::distance::max_distance`]) of a word of `hay`.
    fn near_words(hay: Utf32Str<'_>, words: &[Vec<char>]) -> bool {
        let lower: Vec<char> = hay.chars().flat_map(char::to_lowercase).collect();
        let hay_words: Vec<&[char]> = lower
            .split(|c| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let mut rows = Vec::new();
        words.iter().all(|w| {
            let k = crate::index::distance::max_distance(w.len());
            k > 0
                && hay_words
                    .iter()
                    .any(|h| crate::index::distance::bounded_osa(w, h, k, &mut rows).is_some())
        })
    }

    #[test]
    fn the_char_prefilter_and_the_word_search_never_drop_a_match() {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut c = Corpus::default();
        for d in [
            "formats2",
            "formats",
            "index",
            "lints",
            "lazytools",
            "frontmatter",
            "curate",
            "tui",
        ] {
            let spec = crate::formats::root_specs(&[base.join(d)]).remove(0);
            c.append(crate::formats::load_root(
                &spec,
                &crate::formats::LoadOptions::default(),
                &mut |_| {},
            ));
        }
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "extra", ""));
        for t in [
            "Überblick der API",
            "Kelvin \u{212a} scale",
            "naïve café",
            "HTTP/2 Server-Push",
        ] {
            c.add_child(root, Node::new(NodeKind::Section, Format::Markdown, t, ""));
        }
        c.finalize();
        let filtered = FuzzyIndex::build(&c);
        assert!(
            filtered.len() > BIG_TREE_ITEMS,
            "{} haystacks",
            filtered.len()
        );
        assert!(filtered.masks.contains(&u64::MAX));
        assert!(filtered.masks.iter().filter(|m| **m != u64::MAX).count() > 1000);
        let mut unfiltered = FuzzyIndex::build(&c);
        unfiltered.masks.fill(u64::MAX);
        // And the char-by-char word test instead of the lower-case copies.
        unfiltered.char_by_char = true;
        let queries = [
            "midleware",
            "uber",
            "über",
            "kelvin",
            "cafe",
            "naive",
            "http2",
            "server push",
            "!test api",
            "^intro",
            "'skill",
            "md$",
            "frontmatter",
            "x",
            "7",
            "s k i l l",
            "validate description",
            "zzzz",
        ];
        let mut some_hits = 0;
        for q in queries {
            let a = filtered.search(q, 20);
            let b = unfiltered.search(q, 20);
            let ids = |h: &[Hit]| h.iter().map(|h| (h.node, h.score)).collect::<Vec<_>>();
            assert_eq!(ids(&a), ids(&b), "query {q:?}");
            some_hits += usize::from(!a.is_empty());
        }
        assert!(some_hits >= 10, "{some_hits} queries found something");
    }

    #[test]
    fn parallel_search_equals_sequential_order() {
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let n = PARALLEL_MIN_ITEMS + 1000;
        for i in 0..n {
            let title = match i % 3 {
                0 => format!("Middleware {i}"),
                1 => format!("Routing {i}"),
                _ => format!("Mid level ware {i}"),
            };
            c.add_child(
                root,
                Node::new(NodeKind::Section, Format::Markdown, title, ""),
            );
        }
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        assert_eq!(fz.len(), n);
        let hits = fz.search("midleware", 50);
        // Sequential reference: score every haystack, keep the big tree's word matches (no
        // title holds `midleware` as typed; `Middleware` is one edit away, `Mid level ware`
        // has no such word), stable sort by score descending.
        let pattern = Pattern::parse("midleware", CaseMatching::Ignore, Normalization::Smart);
        let mut m = Matcher::new(Config::DEFAULT);
        let words = ["midleware".chars().collect::<Vec<char>>()];
        let mut all: Vec<(u32, usize)> = (0..fz.len())
            .filter(|&i| near_words(fz.hays.hay(i), &words))
            .filter_map(|i| pattern.score(fz.hays.hay(i), &mut m).map(|s| (s, i)))
            .collect();
        all.sort_by_key(|a| std::cmp::Reverse(a.0));
        let want: Vec<NodeId> = all.iter().take(50).map(|(_, i)| fz.hays.node(*i)).collect();
        assert_eq!(hits.iter().map(|h| h.node).collect::<Vec<_>>(), want);
        assert_eq!(c.node(hits[0].node).title, "Middleware 0");
    }

    #[test]
    fn big_trees_keep_only_titles_holding_the_words() {
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        for i in 0..BIG_TREE_ITEMS {
            c.add_child(
                root,
                Node::new(
                    NodeKind::Section,
                    Format::Markdown,
                    format!("Controller Resources {i}"),
                    "",
                ),
            );
        }
        c.add_child(
            root,
            Node::new(NodeKind::Section, Format::Markdown, "CORS Middleware", ""),
        );
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        let titles = |q: &str| -> Vec<String> {
            fz.search(q, 3)
                .iter()
                .map(|h| c.node(h.node).title.clone())
                .collect()
        };
        assert_eq!(titles("cors"), ["CORS Middleware"]);
        // A typo holds no word as typed: the titles with a word within its distance stay.
        assert_eq!(titles("midleware"), ["CORS Middleware"]);
        assert_eq!(
            titles("resorces"),
            [
                "Controller Resources 0",
                "Controller Resources 1",
                "Controller Resources 2"
            ]
        );
        // Letters scattered over words are not a hit on a big tree.
        assert!(titles("cmw").is_empty());
    }

    #[test]
    fn scoring_given_nodes_agrees_with_search() {
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let ids: Vec<NodeId> = [
            "Step 7: Write Grading Results",
            "Widgets and gadgets",
            "Middleware",
        ]
        .iter()
        .map(|t| c.add_child(root, Node::new(NodeKind::Section, Format::Markdown, *t, "")))
        .collect();
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        let hit = fz.search("widgets", 10);
        assert_eq!(
            fz.score_nodes("widgets", &ids),
            vec![None, Some(hit[0].score), None]
        );
        assert_eq!(fz.score_nodes(" ", &ids), vec![None, None, None]);
    }

    #[test]
    fn fuzzy_index_is_send_sync() {
        assert_send_sync::<FuzzyIndex>();
        assert_send_sync::<crate::index::Index>();
    }

    #[test]
    fn letters_scattered_over_unrelated_words_are_not_title_hits() {
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        for t in [
            "Step 7: Write Grading Results",
            "Widgets and gadgets",
            "Middleware",
        ] {
            c.add_child(root, Node::new(NodeKind::Section, Format::Markdown, t, ""));
        }
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        let titles = |q: &str| -> Vec<String> {
            fz.search(q, 10)
                .iter()
                .map(|h| c.node(h.node).title.clone())
                .collect()
        };
        // w-i-d-g-e-t-s picked out of "Write Grading Results" scores 112 of the query's 192.
        assert_eq!(titles("widgets"), ["Widgets and gadgets"]);
        // A typo still finds its title.
        assert_eq!(titles("midleware"), ["Middleware"]);
    }

    /// A big list (over [`BIG_TREE_ITEMS`] haystacks) of KEP-like sections, `title | path`,
    /// with real KEP section titles among numbered filler sections.
    fn kep_list() -> Corpus {
        const REAL: [&str; 8] = [
            "Graduation Criteria",
            "Version Skew Strategy",
            "Design Details",
            "Kubelet Restart Policy",
            "Topology Spread Constraints",
            "Monitoring Requirements",
            "Scheduler Plugin Configuration",
            "Upgrade / Downgrade Strategy",
        ];
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "keps", ""));
        for i in 0..4000 {
            let title = if i % 500 == 250 {
                REAL[i / 500].to_string()
            } else {
                format!("Alternatives considered {i}")
            };
            let path = format!("keps/sig-node/{i}-feature/README.md");
            c.add_child(
                root,
                Node::new(NodeKind::Section, Format::Markdown, title, path),
            );
        }
        c.finalize();
        c
    }

    #[test]
    fn typo_queries_still_find_their_titles_on_a_big_list() {
        let c = kep_list();
        let fz = FuzzyIndex::build(&c);
        assert!(fz.len() > BIG_TREE_ITEMS);
        let first = |q: &str| -> Option<String> {
            fz.search(q, 10)
                .first()
                .map(|h| c.node(h.node).title.clone())
        };
        for (q, want) in [
            // A missing letter, in one word and in each of two words.
            ("grduation", "Graduation Criteria"),
            ("grduation critria", "Graduation Criteria"),
            ("monitring requirements", "Monitoring Requirements"),
            ("schedulr plugin", "Scheduler Plugin Configuration"),
            // An extra letter.
            ("topollogy", "Topology Spread Constraints"),
            // One typo word beside one typed as it is.
            ("desgn details", "Design Details"),
            ("upgrade downgarde", "Upgrade / Downgrade Strategy"),
        ] {
            assert_eq!(first(q).as_deref(), Some(want), "query {q:?}");
        }
        // Letters of a word scattered over the filler's words are still not hits.
        assert_eq!(first("acid"), None);
    }

    #[test]
    fn a_word_in_every_path_still_ranks_the_title_holding_it_first() {
        // Every haystack holds `readme` (in its path, after a `/`): only the best placed
        // ones are scored with nucleo, and they are the ones a full pass ranks first.
        let mut c = kep_list();
        let root = c.roots[0];
        let readme = c.add_child(
            root,
            Node::new(
                NodeKind::Section,
                Format::Markdown,
                "README conventions",
                "keps/README.md",
            ),
        );
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        let hits = fz.search("readme", 5);
        assert_eq!(hits[0].node, readme);
        // The same five as scoring every haystack with nucleo (score, then document order).
        let pattern = Pattern::parse("readme", CaseMatching::Ignore, Normalization::Smart);
        let mut m = Matcher::new(Config::DEFAULT);
        let mut all: Vec<(u32, usize)> = (0..fz.len())
            .filter_map(|i| pattern.score(fz.hays.hay(i), &mut m).map(|s| (s, i)))
            .collect();
        assert!(all.len() > cap(5), "{} haystacks match", all.len());
        all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let want: Vec<(NodeId, f64)> = all
            .iter()
            .take(5)
            .map(|(s, i)| (fz.hays.node(*i), f64::from(*s)))
            .collect();
        let got: Vec<(NodeId, f64)> = hits.iter().map(|h| (h.node, h.score)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn the_start_bonus_of_the_ascii_path_equals_the_char_by_char_one() {
        let c = kep_list();
        let fz = FuzzyIndex::build(&c);
        for q in ["readme", "sig", "feature", "criteria", "1", "node readme"] {
            let words: Vec<Vec<char>> = q.split_whitespace().map(|w| w.chars().collect()).collect();
            let strs: Vec<String> = words.iter().map(|w| w.iter().collect()).collect();
            let finders: Vec<memchr::memmem::Finder> = strs
                .iter()
                .map(|w| memchr::memmem::Finder::new(w.as_bytes()))
                .collect();
            for i in (0..fz.len()).step_by(97) {
                for (w, f) in words.iter().zip(&finders) {
                    assert_eq!(
                        fz.word_bonus(i, w, f, &mut Vec::new()),
                        unicode_bonus(fz.hays.hay(i), w),
                        "{q:?} item {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_pasted_paragraph_of_more_words_than_a_title_gets_no_title_hits() {
        let words: Vec<String> = (0..=MAX_TITLE_QUERY_WORDS)
            .map(|i| format!("word{i}"))
            .collect();
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        // A title holding every word: a 32-word query finds it, a 33-word one is no title query.
        c.add_child(
            root,
            Node::new(NodeKind::Section, Format::Markdown, words.join(" "), ""),
        );
        for i in 0..BIG_TREE_ITEMS {
            c.add_child(
                root,
                Node::new(
                    NodeKind::Section,
                    Format::Markdown,
                    format!("Other {i}"),
                    "",
                ),
            );
        }
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        let longest = words[..MAX_TITLE_QUERY_WORDS].join(" ");
        assert_eq!(fz.search(&longest, 10).len(), 1);
        assert!(fz.search(&words.join(" "), 10).is_empty());
        assert!(fz.search_beside(&words.join(" "), 10, 0).is_empty());
    }

    #[test]
    fn a_query_longer_than_any_title_gets_no_title_hits_on_every_path() {
        // One word of 3,000 chars overflowed nucleo's `u16` score matched against itself.
        let long = "a".repeat(3000);
        let several = format!("aaa {}", "a".repeat(2996));
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let title = "a".repeat(MAX_TITLE_QUERY_CHARS);
        let id = c.add_child(
            root,
            Node::new(NodeKind::Section, Format::Markdown, title.as_str(), ""),
        );
        for i in 0..BIG_TREE_ITEMS {
            let t = format!("aaa {i}");
            c.add_child(root, Node::new(NodeKind::Section, Format::Markdown, t, ""));
        }
        c.finalize();
        let fz = FuzzyIndex::build(&c);
        for q in [&long, &several] {
            assert!(fz.search(q, 10).is_empty());
            assert!(fz.search_beside(q, 10, 0).is_empty());
            assert!(fz.search_where(q, 10, &|_| true).is_empty());
            assert_eq!(fz.score_nodes(q, &[id]), vec![None]);
        }
        // The longest title query still finds the title it equals.
        let hits = fz.search(&title, 1);
        assert_eq!(hits.iter().map(|h| h.node).collect::<Vec<_>>(), [id]);
    }
}
