//! First link of the clipboard chain: the system clipboard through arboard.
//!
//! On X11 platforms the clipboard is served by the process that owns it, so a copy would
//! vanish when skillnav exits. There the text goes to a detached child,
//! `<exe> __clipboard-serve` ([`serve_main`]), in its own process group: it reads the text on
//! stdin, takes the clipboard, confirms with `ok\n` on stdout, then keeps serving until
//! another program takes ownership or its X display closes, and exits (as `xclip` does). Elsewhere (macOS, Windows) the system keeps the
//! text and arboard is called in-process.

use std::time::Duration;

/// The argument that makes the `skillnav` binary run [`serve_main`] (see `src/main.rs`).
pub const SERVE_ARG: &str = "__clipboard-serve";

/// The X11 path, on the platforms where arboard uses X11 (its own `cfg` for the Linux backend).
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "android", target_os = "emscripten"))
))]
mod x11 {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;

    use arboard::SetExtLinux;

    /// Whether a display server is named in the environment (`DISPLAY` or
    /// `WAYLAND_DISPLAY`, non-empty). arboard is built without Wayland support, so on
    /// Wayland it reaches the clipboard through `XWayland`'s `DISPLAY`.
    pub(super) fn display_present() -> bool {
        ["DISPLAY", "WAYLAND_DISPLAY"]
            .iter()
            .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
    }

    /// Spawn `exe __clipboard-serve`, hand it `text` and wait up to `timeout` for its `ok`.
    pub(super) fn copy(text: &str, exe: &Path, timeout: Duration) -> Result<(), String> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new(exe)
            .arg(super::SERVE_ARG)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .current_dir("/")
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("clipboard child has no pipes".into());
        };
        let owned = text.to_owned();
        let writer = std::thread::spawn(move || stdin.write_all(owned.as_bytes()).is_ok());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout.take(64)).read_line(&mut line);
            let _ = tx.send(line);
        });
        let answer = rx.recv_timeout(timeout).unwrap_or_default();
        if answer == "ok\n" && writer.join().unwrap_or(false) {
            // Reap the child when it stops serving, so it never lingers as a zombie.
            std::thread::spawn(move || child.wait());
            return Ok(());
        }
        let _ = child.kill();
        std::thread::spawn(move || child.wait());
        Err(refusal(&answer, text.len()))
    }

    /// The reason of a serving child that did not confirm: its `too-large MAX` line, or
    /// no answer in time.
    fn refusal(answer: &str, len: usize) -> String {
        match answer
            .strip_prefix(TOO_LARGE)
            .and_then(|m| m.trim().parse::<usize>().ok())
        {
            Some(max) => format!(
                "{} is over the {} the X server takes in one request (its clipboard has no larger transfers here)",
                crate::util::human::human_bytes(len as u64),
                crate::util::human::human_bytes(max as u64)
            ),
            None => "the clipboard did not confirm in time".into(),
        }
    }

    /// The serving child's answer for a text the X server cannot take in one request
    /// (arboard serves a selection in one `ChangeProperty`, without the INCR protocol):
    /// `too-large MAX\n`, MAX in bytes.
    const TOO_LARGE: &str = "too-large ";

    /// The most bytes one request to the display's X server may carry (its BIG-REQUESTS
    /// limit, 16 MiB on Xorg and Xvfb), less the `ChangeProperty` header; `None` when the
    /// display cannot be reached.
    fn max_property_bytes() -> Option<usize> {
        use x11rb::connection::RequestConnection as _;
        let (conn, _) = x11rb::connect(None).ok()?;
        Some(conn.maximum_request_bytes().saturating_sub(64))
    }

    /// How often the serving child asks the X server who owns the clipboard.
    const WATCH_EVERY: Duration = Duration::from_millis(250);

    /// The owner window of `selection`, `None` when the connection is gone.
    fn owner(conn: &impl x11rb::connection::Connection, selection: u32) -> Option<u32> {
        use x11rb::protocol::xproto::ConnectionExt as _;
        conn.get_selection_owner(selection)
            .ok()?
            .reply()
            .ok()
            .map(|r| r.owner)
    }

    /// Watch the clipboard from a connection of our own, on a thread: exit the process once
    /// the X display closes (arboard's serving thread would wait forever) or another window
    /// owns the clipboard. Called once we own it, so the owner seen first is ours.
    fn watch_selection() {
        use x11rb::protocol::xproto::ConnectionExt as _;
        let Ok((conn, _)) = x11rb::connect(None) else {
            return;
        };
        let Some(clipboard) = conn
            .intern_atom(false, b"CLIPBOARD")
            .ok()
            .and_then(|c| c.reply().ok())
            .map(|r| r.atom)
        else {
            return;
        };
        let Some(ours) = owner(&conn, clipboard) else {
            return;
        };
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(WATCH_EVERY);
                if owner(&conn, clipboard) != Some(ours) {
                    std::process::exit(0);
                }
            }
        });
    }

    /// Body of [`super::serve_main`].
    pub(super) fn serve() -> i32 {
        let mut text = String::new();
        if std::io::stdin().read_to_string(&mut text).is_err() {
            return 2;
        }
        if let Some(max) = max_property_bytes().filter(|m| text.len() > *m) {
            let mut out = std::io::stdout();
            let _ = out
                .write_all(format!("{TOO_LARGE}{max}\n").as_bytes())
                .and_then(|()| out.flush());
            return 3;
        }
        let Ok(mut cb) = arboard::Clipboard::new() else {
            return 1;
        };
        if cb.set_text(text.as_str()).is_err() {
            return 1;
        }
        // Reading back asks the X server who owns the selection: our own data comes back only
        // if we really own it.
        if cb.get_text().ok().as_deref() != Some(text.as_str()) {
            return 1;
        }
        let mut out = std::io::stdout();
        if out.write_all(b"ok\n").and_then(|()| out.flush()).is_err() {
            return 1;
        }
        watch_selection();
        // Re-assert the same content and serve it until another program owns the clipboard.
        match cb.set().wait().text(text) {
            Ok(()) => 0,
            Err(_) => 1,
        }
    }
}

/// Put `text` on the system clipboard; `serve_exe` is the binary that serves it on X11.
/// Errors: a one-line reason (no display, arboard failure, no confirmation in `timeout`).
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "android", target_os = "emscripten"))
))]
pub(crate) fn copy(
    text: &str,
    serve_exe: Option<&std::path::Path>,
    timeout: Duration,
) -> Result<(), String> {
    if !x11::display_present() {
        return Err("no DISPLAY or WAYLAND_DISPLAY".into());
    }
    let exe = match serve_exe {
        Some(p) => p.to_path_buf(),
        None => std::env::current_exe().map_err(|e| format!("cannot find our executable: {e}"))?,
    };
    x11::copy(text, &exe, timeout)
}

/// Put `text` on the system clipboard (the platform keeps it after we exit).
#[cfg(not(all(
    unix,
    not(any(target_os = "macos", target_os = "android", target_os = "emscripten"))
)))]
pub(crate) fn copy(
    text: &str,
    _serve_exe: Option<&std::path::Path>,
    _timeout: Duration,
) -> Result<(), String> {
    arboard::Clipboard::new()
        .and_then(|mut cb| cb.set_text(text))
        .map_err(|e| e.to_string())
}

/// Entry point of the hidden `skillnav __clipboard-serve` child: read the text from stdin,
/// take the clipboard, write `ok\n` to stdout once it owns it, and keep serving until another
/// program takes ownership or the X display closes (then it exits 0). Returns the process exit code: 0 after serving, 1 when the
/// clipboard could not be taken (nothing is written to stdout then), 2 when stdin was not
/// UTF-8 text, 3 when the text is larger than the X server takes in one request (stdout
/// then says `too-large MAX`). On platforms whose clipboard outlives the process it sets the text and
/// confirms at once.
pub fn serve_main() -> i32 {
    #[cfg(all(
        unix,
        not(any(target_os = "macos", target_os = "android", target_os = "emscripten"))
    ))]
    {
        x11::serve()
    }
    #[cfg(not(all(
        unix,
        not(any(target_os = "macos", target_os = "android", target_os = "emscripten"))
    )))]
    {
        use std::io::{Read, Write};
        let mut text = String::new();
        if std::io::stdin().read_to_string(&mut text).is_err() {
            return 2;
        }
        if arboard::Clipboard::new()
            .and_then(|mut cb| cb.set_text(text))
            .is_err()
        {
            return 1;
        }
        let mut out = std::io::stdout();
        i32::from(out.write_all(b"ok\n").and_then(|()| out.flush()).is_err())
    }
}

#[cfg(test)]
#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "android", target_os = "emscripten"))
))]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};
    use std::time::{Duration, Instant};

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// The parent's side of the serve protocol, with stand-in children (no X server needed).
    #[test]
    fn serve_protocol_needs_ok_within_the_timeout() {
        let dir = tempfile::tempdir().expect("tempdir");
        let got = dir.path().join("got.txt");
        let confirms = script(
            dir.path(),
            "confirms",
            &format!("cat > '{}'; echo ok; sleep 1", got.display()),
        );
        let refuses = script(dir.path(), "refuses", "cat > /dev/null; exit 1");
        let says_no = script(dir.path(), "says-no", "cat > /dev/null; echo no");
        let hangs = script(dir.path(), "hangs", "exec sleep 30");
        let t = Duration::from_millis(1500);
        let text = "brief ü\n".repeat(20_000);

        assert_eq!(super::x11::copy(&text, &confirms, t), Ok(()));
        assert_eq!(
            std::fs::read_to_string(&got).expect("child got the text"),
            text
        );
        assert!(super::x11::copy("x", &refuses, t).is_err());
        assert!(super::x11::copy("x", &says_no, t).is_err());
        assert!(super::x11::copy("x", Path::new("/nonexistent/skillnav"), t).is_err());

        let start = Instant::now();
        let hung = super::x11::copy("x", &hangs, Duration::from_millis(300));
        assert_eq!(
            hung,
            Err("the clipboard did not confirm in time".to_string())
        );
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "took {:?}",
            start.elapsed()
        );
    }
}
