//! `validate`'s collision map: the `description-overlap` finding on both skills of each
//! flagged pair ([`crate::skill::overlap`]) and the `overlaps` array of `validate --json`.

use serde_json::{Value as Json, json};

use crate::skill::listing::ListingEntry;
use crate::skill::overlap::{Entry, overlaps};
use crate::skill::validate::{Finding, Profile, SkillReport};

/// Score the listing `entries` (the effective set: every skill that is not shadowed, over
/// all the roots given), add a `description-overlap` finding to the report of each skill of
/// a flagged pair (matched by SKILL.md path, on the `description` line), and return the
/// pairs for `validate --json`: `[{"a", "b", "a_path", "b_path", "similarity" (0–1, three
/// decimals), "phrases": [shared trigger phrases]}]`, most similar first.
pub fn add_overlaps(
    entries: &[ListingEntry],
    profile: Profile,
    reports: &mut [SkillReport],
) -> Vec<Json> {
    let scored: Vec<Entry> = entries
        .iter()
        .map(|e| Entry {
            name: e.name.clone(),
            text: match &e.when_to_use {
                Some(w) => format!("{} {w}", e.description),
                None => e.description.clone(),
            },
        })
        .collect();
    let mut out = Vec::new();
    for o in overlaps(&scored) {
        let (a, b) = (&entries[o.a], &entries[o.b]);
        let quoted: Vec<String> = o.phrases.iter().map(|p| format!("\"{p}\"")).collect();
        let shared = if quoted.is_empty() {
            "no phrase in common, but most of the same words".to_string()
        } else {
            format!("shared phrases {}", quoted.join(", "))
        };
        for (me, other) in [(a, b), (b, a)] {
            if let Some(r) = reports.iter_mut().find(|r| r.path == me.location) {
                r.findings.push(Finding {
                    severity: crate::skill::severity::severity("description-overlap", profile),
                    rule: "description-overlap",
                    message: format!(
                        "description competes with skill '{}' for the same requests (similarity {:.2}; {shared})",
                        other.name, o.similarity
                    ),
                    line: description_line(&me.location),
                    file: None,
                });
            }
        }
        out.push(json!({
            "a": a.name, "b": b.name, "a_path": a.location, "b_path": b.location,
            "similarity": (o.similarity * 1000.0).round() / 1000.0,
            "phrases": o.phrases,
        }));
    }
    out
}

/// The line of the `description` key in the SKILL.md at `path`, when it can be read.
fn description_line(path: &str) -> Option<u32> {
    let (bytes, _) = crate::util::regular_file::read_regular(
        std::path::Path::new(path),
        crate::skill::files::MAX_TEXT_BYTES,
    )
    .ok()?;
    let text = String::from_utf8_lossy(&bytes);
    crate::frontmatter::parse(&text)?
        .get("description")
        .map(|e| e.lines.start)
}
