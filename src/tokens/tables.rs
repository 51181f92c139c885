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

use std::borrow::Cow;
use std::ops::Range;

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{Deserializer, Error as _, IntoDeserializer, Visitor};

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
            let bpe = ExeTables::open(bytes)
                .and_then(|exe| decode_with(bytes.len(), |r| exe.read(r).map(Cow::Owned)))
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

/// Capacity of each table's read buffer ([`ExeTables::read`]): above glibc's largest dynamic
/// mmap threshold (32 MiB), so a buffer is a mapping of its own, unmapped when freed, and
/// freeing it does not raise the threshold (a raised one keeps the tables' memory resident
/// after release). Pages past the read bytes are never touched, so never resident.
const READ_CAPACITY: usize = 33 << 20;

/// The embedded tables read from the executable file (`/proc/self/exe`) at the offset where
/// they are mapped, one table at a time, so their pages are never touched through the
/// mapping: the kernel counts mapped file pages once read as resident memory of the process
/// until it exits, while a table's read buffer is freed as soon as that table is decoded
/// (docs/DESIGN.md §8). Why the file can be trusted: it is the one mapped (same inode), and
/// the kernel refuses writes to an executable while it runs (`ETXTBSY`), so its bytes are
/// the mapped ones; the ends check of [`ExeTables::open`] guards against a wrong offset.
struct ExeTables {
    file: std::fs::File,
    /// File offset of the embedded bytes' first byte.
    offset: u64,
}

impl ExeTables {
    /// The executable holding `bytes`; `None` off Linux, or when the mapping is not found or
    /// the file's bytes at that offset do not begin and end like `bytes`.
    fn open(bytes: &'static [u8]) -> Option<Self> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::MetadataExt;
            let file = std::fs::File::open("/proc/self/exe").ok()?;
            let inode = file.metadata().ok()?.ino();
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
            let exe = Self { file, offset };
            let ends = 64.min(bytes.len());
            let tail = bytes.len() - ends;
            let same_ends = exe.read(0..ends)?[..] == bytes[..ends]
                && exe.read(tail..bytes.len())?[..] == bytes[tail..];
            same_ends.then_some(exe)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = bytes;
            None
        }
    }

    /// The bytes `range` of the embedded tables, read from the file.
    fn read(&self, range: Range<usize>) -> Option<Vec<u8>> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::FileExt;
            let mut buf = Vec::with_capacity(range.len().max(READ_CAPACITY));
            buf.resize(range.len(), 0u8);
            self.file
                .read_exact_at(&mut buf, self.offset + range.start as u64)
                .ok()?;
            Some(buf)
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = range;
            None
        }
    }
}

/// How one field of `BytePairEncoding` is stored in the embedded tables.
#[derive(Clone, Copy)]
enum Kind {
    /// `u32`s, little-endian.
    U32s,
    /// `(u32, u32)` pairs.
    Pairs,
    /// A map `(u32, u32) → u32` as 12-byte entries.
    PairMap,
    /// Raw bytes (a serialized automaton).
    Bytes,
}

/// One field of `BytePairEncoding` as the embedded tables hold it, fed to its `Deserialize`.
enum Field<'a> {
    /// A stored table and its bytes (borrowed from the embedded tables, or read for this
    /// field alone and freed once it is decoded).
    Table(Kind, Cow<'a, [u8]>),
    U64(u64),
    EmptySeq,
    EmptyMap,
    /// The table's bytes could not be read: decoding fails.
    Unread,
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
            Self::Table(Kind::U32s, b) => {
                SeqDeserializer::new(b.chunks_exact(4).map(le32)).deserialize_any(v)
            }
            Self::Table(Kind::Pairs, b) => {
                SeqDeserializer::new(b.chunks_exact(8).map(pair)).deserialize_any(v)
            }
            Self::Table(Kind::PairMap, b) => {
                MapDeserializer::new(b.chunks_exact(12).map(|c| (pair(c), le32(&c[8..]))))
                    .deserialize_any(v)
            }
            Self::Table(Kind::Bytes, b) => v.visit_bytes(&b),
            Self::U64(x) => v.visit_u64(x),
            Self::EmptySeq => SeqDeserializer::new(std::iter::empty::<u32>()).deserialize_any(v),
            Self::EmptyMap => {
                MapDeserializer::new(std::iter::empty::<(u32, u32)>()).deserialize_any(v)
            }
            Self::Unread => Err(DeError::custom("a BPE table could not be read")),
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

/// Bytes of the header: [`MAGIC`], token count, pair count, automaton length, hash factor.
const HEADER: usize = 28;

/// The count-only `BytePairEncoding` of the embedded tables `bytes` read straight from
/// them (the mapped pages are touched), `None` when they are not a tables file.
fn decode(bytes: &[u8]) -> Option<BytePairEncoding> {
    decode_with(bytes.len(), |r| bytes.get(r).map(Cow::Borrowed))
}

/// The count-only `BytePairEncoding` of a tables file of `len` bytes (layout in
/// `build/bpe_tables.rs`) whose byte ranges `fetch` returns, `None` when it is not one. Each
/// table is fetched when the decoder reaches it and dropped once it is decoded, so at most
/// one table's bytes are held beside the decoded tables.
fn decode_with<'a>(
    len: usize,
    fetch: impl Fn(Range<usize>) -> Option<Cow<'a, [u8]>>,
) -> Option<BytePairEncoding> {
    let head = fetch(0..HEADER.min(len))?;
    if head.len() < HEADER || &head[..8] != MAGIC {
        return None;
    }
    let n = le32(&head[8..]) as usize;
    let pairs = le32(&head[12..]) as usize;
    let daac = le32(&head[16..]) as usize;
    let hash_factor = u64::from_le_bytes(head[20..28].try_into().ok()?);
    drop(head);
    // File order: token ends, split pairs, pair entries, next-prefix ids, automaton.
    let mut at = HEADER;
    let mut next = |size: usize| {
        let r = at..at.checked_add(size)?;
        at = r.end;
        Some(r)
    };
    let starts = next((n + 1) * 4)?;
    let split = next(n * 8)?;
    let pair_lookup = next(pairs * 12)?;
    let next_prefix = next(n * 4)?;
    let longest = next(daac)?;
    if at != len {
        return None;
    }
    // The overlapping automata are never searched by counting; a one-pattern automaton
    // stands in for each.
    let tiny = aneubeck_daachorse::DoubleArrayAhoCorasick::<u32>::new(["\0"])
        .ok()?
        .serialize();
    let table =
        |kind: Kind, r: Range<usize>| fetch(r).map_or(Field::Unread, |b| Field::Table(kind, b));
    // `BytePairEncoding`'s fields by name, fed as a map (its derived `Deserialize` takes the
    // fields in any order): the automaton first, while nothing else is decoded, so its read
    // buffer and its decoded copy are the most memory the load holds at once (no more than
    // the loaded tables). Each table is fetched only when the decoder reaches its field
    // (the iterator is lazy) and freed once it is decoded.
    let fields = (0..10).map(|i| match i {
        0 => ("longest_searcher", table(Kind::Bytes, longest.clone())),
        1 => ("pair_lookup", table(Kind::PairMap, pair_lookup.clone())),
        2 => ("split_table", table(Kind::Pairs, split.clone())),
        3 => ("token_starts", table(Kind::U32s, starts.clone())),
        4 => ("next_prefix_match", table(Kind::U32s, next_prefix.clone())),
        5 => (
            "overlapping_searcher",
            Field::Table(Kind::Bytes, Cow::Borrowed(&tiny[..])),
        ),
        6 => (
            "overlapping_searcher_rev",
            Field::Table(Kind::Bytes, Cow::Borrowed(&tiny[..])),
        ),
        7 => ("all_tokens", Field::EmptySeq),
        8 => ("bytes_hash_to_token", Field::EmptyMap),
        _ => ("hash_factor", Field::U64(hash_factor)),
    });
    let bpe = BytePairEncoding::deserialize(MapDeserializer::<_, DeError>::new(fields)).ok()?;
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
            let exe = ExeTables::open(bytes).unwrap();
            let copy = exe.read(0..bytes.len()).unwrap();
            assert_eq!(copy.len(), bytes.len());
            assert!(copy == bytes);
            // Read table by table, they decode to the same tables as the embedded bytes.
            let read = decode_with(bytes.len(), |r| exe.read(r).map(Cow::Owned)).unwrap();
            let direct = decode(bytes).unwrap();
            assert_eq!(read.num_tokens(), direct.num_tokens());
            let text = "Read table by table: naïve café — 渐进式披露 \r\n\n   x  tokens";
            assert_eq!(read.count(text.as_bytes()), direct.count(text.as_bytes()));
        }
    }

    #[test]
    fn a_table_that_cannot_be_read_fails_the_load() {
        // Every range but the header is unreadable: no tables, no panic.
        let failed = decode_with(O200K.len(), |r| {
            (r.start == 0).then(|| Cow::Borrowed(&O200K[r]))
        });
        assert!(failed.is_none());
    }

    #[test]
    fn a_damaged_tables_file_is_refused() {
        assert!(decode(&O200K[..O200K.len() - 1]).is_none());
        assert!(decode(b"SNBPE000").is_none());
        assert!(decode(b"").is_none());
    }
}
