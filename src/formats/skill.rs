//! Agent Skills folders (docs/FORMATS.md §3): a `Skill` node titled by the frontmatter `name`, with
//! the description as summary/detail, every frontmatter key in `meta`, and the folder's
//! files below it (`SKILL.md` first; `scripts/` and `assets/` listed as assets).

use std::path::{Path, PathBuf};

use super::sections::collapse_ws;
use super::walk::loader::{Loader, Mode, folder_name};
use super::walk::probe::FolderProbe;
pub use super::walk::skill_file::{
    SKILL_FILE_NAMES, frontmatter_meta, frontmatter_warnings, skill_md_in,
};
use crate::model::{Corpus, Format, Node, NodeId, NodeKind, Warning};

/// Whether folder `dir` is a skill: it holds a skill file (see [`skill_md_in`]), looked up
/// in the folder's listing.
pub(crate) fn detect_dir(dir: &Path, probe: &mut FolderProbe) -> bool {
    SKILL_FILE_NAMES.iter().any(|n| probe.is_file(dir, n))
}

/// Load the skill folder `real` (relative path `rel`, `""` when it is the opened root) as a
/// `Skill` child of `parent`; returns the skill node.
///
/// Title: frontmatter `name` (trimmed), else the folder name. Summary: `description` on one
/// line; detail: the description as written (block scalars folded per YAML). `meta`: every
/// frontmatter key verbatim (see [`frontmatter_meta`]) plus `allowed_tools`. Frontmatter
/// warnings (and "no frontmatter") are attached once, to the `SKILL.md` file node, with
/// file and line (the skill node shows them through its file; attaching them to both
/// printed each twice).
pub(crate) fn load_dir(ld: &mut Loader<'_>, parent: NodeId, real: &Path, rel: &str) -> NodeId {
    let name = folder_name(real, rel);
    let skill = ld
        .corpus
        .add_child(parent, Node::new(NodeKind::Skill, Format::Skill, name, rel));
    ld.load_contents(skill, real, rel, Mode::Skill);

    let skill_file = ld.corpus.node(skill).children.iter().copied().find(|c| {
        let n = ld.corpus.node(*c);
        n.kind == NodeKind::File && SKILL_FILE_NAMES.contains(&n.title.as_str())
    });
    let Some(file) = skill_file else { return skill };
    let file_rel = ld.corpus.node(file).path.to_string();
    let Some(fm) = ld.skill_fms.remove(&file) else {
        if ld.corpus.node(file).span.is_some() {
            let w = Warning::at(
                "no frontmatter (the file must start with a `---` line)",
                file_rel,
                Some(1),
            );
            ld.corpus.node_mut(file).warnings.push(w);
        }
        return skill;
    };
    let mut meta = frontmatter_meta(&fm);
    meta.insert("allowed_tools".into(), fm.allowed_tools().into());
    let node = ld.corpus.node_mut(skill);
    if let Some(n) = fm
        .name()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
    {
        node.title = n;
    }
    if let Some(d) = fm.description() {
        node.summary = collapse_ws(&d);
        node.detail = Some(d.into());
    }
    node.meta = meta.into();
    skill
}

/// The node holding the text of the `SKILL.md` node `md`, and `SKILL.md`'s path on disk:
/// `md` itself, or for a `SKILL.md` that is a symbolic link to a file of the same root (an
/// alias, not read twice), the file it links to (`alias_of`) with the link's own path, so
/// the skill's folder stays the link's. `None` when neither has a file on disk.
pub fn md_file(corpus: &Corpus, md: NodeId) -> Option<(NodeId, PathBuf)> {
    let abs = |n: NodeId| {
        let span = corpus.node(n).span?;
        corpus.sources[span.source.0 as usize].abs_path.clone()
    };
    if let Some(path) = abs(md) {
        return Some((md, path));
    }
    let node = corpus.node(md);
    let target = super::walk::link_target(corpus, md)?;
    let mut root_dir = abs(target)?;
    for _ in corpus.node(target).path.split('/') {
        root_dir.pop();
    }
    Some((target, root_dir.join(&*node.path)))
}
