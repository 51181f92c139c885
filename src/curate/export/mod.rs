//! Export a curated selection as a new Agent Skills folder (docs/FORMATS.md §3):
//! `SKILL.md` (frontmatter with a validated `name` equal to the folder name, and a
//! navigation skeleton: one table row per exposed section with its id, reference path,
//! one-line summary, token size and exposure level) plus `references/` holding the exposed
//! text, packed in order into files of at most `max_reference_bytes` bytes (a larger section
//! is split at line breaks). The SKILL.md body is kept under [`MAX_BODY_LINES`] lines and
//! [`MAX_BODY_TOKENS`] tokens (docs/FORMATS.md §3.4): rows that do not fit go to
//! `references/index.md`, which the body links. Optionally `assets/catalog.json` in the
//! active-skills schema (docs/FORMATS.md §1.6). The result is checked with
//! [`crate::skill::validate::validate_skill_md`] (spec profile) before returning.

mod layout;
pub mod links;

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::curate::exposure::{Exposure, ExposureMap};
use crate::error::{Error, Result};
use crate::model::{Corpus, NodeId};
use crate::skill::validate::{Profile, Severity, nfkc_trim, validate_skill_md};
use crate::tokens::TokenCounter;

/// SKILL.md body line limit (spec guidance, docs/FORMATS.md §3.4).
pub const MAX_BODY_LINES: usize = 500;
/// SKILL.md body token limit (spec guidance, docs/FORMATS.md §3.4).
pub const MAX_BODY_TOKENS: u64 = 5_000;
/// Default size limit of one reference file, in bytes.
pub const DEFAULT_MAX_REFERENCE_BYTES: usize = 32 * 1024;
/// Most tokens of `always` sections written into the SKILL.md body (the rest become
/// reference files like the others).
pub const ALWAYS_BODY_TOKENS: u64 = 2_000;

/// Options of [`export_skill`].
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// Frontmatter description (trimmed; cut to 1 024 chars). `None`: a generated one
    /// naming the section count and the first section titles.
    pub description: Option<String>,
    /// Size limit of each reference file in bytes (minimum 256).
    pub max_reference_bytes: usize,
    /// Also write `assets/catalog.json`.
    pub with_catalog: bool,
    /// Replace an existing non-empty folder.
    pub force: bool,
    /// Token counter for the table and the body limit.
    pub counter: TokenCounter,
}

/// One exported section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportedSection {
    /// Source node id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Reference file(s) holding its text, relative to the skill folder.
    pub references: Vec<String>,
    /// One-line summary.
    pub summary: String,
    /// Tokens of its source as stored, the tree's number for the node
    /// ([`crate::curate::units::source_size`], docs/DESIGN.md §2 Sizes).
    pub tokens: u64,
    /// Bytes of its source as stored, the tree's number for the node (a reference file
    /// holding the whole section has exactly these bytes unless the export changed its
    /// text: docs/FORMATS.md §14).
    pub bytes: u64,
    /// Effective exposure level.
    pub exposure: Exposure,
}

/// What [`export_skill`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportReport {
    /// The skill folder.
    pub dir: PathBuf,
    /// The skill name (= folder name).
    pub name: String,
    /// Files written, relative to `dir`, in write order.
    pub files: Vec<String>,
    /// The sections, in order.
    pub sections: Vec<ExportedSection>,
    /// SKILL.md body lines and tokens.
    pub body_lines: usize,
    /// SKILL.md body tokens.
    pub body_tokens: u64,
    /// Validation warnings (spec profile) of the written SKILL.md (errors abort instead),
    /// then relative links to files left out of the export ([`crate::curate::export::links`]).
    pub warnings: Vec<String>,
}

/// The sections an export holds: `always` units, then `units` in order, without `hidden`
/// ones, copies, duplicates, or units inside an already listed one.
pub fn exported_units(corpus: &Corpus, units: &[NodeId], exposure: &ExposureMap) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = exposure.always_units(corpus);
    for &u in units {
        if u.ix() >= corpus.len()
            || exposure.level(corpus, u) == Exposure::Hidden
            || corpus.is_copy(u)
        {
            continue;
        }
        if out.iter().any(|o| corpus.is_within(u, *o)) {
            continue;
        }
        // A selected unit holding `always` units carries their text: list it once.
        out.retain(|o| !corpus.is_within(*o, u));
        out.push(u);
    }
    out
}

/// `text` with each ATX heading (outside fenced code) one level deeper, at most `######`, so
/// sections placed under the SKILL.md body's `## Always loaded` nest below it.
fn demote_headings(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
        } else if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
        } else if line.starts_with('#') {
            let hashes = line.chars().take_while(|c| *c == '#').count();
            if hashes < 6 && line[hashes..].starts_with([' ', '\t', '\n']) {
                out.push('#');
            }
        }
        out.push_str(line);
    }
    out
}

/// A file of `corpus` (its absolute source path) inside the folder `dir`, if any: replacing
/// `dir` would delete it.
pub fn open_file_inside<'c>(corpus: &'c Corpus, dir: &Path) -> Option<&'c Path> {
    let real = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    corpus
        .sources
        .iter()
        .filter_map(|s| s.abs_path.as_deref())
        .find(|p| p.starts_with(&real))
}

/// The description an export gets when none is given: where the sections come from (their
/// skills, else their roots), what they are about (the first five `topic`s: a KEP's name
/// for its Summary and Motivation, not the section titles) and the count, then when to use
/// it. Also what the TUI's description prompt is prefilled with.
pub fn default_description(corpus: &Corpus, units: &[NodeId], exposure: &ExposureMap) -> String {
    describe(corpus, &exported_units(corpus, units, exposure))
}

/// The skill name an export of `units` defaults to (the TUI's folder prompt is prefilled
/// with it): the sections' one `topic` as a name (`kep-3521-pod-scheduling-readiness`),
/// `<skill>-curated` when that topic is a skill's name or the sections come from one skill
/// (a copy must not take its source's name), else `curated-skill`; at most 64 chars, cut at
/// a `-`. Always a valid skill name.
pub fn default_name(corpus: &Corpus, units: &[NodeId], exposure: &ExposureMap) -> String {
    let picked = exported_units(corpus, units, exposure);
    let mut topics: Vec<(String, bool)> = picked.iter().map(|id| topic(corpus, *id)).collect();
    topics.dedup();
    let skill_of = |id: NodeId| {
        std::iter::once(id)
            .chain(corpus.ancestors(id))
            .find(|a| corpus.node(*a).kind == crate::model::NodeKind::Skill)
    };
    let mut skills: Vec<Option<NodeId>> = picked.iter().map(|id| skill_of(*id)).collect();
    skills.dedup();
    let base = match (topics.as_slice(), skills.as_slice()) {
        ([(t, false)], _) => name_of(t),
        ([(t, true)], _) => format!("{}-curated", name_of(t)),
        (_, [Some(s)]) => format!("{}-curated", name_of(&corpus.node(*s).title)),
        _ => String::new(),
    };
    let mut name = base;
    if name.len() > 64 {
        let cut = name[..65].rfind('-').filter(|i| *i > 0).unwrap_or(64);
        name.truncate(cut);
    }
    let name = name.trim_matches('-').to_string();
    if name.is_empty() || !crate::skill::name_problems(&name).is_empty() {
        return "curated-skill".into();
    }
    name
}

/// `text` as a skill name: ASCII letters and digits lower-cased, every other run of
/// characters one `-` (`KEP-3521: Pod Scheduling Readiness` → `kep-3521-pod-scheduling-readiness`).
fn name_of(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// What a section is about, and whether that is a skill's name: the title of its outermost
/// enclosing section (the KEP's name above its Summary), else for a skill's `SKILL.md` the
/// skill's name, else its file's: the file's one top-level heading, a `README.md`'s or
/// `index.md`'s folder, else the file's title.
fn topic(corpus: &Corpus, id: NodeId) -> (String, bool) {
    use crate::model::NodeKind;
    let outer = corpus
        .ancestors(id)
        .take_while(|a| corpus.node(*a).kind == NodeKind::Section)
        .last();
    if let Some(s) = outer {
        return (display_title(corpus, s), false);
    }
    let n = corpus.node(id);
    let file = match n.parent {
        Some(p) if n.kind != NodeKind::File => p,
        _ => id,
    };
    let f = corpus.node(file);
    if let Some(skill) = f
        .parent
        .filter(|_| f.title.eq_ignore_ascii_case("SKILL.md"))
        && corpus.node(skill).kind == NodeKind::Skill
    {
        return (display_title(corpus, skill), true);
    }
    let heads: Vec<NodeId> = f
        .children
        .iter()
        .copied()
        .filter(|c| corpus.node(*c).kind == NodeKind::Section)
        .collect();
    let generic = ["readme.md", "index.md", "readme", "_index.md"]
        .contains(&f.title.to_ascii_lowercase().as_str());
    let t = match (heads.as_slice(), f.parent) {
        ([one], _) => display_title(corpus, *one),
        (_, Some(dir)) if generic && corpus.node(dir).kind != NodeKind::Root => {
            display_title(corpus, dir)
        }
        _ => display_title(corpus, file),
    };
    (t, false)
}

/// [`default_description`] of the sections `picked` (already [`exported_units`]).
fn describe(corpus: &Corpus, picked: &[NodeId]) -> String {
    let mut titles: Vec<String> = Vec::new();
    let mut sources: Vec<String> = Vec::new();
    for &id in picked {
        let t = topic(corpus, id).0;
        if !titles.contains(&t) {
            titles.push(t);
        }
        let src = source_name(corpus, id);
        if !src.is_empty() && !sources.contains(&src) {
            sources.push(src);
        }
    }
    let n = picked.len();
    let more = if titles.len() > 5 { ", …" } else { "" };
    titles.truncate(5);
    let from = match sources.len() {
        0 => String::new(),
        1..=3 => format!(" from {}", sources.join(", ")),
        k => format!(" from {}, … ({k} sources)", sources[..3].join(", ")),
    };
    format!(
        "Curated documentation{from} on {}{more} ({n} section{}). Use when a task needs these topics; read the referenced file of a section only when needed.",
        titles.join(", "),
        if n == 1 { "" } else { "s" },
    )
}

/// What a section comes from: its skill's name, else its root's label (empty when it is a
/// root itself).
fn source_name(corpus: &Corpus, id: NodeId) -> String {
    let skill = std::iter::once(id)
        .chain(corpus.ancestors(id))
        .find(|a| corpus.node(*a).kind == crate::model::NodeKind::Skill);
    let node = match skill {
        Some(s) => s,
        None => match corpus.ancestors(id).last() {
            Some(root) => root,
            None => return String::new(),
        },
    };
    corpus.node(node).title.replace(['\n', '\r'], " ")
}

/// The title a section is known by: a `SKILL.md` file goes by its skill's name.
fn display_title(corpus: &Corpus, id: NodeId) -> String {
    let n = corpus.node(id);
    let skill_md =
        n.kind == crate::model::NodeKind::File && n.title.eq_ignore_ascii_case("SKILL.md");
    let node_id;
    let title = match n.parent.filter(|_| skill_md) {
        Some(p) => corpus.node(p).title.as_str(),
        None if n.title.trim().is_empty() => {
            node_id = corpus.id(id);
            node_id.as_str()
        }
        None => n.title.as_str(),
    };
    title.replace(['\n', '\r'], " ")
}

/// `s` cut to at most `max` chars at a word boundary, with `…` when cut; markdown links
/// and images keep only their text (a table row's link would point anywhere).
fn cut_words(s: &str, max: usize) -> String {
    let s = &crate::curate::export::links::strip_links(s);
    if s.chars().count() <= max {
        return s.clone();
    }
    let head: String = s.chars().take(max.saturating_sub(1)).collect();
    let cut = head
        .rfind(' ')
        .filter(|i| *i > max / 2)
        .map_or(head.as_str(), |i| &head[..i]);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

fn slug(s: &str) -> String {
    let s = s
        .strip_suffix(".md")
        .or_else(|| s.strip_suffix(".txt"))
        .unwrap_or(s);
    let s = crate::model::id::slug(s);
    // At most SLUG_CHARS, cut at a `-` (a word boundary) when one falls in the second half.
    let s: String = if s.chars().count() > SLUG_CHARS {
        let head: String = s.chars().take(SLUG_CHARS + 1).collect();
        match head.rfind('-').filter(|i| *i > SLUG_CHARS / 2) {
            Some(i) => head[..i].to_string(),
            None => s.chars().take(SLUG_CHARS).collect(),
        }
    } else {
        s
    };
    if s.is_empty() {
        "section".into()
    } else {
        s.trim_end_matches('-').to_string()
    }
}

/// Longest reference file name stem after its `NN-` number, in chars.
const SLUG_CHARS: usize = 40;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// Split `text` into pieces of at most `max` bytes at line breaks (a single longer line is
/// cut at a char boundary).
fn split_text(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.split_inclusive('\n') {
        let mut line = line;
        while line.len() > max {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            let mut cut = max;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            out.push(line[..cut].to_string());
            line = &line[cut..];
        }
        if cur.len() + line.len() > max {
            out.push(std::mem::take(&mut cur));
        }
        cur.push_str(line);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The text a section contributes: its full text as stored, without hidden sub-sections
/// ([`ExposureMap::visible_text`]), without a leading frontmatter block and leading blank
/// lines, with `# <title>` and a blank line prepended when it does not start with a heading
/// (so reopening the export shows it as a section of its own), and a final `\n` when it
/// has none. A section that starts with its heading keeps its bytes (docs/DESIGN.md §2
/// Sizes).
fn section_text(corpus: &Corpus, exposure: &ExposureMap, id: NodeId) -> String {
    let n = corpus.node(id);
    let full = exposure.visible_text(corpus, id);
    // A SKILL.md's frontmatter is the source skill's metadata, not documentation: the table
    // row carries its description.
    let start = crate::frontmatter::parse(&full)
        .filter(|fm| fm.block.end > 0)
        .map_or(0, |fm| fm.block.end);
    let body = full
        .get(start..)
        .unwrap_or("")
        .trim_start_matches(['\n', '\r']);
    let title = if n.title.trim().is_empty() {
        corpus.id(id)
    } else {
        n.title.clone()
    };
    let end = if body.ends_with('\n') { "" } else { "\n" };
    if body.starts_with('#') {
        format!("{body}{end}")
    } else {
        format!("# {}\n\n{body}{end}", title.replace(['\n', '\r'], " "))
    }
}

/// Join consecutive `pieces` (each at most `max` bytes) into as few parts of at most `max`
/// bytes as a first-fit in order gives, separated by a blank line.
fn pack(pieces: Vec<String>, max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in pieces {
        match out.last_mut() {
            Some(last) if last.len() + 1 + p.len() <= max => {
                last.push('\n');
                last.push_str(&p);
            }
            _ => out.push(p),
        }
    }
    out
}

/// Pieces of a section larger than `max` bytes: its own text (up to its first
/// sub-section), then each sub-section, recursively, so each piece starts at a heading;
/// only a heading-less run longer than `max` is cut at line breaks (its continuation
/// pieces then start mid-text).
fn split_section(corpus: &Corpus, exposure: &ExposureMap, id: NodeId, max: usize) -> Vec<String> {
    let text = exposure.visible_text(corpus, id);
    let n = corpus.node(id);
    if text.len() <= max || n.children.is_empty() || n.span.is_none() {
        return split_text(&section_text(corpus, exposure, id), max);
    }
    let mut out = Vec::new();
    let own_full = corpus.own_text(id);
    let start = crate::frontmatter::parse(own_full)
        .filter(|fm| fm.block.end > 0)
        .map_or(0, |fm| fm.block.end);
    let own = own_full.get(start..).unwrap_or("").trim_end();
    if !own.trim().is_empty() {
        out.extend(split_text(
            &format!("{}\n", own.trim_start_matches('\n')),
            max,
        ));
    }
    for c in &n.children {
        if corpus.node(*c).span.is_some() && exposure.level(corpus, *c) != Exposure::Hidden {
            out.extend(split_section(corpus, exposure, *c, max));
        }
    }
    out
}

/// Export `units` (e.g. a recipe's selection units) of `corpus` as a skill in `dir`, whose
/// folder name is the skill name. Errors: `Usage` when the folder name is not a valid skill
/// name (lower-case letters, digits, single `-`, 1–64 chars), when nothing is exposed, or
/// when `dir` is a non-empty folder without `force`; `Refused` when `dir` holds any file of
/// `corpus` (replacing it would delete the sources); `Io` on write failures; `Refused` when
/// the written SKILL.md fails spec validation (not expected; reported with the findings).
pub fn export_skill(
    corpus: &Corpus,
    units: &[NodeId],
    exposure: &ExposureMap,
    dir: &Path,
    opts: &ExportOptions,
) -> Result<ExportReport> {
    export_with(corpus, units, exposure, dir, opts, false)
}

/// [`export_skill`] as an *active* skill: the table's ids are the ids the sections have in
/// the exported skill itself (`<name>/references/01-x.md`), and the body tells the agent to
/// fetch sections with `skillnav search`, `show` and `brief` run in the skill's base
/// directory (or the MCP tools) instead of reading `references/` wholesale. Same errors.
pub fn export_active_skill(
    corpus: &Corpus,
    units: &[NodeId],
    exposure: &ExposureMap,
    dir: &Path,
    opts: &ExportOptions,
) -> Result<ExportReport> {
    export_with(corpus, units, exposure, dir, opts, true)
}

/// How an active skill's agent fetches sections (commands run in the skill's folder).
fn active_howto(name: &str) -> String {
    format!(
        "## How to read this skill\n\n\
Do not read `references/` wholesale. From this skill's base directory, pull only the sections a task needs:\n\n\
1. `skillnav search \"<a few words>\" . --json`: hits with ids, paths and token sizes.\n\
2. `skillnav show <id> .`: one section's text (ids from the search, or from the table below).\n\
3. `skillnav brief . --query \"<question>\" --max-tokens 4000`: the best sections packed into one brief.\n\n\
With the skillnav MCP server (`skillnav mcp` on this folder), call its `search`, `read` and `brief` tools instead. \
Ids look like `{name}/references/01-topic.md`.\n\n"
    )
}

/// The export's steps: check the target, lay the sections out into files and the
/// SKILL.md body, write them, and validate what was written.
fn export_with(
    corpus: &Corpus,
    units: &[NodeId],
    exposure: &ExposureMap,
    dir: &Path,
    opts: &ExportOptions,
    active: bool,
) -> Result<ExportReport> {
    let name = checked_name(dir)?;
    let picked = exported_units(corpus, units, exposure);
    if picked.is_empty() {
        return Err(Error::Usage(
            "nothing to export: the selection has no exposed sections".into(),
        ));
    }
    clear_target(corpus, dir, opts)?;
    let refs_dir = dir.join("references");
    std::fs::create_dir_all(&refs_dir).map_err(|e| Error::io(&refs_dir, e))?;
    let max = opts.max_reference_bytes.max(256);
    let mut laid = layout::lay_out(corpus, exposure, &picked, max, opts.counter);
    let mut link_warnings = Vec::new();
    let always_body = laid.rewrite_links(&mut link_warnings);
    let description = opts
        .description
        .clone()
        .map(|d| d.trim().to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| describe(corpus, &picked));
    let description: String = description.chars().take(1024).collect();
    let table = layout::SkillTable {
        name: &name,
        sections: &laid.sections,
        active,
        counter: opts.counter,
    };
    let (body, index) = table.body(&always_body);
    laid.files.extend(index);
    let skill_md = format!(
        "---\nname: {name}\ndescription: {}\n---\n\n{body}",
        yaml_scalar(&description)
    );
    let written = write_skill(dir, &laid.files, &skill_md)?;
    let written = write_catalog(dir, opts, written, &name, &laid.sections, corpus, &picked)?;
    let body_tokens = opts.counter.count(&body);
    let findings = validate_written(dir, &skill_md, &name, body_tokens)?;
    Ok(ExportReport {
        dir: dir.to_path_buf(),
        name,
        files: written,
        body_lines: body.trim_matches('\n').lines().count(),
        body_tokens,
        sections: laid.sections,
        warnings: findings.into_iter().chain(link_warnings).collect(),
    })
}

/// The skill name `dir`'s folder name gives. Errors: `Refused` for a read-only folder (a
/// remote source's cache); `Usage` when the name breaks the spec's name rule or is not
/// ASCII (the name is also the folder written).
fn checked_name(dir: &Path) -> Result<String> {
    if let Some(reason) = crate::remote::cache::read_only_reason(dir) {
        return Err(Error::Refused(reason));
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ok_name = name.is_ascii()
        && nfkc_trim(&name) == name
        && crate::skill::name_problems(&name).is_empty();
    if !ok_name {
        return Err(Error::Usage(format!(
            "{}: the folder name is the skill name and must be 1-64 of a-z 0-9 and single '-'",
            dir.display()
        )));
    }
    Ok(name)
}

/// Make `dir` ready to be written: a missing or empty folder is fine; a non-empty one is
/// removed with `opts.force`. Errors: `Usage` when `dir` is a file or a non-empty folder
/// without `force`; `Refused` when it holds a file open in `corpus` (never delete what is
/// being exported or browsed); `Io` when it cannot be removed.
fn clear_target(corpus: &Corpus, dir: &Path, opts: &ExportOptions) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{}: exists and is not a folder",
            dir.display()
        )));
    }
    if dir.exists() && std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_some()) {
        if let Some(open) = open_file_inside(corpus, dir) {
            return Err(Error::Refused(format!(
                "{}: holds files that are open in skillnav (e.g. {}); export into another folder",
                dir.display(),
                open.display()
            )));
        }
        if !opts.force {
            return Err(Error::Usage(format!(
                "{}: folder exists and is not empty (use --force)",
                dir.display()
            )));
        }
        std::fs::remove_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    Ok(())
}

/// Write `files` (paths relative to `dir`) and `SKILL.md`; the files written, SKILL.md
/// first. Errors: `Io`.
fn write_skill(dir: &Path, files: &[(String, String)], skill_md: &str) -> Result<Vec<String>> {
    let mut written = Vec::new();
    for (file, text) in files {
        let p = dir.join(file);
        std::fs::write(&p, text).map_err(|e| Error::io(&p, e))?;
        written.push(file.clone());
    }
    let skill_path = dir.join("SKILL.md");
    std::fs::write(&skill_path, skill_md).map_err(|e| Error::io(&skill_path, e))?;
    written.insert(0, "SKILL.md".into());
    Ok(written)
}

/// With `opts.with_catalog`, write `assets/catalog.json` and add it to `written`.
/// Errors: `Io`.
fn write_catalog(
    dir: &Path,
    opts: &ExportOptions,
    mut written: Vec<String>,
    name: &str,
    sections: &[ExportedSection],
    corpus: &Corpus,
    picked: &[NodeId],
) -> Result<Vec<String>> {
    if opts.with_catalog {
        let catalog = catalog_json(name, sections, corpus, picked);
        let assets = dir.join("assets");
        std::fs::create_dir_all(&assets).map_err(|e| Error::io(&assets, e))?;
        let p = assets.join("catalog.json");
        let text = serde_json::to_string_pretty(&catalog).unwrap_or_default() + "\n";
        std::fs::write(&p, text).map_err(|e| Error::io(&p, e))?;
        written.push("assets/catalog.json".into());
    }
    Ok(written)
}

/// The spec validation of the written `skill_md`: its warnings' messages. Errors:
/// `Refused` naming the findings when it has errors (not expected).
fn validate_written(
    dir: &Path,
    skill_md: &str,
    name: &str,
    body_tokens: u64,
) -> Result<Vec<String>> {
    let findings = validate_skill_md(skill_md, name, Some(body_tokens), Profile::Spec);
    let errors: Vec<String> = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.message.clone())
        .collect();
    if !errors.is_empty() {
        return Err(Error::Refused(format!(
            "{}: exported SKILL.md fails validation: {}",
            dir.display(),
            errors.join("; ")
        )));
    }
    Ok(findings.into_iter().map(|f| f.message).collect())
}

/// A description as a YAML scalar: plain when safe, else double-quoted.
fn yaml_scalar(s: &str) -> String {
    use crate::frontmatter::quote::{Context, Quoting, least_quoting, render};
    let q = least_quoting(s, Context::Block);
    let q = if q == Quoting::Plain {
        q
    } else {
        Quoting::Double
    };
    render(s, q, Context::Block)
}

/// The active-skills catalog (docs/FORMATS.md §1.6) of an export: one section per exported
/// section (`id` = the design's id of the title, deduplicated; `topics` = lower-cased
/// titles of the section and its sub-sections; `size_bytes` = bytes of its text;
/// `variants` = `[]`, plus `reference` = its first reference file), no llms variants.
fn catalog_json(
    name: &str,
    sections: &[ExportedSection],
    corpus: &Corpus,
    picked: &[NodeId],
) -> serde_json::Value {
    let mut taken = crate::model::id::Taken::default();
    let mut index: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut out = Vec::new();
    for (s, &node) in sections.iter().zip(picked) {
        let id =
            crate::model::id::dedupe(&crate::formats::catalog::section_id(&s.title), &mut taken);
        let mut topics: Vec<String> = corpus
            .node(node)
            .children
            .iter()
            .map(|c| corpus.node(*c).title.to_lowercase())
            .collect();
        topics.push(s.title.to_lowercase());
        for t in &topics {
            let ids = index.entry(t.clone()).or_default();
            if !ids.contains(&id) {
                ids.push(id.clone());
            }
        }
        out.push(json!({
            "id": id,
            "title": s.title,
            "h1_marker": format!("# {}", s.title),
            "topics": topics,
            "size_bytes": s.bytes,
            "variants": [],
            "reference": s.references.first(),
        }));
    }
    json!({
        "metadata": {
            "framework": name,
            "version": "unknown",
            "generated": crate::formats::catalog::now_iso8601(),
            "total_sections": out.len(),
            "variants": {},
        },
        "sections": out,
        "search_index": index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_demoted_outside_code_fences_only() {
        let text = "## Record\n\nText #1\n\n```sh\n# a comment\n```\n###### Deepest\n#hashtag\n";
        assert_eq!(
            demote_headings(text),
            "### Record\n\nText #1\n\n```sh\n# a comment\n```\n###### Deepest\n#hashtag\n"
        );
    }

    #[test]
    fn summaries_are_cut_at_a_word_with_an_ellipsis() {
        assert_eq!(cut_words("short", 160), "short");
        assert_eq!(
            cut_words("Use it when brand colors or style guidelines apply", 24),
            "Use it when brand…"
        );
    }
}
