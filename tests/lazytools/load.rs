//! Loading lazytools bundles into a corpus: node layout and ids of the real Hono bundle, the
//! registered scoring data, and warnings for malformed or missing bundle files.

use std::path::{Path, PathBuf};

use skillnav::formats::lazytools::{is_bundle, load};
use skillnav::index::lazytools::search;
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind};

use crate::support::fs::fixture_path;

fn fixtures() -> PathBuf {
    fixture_path("lazytools")
}

fn load_root(dir: &Path, label: &str) -> (Corpus, NodeId) {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Lazytools, label, ""));
    load(&mut c, root, dir, "");
    c.finalize();
    (c, root)
}

#[test]
fn hono_bundle_has_363_chunks_from_85_files() {
    let dir = fixtures().join("hono-docs");
    assert!(is_bundle(&dir));
    let (c, root) = load_root(&dir, "hono-docs");
    let r = c.node(root);
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(
        r.summary,
        "Hono web framework documentation (routing, middleware, helpers, getting-started guides)."
    );
    assert_eq!(r.meta["name"], "Hono Docs");
    assert_eq!(r.meta["total_chunks"], 363);
    assert_eq!(r.meta["indexed_files"], 85);
    assert_eq!(r.meta["avgdl"].as_f64(), Some(100.79338842975207));
    assert_eq!(r.meta["version"], "3.0.0");

    let kids: Vec<&Node> = r.children.iter().map(|k| c.node(*k)).collect();
    assert_eq!(kids[0].title, "SKILL.md");
    assert!(!kids[0].children.is_empty(), "SKILL.md is sectioned");
    // The 85 source files sit in their source folders, not in one flat list.
    let titles: Vec<&str> = kids.iter().map(|k| k.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "SKILL.md",
            "api",
            "concepts",
            "getting-started",
            "guides",
            "helpers",
            "index.md",
            "middleware"
        ]
    );
    let files = c
        .preorder(root)
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::File && c.node(*n).title != "SKILL.md")
        .count();
    assert_eq!(files, 85);
    let chunks: Vec<NodeId> = c
        .preorder(root)
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::Chunk)
        .collect();
    assert_eq!(chunks.len(), 363);

    let first = c
        .find("hono-docs/api/context.md#chunk-0")
        .expect("chunk id");
    let n = c.node(first);
    assert_eq!(n.title, "Context");
    assert_eq!(&*n.path, "api/context.md");
    assert_eq!(n.meta["path"], "/tmp/lt-run/hono-docs/api/context.md");
    assert_eq!(n.meta["doc_len"], 127);
    assert!(
        c.text(first)
            .starts_with("# Context\n\nThe `Context` object is instantiated")
    );
    assert_eq!(
        n.summary,
        "The `Context` object is instantiated for each request and kept until the response is returned."
    );
    let file = c.node(n.parent.unwrap());
    let chunk_bytes: u64 = file.children.iter().map(|k| c.text(*k).len() as u64).sum();
    assert_eq!(file.bytes, chunk_bytes);
    assert_eq!(
        (file.kind, file.title.as_str()),
        (NodeKind::File, "context.md")
    );
    assert_eq!(c.id(n.parent.unwrap()), "hono-docs/api/context.md");

    // Scoring data is registered for the bundle node and points at the chunk nodes.
    assert_eq!(c.bundles.len(), 1);
    let stats = c.bundle_of(first).expect("bundle").clone();
    assert_eq!(stats.chunks.len(), 363);
    let hits = search(&stats, "How do I add CORS middleware to a route?", 3);
    assert_eq!(
        c.id(hits[0].0),
        "hono-docs/middleware/builtin/cors.md#chunk-0"
    );
    assert_eq!(hits[0].1, 16.79951504746042);
    assert_eq!(
        c.text(hits[0].0),
        stats.chunk_texts[stats.chunks.iter().position(|x| *x == hits[0].0).unwrap()]
    );
}

/// A small bundle from the real files: the first 4 chunk lines with line 3 broken.
fn broken_bundle(tmp: &Path, with_vocab: bool) -> PathBuf {
    let real = fixtures().join("hono-docs");
    let dir = tmp.join("broken");
    std::fs::create_dir_all(&dir).unwrap();
    let lines: Vec<String> = std::fs::read_to_string(real.join("chunks.jsonl"))
        .unwrap()
        .lines()
        .take(4)
        .map(String::from)
        .collect();
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        out.push_str(if i == 2 { &l[..40] } else { l });
        out.push('\n');
    }
    std::fs::write(dir.join("chunks.jsonl"), out).unwrap();
    std::fs::copy(real.join("manifest.json"), dir.join("manifest.json")).unwrap();
    if with_vocab {
        std::fs::copy(real.join("vocab.json"), dir.join("vocab.json")).unwrap();
    }
    dir
}

#[test]
fn malformed_chunk_line_and_missing_vocab_are_warnings() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = broken_bundle(tmp.path(), false);
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Lazytools, "docs", ""));
    load(&mut c, root, &dir, "skills/broken");
    c.finalize();
    let w: Vec<String> = c
        .node(root)
        .warnings
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert!(
        w.iter()
            .any(|s| s
                .starts_with("skills/broken/chunks.jsonl:3: malformed JSON: unterminated string")),
        "{w:?}"
    );
    assert!(
        w.contains(
            &"skills/broken/vocab.json: missing: every term scores with IDF 0.5, as lazytools does"
                .into()
        ),
        "{w:?}"
    );
    assert!(
        w.contains(
            &"skills/broken/manifest.json: total_chunks is 363 but chunks.jsonl has 3 valid chunks"
                .into()
        ),
        "{w:?}"
    );
    // The three good lines still load; no SKILL.md node in this bundle.
    let chunks = c
        .preorder(root)
        .into_iter()
        .filter(|n| c.node(*n).kind == NodeKind::Chunk)
        .count();
    assert_eq!(chunks, 3);
    assert_eq!(c.bundles[0].1.idf.len(), 0);
}

#[test]
fn manifest_with_missing_and_bad_fields_warns_and_falls_back() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = broken_bundle(tmp.path(), true);
    std::fs::write(
        dir.join("manifest.json"),
        "{\"name\": 3, \"avgdl\": \"x\", \"extra\": 1}",
    )
    .unwrap();
    let (c, root) = load_root(&dir, "docs");
    let w: Vec<String> = c
        .node(root)
        .warnings
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    for want in [
        "manifest.json: unknown key `extra` (lazytools refuses such a manifest)",
        "manifest.json: `name` must be a string, found number",
        "manifest.json: missing key `description`",
        "manifest.json: missing key `total_chunks`",
    ] {
        assert!(w.contains(&want.to_string()), "{want} not in {w:?}");
    }
    assert!(
        w.iter()
            .any(|s| s
                .starts_with("manifest.json: `avgdl` must be a number; using the chunks' mean"))
    );
    let stats = &c.bundles[0].1;
    assert_eq!(stats.name, "broken");
    let docs: Vec<u64> = stats.chunk_doc_lens.clone();
    assert_eq!(
        stats.avgdl,
        docs.iter().sum::<u64>() as f64 / docs.len() as f64
    );
}

/// Regression: the bundle's SKILL.md frontmatter became headings (`# SKILL.md` and
/// `# name: Hono Docs description: …`, the closing `---` read as a setext underline), and
/// the bundle was not a skill for `validate`/`list`. Opened as a root, a bundle with a
/// SKILL.md is one `Skill` node (format lazytools) titled by the manifest name.
#[test]
fn bundle_skill_md_frontmatter_is_not_headings() {
    use skillnav::formats::{LoadOptions, RootSpec, load_root};
    let dir = fixtures().join("hono-docs");
    let spec = RootSpec {
        path: dir.clone(),
        label: "hono-docs".into(),
    };
    let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
    let root = c.node(c.roots[0]);
    assert_eq!(root.format, Format::Lazytools);
    assert_eq!(root.children.len(), 1);
    let skill_id = root.children[0];
    let skill = c.node(skill_id);
    assert_eq!(
        (skill.kind, skill.format, skill.title.as_str()),
        (NodeKind::Skill, Format::Lazytools, "Hono Docs")
    );
    assert_eq!(c.id(skill_id), "hono-docs/Hono Docs");
    assert_eq!(
        skill.summary,
        "Hono web framework documentation (routing, middleware, helpers, getting-started guides)."
    );
    assert_eq!(skill.detail.as_deref(), Some(skill.summary.as_str()));
    assert_eq!(skill.meta["total_chunks"], 363);

    let file = c.find("hono-docs/SKILL.md").expect("SKILL.md");
    let f = c.node(file);
    assert_eq!(f.parent, Some(skill_id));
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    assert_eq!(f.meta["name"], "Hono Docs");
    assert_eq!(f.meta["retrieval"], "BM25 (Robertson IDF, k1=1.5, b=0.75)");
    assert_eq!(
        c.own_text(file),
        "---\nname: Hono Docs\ndescription: Hono web framework documentation (routing, middleware, \
         helpers, getting-started guides).\nretrieval: BM25 (Robertson IDF, k1=1.5, b=0.75)\n---\n\n"
    );
    let sections: Vec<(String, u32)> = c
        .preorder(file)
        .into_iter()
        .skip(1)
        .map(|n| (c.node(n).title.clone(), c.node(n).line_start.unwrap_or(0)))
        .collect();
    assert_eq!(
        sections,
        [
            ("Hono Docs".to_string(), 7),
            ("Purpose".into(), 9),
            ("Scope".into(), 12),
            ("Operating rules".into(), 16),
            ("Retrieval".into(), 24),
            ("Task modes".into(), 30),
            ("Additional notes".into(), 38),
        ]
    );

    // Chunk ids and the bundle's scoring data are unchanged by the skill node.
    let first = c
        .find("hono-docs/api/context.md#chunk-0")
        .expect("chunk id");
    assert_eq!(c.bundles.len(), 1);
    assert_eq!(c.bundles[0].0, skill_id);
    let stats = c.bundle_of(first).expect("bundle");
    let hits = search(stats, "How do I add CORS middleware to a route?", 1);
    assert_eq!(
        c.id(hits[0].0),
        "hono-docs/middleware/builtin/cors.md#chunk-0"
    );
}

/// The same bundle inside a folder: a `Skill` node at its folder path; `skillnav list`
/// then lists it (it was missing before: only `Skill` nodes with a SKILL.md are skills).
#[test]
fn bundle_in_a_folder_is_a_listed_skill() {
    let out = crate::support::child::skillnav_command()
        .arg("list")
        .arg(fixtures().join("hono-docs"))
        .output()
        .expect("run skillnav");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "- Hono Docs: Hono web framework documentation (routing, middleware, helpers, \
         getting-started guides).\n"
    );

    use skillnav::formats::{LoadOptions, RootSpec, load_root};
    let spec = RootSpec {
        path: fixtures(),
        label: "fx".into(),
    };
    let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
    let skill = c.find("fx/hono-docs").expect("bundle node");
    let n = c.node(skill);
    assert_eq!(
        (n.kind, n.format, n.title.as_str()),
        (NodeKind::Skill, Format::Lazytools, "Hono Docs")
    );
    assert_eq!(c.id(n.children[0]), "fx/hono-docs/SKILL.md");
    assert!(c.bundles.iter().any(|(b, _)| *b == skill));
}

/// (title, summary) of every file and chunk node below `root`, in tree order.
fn titles_and_summaries(c: &Corpus, root: NodeId) -> Vec<(String, String)> {
    c.preorder(root)
        .into_iter()
        .map(|n| c.node(n))
        .filter(|n| matches!(n.kind, NodeKind::File | NodeKind::Chunk) && n.title != "SKILL.md")
        .map(|n| (n.title.clone(), n.summary.clone()))
        .collect()
}

#[test]
fn a_bundle_shows_titles_without_id_attributes_and_summaries_without_container_markers() {
    let (c, root) = load_root(&fixtures().join("anchors"), "demo");
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    let body = "Components are reusable pieces of an interface; each one owns its markup, its \
                state and its styles, and composes with the others.";
    assert_eq!(
        titles_and_summaries(&c, root),
        [
            s("components.md", "Components"),
            s("Components", body),
            s(
                "Async Components",
                "Async components need a loader that returns a promise."
            ),
            s("Props", "Props flow down from parent to child."),
        ]
    );
    // The bundle's own text stays as written, for every lazytools output.
    let chunk = c.find("demo/components.md#chunk-1").expect("chunk");
    assert_eq!(
        c.node(chunk).meta["heading"],
        "Async Components {#async-components}"
    );
    assert_eq!(c.node(chunk).meta["title"], "Components {#components}");
}

#[test]
fn hono_chunk_summaries_skip_container_markers() {
    let (c, root) = load_root(&fixtures().join("hono-docs"), "hono-docs");
    let all = titles_and_summaries(&c, root);
    assert_eq!(all.iter().filter(|(_, s)| s.contains(":::")).count(), 0);
    let summary = |id: &str| c.summary(c.find(id).expect(id)).to_string();
    assert_eq!(
        summary("hono-docs/api/hono.md#chunk-2"),
        "**`app.fire()` is deprecated**."
    );
    assert_eq!(
        summary("hono-docs/middleware/builtin/jwt.md#chunk-1"),
        "`jwt()` is just a middleware function."
    );
    assert_eq!(
        summary("hono-docs/getting-started/azure-functions.md#chunk-4"),
        "Before you can deploy to Azure, you need to create some resources in your cloud \
         infrastructure."
    );
}
