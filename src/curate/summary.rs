//! One-paragraph summaries of a section: what a summarize-mode brief shows for it and what
//! an exported skill's table of sections says about it.

use crate::util::prose::is_prose;

/// Condensed text of summarize mode: at most this many characters (then `…`).
pub const SUMMARY_CHARS: usize = 300;

/// Summarize mode's text of a section: the node summary when it is prose, else the
/// frontmatter `description` of a text that starts with one (a SKILL.md; also a `+++` TOML
/// block), else the first paragraph of its text (after any frontmatter) that is prose
/// ([`is_prose`]: not a heading, not a `URL: http…` label line, a rule, a tag, code, a table
/// or a list); whitespace collapsed, cut to [`SUMMARY_CHARS`] characters with a trailing `…`
/// when longer.
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
    let src = if is_prose(summary) {
        summary
    } else if let Some(d) = described.as_deref() {
        d
    } else {
        body.split("\n\n")
            .map(str::trim)
            .find(|p| is_prose(p))
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

#[cfg(test)]
mod tests {
    use super::summary_of;

    #[test]
    fn a_skill_seekers_page_is_summarized_by_its_first_sentence_not_its_url_line() {
        let body = "## Cache Middleware\n\n**URL:** http://127.0.0.1:8765/docs/cache.md\n\n\
                    **Contents:**\n- Import\n- Usage\n\n\
                    The Cache middleware uses the Web Standards' Cache API.\n";
        assert_eq!(
            summary_of("URL: http://127.0.0.1:8765/docs/cache.md", body),
            "The Cache middleware uses the Web Standards' Cache API."
        );
        assert_eq!(summary_of("Caches responses.", body), "Caches responses.");
    }
}
