//! Human-readable numbers shared by briefs, clipboard statuses, the CLI and the TUI:
//! decimal (SI) byte sizes and counts with thousands separators ([`human_bytes`],
//! [`human_count`]), the short forms of the tree and status bar ([`short_bytes`],
//! [`short_count`]) and plurals ([`plural`]). Pure, no I/O.

/// SI units after bytes; each step is ×1000 (docs/DESIGN.md §4: "bytes are exact", so sizes are
/// decimal like `du --si`, never binary KiB).
const UNITS: [&str; 6] = ["kB", "MB", "GB", "TB", "PB", "EB"];

/// A byte count for people, in decimal (SI) units.
///
/// Rules: below 1000 the exact count and `B` (`"999 B"`); otherwise the largest unit that
/// keeps the value under 1000, with one decimal below 100 (`"4.2 kB"`, `"12.3 kB"`) and none
/// from 100 on (`"100 kB"`, `"312 kB"`). Rounding is half-up on the shown digit, and a value
/// that rounds up to 1000 moves to the next unit (`999_950` → `"1.0 MB"`).
pub fn human_bytes(bytes: u64) -> String {
    if bytes < 1000 {
        return format!("{bytes} B");
    }
    let n = u128::from(bytes);
    let mut unit: u128 = 1000;
    for name in UNITS {
        // Tenths of this unit, rounded half-up.
        let tenths = (n * 10 + unit / 2) / unit;
        if tenths < 1000 {
            return format!("{}.{} {name}", tenths / 10, tenths % 10);
        }
        let whole = (n + unit / 2) / unit;
        if whole < 1000 {
            return format!("{whole} {name}");
        }
        unit *= 1000;
    }
    // u64::MAX is 18.4 EB, so the loop always returns; keep an exact fallback anyway.
    format!("{bytes} B")
}

/// A count with `,` thousands separators: `1034` → `"1,034"`, `999` → `"999"`,
/// `1234567` → `"1,234,567"`.
pub fn human_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Bytes in short form, always with their unit so they never read as tokens: `980B`,
/// `4.2kB`, `312kB`, `1.2MB`, `3.4GB` (1 kB = 1000 bytes); at most 5 cells below 1 TB.
pub fn short_bytes(n: u64) -> String {
    match n {
        0..1000 => format!("{n}B"),
        _ => format!("{}B", scaled(n)),
    }
}

/// A count (tokens) in short form: `980`, `4.2k`, `71k`, `1.2M`.
pub fn short_count(n: u64) -> String {
    match n {
        0..1000 => n.to_string(),
        _ => scaled(n),
    }
}

/// `n` and `noun`, with an `s` unless `n` is 1: `1 section`, `3 sections`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn scaled(n: u64) -> String {
    let (v, unit) = match n {
        0..1_000_000 => (n as f64 / 1e3, "k"),
        1_000_000..1_000_000_000 => (n as f64 / 1e6, "M"),
        _ => (n as f64 / 1e9, "G"),
    };
    if v < 9.95 {
        format!("{v:.1}{unit}")
    } else {
        format!("{}{unit}", v.round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_below_one_kilobyte_are_exact() {
        assert_eq!(human_bytes(0), "0 B");
        assert_eq!(human_bytes(999), "999 B");
    }

    #[test]
    fn bytes_use_one_decimal_below_100() {
        assert_eq!(human_bytes(1000), "1.0 kB");
        assert_eq!(human_bytes(4200), "4.2 kB");
        assert_eq!(human_bytes(4249), "4.2 kB");
        assert_eq!(human_bytes(4250), "4.3 kB");
        assert_eq!(human_bytes(12_345), "12.3 kB");
        assert_eq!(human_bytes(1_500_000), "1.5 MB");
    }

    #[test]
    fn bytes_drop_the_decimal_from_100() {
        assert_eq!(human_bytes(99_949), "99.9 kB");
        assert_eq!(human_bytes(99_950), "100 kB");
        assert_eq!(human_bytes(100_000), "100 kB");
        assert_eq!(human_bytes(312_400), "312 kB");
        assert_eq!(human_bytes(19_000_000), "19.0 MB");
    }

    #[test]
    fn bytes_rounding_up_to_1000_moves_to_the_next_unit() {
        assert_eq!(human_bytes(999_499), "999 kB");
        assert_eq!(human_bytes(999_500), "1.0 MB");
        assert_eq!(human_bytes(u64::MAX), "18.4 EB");
    }

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(human_count(0), "0");
        assert_eq!(human_count(999), "999");
        assert_eq!(human_count(1034), "1,034");
        assert_eq!(human_count(100_000), "100,000");
        assert_eq!(human_count(1_234_567), "1,234,567");
    }

    #[test]
    fn short_sizes_use_one_letter_units_and_bytes_say_b() {
        assert_eq!(short_bytes(0), "0B");
        assert_eq!(short_bytes(980), "980B");
        assert_eq!(short_bytes(4_210), "4.2kB");
        assert_eq!(short_bytes(9_960), "10kB");
        assert_eq!(short_bytes(312_400), "312kB");
        assert_eq!(short_bytes(999_400), "999kB");
        assert_eq!(short_bytes(1_234_567), "1.2MB");
        assert_eq!(short_count(71), "71");
        assert_eq!(short_count(71_300), "71k");
        assert_eq!(short_count(3_400_000_000), "3.4G");
        assert_eq!(plural(1, "section"), "1 section");
        assert_eq!(plural(0, "section"), "0 sections");
    }
}
