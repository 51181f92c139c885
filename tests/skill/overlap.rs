//! The `description-overlap` lint (`skill::overlap`, docs/AGENTS.md "Description
//! overlap"): the planted pairs of tests/fixtures/overlap/ are found with their shared
//! phrases, and the thirteen SKILL.md files of the corpus's anthropic-skills
//! (tests/fixtures/overlap-anthropic/) give no pair. See SOURCE.md in each.

use serde_json::Value;

use super::report::{row, rows, validate_json};
use crate::support::fs::fixture_path;

fn pairs(v: &Value) -> Vec<(String, String)> {
    v["overlaps"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            (
                p["a"].as_str().unwrap_or_default().to_string(),
                p["b"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn every_planted_pair_is_found_with_its_shared_phrases_and_no_near_miss() {
    let (code, v) = validate_json(&fixture_path("overlap"), "spec");
    assert_eq!(code, Some(0));
    let mut found = pairs(&v);
    found.sort();
    let want = [
        ("changelog-writer", "release-notes"),
        ("pdf-form-filler", "pdf-toolkit"),
        ("postgres-performance", "sql-query-tuning"),
    ];
    assert_eq!(found, want.map(|(a, b)| (a.to_string(), b.to_string())));
    let sql = v["overlaps"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["a"] == "postgres-performance")
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        sql["phrases"],
        serde_json::json!(["query plans", "explain analyze", "missing indexes"])
    );
    let s = sql["similarity"].as_f64().unwrap_or_default();
    assert!((0.25..=1.0).contains(&s), "similarity {s}");
    // Both skills of each pair carry the finding, on their description line.
    let mut skills: Vec<String> = rows(&v, "description-overlap")
        .into_iter()
        .map(|r| {
            assert_eq!(
                (r.1.as_str(), r.2, r.4.as_str()),
                ("SKILL.md", 3, "warning")
            );
            r.0
        })
        .collect();
    skills.sort();
    assert_eq!(
        skills,
        [
            "changelog-writer",
            "pdf-form-filler",
            "pdf-toolkit",
            "postgres-performance",
            "release-notes",
            "sql-query-tuning"
        ]
    );
    assert_eq!(
        rows(&v, "description-overlap")
            .into_iter()
            .find(|r| r.0 == "release-notes"),
        Some(row(
            "release-notes",
            "SKILL.md",
            3,
            "description-overlap",
            "warning"
        ))
    );
    let msg = v["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["name"] == "release-notes")
        .map(|s| s["findings"][0]["message"].clone())
        .unwrap_or_default();
    assert_eq!(
        msg,
        "description competes with skill 'changelog-writer' for the same requests (similarity 0.44; shared phrases \"commits since the last\", \"write release notes\")"
    );
}

#[test]
fn the_thirteen_anthropic_skills_give_no_overlapping_pair() {
    let (_, v) = validate_json(&fixture_path("overlap-anthropic"), "spec");
    assert_eq!(v["skills"].as_array().map(Vec::len), Some(13));
    assert_eq!(pairs(&v), []);
    assert!(
        v.get("overlaps").is_none(),
        "no key when no pair is flagged"
    );
    assert_eq!(rows(&v, "description-overlap"), []);
}
