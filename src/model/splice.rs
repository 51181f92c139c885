//! Splicing roots of a corpus: take one root out as a corpus of its own, or replace one
//! root with a freshly loaded one and keep the others (used to reload a root after its files
//! changed). Node, source and bundle ids are re-based; the other roots' nodes keep their
//! order.

use std::sync::Arc;

use crate::model::{Corpus, NodeId, SourceId};

/// The nodes, sources and bundles of root number `ix` of `c` as a corpus of its own
/// (ids re-based to start at 0). Roots are appended one after the other, so each root's
/// nodes are one contiguous range of the arena and its sources another.
fn extract_root(c: &Corpus, ix: usize) -> Corpus {
    let start = c.roots[ix].0;
    let end = c
        .roots
        .iter()
        .map(|r| r.0)
        .filter(|s| *s > start)
        .min()
        .unwrap_or(c.nodes.len() as u32);
    let nodes = &c.nodes[start as usize..end as usize];
    let used = nodes
        .iter()
        .filter_map(|n| n.span.as_ref().map(|s| s.source.0));
    let (smin, smax) = used.fold((u32::MAX, 0), |(lo, hi), s| (lo.min(s), hi.max(s + 1)));
    let smin = smin.min(smax);
    let node = |id: NodeId| NodeId(id.0 - start);
    let mut out = Corpus::new();
    out.nodes = nodes
        .iter()
        .cloned()
        .map(|mut n| {
            n.parent = n.parent.map(node);
            n.children.iter_mut().for_each(|k| *k = node(*k));
            if let Some(s) = &mut n.span {
                s.source = SourceId(s.source.0 - smin);
            }
            n
        })
        .collect();
    out.sources = c.sources[smin as usize..smax as usize].to_vec();
    out.roots = vec![NodeId(0)];
    out.bundles = c
        .bundles
        .iter()
        .filter(|(b, _)| (start..end).contains(&b.0))
        .map(|(b, s)| (node(*b), Arc::clone(s)))
        .collect();
    out
}

/// `old` with root number `ix` replaced by `new_root` (a freshly loaded single-root
/// corpus); the other roots are copied unchanged. `ix` out of range returns a copy of `old`.
pub fn replace_root(old: &Corpus, ix: usize, new_root: Corpus) -> Corpus {
    let mut out = Corpus::new();
    let mut new_root = Some(new_root);
    for i in 0..old.roots.len() {
        if i == ix {
            if let Some(r) = new_root.take() {
                out.append(r);
            }
        } else {
            out.append(extract_root(old, i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::testing::one_file_root;
    use crate::model::{Format, Node, NodeKind};

    #[test]
    fn replace_middle_root_keeps_the_others() {
        let mut all = Corpus::new();
        all.append(one_file_root("a", "first"));
        all.append(one_file_root("b", "second"));
        all.append(one_file_root("c", "third"));
        let mut b2 = one_file_root("b", "second, longer");
        b2.add_child(
            b2.roots[0],
            Node::new(NodeKind::File, Format::Markdown, "z.md", "z.md"),
        );
        let out = replace_root(&all, 1, b2);
        assert_eq!(out.roots.len(), 3);
        assert_eq!(out.len(), 7);
        let texts: Vec<&str> = out
            .roots
            .iter()
            .map(|r| out.text(out.node(*r).children[0]))
            .collect();
        assert_eq!(texts, ["first", "second, longer", "third"]);
        assert_eq!(out.find("c/a.md").map(|n| out.text(n)), Some("third"));
        assert_eq!(out.find("b/z.md"), Some(NodeId(4)));
        assert_eq!(out.node(NodeId(4)).parent, Some(out.roots[1]));
    }
}
