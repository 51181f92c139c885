//! Frontmatter inputs from real bug reports of tools of this field (docs/FORMATS.md §9):
//! a `---` line inside a block scalar or a quoted value, CR-only (classic Mac OS) line
//! endings, and the small inputs an external fuzz run found in `set`/`unset`/`repair` and the
//! flow-sequence reader. Fixtures are in `tests/fixtures/fm-edge/` (written byte-exact; see
//! SOURCE.md there); `expected-pyyaml.json` is what `PyYAML`'s `BaseLoader` reads from each.

use std::path::PathBuf;

use skillnav::error::Error;
use skillnav::frontmatter::{
    self, EditValue, Frontmatter, LineEnding, Value, fm_set, fm_unset, verify_strict,
};
use skillnav::model::Corpus;
use skillnav::skill::validate::{Profile, validate_skill_md};

use crate::support::corpus::{dump, load_as};
use crate::support::fs::{copy_dir, fixture_path, tempdir};

fn edge(rel: &str) -> PathBuf {
    fixture_path("fm-edge").join(rel)
}

fn read(rel: &str) -> String {
    String::from_utf8(std::fs::read(edge(rel)).unwrap()).unwrap()
}

fn s(v: &str) -> Value {
    Value::Str(v.to_string())
}

fn key_values(f: &Frontmatter) -> Vec<(String, Value)> {
    f.entries
        .iter()
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect()
}

fn sorted(mut kv: Vec<(String, Value)>) -> Vec<(String, Value)> {
    kv.sort_by(|a, b| a.0.cmp(&b.0));
    kv
}

/// `PyYAML`'s reading of `rel`, sorted by key.
fn pyyaml(rel: &str) -> Vec<(String, Value)> {
    let all: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&read("expected-pyyaml.json")).unwrap();
    sorted(
        all[rel]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), s(v.as_str().unwrap())))
            .collect(),
    )
}

const BLOCK_DASH: [&str; 4] = ["triage", "changelog", "timeline", "control"];

// ---------------------------------------------------------------------------------------
// A `---` line inside a block scalar or a quoted value is content.

#[test]
fn dash_line_in_literal_block_is_content_and_name_after_it_is_kept() {
    let text = read("block-dash/triage/SKILL.md");
    let f = frontmatter::parse(&text).unwrap();
    assert_eq!(
        key_values(&f),
        vec![
            (
                "description".into(),
                s("Triage incoming bug reports.\n---\nReply with the template below.\n")
            ),
            ("name".into(), s("triage")),
            ("allowed-tools".into(), s("Read, Grep")),
        ]
    );
    assert_eq!(f.allowed_tools(), ["Read", "Grep"]);
    assert_eq!(f.warnings, vec![]);
    assert_eq!(
        &text[f.block.end..],
        "\n# Triage\n\nSort each new report by severity.\n"
    );
}

#[test]
fn dash_line_in_folded_block_is_content() {
    let f = frontmatter::parse(&read("block-dash/changelog/SKILL.md")).unwrap();
    assert_eq!(
        f.description().as_deref(),
        Some("Summarise a changelog. --- Keep it short.")
    );
    assert_eq!(f.name().as_deref(), Some("changelog"));
    assert_eq!(f.warnings, vec![]);
}

#[test]
fn dash_line_in_multi_line_double_quoted_value_is_content() {
    let f = frontmatter::parse(&read("block-dash/timeline/SKILL.md")).unwrap();
    assert_eq!(
        f.description().as_deref(),
        Some("Draw a project timeline --- one row per milestone.")
    );
    assert_eq!(f.warnings, vec![]);
}

#[test]
fn block_dash_skills_read_as_pyyaml_reads_them_and_pass_strict_yaml() {
    for name in BLOCK_DASH {
        let rel = format!("block-dash/{name}/SKILL.md");
        let text = read(&rel);
        let f = frontmatter::parse(&text).unwrap();
        assert_eq!(sorted(key_values(&f)), pyyaml(&rel), "{rel}");
        assert_eq!(verify_strict(&text[f.yaml.clone()]), Ok(()), "{rel}");
    }
}

#[test]
fn block_dash_skills_validate_clean_without_unclosed_quote_or_name_missing() {
    for name in BLOCK_DASH {
        let text = read(&format!("block-dash/{name}/SKILL.md"));
        assert_eq!(
            validate_skill_md(&text, name, None, Profile::Spec),
            vec![],
            "{name}"
        );
    }
}

#[test]
fn block_dash_skills_have_one_section_each_their_h1() {
    let c = load_as(&edge("block-dash"), "bd");
    assert_eq!(
        dump(&c),
        [
            "bd root skills_dir",
            "bd/changelog skill skill",
            "bd/changelog/SKILL.md file markdown",
            "bd/changelog/SKILL.md#changelog section markdown L9-11",
            "bd/control skill skill",
            "bd/control/SKILL.md file markdown",
            "bd/control/SKILL.md#control section markdown L6-8",
            "bd/timeline skill skill",
            "bd/timeline/SKILL.md file markdown",
            "bd/timeline/SKILL.md#timeline section markdown L8-10",
            "bd/triage skill skill",
            "bd/triage/SKILL.md file markdown",
            "bd/triage/SKILL.md#triage section markdown L10-12",
        ]
    );
}

/// `fm set KEY` on a copy of `rel`; the whole new file must equal the old one with exactly
/// line `old_line` replaced by `new_line`.
fn set_changes_only(rel: &str, key: &str, value: &str, old_line: &str, new_line: &str) {
    let dir = tempdir();
    let p = dir.path().join("SKILL.md");
    let old = std::fs::read(edge(rel)).unwrap();
    std::fs::write(&p, &old).unwrap();
    let report = fm_set(&p, key, value).unwrap();
    let old = String::from_utf8(old).unwrap();
    assert_eq!(old.matches(old_line).count(), 1, "{rel}: {old_line:?}");
    let want = old.replace(old_line, new_line);
    assert_eq!(std::fs::read_to_string(&p).unwrap(), want, "{rel}");
    assert_eq!(report.diff.len(), 2, "{rel}: {:?}", report.diff);
}

#[test]
fn fm_set_allowed_tools_after_literal_block_with_dash_line_changes_only_that_line() {
    set_changes_only(
        "block-dash/triage/SKILL.md",
        "allowed-tools",
        "Read Grep Bash",
        "\nallowed-tools: Read, Grep\n",
        "\nallowed-tools: Read Grep Bash\n",
    );
}

#[test]
fn fm_set_name_on_each_block_dash_skill_changes_only_the_name_line() {
    for name in BLOCK_DASH {
        set_changes_only(
            &format!("block-dash/{name}/SKILL.md"),
            "name",
            "renamed",
            &format!("\nname: {name}\n"),
            "\nname: renamed\n",
        );
    }
}

// ---------------------------------------------------------------------------------------
// CR-only line endings.

/// Every node of a corpus as (id without its root label, spans, lines, bytes, title,
/// summary).
type NodeRow = (
    String,
    Option<(usize, usize, usize)>,
    Option<u32>,
    Option<u32>,
    u64,
    u64,
    String,
    String,
);

fn rows(c: &Corpus) -> Vec<NodeRow> {
    c.preorder(c.roots[0])
        .into_iter()
        .map(|id| {
            let n = c.node(id);
            (
                c.id(id),
                n.span.map(|s| (s.start, s.own_end, s.end)),
                n.line_start,
                n.line_end,
                n.bytes,
                n.own_bytes,
                n.title.clone(),
                c.summary(id).to_string(),
            )
        })
        .collect()
}

#[test]
fn cr_only_skill_has_the_tree_spans_and_lines_of_its_lf_twin() {
    let cr = load_as(&edge("line-endings/cr"), "mac");
    let lf = load_as(&edge("line-endings/lf"), "mac");
    assert_eq!(rows(&cr), rows(&lf));
    assert_eq!(
        dump(&cr),
        [
            "mac root skills_dir",
            "mac/oldmac skill skill",
            "mac/oldmac/SKILL.md file markdown",
            "mac/oldmac/SKILL.md#old-mac section markdown L6-12",
            "mac/oldmac/SKILL.md#old-mac/line-endings section markdown L10-12",
        ]
    );
    let file = cr.find("mac/oldmac/SKILL.md").unwrap();
    let meta = &cr.node(file).meta;
    assert_eq!(meta["name"], "oldmac");
    assert_eq!(
        meta["description"],
        "Convert classic Mac OS text files. Use when a file has CR line endings."
    );
    assert!(cr.node(file).warnings.is_empty());
}

#[test]
fn cr_only_frontmatter_has_the_entries_of_its_lf_twin_without_cr_in_values() {
    let cr_text = read("line-endings/cr/oldmac/SKILL.md");
    assert_eq!(cr_text.matches('\r').count(), 12);
    assert!(!cr_text.contains('\n'));
    let cr = frontmatter::parse(&cr_text).unwrap();
    let lf = frontmatter::parse(&read("line-endings/lf/oldmac/SKILL.md")).unwrap();
    assert_eq!(cr.line_ending, LineEnding::Cr);
    assert_eq!(cr.entries, lf.entries);
    assert_eq!((cr.block.clone(), cr.yaml.clone()), (lf.block, lf.yaml));
    assert_eq!(cr.warnings, vec![]);
    assert_eq!(
        sorted(key_values(&cr)),
        pyyaml("line-endings/cr/oldmac/SKILL.md")
    );
    assert_eq!(
        validate_skill_md(&cr_text, "oldmac", None, Profile::Spec),
        vec![]
    );
}

/// Every fixture of `tests/fixtures/frontmatter/` with its line breaks turned into lone CRs
/// reads exactly like the original: same entries (values, spans, lines), block and warnings.
#[test]
fn every_frontmatter_fixture_reads_the_same_with_cr_only_line_endings() {
    let dir = fixture_path("frontmatter");
    let mut checked = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().and_then(|x| x.to_str()) != Some("md") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        if text.contains('\r') {
            continue;
        }
        let cr = text.replace('\n', "\r");
        let (a, b) = (frontmatter::parse(&text), frontmatter::parse(&cr));
        assert_eq!(a.is_some(), b.is_some(), "{p:?}");
        if let (Some(a), Some(b)) = (a, b) {
            assert_eq!(a.entries, b.entries, "{p:?}");
            assert_eq!((a.block, a.yaml, a.warnings), (b.block, b.yaml, b.warnings));
        }
        checked += 1;
    }
    assert_eq!(checked, 39);
}

#[test]
fn fm_set_and_unset_on_cr_only_file_keep_cr_endings() {
    let dir = tempdir();
    copy_dir(&edge("line-endings/cr"), dir.path());
    let p = dir.path().join("oldmac/SKILL.md");
    let old = std::fs::read_to_string(&p).unwrap();

    fm_set(&p, "name", "newmac").unwrap();
    assert_eq!(
        std::fs::read_to_string(&p).unwrap(),
        old.replace("name: oldmac\r", "name: newmac\r")
    );
    fm_set(&p, "license", "MIT").unwrap();
    fm_set(&p, "description", "Two\nlines").unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    assert_eq!(
        text,
        "---\rname: newmac\rdescription: |-\r  Two\r  lines\rlicense: MIT\r---\r\r# Old Mac\r\r\
         Text from before OS X.\r\r## Line endings\r\rEach line ends with a carriage return.\r"
    );
    let f = frontmatter::parse(&text).unwrap();
    assert_eq!(f.description().as_deref(), Some("Two\nlines"));
    fm_unset(&p, "license").unwrap();
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(!text.contains('\n'), "{text:?}");
    assert!(!text.contains("license"));
}

#[test]
fn set_on_cr_only_file_without_frontmatter_writes_a_cr_block() {
    let out = frontmatter::set(b"# T\rbody\r", "name", &EditValue::Str("t".into())).unwrap();
    assert_eq!(out, b"---\rname: t\r---\r# T\rbody\r");
}

// ---------------------------------------------------------------------------------------
// What an external fuzz run found.

#[test]
fn set_without_frontmatter_value_with_dash_line_reads_back_and_body_stays_body() {
    let v = "a\n---\nb";
    let out = frontmatter::set(b"body\n", "description", &EditValue::Str(v.into())).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "---\ndescription: |-\n  a\n  ---\n  b\n---\nbody\n");
    let f = frontmatter::parse(&text).unwrap();
    assert_eq!(f.description().as_deref(), Some(v));
    assert_eq!(&text[f.block.end..], "body\n");
}

#[test]
fn set_without_frontmatter_list_item_with_two_spaces_reads_back() {
    let items = vec!["a  b".to_string()];
    let out = frontmatter::set(b"body\n", "tags", &EditValue::List(items.clone())).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "---\ntags: [a  b]\n---\nbody\n");
    let f = frontmatter::parse(&text).unwrap();
    assert_eq!(f.get("tags").unwrap().value, Value::List(items));
}

#[test]
fn set_of_a_key_with_a_cr_is_refused_with_and_without_frontmatter() {
    for bytes in [&b"body\n"[..], b"---\nname: a\n---\n"] {
        let e = frontmatter::set(bytes, "a\rb", &EditValue::Str("v".into())).unwrap_err();
        assert!(matches!(e, Error::Usage(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            "key \"a\\rb\" holds a line break; keys are one line"
        );
    }
}

#[test]
fn plain_flow_sequence_items_keep_inner_spaces() {
    let f = frontmatter::parse("---\nk: [a  b, c]\nm: [x  \n   y]\n---\n").unwrap();
    assert_eq!(
        f.get("k").unwrap().value,
        Value::List(vec!["a  b".into(), "c".into()])
    );
    // A line break inside the brackets still folds to one space (PyYAML: ['x y']).
    assert_eq!(f.get("m").unwrap().value, Value::List(vec!["x y".into()]));
    assert_eq!(f.warnings, vec![]);
}

#[test]
fn repair_of_glued_colon_writes_the_blank_so_the_key_stays_the_same() {
    let (out, lines) = frontmatter::repair(b"---\ndescription:Use it\n---\n");
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "---\ndescription: Use it\n---\n"
    );
    assert_eq!(lines, [2]);
    // A glued value that also needs quotes (it starts with an indicator) gets both.
    let (out, lines) = frontmatter::repair(b"---\nname: n\ndescription:@Use it\n---\n");
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "---\nname: n\ndescription: '@Use it'\n---\n");
    assert_eq!(lines, [3]);
    let f = frontmatter::parse(&text).unwrap();
    assert_eq!(verify_strict(&text[f.yaml.clone()]), Ok(()));
    assert_eq!(f.description().as_deref(), Some("@Use it"));
    assert_eq!(f.warnings, vec![]);
}

#[test]
fn unset_that_would_hand_a_stray_dash_line_to_another_key_refuses() {
    let old = b"---\na:\nb: x\n-\n---\n";
    let f = frontmatter::parse(std::str::from_utf8(old).unwrap()).unwrap();
    assert_eq!(f.get("a").unwrap().value, s(""));
    let e = frontmatter::unset(old, "b").unwrap_err();
    assert_eq!(
        e.to_string(),
        "removing `b` would change the value of another key; nothing written"
    );
    // Through the CLI path the file is left untouched.
    let dir = tempdir();
    let p = dir.path().join("SKILL.md");
    std::fs::write(&p, old).unwrap();
    assert!(fm_unset(&p, "b").is_err());
    assert_eq!(std::fs::read(&p).unwrap(), old);
    // Without the stray line the same unset goes through.
    assert_eq!(
        frontmatter::unset(b"---\na:\nb: x\n---\n", "b").unwrap(),
        b"---\na:\n---\n"
    );
}

// ---------------------------------------------------------------------------------------
// Hugo's `+++` TOML front matter.

#[test]
fn toml_front_matter_is_metadata_not_a_section_and_its_bytes_still_count() {
    let c = load_as(&edge("hugo"), "hugo");
    assert_eq!(
        dump(&c),
        [
            "hugo root markdown",
            "hugo/content dir markdown",
            "hugo/content/deploy.md file markdown",
            "hugo/content/deploy.md#deploy section markdown L8-14",
            "hugo/content/deploy.md#deploy/publish section markdown L12-14",
            "hugo/content/unclosed.md file markdown",
            "hugo/content/unclosed.md#unclosedmd section markdown L1-3",
            "hugo/content/unclosed.md#notes section markdown L4-6",
        ]
    );
    let file = c.node(c.find("hugo/content/deploy.md").unwrap());
    assert_eq!(
        serde_json::Value::Object((*file.meta).clone()),
        serde_json::json!({
            "title": "Deploy with Hugo",
            "date": "2024-05-01T10:00:00Z",
            "tags": ["hugo", "deploy"],
            "draft": false
        })
    );
    // Own text: the TOML block and the blank line before the first heading.
    assert_eq!((file.bytes, file.own_bytes), (228, 104));
    let deploy = c.find("hugo/content/deploy.md#deploy").unwrap();
    assert_eq!(
        c.summary(deploy),
        "Build the site with the minify flag before you publish it."
    );
}

#[test]
fn unclosed_toml_fence_stays_text() {
    let c = load_as(&edge("hugo"), "hugo");
    let pre = c.find("hugo/content/unclosed.md#unclosedmd").unwrap();
    assert_eq!(c.own_text(pre), "+++\ntitle = \"Never closed\"\n\n");
    assert!(
        c.node(c.find("hugo/content/unclosed.md").unwrap())
            .meta
            .is_empty()
    );
}

#[test]
fn query_brief_never_retrieves_toml_front_matter() {
    use skillnav::brief::{BriefFormat, Layout, Mode, Request, build_in};
    use skillnav::index::Index;
    use skillnav::tokens::{Encoding, TokenCounter};

    let c = load_as(&edge("hugo/content/deploy.md"), "hugo");
    let index = Index::build(&c, &mut |_, _| {});
    let req = Request {
        units: vec![],
        query: Some("deploy hugo title date tags draft publish".into()),
        top_k: 8,
        mode: Mode::Auto,
        format: BriefFormat::Md,
        budget: None,
        exposure: skillnav::curate::exposure::ExposureMap::new(),
        from_recipe: false,
        max_chars: None,
        quotes: true,
    };
    let counter = TokenCounter::new(Encoding::O200kBase);
    let b = build_in(&c, Some(&index), &req, Layout::curated(req.format), counter);
    assert!(!b.text.contains("+++"), "{}", b.text);
    assert!(!b.text.contains("title = "), "{}", b.text);
    assert_eq!(b.sections, 2, "{}", b.text);
    assert!(b.text.contains("Push the public folder"), "{}", b.text);
}

#[test]
fn summarize_text_of_a_file_with_toml_front_matter_skips_the_block() {
    use skillnav::curate::summary::summary_of;
    let text = read("hugo/content/deploy.md");
    assert_eq!(
        summary_of("", &text),
        "Build the site with the minify flag before you publish it."
    );
    let described = "+++\ndescription = \"How to deploy.\"\n+++\n# A\nbody\n";
    assert_eq!(summary_of("", described), "How to deploy.");
}

/// `set name` on every fixture of `tests/fixtures/frontmatter/` and `fm-edge/` that has a
/// one-line `name`: the whole new file is the old one with exactly the value's bytes
/// replaced (key, comment, other lines, line breaks untouched).
#[test]
fn set_name_on_every_fixture_changes_only_the_value_bytes() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixture_path("frontmatter"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("md"))
        .collect();
    for name in BLOCK_DASH {
        files.push(edge(&format!("block-dash/{name}/SKILL.md")));
    }
    files.push(edge("line-endings/cr/oldmac/SKILL.md"));
    let mut checked = 0;
    for p in files {
        let old = std::fs::read(&p).unwrap();
        let Ok(text) = std::str::from_utf8(&old) else {
            continue;
        };
        let Some(f) = frontmatter::parse(text) else {
            continue;
        };
        let Some(e) = f.get("name") else { continue };
        if e.lines.end - e.lines.start != 1 || !matches!(e.value, Value::Str(_)) {
            continue;
        }
        let out = frontmatter::set(&old, "name", &EditValue::Str("renamed".into())).unwrap();
        let mut want = old[..e.value_span.start].to_vec();
        want.extend_from_slice(b"renamed");
        want.extend_from_slice(&old[e.value_span.end..]);
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&want),
            "{p:?}"
        );
        checked += 1;
    }
    assert_eq!(checked, 41);
}
