//! Skill scopes across roots (docs/FORMATS.md §5.2 `loadSkillsDirs`): several skill roots (project
//! `.claude/skills`, user `~/.claude/skills`, plugin folders) are merged by skill name.
//! Same-named skills are resolved by precedence — the last root wins by default, the first
//! with `--first-wins`, or a named profile ([`Precedence`]) — and the losers stay visible, flagged `shadowed`, with a warning
//! naming the winner. Roots with the same real path are opened once ([`super::root_specs`]);
//! a file reached again by a later root (a folder and a file inside it both opened) is kept
//! but flagged `alias` ([`mark_cross_root_aliases`]), so it is counted once.

use std::collections::HashMap;
use std::path::PathBuf;

use super::agents::Scope;
use crate::model::{Corpus, Flag, NodeId, NodeKind, Warning};

/// Which of two same-named skills in different roots wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precedence {
    /// The later root wins (skillnav's default: user folders come after project folders).
    #[default]
    LastWins,
    /// The earlier root wins (`--first-wins`).
    FirstWins,
    /// Claude Code: personal (user) over project over plugin; equal scopes: the earlier root.
    ClaudeCode,
    /// The Agent Skills guide: project over user over plugin; equal scopes: the earlier root.
    Spec,
}

impl Precedence {
    /// Parse `last-wins` / `first-wins` / `claude-code` / `spec`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "last-wins" => Some(Self::LastWins),
            "first-wins" => Some(Self::FirstWins),
            "claude-code" => Some(Self::ClaudeCode),
            "spec" => Some(Self::Spec),
            _ => None,
        }
    }

    /// The name [`Precedence::parse`] reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LastWins => "last-wins",
            Self::FirstWins => "first-wins",
            Self::ClaudeCode => "claude-code",
            Self::Spec => "spec",
        }
    }

    /// Rank of a root's scope (higher wins); roots whose label names no scope count as
    /// project folders.
    fn rank(self, label: &str) -> u8 {
        let scope = super::agents::scope_of_label(label).unwrap_or(Scope::Project);
        match (self, scope) {
            (Self::LastWins | Self::FirstWins, _) => 0,
            (Self::ClaudeCode, Scope::User) | (Self::Spec, Scope::Project) => 2,
            (Self::ClaudeCode, Scope::Project) | (Self::Spec, Scope::User) => 1,
            (_, Scope::Plugin) => 0,
        }
    }

    /// Why the winner wins, for the shadowed skill's warning (`None` for the plain
    /// root-order rules, whose warning stays `shadowed by X (same skill name)`).
    fn reason(self) -> Option<&'static str> {
        match self {
            Self::LastWins | Self::FirstWins => None,
            Self::ClaudeCode => Some("claude-code precedence: personal over project over plugin"),
            Self::Spec => Some("spec precedence: project over user"),
        }
    }
}

/// [`resolve_scopes_with`] by root order: the last root wins, or the first with
/// `first_wins`.
pub fn resolve_scopes(corpus: &mut Corpus, first_wins: bool) -> Vec<NodeId> {
    resolve_scopes_with(
        corpus,
        if first_wins {
            Precedence::FirstWins
        } else {
            Precedence::LastWins
        },
    )
}

/// Mark shadowed skills in a corpus of several roots. Skills are compared by their name
/// (the node title: frontmatter `name`, else the folder name). Within one root (a root is
/// one scope), of two same-named skills the one in a folder of that name wins, else the
/// first; across roots `precedence` decides
/// (the scope a root label names, [`super::agents::scope_of_label`], then root order). The
/// loser gets `meta.shadowed_by` (the winner's id) and, for the scope profiles,
/// `meta.shadowed_why`. Returns the shadowed skill nodes.
///
/// Runs [`mark_cross_root_aliases`] first (this is the step every caller runs once all
/// roots are merged), so files loaded by two roots are counted once, then names the skills
/// of plugin roots `plugin:skill` ([`super::agents::namespace_plugins`]).
pub fn resolve_scopes_with(corpus: &mut Corpus, precedence: Precedence) -> Vec<NodeId> {
    resolve_scopes_in(corpus, precedence, false)
}

/// [`resolve_scopes_with`] for roots opened with or without `--agent`: when the roots
/// were discovered for every agent (`agent_named` false), skills compete only within the
/// folders of one agent (the owner a root label names, `cursor-user` → `cursor`), since two
/// agents' folders never shadow each other; with `--agent` (or for PATH arguments, whose
/// labels name no agent) every root competes. Callers pass
/// `LoadOptions::effective_precedence()` and whether `LoadOptions::agent` is set.
pub fn resolve_scopes_for(
    corpus: &mut Corpus,
    precedence: Precedence,
    agent_named: bool,
) -> Vec<NodeId> {
    resolve_scopes_in(corpus, precedence, !agent_named)
}

/// The agent a discovered root label names (`claude-code-project-2` → `claude-code`); empty
/// for other labels.
fn owner_of_label(label: &str) -> &str {
    let Some(scope) = super::agents::scope_of_label(label) else {
        return "";
    };
    let base = match label.rsplit_once('-') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => label,
    };
    base.strip_suffix(scope.as_str())
        .and_then(|b| b.strip_suffix('-'))
        .unwrap_or("")
}

fn resolve_scopes_in(corpus: &mut Corpus, precedence: Precedence, per_agent: bool) -> Vec<NodeId> {
    mark_cross_root_aliases(corpus);
    super::agents::namespace_plugins(corpus);
    // (agent, name) → (winner, its root position, its rank)
    let mut winners: HashMap<(String, String), (NodeId, usize, u8)> = HashMap::new();
    let mut shadowed: Vec<(NodeId, NodeId)> = Vec::new();
    for (ri, root) in corpus.roots.clone().into_iter().enumerate() {
        let rank = precedence.rank(&corpus.node(root).title);
        let owner = if per_agent {
            owner_of_label(&corpus.node(root).title).to_string()
        } else {
            String::new()
        };
        for n in corpus.preorder(root) {
            let node = corpus.node(n);
            if node.kind != NodeKind::Skill || corpus.is_copy(n) {
                continue;
            }
            let name = (owner.clone(), node.title.clone());
            match winners.get(&name).copied() {
                None => {
                    winners.insert(name, (n, ri, rank));
                }
                Some((w, wr, _))
                    if wr == ri && !named_as_folder(corpus, w) && named_as_folder(corpus, n) =>
                {
                    shadowed.push((w, n));
                    winners.insert(name, (n, ri, rank));
                }
                Some((w, wr, wrank)) if wr != ri && beats(precedence, rank, wrank) => {
                    shadowed.push((w, n));
                    winners.insert(name, (n, ri, rank));
                }
                Some((w, _, _)) => shadowed.push((n, w)),
            }
        }
    }
    let mut out = Vec::new();
    for (loser, winner) in shadowed {
        let winner_id = corpus.id(winner);
        let node = corpus.node_mut(loser);
        // Running it again (after one root is reloaded) adds no second warning.
        let again = node.flags.has(Flag::Shadowed)
            && node.meta.get("shadowed_by").and_then(|v| v.as_str()) == Some(winner_id.as_str());
        node.flags.set(Flag::Shadowed);
        node.meta
            .insert("shadowed_by".into(), winner_id.clone().into());
        if let Some(why) = precedence.reason() {
            node.meta.insert("shadowed_why".into(), why.into());
        }
        if !again {
            let msg = match precedence.reason() {
                Some(why) => format!("shadowed by {winner_id} (same skill name; {why})"),
                None => format!("shadowed by {winner_id} (same skill name)"),
            };
            node.warnings.push(Warning::new(msg));
        }
        out.push(loser);
    }
    out
}

/// Whether skill node `n` bears its folder's name (the Agent Skills rule `name` = folder
/// name): within one root such a skill wins over a same-named one in another folder, so a
/// folder that borrows a sibling's name never shadows the sibling.
fn named_as_folder(corpus: &Corpus, n: NodeId) -> bool {
    let node = corpus.node(n);
    node.path.rsplit('/').next() == Some(node.title.as_str())
}

/// Whether a skill of a later root with `rank` beats the current winner of `wrank`.
fn beats(precedence: Precedence, rank: u8, wrank: u8) -> bool {
    match precedence {
        Precedence::LastWins => true,
        Precedence::FirstWins => false,
        Precedence::ClaudeCode | Precedence::Spec => rank > wrank,
    }
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
            let Some(path) = corpus
                .sources
                .get(span.source.0 as usize)
                .and_then(|s| s.abs_path.clone())
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
        let first_id = corpus.id(first);
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
        mark_skill_alias(corpus, n, first);
    }
    out
}

/// Flag `alias` the skill whose `SKILL.md` is the alias file `file` (of `first`), so one
/// skill opened through two roots (`validate a a/skills`) is one skill, not one shadowing
/// itself; its `meta.alias_of` is the first occurrence's skill.
fn mark_skill_alias(corpus: &mut Corpus, file: NodeId, first: NodeId) {
    let skill_of = |c: &Corpus, f: NodeId| {
        let parent = c.node(f).parent?;
        let is_skill_file =
            super::walk::skill_file::SKILL_FILE_NAMES.contains(&c.node(f).title.as_str());
        (is_skill_file && c.node(parent).kind == NodeKind::Skill).then_some(parent)
    };
    let (Some(skill), Some(first_skill)) = (skill_of(corpus, file), skill_of(corpus, first)) else {
        return;
    };
    let first_id = corpus.id(first_skill);
    let node = corpus.node_mut(skill);
    node.flags.set(Flag::Alias);
    node.meta.insert("alias_of".into(), first_id.into());
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
        assert_eq!(
            c.node(a).warnings[0].message,
            "shadowed by user/pdf (same skill name)"
        );
    }

    #[test]
    fn a_folder_that_borrows_a_siblings_name_does_not_shadow_the_sibling() {
        let mut c = Corpus::new();
        let r = c.add_root(Node::new(NodeKind::Root, Format::SkillsDir, "project", ""));
        // Found first, but its folder is not named `pdf`.
        let impostor = c.add_child(r, Node::new(NodeKind::Skill, Format::Skill, "pdf", "a-pdf"));
        let real = c.add_child(r, Node::new(NodeKind::Skill, Format::Skill, "pdf", "pdf"));
        c.finalize();
        assert_eq!(resolve_scopes(&mut c, true), vec![impostor]);
        assert!(!c.node(real).flags.has(Flag::Shadowed));
        assert_eq!(
            c.node(impostor).warnings[0].message,
            "shadowed by project/pdf (same skill name)"
        );
    }

    #[test]
    fn first_wins_keeps_the_earlier_scope() {
        let (mut c, a, b, _) = two_scopes();
        assert_eq!(resolve_scopes(&mut c, true), vec![b]);
        assert!(!c.node(a).flags.has(Flag::Shadowed));
        assert_eq!(c.node(b).meta["shadowed_by"], "project/pdf");
    }

    #[test]
    fn claude_code_profile_prefers_personal_and_spec_prefers_project() {
        let mut c = Corpus::new();
        let u = c.add_root(Node::new(
            NodeKind::Root,
            Format::SkillsDir,
            "claude-code-user",
            "",
        ));
        let a = c.add_child(u, Node::new(NodeKind::Skill, Format::Skill, "pdf", "pdf"));
        let p = c.add_root(Node::new(
            NodeKind::Root,
            Format::SkillsDir,
            "claude-code-project",
            "",
        ));
        let b = c.add_child(p, Node::new(NodeKind::Skill, Format::Skill, "pdf", "pdf"));
        c.finalize();
        let mut cc = c.clone();
        assert_eq!(
            resolve_scopes_with(&mut cc, Precedence::ClaudeCode),
            vec![b]
        );
        assert_eq!(
            cc.node(b).warnings[0].message,
            "shadowed by claude-code-user/pdf (same skill name; claude-code precedence: personal over project over plugin)"
        );
        assert_eq!(resolve_scopes_with(&mut c, Precedence::Spec), vec![a]);
    }

    #[test]
    fn two_agents_folders_never_shadow_each_other_unless_one_agent_reads_both() {
        let mut c = Corpus::new();
        let skill_in = |c: &mut Corpus, label: &str| {
            let r = c.add_root(Node::new(NodeKind::Root, Format::SkillsDir, label, ""));
            c.add_child(r, Node::new(NodeKind::Skill, Format::Skill, "pdf", "pdf"))
        };
        let claude_project = skill_in(&mut c, "claude-code-project");
        let claude_user = skill_in(&mut c, "claude-code-user");
        let cursor = skill_in(&mut c, "cursor-user");
        c.finalize();
        assert_eq!(owner_of_label("claude-code-project-2"), "claude-code");
        assert_eq!(owner_of_label("cursor-user"), "cursor");
        assert_eq!(owner_of_label("docs"), "");
        // Every agent's folders (no --agent): only Claude Code's two folders compete.
        let mut every = c.clone();
        assert_eq!(
            resolve_scopes_for(&mut every, Precedence::LastWins, false),
            vec![claude_project]
        );
        assert!(!every.node(cursor).flags.has(Flag::Shadowed));
        // Cursor's folders (it reads Claude Code's too): all three compete, the last wins.
        assert_eq!(
            resolve_scopes_for(&mut c, Precedence::LastWins, true),
            vec![claude_project, claude_user]
        );
    }

    #[test]
    fn namespacing_prefixes_scope() {
        let (mut c, a, b, _) = two_scopes();
        namespace_skills(&mut c);
        assert_eq!(c.node(a).title, "project:pdf");
        assert_eq!(c.node(b).title, "user:pdf");
    }
}
