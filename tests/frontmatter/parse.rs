//! Read side of the frontmatter parser: every real shape from the corpus (copied into
//! `tests/fixtures/frontmatter/`, see SOURCE.md) and hand-made edge cases, with exact values.
//! `expected-pyyaml.json` holds what `PyYAML`'s string-only `BaseLoader` reads from each
//! strict-valid fixture: the lenient parser must agree with it exactly.

use std::path::PathBuf;

use skillnav::frontmatter::{self, Frontmatter, LineEnding, Value, ValueStyle, verify_strict};

use crate::support::fs::fixture_path;

fn fixture_dir() -> PathBuf {
    fixture_path("frontmatter")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(fixture_dir().join(name)).expect("fixture exists")
}

fn fm(name: &str) -> (String, Frontmatter) {
    let text = read(name);
    let f = frontmatter::parse(&text).expect("has frontmatter");
    (text, f)
}

fn s(v: &str) -> Value {
    Value::Str(v.to_string())
}

fn list(v: &[&str]) -> Value {
    Value::List(v.iter().map(std::string::ToString::to_string).collect())
}

fn json_to_value(j: &serde_json::Value) -> Value {
    match j {
        serde_json::Value::String(s) => Value::Str(s.clone()),
        serde_json::Value::Array(a) => {
            Value::List(a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        }
        serde_json::Value::Object(o) => Value::Map(
            o.iter()
                .map(|(k, v)| (k.clone(), json_to_value(v)))
                .collect::<Vec<_>>()
                .into(),
        ),
        other => panic!("unexpected json {other}"),
    }
}

/// Sort nested maps by key so file order and JSON order compare equal.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Map(m) => {
            let mut m: Vec<(String, Value)> =
                m.iter().map(|(k, v)| (k.clone(), sorted(v))).collect();
            m.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Map(m.into())
        }
        other => other.clone(),
    }
}

#[test]
fn every_strict_valid_fixture_matches_pyyaml_baseloader_exactly() {
    let expected: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&read("expected-pyyaml.json")).unwrap();
    assert_eq!(expected.len(), 35);
    for (file, want) in &expected {
        let (text, f) = fm(file);
        let got = Value::Map(
            f.entries
                .iter()
                .map(|e| (e.key.clone(), e.value.clone()))
                .collect::<Vec<_>>()
                .into(),
        );
        assert_eq!(sorted(&got), sorted(&json_to_value(want)), "{file}");
        assert_eq!(f.warnings, vec![], "{file}");
        assert_eq!(verify_strict(&text[f.yaml.clone()]), Ok(()), "{file}");
    }
}

#[test]
fn claude_api_literal_strip_description_is_1068_chars_exactly() {
    let (text, f) = fm("claude-api.md");
    let e = f.get("description").unwrap();
    assert_eq!(e.style, ValueStyle::Literal);
    let d = f.description().unwrap();
    assert_eq!(d.chars().count(), 1068);
    assert_eq!(d.matches('\n').count(), 2);
    assert!(d.starts_with("Reference for the Claude API / Anthropic SDK — model ids, pricing,"));
    assert!(!d.ends_with('\n'));
    assert_eq!(e.lines, 3..7);
    assert_eq!(&text[e.value_span.start..e.value_span.start + 2], "|-");
    assert_eq!(f.name().as_deref(), Some("claude-api"));
    assert_eq!(
        f.get("license").unwrap().value,
        s("Complete terms in LICENSE.txt")
    );
    assert_eq!(
        f.entries.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(),
        ["name", "description", "license"]
    );
}

#[test]
fn lazybridge_literal_clip_keeps_newlines_and_final_break() {
    let (_, f) = fm("lazybridge.md");
    let d = f.description().unwrap();
    assert!(d.starts_with(
        "Use when writing or modifying Python code that uses the LazyBridge agent\nframework"
    ));
    assert!(d.ends_with("SDK).\n"));
    assert_eq!(d.chars().count(), 989);
}

#[test]
fn git_adr_folded_description_joins_lines() {
    let (_, f) = fm("git-adr.md");
    let e = f.get("description").unwrap();
    assert_eq!(e.style, ValueStyle::Folded);
    let d = f.description().unwrap();
    assert!(d.starts_with(
        "Manage Architecture Decision Records (ADRs) using git-adr, a CLI tool that stores ADRs in"
    ));
    assert!(d.ends_with("creating/managing ADRs in a git repository.\n"));
    assert_eq!(e.lines, 3..11);
}

#[test]
fn context_chef_comma_tools_and_double_quoted_description() {
    let (_, f) = fm("context-chef-core.md");
    assert_eq!(
        f.get("description").unwrap().style,
        ValueStyle::DoubleQuoted
    );
    assert_eq!(f.get("argument-hint").unwrap().value, s("[feature-focus]"));
    assert_eq!(
        f.allowed_tools(),
        ["Read", "Grep", "Glob", "Bash", "Write", "Edit"]
    );
}

#[test]
fn external_frontmatter_version_stays_text_and_flow_list() {
    let (_, f) = fm("cc-external-frontmatter.md");
    assert_eq!(f.get("version").unwrap().value, s("2.1.0"));
    assert_eq!(f.get("allowed-tools").unwrap().style, ValueStyle::FlowList);
    assert_eq!(f.allowed_tools(), ["Read", "Bash"]);
    assert_eq!(
        f.description().unwrap(),
        "Folded multi-line description that the v1 parser would have rejected because of the indentation.\n"
    );
    assert_eq!(
        f.get_any(&["when_to_use", "when-to-use", "whenToUse"])
            .unwrap()
            .key,
        "when-to-use"
    );
}

#[test]
fn invalid_frontmatter_without_closing_fence_is_body() {
    let (_, f) = fm("cc-invalid-frontmatter.md");
    assert_eq!(f.block, 0..0);
    assert!(f.entries.is_empty());
    assert_eq!(
        f.warnings,
        vec![(1, "no closing --- fence; treated as body".to_string())]
    );
    let (_, g) = fm("hm-no-close.md");
    assert_eq!(g.block, 0..0);
    assert_eq!(g.warnings.len(), 1);
}

#[test]
fn not_starting_with_fence_is_none() {
    assert_eq!(frontmatter::parse("# Title\n---\nname: x\n---\n"), None);
    assert_eq!(frontmatter::parse(""), None);
    assert_eq!(frontmatter::parse("\n---\nname: x\n---\n"), None);
    assert_eq!(frontmatter::parse("----\nname: x\n---\n"), None);
    assert!(frontmatter::parse("---  \nname: x\n---\n").is_some());
}

#[test]
fn bom_is_recorded_and_offsets_include_it() {
    let (text, f) = fm("hm-bom.md");
    assert!(f.bom);
    assert_eq!(f.block, 3..70);
    assert_eq!(&text[f.block.end..], "# Body\n");
    let name = f.get("name").unwrap();
    assert_eq!(name.span, 7..23);
    assert_eq!(&text[name.span.clone()], "name: bom-skill\n");
    assert_eq!(&text[name.value_span.clone()], "bom-skill");
    assert_eq!(name.lines, 2..3);
}

#[test]
fn crlf_values_have_no_carriage_returns_and_spans_cover_crlf() {
    let (text, f) = fm("hm-crlf.md");
    assert_eq!(f.line_ending, LineEnding::CrLf);
    assert!(!f.bom);
    assert_eq!(f.description().unwrap(), "Windows line endings here");
    let d = f.get("description").unwrap();
    assert_eq!(
        &text[d.span.clone()],
        "description: >-\r\n  Windows line\r\n  endings here\r\n"
    );
    assert_eq!(
        &text[d.value_span.clone()],
        ">-\r\n  Windows line\r\n  endings here"
    );
    assert_eq!(d.lines, 3..6);
    assert_eq!(&text[f.block.end..], "Body line\r\n");
    assert_eq!(
        &text[f.yaml.clone()],
        "name: crlf-skill\r\ndescription: >-\r\n  Windows line\r\n  endings here\r\nlicense: MIT\r\n"
    );
}

#[test]
fn comments_and_trailing_comments_are_ignored_and_scalars_never_coerced() {
    let (text, f) = fm("hm-comments-version.md");
    assert_eq!(f.get("version").unwrap().value, s("1.10"));
    assert_eq!(f.get("enabled").unwrap().value, s("yes"));
    assert_eq!(f.get("nothing").unwrap().value, s("null"));
    assert_eq!(f.get("tilde").unwrap().value, s("~"));
    assert_eq!(f.get("float").unwrap().value, s("1.0"));
    let name = f.get("name").unwrap();
    assert_eq!(name.value, s("typed"));
    assert_eq!(&text[name.value_span.clone()], "typed");
    assert_eq!(
        &text[name.span.clone()],
        "name: typed  # trailing comment\n"
    );
    let lic = f.get("license").unwrap();
    assert_eq!(&text[lic.value_span.clone()], "MIT");
}

#[test]
fn allowed_tools_in_three_shapes() {
    let (_, a) = fm("hm-allowed-tools-list.md");
    assert_eq!(a.get("allowed-tools").unwrap().style, ValueStyle::BlockList);
    assert_eq!(a.allowed_tools(), ["Read", "Bash(git add:*)", "Grep"]);
    let (_, b) = fm("hm-allowed-tools-comma.md");
    assert_eq!(b.allowed_tools(), ["Read", "Grep", "Glob"]);
    let (_, c) = fm("hm-allowed-tools-space.md");
    assert_eq!(
        c.allowed_tools(),
        ["Bash(git add:*)", "Bash(git commit:*)", "Read"]
    );
    let (_, d) = fm("cc-valid-full.md");
    assert_eq!(
        d.allowed_tools(),
        ["query_db", "tail_logs", "read_file", "grep"]
    );
}

#[test]
fn unquoted_colon_space_value_is_everything_after_first_colon_with_warning() {
    let (text, f) = fm("hm-unquoted-colon.md");
    assert_eq!(f.description().unwrap(), "Use when: you need X");
    assert_eq!(f.get("version").unwrap().value, s("1.0"));
    assert_eq!(
        f.warnings,
        vec![(
            3,
            "unquoted ': ' in value of `description`; strict YAML parsers reject this".to_string()
        )]
    );
    let (line, _) = verify_strict(&text[f.yaml.clone()]).unwrap_err();
    assert_eq!(line, 2);
}

#[test]
fn dashes_rule_in_body_is_body_text() {
    let (text, f) = fm("hm-body-rule.md");
    assert_eq!(f.entries.len(), 2);
    assert_eq!(
        &text[f.block.end..],
        "# Title\n\nText\n\n---\n\nMore text\n---\n"
    );
}

#[test]
fn column_zero_block_list_is_a_list_and_next_key_follows() {
    let (text, f) = fm("hm-col0-list.md");
    let t = f.get("tags").unwrap();
    assert_eq!(t.style, ValueStyle::BlockList);
    assert_eq!(t.value, list(&["alpha", "beta, gamma", "delta"]));
    assert_eq!(
        &text[t.span.clone()],
        "tags:\n- alpha\n- \"beta, gamma\"\n- delta\n"
    );
    assert_eq!(
        &text[t.value_span.clone()],
        "- alpha\n- \"beta, gamma\"\n- delta"
    );
    assert_eq!(t.lines, 3..7);
    assert_eq!(f.get("license").unwrap().value, s("MIT"));
}

#[test]
fn nested_metadata_two_levels_keep_file_order() {
    let (text, f) = fm("hm-nested-metadata.md");
    let m = f.get("metadata").unwrap();
    assert_eq!(m.style, ValueStyle::Map);
    assert_eq!(
        m.value,
        Value::Map(std::sync::Arc::new(vec![
            ("author".into(), s("Jane Doe")),
            ("version".into(), s("1.0")),
            (
                "build".into(),
                Value::Map(vec![("number".into(), s("0042")), ("flag".into(), s("off"))].into())
            ),
            ("tags".into(), list(&["a", "b"])),
        ]))
    );
    assert_eq!(m.lines, 3..10);
    assert!(text[m.span.clone()].ends_with("  tags: [a, b]\n"));
    assert_eq!(m.value.as_text(), "");
}

#[test]
fn empty_frontmatter_has_no_entries() {
    let (text, f) = fm("hm-empty-frontmatter.md");
    assert_eq!(f.block, 0..8);
    assert_eq!(f.yaml, 4..4);
    assert!(f.entries.is_empty());
    assert!(f.warnings.is_empty());
    assert_eq!(&text[f.block.end..], "Body only\n");
}

#[test]
fn empty_values_have_empty_style_and_empty_span() {
    let (text, f) = fm("hm-empty-values.md");
    let e = f.get("empty").unwrap();
    assert_eq!(e.style, ValueStyle::Empty);
    assert_eq!(e.value_span, 18..18);
    assert_eq!(&text[e.span.clone()], "empty:\n");
    assert_eq!(f.get("also_empty").unwrap().style, ValueStyle::Empty);
    assert_eq!(f.get("last").unwrap().style, ValueStyle::DoubleQuoted);
}

#[test]
fn lenient_lines_become_warnings() {
    let (_, f) = fm("hm-lenient.md");
    assert_eq!(f.name().as_deref(), Some("lenient"));
    assert_eq!(f.get("bad").unwrap().value, s("\"unterminated"));
    assert_eq!(f.get("bad").unwrap().style, ValueStyle::Plain);
    assert_eq!(f.get("ok").unwrap().value, s("yes"));
    assert_eq!(
        f.warnings,
        vec![
            (3, "line has no `key: value` colon; skipped".to_string()),
            (
                4,
                "unterminated quote in value of `bad`; value taken to end of line".to_string()
            ),
            (
                5,
                "tab used for indentation; YAML allows only spaces".to_string()
            ),
            (5, "unexpected indented line; skipped".to_string()),
        ]
    );
}

#[test]
fn entry_spans_remove_cleanly() {
    for name in [
        "hm-folded.md",
        "hm-literal.md",
        "hm-nested-metadata.md",
        "hm-quoted.md",
        "claude-api.md",
    ] {
        let (text, f) = fm(name);
        for e in &f.entries {
            let mut t = text.clone();
            t.replace_range(e.span.clone(), "");
            let g = frontmatter::parse(&t).unwrap();
            let keys: Vec<_> = g.entries.iter().map(|x| x.key.clone()).collect();
            let want: Vec<_> = f
                .entries
                .iter()
                .filter(|x| x.key != e.key)
                .map(|x| x.key.clone())
                .collect();
            assert_eq!(keys, want, "{name} without {}", e.key);
            assert_eq!(g.warnings, vec![], "{name} without {}", e.key);
        }
    }
}

#[test]
fn value_spans_of_block_scalars_end_at_last_content_byte() {
    let (text, f) = fm("hm-literal.md");
    let clip = f.get("clip").unwrap();
    assert_eq!(
        &text[clip.value_span.clone()],
        "|\n  line one\n    indented two\n\n  line four"
    );
    assert_eq!(
        &text[clip.span.clone()],
        "clip: |\n  line one\n    indented two\n\n  line four\n"
    );
    let keep = f.get("keep").unwrap();
    assert_eq!(&text[keep.span.clone()], "keep: |+\n  k1\n\n");
}

#[test]
fn plain_value_with_colon_in_flow_free_text_keeps_rest() {
    let t = "---\ndescription: Use when: a: b # c\nname: n\n---\n";
    let f = frontmatter::parse(t).unwrap();
    assert_eq!(f.description().unwrap(), "Use when: a: b");
    assert_eq!(f.warnings.len(), 1);
}

#[test]
fn value_starting_with_quote_but_continuing_is_taken_as_written() {
    let t = "---\ndescription: \"Hono\" is fast: really # c\nname: n\n---\n";
    let f = frontmatter::parse(t).unwrap();
    let d = f.get("description").unwrap();
    assert_eq!(d.value, s("\"Hono\" is fast: really"));
    assert_eq!(d.style, ValueStyle::Plain);
    assert_eq!(&t[d.value_span.clone()], "\"Hono\" is fast: really");
    assert_eq!(
        f.warnings,
        vec![(
            2,
            "value of `description` continues after its closing quote; taken as written; strict YAML parsers \
             reject this"
                .to_string()
        )]
    );
    let (out, lines) = frontmatter::repair(t.as_bytes());
    assert_eq!(lines, [2]);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "---\ndescription: '\"Hono\" is fast: really' # c\nname: n\n---\n"
    );
}

#[test]
fn closing_fence_may_be_dots_or_have_trailing_blanks_but_not_be_indented() {
    let f = frontmatter::parse("---\nname: a\n...\nbody").unwrap();
    assert_eq!(f.block, 0..16);
    let g = frontmatter::parse("---\r\nname: a\r\n---  \r\n").unwrap();
    assert_eq!(g.entries.len(), 1);
    assert_eq!(g.block.end, 21);
    // An indented `---` is not a document marker in YAML: no closing fence here.
    let h = frontmatter::parse("---\r\nname: a\r\n  ---  \r\n").unwrap();
    assert_eq!(h.block, 0..0);
    assert_eq!(
        h.warnings,
        vec![(1, "no closing --- fence; treated as body".to_string())]
    );
}

/// Duplicate keys: the last one wins (as in `PyYAML` and [`Frontmatter::get`]).
fn dedup(v: &Value) -> Value {
    match v {
        Value::Map(m) => {
            let mut out: Vec<(String, Value)> = Vec::new();
            for (k, x) in m.iter() {
                out.retain(|(ok, _)| ok != k);
                out.push((k.clone(), dedup(x)));
            }
            sorted(&Value::Map(out.into()))
        }
        o => o.clone(),
    }
}

fn has_dup(v: &Value) -> bool {
    match v {
        Value::Map(m) => {
            let mut keys: Vec<&String> = m.iter().map(|(k, _)| k).collect();
            keys.sort();
            keys.windows(2).any(|w| w[0] == w[1]) || m.iter().any(|(_, x)| has_dup(x))
        }
        _ => false,
    }
}

#[test]
fn random_yaml_documents_match_pyyaml_baseloader() {
    let lines = read("random-pyyaml.jsonl");
    let mut n = 0;
    for (i, line) in lines.lines().enumerate() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let yaml = case["yaml"].as_str().unwrap();
        let nl = if yaml.contains("\r\n") { "\r\n" } else { "\n" };
        let text = format!("---{nl}{yaml}---{nl}body{nl}");
        let f = frontmatter::parse(&text).expect("frontmatter");
        let got = Value::Map(
            f.entries
                .iter()
                .map(|e| (e.key.clone(), e.value.clone()))
                .collect::<Vec<_>>()
                .into(),
        );
        assert_eq!(
            dedup(&got),
            dedup(&json_to_value(&case["expected"])),
            "case {i}: {yaml:?}"
        );
        let strict = verify_strict(&text[f.yaml.clone()]);
        if !has_dup(&got) {
            // Edits keep the document strict-valid and read back exactly.
            for (k, v) in [
                ("description", "Use when: x # y"),
                ("k1", "multi\nline\n"),
                ("meta.sub", "'q'"),
            ] {
                let r =
                    frontmatter::set(text.as_bytes(), k, &frontmatter::EditValue::Str(v.into()));
                if k.contains('.') && r.is_err() {
                    continue; // `meta` may hold a scalar: a dotted path cannot cross it.
                }
                let out = String::from_utf8(r.unwrap()).unwrap();
                let g = frontmatter::parse(&out).unwrap();
                assert_eq!(
                    verify_strict(&out[g.yaml.clone()]),
                    Ok(()),
                    "case {i} {k}: {out:?}"
                );
                assert!(out.ends_with(&format!("---{nl}body{nl}")));
            }
        }
        if has_dup(&got) {
            assert!(
                strict.unwrap_err().1.contains("duplicate mapping key"),
                "case {i}"
            );
        } else {
            assert_eq!(strict, Ok(()), "case {i}: {yaml:?}");
        }
        n += 1;
    }
    assert_eq!(n, 400);
}

#[test]
fn markdown_starting_with_a_rule_caps_warnings() {
    let mut t = String::from("---\n");
    for i in 0..120 {
        t.push_str(&format!("Paragraph {i} without a colon\n"));
    }
    t.push_str("---\n");
    let f = frontmatter::parse(&t).unwrap();
    assert!(f.entries.is_empty());
    assert_eq!(f.warnings.len(), 51);
    assert_eq!(
        f.warnings[50],
        (52, "… and 70 more problems in the frontmatter".to_string())
    );
}

#[test]
fn invalid_utf8_in_frontmatter_values_reads_as_replacement_characters() {
    // The loader's same-length copy holds U+001A for each bad byte; values show U+FFFD.
    let (text, bad) = skillnav::model::lossless_len_utf8(
        b"---\nname: b\xffx\ndescription: bad \xff\xfe utf8 \xc3\ntags: [a\xff]\n---\nbody\n"
            .to_vec(),
    );
    assert!(bad);
    let fm = frontmatter::parse(&text).expect("frontmatter");
    assert_eq!(fm.name().as_deref(), Some("b\u{FFFD}x"));
    assert_eq!(
        fm.description().as_deref(),
        Some("bad \u{FFFD}\u{FFFD} utf8 \u{FFFD}")
    );
    assert_eq!(
        fm.get("tags").map(|e| e.value.clone()),
        Some(Value::List(vec!["a\u{FFFD}".into()]))
    );
    // Spans still index the loaded text.
    let e = fm.get("name").expect("name");
    assert_eq!(&text[e.value_span.clone()], "b\u{1A}x");
    // The strict reader sees U+FFFD too, which YAML allows.
    assert_eq!(verify_strict(&text[fm.yaml.clone()]), Ok(()));
}
