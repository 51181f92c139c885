//! Skill files `validate` cannot check (docs/FORMATS.md §3.2): a `SKILL.md` the loader
//! could not read (permission denied, an I/O error, binary content, a dangling symbolic
//! link), that is a folder, or that is a FIFO, socket or device. Each is an error finding,
//! `skill-md-unreadable`, so `validate` never passes a skill it did not read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::formats::walk::skill_file::SKILL_FILE_NAMES;
use crate::formats::walk::{EntryKind, IgnoreStack, list_dir};
use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::validate::{Finding, Profile};
use crate::util::regular_file::special_kind;

/// One skill file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The file's absolute path when it can be told from the loaded sources, else its id.
    pub path: String,
    /// The skill's name: the name of the folder holding the file.
    pub name: String,
    /// The `skill-md-unreadable` finding.
    pub finding: Finding,
}

/// Every `SKILL.md` (or lower-case `skill.md`) the loader kept without its text or that is
/// a folder (a node of its own), and every one that is a FIFO, socket or device (the walk
/// leaves special files out: one `stat` of the name in each folder of the tree finds it,
/// never opening it), in tree order. The message gives the loader's reason (`Permission
/// denied (os error 13)`, `binary content (NUL byte); not parsed`, `broken symbolic link
/// to …`) or what the entry is.
pub fn unreadable_skill_files(corpus: &Corpus, profile: Profile) -> Vec<Unreadable> {
    let mut out = Vec::new();
    let mut dirs: HashMap<NodeId, Option<String>> = HashMap::new();
    for id in corpus.all_preorder() {
        if corpus.is_copy(id) {
            continue;
        }
        let root = corpus.root_of(id);
        let dir = dirs
            .entry(root)
            .or_insert_with(|| root_dir(corpus, root))
            .clone();
        if let Some(u) = problem(corpus, id, dir.as_deref(), profile) {
            out.push(u);
        }
    }
    out
}

/// How deep [`special_skill_files_under`] descends below an opened folder, and how many
/// folders it lists at most (a bound on a huge or hostile tree).
const SCAN_DEPTH: usize = 64;
const SCAN_FOLDERS: usize = 100_000;

/// Every `SKILL.md` (or `skill.md`) under the opened folders `paths` that is a folder, a
/// FIFO, a socket or a device: found by listing the folders (symbolic links to folders not
/// followed, `.git` never entered, `.gitignore` rules applied as the walk does) and one
/// `stat` of a linked name, never opening it. The loader keeps no node for a folder whose
/// only entry is such a `SKILL.md`, so [`unreadable_skill_files`] cannot see it
/// (docs/DESIGN.md §9 "One severity per rule"). Paths are the folders' real paths.
pub fn special_skill_files_under(paths: &[PathBuf], profile: Profile) -> Vec<Unreadable> {
    let mut out = Vec::new();
    let mut budget = SCAN_FOLDERS;
    for p in paths {
        let Ok(real) = std::fs::canonicalize(p) else {
            continue;
        };
        if real.is_dir() {
            let mut ignores = IgnoreStack::for_root(&real);
            scan(&real, 0, &mut ignores, &mut budget, profile, &mut out);
        }
    }
    out
}

/// [`special_skill_files_under`] for folder `dir` at `depth` below an opened folder.
fn scan(
    dir: &Path,
    depth: usize,
    ignores: &mut IgnoreStack,
    budget: &mut usize,
    profile: Profile,
    out: &mut Vec<Unreadable>,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let Ok(listing) = list_dir(dir, ignores) else {
        return;
    };
    for e in &listing.entries {
        let what = match e.kind {
            _ if !SKILL_FILE_NAMES.contains(&e.name.as_str()) => None,
            EntryKind::Dir => Some("a folder, not a file".to_string()),
            EntryKind::Other | EntryKind::Symlink => {
                special_kind(&e.path).map(|w| format!("{w}, not a regular file"))
            }
            EntryKind::File => None,
        };
        if let Some(what) = what {
            let name = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push(finding(
                e.path.display().to_string(),
                name,
                &e.name,
                &what,
                profile,
            ));
        }
        if e.kind == EntryKind::Dir && depth < SCAN_DEPTH {
            scan(&e.path, depth + 1, ignores, budget, profile, out);
        }
    }
    if listing.pushed {
        ignores.pop();
    }
}

/// The `skill-md-unreadable` finding for skill file `title` at `path` of skill `name`:
/// "`title` is `what`; the skill was not checked".
fn finding(path: String, name: String, title: &str, what: &str, profile: Profile) -> Unreadable {
    let rule = "skill-md-unreadable";
    Unreadable {
        path,
        name,
        finding: Finding {
            file: None,
            severity: super::severity::severity(rule, profile),
            rule,
            message: format!("{title} is {what}; the skill was not checked"),
            line: None,
        },
    }
}

/// The finding about node `id`, if any; `dir` is its root's folder (ending in `/`).
fn problem(corpus: &Corpus, id: NodeId, dir: Option<&str>, profile: Profile) -> Option<Unreadable> {
    let n = corpus.node(id);
    let abs = |rel: &str| dir.map_or_else(|| corpus.id(id), |d| format!("{d}{rel}"));
    let is_skill_file = SKILL_FILE_NAMES.contains(&n.title.as_str());
    let (title, path, reason) = match n.kind {
        NodeKind::Dir if is_skill_file => (
            n.title.as_str(),
            abs(&n.path),
            "is a folder, not a file".into(),
        ),
        NodeKind::Dir | NodeKind::Root => {
            let d = dir?;
            let rel = if n.path.is_empty() {
                String::new()
            } else {
                format!("{}/", n.path)
            };
            let (file, what) = SKILL_FILE_NAMES
                .iter()
                .find_map(|f| special_kind(Path::new(&format!("{d}{rel}{f}"))).map(|w| (*f, w)))?;
            (
                file,
                abs(&format!("{rel}{file}")),
                format!("is {what}, not a regular file"),
            )
        }
        NodeKind::File if is_skill_file && n.span.is_none() => {
            let w = n.warnings.first()?;
            let why = w.message.trim_start_matches("cannot read file: ");
            (
                n.title.as_str(),
                abs(&n.path),
                format!("cannot be read: {why}"),
            )
        }
        _ => return None,
    };
    let folder = if n.kind == NodeKind::File {
        n.parent.map(|p| corpus.node(p))
    } else {
        Some(n)
    };
    // A root's path is empty: its title names the opened folder.
    let name = folder
        .map(|f| match f.path.rsplit('/').next() {
            Some(last) if !last.is_empty() => last.to_string(),
            _ => f.title.clone(),
        })
        .unwrap_or_default();
    let rule = "skill-md-unreadable";
    Some(Unreadable {
        path,
        name,
        finding: Finding {
            file: None,
            severity: super::severity::severity(rule, profile),
            rule,
            message: format!("{title} {reason}; the skill was not checked"),
            line: None,
        },
    })
}

/// The folder of root `root`, ending in `/`: told by a file of the root whose source path
/// ends with the file's root-relative path. `None` when no file tells it.
fn root_dir(corpus: &Corpus, root: NodeId) -> Option<String> {
    corpus.preorder(root).into_iter().find_map(|f| {
        let node = corpus.node(f);
        let src = corpus.sources.get(node.span?.source.0 as usize)?;
        let abs = src.abs_path.as_ref()?.to_str()?;
        let dir = abs.strip_suffix(&*node.path)?;
        (!node.path.is_empty() && dir.ends_with('/')).then(|| dir.to_string())
    })
}
