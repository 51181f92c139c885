//! The heading line scan against pulldown-cmark: fixtures, found cases, generated texts.

use crate::formats::sections::{self, Heading, clamp_range, line_of};

/// Both scans of `text`: (line scanner or `None`, pulldown-cmark).
fn both(text: &str) -> (Option<Vec<Heading>>, Vec<Heading>) {
    // The body after YAML frontmatter, as the loader sections it.
    let body = crate::frontmatter::parse(text).map_or(0, |f| f.block.end.min(text.len()));
    let (from, to) = clamp_range(text, body, text.len());
    (
        sections::headings_by_lines(text, from, to, line_of(text, from)),
        sections::headings(text, body, text.len()),
    )
}

/// Every markdown file under `dir`, recursively.
fn markdown_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            markdown_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "md" || x == "markdown") {
            out.push(p);
        }
    }
}

/// Compare on every markdown file under `dir`; returns (files, declined, disagreements).
fn compare_dir(dir: &std::path::Path) -> (usize, usize, Vec<String>) {
    let mut files = Vec::new();
    markdown_files(dir, &mut files);
    let mut declined = 0;
    let mut bad = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        match both(&text) {
            (None, _) => declined += 1,
            (Some(a), b) if a != b => bad.push(format!("{}: {a:?} vs {b:?}", f.display())),
            _ => {}
        }
    }
    (files.len(), declined, bad)
}

#[test]
fn the_line_scanner_agrees_with_pulldown_on_every_markdown_fixture() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (n, declined, bad) = compare_dir(&dir);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Not vacuous: the fixtures hold 295 markdown files, and the scanner reads nearly
    // all of them itself (2 are left to pulldown-cmark).
    assert!(
        n >= 290 && declined * 20 <= n,
        "{n} files, {declined} declined"
    );
}

/// `SKILLNAV_HEADINGS_DIR=../shared/corpus cargo test --lib agrees_with_pulldown_on_a_folder
/// -- --ignored --nocapture` compares a whole folder (docs/DESIGN.md §8 gives the figures).
#[test]
#[ignore = "measures a folder named by SKILLNAV_HEADINGS_DIR"]
fn agrees_with_pulldown_on_a_folder() {
    let Some(dir) = std::env::var_os("SKILLNAV_HEADINGS_DIR") else {
        return;
    };
    let (n, declined, bad) = compare_dir(std::path::Path::new(&dir));
    println!("{n} files, {declined} declined, {} disagree", bad.len());
    for b in bad.iter().take(5) {
        println!("{b}");
    }
    assert!(bad.is_empty());
}

/// Line pieces the random documents are made of: every construct the scanner models
/// or declines on, with and without indentation.
const PIECES: &[&str] = &[
    "# Title",
    "## Sub *em* `code`",
    "### [link](u) and [ref]",
    "#no",
    "####### seven",
    "#",
    "# closed ##",
    "# with {#anchor}",
    "Text line",
    "more text | with pipe",
    "| a | b |",
    "|---|---|",
    "---",
    "===",
    "-",
    "- - -",
    "***",
    "___",
    "```",
    "```rust",
    "````",
    "~~~",
    "``` a ` b",
    "> quote",
    ">",
    "> # in quote",
    "> ```",
    "- item",
    "- [ ] task",
    "* star",
    "+ plus",
    "1. one",
    "2) two",
    "10. ten",
    "-\tTab item",
    "<div>",
    "</div>",
    "<!-- note",
    "-->",
    "<!-- one line -->",
    "<pre>",
    "</pre>",
    "<br/>",
    "<a href=\"x\">",
    "<img src=x alt='y'>",
    "<sup>1</sup> text",
    "<?php",
    "?>",
    "<![CDATA[",
    "]]>",
    "<!DOCTYPE html>",
    "[ref]: https://example.com",
    "[ref]",
    "[^1]: note",
    "[^1]",
    "\\# escaped",
    "&amp; entity",
    "",
    "   ",
    "\t",
    "\u{c}",
    "café **bold**",
];

fn doc() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let line = (
        prop::sample::select(PIECES.to_vec()),
        prop::sample::select(vec!["", " ", "  ", "   ", "    ", "      ", "\t", " \t"]),
        prop::sample::select(vec!["\n", "\n", "\n", "\r\n"]),
    )
        .prop_map(|(piece, pad, br)| format!("{pad}{piece}{br}"));
    prop::collection::vec(line, 0..24).prop_map(|v| v.concat())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
    #[test]
    fn the_line_scanner_agrees_with_pulldown_or_declines(text in doc()) {
        if let (Some(fast), full) = both(&text) {
            proptest::prop_assert_eq!(fast, full, "text: {:?}", text);
        }
    }
}

/// The scanner's answer on `text` is pulldown-cmark's, or it declines.
fn agrees(text: &str) -> bool {
    match both(text) {
        (Some(fast), full) => fast == full,
        (None, _) => true,
    }
}

/// The headings of `text` by the scanner; panics when it declines.
fn scanned(text: &str) -> Vec<(u8, String, u32)> {
    let (fast, full) = both(text);
    let fast = fast.expect("the scanner reads this text itself");
    assert_eq!(fast, full);
    fast.into_iter()
        .map(|h| (h.level, h.title, h.line))
        .collect()
}

#[test]
fn a_form_feed_line_continues_a_paragraph_so_the_text_is_left_to_pulldown() {
    // Found by the property test: pulldown-cmark ends a paragraph at a line of spaces
    // and tabs but not at a form feed, which it takes for blank elsewhere.
    let text = "]]>\n\u{c}\n---\n";
    assert!(both(text).0.is_none());
    assert_eq!(sections::headings(text, 0, text.len())[0].title, "]]>");
}

#[test]
fn a_tab_before_a_quote_marker_is_left_to_pulldown() {
    // Found by the property test: pulldown-cmark reads `\t>` as the quote going on.
    let text = "# Title\n> quote\n\t>\n``` a ` b\n---\n";
    assert!(both(text).0.is_none());
    assert!(agrees(text));
}

#[test]
fn an_indented_block_start_ends_a_table_so_the_text_is_left_to_pulldown() {
    // Found by the property test: a table row ignores indentation, so `    # Title`
    // ends the table (and is indented code) where a paragraph would go on.
    let text = "more text | with pipe\n|---|---|\n    # Title\n</pre>\n# Title\n";
    assert!(both(text).0.is_none());
    assert!(sections::headings(text, 0, text.len()).is_empty());
}

#[test]
fn lazy_list_lines_fenced_code_and_html_comments_are_read_without_pulldown() {
    let text = "<!-- toc -->\n- [Summary](#summary)\n<!-- /toc -->\n\n# KEP-1: Title\n\n\
                - a list item that wraps\nonto an unindented line\n# Summary\n\n\
                - [ ] (R) a task\n  ```yaml\n  # not a heading\n  ```\n\n## Motivation\n\
                ```\n# not a heading either\n```\nText\n===\n";
    assert_eq!(
        scanned(text),
        [
            (1, "KEP-1: Title".to_string(), 5),
            (1, "Summary".to_string(), 9),
            (2, "Motivation".to_string(), 16),
            (1, "Text".to_string(), 20),
        ]
    );
}

#[test]
fn a_bracket_in_a_heading_is_parsed_alone_unless_a_reference_may_resolve_it() {
    // No `[label]:` in the text: the heading's link is read from its own line.
    let text = "# [KEP-5027](https://example.com/5027): DRA\n\n## Stories [optional]\n";
    assert_eq!(
        scanned(text),
        [
            (1, "KEP-5027: DRA".to_string(), 1),
            (2, "Stories [optional]".to_string(), 3)
        ]
    );
    // `[optional]` is defined: only the whole-text parse resolves it.
    let defined = format!("{text}\n[optional]: https://example.com\n");
    assert!(both(&defined).0.is_none());
    assert_eq!(
        sections::headings(&defined, 0, defined.len())[1].title,
        "Stories optional"
    );
}

#[test]
fn an_html_block_of_kind_7_hides_the_heading_under_it() {
    // One whole tag on its line opens an HTML block that runs to a blank line.
    let text = "<img src=\"logo.png\" alt='logo'>\n# inside the HTML block\n\n# Heading\n";
    assert_eq!(scanned(text), [(1, "Heading".to_string(), 4)]);
    // A tag with more after it is paragraph text, which a heading line interrupts.
    let text = "<a id=\"anchor\"></a>\n# After the anchor\n";
    assert_eq!(scanned(text), [(1, "After the anchor".to_string(), 2)]);
}
