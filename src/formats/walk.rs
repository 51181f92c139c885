//! Directory listing for the loaders: one folder at a time through `ignore::WalkBuilder`
//! (hidden entries included because skills live in dot-folders, `.gitignore` respected
//! inside git repositories only, `.git` never entered, symlinks reported, not followed),
//! sorted in natural (numeric-aware) order.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

/// What a directory entry is (from `lstat`: a symlink is reported as such).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A directory.
    Dir,
    /// A regular file.
    File,
    /// A symbolic link (to anything, possibly dangling).
    Symlink,
    /// A socket, fifo or device: skipped by the loaders.
    Other,
}

/// One entry of a listed folder.
#[derive(Clone, Debug)]
pub struct Entry {
    /// File name (lossy UTF-8 for display and relative paths).
    pub name: String,
    /// Full path (the listed folder joined with the name).
    pub path: PathBuf,
    /// Kind.
    pub kind: EntryKind,
    /// Size in bytes from `lstat` (0 for folders).
    pub size: u64,
}

/// List `dir` (one level). Entries ignored by `.gitignore` (inside a git repository),
/// `.ignore` files and `.git` itself are left out. Errors on individual entries are
/// skipped; an unreadable `dir` gives `Err` with the reason.
pub fn list_dir(dir: &Path) -> Result<Vec<Entry>, String> {
    std::fs::read_dir(dir).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let walker = WalkBuilder::new(dir)
        .max_depth(Some(1))
        .hidden(false)
        .require_git(true)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for item in walker {
        let Ok(e) = item else { continue };
        if e.depth() == 0 {
            continue;
        }
        let Some(ft) = e.file_type() else { continue };
        let kind = if ft.is_symlink() {
            EntryKind::Symlink
        } else if ft.is_dir() {
            EntryKind::Dir
        } else if ft.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        let size = if kind == EntryKind::File { e.metadata().map(|m| m.len()).unwrap_or(0) } else { 0 };
        out.push(Entry {
            name: e.file_name().to_string_lossy().into_owned(),
            path: e.path().to_path_buf(),
            kind,
            size,
        });
    }
    out.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    Ok(out)
}

/// Natural order of names: digit runs compare by numeric value (`4-9` < `4-10`), other
/// runs case-insensitively; ties fall back to the raw bytes so the order is total.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a, b);
    loop {
        match (x.is_empty(), y.is_empty()) {
            (true, true) => return a.cmp(b),
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let (rx, tx) = split_run(x);
        let (ry, ty) = split_run(y);
        let dx = rx.as_bytes()[0].is_ascii_digit();
        let dy = ry.as_bytes()[0].is_ascii_digit();
        let ord = match (dx, dy) {
            (true, true) => {
                let (nx, ny) = (rx.trim_start_matches('0'), ry.trim_start_matches('0'));
                nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny))
            }
            _ => rx.to_lowercase().cmp(&ry.to_lowercase()),
        };
        if ord != Ordering::Equal {
            return ord;
        }
        x = tx;
        y = ty;
    }
}

/// Natural order of `/`-separated relative paths, component by component.
pub fn natural_path_cmp(a: &str, b: &str) -> Ordering {
    let mut ia = a.split('/');
    let mut ib = b.split('/');
    loop {
        match (ia.next(), ib.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => match natural_cmp(x, y) {
                Ordering::Equal => {}
                o => return o,
            },
        }
    }
}

/// Split off the leading run of ASCII digits or of non-digits (`s` non-empty).
fn split_run(s: &str) -> (&str, &str) {
    let digit = s.as_bytes()[0].is_ascii_digit();
    let end = s.bytes().position(|b| b.is_ascii_digit() != digit).unwrap_or(s.len());
    s.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_aware_order() {
        let mut v = vec!["4-10.md", "4-9.md", "10.md", "2.md", "B.md", "a.md", "007.md"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, vec!["2.md", "4-9.md", "4-10.md", "007.md", "10.md", "a.md", "B.md"]);
    }

    #[test]
    fn path_order_by_component() {
        assert_eq!(natural_path_cmp("a/2.md", "a/10.md"), Ordering::Less);
        assert_eq!(natural_path_cmp("a", "a/b"), Ordering::Less);
        assert_eq!(natural_path_cmp("a-b/x", "a/x"), Ordering::Greater);
    }
}
