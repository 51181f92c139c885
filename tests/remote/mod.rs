//! Remote sources (docs/REMOTE.md) through the real binary, against a loopback server: an
//! llms.txt with linked pages and a GitHub-shaped archive open, search, brief, export and serve
//! over MCP as local copies do, with the same ids on the second run and offline; every bad
//! input gives a clear error and leaves no partial cache entry.

mod bad_input;
mod github;
mod site;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::http::{Reply, Server};

/// `skillnav ARGS` with its cache under `cache` and GitHub archives served from `server`.
pub fn run(cache: &Path, server: &str, args: &[&str]) -> Output {
    crate::support::child::skillnav_command()
        .args(args)
        .env("XDG_CACHE_HOME", cache)
        .env("SKILLNAV_GITHUB_ARCHIVE_BASE", server)
        .env("SKILLNAV_GITHUB_GIT_BASE", "file:///nonexistent")
        .env_remove("HTTP_PROXY")
        .env_remove("HTTPS_PROXY")
        .env_remove("ALL_PROXY")
        .env_remove("DISPLAY")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
}

/// [`run`], which must succeed; its stdout.
pub fn ok(cache: &Path, server: &str, args: &[&str]) -> String {
    let out = run(cache, server, args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The entries of the remote cache under `cache`: folder names, temporary ones included.
pub fn entries(cache: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cache.join("skillnav/remote"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The fixture site: `/llms.txt` and the pages it links to (not `/docs/missing.md`).
pub fn site_routes() -> HashMap<String, Reply> {
    let dir = crate::support::fs::fixture_path("remote/site");
    ["llms.txt", "docs/app.md", "docs/routing.md"]
        .iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
            (format!("/{f}"), Reply::File(bytes))
        })
        .collect()
}

/// A server holding `routes`.
pub fn serve(routes: HashMap<String, Reply>) -> Server {
    Server::start(routes)
}

/// A fresh cache folder.
pub fn cache_dir() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap_or_else(|e| panic!("tempdir: {e}"));
    let p = t.path().join("cache");
    (t, p)
}
