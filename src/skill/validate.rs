//! SKILL.md validation (docs/FORMATS.md §3.2, §3.4): the Agent Skills spec rules as the reference
//! validator (`agentskills/agentskills` `skills-ref/src/skills_ref/validator.py`) applies
//! them, plus a Claude Code profile that accepts Claude Code's extra keys, and the size
//! guidance (body under 500 lines and ~5 000 tokens). Also the `validate --json` report
//! shape ([`report_json`]).
//!
//! Lengths are counted in Unicode scalar values (chars) after NFKC normalisation and
//! trimming, as Python's `len(unicodedata.normalize("NFKC", s.strip()))` does.

use serde_json::{Value as Json, json};

use crate::frontmatter::{self, Frontmatter};

use super::frontmatter_checks as checks;

pub use super::severity::{Profile, Severity};

pub use super::finding::Finding;

pub use super::NAME_MAX_CHARS;
pub use super::frontmatter_checks::{
    BODY_MAX_LINES, BODY_MAX_TOKENS, CLAUDE_CODE_KEYS, COMPATIBILITY_MAX_CHARS,
    DESCRIPTION_MAX_CHARS, SPEC_KEYS, nfkc_trim,
};

/// Validate one skill's frontmatter and body size.
///
/// `folder_name` is the skill folder's name; `body_lines` the number of lines after the
/// frontmatter; `body_tokens` the body's token count when known (any encoding; the limit is
/// [`BODY_MAX_TOKENS`]). Rules (docs/FORMATS.md §3.2, §3.4) and their ids:
/// - `name-missing`, `name-empty`, `name-length` (> 64 chars after NFKC + trim),
///   `name-case` (not lower-case), `name-chars` (only letters, digits and `-`; Unicode
///   letters/digits allowed; a line break anywhere in the value, even one trimming
///   would drop, as in a `name: |` block), `name-hyphen` (leading/trailing `-`), `name-double-hyphen`,
///   `name-folder` (≠ the NFKC folder name);
/// - `description-missing`, `description-length` (> 1024 chars);
/// - `compatibility-length` (empty or > 500 chars);
/// - `metadata-type` (not a map), `metadata-value` (a value that is not a string);
/// - `unknown-key` (Spec: any key outside [`SPEC_KEYS`], error; `ClaudeCode`: outside
///   [`SPEC_KEYS`] + [`CLAUDE_CODE_KEYS`], warning), `alias-key` (`ClaudeCode`:
///   `when-to-use`/`whenToUse`/`user-invokable`/`allowedTools` spelled otherwise);
/// - `effort-value`, `bool-value` (`ClaudeCode`: `effort` ∉ low|medium|high|max, a boolean
///   key not `true`/`false`);
/// - `yaml` (the lenient parser's own warnings, warning); `yaml-strict` needs the file
///   text and is added by [`validate_skill_md`];
/// - `body-lines` (> 500), `body-tokens` (> 5 000): warnings in both profiles.
///
/// Findings are sorted by line (a nested key's finding is on its own line, not its
/// parent's); within a line, and for the findings without a line (which come last), in the
/// order above; each rule at most once per key.
pub fn validate_skill(
    fm: &Frontmatter,
    folder_name: &str,
    body_lines: usize,
    body_tokens: Option<u64>,
    profile: Profile,
) -> Vec<Finding> {
    let mut out = Vec::new();
    // The strict YAML check needs the file text: see `validate_skill_md`.
    checks::name(fm, folder_name, profile, &mut out);
    checks::description(fm, profile, &mut out);
    checks::compatibility(fm, profile, &mut out);
    checks::metadata(fm, profile, &mut out);
    checks::keys(fm, profile, &mut out);
    checks::claude_code_values(fm, profile, &mut out);
    checks::yaml(fm, profile, &mut out);
    checks::sizes(body_lines, body_tokens, profile, &mut out);
    sort_by_line(&mut out);
    out
}

/// The loader's stand-in for each byte that is not UTF-8 ([`crate::model::INVALID_BYTE_PLACEHOLDER`]).
const INVALID_UTF8_PLACEHOLDER: char = '\u{1A}';

/// Validate a whole SKILL.md text: parses the frontmatter, counts body lines, and runs
/// [`validate_skill`]; adds `frontmatter-missing` (error) when the file does not start with
/// a `---` fence, `invalid-utf8` (warning, both profiles, on the first such line) when the
/// text holds the loader's invalid-UTF-8 placeholder byte (U+001A, in the frontmatter or
/// the body), and `yaml-strict` (Spec profile) when a strict YAML reader rejects the
/// block. `body_tokens` as in [`validate_skill`].
pub fn validate_skill_md(
    text: &str,
    folder_name: &str,
    body_tokens: Option<u64>,
    profile: Profile,
) -> Vec<Finding> {
    let Some(fm) = frontmatter::parse(text) else {
        return vec![Finding {
            file: None,
            severity: super::severity::severity("frontmatter-missing", profile),
            rule: "frontmatter-missing",
            message: "SKILL.md must start with a --- frontmatter block".into(),
            line: Some(1),
        }];
    };
    let body = text.get(fm.block.end..).unwrap_or("");
    let body_lines = count_lines(body.trim_matches(['\n', '\r']));
    let mut out = validate_skill(&fm, folder_name, body_lines, body_tokens, profile);
    if let Some(at) = text.find(INVALID_UTF8_PLACEHOLDER) {
        out.push(Finding {
            file: None,
            severity: super::severity::severity("invalid-utf8", profile),
            rule: "invalid-utf8",
            message: "the file holds bytes that are not UTF-8 (shown as U+FFFD); save it as UTF-8"
                .into(),
            line: Some(count_lines(&text[..=at]) as u32),
        });
        sort_by_line(&mut out);
    }
    if profile == Profile::Spec
        && let Some(yaml) = text.get(fm.yaml.clone())
        && let Err((l, msg)) = frontmatter::verify_strict(yaml)
    {
        let fence_line = count_lines(&text[..fm.yaml.start]) as u32;
        let line = (l > 0).then_some(l + fence_line);
        let f = Finding {
            file: None,
            severity: super::severity::severity("yaml-strict", profile),
            rule: "yaml-strict",
            message: format!("a strict YAML reader rejects it: {}", strip_position(&msg)),
            line,
        };
        let at = out
            .iter()
            .position(|f| f.rule == "yaml")
            .unwrap_or(out.len());
        out.insert(at, f);
        sort_by_line(&mut out);
    }
    out
}

/// The Spec-profile errors that do NOT keep a skill out of an SEP-2640 `skills/list`
/// (docs/MCP.md "Which skills are listed"): `unknown-key`, because Claude Code reads keys
/// the spec does not list (`argument-hint`, `when_to_use`, …) and the SEP serves every
/// frontmatter field as written; `name-folder`, because the listing names a skill by its
/// frontmatter `name` (`skill://<name>/SKILL.md`), so the folder on disk is never seen, and
/// Claude Code accepts another folder name too.
pub const LISTING_TOLERATED: [&str; 2] = ["unknown-key", "name-folder"];

/// The findings that keep the skill whose `SKILL.md` is `text` out of an SEP-2640
/// `skills/list`: every error [`validate_skill_md`] gives under [`Profile::Spec`] (the
/// Agent Skills specification's rules) except the [`LISTING_TOLERATED`] ones, in its order.
/// `folder_name` is the skill folder's name. Empty when the skill may be listed; so
/// `skillnav validate` (Spec profile) reports an error for every skill left out here.
pub fn listing_blockers(text: &str, folder_name: &str) -> Vec<Finding> {
    validate_skill_md(text, folder_name, None, Profile::Spec)
        .into_iter()
        .filter(|f| f.severity == Severity::Error && !LISTING_TOLERATED.contains(&f.rule))
        .collect()
}

/// Stable sort by line; findings without a line last.
fn sort_by_line(out: &mut [Finding]) {
    out.sort_by_key(|f| f.line.unwrap_or(u32::MAX));
}

/// Lines of `s`: line breaks are `\n`, `\r\n` and a lone `\r` (docs/FORMATS.md §9.1);
/// text after the last break is a line; `""` has none.
fn count_lines(s: &str) -> usize {
    let b = s.as_bytes();
    let breaks = b
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n')))
        .count();
    breaks + usize::from(!s.is_empty() && !s.ends_with(['\n', '\r']))
}

/// The YAML reader's message without its own `error: line N column M:` prefix: that line is
/// relative to the YAML block, while the finding carries the file line.
fn strip_position(msg: &str) -> &str {
    let m = msg.trim_start_matches("error: ");
    match m.split_once(": ") {
        Some((pos, rest)) if pos.starts_with("line ") && pos.contains(" column ") => rest,
        _ => m,
    }
}

/// Whether any finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// One validated skill for [`report_json`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillReport {
    /// Path of the SKILL.md as given/displayed.
    pub path: String,
    /// The skill's `name` (or folder name when absent).
    pub name: String,
    /// Its findings.
    pub findings: Vec<Finding>,
}

/// The `validate --json` document:
/// ```json
/// {"schema": 1, "profile": "spec", "errors": 2, "warnings": 1,
///  "skills": [{"path": "…/SKILL.md", "name": "claude-api", "errors": 1, "warnings": 0,
///              "findings": [{"severity": "error", "rule": "description-length",
///                            "message": "description is 1068 chars; the limit is 1024",
///                            "line": 3}]}]}
/// ```
/// `line` is `null` when unknown; a finding in another file of the skill than SKILL.md
/// adds `"file"` (relative to the skill folder, [`Finding::file`]). Skills keep the given
/// order. The CLI adds `"overlaps"` when skills compete for the same requests
/// (docs/AGENTS.md "Description overlap") and exits 1 when any skill has an error
/// (docs/DESIGN.md §7).
pub fn report_json(profile: Profile, reports: &[SkillReport]) -> Json {
    let count = |f: &[Finding], s: Severity| f.iter().filter(|x| x.severity == s).count();
    let skills: Vec<Json> = reports
        .iter()
        .map(|r| {
            json!({
                "path": r.path,
                "name": r.name,
                "errors": count(&r.findings, Severity::Error),
                "warnings": count(&r.findings, Severity::Warning),
                "findings": r.findings.iter().map(finding_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    let all: Vec<Finding> = reports
        .iter()
        .flat_map(|r| r.findings.iter().cloned())
        .collect();
    json!({
        "schema": 1,
        "profile": profile.as_str(),
        "errors": count(&all, Severity::Error),
        "warnings": count(&all, Severity::Warning),
        "skills": skills,
    })
}

/// One finding of [`report_json`]: `{"severity", "rule", "message", "line"}`, plus `"file"`
/// (relative to the skill folder) when the finding is in another file than SKILL.md.
fn finding_json(f: &Finding) -> Json {
    let mut j = json!({
        "severity": f.severity.as_str(), "rule": f.rule, "message": f.message, "line": f.line,
    });
    if let Some(file) = &f.file {
        j["file"] = json!(file);
    }
    j
}

/// Plain-text lines for `validate` without `--json`: `path:line: severity[rule]: message`
/// (`path: …` when the line is unknown). `path` is the report's SKILL.md path, or for a
/// finding in another file ([`Finding::file`]) that file's path in the skill folder.
pub fn report_lines(report: &SkillReport) -> Vec<String> {
    report
        .findings
        .iter()
        .map(|f| {
            let path = match &f.file {
                Some(file) => sibling_path(&report.path, file),
                None => report.path.clone(),
            };
            let (sev, rule, msg) = (f.severity.as_str(), f.rule, &f.message);
            match f.line {
                Some(l) => format!("{path}:{l}: {sev}[{rule}]: {msg}"),
                None => format!("{path}: {sev}[{rule}]: {msg}"),
            }
        })
        .collect()
}

/// `file` (relative to the skill folder) next to the skill file `skill_md`: the folder of
/// `skill_md` joined with `file`, in the separator style of `skill_md`.
fn sibling_path(skill_md: &str, file: &str) -> String {
    match skill_md.rfind(['/', '\\']) {
        Some(i) => {
            let sep = &skill_md[i..=i];
            format!("{}{sep}{}", &skill_md[..i], file.replace('/', sep))
        }
        None => file.to_string(),
    }
}
