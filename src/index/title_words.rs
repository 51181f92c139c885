//! The words of the fuzzy haystacks (docs/DESIGN.md §3), built once per [`super::FuzzyIndex`]:
//! every distinct lower-case word with the haystacks holding it, grouped by length in chars.
//! It answers "which haystacks hold a word within typo distance of this one, and which word"
//! by comparing the query word with the distinct words instead of with every word of every
//! haystack, so a typo query on a big tree looks only at the haystacks that can be hits.
//!
//! A word is a maximal run of alphanumeric chars of the haystack lower-cased char by char
//! (`char::to_lowercase`; ASCII haystacks byte by byte, the same thing).

use super::distance::{bounded_osa, max_distance};
use super::hash::FxHashMap;

/// Longest word length (in chars) with its own group; longer words share the last one.
const LEN_GROUPS: usize = 64;

/// One distinct word: its text, its [`signature`], and the haystacks holding it (item
/// indices, ascending, each once).
#[derive(Debug)]
struct Word {
    text: Box<str>,
    sig: u64,
    items: Vec<u32>,
}

/// Distinct haystack words, with their ids grouped by length in chars (`groups[len]`; the
/// last group holds every longer word).
#[derive(Debug, Default)]
pub struct TitleWords {
    words: Vec<Word>,
    groups: Vec<Vec<u32>>,
}

/// A word of a haystack near a query word: its id in the table and its OSA distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Near {
    /// Id of the haystack word ([`TitleWords::text`]).
    pub word: u32,
    /// Its OSA distance from the query word, in chars.
    pub dist: u8,
}

/// Each char of a word as one of 64 bits (`c as u32 % 64`). Two words within OSA distance
/// `k` differ in at most `k` bits of the chars of either that the other lacks: every edit
/// removes or adds at most one char.
fn signature(word: impl Iterator<Item = char>) -> u64 {
    word.fold(0, |s, c| s | 1u64 << (c as u32 % 64))
}

impl TitleWords {
    /// The word table of the haystacks `lower` (item `i`: its ASCII lower-case bytes, or,
    /// when empty, the chars `chars(i)` of a non-ASCII haystack).
    pub fn build(lower: &[Box<[u8]>], chars: impl Fn(usize) -> Vec<char>) -> Self {
        let mut ids: FxHashMap<Box<str>, u32> = FxHashMap::default();
        let mut words: Vec<Word> = Vec::new();
        let mut add = |w: &str, i: u32, words: &mut Vec<Word>| {
            let id = match ids.get(w) {
                Some(id) => *id,
                None => {
                    let id = u32::try_from(words.len()).unwrap_or(u32::MAX);
                    ids.insert(w.into(), id);
                    words.push(Word {
                        text: w.into(),
                        sig: signature(w.chars()),
                        items: Vec::new(),
                    });
                    id
                }
            };
            if let Some(word) = words.get_mut(id as usize)
                && word.items.last() != Some(&i)
            {
                word.items.push(i);
            }
        };
        for (i, l) in lower.iter().enumerate() {
            let item = u32::try_from(i).unwrap_or(u32::MAX);
            if l.is_empty() {
                let text: String = chars(i).into_iter().flat_map(char::to_lowercase).collect();
                for w in text.split(|c: char| !c.is_alphanumeric()) {
                    if !w.is_empty() {
                        add(w, item, &mut words);
                    }
                }
            } else {
                for w in l.split(|b| !b.is_ascii_alphanumeric()) {
                    if let Ok(w) = std::str::from_utf8(w)
                        && !w.is_empty()
                    {
                        add(w, item, &mut words);
                    }
                }
            }
        }
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); LEN_GROUPS + 1];
        for (id, w) in words.iter().enumerate() {
            let g = w.text.chars().count().min(LEN_GROUPS);
            groups[g].push(u32::try_from(id).unwrap_or(u32::MAX));
        }
        Self { words, groups }
    }

    /// The text of word `id` (lower case).
    pub fn text(&self, id: u32) -> &str {
        self.words.get(id as usize).map_or("", |w| &w.text)
    }

    /// Record in `near` (one slot per item) the closest word within the typo distance of
    /// `word` ([`max_distance`] of its length; OSA distance in chars) that each item holds
    /// (ties: the first word in table order). `word` is lower case. Nothing is recorded
    /// for a word too short to have a typo distance.
    pub fn mark_near(&self, word: &[char], near: &mut [Option<Near>]) {
        let k = max_distance(word.len());
        if k == 0 || self.groups.is_empty() {
            return;
        }
        let sig = signature(word.iter().copied());
        let ascii: Option<Vec<u8>> = word
            .iter()
            .map(|c| u8::try_from(*c).ok().filter(u8::is_ascii))
            .collect();
        let mut rows = Vec::new();
        let mut other: Vec<char> = Vec::new();
        let lo = word.len().saturating_sub(k).min(LEN_GROUPS);
        let hi = (word.len() + k).min(LEN_GROUPS);
        for &id in self.groups[lo..=hi].iter().flatten() {
            let w = &self.words[id as usize];
            if (sig & !w.sig).count_ones() as usize > k || (w.sig & !sig).count_ones() as usize > k
            {
                continue;
            }
            let dist = match &ascii {
                Some(a) if w.text.is_ascii() => bounded_osa(a, w.text.as_bytes(), k, &mut rows),
                _ => {
                    other.clear();
                    other.extend(w.text.chars());
                    bounded_osa(word, &other, k, &mut rows)
                }
            };
            let Some(dist) = dist else { continue };
            let dist = u8::try_from(dist).unwrap_or(u8::MAX);
            for &i in &w.items {
                if let Some(slot) = near.get_mut(i as usize)
                    && slot.is_none_or(|s| dist < s.dist)
                {
                    *slot = Some(Near { word: id, dist });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(hays: &[&str]) -> TitleWords {
        let lower: Vec<Box<[u8]>> = hays
            .iter()
            .map(|h| {
                if h.is_ascii() {
                    h.to_ascii_lowercase().into_bytes().into_boxed_slice()
                } else {
                    Box::default()
                }
            })
            .collect();
        TitleWords::build(&lower, |i| hays[i].chars().collect())
    }

    #[test]
    fn words_are_lower_case_alphanumeric_runs_each_once_per_item() {
        let t = table(&["Pod-Level Pod | keps/Ünïcode_2", "pod"]);
        let mut all: Vec<(&str, Vec<u32>)> = t
            .words
            .iter()
            .map(|w| (&*w.text, w.items.clone()))
            .collect();
        all.sort();
        assert_eq!(
            all,
            [
                ("2", vec![0]),
                ("keps", vec![0]),
                ("level", vec![0]),
                ("pod", vec![0, 1]),
                ("ünïcode", vec![0])
            ]
        );
    }

    #[test]
    fn mark_near_finds_the_closest_word_within_the_typo_distance() {
        let hays = ["Graduation Criteria", "Gradual rollout", "Kubelet", "Cubelets"];
        let t = table(&hays);
        let near = |w: &str| -> Vec<Option<(String, u8)>> {
            let mut m = vec![None; hays.len()];
            t.mark_near(&w.chars().collect::<Vec<char>>(), &mut m);
            m.into_iter()
                .map(|n| n.map(|n| (t.text(n.word).to_string(), n.dist)))
                .collect()
        };
        let some = |w: &str, d: u8| Some((w.to_string(), d));
        // One transposition and one deletion: distance 2 for a word of 9 chars.
        assert_eq!(
            near("grduatoin"),
            [some("graduation", 2), None, None, None]
        );
        assert_eq!(near("kubelte"), [None, None, some("kubelet", 1), None]);
        // `cubelets` is two edits from `kubelet`: within 2 for a 7-char word.
        assert_eq!(
            near("kubelet"),
            [None, None, some("kubelet", 0), some("cubelets", 2)]
        );
        assert_eq!(near("ünicode"), [None, None, None, None]);
        // Too short for a typo distance.
        assert_eq!(near("ku"), [None, None, None, None]);
    }
}
