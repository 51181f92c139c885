//! Raw JSON-RPC lines to the real server: malformed input gets a JSON-RPC error or is
//! ignored (as every official SDK does with unparsable lines) and the server keeps
//! answering; end of input ends it cleanly, before and after the handshake.

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use super::wait_bounded;
use crate::support::fs::fixture_path;

fn spawn() -> std::process::Child {
    crate::support::child::skillnav_command()
        .arg("mcp")
        .arg(fixture_path("curate/skills"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run skillnav mcp: {e}"))
}

#[test]
fn malformed_json_rpc_never_stops_the_server_and_eof_ends_it_cleanly() {
    let mut child = spawn();
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
    let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
    let (tx, rx) = mpsc::channel::<Value>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("server wrote non-JSON {line:?}: {e}"));
            if tx.send(v).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        writeln!(stdin, "{line}").unwrap_or_else(|e| panic!("write: {e}"));
        stdin.flush().unwrap_or_else(|e| panic!("flush: {e}"));
    };
    let next = |rx: &mpsc::Receiver<Value>| {
        rx.recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("no answer from the server: {e}"))
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}});
    send(&init.to_string());
    assert_eq!(next(&rx)["result"]["serverInfo"]["name"], "skillnav");
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    // Not JSON: ignored. JSON but not a message: Invalid Request.
    send("this is {not json");
    send(r#"{"hello": "world"}"#);
    let bad = next(&rx);
    assert_eq!(bad["error"]["code"], -32600, "{bad}");
    send(r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#);
    let unknown = next(&rx);
    assert_eq!(
        (unknown["id"].clone(), unknown["error"]["code"].clone()),
        (json!(2), json!(-32601)),
        "{unknown}"
    );
    send(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"ids":"x","max_tokens":-5}}}"#,
    );
    let neg = next(&rx);
    assert_eq!(neg["id"], 3);
    assert_eq!(neg["result"]["isError"], true, "{neg}");
    send(r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#);
    assert_eq!(next(&rx)["id"], 4);
    drop(stdin);
    let (status, _, err) = wait_bounded(child, Duration::from_secs(60), "skillnav mcp after EOF");
    assert!(status.success(), "exit {status:?}: {err}");
    reader.join().unwrap_or_else(|_| panic!("reader thread"));
}

#[test]
fn eof_before_the_handshake_exits_cleanly() {
    let mut child = spawn();
    drop(child.stdin.take());
    let (status, out, err) =
        wait_bounded(child, Duration::from_secs(60), "skillnav mcp with no input");
    assert!(status.success(), "exit {status:?}: {err}");
    assert_eq!(out, "");
}
