//! The words of the fuzzy haystacks (docs/DESIGN.md §3), built once per [`super::FuzzyIndex`]:
//! every distinct lower-case word with the haystacks holding it, grouped by length in chars.
//! It answers "which haystacks hold a word within typo distance of this one, and which word"
//! by comparing the query word with the distinct words instead of with every word of every
//! haystack, so a typo query on a big tree looks only at the haystacks that can be hits.
//!
//! A word is a maximal run of alphanumeric chars of the haystack lower-cased char by char
//! (`char::to_lowercase`; ASCII haystacks byte by byte, the same thing).

use nucleo_matcher::Utf32Str;

use super::distance::{bounded_osa, max_distance};
use super::hash::FxHashMap;

/// Longest word length (in chars) with its own group; longer words share the last one.
const LEN_GROUPS: usize = 64;

/// One distinct word: where its text is in [`TitleWords::texts`] (`text..text_end`), its
/// [`signature`], and where its haystacks are in [`TitleWords::items`] and
/// [`TitleWords::bonus`] (`start..end`).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Word {
    sig: u64,
    text: u32,
    text_end: u32,
    start: u32,
    end: u32,
}

/// A word while the table is built: its text, signature and haystacks (item indices,
/// ascending, each once, with the best [`start_bonus`] of the word's starts there).
struct Gathered {
    text: Box<str>,
    sig: u64,
    items: Vec<(u32, u8)>,
}

/// The words of the haystacks gathered so far, each once, by [`TitleWords::build`].
#[derive(Default)]
struct Gatherer {
    /// Word text → id (index into `words`).
    ids: FxHashMap<Box<str>, u32>,
    words: Vec<Gathered>,
}

impl Gatherer {
    /// Word `w` seen in item `i` with start bonus `bonus` (the best bonus of an item kept).
    fn add(&mut self, w: &str, i: u32, bonus: u8) {
        let id = if let Some(id) = self.ids.get(w) {
            *id
        } else {
            let id = u32::try_from(self.words.len()).unwrap_or(u32::MAX);
            self.ids.insert(w.into(), id);
            self.words.push(Gathered {
                text: w.into(),
                sig: signature(w.chars()),
                items: Vec::new(),
            });
            id
        };
        if let Some(word) = self.words.get_mut(id as usize) {
            match word.items.last_mut() {
                Some((last, b)) if *last == i => *b = (*b).max(bonus),
                _ => word.items.push((i, bonus)),
            }
        }
    }

    /// The words of a non-ASCII haystack of item `item`: lower-cased char by char (in
    /// `text`, a reused buffer), each word's start bonus read from the chars it came from.
    fn unicode_words(&mut self, hay: Utf32Str<'_>, item: u32, text: &mut String) {
        let orig: Vec<char> = hay.chars().collect();
        // Lower-case char by char, each mapped back to the char it came from.
        text.clear();
        let mut from: Vec<usize> = Vec::new();
        for (j, c) in orig.iter().enumerate() {
            for lc in c.to_lowercase() {
                text.push(lc);
                from.push(j);
            }
        }
        let mut start = None;
        for (k, (at, c)) in text.char_indices().chain([(text.len(), ' ')]).enumerate() {
            match (c.is_alphanumeric() && at < text.len(), start) {
                (true, None) => start = Some((at, k)),
                (false, Some((s, sk))) => {
                    let j = from[sk];
                    let prev = j.checked_sub(1).map(|q| orig[q]);
                    self.add(&text[s..at], item, start_bonus(prev, orig[j]));
                    start = None;
                }
                _ => {}
            }
        }
    }

    /// The words of an ASCII haystack `orig` of item `item` (`l`: it lower-cased).
    fn ascii_words(&mut self, l: &[u8], orig: &[u8], item: u32) {
        let mut p: usize = 0;
        for w in l.split(|b| !b.is_ascii_alphanumeric()) {
            if !w.is_empty()
                && let Ok(t) = std::str::from_utf8(w)
            {
                let prev = p
                    .checked_sub(1)
                    .and_then(|q| orig.get(q))
                    .map(|c| char::from(*c));
                let cur = orig.get(p).map_or(' ', |c| char::from(*c));
                self.add(t, item, start_bonus(prev, cur));
            }
            p += w.len() + 1;
        }
    }
}

/// nucleo's bonus for a match starting at `cur` after `prev` (`None`: the haystack's start,
/// which nucleo treats as whitespace): after whitespace 10, after a delimiter (`/,:;|`) 9,
/// after other non-word chars 8, a camelCase or letter-to-digit step 7, else 0
/// (nucleo-matcher's `BONUS_BOUNDARY` + 2, + 1, `BONUS_BOUNDARY`, `BONUS_CAMEL123`).
pub fn start_bonus(prev: Option<char>, cur: char) -> u8 {
    match prev {
        None => 10,
        Some(p) if p.is_whitespace() => 10,
        Some('/' | ',' | ':' | ';' | '|') => 9,
        Some(p) if !p.is_alphanumeric() => 8,
        Some(p)
            if (p.is_lowercase() && cur.is_uppercase())
                || (!p.is_numeric() && cur.is_numeric()) =>
        {
            7
        }
        Some(_) => 0,
    }
}

/// Distinct haystack words, with their ids grouped by length in chars (`groups[len]`; the
/// last group holds every longer word).
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct TitleWords {
    words: Vec<Word>,
    /// The words' texts, one after the other (one buffer instead of a string per word).
    texts: String,
    /// The haystacks holding each word, one word's after the other (item indices, ascending
    /// within a word): one array for every word instead of a list each, a third of the
    /// memory on a big tree (docs/DESIGN.md §8).
    #[serde(with = "crate::util::pod_vec")]
    items: Vec<u32>,
    /// The best [`start_bonus`] of the word's starts in the haystack at the same position.
    #[serde(with = "crate::util::pod_vec")]
    bonus: Vec<u8>,
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
    /// The word table of the haystacks `hays`, in item order.
    pub fn build<'h>(hays: impl Iterator<Item = Utf32Str<'h>>) -> Self {
        let mut g = Gatherer::default();
        let mut text = String::new();
        let mut l: Vec<u8> = Vec::new();
        for (i, hay) in hays.enumerate() {
            let item = u32::try_from(i).unwrap_or(u32::MAX);
            l.clear();
            if let Utf32Str::Ascii(b) = hay {
                l.extend(b.iter().map(u8::to_ascii_lowercase));
            }
            if l.is_empty() {
                g.unicode_words(hay, item, &mut text);
            } else {
                let orig = match hay {
                    Utf32Str::Ascii(b) => b,
                    Utf32Str::Unicode(_) => &[],
                };
                g.ascii_words(&l, orig, item);
            }
        }
        let Gatherer { ids, words } = g;
        drop(ids);
        Self::pack(words)
    }

    /// The table of the gathered `words`: their texts, items and bonuses in one buffer
    /// each, and the word ids by length group.
    fn pack(words: Vec<Gathered>) -> Self {
        let total = words.iter().map(|w| w.items.len()).sum();
        let mut items = Vec::with_capacity(total);
        let mut bonus = Vec::with_capacity(total);
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); LEN_GROUPS + 1];
        let mut texts = String::with_capacity(words.iter().map(|w| w.text.len()).sum());
        let words: Vec<Word> = words
            .into_iter()
            .enumerate()
            .map(|(id, w)| {
                let g = w.text.chars().count().min(LEN_GROUPS);
                groups[g].push(u32::try_from(id).unwrap_or(u32::MAX));
                let start = u32::try_from(items.len()).unwrap_or(u32::MAX);
                items.extend(w.items.iter().map(|(i, _)| *i));
                bonus.extend(w.items.iter().map(|(_, b)| *b));
                let end = u32::try_from(items.len()).unwrap_or(u32::MAX);
                let text = u32::try_from(texts.len()).unwrap_or(u32::MAX);
                texts.push_str(&w.text);
                let text_end = u32::try_from(texts.len()).unwrap_or(u32::MAX);
                Word {
                    sig: w.sig,
                    text,
                    text_end,
                    start,
                    end,
                }
            })
            .collect();
        Self {
            words,
            texts,
            items,
            bonus,
            groups,
        }
    }

    /// The text of `w` (lower case).
    fn word_text(&self, w: &Word) -> &str {
        self.texts
            .get(w.text as usize..w.text_end as usize)
            .unwrap_or("")
    }

    /// The haystacks holding `w` with the best start bonus of `w` in each.
    fn items_of(&self, w: &Word) -> impl Iterator<Item = (u32, u8)> + '_ {
        let r = w.start as usize..w.end as usize;
        let items = self.items.get(r.clone()).unwrap_or(&[]);
        let bonus = self.bonus.get(r).unwrap_or(&[]);
        items.iter().copied().zip(bonus.iter().copied())
    }

    /// The text of word `id` (lower case).
    pub fn text(&self, id: u32) -> &str {
        self.words
            .get(id as usize)
            .map_or("", |w| self.word_text(w))
    }

    /// Mark in `typed` (one slot per item) every item holding `word` (lower case, every char
    /// alphanumeric, so an occurrence lies inside one haystack word) as a substring: the slot
    /// becomes at least 1 + the [`start_bonus`] of the occurrence (a haystack word starting
    /// with `word`: the bonus of that start; inside a word: 0, camelCase steps not told
    /// apart).
    pub fn mark_typed(&self, word: &str, typed: &mut [u8]) {
        let len = word.chars().count();
        if len == 0 || self.groups.is_empty() {
            return;
        }
        let sig = signature(word.chars());
        let finder = memchr::memmem::Finder::new(word.as_bytes());
        for &id in self.groups[len.min(LEN_GROUPS)..].iter().flatten() {
            let w = &self.words[id as usize];
            if w.sig & sig != sig {
                continue;
            }
            let Some(at) = finder.find(self.word_text(w).as_bytes()) else {
                continue;
            };
            let prefix = at == 0;
            for (i, bonus) in self.items_of(w) {
                if let Some(slot) = typed.get_mut(i as usize) {
                    let b = 1 + if prefix { bonus } else { 0 };
                    *slot = (*slot).max(b);
                }
            }
        }
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
            let text = self.word_text(w);
            let dist = match &ascii {
                Some(a) if text.is_ascii() => bounded_osa(a, text.as_bytes(), k, &mut rows),
                _ => {
                    other.clear();
                    other.extend(text.chars());
                    bounded_osa(word, &other, k, &mut rows)
                }
            };
            let Some(dist) = dist else { continue };
            let dist = u8::try_from(dist).unwrap_or(u8::MAX);
            for (i, _) in self.items_of(w) {
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

    use nucleo_matcher::Utf32String;

    fn table(hays: &[&str]) -> TitleWords {
        let hays: Vec<Utf32String> = hays.iter().map(|h| Utf32String::from(*h)).collect();
        TitleWords::build(hays.iter().map(|h| h.slice(..)))
    }

    #[test]
    fn words_are_lower_case_alphanumeric_runs_each_once_per_item() {
        let t = table(&["Pod-Level Pod | keps/Ünïcode_2", "pod"]);
        let mut all: Vec<(&str, Vec<u32>)> = t
            .words
            .iter()
            .map(|w| (t.word_text(w), t.items_of(w).map(|(i, _)| i).collect()))
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
        let hays = [
            "Graduation Criteria",
            "Gradual rollout",
            "Kubelet",
            "Cubelets",
        ];
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
        assert_eq!(near("grduatoin"), [some("graduation", 2), None, None, None]);
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
