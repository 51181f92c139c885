//! Which plain scalars a YAML reader would NOT read back as strings: the implicit type
//! resolution of YAML 1.1 (the yaml.org/type regexps, as `PyYAML` and other 1.1 readers apply
//! them) and of the YAML 1.2 core schema (§10.3.2). The lenient parser never coerces
//! (`1.10` stays text), but other tools read SKILL.md with such readers, so a value the
//! user sets must be quoted when it matches any of these rules (`quote::least_quoting`).
//! Hand-written matchers, one per regexp; each accepts exactly its regexp's language (or,
//! where two sources differ, their union, noted on the function).

/// True when some YAML 1.1 or 1.2 (core schema) reader resolves the plain scalar `s` to a
/// non-string: null, bool, int, float, timestamp, or the 1.1 `merge` / `value` keys.
/// `s` is the scalar's whole text (no surrounding quotes, no trailing comment).
///
/// Rules, each the union of YAML 1.1 (yaml.org/type/*.html) and YAML 1.2 core (§10.3.2):
/// - null: empty, `~`, `null` in any case (1.1: `~|null|Null|NULL|` empty);
/// - bool: `y n yes no true false on off` in any case (1.1:
///   `y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF`);
/// - int: see [`is_int`]; float: see [`is_float`]; timestamp: see [`is_timestamp`];
/// - merge `<<` and value `=` (1.1 types readers such as `PyYAML` resolve, then reject).
///
/// Matching ignores letter case for the null/bool/`.inf`/`.nan` words (a superset of the
/// spellings the specs list; quoting `yEs` too is harmless). Examples: `2.10`, `1e3`,
/// `.5`, `0x1F`, `0o7`, `+1`, `1_000`, `1:30`, `.inf`, `NO`, `~`, `2024-01-01` → true;
/// `v1.0`, `1.0-beta`, `Read`, `2024-1-1x`, `yess` → false.
pub fn is_typed_plain(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "" | "~" | "null" | "y" | "n" | "yes" | "no" | "true" | "false" | "on" | "off" | "<<" | "="
    ) || is_int(s)
        || is_float(s)
        || is_timestamp(s)
}

fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

/// Non-empty and every byte satisfies `ok`.
fn all1(s: &str, ok: impl Fn(u8) -> bool) -> bool {
    !s.is_empty() && s.bytes().all(ok)
}

fn digit_(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// `[0-9][0-9_]*`
fn dec_(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_digit) && s.bytes().all(digit_)
}

/// `[0-5]?[0-9]`
fn sexagesimal_digit(s: &str) -> bool {
    match s.as_bytes() {
        [d] => d.is_ascii_digit(),
        [a, d] => (b'0'..=b'5').contains(a) && d.is_ascii_digit(),
        _ => false,
    }
}

/// `[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+` without the sign (1.1 base 60; the float form adds a
/// fraction to it).
fn base60(t: &str) -> bool {
    let mut parts = t.split(':');
    let head = parts.next().unwrap_or("");
    let first_ok = head
        .as_bytes()
        .first()
        .is_some_and(|b| (b'1'..=b'9').contains(b))
        && dec_(head);
    let mut n = 0;
    for p in parts {
        if !sexagesimal_digit(p) {
            return false;
        }
        n += 1;
    }
    first_ok && n > 0
}

/// Integers. YAML 1.1 (yaml.org/type/int.html): `[-+]?0b[0-1_]+ | [-+]?0[0-7_]+ |
/// [-+]?(0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(:[0-5]?[0-9])+`.
/// YAML 1.2 core: `[-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+`. Matched as their union, with an
/// optional sign and `_` also allowed in the `0o` form (a superset by those two only).
pub fn is_int(s: &str) -> bool {
    let t = strip_sign(s);
    if let Some(r) = t.strip_prefix("0b") {
        return all1(r, |b| b == b'0' || b == b'1' || b == b'_');
    }
    if let Some(r) = t.strip_prefix("0x") {
        return all1(r, |b| b.is_ascii_hexdigit() || b == b'_');
    }
    if let Some(r) = t.strip_prefix("0o") {
        return all1(r, |b| (b'0'..=b'7').contains(&b) || b == b'_');
    }
    // `0[0-7_]+`, `0`, `[1-9][0-9_]*` (1.1) and `[0-9]+` (1.2) are all within `[0-9][0-9_]*`
    // except that 1.1 reads `08` as no int; it is still a 1.2 int, so the union is this.
    dec_(t) || base60(t)
}

/// Floats. YAML 1.1 (yaml.org/type/float.html): `[-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?
/// | [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN)`
/// (`PyYAML` also allows `_` after the point: `[-+]?[0-9][0-9_]*\.[0-9_]*`). YAML 1.2 core:
/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? | [-+]?\.(inf|Inf|INF) |
/// \.nan|\.NaN|\.NAN`. Matched as their union (after the point: digits, dots and `_`;
/// exponent sign optional; `.inf`/`.nan` in any case with an optional sign). Note the 1.1
/// regexp also matches `1.2.3` and `.`; those are quoted too.
pub fn is_float(s: &str) -> bool {
    let t = strip_sign(s);
    let lower = t.to_ascii_lowercase();
    if lower == ".inf" || lower == ".nan" {
        return true;
    }
    // Split off an exponent `[eE][-+]?[0-9]+`.
    let (mant, exp_ok) = match t.find(['e', 'E']) {
        Some(i) => (
            &t[..i],
            all1(strip_sign(&t[i + 1..]), |b| b.is_ascii_digit()),
        ),
        None => (t, true),
    };
    if !exp_ok {
        return false;
    }
    let has_exp = mant.len() < t.len();
    match mant.find('.') {
        Some(dot) => {
            let (int, frac) = (&mant[..dot], &mant[dot + 1..]);
            let frac_ok = frac
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.' || b == b'_');
            // 1.2 needs a digit somewhere in the mantissa when an exponent follows.
            let digits =
                int.bytes().any(|b| b.is_ascii_digit()) || frac.bytes().any(|b| b.is_ascii_digit());
            frac_ok && (int.is_empty() || dec_(int) || base60(int)) && (!has_exp || digits)
        }
        // 1.2: `[0-9]+[eE][-+]?[0-9]+` (an integer mantissa needs an exponent to be a float).
        None => has_exp && all1(mant, |b| b.is_ascii_digit()),
    }
}

/// Timestamps (YAML 1.1, yaml.org/type/timestamp.html): `[0-9]{4}-[0-9]{2}-[0-9]{2}`, or
/// `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?
/// (([ \t]*)Z|[-+][0-9]{1,2}(:[0-9]{2})?)?` (`PyYAML` also allows spaces or tabs before the
/// numeric offset; matched as that union).
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: &[u8], min: usize, max: usize| -> usize {
        let n = r
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if n >= min { n } else { 0 }
    };
    // Date part.
    if b.len() < 8 || digits(b, 4, 4) != 4 || b[4] != b'-' {
        return false;
    }
    let mut i = 5;
    let m = digits(&b[i..], 1, 2);
    if m == 0 || b.get(i + m) != Some(&b'-') {
        return false;
    }
    i += m + 1;
    let d = digits(&b[i..], 1, 2);
    if d == 0 {
        return false;
    }
    i += d;
    if i == b.len() {
        return m == 2 && d == 2;
    }
    // Separator `[Tt]` or `[ \t]+`.
    match b[i] {
        b'T' | b't' => i += 1,
        b' ' | b'\t' => {
            while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
                i += 1;
            }
        }
        _ => return false,
    }
    // Time `[0-9]{1,2}:[0-9]{2}:[0-9]{2}(\.[0-9]*)?`.
    let h = digits(&b[i..], 1, 2);
    if h == 0 || b.get(i + h) != Some(&b':') {
        return false;
    }
    i += h + 1;
    if digits(&b[i..], 2, 2) != 2 || b.get(i + 2) != Some(&b':') {
        return false;
    }
    i += 3;
    if digits(&b[i..], 2, 2) != 2 {
        return false;
    }
    i += 2;
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    // Zone `[ \t]*(Z|[-+][0-9]{1,2}(:[0-9]{2})?)`, optional.
    while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
    }
    if i == b.len() {
        // Trailing blanks are never part of a plain scalar; a bare time is complete.
        return !s.ends_with([' ', '\t']);
    }
    match b[i] {
        b'Z' => i + 1 == b.len(),
        b'-' | b'+' => {
            i += 1;
            let zh = digits(&b[i..], 1, 2);
            if zh == 0 {
                return false;
            }
            i += zh;
            if i == b.len() {
                return true;
            }
            b[i] == b':' && digits(&b[i + 1..], 2, 2) == 2 && i + 3 == b.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_of_every_form_are_typed() {
        for s in [
            "0",
            "2",
            "-3",
            "+1",
            "09",
            "1_000",
            "0b1010",
            "-0b1_0",
            "0x1F",
            "0xff_ff",
            "0o7",
            "017",
            "1:30",
            "190:20:30",
            "2.10",
            "1.0",
            "1.",
            ".5",
            "-.5",
            "+12.5e-3",
            "1e3",
            "1E+3",
            "6.8523015e+5",
            "1.2.3",
            ".",
            "1:30.5",
            ".inf",
            "-.Inf",
            "+.INF",
            ".nan",
            ".NaN",
            "1_0.0_1",
        ] {
            assert!(is_int(s) || is_float(s), "{s} is a number");
            assert!(is_typed_plain(s), "{s}");
        }
    }

    #[test]
    fn bools_nulls_and_special_keys_in_any_case_are_typed() {
        for s in [
            "y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
            "false", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "yEs", "null", "Null", "NULL",
            "~", "", "<<", "=",
        ] {
            assert!(is_typed_plain(s), "{s:?}");
        }
    }

    #[test]
    fn dates_and_timestamps_are_typed() {
        for s in [
            "2024-01-01",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-12-15T02:59:43.1Z",
            "2001-12-15 2:59:43.10",
            "2002-1-2 3:04:05 Z",
        ] {
            assert!(is_timestamp(s), "{s}");
        }
        for s in [
            "2024-1-1",
            "2024-01-01x",
            "2024-01",
            "20240101",
            "2001-12-14 21:59",
            "2001-12-14T21:59:43+",
        ] {
            assert!(!is_timestamp(s), "{s}");
        }
    }

    #[test]
    fn clear_strings_are_not_typed() {
        for s in [
            "v1.0",
            "1.0-beta",
            "Read",
            "hello world",
            "yess",
            "nope",
            "none",
            "inf",
            "nan",
            "infinity",
            "0x",
            "0b2",
            "0o8",
            "1e",
            "e3",
            ".e3",
            "1.5.x",
            "12:60",
            "1:2:3:4a",
            "my-skill",
            "2024-1-1x",
            "1-2",
            "+",
            "-",
            "_1",
            "1,000",
        ] {
            assert!(!is_typed_plain(s), "{s}");
        }
    }
}
