//! Raw JSON-RPC lines to the real server: malformed input gets the error JSON-RPC 2.0
//! names (`-32700` for a line that is not JSON, `-32600` for JSON that is not a message,
//! `-32602` for a known method's bad params, `"id": null` where the id cannot be read) and
//! the server keeps answering; end of input ends it cleanly, before and after the
//! handshake. (rmcp's own transport ignores lines that are not JSON; docs/MCP.md "Errors"
//! says why this server answers them.)

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};

use super::rpc::Rpc;
use super::wait_bounded;
use crate::support::fs::fixture_path;

/// The `(id, code)` of an error response, checking `id` is present (JSON-RPC wants
/// `"id": null`, not a missing member, when the id cannot be read).
fn id_and_code(v: &Value) -> (Value, Value) {
    assert!(
        v.as_object().is_some_and(|o| o.contains_key("id")),
        "no id member: {v}"
    );
    (v["id"].clone(), v["error"]["code"].clone())
}

#[test]
fn malformed_json_rpc_gets_the_spec_errors_and_the_server_keeps_answering() {
    let mut rpc = Rpc::ready([fixture_path("curate/skills")]);
    rpc.send("this is {not json");
    assert_eq!(id_and_code(&rpc.next()), (Value::Null, json!(-32700)));
    rpc.send(r#"{"hello": "world"}"#);
    assert_eq!(id_and_code(&rpc.next()), (Value::Null, json!(-32600)));
    rpc.send(r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#);
    assert_eq!(id_and_code(&rpc.next()), (Value::Null, json!(-32600)));
    rpc.send(r#"{"jsonrpc":"2.0","id":7,"method":42}"#);
    assert_eq!(id_and_code(&rpc.next()), (json!(7), json!(-32600)));
    rpc.send("[]");
    assert_eq!(id_and_code(&rpc.next()), (Value::Null, json!(-32600)));
    rpc.send(r#"{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{}}"#);
    let no_uri = rpc.next();
    assert_eq!(id_and_code(&no_uri), (json!("r"), json!(-32602)));
    assert_eq!(
        no_uri["error"]["message"],
        "Invalid params for resources/read: missing field `uri`"
    );
    rpc.send(r#"{"jsonrpc":"2.0","id":"s","method":"resources/read"}"#);
    assert_eq!(id_and_code(&rpc.next()), (json!("s"), json!(-32602)));
    let unknown = rpc.call("no/such/method", &json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let msg = unknown["error"]["message"].as_str().unwrap_or_default();
    assert!(
        msg.starts_with("method \"no/such/method\" is not served; this server answers initialize,"),
        "{unknown}"
    );
    let complete = rpc.call("completion/complete", &json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a", "value": "b"}}));
    assert_eq!(complete["error"]["code"], -32601, "{complete}");
    let neg = rpc.call(
        "tools/call",
        &json!({"name": "read", "arguments": {"ids": "x", "max_tokens": -5}}),
    );
    assert_eq!(neg["result"]["isError"], true, "{neg}");
    let ping = rpc.call("ping", &json!({}));
    assert_eq!(ping["result"], json!({}));
    rpc.finish();
}

#[test]
fn eof_before_the_handshake_exits_cleanly() {
    let mut child = crate::support::child::skillnav_command()
        .arg("mcp")
        .arg(fixture_path("curate/skills"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run skillnav mcp: {e}"));
    drop(child.stdin.take());
    let (status, out, err) =
        wait_bounded(child, Duration::from_secs(60), "skillnav mcp with no input");
    assert!(status.success(), "exit {status:?}: {err}");
    assert_eq!(out, "");
}
