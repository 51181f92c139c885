//! The heading line scan against the `CommonMark` parse on any text: the same headings, or
//! the scan declines and the parse answers (`tests/fuzzed/checks.rs`). The first byte picks
//! where the sectioned range starts.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzzed/checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    let Some((&from, rest)) = data.split_first() else {
        return;
    };
    checks::heading_scans_agree(&String::from_utf8_lossy(rest), usize::from(from));
});
