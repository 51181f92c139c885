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
            Step::RewriteReadme { dir } => write!(f, "rewrite {}/README.md", show(dir)),
        }
    }
}

fn show(dir: &str) -> &str {
    if dir.is_empty() { "." } else { dir }
}

/// In-memory folder: name, words of its doc.md (if any), child folders (no `img`).
#[derive(Clone, Debug)]
struct Folder {
    name: String,
    words: Option<usize>,
    children: Vec<Folder>,
}

impl Folder {
    fn is_leaf(&self) -> bool {
        self.words.is_some() && self.children.is_empty()
    }
}

fn cmp(a: &str, b: &str) -> std::cmp::Ordering {
    (prefix_tuple(a), a).cmp(&(prefix_tuple(b), b))
}

fn read(dir: &Path, name: String, depth: usize) -> Result<Folder> {
    let doc = dir.join("doc.md");
    let words = if doc.is_file() {
        let bytes = std::fs::read(&doc).map_err(|e| Error::io(&doc, e))?;
        Some(String::from_utf8_lossy(&bytes).split_whitespace().count())
    } else {
        None
    };
    let mut children = Vec::new();
    if depth < 64 {
        let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
        for e in rd.filter_map(|e| e.ok()) {
            let n = e.file_name().to_string_lossy().into_owned();
            if n != "img" && e.file_type().is_ok_and(|t| t.is_dir()) {
                children.push(read(&e.path(), n, depth + 1)?);
            }
        }
    }
    children.sort_by(|a, b| cmp(&a.name, &b.name));
    Ok(Folder {
        name,
        words,
        children,
    })
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
    if f.children.len() == 1 && f.words.is_none() {
        let child = f.children.remove(0);
        steps.push(Step::Collapse {
            dir: path.to_string(),
            child: child.name.clone(),
        });
        f.words = child.words;
        f.children = child.children;
    }
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
/// the whole name (`10-1-Special-Regs` → `Special-Regs`, `4-10-2` → `2`).
pub fn name_suffix(name: &str) -> &str {
    chain_ends(name)
        .into_iter()
        .rev()
        .find(|e| name.as_bytes().get(*e) == Some(&b'-'))
        .map_or(name, |e| &name[e + 1..])
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

/// The folder name and README title of a merged group (`merge.py` `merge_group`): title =
/// the longest common prefix of the leaves' [`name_suffix`]es without trailing `-` (the
/// first suffix when empty); folder = `<first prefix>-to-<last prefix>-<title>`, or
/// `<prefix>-<title>` when both prefixes are equal.
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
    let fp = leaves.first().and_then(|l| prefix_str(l)).unwrap_or("None");
    let lp = leaves.last().and_then(|l| prefix_str(l)).unwrap_or("None");
    let folder = if fp == lp {
        format!("{fp}-{title}")
    } else {
        format!("{fp}-to-{lp}-{title}")
    };
    (folder, title)
}

/// Plan `merge.py` on the tree at `top`: every non-top folder, deepest first (then in
/// numeric order), with ≥ 2 leaf children: if all are short, it has no non-leaf child
/// folders and their total ≤ `max_words`, merge them all into it; otherwise merge each run
/// of ≥ 2 consecutive short leaves (a long leaf ends a run; a run is cut when adding a leaf
/// would pass `max_words`) into a new folder and rewrite the folder's README.
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
    let leaves: Vec<(String, usize)> = f
        .children
        .iter()
        .filter(|c| c.is_leaf())
        .map(|c| (c.name.clone(), c.words.unwrap_or(0)))
        .collect();
    if leaves.len() < 2 {
        return;
    }
    let all_short = leaves.iter().all(|(_, w)| *w < opts.min_words);
    // The folder's own page is kept as the first part, so it counts towards the cap.
    let own = f.words.unwrap_or(0);
    let total: usize = own + leaves.iter().map(|(_, w)| w).sum::<usize>();
    let non_leaf = f.children.iter().any(|c| !c.is_leaf());
    if all_short && !non_leaf && total <= opts.max_words {
        let parts = leaves.len() + usize::from(f.words.is_some());
        let words = total + parts - 1;
        steps.push(Step::MergeIntoParent {
            dir: path.to_string(),
            own_page: f.words.is_some(),
            leaves: leaves.iter().map(|(n, _)| n.clone()).collect(),
            words,
        });
        f.children.clear();
        f.words = Some(words);
        return;
    }
    let mut groups: Vec<Vec<(String, usize)>> = Vec::new();
    let mut cur: Vec<(String, usize)> = Vec::new();
    let mut cur_words = 0;
    for (n, w) in leaves {
        if w >= opts.min_words {
            if cur.len() >= 2 {
                groups.push(std::mem::take(&mut cur));
            }
            cur.clear();
            cur_words = 0;
        } else if cur_words + w > opts.max_words && !cur.is_empty() {
            if cur.len() >= 2 {
                groups.push(std::mem::take(&mut cur));
            }
            cur = vec![(n, w)];
            cur_words = w;
        } else {
            cur_words += w;
            cur.push((n, w));
        }
    }
    if cur.len() >= 2 {
        groups.push(cur);
    }
    if groups.is_empty() {
        return;
    }
    for g in groups {
        let names: Vec<String> = g.iter().map(|(n, _)| n.clone()).collect();
        let words = g.iter().map(|(_, w)| w).sum::<usize>() + g.len() - 1;
        let (name, _) = group_name(&names);
        f.children.retain(|c| !names.contains(&c.name));
        if !f.children.iter().any(|c| c.name == name) {
            f.children.push(Folder {
                name: name.clone(),
                words: Some(words),
                children: Vec::new(),
            });
        }
        f.children.sort_by(|a, b| cmp(&a.name, &b.name));
        steps.push(Step::MergeGroup {
            dir: path.to_string(),
            name,
            leaves: names,
            words,
        });
    }
    steps.push(Step::RewriteReadme {
        dir: path.to_string(),
    });
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

fn move_images(from: &Path, to_img: &Path) -> Result<()> {
    let src = from.join("img");
    let Ok(rd) = std::fs::read_dir(&src) else {
        return Ok(());
    };
    for e in rd.filter_map(|e| e.ok()) {
        if e.file_type().is_ok_and(|t| t.is_file()) {
            std::fs::create_dir_all(to_img).map_err(|er| Error::io(to_img, er))?;
            let dest = to_img.join(e.file_name());
            if !dest.exists() {
                std::fs::rename(e.path(), &dest).map_err(|er| Error::io(&dest, er))?;
            }
        }
    }
    Ok(())
}

/// Write `text` to `p` atomically (a temporary file in the same folder renamed over it), so
/// a failed write never leaves a half-written doc or README.
fn write(p: &Path, text: &str) -> Result<()> {
    use std::io::Write as _;
    let dir = p.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(text.as_bytes())
        .map_err(|e| Error::io(p, e))?;
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
        move_images(&dir.join(l), &into.join("img"))?;
    }
    write(&into.join("doc.md"), &(parts.join("\n\n---\n\n") + "\n"))?;
    for l in leaves {
        let p = dir.join(l);
        std::fs::remove_dir_all(&p).map_err(|e| Error::io(&p, e))?;
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
            Step::RewriteReadme { dir } => apply_rewrite_readme(top, dir)?,
        };
        touched.extend(folder);
    }
    Ok(touched)
}

/// [`Step::Collapse`] under `top`: move the contents of `dir/child` up into `dir` (images
/// merged into `dir/img`, files replacing `dir`'s), then remove the child. Returns `dir`.
fn apply_collapse(top: &Path, dir: &str, child: &str) -> Result<PathBuf> {
    let d = top.join(dir);
    let c = d.join(child);
    let rd = std::fs::read_dir(&c).map_err(|e| Error::io(&c, e))?;
    for e in rd.filter_map(|e| e.ok()) {
        let dest = d.join(e.file_name());
        if e.file_name() == "img" && dest.is_dir() {
            move_images(&c, &dest)?;
            continue;
        }
        if dest.is_file() {
            std::fs::remove_file(&dest).map_err(|er| Error::io(&dest, er))?;
        }
        std::fs::rename(e.path(), &dest).map_err(|er| Error::io(&dest, er))?;
    }
    std::fs::remove_dir_all(&c).map_err(|e| Error::io(&c, e))?;
    Ok(d)
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
    write(
        &d.join("README.md"),
        &format!("# {title}\n\nMerged from: {first} to {last}\n\n{LEAF_PLACEHOLDER}\n"),
    )?;
    Ok(d)
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
    std::fs::create_dir_all(&new).map_err(|e| Error::io(&new, e))?;
    let (first, last) = (
        leaves.first().cloned().unwrap_or_default(),
        leaves.last().cloned().unwrap_or_default(),
    );
    merge_docs(&d, leaves, &new)?;
    write(
        &new.join("README.md"),
        &format!("# {heading}\n\nMerged from: {first} to {last}\n\n{LEAF_PLACEHOLDER}\n"),
    )?;
    Ok(new)
}

/// [`Step::RewriteReadme`] under `top`: `dir/README.md` lists `dir`'s child folders (but
/// `img`) in natural order, as `- **<folder>** — <summary>` bullets (docs/FORMATS.md §6):
/// the bullet line that named a child before is kept as it was, a new child gets
/// [`CHILD_PLACEHOLDER`]. The other lines (title, text) stay; the bullets go where the
/// first one was (else at the end; a README is written when there was none). Returns
/// `dir`, or `None` (nothing written) when it has no child folder.
fn apply_rewrite_readme(top: &Path, dir: &str) -> Result<Option<PathBuf>> {
    let d = top.join(dir);
    let mut kids: Vec<String> = std::fs::read_dir(&d)
        .map_err(|e| Error::io(&d, e))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "img")
        .collect();
    if kids.is_empty() {
        return Ok(None);
    }
    kids.sort_by(|a, b| cmp(a, b));
    let old = std::fs::read_to_string(d.join("README.md")).unwrap_or_else(|_| {
        let name = d.file_name().map(|n| n.to_string_lossy().into_owned());
        format!("# {}\n\n", pretty(name_suffix(&name.unwrap_or_default())))
    });
    write(&d.join("README.md"), &relisted(&old, &kids))?;
    Ok(Some(d))
}

/// README text `old` with its bullets replaced by one per folder of `kids` (see
/// [`apply_rewrite_readme`]).
fn relisted(old: &str, kids: &[String]) -> String {
    let readme = super::parse_readme(old);
    let lines: Vec<&str> = old.lines().collect();
    let bullet_line = |i: usize| readme.bullets.iter().any(|b| b.line as usize == i + 1);
    let block: Vec<String> = kids
        .iter()
        .map(
            |k| match super::load::bullet_for(&readme.bullets, kids, k) {
                Some(b) => lines[b.line as usize - 1].to_string(),
                None => format!("- **{k}** — {CHILD_PLACEHOLDER}"),
            },
        )
        .collect();
    let at = (0..lines.len()).find(|&i| bullet_line(i));
    let mut out: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if Some(i) == at {
            out.extend(block.iter().cloned());
        }
        if !bullet_line(i) {
            out.push((*l).to_string());
        }
    }
    if at.is_none() {
        if out.last().is_some_and(|l| !l.trim().is_empty()) {
            out.push(String::new());
        }
        out.extend(block);
    }
    out.join("\n") + "\n"
}
