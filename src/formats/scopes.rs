//! Skill scopes across roots (docs/FORMATS.md §5.2 `loadSkillsDirs`): several skill roots (project
//! `.claude/skills`, user `~/.claude/skills`, plugin folders) are merged by skill name.
//! Same-named skills are resolved by precedence — the last root wins by default, the first
//! with `--first-wins` — and the losers stay visible, flagged `shadowed`, with a warning
//! naming the winner. Roots with the same real path are opened once ([`super::root_specs`]);
//! a file reached again by a later root (a folder and a file inside it both opened) is kept
//! but flagged `alias` ([`mark_cross_root_aliases`]), so it is counted once.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::model::{Corpus, Flag, NodeId, NodeKind, Warning};

/// Mark shadowed skills in a corpus of several roots. Skills are compared by their name
/// (the node title: frontmatter `name`, else the folder name). Within one root, the first
/// of two same-named skills wins (a root is one scope). Returns the shadowed skill nodes.
///
/// Runs [`mark_cross_root_aliases`] first (this is the step every caller runs once all
/// roots are merged), so files loaded by two roots are counted once.
pub fn resolve_scopes(corpus: &mut Corpus, first_wins: bool) -> Vec<NodeId> {
    mark_cross_root_aliases(corpus);
    // name → (winner, its root position)
    let mut winners: HashMap<String, (NodeId, usize)> = HashMap::new();
    let mut shadowed: Vec<(NodeId, NodeId)> = Vec::new();
    for (ri, root) in corpus.roots.clone().into_iter().enumerate() {
        for n in corpus.preorder(root) {
            let node = corpus.node(n);
            if node.kind != NodeKind::Skill || corpus.is_copy(n) {
                continue;
            }
            let name = node.title.clone();
            match winners.get(&name).copied() {
                None => {
                    winners.insert(name, (n, ri));
                }
                Some((w, wr)) if wr != ri && !first_wins => {
                    shadowed.push((w, n));
                    winners.insert(name, (n, ri));
                }
                Some((w, _)) => shadowed.push((n, w)),
            }
        }
    }
    let mut out = Vec::new();
    for (loser, winner) in shadowed {
        let winner_id = corpus.node(winner).id.clone();
        let node = corpus.node_mut(loser);
        // Running it again (after one root is reloaded) adds no second warning.
        let again = node.flags.has(Flag::Shadowed)
            && node.meta.get("shadowed_by").and_then(|v| v.as_str()) == Some(winner_id.as_str());
        node.flags.set(Flag::Shadowed);
        node.meta.insert("shadowed_by".into(), winner_id.clone().into());
        if !again {
            node.warnings.push(Warning::new(format!("shadowed by {winner_id} (same skill name)")));
        }
        out.push(loser);
    }
    out
}

/// Flag `alias` every file node whose file on disk (its source's absolute path) was already
/// loaded by an earlier root, e.g. `skillnav tree a/docs a/docs/x.md` (docs/DESIGN.md §2:
/// aliases are listed, not counted). The alias gets `meta.alias_of` = the id of the first
/// occurrence, and the bytes of its ancestors are lowered by its size (as `finalize` sums
/// containers without copies). Files already inside a copy, virtual sources (lazytools
/// chunks) and repeats within one root are left alone; running it again changes nothing.
/// Returns the nodes flagged by this call, in tree order.
pub fn mark_cross_root_aliases(corpus: &mut Corpus) -> Vec<NodeId> {
    if corpus.roots.len() < 2 {
        return Vec::new();
    }
    let mut seen: HashMap<PathBuf, NodeId> = HashMap::new();
    let mut marks: Vec<(NodeId, NodeId)> = Vec::new();
    for root in corpus.roots.clone() {
        let mut this_root: Vec<(PathBuf, NodeId)> = Vec::new();
        for n in corpus.preorder(root) {
            let node = corpus.node(n);
            if node.kind != NodeKind::File || corpus.is_copy(n) {
                continue;
            }
            let Some(span) = node.span else { continue };
            let Some(path) = corpus.sources.get(span.source.0 as usize).and_then(|s| s.abs_path.clone())
            else {
                continue;
            };
            match seen.get(&path) {
                Some(first) => marks.push((n, *first)),
                None => this_root.push((path, n)),
            }
        }
        // Added after the walk: only earlier roots count as a first occurrence.
        for (p, n) in this_root {
            seen.entry(p).or_insert(n);
        }
    }
    let mut out = Vec::with_capacity(marks.len());
    for (n, first) in marks {
        let first_id = corpus.node(first).id.clone();
        let bytes = corpus.node(n).bytes;
        let node = corpus.node_mut(n);
        node.flags.set(Flag::Alias);
        node.meta.insert("alias_of".into(), first_id.into());
        let ancestors: Vec<NodeId> = corpus.ancestors(n).collect();
        for a in ancestors {
            let an = corpus.node_mut(a);
            an.bytes = an.bytes.saturating_sub(bytes);
        }
        out.push(n);
    }
    out
}

/// Prefix every skill title with its root label (`scope:name`, context-chef's namespace
/// option) so same-named skills from different scopes can both be listed.
pub fn namespace_skills(corpus: &mut Corpus) {
    for root in corpus.roots.clone() {
        namespace_root(corpus, root);
    }
}

/// [`namespace_skills`] for the skills of one root (a root reloaded after an edit).
pub fn namespace_root(corpus: &mut Corpus, root: NodeId) {
    let label = corpus.node(root).title.clone();
    for n in corpus.preorder(root) {
        if corpus.node(n).kind == NodeKind::Skill {
            let node = corpus.node_mut(n);
            node.title = format!("{label}:{}", node.title);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, Node};

    fn two_scopes() -> (Corpus, NodeId, NodeId, NodeId) {
        let mut c = Corpus::new();
        let p = c.add_root(Node::new(NodeKind::Root, Format::SkillsDir, "project", ""));
        let a = c.add_child(p, Node::new(NodeKind::Skill, Format::Skill, "pdf", "pdf"));
        let u = c.add_root(Node::new(NodeKind::Root, Format::SkillsDir, "user", ""));
        let b = c.add_child(u, Node::new(NodeKind::Skill, Format::Skill, "pdf", "pdf"));
        let other = c.add_child(u, Node::new(NodeKind::Skill, Format::Skill, "docx", "docx"));
        c.finalize();
        (c, a, b, other)
    }

    #[test]
    fn last_root_wins_by_default() {
        let (mut c, a, b, other) = two_scopes();
        assert_eq!(resolve_scopes(&mut c, false), vec![a]);
        assert!(c.node(a).flags.has(Flag::Shadowed));
        assert!(!c.node(b).flags.has(Flag::Shadowed));
        assert!(!c.node(other).flags.has(Flag::Shadowed));
        assert_eq!(c.node(a).warnings[0].message, "shadowed by user/pdf (same skill name)");
    }

    #[test]
    fn first_wins_keeps_the_earlier_scope() {
        let (mut c, a, b, _) = two_scopes();
        assert_eq!(resolve_scopes(&mut c, true), vec![b]);
        assert!(!c.node(a).flags.has(Flag::Shadowed));
        assert_eq!(c.node(b).meta["shadowed_by"], "project/pdf");
    }

    #[test]
    fn namespacing_prefixes_scope() {
        let (mut c, a, b, _) = two_scopes();
        namespace_skills(&mut c);
        assert_eq!(c.node(a).title, "project:pdf");
        assert_eq!(c.node(b).title, "user:pdf");
    }
}
