//! Search on a progressive-exposure doc tree (docs/FORMATS.md §6, docs/DESIGN.md §3
//! "Doc-tree READMEs"), on the hand-made `formats2/doc-tree/PTX-Mini` and trees written
//! here: a README beside a page is navigation and never a hit; its summary and paragraph
//! find the page they describe; a README that is its folder's only text stays a hit,
//! without its bullets.

use skillnav::index::{Index, SearchOptions};
use skillnav::model::Corpus;

use crate::support::corpus::load;
use crate::support::fs::fixture_path;

fn ptx() -> Corpus {
    load(&fixture_path("formats2/doc-tree/PTX-Mini"))
}

/// The ids of the hits of `q`, best first.
fn hit_ids(c: &Corpus, q: &str) -> Vec<String> {
    Index::build(c, &mut |_, _| {})
        .search(c, q, &SearchOptions::default())
        .hits
        .iter()
        .map(|h| c.id(h.node))
        .collect()
}

#[test]
fn a_leaf_readme_paragraph_finds_its_page_not_the_readme() {
    let c = ptx();
    // "extended rules" is only in 4.9's README paragraph; the page is the hit.
    assert_eq!(
        hit_ids(&c, "extended rules"),
        ["PTX-Mini/4-Syntax/4-9-Identifiers/doc.md#49-identifiers"]
    );
}

#[test]
fn a_parent_readme_bullet_finds_the_child_page() {
    let c = ptx();
    // "predefined names" is only in the bullet of 4-9-Identifiers in 4-Syntax/README.md.
    assert_eq!(
        hit_ids(&c, "predefined names"),
        ["PTX-Mini/4-Syntax/4-9-Identifiers/doc.md#49-identifiers"]
    );
}

#[test]
fn no_readme_beside_a_page_is_a_hit_and_one_without_a_page_is_one_without_its_bullets() {
    let c = ptx();
    let ids = hit_ids(&c, "PTX syntax identifiers comments constants instructions");
    let readmes: Vec<&String> = ids.iter().filter(|i| i.contains("README.md")).collect();
    // 4-Syntax and the root have sub-folders but no doc.md, 4-2-Comments no doc.md at all:
    // their READMEs are their only text. The READMEs of 4-9, 4-1, 4-10 and 1 sit beside a page.
    assert_eq!(
        readmes,
        [
            "PTX-Mini/4-Syntax/README.md#4-syntax",
            "PTX-Mini/4-Syntax/4-2-Comments/README.md#42-comments",
            "PTX-Mini/README.md#ptx-isa-mini"
        ]
    );
    // 4-Syntax's README keeps its title and its own summary ("statements" is only in its
    // bullet in the root README), not its bullets: those find the pages they describe.
    assert_eq!(
        hit_ids(&c, "statements"),
        ["PTX-Mini/4-Syntax/README.md#4-syntax"]
    );
    assert_eq!(
        hit_ids(&c, "Rules for user-defined"),
        ["PTX-Mini/4-Syntax/4-9-Identifiers/doc.md#49-identifiers"]
    );
    // A merged page's summary goes to its first part; a placeholder summary is not searched.
    assert_eq!(
        hit_ids(&c, "predicate"),
        ["PTX-Mini/4-Syntax/4-10-Constants/doc.md#part-1"]
    );
    assert!(hit_ids(&c, "summary goes here").is_empty());
}

/// Assert that no node of `c` carries a load warning.
#[track_caller]
fn assert_no_warnings(c: &Corpus) {
    let warnings: Vec<&str> = c
        .nodes
        .iter()
        .flat_map(|n| n.warnings.iter().map(|w| w.message.as_str()))
        .collect();
    assert!(warnings.is_empty(), "{warnings:?}");
}

/// A doc tree written in a temporary folder: `(path, text)` pairs.
fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, Corpus) {
    let t = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let p = t.path().join("Tree").join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let c = load(&t.path().join("Tree"));
    (t, c)
}

#[test]
fn the_summary_goes_to_the_first_heading_not_to_text_before_it_nor_is_it_folded_away() {
    // Every page starts with the same banner line, and two pages are byte-identical.
    let page = "![banner](img/banner.png)\n\n# Same page\n\nSame words on both pages.\n";
    let (_t, c) = tree(&[
        (
            "README.md",
            "# Book\n\n- **1-A** — about aardvarks\n- **2-B** — about bisons\n",
        ),
        ("1-A/README.md", "# 1. A\n\nAll about the aardvark.\n"),
        ("1-A/doc.md", page),
        ("2-B/README.md", "# 2. B\n\nAll about the bison.\n"),
        ("2-B/doc.md", page),
    ]);
    assert_eq!(hit_ids(&c, "aardvarks"), ["Tree/1-A/doc.md#same-page"]);
    assert_eq!(hit_ids(&c, "bison"), ["Tree/2-B/doc.md#same-page"]);
}

#[test]
fn a_readme_beside_an_empty_or_failed_doc_md_is_the_hit() {
    let (_t, c) = tree(&[
        (
            "README.md",
            "# Book\n\n- **1-Empty** — gazelle notes\n- **2-Err** — ocelot notes\n",
        ),
        (
            "1-Empty/README.md",
            "# 1. Empty\n\nThe gazelle paragraph.\n",
        ),
        ("1-Empty/doc.md", "  \n"),
        ("2-Err/README.md", "# 2. Err\n\nThe ocelot paragraph.\n"),
        (
            "2-Err/doc.md",
            "# Error\n\nFailed to fetch https://example.org/2\n",
        ),
    ]);
    assert_eq!(hit_ids(&c, "gazelle"), ["Tree/1-Empty/README.md#1-empty"]);
    assert_eq!(hit_ids(&c, "ocelot"), ["Tree/2-Err/README.md#2-err"]);
}

#[test]
fn a_page_is_embedded_with_its_folder_summary_as_bm25_indexes_it() {
    let c = ptx();
    let page = c
        .find("PTX-Mini/4-Syntax/4-9-Identifiers/doc.md#49-identifiers")
        .unwrap();
    let mut text = String::new();
    skillnav::index::semantic::embedded_text(&c, page, &mut text);
    assert!(
        text.ends_with(
            "Identifiers start with a letter.\n\n\n\
             Rules for user-defined identifiers and predefined names.\n\
             User-defined identifiers follow extended C rules."
        ),
        "{text:?}"
    );
    // The page's own section carries the folder's paragraph; its sub-section does not.
    let intro = "PTX is a low-level parallel thread execution virtual machine";
    let top = c
        .find("PTX-Mini/1-Introduction/doc.md#1-introduction")
        .unwrap();
    skillnav::index::semantic::embedded_text(&c, top, &mut text);
    assert!(text.contains(intro), "{text:?}");
    let sub = c
        .find("PTX-Mini/1-Introduction/doc.md#1-introduction/12-goals-of-ptx")
        .unwrap();
    skillnav::index::semantic::embedded_text(&c, sub, &mut text);
    assert!(!text.contains(intro), "{text:?}");
}

#[test]
fn a_decomposed_folder_name_keeps_the_summary_of_its_composed_bullet() {
    // macOS writes the folder name decomposed (e + U+0301); the README says é.
    let (_t, c) = tree(&[
        (
            "README.md",
            "# Book\n\n- **1-Caf\u{e9}** — about espresso\n",
        ),
        ("1-Cafe\u{301}/README.md", "# 1. Café\n\nCoffee.\n"),
        ("1-Cafe\u{301}/doc.md", "# Café\n\nBeans and water.\n"),
    ]);
    assert_eq!(hit_ids(&c, "espresso"), ["Tree/1-Cafe\u{301}/doc.md#café"]);
    assert_no_warnings(&c);
}

#[test]
fn a_bullet_retyped_with_other_case_and_punctuation_keeps_its_summary() {
    // The summariser wrote the chapter's title, not the folder's name.
    let (_t, c) = tree(&[
        (
            "README.md",
            "# Book\n\n- **Option & unwrap** — when a value may be absent\n- **2-Result** — errors\n",
        ),
        ("1-Option-unwrap/README.md", "# 1. Option\n\nMaybe.\n"),
        ("1-Option-unwrap/doc.md", "# Option\n\nSome or None.\n"),
        ("2-Result/README.md", "# 2. Result\n\nErrors.\n"),
        ("2-Result/doc.md", "# Result\n\nOk or Err.\n"),
    ]);
    assert_eq!(
        hit_ids(&c, "absent"),
        ["Tree/1-Option-unwrap/doc.md#option"]
    );
    assert_no_warnings(&c);
}

#[test]
fn a_crawler_error_page_is_warned_about_at_its_error_line() {
    let (_t, c) = tree(&[
        ("README.md", "# Book\n\n- **1-Gone** — a page\n"),
        ("1-Gone/README.md", "# 1. Gone\n\nA page.\n"),
        (
            "1-Gone/doc.md",
            "\n\n# Error\n\nFailed to fetch https://example.org\n",
        ),
    ]);
    let lines: Vec<Option<u32>> = c
        .nodes
        .iter()
        .flat_map(|n| n.warnings.iter())
        .filter(|w| w.message.starts_with("crawler error document"))
        .map(|w| w.line)
        .collect();
    assert_eq!(lines, [Some(3)]);
}
