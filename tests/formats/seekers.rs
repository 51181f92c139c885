//! `Skill_Seekers` output (docs/FORMATS.md §1): references loader, index catalog, llms variants,
//! the v3 duplicate mirror, and config summaries. Fixtures: `tests/fixtures/formats2/seekers/`.

use std::path::{Path, PathBuf};

use skillnav::formats::seekers::{self, ConfigShape, config_summary, parse_index};
use skillnav::model::{Corpus, Flag, Format, Node, NodeId, NodeKind};

use crate::support::fs::fixture_path;

fn fixture(rel: &str) -> PathBuf {
    fixture_path("formats2/seekers").join(rel)
}

fn load(dir: &str) -> (Corpus, NodeId) {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::Seekers, "t", ""));
    let refs = seekers::load(&mut c, r, &fixture(dir), "").expect("references");
    c.finalize();
    (c, refs)
}

fn titles(c: &Corpus, n: NodeId) -> Vec<String> {
    c.node(n)
        .children
        .iter()
        .map(|k| c.node(*k).title.clone())
        .collect()
}

#[test]
fn detects_both_layouts() {
    assert!(seekers::detect(&fixture("hono-single-mini")));
    assert!(seekers::detect(&fixture("hono-unified-mini")));
    assert!(!seekers::detect(&fixture("configs")));
}

#[test]
fn single_source_layout_order_and_catalog_summaries() {
    let (c, refs) = load("hono-single-mini");
    assert_eq!(
        titles(&c, refs),
        ["index.md", "api.md", "concepts.md", "other.md", "variants"]
    );
    let api = c.find("t/references/api.md").expect("api");
    assert_eq!(c.node(api).summary, "Api — 7 pages");
    assert_eq!(c.node(api).meta["category"], "Api");
    assert_eq!(c.node(api).meta["pages"], 7);
    assert_eq!(
        c.node(c.find("t/references/other.md").expect("other"))
            .summary,
        "Other — 1 page"
    );
    let index = c.find("t/references/index.md").expect("index");
    assert_eq!(c.node(index).summary, "category index: 7 categories");
    let w: Vec<String> = c
        .node(index)
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        w,
        [
            "references/index.md:13: index lists getting-started.md, which is not in this folder",
            "references/index.md:17: index lists guides.md, which is not in this folder",
            "references/index.md:21: index lists helpers.md, which is not in this folder",
            "references/index.md:25: index lists middleware.md, which is not in this folder",
        ]
    );
}

#[test]
fn page_sections_carry_their_url() {
    let (c, _) = load("hono-single-mini");
    let api = c.find("t/references/api.md").expect("api");
    let pages: Vec<(String, String)> = c
        .preorder(api)
        .into_iter()
        .filter(|n| c.node(*n).meta.contains_key("url"))
        .map(|n| {
            (
                c.node(n).title.clone(),
                c.node(n).meta["url"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(pages.len(), 7);
    assert_eq!(
        pages[0],
        (
            "App - Hono".to_string(),
            "http://127.0.0.1:8765/docs/api/hono.md".to_string()
        )
    );
    assert!(
        pages
            .iter()
            .all(|(_, u)| u.starts_with("http://127.0.0.1:8765/docs/api/"))
    );
}

#[test]
fn variants_group_quick_standard_complete_with_bytes() {
    let (c, refs) = load("hono-single-mini");
    let g = c.find("t/references/variants").expect("variants group");
    assert_eq!(c.node(g).parent, Some(refs));
    let v: Vec<(String, String, u64)> = c
        .node(g)
        .children
        .iter()
        .map(|k| {
            let n = c.node(*k);
            (
                n.title.clone(),
                n.meta["variant"].as_str().unwrap_or("").to_string(),
                n.bytes,
            )
        })
        .collect();
    let small = std::fs::metadata(fixture("hono-single-mini/references/llms-small.md"))
        .map_or(0, |m| m.len());
    let full = std::fs::metadata(fixture("hono-single-mini/references/llms-full.md"))
        .map_or(0, |m| m.len());
    assert_eq!(
        v,
        [
            ("llms-small.md".into(), "quick".into(), small),
            ("llms.md".into(), "standard".into(), 5568),
            ("llms-full.md".into(), "complete".into(), full)
        ]
    );
    assert_eq!(c.node(g).bytes, small + 5568 + full);
    // llms.md opens as an llms.txt index; llms-full as H1 parts.
    let links = c
        .preorder(g)
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::Link)
        .count();
    assert_eq!(links, 88);
    let full_node = c.find("t/references/llms-full.md").expect("full");
    let parts: Vec<String> = titles(&c, full_node);
    assert_eq!(
        parts[..3],
        [
            "This is the full developer documentation for Hono.",
            "Start of Hono documentation",
            "Hono"
        ]
    );
}

#[test]
fn unified_documentation_mirror_is_duplicate_and_not_counted() {
    let (c, refs) = load("hono-unified-mini");
    let doc = c.find("t/references/documentation").expect("documentation");
    let sub = c.preorder(doc);
    assert!(sub.len() > 10);
    assert!(sub.iter().all(|n| c.node(*n).flags.has(Flag::Duplicate)));
    let counted: u64 = c
        .node(refs)
        .children
        .iter()
        .filter(|k| !c.node(**k).flags.is_copy())
        .map(|k| c.node(*k).bytes)
        .sum();
    assert_eq!(c.node(refs).bytes, counted);
    let flat = c.find("t/references/api.md").expect("api");
    assert!(!c.node(flat).flags.has(Flag::Duplicate));
    assert_eq!(c.node(flat).summary, "7 pages");
    assert_eq!(
        c.node(doc).warnings[0].message.split(" (").nth(1),
        Some("2 files byte-identical to references/*.md); counted once")
    );
}

#[test]
fn index_list_shape_of_other_generators() {
    let e = parse_index(
        "# Golden_Chat\n\n## Categories\n\n- [#engineering](engineering_s1-s2.md) (2 sections, 5 messages, Sections 1-2)\n- [web](https://x.y/z.md)\n",
    );
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].title, "#engineering");
    assert_eq!(e[0].file, "engineering_s1-s2.md");
    assert_eq!(
        e[0].note.as_deref(),
        Some("2 sections, 5 messages, Sections 1-2")
    );
    assert_eq!(e[0].line, 5);
}

#[test]
fn config_unified_react() {
    let s = config_summary(&std::fs::read_to_string(fixture("configs/react.json")).expect("read"))
        .expect("ok");
    assert_eq!(s.name, "react");
    assert_eq!(s.shape, ConfigShape::Unified);
    assert_eq!(s.version.as_deref(), Some("1.1.0"));
    assert_eq!(
        s.categories,
        ["advanced", "api", "components", "getting_started", "hooks"]
    );
    assert_eq!(s.urls, ["https://react.dev/"]);
    assert_eq!(
        s.one_line(),
        "unified config: 2 sources (documentation https://react.dev/, github facebook/react); 5 categories"
    );
}

#[test]
fn config_legacy_flat_hono() {
    let s = config_summary(
        &std::fs::read_to_string(fixture("configs/hono-legacy-v2.json")).expect("read"),
    )
    .expect("ok");
    assert_eq!(s.shape, ConfigShape::Legacy);
    assert_eq!(s.sources.len(), 1);
    assert_eq!(s.sources[0].kind, "documentation");
    assert_eq!(
        s.sources[0].target.as_deref(),
        Some("https://hono.dev/docs")
    );
    assert_eq!(
        s.sources[0].llms_txt_url.as_deref(),
        Some("https://hono.dev/llms-full.txt")
    );
    assert_eq!(s.sources[0].max_pages, Some(50));
    assert_eq!(
        s.urls,
        ["https://hono.dev/docs", "https://hono.dev/llms-full.txt"]
    );
    assert_eq!(
        s.one_line(),
        "legacy config: 1 source (documentation https://hono.dev/docs); 0 categories"
    );
}

#[test]
fn config_loopback_skips_elision_note_in_start_urls() {
    let s = config_summary(
        &std::fs::read_to_string(fixture("configs/hono-loopback-run.json")).expect("read"),
    )
    .expect("ok");
    assert_eq!(s.urls.len(), 5);
    assert_eq!(s.urls[4], "http://127.0.0.1:8765/llms-full.txt");
}

#[test]
fn config_errors_are_messages() {
    assert_eq!(
        config_summary("[1]"),
        Err("config is not a JSON object".to_string())
    );
    assert_eq!(
        config_summary("{\"x\":1}"),
        Err("config has no string \"name\"".to_string())
    );
    assert_eq!(
        config_summary("{\"name\":\"a\",\"sources\":{}}"),
        Err("\"sources\" is not an array".to_string())
    );
    assert!(
        config_summary("{\n\"name\": }").is_err_and(|e| e.starts_with("invalid JSON at line 2"))
    );
    assert!(seekers::is_config(
        Path::new("a.json"),
        "{\"name\":\"a\",\"sources\":[]}"
    ));
    assert!(!seekers::is_config(Path::new("a.json"), "{\"name\":\"a\"}"));
}

#[test]
fn config_file_node() {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::Seekers, "t", ""));
    let f = seekers::load_config(&mut c, r, &fixture("configs/godot.json"), "godot.json");
    c.finalize();
    assert!(
        c.node(f)
            .summary
            .starts_with("unified config: 2 sources (documentation ")
    );
    assert_eq!(c.node(f).meta["config"]["name"], "godot");
}

#[test]
fn llms_links_resolve_to_page_sections() {
    assert_eq!(
        seekers::url_key("https://hono.dev/docs/api/routing"),
        "/docs/api/routing"
    );
    assert_eq!(
        seekers::url_key("http://127.0.0.1:8765/docs/api/routing.md"),
        "/docs/api/routing"
    );
    assert_eq!(seekers::url_key("https://hono.dev/docs/index"), "/docs");
    let (mut c, refs) = load("hono-single-mini");
    let n = seekers::resolve_links(&mut c, refs);
    let routing = c
        .preorder(refs)
        .into_iter()
        .find(|k| c.node(*k).kind == NodeKind::Link && c.node(*k).title == "Routing")
        .expect("routing link");
    let target = c.node(routing).meta["node"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let page = c.find(&target).expect("page section");
    assert_eq!(
        c.node(page).meta["url"],
        "http://127.0.0.1:8765/docs/api/routing.md"
    );
    assert_eq!(&*c.node(page).path, "references/api.md");
    assert_eq!(n, 14);
}
