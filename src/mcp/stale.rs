//! Which file events change anything (docs/MCP.md "Reloading"): an event names paths, and
//! a path that is a loaded file with the size and modification time it was loaded with
//! changes nothing (an editor that saves the same bytes, a tool that touches a file's
//! access time, the loader's own reads). A rescan request (the watcher lost events: an
//! inotify queue overflow) compares every loaded file with the disk instead of reloading
//! everything unseen. Times are whole seconds, so a file modified in the last few seconds
//! is also compared byte for byte.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::agent::workspace::Workspace;

/// A file whose size and modification time match the loaded ones is also compared byte
/// for byte when it was modified this recently ([`crate::model::RECENT_WRITE`]).
pub const RECENT: Duration = crate::model::RECENT_WRITE;

/// The loaded files of one workspace: absolute path → its source in the workspace (size in
/// bytes, modification time in whole seconds since the Unix epoch, and text, as the loader
/// recorded them).
#[derive(Debug)]
pub struct LoadedFiles {
    ws: Arc<Workspace>,
    files: HashMap<PathBuf, usize>,
}

impl LoadedFiles {
    /// The files `ws` was loaded from (sources without a path, such as remote pages held in
    /// memory, are left out).
    pub fn of(ws: &Arc<Workspace>) -> LoadedFiles {
        let files = ws
            .corpus
            .sources
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                let path = s.abs_path.as_deref()?;
                // Events name absolute paths; a root opened by a relative path is resolved.
                let path = if path.is_absolute() {
                    path.to_path_buf()
                } else {
                    std::fs::canonicalize(path).ok()?
                };
                Some((path, i))
            })
            .collect();
        LoadedFiles {
            ws: Arc::clone(ws),
            files,
        }
    }

    /// Whether `path` is a loaded file still as it was loaded: the same size and
    /// modification time, and, when modified within [`RECENT`], the same bytes. Anything
    /// else (a new file, a folder, a removed or edited file) may change the workspace.
    pub fn unchanged(&self, path: &Path) -> bool {
        self.files.get(path).is_some_and(|&i| self.same(path, i))
    }

    /// Whether every loaded file is still as it was loaded ([`LoadedFiles::unchanged`]).
    pub fn all_unchanged(&self) -> bool {
        self.files.iter().all(|(p, &i)| self.same(p, i))
    }

    /// Whether the file at `path` is source `i` as it was loaded
    /// ([`crate::model::Source::unchanged_on_disk`]).
    fn same(&self, path: &Path, i: usize) -> bool {
        self.ws.corpus.sources[i].unchanged_on_disk(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(dir: &Path) -> (Arc<Workspace>, PathBuf) {
        let file = dir.join("guide.md");
        std::fs::write(&file, "# Guide\n\nText.\n").unwrap();
        let ws = Arc::new(crate::agent::outline::tree_tests::open(dir));
        (ws, std::fs::canonicalize(file).unwrap())
    }

    #[test]
    fn an_untouched_file_is_unchanged_and_an_edit_or_a_new_file_is_not() {
        let tmp = tempfile::tempdir().unwrap();
        let (ws, file) = loaded(tmp.path());
        let files = LoadedFiles::of(&ws);
        assert!(files.unchanged(&file));
        assert!(files.all_unchanged());
        assert!(!files.unchanged(&tmp.path().join("new.md")));
        std::fs::write(&file, "# Guide\n\nText, edited.\n").unwrap();
        assert!(!files.unchanged(&file));
        assert!(!files.all_unchanged());
    }

    #[test]
    fn an_edit_of_the_same_size_within_the_second_is_a_change() {
        let tmp = tempfile::tempdir().unwrap();
        let (ws, file) = loaded(tmp.path());
        let files = LoadedFiles::of(&ws);
        let before = std::fs::metadata(&file).unwrap().modified().unwrap();
        std::fs::write(&file, "# Guide\n\nTEXT.\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(before)
            .unwrap();
        assert!(!files.unchanged(&file));
    }

    #[test]
    fn a_removed_file_is_a_change() {
        let tmp = tempfile::tempdir().unwrap();
        let (ws, file) = loaded(tmp.path());
        let files = LoadedFiles::of(&ws);
        std::fs::remove_file(&file).unwrap();
        assert!(!files.unchanged(&file));
        assert!(!files.all_unchanged());
    }
}
