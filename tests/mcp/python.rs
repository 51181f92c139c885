//! The acceptance run: `tests/mcp/client.py` (the official MCP Python SDK, the `mcp` package)
//! drives the real `skillnav mcp` binary over stdio on copies of `tests/fixtures` and
//! checks real values against the CLI. Skipped with a message when python3 or the `mcp`
//! package is missing, unless `CI` is set (then it fails).

use std::process::{Command, Stdio};
use std::time::Duration;

use super::wait_bounded;
use crate::support::fs::{manifest, tempdir};
use crate::support::python::mcp_sdk_or_skip;

#[test]
fn the_official_python_sdk_drives_the_server_and_every_check_passes() {
    if !mcp_sdk_or_skip() {
        return;
    }
    let work = tempdir();
    let child = Command::new("python3")
        .arg(manifest("tests/mcp/client.py"))
        .arg(env!("CARGO_BIN_EXE_skillnav"))
        .arg(manifest("tests/fixtures"))
        .arg(work.path())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run python3: {e}"));
    let (status, out, err) = wait_bounded(child, Duration::from_secs(600), "client.py");
    assert!(
        status.success(),
        "client.py failed\n--- stdout ---\n{out}\n--- stderr ---\n{err}"
    );
    let checks = out.lines().filter(|l| l.starts_with("ok ")).count();
    assert_eq!(out.lines().last(), Some("all checks passed"), "{out}");
    assert!(checks >= 50, "only {checks} checks ran:\n{out}");
}
