//! BM25 build and query: documents separated by NUL bytes, the last part the query (its
//! first byte chooses prefix expansion). Scores are finite, above 0 and sorted
//! (`tests/fuzzed/checks.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzzed/checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts: Vec<&str> = text.split('\0').collect();
    let query = parts.pop().unwrap_or("");
    if parts.is_empty() {
        parts.push(query);
    }
    let prefix = query.len() % 2 == 0;
    checks::bm25_scores_finite(&parts, query, prefix);
});
