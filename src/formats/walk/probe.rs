//! What the folder detectors learn of one folder, each read at most once: the bytes of its
//! `README.md` (the git-adr and doc-tree rules both look at it, and the walker, which lists
//! the file like any other, is handed the same bytes instead of reading it again) and its
//! listing, so a rule probing for a file the folder does not hold (`SKILL.md`,
//! `manifest.json`, `_index.json` in every folder of a big doc tree) looks it up instead of
//! paying a failed `stat`.

use std::ffi::OsString;
use std::fs::FileType;
use std::path::Path;

use super::read::{MAX_READ_BYTES, read_regular_capped};

/// One listed entry: its name and its type as the listing reports it (`None` when the
/// listing could not tell; a symbolic link is reported as a link, not followed).
pub(crate) type ListedEntry = (OsString, Option<FileType>);

/// A folder's `README.md` bytes and listing, each read on first use (see the module doc).
/// One value serves one folder: every method takes that folder's path.
#[derive(Debug, Default)]
pub(crate) struct FolderProbe {
    read: bool,
    bytes: Option<Vec<u8>>,
    listed: bool,
    /// The entries once listed; `None` when the folder could not be listed.
    listing: Option<Vec<ListedEntry>>,
}

impl FolderProbe {
    /// The bytes of `dir/README.md` (read on first use), at most
    /// [`MAX_READ_BYTES`] of them as the loader reads any file; `None` when it cannot be
    /// read or is no regular file (a fifo would block, a device never end).
    pub fn readme(&mut self, dir: &Path) -> Option<&[u8]> {
        if !self.read {
            self.read = true;
            self.bytes = read_regular_capped(&dir.join("README.md"), MAX_READ_BYTES).ok();
        }
        self.bytes.as_deref()
    }

    /// The README bytes, if they were read.
    pub fn take_readme(self) -> Option<Vec<u8>> {
        self.bytes
    }

    /// The entries of `dir` in listing order (listed on first use); `None` when it cannot
    /// be listed. Entries that fail to read are left out, as `read_dir(..).filter_map(Result::ok)`.
    pub fn entries(&mut self, dir: &Path) -> Option<&[ListedEntry]> {
        if !self.listed {
            self.listed = true;
            self.listing = super::inputs::read_dir(dir).ok().map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| (e.file_name(), e.file_type().ok()))
                    .collect()
            });
        }
        self.listing.as_deref()
    }

    /// Whether `dir/name` is a regular file, symbolic links followed: the same answer as
    /// `dir.join(name).is_file()`, with a `stat` only when the listing cannot tell (a link,
    /// an unknown type, a name that differs only in ASCII case — a case-insensitive file
    /// system — or a folder that cannot be listed). A name the listing lacks is no file.
    pub fn is_file(&mut self, dir: &Path, name: &str) -> bool {
        let Some(entries) = self.entries(dir) else {
            return dir.join(name).is_file();
        };
        let mut ask = false;
        for (n, t) in entries {
            if n == name {
                match t {
                    Some(t) if t.is_file() => return true,
                    Some(t) if t.is_dir() => return false,
                    _ => ask = true,
                }
            } else if n.eq_ignore_ascii_case(name) {
                ask = true;
            }
        }
        ask && dir.join(name).is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_answers_as_is_file_does() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        std::fs::write(d.join("SKILL.md"), "x").expect("write");
        std::fs::create_dir(d.join("manifest.json")).expect("mkdir");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(d.join("SKILL.md"), d.join("link.md")).expect("link");
            std::os::unix::fs::symlink(d.join("gone.md"), d.join("dangling.md")).expect("link");
        }
        let mut p = FolderProbe::default();
        for name in [
            "SKILL.md",
            "skill.md",
            "manifest.json",
            "_index.json",
            "link.md",
            "dangling.md",
        ] {
            assert_eq!(p.is_file(d, name), d.join(name).is_file(), "{name}");
        }
        let missing = d.join("no-such-folder");
        let mut q = FolderProbe::default();
        assert!(!q.is_file(&missing, "SKILL.md"));
        assert!(q.entries(&missing).is_none());
    }

    #[test]
    fn a_readme_is_read_up_to_the_loader_cap_and_only_when_regular() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let big = vec![b'a'; MAX_READ_BYTES as usize + 1024];
        std::fs::write(d.join("README.md"), &big).expect("write");
        let mut p = FolderProbe::default();
        assert_eq!(p.readme(d).map(<[u8]>::len), Some(16 * 1024 * 1024));
        #[cfg(unix)]
        {
            let z = d.join("zero");
            std::fs::create_dir(&z).expect("mkdir");
            std::os::unix::fs::symlink("/dev/zero", z.join("README.md")).expect("link");
            assert_eq!(FolderProbe::default().readme(&z), None);
        }
    }
}
