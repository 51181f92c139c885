//! Markdown sectioning on any text: section byte ranges lie inside the file, on char
//! boundaries, are ordered and cover it (`tests/fuzzed/checks.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzzed/checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::markdown_sections_tile(&String::from_utf8_lossy(data));
});
