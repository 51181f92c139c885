//! Progressive-exposure doc trees (docs/FORMATS.md §6, the PTX-ISA `doc-crawl` layout): every
//! folder has a `README.md` whose bullets `- **<child folder>** — <summary>` describe its children;
//! leaves hold a `doc.md`. Loaded so that each folder shows its parent's bullet as its
//! summary, a leaf's README paragraph as its `detail`, children in numeric-prefix order, and
//! merged `doc.md` files as their parts.

use std::path::Path;

use crate::formats::llms_txt::{LineIndex, add_text_file, first_line, nest_headings};
use crate::formats::sections;
use crate::formats::walk::loader::{Loader, file_size, join_rel};
use crate::formats::walk::probe::FolderProbe;
use crate::model::{Corpus, FETCH_FAILED, Flag, Format, Node, NodeId, NodeKind, SourceId, Warning};

/// One README bullet `- **name** — summary`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bullet {
    /// The bold name (a child folder name).
    pub name: String,
    /// Text after the dash (em dash, en dash, `-` or `:`), trimmed.
    pub summary: String,
    /// 1-based line in the README.
    pub line: u32,
}

/// A parsed doc-tree README.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Readme {
    /// The H1 text (`# 4.10. Constants`), if any.
    pub title: Option<String>,
    /// Child bullets in file order.
    pub bullets: Vec<Bullet>,
    /// Non-bullet, non-heading text joined with spaces (a leaf's ≈50-word paragraph).
    pub paragraph: String,
    /// `Merged from: <first> to <last>` text, when the README has that line.
    pub merged_from: Option<String>,
}

/// Parse a doc-tree README (docs/FORMATS.md §6). Lines inside fenced code are ignored.
pub fn parse_readme(text: &str) -> Readme {
    let mut r = Readme::default();
    let mut para: Vec<&str> = Vec::new();
    let mut fence = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence || t.is_empty() {
            continue;
        }
        if let Some(h) = t.strip_prefix("# ") {
            if r.title.is_none() {
                r.title = Some(h.trim().to_string());
            }
            continue;
        }
        if t.starts_with('#') {
            continue;
        }
        if let Some(m) = t.strip_prefix("Merged from:") {
            r.merged_from = Some(m.trim().to_string());
            continue;
        }
        if let Some(b) = parse_bullet(t) {
            r.bullets.push(Bullet {
                name: b.0,
                summary: b.1,
                line: i as u32 + 1,
            });
            continue;
        }
        para.push(t);
    }
    r.paragraph = para.join(" ");
    r
}

/// Whether [`parse_readme`] would find at least one bullet in `text`: a line that, trimmed,
/// is `- **name** …` (or `* **`) outside fenced code. Found without walking every line: each
/// `**` that follows a line's leading `- ` / `* ` is a candidate, and it is outside a fence
/// when an even number of fence lines (trimmed start ```` ``` ```` or `~~~`) come before it.
/// The searches are `memchr`'s vectorized ones, and fence lines are counted only up to the
/// candidate being checked, so a README whose first bullet comes early is not read to its
/// end.
fn has_bullet(text: &str) -> bool {
    use memchr::memmem;
    let bytes = text.as_bytes();
    if memmem::find(bytes, b"**").is_none() {
        return false;
    }
    let line_start = |pos: usize| memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |i| i + 1);
    // Whitespace only between the line start and `pos`: `pos` begins the trimmed line.
    let starts_line = |pos: usize| text[line_start(pos)..pos].chars().all(char::is_whitespace);
    // Fence marks in text order (both kinds merged), each counted once it lies before the
    // candidate; `fences` is the number of fence lines among them so far.
    let mut ticks = memmem::find_iter(bytes, b"```").peekable();
    let mut tildes = memmem::find_iter(bytes, b"~~~").peekable();
    let mut fences = 0usize;
    for p in memmem::find_iter(bytes, b"**") {
        if p < 2 || !matches!(&bytes[p - 2..p], b"- " | b"* ") || !starts_line(p - 2) {
            continue;
        }
        let end = memchr::memchr(b'\n', &bytes[p..]).map_or(bytes.len(), |e| p + e);
        let line = &text[p - 2..end];
        if bullet_name(line.trim()).is_none() {
            continue;
        }
        for marks in [&mut ticks, &mut tildes] {
            while let Some(f) = marks.next_if(|&f| f < p - 2) {
                fences += usize::from(starts_line(f));
            }
        }
        if fences.is_multiple_of(2) {
            return true;
        }
    }
    false
}

/// The bold name of a `- **name** …` line and the text after its closing `**`.
fn bullet_name(t: &str) -> Option<(&str, &str)> {
    let rest = t.strip_prefix("- **").or_else(|| t.strip_prefix("* **"))?;
    let close = rest.find("**")?;
    let name = rest[..close].trim();
    if name.is_empty() {
        None
    } else {
        Some((name, &rest[close + 2..]))
    }
}

/// `- **name** — summary` (also `*` bullets and `–`, `-`, `:` separators) → (name, summary).
fn parse_bullet(t: &str) -> Option<(String, String)> {
    let (name, after) = bullet_name(t)?;
    let after = after.trim_start();
    let summary = after
        .strip_prefix(['\u{2014}', '\u{2013}', '-', ':'])
        .unwrap_or(after)
        .trim();
    Some((name.to_string(), summary.to_string()))
}

pub use crate::util::prose::is_placeholder;

/// Sort key of a folder name: the numeric prefix tuple (`4-10-Constants` → `[4, 10]`,
/// `11-1-1-PTX…` → `[11, 1, 1]`), then the name. Names without a numeric prefix sort after
/// numbered ones, by name.
pub fn numeric_prefix(name: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for part in name.split('-') {
        match part.parse::<u64>() {
            Ok(n) if !part.is_empty() => out.push(n),
            _ => break,
        }
    }
    out
}

/// Order two folder names by [`numeric_prefix`] (docs/FORMATS.md §6: `4-10` after `4-9`).
pub fn cmp_names(a: &str, b: &str) -> std::cmp::Ordering {
    let (pa, pb) = (numeric_prefix(a), numeric_prefix(b));
    (pa.is_empty(), pa, a).cmp(&(pb.is_empty(), pb, b))
}

/// Whether `dir` is the top of a progressive-exposure doc tree: its `README.md` has at least
/// one `- **name** — summary` bullet, and a `doc.md` exists in it or below it (searched
/// breadth-first, at most 2 000 folders and 12 levels deep).
pub fn detect(dir: &Path) -> bool {
    detect_dir(dir, &mut FolderProbe::default())
}

/// [`detect`], taking `README.md` from `probe` (reading it there if needed).
pub(crate) fn detect_dir(dir: &Path, probe: &mut FolderProbe) -> bool {
    // Unreadable or not UTF-8: not a doc tree (as `read_to_string` failing).
    let Some(Ok(text)) = probe.readme(dir).map(std::str::from_utf8) else {
        return false;
    };
    if !has_bullet(text) {
        return false;
    }
    let mut queue = std::collections::VecDeque::from([(dir.to_path_buf(), 0usize)]);
    let mut seen = 0;
    while let Some((d, depth)) = queue.pop_front() {
        if d.join("doc.md").is_file() {
            return true;
        }
        seen += 1;
        if seen > 2000 || depth >= 12 {
            continue;
        }
        if let Ok(rd) = crate::formats::walk::inputs::read_dir(&d) {
            for e in rd.filter_map(Result::ok) {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    queue.push_back((e.path(), depth + 1));
                }
            }
        }
    }
    false
}

/// Load the doc tree at `dir` (relative path `rel`) as a `Dir` node (format `doc_tree`)
/// under `parent`, recursively, and return it.
///
/// Per folder: title = its README H1 (else the folder name; `meta.folder` = the name);
/// summary = the parent README's bullet for it (a placeholder summary flags the folder
/// `placeholder` and warns); `detail` = the README paragraph (a leaf's ≈50-word summary).
/// Children in this order: `README.md`, `doc.md` (both sectioned by headings), the child
/// folders sorted by [`cmp_names`], then other files (listed with their size, flag
/// `asset`). A `doc.md` whose README says `Merged from:` is split at its `---` lines
/// (outside code fences) into `Part` nodes (seg `part-<n>`, title = the part's first
/// heading), each with its headings as sections. Warnings: a bullet naming a missing folder
/// (on the README, with its line), a child folder no bullet names, a leaf (no child folders
/// besides `img/`) without `doc.md`, a folder with `doc.md` but no README, a `# Error` doc.
///
/// Dispatch: call it for a folder where [`detect`] is true and no more specific format
/// (skill, `Skill_Seekers`, lazytools) matched.
pub fn load(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str) -> NodeId {
    load_folder(corpus, parent, dir, rel, None, 0)
}

/// Load a doc tree found by the walk: [`load`] below `parent`, or [`load_into`] the `Root`
/// node `parent` when the tree is the opened root (`rel` `""`). Returns the tree's node.
pub(crate) fn load_dir(ld: &mut Loader<'_>, parent: NodeId, dir: &Path, rel: &str) -> NodeId {
    if rel.is_empty() {
        load_into(&mut ld.corpus, parent, dir, rel);
        return parent;
    }
    load(&mut ld.corpus, parent, dir, rel)
}

/// Like [`load`], but fills the existing node `folder` (e.g. the `Root` node when the opened
/// path itself is a doc tree) instead of adding a `Dir`; the node's title is kept and its
/// `detail` set from the README paragraph. Everything below is as in [`load`].
pub fn load_into(corpus: &mut Corpus, folder: NodeId, dir: &Path, rel: &str) {
    fill_folder(corpus, folder, dir, rel, 0, false);
}

fn load_folder(
    corpus: &mut Corpus,
    parent: NodeId,
    dir: &Path,
    rel: &str,
    bullet: Option<&Bullet>,
    depth: usize,
) -> NodeId {
    let name = dir
        .file_name()
        .map_or_else(|| rel.to_string(), |n| n.to_string_lossy().into_owned());
    let mut node = Node::new(NodeKind::Dir, Format::DocTree, name.clone(), rel);
    node.meta.insert("folder".into(), name.clone().into());
    if let Some(b) = bullet {
        node.summary = b.summary.clone();
        if is_placeholder(&b.summary) {
            node.flags.set(Flag::Placeholder);
            node.warnings.push(Warning::at(
                format!("placeholder summary for {name} in the parent README"),
                rel.rsplit_once('/')
                    .map_or_else(|| "README.md".into(), |(p, _)| format!("{p}/README.md")),
                Some(b.line),
            ));
        }
    }
    let folder = corpus.add_child(parent, node);
    fill_folder(corpus, folder, dir, rel, depth, true);
    folder
}

/// Load the contents of doc-tree folder `dir` into the existing node `folder` (see
/// [`load`]); `set_title` replaces the node's title with the README H1.
fn fill_folder(
    corpus: &mut Corpus,
    folder: NodeId,
    dir: &Path,
    rel: &str,
    depth: usize,
    set_title: bool,
) {
    if depth > 32 {
        corpus.node_mut(folder).warnings.push(Warning::at(
            "folder nesting deeper than 32; not read",
            rel,
            None,
        ));
        return;
    }
    let (dirs, files) = list_entries(dir);
    let has_doc = files.iter().any(|f| f == "doc.md");
    let f = Folder {
        node: folder,
        dir,
        rel,
    };
    let readme = if files.iter().any(|f| f == "README.md") {
        f.load_readme(corpus, &dirs)
    } else {
        if has_doc {
            corpus.node_mut(folder).warnings.push(Warning::at(
                "doc.md without README.md",
                rel,
                None,
            ));
        }
        Readme::default()
    };
    f.apply_readme(corpus, &readme, set_title);
    if has_doc {
        f.load_doc(corpus, readme.merged_from.is_some());
    }
    let content_dirs: Vec<&String> = dirs.iter().filter(|d| d.as_str() != "img").collect();
    if content_dirs.is_empty() && !has_doc {
        corpus
            .node_mut(folder)
            .warnings
            .push(Warning::at("leaf folder without doc.md", rel, None));
    }
    f.load_subfolders(corpus, &dirs, &readme, depth);
    f.load_files(corpus, &files);
}

/// The sub-folders (in [`cmp_names`] order) and files (sorted) of `dir`; an unreadable
/// folder has none.
fn list_entries(dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut dirs: Vec<String> = Vec::new();
    let mut files: Vec<String> = Vec::new();
    if let Ok(rd) = crate::formats::walk::inputs::read_dir(dir) {
        for e in rd.filter_map(Result::ok) {
            let Ok(t) = e.file_type() else { continue };
            let n = e.file_name().to_string_lossy().into_owned();
            if t.is_dir() {
                dirs.push(n);
            } else if t.is_file() {
                files.push(n);
            }
        }
    }
    dirs.sort_by(|a, b| cmp_names(a, b));
    files.sort();
    (dirs, files)
}

/// A doc-tree folder being filled: its node, path on disk, and relative path.
struct Folder<'a> {
    node: NodeId,
    dir: &'a Path,
    rel: &'a str,
}

impl Folder<'_> {
    /// The folder's README: sectioned, summarized by what it lists, a bullet naming no
    /// folder in `dirs` a warning on it; what it says.
    fn load_readme(&self, corpus: &mut Corpus, dirs: &[String]) -> Readme {
        let mut readme = Readme::default();
        let r = join_rel(self.rel, "README.md");
        let (f, src) = add_text_file(
            corpus,
            self.node,
            &self.dir.join("README.md"),
            &r,
            Format::DocTree,
        );
        if let Some(src) = src {
            readme = parse_readme(corpus.sources[src.0 as usize].text());
            section(corpus, f, src);
            corpus.node_mut(f).summary = match readme.bullets.len() {
                0 => first_line(&readme.paragraph),
                1 => "lists 1 child".into(),
                k => format!("lists {k} children"),
            };
            for b in &readme.bullets {
                if !dirs
                    .iter()
                    .any(|d| bullet_for(&readme.bullets, dirs, d) == Some(b))
                {
                    let msg = format!("README lists {}, which is not a folder here", b.name);
                    corpus
                        .node_mut(f)
                        .warnings
                        .push(Warning::at(msg, r.clone(), Some(b.line)));
                }
            }
        }
        readme
    }

    /// The README's title (when `set_title`), paragraph (detail, and summary when there is
    /// none) and `Merged from` line on the folder's node.
    fn apply_readme(&self, corpus: &mut Corpus, readme: &Readme, set_title: bool) {
        let n = corpus.node_mut(self.node);
        if let Some(t) = readme.title.as_ref().filter(|_| set_title) {
            n.title = t.clone();
        }
        if !readme.paragraph.is_empty() {
            n.detail = Some(readme.paragraph.clone().into());
            if n.summary.is_empty() {
                n.summary = sections::first_sentence(&readme.paragraph);
            }
        }
        if let Some(m) = &readme.merged_from {
            n.meta.insert("merged_from".into(), m.clone().into());
        }
    }

    /// The folder's `doc.md`: split into its parts when the README says it was `merged`,
    /// else sectioned; a crawler error document is a warning.
    fn load_doc(&self, corpus: &mut Corpus, merged: bool) {
        let r = join_rel(self.rel, "doc.md");
        let (f, src) = add_text_file(
            corpus,
            self.node,
            &self.dir.join("doc.md"),
            &r,
            Format::DocTree,
        );
        if let Some(src) = src {
            let text = &corpus.sources[src.0 as usize].text();
            if is_error_document(text) {
                // The `# Error` line: the first that is not blank.
                let line = text.lines().position(|l| !l.trim().is_empty()).unwrap_or(0) + 1;
                let node = corpus.node_mut(f);
                node.meta.insert(FETCH_FAILED.into(), true.into());
                node.warnings.push(Warning::at(
                    "crawler error document (fetch failed)",
                    r.clone(),
                    Some(line as u32),
                ));
            }
            if merged {
                add_parts(corpus, f, src);
            } else {
                section(corpus, f, src);
            }
        }
    }

    /// The sub-folders `dirs` (`img/` as assets), each with its README bullet; one the
    /// README does not list is a warning.
    fn load_subfolders(&self, corpus: &mut Corpus, dirs: &[String], readme: &Readme, depth: usize) {
        for d in dirs {
            let r = join_rel(self.rel, d);
            if d == "img" {
                list_assets(corpus, self.node, &self.dir.join(d), &r);
                continue;
            }
            let b = bullet_for(&readme.bullets, dirs, d).cloned();
            let child = load_folder(
                corpus,
                self.node,
                &self.dir.join(d),
                &r,
                b.as_ref(),
                depth + 1,
            );
            if b.is_none() && !readme.bullets.is_empty() {
                corpus.node_mut(child).warnings.push(Warning::at(
                    "folder not listed in the parent README",
                    r,
                    None,
                ));
            }
        }
    }

    /// The other files: markdown sectioned, the rest listed as assets.
    fn load_files(&self, corpus: &mut Corpus, files: &[String]) {
        for f in files.iter().filter(|f| *f != "README.md" && *f != "doc.md") {
            let r = join_rel(self.rel, f);
            let p = self.dir.join(f);
            if f.ends_with(".md") {
                let (n, src) = add_text_file(corpus, self.node, &p, &r, Format::DocTree);
                if let Some(src) = src {
                    section(corpus, n, src);
                }
            } else {
                add_asset(corpus, self.node, &p, f, &r);
            }
        }
    }
}

fn add_asset(corpus: &mut Corpus, parent: NodeId, p: &Path, name: &str, rel: &str) {
    let mut a = Node::new(NodeKind::File, Format::Asset, name, rel);
    a.flags.set(Flag::Asset);
    a.bytes = file_size(p);
    corpus.add_child(parent, a);
}

/// An `img/` folder: a `Dir` with its files listed as assets.
fn list_assets(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str) {
    let d = corpus.add_child(parent, Node::new(NodeKind::Dir, Format::Asset, "img", rel));
    let mut names: Vec<String> = crate::formats::walk::file_names(dir);
    names.sort();
    for n in names {
        add_asset(corpus, d, &dir.join(&n), &n, &join_rel(rel, &n));
    }
}

fn section(corpus: &mut Corpus, file: NodeId, src: SourceId) {
    let len = corpus.sources[src.0 as usize].text_len();
    let top = sections::add_sections(corpus, file, src, 0, len, Format::DocTree);
    let first = top
        .first()
        .and_then(|t| corpus.node(*t).span)
        .map_or(len, |s| s.start);
    if let Some(span) = &mut corpus.node_mut(file).span {
        span.own_end = first.min(span.end);
    }
}

/// Whether a README bullet's folder name and a folder's name on disk are the same name:
/// equal once both are in Unicode NFC (macOS writes folder names decomposed, an editor
/// writes the README composed).
fn same_name(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization as _;
    a == b || a.nfc().eq(b.nfc())
}

/// The bullet of `bullets` that names folder `d` (one of `dirs`): the one with the same
/// name ([`same_name`]), else the one whose [`loose_name`] is `d`'s, with or without `d`'s
/// leading section number (`**Option & unwrap**` or `**18.3 Option and unwrap**` for
/// `18-3-Option-unwrap`), when that pairs exactly one bullet with exactly one folder that no
/// bullet names exactly: summarisers retype names with other case and punctuation.
pub(super) fn bullet_for<'b>(
    bullets: &'b [Bullet],
    dirs: &[String],
    d: &str,
) -> Option<&'b Bullet> {
    if let Some(b) = bullets.iter().find(|b| same_name(&b.name, d)) {
        return Some(b);
    }
    let unnamed = |dir: &&String| !bullets.iter().any(|b| same_name(&b.name, dir));
    let loose = |dir: &str, b: &Bullet| {
        let key = loose_name(&b.name);
        !key.is_empty() && (key == loose_name(dir) || key == loose_name(without_number(dir)))
    };
    let mut found = bullets
        .iter()
        .filter(|b| !dirs.iter().any(|dir| same_name(&b.name, dir)))
        .filter(|b| loose(d, b));
    let b = found.next().filter(|_| found.next().is_none())?;
    let rivals = dirs
        .iter()
        .filter(unnamed)
        .filter(|dir| loose(dir, b))
        .count();
    (rivals == 1).then_some(b)
}

/// A name's letters and digits, lower-cased, after NFC: `18.3 Option & unwrap` and
/// `18-3-Option-unwrap` are both `183optionunwrap` (`and` and `&` differ).
fn loose_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization as _;
    name.nfc()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A folder name without its leading section number (`18-3-Option-unwrap` → `Option-unwrap`).
fn without_number(name: &str) -> &str {
    name.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '.' || c == '_')
}

/// Whether `text` is the document a crawler writes when a fetch fails: its first line is
/// the heading `# Error`, alone or followed by `:` and a reason. A page titled
/// `# Error handling` is a real page.
pub(super) fn is_error_document(text: &str) -> bool {
    let first = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .lines()
        .next()
        .unwrap_or_default();
    let Some(heading) = first.strip_prefix('#') else {
        return false;
    };
    if !(heading.is_empty() || heading.starts_with([' ', '\t'])) {
        return false; // `##` or `#Error`: not an H1
    }
    heading
        .trim()
        .strip_prefix("Error")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

/// Byte ranges of the parts of a merged doc.md: split at lines that are exactly `---`
/// (trailing spaces allowed) outside fenced code, unless the line above is paragraph text
/// (then `---` underlines a setext heading, as in `CommonMark`: a page's own heading, not a
/// merge's separator, which always follows a blank line); a part's range excludes the
/// `---` line. Blank-only parts are dropped.
pub fn merged_parts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut off = 0;
    let mut fence = false;
    // Whether the line above can be underlined: text that is no fence, heading or blank.
    let mut under_text = false;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end();
        let fence_line =
            line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
        if fence_line {
            fence = !fence;
        }
        if !fence && line == "---" && !under_text {
            out.push((start, off));
            start = off + raw.len();
        }
        under_text = !fence
            && !fence_line
            && !line.trim().is_empty()
            && !line.trim_start().starts_with('#')
            && line != "---";
        off += raw.len();
    }
    out.push((start, text.len()));
    out.into_iter()
        .filter(|(s, e)| !text[*s..*e].trim().is_empty())
        .collect()
}

fn add_parts(corpus: &mut Corpus, file: NodeId, src: SourceId) {
    let text = corpus.sources[src.0 as usize].read_text();
    let li = LineIndex::new(&text);
    let path = corpus.node(file).path.clone();
    let parts = merged_parts(&text);
    for (i, (s, e)) in parts.iter().enumerate() {
        // Trim leading blank lines so the part starts at its content.
        let lead = text[*s..*e].len() - text[*s..*e].trim_start_matches(['\n', '\r']).len();
        let start = s + lead;
        let hs = sections::headings(&text, start, *e);
        let title = hs
            .first()
            .map_or_else(|| format!("part {}", i + 1), |h| h.title.clone());
        let mut p = Node::new(NodeKind::Part, Format::DocTree, title, path.clone());
        p.seg = Some(format!("part-{}", i + 1).into());
        p.line_start = Some(li.line(start));
        p.line_end = Some(li.last_line(start, *e));
        let own_end = hs.first().map_or(*e, |h| h.start);
        p.span = Some(crate::model::TextSpan {
            source: src,
            start,
            own_end,
            end: *e,
        });
        let pid = corpus.add_child(file, p);
        nest_headings(corpus, pid, src, &hs, *e, Format::DocTree, &path, &li);
    }
    if let Some(first) = parts.first()
        && let Some(span) = &mut corpus.node_mut(file).span
    {
        span.own_end = first.0.min(span.end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line-by-line rule of [`parse_readme`], as the oracle for [`has_bullet`].
    fn has_bullet_by_lines(text: &str) -> bool {
        let mut fence = false;
        for line in text.lines() {
            let t = line.trim();
            if t.starts_with("```") || t.starts_with("~~~") {
                fence = !fence;
                continue;
            }
            if !fence && bullet_name(t).is_some() {
                return true;
            }
        }
        false
    }

    #[test]
    fn a_decomposed_folder_name_matches_its_composed_bullet() {
        assert!(same_name("4-Caf\u{e9}", "4-Cafe\u{301}"));
        assert!(!same_name("4-Cafe", "4-Cafe\u{301}"));
    }

    fn bullets(names: &[&str]) -> Vec<Bullet> {
        names
            .iter()
            .map(|n| Bullet {
                name: n.to_string(),
                summary: String::new(),
                line: 1,
            })
            .collect()
    }

    #[test]
    fn a_bullet_retyped_with_other_case_or_punctuation_names_its_folder_when_unambiguous() {
        let dirs: Vec<String> = ["18-3-Option-unwrap", "18-4-Result", "img"]
            .map(String::from)
            .to_vec();
        let b = bullets(&["Option & Unwrap", "18.4 result"]);
        let named = |d: &str| bullet_for(&b, &dirs, d).map(|b| b.name.as_str());
        assert_eq!(named("18-3-Option-unwrap"), Some("Option & Unwrap"));
        assert_eq!(named("18-4-Result"), Some("18.4 result"));
        // An exact name wins over a loose one, and a loose name shared by two folders
        // names neither.
        let dirs: Vec<String> = ["1-Intro", "2-Intro", "3-Setup"].map(String::from).to_vec();
        let b = bullets(&["intro", "3-Setup", "SETUP"]);
        let named = |d: &str| bullet_for(&b, &dirs, d).map(|b| b.name.as_str());
        assert_eq!(named("1-Intro"), None);
        assert_eq!(named("2-Intro"), None);
        assert_eq!(named("3-Setup"), Some("3-Setup"));
    }

    #[test]
    fn a_page_titled_error_handling_is_not_a_crawler_error_document() {
        assert!(is_error_document("# Error\n\nFailed to fetch https://x\n"));
        assert!(is_error_document("\n# Error: 404 Not Found\n"));
        assert!(is_error_document("# Error"));
        assert!(is_error_document("\u{feff}# Error\n"));
        assert!(is_error_document("#  Error: timeout\n"));
        assert!(!is_error_document("## Error\n"));
        assert!(!is_error_document("# Error handling\n\nRust groups errors"));
        assert!(!is_error_document("# Errors\n"));
        assert!(!is_error_document("Intro\n# Error\n"));
    }

    #[test]
    fn has_bullet_matches_parse_readme_on_tricky_texts() {
        let cases = [
            "- **a** — x",
            "  * **b**: y\r\n",
            "```\n- **in fence** — x\n```\n",
            "```\n- **in fence**\n```\n- **after** — x\n",
            "~~~\n```\n- **a**\n",
            "text - **not at start** x",
            "-  **two spaces**",
            "- ****",
            "- ** **",
            "- ***x**",
            "x\r- **a**",
            "\u{a0}- **nbsp** x",
            "**bold** only",
            "  ````\n- **a**\n  ````\n",
            "# Title\n\n- **name**\n",
            "- **open without close",
            "",
        ];
        for c in cases {
            assert_eq!(has_bullet(c), has_bullet_by_lines(c), "{c:?}");
            assert_eq!(has_bullet(c), !parse_readme(c).bullets.is_empty(), "{c:?}");
        }
    }

    #[test]
    fn has_bullet_matches_parse_readme_on_generated_texts() {
        let pieces = [
            "- ", "* ", "**", "```", "~~~", "\n", " ", "x", "\r", "\t", "-", "*", "é", "`",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut found = 0;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..(state % 24) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                s.push_str(pieces[(state % pieces.len() as u64) as usize]);
            }
            state = state.wrapping_add(0x2545_f491);
            assert_eq!(has_bullet(&s), has_bullet_by_lines(&s), "{s:?}");
            found += usize::from(has_bullet(&s));
        }
        // Both outcomes are exercised.
        assert!(found > 100 && found < 19_900, "{found}");
    }
}
