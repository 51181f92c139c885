//! The folder walker shared by every folder-shaped format: lists a folder's entries and
//! builds Dir/File nodes, reads doc files, lists assets, and hands each sub-folder and each
//! special file to the format row that takes it (through [`Loader`]'s table, so nothing
//! here imports a loader). Symbolic links are in [`super::symlinks`].

use std::path::Path;

use super::list::{Entry, EntryKind, list_dir};
use super::loader::{Loader, Mode, file_format, file_size, folder_name, join_rel};
use super::probe::FolderProbe;
use super::read::{ReadOutcome, read_file, read_file_prefetched};
use super::skill_file::{SKILL_FILE_NAMES, frontmatter_meta, frontmatter_warnings};
use crate::frontmatter::{self, Frontmatter};
use crate::model::{Flag, Format, Node, NodeId, NodeKind, TextSpan, Warning};

impl Loader<'_> {
    /// Load folder `real` (already visited) found at `rel` below `parent`: by the first
    /// format row that takes it, else as a plain folder (a `Dir` node walked entry by entry,
    /// each sub-folder detected again). `in_skill` folders keep listing every file. At the
    /// opened root (`rel` `""`) `parent` is the `Root` node, which a plain folder fills
    /// instead of adding a `Dir`. Returns the format the folder counts as: the row's format;
    /// for a plain folder [`Format::SkillsDir`] when skills were found below it, else
    /// [`Format::Skill`] inside a skill and [`Format::Markdown`] outside one (also when an
    /// empty plain folder was pruned).
    pub fn load_folder(
        &mut self,
        parent: NodeId,
        real: &Path,
        rel: &str,
        in_skill: bool,
    ) -> Format {
        let mut probe = FolderProbe::default();
        if let Some(row) = self.folder_row(real, &mut probe) {
            (row.load)(self, parent, real, rel);
            return row.format;
        }
        // Plain folders: a walk, each sub-folder detected again.
        let at_root = rel.is_empty();
        let mode = if in_skill { Mode::Skill } else { Mode::Plain };
        let fmt = if in_skill {
            Format::Skill
        } else {
            Format::Markdown
        };
        let dir = if at_root {
            parent
        } else {
            let name = folder_name(real, rel);
            self.corpus
                .add_child(parent, Node::new(NodeKind::Dir, fmt, name, rel))
        };
        // The walk reads README.md like any file: hand it the bytes detection read.
        let readme_path = probe.take_readme().map(|b| {
            let p = real.join("README.md");
            self.prefetched.insert(p.clone(), b);
            p
        });
        self.load_contents(dir, real, rel, mode);
        if let Some(p) = readme_path {
            self.prefetched.remove(&p);
        }
        match self.finish_dir(parent, dir, mode, at_root) {
            Some(d) if self.corpus.node(d).format == Format::SkillsDir => Format::SkillsDir,
            _ => fmt,
        }
    }

    /// After loading a folder: prune it when a plain folder holds nothing (never the opened
    /// root, `at_root`), and mark a plain folder holding skills as [`Format::SkillsDir`].
    fn finish_dir(
        &mut self,
        parent: NodeId,
        dir: NodeId,
        mode: Mode,
        at_root: bool,
    ) -> Option<NodeId> {
        if mode != Mode::Plain {
            return Some(dir);
        }
        if !at_root
            && self.corpus.node(dir).children.is_empty()
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
        let listing = match list_dir(real, &mut self.ignores) {
            Ok(l) => l,
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
        let pushed = listing.pushed;
        self.skipped.gitignored += listing.ignored;
        self.skipped.git_dirs += usize::from(listing.had_git);
        let mut entries = listing.entries;
        if mode == Mode::Skill {
            // SKILL.md first, then everything else in natural order (docs/FORMATS.md §3.1).
            entries.sort_by_key(|e| {
                !(e.kind == EntryKind::File && SKILL_FILE_NAMES.contains(&e.name.as_str()))
            });
        }
        for e in entries {
            let child_rel = join_rel(rel, &e.name);
            if e.kind == EntryKind::Dir && self.skip.contains(&real.join(&e.name)) {
                continue;
            }
            match e.kind {
                EntryKind::Dir => {
                    self.load_subdir(parent, &real.join(&e.name), &child_rel, &e.name, mode);
                }
                EntryKind::File => {
                    let real_file = real.join(&e.name);
                    if self.visit(&real_file) {
                        self.load_file(parent, &e, &real_file, &child_rel, mode);
                    } else {
                        // Reached before through a followed symlink: list it, don't count it.
                        let mut n = Node::new(
                            NodeKind::File,
                            file_format(&e.name),
                            e.name.as_str(),
                            child_rel,
                        );
                        n.flags.set(Flag::Alias);
                        n.bytes = file_size(&real_file);
                        n.meta.insert(
                            "note".into(),
                            "already loaded through a symbolic link".into(),
                        );
                        self.count_file();
                        self.corpus.add_child(parent, n);
                    }
                }
                EntryKind::Symlink => self.load_link(parent, real, &e, &child_rel, mode),
                EntryKind::Other => self.skipped.special += 1,
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
                self.load_asset_dir(parent, real, rel, name);
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
    pub(super) fn load_file(
        &mut self,
        parent: NodeId,
        e: &Entry,
        real: &Path,
        rel: &str,
        mode: Mode,
    ) {
        let fmt = file_format(&e.name);
        if mode != Mode::Asset && self.load_special_file(parent, &e.name, real, rel) {
            return;
        }
        match (mode, fmt) {
            (Mode::Asset, _) | (Mode::Skill, Format::Asset) => {
                self.add_asset(parent, &e.name, rel, file_size(real));
            }
            (Mode::Plain, Format::Asset) => {
                self.add_unclaimed_file(parent, &e.name, real, rel);
            }
            _ => {
                self.add_doc_file(parent, &e.name, real, rel, fmt);
            }
        }
    }

    /// A file with a loader of its own (the first file row of the format table that takes
    /// it: an llms.txt-family file, a `catalog.json`, a `Skill_Seekers` config), counted as
    /// one file. `name` is its listed name, `real` its real path. Returns whether a row
    /// took the file.
    pub fn load_special_file(
        &mut self,
        parent: NodeId,
        name: &str,
        real: &Path,
        rel: &str,
    ) -> bool {
        let Some(row) = self.file_row(name, real) else {
            return false;
        };
        self.count_file();
        (row.load)(self, parent, real, rel);
        true
    }

    /// An asset: listed with its size, never read (docs/FORMATS.md §3.1 `scripts/`, `assets/`).
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
                n.warnings
                    .push(Warning::at(format!("cannot read file: {e}"), rel, None));
                self.corpus.add_child(parent, n)
            }
            ReadOutcome::Binary { size } => {
                n.bytes = size;
                n.flags.set(Flag::Binary);
                n.warnings.push(Warning::at(
                    "binary content (NUL byte); not parsed",
                    rel,
                    None,
                ));
                self.corpus.add_child(parent, n)
            }
            ReadOutcome::Text { source, truncated } => {
                n.bytes = source.size;
                note_partial_text(&mut n, truncated, source.invalid_utf8, rel);
                let len = source.text_len();
                let (fm, toml) = front_matter_of(source.text(), fmt);
                let src = self.corpus.add_source(source);
                let own_end = own_text_end(fm.as_ref(), toml.as_ref(), fmt, len);
                n.span = Some(TextSpan {
                    source: src,
                    start: 0,
                    own_end,
                    end: len,
                });
                apply_front_matter(&mut n, fm.as_ref(), toml, rel);
                let file = self.corpus.add_child(parent, n);
                if fmt == Format::Markdown {
                    self.queue_sections(file, src, own_end, len);
                }
                if let Some(fm) = fm
                    && SKILL_FILE_NAMES.contains(&name)
                {
                    self.skill_fms.insert(file, fm);
                }
                file
            }
        }
    }
}

/// Parse frontmatter only when the text starts with `---` (after an optional BOM).
fn parse_frontmatter(text: &str) -> Option<Frontmatter> {
    if text.trim_start_matches('\u{feff}').starts_with("---") {
        frontmatter::parse(text)
    } else {
        None
    }
}

/// Flag and warn on `n` (at `rel`) a text read only in part (`truncated`) or holding
/// invalid UTF-8 bytes.
fn note_partial_text(n: &mut Node, truncated: bool, invalid_utf8: bool, rel: &str) {
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
    if invalid_utf8 {
        n.flags.set(Flag::InvalidUtf8);
        n.warnings.push(Warning::at(
            "invalid UTF-8 bytes (shown as U+FFFD)",
            rel,
            None,
        ));
    }
}

/// The front matter of a doc file's `text` in format `fmt`: YAML (`---`) or, when there is
/// none, Hugo's `+++` TOML, which is metadata like YAML, never body text. Only Markdown
/// files have front matter.
fn front_matter_of(
    text: &str,
    fmt: Format,
) -> (Option<Frontmatter>, Option<frontmatter::TomlFrontmatter>) {
    let fm = if fmt == Format::Markdown {
        parse_frontmatter(text)
    } else {
        None
    };
    let toml = if fmt == Format::Markdown && fm.is_none() {
        frontmatter::parse_toml(text)
    } else {
        None
    };
    (fm, toml)
}

/// Byte offset where a doc file's own text ends (its text is `len` bytes): after its front
/// matter; 0 for Markdown without one (its sections hold the body); `len` for plain text.
fn own_text_end(
    fm: Option<&Frontmatter>,
    toml: Option<&frontmatter::TomlFrontmatter>,
    fmt: Format,
    len: usize,
) -> usize {
    match (fm, toml, fmt) {
        (Some(fm), _, _) => fm.block.end.min(len),
        (None, Some(t), _) => t.block.end.min(len),
        (None, None, Format::Markdown) => 0,
        _ => len,
    }
}

/// Give `n` (at `rel`) the metadata and warnings of its YAML front matter `fm` or TOML
/// front matter `toml`.
fn apply_front_matter(
    n: &mut Node,
    fm: Option<&Frontmatter>,
    toml: Option<frontmatter::TomlFrontmatter>,
    rel: &str,
) {
    if let Some(fm) = fm {
        n.meta = frontmatter_meta(fm).into();
        n.warnings.extend(frontmatter_warnings(fm, rel));
    }
    if let Some(t) = toml {
        n.warnings.extend(
            t.warnings
                .iter()
                .map(|(line, msg)| Warning::at(msg.clone(), rel, Some(*line))),
        );
        n.meta = t.meta.into();
    }
}
