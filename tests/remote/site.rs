//! An llms.txt URL: the index and its same-site linked pages, revalidated on the second run,
//! usable offline once fetched.

use super::{cache_dir, entries, ok, run, serve, site_routes};
use crate::support::http::Reply;

/// Every node id of a `tree --json` document.
pub fn ids(tree_json: &str) -> Vec<String> {
    fn walk(v: &serde_json::Value, out: &mut Vec<String>) {
        if let Some(id) = v["id"].as_str() {
            out.push(id.to_string());
        }
        for c in v["children"].as_array().into_iter().flatten() {
            walk(c, out);
        }
    }
    let v: serde_json::Value =
        serde_json::from_str(tree_json).unwrap_or_else(|e| panic!("not JSON: {e}"));
    let mut out = Vec::new();
    for r in v["roots"].as_array().into_iter().flatten() {
        walk(r, &mut out);
    }
    out
}

#[test]
fn an_llms_txt_url_opens_with_its_linked_pages_and_the_same_ids_on_the_second_run() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let url = format!("{}/llms.txt", server.base);
    let label = server.base.trim_start_matches("http://").to_string();
    let first = run(&cache, &server.base, &["tree", &url, "--json"]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(
        stderr.contains("3 linked pages: 2 fetched, 0 unchanged, 1 failed"),
        "{stderr}"
    );
    assert!(
        stderr.contains("docs/missing.md: not found (404)"),
        "{stderr}"
    );
    let tree = String::from_utf8_lossy(&first.stdout).into_owned();
    let all = ids(&tree);
    for want in [
        format!("{label}/llms.txt"),
        format!("{label}/docs/app.md#application/error-handling"),
        format!("{label}/docs/routing.md#routing/wildcards"),
    ] {
        assert!(all.contains(&want), "{want} not in {all:?}");
    }
    // The page on another site is a link, never fetched.
    assert!(!server.requests().iter().any(|r| r.contains("other.md")));

    let hits = ok(
        &cache,
        &server.base,
        &[
            "search",
            "how do I turn a panic into a 500 page for the client",
            &url,
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&hits).unwrap_or_default();
    assert_eq!(
        v["hits"][0]["id"].as_str(),
        Some(format!("{label}/docs/app.md#application/error-handling").as_str()),
        "{hits}"
    );
    let brief = ok(
        &cache,
        &server.base,
        &[
            "brief",
            &url,
            "--query",
            "serve every file below a static folder",
            "--max-tokens",
            "2000",
        ],
    );
    assert!(brief.contains("matches the rest of the path"), "{brief}");

    // Second run: revalidated (304), same tree byte for byte.
    let second = ok(&cache, &server.base, &["tree", &url, "--json"]);
    assert_eq!(second, tree);
    let log = server.requests();
    for want in [
        "GET /llms.txt (conditional)",
        "GET /docs/app.md (conditional)",
    ] {
        assert!(log.iter().any(|r| r == want), "{want} not in {log:?}");
    }

    // The server is gone: --offline uses the cache; without it, the cache stands in and says so.
    server.stop();
    let offline = ok(&cache, &server.base, &["tree", "--offline", &url, "--json"]);
    assert_eq!(offline, tree);
    let fallback = run(&cache, &server.base, &["tree", &url, "--json"]);
    assert!(fallback.status.success());
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), tree);
    let note = String::from_utf8_lossy(&fallback.stderr);
    assert!(note.contains("used the cached copy from"), "{note}");
    assert!(note.contains("could not fetch it: "), "{note}");
    assert_eq!(entries(&cache).len(), 1, "{:?}", entries(&cache));
}

#[test]
fn no_follow_keeps_to_the_index_file() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let url = format!("{}/llms.txt", server.base);
    let tree = ok(
        &cache,
        &server.base,
        &["tree", "--no-follow", &url, "--json"],
    );
    assert!(
        !ids(&tree).iter().any(|i| i.contains("docs/app.md")),
        "{tree}"
    );
    assert_eq!(server.requests(), vec!["GET /llms.txt".to_string()]);
}

#[test]
fn offline_without_a_cached_copy_says_to_fetch_it_once() {
    let (_t, cache) = cache_dir();
    let out = run(
        &cache,
        "http://127.0.0.1:9",
        &["tree", "--offline", "http://127.0.0.1:9/llms.txt"],
    );
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not in the cache (--offline)"), "{err}");
    assert!(entries(&cache).is_empty());
}

#[test]
fn loopback_is_reached_directly_even_with_a_proxy_set() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let out = crate::support::child::skillnav_command()
        .args(["tree", "--no-follow", &format!("{}/llms.txt", server.base)])
        .env("XDG_CACHE_HOME", &cache)
        .env("HTTP_PROXY", "http://192.0.2.1:3128")
        .env("http_proxy", "http://192.0.2.1:3128")
        .env("ALL_PROXY", "http://192.0.2.1:3128")
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.requests(), vec!["GET /llms.txt".to_string()]);
}

#[cfg(feature = "mcp")]
#[test]
fn mcp_answers_on_the_index_and_finds_the_linked_pages_once_they_land() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let url = format!("{}/llms.txt", server.base);
    let label = server.base.trim_start_matches("http://").to_string();
    let mut rpc = crate::mcp::rpc::Rpc::ready_with_env(
        [url.as_str()],
        &[("XDG_CACHE_HOME", cache.as_os_str())],
    );
    let want = format!("{label}/docs/routing.md#routing/wildcards");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let found = loop {
        let query = serde_json::json!({"query": "a trailing star matches the rest of the path"});
        let answer = rpc.tool_text("search", &query);
        if answer.contains(&want) || std::time::Instant::now() > deadline {
            break answer;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    rpc.finish();
    assert!(found.contains(&want), "{found}");
}

#[test]
fn links_resolve_against_where_the_index_redirected_and_dropped_pages_go() {
    let dir = crate::support::fs::fixture_path("remote/site");
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap_or_default();
    let index = b"# Moved\n\n## Docs\n\n- [App](docs/app.md)\n- [Routing](docs/routing.md)\n- [Again](docs/app.md?v=2)\n";
    let routes = std::collections::HashMap::from([
        (
            "/llms.txt".to_string(),
            Reply::Redirect("/v2/llms.txt".into()),
        ),
        ("/v2/llms.txt".to_string(), Reply::File(index.to_vec())),
        (
            "/v2/docs/app.md".to_string(),
            Reply::File(read("docs/app.md")),
        ),
        (
            "/v2/docs/routing.md".to_string(),
            Reply::File(read("docs/routing.md")),
        ),
    ]);
    let server = serve(routes);
    let (_t, cache) = cache_dir();
    let url = format!("{}/llms.txt", server.base);
    let label = server.base.trim_start_matches("http://").to_string();
    let first = run(&cache, &server.base, &["tree", &url, "--json"]);
    let err = String::from_utf8_lossy(&first.stderr);
    // `docs/app.md?v=2` maps to the file of `docs/app.md`: the first URL keeps it.
    assert!(
        err.contains("2 linked pages: 2 fetched, 0 unchanged"),
        "{err}"
    );
    let all = ids(&String::from_utf8_lossy(&first.stdout));
    assert!(all.contains(&format!("{label}/v2/docs/app.md")), "{all:?}");
    assert!(!server.requests().iter().any(|r| r.contains("?v=2")));

    // The index stops linking routing.md: its mirrored copy goes on the next run.
    server.set(
        "/v2/llms.txt",
        Some(Reply::File(
            b"# Moved\n\n## Docs\n\n- [App](docs/app.md)\n".to_vec(),
        )),
    );
    let second = run(&cache, &server.base, &["tree", &url, "--json"]);
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        err.contains("1 linked pages: 0 fetched, 1 unchanged, 1 no longer linked, removed"),
        "{err}"
    );
    let all = ids(&String::from_utf8_lossy(&second.stdout));
    assert!(!all.iter().any(|i| i.contains("routing.md")), "{all:?}");
}

#[test]
fn fm_get_and_render_read_a_skill_md_by_url() {
    let skill = crate::support::fs::fixture_path("formats/skills/theme-factory/SKILL.md");
    let bytes = std::fs::read(skill).unwrap_or_default();
    let server = serve(std::collections::HashMap::from([(
        "/skills/theme-factory/SKILL.md".to_string(),
        Reply::File(bytes),
    )]));
    let (_t, cache) = cache_dir();
    let url = format!("{}/skills/theme-factory/SKILL.md", server.base);
    assert_eq!(
        ok(&cache, &server.base, &["fm", "get", &url, "name"]).trim(),
        "theme-factory"
    );
    let rendered = ok(&cache, &server.base, &["render", &url]);
    assert!(rendered.starts_with("# Theme Factory Skill"), "{rendered}");
}

#[test]
fn huge_download_caps_and_timeouts_are_clamped_not_a_crash() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let url = format!("{}/llms.txt", server.base);
    for flag in ["--max-download-mb", "--timeout"] {
        let out = run(
            &cache,
            &server.base,
            &["tree", "--no-follow", flag, "18446744073709551615", &url],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{flag}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Two URLs of one host share its label: the one that sorts first keeps it, the other gets
/// `-2`, in either argument order, so a recipe's ids hold whichever way they are opened; a
/// URL given twice is one root.
#[test]
fn two_urls_of_one_host_get_the_same_labels_in_either_argument_order() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let label = server.base.trim_start_matches("http://").to_string();
    let index = format!("{}/llms.txt", server.base);
    let page = format!("{}/docs/app.md", server.base);
    let roots = |args: &[&str]| -> Vec<(String, String)> {
        let mut argv = vec!["tree"];
        argv.extend_from_slice(args);
        argv.push("--json");
        let v: serde_json::Value =
            serde_json::from_str(&ok(&cache, &server.base, &argv)).unwrap_or_default();
        let mut out: Vec<(String, String)> = v["roots"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                let root = r["id"].as_str().unwrap_or("").to_string();
                let index = format!("{root}/llms.txt");
                let holds_index = r["children"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|c| c["id"].as_str() == Some(index.as_str()));
                (root, if holds_index { "index" } else { "page" }.to_string())
            })
            .collect();
        out.sort();
        out
    };
    let one = roots(&[&index, &page]);
    let other = roots(&[&page, &index, &page]);
    assert_eq!(one, other);
    // `…/docs/app.md` sorts before `…/llms.txt`.
    assert_eq!(
        one,
        [
            (label.clone(), "page".to_string()),
            (format!("{label}-2"), "index".to_string())
        ]
    );
}
