//! `skillnav mcp --http`: `tests/mcp/http_client.py` (the official MCP Python SDK's
//! streamable HTTP client) drives the real binary on loopback ports the server picks —
//! the protocol, malformed bodies answered as JSON-RPC errors, the bearer token and its
//! 401s, and 1,000 requests from 20 concurrent
//! clients with the server's RSS before and after; the usage errors are checked here
//! directly. The Python runs are skipped with a message when python3 or the `mcp` package
//! is missing, unless `CI` is set (then they fail).

use std::process::{Command, Stdio};
use std::time::Duration;

use super::wait_bounded;
use crate::support::fs::{manifest, tempdir};

/// Run `http_client.py` in `mode`; its stdout, once every check passed.
fn run_client(mode: &str) -> Option<String> {
    super::python::run_sdk_script("http_client.py", &[mode])
}

#[test]
fn the_sdk_http_client_initializes_lists_searches_and_reads_resources_on_loopback() {
    let Some(out) = run_client("basic") else {
        return;
    };
    for check in [
        "ok port 0 prints the port picked",
        "ok tools/list over HTTP",
        "ok search over HTTP agrees with the CLI",
        "ok resources/list over HTTP",
        "ok two sessions share one workspace",
        "ok a body that is not JSON: 400, -32700, id null",
        "ok an empty body: 400, -32700, id null",
        "ok a batch: 400, -32600, id null",
        "ok JSON that is no message: 400, -32600, its id",
        "ok resources/read without uri: 400, -32602, its id",
        "ok an unreadable notification: 202, never answered",
        "ok a well-formed initialize after them: 200",
        "ok SIGTERM stops the server cleanly",
        "ok --http PORT binds 127.0.0.1",
    ] {
        assert!(out.lines().any(|l| l == check), "missing {check:?}:\n{out}");
    }
}

#[test]
fn a_token_file_refuses_missing_and_wrong_tokens_with_401_and_logs_them() {
    let Some(out) = run_client("auth") else {
        return;
    };
    for check in [
        "ok no token: 401 with WWW-Authenticate: Bearer",
        "ok wrong token: 401",
        "ok the SDK with the token searches",
        "ok each refusal is logged on stderr",
        "ok the log never shows a token",
        "ok a non-loopback bind answers with the token",
        "ok a token file others can read warns",
    ] {
        assert!(out.lines().any(|l| l == check), "missing {check:?}:\n{out}");
    }
}

#[test]
fn twenty_concurrent_clients_get_all_1000_answers_and_rss_stays_flat() {
    let Some(out) = run_client("load") else {
        return;
    };
    let rss = out
        .lines()
        .find(|l| l.starts_with("rss_kb "))
        .unwrap_or_else(|| panic!("no rss line:\n{out}"));
    assert!(rss.contains(" requests=1000 clients=20 "), "{rss}");
    assert!(
        out.lines()
            .any(|l| l == "ok 1,000 requests from 20 concurrent clients all answered"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l == "ok RSS grows less than 30 MB over 1,000 requests"),
        "{out}"
    );
}

/// Run `skillnav mcp ARGS` expecting a quick usage error: its exit code and stderr.
fn usage_error(args: &[&str]) -> (Option<i32>, String) {
    let work = tempdir();
    let child = Command::new(env!("CARGO_BIN_EXE_skillnav"))
        .arg("mcp")
        .arg(manifest("tests/fixtures/curate/skills"))
        .args(args)
        .env("HOME", work.path())
        .env("XDG_DATA_HOME", work.path().join("data"))
        .env("XDG_CACHE_HOME", work.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"));
    let (status, out, err) = wait_bounded(child, Duration::from_secs(60), "skillnav mcp");
    assert_eq!(out, "", "nothing on stdout");
    (status.code(), err)
}

#[test]
fn a_non_loopback_address_without_a_token_file_is_a_usage_error() {
    let (code, err) = usage_error(&["--http", "0.0.0.0:0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--http 0.0.0.0:0 is not a loopback address: serving it needs --token-file"),
        "{err}"
    );
    assert!(!err.contains("serving http://"), "{err}");
}

#[test]
fn an_http_address_that_is_not_port_or_ip_port_is_a_usage_error() {
    let (code, err) = usage_error(&["--http", "localhost:8080"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is not PORT or IP:PORT"), "{err}");
}

#[test]
fn an_empty_or_missing_token_file_is_an_error() {
    let dir = tempdir();
    let empty = dir.path().join("empty");
    std::fs::write(&empty, " \n").unwrap();
    let empty = empty.to_string_lossy().into_owned();
    let (code, err) = usage_error(&["--http", "127.0.0.1:0", "--token-file", &empty]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the file is empty"), "{err}");
    let missing = dir.path().join("missing").to_string_lossy().into_owned();
    let (code, err) = usage_error(&["--http", "127.0.0.1:0", "--token-file", &missing]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--token-file") && err.contains("missing"),
        "{err}"
    );
}

#[test]
fn a_token_file_without_http_is_a_usage_error() {
    let (code, err) = usage_error(&["--token-file", "/nonexistent"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--http"), "{err}");
}
