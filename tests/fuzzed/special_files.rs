//! A fifo named `README.md` in a doc tree blocked every command forever (the folder probe
//! opened it for the format detectors), and so did a fifo given as PATH; a `README.md`
//! linked to `/dev/zero` was read whole (8 GB in 15 s). Only regular files are read now,
//! at most 16 MiB of them (docs/FORMATS.md §8). Each run goes through a child process or a
//! thread with a deadline, so a regression fails the test instead of hanging the suite.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::child::skillnav_command;
use crate::support::fs::write;
use crate::support::tui::{screen, tui_over};

/// Generous: a run that blocks never ends, a fixed one takes well under a second.
const DEADLINE: Duration = Duration::from_secs(60);

/// A doc tree `docs/` with `guide.md` and a `README.md` made by `make_readme`.
fn tree_with(make_readme: impl FnOnce(&Path)) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let docs = tmp.path().join("docs");
    write(&docs, "guide.md", b"# Guide\n\nHow to start.\n");
    make_readme(&docs.join("README.md"));
    (tmp, docs)
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("run mkfifo");
    assert!(ok.success(), "mkfifo {}", path.display());
}

fn fifo_tree() -> (tempfile::TempDir, PathBuf) {
    tree_with(mkfifo)
}

fn zero_tree() -> (tempfile::TempDir, PathBuf) {
    tree_with(|p| std::os::unix::fs::symlink("/dev/zero", p).expect("symlink"))
}

/// `skillnav ARGS` in `home`, killed (and the test failed) past [`DEADLINE`].
fn run_within(args: &[&str], home: &Path) -> Output {
    let mut child = skillnav_command()
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn skillnav");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("skillnav {args:?} still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `f` on a thread, failed past [`DEADLINE`] (a blocked load cannot be killed; the thread
/// is left behind and the test fails).
fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(DEADLINE)
        .expect("still running past the deadline")
}

/// `tree`, `search start` and `validate` of `docs`, each within the deadline.
fn three_commands(docs: &Path, home: &Path) -> [String; 3] {
    let d = docs.to_str().expect("utf-8 path");
    [
        vec!["tree", d],
        vec!["search", "start", d],
        vec!["validate", d],
    ]
    .map(|args| {
        let out = run_within(&args, home);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        text(&out.stdout)
    })
}

const SEARCH_OUT: &str = "Content (BM25): 1 hits\n     0.288  Guide  docs/guide.md#guide:1\n\
                          Titles (fuzzy): 0 hits\n";
const VALIDATE_OUT: &str = "0 skills checked (spec): 0 errors, 0 warnings\n";

#[test]
fn a_fifo_named_readme_in_a_doc_tree_is_left_out_not_waited_for() {
    let (tmp, docs) = fifo_tree();
    let [tree, search, validate] = three_commands(&docs, tmp.path());
    assert_eq!(
        tree,
        "◆ docs  23 B · Σ7 tok  [warnings]\n  ! left out on purpose: 1 socket, fifo or device\n  \
         · guide.md  23 B · Σ7 tok\n    # Guide  23 B · 7 tok\ntokens: o200k_base\n"
    );
    assert_eq!(search, SEARCH_OUT);
    assert_eq!(validate, VALIDATE_OUT);
}

#[test]
fn a_readme_linked_to_dev_zero_is_not_read() {
    let (tmp, docs) = zero_tree();
    let [tree, search, validate] = three_commands(&docs, tmp.path());
    assert_eq!(
        tree,
        "◆ docs  23 B · Σ7 tok\n  · guide.md  23 B · Σ7 tok\n    # Guide  23 B · 7 tok\n  \
         · README.md  0 B · 0 tok  [external-link, warnings]\n    ! README.md: symbolic link \
         leaves the opened root (to /dev/zero); not read without --follow-links\n\
         tokens: o200k_base\n"
    );
    assert_eq!(search, SEARCH_OUT);
    assert_eq!(validate, VALIDATE_OUT);
}

#[test]
fn a_fifo_or_a_device_given_as_path_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let pipe = tmp.path().join("pipe");
    mkfifo(&pipe);
    for path in [pipe.to_str().expect("utf-8"), "/dev/zero"] {
        let out = run_within(&["tree", path], tmp.path());
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(text(&out.stdout), "");
        assert_eq!(
            text(&out.stderr),
            format!("skillnav: {path}: not a regular file or folder (a fifo, socket or device)\n")
        );
    }
    // A root opened without the CLI's check carries a warning instead of blocking.
    let want = format!(
        "cannot open {}: not a regular file or folder (a fifo, socket or device)",
        pipe.display()
    );
    let c = within(move || {
        let c = crate::support::corpus::load_as(&pipe, "p");
        drop(tmp);
        c
    });
    let root = c.roots[0];
    assert_eq!(
        c.node(root)
            .warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [want]
    );
}

#[test]
fn the_tui_opens_a_doc_tree_with_a_fifo_readme() {
    let (tmp, docs) = fifo_tree();
    let shown = within(move || {
        let app = tui_over(&docs, "docs", 60, 8);
        let s = screen(&app);
        drop(tmp);
        s
    });
    assert_eq!(
        shown,
        " / search                o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ \n  \
         ▾ ◆ docs      !     Σ7 │docs       23B · 7 tok · ! 1  83% \n      \
         ≡ guide.md       7 │Contents (1)                      \n                         \
         │≡ guide.md  23B · 7 tok           \n                         \
         │                                  \n                         \
         │Warnings (1)                      \n                         \
         │! left out on purpose: 1 socket,  \n \
         ! 1 warning (? lists them)                                 "
    );
}
