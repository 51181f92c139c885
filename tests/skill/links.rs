//! The `broken-link` lint (`skill::links`, docs/AGENTS.md "Link lint") on
//! tests/fixtures/links/ (see SOURCE.md there), through `validate --json`.

use super::report::{row, rows, validate_json};
use crate::support::fs::fixture_path;

#[test]
fn missing_files_and_anchors_are_found_and_valid_links_are_not() {
    let (code, v) = validate_json(&fixture_path("links/docs-skill"), "spec");
    assert_eq!(code, Some(0), "broken links are warnings");
    assert_eq!(
        rows(&v, "broken-link"),
        [
            row(
                "docs-skill",
                "references/api.md",
                9,
                "broken-link",
                "warning"
            ),
            row("docs-skill", "SKILL.md", 20, "broken-link", "warning"),
            row("docs-skill", "SKILL.md", 21, "broken-link", "warning"),
            row("docs-skill", "SKILL.md", 22, "broken-link", "warning"),
            row("docs-skill", "SKILL.md", 23, "broken-link", "warning"),
        ]
    );
    let messages: Vec<&str> = v["skills"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "links to #request-header, which is no heading of this file",
            "links to references/missing.md, which does not exist",
            "links to #no-such-heading, which is no heading of references/api.md",
            "links to #install, which is no heading of this file",
            "links to assets/logo.png, which does not exist",
        ]
    );
}
