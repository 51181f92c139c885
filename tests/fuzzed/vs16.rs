//! A VS16 (U+FE0F) in another inline span than its base (`**❤**\u{FE0F}`: the `**` runs
//! that do not form emphasis are text events of their own, and the VS16 after the second
//! one makes `*` a 2-cell emoji). Measured span by span the line was a cell short: it
//! overflowed its width, and in a table it tripped the layout's width check.

use skillnav::render::{RenderOptions, render_markdown, str_width};

/// Plain lines of `md` at `width`, checking each line's measured width against its joined
/// text and the width.
fn render(md: &str, width: u16) -> Vec<String> {
    let r = render_markdown(
        md,
        &RenderOptions {
            width,
            ..RenderOptions::default()
        },
    );
    for l in &r.lines {
        let plain = l.plain();
        assert_eq!(l.width(), str_width(&plain), "{plain:?}");
        assert!(
            str_width(&plain) <= usize::from(width),
            "{plain:?} wider than {width}"
        );
    }
    r.lines.iter().map(|l| l.plain()).collect()
}

#[test]
fn vs16_after_bold_markers_counts_two_cells_in_a_paragraph() {
    assert_eq!(str_width("**❤**\u{FE0F}"), 6);
    assert_eq!(render("**❤**\u{FE0F}\n", 6), ["**❤**\u{FE0F}"]);
    assert_eq!(render("**❤**\u{FE0F}\n", 5), ["**❤*", "*\u{FE0F}"]);
    assert_eq!(render("x **❤**\u{FE0F} y\n", 7), ["x **❤*", "*\u{FE0F} y"]);
}

#[test]
fn vs16_after_bold_markers_in_a_table_cell_keeps_the_border_aligned() {
    assert_eq!(
        render("| a | b |\n|---|---|\n| **❤**\u{FE0F} | x |\n", 40),
        [
            "┌────────┬───┐",
            "│ a      │ b │",
            "├────────┼───┤",
            "│ **❤**\u{FE0F} │ x │",
            "└────────┴───┘",
        ]
    );
}
