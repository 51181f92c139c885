//! `skillnav show`: one node's text, found by id or exact title.

use std::io::{IsTerminal, Write};

use anyhow::bail;
use serde_json::json;

use super::args::Variant;
use crate::agent::json;
use crate::formats::catalog;
use crate::model::id::nfc;
use crate::model::{Corpus, NodeId};
use crate::tokens::TokenTable;
use crate::util::sanitize::sanitize;

/// Find a node by exact id, else by exact title (first in document order), else by
/// case-insensitive title ([`crate::agent::lookup::resolve`]).
pub fn find(corpus: &Corpus, key: &str) -> Option<NodeId> {
    crate::agent::lookup::resolve(corpus, key)
}

/// Print the node's text or its JSON with `text`. On a terminal the text is sanitised;
/// piped, it is written as the file's own bytes (bytes that are not UTF-8 included). A node
/// without text (a skill, a folder) prints its summary and children with sizes instead. When
/// a title matches several nodes, stderr says which id was chosen.
pub fn run(
    out: &mut dyn Write,
    corpus: &Corpus,
    tokens: &TokenTable,
    key: &str,
    as_json: bool,
) -> anyhow::Result<()> {
    let Some(id) = find(corpus, key) else {
        bail!("no node with id or title {key:?}");
    };
    if corpus.find(key).is_none() {
        let same = corpus
            .all_preorder()
            .into_iter()
            .filter(|n| nfc(&corpus.node(*n).title) == nfc(key))
            .count();
        if same > 1 {
            eprintln!(
                "note: {same} nodes are titled {key:?}; showing {} (pass an id to choose)",
                corpus.id(id)
            );
        }
    }
    let node = corpus.node(id);
    if as_json {
        let mut v = json::node(corpus, tokens, id, Some(0));
        v["text"] = json!(printable(corpus.text(id)));
        super::json_out::write_json(out, &v)?;
        return Ok(());
    }
    let Some(span) = node.span else {
        return Ok(super::tree::print_subtree(
            out,
            corpus,
            tokens,
            id,
            Some(1),
        )?);
    };
    let terminal = std::io::stdout().is_terminal();
    let src = &corpus.sources[span.source.0 as usize];
    if terminal {
        write!(out, "{}", sanitize(corpus.text(id)))?;
    } else if let (true, Some(path)) = (src.invalid_utf8, &src.abs_path) {
        // The text holds placeholder bytes for invalid UTF-8: print the file's real bytes.
        let bytes = std::fs::read(path)?;
        out.write_all(
            bytes
                .get(span.start..span.end.min(bytes.len()))
                .unwrap_or_default(),
        )?;
    } else {
        write!(out, "{}", corpus.text(id))?;
    }
    Ok(())
}

/// Text for JSON: the invalid-UTF-8 placeholder byte becomes U+FFFD.
fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\u{1A}') {
        text.replace('\u{1A}', "\u{FFFD}").into()
    } else {
        text.into()
    }
}

/// `show ID --variant V`: the section in one llms variant of a `Skill_Seekers` skill (the
/// active-skills design's `get_section`): `quick`/`complete` print the matching H1 part,
/// `standard` the matching llms.md links, `auto` complete unless it exceeds 50 KB.
pub fn run_variant(
    out: &mut dyn Write,
    corpus: &Corpus,
    key: &str,
    v: Variant,
    as_json: bool,
) -> anyhow::Result<()> {
    let variant = match v {
        Variant::Quick => catalog::Variant::Quick,
        Variant::Standard => catalog::Variant::Standard,
        Variant::Complete => catalog::Variant::Complete,
        Variant::Auto => catalog::Variant::Auto,
    };
    let skills: Vec<NodeId> = corpus
        .all_preorder()
        .into_iter()
        .filter(|n| corpus.node(*n).kind == crate::model::NodeKind::Skill)
        .collect();
    let scopes = if skills.is_empty() {
        corpus.roots.clone()
    } else {
        skills
    };
    let mut last_err = None;
    for skill in scopes {
        match catalog::show_section(corpus, skill, key, variant) {
            Ok(shown) => {
                let text: Vec<&str> = shown.nodes.iter().map(|n| corpus.text(*n)).collect();
                let text = text.join("\n");
                if as_json {
                    let ids: Vec<String> = shown.nodes.iter().map(|n| corpus.id(*n)).collect();
                    let v = json!({
                        "variant": shown.variant.as_str(),
                        "file": corpus.id(shown.file),
                        "ids": ids,
                        "bytes": shown.bytes,
                        "text": text,
                    });
                    super::json_out::write_json(out, &v)?;
                } else if std::io::stdout().is_terminal() {
                    write!(out, "{}", sanitize(&text))?;
                } else {
                    write!(out, "{text}")?;
                }
                return Ok(());
            }
            Err(e) => last_err = Some(e),
        }
    }
    match last_err {
        Some(e) => Err(e.into()),
        None => bail!("nothing loaded"),
    }
}
