//! `Skill_Seekers` output skills (docs/FORMATS.md §1): the `references/` tree of a generated skill
//! (category files with their pages, the `index.md` category catalog, the llms variants as
//! one group, the v3 `references/documentation/` duplicate tree) and the config JSON files
//! (`configs/*.json`, unified `sources[]` and legacy flat shapes).
//!
//! The skill folder itself (`SKILL.md`, `scripts/`, `assets/`) is the generic skill
//! loader's; this module takes over only `references/` (see [`load`]).

use std::path::Path;

use serde_json::{Map, Value as Json};

use super::llms_txt::{self, add_text_file};
use super::sections;
use super::walk::loader::{Loader, file_format, file_size, join_rel};
use super::walk::natural_cmp;
use super::walk::probe::FolderProbe;
use super::walk::skill_file::SKILL_FILE_NAMES;
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, Warning};
use crate::util::human::plural;

/// Whether `dir` is a `Skill_Seekers` output skill (docs/FORMATS.md §1 quick map): it holds
/// `SKILL.md` (or `skill.md`) and a `references/` folder with `index.md`, an `llms*.md`
/// file, or the v3 `documentation/index.md`. Only a listing and `stat`s, no reads.
pub fn detect(dir: &Path) -> bool {
    detect_dir(dir, &mut FolderProbe::default())
}

/// [`detect`] as a format-table folder rule: the skill file is looked up in the folder's
/// listing, `references/` is `stat`ed only when there is one.
pub(crate) fn detect_dir(dir: &Path, probe: &mut FolderProbe) -> bool {
    let skill = SKILL_FILE_NAMES.iter().any(|n| probe.is_file(dir, n));
    let refs = dir.join("references");
    skill
        && refs.is_dir()
        && (refs.join("index.md").is_file()
            || refs.join("documentation").join("index.md").is_file()
            || ["llms.md", "llms-full.md", "llms-small.md"]
                .iter()
                .any(|n| refs.join(n).is_file()))
}

/// Load a `Skill_Seekers` skill found by the walk: the skill loader for everything but
/// `references/`, which [`load`] reads (categories, index, variants) and whose llms links
/// are resolved once ids exist ([`resolve_links`]). Returns the skill node (format
/// `seekers`).
pub(crate) fn load_dir(ld: &mut Loader<'_>, parent: NodeId, real: &Path, rel: &str) -> NodeId {
    ld.skip_folder(real.join("references"));
    let skill = super::skill::load_dir(ld, parent, real, rel);
    ld.corpus.node_mut(skill).format = Format::Seekers;
    if let Some(r) = load(&mut ld.corpus, skill, real, rel) {
        ld.after_ids(r, resolve_links_of);
    }
    skill
}

/// [`resolve_links`] as a job run once ids exist.
fn resolve_links_of(corpus: &mut Corpus, refs: NodeId) {
    resolve_links(corpus, refs);
}

/// The three llms variants (docs/FORMATS.md §1.2): file name → variant name, in display order.
pub const VARIANTS: [(&str, &str); 3] = [
    ("llms-small.md", "quick"),
    ("llms.md", "standard"),
    ("llms-full.md", "complete"),
];

/// One category listed by a `references/index.md`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// Category title (`### Api` → `Api`, `- [#engineering](…)` → `#engineering`).
    pub title: String,
    /// File name relative to the index's folder (`api.md`).
    pub file: String,
    /// `**Pages:** N`, when given.
    pub pages: Option<u64>,
    /// The parenthesised note of the list shape (`2 sections, 5 messages, Sections 1-2`).
    pub note: Option<String>,
    /// 1-based line of the entry's title.
    pub line: u32,
}

/// Parse a `Skill_Seekers` `index.md` (docs/FORMATS.md §1.3): `### <Title>`, a `**File:**` line naming the page file, and
/// `**Pages:** N` blocks, and the list shape of other generators
/// (`- [title](file.md) (note)`). Lines in fenced code are ignored.
pub fn parse_index(text: &str) -> Vec<IndexEntry> {
    let mut out: Vec<IndexEntry> = Vec::new();
    let mut pending: Option<(String, u32)> = None;
    let mut fence = false;
    for (i, line) in text.lines().enumerate() {
        let lno = i as u32 + 1;
        let t = line.trim();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        if let Some(title) = t.strip_prefix("### ") {
            pending = Some((title.trim().to_string(), lno));
        } else if let Some(rest) = t.strip_prefix("**File:**") {
            let file = rest.trim().trim_matches('`').trim().to_string();
            if let Some((title, line)) = pending.take() {
                out.push(IndexEntry {
                    title,
                    file,
                    pages: None,
                    note: None,
                    line,
                });
            }
        } else if let Some(rest) = t.strip_prefix("**Pages:**") {
            if let Some(last) = out.last_mut().filter(|e| e.pages.is_none()) {
                last.pages = rest.trim().parse().ok();
            }
        } else if let Some((_, title, url, rest)) = llms_txt::parse_link_line(line) {
            let local = !url.contains("://") && url.ends_with(".md");
            if local {
                let note = rest.trim();
                let note = note
                    .strip_prefix('(')
                    .and_then(|n| n.strip_suffix(')'))
                    .unwrap_or(note)
                    .trim();
                out.push(IndexEntry {
                    title: title.to_string(),
                    file: url.clone(),
                    pages: None,
                    note: (!note.is_empty()).then(|| note.to_string()),
                    line: lno,
                });
            }
        }
    }
    out
}

/// `**Pages:** N` near the top of a category file (within its first 20 lines).
pub fn category_pages(text: &str) -> Option<u64> {
    text.lines().take(20).find_map(|l| {
        l.trim()
            .strip_prefix("**Pages:**")
            .and_then(|r| r.trim().parse().ok())
    })
}

/// Load the `references/` folder of the `Skill_Seekers` skill in `dir` (whose relative path
/// is `rel`, `""` for a root) as a `Dir` node under `skill` (the skill's node), and return
/// that node (`None` when `dir/references` is not a folder).
///
/// The dispatcher should call it for a folder where [`detect`] is true, AFTER loading the
/// rest of the skill folder with the generic skill loader **excluding** `references/`.
///
/// Inside every folder of the tree: `index.md` first (its categories become the summaries
/// of the category files: `"<Title> — N pages"`, `meta.category`, `meta.pages`; listed
/// files that are missing become warnings on `index.md`), then the other markdown files in
/// natural order, sectioned by headings (format `seekers`; each page section `## title` with
/// a `**URL:** <url>` line gets `meta.url`), then a `Group` titled `variants` holding the
/// llms files (quick = `llms-small.md`, standard = `llms.md`, complete = `llms-full.md`,
/// loaded by [`llms_txt::load_file`]; `meta.variant` on each), then sub-folders. Other files
/// are listed with their size (flag `asset`). A `documentation/` sub-folder of the top
/// `references/` whose markdown files are byte-identical copies of top-level ones is the v3
/// per-source mirror: it and every node below it get [`Flag::Duplicate`] (so it is counted
/// once, in the flat files) and the folder a warning saying so.
pub fn load(corpus: &mut Corpus, skill: NodeId, dir: &Path, rel: &str) -> Option<NodeId> {
    let refs = dir.join("references");
    if !refs.is_dir() {
        return None;
    }
    let refs_rel = join_rel(rel, "references");
    let node = load_folder(corpus, skill, &refs, &refs_rel, 0);
    mark_documentation_mirror(corpus, node);
    Some(node)
}

/// Sorted listing of a folder: (name, `is_dir`). Unreadable folders give an empty list.
fn list(dir: &Path) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = super::walk::inputs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    let ft = e.file_type().ok()?;
                    if ft.is_symlink() {
                        return None;
                    }
                    Some((e.file_name().to_string_lossy().into_owned(), ft.is_dir()))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    v
}

/// Load folder `dir` (relative path `rel`, `depth` folders below `references/`) as a
/// `Dir` node under `parent`: its `index.md`, markdown files and assets, the index's
/// categories applied to them, the llms variants, then its sub-folders.
fn load_folder(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str, depth: usize) -> NodeId {
    let title = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let node = corpus.add_child(
        parent,
        Node::new(NodeKind::Dir, Format::Seekers, title, rel),
    );
    if depth > 32 {
        corpus.node_mut(node).warnings.push(Warning::at(
            "folder nesting deeper than 32; not read",
            rel,
            None,
        ));
        return node;
    }
    let folder = Folder { node, dir, rel };
    let entries = list(dir);
    let (index_entries, index_node) = folder.load_index(corpus, &entries);
    let categories = folder.load_files(corpus, &entries);
    folder.apply_index(corpus, &index_entries, &categories, index_node);
    folder.load_variants(corpus, &entries, !categories.is_empty());
    for (name, is_dir) in &entries {
        if *is_dir {
            load_folder(
                corpus,
                node,
                &dir.join(name),
                &join_rel(rel, name),
                depth + 1,
            );
        }
    }
    node
}

/// An llms variant file (`llms*.md`), loaded in the `variants` group.
fn is_variant(n: &str) -> bool {
    n.to_ascii_lowercase().starts_with("llms") && file_format(n) == Format::Markdown
}

/// A folder of the tree being loaded: its node, path on disk, and relative path.
struct Folder<'a> {
    node: NodeId,
    dir: &'a Path,
    rel: &'a str,
}

impl Folder<'_> {
    /// `index.md` first, when the folder has one: sectioned, summarized by its category
    /// count; its entries and its node.
    fn load_index(
        &self,
        corpus: &mut Corpus,
        entries: &[(String, bool)],
    ) -> (Vec<IndexEntry>, Option<NodeId>) {
        if !entries.iter().any(|(n, d)| !d && n == "index.md") {
            return (Vec::new(), None);
        }
        let mut index_entries = Vec::new();
        let r = join_rel(self.rel, "index.md");
        let (f, src) = add_text_file(
            corpus,
            self.node,
            &self.dir.join("index.md"),
            &r,
            Format::Seekers,
        );
        if let Some(src) = src {
            let text = corpus.sources[src.0 as usize].read_text();
            index_entries = parse_index(&text);
            section_file(corpus, f, src);
            corpus.node_mut(f).summary = match index_entries.len() {
                1 => "category index: 1 category".to_string(),
                k => format!("category index: {k} categories"),
            };
        }
        (index_entries, Some(f))
    }

    /// The folder's other files: markdown files sectioned (a category file's page count
    /// and page URLs read), any other file listed as an asset with its size; the markdown
    /// files as (name, node).
    fn load_files(&self, corpus: &mut Corpus, entries: &[(String, bool)]) -> Vec<(String, NodeId)> {
        let mut categories: Vec<(String, NodeId)> = Vec::new();
        for (name, is_dir) in entries {
            if *is_dir || name == "index.md" || is_variant(name) {
                continue;
            }
            let r = join_rel(self.rel, name);
            let path = self.dir.join(name);
            if file_format(name) == Format::Markdown {
                let (f, src) = add_text_file(corpus, self.node, &path, &r, Format::Seekers);
                if let Some(src) = src {
                    section_file(corpus, f, src);
                    let text = &corpus.sources[src.0 as usize].text();
                    if let Some(p) = category_pages(text) {
                        corpus.node_mut(f).meta.insert("pages".into(), p.into());
                        corpus.node_mut(f).summary = plural(p as usize, "page");
                    }
                    mark_page_urls(corpus, f);
                }
                categories.push((name.clone(), f));
            } else {
                let mut a = Node::new(NodeKind::File, Format::Asset, name.clone(), r);
                a.flags.set(Flag::Asset);
                a.bytes = file_size(&path);
                corpus.add_child(self.node, a);
            }
        }
        categories
    }

    /// The index's entries applied to the category files they name (category, pages,
    /// summary); an entry naming a file missing on disk is a warning on `index.md`.
    fn apply_index(
        &self,
        corpus: &mut Corpus,
        index_entries: &[IndexEntry],
        categories: &[(String, NodeId)],
        index_node: Option<NodeId>,
    ) {
        for e in index_entries {
            match categories.iter().find(|(n, _)| *n == e.file) {
                Some((_, f)) => {
                    let n = corpus.node_mut(*f);
                    n.meta.insert("category".into(), e.title.clone().into());
                    if let Some(p) = e.pages {
                        n.meta.insert("pages".into(), p.into());
                    }
                    n.summary = match (e.pages, &e.note) {
                        (Some(p), _) => format!("{} — {}", e.title, plural(p as usize, "page")),
                        (None, Some(note)) => format!("{} — {note}", e.title),
                        (None, None) => e.title.clone(),
                    };
                }
                // Sub-folder index pages, llms variants (in the `variants` group) and other
                // files of the folder are listed too: only a file missing on disk is a problem.
                None if listed_file_exists(self.dir, &e.file) => {}
                None => {
                    if let Some(ix) = index_node {
                        let msg = format!("index lists {}, which is not in this folder", e.file);
                        let r = join_rel(self.rel, "index.md");
                        corpus
                            .node_mut(ix)
                            .warnings
                            .push(Warning::at(msg, r, Some(e.line)));
                    }
                }
            }
        }
    }

    /// The llms variants as one group (quick, standard, complete, then others); beside
    /// category files (`has_categories`) they are flagged as variants, neither summed nor
    /// searched.
    fn load_variants(&self, corpus: &mut Corpus, entries: &[(String, bool)], has_categories: bool) {
        let mut variants: Vec<&String> = entries
            .iter()
            .filter(|(n, d)| !d && is_variant(n))
            .map(|(n, _)| n)
            .collect();
        if variants.is_empty() {
            return;
        }
        let rank = |n: &str| {
            VARIANTS
                .iter()
                .position(|(f, _)| *f == n)
                .unwrap_or(VARIANTS.len())
        };
        variants.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| natural_cmp(a, b)));
        let mut g = Node::new(NodeKind::Group, Format::Seekers, "variants", "");
        g.summary =
            "llms.txt variants: quick (llms-small), standard (llms), complete (llms-full)".into();
        let gid = corpus.add_child(self.node, g);
        if has_categories {
            corpus.node_mut(gid).flags.set(Flag::Variant);
            corpus.node_mut(gid).summary.push_str(
                " — alternative renderings of the category references: sizes shown, not summed, not searched",
            );
        }
        for name in variants {
            let f =
                llms_txt::load_file(corpus, gid, &self.dir.join(name), &join_rel(self.rel, name));
            let n = corpus.node_mut(f);
            if has_categories {
                // The category files hold the same pages: counting or indexing the variants
                // too would double every size and every hit (docs/DESIGN.md §2 sizes).
                n.flags.set(Flag::Variant);
            }
            if let Some((_, v)) = VARIANTS.iter().find(|(f, _)| *f == name.as_str()) {
                n.meta.insert("variant".into(), (*v).into());
                n.summary = format!("{v} variant, {} bytes", n.bytes);
            }
        }
    }
}

/// Whether `file` (an index entry, relative to folder `dir`) names a file on disk inside
/// `dir`: only plain relative components (no `..`, no absolute path) are followed.
fn listed_file_exists(dir: &Path, file: &str) -> bool {
    let p = Path::new(file);
    !file.is_empty()
        && p.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        })
        && dir.join(p).is_file()
}

/// Section a markdown file (whole text) with [`sections::add_sections`] and set the file's
/// own text to end where its first section starts.
fn section_file(corpus: &mut Corpus, file: NodeId, src: crate::model::SourceId) {
    let len = corpus.sources[src.0 as usize].text_len();
    let top = sections::add_sections(corpus, file, src, 0, len, Format::Seekers);
    let first = top
        .first()
        .and_then(|t| corpus.node(*t).span)
        .map_or(len, |s| s.start);
    if let Some(span) = &mut corpus.node_mut(file).span {
        span.own_end = first.min(span.end);
    }
}

/// Give every section of `file` whose own text has a `**URL:** <url>` line `meta.url`
/// (docs/FORMATS.md §1.3 page shape).
fn mark_page_urls(corpus: &mut Corpus, file: NodeId) {
    for n in corpus.preorder(file).into_iter().skip(1) {
        if corpus.node(n).kind != NodeKind::Section {
            continue;
        }
        let url = corpus
            .own_text(n)
            .lines()
            .take(6)
            .find_map(|l| {
                l.trim()
                    .strip_prefix("**URL:**")
                    .map(|u| u.trim().to_string())
            })
            .filter(|u| !u.is_empty());
        if let Some(u) = url {
            corpus.node_mut(n).meta.insert("url".into(), u.into());
        }
    }
}

/// Flag the v3 mirror `references/documentation/` (see [`load`]).
fn mark_documentation_mirror(corpus: &mut Corpus, refs_node: NodeId) {
    let Some(doc) = corpus.node(refs_node).children.iter().copied().find(|c| {
        corpus.node(*c).kind == NodeKind::Dir && corpus.node(*c).title == "documentation"
    }) else {
        return;
    };
    let top: Vec<NodeId> = corpus
        .node(refs_node)
        .children
        .iter()
        .flat_map(|c| {
            let n = corpus.node(*c);
            if n.kind == NodeKind::Group {
                n.children.to_vec()
            } else {
                vec![*c]
            }
        })
        .filter(|c| corpus.node(*c).kind == NodeKind::File && corpus.node(*c).span.is_some())
        .collect();
    let copies = corpus
        .preorder(doc)
        .into_iter()
        .filter(|n| {
            let node = corpus.node(*n);
            node.kind == NodeKind::File
                && node.title != "index.md"
                && top.iter().any(|t| {
                    let other = corpus.node(*t);
                    other.title == node.title
                        && other.bytes == node.bytes
                        && corpus.text(*t) == corpus.text(*n)
                })
        })
        .count();
    if copies == 0 {
        return;
    }
    for n in corpus.preorder(doc) {
        corpus.node_mut(n).flags.set(Flag::Duplicate);
    }
    let rel = corpus.node(doc).path.to_string();
    // Paths relative to the opened root, like every other warning (never the absolute one).
    let msg = format!(
        "per-source mirror of {} ({copies} files byte-identical to references/*.md); counted once",
        corpus.node(refs_node).path
    );
    corpus
        .node_mut(doc)
        .warnings
        .push(Warning::at(msg, rel, None));
}

/// Shape of a `Skill_Seekers` config (docs/FORMATS.md §1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigShape {
    /// v2.11+ `sources[]`.
    Unified,
    /// Pre-2.11 flat: documentation keys at top level.
    Legacy,
}

/// One source of a config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceSummary {
    /// `type` (`documentation`, `github`, `pdf`, `local`, …); `documentation` for the
    /// legacy shape.
    pub kind: String,
    /// What it reads: `base_url`, `repo`, `path`, `url` or `llms_txt_url`, first present.
    pub target: Option<String>,
    /// `categories` keys, sorted by name (`serde_json` maps do not keep file order).
    pub categories: Vec<String>,
    /// `llms_txt_url`, if set.
    pub llms_txt_url: Option<String>,
    /// `max_pages`, if set.
    pub max_pages: Option<u64>,
}

/// What a config JSON asks `Skill_Seekers` to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigSummary {
    /// `name`.
    pub name: String,
    /// `description`.
    pub description: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// Which shape the file has.
    pub shape: ConfigShape,
    /// The sources (one for the legacy shape).
    pub sources: Vec<SourceSummary>,
    /// Every category key of every source, deduplicated, in source order (each source's
    /// keys sorted by name).
    pub categories: Vec<String>,
    /// Every URL in the config (`base_url`, `start_urls`, `llms_txt_url`, `url` of all
    /// sources, and a top-level `base_url`), deduplicated, in order; strings without `://`
    /// (such as an elision note in `start_urls`) are left out.
    pub urls: Vec<String>,
}

impl ConfigSummary {
    /// One line for the tree: `unified config: 2 sources (documentation https://react.dev/,
    /// github facebook/react); 5 categories`.
    pub fn one_line(&self) -> String {
        let shape = match self.shape {
            ConfigShape::Unified => "unified",
            ConfigShape::Legacy => "legacy",
        };
        let srcs: Vec<String> = self
            .sources
            .iter()
            .map(|s| match &s.target {
                Some(t) => format!("{} {t}", s.kind),
                None => s.kind.clone(),
            })
            .collect();
        format!(
            "{shape} config: {} ({}); {}",
            plural(self.sources.len(), "source"),
            srcs.join(", "),
            plural(self.categories.len(), "category").replace("categorys", "categories")
        )
    }

    /// The summary as JSON (for `meta` and `--json`): `{name, description, version, shape,
    /// sources: [{type, target, categories, llms_txt_url, max_pages}], categories, urls}`.
    pub fn to_json(&self) -> Json {
        let sources: Vec<Json> = self
            .sources
            .iter()
            .map(|s| {
                serde_json::json!({
                    "type": s.kind, "target": s.target, "categories": s.categories,
                    "llms_txt_url": s.llms_txt_url, "max_pages": s.max_pages,
                })
            })
            .collect();
        serde_json::json!({
            "name": self.name,
            "description": self.description,
            "version": self.version,
            "shape": match self.shape { ConfigShape::Unified => "unified", ConfigShape::Legacy => "legacy" },
            "sources": sources,
            "categories": self.categories,
            "urls": self.urls,
        })
    }
}

fn str_of(m: &Map<String, Json>, k: &str) -> Option<String> {
    m.get(k).and_then(Json::as_str).map(str::to_string)
}

fn source_summary(m: &Map<String, Json>, kind: String, urls: &mut Vec<String>) -> SourceSummary {
    let categories: Vec<String> = m
        .get("categories")
        .and_then(Json::as_object)
        .map(|c| c.keys().cloned().collect())
        .unwrap_or_default();
    let mut push = |u: Option<String>| {
        if let Some(u) = u.filter(|u| u.contains("://"))
            && !urls.contains(&u)
        {
            urls.push(u);
        }
    };
    push(str_of(m, "base_url"));
    if let Some(list) = m.get("start_urls").and_then(Json::as_array) {
        for u in list {
            push(u.as_str().map(str::to_string));
        }
    }
    push(str_of(m, "llms_txt_url"));
    push(str_of(m, "url"));
    SourceSummary {
        kind,
        target: ["base_url", "repo", "path", "url", "llms_txt_url"]
            .iter()
            .find_map(|k| str_of(m, k)),
        categories,
        llms_txt_url: str_of(m, "llms_txt_url"),
        max_pages: m.get("max_pages").and_then(Json::as_u64),
    }
}

/// Summarise a `Skill_Seekers` config (docs/FORMATS.md §1.5), accepting both the unified `sources[]`
/// shape and the legacy flat shape. Errors (as one-line messages): invalid JSON (with its
/// line), a top level that is not an object, a missing/non-string `name`, `sources` that is
/// not an array. A source that is not an object is skipped.
pub fn config_summary(json_text: &str) -> Result<ConfigSummary, String> {
    let v: Json = serde_json::from_str(json_text)
        .map_err(|e| format!("invalid JSON at line {}: {e}", e.line()))?;
    let m = v.as_object().ok_or("config is not a JSON object")?;
    let name = str_of(m, "name").ok_or("config has no string \"name\"")?;
    let mut urls = Vec::new();
    let (shape, sources) = match m.get("sources") {
        Some(Json::Array(list)) => {
            let s: Vec<SourceSummary> = list
                .iter()
                .filter_map(Json::as_object)
                .map(|s| {
                    let kind = str_of(s, "type").unwrap_or_else(|| "unknown".into());
                    source_summary(s, kind, &mut urls)
                })
                .collect();
            (ConfigShape::Unified, s)
        }
        Some(_) => return Err("\"sources\" is not an array".into()),
        None => (
            ConfigShape::Legacy,
            vec![source_summary(m, "documentation".into(), &mut urls)],
        ),
    };
    if shape == ConfigShape::Unified
        && let Some(u) = str_of(m, "base_url")
        && !urls.contains(&u)
    {
        urls.push(u);
    }
    let mut categories: Vec<String> = Vec::new();
    for c in sources.iter().flat_map(|s| s.categories.iter()) {
        if !categories.contains(c) {
            categories.push(c.clone());
        }
    }
    Ok(ConfigSummary {
        name,
        description: str_of(m, "description"),
        version: m
            .get("version")
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)),
        shape,
        sources,
        categories,
        urls,
    })
}

/// Whether a `.json` file looks like a `Skill_Seekers` config: an object with a string
/// `name` and either `sources` or one of `base_url`, `llms_txt_url`, `start_urls`,
/// `selectors`. Reads the text it is given only.
pub fn is_config(path: &Path, text: &str) -> bool {
    if !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        return false;
    }
    match serde_json::from_str::<Json>(text) {
        Ok(Json::Object(m)) => {
            m.get("name").is_some_and(Json::is_string)
                && [
                    "sources",
                    "base_url",
                    "llms_txt_url",
                    "start_urls",
                    "selectors",
                ]
                .iter()
                .any(|k| m.contains_key(*k))
        }
        _ => false,
    }
}

/// Whether a file met by the walk (`name` lower-case) is a `Skill_Seekers` config: a `.json`
/// file of at most 4 MiB that [`is_config`] accepts (`catalog.json` is the catalog's row,
/// which comes first).
pub(crate) fn detect_walk_file(name: &str, path: &Path) -> bool {
    name.ends_with(".json")
        && file_size(path) <= 4 << 20
        && is_config(
            path,
            &super::walk::inputs::read_to_string(path).unwrap_or_default(),
        )
}

/// [`load_config`] as a format-table loader.
pub(crate) fn load_walk_file(
    ld: &mut Loader<'_>,
    parent: NodeId,
    path: &Path,
    rel: &str,
) -> NodeId {
    load_config(&mut ld.corpus, parent, path, rel)
}

/// Load a config JSON file `abs` as a `File` node (format `seekers`) under `parent`:
/// summary = [`ConfigSummary::one_line`], `detail` = the description, `meta.config` =
/// [`ConfigSummary::to_json`], the text viewable as is. An unreadable or invalid config
/// becomes a warning on the node. Returns the node.
pub fn load_config(corpus: &mut Corpus, parent: NodeId, abs: &Path, rel: &str) -> NodeId {
    let (f, src) = add_text_file(corpus, parent, abs, rel, Format::Seekers);
    let Some(src) = src else { return f };
    let text = corpus.sources[src.0 as usize].read_text();
    match config_summary(&text) {
        Ok(s) => {
            let n = corpus.node_mut(f);
            n.summary = s.one_line();
            n.detail = s.description.as_deref().map(Into::into);
            n.meta.insert("config".into(), s.to_json());
        }
        Err(e) => corpus.node_mut(f).warnings.push(Warning::at(e, rel, None)),
    }
    f
}

/// The path part of a URL for matching pages to llms links: scheme and host removed, then a
/// trailing `.md`, `/index`/`/index.html` and `/` removed, lower-cased
/// (`https://hono.dev/docs/api/routing` and `http://127.0.0.1:8765/docs/api/routing.md`
/// both give `/docs/api/routing`).
pub fn url_key(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = if url.contains("://") {
        rest.find('/').map_or("/", |i| &rest[i..])
    } else {
        rest
    };
    let path = path.split(['#', '?']).next().unwrap_or("");
    let mut p = path.trim_end_matches(".md").to_string();
    for suffix in ["/index.html", "/index"] {
        if let Some(s) = p.strip_suffix(suffix) {
            p = s.to_string();
        }
    }
    let p = p.trim_end_matches(".html").trim_end_matches('/');
    if p.is_empty() {
        "/".into()
    } else {
        p.to_lowercase()
    }
}

/// Resolve the `Link` nodes below `under` (an llms.txt `llms.md` of a `Skill_Seekers` skill)
/// to the page sections below `under` that carry `meta.url` (docs/FORMATS.md §1.3): a link whose
/// [`url_key`] equals a page's gets `meta.node` = that section's string id (docs/DESIGN.md §2
/// "link url and resolved node id"). Call AFTER [`Corpus::finalize`] (ids are needed);
/// duplicate copies are never targets. Returns how many links were resolved.
pub fn resolve_links(corpus: &mut Corpus, under: NodeId) -> usize {
    let mut pages: std::collections::HashMap<String, String> = Default::default();
    let mut links: Vec<(NodeId, String)> = Vec::new();
    for n in corpus.preorder(under) {
        let node = corpus.node(n);
        let Some(url) = node.meta.get("url").and_then(Json::as_str) else {
            continue;
        };
        match node.kind {
            NodeKind::Link => links.push((n, url_key(url))),
            NodeKind::Section if !corpus.is_copy(n) => {
                pages.entry(url_key(url)).or_insert_with(|| corpus.id(n));
            }
            _ => {}
        }
    }
    let mut resolved = 0;
    for (n, key) in links {
        if let Some(id) = pages.get(&key) {
            corpus
                .node_mut(n)
                .meta
                .insert("node".into(), id.clone().into());
            resolved += 1;
        }
    }
    resolved
}
