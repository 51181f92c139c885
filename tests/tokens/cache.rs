//! The persistent count cache (docs/DESIGN.md §4) through the CLI: a second call reads its
//! counts, every count equals an uncached call's, and a corrupt or foreign cache file is
//! ignored and replaced. Each child gets its own cache folder through `XDG_CACHE_HOME`.

use std::path::Path;

use skillnav::tokens::Encoding;
use skillnav::tokens::cache::{decode, encode, file_path};

use crate::support::fs::{fixture_path, tempdir};

/// `skillnav tree --json <fixture>` (and the encoding flag) with its cache under `cache_home`.
fn tree_json(cache_home: &Path, encoding: Encoding) -> String {
    let out = crate::support::child::skillnav_command()
        .args(["tree", "--json", "--encoding", encoding.as_str()])
        .arg(fixture_path("formats2"))
        .env("XDG_CACHE_HOME", cache_home)
        .env_remove("SKILLNAV_CONFIG_DIR")
        .output()
        .unwrap_or_else(|e| panic!("cannot run skillnav: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn cache_file(cache_home: &Path, encoding: Encoding) -> std::path::PathBuf {
    file_path(&cache_home.join("skillnav"), encoding)
}

#[test]
fn a_second_call_reads_the_cache_and_prints_the_same_counts() {
    for encoding in [Encoding::O200kBase, Encoding::Cl100kBase] {
        let home = tempdir();
        let cold = tree_json(home.path(), encoding);
        let file = cache_file(home.path(), encoding);
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let entries = decode(&bytes, encoding).expect("a valid cache file");
        assert!(entries.len() > 100, "{} entries", entries.len());
        let warm = tree_json(home.path(), encoding);
        assert_eq!(cold, warm);
        // Nothing new was counted, so the file was not rewritten.
        assert_eq!(std::fs::read(&file).unwrap(), bytes);
        assert!(cold.contains(&format!("\"encoding\":\"{}\"", encoding.as_str())));
    }
}

#[test]
fn a_corrupt_cache_file_is_ignored_and_replaced() {
    let clean = tempdir();
    let expected = tree_json(clean.path(), Encoding::O200kBase);
    let good = std::fs::read(cache_file(clean.path(), Encoding::O200kBase)).unwrap();

    // Every count bumped by one, checksum left as it was: must not be trusted.
    let mut poisoned = good.clone();
    let entries = decode(&good, Encoding::O200kBase).unwrap();
    let head = good.len() - 16 - entries.len() * 20;
    for i in 0..entries.len() {
        poisoned[head + i * 20 + 16] ^= 0x01;
    }
    let garbage = b"not a cache file at all".to_vec();
    let truncated = good[..good.len() / 2].to_vec();
    for bad in [poisoned, garbage, truncated] {
        let home = tempdir();
        let file = cache_file(home.path(), Encoding::O200kBase);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, &bad).unwrap();
        assert_eq!(tree_json(home.path(), Encoding::O200kBase), expected);
        let rewritten = std::fs::read(&file).unwrap();
        assert!(decode(&rewritten, Encoding::O200kBase).is_some());
    }
}

#[test]
fn a_foreign_cache_file_is_ignored() {
    let clean = tempdir();
    let expected = tree_json(clean.path(), Encoding::O200kBase);
    let home = tempdir();
    let file = cache_file(home.path(), Encoding::O200kBase);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    // A well-formed cl100k file with wrong counts, under the o200k name.
    let good = std::fs::read(cache_file(clean.path(), Encoding::O200kBase)).unwrap();
    let wrong: Vec<_> = decode(&good, Encoding::O200kBase)
        .unwrap()
        .into_iter()
        .map(|(k, n)| (k, n + 7))
        .collect();
    std::fs::write(&file, encode(&wrong, Encoding::Cl100kBase)).unwrap();
    assert_eq!(tree_json(home.path(), Encoding::O200kBase), expected);
    assert!(decode(&std::fs::read(&file).unwrap(), Encoding::O200kBase).is_some());
}
