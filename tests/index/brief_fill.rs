//! Briefs that fill their budget: with a token budget and `top_k` = `UNTIL_FULL` (what
//! `skillnav brief --query Q --max-tokens N` asks), ranked sections are taken until the
//! budget is full, not a fixed top 8; the quoted text does not repeat the block's heading
//! nor close with a second rule.

use skillnav::brief::select::UNTIL_FULL;
use skillnav::brief::{self, Request};
use skillnav::index::Index;
use skillnav::model::{Corpus, Format, Node, NodeKind, TextSpan};
use skillnav::tokens::{Encoding, TokenCounter};

use crate::support::corpus::one_file;

/// One file of `n` sections `## Cache k`, each mentioning `cache` and ending with a rule.
fn corpus(n: usize) -> Corpus {
    let sections: Vec<String> = (0..n)
        .map(|k| format!("## Cache {k}\n\nThe cache keeps entry {k} for a while.\n\n---\n"))
        .collect();
    let (mut c, file, src) = one_file("a.md", &sections.concat());
    let mut at = 0;
    for (k, s) in sections.iter().enumerate() {
        let mut node = Node::new(
            NodeKind::Section,
            Format::Markdown,
            format!("Cache {k}"),
            "a.md",
        );
        node.seg = Some(format!("cache-{k}").into());
        node.span = Some(TextSpan {
            source: src,
            start: at,
            own_end: at + s.len(),
            end: at + s.len(),
        });
        c.add_child(file, node);
        at += s.len();
    }
    c.finalize();
    c
}

#[test]
fn brief_with_a_budget_takes_ranked_sections_until_full() {
    let c = corpus(40);
    let idx = Index::build(&c, &mut |_, _| {});
    let counter = TokenCounter::new(Encoding::O200kBase);
    let req = Request {
        top_k: UNTIL_FULL,
        budget: Some(600),
        ..Request::new(&[], Some("cache"))
    };
    let b = brief::build(&c, Some(&idx), &req, counter);
    // More than the fixed top 8, within the budget, nothing named as left out: the hits
    // below the last one taken are the tail of the ranking, not cut by the budget.
    assert_eq!((b.sections, b.left_out.len()), (16, 0));
    assert!(b.tokens <= 600, "{}", b.tokens);
    assert!(b.tokens > 560, "the budget is filled: {}", b.tokens);
    assert!(b.text.contains("· top 16 by BM25\n"), "{}", b.text);
    // A fixed top_k still means at most that many.
    let fixed = Request {
        top_k: 8,
        ..req.clone()
    };
    assert_eq!(brief::build(&c, Some(&idx), &fixed, counter).sections, 8);
}

#[test]
fn brief_does_not_repeat_the_heading_or_double_the_rule() {
    let c = corpus(1);
    let idx = Index::build(&c, &mut |_, _| {});
    let b = brief::query_brief(
        &c,
        &idx,
        "cache",
        8,
        None,
        TokenCounter::new(Encoding::O200kBase),
    );
    let blocks = b.text.split_once("---\n\n").map_or("", |(_, rest)| rest);
    assert_eq!(
        blocks,
        "## Cache 0\n`docs/a.md#cache-0` · a.md · score 0.411\n\nThe cache keeps entry 0 for a while.\n\n---\n"
    );
}

/// A file whose best hit for `alpha` is far bigger than the others: `Big alpha` (100
/// repetitions), then `Medium alpha` (20), then `Small alpha` (one line).
fn big_medium_small() -> Corpus {
    let text = format!(
        "# Big alpha\n\n{}\n\n# Small alpha\n\nalpha is small here.\n\n# Medium alpha\n\n{}\n",
        "alpha beta gamma delta ".repeat(100),
        "alpha words more ".repeat(20)
    );
    let (mut c, file, src) = one_file("d.md", &text);
    skillnav::formats::sections::add_sections(&mut c, file, src, 0, text.len(), Format::Markdown);
    c.finalize();
    c
}

#[test]
fn brief_fill_names_the_best_hit_too_big_for_the_budget_and_takes_smaller_ones() {
    let c = big_medium_small();
    let idx = Index::build(&c, &mut |_, _| {});
    let counter = TokenCounter::new(Encoding::O200kBase);
    let titles = |b: &brief::Brief| -> Vec<String> {
        b.included
            .iter()
            .map(|&n| c.node(n).title.clone())
            .collect()
    };
    let fill = |max| Request {
        top_k: UNTIL_FULL,
        budget: Some(max),
        ..Request::new(&[], Some("alpha"))
    };
    // Only the one-line section fits beside the frame: it is taken, and both better hits
    // are named as left out (before, the brief said "No sections matched.").
    let b = brief::build(&c, Some(&idx), &fill(120), counter);
    assert_eq!(titles(&b), ["Small alpha"]);
    assert_eq!(
        b.left_out,
        ["docs/d.md#big-alpha", "docs/d.md#medium-alpha"]
    );
    assert!(b.tokens <= 120, "{}", b.tokens);
    assert!(b.text.contains("· top 1 by BM25\n"), "{}", b.text);
    assert!(
        b.text.contains(
            "Left out (over the 120-token budget): docs/d.md#big-alpha, docs/d.md#medium-alpha"
        ),
        "{}",
        b.text
    );
    // Room for two: the best hit, too big, is still named, never dropped unsaid.
    let b = brief::build(&c, Some(&idx), &fill(400), counter);
    assert_eq!(titles(&b), ["Medium alpha", "Small alpha"]);
    assert_eq!(b.left_out, ["docs/d.md#big-alpha"]);
    // Room for everything: nothing left out.
    let b = brief::build(&c, Some(&idx), &fill(4000), counter);
    assert_eq!(titles(&b), ["Big alpha", "Medium alpha", "Small alpha"]);
    assert!(b.left_out.is_empty());
}
