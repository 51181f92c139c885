//! The remote cache (docs/REMOTE.md "Cache"): one folder per source under
//! `<user cache dir>/remote/`, named by the SHA-256 of the source's canonical spelling, holding
//! `source.json` ([`EntryMeta`]: what was fetched, when, with which validators) and `tree/`
//! (the files). A whole entry is built in a temporary folder and renamed into place, and a
//! single file is replaced by rename, so a failed fetch leaves the cache as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::error::RemoteError;
use super::http::Validators;

/// The `source.json` format version.
pub const META_SCHEMA: u32 = 1;

/// `source.json` of a cache entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryMeta {
    /// [`META_SCHEMA`].
    pub schema: u32,
    /// The source's canonical spelling (`github:owner/repo@ref`, or the URL).
    pub source: String,
    /// When the entry was last fetched or revalidated, UTC seconds since the Unix epoch.
    pub fetched: u64,
    /// Validators of the archive or index file.
    pub validators: Validators,
    /// Where the source's redirects led, when elsewhere (an llms.txt's links resolve
    /// against it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    /// Linked pages mirrored beside an llms.txt: URL → where it lives under `tree/`.
    #[serde(default)]
    pub pages: BTreeMap<String, PageMeta>,
}

/// One mirrored page of an llms.txt source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageMeta {
    /// Path under `tree/`, `/`-separated.
    pub rel: String,
    /// Its validators.
    pub validators: Validators,
}

/// A cache entry as `cache list` shows it.
#[derive(Clone, Debug)]
pub struct Listed {
    /// The entry's `source.json`.
    pub meta: EntryMeta,
    /// Bytes of every file under `tree/`.
    pub bytes: u64,
    /// The entry folder.
    pub dir: PathBuf,
}

/// The remote cache folder.
#[derive(Clone, Debug)]
pub struct Cache {
    root: PathBuf,
}

impl Cache {
    /// The cache under the user cache folder (`$XDG_CACHE_HOME/skillnav/remote` on Linux).
    /// Errors: the platform has no home folder.
    pub fn user() -> Result<Self, RemoteError> {
        crate::util::paths::cache_dir()
            .map(|d| Self::at(d.join("remote")))
            .ok_or_else(|| {
                RemoteError::cache(
                    "the user cache folder",
                    std::io::Error::other("no home folder"),
                )
            })
    }

    /// A cache rooted at `root` (tests).
    pub fn at(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// The folder of `key`'s entry (it may not exist).
    pub fn entry_dir(&self, key: &str) -> PathBuf {
        let digest = Sha256::digest(key.as_bytes());
        let hex = digest[..10]
            .iter()
            .fold(String::with_capacity(20), |mut s, b| {
                use std::fmt::Write as _;
                let _ = write!(s, "{b:02x}");
                s
            });
        self.root.join(hex)
    }

    /// `source.json` of `key`'s entry; `None` when there is none, or it is unreadable, of
    /// another schema or of another source (a hash collision is never trusted).
    pub fn meta(&self, key: &str) -> Option<EntryMeta> {
        let text = std::fs::read_to_string(self.entry_dir(key).join("source.json")).ok()?;
        let meta: EntryMeta = serde_json::from_str(&text).ok()?;
        (meta.schema == META_SCHEMA
            && meta.source == key
            && self.entry_dir(key).join("tree").is_dir())
        .then_some(meta)
    }

    /// Build `key`'s entry with `fill` (which writes under the `tree/` folder it is given and
    /// returns the metadata), then swap it in for the old one. A failure of `fill` or of a
    /// write leaves the old entry (or none) as it was. Several processes may install one
    /// source at once: each builds its own copy, and one that finds a copy installed since it
    /// started keeps that one. Temporary folders
    /// left by a killed process are removed once they are an hour old. Returns the entry
    /// folder.
    pub fn install(
        &self,
        key: &str,
        fill: impl FnOnce(&Path) -> Result<EntryMeta, RemoteError>,
    ) -> Result<PathBuf, RemoteError> {
        let started = now_secs();
        std::fs::create_dir_all(&self.root)
            .map_err(|e| RemoteError::cache(self.root.display().to_string(), e))?;
        self.sweep();
        let tmp = self.temp_dir(".partial-")?;
        let tree = tmp.path().join("tree");
        std::fs::create_dir(&tree).map_err(|e| RemoteError::cache("tree/", e))?;
        let meta = fill(&tree)?;
        write_meta_in(tmp.path(), &meta)?;
        let dir = self.entry_dir(key);
        // Another process installed this source while we fetched it: theirs is as new.
        if self.meta(key).is_some_and(|m| m.fetched >= started) {
            return Ok(dir);
        }
        self.swap_in(tmp.keep(), &dir)?;
        Ok(dir)
    }

    fn temp_dir(&self, prefix: &str) -> Result<tempfile::TempDir, RemoteError> {
        tempfile::Builder::new()
            .prefix(prefix)
            .tempdir_in(&self.root)
            .map_err(|e| RemoteError::cache("a temporary folder", e))
    }

    /// Put the folder `new` at `dir`: the old entry is moved aside under a name of its own,
    /// then removed. When another process swapped its copy in at the same moment, that copy
    /// stays and `new` is dropped.
    fn swap_in(&self, new: PathBuf, dir: &Path) -> Result<(), RemoteError> {
        let old = self.temp_dir(".old-")?.keep();
        let had_old = match std::fs::rename(dir, &old) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&new);
                let _ = std::fs::remove_dir_all(&old);
                return Err(RemoteError::cache("the old entry", e));
            }
        };
        match std::fs::rename(&new, dir) {
            Ok(()) => {}
            Err(_) if dir.join("source.json").is_file() => {
                let _ = std::fs::remove_dir_all(&new);
            }
            Err(e) => {
                if had_old {
                    let _ = std::fs::rename(&old, dir);
                }
                let _ = std::fs::remove_dir_all(&new);
                let _ = std::fs::remove_dir_all(&old);
                return Err(RemoteError::cache("the new entry", e));
            }
        }
        let _ = std::fs::remove_dir_all(&old);
        Ok(())
    }

    /// Remove `.partial-*` and `.old-*` folders an hour old or older (a fetch killed midway).
    fn sweep(&self) {
        let Ok(rd) = std::fs::read_dir(&self.root) else {
            return;
        };
        let hour = std::time::Duration::from_secs(3600);
        for e in rd.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let stale = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age >= hour);
            if (name.starts_with(".partial-") || name.starts_with(".old-")) && stale {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }

    /// Replace `key`'s `source.json` atomically.
    pub fn write_meta(&self, key: &str, meta: &EntryMeta) -> Result<(), RemoteError> {
        write_meta_in(&self.entry_dir(key), meta)
    }

    /// Every entry, by source.
    pub fn list(&self) -> Vec<Listed> {
        let Ok(rd) = std::fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let mut out: Vec<Listed> = rd
            .flatten()
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .filter_map(|e| {
                let text = std::fs::read_to_string(e.path().join("source.json")).ok()?;
                let meta: EntryMeta = serde_json::from_str(&text).ok()?;
                Some(Listed {
                    bytes: tree_bytes(&e.path().join("tree")),
                    dir: e.path(),
                    meta,
                })
            })
            .collect();
        out.sort_by(|a, b| a.meta.source.cmp(&b.meta.source));
        out
    }

    /// Remove every entry (and any leftover temporary folder); returns how many entries
    /// there were. Errors: a folder that cannot be removed.
    pub fn clear(&self) -> Result<usize, RemoteError> {
        let n = self.list().len();
        match std::fs::remove_dir_all(&self.root) {
            Ok(()) => Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
            Err(e) => Err(RemoteError::cache(self.root.display().to_string(), e)),
        }
    }

    /// The source whose cached copy holds `path`, when `path` lies inside this cache: cached
    /// copies are read-only (docs/REMOTE.md "Read-only").
    pub fn source_of(&self, path: &Path) -> Option<String> {
        let real_root = std::fs::canonicalize(&self.root).ok()?;
        // A path still to be written: its nearest existing ancestor decides.
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir().ok()?.join(path)
        };
        let real = abs
            .ancestors()
            .find_map(|a| std::fs::canonicalize(a).ok())?;
        let rest = real.strip_prefix(&real_root).ok()?;
        let entry = real_root.join(rest.components().next()?);
        let text = std::fs::read_to_string(entry.join("source.json")).ok();
        Some(
            text.and_then(|t| serde_json::from_str::<EntryMeta>(&t).ok())
                .map_or_else(|| "a remote source".to_string(), |m| m.source),
        )
    }
}

/// Why `path` cannot be edited: it is a cached copy of a remote source. `None` for a local
/// file. Every front end asks this before writing (docs/REMOTE.md "Read-only").
pub fn read_only_reason(path: &Path) -> Option<String> {
    let source = Cache::user().ok()?.source_of(path)?;
    Some(format!(
        "read-only: a cached copy of {source} (export a selection to get a local copy): {}",
        path.display()
    ))
}

fn write_meta_in(dir: &Path, meta: &EntryMeta) -> Result<(), RemoteError> {
    let text = serde_json::to_string_pretty(meta)
        .map_err(|e| RemoteError::cache("source.json", std::io::Error::other(e)))?;
    crate::util::paths::replace_cache_file(dir, &dir.join("source.json"), text.as_bytes())
        .map_err(|e| RemoteError::cache("source.json", e))
}

fn tree_bytes(dir: &Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    rd.flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => tree_bytes(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

/// Seconds since the Unix epoch, now.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_fill_leaves_the_old_entry_and_no_partial_folder() {
        let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
        let cache = Cache::at(t.path().join("remote"));
        let key = "github:o/r";
        let meta = |k: &str| EntryMeta {
            schema: META_SCHEMA,
            source: k.into(),
            ..Default::default()
        };
        let dir = cache
            .install(key, |tree| {
                std::fs::write(tree.join("a.md"), "# A\n")
                    .map_err(|e| RemoteError::cache("a", e))?;
                Ok(meta(key))
            })
            .unwrap_or_else(|e| panic!("install: {e}"));
        let failed = cache.install(key, |tree| {
            std::fs::write(tree.join("b.md"), "# B\n").map_err(|e| RemoteError::cache("b", e))?;
            Err(RemoteError::NotFound { url: "u".into() })
        });
        assert!(failed.is_err());
        assert_eq!(
            std::fs::read_to_string(dir.join("tree/a.md"))
                .ok()
                .as_deref(),
            Some("# A\n")
        );
        assert!(!dir.join("tree/b.md").exists());
        let names: Vec<String> = std::fs::read_dir(t.path().join("remote"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert_eq!(cache.meta(key).map(|m| m.source), Some(key.to_string()));
        assert_eq!(
            cache.source_of(&dir.join("tree/a.md")).as_deref(),
            Some(key)
        );
        assert_eq!(cache.source_of(t.path()), None);
        assert_eq!(cache.clear().ok(), Some(1));
        assert!(cache.list().is_empty());
    }
}
