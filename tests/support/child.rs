//! Child processes of this test binary: a test that needs its own environment (e.g.
//! `NO_COLOR`) or its own terminal re-runs one test of this binary with `--exact`.

/// The name libtest gives test `name` of module `module` (as `module_path!()` writes it, the
/// crate name first): the module path without the crate, then `name`, joined by `::`.
/// `--exact` needs this full name; a bare function name would match no test at all.
pub fn test_name(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, path)) => format!("{path}::{name}"),
        None => name.to_string(),
    }
}

/// Whether libtest's summary in `stdout` says exactly one test passed, so a child run by
/// name really ran its test (a wrong name runs none and still exits 0).
pub fn ran_one(stdout: &[u8]) -> bool {
    String::from_utf8_lossy(stdout).contains("test result: ok. 1 passed;")
}

/// Whether the `CI` variable is set to something else than empty, `0` or `false`: then a
/// missing tool fails a test instead of skipping it.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The folder every `skillnav` child of this test run keeps its count cache in (under
/// Cargo's per-target temporary folder), so tests never read or write the user's own cache.
pub const TEST_CACHE_HOME: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-cache");

/// The models folder every `skillnav` child of this test run sees unless a test names its
/// own (never created): no re-rank model is installed, whatever the user's data folder holds.
pub const TEST_MODELS_DIR: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-models");

/// A `skillnav` command for the binary under test, with its cache folder
/// ([`TEST_CACHE_HOME`]) and models folder ([`TEST_MODELS_DIR`]) set explicitly, as every
/// child's environment is.
pub fn skillnav_command() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_skillnav"));
    cmd.env("XDG_CACHE_HOME", TEST_CACHE_HOME);
    cmd.env("SKILLNAV_MODELS_DIR", TEST_MODELS_DIR);
    cmd
}

/// Run `cmd` and return its output; panics with its stderr when it did not succeed.
#[track_caller]
pub fn succeeded(cmd: &mut std::process::Command) -> std::process::Output {
    let out = cmd.output().expect("run the command");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
