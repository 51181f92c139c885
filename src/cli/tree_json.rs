//! `tree --json` layer annotations: adds `layers` (see
//! [`crate::skill::layers::layers_json`]) to every skill node and `always_loaded_tokens` to every
//! root node of an already built `{"roots": [...]}` document, and the streamed printer of the
//! whole `tree --json` document.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use crate::model::{Corpus, NodeId};
use crate::skill::layers::{layers_json, root_layers};
use crate::tokens::TokenCounter;

/// `tree --json` with layer annotations: the document of `tree::print` (`{"schema": 1,
/// "encoding": …, "roots": [node…]}`) plus what `annotate` adds, pretty-printed with a
/// newline. Streamed: each node is written as it is visited, never held as one big
/// `serde_json::Value`; the bytes are those of building the document and then printing it
/// (keys in `serde_json::Map` order, i.e. sorted; pinned by a test).
pub fn print_tree_json(
    out: &mut dyn std::io::Write,
    corpus: &Corpus,
    tokens: &crate::tokens::TokenTable,
    depth: Option<usize>,
    counter: TokenCounter,
) -> std::io::Result<()> {
    let roots: Vec<RootJson> = corpus
        .roots
        .iter()
        .map(|r| {
            let layers = root_layers(corpus, *r, counter);
            let skills = layers
                .skills
                .iter()
                .map(|s| (corpus.id(s.skill), layers_json(s)))
                .collect();
            RootJson {
                id: *r,
                always_loaded_tokens: layers.always_loaded_tokens,
                skills,
            }
        })
        .collect();
    let doc = DocJson {
        corpus,
        tokens,
        depth,
        roots: &roots,
    };
    use std::io::Write;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut *out);
    super::json_out::write_json(&mut w, &doc)?;
    w.flush()
}

/// What a root adds to its node: `always_loaded_tokens`, and `layers` by skill id.
struct RootJson {
    id: NodeId,
    always_loaded_tokens: u64,
    skills: std::collections::HashMap<String, Value>,
}

/// `{"encoding", "roots", "schema"}` (sorted keys, as a `serde_json::Map` prints them).
struct DocJson<'a> {
    corpus: &'a Corpus,
    tokens: &'a crate::tokens::TokenTable,
    depth: Option<usize>,
    roots: &'a [RootJson],
}

impl Serialize for DocJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("encoding", self.tokens.encoding.as_str())?;
        m.serialize_entry("roots", &RootsJson(self))?;
        m.serialize_entry("schema", &1)?;
        m.end()
    }
}

struct RootsJson<'a>(&'a DocJson<'a>);

impl Serialize for RootsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut seq = s.serialize_seq(Some(d.roots.len()))?;
        for r in d.roots {
            seq.serialize_element(&NodeJson {
                corpus: d.corpus,
                tokens: d.tokens,
                root: r,
                id: r.id,
                depth: d.depth,
                is_root: true,
            })?;
        }
        seq.end()
    }
}

/// One node as [`crate::agent::json::node`] builds it, plus the root's annotations, with its
/// children streamed.
struct NodeJson<'a> {
    corpus: &'a Corpus,
    tokens: &'a crate::tokens::TokenTable,
    root: &'a RootJson,
    id: NodeId,
    depth: Option<usize>,
    is_root: bool,
}

impl Serialize for NodeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.corpus.node(self.id);
        let mut m = s.serialize_map(None)?;
        if self.is_root {
            m.serialize_entry("always_loaded_tokens", &self.root.always_loaded_tokens)?;
        }
        m.serialize_entry("bytes", &n.bytes)?;
        if self.depth != Some(0) || n.children.is_empty() {
            m.serialize_entry("children", &ChildrenJson(self))?;
        } else {
            m.serialize_entry("children_count", &n.children.len())?;
        }
        if let Some(d) = &n.detail {
            m.serialize_entry("detail", d)?;
        }
        // Flags and warnings go through a `Value` as the built document did, so any map in
        // them prints with sorted keys too.
        m.serialize_entry("flags", &to_value(&n.flags)?)?;
        m.serialize_entry("format", n.format.as_str())?;
        let id = self.corpus.id(self.id);
        m.serialize_entry("id", &id)?;
        m.serialize_entry("kind", n.kind.as_str())?;
        if let Some(l) = self.root.skills.get(&id) {
            m.serialize_entry("layers", l)?;
        }
        if let Some(l) = n.line_end {
            m.serialize_entry("line_end", &l)?;
        }
        if let Some(l) = n.line_start {
            m.serialize_entry("line_start", &l)?;
        }
        m.serialize_entry("meta", &n.meta)?;
        m.serialize_entry("own_bytes", &n.own_bytes)?;
        m.serialize_entry("own_tokens", &self.tokens.own(self.id).unwrap_or(0))?;
        m.serialize_entry("path", &n.path)?;
        m.serialize_entry("summary", self.corpus.summary(self.id))?;
        m.serialize_entry("title", &n.title)?;
        m.serialize_entry("tokens", &self.tokens.total(self.id).unwrap_or(0))?;
        m.serialize_entry("warnings", &to_value(&n.warnings)?)?;
        m.end()
    }
}

struct ChildrenJson<'a>(&'a NodeJson<'a>);

impl Serialize for ChildrenJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let n = p.corpus.node(p.id);
        if p.depth == Some(0) {
            return s.serialize_seq(Some(0))?.end();
        }
        let mut seq = s.serialize_seq(Some(n.children.len()))?;
        for c in &n.children {
            seq.serialize_element(&NodeJson {
                corpus: p.corpus,
                tokens: p.tokens,
                root: p.root,
                id: *c,
                depth: p.depth.map(|d| d - 1),
                is_root: false,
            })?;
        }
        seq.end()
    }
}

fn to_value<T: Serialize, E: serde::ser::Error>(v: &T) -> Result<Value, E> {
    serde_json::to_value(v).map_err(E::custom)
}

/// The reference of [`print_tree_json`]: the same document built whole as one
/// `serde_json::Value`, annotated in place, then printed (pretty, with a newline). Kept to
/// check the streamed bytes against (tests) and as the baseline of the benchmark
/// (`cargo bench --bench budgets`); the CLI does not use it.
pub fn print_tree_json_built(
    out: &mut dyn std::io::Write,
    corpus: &Corpus,
    tokens: &crate::tokens::TokenTable,
    depth: Option<usize>,
    counter: TokenCounter,
) -> std::io::Result<()> {
    let roots: Vec<Value> = corpus
        .roots
        .iter()
        .map(|r| crate::agent::json::node(corpus, tokens, *r, depth))
        .collect();
    let mut doc =
        serde_json::json!({"schema": 1, "encoding": tokens.encoding.as_str(), "roots": roots});
    annotate(corpus, counter, &mut doc);
    super::json_out::write_json(out, &doc)
}

/// Annotate the `roots` array of a `tree --json` document in place. Nodes are matched by
/// their `id`; nodes not found in `corpus`, and skills that are copies, get nothing.
fn annotate(corpus: &Corpus, counter: TokenCounter, doc: &mut Value) {
    let Some(roots) = doc.get_mut("roots").and_then(Value::as_array_mut) else {
        return;
    };
    for r in roots {
        let Some(root) = r
            .get("id")
            .and_then(Value::as_str)
            .and_then(|i| corpus.find(i))
        else {
            continue;
        };
        let layers = root_layers(corpus, root, counter);
        if let Some(o) = r.as_object_mut() {
            o.insert(
                "always_loaded_tokens".into(),
                serde_json::json!(layers.always_loaded_tokens),
            );
        }
        let mut by_id = std::collections::HashMap::new();
        for s in &layers.skills {
            by_id.insert(corpus.id(s.skill), layers_json(s));
        }
        walk(r, &by_id);
    }
}

fn walk(v: &mut Value, by_id: &std::collections::HashMap<String, Value>) {
    let Some(o) = v.as_object_mut() else { return };
    if let Some(l) = o
        .get("id")
        .and_then(Value::as_str)
        .and_then(|i| by_id.get(i))
    {
        o.insert("layers".into(), l.clone());
    }
    if let Some(children) = o.get_mut("children").and_then(Value::as_array_mut) {
        for c in children {
            walk(c, by_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{LoadOptions, load_root, root_specs};
    use crate::tokens::{Encoding, TokenTable};

    #[test]
    fn streamed_tree_json_is_byte_identical_to_the_built_document() {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dirs = [
            "formats2",
            "formats",
            "lints",
            "index",
            "llms-nested",
            "curate",
        ];
        let paths: Vec<_> = dirs.iter().map(|d| base.join(d)).collect();
        // One root per folder, and all of them as one corpus of several roots.
        let mut corpora: Vec<Corpus> = paths
            .iter()
            .map(|p| {
                let spec = root_specs(std::slice::from_ref(p)).remove(0);
                load_root(&spec, &LoadOptions::default(), &mut |_| {})
            })
            .collect();
        let mut all = Corpus::default();
        for c in &corpora {
            all.append(c.clone());
        }
        corpora.push(all);
        let counter = TokenCounter::new(Encoding::O200kBase);
        for corpus in &corpora {
            let tokens = TokenTable::count_all(corpus, counter);
            for depth in [None, Some(0), Some(1), Some(3)] {
                let mut streamed = Vec::new();
                print_tree_json(&mut streamed, corpus, &tokens, depth, counter).unwrap();
                let mut reference = Vec::new();
                print_tree_json_built(&mut reference, corpus, &tokens, depth, counter).unwrap();
                assert!(streamed.len() > 100);
                assert!(
                    streamed == reference,
                    "depth {depth:?}: streamed output differs from the built document"
                );
            }
        }
    }
}
