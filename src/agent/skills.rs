//! Skills as SEP-2640 serves them: one manifest per opened skill (its `SKILL.md`
//! frontmatter as a YAML reader types it, and every file with its size and `sha256:` digest
//! under `skill://<name>/…`, dot-files left out), which are listed (`always`,
//! `on-demand`) or only served by name (`explicit`), and never `hidden`; which skills the
//! SEP surfaces leave out and why ([`left_out`], rules in [`super::listable`]); and the
//! bytes of one skill file by URI.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::error::{AgentResult, err};
use super::listable::{self, LeftOut, Reason};
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::model::{Flag, NodeId, NodeKind};
use crate::skill::layers::listing_entry;
use crate::skill::skill_md;
use crate::skill::validate::Profile;

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

/// One opened skill that is not hidden: served by the tools, and by the SEP-2640 surfaces
/// (`skills/list`, `skills/get`, `skill://` resources) when [`SkillManifest::served`].
#[derive(Clone, Debug, PartialEq)]
pub struct SkillManifest {
    /// The skill node.
    pub node: NodeId,
    /// Frontmatter `name` as a YAML reader gives it; for a skill left out, the listing's
    /// name (the folder name when there is none).
    pub name: String,
    /// Frontmatter `description` as a YAML reader gives it (a block scalar keeps the line
    /// break its chomping keeps); for a skill left out, the listing's description.
    pub description: String,
    /// Every other frontmatter field as a YAML reader types it (empty for a skill left
    /// out).
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
    /// The `SKILL.md` on disk.
    pub md_path: PathBuf,
    /// Why the SEP-2640 surfaces leave it out ([`super::listable::check`], or a name an
    /// earlier skill already serves); empty when they serve it.
    pub left_out: Vec<Reason>,
}

impl SkillManifest {
    /// Served by `skills/get` and as `skill://` resources: nothing leaves it out.
    pub fn served(&self) -> bool {
        self.left_out.is_empty()
    }

    /// Listed by `skills/list`: served and `always` or `on-demand`.
    pub fn in_skills_list(&self) -> bool {
        self.listed && self.served()
    }
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

/// Every skill of `ws` that is not hidden and not a copy, with a SKILL.md on disk, in tree
/// order, with its files (read now for their digests; unreadable files and dot-files are
/// left out). The first listable skill of a name is served under it; a later one, and one
/// the loader's same-name rule shadows, is left out (`sep-duplicate-name`).
pub fn manifests(ws: &Workspace) -> Vec<SkillManifest> {
    heads(ws)
        .into_iter()
        .map(|mut m| {
            m.files = files(ws, &m);
            m
        })
        .collect()
}

/// The skills the SEP-2640 surfaces leave out, with why, in tree order: the [`manifests`]
/// not served, then the skills whose `SKILL.md` could not be read (`skill-md-unreadable`).
/// No file is read for a digest.
pub fn left_out(ws: &Workspace) -> Vec<LeftOut> {
    let corpus = &ws.corpus;
    let mut out: Vec<LeftOut> = heads(ws)
        .into_iter()
        .filter(|m| !m.served())
        .map(|m| LeftOut {
            name: m.name,
            path: m.md_path.display().to_string(),
            id: Some(corpus.id(m.node)),
            reasons: m.left_out,
        })
        .collect();
    for u in crate::skill::unreadable::unreadable_skill_files(corpus, Profile::Spec) {
        if !out.iter().any(|l| l.path == u.path) {
            out.push(LeftOut {
                name: u.name,
                path: u.path,
                id: None,
                reasons: vec![Reason::from(u.finding)],
            });
        }
    }
    out
}

/// [`manifests`] without their files.
fn heads(ws: &Workspace) -> Vec<SkillManifest> {
    let corpus = &ws.corpus;
    let mut first_of: HashMap<String, PathBuf> = HashMap::new();
    let mut out = Vec::new();
    for id in corpus.all_preorder() {
        let n = corpus.node(id);
        if n.kind != NodeKind::Skill || corpus.is_copy(id) {
            continue;
        }
        let level = ws.exposure.level(corpus, id);
        if level == Exposure::Hidden {
            continue;
        }
        let Some(mut m) = head(ws, id, level) else {
            continue;
        };
        if let Some(r) = listable::shadowed(corpus, id, &m.name) {
            m.left_out.push(r);
        } else if m.served() {
            match first_of.get(&m.name) {
                Some(first) => m.left_out.push(listable::duplicate(&m.name, first)),
                None => {
                    first_of.insert(m.name.clone(), m.md_path.clone());
                }
            }
        }
        out.push(m);
    }
    out
}

/// The manifest of `skill` without files: its frontmatter as served when
/// [`listable::check`] passes, else the listing's name and description with the reasons.
fn head(ws: &Workspace, skill: NodeId, level: Exposure) -> Option<SkillManifest> {
    let corpus = &ws.corpus;
    let (md, md_path) = crate::formats::skill::md_file(corpus, skill_md(corpus, skill)?)?;
    let base_dir = md_path.parent()?.to_path_buf();
    let folder = base_dir
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (name, description, extra, left_out) = match listable::check(corpus.text(md), &folder) {
        Ok(fm) => (fm.name, fm.description, fm.extra, Vec::new()),
        Err(reasons) => {
            let entry = listing_entry(corpus, skill);
            (entry.name, entry.description, Map::new(), reasons)
        }
    };
    Some(SkillManifest {
        node: skill,
        uri: format!("{SCHEME}{}/SKILL.md", encode_path(&name)),
        name,
        description,
        extra,
        base_dir,
        files: Vec::new(),
        listed: matches!(level, Exposure::Always | Exposure::OnDemand),
        exposure: level,
        md_path,
        left_out,
    })
}

/// The files of `m`: `SKILL.md` first, then every file below the skill in tree order, but
/// copies, `hidden` ones, links to files outside the opened folder that were not read, and
/// dot-files (a path segment starting with `.`, as SEP-2640 catalogs leave them out); each
/// read now for its digest, an unreadable one left out.
fn files(ws: &Workspace, m: &SkillManifest) -> Vec<SkillFile> {
    let corpus = &ws.corpus;
    let root = format!("{SCHEME}{}/", encode_path(&m.name));
    let skill_path = corpus.node(m.node).path.clone();
    let md = skill_md(corpus, m.node);
    let mut out = Vec::new();
    let mut push = |rel: String, abs: PathBuf| {
        if let Ok(bytes) = std::fs::read(&abs) {
            out.push(SkillFile {
                uri: format!("{root}{}", encode_path(&rel)),
                digest: digest(&bytes),
                size: bytes.len() as u64,
                rel,
                abs,
            });
        }
    };
    push("SKILL.md".into(), m.md_path.clone());
    let mut stack: Vec<NodeId> = corpus.node(m.node).children.iter().rev().copied().collect();
    while let Some(c) = stack.pop() {
        let n = corpus.node(c);
        // A link to a file outside the opened folder is listed in the tree but not read
        // (without `--follow-links`); it is not served either.
        if corpus.is_copy(c)
            || ws.exposure.level(corpus, c) == Exposure::Hidden
            || Some(c) == md
            || n.flags.has(Flag::ExternalLink)
        {
            continue;
        }
        if n.kind == NodeKind::File {
            let rel = n
                .path
                .strip_prefix(&*skill_path)
                .unwrap_or(&n.path)
                .trim_start_matches('/')
                .to_string();
            if !rel.split('/').any(|seg| seg.starts_with('.')) {
                push(rel.clone(), m.base_dir.join(&rel));
            }
        } else if matches!(n.kind, NodeKind::Dir | NodeKind::Skill) {
            stack.extend(n.children.iter().rev().copied());
        }
    }
    out
}

/// The bytes of the skill file at `uri` (a URI of some served manifest's files), read now,
/// with its path relative to the skill folder. Errors: not a `skill://` URI, no such skill
/// or file (hidden skills and files, and the skills left out, are not found), unreadable.
pub fn read_file(ws: &Workspace, uri: &str) -> AgentResult<(Vec<u8>, String)> {
    if !uri.starts_with(SCHEME) {
        return err(format!("{uri:?} is not a skill:// URI"));
    }
    for m in manifests(ws).into_iter().filter(SkillManifest::served) {
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
