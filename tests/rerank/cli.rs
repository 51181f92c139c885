//! `skillnav brief` and `search` with the model installed end to end, and the vector file in the user cache dir (docs/DESIGN.md §3 "Re-rank"): a second call encodes
//! only the query, a damaged file is ignored and replaced. Each test has its own
//! `XDG_CACHE_HOME`.

use std::path::{Path, PathBuf};

use serde_json::Value;
use skillnav::rerank::encoder::Encoder;
use skillnav::rerank::store;

use crate::support::child::skillnav_command;
use crate::support::model::{installed_model_dir, installed_models};

fn hono() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/hono")
}

/// Run skillnav with the model installed and `cache` as `XDG_CACHE_HOME`; its stdout.
fn run(cache: &Path, args: &[&str]) -> Vec<u8> {
    let out = skillnav_command()
        .env("SKILLNAV_MODELS_DIR", installed_models().unwrap())
        .env("XDG_CACHE_HOME", cache)
        .args(args)
        .arg(hono())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn json(cache: &Path, args: &[&str]) -> Value {
    serde_json::from_slice(&run(cache, args)).unwrap()
}

/// The `id`s of `v[list]` (content hits only for `hits`).
fn ids(v: &Value, list: &str) -> Vec<String> {
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["source"] != "fuzzy")
        .map(|h| h["id"].as_str().unwrap().to_string())
        .collect()
}

/// The vectors of the vector file under `cache` (`None`: no file or not one of this model).
fn file_entries(cache: &Path) -> Option<Vec<([u8; 16], Vec<f32>)>> {
    let enc = Encoder::open(&installed_model_dir().unwrap()).unwrap();
    let bytes = std::fs::read(store::file_path(&cache.join("skillnav"))).ok()?;
    store::decode(&bytes, &enc.model_id(), enc.dims())
}

const COOKIES: &str = "how do I read cookies in a handler";

#[test]
fn brief_with_the_model_packs_the_sections_the_model_puts_first() {
    if installed_models().is_none() {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let args = [
        "brief",
        "--query",
        COOKIES,
        "--max-tokens",
        "2000",
        "--format",
        "json",
    ];
    let reranked = json(cache.path(), &args);
    let mut without = args.to_vec();
    without.extend(["--semantic", "off"]);
    let plain = json(cache.path(), &without);
    let m = "hono/references/middleware.md#hono_docs---middleware/";
    assert_eq!(
        ids(&plain, "sections"),
        vec![
            format!("{m}body-limit-middleware"),
            "hono/SKILL.md#hono-skill/reference-files".to_string(),
            format!("{m}middleware"),
        ]
    );
    // The model puts first the JWT middleware, whose passage on reading the token from a
    // cookie shares the most words with the question (no section of the fixture is about
    // cookies); it and the middleware overview fill the budget.
    assert_eq!(
        ids(&reranked, "sections"),
        vec![format!("{m}jwt-auth-middleware"), format!("{m}middleware"),]
    );
    assert_eq!(
        (plain["bytes"].as_u64(), reranked["bytes"].as_u64()),
        (Some(3623), Some(4058))
    );
    // The markdown brief of the same requests: its bytes.
    let mut md = vec!["brief", "--query", COOKIES, "--max-tokens", "2000"];
    let text = String::from_utf8(run(cache.path(), &md)).unwrap();
    assert_eq!(text.len(), 6813);
    let provenance: Vec<&str> = text.lines().filter(|l| l.starts_with("`hono/")).collect();
    assert_eq!(
        provenance,
        vec![
            "`hono/references/middleware.md#hono_docs---middleware/jwt-auth-middleware` · references/middleware.md · lines 1156–1267 · score 0.455",
            "`hono/references/middleware.md#hono_docs---middleware/middleware` · references/middleware.md · lines 776–804 · score 0.338",
            "`hono/references/middleware.md#hono_docs---middleware/method-override-middleware` · references/middleware.md · lines 904–974 · score 0.265",
        ]
    );
    md.extend(["--semantic", "off"]);
    assert_eq!(run(cache.path(), &md).len(), 7280);
}

#[test]
fn a_second_search_encodes_only_the_query_and_the_vector_file_holds_the_sections() {
    if installed_models().is_none() {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let q = "limit the file size of the request body";
    let args = ["search", "--json", "--top-k", "3", q];
    let first = json(cache.path(), &args);
    assert_eq!(first["rerank"]["candidates"], 40);
    // The query and one passage of each of the 40 sections (of a long one, the passage
    // sharing the most word pieces with the query).
    assert_eq!(first["rerank"]["embedded"], 41);
    // The passages' vectors are kept (the query's is not).
    assert_eq!(file_entries(cache.path()).map(|e| e.len()), Some(40));
    let second = json(cache.path(), &args);
    assert_eq!(second["rerank"]["embedded"], 1);
    assert_eq!(ids(&second, "hits"), ids(&first, "hits"));
    assert_eq!(second["hits"][0]["score"], first["hits"][0]["score"]);
    // Another query shares most candidates: only the query and the passages not encoded yet
    // (new sections, or another passage of a long one) are encoded.
    let other = json(cache.path(), &["search", "--json", "--top-k", "3", COOKIES]);
    assert_eq!(other["rerank"]["candidates"], 22);
    assert_eq!(other["rerank"]["embedded"], 12);
    assert_eq!(file_entries(cache.path()).map(|e| e.len()), Some(51));
}

#[test]
fn a_damaged_vector_file_is_ignored_and_replaced() {
    if installed_models().is_none() {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let q = "limit the file size of the request body";
    let args = ["search", "--json", "--top-k", "3", q];
    let clean = json(cache.path(), &args);
    let path = store::file_path(&cache.path().join("skillnav"));
    let mut bytes = std::fs::read(&path).unwrap();
    // One flipped bit in a vector: the checksum no longer matches.
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(file_entries(cache.path()), None);
    let again = json(cache.path(), &args);
    assert_eq!(again["rerank"]["embedded"], 41);
    assert_eq!(ids(&again, "hits"), ids(&clean, "hits"));
    assert_eq!(again["hits"][0]["score"], clean["hits"][0]["score"]);
    assert_eq!(file_entries(cache.path()).map(|e| e.len()), Some(40));
    // Not a vector file at all (another program's bytes).
    std::fs::write(&path, b"not a vector file").unwrap();
    let third = json(cache.path(), &args);
    assert_eq!(third["rerank"]["embedded"], 41);
    assert_eq!(file_entries(cache.path()).map(|e| e.len()), Some(40));
}
