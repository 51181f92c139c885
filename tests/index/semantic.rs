//! The semantic signal (docs/DESIGN.md §3 "Semantic signal"): the fusion rule's scores, a
//! paraphrase found without shared words, exact/prefix queries without vectors unchanged,
//! stopword-only queries still empty, vectors reused by content hash, and the CLI's
//! `--semantic` flag and `signals` in the JSON.

use std::sync::Arc;

use skillnav::embed;
use skillnav::index::semantic::{FUSION_WEIGHT, embedded_text};
use skillnav::index::{HitSource, Index, SearchOptions, SemanticIndex};
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind, Source, TextSpan};

use crate::support::fs::{tempdir, write};

/// One file of sections `(title, text)` under a root.
fn corpus_of(sections: &[(&str, &str)]) -> (Corpus, Vec<NodeId>) {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let text: String = sections.iter().map(|(_, t)| *t).collect();
    let src = c.add_source(Source::virtual_text(text.clone()));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "guide.md", "guide.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: text.len(),
    });
    let file = c.add_child(root, f);
    let mut at = 0;
    let mut ids = Vec::new();
    for (title, t) in sections {
        let mut n = Node::new(NodeKind::Section, Format::Markdown, *title, "guide.md");
        n.seg = Some(title.to_lowercase().replace(' ', "-").into());
        n.span = Some(TextSpan {
            source: src,
            start: at,
            own_end: at + t.len(),
            end: at + t.len(),
        });
        ids.push(c.add_child(file, n));
        at += t.len();
    }
    c.finalize();
    (c, ids)
}

const SECTIONS: &[(&str, &str)] = &[
    (
        "Stashing work",
        "Save your uncommitted edits aside with git stash and restore them later with pop.\n",
    ),
    (
        "Baking bread",
        "Knead the dough, let it rise for an hour, then bake it in a hot oven.\n",
    ),
    (
        "Login",
        "Users sign in with a password; sessions expire after a day of inactivity.\n",
    ),
];

fn exact() -> SearchOptions {
    SearchOptions {
        top_k: 10,
        prefix: false,
    }
}

#[test]
fn embedded_text_is_heading_path_then_own_text() {
    let (c, ids) = corpus_of(SECTIONS);
    let mut s = String::new();
    embedded_text(&c, ids[1], &mut s);
    assert_eq!(
        s,
        "guide.md\nBaking bread\nKnead the dough, let it rise for an hour, then bake it in a hot oven.\n"
    );
}

#[test]
fn paraphrase_without_shared_words_is_found_by_the_semantic_signal() {
    let (c, ids) = corpus_of(SECTIONS);
    let index = Index::build(&c, &mut |_, _| {});
    // BM25 alone: no word of the query is in any section.
    let q = "authentication credentials";
    assert!(index.search(&c, q, &exact()).hits.is_empty());
    assert!(index.embed(&c, None));
    let r = index.search(&c, q, &exact());
    assert_eq!(r.hits.first().map(|h| h.node), Some(ids[2]));
    assert!(r.hits.iter().all(|h| h.source == HitSource::Semantic));
    // BM25 has no part: the score is half the cosine, at most 0.5.
    assert!(r.hits.iter().all(|h| h.score <= FUSION_WEIGHT + 1e-9));
}

#[test]
fn fused_scores_follow_the_rule() {
    let (c, ids) = corpus_of(SECTIONS);
    let index = Index::build(&c, &mut |_, _| {});
    let bm25 = index.search(&c, "stash dough", &exact());
    let max = bm25.hits.iter().map(|h| h.score).fold(0.0, f64::max);
    assert!(index.embed(&c, None));
    let fused = index.search(&c, "stash dough", &exact());
    let model = embed::model().unwrap();
    let q = model.embed("stash dough").unwrap();
    for h in &fused.hits {
        let raw = bm25
            .hits
            .iter()
            .find(|b| b.node == h.node)
            .map_or(0.0, |b| b.score);
        let mut text = String::new();
        embedded_text(&c, h.node, &mut text);
        let d = model.embed(&text).unwrap();
        let cos: f32 = q.iter().zip(&d).map(|(a, b)| a * b).sum();
        let want = 0.5 * raw / max + 0.5 * f64::from(cos);
        // int8 vectors: cosine within 0.01 of the float one.
        assert!((h.score - want).abs() < 0.01, "{} vs {want}", h.score);
        let source = if raw > 0.0 {
            HitSource::Hybrid
        } else {
            HitSource::Semantic
        };
        assert_eq!(h.source, source);
    }
    assert!(fused.hits.iter().any(|h| h.node == ids[0]));
}

#[test]
fn prefix_and_stopword_queries_ignore_the_semantic_signal() {
    let (c, _) = corpus_of(SECTIONS);
    let plain = Index::build(&c, &mut |_, _| {});
    let index = Index::build(&c, &mut |_, _| {});
    assert!(index.embed(&c, None));
    let typing = SearchOptions {
        top_k: 10,
        prefix: true,
    };
    assert_eq!(
        index.search(&c, "git sta", &typing).hits,
        plain.search(&c, "git sta", &typing).hits
    );
    assert!(index.search(&c, "how do I", &exact()).hits.is_empty());
}

#[test]
fn vectors_of_unchanged_texts_are_reused_after_a_rebuild() {
    let (c, _) = corpus_of(SECTIONS);
    let model = embed::model().unwrap();
    let first = Index::build(&c, &mut |_, _| {});
    let sem = first.build_semantic(&c, model, None, 2);
    let again = Index::build(&c, &mut |_, _| {});
    let reused = again.build_semantic(&c, model, Some(&sem), 2);
    assert_eq!(format!("{sem:?}"), format!("{reused:?}"));
    assert!(again.attach_semantic(Arc::new(reused)));
    assert!(!again.attach_semantic(Arc::new(SemanticIndex::default())));
    assert_eq!(sem.len(), 3);
}

/// `skillnav ARGS` with an empty config folder; its stdout as JSON.
fn json_of_in(config: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let out = crate::support::child::skillnav_command()
        .args(args)
        .env("SKILLNAV_CONFIG_DIR", config)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn cli_search_json_names_the_signals_of_each_hit() {
    let dir = tempdir();
    write(
        dir.path(),
        "docs/guide.md",
        b"# Guide\n\n## Stashing work\n\nSave uncommitted edits aside with git stash.\n\n## Login\n\nUsers sign in with a password.\n",
    );
    let config = dir.path().join("config");
    let root = dir.path().join("docs");
    let root = root.to_str().unwrap();
    let json_of_in = |args: &[&str]| json_of_in(&config, args);
    let on = json_of_in(&["search", "git stash", root, "--json", "--semantic", "on"]);
    let hits = on["hits"].as_array().unwrap();
    assert_eq!(hits[0]["title"], "Stashing work");
    assert_eq!(hits[0]["signals"], serde_json::json!(["bm25", "semantic"]));
    let off = json_of_in(&["search", "git stash", root, "--json", "--semantic", "off"]);
    let hits = off["hits"].as_array().unwrap();
    assert_eq!(hits[0]["title"], "Stashing work");
    assert_eq!(hits[0]["signals"], serde_json::json!(["bm25"]));
    assert!(hits.iter().all(|h| h["source"] != "semantic"));
}

#[test]
fn a_lazytools_bundle_keeps_its_scores_with_the_semantic_signal_on() {
    let config = tempdir();
    let bundle = crate::support::fs::fixture_path("lazytools/hono-docs");
    let q = "How do I add CORS middleware to a route?";
    let v = json_of_in(
        config.path(),
        &[
            "search",
            q,
            bundle.to_str().unwrap(),
            "--json",
            "--top-k",
            "3",
            "--semantic",
            "on",
        ],
    );
    let first = &v["hits"][0];
    assert_eq!(first["scorer"], "lazytools");
    assert_eq!(first["title"], "CORS Middleware");
    assert_eq!(first["score"].as_f64(), Some(16.79951504746042));
    assert_eq!(first["signals"], serde_json::json!(["bm25"]));
}
