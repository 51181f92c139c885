//! Export as a new skill (src/export.rs) on `tests/fixtures/curate/hono-mini`.

use skillnav::curate::export::{ExportOptions, MAX_BODY_LINES, MAX_BODY_TOKENS, export_skill};
use skillnav::curate::exposure::{Exposure, ExposureMap};
use skillnav::model::{Corpus, NodeKind, Selection};
use skillnav::skill::validate::{Profile, Severity, validate_skill_md};
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::load_as as load;
use crate::support::fs::fixture_path;

fn opts(max: usize) -> ExportOptions {
    ExportOptions {
        description: None,
        max_reference_bytes: max,
        with_catalog: true,
        force: false,
        counter: TokenCounter::new(Encoding::O200kBase),
    }
}

fn section_titles(c: &Corpus) -> Vec<String> {
    let mut t: Vec<String> = c
        .nodes
        .iter()
        .filter(|n| {
            n.kind == NodeKind::Section
                && n.path.contains("references/")
                && !n.path.ends_with("index.md")
        })
        .map(|n| n.title.clone())
        .collect();
    t.sort();
    t
}

#[test]
fn export_of_a_hono_selection_validates_and_reopens_with_the_same_sections() {
    let c = load(&fixture_path("curate/hono-mini"), "hono");
    let mut sel = Selection::new();
    let concepts = c
        .nodes
        .iter()
        .position(|n| n.path.ends_with("references/concepts.md") && n.kind == NodeKind::File)
        .unwrap();
    sel.select(&c, skillnav::model::NodeId(concepts as u32));
    let units = sel.units(&c);
    let picked_titles: Vec<String> = {
        let mut v: Vec<String> = c
            .preorder(skillnav::model::NodeId(concepts as u32))
            .iter()
            .filter(|n| c.node(**n).kind == NodeKind::Section)
            .map(|n| c.node(*n).title.clone())
            .collect();
        v.sort();
        v
    };
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("hono-concepts");
    let report = export_skill(&c, &units, &ExposureMap::new(), &dir, &opts(4096)).expect("export");
    assert_eq!(report.name, "hono-concepts");
    assert!(report.body_lines < MAX_BODY_LINES && report.body_tokens < MAX_BODY_TOKENS);
    assert!(
        report
            .files
            .iter()
            .filter(|f| f.starts_with("references/"))
            .count()
            >= 3,
        "{:?}",
        report.files
    );
    for f in &report.files {
        let len = std::fs::metadata(dir.join(f)).unwrap().len();
        if f.starts_with("references/") && f != "references/index.md" {
            assert!(len <= 4096, "{f}: {len} bytes");
        }
    }
    let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    assert!(text.starts_with("---\nname: hono-concepts\ndescription: "));
    assert!(text.contains("| id | reference | summary | tokens | exposure |"));
    let findings = validate_skill_md(
        &text,
        "hono-concepts",
        Some(report.body_tokens),
        Profile::Spec,
    );
    assert!(
        findings.iter().all(|f| f.severity != Severity::Error),
        "{findings:?}"
    );
    assert!(findings.is_empty(), "{findings:?}");
    // Reopen: the same section titles.
    let back = load(&dir, "export");
    assert_eq!(section_titles(&back), picked_titles);
    let catalog: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("assets/catalog.json")).unwrap())
            .unwrap();
    assert_eq!(catalog["metadata"]["framework"], "hono-concepts");
    assert_eq!(
        catalog["metadata"]["total_sections"].as_u64(),
        Some(units.len() as u64)
    );
    // A second export into the same folder needs --force.
    assert!(export_skill(&c, &units, &ExposureMap::new(), &dir, &opts(4096)).is_err());
    let forced = ExportOptions {
        force: true,
        ..opts(4096)
    };
    assert!(export_skill(&c, &units, &ExposureMap::new(), &dir, &forced).is_ok());
}

#[test]
fn export_rejects_bad_names_and_hidden_only_selections() {
    let c = load(&fixture_path("curate/skills"), "skills");
    let tags = c
        .find("skills/notes/references/format.md#note-format/tags")
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let err = export_skill(
        &c,
        &[tags],
        &ExposureMap::new(),
        &tmp.path().join("Bad_Name"),
        &opts(4096),
    )
    .unwrap_err();
    assert!(err.to_string().contains("must be 1-64 of a-z 0-9"), "{err}");
    let mut exp = ExposureMap::new();
    exp.set(tags, Some(Exposure::Hidden));
    let err =
        export_skill(&c, &[tags], &exp, &tmp.path().join("ok-name"), &opts(4096)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nothing to export: the selection has no exposed sections"
    );
}

#[test]
fn export_table_shows_exposure_and_tokens() {
    let c = load(&fixture_path("curate/skills"), "skills");
    let tags = c
        .find("skills/notes/references/format.md#note-format/tags")
        .unwrap();
    let mut exp = ExposureMap::new();
    exp.set(tags, Some(Exposure::Explicit));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("tags-kit");
    let r = export_skill(
        &c,
        &[tags],
        &exp,
        &dir,
        &ExportOptions {
            with_catalog: false,
            ..opts(4096)
        },
    )
    .unwrap();
    assert_eq!(r.files, ["SKILL.md", "references/01-tags.md"]);
    let refs = std::fs::read_to_string(dir.join("references/01-tags.md")).unwrap();
    assert_eq!(
        refs,
        "## Tags\n\nTags go on the second line as `tags: a, b`. Tags are lower-case words.\n\n"
    );
    let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    let row = format!(
        "| `skills/notes/references/format.md#note-format/tags` | [references/01-tags.md](references/01-tags.md) | Tags go on the second line as tags: a, b. | {} | explicit |",
        r.sections[0].tokens
    );
    assert!(text.contains(&row), "{text}");
}

#[test]
fn each_section_gets_its_own_reference_file_and_a_skill_md_is_summarised_by_its_description() {
    let c = load(&fixture_path("curate/skills"), "skills");
    let notes = c.find("skills/notes/SKILL.md").unwrap();
    let tags = c
        .find("skills/notes/references/format.md#note-format/tags")
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("two-kit");
    let o = ExportOptions {
        with_catalog: false,
        ..opts(4096)
    };
    let r = export_skill(&c, &[notes, tags], &ExposureMap::new(), &dir, &o).unwrap();
    // Small sections are not packed together: the table's "read only its reference file"
    // holds for each of them.
    // A SKILL.md goes by its skill's name.
    assert_eq!(
        r.files,
        [
            "SKILL.md",
            "references/01-notes.md",
            "references/02-tags.md"
        ]
    );
    assert_eq!(r.sections[0].references, ["references/01-notes.md"]);
    assert_eq!(r.sections[0].title, "notes");
    assert_eq!(
        r.sections[0].summary,
        "Take and search notes in a plain folder. Use when the user asks to record or find a note."
    );
    let skill = std::fs::read_to_string(dir.join("references/01-notes.md")).unwrap();
    assert!(
        skill.starts_with("# Notes\n\nKeep notes as markdown files"),
        "{skill}"
    );
    assert!(!skill.contains("Tags go on the second line"), "{skill}");
}

#[test]
fn always_sections_go_into_the_skill_md_body_once() {
    let c = load(&fixture_path("curate/skills"), "skills");
    let notes = c.find("skills/notes/SKILL.md").unwrap();
    let record = c.find("skills/notes/SKILL.md#notes/record").unwrap();
    let tags = c
        .find("skills/notes/references/format.md#note-format/tags")
        .unwrap();
    let mut exp = ExposureMap::new();
    exp.set(record, Some(Exposure::Always));
    let tmp = tempfile::tempdir().unwrap();
    let o = ExportOptions {
        with_catalog: false,
        ..opts(4096)
    };
    // The always section is loaded with the skill: in the body, not a reference file.
    let dir = tmp.path().join("always-kit");
    let r = export_skill(&c, &[tags], &exp, &dir, &o).unwrap();
    // Reference files are numbered from 01: the body's section takes no number.
    assert_eq!(r.files, ["SKILL.md", "references/01-tags.md"]);
    assert_eq!(r.sections[0].references, ["SKILL.md"]);
    let text = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    assert!(
        text.contains("## Always loaded\n\n### Record\n\nWrite the note with a dated heading and a short summary line.\n\n## Sections"),
        "{text}"
    );
    assert!(text.contains("| above (always loaded) |"), "{text}");
    let findings = validate_skill_md(&text, "always-kit", Some(r.body_tokens), Profile::Spec);
    assert!(findings.is_empty(), "{findings:?}");
    // Selecting the file that holds the always section exports its text once.
    let dir = tmp.path().join("once-kit");
    let r = export_skill(&c, &[notes], &exp, &dir, &o).unwrap();
    assert_eq!(r.sections.len(), 1);
    assert_eq!(r.sections[0].id, "skills/notes/SKILL.md");
    let all: String = r
        .files
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect();
    assert_eq!(
        all.matches("Write the note with a dated heading").count(),
        1
    );
}

#[test]
fn links_between_exported_files_are_rewritten_and_dead_ones_reported() {
    let src = tempfile::tempdir().unwrap();
    let skill = src.path().join("pdf");
    std::fs::create_dir_all(skill.join("references")).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf\ndescription: Fill PDF forms. Use for PDF forms.\n---\n\n# PDF\n\nSee [forms](references/forms.md#fields) and [the API](reference.md).\n",
    )
    .unwrap();
    std::fs::write(
        skill.join("references/forms.md"),
        "# Forms\n\n## Fields\n\nBack to [the skill](../SKILL.md).\n",
    )
    .unwrap();
    let c = load(&skill, "pdf");
    let md = c.find("pdf/SKILL.md").unwrap();
    let forms = c.find("pdf/references/forms.md").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("pdf-kit");
    let o = ExportOptions {
        with_catalog: false,
        ..opts(4096)
    };
    let r = export_skill(&c, &[md, forms], &ExposureMap::new(), &dir, &o).unwrap();
    assert_eq!(
        r.files,
        ["SKILL.md", "references/01-pdf.md", "references/02-forms.md"]
    );
    let first = std::fs::read_to_string(dir.join("references/01-pdf.md")).unwrap();
    assert!(
        first.contains("See [forms](02-forms.md#fields) and [the API](reference.md)."),
        "{first}"
    );
    let second = std::fs::read_to_string(dir.join("references/02-forms.md")).unwrap();
    assert!(
        second.contains("Back to [the skill](01-pdf.md)."),
        "{second}"
    );
    assert_eq!(
        r.warnings,
        ["link to a file not in the export: reference.md (in SKILL.md)"]
    );
}
