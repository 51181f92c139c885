//! Progressive-exposure doc trees as BM25 documents (docs/FORMATS.md §6, docs/DESIGN.md §3
//! "Doc-tree READMEs"): a folder's `README.md` is the tree's navigation layer, and its words
//! belong to the text they describe.
//!
//! - A folder's *page* is the first heading section (or part) of its `doc.md`; a `doc.md`
//!   without headings is its own page, a blank one or a crawler's error page is none.
//! - The page is indexed, and embedded by the semantic tiers, with the folder's summary
//!   (its bullet in the parent README) and its README paragraph, so a question worded like
//!   a summary finds the page, not the summary. Crawler placeholders are left out.
//! - A README beside a page is not a document: its bullets are the sub-folders' summaries,
//!   indexed with their pages, and its paragraph is indexed with the page.
//! - A README without a page (a chapter folder of sub-folders, a leaf whose fetch failed)
//!   stays a document, without its bullets, and its first section carries the folder's
//!   summary.

use std::borrow::Cow;

use crate::model::{Corpus, FETCH_FAILED, Flag, Format, NodeId, NodeKind, PREAMBLE_TITLE};
use crate::util::prose::is_placeholder;

/// The last `/`-separated segment of a node path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether node `n` is a doc-tree file named `name`.
/// Whether `n` is a doc tree's page file, a folder's `doc.md` (docs/FORMATS.md §6).
pub fn is_page_file(corpus: &Corpus, n: NodeId) -> bool {
    is_tree_file(corpus, n, "doc.md")
}

fn is_tree_file(corpus: &Corpus, n: NodeId, name: &str) -> bool {
    let node = corpus.node(n);
    node.kind == NodeKind::File && node.format == Format::DocTree && file_name(&node.path) == name
}

/// Whether `n` is, or is inside, a doc tree's `README.md` or `doc.md`: a node whose indexed
/// text [`indexed_text`] may make from more than its own.
pub fn in_tree_file(corpus: &Corpus, n: NodeId) -> bool {
    std::iter::once(n)
        .chain(corpus.ancestors(n))
        .find(|a| corpus.node(*a).kind == NodeKind::File)
        .is_some_and(|f| is_tree_file(corpus, f, "README.md") || is_page_file(corpus, f))
}

/// The text node `n` is indexed and embedded with: its own text, changed as the module
/// header says when it is part of a doc-tree README or a doc-tree page. `None` when it is
/// not a document (a README beside a page, or one with nothing left but its bullets).
pub fn indexed_text(corpus: &Corpus, n: NodeId) -> Option<Cow<'_, str>> {
    let own = corpus.own_text(n);
    let Some(file) = std::iter::once(n)
        .chain(corpus.ancestors(n))
        .find(|a| corpus.node(*a).kind == NodeKind::File)
    else {
        return Some(Cow::Borrowed(own));
    };
    let folder = corpus.node(file).parent;
    if is_tree_file(corpus, file, "README.md") {
        let folder = folder?;
        if page_of(corpus, folder).is_some() {
            return None;
        }
        let mut text = without_bullets(own);
        if corpus.node(file).children.first() == Some(&n) || n == file {
            push_summary(&mut text, corpus, folder);
        }
        return (!text.trim().is_empty()).then_some(Cow::Owned(text));
    }
    // A page is the doc.md itself or one of its children: deeper sections are ordinary.
    let near = n == file || corpus.node(n).parent == Some(file);
    match folder {
        Some(f)
            if near && is_tree_file(corpus, file, "doc.md") && page_of(corpus, f) == Some(n) =>
        {
            let mut text = own.to_string();
            push_summary(&mut text, corpus, f);
            // Without a summary to add, the page is an ordinary text (folded when a copy).
            Some(if text.len() == own.len() {
                Cow::Borrowed(own)
            } else {
                Cow::Owned(text)
            })
        }
        _ => Some(Cow::Borrowed(own)),
    }
}

/// The page of doc-tree folder `folder`: the first section or part of its `doc.md` that is
/// not the text before the first heading and has text, else that text, else the `doc.md`
/// itself when it has no sections; `None` when the folder has no `doc.md`, or a blank or
/// failed-fetch one.
fn page_of(corpus: &Corpus, folder: NodeId) -> Option<NodeId> {
    let doc = corpus
        .node(folder)
        .children
        .iter()
        .copied()
        .find(|c| is_tree_file(corpus, *c, "doc.md"))?;
    let node = corpus.node(doc);
    if node.meta.contains_key(FETCH_FAILED) {
        return None;
    }
    let texts = |c: &&NodeId| !corpus.text(**c).trim().is_empty();
    let kids = &node.children;
    let page = kids
        .iter()
        .find(|c| corpus.node(**c).title != PREAMBLE_TITLE && texts(c))
        .or_else(|| kids.iter().find(texts))
        .copied();
    page.or_else(|| (kids.is_empty() && texts(&&doc)).then_some(doc))
}

/// `text` without its `- **name** …` bullet lines (a README's links to its sub-folders).
fn without_bullets(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("- **") || t.starts_with("* **"))
        })
        .collect()
}

/// Append `folder`'s summary and README paragraph to `text`, after a blank line, one per
/// line; the summary is left out when it is a crawler placeholder or the paragraph starts
/// with it, the paragraph when it is a placeholder.
fn push_summary(text: &mut String, corpus: &Corpus, folder: NodeId) {
    let node = corpus.node(folder);
    let detail = node.detail.as_deref().unwrap_or_default().trim();
    let detail = if is_placeholder(detail) { "" } else { detail };
    let summary = node.summary.trim();
    let summary_ok = !summary.is_empty()
        && !node.flags.has(Flag::Placeholder)
        && !is_placeholder(summary)
        && !detail.starts_with(summary);
    let lines: Vec<&str> = [summary_ok.then_some(summary), Some(detail)]
        .into_iter()
        .flatten()
        .filter(|l| !l.is_empty())
        .collect();
    if !lines.is_empty() {
        text.push_str("\n\n");
        text.push_str(&lines.join("\n"));
    }
}
