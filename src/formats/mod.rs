//! Loading: detect the format of each folder and run its loader into a
//! [`crate::model::Corpus`] (DESIGN.md §2, FORMATS.md).
//!
//! Owns: root labels ([`root_specs`], [`discover_roots`]), [`load_root`], per-folder
//! detection ([`detect::detect`]), the shared folder walker (`load`), the Agent Skills loader
//! (`skill`), duplicate detection (`dupes`), markdown sectioning ([`markdown`]).
//!
//! Shapes recognised today: a single file; a skill folder (`SKILL.md`); a lazytools bundle;
//! any other folder, walked folder by folder (a folder of skills such as
//! `~/.claude/skills` or `plugins/*/skills/*`, a plain doc tree, or a mix). In plain folders
//! only doc files (`.md .mdx .markdown .txt`) are listed and folders without any are left
//! out; inside a skill every file is listed (non-doc files as assets, never read).
//!
//! **Adding a format loader** (seekers, catalog, llms_txt, doc_tree, git_adr):
//! 1. write `formats/<name>.rs` with
//!    `pub fn load(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str)` that adds the
//!    folder's contents as children of `parent` (`rel` = the folder's root-relative path,
//!    `""` at the root; node paths are `rel`-prefixed) and reports problems as warnings;
//! 2. declare it below (`pub mod <name>;`);
//! 3. add its rule to [`detect::detect`] (more specific rules first: a Skill_Seekers output
//!    or a git-adr skill also holds a `SKILL.md`, so its rule goes above the skill rule);
//! 4. add a match arm in `load::Loader::load_folder` (a sub-folder: create the folder's
//!    `Dir` node with the new [`Format`], then call `load` with it as `parent`, as the
//!    lazytools arm does) and in [`load_root`] (the opened folder: call `load` with the root
//!    as `parent`, and set the root's `format`).
//!
//! Duplicate flags (`dupes`) and `Corpus::finalize` run after every loader, so a loader
//! only sets its own flags, spans, `seg`s and `bytes` of files (size on disk).

use std::path::{Path, PathBuf};

use crate::model::{Corpus, Format, Node, NodeKind, Warning};

pub mod detect;
mod dupes;
pub mod lazytools;
pub mod llms_txt;
mod load;
pub mod markdown;
pub mod read;
mod roots;
pub mod scopes;
mod section_pool;
pub mod skill;
pub mod walk;

pub use roots::{discover_roots, root_specs};
pub use scopes::{mark_cross_root_aliases, namespace_root, namespace_skills, resolve_scopes};
pub use skill::{frontmatter_meta, frontmatter_warnings};

/// Options for loading.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Follow symlinks that escape the opened roots (`--follow-links`).
    pub follow_links: bool,
    /// Same-named skills across scopes: first wins (default last wins).
    pub first_wins: bool,
    /// Prefix skill names with their scope (`project:pdf`), context-chef's namespace option.
    pub namespace: bool,
}

/// One root to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootSpec {
    /// Folder or file.
    pub path: PathBuf,
    /// Label: scope name for discovered roots, else the folder name (deduplicated).
    pub label: String,
}

/// Load one root. Never fails: problems become warnings on nodes.
///
/// The result holds one `Root` node (title = `spec.label`, path `""`) and is finalized
/// (ids and container sizes assigned). Below it:
/// - a file PATH: that file (`<label>/<file name>`), through the same special-file rules as
///   a folder walk (an llms.txt-family file, a Skill_Seekers config JSON or a `catalog.json`
///   keeps its structure), else read as a markdown or text document;
/// - a skill folder: one `Skill` node with path `""`, whose id is `<label>/<skill name>`
///   (its files are `<label>/SKILL.md`, `<label>/references/x.md`, …);
/// - a lazytools bundle: with a `SKILL.md`, one `Skill` node (format `lazytools`, path `""`,
///   see [`lazytools::load_bundle`]) holding what `lazytools::load` adds; without, those
///   nodes directly (the root is the bundle node);
/// - any other folder: its contents (Dir, Skill and File nodes).
///
/// The root's `format` is [`Format::Skill`] for a skill folder, [`Format::SkillsDir`] when
/// skills were found below it, [`Format::Lazytools`] for a bundle, the file's format for a
/// file PATH (`llms_txt`, `catalog`, `seekers`, `markdown` or `text`), the detected format
/// of a Skill_Seekers, git-adr or doc-tree folder, else [`Format::Markdown`]. `progress(files_loaded_so_far)` is called every 32 files and once
/// at the end.
pub fn load_root(spec: &RootSpec, opts: &LoadOptions, progress: &mut dyn FnMut(usize)) -> Corpus {
    let real = std::fs::canonicalize(&spec.path).unwrap_or_else(|_| spec.path.clone());
    let root_dir =
        if real.is_dir() { real.clone() } else { real.parent().map_or(real.clone(), Path::to_path_buf) };
    let mut ld = load::Loader::new(opts, progress, root_dir);
    let root = ld.corpus.add_root(Node::new(NodeKind::Root, Format::Markdown, spec.label.as_str(), ""));
    match std::fs::metadata(&real) {
        Err(e) => {
            let msg = format!("cannot open {}: {e}", spec.path.display());
            ld.corpus.node_mut(root).warnings.push(Warning::new(msg));
        }
        Ok(m) if m.is_dir() => {
            ld.visit(&real);
            let fmt = detect::detect(&real);
            match fmt {
                // A bundle with a SKILL.md is a skill: a `Skill` node with path "" below
                // the root, as for a skill folder; otherwise the root is the bundle node.
                Format::Lazytools if real.join("SKILL.md").is_file() => {
                    let folder = load::folder_name(&real, "");
                    lazytools::load_bundle(&mut ld.corpus, root, &real, "", &folder);
                }
                Format::Lazytools => lazytools::load(&mut ld.corpus, root, &real, ""),
                Format::Skill => {
                    skill::load_skill(&mut ld, root, &real, "");
                }
                Format::Seekers => {
                    ld.load_seekers(root, &real, "");
                }
                Format::GitAdr => git_adr::load_into(&mut ld.corpus, root, &real, ""),
                Format::DocTree => doc_tree::load_into(&mut ld.corpus, root, &real, ""),
                _ => ld.load_contents(root, &real, "", load::Mode::Plain),
            }
            let holds_skills = ld.corpus.node(root).children.iter().any(|c| {
                let n = ld.corpus.node(*c);
                n.kind == NodeKind::Skill || n.format == Format::SkillsDir
            });
            ld.corpus.node_mut(root).format = match fmt {
                Format::Lazytools | Format::Skill | Format::Seekers | Format::GitAdr | Format::DocTree => fmt,
                _ if holds_skills => Format::SkillsDir,
                _ => Format::Markdown,
            };
        }
        Ok(_) => {
            ld.visit(&real);
            let name =
                real.file_name().map_or_else(|| spec.label.clone(), |n| n.to_string_lossy().into_owned());
            let fmt = match detect::file_format(&name) {
                Format::Markdown => Format::Markdown,
                _ => Format::Text,
            };
            // The same special-file rules as a folder walk (llms family, Skill_Seekers
            // config, catalog.json), so a file opened alone keeps its structure.
            if ld.load_special_file(root, &name, &real, &name, detect::file_format(&name)) {
                let first = ld.corpus.node(root).children.first().copied();
                ld.corpus.node_mut(root).format = first.map_or(fmt, |c| ld.corpus.node(c).format);
            } else {
                ld.add_doc_file(root, &name, &real, &name, fmt);
                ld.corpus.node_mut(root).format = fmt;
            }
        }
    }
    ld.finish_sections();
    let files = ld.files();
    let seekers_refs = std::mem::take(&mut ld.seekers_refs);
    let mut corpus = ld.corpus;
    dupes::mark_duplicates(&mut corpus, root);
    if corpus.node(root).children.is_empty() && corpus.node(root).warnings.is_empty() {
        let msg = format!("no documents found in {}", spec.path.display());
        corpus.node_mut(root).warnings.push(Warning::new(msg));
    }
    progress(files);
    corpus.finalize();
    for refs in seekers_refs {
        seekers::resolve_links(&mut corpus, refs);
    }
    corpus
}
pub mod catalog;
pub mod doc_tree;
pub mod git_adr;
pub mod seekers;
