//! Which markdown paragraphs read as prose, for one-line summaries: a summary comes from
//! text, never from a `URL: http…` label line, a bare link, a rule (`---`), an HTML or
//! component tag (`<script setup>`, `<!-- toc -->`, `<Badge … />`), a code fence, a table
//! or a list of table-of-contents items; nor from a crawler's placeholder.

/// Whether a summary is a crawler placeholder (`(placeholder - 50-word … goes here)`,
/// docs/FORMATS.md §6), or empty.
pub fn is_placeholder(summary: &str) -> bool {
    let l = summary.to_lowercase();
    l.is_empty() || l.starts_with("(placeholder") || l.contains("goes here")
}

/// Whether the markdown paragraph `p` (one block, lines joined by `\n`) is prose a summary
/// may quote. Emphasis markers (`**`, `__`) are ignored when looking at a label line.
pub fn is_prose(p: &str) -> bool {
    let t = p.trim();
    let Some(first) = t.lines().next() else {
        return false;
    };
    let first = first.trim();
    if t.starts_with('#')
        || t.starts_with('<')
        || t.starts_with("```")
        || t.starts_with("~~~")
        || t.starts_with('|')
        || is_rule(first)
        || is_url(first)
    {
        return false;
    }
    // A label line has a `:`, and dropping emphasis markers neither adds nor removes one;
    // it keeps every other char of the label, so a label holding a char no label has
    // (see `is_label_line`) cannot become one. Only the others need the copy below.
    if let Some((raw_label, _)) = first.split_once(':')
        && raw_label
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '*' | '_'))
    {
        let plain = first.replace("**", "").replace("__", "");
        if is_label_line(plain.trim()) {
            return false;
        }
    }
    // A paragraph made only of list items is a table of contents or an option list.
    !t.lines().all(|l| is_list_item(l.trim_start()))
}

/// `---`, `***`, `___` (three or more, spaces allowed).
fn is_rule(line: &str) -> bool {
    // Stops at the first char that is not the mark: a prose line costs a few chars.
    let mut marks = line.chars().filter(|c| !c.is_whitespace());
    let Some(mark) = marks.next() else {
        return false;
    };
    if !matches!(mark, '-' | '*' | '_') {
        return false;
    }
    let mut n = 1usize;
    for c in marks {
        if c != mark {
            return false;
        }
        n += 1;
    }
    n >= 3
}

fn is_url(s: &str) -> bool {
    let s = s.trim_start_matches('<').trim_end_matches('>');
    (s.starts_with("http://") || s.starts_with("https://")) && !s.contains(char::is_whitespace)
}

/// `Label:` alone, or followed by a link or a number only (`URL: http…`, `Pages: 26`,
/// `Contents:`); the label is at most four words.
fn is_label_line(line: &str) -> bool {
    let Some((label, rest)) = line.split_once(':') else {
        return false;
    };
    let words = label.split_whitespace().count();
    if words == 0
        || words > 4
        || label
            .chars()
            .any(|c| !(c.is_alphanumeric() || c == ' ' || c == '-'))
    {
        return false;
    }
    let rest = rest.trim();
    rest.is_empty() || is_url(rest) || rest.chars().all(|c| c.is_ascii_digit() || c == ',')
}

fn is_list_item(l: &str) -> bool {
    if l.starts_with("- ") || l.starts_with("* ") || l.starts_with("+ ") {
        return true;
    }
    let digits = l.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (l[digits..].starts_with(". ") || l[digits..].starts_with(") "))
}

#[cfg(test)]
mod tests {
    use super::is_prose;

    #[test]
    fn label_lines_links_rules_tags_and_lists_are_not_prose() {
        for p in [
            "**URL:** http://127.0.0.1:8765/docs/middleware/builtin/cache.md",
            "URL: http://127.0.0.1:8765/docs/cache.md",
            "**Pages:** 26",
            "**Contents:**\n- Import\n- Usage",
            "https://hono.dev/docs",
            "---",
            "* * *",
            "<script setup>\nimport X from './x.vue'\n</script>",
            "<!-- toc -->",
            "```ts\nconst a = 1\n```",
            "| a | b |\n|---|---|",
            "- [Import](#import)\n- [Usage](#usage)",
            "1. one\n2. two",
            "## Heading",
            "   ",
        ] {
            assert!(!is_prose(p), "{p:?}");
        }
    }

    #[test]
    fn rules_need_three_of_one_mark() {
        for p in ["***", "- - -", "___ _", "----------"] {
            assert!(!is_prose(p), "{p:?} is a rule");
        }
        for p in ["--", "-*-", "-- x", "\u{2014}\u{2014}\u{2014}", "__init__"] {
            assert!(is_prose(p), "{p:?} is no rule");
        }
    }

    #[test]
    fn label_prefilter_gives_the_answer_of_the_full_label_test() {
        // The label test as it was before the pre-filter: always on the copy.
        let full = |p: &str| {
            let first = p.trim().lines().next().unwrap_or("").trim();
            let plain = first.replace("**", "").replace("__", "");
            super::is_label_line(plain.trim())
        };
        for p in [
            "**Contents:**",
            "__Pages:__ 26",
            "** Label:** 3",
            "*Note*: 12",
            "Step 1: 2",
            "Four word long label: https://x.y/z",
            "Five word long label here: 1",
            "a_b: 7",
            "x-y: ",
            "path/to: 1",
            "(a): 1",
            "Caf\u{e9}: 1",
            "tab\there: 1",
            "**Status:** Draft",
        ] {
            let expected = full(p);
            assert_eq!(!is_prose(p), expected, "{p:?}");
        }
    }

    #[test]
    fn sentences_are_prose_even_with_a_colon() {
        for p in [
            "The Cache middleware uses the Web Standards' Cache API.",
            "Note: the default is `false` when no option is given.",
            "See https://hono.dev for more.",
            "- but a paragraph starting with a dash\nthat goes on as text",
        ] {
            assert!(is_prose(p), "{p:?}");
        }
    }
}
