//! lazytools / lazytoolkit doc-skill bundles (docs/FORMATS.md §2): manifest.json + vocab.json +
//! chunks.jsonl (+ SKILL.md) loaded into corpus nodes and a registered
//! [`crate::model::BundleStats`].
//!
//! Node layout under the bundle node `parent` (kind `skill` when the bundle has a SKILL.md,
//! see [`load_bundle`]):
//! - `SKILL.md` (kind `file`): its frontmatter is the file's own text and its keys the file's
//!   `meta` (as the Agent Skills loader does, docs/FORMATS.md §3.2); the body is sectioned by
//!   [`crate::formats::sections::add_sections`];
//! - one `file` node per source path, in order of first appearance in chunks.jsonl, its path
//!   relative to the manifest's `source_dirs` (docs/DESIGN.md §2; with several source dirs it is
//!   prefixed by the source dir's folder name);
//! - under it one `chunk` node per chunks.jsonl line (seg `chunk-<ordinal>`, title = heading,
//!   summary = first sentence, meta `ordinal`, `heading`, `title`, `doc_len`, `path`).
//!
//! All chunk texts live in ONE virtual source, grouped by file and separated by a blank line;
//! each chunk's span is exactly its text, each file node spans its chunks.

pub mod pyjson;
pub mod pystr;
pub mod read;
pub mod write;

use std::path::Path;
use std::sync::Arc;

use super::walk::loader::{Loader, folder_name, join_rel};
use super::walk::probe::FolderProbe;
use super::walk::skill_file::{frontmatter_meta, frontmatter_warnings};
use crate::model::{
    Corpus, Flag, Format, Node, NodeId, NodeKind, Source, SourceId, TextSpan, Warning,
};
pub use read::{BundleFiles, ChunkRecord, Manifest, Problem, read_bundle};

/// Whether `dir` holds a bundle (manifest.json, vocab.json and chunks.jsonl).
pub fn is_bundle(dir: &Path) -> bool {
    dir.join("manifest.json").is_file()
        && dir.join("vocab.json").is_file()
        && dir.join("chunks.jsonl").is_file()
}

/// [`is_bundle`] as a format-table folder rule, the three files looked up in the folder's
/// listing.
pub(crate) fn detect_dir(dir: &Path, probe: &mut FolderProbe) -> bool {
    ["manifest.json", "vocab.json", "chunks.jsonl"]
        .iter()
        .all(|n| probe.is_file(dir, n))
}

/// Load a bundle found by the walk: [`load_bundle`] below `parent` (titled by the folder
/// name), except at the opened root (`rel` `""`) without a `SKILL.md`, where the `Root`
/// node `parent` is the bundle node ([`load`] into it). Returns the bundle node.
pub(crate) fn load_dir(ld: &mut Loader<'_>, parent: NodeId, dir: &Path, rel: &str) -> NodeId {
    if rel.is_empty() && !dir.join("SKILL.md").is_file() {
        load(&mut ld.corpus, parent, dir, rel);
        return parent;
    }
    load_bundle(&mut ld.corpus, parent, dir, rel, &folder_name(dir, rel))
}

/// Join the bundle's relative path `rel` (`""` for a root bundle; a trailing `/` is
/// dropped) and `file`.
fn rel_join(rel: &str, file: &str) -> String {
    join_rel(rel.trim_end_matches('/'), file)
}

/// The display path of chunk path `abs` relative to `source_dirs` (docs/DESIGN.md §2): with one
/// source dir, the path below it (`api/context.md`); with several, prefixed by the matching
/// dir's folder name (`docs/api/context.md`); a path under none of them loses its leading `/`.
pub fn display_path(abs: &str, source_dirs: &[String]) -> String {
    for sd in source_dirs {
        let sd = sd.trim_end_matches('/');
        if let Some(rest) = abs.strip_prefix(sd).and_then(|r| r.strip_prefix('/'))
            && !rest.is_empty()
        {
            return if source_dirs.len() > 1 {
                format!("{}/{rest}", pystr::path_name(sd))
            } else {
                rest.to_string()
            };
        }
    }
    abs.trim_start_matches('/').to_string()
}

/// One-line summary of a chunk: the first sentence of its first prose paragraph
/// ([`crate::util::prose::is_prose`]): a leading frontmatter block (`---` … `---`), heading
/// lines, `:::` container markers (`::: warning`; the text of `::: tip Text :::` is kept), fenced code, HTML or component tags
/// (`<script setup>`), rules, tables and lists are skipped. Whitespace runs collapse to one
/// space, and the text is cut after the first `.`, `!` or `?` followed by a space (or at 200
/// characters, ending in `…`). Falls back to `heading` when nothing else is left.
pub fn first_sentence(text: &str, heading: &str) -> String {
    let paragraph = prose_paragraphs(text)
        .into_iter()
        .find(|p| crate::util::prose::is_prose(p))
        .unwrap_or_default();
    let flat = pystr::collapse_ws(&paragraph);
    let flat = flat.trim();
    if flat.is_empty() {
        return heading.to_string();
    }
    let chars: Vec<char> = flat.chars().collect();
    for i in 0..chars.len() {
        if matches!(chars[i], '.' | '!' | '?') && chars.get(i + 1) == Some(&' ') {
            if i < 200 {
                return chars[..=i].iter().collect();
            }
            break;
        }
    }
    if chars.len() <= 200 {
        flat.to_string()
    } else {
        let cut: String = chars[..199].iter().collect();
        format!("{}…", cut.trim_end())
    }
}

/// The paragraphs of `text` outside a leading frontmatter block and fenced code, each
/// without heading lines or `:::` container lines (either ends a paragraph; a container
/// line's own text starts the next one).
fn prose_paragraphs(text: &str) -> Vec<String> {
    let mut lines = text.lines().peekable();
    while lines.peek().is_some_and(|l| l.trim().is_empty()) {
        lines.next();
    }
    if lines.peek().is_some_and(|l| l.trim_end() == "---") {
        lines.next();
        for l in lines.by_ref() {
            if l.trim_end() == "---" {
                break;
            }
        }
    }
    let mut out = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut fence: Option<&str> = None;
    for l in lines {
        let t = l.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        let is_fence = t.starts_with("```") || t.starts_with("~~~");
        if let Some(inner) = container_text(t) {
            // A `::: warning` line is markup, not prose; the one-line `::: info text :::`
            // form keeps its text (docs/FORMATS.md §2).
            if !cur.is_empty() {
                out.push(cur.join("\n"));
                cur.clear();
            }
            if !inner.is_empty() {
                cur.push(inner);
            }
            continue;
        }
        if is_fence || t.is_empty() || t.starts_with('#') {
            if !cur.is_empty() {
                out.push(cur.join("\n"));
                cur.clear();
            }
            if is_fence {
                fence = Some(&t[..3]);
            }
            continue;
        }
        cur.push(l);
    }
    if !cur.is_empty() {
        out.push(cur.join("\n"));
    }
    out
}

/// The text of a `:::` container line (`::: warning`, `:::tip Text :::`): after the colons
/// and the container's type word, without a closing `:::`; `""` when there is none. `None`
/// when `line` (trimmed at the start) is no container line.
fn container_text(line: &str) -> Option<&str> {
    let rest = line.strip_prefix(":::")?.trim_start_matches(':').trim();
    let rest = rest.strip_suffix(":::").unwrap_or(rest).trim_end();
    Some(
        rest.split_once(char::is_whitespace)
            .map_or("", |(_, t)| t.trim()),
    )
}

/// Add the bundle in `dir` (a sub-folder at `rel`, or the opened root with `rel` `""`) as a
/// node under `parent` and load it (see [`load`]); returns the bundle node.
///
/// A bundle with a `SKILL.md` is a skill (docs/FORMATS.md §2.1: lazytools writes a SKILL.md for
/// agents): the node is a [`NodeKind::Skill`] of format `lazytools`, titled by the manifest
/// `name`, so `validate` and `list` see it. Without a SKILL.md it is a `Dir` titled
/// `folder`. `rel` is also the node's path (`""` at a root, as for a skill folder root).
pub fn load_bundle(
    corpus: &mut Corpus,
    parent: NodeId,
    dir: &Path,
    rel: &str,
    folder: &str,
) -> NodeId {
    let kind = if dir.join("SKILL.md").is_file() {
        NodeKind::Skill
    } else {
        NodeKind::Dir
    };
    let node = corpus.add_child(parent, Node::new(kind, Format::Lazytools, folder, rel));
    load(corpus, node, dir, rel);
    node
}

/// Load the bundle in `dir` (relative path `rel` inside its root, `""` for the root itself)
/// as children of `parent`, registering its [`crate::model::BundleStats`] in
/// `corpus.bundles` keyed by `parent`. Never fails: problems become warnings on `parent`
/// naming the bundle file (relative to the root) and, for chunks.jsonl, the 1-based line.
///
/// `parent` gets the manifest fields in `meta` (`name`, `description`, `total_chunks`,
/// `indexed_files` (a count), `avgdl`, `version`, `created_by`, `source_dirs`) and the
/// description as its summary. A `Skill` parent is also titled by the manifest `name`
/// (trimmed; kept when empty) with the description as its detail.
pub fn load(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str) {
    let files = read_bundle(dir);
    let m = &files.manifest;
    {
        let p = corpus.node_mut(parent);
        p.summary = m.description.clone();
        if p.kind == NodeKind::Skill {
            if !m.name.trim().is_empty() {
                p.title = m.name.trim().to_string();
            }
            if !m.description.is_empty() {
                p.detail = Some(m.description.clone().into());
            }
        }
        let meta = &mut p.meta;
        meta.insert("name".into(), m.name.clone().into());
        meta.insert("description".into(), m.description.clone().into());
        meta.insert("total_chunks".into(), m.total_chunks.into());
        meta.insert(
            "indexed_files".into(),
            (m.indexed_files.len() as u64).into(),
        );
        meta.insert(
            "avgdl".into(),
            serde_json::Number::from_f64(m.avgdl)
                .map(Into::into)
                .unwrap_or_default(),
        );
        meta.insert("version".into(), m.version.clone().into());
        meta.insert("created_by".into(), m.created_by.clone().into());
        meta.insert("source_dirs".into(), m.source_dirs.clone().into());
        for pr in &files.problems {
            p.warnings.push(Warning::at(
                pr.message.clone(),
                rel_join(rel, pr.file),
                pr.line,
            ));
        }
    }

    if let Some(bytes) = &files.skill_md_bytes {
        add_skill_md(corpus, parent, dir, rel, bytes.clone());
    }

    let chunk_nodes = add_chunks(corpus, parent, rel, &files);
    let stats = files.stats(chunk_nodes);
    corpus.bundles.push((parent, Arc::new(stats)));
}

/// The SKILL.md file node. As for an Agent Skills folder (docs/FORMATS.md §3.2): the frontmatter
/// block (parsed by [`crate::frontmatter::parse`]) is the file's own text, its keys go to
/// the file's `meta` and its warnings to the file (with line numbers); only the body is
/// sectioned (so the closing `---` never turns the YAML into a setext heading).
fn add_skill_md(corpus: &mut Corpus, parent: NodeId, dir: &Path, rel: &str, bytes: Vec<u8>) {
    let abs = dir.join("SKILL.md");
    let meta = std::fs::metadata(&abs).ok();
    let size = meta.as_ref().map_or(bytes.len() as u64, |m| m.len());
    let mtime = meta
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let source = Source::from_bytes(Some(abs), bytes, size, mtime);
    let len = source.text_len();
    let invalid = source.invalid_utf8;
    let src = corpus.add_source(source);
    let file_rel = rel_join(rel, "SKILL.md");
    let fm = crate::frontmatter::parse(corpus.sources[src.0 as usize].text());
    let body_start = fm.as_ref().map_or(0, |fm| fm.block.end.min(len));
    let mut file = Node::new(
        NodeKind::File,
        Format::Lazytools,
        "SKILL.md",
        file_rel.as_str(),
    );
    file.bytes = size;
    file.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: body_start,
        end: len,
    });
    if invalid {
        file.flags.set(Flag::InvalidUtf8);
    }
    if let Some(fm) = &fm {
        file.meta = frontmatter_meta(fm).into();
        file.warnings.extend(frontmatter_warnings(fm, &file_rel));
    }
    let file = corpus.add_child(parent, file);
    crate::formats::sections::add_sections(corpus, file, src, body_start, len, Format::Lazytools);
}

/// The folder node a file shown at `shown` (`api/middleware/cors.md`) goes under: `parent`
/// for a file at the top, else a `Dir` per path segment, made on first use and kept in
/// `folders` by path.
fn folder_node(
    corpus: &mut Corpus,
    parent: NodeId,
    rel: &str,
    shown: &str,
    folders: &mut std::collections::HashMap<String, NodeId>,
) -> NodeId {
    let Some((dir, _)) = shown.rsplit_once('/') else {
        return parent;
    };
    let mut cur = parent;
    let mut path = String::new();
    for seg in dir.split('/').filter(|s| !s.is_empty()) {
        if !path.is_empty() {
            path.push('/');
        }
        path.push_str(seg);
        cur = if let Some(id) = folders.get(&path) {
            *id
        } else {
            let d = Node::new(NodeKind::Dir, Format::Lazytools, seg, rel_join(rel, &path));
            let id = corpus.add_child(cur, d);
            folders.insert(path.clone(), id);
            id
        };
    }
    cur
}

/// A bundle heading or title as shown: without a trailing `{#id}` attribute block, as a
/// markdown heading is titled (docs/DESIGN.md §2 "Sectioning"); kept whole when nothing
/// else would be left. Display only: `meta.heading`, `meta.title` and every lazytools
/// output keep the bundle's text.
fn display_heading(heading: &str) -> String {
    let (shown, _) = crate::formats::sections::split_anchor(heading);
    if shown.trim().is_empty() {
        heading.to_string()
    } else {
        shown
    }
}

/// File and chunk nodes; returns the chunk node of each record, in chunks.jsonl order.
fn add_chunks(corpus: &mut Corpus, parent: NodeId, rel: &str, files: &BundleFiles) -> Vec<NodeId> {
    // Group record indices by source path, in order of first appearance.
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut pos: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, c) in files.chunks.iter().enumerate() {
        let g = *pos.entry(c.path.as_str()).or_insert_with(|| {
            groups.push((c.path.as_str(), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(i);
    }

    let mut text = String::new();
    let mut spans = vec![(0usize, 0usize); files.chunks.len()];
    for (_, idxs) in &groups {
        for &i in idxs {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            let start = text.len();
            text.push_str(&files.chunks[i].text);
            spans[i] = (start, text.len());
        }
    }
    let src = corpus.add_source(Source::virtual_text(text));

    let mut nodes = vec![NodeId(0); files.chunks.len()];
    // Files sit in folders as their source tree has them (`api/context.md` under `api`),
    // not in one flat list; the folders are added in order of first appearance.
    let mut folders: std::collections::HashMap<String, NodeId> = std::collections::HashMap::new();
    for (abs, idxs) in &groups {
        let shown = display_path(abs, &files.manifest.source_dirs);
        let folder = folder_node(corpus, parent, rel, &shown, &mut folders);
        let first = &files.chunks[idxs[0]];
        let name = pystr::path_name(&shown).to_string();
        let mut f = Node::new(
            NodeKind::File,
            Format::Lazytools,
            name,
            rel_join(rel, &shown),
        );
        // The document's title, unless lazytools took a markup line for it (`---` of a
        // frontmatter block, `<script setup>`): then its first sentence.
        f.summary = if crate::util::prose::is_prose(&first.title) {
            display_heading(&first.title)
        } else {
            first_sentence(&first.text, &display_heading(&first.heading))
        };
        f.meta.insert("title".into(), first.title.clone().into());
        f.meta.insert("source_path".into(), abs.to_string().into());
        let (start, _) = spans[idxs[0]];
        let end = idxs.iter().map(|i| spans[*i].1).max().unwrap_or(start);
        f.span = Some(TextSpan {
            source: src,
            start,
            own_end: start,
            end,
        });
        // Size = its chunks' texts, without the blank-line separators of the virtual source.
        f.bytes = idxs
            .iter()
            .map(|i| files.chunks[*i].text.len() as u64)
            .sum();
        let fid = corpus.add_child(folder, f);
        for &i in idxs {
            let n = chunk_node(&files.chunks[i], rel_join(rel, &shown), src, spans[i]);
            nodes[i] = corpus.add_child(fid, n);
        }
    }
    nodes
}

/// The node of chunk record `c` of the file at `path`: titled by its heading, its text
/// the `(start, end)` span of the virtual source `src`.
fn chunk_node(c: &ChunkRecord, path: String, src: SourceId, (s, e): (usize, usize)) -> Node {
    let title = display_heading(&c.heading);
    let summary = first_sentence(&c.text, &title);
    let mut n = Node::new(NodeKind::Chunk, Format::Lazytools, title, path);
    n.seg = Some(format!("chunk-{}", c.ordinal).into());
    n.summary = summary;
    n.meta.insert("ordinal".into(), c.ordinal.into());
    n.meta.insert("heading".into(), c.heading.clone().into());
    n.meta.insert("title".into(), c.title.clone().into());
    n.meta.insert("doc_len".into(), c.doc_len.into());
    n.meta.insert("path".into(), c.path.clone().into());
    n.span = Some(TextSpan {
        source: src,
        start: s,
        own_end: e,
        end: e,
    });
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_paths_relative_to_source_dirs() {
        let one = vec!["/tmp/lt-run/hono-docs".to_string()];
        assert_eq!(
            display_path("/tmp/lt-run/hono-docs/api/context.md", &one),
            "api/context.md"
        );
        let two = vec!["/a/docs".to_string(), "/b/ref/".to_string()];
        assert_eq!(display_path("/b/ref/x.md", &two), "ref/x.md");
        assert_eq!(display_path("/elsewhere/y.md", &two), "elsewhere/y.md");
        assert_eq!(display_path("/a/docsx/y.md", &two), "a/docsx/y.md");
    }

    #[test]
    fn first_sentence_skips_headings() {
        let t = "# Context\n\nThe `Context` object is made per request. You can put values.";
        assert_eq!(
            first_sentence(t, "Context"),
            "The `Context` object is made per request."
        );
        assert_eq!(first_sentence("## Only a heading", "Only"), "Only");
        assert_eq!(first_sentence("v1.2 is out", "H"), "v1.2 is out");
    }

    #[test]
    fn first_sentence_skips_frontmatter_tags_and_code() {
        let t = "---\ntitle: Hono\ntitleTemplate: ':title'\n---\n\n# Hono\n\nHono is small. It is fast.";
        assert_eq!(first_sentence(t, "Hono"), "Hono is small.");
        let t = "<script setup>\nimport { data } from './x.data'\n</script>\n\n```ts\nconst a = 1\n\nconst b = 2\n```\n\nBenchmarks are only benchmarks. More.";
        assert_eq!(
            first_sentence(t, "Benchmarks"),
            "Benchmarks are only benchmarks."
        );
        assert_eq!(
            first_sentence("---\n\n<Badge text=\"x\" />", "Only"),
            "Only"
        );
    }
}
