//! Per-layer token costs (src/layers.rs) on `tests/fixtures/curate/skills`.

use skillnav::model::Corpus;
use skillnav::skill::layers::{listing_entry, root_layers, skill_layers};
use skillnav::skill::listing::{ListingFormat, ListingOptions, format_listing};
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::load_as;
use crate::support::fs::fixture_path;

fn fixture() -> Corpus {
    load_as(&fixture_path("curate/skills"), "skills")
}

#[test]
fn layers_of_a_skill_add_up_to_its_total() {
    let c = fixture();
    let counter = TokenCounter::new(Encoding::O200kBase);
    let notes = c.find("skills/notes").unwrap();
    let l = skill_layers(&c, notes, counter);
    let body = std::fs::read_to_string(fixture_path("curate/skills/notes/SKILL.md")).unwrap();
    let body_text = &body[body.find("\n---\n").unwrap() + 5..];
    assert_eq!(l.body_tokens, counter.count(body_text));
    assert_eq!(l.body_bytes, body_text.len() as u64);
    let refs: Vec<(&str, u64)> = l
        .references
        .iter()
        .map(|r| (r.path.as_str(), r.bytes))
        .collect();
    assert_eq!(refs, [("references/format.md", 193)]);
    assert_eq!(
        l.references[0].tokens,
        counter.count(
            &std::fs::read_to_string(fixture_path("curate/skills/notes/references/format.md"))
                .unwrap()
        )
    );
    assert_eq!(
        l.total_tokens,
        l.metadata_tokens + l.body_tokens + l.references[0].tokens
    );
    assert!(l.assets.is_empty());
}

#[test]
fn scripts_are_assets_with_bytes_and_no_tokens() {
    let c = fixture();
    let counter = TokenCounter::new(Encoding::O200kBase);
    let l = skill_layers(&c, c.find("skills/deploy").unwrap(), counter);
    let assets: Vec<(&str, u64, u64)> = l
        .assets
        .iter()
        .map(|a| (a.path.as_str(), a.bytes, a.tokens))
        .collect();
    assert_eq!(assets, [("scripts/deploy.sh", 30, 0)]);
    assert!(l.references.is_empty());
    assert_eq!(l.total_tokens, l.metadata_tokens + l.body_tokens);
}

#[test]
fn always_loaded_equals_the_available_skills_listing() {
    let c = fixture();
    let counter = TokenCounter::new(Encoding::Cl100kBase);
    let root = c.roots[0];
    let r = root_layers(&c, root, counter);
    let names: Vec<&str> = r.skills.iter().map(|s| s.entry.name.as_str()).collect();
    assert_eq!(names, ["deploy", "notes"]);
    let entries = vec![
        listing_entry(&c, c.find("skills/deploy").unwrap()),
        listing_entry(&c, c.find("skills/notes").unwrap()),
    ];
    let opts = ListingOptions {
        format: ListingFormat::AvailableSkills,
        ..ListingOptions::default()
    };
    let listing = format_listing(&entries, opts);
    assert!(
        listing.contains("<location>\n/"),
        "absolute location: {listing}"
    );
    assert!(listing.ends_with("/notes/SKILL.md\n</location>\n</skill>\n</available_skills>"));
    assert_eq!(r.always_loaded_tokens, counter.count(&listing));
    // The per-skill metadata layers cover everything but the wrapper lines.
    let meta: u64 = r.skills.iter().map(|s| s.metadata_tokens).sum();
    assert_eq!(
        meta + counter.count("<available_skills>\n") + counter.count("</available_skills>"),
        r.always_loaded_tokens
    );
}
