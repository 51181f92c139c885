//! git-adr architecture decision records (docs/FORMATS.md §4): a folder of ADR notes exported as
//! `<id>.md` (YAML frontmatter + markdown body) with an optional `_index.json`, loaded as
//! `Adr` nodes carrying id, title, status, date and tags in `meta`, filterable by status.
//! ADR bodies are exposed only when asked (`meta.exposure = "explicit"`, docs/DESIGN.md §5).
//!
//! The git-adr *skill* folder (`SKILL.md`, nested `references/formats/`, sibling
//! `workflows/`) is an ordinary skill: the generic skill loader reads it.

use std::path::Path;

use serde_json::{Value as Json, json};

use super::llms_txt::add_text_file;
use super::sections::collapse_ws;
use super::walk::loader::{Loader, join_rel, read_head};
use super::walk::probe::FolderProbe;
use crate::frontmatter::{self, Value};
use crate::model::{Corpus, Format, Node, NodeId, NodeKind, Warning};

/// The statuses git-adr accepts, lower-case as required in frontmatter (docs/FORMATS.md §4).
pub const STATUSES: [&str; 5] = [
    "proposed",
    "accepted",
    "deprecated",
    "superseded",
    "rejected",
];

/// One ADR's frontmatter fields.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AdrRecord {
    /// `id` (optional in git-adr; the file stem is used when absent).
    pub id: Option<String>,
    /// `title` (required by git-adr; a warning when missing).
    pub title: Option<String>,
    /// `status` as written; git-adr's default is `proposed` when absent.
    pub status: Option<String>,
    /// `date` as written (`YYYY-MM-DD` or RFC 3339).
    pub date: Option<String>,
    /// `tags[]`.
    pub tags: Vec<String>,
    /// `format` (template name).
    pub format: Option<String>,
    /// `supersedes`.
    pub supersedes: Option<String>,
    /// `superseded_by`.
    pub superseded_by: Option<String>,
    /// Other keys, as text, in file order (`deciders`, `linked_commits`, …).
    pub other: Vec<(String, String)>,
    /// Byte offset where the body starts (after the frontmatter block).
    pub body_start: usize,
    /// Problems: (1-based line, message).
    pub warnings: Vec<(u32, String)>,
}

impl AdrRecord {
    /// The effective status: `status` lower-cased, `proposed` when absent (git-adr's default).
    pub fn effective_status(&self) -> String {
        self.status
            .as_deref()
            .map_or_else(|| "proposed".into(), str::to_lowercase)
    }
}

fn list_of(v: &Value) -> Vec<String> {
    match v {
        Value::List(l) => l.clone(),
        Value::Str(s) if s.trim().is_empty() => Vec::new(),
        Value::Str(s) => s
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect(),
        Value::Map(_) => Vec::new(),
    }
}

/// Parse one ADR note (docs/FORMATS.md §4) with [`crate::frontmatter::parse()`]. Never fails: a
/// missing frontmatter, a missing title, or a status outside [`STATUSES`] (including a
/// capitalised one, which git-adr rejects) become warnings.
pub fn parse_adr(text: &str) -> AdrRecord {
    let mut r = AdrRecord::default();
    let Some(fm) = frontmatter::parse(text) else {
        r.warnings.push((1, "ADR has no YAML frontmatter".into()));
        return r;
    };
    r.body_start = fm.block.end;
    r.warnings.extend(fm.warnings.iter().cloned());
    let text_of = |k: &str| {
        fm.get(k)
            .map(|e| e.value.as_text())
            .filter(|s| !s.trim().is_empty())
    };
    r.id = text_of("id");
    r.title = text_of("title");
    r.status = text_of("status");
    r.date = text_of("date");
    r.format = text_of("format");
    r.supersedes = text_of("supersedes");
    r.superseded_by = text_of("superseded_by");
    r.tags = fm
        .get("tags")
        .map(|e| list_of(&e.value))
        .unwrap_or_default();
    const KNOWN: [&str; 8] = [
        "id",
        "title",
        "status",
        "date",
        "format",
        "supersedes",
        "superseded_by",
        "tags",
    ];
    for e in &fm.entries {
        if !KNOWN.contains(&e.key.as_str()) {
            let v = match &e.value {
                Value::Map(m) => m
                    .iter()
                    .map(|(k, v)| format!("{k}: {}", v.as_text()))
                    .collect::<Vec<_>>()
                    .join(", "),
                other => other.as_text(),
            };
            r.other.push((e.key.clone(), v));
        }
    }
    let line = |k: &str| fm.get(k).map_or(1, |e| e.lines.start);
    if r.title.is_none() {
        r.warnings.push((1, "ADR has no title".into()));
    }
    if let Some(s) = &r.status
        && !STATUSES.contains(&s.as_str())
    {
        r.warnings.push((
            line("status"),
            format!("status '{s}' is not one of {}", STATUSES.join(", ")),
        ));
    }
    r
}

/// Whether `dir` is a folder of exported ADR notes: it holds `_index.json`, or at least one
/// `*.md` whose first 2 KiB start with frontmatter holding both `title:` and `status:` lines
/// and whose file stem equals its `id:`.
pub fn detect(dir: &Path) -> bool {
    detect_dir(dir, &mut FolderProbe::default())
}

/// [`detect`], taking the folder's listing and the head of its `README.md` from `probe`
/// (reading them there if needed).
pub(crate) fn detect_dir(dir: &Path, probe: &mut FolderProbe) -> bool {
    if probe.is_file(dir, "_index.json") {
        return true;
    }
    let Some(entries) = probe.entries(dir) else {
        return false;
    };
    // The candidates are copied out of the probe's listing: reading `README.md` below
    // borrows the probe again.
    let mut candidates: Vec<(std::ffi::OsString, Option<std::fs::FileType>)> = Vec::new();
    for (name, t) in entries.iter().take(200) {
        if Path::new(name).extension().is_some_and(|x| x == "md") {
            candidates.push((name.clone(), *t));
        }
    }
    candidates.into_iter().any(|(name, t)| {
        let p = dir.join(&name);
        // A regular file per the listing is one (`is_file` would stat it); links are followed.
        let is_file = match t {
            Some(t) if t.is_file() => true,
            Some(t) if t.is_dir() => false,
            _ => p.is_file(),
        };
        if !is_file {
            return false;
        }
        let Some(stem) = p.file_stem().and_then(|s| s.to_str()).map(str::to_string) else {
            return false;
        };
        let head = if name == "README.md" {
            let bytes = probe.readme(dir).unwrap_or_default();
            // Most READMEs have no frontmatter: decide before copying the head.
            if !bytes.starts_with(b"---") {
                return false;
            }
            String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]).into_owned()
        } else {
            read_head(&p, 2048)
        };
        head.starts_with("---")
            && head.lines().any(|l| l.starts_with("title:"))
            && head.lines().any(|l| l.starts_with("status:"))
            && head.lines().any(|l| {
                l.strip_prefix("id:")
                    .is_some_and(|v| v.trim().trim_matches(['\'', '"']) == stem)
            })
    })
}

/// One `_index.json` entry (the corpus export: file, id, title, status, bytes, commit, blob).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// `file`.
    pub file: String,
    /// `title`.
    pub title: Option<String>,
    /// `status`.
    pub status: Option<String>,
}

/// Parse `_index.json`: an array of objects with a string `file`. Errors as one-line
/// messages for invalid JSON or another top-level shape; entries without `file` are
/// skipped.
pub fn parse_index(text: &str) -> Result<Vec<IndexEntry>, String> {
    let v: Json = serde_json::from_str(text)
        .map_err(|e| format!("invalid JSON at line {}: {e}", e.line()))?;
    let arr = v.as_array().ok_or("_index.json is not a JSON array")?;
    Ok(arr
        .iter()
        .filter_map(|e| {
            let s = |k: &str| e.get(k).and_then(Json::as_str).map(str::to_string);
            Some(IndexEntry {
                file: s("file")?,
                title: s("title"),
                status: s("status"),
            })
        })
        .collect())
}

/// Load the ADR folder `dir` (relative path `rel`) as a `Dir` node (format `git_adr`) under
/// `parent` and return it. Every `*.md` becomes an `Adr` node (in natural file order; title
/// = frontmatter title with whitespace runs collapsed to one space, else the id/file stem; summary = `<status> · <date> · <tags>`;
/// `meta`: `id`, `status` (effective, lower-case), `date`, `tags`, `format`, `supersedes`,
/// `superseded_by`, other keys as text, and `exposure: "explicit"`; span = the whole note,
/// line numbers 1-based). `_index.json` is listed as a `File` (summary `index of N ADR
/// notes`) and cross-checked: listed files that are missing, and title/status that differ
/// from the note's frontmatter, become warnings. The folder's summary counts ADRs by status
/// (`34 ADRs: 33 accepted, 1 proposed`); `meta.statuses` holds the same counts.
///
/// Dispatch: call it for a folder where [`detect`] is true (before the generic markdown
/// walker, which would otherwise treat the notes as plain markdown).
pub fn load(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str) -> NodeId {
    let title = dir
        .file_name()
        .map_or_else(|| rel.to_string(), |n| n.to_string_lossy().into_owned());
    let folder = corpus.add_child(parent, Node::new(NodeKind::Dir, Format::GitAdr, title, rel));
    load_into(corpus, folder, dir, rel);
    folder
}

/// Load a notes folder found by the walk: [`load`] below `parent`, or [`load_into`] the
/// `Root` node `parent` when the folder is the opened root (`rel` `""`). Returns the
/// folder's node.
pub(crate) fn load_dir(ld: &mut Loader<'_>, parent: NodeId, dir: &Path, rel: &str) -> NodeId {
    if rel.is_empty() {
        load_into(&mut ld.corpus, parent, dir, rel);
        return parent;
    }
    load(&mut ld.corpus, parent, dir, rel)
}

/// Like [`load`], but fills the existing node `folder` (e.g. the `Root` node when the opened
/// path itself is the notes folder) instead of adding a `Dir`; sets its summary and
/// `meta.statuses`.
pub fn load_into(corpus: &mut Corpus, folder: NodeId, dir: &Path, rel: &str) {
    let mut names: Vec<String> = super::walk::file_names(dir);
    names.sort_by(|a, b| super::walk::natural_cmp(a, b));
    let mut adrs: Vec<(String, NodeId)> = Vec::new();
    let mut counts: Vec<(String, u64)> = Vec::new();
    for name in names.iter().filter(|n| n.ends_with(".md")) {
        let r = join_rel(rel, name);
        let (n, src) = add_text_file(corpus, folder, &dir.join(name), &r, Format::GitAdr);
        let Some(src) = src else { continue };
        let text = corpus.sources[src.0 as usize].read_text();
        let rec = parse_adr(&text);
        let stem = name.trim_end_matches(".md").to_string();
        let id = rec.id.clone().unwrap_or_else(|| stem.clone());
        let status = rec.effective_status();
        match counts.iter_mut().find(|(s, _)| *s == status) {
            Some((_, c)) => *c += 1,
            None => counts.push((status.clone(), 1)),
        }
        describe_adr(corpus.node_mut(n), &rec, id, status, &r);
        adrs.push((name.clone(), n));
    }
    if names.iter().any(|n| n == "_index.json") {
        load_index_json(corpus, folder, dir, rel, &adrs);
    }
    summarize_statuses(corpus.node_mut(folder), counts);
}

/// An ADR note's node from its record `rec` (at relative path `r`): kind, title, summary
/// (`<status> · <date> · <tags>`), meta fields and the record's warnings.
fn describe_adr(node: &mut Node, rec: &AdrRecord, id: String, status: String, r: &str) {
    node.kind = NodeKind::Adr;
    node.title = rec.title.as_deref().map_or_else(|| id.clone(), collapse_ws);
    let mut summary = vec![status.clone()];
    summary.extend(rec.date.clone());
    if !rec.tags.is_empty() {
        summary.push(rec.tags.join(", "));
    }
    node.summary = summary.join(" · ");
    node.meta.insert("id".into(), id.into());
    node.meta.insert("status".into(), status.into());
    for (k, v) in [
        ("date", &rec.date),
        ("format", &rec.format),
        ("supersedes", &rec.supersedes),
        ("superseded_by", &rec.superseded_by),
    ] {
        if let Some(v) = v {
            node.meta.insert(k.into(), v.clone().into());
        }
    }
    node.meta.insert("tags".into(), json!(rec.tags));
    for (k, v) in &rec.other {
        node.meta.insert(k.clone(), v.clone().into());
    }
    node.meta.insert("exposure".into(), "explicit".into());
    for (line, msg) in &rec.warnings {
        node.warnings
            .push(Warning::at(msg.clone(), r.to_string(), Some(*line)));
    }
}

/// The folder's `_index.json`: summarized by its entry count, each entry checked against
/// the loaded notes `adrs` (name, node); a mismatch or a parse error is a warning on it.
fn load_index_json(
    corpus: &mut Corpus,
    folder: NodeId,
    dir: &Path,
    rel: &str,
    adrs: &[(String, NodeId)],
) {
    let r = join_rel(rel, "_index.json");
    let (f, src) = add_text_file(corpus, folder, &dir.join("_index.json"), &r, Format::GitAdr);
    let Some(src) = src else { return };
    let text = corpus.sources[src.0 as usize].read_text();
    match parse_index(&text) {
        Ok(entries) => {
            corpus.node_mut(f).summary = format!("index of {} ADR notes", entries.len());
            for e in entries {
                if let Some(m) = index_entry_mismatch(corpus, adrs, &e) {
                    corpus
                        .node_mut(f)
                        .warnings
                        .push(Warning::at(m, r.clone(), None));
                }
            }
        }
        Err(e) => corpus
            .node_mut(f)
            .warnings
            .push(Warning::at(e, r.clone(), None)),
    }
}

/// What an `_index.json` entry gets wrong about the notes `adrs`: a missing file, or a
/// status or title other than the note's.
fn index_entry_mismatch(
    corpus: &Corpus,
    adrs: &[(String, NodeId)],
    e: &IndexEntry,
) -> Option<String> {
    match adrs.iter().find(|(n, _)| *n == e.file) {
        None => Some(format!("_index.json lists {}, which is missing", e.file)),
        Some((_, n)) => {
            let node = corpus.node(*n);
            let st = node.meta.get("status").and_then(Json::as_str).unwrap_or("");
            if e.status.as_deref().is_some_and(|s| s != st) {
                return Some(format!(
                    "{}: status '{}' in _index.json, '{st}' in the note",
                    e.file,
                    e.status.as_deref().unwrap_or("")
                ));
            }
            e.title
                .as_deref()
                .filter(|t| collapse_ws(t) != node.title)
                .map(|t| {
                    format!(
                        "{}: title '{t}' in _index.json, '{}' in the note",
                        e.file, node.title
                    )
                })
        }
    }
}

/// The folder's summary (`N ADRs: 3 accepted, 1 proposed`, most frequent first) and
/// `meta.statuses` from the notes' status `counts`.
fn summarize_statuses(node: &mut Node, mut counts: Vec<(String, u64)>) {
    let total: u64 = counts.iter().map(|(_, c)| c).sum();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let parts: Vec<String> = counts.iter().map(|(s, c)| format!("{c} {s}")).collect();
    node.summary = format!(
        "{total} ADR{}: {}",
        if total == 1 { "" } else { "s" },
        parts.join(", ")
    );
    node.meta.insert(
        "statuses".into(),
        Json::Object(counts.into_iter().map(|(s, c)| (s, c.into())).collect()),
    );
}

/// The `Adr` nodes below `under` whose effective status equals `status` (ASCII
/// case-insensitive), in document order. Duplicate copies are skipped.
pub fn filter_by_status(corpus: &Corpus, under: NodeId, status: &str) -> Vec<NodeId> {
    corpus
        .preorder(under)
        .into_iter()
        .filter(|n| {
            let node = corpus.node(*n);
            node.kind == NodeKind::Adr
                && !corpus.is_copy(*n)
                && node
                    .meta
                    .get("status")
                    .and_then(Json::as_str)
                    .is_some_and(|s| s.eq_ignore_ascii_case(status))
        })
        .collect()
}
