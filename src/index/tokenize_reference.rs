//! A straightforward, char-by-char statement of the tokenizer's rules (see the parent
//! module), and the tests that hold [`super::scan`]'s byte-level fast paths to it: the same
//! tokens (term, range, part, stop flag, packed key) on fixed texts and on generated ones
//! mixing identifiers, dots, underscores, capitals, digits, accents (composed and
//! decomposed), CJK, and overlong runs.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization as _;
use unicode_normalization::char::canonical_combining_class;

use super::{MAX_WORD_BYTES, STOPWORDS, is_cjk, scan};

/// One token: (term, byte range, part, stop).
type Tok = (String, Range<usize>, bool, bool);

/// A word character: a letter, a digit or `_`, never a CJK char.
fn word_char(c: char) -> bool {
    (c.is_alphanumeric() || c == '_') && !is_cjk(c)
}

/// A combining mark (non-zero canonical combining class).
fn mark(c: char) -> bool {
    canonical_combining_class(c) != 0
}

fn lower(s: &str) -> String {
    s.chars().flat_map(char::to_lowercase).nfc().collect()
}

/// Parts of `word` (ranges into it): split at `.` and `_`, then at camel-case boundaries.
fn parts(word: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut seg = 0;
    let cuts = word
        .char_indices()
        .filter(|&(_, c)| c == '.' || c == '_')
        .map(|(i, _)| i)
        .chain([word.len()]);
    for cut in cuts {
        if cut > seg {
            let chars: Vec<(usize, char)> = word[seg..cut].char_indices().collect();
            let mut start = 0;
            let mut prev: Option<char> = None;
            for (k, &(i, c)) in chars.iter().enumerate() {
                let next = chars.get(k + 1).map(|&(_, n)| n);
                if let Some(p) = prev {
                    let boundary = c.is_uppercase()
                        && (p.is_lowercase()
                            || p.is_numeric()
                            || (p.is_uppercase() && next.is_some_and(char::is_lowercase)));
                    if boundary {
                        out.push(seg + start..seg + i);
                        start = i;
                    }
                }
                if !mark(c) {
                    prev = Some(c);
                }
            }
            out.push(seg + start..cut);
        }
        seg = cut + 1;
    }
    out
}

/// Every token of `text`, stopwords flagged, in text order.
fn reference(text: &str) -> Vec<Tok> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let offset = |k: usize| chars.get(k).map_or(text.len(), |&(i, _)| i);
    let mut out = Vec::new();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k].1;
        if is_cjk(c) {
            let s = k;
            while at(k).is_some_and(is_cjk) {
                k += 1;
            }
            if k - s == 1 {
                out.push((
                    text[offset(s)..offset(k)].to_string(),
                    offset(s)..offset(k),
                    false,
                    false,
                ));
                continue;
            }
            for j in s..k {
                let r = offset(j)..offset(j + 1);
                out.push((text[r.clone()].to_string(), r, true, false));
                if j + 1 < k {
                    let r = offset(j)..offset(j + 2);
                    out.push((text[r.clone()].to_string(), r, false, false));
                }
            }
            continue;
        }
        if !word_char(c) {
            k += 1;
            continue;
        }
        let s = k;
        k += 1;
        loop {
            match at(k) {
                Some('.') if at(k + 1).is_some_and(word_char) => k += 1,
                Some(c) if word_char(c) || mark(c) => k += 1,
                _ => break,
            }
        }
        let (a, b) = (offset(s), offset(k));
        if b - a > MAX_WORD_BYTES {
            continue;
        }
        let w = &text[a..b];
        let ps = parts(w);
        if ps.is_empty() {
            continue;
        }
        let whole = lower(w);
        let stop = STOPWORDS.binary_search(&whole.as_str()).is_ok();
        out.push((whole, a..b, false, stop));
        if ps.len() == 1 && ps[0] == (0..w.len()) {
            continue;
        }
        for r in ps {
            out.push((lower(&w[r.clone()]), a + r.start..a + r.end, true, false));
        }
    }
    out
}

/// What [`scan`] yields for `text`, checking each token's packed key on the way.
fn scanned(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    scan(text, &mut |t| {
        assert_eq!(
            t.key,
            crate::index::hash::pack8(t.term.as_bytes()),
            "{:?}",
            t.term
        );
        out.push((t.term.to_string(), t.range, t.part, t.stop));
    });
    out
}

fn assert_same(text: &str) {
    assert_eq!(scanned(text), reference(text), "text {text:?}");
}

#[test]
fn fast_paths_match_the_reference_on_fixed_texts() {
    for text in [
        "",
        "getUserById app.get c.req.param('id') base64 std::io::Read utf8 h2 v1.3",
        "HTTPServer HTTP2Server XMLHttpRequest IOError ABC A a _ __init__ ___ a_b_ _x x_",
        "The Kubernetes API, Kubelet2 A1b Ab_c Ab.c AbC aB9c 9Lives x.Y.z ..a.. a..b a.",
        "It returned. Then... end.",
        "Größe ÜBER straße İstanbul Café Cafe\u{301} CaféBar Cafe\u{301}Bar naïve_Ünï",
        "東京都に行く 한국어 字 Hono框架 ab東京cd 東.京 x\u{301}y \u{301}lone",
        "emoji 👍🏽 keycap 1\u{fe0f}\u{20e3} rtl \u{200f}שלום\u{200f} mixed_αβγ.Δέλτα",
        "tab\tsep\nnew\r\nline;semi,comma/slash|pipe`tick`**bold** [link](http://x.io/a_b)",
        "does don't it's I'm we'll you've they'd isn't hasOwnProperty doSomething has_key",
        "aaaaaaaa bbbbbbbbb ccccccc Aaaaaaaa Bbbbbbbbb 12345678 123456789 abcdefgh.ijklmnop",
    ] {
        assert_same(text);
    }
    let blob = "Ab".repeat(MAX_WORD_BYTES / 2);
    assert_same(&format!("{blob} {blob}x x{blob} ok"));
    assert_same(&"a_".repeat(MAX_WORD_BYTES / 2));
    assert_same(&"aB".repeat(40));
}

#[test]
fn fast_paths_match_the_reference_on_generated_texts() {
    const PIECES: &[&str] = &[
        "get",
        "User",
        "By",
        "Id",
        "HTTP",
        "Server",
        "x",
        "Z",
        "2",
        "64",
        "base",
        ".",
        "_",
        " ",
        " ",
        " ",
        "\n",
        "...",
        "::",
        "-",
        "(",
        ")",
        "'",
        "é",
        "e\u{301}",
        "\u{301}",
        "É",
        "ß",
        "İ",
        "ǅ",
        "Σ",
        "東",
        "京",
        "한",
        "字",
        "ｱ",
        "the",
        "The",
        "a",
        "I",
        "don",
        "t",
        "is",
        "Is",
        "α",
        "٣",
        "Ⅻ",
        "①",
        "\u{200b}",
        "👍",
        "\u{fe0f}",
        "aaaaaaaaaaaa",
        "ABCDEFGHIJKL",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..4000 {
        let n = (next() % 40) as usize;
        let text: String = (0..n)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        assert_same(&text);
    }
    // Long runs cross the eight-byte steps and the word-length limit.
    for _ in 0..300 {
        let n = (next() % 30) as usize;
        let text: String = (0..n)
            .map(|_| {
                let p = PIECES[(next() % PIECES.len() as u64) as usize];
                p.repeat(1 + (next() % 12) as usize)
            })
            .collect();
        assert_same(&text);
    }
}
