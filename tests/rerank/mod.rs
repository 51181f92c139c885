//! The re-rank tier (docs/DESIGN.md §3 "Re-rank"): skillnav's `WordPiece` against the model's
//! own tokenizer (always), and with the cargo feature `rerank` the encoder's vectors against
//! a numpy reference, the missing-file errors, `search` and `brief --rerank` end to end, the
//! vector file, and the MCP server re-ranking with `[search] rerank = true`.

#[cfg(feature = "rerank")]
mod cli;
#[cfg(feature = "rerank")]
mod mcp;
#[cfg(not(feature = "rerank"))]
mod missing;
#[cfg(feature = "rerank")]
mod model;
mod tokens;

use serde_json::Value;

/// `tests/fixtures/rerank/golden.json`.
pub fn golden() -> Value {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rerank/golden.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}
