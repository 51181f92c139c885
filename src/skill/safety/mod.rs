//! The `safety` lint family (docs/AGENTS.md "Safety lints"): what a reviewer of a
//! third-party skill should see before installing it. Each finding names a file and line of
//! the skill folder ([`crate::skill::files`]):
//!
//! - `safety-unicode-tags`, `safety-bidi`, `safety-zero-width`: characters that render as
//!   nothing or reorder text, in SKILL.md, references and scripts ([`unicode`]);
//! - `safety-base64`: a long base64 blob ([`blobs`]);
//! - `safety-pipe-shell`: a download piped into an interpreter (`curl … | sh`,
//!   `iex (iwr …)`), `safety-download-exec`: a file downloaded and then run ([`commands`]);
//! - `safety-script-location`: a script at the top of the skill or in `references/` or
//!   `assets/`, `safety-exec-bit`: an executable bit on a file that is not a script
//!   ([`layout`]).
//!
//! The text rules read markdown, `.txt` and script files; other assets (HTML, JSON, fonts)
//! are not read. Severities come from the one table ([`crate::skill::severity`]).

pub mod blobs;
pub mod commands;
pub mod layout;
pub mod unicode;

use std::path::Path;

use crate::skill::files::{SkillFile, skill_files};
use crate::skill::validate::{Finding, Profile};

/// Most findings of one rule in one file; further ones are left out (the last one kept says
/// so), so a file full of hidden characters cannot flood the report.
pub const MAX_PER_RULE_PER_FILE: usize = 20;

/// Every `safety` finding of the skill folder `dir` under `profile`, file by file in
/// natural order, each file's findings by line. A folder that cannot be read gives none.
pub fn scan(dir: &Path, profile: Profile) -> Vec<Finding> {
    scan_files(&skill_files(dir), profile)
}

/// [`scan`] over files already listed.
pub fn scan_files(files: &[SkillFile], profile: Profile) -> Vec<Finding> {
    let mut out = Vec::new();
    // A file system that records no modes (FAT, a WSL mount of a Windows drive) shows every
    // file executable: then no bit says anything.
    let modes_recorded = !files.iter().all(|f| f.executable);
    for f in files {
        let mut found: Vec<(&'static str, u32, String)> = Vec::new();
        if let Some(text) = f.text.as_deref().filter(|_| is_read_as_text(f)) {
            found.extend(unicode::scan(text));
            found.extend(blobs::scan(text));
            found.extend(commands::scan(text, f.is_markdown()));
        }
        found.sort_by_key(|(_, line, _)| *line);
        let mut per_rule: std::collections::HashMap<&str, usize> = Default::default();
        for (rule, line, message) in found {
            let n = per_rule.entry(rule).or_default();
            *n += 1;
            if *n > MAX_PER_RULE_PER_FILE {
                continue;
            }
            let message = if *n == MAX_PER_RULE_PER_FILE {
                format!("{message} (further {rule} findings in this file are not listed)")
            } else {
                message
            };
            out.push(finding(f, profile, rule, Some(line), message));
        }
        out.extend(
            layout::check(f)
                .into_iter()
                .filter(|(rule, _)| modes_recorded || *rule != "safety-exec-bit")
                .map(|(rule, message)| finding(f, profile, rule, None, message)),
        );
    }
    out
}

/// Whether the text rules read `f`: markdown, `.txt` and scripts ([`layout::is_script`]).
fn is_read_as_text(f: &SkillFile) -> bool {
    f.is_markdown() || f.rel.to_ascii_lowercase().ends_with(".txt") || layout::is_code(f)
}

/// A finding of `rule` in file `f` (no [`Finding::file`] for the skill's own SKILL.md).
pub(crate) fn finding(
    f: &SkillFile,
    profile: Profile,
    rule: &'static str,
    line: Option<u32>,
    message: String,
) -> Finding {
    Finding {
        severity: crate::skill::severity::severity(rule, profile),
        rule,
        message,
        line,
        file: (!f.is_skill_md()).then(|| f.rel.clone()),
    }
}
