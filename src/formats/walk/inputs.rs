//! What a load reads, for the persisted index (docs/DESIGN.md §8 "Persisted index"): while a
//! [`Recording`] is active, every folder a loader lists, every file it reads, every symbolic
//! link it follows and every path whose presence changes it is noted, so the index can tell
//! later, by `stat` alone, whether its inputs changed; and files whose bytes the index still
//! holds (the same [`Stamp`]) are taken from it instead of being read again ([`Prior`]).
//!
//! Recording is process-wide, because loaders read on helper threads. Two recordings at
//! once both see every note (a manifest that lists more paths than its load read is only
//! stricter); prior bytes are only ever served for a file whose current stamp matches the
//! one they were read under, so they are never stale.

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::UNIX_EPOCH;

use crate::model::Source;

/// What tells a file's contents apart without reading them, from one `stat`: size in
/// bytes, modification time, and on Unix the inode and the change time (which nobody can
/// set back, so a copy that keeps size and modification time, `cp -p`, still differs).
/// Times are nanoseconds since the epoch; 0 when unknown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stamp {
    /// Size in bytes.
    pub size: u64,
    /// Modification time.
    pub mtime_ns: u64,
    /// Inode number (0 off Unix).
    pub ino: u64,
    /// Change time (0 off Unix).
    pub ctime_ns: u64,
}

impl Stamp {
    /// The stamp of `meta`.
    pub fn of(meta: &Metadata) -> Self {
        #[cfg(unix)]
        let (ino, ctime_ns) = {
            use std::os::unix::fs::MetadataExt;
            let secs = u64::try_from(meta.ctime()).unwrap_or(0);
            let nanos = u64::try_from(meta.ctime_nsec()).unwrap_or(0);
            (
                meta.ino(),
                secs.saturating_mul(1_000_000_000).saturating_add(nanos),
            )
        };
        #[cfg(not(unix))]
        let (ino, ctime_ns) = (0, 0);
        Self {
            size: meta.len(),
            mtime_ns: mtime_ns(meta),
            ino,
            ctime_ns,
        }
    }
}

/// Bytes of a file as an earlier load read them, with the [`Stamp`] they were read under.
#[derive(Debug)]
pub struct Prior {
    /// The file's stamp then.
    pub stamp: Stamp,
    /// The whole file, as a source whose text may still be in a persisted index file (read
    /// only when a loader asks for it).
    pub source: Source,
}

/// What one recording saw: the folders listed, the files read or listed (deduplicated,
/// sorted), and how many files were read from disk against served from [`Prior`] bytes.
#[derive(Debug, Default)]
pub struct Inputs {
    /// Folders whose entries a loader listed.
    pub dirs: Vec<PathBuf>,
    /// Files a loader read or saw listed.
    pub files: Vec<PathBuf>,
    /// Symbolic links a loader followed, each link of a chain (checked with `lstat`).
    pub links: Vec<PathBuf>,
    /// Paths whose presence alone changes a load (a parent's `.git`), present or not.
    pub probes: Vec<PathBuf>,
    /// Files whose bytes were read from disk (each counted once, however often read).
    pub read: usize,
    /// Files whose bytes came from the prior load and that were not read from disk.
    pub reused: usize,
}

#[derive(Default)]
struct Session {
    dirs: Mutex<Vec<PathBuf>>,
    /// Each file once, however often it was listed or read: how it was served
    /// ([`READ`], [`REUSED`] bits; 0 when only listed). One path a file, where a list of
    /// every note and sets of the read and reused ones held up to three (7 MB of paths on
    /// 16 copies of `large`).
    files: Mutex<HashMap<PathBuf, u8>>,
    links: Mutex<Vec<PathBuf>>,
    probes: Mutex<Vec<PathBuf>>,
    prior: HashMap<PathBuf, Prior>,
}

/// A file's bytes were read from disk.
const READ: u8 = 1;
/// A file's bytes were served from the prior load.
const REUSED: u8 = 2;

static ACTIVE: RwLock<Vec<Arc<Session>>> = RwLock::new(Vec::new());
/// Whether any recording is active (checked before taking the lock).
static ANY: AtomicBool = AtomicBool::new(false);

/// An active recording; [`Recording::finish`] ends it (dropping it ends it too).
pub struct Recording {
    session: Arc<Session>,
}

/// Start recording, offering `prior` bytes (keyed by the path the loader reads, its real
/// path) to the loaders.
pub fn record(prior: HashMap<PathBuf, Prior>) -> Recording {
    let session = Arc::new(Session {
        prior,
        ..Session::default()
    });
    let mut active = ACTIVE.write().unwrap_or_else(PoisonError::into_inner);
    active.push(Arc::clone(&session));
    ANY.store(true, Ordering::Release);
    Recording { session }
}

impl Recording {
    /// End the recording and return what it saw.
    pub fn finish(self) -> Inputs {
        let s = &self.session;
        let mut dirs = std::mem::take(&mut *lock(&s.dirs));
        let noted = std::mem::take(&mut *lock(&s.files));
        let read = noted.values().filter(|f| *f & READ != 0).count();
        let reused = noted.values().filter(|f| **f == REUSED).count();
        let mut files: Vec<PathBuf> = noted.into_keys().collect();
        let mut links = std::mem::take(&mut *lock(&s.links));
        let mut probes = std::mem::take(&mut *lock(&s.probes));
        for v in [&mut dirs, &mut files, &mut links, &mut probes] {
            v.sort_unstable();
            v.dedup();
        }
        Inputs {
            dirs,
            files,
            links,
            probes,
            read,
            reused,
        }
    }
}

impl Drop for Recording {
    fn drop(&mut self) {
        let mut active = ACTIVE.write().unwrap_or_else(PoisonError::into_inner);
        active.retain(|s| !Arc::ptr_eq(s, &self.session));
        ANY.store(!active.is_empty(), Ordering::Release);
    }
}

fn each(f: impl Fn(&Session)) {
    if !ANY.load(Ordering::Acquire) {
        return;
    }
    for s in ACTIVE.read().unwrap_or_else(PoisonError::into_inner).iter() {
        f(s);
    }
}

/// Note a folder whose entries a loader listed.
pub(crate) fn note_dir(dir: &Path) {
    each(|s| push(&s.dirs, dir));
}

/// Note a file a loader looked at (read, or listed with its size) without reading it here.
pub(crate) fn note_file(file: &Path) {
    each(|s| note(s, file, 0));
}

/// Note a path whose presence alone matters (a parent folder's `.git`).
pub(crate) fn note_probe(path: &Path) {
    each(|s| push(&s.probes, path));
}

/// Note every link of the chain of symbolic links starting at `path` (at most 40 hops).
pub(crate) fn note_link_chain(path: &Path) {
    each(|s| {
        let mut p = path.to_path_buf();
        for _ in 0..40 {
            let Ok(target) = std::fs::read_link(&p) else {
                break;
            };
            push(&s.links, &p);
            p = match p.parent() {
                Some(dir) if target.is_relative() => dir.join(target),
                _ => target,
            };
        }
    });
}

/// Note a file whose bytes were read from disk.
pub(crate) fn note_read(file: &Path) {
    each(|s| {
        note(s, file, READ);
    });
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn push(v: &Mutex<Vec<PathBuf>>, p: &Path) {
    lock(v).push(p.to_path_buf());
}

/// Note `file` with the `how` bits ([`READ`], [`REUSED`], or 0 for listed).
fn note(s: &Session, file: &Path, how: u8) {
    let mut files = lock(&s.files);
    match files.get_mut(file) {
        Some(f) => *f |= how,
        None => {
            files.insert(file.to_path_buf(), how);
        }
    }
}

/// The prior bytes of `file` when a recording holds them and `meta` (the file's current
/// metadata) matches the `stat` they were read under; noted as a file served without a read.
pub(crate) fn prior_bytes(file: &Path, meta: &Metadata) -> Option<Vec<u8>> {
    if !ANY.load(Ordering::Acquire) {
        return None;
    }
    let stamp = Stamp::of(meta);
    let active = ACTIVE.read().unwrap_or_else(PoisonError::into_inner);
    let (s, p) = active.iter().find_map(|s| {
        s.prior
            .get(file)
            .filter(|p| p.stamp == stamp)
            .map(|p| (s, p))
    })?;
    let bytes = p.source.read_text().into_bytes();
    note(s, file, REUSED);
    Some(bytes)
}

/// `std::fs::read(path)`, noted: bytes served from a prior load when its `stat` still
/// matches, else read from disk. Errors as `std::fs::read`.
pub(crate) fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    if ANY.load(Ordering::Acquire)
        && let Ok(meta) = std::fs::metadata(path)
        && let Some(bytes) = prior_bytes(path, &meta)
    {
        return Ok(bytes);
    }
    let bytes = std::fs::read(path)?;
    note_read(path);
    Ok(bytes)
}

/// `std::fs::read_to_string(path)` through [`read`]: errors as there, and `InvalidData`
/// when the bytes are not UTF-8.
pub(crate) fn read_to_string(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// `std::fs::read_dir(dir)`, with the folder noted.
pub(crate) fn read_dir(dir: &Path) -> std::io::Result<std::fs::ReadDir> {
    let rd = std::fs::read_dir(dir)?;
    note_dir(dir);
    Ok(rd)
}

/// Modification time of `meta` in nanoseconds since the epoch (0 when unknown).
pub fn mtime_ns(meta: &Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prior_bytes_are_served_only_for_an_unchanged_stat() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.md");
        std::fs::write(&f, "# A\n").unwrap();
        let meta = std::fs::metadata(&f).unwrap();
        let prior = Prior {
            stamp: Stamp::of(&meta),
            source: Source::virtual_text("# A\n".into()),
        };
        let rec = record(HashMap::from([(f.clone(), prior)]));
        assert_eq!(prior_bytes(&f, &meta).as_deref(), Some(&b"# A\n"[..]));
        std::fs::write(&f, "# A, longer\n").unwrap();
        let changed = std::fs::metadata(&f).unwrap();
        assert_eq!(prior_bytes(&f, &changed), None);
        let g = dir.path().join("b.md");
        note_read(&g);
        note_dir(dir.path());
        let seen = rec.finish();
        // Loads of tests running beside this one may add their own notes.
        assert_eq!(seen.reused, 1);
        assert!(seen.read >= 1);
        assert!(seen.files.contains(&f) && seen.files.contains(&g));
        assert!(seen.dirs.contains(&dir.path().to_path_buf()));
    }
}
