//! A small, fast, non-cryptographic hasher (the Fx hash of rustc) for the index's build-time
//! maps of short keys (term → id; whole section texts are folded with foldhash, see
//! `fold.rs`), and [`pack8`], the packing of a short term into one
//! word that the stopword table and the term interner compare. Not DoS-resistant; only used
//! on local corpus text.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// `HashMap` with [`FxHasher`].
pub(crate) type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The Fx hash: `h = (h.rotl(5) ^ word) * SEED` over 8-byte words.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// The first `min(8, len)` bytes of `b`, little-endian, zero-padded. For `b.len() <= 8`
/// two terms of the same length are equal exactly when their packs are.
#[inline]
pub(crate) fn pack8(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 8 {
        return u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    }
    if n >= 4 {
        // Two overlapping 4-byte reads; the overlap holds the same bytes in both.
        let lo = u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let hi = u64::from(u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]));
        return lo | hi << (8 * (n - 4));
    }
    if n >= 2 {
        let lo = u64::from(u16::from_le_bytes([b[0], b[1]]));
        let hi = u64::from(u16::from_le_bytes([b[n - 2], b[n - 1]]));
        return lo | hi << (8 * (n - 2));
    }
    b.first().map_or(0, |&c| u64::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack8_keeps_the_first_bytes_in_order() {
        for n in 0..=12usize {
            let b: Vec<u8> = (1..=n as u8).collect();
            let mut want = [0u8; 8];
            let k = n.min(8);
            want[..k].copy_from_slice(&b[..k]);
            assert_eq!(pack8(&b), u64::from_le_bytes(want), "{n} bytes");
        }
    }

    #[test]
    fn distinguishes_short_strings() {
        let mut m: FxHashMap<&str, u32> = FxHashMap::default();
        for (i, w) in ["a", "b", "ab", "ba", "abcdefgh", "abcdefghi", ""]
            .iter()
            .enumerate()
        {
            m.insert(w, i as u32);
        }
        assert_eq!(m.len(), 7);
        assert_eq!(m.get("abcdefghi"), Some(&5));
    }
}
