//! Search without a re-rank model (docs/DESIGN.md §3 "Re-rank"): lexical, the same bytes as
//! `--semantic off`, with one line on stderr saying how to install a model (never in
//! `--json` stdout); an old `config.toml` with the removed `[search] rerank` key still loads;
//! the MCP `instructions` carry the same hint. Every child's models folder is empty
//! ([`crate::support::child::TEST_MODELS_DIR`]).

use std::path::{Path, PathBuf};

use crate::support::child::skillnav_command;

const HINT: &str = "skillnav: no re-rank model is installed, so the transformer tier is off; `skillnav model install` (about 91 MB) turns it on\n";

fn hono() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/hono")
}

/// Exit code, stdout and stderr of `skillnav ARGS… <hono>` with `config` as the config folder.
fn run(config: &Path, args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = skillnav_command()
        .env("SKILLNAV_CONFIG_DIR", config)
        .args(args)
        .arg(hono())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn search_without_a_model_is_lexical_and_says_once_how_to_install_one() {
    let config = tempfile::tempdir().unwrap();
    let q = "limit the file size of the request body";
    let (code, auto, err) = run(config.path(), &["search", q]);
    assert_eq!((code, err.as_str()), (0, HINT));
    let (code, off, err) = run(config.path(), &["search", "--semantic", "off", q]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(auto, off);
    let text = String::from_utf8(auto).unwrap();
    assert!(text.contains("Content (BM25): "), "{text}");
}

#[test]
fn search_json_without_a_model_keeps_the_hint_on_stderr() {
    let config = tempfile::tempdir().unwrap();
    let (code, out, err) = run(config.path(), &["search", "--json", "body limit"]);
    assert_eq!((code, err.as_str()), (0, HINT));
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["query"], "body limit");
    assert!(v.get("rerank").is_none(), "{v}");
}

#[test]
fn an_old_config_with_the_removed_rerank_key_still_loads() {
    let config = tempfile::tempdir().unwrap();
    std::fs::write(
        config.path().join("config.toml"),
        "[search]\nrerank = true\ntop_k = 7\n",
    )
    .unwrap();
    let (code, with_old_key, err) = run(config.path(), &["search", "body limit"]);
    assert_eq!((code, err.as_str()), (0, HINT));
    let clean = tempfile::tempdir().unwrap();
    let (_, without, _) = run(clean.path(), &["search", "body limit"]);
    assert_eq!(with_old_key, without);
    // `semantic = false`, the old boolean, turns every semantic signal off: no hint.
    std::fs::write(
        config.path().join("config.toml"),
        "[search]\nrerank = true\nsemantic = false\n",
    )
    .unwrap();
    let (code, off, err) = run(config.path(), &["search", "body limit"]);
    assert_eq!((code, err.as_str(), off), (0, "", without));
}

#[test]
fn the_rerank_flag_is_gone() {
    let config = tempfile::tempdir().unwrap();
    let (code, out, err) = run(config.path(), &["search", "--rerank", "body limit"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("unexpected argument '--rerank'"), "{err}");
}

#[cfg(feature = "mcp")]
#[test]
fn mcp_instructions_say_how_to_install_a_model() {
    let root = hono();
    // The listing and the hint are in instructions once the load is done first.
    let rpc =
        crate::mcp::rpc::Rpc::ready([root.as_os_str(), std::ffi::OsStr::new("--wait-for-load")]);
    let instructions = rpc.init["result"]["instructions"]
        .as_str()
        .unwrap()
        .to_string();
    rpc.finish();
    let hint = HINT.trim_start_matches("skillnav: ").trim_end();
    assert_eq!(instructions.matches(hint).count(), 1, "{instructions}");
}

#[cfg(feature = "tui")]
#[test]
fn the_tui_status_line_says_once_how_to_install_a_model() {
    use skillnav::tui::input::action::Action;

    use crate::support::tui::{act, app_with, spec};

    // The default settings: `semantic = "auto"`.
    let settings = skillnav::config::SearchSettings::default();
    assert_eq!(settings.semantic, skillnav::config::Semantic::Auto);
    if skillnav::rerank::model_dir(&settings).is_some() {
        // This user has a model installed: the status line says nothing about it.
        assert!(
            !crate::support::child::under_ci(),
            "CI has no model installed"
        );
        return;
    }
    let store = tempfile::tempdir().unwrap();
    let mut app = app_with(vec![spec(&hono(), "hono")], 100, 20, store.path(), |app| {
        app.settings.search.semantic = skillnav::config::Semantic::Auto;
    });
    // Said after the load summary, not in its place.
    assert!(
        app.status.starts_with("Loaded ") && app.status.ends_with(skillnav::rerank::HINT),
        "{}",
        app.status
    );
    assert!(app.index.as_ref().is_some_and(|i| i.reranker().is_none()));
    // A reload builds the indexes again: the hint is not repeated.
    app.status.clear();
    act(&mut app, &[Action::ReloadAll]);
    assert_eq!(
        app.status.matches("no re-rank model").count(),
        0,
        "{}",
        app.status
    );
}

#[test]
fn a_model_folder_that_does_not_load_is_a_warning_and_search_stays_lexical() {
    let config = tempfile::tempdir().unwrap();
    let broken = config.path().join("no-such-model");
    let out = skillnav_command()
        .env("SKILLNAV_CONFIG_DIR", config.path())
        .env("SKILLNAV_RERANK_MODEL", &broken)
        .args(["search", "body limit"])
        .arg(hono())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "skillnav: re-rank tier unavailable, so the transformer tier is off: re-rank model: missing file {}\n",
            broken.join("vocab.txt").display()
        )
    );
    let (_, off, _) = run(
        config.path(),
        &["search", "--semantic", "off", "body limit"],
    );
    assert_eq!(out.stdout, off);
}
