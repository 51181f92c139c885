//! Reading a file that must be a regular file, with a size cap: a FIFO is never opened in a
//! way that blocks, a device such as `/dev/zero` is never read, and a file over the cap is
//! refused before its bytes are read (docs/DESIGN.md §9 "Never crash on input").

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read as _};
use std::path::Path;

/// Why [`read_regular`] refused or failed.
#[derive(Debug)]
pub enum RegularReadError {
    /// Not a regular file; what it is, as a noun phrase (`a directory`, `a FIFO`, `a
    /// device`, `a socket`, `not a regular file`).
    NotRegular(&'static str),
    /// The file holds more than the cap; its size in bytes (at least cap + 1).
    TooLarge(u64),
    /// Opening or reading failed.
    Io(io::Error),
}

impl std::fmt::Display for RegularReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotRegular(what) => write!(f, "is {what}, not a regular file"),
            Self::TooLarge(n) => write!(f, "is too large ({n} bytes)"),
            Self::Io(e) => write!(f, "{e}"),
        }
    }
}

/// What a non-regular file is.
fn kind(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// What the entry at `path` is when it exists (symlinks followed) and is neither a regular
/// file nor a directory (`a FIFO`, `a device`, `a socket`); `None` otherwise. Never opens it.
pub fn special_kind(path: &Path) -> Option<&'static str> {
    let meta = std::fs::metadata(path).ok()?;
    (!meta.is_file() && !meta.is_dir()).then(|| kind(&meta))
}

/// Open `path` for reading without blocking when it is a FIFO (`O_NONBLOCK`; no effect on
/// a regular file's reads).
fn open_nonblocking(path: &Path) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(0o4000);
    }
    #[cfg(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    ))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(0x0004);
    }
    o.open(path)
}

/// Open the regular file at `path` (symlinks followed) for reading, with its metadata (size
/// in bytes, mtime). The type is checked before opening (a FIFO, device, socket or
/// directory is refused without being opened) and again on the opened handle (the path may
/// have been swapped in between; the open never blocks). With `cap`, a file whose size is
/// over `cap` bytes is refused before it is opened.
///
/// Errors: [`RegularReadError::NotRegular`], [`RegularReadError::TooLarge`],
/// [`RegularReadError::Io`].
pub fn open_regular(path: &Path, cap: Option<u64>) -> Result<(File, Metadata), RegularReadError> {
    let before = std::fs::metadata(path).map_err(RegularReadError::Io)?;
    if !before.is_file() {
        return Err(RegularReadError::NotRegular(kind(&before)));
    }
    if cap.is_some_and(|c| before.len() > c) {
        return Err(RegularReadError::TooLarge(before.len()));
    }
    let file = open_nonblocking(path).map_err(RegularReadError::Io)?;
    let meta = file.metadata().map_err(RegularReadError::Io)?;
    if !meta.is_file() {
        return Err(RegularReadError::NotRegular(kind(&meta)));
    }
    Ok((file, meta))
}

/// Read the regular file at `path` (symlinks followed) whole, if it holds at most `cap`
/// bytes. Returns its bytes and the metadata of the opened file (size in bytes, mtime).
///
/// The type is checked before opening (a FIFO, device, socket or directory is refused
/// without being opened), again on the opened handle (the path may have been swapped in
/// between; the open never blocks), and the read stops after `cap + 1` bytes, so a file
/// that grows past the cap while read is refused too.
///
/// Errors: [`RegularReadError::NotRegular`], [`RegularReadError::TooLarge`],
/// [`RegularReadError::Io`] (missing, permission denied, a symlink loop, …).
pub fn read_regular(path: &Path, cap: u64) -> Result<(Vec<u8>, Metadata), RegularReadError> {
    let (file, meta) = open_regular(path, Some(cap))?;
    let want = usize::try_from(meta.len().min(cap)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(want);
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(RegularReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(RegularReadError::TooLarge(bytes.len() as u64));
    }
    Ok((bytes, meta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directory_and_oversized_file_are_refused_and_a_small_file_is_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("a.md");
        std::fs::write(&p, b"12345").expect("write");
        let (bytes, meta) = read_regular(&p, 5).expect("read");
        assert_eq!((bytes, meta.len()), (b"12345".to_vec(), 5));
        let e = read_regular(&p, 4).expect_err("over the cap");
        assert_eq!(e.to_string(), "is too large (5 bytes)");
        let e = read_regular(dir.path(), 4).expect_err("a directory");
        assert_eq!(e.to_string(), "is a directory, not a regular file");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dev_zero_is_refused_without_reading() {
        let e = read_regular(Path::new("/dev/zero"), 16).expect_err("a device");
        assert_eq!(e.to_string(), "is a device, not a regular file");
        assert_eq!(special_kind(Path::new("/dev/zero")), Some("a device"));
        assert_eq!(special_kind(Path::new("/")), None);
        assert_eq!(special_kind(Path::new("/nonexistent")), None);
    }
}
