//! The fuzz targets' properties as stable `proptest` tests (docs/FUZZING.md): section byte
//! ranges lie inside the file, are ordered and cover it; sanitized text has no ESC, C1 or
//! bidi controls; truncation never exceeds the width or splits a grapheme; BM25 scores are
//! finite. The checks themselves are in `checks.rs`, shared with `fuzz/`.

use proptest::prelude::*;
use skillnav::formats::llms_txt::LlmsKind;

use super::checks;

/// Markdown-ish text: headings of every level (ATX and setext), fences, blank lines,
/// CR/CRLF endings, multi-byte and combining characters.
fn markdownish() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "#{1,7} ?[a-zé❤ ]{0,6}",
        "[a-z ]{0,10}",
        Just("```".to_string()),
        Just("~~~".to_string()),
        Just("===".to_string()),
        Just("---".to_string()),
        Just("    # indented".to_string()),
        Just("<doc title=\"x\">".to_string()),
        Just("</doc>".to_string()),
        Just("- [a](b): c".to_string()),
        Just("> q".to_string()),
        "\\PC{0,4}",
    ];
    let end = prop_oneof![Just("\n"), Just("\r\n"), Just("\r"), Just("")];
    prop::collection::vec((line, end), 0..24)
        .prop_map(|v| v.into_iter().map(|(l, e)| format!("{l}{e}")).collect())
}

/// Text with the characters that test width code: emoji with and without VS16, ZWJ
/// sequences, flags, CJK, combining marks, controls, tabs.
fn widthish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z ]{0,4}",
        Just("❤".to_string()),
        Just("\u{FE0F}".to_string()),
        Just("\u{200D}".to_string()),
        Just("👩‍💻".to_string()),
        Just("🇫🇷".to_string()),
        Just("漢字".to_string()),
        Just("e\u{301}".to_string()),
        Just("\t".to_string()),
        Just("\u{1b}[31m".to_string()),
        "\\PC{0,2}",
        any::<char>().prop_map(String::from),
    ];
    prop::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn markdown_sections_lie_inside_are_ordered_and_cover_the_file(text in markdownish()) {
        checks::markdown_sections_tile(&text);
    }

    #[test]
    fn the_heading_line_scan_agrees_with_the_commonmark_parse(text in markdownish(), from in 0usize..64) {
        checks::heading_scans_agree(&text, from);
    }

    #[test]
    fn llms_family_spans_lie_inside_the_file(text in markdownish(), k in 0u8..3) {
        let kind = [LlmsKind::Index, LlmsKind::Ctx, LlmsKind::Full][usize::from(k)];
        checks::llms_spans_inside(&text, kind);
    }

    #[test]
    fn sanitized_text_has_no_esc_c1_or_bidi_controls(s in widthish(), extra in any::<String>()) {
        checks::sanitized_is_clean(&s);
        checks::sanitized_is_clean(&extra);
        checks::sanitized_is_clean("\u{1b}]52;c;x\u{7}\u{9b}2J\u{202E}abc\u{2066}");
    }

    #[test]
    fn truncation_never_exceeds_the_width_or_splits_a_grapheme(s in widthish(), w in 0usize..12) {
        checks::truncation_fits(&s, w);
    }

    #[test]
    fn bm25_scores_are_finite(
        docs in prop::collection::vec(markdownish(), 1..4),
        query in "[a-zé ]{0,12}",
        prefix in any::<bool>(),
    ) {
        let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
        checks::bm25_scores_finite(&docs, &query, prefix);
    }
}
