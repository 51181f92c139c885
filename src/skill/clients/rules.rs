//! Which skills a client loads at all (docs/AGENTS.md "Client profiles"): the file name it
//! accepts, the frontmatter it needs, its length and depth limits, and its rule for two
//! skills of the same name. A refusal is a sentence naming the rule, shown to the user.

use super::Client;
use super::candidate::{Candidate, FmState};
use crate::formats::agents::Scope;

/// Codex: a name over 64 chars is refused (`codex-rs/core-skills/src/loader.rs`
/// `MAX_NAME_LEN`); agentskills spec: name ≤ 64 chars.
pub const MAX_NAME_CHARS: usize = 64;
/// Codex and OpenCode: a description over 1,024 chars is refused (Codex `MAX_DESCRIPTION_LEN`,
/// counted after whitespace is collapsed); agentskills spec: description ≤ 1,024 chars.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;
/// Codex scans at most six folders below a skills root (`MAX_SCAN_DEPTH`).
pub const CODEX_MAX_DEPTH: usize = 6;

/// Codex's `sanitize_single_line`: runs of whitespace (newlines included) become one space,
/// ends trimmed.
pub fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why `client` never loads `c`, or `None` when it does (same-name rules aside).
pub fn refusal(client: Client, c: &Candidate) -> Option<String> {
    if c.file_name != "SKILL.md" {
        return Some(format!(
            "{} loads only a file named SKILL.md (case-sensitive); this one is {}",
            client.display(),
            c.file_name
        ));
    }
    if let Some(why) = frontmatter_refusal(client, c) {
        return Some(why);
    }
    match client {
        Client::Codex => codex_refusal(c),
        Client::OpenCode => opencode_refusal(c),
        Client::Gemini | Client::Copilot => required_fields_refusal(client, c),
        Client::ClaudeCode => c.model_invocation_disabled.then(|| {
            "disable-model-invocation: true keeps it out of the listing (only /name runs it)"
                .to_string()
        }),
        Client::Cursor => None,
    }
}

fn frontmatter_refusal(client: Client, c: &Candidate) -> Option<String> {
    match (&c.fm, client) {
        (FmState::Unreadable, _) => {
            Some("SKILL.md is not text a client reads (binary, UTF-16 or unreadable)".into())
        }
        (FmState::Unclosed, _) => Some("the frontmatter never closes (no second --- line)".into()),
        // Claude Code reads a SKILL.md without frontmatter (name from the folder,
        // description from the first paragraph); the others need the block.
        (FmState::Missing, Client::ClaudeCode) => None,
        (FmState::Missing, _) => Some("SKILL.md has no frontmatter (--- block)".into()),
        (FmState::Invalid(line, msg), Client::Codex) => Some(format!(
            "the frontmatter is not valid YAML (line {line}: {msg})"
        )),
        _ => None,
    }
}

fn codex_refusal(c: &Candidate) -> Option<String> {
    if let Some(key) = c.not_text {
        return Some(format!(
            "{key} is a list or a map; Codex reads it as a string and refuses the skill"
        ));
    }
    if c.hidden {
        return Some("Codex skips folders whose name starts with '.'".into());
    }
    if c.depth > CODEX_MAX_DEPTH {
        return Some(format!(
            "Codex scans {CODEX_MAX_DEPTH} folders deep; this skill is {} deep",
            c.depth
        ));
    }
    let name = c
        .fm_name
        .as_deref()
        .map_or_else(|| collapse_whitespace(&c.folder), collapse_whitespace);
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        return Some(format!(
            "name is {n} chars; Codex refuses over {MAX_NAME_CHARS}"
        ));
    }
    let d = collapse_whitespace(&c.description).chars().count();
    if d == 0 {
        return Some("Codex refuses a skill without a description".into());
    }
    (d > MAX_DESCRIPTION_CHARS)
        .then(|| format!("description is {d} chars; Codex refuses over {MAX_DESCRIPTION_CHARS}"))
}

/// OpenCode's name rule: 1–64 chars of `^[a-z0-9]+(-[a-z0-9]+)*$`.
fn opencode_name_ok(name: &str) -> bool {
    name.len() <= MAX_NAME_CHARS
        && !name.is_empty()
        && name.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

fn opencode_refusal(c: &Candidate) -> Option<String> {
    let Some(name) = c.fm_name.as_deref() else {
        return Some("OpenCode needs a name in the frontmatter".into());
    };
    if !opencode_name_ok(name) {
        return Some(format!(
            "OpenCode needs a lowercase-hyphen name (^[a-z0-9]+(-[a-z0-9]+)*$, ≤ 64); {name:?} is not"
        ));
    }
    if name != c.folder {
        return Some(format!(
            "OpenCode needs the name to match the folder ({name:?} ≠ {:?})",
            c.folder
        ));
    }
    let d = c.description.chars().count();
    if d == 0 || d > MAX_DESCRIPTION_CHARS {
        return Some(format!(
            "OpenCode needs a description of 1–{MAX_DESCRIPTION_CHARS} chars; this one is {d}"
        ));
    }
    None
}

fn required_fields_refusal(client: Client, c: &Candidate) -> Option<String> {
    if c.fm_name.is_none() {
        return Some(format!(
            "{} needs a name in the frontmatter",
            client.display()
        ));
    }
    c.description.is_empty().then(|| {
        format!(
            "{} needs a description in the frontmatter",
            client.display()
        )
    })
}

/// How a client settles two loaded skills of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameName {
    /// Claude Code: personal (user) over project over plugin; within a scope the first root.
    UserFirst,
    /// Gemini CLI: the workspace (project) tier over the user tier; within a scope the
    /// first root.
    ProjectFirst,
    /// Codex lists both (it deduplicates by path only).
    Both,
    /// Not documented: skillnav applies `--precedence` (the tree's shadowing, default
    /// last-wins) and says the rule is its own.
    Unknown,
}

impl SameName {
    /// The rule of `client`.
    pub fn of(client: Client) -> Self {
        match client {
            Client::ClaudeCode => Self::UserFirst,
            Client::Gemini => Self::ProjectFirst,
            Client::Codex => Self::Both,
            Client::Copilot | Client::OpenCode | Client::Cursor => Self::Unknown,
        }
    }

    fn rank(self, scope: Scope) -> u8 {
        match (self, scope) {
            (Self::UserFirst, Scope::User) | (Self::ProjectFirst, Scope::Project) => 0,
            (Self::UserFirst, Scope::Project) | (Self::ProjectFirst, Scope::User) => 1,
            _ => 2,
        }
    }
}

/// For each loaded candidate (`loaded[i]` true), the index of the same-named candidate that
/// hides it under `rule`, if any. Names compare as the client names the skill (`names`).
pub fn hidden_by(
    rule: SameName,
    cands: &[Candidate],
    names: &[String],
    loaded: &[bool],
) -> Vec<Option<usize>> {
    let mut out = vec![None; cands.len()];
    match rule {
        SameName::Both => return out,
        SameName::Unknown => {
            for i in (0..cands.len()).filter(|i| loaded[*i] && cands[*i].shadowed) {
                out[i] = (0..cands.len())
                    .find(|j| loaded[*j] && !cands[*j].shadowed && names[*j] == names[i]);
            }
            return out;
        }
        SameName::UserFirst | SameName::ProjectFirst => {}
    }
    let key = |i: usize| (rule.rank(cands[i].scope), cands[i].root_index, i);
    for i in 0..cands.len() {
        if !loaded[i] {
            continue;
        }
        let best = (0..cands.len())
            .filter(|j| loaded[*j] && names[*j] == names[i])
            .min_by_key(|j| key(*j));
        if let Some(b) = best.filter(|b| *b != i) {
            out[i] = Some(b);
        }
    }
    out
}

/// The project folder a candidate's skills root belongs to: the folder holding
/// `.claude/skills` (the root is `depth + 1` folders above the SKILL.md).
fn project_dir(c: &Candidate) -> Option<&std::path::Path> {
    c.path.ancestors().nth(c.depth + 2)?.parent()
}

/// Claude Code names a skill of a nested `.claude/skills` folder (below the project's own)
/// that clashes with a project skill by its sub-path, `/apps/web:deploy`, and lists both
/// (docs/AGENTS.md "Skill folders"). Renames such candidates in `names`.
pub fn nested_names(cands: &[Candidate], names: &mut [String], loaded: &[bool]) {
    for i in 0..cands.len() {
        if !loaded[i] || cands[i].scope != Scope::Project {
            continue;
        }
        let Some(mine) = project_dir(&cands[i]) else {
            continue;
        };
        let above = (0..cands.len()).find_map(|j| {
            let theirs = project_dir(&cands[j])?;
            let clash =
                j != i && loaded[j] && cands[j].scope == Scope::Project && names[j] == names[i];
            let sub = mine.strip_prefix(theirs).ok()?;
            (clash && !sub.as_os_str().is_empty()).then(|| sub.to_path_buf())
        });
        if let Some(sub) = above {
            let sub = sub.to_string_lossy().replace('\\', "/");
            names[i] = format!("/{sub}:{}", names[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opencode_names_are_lowercase_words_joined_by_single_hyphens() {
        assert!(opencode_name_ok("git-release"));
        assert!(opencode_name_ok("a1-b2"));
        for bad in [
            "Git Release",
            "git--release",
            "-git",
            "git-",
            "",
            "git_release",
        ] {
            assert!(!opencode_name_ok(bad), "{bad}");
        }
        assert!(!opencode_name_ok(&"a".repeat(65)));
    }

    #[test]
    fn collapse_whitespace_joins_lines_as_codex_does() {
        assert_eq!(
            collapse_whitespace("  one\n  two\tthree  "),
            "one two three"
        );
    }
}
