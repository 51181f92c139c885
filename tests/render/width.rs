//! Width utilities: truncation on grapheme boundaries and word-wrapping of CJK/emoji text.

use proptest::prelude::*;
use skillnav::render::{Line, Role, Span, str_width, truncate, truncate_line, wrap};
use unicode_segmentation::UnicodeSegmentation;

#[test]
fn truncate_examples() {
    assert_eq!(truncate("Middleware", 10), "Middleware");
    assert_eq!(truncate("Middleware", 6), "Middl…");
    assert_eq!(truncate("日本語テキスト", 7), "日本語…");
    assert_eq!(truncate("日本語テキスト", 6), "日本…");
    assert_eq!(truncate("👍👍👍", 4), "👍…");
    assert_eq!(truncate("👨‍👩‍👧 family", 3), "👨‍👩‍👧…");
    assert_eq!(truncate("abc", 1), "…");
}

#[test]
fn truncate_line_keeps_styles_and_ellipsis_style() {
    let line = Line::from_spans(vec![
        Span::role("ab", Role::Strong),
        Span::role("中文", Role::Link),
    ]);
    let cut = truncate_line(&line, 4);
    assert_eq!(cut.plain(), "ab…");
    assert_eq!(cut.spans.len(), 2);
    assert_eq!(cut.spans[1].style.role, Role::Link);
    assert_eq!(truncate_line(&line, 6), line);
    assert!(truncate_line(&line, 0).spans.is_empty());
}

#[test]
fn wrap_cjk_at_odd_width() {
    let lines = wrap(&[Span::role("日本語のテキストです", Role::Text)], 5);
    let plain: Vec<String> = lines.iter().map(Line::plain).collect();
    assert_eq!(plain, vec!["日本", "語の", "テキ", "スト", "です"]);
}

#[test]
fn wrap_mixed_words_and_emoji() {
    let lines = wrap(&[Span::role("ship it 🚀🚀 today", Role::Text)], 7);
    let plain: Vec<String> = lines.iter().map(Line::plain).collect();
    assert_eq!(plain, vec!["ship it", "🚀🚀", "today"]);
}

fn non_space_graphemes(s: &str) -> Vec<String> {
    s.graphemes(true)
        .filter(|g| *g != " ")
        .map(str::to_string)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn wrap_never_exceeds_width_nor_splits_graphemes(
        parts in proptest::collection::vec("[a-z]{1,9}|中文|日本語|👍|👨‍👩‍👧|e\u{301}|한국어| ", 0..30),
        width in 1usize..=13,
    ) {
        let text: String = parts.concat();
        let spans = vec![Span::role(&text, Role::Text)];
        let lines = wrap(&spans, width);
        prop_assert!(!lines.is_empty());
        for l in &lines {
            prop_assert!(l.width() <= width, "{:?} wider than {}", l.plain(), width);
        }
        if width >= 2 {
            let joined: String = lines.iter().map(Line::plain).collect();
            prop_assert_eq!(non_space_graphemes(&joined), non_space_graphemes(&text));
        }
    }

    #[test]
    fn truncate_never_exceeds_and_is_a_prefix(s in "\\PC{0,40}", max in 0usize..=12) {
        let t = truncate(&s, max);
        prop_assert!(str_width(&t) <= max);
        let kept = t.strip_suffix('…').unwrap_or(&t);
        prop_assert!(s.starts_with(kept));
        if str_width(&s) <= max {
            prop_assert_eq!(&t, &s);
        }
    }
}
