//! Stable node ids (docs/DESIGN.md §2): `<root>/<relpath>[#<seg>(/<seg>)*]`, GitHub-style heading
//! slugs, sibling collision suffixes `-2`, `-3`.

use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization as _, is_nfc_quick};

/// GitHub-style heading slug: lower-case, keep letters/digits/`-`/`_` (Unicode aware),
/// spaces become `-`, everything else is dropped. Empty slugs become
/// `section`. The heading is read in NFC, so a composed and a decomposed spelling (`é` and
/// `e` + U+0301) give one slug.
pub fn slug(heading: &str) -> String {
    if heading.is_ascii() {
        return ascii_slug(heading.trim().as_bytes());
    }
    let mut out = String::with_capacity(heading.len());
    let heading = nfc(heading);
    for ch in heading.trim().chars() {
        if ch.is_ascii() {
            // Same rule as below, without the Unicode tables.
            if ch.is_ascii_alphanumeric() || ch == '-' || ch == '_' {
                out.push(ch.to_ascii_lowercase());
            } else if ch == ' ' {
                out.push('-');
            }
        } else if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        }
    }
    if out.is_empty() {
        "section".to_string()
    } else {
        out
    }
}

/// What [`slug`] makes of each ASCII byte: its lower-case self for a letter, a digit, `-` and
/// `_`, `-` for a space, 0 for a byte that is dropped.
const ASCII_SLUG: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphanumeric() || c == b'-' || c == b'_' {
            c.to_ascii_lowercase()
        } else if c == b' ' {
            b'-'
        } else {
            0
        };
        b += 1;
    }
    t
};

/// [`slug`] of a trimmed ASCII heading, a table lookup a byte.
fn ascii_slug(heading: &[u8]) -> String {
    let mut out = Vec::with_capacity(heading.len());
    for &b in heading {
        let m = ASCII_SLUG[usize::from(b & 0x7f)];
        if m != 0 {
            out.push(m);
        }
    }
    if out.is_empty() {
        return "section".to_string();
    }
    // Every byte pushed is ASCII.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `s` in Unicode NFC (borrowed when it already is, always for ASCII): the one form ids,
/// slugs and id lookups compare in.
pub fn nfc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.nfc().collect())
    }
}

/// The names handed out so far by [`dedupe`], and per base name the next suffix to try (so
/// `n` equal names cost O(n), not O(n²): every smaller suffix was already taken, and names
/// are never given back).
#[derive(Debug, Default)]
pub struct Taken {
    set: std::collections::HashSet<String>,
    next: std::collections::HashMap<String, u32>,
}

/// Make `seg` unique among `taken` by appending `-2`, `-3`, … (GitHub anchor style): the
/// smallest suffix not taken yet.
pub fn dedupe(seg: &str, taken: &mut Taken) -> String {
    if taken.set.insert(seg.to_string()) {
        return seg.to_string();
    }
    let mut n = taken.next.get(seg).copied().unwrap_or(2);
    loop {
        let cand = format!("{seg}-{n}");
        if taken.set.insert(cand.clone()) {
            taken.next.insert(seg.to_string(), n + 1);
            return cand;
        }
        n += 1;
    }
}

/// Split an id into `(root, relpath, segments)`. `relpath` is empty for a root id.
pub fn split(id: &str) -> (&str, &str, Vec<&str>) {
    let (head, frag) = match id.split_once('#') {
        Some((h, f)) => (h, Some(f)),
        None => (id, None),
    };
    let (root, rel) = head.split_once('/').unwrap_or((head, ""));
    let segs = frag.map(|f| f.split('/').collect()).unwrap_or_default();
    (root, rel, segs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_slugs() {
        assert_eq!(slug("CORS Middleware"), "cors-middleware");
        assert_eq!(slug("What's `new`? (v2.1)"), "whats-new-v21");
        assert_eq!(slug("  "), "section");
        assert_eq!(slug("Über Café"), "über-café");
        assert_eq!(slug("snake_case-name"), "snake_case-name");
    }

    #[test]
    fn ascii_slug_follows_the_char_rule_for_every_ascii_char() {
        // The rule of the general path, char by char.
        let by_char = |h: &str| {
            let out: String = h
                .trim()
                .chars()
                .filter_map(|c| match c {
                    c if c.is_alphanumeric() || c == '-' || c == '_' => {
                        Some(c.to_ascii_lowercase())
                    }
                    ' ' => Some('-'),
                    _ => None,
                })
                .collect();
            if out.is_empty() {
                "section".to_string()
            } else {
                out
            }
        };
        let every: String = (0u8..128).map(char::from).collect();
        for h in [every.as_str(), " \t A b\x7f-C_d?! ", "\x00\x01", "   x   "] {
            assert_eq!(slug(h), by_char(h), "{h:?}");
        }
    }

    #[test]
    fn nfd_and_nfc_headings_share_a_slug() {
        assert_eq!(slug("Caf\u{e9} Cr\u{e8}me"), "caf\u{e9}-cr\u{e8}me");
        assert_eq!(slug("Cafe\u{301} Cre\u{300}me"), "caf\u{e9}-cr\u{e8}me");
        assert_eq!(nfc("Cafe\u{301}"), "Caf\u{e9}");
        assert!(matches!(nfc("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn collisions_get_numbers() {
        let mut t = Default::default();
        assert_eq!(dedupe("usage", &mut t), "usage");
        assert_eq!(dedupe("usage", &mut t), "usage-2");
        assert_eq!(dedupe("usage", &mut t), "usage-3");
        // A literal `x-2` taken first is skipped, as before.
        assert_eq!(dedupe("x-2", &mut t), "x-2");
        assert_eq!(dedupe("x", &mut t), "x");
        assert_eq!(dedupe("x", &mut t), "x-3");
        assert_eq!(dedupe("x", &mut t), "x-4");
    }

    #[test]
    fn split_ids() {
        assert_eq!(
            split("hono/references/api.md#app/get"),
            ("hono", "references/api.md", vec!["app", "get"])
        );
        assert_eq!(split("hono"), ("hono", "", vec![]));
    }
}
