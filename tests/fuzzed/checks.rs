//! The properties the fuzz targets and the `proptest` tests both check (docs/FUZZING.md),
//! written once: `fuzz/fuzz_targets/*.rs` include this file with `#[path]`, the tests of
//! `props.rs` call it. Each function panics (an `assert!`) when its property fails.
//!
//! Uses only the public API of `skillnav`.

#![allow(dead_code, reason = "each includer uses some of the checks")]

use skillnav::formats::llms_txt::{LlmsKind, add_nodes};
use skillnav::formats::sections::{add_sections, headings, headings_fast};
use skillnav::index::{Index, SearchOptions};
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind, Source, TextSpan};
use skillnav::render::{str_width, truncate};
use unicode_segmentation::UnicodeSegmentation;

/// A corpus holding `text` as one file `a.md` (span over all of it) under root `docs`, and
/// the file node, its children not yet added.
pub fn one_file(text: &str) -> (Corpus, NodeId, skillnav::model::SourceId) {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let src = c.add_source(Source::virtual_text(text.to_string()));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: text.len(),
    });
    f.bytes = text.len() as u64;
    let file = c.add_child(root, f);
    (c, file, src)
}

/// Check that the spans of `node`'s children lie inside `text`, on char boundaries, with
/// `start <= own_end <= end`, in order and without overlap, inside `[lo, hi)`; recursively.
/// With `tile`, the children also cover `[lo, hi)` exactly (each starts where the previous
/// ends, the last ends at `hi`).
fn check_children(c: &Corpus, node: NodeId, text: &str, lo: usize, hi: usize, tile: bool) {
    let mut at = lo;
    let kids = &c.node(node).children;
    for (i, &k) in kids.iter().enumerate() {
        let Some(s) = c.node(k).span else { continue };
        assert!(
            s.start <= s.own_end && s.own_end <= s.end && s.end <= text.len(),
            "span {s:?} of {:?} out of order or outside {} bytes",
            c.id(k),
            text.len()
        );
        for b in [s.start, s.own_end, s.end] {
            assert!(text.is_char_boundary(b), "offset {b} splits a character");
        }
        assert!(
            s.start >= at,
            "{:?} starts at {} before {at}",
            c.id(k),
            s.start
        );
        assert!(s.end <= hi, "{:?} ends at {} after {hi}", c.id(k), s.end);
        if tile {
            assert_eq!(s.start, at, "gap or overlap before {:?}", c.id(k));
            if i + 1 == kids.len() {
                assert_eq!(s.end, hi, "last child {:?} stops short", c.id(k));
            }
        }
        check_children(c, k, text, s.own_end, s.end, tile);
        at = s.end;
    }
}

/// Markdown sectioning: every section's byte range lies inside the file, on char
/// boundaries, ordered; the top-level sections cover the file from the first one to the end
/// (text before it is blank: no section for it), and each section's children cover the
/// rest of it after its own text.
pub fn markdown_sections_tile(text: &str) {
    let (mut c, file, src) = one_file(text);
    add_sections(&mut c, file, src, 0, text.len(), Format::Markdown);
    c.finalize();
    let kids = c.node(file).children.clone();
    let first = kids
        .first()
        .and_then(|&k| c.node(k).span)
        .map_or(text.len(), |s| s.start);
    assert!(
        text[..first].trim().is_empty(),
        "text before the first section is not blank: {:?}",
        &text[..first]
    );
    check_children(&c, file, text, first, text.len(), true);
}

/// The line scanner's headings (with its pulldown-cmark fallback, [`headings_fast`]) are the
/// `CommonMark` parse's ([`headings`]) on any text, from any char boundary.
pub fn heading_scans_agree(text: &str, from: usize) {
    let mut from = from.min(text.len());
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    assert_eq!(
        headings_fast(text, from, text.len()),
        headings(text, from, text.len()),
        "text {text:?} from {from}"
    );
}

/// The llms.txt family's loaders on `text` as `kind`: every span inside the text, on char
/// boundaries, ordered (not necessarily covering: an index's links are pieces of lines).
pub fn llms_spans_inside(text: &str, kind: LlmsKind) {
    let (mut c, file, src) = one_file(text);
    add_nodes(&mut c, file, src, kind);
    c.finalize();
    check_children(&c, file, text, 0, text.len(), false);
}

/// Whether `c` must never reach a terminal: ESC, other C0 controls but `\n`, DEL, C1
/// controls, the bidirectional embedding/override/isolate controls and the invisible
/// direction marks (U+061C, U+200E, U+200F).
pub fn is_forbidden(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{200E}' | '\u{200F}'
        )
}

/// Sanitized text has no forbidden character ([`is_forbidden`]); a sanitized line has no
/// line break either; text with nothing to replace comes back unchanged.
pub fn sanitized_is_clean(s: &str) {
    let out = skillnav::util::sanitize::sanitize(s);
    assert!(!out.chars().any(is_forbidden), "{out:?}");
    if !s.chars().any(is_forbidden) {
        assert_eq!(out, s);
    }
    let line = skillnav::util::sanitize::sanitize_line(s);
    assert!(
        !line
            .chars()
            .any(|c| is_forbidden(c) || c == '\n' || c == '\r'),
        "{line:?}"
    );
}

/// `truncate(s, w)` never measures wider than `w` and never splits a grapheme: the result is
/// `s` itself, or a prefix of `s` ending on a grapheme boundary followed by `…`.
pub fn truncation_fits(s: &str, w: usize) {
    let out = truncate(s, w);
    assert!(str_width(&out) <= w, "{out:?} is wider than {w}");
    if out == s {
        return;
    }
    let kept = out.strip_suffix('…').unwrap_or(&out);
    assert!(s.starts_with(kept), "{out:?} is not a prefix of {s:?}");
    let boundaries: Vec<usize> = s
        .grapheme_indices(true)
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()))
        .collect();
    assert!(
        boundaries.contains(&kept.len()),
        "{out:?} splits a grapheme of {s:?}"
    );
}

/// BM25 over `docs` (one markdown file each, sectioned) and `query`: every hit has a finite
/// score above 0, hits are sorted best first and at most `top_k`.
pub fn bm25_scores_finite(docs: &[&str], query: &str, prefix: bool) {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    for (i, text) in docs.iter().enumerate() {
        let path = format!("d{i}.md");
        let src = c.add_source(Source::virtual_text((*text).to_string()));
        let mut f = Node::new(NodeKind::File, Format::Markdown, &path, path.as_str());
        f.span = Some(TextSpan {
            source: src,
            start: 0,
            own_end: 0,
            end: text.len(),
        });
        let file = c.add_child(root, f);
        add_sections(&mut c, file, src, 0, text.len(), Format::Markdown);
    }
    c.finalize();
    let idx = Index::build(&c, &mut |_, _| {});
    let r = idx.search(&c, query, &SearchOptions { top_k: 5, prefix });
    assert!(r.hits.len() <= 5);
    for h in &r.hits {
        assert!(h.score.is_finite() && h.score > 0.0, "score {}", h.score);
    }
    for w in r.hits.windows(2) {
        assert!(w[0].score >= w[1].score, "not sorted");
    }
}
