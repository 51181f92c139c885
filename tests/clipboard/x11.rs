//! The native clipboard path on a real X server (docs/DESIGN.md §5, §11): `copy_with` hands the
//! text to `skillnav __clipboard-serve`, which must keep serving it after the copying process
//! has exited; read back with `xclip -o -selection clipboard`.
//!
//! The serving child also exits when its X display closes: checked on an Xvfb of the test's
//! own ([`Xvfb`]), killed under it.
//!
//! Runs when `DISPLAY` is set and `xclip` is installed (e.g. `xvfb-run -a cargo test --test
//! main -- clipboard::x11`). Without them it skips with a notice, except under `CI` (set and not `0`
//! or `false`), where a missing tool is a failure, never a silent skip.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use skillnav::clipboard::{CopyOptions, CopyOutcome, copy_with};

use crate::support::child::{test_name, under_ci};

/// The real binary, which runs `__clipboard-serve` before anything else.
const SKILLNAV: &str = env!("CARGO_BIN_EXE_skillnav");
/// Env var that turns [`copy_in_child_process`] into the copying process.
const CHILD_TEXT: &str = "SKILLNAV_TEST_CLIPBOARD_TEXT_FILE";

/// Whether the X11 test can run; panics under CI when it cannot.
fn x11_ready() -> bool {
    let display = std::env::var_os("DISPLAY").is_some_and(|v| !v.is_empty());
    let xclip = Command::new("xclip")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let missing = match (display, xclip.is_ok()) {
        (true, true) => return true,
        (false, _) => "DISPLAY is not set (run under xvfb-run -a)",
        (true, false) => "xclip is not installed",
    };
    assert!(!under_ci(), "clipboard_x11: {missing}; CI must provide it");
    eprintln!("SKIPPED clipboard_x11: {missing}");
    false
}

fn options() -> CopyOptions {
    CopyOptions {
        osc52: false,
        serve_exe: Some(PathBuf::from(SKILLNAV)),
        fallback_dir: Some(std::env::temp_dir().join("skillnav-clipboard-x11-test")),
        native_timeout: Duration::from_secs(5),
        // These tests are about the X11 path, also when run over SSH.
        ssh_prefers_osc52: false,
        ..CopyOptions::default()
    }
}

fn xclip_out() -> String {
    let out = Command::new("xclip")
        .args(["-o", "-selection", "clipboard"])
        .output()
        .expect("run xclip -o");
    assert!(
        out.status.success(),
        "xclip -o failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("clipboard is UTF-8")
}

/// Whether process `pid` runs with our `DISPLAY` (serving children of other X servers, e.g.
/// left by an earlier run on another display, are not ours to count).
fn same_display(pid: u32) -> bool {
    let ours = std::env::var("DISPLAY").unwrap_or_default();
    let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else {
        return false;
    };
    env.split(|b| *b == 0).any(|kv| {
        kv.strip_prefix(b"DISPLAY=")
            .is_some_and(|v| v == ours.as_bytes())
    })
}

/// Pids of running `<skillnav> __clipboard-serve` children on our display.
fn serving_pids() -> Vec<u32> {
    let mut pids = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<&[u8]> = cmd.split(|b| *b == 0).collect();
        if args.len() >= 2
            && args[0] == SKILLNAV.as_bytes()
            && args[1] == b"__clipboard-serve"
            && same_display(pid)
        {
            pids.push(pid);
        }
    }
    pids
}

fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Not a test of its own: when [`CHILD_TEXT`] names a file, copy its text and exit, so the
/// main test can read the clipboard after the copying process is gone.
#[test]
#[ignore = "helper run as a child process by the other tests"]
fn copy_in_child_process() {
    let Some(path) = std::env::var_os(CHILD_TEXT) else {
        return;
    };
    let text = std::fs::read_to_string(path).expect("read text to copy");
    assert_eq!(
        copy_with(&text, &options()).expect("copy"),
        CopyOutcome::Copied
    );
}

#[test]
fn x11_copy_survives_the_copying_process_and_yields_to_the_next_owner() {
    if !x11_ready() {
        return;
    }
    let mut text =
        String::from("# Context brief\n\nSources: docs · 1 section · über — 中文 `code`\n");
    // ~300 kB: more than a pipe buffer and than one X request (served incrementally).
    for i in 0..6000 {
        text.push_str(&format!(
            "line {i:05}: the quick brown fox jumps over the lazy dog\n"
        ));
    }
    // Serving children left by earlier runs (a reused display number) are not this test's.
    let earlier = serving_pids();
    let dir = tempfile::tempdir().expect("tempdir");
    let text_file = dir.path().join("text.md");
    std::fs::write(&text_file, &text).expect("write text");

    let status = Command::new(std::env::current_exe().expect("test exe"))
        .args([
            "--exact",
            &test_name(module_path!(), "copy_in_child_process"),
            "--ignored",
            "--test-threads=1",
        ])
        .env(CHILD_TEXT, &text_file)
        .stdout(Stdio::null())
        .status()
        .expect("run the copying process");
    assert!(status.success(), "copying process failed: {status}");

    // The copying process has exited; the serving child still answers.
    assert_eq!(xclip_out(), text);
    let first: Vec<u32> = serving_pids()
        .into_iter()
        .filter(|p| !earlier.contains(p))
        .collect();
    assert_eq!(first.len(), 1, "one serving child, got {first:?}");

    // A second copy in this process replaces the first: the old child loses ownership, exits.
    let second = "second copy\n";
    assert_eq!(
        copy_with(second, &options()).expect("copy"),
        CopyOutcome::Copied
    );
    assert_eq!(xclip_out(), second);
    wait_until("the first serving child exits", || {
        !serving_pids().contains(&first[0])
    });

    // Another program taking the clipboard ends our last serving child too.
    let mut xclip_in = Command::new("xclip")
        .args(["-i", "-selection", "clipboard"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("run xclip -i");
    {
        use std::io::Write;
        let mut stdin = xclip_in.stdin.take().expect("xclip stdin");
        stdin.write_all(b"from xclip").expect("write to xclip");
    }
    assert!(xclip_in.wait().expect("xclip -i").success());
    assert_eq!(xclip_out(), "from xclip");
    wait_until("no serving child of ours is left", || {
        serving_pids().iter().all(|p| earlier.contains(p))
    });
}

/// An Xvfb of a test's own on a free display number (`-displayfd`), killed on drop.
pub(super) struct Xvfb {
    child: std::process::Child,
    /// Its display name, `:N`.
    pub display: String,
}

impl Xvfb {
    /// Start it and wait until it accepts clients (it prints its display number then).
    pub(super) fn start() -> Self {
        use std::io::BufRead;
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-nolisten",
                "tcp",
                "-screen",
                "0",
                "640x480x24",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let stdout = child.stdout.take().expect("Xvfb stdout");
        let mut line = String::new();
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the display number");
        let n: u32 = line.trim().parse().expect("a display number");
        Self {
            child,
            display: format!(":{n}"),
        }
    }

    /// Kill the server and reap it.
    pub(super) fn close(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        self.close();
    }
}

#[test]
fn serving_child_exits_when_its_x_display_closes() {
    let have_xvfb = Command::new("Xvfb")
        .arg("-help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !have_xvfb {
        assert!(!under_ci(), "Xvfb is missing; CI must provide it");
        eprintln!("SKIPPED: Xvfb is not installed");
        return;
    }
    let mut x = Xvfb::start();
    let mut serve = Command::new(SKILLNAV)
        .arg("__clipboard-serve")
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the serving child");
    {
        use std::io::Write;
        let mut stdin = serve.stdin.take().expect("stdin");
        stdin.write_all(b"served text").expect("write");
    }
    let mut ok = String::new();
    {
        use std::io::BufRead;
        let stdout = serve.stdout.take().expect("stdout");
        std::io::BufReader::new(stdout)
            .read_line(&mut ok)
            .expect("read ok");
    }
    assert_eq!(ok, "ok\n");
    // It serves: another client reads the text back.
    let out = Command::new("xclip")
        .args(["-o", "-selection", "clipboard"])
        .env("DISPLAY", &x.display)
        .output();
    if let Ok(out) = out {
        assert_eq!(String::from_utf8_lossy(&out.stdout), "served text");
    }
    assert!(
        serve.try_wait().expect("try_wait").is_none(),
        "still serving"
    );
    // The display goes away: the child exits on its own, with status 0.
    x.close();
    let deadline = Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Some(s) = serve.try_wait().expect("try_wait") {
            break Some(s);
        }
        if Instant::now() >= deadline {
            // Not left behind when the test fails.
            let _ = serve.kill();
            let _ = serve.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(0),
        "the serving child did not exit after its display closed"
    );
}

/// A text over the X server's one-request limit (16 MiB on Xvfb with BIG-REQUESTS): the
/// serving child cannot hand it over (no INCR transfers), so the native path refuses it with
/// the reason instead of reporting a copy nobody can paste, and the copy goes to a file.
#[test]
fn a_text_over_the_x_servers_request_limit_is_saved_not_reported_copied() {
    if !x11_ready() {
        return;
    }
    let line = "0123456789abcdef ".repeat(64) + "\n";
    let text = line.repeat(17 * 1024 * 1024 / line.len() + 1);
    let err = skillnav::clipboard::copy_native(&text, &options()).expect_err("refused");
    assert!(
        err.contains("is over the") && err.contains("the X server takes in one request"),
        "{err}"
    );
    match copy_with(&text, &options()).expect("copy") {
        CopyOutcome::Saved(path) => {
            assert_eq!(std::fs::read_to_string(&path).expect("saved file"), text);
            let _ = std::fs::remove_file(path);
        }
        other => panic!("{other:?}"),
    }
    // Nothing here takes the clipboard (the refused child exits before it would), so this
    // test never races the one beside it on the same display, which copies under the limit.
}
