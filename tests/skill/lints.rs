//! The corpus-wide lints (`skill::lints`): each on its fixture, as `validate --json`
//! reports it and as a warning on the tree node.

use std::path::Path;

use serde_json::Value;

use skillnav::agent::workspace::load_corpus;
use skillnav::formats::{LoadOptions, root_specs};
use skillnav::model::Corpus;
use skillnav::skill::lints::lints;

use crate::support::corpus::warnings;
use crate::support::fs::{fixture_path, write};

fn open(path: &Path) -> Corpus {
    load_corpus(&root_specs(&[path.to_path_buf()]), &LoadOptions::default())
}

fn rules(c: &Corpus) -> Vec<(String, &'static str)> {
    lints(c)
        .into_iter()
        .map(|l| (c.id(l.node), l.finding.rule))
        .collect()
}

fn validate(path: &Path, profile: &str) -> (Option<i32>, Value) {
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

fn finding_rules(v: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for s in v["skills"].as_array().into_iter().flatten() {
        for f in s["findings"].as_array().into_iter().flatten() {
            out.push((
                s["name"].as_str().unwrap_or_default().to_string(),
                f["rule"].as_str().unwrap_or_default().to_string(),
            ));
        }
    }
    out
}

#[test]
fn lower_case_skill_md_is_flagged() {
    let dir = fixture_path("lints/skill-md-case");
    let c = open(&dir);
    assert_eq!(
        rules(&c),
        [("skill-md-case/lower/skill.md".to_string(), "skill-md-case")]
    );
    assert_eq!(
        warnings(&c, "skill-md-case/lower/skill.md"),
        ["the skill file is named `skill.md`; agent clients load only `SKILL.md`"]
    );
    let (code, v) = validate(&dir, "spec");
    assert_eq!(code, Some(0));
    assert_eq!(
        finding_rules(&v),
        [("lower".to_string(), "skill-md-case".to_string())]
    );
}

#[test]
fn names_differing_only_in_case_are_flagged_on_both() {
    let dir = fixture_path("lints/name-case");
    let c = open(&dir);
    let msg = "skill names PDF and pdf differ only in case; they collide on case-insensitive disks";
    assert_eq!(warnings(&c, "name-case/pdf"), [msg]);
    assert_eq!(
        warnings(&c, "name-case/pdf-upper"),
        [
            "name 'PDF' differs from its folder 'pdf-upper' (error under the spec profile, warning under claude-code)".to_string(),
            msg.to_string()
        ]
    );
    // `PDF` also breaks the lower-case name rule, an error: exit 1 as before.
    let (code, v) = validate(&dir, "claude-code");
    assert_eq!(code, Some(1));
    let found: Vec<(String, String)> = finding_rules(&v)
        .into_iter()
        .filter(|(_, r)| r == "name-case-collision")
        .collect();
    assert_eq!(
        found,
        [
            ("pdf".to_string(), "name-case-collision".to_string()),
            ("PDF".to_string(), "name-case-collision".to_string())
        ]
    );
}

#[test]
fn long_reference_without_contents_is_flagged_by_claude_code_validate() {
    let dir = fixture_path("lints/reference-toc");
    let c = open(&dir);
    assert_eq!(
        rules(&c),
        [(
            "reference-toc/refs/references/long.md".to_string(),
            "reference-toc"
        )]
    );
    // Not a tree warning (generated reference trees break it by the dozen).
    assert!(warnings(&c, "reference-toc/refs/references/long.md").is_empty());
    let (_, v) = validate(&dir, "claude-code");
    let s = &v["skills"][0]["findings"][0];
    assert_eq!(s["rule"], "reference-toc");
    assert_eq!(
        s["message"],
        "refs/references/long.md is 120 lines with no table of contents; files over 100 lines should start with one"
    );
    let (_, v) = validate(&dir, "spec");
    assert!(finding_rules(&v).is_empty());
}

#[test]
fn llms_txt_over_fifty_thousand_chars_is_flagged() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let mut text = String::from("# Big\n\n> An index that grew too long.\n\n## Docs\n\n");
    while text.chars().count() <= 50_000 {
        text.push_str("- [Page](https://example.com/page.md): a page of the site\n");
    }
    let n = text.chars().count();
    write(t.path(), "site/llms.txt", text.as_bytes());
    write(
        t.path(),
        "small/llms.txt",
        b"# Small\n\n## Docs\n\n- [A](https://example.com/a.md)\n",
    );
    let c = open(&t.path().join("site"));
    let l = lints(&c);
    assert_eq!(l.len(), 1);
    assert_eq!(
        l[0].finding.message,
        format!(
            "llms.txt is {n} chars; keep it under 50000 (llms.txt checkers fail files over 100,000)"
        )
    );
    assert_eq!(
        warnings(&c, &c.id(l[0].node)),
        [l[0].finding.message.clone()]
    );
    assert!(lints(&open(&t.path().join("small"))).is_empty());
}

#[test]
fn long_body_and_name_unlike_folder_show_in_the_tree_and_once_in_validate() {
    let dir = fixture_path("lints/shape");
    let c = open(&dir);
    assert_eq!(
        warnings(&c, "shape/long"),
        ["SKILL.md body is 501 lines; keep it under 500 and move detail to references/"]
    );
    assert_eq!(
        warnings(&c, "shape/folder"),
        [
            "name 'renamed' differs from its folder 'folder' (error under the spec profile, warning under claude-code)"
        ]
    );
    // validate reports them with its own rules, once each.
    let (_, v) = validate(&dir, "claude-code");
    let mut found = finding_rules(&v);
    found.sort();
    assert_eq!(
        found,
        [
            ("long".to_string(), "body-lines".to_string()),
            ("renamed".to_string(), "name-folder".to_string())
        ]
    );
}

#[test]
fn tree_shows_name_folder_with_the_severity_validate_gives_it_under_each_profile() {
    use skillnav::skill::lints::tree_message;
    use skillnav::skill::severity::severity;
    use skillnav::skill::validate::{Profile, Severity};
    assert_eq!(severity("name-folder", Profile::Spec), Severity::Error);
    assert_eq!(
        severity("name-folder", Profile::ClaudeCode),
        Severity::Warning
    );
    assert_eq!(
        tree_message("name-folder", "name 'a' differs from its folder 'b'"),
        "name 'a' differs from its folder 'b' (error under the spec profile, warning under claude-code)"
    );
    assert_eq!(tree_message("body-lines", "long"), "long");
}
