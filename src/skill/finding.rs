//! One finding of a skill rule ([`Finding`]): what `validate`, the editor and the tree
//! report, with its severity from the one table ([`super::severity`]).

use super::severity::Severity;

/// One validation finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Severity.
    pub severity: Severity,
    /// Stable rule id (kebab-case), e.g. `name-length`, `description-length`.
    pub rule: &'static str,
    /// Human-readable message (one line).
    pub message: String,
    /// 1-based line in SKILL.md, when known; in [`Finding::file`] when that is set.
    pub line: Option<u32>,
    /// The file the finding is in, relative to the skill folder with `/` separators
    /// (`references/api.md`), when it is not the skill's `SKILL.md`; `None` for SKILL.md and
    /// for findings about the skill as a whole.
    pub file: Option<String>,
}
