//! The one severity table of every skill rule, with the two profiles it is kept for
//! ([`Profile`]) and the two severities ([`Severity`]; docs/DESIGN.md §9): `validate`, the
//! TUI's editor and the tree's lint marks all read a rule's severity here, so the same
//! finding is never an error in one place and a warning in another.

use Severity::{Error as E, Warning as W};

/// Which rule set to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// The Agent Skills specification / reference validator: `name` and `description`
    /// required, only the six spec keys allowed, strict YAML.
    Spec,
    /// Claude Code: `name` optional (defaults to the folder), a missing description is a
    /// warning (it falls back to the first paragraph), Claude Code's extra keys allowed,
    /// unknown keys are warnings (ignored there), name ≠ folder is a warning.
    ClaudeCode,
}

impl Profile {
    /// Parse `spec` / `claude-code`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "spec" => Some(Self::Spec),
            "claude-code" => Some(Self::ClaudeCode),
            _ => None,
        }
    }

    /// `spec` / `claude-code`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Spec => "spec",
            Self::ClaudeCode => "claude-code",
        }
    }
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Violates the profile's rules (the reference validator would reject the skill).
    Error,
    /// Guidance or a tolerated deviation.
    Warning,
}

impl Severity {
    /// `error` / `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
        }
    }
}

/// Every rule id with its severity under the spec profile and under the Claude Code
/// profile (docs/FORMATS.md §3.2, §3.4; docs/AGENTS.md "Lints").
pub const RULES: [(&str, Severity, Severity); 47] = [
    ("frontmatter-missing", E, E),
    ("skill-md-unreadable", E, E),
    ("name-missing", E, E),
    ("name-empty", E, E),
    ("name-length", E, E),
    ("name-case", E, E),
    ("name-chars", E, E),
    ("name-hyphen", E, E),
    ("name-double-hyphen", E, E),
    // Claude Code names a skill by its frontmatter and tolerates another folder name.
    ("name-folder", E, W),
    ("description-missing", E, W),
    ("description-length", E, E),
    ("compatibility-length", E, E),
    ("metadata-type", E, E),
    ("metadata-value", W, W),
    // Claude Code ignores keys it does not know.
    ("unknown-key", E, W),
    ("alias-key", W, W),
    ("effort-value", W, W),
    ("bool-value", W, W),
    ("yaml", W, W),
    ("yaml-strict", E, E),
    ("invalid-utf8", W, W),
    ("body-lines", W, W),
    ("body-tokens", W, W),
    ("skill-md-case", W, W),
    ("name-case-collision", W, W),
    ("llms-txt-size", W, W),
    ("reference-toc", W, W),
    ("listing-entry-cap", W, W),
    ("listing-budget", W, W),
    // The safety family (docs/AGENTS.md "Safety lints"): the Agent Skills specification and
    // its reference validator have no such rule, so each is a warning under the spec
    // profile. Claude Code hands SKILL.md and the files it reads to the model as they are:
    // tag characters are read as text nobody saw and bidirectional controls make the
    // reviewed order differ from the read one, so both are errors under claude-code.
    ("safety-unicode-tags", W, E),
    ("safety-bidi", W, E),
    ("safety-zero-width", W, W),
    ("safety-base64", W, W),
    ("safety-pipe-shell", W, W),
    ("safety-download-exec", W, W),
    ("safety-script-location", W, W),
    ("safety-exec-bit", W, W),
    // A missing link target is no spec violation, and Claude Code reads on after a failed
    // read (docs/AGENTS.md "Link lint").
    ("broken-link", W, W),
    ("description-overlap", W, W),
    // A client profile (`validate --profile codex`, …; docs/AGENTS.md "Client profiles"):
    // a skill the client never loads is an error under any profile; an entry it cuts,
    // drops or leaves out of its listing is a warning.
    ("client-not-loaded", E, E),
    ("client-listing", W, W),
    // What keeps a skill out of `skillnav mcp`'s SEP-2640 `skills/list` beyond the Agent
    // Skills rules: an SEP host's reading of the file, not a rule of the specification
    // (docs/MCP.md "Which skills are listed").
    ("sep-fence", W, W),
    ("sep-yaml", W, W),
    ("sep-name", W, W),
    ("sep-description", W, W),
    ("sep-duplicate-name", W, W),
];

/// The severity of `rule` under `profile`; a rule missing from [`RULES`] is a warning.
pub fn severity(rule: &str, profile: Profile) -> Severity {
    RULES
        .iter()
        .find(|(r, _, _)| *r == rule)
        .map_or(W, |&(_, spec, claude)| match profile {
            Profile::Spec => spec,
            Profile::ClaudeCode => claude,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_are_listed_once() {
        let mut ids: Vec<&str> = RULES.iter().map(|r| r.0).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
    }
}
