//! Corpora for the tests: load a path with its default label or a given one, build a one-file
//! corpus from a text, dump nodes as exact one-line strings, look nodes up with the dump in
//! the panic message.

use std::path::Path;

use skillnav::formats::{LoadOptions, RootSpec, load_root, root_specs};
use skillnav::model::{Corpus, NodeId};

/// Load `path` with its default label and options.
pub fn load(path: &Path) -> Corpus {
    load_with(path, &LoadOptions::default())
}

/// Load `path` with `opts`.
pub fn load_with(path: &Path, opts: &LoadOptions) -> Corpus {
    let spec = root_specs(&[path.to_path_buf()]).remove(0);
    load_root(&spec, opts, &mut |_| {})
}

/// Load `path` under `label`.
pub fn load_as(path: &Path, label: &str) -> Corpus {
    let spec = RootSpec {
        path: path.to_path_buf(),
        label: label.to_string(),
    };
    load_root(&spec, &LoadOptions::default(), &mut |_| {})
}

/// One line per node below (and including) the first root, in pre-order:
/// `<id> <kind> <format> [L<a>-<b>] [flags]`.
pub fn dump(c: &Corpus) -> Vec<String> {
    c.preorder(c.roots[0])
        .into_iter()
        .map(|n| line(c, n))
        .collect()
}

/// The dump line of one node.
pub fn line(c: &Corpus, id: NodeId) -> String {
    let n = c.node(id);
    let mut s = format!("{} {} {}", c.id(id), n.kind.as_str(), n.format.as_str());
    if let (Some(a), Some(b)) = (n.line_start, n.line_end) {
        s.push_str(&format!(" L{a}-{b}"));
    }
    let flags: Vec<&str> = n.flags.iter().map(skillnav::model::Flag::as_str).collect();
    if !flags.is_empty() {
        s.push_str(&format!(" [{}]", flags.join(",")));
    }
    s
}

/// The node with string id `id` (panics with the dump when missing).
pub fn get(c: &Corpus, id: &str) -> NodeId {
    match c.find(id) {
        Some(n) => n,
        None => panic!("no node {id:?}; nodes:\n{}", dump(c).join("\n")),
    }
}

/// Warnings of `id` rendered as `path:line: message`.
pub fn warnings(c: &Corpus, id: &str) -> Vec<String> {
    c.node(get(c, id))
        .warnings
        .iter()
        .map(std::string::ToString::to_string)
        .collect()
}

/// A root `docs` holding one markdown file `name` of `text` (a virtual source, no
/// sections yet): the corpus, the file node and its source.
pub fn one_file(name: &str, text: &str) -> (Corpus, NodeId, skillnav::model::SourceId) {
    use skillnav::model::{Format, Node, NodeKind, Source, TextSpan};
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let src = c.add_source(Source::virtual_text(text.to_string()));
    let mut f = Node::new(NodeKind::File, Format::Markdown, name, name);
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: text.len(),
    });
    let file = c.add_child(root, f);
    (c, file, src)
}
