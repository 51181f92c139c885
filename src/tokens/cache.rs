//! The count cache (docs/DESIGN.md §4): own-text token counts keyed by (encoding, content
//! hash), so a text is BPE-counted once per machine, not once per call.
//!
//! The key is the first 16 bytes of the SHA-256 of the text; the encoding picks the store
//! (one per BPE encoding; `bytes4` needs none). Texts that are byte-identical (folded
//! duplicates, a file reopened, a second CLI call) share one entry. Stores live in memory for
//! the process; after [`enable_disk`] (the CLI, the TUI and the MCP server call it, library
//! users and tests do not) each store is read lazily from and [`flush`]ed to
//! `<user cache dir>/counts-<encoding>.bin` (`~/.cache/skillnav` on Linux, moved by
//! `$XDG_CACHE_HOME`; see [`crate::util::paths::cache_dir`]).
//!
//! File layout (little-endian): [`MAGIC`] (16 bytes), format version `u32`, encoding-name
//! length `u8` and its bytes, entry count `u64`, then per entry the 16-byte key and the count
//! `u32`, then the first 16 bytes of the SHA-256 of everything before. A file whose magic,
//! version, encoding, length or checksum does not match is ignored as a whole (never
//! trusted) and replaced on the next flush. Writes go to a temporary file in the same folder
//! that is renamed over the old one, so a reader never sees half a file. Two processes
//! flushing at once: the last rename wins and the other's new entries are counted again
//! next time.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use sha2::{Digest, Sha256};

use super::Encoding;

/// A content key: the first 16 bytes of the SHA-256 of the text.
pub type Key = [u8; 16];

/// First bytes of every cache file.
pub const MAGIC: &[u8; 16] = b"skillnav-counts\n";

/// Version of the file layout described in the module doc.
const VERSION: u32 = 1;

/// Bytes per entry: key and `u32` count.
const ENTRY: usize = 16 + 4;

/// Most entries a flush keeps (20 MB of file); past it only the entries this process used
/// are written.
const MAX_ENTRIES: usize = 1 << 20;

/// The content key of `text`.
pub fn key(text: &str) -> Key {
    let d = Sha256::digest(text.as_bytes());
    let mut k = [0u8; 16];
    k.copy_from_slice(&d[..16]);
    k
}

/// One encoding's counts: `key → (tokens, used by this process)`.
#[derive(Default)]
struct Store {
    map: HashMap<Key, (u32, bool)>,
    /// Entries added since the last flush.
    dirty: bool,
}

#[derive(Default)]
struct State {
    /// The folder of the cache files, once enabled.
    dir: Option<PathBuf>,
    /// `[o200k_base, cl100k_base]`, `None` until first used.
    stores: [Option<Store>; 2],
}

fn state() -> &'static Mutex<State> {
    static STATE: OnceLock<Mutex<State>> = OnceLock::new();
    STATE.get_or_init(Default::default)
}

fn slot(encoding: Encoding) -> Option<usize> {
    match encoding {
        Encoding::O200kBase => Some(0),
        Encoding::Cl100kBase => Some(1),
        Encoding::Bytes4 => None,
    }
}

/// Persist counts under the user cache dir from now on (no-op when the platform has none).
/// Stores already in memory are merged with the file on the next [`flush`].
pub fn enable_disk() {
    if let Some(dir) = crate::util::paths::cache_dir()
        && let Ok(mut s) = state().lock()
    {
        s.dir = Some(dir);
    }
}

/// Whether persistence is on and `encoding`'s store holds counts (in memory, or a cache file
/// of that encoding exists; its contents are checked when it is read).
pub fn has_counts(encoding: Encoding) -> bool {
    let Some(i) = slot(encoding) else {
        return false;
    };
    let Ok(s) = state().lock() else { return false };
    match (&s.stores[i], &s.dir) {
        (Some(st), _) => !st.map.is_empty(),
        (None, Some(dir)) => file_path(dir, encoding).is_file(),
        (None, None) => false,
    }
}

/// The cache file of `encoding` in `dir`.
pub fn file_path(dir: &Path, encoding: Encoding) -> PathBuf {
    dir.join(format!("counts-{}.bin", encoding.as_str()))
}

/// The store of `i`, read from disk on first use when persistence is on.
fn store(s: &mut State, i: usize, encoding: Encoding) -> &mut Store {
    let dir = s.dir.clone();
    s.stores[i].get_or_insert_with(|| {
        let mut st = Store::default();
        if let Some(dir) = dir
            && let Ok(bytes) = std::fs::read(file_path(&dir, encoding))
            && let Some(entries) = decode(&bytes, encoding)
        {
            st.map = entries.into_iter().map(|(k, n)| (k, (n, false))).collect();
        }
        st
    })
}

/// The cached counts of `keys` in `encoding` (`None` per miss); marks hits as used.
pub fn lookup(encoding: Encoding, keys: &[Key]) -> Vec<Option<u64>> {
    let Some(i) = slot(encoding) else {
        return vec![None; keys.len()];
    };
    let Ok(mut s) = state().lock() else {
        return vec![None; keys.len()];
    };
    let st = store(&mut s, i, encoding);
    keys.iter()
        .map(|k| {
            st.map.get_mut(k).map(|e| {
                e.1 = true;
                u64::from(e.0)
            })
        })
        .collect()
}

/// Remember `counts` in `encoding` (counts past `u32::MAX` are not cached).
pub fn insert(encoding: Encoding, counts: &[(Key, u64)]) {
    let Some(i) = slot(encoding) else { return };
    let Ok(mut s) = state().lock() else { return };
    let st = store(&mut s, i, encoding);
    for (k, n) in counts {
        if let Ok(n) = u32::try_from(*n) {
            st.map.insert(*k, (n, true));
            st.dirty = true;
        }
    }
}

/// Write every store that gained entries to its file (when persistence is on), merged with
/// what the file holds now. Errors (read-only or full disk) leave the old file in place:
/// the cache is an optimisation, never a reason to fail.
pub fn flush() {
    let Ok(mut s) = state().lock() else { return };
    let Some(dir) = s.dir.clone() else { return };
    for (i, encoding) in [Encoding::O200kBase, Encoding::Cl100kBase]
        .into_iter()
        .enumerate()
    {
        let Some(st) = s.stores[i].as_mut() else {
            continue;
        };
        if !st.dirty {
            continue;
        }
        let path = file_path(&dir, encoding);
        if let Ok(bytes) = std::fs::read(&path)
            && let Some(entries) = decode(&bytes, encoding)
        {
            for (k, n) in entries {
                st.map.entry(k).or_insert((n, false));
            }
        }
        let keep_all = st.map.len() <= MAX_ENTRIES;
        let mut entries: Vec<(Key, u32)> = st
            .map
            .iter()
            .filter(|(_, (_, used))| keep_all || *used)
            .map(|(k, (n, _))| (*k, *n))
            .collect();
        entries.sort_unstable();
        if crate::util::paths::replace_cache_file(&dir, &path, &encode(&entries, encoding)).is_ok()
        {
            st.dirty = false;
        }
    }
}

/// The file bytes of `entries` in `encoding` (layout in the module doc).
pub fn encode(entries: &[(Key, u32)], encoding: Encoding) -> Vec<u8> {
    let name = encoding.as_str().as_bytes();
    let mut out = Vec::with_capacity(16 + 4 + 1 + name.len() + 8 + entries.len() * ENTRY + 16);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (k, n) in entries {
        out.extend_from_slice(k);
        out.extend_from_slice(&n.to_le_bytes());
    }
    let sum = Sha256::digest(&out);
    out.extend_from_slice(&sum[..16]);
    out
}

/// The entries of a cache file for `encoding`, or `None` when it is not exactly such a file
/// (another magic, version or encoding, a wrong length or checksum).
pub fn decode(bytes: &[u8], encoding: Encoding) -> Option<Vec<(Key, u32)>> {
    let name = encoding.as_str().as_bytes();
    let head = 16 + 4 + 1 + name.len() + 8;
    if bytes.len() < head + 16 || &bytes[..16] != MAGIC {
        return None;
    }
    let (body, sum) = bytes.split_at(bytes.len() - 16);
    if Sha256::digest(body)[..16] != *sum {
        return None;
    }
    if u32::from_le_bytes(body[16..20].try_into().ok()?) != VERSION
        || usize::from(body[20]) != name.len()
        || &body[21..21 + name.len()] != name
    {
        return None;
    }
    let count = u64::from_le_bytes(body[head - 8..head].try_into().ok()?);
    let rest = &body[head..];
    if usize::try_from(count).ok()?.checked_mul(ENTRY)? != rest.len() {
        return None;
    }
    rest.chunks_exact(ENTRY)
        .map(|c| {
            let k: Key = c[..16].try_into().ok()?;
            let n = u32::from_le_bytes(c[16..].try_into().ok()?);
            Some((k, n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back_and_any_flipped_byte_is_refused() {
        let entries = vec![(key("alpha"), 1), (key("beta gamma"), 3)];
        let bytes = encode(&entries, Encoding::O200kBase);
        assert_eq!(decode(&bytes, Encoding::O200kBase), Some(entries));
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x01;
            assert_eq!(decode(&bad, Encoding::O200kBase), None, "byte {i} flipped");
        }
        assert_eq!(decode(&bytes[..bytes.len() - 1], Encoding::O200kBase), None);
        assert_eq!(decode(b"", Encoding::O200kBase), None);
    }

    #[test]
    fn another_encodings_file_is_foreign() {
        let bytes = encode(&[(key("alpha"), 1)], Encoding::Cl100kBase);
        assert_eq!(decode(&bytes, Encoding::O200kBase), None);
        assert!(decode(&bytes, Encoding::Cl100kBase).is_some());
    }
}
