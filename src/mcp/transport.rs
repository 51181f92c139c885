//! The stdio transport in front of rmcp: standard input read a line at a time, malformed
//! JSON-RPC answered here with the error JSON-RPC 2.0 names (docs/MCP.md "Errors"), every
//! other message handed to rmcp unchanged, and rmcp's replies written one per line.
//!
//! rmcp's own stdio transport ignores lines that are not JSON and answers other malformed
//! input without an `id` member, and rmcp reads a known method with unusable params as a
//! custom request (`-32601`); this layer gives `-32700` (parse error), `-32600` (invalid
//! request) and `-32602` (invalid params), each with the request's `id`, or `"id": null`
//! when the id cannot be read. A notification (a `method` and no `id`) is never answered,
//! as JSON-RPC 2.0 requires. The server keeps reading after every error.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, CompleteRequestParams,
    GetPromptRequestParams, GetSkillRequestParams, InitializeRequestParams, JsonRpcMessage,
    ReadResourceRequestParams, ServerJsonRpcMessage, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::transport::Transport;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, mpsc};

/// Longest line read, in bytes (rmcp's own default): a longer one is answered `-32600`
/// and skipped.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// JSON-RPC 2.0: the line is not JSON.
pub const PARSE_ERROR: i64 = -32_700;
/// JSON-RPC 2.0: the JSON is not a valid request object.
pub const INVALID_REQUEST: i64 = -32_600;
/// JSON-RPC 2.0: a known method whose params do not fit it.
pub const INVALID_PARAMS: i64 = -32_602;

/// What one input line is.
#[derive(Debug)]
pub enum Incoming {
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// An error response to write back (a JSON-RPC error object with `id`).
    Reply(Value),
    /// Nothing to do: a blank line, or a notification rmcp cannot read (never answered).
    Skip,
}

/// Read one line of input (`\n` and a final `\r` removed, a UTF-8 byte order mark
/// ignored) as an [`Incoming`]: not JSON is `-32700` with `"id": null`; JSON that is not a
/// message (a batch array included: MCP has no batches) is `-32600`; a request for a
/// method rmcp knows whose params do not fit is `-32602` naming what is wrong; errors
/// carry the request's id when it is a string or an integer, else `null`.
pub fn classify(line: &[u8]) -> Incoming {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Skip;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Reply(error(
                &Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {e}"),
            ));
        }
    };
    let id = readable_id(&value);
    let notification =
        value.get("method").is_some_and(Value::is_string) && value.get("id").is_none();
    match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
        Ok(JsonRpcMessage::Request(r)) => match &r.request {
            ClientRequest::CustomRequest(c) => match params_problem(&c.method, &value) {
                Some(problem) => Incoming::Reply(error(&id, INVALID_PARAMS, &problem)),
                None => Incoming::Message(Box::new(JsonRpcMessage::Request(r))),
            },
            _ => Incoming::Message(Box::new(JsonRpcMessage::Request(r))),
        },
        Ok(m) => Incoming::Message(Box::new(m)),
        Err(_) if notification => Incoming::Skip,
        Err(e) => {
            let why = match &value {
                Value::Array(_) => {
                    "a batch (MCP has no JSON-RPC batches: send one message per line)".to_string()
                }
                Value::Object(_) => e.to_string(),
                _ => "not a JSON-RPC message object".to_string(),
            };
            Incoming::Reply(error(
                &id,
                INVALID_REQUEST,
                &format!("Invalid Request: {why}"),
            ))
        }
    }
}

/// The request's `id` when it is one JSON-RPC allows (a string or an integer), else null.
fn readable_id(v: &Value) -> Value {
    match v.get("id") {
        Some(Value::String(s)) => json!(s),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Value::Number(n.clone()),
        _ => Value::Null,
    }
}

/// A JSON-RPC error response.
fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// What is wrong with the params of a request for `method`, when `method` is one rmcp reads
/// into a typed request (it read this one as a custom request, so its params did not fit);
/// `None` for a method rmcp does not know (the server answers `-32601` for those).
fn params_problem(method: &str, message: &Value) -> Option<String> {
    fn check<T: DeserializeOwned>(method: &str, params: &Value) -> Option<String> {
        if params.is_null() {
            return Some(format!("Invalid params for {method}: params are missing"));
        }
        let got = serde_json::from_value::<T>(params.clone()).err()?;
        Some(format!("Invalid params for {method}: {got}"))
    }
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    let typed = match method {
        "initialize" => check::<InitializeRequestParams>(method, &params),
        "resources/read" => check::<ReadResourceRequestParams>(method, &params),
        "tools/call" => check::<CallToolRequestParams>(method, &params),
        "prompts/get" => check::<GetPromptRequestParams>(method, &params),
        "skills/get" => check::<GetSkillRequestParams>(method, &params),
        "resources/subscribe" => check::<SubscribeRequestParams>(method, &params),
        "resources/unsubscribe" => check::<UnsubscribeRequestParams>(method, &params),
        "completion/complete" => check::<CompleteRequestParams>(method, &params),
        _ => None,
    };
    let known = [
        "ping",
        "server/discover",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "subscriptions/listen",
        "tools/list",
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
        "skills/list",
        "resources/directory/read",
    ];
    typed.or_else(|| {
        known
            .contains(&method)
            .then(|| format!("Invalid params for {method}: they do not match its schema"))
    })
}

/// The server's side of standard input and output: a reader task classifies each line
/// ([`classify`]), answers malformed ones itself and queues messages for rmcp.
pub struct LineTransport<W> {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    out: Arc<Mutex<Option<W>>>,
}

/// The transport over the process's standard input and output. Call inside a tokio
/// runtime (it spawns the reader task).
pub fn stdio() -> LineTransport<tokio::io::Stdout> {
    LineTransport::new(tokio::io::stdin(), tokio::io::stdout())
}

impl<W: AsyncWrite + Unpin + Send + 'static> LineTransport<W> {
    /// A transport reading `input` a line at a time on a task of its own and writing to
    /// `output`. Call inside a tokio runtime.
    pub fn new<R: tokio::io::AsyncRead + Unpin + Send + 'static>(input: R, output: W) -> Self {
        let out = Arc::new(Mutex::new(Some(output)));
        let (tx, incoming) = mpsc::channel(64);
        tokio::spawn(pump(BufReader::new(input), Arc::clone(&out), tx));
        Self { incoming, out }
    }
}

/// Read `input` to its end: messages go to `tx`, error replies straight to `out`. Ends at
/// end of input, on a read error, or when rmcp stops listening.
async fn pump<R, W>(
    mut input: R,
    out: Arc<Mutex<Option<W>>>,
    tx: mpsc::Sender<ClientJsonRpcMessage>,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut line = Vec::new();
    loop {
        line.clear();
        let incoming = match read_line(&mut input, &mut line).await {
            Ok(Some(true)) => classify(&line),
            Ok(Some(false)) => Incoming::Reply(error(
                &Value::Null,
                INVALID_REQUEST,
                &format!("Invalid Request: a line longer than {MAX_LINE_BYTES} bytes"),
            )),
            Ok(None) | Err(_) => return,
        };
        match incoming {
            Incoming::Message(m) => {
                if tx.send(*m).await.is_err() {
                    return;
                }
            }
            Incoming::Reply(v) => {
                if write_line(&out, &v).await.is_err() {
                    return;
                }
            }
            Incoming::Skip => {}
        }
    }
}

/// Read one line into `buf`: `Some(true)` for a line (the last one may lack its `\n`),
/// `Some(false)` for a line over [`MAX_LINE_BYTES`] (skipped to its end, `buf` left empty),
/// `None` at end of input.
async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    buf: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    let mut over = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok((over || !buf.is_empty()).then_some(!over));
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        if !over && buf.len() + take > MAX_LINE_BYTES {
            over = true;
            buf.clear();
        }
        if !over {
            buf.extend_from_slice(&available[..take]);
        }
        input.consume(take);
        if newline.is_some() {
            return Ok(Some(!over));
        }
    }
}

/// Write `v` and a newline to `out`, flushed. Errors: the output is closed or failed.
async fn write_line<W: AsyncWrite + Unpin, T: serde::Serialize>(
    out: &Mutex<Option<W>>,
    v: &T,
) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec(v)?;
    bytes.push(b'\n');
    let mut guard = out.lock().await;
    let Some(w) = guard.as_mut() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "output closed",
        ));
    };
    w.write_all(&bytes).await?;
    w.flush().await
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = Arc::clone(&self.out);
        async move { write_line(&out, &item).await }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        drop(self.out.lock().await.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Value {
        match classify(line.as_bytes()) {
            Incoming::Reply(v) => v,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn a_line_that_is_not_json_gets_a_parse_error_with_a_null_id() {
        let v = reply("this is {not json");
        assert_eq!(
            (v["id"].clone(), v["error"]["code"].clone()),
            (Value::Null, json!(-32700))
        );
        assert_eq!(v.as_object().map(|o| o.contains_key("id")), Some(true));
    }

    #[test]
    fn json_that_is_no_message_is_an_invalid_request_with_the_readable_id() {
        assert_eq!(reply(r#"{"hello": "world"}"#)["error"]["code"], -32600);
        assert_eq!(reply(r#"{"hello": "world"}"#)["id"], Value::Null);
        assert_eq!(reply(r#"{"jsonrpc":"2.0","id":7,"method":5}"#)["id"], 7);
        assert_eq!(
            reply(r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#)["id"],
            Value::Null
        );
        assert_eq!(reply("[]")["error"]["code"], -32600);
        assert_eq!(reply("42")["error"]["code"], -32600);
    }

    #[test]
    fn a_known_method_with_bad_params_is_invalid_params() {
        let v = reply(r#"{"jsonrpc":"2.0","id":"r1","method":"resources/read","params":{}}"#);
        assert_eq!(
            (v["id"].clone(), v["error"]["code"].clone()),
            (json!("r1"), json!(-32602))
        );
        let msg = v["error"]["message"].as_str().unwrap_or("");
        assert!(msg.contains("uri"), "{msg}");
    }

    #[test]
    fn good_messages_pass_and_blank_lines_and_bad_notifications_are_skipped() {
        let ok = classify(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert!(matches!(ok, Incoming::Message(_)), "{ok:?}");
        let unknown = classify(br#"{"jsonrpc":"2.0","id":2,"method":"no/such"}"#);
        assert!(matches!(unknown, Incoming::Message(_)), "{unknown:?}");
        assert!(matches!(classify(b"  \r\n"), Incoming::Skip));
        let bad_note =
            classify(br#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#);
        assert!(matches!(bad_note, Incoming::Skip), "{bad_note:?}");
    }
}
