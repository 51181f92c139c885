//! Unpacking a repository archive (`.tar.gz`, as GitHub's codeload serves it) into a cache
//! folder, refusing what could escape it (docs/REMOTE.md "Archives"): the top folder
//! (`repo-<sha>/`) is stripped; an entry with `..` or an absolute path, or a link pointing
//! outside the folder, fails the whole unpack; devices and fifos are skipped; the unpacked
//! total is capped.

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

/// Unpack the gzip-compressed tar `gz` into the existing folder `dest`, stripping the first
/// path component of every entry. `source` names the archive in errors; `max_bytes` caps the
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
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(gz));
    let mut done = Unpacked::default();
    let entries = archive
        .entries()
        .map_err(|e| bad(format!("truncated or corrupt: {e}")))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| bad(format!("truncated or corrupt: {e}")))?;
        let raw = entry
            .path()
            .map_err(|e| bad(format!("an entry name is not a path: {e}")))?
            .into_owned();
        let Some(rel) = strip_top(&raw).map_err(&bad)? else {
            continue;
        };
        let kind = entry.header().entry_type();
        let out = dest.join(&rel);
        if kind.is_dir() {
            mkdir(&out)?;
        } else if kind.is_file() {
            let size = entry.header().size().unwrap_or(0);
            if done.bytes + size > max_bytes {
                return Err(bad(format!(
                    "unpacks to more than {}",
                    crate::util::human::human_bytes(max_bytes)
                )));
            }
            write_file(&mut entry, &out, &rel, source)?;
            done.files += 1;
            done.bytes += size;
        } else if kind.is_symlink() || kind.is_hard_link() {
            link(&entry, &rel, dest, kind.is_symlink()).map_err(&bad)?;
        }
        // pax headers, devices and fifos: nothing to write.
    }
    Ok(done)
}

/// The entry path without its first component; `None` for the top folder itself (and pax
/// headers). Errors: `..`, a root or a prefix anywhere in the path.
fn strip_top(raw: &Path) -> Result<Option<PathBuf>, String> {
    let mut parts = Vec::new();
    for c in raw.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_os_string()),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(format!(
                    "entry `{}` leaves the archive folder",
                    raw.display()
                ));
            }
        }
    }
    if parts.len() < 2 {
        return Ok(None);
    }
    Ok(Some(parts[1..].iter().collect()))
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
        if e.kind() == std::io::ErrorKind::UnexpectedEof
            || e.kind() == std::io::ErrorKind::InvalidInput
        {
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

/// A symlink or hard link entry: its target, resolved from the entry's folder (a hard link's
/// from the archive top), must stay inside `dest`. A symlink is made as a symlink; a hard
/// link becomes a copy of a file already unpacked.
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
        make_symlink(&target, &dest.join(rel)).map_err(|e| e.to_string())
    } else {
        let within = strip_top(&target)?.ok_or_else(escapes)?;
        let within = inside(&within).ok_or_else(escapes)?;
        std::fs::copy(dest.join(within), dest.join(rel))
            .map(|_| ())
            .map_err(|e| format!("hard link `{}`: {e}", rel.display()))
    }
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
