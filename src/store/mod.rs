//! The persisted index (docs/DESIGN.md §8 "Persisted index"): a loaded corpus with its BM25
//! and fuzzy indexes, kept per set of opened roots in the user cache folder
//! (`<cache>/index/<digest>.bin`, [`mod@file`]), with the [`manifest`] of what its load read.
//!
//! [`open`] gives a searchable corpus three ways: when every folder and file the last load
//! saw still has its recorded `stat`, the persisted one as it was (nothing is read again);
//! when some changed, a new load that takes the unchanged files' bytes from the persisted
//! corpus and reads only the changed ones; with no usable file, a full load. A file that
//! is corrupt or from another version is never trusted: it is rebuilt, with a warning.
//! [`Indexed::save`] writes the new state atomically; a cache folder that cannot be written
//! leaves the search in memory, with a warning.

pub mod file;
pub mod manifest;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::formats::walk::inputs;
use crate::index::{FuzzyIndex, Index};
use crate::model::{Corpus, LazySummary};
use file::Refused;
use manifest::Manifest;

/// Index files kept in the cache folder; the least recently written beyond this are removed.
pub const MAX_FILES: usize = 32;

/// Name prefix of an index file being written. A process that exits mid-write (the TUI
/// quit while its index was being saved) leaves one behind: [`sweep_partials`] removes
/// those older than [`PARTIAL_AGE`].
const PARTIAL_PREFIX: &str = ".partial-";

/// Age after which a partial index file is taken for abandoned (a write takes seconds).
const PARTIAL_AGE: std::time::Duration = std::time::Duration::from_secs(600);

/// The folder persisted indexes go to, once [`enable_disk`] was called.
static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// The user's index folder, `<cache dir>/index` (`None` when the platform has no cache dir).
pub fn user_dir() -> Option<PathBuf> {
    crate::util::paths::cache_dir().map(|d| d.join("index"))
}

/// Persist indexes in [`user_dir`] from now on: the CLI, the TUI and the MCP server call it,
/// library users and tests do not (no-op when the platform has no cache dir).
pub fn enable_disk() {
    if let Some(dir) = user_dir() {
        let _ = DIR.set(dir);
    }
}

/// The index files in `dir` (regular `*.bin` files) with their sizes in bytes (none when
/// `dir` cannot be read).
pub fn files_in(dir: &Path) -> Vec<(PathBuf, u64)> {
    regular_files(dir, |name| {
        Path::new(name).extension().is_some_and(|x| x == "bin") && !name.starts_with('.')
    })
}

/// The partial index files in `dir` (being written, or left by a process that quit while
/// writing) with their sizes in bytes.
pub fn partials_in(dir: &Path) -> Vec<(PathBuf, u64)> {
    regular_files(dir, |name| name.starts_with(PARTIAL_PREFIX))
}

/// The regular files of `dir` whose names pass `keep`, sorted, with their sizes.
fn regular_files(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<(PathBuf, u64)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(PathBuf, u64)> = rd
        .filter_map(Result::ok)
        .filter(|e| keep(&e.file_name().to_string_lossy()))
        .filter_map(|e| {
            let m = std::fs::metadata(e.path()).ok()?;
            m.is_file().then(|| (e.path(), m.len()))
        })
        .collect();
    files.sort();
    files
}

/// What [`clear`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cleared {
    /// Index files.
    pub files: usize,
    /// Partial index files (a write still running elsewhere then fails, with a warning).
    pub partials: usize,
}

/// Remove every index file and every partial one in `dir`. Errors: the first file that
/// cannot be removed, named.
pub fn clear(dir: &Path) -> std::io::Result<Cleared> {
    let (files, partials) = (files_in(dir), partials_in(dir));
    for (p, _) in files.iter().chain(&partials) {
        std::fs::remove_file(p).map_err(|e| {
            std::io::Error::new(e.kind(), format!("cannot remove {}: {e}", p.display()))
        })?;
    }
    Ok(Cleared {
        files: files.len(),
        partials: partials.len(),
    })
}

/// The temporary files of the index writes running in this process.
static WRITING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Remove the temporary files of the index writes still running in this process (the TUI
/// calls it when the user quits: its worker is not waited for).
pub fn abandon_writes() {
    let paths = std::mem::take(
        &mut *WRITING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    for p in paths {
        let _ = std::fs::remove_file(p);
    }
}

/// The folder for [`Request::new`]: `None` (nothing persisted) until [`enable_disk`].
pub fn dir() -> Option<PathBuf> {
    DIR.get().cloned()
}

/// Which persisted index a load uses: a key naming the roots and the load options, and the
/// folder its file lives in (`None`: nothing is persisted).
#[derive(Clone, Debug)]
pub struct Request {
    key: String,
    dir: Option<PathBuf>,
}

impl Request {
    /// The request for local `roots` (path and label each) loaded with `options` (any text
    /// that changes when a load option does), kept in `dir`; nothing is persisted when
    /// `dir` is `None` or a root cannot be resolved to a real path.
    pub fn new(roots: &[(PathBuf, String)], options: &str, dir: Option<PathBuf>) -> Self {
        let mut key = format!("options {options}\n");
        let mut dir = dir;
        for (path, label) in roots {
            match std::fs::canonicalize(path) {
                Ok(real) => key.push_str(&format!("root {} as {label}\n", real.display())),
                Err(_) => dir = None,
            }
        }
        Self { key, dir }
    }

    /// The index file's path: the first 16 bytes of the key's SHA-256, in hex.
    fn path(&self) -> Option<PathBuf> {
        let digest = Sha256::digest(self.key.as_bytes());
        let name = digest[..16]
            .iter()
            .fold(String::with_capacity(32), |mut name, b| {
                use std::fmt::Write as _;
                let _ = write!(name, "{b:02x}");
                name
            });
        Some(self.dir.as_ref()?.join(format!("{name}.bin")))
    }
}

/// How [`open`] made its corpus searchable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// Loaded and indexed from the files (no usable persisted index).
    Built,
    /// The persisted index, unchanged: no file was read.
    Reused,
    /// Loaded again with `read` files read from disk and `reused` taken from the persisted
    /// corpus.
    Updated {
        /// Files read from disk.
        read: usize,
        /// Files whose bytes came from the persisted corpus.
        reused: usize,
    },
}

/// A searchable corpus from [`open`], with what is left to persist.
pub struct Indexed {
    /// The corpus.
    pub corpus: Corpus,
    /// Its BM25 index (no semantic signal or re-ranker attached).
    pub index: Index,
    /// Its fuzzy title index.
    pub fuzzy: FuzzyIndex,
    /// How it was made.
    pub how: How,
    /// Problems with the persisted index, one line each (for stderr).
    pub warnings: Vec<String>,
    pending: Option<Pending>,
}

/// Make the roots of `req` searchable: the persisted index when nothing changed, else
/// `load()` (which must load exactly the roots of `req`) with the unchanged files' bytes
/// served from the persisted corpus, indexed anew. After a full load the files' texts are
/// let go ([`Corpus::spill_texts`]): they are read again from the files when needed.
pub fn open(req: &Request, load: impl FnOnce() -> Corpus) -> Indexed {
    let loading = match begin(req) {
        Begun::Reused(indexed) => return *indexed,
        Begun::Load(loading) => loading,
    };
    // A full load reads every file: its texts are let go as they are sectioned and after
    // the load, and indexing reads them again one file at a time (docs/DESIGN.md §8
    // "Memory"). An updated load takes most texts from the persisted index instead, and
    // keeps them.
    let full = loading.is_full();
    let mut corpus = if full {
        crate::formats::walk::spill::while_spilling(load)
    } else {
        load()
    };
    let loaded = loading.finish();
    if full {
        corpus.spill_texts();
    }
    // The load's freed texts and scratch, then the index build's, go back to the system
    // before the next phase grows (docs/DESIGN.md §8 "Memory").
    crate::util::memory::trim();
    let index = Index::build(&corpus, &mut |_, _| {});
    crate::util::memory::trim();
    let fuzzy = FuzzyIndex::build(&corpus);
    Indexed {
        corpus,
        index,
        fuzzy,
        how: loaded.how,
        warnings: loaded.warnings,
        pending: loaded.pending,
    }
}

/// What [`begin`] found for a request.
pub enum Begun {
    /// The persisted index, unchanged ([`How::Reused`]; nothing to save).
    Reused(Box<Indexed>),
    /// The roots must be loaded: load them, then call [`Loading::finish`].
    Load(Loading),
}

/// A load [`begin`] started: until [`Loading::finish`], the loaders record what they read
/// and take unchanged files' bytes from the persisted corpus.
pub struct Loading {
    /// `None` when nothing is persisted: then nothing is recorded either.
    recording: Option<inputs::Recording>,
    started: u64,
    updated: bool,
    key: String,
    path: Option<PathBuf>,
    warnings: Vec<String>,
}

/// What a finished [`Loading`] leaves: how the corpus was made, the warnings about the
/// persisted index, and what [`save`] needs once the corpus is indexed.
pub struct Loaded {
    /// [`How::Built`] or [`How::Updated`].
    pub how: How,
    /// Problems with the persisted index, one line each.
    pub warnings: Vec<String>,
    /// The file to write and its manifest (`None`: nothing is persisted).
    pub pending: Option<Pending>,
}

/// The index file a load goes to and the manifest of what it read.
pub type Pending = (PathBuf, Manifest);

/// The first step of [`open`], for a caller that loads and indexes in steps of its own
/// (the TUI): the persisted index when nothing changed, else a started [`Loading`]. The
/// loaders must run on this process between this call and [`Loading::finish`], loading
/// exactly the roots of `req`.
pub fn begin(req: &Request) -> Begun {
    let mut warnings = Vec::new();
    let path = req.path();
    let mut prior = None;
    if let Some(path) = &path {
        match read_existing(path, req) {
            Ok(Existing::None) => {}
            Ok(Existing::Unchanged(payload)) => return Begun::Reused(Box::new(reused(*payload))),
            Ok(Existing::Changed(prior_texts)) => prior = Some(prior_texts),
            Err(why) => warnings.push(refusal(path, &why)),
        }
    }
    let updated = prior.is_some();
    let started = now_ns();
    Begun::Load(Loading {
        recording: path
            .is_some()
            .then(|| inputs::record(prior.unwrap_or_default())),
        started,
        updated,
        key: req.key.clone(),
        path,
        warnings,
    })
}

impl Loading {
    /// Whether this is a full load (no persisted index to take unchanged files from): its
    /// texts may be let go as they are read ([`crate::formats::walk::spill`],
    /// [`Corpus::spill_texts`]; docs/DESIGN.md §8 "Memory").
    pub fn is_full(&self) -> bool {
        !self.updated
    }

    /// The load is done: stop recording and make the manifest of what it read.
    pub fn finish(self) -> Loaded {
        let seen = self
            .recording
            .map(inputs::Recording::finish)
            .unwrap_or_default();
        let how = if self.updated {
            How::Updated {
                read: seen.read,
                reused: seen.reused,
            }
        } else {
            How::Built
        };
        let manifest = Manifest::of(self.key, self.started, &seen);
        Loaded {
            how,
            warnings: self.warnings,
            pending: self.path.map(|p| (p, manifest)),
        }
    }
}

/// What the cache folder holds for a request.
enum Existing {
    /// No index file (or one for another key).
    None,
    /// An index whose inputs are all unchanged.
    Unchanged(Box<file::Decoded>),
    /// An index whose inputs changed: the bytes of its files that may be reused.
    Changed(HashMap<PathBuf, inputs::Prior>),
}

/// What the index file at `path` offers `req`: its manifest is read and checked first, then
/// everything is decoded (unchanged) or only the source texts (changed).
fn read_existing(path: &Path, req: &Request) -> Result<Existing, Refused> {
    let Some(opened) = file::open(path)? else {
        return Ok(Existing::None);
    };
    if opened.manifest.key != req.key {
        return Ok(Existing::None);
    }
    if opened.manifest.unchanged() {
        return Ok(Existing::Unchanged(Box::new(opened.decode()?)));
    }
    let sources = opened.sources()?;
    Ok(Existing::Changed(opened.manifest.prior_texts(sources)))
}

fn refusal(path: &Path, why: &Refused) -> String {
    match why {
        Refused::Corrupt(why) => format!(
            "the persisted index {} is corrupt ({why}); it is rebuilt from the files",
            path.display()
        ),
        Refused::OtherVersion(why) => format!(
            "the persisted index {} was written by another version ({why}); it is rebuilt",
            path.display()
        ),
        Refused::Unreadable(why) => format!(
            "cannot read the persisted index {} ({why}); the files are loaded instead",
            path.display()
        ),
    }
}

/// The persisted corpus and indexes, lazy summaries attached again (one per range, shared
/// by its sections as the loader shares them).
fn reused(d: file::Decoded) -> Indexed {
    let n = d.nodes;
    let mut corpus = Corpus::from_parts(n.nodes, n.roots, d.sources, n.bundles);
    let mut made: HashMap<(u32, u64, u64), Arc<LazySummary>> = HashMap::new();
    for (node, from, to) in n.lazy {
        let Some(n) = corpus.nodes.get_mut(node as usize) else {
            continue;
        };
        let source = n.span.map_or(u32::MAX, |s| s.source.0);
        let (f, t) = (usize::try_from(from), usize::try_from(to));
        let (Ok(f), Ok(t)) = (f, t) else { continue };
        let summary = made.entry((source, from, to)).or_insert_with(|| {
            Arc::new(LazySummary::new(
                f,
                t,
                crate::formats::sections::summaries_of,
            ))
        });
        n.lazy_summary = Some(Arc::clone(summary));
    }
    let mut index = d.index;
    index.share_bundles(&corpus);
    Indexed {
        corpus,
        index,
        fuzzy: d.fuzzy,
        how: How::Reused,
        warnings: Vec::new(),
        pending: None,
    }
}

impl Indexed {
    /// [`Indexed::save`], then, for a process that keeps the corpus (the MCP server), every
    /// text is read from the file just written instead of held: memory after the first
    /// start is that of a start from the persisted index. Each text is handed over only
    /// when the file read back holds the same bytes ([`crate::model::Source::hand_over`]);
    /// a file that cannot be read back leaves the texts held. Returns `save`'s warning.
    pub fn save_and_let_texts_go(&mut self) -> Option<String> {
        let path = self.pending.as_ref().map(|(p, _)| p.clone());
        let warning = self.save();
        if let (None, Some(path)) = (&warning, path) {
            self.let_texts_go(&path);
        }
        warning
    }

    /// Hand every source's text over to the index file at `path` (see
    /// [`Indexed::save_and_let_texts_go`]), then give the freed memory back to the system.
    fn let_texts_go(&mut self, path: &Path) {
        let Ok(Some(opened)) = file::open(path) else {
            return;
        };
        let Ok(written) = opened.sources() else {
            return;
        };
        if written.len() != self.corpus.sources.len() {
            return;
        }
        for (mine, theirs) in self.corpus.sources.iter_mut().zip(written) {
            mine.hand_over(theirs);
        }
        crate::util::memory::trim();
    }

    /// Persist a new or updated index (nothing to do after [`How::Reused`]), atomically,
    /// then remove the oldest index files beyond [`MAX_FILES`]. Returns a warning when the
    /// cache folder cannot be written (the search stayed in memory).
    pub fn save(&mut self) -> Option<String> {
        let pending = self.pending.take()?;
        save(pending, &self.corpus, &self.index, &self.fuzzy)
    }
}

/// Write `corpus` with its indexes to the file of `pending`, atomically, then remove the
/// oldest index files beyond [`MAX_FILES`]. Returns a warning when the cache folder cannot
/// be written (the corpus stays in memory only).
pub fn save(
    pending: Pending,
    corpus: &Corpus,
    index: &Index,
    fuzzy: &FuzzyIndex,
) -> Option<String> {
    let (path, manifest) = pending;
    let contents = file::Contents {
        manifest: &manifest,
        corpus,
        index,
        fuzzy,
    };
    let dir = path.parent()?;
    match write_file(dir, &path, &contents) {
        Ok(()) => {
            evict(dir, &path);
            None
        }
        Err(e) => Some(format!(
            "cannot write the persisted index in {} ({e}); everything stays in memory, and the next start loads the files again",
            dir.display()
        )),
    }
}

/// Remove the least recently written index files of `dir` beyond [`MAX_FILES`] (never
/// `keep`).
fn evict(dir: &Path, keep: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "bin") && p != keep)
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    if files.len() < MAX_FILES {
        return;
    }
    files.sort();
    for (_, p) in &files[..=files.len() - MAX_FILES] {
        let _ = std::fs::remove_file(p);
    }
}

/// Replace `path` (in `dir`, created when missing) with the file of `c` through a temporary
/// file renamed over it, so a reader sees the old file or the new one. Not synced to disk:
/// after a power cut a torn file fails its checksums and is rebuilt.
fn write_file(dir: &Path, path: &Path, c: &file::Contents<'_>) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    sweep_partials(dir);
    let mut tmp = tempfile::Builder::new()
        .prefix(PARTIAL_PREFIX)
        .suffix(".tmp")
        .tempfile_in(dir)?;
    let partial = tmp.path().to_path_buf();
    let writing = || {
        WRITING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    writing().push(partial.clone());
    let encoded = file::write(c, &mut std::io::BufWriter::new(tmp.as_file_mut()));
    let written = encoded.and_then(|()| tmp.persist(path).map(drop).map_err(|e| e.error));
    writing().retain(|p| *p != partial);
    written
}

/// Remove the partial index files of `dir` older than [`PARTIAL_AGE`] (a write in
/// progress in another process is younger).
fn sweep_partials(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(Result::ok) {
        let partial = e.file_name().to_string_lossy().starts_with(PARTIAL_PREFIX);
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > PARTIAL_AGE);
        if partial && old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_the_first_save_every_text_is_read_from_the_written_file() {
        let dir = tempfile::tempdir().unwrap();
        let docs = dir.path().join("docs");
        std::fs::create_dir_all(&docs).unwrap();
        let texts: Vec<String> = (0..3)
            .map(|i| format!("# Page {i}\n\nThe word word{i} is here.\n"))
            .collect();
        for (i, text) in texts.iter().enumerate() {
            std::fs::write(docs.join(format!("p{i}.md")), text).unwrap();
        }
        let spec = crate::formats::root_specs(std::slice::from_ref(&docs)).remove(0);
        let opts = crate::formats::LoadOptions::default();
        let req = Request::new(
            &[(docs.clone(), "docs".into())],
            "test",
            Some(dir.path().join("index")),
        );
        let mut indexed = open(&req, || {
            crate::formats::load_root(&spec, &opts, &mut |_| {})
        });
        assert_eq!(
            indexed.corpus.held_bytes(),
            0,
            "a full load lets its texts go"
        );
        let hits = indexed
            .index
            .search(
                &indexed.corpus,
                "word1",
                &crate::index::SearchOptions::default(),
            )
            .hits;
        assert_eq!(hits.len(), 1, "indexed from the files read again");
        assert_eq!(indexed.corpus.held_bytes(), 0, "indexing held none of them");
        assert_eq!(indexed.save_and_let_texts_go(), None);
        let sources = &indexed.corpus.sources;
        assert_eq!(sources.len(), 3);
        assert!(sources.iter().all(|s| !s.is_held()), "every text let go");
        // Read from the index file now, not from the files: an edit does not show.
        for s in sources {
            let path = s.abs_path.clone().unwrap();
            let loaded = std::fs::read_to_string(&path).unwrap();
            assert!(texts.contains(&loaded));
            std::fs::write(&path, "# Edited\n").unwrap();
            assert_eq!(s.text(), loaded);
        }
    }

    #[test]
    fn a_write_sweeps_abandoned_partial_files_but_not_one_being_written() {
        let dir = tempfile::tempdir().unwrap();
        let (old, fresh) = (
            dir.path().join(".partial-abc.tmp"),
            dir.path().join(".partial-def.tmp"),
        );
        for p in [&old, &fresh] {
            std::fs::write(p, b"x").unwrap();
        }
        let past = std::time::SystemTime::now() - PARTIAL_AGE - std::time::Duration::from_secs(60);
        std::fs::File::open(&old)
            .unwrap()
            .set_modified(past)
            .unwrap();
        sweep_partials(dir.path());
        assert!(!old.exists());
        assert!(
            fresh.exists(),
            "younger than PARTIAL_AGE: another process is writing it"
        );
    }

    #[test]
    fn clear_removes_index_and_partial_files_and_leaves_what_is_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let (partial, index, folder) = (
            dir.path().join(".partial-def.tmp"),
            dir.path().join("0123.bin"),
            dir.path().join("4567.bin"),
        );
        std::fs::write(&partial, b"x").unwrap();
        std::fs::write(&index, b"xy").unwrap();
        std::fs::create_dir(&folder).unwrap();
        assert_eq!(files_in(dir.path()), [(index.clone(), 2)]);
        assert_eq!(partials_in(dir.path()), [(partial.clone(), 1)]);
        let cleared = clear(dir.path()).unwrap();
        assert_eq!(
            cleared,
            Cleared {
                files: 1,
                partials: 1
            }
        );
        assert!(!partial.exists() && !index.exists() && folder.is_dir());
    }
}
