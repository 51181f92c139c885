//! Duplicate detection (docs/DESIGN.md §2 flag `duplicate`): doc files with byte-identical
//! content, and folders whose documents are all such copies.
//!
//! Scope: files are compared within one *unit* — a skill folder (its nearest `Skill`
//! ancestor) or, outside skills, the whole root. Skills are self-contained (each official
//! Anthropic skill ships the same `LICENSE.txt`), so a file in one skill is never called a
//! copy of a file in another; a `Skill_Seekers` `references/documentation/` mirror inside one
//! skill is.

use std::collections::HashMap;

use super::list::natural_path_cmp;
use crate::model::{Corpus, Flag, Format, NodeId, NodeKind, Warning};

/// Flag duplicate doc files and all-duplicate folders below `root`. The canonical copy is
/// the shallowest, then the first in natural path order; the others get [`Flag::Duplicate`]
/// and the warning `same content as <path>`. Empty files are never duplicates.
pub(crate) fn mark_duplicates(corpus: &mut Corpus, root: NodeId) {
    // (scope, size) → candidate files; texts compared exactly within each group.
    let mut groups: HashMap<(NodeId, u64), Vec<NodeId>> = HashMap::new();
    // Pre-order, carrying the nearest `Skill`/`Root` above each node (a node with none is
    // its own scope).
    let is_scope = |n: NodeId| matches!(corpus.node(n).kind, NodeKind::Skill | NodeKind::Root);
    let mut stack = vec![(root, corpus.ancestors(root).find(|a| is_scope(*a)))];
    while let Some((n, above)) = stack.pop() {
        let node = corpus.node(n);
        let scope = if is_scope(n) { n } else { above.unwrap_or(n) };
        let below = if is_scope(n) { Some(n) } else { above };
        stack.extend(node.children.iter().rev().map(|c| (*c, below)));
        if node.kind == NodeKind::File
            && node.span.is_some()
            && node.bytes > 0
            && !node.flags.has(Flag::Truncated)
            && matches!(node.format, Format::Markdown | Format::Text)
        {
            groups.entry((scope, node.bytes)).or_default().push(n);
        }
    }
    let mut dups: HashMap<NodeId, String> = HashMap::new();
    for (_, mut files) in groups.into_iter().filter(|(_, v)| v.len() > 1) {
        files.sort_by(|a, b| {
            let (pa, pb) = (&corpus.node(*a).path, &corpus.node(*b).path);
            depth(pa)
                .cmp(&depth(pb))
                .then_with(|| natural_path_cmp(pa, pb))
        });
        // Keyed by the text's 128-bit key, read without holding it (a spilled text stays
        // let go); a key met again is a copy only when the texts are equal.
        let mut canon: HashMap<u128, Vec<NodeId>> = HashMap::new();
        for f in files {
            let (key, same) = with_file_text(corpus, f, |text| {
                let key = crate::util::digest::key128(text);
                let firsts = canon.get(&key).map_or(&[][..], Vec::as_slice);
                let same = firsts
                    .iter()
                    .copied()
                    .find(|c| with_file_text(corpus, *c, |t| t == text));
                (key, same)
            });
            match same {
                Some(c) => {
                    dups.insert(f, corpus.node(c).path.to_string());
                }
                None => canon.entry(key).or_default().push(f),
            }
        }
    }
    for (f, canonical) in &dups {
        let n = corpus.node_mut(*f);
        n.flags.set(Flag::Duplicate);
        let w = Warning::at(
            format!("same content as {canonical}"),
            n.path.to_string(),
            None,
        );
        n.warnings.push(w);
    }
    mark_folders(corpus, root, &dups);
}

/// `f` of the whole text of file node `file`, read for this call when its source is not
/// held.
fn with_file_text<R>(corpus: &Corpus, file: NodeId, f: impl FnOnce(&str) -> R) -> R {
    let span = corpus.node(file).span;
    match span.and_then(|s| Some((s, corpus.sources.get(s.source.0 as usize)?))) {
        Some((s, src)) => src.with_text(|t| f(t.get(s.start..s.end.min(t.len())).unwrap_or(""))),
        None => f(""),
    }
}

fn depth(path: &str) -> usize {
    path.bytes().filter(|b| *b == b'/').count()
}

/// Post-order: a `Dir` is flagged duplicate (a mirror) when at least one of its doc files
/// (at any depth) is a copy of a document *outside* it (a byte-identical duplicate whose
/// canonical copy, or an alias whose target, lies elsewhere) and every other doc file is
/// an index page (`index.*` or `README.*`, the table of contents a mirrored tree brings
/// along) of a folder that itself holds such copies. Real case: the `Skill_Seekers`
/// `references/documentation/` tree, whose `index.md` files are unique link lists over
/// byte-identical copies of `references/*.md`. Counter-case: a KEP tree's `sig-release/`,
/// whose six symbolic links point at `NNNN-name/README.md` files inside it: the links are
/// aliases, the fifteen `README.md` files are unique documents of folders without copies,
/// so the folder is not a mirror. `canon` maps each duplicate to its canonical path.
fn mark_folders(corpus: &mut Corpus, root: NodeId, canon: &HashMap<NodeId, String>) {
    // Per node: copies of documents outside it.
    let mut outside = vec![0u32; corpus.len()];
    for n in corpus.preorder(root) {
        let node = corpus.node(n);
        if node.kind != NodeKind::File
            || !matches!(node.format, Format::Markdown | Format::Text)
            || !node.flags.is_copy()
        {
            continue;
        }
        // Unknown target (a file reached again through a followed link): elsewhere.
        let target = canon
            .get(&n)
            .map(String::as_str)
            .or_else(|| node.meta.get("alias_of").and_then(|v| v.as_str()));
        for a in std::iter::once(n).chain(corpus.ancestors(n)) {
            if a != n && target.is_some_and(|t| is_under(t, &corpus.node(a).path)) {
                break;
            }
            if let Some(slot) = outside.get_mut(a.ix()) {
                *slot += 1;
            }
            if a == root {
                break;
            }
        }
    }
    // Per node: (other non-index doc files, index pages not yet judged).
    let mut counts: Vec<(u32, u32)> = vec![(0, 0); corpus.len()];
    for n in corpus.preorder(root).into_iter().rev() {
        let node = corpus.node(n);
        let (others, index) = if node.kind == NodeKind::File {
            if !matches!(node.format, Format::Markdown | Format::Text) || node.flags.is_copy() {
                (0, 0)
            } else if is_index_page(&node.title) {
                (0, 1)
            } else {
                (1, 0)
            }
        } else {
            node.children.iter().fold((0, 0), |acc, c| {
                let (o, i) = counts.get(c.ix()).copied().unwrap_or_default();
                let copies = outside.get(c.ix()).copied().unwrap_or_default();
                // The index page of a folder without copies is one of its documents.
                if corpus.node(*c).kind != NodeKind::File && copies == 0 {
                    (acc.0 + o + i, acc.1)
                } else {
                    (acc.0 + o, acc.1 + i)
                }
            })
        };
        if let Some(slot) = counts.get_mut(n.ix()) {
            *slot = (others, index);
        }
        let copies = outside.get(n.ix()).copied().unwrap_or_default();
        if node.kind == NodeKind::Dir && copies > 0 && others == 0 && !node.flags.is_copy() {
            let n = corpus.node_mut(n);
            n.flags.set(Flag::Duplicate);
            let w = Warning::at(
                "a mirror: only copies of documents found elsewhere (and index pages)",
                n.path.to_string(),
                None,
            );
            n.warnings.push(w);
        }
    }
}

/// Whether root-relative `path` is `dir` or lies below it (`dir` `""` is the root).
fn is_under(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// `index.md`, `README.md`, `readme.txt`, … (any case, any doc extension).
fn is_index_page(name: &str) -> bool {
    let stem = name
        .rsplit_once('.')
        .map_or(name, |(s, _)| s)
        .to_ascii_lowercase();
    stem == "index" || stem == "readme"
}
