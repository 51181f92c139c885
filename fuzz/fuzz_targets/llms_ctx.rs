//! The llms-ctx (`<project>`, `<doc>`) parser and loader on any text: no panic; every node's span lies inside the
//! file, on char boundaries, in order (`tests/fuzzed/checks.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::formats::llms_txt::{LlmsKind, parse_llms_ctx};

#[path = "../../tests/fuzzed/checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_llms_ctx(&text);
    checks::llms_spans_inside(&text, LlmsKind::Ctx);
});
