//! The re-ranker's vector file (docs/DESIGN.md §3 "Re-rank"): section vectors kept across
//! calls, keyed by (model identity, content key), in `<user cache dir>/rerank-vectors.bin`
//! (`~/.cache/skillnav` on Linux, moved by `$XDG_CACHE_HOME`; see
//! [`crate::util::paths::cache_dir`]). all-MiniLM-L6-v2 is a bi-encoder: a section's vector
//! does not depend on the query, so a vector computed once stays right until the model or
//! the text changes.
//!
//! - **Model identity**: the SHA-256 of the encoder's settings that change a vector (the
//!   word-piece limit), `config.json` and `model.safetensors`, computed when the model is
//!   loaded ([`model_id`]). A file made by another model (or limit) is foreign.
//! - **Content key**: the first 16 bytes of the SHA-256 of the exact text the encoder is
//!   given (heading path, then the section's own text); a long section's later passages
//!   are keyed by [`passage_key`].
//! - **Layout** (little-endian): [`MAGIC`] (16 bytes), format version `u32`, the model
//!   identity (32 bytes), the vector length `u32`, the entry count `u64`, then per entry the
//!   16-byte key and its `f32` components, then the first 16 bytes of the SHA-256 of
//!   everything before. A file whose magic, version, model, length or checksum does not
//!   match is ignored as a whole and replaced by the next write.
//! - **Bound**: at most [`MAX_ENTRIES`] vectors (16 384: 25.4 MB at 384 dimensions). Entries
//!   are written most recently used first (the vectors this process used or made, then the
//!   file's other entries in their old order), so the oldest fall off the end.
//! - Writes go to a temporary file in the same folder renamed over the old one; the file is
//!   read again just before (its new entries from another process are kept). Errors leave
//!   the old file: the cache is an optimisation, never a reason to fail.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::{Digest, Sha256};

/// A content key: the first 16 bytes of the SHA-256 of the text.
pub type Key = [u8; 16];

/// A model identity: a SHA-256.
pub type ModelId = [u8; 32];

/// First bytes of every vector file.
pub const MAGIC: &[u8; 16] = b"skillnav-rerank\n";

/// Version of the layout described in the module doc.
const VERSION: u32 = 1;

/// Most vectors the file keeps (16 384 × (16 + 384 × 4) bytes = 25.4 MB).
pub const MAX_ENTRIES: usize = 16_384;

/// Header bytes before the first entry.
const HEAD: usize = 16 + 4 + 32 + 4 + 8;

/// The content key of `text`.
pub fn key(text: &str) -> Key {
    let d = Sha256::digest(text.as_bytes());
    let mut k = [0u8; 16];
    k.copy_from_slice(&d[..16]);
    k
}

/// The content key of passage `n` (0-based) of the text whose key is `text`: `text` itself
/// for the first passage (the vector a text had before sections were cut into passages),
/// else the first 16 bytes of the SHA-256 of `text` then `n` (`u64`, little-endian).
pub fn passage_key(text: Key, n: usize) -> Key {
    if n == 0 {
        return text;
    }
    let mut h = Sha256::new();
    h.update(text);
    h.update((n as u64).to_le_bytes());
    let d = h.finalize();
    let mut k = [0u8; 16];
    k.copy_from_slice(&d[..16]);
    k
}

/// The identity of a model: SHA-256 over `max_pieces` (as `u64`), then each part's length
/// (`u64`) and bytes (`config.json`, `model.safetensors`). [`ModelHasher`] computes the
/// same digest from parts read in pieces.
pub fn model_id(max_pieces: usize, parts: &[&[u8]]) -> ModelId {
    let mut h = ModelHasher::new(max_pieces);
    for p in parts {
        h.part(p.len() as u64);
        h.bytes(p);
    }
    h.finish()
}

/// [`model_id`] fed piece by piece: [`ModelHasher::part`] with a part's length in bytes,
/// then its bytes in any number of [`ModelHasher::bytes`] calls.
pub struct ModelHasher(Sha256);

impl ModelHasher {
    /// A hash of a model read with at most `max_pieces` word pieces.
    pub fn new(max_pieces: usize) -> Self {
        let mut h = Sha256::new();
        h.update((max_pieces as u64).to_le_bytes());
        ModelHasher(h)
    }

    /// Start a part of `len` bytes.
    pub fn part(&mut self, len: u64) {
        self.0.update(len.to_le_bytes());
    }

    /// More bytes of the current part.
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The identity.
    pub fn finish(self) -> ModelId {
        self.0.finalize().into()
    }
}

static DIR: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Keep vectors in the user cache dir from now on (no-op when the platform has none). The
/// CLI (and so the TUI and the MCP server) calls it; library users and tests do not.
pub fn enable_disk() {
    if let Some(dir) = crate::util::paths::cache_dir() {
        *DIR.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(dir);
    }
}

/// The vector file's folder, when [`enable_disk`] found one.
pub fn dir() -> Option<PathBuf> {
    DIR.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

/// The vector file in `dir`.
pub fn file_path(dir: &Path) -> PathBuf {
    dir.join("rerank-vectors.bin")
}

/// The file bytes of `entries` (all of length `dims`) for model `model`.
pub fn encode(model: &ModelId, dims: usize, entries: &[(Key, &[f32])]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEAD + entries.len() * (16 + dims * 4) + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(model);
    out.extend_from_slice(&(dims as u32).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (k, v) in entries {
        out.extend_from_slice(k);
        for x in v.iter().take(dims) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum[..16]);
    out
}

/// The entries of a vector file of model `model` with vectors of `dims`, in file order, or
/// `None` when it is not exactly such a file (another magic, version, model or length, a
/// wrong checksum).
pub fn decode(bytes: &[u8], model: &ModelId, dims: usize) -> Option<Vec<(Key, Vec<f32>)>> {
    if bytes.len() < HEAD + 16 || &bytes[..16] != MAGIC {
        return None;
    }
    let (body, sum) = bytes.split_at(bytes.len() - 16);
    if Sha256::digest(body)[..16] != *sum {
        return None;
    }
    if u32::from_le_bytes(body[16..20].try_into().ok()?) != VERSION
        || body[20..52] != model[..]
        || u32::from_le_bytes(body[52..56].try_into().ok()?) as usize != dims
    {
        return None;
    }
    let count = usize::try_from(u64::from_le_bytes(body[56..64].try_into().ok()?)).ok()?;
    let entry = 16 + dims * 4;
    let rest = &body[HEAD..];
    if count.checked_mul(entry)? != rest.len() {
        return None;
    }
    rest.chunks_exact(entry)
        .map(|c| {
            let k: Key = c[..16].try_into().ok()?;
            let v = c[16..]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            Some((k, v))
        })
        .collect()
}

/// The entries of the vector file in `dir` for `model` (empty when it is missing, foreign
/// or damaged).
pub fn read(dir: &Path, model: &ModelId, dims: usize) -> Vec<(Key, Vec<f32>)> {
    std::fs::read(file_path(dir))
        .ok()
        .and_then(|b| decode(&b, model, dims))
        .unwrap_or_default()
}

/// Replace the vector file in `dir` with `bytes` (a temporary file renamed over it).
pub fn write_atomic(dir: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::util::paths::replace_cache_file(dir, &file_path(dir), bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back_and_any_flipped_byte_is_refused() {
        let model = model_id(254, &[b"config", b"weights"]);
        let (a, b) = ([0.5f32, -1.0, 2.0], [0.0f32, 0.25, -0.125]);
        let entries = vec![(key("alpha"), &a[..]), (key("beta"), &b[..])];
        let bytes = encode(&model, 3, &entries);
        assert_eq!(bytes.len(), HEAD + 2 * (16 + 12) + 16);
        let back = decode(&bytes, &model, 3).unwrap();
        assert_eq!(
            back,
            vec![(key("alpha"), a.to_vec()), (key("beta"), b.to_vec())]
        );
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x01;
            assert_eq!(decode(&bad, &model, 3), None, "byte {i} flipped");
        }
        assert_eq!(decode(&bytes[..bytes.len() - 1], &model, 3), None);
        assert_eq!(decode(b"", &model, 3), None);
    }

    #[test]
    fn another_models_or_lengths_file_is_foreign() {
        let model = model_id(254, &[b"config", b"weights"]);
        let other = model_id(128, &[b"config", b"weights"]);
        assert_ne!(model, other);
        let v = [1.0f32, 0.0];
        let bytes = encode(&model, 2, &[(key("alpha"), &v[..])]);
        assert_eq!(decode(&bytes, &other, 2), None);
        assert_eq!(decode(&bytes, &model, 3), None);
        assert!(decode(&bytes, &model, 2).is_some());
    }
}
