//! Sanitizing untrusted text: no ESC, C1 or bidi controls survive (`tests/fuzzed/checks.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzzed/checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::sanitized_is_clean(&String::from_utf8_lossy(data));
});
