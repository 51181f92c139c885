//! catalog.json parsing and its topic grouping on any text: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::formats::catalog::{parse_catalog, topics};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(cat) = parse_catalog(&text) {
        let _ = topics(&cat);
    }
});
