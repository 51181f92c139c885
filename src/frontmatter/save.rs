//! Saving an edited SKILL.md without ever losing data (docs/DESIGN.md §9): refuse when
//! the file changed since it was read (SHA-256 of its bytes), write through a symlink to
//! the real file, write a temp file in the same folder, fsync, keep permissions, check the
//! path's inode, size and mtime against the bytes read right before the rename, rename
//! over the target, then carry over bytes a writer appended to the replaced inode after
//! that check (or put it back and refuse on any other change), fsync the folder. Only
//! regular files up to the loader's 16 MiB cap are read. A failure at any step leaves the
//! original untouched and no temp file behind. Also the undo of a save.
//! Limits of rename-based saves: a hard-linked file is replaced by a new inode (other links
//! keep the old bytes); extended attributes and ACLs are not copied.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::formats::walk::read::MAX_READ_BYTES;
use crate::model::BINARY_SNIFF_BYTES;
use crate::util::regular_file::{RegularReadError, open_regular, read_regular};

/// A file as read for editing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedFile {
    /// The path as given (may be a symlink).
    pub path: PathBuf,
    /// The real file (symlinks resolved); saves write here.
    pub real_path: PathBuf,
    /// The bytes read.
    pub bytes: Vec<u8>,
    /// SHA-256 of `bytes`.
    pub hash: [u8; 32],
}

/// What a save did; keeps the previous bytes so the save can be undone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveReport {
    /// The path as given.
    pub path: PathBuf,
    /// The real file written.
    pub real_path: PathBuf,
    /// The bytes before the save.
    pub previous: Vec<u8>,
    /// SHA-256 of the bytes written (undo refuses if the file changed since).
    pub written_hash: [u8; 32],
    /// Bytes written.
    pub written_len: usize,
}

/// SHA-256 of `bytes`.
pub fn hash(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Read `path` for editing (following symlinks). Every edit path goes through here
/// (`fm get`, `fm set`, `fm unset`, the TUI editor's open, undo), so a binary file is never
/// edited.
/// Errors: `Io` when it cannot be read or a symlink cannot be resolved (a loop, a dangling
/// link); `Refused` when it is not a regular file (`"<path> is a FIFO, not a regular file;
/// not edited"`: a FIFO is never opened in a blocking way, a device never read), when it
/// holds more than [`MAX_READ_BYTES`] (16 MiB, the loader's cap), or (`"<path> looks binary
/// (NUL byte); not edited"`) when a NUL byte occurs in its first [`BINARY_SNIFF_BYTES`]
/// (8 KiB; the loader's rule, `formats::walk::read`).
pub fn load(path: &Path) -> Result<LoadedFile> {
    let real_path = fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let bytes = read_capped(path, &real_path)?.0;
    if looks_binary(&bytes) {
        return Err(Error::Refused(format!(
            "{} looks binary (NUL byte); not edited",
            path.display()
        )));
    }
    Ok(LoadedFile {
        path: path.to_path_buf(),
        real_path,
        hash: hash(&bytes),
        bytes,
    })
}

/// The bytes and metadata of the regular file `real` (shown as `path`), at most
/// [`MAX_READ_BYTES`]. Errors as [`load`].
fn read_capped(path: &Path, real: &Path) -> Result<(Vec<u8>, fs::Metadata)> {
    read_regular(real, MAX_READ_BYTES).map_err(|e| map_read(path, e))
}

/// A read error of the file shown as `path` as an edit reports it (see [`load`]).
fn map_read(path: &Path, e: RegularReadError) -> Error {
    let shown = path.display();
    match e {
        RegularReadError::Io(e) => Error::io(path, e),
        RegularReadError::TooLarge(n) => Error::Refused(format!(
            "{shown} is too large to edit ({n} bytes; the limit is {MAX_READ_BYTES}); not edited"
        )),
        other @ RegularReadError::NotRegular(_) => {
            Error::Refused(format!("{shown} {other}; not edited"))
        }
    }
}

/// True when `bytes` holds a NUL byte within its first [`BINARY_SNIFF_BYTES`] (8 KiB), the
/// loader's binary rule (`formats::walk::read::read_file`).
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

/// Write `new_bytes` to `file` atomically. Errors: `Refused` when the file changed on disk
/// since it was read ("… changed on disk since it was read; reload"), is a cached copy of a
/// remote source (docs/REMOTE.md "Read-only"), is read-only, or its
/// folder does not allow writing; `Io` for other failures. In every error case the file is
/// unchanged and no temp file remains.
pub fn save(file: &LoadedFile, new_bytes: &[u8]) -> Result<SaveReport> {
    save_with_hook(file, new_bytes, |_| Ok(()))
}

/// [`save`] with a hook run after the temp file is written and synced, just before the
/// rename (a fault-injection point: an error from it aborts the save like a crash at that
/// moment would, leaving the original intact and removing the temp file).
pub fn save_with_hook(
    file: &LoadedFile,
    new_bytes: &[u8],
    before_rename: impl FnOnce(&Path) -> std::io::Result<()>,
) -> Result<SaveReport> {
    let shown = file.path.display();
    let real = &file.real_path;
    if let Some(reason) = crate::remote::cache::read_only_reason(real) {
        return Err(Error::Refused(reason));
    }
    let mut held = read_held(&file.path, real)?;
    if hash(&held.bytes) != file.hash {
        return Err(Error::Refused(format!(
            "{shown} changed on disk since it was read; reload"
        )));
    }
    if held.meta.permissions().readonly() {
        return Err(Error::Refused(format!(
            "{shown} is read-only; nothing written"
        )));
    }
    let tmp = write_temp(file, real, new_bytes, &held.meta)?;
    before_rename(tmp.path()).map_err(|e| denied(file, e))?;
    unmoved(&file.path, real, &held)?;
    tmp.persist(real).map_err(|e| denied(file, e.error))?;
    settle(file, &mut held)?;
    if let Ok(d) = fs::File::open(folder_of(real)) {
        // Make the rename durable; not all platforms can sync a folder, so failures here
        // do not undo a completed save.
        let _ = d.sync_all();
    }
    Ok(SaveReport {
        path: file.path.clone(),
        real_path: real.clone(),
        previous: file.bytes.clone(),
        written_hash: hash(new_bytes),
        written_len: new_bytes.len(),
    })
}

/// The file a save replaces, as read just before writing: the open handle (kept until
/// after the rename, so writes that still reach the replaced inode can be seen), the
/// bytes read through it and its metadata taken on that handle before the read.
struct Held {
    handle: fs::File,
    bytes: Vec<u8>,
    meta: fs::Metadata,
    /// Bytes of the replaced inode already in the saved file (grows when [`settle`]
    /// carries over an append).
    kept: u64,
    /// Its mtime when `kept` bytes were seen.
    mtime: Option<std::time::SystemTime>,
}

/// Open and read the regular file `real` (shown as `path`) for [`save_with_hook`]. Errors
/// as [`load`]; `Refused` when it changed while being read (size or mtime of the handle
/// moved).
fn read_held(path: &Path, real: &Path) -> Result<Held> {
    use std::io::Read as _;
    let (handle, meta) = open_regular(real, Some(MAX_READ_BYTES)).map_err(|e| map_read(path, e))?;
    let mut bytes = Vec::new();
    (&handle)
        .take(MAX_READ_BYTES.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.len() as u64 > MAX_READ_BYTES {
        return Err(map_read(
            path,
            RegularReadError::TooLarge(bytes.len() as u64),
        ));
    }
    let after = handle.metadata().map_err(|e| Error::io(path, e))?;
    let mtime = meta.modified().ok();
    if after.len() != bytes.len() as u64 || after.modified().ok() != mtime {
        return Err(moved(path));
    }
    Ok(Held {
        kept: bytes.len() as u64,
        handle,
        bytes,
        meta,
        mtime,
    })
}

/// The `Refused` error of a file another process wrote to during a save.
fn moved(path: &Path) -> Error {
    Error::Refused(format!(
        "{} changed on disk while it was being saved; nothing written; reload",
        path.display()
    ))
}

/// The folder of `real` (`.` when it has none).
fn folder_of(real: &Path) -> &Path {
    real.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// A write error of a save: `Refused` for permission denied, else `Io`.
fn denied(file: &LoadedFile, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::PermissionDenied {
        Error::Refused(format!(
            "cannot write {}: permission denied; nothing written",
            file.path.display()
        ))
    } else {
        Error::io(&file.path, e)
    }
}

/// A synced temp file next to `real` holding `bytes`, with the permissions (and, when
/// allowed, the owner) of `meta`. Errors as [`denied`]; the temp file is removed on error.
fn write_temp(
    file: &LoadedFile,
    real: &Path,
    bytes: &[u8],
    meta: &fs::Metadata,
) -> Result<tempfile::NamedTempFile> {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(folder_of(real))
        .map_err(|e| denied(file, e))?;
    tmp.write_all(bytes).map_err(|e| denied(file, e))?;
    tmp.as_file()
        .set_permissions(meta.permissions())
        .map_err(|e| denied(file, e))?;
    keep_owner(tmp.as_file(), meta);
    tmp.as_file().sync_all().map_err(|e| denied(file, e))?;
    Ok(tmp)
}

/// Refuse when the path `real` no longer holds what was read: another inode, or a size
/// other than the bytes read, or another mtime than the read handle's (another process
/// wrote to it while the temp file was written; the rename would lose its bytes). Run
/// right before the rename (docs/DESIGN.md §9).
fn unmoved(path: &Path, real: &Path, held: &Held) -> Result<()> {
    let now = fs::metadata(real).map_err(|e| Error::io(path, e))?;
    if now.len() != held.kept || now.modified().ok() != held.mtime || !same_inode(&now, &held.meta)
    {
        return Err(moved(path));
    }
    Ok(())
}

#[cfg(unix)]
fn same_inode(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.ino() == b.ino() && a.dev() == b.dev()
}

#[cfg(not(unix))]
fn same_inode(_: &fs::Metadata, _: &fs::Metadata) -> bool {
    true
}

/// The pauses between [`settle`]'s looks at the replaced file after the rename (at 0, 5, 30
/// and 105 ms): a writer that opened it just before the rename writes within them, even one
/// the scheduler stalls between its `open` and its `write` on a loaded machine (5 ms alone
/// lost such a line under a parallel test run).
const SETTLE: [std::time::Duration; 4] = [
    std::time::Duration::ZERO,
    std::time::Duration::from_millis(5),
    std::time::Duration::from_millis(25),
    std::time::Duration::from_millis(75),
];

/// After the rename: a writer that opened the file before the rename and wrote after the
/// check of [`unmoved`] wrote to the replaced inode, which no name reaches any more. Look
/// at it through the held handle after each pause of [`SETTLE`]: bytes
/// appended to it are appended to the saved file (as if written just after the save);
/// any other change puts the replaced file's current bytes back and refuses the save.
fn settle(file: &LoadedFile, held: &mut Held) -> Result<()> {
    for pause in SETTLE {
        std::thread::sleep(pause);
        let now = held
            .handle
            .metadata()
            .map_err(|e| Error::io(&file.path, e))?;
        if now.len() == held.kept && now.modified().ok() == held.mtime {
            continue;
        }
        let old = reread(&file.path, &held.handle)?;
        let kept = usize::try_from(held.kept).unwrap_or(usize::MAX);
        match old.get(kept..) {
            Some(tail) if old.starts_with(&held.bytes) => {
                append(file, tail)?;
                held.kept = old.len() as u64;
                held.mtime = now.modified().ok();
            }
            _ => {
                let tmp = write_temp(file, &file.real_path, &old, &held.meta)?;
                tmp.persist(&file.real_path)
                    .map_err(|e| denied(file, e.error))?;
                return Err(moved(&file.path));
            }
        }
    }
    Ok(())
}

/// The whole current content of the open `handle` (at most [`MAX_READ_BYTES`] + 1 bytes).
fn reread(path: &Path, mut handle: &fs::File) -> Result<Vec<u8>> {
    use std::io::{Read as _, Seek as _};
    handle
        .seek(std::io::SeekFrom::Start(0))
        .map_err(|e| Error::io(path, e))?;
    let mut out = Vec::new();
    handle
        .take(MAX_READ_BYTES.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| Error::io(path, e))?;
    Ok(out)
}

/// Append `tail` to the saved file and sync it.
fn append(file: &LoadedFile, tail: &[u8]) -> Result<()> {
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(&file.real_path)
        .map_err(|e| denied(file, e))?;
    f.write_all(tail).map_err(|e| denied(file, e))?;
    f.sync_all().map_err(|e| denied(file, e))
}

/// Best effort: give the temp file the original's owner and group (only possible when the
/// editing user may chown, e.g. root; otherwise the saved file belongs to the editing user,
/// as with any rename-based save).
#[cfg(unix)]
fn keep_owner(f: &fs::File, meta: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    if let Ok(now) = f.metadata()
        && (now.uid() != meta.uid() || now.gid() != meta.gid())
    {
        let _ = std::os::unix::fs::fchown(f, Some(meta.uid()), Some(meta.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_: &fs::File, _: &fs::Metadata) {}

/// Undo a save (`u`): restore `report.previous`, refusing when the file changed since that
/// save. Returns the report of the restoring save (undoing it redoes the edit).
pub fn undo(report: &SaveReport) -> Result<SaveReport> {
    let now = load(&report.path)?;
    if now.hash != report.written_hash {
        return Err(Error::Refused(format!(
            "{} changed on disk since it was saved; not undone",
            report.path.display()
        )));
    }
    save(&now, &report.previous)
}
