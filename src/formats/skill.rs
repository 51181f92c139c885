//! Agent Skills folders (FORMATS §3): a `Skill` node titled by the frontmatter `name`, with
//! the description as summary/detail, every frontmatter key in `meta`, and the folder's
//! files below it (`SKILL.md` first; `scripts/` and `assets/` listed as assets).

use std::path::Path;

use serde_json::{Map, Value as Json};

use std::path::PathBuf;

use super::load::{Loader, Mode, folder_name};
use super::markdown::collapse_ws;
use crate::frontmatter::{Frontmatter, Value};
use crate::model::{Format, Node, NodeId, NodeKind, Warning};

/// The file names of a skill's main file, in preference order: `SKILL.md`, else the
/// lower-case `skill.md` the reference validator also accepts (docs/FORMATS.md §3.1). The
/// one list both the folder detector ([`skill_md_in`]) and [`crate::skill::skill_md`] use.
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// The skill file of folder `dir` (see [`SKILL_FILE_NAMES`]); `None` when it has none.
pub fn skill_md_in(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES.iter().map(|n| dir.join(n)).find(|p| p.is_file())
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
pub(crate) fn load_skill(ld: &mut Loader<'_>, parent: NodeId, real: &Path, rel: &str) -> NodeId {
    let name = folder_name(real, rel);
    let skill = ld.corpus.add_child(parent, Node::new(NodeKind::Skill, Format::Skill, name, rel));
    ld.load_contents(skill, real, rel, Mode::Skill);

    let skill_file = ld.corpus.node(skill).children.iter().copied().find(|c| {
        let n = ld.corpus.node(*c);
        n.kind == NodeKind::File && (n.title == "SKILL.md" || n.title == "skill.md")
    });
    let Some(file) = skill_file else { return skill };
    let file_rel = ld.corpus.node(file).path.clone();
    let Some(fm) = ld.skill_fms.remove(&file) else {
        if ld.corpus.node(file).span.is_some() {
            let w = Warning::at("no frontmatter (the file must start with a `---` line)", file_rel, Some(1));
            ld.corpus.node_mut(file).warnings.push(w);
        }
        return skill;
    };
    let mut meta = frontmatter_meta(&fm);
    meta.insert("allowed_tools".into(), fm.allowed_tools().into());
    let node = ld.corpus.node_mut(skill);
    if let Some(n) = fm.name().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()) {
        node.title = n;
    }
    if let Some(d) = fm.description() {
        node.summary = collapse_ws(&d);
        node.detail = Some(d);
    }
    node.meta = meta;
    skill
}

/// Every frontmatter key as JSON: strings stay strings (never coerced: `1.10` stays
/// `"1.10"`), lists become arrays, maps objects. A repeated key keeps its last value.
pub fn frontmatter_meta(fm: &Frontmatter) -> Map<String, Json> {
    fm.entries.iter().map(|e| (e.key.clone(), to_json(&e.value))).collect()
}

fn to_json(v: &Value) -> Json {
    match v {
        Value::Str(s) => Json::String(s.clone()),
        Value::List(l) => Json::Array(l.iter().cloned().map(Json::String).collect()),
        Value::Map(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
    }
}

/// The parser's warnings as node warnings at `rel` (the file's root-relative path) and line.
pub fn frontmatter_warnings(fm: &Frontmatter, rel: &str) -> Vec<Warning> {
    fm.warnings.iter().map(|(line, msg)| Warning::at(msg.clone(), rel, Some(*line))).collect()
}
