//! Decoding an embedded tables file (layout in `build/bpe_tables.rs`) into `bpe`'s
//! count-only `BytePairEncoding`, through that type's own `Deserialize`.
//!
//! The decoder takes the file's bytes from a [`TableSource`]: the four tables of integers
//! are read element by element from a reader (no copy of them is held), the automaton is
//! taken whole. Each table is fetched only when the decoder reaches its field.

use std::borrow::Cow;
use std::io::Read;
use std::ops::Range;

use serde::Deserialize;
use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{
    DeserializeSeed, Deserializer, Error as _, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};

use bpe::byte_pair_encoding::BytePairEncoding;

/// First bytes of an embedded tables file (layout version 3, `build/bpe_tables.rs`).
pub const MAGIC: &[u8; 8] = b"SNBPE003";

/// Bytes of the header: [`MAGIC`], token count, pair count, automaton length, hash factor.
const HEADER: usize = 28;

/// Where the decoder takes the bytes of a tables file from.
pub trait TableSource {
    /// A reader of a byte range.
    type Reader<'s>: Read
    where
        Self: 's;
    /// Length of the file in bytes.
    fn len(&self) -> usize;
    /// The bytes of `range` whole, `None` when they cannot be read.
    fn bytes(&self, range: Range<usize>) -> Option<Cow<'_, [u8]>>;
    /// A reader of the bytes of `range`, `None` when it cannot be opened.
    fn reader(&self, range: Range<usize>) -> Option<Self::Reader<'_>>;
}

/// The embedded bytes themselves (their pages are touched through the mapping).
impl TableSource for &[u8] {
    type Reader<'s>
        = &'s [u8]
    where
        Self: 's;
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
    fn bytes(&self, range: Range<usize>) -> Option<Cow<'_, [u8]>> {
        self.get(range).map(Cow::Borrowed)
    }
    fn reader(&self, range: Range<usize>) -> Option<&[u8]> {
        self.get(range)
    }
}

/// How a table of integers is stored: little-endian `u32`s.
#[derive(Clone, Copy)]
enum Kind {
    /// `u32`s.
    U32s,
    /// `(u32, u32)` pairs.
    Pairs,
    /// A map `(u32, u32) → u32` as 12-byte entries.
    PairMap,
}

impl Kind {
    fn size(self) -> usize {
        match self {
            Self::U32s => 4,
            Self::Pairs => 8,
            Self::PairMap => 12,
        }
    }
}

/// One field of `BytePairEncoding` as the tables file holds it, fed to its `Deserialize`.
enum Field<'a, R> {
    /// `len` elements of a [`Kind`], read from `R`.
    Table(Kind, usize, R),
    /// Raw bytes (a serialized automaton).
    Bytes(Cow<'a, [u8]>),
    U64(u64),
    EmptySeq,
    EmptyMap,
    /// The table's bytes could not be read: decoding fails.
    Unread,
}

fn le32(b: [u8; 4]) -> u32 {
    u32::from_le_bytes(b)
}

/// The elements of one table, read as the decoder asks for them.
struct Elements<R> {
    reader: R,
    left: usize,
    /// A map entry's value, read with its key.
    value: u32,
}

impl<R: Read> Elements<R> {
    fn u32(&mut self) -> Result<u32, DeError> {
        let mut b = [0u8; 4];
        self.reader
            .read_exact(&mut b)
            .map_err(|e| DeError::custom(format!("reading a BPE table: {e}")))?;
        Ok(le32(b))
    }

    fn pair(&mut self) -> Result<SeqDeserializer<std::array::IntoIter<u32, 2>, DeError>, DeError> {
        Ok(SeqDeserializer::new([self.u32()?, self.u32()?].into_iter()))
    }

    /// Whether another element is there to read (and count it taken).
    fn take(&mut self) -> bool {
        let more = self.left > 0;
        self.left = self.left.saturating_sub(1);
        more
    }
}

/// [`Elements`] of a `U32s` or `Pairs` table, as a sequence.
struct Seq<R>(Elements<R>, Kind);

impl<'de, R: Read> SeqAccess<'de> for Seq<R> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        if !self.0.take() {
            return Ok(None);
        }
        match self.1 {
            Kind::Pairs => seed.deserialize(self.0.pair()?).map(Some),
            _ => seed
                .deserialize(self.0.u32()?.into_deserializer())
                .map(Some),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.left)
    }
}

/// [`Elements`] of a `PairMap` table, as a map.
struct Map<R>(Elements<R>);

impl<'de, R: Read> MapAccess<'de> for Map<R> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        if !self.0.take() {
            return Ok(None);
        }
        let key = self.0.pair()?;
        self.0.value = self.0.u32()?;
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        seed.deserialize(self.0.value.into_deserializer())
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.left)
    }
}

impl<'de, R: Read> Deserializer<'de> for Field<'_, R> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        match self {
            Self::Table(kind, len, reader) => {
                let elements = Elements {
                    reader,
                    left: len,
                    value: 0,
                };
                match kind {
                    Kind::PairMap => v.visit_map(Map(elements)),
                    _ => v.visit_seq(Seq(elements, kind)),
                }
            }
            Self::Bytes(b) => v.visit_bytes(&b),
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

impl<R: Read> IntoDeserializer<'_, DeError> for Field<'_, R> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

/// The count-only `BytePairEncoding` of the tables file `src` holds, `None` when it is not
/// one or a table cannot be read. At most one table's bytes are held beside the decoded
/// tables: the automaton's, while it is decoded.
pub fn decode<S: TableSource>(src: &S) -> Option<BytePairEncoding> {
    let len = src.len();
    let head = src.bytes(0..HEADER.min(len))?;
    if head.len() < HEADER || &head[..8] != MAGIC {
        return None;
    }
    let word = |at: usize| head.get(at..at + 4)?.try_into().ok().map(le32);
    let n = word(8)? as usize;
    let pairs = word(12)? as usize;
    let daac = word(16)? as usize;
    let hash_factor = u64::from_le_bytes(head.get(20..28)?.try_into().ok()?);
    drop(head);
    // File order, the order of the fields below: automaton, pair entries, split pairs,
    // token ends, next-prefix ids (a compressed source reads front to back).
    let mut at = HEADER;
    let mut next = |size: usize| {
        let r = at..at.checked_add(size)?;
        at = r.end;
        Some(r)
    };
    let longest = next(daac)?;
    let pair_lookup = next(pairs * 12)?;
    let split = next(n * 8)?;
    let starts = next((n + 1) * 4)?;
    let next_prefix = next(n * 4)?;
    if at != len {
        return None;
    }
    // The overlapping automata are never searched by counting; a one-pattern automaton
    // stands in for each.
    let tiny = aneubeck_daachorse::DoubleArrayAhoCorasick::<u32>::new(["\0"])
        .ok()?
        .serialize();
    let table = |kind: Kind, r: Range<usize>| {
        let len = r.len() / kind.size();
        src.reader(r)
            .map_or(Field::Unread, |reader| Field::Table(kind, len, reader))
    };
    // `BytePairEncoding`'s fields by name, fed as a map (its derived `Deserialize` takes the
    // fields in any order): the automaton first, while nothing else is decoded, so its bytes
    // and its decoded copy are the most memory the load holds at once (no more than the
    // loaded tables). Each table is fetched only when the decoder reaches its field (the
    // iterator is lazy) and dropped once it is decoded.
    let fields = (0..10).map(|i| match i {
        0 => (
            "longest_searcher",
            src.bytes(longest.clone())
                .map_or(Field::Unread, Field::Bytes),
        ),
        1 => ("pair_lookup", table(Kind::PairMap, pair_lookup.clone())),
        2 => ("split_table", table(Kind::Pairs, split.clone())),
        3 => ("token_starts", table(Kind::U32s, starts.clone())),
        4 => ("next_prefix_match", table(Kind::U32s, next_prefix.clone())),
        5 => (
            "overlapping_searcher",
            Field::Bytes(Cow::Borrowed(&tiny[..])),
        ),
        6 => (
            "overlapping_searcher_rev",
            Field::Bytes(Cow::Borrowed(&tiny[..])),
        ),
        7 => ("all_tokens", Field::EmptySeq),
        8 => ("bytes_hash_to_token", Field::EmptyMap),
        _ => ("hash_factor", Field::U64(hash_factor)),
    });
    let bpe = BytePairEncoding::deserialize(MapDeserializer::<_, DeError>::new(fields)).ok()?;
    (bpe.num_tokens() == n).then_some(bpe)
}
