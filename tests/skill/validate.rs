//! SKILL.md validation (docs/FORMATS.md §3.2, §3.4) on real SKILL.md files
//! (tests/fixtures/formats2/validate/, see SOURCE.md there).

use std::path::PathBuf;

use skillnav::frontmatter;
use skillnav::skill::validate::{
    Profile, Severity, SkillReport, nfkc_trim, report_json, report_lines, validate_skill,
    validate_skill_md,
};

use crate::support::fs::fixture_path;

fn read(rel: &str) -> String {
    let p: PathBuf = fixture_path("formats2/validate").join(rel);
    std::fs::read_to_string(p).expect("fixture")
}

fn rules(f: &[skillnav::skill::validate::Finding]) -> Vec<(&'static str, Severity)> {
    f.iter().map(|x| (x.rule, x.severity)).collect()
}

#[test]
fn claude_api_description_is_1068_chars() {
    let f = validate_skill_md(
        &read("claude-api/SKILL.md"),
        "claude-api",
        Some(18_000),
        Profile::Spec,
    );
    assert_eq!(
        rules(&f),
        [
            ("description-length", Severity::Error),
            ("body-lines", Severity::Warning),
            ("body-tokens", Severity::Warning)
        ]
    );
    assert_eq!(f[0].message, "description is 1068 chars; the limit is 1024");
    assert_eq!(f[0].line, Some(3));
    assert_eq!(
        f[1].message,
        "body is 569 lines; keep SKILL.md under 500 and move detail to references/"
    );
    assert_eq!(
        f[2].message,
        "body is 18000 tokens; under 5000 is recommended"
    );
}

#[test]
fn context_chef_core_spec_vs_claude_code() {
    let text = read("context-chef-core/SKILL.md");
    let spec = validate_skill_md(&text, "context-chef-core", None, Profile::Spec);
    assert_eq!(rules(&spec), [("unknown-key", Severity::Error)]);
    assert_eq!(spec[0].line, Some(4));
    assert!(
        spec[0]
            .message
            .starts_with("'argument-hint' is not a spec field")
    );
    let cc = validate_skill_md(&text, "context-chef-core", None, Profile::ClaudeCode);
    assert!(cc.is_empty(), "{cc:?}");
}

#[test]
fn external_frontmatter_aliases_and_folder() {
    let text = read("external-frontmatter/SKILL.md");
    let cc = validate_skill_md(&text, "external-frontmatter", None, Profile::ClaudeCode);
    let got: Vec<(&str, Severity, Option<u32>)> =
        cc.iter().map(|f| (f.rule, f.severity, f.line)).collect();
    assert_eq!(
        got,
        [
            ("name-folder", Severity::Warning, Some(2)),
            ("unknown-key", Severity::Warning, Some(7)),
            ("alias-key", Severity::Warning, Some(9)),
        ]
    );
    assert_eq!(
        cc[2].message,
        "'when-to-use' is not read by Claude Code; it expects 'when_to_use'"
    );
    let spec = validate_skill_md(&text, "pdf", None, Profile::Spec);
    let keys: Vec<Option<u32>> = spec
        .iter()
        .filter(|f| f.rule == "unknown-key")
        .map(|f| f.line)
        .collect();
    assert_eq!(keys, [Some(6), Some(7), Some(9)]);
}

#[test]
fn lazytools_name_with_space_and_capitals() {
    let f = validate_skill_md(
        &read("hono-docs/SKILL.md"),
        "hono-docs",
        None,
        Profile::Spec,
    );
    assert_eq!(
        rules(&f),
        [
            ("name-case", Severity::Error),
            ("name-chars", Severity::Error),
            ("name-folder", Severity::Error),
            ("unknown-key", Severity::Error)
        ]
    );
    assert_eq!(
        f[1].message,
        "name 'Hono Docs' may only hold letters, digits and hyphens"
    );
}

fn fm(text: &str) -> frontmatter::Frontmatter {
    frontmatter::parse(text).expect("frontmatter")
}

#[test]
fn name_rules_one_by_one() {
    let check = |name: &str| -> Vec<&'static str> {
        let text = format!("---\nname: {name}\ndescription: d\n---\n");
        validate_skill(&fm(&text), name, 0, None, Profile::Spec)
            .iter()
            .map(|f| f.rule)
            .collect()
    };
    assert_eq!(check("ok-name-2"), Vec::<&str>::new());
    assert_eq!(check("-lead"), ["name-hyphen"]);
    assert_eq!(check("a--b"), ["name-double-hyphen"]);
    assert_eq!(check("under_score"), ["name-chars"]);
    assert_eq!(check("café-ü"), Vec::<&str>::new());
    assert_eq!(check(&"a".repeat(64)), Vec::<&str>::new());
    assert_eq!(check(&"a".repeat(65)), ["name-length"]);
    // NFKC: the ligature "ﬁ" normalises to "fi", so a folder "fi" matches.
    let f = validate_skill(
        &fm("---\nname: ﬁ\ndescription: d\n---\n"),
        "fi",
        0,
        None,
        Profile::Spec,
    );
    assert!(f.is_empty(), "{f:?}");
    assert_eq!(nfkc_trim("  ﬁ  "), "fi");
    let f = validate_skill(
        &fm("---\ndescription: d\n---\n"),
        "x",
        0,
        None,
        Profile::Spec,
    );
    assert_eq!(rules(&f), [("name-missing", Severity::Error)]);
    let f = validate_skill(
        &fm("---\ndescription: d\n---\n"),
        "x",
        0,
        None,
        Profile::ClaudeCode,
    );
    assert!(f.is_empty());
}

#[test]
fn description_compatibility_metadata() {
    let long = "x".repeat(1025);
    let text = format!(
        "---\nname: s\ndescription: {long}\ncompatibility: {}\nmetadata:\n  author: me\n  version: 1.0\n---\n",
        "c".repeat(501)
    );
    let f = validate_skill(&fm(&text), "s", 0, None, Profile::Spec);
    assert_eq!(
        rules(&f),
        [
            ("description-length", Severity::Error),
            ("compatibility-length", Severity::Error)
        ]
    );
    assert_eq!(f[0].message, "description is 1025 chars; the limit is 1024");
    let f = validate_skill(
        &fm("---\nname: s\nmetadata: flat\n---\n"),
        "s",
        0,
        None,
        Profile::ClaudeCode,
    );
    // Sorted by line: `metadata-type` is on line 3, a missing key has no line (last).
    assert_eq!(
        rules(&f),
        [
            ("metadata-type", Severity::Error),
            ("description-missing", Severity::Warning)
        ]
    );
    let f = validate_skill(
        &fm("---\nname: s\ndescription: d\neffort: extreme\nuser-invocable: yes\n---\n"),
        "s",
        0,
        None,
        Profile::ClaudeCode,
    );
    assert_eq!(
        rules(&f),
        [
            ("effort-value", Severity::Warning),
            ("bool-value", Severity::Warning)
        ]
    );
}

#[test]
fn strict_yaml_and_missing_frontmatter() {
    let f = validate_skill_md(
        "---\nname: s\ndescription: a: b\n---\n",
        "s",
        None,
        Profile::Spec,
    );
    assert!(
        f.iter()
            .any(|x| x.rule == "yaml-strict" && x.severity == Severity::Error),
        "{f:?}"
    );
    let f = validate_skill_md("# no frontmatter\n", "s", None, Profile::Spec);
    assert_eq!(rules(&f), [("frontmatter-missing", Severity::Error)]);
}

#[test]
fn json_report_shape() {
    let f = validate_skill_md(
        &read("claude-api/SKILL.md"),
        "claude-api",
        None,
        Profile::Spec,
    );
    let r = SkillReport {
        path: "claude-api/SKILL.md".into(),
        name: "claude-api".into(),
        findings: f,
    };
    let j = report_json(Profile::Spec, std::slice::from_ref(&r));
    assert_eq!(
        j,
        serde_json::json!({
            "schema": 1, "profile": "spec", "errors": 1, "warnings": 1,
            "skills": [{
                "path": "claude-api/SKILL.md", "name": "claude-api", "errors": 1, "warnings": 1,
                "findings": [
                    {"severity": "error", "rule": "description-length",
                     "message": "description is 1068 chars; the limit is 1024", "line": 3},
                    {"severity": "warning", "rule": "body-lines",
                     "message": "body is 569 lines; keep SKILL.md under 500 and move detail to references/", "line": null}
                ]
            }]
        })
    );
    assert_eq!(
        report_lines(&r)[0],
        "claude-api/SKILL.md:3: error[description-length]: description is 1068 chars; the limit is 1024"
    );
}

#[test]
fn nested_metadata_findings_point_at_the_nested_key_line_and_findings_are_sorted_by_line() {
    let text = "---\nzeta: 1\nname: s\ndescription: d\nmetadata:\n  author: me\n  tags: [a, b]\n  nested:\n    x: y\nalpha: 2\n---\nbody\n";
    let f = validate_skill_md(text, "s", None, Profile::Spec);
    let got: Vec<(&str, Option<u32>)> = f.iter().map(|x| (x.rule, x.line)).collect();
    assert_eq!(
        got,
        [
            ("unknown-key", Some(2)),
            ("metadata-value", Some(7)),
            ("metadata-value", Some(8)),
            ("unknown-key", Some(10)),
        ]
    );
    assert_eq!(
        f[1].message,
        "metadata.tags is not a string (validators stringify it)"
    );
    assert_eq!(
        f[2].message,
        "metadata.nested is not a string (validators stringify it)"
    );
}

#[test]
fn name_with_a_line_break_is_an_error_though_trimming_would_hide_it() {
    let text = "---\nname: |\n  release-notes\ndescription: d\n---\nbody\n";
    let f = validate_skill_md(text, "release-notes", None, Profile::Spec);
    let got: Vec<(&str, Severity, Option<u32>)> =
        f.iter().map(|x| (x.rule, x.severity, x.line)).collect();
    assert_eq!(got, [("name-chars", Severity::Error, Some(2))]);
    assert_eq!(
        f[0].message,
        "name \"release-notes\\n\" holds a line break; a name is one line of lower-case letters, digits and hyphens"
    );
    // The rule is reported once, also when the name breaks other character rules.
    let f = validate_skill_md(
        "---\nname: \"a b\\nc\"\ndescription: d\n---\n",
        "x",
        None,
        Profile::Spec,
    );
    let rules: Vec<&str> = f.iter().map(|x| x.rule).collect();
    assert_eq!(rules, ["name-chars", "name-folder"]);
}

#[test]
fn invalid_utf8_in_a_skill_file_is_an_invalid_utf8_warning_not_a_yaml_error() {
    let (in_fm, _) = skillnav::model::lossless_len_utf8(
        b"---\nname: badutf\ndescription: bad \xff\xfe utf8 \xc3\n---\n# T\nbody\n".to_vec(),
    );
    let (in_body, _) = skillnav::model::lossless_len_utf8(
        b"---\nname: badutf\ndescription: ok\n---\n# T\nbody \xff\xfe\n".to_vec(),
    );
    for (text, line) in [(&in_fm, 3), (&in_body, 6)] {
        for profile in [Profile::Spec, Profile::ClaudeCode] {
            let f = validate_skill_md(text, "badutf", None, profile);
            assert_eq!(
                rules(&f),
                vec![("invalid-utf8", Severity::Warning)],
                "{profile:?}: {f:?}"
            );
            assert_eq!(f[0].line, Some(line));
            assert!(f[0].message.contains("not UTF-8"), "{}", f[0].message);
        }
    }
}
