//! Corpus-wide skill lints (docs/AGENTS.md "Lints"), shown by `validate` and as warnings in
//! the tree: a lower-case `skill.md` (clients load only `SKILL.md`), two skills whose names
//! differ only in case (they collide on case-insensitive disks), a reference file over 100
//! lines without a table of contents, and an `llms.txt` over 50,000 chars (the llms.txt
//! checkers fail files over 100,000); for the tree also a SKILL.md body over 500 lines and a
//! name unlike its folder, which `validate` checks with its own rules. `validate` also
//! reports a progressive-exposure doc tree's load warnings (`doc-tree`: a README bullet
//! naming no folder, a folder no bullet names, a leaf without `doc.md`, a placeholder
//! summary, a crawler error page; docs/FORMATS.md §6), which the tree shows already.

use std::collections::HashMap;

use crate::model::{Corpus, Format, NodeId, NodeKind, Warning};
use crate::skill::severity::severity;
use crate::skill::validate::{Finding, Profile, Severity};

/// Reference files longer than this many lines should open with a table of contents.
pub const REFERENCE_TOC_LINES: usize = 100;
/// `llms.txt` files longer than this many chars are flagged.
pub const LLMS_TXT_MAX_CHARS: usize = 50_000;

/// One lint finding: the node it is about (a skill, or a file outside any skill), the
/// skill it belongs to when there is one, and the finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// The skill or file node the finding is attached to.
    pub node: NodeId,
    /// The enclosing skill, if any.
    pub skill: Option<NodeId>,
    /// The finding (warnings only).
    pub finding: Finding,
}

fn warn(rule: &'static str, message: String) -> Finding {
    Finding {
        file: None,
        severity: Severity::Warning,
        rule,
        message,
        line: None,
    }
}

/// Whether a markdown text has a table of contents near its top: a heading named
/// "Contents", "Table of contents" or "TOC" in its first 50 lines, or at least three list
/// items linking to `#anchors` there.
pub fn has_toc(text: &str) -> bool {
    let head: Vec<&str> = lines_any(text).take(50).collect();
    let heading = head.iter().any(|l| {
        let t = l.trim_start();
        t.starts_with('#') && {
            let h = t.trim_start_matches('#').trim().to_lowercase();
            h == "contents" || h == "table of contents" || h == "toc"
        }
    });
    let anchors = head
        .iter()
        .filter(|l| l.trim_start().starts_with(['-', '*']) && l.contains("](#"))
        .count();
    heading || anchors >= 3
}

/// The lines of `text` as [`str::lines`] gives them, but with a lone `\r` (classic Mac OS)
/// also a line break, like `\n` and `\r\n` (docs/FORMATS.md §9.1).
fn lines_any(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some(i) = rest.find(['\n', '\r']) else {
            return Some(std::mem::take(&mut rest));
        };
        let line = &rest[..i];
        let width = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[i + width..];
        Some(line)
    })
}

fn skill_of(corpus: &Corpus, id: NodeId) -> Option<NodeId> {
    corpus
        .ancestors(id)
        .find(|a| corpus.node(*a).kind == NodeKind::Skill)
}

/// The rule id of a doc tree's load warnings (docs/FORMATS.md §6) as `validate` reports
/// them.
pub const DOC_TREE_RULE: &str = "doc-tree";

/// Every lint finding of the corpus, in tree order (the case collisions last). Copies are
/// skipped.
pub fn lints(corpus: &Corpus) -> Vec<Lint> {
    let mut out = Vec::new();
    let mut by_lower: HashMap<String, Vec<NodeId>> = HashMap::new();
    for id in corpus.all_preorder() {
        if corpus.is_copy(id) {
            continue;
        }
        let n = corpus.node(id);
        if n.format == Format::DocTree {
            out.extend(doc_tree_warnings(corpus, id));
        }
        match n.kind {
            NodeKind::Skill => {
                by_lower.entry(n.title.to_lowercase()).or_default().push(id);
                out.extend(skill_shape(corpus, id));
            }
            NodeKind::File if n.span.is_some() => out.extend(file_lint(corpus, id)),
            _ => {}
        }
    }
    let mut groups: Vec<Vec<NodeId>> = by_lower.into_values().collect();
    groups.sort();
    for ids in groups {
        let mut names: Vec<&str> = ids.iter().map(|i| corpus.node(*i).title.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        if names.len() < 2 {
            continue;
        }
        for id in &ids {
            let msg = format!(
                "skill names {} differ only in case; they collide on case-insensitive disks",
                names.join(" and ")
            );
            out.push(Lint {
                node: *id,
                skill: Some(*id),
                finding: warn("name-case-collision", msg),
            });
        }
    }
    out
}

/// The finding of text file `id`, if any: a skill file named `skill.md`, an `llms.txt`
/// over its size, or a long reference file of a skill without a table of contents.
fn file_lint(corpus: &Corpus, id: NodeId) -> Option<Lint> {
    let n = corpus.node(id);
    let skill = skill_of(corpus, id);
    if n.title == "skill.md" && skill.is_some_and(|s| corpus.node(s).children.contains(&id)) {
        let msg = "the skill file is named `skill.md`; agent clients load only `SKILL.md`".into();
        return Some(Lint {
            node: id,
            skill,
            finding: warn("skill-md-case", msg),
        });
    }
    // A text is read only for the two rules that need it, and not held (a load that let the
    // texts go keeps them so: docs/DESIGN.md §8 "Memory").
    let chars = || corpus.with_text(id, |t| t.chars().count());
    if n.title.eq_ignore_ascii_case("llms.txt") && chars() > LLMS_TXT_MAX_CHARS {
        let msg = format!(
            "llms.txt is {} chars; keep it under {LLMS_TXT_MAX_CHARS} (llms.txt checkers fail files over 100,000)",
            chars()
        );
        return Some(Lint {
            node: id,
            skill,
            finding: warn("llms-txt-size", msg),
        });
    }
    if skill.is_some()
        && !crate::formats::skill::SKILL_FILE_NAMES.contains(&n.title.as_str())
        && n.title.to_lowercase().ends_with(".md")
    {
        let (lines, toc) = corpus.with_text(id, |t| (lines_any(t).count(), has_toc(t)));
        if lines > REFERENCE_TOC_LINES && !toc {
            let msg = format!(
                "{} is {lines} lines with no table of contents; files over {REFERENCE_TOC_LINES} lines should start with one",
                n.path
            );
            return Some(Lint {
                node: id,
                skill,
                finding: warn("reference-toc", msg),
            });
        }
    }
    None
}

/// The load warnings of doc-tree node `id` as [`DOC_TREE_RULE`] findings, with the line the
/// loader gave.
fn doc_tree_warnings(corpus: &Corpus, id: NodeId) -> Vec<Lint> {
    let skill = skill_of(corpus, id);
    corpus
        .node(id)
        .warnings
        .iter()
        .map(|w| Lint {
            node: warned_file(corpus, id, w.path.as_deref()),
            skill,
            finding: Finding {
                line: w.line,
                ..warn(DOC_TREE_RULE, w.message.clone())
            },
        })
        .collect()
}

/// The node of the file a warning of node `id` names (`path`, relative to the root), when it
/// is `id`'s or a child or sibling of it (a folder's warning about its parent's README
/// bullet names that README), so the finding's line is in that file; else `id`.
fn warned_file(corpus: &Corpus, id: NodeId, path: Option<&str>) -> NodeId {
    let Some(path) = path.filter(|p| **p != *corpus.node(id).path) else {
        return id;
    };
    let near = |n: NodeId| corpus.node(n).children.to_vec();
    let parent = corpus.node(id).parent;
    near(id)
        .into_iter()
        .chain(parent.map(near).unwrap_or_default())
        .chain(
            parent
                .and_then(|p| corpus.node(p).parent)
                .map(near)
                .unwrap_or_default(),
        )
        .find(|c| corpus.node(*c).kind == NodeKind::File && *corpus.node(*c).path == *path)
        .unwrap_or(id)
}

/// The body and name rules `validate` already checks per SKILL.md, for the tree:
/// `body-lines` (a body over [`crate::skill::validate::BODY_MAX_LINES`] lines) and
/// `name-folder` (a frontmatter name that is not the folder's name).
fn skill_shape(corpus: &Corpus, skill: NodeId) -> Vec<Lint> {
    let mut out = Vec::new();
    let n = corpus.node(skill);
    let Some(md) = crate::skill::skill_md(corpus, skill) else {
        return out;
    };
    let text = corpus.text(md);
    let fm = crate::frontmatter::parse(text);
    let body = fm
        .as_ref()
        .map_or(text, |f| text.get(f.block.end..).unwrap_or(""));
    let lines = lines_any(body.trim_matches(['\n', '\r'])).count();
    let max = crate::skill::validate::BODY_MAX_LINES;
    if lines > max {
        let msg = format!(
            "SKILL.md body is {lines} lines; keep it under {max} and move detail to references/"
        );
        out.push(Lint {
            node: skill,
            skill: Some(skill),
            finding: warn("body-lines", msg),
        });
    }
    let folder = n.path.rsplit('/').next().unwrap_or("");
    let name = fm
        .as_ref()
        .and_then(|f| f.name())
        .map(|s| s.trim().to_string());
    if let Some(name) = name.filter(|s| !s.is_empty() && !folder.is_empty() && s != folder) {
        let msg = format!("name '{name}' differs from its folder '{folder}'");
        out.push(Lint {
            node: skill,
            skill: Some(skill),
            finding: warn("name-folder", msg),
        });
    }
    out
}

/// Whether `validate` reports this lint (the ones it already checks per SKILL.md are
/// left to it).
pub fn in_validate(rule: &str) -> bool {
    !matches!(rule, "body-lines" | "name-folder")
}

/// Whether `validate` reports a rule only under `--profile claude-code`: `reference-toc`
/// (Anthropic's skill-authoring guidance, not the spec's).
pub fn claude_code_only(rule: &str) -> bool {
    rule == "reference-toc"
}

/// Whether a rule is shown in the tree as well as by `validate`: all but `reference-toc`
/// (Anthropic's skill-authoring guidance, checked by `validate --profile claude-code`),
/// which generated reference trees break by the dozen, and [`DOC_TREE_RULE`], whose
/// findings are the tree's own warnings.
pub fn in_tree(rule: &str) -> bool {
    rule != "reference-toc" && rule != DOC_TREE_RULE
}

/// Attach every lint shown in the tree ([`in_tree`]) as a warning to its node (once:
/// running it again adds nothing).
pub fn mark(corpus: &mut Corpus) {
    for l in lints(corpus)
        .into_iter()
        .filter(|l| in_tree(l.finding.rule))
    {
        let message = tree_message(l.finding.rule, &l.finding.message);
        let node = corpus.node_mut(l.node);
        if !node.warnings.iter().any(|w| w.message == message) {
            node.warnings.push(Warning::new(message));
        }
    }
}

/// A lint as the tree shows it: its message, and when `validate` counts the rule as an
/// error, under which profile (from the one severity table, [`crate::skill::severity`]), so
/// the tree never calls a warning what `validate` calls an error.
pub fn tree_message(rule: &str, message: &str) -> String {
    let spec = severity(rule, Profile::Spec);
    let claude = severity(rule, Profile::ClaudeCode);
    match (spec, claude) {
        (Severity::Warning, Severity::Warning) => message.to_string(),
        (Severity::Error, Severity::Error) => format!("error: {message}"),
        _ => format!(
            "{message} ({} under the spec profile, {} under claude-code)",
            spec.as_str(),
            claude.as_str()
        ),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_any_counts_cr_only_lf_and_crlf_files_alike() {
        for text in [
            "a\rb\r\rc\r",
            "a\nb\n\nc\n",
            "a\r\nb\r\n\r\nc",
            "a\nb\r\n\rc",
        ] {
            let lines: Vec<&str> = super::lines_any(text).collect();
            assert_eq!(lines, ["a", "b", "", "c"], "{text:?}");
        }
        assert_eq!(super::lines_any("").count(), 0);
    }

    use super::*;

    #[test]
    fn toc_is_a_contents_heading_or_anchor_links() {
        assert!(has_toc("# API\n\n## Contents\n\n- a\n"));
        assert!(has_toc("- [A](#a)\n- [B](#b)\n* [C](#c)\n"));
        assert!(!has_toc("# API\n\ntext\n"));
    }
}
