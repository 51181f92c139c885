//! One-paragraph summaries of a section: what a summarize-mode brief shows for it and what
//! an exported skill's table of sections says about it.

/// Condensed text of summarize mode: at most this many characters (then `…`).
pub const SUMMARY_CHARS: usize = 300;

/// Summarize mode's text of a section: the node summary when it has one, else the
/// frontmatter `description` of a text that starts with one (a SKILL.md; also a `+++` TOML
/// block), else the first paragraph of its text (after any frontmatter) that is not a heading; whitespace collapsed, cut to
/// [`SUMMARY_CHARS`] characters with a trailing `…` when longer.
pub fn summary_of(summary: &str, body: &str) -> String {
    // A leading frontmatter block is metadata, not prose: its `description` stands in for
    // the first paragraph (a SKILL.md), else it is skipped.
    let (described, body) = match crate::frontmatter::parse(body).filter(|fm| fm.block.end > 0) {
        Some(fm) => {
            let desc = match fm.get("description").map(|e| &e.value) {
                Some(crate::frontmatter::Value::Str(d)) if !d.trim().is_empty() => Some(d.clone()),
                _ => None,
            };
            (desc, body.get(fm.block.end..).unwrap_or(""))
        }
        None => match crate::frontmatter::parse_toml(body) {
            // Hugo's `+++` TOML front matter, the same way.
            Some(t) => (
                t.meta
                    .get("description")
                    .and_then(|d| d.as_str())
                    .filter(|d| !d.trim().is_empty())
                    .map(str::to_string),
                body.get(t.block.end..).unwrap_or(""),
            ),
            None => (None, body),
        },
    };
    let src = if !summary.trim().is_empty() {
        summary
    } else if let Some(d) = described.as_deref() {
        d
    } else {
        body.split("\n\n")
            .map(str::trim)
            .find(|p| !p.is_empty() && !p.starts_with('#'))
            .unwrap_or("")
    };
    let flat = src.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= SUMMARY_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(SUMMARY_CHARS - 1).collect();
    cut.push('…');
    cut
}
