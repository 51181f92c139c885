//! Characters a reader does not see (docs/AGENTS.md "Safety lints"): Unicode tag characters
//! (U+E0000–U+E007F, "ASCII smuggling": each maps to an ASCII character, renders as
//! nothing, and a model reads it as text), bidirectional controls (Trojan Source,
//! CVE-2021-42574: the shown order of a line is not the order it is read in) and zero-width
//! or invisible characters. Uses that text needs are left alone: a flag emoji's tag
//! sequence (🏴 + tag letters + U+E007F), a ZWJ/ZWNJ between two visible non-ASCII
//! characters (emoji sequences, Persian and Indic script), one variation selector after a
//! character (emoji presentation), LRM/RLM/ALM on a line holding right-to-left letters,
//! and a byte-order mark at the very start of a file.

/// One finding: rule id, 1-based line, message.
pub type Hit = (&'static str, u32, String);

/// The hidden-character findings of a file's whole `text`, at most one per rule per line
/// (a BOM as the file's first character is allowed).
pub fn scan(text: &str) -> Vec<Hit> {
    let mut out = Vec::new();
    if text.is_ascii() {
        return out;
    }
    for (n, line) in crate::skill::files::numbered_lines(text) {
        // Every character looked for is encoded with one of these lead bytes.
        if !line
            .bytes()
            .any(|b| matches!(b, 0xD8 | 0xE1 | 0xE2 | 0xE3 | 0xEF | 0xF3))
        {
            continue;
        }
        let bom_ok = n == 1;
        let chars: Vec<char> = line.chars().collect();
        let mut tags = Vec::new();
        let mut bidi = Vec::new();
        let mut zero = Vec::new();
        let rtl_line = chars.iter().any(|c| is_rtl_letter(*c));
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\u{1F3F4}'
                && let Some(len) = flag_tag_sequence(&chars[i + 1..])
            {
                i += 1 + len;
                continue;
            }
            if ('\u{E0000}'..='\u{E007F}').contains(&c) {
                tags.push(c);
            } else if is_bidi_control(c) || (is_bidi_mark(c) && !rtl_line) {
                bidi.push(c);
            } else if is_zero_width(&chars, i, bom_ok) {
                zero.push(c);
            }
            i += 1;
        }
        if !tags.is_empty() {
            out.push(("safety-unicode-tags", n, tags_message(&tags)));
        }
        if !bidi.is_empty() {
            let m = format!(
                "{} bidirectional control character(s) ({}): the line is shown in another order than it is read",
                bidi.len(),
                code_point_list(&bidi)
            );
            out.push(("safety-bidi", n, m));
        }
        if !zero.is_empty() {
            let m = format!(
                "{} zero-width or invisible character(s) ({}) a reader cannot see",
                zero.len(),
                code_point_list(&zero)
            );
            out.push(("safety-zero-width", n, m));
        }
    }
    out
}

/// `U+200B, U+202E` (distinct code points in first-seen order, at most five, then `…`).
pub fn code_point_list(cs: &[char]) -> String {
    let mut seen: Vec<char> = Vec::new();
    for c in cs {
        if !seen.contains(c) {
            seen.push(*c);
        }
    }
    let mut s: Vec<String> = seen
        .iter()
        .take(5)
        .map(|c| format!("U+{:04X}", u32::from(*c)))
        .collect();
    if seen.len() > 5 {
        s.push("…".into());
    }
    s.join(", ")
}

/// The message for tag characters: how many, and the ASCII text they spell (the hidden
/// instruction a reviewer needs to see), cut at 80 characters.
fn tags_message(tags: &[char]) -> String {
    let hidden: String = tags
        .iter()
        .filter_map(|c| {
            let a = u32::from(*c) - 0xE0000;
            (0x20..0x7F).contains(&a).then(|| char::from(a as u8))
        })
        .collect();
    let shown: String = hidden.chars().take(80).collect();
    let more = if hidden.chars().count() > 80 {
        "…"
    } else {
        ""
    };
    format!(
        "{} invisible Unicode tag character(s) that a model reads as text: {shown:?}{more}",
        tags.len()
    )
}

/// The length of a flag emoji's tag sequence after U+1F3F4: 2–7 tag letters or digits and
/// the cancel tag U+E007F (`🏴󠁧󠁢󠁳󠁣󠁴󠁿` is gbsct).
fn flag_tag_sequence(rest: &[char]) -> Option<usize> {
    let letters = rest
        .iter()
        .take_while(|c| matches!(u32::from(**c), 0xE0030..=0xE0039 | 0xE0061..=0xE007A))
        .count();
    ((2..=7).contains(&letters) && rest.get(letters) == Some(&'\u{E007F}')).then_some(letters + 1)
}

/// Embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// The direction marks LRM, RLM and ALM (U+200E, U+200F, U+061C).
fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// A Hebrew, Arabic, Syriac, Thaana or N'Ko letter, or one of their presentation forms.
fn is_rtl_letter(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFC}')
}

/// Whether `chars[i]` is a zero-width or invisible character a reader would not see.
fn is_zero_width(chars: &[char], i: usize, bom_ok: bool) -> bool {
    let c = chars[i];
    match c {
        '\u{200B}'
        | '\u{2060}'..='\u{2064}'
        | '\u{180E}'
        | '\u{115F}'
        | '\u{1160}'
        | '\u{3164}'
        | '\u{FFA0}' => true,
        '\u{FEFF}' => !(bom_ok && i == 0),
        '\u{200C}' | '\u{200D}' => {
            let visible = |c: Option<&char>| {
                c.is_some_and(|c| !c.is_ascii() && !c.is_whitespace() && !is_invisible(*c))
            };
            !(i > 0 && visible(chars.get(i - 1)) && visible(chars.get(i + 1)))
        }
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => {
            // One selector after a visible character is a presentation choice; a run of
            // them (or one after nothing) carries data.
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            prev.is_none_or(is_selector) || next.is_some_and(is_selector)
        }
        _ => false,
    }
}

fn is_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}') || is_selector(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Vec<(&'static str, u32)> {
        scan(text).into_iter().map(|(r, l, _)| (r, l)).collect()
    }

    #[test]
    fn emoji_flags_joiners_and_rtl_marks_are_not_flagged() {
        // Scotland's flag, a family emoji (ZWJ), ❤️ (VS16), Persian with ZWNJ, Hebrew + RLM.
        let ok = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}\n\
                  \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\n\u{2764}\u{FE0F}\n\
                  \u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0647}\u{0645}\n\
                  \u{05E9}\u{05DC}\u{05D5}\u{05DD}\u{200F} ok\n";
        assert_eq!(rules(&format!("\u{FEFF}{ok}")), []);
    }

    #[test]
    fn tags_bidi_and_zero_width_are_flagged_per_line() {
        let hidden: String = "run rm"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap_or(' '))
            .collect();
        let text = format!("a{hidden}\nx = 1 \u{202E}tfel\u{202C}\nig\u{200B}nore\nab\u{200D}c\n");
        assert_eq!(
            rules(&text),
            [
                ("safety-unicode-tags", 1),
                ("safety-bidi", 2),
                ("safety-zero-width", 3),
                ("safety-zero-width", 4)
            ]
        );
        assert!(scan(&text)[0].2.ends_with("\"run rm\""));
    }
}
