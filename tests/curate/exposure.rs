//! Exposure levels (src/exposure.rs): names, inheritance, admission rules, always units.

use skillnav::curate::exposure::{Exposure, ExposureMap};
use skillnav::formats::{LoadOptions, RootSpec, load_root};

use crate::support::fs::fixture_path;

#[test]
fn names_parse_and_cycle() {
    for e in Exposure::ALL {
        assert_eq!(Exposure::parse(e.as_str()), Some(e));
    }
    assert_eq!(Exposure::parse("On_Demand"), Some(Exposure::OnDemand));
    assert_eq!(Exposure::parse("sometimes"), None);
    assert_eq!(Exposure::Hidden.next(), Exposure::Always);
    assert_eq!(Exposure::default(), Exposure::OnDemand);
}

#[test]
fn admission_rules() {
    let table = [
        (Exposure::Always, [true, true, true, true]),
        (Exposure::OnDemand, [false, true, true, true]),
        (Exposure::Explicit, [false, false, true, true]),
        (Exposure::Hidden, [false, false, false, false]),
    ];
    for (e, want) in table {
        let got = [
            e.admits(false, false),
            e.admits(false, true),
            e.admits(true, false),
            e.admits(true, true),
        ];
        assert_eq!(got, want, "{e}");
    }
}

#[test]
fn a_parent_level_applies_to_its_subtree_unless_overridden() {
    let path = fixture_path("curate/skills");
    let c = load_root(
        &RootSpec {
            path,
            label: "skills".into(),
        },
        &LoadOptions::default(),
        &mut |_| {},
    );
    let notes = c.find("skills/notes").unwrap();
    let tags = c
        .find("skills/notes/references/format.md#note-format/tags")
        .unwrap();
    let record = c.find("skills/notes/SKILL.md#notes/record").unwrap();
    let mut m = ExposureMap::new();
    assert_eq!(m.level(&c, tags), Exposure::OnDemand);
    m.set(notes, Some(Exposure::Always));
    m.set(tags, Some(Exposure::Hidden));
    assert_eq!(m.level(&c, record), Exposure::Always);
    assert_eq!(m.level(&c, tags), Exposure::Hidden);
    assert_eq!(m.own(record), None);
    let ids: Vec<String> = m.always_units(&c).iter().map(|n| c.id(*n)).collect();
    assert_eq!(
        ids,
        [
            "skills/notes/SKILL.md#notes",
            "skills/notes/references/format.md#note-format"
        ]
    );
    m.set(notes, None);
    assert!(m.always_units(&c).is_empty());
    assert_eq!(m.entries().len(), 1);
}

#[test]
fn always_on_a_file_without_headings_makes_it_a_unit() {
    let path = fixture_path("formats/skills/brand-guidelines");
    let c = load_root(
        &RootSpec {
            path,
            label: "bg".into(),
        },
        &LoadOptions::default(),
        &mut |_| {},
    );
    let license = c.find("bg/LICENSE.txt").unwrap();
    assert!(c.node(license).span.is_some() && c.node(license).children.is_empty());
    let mut m = ExposureMap::new();
    m.set(license, Some(Exposure::Always));
    let ids: Vec<String> = m.always_units(&c).iter().map(|n| c.id(*n)).collect();
    assert_eq!(ids, ["bg/LICENSE.txt"]);
    // A whole skill: the sections of its SKILL.md; its licence file stays `explicit`, the
    // level licence files default to (docs/DESIGN.md §5).
    let mut m = ExposureMap::new();
    m.set(c.roots[0], Some(Exposure::Always));
    let ids: Vec<String> = m.always_units(&c).iter().map(|n| c.id(*n)).collect();
    assert_eq!(ids, ["bg/SKILL.md#anthropic-brand-styling"]);
    assert_eq!(m.level(&c, license), Exposure::Explicit);
}

/// The always units by the definition: every text unit of the whole corpus (pre-order)
/// whose effective level is `always`, not a copy, not inside an already listed unit.
fn always_units_by_full_walk(m: &ExposureMap, c: &skillnav::model::Corpus) -> Vec<String> {
    let mut out: Vec<skillnav::model::NodeId> = Vec::new();
    for id in c.all_preorder() {
        let n = c.node(id);
        let unit = n.kind.is_text_unit()
            || (n.span.is_some() && !n.children.iter().any(|ch| c.node(*ch).kind.is_text_unit()));
        if !unit || c.is_copy(id) || m.level(c, id) != Exposure::Always {
            continue;
        }
        if out.last().is_some_and(|o| c.is_within(id, *o)) {
            continue;
        }
        out.push(id);
    }
    out.iter().map(|n| c.id(*n)).collect()
}

#[test]
fn always_units_walk_only_always_subtrees_in_document_order() {
    let path = fixture_path("curate/skills");
    let c = load_root(
        &RootSpec {
            path,
            label: "skills".into(),
        },
        &LoadOptions::default(),
        &mut |_| {},
    );
    let notes = c.find("skills/notes").unwrap();
    let format = c.find("skills/notes/references/format.md").unwrap();
    let tags = c
        .find("skills/notes/references/format.md#note-format/tags")
        .unwrap();
    let record = c.find("skills/notes/SKILL.md#notes/record").unwrap();
    let mut m = ExposureMap::new();
    // Set later nodes first: the result still follows the document.
    m.set(format, Some(Exposure::Always));
    m.set(record, Some(Exposure::Always));
    let ids: Vec<String> = m.always_units(&c).iter().map(|n| c.id(*n)).collect();
    assert_eq!(
        ids,
        [
            "skills/notes/SKILL.md#notes/record",
            "skills/notes/references/format.md#note-format"
        ]
    );
    assert_eq!(ids, always_units_by_full_walk(&m, &c));
    // An always node inside an always subtree, a hidden part and an explicit file.
    m.set(notes, Some(Exposure::Always));
    m.set(tags, Some(Exposure::Hidden));
    m.set(
        c.find("skills/notes/SKILL.md").unwrap(),
        Some(Exposure::Explicit),
    );
    let ids: Vec<String> = m.always_units(&c).iter().map(|n| c.id(*n)).collect();
    assert_eq!(ids, always_units_by_full_walk(&m, &c));
    assert_eq!(
        ids,
        [
            "skills/notes/SKILL.md#notes/record",
            "skills/notes/references/format.md#note-format"
        ]
    );
}
