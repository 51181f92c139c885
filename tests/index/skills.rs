//! A skill's routing text (frontmatter name, description, when-to-use) is a field of the
//! index of its own: the skill node is a hit for the words it is described by
//! (`tests/fixtures/index/skills`, see SOURCE.md there).

use skillnav::brief;
use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};
use skillnav::model::NodeKind;
use skillnav::tokens::{Encoding, TokenCounter};

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
    let hits: Vec<(NodeKind, String)> = content
        .hits
        .iter()
        .map(|h| (c.node(h.node).kind, c.id(h.node)))
        .collect();
    // The description's folded block says "invoices"; the notes body mentions it in passing.
    assert_eq!(
        hits,
        [
            (NodeKind::Skill, "skills/billing".to_string()),
            (NodeKind::Section, "skills/notes/SKILL.md#notes".to_string())
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
    let ids: Vec<String> = by_name.hits.iter().map(|h| c.id(h.node)).collect();
    assert_eq!(ids, ["skills/billing/SKILL.md#billing", "skills/billing"]);
}

#[test]
fn brief_invoices_quotes_the_lead_section_of_the_skill_whose_description_holds_it() {
    let c = load(&fixture_path("index/skills"));
    let idx = Index::build(&c, &mut |_, _| {});
    let b = brief::query_brief(&c, &idx, "invoices", 8, None, bytes4());
    let billing = search_score(&c, &idx, "invoices", "skills/billing");
    let notes = search_score(&c, &idx, "invoices", "skills/notes/SKILL.md#notes");
    // The skill node has no text: its SKILL.md's top section (up to `## Totals`) stands
    // in for it, first, with the skill's score. Two hits of the 8 asked for: `top 2`.
    assert_eq!(
        b.text,
        format!(
            "# Context brief\n\nQuery: invoices · top 2 by BM25\n\
             Sources: skills · 2 sections · 37 tokens (bytes4) · 143 bytes\n\n---\n\n\
             ## Billing\n`skills/billing/SKILL.md#billing` · billing/SKILL.md · lines 8–11 · score {billing:.3}\n\n\
             Draft the document from the order, then send it to the customer.\n\n---\n\n\
             ## Notes\n`skills/notes/SKILL.md#notes` · notes/SKILL.md · lines 6–8 · score {notes:.3}\n\n\
             One file per topic. Old invoices are archived elsewhere.\n\n---\n"
        )
    );
}

#[test]
fn brief_billing_lists_the_skill_lead_once_when_it_is_a_hit_itself() {
    let c = load(&fixture_path("index/skills"));
    let idx = Index::build(&c, &mut |_, _| {});
    // Hits: the `# Billing` section, then the skill (its name); the skill's stand-in is
    // that same section, already listed.
    let b = brief::query_brief(&c, &idx, "billing", 8, None, bytes4());
    assert_eq!(b.sections, 1, "{}", b.text);
    assert_eq!(b.text.matches("## Billing\n").count(), 1, "{}", b.text);
}

fn bytes4() -> TokenCounter {
    TokenCounter::new(Encoding::Bytes4)
}

/// The BM25 score `search` gives `id` for `query`.
fn search_score(c: &skillnav::model::Corpus, idx: &Index, query: &str, id: &str) -> f64 {
    let r = idx.search(c, query, &SearchOptions::default());
    r.hits
        .iter()
        .find(|h| c.id(h.node) == id)
        .map_or_else(|| panic!("{id} is no hit for {query}"), |h| h.score)
}
