//! Every agent's skill folders (docs/AGENTS.md "Skill folders"): the one table of which
//! user and project folders each agent client reads, the labels of discovered roots
//! (`<owner>-<scope>`: `claude-code-user`, `cursor-project`, `agents-user`), and the scope
//! a label stands for, which the precedence profiles rank.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The agents `--agent` names.
pub const AGENT_NAMES: [&str; 6] = [
    "claude-code",
    "cursor",
    "codex",
    "gemini",
    "copilot",
    "opencode",
];

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
pub const FOLDERS: [AgentFolder; 15] = [
    AgentFolder {
        owner: "claude-code",
        scope: Scope::Project,
        rel: ".claude/skills",
        read_by: CLAUDE_READERS,
    },
    AgentFolder {
        owner: "agents",
        scope: Scope::Project,
        rel: ".agents/skills",
        read_by: AGENTS_READERS,
    },
    AgentFolder {
        owner: "cursor",
        scope: Scope::Project,
        rel: ".cursor/skills",
        read_by: &["cursor"],
    },
    AgentFolder {
        owner: "codex",
        scope: Scope::Project,
        rel: ".codex/skills",
        read_by: &["codex"],
    },
    AgentFolder {
        owner: "gemini",
        scope: Scope::Project,
        rel: ".gemini/skills",
        read_by: &["gemini"],
    },
    AgentFolder {
        owner: "copilot",
        scope: Scope::Project,
        rel: ".github/skills",
        read_by: &["copilot"],
    },
    AgentFolder {
        owner: "opencode",
        scope: Scope::Project,
        rel: ".opencode/skills",
        read_by: &["opencode"],
    },
    AgentFolder {
        owner: "claude-code",
        scope: Scope::User,
        rel: ".claude/skills",
        read_by: CLAUDE_READERS,
    },
    AgentFolder {
        owner: "agents",
        scope: Scope::User,
        rel: ".agents/skills",
        read_by: AGENTS_READERS,
    },
    AgentFolder {
        owner: "agents",
        scope: Scope::User,
        rel: ".config/agents/skills",
        read_by: &[],
    },
    AgentFolder {
        owner: "cursor",
        scope: Scope::User,
        rel: ".cursor/skills",
        read_by: &["cursor"],
    },
    AgentFolder {
        owner: "codex",
        scope: Scope::User,
        rel: ".codex/skills",
        read_by: &["codex", "cursor"],
    },
    AgentFolder {
        owner: "gemini",
        scope: Scope::User,
        rel: ".gemini/skills",
        read_by: &["gemini"],
    },
    AgentFolder {
        owner: "copilot",
        scope: Scope::User,
        rel: ".copilot/skills",
        read_by: &["copilot"],
    },
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
/// `cwd` and user folders under `home`, each with its label, in [`FOLDERS`] order; for
/// Claude Code also the nested `.claude/skills` folders below `cwd` ([`nested_claude`],
/// after the project folders) and the skills of enabled plugins ([`claude_plugins`], last);
/// with an agent named, also the project folders of each folder up to the repository root
/// ([`up_to_repo_root`]), after the one of `cwd`: `list --agent X` reads X's folders from
/// the project root (Codex and OpenCode document the walk up; the others read the
/// project they are started in, which is the repository).
/// A folder reached twice (cwd is home, a link) is listed once.
pub fn discover(cwd: &Path, home: Option<&Path>, agent: Option<&str>) -> Vec<(PathBuf, String)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut push = |path: PathBuf, label: String, out: &mut Vec<(PathBuf, String)>| {
        if !path.is_dir() {
            return;
        }
        let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(real) {
            out.push((path, label));
        }
    };
    let claude = agent.is_none_or(|a| a == "claude-code");
    let mut nested_done = false;
    for f in FOLDERS {
        if let Some(a) = agent
            && !f.read_by.contains(&a)
        {
            continue;
        }
        if f.scope != Scope::Project && !nested_done {
            nested_done = true;
            if claude {
                for p in nested_claude(cwd) {
                    push(p, "claude-code-project".into(), &mut out);
                }
            }
        }
        let base = match f.scope {
            Scope::Project => cwd,
            Scope::User | Scope::Plugin => match home {
                Some(h) => h,
                None => continue,
            },
        };
        push(base.join(f.rel), label(&f), &mut out);
        if f.scope == Scope::Project && agent.is_some() {
            for dir in up_to_repo_root(cwd) {
                push(dir.join(f.rel), label(&f), &mut out);
            }
        }
    }
    if claude && let Some(h) = home {
        for (name, dir) in claude_plugins(h) {
            push(dir, format!("{name}-plugin"), &mut out);
        }
    }
    out
}

/// The ancestors of `cwd` up to and including the nearest one holding `.git` (nearest
/// first, `cwd` itself not included); empty when no ancestor is a repository root.
pub fn up_to_repo_root(cwd: &Path) -> Vec<PathBuf> {
    if cwd.join(".git").exists() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for dir in cwd.ancestors().skip(1) {
        out.push(dir.to_path_buf());
        if dir.join(".git").exists() {
            return out;
        }
    }
    Vec::new()
}

/// Folders skipped while looking for nested `.claude/skills` folders.
pub const SKIP_DIRS: [&str; 4] = ["node_modules", "target", "vendor", "dist"];

/// The `.claude/skills` folders below `cwd` (not `cwd/.claude/skills` itself), at most three
/// folders deep, skipping hidden folders and [`SKIP_DIRS`], in sorted path order.
pub fn nested_claude(cwd: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(cwd.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = crate::formats::walk::inputs::read_dir(&dir) else {
            continue;
        };
        let mut subs: Vec<PathBuf> = rd
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                !n.starts_with('.') && !SKIP_DIRS.contains(&n.as_str())
            })
            .map(|e| e.path())
            .collect();
        subs.sort();
        for sub in subs {
            let skills = sub.join(".claude/skills");
            if skills.is_dir() {
                out.push(skills);
            }
            if depth + 1 < 3 {
                stack.push((sub, depth + 1));
            }
        }
    }
    out.sort();
    out
}

/// The `skills/` folders of Claude Code's enabled plugins: `enabledPlugins` of
/// `~/.claude/settings.json` (`"name@marketplace": true`), located through the
/// `installPath` of `~/.claude/plugins/installed_plugins.json` (its `plugins` map holds one
/// entry or a list of entries per plugin). Returns (plugin name, skills folder), sorted by
/// name; unreadable files give nothing.
pub fn claude_plugins(home: &Path) -> Vec<(String, PathBuf)> {
    let read = |p: PathBuf| -> Option<serde_json::Value> {
        serde_json::from_str(&crate::formats::walk::inputs::read_to_string(&p).ok()?).ok()
    };
    let (Some(settings), Some(installed)) = (
        read(home.join(".claude/settings.json")),
        read(home.join(".claude/plugins/installed_plugins.json")),
    ) else {
        return Vec::new();
    };
    let Some(enabled) = settings.get("enabledPlugins").and_then(|v| v.as_object()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, on) in enabled {
        if on.as_bool() != Some(true) {
            continue;
        }
        let entry = installed.get("plugins").and_then(|p| p.get(key));
        let entry = match entry {
            Some(serde_json::Value::Array(a)) => a.first(),
            other => other,
        };
        let Some(path) = entry
            .and_then(|e| e.get("installPath"))
            .and_then(|p| p.as_str())
        else {
            continue;
        };
        let name = key
            .split('@')
            .next()
            .unwrap_or(key)
            .replace(['#', '/'], "-");
        out.push((name, PathBuf::from(path).join("skills")));
    }
    out.sort();
    out
}

/// Prefix the skills of plugin roots (labels naming [`Scope::Plugin`], `docs-plugin`) with
/// the plugin name, as Claude Code names them (`docs:review`). Running it again changes
/// nothing.
pub fn namespace_plugins(corpus: &mut crate::model::Corpus) {
    for root in corpus.roots.clone() {
        let label = corpus.node(root).title.clone();
        if scope_of_label(&label) != Some(Scope::Plugin) {
            continue;
        }
        let base = match label.rsplit_once('-') {
            Some((head, n)) if n.bytes().all(|b| b.is_ascii_digit()) => head.to_string(),
            _ => label.clone(),
        };
        let name = base.strip_suffix("-plugin").unwrap_or(&base).to_string();
        for n in corpus.preorder(root) {
            let node = corpus.node_mut(n);
            if node.kind == crate::model::NodeKind::Skill
                && !node.title.starts_with(&format!("{name}:"))
            {
                node.title = format!("{name}:{}", node.title);
            }
        }
    }
}

/// Where skills came from, by skill name, as `npx skills` records it: the `skills` map of
/// `<cwd>/skills-lock.json`, then of `~/.agents/.skill-lock.json` (the project file wins a
/// name both hold); each entry's `source` (`owner/repo`), else its `sourceUrl`.
pub fn lock_sources(cwd: &Path, home: Option<&Path>) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let files = std::iter::once(cwd.join("skills-lock.json"))
        .chain(home.map(|h| h.join(".agents/.skill-lock.json")));
    for f in files {
        let Some(v) = crate::formats::walk::inputs::read_to_string(&f)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        else {
            continue;
        };
        let Some(skills) = v.get("skills").and_then(|s| s.as_object()) else {
            continue;
        };
        for (name, e) in skills {
            let src = e
                .get("source")
                .or_else(|| e.get("sourceUrl"))
                .and_then(|s| s.as_str());
            if let Some(src) = src {
                out.entry(name.clone()).or_insert_with(|| src.to_string());
            }
        }
    }
    out
}

/// Record [`lock_sources`] on the skills they name: `meta.installed_from` = the source.
pub fn mark_provenance(
    corpus: &mut crate::model::Corpus,
    sources: &std::collections::BTreeMap<String, String>,
) {
    if sources.is_empty() {
        return;
    }
    for id in corpus.all_preorder() {
        let node = corpus.node_mut(id);
        if node.kind != crate::model::NodeKind::Skill {
            continue;
        }
        if let Some(src) = sources.get(&node.title) {
            node.meta
                .insert("installed_from".into(), src.clone().into());
        }
    }
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
