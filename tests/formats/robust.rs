//! Bad input never panics: the pure parsers on arbitrary text (proptest).

use proptest::prelude::*;
use skillnav::formats::{catalog, doc_tree, git_adr, llms_txt, seekers};

fn texty() -> impl Strategy<Value = String> {
    // Markdown/XML-ish alphabet so the interesting branches are reached.
    proptest::collection::vec(
        prop_oneof![
            Just("# ".to_string()),
            Just("## ".to_string()),
            Just("### ".to_string()),
            Just("- [".to_string()),
            Just("](".to_string()),
            Just(")".to_string()),
            Just(": ".to_string()),
            Just("\n".to_string()),
            Just("```\n".to_string()),
            Just("---\n".to_string()),
            Just("> ".to_string()),
            Just("<project title=\"".to_string()),
            Just("<doc title='".to_string()),
            Just("</doc>".to_string()),
            Just("<docs>".to_string()),
            Just("&#x41;&amp;&".to_string()),
            Just("- **a** — ".to_string()),
            Just("**File:** `x.md`\n**Pages:** 3\n".to_string()),
            "[a-zé🔥 ]{0,6}".prop_map(|s| s),
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parsers_never_panic(t in texty()) {
        let p = llms_txt::parse_llms_txt(&t);
        prop_assert!(p.header_end <= t.len());
        for s in &p.sections {
            prop_assert!(s.start <= s.end && s.end <= t.len());
        }
        let c = llms_txt::parse_llms_ctx(&t);
        for d in &c.docs {
            prop_assert!(d.start <= d.content_start && d.content_start <= d.content_end && d.content_end <= t.len());
        }
        let f = llms_txt::split_full(&t);
        for (h, end) in &f.parts {
            prop_assert!(h.start <= *end && *end <= t.len());
        }
        let _ = llms_txt::decode_entities(&t);
        let _ = seekers::parse_index(&t);
        let _ = seekers::category_pages(&t);
        let _ = seekers::config_summary(&t);
        let _ = catalog::parse_catalog(&t);
        let _ = doc_tree::parse_readme(&t);
        for (s, e) in doc_tree::merged_parts(&t) {
            prop_assert!(s <= e && e <= t.len() && t.is_char_boundary(s) && t.is_char_boundary(e));
        }
        let _ = git_adr::parse_adr(&t);
        let _ = git_adr::parse_index(&t);
    }

    #[test]
    fn truncate_listing_respects_budget(t in "[a-zé🔥]{0,30}", m in 0usize..40) {
        let out = skillnav::skill::listing::truncate_listing(&t, m);
        prop_assert!(out.chars().count() <= m);
    }
}
