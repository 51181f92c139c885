//! The llms.txt family (docs/FORMATS.md §7): the `llms.txt` link index, the `llms-ctx*.txt`
//! expanded form (`<project>` + `<doc>` elements) and concatenated `llms-full`/`llms-small` files.
//!
//! Owns: the pure parsers [`parse_llms_txt`] (`index`) and [`parse_llms_ctx`] (`ctx`), the H1
//! splitter [`split_full`] (`full`), file detection [`detect_file`] and the loaders
//! [`load_file`] / [`add_nodes`] (here), with local llms.txt files linked from an index
//! loaded below their links. `shared` hosts helpers used by all
//! loaders ([`add_text_file`], [`LineIndex`], [`nest_headings`]).
//!
//! The parsers are lenient where the reference parser (`AnswerDotAI/llms-txt`
//! `llms_txt/core.py`) raises: prose-only sections, text before a link, notes without a
//! colon, stray `###` lines and a file that is only `# Title` all parse; oddities become
//! warnings with 1-based line numbers.

mod ctx;
mod full;
mod index;
mod shared;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use ctx::{CtxDoc, LlmsCtx, decode_entities, parse_llms_ctx};
pub use full::{FullSplit, split_full};
pub use index::{LlmsLink, LlmsSection, LlmsTxt, parse_link_line, parse_llms_txt};
pub(crate) use shared::first_line;
pub use shared::{LineIndex, add_text_file, nest_headings};

use crate::formats::sections::{self, Heading};
use crate::formats::walk::loader::{Loader, file_format, read_head};
use crate::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, SourceId, TextSpan, Warning, id};
use full::preamble_title;

/// Which member of the llms.txt family a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlmsKind {
    /// The `llms.txt` link index (H1, blockquote, H2 link lists).
    Index,
    /// An `llms-ctx*.txt` (`<project>` + `<doc>` elements).
    Ctx,
    /// A concatenated `llms-full`/`llms-small` file (many H1s, maybe a `<SYSTEM>` line).
    Full,
}

/// Classify a file of the llms.txt family from its name and first bytes (`head`, at least
/// the first line; more is fine). `None` for anything else.
///
/// Rules (docs/FORMATS.md §7, §1.2): content starting with `<project` → [`LlmsKind::Ctx`]; the file
/// name must otherwise contain `llms` and end in `.txt`, or start with `llms` and end in
/// `.md` (`Skill_Seekers`' renamed copies); content starting with
/// `<SYSTEM>` or a name containing `-full`/`-small`/`-medium` → [`LlmsKind::Full`]; a name
/// containing `-ctx` (without `<project`) → `Full`; otherwise (`llms.txt`, `llms.md`) →
/// [`LlmsKind::Index`].
pub fn detect_file(path: &Path, head: &str) -> Option<LlmsKind> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    let head = head.strip_prefix('\u{feff}').unwrap_or(head).trim_start();
    let llms_name = (name.starts_with("llms") && name.ends_with(".md"))
        || (name.contains("llms") && name.ends_with(".txt"));
    if head.starts_with("<project") && (llms_name || name.ends_with(".txt")) {
        return Some(LlmsKind::Ctx);
    }
    if !llms_name {
        return None;
    }
    if head.starts_with("<SYSTEM>")
        || ["-full", "-small", "-medium", "-ctx"]
            .iter()
            .any(|k| name.contains(k))
    {
        return Some(LlmsKind::Full);
    }
    Some(LlmsKind::Index)
}

/// Whether a file met by the walk (`name` lower-case) is a member of the llms family: a
/// doc file (markdown or `.txt`) whose name contains `llms` and which [`detect_file`]
/// recognises from its first 256 bytes.
pub(crate) fn detect_walk_file(name: &str, path: &Path) -> bool {
    name.contains("llms")
        && file_format(name) != Format::Asset
        && detect_file(path, &read_head(path, 256)).is_some()
}

/// [`load_file`] as a format-table loader.
pub(crate) fn load_walk_file(
    ld: &mut Loader<'_>,
    parent: NodeId,
    path: &Path,
    rel: &str,
) -> NodeId {
    load_file(&mut ld.corpus, parent, path, rel)
}

/// Read `abs` as a member of the llms family and add it under `parent` as a `File` node
/// (format `llms_txt`) with its structure (see [`add_nodes`]). The kind comes from
/// [`detect_file`]; a file it does not recognise is loaded as [`LlmsKind::Index`]. Returns
/// the file node.
///
/// An `llms.txt` index whose links point to other local llms.txt indexes (a relative URL
/// whose file name contains `llms` and ends in `.txt`, found in the folder of the first
/// file or below it, and detected as [`LlmsKind::Index`]) opens as one tree: each linked file is loaded below its `Link` node,
/// recursively, each file once (cycles and repeats are skipped), at most
/// [`MAX_NESTED_FILES`] files.
pub fn load_file(corpus: &mut Corpus, parent: NodeId, abs: &Path, rel: &str) -> NodeId {
    let base = abs.parent().and_then(|p| std::fs::canonicalize(p).ok());
    let mut seen = HashSet::new();
    load_file_in(corpus, parent, abs, rel, base.as_deref(), &mut seen)
}

/// Most llms.txt files one [`load_file`] reads through nested links.
pub const MAX_NESTED_FILES: usize = 64;

fn load_file_in(
    corpus: &mut Corpus,
    parent: NodeId,
    abs: &Path,
    rel: &str,
    base: Option<&Path>,
    seen: &mut HashSet<PathBuf>,
) -> NodeId {
    seen.insert(std::fs::canonicalize(abs).unwrap_or_else(|_| abs.to_path_buf()));
    let (file, src) = add_text_file(corpus, parent, abs, rel, Format::LlmsTxt);
    if let Some(src) = src {
        let head: String = corpus.sources[src.0 as usize]
            .text()
            .chars()
            .take(256)
            .collect();
        let kind = detect_file(abs, &head).unwrap_or(LlmsKind::Index);
        add_nodes(corpus, file, src, kind);
        if kind == LlmsKind::Index
            && let Some(base) = base
        {
            load_nested(corpus, file, abs, rel, base, seen);
        }
    }
    file
}

/// The local path of a link URL that names an llms.txt file: relative (no scheme, not
/// starting with `/` or `#`), query and fragment cut, file name containing `llms` and
/// ending in `.txt`.
pub fn local_llms_link(url: &str) -> Option<&str> {
    let url = url.split(['#', '?']).next()?.trim();
    if url.is_empty()
        || url.contains("://")
        || url.starts_with(['/', '#'])
        || url.starts_with("mailto:")
    {
        return None;
    }
    let name = url.rsplit('/').next()?.to_ascii_lowercase();
    (name.contains("llms") && name.ends_with(".txt")).then_some(url)
}

fn load_nested(
    corpus: &mut Corpus,
    file: NodeId,
    abs: &Path,
    rel: &str,
    base: &Path,
    seen: &mut HashSet<PathBuf>,
) {
    let Some(dir) = abs.parent() else { return };
    let links: Vec<(NodeId, String)> = corpus
        .preorder(file)
        .into_iter()
        .filter(|n| corpus.node(*n).kind == NodeKind::Link)
        .filter_map(|n| {
            corpus
                .node(n)
                .meta
                .get("url")
                .and_then(|u| u.as_str())
                .map(|u| (n, u.to_string()))
        })
        .collect();
    let rel_dir = rel.rsplit_once('/').map_or("", |(d, _)| d);
    for (link, url) in links {
        let Some(local) = local_llms_link(&url) else {
            continue;
        };
        let local = local.trim_start_matches("./");
        let target = dir.join(local);
        let Ok(real) = std::fs::canonicalize(&target) else {
            continue;
        };
        if !real.is_file()
            || !real.starts_with(base)
            || seen.contains(&real)
            || seen.len() >= MAX_NESTED_FILES
        {
            continue;
        }
        // Only link indexes nest: a linked llms-full.txt stays a page of its own.
        if detect_file(&real, &read_head(&real, 256)) != Some(LlmsKind::Index) {
            continue;
        }
        let Some(child_rel) = normalize_rel(rel_dir, local) else {
            continue;
        };
        load_file_in(corpus, link, &target, &child_rel, Some(base), seen);
    }
}

/// `dir/rel` with `.` and `..` resolved; `None` when it climbs above the top.
fn normalize_rel(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Add the structure of an llms-family file under its already-created `File` node `file`
/// whose text is source `src` (the whole file). The file node's `path` is used for the
/// children. After this the file's `own_end` is the start of its first child.
///
/// - [`LlmsKind::Index`]: a `Section` (level 1, the H1 title, spanning the header; summary
///   = the blockquote, detail = the info text), then per H2 a `Group` (seg = slug of the
///   name) holding one `Link` per entry (seg `link-<n>`, n counted 1.. over the whole file;
///   title; summary = notes; `meta.url`; span = the list line). A section without links is
///   a level-2 `Section` instead. The `Optional` section's group and links are flagged
///   `optional`. The file's summary is the blockquote.
/// - [`LlmsKind::Ctx`]: a header `Section` (project title, summary, info), then per section
///   element a `Group` holding one `Part` per `<doc>` (seg `part-<n>`, summary = desc,
///   span = the doc's content), holding the content's headings as sections nested by level
///   (a lone title heading opening the content stays the part's own text). An `optional`
///   element's group and parts are flagged.
/// - [`LlmsKind::Full`]: a `Part` for the preamble (the `<SYSTEM>` line) and one `Part` per
///   H1 (seg `part-<n>`, fence-aware via [`sections::headings`]), each holding its H2–H6
///   sections nested by level.
///
/// Parser warnings go to the file node with their line numbers.
pub fn add_nodes(corpus: &mut Corpus, file: NodeId, src: SourceId, kind: LlmsKind) {
    let text = corpus.sources[src.0 as usize].read_text();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let path = corpus.node(file).path.clone();
    let li = LineIndex::new(&text);
    let first_child_start = match kind {
        LlmsKind::Index => add_index_nodes(corpus, file, src, &text, bom, &path, &li),
        LlmsKind::Ctx => add_ctx_nodes(corpus, file, src, &text, &path, &li),
        LlmsKind::Full => add_full_nodes(corpus, file, src, &text, &path, &li),
    };
    if let Some(span) = &mut corpus.node_mut(file).span {
        span.own_end = first_child_start
            .unwrap_or(span.end)
            .clamp(span.start, span.end);
    }
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "the shape of `Node::span`, which callers assign"
)]
fn span(src: SourceId, start: usize, own_end: usize, end: usize) -> Option<TextSpan> {
    Some(TextSpan {
        source: src,
        start,
        own_end,
        end,
    })
}

fn add_index_nodes(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    text: &str,
    bom: usize,
    path: &str,
    li: &LineIndex,
) -> Option<usize> {
    let parsed = parse_llms_txt(&text[bom..]);
    let fmt = Format::LlmsTxt;
    for (line, msg) in &parsed.warnings {
        corpus
            .node_mut(file)
            .warnings
            .push(Warning::at(msg.clone(), path, Some(*line)));
    }
    let header_end = bom + parsed.header_end;
    let title = parsed
        .title
        .clone()
        .unwrap_or_else(|| corpus.node(file).title.clone());
    if let Some(s) = &parsed.summary {
        corpus.node_mut(file).summary = s.clone();
    }
    let mut first = None;
    if !text[..header_end].trim().is_empty() {
        let mut head = Node::new(NodeKind::Section, fmt, title.clone(), path);
        head.seg = Some(id::slug(&title).into());
        head.level = 1;
        head.summary = parsed.summary.clone().unwrap_or_default();
        head.detail = (!parsed.info.is_empty()).then(|| parsed.info.as_str().into());
        head.line_start = Some(li.line(bom));
        head.line_end = Some(li.last_line(bom, header_end));
        head.span = span(src, bom, header_end, header_end);
        corpus.add_child(file, head);
        first = Some(bom);
    }
    let mut n = 0;
    for sec in &parsed.sections {
        let (start, end) = (bom + sec.start, bom + sec.end);
        first.get_or_insert(start);
        let name = if sec.name.is_empty() {
            "section".to_string()
        } else {
            sec.name.clone()
        };
        let mut g = Node::new(
            if sec.links.is_empty() {
                NodeKind::Section
            } else {
                NodeKind::Group
            },
            fmt,
            name.clone(),
            path,
        );
        g.seg = Some(id::slug(&name).into());
        g.level = if sec.links.is_empty() { 2 } else { 0 };
        g.summary = match (first_line(&sec.prose), sec.links.len()) {
            (p, _) if !p.is_empty() => p,
            (_, 1) => "1 link".to_string(),
            (_, k) => format!("{k} links"),
        };
        g.line_start = Some(sec.line);
        g.line_end = Some(li.last_line(start, end));
        let own_end = sec.links.first().map_or(end, |l| bom + l.start);
        g.span = span(src, start, own_end, end);
        g.meta.insert("links".into(), sec.links.len().into());
        if sec.optional {
            g.flags.set(Flag::Optional);
        }
        let gid = corpus.add_child(file, g);
        for l in &sec.links {
            n += 1;
            let mut node = Node::new(NodeKind::Link, fmt, l.title.clone(), path);
            node.seg = Some(format!("link-{n}").into());
            node.summary = l.notes.clone().unwrap_or_default();
            node.meta.insert("url".into(), l.url.clone().into());
            node.line_start = Some(li.line(bom + l.start));
            node.line_end = node.line_start;
            node.span = span(src, bom + l.start, bom + l.end, bom + l.end);
            if sec.optional {
                node.flags.set(Flag::Optional);
            }
            corpus.add_child(gid, node);
        }
    }
    first
}

#[allow(
    clippy::unnecessary_wraps,
    reason = "one shape with the other kinds' loaders in the match"
)]
fn add_ctx_nodes(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    text: &str,
    path: &str,
    li: &LineIndex,
) -> Option<usize> {
    let parsed = parse_llms_ctx(text);
    let fmt = Format::LlmsTxt;
    for (line, msg) in &parsed.warnings {
        corpus
            .node_mut(file)
            .warnings
            .push(Warning::at(msg.clone(), path, Some(*line)));
    }
    if let Some(s) = &parsed.summary {
        corpus.node_mut(file).summary = s.clone();
    }
    let title = parsed
        .title
        .clone()
        .unwrap_or_else(|| corpus.node(file).title.clone());
    let mut head = Node::new(NodeKind::Section, fmt, title.clone(), path);
    head.seg = Some(id::slug(&title).into());
    head.level = 1;
    head.summary = parsed.summary.clone().unwrap_or_default();
    head.detail = (!parsed.info.is_empty()).then(|| parsed.info.as_str().into());
    head.line_start = Some(1);
    head.line_end = Some(li.last_line(0, parsed.header_end));
    head.span = span(src, 0, parsed.header_end, parsed.header_end);
    corpus.add_child(file, head);
    let mut group: Option<(String, NodeId)> = None;
    for (n, d) in parsed.docs.iter().enumerate() {
        let gid = match &group {
            Some((name, g)) if *name == d.section => *g,
            _ => {
                let label = if d.section.is_empty() {
                    "docs".to_string()
                } else {
                    d.section.clone()
                };
                let mut g = Node::new(NodeKind::Group, fmt, label.clone(), path);
                g.seg = Some(id::slug(&label).into());
                g.line_start = Some(li.line(d.start));
                if label.eq_ignore_ascii_case("optional") {
                    g.flags.set(Flag::Optional);
                }
                let g = corpus.add_child(file, g);
                group = Some((d.section.clone(), g));
                g
            }
        };
        let optional = corpus.node(gid).flags.has(Flag::Optional);
        let title = if d.title.is_empty() {
            format!("doc {}", n + 1)
        } else {
            d.title.clone()
        };
        let subs = doc_headings(text, d.content_start, d.content_end);
        let own_end = subs.first().map_or(d.content_end, |h| h.start);
        let mut p = Node::new(NodeKind::Part, fmt, title, path);
        p.seg = Some(format!("part-{}", n + 1).into());
        p.summary = d.desc.clone().unwrap_or_default();
        p.line_start = Some(li.line(d.content_start));
        p.line_end = Some(li.last_line(d.content_start, d.content_end));
        p.span = span(src, d.content_start, own_end, d.content_end);
        if optional {
            p.flags.set(Flag::Optional);
        }
        let pid = corpus.add_child(gid, p);
        nest_headings(corpus, pid, src, &subs, d.content_end, fmt, path, li);
        corpus.node_mut(gid).line_end = Some(li.last_line(d.start, d.end));
    }
    Some(0)
}

/// The headings of a `<doc>`'s content `text[from..to]` that become its sections: all of
/// them, except a lone title heading that opens the content (`# Python module & CLI`, the
/// only heading of its level), whose text stays the part's own, so the part's sections are
/// one level down.
fn doc_headings(text: &str, from: usize, to: usize) -> Vec<Heading> {
    let mut hs = sections::headings(text, from, to);
    let opens = hs
        .first()
        .is_some_and(|h| text.get(from..h.start).is_some_and(|g| g.trim().is_empty()));
    if opens && hs.iter().skip(1).all(|h| h.level > hs[0].level) {
        hs.remove(0);
    }
    hs
}

fn add_full_nodes(
    corpus: &mut Corpus,
    file: NodeId,
    src: SourceId,
    text: &str,
    path: &str,
    li: &LineIndex,
) -> Option<usize> {
    let fmt = Format::LlmsTxt;
    let split = split_full(text);
    let all = sections::headings(text, 0, text.len());
    let mut n = 0;
    let mut first = None;
    if let Some((s, e)) = split.preamble {
        n += 1;
        let mut p = Node::new(NodeKind::Part, fmt, preamble_title(&text[s..e]), path);
        p.seg = Some(format!("part-{n}").into());
        p.summary = "preamble".into();
        p.line_start = Some(li.line(s));
        p.line_end = Some(li.last_line(s, e));
        p.span = span(src, s, e, e);
        corpus.add_child(file, p);
        first = Some(s);
    }
    // `all` and the parts are both in text order: one cursor walks `all` once (linear in the
    // number of headings, however many H1s there are).
    let mut cursor = 0;
    for (h, end) in &split.parts {
        n += 1;
        first.get_or_insert(h.start);
        while all.get(cursor).is_some_and(|s| s.start <= h.start) {
            cursor += 1;
        }
        let stop = cursor + all[cursor..].partition_point(|s| s.start < *end);
        let subs: Vec<Heading> = all[cursor..stop]
            .iter()
            .filter(|s| s.level > 1)
            .cloned()
            .collect();
        cursor = stop;
        let own_end = subs.first().map_or(*end, |s| s.start);
        let mut p = Node::new(NodeKind::Part, fmt, h.title.clone(), path);
        p.seg = Some(format!("part-{n}").into());
        p.level = 1;
        p.line_start = Some(h.line);
        p.line_end = Some(li.last_line(h.start, *end));
        p.span = span(src, h.start, own_end, *end);
        let pid = corpus.add_child(file, p);
        nest_headings(corpus, pid, src, &subs, *end, fmt, path, li);
    }
    first
}
