//! `.ci/check-imports.py`, the layering check CI runs (docs/ARCHITECTURE.md "Layers and
//! the dependency rule"), on a small crate written here: it passes the allowed edges and
//! fails a planted `tui/state → tui/effects` or `tui/view → tui/update` import.

use std::path::Path;
use std::process::Command;

use crate::support::fs::{manifest, tempdir, write};

/// A crate with a TUI whose `state` holds a type of `tui/effect.rs` and whose effects use
/// the state: every edge allowed.
fn clean_crate(src: &Path) {
    write(src, "lib.rs", b"pub mod tui;\n");
    write(
        src,
        "tui/mod.rs",
        b"pub mod effect;\npub mod effects;\npub mod state;\npub mod update;\npub mod view;\n",
    );
    write(src, "tui/effect.rs", b"pub enum Effect { Search }\n");
    write(src, "tui/effects/mod.rs", b"pub mod jobs;\n");
    write(
        src,
        "tui/effects/jobs.rs",
        b"use crate::tui::state::app::App;\npub fn run(_: &App) {}\n",
    );
    write(src, "tui/state/mod.rs", b"pub mod app;\n");
    write(
        src,
        "tui/state/app.rs",
        b"use crate::tui::effect::Effect;\npub struct App { pub queue: Vec<Effect> }\n",
    );
    write(
        src,
        "tui/update/mod.rs",
        b"use crate::tui::state::app::App;\npub fn update(_: &mut App) {}\n",
    );
    write(
        src,
        "tui/view/mod.rs",
        b"use crate::tui::state::app::App;\npub fn draw(_: &App) {}\n",
    );
}

/// Exit code and standard output of the check on `src`.
fn check(src: &Path) -> (Option<i32>, String) {
    let out = Command::new("python3")
        .arg(manifest(".ci/check-imports.py"))
        .arg(src)
        .output()
        .unwrap_or_else(|e| panic!("python3: {e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_layering_check_passes_allowed_tui_edges() {
    let tmp = tempdir();
    clean_crate(tmp.path());
    assert_eq!(check(tmp.path()), (Some(0), String::new()));
}

#[test]
fn the_layering_check_fails_a_planted_state_to_effects_import() {
    let tmp = tempdir();
    clean_crate(tmp.path());
    write(
        tmp.path(),
        "tui/state/app.rs",
        b"use crate::tui::effect::Effect;\nuse crate::tui::effects::jobs::run;\npub struct App { pub queue: Vec<Effect> }\n",
    );
    let (code, out) = check(tmp.path());
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("layering: src/tui/state/app.rs:2 -> src/tui/effects/jobs.rs: tui/state imports tui/effects"),
        "{out}"
    );
}

#[test]
fn the_layering_check_fails_a_planted_view_to_update_import() {
    let tmp = tempdir();
    clean_crate(tmp.path());
    write(
        tmp.path(),
        "tui/view/mod.rs",
        b"use crate::tui::state::app::App;\nuse crate::tui::update::update;\npub fn draw(_: &App) {}\n",
    );
    let (code, out) = check(tmp.path());
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("tui/view imports tui/update"), "{out}");
}
