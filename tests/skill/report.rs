//! Running `skillnav validate --json` and reading its findings back, for the tests of the
//! lints that read whole skill folders.

use std::path::Path;

use serde_json::Value;

/// One finding of a `validate --json` report: skill name, file (`SKILL.md` when the
/// finding has none), line (0 when unknown), rule, severity.
pub type Row = (String, String, u64, String, String);

/// `validate PATH --profile PROFILE --json` with no user config: exit code and document.
pub fn validate_json(path: &Path, profile: &str) -> (Option<i32>, Value) {
    let out = crate::support::child::skillnav_command()
        .args([
            "validate",
            path.to_str().unwrap_or_default(),
            "--profile",
            profile,
            "--json",
        ])
        .env("SKILLNAV_CONFIG_DIR", path.join("no-config"))
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON: {e}"));
    (out.status.code(), v)
}

/// The findings of `v` whose rule starts with `prefix`, in report order.
pub fn rows(v: &Value, prefix: &str) -> Vec<Row> {
    let mut out = Vec::new();
    for s in v["skills"].as_array().into_iter().flatten() {
        for f in s["findings"].as_array().into_iter().flatten() {
            let rule = f["rule"].as_str().unwrap_or_default();
            if !rule.starts_with(prefix) {
                continue;
            }
            out.push((
                s["name"].as_str().unwrap_or_default().to_string(),
                f["file"].as_str().unwrap_or("SKILL.md").to_string(),
                f["line"].as_u64().unwrap_or(0),
                rule.to_string(),
                f["severity"].as_str().unwrap_or_default().to_string(),
            ));
        }
    }
    out
}

/// A [`Row`] from literals.
pub fn row(skill: &str, file: &str, line: u64, rule: &str, severity: &str) -> Row {
    (
        skill.to_string(),
        file.to_string(),
        line,
        rule.to_string(),
        severity.to_string(),
    )
}
