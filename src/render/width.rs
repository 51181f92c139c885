//! Display-width utilities in terminal cells: measuring and truncating plain text with `…`
//! (styled lines are cut and wrapped in [`wrap`](mod@crate::render::wrap)). Text is always
//! cut on grapheme-cluster boundaries (unicode-segmentation), and widths come from
//! unicode-width per grapheme, so CJK and emoji count 2 cells and a combining sequence stays
//! whole.
//!
//! The width of a string is defined as the *sum of its graphemes' widths*; every function here
//! uses that one definition, so a result never measures wider than the limit it was cut to.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The ellipsis appended when text is cut (1 cell).
pub const ELLIPSIS: &str = "…";

/// Width in cells of one grapheme cluster (0 for a lone combining mark, 2 for CJK/emoji).
pub fn grapheme_width(g: &str) -> usize {
    UnicodeWidthStr::width(g)
}

/// True for characters whose width depends on their neighbours inside a grapheme cluster
/// (ZWJ and variation selectors, emoji modifiers, regional indicators, tag characters,
/// conjoining Hangul jamo, Lisu tone letters, the combining long solidus, and CR: `\r\n` is
/// one grapheme of 1 cell, not 2).
fn context_sensitive(c: char) -> bool {
    matches!(c,
        '\r' | '\u{200D}' | '\u{FE0E}' | '\u{FE0F}' | '\u{0338}'
        | '\u{1100}'..='\u{11FF}' | '\u{A960}'..='\u{A97F}' | '\u{D7B0}'..='\u{D7FF}'
        | '\u{A4F8}'..='\u{A4FD}' | '\u{1F1E6}'..='\u{1F1FF}' | '\u{1F3FB}'..='\u{1F3FF}'
        | '\u{E0020}'..='\u{E007F}')
}

/// True when every byte of `s` is printable ASCII (each one grapheme of one cell).
pub(crate) fn is_printable_ascii(s: &str) -> bool {
    s.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// Width of `s` in terminal cells: the sum of its graphemes' widths. (Fast paths: printable
/// ASCII is one cell per byte; text without context-sensitive characters sums per-char
/// widths, which equals the per-grapheme sum.)
pub fn str_width(s: &str) -> usize {
    if is_printable_ascii(s) {
        return s.len();
    }
    let mut w = 0;
    let mut buf = [0u8; 4];
    for c in s.chars() {
        if context_sensitive(c) {
            return s.graphemes(true).map(grapheme_width).sum();
        }
        w += match UnicodeWidthChar::width(c) {
            Some(cw) if !c.is_control() => cw,
            _ => UnicodeWidthStr::width(&*c.encode_utf8(&mut buf)),
        };
    }
    w
}

/// Cut `s` to at most `max_cells` cells. When it is cut, the result ends with `…` (which uses
/// one of the cells); a 2-cell grapheme that does not fit before the `…` is dropped, never
/// split. `max_cells == 0` gives `""`. Returns `s` unchanged when it fits.
pub fn truncate(s: &str, max_cells: usize) -> String {
    if str_width(s) <= max_cells {
        return s.to_string();
    }
    if max_cells == 0 {
        return String::new();
    }
    let budget = max_cells - 1;
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let w = grapheme_width(g);
        if used + w > budget {
            break;
        }
        out.push_str(g);
        used += w;
    }
    out.push_str(ELLIPSIS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn width_of_cjk_emoji_and_combining() {
        assert_eq!(str_width("abc"), 3);
        assert_eq!(str_width("中文"), 4);
        assert_eq!(str_width("e\u{301}"), 1);
        assert_eq!(str_width("👍"), 2);
    }

    proptest::proptest! {
        #[test]
        fn fast_width_equals_grapheme_sum(s in "\\PC{0,30}|[a\u{1100}\u{1161}\u{200D}\u{FE0F}\u{1F1E6}\u{1F3FB}👍e\u{301}]{0,12}") {
            let slow: usize = s.graphemes(true).map(grapheme_width).sum();
            proptest::prop_assert_eq!(str_width(&s), slow);
        }
    }

    #[test]
    fn truncate_cases() {
        assert_eq!(truncate("hello", 5), "hello");
        assert_eq!(truncate("hello", 4), "hel…");
        assert_eq!(truncate("hello", 1), "…");
        assert_eq!(truncate("hello", 0), "");
        // A 2-cell char that does not fit is dropped; the … takes the free cell.
        assert_eq!(truncate("a中文", 4), "a中…");
        assert_eq!(truncate("中文字", 4), "中…");
        assert_eq!(truncate("中文字", 3), "中…");
        assert_eq!(truncate("中文字", 2), "…");
        // Combining sequences are not split.
        assert_eq!(truncate("e\u{301}e\u{301}e\u{301}", 2), "e\u{301}…");
    }
}
