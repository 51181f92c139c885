//! Width truncation (first byte: width 0..=63): never wider than the width, never splitting
//! a grapheme (`tests/fuzzed/checks.rs`); a styled line cut the same way fits too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skillnav::render::{Line, Role, Span, str_width, truncate_line, wrap};

#[path = "../../tests/fuzzed/checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    let Some((&w, rest)) = data.split_first() else {
        return;
    };
    let w = usize::from(w % 64);
    let s = String::from_utf8_lossy(rest);
    checks::truncation_fits(&s, w);
    // The same text as spans split at every `|`, styled alternately.
    let spans: Vec<Span> = s
        .split('|')
        .enumerate()
        .map(|(i, p)| Span::role(p, if i % 2 == 0 { Role::Text } else { Role::Strong }))
        .collect();
    let line = Line::from_spans(spans.clone());
    assert_eq!(line.width(), str_width(&line.plain()));
    let cut = truncate_line(&line, w);
    assert!(
        str_width(&cut.plain()) <= w,
        "{:?} wider than {w}",
        cut.plain()
    );
    if w > 0 {
        for l in wrap(&spans, w.max(2)) {
            assert!(
                str_width(&l.plain()) <= w.max(2),
                "{:?} wider than {w}",
                l.plain()
            );
        }
    }
});
