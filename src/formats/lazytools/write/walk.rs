//! lazytools' file walk (`_iter_docs`, docs/FORMATS.md §2.6 step 3): every file below a root as
//! `sorted(root.rglob("*"))` lists it — sorted by path components, symlinked folders not
//! entered, symlinks and hidden files (name starting with `.`) skipped, files in hidden
//! folders kept — filtered by extension (case-insensitive).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::chunk::suffix;

/// Collect every entry below `dir` as component lists relative to the root (symlinked
/// folders are listed but not entered; unreadable folders are skipped, as `rglob` does).
fn list(dir: &Path, prefix: &[OsString], out: &mut Vec<Vec<OsString>>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let mut comps = prefix.to_vec();
        comps.push(entry.file_name());
        let Ok(ft) = entry.file_type() else { continue };
        if ft.is_dir() {
            list(&entry.path(), &comps, out);
        }
        out.push(comps);
    }
}

/// Files of `root` lazytools would index, in its order: `extensions` are compared
/// lower-cased with the file's suffix (`.md`, …). Each returned path is `root` joined with
/// the relative path (not resolved further); duplicates by resolved path are dropped.
pub fn iter_docs(root: &Path, extensions: &[String]) -> Vec<PathBuf> {
    let exts: Vec<String> = extensions.iter().map(|e| e.to_lowercase()).collect();
    let mut entries = Vec::new();
    list(root, &[], &mut entries);
    entries.sort();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for comps in entries {
        let path: PathBuf = comps.iter().fold(root.to_path_buf(), |p, c| p.join(c));
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() || !meta.is_file() {
            continue;
        }
        let name = comps
            .last()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') || !exts.contains(&suffix(&name).to_lowercase()) {
            continue;
        }
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(real) {
            out.push(path);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_order_hidden_and_extensions() {
        let d = tempfile::tempdir().unwrap();
        let r = d.path();
        for f in [
            "a-c.md",
            "a/b.md",
            "a/.hid.md",
            ".h/in.md",
            "B.MD",
            "x.py",
            "y.png",
        ] {
            let p = r.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "x").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(r.join("a"), r.join("link")).unwrap();
        let exts = vec![".md".to_string(), ".py".to_string()];
        let got: Vec<String> = iter_docs(r, &exts)
            .iter()
            .map(|p| p.strip_prefix(r).unwrap().to_string_lossy().into_owned())
            .collect();
        // Component order: ".h" < "B.MD" < "a" < "a-c.md" (the folder `a` sorts before `a-c.md`).
        assert_eq!(got, vec![".h/in.md", "B.MD", "a/b.md", "a-c.md", "x.py"]);
    }
}
