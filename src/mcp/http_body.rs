//! Malformed JSON-RPC over `skillnav mcp --http` (docs/MCP.md "Errors"): a POST body is
//! read here first and judged by the same rules as a stdio line
//! ([`super::transport::classify`]). Left to rmcp, such a body gets `415 Unsupported
//! Media Type` and a plain-text message; here it gets `400 Bad Request` with the JSON-RPC
//! error object (`-32700` with `"id": null` for a body that is not JSON, `-32600` for
//! JSON that is not a message, `-32602` for a known method's unusable params). A
//! notification rmcp cannot read is accepted with `202` and never answered, as JSON-RPC
//! 2.0 requires. Every readable message goes on to rmcp unchanged.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::transport::{INVALID_REQUEST, Incoming, MAX_LINE_BYTES, PARSE_ERROR, classify};

/// Judge a POST body before rmcp sees it; any other request passes untouched. A body
/// over [`MAX_LINE_BYTES`] is answered `-32600`, as a stdio line of that size is.
pub async fn check_body(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_LINE_BYTES).await else {
        return rejected(&error(
            INVALID_REQUEST,
            &format!("Invalid Request: a body over {MAX_LINE_BYTES} bytes"),
        ));
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return rejected(&error(PARSE_ERROR, "Parse error: an empty body"));
    }
    match classify(&bytes) {
        Incoming::Message(_) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Incoming::Reply(reply) => rejected(&reply),
        Incoming::Skip => StatusCode::ACCEPTED.into_response(),
    }
}

/// A JSON-RPC error object with `"id": null` (the id of a body that could not be read).
fn error(code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
}

/// `400 Bad Request` carrying the JSON-RPC error `reply`.
fn rejected(reply: &Value) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "application/json")],
        reply.to_string(),
    )
        .into_response()
}
