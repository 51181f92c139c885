//! Saving an edited SKILL.md without ever losing data (docs/DESIGN.md §9): refuse when
//! the file changed since it was read (SHA-256 of its bytes), write through a symlink to
//! the real file, write a temp file in the same folder, fsync, keep permissions, check the
//! file's size and mtime once more, rename over the target, fsync the folder. Only regular
//! files up to the loader's 16 MiB cap are read. A failure at any step leaves the original untouched and no
//! temp file behind. Also the undo of a save.
//! Limits of rename-based saves: a hard-linked file is replaced by a new inode (other links
//! keep the old bytes); extended attributes and ACLs are not copied.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::formats::walk::read::MAX_READ_BYTES;
use crate::model::BINARY_SNIFF_BYTES;
use crate::util::regular_file::{RegularReadError, read_regular};

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
    let shown = path.display();
    read_regular(real, MAX_READ_BYTES).map_err(|e| match e {
        RegularReadError::Io(e) => Error::io(path, e),
        RegularReadError::TooLarge(n) => Error::Refused(format!(
            "{shown} is too large to edit ({n} bytes; the limit is {MAX_READ_BYTES}); not edited"
        )),
        other @ RegularReadError::NotRegular(_) => {
            Error::Refused(format!("{shown} {other}; not edited"))
        }
    })
}

/// True when `bytes` holds a NUL byte within its first [`BINARY_SNIFF_BYTES`] (8 KiB), the
/// loader's binary rule (`formats::walk::read::read_file`).
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

/// Write `new_bytes` to `file` atomically. Errors: `Refused` when the file changed on disk
/// since it was read ("… changed on disk since it was read; reload"), is read-only, or its
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
    let (current, meta) = read_capped(&file.path, real)?;
    if hash(&current) != file.hash {
        return Err(Error::Refused(format!(
            "{shown} changed on disk since it was read; reload"
        )));
    }
    let perms = meta.permissions();
    if perms.readonly() {
        return Err(Error::Refused(format!(
            "{shown} is read-only; nothing written"
        )));
    }
    let dir = real
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let denied = |e: std::io::Error| -> Error {
        if e.kind() == std::io::ErrorKind::PermissionDenied {
            Error::Refused(format!(
                "cannot write {shown}: permission denied; nothing written"
            ))
        } else {
            Error::io(&file.path, e)
        }
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(denied)?;
    tmp.write_all(new_bytes).map_err(denied)?;
    tmp.as_file().set_permissions(perms).map_err(denied)?;
    keep_owner(tmp.as_file(), &meta);
    tmp.as_file().sync_all().map_err(denied)?;
    before_rename(tmp.path()).map_err(denied)?;
    unmoved(&file.path, real, &meta)?;
    tmp.persist(real).map_err(|e| denied(e.error))?;
    if let Ok(d) = fs::File::open(dir) {
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

/// Refuse when `real` changed size or mtime since `meta` was taken (another process wrote
/// to it while the temp file was written): the rename would replace the inode that writer
/// holds and lose its bytes. The window left is between this check and the rename, and a
/// same-size rewrite within the file system's timestamp granularity (docs/DESIGN.md §9).
fn unmoved(path: &Path, real: &Path, meta: &fs::Metadata) -> Result<()> {
    let now = fs::metadata(real).map_err(|e| Error::io(path, e))?;
    if now.len() != meta.len() || now.modified().ok() != meta.modified().ok() {
        return Err(Error::Refused(format!(
            "{} changed on disk while it was being saved; nothing written; reload",
            path.display()
        )));
    }
    Ok(())
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
