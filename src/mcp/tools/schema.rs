//! The pieces the tools' output schemas share (JSON Schema 2020-12 documents as
//! `serde_json` values): closed objects, counts, nullable values, the `passage` range, the
//! tree node of `outline`. Each tool's file puts its own `outputSchema` together from these
//! (docs/MCP.md "Tools").

use serde_json::{Map, Value, json};

/// An object schema with exactly `properties` (no other key allowed) of which `required`
/// must be present. A tool's `outputSchema` is always one of these at the top.
pub fn object(properties: Value, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// An object schema whose every one of `properties` is required (no other key allowed).
pub fn all_of(properties: Value) -> Value {
    let required: Vec<String> = properties
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// A count: an integer of at least 0 (bytes, tokens, hits, a generation).
pub fn count() -> Value {
    json!({"type": "integer", "minimum": 0})
}

/// A string.
pub fn string() -> Value {
    json!({"type": "string"})
}

/// A string or `null`.
pub fn string_or_null() -> Value {
    json!({"type": ["string", "null"]})
}

/// A count or `null` (a line number a node may not have).
pub fn count_or_null() -> Value {
    json!({"type": ["integer", "null"], "minimum": 0})
}

/// A list of strings.
pub fn strings() -> Value {
    json!({"type": "array", "items": {"type": "string"}})
}

/// A list of `items`.
pub fn list(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

/// The name of an exposure level.
pub fn exposure() -> Value {
    json!({"type": "string", "enum": ["always", "on-demand", "explicit", "hidden"]})
}

/// A passage of a longer text: `{"from", "to", "bytes", "last"}`, byte offsets into the
/// whole text, its length in bytes, and whether the passage ends it.
pub fn passage() -> Value {
    all_of(json!({"from": count(), "to": count(), "bytes": count(), "last": {"type": "boolean"}}))
}

/// A skill's layer costs (`skill::layers::layers_json`): tokens of the metadata, the body,
/// each reference, and bytes of each asset.
pub fn layers() -> Value {
    all_of(json!({
        "metadata": count(),
        "body": count(),
        "body_bytes": count(),
        "references": list(all_of(json!({"path": string(), "bytes": count(), "tokens": count()}))),
        "assets": list(all_of(json!({"path": string(), "bytes": count()}))),
        "total": count(),
    }))
}

/// The `outline` tree node (`tree --json`'s node with `exposure`, skills' `layers`, and
/// `children` or `children_count`), recursive through `#/$defs/node`.
pub fn node() -> Value {
    let mut props = Map::new();
    for (k, v) in [
        ("id", string()),
        ("kind", string()),
        ("format", string()),
        ("title", string()),
        ("summary", string()),
        ("detail", string()),
        ("path", string()),
        ("line_start", count()),
        ("line_end", count()),
        ("bytes", count()),
        ("own_bytes", count()),
        ("tokens", count()),
        ("own_tokens", count()),
        ("flags", strings()),
        ("meta", json!({"type": "object"})),
        ("warnings", list(json!({"type": "object"}))),
        ("exposure", exposure()),
        ("layers", layers()),
        ("children", list(json!({"$ref": "#/$defs/node"}))),
        ("children_count", count()),
        ("more_children", count()),
    ] {
        props.insert(k.into(), v);
    }
    let mut v = object(
        Value::Object(props),
        &[
            "id", "kind", "format", "title", "path", "bytes", "tokens", "exposure",
        ],
    );
    v["oneOf"] = json!([{"required": ["children"]}, {"required": ["children_count"]}]);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_schema_names_every_required_key_and_closes_the_object() {
        let v = all_of(json!({"a": count(), "b": string()}));
        assert_eq!(v["required"], json!(["a", "b"]));
        assert_eq!(v["additionalProperties"], json!(false));
        assert_eq!(v["type"], json!("object"));
    }
}
