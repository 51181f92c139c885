//! Directory listing for the loaders, one folder at a time: hidden entries included
//! (skills live in dot-folders), `.git` never entered, symlinks reported (not followed),
//! and `.gitignore` rules applied only inside a git repository (git's own rule), built from
//! `ignore`'s per-directory pieces ([`ignore::gitignore::Gitignore`]) as the walk descends, so
//! each `.gitignore` is read once. Entries are sorted in natural (numeric-aware) order.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use ignore::Match;
use ignore::gitignore::Gitignore;

/// What a directory entry is (from the directory listing: a symlink is reported as such).
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
}

/// The `.gitignore` rules in force while walking down from a root: the global excludes
/// file, `.git/info/exclude` and every `.gitignore` from the repository top down to the
/// folder being listed. Empty (nothing ignored) outside git repositories.
#[derive(Clone, Debug, Default)]
pub struct IgnoreStack {
    in_repo: bool,
    /// Global excludes and `info/exclude` (lowest precedence).
    base: Vec<Gitignore>,
    /// One `.gitignore` per folder level that has one (deepest last: highest precedence).
    layers: Vec<Gitignore>,
}

impl IgnoreStack {
    /// Rules for walking below `dir` (a real path): finds the enclosing repository (a
    /// parent holding `.git`) and loads the `.gitignore` files of `dir`'s ancestors up to it.
    pub fn for_root(dir: &Path) -> Self {
        // Whether `dir` is in a repository, and under which rules, depends on files outside
        // it: the persisted index notes them, present or not (docs/DESIGN.md §8).
        for a in dir.ancestors() {
            super::inputs::note_probe(&a.join(".git"));
        }
        note_global_excludes();
        let Some(repo) = dir.ancestors().find(|a| a.join(".git").exists()) else {
            return Self::default();
        };
        let mut st = Self {
            in_repo: true,
            ..Self::default()
        };
        let (global, _) = Gitignore::global();
        st.base.push(global);
        let exclude = repo.join(".git/info/exclude");
        super::inputs::note_file(&exclude);
        if exclude.is_file() {
            st.base.push(Self::build_at(repo, &exclude));
        }
        let mut chain: Vec<&Path> = dir
            .ancestors()
            .skip(1)
            .take_while(|a| a.starts_with(repo))
            .collect();
        chain.reverse();
        for a in chain {
            let gi = a.join(".gitignore");
            super::inputs::note_file(&gi);
            if gi.is_file() {
                st.layers.push(Gitignore::new(&gi).0);
            }
        }
        st
    }

    fn build_at(root: &Path, file: &Path) -> Gitignore {
        let mut b = ignore::gitignore::GitignoreBuilder::new(root);
        // A bad line is skipped by the builder; an unreadable file means no rules.
        let _ = b.add(file);
        b.build().unwrap_or_else(|_| Gitignore::empty())
    }

    /// Whether rules apply at all (inside a git repository).
    pub fn in_repo(&self) -> bool {
        self.in_repo
    }

    /// Push the rules of `dir/.gitignore` (call when entering `dir`, if it has one).
    /// Returns whether a layer was pushed (pop it with [`IgnoreStack::pop`] when leaving).
    pub fn push_dir(&mut self, dir: &Path) -> bool {
        if !self.in_repo {
            return false;
        }
        let gi = dir.join(".gitignore");
        super::inputs::note_file(&gi);
        self.layers.push(Gitignore::new(gi).0);
        true
    }

    /// Drop the deepest layer.
    pub fn pop(&mut self) {
        self.layers.pop();
    }

    /// Whether `path` is ignored; the deepest matching rule wins (a `!` rule re-includes).
    pub fn is_ignored(&self, path: &Path, is_dir: bool) -> bool {
        if !self.in_repo {
            return false;
        }
        for g in self.layers.iter().rev().chain(self.base.iter().rev()) {
            match g.matched(path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        false
    }
}

/// Note the files git's global excludes come from, present or not: `core.excludesFile` of
/// `~/.gitconfig` or `$XDG_CONFIG_HOME/git/config`, else `$XDG_CONFIG_HOME/git/ignore`
/// (`~/.config` when unset). A `core.excludesFile` elsewhere is seen through the config
/// file that names it, not through its own edits.
fn note_global_excludes() {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    if let Some(c) = config {
        super::inputs::note_file(&c.join("git/ignore"));
        super::inputs::note_file(&c.join("git/config"));
    }
    if let Some(h) = home {
        super::inputs::note_file(&h.join(".gitconfig"));
    }
}

/// One listed folder: its entries and what was left out.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// The entries kept, in natural order.
    pub entries: Vec<Entry>,
    /// Whether `dir/.gitignore` pushed a layer on the ignore stack (pop it after the
    /// folder's children are done).
    pub pushed: bool,
    /// Entries left out by `.gitignore` rules.
    pub ignored: usize,
    /// Whether a `.git` entry was left out.
    pub had_git: bool,
}

/// List `dir` (one level, no `stat` per entry) under the rules of `ignores`, which gets a
/// new layer when `dir` holds a `.gitignore` ([`Listing::pushed`]). `.git` is always left
/// out. An unreadable `dir` gives `Err` with the reason; unreadable entries are skipped.
pub fn list_dir(dir: &Path, ignores: &mut IgnoreStack) -> Result<Listing, String> {
    let rd = super::inputs::read_dir(dir).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut has_gitignore = false;
    let mut had_git = false;
    for item in rd {
        let Ok(e) = item else { continue };
        let name = e.file_name();
        if name == ".git" {
            had_git = true;
            continue;
        }
        has_gitignore |= name == ".gitignore";
        let Ok(ft) = e.file_type() else { continue };
        let kind = if ft.is_symlink() {
            EntryKind::Symlink
        } else if ft.is_dir() {
            EntryKind::Dir
        } else if ft.is_file() {
            EntryKind::File
        } else {
            EntryKind::Other
        };
        out.push(Entry {
            name: name.to_string_lossy().into_owned(),
            path: e.path(),
            kind,
        });
    }
    let pushed = has_gitignore && ignores.push_dir(dir);
    let before = out.len();
    if ignores.in_repo() {
        out.retain(|e| !ignores.is_ignored(&e.path, e.kind == EntryKind::Dir));
    }
    let ignored = before - out.len();
    for e in out.iter().filter(|e| e.kind != EntryKind::Dir) {
        super::inputs::note_file(&e.path);
    }
    out.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    Ok(Listing {
        entries: out,
        pushed,
        ignored,
        had_git,
    })
}

/// Names of the regular files directly in `dir` (unsorted; empty when unreadable). For the
/// loaders that list a folder themselves (doc-tree `img/`, git-adr notes).
pub fn file_names(dir: &Path) -> Vec<String> {
    super::inputs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
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
    let end = s
        .bytes()
        .position(|b| b.is_ascii_digit() != digit)
        .unwrap_or(s.len());
    s.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_aware_order() {
        let mut v = vec![
            "4-10.md", "4-9.md", "10.md", "2.md", "B.md", "a.md", "007.md",
        ];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            vec![
                "2.md", "4-9.md", "4-10.md", "007.md", "10.md", "a.md", "B.md"
            ]
        );
    }

    #[test]
    fn path_order_by_component() {
        assert_eq!(natural_path_cmp("a/2.md", "a/10.md"), Ordering::Less);
        assert_eq!(natural_path_cmp("a", "a/b"), Ordering::Less);
        assert_eq!(natural_path_cmp("a-b/x", "a/x"), Ordering::Greater);
    }
}
