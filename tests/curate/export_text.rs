//! What an export says about its sections: summaries from text (a `Skill_Seekers` page's
//! `URL:` line never), a description naming the source, reference file names cut at a word
//! boundary, numbering from 01.

use skillnav::curate::export::{ExportOptions, default_description, export_skill};
use skillnav::curate::exposure::ExposureMap;
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::load_as as load;
use crate::support::fs::{fixture_path, tempdir, write};

fn opts() -> ExportOptions {
    ExportOptions {
        description: None,
        max_reference_bytes: 32 * 1024,
        with_catalog: false,
        force: false,
        counter: TokenCounter::new(Encoding::O200kBase),
    }
}

#[test]
fn skill_seekers_pages_are_summarized_from_text_and_the_description_names_the_skill() {
    let c = load(&fixture_path("curate/hono-mini"), "hono-mini");
    let philosophy = c
        .find("hono-mini/references/concepts.md#hono_docs---concepts/philosophy")
        .expect("philosophy");
    let stacks = c
        .find("hono-mini/references/concepts.md#hono_docs---concepts/hono-stacks")
        .expect("stacks");
    let exp = ExposureMap::new();
    let expected = "Curated documentation from hono on Hono_Docs - Concepts (2 sections). \
                    Use when a task needs these topics; read the referenced file of a section \
                    only when needed.";
    assert_eq!(
        default_description(&c, &[philosophy, stacks], &exp),
        expected
    );
    let tmp = tempdir();
    let dir = tmp.path().join("hono-concepts");
    let r = export_skill(&c, &[philosophy, stacks], &exp, &dir, &opts()).expect("export");
    assert_eq!(
        r.sections[0].summary,
        "In this section, we talk about the concept, or philosophy, of Hono."
    );
    // Past the `URL:` line and the `Contents:` list, the first sentence of text (the
    // section's own summary, as the tree shows it).
    assert_eq!(
        r.sections[1].summary,
        "Hono makes easy things easy and hard things easy."
    );
    let skill = std::fs::read_to_string(dir.join("SKILL.md")).expect("SKILL.md");
    assert_eq!(
        skill.lines().nth(2),
        Some(format!("description: {expected}").as_str()),
        "{skill}"
    );
    assert!(!skill.contains("| URL:"), "{skill}");
}

#[test]
fn reference_names_are_cut_at_a_word_boundary_and_numbered_from_01() {
    let tmp = tempdir();
    write(
        tmp.path(),
        "docs/guide.md",
        b"# Guide\n\nIntro text.\n\n## Configuring the cache middleware for Cloudflare Workers deployments\n\nSet the cache name.\n\n## Short\n\nA short one.\n",
    );
    let c = load(&tmp.path().join("docs"), "docs");
    let long = c
        .find("docs/guide.md#guide/configuring-the-cache-middleware-for-cloudflare-workers-deployments")
        .expect("long section");
    let short = c.find("docs/guide.md#guide/short").expect("short");
    let out = tempdir();
    let dir = out.path().join("guide-kit");
    let r = export_skill(&c, &[long, short], &ExposureMap::new(), &dir, &opts()).expect("export");
    assert_eq!(
        r.files,
        [
            "SKILL.md",
            // 40 chars would end in `…-cloudflare-wo`: the cut goes back to the last `-`.
            "references/01-configuring-the-cache-middleware-for.md",
            "references/02-short.md"
        ]
    );
}
