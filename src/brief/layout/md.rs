//! Markdown layout of curated briefs (a mode, exposure levels, or a selection with a query;
//! see [`crate::brief::build`]). Exact:
//!
//! ```text
//! # Context brief
//!
//! [Query: <query> · top <k> by BM25]            (when there is a query)
//! [Searched as: <typed> → <used>, …]             (when did-you-mean applied)
//! Mode: <answer|extract|locate|summarize>
//! Sources: <roots> · <N> section(s) · <T> tokens (<encoding>) · <B> bytes
//!
//! ---
//!
//! ## <title>
//! `<id>` · <path> · lines <a>–<b> · score <s:.3> · <origin>
//!
//! <text>                                         (not in locate mode)
//!
//! ---
//!
//! Left out (over the <max>-token budget): <id>, <id>, …
//! ```
//!
//! `<T>`/`<B>`: Σ tokens / bytes of the sources as stored (a section with its heading line;
//! the numbers the tree and `tree --json` show for those nodes, docs/DESIGN.md §2 Sizes). Provenance parts are omitted
//! when unknown (path empty, no line range, no score), `line a` for a one-line range. An
//! empty text (outside locate mode) shows `_(no text)_`. The left-out line names at most 50
//! ids, then ` and <n> more (<total> in all)`. With no sections at all the brief ends after
//! the `Mode:` line with a blank line and `No sections selected or matched.`.

use crate::brief::mode::Mode;
use crate::brief::model::{
    BriefHead, BriefSection, code_span, left_out_line, one_line, sources_line,
};

/// Render the markdown brief of `kept` sections, naming `left` ids as left out.
pub fn render(head: &BriefHead, kept: &[&BriefSection], left: &[&str]) -> String {
    let mut out = String::from("# Context brief\n\n");
    if let Some(q) = &head.query {
        out.push_str(&format!(
            "Query: {} · top {} by BM25\n",
            one_line(q),
            head.top_k
        ));
        if !head.corrections.is_empty() {
            let list: Vec<String> = head
                .corrections
                .iter()
                .map(|(a, b)| format!("{a} → {b}"))
                .collect();
            out.push_str(&format!("Searched as: {}\n", list.join(", ")));
        }
    }
    out.push_str(&format!("Mode: {}\n", head.mode));
    if kept.is_empty() && left.is_empty() {
        out.push_str("\nNo sections selected or matched.\n");
        return out;
    }
    out.push_str(&sources_line(head, kept));
    for s in kept {
        out.push_str(&format!("\n## {}\n{}\n\n", s.title, provenance(s)));
        if head.mode != Mode::Locate {
            out.push_str(if s.text.is_empty() {
                "_(no text)_"
            } else {
                &s.text
            });
            out.push_str("\n\n");
        }
        out.push_str("---\n");
    }
    if let (Some(max), false) = (head.budget, left.is_empty()) {
        out.push('\n');
        out.push_str(&left_out_line(max, left));
    }
    out
}

fn provenance(s: &BriefSection) -> String {
    let mut prov = vec![code_span(&s.id)];
    if !s.path.is_empty() {
        prov.push(s.path.clone());
    }
    match (s.line_start, s.line_end) {
        (Some(a), Some(b)) if b > a => prov.push(format!("lines {a}–{b}")),
        (Some(a), _) => prov.push(format!("line {a}")),
        _ => {}
    }
    if let Some(sc) = s.score {
        prov.push(format!("score {sc:.3}"));
    }
    prov.push(s.origin.to_string());
    prov.join(" · ")
}
