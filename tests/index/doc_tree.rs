//! Search on a progressive-exposure doc tree (docs/FORMATS.md §6, docs/DESIGN.md §3
//! "Doc-tree READMEs"), on the hand-made `formats2/doc-tree/PTX-Mini`: a README beside a
//! `doc.md` or sub-folders is navigation and never a hit; its summary and paragraph find the
//! page they describe; a README that is its folder's only text stays a hit.

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
        .map(|h| c.node(h.node).id.clone())
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
fn no_readme_beside_a_page_or_sub_folders_is_a_hit_but_a_lone_readme_is() {
    let c = ptx();
    let ids = hit_ids(&c, "PTX syntax identifiers comments constants instructions");
    assert!(!ids.is_empty());
    let readmes: Vec<&String> = ids.iter().filter(|i| i.contains("README.md")).collect();
    // 4-2-Comments has no doc.md: its README is its only text.
    assert_eq!(
        readmes,
        ["PTX-Mini/4-Syntax/4-2-Comments/README.md#42-comments"]
    );
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
