//! The folder walker shared by every folder-shaped format: builds Dir/File nodes, reads doc
//! files, follows the symlink rules of DESIGN.md §2 and dispatches each sub-folder on
//! [`super::detect::detect`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::detect::{self, file_format};
use super::read::{ReadOutcome, read_file, read_file_prefetched};
use super::section_pool::SectionPool;
use super::walk::{Entry, EntryKind, IgnoreStack, list_dir};
use super::{LoadOptions, markdown, skill};
use crate::frontmatter::{self, Frontmatter};
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, SourceId, TextSpan, Warning};

/// How the files of a folder are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A doc tree or a folder of skills: only doc files (`.md .mdx .markdown .txt`).
    Plain,
    /// Inside a skill: every file; non-doc files as assets.
    Skill,
    /// `scripts/` or `assets/` of a skill: every file as an asset, nothing parsed.
    Asset,
}

/// Call the progress callback every this many files.
const PROGRESS_EVERY: usize = 32;

/// Most threads used to section markdown files.
pub(crate) const SECTION_THREADS: usize = 4;

/// Below this many markdown bytes in a root, sectioning stays on the calling thread.
const PARALLEL_SECTION_BYTES: usize = 256 * 1024;

/// Loading state of one root.
pub(crate) struct Loader<'a> {
    pub corpus: Corpus,
    opts: &'a LoadOptions,
    progress: &'a mut dyn FnMut(usize),
    files: usize,
    /// Real (canonical) path of the opened root folder.
    root_real: PathBuf,
    /// Real paths already loaded (folders and files): each is visited once.
    visited: HashSet<PathBuf>,
    /// Frontmatter of SKILL.md files, by file node, for the skill loader to pick up.
    pub skill_fms: HashMap<NodeId, Frontmatter>,
    /// `.gitignore` rules in force for the folder being listed.
    ignores: IgnoreStack,
    /// Markdown files read but not yet sectioned: (file node, source, body start, end).
    pending: Vec<(NodeId, SourceId, usize, usize)>,
    /// Files already read whole during detection (a folder's `README.md`), by real path,
    /// until the walk reaches them.
    prefetched: HashMap<PathBuf, Vec<u8>>,
    /// Bytes to section in `pending`.
    pending_bytes: usize,
    /// Background sectioning, started once `pending` is large enough; it holds the texts
    /// of every `pending` file until [`Loader::finish_sections`].
    pool: Option<SectionPool>,
    /// Real paths of folders another loader reads itself (a Skill_Seekers `references/`).
    skip: HashSet<PathBuf>,
    /// Skill_Seekers `references/` nodes, whose llms links are resolved after ids exist.
    pub seekers_refs: Vec<NodeId>,
}

impl<'a> Loader<'a> {
    pub fn new(opts: &'a LoadOptions, progress: &'a mut dyn FnMut(usize), root_real: PathBuf) -> Self {
        Self {
            corpus: Corpus::new(),
            opts,
            progress,
            files: 0,
            ignores: IgnoreStack::for_root(&root_real),
            root_real,
            visited: HashSet::new(),
            skill_fms: HashMap::new(),
            pending: Vec::new(),
            pending_bytes: 0,
            prefetched: HashMap::new(),
            pool: None,
            skip: HashSet::new(),
            seekers_refs: Vec::new(),
        }
    }

    /// Number of files loaded so far.
    pub fn files(&self) -> usize {
        self.files
    }

    fn count_file(&mut self) {
        self.files += 1;
        if self.files % PROGRESS_EVERY == 0 {
            (self.progress)(self.files);
        }
    }

    /// Queue markdown file `file` (source `src`, body `from..to`) for sectioning. Once the
    /// queued bytes reach [`PARALLEL_SECTION_BYTES`] (and there are 2+ cores), the texts go
    /// to a [`SectionPool`] that scans them while the walk goes on.
    fn queue_sections(&mut self, file: NodeId, src: SourceId, from: usize, to: usize) {
        self.pending.push((file, src, from, to));
        self.pending_bytes += to.saturating_sub(from);
        if self.pool.is_none() && self.pending_bytes >= PARALLEL_SECTION_BYTES && self.pending.len() >= 2 {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(SECTION_THREADS);
            if cores >= 2 {
                // The walking thread scans too once the walk is done.
                self.pool = SectionPool::start(cores - 1);
            }
        }
        if let Some(pool) = &mut self.pool {
            while pool.len() < self.pending.len() {
                let (_, src, from, to) = self.pending[pool.len()];
                let text = self.corpus.sources.get_mut(src.0 as usize).map(|s| std::mem::take(&mut s.text));
                pool.push(text.unwrap_or_default(), from, to);
            }
        }
    }

    /// Section every markdown file read so far (DESIGN.md §2 "Sectioning"): scanned on the
    /// [`SectionPool`] when it was started (this thread helps), else here; nodes are then
    /// added in file order, so the result equals sectioning each file as it is read.
    pub fn finish_sections(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        let corpus = &mut self.corpus;
        match self.pool.take() {
            Some(pool) => pool.finish(|ix, text, plan| {
                let (file, src, _, _) = pending[ix];
                if let Some(s) = corpus.sources.get_mut(src.0 as usize) {
                    s.text = text;
                }
                markdown::apply_sections(corpus, file, src, plan, Format::Markdown);
            }),
            None => {
                for (file, src, from, to) in pending {
                    let text = corpus.sources.get(src.0 as usize).map_or("", |s| s.text.as_str());
                    let plan = markdown::plan_sections(text, from, to);
                    markdown::apply_sections(corpus, file, src, plan, Format::Markdown);
                }
            }
        }
    }

    /// Mark `real` visited; false if it was already.
    pub fn visit(&mut self, real: &Path) -> bool {
        self.visited.insert(real.to_path_buf())
    }

    /// Load folder `real` (already visited) as children of `parent` by its detected format.
    /// `in_skill` folders keep listing every file. Returns the node made for the folder, if
    /// any (`None` when a plain folder held no documents and was pruned).
    pub fn load_folder(&mut self, parent: NodeId, real: &Path, rel: &str, in_skill: bool) -> Option<NodeId> {
        let name = folder_name(real, rel);
        let mut readme = detect::Readme::default();
        match detect::detect_with(real, &mut readme) {
            Format::Lazytools => {
                Some(super::lazytools::load_bundle(&mut self.corpus, parent, real, rel, &name))
            }
            Format::Skill => Some(skill::load_skill(self, parent, real, rel)),
            Format::Seekers => Some(self.load_seekers(parent, real, rel)),
            Format::GitAdr => Some(super::git_adr::load(&mut self.corpus, parent, real, rel)),
            Format::DocTree => Some(super::doc_tree::load(&mut self.corpus, parent, real, rel)),
            // Plain folders: a walk, each sub-folder detected again.
            _ => {
                let mode = if in_skill { Mode::Skill } else { Mode::Plain };
                let fmt = if in_skill { Format::Skill } else { Format::Markdown };
                let dir = self.corpus.add_child(parent, Node::new(NodeKind::Dir, fmt, name, rel));
                // The walk reads README.md like any file: hand it the bytes detection read.
                let readme_path = readme.take().map(|b| {
                    let p = real.join("README.md");
                    self.prefetched.insert(p.clone(), b);
                    p
                });
                self.load_contents(dir, real, rel, mode);
                if let Some(p) = readme_path {
                    self.prefetched.remove(&p);
                }
                self.finish_dir(parent, dir, mode)
            }
        }
    }

    /// A Skill_Seekers skill (FORMATS §1): the skill loader for everything but
    /// `references/`, which [`super::seekers::load`] reads (categories, index, variants).
    pub fn load_seekers(&mut self, parent: NodeId, real: &Path, rel: &str) -> NodeId {
        let refs = real.join("references");
        self.skip.insert(refs.clone());
        self.visit(&refs);
        let skill = skill::load_skill(self, parent, real, rel);
        self.corpus.node_mut(skill).format = Format::Seekers;
        if let Some(r) = super::seekers::load(&mut self.corpus, skill, real, rel) {
            self.seekers_refs.push(r);
        }
        skill
    }

    /// After loading a folder: prune it when a plain folder holds nothing, and mark a
    /// plain folder holding skills as [`Format::SkillsDir`].
    fn finish_dir(&mut self, parent: NodeId, dir: NodeId, mode: Mode) -> Option<NodeId> {
        if mode != Mode::Plain {
            return Some(dir);
        }
        if self.corpus.node(dir).children.is_empty()
            && self.corpus.node(dir).warnings.is_empty()
            && self.corpus.nodes.len() == dir.ix() + 1
        {
            self.corpus.node_mut(parent).children.pop();
            self.corpus.nodes.truncate(dir.ix());
            return None;
        }
        let holds_skills = self.corpus.node(dir).children.iter().any(|c| {
            let n = self.corpus.node(*c);
            n.kind == NodeKind::Skill || n.format == Format::SkillsDir
        });
        if holds_skills {
            self.corpus.node_mut(dir).format = Format::SkillsDir;
        }
        Some(dir)
    }

    /// Load the entries of folder `real` (relative path `rel`) as children of `parent`.
    pub fn load_contents(&mut self, parent: NodeId, real: &Path, rel: &str, mode: Mode) {
        let (mut entries, pushed) = match list_dir(real, &mut self.ignores) {
            Ok(e) => e,
            Err(e) => {
                let shown = if rel.is_empty() { "." } else { rel };
                self.corpus.node_mut(parent).warnings.push(Warning::at(
                    format!("cannot read folder: {e}"),
                    shown,
                    None,
                ));
                return;
            }
        };
        if mode == Mode::Skill {
            // SKILL.md first, then everything else in natural order (FORMATS §3.1).
            entries.sort_by_key(|e| {
                !(e.kind == EntryKind::File && (e.name == "SKILL.md" || e.name == "skill.md"))
            });
        }
        for e in entries {
            let child_rel = join_rel(rel, &e.name);
            if e.kind == EntryKind::Dir && self.skip.contains(&real.join(&e.name)) {
                continue;
            }
            match e.kind {
                EntryKind::Dir => self.load_subdir(parent, &real.join(&e.name), &child_rel, &e.name, mode),
                EntryKind::File => {
                    let real_file = real.join(&e.name);
                    if self.visit(&real_file) {
                        self.load_file(parent, &e, &real_file, &child_rel, mode);
                    } else if mode != Mode::Plain || file_format(&e.name) != Format::Asset {
                        // Reached before through a followed symlink: list it, don't count it.
                        let mut n =
                            Node::new(NodeKind::File, file_format(&e.name), e.name.as_str(), child_rel);
                        n.flags.set(Flag::Alias);
                        n.bytes = file_size(&real_file);
                        n.meta.insert("note".into(), "already loaded through a symbolic link".into());
                        self.count_file();
                        self.corpus.add_child(parent, n);
                    }
                }
                EntryKind::Symlink => self.load_link(parent, real, &e, &child_rel, mode),
                EntryKind::Other => {}
            }
        }
        if pushed {
            self.ignores.pop();
        }
    }

    fn load_subdir(&mut self, parent: NodeId, real: &Path, rel: &str, name: &str, mode: Mode) {
        if !self.visit(real) {
            let note = "already loaded through a symbolic link".to_string();
            self.add_link_dir(parent, name, rel, Flag::Alias, note);
            return;
        }
        match mode {
            Mode::Skill if name == "scripts" || name == "assets" => {
                self.load_asset_dir(parent, real, rel, name)
            }
            Mode::Asset => self.load_asset_dir(parent, real, rel, name),
            _ => {
                self.load_folder(parent, real, rel, mode == Mode::Skill);
            }
        }
    }

    fn load_asset_dir(&mut self, parent: NodeId, real: &Path, rel: &str, name: &str) {
        let mut n = Node::new(NodeKind::Dir, Format::Asset, name, rel);
        n.flags.set(Flag::Asset);
        let dir = self.corpus.add_child(parent, n);
        self.load_contents(dir, real, rel, Mode::Asset);
    }

    /// A regular file (or a followed link's target `real`) shown as `e.name` at `rel`.
    fn load_file(&mut self, parent: NodeId, e: &Entry, real: &Path, rel: &str, mode: Mode) {
        let fmt = file_format(&e.name);
        if mode != Mode::Asset && self.load_special_file(parent, &e.name, real, rel, fmt) {
            return;
        }
        match (mode, fmt) {
            (Mode::Asset, _) | (Mode::Skill, Format::Asset) => {
                self.add_asset(parent, &e.name, rel, file_size(real));
            }
            (Mode::Plain, Format::Asset) => {}
            _ => {
                self.add_doc_file(parent, &e.name, real, rel, fmt);
            }
        }
    }

    /// Files with a loader of their own: llms.txt family (FORMATS §7), Skill_Seekers configs
    /// (FORMATS §1.5) and `catalog.json` (FORMATS §1.6). Returns whether it took the file.
    pub fn load_special_file(
        &mut self,
        parent: NodeId,
        name: &str,
        real: &Path,
        rel: &str,
        fmt: Format,
    ) -> bool {
        let lower = name.to_ascii_lowercase();
        if lower.contains("llms") && fmt != Format::Asset {
            let head = read_head(real, 256);
            if super::llms_txt::detect_file(real, &head).is_some() {
                self.count_file();
                super::llms_txt::load_file(&mut self.corpus, parent, real, rel);
                return true;
            }
        }
        if lower.ends_with(".json") && file_size(real) <= 4 << 20 {
            if lower == "catalog.json" {
                self.count_file();
                super::catalog::load(&mut self.corpus, parent, real, rel);
                return true;
            }
            let text = std::fs::read_to_string(real).unwrap_or_default();
            if super::seekers::is_config(real, &text) {
                self.count_file();
                super::seekers::load_config(&mut self.corpus, parent, real, rel);
                return true;
            }
        }
        false
    }

    /// An asset: listed with its size, never read (FORMATS §3.1 `scripts/`, `assets/`).
    pub fn add_asset(&mut self, parent: NodeId, name: &str, rel: &str, size: u64) -> NodeId {
        let mut n = Node::new(NodeKind::File, Format::Asset, name, rel);
        n.flags.set(Flag::Asset);
        if name.ends_with(".placeholder") {
            n.flags.set(Flag::Placeholder);
        }
        n.bytes = size;
        self.count_file();
        self.corpus.add_child(parent, n)
    }

    /// Read and parse a doc file (`fmt` Markdown or Text) as a File node under `parent`.
    pub fn add_doc_file(
        &mut self,
        parent: NodeId,
        name: &str,
        real: &Path,
        rel: &str,
        fmt: Format,
    ) -> NodeId {
        let mut n = Node::new(NodeKind::File, fmt, name, rel);
        self.count_file();
        let outcome = match self.prefetched.remove(real) {
            Some(bytes) => read_file_prefetched(real, bytes),
            None => read_file(real),
        };
        match outcome {
            ReadOutcome::Error(e) => {
                n.bytes = file_size(real);
                n.warnings.push(Warning::at(format!("cannot read file: {e}"), rel, None));
                self.corpus.add_child(parent, n)
            }
            ReadOutcome::Binary { size } => {
                n.bytes = size;
                n.flags.set(Flag::Binary);
                n.warnings.push(Warning::at("binary content (NUL byte); not parsed", rel, None));
                self.corpus.add_child(parent, n)
            }
            ReadOutcome::Text { source, truncated } => {
                n.bytes = source.size;
                if truncated {
                    n.flags.set(Flag::Truncated);
                    n.warnings.push(Warning::at(
                        format!(
                            "larger than {} MiB; only the start was read",
                            super::read::MAX_READ_BYTES >> 20
                        ),
                        rel,
                        None,
                    ));
                }
                if source.invalid_utf8 {
                    n.flags.set(Flag::InvalidUtf8);
                    n.warnings.push(Warning::at("invalid UTF-8 bytes (shown as U+FFFD)", rel, None));
                }
                let len = source.text.len();
                let fm = if fmt == Format::Markdown { parse_frontmatter(&source.text) } else { None };
                let src = self.corpus.add_source(source);
                let own_end = match (&fm, fmt) {
                    (Some(fm), _) => fm.block.end.min(len),
                    (None, Format::Markdown) => 0,
                    _ => len,
                };
                n.span = Some(TextSpan { source: src, start: 0, own_end, end: len });
                if let Some(fm) = &fm {
                    n.meta = skill::frontmatter_meta(fm);
                    n.warnings.extend(skill::frontmatter_warnings(fm, rel));
                }
                let file = self.corpus.add_child(parent, n);
                if fmt == Format::Markdown {
                    self.queue_sections(file, src, own_end, len);
                }
                if let Some(fm) = fm
                    && (name == "SKILL.md" || name == "skill.md")
                {
                    self.skill_fms.insert(file, fm);
                }
                file
            }
        }
    }

    /// A symbolic link entry `e` inside folder `dir_real` (DESIGN.md §2 "Symlinks").
    fn load_link(&mut self, parent: NodeId, dir_real: &Path, e: &Entry, rel: &str, mode: Mode) {
        let shown_target = std::fs::read_link(&e.path).map(|p| p.display().to_string()).unwrap_or_default();
        let Ok(target) = std::fs::canonicalize(&e.path) else {
            if mode != Mode::Plain || file_format(&e.name) != Format::Asset {
                let id = self.add_asset(parent, &e.name, rel, 0);
                self.corpus.node_mut(id).warnings.push(Warning::at(
                    format!("broken symbolic link to {shown_target}"),
                    rel,
                    None,
                ));
            }
            return;
        };
        let inside = target.starts_with(&self.root_real);
        let target_rel =
            target.strip_prefix(&self.root_real).map(|p| p.to_string_lossy().replace('\\', "/")).ok();
        if target.is_dir() {
            if self.visited.contains(&target) || dir_real.starts_with(&target) {
                let note = if dir_real.starts_with(&target) {
                    format!("symlink loop: points to its ancestor {}", shown_rel(&target_rel, &target))
                } else {
                    format!("link to {}, already loaded", shown_rel(&target_rel, &target))
                };
                self.add_link_dir(parent, &e.name, rel, Flag::Alias, note);
                return;
            }
            let follow_skill = mode == Mode::Plain && super::skill::skill_md_in(&target).is_some();
            if follow_skill || (!inside && self.opts.follow_links) {
                self.visit(&target);
                // The target lives elsewhere: its own repository's ignore rules apply.
                let saved = std::mem::replace(&mut self.ignores, IgnoreStack::for_root(&target));
                self.load_folder(parent, &target, rel, mode == Mode::Skill);
                self.ignores = saved;
            } else if inside {
                let note = format!("link to {}", shown_rel(&target_rel, &target));
                self.add_link_dir(parent, &e.name, rel, Flag::Alias, note);
            } else {
                let id = self.add_link_dir(parent, &e.name, rel, Flag::ExternalLink, String::new());
                self.corpus.node_mut(id).warnings.push(external_warning(&target, rel));
            }
            return;
        }
        // A link to a file.
        let fmt = file_format(&e.name);
        if mode == Mode::Plain && fmt == Format::Asset {
            return;
        }
        if inside || self.visited.contains(&target) {
            let kind_fmt = if mode == Mode::Asset { Format::Asset } else { fmt };
            let mut n = Node::new(NodeKind::File, kind_fmt, e.name.as_str(), rel);
            n.flags.set(Flag::Alias);
            n.bytes = file_size(&target);
            n.meta.insert("alias_of".into(), shown_rel(&target_rel, &target).into());
            self.count_file();
            self.corpus.add_child(parent, n);
        } else if self.opts.follow_links && target.is_file() {
            self.visit(&target);
            self.load_file(parent, e, &target, rel, mode);
        } else {
            // Not read and not counted: its size is only noted in `meta`.
            let id = self.add_asset(parent, &e.name, rel, 0);
            let n = self.corpus.node_mut(id);
            n.format = if mode == Mode::Asset { Format::Asset } else { fmt };
            n.flags.clear(Flag::Asset);
            n.flags.set(Flag::ExternalLink);
            n.meta.insert("link_target".into(), target.display().to_string().into());
            n.meta.insert("target_bytes".into(), file_size(&target).into());
            n.warnings.push(external_warning(&target, rel));
        }
    }

    fn add_link_dir(&mut self, parent: NodeId, name: &str, rel: &str, flag: Flag, note: String) -> NodeId {
        let mut n = Node::new(NodeKind::Dir, Format::Markdown, name, rel);
        n.flags.set(flag);
        if !note.is_empty() {
            n.meta.insert("note".into(), note.into());
        }
        self.corpus.add_child(parent, n)
    }
}

fn external_warning(target: &Path, rel: &str) -> Warning {
    Warning::at(
        format!(
            "symbolic link leaves the opened root (to {}); not read without --follow-links",
            target.display()
        ),
        rel,
        None,
    )
}

fn shown_rel(rel: &Option<String>, abs: &Path) -> String {
    match rel {
        Some(r) if r.is_empty() => ".".to_string(),
        Some(r) => r.clone(),
        None => abs.display().to_string(),
    }
}

/// The first `n` bytes of a file as (lossy) text; empty when unreadable.
pub(crate) fn read_head(path: &Path, n: usize) -> String {
    use std::io::Read as _;
    let mut buf = Vec::with_capacity(n);
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(n as u64).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// Parse frontmatter only when the text starts with `---` (after an optional BOM).
fn parse_frontmatter(text: &str) -> Option<Frontmatter> {
    if text.trim_start_matches('\u{feff}').starts_with("---") { frontmatter::parse(text) } else { None }
}

/// `rel/name`, or `name` at the top.
pub(crate) fn join_rel(rel: &str, name: &str) -> String {
    if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") }
}

/// Display name of a folder: last component of `rel`, else of the real path.
pub(crate) fn folder_name(real: &Path, rel: &str) -> String {
    match rel.rsplit('/').next() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => {
            real.file_name().map_or_else(|| real.display().to_string(), |n| n.to_string_lossy().into_owned())
        }
    }
}

/// Size on disk following links, 0 when unknown.
pub(crate) fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}
