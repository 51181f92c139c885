//! One-paragraph summaries of a section: what a summarize-mode brief shows for it and what
//! an exported skill's table of sections says about it.

use crate::util::prose::is_prose;

/// Condensed text of summarize mode: at most this many characters (then `…`).
pub const SUMMARY_CHARS: usize = 300;

/// Summarize mode's text of a section: the node summary when it is prose, else the
/// frontmatter `description` of a text that starts with one (a SKILL.md; also a `+++` TOML
/// block), else the first paragraph of its text (after any frontmatter) that is prose
/// ([`is_prose`]: not a heading, not a `URL: http…` label line, a rule, a tag, code, a table
/// or a list), as plain text (links as their text, no emphasis markers); backticks dropped,
/// whitespace collapsed, cut to [`SUMMARY_CHARS`] characters with a trailing `…` when longer.
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
    let plain;
    let src = if is_prose(summary) {
        summary
    } else if let Some(d) = described.as_deref() {
        d
    } else {
        plain = body
            .split("\n\n")
            .map(str::trim)
            .find(|p| is_prose(p))
            .map(plain_text)
            .unwrap_or_default();
        &plain
    };
    // Inline code reads as its text: no backticks in a summary.
    let flat = src
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('`', "");
    if flat.chars().count() <= SUMMARY_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(SUMMARY_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// The text of one markdown paragraph without its markup: inline code without backticks,
/// links as their text, emphasis markers and HTML tags dropped.
fn plain_text(md: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    let mut out = String::new();
    for ev in Parser::new(md) {
        match ev {
            Event::Text(t) | Event::Code(t) => out.push_str(&t),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_drop_inline_markup() {
        assert_eq!(
            summary_of(
                "",
                "# T\n\nCall `cors()` and see [the docs](https://x.dev) **now**.\n"
            ),
            "Call cors() and see the docs now."
        );
        assert_eq!(
            summary_of("Use `fm set` to edit.", ""),
            "Use fm set to edit."
        );
    }

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
