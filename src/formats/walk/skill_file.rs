//! What the walker itself knows of skills: the names of a skill's main file (it is listed
//! first and its frontmatter kept for the skill loader; a link to a folder holding one is
//! followed) and how a doc file's frontmatter becomes its `meta` and warnings.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value as Json};

use crate::frontmatter::{Frontmatter, Value};
use crate::model::Warning;

/// The file names of a skill's main file, in preference order: `SKILL.md`, else the
/// lower-case `skill.md` the reference validator also accepts (docs/FORMATS.md §3.1). The
/// one list both the folder detector ([`skill_md_in`]) and [`crate::skill::skill_md`] use.
pub const SKILL_FILE_NAMES: [&str; 2] = ["SKILL.md", "skill.md"];

/// The skill file of folder `dir` (see [`SKILL_FILE_NAMES`]); `None` when it has none.
pub fn skill_md_in(dir: &Path) -> Option<PathBuf> {
    SKILL_FILE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// Every frontmatter key as JSON: strings stay strings (never coerced: `1.10` stays
/// `"1.10"`), lists become arrays, maps objects. A repeated key keeps its last value.
pub fn frontmatter_meta(fm: &Frontmatter) -> Map<String, Json> {
    fm.entries
        .iter()
        .map(|e| (e.key.clone(), to_json(&e.value)))
        .collect()
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
    fm.warnings
        .iter()
        .map(|(line, msg)| Warning::at(msg.clone(), rel, Some(*line)))
        .collect()
}
