//! Long base64 blobs (docs/AGENTS.md "Safety lints"): text a reviewer cannot read but a
//! model can decode. A blob is a run of the standard base64 alphabet (`A–Z a–z 0–9 + /`,
//! up to two `=` of padding) of at least [`MIN_BLOB_CHARS`] characters, on one line or
//! wrapped over consecutive lines that hold nothing else (PEM and MIME wrap at 64 or 76),
//! holding upper-case letters, lower-case letters and digits, with a character entropy of
//! at least [`MIN_BITS_PER_CHAR`] bits: long identifiers (`BetaManagedAgentsToolset…`), hex
//! digests and paths stay below it.

use super::unicode::Hit;

/// Shortest blob flagged, in characters (150 bytes of payload).
pub const MIN_BLOB_CHARS: usize = 200;
/// Least Shannon entropy of a blob's characters, bits per character (random base64 is
/// close to 6; English words and camel-case identifiers stay near 4).
pub const MIN_BITS_PER_CHAR: f64 = 4.8;
/// Shortest line taken as one line of a wrapped blob.
const MIN_WRAPPED_LINE: usize = 40;

/// One finding per blob, on its first line, with its length in characters.
pub fn scan(text: &str) -> Vec<Hit> {
    let mut out = Vec::new();
    let mut wrapped: Option<(u32, String)> = None;
    for (n, line) in crate::skill::files::numbered_lines(text) {
        let t = line.trim();
        if t.len() >= MIN_WRAPPED_LINE && t.bytes().all(is_b64_or_pad) {
            wrapped
                .get_or_insert_with(|| (n, String::new()))
                .1
                .push_str(t);
            continue;
        }
        if let Some((first, run)) = wrapped.take() {
            push_if_blob(&mut out, first, &run);
        }
        if line.len() >= MIN_BLOB_CHARS {
            for run in runs(line) {
                push_if_blob(&mut out, n, run);
            }
        }
    }
    if let Some((first, run)) = wrapped {
        push_if_blob(&mut out, first, &run);
    }
    out
}

/// The maximal runs of base64 bytes (padding included) of at least [`MIN_BLOB_CHARS`]
/// bytes in `line`.
fn runs(line: &str) -> impl Iterator<Item = &str> {
    let b = line.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            while i < b.len() && !is_b64_or_pad(b[i]) {
                i += 1;
            }
            let start = i;
            while i < b.len() && is_b64_or_pad(b[i]) {
                i += 1;
            }
            if i - start >= MIN_BLOB_CHARS {
                // Base64 bytes are ASCII, so the run's ends are char boundaries.
                return Some(&line[start..i]);
            }
        }
        None
    })
}

fn push_if_blob(out: &mut Vec<Hit>, line: u32, run: &str) {
    let run = run.trim_end_matches('=');
    if is_blob(run) {
        out.push((
            "safety-base64",
            line,
            format!(
                "a {}-character base64 blob: its content cannot be reviewed as text",
                run.len()
            ),
        ));
    }
}

fn is_b64_or_pad(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'='
}

/// Whether `run` (base64 characters, padding removed) is a blob by the module's rule.
pub fn is_blob(run: &str) -> bool {
    let b = run.as_bytes();
    if b.len() < MIN_BLOB_CHARS || b.contains(&b'=') {
        return false;
    }
    let has = |f: fn(&u8) -> bool| b.iter().any(f);
    if !(has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase) && has(u8::is_ascii_digit)) {
        return false;
    }
    let mut counts = [0usize; 128];
    for &c in b {
        counts[usize::from(c & 0x7f)] += 1;
    }
    let n = b.len() as f64;
    let bits: f64 = counts
        .iter()
        .filter(|&&k| k > 0)
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum();
    bits >= MIN_BITS_PER_CHAR
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_digests_are_not_blobs() {
        let ident = "BetaManagedAgentsAgentToolset20260401ParamsTypeAgentToolset20260401".repeat(4);
        assert!(!is_blob(&ident));
        let hex = "9b717589ca44cedc8aaf00b2b8cacef922964c0f".repeat(6);
        assert!(!is_blob(&hex));
    }
}
