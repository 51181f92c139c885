//! The plain markdown brief of a large selection under a budget: every layout is packed by
//! the one exact first-fit step, which keeps at least the sections the plain layout's former
//! piece-estimate packing kept, and never goes over the budget.

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
        write(
            dir.path(),
            &format!("s{i:02}.md"),
            format!("# Section {i}\n\n{words}\n").as_bytes(),
        );
    }
    let c = load_as(dir.path(), "docs");
    (dir, c)
}

#[test]
fn plain_pack_of_many_sections_keeps_at_least_what_the_estimate_packing_kept() {
    let (_dir, c) = eighty_sections();
    let mut sel = Selection::new();
    sel.select(&c, get(&c, "docs"));
    let units = sel.units(&c);
    assert_eq!(units.len(), 80);
    let counter = TokenCounter::new(Encoding::Bytes4);
    // `old`: the sections `skillnav brief --select docs --max-tokens N --encoding bytes4`
    // kept with the former plain packing (on piece estimates); `now`: the one packer's.
    for (max, old, now) in [(2000, 14, 15), (8000, 51, 52)] {
        let b = brief::selection_brief(&c, &units, Some(max), counter);
        assert!(b.tokens <= max, "budget {max}: {} tokens", b.tokens);
        assert!(
            b.sections >= old,
            "budget {max}: {} sections, fewer than the {old} kept before",
            b.sections
        );
        assert_eq!(
            b.sections,
            now,
            "budget {max}: {}",
            b.text.lines().nth(2).unwrap_or("")
        );
        assert_eq!(b.sections + b.left_out.len(), 80);
    }
}
