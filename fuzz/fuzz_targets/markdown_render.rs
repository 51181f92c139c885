//! Markdown rendering at a width (first byte: width 1..=128, its top bit shows frontmatter;
//! second byte: long code lines cut, wrapped or kept): every line's measured width equals its
//! joined text's width and fits the width (tables, wide and joined graphemes), except code
//! rows kept whole for sideways scrolling.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::render::{LongLines, RenderOptions, render_markdown, str_width};

fuzz_target!(|data: &[u8]| {
    let Some((&w, rest)) = data.split_first() else {
        return;
    };
    let Some((&mode, rest)) = rest.split_first() else {
        return;
    };
    let long_code = match mode % 3 {
        0 => LongLines::Cut,
        1 => LongLines::Wrap,
        _ => LongLines::Keep,
    };
    let width = u16::from(w % 128) + 1;
    let text = String::from_utf8_lossy(rest);
    let r = render_markdown(
        &text,
        &RenderOptions {
            width,
            terms: vec!["a".into()],
            show_frontmatter: w & 0x80 != 0,
            long_code,
        },
    );
    for (i, l) in r.lines.iter().enumerate() {
        let plain = l.plain();
        assert_eq!(l.width(), str_width(&plain), "{plain:?}");
        if long_code == LongLines::Keep && r.is_code_row(i) {
            continue;
        }
        assert!(
            str_width(&plain) <= usize::from(width),
            "{plain:?} wider than {width}"
        );
    }
});
