//! Saving an edited SKILL.md without ever losing data (issue 4; DESIGN §9): refuse when
//! the file changed since it was read (SHA-256 of its bytes), write through a symlink to
//! the real file, write a temp file in the same folder, fsync, keep permissions, rename over
//! the target, fsync the folder. A failure at any step leaves the original untouched and no
//! temp file behind. Also the undo of a save and the line diff shown before/after saving.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

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

/// Read `path` for editing (following symlinks). Errors: `Io` when it cannot be read or a
/// symlink cannot be resolved (a loop, a dangling link).
pub fn load(path: &Path) -> Result<LoadedFile> {
    let real_path = fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
    let bytes = fs::read(&real_path).map_err(|e| Error::io(path, e))?;
    Ok(LoadedFile { path: path.to_path_buf(), real_path, hash: hash(&bytes), bytes })
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
    let meta = fs::metadata(real).map_err(|e| Error::io(&file.path, e))?;
    let current = fs::read(real).map_err(|e| Error::io(&file.path, e))?;
    if hash(&current) != file.hash {
        return Err(Error::Refused(format!("{shown} changed on disk since it was read; reload")));
    }
    let perms = meta.permissions();
    if perms.readonly() {
        return Err(Error::Refused(format!("{shown} is read-only; nothing written")));
    }
    let dir = real.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let denied = |e: std::io::Error| -> Error {
        if e.kind() == std::io::ErrorKind::PermissionDenied {
            Error::Refused(format!("cannot write {shown}: permission denied; nothing written"))
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
    tmp.as_file().sync_all().map_err(denied)?;
    before_rename(tmp.path()).map_err(denied)?;
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

/// Whether a diff line was removed or added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffKind {
    /// Present only in the old bytes.
    Removed,
    /// Present only in the new bytes.
    Added,
}

/// One changed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffLine {
    /// Removed or added.
    pub kind: DiffKind,
    /// 1-based line number in the old file (removed) or the new file (added).
    pub line: u32,
    /// The line's text without its line ending (invalid UTF-8 shown as U+FFFD).
    pub text: String,
}

fn split_lines(b: &[u8]) -> Vec<&[u8]> {
    if b.is_empty() {
        return Vec::new();
    }
    let mut v: Vec<&[u8]> = b.split_inclusive(|&c| c == b'\n').collect();
    if v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

fn show(l: &[u8]) -> String {
    let l = l.strip_suffix(b"\n").unwrap_or(l);
    let l = l.strip_suffix(b"\r").unwrap_or(l);
    String::from_utf8_lossy(l).into_owned()
}

/// Exactly the changed lines between `old` and `new` (lines compared as bytes, line endings
/// included, so a CRLF→LF change shows), removed lines before added ones in each hunk, with
/// 1-based line numbers. Common leading/trailing lines are skipped first; the middle uses a
/// longest-common-subsequence diff (falls back to remove-all/add-all when it exceeds
/// 4 million cell comparisons).
pub fn line_diff(old: &[u8], new: &[u8]) -> Vec<DiffLine> {
    let a = split_lines(old);
    let b = split_lines(new);
    let mut pre = 0;
    while pre < a.len() && pre < b.len() && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < a.len() - pre && suf < b.len() - pre && a[a.len() - 1 - suf] == b[b.len() - 1 - suf] {
        suf += 1;
    }
    let am = &a[pre..a.len() - suf];
    let bm = &b[pre..b.len() - suf];
    let line = |i: usize| u32::try_from(pre + i + 1).unwrap_or(u32::MAX);
    let mut out = Vec::new();
    let rm = |i: usize, out: &mut Vec<DiffLine>| {
        out.push(DiffLine { kind: DiffKind::Removed, line: line(i), text: show(am[i]) })
    };
    let add = |j: usize, out: &mut Vec<DiffLine>| {
        out.push(DiffLine { kind: DiffKind::Added, line: line(j), text: show(bm[j]) })
    };
    if am.len().saturating_mul(bm.len()) > 4_000_000 {
        (0..am.len()).for_each(|i| rm(i, &mut out));
        (0..bm.len()).for_each(|j| add(j, &mut out));
        return out;
    }
    // lcs[i][j] = LCS length of am[i..] and bm[j..].
    let w = bm.len() + 1;
    let mut lcs = vec![0u32; (am.len() + 1) * w];
    for i in (0..am.len()).rev() {
        for j in (0..bm.len()).rev() {
            lcs[i * w + j] = if am[i] == bm[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut added = Vec::new();
    while i < am.len() || j < bm.len() {
        if i < am.len() && j < bm.len() && am[i] == bm[j] {
            added.drain(..).for_each(|k| add(k, &mut out));
            i += 1;
            j += 1;
        } else if j < bm.len() && (i == am.len() || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]) {
            added.push(j);
            j += 1;
        } else {
            rm(i, &mut out);
            i += 1;
        }
    }
    added.drain(..).for_each(|k| add(k, &mut out));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_exactly_changed_lines() {
        let d = line_diff(b"a\nb\nc\nd\n", b"a\nB\nc\nd\ne\n");
        assert_eq!(
            d,
            vec![
                DiffLine { kind: DiffKind::Removed, line: 2, text: "b".into() },
                DiffLine { kind: DiffKind::Added, line: 2, text: "B".into() },
                DiffLine { kind: DiffKind::Added, line: 5, text: "e".into() },
            ]
        );
        assert!(line_diff(b"same\n", b"same\n").is_empty());
    }

    #[test]
    fn diff_sees_line_ending_change() {
        let d = line_diff(b"a\r\nb\n", b"a\nb\n");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].kind, DiffKind::Removed);
        assert_eq!(d[0].text, "a");
    }
}
