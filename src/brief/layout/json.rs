//! JSON layout of briefs (`--format json`): one pretty-printed object (2-space
//! indent, keys of each object in alphabetical order, trailing `\n`) with these fields:
//!
//! ```text
//! {"schema": 1, "mode": "answer", "encoding": "o200k_base", "query": "…"|null, "top_k": k,
//!  "searched_as": [["typed", "used"], …], "max_tokens": M|null, "tokens": T, "bytes": B,
//!  "source_tokens": ST, "source_bytes": SB,
//!  "sections": [{"id", "title", "path", "root", "line_start", "line_end", "score",
//!                "origin", "exposure", "tokens", "source_tokens", "source_bytes",
//!                "text"}, …],
//!  "left_out": ["id", …], "left_out_count": n}
//! ```
//!
//! `left_out` names the first [`LEFT_OUT_LISTED`] ids left out over the
//! budget (as the other layouts do), `left_out_count` counts them all.
//!
//! `tokens`/`bytes`: Σ over the section texts as quoted here; `source_tokens`/`source_bytes`:
//! Σ over the sources as stored, the numbers the tree and `tree --json` show for those nodes
//! (docs/DESIGN.md §2 Sizes); `text` is `""` in locate mode; unknown line numbers and scores
//! are `null`.

use serde_json::{Value as Json, json};

use crate::brief::model::{BriefHead, BriefSection, LEFT_OUT_LISTED};

/// Render the JSON brief of `kept` sections, naming `left` ids as left out.
pub fn render(head: &BriefHead, kept: &[&BriefSection], left: &[&str]) -> String {
    let sections: Vec<Json> = kept
        .iter()
        .map(|s| {
            json!({
                "id": s.id,
                "title": s.title,
                "path": s.path,
                "root": s.root,
                "line_start": s.line_start,
                "line_end": s.line_end,
                "score": s.score.map(|x| (x * 1000.0).round() / 1000.0),
                "origin": s.origin.as_str(),
                "exposure": s.exposure.as_str(),
                "tokens": s.tokens,
                "source_tokens": s.source_tokens,
                "source_bytes": s.source_bytes,
                "text": s.text,
            })
        })
        .collect();
    let value = json!({
        "schema": 1,
        "mode": head.mode.as_str(),
        "encoding": head.encoding.as_str(),
        "query": head.query,
        "top_k": head.top_k,
        "searched_as": head.corrections.iter().map(|(a, b)| json!([a, b])).collect::<Vec<_>>(),
        "max_tokens": head.budget,
        "tokens": kept.iter().map(|s| s.tokens).sum::<u64>(),
        "bytes": kept.iter().map(|s| s.text.len() as u64).sum::<u64>(),
        "source_tokens": kept.iter().map(|s| s.source_tokens).sum::<u64>(),
        "source_bytes": kept.iter().map(|s| s.source_bytes).sum::<u64>(),
        "sections": sections,
        "left_out": left.iter().take(LEFT_OUT_LISTED).collect::<Vec<_>>(),
        "left_out_count": left.len(),
    });
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| "{}".to_string());
    text.push('\n');
    text
}
