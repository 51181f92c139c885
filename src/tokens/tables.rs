//! The count-only BPE tables of one encoding: `bpe`'s backtracking counter over the
//! tiktoken pre-tokenizer, loaded from tables embedded at build time (`build/bpe_tables.rs`
//! writes them from `bpe-openai`'s dictionary).
//!
//! Counting reads only part of a `BytePairEncoding`: token ends, the split table, the pair
//! lookup, the next-prefix table and the leftmost-longest automaton. The embedded tables hold
//! just those (about 13 MB for `o200k_base` instead of 32 MB) in a little-endian layout that
//! loads with a copy per table; the token bytes, the bytes → token hash and the two
//! overlapping automata (used by other encoders, never by counting) are left empty. The
//! result is therefore only ever asked to count. Counts equal tiktoken's (pinned by the
//! parity tests over real files, both encodings).
//!
//! The pre-tokenizer is `bpe-openai`'s rewrite of tiktoken's pattern (a negative look-ahead
//! becomes a second pattern whose last character is dropped from the match); the split loop
//! below does what its iterator does, with a search cache per worker instead of the regex's
//! shared pool, and a memo of piece counts (words repeat: a piece is BPE-counted once per
//! batch).

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{Deserializer, IntoDeserializer, Visitor};

use bpe::byte_pair_encoding::BytePairEncoding;

use super::Encoding;

/// First bytes of an embedded tables file (layout version 2, `build/bpe_tables.rs`).
const MAGIC: &[u8; 8] = b"SNBPE002";

/// Pieces up to this many bytes go through the memo (99.5% of the pieces of a large docs
/// tree); longer ones are counted directly.
const MEMO_PIECE: usize = 15;

/// Distinct pieces a memo holds before it starts over (bounds its memory, ~8 MB).
const MEMO_CAP: usize = 1 << 18;

static O200K: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.bpe"));
static CL100K: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.bpe"));

/// tiktoken's `o200k_base` pattern as `bpe-openai` rewrites it, and the two look-ahead parts.
fn o200k_patterns() -> [String; 3] {
    let pat1 = [
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
        "\\p{N}{1,3}",
        " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
        "\\s*[\\r\\n]+",
        "\\s+$",
    ]
    .join("|");
    [pat1, "\\s+\\s".to_string(), "\\s+".to_string()]
}

/// tiktoken's `cl100k_base` pattern as `bpe-openai` rewrites it.
fn cl100k_patterns() -> [String; 3] {
    [
        "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$".to_string(),
        "\\s+\\s".to_string(),
        "\\s+".to_string(),
    ]
}

/// Which of the three patterns ends in one look-ahead character (dropped from the match).
const LOOKAHEAD: [bool; 3] = [false, true, false];

/// The tables of one BPE encoding: counting only.
pub struct Tables {
    bpe: BytePairEncoding,
    pre: Regex,
}

/// Per-worker counting state: a search cache and the memo of short pieces' counts.
pub struct Session {
    cache: Cache,
    memo: FxHashMap<u128, u32>,
}

impl Tables {
    /// Load the tables of `encoding` (`None` for `bytes4`, or when the embedded tables do not
    /// read back: the callers then count with `bpe-openai`'s own tables).
    pub fn load(encoding: Encoding) -> Option<Self> {
        let (bytes, patterns) = match encoding {
            Encoding::O200kBase => (O200K, o200k_patterns()),
            Encoding::Cl100kBase => (CL100K, cl100k_patterns()),
            Encoding::Bytes4 => return None,
        };
        // The regex compiles on a second thread while the tables are copied.
        std::thread::scope(|s| {
            let pre = s.spawn(|| Regex::new_many(&patterns).ok());
            // Read through the executable file rather than its mapping where possible: the
            // mapped pages would stay resident for the rest of the process.
            let bpe = embedded_copy(bytes)
                .and_then(|copy| decode(&copy))
                .or_else(|| decode(bytes));
            let pre = pre.join().ok().flatten()?;
            Some(Self { bpe: bpe?, pre })
        })
    }

    /// A fresh per-worker state.
    pub fn session(&self) -> Session {
        Session {
            cache: self.pre.create_cache(),
            memo: FxHashMap::default(),
        }
    }

    /// Tokens of `text` (ordinary encoding), with the regex's shared cache and no memo.
    pub fn count(&self, text: &str) -> u64 {
        let mut n = 0u64;
        split(
            text,
            |input| self.pre.search(input),
            |piece| {
                n += self.bpe.count(piece.as_bytes()) as u64;
            },
        );
        n
    }

    /// Tokens of `text` with `session`'s cache and memo (the same number as [`Tables::count`]).
    pub fn count_in(&self, session: &mut Session, text: &str) -> u64 {
        let Session { cache, memo } = session;
        let mut n = 0u64;
        split(
            text,
            |input| self.pre.search_with(cache, input),
            |piece| {
                let Some(key) = memo_key(piece.as_bytes()) else {
                    n += self.bpe.count(piece.as_bytes()) as u64;
                    return;
                };
                if let Some(c) = memo.get(&key) {
                    n += u64::from(*c);
                    return;
                }
                let c = self.bpe.count(piece.as_bytes());
                if memo.len() >= MEMO_CAP {
                    memo.clear();
                }
                memo.insert(key, u32::try_from(c).unwrap_or(u32::MAX));
                n += c as u64;
            },
        );
        n
    }
}

/// The memo key of a piece of at most [`MEMO_PIECE`] bytes: its bytes little-endian with the
/// length in the top byte, so two pieces share a key only when they are equal.
fn memo_key(piece: &[u8]) -> Option<u128> {
    if piece.len() > MEMO_PIECE {
        return None;
    }
    let mut b = [0u8; 16];
    b[..piece.len()].copy_from_slice(piece);
    b[15] = piece.len() as u8;
    Some(u128::from_le_bytes(b))
}

/// `bpe-openai`'s split: the anchored match at the current position is the next piece; a
/// look-ahead pattern's last character is given back; no match ends the text.
fn split<'t>(
    text: &'t str,
    mut find: impl FnMut(&Input<'_>) -> Option<regex_automata::Match>,
    mut piece: impl FnMut(&'t str),
) {
    let mut last = 0;
    while last < text.len() {
        let rest = &text[last..];
        let input = Input::new(rest).anchored(Anchored::Yes);
        let Some(m) = find(&input) else { return };
        let mut end = m.range().end;
        if LOOKAHEAD.get(m.pattern().as_usize()) == Some(&true)
            && let Some(c) = rest[..end].chars().next_back()
            && end - c.len_utf8() > 0
        {
            end -= c.len_utf8();
        }
        if end == 0 {
            return;
        }
        piece(&rest[..end]);
        last += end;
    }
}

/// Capacity of [`embedded_copy`]'s buffer: above glibc's largest dynamic mmap threshold
/// (32 MiB), so the buffer is a mapping of its own, unmapped when freed, and freeing it does
/// not raise the threshold (a raised one keeps the tables' memory resident after release).
/// Pages past the copied bytes are never touched, so never resident.
const COPY_CAPACITY: usize = 33 << 20;

/// A copy of the embedded `bytes`, read from the executable file (`/proc/self/exe`) at the
/// offset where they are mapped, so their pages are never touched through the mapping: the
/// kernel counts mapped file pages once read as resident memory of the process until it
/// exits, while the copy is freed with the decoded tables (docs/DESIGN.md §8). `None` off
/// Linux, or when the mapping is not found or the copy's ends differ from the embedded
/// bytes' (callers then read the embedded bytes directly). Why the copy can be trusted: the
/// file is the one mapped (same inode), and the kernel refuses writes to an executable
/// while it runs (`ETXTBSY`), so its bytes are the mapped ones; the ends check guards
/// against a wrong offset.
fn embedded_copy(bytes: &'static [u8]) -> Option<Vec<u8>> {
    #[cfg(target_os = "linux")]
    {
        use std::io::{Read, Seek, SeekFrom};
        use std::os::unix::fs::MetadataExt;
        let mut exe = std::fs::File::open("/proc/self/exe").ok()?;
        let inode = exe.metadata().ok()?.ino();
        let addr = bytes.as_ptr().addr();
        let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
        // A line: `start-end perms offset dev inode path`.
        let offset = maps.lines().find_map(|line| {
            let mut f = line.split_whitespace();
            let (start, end) = f.next()?.split_once('-')?;
            let start = usize::from_str_radix(start, 16).ok()?;
            let end = usize::from_str_radix(end, 16).ok()?;
            let base = u64::from_str_radix(f.nth(1)?, 16).ok()?;
            let ino = f.nth(1)?.parse::<u64>().ok()?;
            (ino == inode && start <= addr && addr + bytes.len() <= end)
                .then(|| base + (addr - start) as u64)
        })?;
        exe.seek(SeekFrom::Start(offset)).ok()?;
        let mut copy = Vec::with_capacity(bytes.len().max(COPY_CAPACITY));
        copy.resize(bytes.len(), 0u8);
        exe.read_exact(&mut copy).ok()?;
        let ends = 64.min(bytes.len());
        let same_ends = copy[..ends] == bytes[..ends]
            && copy[copy.len() - ends..] == bytes[bytes.len() - ends..];
        same_ends.then_some(copy)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = bytes;
        None
    }
}

/// One field of `BytePairEncoding` as the embedded tables hold it, fed to its `Deserialize`.
enum Field<'a> {
    /// `u32`s, little-endian.
    U32s(&'a [u8]),
    /// `(u32, u32)` pairs.
    Pairs(&'a [u8]),
    /// A map `(u32, u32) → u32` as 12-byte entries.
    PairMap(&'a [u8]),
    /// Raw bytes (a serialized automaton).
    Bytes(&'a [u8]),
    U64(u64),
    EmptySeq,
    EmptyMap,
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn pair(b: &[u8]) -> SeqDeserializer<std::array::IntoIter<u32, 2>, DeError> {
    SeqDeserializer::new([le32(&b[..4]), le32(&b[4..8])].into_iter())
}

impl<'de> Deserializer<'de> for Field<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match self {
            Self::U32s(b) => SeqDeserializer::new(b.chunks_exact(4).map(le32)).deserialize_any(v),
            Self::Pairs(b) => SeqDeserializer::new(b.chunks_exact(8).map(pair)).deserialize_any(v),
            Self::PairMap(b) => {
                MapDeserializer::new(b.chunks_exact(12).map(|c| (pair(c), le32(&c[8..]))))
                    .deserialize_any(v)
            }
            Self::Bytes(b) => v.visit_bytes(b),
            Self::U64(x) => v.visit_u64(x),
            Self::EmptySeq => SeqDeserializer::new(std::iter::empty::<u32>()).deserialize_any(v),
            Self::EmptyMap => {
                MapDeserializer::new(std::iter::empty::<(u32, u32)>()).deserialize_any(v)
            }
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl IntoDeserializer<'_, DeError> for Field<'_> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

/// Cut `n` bytes off the front of `rest`.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if rest.len() < n {
        return None;
    }
    let (head, tail) = rest.split_at(n);
    *rest = tail;
    Some(head)
}

/// The count-only `BytePairEncoding` of an embedded tables file (layout in
/// `build/bpe_tables.rs`), `None` when it is not one.
fn decode(bytes: &[u8]) -> Option<BytePairEncoding> {
    let mut rest = bytes;
    if take(&mut rest, 8)? != MAGIC {
        return None;
    }
    let n = le32(take(&mut rest, 4)?) as usize;
    let pairs = le32(take(&mut rest, 4)?) as usize;
    let daac = le32(take(&mut rest, 4)?) as usize;
    let hash_factor = u64::from_le_bytes(take(&mut rest, 8)?.try_into().ok()?);
    let starts = take(&mut rest, (n + 1) * 4)?;
    let split = take(&mut rest, n * 8)?;
    let pair_lookup = take(&mut rest, pairs * 12)?;
    let next_prefix = take(&mut rest, n * 4)?;
    let longest = take(&mut rest, daac)?;
    if !rest.is_empty() {
        return None;
    }
    // The overlapping automata are never searched by counting; a one-pattern automaton
    // stands in for each.
    let tiny = aneubeck_daachorse::DoubleArrayAhoCorasick::<u32>::new(["\0"])
        .ok()?
        .serialize();
    // Field order of `BytePairEncoding`: all_tokens, token_starts, bytes_hash_to_token,
    // split_table, pair_lookup, longest_searcher, overlapping_searcher,
    // overlapping_searcher_rev, next_prefix_match, hash_factor.
    let fields = [
        Field::EmptySeq,
        Field::U32s(starts),
        Field::EmptyMap,
        Field::Pairs(split),
        Field::PairMap(pair_lookup),
        Field::Bytes(longest),
        Field::Bytes(&tiny),
        Field::Bytes(&tiny),
        Field::U32s(next_prefix),
        Field::U64(hash_factor),
    ];
    let bpe = BytePairEncoding::deserialize(SeqDeserializer::<_, DeError>::new(fields.into_iter()))
        .ok()?;
    (bpe.num_tokens() == n).then_some(bpe)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_tables_load_and_count_like_bpe_openai() {
        for (encoding, reference) in [
            (Encoding::O200kBase, bpe_openai::o200k_base()),
            (Encoding::Cl100kBase, bpe_openai::cl100k_base()),
        ] {
            let t = Tables::load(encoding).unwrap();
            let text = "Hello, world!  It's 2024: naïve café — 渐进式披露 \r\n\n   x";
            let expect = reference.count(text) as u64;
            assert_eq!(t.count(text), expect, "{encoding}");
            let mut s = t.session();
            assert_eq!(t.count_in(&mut s, text), expect, "{encoding}");
            // Memo hits give the same number again.
            assert_eq!(t.count_in(&mut s, text), expect, "{encoding}");
        }
        assert!(Tables::load(Encoding::Bytes4).is_none());
    }

    #[test]
    fn memo_keys_tell_every_short_piece_apart() {
        // A trailing NUL or a shorter prefix must not share a key.
        let pieces: [&[u8]; 6] = [b"", b"\0", b"a", b"a\0", b"ab", b"abcdefghijklmno"];
        let keys: Vec<u128> = pieces.iter().map(|p| memo_key(p).unwrap()).collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(memo_key(b"abcdefghijklmnop"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_tables_read_from_the_executable_equal_the_embedded_ones() {
        for bytes in [O200K, CL100K] {
            let copy = embedded_copy(bytes).unwrap();
            assert_eq!(copy.len(), bytes.len());
            assert!(copy == bytes);
        }
    }

    #[test]
    fn a_damaged_tables_file_is_refused() {
        assert!(decode(&O200K[..O200K.len() - 1]).is_none());
        assert!(decode(b"SNBPE000").is_none());
        assert!(decode(b"").is_none());
    }
}
