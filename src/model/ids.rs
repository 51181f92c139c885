//! String ids of the arena's nodes (docs/DESIGN.md §2): `<root>/<relpath>[#<seg>(/<seg>)*]`.
//! A node does not hold its id; the id is made from the tree when asked for (a node keeps
//! its own segment and that segment's collision number), so half a million sections do not
//! hold 80 MB of ids that share their file's prefix (docs/DESIGN.md §8 "Memory").

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use super::corpus::Corpus;
use super::id::nfc;
use super::node::{NodeId, NodeKind};
use crate::util::digest::key128;

impl Corpus {
    /// The string id of node `n`: a root's id is its label (title); a folder or file below
    /// it is `<root>/<relpath>`; a node with a segment is its parent's id, then `#` (first
    /// segment below a file or folder) or `/`, then the segment with its `-N` collision
    /// suffix (docs/FORMATS.md §10). Made from the tree: call after [`Corpus::finalize`].
    pub fn id(&self, n: NodeId) -> String {
        let mut out = String::new();
        self.push_id(n, &mut out);
        out
    }

    /// Append [`Corpus::id`] of `n` to `out`.
    pub fn push_id(&self, n: NodeId, out: &mut String) {
        let node = self.node(n);
        let Some(p) = node.parent else {
            out.push_str(&node.title);
            return;
        };
        match node.seg() {
            Some(seg) => {
                let start = out.len();
                self.push_id(p, out);
                let parent = self.node(p);
                let below_file = !matches!(
                    parent.kind,
                    NodeKind::Root | NodeKind::Skill | NodeKind::Dir | NodeKind::Group
                ) || parent.has_seg();
                let sep = if !below_file || !out[start..].contains('#') {
                    '#'
                } else {
                    '/'
                };
                out.push(sep);
                out.push_str(&seg);
                if node.seg_n > 0 {
                    let _ = write!(out, "-{}", node.seg_n);
                }
            }
            None if node.path.is_empty() => {
                self.push_id(p, out);
                out.push('/');
                out.push_str(&node.title);
            }
            None => {
                out.push_str(&self.node(self.root_of(n)).title);
                out.push('/');
                out.push_str(&node.path);
            }
        }
    }

    /// Look a node up by its string id, spelled in the id's own Unicode form or in NFC
    /// (`model::id::nfc`). The first lookup after a change keys every id by 128 bits
    /// (24 bytes a node, not a copy of each id); a found node's id is compared in full.
    pub fn find(&self, id: &str) -> Option<NodeId> {
        let map = self.id_map.get_or_init(|| self.id_keys());
        let exact = |k: &str| {
            map.get(&key128(k)).copied().filter(|c| {
                let found = self.id(*c);
                found == k || nfc(&found) == k
            })
        };
        exact(id).or_else(|| match nfc(id) {
            Cow::Owned(k) => exact(&k),
            Cow::Borrowed(_) => None,
        })
    }

    /// Every node's id key, then the NFC spelling's key where it differs (an id spelled
    /// exactly wins over another id's NFC form: a decomposed file name typed composed).
    fn id_keys(&self) -> HashMap<u128, NodeId> {
        let mut map = HashMap::with_capacity(self.nodes.len());
        let mut buf = String::new();
        let mut composed = Vec::new();
        for i in 0..self.nodes.len() {
            let n = NodeId(i as u32);
            buf.clear();
            self.push_id(n, &mut buf);
            map.insert(key128(&buf), n);
            if let Cow::Owned(k) = nfc(&buf) {
                composed.push((key128(&k), n));
            }
        }
        for (k, n) in composed {
            map.entry(k).or_insert(n);
        }
        map
    }

    /// Number the segments of `root`'s subtree: a segment equal to an earlier sibling's
    /// gets the smallest free `-2`, `-3`, … suffix (GitHub anchor style). Segments given by
    /// the author (`{#id}`) are numbered first, in document order, so a made slug never
    /// takes a given name: `Dup`, `Dup`, `Other {#dup}` are `dup-2`, `dup-3`, `dup`
    /// (docs/FORMATS.md §10).
    pub(super) fn number_segments(&mut self, root: NodeId) {
        let mut stack = vec![root];
        let mut updates: Vec<(NodeId, u32)> = Vec::new();
        while let Some(p) = stack.pop() {
            let nodes = &self.nodes;
            let kids = &nodes[p.ix()].children;
            let mut taken = SegSet::default();
            let given: Vec<Option<u32>> = if kids.iter().any(|c| nodes[c.ix()].seg_given) {
                kids.iter()
                    .map(|c| match &nodes[c.ix()] {
                        n if n.seg_given => n.seg().map(|s| number(s, &mut taken)),
                        _ => None,
                    })
                    .collect()
            } else {
                Vec::new()
            };
            for (i, &c) in kids.iter().enumerate() {
                let node = &nodes[c.ix()];
                if let Some(seg) = node.seg() {
                    let n = match given.get(i).copied().flatten() {
                        Some(n) => n,
                        None => number(seg, &mut taken),
                    };
                    if node.seg_n != n {
                        updates.push((c, n));
                    }
                }
                stack.push(c);
            }
            for (c, n) in updates.drain(..) {
                self.nodes[c.ix()].seg_n = n;
            }
        }
    }
}

/// Segments taken among one parent's children: a short list scanned in place (most parents
/// have a handful of children), a hash set past [`SegSet::SMALL`].
#[derive(Default)]
struct SegSet<'a> {
    small: Vec<Cow<'a, str>>,
    big: HashSet<Cow<'a, str>>,
    /// Per base segment, the next suffix to try: every smaller one is already taken (the set
    /// only grows), so `n` equal siblings cost O(n), not O(n²).
    next: HashMap<Cow<'a, str>, u32>,
}

impl<'a> SegSet<'a> {
    const SMALL: usize = 16;

    fn contains(&self, s: &str) -> bool {
        self.small.iter().any(|t| t == s) || self.big.contains(s)
    }

    /// Add `s`; false if it was already there.
    fn insert(&mut self, s: Cow<'a, str>) -> bool {
        if self.contains(&s) {
            return false;
        }
        if self.small.len() < Self::SMALL {
            self.small.push(s);
        } else {
            self.big.insert(s);
        }
        true
    }
}

/// The collision number of `seg` among `taken` (0: `seg` itself is free; else the smallest
/// `N` ≥ 2 with `seg-N` free, the rule of [`super::id::dedupe`]), and record the result.
fn number<'a>(seg: Cow<'a, str>, taken: &mut SegSet<'a>) -> u32 {
    if !taken.contains(&seg) {
        taken.insert(seg);
        return 0;
    }
    let mut n = taken.next.get(&seg).copied().unwrap_or(2);
    loop {
        let cand = format!("{seg}-{n}");
        if !taken.contains(&cand) {
            taken.insert(Cow::Owned(cand));
            taken.next.insert(seg, n + 1);
            return n;
        }
        n += 1;
    }
}
