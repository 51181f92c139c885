//! `eval --triggers`: each skill's `evals/eval_queries.json` or one `--queries` file, routed
//! over each client's listing with search's own ranking (lexical here: no model installed).

use std::process::Output;

use serde_json::Value;

use crate::support::fs::{fixture_path, write};

fn run(args: &[&str], config: Option<&str>) -> Output {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    if let Some(c) = config {
        write(&t.path().join("config"), "config.toml", c.as_bytes());
    }
    crate::support::child::skillnav_command()
        .args(args)
        .env("SKILLNAV_CONFIG_DIR", t.path().join("config"))
        .env("SKILLNAV_MODELS_DIR", t.path().join("no-models"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)))
}

fn p(rel: &str) -> String {
    fixture_path(rel).display().to_string()
}

#[test]
fn per_skill_eval_queries_are_routed_and_scored_per_skill() {
    let dir = p("triggers/per-skill");
    let out = run(
        &[
            "eval",
            "--triggers",
            &dir,
            "--agent",
            "claude-code",
            "--json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["agent"], "claude-code");
    let qs = v["queries"].as_array().cloned().unwrap_or_default();
    assert_eq!(qs.len(), 22);
    // 12 positives, 11 fired: the tenancy-application one is won by pdf-toolkit.
    assert_eq!(v["clients"][0]["overall"]["tp"], 11);
    assert_eq!(v["clients"][0]["overall"]["fn"], 1);
    let miss: Vec<&Value> = qs.iter().filter(|q| q["outcome"] == "beaten").collect();
    assert_eq!(miss.len(), 1);
    assert_eq!(miss[0]["skill"], "pdf-form-filler");
    assert_eq!(miss[0]["winner"], "pdf-toolkit");
    assert_eq!(miss[0]["ranking"][0], "pdf-toolkit");
    // Every query carries the agentskills.io fields and its ranking.
    for q in &qs {
        assert!(
            q["should_trigger"].is_boolean() && q["ranking"].is_array(),
            "{q}"
        );
    }
}

#[test]
fn every_miss_names_the_sibling_that_won_and_min_recall_gates_ci() {
    let (a, b) = (p("overlap-anthropic"), p("overlap"));
    let queries = p("triggers/dev.json");
    let args = |extra: &[&'static str]| {
        let mut v: Vec<String> = [
            "eval",
            "--triggers",
            a.as_str(),
            b.as_str(),
            "--queries",
            queries.as_str(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // Without a model, BM25 fused with the static table ranks 50 of the dev set's 60
    // positives first; BM25 alone (`--semantic off`) 48 (docs/AGENTS.md "Trigger eval"; the
    // installed model lifts it to 52).
    let argv = args(&["--agent", "claude-code", "--json", "--semantic", "off"]);
    let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
    let o = &json(&run(&refs, None))["clients"][0]["overall"];
    assert_eq!((o["tp"].as_u64(), o["fn"].as_u64()), (Some(48), Some(12)));
    let argv = args(&["--agent", "claude-code", "--json"]);
    let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
    let v = json(&run(&refs, None));
    let o = &v["clients"][0]["overall"];
    assert_eq!((o["tp"].as_u64(), o["fn"].as_u64()), (Some(50), Some(10)));
    for q in v["queries"].as_array().into_iter().flatten() {
        if q["outcome"] == "beaten" {
            let w = q["winner"].as_str().unwrap_or("");
            assert!(!w.is_empty() && w != q["skill"], "{q}");
        }
    }
    let gate = |r: &'static str| {
        let argv = args(&["--agent", "claude-code", "--min-recall", r]);
        let refs: Vec<&str> = argv.iter().map(String::as_str).collect();
        run(&refs, None).status.code()
    };
    assert_eq!(gate("0.9"), Some(1));
    assert_eq!(gate("0.75"), Some(0));
}

#[test]
fn a_skill_past_copilots_cut_is_unreachable_for_every_query() {
    let dir = p("triggers/per-skill");
    let out = run(
        &["eval", "--triggers", &dir, "--agent", "copilot", "--json"],
        Some("[agent.copilot]\nbudget_chars = 300\n"),
    );
    let v = json(&out);
    let qs = v["queries"].as_array().cloned().unwrap_or_default();
    assert!(!qs.is_empty());
    for q in &qs {
        assert_eq!(q["winner"], Value::Null, "{q}");
        let want = if q["should_trigger"] == true {
            "unreachable"
        } else {
            "quiet"
        };
        assert_eq!(q["outcome"], want, "{q}");
    }
    assert_eq!(v["clients"][0]["overall"]["recall"], 0.0);
}

#[test]
fn no_eval_queries_anywhere_is_an_error_that_says_what_to_add() {
    let out = run(&["eval", "--triggers", &p("overlap")], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("evals/eval_queries.json"), "{err}");
}

#[test]
fn empty_or_unknown_queries_and_a_bad_min_recall_are_errors() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let dir = p("overlap");
    let empty = t.path().join("empty.json");
    std::fs::write(&empty, "[]").unwrap_or_else(|e| panic!("write: {e}"));
    let typo = t.path().join("typo.json");
    std::fs::write(
        &typo,
        r#"[{"query": "fill in this pdf form for me please now", "should_trigger": true, "skill": "pdf-form-filer"}]"#,
    )
    .unwrap_or_else(|e| panic!("write: {e}"));
    let (e, ty) = (empty.display().to_string(), typo.display().to_string());
    let out = run(&["eval", "--triggers", &dir, "--queries", &e], None);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["eval", "--triggers", &dir, "--queries", &ty], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("pdf-form-filer"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for r in ["1.5", "nan", "-0.1"] {
        let per = p("triggers/per-skill");
        let out = run(&["eval", "--triggers", &per, "--min-recall", r], None);
        assert_eq!(out.status.code(), Some(2), "{r}");
    }
}

#[test]
fn a_failed_gate_says_which_client_and_a_malformed_skill_file_stops_the_eval() {
    let per = p("triggers/per-skill");
    let out = run(
        &[
            "eval",
            "--triggers",
            &per,
            "--agent",
            "claude-code",
            "--min-recall",
            "0.95",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("claude-code recall 0.917 is below --min-recall 0.95"),
        "{err}"
    );
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let copy = t.path().join("per-skill");
    crate::support::fs::copy_dir(&fixture_path("triggers/per-skill"), &copy);
    std::fs::write(copy.join("pdf-toolkit/evals/eval_queries.json"), "garbage")
        .unwrap_or_else(|e| panic!("write: {e}"));
    let c = copy.display().to_string();
    let out = run(&["eval", "--triggers", &c], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_near_miss_won_by_another_skill_is_named_against_the_winner() {
    let per = p("triggers/per-skill");
    let out = run(
        &["eval", "--triggers", &per, "--agent", "claude-code"],
        None,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // Each false positive of the table has its line: release-notes' 8 wrong wins.
    let v = json(&run(
        &[
            "eval",
            "--triggers",
            &per,
            "--agent",
            "claude-code",
            "--json",
        ],
        None,
    ));
    let fp = v["clients"][0]["skills"]["release-notes"]["fp"]
        .as_u64()
        .unwrap_or(0);
    let lines = text
        .lines()
        .filter(|l| {
            l.starts_with("claude-code  release-notes: fired")
                || l.contains(" beaten by release-notes ")
        })
        .count() as u64;
    assert!(fp > 0);
    assert_eq!(lines, fp, "{text}");
}

#[test]
fn a_figure_with_nothing_to_count_is_null_not_a_perfect_score_and_an_empty_query_is_refused() {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let q = t.path().join("q.json");
    std::fs::write(
        &q,
        r#"[{"query":"quantum chromodynamics on a lattice","should_trigger":true,"skill":"pdf-toolkit"}]"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let qs = q.display().to_string();
    let dir = p("overlap");
    let codex = |as_json: bool| {
        let mut args = vec!["eval", "--triggers", "--queries", &qs, "--agent", "codex"];
        if as_json {
            args.push("--json");
        }
        args.push(&dir);
        run(&args, None)
    };
    let v = json(&codex(true));
    let skills = &v["clients"][0]["skills"];
    // pdf-toolkit had one positive and won nothing: recall 0, no precision to speak of.
    assert_eq!(skills["pdf-toolkit"]["recall"], 0.0, "{v}");
    assert_eq!(skills["pdf-toolkit"]["precision"], Value::Null, "{v}");
    assert_eq!(skills["pdf-toolkit"]["f1"], 0.0, "{v}");
    let text = codex(false);
    let text = String::from_utf8_lossy(&text.stdout);
    let row = text
        .lines()
        .find(|l| l.starts_with("pdf-toolkit "))
        .unwrap_or_default();
    assert!(row.ends_with("—  0.00  0.00"), "{text}");
    std::fs::write(
        &q,
        r#"[{"query":"  ","should_trigger":true,"skill":"pdf-toolkit"}]"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = run(&["eval", "--triggers", "--queries", &qs, &dir], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("entry 1 has an empty query"), "{err}");
}
