//! The manifest of a persisted index: every folder its load listed and every file it read or
//! listed, with the `stat` seen after the load, and when the load started. An index is
//! trusted only while every entry still has that `stat` and was last modified well before
//! the load started (docs/DESIGN.md §8 "Persisted index").

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::formats::walk::inputs::{Inputs, Prior, mtime_ns};
use crate::model::Source;

/// A file or folder modified this close to the load's start (nanoseconds; 2 s, the coarsest
/// common timestamp granularity) is not trusted: it may have changed again within the same
/// timestamp after it was read (git's "racy clean" rule).
pub const RACY_NS: u64 = 2_000_000_000;

/// One path and its `stat`: size in bytes (0 for a folder) and modification time in
/// nanoseconds since the epoch; `None` when it could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The path, as the loader used it.
    pub path: PathBuf,
    /// `(size, mtime_ns)`.
    pub stat: Option<(u64, u64)>,
}

/// What a persisted index was built from.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    /// The key of the request it answers (its file name is a digest of it).
    pub key: String,
    /// When the load started, nanoseconds since the epoch.
    pub started_ns: u64,
    /// Folders listed.
    pub dirs: Vec<Entry>,
    /// Files read or listed.
    pub files: Vec<Entry>,
}

fn stat(path: &Path, dir: bool) -> Option<(u64, u64)> {
    let m = std::fs::metadata(path).ok()?;
    Some((if dir { 0 } else { m.len() }, mtime_ns(&m)))
}

impl Manifest {
    /// The manifest, for `key`, of a load that started at `started_ns` and saw `inputs`;
    /// every path is stat-ed now.
    pub fn of(key: String, started_ns: u64, inputs: &Inputs) -> Self {
        let entries = |v: &[PathBuf], dir: bool| {
            v.iter()
                .map(|p| Entry {
                    path: p.clone(),
                    stat: stat(p, dir),
                })
                .collect()
        };
        Self {
            key,
            started_ns,
            dirs: entries(&inputs.dirs, true),
            files: entries(&inputs.files, false),
        }
    }

    /// Whether `e`'s recorded `stat` can be trusted and still holds.
    fn holds(&self, e: &Entry, dir: bool) -> bool {
        match e.stat {
            Some((_, mtime)) if mtime.saturating_add(RACY_NS) > self.started_ns => false,
            recorded => stat(&e.path, dir) == recorded,
        }
    }

    /// Whether nothing the load saw has changed since (every entry stat-ed again).
    pub fn unchanged(&self) -> bool {
        self.dirs.iter().all(|e| self.holds(e, true))
            && self.files.iter().all(|e| self.holds(e, false))
    }

    /// The texts of `sources` that a new load may take instead of reading their files again:
    /// sources whose file this manifest recorded, whose bytes the text holds exactly (no
    /// invalid UTF-8 replaced, not truncated), and whose recorded `stat` is trusted. The
    /// loader serves them only while the file's `stat` is still the recorded one.
    pub fn prior_texts(&self, sources: &mut [Source]) -> HashMap<PathBuf, Prior> {
        let trusted: HashMap<&Path, (u64, u64)> = self
            .files
            .iter()
            .filter_map(|e| {
                let (size, mtime) = e.stat?;
                (mtime.saturating_add(RACY_NS) <= self.started_ns)
                    .then_some((e.path.as_path(), (size, mtime)))
            })
            .collect();
        let mut prior = HashMap::new();
        for src in sources {
            let Some(path) = &src.abs_path else { continue };
            let Some(&(size, mtime_ns)) = trusted.get(path.as_path()) else {
                continue;
            };
            if src.invalid_utf8 || src.text.len() as u64 != size {
                continue;
            }
            let bytes: Arc<str> = Arc::from(std::mem::take(&mut src.text));
            prior.insert(
                path.clone(),
                Prior {
                    size,
                    mtime_ns,
                    bytes,
                },
            );
        }
        prior
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now_ns() -> u64 {
        let d = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        u64::try_from(d.as_nanos()).unwrap()
    }

    fn inputs(dir: &Path, file: &Path) -> Inputs {
        Inputs {
            dirs: vec![dir.to_path_buf()],
            files: vec![file.to_path_buf()],
            ..Inputs::default()
        }
    }

    #[test]
    fn a_file_modified_just_before_the_load_is_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.md");
        std::fs::write(&f, "# A\n").unwrap();
        let m = Manifest::of(String::new(), now_ns(), &inputs(dir.path(), &f));
        assert!(!m.unchanged(), "written within RACY_NS of the load's start");
    }

    #[test]
    fn an_old_file_is_trusted_until_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.md");
        std::fs::write(&f, "# A\n").unwrap();
        let started = now_ns() + 10 * RACY_NS;
        let m = Manifest::of(String::new(), started, &inputs(dir.path(), &f));
        assert!(m.unchanged());
        std::fs::write(&f, "# B, longer\n").unwrap();
        assert!(!m.unchanged());
    }
}
