//! A term interner for index building: strings in one arena, ids `u32` in insertion order,
//! found through an open-addressing table (linear probing, power-of-two size, load ≤ 1/2).
//!
//! Lookups run once per token, so they avoid touching the arena: a slot holds the term's
//! first 8 bytes packed into a `u64` ([`super::hash::pack8`]), its length and 24 bits of its hash next to
//! its id. A term of at most 8 bytes (most words) is then found or rejected from the slot
//! alone; a longer one is compared against the arena only when its first 8 bytes, length and
//! hash bits all match. Packing reads overlapping fixed-size pieces instead of a
//! variable-length copy, and terms of at most 8 bytes hash with one multiply: a library
//! `memcpy`/`memcmp` call per lookup was a measurable share of build time.

use super::hash::pack8;

/// An empty slot's `meta` (no term has id `u32::MAX`: ids are below the term count).
const EMPTY: u64 = u64::MAX;
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// One table slot.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The term's first 8 bytes, [`pack8`].
    key: u64,
    /// `tag << 32 | id`, where `tag` is [`tag`] of the term; [`EMPTY`] when unused.
    meta: u64,
}

const FREE: Slot = Slot {
    key: 0,
    meta: EMPTY,
};

/// Interned terms.
#[derive(Debug)]
pub(crate) struct Interner {
    buf: Vec<u8>,
    /// Start of term `i` is `off[i]`, end `off[i + 1]`.
    off: Vec<usize>,
    table: Vec<Slot>,
    /// `64 - log2(table.len())`: the table index is the top bits of the hash.
    shift: u32,
}

impl Default for Interner {
    fn default() -> Self {
        Self {
            buf: Vec::new(),
            off: vec![0],
            table: vec![FREE; 1024],
            shift: 64 - 10,
        }
    }
}

/// The hash of term `b` whose first bytes pack to `key`: one multiply for terms of at most
/// 8 bytes, the Fx hash over 8-byte words for longer ones; the top bits are the home slot.
#[inline]
fn hash(b: &[u8], key: u64) -> u64 {
    let mut h = if b.len() <= 8 {
        key
    } else {
        let mut h: u64 = 0;
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            h = (h.rotate_left(5) ^ word(c)).wrapping_mul(SEED);
        }
        let rest = chunks.remainder();
        (h.rotate_left(5) ^ pack8(rest)).wrapping_mul(SEED)
    };
    h = (h.rotate_left(5) ^ b.len() as u64).wrapping_mul(SEED);
    h
}

/// The slot tag of a term of `len` bytes with hash `h`: 24 hash bits (mixed down from the
/// top) and the length (capped at 255) in the low byte.
#[inline]
fn tag(h: u64, len: usize) -> u64 {
    let mixed = (h ^ (h >> 29)) as u32;
    u64::from((mixed << 8) | len.min(255) as u32)
}

#[inline]
fn word(c: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(c);
    u64::from_le_bytes(w)
}

#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (mut ca, mut cb) = (a.chunks_exact(8), b.chunks_exact(8));
    for (x, y) in (&mut ca).zip(&mut cb) {
        if word(x) != word(y) {
            return false;
        }
    }
    ca.remainder()
        .iter()
        .zip(cb.remainder())
        .all(|(x, y)| x == y)
}

impl Interner {
    /// Number of terms.
    pub fn len(&self) -> usize {
        self.off.len() - 1
    }

    /// Term `id` (an id returned by [`Interner::intern`]).
    pub fn get(&self, id: u32) -> &str {
        let i = id as usize;
        std::str::from_utf8(&self.buf[self.off[i]..self.off[i + 1]]).unwrap_or("")
    }

    fn bytes(&self, id: u32) -> &[u8] {
        let i = id as usize;
        &self.buf[self.off[i]..self.off[i + 1]]
    }

    /// The id of `term`, adding it if new.
    #[inline]
    pub fn intern(&mut self, term: &str) -> u32 {
        self.intern_packed(term, pack8(term.as_bytes()))
    }

    /// [`Interner::intern`] of `term` whose [`pack8`] is `key` (the tokenizer packs every
    /// token as it cuts it). Inlined into the tokenizing loop: the lookup of a known term
    /// is a few instructions; adding a term is out of line.
    // Measured (docs/DESIGN.md §8): with plain `#[inline]` the lookup stayed a call per token.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn intern_packed(&mut self, term: &str, key: u64) -> u32 {
        let b = term.as_bytes();
        debug_assert_eq!(key, pack8(b));
        let h = hash(b, key);
        let want = tag(h, b.len()) << 32;
        let mask = self.table.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let slot = self.table[i];
            if slot.meta == EMPTY {
                return self.insert(i, b, key, want);
            }
            if slot.key == key
                && slot.meta & 0xFFFF_FFFF_0000_0000 == want
                && (b.len() <= 8 || same(self.bytes(slot.meta as u32), b))
            {
                return slot.meta as u32;
            }
            i = (i + 1) & mask;
        }
    }

    /// Add term `b` (packed `key`, tag `want`) at free slot `i`; returns its id.
    #[inline(never)]
    fn insert(&mut self, i: usize, b: &[u8], key: u64, want: u64) -> u32 {
        let id = self.len() as u32;
        self.buf.extend_from_slice(b);
        self.off.push(self.buf.len());
        self.table[i] = Slot {
            key,
            meta: want | u64::from(id),
        };
        if self.len() * 2 > self.table.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mut table = vec![FREE; size];
        self.shift -= 1;
        let mask = size - 1;
        for slot in std::mem::take(&mut self.table) {
            if slot.meta == EMPTY {
                continue;
            }
            let b = self.bytes(slot.meta as u32);
            let mut i = (hash(b, slot.key) >> self.shift) as usize;
            while table[i].meta != EMPTY {
                i = (i + 1) & mask;
            }
            table[i] = slot;
        }
        self.table = table;
    }

    /// Ids sorted by their term's bytes (the order of [`crate::index::bm25::Vocab`]).
    pub fn sorted_ids(&self) -> Vec<u32> {
        let prefix = |id: u32| {
            let mut w = [0u8; 8];
            let b = self.bytes(id);
            let n = b.len().min(8);
            w[..n].copy_from_slice(&b[..n]);
            u64::from_be_bytes(w)
        };
        let mut keyed: Vec<(u64, u32)> =
            (0..self.len() as u32).map(|id| (prefix(id), id)).collect();
        keyed.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| self.bytes(a.1).cmp(self.bytes(b.1)))
        });
        keyed.into_iter().map(|(_, id)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interns_and_grows() {
        let mut it = Interner::default();
        let words: Vec<String> = (0..5000).map(|i| format!("term{i}")).collect();
        let ids: Vec<u32> = words.iter().map(|w| it.intern(w)).collect();
        assert_eq!(ids, (0..5000).collect::<Vec<u32>>());
        assert_eq!(it.intern("term42"), 42);
        assert_eq!(it.get(4999), "term4999");
        assert_eq!(it.intern(""), 5000);
        assert_eq!(it.intern("ab\0"), 5001);
        assert_eq!(it.intern("ab"), 5002);
    }

    #[test]
    fn terms_alike_in_their_first_bytes_stay_apart() {
        let mut it = Interner::default();
        let words = [
            "abcdefgh",
            "abcdefghXY",
            "abcdefghYX",
            "abcdefghX",
            "abcdefg",
            "abcdefg\0",
            "a",
            "a\0",
            "\0",
            "",
            "abcdefghXYabcdefghXY",
            "abcdefghXYabcdefghXZ",
        ];
        let ids: Vec<u32> = words.iter().map(|w| it.intern(w)).collect();
        assert_eq!(ids, (0..words.len() as u32).collect::<Vec<u32>>());
        for (w, id) in words.iter().zip(&ids) {
            assert_eq!(it.intern(w), *id);
            assert_eq!(it.get(*id), *w);
        }
    }

    #[test]
    fn sorted_ids_follow_byte_order() {
        let mut it = Interner::default();
        for w in [
            "zeta",
            "alpha",
            "alphabetical",
            "alpha.",
            "b",
            "ünï",
            "abcdefgh1",
            "abcdefgh0",
        ] {
            it.intern(w);
        }
        let sorted: Vec<&str> = it.sorted_ids().into_iter().map(|id| it.get(id)).collect();
        assert_eq!(
            sorted,
            [
                "abcdefgh0",
                "abcdefgh1",
                "alpha",
                "alpha.",
                "alphabetical",
                "b",
                "zeta",
                "ünï"
            ]
        );
    }
}
