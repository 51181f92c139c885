//! A `skillnav mcp` child driven with raw JSON-RPC lines: send a line, read the next line
//! the server wrote, call methods and tools by name, and end it by closing its input.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{Value, json};

use super::wait_bounded;

/// The running server, its input, and the lines it wrote (read on a thread of their own).
pub struct Rpc {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    reader: JoinHandle<()>,
    next_id: u64,
    /// Notifications (a `method`, no `id`) the server wrote while a call waited for its
    /// response, in order.
    pub notifications: Vec<Value>,
    /// The response to `initialize` (`Null` before [`Rpc::ready`] made the handshake).
    pub init: Value,
}

impl Rpc {
    /// Start `skillnav mcp ARGS…` with extra environment variables.
    pub fn spawn_with_env<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(
        args: I,
        env: &[(&str, &OsStr)],
    ) -> Rpc {
        let mut child = crate::support::child::skillnav_command()
            .arg("mcp")
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run skillnav mcp: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
        let (tx, lines) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Rpc {
            child,
            stdin,
            lines,
            reader,
            next_id: 100,
            notifications: Vec::new(),
            init: Value::Null,
        }
    }

    /// Start the server on `args` and complete the handshake.
    pub fn ready<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Rpc {
        Rpc::ready_with_env(args, &[])
    }

    /// [`Rpc::ready`] with extra environment variables.
    pub fn ready_with_env<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(
        args: I,
        env: &[(&str, &OsStr)],
    ) -> Rpc {
        let mut rpc = Rpc::spawn_with_env(args, env);
        let init = rpc.call(
            "initialize",
            &json!({"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "skillnav", "{init}");
        rpc.init = init;
        rpc.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        rpc
    }

    /// Write one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap_or_else(|e| panic!("write: {e}"));
        self.stdin.flush().unwrap_or_else(|e| panic!("flush: {e}"));
    }

    /// The next line the server wrote, as written.
    pub fn next_line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(120))
            .unwrap_or_else(|e| panic!("no answer from the server: {e}"))
    }

    /// The next line the server wrote, as JSON.
    pub fn next(&self) -> Value {
        let line = self.next_line();
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("server wrote non-JSON {line:?}: {e}"))
    }

    /// Call `method` with `params` and return the response (which must carry its id).
    /// Notifications written before it are kept in [`Rpc::notifications`].
    pub fn call(&mut self, method: &str, params: &Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        let mut v = self.next();
        while v.get("id").is_none() && v.get("method").is_some() {
            self.notifications.push(v);
            v = self.next();
        }
        assert_eq!(v["id"], id, "{method}: {v}");
        v
    }

    /// Call tool `name` with `args`; its first text block (which must not be a tool error).
    pub fn tool_text(&mut self, name: &str, args: &Value) -> String {
        let v = self.call("tools/call", &json!({"name": name, "arguments": args}));
        let text = v["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert_eq!(v["result"]["isError"], false, "{name}({args}): {text}");
        text
    }

    /// Call tool `name` with `args`; its first text block as JSON.
    pub fn tool(&mut self, name: &str, args: &Value) -> Value {
        let text = self.tool_text(name, args);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: not JSON ({e}): {text}"))
    }

    /// Close the input and check the server exits with status 0; its standard error.
    pub fn finish(self) -> String {
        drop(self.stdin);
        let (status, _, err) = wait_bounded(
            self.child,
            Duration::from_secs(60),
            "skillnav mcp after EOF",
        );
        assert!(status.success(), "exit {status:?}: {err}");
        self.reader
            .join()
            .unwrap_or_else(|_| panic!("reader thread"));
        err
    }
}
