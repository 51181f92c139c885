//! `build_bundle` parity: building the Hono input docs reproduces the real lazytools bundle
//! (fixtures/lazytools/hono-docs) byte for byte apart from absolute paths, `created_by` and
//! vocab.json's key order; and an existing bundle is only replaced with `force`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use skillnav::error::Error;
use skillnav::formats::lazytools::read_bundle;
use skillnav::formats::lazytools::write::{BuildOptions, CREATED_BY, build_bundle};

use crate::support::fs::fixture_path;

fn fixtures() -> PathBuf {
    fixture_path("lazytools")
}

const REAL_ROOT: &str = "/tmp/lt-run/hono-docs";
const REAL_CREATED_BY: &str = "lazybridge.external_tools.doc_skills";

fn hono_opts() -> BuildOptions {
    let mut o = BuildOptions::new("Hono Docs");
    o.description = Some(
        "Hono web framework documentation (routing, middleware, helpers, getting-started guides)."
            .into(),
    );
    o
}

/// Build into a temp dir from a copy of the inputs, return (temp guard, bundle dir, our root).
fn build_hono() -> (tempfile::TempDir, PathBuf, String) {
    let tmp = tempfile::tempdir().unwrap();
    let input = std::fs::canonicalize(fixtures().join("input/hono-docs")).unwrap();
    let dir = build_bundle(
        std::slice::from_ref(&input),
        &tmp.path().join("out"),
        &hono_opts(),
    )
    .unwrap();
    (tmp, dir, input.to_string_lossy().into_owned())
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn hono_build_reproduces_real_bundle() {
    let (_tmp, dir, root) = build_hono();
    assert_eq!(dir.file_name().unwrap(), "hono-docs");
    let real = fixtures().join("hono-docs");
    let fix = |s: String| {
        s.replace(&root, REAL_ROOT)
            .replace(CREATED_BY, REAL_CREATED_BY)
    };

    // chunks.jsonl, manifest.json and SKILL.md are byte-identical after the path swap.
    for f in ["chunks.jsonl", "manifest.json", "SKILL.md"] {
        let ours = fix(read(&dir.join(f)));
        let theirs = read(&real.join(f));
        assert!(ours == theirs, "{f} differs");
    }

    // vocab.json: same entries, same float spelling; only the key order may differ.
    let lines = |s: String| {
        let mut v: Vec<String> = s
            .lines()
            .map(|l| l.trim_end_matches(',').to_string())
            .filter(|l| l.len() > 1)
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        lines(read(&dir.join("vocab.json"))),
        lines(read(&real.join("vocab.json")))
    );

    // Read back: IDF map and avgdl are exactly equal as f64.
    let ours = read_bundle(&dir);
    let theirs = read_bundle(&real);
    assert!(ours.problems.is_empty(), "{:?}", ours.problems);
    assert_eq!(ours.manifest.avgdl, theirs.manifest.avgdl);
    assert_eq!(ours.manifest.avgdl, 100.79338842975207);
    assert_eq!(ours.idf.len(), 4437);
    let a: HashMap<_, _> = ours
        .idf
        .iter()
        .map(|(k, v)| (k.clone(), v.to_bits()))
        .collect();
    let b: HashMap<_, _> = theirs
        .idf
        .iter()
        .map(|(k, v)| (k.clone(), v.to_bits()))
        .collect();
    assert_eq!(a, b);
    assert_eq!(ours.chunks.len(), 363);
    assert_eq!(ours.manifest.indexed_files.len(), 85);
}

#[test]
fn existing_bundle_is_refused_without_force() {
    let (tmp, dir, _) = build_hono();
    std::fs::write(dir.join("marker"), "x").unwrap();
    let input = fixtures().join("input/hono-docs");
    let err = build_bundle(
        std::slice::from_ref(&input),
        &tmp.path().join("out"),
        &hono_opts(),
    )
    .unwrap_err();
    match err {
        Error::Refused(msg) => assert!(msg.contains(&*dir.to_string_lossy()), "{msg}"),
        other => panic!("expected Refused, got {other:?}"),
    }
    assert!(dir.join("marker").exists());
    let mut forced = hono_opts();
    forced.force = true;
    let again = build_bundle(&[input], &tmp.path().join("out"), &forced).unwrap();
    assert_eq!(again, dir);
    assert!(!dir.join("marker").exists());
    assert!(dir.join("chunks.jsonl").exists());
}

#[test]
fn build_without_documents_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::write(empty.join("image.png"), [0u8, 1, 2]).unwrap();
    let err = build_bundle(&[empty], &tmp.path().join("out"), &BuildOptions::new("x")).unwrap_err();
    assert!(
        matches!(err, Error::Usage(ref m) if m.contains("no indexable documentation")),
        "{err:?}"
    );
    let err = build_bundle(
        &[tmp.path().join("missing")],
        &tmp.path().join("out"),
        &BuildOptions::new("x"),
    )
    .unwrap_err();
    assert!(
        matches!(err, Error::Usage(ref m) if m.starts_with("not a directory")),
        "{err:?}"
    );
}

/// Hand-made inputs with the chunker's quirks (lone `#` line joining the next heading, CRLF
/// and CR, tabs, a kept long preamble, a merged tiny section, an H5 that is no boundary, a
/// heading inside a fence, a split section `[2]`, char mode for .txt/.rst, invalid UTF-8,
/// Unicode whitespace, a hidden folder kept and a hidden file skipped, an upper-case `.MD`):
/// the expected files were written by the real lazybridge 0.7.9 `build_skill` on the same
/// inputs (root path replaced by `<ROOT>`).
#[test]
fn quirks_build_matches_real_lazytools_output() {
    let tmp = tempfile::tempdir().unwrap();
    let quirks = fixtures().join("quirks");
    let input = std::fs::canonicalize(quirks.join("input/docs")).unwrap();
    let dir = build_bundle(
        std::slice::from_ref(&input),
        tmp.path(),
        &BuildOptions::new("Quirks Ünï"),
    )
    .unwrap();
    assert_eq!(dir.file_name().unwrap(), "quirks-n");
    let root = input.to_string_lossy().into_owned();
    for f in ["chunks.jsonl", "manifest.json", "SKILL.md", "vocab.json"] {
        let ours = read(&dir.join(f))
            .replace(&root, "<ROOT>")
            .replace(CREATED_BY, REAL_CREATED_BY);
        let theirs = read(&quirks.join("expected").join(f));
        if f == "vocab.json" {
            let mut a: Vec<&str> = ours.lines().map(|l| l.trim_end_matches(',')).collect();
            let mut b: Vec<&str> = theirs.lines().map(|l| l.trim_end_matches(',')).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        } else {
            assert!(ours == theirs, "{f} differs:\n{ours}\n---\n{theirs}");
        }
    }
}
