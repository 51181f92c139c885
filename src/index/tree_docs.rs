//! Progressive-exposure doc trees as BM25 documents (docs/FORMATS.md §6, docs/DESIGN.md §3
//! "Doc-tree READMEs"): a folder's `README.md` is the tree's navigation layer, and its words
//! belong to the text it describes.
//!
//! - A README is not a document when its folder also has a `doc.md` or sub-folders: each of
//!   its bullets is a sub-folder's summary, and its paragraph is its own folder's `detail`.
//!   A README that is its folder's only text (a leaf whose fetch failed) stays a document.
//! - A folder's summary (its bullet in the parent README) and `detail` (its README paragraph)
//!   are indexed, and embedded by the semantic tiers, with the page's own section (the first
//!   section of its `doc.md`), so a question phrased like the summary finds the page, not
//!   the summary.

use crate::model::{Corpus, Format, NodeId, NodeKind};

/// The last `/`-separated segment of a node path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether node `n` is a doc-tree file named `name`.
fn is_tree_file(corpus: &Corpus, n: NodeId, name: &str) -> bool {
    let node = corpus.node(n);
    node.kind == NodeKind::File && node.format == Format::DocTree && file_name(&node.path) == name
}

/// Whether `n` is a doc-tree `README.md` whose folder has other text: a `doc.md` or a
/// doc-tree sub-folder (an `img/` folder is not one).
pub(crate) fn is_navigation_readme(corpus: &Corpus, n: NodeId) -> bool {
    if !is_tree_file(corpus, n, "README.md") {
        return false;
    }
    let Some(folder) = corpus.node(n).parent else {
        return false;
    };
    corpus.node(folder).children.iter().any(|&c| {
        is_tree_file(corpus, c, "doc.md")
            || (corpus.node(c).kind == NodeKind::Dir && corpus.node(c).format == Format::DocTree)
    })
}

/// The folder summary a doc-tree page is searched with: for the first child of a doc-tree
/// `doc.md` (the page's own section), or for a `doc.md` with no sections, its folder's
/// summary and README paragraph, one per line (the summary left out when the paragraph
/// starts with it); `None` for any other node or when both are empty.
pub fn page_expansion(corpus: &Corpus, n: NodeId) -> Option<String> {
    let node = corpus.node(n);
    let file = if is_tree_file(corpus, n, "doc.md") && node.children.is_empty() {
        n
    } else {
        let parent = node.parent?;
        if !is_tree_file(corpus, parent, "doc.md")
            || corpus.node(parent).children.first() != Some(&n)
        {
            return None;
        }
        parent
    };
    let folder = corpus.node(corpus.node(file).parent?);
    let detail = folder.detail.as_deref().unwrap_or_default().trim();
    let summary = folder.summary.trim();
    let mut lines: Vec<&str> = Vec::new();
    if !summary.is_empty() && !detail.starts_with(summary) {
        lines.push(summary);
    }
    if !detail.is_empty() {
        lines.push(detail);
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}
