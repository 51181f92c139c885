//! `skillnav brief --copy` and `skillnav render --copy` copy by the TUI's policy
//! (`skillnav::clipboard::deliver`): detached from every terminal and with no display, the
//! text is saved to a file named with the format's extension and stderr says where, with
//! its size; `-o FILE` writes the same bytes the command prints.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::support::fs::fixture_path;

/// `skillnav ARGS` detached from any terminal (`setsid -w`), with no display, data in
/// `home`; `None` when `setsid` is missing outside CI.
fn detached(args: &[&str], home: &Path) -> Option<Output> {
    if !super::setsid_ready() {
        return None;
    }
    let out = Command::new("setsid")
        .arg("-w")
        .arg(env!("CARGO_BIN_EXE_skillnav"))
        .args(args)
        .env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("XDG_CACHE_HOME", home)
        .env("HOME", home)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("TMUX")
        .env_remove("SSH_TTY")
        .env_remove("SSH_CONNECTION")
        .stdin(Stdio::null())
        .output()
        .expect("run skillnav");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(out)
}

/// The file a `Saved to PATH · …` stderr line names, and its bytes.
fn saved(out: &Output) -> (String, String) {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let line = err
        .lines()
        .find(|l| l.starts_with("Saved to "))
        .unwrap_or_else(|| panic!("no `Saved to` line: {err}"));
    let path = line["Saved to ".len()..]
        .split(" · ")
        .next()
        .expect("path")
        .to_string();
    assert!(line.contains(" tokens (o200k_base)"), "{line}");
    let text = std::fs::read_to_string(&path).expect("saved file");
    (path, text)
}

#[test]
fn render_and_brief_copies_without_a_terminal_or_display_are_saved_with_their_extension() {
    let home = tempfile::tempdir().expect("tempdir");
    let skill = fixture_path("curate").join("render-skill");
    let skill = skill.to_str().expect("utf-8 path");
    let Some(printed) = detached(&["render", skill, "--args", "7 dev"], home.path()) else {
        return;
    };
    let Some(copied) = detached(&["render", skill, "--args", "7 dev", "--copy"], home.path())
    else {
        return;
    };
    assert!(copied.stdout.is_empty(), "a copy prints nothing");
    let (path, text) = saved(&copied);
    assert!(path.ends_with(".md"), "{path}");
    assert_eq!(text.as_bytes(), printed.stdout.as_slice());
    // `-o FILE` writes the printed bytes too.
    let file = home.path().join("rendered.md");
    let file_arg = file.to_str().expect("utf-8 path");
    let Some(written) = detached(
        &["render", skill, "--args", "7 dev", "-o", file_arg],
        home.path(),
    ) else {
        return;
    };
    assert!(written.stdout.is_empty());
    assert_eq!(std::fs::read(&file).expect("written"), printed.stdout);
    // A JSON brief falls back to a `.json` file, as `y` on a JSON brief in the TUI does.
    let docs = fixture_path("curate").join("hono-mini");
    let docs = docs.to_str().expect("utf-8 path");
    let brief = ["brief", docs, "--query", "routing", "--format", "json"];
    let Some(printed) = detached(&brief, home.path()) else {
        return;
    };
    let Some(copied) = detached(&[&brief[..], &["--copy"]].concat(), home.path()) else {
        return;
    };
    let (path, text) = saved(&copied);
    assert!(path.ends_with(".json"), "{path}");
    assert_eq!(text.as_bytes(), printed.stdout.as_slice());
}
