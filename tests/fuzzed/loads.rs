//! Inputs that made loading or querying quadratic: many equal sibling headings, an llms-full
//! file of many H1s, a query of thousands of near-miss words. Each test checks the full
//! result, so a slow-but-right fix and a fast-but-wrong one both show.

use skillnav::index::query::MAX_SUGGESTED;
use skillnav::index::{Index, SearchOptions};
use skillnav::model::{Corpus, Format, Node, NodeKind, Source, TextSpan};

use crate::support::corpus::load_as;
use crate::support::fs::{tempdir, write};

#[test]
fn sixteen_thousand_identical_sibling_headings_get_numbered_ids() {
    let dir = tempdir();
    write(dir.path(), "a.md", "# a\n".repeat(16_384).as_bytes());
    let c = load_as(dir.path(), "docs");
    let file = c.find("docs/a.md").expect("file node");
    let kids = &c.node(file).children;
    assert_eq!(kids.len(), 16_384);
    assert_eq!(c.id(kids[0]), "docs/a.md#a");
    assert_eq!(c.id(kids[1]), "docs/a.md#a-2");
    assert_eq!(c.id(kids[16_383]), "docs/a.md#a-16384");
    assert_eq!(c.node(file).bytes, 65_536);
}

#[test]
fn llms_full_of_20000_h1s_gets_one_part_each_with_its_own_h2() {
    let dir = tempdir();
    let text: String = (0..20_000).map(|i| format!("# t{i}\n## s\nx\n")).collect();
    write(dir.path(), "llms-full.txt", text.as_bytes());
    let c = load_as(dir.path(), "docs");
    let file = c.find("docs/llms-full.txt").expect("file node");
    let parts = &c.node(file).children;
    assert_eq!(parts.len(), 20_000);
    for (i, &p) in parts.iter().enumerate() {
        let part = c.node(p);
        assert_eq!(part.title, format!("t{i}"));
        assert_eq!(part.children.len(), 1, "part {i}");
        assert_eq!(c.text(part.children[0]), "## s\nx\n");
    }
}

#[test]
fn query_of_4000_near_miss_words_suggests_for_the_first_sixteen() {
    let text = "git stash saves work\n";
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let src = c.add_source(Source::virtual_text(text.into()));
    let mut f = Node::new(NodeKind::File, Format::Markdown, "a.md", "a.md");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: text.len(),
    });
    let file = c.add_child(root, f);
    let mut sec = Node::new(NodeKind::Section, Format::Markdown, "s", "a.md");
    sec.seg = Some("s".into());
    sec.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: text.len(),
        end: text.len(),
    });
    c.add_child(file, sec);
    c.finalize();
    // 4,000 distinct words, each "stash" or "work" with two letters inserted before its
    // last letter (so no plural folds back to a real word): two edits away.
    let mut words = Vec::new();
    'all: for base in ["stash", "work"] {
        for p in 0..base.len() {
            for a in 'a'..='z' {
                for b in 'a'..='z' {
                    let w = format!("{}{a}{b}{}", &base[..p], &base[p..]);
                    if !words.contains(&w) {
                        words.push(w);
                    }
                    if words.len() == 4000 {
                        break 'all;
                    }
                }
            }
        }
    }
    let query = words.join(" ");
    let idx = Index::build(&c, &mut |_, _| {});
    let r = idx.search(
        &c,
        &query,
        &SearchOptions {
            top_k: 5,
            prefix: false,
        },
    );
    assert!(r.hits.is_empty());
    assert!(r.did_you_mean.is_empty());
    let want: Vec<(String, String)> = words[..MAX_SUGGESTED]
        .iter()
        .map(|w| (w.clone(), "stash".to_string()))
        .collect();
    assert_eq!(r.suggestions, want);
}
