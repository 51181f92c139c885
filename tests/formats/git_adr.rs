//! git-adr ADR notes (docs/FORMATS.md §4): 34 real notes exported from `refs/notes/adr` plus
//! `_index.json` (tests/fixtures/formats2/git-adr/, see SOURCE.md).

use std::path::PathBuf;

use skillnav::formats::git_adr::{self, filter_by_status, parse_adr};
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind};

use crate::support::fs::fixture_path;

fn dir() -> PathBuf {
    fixture_path("formats2/git-adr/adr-notes")
}

fn load() -> (Corpus, NodeId) {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::GitAdr, "adr", ""));
    let d = git_adr::load(&mut c, r, &dir(), "adr-notes");
    c.finalize();
    (c, d)
}

#[test]
fn detects_the_notes_folder() {
    assert!(git_adr::detect(&dir()));
    assert!(!git_adr::detect(&dir().join("..")));
}

#[test]
fn thirty_four_adrs_with_statuses() {
    let (c, d) = load();
    let adrs: Vec<NodeId> = c
        .preorder(d)
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::Adr)
        .collect();
    assert_eq!(adrs.len(), 34);
    assert_eq!(c.node(d).summary, "34 ADRs: 33 accepted, 1 proposed");
    assert_eq!(c.node(d).meta["statuses"]["accepted"], 33);
    assert!(
        adrs.iter()
            .all(|a| c.node(*a).meta["exposure"] == "explicit")
    );
    let proposed = filter_by_status(&c, d, "Proposed");
    assert_eq!(proposed.len(), 1);
    let p = c.node(proposed[0]);
    assert_eq!(p.title, "Rename Homebrew tap to follow naming conventions");
    assert_eq!(
        p.meta["id"],
        "20251217-rename-homebrew-tap-to-follow-naming-conventions"
    );
    assert_eq!(p.meta["date"], "2025-12-17");
    assert_eq!(filter_by_status(&c, d, "accepted").len(), 33);
    assert!(filter_by_status(&c, d, "rejected").is_empty());
}

#[test]
fn first_adr_fields_and_index_cross_check() {
    let (c, d) = load();
    let first = c
        .find("adr/adr-notes/00000000-use-adrs.md")
        .expect("first adr");
    let n = c.node(first);
    assert_eq!(n.kind, NodeKind::Adr);
    assert_eq!(n.title, "Use Architecture Decision Records");
    assert_eq!(n.summary, "accepted · 2025-12-15 · documentation, process");
    assert_eq!(n.meta["format"], "nygard");
    assert_eq!(
        n.meta["tags"],
        serde_json::json!(["documentation", "process"])
    );
    assert_eq!(n.bytes, 1013);
    assert!(n.warnings.is_empty(), "{:?}", n.warnings);
    let index = c.find("adr/adr-notes/_index.json").expect("index");
    assert_eq!(c.node(index).summary, "index of 34 ADR notes");
    // The export wrote the first line of a multi-line quoted title into _index.json.
    let w: Vec<String> = c
        .node(index)
        .warnings
        .iter()
        .map(|w| w.message.clone())
        .collect();
    assert_eq!(
        w,
        [
            "20251215-madr-format-review-codebase-regarding-madr-format.md: title ''MADR format' in _index.json, \
          'MADR format Review codebase regarding MADR format and create teh ADR record' in the note"
        ]
    );
    assert_eq!(c.node(d).children.len(), 35);
}

#[test]
fn bad_status_and_missing_frontmatter_warn() {
    let r = parse_adr("---\nid: x\ntitle: T\nstatus: Accepted\n---\nbody\n");
    assert_eq!(
        r.warnings,
        [(
            4,
            "status 'Accepted' is not one of proposed, accepted, deprecated, superseded, rejected"
                .to_string()
        )]
    );
    assert_eq!(r.effective_status(), "accepted");
    let r = parse_adr("# no frontmatter\n");
    assert_eq!(r.warnings, [(1, "ADR has no YAML frontmatter".to_string())]);
    let r = parse_adr("---\nid: y\n---\n");
    assert_eq!(r.effective_status(), "proposed");
    assert_eq!(r.warnings, [(1, "ADR has no title".to_string())]);
}

#[test]
fn load_into_root() {
    let mut c = Corpus::new();
    let r = c.add_root(Node::new(NodeKind::Root, Format::GitAdr, "notes", ""));
    git_adr::load_into(&mut c, r, &dir(), "");
    c.finalize();
    assert_eq!(c.node(r).summary, "34 ADRs: 33 accepted, 1 proposed");
    let n = c.find("notes/00000000-use-adrs.md").expect("adr id");
    assert_eq!(c.node(n).kind, NodeKind::Adr);
}
