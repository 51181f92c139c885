//! Search on real `Skill_Seekers` output (the Hono skill, `tests/fixtures/index/hono`, see
//! SOURCE.md there): fuzzy title matching with typos, BM25 ranking of sections, "did you
//! mean", highlighting — once on sections cut by a small heading splitter in this file
//! (independent of the loaders), once through `formats::load_root`.

use std::path::PathBuf;

use skillnav::formats::{LoadOptions, RootSpec, load_root};
use skillnav::index::{FuzzyIndex, Index, SearchOptions, match_ranges};
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind, Source, TextSpan};

use crate::support::fs::fixture_path;

fn fixture() -> PathBuf {
    fixture_path("index/hono")
}

const FILES: &[&str] = &[
    "SKILL.md",
    "references/api.md",
    "references/concepts.md",
    "references/guides.md",
    "references/middleware.md",
];

/// ATX headings outside fenced code blocks: `(byte offset of the line, title)`.
fn headings(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_fence = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_end();
        if t.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && t.starts_with('#') {
            let hashes = t.chars().take_while(|c| *c == '#').count();
            if hashes <= 6 && t[hashes..].starts_with(' ') {
                out.push((at, t[hashes..].trim().to_string()));
            }
        }
        at += line.len();
    }
    out
}

/// The Hono fixture as root `hono` → files → flat sections (one per heading; text before
/// the first heading is not a section).
fn hand_corpus() -> Corpus {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Seekers, "hono", ""));
    for rel in FILES {
        let text = std::fs::read_to_string(fixture().join(rel)).unwrap_or_default();
        let len = text.len();
        let hs = headings(&text);
        let src = c.add_source(Source::virtual_text(text));
        let mut f = Node::new(NodeKind::File, Format::Seekers, *rel, *rel);
        f.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: hs.first().map_or(len, |h| h.0),
            end: len,
        });
        let file = c.add_child(root, f);
        for (i, (start, title)) in hs.iter().enumerate() {
            let end = hs.get(i + 1).map_or(len, |h| h.0);
            let mut s = Node::new(NodeKind::Section, Format::Seekers, title.as_str(), *rel);
            s.seg = Some(format!("s{i}").into());
            s.span = Some(TextSpan {
                source: src,
                start: *start,
                own_end: end,
                end,
            });
            c.add_child(file, s);
        }
    }
    c.finalize();
    c
}

fn titles(c: &Corpus, nodes: impl IntoIterator<Item = NodeId>) -> Vec<String> {
    nodes.into_iter().map(|n| c.node(n).title.clone()).collect()
}

#[test]
fn fixture_has_the_expected_shape() {
    let c = hand_corpus();
    let idx = Index::build(&c, &mut |_, _| {});
    assert_eq!((idx.doc_count(), idx.vocab_len()), (63, 2425));
    assert!(c.nodes.iter().any(|n| n.title == "CORS Middleware"));
}

#[test]
fn fuzzy_midleware_finds_middleware_titles() {
    let c = hand_corpus();
    let fz = FuzzyIndex::build(&c);
    let hits = fz.search("midleware", 3);
    assert_eq!(hits.len(), 3);
    // All score alike (206); ties keep document order.
    assert_eq!(
        titles(&c, hits.iter().map(|h| h.node)),
        [
            "Hono_Docs - Middleware",
            "Cache Middleware",
            "Request ID Middleware"
        ]
    );
    assert!(hits.iter().all(|h| h.score == 206.0));
    // Two-atom patterns: every atom must match.
    let cors = fz.search("cors midleware", 1);
    assert_eq!(titles(&c, cors.iter().map(|h| h.node)), ["CORS Middleware"]);
}

#[test]
fn fuzzy_skips_roots_and_empty_queries() {
    let c = hand_corpus();
    let fz = FuzzyIndex::build(&c);
    assert_eq!(fz.len(), c.len() - 1);
    assert!(fz.search("", 5).is_empty());
    assert!(fz.search("   ", 5).is_empty());
    assert!(fz.search("hono", 0).is_empty());
    assert!(fz.search("hono", 500).iter().all(|h| h.node != c.roots[0]));
}

#[test]
fn bm25_ranks_the_matching_section_first() {
    let c = hand_corpus();
    let idx = Index::build(&c, &mut |_, _| {});
    let top = |q: &str| {
        let r = idx.search(&c, q, &SearchOptions::default());
        titles(&c, r.hits.iter().take(1).map(|h| h.node))
            .pop()
            .unwrap_or_default()
    };
    assert_eq!(top("cors middleware"), "CORS Middleware");
    assert_eq!(top("etag"), "ETag Middleware");
    assert_eq!(top("jwt"), "JWT Auth Middleware");
    assert_eq!(top("compress gzip"), "Compress Middleware");
}

#[test]
fn did_you_mean_and_highlight_on_real_text() {
    let c = hand_corpus();
    let idx = Index::build(&c, &mut |_, _| {});
    // In a query of several words an unknown word is only suggested, never substituted.
    let many = idx.search(&c, "bearr auth", &SearchOptions::default());
    assert!(many.did_you_mean.is_empty());
    assert_eq!(
        many.suggestions,
        [("bearr".to_string(), "bearer".to_string())]
    );
    // A one-word query is corrected.
    let r = idx.search(&c, "bearr", &SearchOptions::default());
    assert_eq!(
        r.did_you_mean,
        [("bearr".to_string(), "bearer".to_string())]
    );
    let top2 = titles(&c, r.hits.iter().take(2).map(|h| h.node));
    assert_eq!(top2, ["Bearer Auth Middleware", "Combine Middleware"]);
    let text = c.own_text(r.hits[0].node);
    let ranges = match_ranges(text, &r.terms);
    assert_eq!(&text[ranges[0].clone()], "Bearer");
    // `bearerAuth` is not a term; its part `bearer` is, so it lights up alone.
    assert!(
        ranges
            .iter()
            .all(|rg| text[rg.clone()].to_lowercase() == "bearer")
    );
    assert!(ranges.len() > 10, "{}", ranges.len());
}

#[test]
fn prefix_search_while_typing() {
    let c = hand_corpus();
    let idx = Index::build(&c, &mut |_, _| {});
    // `hea` is still being typed (`head` would be a complete word, ranked as typed).
    let r = idx.search(
        &c,
        "secure hea",
        &SearchOptions {
            top_k: 5,
            prefix: true,
        },
    );
    assert!(r.terms.iter().any(|t| t == "headers"), "{:?}", r.terms);
    assert_eq!(c.node(r.hits[0].node).title, "Secure Headers Middleware");
}

#[test]
fn loaded_through_formats_finds_middleware() {
    let spec = RootSpec {
        path: fixture(),
        label: "hono".into(),
    };
    let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
    let idx = Index::build(&c, &mut |_, _| {});
    assert!(idx.doc_count() >= 63, "{}", idx.doc_count());
    let r = idx.search(&c, "cors middleware", &SearchOptions::default());
    assert_eq!(c.node(r.hits[0].node).title, "CORS Middleware");
    let fz = FuzzyIndex::build(&c);
    let t = titles(&c, fz.search("midleware", 3).iter().map(|h| h.node));
    assert!(t.iter().any(|t| t.contains("Middleware")), "{t:?}");
}

#[test]
fn fuzzy_title_hits_only_fill_in_where_content_hits_leave_room() {
    let spec = RootSpec {
        path: fixture(),
        label: "hono".into(),
    };
    let c = load_root(&spec, &LoadOptions::default(), &mut |_| {});
    let idx = Index::build(&c, &mut |_, _| {});
    let fz = FuzzyIndex::build(&c);
    let opts = SearchOptions {
        top_k: 10,
        prefix: false,
    };
    let search = |q: &str, index: Option<&Index>| {
        let (content, hits) = skillnav::index::filter::search_all(&c, index, Some(&fz), q, &opts);
        (content.hits.len(), titles(&c, hits.iter().map(|h| h.node)))
    };
    // `cors`: letters of `Compress`, `Context`, `Cookie`… are no title hits beside the
    // content hits; the title holding the word is.
    let (n, t) = search("cors", Some(&idx));
    assert_eq!(n, 2);
    assert_eq!(t, ["CORS Middleware"]);
    // Without content hits (the index still building) the fuzzy hits above the floor fill
    // the list.
    let (n, t) = search("cors", None);
    assert_eq!(n, 0);
    assert_eq!(t, ["CORS Middleware"]);
    // A typo of a long word holds no word as typed: three title hits at least, even beside
    // a full list of content hits.
    let (n, t) = search("midleware", Some(&idx));
    assert_eq!(
        (n, t),
        (
            10,
            vec![
                "Hono_Docs - Middleware".to_string(),
                "Cache Middleware".into(),
                "Request ID Middleware".into()
            ]
        )
    );
}
