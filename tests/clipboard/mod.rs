//! The clipboard chain in child processes: OSC 52, file fallback, X11 serving.

mod chain;
mod commands;
mod x11;

/// Whether `setsid` (util-linux, which detaches a child from every terminal) can run; under
/// `CI` its absence fails the test, elsewhere the caller skips (said on stderr).
fn setsid_ready() -> bool {
    let found = std::process::Command::new("setsid")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok();
    if !found {
        assert!(
            !crate::support::child::under_ci(),
            "setsid (util-linux) is missing; CI must provide it"
        );
        eprintln!("SKIPPED: setsid (util-linux) is not installed");
    }
    found
}
