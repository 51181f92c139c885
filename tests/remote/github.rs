//! A GitHub repository: one archive of the ref, opened at a folder, with ids that start with
//! `github:owner/repo@ref`, read-only, served over MCP, exported to a local skill.

use std::collections::HashMap;
use std::process::Stdio;

use serde_json::json;

use super::site::ids;
use super::{cache_dir, entries, ok, run, serve};
use crate::support::fs::fixture_path;
use crate::support::http::{Reply, Server, tar_gz_of};

const REPO: &str = "github:acme/skills@main";

fn repo_server() -> Server {
    let gz = tar_gz_of(&fixture_path("formats/skills"), "skills-main");
    serve(HashMap::from([(
        "/acme/skills/tar.gz/main".to_string(),
        Reply::File(gz),
    )]))
}

#[test]
fn a_github_folder_opens_with_stable_ids_and_is_revalidated_by_etag() {
    let server = repo_server();
    let (_t, cache) = cache_dir();
    let src = format!("{REPO}/theme-factory");
    let tree = ok(&cache, &server.base, &["tree", &src, "--json"]);
    let all = ids(&tree);
    assert_eq!(all[0], src);
    assert!(all.contains(&format!("{src}/SKILL.md")), "{all:?}");
    assert!(
        all.iter()
            .any(|i| i.starts_with(&format!("{src}/themes/ocean-depths.md#")))
    );
    let again = ok(&cache, &server.base, &["tree", &src, "--json"]);
    assert_eq!(again, tree);
    assert_eq!(
        server.requests(),
        vec![
            "GET /acme/skills/tar.gz/main".to_string(),
            "GET /acme/skills/tar.gz/main (conditional)".to_string()
        ]
    );
    // Two folders of one repository share one archive.
    let whole = ok(
        &cache,
        &server.base,
        &["tree", REPO, "--json", "--depth", "1"],
    );
    assert!(
        ids(&whole).contains(&format!("{REPO}/brand-guidelines")),
        "{whole}"
    );
    assert_eq!(entries(&cache).len(), 1);
    let v = run(&cache, &server.base, &["validate", &src]);
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
    let name = ok(
        &cache,
        &server.base,
        &["fm", "get", &format!("{src}/SKILL.md"), "name"],
    );
    assert_eq!(name.trim(), "theme-factory");
    let listed = ok(&cache, &server.base, &["cache", "list"]);
    assert!(listed.starts_with("github:acme/skills@main  "), "{listed}");
    assert!(
        listed.ends_with("1 source cached, ") || listed.contains("1 source cached"),
        "{listed}"
    );
    assert_eq!(
        ok(&cache, &server.base, &["cache", "clear"]).trim(),
        "removed 1 cached source"
    );
    assert!(entries(&cache).is_empty());
}

#[test]
fn a_remote_skill_is_read_only_and_exports_to_a_local_copy() {
    let server = repo_server();
    let (t, cache) = cache_dir();
    let src = format!("{REPO}/theme-factory");
    let file = format!("{src}/SKILL.md");
    let refused = run(
        &cache,
        &server.base,
        &["fm", "set", &file, "description", "x"],
    );
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("remote sources are read-only"), "{err}");
    // The cached file itself is refused too, and left as it was.
    ok(&cache, &server.base, &["tree", &src]);
    let cached = entry_tree(&cache).join("theme-factory/SKILL.md");
    let before = std::fs::read(&cached).unwrap_or_default();
    let direct = run(
        &cache,
        &server.base,
        &[
            "fm",
            "set",
            cached.to_str().unwrap_or(""),
            "description",
            "x",
        ],
    );
    assert!(!direct.status.success());
    assert!(
        String::from_utf8_lossy(&direct.stderr)
            .contains("read-only: a cached copy of github:acme/skills@main")
    );
    assert_eq!(std::fs::read(&cached).unwrap_or_default(), before);
    let doctree = run(&cache, &server.base, &["doctree", "collapse", &src]);
    assert!(String::from_utf8_lossy(&doctree.stderr).contains("read-only"));

    // Export a selection: a local skill that validates.
    let section = ids(&ok(&cache, &server.base, &["tree", &src, "--json"]))
        .into_iter()
        .find(|i| i.contains("ocean-depths.md#"))
        .unwrap_or_default();
    let recipe = t.path().join("kit.json");
    ok(
        &cache,
        &server.base,
        &[
            "recipe",
            "save",
            "kit",
            &src,
            "--select",
            &section,
            "--file",
            recipe.to_str().unwrap_or(""),
        ],
    );
    let out_dir = t.path().join("ocean-kit");
    ok(
        &cache,
        &server.base,
        &[
            "export",
            &src,
            "--recipe",
            recipe.to_str().unwrap_or(""),
            "-o",
            out_dir.to_str().unwrap_or(""),
        ],
    );
    let v = run(
        &cache,
        &server.base,
        &["validate", out_dir.to_str().unwrap_or("")],
    );
    assert_eq!(
        v.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&v.stdout)
    );
}

fn entry_tree(cache: &std::path::Path) -> std::path::PathBuf {
    let names = entries(cache);
    cache.join("skillnav/remote").join(&names[0]).join("tree")
}

#[cfg(feature = "mcp")]
#[test]
fn mcp_serves_a_github_folder_with_its_remote_ids() {
    let server = repo_server();
    let (_t, cache) = cache_dir();
    let src = format!("{REPO}/theme-factory");
    let base = std::ffi::OsString::from(&server.base);
    let mut rpc = crate::mcp::rpc::Rpc::ready_with_env(
        [src.as_str()],
        &[
            ("XDG_CACHE_HOME", cache.as_os_str()),
            ("SKILLNAV_GITHUB_ARCHIVE_BASE", &base),
        ],
    );
    let answer = rpc.tool_text("search", &json!({"query": "ocean depths theme colours"}));
    rpc.finish();
    assert!(
        answer.contains(&format!("{src}/themes/ocean-depths.md")),
        "{answer}"
    );
}

/// Every node of a `tree --json` document as `(id, bytes, own_tokens)`, the root label
/// replaced by `label`.
fn sizes(tree_json: &str, from: &str, label: &str) -> Vec<(String, u64, u64)> {
    fn walk(v: &serde_json::Value, out: &mut Vec<(String, u64, u64)>) {
        out.push((
            v["id"].as_str().unwrap_or("").to_string(),
            v["bytes"].as_u64().unwrap_or(0),
            v["own_tokens"].as_u64().unwrap_or(0),
        ));
        for c in v["children"].as_array().into_iter().flatten() {
            walk(c, out);
        }
    }
    let v: serde_json::Value = serde_json::from_str(tree_json).unwrap_or_default();
    let mut out = Vec::new();
    for r in v["roots"].as_array().into_iter().flatten() {
        walk(r, &mut out);
    }
    out.into_iter()
        .map(|(id, b, t)| (id.replacen(from, label, 1), b, t))
        .collect()
}

#[test]
fn a_remote_skill_has_the_sizes_and_tokens_of_its_local_copy() {
    let server = repo_server();
    let (_t, cache) = cache_dir();
    let src = format!("{REPO}/theme-factory");
    let local = fixture_path("formats/skills/theme-factory");
    let remote = ok(&cache, &server.base, &["tree", &src, "--json"]);
    let here = ok(
        &cache,
        &server.base,
        &["tree", local.to_str().unwrap_or(""), "--json"],
    );
    let remote = sizes(&remote, &src, "theme-factory");
    assert!(remote.len() > 10, "{remote:?}");
    assert_eq!(remote, sizes(&here, "theme-factory", "theme-factory"));
}

/// A bare repository `acme/skills.git` under `dir` holding the fixture skills.
fn bare_repo(dir: &std::path::Path) {
    let work = dir.join("work");
    crate::support::fs::copy_dir(&fixture_path("formats/skills"), &work);
    let git = |args: &[&str], at: &std::path::Path| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(at)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
            .output()
            .unwrap_or_else(|e| panic!("git: {e}"));
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q", "-b", "main"], &work);
    git(&["add", "."], &work);
    git(&["commit", "-q", "-m", "skills"], &work);
    std::fs::create_dir_all(dir.join("acme")).unwrap_or_else(|e| panic!("mkdir: {e}"));
    git(&["clone", "-q", "--bare", "work", "acme/skills.git"], dir);
}

#[test]
fn an_unreachable_archive_host_falls_back_to_a_shallow_git_clone() {
    let (t, cache) = cache_dir();
    let repos = t.path().join("repos");
    bare_repo(&repos);
    let out = crate::support::child::skillnav_command()
        .args(["tree", &format!("{REPO}/theme-factory"), "--json"])
        .env("XDG_CACHE_HOME", &cache)
        .env("SKILLNAV_GITHUB_ARCHIVE_BASE", "http://127.0.0.1:9")
        .env(
            "SKILLNAV_GITHUB_GIT_BASE",
            format!("file://{}", repos.display()),
        )
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        ids(&tree).contains(&format!("{REPO}/theme-factory/SKILL.md")),
        "{tree}"
    );
    let tree_dir = cache
        .join("skillnav/remote")
        .join(&entries(&cache)[0])
        .join("tree");
    assert!(
        !tree_dir.join(".git").exists(),
        "the clone's .git folder is removed"
    );
}

#[test]
fn six_cold_opens_of_one_repository_at_once_all_succeed() {
    let server = repo_server();
    let (_t, cache) = cache_dir();
    let children: Vec<_> = (0..6)
        .map(|_| {
            crate::support::child::skillnav_command()
                .args(["tree", REPO, "--depth", "1"])
                .env("XDG_CACHE_HOME", &cache)
                .env("SKILLNAV_GITHUB_ARCHIVE_BASE", &server.base)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"))
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap_or_else(|e| panic!("wait: {e}"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(entries(&cache).len(), 1, "{:?}", entries(&cache));
}

#[test]
fn nothing_is_written_into_a_cached_copy_by_export_or_install_skill() {
    let server = repo_server();
    let (t, cache) = cache_dir();
    let src = format!("{REPO}/theme-factory");
    let section = ids(&ok(&cache, &server.base, &["tree", &src, "--json"]))
        .into_iter()
        .find(|i| i.contains("ocean-depths.md#"))
        .unwrap_or_default();
    let recipe = t.path().join("kit.json");
    let r = recipe.to_str().unwrap_or("");
    ok(
        &cache,
        &server.base,
        &[
            "recipe", "save", "kit", &src, "--select", &section, "--file", r,
        ],
    );
    let inside = entry_tree(&cache).join("theme-factory/kit");
    let i = inside.to_str().unwrap_or("");
    for args in [
        vec!["export", src.as_str(), "--recipe", r, "-o", i],
        vec!["install-skill", i],
    ] {
        let out = run(&cache, &server.base, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("read-only: a cached copy of github:acme/skills@main"),
            "{err}"
        );
        assert!(!inside.exists(), "{args:?} wrote into the cache");
    }
}
