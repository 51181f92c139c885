//! Build script: the version line `skillnav --version` prints, `0.1.0 (3f2a9c1)` with the
//! commit from `git rev-parse --short HEAD`; outside a git checkout (a crate tarball, no git
//! installed) it is the package version alone. It also writes the count-only BPE tables
//! that `src/tokens/tables.rs` embeds ([`bpe_tables`]).

use std::path::PathBuf;
use std::process::Command;

#[path = "build/bpe_tables.rs"]
mod bpe_tables;

/// Output of `git ARGS` in the package folder, trimmed, when git ran and succeeded.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let commit =
        git(&["rev-parse", "--short", "HEAD"]).filter(|s| s.chars().all(|c| c.is_ascii_hexdigit()));
    let line = match commit {
        Some(c) => format!("{version} ({c})"),
        None => version,
    };
    println!("cargo:rustc-env=SKILLNAV_VERSION={line}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/bpe_tables.rs");
    if let Some(out) = std::env::var_os("OUT_DIR")
        && let Err(e) = bpe_tables::write_all(&PathBuf::from(out))
    {
        eprintln!("BPE tables: {e}");
        std::process::exit(1);
    }
    // Rebuild when HEAD moves: a checkout changes HEAD, a commit the branch's ref. Only
    // files that exist are named (a missing one would rerun this script on every build).
    let mut watch: Vec<PathBuf> = Vec::new();
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        watch.push(PathBuf::from(dir).join("HEAD"));
    }
    if let (Some(common), Some(head_ref)) = (
        git(&["rev-parse", "--git-common-dir"]),
        git(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        watch.push(PathBuf::from(&common).join(head_ref));
        watch.push(PathBuf::from(common).join("packed-refs"));
    }
    for f in watch.into_iter().filter(|f| f.exists()) {
        println!("cargo:rerun-if-changed={}", f.display());
    }
}
