//! Agent Skills folders (docs/FORMATS.md §3): single skills, folders of skills, frontmatter into
//! nodes, the real `Skill_Seekers` duplicate tree, byte-level frontmatter edge cases, and the
//! bundled sample skill.

use serde_json::json;
use skillnav::model::{Flag, Format, NodeKind};

use super::fixture;
use crate::support::corpus::*;
use crate::support::fs::{size, tempdir, write};

fn no_sections(c: &skillnav::model::Corpus) -> Vec<String> {
    dump(c).into_iter().filter(|l| !l.contains('#')).collect()
}

#[test]
fn single_skill_root_brand_guidelines() {
    let dir = fixture("skills/brand-guidelines");
    let c = load(&dir);
    assert_eq!(
        dump(&c),
        vec![
            "brand-guidelines root skill",
            "brand-guidelines/brand-guidelines skill skill",
            "brand-guidelines/SKILL.md file markdown",
            "brand-guidelines/SKILL.md#anthropic-brand-styling section markdown L7-73",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/overview section markdown L9-14",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/brand-guidelines section markdown L15-37",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/brand-guidelines/colors section markdown L17-31",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/brand-guidelines/typography section markdown L32-37",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/features section markdown L38-59",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/features/smart-font-application section markdown L40-46",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/features/text-styling section markdown L47-53",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/features/shape-and-accent-colors section markdown L54-59",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/technical-details section markdown L60-73",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/technical-details/font-management section markdown L62-68",
            "brand-guidelines/SKILL.md#anthropic-brand-styling/technical-details/color-application section markdown L69-73",
            "brand-guidelines/LICENSE.txt file text",
        ]
    );
    let skill = c.node(get(&c, "brand-guidelines/brand-guidelines"));
    assert_eq!(&*skill.path, "");
    assert_eq!(skill.title, "brand-guidelines");
    assert!(
        skill
            .summary
            .starts_with("Applies Anthropic's official brand colors and typography")
    );
    assert_eq!(skill.detail.as_deref(), Some(skill.summary.as_str()));
    assert_eq!(skill.meta["license"], "Complete terms in LICENSE.txt");
    assert_eq!(skill.meta["allowed_tools"], json!([]));
    assert!(skill.warnings.is_empty(), "{:?}", skill.warnings);
    let md = size(&dir.join("SKILL.md"));
    let lic = size(&dir.join("LICENSE.txt"));
    assert_eq!(c.node(get(&c, "brand-guidelines/SKILL.md")).bytes, md);
    assert_eq!(skill.bytes, md + lic);
    // The SKILL.md file's own text is its frontmatter block and the blank line after it
    // (no section holds that line, so the file does: every byte is counted once).
    assert!(
        c.own_text(get(&c, "brand-guidelines/SKILL.md"))
            .starts_with("---\nname: brand-guidelines\n")
    );
    assert!(
        c.own_text(get(&c, "brand-guidelines/SKILL.md"))
            .ends_with("LICENSE.txt\n---\n\n")
    );
    let file = c.node(get(&c, "brand-guidelines/SKILL.md"));
    let sections: u64 = file.children.iter().map(|k| c.node(*k).bytes).sum();
    assert_eq!(file.own_bytes + sections, file.bytes);
}

#[test]
fn folder_of_skills_keeps_each_skill_self_contained() {
    let c = load(&fixture("skills"));
    assert_eq!(
        no_sections(&c),
        vec![
            "skills root skills_dir",
            "skills/brand-guidelines skill skill",
            "skills/brand-guidelines/SKILL.md file markdown",
            "skills/brand-guidelines/LICENSE.txt file text",
            "skills/claude-api skill skill",
            "skills/claude-api/SKILL.md file markdown",
            "skills/theme-factory skill skill",
            "skills/theme-factory/SKILL.md file markdown",
            "skills/theme-factory/LICENSE.txt file text",
            "skills/theme-factory/themes dir skill",
            "skills/theme-factory/themes/arctic-frost.md file markdown",
            "skills/theme-factory/themes/ocean-depths.md file markdown",
        ]
    );
    // Both LICENSE.txt files are identical, but each skill is its own duplicate scope.
    assert!(
        !c.node(get(&c, "skills/theme-factory/LICENSE.txt"))
            .flags
            .has(Flag::Duplicate)
    );
    let theme = c.node(get(
        &c,
        "skills/theme-factory/themes/arctic-frost.md#arctic-frost/color-palette",
    ));
    assert_eq!(
        (theme.line_start, theme.line_end, theme.level),
        (Some(5), Some(11), 2)
    );
}

#[test]
fn claude_api_literal_block_description() {
    let c = load(&fixture("skills/claude-api"));
    let skill = c.node(get(&c, "claude-api/claude-api"));
    let detail = skill.detail.clone().unwrap_or_default();
    assert_eq!(detail.lines().count(), 3);
    assert!(detail.starts_with("Reference for the Claude API / Anthropic SDK — model ids"));
    assert!(!skill.summary.contains('\n'));
    assert_eq!(
        skill.summary,
        detail.split('\n').collect::<Vec<_>>().join(" ")
    );
    assert_eq!(
        no_sections(&c).len() + 5,
        dump(&c).len(),
        "five sections: {:?}",
        dump(&c)
    );
    let drift = get(
        &c,
        "claude-api/SKILL.md#building-llm-powered-applications-with-claude/-api-drift--your-training-prior-may-be-stale",
    );
    assert_eq!(
        c.node(drift).title,
        "⚠️ API Drift — Your Training Prior May Be Stale"
    );
}

#[test]
fn hono_unified_documentation_tree_is_duplicate() {
    let dir = fixture("hono-unified");
    let c = load(&dir);
    assert_eq!(
        no_sections(&c),
        vec![
            "hono-unified root seekers",
            "hono-unified/hono skill seekers",
            "hono-unified/SKILL.md file markdown",
            "hono-unified/references dir seekers",
            "hono-unified/references/other.md file seekers L1-104",
            "hono-unified/references/variants group seekers [variant]",
            "hono-unified/references/llms.md file llms_txt L1-100 [variant]",
            "hono-unified/references/documentation dir seekers [duplicate]",
            "hono-unified/references/documentation/index.md file seekers L1-7 [duplicate]",
            "hono-unified/references/documentation/hono_docs dir seekers [duplicate]",
            "hono-unified/references/documentation/hono_docs/index.md file seekers L1-18 [duplicate]",
            "hono-unified/references/documentation/hono_docs/other.md file seekers L1-104 [duplicate]",
            "hono-unified/references/documentation/hono_docs/variants group seekers [duplicate,variant]",
            "hono-unified/references/documentation/hono_docs/llms.md file llms_txt L1-100 [duplicate,variant]",
        ]
    );
    let mirror = warnings(&c, "hono-unified/references/documentation");
    assert_eq!(mirror.len(), 1);
    // The mirrored folder is named relative to the opened root, not by its absolute path.
    assert_eq!(
        mirror[0],
        "references/documentation: per-source mirror of references (2 files byte-identical \
         to references/*.md); counted once"
    );
    // The llms variant is an alternative rendering of the category pages: shown, not summed.
    let expect = size(&dir.join("SKILL.md")) + size(&dir.join("references/other.md"));
    assert_eq!(c.node(get(&c, "hono-unified/hono")).bytes, expect);
    assert_eq!(c.node(c.roots[0]).bytes, expect);
    let skill = c.node(get(&c, "hono-unified/hono"));
    assert_eq!(
        skill.summary,
        "Hono web application framework for building fast, lightweight APIs. Use for Hono routing, middleware, context handling, and modern JavaScript/TypeScript web development."
    );
}

/// Regression: an index entry naming a sub-folder's index page (`hono_docs/index.md`) or an
/// llms variant (`llms.md`, grouped under `variants`) was warned "not in this folder"
/// although the file exists. Only files missing on disk are warned (this trimmed fixture
/// lacks the other category files, so those warnings are real).
#[test]
fn seekers_index_entries_present_on_disk_are_not_warned() {
    let c = load(&fixture("hono-unified"));
    assert_eq!(
        warnings(&c, "hono-unified/references/documentation/index.md"),
        Vec::<String>::new()
    );
    let missing = |line: u32, file: &str| {
        format!(
            "references/documentation/hono_docs/index.md:{line}: index lists {file}, which is not in this folder"
        )
    };
    assert_eq!(
        warnings(
            &c,
            "hono-unified/references/documentation/hono_docs/index.md"
        ),
        vec![
            missing(9, "api.md"),
            missing(10, "concepts.md"),
            missing(11, "getting-started.md"),
            missing(12, "guides.md"),
            missing(13, "helpers.md"),
            missing(14, "llms-full.md"),
            missing(15, "llms-small.md"),
            missing(17, "middleware.md"),
        ],
        "line 16 (llms.md, a variant) and line 18 (other.md) exist"
    );
}

#[test]
fn frontmatter_fixtures_into_meta() {
    let c = load(&fixture("frontmatter-fixtures"));
    let pdf = c.node(get(&c, "frontmatter-fixtures/external-frontmatter"));
    assert_eq!(pdf.title, "pdf");
    assert_eq!(pdf.kind, NodeKind::Skill);
    assert_eq!(
        pdf.summary,
        "Folded multi-line description that the v1 parser would have rejected because of the indentation."
    );
    assert_eq!(pdf.meta["version"], "2.1.0");
    assert_eq!(pdf.meta["argument-hint"], "[file]");
    assert_eq!(pdf.meta["allowed-tools"], json!(["Read", "Bash"]));
    assert_eq!(pdf.meta["allowed_tools"], json!(["Read", "Bash"]));
    assert_eq!(
        pdf.meta["when-to-use"],
        "When the user wants to read or edit a PDF."
    );
    let full = c.node(get(&c, "frontmatter-fixtures/valid-full"));
    assert_eq!(full.title, "db-debug");
    assert_eq!(
        full.meta["allowed_tools"],
        json!(["query_db", "tail_logs", "read_file", "grep"])
    );
    // Frontmatter warnings live on the SKILL.md file node only (not repeated on the skill).
    let broken = c.node(get(&c, "frontmatter-fixtures/invalid-frontmatter/SKILL.md"));
    assert!(
        !broken.warnings.is_empty(),
        "an unclosed frontmatter is reported"
    );
    assert!(
        broken
            .warnings
            .iter()
            .all(|w| w.path.as_deref() == Some("invalid-frontmatter/SKILL.md"))
    );
    assert!(
        c.node(get(&c, "frontmatter-fixtures/invalid-frontmatter"))
            .warnings
            .is_empty()
    );
}

#[test]
fn unquoted_colon_in_description_warns_with_file_and_line() {
    let c = load(&fixture("handmade/colon-skill"));
    let skill = c.node(get(&c, "colon-skill/colon-skill"));
    assert_eq!(
        skill.detail.as_deref(),
        Some("Use when: the user asks about colons in values")
    );
    let file = c.node(get(&c, "colon-skill/SKILL.md"));
    assert_eq!(file.warnings.len(), 1, "{:?}", file.warnings);
    assert_eq!(file.warnings[0].path.as_deref(), Some("SKILL.md"));
    assert_eq!(file.warnings[0].line, Some(3));
    assert!(
        skill.warnings.is_empty(),
        "shown once, on SKILL.md: {:?}",
        skill.warnings
    );
}

#[test]
fn bom_and_crlf_frontmatter() {
    let t = tempdir();
    let text = "\u{feff}---\r\nname: bom-crlf\r\ndescription: Handles BOM and CRLF.\r\n---\r\n\r\n# Body Title\r\nText here.\r\n";
    let path = write(t.path(), "bom-crlf/SKILL.md", text.as_bytes());
    let c = load(&t.path().join("bom-crlf"));
    assert_eq!(
        dump(&c),
        vec![
            "bom-crlf root skill",
            "bom-crlf/bom-crlf skill skill",
            "bom-crlf/SKILL.md file markdown",
            "bom-crlf/SKILL.md#body-title section markdown L6-7",
        ]
    );
    let skill = c.node(get(&c, "bom-crlf/bom-crlf"));
    assert_eq!(skill.title, "bom-crlf");
    assert_eq!(skill.summary, "Handles BOM and CRLF.");
    assert_eq!(skill.meta["name"], "bom-crlf");
    let sec_id = get(&c, "bom-crlf/SKILL.md#body-title");
    assert_eq!(c.node(sec_id).title, "Body Title");
    assert_eq!(c.summary(sec_id), "Text here.");
    assert_eq!(c.node(get(&c, "bom-crlf/SKILL.md")).bytes, size(&path));
    assert_eq!(
        c.text(get(&c, "bom-crlf/SKILL.md#body-title")),
        "# Body Title\r\nText here.\r\n"
    );
}

#[test]
fn skill_assets_listed_not_parsed_and_lowercase_skill_md() {
    let t = tempdir();
    let root = t.path();
    write(
        root,
        "kit/skill.md",
        b"---\nname: kit\ndescription: A kit.\n---\n# Kit\n",
    );
    write(root, "kit/scripts/run.py", b"print('hi')\n");
    write(root, "kit/assets/template.md", b"# Not parsed\n");
    write(root, "kit/assets/logo.png", b"\x89PNG\r\n");
    write(root, "kit/tool.py.placeholder", b"was a python script\n");
    write(root, "kit/data.json", b"{}\n");
    write(root, "kit/4-10.md", b"# Ten\n");
    write(root, "kit/4-9.md", b"# Nine\n");
    let c = load_as(root, "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root skills_dir",
            "r/kit skill skill",
            "r/kit/skill.md file markdown",
            "r/kit/skill.md#kit section markdown L5-5",
            "r/kit/4-9.md file markdown",
            "r/kit/4-9.md#nine section markdown L1-1",
            "r/kit/4-10.md file markdown",
            "r/kit/4-10.md#ten section markdown L1-1",
            "r/kit/assets dir asset [asset]",
            "r/kit/assets/logo.png file asset [asset]",
            "r/kit/assets/template.md file asset [asset]",
            "r/kit/data.json file asset [asset]",
            "r/kit/scripts dir asset [asset]",
            "r/kit/scripts/run.py file asset [asset]",
            "r/kit/tool.py.placeholder file asset [placeholder,asset]",
        ]
    );
    assert_eq!(c.node(get(&c, "r/kit/scripts/run.py")).bytes, 12);
    assert!(c.node(get(&c, "r/kit/assets/template.md")).span.is_none());
    assert_eq!(c.node(get(&c, "r/kit")).format, Format::Skill);
}

#[test]
fn nested_plugin_layout() {
    let t = tempdir();
    write(
        t.path(),
        "plugins/tools/skills/lint/SKILL.md",
        b"---\nname: lint\ndescription: Lints.\n---\n",
    );
    write(t.path(), "plugins/tools/README.md", b"# Tools plugin\n");
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c),
        vec![
            "r root skills_dir",
            "r/plugins dir skills_dir",
            "r/plugins/tools dir skills_dir",
            "r/plugins/tools/README.md file markdown",
            "r/plugins/tools/README.md#tools-plugin section markdown L1-1",
            "r/plugins/tools/skills dir skills_dir",
            "r/plugins/tools/skills/lint skill skill",
            "r/plugins/tools/skills/lint/SKILL.md file markdown",
        ]
    );
}

#[test]
fn bundled_sample_skill_loads_cleanly() {
    let t = tempdir();
    let dir = skillnav::assets::write_sample(t.path()).unwrap_or_else(|e| panic!("{e}"));
    let c = load(&dir);
    let skill = c.node(get(&c, "skillnav-sample/skillnav-sample"));
    assert_eq!(skill.title, "skillnav-sample");
    assert!(skill.warnings.is_empty(), "{:?}", skill.warnings);
    assert_eq!(skill.meta["license"], "MIT");
    assert_eq!(
        skill.meta["allowed_tools"],
        json!(["Bash(skillnav:*)", "Read"])
    );
    assert_eq!(skill.meta["metadata"]["version"], "1.0");
    get(
        &c,
        "skillnav-sample/SKILL.md#skillnav-sample-skill/quick-start",
    );
    get(
        &c,
        "skillnav-sample/references/cli.md#skillnav-command-line/exit-codes",
    );
    get(
        &c,
        "skillnav-sample/references/ids-and-sizes.md#ids-and-sizes/heading-slugs",
    );
    let all_warnings: usize = c.nodes.iter().map(|n| n.warnings.len()).sum();
    assert_eq!(all_warnings, 0);
}
