//! Typed tool results over raw JSON-RPC (docs/MCP.md "Tools"): every tool in `tools/list`
//! declares an object `outputSchema`; a call answers with `structuredContent` and one text
//! block whose JSON is the same object; a tool error is `isError` with a text message and
//! no `structuredContent`. (The Python SDK run in `python` validates each object against
//! its schema.)

use serde_json::{Value, json};

use super::rpc::Rpc;
use crate::support::fs::fixture_path;

/// `tools/call` of `name` with `args`: the whole `result` member.
fn result(rpc: &mut Rpc, name: &str, args: &Value) -> Value {
    rpc.call("tools/call", &json!({"name": name, "arguments": args}))["result"].clone()
}

/// The object a successful call carries, after checking its text block holds the same
/// JSON and is the only content.
fn structured(rpc: &mut Rpc, name: &str, args: &Value) -> Value {
    let r = result(rpc, name, args);
    assert_eq!(r["isError"], false, "{name}: {r}");
    let blocks = r["content"].as_array().cloned().unwrap_or_default();
    assert_eq!(blocks.len(), 1, "{name}: {r}");
    assert_eq!(blocks[0]["type"], "text", "{name}: {r}");
    let text = blocks[0]["text"].as_str().unwrap_or_default();
    let parsed: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(r["structuredContent"].is_object(), "{name}: {r}");
    assert_eq!(
        parsed, r["structuredContent"],
        "{name}: text and structuredContent differ"
    );
    parsed
}

#[test]
fn every_tool_declares_an_object_output_schema_naming_its_result_keys() {
    let mut rpc = Rpc::ready([fixture_path("curate/skills")]);
    let list = rpc.call("tools/list", &json!({}));
    let tools = list["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let schemas: Vec<(String, Value)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap_or("").to_string(),
                t["outputSchema"].clone(),
            )
        })
        .collect();
    assert_eq!(schemas.len(), 5, "{list}");
    for (name, schema) in &schemas {
        assert_eq!(schema["type"], "object", "{name}: {schema}");
    }
    let required = |tool: &str| {
        schemas
            .iter()
            .find(|(n, _)| n == tool)
            .map(|(_, s)| s["required"].clone())
    };
    assert_eq!(
        required("brief"),
        Some(json!([
            "encoding", "format", "left_out", "note", "text", "tokens"
        ]))
    );
    assert_eq!(required("outline"), Some(json!(["encoding", "generation"])));
    rpc.finish();
}

#[test]
fn each_tool_result_is_structured_content_and_one_text_block_of_the_same_json() {
    let mut rpc = Rpc::ready([fixture_path("curate/skills")]);
    let hits = structured(
        &mut rpc,
        "search",
        &json!({"query": "grep note text", "top_k": 3}),
    );
    assert_eq!(hits["hits"][0]["id"], "skills/notes/SKILL.md#notes/find");
    let cat = structured(&mut rpc, "outline", &json!({}));
    assert_eq!(cat["roots"][0]["id"], "skills");
    let node = structured(
        &mut rpc,
        "outline",
        &json!({"id": "skills/notes", "depth": 1}),
    );
    assert_eq!(node["node"]["id"], "skills/notes");
    let part = structured(
        &mut rpc,
        "read",
        &json!({"ids": ["skills/notes/SKILL.md"], "max_tokens": 10}),
    );
    assert_eq!(part["sections"][0]["passage"]["from"], 0);
    assert_eq!(part["left_out"], json!(["skills/notes/SKILL.md"]));
    let skill = structured(&mut rpc, "load_skill", &json!({"name": "notes"}));
    assert_eq!(skill["files"], json!(["SKILL.md", "references/format.md"]));
    let brief = structured(&mut rpc, "brief", &json!({"query": "note format"}));
    assert_eq!(brief["format"], "md");
    assert!(
        brief["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("# Context brief")),
        "{brief}"
    );
    rpc.finish();
}

#[test]
fn a_tool_error_is_a_text_message_without_structured_content() {
    let mut rpc = Rpc::ready([fixture_path("curate/skills")]);
    let r = result(&mut rpc, "outline", &json!({"id": "nope"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(r.get("structuredContent").is_none(), "{r}");
    let text = r["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("no node with id \"nope\""), "{text}");
    rpc.finish();
}
