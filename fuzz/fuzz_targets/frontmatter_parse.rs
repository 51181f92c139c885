//! Frontmatter parsing (`frontmatter::parse`, `parse_tree`, `edit::get`, `repair`) on any
//! bytes: no panic; entries and the block lie inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::frontmatter;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(fm) = frontmatter::parse(&text) {
        assert!(fm.block.end <= text.len());
        for e in &fm.entries {
            let _ = fm.get(&e.key);
        }
    }
    if let Some(tree) = frontmatter::parse_tree(&text) {
        let _ = tree;
    }
    let _ = frontmatter::edit::get(data, "metadata.tags");
    let (fixed, lines) = frontmatter::repair(data);
    if lines.is_empty() {
        assert_eq!(fixed, data, "repair changed bytes without reporting a fix");
    }
});
