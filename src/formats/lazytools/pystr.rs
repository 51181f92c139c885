//! Python-compatible string and number formatting used to reproduce lazytools' output
//! byte for byte (docs/FORMATS.md §2): `str.isspace`/`strip`, code-point slicing, `_trim`,
//! `re.sub(r"\s+", " ", …)`, `float.__repr__`, and `json.dumps(…, ensure_ascii=False)`.
//!
//! Lengths and limits here are in **characters** (Unicode scalar values = Python code points),
//! never bytes.

/// Python's `str.isspace()` for one character (equal to `re`'s `\s` on `str` patterns): Rust's
/// `char::is_whitespace` plus the information separators U+001C–U+001F.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{1c}'..='\u{1f}')
}

/// Python `s.strip()` (no argument).
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// Python `s.rstrip()` (no argument).
pub fn rstrip(s: &str) -> &str {
    s.trim_end_matches(is_space)
}

/// Python `s[:n]`: the first `n` characters (all of `s` if shorter).
pub fn take_chars(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// lazytools' `_trim(text, limit)`: strip; if longer than `limit` characters, cut to `limit`
/// characters, `rstrip`, and append `" …"` (space + U+2026).
pub fn trim(text: &str, limit: usize) -> String {
    let t = strip(text);
    if t.chars().count() <= limit {
        t.to_string()
    } else {
        format!("{} …", rstrip(take_chars(t, limit)))
    }
}

/// `re.sub(r"\s+", " ", s)`: every run of Python whitespace becomes one space.
pub fn collapse_ws(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_ws = false;
    for c in s.chars() {
        if is_space(c) {
            if !in_ws {
                out.push(' ');
            }
            in_ws = true;
        } else {
            out.push(c);
            in_ws = false;
        }
    }
    out
}

/// `pathlib.PurePosixPath(p).name`: the last component, ignoring empty and `.` components
/// (`"/a/b/"` → `"b"`, `"/"` → `""`).
pub fn path_name(p: &str) -> &str {
    p.split('/')
        .rfind(|c| !c.is_empty() && *c != ".")
        .unwrap_or("")
}

/// Python's `repr(float)` (also what `json.dumps` writes): shortest round-trip digits,
/// positional notation for decimal exponents −4 ≤ e < 16 (always with a `.0` if integral),
/// else `d.ddde±XX` with at least two exponent digits. `NaN`/`Infinity`/`-Infinity` as
/// `json.dumps` writes them.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    // `{:e}` gives the shortest round-trip digits as `d[.ddd]e<exp>`.
    let sci = format!("{x:e}");
    let (mant, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mant) = match mant.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mant),
    };
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        let body = if exp < 0 {
            format!("0.{}{}", "0".repeat((-exp - 1) as usize), digits)
        } else if exp + 1 >= n {
            format!("{}{}.0", digits, "0".repeat((exp + 1 - n) as usize))
        } else {
            let (a, b) = digits.split_at((exp + 1) as usize);
            format!("{a}.{b}")
        };
        format!("{sign}{body}")
    } else {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mant}e{esign}{:02}", exp.abs())
    }
}

/// `json.dumps(s, ensure_ascii=False)` for a string: quotes, backslash escapes for `"`, `\`,
/// `\n`, `\r`, `\t`, `\b`, `\f`, other controls below U+0020 as `\u00xx`; everything else
/// (including U+007F and non-ASCII) written as is.
pub fn json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_python() {
        assert_eq!(float_repr(100.79338842975207), "100.79338842975207");
        assert_eq!(float_repr(1e-5), "1e-05");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(1.2345678901234568e17), "1.2345678901234568e+17");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(5e-324), "5e-324");
        assert_eq!(float_repr(2.0), "2.0");
        assert_eq!(float_repr(1500.0), "1500.0");
        assert_eq!(float_repr(-0.5), "-0.5");
        assert_eq!(float_repr(0.0), "0.0");
        assert_eq!(float_repr(123.456), "123.456");
    }

    #[test]
    fn python_whitespace_includes_separators() {
        assert!(is_space('\u{1c}') && is_space('\u{85}') && is_space('\u{3000}'));
        assert!(!is_space('\u{200b}') && !is_space('\u{feff}'));
        assert_eq!(strip("\u{1f} a b\u{a0}\n"), "a b");
        assert_eq!(collapse_ws("a \n\t b\u{2028}c"), "a b c");
    }

    #[test]
    fn trim_counts_code_points() {
        assert_eq!(trim("  héllo wörld  ", 5), "héllo …");
        assert_eq!(trim("ab   cd", 4), "ab …");
        assert_eq!(trim(" short ", 10), "short");
    }

    #[test]
    fn json_strings_like_python() {
        let mut s = String::new();
        json_str("a\"b\\c\nd\u{1}é\u{7f}", &mut s);
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001é\u{7f}\"");
    }

    #[test]
    fn path_names() {
        assert_eq!(path_name("/tmp/x/api/context.md"), "context.md");
        assert_eq!(path_name("/a/b/"), "b");
        assert_eq!(path_name("/"), "");
    }
}
