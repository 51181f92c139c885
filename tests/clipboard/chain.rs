//! The OSC 52 and file links of the clipboard chain, end to end in child processes: in a
//! pseudo-terminal the exact OSC 52 bytes reach the terminal (plain and tmux-wrapped, with the
//! over-limit flag), and without a controlling terminal nothing is written and the text is
//! saved to a file instead. `setsid` (util-linux) detaches the second child from any terminal;
//! under `CI` its absence fails the test.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use skillnav::clipboard::{CopyOptions, copy_with};

use crate::support::child::{test_name, under_ci};

/// Env var that turns [`osc52_child`] into the copying process: the fallback folder.
const CHILD_DIR: &str = "SKILLNAV_TEST_OSC52_DIR";
/// Env var with the OSC 52 limit (bytes) for the child.
const CHILD_LIMIT: &str = "SKILLNAV_TEST_OSC52_LIMIT";
/// Env var telling the child what to do above the limit: `file` (default) or `send`.
const CHILD_OVERSIZE: &str = "SKILLNAV_TEST_OSC52_OVERSIZE";
const TEXT: &str = "brief: über\n";
/// base64 of [`TEXT`].
const TEXT_B64: &str = "YnJpZWY6IMO8YmVyCg==";

/// Not a test of its own: when [`CHILD_DIR`] is set, copy [`TEXT`] with native off and print
/// the outcome.
#[test]
#[ignore = "helper run as a child process by the other tests"]
fn osc52_child() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else {
        return;
    };
    let limit = std::env::var(CHILD_LIMIT)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let oversize_to_file = std::env::var(CHILD_OVERSIZE).map_or(true, |v| v != "send");
    let opts = CopyOptions {
        native: false,
        osc52_limit: limit,
        oversize_to_file,
        fallback_dir: Some(dir.into()),
        ..CopyOptions::default()
    };
    let outcome = copy_with(TEXT, &opts).expect("copy");
    println!("OUTCOME:{outcome:?}");
}

/// Run [`osc52_child`] in a fresh pseudo-terminal; everything the terminal received.
fn run_in_pty(dir: &Path, tmux: bool, limit: usize) -> String {
    run_in_pty_with(dir, tmux, limit, true)
}

/// [`run_in_pty`] choosing what happens above the limit (`oversize_to_file`).
fn run_in_pty_with(dir: &Path, tmux: bool, limit: usize, oversize_to_file: bool) -> String {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pty");
    let mut cmd = CommandBuilder::new(std::env::current_exe().expect("test exe"));
    let name = test_name(module_path!(), "osc52_child");
    cmd.args([
        "--exact",
        &name,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    cmd.env(CHILD_DIR, dir);
    cmd.env(CHILD_LIMIT, limit.to_string());
    cmd.env(
        CHILD_OVERSIZE,
        if oversize_to_file { "file" } else { "send" },
    );
    if tmux {
        cmd.env("TMUX", "/tmp/tmux-0/default,1,0");
    } else {
        cmd.env_remove("TMUX");
    }
    let mut child = pair.slave.spawn_command(cmd).expect("spawn in pty");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    let out = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&out);
    let t = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().expect("lock").extend_from_slice(&buf[..n]);
        }
    });
    let status = child.wait().expect("wait child");
    assert!(status.success(), "child failed: {status:?}");
    drop(pair.master);
    t.join().expect("reader thread");
    let bytes = out.lock().expect("lock").clone();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn osc52_reaches_the_terminal_with_exact_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in_pty(dir.path(), false, 100_000);
    assert!(
        out.contains(&format!("\x1b]52;c;{TEXT_B64}\x07")),
        "{out:?}"
    );
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: false }"),
        "{out:?}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("read dir").count(),
        0,
        "no file fallback"
    );
}

#[test]
fn osc52_inside_tmux_is_wrapped_in_dcs_passthrough() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in_pty(dir.path(), true, 100_000);
    assert!(
        out.contains(&format!("\x1bPtmux;\x1b\x1b]52;c;{TEXT_B64}\x07\x1b\\")),
        "{out:?}"
    );
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: false }"),
        "{out:?}"
    );
}

#[test]
fn osc52_over_the_limit_falls_back_to_a_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in_pty(dir.path(), false, TEXT.len() - 1);
    assert!(!out.contains("\x1b]52;"), "{out:?}");
    assert!(out.contains("OUTCOME:Saved("), "{out:?}");
    let saved: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .flatten()
        .collect();
    assert_eq!(saved.len(), 1);
    assert_eq!(
        std::fs::read_to_string(saved[0].path()).expect("saved file"),
        TEXT
    );
}

#[test]
fn osc52_over_the_limit_is_sent_and_flagged_when_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in_pty_with(dir.path(), false, TEXT.len() - 1, false);
    assert!(
        out.contains(&format!("\x1b]52;c;{TEXT_B64}\x07")),
        "{out:?}"
    );
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: true }"),
        "{out:?}"
    );
}

#[test]
fn without_a_terminal_nothing_is_written_and_the_text_is_saved() {
    if Command::new("setsid")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_err()
    {
        assert!(
            !under_ci(),
            "setsid (util-linux) is missing; CI must provide it"
        );
        eprintln!("SKIPPED: setsid (util-linux) is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = Command::new("setsid")
        .arg("-w")
        .arg(std::env::current_exe().expect("test exe"))
        .args([
            "--exact",
            &test_name(module_path!(), "osc52_child"),
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR, dir.path())
        .env_remove("TMUX")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("run detached child");
    assert!(out.status.success(), "child failed: {:?}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains('\x1b'), "{stdout:?}");
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        stdout.contains(&format!("OUTCOME:Saved({:?})", files[0])),
        "{stdout:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&files[0]).expect("read saved"),
        TEXT
    );
}
