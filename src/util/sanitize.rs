//! Neutralise untrusted text before it reaches a terminal: control characters and escape
//! sequences from documents must never be interpreted by the terminal.

use std::borrow::Cow;

/// Replace C0/C1 control characters (except `\n`; a tab becomes one space), DEL, the
/// bidirectional controls (overrides, isolates and the invisible marks U+061C, U+200E,
/// U+200F) and the invisible Unicode tag characters (U+E0000–U+E007F) with visible stand-ins, and the invalid-UTF-8
/// placeholder byte with U+FFFD. ESC is shown as `␛`, other C0 controls as their Control
/// Pictures (U+2400 block), C1 controls, DEL, bidi controls and tags as U+FFFD.
/// Returns the input unchanged (borrowed) when nothing needs replacing.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_replacing) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        if needs_replacing(ch) {
            out.push(replacement(ch));
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

/// Like [`sanitize`] but for one display line: `\n` and `\r` are also replaced (by a space).
pub fn sanitize_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| needs_replacing(c) || c == '\n') {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if c == '\n' || c == '\r' {
                    ' '
                } else if needs_replacing(c) {
                    replacement(c)
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// JSON text (as `serde_json` writes it) with every character [`sanitize`] would replace
/// written as a `\uXXXX` escape instead: `serde_json` escapes only C0 controls, so DEL, C1
/// controls and bidirectional controls would reach the terminal raw. Inside a JSON string
/// the escape decodes to the same character, so the JSON value is unchanged; outside
/// strings JSON holds none of these characters. Borrowed when nothing needs escaping.
pub fn json_safe(json: &str) -> Cow<'_, str> {
    if !json.chars().any(needs_replacing) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for ch in json.chars() {
        if needs_replacing(ch) {
            let mut units = [0u16; 2];
            for u in ch.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

fn needs_replacing(c: char) -> bool {
    (c.is_control() && c != '\n') || c == '\u{1A}' || is_bidi_control(c) || is_tag(c)
}

/// Unicode tag characters (U+E0000–U+E007F): invisible on a terminal, they can carry a
/// hidden ASCII text ("ASCII smuggling"), so they are shown as U+FFFD. (A subdivision flag
/// emoji, 🏴 + tags, then shows as a black flag and stand-ins.)
fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Bidirectional controls (Unicode UAX #9 "explicit directional formatting characters" and
/// the implicit marks): embeddings and overrides (U+202A–U+202E), isolates
/// (U+2066–U+2069), and the invisible direction marks ALM (U+061C), LRM (U+200E) and RLM
/// (U+200F). They reorder or silently change what the terminal shows ("Trojan Source",
/// CVE-2021-42574), so they are never passed through.
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

fn replacement(c: char) -> char {
    match c {
        '\t' => ' ',
        '\u{1A}' => '\u{FFFD}',
        '\u{1B}' => '␛',
        '\r' => ' ',
        c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('\u{FFFD}'),
        _ => '\u{FFFD}',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unicode_tag_characters_that_hide_text_are_shown() {
        // "hi" smuggled as tags after a visible word.
        assert_eq!(sanitize("ok\u{E0068}\u{E0069}"), "ok\u{FFFD}\u{FFFD}");
        assert_eq!(sanitize_line("a\u{E007F}"), "a\u{FFFD}");
        assert_eq!(json_safe("\"\u{E0041}\""), "\"\\udb40\\udc41\"");
    }

    #[test]
    fn escape_sequences_are_neutralised() {
        let s = sanitize("a\x1b[2Jb\x07c\u{9b}31m");
        assert_eq!(s, "a␛[2Jb␇c\u{FFFD}31m");
        assert!(!s.contains('\x1b'));
    }

    #[test]
    fn bidi_override_is_not_passed_through() {
        assert_eq!(
            sanitize("abc\u{202E}fed\u{2066}x"),
            "abc\u{FFFD}fed\u{FFFD}x"
        );
    }

    #[test]
    fn invisible_direction_marks_are_not_passed_through() {
        // ALM, LRM, RLM: each shown as U+FFFD, in text and in one-line labels.
        assert_eq!(
            sanitize("a\u{061C}b\u{200E}c\u{200F}d"),
            "a\u{FFFD}b\u{FFFD}c\u{FFFD}d"
        );
        assert_eq!(sanitize_line("\u{200F}abc"), "\u{FFFD}abc");
        // Their neighbours (ZWJ, ZWNJ) join emoji and scripts: kept.
        assert_eq!(sanitize("a\u{200C}b\u{200D}c"), "a\u{200C}b\u{200D}c");
    }

    #[test]
    fn json_with_bidi_del_and_c1_controls_escapes_them_and_keeps_the_value() {
        let raw = serde_json::to_string("a\u{202E}b\u{7f}c\u{9b}d\u{1b}").unwrap();
        assert_eq!(raw, "\"a\u{202E}b\u{7f}c\u{9b}d\\u001b\"");
        let safe = json_safe(&raw);
        assert_eq!(safe, "\"a\\u202eb\\u007fc\\u009bd\\u001b\"");
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "a\u{202E}b\u{7f}c\u{9b}d\u{1b}");
        assert!(matches!(json_safe("{\"k\":\"v\"}"), Cow::Borrowed(_)));
    }

    #[test]
    fn clean_text_is_borrowed() {
        assert!(matches!(sanitize("plain\ntext 中文"), Cow::Borrowed(_)));
    }

    #[test]
    fn placeholder_byte_shows_replacement_char() {
        assert_eq!(sanitize("a\u{1A}b"), "a\u{FFFD}b");
        assert_eq!(sanitize_line("a\r\nb\tc"), "a  b c");
    }
}
