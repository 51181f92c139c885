//! The official MCP Python SDK as an outside client: whether `python3` can import the `mcp`
//! package, and the skip-or-fail rule the tests that drive `skillnav mcp` with it share.

use std::process::Command;

/// `Ok(version)` when `python3` imports the `mcp` package (its installed version, e.g.
/// `"2.3.0"`); `Err(why)` when python3 is missing or the import fails (the import's stderr).
pub fn mcp_sdk_version() -> Result<String, String> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import mcp, importlib.metadata as m; print(m.version('mcp'))",
        ])
        .output()
        .map_err(|e| format!("python3 not found ({e})"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    } else {
        Err(format!(
            "the Python `mcp` package is missing (pip install mcp): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// `true` when the SDK is there and the test should run; `false` (after printing why) when
/// it is missing outside CI. Panics when it is missing and `CI` is set
/// ([`super::child::under_ci`]): CI installs it (`.ci/run`), so a skip there would hide a
/// missing install step.
pub fn mcp_sdk_or_skip() -> bool {
    match mcp_sdk_version() {
        Ok(_) => true,
        Err(why) => {
            assert!(!super::child::under_ci(), "CI is set but {why}");
            eprintln!("skipped: {why}");
            false
        }
    }
}
