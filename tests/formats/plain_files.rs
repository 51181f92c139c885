//! Plain folders as they are on disk (docs/FORMATS.md §8, §11): a KEP tree's symbolic links
//! are aliases without turning their folder into a "mirror", non-markdown text files are
//! documents with bytes and tokens, binaries are sized leaves, and what is left out on
//! purpose is said on the root. Fixture: `tests/fixtures/formats/keps/` (real KEPs).

use skillnav::index::filter::search_all;
use skillnav::index::{Index, SearchOptions};
use skillnav::model::{Corpus, Flag, Format, NodeKind};
use skillnav::tokens::{Encoding, TokenCounter, TokenTable};

use super::fixture;
use crate::support::corpus::*;
use crate::support::fs::{copy_dir, size, tempdir, write};

/// The KEP fixture copied to `<tmp>/keps`, with the upstream folder's two symbolic links
/// (old date-named KEP files pointing at a `NNNN-slug/README.md` beside them).
#[cfg(unix)]
fn kep_tree() -> (tempfile::TempDir, Corpus) {
    use std::os::unix::fs::symlink;
    let t = tempdir();
    let keps = t.path().join("keps");
    copy_dir(&fixture("keps"), &keps);
    let rel = keps.join("sig-release");
    let ok = |r: std::io::Result<()>| r.unwrap_or_else(|e| panic!("symlink: {e}"));
    ok(symlink(
        "1732-artifact-management/README.md",
        rel.join("20190121-artifact-management.md"),
    ));
    ok(symlink(
        "1734-k8s-image-promoter/README.md",
        rel.join("k8s-image-promoter.md"),
    ));
    let c = load_as(&keps, "keps");
    (t, c)
}

/// The six fixture files (three README.md, three kep.yaml), in bytes.
fn kep_fixture_bytes() -> u64 {
    [
        "1732-artifact-management/README.md",
        "1732-artifact-management/kep.yaml",
        "1734-k8s-image-promoter/README.md",
        "1734-k8s-image-promoter/kep.yaml",
        "3027-slsa-compliance/README.md",
        "3027-slsa-compliance/kep.yaml",
    ]
    .iter()
    .map(|r| size(&fixture("keps/sig-release").join(r)))
    .sum()
}

#[cfg(unix)]
#[test]
fn sig_release_with_symlinked_keps_is_not_a_mirror() {
    let (t, c) = kep_tree();
    let files: Vec<String> = dump(&c)
        .into_iter()
        .filter(|l| l.contains(" file ") || l.contains(" dir "))
        .collect();
    assert_eq!(
        files,
        vec![
            "keps/sig-release dir markdown",
            "keps/sig-release/1732-artifact-management dir markdown",
            "keps/sig-release/1732-artifact-management/kep.yaml file text",
            "keps/sig-release/1732-artifact-management/README.md file markdown",
            "keps/sig-release/1734-k8s-image-promoter dir markdown",
            "keps/sig-release/1734-k8s-image-promoter/kep.yaml file text",
            "keps/sig-release/1734-k8s-image-promoter/README.md file markdown",
            "keps/sig-release/3027-slsa-compliance dir markdown",
            "keps/sig-release/3027-slsa-compliance/kep.yaml file text",
            "keps/sig-release/3027-slsa-compliance/README.md file markdown",
            "keps/sig-release/20190121-artifact-management.md file markdown [alias]",
            "keps/sig-release/k8s-image-promoter.md file markdown [alias]",
        ]
    );
    assert!(warnings(&c, "keps/sig-release").is_empty());
    let alias = c.node(get(&c, "keps/sig-release/k8s-image-promoter.md"));
    assert_eq!(
        alias.meta.get("alias_of").and_then(|v| v.as_str()),
        Some("sig-release/1734-k8s-image-promoter/README.md")
    );
    // Every KEP counts once in the root total; the links are not counted again.
    assert_eq!(c.node(c.roots[0]).bytes, kep_fixture_bytes());
    assert_eq!(kep_fixture_bytes(), 15_055);
    // The only SLSA KEP is found.
    let hits = Index::build(&c, &mut |_, _| {}).search(&c, "SLSA", &SearchOptions::default());
    let top: Vec<&str> = hits
        .hits
        .iter()
        .map(|h| c.node(h.node).path.as_ref())
        .collect();
    assert!(
        top.first()
            .is_some_and(|p| p.starts_with("sig-release/3027-slsa-compliance/")),
        "{top:?}"
    );
    // The same folder with only its README.md files (every document an index page of its
    // own folder, the links pointing inside it): still not a mirror.
    for k in [
        "1732-artifact-management",
        "1734-k8s-image-promoter",
        "3027-slsa-compliance",
    ] {
        let p = t.path().join("keps/sig-release").join(k).join("kep.yaml");
        std::fs::remove_file(&p).unwrap_or_else(|e| panic!("{e}"));
    }
    let c = load_as(&t.path().join("keps"), "keps");
    assert_eq!(
        line(&c, get(&c, "keps/sig-release")),
        "keps/sig-release dir markdown"
    );
    assert!(warnings(&c, "keps/sig-release").is_empty());
    assert_eq!(
        line(
            &c,
            get(&c, "keps/sig-release/20190121-artifact-management.md")
        ),
        "keps/sig-release/20190121-artifact-management.md file markdown [alias]"
    );
}

#[cfg(unix)]
#[test]
fn tree_json_of_the_kep_tree_counts_sig_release_and_its_yaml_files() {
    let (t, _) = kep_tree();
    let out = crate::support::child::skillnav_command()
        .args(["tree", "--json"])
        .arg(t.path().join("keps"))
        .output()
        .unwrap_or_else(|e| panic!("run: {e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON: {e}"));
    let root = &v["roots"][0];
    assert_eq!(root["bytes"], 15_055);
    let sig = &root["children"][0];
    assert_eq!(
        (sig["path"].as_str(), sig["flags"].as_array().map(Vec::len)),
        (Some("sig-release"), Some(0))
    );
    assert_eq!(sig["bytes"], 15_055);
    let yaml: Vec<(&str, &str)> = sig["children"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|k| k["children"].as_array().into_iter().flatten())
        .filter(|f| f["title"] == "kep.yaml")
        .map(|f| {
            (
                f["format"].as_str().unwrap_or(""),
                f["meta"]["status"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        yaml,
        vec![
            ("text", "provisional"),
            ("text", "implementable"),
            ("text", "provisional")
        ]
    );
}

#[cfg(unix)]
#[test]
fn links_to_documents_outside_the_folder_still_make_a_mirror() {
    use std::os::unix::fs::symlink;
    let t = tempdir();
    write(t.path(), "guide/setup.md", b"# Setup\nrun it\n");
    write(t.path(), "guide/usage.md", b"# Usage\ncall it\n");
    std::fs::create_dir_all(t.path().join("old")).unwrap_or_else(|e| panic!("{e}"));
    let ok = |r: std::io::Result<()>| r.unwrap_or_else(|e| panic!("symlink: {e}"));
    ok(symlink("../guide/setup.md", t.path().join("old/setup.md")));
    ok(symlink("../guide/usage.md", t.path().join("old/usage.md")));
    write(t.path(), "old/index.md", b"# Old\n- [setup](setup.md)\n");
    let c = load_as(t.path(), "r");
    assert_eq!(line(&c, get(&c, "r/old")), "r/old dir markdown [duplicate]");
    assert_eq!(
        warnings(&c, "r/old"),
        vec!["old: a mirror: only copies of documents found elsewhere (and index pages)"]
    );
}

#[cfg(unix)]
#[test]
fn kep_yaml_files_are_text_documents_with_their_top_level_keys() {
    let (_t, c) = kep_tree();
    let slsa = get(&c, "keps/sig-release/3027-slsa-compliance/kep.yaml");
    let n = c.node(slsa);
    assert_eq!(
        (n.kind, n.format, n.bytes),
        (NodeKind::File, Format::Text, 1377)
    );
    assert_eq!(
        n.meta.get("title").and_then(|v| v.as_str()),
        Some("SLSA Compliance in the Kubernetes Release Process")
    );
    assert_eq!(
        n.meta.get("kep-number").and_then(serde_json::Value::as_u64),
        Some(3027)
    );
    assert_eq!(
        n.meta.get("reviewers"),
        Some(&serde_json::json!([
            "@saschagrunert",
            "@tpepper",
            "@JTarasovic"
        ]))
    );
    // `milestone:` holds only comments (null): not meta.
    assert_eq!(n.meta.get("milestone"), None);
    // Tokens: bytes4 is ceil(1377 / 4).
    let table = TokenTable::count_all(&c, TokenCounter::new(Encoding::Bytes4));
    assert_eq!(table.total(slsa), Some(345));
    // One search document each: a reviewer's handle finds the file.
    let idx = Index::build(&c, &mut |_, _| {});
    let hits = idx.search(&c, "JTarasovic", &SearchOptions::default());
    assert_eq!(
        hits.hits.first().map(|h| h.node),
        Some(slsa),
        "{:?}",
        hits.hits
    );
    // Top-level keys filter like ADR metadata.
    let (_, titles) = search_all(
        &c,
        Some(&idx),
        None,
        "status:implementable",
        &SearchOptions::default(),
    );
    let paths: Vec<&str> = titles
        .iter()
        .map(|h| c.node(h.node).path.as_ref())
        .collect();
    assert_eq!(paths, vec!["sig-release/1734-k8s-image-promoter/kep.yaml"]);
}

#[test]
fn a_malformed_kep_yaml_has_no_meta_and_a_warning_saying_why() {
    let t = tempdir();
    write(
        t.path(),
        "keps/sig-x/1-dup/README.md",
        b"# KEP 1\n\nText.\n",
    );
    write(
        t.path(),
        "keps/sig-x/1-dup/kep.yaml",
        b"title: First\ntitle: Second\nkep-number: 2\n",
    );
    write(t.path(), "keps/sig-x/2-ok/README.md", b"# KEP 2\n\nText.\n");
    write(
        t.path(),
        "keps/sig-x/2-ok/kep.yaml",
        b"title: Fine\nkep-number: 2\n",
    );
    let c = load_as(&t.path().join("keps"), "keps");
    let dup = c.node(get(&c, "keps/sig-x/1-dup/kep.yaml"));
    assert!(dup.meta.get("title").is_none());
    assert_eq!(dup.warnings.len(), 1, "{:?}", dup.warnings);
    let w = &dup.warnings[0];
    assert!(
        w.message.starts_with("YAML not read, so no meta from it: "),
        "{}",
        w.message
    );
    assert_eq!(w.path.as_deref(), Some("sig-x/1-dup/kep.yaml"));
    let ok = c.node(get(&c, "keps/sig-x/2-ok/kep.yaml"));
    assert_eq!(ok.meta.get("title"), Some(&serde_json::json!("Fine")));
    assert!(ok.warnings.is_empty(), "{:?}", ok.warnings);
}

#[test]
fn binaries_are_sized_leaves_and_oversized_text_is_reported() {
    let t = tempdir();
    write(t.path(), "a.md", b"# A\n");
    write(t.path(), "img/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    write(t.path(), "img/blob.bin2", b"ab\0cd");
    write(t.path(), "src/main.rs", b"fn main() {}\n");
    let big = vec![b'x'; 1024 * 1024 + 1];
    write(t.path(), "data/big.log", &big);
    let c = load_as(t.path(), "r");
    assert_eq!(
        dump(&c)
            .into_iter()
            .filter(|l| !l.contains('#'))
            .collect::<Vec<_>>(),
        vec![
            "r root markdown",
            "r/a.md file markdown",
            "r/data dir markdown",
            "r/data/big.log file asset [asset]",
            "r/img dir markdown",
            "r/img/blob.bin2 file asset [binary,asset]",
            "r/img/logo.png file asset [binary,asset]",
            "r/src dir markdown",
            "r/src/main.rs file text",
        ]
    );
    // Binaries: bytes counted, nothing read, no tokens, not searchable.
    let logo = get(&c, "r/img/logo.png");
    assert_eq!(c.node(logo).bytes, 16);
    assert!(c.node(logo).span.is_none());
    assert!(c.node(logo).warnings.is_empty());
    let table = TokenTable::count_all(&c, TokenCounter::new(Encoding::Bytes4));
    assert_eq!(table.total(get(&c, "r/img")).unwrap_or(0), 0);
    assert_eq!(table.total(get(&c, "r/src/main.rs")), Some(4));
    // The root's size is the real size of the folder.
    assert_eq!(c.node(c.roots[0]).bytes, 4 + 16 + 5 + 13 + 1024 * 1024 + 1);
    let big = c.node(get(&c, "r/data/big.log"));
    assert_eq!(
        big.meta.get("note").and_then(|v| v.as_str()),
        Some("not read: larger than 1 MiB")
    );
    assert!(!big.flags.has(Flag::Binary));
    assert_eq!(
        warnings(&c, "r"),
        vec!["left out on purpose: 1 text file over 1 MiB listed with their size only"]
    );
}

/// A page whose template comment comes before its first heading: the comment is the
/// file's own text, so the file's bytes are its own plus its sections', and its tokens those
/// of its whole text.
#[test]
fn a_comment_before_the_first_heading_is_the_files_own_text() {
    let t = tempdir();
    let note = "<!--\n**Note:** remove these comment blocks when the KEP is complete.\n-->\n";
    let text = format!("{note}# Title\n\nBody text.\n");
    write(&t.path().join("docs"), "readme.md", text.as_bytes());
    let c = load_as(&t.path().join("docs"), "docs");
    let file = c.find("docs/readme.md").expect("file");
    let node = c.node(file);
    assert_eq!(node.own_bytes, note.len() as u64);
    let sections: u64 = node.children.iter().map(|k| c.node(*k).bytes).sum();
    assert_eq!(
        (node.own_bytes + sections, node.bytes),
        (text.len() as u64, text.len() as u64)
    );
    let counter = TokenCounter::new(Encoding::O200kBase);
    let table = TokenTable::count_all(&c, counter);
    assert_eq!(table.total(file), Some(counter.count(&text) as u64));
}
