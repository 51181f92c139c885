//! llms.txt family (docs/FORMATS.md §7): pure parsers and loaders on real files copied into
//! `tests/fixtures/formats2/llms/` (see SOURCE.md there).

use std::path::{Path, PathBuf};

use skillnav::formats::llms_txt::{
    LlmsKind, add_nodes, add_text_file, decode_entities, detect_file, load_file, parse_link_line,
    parse_llms_ctx, parse_llms_txt, split_full,
};
use skillnav::model::{Corpus, Flag, Format, Node, NodeKind};

use crate::support::fs::{fixture_path, write};

fn fixture(rel: &str) -> PathBuf {
    fixture_path("formats2").join(rel)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(fixture(rel)).expect("fixture")
}

fn root() -> (Corpus, skillnav::model::NodeId) {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "t", ""));
    (c, r)
}

#[test]
fn hono_llms_txt_has_88_links_and_85_optional() {
    let p = parse_llms_txt(&read("llms/hono-llms.md"));
    assert_eq!(p.title.as_deref(), Some("Hono"));
    assert!(
        p.summary
            .as_deref()
            .unwrap_or("")
            .starts_with("Hono - means flame🔥 in Japanese")
    );
    assert_eq!(p.info, "");
    let names: Vec<&str> = p.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Docs", "Examples", "Optional"]);
    assert_eq!(p.links().count(), 88);
    assert_eq!(p.sections[2].links.len(), 85);
    assert!(p.sections[2].optional && !p.sections[0].optional);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn hono_notes_without_colon_are_kept() {
    let p = parse_llms_txt(&read("llms/hono-llms.md"));
    let full = &p.sections[0].links[0];
    assert_eq!(full.title, "Full Docs");
    assert_eq!(full.url, "https://hono.dev/llms-full.txt");
    assert_eq!(
        full.notes.as_deref(),
        Some("Full documentation of Hono. (without examples)")
    );
    assert_eq!(full.line, 7);
    let tiny = &p.sections[0].links[1];
    assert_eq!(
        tiny.notes.as_deref(),
        Some("Tiny documentation of Hono. (includes only description of core)")
    );
    assert_eq!(p.sections[2].links[0].notes, None);
}

#[test]
fn fasthtml_sample_info_and_sections() {
    let p = parse_llms_txt(&read("llms/answerdotai-llms-sample.txt"));
    assert_eq!(p.title.as_deref(), Some("FastHTML"));
    assert!(p.info.starts_with("Remember:\n\n- Use `serve()`"));
    let counts: Vec<(String, usize, bool)> = p
        .sections
        .iter()
        .map(|s| (s.name.clone(), s.links.len(), s.optional))
        .collect();
    assert_eq!(
        counts,
        [
            ("Docs".into(), 3, false),
            ("Examples".into(), 1, false),
            ("Optional".into(), 1, true)
        ]
    );
    assert_eq!(p.sections[0].links[2].title, "Starlette quick guide");
    assert_eq!(p.sections[0].links[2].notes, None);
}

#[test]
fn title_only_file_parses() {
    let p = parse_llms_txt("# Just a title");
    assert_eq!(p.title.as_deref(), Some("Just a title"));
    assert!(p.sections.is_empty() && p.warnings.is_empty());
    assert_eq!(p.header_end, 14);
}

#[test]
fn lenient_shapes_prose_stray_h3_and_text_before_link() {
    let text = "# P\n\n> s1\n> s2\n\n## Intro\n\nJust prose here.\n\n## Links\n\n### stray\n- see [A](a.md)\n- [B](b.md) - note b\nmiddle text\n* [C](c_(1).md): c\n```\n- [Fenced](no.md)\n## not a heading\n```\n";
    let p = parse_llms_txt(text);
    assert_eq!(p.summary.as_deref(), Some("s1 s2"));
    assert_eq!(p.sections.len(), 2);
    assert_eq!(p.sections[0].prose, "Just prose here.");
    assert!(p.sections[0].links.is_empty());
    let l = &p.sections[1].links;
    assert_eq!(l.len(), 3);
    assert_eq!(
        (l[0].title.as_str(), l[0].notes.as_deref()),
        ("A", Some("see"))
    );
    assert_eq!(l[1].notes.as_deref(), Some("note b"));
    assert_eq!(l[2].url, "c_(1).md");
    assert_eq!(l[2].line, 16);
    assert_eq!(
        p.sections[1].prose,
        "### stray\nmiddle text\n```\n- [Fenced](no.md)\n## not a heading\n```"
    );
}

#[test]
fn missing_h1_is_a_warning_not_an_error() {
    let p = parse_llms_txt("Some text\n## Docs\n- [a](b)\n");
    assert_eq!(p.title, None);
    assert_eq!(
        p.warnings,
        [(1, "llms.txt does not start with an H1 title".to_string())]
    );
    assert_eq!(p.links().count(), 1);
}

#[test]
fn link_line_parts() {
    assert_eq!(
        parse_link_line("- [t [x]](u(v)) : n"),
        Some(("", "t [x]", "u(v)".to_string(), " : n"))
    );
    assert_eq!(parse_link_line("-[t](u)"), None);
    assert_eq!(parse_link_line("text [t](u)"), None);
}

#[test]
fn ctx_file_has_three_docs() {
    let text = read("llms/answerdotai-llms-ctx-full.txt");
    let p = parse_llms_ctx(&text);
    assert_eq!(p.title.as_deref(), Some("llms.txt"));
    assert!(p.info.starts_with("> A proposal that those interested"));
    let titles: Vec<&str> = p.docs.iter().map(|d| d.title.as_str()).collect();
    assert_eq!(
        titles,
        ["llms.txt proposal", "Python library docs", "ed demo"]
    );
    assert!(p.docs.iter().all(|d| d.section == "docs"));
    assert_eq!(
        p.docs[1].desc.as_deref(),
        Some("Docs for `llms-txt` python lib")
    );
    assert!(text[p.docs[0].content_start..].starts_with("# The /llms.txt file\n"));
    assert!(text[..p.docs[2].content_end].ends_with("boost provided by their trusty line editor."));
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn ctx_entities_and_optional_section() {
    let text = "<project title=\"A &amp; B\" summary='it&#39;s'>info<docs><doc title=\"d1\">x</doc></docs><optional><doc title=\"d2\" desc=\"q&quot;\">y</doc></optional></project>";
    let p = parse_llms_ctx(text);
    assert_eq!(p.title.as_deref(), Some("A & B"));
    assert_eq!(p.summary.as_deref(), Some("it's"));
    assert_eq!(p.info, "info");
    assert_eq!(p.docs[1].section, "optional");
    assert_eq!(p.docs[1].desc.as_deref(), Some("q\""));
    assert_eq!(decode_entities("&lt;a&gt; &#x41; &bogus;"), "<a> A &bogus;");
}

#[test]
fn detect_by_name_and_content() {
    assert_eq!(
        detect_file(Path::new("llms.txt"), "# X"),
        Some(LlmsKind::Index)
    );
    assert_eq!(
        detect_file(Path::new("llms.md"), "# X"),
        Some(LlmsKind::Index)
    );
    assert_eq!(
        detect_file(Path::new("llms-full.md"), "<SYSTEM>x</SYSTEM>"),
        Some(LlmsKind::Full)
    );
    assert_eq!(
        detect_file(Path::new("llms-small.txt"), "# X"),
        Some(LlmsKind::Full)
    );
    assert_eq!(
        detect_file(Path::new("llms-ctx.txt"), "<project title=\"x\">"),
        Some(LlmsKind::Ctx)
    );
    assert_eq!(detect_file(Path::new("README.md"), "# X"), None);
    assert_eq!(
        detect_file(Path::new("answerdotai-llms.txt"), "# X"),
        Some(LlmsKind::Index)
    );
    assert_eq!(detect_file(Path::new("my-llms-notes.md"), "# X"), None);
}

#[test]
fn loader_builds_groups_and_links_for_hono() {
    let (mut c, r) = root();
    let f = load_file(
        &mut c,
        r,
        &fixture("llms/hono-llms.md"),
        "references/llms.md",
    );
    c.finalize();
    let file = c.node(f);
    assert_eq!(file.bytes, 5568);
    assert!(file.summary.starts_with("Hono - means flame"));
    let kids: Vec<(NodeKind, &str)> = file
        .children
        .iter()
        .map(|k| (c.node(*k).kind, c.node(*k).title.as_str()))
        .collect();
    assert_eq!(
        kids,
        [
            (NodeKind::Section, "Hono"),
            (NodeKind::Group, "Docs"),
            (NodeKind::Group, "Examples"),
            (NodeKind::Group, "Optional")
        ]
    );
    let opt = c.node(file.children[3]);
    assert!(opt.flags.has(Flag::Optional));
    assert_eq!(opt.children.len(), 85);
    assert_eq!(opt.summary, "85 links");
    let first = c.find("t/references/llms.md#docs/link-1").expect("link id");
    assert_eq!(c.node(first).meta["url"], "https://hono.dev/llms-full.txt");
    assert_eq!(
        c.text(first),
        "- [Full Docs](https://hono.dev/llms-full.txt) Full documentation of Hono. (without examples)\n"
    );
    let last = c
        .find("t/references/llms.md#optional/link-88")
        .expect("last link");
    assert!(c.node(last).flags.has(Flag::Optional));
    assert_eq!(c.node(last).line_start, Some(100));
    assert_eq!(c.own_text(f), "");
}

#[test]
fn loader_ctx_parts() {
    let (mut c, r) = root();
    let f = load_file(
        &mut c,
        r,
        &fixture("llms/answerdotai-llms-ctx-full.txt"),
        "ctx.txt",
    );
    c.finalize();
    let g = c.find("t/ctx.txt#docs").expect("group");
    assert_eq!(c.node(g).children.len(), 3);
    let p = c.find("t/ctx.txt#docs/part-3").expect("part");
    assert_eq!(c.node(p).kind, NodeKind::Part);
    assert_eq!(c.node(p).title, "ed demo");
    assert_eq!(c.node(p).line_start, Some(365));
    assert_eq!(c.node(c.node(f).children[0]).title, "llms.txt");
}

#[test]
fn ctx_doc_headings_are_sections_of_their_part() {
    let (mut c, r) = root();
    load_file(
        &mut c,
        r,
        &fixture("llms/answerdotai-llms-ctx-full.txt"),
        "ctx.txt",
    );
    c.finalize();
    let titles = |id: &str| -> Vec<String> {
        let n = c.find(id).expect(id);
        c.node(n)
            .children
            .iter()
            .map(|k| c.node(*k).title.clone())
            .collect()
    };
    // The lone `# Python module & CLI` opening the doc stays the part's own text.
    assert_eq!(titles("t/ctx.txt#docs/part-2"), ["Install", "How to use"]);
    assert_eq!(
        titles("t/ctx.txt#docs/part-2/how-to-use"),
        ["CLI", "Python module", "Implementation and tests"]
    );
    assert_eq!(titles("t/ctx.txt#docs/part-1").len(), 7);
    assert!(titles("t/ctx.txt#docs/part-3").is_empty());
    let part = c.find("t/ctx.txt#docs/part-2").expect("part");
    assert!(c.own_text(part).starts_with("# Python module & CLI"));
    let install = c.find("t/ctx.txt#docs/part-2/install").expect("install");
    assert!(c.text(install).starts_with("## Install\n"));
}

#[test]
fn full_split_is_fence_aware() {
    let text = "<SYSTEM>sys</SYSTEM>\n\n# A\nx\n```sh\n# not a heading\n```\n## A2\n# B\ny\n";
    let s = split_full(text);
    assert_eq!(s.preamble, Some((0, 22)));
    let titles: Vec<&str> = s.parts.iter().map(|(h, _)| h.title.as_str()).collect();
    assert_eq!(titles, ["A", "B"]);
    assert_eq!(s.parts[0].1, text.find("# B").unwrap_or(0));
}

#[test]
fn loader_full_parts_for_hono_llms_small_excerpt() {
    let (mut c, r) = root();
    let path = fixture("seekers/hono-single-mini/references/llms-small.md");
    let (f, src) = add_text_file(&mut c, r, &path, "llms-small.md", Format::LlmsTxt);
    add_nodes(&mut c, f, src.expect("read"), LlmsKind::Full);
    c.finalize();
    let titles: Vec<&str> = c
        .node(f)
        .children
        .iter()
        .map(|k| c.node(*k).title.as_str())
        .collect();
    assert_eq!(
        titles,
        [
            "This is the tiny developer documentation for Hono.",
            "Start of Hono documentation",
            "Hono",
            "Best Practices",
            "Create-hono",
            "Examples"
        ]
    );
    let create = c.find("t/llms-small.md#part-5").expect("create-hono");
    assert_eq!(c.node(create).line_start, Some(438));
    assert!(
        c.node(create)
            .children
            .iter()
            .all(|k| c.node(*k).level >= 2)
    );
}

/// Every node below the root of `path` opened as a root labelled `r`:
/// `<id> <kind> <format> [flags]`.
fn root_dump(path: &Path) -> Vec<String> {
    use skillnav::formats::{LoadOptions, RootSpec, load_root};
    let spec = RootSpec {
        path: path.to_path_buf(),
        label: "r".into(),
    };
    let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
    c.preorder(c.roots[0])
        .into_iter()
        .skip(1)
        .map(|id| {
            let n = c.node(id);
            let flags: Vec<&str> = n.flags.iter().map(skillnav::model::Flag::as_str).collect();
            format!(
                "{} {} {} {}",
                c.id(id),
                n.kind.as_str(),
                n.format.as_str(),
                flags.join(",")
            )
            .trim()
            .to_string()
        })
        .collect()
}

/// Regression: `skillnav tree llms.txt` (one llms file given as PATH) showed only the file
/// node, while opening its folder showed the sections and links.
#[test]
fn single_llms_file_as_root_keeps_its_structure() {
    let file = fixture("llms/answerdotai-llms.txt");
    let alone = root_dump(&file);
    assert_eq!(
        alone,
        [
            "r/answerdotai-llms.txt file llms_txt",
            "r/answerdotai-llms.txt#llmstxt section llms_txt",
            "r/answerdotai-llms.txt#docs group llms_txt",
            "r/answerdotai-llms.txt#docs/link-1 link llms_txt",
            "r/answerdotai-llms.txt#docs/link-2 link llms_txt",
            "r/answerdotai-llms.txt#docs/link-3 link llms_txt",
        ]
    );
    let t = tempfile::tempdir().expect("tempdir");
    std::fs::copy(&file, t.path().join("answerdotai-llms.txt")).expect("copy");
    assert_eq!(
        alone,
        root_dump(t.path()),
        "a file alone and in its folder load the same"
    );
}

/// Regression: the same for an `llms-ctx-full.txt` given as PATH (one part per `<doc>`).
#[test]
fn single_llms_ctx_file_as_root_keeps_its_structure() {
    let name = "answerdotai-llms-ctx-full.txt";
    let file = fixture(&format!("llms/{name}"));
    let alone = root_dump(&file);
    let parts: Vec<&String> = alone.iter().filter(|l| l.contains(" part ")).collect();
    assert_eq!(parts.len(), 3, "{alone:?}");
    assert_eq!(alone[0], format!("r/{name} file llms_txt"));
    let t = tempfile::tempdir().expect("tempdir");
    std::fs::copy(&file, t.path().join(name)).expect("copy");
    assert_eq!(alone, root_dump(t.path()));
}

#[test]
fn nested_local_llms_txt_files_open_as_one_tree() {
    use skillnav::formats::llms_txt::local_llms_link;
    assert_eq!(local_llms_link("api/llms.txt#x"), Some("api/llms.txt"));
    assert_eq!(local_llms_link("https://example.com/llms.txt"), None);
    assert_eq!(local_llms_link("about.md"), None);
    let (mut c, r) = root();
    let f = load_file(&mut c, r, &fixture_path("llms-nested/llms.txt"), "llms.txt");
    c.finalize();
    let files: Vec<(String, String)> = c
        .preorder(f)
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::File)
        .map(|n| {
            (
                c.id(n),
                c.node(c.node(n).parent.expect("parent")).title.clone(),
            )
        })
        .collect();
    // Each local index hangs below its link; the remote one and the cycle back are not read.
    assert_eq!(
        files,
        [
            ("t/llms.txt".to_string(), "t".to_string()),
            ("t/api/llms.txt".to_string(), "API".to_string()),
            ("t/guide/llms.txt".to_string(), "Guide".to_string()),
        ]
    );
    let users = c
        .find("t/api/llms.txt#endpoints/link-1")
        .expect("nested link");
    assert_eq!(c.node(users).meta["url"], "users.md");
    let back = c.find("t/guide/llms.txt#docs/link-2").expect("cycle link");
    assert!(c.node(back).children.is_empty());
    // Each file keeps its own size.
    for p in ["llms.txt", "api/llms.txt", "guide/llms.txt"] {
        let size = std::fs::metadata(fixture_path("llms-nested").join(p)).map_or(0, |m| m.len());
        let n = c.find(&format!("t/{p}")).expect("file");
        assert_eq!(c.node(n).bytes, size, "{p}");
    }
}

/// An llms-full heading's `{#id}` attribute gives its section id, as in a markdown file:
/// `## Path Parameter {#path-param}` was `#part-2/path-parameter` (the attribute stripped
/// from the title, but its id ignored).
#[test]
fn an_llms_full_heading_id_attribute_gives_the_section_id() {
    let t = tempfile::tempdir().expect("tmp");
    let f = t.path().join("llms-full.txt");
    std::fs::write(
        &f,
        "# Hono\n\n> Web framework.\n\n# Routing\n\nRoutes.\n\n## Basic Usage\n\nOne.\n\n\
         ## Path Parameter {#path-param}\n\nTwo.\n",
    )
    .expect("write");
    let (mut c, r) = root();
    load_file(&mut c, r, &f, "llms-full.txt");
    c.finalize();
    let ids: Vec<(String, String)> = c
        .all_preorder()
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::Section)
        .map(|n| (c.id(n), c.node(n).title.clone()))
        .collect();
    assert_eq!(
        ids,
        [
            ("t/llms-full.txt#part-2/basic-usage", "Basic Usage"),
            ("t/llms-full.txt#part-2/path-param", "Path Parameter"),
        ]
        .map(|(i, t)| (i.to_string(), t.to_string()))
    );
}

/// The list of an llms.txt whose links carry `CommonMark` link titles, escapes and `<…>`
/// destinations.
const TITLED_LINKS: &str = "# Demo\n\n> Summary.\n\n## Docs\n\n\
- [Guide](https://x.dev/guide.md \"The guide\"): How to start\n\
- [Paren](https://x.dev/a_\\(b\\).md): Escaped parens\n\
- [Angle](<https://x.dev/with space.md>): Angle brackets\n\
- [Single](https://x.dev/s.md 't')\n\
- [Par](https://x.dev/p.md (t)): paren title\n\
- [Loose](a b): not CommonMark, kept as written\n";

#[test]
fn link_titles_escapes_and_angle_brackets_are_read_as_commonmark() {
    let p = parse_llms_txt(TITLED_LINKS);
    let got: Vec<(&str, &str, Option<&str>)> = p
        .links()
        .map(|l| (l.title.as_str(), l.url.as_str(), l.notes.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("Guide", "https://x.dev/guide.md", Some("How to start")),
            ("Paren", "https://x.dev/a_(b).md", Some("Escaped parens")),
            (
                "Angle",
                "https://x.dev/with space.md",
                Some("Angle brackets")
            ),
            ("Single", "https://x.dev/s.md", None),
            ("Par", "https://x.dev/p.md", Some("paren title")),
            ("Loose", "a b", Some("not CommonMark, kept as written")),
        ]
    );
    // The CLI shows the same urls.
    let tmp = tempfile::tempdir().expect("tmp");
    let file = write(tmp.path(), "llms.txt", TITLED_LINKS.as_bytes());
    let out = crate::support::child::skillnav_command()
        .args(["tree", "--json", "--pretty"])
        .arg(&file)
        .env("HOME", tmp.path())
        .output()
        .expect("run skillnav");
    assert!(out.status.success());
    let urls: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.trim().strip_prefix("\"url\": "))
        .map(|u| u.trim_end_matches(',').to_string())
        .collect();
    assert_eq!(
        urls,
        [
            "\"https://x.dev/guide.md\"",
            "\"https://x.dev/a_(b).md\"",
            "\"https://x.dev/with space.md\"",
            "\"https://x.dev/s.md\"",
            "\"https://x.dev/p.md\"",
            "\"a b\"",
        ]
    );
}
