//! Our search tokenizer (docs/DESIGN.md §3), used for documents, queries and highlighting alike.
//!
//! Rules, in order:
//! - **Words** are maximal runs of Unicode letters/digits and `_`; a `.` is part of a word
//!   only *between* two word characters, so `app.get` and `c.req.param` stay whole while the
//!   trailing dot of `returned.` is not kept.
//! - Every word yields its **whole** form, lower-cased (`getUserById` → `getuserbyid`), then,
//!   when it has more than one piece, its **parts**: split at `.` and `_`, then at camel-case
//!   boundaries (lower/digit → upper, and the last capital of a capital run that starts a
//!   lower-case word: `HTTPServer` → `http`, `server`). Letters and digits are not split
//!   from each other (`base64`, `utf8`, `h2` stay whole).
//! - **Stopwords**: the 45 English words of lazytools' list (docs/FORMATS.md §2.5, without the
//!   Italian ones) plus pronouns, auxiliaries and contraction fragments, see [`STOPWORDS`]. A *whole* word equal to a stopword is dropped; *parts*
//!   of an identifier are always kept (`getUserById` keeps `by`).
//! - **CJK**: Han, Hiragana, Katakana and Hangul characters never join words; each maximal
//!   run of them yields each character (as a part) and the overlapping character bigrams
//!   (`東京都` → `東`, `東京`, `京`, `京都`, `都`), so a one-character word (`锁`) is found
//!   inside a longer run; a run of one character yields that character as a whole word.
//!   A query of several characters searches its bigrams only ([`super::query`] leaves the
//!   characters out), so `东京` does not match every `东`.
//! - Words longer than [`MAX_WORD_BYTES`] bytes (base64 blobs, minified code) are skipped,
//!   whole and parts.
//!
//! - **Unicode forms**: a word's terms are in NFC, and combining marks continue a word, so a
//!   decomposed `café` (`e` + U+0301, as macOS file names and some pastes spell it) is the same
//!   term as the composed one.
//!
//! Offsets are byte offsets into the original text (before lower-casing).

use std::ops::Range;

use unicode_normalization::UnicodeNormalization as _;

/// The stopwords dropped as whole words: the 45 English stopwords of lazytools' tokenizer
/// (docs/FORMATS.md §2.5), plus the words a question is made of rather than its subject: pronouns
/// (`i`, `my`, `you`, …), auxiliaries (`do`, `does`, `has`, `will`, …), `where`/`whom`/`whose`,
/// and the fragments a contraction splits into (`don't` → `don`, `t`; `it's` → `s`).
/// `give`, `get`, `not` are not stopwords. Sorted for binary search.
pub const STOPWORDS: [&str; 100] = [
    "a", "about", "am", "an", "and", "are", "aren", "as", "at", "be", "been", "being", "by", "can",
    "could", "couldn", "d", "did", "didn", "do", "does", "doesn", "doing", "don", "for", "from",
    "had", "hadn", "has", "hasn", "have", "haven", "having", "he", "her", "hers", "him", "his",
    "how", "i", "in", "into", "is", "isn", "it", "its", "ll", "m", "may", "me", "might", "must",
    "my", "of", "on", "or", "our", "re", "s", "shall", "she", "should", "shouldn", "t", "than",
    "that", "the", "their", "theirs", "them", "then", "there", "they", "this", "to", "us", "use",
    "used", "using", "ve", "was", "wasn", "we", "were", "weren", "what", "when", "where", "which",
    "who", "whom", "whose", "why", "will", "with", "won", "would", "wouldn", "you", "your",
];

/// Longest word (in bytes of the original text) that is indexed; longer runs are skipped.
pub const MAX_WORD_BYTES: usize = 128;

/// Whether `term` (already lower-case) is one of [`STOPWORDS`].
///
/// Runs once per token of every document, so it avoids string comparison: every stopword
/// has at most 8 bytes, packed little-endian into a `u64` (zero-padded; a term never holds a
/// NUL byte, so packing is one-to-one on terms of 1–8 bytes) and looked up in a constant
/// open-addressing table built at compile time.
#[inline]
pub fn is_stopword(term: &str) -> bool {
    let b = term.as_bytes();
    is_stopword_key(super::hash::pack8(b), b.len())
}

/// [`is_stopword`] of the term of `len` bytes whose [`super::hash::pack8`] is `key`.
#[inline]
fn is_stopword_key(key: u64, len: usize) -> bool {
    if len == 0 || len > 8 {
        return false;
    }
    let mut i = stop_slot(key);
    loop {
        match STOP_TABLE[i] {
            0 => return false,
            k if k == key => return true,
            _ => i = (i + 1) % STOP_TABLE.len(),
        }
    }
}

/// `s` (1–8 bytes) packed little-endian into a `u64`, zero-padded: the constant-time twin of
/// [`super::hash::pack8`].
const fn pack8(s: &str) -> u64 {
    let b = s.as_bytes();
    let mut w = 0u64;
    let mut i = 0;
    while i < b.len() && i < 8 {
        w |= (b[i] as u64) << (8 * i);
        i += 1;
    }
    w
}

/// Home slot of a packed key in [`STOP_TABLE`] (multiplicative hash, top 8 bits).
const fn stop_slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
}

/// [`STOPWORDS`] packed by [`pack8`] in a 256-slot linear-probing table (0 = empty; load
/// 100/256).
static STOP_TABLE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut k = 0;
    while k < STOPWORDS.len() {
        let key = pack8(STOPWORDS[k]);
        let mut i = stop_slot(key);
        while t[i] != 0 && t[i] != key {
            i = (i + 1) % 256;
        }
        t[i] = key;
        k += 1;
    }
    t
};

/// One token with its place in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Lower-cased term as indexed.
    pub term: String,
    /// Byte range of the token in the original text.
    pub range: Range<usize>,
    /// True for a part of a split identifier or a character of a CJK run of several, false
    /// for a whole word, a CJK bigram or a lone CJK character.
    pub part: bool,
}

/// A token as seen by [`scan`]: the term borrows a scratch buffer.
#[derive(Debug)]
pub(crate) struct RawToken<'a> {
    /// Lower-cased term.
    pub term: &'a str,
    /// Byte range in the original text.
    pub range: Range<usize>,
    /// Part of a split identifier.
    pub part: bool,
    /// A whole word that is a stopword (callers other than highlighting drop it).
    pub stop: bool,
    /// [`super::hash::pack8`] of `term`'s bytes, for the interner.
    pub key: u64,
}

/// The index terms of `text`, in text order (each whole word followed by its parts),
/// stopwords removed. Duplicates are kept (they are term frequencies).
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    scan(text, &mut |t| {
        if !t.stop {
            out.push(t.term.to_owned());
        }
    });
    out
}

/// Like [`tokenize`], with each token's byte range in `text` (for highlighting).
pub fn tokenize_with_offsets(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    scan(text, &mut |t| {
        if !t.stop {
            out.push(Token {
                term: t.term.to_owned(),
                range: t.range,
                part: t.part,
            });
        }
    });
    out
}

/// Han, Hiragana, Katakana (incl. half-width) and Hangul: characters that form bigrams.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF      // Hangul Jamo
        | 0x3040..=0x30FF    // Hiragana, Katakana
        | 0x3130..=0x318F    // Hangul Compatibility Jamo
        | 0x31F0..=0x31FF    // Katakana Phonetic Extensions
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul Syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F    // Half-width Katakana
        | 0x20000..=0x2FA1F) // CJK Extensions B–F, Compatibility Supplement
}

fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        c.is_alphanumeric() && !is_cjk(c)
    }
}

/// A combining mark that composes with the letter before it (a non-zero canonical combining
/// class: `e` + U+0301 is `é` in NFD): part of the word it follows. Variation selectors and
/// enclosing keycaps (class 0) still end a word.
fn is_mark(c: char) -> bool {
    // Every ASCII char has class 0; skipping the table lookup matters in the split loop.
    !c.is_ascii() && unicode_normalization::char::canonical_combining_class(c) != 0
}

/// `s` lower-cased, in NFC when it is not ASCII, into `buf`.
fn push_lower(buf: &mut String, s: &str) {
    buf.clear();
    if s.is_ascii() {
        buf.push_str(s);
        buf.make_ascii_lowercase();
    } else {
        buf.extend(s.chars().flat_map(char::to_lowercase).nfc());
    }
}

/// Walk `text` and call `f` for every token (stopwords included, flagged), in text order.
///
/// ASCII is handled on bytes: the word's end is found eight bytes at a time
/// ([`lower_run_end`]), a word of `a-z0-9` is its own term, and an ASCII identifier is
/// lower-cased once and split on bytes ([`emit_ascii_ident`]); only words holding a
/// non-ASCII char take the char-based path ([`emit_unicode_word`]).
pub(crate) fn scan<F: FnMut(RawToken<'_>)>(text: &str, f: &mut F) {
    let bytes = text.as_bytes();
    let mut buf = String::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match CLASS[b as usize] {
            OTHER | DOT => i += 1,
            LOWER => {
                // Most words are `a-z0-9` runs ended by a space or punctuation: each is its
                // own term, emitted here (the one call of `f` in this loop).
                let end = lower_run_end(bytes, i + 1);
                if !ends_plain_word(bytes, end) {
                    i = scan_word(text, i, &mut buf, f);
                    continue;
                }
                let len = end - i;
                if len <= MAX_WORD_BYTES {
                    let key = pack_at(bytes, i, len);
                    f(RawToken {
                        term: &text[i..end],
                        range: i..end,
                        part: false,
                        stop: is_stopword_key(key, len),
                        key,
                    });
                }
                i = end;
            }
            _ => i = scan_word(text, i, &mut buf, f),
        }
    }
}

/// Whether a run of `a-z0-9` ending at `end` is a whole word: the text ends there, or a
/// byte follows that is neither a word byte nor a dot joining a next word byte (an ASCII
/// non-word byte after a dot; a non-ASCII char is left to [`word_end`]).
#[inline]
fn ends_plain_word(bytes: &[u8], end: usize) -> bool {
    let class = |at: usize| bytes.get(at).map_or(OTHER, |&b| CLASS[b as usize]);
    match class(end) {
        OTHER => true,
        DOT => matches!(class(end + 1), OTHER | DOT),
        _ => false,
    }
}

/// The token or tokens starting at `i` (a word byte or the first byte of a non-ASCII char)
/// other than [`scan`]'s plain words; returns where scanning goes on. Out of line, and `f`
/// is called through `dyn` from here on, so the plain-word call in [`scan`] stays small.
#[inline(never)]
fn scan_word(text: &str, i: usize, buf: &mut String, f: &mut dyn FnMut(RawToken<'_>)) -> usize {
    let bytes = text.as_bytes();
    if bytes[i] < 0x80 {
        let (end, shape) = word_end(text, i);
        emit_word(text, i, end, shape, buf, f);
        return end;
    }
    let Some(c) = text[i..].chars().next() else {
        return text.len();
    };
    if is_cjk(c) {
        emit_cjk_run(text, i, f)
    } else if is_word_char(c) {
        let (end, shape) = word_end(text, i);
        emit_word(text, i, end, shape, buf, f);
        end
    } else {
        i + c.len_utf8()
    }
}

/// Byte classes for the ASCII fast path of [`scan`].
const OTHER: u8 = 0;
/// `a-z`, `0-9`.
const LOWER: u8 = 1;
/// `A-Z`, `_`.
const UPPER: u8 = 2;
const DOT: u8 = 3;
/// Any byte of a non-ASCII char.
const HIGH: u8 = 4;

const CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_lowercase() || c.is_ascii_digit() {
            LOWER
        } else if c.is_ascii_uppercase() || c == b'_' {
            UPPER
        } else if c == b'.' {
            DOT
        } else if c >= 0x80 {
            HIGH
        } else {
            OTHER
        };
        b += 1;
    }
    t
};

/// How much work a word needs: none (`a-z0-9` only), lower-casing its first byte only (one
/// leading ASCII capital, then `a-z0-9`), an ASCII split (other ASCII words: capitals
/// inside, `_`, `.`), or the char-based split (a non-ASCII char inside).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Plain,
    Capitalized,
    AsciiIdent,
    Unicode,
}

/// `b` in every byte of a `u64`.
const fn splat(b: u8) -> u64 {
    (b as u64) * 0x0101_0101_0101_0101
}

/// The high bit of every byte of `w` that is `a-z` or `0-9` (the [`LOWER`] class), no other
/// bit. Each test adds `0x80 - c` to the byte's low seven bits, which sets its high bit
/// exactly when the byte is at least `c` and never carries into the next byte.
#[inline]
fn lower_bytes(w: u64) -> u64 {
    let v = w & splat(0x7F);
    let at_least = |c: u8| v + splat(0x80 - c);
    let letters = at_least(b'a') & !at_least(b'z' + 1);
    let digits = at_least(b'0') & !at_least(b'9' + 1);
    (letters | digits) & !w & splat(0x80)
}

/// The eight bytes of `bytes` from `at`, little-endian, when there are eight.
#[inline]
fn load8(bytes: &[u8], at: usize) -> Option<u64> {
    let w: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

/// First index at or after `i` whose byte is not `a-z0-9`, eight bytes at a time.
#[inline]
fn lower_run_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(w) = load8(bytes, i) {
        let other = !lower_bytes(w) & splat(0x80);
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && CLASS[bytes[i] as usize] == LOWER {
        i += 1;
    }
    i
}

/// End (exclusive) of the word starting at `start` (a word character), and its [`Shape`].
fn word_end(text: &str, start: usize) -> (usize, Shape) {
    let bytes = text.as_bytes();
    let mut i = start;
    let mut shape = if bytes[start].is_ascii_uppercase() {
        i += 1;
        Shape::Capitalized
    } else {
        Shape::Plain
    };
    let mut ascii = true;
    while i < bytes.len() {
        // Most bytes of most words are `a-z0-9`.
        i = lower_run_end(bytes, i);
        let Some(&b) = bytes.get(i) else {
            break;
        };
        match CLASS[b as usize] {
            LOWER => i += 1,
            UPPER => {
                shape = Shape::AsciiIdent;
                i += 1;
            }
            DOT => match next_char(text, i + 1) {
                Some(c) if is_word_char(c) => {
                    shape = Shape::AsciiIdent;
                    i += 1;
                }
                _ => break,
            },
            OTHER => break,
            _ => match next_char(text, i) {
                Some(c) if is_word_char(c) || is_mark(c) => {
                    ascii = false;
                    i += c.len_utf8();
                }
                _ => break,
            },
        }
    }
    if !ascii {
        shape = Shape::Unicode;
    }
    (i, shape)
}

fn next_char(text: &str, at: usize) -> Option<char> {
    text.get(at..).and_then(|s| s.chars().next())
}

/// [`super::hash::pack8`] of the `len` bytes of `bytes` at `start`: one load and a mask when
/// eight bytes are there to read.
#[inline]
fn pack_at(bytes: &[u8], start: usize, len: usize) -> u64 {
    match load8(bytes, start) {
        Some(w) if len >= 8 => w,
        Some(w) => w & ((1u64 << (8 * len)) - 1),
        None => super::hash::pack8(&bytes[start..start + len]),
    }
}

fn emit_word(
    text: &str,
    start: usize,
    end: usize,
    shape: Shape,
    buf: &mut String,
    f: &mut dyn FnMut(RawToken<'_>),
) {
    let len = end - start;
    if len > MAX_WORD_BYTES {
        return;
    }
    let word = &text[start..end];
    match shape {
        Shape::Plain => {
            // A plain lower-case ASCII word is its own only part.
            let key = pack_at(text.as_bytes(), start, len);
            f(RawToken {
                term: word,
                range: start..end,
                part: false,
                stop: is_stopword_key(key, len),
                key,
            });
        }
        Shape::Capitalized => {
            // `Kubernetes`, `The`: only the first byte changes; one part only, so no split.
            let key = pack_at(text.as_bytes(), start, len) | 0x20;
            buf.clear();
            buf.push(char::from(word.as_bytes()[0].to_ascii_lowercase()));
            buf.push_str(&word[1..]);
            f(RawToken {
                term: buf,
                range: start..end,
                part: false,
                stop: is_stopword_key(key, len),
                key,
            });
        }
        Shape::AsciiIdent => emit_ascii_ident(word, start, buf, f),
        Shape::Unicode => emit_unicode_word(word, start, buf, f),
    }
}

/// Most parts a word of [`MAX_WORD_BYTES`] bytes can have (`a_a_…`).
const MAX_PARTS: usize = MAX_WORD_BYTES / 2 + 1;

/// Emit an ASCII word with capitals inside, `_` or `.`: the whole word lower-cased, then its
/// parts (as [`split_parts`] cuts them) as slices of that lower-cased copy.
fn emit_ascii_ident(word: &str, start: usize, buf: &mut String, f: &mut dyn FnMut(RawToken<'_>)) {
    let b = word.as_bytes();
    let mut parts = [(0u8, 0u8); MAX_PARTS];
    let mut n = 0;
    let mut seg = 0;
    let mut push = |from: usize, to: usize| {
        if n < MAX_PARTS {
            parts[n] = (from as u8, to as u8);
            n += 1;
        }
    };
    for i in 0..=b.len() {
        let cut = i == b.len() || b[i] == b'.' || b[i] == b'_';
        if !cut {
            // Camel case: a capital after a lower-case letter or a digit, or the last capital of
            // a capital run before a lower-case letter.
            if i > seg && b[i].is_ascii_uppercase() {
                let p = b[i - 1];
                let boundary = p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && b.get(i + 1).is_some_and(u8::is_ascii_lowercase));
                if boundary {
                    push(seg, i);
                    seg = i;
                }
            }
            continue;
        }
        if i > seg {
            push(seg, i);
        }
        seg = i + 1;
    }
    if n == 0 {
        // Only underscores (`___`): not a word.
        return;
    }
    buf.clear();
    buf.push_str(word);
    buf.make_ascii_lowercase();
    let lower: &str = buf;
    let key = super::hash::pack8(lower.as_bytes());
    f(RawToken {
        term: lower,
        range: start..start + b.len(),
        part: false,
        stop: is_stopword_key(key, b.len()),
        key,
    });
    if n == 1 && parts[0] == (0, b.len() as u8) {
        return;
    }
    for &(from, to) in &parts[..n] {
        let (from, to) = (usize::from(from), usize::from(to));
        let term = &lower[from..to];
        f(RawToken {
            term,
            range: start + from..start + to,
            part: true,
            stop: false,
            key: super::hash::pack8(term.as_bytes()),
        });
    }
}

/// Emit a word holding a non-ASCII char: parts cut on chars, terms lower-cased and in NFC.
fn emit_unicode_word(word: &str, start: usize, buf: &mut String, f: &mut dyn FnMut(RawToken<'_>)) {
    let end = start + word.len();
    let mut parts: [Range<usize>; 16] = Default::default();
    let mut n = 0;
    let mut overflow: Vec<Range<usize>> = Vec::new();
    split_parts(word, &mut |r| {
        if n < parts.len() {
            parts[n] = r;
            n += 1;
        } else {
            overflow.push(r);
        }
    });
    if n == 0 {
        return;
    }
    push_lower(buf, word);
    let key = super::hash::pack8(buf.as_bytes());
    f(RawToken {
        term: buf,
        range: start..end,
        part: false,
        stop: is_stopword_key(key, buf.len()),
        key,
    });
    if n == 1 && parts[0] == (0..word.len()) {
        return;
    }
    for r in parts[..n].iter().chain(overflow.iter()) {
        push_lower(buf, &word[r.clone()]);
        f(RawToken {
            term: buf,
            range: start + r.start..start + r.end,
            part: true,
            stop: false,
            key: super::hash::pack8(buf.as_bytes()),
        });
    }
}

/// Split a word into its parts (ranges relative to `word`): at `.`/`_`, then camel case.
fn split_parts<F: FnMut(Range<usize>)>(word: &str, f: &mut F) {
    let mut seg_start = 0;
    for (i, c) in word
        .char_indices()
        .chain(std::iter::once((word.len(), '.')))
    {
        if c == '.' || c == '_' {
            if i > seg_start {
                split_camel(&word[seg_start..i], seg_start, f);
            }
            seg_start = i + 1;
        }
    }
}

fn split_camel<F: FnMut(Range<usize>)>(seg: &str, offset: usize, f: &mut F) {
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut it = seg.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if let Some(p) = prev {
            let next = it.peek().map(|(_, n)| *n);
            let boundary = c.is_uppercase()
                && ((p.is_lowercase() || p.is_numeric())
                    || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase())));
            if boundary && i > start {
                f(offset + start..offset + i);
                start = i;
            }
        }
        // A combining mark belongs to the letter before it (`é` in NFD).
        if !is_mark(c) {
            prev = Some(c);
        }
    }
    if start < seg.len() {
        f(offset + start..offset + seg.len());
    }
}

/// Emit the characters and bigrams of the CJK run starting at `start`; return the run's end.
fn emit_cjk_run(text: &str, start: usize, f: &mut dyn FnMut(RawToken<'_>)) -> usize {
    let mut bounds: Vec<usize> = vec![start];
    let mut end = start;
    for c in text[start..].chars() {
        if !is_cjk(c) {
            break;
        }
        end += c.len_utf8();
        bounds.push(end);
    }
    let token = |r: Range<usize>, part: bool| RawToken {
        term: &text[r.clone()],
        key: super::hash::pack8(&text.as_bytes()[r.clone()]),
        range: r,
        part,
        stop: false,
    };
    if bounds.len() == 2 {
        f(token(start..end, false));
        return end;
    }
    // Each character (a part, so a query of several characters searches its bigrams
    // only), then the bigram it starts.
    for (k, w) in bounds.windows(2).enumerate() {
        f(token(w[0]..w[1], true));
        if let Some(&next) = bounds.get(k + 2) {
            f(token(w[0]..next, false));
        }
    }
    end
}

/// Whether `term` is one CJK character: from a run of several, a part that a query leaves
/// out (docs/DESIGN.md §3).
pub(crate) fn is_cjk_char(term: &str) -> bool {
    let mut cs = term.chars();
    cs.next().is_some_and(is_cjk) && cs.next().is_none()
}

#[cfg(test)]
#[path = "tokenize_reference.rs"]
mod reference;

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        tokenize(s)
    }

    #[test]
    fn nfd_and_nfc_spellings_are_one_term() {
        // `Café` and `CaféBar` composed (U+00E9) and decomposed (`e` + U+0301).
        let nfc = toks("Caf\u{e9} Caf\u{e9}Bar");
        let nfd = toks("Cafe\u{301} Cafe\u{301}Bar");
        assert_eq!(nfc, vec!["caf\u{e9}", "caf\u{e9}bar", "caf\u{e9}", "bar"]);
        assert_eq!(nfd, nfc);
        // Offsets stay in the original text.
        let t = tokenize_with_offsets("x cafe\u{301}!");
        assert_eq!(t.last().map(|t| t.range.clone()), Some(2..8));
    }

    #[test]
    fn stopwords_sorted_and_counted() {
        let mut sorted = STOPWORDS;
        sorted.sort_unstable();
        assert_eq!(sorted, STOPWORDS);
        assert!(STOPWORDS.iter().all(|w| w.len() <= 8 && is_stopword(w)));
        assert_eq!(
            STOP_TABLE.iter().filter(|&&k| k != 0).count(),
            STOPWORDS.len()
        );
        assert!(
            !is_stopword("give")
                && !is_stopword("get")
                && !is_stopword("not")
                && !is_stopword("de")
        );
    }

    #[test]
    fn stopword_table_agrees_with_the_sorted_list() {
        // Every stopword, its prefixes, extensions and near-misses: the packed table says
        // what a binary search of the list says.
        let mut probes: Vec<String> = vec![String::new(), "\u{e9}".into(), "a\u{301}".into()];
        for w in STOPWORDS {
            for cut in 0..=w.len() {
                probes.push(w[..cut].to_string());
            }
            probes.push(format!("{w}s"));
            probes.push(format!("{w}ab"));
            probes.push(format!("x{w}"));
            probes.push(w.to_uppercase());
        }
        probes.push("wouldnt".into());
        probes.push("abcdefghi".into());
        for p in &probes {
            assert_eq!(
                is_stopword(p),
                STOPWORDS.binary_search(&p.as_str()).is_ok(),
                "{p:?}"
            );
        }
    }

    #[test]
    fn question_words_pronouns_auxiliaries_and_contraction_fragments_are_stopwords() {
        assert_eq!(
            toks("How do I set my cookie? Where does it go, and what's it for?"),
            ["set", "cookie", "go"]
        );
        assert_eq!(toks("I don't see why it isn't cached"), ["see", "cached"]);
        // Parts of an identifier stay.
        assert_eq!(
            toks("doSomething has_key"),
            ["dosomething", "do", "something", "has_key", "has", "key"]
        );
    }

    #[test]
    fn camel_case_identifier() {
        assert_eq!(
            toks("getUserById"),
            ["getuserbyid", "get", "user", "by", "id"]
        );
    }

    #[test]
    fn snake_case_call() {
        assert_eq!(
            toks("parse_frontmatter()"),
            ["parse_frontmatter", "parse", "frontmatter"]
        );
    }

    #[test]
    fn dotted_member_access() {
        assert_eq!(toks("app.get"), ["app.get", "app", "get"]);
        assert_eq!(
            toks("c.req.param('id')"),
            ["c.req.param", "c", "req", "param", "id"]
        );
    }

    #[test]
    fn capital_run_then_word() {
        assert_eq!(toks("HTTPServer"), ["httpserver", "http", "server"]);
        assert_eq!(toks("HTTP2Server"), ["http2server", "http2", "server"]);
    }

    #[test]
    fn trailing_dot_and_ellipsis_are_not_words() {
        assert_eq!(toks("It returned. Then..."), ["returned"]);
        assert_eq!(toks("v1.3 base64"), ["v1.3", "v1", "3", "base64"]);
    }

    #[test]
    fn stopwords_dropped_only_as_whole_words() {
        assert_eq!(toks("The middleware for the app"), ["middleware", "app"]);
        assert_eq!(toks("is_copy"), ["is_copy", "is", "copy"]);
    }

    #[test]
    fn dunder_keeps_inner_part() {
        assert_eq!(toks("__init__"), ["__init__", "init"]);
        assert_eq!(toks("a ___ rule"), ["rule"]);
    }

    #[test]
    fn unicode_lowercase_and_letters() {
        assert_eq!(toks("Größe ÜBER straße"), ["größe", "über", "straße"]);
    }

    #[test]
    fn cjk_bigrams() {
        assert_eq!(
            toks("東京都に行く"),
            [
                "東", "東京", "京", "京都", "都", "都に", "に", "に行", "行", "行く", "く"
            ]
        );
        assert_eq!(toks("한국어 字"), ["한", "한국", "국", "국어", "어", "字"]);
        assert_eq!(toks("Hono框架"), ["hono", "框", "框架", "架"]);
    }

    #[test]
    fn offsets_point_into_original_text() {
        let t = tokenize_with_offsets("  İstanbul getX");
        let ranges: Vec<_> = t
            .iter()
            .map(|t| (t.term.as_str(), t.range.clone(), t.part))
            .collect();
        assert_eq!(
            ranges,
            [
                ("i\u{307}stanbul", 2..11, false),
                ("getx", 12..16, false),
                ("get", 12..15, true),
                ("x", 15..16, true)
            ]
        );
    }

    #[test]
    fn capitalized_words_fold_without_parts() {
        assert_eq!(toks("The Kubernetes API"), ["kubernetes", "api"]);
        assert_eq!(toks("Kubelet2 A1b"), ["kubelet2", "a1b"]);
        assert_eq!(
            toks("Ab_c Ab.c AbC"),
            ["ab_c", "ab", "c", "ab.c", "ab", "c", "abc", "ab", "c"]
        );
    }

    #[test]
    fn overlong_words_are_skipped() {
        let blob = "A".repeat(MAX_WORD_BYTES + 1);
        assert_eq!(toks(&format!("{blob} ok")), ["ok"]);
    }
}
