//! catalog.json (docs/FORMATS.md §1.6): reading the design-only sample, fence-aware generation,
//! topics by complexity, and `show --variant` resolution.

use std::path::{Path, PathBuf};

use serde_json::json;
use skillnav::formats::catalog::{
    self, Variant, generate_catalog_at, iso8601, parse_catalog, section_id, show_section, topics,
};
use skillnav::formats::seekers;
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind};

use crate::support::fs::fixture_path;

fn fixture(rel: &str) -> PathBuf {
    fixture_path("formats2").join(rel)
}

fn write(dir: &Path, rel: &str, text: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, text).expect("write");
}

#[test]
fn design_only_catalog_parses() {
    let c = parse_catalog(&std::fs::read_to_string(fixture("catalog/catalog.json")).expect("read"))
        .expect("ok");
    assert_eq!(c.framework.as_deref(), Some("hono"));
    assert_eq!(c.sections.len(), 46);
    assert_eq!(c.total_sections, Some(46));
    assert_eq!(c.search_index.len(), 224);
    assert_eq!(
        c.variants,
        [
            ("complete".to_string(), "llms-full.md".to_string()),
            ("quick".to_string(), "llms-small.md".to_string()),
            ("standard".to_string(), "llms.md".to_string())
        ]
    );
    assert_eq!(c.sections[1].id, "hono");
    assert_eq!(c.sections[1].size_bytes, 8272);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let t = topics(&c);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].complexity, "general");
    assert_eq!(t[0].size_bytes, 195_763);
}

#[test]
fn topics_order_by_complexity() {
    let c = parse_catalog(
        r#"{"metadata":{"total_sections":4},"sections":[
            {"title":"A","complexity":"advanced","size_bytes":5},
            {"title":"B"},
            {"title":"C","complexity":"beginner","size_bytes":2},
            {"title":"D","complexity":"beginner","size_bytes":3},
            {"id":"x"}],
          "search_index":{"a":["a","zz"]}}"#,
    )
    .expect("ok");
    let t = topics(&c);
    let shape: Vec<(&str, usize, u64)> = t
        .iter()
        .map(|g| (g.complexity.as_str(), g.sections.len(), g.size_bytes))
        .collect();
    assert_eq!(
        shape,
        [("beginner", 2, 5), ("advanced", 1, 5), ("general", 1, 0)]
    );
    assert_eq!(
        c.warnings,
        [
            "sections[4] has no string title; skipped",
            "search_index names unknown section ids: zz"
        ]
    );
}

#[test]
fn generated_catalog_ignores_hash_comments_in_fences() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    write(
        d,
        "SKILL.md",
        "---\nname: demo\nversion: 2.0\ndescription: d\n---\nbody\n",
    );
    write(
        d,
        "references/llms-small.md",
        "<SYSTEM>tiny</SYSTEM>\n\n# Setup\n\n## Install\n\n```sh\n# install deps\nnpm i\n```\n\n# Routing\n\n## Params\ntext\n",
    );
    write(d, "references/llms-full.md", "# Routing\n\nfull text\n");
    let v = generate_catalog_at(d, "2026-11-29T12:00:00Z").expect("catalog");
    assert_eq!(
        v,
        json!({
            "metadata": {
                "framework": "demo", "version": "2.0", "generated": "2026-11-29T12:00:00Z",
                "total_sections": 2,
                "variants": {"quick": "llms-small.md", "complete": "llms-full.md"}
            },
            "sections": [
                {"id": "setup", "title": "Setup", "h1_marker": "# Setup", "topics": ["install", "setup"],
                 "size_bytes": 53, "variants": ["quick"]},
                {"id": "routing", "title": "Routing", "h1_marker": "# Routing", "topics": ["params", "routing"],
                 "size_bytes": 26, "variants": ["quick", "complete"]}
            ],
            "search_index": {"install": ["setup"], "params": ["routing"], "routing": ["routing"], "setup": ["setup"]}
        })
    );
}

#[test]
fn generated_catalog_on_hono_excerpt_has_no_bogus_sections() {
    let v = generate_catalog_at(&fixture("seekers/hono-single-mini"), "t").expect("catalog");
    let ids: Vec<&str> = v["sections"]
        .as_array()
        .expect("arr")
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    // The design's `\n# ` split makes 10 sections here (5 from `# …` shell comments).
    assert_eq!(
        ids,
        [
            "start-of-hono-documentation",
            "hono",
            "best-practices",
            "create-hono",
            "examples"
        ]
    );
    assert_eq!(v["metadata"]["framework"], "hono");
    assert_eq!(v["sections"][1]["variants"], json!(["quick", "complete"]));
    assert_eq!(v["sections"][3]["variants"], json!(["quick"]));
    let text =
        std::fs::read_to_string(fixture("seekers/hono-single-mini/references/llms-small.md"))
            .expect("r");
    let start = text
        .find("\n# Examples\n")
        .map(|i| i + 1)
        .expect("examples");
    assert_eq!(v["sections"][4]["size_bytes"], (text.len() - start) as u64);
}

#[test]
fn generate_without_llms_files_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("tmp");
    let e = generate_catalog_at(dir.path(), "t").expect_err("no llms");
    assert!(e.to_string().ends_with(
        "no references/llms-small.md or references/llms-full.md to build a catalog from"
    ));
}

fn hono_corpus() -> (Corpus, NodeId) {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::Seekers, "t", ""));
    let refs = seekers::load(&mut c, r, &fixture("seekers/hono-single-mini"), "").expect("refs");
    c.finalize();
    (c, refs)
}

#[test]
fn show_section_by_title_and_id_in_each_variant() {
    let (c, refs) = hono_corpus();
    let full = show_section(&c, refs, "Hono", Variant::Complete).expect("complete");
    assert_eq!(full.variant, Variant::Complete);
    assert_eq!(c.node(full.file).title, "llms-full.md");
    assert_eq!(c.node(full.nodes[0]).title, "Hono");
    assert!(
        c.text(full.nodes[0])
            .starts_with("# Hono\n\nHono - _**means flame🔥")
    );
    let quick = show_section(&c, refs, "best-practices", Variant::Quick).expect("quick by id");
    assert_eq!(c.node(quick.nodes[0]).title, "Best Practices");
    let std = show_section(&c, refs, "Routing", Variant::Standard).expect("standard");
    assert_eq!(std.nodes.len(), 1);
    assert_eq!(c.node(std.nodes[0]).kind, NodeKind::Link);
    assert_eq!(
        c.node(std.nodes[0]).meta["url"],
        "https://hono.dev/docs/api/routing"
    );
    let auto = show_section(&c, refs, "Hono", Variant::Auto).expect("auto");
    assert_eq!((auto.variant, auto.bytes), (Variant::Complete, full.bytes));
    // Only in the quick excerpt: auto falls back to quick.
    let auto2 = show_section(&c, refs, "Examples", Variant::Auto).expect("auto quick");
    assert_eq!(auto2.variant, Variant::Quick);
    let err = show_section(&c, refs, "Nope", Variant::Complete).expect_err("missing");
    assert_eq!(err.to_string(), "section 'Nope' not found in llms-full.md");
}

/// A node id copied from `search` (here the standard variant's `Routing` link) names the
/// section as its title does: it gave "section '…' not found in llms-full.md".
#[test]
fn show_section_takes_a_node_id_from_search() {
    let (c, refs) = hono_corpus();
    let by_title = show_section(&c, refs, "Routing", Variant::Standard).expect("by title");
    let id = c.id(by_title.nodes[0]);
    let by_id = show_section(&c, refs, &id, Variant::Standard).expect("by id");
    assert_eq!(by_id.nodes, by_title.nodes);
    let hono = c
        .all_preorder()
        .into_iter()
        .find(|n| c.node(*n).title == "Hono" && c.node(*n).kind == NodeKind::Part)
        .expect("a Hono part");
    let full = show_section(&c, refs, &c.id(hono), Variant::Complete).expect("complete");
    assert_eq!(c.node(full.nodes[0]).title, "Hono");
}

#[test]
fn auto_picks_quick_above_50_kb() {
    let dir = tempfile::tempdir().expect("tmp");
    let d = dir.path();
    write(d, "SKILL.md", "---\nname: big\ndescription: d\n---\n");
    write(d, "references/index.md", "# Index\n");
    write(d, "references/llms-small.md", "# Big\nshort\n");
    write(
        d,
        "references/llms-full.md",
        &format!("# Big\n{}\n", "x".repeat(50_001)),
    );
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::Seekers, "t", ""));
    seekers::load(&mut c, r, d, "").expect("refs");
    c.finalize();
    let s = show_section(&c, r, "Big", Variant::Auto).expect("auto");
    assert_eq!((s.variant, s.bytes), (Variant::Quick, 12));
}

#[test]
fn catalog_loader_nodes() {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::Catalog, "t", ""));
    let f = catalog::load(
        &mut c,
        r,
        &fixture("catalog/catalog.json"),
        "assets/catalog.json",
    );
    c.finalize();
    assert_eq!(c.node(f).summary, "catalog: 46 sections, 224 topics");
    assert_eq!(c.node(f).children.len(), 46);
    let g = c
        .find("t/assets/catalog.json#best-practices")
        .expect("group");
    assert_eq!(c.node(g).meta["size_bytes"], 6114);
    assert_eq!(c.node(g).line_start, Some(52));
}

#[test]
fn ids_and_dates() {
    assert_eq!(section_id("App - Hono"), "app---hono");
    assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
    assert_eq!(iso8601(1_795_953_600), "2026-11-29T12:00:00Z");
    assert_eq!(Variant::parse("auto"), Some(Variant::Auto));
    assert_eq!(Variant::parse("full"), None);
}

/// Regression: a `catalog.json` given alone as PATH was read as plain text; it now loads
/// with the same structure as when its folder is opened.
#[test]
fn single_catalog_file_as_root_matches_its_folder() {
    use skillnav::formats::{LoadOptions, RootSpec, load_root};
    let dump = |path: &Path| -> Vec<String> {
        let spec = RootSpec {
            path: path.to_path_buf(),
            label: "r".into(),
        };
        let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
        c.preorder(c.roots[0])
            .into_iter()
            .skip(1)
            .map(|n| {
                format!(
                    "{} {} {}",
                    c.id(n),
                    c.node(n).kind.as_str(),
                    c.node(n).format.as_str()
                )
            })
            .collect()
    };
    let file = fixture("catalog/catalog.json");
    let alone = dump(&file);
    assert_eq!(alone[0], "r/catalog.json file catalog");
    assert!(alone.len() > 1, "{alone:?}");
    let t = tempfile::tempdir().expect("tempdir");
    std::fs::copy(&file, t.path().join("catalog.json")).expect("copy");
    assert_eq!(alone, dump(t.path()));
}
