//! `skillnav mcp --http ADDR`: the same server over MCP's streamable HTTP transport
//! (docs/MCP.md "HTTP"). rmcp's `StreamableHttpService` speaks the protocol (sessions, SSE,
//! `Host` checks); this module owns what sits around it: binding the listener, the bearer
//! token (read from a file, compared in constant time, a refusal answered 401 and logged
//! on standard error without the token), malformed bodies answered as JSON-RPC errors
//! (`http_body`), the URL printed once bound, and a clean stop on
//! Ctrl-C or SIGTERM. Every client shares one [`State`] (one loaded workspace, one watcher).

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use tokio_util::sync::CancellationToken;

use super::server::SkillnavServer;
use super::state::State;

/// The path the MCP endpoint is served on: `http://ADDR/mcp`.
pub const ENDPOINT: &str = "/mcp";
/// How long open connections (SSE streams) get to finish after Ctrl-C or SIGTERM before
/// the server stops anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// A bearer token every request must carry, kept only as its SHA-256 digest: comparing
/// two 32-byte digests takes the same time whatever the guess, its length included.
#[derive(Clone)]
pub struct Token {
    digest: [u8; 32],
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl Token {
    /// The token `secret` (used as given), or `None` when it is empty.
    pub fn new(secret: &str) -> Option<Token> {
        (!secret.is_empty()).then(|| Token {
            digest: Sha256::digest(secret.as_bytes()).into(),
        })
    }

    /// Whether `given` is the token, in time independent of where they differ.
    pub fn matches(&self, given: &[u8]) -> bool {
        let d: [u8; 32] = Sha256::digest(given).into();
        bool::from(d.ct_eq(&self.digest))
    }
}

/// Read the token from `path`: the file's text with surrounding whitespace trimmed.
/// Warns on standard error when the file is readable by its group or others (Unix).
/// Errors: the file cannot be read, is not UTF-8, or holds only whitespace.
pub fn read_token_file(path: &Path) -> anyhow::Result<Token> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("--token-file {}: {e}", path.display()))?;
    warn_if_shared(path);
    Token::new(text.trim())
        .ok_or_else(|| anyhow::anyhow!("--token-file {}: the file is empty", path.display()))
}

/// Warn when `path` grants read access beyond its owner (mode bits 0o044).
#[cfg(unix)]
fn warn_if_shared(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path) {
        let mode = meta.permissions().mode();
        if mode & 0o044 != 0 {
            eprintln!(
                "skillnav mcp: warning: --token-file {} is readable by other users (mode {:o}); chmod 600 it",
                path.display(),
                mode & 0o777
            );
        }
    }
}

#[cfg(not(unix))]
fn warn_if_shared(_path: &Path) {}

/// What `skillnav mcp --http` serves on.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The address to bind; port 0 picks a free port.
    pub addr: SocketAddr,
    /// The bearer token every request must carry; required unless `addr` is loopback.
    pub token: Option<Token>,
}

/// Serve `state` over streamable HTTP at `http://ADDR/mcp` until Ctrl-C or SIGTERM.
/// Prints `skillnav mcp: serving http://ADDR/mcp` (the bound port) on standard error once
/// the listener is bound. Errors: a non-loopback address without a token, the address
/// cannot be bound, or the server fails.
pub async fn serve_http(state: Arc<State>, opts: HttpOptions) -> anyhow::Result<()> {
    if !opts.addr.ip().is_loopback() && opts.token.is_none() {
        anyhow::bail!(
            "--http {} is not a loopback address: serving it needs --token-file",
            opts.addr
        );
    }
    let listener = tokio::net::TcpListener::bind(opts.addr)
        .await
        .map_err(|e| anyhow::anyhow!("--http {}: cannot bind: {e}", opts.addr))?;
    let bound = listener.local_addr()?;
    let stop = CancellationToken::new();
    let app =
        router(state, &opts, stop.clone()).into_make_service_with_connect_info::<SocketAddr>();
    eprintln!("skillnav mcp: serving http://{bound}{ENDPOINT}");
    let until = stop.clone();
    let server = axum::serve(listener, app)
        .with_graceful_shutdown(async move { until.cancelled().await })
        .into_future();
    tokio::select! {
        r = server => r?,
        () = stop_on_signal(stop) => {
            eprintln!("skillnav mcp: connections still open after {SHUTDOWN_GRACE:?}; stopping");
        }
    }
    Ok(())
}

/// The app: rmcp's service on [`ENDPOINT`] behind the JSON-RPC body check
/// ([`super::http_body`]), both behind the bearer check when there is a token.
fn router(state: Arc<State>, opts: &HttpOptions, stop: CancellationToken) -> Router {
    let service = StreamableHttpService::new(
        move || Ok(SkillnavServer::new(Arc::clone(&state))),
        Arc::new(LocalSessionManager::default()),
        service_config(opts, stop),
    );
    let app = Router::new()
        .route_service(ENDPOINT, service)
        .layer(middleware::from_fn(super::http_body::check_body));
    match &opts.token {
        Some(token) => app.layer(middleware::from_fn_with_state(
            token.clone(),
            require_bearer,
        )),
        None => app,
    }
}

/// rmcp's settings: its `Host` check (against DNS rebinding) stays on for a loopback
/// address; on any other address the bearer token guards instead, and clients name the
/// host however they reach it.
fn service_config(opts: &HttpOptions, stop: CancellationToken) -> StreamableHttpServerConfig {
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop);
    if opts.addr.ip().is_loopback() {
        config
    } else {
        config.disable_allowed_hosts()
    }
}

/// Pass a request carrying `Authorization: Bearer <token>` on; answer any other 401 with
/// `WWW-Authenticate`, and log the refusal (method, path, peer, why; never the token).
async fn require_bearer(
    axum::extract::State(token): axum::extract::State<Token>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    match check_bearer(&token, request.headers().get(header::AUTHORIZATION)) {
        Ok(()) => next.run(request).await,
        Err(why) => {
            eprintln!(
                "skillnav mcp: refused {} {} from {peer}: {} (401)",
                request.method(),
                crate::util::sanitize::sanitize_line(request.uri().path()),
                why.reason()
            );
            unauthorized(why)
        }
    }
}

/// Why a request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    /// No `Authorization` header, or not a `Bearer` one.
    Missing,
    /// A bearer token that is not the server's.
    Wrong,
}

impl Refusal {
    fn reason(self) -> &'static str {
        match self {
            Refusal::Missing => "no bearer token",
            Refusal::Wrong => "wrong bearer token",
        }
    }
}

/// Check an `Authorization` header value against `token` (the scheme is case-insensitive,
/// RFC 9110 §11.1).
fn check_bearer(token: &Token, value: Option<&HeaderValue>) -> Result<(), Refusal> {
    let bytes = value.map_or(&[][..], HeaderValue::as_bytes);
    let Some((scheme, given)) = bytes.split_at_checked(7) else {
        return Err(Refusal::Missing);
    };
    if !scheme.eq_ignore_ascii_case(b"bearer ") {
        return Err(Refusal::Missing);
    }
    if token.matches(given.trim_ascii()) {
        Ok(())
    } else {
        Err(Refusal::Wrong)
    }
}

/// The 401 answer (RFC 6750 §3: `invalid_token` when a token was given).
fn unauthorized(why: Refusal) -> Response {
    let challenge = match why {
        Refusal::Missing => "Bearer",
        Refusal::Wrong => "Bearer error=\"invalid_token\"",
    };
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, challenge)],
        format!("401 Unauthorized: {}\n", why.reason()),
    )
        .into_response()
}

/// Wait for Ctrl-C or SIGTERM, stop accepting and close every session (`stop`), then give
/// open connections [`SHUTDOWN_GRACE`] to finish.
async fn stop_on_signal(stop: CancellationToken) {
    signal().await;
    eprintln!("skillnav mcp: stopping");
    stop.cancel();
    tokio::time::sleep(SHUTDOWN_GRACE).await;
}

/// Ctrl-C, or SIGTERM on Unix (a signal that cannot be watched is never reported).
async fn signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(v: &str) -> HeaderValue {
        HeaderValue::from_str(v).unwrap()
    }

    #[test]
    fn the_right_bearer_token_passes_with_any_scheme_case() {
        let t = Token::new("s3cret").unwrap();
        assert_eq!(check_bearer(&t, Some(&header("Bearer s3cret"))), Ok(()));
        assert_eq!(check_bearer(&t, Some(&header("bearer s3cret"))), Ok(()));
    }

    #[test]
    fn a_missing_other_scheme_or_wrong_token_is_refused_with_its_reason() {
        let t = Token::new("s3cret").unwrap();
        assert_eq!(check_bearer(&t, None), Err(Refusal::Missing));
        assert_eq!(
            check_bearer(&t, Some(&header("Basic czNjcmV0"))),
            Err(Refusal::Missing)
        );
        assert_eq!(
            check_bearer(&t, Some(&header("Bearer"))),
            Err(Refusal::Missing)
        );
        assert_eq!(
            check_bearer(&t, Some(&header("Bearer s3cre"))),
            Err(Refusal::Wrong)
        );
        assert_eq!(
            check_bearer(&t, Some(&header("Bearer s3cret2"))),
            Err(Refusal::Wrong)
        );
    }

    #[test]
    fn an_empty_token_is_no_token_and_debug_never_shows_it() {
        assert!(Token::new("").is_none());
        let t = Token::new("s3cret").unwrap();
        assert_eq!(format!("{t:?}"), "Token(<redacted>)");
    }
}
