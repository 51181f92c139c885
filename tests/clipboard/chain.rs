//! The OSC 52 and file links of the clipboard chain, end to end in child processes: in a
//! pseudo-terminal the exact OSC 52 bytes reach the terminal (plain, and both forms inside a
//! tmux whose options cannot be read, with the over-limit flag); inside a real tmux server
//! with `set -g set-clipboard on` the plain sequence becomes a `tmux list-buffers` entry,
//! and with tmux's defaults nothing is sent and the text is saved; over SSH OSC 52 is chosen
//! before the native clipboard; without a controlling terminal nothing is written and the
//! text is saved to a file instead. `setsid` (util-linux) detaches a child from any terminal;
//! under `CI` its absence (or tmux's, Xvfb's) fails the test.

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
/// Env var that turns the native clipboard on in the child (served by the real binary).
const CHILD_NATIVE: &str = "SKILLNAV_TEST_OSC52_NATIVE";
/// The real binary, which runs `__clipboard-serve` before anything else.
const SKILLNAV: &str = env!("CARGO_BIN_EXE_skillnav");
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
        native: std::env::var_os(CHILD_NATIVE).is_some(),
        serve_exe: Some(SKILLNAV.into()),
        osc52_limit: limit,
        oversize_to_file,
        fallback_dir: Some(dir.into()),
        ..CopyOptions::default()
    };
    let outcome = copy_with(TEXT, &opts).expect("copy");
    println!("OUTCOME:{outcome:?}");
}

/// Run [`osc52_child`] in a fresh pseudo-terminal; everything the terminal received.
/// `tmux`: a `$TMUX` naming a socket where no server runs (so tmux's options cannot be read).
fn run_in_pty(dir: &Path, tmux: bool, limit: usize) -> String {
    run_in_pty_with(dir, tmux, limit, true)
}

/// [`run_in_pty`] choosing what happens above the limit (`oversize_to_file`).
fn run_in_pty_with(dir: &Path, tmux: bool, limit: usize, oversize_to_file: bool) -> String {
    let tmux_env = tmux.then(|| format!("{},1,0", dir.join("no-tmux-server").display()));
    let mut env: Vec<(&str, String)> = vec![
        (CHILD_LIMIT, limit.to_string()),
        (
            CHILD_OVERSIZE,
            if oversize_to_file { "file" } else { "send" }.to_string(),
        ),
    ];
    if let Some(t) = tmux_env {
        env.push(("TMUX", t));
    }
    run_child_in_pty(dir, &env)
}

/// Run [`osc52_child`] (fallback folder `dir`) in a fresh pseudo-terminal with `env` set and
/// `TMUX`, `SSH_TTY`, `SSH_CONNECTION` removed unless `env` sets them; everything the
/// terminal received.
fn run_child_in_pty(dir: &Path, env: &[(&str, String)]) -> String {
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
    for k in ["TMUX", "SSH_TTY", "SSH_CONNECTION"] {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
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
        out.contains("OUTCOME:Osc52 { over_limit: false, tmux: None }"),
        "{out:?}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("read dir").count(),
        0,
        "no file fallback"
    );
}

#[test]
fn osc52_inside_an_unreadable_tmux_sends_plain_and_passthrough() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_in_pty(dir.path(), true, 100_000);
    assert!(
        out.contains(&format!(
            "\x1b]52;c;{TEXT_B64}\x07\x1bPtmux;\x1b\x1b]52;c;{TEXT_B64}\x07\x1b\\"
        )),
        "{out:?}"
    );
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: false, tmux: Some(Unsure) }"),
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
        out.contains("OUTCOME:Osc52 { over_limit: true, tmux: None }"),
        "{out:?}"
    );
}

#[test]
fn without_a_terminal_nothing_is_written_and_the_text_is_saved() {
    if !super::setsid_ready() {
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
        .env_remove("SSH_TTY")
        .env_remove("SSH_CONNECTION")
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

/// Whether `tool` runs (`tool -V`/`--version` style `args`); panics under CI when it does not.
fn have(tool: &str, args: &[&str]) -> bool {
    let ok = Command::new(tool)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !ok {
        assert!(!under_ci(), "{tool} is missing; CI must provide it");
        eprintln!("SKIPPED: {tool} is not installed");
    }
    ok
}

/// A private tmux server (its own socket, config `conf`) running [`osc52_child`] in its only
/// pane; killed on drop.
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    /// Start the server with `conf` and run the child (fallback folder `dir`, its stdout in
    /// `dir/../out.txt`); wait until the child has printed its outcome, which is returned.
    fn run_child(tmp: &Path, conf: &str) -> (Self, String) {
        let socket = tmp.join("tmux.sock");
        let conf_path = tmp.join("tmux.conf");
        std::fs::write(&conf_path, conf).expect("write tmux.conf");
        let dir = tmp.join("saved");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let out = tmp.join("out.txt");
        let cmd = format!(
            "env -u SSH_TTY -u SSH_CONNECTION {}='{}' '{}' --exact '{}' --ignored --nocapture \
             --test-threads=1 > '{}' 2>&1; sleep 30",
            CHILD_DIR,
            dir.display(),
            std::env::current_exe().expect("test exe").display(),
            test_name(module_path!(), "osc52_child"),
            out.display()
        );
        let status = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .arg("-f")
            .arg(&conf_path)
            .args(["new-session", "-d", "-x", "100", "-y", "20", &cmd])
            .env_remove("TMUX")
            .status()
            .expect("run tmux");
        assert!(status.success(), "tmux new-session: {status}");
        let server = Self { socket };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let text = std::fs::read_to_string(&out).unwrap_or_default();
            if text.contains("OUTCOME:") && text.contains("test result") {
                return (server, text);
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the child in tmux printed no outcome: {text:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    /// `tmux <args>` on this server: its stdout.
    fn cmd(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("run tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .env_remove("TMUX")
            .status();
    }
}

#[test]
fn plain_osc52_lands_in_tmux_list_buffers_with_set_clipboard_on() {
    if !have("tmux", &["-V"]) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (tmux, out) = Tmux::run_child(tmp.path(), "set -g set-clipboard on\n");
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: false, tmux: Some(Buffer) }"),
        "{out:?}"
    );
    assert_eq!(
        tmux.cmd(&["list-buffers", "-F", "#{buffer_size}"]),
        format!("{}\n", TEXT.len())
    );
    assert_eq!(tmux.cmd(&["show-buffer"]), TEXT);
    assert_eq!(
        std::fs::read_dir(tmp.path().join("saved"))
            .expect("read dir")
            .count(),
        0,
        "no file fallback"
    );
}

#[test]
fn tmux_with_passthrough_allowed_gets_the_dcs_form_only() {
    if !have("tmux", &["-V"]) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (tmux, out) = Tmux::run_child(tmp.path(), "set -g allow-passthrough on\n");
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: false, tmux: Some(Passthrough) }"),
        "{out:?}"
    );
    // The plain form was not sent: tmux made no buffer of it.
    assert_eq!(tmux.cmd(&["list-buffers"]), "");
}

#[test]
fn tmux_defaults_drop_osc52_so_the_text_is_saved() {
    if !have("tmux", &["-V"]) {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    // tmux's defaults since 3.3: `set-clipboard external`, `allow-passthrough off`.
    let (tmux, out) = Tmux::run_child(tmp.path(), "");
    assert!(out.contains("OUTCOME:SavedTmuxDrops("), "{out:?}");
    assert_eq!(tmux.cmd(&["list-buffers"]), "");
    let saved: Vec<_> = std::fs::read_dir(tmp.path().join("saved"))
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
fn over_ssh_osc52_is_preferred_to_the_native_clipboard() {
    if !have("Xvfb", &["-help"]) {
        return;
    }
    let x = crate::clipboard::x11::Xvfb::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let display = ("DISPLAY", x.display.clone());
    let native = (CHILD_NATIVE, "1".to_string());
    // Control: on the local display the native clipboard takes it.
    let out = run_child_in_pty(dir.path(), &[display.clone(), native.clone()]);
    assert!(out.contains("OUTCOME:Copied"), "{out:?}");
    assert!(!out.contains("\x1b]52;"), "{out:?}");
    // Over SSH the same display is the remote machine's: OSC 52 instead.
    let ssh = ("SSH_CONNECTION", "10.0.0.1 50000 10.0.0.2 22".to_string());
    let out = run_child_in_pty(dir.path(), &[display.clone(), native.clone(), ssh.clone()]);
    assert!(
        out.contains(&format!("\x1b]52;c;{TEXT_B64}\x07")),
        "{out:?}"
    );
    assert!(
        out.contains("OUTCOME:Osc52 { over_limit: false, tmux: None }"),
        "{out:?}"
    );
}
