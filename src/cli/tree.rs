//! `skillnav tree`: the node tree as indented text or JSON.

use std::io::Write;

use serde_json::json;

use crate::agent::json;
use crate::model::{Corpus, NodeId, NodeKind};
use crate::tokens::TokenTable;
use crate::util::human::{human_bytes, human_count};
use crate::util::sanitize::sanitize_line;

/// Print the tree of every root, `depth` levels deep (`None` = all).
pub fn print(
    out: &mut dyn Write,
    corpus: &Corpus,
    tokens: &TokenTable,
    depth: Option<usize>,
    as_json: bool,
) -> std::io::Result<()> {
    if as_json {
        let roots: Vec<_> = corpus
            .roots
            .iter()
            .map(|r| json::node(corpus, tokens, *r, depth))
            .collect();
        let v = json!({"schema": 1, "encoding": tokens.encoding.as_str(), "roots": roots});
        return super::json_out::write_json(out, &v);
    }
    for r in &corpus.roots {
        print_node(out, corpus, tokens, *r, 0, depth)?;
    }
    writeln!(out, "tokens: {}", tokens.encoding.as_str())
}

/// Print one node (with its summary, when it has one) and its subtree `depth` levels deep:
/// what `show` prints for a node that has no text of its own (a skill, a folder).
pub fn print_subtree(
    out: &mut dyn Write,
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    depth: Option<usize>,
) -> std::io::Result<()> {
    let summary = corpus.summary(id);
    if !summary.is_empty() {
        writeln!(out, "{}", sanitize_line(summary))?;
    }
    print_node(out, corpus, tokens, id, 0, depth)
}

fn print_node(
    out: &mut dyn Write,
    corpus: &Corpus,
    tokens: &TokenTable,
    id: NodeId,
    level: usize,
    depth: Option<usize>,
) -> std::io::Result<()> {
    let n = corpus.node(id);
    let glyph = match n.kind {
        NodeKind::Root => "◆",
        NodeKind::Skill => "★",
        NodeKind::Dir | NodeKind::Group => "▸",
        NodeKind::File => "·",
        NodeKind::Section => "#",
        NodeKind::Chunk | NodeKind::Part => "¶",
        NodeKind::Link => "→",
        NodeKind::Adr => "§",
    };
    let sigma = if n.children.is_empty() { "" } else { "Σ" };
    let tok = tokens.total(id).map_or_else(|| "?".into(), human_count);
    let mut flags: Vec<&str> = n.flags.iter().map(|f| f.as_str()).collect();
    if !n.warnings.is_empty() {
        flags.push("warnings");
    }
    let flags = if flags.is_empty() {
        String::new()
    } else {
        format!("  [{}]", flags.join(", "))
    };
    writeln!(
        out,
        "{}{glyph} {}  {} · {sigma}{tok} tok{flags}",
        "  ".repeat(level),
        sanitize_line(&n.title),
        human_bytes(n.bytes),
    )?;
    for w in &n.warnings {
        writeln!(
            out,
            "{}  ! {}",
            "  ".repeat(level),
            sanitize_line(&w.to_string())
        )?;
    }
    if depth.is_some_and(|d| level >= d) {
        return Ok(());
    }
    for c in &n.children {
        print_node(out, corpus, tokens, *c, level + 1, depth)?;
    }
    Ok(())
}
