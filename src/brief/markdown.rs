//! The markdown brief layout (pinned by `tests/brief_golden.rs`): header, one block per
//! section with provenance, a closing "Left out" line when a token budget dropped sections.
//! See [`crate::brief`] for the exact layout. Pure: no I/O.

use crate::model::{Corpus, NodeId};
use crate::tokens::TokenCounter;

use super::Brief;
use crate::util::human::human_count;

/// What the brief is about: a hand-made selection or a query.
pub(crate) enum Head<'a> {
    /// Sections the user selected.
    Selection,
    /// Top-k BM25 hits of `query`.
    Query {
        /// The query as typed.
        query: &'a str,
        /// How many hits were asked for.
        top_k: usize,
        /// `(typed, searched as)` did-you-mean corrections the search applied.
        corrections: &'a [(String, String)],
    },
}

/// One candidate section: a text-bearing node and, for query briefs, its BM25 score.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub node: NodeId,
    pub score: Option<f64>,
    /// Include only the node's own text (a BM25 document), not its sub-sections.
    pub own_text: bool,
}

/// A section rendered once, with its sizes.
struct Block {
    /// `## title` … `---` block, ending in `"---\n"`.
    text: String,
    /// The section's id (for the left-out list).
    id: String,
    /// Root label of the section's root.
    root: String,
    /// Bytes of the section text as included (after trimming trailing blank lines).
    body_bytes: u64,
    /// Tokens of the section text as included.
    body_tokens: u64,
}

/// Render `entries` under `head`; with `budget` (tokens of the whole brief), sections that do
/// not fit are left out and listed by id in [`Brief::left_out`] and in the closing line.
pub(crate) fn build(
    corpus: &Corpus,
    head: &Head<'_>,
    entries: &[Entry],
    budget: Option<u64>,
    counter: TokenCounter,
) -> Brief {
    let blocks: Vec<Block> = entries.iter().map(|e| render_block(corpus, *e, counter)).collect();
    let mut keep = vec![true; blocks.len()];
    if let Some(max) = budget {
        pack_blocks(head, &blocks, &mut keep, max, counter);
    }
    let text = assemble(head, &blocks, &keep, budget, counter);
    finish(text, &blocks, &keep, counter)
}

fn finish(text: String, blocks: &[Block], keep: &[bool], counter: TokenCounter) -> Brief {
    let left_out = blocks.iter().zip(keep).filter(|(_, k)| !**k).map(|(b, _)| b.id.clone()).collect();
    Brief {
        bytes: text.len(),
        tokens: counter.count(&text),
        encoding: counter.encoding(),
        sections: keep.iter().filter(|k| **k).count(),
        left_out,
        text,
    }
}

/// Choose the sections to keep under `max` tokens for the whole brief.
///
/// When everything fits (counted exactly), everything is kept. Otherwise costs are counted
/// per piece (header, each `\n` + block, each left-out id with its `, `
/// separator, the closing line), a close estimate of the whole text. Passes in order add every
/// section that fits while all not-yet-kept sections are assumed listed in the closing line,
/// so the estimate of the current choice always fits; a pass repeats while it added something
/// (a kept section shortens the closing line, which may make room for another). First-fit
/// in order: a section that does not fit is skipped and later ones are still tried. Finally
/// the exact text is counted and the last kept section dropped until the whole brief fits
/// (or nothing is kept).
fn pack_blocks(head: &Head<'_>, blocks: &[Block], keep: &mut [bool], max: u64, counter: TokenCounter) {
    let base = counter.count(&header(head, &blocks.iter().collect::<Vec<_>>(), counter));
    let block_cost: Vec<u64> = blocks.iter().map(|b| counter.count(&format!("\n{}", b.text))).collect();
    // Count the whole text exactly only when the estimate is near the budget.
    let all: u64 = base + block_cost.iter().sum::<u64>();
    keep.iter_mut().for_each(|k| *k = true);
    if all <= max + max / 8 + 64 && counter.count(&assemble(head, blocks, keep, Some(max), counter)) <= max {
        return;
    }
    keep.iter_mut().for_each(|k| *k = false);
    let id_cost: Vec<u64> = blocks.iter().map(|b| counter.count(&b.id) + counter.count(", ")).collect();
    let footer_base = counter.count(&format!("\n{}", left_out_line(max, &[])));
    // Upper bound of the closing line once it is abridged: the longest ids and the tail.
    let mut longest = id_cost.clone();
    longest.sort_unstable_by(|a, b| b.cmp(a));
    let abridged = longest.iter().take(LEFT_OUT_LISTED).sum::<u64>()
        + counter.count(&format!(" and {0} more ({0} in all)", human_count(blocks.len() as u64)));
    // Running sums of the estimate: kept blocks, and ids named in the closing line.
    let mut kept_cost = 0u64;
    let mut left_cost: u64 = id_cost.iter().sum();
    let mut left_count = blocks.len();
    for _pass in 0..16 {
        let mut added = false;
        for i in 0..blocks.len() {
            if keep[i] {
                continue;
            }
            let (kept, left, count) = (kept_cost + block_cost[i], left_cost - id_cost[i], left_count - 1);
            let footer = match count {
                0 => 0,
                n if n > LEFT_OUT_LISTED => footer_base + abridged,
                _ => footer_base + left,
            };
            if base + kept + footer <= max {
                keep[i] = true;
                (kept_cost, left_cost, left_count) = (kept, left, count);
                added = true;
            }
        }
        if !added {
            break;
        }
    }
    while counter.count(&assemble(head, blocks, keep, Some(max), counter)) > max {
        match keep.iter().rposition(|k| *k) {
            Some(last) => keep[last] = false,
            None => return,
        }
    }
}

/// How many left-out ids the closing line names; beyond that it says how many more there are
/// (all of them are always in [`Brief::left_out`]).
pub(crate) const LEFT_OUT_LISTED: usize = 50;

/// The closing line naming the left-out ids: all of them up to [`LEFT_OUT_LISTED`], else the
/// first [`LEFT_OUT_LISTED`] and `and <n> more (<total> in all)`.
pub(crate) fn left_out_line(max: u64, ids: &[&str]) -> String {
    let shown = &ids[..ids.len().min(LEFT_OUT_LISTED)];
    let more = if ids.len() > shown.len() {
        format!(
            " and {} more ({} in all)",
            human_count((ids.len() - shown.len()) as u64),
            human_count(ids.len() as u64)
        )
    } else {
        String::new()
    };
    format!("Left out (over the {}-token budget): {}{more}\n", human_count(max), shown.join(", "))
}

/// The whole brief text: header, kept blocks, closing line (when `budget` left some out).
fn assemble(
    head: &Head<'_>,
    blocks: &[Block],
    keep: &[bool],
    budget: Option<u64>,
    counter: TokenCounter,
) -> String {
    if blocks.is_empty() {
        let mut out = String::from("# Context brief\n\n");
        if let Head::Query { .. } = head {
            out.push_str(&query_lines(head));
            out.push_str("\nNo sections matched.\n");
        } else {
            out.push_str("No sections selected.\n");
        }
        return out;
    }
    let kept: Vec<&Block> = blocks.iter().zip(keep).filter(|(_, k)| **k).map(|(b, _)| b).collect();
    let mut out = header(head, &kept, counter);
    for b in &kept {
        out.push('\n');
        out.push_str(&b.text);
    }
    let left: Vec<&str> = blocks.iter().zip(keep).filter(|(_, k)| !**k).map(|(b, _)| b.id.as_str()).collect();
    if let (Some(max), false) = (budget, left.is_empty()) {
        out.push('\n');
        out.push_str(&left_out_line(max, &left));
    }
    out
}

/// `Query:` (and `Searched as:`) lines of a query brief; empty for a selection.
fn query_lines(head: &Head<'_>) -> String {
    let Head::Query { query, top_k, corrections } = head else { return String::new() };
    let mut out = format!("Query: {} · top {top_k} by BM25\n", one_line(query));
    if !corrections.is_empty() {
        let list: Vec<String> = corrections.iter().map(|(a, b)| format!("{a} → {b}")).collect();
        out.push_str(&format!("Searched as: {}\n", one_line(&list.join(", "))));
    }
    out
}

/// Everything before the first block: title, query lines, `Sources:` line, `---`.
fn header(head: &Head<'_>, kept: &[&Block], counter: TokenCounter) -> String {
    let mut roots: Vec<&str> = Vec::new();
    for b in kept {
        if !roots.contains(&b.root.as_str()) {
            roots.push(&b.root);
        }
    }
    let tokens: u64 = kept.iter().map(|b| b.body_tokens).sum();
    let bytes: u64 = kept.iter().map(|b| b.body_bytes).sum();
    format!(
        "# Context brief\n\n{}Sources: {} · {} {} · {} tokens ({}) · {} bytes\n\n---\n",
        query_lines(head),
        if roots.is_empty() { "none".to_string() } else { roots.join(", ") },
        kept.len(),
        if kept.len() == 1 { "section" } else { "sections" },
        human_count(tokens),
        counter.encoding().as_str(),
        human_count(bytes),
    )
}

fn render_block(corpus: &Corpus, entry: Entry, counter: TokenCounter) -> Block {
    let node = corpus.node(entry.node);
    let root = corpus.node(corpus.root_of(entry.node));
    let root_label = if root.id.is_empty() { root.title.clone() } else { root.id.clone() };
    let span = node.span;
    let (raw, line_end) = match span {
        Some(sp) if entry.own_text && sp.own_end < sp.end => {
            let own = corpus.own_text(entry.node);
            let lines = own.split_inclusive('\n').count() as u32;
            (own, node.line_start.map(|a| a + lines.max(1) - 1))
        }
        _ => (corpus.text(entry.node), node.line_end),
    };
    let body = trim_trailing_blank_lines(raw);
    let title = if node.title.trim().is_empty() { node.id.as_str() } else { node.title.as_str() };
    let mut prov = vec![code_span(&node.id)];
    if !node.path.is_empty() {
        prov.push(one_line(&node.path));
    }
    match (node.line_start, line_end) {
        (Some(a), Some(b)) if b > a => prov.push(format!("lines {a}–{b}")),
        (Some(a), _) => prov.push(format!("line {a}")),
        _ => {}
    }
    if let Some(s) = entry.score {
        prov.push(format!("score {s:.3}"));
    }
    let shown_body = if body.is_empty() { "_(no text)_" } else { body };
    let text = format!("## {}\n{}\n\n{shown_body}\n\n---\n", one_line(title), prov.join(" · "));
    Block {
        text,
        id: node.id.clone(),
        root: root_label,
        body_bytes: body.len() as u64,
        body_tokens: counter.count(body),
    }
}

/// `text` without its trailing blank (empty or whitespace-only) lines and without the line
/// break of its last line; everything else, including leading blank lines and trailing spaces
/// of the last non-blank line, is kept.
pub(crate) fn trim_trailing_blank_lines(text: &str) -> &str {
    let mut end = text.len();
    loop {
        let head = &text[..end];
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        if !head[line_start..].trim().is_empty() {
            break;
        }
        if line_start == 0 {
            return "";
        }
        end = line_start - 1;
    }
    text[..end].strip_suffix('\r').unwrap_or(&text[..end])
}

/// A single-line rendering of a title or path: line breaks become spaces (a heading line
/// must stay one line). Nothing else changes.
fn one_line(s: &str) -> String {
    s.replace("\r\n", " ").replace(['\n', '\r'], " ")
}

/// A markdown code span holding `s` verbatim: fenced with one more backtick than the longest
/// backtick run inside, padded with spaces when `s` starts or ends with a backtick.
pub(crate) fn code_span(s: &str) -> String {
    let s = one_line(s);
    let mut longest = 0;
    let mut run = 0;
    for ch in s.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if s.starts_with('`') || s.ends_with('`') {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_blank_lines_are_trimmed_and_nothing_else() {
        assert_eq!(trim_trailing_blank_lines("a\nb\n\n  \n\t\n"), "a\nb");
        assert_eq!(trim_trailing_blank_lines("\n\na  \n"), "\n\na  ");
        assert_eq!(trim_trailing_blank_lines("a\r\nb\r\n\r\n"), "a\r\nb");
        assert_eq!(trim_trailing_blank_lines("x"), "x");
        assert_eq!(trim_trailing_blank_lines(" \n\n"), "");
        assert_eq!(trim_trailing_blank_lines(""), "");
    }

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code_span("docs/a.md#x"), "`docs/a.md#x`");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
    }
}
