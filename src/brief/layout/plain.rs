//! The plain markdown layout: a selection or a query's hits alone, without exposure levels
//! or an explicit mode (see [`crate::brief::build`] for when it is used). Exact, pinned by
//! the brief golden tests:
//!
//! ```text
//! # Context brief
//!
//! [Query: <query> · top <k> by BM25]           (query briefs only)
//! [Searched as: <typed> → <corrected>, …]      (query briefs, when did-you-mean applied)
//! Sources: <roots> · <N> section(s) · <T> tokens (<encoding>) · <B> bytes
//!
//! ---
//!
//! ## <section title>
//! `<id>` · <path> · lines <start>–<end>[ · score <s:.3>]
//!
//! <the section's text, trailing blank lines trimmed; without a first line that is the
//!  section's own heading, and without a closing `---`>
//!
//! ---
//! …one block per section…
//!
//! Left out (over the <max>-token budget): <id>, <id>, …
//! ```
//!
//! - The last two lines (a blank line and `Left out …`) appear only when a budget left
//!   sections out; past 50 ids the line names the first 50, then ` and <n> more (<total> in
//!   all)`.
//!
//! - `<roots>`: root labels of the *included* sections, comma-separated, in first-appearance
//!   order (`none` when a budget left every section out).
//! - `<T>`/`<B>`: Σ tokens and Σ bytes of the sources as stored (a section with its heading
//!   line and trailing blank lines, as the tree and `tree --json` show it; docs/DESIGN.md §2
//!   Sizes), with `,` thousands separators ([`crate::util::human::human_count`]).
//! - The provenance line: the id as a code span; the path relative to its root (omitted when
//!   empty); `lines a–b` (en dash) when the node has both line numbers and `b > a`, `line a`
//!   when it has only a start or `a == b`, nothing when it has no line range.
//! - The title is the node title (its id when the title is blank); line breaks in titles and
//!   paths become spaces. A section with no text shows `_(no text)_`.
//! - The text ends with `---\n` (or with the `Left out` line). Nothing is sanitised (a brief
//!   goes to the clipboard or a file, not the terminal) and nothing is cut silently.
//! - Selection briefs include each section's full text (`Corpus::text`, sub-sections
//!   included); query briefs each hit's own text (see [`crate::brief::query_brief`]).
//! - No sections: `# Context brief\n\nNo sections selected.\n` for a selection;
//!   for a query the header lines, a blank line and `No sections matched.`.

use crate::brief::model::{
    BriefHead, BriefSection, code_span, left_out_line, one_line, sources_line,
};

/// Render the plain brief of `kept` sections under `head` (a query brief when `head.query`
/// is set, else a selection brief), naming `left` ids as left out when `head.budget`
/// is set. With no section at all (`kept` and `left` empty): the "No sections selected."
/// or "No sections matched." brief.
pub fn render(head: &BriefHead, kept: &[&BriefSection], left: &[&str]) -> String {
    if kept.is_empty() && left.is_empty() {
        let mut out = String::from("# Context brief\n\n");
        if head.query.is_some() {
            out.push_str(&query_lines(head));
            out.push_str("\nNo sections matched.\n");
        } else {
            out.push_str("No sections selected.\n");
        }
        return out;
    }
    let mut out = header(head, kept);
    for s in kept {
        out.push('\n');
        block(&mut out, s);
    }
    if let (Some(max), false) = (head.budget, left.is_empty()) {
        out.push('\n');
        out.push_str(&left_out_line(max, left));
    }
    out
}

/// `Query:` (and `Searched as:`) lines of a query brief; empty for a selection.
fn query_lines(head: &BriefHead) -> String {
    let Some(query) = &head.query else {
        return String::new();
    };
    let mut out = format!("Query: {} · top {} by BM25\n", one_line(query), head.top_k);
    if !head.corrections.is_empty() {
        let list: Vec<String> = head
            .corrections
            .iter()
            .map(|(a, b)| format!("{a} → {b}"))
            .collect();
        out.push_str(&format!("Searched as: {}\n", one_line(&list.join(", "))));
    }
    out
}

/// Everything before the first block: title, query lines, `Sources:` line, `---`.
fn header(head: &BriefHead, kept: &[&BriefSection]) -> String {
    format!(
        "# Context brief\n\n{}{}",
        query_lines(head),
        sources_line(head, kept)
    )
}

/// One section: `## title`, the provenance line, the text, `---`.
fn block(out: &mut String, s: &BriefSection) {
    let mut prov = vec![code_span(&s.id)];
    if !s.path.is_empty() {
        prov.push(s.path.clone());
    }
    match (s.line_start, s.line_end) {
        (Some(a), Some(b)) if b > a => prov.push(format!("lines {a}–{b}")),
        (Some(a), _) => prov.push(format!("line {a}")),
        _ => {}
    }
    if let Some(score) = s.score {
        prov.push(format!("score {score:.3}"));
    }
    let text = if s.text.is_empty() {
        "_(no text)_"
    } else {
        &s.text
    };
    out.push_str(&format!(
        "## {}\n{}\n\n{text}\n\n---\n",
        s.title,
        prov.join(" · ")
    ));
}
