//! Telling search hits apart: for each hit, the nearest ancestor whose title no other hit of
//! the list has among its own ancestors (in a tree of KEPs every "Summary" hit gets its
//! KEP's heading or folder). The TUI results list and the CLI can show it beside the title.

use std::collections::{HashMap, HashSet};

use crate::model::{Corpus, NodeId, NodeKind};

/// For each of `hits` (in order), the ancestor that tells it apart from the other hits:
/// walking up from the hit (nearest first, roots excluded, ancestors titled like the hit
/// itself skipped), for a hit whose title other hits share the first one whose title none
/// of those same-titled hits has among its ancestors, else the first one whose title
/// appears in no other hit's ancestor chain.
/// When every ancestor title is shared: `None` for a hit whose own title no other hit has
/// (the title tells it apart), else the ancestor whose title the fewest hits share (nearest
/// first among equals). A hit directly below a root gets `None`. A node listed twice counts
/// once. Titles compare exactly. Cost: two walks up per hit.
pub fn distinguishing_ancestors(corpus: &Corpus, hits: &[NodeId]) -> Vec<Option<NodeId>> {
    let chain = |h: NodeId| -> Vec<NodeId> {
        let own = corpus.node(h).title.as_str();
        corpus
            .ancestors(h)
            .filter(|&a| corpus.node(a).kind != NodeKind::Root)
            .filter(|&a| corpus.node(a).title != own)
            .collect()
    };
    // The closure under another name: the per-hit loop below shadows `chain` with a list.
    let chain_of = &chain;
    // A node listed twice (a content and a title hit) counts once.
    let distinct: HashSet<NodeId> = hits.iter().copied().collect();
    // How many distinct hits have each title in their chain, and as their own title.
    let mut holders: HashMap<&str, usize> = HashMap::new();
    let mut named: HashMap<&str, usize> = HashMap::new();
    for &h in &distinct {
        *named.entry(corpus.node(h).title.as_str()).or_insert(0) += 1;
        let titles: HashSet<&str> = chain(h)
            .into_iter()
            .map(|a| corpus.node(a).title.as_str())
            .collect();
        for t in titles {
            *holders.entry(t).or_insert(0) += 1;
        }
    }
    let count = |a: NodeId| holders.get(corpus.node(a).title.as_str()).copied();
    hits.iter()
        .map(|&h| {
            let chain = chain(h);
            let own = corpus.node(h).title.as_str();
            // Hits of one title first need telling apart from each other: the nearest
            // ancestor no other hit of that title has (two "Accepts Helper" hits, one in a
            // bundle skill and one in its input folder, among many hits of both).
            if named.get(own).copied().unwrap_or(0) >= 2 {
                let peers: HashSet<&str> = distinct
                    .iter()
                    .filter(|&&p| p != h && corpus.node(p).title == own)
                    .flat_map(|&p| chain_of(p))
                    .map(|a| corpus.node(a).title.as_str())
                    .collect();
                if let Some(a) = chain
                    .iter()
                    .copied()
                    .find(|&a| !peers.contains(corpus.node(a).title.as_str()))
                {
                    return Some(a);
                }
            }
            if let Some(a) = chain.iter().copied().find(|&a| count(a) == Some(1)) {
                return Some(a);
            }
            // No ancestor of its own: only a hit whose title others share needs one, the
            // rarest (`min_by_key` keeps the nearest among equals).
            if named
                .get(corpus.node(h).title.as_str())
                .copied()
                .unwrap_or(0)
                < 2
            {
                return None;
            }
            chain.iter().copied().min_by_key(|&a| count(a))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node};

    fn node(kind: NodeKind, title: &str) -> Node {
        Node::new(kind, Format::DocTree, title, title)
    }

    /// A root with `<kep>/README.md` holding a "Summary" section per KEP, and a second
    /// "Summary" in the first KEP's file under "Design".
    fn keps() -> (Corpus, Vec<NodeId>) {
        let mut c = Corpus::new();
        let root = c.add_root(node(NodeKind::Root, "keps"));
        let mut hits = Vec::new();
        let mut readmes = Vec::new();
        for name in ["1287-in-place-update", "3521-pod-scheduling"] {
            let dir = c.add_child(root, node(NodeKind::Dir, name));
            let file = c.add_child(dir, node(NodeKind::File, "README.md"));
            readmes.push(file);
            hits.push(c.add_child(file, node(NodeKind::Section, "Summary")));
        }
        let design = c.add_child(readmes[0], node(NodeKind::Section, "Design"));
        hits.push(c.add_child(design, node(NodeKind::Section, "Summary")));
        (c, hits)
    }

    fn titles(c: &Corpus, got: &[Option<NodeId>]) -> Vec<Option<String>> {
        got.iter()
            .map(|a| a.map(|a| c.node(a).title.clone()))
            .collect()
    }

    #[test]
    fn kep_summaries_get_their_kep_folder() {
        let (c, hits) = keps();
        let got = distinguishing_ancestors(&c, &hits[..2]);
        assert_eq!(
            titles(&c, &got),
            [
                Some("1287-in-place-update".to_string()),
                Some("3521-pod-scheduling".to_string())
            ]
        );
    }

    #[test]
    fn nested_hit_gets_its_own_section_and_its_sibling_the_rarest_ancestor() {
        let (c, hits) = keps();
        let got = distinguishing_ancestors(&c, &hits);
        assert_eq!(
            titles(&c, &got),
            [
                Some("1287-in-place-update".to_string()),
                Some("3521-pod-scheduling".to_string()),
                Some("Design".to_string())
            ]
        );
    }

    #[test]
    fn hits_sharing_every_ancestor_need_none_unless_their_titles_repeat() {
        let mut c = Corpus::new();
        let root = c.add_root(node(NodeKind::Root, "hono"));
        let file = c.add_child(root, node(NodeKind::File, "middleware.md"));
        let h1 = c.add_child(file, node(NodeKind::Section, "Middleware docs"));
        let cors = c.add_child(h1, node(NodeKind::Section, "CORS"));
        let etag = c.add_child(h1, node(NodeKind::Section, "ETag"));
        // `cors` twice: a content hit and a title hit of the same node.
        assert_eq!(
            distinguishing_ancestors(&c, &[cors, etag, cors]),
            [None, None, None]
        );
        let usage_a = c.add_child(cors, node(NodeKind::Section, "Usage"));
        let usage_b = c.add_child(etag, node(NodeKind::Section, "Usage"));
        let got = distinguishing_ancestors(&c, &[usage_a, usage_b, etag]);
        assert_eq!(
            titles(&c, &got),
            [Some("CORS".to_string()), Some("ETag".to_string()), None]
        );
    }

    /// A lazytools bundle and the folder it was built from: "Accepts Helper" is a chunk of
    /// the bundle skill and a section of the input file, and every other hit lives in one
    /// of the two trees as well, so no ancestor of either is unique among all hits.
    #[test]
    fn same_titled_hits_get_the_ancestor_that_tells_them_from_each_other() {
        let mut c = Corpus::new();
        let root = c.add_root(node(NodeKind::Root, "lazytools-bundle"));
        let skill = c.add_child(root, node(NodeKind::Skill, "Hono Docs"));
        let input = c.add_child(root, node(NodeKind::Dir, "input"));
        let src = c.add_child(input, node(NodeKind::Dir, "hono-docs"));
        let mut hits = Vec::new();
        for top in [skill, src] {
            let helpers = c.add_child(top, node(NodeKind::Dir, "helpers"));
            let file = c.add_child(helpers, node(NodeKind::File, "accepts.md"));
            hits.push(c.add_child(file, node(NodeKind::Section, "Accepts Helper")));
            let guides = c.add_child(top, node(NodeKind::Dir, "guides"));
            hits.push(c.add_child(guides, node(NodeKind::Section, "Helpers")));
        }
        let got = distinguishing_ancestors(&c, &[hits[0], hits[2], hits[1], hits[3]]);
        assert_eq!(
            titles(&c, &got),
            [
                Some("Hono Docs".to_string()),
                Some("hono-docs".to_string()),
                Some("Hono Docs".to_string()),
                Some("hono-docs".to_string()),
            ]
        );
    }

    #[test]
    fn hit_below_a_root_has_none() {
        let mut c = Corpus::new();
        let root = c.add_root(node(NodeKind::Root, "r"));
        let f = c.add_child(root, node(NodeKind::File, "a.md"));
        assert_eq!(distinguishing_ancestors(&c, &[f]), [None]);
        assert!(distinguishing_ancestors(&c, &[]).is_empty());
    }
}
