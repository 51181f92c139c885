//! The `outline` request: a node's subtree (ids, titles, summaries, sizes, exposure levels,
//! each skill's layer costs), or without an id the catalog of roots and skills with their
//! always-loaded tokens. `hidden` nodes are left out; the result stays under the character
//! cap by outlining fewer levels or fewer children (the catalog: fewer skill details, fewer
//! skills per root), and says which argument gets the rest.

use serde_json::{Value, json};

use super::error::{AgentResult, err};
use super::json as shapes;
use super::workspace::Workspace;
use crate::curate::exposure::Exposure;
use crate::model::{Flag, NodeId, NodeKind};
use crate::skill::layers::{layers_json, root_layers, skill_layers};
use crate::tokens::TokenTable;

/// Deepest outline one request may ask for.
pub const MAX_DEPTH: usize = 8;

/// Outline `id` (an id or exact title) `depth` levels down, or the catalog without an id.
/// A node entry is `tree --json`'s node (`id, kind, format, title, summary, path, line_start,
/// line_end, bytes, own_bytes, tokens, own_tokens, flags, meta, warnings`, then `children`
/// or `children_count`) plus `exposure` and, on skills, `layers`. Errors: unknown or hidden
/// id, depth over [`MAX_DEPTH`].
pub fn outline(ws: &Workspace, id: Option<&str>, depth: usize) -> AgentResult<Value> {
    if depth > MAX_DEPTH {
        return err(format!(
            "depth must be at most {MAX_DEPTH} (got {depth}); outline a child id instead"
        ));
    }
    let Some(key) = id else {
        return Ok(fit_catalog(ws.limits().max_chars, catalog(ws)));
    };
    let node = served(ws, key)?;
    let empty = TokenTable::empty(ws.counter().encoding(), &ws.corpus);
    let max = ws.limits().max_chars;
    let mut d = depth;
    let mut kids = usize::MAX;
    loop {
        let v = entry(ws, &empty, node, d, kids);
        let size = v.to_string().chars().count();
        if size <= max.saturating_sub(400) {
            let mut doc = json!({"encoding": ws.counter().encoding().as_str(), "generation": ws.generation, "node": v});
            if d < depth || kids != usize::MAX {
                doc["truncated"] = json!(format!(
                    "cut to fit {max} characters (depth {d}{}): call outline with id set to a child's id to see below it",
                    if kids == usize::MAX {
                        String::new()
                    } else {
                        format!(", first {kids} children per node")
                    }
                ));
            }
            return Ok(doc);
        }
        if d > 1 {
            d -= 1;
        } else if kids > 1 {
            kids = if kids == usize::MAX { 200 } else { kids / 2 };
        } else {
            let v = entry(ws, &empty, node, 0, 0);
            return Ok(
                json!({"encoding": ws.counter().encoding().as_str(), "generation": ws.generation, "node": v,
                "truncated": "this node alone fills the result: outline its children by id"}),
            );
        }
    }
}

/// The node `key` names, unless it is hidden. Errors name the id.
pub fn served(ws: &Workspace, key: &str) -> AgentResult<NodeId> {
    let Some(node) = super::lookup::resolve(&ws.corpus, key) else {
        return err(format!(
            "no node with id {key:?} (ids come from search or outline; it may be gone after a reload)"
        ));
    };
    if ws.exposure.level(&ws.corpus, node) == Exposure::Hidden {
        return err(format!("{key:?} is hidden: not served"));
    }
    Ok(node)
}

fn entry(ws: &Workspace, empty: &TokenTable, id: NodeId, depth: usize, kids: usize) -> Value {
    let corpus = &ws.corpus;
    let mut v = shapes::node(corpus, empty, id, Some(0));
    v["tokens"] = json!(ws.tokens_of(id));
    let own = if corpus.node(id).span.is_some() {
        ws.counter().count(corpus.own_text(id))
    } else {
        0
    };
    v["own_tokens"] = json!(own);
    v["exposure"] = json!(ws.exposure.level(corpus, id).as_str());
    if corpus.node(id).kind == NodeKind::Skill {
        v["layers"] = layers_json(&skill_layers(corpus, id, ws.counter()));
    }
    let visible: Vec<NodeId> = corpus
        .node(id)
        .children
        .iter()
        .copied()
        .filter(|c| ws.exposure.level(corpus, *c) != Exposure::Hidden)
        .collect();
    if let Some(o) = v.as_object_mut() {
        o.remove("children");
        o.remove("children_count");
        if depth == 0 || visible.is_empty() {
            o.insert("children_count".into(), json!(visible.len()));
        } else {
            let shown: Vec<Value> = visible
                .iter()
                .take(kids)
                .map(|c| entry(ws, empty, *c, depth - 1, kids))
                .collect();
            if visible.len() > shown.len() {
                o.insert("more_children".into(), json!(visible.len() - shown.len()));
            }
            o.insert("children".into(), Value::Array(shown));
        }
    }
    v
}

/// `doc` (a [`catalog`]) cut to fewer than `max_chars` characters (less 400 for the
/// frame): without the skills' `layers` first, then with fewer skills per root (each root
/// then says how many in `more_skills`), and `truncated` saying so.
fn fit_catalog(max_chars: usize, mut doc: Value) -> Value {
    let room = max_chars.saturating_sub(400);
    let size = |d: &Value| d.to_string().chars().count();
    if size(&doc) <= room {
        return doc;
    }
    let roots = doc["roots"].as_array().cloned().unwrap_or_default();
    let mut keep = usize::MAX;
    loop {
        let cut: Vec<Value> = roots.iter().map(|r| trim_root(r, keep)).collect();
        doc["roots"] = Value::Array(cut);
        doc["truncated"] = json!(format!(
            "cut to fit {max_chars} characters (skills without layers{}): call outline with a root's id to see all of it",
            if keep == usize::MAX {
                String::new()
            } else {
                format!(", first {keep} skills per root")
            }
        ));
        if size(&doc) <= room || keep == 0 {
            return doc;
        }
        keep = if keep == usize::MAX { 200 } else { keep / 2 };
    }
}

/// Root entry `root` of a catalog with its skills' `layers` dropped and at most `keep`
/// skills (the number left out in `more_skills`).
fn trim_root(root: &Value, keep: usize) -> Value {
    let mut r = root.clone();
    let skills = r["skills"].as_array().cloned().unwrap_or_default();
    let shown: Vec<Value> = skills
        .iter()
        .take(keep)
        .map(|s| {
            let mut s = s.clone();
            if let Some(o) = s.as_object_mut() {
                o.remove("layers");
            }
            s
        })
        .collect();
    if skills.len() > shown.len() {
        r["more_skills"] = json!(skills.len() - shown.len());
    }
    r["skills"] = Value::Array(shown);
    r
}

/// Every root (id, title, format, bytes, tokens, always-loaded tokens of its skill
/// listing) with its non-hidden skills (name, id, description, exposure, layers).
fn catalog(ws: &Workspace) -> Value {
    let corpus = &ws.corpus;
    let counter = ws.counter();
    let mut roots = Vec::new();
    let mut always_total = 0;
    for &r in &corpus.roots {
        if ws.exposure.level(corpus, r) == Exposure::Hidden {
            continue;
        }
        let layers = root_layers(corpus, r, counter);
        always_total += layers.always_loaded_tokens;
        let skills: Vec<Value> = layers
            .skills
            .iter()
            .filter(|s| ws.exposure.level(corpus, s.skill) != Exposure::Hidden)
            .map(|s| {
                let n = corpus.node(s.skill);
                json!({
                    "name": s.entry.name,
                    "id": n.id,
                    "description": s.entry.description,
                    "exposure": ws.exposure.level(corpus, s.skill).as_str(),
                    "shadowed": n.flags.has(Flag::Shadowed),
                    "tokens": ws.tokens_of(s.skill),
                    "layers": layers_json(s),
                })
            })
            .collect();
        let n = corpus.node(r);
        roots.push(json!({
            "id": n.id,
            "title": n.title,
            "format": n.format.as_str(),
            "bytes": n.bytes,
            "tokens": ws.tokens_of(r),
            "always_loaded_tokens": layers.always_loaded_tokens,
            "children_count": n.children.len(),
            "skills": skills,
        }));
    }
    json!({
        "encoding": counter.encoding().as_str(),
        "generation": ws.generation,
        "always_loaded_tokens": always_total,
        "roots": roots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_catalog_over_the_cap_drops_layers_then_skills_and_says_so() {
        let skills: Vec<Value> = (0..500)
            .map(|i| {
                json!({"name": format!("skill-{i:03}"), "id": format!("skills/skill-{i:03}"),
                       "description": "Does one thing well.", "layers": {"listing": 30, "body": 900}})
            })
            .collect();
        let doc =
            json!({"roots": [{"id": "skills", "skills": skills}], "always_loaded_tokens": 15_000});
        let cut = fit_catalog(10_000, doc.clone());
        let root = &cut["roots"][0];
        let shown = root["skills"].as_array().map_or(0, Vec::len);
        assert_eq!((shown, root["more_skills"].clone()), (100, json!(400)));
        assert_eq!(root["skills"][0].get("layers"), None);
        assert!(cut.to_string().chars().count() <= 9_600);
        assert_eq!(
            cut["truncated"],
            "cut to fit 10000 characters (skills without layers, first 100 skills per root): call outline with a root's id to see all of it"
        );
        assert_eq!(fit_catalog(1_000_000, doc.clone()), doc);
    }
}
