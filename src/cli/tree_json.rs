//! `tree --json` layer annotations: adds `layers` (see
//! [`crate::skill::layers::layers_json`]) to every skill node and `always_loaded_tokens` to every
//! root node of an already built `{"roots": [...]}` document.

use serde_json::{Value, json};

use crate::model::Corpus;
use crate::skill::layers::{layers_json, root_layers};
use crate::tokens::TokenCounter;

/// Annotate the `roots` array of a `tree --json` document in place. Nodes are matched by
/// their `id`; nodes not found in `corpus`, and skills that are copies, get nothing.
pub fn annotate(corpus: &Corpus, counter: TokenCounter, doc: &mut Value) {
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
                json!(layers.always_loaded_tokens),
            );
        }
        let mut by_id = std::collections::HashMap::new();
        for s in &layers.skills {
            by_id.insert(corpus.node(s.skill).id.as_str(), layers_json(s));
        }
        walk(r, &by_id);
    }
}

fn walk(v: &mut Value, by_id: &std::collections::HashMap<&str, Value>) {
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

/// `tree --json` with layer annotations: the document of `tree::print` (`{"schema": 1,
/// "encoding": …, "roots": [node…]}`) plus [`annotate`], pretty-printed with a newline.
pub fn print_tree_json(
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
    let mut doc = json!({"schema": 1, "encoding": tokens.encoding.as_str(), "roots": roots});
    annotate(corpus, counter, &mut doc);
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
