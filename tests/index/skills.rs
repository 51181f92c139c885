//! A skill's routing text (frontmatter name, description, when-to-use) is a field of the
//! index of its own: the skill node is a hit for the words it is described by
//! (`tests/fixtures/index/skills`, see SOURCE.md there).

use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};
use skillnav::model::NodeKind;

use crate::support::corpus::load;
use crate::support::fs::fixture_path;

#[test]
fn search_invoices_returns_the_skill_whose_description_holds_it() {
    let c = load(&fixture_path("index/skills"));
    let idx = Index::build(&c, &mut |_, _| {});
    let fz = FuzzyIndex::build(&c);
    let (content, _) = search_all(
        &c,
        Some(&idx),
        Some(&fz),
        "invoices",
        &SearchOptions::default(),
    );
    let hits: Vec<(NodeKind, &str)> = content
        .hits
        .iter()
        .map(|h| (c.node(h.node).kind, c.node(h.node).id.as_str()))
        .collect();
    // The description's folded block says "invoices"; the notes body mentions it in passing.
    assert_eq!(
        hits,
        [
            (NodeKind::Skill, "skills/billing"),
            (NodeKind::Section, "skills/notes/SKILL.md#notes")
        ]
    );
    // The skill's name is in the field too (as in its top heading).
    let (by_name, _) = search_all(
        &c,
        Some(&idx),
        Some(&fz),
        "billing",
        &SearchOptions::default(),
    );
    let ids: Vec<&str> = by_name
        .hits
        .iter()
        .map(|h| c.node(h.node).id.as_str())
        .collect();
    assert_eq!(ids, ["skills/billing/SKILL.md#billing", "skills/billing"]);
}
