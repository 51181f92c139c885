//! The embedded table against what `tools/make_embeddings.py` wrote: the asset's sha256 and
//! the golden vectors of `assets/embed/golden.json` (token ids and the first components of
//! the normalised mean vector), so a changed asset or a drifting tokenizer fails here.

use sha2::{Digest, Sha256};

use super::{DIMS, MODEL_BYTES, MODEL_SHA256, model};

const GOLDEN: &str = include_str!("../../assets/embed/golden.json");

#[test]
fn asset_sha256_is_pinned() {
    let digest = Sha256::digest(MODEL_BYTES);
    let hex = digest.iter().fold(String::new(), |mut s, b| {
        use std::fmt::Write;
        let _ = write!(s, "{b:02x}");
        s
    });
    assert_eq!(hex, MODEL_SHA256);
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    assert_eq!(golden["model_sha256"].as_str(), Some(MODEL_SHA256));
}

#[test]
fn model_loads_with_the_vocabulary_size_and_dims() {
    let m = model().unwrap();
    assert_eq!(m.vocab.len(), 30522);
    assert_eq!(m.table.rows(), 30522);
    assert_eq!(m.table.row(0).len(), DIMS);
}

#[test]
fn golden_texts_give_the_scripts_ids_and_vectors() {
    let m = model().unwrap();
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    let texts = golden["texts"].as_array().unwrap();
    assert!(texts.len() >= 5);
    for g in texts {
        let text = g["text"].as_str().unwrap();
        let want_ids: Vec<u32> = g["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(m.vocab.encode(text, 512), want_ids, "ids of {text:?}");
        let v = m.embed(text).unwrap();
        for (i, want) in g["head"].as_array().unwrap().iter().enumerate() {
            let want = want.as_f64().unwrap() as f32;
            assert!(
                (v[i] - want).abs() < 1e-4,
                "{text:?}[{i}]: {} vs {want}",
                v[i]
            );
        }
    }
}

#[test]
fn long_texts_count_only_the_first_512_tokens() {
    let m = model().unwrap();
    let head = "alpha beta gamma ".repeat(200);
    let tail = format!("{head} zebra giraffe");
    assert_eq!(m.embed(&head), m.embed(&tail));
    assert!(m.embed("").is_none());
    assert!(m.embed("  \n ").is_none());
}

#[test]
fn related_words_are_closer_than_unrelated_ones() {
    let m = model().unwrap();
    let cos = |a: &str, b: &str| {
        let (x, y) = (m.embed(a).unwrap(), m.embed(b).unwrap());
        x.iter().zip(&y).map(|(p, q)| p * q).sum::<f32>()
    };
    assert!(
        cos("authentication login", "sign in with a password")
            > cos("authentication login", "bake a chocolate cake")
    );
}

/// The tokenizer as first written: every character through lower-casing and NFD, every
/// word split by probing `##`-prefixed strings. The fast path must give the same ids.
fn reference_ids(vocab_text: &'static str, text: &str, limit: usize) -> Vec<u32> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let vocab = RefVocab::new(vocab_text);
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars().flat_map(char::to_lowercase).nfd() {
        if out.len() >= limit {
            return out;
        }
        if c.is_whitespace() {
            vocab.flush(&mut word, &mut out);
        } else if c == '\0' || c == '\u{fffd}' || c.is_control() || is_combining_mark(c) {
        } else if reference_split(c) {
            vocab.flush(&mut word, &mut out);
            out.push(
                vocab
                    .ids
                    .get(c.to_string().as_str())
                    .copied()
                    .unwrap_or(vocab.unk),
            );
        } else {
            word.push(c);
        }
    }
    if out.len() < limit {
        vocab.flush(&mut word, &mut out);
    }
    out.truncate(limit);
    out
}

/// The vocabulary as [`reference_ids`] reads it: token → first id, the longest token's
/// length, and the id of `[UNK]`.
struct RefVocab {
    ids: std::collections::HashMap<&'static str, u32>,
    max_len: usize,
    unk: u32,
}

impl RefVocab {
    /// The vocabulary of `vocab_text`, one token a line.
    fn new(vocab_text: &'static str) -> Self {
        let mut ids = std::collections::HashMap::new();
        let mut max_len = 0;
        for (i, tok) in vocab_text.lines().enumerate() {
            ids.entry(tok).or_insert(i as u32);
            max_len = max_len.max(tok.len());
        }
        let unk = ids["[UNK]"];
        RefVocab { ids, max_len, unk }
    }

    /// The word pieces of `word` onto `out` by probing `##`-prefixed strings, longest
    /// first (`[UNK]` for a word over 100 chars or one that does not split); `word` is
    /// emptied.
    fn flush(&self, word: &mut String, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        if word.chars().count() > 100 {
            out.push(self.unk);
            word.clear();
            return;
        }
        let start_len = out.len();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len().min(start + self.max_len);
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            let mut found = None;
            while end > start {
                let probe = if start > 0 {
                    format!("##{}", &word[start..end])
                } else {
                    word[start..end].to_string()
                };
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

/// Whether `c` is a word of its own: ASCII punctuation, or a non-alphanumeric or CJK char.
fn reference_split(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_punctuation()
    } else {
        !c.is_alphanumeric()
            || matches!(c as u32,
                0x4E00..=0x9FFF
                | 0x3400..=0x4DBF
                | 0x20000..=0x2A6DF
                | 0x2A700..=0x2B73F
                | 0x2B740..=0x2B81F
                | 0x2B820..=0x2CEAF
                | 0xF900..=0xFAFF
                | 0x2F800..=0x2FA1F)
    }
}

/// Texts that exercise every branch: ASCII runs next to accents (NFD across the border),
/// case folding that leaves ASCII (`K` Kelvin, `İ`), split words, repeated rare words (the
/// split cache), over-long words, controls, symbols, CJK, and the token limit mid-word.
const TRICKY: &[&str] = &[
    "Café naïve ÉCOLE über Straße",
    "e\u{301}te\u{301} a\u{308}\u{301}o\u{323}\u{302} x",
    "\u{212A}elvin \u{130}stanbul ǅemal",
    "kubelet kubelet kube-apiserver kubeletconfiguration kubelet",
    "std::io::Read update:modelValue v-on:click foo_bar.baz()",
    "a\u{0}b\u{7}c\td\r\ne\u{fffd}f © 2024 ™ 😀 🇩🇪",
    "東京タワー 北京 한국어 テスト",
    "",
    "   \n\t ",
];

#[test]
fn fast_tokenizer_gives_the_reference_ids() {
    let m = model().unwrap();
    let long = "x".repeat(101) + " " + &"é".repeat(60) + " " + &"ab".repeat(50);
    let repeated = "graduation criteria kubernetes ".repeat(80);
    let golden: serde_json::Value = serde_json::from_str(GOLDEN).unwrap();
    let mut texts: Vec<String> = TRICKY.iter().map(|t| (*t).to_string()).collect();
    texts.extend([long, repeated]);
    for g in golden["texts"].as_array().unwrap() {
        texts.push(g["text"].as_str().unwrap().to_string());
    }
    let mut scratch = super::wordpiece::Scratch::default();
    for text in &texts {
        for limit in [512, 7, 1] {
            let want = reference_ids(super::VOCAB_TEXT, text, limit);
            assert_eq!(m.vocab.encode(text, limit), want, "{text:?} limit {limit}");
            // A warm cache (shared across texts) gives the same ids.
            let mut ids = Vec::new();
            m.vocab.encode_into(text, limit, &mut ids, &mut scratch);
            assert_eq!(ids, want, "{text:?} limit {limit}, warm cache");
        }
    }
}

proptest::proptest! {
    #[test]
    fn fast_tokenizer_matches_the_reference_on_any_text(text in "(\\PC|[ \t\n]|[A-Za-z]{1,12}|[\u{300}-\u{36f}]){0,40}") {
        let m = model().unwrap();
        proptest::prop_assert_eq!(
            m.vocab.encode(&text, 512),
            reference_ids(super::VOCAB_TEXT, &text, 512)
        );
    }
}
