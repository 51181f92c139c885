//! The plain markdown brief of a large selection under a budget: packed on the piece
//! estimates (header, blocks, left-out ids) as before the one pipeline, so `skillnav brief
//! --select … --max-tokens N` and the TUI's `y` keep their bytes.

use skillnav::brief;
use skillnav::model::Selection;
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::{get, load_as};
use crate::support::fs::{tempdir, write};

/// 80 files `s00.md`…`s79.md`, each one section of 7–161 repeated words.
fn eighty_sections() -> (tempfile::TempDir, skillnav::model::Corpus) {
    let dir = tempdir();
    for i in 0..80u32 {
        let n = (i * 37) % 23 + 1;
        let words = format!("word{i} ").repeat((n * 7) as usize);
        write(dir.path(), &format!("s{i:02}.md"), format!("# Section {i}\n\n{words}\n").as_bytes());
    }
    let c = load_as(dir.path(), "docs");
    (dir, c)
}

#[test]
fn plain_pack_of_many_sections_keeps_the_estimate_first_fit() {
    let (_dir, c) = eighty_sections();
    let mut sel = Selection::new();
    sel.select(&c, get(&c, "docs"));
    let units = sel.units(&c);
    assert_eq!(units.len(), 80);
    let counter = TokenCounter::new(Encoding::Bytes4);
    // The values `skillnav brief --select docs --max-tokens N --encoding bytes4` gave
    // before briefs had one pipeline.
    for (max, sections, tokens, bytes) in [(2000, 14, "1,611", "6,416"), (8000, 51, "7,302", "29,131")] {
        let b = brief::selection_brief(&c, &units, Some(max), counter);
        let sources =
            format!("Sources: docs · {sections} sections · {tokens} tokens (bytes4) · {bytes} bytes");
        assert!(b.text.contains(&sources), "budget {max}: {}", b.text.lines().nth(2).unwrap_or(""));
        assert_eq!(b.sections + b.left_out.len(), 80);
        assert!(b.tokens <= max);
    }
}
