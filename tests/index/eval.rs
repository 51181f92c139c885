//! `skillnav eval` on the fixture question sets (`tests/fixtures/eval/fixture.json` and
//! `holdout-fixture.json`, see SOURCE.md there): the figures are pinned as counts of questions, so any change to the
//! ranking or the briefs shows here as a changed count.

use std::convert::Infallible;

use skillnav::eval::{EvalOptions, Kind, QuestionSet, Report, evaluate_set};
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::load;
use crate::support::fs::fixture_path;

fn report() -> Report {
    report_of("eval/fixture.json")
}

fn report_of(name: &str) -> Report {
    let file = fixture_path(name);
    let set = QuestionSet::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let opts = EvalOptions {
        max_tokens: 8000,
        counter: TokenCounter::new(Encoding::O200kBase),
        semantic: false,
        rerank: None,
    };
    let base = fixture_path("eval");
    evaluate_set(
        &set,
        &base,
        &[],
        &mut |p| Ok::<_, Infallible>(load(&p[0])),
        &opts,
    )
    .unwrap()
}

/// `(questions, in top 1, in top 5, in the brief)` of one kind, or overall for `None`.
fn counts(r: &Report, kind: Option<Kind>) -> (usize, usize, usize, usize) {
    let os: Vec<_> = r
        .outcomes
        .iter()
        .filter(|o| kind.is_none_or(|k| o.kind == k))
        .collect();
    let within = |d: usize| os.iter().filter(|o| o.rank.is_some_and(|r| r <= d)).count();
    (
        os.len(),
        within(1),
        within(5),
        os.iter().filter(|o| o.in_brief).count(),
    )
}

#[test]
fn eval_fixture_set_figures() {
    let r = report();
    assert!(r.outcomes.iter().all(|o| !o.unresolved));
    assert_eq!(counts(&r, Some(Kind::Verbatim)), (10, 10, 10, 10));
    assert_eq!(counts(&r, Some(Kind::Paraphrase)), (9, 5, 7, 8));
    assert_eq!(counts(&r, Some(Kind::Identifier)), (8, 8, 8, 8));
    assert_eq!(counts(&r, None), (27, 23, 25, 26));
    assert_eq!(r.overall.median_brief_tokens, 6819);
}

/// The held-out questions that run on fixtures (`holdout-fixture.json`): written before any
/// ranking change made with the dev set, so these counts confirm a change, never choose it.
#[test]
fn eval_holdout_fixture_set_figures() {
    let r = report_of("eval/holdout-fixture.json");
    assert!(r.outcomes.iter().all(|o| !o.unresolved));
    assert_eq!(counts(&r, Some(Kind::Verbatim)), (9, 9, 9, 9));
    assert_eq!(counts(&r, Some(Kind::Paraphrase)), (9, 5, 8, 8));
    assert_eq!(counts(&r, Some(Kind::Identifier)), (7, 7, 7, 7));
    assert_eq!(counts(&r, None), (25, 21, 24, 24));
    assert_eq!(r.overall.median_brief_tokens, 7721);
}

#[test]
fn eval_cli_prints_the_same_report() {
    let out = crate::support::child::skillnav_command()
        .args(["eval", "--json"])
        .arg(fixture_path("eval/fixture.json"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Compared as text: serde_json's float parsing may be one ulp off.
    let want = serde_json::to_string(&report()).unwrap() + "\n";
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
    // The text report: the header, one row per kind, then the misses.
    let text = crate::support::child::skillnav_command()
        .arg("eval")
        .arg(fixture_path("eval/fixture.json"))
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    let head: Vec<&str> = text.lines().take(6).collect();
    assert_eq!(
        head,
        [
            "brief budget: 8000 tokens (o200k_base)",
            "                n     R@1     R@5  MRR@10   brief   median",
            "overall        27   0.852   0.926   0.873   0.963     6819",
            "verbatim       10   1.000   1.000   1.000   1.000     7568",
            "paraphrase      9   0.556   0.778   0.620   0.889     6559",
            "identifier      8   1.000   1.000   1.000   1.000     6775",
        ]
    );
}

#[test]
fn question_files_with_a_blank_query_an_empty_gold_or_no_questions_are_refused() {
    let q = |query: &str, gold: &str| {
        format!(
            r#"{{"questions": [{{"id": "ok", "kind": "verbatim", "query": "cookie", "gold": ["x"]}},
                {{"id": "q2", "kind": "verbatim", "query": "{query}", "gold": {gold}}}]}}"#
        )
    };
    let err = |text: &str| {
        QuestionSet::parse(text)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        err(&q("", r#"["x"]"#)),
        Err("question \"q2\": query is empty: pass a few words to search for".into())
    );
    assert_eq!(
        err(&q(" \\t ", r#"["x"]"#)),
        Err("question \"q2\": query is empty: pass a few words to search for".into())
    );
    assert_eq!(
        err(&q("cookie", "[]")),
        Err("question \"q2\": `gold` is empty: name at least one section that answers it".into())
    );
    assert_eq!(
        err(r#"{"questions": []}"#),
        Err("`questions` is empty: the file needs at least one question".into())
    );
    assert_eq!(err(&q("cookie", r#"["x"]"#)), Ok(()));
}

/// `(questions, found)` of each policy over every question of `eval --policies --json` on a
/// doc-tree question file (no model installed).
fn doctree_policies(name: &str) -> Vec<(String, u64, u64)> {
    let out = crate::support::child::succeeded(
        crate::support::child::skillnav_command()
            .args(["eval", "--policies", "--json"])
            .arg(fixture_path(name)),
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["figures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"].is_null())
        .map(|f| {
            let n = f["questions"].as_u64().unwrap();
            let found = (f["found_rate"].as_f64().unwrap() * n as f64).round() as u64;
            (f["policy"].as_str().unwrap().to_string(), n, found)
        })
        .collect()
}

/// The progressive-exposure doc tree of `doctree/RBE-Mini` (docs/FORMATS.md §6): its READMEs
/// are navigation, so the walk and the reads reach the pages (before that, every
/// leaf README outranked its page: outline-walk 15 of 30, search-read 24 of 30). A near tie
/// between a page and its sub-page lifts the folder that holds both: outline-walk 24 → 26.
#[test]
fn eval_doctree_dev_policies_reach_the_pages_not_the_readmes() {
    assert_eq!(
        doctree_policies("eval/doctree-dev.json"),
        [
            ("search-read".to_string(), 30, 28),
            ("brief".to_string(), 30, 30),
            ("outline-walk".to_string(), 30, 26),
        ]
    );
}

/// The doc-tree validation questions: written with the dev ones, never used to choose a
/// change; these counts confirm one.
#[test]
fn eval_doctree_validation_policies() {
    assert_eq!(
        doctree_policies("eval/doctree-validation.json"),
        [
            ("search-read".to_string(), 15, 14),
            ("brief".to_string(), 15, 15),
            ("outline-walk".to_string(), 15, 12),
        ]
    );
}

/// The second doc tree (`doctree/Cargo-Mini`, half of its chapter folders without a page):
/// written after the doc-tree changes were chosen and never used to choose one (before
/// them: search-read 25, brief 29, outline-walk 17 of 30).
#[test]
fn eval_doctree2_validation_policies() {
    assert_eq!(
        doctree_policies("eval/doctree2-validation.json"),
        [
            ("search-read".to_string(), 30, 26),
            ("brief".to_string(), 30, 30),
            ("outline-walk".to_string(), 30, 23),
        ]
    );
}

/// Two more dev trees made through the crawl → collapse → merge → summary pipeline
/// (`doctree/Ref-Mini`, six merged folders; `doctree/Prom-Mini`, three chapter folders
/// without a page). A walk that reaches a short `doc.md` reads it whole, every merged page
/// with it: outline-walk 37 → 38 here for Ref-Mini (39 → 40 with the `MiniLM` model), Prom-Mini
/// unchanged. A near tie between two pages lifts the folder that holds both: Ref-Mini 38 →
/// 39 (40 → 42 with `MiniLM`), Prom-Mini 39 → 39 (38 → 39).
#[test]
fn eval_doctree3_and_doctree4_dev_policies() {
    assert_eq!(
        doctree_policies("eval/doctree3-dev.json"),
        [
            ("search-read".to_string(), 45, 43),
            ("brief".to_string(), 45, 43),
            ("outline-walk".to_string(), 45, 39),
        ]
    );
    assert_eq!(
        doctree_policies("eval/doctree4-dev.json"),
        [
            ("search-read".to_string(), 45, 41),
            ("brief".to_string(), 45, 45),
            ("outline-walk".to_string(), 45, 39),
        ]
    );
}
