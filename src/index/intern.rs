//! A term interner for index building: strings in one arena, ids `u32` in insertion order,
//! found through an open-addressing table (linear probing, Fx hash, power-of-two size,
//! load ≤ 1/2). Short-key comparisons are done inline on 8-byte words: lookups run once per
//! token, so a library `memcmp` call per lookup was a measurable share of build time.

const EMPTY: u32 = u32::MAX;
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// Interned terms.
#[derive(Debug)]
pub(crate) struct Interner {
    buf: Vec<u8>,
    /// Start of term `i` is `off[i]`, end `off[i + 1]`.
    off: Vec<usize>,
    table: Vec<u32>,
    /// `64 - log2(table.len())`: the table index is the top bits of the hash.
    shift: u32,
}

impl Default for Interner {
    fn default() -> Self {
        Self {
            buf: Vec::new(),
            off: vec![0],
            table: vec![EMPTY; 1024],
            shift: 64 - 10,
        }
    }
}

#[inline]
fn fx(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ word(c)).wrapping_mul(SEED);
    }
    let rest = chunks.remainder();
    let mut w = [0u8; 8];
    w[..rest.len()].copy_from_slice(rest);
    h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(SEED);
    (h.rotate_left(5) ^ bytes.len() as u64).wrapping_mul(SEED)
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
        let b = term.as_bytes();
        let mask = self.table.len() - 1;
        let mut i = (fx(b) >> self.shift) as usize;
        loop {
            let id = self.table[i];
            if id == EMPTY {
                break;
            }
            if same(self.bytes(id), b) {
                return id;
            }
            i = (i + 1) & mask;
        }
        let id = self.len() as u32;
        self.buf.extend_from_slice(b);
        self.off.push(self.buf.len());
        self.table[i] = id;
        if self.len() * 2 > self.table.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        self.table = vec![EMPTY; size];
        self.shift -= 1;
        let mask = size - 1;
        for id in 0..self.len() as u32 {
            let mut i = (fx(self.bytes(id)) >> self.shift) as usize;
            while self.table[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.table[i] = id;
        }
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
