//! Every agent's skill folders (docs/AGENTS.md "Skill folders"): the one table of which
//! user and project folders each agent client reads, the labels of discovered roots
//! (`<owner>-<scope>`: `claude-code-user`, `cursor-project`, `agents-user`), and the scope
//! a label stands for, which the precedence profiles rank.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The agents `--agent` names.
pub const AGENT_NAMES: [&str; 6] = ["claude-code", "cursor", "codex", "gemini", "copilot", "opencode"];

/// Where a skill folder lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    /// Below the working directory (checked in with the project).
    Project,
    /// Below the home folder (the user's personal skills).
    User,
    /// Inside a plugin.
    Plugin,
}

impl Scope {
    /// `project` / `user` / `plugin`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::User => "user",
            Self::Plugin => "plugin",
        }
    }
}

/// One skill folder convention: the folder (relative to the project or home folder), its
/// owner (the agent whose name it carries, or `agents` for the cross-agent folders) and the
/// agents that read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentFolder {
    /// Owner, the first part of the root label.
    pub owner: &'static str,
    /// Project or user folder.
    pub scope: Scope,
    /// Path below the project folder (cwd) or the home folder.
    pub rel: &'static str,
    /// The agents (of [`AGENT_NAMES`]) that read this folder.
    pub read_by: &'static [&'static str],
}

const CLAUDE_READERS: &[&str] = &["claude-code", "cursor", "copilot", "opencode"];
const AGENTS_READERS: &[&str] = &["cursor", "codex", "gemini", "copilot", "opencode"];

/// The folders, in discovery order: project folders first, then user folders (so with the default last-wins
/// precedence a user skill wins over a same-named project skill, as before).
pub const FOLDERS: [AgentFolder; 14] = [
    AgentFolder {
        owner: "claude-code",
        scope: Scope::Project,
        rel: ".claude/skills",
        read_by: CLAUDE_READERS,
    },
    AgentFolder { owner: "agents", scope: Scope::Project, rel: ".agents/skills", read_by: AGENTS_READERS },
    AgentFolder { owner: "cursor", scope: Scope::Project, rel: ".cursor/skills", read_by: &["cursor"] },
    AgentFolder { owner: "gemini", scope: Scope::Project, rel: ".gemini/skills", read_by: &["gemini"] },
    AgentFolder { owner: "copilot", scope: Scope::Project, rel: ".github/skills", read_by: &["copilot"] },
    AgentFolder { owner: "opencode", scope: Scope::Project, rel: ".opencode/skills", read_by: &["opencode"] },
    AgentFolder { owner: "claude-code", scope: Scope::User, rel: ".claude/skills", read_by: CLAUDE_READERS },
    AgentFolder { owner: "agents", scope: Scope::User, rel: ".agents/skills", read_by: AGENTS_READERS },
    AgentFolder { owner: "agents", scope: Scope::User, rel: ".config/agents/skills", read_by: &[] },
    AgentFolder { owner: "cursor", scope: Scope::User, rel: ".cursor/skills", read_by: &["cursor"] },
    AgentFolder { owner: "codex", scope: Scope::User, rel: ".codex/skills", read_by: &["codex", "cursor"] },
    AgentFolder { owner: "gemini", scope: Scope::User, rel: ".gemini/skills", read_by: &["gemini"] },
    AgentFolder { owner: "copilot", scope: Scope::User, rel: ".copilot/skills", read_by: &["copilot"] },
    AgentFolder {
        owner: "opencode",
        scope: Scope::User,
        rel: ".config/opencode/skills",
        read_by: &["opencode"],
    },
];

/// The label of a discovered root: `<owner>-<scope>`.
pub fn label(f: &AgentFolder) -> String {
    format!("{}-{}", f.owner, f.scope.as_str())
}

/// The scope a root label names (`…-user`, `…-project`, `…-plugin`, also with a `-2`
/// suffix), `None` for other labels (PATH arguments).
pub fn scope_of_label(label: &str) -> Option<Scope> {
    let base = match label.rsplit_once('-') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => label,
    };
    [Scope::User, Scope::Project, Scope::Plugin]
        .into_iter()
        .find(|s| base.ends_with(&format!("-{}", s.as_str())))
}

/// The skill folders that exist for `agent` (all agents when `None`), project folders under
/// `cwd` and user folders under `home`, each with its label, in [`folders`] order. A folder
/// reached twice (cwd is home, a link) is listed once.
pub fn discover(cwd: &Path, home: Option<&Path>, agent: Option<&str>) -> Vec<(PathBuf, String)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for f in FOLDERS {
        if let Some(a) = agent
            && !f.read_by.contains(&a)
        {
            continue;
        }
        let base = match f.scope {
            Scope::Project => cwd,
            Scope::User | Scope::Plugin => match home {
                Some(h) => h,
                None => continue,
            },
        };
        let path = base.join(f.rel);
        if !path.is_dir() {
            continue;
        }
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(real) {
            out.push((path, label(&f)));
        }
    }
    out
}

/// The home folder: `$HOME` when set and non-empty, else the platform's.
pub fn home_dir() -> Option<PathBuf> {
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return Some(PathBuf::from(h));
    }
    directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_scope() {
        assert_eq!(scope_of_label("claude-code-user"), Some(Scope::User));
        assert_eq!(scope_of_label("cursor-project-2"), Some(Scope::Project));
        assert_eq!(scope_of_label("docs"), None);
        assert_eq!(scope_of_label("docs-2"), None);
    }
}
