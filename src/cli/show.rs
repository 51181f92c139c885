//! `skillnav show`: one node's text, found by id or exact title.

use std::io::{IsTerminal, Write};

use anyhow::bail;
use serde_json::json;

use super::json;
use crate::model::{Corpus, NodeId};
use crate::sanitize::sanitize;
use crate::tokens::TokenTable;

/// Find a node by exact id, else by exact title (first in document order), else by
/// case-insensitive title.
pub fn find(corpus: &Corpus, key: &str) -> Option<NodeId> {
    if let Some(id) = corpus.find(key) {
        return Some(id);
    }
    let all = corpus.all_preorder();
    all.iter().copied().find(|n| corpus.node(*n).title == key && !corpus.is_copy(*n)).or_else(|| {
        all.iter().copied().find(|n| corpus.node(*n).title.eq_ignore_ascii_case(key) && !corpus.is_copy(*n))
    })
}

/// Print the node's text (sanitised when stdout is a terminal) or its JSON with `text`.
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
    let text = corpus.text(id);
    if as_json {
        let mut v = json::node(corpus, tokens, id, Some(0));
        v["text"] = json!(text);
        serde_json::to_writer_pretty(&mut *out, &v)?;
        writeln!(out)?;
    } else if std::io::stdout().is_terminal() {
        write!(out, "{}", sanitize(text))?;
    } else {
        write!(out, "{text}")?;
    }
    Ok(())
}
