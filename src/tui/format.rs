//! Short human-readable sizes for the tree, preview header and status bar.

/// Bytes in short form: `980B`, `4.2k`, `312k`, `1.2M`, `3.4G` (1k = 1000 bytes).
pub fn bytes(n: u64) -> String {
    match n {
        0..1000 => format!("{n}B"),
        _ => scaled(n),
    }
}

/// A count (tokens) in short form: `980`, `4.2k`, `71k`, `1.2M`.
pub fn count(n: u64) -> String {
    match n {
        0..1000 => n.to_string(),
        _ => scaled(n),
    }
}

/// `n` and `noun`, with an `s` unless `n` is 1: `1 section`, `3 sections`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

fn scaled(n: u64) -> String {
    let (v, unit) = match n {
        0..1_000_000 => (n as f64 / 1e3, "k"),
        1_000_000..1_000_000_000 => (n as f64 / 1e6, "M"),
        _ => (n as f64 / 1e9, "G"),
    };
    if v < 9.95 { format!("{v:.1}{unit}") } else { format!("{}{unit}", v.round() as u64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sizes() {
        assert_eq!(bytes(0), "0B");
        assert_eq!(bytes(980), "980B");
        assert_eq!(bytes(4_210), "4.2k");
        assert_eq!(bytes(9_960), "10k");
        assert_eq!(bytes(312_400), "312k");
        assert_eq!(bytes(1_234_567), "1.2M");
        assert_eq!(count(71), "71");
        assert_eq!(count(71_300), "71k");
        assert_eq!(count(3_400_000_000), "3.4G");
        assert_eq!(plural(1, "section"), "1 section");
        assert_eq!(plural(0, "section"), "0 sections");
    }
}
