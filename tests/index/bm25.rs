//! BM25 index behaviour on corpora built in code: exact scores, tie order, folding of
//! identical texts, skipped copies, prefix expansion, "did you mean", empty inputs, and
//! property tests that nothing panics or yields NaN.

use proptest::prelude::*;
use skillnav::index::query::EXPANSION_WEIGHT;
use skillnav::index::{Index, SearchOptions, SearchResult, match_ranges, tokenize};
use skillnav::model::{Corpus, Flag, Format, Node, NodeId, NodeKind, Source, TextSpan};

/// Add file `path` holding `sections` (each a whole section text) under `root`; returns the
/// section ids.
fn add_file(c: &mut Corpus, root: NodeId, path: &str, sections: &[&str]) -> Vec<NodeId> {
    let text: String = sections.concat();
    let src = c.add_source(Source::virtual_text(text.clone()));
    let mut f = Node::new(NodeKind::File, Format::Markdown, path, path);
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 0,
        end: text.len(),
    });
    let file = c.add_child(root, f);
    let mut at = 0;
    let mut ids = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        let mut n = Node::new(NodeKind::Section, Format::Markdown, format!("s{i}"), path);
        n.seg = Some(format!("s{i}").into());
        n.span = Some(TextSpan {
            source: src,
            start: at,
            own_end: at + s.len(),
            end: at + s.len(),
        });
        ids.push(c.add_child(file, n));
        at += s.len();
    }
    ids
}

fn corpus_of(files: &[(&str, &[&str])]) -> (Corpus, Vec<Vec<NodeId>>) {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let ids = files
        .iter()
        .map(|(p, s)| add_file(&mut c, root, p, s))
        .collect();
    c.finalize();
    (c, ids)
}

fn search(c: &Corpus, q: &str) -> SearchResult {
    Index::build(c, &mut |_, _| {}).search(c, q, &SearchOptions::default())
}

fn prefix_search(c: &Corpus, q: &str) -> SearchResult {
    Index::build(c, &mut |_, _| {}).search(
        c,
        q,
        &SearchOptions {
            top_k: 10,
            prefix: true,
        },
    )
}

fn three_docs() -> (Corpus, Vec<NodeId>) {
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "# Cache\ncache the response\n",
            "# Cors\ncors middleware adds headers\n",
            "# Middleware\nmiddleware middleware cache\n",
        ],
    )]);
    (c, ids[0].clone())
}

#[test]
fn exact_scores_of_three_document_corpus() {
    // Tokens: [cache cache response], [cors cors middleware adds headers],
    // [middleware middleware middleware cache]; N = 3, avgdl = 4. Expected values computed
    // with Python from the docs/DESIGN.md §3 formula (k1 1.5, b 0.75).
    let (c, s) = three_docs();
    let r = search(&c, "cache middleware");
    let got: Vec<(NodeId, f64)> = r.hits.iter().map(|h| (h.node, h.score)).collect();
    let want = [
        (s[2], 1.2533430113219617),
        (s[0], 0.7301027250419194),
        (s[1], 0.4224751723557174),
    ];
    assert_eq!(got.len(), 3);
    for ((gn, gs), (wn, ws)) in got.iter().zip(want) {
        assert_eq!(*gn, wn);
        assert!((gs - ws).abs() < 1e-12, "{gs} vs {ws}");
    }
    assert_eq!(r.terms, ["cache", "middleware"]);
    assert!(r.did_you_mean.is_empty());
    let cors = search(&c, "CORS");
    assert_eq!(cors.hits.len(), 1);
    assert!((cors.hits[0].score - 1.2969643015031092).abs() < 1e-12);
}

#[test]
fn duplicated_query_words_count_once() {
    let (c, _) = three_docs();
    let once = search(&c, "cache");
    let thrice = search(&c, "cache cache CACHE");
    assert_eq!(once.hits, thrice.hits);
}

#[test]
fn index_counts() {
    let (c, _) = three_docs();
    let idx = Index::build(&c, &mut |_, _| {});
    assert_eq!(idx.doc_count(), 3);
    // cache response cors middleware adds headers
    assert_eq!(idx.vocab_len(), 6);
    assert_eq!(idx.posting_count(), 8);
    assert_eq!(idx.df(c.roots[0], "middleware"), Some(2));
    assert_eq!(idx.df(c.roots[0], "the"), Some(0));
}

#[test]
fn progress_reports_documents() {
    let (c, _) = three_docs();
    let mut calls = Vec::new();
    Index::build(&c, &mut |d, t| calls.push((d, t)));
    assert_eq!(calls.first(), Some(&(0, 3)));
    assert_eq!(calls.last(), Some(&(3, 3)));
    assert!(calls.windows(2).all(|w| w[0].0 <= w[1].0));
}

#[test]
fn ties_break_by_document_order_not_node_id() {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let a = add_file(&mut c, root, "a.md", &["alpha one\n"]);
    let b = add_file(&mut c, root, "b.md", &["alpha two\n"]);
    // A section appended to a.md's file AFTER b.md was added: larger node id, earlier in
    // document order than b.md's section.
    let file_a = c.node(a[0]).parent.unwrap_or(root);
    let src = c.add_source(Source::virtual_text("alpha six\n".into()));
    let mut late = Node::new(NodeKind::Section, Format::Markdown, "late", "a.md");
    late.seg = Some("late".into());
    late.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 10,
        end: 10,
    });
    let late = c.add_child(file_a, late);
    c.finalize();
    assert!(late.0 > b[0].0);
    let r = search(&c, "alpha");
    let nodes: Vec<NodeId> = r.hits.iter().map(|h| h.node).collect();
    assert_eq!(nodes, [a[0], late, b[0]]);
    assert_eq!(r.hits[0].score, r.hits[2].score);
}

#[test]
fn ties_across_roots_follow_root_order() {
    let mut c = Corpus::new();
    let r1 = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "one", ""));
    let x = add_file(&mut c, r1, "x.md", &["zeta\n"]);
    let r2 = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "two", ""));
    let y = add_file(&mut c, r2, "a.md", &["zeta\n"]);
    c.finalize();
    let r = search(&c, "zeta");
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [x[0], y[0]]
    );
    // Identical texts in different roots do not fold: each root is its own index.
    assert!(r.hits.iter().all(|h| h.copies.is_empty()));
}

#[test]
fn identical_texts_fold_into_first_with_copies() {
    let (c, ids) = corpus_of(&[
        ("a.md", &["## Setup\nrun npm install\n", "other words\n"]),
        ("b.md", &["## Setup\nrun npm install\n\n\n"]),
        ("c.md", &["  ## Setup\nrun npm install"]),
    ]);
    let idx = Index::build(&c, &mut |_, _| {});
    assert_eq!(idx.doc_count(), 2);
    let r = idx.search(&c, "npm", &SearchOptions::default());
    assert_eq!(r.hits.len(), 1);
    assert_eq!(r.hits[0].node, ids[0][0]);
    assert_eq!(r.hits[0].copies, [ids[1][0], ids[2][0]]);
}

#[test]
fn duplicate_and_alias_subtrees_are_not_indexed() {
    let (mut c, ids) = corpus_of(&[("a.md", &["kappa lambda\n"]), ("b.md", &["kappa mu\n"])]);
    let file_b = c.node(ids[1][0]).parent.unwrap_or(NodeId(0));
    c.node_mut(file_b).flags.set(Flag::Duplicate);
    let idx = Index::build(&c, &mut |_, _| {});
    assert_eq!(idx.doc_count(), 1);
    assert_eq!(
        idx.search(&c, "mu", &SearchOptions::default()).hits.len(),
        0
    );
    c.node_mut(file_b).flags.clear(Flag::Duplicate);
    c.node_mut(ids[0][0]).flags.set(Flag::Alias);
    let idx = Index::build(&c, &mut |_, _| {});
    let r = idx.search(&c, "kappa", &SearchOptions::default());
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[1][0]]
    );
}

#[test]
fn plain_text_file_without_children_is_a_document() {
    let mut c = Corpus::new();
    let root = c.add_root(Node::new(NodeKind::Root, Format::Text, "docs", ""));
    let src = c.add_source(Source::virtual_text("plain words here".into()));
    let mut f = Node::new(NodeKind::File, Format::Text, "notes.txt", "notes.txt");
    f.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: 16,
        end: 16,
    });
    let file = c.add_child(root, f);
    c.finalize();
    assert_eq!(
        search(&c, "words")
            .hits
            .iter()
            .map(|h| h.node)
            .collect::<Vec<_>>(),
        [file]
    );
}

#[test]
fn prefix_expands_last_word_with_max_over_expansions() {
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "middleware chain\n",
            "midi middleware\n",
            "midnight\n",
            "unrelated text\n",
        ],
    )]);
    let exact = search(&c, "mid");
    // "mid" is not a term; without prefix it falls back to "did you mean" (distance 1).
    assert_eq!(
        exact.did_you_mean,
        [("mid".to_string(), "midi".to_string())]
    );
    let p = prefix_search(&c, "mid");
    assert!(p.did_you_mean.is_empty());
    let mut terms = p.terms.clone();
    terms.sort();
    assert_eq!(terms, ["middleware", "midi", "midnight"]);
    let nodes: Vec<NodeId> = p.hits.iter().map(|h| h.node).collect();
    assert_eq!(nodes.len(), 3);
    // The doc with both "midi" and "middleware" scores the MAX of the two, which is what
    // a query for the better of the two alone gives it, times the expansion weight ("mid"
    // itself is not a term: every term is an expansion).
    let both = p
        .hits
        .iter()
        .find(|h| h.node == ids[0][1])
        .map_or(f64::NAN, |h| h.score);
    let s_midi = search(&c, "midi")
        .hits
        .iter()
        .find(|h| h.node == ids[0][1])
        .map(|h| h.score);
    let s_mw = search(&c, "middleware")
        .hits
        .iter()
        .find(|h| h.node == ids[0][1])
        .map(|h| h.score);
    let (s_midi, s_mw) = (s_midi.unwrap_or(0.0), s_mw.unwrap_or(0.0));
    assert!(
        (both - EXPANSION_WEIGHT * s_midi.max(s_mw)).abs() < 1e-12,
        "{both}"
    );
    assert!(both < s_midi + s_mw);
    // Earlier words stay exact.
    let q = prefix_search(&c, "chain mid");
    assert_eq!(q.hits[0].node, ids[0][0]);
}

#[test]
fn prefix_expansion_is_capped_at_64_by_df() {
    let mut sections: Vec<String> = (0..70).map(|i| format!("pre{i:02}\n")).collect();
    for i in 0..6 {
        sections.push(format!("pre{i:02} extra\n"));
        sections.push(format!("pre{i:02} again\n"));
    }
    let refs: Vec<&str> = sections.iter().map(String::as_str).collect();
    let (c, _) = corpus_of(&[("a.md", &refs)]);
    let p = prefix_search(&c, "pre");
    let mut terms = p.terms.clone();
    terms.sort();
    let want: Vec<String> = (0..64).map(|i| format!("pre{i:02}")).collect();
    assert_eq!(terms, want);
    // Highest df first.
    assert_eq!(
        &p.terms[..6],
        ["pre00", "pre01", "pre02", "pre03", "pre04", "pre05"]
    );
}

#[test]
fn did_you_mean_falls_back_within_distance_two() {
    let (c, ids) = corpus_of(&[("a.md", &["middleware order\n", "routing basics\n"])]);
    let r = search(&c, "midleware");
    assert_eq!(
        r.did_you_mean,
        [("midleware".to_string(), "middleware".to_string())]
    );
    assert_eq!(r.terms, ["middleware"]);
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][0]]
    );
    let far = search(&c, "mxdxlxware");
    assert!(far.hits.is_empty() && far.did_you_mean.is_empty());
}

#[test]
fn did_you_mean_ties_prefer_df_then_alphabet() {
    let (c, _) = corpus_of(&[("a.md", &["card cart\n", "card\n", "bard ward\n"])]);
    // carx: card (df 2) and cart (df 1) are both 1 edit away.
    assert_eq!(
        search(&c, "carx").did_you_mean,
        [("carx".to_string(), "card".to_string())]
    );
    // xard: bard, card, ward are 1 edit away; card has df 2.
    assert_eq!(search(&c, "xard").did_you_mean[0].1, "card");
    // wbrd: ward is 1 edit away, bard 2 (beyond the 1 edit allowed for 4 chars).
    assert_eq!(search(&c, "wbrd").did_you_mean[0].1, "ward");
    let (c2, _) = corpus_of(&[("a.md", &["bard ward\n"])]);
    assert_eq!(search(&c2, "xard").did_you_mean[0].1, "bard");
}

#[test]
fn did_you_mean_alphabetical_tie_across_lengths() {
    // "bcdef" (delete the a) and "abcdefg" (add a g) are both 1 edit from "abcdef", with the
    // same df: the alphabetically first wins although it is longer.
    let (c, _) = corpus_of(&[("a.md", &["bcdef abcdefg\n"])]);
    assert_eq!(
        search(&c, "abcdef").did_you_mean,
        [("abcdef".to_string(), "abcdefg".to_string())]
    );
}

#[test]
fn did_you_mean_needs_three_chars() {
    let (c, _) = corpus_of(&[("a.md", &["go js\n"])]);
    assert!(search(&c, "gx").did_you_mean.is_empty());
    assert!(search(&c, "gx").hits.is_empty());
}

#[test]
fn transposition_counts_as_one_edit() {
    let (c, _) = corpus_of(&[("a.md", &["frontmatter\n"])]);
    assert_eq!(search(&c, "fornt").did_you_mean, []);
    assert_eq!(search(&c, "frontmatetr").did_you_mean[0].1, "frontmatter");
}

#[test]
fn identifier_queries_match_parts() {
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "call getUserById first\n",
            "the user id\n",
            "app.get handler\n",
            "parse_frontmatter()\n",
        ],
    )]);
    let r = search(&c, "getUserById");
    // getuserbyid, get, user, by, id: the first section has all five, the second "user id",
    // the third "get".
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][0], ids[0][1], ids[0][2]]
    );
    assert_eq!(search(&c, "frontmatter").hits[0].node, ids[0][3]);
    assert_eq!(search(&c, "app.get").hits[0].node, ids[0][2]);
    // Same tf; the shorter section (4 tokens vs 7) ranks first.
    assert_eq!(
        search(&c, "get")
            .hits
            .iter()
            .map(|h| h.node)
            .collect::<Vec<_>>(),
        [ids[0][2], ids[0][0]]
    );
}

#[test]
fn empty_and_stopword_queries_give_no_hits() {
    let (c, _) = three_docs();
    for q in ["", "   ", "the and of", "!!! ...", "a"] {
        let r = search(&c, q);
        assert!(r.hits.is_empty(), "{q:?}");
        assert!(r.terms.is_empty() && r.did_you_mean.is_empty(), "{q:?}");
    }
    let idx = Index::build(&c, &mut |_, _| {});
    assert!(
        idx.search(
            &c,
            "cache",
            &SearchOptions {
                top_k: 0,
                prefix: false
            }
        )
        .hits
        .is_empty()
    );
}

#[test]
fn empty_corpus_and_empty_documents() {
    let mut empty = Corpus::new();
    empty.finalize();
    let idx = Index::build(&empty, &mut |_, _| {});
    assert_eq!((idx.doc_count(), idx.vocab_len()), (0, 0));
    assert!(
        idx.search(
            &empty,
            "anything",
            &SearchOptions {
                top_k: 5,
                prefix: true
            }
        )
        .hits
        .is_empty()
    );
    let (c, _) = corpus_of(&[("a.md", &["", "   \n", "the of and\n"])]);
    let idx = Index::build(&c, &mut |_, _| {});
    assert_eq!(idx.doc_count(), 1); // the stopword-only text is a document of length 0
    let r = idx.search(
        &c,
        "the",
        &SearchOptions {
            top_k: 5,
            prefix: true,
        },
    );
    assert!(r.hits.is_empty());
}

#[test]
fn cjk_text_is_searchable() {
    let (c, ids) = corpus_of(&[("a.md", &["中间件的顺序\n", "路由基础\n"])]);
    let r = search(&c, "中间件");
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][0]]
    );
    assert_eq!(r.terms, ["中间", "间件"]);
}

#[test]
fn highlight_ranges_follow_search_terms() {
    let (c, ids) = three_docs();
    let r = search(&c, "midleware");
    let text = c.own_text(ids[1]);
    assert_eq!(text, "# Cors\ncors middleware adds headers\n");
    assert_eq!(
        match_ranges(text, &r.terms),
        std::slice::from_ref(&(12..22))
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_texts_and_queries_never_panic_or_nan(
        texts in proptest::collection::vec("\\PC{0,40}", 0..6),
        query in "\\PC{0,20}",
        prefix in any::<bool>(),
        top_k in 0usize..5,
    ) {
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let (c, _) = corpus_of(&[("a.md", &refs), ("b.md", &refs)]);
        let idx = Index::build(&c, &mut |_, _| {});
        let r = idx.search(&c, &query, &SearchOptions { top_k, prefix });
        prop_assert!(r.hits.len() <= top_k);
        for h in &r.hits {
            prop_assert!(h.score.is_finite() && h.score > 0.0);
        }
        prop_assert!(r.hits.windows(2).all(|w| w[0].score >= w[1].score));
        for t in &texts {
            let toks = tokenize(t);
            let ranges = match_ranges(t, &toks);
            prop_assert!(ranges.windows(2).all(|w| w[0].end <= w[1].start));
            for rg in &ranges {
                prop_assert!(t.is_char_boundary(rg.start) && t.is_char_boundary(rg.end));
            }
        }
    }

    #[test]
    fn ascii_identifier_soup_never_panics(text in "[a-zA-Z0-9_. ]{0,60}", query in "[a-zA-Z_.]{0,12}") {
        let (c, _) = corpus_of(&[("a.md", &[text.as_str()])]);
        let idx = Index::build(&c, &mut |_, _| {});
        let r = idx.search(&c, &query, &SearchOptions { top_k: 3, prefix: true });
        for h in &r.hits {
            prop_assert!(h.score.is_finite() && h.score > 0.0);
        }
    }
}

#[test]
fn did_you_mean_never_substitutes_in_a_multi_word_query() {
    let (c, ids) = corpus_of(&[("a.md", &["git stash saves work\n", "the slash command\n"])]);
    // One word: corrected, and shown.
    let one = search(&c, "slach");
    assert_eq!(
        one.did_you_mean,
        [("slach".to_string(), "slash".to_string())]
    );
    // Several words: `stasj` is only suggested; the other word carries the query.
    let many = search(&c, "stasj saves");
    assert!(many.did_you_mean.is_empty());
    assert_eq!(
        many.suggestions,
        [("stasj".to_string(), "stash".to_string())]
    );
    assert_eq!(many.terms, ["saves"]);
    assert_eq!(
        many.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][0]]
    );
}

#[test]
fn inflection_folding_finds_the_other_number() {
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "limit each upload\n",
            "many uploads here\n",
            "getUploads()\n",
        ],
    )]);
    let r = search(&c, "uploads");
    // Both numbers match, each form with its own IDF: `upload` (df 1) outscores `uploads`
    // (df 2: the plain word and the part of `getUploads`).
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][0], ids[0][1], ids[0][2]]
    );
    assert_eq!(r.terms, ["uploads", "upload"]);
    // Identifier parts are not folded: `getUploads` yields the part `uploads`, not `upload`.
    let id = search(&c, "getUploads");
    assert_eq!(id.terms, ["getuploads", "get", "uploads"]);
}

#[test]
fn stemming_finds_forwarding_below_the_word_as_typed() {
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "the proxy keeps forwarding requests\n",
            "forward the call\n",
            "call getForwarding()\n",
        ],
    )]);
    // `forward` also matches `forwarding` (the same English stem), weighted below the word
    // as typed: the section holding `forward` comes first.
    let r = search(&c, "forward");
    assert_eq!(r.terms, ["forward", "forwarding"]);
    assert_eq!(
        r.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][1], ids[0][0], ids[0][2]]
    );
    // Identifiers and their parts are not stemmed: `getForwarding` does not reach `forward`.
    let id = search(&c, "getForwarding");
    assert_eq!(id.terms, ["getforwarding", "get", "forwarding"]);
}

/// `streaming tool use` typed in the TUI expanded the stopword `use` to `user` and listed
/// another first hit than `search`; a stopword is a whole word, so the typed query ranks as
/// the finished one.
#[test]
fn a_stopword_last_word_is_complete_while_typing() {
    let (c, _) = corpus_of(&[(
        "a.md",
        &[
            "Streaming with Tool Use\n\nstream tool calls as they arrive\n",
            "Users\n\nusers of the streaming tool: user limits, useful user reports\n",
        ],
    )]);
    let typing = prefix_search(&c, "streaming tool use");
    let finished = search(&c, "streaming tool use");
    assert_eq!(typing.terms, ["streaming", "stream", "tool"]);
    assert_eq!(
        typing.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        finished.hits.iter().map(|h| h.node).collect::<Vec<_>>()
    );
}

#[test]
fn exact_match_outranks_prefix_expansion() {
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "Helpers\n\nhelpers for the cookie jar and helpers for headers\n",
            "Cookie Helper\n\nthe cookie helper sets a cookie\n",
        ],
    )]);
    // While typing, `helper` is a prefix of `helpers`; the section holding the word as typed
    // still comes first, as it does for the finished query.
    let typing = prefix_search(&c, "cookie helper");
    assert_eq!(
        typing.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][1], ids[0][0]]
    );
    let finished = search(&c, "cookie helper");
    assert_eq!(
        finished.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][1], ids[0][0]]
    );
}

#[test]
fn colon_words_are_text_unless_the_key_is_known() {
    use skillnav::brief::query_brief;
    use skillnav::index::FuzzyIndex;
    use skillnav::index::filter::search_all;
    use skillnav::tokens::{Encoding, TokenCounter};
    let (c, ids) = corpus_of(&[(
        "a.md",
        &[
            "Read files with std::io and its Read trait\n",
            "Emit update:modelValue from the child component\n",
            "Listen with v-on:click on the button\n",
            "Nothing about colons here\n",
        ],
    )]);
    let idx = Index::build(&c, &mut |_, _| {});
    let fz = FuzzyIndex::build(&c);
    let opts = SearchOptions::default();
    for (q, want) in [
        ("std::io", ids[0][0]),
        ("update:modelValue", ids[0][1]),
        ("v-on:click", ids[0][2]),
    ] {
        let (content, _) = search_all(&c, Some(&idx), Some(&fz), q, &opts);
        assert_eq!(
            content.hits.first().map(|h| h.node),
            Some(want),
            "search {q}"
        );
        let brief = query_brief(&c, &idx, q, 1, None, TokenCounter::new(Encoding::O200kBase));
        assert_eq!(brief.included, [want], "brief {q}");
    }
    // `kind` is always a filter key.
    let (content, _) = search_all(&c, Some(&idx), Some(&fz), "colons kind:section", &opts);
    assert_eq!(
        content.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
        [ids[0][3]]
    );
    let (content, _) = search_all(&c, Some(&idx), Some(&fz), "colons kind:adr", &opts);
    assert!(content.hits.is_empty());
}

/// A filter keeps the first `top_k` *matching* hits: `status:implementable pod` on the KEP
/// tree gave 0 hits at `--top-k 10` (the filter ran on the first 200 hits of `pod`, none
/// of them implementable) and 14 at `--top-k 100`. Here 30 `kep.yaml` files say `pod` more
/// often than the one whose status matches, and sort before it.
#[test]
fn a_filter_finds_its_match_below_the_unfiltered_first_hits() {
    use skillnav::index::FuzzyIndex;
    use skillnav::index::filter::search_all;
    let t = tempfile::tempdir().expect("tmp");
    for i in 0..30 {
        let d = t.path().join(format!("keps/p{i:02}"));
        std::fs::create_dir_all(&d).expect("mkdir");
        std::fs::write(
            d.join("kep.yaml"),
            format!("title: pod pod pod scheduling {i}\nstatus: implemented\n"),
        )
        .expect("write");
    }
    let d = t.path().join("keps/z99");
    std::fs::create_dir_all(&d).expect("mkdir");
    std::fs::write(
        d.join("kep.yaml"),
        "title: the pod rollout among many other words of a much longer title\nstatus: implementable\n",
    )
    .expect("write");
    let c = crate::support::corpus::load_as(t.path(), "k");
    let wanted = crate::support::corpus::get(&c, "k/keps/z99/kep.yaml");
    let idx = Index::build(&c, &mut |_, _| {});
    let fz = FuzzyIndex::build(&c);
    for top_k in [1, 5] {
        let opts = SearchOptions {
            top_k,
            prefix: false,
        };
        let (content, titles) =
            search_all(&c, Some(&idx), Some(&fz), "status:implementable pod", &opts);
        assert_eq!(
            content.hits.iter().map(|h| h.node).collect::<Vec<_>>(),
            [wanted],
            "top_k {top_k}"
        );
        let (_, titles_kep) =
            search_all(&c, Some(&idx), Some(&fz), "status:implementable kep", &opts);
        assert_eq!(
            titles_kep.iter().map(|h| h.node).collect::<Vec<_>>(),
            [wanted],
            "titles, top_k {top_k}"
        );
        assert!(titles.len() <= 1);
    }
}
