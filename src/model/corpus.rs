//! The [`Corpus`]: an arena of [`Node`]s plus the [`Source`] texts they point into.
//!
//! Loaders build one corpus per root with [`Corpus::add_root`]/[`Corpus::add_child`], then
//! call [`Corpus::finalize`] to number the id segments and sum container sizes. Corpora of several
//! roots are joined with [`Corpus::append`].

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::node::{Flag, Node, NodeId, NodeKind, SourceId};
use super::source::Source;

/// Scoring data of a lazytools bundle (docs/FORMATS.md §2.2–2.3), kept so search on the bundle can
/// reproduce lazytools' scores exactly.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct BundleStats {
    /// manifest `name` (raw, not slugified).
    pub name: String,
    /// manifest `avgdl`.
    pub avgdl: f64,
    /// vocab.json: token → IDF.
    pub idf: HashMap<String, f64>,
    /// SKILL.md text of the bundle, if present.
    pub skill_md: Option<String>,
    /// Chunk nodes in chunks.jsonl order.
    pub chunks: Vec<NodeId>,
    /// Each chunk's `tokens` array from chunks.jsonl, parallel to `chunks`.
    pub chunk_tokens: Vec<Vec<String>>,
    /// Each chunk's `path` (absolute, as written at build time), parallel to `chunks`.
    pub chunk_paths: Vec<String>,
    /// Each chunk's `heading`, parallel to `chunks`.
    pub chunk_headings: Vec<String>,
    /// Each chunk's `text` (as stored in chunks.jsonl), parallel to `chunks`; lazytools'
    /// phrase boost tests the lower-cased text (docs/FORMATS.md §2.7).
    pub chunk_texts: Vec<String>,
    /// Each chunk's `doc_len` field (tokens; lazytools uses it, not `tokens.len()`, as dl),
    /// parallel to `chunks`.
    pub chunk_doc_lens: Vec<u64>,
}

/// All loaded roots: node arena, texts, and per-bundle scoring data.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    /// The arena; [`NodeId`] indexes it.
    pub nodes: Vec<Node>,
    /// Root nodes in display order.
    pub roots: Vec<NodeId>,
    /// Source texts; [`SourceId`] indexes it.
    pub sources: Vec<Source>,
    /// lazytools bundles: the bundle's node (root or skill) and its scoring data.
    pub bundles: Vec<(NodeId, Arc<BundleStats>)>,
    /// 128-bit key of each string id → node, built on the first [`Corpus::find`] after the
    /// last [`Corpus::finalize`] or [`Corpus::append`] (most commands never look ids up).
    pub(super) id_map: OnceLock<HashMap<u128, NodeId>>,
}

impl Corpus {
    /// An empty corpus.
    pub fn new() -> Self {
        Self::default()
    }

    /// A corpus of these parts, as [`Corpus::finalize`] left them (the persisted index
    /// reads them back: `src/store/`).
    pub fn from_parts(
        nodes: Vec<Node>,
        roots: Vec<NodeId>,
        sources: Vec<Source>,
        bundles: Vec<(NodeId, Arc<BundleStats>)>,
    ) -> Self {
        Self {
            nodes,
            roots,
            sources,
            bundles,
            id_map: OnceLock::new(),
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node `id`. Panics on an id from another corpus (a programming error).
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.ix()]
    }

    /// The one-line summary of node `id`: its `summary`, or, when that is empty and the
    /// node is a markdown section whose summary is made on first read, the first sentence
    /// of its body (docs/DESIGN.md §2 "Sectioning", §8). Empty when it has none.
    pub fn summary(&self, id: NodeId) -> &str {
        let n = self.node(id);
        if n.summary.is_empty()
            && let (Some(lazy), Some(span)) = (&n.lazy_summary, n.span)
            && let Some(src) = self.sources.get(span.source.0 as usize)
        {
            // Made once from the text, which is not held for it (a tree's rows and an
            // outline read many summaries: docs/DESIGN.md §8 "Memory").
            if lazy.is_made() {
                return lazy.get("", span.start).unwrap_or("");
            }
            // A text that no longer reads as loaded makes no summaries now, and none are
            // kept: the file may be put back.
            let (_, to) = lazy.range();
            return src
                .with_text(|t| (t.len() >= to).then(|| lazy.get(t, span.start)).flatten())
                .unwrap_or("");
        }
        &n.summary
    }

    /// Make now the summaries ([`Corpus::summary`]) of every sectioned range of at least
    /// `min_bytes` bytes whose summaries are made on first read, so that the first read of
    /// one (a tree row being drawn) parses no big file. Call it off the UI thread.
    pub fn warm_summaries(&self, min_bytes: usize) {
        for (i, n) in self.nodes.iter().enumerate() {
            if let Some(lazy) = &n.lazy_summary
                && lazy.len() >= min_bytes
                && !lazy.is_made()
            {
                let _ = self.summary(NodeId(i as u32));
            }
        }
    }

    /// Mutable access to node `id`.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.ix()]
    }

    /// Store a source text and return its id.
    pub fn add_source(&mut self, source: Source) -> SourceId {
        self.sources.push(source);
        SourceId((self.sources.len() - 1) as u32)
    }

    /// Add a root node (its `title` is the root label, which becomes its id).
    pub fn add_root(&mut self, mut node: Node) -> NodeId {
        node.parent = None;
        let id = self.push(node);
        self.roots.push(id);
        id
    }

    /// Add `node` as the last child of `parent`.
    pub fn add_child(&mut self, parent: NodeId, mut node: Node) -> NodeId {
        node.parent = Some(parent);
        let id = self.push(node);
        self.nodes[parent.ix()].children.push(id);
        id
    }

    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        NodeId((self.nodes.len() - 1) as u32)
    }

    /// Let every file's text go ([`Source::spill`]): from now on each is read from its file
    /// when needed, checked by size, modification second and CRC-32 (docs/DESIGN.md §8
    /// "Memory"). Virtual texts (bundle chunks) stay held. Returns the bytes let go.
    pub fn spill_texts(&mut self) -> u64 {
        let mut freed = 0;
        for s in &mut self.sources {
            let len = s.text_len() as u64;
            if s.spill() {
                freed += len;
            }
        }
        freed
    }

    /// Bytes of source text held in memory.
    pub fn held_bytes(&self) -> u64 {
        self.sources
            .iter()
            .filter(|s| s.is_held())
            .map(|s| s.text_len() as u64)
            .sum()
    }

    /// The full text of `id` (children included); empty for nodes without text.
    pub fn text(&self, id: NodeId) -> &str {
        match self.node(id).span {
            Some(s) => self.slice(s.source, s.start, s.end),
            None => "",
        }
    }

    /// `f` of the full text of `id` ([`Corpus::text`]), read for this call only when its
    /// source's text is not held ([`Source::with_text`]): for passes over many nodes that
    /// must not make every text held.
    pub fn with_text<R>(&self, id: NodeId, f: impl FnOnce(&str) -> R) -> R {
        let Some(s) = self.node(id).span else {
            return f("");
        };
        match self.sources.get(s.source.0 as usize) {
            Some(src) => src.with_text(|t| f(t.get(s.start..s.end.min(t.len())).unwrap_or(""))),
            None => f(""),
        }
    }

    /// The node's own text without its children's (a section up to its first sub-heading).
    pub fn own_text(&self, id: NodeId) -> &str {
        match self.node(id).span {
            Some(s) => self.slice(s.source, s.start, s.own_end),
            None => "",
        }
    }

    fn slice(&self, src: SourceId, start: usize, end: usize) -> &str {
        let text = &self.sources[src.0 as usize].text();
        text.get(start..end.min(text.len())).unwrap_or("")
    }

    /// The root a node belongs to.
    pub fn root_of(&self, mut id: NodeId) -> NodeId {
        while let Some(p) = self.node(id).parent {
            id = p;
        }
        id
    }

    /// Ancestors of `id`, nearest first (excluding `id`).
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(id).parent, move |p| self.node(*p).parent)
    }

    /// Whether `anc` is `id` or one of its ancestors.
    pub fn is_within(&self, id: NodeId, anc: NodeId) -> bool {
        id == anc || self.ancestors(id).any(|a| a == anc)
    }

    /// `id` and all its descendants in pre-order (document order).
    pub fn preorder(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.node(n).children.iter().rev().copied());
        }
        out
    }

    /// All nodes of all roots in pre-order.
    pub fn all_preorder(&self) -> Vec<NodeId> {
        self.roots.iter().flat_map(|r| self.preorder(*r)).collect()
    }

    /// Whether `id` or an ancestor carries `duplicate`/`alias`.
    pub fn is_copy(&self, id: NodeId) -> bool {
        self.node(id).flags.is_copy() || self.ancestors(id).any(|a| self.node(a).flags.is_copy())
    }

    /// Whether `id` or an ancestor carries `flag`.
    pub fn has_flag_inherited(&self, id: NodeId, flag: Flag) -> bool {
        self.node(id).flags.has(flag) || self.ancestors(id).any(|a| self.node(a).flags.has(flag))
    }

    /// Scoring data of the lazytools bundle that contains `id`, if any.
    pub fn bundle_of(&self, id: NodeId) -> Option<&Arc<BundleStats>> {
        self.bundles
            .iter()
            .find(|(b, _)| self.is_within(id, *b))
            .map(|(_, s)| s)
    }

    /// Number the id segments among siblings (the `-2`, `-3` suffixes of the string ids that
    /// [`Corpus::id`] makes, docs/DESIGN.md §2) and sum container sizes (Σ of
    /// non-`duplicate`/`alias`/`variant` children; a container that is itself such a copy sums
    /// all its children), and drop the id lookup so the next [`Corpus::find`] rebuilds it.
    /// Call after loading; calling again is harmless.
    pub fn finalize(&mut self) {
        let roots = self.roots.clone();
        for r in roots {
            self.number_segments(r);
            self.sum_sizes(r);
        }
        self.id_map = OnceLock::new();
    }

    /// Give back the spare capacity of the node arena, the source list and the root list:
    /// a loader grows them by doubling, so up to half of the arena's bytes (about 300 per
    /// node) can be unused once a root is loaded. The nodes' summaries, segments and child
    /// lists are shrunk too (built by pushing; 0.5 MB spare on a 19 MB tree).
    pub fn shrink_to_fit(&mut self) {
        self.nodes.shrink_to_fit();
        self.sources.shrink_to_fit();
        self.roots.shrink_to_fit();
        for n in &mut self.nodes {
            n.summary.shrink_to_fit();
            n.children.shrink_to_fit();
        }
    }

    fn sum_sizes(&mut self, root: NodeId) {
        for n in self.preorder(root).into_iter().rev() {
            let node = &self.nodes[n.ix()];
            if let Some(span) = node.span {
                let (b, ob) = (
                    (span.end - span.start) as u64,
                    (span.own_end - span.start) as u64,
                );
                let node = &mut self.nodes[n.ix()];
                if node.kind != NodeKind::File || node.bytes == 0 {
                    node.bytes = b;
                }
                node.own_bytes = ob;
            } else if !node.children.is_empty() {
                // A copy container (a duplicate mirror, the variants group) shows what its
                // copies weigh; its own parent skips it, so nothing is counted twice.
                let keep_copies = node.flags.is_copy();
                let sum: u64 = node
                    .children
                    .iter()
                    .map(|c| &self.nodes[c.ix()])
                    .filter(|c| keep_copies || !c.flags.is_copy())
                    .map(|c| c.bytes)
                    .sum();
                let node = &mut self.nodes[n.ix()];
                node.bytes = sum;
                node.own_bytes = 0;
            }
        }
    }

    /// Move every node, source and bundle of `other` into `self` (arena indexes are re-based);
    /// `other`'s roots are appended after ours. Call [`Corpus::finalize`] afterwards if root
    /// labels changed.
    pub fn append(&mut self, other: Corpus) {
        if self.nodes.is_empty()
            && self.sources.is_empty()
            && self.roots.is_empty()
            && self.bundles.is_empty()
        {
            // Nothing to re-base: take `other` whole (no second copy of the arena).
            *self = other;
            self.id_map = OnceLock::new();
            return;
        }
        let off = self.nodes.len() as u32;
        let soff = self.sources.len() as u32;
        let map = |id: NodeId| NodeId(id.0 + off);
        self.nodes.reserve(other.nodes.len());
        for mut n in other.nodes {
            n.parent = n.parent.map(map);
            for c in &mut n.children {
                *c = map(*c);
            }
            if let Some(s) = &mut n.span {
                s.source = SourceId(s.source.0 + soff);
            }
            self.nodes.push(n);
        }
        self.sources.extend(other.sources);
        self.roots.extend(other.roots.into_iter().map(map));
        self.bundles
            .extend(other.bundles.into_iter().map(|(b, s)| (map(b), s)));
        self.id_map = OnceLock::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, TextSpan};

    fn sample() -> (Corpus, NodeId, NodeId, NodeId) {
        let mut c = Corpus::new();
        let src = c.add_source(Source::virtual_text("# A\nx\n## B\ny\n".into()));
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let mut f = Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md");
        f.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: 0,
            end: 14,
        });
        f.bytes = 14;
        let file = c.add_child(root, f);
        let mut a = Node::new(NodeKind::Section, Format::Markdown, "A", "a.md");
        a.seg = Some("a".into());
        a.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: 6,
            end: 14,
        });
        let sa = c.add_child(file, a);
        let mut b = Node::new(NodeKind::Section, Format::Markdown, "B", "a.md");
        b.seg = Some("b".into());
        b.span = Some(TextSpan {
            source: src,
            start: 6,
            own_end: 14,
            end: 14,
        });
        let sb = c.add_child(sa, b);
        c.finalize();
        (c, file, sa, sb)
    }

    #[test]
    fn ids_follow_grammar() {
        let (c, file, sa, sb) = sample();
        assert_eq!(c.id(file), "docs/a.md");
        assert_eq!(c.id(sa), "docs/a.md#a");
        assert_eq!(c.id(sb), "docs/a.md#a/b");
        assert_eq!(c.find("docs/a.md#a/b"), Some(sb));
    }

    #[test]
    fn sizes_and_texts() {
        let (c, file, sa, sb) = sample();
        assert_eq!(c.node(sa).bytes, 14);
        assert_eq!(c.node(sa).own_bytes, 6);
        assert_eq!(c.own_text(sa), "# A\nx\n");
        assert_eq!(c.text(sb), "## B\ny\n");
        assert_eq!(c.node(c.roots[0]).bytes, c.node(file).bytes);
    }

    #[test]
    fn many_same_named_siblings_get_dedupe_suffixes() {
        // Crosses the 16-entry inline list of `SegSet`; ids must follow `id::dedupe`.
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let file = c.add_child(
            root,
            Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md"),
        );
        let segs: Vec<&str> = (0..40)
            .map(|i| {
                if i == 2 {
                    "a-3"
                } else if i % 7 == 0 {
                    "b"
                } else {
                    "a"
                }
            })
            .collect();
        let kids: Vec<NodeId> = segs
            .iter()
            .map(|s| {
                let mut n = Node::new(NodeKind::Section, Format::Markdown, *s, "a.md");
                n.seg = Some((*s).to_string().into());
                c.add_child(file, n)
            })
            .collect();
        c.finalize();
        let mut taken = crate::model::id::Taken::default();
        for (k, s) in kids.iter().zip(&segs) {
            let want = format!("docs/a.md#{}", crate::model::id::dedupe(s, &mut taken));
            assert_eq!(c.id(*k), want);
        }
        assert_eq!(c.id(kids[39]), "docs/a.md#a-34");
        // A second finalize changes nothing.
        let all = |c: &Corpus| -> Vec<String> {
            (0..c.nodes.len() as u32).map(|i| c.id(NodeId(i))).collect()
        };
        let before = all(&c);
        c.finalize();
        assert_eq!(all(&c), before);
        assert_eq!(c.find("docs/a.md#a-34"), Some(kids[39]));
    }

    #[test]
    fn a_given_segment_after_two_same_made_ones_keeps_its_name() {
        // `# Dup`, `# Dup`, `# Other {#dup}`: the author's `dup` wins; the made slugs take
        // the suffixes, in document order, past every given name (`x-2` below).
        let mut c = Corpus::new();
        let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
        let file = c.add_child(
            root,
            Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md"),
        );
        let kids: Vec<NodeId> = [
            ("dup", false),
            ("dup", false),
            ("dup", true),
            ("x", false),
            ("x", false),
            ("x-2", true),
            ("x-2", true),
        ]
        .into_iter()
        .map(|(seg, given)| {
            let mut n = Node::new(NodeKind::Section, Format::Markdown, seg, "a.md");
            n.seg = Some(seg.to_string().into());
            n.seg_given = given;
            c.add_child(file, n)
        })
        .collect();
        c.finalize();
        let ids = |c: &Corpus| -> Vec<String> { kids.iter().map(|k| c.id(*k)).collect() };
        let want =
            ["dup-2", "dup-3", "dup", "x", "x-3", "x-2", "x-2-2"].map(|s| format!("docs/a.md#{s}"));
        assert_eq!(ids(&c), want);
        // A second finalize changes nothing.
        c.finalize();
        assert_eq!(ids(&c), want);
    }

    #[test]
    fn append_rebases_ids() {
        let (mut c, ..) = sample();
        let (d, _, _, sb) = sample();
        let n = c.len() as u32;
        c.append(d);
        assert_eq!(c.roots.len(), 2);
        assert_eq!(c.text(NodeId(sb.0 + n)), "## B\ny\n");
    }
}
