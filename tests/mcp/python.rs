//! The acceptance run: `tests/mcp/client.py` (the official MCP Python SDK, the `mcp` package)
//! drives the real `skillnav mcp` binary over stdio on copies of `tests/fixtures` and
//! checks real values against the CLI. Skipped with a message when python3 or the `mcp`
//! package is missing, unless `CI` is set (then it fails).

use std::process::{Command, Stdio};
use std::time::Duration;

use super::wait_bounded;
use crate::support::fs::{manifest, tempdir};
use crate::support::python::mcp_sdk_or_skip;

/// Run the SDK script `tests/mcp/SCRIPT` on the real binary and a copy of the fixtures
/// (with `extra` arguments after them); its stdout, once it exited 0 and its last line is
/// `all checks passed`. `None` when the SDK is missing outside CI (skipped with a message).
pub fn run_sdk_script(script: &str, extra: &[&str]) -> Option<String> {
    if !mcp_sdk_or_skip() {
        return None;
    }
    let work = tempdir();
    let child = Command::new("python3")
        .arg(manifest(&format!("tests/mcp/{script}")))
        .arg(env!("CARGO_BIN_EXE_skillnav"))
        .arg(manifest("tests/fixtures"))
        .arg(work.path())
        .args(extra)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run python3: {e}"));
    let (status, out, err) = wait_bounded(child, Duration::from_secs(600), script);
    assert!(
        status.success(),
        "{script} {extra:?} failed\n--- stdout ---\n{out}\n--- stderr ---\n{err}"
    );
    assert_eq!(out.lines().last(), Some("all checks passed"), "{out}");
    Some(out)
}

#[test]
fn the_official_python_sdk_drives_the_server_and_every_check_passes() {
    let Some(out) = run_sdk_script("client.py", &[]) else {
        return;
    };
    let checks = out.lines().filter(|l| l.starts_with("ok ")).count();
    assert!(checks >= 50, "only {checks} checks ran:\n{out}");
}
