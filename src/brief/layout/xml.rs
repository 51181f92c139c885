//! Claude-style XML layout of briefs (`--format xml`). Exact:
//!
//! ```text
//! <context_brief mode="answer" encoding="o200k_base" sections="N" tokens="T"[ query="…"][ max_tokens="M"]>
//! <document id="…" title="…"[ path="…"][ lines="a-b"][ score="s.sss"] origin="selected" exposure="on-demand">
//! <text; `&`, `<`, `>` escaped>                  (not in locate mode; the element is then empty)
//! </document>
//! <left_out max_tokens="M" count="n">id, id[, and k more]</left_out>   (when a budget left sections out; at most 50 ids)
//! </context_brief>
//! ```
//!
//! Attribute values escape `&`, `<`, `>`, `"` ([`crate::skill::listing::escape_xml`]); in
//! attributes and text, characters XML 1.0 forbids become U+FFFD; `T` = Σ
//! tokens of the sources as stored, the numbers the tree shows for them (docs/DESIGN.md §2
//! Sizes). `lines` is `a-b`, or `a` for a one-line range. Each line
//! ends with `\n`. Did-you-mean corrections add `searched_as="typed→used, …"`.

use crate::brief::mode::Mode;
use crate::brief::model::{BriefHead, BriefSection};
use crate::skill::listing::escape_xml;

/// Escape element text: `&`, `<`, `>`; each character XML 1.0 forbids
/// ([`crate::skill::listing::is_xml_char`]) becomes U+FFFD. A `"` stays as it is (only
/// attribute values need it escaped: [`escape_xml`]).
pub fn escape_text(s: &str) -> String {
    crate::skill::listing::escape_xml_with(s, false)
}

/// Render the XML brief of `kept` sections, naming `left` ids as left out.
pub fn render(head: &BriefHead, kept: &[&BriefSection], left: &[&str]) -> String {
    let tokens: u64 = kept.iter().map(|s| s.source_tokens).sum();
    let mut out = format!(
        "<context_brief mode=\"{}\" encoding=\"{}\" sections=\"{}\" tokens=\"{tokens}\"",
        head.mode,
        head.encoding.as_str(),
        kept.len()
    );
    if let Some(q) = &head.query {
        out.push_str(&format!(" query=\"{}\"", escape_xml(q)));
    }
    if !head.corrections.is_empty() {
        let list: Vec<String> = head
            .corrections
            .iter()
            .map(|(a, b)| format!("{a}→{b}"))
            .collect();
        out.push_str(&format!(
            " searched_as=\"{}\"",
            escape_xml(&list.join(", "))
        ));
    }
    if let Some(m) = head.budget {
        out.push_str(&format!(" max_tokens=\"{m}\""));
    }
    out.push_str(">\n");
    for s in kept {
        out.push_str(&format!(
            "<document id=\"{}\" title=\"{}\"",
            escape_xml(&s.id),
            escape_xml(&s.title)
        ));
        if !s.path.is_empty() {
            out.push_str(&format!(" path=\"{}\"", escape_xml(&s.path)));
        }
        match (s.line_start, s.line_end) {
            (Some(a), Some(b)) if b > a => out.push_str(&format!(" lines=\"{a}-{b}\"")),
            (Some(a), _) => out.push_str(&format!(" lines=\"{a}\"")),
            _ => {}
        }
        if let Some(sc) = s.score {
            out.push_str(&format!(" score=\"{sc:.3}\""));
        }
        out.push_str(&format!(
            " origin=\"{}\" exposure=\"{}\">\n",
            s.origin, s.exposure
        ));
        if head.mode != Mode::Locate && !s.text.is_empty() {
            out.push_str(&escape_text(&s.text));
            out.push('\n');
        }
        out.push_str("</document>\n");
    }
    if let (Some(max), false) = (head.budget, left.is_empty()) {
        let listed = crate::brief::model::LEFT_OUT_LISTED;
        let mut ids = left
            .iter()
            .take(listed)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        if left.len() > listed {
            ids.push_str(&format!(", and {} more", left.len() - listed));
        }
        out.push_str(&format!(
            "<left_out max_tokens=\"{max}\" count=\"{}\">{}</left_out>\n",
            left.len(),
            escape_text(&ids)
        ));
    }
    out.push_str("</context_brief>\n");
    out
}
