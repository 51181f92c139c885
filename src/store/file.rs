//! The persisted index's file (docs/DESIGN.md §8 "Persisted index"), little-endian:
//! [`MAGIC`] (16 bytes); format version `u32`; the build that wrote it (length `u16` and its
//! bytes); the number of parts `u32`; per part its length `u64` and CRC-32 `u32`; the CRC-32
//! of the header so far `u32`; then the parts back to back: the manifest, the corpus's nodes
//! (with the key, the roots, the bundles and the lazy-summary ranges), the sources (path,
//! sizes, and each text's length and CRC-32), the texts (their bytes back to back), the BM25
//! index and the fuzzy index, each in postcard's serde layout but the texts. Parts are read
//! and decoded on two threads; the texts are not read at all: each stays in the file until
//! first used ([`crate::model::StoredText`]), its own CRC-32 checked then. A file whose
//! magic, version, build, lengths or checksums do not match is never trusted.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::manifest::Manifest;
use crate::index::{FuzzyIndex, Index};
use crate::model::{BundleStats, Corpus, Node, NodeId, Source, StoredText, read_at};

/// First bytes of every index file.
pub const MAGIC: &[u8; 16] = b"skillnav-index\n\0";

/// Version of the layout above and of the parts' shapes.
pub const VERSION: u32 = 3;

/// The build whose shapes the parts have (crate version and commit).
pub const BUILD: &str = env!("SKILLNAV_VERSION");

/// Parts of a file, in order.
const PARTS: usize = 6;

/// The corpus's nodes part: the arena, the roots, the bundles and `(node, from, to)` of
/// every node whose summary is made on first read.
#[derive(Serialize, Deserialize)]
pub struct Nodes {
    /// The node arena.
    pub nodes: Vec<Node>,
    /// The roots.
    pub roots: Vec<NodeId>,
    /// The lazytools bundles.
    pub bundles: Vec<(NodeId, Arc<BundleStats>)>,
    /// The lazy-summary ranges.
    pub lazy: Vec<(u32, u64, u64)>,
}

/// What a file holds past its manifest, decoded.
pub struct Decoded {
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
    /// It could not be opened or is not a file (the reason).
    Unreadable(String),
}

/// A source's entry in the sources part: everything but its text, and the text's length
/// and CRC-32 (the text itself is in the texts part, after the texts before it).
#[derive(Serialize, Deserialize)]
struct SourceMeta {
    abs_path: Option<std::path::PathBuf>,
    invalid_utf8: bool,
    size: u64,
    mtime: u64,
    len: u64,
    crc: u32,
}

impl SourceMeta {
    /// The entry of `s` (a text that is not held is not read: its length and CRC-32 are
    /// known).
    fn of(s: &Source) -> Self {
        let (len, crc) = s.len_crc();
        SourceMeta {
            abs_path: s.abs_path.clone(),
            invalid_utf8: s.invalid_utf8,
            size: s.size,
            mtime: s.mtime,
            len,
            crc,
        }
    }
}

/// Borrowed [`Nodes`], for writing.
#[derive(Serialize)]
struct NodesRef<'a> {
    nodes: &'a [Node],
    roots: &'a [NodeId],
    bundles: &'a [(NodeId, Arc<BundleStats>)],
    lazy: LazyRanges<'a>,
}

/// `(node, from, to)` of every node with a lazy summary, written straight from the nodes:
/// collected first, the ranges of 16 copies of `large` would be a 10 MB vector held while
/// the file is written.
struct LazyRanges<'a>(&'a [Node]);

impl LazyRanges<'_> {
    fn iter(&self) -> impl Iterator<Item = (u32, u64, u64)> + '_ {
        self.0.iter().enumerate().filter_map(|(i, n)| {
            let (from, to) = n.lazy_summary.as_ref()?.range();
            Some((u32::try_from(i).ok()?, from as u64, to as u64))
        })
    }
}

impl Serialize for LazyRanges<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq as _;
        let mut seq = s.serialize_seq(Some(self.iter().count()))?;
        for r in self.iter() {
            seq.serialize_element(&r)?;
        }
        seq.end()
    }
}

/// What a file is written from: the manifest (with the key), the corpus (with its lazy
/// summary ranges) and both indexes.
pub struct Contents<'a> {
    /// The manifest.
    pub manifest: &'a Manifest,
    /// The corpus.
    pub corpus: &'a Corpus,
    /// The BM25 index.
    pub index: &'a Index,
    /// The fuzzy index.
    pub fuzzy: &'a FuzzyIndex,
}

/// A writer that counts and checksums what passes through it, and keeps the first write
/// error (postcard reports any as a full buffer).
struct Summed<'w, W> {
    out: &'w mut W,
    len: u64,
    crc: crc32fast::Hasher,
    failed: Option<std::io::Error>,
}

impl<W: Write> Write for Summed<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf).inspect_err(|e| {
            if self.failed.is_none() {
                self.failed = Some(std::io::Error::new(e.kind(), e.to_string()));
            }
        })?;
        self.len += n as u64;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Write the file of `c` to `out`: room for the header first, then each part encoded
/// straight into `out` (no part is held in memory whole), then the header with the part
/// table. Errors: a value that serde cannot write, or a write error.
pub fn write<W: Write + Seek>(c: &Contents<'_>, out: &mut W) -> std::io::Result<()> {
    let head_len = 16 + 4 + 2 + BUILD.len().min(usize::from(u16::MAX)) + 4 + PARTS * 12 + 4;
    out.write_all(&vec![0u8; head_len])?;
    let mut table = Vec::with_capacity(PARTS);
    for i in 0..PARTS {
        let mut summed = Summed {
            out: &mut *out,
            len: 0,
            crc: crc32fast::Hasher::new(),
            failed: None,
        };
        if let Err(e) = write_part(c, i, &mut summed) {
            return Err(summed.failed.take().unwrap_or(e));
        }
        table.push((summed.len, summed.crc.finalize()));
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
    let head_crc = crc32fast::hash(&head);
    head.extend_from_slice(&head_crc.to_le_bytes());
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&head)?;
    out.flush()
}

/// Write part `i` of `c` (the order of the module doc) to `out`. Errors: a value that serde
/// cannot write, or a write error.
fn write_part<W: Write>(c: &Contents<'_>, i: usize, out: W) -> std::io::Result<()> {
    let sources = &c.corpus.sources;
    let encoded = match i {
        0 => postcard::to_io(c.manifest, out),
        1 => postcard::to_io(
            &NodesRef {
                nodes: &c.corpus.nodes,
                roots: &c.corpus.roots,
                bundles: &c.corpus.bundles,
                lazy: LazyRanges(&c.corpus.nodes),
            },
            out,
        ),
        2 => {
            let metas: Vec<SourceMeta> = sources.iter().map(SourceMeta::of).collect();
            postcard::to_io(&metas, out)
        }
        3 => return write_texts(sources, out),
        4 => postcard::to_io(c.index, out),
        _ => postcard::to_io(c.fuzzy, out),
    };
    encoded.map(drop).map_err(|e| match e {
        // postcard reports a write error as a full buffer.
        postcard::Error::SerializeBufferFull => {
            std::io::Error::other("the index file could not be written")
        }
        e => std::io::Error::other(e.to_string()),
    })
}

/// The texts part: every source's text, one after the other. A text that is not held is
/// read for the write and let go again. Errors: a write error, or a text that no longer
/// reads as it was loaded (its file changed since; the index would not match it).
fn write_texts<W: Write>(sources: &[Source], mut out: W) -> std::io::Result<()> {
    for s in sources {
        // A text that is not held is checked by its CRC-32 as it is read: one that no
        // longer reads as loaded comes back empty, so its length tells.
        let len = s.text_len();
        s.with_text(|t| {
            if t.len() != len {
                return Err(std::io::Error::other(format!(
                    "{} changed while it was indexed",
                    s.abs_path
                        .as_deref()
                        .map_or("a text".into(), |p| p.display().to_string())
                )));
            }
            out.write_all(t.as_bytes())
        })?;
    }
    Ok(())
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

/// Reads from a file and keeps what it read, for the header's checksum.
struct HeadReader<'f> {
    f: &'f mut File,
    seen: Vec<u8>,
}

impl HeadReader<'_> {
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Refused> {
        let a = read_array::<N>(self.f)?;
        self.seen.extend_from_slice(&a);
        Ok(a)
    }
}

/// The part table of the file open in `f`, its header checked: magic, then the header's
/// checksum, then version and build (another version or build is [`Refused::OtherVersion`];
/// a damaged header that still names this version is corrupt).
fn part_table(f: &mut File) -> Result<[Part; PARTS], Refused> {
    let size = f.metadata().map_err(|e| corrupt(e.to_string()))?.len();
    let mut r = HeadReader {
        f,
        seen: Vec::new(),
    };
    if r.array::<16>()? != *MAGIC {
        return Err(corrupt("not an index file"));
    }
    let version = u32::from_le_bytes(r.array()?);
    let len = usize::from(u16::from_le_bytes(r.array()?));
    let mut build = vec![0u8; len];
    r.f.read_exact(&mut build)
        .map_err(|_| corrupt("cut short"))?;
    r.seen.extend_from_slice(&build);
    let count = u32::from_le_bytes(r.array()?) as usize;
    let mut lens = Vec::with_capacity(PARTS);
    for _ in 0..count.min(PARTS) {
        let len = u64::from_le_bytes(r.array()?);
        lens.push((len, u32::from_le_bytes(r.array()?)));
    }
    let crc = u32::from_le_bytes(read_array(r.f)?);
    let damaged = crc != crc32fast::hash(&r.seen);
    let build = String::from_utf8_lossy(&build);
    if version != VERSION && (version <= 1000 || !damaged) {
        return Err(other_version(version, &build));
    }
    if damaged || count != PARTS {
        return Err(corrupt("damaged header"));
    }
    if build != BUILD {
        return Err(other_version(version, &build));
    }
    place_parts(r.seen.len() as u64 + 4, &lens, size)
}

fn other_version(version: u32, build: &str) -> Refused {
    let build: String = build.chars().take(64).collect();
    Refused::OtherVersion(format!(
        "format {version} of {}, this is format {VERSION} of {BUILD}",
        crate::util::sanitize::sanitize_line(&build)
    ))
}

/// Where each part of `lens` lies when the first starts at `offset` in a file of `size`
/// bytes. Errors: parts that do not end where the file does.
fn place_parts(mut offset: u64, lens: &[(u64, u32)], size: u64) -> Result<[Part; PARTS], Refused> {
    let mut parts = [Part {
        offset: 0,
        len: 0,
        crc: 0,
    }; PARTS];
    for (p, &(len, crc)) in parts.iter_mut().zip(lens) {
        *p = Part { offset, len, crc };
        offset = offset.saturating_add(len);
    }
    match offset.cmp(&size) {
        std::cmp::Ordering::Equal => Ok(parts),
        std::cmp::Ordering::Greater => Err(corrupt("cut short")),
        std::cmp::Ordering::Less => Err(corrupt("bytes after the last part")),
    }
}

/// Read part `p` of the open file `f`, its checksum verified, and decode it.
fn part<T: for<'de> Deserialize<'de>>(f: &File, p: Part, what: &str) -> Result<T, Refused> {
    let len = usize::try_from(p.len).map_err(|_| corrupt("cut short"))?;
    let mut bytes = vec![0u8; len];
    read_at(f, &mut bytes, p.offset).map_err(|_| corrupt("cut short"))?;
    if crc32fast::hash(&bytes) != p.crc {
        return Err(corrupt(format!("checksum mismatch in the {what}")));
    }
    postcard::from_bytes(&bytes).map_err(|e| corrupt(format!("{what}: {e}")))
}

/// An index file whose header and manifest were read and checked. Every part is read
/// through the one handle opened then, so a file renamed over the path meanwhile (another
/// process writing its index) is never mixed in.
pub struct Opened {
    file: Arc<File>,
    table: [Part; PARTS],
    /// The manifest.
    pub manifest: Manifest,
}

/// Open the index file at `path` and read its header and manifest. `Ok(None)` when there
/// is no such file. Errors: a file that cannot be read or is not trusted.
pub fn open(path: &Path) -> Result<Option<Opened>, Refused> {
    // The type first: opening a FIFO put in its place would wait for a writer forever.
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Err(Refused::Unreadable("not a regular file".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        _ => {}
    }
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Refused::Unreadable(e.to_string())),
    };
    if f.metadata().is_ok_and(|m| !m.is_file()) {
        return Err(Refused::Unreadable("not a regular file".into()));
    }
    let table = part_table(&mut f)?;
    let manifest = part(&f, table[0], "manifest")?;
    Ok(Some(Opened {
        file: Arc::new(f),
        table,
        manifest,
    }))
}

impl Opened {
    /// Decode everything past the manifest, on two threads: the fuzzy index and the nodes
    /// on this one, the BM25 index and the sources on the other. Errors: a part that is
    /// not trusted.
    pub fn decode(&self) -> Result<Decoded, Refused> {
        let [_, n, _, _, i, z] = self.table;
        let f: &File = &self.file;
        // The two indexes are read whole and then decoded; they go first, so their encoded
        // bytes are dropped before the nodes, the largest part, are decoded beside them.
        std::thread::scope(|scope| {
            let other = scope.spawn(|| -> Result<_, Refused> {
                let index: Index = part(f, i, "BM25 index")?;
                let sources = self.sources()?;
                Ok((sources, index))
            });
            let fuzzy: Result<FuzzyIndex, _> = part(f, z, "fuzzy index");
            let nodes = nodes_part(f, n);
            let (sources, index) = other
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p))?;
            Ok(Decoded {
                nodes: nodes?,
                sources,
                index,
                fuzzy: fuzzy?,
            })
        })
    }

    /// The sources, their texts left in the file (each read and checked on first use).
    /// Errors: a sources part that is not trusted, or text lengths that do not add up to
    /// the texts part.
    pub fn sources(&self) -> Result<Vec<Source>, Refused> {
        let metas: Vec<SourceMeta> = vec_part(&self.file, self.table[2], "sources")?;
        let texts = self.table[3];
        if metas.iter().map(|m| m.len).sum::<u64>() != texts.len {
            return Err(corrupt("the texts do not match the sources"));
        }
        // Read through once for the part's checksum (4 MiB at a time, nothing kept): a
        // damaged file is rebuilt now, not found out text by text later.
        verify_part(&self.file, texts, "texts")?;
        let file = Arc::clone(&self.file);
        let mut offset = texts.offset;
        let sources = metas
            .into_iter()
            .map(|m| {
                let stored = StoredText {
                    file: Arc::clone(&file),
                    offset,
                    len: m.len,
                    crc: m.crc,
                };
                offset += m.len;
                Source::stored(m.abs_path, stored, m.invalid_utf8, m.size, m.mtime)
            })
            .collect();
        Ok(sources)
    }
}

/// Bytes read from the file at a time while a vector part is decoded element by element.
const CHUNK: usize = 4 << 20;

/// A vector part read in [`CHUNK`]s and decoded one element at a time, so only the decoded
/// elements and one chunk are in memory (not the whole encoded part beside them); the
/// checksum covers every byte read and is verified before anything is returned.
struct VecPart<'f> {
    file: &'f File,
    /// Offset of the next byte to read.
    pos: u64,
    left: u64,
    crc: crc32fast::Hasher,
    buf: Vec<u8>,
    at: usize,
}

impl VecPart<'_> {
    /// Read up to [`CHUNK`] more bytes after the unread ones; false at the part's end.
    fn refill(&mut self) -> Result<bool, Refused> {
        if self.left == 0 {
            return Ok(false);
        }
        self.buf.drain(..self.at);
        self.at = 0;
        let n = usize::try_from(self.left).unwrap_or(usize::MAX).min(CHUNK);
        let old = self.buf.len();
        self.buf.resize(old + n, 0);
        read_at(self.file, &mut self.buf[old..], self.pos).map_err(|_| corrupt("cut short"))?;
        self.crc.update(&self.buf[old..]);
        self.left -= n as u64;
        self.pos += n as u64;
        Ok(true)
    }

    /// The next value, refilling as needed. Errors: bytes that are not a `T`.
    fn next<T: for<'de> Deserialize<'de>>(&mut self, what: &str) -> Result<T, Refused> {
        loop {
            let step = postcard::take_from_bytes::<T>(&self.buf[self.at..])
                .map(|(v, rest)| (v, rest.len()));
            match step {
                Ok((v, rest)) => {
                    self.at = self.buf.len() - rest;
                    return Ok(v);
                }
                Err(postcard::Error::DeserializeUnexpectedEnd) if self.refill()? => {}
                Err(e) => return Err(corrupt(format!("{what}: {e}"))),
            }
        }
    }
}

/// The next `Vec<T>` of `r`, decoded element by element.
fn vec_of<T: for<'de> Deserialize<'de>>(
    r: &mut VecPart<'_>,
    what: &str,
) -> Result<Vec<T>, Refused> {
    let n: usize = r.next(what)?;
    let mut out = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        out.push(r.next(what)?);
    }
    Ok(out)
}

/// Read part `p` of the file at `path`, a `Vec<T>`, through a [`VecPart`].
fn vec_part<T: for<'de> Deserialize<'de>>(
    f: &File,
    p: Part,
    what: &str,
) -> Result<Vec<T>, Refused> {
    streamed(f, p, what, |r| vec_of(r, what))
}

/// Bytes read at a time while a part is only checked (nothing of it kept).
const CHECK_CHUNK: usize = 256 << 10;

/// Check part `p`'s checksum, reading it [`CHECK_CHUNK`] bytes at a time and keeping none.
fn verify_part(f: &File, p: Part, what: &str) -> Result<(), Refused> {
    let mut buf = vec![
        0u8;
        usize::try_from(p.len)
            .unwrap_or(CHECK_CHUNK)
            .min(CHECK_CHUNK)
    ];
    let (mut pos, mut left) = (p.offset, p.len);
    let mut crc = crc32fast::Hasher::new();
    while left > 0 {
        let n = usize::try_from(left)
            .unwrap_or(CHECK_CHUNK)
            .min(CHECK_CHUNK);
        read_at(f, &mut buf[..n], pos).map_err(|_| corrupt("cut short"))?;
        crc.update(&buf[..n]);
        pos += n as u64;
        left -= n as u64;
    }
    if crc.finalize() != p.crc {
        return Err(corrupt(format!("checksum mismatch in the {what}")));
    }
    Ok(())
}

/// Fewest bytes one node takes in the nodes part (one byte per field at least).
const MIN_NODE_BYTES: u64 = 20;

/// The arena of `r`, node by node, in a vector sized once (the part's length bounds the
/// count a corrupt header may claim). A node on the path of its parent shares the parent's
/// path string, as a load makes them.
fn arena_of(r: &mut VecPart<'_>, part_len: u64, what: &str) -> Result<Vec<Node>, Refused> {
    let n: usize = r.next(what)?;
    let most = usize::try_from(part_len / MIN_NODE_BYTES).unwrap_or(usize::MAX);
    let mut out: Vec<Node> = Vec::with_capacity(n.min(most));
    for _ in 0..n {
        let mut node: Node = r.next(what)?;
        if let Some(parent) = node.parent.and_then(|p| out.get(p.ix()))
            && parent.path == node.path
        {
            node.path = parent.path.clone();
        }
        out.push(node);
    }
    Ok(out)
}

/// The nodes part, streamed: the arena element by element, then the small fields.
fn nodes_part(f: &File, p: Part) -> Result<Nodes, Refused> {
    let what = "nodes";
    streamed(f, p, what, |r| {
        Ok(Nodes {
            nodes: arena_of(r, p.len, what)?,
            roots: r.next(what)?,
            bundles: r.next(what)?,
            lazy: r.next(what)?,
        })
    })
}

/// Read part `p` of the open file `f` through a [`VecPart`] that `decode` consumes; the
/// checksum is verified over the whole part before the decoded value is returned.
fn streamed<R>(
    f: &File,
    p: Part,
    what: &str,
    decode: impl FnOnce(&mut VecPart<'_>) -> Result<R, Refused>,
) -> Result<R, Refused> {
    let mut r = VecPart {
        file: f,
        pos: p.offset,
        left: p.len,
        crc: crc32fast::Hasher::new(),
        buf: Vec::new(),
        at: 0,
    };
    let decoded = decode(&mut r);
    // The checksum first: a flipped byte is reported as what it is, not as the decoding
    // error it may have caused.
    let trailing = r.at != r.buf.len() || r.left > 0;
    while r.refill()? {}
    if r.crc.finalize() != p.crc {
        return Err(corrupt(format!("checksum mismatch in the {what}")));
    }
    let out = decoded?;
    if trailing {
        return Err(corrupt(format!("{what}: bytes after the last element")));
    }
    Ok(out)
}

/// Read and decode the whole file at `path` ([`open`], then [`Opened::decode`]).
#[cfg(test)]
fn read(path: &Path) -> Result<Option<(Manifest, Decoded)>, Refused> {
    let Some(o) = open(path)? else {
        return Ok(None);
    };
    let d = o.decode()?;
    Ok(Some((o.manifest, d)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, NodeKind};

    fn sample(dir: &Path) -> std::path::PathBuf {
        let (mut corpus, index, fuzzy) = (Corpus::new(), Index::default(), FuzzyIndex::default());
        let root = corpus.add_root(Node::new(NodeKind::Root, Format::Markdown, "r", ""));
        let mut section = Node::new(NodeKind::Section, Format::Markdown, "s", "a.md");
        section.lazy_summary = Some(Arc::new(crate::model::LazySummary::new(
            2,
            3,
            crate::formats::sections::summaries_of,
        )));
        corpus.add_child(root, section);
        let manifest = Manifest {
            key: "k".into(),
            ..Manifest::default()
        };
        let c = Contents {
            manifest: &manifest,
            corpus: &corpus,
            index: &index,
            fuzzy: &fuzzy,
        };
        let mut bytes = std::io::Cursor::new(Vec::new());
        write(&c, &mut bytes).unwrap();
        let p = dir.join("x.bin");
        std::fs::write(&p, bytes.into_inner()).unwrap();
        p
    }

    /// Write an index file of `corpus` (empty indexes and manifest) at `p`.
    fn write_corpus(corpus: &Corpus, p: &Path) {
        let (index, fuzzy, manifest) =
            (Index::default(), FuzzyIndex::default(), Manifest::default());
        let c = Contents {
            manifest: &manifest,
            corpus,
            index: &index,
            fuzzy: &fuzzy,
        };
        write(&c, &mut std::fs::File::create(p).unwrap()).unwrap();
    }

    #[test]
    fn an_encoded_file_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let (m, d) = read(&sample(dir.path())).unwrap().unwrap();
        assert_eq!((m.key.as_str(), m.started_ns), ("k", 0));
        assert_eq!(d.nodes.lazy, vec![(1, 2, 3)]);
        assert!(read(&dir.path().join("absent.bin")).unwrap().is_none());
    }

    #[test]
    fn source_texts_longer_than_a_read_chunk_read_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let texts = [
            "a".repeat(CHUNK + 123),
            "short".into(),
            "é".repeat(CHUNK / 3),
        ];
        let mut corpus = Corpus::new();
        corpus.sources = texts
            .iter()
            .map(|t| Source::virtual_text(t.clone()))
            .collect();
        let p = dir.path().join("big.bin");
        write_corpus(&corpus, &p);
        let (_, d) = read(&p).unwrap().unwrap();
        assert!(
            d.sources.iter().all(|s| !s.is_held()),
            "texts stay in the file"
        );
        let back: Vec<&str> = d.sources.iter().map(Source::text).collect();
        assert_eq!(back, texts.iter().map(String::as_str).collect::<Vec<_>>());
    }

    /// An index file of one real file `page.md` and one virtual text, in `dir`.
    fn two_texts(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
        let page = dir.join("page.md");
        std::fs::write(&page, "# Page\n\nfrom disk\n").unwrap();
        let meta = std::fs::metadata(&page).unwrap();
        let mtime = meta.modified().unwrap();
        let secs = mtime
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let mut corpus = Corpus::new();
        corpus.sources = vec![
            Source::from_bytes(
                Some(page.clone()),
                std::fs::read(&page).unwrap(),
                meta.len(),
                secs,
            ),
            Source::virtual_text("virtual words".into()),
        ];
        let p = dir.join("t.bin");
        write_corpus(&corpus, &p);
        (p, page)
    }

    /// Flip the first byte of `word` in the file at `p`, in place.
    fn flip(p: &Path, word: &[u8]) {
        let mut bytes = std::fs::read(p).unwrap();
        let at = bytes.windows(word.len()).position(|w| w == word).unwrap();
        bytes[at] ^= 0x20;
        std::fs::write(p, &bytes).unwrap();
    }

    #[test]
    fn a_damaged_texts_part_is_corrupt_and_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let (p, _) = two_texts(dir.path());
        flip(&p, b"virtual");
        assert_eq!(
            read(&p).err(),
            Some(corrupt("checksum mismatch in the texts"))
        );
    }

    #[test]
    fn a_text_damaged_after_the_open_is_read_from_its_file_instead_and_never_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let (p, page) = two_texts(dir.path());
        let (_, d) = read(&p).unwrap().unwrap();
        // The index file damaged in place while it is open (same inode).
        flip(&p, b"from disk");
        flip(&p, b"virtual");
        assert_eq!(d.sources[0].text(), "# Page\n\nfrom disk\n");
        assert_eq!(
            d.sources[1].text(),
            "",
            "a virtual text has no file to fall back on"
        );
        // A file that changed since is not taken either: the text is empty.
        let (_, d) = {
            let (p, _) = two_texts(dir.path());
            (0, read(&p).unwrap().unwrap().1)
        };
        flip(&p, b"from disk");
        std::fs::write(&page, "# Page\n\nchanged!!\n").unwrap();
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&page)
            .unwrap()
            .set_modified(later)
            .unwrap();
        assert_eq!(d.sources[0].text(), "");
    }

    #[test]
    fn stored_texts_count_as_held_ones_and_counting_does_not_hold_them() {
        use crate::tokens::{Encoding, TokenCounter, count_nodes};
        let dir = tempfile::tempdir().unwrap();
        let corpus =
            crate::model::testing::one_file_root("r", "# Title\n\nSome words to count here.\n");
        let p = dir.path().join("c.bin");
        write_corpus(&corpus, &p);
        let (_, d) = read(&p).unwrap().unwrap();
        let back = Corpus::from_parts(d.nodes.nodes, d.nodes.roots, d.sources, d.nodes.bundles);
        let ids: Vec<NodeId> = (0..back.len() as u32).map(NodeId).collect();
        for encoding in [Encoding::O200kBase, Encoding::Bytes4] {
            let counter = TokenCounter::new(encoding);
            let mut held = count_nodes(&corpus, counter, &ids);
            let mut stored = count_nodes(&back, counter, &ids);
            held.sort_unstable();
            stored.sort_unstable();
            assert_eq!(stored, held, "{encoding:?}");
            assert!(!held.is_empty());
        }
        assert!(!back.sources[0].is_held(), "counting let the text go again");
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
    fn a_damaged_header_is_corrupt_and_extra_bytes_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let p = sample(dir.path());
        let good = std::fs::read(&p).unwrap();
        for at in [20, 23, 40] {
            let mut bytes = good.clone();
            bytes[at] ^= 0xff;
            std::fs::write(&p, &bytes).unwrap();
            // Never "another version": the header's checksum says it is damaged (or a
            // damaged length runs past the end).
            let err = read(&p).err();
            assert!(
                err == Some(corrupt("damaged header")) || err == Some(corrupt("cut short")),
                "byte {at}: {err:?}"
            );
        }
        let mut longer = good.clone();
        longer.extend_from_slice(b"tail");
        std::fs::write(&p, &longer).unwrap();
        assert_eq!(read(&p).err(), Some(corrupt("bytes after the last part")));
        assert_eq!(
            read(dir.path()).err(),
            Some(Refused::Unreadable("not a regular file".into()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_index_file_is_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.bin");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(
            read(&p).err(),
            Some(Refused::Unreadable("not a regular file".into()))
        );
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
