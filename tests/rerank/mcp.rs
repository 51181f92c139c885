//! The MCP server with a re-rank model (docs/DESIGN.md §3 "Re-rank"; `[search] rerank_model`
//! names the installed one), driven by the official MCP Python SDK
//! (`tests/rerank/mcp_client.py`): its `search` tool returns the re-ranked order, the same
//! as `skillnav search` with the model, with `"rerank"` among each
//! re-ranked hit's signals. Skipped with a message when python3 or the `mcp` package is
//! missing, unless `CI` is set (then it fails), as `tests/mcp/python.rs` does.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use super::model::model_dir;
use crate::support::python::mcp_sdk_or_skip;

#[test]
fn mcp_search_with_a_model_returns_the_reranked_order() {
    let Some(model) = model_dir() else { return };
    if !mcp_sdk_or_skip() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let config = work.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    let model = model.display().to_string();
    std::fs::write(
        config.join("config.toml"),
        format!("[search]\nrerank_model = {}\n", json!(model)),
    )
    .unwrap();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/index/hono");
    let out = Command::new("python3")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/rerank/mcp_client.py"))
        .arg(env!("CARGO_BIN_EXE_skillnav"))
        .arg(&root)
        .arg(work.path())
        .arg("how do I read cookies in a handler")
        .env_remove("SKILLNAV_RERANK_MODEL")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "mcp_client.py failed\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = "hono/references/middleware.md#hono_docs---middleware/";
    let rr = json!(["bm25", "rerank"]);
    assert_eq!(
        v["hits"],
        json!([
            [format!("{m}jwt-auth-middleware"), rr],
            [format!("{m}language-middleware"), rr],
            ["hono/references/guides.md#hono_docs---guides/rpc", rr],
        ])
    );
    assert_eq!(v["rerank"]["candidates"], 22);
}
