//! Bad input from the network: each gives a clear error, crashes nothing and leaves no
//! partial cache entry; a failed refetch leaves the cached copy as it was.

use std::collections::HashMap;

use super::{cache_dir, entries, ok, run, serve, site_routes};
use crate::support::http::{Reply, gz, tar_gz_of};

/// `tree ARGS…` must fail with `want` in its stderr and leave the cache empty.
fn fails_cleanly(routes: HashMap<String, Reply>, args: &[&str], want: &str) {
    let server = serve(routes);
    let (_t, cache) = cache_dir();
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("BASE", &server.base))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&cache, &server.base, &args);
    let want = want.replace("BASE", &server.base);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(&want), "{args:?}: wanted {want:?} in {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        entries(&cache).is_empty(),
        "{args:?}: {:?}",
        entries(&cache)
    );
}

fn route(path: &str, reply: Reply) -> HashMap<String, Reply> {
    HashMap::from([(path.to_string(), reply)])
}

/// A `.tar.gz` with one raw entry: `name` written into the header as is (so `..` can be
/// planted), a regular file (`link` empty) or a symlink to `link`.
fn raw_tar_gz(name: &str, link: &str) -> Vec<u8> {
    let mut h = tar::Header::new_gnu();
    h.as_old_mut().name[..name.len()].copy_from_slice(name.as_bytes());
    let body: &[u8] = if link.is_empty() { b"# evil\n" } else { b"" };
    if link.is_empty() {
        h.set_entry_type(tar::EntryType::Regular);
    } else {
        h.set_entry_type(tar::EntryType::Symlink);
        h.as_old_mut().linkname[..link.len()].copy_from_slice(link.as_bytes());
    }
    h.set_size(body.len() as u64);
    h.set_mode(0o644);
    h.set_cksum();
    let mut b = tar::Builder::new(Vec::new());
    b.append(&h, body).unwrap_or_else(|e| panic!("append: {e}"));
    gz(&b.into_inner().unwrap_or_else(|e| panic!("tar: {e}")))
}

#[test]
fn a_missing_page_is_a_404_error() {
    fails_cleanly(
        site_routes(),
        &["tree", "BASE/nope/llms.txt"],
        "BASE/nope/llms.txt: not found (404)",
    );
}

#[test]
fn a_redirect_loop_is_named() {
    let routes = HashMap::from([
        ("/a.md".to_string(), Reply::Redirect("/b.md".into())),
        ("/b.md".to_string(), Reply::Redirect("/a.md".into())),
    ]);
    fails_cleanly(routes, &["tree", "BASE/a.md"], "/a.md: redirect loop");
}

#[test]
fn a_server_that_never_answers_times_out() {
    fails_cleanly(
        route("/llms.txt", Reply::Hang),
        &["tree", "--timeout", "1", "BASE/llms.txt"],
        "timed out",
    );
}

#[test]
fn a_body_cut_short_is_an_error() {
    fails_cleanly(
        route(
            "/llms.txt",
            Reply::Truncated(b"# Cut\n\n## Docs\n".to_vec()),
        ),
        &["tree", "BASE/llms.txt"],
        "the response ended after 15 of 30 bytes",
    );
}

#[test]
fn a_two_gigabyte_response_hits_the_download_cap() {
    fails_cleanly(
        route("/llms-full.txt", Reply::Huge),
        &["tree", "BASE/llms-full.txt"],
        "larger than the download cap of 256 MiB",
    );
}

#[test]
fn tls_to_a_plain_http_server_fails_with_its_reason() {
    let server = serve(site_routes());
    let (_t, cache) = cache_dir();
    let url = server.base.replace("http://", "https://") + "/llms.txt";
    let out = run(&cache, &server.base, &["tree", "--timeout", "5", &url]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&url), "{err}");
    assert!(entries(&cache).is_empty());
}

#[test]
fn a_truncated_archive_is_refused_and_the_old_copy_is_kept() {
    let good = tar_gz_of(
        &crate::support::fs::fixture_path("formats/skills"),
        "skills-main",
    );
    let path = "/acme/skills/tar.gz/main";
    fails_cleanly(
        route(path, Reply::File(good[..good.len() / 2].to_vec())),
        &["tree", "github:acme/skills@main"],
        "github:acme/skills@main: bad archive",
    );
    // A cached copy survives a refetch that fails.
    let (_t, cache) = cache_dir();
    let first = serve(route(path, Reply::File(good.clone())));
    let tree = ok(
        &cache,
        &first.base,
        &["tree", "github:acme/skills@main", "--json"],
    );
    drop(first);
    let broken = serve(route(path, Reply::File(good[..good.len() / 2].to_vec())));
    let out = run(
        &cache,
        &broken.base,
        &["tree", "github:acme/skills@main", "--json"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(entries(&cache).len(), 1, "{:?}", entries(&cache));
    assert_eq!(
        ok(
            &cache,
            &broken.base,
            &["tree", "--offline", "github:acme/skills@main", "--json"]
        ),
        tree
    );
}

#[test]
fn archive_entries_leaving_the_folder_are_refused() {
    let path = "/acme/evil/tar.gz/main";
    fails_cleanly(
        route(
            path,
            Reply::File(raw_tar_gz("evil-main/../../escape.md", "")),
        ),
        &["tree", "github:acme/evil@main"],
        "leaves the archive folder",
    );
    fails_cleanly(
        route(
            path,
            Reply::File(raw_tar_gz("evil-main/passwd.md", "../../../etc/passwd")),
        ),
        &["tree", "github:acme/evil@main"],
        "points outside the archive folder",
    );
}

#[test]
fn a_missing_repository_folder_is_named() {
    let good = tar_gz_of(
        &crate::support::fs::fixture_path("formats/skills"),
        "skills-main",
    );
    let server = serve(route("/acme/skills/tar.gz/main", Reply::File(good)));
    let (_t, cache) = cache_dir();
    let out = run(
        &cache,
        &server.base,
        &["tree", "github:acme/skills@main/nope"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("github:acme/skills@main/nope: no such folder in the repository")
    );
}

#[test]
fn non_utf8_pages_load_with_a_placeholder_and_never_crash() {
    let mut bytes = b"# Bytes\n\nBefore \xff\xfe after.\n".to_vec();
    bytes.extend_from_slice(b"\n## Next\n\ntext\n");
    let server = serve(route("/page.md", Reply::File(bytes)));
    let (_t, cache) = cache_dir();
    let tree = ok(
        &cache,
        &server.base,
        &["tree", &format!("{}/page.md", server.base), "--json"],
    );
    assert!(tree.contains("page.md#bytes/next"), "{tree}");
}

#[test]
fn a_server_error_names_its_status() {
    fails_cleanly(
        route("/llms.txt", Reply::Status(503)),
        &["tree", "BASE/llms.txt"],
        "BASE/llms.txt: the server answered 503",
    );
}

#[test]
fn the_tui_reports_a_bad_source_before_it_takes_the_terminal() {
    // No subcommand: the TUI's path. The error comes before the terminal is set up.
    fails_cleanly(
        site_routes(),
        &["BASE/nope.md"],
        "BASE/nope.md: not found (404)",
    );
}
