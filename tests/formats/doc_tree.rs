//! Progressive-exposure doc trees (docs/FORMATS.md §6) on the hand-made `doc-tree/PTX-Mini`
//! fixture.

use std::path::PathBuf;

use skillnav::formats::doc_tree::{self, cmp_names, merged_parts, parse_readme};
use skillnav::model::{Corpus, Flag, Format, Node, NodeId, NodeKind};

use crate::support::fs::fixture_path;

fn dir() -> PathBuf {
    fixture_path("formats2/doc-tree/PTX-Mini")
}

fn load() -> (Corpus, NodeId) {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::DocTree, "ptx", ""));
    let t = doc_tree::load(&mut c, r, &dir(), "");
    c.finalize();
    (c, t)
}

fn kids(c: &Corpus, n: NodeId) -> Vec<String> {
    c.node(n)
        .children
        .iter()
        .map(|k| c.node(*k).title.clone())
        .collect()
}

fn warnings(c: &Corpus, n: NodeId) -> Vec<String> {
    c.node(n).warnings.iter().map(ToString::to_string).collect()
}

#[test]
fn detects_tree_but_not_plain_folders() {
    assert!(doc_tree::detect(&dir()));
    assert!(!doc_tree::detect(&dir().join("4-Syntax/4-2-Comments")));
}

#[test]
fn numeric_prefix_order() {
    let mut v = vec![
        "4-10-Constants",
        "Key-Concepts",
        "4-9-Identifiers",
        "4-1-Source-Format",
        "11-1-1-X",
        "4-2-Comments",
    ];
    v.sort_by(|a, b| cmp_names(a, b));
    assert_eq!(
        v,
        [
            "4-1-Source-Format",
            "4-2-Comments",
            "4-9-Identifiers",
            "4-10-Constants",
            "11-1-1-X",
            "Key-Concepts"
        ]
    );
}

#[test]
fn tree_shape_titles_and_summaries() {
    let (c, t) = load();
    assert_eq!(
        kids(&c, t),
        [
            "README.md",
            "1. Introduction",
            "4. Syntax",
            "9. Instructions"
        ]
    );
    let syntax = c.node(t).children[2];
    assert_eq!(
        kids(&c, syntax),
        [
            "README.md",
            "4.1. Source Format",
            "4.2. Comments",
            "4.9. Identifiers",
            "Constants"
        ]
    );
    assert_eq!(
        c.node(syntax).summary,
        "Source format, comments, statements, identifiers and constants of PTX programs."
    );
    let intro = c.node(t).children[1];
    assert_eq!(
        c.node(intro).detail.as_deref(),
        Some(
            "PTX is a low-level parallel thread execution virtual machine and instruction set. This chapter states its goals and how the manual is organised."
        )
    );
    assert_eq!(kids(&c, intro), ["README.md", "doc.md"]);
    assert_eq!(c.node(intro).meta["folder"], "1-Introduction");
}

#[test]
fn warnings_for_placeholder_missing_folder_and_leaf_without_doc() {
    let (c, t) = load();
    let readme = c.node(t).children[0];
    assert_eq!(
        warnings(&c, readme),
        ["README.md:6: README lists 12-Missing, which is not a folder here"]
    );
    let instr = c.find("ptx/9-Instructions").expect("9");
    assert!(c.node(instr).flags.has(Flag::Placeholder));
    assert_eq!(
        warnings(&c, instr),
        ["README.md:5: placeholder summary for 9-Instructions in the parent README"]
    );
    let comments = c.find("ptx/4-Syntax/4-2-Comments").expect("4-2");
    assert_eq!(
        warnings(&c, comments),
        ["4-Syntax/4-2-Comments: leaf folder without doc.md"]
    );
    let ident = c
        .find("ptx/4-Syntax/4-9-Identifiers/img/ident.png")
        .expect("img");
    assert!(c.node(ident).flags.has(Flag::Asset));
    assert_eq!(c.node(ident).bytes, 10);
}

#[test]
fn merged_doc_shows_parts() {
    let (c, _) = load();
    let doc = c.find("ptx/4-Syntax/4-10-Constants/doc.md").expect("doc");
    let parts: Vec<(NodeKind, String)> = c
        .node(doc)
        .children
        .iter()
        .map(|k| (c.node(*k).kind, c.node(*k).title.clone()))
        .collect();
    assert_eq!(
        parts,
        [
            (NodeKind::Part, "4.10.1. Integer Constants".into()),
            (NodeKind::Part, "4.10.2. Floating-Point Constants".into())
        ]
    );
    let p2 = c
        .find("ptx/4-Syntax/4-10-Constants/doc.md#part-2")
        .expect("part-2");
    assert_eq!(
        c.text(p2),
        "# 4.10.2. Floating-Point Constants\n\n## Hex form\n\n0f3f800000\n"
    );
    assert_eq!(c.node(p2).line_start, Some(7));
    let merged = c.find("ptx/4-Syntax/4-10-Constants").expect("folder");
    assert_eq!(
        c.node(merged).meta["merged_from"],
        "4-10-1-Integer-Constants to 4-10-2-Floating-Point-Constants"
    );
    // Without "Merged from:" a `---` line is a thematic break: no parts.
    let plain = c.find("ptx/9-Instructions/doc.md").expect("plain doc");
    assert!(
        c.node(plain)
            .children
            .iter()
            .all(|k| c.node(*k).kind == NodeKind::Section)
    );
}

#[test]
fn fenced_hash_is_not_a_section_in_leaf_doc() {
    let (c, _) = load();
    let doc = c
        .find("ptx/4-Syntax/4-1-Source-Format/doc.md")
        .expect("doc");
    let titles: Vec<String> = c
        .preorder(doc)
        .into_iter()
        .skip(1)
        .map(|n| c.node(n).title.clone())
        .collect();
    assert_eq!(titles, ["4.1. Source Format"]);
}

#[test]
fn readme_and_parts_parsers() {
    let r = parse_readme("# T\n\n- **a-b** – en dash\n* **c**: colon\n- plain bullet\nPara one.\n");
    assert_eq!(r.title.as_deref(), Some("T"));
    let b: Vec<(&str, &str, u32)> = r
        .bullets
        .iter()
        .map(|b| (b.name.as_str(), b.summary.as_str(), b.line))
        .collect();
    assert_eq!(b, [("a-b", "en dash", 3), ("c", "colon", 4)]);
    assert_eq!(r.paragraph, "- plain bullet Para one.");
    assert_eq!(
        merged_parts("a\n\n---\n```\n---\n```\n---  \n\n"),
        [(0, 3), (7, 19)]
    );
    // `---` under a line of text underlines a setext heading: the page's, no separator.
    assert_eq!(
        merged_parts("# A\n\nSetext\n---\n\ntext\n\n---\n\n# B\n"),
        [(0, 23), (27, 32)]
    );
}

#[test]
fn load_into_root_keeps_root_title() {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::DocTree, "ptx", ""));
    doc_tree::load_into(&mut c, r, &dir(), "");
    c.finalize();
    assert_eq!(c.node(r).title, "ptx");
    assert_eq!(
        kids(&c, r),
        [
            "README.md",
            "1. Introduction",
            "4. Syntax",
            "9. Instructions"
        ]
    );
    assert!(
        c.find("ptx/4-Syntax/4-10-Constants/doc.md#part-1")
            .is_some()
    );
}
