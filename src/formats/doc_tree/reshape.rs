//! Organise a progressive-exposure doc tree (docs/FORMATS.md §6): the doc-crawl
//! pipeline's *collapse* (a folder with exactly one child folder and no `doc.md` absorbs the
//! child) and *merge* (`merge.py`: short leaf docs merged into their parent or into grouped
//! folders) rules, planned on an in-memory model of the tree and then applied in plan order.
//! README summaries that would need writing are left as the pipeline's marked placeholders
//! (`(placeholder - 50-word summary goes here)`, `(placeholder - 20-word summary goes
//! here)`), never invented.
//!
//! Terms (as in `merge.py`): a *leaf* folder has `doc.md` and no child folders other than
//! `img/`; words = whitespace-separated tokens of `doc.md`; folders sort by numeric prefix
//! then name; `img/` folders are never processed; the top folder itself is never merged or
//! collapsed.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Thresholds of [`plan_merge`] (`merge.py` defaults: 300 and 2 000 words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeOptions {
    /// A leaf with fewer words is "short".
    pub min_words: usize,
    /// A merged doc never exceeds this many words (sum of its parts).
    pub max_words: usize,
}

impl Default for MergeOptions {
    fn default() -> Self {
        Self {
            min_words: 300,
            max_words: 2000,
        }
    }
}

/// One step of a plan; paths are relative to the tree's top folder (`/`-separated).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `dir` has one child folder `child` and no doc.md: move the child's contents up into
    /// `dir` (the child's README replaces `dir`'s), then remove the child.
    Collapse {
        /// The parent folder.
        dir: String,
        /// Its only child folder (name).
        child: String,
    },
    /// All leaf children of `dir` are short, it has no other child folders and their total
    /// (with `dir`'s own page) fits: `dir`'s own `doc.md`, when it has one, then the leaves'
    /// docs become `dir/doc.md` (joined by `\n\n---\n\n`), and `dir` becomes a leaf whose
    /// README keeps its title and says `Merged from:`, with a placeholder summary.
    MergeIntoParent {
        /// The parent folder.
        dir: String,
        /// Whether `dir` has a `doc.md` of its own, kept as the first part.
        own_page: bool,
        /// Leaf folder names, in order.
        leaves: Vec<String>,
        /// Words of the merged doc.
        words: usize,
    },
    /// A run of short consecutive leaves merged into a new folder `dir/<name>`.
    MergeGroup {
        /// The parent folder.
        dir: String,
        /// The new folder name (`<first>-to-<last>-<common name>`, or `<prefix>-<name>`).
        name: String,
        /// Leaf folder names, in order.
        leaves: Vec<String>,
        /// Words of the merged doc.
        words: usize,
    },
    /// Rewrite `dir/README.md` to list its current children: a child its bullets already
    /// name keeps its bullet line, a new (merged) one gets a placeholder summary; every other
    /// line is kept.
    RewriteReadme {
        /// The folder.
        dir: String,
        /// The groups merged in it: (new folder name, the leaves it was merged from).
        groups: Vec<(String, Vec<String>)>,
    },
}

impl std::fmt::Display for Step {
    /// One line per step, as `doctree … --dry-run` prints it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Collapse { dir, child } => write!(f, "collapse {} <- {child}", show(dir)),
            Step::MergeIntoParent {
                dir,
                own_page,
                leaves,
                words,
            } => {
                let own = if *own_page { "its doc.md, " } else { "" };
                write!(
                    f,
                    "merge into {} <- {own}{} ({words} words)",
                    show(dir),
                    leaves.join(", ")
                )
            }
            Step::MergeGroup {
                dir,
                name,
                leaves,
                words,
                ..
            } => {
                write!(
                    f,
                    "merge into {}/{name} <- {} ({words} words)",
                    show(dir),
                    leaves.join(", ")
                )
            }
            Step::RewriteReadme { dir, .. } => write!(f, "rewrite {}/README.md", show(dir)),
        }
    }
}

fn show(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// In-memory folder: name, words of its doc.md (if any), child folders (no `img`), and
/// what decides whether its files can move without loss.
#[derive(Clone, Debug, Default)]
struct Folder {
    name: String,
    words: Option<usize>,
    children: Vec<Folder>,
    /// Names of the regular files in its `img/`.
    images: Vec<String>,
    /// Names of its own files (not folders).
    files: Vec<String>,
    /// Holds only `README.md`, `doc.md` and an `img/` of regular files, and its `doc.md` is
    /// no crawler error page: merging it moves every file it has. A symbolic link to a
    /// folder is a child that is never movable.
    movable: bool,
    /// Its `doc.md` is a crawler's error page (docs/FORMATS.md §6): no page to merge.
    error_page: bool,
    /// Its `doc.md`, if any, is UTF-8 (a merged text would lose other bytes).
    page_utf8: bool,
    /// Its `README.md`, if any, is text a merge can edit line by line: UTF-8, and no line
    /// ends in a lone `\r`.
    readme_editable: bool,
}

impl Folder {
    fn is_leaf(&self) -> bool {
        self.words.is_some() && self.children.is_empty()
    }

    /// A leaf a merge may take: short, and [`Folder::movable`].
    fn mergeable(&self, opts: MergeOptions) -> bool {
        self.is_leaf() && self.movable && self.words.is_some_and(|w| w < opts.min_words)
    }
}

fn cmp(a: &str, b: &str) -> std::cmp::Ordering {
    (prefix_tuple(a), a).cmp(&(prefix_tuple(b), b))
}

fn read(dir: &Path, name: String, depth: usize) -> Result<Folder> {
    let doc = dir.join("doc.md");
    let mut error_page = false;
    // A page that is not UTF-8 would lose its bytes in a merged text: it never moves.
    let mut utf8 = true;
    let words = if doc.is_file() {
        let bytes = std::fs::read(&doc).map_err(|e| Error::io(&doc, e))?;
        let text = String::from_utf8_lossy(&bytes);
        utf8 = std::str::from_utf8(&bytes).is_ok();
        error_page = super::load::is_error_document(&text);
        Some(text.split_whitespace().count())
    } else {
        None
    };
    let readme_editable = match std::fs::read(dir.join("README.md")) {
        Ok(b) => std::str::from_utf8(&b).is_ok_and(|t| !t.replace("\r\n", "").contains('\r')),
        Err(_) => true,
    };
    let mut movable = !error_page && utf8 && readme_editable;
    let (mut children, mut files, mut images) = (Vec::new(), Vec::new(), Vec::new());
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for e in rd.filter_map(|e| e.ok()) {
        let n = e.file_name().to_string_lossy().into_owned();
        let Ok(t) = e.file_type() else {
            movable = false;
            continue;
        };
        if n == "img" && t.is_dir() {
            let (names, plain) = image_names(&e.path())?;
            images = names;
            movable &= plain;
        } else if t.is_dir() && depth < 64 {
            children.push(read(&e.path(), n, depth + 1)?);
        } else if t.is_symlink() && e.path().is_dir() {
            // Never entered nor moved, but it stays in the order of its siblings.
            children.push(Folder {
                name: n,
                ..Folder::default()
            });
        } else {
            movable &= t.is_file() && (n == "README.md" || n == "doc.md");
            files.push(n);
        }
    }
    children.sort_by(|a, b| cmp(&a.name, &b.name));
    Ok(Folder {
        name,
        words,
        children,
        images,
        files,
        movable,
        error_page,
        page_utf8: utf8,
        readme_editable,
    })
}

/// The names of the files in folder `img`, and whether it holds nothing but regular files.
fn image_names(img: &Path) -> Result<(Vec<String>, bool)> {
    let mut names = Vec::new();
    let mut plain = true;
    for e in std::fs::read_dir(img)
        .map_err(|e| Error::io(img, e))?
        .filter_map(|e| e.ok())
    {
        plain &= e.file_type().is_ok_and(|t| t.is_file());
        names.push(e.file_name().to_string_lossy().into_owned());
    }
    Ok((names, plain))
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// Plan the collapse of the tree at `top`: folders deepest first (children before their
/// parent), each non-top folder with exactly one child folder and no doc.md absorbs it.
pub fn plan_collapse(top: &Path) -> Result<Vec<Step>> {
    let mut root = read(top, String::new(), 0)?;
    let mut steps = Vec::new();
    for c in &mut root.children {
        let name = c.name.clone();
        collapse_rec(c, &name, &mut steps);
    }
    Ok(steps)
}

fn collapse_rec(f: &mut Folder, path: &str, steps: &mut Vec<Step>) {
    for c in &mut f.children {
        let p = join(path, &c.name);
        collapse_rec(c, &p, steps);
    }
    if f.children.len() == 1 && f.words.is_none() && can_absorb(f, &f.children[0]) {
        let child = f.children.remove(0);
        steps.push(Step::Collapse {
            dir: path.to_string(),
            child: child.name.clone(),
        });
        f.words = child.words;
        f.children = child.children;
    }
}

/// Whether `f` can take the files of its only child `c` up without losing one: `c` is a
/// real folder (not a symbolic link), no file of `c` but its `README.md` (which replaces
/// `f`'s, as the pipeline does) has the name of one of `f`'s, and no image of `c` has the
/// name of one of `f`'s.
fn can_absorb(f: &Folder, c: &Folder) -> bool {
    let real = c.words.is_some() || !c.files.is_empty() || !c.children.is_empty();
    real && !c
        .files
        .iter()
        .any(|n| n != "README.md" && f.files.contains(n))
        && !c.images.iter().any(|i| f.images.contains(i))
}

/// Ends of the `\d+(-\d+)*` chain at the start of `name` (each end is just after a digit
/// group), in order; empty when `name` does not start with a digit.
fn chain_ends(name: &str) -> Vec<usize> {
    let b = name.as_bytes();
    let mut ends = Vec::new();
    let mut i = 0;
    loop {
        let d = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if d == 0 {
            break;
        }
        ends.push(i + d);
        if b.get(i + d) == Some(&b'-') && b.get(i + d + 1).is_some_and(u8::is_ascii_digit) {
            i += d + 1;
        } else {
            break;
        }
    }
    ends
}

/// `merge.py`'s `name_suffix`: the part after `^\d+(-\d+)*-` (longest such prefix), else
/// the whole name (`10-1-Special-Regs` → `Special-Regs`, `4-10-2` → `2`); a group folder's
/// `-to-<number>` goes with its prefix (`1-to-2-Intro` → `Intro`).
pub fn name_suffix(name: &str) -> &str {
    let rest = chain_ends(name)
        .into_iter()
        .rev()
        .find(|e| name.as_bytes().get(*e) == Some(&b'-'))
        .map_or(name, |e| &name[e + 1..]);
    match rest
        .strip_prefix("to-")
        .filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    {
        Some(r) if rest.len() < name.len() => name_suffix(r),
        _ => rest,
    }
}

/// The first and last section numbers a folder name starts with: `2-1` twice for
/// `2-1-Intro`, `1` and `2` for a group folder `1-to-2-Intro`; `None` without a number.
fn prefix_range(name: &str) -> Option<(&str, &str)> {
    let first = prefix_str(name)?;
    let last = name[first.len()..]
        .strip_prefix("-to-")
        .and_then(prefix_str)
        .unwrap_or(first);
    Some((first, last))
}

/// `merge.py`'s `parse_number_prefix`: the greedy `^\d+(-\d+)*` text (`10-1-Special` →
/// `10-1`), `None` without a leading digit.
pub fn prefix_str(name: &str) -> Option<&str> {
    chain_ends(name).last().map(|e| &name[..*e])
}

fn prefix_tuple(name: &str) -> Vec<u64> {
    prefix_str(name).map_or_else(
        || vec![999],
        |p| {
            p.split('-')
                .map(|x| x.parse().unwrap_or(u64::MAX))
                .collect()
        },
    )
}

/// The folder name and common name of a merged group (`merge.py` `merge_group`): title =
/// the longest common prefix of the leaves' [`name_suffix`]es without trailing `-` (the
/// first suffix when empty); folder = `<first prefix>-to-<last prefix>-<title>`, or
/// `<prefix>-<title>` when both prefixes are equal. Where `merge.py` would write `None`
/// (a leaf without a section number) or a title that is no name (`1.` of `1.1-Intro` and
/// `1.2-Setup`: a name has a letter and only letters, digits, `-` and `_`), the folder is
/// `<first leaf>-to-<last leaf>` instead (whitespace as `-`).
pub fn group_name(leaves: &[String]) -> (String, String) {
    let suffixes: Vec<&str> = leaves.iter().map(|l| name_suffix(l)).collect();
    let first = suffixes.first().copied().unwrap_or("");
    let mut len = first.len();
    for s in suffixes.iter().skip(1) {
        len = len.min(
            first
                .bytes()
                .zip(s.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    while !first.is_char_boundary(len) {
        len -= 1;
    }
    let common = first[..len].trim_end_matches('-');
    let title = if common.is_empty() { first } else { common }.to_string();
    let fp = leaves.first().and_then(|l| prefix_range(l)).map(|r| r.0);
    let lp = leaves.last().and_then(|l| prefix_range(l)).map(|r| r.1);
    let named = title.chars().any(char::is_alphabetic)
        && title
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_');
    let folder = match (fp, lp) {
        (Some(fp), Some(lp)) if named && fp == lp => format!("{fp}-{title}"),
        (Some(fp), Some(lp)) if named => format!("{fp}-to-{lp}-{title}"),
        _ => {
            let dashed = |l: Option<&String>| {
                l.map_or(String::new(), |l| {
                    l.split_whitespace().collect::<Vec<_>>().join("-")
                })
            };
            format!("{}-to-{}", dashed(leaves.first()), dashed(leaves.last()))
        }
    };
    (folder, title)
}

/// Plan `merge.py` on the tree at `top`: every non-top folder, deepest first (then in
/// numeric order), with ≥ 2 leaf children: if all are short and movable and their total
/// (with the folder's own page) ≤ `max_words`, merge them all into it (`into_parent`);
/// otherwise merge each run of ≥ 2 consecutive short movable leaves into a new folder and
/// edit the folder's README (`runs`: any other child ends a run; a run is cut when adding a
/// leaf would pass `max_words` or bring an image name the run has). What never moves, so
/// nothing is lost: docs/FORMATS.md §6.
pub fn plan_merge(top: &Path, opts: MergeOptions) -> Result<Vec<Step>> {
    let mut root = read(top, String::new(), 0)?;
    let mut steps = Vec::new();
    // Deepest first: collect paths with depth, process in order of decreasing depth.
    let mut paths: Vec<(usize, Vec<usize>)> = Vec::new();
    fn walk(f: &Folder, at: Vec<usize>, out: &mut Vec<(usize, Vec<usize>)>) {
        for (i, c) in f.children.iter().enumerate() {
            let mut p = at.clone();
            p.push(i);
            out.push((p.len(), p.clone()));
            walk(c, p, out);
        }
    }
    walk(&root, Vec::new(), &mut paths);
    paths.sort_by_key(|p| std::cmp::Reverse(p.0));
    // Merges reorder children, so resolve each folder by its names, not its indexes; a
    // folder merged away earlier is skipped.
    let named: Vec<Vec<String>> = paths.iter().map(|(_, p)| names_of(&root, p)).collect();
    for names in named {
        let Some(f) = find_mut(&mut root, &names) else {
            continue;
        };
        merge_folder(f, &names.join("/"), opts, &mut steps);
    }
    Ok(steps)
}

fn names_of(root: &Folder, idx: &[usize]) -> Vec<String> {
    let mut f = root;
    let mut out = Vec::new();
    for &i in idx {
        f = &f.children[i];
        out.push(f.name.clone());
    }
    out
}

fn find_mut<'a>(root: &'a mut Folder, names: &[String]) -> Option<&'a mut Folder> {
    let mut f = root;
    for n in names {
        f = f.children.iter_mut().find(|c| &c.name == n)?;
    }
    Some(f)
}

fn merge_folder(f: &mut Folder, path: &str, opts: MergeOptions, steps: &mut Vec<Step>) {
    // A README a merge could only rewrite, not edit, keeps its folder as it is.
    if !f.readme_editable
        || f.children.iter().filter(|c| c.is_leaf()).count() < 2
        || into_parent(f, path, opts, steps)
    {
        return;
    }
    let groups = runs(f, opts);
    if groups.is_empty() {
        return;
    }
    let mut merged = Vec::new();
    for g in groups {
        let names: Vec<String> = g.iter().map(|c| c.name.clone()).collect();
        let words = g.iter().filter_map(|c| c.words).sum::<usize>() + g.len() - 1;
        let images = g.iter().flat_map(|c| c.images.iter().cloned()).collect();
        let name = free_name(f, group_name(&names).0);
        f.children.retain(|c| !names.contains(&c.name));
        f.children.push(Folder {
            name: name.clone(),
            words: Some(words),
            images,
            files: vec!["README.md".into(), "doc.md".into()],
            movable: true,
            page_utf8: true,
            readme_editable: true,
            ..Folder::default()
        });
        f.children.sort_by(|a, b| cmp(&a.name, &b.name));
        merged.push((name.clone(), names.clone()));
        steps.push(Step::MergeGroup {
            dir: path.to_string(),
            name,
            leaves: names,
            words,
        });
    }
    steps.push(Step::RewriteReadme {
        dir: path.to_string(),
        groups: merged,
    });
}

/// Plan merging every child of `f` into it (returns whether it did): every child is a
/// mergeable leaf ([`Folder::mergeable`]), `f`'s own page (if any) is UTF-8 and no error
/// page, no two images share a name (theirs and `f`'s), and the total, `f`'s page
/// included, fits.
fn into_parent(f: &mut Folder, path: &str, opts: MergeOptions, steps: &mut Vec<Step>) -> bool {
    let total: usize =
        f.words.unwrap_or(0) + f.children.iter().filter_map(|c| c.words).sum::<usize>();
    let mut images: Vec<&String> = f
        .images
        .iter()
        .chain(f.children.iter().flat_map(|c| &c.images))
        .collect();
    let count = images.len();
    images.sort_unstable();
    images.dedup();
    let fits = f.children.iter().all(|c| c.mergeable(opts))
        && !f.error_page
        && f.page_utf8
        && images.len() == count;
    if !fits || total > opts.max_words {
        return false;
    }
    let parts = f.children.len() + usize::from(f.words.is_some());
    let words = total + parts - 1;
    steps.push(Step::MergeIntoParent {
        dir: path.to_string(),
        own_page: f.words.is_some(),
        leaves: f.children.iter().map(|c| c.name.clone()).collect(),
        words,
    });
    let moved: Vec<String> = f.children.iter().flat_map(|c| c.images.clone()).collect();
    f.images.extend(moved);
    f.children.clear();
    f.words = Some(words);
    true
}

/// The runs of ≥ 2 consecutive mergeable leaves of `f`, in order: any other child (a long
/// leaf, a folder, a leaf whose files cannot all move, a symbolic link) ends a run, and so
/// does a leaf that would pass `max_words` or bring an image whose name the run has.
fn runs(f: &Folder, opts: MergeOptions) -> Vec<Vec<Folder>> {
    let mut groups = Vec::new();
    let mut cur: Vec<Folder> = Vec::new();
    let close = |cur: &mut Vec<Folder>, groups: &mut Vec<Vec<Folder>>| {
        let run = std::mem::take(cur);
        if run.len() >= 2 {
            groups.push(run);
        }
    };
    for c in &f.children {
        if !c.mergeable(opts) {
            close(&mut cur, &mut groups);
            continue;
        }
        let words: usize = cur.iter().filter_map(|m| m.words).sum();
        let clash = c
            .images
            .iter()
            .any(|i| cur.iter().any(|m| m.images.contains(i)));
        if !cur.is_empty() && (words + c.words.unwrap_or(0) > opts.max_words || clash) {
            close(&mut cur, &mut groups);
        }
        cur.push(c.clone());
    }
    close(&mut cur, &mut groups);
    groups
}

/// `name`, or when `f` has a child of that name (one of the members too: it is removed
/// after the merge), the first of `name-2`, `name-3`, … that it has not: a group never
/// merges into a folder already there.
fn free_name(f: &Folder, name: String) -> String {
    let taken = |n: &str| f.children.iter().any(|c| c.name == n);
    if !taken(&name) {
        return name;
    }
    // At most one more name than there are children is ever needed.
    (2..=f.children.len() + 2)
        .map(|k| format!("{name}-{k}"))
        .find(|n| !taken(n))
        .unwrap_or(name)
}

/// The README of a leaf made by a merge (`merge.py`'s placeholder).
pub const LEAF_PLACEHOLDER: &str = "(placeholder - 50-word summary goes here)";
/// The per-child summary placeholder of a rewritten README.
pub const CHILD_PLACEHOLDER: &str = "(placeholder - 20-word summary goes here)";

fn read_doc(dir: &Path) -> Result<String> {
    let p = dir.join("doc.md");
    let bytes = std::fs::read(&p).map_err(|e| Error::io(&p, e))?;
    Ok(String::from_utf8_lossy(&bytes).trim().to_string())
}

/// Move every file of `from/img` into `to_img`, refusing (before moving anything) when a
/// name is taken there or the folder holds anything but files: no image is overwritten or
/// left behind to be deleted.
fn move_images(from: &Path, to_img: &Path) -> Result<()> {
    let src = from.join("img");
    let Ok(rd) = std::fs::read_dir(&src) else {
        return Ok(());
    };
    let entries: Vec<std::fs::DirEntry> = rd.filter_map(|e| e.ok()).collect();
    for e in &entries {
        let dest = to_img.join(e.file_name());
        if !e.file_type().is_ok_and(|t| t.is_file()) || dest.exists() {
            return Err(Error::Refused(format!(
                "{} cannot move to {} without loss; nothing of it was merged",
                e.path().display(),
                dest.display()
            )));
        }
    }
    for e in entries {
        std::fs::create_dir_all(to_img).map_err(|er| Error::io(to_img, er))?;
        let dest = to_img.join(e.file_name());
        std::fs::rename(e.path(), &dest).map_err(|er| Error::io(&dest, er))?;
    }
    Ok(())
}

/// Remove a merged leaf folder: its `README.md`, `doc.md` and (emptied) `img/`, then the
/// folder itself, which must then be empty: anything else in it stays, as an error.
fn remove_merged(leaf: &Path) -> Result<()> {
    for f in ["README.md", "doc.md"] {
        let p = leaf.join(f);
        if p.is_file() {
            std::fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
        }
    }
    let img = leaf.join("img");
    if img.is_dir() {
        std::fs::remove_dir(&img).map_err(|e| Error::io(&img, e))?;
    }
    std::fs::remove_dir(leaf).map_err(|e| Error::io(leaf, e))
}

/// Write `text` to `p` atomically (a temporary file in the same folder renamed over it), so
/// a failed write never leaves a half-written doc or README. The file keeps the permissions
/// `p` had, or takes those of `like` when `p` is new.
fn write(p: &Path, text: &str, like: &Path) -> Result<()> {
    use std::io::Write as _;
    let dir = p.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(text.as_bytes())
        .map_err(|e| Error::io(p, e))?;
    if let Ok(m) = std::fs::metadata(p).or_else(|_| std::fs::metadata(like)) {
        std::fs::set_permissions(tmp.path(), m.permissions()).map_err(|e| Error::io(p, e))?;
    }
    tmp.persist(p).map_err(|e| Error::io(p, e.error))?;
    Ok(())
}

/// Merge the docs of `leaves` (folders of `dir`) into `into/doc.md`, after `into`'s own
/// `doc.md` when it has one (`into` is `dir` when merging into the parent: its page is
/// never overwritten), moving their images; then remove the leaves.
fn merge_docs(dir: &Path, leaves: &[String], into: &Path) -> Result<()> {
    let mut parts = Vec::new();
    if into.join("doc.md").is_file() {
        parts.push(read_doc(into)?);
    }
    for l in leaves {
        parts.push(read_doc(&dir.join(l))?);
    }
    let like = dir
        .join(leaves.first().map_or("", String::as_str))
        .join("doc.md");
    write(
        &into.join("doc.md"),
        &(parts.join("\n\n---\n\n") + "\n"),
        &like,
    )?;
    for l in leaves {
        move_images(&dir.join(l), &into.join("img"))?;
        remove_merged(&dir.join(l))?;
    }
    Ok(())
}

/// Apply `steps` (from [`plan_collapse`] or [`plan_merge`] on the same tree) to the files
/// under `top`, in order. Returns the folders touched. Errors: `Io` on the first failing
/// file operation (earlier steps stay applied); `Refused` for a cached copy of a remote source
/// (docs/REMOTE.md "Read-only").
pub fn apply(top: &Path, steps: &[Step]) -> Result<Vec<PathBuf>> {
    if let Some(reason) = crate::remote::cache::read_only_reason(top).filter(|_| !steps.is_empty())
    {
        return Err(Error::Refused(reason));
    }
    preflight(top, steps)?;
    let mut touched = Vec::new();
    for s in steps {
        let folder = match s {
            Step::Collapse { dir, child } => Some(apply_collapse(top, dir, child)?),
            Step::MergeIntoParent { dir, leaves, .. } => {
                Some(apply_merge_into_parent(top, dir, leaves)?)
            }
            Step::MergeGroup {
                dir, name, leaves, ..
            } => Some(apply_merge_group(top, dir, name, leaves)?),
            Step::RewriteReadme { dir, groups } => apply_rewrite_readme(top, dir, groups)?,
        };
        touched.extend(folder);
    }
    Ok(touched)
}

/// Check, before any step is applied, that every folder a step writes in or removes from
/// can be written (a file made there and removed again), so a merge stops before it starts
/// rather than half-way (a leaf it could not remove would be merged twice by the next run).
/// Errors: `Refused` naming the first folder that cannot be written.
fn preflight(top: &Path, steps: &[Step]) -> Result<()> {
    for s in steps {
        let (dir, leaves): (&str, &[String]) = match s {
            Step::Collapse { dir, child } => (dir, std::slice::from_ref(child)),
            Step::MergeIntoParent { dir, leaves, .. } | Step::MergeGroup { dir, leaves, .. } => {
                (dir, leaves)
            }
            Step::RewriteReadme { dir, .. } => (dir, &[]),
        };
        let d = top.join(dir);
        let folders = std::iter::once(d.clone())
            .chain(leaves.iter().map(|l| d.join(l)))
            .chain(
                leaves
                    .iter()
                    .map(|l| d.join(l).join("img"))
                    .filter(|p| p.is_dir()),
            );
        for f in folders {
            if tempfile::tempfile_in(&f).is_err() {
                return Err(Error::Refused(format!(
                    "{} cannot be written; nothing was changed",
                    f.display()
                )));
            }
        }
    }
    Ok(())
}

/// [`Step::Collapse`] under `top`: move the contents of `dir/child` up into `dir` (images
/// merged into `dir/img`, files replacing `dir`'s), then remove the child. Returns `dir`.
fn apply_collapse(top: &Path, dir: &str, child: &str) -> Result<PathBuf> {
    let d = top.join(dir);
    let c = d.join(child);
    let child_readme = c.join("README.md").is_file();
    let rd = std::fs::read_dir(&c).map_err(|e| Error::io(&c, e))?;
    for e in rd.filter_map(|e| e.ok()) {
        let dest = d.join(e.file_name());
        if e.file_name() == "img" && dest.is_dir() {
            move_images(&c, &dest)?;
            continue;
        }
        if e.file_name() == "README.md" && dest.is_file() {
            // The child's README replaces the folder's, as the pipeline does.
            std::fs::remove_file(&dest).map_err(|er| Error::io(&dest, er))?;
        } else if std::fs::symlink_metadata(&dest).is_ok() {
            return Err(Error::Refused(format!(
                "{} would replace {}; nothing more was collapsed",
                e.path().display(),
                dest.display()
            )));
        }
        std::fs::rename(e.path(), &dest).map_err(|er| Error::io(&dest, er))?;
    }
    // Emptied: a folder that still holds something is an error, never deleted with it.
    let img = c.join("img");
    if img.is_dir() {
        std::fs::remove_dir(&img).map_err(|e| Error::io(&img, e))?;
    }
    std::fs::remove_dir(&c).map_err(|e| Error::io(&c, e))?;
    if !child_readme {
        drop_bullet(&d.join("README.md"), child)?;
    }
    Ok(d)
}

/// Remove the bullet naming `child` (with the lines continuing it) from the README at `p`,
/// when there is one and it is text a merge can edit: the folder it named is gone.
fn drop_bullet(p: &Path, child: &str) -> Result<()> {
    let Ok(old) = std::fs::read_to_string(p) else {
        return Ok(());
    };
    let readme = super::parse_readme(&old);
    let names = [child.to_string()];
    let Some(b) = super::load::bullet_for(&readme.bullets, &names, child) else {
        return Ok(());
    };
    let lines: Vec<&str> = old.lines().collect();
    let blocks = bullet_blocks(&readme, &lines);
    let Some(&(a, z)) = blocks.iter().find(|(a, _)| *a + 1 == b.line as usize) else {
        return Ok(());
    };
    let kept: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !(a..z).contains(i))
        .map(|(_, l)| (*l).to_string())
        .collect();
    write(p, &join_lines(&old, kept), p)
}

/// [`Step::MergeIntoParent`] under `top`: `dir`'s own page and its `leaves` become
/// `dir/doc.md`, and `dir` gets a leaf README: its old title (else the folder's name), the
/// `Merged from:` line (so the loader shows the parts) and a placeholder. Returns `dir`.
fn apply_merge_into_parent(top: &Path, dir: &str, leaves: &[String]) -> Result<PathBuf> {
    let d = top.join(dir);
    let own = d.join("doc.md").is_file();
    let name = d
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let old = std::fs::read_to_string(d.join("README.md")).ok();
    let title = readme_title(&d).unwrap_or_else(|| pretty(name_suffix(&name)));
    merge_docs(&d, leaves, &d)?;
    let first = if own {
        format!(
            "{name} (its own page), {}",
            leaves.first().map_or("", String::as_str)
        )
    } else {
        leaves.first().cloned().unwrap_or_default()
    };
    let last = leaves.last().map_or("", String::as_str);
    let merged_from = format!("Merged from: {first} to {last}");
    let text = match old {
        Some(old) => leaf_readme(&old, &merged_from),
        None => format!("# {title}\n\n{merged_from}\n\n{LEAF_PLACEHOLDER}\n"),
    };
    write(&d.join("README.md"), &text, &d.join("doc.md"))?;
    Ok(d)
}

/// A parent README `old` made a leaf's: its bullets go (with the lines that continue them),
/// `merged_from` follows its title, and everything else it says stays; the placeholder
/// summary is added only when no text is left. Line endings as `old`'s.
fn leaf_readme(old: &str, merged_from: &str) -> String {
    let readme = super::parse_readme(old);
    let lines: Vec<&str> = old.lines().collect();
    let drop = bullet_blocks(&readme, &lines);
    let mut out: Vec<String> = Vec::new();
    let title_at = lines.iter().position(|l| l.trim_start().starts_with("# "));
    if title_at.is_none() {
        out.extend([merged_from.to_string(), String::new()]);
    }
    let blank_end = |out: &Vec<String>| out.last().is_some_and(|l| l.trim().is_empty());
    for (i, l) in lines.iter().enumerate() {
        let dropped = drop.iter().any(|(a, b)| (*a..*b).contains(&i));
        // A blank line where bullets were is kept once, not twice.
        if !(dropped || l.trim().is_empty() && blank_end(&out)) {
            out.push((*l).to_string());
        }
        if Some(i) == title_at {
            out.extend([String::new(), merged_from.to_string()]);
        }
    }
    if readme.paragraph.trim().is_empty() {
        if !blank_end(&out) {
            out.push(String::new());
        }
        out.push(LEAF_PLACEHOLDER.to_string());
    }
    join_lines(old, out)
}

/// The line ranges of `readme`'s bullets in `lines`: each bullet line and the indented lines
/// that continue it.
fn bullet_blocks(readme: &super::Readme, lines: &[&str]) -> Vec<(usize, usize)> {
    readme
        .bullets
        .iter()
        .map(|b| {
            let at = b.line as usize - 1;
            let is_bullet = |j: usize| readme.bullets.iter().any(|o| o.line as usize == j + 1);
            let end = (at + 1..lines.len())
                .find(|&j| {
                    lines[j].trim().is_empty() || !lines[j].starts_with([' ', '\t']) || is_bullet(j)
                })
                .unwrap_or(lines.len());
            (at, end)
        })
        .collect()
}

/// `lines` joined with the line ending `old` uses (`\r\n` when it has one), ending with one.
fn join_lines(old: &str, mut lines: Vec<String>) -> String {
    while lines.len() > 1 && lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let nl = if old.contains("\r\n") { "\r\n" } else { "\n" };
    lines.join(nl) + nl
}

/// The H1 of `dir/README.md`, if it has one.
fn readme_title(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("README.md")).ok()?;
    super::parse_readme(&text).title
}

/// A folder-name part as a title: `-` and `_` as spaces (`Array-types` → `Array types`).
fn pretty(name: &str) -> String {
    name.replace(['-', '_'], " ").trim().to_string()
}

/// The README title of a group merged from `leaves` (folders of `d`): their README titles
/// (else their names without the number), `A, B and C`, so the title names every page
/// the folder now holds rather than the first one.
fn group_title(d: &Path, leaves: &[String]) -> String {
    let titles: Vec<String> = leaves
        .iter()
        .map(|l| readme_title(&d.join(l)).unwrap_or_else(|| pretty(name_suffix(l))))
        .collect();
    match titles.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => titles.concat(),
    }
}

/// [`Step::MergeGroup`] under `top`: the `leaves` of `dir` merged into the new folder
/// `dir/name`, whose README is titled by [`group_title`]. Returns the new folder.
fn apply_merge_group(top: &Path, dir: &str, name: &str, leaves: &[String]) -> Result<PathBuf> {
    let d = top.join(dir);
    let new = d.join(name);
    let heading = group_title(&d, leaves);
    // A new folder: never one already there (its doc.md would be taken as a page).
    std::fs::create_dir(&new).map_err(|e| Error::io(&new, e))?;
    let (first, last) = (
        leaves.first().cloned().unwrap_or_default(),
        leaves.last().cloned().unwrap_or_default(),
    );
    // The group is whole (README, then doc.md) before any leaf is removed.
    write(
        &new.join("README.md"),
        &format!("# {heading}\n\nMerged from: {first} to {last}\n\n{LEAF_PLACEHOLDER}\n"),
        &d.join(&first).join("doc.md"),
    )?;
    merge_docs(&d, leaves, &new)?;
    Ok(new)
}

/// [`Step::RewriteReadme`] under `top`: `dir/README.md` edited in place for the `groups`
/// merged in `dir` (docs/FORMATS.md §6): the bullet of a group's first member becomes the
/// group's `- **<folder>** — <placeholder>` bullet, the other members' bullets go (with the
/// lines continuing them), every other line stays where it was (bullets of unmerged
/// folders, headings, text, a bullet naming a folder that is not there), and a child folder
/// no bullet names is added after the last bullet. Line endings are kept. Returns `dir`, or
/// `None` (nothing written) when it has no child folder.
fn apply_rewrite_readme(
    top: &Path,
    dir: &str,
    groups: &[(String, Vec<String>)],
) -> Result<Option<PathBuf>> {
    let d = top.join(dir);
    let mut kids: Vec<String> = std::fs::read_dir(&d)
        .map_err(|e| Error::io(&d, e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "img")
        .collect();
    if kids.is_empty() {
        return Ok(None);
    }
    kids.sort_by(|a, b| cmp(a, b));
    let old = std::fs::read_to_string(d.join("README.md")).unwrap_or_else(|_| {
        let name = d.file_name().map(|n| n.to_string_lossy().into_owned());
        format!("# {}\n", pretty(name_suffix(&name.unwrap_or_default())))
    });
    let readme = d.join("README.md");
    write(&readme, &relisted(&old, &kids, groups), &readme)?;
    Ok(Some(d))
}

/// README text `old` edited for `groups` and the child folders `kids` (see
/// [`apply_rewrite_readme`]).
fn relisted(old: &str, kids: &[String], groups: &[(String, Vec<String>)]) -> String {
    let readme = super::parse_readme(old);
    let lines: Vec<&str> = old.lines().collect();
    let blocks = bullet_blocks(&readme, &lines);
    // Every name a bullet may mean: the folders now, and the leaves merged away.
    let mut names: Vec<String> = kids.to_vec();
    names.extend(groups.iter().flat_map(|(_, m)| m.iter().cloned()));
    let mut listed: Vec<String> = Vec::new();
    let mut edits: Vec<Option<String>> = Vec::new(); // per bullet: its new line, or gone
    for b in &readme.bullets {
        let named = names
            .iter()
            .find(|n| super::load::bullet_for(&readme.bullets, &names, n) == Some(b));
        let group = named.and_then(|n| groups.iter().find(|(_, m)| m.contains(n)));
        edits.push(match (named, group) {
            (_, Some((g, _))) if listed.contains(g) => None,
            (_, Some((g, _))) => {
                listed.push(g.clone());
                Some(format!("- **{g}** — {CHILD_PLACEHOLDER}"))
            }
            (Some(n), None) => {
                listed.push(n.clone());
                Some(lines[b.line as usize - 1].to_string())
            }
            (None, None) => Some(lines[b.line as usize - 1].to_string()),
        });
    }
    let missing: Vec<String> = kids
        .iter()
        .filter(|k| !listed.contains(k))
        .map(|k| format!("- **{k}** — {CHILD_PLACEHOLDER}"))
        .collect();
    let mut out: Vec<String> = Vec::new();
    let last_block = blocks.iter().map(|b| b.1).max();
    for (i, l) in lines.iter().enumerate() {
        match blocks.iter().position(|(a, b)| (*a..*b).contains(&i)) {
            Some(k) if i == blocks[k].0 => out.extend(edits[k].clone()),
            Some(k) if edits[k].as_deref() == Some(lines[blocks[k].0]) => {
                out.push((*l).to_string());
            }
            Some(_) => {}
            None => out.push((*l).to_string()),
        }
        if Some(i + 1) == last_block {
            out.extend(missing.iter().cloned());
        }
    }
    if last_block.is_none() {
        if out.last().is_some_and(|l| !l.trim().is_empty()) {
            out.push(String::new());
        }
        out.extend(missing);
    }
    join_lines(old, out)
}
