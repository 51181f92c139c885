//! Markdown rendering at a width (first byte: width 1..=128): every line's measured width
//! equals its joined text's width and fits the width (tables, wide and joined graphemes).
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::render::{RenderOptions, render_markdown, str_width};

fuzz_target!(|data: &[u8]| {
    let Some((&w, rest)) = data.split_first() else {
        return;
    };
    let width = u16::from(w % 128) + 1;
    let text = String::from_utf8_lossy(rest);
    let r = render_markdown(
        &text,
        &RenderOptions {
            width,
            terms: vec!["a".into()],
            show_frontmatter: w & 0x80 != 0,
        },
    );
    for l in &r.lines {
        let plain = l.plain();
        assert_eq!(l.width(), str_width(&plain), "{plain:?}");
        assert!(str_width(&plain) <= usize::from(width), "{plain:?} wider than {width}");
    }
});
