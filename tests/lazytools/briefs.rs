//! `query_skill` parity: the seven real briefs of lazybridge 0.7.9 on the Hono bundle
//! (fixtures/lazytools/briefs/, arguments from `_queries.json`) reproduced byte for byte.

use std::path::PathBuf;

use skillnav::brief::lazytools::{Mode, QuerySkillOptions, query_skill, resolve_mode};
use skillnav::formats::lazytools::pyjson::{self as json, Json};
use skillnav::formats::lazytools::read_bundle;

use crate::support::fs::fixture_path;

fn fixtures() -> PathBuf {
    fixture_path("lazytools")
}

#[test]
fn seven_real_briefs_are_byte_identical() {
    let files = read_bundle(&fixtures().join("hono-docs"));
    let stats = files.stats(Vec::new());
    let text = std::fs::read_to_string(fixtures().join("briefs/_queries.json")).unwrap();
    let Json::Arr(queries) = json::parse(&text).unwrap() else {
        panic!("not an array")
    };
    assert_eq!(queries.len(), 7);
    for q in &queries {
        let file = q.get("file").and_then(Json::as_str).unwrap();
        let task = q.get("task").and_then(Json::as_str).unwrap();
        let mode = Mode::parse(q.get("mode_arg").and_then(Json::as_str).unwrap()).unwrap();
        let resolved = q.get("resolved_mode").and_then(Json::as_str).unwrap();
        let kw = q.get("kwargs").unwrap();
        let mut opts = QuerySkillOptions {
            mode,
            ..Default::default()
        };
        if let Some(Json::Bool(b)) = kw.get("include_quotes") {
            opts.include_quotes = *b;
        }
        if let Some(n) = kw.get("top_k").and_then(Json::as_u64) {
            opts.top_k = n as usize;
        }
        if let Some(n) = kw.get("max_chars").and_then(Json::as_u64) {
            opts.max_chars = n as usize;
        }
        let want = std::fs::read_to_string(fixtures().join("briefs").join(file)).unwrap();
        let got = query_skill(&stats, task, &opts);
        if mode == Mode::Auto {
            assert_eq!(resolve_mode(task).as_str(), resolved, "{file}");
        }
        assert_eq!(
            got.chars().count() as u64,
            q.get("chars").and_then(Json::as_u64).unwrap(),
            "{file}"
        );
        assert!(
            got == want,
            "{file} differs:\n--- got\n{got}\n--- want\n{want}"
        );
    }
}

/// Briefs on the hand-made quirks bundle (`top_k` 0 → 1, a Kelvin sign lowering to ASCII `k`,
/// extract with `top_k` 20, summarize, a 137-char cut inside multi-byte text, answer without
/// quotes, an all-stopword task): expected texts written by the real lazybridge 0.7.9
/// `query_skill` on `fixtures/lazytools/quirks/expected`.
#[test]
fn quirks_briefs_match_real_lazytools_output() {
    let dir = fixtures().join("quirks/expected");
    let files = read_bundle(&dir);
    assert!(files.problems.is_empty(), "{:?}", files.problems);
    let stats = files.stats(Vec::new());
    let text = std::fs::read_to_string(dir.join("briefs.json")).unwrap();
    let Json::Arr(cases) = json::parse(&text).unwrap() else {
        panic!("not an array")
    };
    assert_eq!(cases.len(), 6);
    for q in &cases {
        let task = q.get("task").and_then(Json::as_str).unwrap();
        let opts = QuerySkillOptions {
            mode: Mode::parse(q.get("mode").and_then(Json::as_str).unwrap()).unwrap(),
            top_k: q.get("top_k").and_then(Json::as_u64).unwrap() as usize,
            max_chars: q.get("max_chars").and_then(Json::as_u64).unwrap() as usize,
            include_quotes: q.get("iq") == Some(&Json::Bool(true)),
        };
        let want = q.get("brief").and_then(Json::as_str).unwrap();
        let got = query_skill(&stats, task, &opts);
        assert!(
            got == want,
            "{task:?} differs:\n--- got\n{got}\n--- want\n{want}"
        );
    }
}
