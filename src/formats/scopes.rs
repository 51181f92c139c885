//! Skill scopes across roots (FORMATS §5.2 `loadSkillsDirs`): several skill roots (project
//! `.claude/skills`, user `~/.claude/skills`, plugin folders) are merged by skill name.
//! Same-named skills are resolved by precedence — the last root wins by default, the first
//! with `--first-wins` — and the losers stay visible, flagged `shadowed`, with a warning
//! naming the winner. Roots with the same real path are opened once ([`super::root_specs`]).

use std::collections::HashMap;

use crate::model::{Corpus, Flag, NodeId, NodeKind, Warning};

/// Mark shadowed skills in a corpus of several roots. Skills are compared by their name
/// (the node title: frontmatter `name`, else the folder name). Within one root, the first
/// of two same-named skills wins (a root is one scope). Returns the shadowed skill nodes.
pub fn resolve_scopes(corpus: &mut Corpus, first_wins: bool) -> Vec<NodeId> {
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
        node.flags.set(Flag::Shadowed);
        node.meta.insert("shadowed_by".into(), winner_id.clone().into());
        node.warnings.push(Warning::new(format!("shadowed by {winner_id} (same skill name)")));
        out.push(loser);
    }
    out
}

/// Prefix every skill title with its root label (`scope:name`, context-chef's namespace
/// option) so same-named skills from different scopes can both be listed.
pub fn namespace_skills(corpus: &mut Corpus) {
    for root in corpus.roots.clone() {
        let label = corpus.node(root).title.clone();
        for n in corpus.preorder(root) {
            if corpus.node(n).kind == NodeKind::Skill {
                let node = corpus.node_mut(n);
                node.title = format!("{label}:{}", node.title);
            }
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
