//! Reading one file for a loader: size limit, binary sniffing, invalid UTF-8 kept
//! offset-true (docs/DESIGN.md §9 "never crash on input").

use std::fs::{File, Metadata};
use std::io::Read as _;
use std::path::Path;
use std::time::UNIX_EPOCH;

use super::inputs;
use crate::model::{BINARY_SNIFF_BYTES, Source};
use crate::util::regular_file::{self, RegularReadError};

/// At most this many bytes of a file are read (16 MiB); the rest is left out and the node
/// is flagged `truncated`.
pub const MAX_READ_BYTES: u64 = 16 * 1024 * 1024;

/// Outcome of reading a file.
#[derive(Debug)]
pub enum ReadOutcome {
    /// Text (possibly with invalid UTF-8 replaced byte-for-byte). `truncated` when the file
    /// was larger than [`MAX_READ_BYTES`].
    Text {
        /// The source (size = size on disk).
        source: Source,
        /// Only the first [`MAX_READ_BYTES`] were read.
        truncated: bool,
    },
    /// A NUL byte in the first [`BINARY_SNIFF_BYTES`]: not parsed.
    Binary {
        /// Size on disk in bytes.
        size: u64,
    },
    /// The file could not be opened or read.
    Error(String),
}

/// Open the regular file `path` (symlinks followed) with its metadata: a FIFO, socket or
/// device is refused without being opened, and the opened handle is checked again
/// ([`crate::util::regular_file::open_regular`]). Errors: `InvalidInput` naming what the
/// path is, or the open error.
pub fn open_regular(path: &Path) -> std::io::Result<(File, Metadata)> {
    regular_file::open_regular(path, None).map_err(|e| match e {
        RegularReadError::Io(e) => e,
        other => std::io::Error::new(std::io::ErrorKind::InvalidInput, other.to_string()),
    })
}

/// At most `cap` bytes of the regular file `path` ([`open_regular`]); errors as there, or
/// the read error.
pub fn read_regular_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let (file, meta) = open_regular(path)?;
    if let Some(prior) = inputs::prior_bytes(path, &meta) {
        let mut bytes = prior;
        bytes.truncate(usize::try_from(cap).unwrap_or(usize::MAX));
        return Ok(bytes);
    }
    let mut bytes = Vec::with_capacity(meta.len().min(cap) as usize);
    file.take(cap).read_to_end(&mut bytes)?;
    inputs::note_read(path);
    Ok(bytes)
}

/// Read `path` (which must be the real path; it is stored in the source).
pub fn read_file(path: &Path) -> ReadOutcome {
    let (file, meta) = match open_regular(path) {
        Ok(f) => f,
        Err(e) => return ReadOutcome::Error(e.to_string()),
    };
    let (size, mtime) = size_and_mtime(&meta);
    let bytes = if let Some(prior) = inputs::prior_bytes(path, &meta) {
        prior
    } else {
        let mut bytes = Vec::with_capacity(size.min(MAX_READ_BYTES) as usize);
        if let Err(e) = file.take(MAX_READ_BYTES).read_to_end(&mut bytes) {
            return ReadOutcome::Error(e.to_string());
        }
        inputs::note_read(path);
        bytes
    };
    if bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0) {
        return ReadOutcome::Binary { size };
    }
    let truncated = size > bytes.len() as u64 && bytes.len() as u64 >= MAX_READ_BYTES;
    let size = size.max(bytes.len() as u64);
    ReadOutcome::Text {
        source: Source::from_bytes(Some(path.to_path_buf()), bytes, size, mtime),
        truncated,
    }
}

/// (size in bytes, modification time in whole seconds since the epoch, 0 when unknown).
fn size_and_mtime(m: &Metadata) -> (u64, u64) {
    let mtime = m
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok());
    (m.len(), mtime.map_or(0, |d| d.as_secs()))
}

/// Like [`read_file`] for a file whose bytes were already read whole (`bytes`, e.g. a
/// `README.md` read during detection): the same outcome without reading it again. Falls
/// back to [`read_file`] when `bytes` exceed [`MAX_READ_BYTES`].
pub(crate) fn read_file_prefetched(path: &Path, bytes: Vec<u8>) -> ReadOutcome {
    if bytes.len() as u64 > MAX_READ_BYTES {
        return read_file(path);
    }
    let (size, mtime) = match std::fs::metadata(path) {
        Ok(m) => size_and_mtime(&m),
        Err(e) => return ReadOutcome::Error(e.to_string()),
    };
    if bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0) {
        return ReadOutcome::Binary { size };
    }
    let truncated = size > bytes.len() as u64 && bytes.len() as u64 >= MAX_READ_BYTES;
    let size = size.max(bytes.len() as u64);
    ReadOutcome::Text {
        source: Source::from_bytes(Some(path.to_path_buf()), bytes, size, mtime),
        truncated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetched_read_equals_reading_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cases: [&[u8]; 4] = [b"# Title\nbody\n", b"ab\xffcd\n", b"bin\0ary", b""];
        for (i, bytes) in cases.iter().enumerate() {
            let p = dir.path().join(format!("README{i}.md"));
            std::fs::write(&p, bytes).expect("write");
            let direct = format!("{:?}", read_file(&p));
            let pre = format!("{:?}", read_file_prefetched(&p, bytes.to_vec()));
            assert_eq!(pre, direct, "case {i}");
        }
        let missing = dir.path().join("missing.md");
        assert!(matches!(
            read_file_prefetched(&missing, b"x".to_vec()),
            ReadOutcome::Error(_)
        ));
    }
}
