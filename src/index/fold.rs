//! Which nodes are BM25 documents, in document order, and the folding of identical texts
//! (docs/DESIGN.md §3).
//!
//! A document is a node with a text span whose kind is a text unit (section, chunk, part,
//! link, adr) or a `File` with a span and no children (plain `.txt`); its text is the node's
//! own text. Skipped: nodes flagged `duplicate`/`alias` or inside such a node, everything
//! inside a lazytools bundle (scored by lazytools' own BM25), a doc-tree README beside its
//! folder's page (`super::tree_docs`, which also gives doc-tree pages and READMEs the text
//! they are indexed with), and texts that are empty after trimming. Documents whose own text is byte-identical after trimming are indexed once — the
//! first in document order — and the others are that document's *copies* ("+N copies").
//! Texts are compared by their 128-bit keys, read one source at a time (`super::doc_text`).
//!
//! A skill node is a document too: its routing text (frontmatter `name`, `description` and
//! `when_to_use`, one per line), a field of its own whose term frequencies and length count
//! [`SKILL_FIELD_WEIGHT`] times, so a skill can be a hit for the words it is described by.

use std::borrow::Cow;
use std::collections::HashSet;

use super::doc_text::{DocReader, DocText};
use super::hash::FxHashMap;
use super::tree_docs;
use crate::model::{Corpus, NodeId, NodeKind};

/// The documents of one root, ready to be tokenized.
#[derive(Debug)]
pub(crate) struct RootDocs<'c> {
    /// The root node.
    pub root: NodeId,
    /// Documents in document order: node and its own text (a skill's routing text).
    pub docs: Vec<(NodeId, DocText<'c>)>,
    /// Per document: how many times each of its tokens counts (1, or
    /// [`SKILL_FIELD_WEIGHT`] for a skill's routing text).
    pub weights: Vec<u32>,
    /// Copies folded into document `d`, sorted by `d`.
    pub copies: Vec<(u32, Vec<NodeId>)>,
}

impl RootDocs<'_> {
    /// No documents under `root`.
    pub fn empty(root: NodeId) -> Self {
        Self {
            root,
            docs: Vec::new(),
            weights: Vec::new(),
            copies: Vec::new(),
        }
    }
}

/// Global pre-order rank of every node (roots in `corpus.roots` order, then pre-order):
/// the document order used to break ties. Nodes not under a root get `u32::MAX`.
pub(crate) fn document_order(corpus: &Corpus) -> Vec<u32> {
    let mut order = vec![u32::MAX; corpus.len()];
    let mut rank = 0u32;
    let mut stack = Vec::new();
    for &r in &corpus.roots {
        stack.push(r);
        while let Some(n) = stack.pop() {
            if let Some(slot) = order.get_mut(n.ix()) {
                if *slot != u32::MAX {
                    continue; // a malformed arena with a cycle or shared child
                }
                *slot = rank;
                rank += 1;
                stack.extend(corpus.node(n).children.iter().rev().copied());
            }
        }
    }
    order
}

/// Whether node `n` (not counting its ancestors) is a BM25 document kind with text.
fn is_document(corpus: &Corpus, n: NodeId) -> bool {
    let node = corpus.node(n);
    node.span.is_some()
        && (node.kind.is_text_unit() || (node.kind == NodeKind::File && node.children.is_empty()))
}

/// How many times a token of a skill's routing text counts (term frequency and length).
pub const SKILL_FIELD_WEIGHT: u32 = 2;

/// The frontmatter keys whose values make up a skill's routing text, in order; the
/// `when_to_use` spellings count once (the first present).
const ROUTING_KEYS: [&[&str]; 3] = [
    &["name"],
    &["description"],
    &["when_to_use", "when-to-use", "whenToUse"],
];

/// The routing text of skill node `n`: its name, description and when-to-use, one per line
/// (`None` when all are missing or blank).
pub(crate) fn routing_text(corpus: &Corpus, n: NodeId) -> Option<String> {
    let meta = &corpus.node(n).meta;
    let lines: Vec<&str> = ROUTING_KEYS
        .iter()
        .filter_map(|keys| {
            keys.iter()
                .find_map(|k| meta.get(*k).and_then(|v| v.as_str()))
        })
        .filter(|v| !v.trim().is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Collect the documents of root `root`, folding identical texts; doc-tree READMEs and
/// pages as `tree_docs` says.
pub(crate) fn collect_root(corpus: &Corpus, root: NodeId) -> RootDocs<'_> {
    let bundles: HashSet<NodeId> = corpus.bundles.iter().map(|(b, _)| *b).collect();
    let mut out = RootDocs::empty(root);
    let mut seen: FxHashMap<[u64; 2], u32> = FxHashMap::default();
    seen.reserve(corpus.len() / corpus.roots.len().max(1));
    let mut copies: FxHashMap<u32, Vec<NodeId>> = FxHashMap::default();
    let mut reader = DocReader::new(corpus);
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.ix() >= corpus.len() {
            continue;
        }
        let node = corpus.node(n);
        if node.flags.is_copy() || (!bundles.is_empty() && bundles.contains(&n)) {
            continue; // the whole subtree is a copy or a lazytools bundle
        }
        if is_document(corpus, n) {
            let Some(doc) = document_text(corpus, n) else {
                stack.extend(node.children.iter().rev().copied());
                continue;
            };
            match text_key(&mut reader, &doc) {
                // A doc-tree text made of more than the node's own: never a copy of another.
                Key::Made => {
                    out.docs.push((n, doc));
                    out.weights.push(1);
                }
                Key::Blank => {}
                Key::Text(key) => {
                    if let Some(&d) = seen.get(&key) {
                        copies.entry(d).or_default().push(n);
                    } else {
                        seen.insert(key, out.docs.len() as u32);
                        out.docs.push((n, doc));
                        out.weights.push(1);
                    }
                }
            }
        } else if node.kind == NodeKind::Skill
            && let Some(text) = routing_text(corpus, n)
        {
            out.docs.push((n, DocText::Text(Cow::Owned(text))));
            out.weights.push(SKILL_FIELD_WEIGHT);
        }
        stack.extend(node.children.iter().rev().copied());
    }
    out.copies = copies.into_iter().collect();
    out.copies.sort_unstable_by_key(|(d, _)| *d);
    out
}

/// The text document `n` is indexed with: a doc-tree README or page as `tree_docs` makes
/// it, else the node's own text, left where it is when its source is not held (`None`: not
/// a document).
fn document_text(corpus: &Corpus, n: NodeId) -> Option<DocText<'_>> {
    let span = corpus.node(n).span?;
    let held = corpus
        .sources
        .get(span.source.0 as usize)
        .is_some_and(crate::model::Source::is_held);
    if held || tree_docs::in_tree_file(corpus, n) {
        return tree_docs::indexed_text(corpus, n).map(DocText::Text);
    }
    Some(DocText::Kept {
        source: span.source,
        start: span.start,
        end: span.own_end,
    })
}

/// What folding makes of a document's text.
enum Key {
    /// Made for the index (more than the node's own text): never folded.
    Made,
    /// Blank after trimming: not a document.
    Blank,
    /// The 128-bit key of the trimmed text: texts with one key are one document (two
    /// words, not a `u128`, so a table slot is 24 bytes rather than 32).
    Text([u64; 2]),
}

/// The folding key of `doc` ([`crate::util::digest::key128`] of its trimmed text).
fn text_key(reader: &mut DocReader<'_>, doc: &DocText<'_>) -> Key {
    if let DocText::Text(Cow::Owned(_)) = doc {
        return Key::Made;
    }
    reader.with(doc, |text| {
        let t = text.trim();
        if t.is_empty() {
            Key::Blank
        } else {
            let k = crate::util::digest::key128(t);
            Key::Text([(k >> 64) as u64, k as u64])
        }
    })
}
