//! Build step: the count-only BPE tables of `o200k_base` and `cl100k_base`, written to
//! `OUT_DIR/<encoding>.bpe` and embedded by `src/tokens/tables.rs`.
//!
//! The source is `bpe-openai`'s own dictionary (its `BytePairEncoding`, serialized with
//! `MessagePack` and read back field by field here), so the tables are exactly the ones the
//! crate counts with. Kept: what the backtracking counter reads (token ends, the split table,
//! the pair lookup, the next-prefix table and the leftmost-longest automaton); left out:
//! the token bytes, the bytes → token hash and the two overlapping automata, which only
//! other encoders use. Layout (little-endian): [`MAGIC`], token count `n` `u32`, pair count
//! `p` `u32`, automaton length `u32`, hash factor `u64`, then the automaton bytes, `p` pair
//! entries `(u32, u32, u32)`, `n` split pairs `(u32, u32)`, `n + 1` token ends `u32` and `n`
//! next-prefix ids `u32` — the order the loader decodes them in, so it reads the file front
//! to back. The pair entries are ordered by the slot their FNV hash takes in the final hash
//! table, so filling the table at load time writes it front to back instead of at random (a
//! third of the load time otherwise); any order gives the same map.
//!
//! The file written is that layout compressed: [`PACKED_MAGIC`], the layout's length `u64`,
//! then its zstd frame (level 19, 128 KiB window: 40% of the bytes; the loader inflates while it
//! decodes, docs/DESIGN.md §4).

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// First bytes of the tables layout; the last digit is the layout version.
pub const MAGIC: &[u8; 8] = b"SNBPE003";

/// First bytes of the file written: the compressed layout (`Z1`: zstd); the last digit is the
/// layout version.
pub const PACKED_MAGIC: &[u8; 8] = b"SNBPZ113";

/// `bpe::byte_pair_encoding::BytePairEncoding`, field for field in its serde order.
#[derive(Deserialize)]
struct Mirror {
    _all_tokens: Vec<u8>,
    token_starts: Vec<u32>,
    _bytes_hash_to_token: HashMap<u32, u32>,
    split_table: Vec<(u32, u32)>,
    pair_lookup: HashMap<(u32, u32), u32>,
    longest_searcher: serde_bytes_vec::Bytes,
    _overlapping_searcher: serde_bytes_vec::Bytes,
    _overlapping_searcher_rev: serde_bytes_vec::Bytes,
    next_prefix_match: Vec<u32>,
    hash_factor: u64,
}

mod serde_bytes_vec {
    /// A `MessagePack` `bin` value.
    pub struct Bytes(pub Vec<u8>);

    impl<'de> serde::Deserialize<'de> for Bytes {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl serde::de::Visitor<'_> for V {
                type Value = Bytes;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                    Ok(Bytes(v.to_vec()))
                }
            }
            d.deserialize_bytes(V)
        }
    }
}

/// Where an encoding's full tables come from.
type Source = fn() -> &'static bpe_openai::Tokenizer;

/// Write `OUT_DIR/o200k_base.bpe` and `OUT_DIR/cl100k_base.bpe` unless they exist with this
/// layout version (`OUT_DIR` survives the reruns a new commit triggers).
///
/// # Errors
/// A message when the tables do not read back or `OUT_DIR` is not writable.
pub fn write_all(out_dir: &Path) -> Result<(), String> {
    let all: [(&str, Source); 2] = [
        ("o200k_base", bpe_openai::o200k_base),
        ("cl100k_base", bpe_openai::cl100k_base),
    ];
    for (name, tokenizer) in all {
        let path = out_dir.join(format!("{name}.bpe"));
        let current = std::fs::read(&path).is_ok_and(|b| b.starts_with(PACKED_MAGIC));
        if current {
            continue;
        }
        let mut packed = Vec::new();
        tokenizer()
            .bpe
            .serialize(&mut rmp_serde::Serializer::new(&mut packed))
            .map_err(|e| format!("{name}: serializing bpe-openai's tables: {e}"))?;
        let m: Mirror = rmp_serde::from_slice(&packed)
            .map_err(|e| format!("{name}: reading bpe-openai's tables back: {e}"))?;
        let bytes = encode(&m).ok_or_else(|| format!("{name}: inconsistent table sizes"))?;
        let bytes = pack(&bytes).map_err(|e| format!("{name}: compressing the tables: {e}"))?;
        let tmp = out_dir.join(format!("{name}.bpe.tmp"));
        std::fs::write(&tmp, bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `raw` compressed: [`PACKED_MAGIC`], `raw`'s length `u64`, its zstd frame (level 19, a
/// 128 KiB window: the decoder then holds 128 KiB, where level 19's default 8 MiB window
/// added 8 MiB to every count's peak for 5% smaller tables).
fn pack(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut out = Vec::with_capacity(raw.len() / 2);
    out.extend_from_slice(PACKED_MAGIC);
    out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    let mut z = zstd::stream::Encoder::new(out, 19)?;
    z.window_log(17)?;
    z.write_all(raw)?;
    z.finish()
}

/// FNV-1a (64-bit) of `(a, b)` as `Hash` feeds it to the `fnv` hasher: `a`'s then `b`'s
/// native-endian bytes.
fn fnv_pair((a, b): (u32, u32)) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in a.to_ne_bytes().into_iter().chain(b.to_ne_bytes()) {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn encode(m: &Mirror) -> Option<Vec<u8>> {
    let n = m.split_table.len();
    if m.token_starts.len() != n + 1 || m.next_prefix_match.len() != n {
        return None;
    }
    let mut pairs: Vec<((u32, u32), u32)> = m.pair_lookup.iter().map(|(k, v)| (*k, *v)).collect();
    let slots = (pairs.len() * 8 / 7).next_power_of_two() as u64 - 1;
    pairs.sort_unstable_by_key(|(k, _)| (fnv_pair(*k) & slots, *k));
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&u32::try_from(n).ok()?.to_le_bytes());
    out.extend_from_slice(&u32::try_from(pairs.len()).ok()?.to_le_bytes());
    out.extend_from_slice(
        &u32::try_from(m.longest_searcher.0.len())
            .ok()?
            .to_le_bytes(),
    );
    out.extend_from_slice(&m.hash_factor.to_le_bytes());
    out.extend_from_slice(&m.longest_searcher.0);
    for ((a, b), c) in &pairs {
        out.extend_from_slice(&a.to_le_bytes());
        out.extend_from_slice(&b.to_le_bytes());
        out.extend_from_slice(&c.to_le_bytes());
    }
    for (a, b) in &m.split_table {
        out.extend_from_slice(&a.to_le_bytes());
        out.extend_from_slice(&b.to_le_bytes());
    }
    for x in &m.token_starts {
        out.extend_from_slice(&x.to_le_bytes());
    }
    for x in &m.next_prefix_match {
        out.extend_from_slice(&x.to_le_bytes());
    }
    Some(out)
}
