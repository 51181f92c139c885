//! BERT's uncased word-piece tokenizer over a fixed vocabulary (the `vocab.txt` of
//! `assets/embed/`, docs/DESIGN.md §3 "Semantic signal"): lower-case, NFD with combining
//! marks dropped (accents stripped), split on whitespace, punctuation and CJK characters,
//! then greedy longest-match-first pieces (`##` marks a word-inner piece); a word of more
//! than 100 characters, or one with no full cover, is `[UNK]`.
//!
//! One difference from the Python reference (`tools/make_embeddings.py`, which matches the
//! source model's tokenizer): a non-ASCII character that is neither alphanumeric, whitespace
//! nor a combining mark is split off as punctuation here (Unicode symbols such as `©` or
//! emoji), where BERT keeps symbols inside the word; both usually end as `[UNK]`.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::index::hash::FxHashMap;

/// Longest word that gets pieces, in chars (BERT's `max_input_chars_per_word`).
const MAX_WORD_CHARS: usize = 100;

/// A word-piece vocabulary: token → row.
#[derive(Debug)]
pub struct WordPiece {
    ids: FxHashMap<&'static str, u32>,
    /// Word-inner pieces by their text after `##` (`##ing` → `ing`): looked up without
    /// building the `##` probe.
    inner: FxHashMap<&'static str, u32>,
    /// Row of each single ASCII character (`[UNK]` when it has none).
    ascii: [u32; 128],
    unk: u32,
    /// Longest token in bytes (`##` included): no longer piece is looked up.
    max_len: usize,
}

/// Reusable buffers of [`WordPiece::encode_into`]: the word being read, and the pieces of
/// the words that needed more than one lookup (at most [`CACHED_WORDS`] of them), so a
/// repeated identifier or rare word is split once. The ids are the same with or without it.
#[derive(Debug, Default)]
pub struct Scratch {
    word: String,
    cache: FxHashMap<Box<str>, (u32, u32)>,
    pieces: Vec<u32>,
}

/// Words whose pieces a [`Scratch`] keeps (about 40 bytes each).
pub const CACHED_WORDS: usize = 32_768;

impl WordPiece {
    /// The vocabulary of `text`, one token a line (line number = row). `None` when it has
    /// no `[UNK]` token.
    pub fn new(text: &'static str) -> Option<Self> {
        let mut ids = FxHashMap::default();
        ids.reserve(32_768);
        let mut inner = FxHashMap::default();
        let mut max_len = 0;
        for (i, tok) in text.lines().enumerate() {
            ids.entry(tok).or_insert(i as u32);
            if let Some(rest) = tok.strip_prefix("##") {
                inner.entry(rest).or_insert(i as u32);
            }
            max_len = max_len.max(tok.len());
        }
        let unk = *ids.get("[UNK]")?;
        let mut ascii = [unk; 128];
        for (b, slot) in ascii.iter_mut().enumerate() {
            let c = [b as u8];
            if let Some(&id) = std::str::from_utf8(&c).ok().and_then(|k| ids.get(k)) {
                *slot = id;
            }
        }
        Some(Self {
            ids,
            inner,
            ascii,
            unk,
            max_len,
        })
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether the vocabulary is empty (never for a loaded one: it has `[UNK]`).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Append the piece ids of `text` to `out`, stopping once `out` holds `limit` ids.
    /// `scratch` holds reusable buffers (and a cache of split words).
    ///
    /// ASCII runs skip lower-casing and NFD (both leave ASCII unchanged, and NFD reorders
    /// only combining marks, which never cross an ASCII character), so the ids are those of
    /// the char-by-char pipeline over the whole text.
    pub fn encode_into(&self, text: &str, limit: usize, out: &mut Vec<u32>, scratch: &mut Scratch) {
        scratch.word.clear();
        let mut rest = text;
        while !rest.is_empty() {
            let n = rest
                .bytes()
                .position(|b| !b.is_ascii())
                .unwrap_or(rest.len());
            for &b in &rest.as_bytes()[..n] {
                if out.len() >= limit {
                    return;
                }
                self.step(char::from(b.to_ascii_lowercase()), out, scratch);
            }
            rest = &rest[n..];
            let m = rest
                .bytes()
                .position(|b| b.is_ascii())
                .unwrap_or(rest.len());
            for c in rest[..m].chars().flat_map(char::to_lowercase).nfd() {
                if out.len() >= limit {
                    return;
                }
                self.step(c, out, scratch);
            }
            rest = &rest[m..];
        }
        if out.len() < limit {
            self.flush(out, scratch);
        }
        out.truncate(limit);
    }

    /// The piece ids of `text` (at most `limit`).
    pub fn encode(&self, text: &str, limit: usize) -> Vec<u32> {
        let mut out = Vec::new();
        self.encode_into(text, limit, &mut out, &mut Scratch::default());
        out
    }

    /// One character of the lower-cased, decomposed text.
    #[inline]
    fn step(&self, c: char, out: &mut Vec<u32>, scratch: &mut Scratch) {
        if c.is_whitespace() {
            self.flush(out, scratch);
        } else if c == '\0' || c == '\u{fffd}' || c.is_control() || is_combining_mark(c) {
        } else if is_split(c) {
            self.flush(out, scratch);
            let id = if c.is_ascii() {
                self.ascii[c as usize]
            } else {
                let mut b = [0u8; 4];
                self.ids
                    .get(&*c.encode_utf8(&mut b))
                    .copied()
                    .unwrap_or(self.unk)
            };
            out.push(id);
        } else {
            scratch.word.push(c);
        }
    }

    /// Pieces of the word in `scratch` (then cleared), appended to `out`: the whole word
    /// when it is a token, else the cached split, else the greedy split (then cached).
    fn flush(&self, out: &mut Vec<u32>, scratch: &mut Scratch) {
        let word = scratch.word.as_str();
        if word.is_empty() {
            return;
        }
        if word.len() > MAX_WORD_CHARS && word.chars().count() > MAX_WORD_CHARS {
            out.push(self.unk);
        } else if word.len() <= self.max_len
            && let Some(&id) = self.ids.get(word)
        {
            out.push(id);
        } else if let Some(&(at, len)) = scratch.cache.get(word) {
            out.extend_from_slice(&scratch.pieces[at as usize..(at + len) as usize]);
        } else {
            let start_len = out.len();
            if !self.split(word, out) {
                out.truncate(start_len);
                out.push(self.unk);
            }
            if scratch.cache.len() < CACHED_WORDS {
                let at = scratch.pieces.len() as u32;
                scratch.pieces.extend_from_slice(&out[start_len..]);
                let len = (out.len() - start_len) as u32;
                scratch.cache.insert(word.into(), (at, len));
            }
        }
        scratch.word.clear();
    }

    /// Greedy longest-match-first pieces of `word` appended to `out`; false when some part
    /// has no piece (the caller then writes `[UNK]`).
    fn split(&self, word: &str, out: &mut Vec<u32>) -> bool {
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len().min(start + self.max_len);
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            let map = if start > 0 { &self.inner } else { &self.ids };
            let mut found = None;
            while end > start {
                if let Some(&id) = map.get(&word[start..end]) {
                    found = Some(id);
                    break;
                }
                end -= 1;
                while !word.is_char_boundary(end) {
                    end -= 1;
                }
            }
            let Some(id) = found else {
                return false;
            };
            out.push(id);
            start = end;
        }
        true
    }
}

/// Whether `c` stands alone: ASCII punctuation, other non-alphanumeric characters, CJK.
fn is_split(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_punctuation();
    }
    !c.is_alphanumeric() || is_cjk(c)
}

/// The CJK Unified Ideograph blocks BERT splits per character.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF
        | 0x3400..=0x4DBF
        | 0x20000..=0x2A6DF
        | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F
        | 0x2B820..=0x2CEAF
        | 0xF900..=0xFAFF
        | 0x2F800..=0x2FA1F)
}
