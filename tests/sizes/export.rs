//! Export defaults: the folder is named after what the sections are about (the KEP's name
//! for its Summary, Motivation and Proposal), shown for editing, and the description names
//! that topic instead of the section titles (docs/FORMATS.md §14).

use crossterm::event::KeyCode;
use skillnav::curate::export::{default_description, default_name};
use skillnav::curate::exposure::ExposureMap;
use skillnav::tui::state::curate::InputPurpose;

use super::*;
use crate::support::corpus::{get, load};
use crate::support::tui::*;

const KEP_DESCRIPTION: &str = "Curated documentation from 3521-pod-scheduling-readiness on \
KEP-3521: Pod Scheduling Readiness (3 sections). Use when a task needs these topics; read \
the referenced file of a section only when needed.";

#[test]
fn export_of_three_kep_sections_defaults_to_the_kep_name_and_describes_the_kep() {
    let c = load(&kep_dir());
    let units = [get(&c, SUMMARY), get(&c, MOTIVATION), get(&c, PROPOSAL)];
    let levels = ExposureMap::new();
    assert_eq!(
        default_name(&c, &units, &levels),
        "kep-3521-pod-scheduling-readiness"
    );
    assert_eq!(default_description(&c, &units, &levels), KEP_DESCRIPTION);
    // The TUI: `X` shows the folder for editing, then the description.
    let mut app = tui_over(&kep_dir(), KEP, 120, 40);
    let nodes = [id(&app, SUMMARY), id(&app, MOTIVATION), id(&app, PROPOSAL)];
    select(&mut app, &nodes);
    press(&mut app, KeyCode::Char('X'));
    assert_eq!(input_purpose(&app), Some(InputPurpose::ExportDir));
    let cwd = std::env::current_dir().unwrap();
    assert_eq!(
        input_text(&app),
        cwd.join("kep-3521-pod-scheduling-readiness")
            .display()
            .to_string()
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(input_text(&app), KEP_DESCRIPTION);
}

#[test]
fn export_of_a_skill_defaults_to_its_name_curated_and_leaves_its_licence_out() {
    let c = load(&fixture_path("formats/skills"));
    let skill = get(&c, "skills/theme-factory");
    let mut sel = skillnav::model::Selection::new();
    sel.select(&c, skill);
    let levels = ExposureMap::from_corpus(&c);
    let units = skillnav::curate::units::selection_units(&c, &sel, &levels);
    let ids: Vec<String> = units.iter().map(|u| c.id(*u)).collect();
    assert_eq!(
        ids,
        [
            "skills/theme-factory/SKILL.md",
            "skills/theme-factory/themes/arctic-frost.md",
            "skills/theme-factory/themes/ocean-depths.md",
        ]
    );
    assert_eq!(default_name(&c, &units, &levels), "theme-factory-curated");
}
