//! lazytools BM25 parity: our scorer against the real package's `_bm25` scores for the seven
//! reference queries (fixtures/lazytools/briefs/_`bm25_reference_scores.json`).

use std::path::PathBuf;

use skillnav::formats::lazytools::pyjson::{self as json, Json};
use skillnav::formats::lazytools::read_bundle;
use skillnav::index::lazytools::{rank, tokenize};

use crate::support::fs::fixture_path;

fn fixtures() -> PathBuf {
    fixture_path("lazytools")
}

#[test]
fn hono_reference_scores_match_exactly() {
    let files = read_bundle(&fixtures().join("hono-docs"));
    assert!(files.problems.is_empty(), "{:?}", files.problems);
    assert_eq!(files.chunks.len(), 363);
    let stats = files.stats(Vec::new());
    let text =
        std::fs::read_to_string(fixtures().join("briefs/_bm25_reference_scores.json")).unwrap();
    let Json::Arr(queries) = json::parse(&text).unwrap() else {
        panic!("reference is not an array")
    };
    assert_eq!(queries.len(), 7);
    let mut max_rel = 0.0_f64;
    let mut compared = 0;
    for q in &queries {
        let task = q.get("task").and_then(Json::as_str).unwrap();
        let Some(Json::Arr(want_toks)) = q.get("query_tokens") else {
            panic!()
        };
        let want_toks: Vec<&str> = want_toks.iter().filter_map(Json::as_str).collect();
        assert_eq!(tokenize(task), want_toks, "tokens of {task:?}");
        assert_eq!(q.get("avgdl").and_then(Json::as_f64), Some(stats.avgdl));
        let Some(Json::Arr(top)) = q.get("top10") else {
            panic!()
        };
        let got = rank(&stats, task, 10);
        assert_eq!(got.len(), top.len(), "hit count for {task:?}");
        for (g, w) in got.iter().zip(top) {
            let c = &files.chunks[g.0];
            assert_eq!(
                Some(c.path.as_str()),
                w.get("path").and_then(Json::as_str),
                "{task:?}"
            );
            assert_eq!(
                Some(c.ordinal),
                w.get("ordinal").and_then(Json::as_u64),
                "{task:?}"
            );
            assert_eq!(
                Some(c.heading.as_str()),
                w.get("heading").and_then(Json::as_str),
                "{task:?}"
            );
            let want = w.get("score").and_then(Json::as_f64).unwrap();
            let rel = ((g.1 - want) / want).abs();
            assert!(rel <= 1e-9, "{task:?}: {} vs {want}", g.1);
            max_rel = max_rel.max(rel);
            compared += 1;
        }
    }
    assert_eq!(compared, 60);
    // Same operation order as Python: the scores are bit-identical.
    assert_eq!(max_rel, 0.0);
}
