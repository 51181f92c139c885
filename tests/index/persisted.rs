//! The persisted index (docs/DESIGN.md §8 "Persisted index"), through the real binary: a
//! second search on an unchanged tree reads no file, an edit is found after re-reading only
//! the edited file, and a corrupt, foreign-version or unwritable index never fails a search.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::Value;

/// A tree of `n` markdown files (one word each that no other file holds), every file and
/// folder dated an hour back so none is "racy" (modified within 2 s of a load).
fn tree(dir: &Path, n: usize) -> PathBuf {
    let root = dir.join("docs");
    for i in 0..n {
        let sub = root.join(format!("part{}", i % 3));
        std::fs::create_dir_all(&sub).unwrap();
        let text = format!("# Topic {i}\n\nThe word uniqueword{i} lives here.\n");
        std::fs::write(sub.join(format!("page{i}.md")), text).unwrap();
    }
    backdate(&root);
    root
}

/// Date everything under `p` an hour back, then wait until its change time (which setting
/// the modification time moves to now, and which nobody can set back) is older than the
/// 2 s a load distrusts: a load after this call may keep what it read.
fn backdate(p: &Path) {
    backdate_tree(p);
    std::thread::sleep(Duration::from_millis(2_100));
}

fn backdate_tree(p: &Path) {
    let past = SystemTime::now() - Duration::from_secs(3600);
    let f = std::fs::File::open(p).unwrap();
    f.set_modified(past).unwrap();
    if p.is_dir() {
        for e in std::fs::read_dir(p).unwrap() {
            backdate_tree(&e.unwrap().path());
        }
    }
}

/// `search --json QUERY ROOT` with the cache in `cache`: the JSON answer and stderr.
fn search(cache: &Path, root: &Path, query: &str) -> (Value, String) {
    search_with(cache, root, query, &[], &[])
}

fn first_hit(v: &Value) -> &str {
    v["hits"][0]["id"].as_str().unwrap_or("")
}

fn index_files(cache: &Path) -> Vec<PathBuf> {
    let dir = cache.join("skillnav/index");
    std::fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[test]
fn a_second_search_reads_no_file_and_an_edit_rereads_only_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 12));
    let (cold, _) = search(&cache, &root, "uniqueword7");
    assert_eq!(cold["index"]["state"], "built");
    assert_eq!(first_hit(&cold), "docs/part1/page7.md#topic-7");
    let (warm, _) = search(&cache, &root, "uniqueword7");
    assert_eq!(
        warm["index"],
        serde_json::json!({"state": "reused", "files_read": 0})
    );
    assert_eq!(warm["hits"], cold["hits"]);

    let edited = root.join("part2/page5.md");
    std::fs::write(&edited, "# Topic 5\n\nNow it says freshword instead.\n").unwrap();
    let (after, _) = search(&cache, &root, "freshword");
    assert_eq!(
        after["index"],
        serde_json::json!({"state": "updated", "files_read": 1, "files_reused": 11})
    );
    assert_eq!(first_hit(&after), "docs/part2/page5.md#topic-5");
    let (gone, _) = search(&cache, &root, "uniqueword5");
    let ids: Vec<&str> = gone["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["id"].as_str())
        .collect();
    assert!(!ids.contains(&"docs/part2/page5.md#topic-5"), "{gone}");
}

#[test]
fn a_new_file_is_found_on_the_next_search() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 4));
    search(&cache, &root, "uniqueword1");
    std::fs::write(root.join("part0/new.md"), "# New\n\nbrandnewword\n").unwrap();
    let (v, _) = search(&cache, &root, "brandnewword");
    assert_eq!(v["index"]["state"], "updated");
    assert_eq!(first_hit(&v), "docs/part0/new.md#new");
}

#[test]
fn a_corrupt_index_file_is_rebuilt_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 4));
    search(&cache, &root, "uniqueword1");
    let [file] = index_files(&cache).try_into().unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&file, &bytes).unwrap();
    let (v, err) = search(&cache, &root, "uniqueword1");
    assert!(err.contains("is corrupt (checksum mismatch"), "{err}");
    assert!(err.contains("it is rebuilt from the files"), "{err}");
    assert_eq!(v["index"]["state"], "built");
    assert_eq!(first_hit(&v), "docs/part1/page1.md#topic-1");

    std::fs::write(&file, &bytes[..100]).unwrap();
    let (_, err) = search(&cache, &root, "uniqueword1");
    assert!(err.contains("is corrupt (cut short)"), "{err}");
    let (v, err) = search(&cache, &root, "uniqueword1");
    assert_eq!(v["index"]["state"], "reused", "{err}");
}

#[test]
fn an_index_file_of_another_version_is_rebuilt_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 4));
    search(&cache, &root, "uniqueword1");
    let [file] = index_files(&cache).try_into().unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[16] = bytes[16].wrapping_add(1); // the format version
    std::fs::write(&file, &bytes).unwrap();
    let (v, err) = search(&cache, &root, "uniqueword1");
    let want = format!(
        "was written by another version (format {} of",
        skillnav::store::file::VERSION + 1
    );
    assert!(err.contains(&want), "{err}");
    assert_eq!(v["index"]["state"], "built");
    assert_eq!(first_hit(&v), "docs/part1/page1.md#topic-1");
}

#[test]
fn a_cache_folder_that_cannot_be_written_leaves_the_search_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let root = tree(dir.path(), 4);
    // A file where the cache folder should be: nothing can be created below it.
    let cache = dir.path().join("not-a-folder");
    std::fs::write(&cache, "").unwrap();
    let (v, err) = search(&cache, &root, "uniqueword2");
    assert!(err.contains("cannot write the persisted index in"), "{err}");
    assert!(
        err.contains("everything stays in memory, and the next start loads the files again"),
        "{err}"
    );
    assert_eq!(first_hit(&v), "docs/part2/page2.md#topic-2");
}

/// Copy `from` (a folder) to `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn a_reused_index_answers_a_lazytools_bundle_as_the_built_one_did() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("hono-docs");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lazytools/hono-docs"),
        &root,
    );
    backdate(&root);
    let cache = dir.path().join("cache");
    let (built, _) = search(&cache, &root, "middleware for cors headers");
    let (reused, _) = search(&cache, &root, "middleware for cors headers");
    assert_eq!(
        (
            built["index"]["state"].as_str(),
            reused["index"]["state"].as_str()
        ),
        (Some("built"), Some("reused"))
    );
    assert!(!built["hits"].as_array().unwrap().is_empty());
    assert_eq!(reused["hits"], built["hits"]);
}

#[test]
fn cache_clear_removes_the_persisted_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 4));
    search(&cache, &root, "uniqueword1");
    let run = |args: &[&str]| {
        let mut cmd = crate::support::child::skillnav_command();
        cmd.env("XDG_CACHE_HOME", &cache).args(args);
        String::from_utf8(crate::support::child::succeeded(&mut cmd).stdout).unwrap()
    };
    let listed = run(&["cache", "list"]);
    assert!(listed.contains("\n1 persisted index file, "), "{listed}");
    let v: Value = serde_json::from_str(&run(&["cache", "list", "--json"])).unwrap();
    assert_eq!(v["indexes"]["files"], 1);
    assert_eq!(
        run(&["cache", "clear"]).trim(),
        "removed 0 cached sources and 1 persisted index file"
    );
    assert!(index_files(&cache).is_empty());
    let (again, _) = search(&cache, &root, "uniqueword1");
    assert_eq!(again["index"]["state"], "built");
}

/// `search --json QUERY ROOT` with the cache in `cache`, extra environment variables and
/// flags: the JSON answer and stderr.
fn search_with(
    cache: &Path,
    root: &Path,
    query: &str,
    env: &[(&str, &Path)],
    flags: &[&str],
) -> (Value, String) {
    let mut cmd = crate::support::child::skillnav_command();
    cmd.env("XDG_CACHE_HOME", cache);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.args(["search", "--json", "--semantic", "off"])
        .args(flags)
        .arg(query)
        .arg(root);
    let out = crate::support::child::succeeded(&mut cmd);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    (v, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// [`search_with`]'s JSON answer.
fn search_env(
    cache: &Path,
    root: &Path,
    query: &str,
    env: &[(&str, &Path)],
    flags: &[&str],
) -> Value {
    search_with(cache, root, query, env, flags).0
}

fn ids(v: &Value) -> Vec<String> {
    v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["id"].as_str().map(str::to_string))
        .collect()
}

/// A root `docs` under `dir/repo` whose `.gitignore` leaves out `part1/`, outside any
/// repository until a test makes one.
fn ignoring_tree(dir: &Path) -> PathBuf {
    let repo = dir.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    let root = tree(&repo, 4);
    std::fs::write(root.join(".gitignore"), "part1/\n").unwrap();
    backdate(&repo);
    root
}

#[test]
fn a_git_init_above_the_root_applies_its_gitignore_on_the_next_search() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), ignoring_tree(dir.path()));
    let home: &[(&str, &Path)] = &[("HOME", dir.path()), ("XDG_CONFIG_HOME", dir.path())];
    let before = search_env(&cache, &root, "uniqueword1", home, &[]);
    assert_eq!(
        ids(&before),
        ["docs/part1/page1.md#topic-1"],
        "no repository yet"
    );
    std::fs::create_dir(dir.path().join("repo/.git")).unwrap();
    let after = search_env(&cache, &root, "uniqueword1", home, &[]);
    assert_eq!(after["index"]["state"], "updated");
    assert!(
        !ids(&after).contains(&"docs/part1/page1.md#topic-1".to_string()),
        "{after}"
    );
}

#[test]
fn an_info_exclude_or_a_global_excludes_file_created_later_is_applied() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let root = tree(dir.path(), 4);
    std::fs::create_dir_all(root.join(".git/info")).unwrap();
    backdate(&root);
    let config = dir.path().join("config");
    let env: &[(&str, &Path)] = &[("HOME", dir.path()), ("XDG_CONFIG_HOME", &config)];
    let found = |q: &str| ids(&search_env(&cache, &root, q, env, &[]));
    assert_eq!(found("uniqueword2"), ["docs/part2/page2.md#topic-2"]);
    std::fs::write(root.join(".git/info/exclude"), "part2/\n").unwrap();
    assert!(!found("uniqueword2").contains(&"docs/part2/page2.md#topic-2".to_string()));
    assert_eq!(found("uniqueword0"), ["docs/part0/page0.md#topic-0"]);
    std::fs::create_dir_all(config.join("git")).unwrap();
    std::fs::write(config.join("git/ignore"), "part0/\n").unwrap();
    assert!(!found("uniqueword0").contains(&"docs/part0/page0.md#topic-0".to_string()));
}

#[test]
fn a_file_replaced_with_the_same_size_and_modification_time_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 4));
    search(&cache, &root, "uniqueword3");
    let page = root.join("part0/page3.md");
    let mtime = std::fs::metadata(&page).unwrap().modified().unwrap();
    // The same length as "uniqueword3", the modification time put back (as `cp -p` does).
    let text = std::fs::read_to_string(&page)
        .unwrap()
        .replace("uniqueword3", "otherword33");
    std::fs::write(&page, text).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&page)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
    let (v, _) = search(&cache, &root, "otherword33");
    assert_eq!(v["index"]["state"], "updated");
    assert_eq!(first_hit(&v), "docs/part0/page3.md#topic-3");
}

#[cfg(unix)]
#[test]
fn a_retargeted_link_in_the_middle_of_a_followed_chain_is_seen() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let (cache, root) = (dir.path().join("cache"), tree(dir.path(), 2));
    for (name, word) in [("one", "okapiword"), ("two", "hyenaword")] {
        let d = dir.path().join("ext").join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("page.md"), format!("# {name}\n\n{word}\n")).unwrap();
    }
    let mid = dir.path().join("mid");
    symlink(dir.path().join("ext/one"), &mid).unwrap();
    symlink(&mid, root.join("linked")).unwrap();
    backdate_tree(&dir.path().join("ext"));
    backdate(&root);
    let flags = ["--follow-links"];
    let v = search_env(&cache, &root, "okapiword", &[], &flags);
    assert_eq!(first_hit(&v), "docs/linked/page.md#one");
    std::fs::remove_file(&mid).unwrap();
    symlink(dir.path().join("ext/two"), &mid).unwrap();
    let v = search_env(&cache, &root, "hyenaword", &[], &flags);
    assert_eq!(v["index"]["state"], "updated");
    assert_eq!(first_hit(&v), "docs/linked/page.md#two");
}
