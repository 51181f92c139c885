//! A vocab.json IDF of `1e999` (Python reads it as `inf`): `search` dropped the infinite
//! scores while `brief --format lazytools` kept them, so the two listed different chunks.

use skillnav::brief::lazytools::{QuerySkillOptions, query_skill};
use skillnav::formats::lazytools::read_bundle;
use skillnav::index::{Index, SearchOptions};

use crate::support::corpus::load_as;
use crate::support::fs::{copy_dir, fixture_path, tempdir};

#[test]
fn vocab_idf_1e999_gives_the_same_finite_chunks_to_search_and_brief() {
    let dir = tempdir();
    let bundle = dir.path().join("hono-docs");
    copy_dir(&fixture_path("lazytools").join("hono-docs"), &bundle);
    let vocab = std::fs::read_to_string(bundle.join("vocab.json")).unwrap();
    let old = "\"app\": 0.7295148247308203,";
    assert!(vocab.contains(old));
    std::fs::write(
        bundle.join("vocab.json"),
        vocab.replace(old, "\"app\": 1e999,"),
    )
    .unwrap();

    let stats = read_bundle(&bundle).stats(Vec::new());
    let ranked = skillnav::index::lazytools::rank(&stats, "app context", 8);
    assert_eq!(ranked.len(), 8);
    for &(i, score) in &ranked {
        assert!(score.is_finite() && score > 0.0);
        // Every chunk holding `app` scored `inf` and is left out.
        assert!(!stats.chunk_tokens[i].iter().any(|t| t == "app"));
    }

    // The search lists the same chunks with the same scores.
    let c = load_as(&bundle, "hono");
    let idx = Index::build(&c, &mut |_, _| {});
    let r = idx.search(
        &c,
        "app context",
        &SearchOptions {
            top_k: 8,
            prefix: false,
        },
    );
    let got: Vec<(String, f64)> = r.hits.iter().map(|h| (c.id(h.node), h.score)).collect();
    assert_eq!(
        got.iter().map(|g| g.1).collect::<Vec<_>>(),
        ranked.iter().map(|r| r.1).collect::<Vec<_>>()
    );
    assert_eq!(
        got[0].0,
        "hono/middleware/builtin/context-storage.md#chunk-0"
    );
    assert_eq!(got[1].0, "hono/guides/middleware.md#chunk-5");

    // The brief's best evidence is the first five of them, in order.
    let brief = query_skill(&stats, "app context", &QuerySkillOptions::default());
    let files: Vec<&str> = brief
        .split("Best evidence:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with("  - "))
        .map(|l| l.rsplit_once("  [").unwrap().1.trim_end_matches(']'))
        .collect();
    let want: Vec<&str> = ranked[..5]
        .iter()
        .map(|&(i, _)| stats.chunk_paths[i].rsplit('/').next().unwrap())
        .collect();
    assert_eq!(files, want);
    assert_eq!(
        files,
        [
            "context-storage.md",
            "middleware.md",
            "basic-auth.md",
            "csrf.md",
            "middleware.md"
        ]
    );
}
