//! Skills as SEP-2640 serves them: one manifest per opened skill (its `SKILL.md`
//! frontmatter, and every file with its size and `sha256:` digest under
//! `skill://<name>/…`), which are listed (`always`, `on-demand`) or only served by name
//! (`explicit`), and never `hidden`; and the bytes of one skill file by URI.

use std::collections::HashSet;
use std::path::PathBuf;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::error::{AgentResult, err};
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::model::{Flag, NodeId, NodeKind};
use crate::skill::layers::listing_entry;
use crate::skill::skill_md;

/// The URI scheme of skill files.
pub const SCHEME: &str = "skill://";

/// One file of a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFile {
    /// `skill://<name>/<path>`.
    pub uri: String,
    /// Path relative to the skill folder (`references/api.md`).
    pub rel: String,
    /// Absolute path on disk.
    pub abs: PathBuf,
    /// `sha256:` and 64 lower-case hex digits of the bytes on disk.
    pub digest: String,
    /// Size in bytes.
    pub size: u64,
}

/// One servable skill.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillManifest {
    /// The skill node.
    pub node: NodeId,
    /// Frontmatter `name` (the folder name when there is none).
    pub name: String,
    /// Frontmatter `description`.
    pub description: String,
    /// Every other frontmatter field.
    pub extra: Map<String, Value>,
    /// `skill://<name>/SKILL.md`.
    pub uri: String,
    /// The folder.
    pub base_dir: PathBuf,
    /// `SKILL.md` first, then the other files in tree order.
    pub files: Vec<SkillFile>,
    /// Listed by `skills/list` (`always` and `on-demand`); `explicit` skills are served by
    /// `skills/get` only.
    pub listed: bool,
    /// The effective level.
    pub exposure: Exposure,
}

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut s = String::with_capacity(71);
    s.push_str("sha256:");
    for b in hash {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Percent-encode a path for a URI: everything but unreserved characters and `/`.
pub fn encode_path(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Undo [`encode_path`] (any `%XX`); `None` when the result is not UTF-8.
pub fn decode_path(p: &str) -> Option<String> {
    let bytes = p.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(v) = p
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Whether `name` can be a skill's URI segment: the Agent Skills name rule, ASCII.
fn servable_name(name: &str) -> bool {
    name.is_ascii() && crate::skill::name_problems(name).is_empty()
}

/// Every skill of `ws` that may be served: not hidden, not a copy, not shadowed by a
/// same-named skill, with a SKILL.md on disk and a valid name (the first of equal names).
/// Files are read now for their digests; unreadable files are left out.
pub fn manifests(ws: &Workspace) -> Vec<SkillManifest> {
    let corpus = &ws.corpus;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for id in corpus.all_preorder() {
        let n = corpus.node(id);
        if n.kind != NodeKind::Skill || corpus.is_copy(id) || n.flags.has(Flag::Shadowed) {
            continue;
        }
        let level = ws.exposure.level(corpus, id);
        if level == Exposure::Hidden {
            continue;
        }
        if let Some(m) = manifest(ws, id, level)
            && seen.insert(m.name.clone())
        {
            out.push(m);
        }
    }
    out
}

fn manifest(ws: &Workspace, skill: NodeId, level: Exposure) -> Option<SkillManifest> {
    let corpus = &ws.corpus;
    let md = skill_md(corpus, skill)?;
    let md_abs = corpus
        .node(md)
        .span
        .and_then(|s| corpus.sources[s.source.0 as usize].abs_path.clone())?;
    let base_dir = md_abs.parent()?.to_path_buf();
    let entry = listing_entry(corpus, skill);
    if !servable_name(&entry.name) {
        return None;
    }
    let mut extra = Map::new();
    if let Some(fm) = crate::frontmatter::parse(corpus.text(md)).filter(|f| f.block.end > 0) {
        for (k, v) in crate::formats::frontmatter_meta(&fm) {
            if k != "name" && k != "description" {
                extra.insert(k, v);
            }
        }
    }
    let root = format!("{SCHEME}{}/", entry.name);
    let skill_path = corpus.node(skill).path.clone();
    let mut files = Vec::new();
    let mut push = |rel: String, abs: PathBuf| {
        if let Ok(bytes) = std::fs::read(&abs) {
            files.push(SkillFile {
                uri: format!("{root}{}", encode_path(&rel)),
                digest: digest(&bytes),
                size: bytes.len() as u64,
                rel,
                abs,
            });
        }
    };
    push("SKILL.md".into(), md_abs.clone());
    let mut stack: Vec<NodeId> = corpus.node(skill).children.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        let n = corpus.node(c);
        if corpus.is_copy(c) || ws.exposure.level(corpus, c) == Exposure::Hidden || c == md {
            continue;
        }
        if n.kind == NodeKind::File {
            let rel = n
                .path
                .strip_prefix(&skill_path)
                .unwrap_or(&n.path)
                .trim_start_matches('/')
                .to_string();
            push(rel.clone(), base_dir.join(&rel));
        } else if matches!(n.kind, NodeKind::Dir | NodeKind::Skill) {
            stack.extend(n.children.iter().rev().copied());
        }
    }
    Some(SkillManifest {
        node: skill,
        name: entry.name.clone(),
        description: entry.description.clone(),
        extra,
        uri: format!("{root}SKILL.md"),
        base_dir,
        files,
        listed: matches!(level, Exposure::Always | Exposure::OnDemand),
        exposure: level,
    })
}

/// The bytes of the skill file at `uri` (a URI of some manifest's files), read now, with
/// the manifest it belongs to. Errors: not a `skill://` URI, no such skill or file (hidden
/// skills and files are not found), unreadable.
pub fn read_file(ws: &Workspace, uri: &str) -> AgentResult<(Vec<u8>, String)> {
    if !uri.starts_with(SCHEME) {
        return err(format!("{uri:?} is not a skill:// URI"));
    }
    for m in manifests(ws) {
        if let Some(f) = m.files.iter().find(|f| f.uri == uri) {
            return match std::fs::read(&f.abs) {
                Ok(b) => Ok((b, f.rel.clone())),
                Err(e) => err(format!("{uri}: {e}")),
            };
        }
    }
    err(format!(
        "no skill file {uri:?} (skills/list and skills/get give the URIs)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_through_uri_encoding() {
        let id = "skills/notes/SKILL.md#notes/find me";
        let enc = encode_path(id);
        assert_eq!(enc, "skills/notes/SKILL.md%23notes/find%20me");
        assert_eq!(decode_path(&enc).as_deref(), Some(id));
        assert_eq!(decode_path("a%2"), Some("a%2".into()));
    }

    #[test]
    fn digests_are_sha256_in_lower_hex() {
        assert_eq!(
            digest(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
