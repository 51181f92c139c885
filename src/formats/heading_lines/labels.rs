//! The link reference labels a markdown text may define (`[label]: …`), for the heading
//! line scan ([`super::headings`]): a bracket in a heading that one of them may resolve is
//! left to the whole-text parse.

/// The labels a text may define link references for: every `[label]` right before a `]:`
/// (a superset: in code too), normalized (ASCII lower case, whitespace collapsed).
#[derive(Default)]
pub(super) struct RefLabels {
    pub labels: Vec<Vec<u8>>,
    /// A `]:` whose `[` is not on its line (a label over two lines): any bracket may
    /// resolve.
    pub any: bool,
}

impl RefLabels {
    /// `None` when `b` holds no `]:` at all.
    pub(super) fn of(b: &[u8]) -> Option<Self> {
        let mut out = RefLabels::default();
        let mut found = false;
        for p in memchr::memmem::find_iter(b, b"]:") {
            found = true;
            let line_start = memchr::memrchr(b'\n', &b[..p]).map_or(0, |i| i + 1);
            match memchr::memrchr(b'[', &b[line_start..p]) {
                // A non-ASCII label may case-fold onto an ASCII one (`K`, the Kelvin sign).
                Some(open) if b[line_start + open + 1..p].is_ascii() => {
                    out.labels.push(normalize(&b[line_start + open + 1..p]));
                }
                Some(_) => out.any = true,
                None => out.any = true,
            }
        }
        found.then_some(out)
    }

    /// Whether heading text `t` holds a bracket that may resolve to one of the labels (or
    /// a bracket this test cannot read: after a backslash, or around non-ASCII text).
    pub(super) fn may_resolve(&self, t: &[u8]) -> bool {
        if !t.iter().any(|&b| b == b'[' || b == b']') || (self.labels.is_empty() && !self.any) {
            return false;
        }
        if self.any || t.contains(&b'\\') {
            return true;
        }
        // Every innermost `[…]` of the heading.
        let mut open = None;
        for (i, &b) in t.iter().enumerate() {
            match b {
                b'[' => open = Some(i),
                b']' => {
                    if let Some(o) = open.take() {
                        let inside = &t[o + 1..i];
                        if !inside.is_ascii() || self.labels.contains(&normalize(inside)) {
                            return true;
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }
}

/// A link label as compared: ASCII lower case, runs of whitespace as one space, trimmed;
/// non-ASCII bytes kept (a label holding them always counts as a possible match).
pub(super) fn normalize(label: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(label.len());
    for w in label
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend(w.iter().map(u8::to_ascii_lowercase));
    }
    out
}
