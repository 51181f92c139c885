//! Active-skills `catalog.json` (docs/FORMATS.md §1.6): reading a hand-made one, generating one for
//! a `Skill_Seekers` skill (fence-aware, real byte sizes), listing topics by complexity, and
//! resolving a section in one of the llms variants (`show --variant`).
//!
//! The schema is the design doc's (`Skill_Seekers` `docs/archive/plans/
//! 2025-10-24-active-skills-design.md`); no released tool writes it. Differences from that
//! design's generator, on purpose: H1s inside fenced code are not sections, and
//! `size_bytes` is the part's size in bytes (the design measured characters).

use std::path::{Path, PathBuf};

use serde_json::{Value as Json, json};

use super::llms_txt::{LineIndex, add_text_file, split_full};
use super::sections;
use super::walk::loader::{Loader, file_size};
use super::walk::skill_file::SKILL_FILE_NAMES;
use crate::error::{Error, Result};
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, Warning};

/// One `sections[]` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogSection {
    /// `id` (the design's: title lower-cased, spaces → `-`).
    pub id: String,
    /// `title`.
    pub title: String,
    /// `h1_marker` (`# <title>`).
    pub h1_marker: String,
    /// `topics[]`: lower-cased H2 titles plus the lower-cased title.
    pub topics: Vec<String>,
    /// `size_bytes` (bytes in generated catalogs; hand-made ones may hold characters).
    pub size_bytes: u64,
    /// `variants[]` (`quick`, `standard`, `complete`).
    pub variants: Vec<String>,
    /// `complexity` (`beginner|intermediate|advanced`), if given.
    pub complexity: Option<String>,
}

/// A parsed `catalog.json`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Catalog {
    /// `metadata.framework`.
    pub framework: Option<String>,
    /// `metadata.version`.
    pub version: Option<String>,
    /// `metadata.generated` (ISO-8601 text, not interpreted).
    pub generated: Option<String>,
    /// `metadata.total_sections`.
    pub total_sections: Option<u64>,
    /// `metadata.variants`: variant name → file name in `references/`, sorted by name.
    pub variants: Vec<(String, String)>,
    /// `sections[]` in file order (entries without a string `title` are skipped).
    pub sections: Vec<CatalogSection>,
    /// `search_index`: topic → section ids, sorted by topic.
    pub search_index: Vec<(String, Vec<String>)>,
    /// Problems: skipped entries, `total_sections` not matching, ids in `search_index` that
    /// no section has.
    pub warnings: Vec<String>,
}

fn s(v: Option<&Json>) -> Option<String> {
    v.and_then(|v| match v {
        Json::String(s) => Some(s.clone()),
        Json::Number(n) => Some(n.to_string()),
        _ => None,
    })
}

fn str_list(v: Option<&Json>) -> Vec<String> {
    v.and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The design's section id: the title lower-cased with spaces replaced by `-`.
pub fn section_id(title: &str) -> String {
    title.to_lowercase().replace(' ', "-")
}

/// Parse a `catalog.json` text leniently. Errors (one-line messages) only for invalid JSON
/// or a top level that is not an object; everything else missing is empty, oddities are
/// [`Catalog::warnings`]. A section without `id` gets [`section_id`] of its title.
pub fn parse_catalog(text: &str) -> std::result::Result<Catalog, String> {
    let v: Json = serde_json::from_str(text)
        .map_err(|e| format!("invalid JSON at line {}: {e}", e.line()))?;
    let top = v.as_object().ok_or("catalog is not a JSON object")?;
    let mut c = Catalog::default();
    if let Some(m) = top.get("metadata").and_then(Json::as_object) {
        c.framework = s(m.get("framework"));
        c.version = s(m.get("version"));
        c.generated = s(m.get("generated"));
        c.total_sections = m.get("total_sections").and_then(Json::as_u64);
        if let Some(vs) = m.get("variants").and_then(Json::as_object) {
            c.variants = vs
                .iter()
                .filter_map(|(k, v)| v.as_str().map(|f| (k.clone(), f.to_string())))
                .collect();
        }
    }
    for (i, e) in top
        .get("sections")
        .and_then(Json::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .enumerate()
    {
        let Some(title) = e.get("title").and_then(Json::as_str) else {
            c.warnings
                .push(format!("sections[{i}] has no string title; skipped"));
            continue;
        };
        c.sections.push(CatalogSection {
            id: s(e.get("id")).unwrap_or_else(|| section_id(title)),
            title: title.to_string(),
            h1_marker: s(e.get("h1_marker")).unwrap_or_else(|| format!("# {title}")),
            topics: str_list(e.get("topics")),
            size_bytes: e.get("size_bytes").and_then(Json::as_u64).unwrap_or(0),
            variants: str_list(e.get("variants")),
            complexity: s(e.get("complexity")),
        });
    }
    if let Some(idx) = top.get("search_index").and_then(Json::as_object) {
        c.search_index = idx
            .iter()
            .map(|(k, v)| (k.clone(), str_list(Some(v))))
            .collect();
    }
    if let Some(t) = c.total_sections
        && t != c.sections.len() as u64
    {
        c.warnings.push(format!(
            "metadata.total_sections is {t} but {} sections are listed",
            c.sections.len()
        ));
    }
    let mut unknown: Vec<&str> = c
        .search_index
        .iter()
        .flat_map(|(_, ids)| ids.iter())
        .filter(|id| !c.sections.iter().any(|s| &s.id == *id))
        .map(String::as_str)
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    if !unknown.is_empty() {
        c.warnings.push(format!(
            "search_index names unknown section ids: {}",
            unknown.join(", ")
        ));
    }
    Ok(c)
}

/// The catalog file of a skill folder, if any: `assets/catalog.json`, else
/// `references/catalog.json` (the design doc shows both).
pub fn find_catalog(skill_dir: &Path) -> Option<PathBuf> {
    ["assets", "references"]
        .iter()
        .map(|d| skill_dir.join(d).join("catalog.json"))
        .find(|p| p.is_file())
}

/// Whether a file met by the walk (`name` lower-case) is a catalog: named `catalog.json`
/// and at most 4 MiB.
pub(crate) fn detect_walk_file(name: &str, path: &Path) -> bool {
    name == "catalog.json" && file_size(path) <= 4 << 20
}

/// [`load`] as a format-table loader.
pub(crate) fn load_walk_file(
    ld: &mut Loader<'_>,
    parent: NodeId,
    path: &Path,
    rel: &str,
) -> NodeId {
    load(&mut ld.corpus, parent, path, rel)
}

/// Load a `catalog.json` at `abs` as a `File` node (format `catalog`) under `parent`, with
/// one `Group` per section (seg = the section id; title; summary = its topics joined by
/// `, `; `meta`: `id`, `size_bytes`, `variants`, `topics`, `complexity` when given,
/// `h1_marker`). The file's summary says how many sections and topics it lists; parse
/// problems become warnings on the file node. Returns the file node.
///
/// Dispatch: call it for `assets/catalog.json` / `references/catalog.json` inside a skill
/// (see [`find_catalog`]) instead of listing that file as an asset.
pub fn load(corpus: &mut Corpus, parent: NodeId, abs: &Path, rel: &str) -> NodeId {
    let (f, src) = add_text_file(corpus, parent, abs, rel, Format::Catalog);
    let Some(src) = src else { return f };
    let text = corpus.sources[src.0 as usize].read_text();
    let cat = match parse_catalog(&text) {
        Ok(c) => c,
        Err(e) => {
            corpus.node_mut(f).warnings.push(Warning::at(e, rel, None));
            return f;
        }
    };
    let li = LineIndex::new(&text);
    {
        let n = corpus.node_mut(f);
        n.summary = format!(
            "catalog: {} sections, {} topics",
            cat.sections.len(),
            cat.search_index.len()
        );
        if let Some(fw) = &cat.framework {
            n.meta.insert("framework".into(), fw.clone().into());
        }
        n.meta.insert(
            "variants".into(),
            Json::Object(
                cat.variants
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::String(v.clone())))
                    .collect(),
            ),
        );
        for w in &cat.warnings {
            n.warnings.push(Warning::at(w.clone(), rel, None));
        }
    }
    for sec in &cat.sections {
        let mut g = Node::new(NodeKind::Group, Format::Catalog, sec.title.clone(), "");
        g.seg = Some(crate::model::id::slug(&sec.id).into());
        g.summary = sec.topics.join(", ");
        g.detail = sec
            .complexity
            .as_ref()
            .map(|c| format!("complexity: {c}").into());
        // Line of the entry in the JSON: the first `"id": "<id>"` occurrence.
        let needle = format!("\"id\": {}", Json::String(sec.id.clone()));
        g.line_start = text.find(&needle).map(|o| li.line(o));
        g.meta.insert("id".into(), sec.id.clone().into());
        g.meta.insert("size_bytes".into(), sec.size_bytes.into());
        g.meta.insert("variants".into(), json!(sec.variants));
        g.meta.insert("topics".into(), json!(sec.topics));
        g.meta
            .insert("h1_marker".into(), sec.h1_marker.clone().into());
        if let Some(c) = &sec.complexity {
            g.meta.insert("complexity".into(), c.clone().into());
        }
        corpus.add_child(f, g);
    }
    f
}

/// Sections of one complexity level, for `skillnav topics` (the design's `list_topics.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopicGroup {
    /// `beginner`, `intermediate`, `advanced`, `general` (no complexity), or another value
    /// found in the file.
    pub complexity: String,
    /// The sections, in catalog order.
    pub sections: Vec<CatalogSection>,
    /// Σ `size_bytes` of the sections.
    pub size_bytes: u64,
}

/// Sections grouped by complexity in the order beginner, intermediate, advanced, general,
/// then any other values alphabetically; empty groups are left out.
pub fn topics(catalog: &Catalog) -> Vec<TopicGroup> {
    let level = |s: &CatalogSection| s.complexity.clone().unwrap_or_else(|| "general".into());
    let mut names: Vec<String> = catalog.sections.iter().map(level).collect();
    names.sort_by_key(|n| {
        (
            ["beginner", "intermediate", "advanced", "general"]
                .iter()
                .position(|k| k == n)
                .unwrap_or(4),
            n.clone(),
        )
    });
    names.dedup();
    names
        .into_iter()
        .map(|c| {
            let sections: Vec<CatalogSection> = catalog
                .sections
                .iter()
                .filter(|s| level(s) == c)
                .cloned()
                .collect();
            let size_bytes = sections.iter().map(|s| s.size_bytes).sum();
            TopicGroup {
                complexity: c,
                sections,
                size_bytes,
            }
        })
        .collect()
}

/// The llms file of each variant inside `references/` (docs/FORMATS.md §1.2).
fn variant_file(variant: &str) -> &'static str {
    match variant {
        "quick" => "llms-small.md",
        "standard" => "llms.md",
        _ => "llms-full.md",
    }
}

/// The H1 parts of a concatenated llms file: (title, start, end, H2 titles).
fn h1_parts(text: &str) -> Vec<(String, usize, usize, Vec<String>)> {
    let all = sections::headings(text, 0, text.len());
    split_full(text)
        .parts
        .into_iter()
        .map(|(h, end)| {
            let h2 = all
                .iter()
                .filter(|x| x.level == 2 && x.start > h.start && x.start < end)
                .map(|x| x.title.to_lowercase())
                .collect();
            (h.title, h.start, end, h2)
        })
        .collect()
}

/// Generate a `catalog.json` value for the `Skill_Seekers` skill in `skill_dir` with
/// `metadata.generated` = now (UTC, `YYYY-MM-DDTHH:MM:SSZ`). See [`generate_catalog_at`].
pub fn generate_catalog(skill_dir: &Path) -> Result<Json> {
    generate_catalog_at(skill_dir, &now_iso8601())
}

/// Generate a `catalog.json` value (docs/FORMATS.md §1.6 schema) for the skill in `skill_dir`, with
/// `metadata.generated` = `generated`.
///
/// Sections come from `references/llms-small.md` (the quick variant, as in the design),
/// else `references/llms-full.md`: one per H1 found by [`sections::headings`] (so `# …`
/// lines inside fenced code are NOT sections). `id` = [`section_id`] of the title, made
/// unique with `-2`, `-3`; `topics` = lower-cased H2 titles of the part plus the lower-cased
/// title; `size_bytes` = the part's size in bytes; `variants` = the variants whose file has
/// an H1 with the same title. `metadata.framework` = the SKILL.md `name` (else the folder
/// name); `version` = the SKILL.md `version` or `"unknown"`; `variants` maps each present
/// variant file. `search_index` maps every topic to the ids having it.
///
/// Errors: [`Error::Usage`] when neither llms-small.md nor llms-full.md exists under
/// `references/`; [`Error::Io`] when a file cannot be read.
pub fn generate_catalog_at(skill_dir: &Path, generated: &str) -> Result<Json> {
    let refs = skill_dir.join("references");
    let quick = read_reference(&refs, "llms-small.md")?;
    let complete = read_reference(&refs, "llms-full.md")?;
    let standard_present = refs.join("llms.md").is_file();
    let (base_text, base_variant) = match (&quick, &complete) {
        (Some(q), _) => (q.as_str(), "quick"),
        (None, Some(c)) => (c.as_str(), "complete"),
        (None, None) => {
            return Err(Error::Usage(format!(
                "{}: no references/llms-small.md or references/llms-full.md to build a catalog from",
                skill_dir.display()
            )));
        }
    };
    let titles = VariantTitles {
        quick: h1_titles(quick.as_deref()),
        complete: h1_titles(complete.as_deref()),
    };
    let (sections, index) = catalog_sections(base_text, base_variant, &titles);
    let (framework, version) = skill_identity(skill_dir);
    let vmap = variant_map(quick.is_some(), standard_present, complete.is_some());
    Ok(json!({
        "metadata": {
            "framework": framework,
            "version": version,
            "generated": generated,
            "total_sections": sections.len(),
            "variants": vmap,
        },
        "sections": sections,
        "search_index": index,
    }))
}

/// The text of `refs/name` (invalid UTF-8 replaced), `None` when there is no such file.
/// Errors: [`Error::Io`] when it cannot be read.
fn read_reference(refs: &Path, name: &str) -> Result<Option<String>> {
    let p = refs.join(name);
    if !p.is_file() {
        return Ok(None);
    }
    let bytes = super::walk::inputs::read(&p).map_err(|e| Error::io(&p, e))?;
    Ok(Some(crate::model::lossless_len_utf8(bytes).0))
}

/// The H1 titles of an llms variant's text `t` (none without a text).
fn h1_titles(t: Option<&str>) -> Vec<String> {
    t.map(|t| {
        split_full(t)
            .parts
            .into_iter()
            .map(|(h, _)| h.title)
            .collect()
    })
    .unwrap_or_default()
}

/// The H1 titles of the quick and complete variants, to tell which variants hold a section.
struct VariantTitles {
    /// Titles in llms-small.md.
    quick: Vec<String>,
    /// Titles in llms-full.md.
    complete: Vec<String>,
}

/// The catalog's sections, one per H1 part of `base_text` (the `base_variant`'s text), and
/// its search index (each topic → the ids having it).
fn catalog_sections(
    base_text: &str,
    base_variant: &str,
    titles: &VariantTitles,
) -> (Vec<Json>, std::collections::BTreeMap<String, Vec<String>>) {
    let mut taken = crate::model::id::Taken::default();
    let mut sections = Vec::new();
    let mut index: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (title, start, end, h2) in h1_parts(base_text) {
        let id = crate::model::id::dedupe(&section_id(&title), &mut taken);
        let mut topics = h2;
        topics.push(title.to_lowercase());
        let mut variants = Vec::new();
        if base_variant == "quick" || titles.quick.contains(&title) {
            variants.push("quick");
        }
        if base_variant == "complete" || titles.complete.contains(&title) {
            variants.push("complete");
        }
        for t in &topics {
            let ids = index.entry(t.clone()).or_default();
            if !ids.contains(&id) {
                ids.push(id.clone());
            }
        }
        sections.push(json!({
            "id": id,
            "title": title,
            "h1_marker": format!("# {title}"),
            "topics": topics,
            "size_bytes": (end - start) as u64,
            "variants": variants,
        }));
    }
    (sections, index)
}

/// The catalog's `metadata.variants`: each present variant (quick, standard, complete) →
/// its file.
fn variant_map(quick: bool, standard: bool, complete: bool) -> serde_json::Map<String, Json> {
    let mut vmap = serde_json::Map::new();
    for (present, v) in [
        (quick, "quick"),
        (standard, "standard"),
        (complete, "complete"),
    ] {
        if present {
            vmap.insert(v.into(), variant_file(v).into());
        }
    }
    vmap
}

/// `(name, version)` from the skill's SKILL.md frontmatter; the folder name and `"unknown"`
/// when absent.
fn skill_identity(dir: &Path) -> (String, String) {
    let folder = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let fm = SKILL_FILE_NAMES
        .iter()
        .find_map(|n| super::walk::inputs::read_to_string(&dir.join(n)).ok())
        .and_then(|t| crate::frontmatter::parse(&t));
    let name = fm
        .as_ref()
        .and_then(|f| f.name())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or(folder);
    let version = fm
        .as_ref()
        .and_then(|f| f.get("version").map(|e| e.value.as_text()))
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "unknown".into());
    (name, version)
}

/// Current UTC time as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso8601(secs)
}

/// Seconds since the Unix epoch → `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, UTC).
pub fn iso8601(secs: u64) -> String {
    let (y, m, d, h, mi, sec) = crate::util::utc::civil(secs);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{sec:02}Z")
}

/// Which llms variant `show --variant` reads (docs/FORMATS.md §1.2, the design's `detail`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// `llms-small.md`.
    Quick,
    /// `llms.md` (the link index).
    Standard,
    /// `llms-full.md`.
    Complete,
    /// Complete, unless the matched text is over [`AUTO_QUICK_ABOVE_BYTES`]; then quick.
    Auto,
}

impl Variant {
    /// Parse `quick|standard|complete|auto`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "quick" => Some(Self::Quick),
            "standard" => Some(Self::Standard),
            "complete" => Some(Self::Complete),
            "auto" => Some(Self::Auto),
            _ => None,
        }
    }

    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Quick => "quick",
            Self::Standard => "standard",
            Self::Complete => "complete",
            Self::Auto => "auto",
        }
    }
}

/// `auto` switches to quick when the complete match is larger than this (bytes; the
/// design's `> 50000`).
pub const AUTO_QUICK_ABOVE_BYTES: u64 = 50_000;

/// A section resolved in one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownSection {
    /// The variant actually used (never `Auto`).
    pub variant: Variant,
    /// The variant's file node.
    pub file: NodeId,
    /// The matched nodes: one `Part` for quick/complete, the matching `Link` nodes for
    /// standard. Their texts are the section (`Corpus::text`).
    pub nodes: Vec<NodeId>,
    /// Σ bytes of the matched texts (from their spans).
    pub bytes: u64,
}

/// The variant file nodes below `skill` (not inside duplicate or alias copies; variants are
/// flagged `variant` themselves, so that flag is not a reason to skip): `meta.variant` set by
/// the `Skill_Seekers` loader, else the file name.
fn variant_node(corpus: &Corpus, skill: NodeId, v: Variant) -> Option<NodeId> {
    let want = v.as_str();
    let file = variant_file(want);
    corpus.preorder(skill).into_iter().find(|n| {
        let node = corpus.node(n.to_owned());
        node.kind == NodeKind::File
            && !corpus.has_flag_inherited(*n, Flag::Duplicate)
            && !corpus.has_flag_inherited(*n, Flag::Alias)
            && (node.meta.get("variant").and_then(Json::as_str) == Some(want)
                || (node.title == file && node.format == Format::LlmsTxt))
    })
}

/// Whether node `n` is the section `key`: its title equals `key` or the title of the
/// catalog section whose id is `key`, or its title's [`section_id`] equals `key`.
fn matches(corpus: &Corpus, n: NodeId, key: &str, catalog_title: Option<&str>) -> bool {
    let t = &corpus.node(n).title;
    t == key || catalog_title.is_some_and(|c| c == t) || section_id(t) == key
}

/// Find section `id_or_title` of the skill `skill` (a node whose subtree holds the llms
/// variant files, e.g. the skill or its `references/` node) in `variant`.
///
/// The section is matched by exact title, or by id: a node id (`search` prints them; the
/// node's title is matched), a loaded catalog's section id, or the design id
/// ([`section_id`]) of a part's title. `quick`/`complete` give the first matching
/// H1 `Part` of `llms-small.md`/`llms-full.md`; `standard` gives every `Link` of `llms.md`
/// with that title (ASCII case-insensitive); `auto` gives complete, unless its part is over
/// [`AUTO_QUICK_ABOVE_BYTES`] or missing, then quick. Duplicate copies are never used.
///
/// Errors: [`Error::Usage`] naming the variant file when it is missing or has no such
/// section.
pub fn show_section(
    corpus: &Corpus,
    skill: NodeId,
    id_or_title: &str,
    variant: Variant,
) -> Result<ShownSection> {
    // A node id (as `search` prints it) stands for its section's title.
    let by_id = corpus
        .find(id_or_title)
        .map(|n| corpus.node(n).title.clone());
    let id_or_title = by_id.as_deref().unwrap_or(id_or_title);
    let catalog_title = corpus
        .preorder(skill)
        .into_iter()
        .find(|n| {
            let node = corpus.node(*n);
            node.format == Format::Catalog
                && node.kind == NodeKind::Group
                && node.meta.get("id").and_then(Json::as_str) == Some(id_or_title)
        })
        .map(|n| corpus.node(n).title.clone());
    let find_part = |v: Variant| -> Result<ShownSection> {
        let file = variant_node(corpus, skill, v).ok_or_else(|| {
            Error::Usage(format!(
                "no {} variant ({}) here",
                v.as_str(),
                variant_file(v.as_str())
            ))
        })?;
        let nodes: Vec<NodeId> = match v {
            Variant::Standard => {
                let title = catalog_title.as_deref().unwrap_or(id_or_title);
                corpus
                    .preorder(file)
                    .into_iter()
                    .filter(|n| {
                        let node = corpus.node(*n);
                        node.kind == NodeKind::Link
                            && (node.title.eq_ignore_ascii_case(title)
                                || section_id(&node.title) == id_or_title)
                    })
                    .collect()
            }
            _ => corpus
                .node(file)
                .children
                .iter()
                .copied()
                .find(|n| {
                    corpus.node(*n).kind == NodeKind::Part
                        && matches(corpus, *n, id_or_title, catalog_title.as_deref())
                })
                .into_iter()
                .collect(),
        };
        if nodes.is_empty() {
            return Err(Error::Usage(format!(
                "section '{id_or_title}' not found in {}",
                variant_file(v.as_str())
            )));
        }
        let bytes = nodes
            .iter()
            .filter_map(|n| corpus.node(*n).span)
            .map(|s| (s.end - s.start) as u64)
            .sum();
        Ok(ShownSection {
            variant: v,
            file,
            nodes,
            bytes,
        })
    };
    match variant {
        Variant::Auto => match find_part(Variant::Complete) {
            Ok(s) if s.bytes <= AUTO_QUICK_ABOVE_BYTES => Ok(s),
            Ok(big) => find_part(Variant::Quick).or(Ok(big)),
            Err(_) => find_part(Variant::Quick),
        },
        v => find_part(v),
    }
}
