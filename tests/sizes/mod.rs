//! One size per node (docs/DESIGN.md §2 Sizes) and what the top bar counts (§6): a section's
//! bytes and tokens as stored are the same in the tree, `tree --json`, the brief's `Sources:`
//! line and the export; the bar shows the brief `y` copies, packed under the budget;
//! licence files stay out of a selected skill's brief (§5); an export's name and
//! description come from what the sections are about. Fixtures: `tests/fixtures/sizes`
//! (KEP-3521, cut short; see its SOURCE.md), `tests/fixtures/formats/skills`,
//! `tests/fixtures/tui/hono-mini`.

mod agree;
mod bar;
mod export;

use std::path::PathBuf;

use crate::support::fs::fixture_path;

const KEP: &str = "3521-pod-scheduling-readiness";
const SUMMARY: &str =
    "3521-pod-scheduling-readiness/README.md#kep-3521-pod-scheduling-readiness/summary";
const MOTIVATION: &str =
    "3521-pod-scheduling-readiness/README.md#kep-3521-pod-scheduling-readiness/motivation";
const PROPOSAL: &str =
    "3521-pod-scheduling-readiness/README.md#kep-3521-pod-scheduling-readiness/proposal";

/// The KEP folder of the fixture.
fn kep_dir() -> PathBuf {
    fixture_path("sizes/keps/sig-scheduling/3521-pod-scheduling-readiness")
}

#[test]
fn every_node_of_the_fixtures_has_one_size_in_tree_json_brief_bar_and_export() {
    for rel in [
        "sizes",
        "formats/skills",
        "formats/hono-unified",
        "formats/handmade",
        "tui/hono-mini",
    ] {
        let w = agree::walk(&fixture_path(rel));
        assert!(w.checked > 5, "{rel}: {} nodes checked", w.checked);
        assert_eq!(w.problems, Vec::<String>::new(), "{rel}: {w:?}");
    }
}

/// The same walk over the folders named in `SKILLNAV_AGREE_PATH` (`:`-separated), e.g.
/// every folder of a shared corpus: `SKILLNAV_AGREE_PATH=a:b cargo test --test main
/// sizes::every_node_of_the_folders_in_skillnav_agree_path -- --ignored --nocapture`.
#[test]
#[ignore = "walks the folders in SKILLNAV_AGREE_PATH"]
fn every_node_of_the_folders_in_skillnav_agree_path_agrees() {
    let paths = std::env::var("SKILLNAV_AGREE_PATH").unwrap_or_default();
    let mut failed = Vec::new();
    for p in paths.split(':').filter(|p| !p.is_empty()) {
        let started = std::time::Instant::now();
        let w = agree::walk(std::path::Path::new(p));
        println!(
            "{p}: {} nodes checked, {} disagreements, exported files changed by rule: {:?} ({:.0?})",
            w.checked,
            w.problems.len(),
            w.file_changes,
            started.elapsed()
        );
        for problem in w.problems.iter().take(20) {
            println!("  {problem}");
        }
        if !w.problems.is_empty() {
            failed.push(p.to_string());
        }
    }
    assert_eq!(failed, Vec::<String>::new());
}
