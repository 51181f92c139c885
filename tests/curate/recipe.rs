//! Recipes (src/recipe.rs): save on one load, load on the next, report changed and
//! missing sections; the store's save/list/load/delete.

use std::path::Path;

use skillnav::curate::exposure::{Exposure, ExposureMap};
use skillnav::curate::recipe::{Recipe, Store, node_hash, valid_name};
use skillnav::model::{Corpus, Selection};

use crate::support::corpus::load_as;
use crate::support::fs::copy_dir;
use crate::support::fs::fixture_path;

/// `dir` loaded under the label `skills`.
fn load(dir: &Path) -> Corpus {
    load_as(dir, "skills")
}

#[test]
fn recipe_saved_on_one_run_loads_on_the_next_and_reports_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = tmp.path().join("skills");
    copy_dir(&fixture_path("curate/skills"), &skills);
    let store = Store::new(tmp.path().join("recipes"));

    // Run 1: select two sections and a skill, set levels, save.
    let c = load(&skills);
    let mut sel = Selection::new();
    for id in [
        "skills/notes/SKILL.md#notes/record",
        "skills/notes/references/format.md#note-format/tags",
        "skills/deploy",
    ] {
        sel.select(&c, c.find(id).unwrap());
    }
    let mut exp = ExposureMap::new();
    exp.set(
        c.find("skills/notes/references").unwrap(),
        Some(Exposure::Explicit),
    );
    let mut r = Recipe::capture("notes-kit", &c, &sel, &exp);
    r.max_tokens = Some(2000);
    let path = store.save(&r).unwrap();
    assert_eq!(path, tmp.path().join("recipes/notes-kit.json"));
    assert_eq!(store.list(), ["notes-kit"]);
    assert_eq!(r.selected.len(), 3);
    assert_eq!(r.selected[0].hash.len(), 16);

    // Run 2, unchanged: same selection, nothing reported.
    let c2 = load(&skills);
    let back = store.load("notes-kit").unwrap();
    assert_eq!(back, r);
    let a = back.apply(&c2);
    assert!(
        a.changed.is_empty() && a.missing.is_empty(),
        "{:?}",
        a.warnings()
    );
    let ids: Vec<String> = a.selection.members().map(|n| c2.id(n)).collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(
        a.exposure.level(
            &c2,
            c2.find("skills/notes/references/format.md#note-format/tags")
                .unwrap()
        ),
        Exposure::Explicit
    );

    // Edit the Tags section, remove the Rollback heading: changed + (skill hash) changed.
    let fmt = skills.join("notes/references/format.md");
    let text = std::fs::read_to_string(&fmt)
        .unwrap()
        .replace("lower-case words", "short words");
    std::fs::write(&fmt, text).unwrap();
    let c3 = load(&skills);
    let a = back.apply(&c3);
    assert_eq!(
        a.changed,
        [
            "skills/notes/references/format.md#note-format/tags",
            "skills/notes/references"
        ]
    );
    assert!(a.missing.is_empty());
    assert_eq!(
        a.warnings()[0],
        "changed since the recipe was saved: skills/notes/references/format.md#note-format/tags"
    );

    // Remove the Record section: missing.
    let md = skills.join("notes/SKILL.md");
    let text = std::fs::read_to_string(&md)
        .unwrap()
        .replace("## Record", "Record:");
    std::fs::write(&md, text).unwrap();
    let c4 = load(&skills);
    let a = back.apply(&c4);
    assert_eq!(a.missing, ["skills/notes/SKILL.md#notes/record"]);
    assert_eq!(a.selection.len(), 2);

    store.delete("notes-kit").unwrap();
    assert!(store.list().is_empty());
    assert!(store.delete("notes-kit").is_err());
}

#[test]
fn node_hash_is_stable_and_content_based() {
    const TAGS: &str = "skills/notes/references/format.md#note-format/tags";
    const RECORD: &str = "skills/notes/SKILL.md#notes/record";
    let fixture = fixture_path("curate/skills");
    let c = load(&fixture);
    let (tags, record, skill) = (
        c.find(TAGS).unwrap(),
        c.find(RECORD).unwrap(),
        c.find("skills/deploy").unwrap(),
    );
    // Stable: recipes saved by earlier runs compare against these exact values. A section
    // hashes its own text (`printf '## Tags\n\nTags go … words.\n\n' | sha256sum`, first 16
    // hex digits); a folder hashes its files' paths and texts.
    assert_eq!(node_hash(&c, tags), "877ff500a10b8298");
    assert_eq!(node_hash(&c, record), "e2ccc0347bebdd72");
    assert_eq!(node_hash(&c, skill), "0a947b6db0994f9f");

    // Content-based: the same files in another folder hash the same; editing one section
    // changes its hash and leaves the others alone.
    let tmp = tempfile::tempdir().unwrap();
    let skills = tmp.path().join("elsewhere/skills");
    copy_dir(&fixture, &skills);
    let moved = load(&skills);
    assert_eq!(
        node_hash(&moved, moved.find(TAGS).unwrap()),
        "877ff500a10b8298"
    );
    let md = skills.join("notes/references/format.md");
    let text = std::fs::read_to_string(&md)
        .unwrap()
        .replace("lower-case words", "lower-case nouns");
    std::fs::write(&md, text).unwrap();
    let edited = load(&skills);
    assert_ne!(
        node_hash(&edited, edited.find(TAGS).unwrap()),
        "877ff500a10b8298"
    );
    assert_eq!(
        node_hash(&edited, edited.find(RECORD).unwrap()),
        "e2ccc0347bebdd72"
    );
    assert_eq!(
        node_hash(&edited, edited.find("skills/deploy").unwrap()),
        "0a947b6db0994f9f"
    );
}

#[test]
fn recipe_names_and_bad_files() {
    assert!(valid_name("my-kit_2.v1"));
    for bad in ["", ".hidden", "a/b", "a b", &"x".repeat(65)] {
        assert!(!valid_name(bad), "{bad:?}");
    }
    let err =
        Recipe::from_json("{\"schema\": 9, \"name\": \"x\"}", Path::new("r.json")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "r.json: recipe schema 9 is newer than this skillnav (1)"
    );
    assert!(Recipe::from_json("[]", Path::new("r.json")).is_err());
    assert!(Store::new("/tmp").path("../x").is_err());
}
