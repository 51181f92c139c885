//! The persisted index's file (docs/DESIGN.md §8 "Persisted index"), little-endian:
//! [`MAGIC`] (16 bytes); format version `u32`; the build that wrote it (length `u16` and its
//! bytes); the number of parts `u32`; per part its length `u64` and CRC-32 `u32`; then the
//! parts back to back, each in postcard's serde layout: the manifest, the corpus's nodes
//! (with the key, the roots, the bundles and the lazy-summary ranges), its source texts, the
//! BM25 index and the fuzzy index. Parts are read and decoded on two threads. A file whose
//! magic, version, build, lengths or checksums do not match is never trusted.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::manifest::Manifest;
use crate::index::{FuzzyIndex, Index};
use crate::model::{BundleStats, Corpus, Node, NodeId, Source};

/// First bytes of every index file.
pub const MAGIC: &[u8; 16] = b"skillnav-index\n\0";

/// Version of the layout above and of the parts' shapes.
pub const VERSION: u32 = 1;

/// The build whose shapes the parts have (crate version and commit).
pub const BUILD: &str = env!("SKILLNAV_VERSION");

/// Parts of a file, in order.
const PARTS: usize = 5;

/// The corpus's nodes part: the key the file was written for (its name is a digest of it),
/// the arena, the roots, the bundles and `(node, from, to)` of every node whose summary is
/// made on first read.
#[derive(Serialize, Deserialize)]
pub struct Nodes {
    /// The key.
    pub key: String,
    /// The node arena.
    pub nodes: Vec<Node>,
    /// The roots.
    pub roots: Vec<NodeId>,
    /// The lazytools bundles.
    pub bundles: Vec<(NodeId, Arc<BundleStats>)>,
    /// The lazy-summary ranges.
    pub lazy: Vec<(u32, u64, u64)>,
}

/// What a file holds, decoded.
pub struct Decoded {
    /// The manifest.
    pub manifest: Manifest,
    /// The nodes part.
    pub nodes: Nodes,
    /// The source texts.
    pub sources: Vec<Source>,
    /// The BM25 index.
    pub index: Index,
    /// The fuzzy title index.
    pub fuzzy: FuzzyIndex,
}

/// Why a file was not trusted.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not an index file, cut short, or a checksum or decoding failure.
    Corrupt(String),
    /// Written by another format version or build.
    OtherVersion(String),
}

/// Borrowed [`Nodes`], for writing.
#[derive(Serialize)]
struct NodesRef<'a> {
    key: &'a str,
    nodes: &'a [Node],
    roots: &'a [NodeId],
    bundles: &'a [(NodeId, Arc<BundleStats>)],
    lazy: &'a [(u32, u64, u64)],
}

/// What a file is written from: the manifest, the key, the corpus, its lazy summary ranges
/// and both indexes.
pub struct Contents<'a> {
    /// The manifest.
    pub manifest: &'a Manifest,
    /// The key.
    pub key: &'a str,
    /// The corpus.
    pub corpus: &'a Corpus,
    /// `(node, from, to)` of every lazy summary.
    pub lazy: &'a [(u32, u64, u64)],
    /// The BM25 index.
    pub index: &'a Index,
    /// The fuzzy index.
    pub fuzzy: &'a FuzzyIndex,
}

/// Write the file of `c` to `out`: room for the header first, then each part as it is
/// encoded (one part in memory at a time), then the header with the part table. Errors: a
/// value that serde cannot write, or a write error.
pub fn write<W: Write + Seek>(c: &Contents<'_>, out: &mut W) -> std::io::Result<()> {
    let head_len = 16 + 4 + 2 + BUILD.len().min(usize::from(u16::MAX)) + 4 + PARTS * 12;
    out.write_all(&vec![0u8; head_len])?;
    let mut table = Vec::with_capacity(PARTS);
    for i in 0..PARTS {
        let part = encode_part(c, i).map_err(|e| std::io::Error::other(e.to_string()))?;
        table.push((part.len() as u64, crc32fast::hash(&part)));
        out.write_all(&part)?;
    }
    let mut head = Vec::with_capacity(head_len);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    let build = u16::try_from(BUILD.len()).unwrap_or(u16::MAX);
    head.extend_from_slice(&build.to_le_bytes());
    head.extend_from_slice(&BUILD.as_bytes()[..usize::from(build)]);
    head.extend_from_slice(&(PARTS as u32).to_le_bytes());
    for (len, crc) in table {
        head.extend_from_slice(&len.to_le_bytes());
        head.extend_from_slice(&crc.to_le_bytes());
    }
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&head)?;
    out.flush()
}

/// Part `i` of `c`, encoded (the order of the module doc). Errors: a value that serde
/// cannot write.
fn encode_part(c: &Contents<'_>, i: usize) -> Result<Vec<u8>, postcard::Error> {
    match i {
        0 => postcard::to_stdvec(c.manifest),
        1 => postcard::to_stdvec(&NodesRef {
            key: c.key,
            nodes: &c.corpus.nodes,
            roots: &c.corpus.roots,
            bundles: &c.corpus.bundles,
            lazy: c.lazy,
        }),
        2 => postcard::to_stdvec(&c.corpus.sources),
        3 => postcard::to_stdvec(c.index),
        _ => postcard::to_stdvec(c.fuzzy),
    }
}

/// Where one part lies: its offset and length in bytes and its checksum.
#[derive(Clone, Copy, Debug)]
struct Part {
    offset: u64,
    len: u64,
    crc: u32,
}

fn corrupt(why: impl Into<String>) -> Refused {
    Refused::Corrupt(why.into())
}

fn read_array<const N: usize>(r: &mut impl Read) -> Result<[u8; N], Refused> {
    let mut a = [0u8; N];
    r.read_exact(&mut a).map_err(|_| corrupt("cut short"))?;
    Ok(a)
}

/// The part table of the file open in `f`, its header checked.
fn part_table(f: &mut File) -> Result<[Part; PARTS], Refused> {
    let size = f.metadata().map_err(|e| corrupt(e.to_string()))?.len();
    if read_array::<16>(f)? != *MAGIC {
        return Err(corrupt("not an index file"));
    }
    let version = u32::from_le_bytes(read_array(f)?);
    let len = u16::from_le_bytes(read_array(f)?);
    let mut build = vec![0u8; usize::from(len)];
    f.read_exact(&mut build).map_err(|_| corrupt("cut short"))?;
    let build = String::from_utf8_lossy(&build);
    if version != VERSION || build != BUILD || u32::from_le_bytes(read_array(f)?) as usize != PARTS
    {
        return Err(Refused::OtherVersion(format!(
            "format {version} of {build}, this is format {VERSION} of {BUILD}"
        )));
    }
    let mut offset = (16 + 4 + 2 + usize::from(len) + 4 + PARTS * 12) as u64;
    let mut parts = [Part {
        offset: 0,
        len: 0,
        crc: 0,
    }; PARTS];
    for p in &mut parts {
        let len = u64::from_le_bytes(read_array(f)?);
        let crc = u32::from_le_bytes(read_array(f)?);
        *p = Part { offset, len, crc };
        offset = offset
            .checked_add(len)
            .ok_or_else(|| corrupt("cut short"))?;
    }
    if offset != size {
        return Err(corrupt("cut short"));
    }
    Ok(parts)
}

/// Read part `p` of the file at `path`, its checksum verified, and decode it.
fn part<T: for<'de> Deserialize<'de>>(path: &Path, p: Part, what: &str) -> Result<T, Refused> {
    let mut f = File::open(path).map_err(|e| corrupt(e.to_string()))?;
    f.seek(SeekFrom::Start(p.offset))
        .map_err(|e| corrupt(e.to_string()))?;
    let len = usize::try_from(p.len).map_err(|_| corrupt("cut short"))?;
    let mut bytes = vec![0u8; len];
    f.read_exact(&mut bytes).map_err(|_| corrupt("cut short"))?;
    if crc32fast::hash(&bytes) != p.crc {
        return Err(corrupt(format!("checksum mismatch in the {what}")));
    }
    postcard::from_bytes(&bytes).map_err(|e| corrupt(format!("{what}: {e}")))
}

/// Read and decode the whole file at `path`, on two threads: the manifest, the nodes and
/// the fuzzy index on one, the sources and the BM25 index on the other. Errors: a file
/// that cannot be opened (`NotFound` kept apart, as `Ok(None)`) or is not trusted.
pub fn read(path: &Path) -> Result<Option<Decoded>, Refused> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(corrupt(format!("cannot read it: {e}"))),
    };
    let [m, n, s, i, z] = part_table(&mut f)?;
    std::thread::scope(|scope| {
        let other = scope.spawn(|| -> Result<_, Refused> {
            let sources: Vec<Source> = part(path, s, "source texts")?;
            let index: Index = part(path, i, "BM25 index")?;
            Ok((sources, index))
        });
        let manifest: Result<Manifest, _> = part(path, m, "manifest");
        let nodes: Result<Nodes, _> = part(path, n, "nodes");
        let fuzzy: Result<FuzzyIndex, _> = part(path, z, "fuzzy index");
        let (sources, index) = other
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        Ok(Some(Decoded {
            manifest: manifest?,
            nodes: nodes?,
            sources,
            index,
            fuzzy: fuzzy?,
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(dir: &Path) -> std::path::PathBuf {
        let (corpus, index, fuzzy) = (Corpus::new(), Index::default(), FuzzyIndex::default());
        let manifest = Manifest::default();
        let c = Contents {
            manifest: &manifest,
            key: "k",
            corpus: &corpus,
            lazy: &[(1, 2, 3)],
            index: &index,
            fuzzy: &fuzzy,
        };
        let mut bytes = std::io::Cursor::new(Vec::new());
        write(&c, &mut bytes).unwrap();
        let p = dir.join("x.bin");
        std::fs::write(&p, bytes.into_inner()).unwrap();
        p
    }

    #[test]
    fn an_encoded_file_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let d = read(&sample(dir.path())).unwrap().unwrap();
        assert_eq!(d.manifest.started_ns, 0);
        assert_eq!((d.nodes.key.as_str(), d.nodes.lazy), ("k", vec![(1, 2, 3)]));
        assert!(read(&dir.path().join("absent.bin")).unwrap().is_none());
    }

    #[test]
    fn a_flipped_byte_or_a_cut_file_is_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let p = sample(dir.path());
        let good = std::fs::read(&p).unwrap();
        let mut bytes = good.clone();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x40;
        std::fs::write(&p, &bytes).unwrap();
        assert_eq!(
            read(&p).err(),
            Some(corrupt("checksum mismatch in the fuzzy index"))
        );
        std::fs::write(&p, &good[..good.len() - 3]).unwrap();
        assert_eq!(read(&p).err(), Some(corrupt("cut short")));
    }

    #[test]
    fn another_format_version_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = sample(dir.path());
        let mut bytes = std::fs::read(&p).unwrap();
        bytes[16] = bytes[16].wrapping_add(1);
        std::fs::write(&p, &bytes).unwrap();
        assert!(matches!(read(&p), Err(Refused::OtherVersion(_))));
    }
}
