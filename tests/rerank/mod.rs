//! The re-rank tier (docs/DESIGN.md §3 "Re-rank"): skillnav's `WordPiece` against the model's
//! own tokenizer, search without a model (`nomodel`), `skillnav model install|list|remove`
//! against a loopback hub and local sources (`install`), and, with the default model
//! installed from `tools/fetch-model.sh`, the encoder's vectors against a numpy reference,
//! the missing-file errors, `search` and `brief` end to end, the vector file, and the MCP
//! server re-ranking.

mod cli;
mod install;
#[cfg(feature = "mcp")]
mod mcp;
mod model;
mod nomodel;
mod tokens;

use serde_json::Value;

/// `tests/fixtures/rerank/golden.json`.
pub fn golden() -> Value {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rerank/golden.json"),
    )
    .unwrap();
    serde_json::from_slice(text.as_bytes()).unwrap()
}
