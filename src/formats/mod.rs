//! Loading: detect the format of each folder and run its loader into a
//! [`crate::model::Corpus`] (docs/DESIGN.md §2, docs/FORMATS.md).
//!
//! Owns: what to open ([`RootSpec`], [`LoadOptions`]; root labels [`root_specs`],
//! [`discover_roots`]), [`load_root`], the format table ([`registry`]: the only list of
//! formats, each row a detection rule and a loader), the loader machinery shared by every
//! format ([`walk`]: the loading context, the folder walker, file reading, duplicate
//! flags), one module per format, markdown sectioning ([`sections`]) and skill scopes
//! ([`scopes`]).
//!
//! Shapes recognised today: a single file; a skill folder (`SKILL.md`); a lazytools bundle;
//! any other folder, walked folder by folder (a folder of skills such as
//! `~/.claude/skills` or `plugins/*/skills/*`, a plain doc tree, or a mix). In plain folders
//! only doc files (`.md .mdx .markdown .txt`) are listed and folders without any are left
//! out; inside a skill every file is listed (non-doc files as assets, never read).
//!
//! Adding a format takes one new loader file and one table row: the recipe is in
//! docs/ARCHITECTURE.md "A new format".
//!
//! The opened root and every sub-folder go through the same code path
//! (`Loader::load_folder`); the root's `format` is the format its folder loaded as.
//! Duplicate flags (`walk::dupes`) and `Corpus::finalize` run after every loader, so a
//! loader only sets its own flags, spans, `seg`s and `bytes` of files (size on disk); work
//! that needs final ids is queued with `Loader::after_ids`.

use std::path::Path;

use crate::model::{Corpus, Format, Node, NodeKind, Warning};
use walk::loader::{Loader, file_format};

pub mod agents;
pub mod catalog;
pub mod doc_tree;
pub mod git_adr;
pub(crate) mod heading_lines;
pub mod lazytools;
pub mod llms_txt;
pub mod registry;
mod roots;
pub mod scopes;
pub mod sections;
pub mod seekers;
pub mod skill;
mod spec;
pub mod walk;

pub use roots::{discover_roots, discover_roots_for, root_specs};
pub use scopes::{
    Precedence, mark_cross_root_aliases, namespace_root, namespace_skills, resolve_scopes,
    resolve_scopes_for, resolve_scopes_with,
};
pub use skill::{frontmatter_meta, frontmatter_warnings};
pub use spec::{LoadOptions, RootSpec};

/// Load one root. Never fails: problems become warnings on nodes.
///
/// The result holds one `Root` node (title = `spec.label`, path `""`) and is finalized
/// (ids and container sizes assigned). Below it:
/// - a file PATH: that file (`<label>/<file name>`), through the same special-file rules as
///   a folder walk (an llms.txt-family file, a `Skill_Seekers` config JSON or a `catalog.json`
///   keeps its structure), else read as a markdown or text document;
/// - a skill folder: one `Skill` node with path `""`, whose id is `<label>/<skill name>`
///   (its files are `<label>/SKILL.md`, `<label>/references/x.md`, …);
/// - a lazytools bundle: with a `SKILL.md`, one `Skill` node (format `lazytools`, path `""`,
///   see [`lazytools::load_bundle`]) holding what `lazytools::load` adds; without, those
///   nodes directly (the root is the bundle node);
/// - any other folder: its contents (Dir, Skill and File nodes).
///
/// The root's `format` is the format its folder loaded as: the row's format for a folder a
/// [`registry`] row takes ([`Format::Skill`], [`Format::Seekers`], [`Format::Lazytools`],
/// [`Format::GitAdr`], [`Format::DocTree`]); for a plain folder [`Format::SkillsDir`] when
/// skills were found below it, else [`Format::Markdown`]; for a file PATH the file's format
/// (`llms_txt`, `catalog`, `seekers`, `markdown` or `text`). `progress(files_loaded_so_far)`
/// is called every 32 files and once at the end.
pub fn load_root(spec: &RootSpec, opts: &LoadOptions, progress: &mut dyn FnMut(usize)) -> Corpus {
    let real = std::fs::canonicalize(&spec.path).unwrap_or_else(|_| spec.path.clone());
    let root_dir = if real.is_dir() {
        real.clone()
    } else {
        real.parent().map_or(real.clone(), Path::to_path_buf)
    };
    let mut ld = Loader::new(opts, progress, root_dir, registry::FORMATS);
    let root = ld.corpus.add_root(Node::new(
        NodeKind::Root,
        Format::Markdown,
        spec.label.as_str(),
        "",
    ));
    match std::fs::metadata(&real) {
        Err(e) => {
            let msg = format!("cannot open {}: {e}", spec.path.display());
            ld.corpus.node_mut(root).warnings.push(Warning::new(msg));
        }
        Ok(m) if m.is_dir() => {
            ld.visit(&real);
            let fmt = ld.load_folder(root, &real, "", false);
            ld.corpus.node_mut(root).format = fmt;
        }
        Ok(m) if !m.is_file() => {
            // A fifo would block the load, a device never end (docs/DESIGN.md §9).
            let msg = format!(
                "cannot open {}: not a regular file or folder (a fifo, socket or device)",
                spec.path.display()
            );
            ld.corpus.node_mut(root).warnings.push(Warning::new(msg));
        }
        Ok(_) => {
            ld.visit(&real);
            let name = real
                .file_name()
                .map_or_else(|| spec.label.clone(), |n| n.to_string_lossy().into_owned());
            let fmt = match file_format(&name) {
                Format::Markdown => Format::Markdown,
                _ => Format::Text,
            };
            // The same special-file rules as a folder walk (llms family, Skill_Seekers
            // config, catalog.json), so a file opened alone keeps its structure.
            if ld.load_special_file(root, &name, &real, &name) {
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
    let after_ids = ld.take_after_ids();
    let skipped = ld.skipped;
    let mut corpus = ld.corpus;
    walk::dupes::mark_duplicates(&mut corpus, root);
    if corpus.node(root).children.is_empty() && corpus.node(root).warnings.is_empty() {
        let msg = format!("no documents found in {}", spec.path.display());
        corpus.node_mut(root).warnings.push(Warning::new(msg));
    }
    walk::skipped::report_skipped(&mut corpus, root, skipped);
    progress(files);
    corpus.finalize();
    for (node, job) in after_ids {
        job(&mut corpus, node);
    }
    corpus.shrink_to_fit();
    corpus
}
