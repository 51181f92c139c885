//! Write side of the frontmatter editor: byte-exact whole-file comparisons for
//! edits, strict-YAML repair, and the save guarantees (hash check, symlinks, read-only,
//! failure before rename, undo). Fixtures: `tests/fixtures/frontmatter/` (see SOURCE.md).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use skillnav::error::Error;
use skillnav::frontmatter::{
    self, DiffKind, DiffLine, EditValue, GetMode, Value, edit, fm_get, fm_set, fm_unset, save,
    verify_strict,
};

use crate::support::fs::fixture_path;

fn fixture(name: &str) -> Vec<u8> {
    fs::read(fixture_path("frontmatter").join(name)).unwrap()
}

fn set_desc(bytes: &[u8], v: &str) -> Vec<u8> {
    frontmatter::set(bytes, "description", &EditValue::Str(v.to_string())).unwrap()
}

fn s(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap()
}

#[test]
fn edit_description_with_bom_keeps_bom_and_everything_else() {
    let out = set_desc(&fixture("hm-bom.md"), "New: description");
    assert_eq!(
        s(&out),
        "\u{feff}---\nname: bom-skill\ndescription: 'New: description'\n---\n# Body\n"
    );
}

#[test]
fn edit_folded_description_with_crlf_keeps_crlf_and_style() {
    let out = set_desc(&fixture("hm-crlf.md"), "Only one line now");
    assert_eq!(
        s(&out),
        "---\r\nname: crlf-skill\r\ndescription: >-\r\n  Only one line now\r\nlicense: MIT\r\n---\r\nBody line\r\n"
    );
}

#[test]
fn edit_git_adr_folded_description_rewraps_only_that_entry() {
    let old = fixture("git-adr.md");
    let new_desc = "Manage Architecture Decision Records with git-adr, a CLI that stores ADRs in git notes. Use when \
                    users ask about ADRs.\n";
    let out = set_desc(&old, new_desc);
    let body = &s(&old)[s(&old).find("\n---\n").unwrap()..];
    let want = format!(
        "---\nname: git-adr\ndescription: >\n  Manage Architecture Decision Records with git-adr, a CLI that \
         stores ADRs in\n  git notes. Use when users ask about ADRs.{body}"
    );
    assert_eq!(s(&out), want);
    assert!(body.starts_with("\n---\n\n# git-adr Skill\n\nComprehensive skill"));
    let f = frontmatter::parse(s(&out)).unwrap();
    assert_eq!(f.description().unwrap(), new_desc);
}

#[test]
fn edit_claude_api_literal_description_keeps_literal_block_and_other_lines() {
    let old = fixture("claude-api.md");
    let out = set_desc(&old, "Line one.\nLine two.");
    let text = s(&old);
    let start = text.find("description: |-\n").unwrap();
    let end = text.find("license:").unwrap();
    let want = format!(
        "{}description: |-\n  Line one.\n  Line two.\n{}",
        &text[..start],
        &text[end..]
    );
    assert_eq!(s(&out), want);
}

#[test]
fn comments_and_untyped_scalars_survive_an_edit() {
    let old = fixture("hm-comments-version.md");
    let out = frontmatter::set(&old, "version", &EditValue::Str("1.20".into())).unwrap();
    // The edited value is quoted (a YAML reader would read plain 1.20 as the float 1.2);
    // every untouched typed-looking value (`yes`, `null`, `~`, `1.0`, `0755`) stays plain.
    let want = s(&old).replace("version: 1.10\n", "version: '1.20'\n");
    assert_eq!(s(&out), want);
    let out2 = set_desc(&old, "Typed values stay text");
    let want2 = s(&old).replace(
        "license: MIT # why\n",
        "license: MIT # why\ndescription: Typed values stay text\n",
    );
    assert_eq!(s(&out2), want2);
    let out3 = frontmatter::set(&old, "name", &EditValue::Str("renamed".into())).unwrap();
    assert_eq!(
        s(&out3),
        s(&old).replace("name: typed  # trailing", "name: renamed  # trailing")
    );
}

#[test]
fn allowed_tools_block_list_kept_and_rewritten_in_its_own_shape() {
    let old = fixture("hm-allowed-tools-list.md");
    let out = set_desc(&old, "Tools as a list");
    assert_eq!(
        s(&out),
        format!(
            "{}description: Tools as a list\n---\n",
            s(&old).strip_suffix("---\n").unwrap()
        )
    );
    let tools = EditValue::List(vec![
        "Read".into(),
        "Bash(git add:*)".into(),
        "Write".into(),
    ]);
    let out2 = frontmatter::set(&old, "allowed-tools", &tools).unwrap();
    assert_eq!(
        s(&out2),
        "---\nname: tools-list\nallowed-tools:\n  - Read\n  - Bash(git add:*)\n  - Write\n---\n"
    );
    let flow = fixture("cc-external-frontmatter.md");
    let out3 = frontmatter::set(
        &flow,
        "allowed-tools",
        &EditValue::List(vec!["Read".into(), "a, b".into()]),
    )
    .unwrap();
    assert_eq!(
        s(&out3),
        s(&flow).replace(
            "allowed-tools: [Read, Bash]",
            "allowed-tools: [Read, 'a, b']"
        )
    );
}

#[test]
fn dashes_rule_in_body_untouched() {
    let old = fixture("hm-body-rule.md");
    let out = set_desc(&old, "Changed");
    assert_eq!(
        s(&out),
        "---\nname: rule\ndescription: Changed\n---\n# Title\n\nText\n\n---\n\nMore text\n---\n"
    );
}

#[test]
fn invalid_utf8_in_body_is_kept_byte_for_byte() {
    let mut old = b"---\nname: bin\ndescription: old\n---\nbody \xff\xfe bytes\n\x80\n".to_vec();
    let out = set_desc(&old, "new");
    old.splice(27..30, b"new".iter().copied());
    assert_eq!(out, old);
    assert_eq!(&out[out.len() - 16..], b"body \xff\xfe bytes\n\x80\n");
}

#[test]
fn new_description_on_skill_seekers_file_is_strict_yaml_and_reads_back() {
    let old = fixture("hm-unquoted-colon.md");
    let want = "Use when: you need Y, or \"quoted\" text";
    let out = set_desc(&old, want);
    let text = s(&out);
    assert_eq!(
        text,
        "---\nname: seekers\ndescription: 'Use when: you need Y, or \"quoted\" text'\nversion: 1.0\n---\n"
    );
    let f = frontmatter::parse(text).unwrap();
    assert_eq!(f.description().unwrap(), want);
    assert_eq!(verify_strict(&text[f.yaml.clone()]), Ok(()));
}

#[test]
fn repair_quotes_exactly_the_offending_value_and_diff_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, fixture("hm-unquoted-colon.md")).unwrap();
    let r = fm_set(&p, "name", "seekers-2").unwrap();
    let now = fs::read_to_string(&p).unwrap();
    assert_eq!(
        now,
        "---\nname: seekers-2\ndescription: 'Use when: you need X'\nversion: 1.0\n---\n"
    );
    assert_eq!(r.repaired, [3]);
    assert_eq!(
        r.diff,
        vec![
            DiffLine {
                kind: DiffKind::Removed,
                line: 2,
                text: "name: seekers".into()
            },
            DiffLine {
                kind: DiffKind::Removed,
                line: 3,
                text: "description: Use when: you need X".into()
            },
            DiffLine {
                kind: DiffKind::Added,
                line: 2,
                text: "name: seekers-2".into()
            },
            DiffLine {
                kind: DiffKind::Added,
                line: 3,
                text: "description: 'Use when: you need X'".into()
            },
        ]
    );
    let f = frontmatter::parse(&now).unwrap();
    assert_eq!(verify_strict(&now[f.yaml.clone()]), Ok(()));
}

#[test]
fn nested_dotted_keys_set_get_unset() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, fixture("hm-nested-metadata.md")).unwrap();
    assert_eq!(
        fm_get(&p, "metadata.version", GetMode::Text).unwrap(),
        "1.0"
    );
    assert_eq!(
        fm_get(&p, "metadata.version", GetMode::Raw).unwrap(),
        "\"1.0\""
    );
    assert_eq!(
        fm_get(&p, "metadata.build.number", GetMode::Json).unwrap(),
        "\"0042\""
    );
    assert_eq!(
        fm_get(&p, "metadata.tags", GetMode::Json).unwrap(),
        "[\"a\",\"b\"]"
    );
    assert_eq!(
        fm_get(&p, "metadata", GetMode::Json).unwrap(),
        r#"{"author":"Jane Doe","version":"1.0","build":{"number":"0042","flag":"off"},"tags":["a","b"]}"#
    );
    fm_set(&p, "metadata.version", "1.10").unwrap();
    fm_set(&p, "metadata.build.flag", "on").unwrap();
    fm_set(&p, "metadata.tags", "a, b, c").unwrap();
    fm_set(&p, "metadata.reviewer", "Sam").unwrap();
    fm_unset(&p, "metadata.author").unwrap();
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        "---\nname: nested\nmetadata:\n  version: \"1.10\"\n  build:\n    number: 0042\n    flag: 'on'\n  \
         tags: [a, b, c]\n  reviewer: Sam\nlicense: Apache-2.0\n---\n"
    );
    let e = fm_get(&p, "metadata.nope", GetMode::Text).unwrap_err();
    assert!(matches!(e, Error::Usage(_)));
}

#[test]
fn file_without_frontmatter_gets_a_block_after_bom_in_crlf() {
    let out = frontmatter::set(
        b"\xEF\xBB\xBF# Title\r\n",
        "name",
        &EditValue::Str("x".into()),
    )
    .unwrap();
    assert_eq!(out, b"\xEF\xBB\xBF---\r\nname: x\r\n---\r\n# Title\r\n");
}

#[test]
fn unclosed_frontmatter_is_refused() {
    let e = frontmatter::set(
        &fixture("cc-invalid-frontmatter.md"),
        "name",
        &EditValue::Str("x".into()),
    );
    assert!(matches!(e, Err(Error::Refused(_))));
}

#[test]
fn unchanged_value_leaves_bytes_identical_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, fixture("context-chef-core.md")).unwrap();
    let r = fm_set(&p, "argument-hint", "[feature-focus]").unwrap();
    assert!(r.diff.is_empty());
    assert!(r.save.is_none());
}

#[test]
fn concurrent_modification_is_refused_and_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, "---\nname: a\n---\n").unwrap();
    let f = save::load(&p).unwrap();
    fs::write(&p, "---\nname: someone-else\n---\n").unwrap();
    let e = save::save(&f, b"---\nname: b\n---\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{} changed on disk since it was read; reload", p.display())
    );
    assert!(matches!(e, Error::Refused(_)));
    assert_eq!(
        fs::read_to_string(&p).unwrap(),
        "---\nname: someone-else\n---\n"
    );
}

#[test]
fn symlinked_skill_md_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.md");
    fs::write(&real, "---\nname: a\n---\nbody\n").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.path().join("SKILL.md");
    std::os::unix::fs::symlink("real.md", &link).unwrap();
    fm_set(&link, "name", "b").unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("real.md"));
    assert_eq!(
        fs::read_to_string(&real).unwrap(),
        "---\nname: b\n---\nbody\n"
    );
    assert_eq!(
        fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[test]
fn read_only_file_is_refused_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, "---\nname: a\n---\n").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
    let e = fm_set(&p, "name", "b").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{} is read-only; nothing written", p.display())
    );
    assert_eq!(fs::read_to_string(&p).unwrap(), "---\nname: a\n---\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn failure_before_rename_leaves_original_and_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, "---\nname: a\n---\n").unwrap();
    let f = save::load(&p).unwrap();
    let mut seen_tmp = None;
    let e = save::save_with_hook(&f, b"---\nname: b\n---\n", |tmp| {
        seen_tmp = Some(tmp.to_path_buf());
        assert_eq!(fs::read(tmp).unwrap(), b"---\nname: b\n---\n");
        Err(std::io::Error::other("simulated crash before rename"))
    })
    .unwrap_err();
    assert!(matches!(e, Error::Io { .. }));
    let tmp = seen_tmp.unwrap();
    assert_eq!(tmp.parent().unwrap(), dir.path());
    assert!(!tmp.exists());
    assert_eq!(fs::read_to_string(&p).unwrap(), "---\nname: a\n---\n");
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["SKILL.md"]);
}

#[test]
fn undo_restores_previous_bytes_and_refuses_after_outside_change() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    let orig = fixture("hm-crlf.md");
    fs::write(&p, &orig).unwrap();
    let r = fm_set(&p, "license", "Apache-2.0").unwrap();
    let rep = r.save.unwrap();
    assert_eq!(rep.previous, orig);
    save::undo(&rep).unwrap();
    assert_eq!(fs::read(&p).unwrap(), orig);
    let r2 = fm_set(&p, "license", "BSD").unwrap().save.unwrap();
    fs::write(&p, b"changed").unwrap();
    assert!(matches!(save::undo(&r2), Err(Error::Refused(_))));
    assert_eq!(fs::read(&p).unwrap(), b"changed");
}

#[test]
fn unset_removes_only_that_entry() {
    let old = fixture("hm-folded.md");
    let out = edit::unset(&old, "description").unwrap();
    assert_eq!(
        s(&out),
        "---\nname: folded\nstrip: >-\n  a\n  b\n\nkeep: >+\n  kept\n\n\nafter: x\n---\nbody\n"
    );
}

#[test]
fn get_modes_on_real_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("SKILL.md");
    fs::write(&p, fixture("cc-external-frontmatter.md")).unwrap();
    assert_eq!(
        fm_get(&p, "allowed-tools", GetMode::Text).unwrap(),
        "Read\nBash"
    );
    assert_eq!(
        fm_get(&p, "allowed-tools", GetMode::Raw).unwrap(),
        "[Read, Bash]"
    );
    assert_eq!(fm_get(&p, "version", GetMode::Json).unwrap(), "\"2.1.0\"");
    assert_eq!(
        fm_get(&p, "description", GetMode::Raw).unwrap(),
        ">\n  Folded multi-line description that the v1 parser would have\n  rejected because of the indentation."
    );
}

#[test]
fn every_fixture_accepts_every_value_shape_and_reads_back() {
    let values = [
        "plain",
        "1.10",
        "yes",
        "",
        "with: colon",
        "'starts with quote",
        "# hash",
        "trailing space ",
        "tab\there",
        "multi\nline",
        "multi\nline\n",
        "keep\n\n\n",
        "  leading spaces\nsecond",
        "ctrl \u{1} char",
        "unicode — ü ✓",
    ];
    let dir = fixture_path("frontmatter");
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") || path.file_name().unwrap() == "SOURCE.md" {
            continue;
        }
        let old = fs::read(&path).unwrap();
        for v in values {
            for key in ["description", "name", "metadata.new"] {
                match frontmatter::set(&old, key, &EditValue::Str(v.into())) {
                    Ok(out) => {
                        let node = edit::get(&out, key).unwrap().unwrap();
                        assert_eq!(node.value, Value::Str(v.into()), "{path:?} {key} = {v:?}");
                        assert!(
                            out.ends_with(&old[old.len() - 4.min(old.len())..]),
                            "{path:?}"
                        );
                    }
                    Err(e) => assert!(
                        path.ends_with("cc-invalid-frontmatter.md")
                            || path.ends_with("hm-no-close.md"),
                        "{path:?} {key} = {v:?}: {e}"
                    ),
                }
            }
        }
    }
}

#[test]
fn multi_line_value_in_crlf_file_uses_crlf_and_keeps_folded_style() {
    let out = set_desc(&fixture("hm-crlf.md"), "First paragraph\nSecond");
    assert_eq!(
        s(&out),
        "---\r\nname: crlf-skill\r\ndescription: >-\r\n  First paragraph\r\n\r\n  Second\r\nlicense: MIT\r\n---\r\nBody line\r\n"
    );
    let f = frontmatter::parse(s(&out)).unwrap();
    assert_eq!(f.description().unwrap(), "First paragraph\nSecond");
}

#[test]
fn multi_line_plain_value_replaced_by_one_line() {
    let old = fixture("hm-plain-multiline.md");
    let out = set_desc(&old, "Short");
    assert_eq!(
        s(&out),
        "---\nname: plainml\ndescription: Short\nnext:\n  starts below\n---\n"
    );
}

#[test]
fn map_entry_set_to_scalar_and_empty_entry_to_list() {
    let old = fixture("hm-nested-metadata.md");
    let out = frontmatter::set(&old, "metadata", &EditValue::Str("none".into())).unwrap();
    assert_eq!(
        s(&out),
        "---\nname: nested\nmetadata: none\nlicense: Apache-2.0\n---\n"
    );
    let out2 = frontmatter::set(
        &fixture("hm-empty-values.md"),
        "empty",
        &EditValue::List(vec!["a".into()]),
    )
    .unwrap();
    assert_eq!(
        s(&out2),
        "---\nname: e\nempty: [a]\nalso_empty: # just a comment\nlast: \"\"\n---\n"
    );
}

#[test]
fn file_with_lenient_warnings_can_still_be_edited() {
    let old = fixture("hm-lenient.md");
    let out = frontmatter::set(&old, "ok", &EditValue::Str("no".into())).unwrap();
    assert_eq!(s(&out), s(&old).replace("ok: yes", "ok: 'no'"));
}
