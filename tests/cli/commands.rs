//! The real `skillnav` binary against fixtures: JSON shapes and exit codes of docs/DESIGN.md §7,
//! and the issue acceptance points that scripts rely on.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::fs::{copy_dir, manifest};

fn fixtures() -> PathBuf {
    manifest("tests/fixtures")
}

fn skillnav(args: &[&str]) -> Output {
    crate::support::child::skillnav_command()
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
}

fn json_of(args: &[&str]) -> Value {
    let out = skillnav(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

fn s(p: &Path) -> &str {
    p.to_str()
        .unwrap_or_else(|| panic!("non-UTF-8 path {}", p.display()))
}

#[test]
fn tree_json_has_one_node_per_skill_with_full_descriptions_and_true_sizes() {
    let skills = fixtures().join("formats/skills");
    let v = json_of(&["tree", s(&skills), "--json"]);
    assert_eq!(v["schema"], 1);
    assert_eq!(v["encoding"], "o200k_base");
    let root = &v["roots"][0];
    let kids = root["children"]
        .as_array()
        .unwrap_or_else(|| panic!("children"));
    let names: Vec<&str> = kids
        .iter()
        .filter(|k| k["kind"] == "skill")
        .filter_map(|k| k["title"].as_str())
        .collect();
    assert_eq!(names, ["brand-guidelines", "claude-api", "theme-factory"]);
    let api = kids
        .iter()
        .find(|k| k["title"] == "claude-api")
        .unwrap_or_else(|| panic!("claude-api"));
    // The `|-` block scalar: three lines, 1 068 characters, newlines kept.
    let detail = api["detail"].as_str().unwrap_or_default();
    assert_eq!(detail.chars().count(), 1068);
    assert_eq!(detail.lines().count(), 3);
    assert!(
        api["summary"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Reference for the Claude API")
    );
    let skill_md = api["children"]
        .as_array()
        .and_then(|c| c.iter().find(|f| f["title"] == "SKILL.md"))
        .unwrap_or_else(|| panic!("SKILL.md node"));
    let path = skills.join("claude-api/SKILL.md");
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    assert_eq!(skill_md["bytes"], size);
    assert!(skill_md["tokens"].as_u64().unwrap_or(0) > 0);
    // Sections are the file's real headings, in order.
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let first_heading = text
        .lines()
        .find(|l| l.starts_with("# "))
        .unwrap_or_default();
    assert_eq!(
        skill_md["children"][0]["title"]
            .as_str()
            .map(|t| format!("# {t}")),
        Some(first_heading.to_string())
    );
}

/// A `Skill_Seekers` v3 skill as written: category pages, an llms-full variant and the
/// duplicate per-source `documentation/` tree.
fn seekers_skill(dir: &Path) -> PathBuf {
    let skill = dir.join("hono");
    copy_dir(&fixtures().join("index/hono"), &skill);
    let mini = fixtures().join("formats2/seekers/hono-unified-mini/references");
    std::fs::copy(
        mini.join("llms-full.md"),
        skill.join("references/llms-full.md"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mirror = skill.join("references/documentation/hono_docs");
    std::fs::create_dir_all(&mirror).unwrap_or_else(|e| panic!("{e}"));
    for f in [
        "api.md",
        "concepts.md",
        "guides.md",
        "middleware.md",
        "llms-full.md",
    ] {
        std::fs::copy(skill.join("references").join(f), mirror.join(f))
            .unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::copy(
        mini.join("documentation/index.md"),
        skill.join("references/documentation/index.md"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    skill
}

#[test]
fn search_cors_ranks_the_cors_middleware_page_first_outside_the_mirror() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let skill = seekers_skill(t.path());
    let v = json_of(&["search", "cors", s(&skill), "--json"]);
    let bm25: Vec<&Value> = v["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|h| h["source"] == "bm25")
        .collect();
    assert_eq!(bm25[0]["title"], "CORS Middleware");
    assert_eq!(bm25[0]["scorer"], "skillnav");
    assert!(
        !bm25[0]["id"]
            .as_str()
            .unwrap_or_default()
            .contains("/documentation/")
    );
    // No two of the top five hits carry identical text.
    let mut texts: Vec<String> = bm25
        .iter()
        .take(5)
        .map(|h| {
            let id = h["id"].as_str().unwrap_or_default();
            let shown = json_of(&["show", id, s(&skill), "--json"]);
            shown["text"].as_str().unwrap_or_default().to_string()
        })
        .collect();
    let n = texts.len();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), n);
}

#[test]
fn search_midleware_typo_finds_a_middleware_title_in_the_top_three_fuzzy_hits() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let skill = seekers_skill(t.path());
    let v = json_of(&["search", "midleware", s(&skill), "--json"]);
    let fuzzy: Vec<&str> = v["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|h| h["source"] == "fuzzy")
        .take(3)
        .filter_map(|h| h["title"].as_str())
        .collect();
    assert!(fuzzy.iter().any(|t| t.contains("Middleware")), "{fuzzy:?}");
}

#[test]
fn lazytools_briefs_are_byte_identical_through_the_cli() {
    let dir = fixtures().join("lazytools");
    let queries: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("briefs/_queries.json")).unwrap_or_default(),
    )
    .unwrap_or_else(|e| panic!("_queries.json: {e}"));
    let bundle = dir.join("hono-docs");
    for q in queries.as_array().into_iter().flatten() {
        let mut args = vec![
            "brief".to_string(),
            s(&bundle).to_string(),
            "--format".into(),
            "lazytools".into(),
        ];
        args.extend([
            "--query".to_string(),
            q["task"].as_str().unwrap_or_default().to_string(),
        ]);
        args.extend([
            "--mode".to_string(),
            q["mode_arg"].as_str().unwrap_or("auto").to_string(),
        ]);
        if let Some(k) = q["kwargs"]["top_k"].as_u64() {
            args.extend(["--top-k".to_string(), k.to_string()]);
        }
        if let Some(c) = q["kwargs"]["max_chars"].as_u64() {
            args.extend(["--max-chars".to_string(), c.to_string()]);
        }
        if q["kwargs"]["include_quotes"] == false {
            args.push("--no-quotes".into());
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = skillnav(&refs);
        assert!(out.status.success());
        let file = q["file"].as_str().unwrap_or_default();
        let want = std::fs::read(dir.join("briefs").join(file)).unwrap_or_default();
        assert!(out.stdout == want, "{file} differs");
    }
}

#[test]
fn lazytools_bundle_search_reports_the_lazytools_scorer() {
    let bundle = fixtures().join("lazytools/hono-docs");
    let v = json_of(&[
        "search",
        "How do I add CORS middleware to a route?",
        s(&bundle),
        "--json",
        "--top-k",
        "3",
    ]);
    let first = &v["hits"][0];
    assert_eq!(first["scorer"], "lazytools");
    assert_eq!(first["title"], "CORS Middleware");
    assert_eq!(first["score"].as_f64(), Some(16.79951504746042));
}

#[test]
fn validate_reports_the_1068_char_description_and_exits_1() {
    let skills = fixtures().join("formats/skills");
    let out = skillnav(&["validate", s(&skills), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    let api = v["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["name"] == "claude-api");
    let f = api.and_then(|a| {
        a["findings"]
            .as_array()
            .and_then(|f| f.iter().find(|f| f["rule"] == "description-length"))
    });
    assert_eq!(
        f.map(|f| f["message"].clone()),
        Some("description is 1068 chars; the limit is 1024".into())
    );
    assert_eq!(f.map(|f| f["line"].clone()), Some(3.into()));
}

/// Write `text` to `root/rel`, making its folders.
fn write_under(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap_or(root)).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(p, text).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn validate_reports_a_doc_trees_bullet_naming_no_folder_with_file_and_line() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let top = t.path().join("Book");
    let write = |rel: &str, text: &str| write_under(&top, rel, text);
    write(
        "README.md",
        "# Book\n\n- **1-Intro** — start\n- **2-Gone** — moved away\n",
    );
    write("1-Intro/README.md", "# 1. Intro\n\nHow to start.\n");
    write("1-Intro/doc.md", "# Intro\n\nStart here.\n");
    write("3-Extra/README.md", "# 3. Extra\n\nMore.\n");
    write("3-Extra/doc.md", "# Extra\n\nMore here.\n");
    write("4-NoDoc/README.md", "# 4. No doc\n\nNothing yet.\n");
    let out = skillnav(&["validate", s(&top)]);
    assert_eq!(out.status.code(), Some(0));
    let readme = top.join("README.md");
    let (extra, nodoc) = (top.join("3-Extra"), top.join("4-NoDoc"));
    // Four findings in three paths.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{}:4: warning[doc-tree]: README lists 2-Gone, which is not a folder here\n\
             {}: warning[doc-tree]: folder not listed in the parent README\n\
             {}: warning[doc-tree]: leaf folder without doc.md\n\
             {}: warning[doc-tree]: folder not listed in the parent README\n\
             0 skills checked, 3 other paths with findings (spec): 0 errors, 4 warnings\n",
            readme.display(),
            extra.display(),
            nodoc.display(),
            nodoc.display()
        )
    );
}

#[test]
fn validate_names_the_file_of_a_doc_tree_warning_inside_a_skill() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let skill = t.path().join("notes");
    let write = |rel: &str, text: &str| write_under(&skill, rel, text);
    write(
        "SKILL.md",
        "---\nname: notes\ndescription: Team notes.\n---\n\n# Notes\n",
    );
    write(
        "references/docs/README.md",
        "# Docs\n\n- **1-Intro** — start\n- **2-Gone** — gone\n",
    );
    write(
        "references/docs/1-Intro/README.md",
        "# 1. Intro\n\nStart.\n",
    );
    write("references/docs/1-Intro/doc.md", "# Intro\n\nStart here.\n");
    let out = skillnav(&["validate", s(&skill)]);
    let text = String::from_utf8_lossy(&out.stdout);
    let readme = skill.join("references").join("docs").join("README.md");
    assert!(
        text.contains(&format!(
            "{}:4: warning[doc-tree]: README lists 2-Gone, which is not a folder here\n",
            readme.display()
        )),
        "{text}"
    );
}

#[test]
fn usage_and_io_errors_exit_2_with_one_line() {
    for args in [
        &["--no-such-flag"][..],
        &["tree", "/no/such/path"],
        &["show", "no-such-id", "tests/fixtures/brief"],
        // A wrong path is the only message, before the re-rank notice.
        &["search", "foo", "/no/such/path"],
        &["render", "/no/such/path"],
        &["catalog", "/no/such/path"],
        // Values that cannot give an answer are refused, not run.
        &[
            "brief",
            "tests/fixtures/brief",
            "--query",
            "folder",
            "--top-k",
            "0",
        ],
        &["search", "folder", "tests/fixtures/brief", "--top-k", "0"],
        &[
            "doctree",
            "merge",
            "tests/fixtures/brief",
            "--dry-run",
            "--min-words",
            "500",
            "--max-words",
            "10",
        ],
        &[
            "recipe",
            "save",
            "empty",
            "tests/fixtures/brief",
            "--file",
            "/tmp/never-written.json",
        ],
    ] {
        let out = skillnav(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("skillnav: "), "{err}");
        if args.contains(&"/no/such/path") {
            assert!(
                err.contains("/no/such/path: no such file or directory"),
                "{err}"
            );
        }
        assert!(out.stdout.is_empty());
    }
    assert!(!std::path::Path::new("/tmp/never-written.json").exists());
}

/// `skillnav ARGS` exits 2 with the MCP tools' empty-query message and prints nothing.
fn assert_refused_as_an_empty_query(args: &[&str]) {
    let out = skillnav(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "skillnav: query is empty: pass a few words to search for\n",
        "{args:?}"
    );
    assert!(out.stdout.is_empty(), "{args:?}");
}

#[test]
fn brief_refuses_an_empty_or_blank_query_like_the_mcp_tool() {
    // The MCP `brief` tool refuses it (docs/MCP.md); the CLI used to brief "no query".
    let dir = fixtures().join("brief");
    for q in ["", "   ", "\t"] {
        for extra in [
            &[][..],
            &["--select", "brief/guide.md"],
            &["--format", "json"],
        ] {
            let mut args = vec!["brief", s(&dir), "--query", q];
            args.extend_from_slice(extra);
            assert_refused_as_an_empty_query(&args);
        }
    }
}

#[test]
fn search_refuses_an_empty_or_blank_query_like_the_mcp_tool() {
    // It printed "0 hits" and exited 0; the MCP `search` tool refuses it (docs/MCP.md).
    let dir = fixtures().join("brief");
    for q in ["", "   ", "\t"] {
        for json in [false, true] {
            let mut args = vec!["search", q, s(&dir)];
            if json {
                args.push("--json");
            }
            assert_refused_as_an_empty_query(&args);
        }
    }
}

#[test]
fn fm_set_changes_only_the_edited_line_and_refuses_read_only_files() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let f = t.path().join("SKILL.md");
    let before =
        "---\nname: demo\n# a comment\nversion: 1.10\ndescription: Old text\n---\n\n# Body\n---\n";
    std::fs::write(&f, before).unwrap_or_else(|e| panic!("{e}"));
    let out = skillnav(&["fm", "set", s(&f), "description", "New: text"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = std::fs::read_to_string(&f).unwrap_or_default();
    assert_eq!(
        after,
        before.replace("description: Old text", "description: 'New: text'")
    );
    assert_eq!(
        String::from_utf8_lossy(&skillnav(&["fm", "get", s(&f), "version"]).stdout),
        "1.10\n"
    );
    let mut perm = std::fs::metadata(&f).map_or_else(|e| panic!("{e}"), |m| m.permissions());
    perm.set_readonly(true);
    std::fs::set_permissions(&f, perm).unwrap_or_else(|e| panic!("{e}"));
    let out = skillnav(&["fm", "set", s(&f), "name", "other"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&f).unwrap_or_default(), after);
}

#[test]
fn brief_select_prints_a_markdown_brief_with_provenance() {
    let skill = fixtures().join("formats/skills/brand-guidelines");
    let tree = json_of(&["tree", s(&skill), "--json"]);
    let skill_md = &tree["roots"][0]["children"][0]["children"][0];
    assert_eq!(skill_md["title"], "SKILL.md");
    let section = skill_md["children"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let out = skillnav(&["brief", s(&skill), "--select", &section]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("# Context brief\n\nSources: brand-guidelines · 1 section · "),
        "{text}"
    );
    assert!(
        text.contains(&format!("`{section}` · SKILL.md · lines ")),
        "{text}"
    );
}

#[test]
fn usage_errors_name_what_is_missing_or_mistyped() {
    let out = skillnav(&["search"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "skillnav: the following required arguments were not provided: <QUERY>"
    );
    let out = skillnav(&["serch", "cors"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean the `search` subcommand?"));
}

#[test]
fn a_global_flag_written_before_the_subcommand_is_a_flag_not_a_path() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let skills = fixtures().join("formats/skills");
    let search = |first: &[&str]| {
        let mut args: Vec<&str> = first.to_vec();
        args.extend(["search", "cors", s(&skills), "--json"]);
        let out = crate::support::child::skillnav_command()
            .env("XDG_CACHE_HOME", t.path())
            .args(&args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"));
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
        v["index"]["state"].as_str().unwrap_or_default().to_string()
    };
    // Neither read nor written: the plain search after it builds, the next one reuses.
    assert_eq!(search(&["--no-index-cache"]), "built");
    assert_eq!(search(&[]), "built");
    assert_eq!(search(&["--no-index-cache"]), "built");
    assert_eq!(search(&[]), "reused");
}

#[test]
fn show_of_a_skill_lists_its_children_and_show_of_invalid_utf8_prints_the_real_bytes() {
    let skills = fixtures().join("formats/skills");
    let out = skillnav(&["show", "skills/brand-guidelines", s(&skills)]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("★ brand-guidelines")),
        "{text}"
    );
    assert!(text.contains("  · SKILL.md "), "{text}");

    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let f = t.path().join("inv.md");
    std::fs::write(&f, b"# T\nhello \xff\xfe world\n").unwrap_or_else(|e| panic!("{e}"));
    let out = skillnav(&["show", "T", s(&f)]);
    assert_eq!(out.stdout, b"# T\nhello \xff\xfe world\n");
    let v = json_of(&["show", "T", s(&f), "--json"]);
    assert_eq!(v["text"], "# T\nhello \u{FFFD}\u{FFFD} world\n");
}

#[test]
fn search_filters_adrs_by_status() {
    let notes = fixtures().join("formats2/git-adr");
    let v = json_of(&["search", "status:proposed", s(&notes), "--json"]);
    let hits = v["hits"].as_array().cloned().unwrap_or_default();
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert!(
        hits[0]["id"]
            .as_str()
            .unwrap_or_default()
            .contains("rename-homebrew-tap")
    );
}

/// A skill whose frontmatter name and description hold escape sequences, BEL, VT and the
/// XML specials, with the same in its body.
fn control_skill(root: &Path) -> PathBuf {
    let dir = root.join("ctrl");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: \"ct\\e]0;pwned\\arl\"\ndescription: \"esc \\e[31mred\\e[0m & <b> \\\"q\\\" ]]> \\v.\"\n---\n# T <x> & ]]>\n\nbody \x1b[31mred\x1b[0m \x07\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Whether `bytes` hold a C0 control other than `\n` (ESC, BEL, VT, …) or a C1 control.
fn has_control(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes)
        .chars()
        .any(|c| c.is_control() && c != '\n')
}

#[test]
fn list_never_prints_escape_sequences_from_frontmatter() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    control_skill(t.path());
    let root = s(t.path());
    for args in [
        vec!["list", root],
        vec!["list", root, "--format", "xml"],
        vec!["list", root, "--format", "available-skills"],
        vec!["list", root, "--agent", "claude-code"],
    ] {
        let out = skillnav(&args);
        assert!(out.status.success(), "{args:?}");
        assert!(!has_control(&out.stdout), "{args:?}: {:?}", out.stdout);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("ct"), "{args:?}: {text}");
    }
    let out = skillnav(&["list", root]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "- ct␛]0;pwned␇rl: esc ␛[31mred␛[0m & <b> \"q\" ]]> ␋.\n"
    );
}

#[test]
fn xml_outputs_of_control_characters_are_well_formed_xml() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = control_skill(t.path());
    let root = s(t.path());
    let out = skillnav(&["list", root, "--format", "xml"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("<skill name=\"ct\u{FFFD}]0;pwned\u{FFFD}rl\">"),
        "{text}"
    );
    assert!(
        text.contains("<description>esc \u{FFFD}[31mred\u{FFFD}[0m &amp; &lt;b&gt; &quot;q&quot; ]]&gt; \u{FFFD}.</description>"),
        "{text}"
    );
    let out = skillnav(&["list", root, "--format", "available-skills"]);
    assert!(!has_control(&out.stdout), "{:?}", out.stdout);
    // brief --format xml, piped: the section text keeps its bytes except those XML forbids.
    let tree = json_of(&["tree", s(&dir), "--json"]);
    let section = tree["roots"][0]["children"][0]["children"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let out = skillnav(&["brief", s(&dir), "--select", &section, "--format", "xml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!has_control(&out.stdout), "{text:?}");
    assert!(
        text.contains("body \u{FFFD}[31mred\u{FFFD}[0m \u{FFFD}\n"),
        "{text}"
    );
}

/// `validate` names every skill `skillnav mcp` leaves out of its SEP-2640 listing, for
/// the host's reasons too: a same-named skill shadowed by another, a lone CR before the
/// closing fence, a description only U+FEFF.
#[test]
fn validate_names_the_skills_an_sep_2640_listing_leaves_out() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |rel: &str, bytes: &[u8]| {
        let path = t.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap_or(t.path()))
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(path, bytes).unwrap_or_else(|e| panic!("{e}"));
    };
    write("pdf/SKILL.md", b"---\nname: pdf\ndescription: PDFs.\n---\n");
    write(
        "vendor/pdf/SKILL.md",
        b"---\nname: pdf\ndescription: Also PDFs.\n---\n",
    );
    write(
        "crlf/SKILL.md",
        b"---\r\nname: crlf\r\ndescription: d\r\r\n---\r\n",
    );
    write(
        "feff/SKILL.md",
        "---\nname: feff\ndescription: \"\u{FEFF}\"\n---\n".as_bytes(),
    );
    let out = skillnav(&["validate", s(t.path())]);
    let text = String::from_utf8_lossy(&out.stdout);
    let named: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| l.contains("warning[sep-"))
        .filter_map(|l| {
            let rule = l.split("warning[").nth(1)?.split(']').next()?;
            let skill = l
                .strip_prefix(s(t.path()))?
                .trim_start_matches('/')
                .split('/')
                .next()?;
            Some((skill, rule))
        })
        .collect();
    assert_eq!(
        named,
        [
            ("crlf", "sep-fence"),
            ("feff", "sep-description"),
            ("vendor", "sep-duplicate-name")
        ],
        "{text}"
    );
}

#[test]
fn one_skill_opened_through_two_roots_is_checked_once_and_shadows_nothing() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let dir = t.path().join("skills/s1");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(
        dir.join("SKILL.md"),
        "---\nname: s1\ndescription: Use when x.\n---\n# B\n[bad](nope.md)\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let sub = t.path().join("skills");
    let out = skillnav(&["validate", s(t.path()), s(&sub)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("sep-duplicate-name"), "{text}");
    assert_eq!(text.matches("warning[broken-link]").count(), 1, "{text}");
    assert!(
        text.ends_with("1 skill checked (spec): 0 errors, 1 warning\n"),
        "{text}"
    );
}

#[test]
fn invalid_utf8_skill_lists_replacement_characters_and_validate_warns() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |name: &str, bytes: &[u8]| {
        let dir = t.path().join(name);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join("SKILL.md"), bytes).unwrap_or_else(|e| panic!("{e}"));
        dir
    };
    let fm_bad = write(
        "badutf",
        b"---\nname: badutf\ndescription: bad \xff\xfe utf8 \xc3\n---\n# T\nbody\n",
    );
    let body_bad = write(
        "bodyutf",
        b"---\nname: bodyutf\ndescription: ok\n---\n# T\nbody \xff\xfe\n",
    );
    let out = skillnav(&["list", s(&fm_bad)]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "- badutf: bad \u{FFFD}\u{FFFD} utf8 \u{FFFD}\n"
    );
    let v = json_of(&["tree", s(&fm_bad), "--json"]);
    assert_eq!(
        v["roots"][0]["children"][0]["meta"]["description"], "bad \u{FFFD}\u{FFFD} utf8 \u{FFFD}",
        "{v}"
    );
    // Bytes that are not UTF-8 in the frontmatter also keep the skill out of the MCP
    // server's SEP-2640 listing (no host reads them back), and `validate` says so.
    for (dir, line, warnings) in [(&fm_bad, 3, "2 warnings"), (&body_bad, 6, "1 warning")] {
        let out = skillnav(&["validate", s(dir)]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{text}");
        assert!(
            text.contains(&format!("{line}")) && text.contains("invalid-utf8"),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(": 0 errors, {warnings}\n")),
            "{text}"
        );
        assert_eq!(
            text.contains("warning[sep-yaml]"),
            warnings == "2 warnings",
            "{text}"
        );
        assert!(!text.contains("yaml-strict"), "{text}");
    }
}

#[test]
fn eval_prints_a_positive_zero_mrr_and_refuses_a_blank_query() {
    let skill = fixtures().join("formats/skills/brand-guidelines");
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = t.path().join("q.json");
    let write = |text: &str| std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    // A gold that names no node: MRR@10 is 0, not -0.
    write(r#"{"questions": [{"id": "a", "kind": "verbatim", "query": "colors", "gold": ["x"]}]}"#);
    let out = skillnav(&["eval", s(&file), s(&skill)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("-0.000"), "{text}");
    assert!(
        text.contains("\noverall         1   0.000   0.000   0.000   0.000 "),
        "{text}"
    );
    let v = json_of(&["eval", s(&file), s(&skill), "--json"]);
    assert_eq!(v["overall"]["mrr_at_10"].to_string(), "0.0");
    // A blank query is a usage error naming the question.
    write(r#"{"questions": [{"id": "blank", "kind": "verbatim", "query": " ", "gold": ["x"]}]}"#);
    let out = skillnav(&["eval", s(&file), s(&skill)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("question \"blank\": query is empty: pass a few words to search for"),
        "{err}"
    );
}

#[test]
fn eval_policies_find_each_gold_section_by_search_brief_and_outline_walk() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let docs = t.path().join("docs");
    std::fs::create_dir_all(&docs).unwrap_or_else(|e| panic!("{e}"));
    let put = |name: &str, text: &str| {
        std::fs::write(docs.join(name), text).unwrap_or_else(|e| panic!("{e}"));
    };
    put(
        "a.md",
        "# Alpha\n\nIntro about alpha.\n\n## Cookie setting\n\nTo set a cookie call setCookie with a name and a value.\n\n## Headers\n\nHeaders are read with header().\n",
    );
    put(
        "b.md",
        "# Beta\n\nBeta talks about databases.\n\n## Connection pool\n\nThe pool keeps ten connections open by default.\n",
    );
    let file = t.path().join("q.json");
    std::fs::write(
        &file,
        r#"{"paths": ["docs"], "questions": [
            {"id": "cookie", "kind": "verbatim", "query": "set a cookie",
             "gold": [{"path": "a.md", "heading": "Cookie setting"}]},
            {"id": "pool", "kind": "identifier", "query": "pool connections",
             "gold": [{"path": "b.md", "heading": "Connection pool"}]}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let v = json_of(&["eval", "--policies", s(&file), "--json"]);
    let overall = |policy: &str| -> serde_json::Value {
        v["figures"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["policy"] == policy && f["kind"].is_null())
            .cloned()
            .unwrap_or_default()
    };
    for (policy, calls) in [("search-read", 2.0), ("brief", 1.0), ("outline-walk", 3.0)] {
        let f = overall(policy);
        assert_eq!(
            (
                f["questions"].as_u64(),
                f["found_rate"].as_f64(),
                f["calls"].as_f64()
            ),
            (Some(2), Some(1.0), Some(calls)),
            "{policy}: {f}"
        );
        assert!(
            f["tokens_per_found"].as_u64().is_some_and(|t| t > 20),
            "{f}"
        );
    }
    let walked: Vec<&serde_json::Value> = v["outcomes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|o| o["policy"] == "outline-walk")
        .map(|o| &o["read"][0])
        .collect();
    assert_eq!(
        walked,
        [
            "docs/a.md#alpha/cookie-setting",
            "docs/b.md#beta/connection-pool"
        ]
    );
    let out = skillnav(&["eval", "--policies", s(&file)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("\noutline-walk  overall        2   1.000   3.00 "),
        "{text}"
    );
}

#[test]
fn json_output_to_a_pipe_is_one_line_and_pretty_indents_the_same_document() {
    let dir = fixtures().join("sizes");
    let compact = skillnav(&["tree", "--json", s(&dir)]);
    let pretty = skillnav(&["tree", "--json", "--pretty", s(&dir)]);
    assert!(compact.status.success() && pretty.status.success());
    let (compact, pretty) = (
        String::from_utf8(compact.stdout).unwrap(),
        String::from_utf8(pretty.stdout).unwrap(),
    );
    // Piped: one line and its newline; --pretty: indented, two-space steps.
    assert_eq!(compact.lines().count(), 1, "{compact}");
    assert!(compact.ends_with("}\n"));
    assert!(pretty.lines().count() > 10);
    assert!(pretty.contains("\n  \"roots\": ["), "{pretty}");
    let a: Value = serde_json::from_str(&compact).unwrap();
    let b: Value = serde_json::from_str(&pretty).unwrap();
    assert_eq!(a, b);
    assert!(compact.len() < pretty.len());
}

#[cfg(unix)]
#[test]
fn json_output_to_a_terminal_is_indented() {
    let dir = fixtures().join("sizes");
    let raw = super::unicode::in_pty(&["tree", "--json", s(&dir)], &[]);
    let text = String::from_utf8_lossy(&raw).replace("\r\n", "\n");
    assert!(text.contains("\n  \"roots\": ["), "{text}");
}

#[test]
fn validate_with_no_path_and_no_skill_folder_checks_nothing_not_the_sample() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = t.path().join("home");
    std::fs::create_dir_all(&home).unwrap_or_else(|e| panic!("{e}"));
    let out = crate::support::child::skillnav_command()
        .arg("validate")
        .current_dir(t.path())
        .env("HOME", &home)
        .env("XDG_CACHE_HOME", t.path().join("cache"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "0 skills checked (spec): 0 errors, 0 warnings\n"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no skill folder found from"), "{err}");
}
