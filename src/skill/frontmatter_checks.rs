//! The frontmatter and size rules of [`super::validate::validate_skill`], one function per
//! step (docs/FORMATS.md §3.2, §3.4): the name, the description, `compatibility`,
//! `metadata`, the keys allowed, Claude Code's values, the parser's warnings and the body
//! size. Each step adds its findings, with their severities from the one table
//! ([`super::severity`]), in rule order.

use unicode_normalization::UnicodeNormalization;

use crate::frontmatter::{Frontmatter, Value};

use super::finding::Finding;
use super::severity::Profile;
use super::{NAME_MAX_CHARS, NameProblem};

/// The six top-level keys the spec allows (docs/FORMATS.md §3.2).
pub const SPEC_KEYS: [&str; 6] = [
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Keys Claude Code reads beyond the spec (docs/FORMATS.md §3.2).
pub const CLAUDE_CODE_KEYS: [&str; 12] = [
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "model",
    "effort",
    "context",
    "agent",
    "hooks",
    "paths",
    "shell",
];

/// Max `description` length in chars.
pub const DESCRIPTION_MAX_CHARS: usize = 1024;
/// Max `compatibility` length in chars.
pub const COMPATIBILITY_MAX_CHARS: usize = 500;
/// Body guidance: lines (docs/FORMATS.md §3.4).
pub const BODY_MAX_LINES: usize = 500;
/// Body guidance: tokens (docs/FORMATS.md §3.4, "< 5 000 tokens recommended").
pub const BODY_MAX_TOKENS: u64 = 5000;

/// NFKC-normalise and trim (the reference validator's `normalize("NFKC", s.strip())`).
pub fn nfkc_trim(s: &str) -> String {
    s.trim().nfkc().collect()
}

/// Add a finding of `rule`, with its severity under `profile` from the one table
/// ([`super::severity::severity`]).
pub(super) fn push(
    out: &mut Vec<Finding>,
    profile: Profile,
    rule: &'static str,
    message: String,
    line: Option<u32>,
) {
    out.push(Finding {
        file: None,
        severity: super::severity::severity(rule, profile),
        rule,
        message,
        line,
    });
}

/// `name-missing`, `name-empty`, `name-length`, `name-case`, `name-chars`, `name-hyphen`,
/// `name-double-hyphen`, `name-folder` (see [`super::validate::validate_skill`]).
pub(super) fn name(fm: &Frontmatter, folder_name: &str, profile: Profile, out: &mut Vec<Finding>) {
    let Some(e) = fm.get("name") else {
        if profile == Profile::Spec {
            let msg = "missing required field: name".into();
            push(out, profile, "name-missing", msg, None);
        }
        return;
    };
    let line = Some(e.lines.start);
    let name = nfkc_trim(&e.value.as_text());
    let line_break = matches!(&e.value, Value::Str(raw) if raw.contains(['\n', '\r']));
    if line_break {
        let raw = e.value.as_text();
        // `name: |` + `  release-notes` reads as "release-notes\n": trimming would hide it,
        // but a name is one line.
        let msg = format!(
            "name {raw:?} holds a line break; a name is one line of lower-case letters, digits and hyphens"
        );
        push(out, profile, "name-chars", msg, line);
    }
    if !matches!(e.value, Value::Str(_)) || name.is_empty() {
        let msg = "name must be a non-empty string".into();
        push(out, profile, "name-empty", msg, line);
        return;
    }
    for problem in super::name_problems(&name)
        .into_iter()
        .filter(|p| !(line_break && *p == NameProblem::Chars))
    {
        let (code, message) = name_problem(problem, &name);
        push(out, profile, code, message, line);
    }
    let folder = nfkc_trim(folder_name);
    if !folder.is_empty() && folder != name {
        let msg = format!("name '{name}' differs from its folder '{folder_name}'");
        push(out, profile, "name-folder", msg, line);
    }
}

/// The rule id and message of one broken part of the name rule.
fn name_problem(problem: NameProblem, name: &str) -> (&'static str, String) {
    match problem {
        NameProblem::Empty => ("name-empty", "name must be a non-empty string".to_string()),
        NameProblem::TooLong(n) => (
            "name-length",
            format!("name is {n} chars; the limit is {NAME_MAX_CHARS}"),
        ),
        NameProblem::Case => ("name-case", format!("name '{name}' must be lower-case")),
        NameProblem::Chars => (
            "name-chars",
            format!("name '{name}' may only hold letters, digits and hyphens"),
        ),
        NameProblem::EdgeHyphen => (
            "name-hyphen",
            "name must not start or end with a hyphen".to_string(),
        ),
        NameProblem::DoubleHyphen => (
            "name-double-hyphen",
            "name must not contain consecutive hyphens".to_string(),
        ),
    }
}

/// `description-missing`, `description-length`.
pub(super) fn description(fm: &Frontmatter, profile: Profile, out: &mut Vec<Finding>) {
    let spec = profile == Profile::Spec;
    match fm.get("description") {
        Some(e) if !nfkc_trim(&e.value.as_text()).is_empty() => {
            let n = nfkc_trim(&e.value.as_text()).chars().count();
            if n > DESCRIPTION_MAX_CHARS {
                push(
                    out,
                    profile,
                    "description-length",
                    format!("description is {n} chars; the limit is {DESCRIPTION_MAX_CHARS}"),
                    Some(e.lines.start),
                );
            }
        }
        other => push(
            out,
            profile,
            "description-missing",
            if spec {
                "missing required field: description (non-empty)".into()
            } else {
                "no description; Claude Code falls back to the first paragraph".into()
            },
            other.map(|e| e.lines.start),
        ),
    }
}

/// `compatibility-length`.
pub(super) fn compatibility(fm: &Frontmatter, profile: Profile, out: &mut Vec<Finding>) {
    if let Some(e) = fm.get("compatibility") {
        let n = nfkc_trim(&e.value.as_text()).chars().count();
        if n == 0 || n > COMPATIBILITY_MAX_CHARS {
            push(
                out,
                profile,
                "compatibility-length",
                format!("compatibility is {n} chars; it must be 1–{COMPATIBILITY_MAX_CHARS}"),
                Some(e.lines.start),
            );
        }
    }
}

/// `metadata-type`, `metadata-value`.
pub(super) fn metadata(fm: &Frontmatter, profile: Profile, out: &mut Vec<Finding>) {
    if let Some(e) = fm.get("metadata") {
        match &e.value {
            Value::Map(m) => {
                for (i, (k, v)) in m.iter().enumerate() {
                    if !matches!(v, Value::Str(_)) {
                        // The nested key's own line (a flow map `{…}` has no child
                        // entries: its line is the parent's).
                        let line = e.children.get(i).map_or(e.lines.start, |c| c.lines.start);
                        push(
                            out,
                            profile,
                            "metadata-value",
                            format!("metadata.{k} is not a string (validators stringify it)"),
                            Some(line),
                        );
                    }
                }
            }
            Value::Str(s) if s.trim().is_empty() => {}
            _ => push(
                out,
                profile,
                "metadata-type",
                "metadata must be a map of string to string".into(),
                Some(e.lines.start),
            ),
        }
    }
}

/// `unknown-key`, `alias-key`.
pub(super) fn keys(fm: &Frontmatter, profile: Profile, out: &mut Vec<Finding>) {
    let spec = profile == Profile::Spec;
    for e in &fm.entries {
        let k = e.key.as_str();
        if SPEC_KEYS.contains(&k) {
            continue;
        }
        if spec {
            push(
                out,
                profile,
                "unknown-key",
                format!(
                    "'{k}' is not a spec field (allowed: {})",
                    SPEC_KEYS.join(", ")
                ),
                Some(e.lines.start),
            );
            continue;
        }
        if CLAUDE_CODE_KEYS.contains(&k) {
            continue;
        }
        let alias = match k {
            "when-to-use" | "whenToUse" => Some("when_to_use"),
            "user-invokable" => Some("user-invocable"),
            "allowedTools" => Some("allowed-tools"),
            _ => None,
        };
        match alias {
            Some(a) => push(
                out,
                profile,
                "alias-key",
                format!("'{k}' is not read by Claude Code; it expects '{a}'"),
                Some(e.lines.start),
            ),
            None => push(
                out,
                profile,
                "unknown-key",
                format!("'{k}' is not a spec or Claude Code field (ignored)"),
                Some(e.lines.start),
            ),
        }
    }
}

/// `effort-value`, `bool-value` (Claude Code's keys; not checked under the spec profile).
pub(super) fn claude_code_values(fm: &Frontmatter, profile: Profile, out: &mut Vec<Finding>) {
    if profile == Profile::Spec {
        return;
    }
    if let Some(e) = fm.get("effort") {
        let v = e.value.as_text();
        if !["low", "medium", "high", "max"].contains(&v.trim()) {
            push(
                out,
                profile,
                "effort-value",
                format!("effort '{v}' is not one of low, medium, high, max"),
                Some(e.lines.start),
            );
        }
    }
    for k in ["disable-model-invocation", "user-invocable"] {
        if let Some(e) = fm.get(k) {
            let v = e.value.as_text();
            if !["true", "false"].contains(&v.trim()) {
                push(
                    out,
                    profile,
                    "bool-value",
                    format!("{k} should be true or false, not '{v}'"),
                    Some(e.lines.start),
                );
            }
        }
    }
}

/// `yaml`: the lenient parser's own warnings.
pub(super) fn yaml(fm: &Frontmatter, profile: Profile, out: &mut Vec<Finding>) {
    for (l, msg) in &fm.warnings {
        push(out, profile, "yaml", msg.clone(), Some(*l));
    }
}

/// `body-lines`, `body-tokens`.
pub(super) fn sizes(
    body_lines: usize,
    body_tokens: Option<u64>,
    profile: Profile,
    out: &mut Vec<Finding>,
) {
    if body_lines > BODY_MAX_LINES {
        push(
            out,
            profile,
            "body-lines",
            format!(
                "body is {body_lines} lines; keep SKILL.md under {BODY_MAX_LINES} and move detail to references/"
            ),
            None,
        );
    }
    if let Some(t) = body_tokens.filter(|t| *t > BODY_MAX_TOKENS) {
        push(
            out,
            profile,
            "body-tokens",
            format!("body is {t} tokens; under {BODY_MAX_TOKENS} is recommended"),
            None,
        );
    }
}
