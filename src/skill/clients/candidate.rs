//! The skills a client could load, as read from a loaded corpus: every skill node that is
//! not a copy (shadowed ones included: each client applies its own same-name rule), with
//! what the client rules look at — the skill file's exact name, its depth below the root,
//! the root's scope, whether the frontmatter is there, closed and strict YAML, and the
//! entry fields (`name`, `description`, `when_to_use`, `disable-model-invocation`).

use std::path::{Path, PathBuf};

use crate::formats::agents::{Scope, scope_of_label};
use crate::frontmatter::{self, Frontmatter};
use crate::model::{Corpus, Flag, NodeId, NodeKind};
use crate::skill::listing::when_to_use;

/// The state of a SKILL.md's frontmatter block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FmState {
    /// Opened and closed; a strict YAML reader accepts it.
    Ok,
    /// The file does not start with a `---` line.
    Missing,
    /// Opened, never closed.
    Unclosed,
    /// Closed, but a strict YAML reader refuses it: (file line, message).
    Invalid(u32, String),
    /// The file holds no text skillnav could read (binary, UTF-16, unreadable): no client
    /// reads a skill from it either.
    Unreadable,
}

/// One skill as a client's loader meets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The skill node.
    pub node: NodeId,
    /// Index of its root in `corpus.roots` (discovery order).
    pub root_index: usize,
    /// Scope of the root (`…-user` labels are user folders; PATH roots count as project).
    pub scope: Scope,
    /// Absolute path of the skill file (root-relative when the corpus has no path).
    pub path: PathBuf,
    /// The skill file's name exactly as on disk (`SKILL.md`, or `skill.md`).
    pub file_name: String,
    /// The skill folder's name.
    pub folder: String,
    /// Folders between the root and the skill folder plus one (`root/a/SKILL.md` → 1,
    /// `root/SKILL.md` → 0).
    pub depth: usize,
    /// Whether a folder on the way (the skill folder included) starts with `.`.
    pub hidden: bool,
    /// Frontmatter state.
    pub fm: FmState,
    /// Frontmatter `name`, trimmed; `None` when absent or blank.
    pub fm_name: Option<String>,
    /// The name the tree shows (frontmatter `name`, else the folder; `plugin:skill` for
    /// plugin skills).
    pub title: String,
    /// Frontmatter `description` as written (block scalars folded), trimmed.
    pub description: String,
    /// `when_to_use` (any spelling), trimmed.
    pub when_to_use: Option<String>,
    /// `disable-model-invocation: true` (Claude Code keeps such a skill out of the listing).
    pub model_invocation_disabled: bool,
    /// The first paragraph of the body (Claude Code's stand-in for a missing description).
    pub first_paragraph: String,
    /// Whether the tree marks it shadowed (by `--precedence`, default last-wins).
    pub shadowed: bool,
    /// `name` or `description` when its value is a list or a map, not text (a reader that
    /// wants a string refuses it).
    pub not_text: Option<&'static str>,
}

/// Every skill node of `corpus` that is not a copy, in tree order.
pub fn gather(corpus: &Corpus) -> Vec<Candidate> {
    gather_with(corpus, None)
}

/// [`gather`], reading skill node `over.0`'s SKILL.md as the text `over.1` (an unsaved edit)
/// instead of the loaded one.
pub fn gather_with(corpus: &Corpus, over: Option<(NodeId, &str)>) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (root_index, root) in corpus.roots.iter().enumerate() {
        let scope = scope_of_label(&corpus.node(*root).title).unwrap_or(Scope::Project);
        for id in corpus.preorder(*root) {
            let n = corpus.node(id);
            if n.kind != NodeKind::Skill || corpus.is_copy(id) {
                continue;
            }
            let text = over.filter(|(n, _)| *n == id).map(|(_, t)| t);
            if let Some(c) = candidate(corpus, id, root_index, scope, text) {
                out.push(c);
            }
        }
    }
    out
}

/// `c` read again from the text `text` (an unsaved edit of its SKILL.md): the one
/// candidate an editor keystroke changes, so the others need not be parsed again.
pub fn reread(corpus: &Corpus, c: &Candidate, text: &str) -> Option<Candidate> {
    candidate(corpus, c.node, c.root_index, c.scope, Some(text))
}

fn skill_file(corpus: &Corpus, skill: NodeId) -> Option<NodeId> {
    corpus.node(skill).children.iter().copied().find(|c| {
        let f = corpus.node(*c);
        f.kind == NodeKind::File
            && crate::formats::skill::SKILL_FILE_NAMES.contains(&f.title.as_str())
    })
}

fn candidate(
    corpus: &Corpus,
    id: NodeId,
    root_index: usize,
    scope: Scope,
    text: Option<&str>,
) -> Option<Candidate> {
    let file = skill_file(corpus, id)?;
    let rel = corpus.node(file).path.clone();
    // A `SKILL.md` that is a link to another file of the skill is read from that file;
    // its path stays the link's.
    let (holder, path) = crate::formats::skill::md_file(corpus, file)
        .unwrap_or_else(|| (file, PathBuf::from(&*rel)));
    // A link out of the root that was not read is left out: the client follows it, but
    // there is no text here to judge it by.
    if corpus.node(holder).flags.has(Flag::ExternalLink) && text.is_none() {
        return None;
    }
    let loaded = corpus
        .node(holder)
        .span
        .and_then(|span| corpus.sources.get(span.source.0 as usize))
        .map(|src| src.text());
    let unreadable = text.is_none() && loaded.is_none();
    let text = text.or(loaded).unwrap_or("");
    let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    let folder = path
        .parent()
        .and_then(Path::file_name)
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parsed = frontmatter::parse(text);
    let fields = Fields::read(parsed.as_ref(), text);
    Some(Candidate {
        node: id,
        root_index,
        scope,
        file_name: corpus.node(file).title.clone(),
        folder,
        depth: parts.len().saturating_sub(1),
        hidden: parts[..parts.len().saturating_sub(1)]
            .iter()
            .any(|p| p.starts_with('.')),
        fm: if unreadable {
            FmState::Unreadable
        } else {
            fm_state(parsed.as_ref(), text)
        },
        fm_name: fields.name,
        title: corpus.node(id).title.clone(),
        description: fields.description,
        when_to_use: fields.when_to_use,
        model_invocation_disabled: fields.model_invocation_disabled,
        first_paragraph: fields.first_paragraph,
        shadowed: corpus.node(id).flags.has(Flag::Shadowed),
        not_text: fields.not_text,
        path,
    })
}

/// The frontmatter fields a listing entry is made of.
struct Fields {
    name: Option<String>,
    description: String,
    when_to_use: Option<String>,
    model_invocation_disabled: bool,
    first_paragraph: String,
    not_text: Option<&'static str>,
}

impl Fields {
    fn read(fm: Option<&Frontmatter>, text: &str) -> Self {
        let closed = fm.filter(|f| !f.block.is_empty());
        let body = closed.map_or(text, |f| text.get(f.block.end..).unwrap_or(""));
        Self {
            name: closed
                .and_then(Frontmatter::name)
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty()),
            description: closed
                .and_then(Frontmatter::description)
                .map(|d| d.trim().to_string())
                .unwrap_or_default(),
            when_to_use: closed.and_then(when_to_use),
            model_invocation_disabled: closed
                .and_then(|f| f.get("disable-model-invocation"))
                .is_some_and(|e| e.value.as_text().trim() == "true"),
            first_paragraph: first_paragraph(body),
            not_text: ["name", "description"].into_iter().find(|k| {
                closed
                    .and_then(|f| f.get(k))
                    .is_some_and(|e| !matches!(e.value, crate::frontmatter::Value::Str(_)))
            }),
        }
    }
}

fn fm_state(fm: Option<&Frontmatter>, text: &str) -> FmState {
    let Some(fm) = fm else {
        return FmState::Missing;
    };
    if fm.block.is_empty() {
        return FmState::Unclosed;
    }
    let yaml = text.get(fm.yaml.clone()).unwrap_or("");
    match frontmatter::verify_strict(yaml) {
        Ok(()) => FmState::Ok,
        Err((line, msg)) => FmState::Invalid(line + 1, msg),
    }
}

/// The first paragraph of a markdown body: the first run of non-blank lines that is not a
/// heading, joined with spaces.
pub fn first_paragraph(body: &str) -> String {
    let mut lines = Vec::new();
    for l in body.lines().map(str::trim) {
        if l.is_empty() || l.starts_with('#') {
            if lines.is_empty() {
                continue;
            }
            break;
        }
        lines.push(l);
    }
    lines.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_paragraph_skips_headings_and_blank_lines() {
        assert_eq!(
            first_paragraph("\n# Title\n\nFirst line\nsecond line.\n\nNext."),
            "First line second line."
        );
        assert_eq!(first_paragraph("# Only a heading\n"), "");
    }
}
