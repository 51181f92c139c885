//! The Agent Skills rules: which file is a skill's `SKILL.md` ([`skill_md`], using
//! [`crate::formats::skill::SKILL_FILE_NAMES`]), the name rule ([`name_problems`]),
//! validation ([`validate`], its findings [`finding`], its frontmatter steps in
//! `frontmatter_checks`), the listing an agent client shows ([`listing`]), rendering a
//! skill body with its arguments ([`render`]), the token cost of each disclosure layer
//! ([`layers`]), what survives an agent's listing budget ([`budget`]), what every agent client loads and
//! lists ([`clients`]), the corpus-wide
//! lints ([`lints`]), the one severity table of every rule ([`severity`]), the skill
//! files that could not be read ([`unreadable`]), and the lints that read a skill's whole
//! folder ([`files`]): the safety scan ([`safety`]), the link check ([`links`]), and the
//! collision map of descriptions ([`overlap`]). The CLI, the TUI and the MCP server all use these; none of it knows about a terminal.

pub mod budget;
pub mod clients;
pub mod files;
pub mod finding;
mod frontmatter_checks;
pub mod layers;
pub mod links;
pub mod lints;
pub mod listing;
pub mod overlap;
pub mod render;
pub mod safety;
pub mod severity;
pub mod unreadable;
pub mod validate;

use crate::model::{Corpus, NodeId, NodeKind};

/// The findings of the lints that read a skill's whole folder `dir` under `profile`: the
/// `safety` family ([`safety::scan_files`]), then `broken-link` ([`links::check_files`]),
/// the folder's files listed once ([`files::skill_files`]). Each names its file
/// ([`validate::Finding::file`], `None` for SKILL.md) and line.
pub fn folder_lints(dir: &std::path::Path, profile: validate::Profile) -> Vec<validate::Finding> {
    let files = files::skill_files(dir);
    let mut out = safety::scan_files(&files, profile);
    out.extend(links::check_files(dir, &files, profile));
    out
}

/// agentskills spec: a skill name is at most 64 characters.
pub const NAME_MAX_CHARS: usize = 64;

/// The `SKILL.md` file node of a skill: a direct child file named as in
/// [`crate::formats::skill::SKILL_FILE_NAMES`] (`SKILL.md`, else the lower-case `skill.md`).
pub fn skill_md(corpus: &Corpus, skill: NodeId) -> Option<NodeId> {
    corpus.node(skill).children.iter().copied().find(|c| {
        let n = corpus.node(*c);
        n.kind == NodeKind::File
            && crate::formats::skill::SKILL_FILE_NAMES.contains(&n.title.as_str())
    })
}

/// One broken part of the skill-name rule (agentskills spec: 1–64 characters, lower-case
/// letters, digits and hyphens, no leading, trailing or doubled hyphen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// Empty (after NFKC and trimming).
    Empty,
    /// Longer than [`NAME_MAX_CHARS`] characters (the count in chars).
    TooLong(usize),
    /// Holds upper-case letters.
    Case,
    /// Holds characters other than letters, digits and `-`.
    Chars,
    /// Starts or ends with `-`.
    EdgeHyphen,
    /// Holds `--`.
    DoubleHyphen,
}

/// Every rule `name` breaks, in the order above (empty when the name is valid). Letters are
/// Unicode letters, as the spec's reference validator accepts; callers that write folder
/// names also require ASCII.
pub fn name_problems(name: &str) -> Vec<NameProblem> {
    if name.is_empty() {
        return vec![NameProblem::Empty];
    }
    let mut out = Vec::new();
    let n = name.chars().count();
    if n > NAME_MAX_CHARS {
        out.push(NameProblem::TooLong(n));
    }
    if name != name.to_lowercase() {
        out.push(NameProblem::Case);
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '-') {
        out.push(NameProblem::Chars);
    }
    if name.starts_with('-') || name.ends_with('-') {
        out.push(NameProblem::EdgeHyphen);
    }
    if name.contains("--") {
        out.push(NameProblem::DoubleHyphen);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_rule_lists_each_broken_part() {
        assert!(name_problems("pdf-tools").is_empty());
        assert_eq!(name_problems(""), vec![NameProblem::Empty]);
        assert_eq!(
            name_problems("-Bad--"),
            vec![
                NameProblem::Case,
                NameProblem::EdgeHyphen,
                NameProblem::DoubleHyphen
            ]
        );
        assert_eq!(name_problems("a_b"), vec![NameProblem::Chars]);
        assert_eq!(
            name_problems(&"a".repeat(65)),
            vec![NameProblem::TooLong(65)]
        );
    }
}
