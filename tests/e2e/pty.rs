//! End to end: the real `skillnav` binary in a pseudo-terminal (portable-pty, 120×40),
//! its output parsed by a vt100 screen. Opens a fixture skill, searches, jumps to a hit,
//! selects it and quits; checks the screen at each step, the exit status and that the
//! alternate screen was left (the terminal was restored). Also edits a description in the
//! frontmatter form and saves it, and runs `$EDITOR` (`E`), checking the file on disk.
//!
//! Timeouts come from `SKILLNAV_E2E_TIMEOUT_SECS` (default 30 s, 90 s under `CI`). Nothing
//! here is skipped: a missing PTY fails the test.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

use crate::support::fs::fixture_path;

const ROWS: u16 = 40;
const COLS: u16 = 120;

fn timeout() -> Duration {
    let default = if std::env::var_os("CI").is_some() {
        90
    } else {
        30
    };
    let secs = std::env::var("SKILLNAV_E2E_TIMEOUT_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    Duration::from_secs(secs)
}

fn nonzero(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).unwrap_or(std::num::NonZeroU16::MIN)
}

struct Screen {
    parser: vt100::Parser,
    rx: mpsc::Receiver<Vec<u8>>,
}

impl Screen {
    fn pump(&mut self, wait: Duration) {
        if let Ok(bytes) = self.rx.recv_timeout(wait) {
            self.parser.process(&bytes);
            while let Ok(more) = self.rx.try_recv() {
                self.parser.process(&more);
            }
        }
    }

    fn text(&self) -> String {
        self.parser.screen().contents()
    }

    /// Wait until `pred` holds on the screen text; panics with the screen on timeout.
    #[track_caller]
    fn wait_for(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout();
        loop {
            let text = self.text();
            if pred(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{text}"
            );
            self.pump(Duration::from_millis(50));
        }
    }
}

struct Session {
    screen: Screen,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    _config: tempfile::TempDir,
}

impl Session {
    fn send(&mut self, s: &[u8]) {
        self.writer.write_all(s).expect("write to pty");
        self.writer.flush().expect("flush pty");
    }

    /// Wait for the process to exit, pumping the screen; panics on timeout.
    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + timeout();
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                self.screen.pump(Duration::from_millis(200));
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "skillnav did not exit; screen:\n{}",
                self.screen.text()
            );
            self.screen.pump(Duration::from_millis(50));
        }
    }
}

/// Start the real binary on the hono-mini fixture in a 120×40 pseudo-terminal.
fn start() -> Session {
    let fixture = fixture_path("tui/hono-mini");
    start_on(&fixture, &[])
}

/// Start the real binary on `fixture` with extra environment variables.
fn start_on(fixture: &std::path::Path, env: &[(&str, &std::ffi::OsStr)]) -> Session {
    let config = tempfile::tempdir().expect("temp config dir");
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pseudo-terminal");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_skillnav"));
    cmd.arg(fixture);
    cmd.env("TERM", "xterm-256color");
    cmd.env("XDG_CACHE_HOME", crate::support::child::TEST_CACHE_HOME);
    for (k, v) in env {
        cmd.env(k, v);
    }
    // Keep the user's config and the clipboard out of the test (no `y` is pressed).
    cmd.env("SKILLNAV_CONFIG_DIR", config.path());
    cmd.env_remove("NO_COLOR");
    let child = pair.slave.spawn_command(cmd).expect("spawn skillnav");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    let writer = pair.master.take_writer().expect("pty writer");
    // The master stays open while the reader thread reads (closing it would end the PTY).
    let master = pair.master;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _master = master;
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let screen = Screen {
        parser: vt100::Parser::new(nonzero(ROWS), nonzero(COLS), 0),
        rx,
    };
    Session {
        screen,
        child,
        writer,
        _config: config,
    }
}

#[test]
fn search_jump_select_quit_in_a_real_pty() {
    let mut s = start();

    // 1. The tree appears with sizes, tokens get counted.
    let text = s.screen.wait_for("the tree with token totals", |t| {
        t.contains("◆ hono-mini") && t.contains("Σ20k")
    });
    assert!(
        s.screen.parser.screen().alternate_screen(),
        "runs on the alternate screen"
    );
    assert!(
        text.contains("o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱"),
        "{text}"
    );
    assert!(text.contains("★ hono"), "{text}");

    // 2. `/` + query: results update as we type, both groups shown.
    s.send(b"/");
    s.screen
        .wait_for("the search box", |t| t.contains("Type to search"));
    s.send(b"cors");
    // Wait for the results of `cors` itself: while it is typed, the stale list of `cor`
    // (`Content (BM25) · 25`, "searching…") is on screen for a moment.
    let text = s.screen.wait_for("hits", |t| {
        t.contains(" / cors  2 content · ")
            && t.contains("Content (BM25) · 2 ")
            && t.contains("Titles (fuzzy) ·")
    });
    assert!(text.contains("# CORS Middleware"), "{text}");

    // 3. Enter jumps to the hit in the tree; the preview shows it.
    s.send(b"\r");
    let text = s.screen.wait_for("the tree at the hit", |t| {
        !t.contains("Content (BM25)") && t.contains("▾ ≡ middleware.md")
    });
    assert!(text.contains("## CORS Middleware"), "{text}");

    // 4. Space selects it; the top bar shows the tokens of the brief `y` would copy (984; the
    //    row's 922 is the section as stored, which the brief's Sources line states).
    s.send(b" ");
    let text = s
        .screen
        .wait_for("the selection total", |t| t.contains("sel 1 · 984/20k tok"));
    assert!(text.contains("Selected CORS Middleware"), "{text}");
    assert!(text.contains("✓"), "{text}");

    // 5. `q` quits with status 0 and leaves the alternate screen.
    s.send(b"q");
    let status = s.wait_exit();
    assert!(status.success(), "exit status {status:?}");
    assert!(
        !s.screen.parser.screen().alternate_screen(),
        "alternate screen left on exit"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    let mut s = start();
    s.screen.wait_for("the tree", |t| t.contains("◆ hono-mini"));
    assert!(s.screen.parser.screen().alternate_screen());
    let pid = s.child.process_id().expect("child pid");
    let killed = std::process::Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status()
        .expect("run kill");
    assert!(killed.success());
    let status = s.wait_exit();
    assert_eq!(status.exit_code(), 2, "error exit after a signal");
    assert!(
        !s.screen.parser.screen().alternate_screen(),
        "alternate screen left after SIGTERM"
    );
    assert!(
        s.screen
            .text()
            .contains("skillnav: terminated by signal 15"),
        "{}",
        s.screen.text()
    );
}

/// A temp copy of `tests/fixtures/tui/edit/crlf-skill` (CRLF line endings).
fn crlf_skill() -> (tempfile::TempDir, PathBuf) {
    let src = fixture_path("tui/edit/crlf-skill/SKILL.md");
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("crlf-skill");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::copy(src, dir.join("SKILL.md")).expect("copy fixture");
    (tmp, dir)
}

/// The app on the skill folder `dir`, its form editor open on the description's text area:
/// `e` on the root (it holds one skill) opens the form, `j` selects description.
fn description_area(dir: &std::path::Path) -> Session {
    let mut s = start_on(dir, &[]);
    s.screen
        .wait_for("the tree", |t| t.contains("◆ crlf-skill"));
    s.send(b"e");
    s.screen.wait_for("the form", |t| {
        t.contains("Edit crlf-skill: crlf-skill/SKILL.md · form")
    });
    s.send(b"j\r");
    s.screen.wait_for("the description's text area", |t| {
        t.contains("Esc field list")
    });
    s
}

#[test]
fn text_typed_past_1024_bytes_at_once_arrives_without_another_key() {
    let (_tmp, dir) = crlf_skill();
    let mut s = description_area(&dir);
    // One write of 1,400 bytes: crossterm reads 1,024 at a time, and the rest must not
    // wait in the kernel for the next key.
    s.send(&[b'x'; 1_400]);
    s.screen.wait_for("all 1,400 characters", |t| {
        t.contains("description is 1425 chars; the limit is 1024")
    });
    s.send(b"\x1b");
    s.screen
        .wait_for("the field list", |t| t.contains("Enter edit value"));
    s.send(b"\x1b");
    s.screen
        .wait_for("the discard prompt", |t| t.contains("Discard changes?"));
    s.send(b"\r");
    s.send(b"q");
    assert!(s.wait_exit().success());
}

#[test]
fn form_edit_of_description_is_saved_to_disk() {
    let (_tmp, dir) = crlf_skill();
    let mut s = description_area(&dir);
    // Home, Ctrl-k (delete to the end of the line), the new text; `q` types here.
    s.send(b"\x1b[H\x0b");
    s.send(b"Saved from a quick PTY test");
    s.screen.wait_for("the typed text", |t| {
        t.contains("Saved from a quick PTY test")
    });
    s.send(b"\x13");
    let text = s.screen.wait_for("the diff popup", |t| {
        t.contains("Save? 2 lines removed, 1 added") && t.contains("Enter save  Esc back")
    });
    assert!(text.contains("-4 │   Windows line"), "{text}");
    assert!(text.contains("-5 │   endings here"), "{text}");
    assert!(
        text.contains("+4 │   Saved from a quick PTY test"),
        "{text}"
    );
    s.send(b"y");
    s.screen.wait_for("the saved status", |t| {
        t.contains("Saved crlf-skill: crlf-skill/SKILL.md")
    });
    s.send(b"q");
    let status = s.wait_exit();
    assert!(status.success(), "exit status {status:?}");
    let on_disk = std::fs::read(dir.join("SKILL.md")).expect("read back");
    assert_eq!(
        String::from_utf8_lossy(&on_disk),
        "---\r\nname: crlf-skill\r\ndescription: >-\r\n  Saved from a quick PTY test\r\nlicense: MIT\r\n---\r\nBody line\r\n"
    );
}

#[cfg(unix)]
#[test]
fn external_editor_runs_and_the_file_is_reloaded() {
    use std::os::unix::fs::PermissionsExt;
    let (tmp, dir) = crlf_skill();
    let script = tmp.path().join("append.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nprintf 'Appended by the editor\\r\\n' >> \"$1\"\n",
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut s = start_on(
        &dir,
        &[
            ("EDITOR", script.as_os_str()),
            ("VISUAL", std::ffi::OsStr::new("")),
        ],
    );
    s.screen.wait_for("the tree with sizes", |t| {
        t.contains("◆ crlf-skill") && t.contains("Σ")
    });
    s.send(b"E");
    let text = s.screen.wait_for("the reload after the editor", |t| {
        t.contains("Edited ") && t.contains("reloading")
    });
    assert!(
        s.screen.parser.screen().alternate_screen(),
        "back on the alternate screen: {text}"
    );
    s.send(b"q");
    let status = s.wait_exit();
    assert!(status.success(), "exit status {status:?}");
    let on_disk = std::fs::read_to_string(dir.join("SKILL.md")).expect("read back");
    assert!(
        on_disk.ends_with("Body line\r\nAppended by the editor\r\n"),
        "{on_disk:?}"
    );
}

#[test]
fn a_github_skill_opens_in_the_tui_and_its_frontmatter_is_read_only() {
    let gz = crate::support::http::tar_gz_of(&fixture_path("formats/skills"), "skills-main");
    let server = crate::support::http::Server::start(std::collections::HashMap::from([(
        "/acme/skills/tar.gz/main".to_string(),
        crate::support::http::Reply::File(gz),
    )]));
    let cache = tempfile::tempdir().expect("temp cache dir");
    let base = std::ffi::OsString::from(&server.base);
    let mut s = start_on(
        std::path::Path::new("github:acme/skills@main/theme-factory"),
        &[
            ("XDG_CACHE_HOME", cache.path().as_os_str()),
            ("SKILLNAV_GITHUB_ARCHIVE_BASE", &base),
        ],
    );
    s.screen.wait_for("the remote skill", |t| {
        t.contains("◆ github:acme/skills@main/theme") && t.contains("★ theme-factory")
    });
    s.send(b"j");
    s.send(b"e");
    let text = s.screen.wait_for("the read-only refusal", |t| {
        t.contains("read-only: a cached copy of github:acme/skills@main")
    });
    assert!(!text.contains("Save"), "no editor form opens: {text}");
    s.send(b"q");
    assert!(s.wait_exit().success());
}

#[test]
fn an_llms_txt_url_shows_its_index_then_fills_in_the_linked_pages() {
    let dir = fixture_path("remote/site");
    let routes = ["llms.txt", "docs/app.md", "docs/routing.md"]
        .iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(f)).expect("fixture page");
            (format!("/{f}"), crate::support::http::Reply::File(bytes))
        })
        .collect();
    let server = crate::support::http::Server::start(routes);
    let cache = tempfile::tempdir().expect("temp cache dir");
    let url = format!("{}/llms.txt", server.base);
    let mut s = start_on(
        std::path::Path::new(&url),
        &[("XDG_CACHE_HOME", cache.path().as_os_str())],
    );
    let text = s.screen.wait_for("the linked pages, filled in", |t| {
        t.contains("▪ docs") && t.contains("3 linked pages: 2 fetched")
    });
    assert!(text.contains("≡ llms.txt"), "{text}");
    s.send(b"q");
    assert!(s.wait_exit().success());
}

/// Every file and folder under `p` dated an hour back, so none is "racy" (modified within
/// 2 s of a load) and a persisted index of them is trusted on the next start.
fn backdate(p: &std::path::Path) {
    let past = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::open(p)
        .and_then(|f| f.set_modified(past))
        .unwrap_or_else(|e| panic!("backdate {p:?}: {e}"));
    if p.is_dir() {
        for e in std::fs::read_dir(p).expect("read_dir") {
            backdate(&e.expect("entry").path());
        }
    }
}

/// The persisted index files under `cache` with their modification times (none while one
/// is still being written).
fn saved_indexes(cache: &std::path::Path) -> Option<Vec<(PathBuf, std::time::SystemTime)>> {
    let Ok(rd) = std::fs::read_dir(cache.join("skillnav/index")) else {
        return Some(Vec::new());
    };
    let mut files = Vec::new();
    for e in rd.map(|e| e.expect("entry")) {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(".partial-") {
            return None;
        }
        files.push((
            e.path(),
            e.metadata().and_then(|m| m.modified()).expect("mtime"),
        ));
    }
    Some(files)
}

/// Start the TUI on `root` with the cache in `cache`, search `query`, wait until `hits`
/// shows and an index file is on disk, then quit; the screen after the search.
fn tui_search(root: &std::path::Path, cache: &std::path::Path, query: &str, hits: &str) -> String {
    let mut s = start_on(root, &[("XDG_CACHE_HOME", cache.as_os_str())]);
    s.screen.wait_for("the tree", |t| t.contains("◆ hono-mini"));
    s.send(b"/");
    s.screen
        .wait_for("the search box", |t| t.contains("Type to search"));
    s.send(query.as_bytes());
    let text = s.screen.wait_for("the hits", |t| t.contains(hits));
    let deadline = Instant::now() + timeout();
    while saved_indexes(cache).is_none_or(|f| f.len() != 1) {
        assert!(Instant::now() < deadline, "no index file was written");
        std::thread::sleep(Duration::from_millis(50));
    }
    s.send(b"\x1b");
    s.screen
        .wait_for("the search closed", |t| !t.contains("Content (BM25)"));
    s.send(b"q");
    assert!(s.wait_exit().success());
    text
}

#[test]
fn a_second_tui_start_restores_the_saved_index_and_an_edit_is_loaded_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, cache) = (dir.path().join("hono-mini"), dir.path().join("cache"));
    crate::support::fs::copy_dir(&fixture_path("tui/hono-mini"), &root);
    backdate(&root);
    // Setting the modification time moved the change time to now: wait until it is older
    // than the 2 s a load distrusts.
    std::thread::sleep(Duration::from_millis(2_100));

    // 1. The first start loads the files and writes the index once it is searchable.
    tui_search(&root, &cache, "cors", " / cors  2 content · ");
    let first = saved_indexes(&cache).expect("written");

    // 2. `skillnav search` takes the TUI's file as it is: the front ends share one index.
    let out = crate::support::child::skillnav_command()
        .args(["search", "--json", "cors"])
        .arg(&root)
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .expect("run skillnav search");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["index"]["state"], "reused", "{v}");

    // 3. A second start restores it: the same hits, and nothing is written again.
    tui_search(&root, &cache, "cors", " / cors  2 content · ");
    assert_eq!(saved_indexes(&cache).expect("written"), first);

    // 4. After an edit the start loads the files again, finds the new words and writes
    //    the index anew.
    let page = root.join("references/middleware.md");
    let mut text = std::fs::read_to_string(&page).expect("read");
    text.push_str("\n## Quokka Middleware\n\nThe quokka middleware greets every request.\n");
    std::fs::write(&page, text).expect("write");
    tui_search(&root, &cache, "quokka", " / quokka  1 content · ");
    assert_ne!(saved_indexes(&cache).expect("written"), first);
}
