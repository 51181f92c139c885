//! Skill files `validate` cannot check (docs/FORMATS.md §3.2): a `SKILL.md` the loader
//! could not read (permission denied, an I/O error, binary content, a dangling symbolic
//! link) or that is a folder. Each is an error finding, `skill-md-unreadable`, so
//! `validate` never passes a skill it did not read.

use crate::formats::walk::skill_file::SKILL_FILE_NAMES;
use crate::model::{Corpus, NodeId, NodeKind};
use crate::skill::validate::{Finding, Profile};

/// One skill file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The file's absolute path when it can be told from the loaded sources, else its id.
    pub path: String,
    /// The skill's name: the name of the folder holding the file.
    pub name: String,
    /// The `skill-md-unreadable` finding.
    pub finding: Finding,
}

/// Every `SKILL.md` (or lower-case `skill.md`) node the loader kept without its text, or
/// that is a folder, in tree order. The message is the loader's reason (`cannot read file:
/// Permission denied (os error 13)`, `binary content (NUL byte); not parsed`, `broken
/// symbolic link to …`).
pub fn unreadable_skill_files(corpus: &Corpus, profile: Profile) -> Vec<Unreadable> {
    let mut out = Vec::new();
    for id in corpus.all_preorder() {
        let n = corpus.node(id);
        if !SKILL_FILE_NAMES.contains(&n.title.as_str()) || corpus.is_copy(id) {
            continue;
        }
        let reason = match n.kind {
            NodeKind::Dir => "is a folder, not a file".to_string(),
            NodeKind::File if n.span.is_none() => match n.warnings.first() {
                Some(w) => format!(
                    "cannot be read: {}",
                    w.message.trim_start_matches("cannot read file: ")
                ),
                None => continue,
            },
            _ => continue,
        };
        let name = n
            .parent
            .map(|p| {
                corpus
                    .node(p)
                    .path
                    .rsplit('/')
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .unwrap_or_default();
        let rule = "skill-md-unreadable";
        out.push(Unreadable {
            path: abs_path(corpus, id),
            name,
            finding: Finding {
                severity: super::severity::severity(rule, profile),
                rule,
                message: format!("{} {reason}; the skill was not checked", n.title),
                line: None,
            },
        });
    }
    out
}

/// The absolute path of node `id`: its root's folder, told by a file of the same root
/// whose source path ends with the file's root-relative path, joined with `id`'s path.
/// The node's id when no file tells it.
fn abs_path(corpus: &Corpus, id: NodeId) -> String {
    let rel = &corpus.node(id).path;
    let root = corpus.root_of(id);
    corpus
        .preorder(root)
        .into_iter()
        .find_map(|f| {
            let node = corpus.node(f);
            let src = corpus.sources.get(node.span?.source.0 as usize)?;
            let abs = src.abs_path.as_ref()?.to_str()?;
            let dir = abs.strip_suffix(node.path.as_str())?;
            (!node.path.is_empty() && dir.ends_with('/')).then(|| format!("{dir}{rel}"))
        })
        .unwrap_or_else(|| corpus.node(id).id.clone())
}
