//! Disclosure layers in the preview pane: a skill's layers, the root's always-loaded
//! listing, scripts as a zero-token layer; equal to the core counts.

use skillnav::skill::listing::{ListingEntry, ListingFormat, ListingOptions, format_listing};
use skillnav::util::human;

use super::*;
use crate::support::fs::fixture_path;
use crate::support::tui::*;

/// Whether `row` is the layer row `label` with `tokens`: two spaces, the label, padding,
/// then `<count> tok`; returns the column where `tok` ends (the column is right-aligned).
fn layer_row(row: &str, label: &str, tokens: u64) -> Option<usize> {
    let rest = row.strip_prefix("  ")?.strip_prefix(label)?;
    let want = format!("{} tok", human::short_count(tokens));
    let after = rest.trim_start_matches(' ');
    if !after.starts_with(&want) || after.len() == rest.len() {
        return None;
    }
    Some(unicode_width::UnicodeWidthStr::width(&row[..row.len() - after.len()]) + want.len())
}

#[test]
fn skill_preview_shows_disclosure_layers_equal_to_the_core_counts() {
    let dir = fixture_path("formats/skills");
    let mut app = tui_over(&dir, "skills", 140, 60);
    let skill = id(&app, "skills/theme-factory");
    goto(&mut app, skill);
    let l = skillnav::skill::layers::skill_layers(&app.corpus, skill, counter());
    assert_eq!(
        app.layers.get(&skill).map(|v| (**v).clone()),
        Some(skillnav::tui::state::preview::LayerView::Skill(l.clone()))
    );
    // The layers add up to the total.
    let refs: u64 = l.references.iter().map(|r| r.tokens).sum();
    assert_eq!(l.metadata_tokens + l.body_tokens + refs, l.total_tokens);
    let paths: Vec<&str> = l.references.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        vec![
            "LICENSE.txt",
            "themes/arctic-frost.md",
            "themes/ocean-depths.md"
        ]
    );
    // Body = SKILL.md after its frontmatter block, counted independently.
    let text = std::fs::read_to_string(dir.join("theme-factory/SKILL.md")).expect("fixture");
    let fm = skillnav::frontmatter::parse(&text).expect("frontmatter");
    assert_eq!(l.body_tokens, counter().count(&text[fm.block.end..]));
    let rows = preview_rows(&app);
    let heading = rows
        .iter()
        .position(|r| r.contains("Disclosure layers (o200k_base)"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    let mut want = vec![
        ("metadata (always)", l.metadata_tokens),
        ("SKILL.md body", l.body_tokens),
    ];
    for r in &l.references {
        want.push((r.path.as_str(), r.tokens));
    }
    want.push(("total loaded", l.total_tokens));
    let mut ends = Vec::new();
    for (i, (label, tokens)) in want.iter().enumerate() {
        let row = &rows[heading + 1 + i];
        let end = layer_row(row, label, *tokens);
        assert!(end.is_some(), "row {i}: {row:?} is {label} {tokens}");
        ends.push(end);
    }
    assert!(
        ends.windows(2).all(|w| w[0] == w[1]),
        "token column right-aligned: {ends:?}"
    );
    assert!(rows[heading + 1].contains("name + description in the listing"));
    assert!(rows[heading + 2].contains(&format!(
        "on activation · {}",
        human::short_bytes(l.body_bytes)
    )));
}

#[test]
fn root_preview_shows_the_always_loaded_listing_cost() {
    let dir = fixture_path("formats/skills");
    let mut app = tui_over(&dir, "skills", 140, 60);
    let root = app.corpus.roots[0];
    goto(&mut app, root);
    // The listing, built here from the files.
    let entries: Vec<ListingEntry> = ["brand-guidelines", "claude-api", "theme-factory"]
        .iter()
        .map(|folder| {
            let file = dir.join(folder).join("SKILL.md");
            let text = std::fs::read_to_string(&file).expect("fixture");
            let fm = skillnav::frontmatter::parse(&text).expect("frontmatter");
            ListingEntry::from_frontmatter(&fm, folder, &file.to_string_lossy())
        })
        .collect();
    let opts = ListingOptions {
        format: ListingFormat::AvailableSkills,
        ..ListingOptions::default()
    };
    let listing = format_listing(&entries, opts);
    assert!(listing.starts_with("<available_skills>\n<skill>\n<name>\nbrand-guidelines\n</name>"));
    let always = counter().count(&listing);
    let r = skillnav::skill::layers::root_layers(&app.corpus, root, counter());
    assert_eq!(r.always_loaded_tokens, always);
    let rows = preview_rows(&app);
    let heading = rows
        .iter()
        .position(|r| r.contains("Always loaded (o200k_base)"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    let row = &rows[heading + 1];
    assert!(
        layer_row(row, "<available_skills>", always).is_some(),
        "{row:?}"
    );
    assert!(
        row.contains("the listing of 3 skills, sent on every turn"),
        "{row:?}"
    );
    // One row per skill with its total.
    for s in &r.skills {
        let shown = rows
            .iter()
            .any(|r| layer_row(r, &s.entry.name, s.total_tokens).is_some());
        assert!(shown, "{} {} in {rows:#?}", s.entry.name, s.total_tokens);
    }
}

#[test]
fn skill_scripts_show_as_a_zero_token_layer() {
    let dir = fixture_path("curate/skills");
    let mut app = tui_over(&dir, "skills", 140, 40);
    let skill = id(&app, "skills/deploy");
    goto(&mut app, skill);
    let l = skillnav::skill::layers::skill_layers(&app.corpus, skill, counter());
    assert_eq!(
        l.assets.iter().map(|a| a.path.as_str()).collect::<Vec<_>>(),
        vec!["scripts/deploy.sh"]
    );
    let bytes = std::fs::metadata(dir.join("deploy/scripts/deploy.sh"))
        .expect("fixture")
        .len();
    assert_eq!(l.assets[0].bytes, bytes);
    let rows = preview_rows(&app);
    let row = rows
        .iter()
        .find(|r| r.starts_with("  1 scripts/assets"))
        .unwrap_or_else(|| panic!("{rows:#?}"));
    assert!(layer_row(row, "1 scripts/assets", 0).is_some(), "{row:?}");
    assert!(
        row.contains(&format!(
            "never loaded as text · {}",
            human::short_bytes(bytes)
        )),
        "{row:?}"
    );
    let total = rows
        .iter()
        .find(|r| r.starts_with("  total"))
        .expect("total row");
    assert!(
        layer_row(total, "total loaded", l.total_tokens).is_some(),
        "{total:?}"
    );
}
