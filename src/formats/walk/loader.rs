//! The loading context every loader works in: [`Loader`] (the corpus being built, the
//! options, the visited set, progress, the pending sectioning and the format table it
//! detects folders and files with), the listing [`Mode`], the shape of a format row
//! ([`FormatRow`], [`LoadFn`]) and the small path and file helpers loaders share.
//!
//! Of the machinery, loaders import this file, [`super::probe`] and the leaf helpers
//! (`list`, `read`, `skill_file`); they never import the walker (`contents`, `symlinks`)
//! or the registry. The walker finds a folder's or a file's format through the rows held in
//! [`Loader`], which `formats::load_root` fills from the registry.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::list::IgnoreStack;
use super::meta_pool::MetaPool;
use super::probe::FolderProbe;
use super::section_pool::{Back, SectionPool};
use super::skipped::Skipped;
use crate::formats::sections;
use crate::formats::spec::LoadOptions;
use crate::frontmatter::Frontmatter;
use crate::model::{Corpus, Format, NodeId, Source, SourceId};

/// How the files of a folder are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A doc tree or a folder of skills: doc files (`.md .mdx .markdown .txt`) parsed,
    /// other files as text nodes or binary leaves (`super::text_file`).
    Plain,
    /// Inside a skill: every file; non-doc files as assets.
    Skill,
    /// `scripts/` or `assets/` of a skill: every file as an asset, nothing parsed.
    Asset,
}

/// The one loader signature: load folder or file `path` (its real path) found at
/// root-relative path `rel` below node `parent`, and return the node made for it.
///
/// `rel` is `""` only for the opened root folder; `parent` is then the `Root` node, and a
/// format whose folder is a plain container (a doc tree, git-adr notes, a lazytools bundle
/// without `SKILL.md`) fills it instead of adding a `Dir` below it, returning `parent`.
/// Paths of the nodes made are `rel`-prefixed ([`join_rel`]). Problems become warnings on
/// the nodes; a loader never fails.
pub(crate) type LoadFn = fn(&mut Loader<'_>, NodeId, &Path, &str) -> NodeId;

/// How a format recognises what it loads.
#[derive(Clone, Copy)]
pub(crate) enum Detect {
    /// A folder (`dir`, a real path): only a few `stat`s and peeks at file heads;
    /// `README.md` is read through the shared [`FolderProbe`], so it is read once per folder, and so is its listing.
    Folder(fn(&Path, &mut FolderProbe) -> bool),
    /// A file met by the walk: `name` is its listed name in ASCII lower case (a symbolic
    /// link's own name), `path` its real path.
    File(fn(&str, &Path) -> bool),
}

/// One row of the format table: the format, how it is detected and its loader.
#[derive(Clone, Copy)]
pub(crate) struct FormatRow {
    /// The format the loaded folder or file counts as (the root's format when it is the
    /// opened folder).
    pub format: Format,
    /// The detection rule.
    pub detect: Detect,
    /// The loader.
    pub load: LoadFn,
}

/// Work that needs the corpus's final ids: `(node, job)`, run once after
/// `Corpus::finalize`.
pub(crate) type AfterIds = (NodeId, fn(&mut Corpus, NodeId));

/// Call the progress callback every this many files.
const PROGRESS_EVERY: usize = 32;

/// Most threads used to section markdown files.
pub(crate) const SECTION_THREADS: usize = 4;

/// Below this many markdown bytes in a root, sectioning stays on the calling thread.
const PARALLEL_SECTION_BYTES: usize = 256 * 1024;

/// Loading state of one root.
pub(crate) struct Loader<'a> {
    /// The corpus being built.
    pub corpus: Corpus,
    pub(super) opts: &'a LoadOptions,
    progress: &'a mut dyn FnMut(usize),
    files: usize,
    /// The format table, in detection order.
    formats: &'static [FormatRow],
    /// Real (canonical) path of the opened root folder.
    pub(super) root_real: PathBuf,
    /// Real paths already loaded (folders and files): each is visited once.
    pub(super) visited: HashSet<PathBuf>,
    /// Frontmatter of SKILL.md files, by file node, for the skill loader to pick up.
    pub skill_fms: HashMap<NodeId, Frontmatter>,
    /// `.gitignore` rules in force for the folder being listed.
    pub(super) ignores: IgnoreStack,
    /// Markdown files read but not yet sectioned: (file node, source, body start, end).
    pending: Vec<(NodeId, SourceId, usize, usize)>,
    /// Files already read whole during detection (a folder's `README.md`), by real path,
    /// until the walk reaches them.
    pub(super) prefetched: HashMap<PathBuf, Vec<u8>>,
    /// Bytes to section in `pending`.
    pending_bytes: usize,
    /// Background sectioning, started once `pending` is large enough; it holds the texts
    /// of every `pending` file until [`Loader::finish_sections`].
    pub(super) pool: Option<SectionPool>,
    /// Background parsing of structured text files' `meta`, started once the
    /// [`SectionPool`] is (a large root); merged by [`Loader::finish_sections`].
    pub(super) meta_pool: Option<MetaPool>,
    /// Real paths of folders another loader reads itself (a `Skill_Seekers` `references/`).
    pub(super) skip: HashSet<PathBuf>,
    /// Jobs to run once ids exist (see [`Loader::after_ids`]).
    after_ids: Vec<AfterIds>,
    /// What the walk left out on purpose, for the root's note.
    pub skipped: Skipped,
}

impl<'a> Loader<'a> {
    /// A loader for the root whose real folder is `root_real`, detecting with `formats`
    /// (first matching row wins).
    pub fn new(
        opts: &'a LoadOptions,
        progress: &'a mut dyn FnMut(usize),
        root_real: PathBuf,
        formats: &'static [FormatRow],
    ) -> Self {
        Self {
            corpus: Corpus::new(),
            opts,
            progress,
            files: 0,
            formats,
            ignores: IgnoreStack::for_root(&root_real),
            root_real,
            visited: HashSet::new(),
            skill_fms: HashMap::new(),
            pending: Vec::new(),
            pending_bytes: 0,
            prefetched: HashMap::new(),
            pool: None,
            meta_pool: None,
            skip: HashSet::new(),
            after_ids: Vec::new(),
            skipped: Skipped::default(),
        }
    }

    /// Number of files loaded so far.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Count one loaded file (the progress callback runs every [`PROGRESS_EVERY`]).
    pub fn count_file(&mut self) {
        self.files += 1;
        if self.files.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(self.files);
        }
    }

    /// The first row whose folder rule takes folder `dir` (see [`folder_row`]).
    pub fn folder_row(&self, dir: &Path, probe: &mut FolderProbe) -> Option<FormatRow> {
        folder_row(self.formats, dir, probe)
    }

    /// The first row whose file rule takes the file listed as `name` (real path `path`);
    /// `None` for an ordinary file.
    pub fn file_row(&self, name: &str, path: &Path) -> Option<FormatRow> {
        let lower = name.to_ascii_lowercase();
        self.formats.iter().copied().find(|row| match row.detect {
            Detect::File(detect) => detect(&lower, path),
            Detect::Folder(_) => false,
        })
    }

    /// Have a folder another loader reads itself (real path `real`) left out of the walk.
    pub fn skip_folder(&mut self, real: PathBuf) {
        self.visit(&real);
        self.skip.insert(real);
    }

    /// Run `job(corpus, node)` once the corpus is finalized (ids assigned), for work such
    /// as resolving links by id.
    pub fn after_ids(&mut self, node: NodeId, job: fn(&mut Corpus, NodeId)) {
        self.after_ids.push((node, job));
    }

    /// The jobs queued by [`Loader::after_ids`], in order.
    pub fn take_after_ids(&mut self) -> Vec<AfterIds> {
        std::mem::take(&mut self.after_ids)
    }

    /// Queue markdown file `file` (source `src`, body `from..to`) for sectioning. Once the
    /// queued bytes reach [`PARALLEL_SECTION_BYTES`] (and there are 2+ cores), the texts go
    /// to a [`SectionPool`] that scans them while the walk goes on.
    pub(super) fn queue_sections(&mut self, file: NodeId, src: SourceId, from: usize, to: usize) {
        self.pending.push((file, src, from, to));
        self.pending_bytes += to.saturating_sub(from);
        if self.pool.is_none()
            && self.pending_bytes >= PARALLEL_SECTION_BYTES
            && self.pending.len() >= 2
        {
            let cores = std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(SECTION_THREADS);
            if cores >= 2 {
                // The walking thread scans too once the walk is done.
                self.pool = SectionPool::start(cores - 1);
            }
        }
        if let Some(pool) = &mut self.pool {
            let spill = super::spill::on();
            while pool.len() < self.pending.len() {
                let (_, src, from, to) = self.pending[pool.len()];
                let source = self.corpus.sources.get_mut(src.0 as usize);
                let has_file = source.as_ref().is_some_and(|s| s.abs_path.is_some());
                let text = source.map(Source::take_text).unwrap_or_default();
                pool.push(text, from, to, spill && has_file);
            }
        }
    }

    /// Section every markdown file read so far (docs/DESIGN.md §2 "Sectioning"): scanned on the
    /// [`SectionPool`] when it was started (this thread helps), else here; nodes are then
    /// added in file order, so the result equals sectioning each file as it is read.
    pub fn finish_sections(&mut self) {
        if let Some(pool) = self.meta_pool.take() {
            let corpus = &mut self.corpus;
            pool.finish(|file, ext, meta| merge_meta(corpus, file, &ext, meta));
        }
        let pending = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        let corpus = &mut self.corpus;
        match self.pool.take() {
            Some(pool) => pool.finish(|ix, back, plan| {
                let (file, src, _, _) = pending[ix];
                if let Some(s) = corpus.sources.get_mut(src.0 as usize) {
                    match back {
                        Back::Text(text) => s.set_text(text),
                        Back::Spilled { len, crc } => s.set_spilled(len, crc),
                    }
                }
                sections::apply_sections(corpus, file, src, plan, Format::Markdown);
            }),
            None => {
                for (file, src, from, to) in pending {
                    let text = corpus.sources.get(src.0 as usize).map_or("", |s| s.text());
                    let plan = sections::plan_sections_deferred(text, from, to);
                    sections::apply_sections(corpus, file, src, plan, Format::Markdown);
                }
            }
        }
    }

    /// Mark `real` visited; false if it was already.
    pub fn visit(&mut self, real: &Path) -> bool {
        self.visited.insert(real.to_path_buf())
    }
}

/// Add `meta` to node `file`'s, keeping the keys it already has; a file whose text did not
/// parse (`unread`, extension `ext`) gets a warning saying why it has no `meta`.
pub(super) fn merge_meta(
    corpus: &mut Corpus,
    file: NodeId,
    ext: &str,
    (meta, unread): super::meta_pool::StructuredMeta,
) {
    let n = corpus.node_mut(file);
    for (k, v) in meta {
        n.meta.entry(k).or_insert(v);
    }
    if let Some(why) = unread {
        let kind = ext.to_ascii_uppercase();
        let path = n.path.to_string();
        n.warnings.push(crate::model::Warning::at(
            format!("{kind} not read, so no meta from it: {why}"),
            path,
            None,
        ));
    }
}

/// The first of `rows` whose folder rule takes folder `dir`; `None` for a plain folder.
pub(crate) fn folder_row(
    rows: &[FormatRow],
    dir: &Path,
    probe: &mut FolderProbe,
) -> Option<FormatRow> {
    rows.iter().copied().find(|row| match row.detect {
        Detect::Folder(detect) => detect(dir, probe),
        Detect::File(_) => false,
    })
}

/// The first `n` bytes of a file as (lossy) text; empty when unreadable or no regular file.
pub(crate) fn read_head(path: &Path, n: usize) -> String {
    use std::io::Read as _;
    let mut buf = Vec::with_capacity(n);
    if let Ok((f, meta)) = super::read::open_regular(path) {
        if let Some(prior) = super::inputs::prior_bytes(path, &meta) {
            buf.extend_from_slice(&prior[..prior.len().min(n)]);
        } else {
            let _ = f.take(n as u64).read_to_end(&mut buf);
            super::inputs::note_read(path);
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// `rel/name`, or `name` at the top.
pub(crate) fn join_rel(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

/// Display name of a folder: last component of `rel`, else of the real path.
pub(crate) fn folder_name(real: &Path, rel: &str) -> String {
    match rel.rsplit('/').next() {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => real.file_name().map_or_else(
            || real.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
    }
}

/// Size on disk following links, 0 when unknown.
pub(crate) fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Extensions parsed as markdown (lower-case, without the dot).
pub const MARKDOWN_EXTS: [&str; 3] = ["md", "mdx", "markdown"];

/// How a file is treated by name: markdown, plain text (`.txt`) or an asset (anything
/// else: listed with its size, never parsed).
pub fn file_format(name: &str) -> Format {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if MARKDOWN_EXTS.contains(&ext.as_str()) {
        Format::Markdown
    } else if ext == "txt" {
        Format::Text
    } else {
        Format::Asset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_formats_by_extension() {
        assert_eq!(file_format("a.MD"), Format::Markdown);
        assert_eq!(file_format("x.mdx"), Format::Markdown);
        assert_eq!(file_format("LICENSE.txt"), Format::Text);
        assert_eq!(file_format("run.py"), Format::Asset);
        assert_eq!(file_format("Makefile"), Format::Asset);
    }
}
