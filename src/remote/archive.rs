//! Unpacking a repository archive (`.tar.gz`, as GitHub's codeload serves it) into a cache
//! folder, refusing what could escape it (docs/REMOTE.md "Archives"): the one top folder
//! (`repo-<sha>/`) is stripped; an entry with `..` or an absolute path, an entry whose path
//! runs through a link unpacked before it, or a link whose target lies outside the folder
//! (followed through the links already there) fails the whole unpack, as does an archive
//! without its end-of-archive blocks; devices and fifos are skipped; the unpacked total is
//! capped. [`check_links`] is the same link rule for a tree made another way (`git clone`).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use super::error::RemoteError;

/// What one unpack wrote.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Unpacked {
    /// Regular files written.
    pub files: usize,
    /// Bytes of those files.
    pub bytes: u64,
}

/// Unpack the gzip-compressed tar `gz` into the existing folder `dest`, stripping the top
/// folder every entry shares. `source` names the archive in errors; `max_bytes` caps the
/// unpacked total. Errors: [`RemoteError::BadArchive`] for a truncated or corrupt archive, an
/// unsafe entry or a total over the cap; [`RemoteError::Cache`] when `dest` cannot be written.
pub fn unpack_tar_gz(
    gz: &[u8],
    dest: &Path,
    source: &str,
    max_bytes: u64,
) -> Result<Unpacked, RemoteError> {
    let bad = |reason: String| RemoteError::BadArchive {
        source: source.to_string(),
        reason,
    };
    let mut archive = tar::Archive::new(Tail::new(flate2::read::GzDecoder::new(gz)));
    let mut done = Unpacked::default();
    let mut top: Option<std::ffi::OsString> = None;
    let entries = archive
        .entries()
        .map_err(|e| bad(format!("truncated or corrupt: {e}")))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| bad(format!("truncated or corrupt: {e}")))?;
        let raw = entry
            .path()
            .map_err(|e| bad(format!("an entry name is not a path: {e}")))?
            .into_owned();
        let kind = entry.header().entry_type();
        if matches!(
            kind,
            tar::EntryType::XGlobalHeader | tar::EntryType::XHeader
        ) {
            continue;
        }
        let Some(rel) = strip_top(&raw, &mut top).map_err(&bad)? else {
            continue;
        };
        no_link_on_the_way(dest, &rel).map_err(&bad)?;
        unpack_entry(&mut entry, kind, dest, &rel, source, max_bytes, &mut done)?;
    }
    let tail = archive.into_inner();
    tail.finished().map_err(&bad)?;
    check_links(dest).map_err(&bad)?;
    Ok(done)
}

fn unpack_entry<R: Read>(
    entry: &mut tar::Entry<'_, R>,
    kind: tar::EntryType,
    dest: &Path,
    rel: &Path,
    source: &str,
    max_bytes: u64,
    done: &mut Unpacked,
) -> Result<(), RemoteError> {
    let bad = |reason: String| RemoteError::BadArchive {
        source: source.to_string(),
        reason,
    };
    let out = dest.join(rel);
    if kind.is_dir() {
        return mkdir(&out);
    }
    if kind.is_file() {
        let size = entry.header().size().unwrap_or(0);
        if done.bytes.saturating_add(size) > max_bytes {
            return Err(bad(format!(
                "unpacks to more than {}",
                crate::util::human::human_bytes(max_bytes)
            )));
        }
        write_file(entry, &out, rel, source)?;
        done.files += 1;
        done.bytes += size;
    } else if kind.is_symlink() || kind.is_hard_link() {
        link(entry, rel, dest, kind.is_symlink()).map_err(bad)?;
    }
    // Devices and fifos: nothing to write.
    Ok(())
}

/// The entry path without the top folder; `None` for the top folder itself. Errors: `..`, a
/// root or a prefix anywhere in the path, an entry outside the top folder, or a second top
/// folder (`top` remembers the first).
fn strip_top(raw: &Path, top: &mut Option<std::ffi::OsString>) -> Result<Option<PathBuf>, String> {
    let parts = plain_parts(raw)
        .ok_or_else(|| format!("entry `{}` leaves the archive folder", raw.display()))?;
    let Some(first) = parts.first() else {
        return Ok(None);
    };
    match top {
        Some(t) if t != first => {
            return Err(format!(
                "entry `{}` is outside the top folder `{}`",
                raw.display(),
                t.to_string_lossy()
            ));
        }
        Some(_) => {}
        None => *top = Some(first.clone()),
    }
    Ok((parts.len() >= 2).then(|| parts[1..].iter().collect()))
}

/// The plain components of `p` (`.` dropped); `None` when it holds `..`, a root or a prefix.
fn plain_parts(p: &Path) -> Option<Vec<std::ffi::OsString>> {
    let mut parts = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(n) => parts.push(n.to_os_string()),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts)
}

/// Refuse an entry whose path (its folders, or itself) is a link already unpacked: writing
/// through it could land anywhere the link points.
fn no_link_on_the_way(dest: &Path, rel: &Path) -> Result<(), String> {
    let mut at = dest.to_path_buf();
    for c in rel.components() {
        at.push(c);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(format!(
                "entry `{}` runs through a link of the archive",
                rel.display()
            ));
        }
    }
    Ok(())
}

fn mkdir(dir: &Path) -> Result<(), RemoteError> {
    std::fs::create_dir_all(dir).map_err(|e| RemoteError::cache(dir.display().to_string(), e))
}

fn write_file(
    entry: &mut impl Read,
    out: &Path,
    rel: &Path,
    source: &str,
) -> Result<(), RemoteError> {
    if let Some(parent) = out.parent() {
        mkdir(parent)?;
    }
    let mut file =
        std::fs::File::create(out).map_err(|e| RemoteError::cache(out.display().to_string(), e))?;
    std::io::copy(entry, &mut file).map_err(|e| {
        if matches!(
            e.kind(),
            std::io::ErrorKind::UnexpectedEof | std::io::ErrorKind::InvalidInput
        ) {
            RemoteError::BadArchive {
                source: source.to_string(),
                reason: format!("truncated inside `{}`", rel.display()),
            }
        } else {
            RemoteError::cache(out.display().to_string(), e)
        }
    })?;
    Ok(())
}

/// A symlink or hard link entry. A symlink's target, read from the entry's folder, must stay
/// inside `dest` as written and, followed through the links already there, in fact; it is
/// made as a symlink. A hard link's target (from the archive top) must be a file already
/// unpacked inside `dest`; it becomes a copy.
fn link<R: Read>(
    entry: &tar::Entry<'_, R>,
    rel: &Path,
    dest: &Path,
    symbolic: bool,
) -> Result<(), String> {
    let target = entry
        .link_name()
        .ok()
        .flatten()
        .ok_or_else(|| format!("link `{}` has no target", rel.display()))?
        .into_owned();
    let escapes = || format!("link `{}` points outside the archive folder", rel.display());
    if symbolic {
        let base = rel.parent().unwrap_or(Path::new(""));
        inside(&base.join(&target)).ok_or_else(escapes)?;
        make_symlink(&target, &dest.join(rel)).map_err(|e| e.to_string())?;
        if resolves_outside(&dest.join(rel), dest) {
            return Err(escapes());
        }
        Ok(())
    } else {
        let mut no_top = None;
        let within = strip_top(&target, &mut no_top)?.ok_or_else(escapes)?;
        let from = dest.join(inside(&within).ok_or_else(escapes)?);
        if resolves_outside(&from, dest) {
            return Err(escapes());
        }
        std::fs::copy(&from, dest.join(rel))
            .map(|_| ())
            .map_err(|e| format!("hard link `{}`: {e}", rel.display()))
    }
}

/// Whether `path`, followed through every link, lands outside `dest` (a dangling link counts
/// as outside: its target could appear later).
fn resolves_outside(path: &Path, dest: &Path) -> bool {
    let (Ok(real), Ok(root)) = (std::fs::canonicalize(path), std::fs::canonicalize(dest)) else {
        return true;
    };
    !real.starts_with(root)
}

/// Every symlink under `dest`, followed to its end, must resolve inside `dest`. Errors: the
/// first link that points outside (or nowhere), by its path under `dest`.
pub fn check_links(dest: &Path) -> Result<(), String> {
    let mut stack = vec![dest.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_symlink() && resolves_outside(&p, dest) => {
                    let rel = p.strip_prefix(dest).unwrap_or(&p);
                    return Err(format!(
                        "link `{}` points outside the archive folder",
                        rel.display()
                    ));
                }
                Ok(t) if t.is_dir() => stack.push(p),
                _ => {}
            }
        }
    }
    Ok(())
}

/// `path` with `.` and `..` applied, when it never climbs above its start; `None` otherwise
/// (or when absolute).
fn inside(path: &Path) -> Option<PathBuf> {
    let mut out: Vec<&std::ffi::OsStr> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out.iter().collect())
}

#[cfg(unix)]
fn make_symlink(target: &Path, at: &Path) -> std::io::Result<()> {
    if let Some(parent) = at.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::os::unix::fs::symlink(target, at)
}

#[cfg(not(unix))]
fn make_symlink(_target: &Path, _at: &Path) -> std::io::Result<()> {
    Ok(())
}

/// A reader that keeps the last 1,024 bytes it passed on and their count, so the end of a tar
/// stream can be checked (POSIX tar ends with two 512-byte zero blocks).
struct Tail<R> {
    inner: R,
    last: Vec<u8>,
    total: u64,
}

impl<R: Read> Tail<R> {
    fn new(inner: R) -> Self {
        Self {
            inner,
            last: Vec::with_capacity(2048),
            total: 0,
        }
    }

    /// Read what the tar reader left (the end blocks and the record padding), then check the
    /// stream ended with two zero blocks. Errors: an archive cut before its end.
    fn finished(mut self) -> Result<(), String> {
        let mut rest = [0u8; 8192];
        loop {
            match self.read(&mut rest) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => return Err(format!("truncated or corrupt: {e}")),
            }
        }
        if self.total < 1024 || self.last.iter().any(|b| *b != 0) {
            return Err("truncated: the archive ends before its end-of-archive blocks".into());
        }
        Ok(())
    }
}

impl<R: Read> Read for Tail<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.total += n as u64;
        self.last.extend_from_slice(&buf[..n]);
        if self.last.len() > 1024 {
            let cut = self.last.len() - 1024;
            self.last.drain(..cut);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `.tar.gz` of `(path, kind, data or link target)`; kind `f` file, `s` symlink, `h` hard
    /// link. Paths are written raw into the header, so `..` can be planted.
    pub(crate) fn tar_gz(entries: &[(&str, char, &str)]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (path, kind, data) in entries {
            let mut h = tar::Header::new_gnu();
            let name = h.as_old_mut().name.as_mut_slice();
            name[..path.len()].copy_from_slice(path.as_bytes());
            match kind {
                'f' => {
                    h.set_entry_type(tar::EntryType::Regular);
                    h.set_size(data.len() as u64);
                }
                's' | 'h' => {
                    h.set_entry_type(if *kind == 's' {
                        tar::EntryType::Symlink
                    } else {
                        tar::EntryType::Link
                    });
                    h.set_size(0);
                    let link = h.as_old_mut().linkname.as_mut_slice();
                    link[..data.len()].copy_from_slice(data.as_bytes());
                }
                _ => {
                    h.set_entry_type(tar::EntryType::Directory);
                    h.set_size(0);
                }
            }
            h.set_mode(0o644);
            h.set_cksum();
            let body: &[u8] = if *kind == 'f' { data.as_bytes() } else { &[] };
            b.append(&h, body).unwrap_or_else(|e| panic!("append: {e}"));
        }
        let tar = b.into_inner().unwrap_or_else(|e| panic!("tar: {e}"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &tar).unwrap_or_else(|e| panic!("gz: {e}"));
        gz.finish().unwrap_or_else(|e| panic!("gz: {e}"))
    }

    fn unpack(gz: &[u8]) -> (tempfile::TempDir, Result<Unpacked, RemoteError>) {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let r = unpack_tar_gz(gz, t.path(), "github:o/r", 1 << 20);
        (t, r)
    }

    #[test]
    fn the_top_folder_is_stripped_and_links_inside_are_kept() {
        let gz = tar_gz(&[
            ("r-1/", 'd', ""),
            ("r-1/skills/pdf/SKILL.md", 'f', "---\nname: pdf\n---\n"),
            ("r-1/skills/pdf/same.md", 'h', "r-1/skills/pdf/SKILL.md"),
            ("r-1/skills/link.md", 's', "pdf/SKILL.md"),
        ]);
        let (t, r) = unpack(&gz);
        assert_eq!(
            r.map_err(|e| e.to_string()),
            Ok(Unpacked {
                files: 1,
                bytes: 18
            })
        );
        let read = |p: &str| std::fs::read_to_string(t.path().join(p)).unwrap_or_default();
        assert_eq!(read("skills/pdf/SKILL.md"), "---\nname: pdf\n---\n");
        assert_eq!(read("skills/pdf/same.md"), read("skills/pdf/SKILL.md"));
        assert_eq!(read("skills/link.md"), read("skills/pdf/SKILL.md"));
    }

    #[test]
    fn dot_dot_entries_and_links_leaving_the_folder_are_refused() {
        for entries in [
            vec![("r-1/../../evil.md", 'f', "x")],
            vec![("r-1/a.md", 's', "../../etc/passwd")],
            vec![("r-1/a.md", 's', "/etc/passwd")],
            vec![("r-1/a.md", 'h', "r-1/../../etc/passwd")],
        ] {
            let (t, r) = unpack(&tar_gz(&entries));
            assert!(
                matches!(&r, Err(RemoteError::BadArchive { reason, .. }) if reason.contains("outside") || reason.contains("leaves")),
                "{entries:?}: {r:?}"
            );
            assert!(!t.path().join("a.md").exists());
        }
    }

    #[test]
    fn a_path_through_an_unpacked_link_cannot_climb_out() {
        let chain = "r-1/x/x/x/x/x/x/x/x/x/x/esc";
        for entries in [
            // `x → .` makes `x/x/…` a long name for the top; `esc → ../../…` then climbs out.
            vec![
                ("r-1/x", 's', "."),
                (chain, 's', "../../../../../../../../../.."),
                ("r-1/esc/tmp/pwned.md", 'f', "x"),
            ],
            // A hard link read through the same chain.
            vec![
                ("r-1/x", 's', "."),
                ("r-1/stolen.md", 'h', "r-1/x/x/../../../../etc/hostname"),
            ],
            // `a → .`, then `b → a/..`: inside as written, outside once `a` is followed.
            vec![("r-1/a", 's', "."), ("r-1/b", 's', "a/..")],
        ] {
            let (t, r) = unpack(&tar_gz(&entries));
            assert!(
                matches!(&r, Err(RemoteError::BadArchive { reason, .. })
                    if reason.contains("link") || reason.contains("leaves")),
                "{entries:?}: {r:?}"
            );
            assert!(!t.path().join("esc/tmp/pwned.md").exists());
            assert!(!t.path().join("stolen.md").exists());
        }
    }

    #[test]
    fn an_archive_cut_at_an_entry_boundary_or_with_two_tops_is_refused() {
        let gz = tar_gz(&[("r-1/a.md", 'f', "# A\n"), ("r-1/b.md", 'f', "# B\n")]);
        let mut tar = Vec::new();
        flate2::read::GzDecoder::new(gz.as_slice())
            .read_to_end(&mut tar)
            .unwrap_or_else(|e| panic!("gunzip: {e}"));
        // Two entries of one 512-byte header and one data block each, without the end blocks.
        let mut cut = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut cut, &tar[..2048]).unwrap_or_else(|e| panic!("gz: {e}"));
        let (_t, r) = unpack(&cut.finish().unwrap_or_else(|e| panic!("gz: {e}")));
        assert!(
            matches!(&r, Err(RemoteError::BadArchive { reason, .. }) if reason.contains("end-of-archive")),
            "{r:?}"
        );
        let (_t, r) = unpack(&tar_gz(&[("r-1/a.md", 'f', "a"), ("r-2/b.md", 'f', "b")]));
        assert!(
            matches!(&r, Err(RemoteError::BadArchive { reason, .. }) if reason.contains("outside the top folder")),
            "{r:?}"
        );
    }

    #[test]
    fn a_truncated_archive_is_a_bad_archive() {
        let gz = tar_gz(&[("r-1/a.md", 'f', &"x".repeat(4000))]);
        let (_t, r) = unpack(&gz[..gz.len() / 2]);
        assert!(matches!(r, Err(RemoteError::BadArchive { .. })), "{r:?}");
        let (_t, r) = unpack(b"not gzip at all");
        assert!(matches!(r, Err(RemoteError::BadArchive { .. })), "{r:?}");
    }

    #[test]
    fn an_archive_unpacking_past_the_cap_is_refused() {
        let gz = tar_gz(&[("r-1/a.md", 'f', &"x".repeat(4000))]);
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let r = unpack_tar_gz(&gz, t.path(), "s", 1000);
        assert!(
            matches!(r, Err(RemoteError::BadArchive { reason, .. }) if reason.contains("more than"))
        );
    }
}
