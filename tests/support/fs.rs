//! Files for the tests: paths of the checked-in fixtures, byte-exact writes, recursive
//! copies into temporary folders.

use std::path::{Path, PathBuf};

/// `<repository>/<rel>`.
pub fn manifest(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `tests/fixtures/<rel>` (read-only: tests that write work on a copy).
pub fn fixture_path(rel: &str) -> PathBuf {
    manifest("tests/fixtures").join(rel)
}

/// A copy of `src` (recursively) at `dst`.
pub fn copy_dir(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap_or_else(|e| panic!("mkdir {dst:?}: {e}"));
    for e in std::fs::read_dir(src).unwrap_or_else(|e| panic!("read_dir {src:?}: {e}")) {
        let e = e.expect("entry");
        let to = dst.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), &to).unwrap_or_else(|err| panic!("copy {:?}: {err}", e.path()));
        }
    }
}

/// Write `bytes` to `dir/rel`, creating parent folders.
pub fn write(dir: &Path, rel: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("mkdir {parent:?}: {e}"));
    }
    std::fs::write(&p, bytes).unwrap_or_else(|e| panic!("write {p:?}: {e}"));
    p
}

/// Size on disk of `path`.
pub fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or_else(|e| panic!("stat {path:?}: {e}"), |m| m.len())
}

/// A fresh temporary folder.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"))
}
