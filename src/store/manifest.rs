//! The manifest of a persisted index: every folder its load listed, every file it read or
//! listed, every symbolic link it followed and every path whose mere presence changes a load
//! (a parent's `.git`), each with the [`Stamp`] seen after the load, and when the load
//! started. An index is trusted only while every entry still has that stamp and none was
//! modified shortly before the load started (docs/DESIGN.md §8 "Persisted
//! index").

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::formats::walk::inputs::{Inputs, Prior, Stamp};
use crate::model::Source;

/// A file or folder modified this close to the load's start (nanoseconds; 2 s, the coarsest
/// common timestamp granularity) is not trusted: it may have changed again within the same
/// timestamp after it was read (git's "racy clean" rule). The change time is compared, not
/// aged: a copy that keeps the modification time (`cp -p`) still changes it.
pub const RACY_NS: u64 = 2_000_000_000;

/// How an entry is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// `stat` of a folder (its size left out: 0).
    Dir,
    /// `stat` of a file, symlinks followed.
    File,
    /// `lstat` of a symbolic link: retargeting it changes its stamp.
    Link,
    /// Only whether the path exists (a parent's `.git`, whose own times change with every
    /// git command): a zero stamp when it does.
    Exists,
}

impl Check {
    fn stamp(self, path: &Path) -> Option<Stamp> {
        let meta = match self {
            Check::Link => std::fs::symlink_metadata(path),
            _ => std::fs::metadata(path),
        };
        let meta = meta.ok()?;
        Some(match self {
            Check::Exists => Stamp::default(),
            Check::Dir => Stamp {
                size: 0,
                ..Stamp::of(&meta)
            },
            Check::File | Check::Link => Stamp::of(&meta),
        })
    }
}

/// One path and its [`Stamp`] after the load (`None`: it did not exist or could not be
/// read).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The path, as the loader used it.
    pub path: PathBuf,
    /// Its stamp.
    pub stat: Option<Stamp>,
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
    /// Symbolic links followed.
    pub links: Vec<Entry>,
    /// Paths whose presence matters.
    pub probes: Vec<Entry>,
}

impl Manifest {
    /// The manifest, for `key`, of a load that started at `started_ns` and saw `inputs`;
    /// every path is stat-ed now.
    pub fn of(key: String, started_ns: u64, inputs: &Inputs) -> Self {
        let entries = |v: &[PathBuf], check: Check| {
            v.iter()
                .map(|p| Entry {
                    path: p.clone(),
                    stat: check.stamp(p),
                })
                .collect()
        };
        Self {
            key,
            started_ns,
            dirs: entries(&inputs.dirs, Check::Dir),
            files: entries(&inputs.files, Check::File),
            links: entries(&inputs.links, Check::Link),
            probes: entries(&inputs.probes, Check::Exists),
        }
    }

    /// Whether `stamp`'s modification and change times are well before the load started.
    fn settled(&self, stamp: &Stamp) -> bool {
        // The change time too: a file replaced while the load ran by a copy that keeps the
        // old modification time (`cp -p`) has an old mtime but a new ctime, and the load may
        // have read the file it replaced.
        stamp.mtime_ns.max(stamp.ctime_ns).saturating_add(RACY_NS) <= self.started_ns
    }

    /// Whether `e`'s recorded stamp can be trusted and still holds.
    fn holds(&self, e: &Entry, check: Check) -> bool {
        match &e.stat {
            Some(s) if check != Check::Exists && !self.settled(s) => false,
            recorded => check.stamp(&e.path).as_ref() == recorded.as_ref(),
        }
    }

    /// Whether nothing the load saw has changed since (every entry stat-ed again).
    pub fn unchanged(&self) -> bool {
        self.dirs.iter().all(|e| self.holds(e, Check::Dir))
            && self.files.iter().all(|e| self.holds(e, Check::File))
            && self.links.iter().all(|e| self.holds(e, Check::Link))
            && self.probes.iter().all(|e| self.holds(e, Check::Exists))
    }

    /// The texts of `sources` that a new load may take instead of reading their files again:
    /// sources whose file this manifest recorded, whose bytes the text holds exactly (no
    /// invalid UTF-8 replaced, not truncated), and whose recorded stamp is trusted. The
    /// loader serves them only while the file's stamp is still the recorded one.
    pub fn prior_texts(&self, sources: Vec<Source>) -> HashMap<PathBuf, Prior> {
        let trusted: HashMap<&Path, Stamp> = self
            .files
            .iter()
            .filter_map(|e| {
                let s = e.stat?;
                self.settled(&s).then_some((e.path.as_path(), s))
            })
            .collect();
        let mut prior = HashMap::new();
        for source in sources {
            let Some(path) = source.abs_path.clone() else {
                continue;
            };
            let Some(&stamp) = trusted.get(path.as_path()) else {
                continue;
            };
            if source.invalid_utf8 || source.text_len() as u64 != stamp.size {
                continue;
            }
            prior.insert(path, Prior { stamp, source });
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

    #[cfg(unix)]
    #[test]
    fn a_file_replaced_during_the_load_by_a_copy_keeping_its_old_mtime_is_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.md");
        std::fs::write(&f, "# A\n").unwrap();
        let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for p in [&f, &dir.path().to_path_buf()] {
            std::fs::File::open(p).unwrap().set_modified(past).unwrap();
        }
        // As `cp -p` leaves it: an hour-old mtime, but the change time is now, after the
        // load started (the load may have read the file this one replaced).
        let started = now_ns() - RACY_NS / 2;
        let m = Manifest::of(String::new(), started, &inputs(dir.path(), &f));
        assert!(!m.unchanged());
        let settled = Manifest::of(String::new(), now_ns() + RACY_NS, &inputs(dir.path(), &f));
        assert!(
            settled.unchanged(),
            "the same file, changed well before a later load"
        );
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
