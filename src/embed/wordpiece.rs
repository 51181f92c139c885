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
    unk: u32,
    /// Longest token in bytes (`##` included): no longer piece is looked up.
    max_len: usize,
}

impl WordPiece {
    /// The vocabulary of `text`, one token a line (line number = row). `None` when it has
    /// no `[UNK]` token.
    pub fn new(text: &'static str) -> Option<Self> {
        let mut ids = FxHashMap::default();
        ids.reserve(32_768);
        let mut max_len = 0;
        for (i, tok) in text.lines().enumerate() {
            ids.entry(tok).or_insert(i as u32);
            max_len = max_len.max(tok.len());
        }
        let unk = *ids.get("[UNK]")?;
        Some(Self { ids, unk, max_len })
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
    /// `word` is a reusable buffer.
    pub fn encode_into(&self, text: &str, limit: usize, out: &mut Vec<u32>, word: &mut String) {
        word.clear();
        for c in text.chars().flat_map(char::to_lowercase).nfd() {
            if out.len() >= limit {
                return;
            }
            if c.is_whitespace() {
                self.flush(word, out);
            } else if c == '\0' || c == '\u{fffd}' || c.is_control() || is_combining_mark(c) {
            } else if is_split(c) {
                self.flush(word, out);
                let mut b = [0u8; 4];
                out.push(
                    self.ids
                        .get(&*c.encode_utf8(&mut b))
                        .copied()
                        .unwrap_or(self.unk),
                );
            } else {
                word.push(c);
            }
        }
        if out.len() < limit {
            self.flush(word, out);
        }
        out.truncate(limit);
    }

    /// The piece ids of `text` (at most `limit`).
    pub fn encode(&self, text: &str, limit: usize) -> Vec<u32> {
        let mut out = Vec::new();
        self.encode_into(text, limit, &mut out, &mut String::new());
        out
    }

    /// Pieces of the word in `word` (then cleared), appended to `out`.
    fn flush(&self, word: &mut String, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        if word.chars().count() > MAX_WORD_CHARS {
            out.push(self.unk);
            word.clear();
            return;
        }
        let start_len = out.len();
        let mut probe = String::with_capacity(word.len() + 2);
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len().min(start + self.max_len);
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            let mut found = None;
            while end > start {
                probe.clear();
                if start > 0 {
                    probe.push_str("##");
                }
                probe.push_str(&word[start..end]);
                if let Some(&id) = self.ids.get(probe.as_str()) {
                    found = Some(id);
                    break;
                }
                end -= 1;
                while !word.is_char_boundary(end) {
                    end -= 1;
                }
            }
            let Some(id) = found else {
                out.truncate(start_len);
                out.push(self.unk);
                word.clear();
                return;
            };
            out.push(id);
            start = end;
        }
        word.clear();
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
