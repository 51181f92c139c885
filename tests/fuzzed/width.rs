//! Width findings of the `width_truncate` fuzz target: a CRLF is one grapheme of width 1
//! (unicode-width) but measured per character it was 2, so a cut line measured wider than
//! the width it was cut to.

use skillnav::render::{Line, Role, Span, str_width, truncate};

use super::checks;

#[test]
fn crlf_counts_as_one_cell_when_measured_and_when_cut() {
    assert_eq!(str_width("\r\n"), 1);
    assert_eq!(str_width("ab\r\ncd"), 5);
    assert_eq!(truncate("ab\r\ncd", 4), "ab\r\n…");
    checks::truncation_fits("ab\r\ncd", 4);
}

#[test]
fn fuzzed_text_of_cr_runs_and_controls_cut_to_40_cells_fits() {
    // The whole input (first byte: the width byte, 0xe8 % 64 = 40).
    let data: &[u8] =
        b"\xe8\xbf\x99\xe6\x98\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x20\xa0\x00\x82\
      \x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0d\x0a\x41\x6f\x17\x5e\x73\x1a\x6e\x3c\xe4\xbb\xa8\xe5\
      \x8d\x0e\xa6\xe4\xb8\x8f\x7c\x65\x0e\xa6\xe4\xac\xcc\x31\x6d\x7c\x62\xef\xb8\x8f\x7c\x65\
      \xac\xcc\x31\x6d\x7c\x62\xef\xb8\x8f\x7c\x65\x0e\xa6\xe4\xac\xcc\x31\x6d\x7c\x62\xef\xb8\
      \x8f\x7c\x65\xdc\x81\xe2\x9d\xa4\x5c\xef\xdc\x81\xe2\x9d\xa4\x5c\xef\x23\x00\x20\x78";
    assert_eq!(data.len(), 109);
    let s = String::from_utf8_lossy(&data[1..]);
    checks::truncation_fits(&s, usize::from(data[0] % 64));
}

#[test]
fn vs16_after_empty_spans_still_joins_its_base() {
    // The `width_truncate` input: `|` splits spans, so `2` and the VS16 that makes it a
    // 2-cell emoji are 62 empty spans apart.
    let mut data = b"\x0ea\x1b[31m|b\x0e".to_vec();
    data.extend_from_slice(&[b'|'; 18]);
    data.push(b'2');
    data.extend_from_slice(&[b'|'; 63]);
    data.extend_from_slice("\u{FE0F}.".as_bytes());
    assert_eq!(data.len(), 96);
    let s = String::from_utf8_lossy(&data[1..]);
    let spans: Vec<Span> = s
        .split('|')
        .enumerate()
        .map(|(i, p)| Span::role(p, if i % 2 == 0 { Role::Text } else { Role::Strong }))
        .collect();
    let line = Line::from_spans(spans);
    assert_eq!(line.plain(), "a␛[31mb␎2\u{FE0F}.");
    assert_eq!(line.width(), 11);
    assert_eq!(str_width(&line.plain()), 11);
}
