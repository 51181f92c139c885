//! A served skill's folders as SEP-2640 directory resources (`resources/directory/read`):
//! the direct children of `skill://<name>` (the skill folder) or `skill://<name>/<path>` (a
//! sub-folder), with or without a trailing `/`. Children come from the skill's manifest
//! ([`super::skills::manifests`]), so every file a listing names is a file its manifest
//! lists and `resources/read` serves, and what the manifest leaves out (dot-files, `hidden`
//! files, copies) stays out; a folder is a child when it holds at least one such file.

use super::error::{AgentResult, err};
use super::skills::{SCHEME, SkillManifest, decode_path, encode_path, manifests};
use super::workspace::Workspace;

/// One direct child of a skill folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirChild {
    /// `skill://<name>/<path>` (a folder's URI has no trailing `/`, as rmcp's catalog
    /// writes them).
    pub uri: String,
    /// The last path segment (`format.md`, `references`).
    pub name: String,
    /// Path relative to the skill folder.
    pub rel: String,
    /// A folder (`inode/directory`), else a file.
    pub dir: bool,
    /// A file's size in bytes (`None` for a folder).
    pub size: Option<u64>,
}

/// The direct children of the folder at `uri` in a served skill (listed or `explicit`):
/// files first in manifest order with their sizes (`SKILL.md` first at the top), then
/// sub-folders in the order their first file comes. Errors (the server's `-32602`): not a
/// `skill://` URI, no served skill of that name (hidden skills and the ones left out of
/// `skills/list` included), a path that is a file or no folder of the skill.
pub fn read_dir(ws: &Workspace, uri: &str) -> AgentResult<Vec<DirChild>> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return err(format!("{uri:?} is not a skill:// URI"));
    };
    let (name, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (Some(name), Some(path)) = (decode_path(name), decode_path(path)) else {
        return err(format!("{uri:?} is not UTF-8 once decoded"));
    };
    let dir = path.trim_end_matches('/');
    let all = manifests(ws);
    let Some(m) = all.iter().find(|m| m.served() && m.name == name) else {
        return err(format!(
            "no skill at {uri} (skills/list and skills/get give the skill URIs)"
        ));
    };
    if m.files.iter().any(|f| f.rel == dir) {
        return err(format!(
            "{uri} is a file, not a directory: read it with resources/read"
        ));
    }
    let children = children(m, dir);
    if children.is_empty() {
        return err(format!("{uri} is not a directory of skill {name}"));
    }
    Ok(children)
}

/// The direct children of folder `dir` (`""` for the skill folder) among `m`'s files.
fn children(m: &SkillManifest, dir: &str) -> Vec<DirChild> {
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let mut files = Vec::new();
    let mut dirs: Vec<DirChild> = Vec::new();
    for f in &m.files {
        let Some(rest) = f.rel.strip_prefix(&prefix) else {
            continue;
        };
        match rest.split_once('/') {
            None => files.push(DirChild {
                uri: f.uri.clone(),
                name: rest.to_string(),
                rel: f.rel.clone(),
                dir: false,
                size: Some(f.size),
            }),
            Some((sub, _)) if !dirs.iter().any(|d| d.name == sub) => {
                let rel = format!("{prefix}{sub}");
                dirs.push(DirChild {
                    uri: format!("{SCHEME}{}/{}", encode_path(&m.name), encode_path(&rel)),
                    name: sub.to_string(),
                    rel,
                    dir: true,
                    size: None,
                });
            }
            Some(_) => {}
        }
    }
    files.extend(dirs);
    files
}
