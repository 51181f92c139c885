//! Golden tests of the markdown brief layout (src/brief/mod.rs docs) on a hand-built corpus
//! over `tests/fixtures/brief/guide.md`: exact text, sizes, empty selections and packing
//! under a token budget.

use skillnav::brief::{self, Brief};
use skillnav::index::Index;
use skillnav::model::{Corpus, Format, Node, NodeId, NodeKind, Source, TextSpan};
use skillnav::tokens::{Encoding, TokenCounter};

const GUIDE: &str = include_str!("../fixtures/brief/guide.md");

/// Nodes of the test corpus.
struct Ids {
    guide: NodeId,
    install: NodeId,
    usage: NodeId,
    keys: NodeId,
    chunk1: NodeId,
    chunk2: NodeId,
}

fn at(needle: &str) -> usize {
    GUIDE
        .find(needle)
        .unwrap_or_else(|| panic!("fixture lacks {needle:?}"))
}

fn section(
    c: &mut Corpus,
    parent: NodeId,
    title: &str,
    span: TextSpan,
    lines: (u32, u32),
    level: u8,
) -> NodeId {
    let mut n = Node::new(NodeKind::Section, Format::Markdown, title, "guide.md");
    n.seg = Some(skillnav::model::id::slug(title).into());
    n.span = Some(span);
    n.line_start = Some(lines.0);
    n.line_end = Some(lines.1);
    n.level = level;
    c.add_child(parent, n)
}

fn corpus() -> (Corpus, Ids) {
    let mut c = Corpus::new();
    let src = c.add_source(Source::virtual_text(GUIDE.to_string()));
    let end = GUIDE.len();
    let (h1, install, usage, keys) = (
        at("# Guide"),
        at("## Install"),
        at("## Usage"),
        at("### Keys"),
    );
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "docs", ""));
    let mut file = Node::new(NodeKind::File, Format::Markdown, "guide.md", "guide.md");
    file.span = Some(TextSpan {
        source: src,
        start: 0,
        own_end: h1,
        end,
    });
    let file = c.add_child(root, file);
    let span = |start, own_end, end| TextSpan {
        source: src,
        start,
        own_end,
        end,
    };
    let guide = section(&mut c, file, "Guide", span(h1, install, end), (5, 23), 1);
    let install = section(
        &mut c,
        guide,
        "Install",
        span(install, usage, usage),
        (9, 13),
        2,
    );
    let usage = section(&mut c, guide, "Usage", span(usage, keys, end), (14, 23), 2);
    let keys = section(&mut c, usage, "Keys", span(keys, end, end), (20, 23), 3);

    let notes_text = "Ship the brief.\n\n\nThen the clipboard.\n";
    let nsrc = c.add_source(Source::virtual_text(notes_text.to_string()));
    let notes = c.add_root(Node::new(NodeKind::Root, Format::Lazytools, "notes", ""));
    let todo = c.add_child(
        notes,
        Node::new(NodeKind::File, Format::Lazytools, "todo.md", "todo.md"),
    );
    let mut ch1 = Node::new(NodeKind::Chunk, Format::Lazytools, "", "todo.md");
    ch1.seg = Some("chunk-1".into());
    ch1.span = Some(TextSpan {
        source: nsrc,
        start: 0,
        own_end: 18,
        end: 18,
    });
    let chunk1 = c.add_child(todo, ch1);
    let mut ch2 = Node::new(NodeKind::Chunk, Format::Lazytools, "Later", "todo.md");
    ch2.seg = Some("chunk-2".into());
    ch2.span = Some(TextSpan {
        source: nsrc,
        start: 18,
        own_end: notes_text.len(),
        end: notes_text.len(),
    });
    ch2.line_start = Some(4);
    ch2.line_end = Some(4);
    let chunk2 = c.add_child(todo, ch2);
    c.finalize();
    (
        c,
        Ids {
            guide,
            install,
            usage,
            keys,
            chunk1,
            chunk2,
        },
    )
}

fn bytes4() -> TokenCounter {
    TokenCounter::new(Encoding::Bytes4)
}

/// The whole-brief size fields agree with the text.
fn assert_sizes(b: &Brief, counter: TokenCounter) {
    assert_eq!(b.bytes, b.text.len());
    assert_eq!(b.tokens, counter.count(&b.text));
    assert_eq!(b.encoding, counter.encoding());
}

/// The four-section selection of the golden tests, in bytes/4 tokens.
const GOLDEN_FOUR: &str = concat!(
    "# Context brief\n",
    "\n",
    "Sources: docs, notes · 4 sections · 34 tokens (bytes4) · 132 bytes\n",
    "\n",
    "---\n",
    "\n",
    "## Install\n",
    "`docs/guide.md#guide/install` · guide.md · lines 9–13\n",
    "\n",
    "Run `cargo install skillnav`.\n",
    "\n",
    "---\n",
    "\n",
    "## Keys\n",
    "`docs/guide.md#guide/usage/keys` · guide.md · lines 20–23\n",
    "\n",
    "`y` copies the brief — über-fast.  \n",
    "\n",
    "---\n",
    "\n",
    "## notes/todo.md#chunk-1\n",
    "`notes/todo.md#chunk-1` · todo.md\n",
    "\n",
    "Ship the brief.\n",
    "\n",
    "---\n",
    "\n",
    "## Later\n",
    "`notes/todo.md#chunk-2` · todo.md · line 4\n",
    "\n",
    "Then the clipboard.\n",
    "\n",
    "---\n",
);

#[test]
fn selection_brief_golden_two_roots() {
    let (c, ids) = corpus();
    let b = brief::selection_brief(
        &c,
        &[ids.install, ids.keys, ids.chunk1, ids.chunk2],
        None,
        bytes4(),
    );
    assert_eq!(b.text, GOLDEN_FOUR);
    assert_eq!(b.sections, 4);
    assert_eq!(b.bytes, 478);
    assert_eq!(b.tokens, 120);
    assert!(b.left_out.is_empty());
    assert_sizes(&b, bytes4());
}

#[test]
fn selection_brief_keeps_the_given_order() {
    let (c, ids) = corpus();
    let b = brief::selection_brief(&c, &[ids.chunk2, ids.install], None, bytes4());
    let later = b.text.find("## Later").expect("chunk-2 block");
    let install = b.text.find("## Install").expect("install block");
    assert!(later < install, "{}", b.text);
    assert!(
        b.text.starts_with(
            "# Context brief\n\nSources: notes, docs · 2 sections · 16 tokens (bytes4) · 64 bytes\n"
        ),
        "{}",
        b.text
    );
}

#[test]
fn selection_brief_includes_the_full_text_of_nested_sections() {
    let (c, ids) = corpus();
    let b = brief::selection_brief(&c, &[ids.usage], None, bytes4());
    let expected = concat!(
        "# Context brief\n",
        "\n",
        "Sources: docs · 1 section · 25 tokens (bytes4) · 96 bytes\n",
        "\n",
        "---\n",
        "\n",
        "## Usage\n",
        "`docs/guide.md#guide/usage` · guide.md · lines 14–23\n",
        "\n",
        "Open a folder:\n",
        "\n",
        "    skillnav docs/\n",
        "\n",
        "### Keys\n",
        "\n",
        "`y` copies the brief — über-fast.  \n",
        "\n",
        "---\n",
    );
    assert_eq!(b.text, expected);
    assert_eq!(b.sections, 1);
    assert_sizes(&b, bytes4());
}

#[test]
fn selection_brief_counts_exact_o200k_tokens() {
    let (c, ids) = corpus();
    let counter = TokenCounter::new(Encoding::O200kBase);
    let b = brief::selection_brief(&c, &[ids.guide], None, counter);
    // The Sources line states the section as stored (docs/DESIGN.md §2 Sizes): its byte
    // range and the Σ of its parts' exact counts, the tree's numbers.
    let header = format!(
        "Sources: docs · 1 section · {} tokens (o200k_base) · {} bytes\n",
        skillnav::tokens::subtree_total(&c, counter, ids.guide),
        c.node(ids.guide).bytes
    );
    assert!(b.text.contains(&header), "{}", b.text);
    assert!(
        b.text
            .ends_with("`y` copies the brief — über-fast.  \n\n---\n")
    );
    assert_sizes(&b, counter);
}

#[test]
fn empty_selection_says_no_sections_selected() {
    let (c, _) = corpus();
    let b = brief::selection_brief(&c, &[], None, bytes4());
    assert_eq!(b.text, "# Context brief\n\nNo sections selected.\n");
    assert_eq!(b.sections, 0);
    assert_eq!((b.bytes, b.tokens), (39, 10));
    assert!(b.left_out.is_empty());
}

#[test]
fn pack_leaves_out_what_does_not_fit_and_says_so() {
    let (c, ids) = corpus();
    let units = [ids.install, ids.keys, ids.chunk1, ids.chunk2];
    let b = brief::selection_brief(&c, &units, Some(95), bytes4());
    let expected = concat!(
        "# Context brief\n",
        "\n",
        "Sources: docs, notes · 2 sections · 16 tokens (bytes4) · 62 bytes\n",
        "\n",
        "---\n",
        "\n",
        "## Install\n",
        "`docs/guide.md#guide/install` · guide.md · lines 9–13\n",
        "\n",
        "Run `cargo install skillnav`.\n",
        "\n",
        "---\n",
        "\n",
        "## notes/todo.md#chunk-1\n",
        "`notes/todo.md#chunk-1` · todo.md\n",
        "\n",
        "Ship the brief.\n",
        "\n",
        "---\n",
        "\n",
        "Left out (over the 95-token budget): docs/guide.md#guide/usage/keys, notes/todo.md#chunk-2\n",
    );
    assert_eq!(b.text, expected);
    assert_eq!(
        b.left_out,
        ["docs/guide.md#guide/usage/keys", "notes/todo.md#chunk-2"]
    );
    assert_eq!((b.sections, b.bytes, b.tokens), (2, 372, 93));
    assert_sizes(&b, bytes4());
    // Keeping Keys instead (the next in order) would not fit: the sections and header plus
    // the closing line naming chunk-1 and chunk-2 is 98 tokens.
    let with_keys = brief::selection_brief(&c, &[ids.install, ids.keys], None, bytes4());
    let footer =
        "\nLeft out (over the 95-token budget): notes/todo.md#chunk-1, notes/todo.md#chunk-2\n";
    assert_eq!(bytes4().count(&format!("{}{footer}", with_keys.text)), 98);
}

#[test]
fn pack_with_a_budget_too_small_for_any_section_lists_them_all() {
    let (c, ids) = corpus();
    let units = [ids.install, ids.keys, ids.chunk1, ids.chunk2];
    let b = brief::selection_brief(&c, &units, Some(10), bytes4());
    let expected = concat!(
        "# Context brief\n",
        "\n",
        "Sources: none · 0 sections · 0 tokens (bytes4) · 0 bytes\n",
        "\n",
        "---\n",
        "\n",
        "Left out (over the 10-token budget): docs/guide.md#guide/install, ",
        "docs/guide.md#guide/usage/keys, notes/todo.md#chunk-1, notes/todo.md#chunk-2\n",
    );
    assert_eq!(b.text, expected);
    assert_eq!(b.sections, 0);
    assert_eq!(b.left_out.len(), 4);
    assert_sizes(&b, bytes4());
}

#[test]
fn pack_under_o200k_never_exceeds_the_budget() {
    let (c, ids) = corpus();
    let counter = TokenCounter::new(Encoding::O200kBase);
    let units = [
        ids.guide,
        ids.install,
        ids.usage,
        ids.keys,
        ids.chunk1,
        ids.chunk2,
    ];
    let full = brief::selection_brief(&c, &units, None, counter).tokens;
    // Below the size of the header plus the closing line naming every section, nothing fits
    // and the brief is over budget by that much (documented); from there on it fits.
    let nothing = brief::selection_brief(&c, &units, Some(0), counter);
    assert_eq!(nothing.sections, 0);
    let mut kept_counts = Vec::new();
    for max in (nothing.tokens..=full + 5).step_by(5) {
        let b = brief::selection_brief(&c, &units, Some(max), counter);
        assert!(b.tokens <= max, "budget {max}: {} tokens", b.tokens);
        kept_counts.push(b.sections);
        assert_eq!(b.sections + b.left_out.len(), units.len());
        assert_eq!(
            b.left_out.is_empty(),
            !b.text.contains("Left out (over the"),
            "budget {max}"
        );
        assert_sizes(&b, counter);
    }
    assert_eq!(kept_counts.first(), Some(&0));
    assert_eq!(kept_counts.last(), Some(&units.len()));
}

#[test]
fn pack_with_room_for_everything_equals_the_selection_brief() {
    let (c, ids) = corpus();
    let units = [ids.install, ids.keys, ids.chunk1, ids.chunk2];
    assert_eq!(
        brief::selection_brief(&c, &units, Some(125), bytes4()),
        brief::selection_brief(&c, &units, None, bytes4())
    );
    assert_eq!(
        brief::selection_brief(&c, &units, Some(1_000_000), bytes4()).text,
        GOLDEN_FOUR
    );
}
/// BM25 scores of `query`'s hits by id, from the index itself (the brief only formats them).
fn scores(c: &Corpus, index: &Index, query: &str) -> Vec<(String, String)> {
    let opts = skillnav::index::SearchOptions {
        top_k: 3,
        prefix: false,
    };
    index
        .search(c, query, &opts)
        .hits
        .iter()
        .map(|h| (c.id(h.node), format!("{:.3}", h.score)))
        .collect()
}

#[test]
fn query_brief_golden_shows_own_text_and_scores() {
    let (c, _) = corpus();
    let index = Index::build(&c, &mut |_, _| {});
    let s = scores(&c, &index, "folder");
    assert_eq!(s.len(), 1, "{s:?}");
    assert_eq!(s[0].0, "docs/guide.md#guide/usage");
    let b = brief::query_brief(&c, &index, "folder", 3, None, bytes4());
    let expected = format!(
        concat!(
            "# Context brief\n",
            "\n",
            // Asked for 3, one matched: the brief states the hits it holds.
            "Query: folder · top 1 by BM25\n",
            "Sources: docs · 1 section · 12 tokens (bytes4) · 46 bytes\n",
            "\n",
            "---\n",
            "\n",
            "## Usage\n",
            "`docs/guide.md#guide/usage` · guide.md · lines 14–19 · score {}\n",
            "\n",
            "Open a folder:\n",
            "\n",
            "    skillnav docs/\n",
            "\n",
            "---\n",
        ),
        s[0].1
    );
    assert_eq!(b.text, expected);
    assert_eq!(b.sections, 1);
    assert_sizes(&b, bytes4());
}

#[test]
fn query_brief_ranks_best_first_across_roots() {
    let (c, ids) = corpus();
    let index = Index::build(&c, &mut |_, _| {});
    let s = scores(&c, &index, "clipboard brief");
    let b = brief::query_brief(&c, &index, "clipboard brief", 3, None, bytes4());
    assert_eq!(b.sections, s.len());
    let mut at = 0;
    for (id, score) in &s {
        let line = format!("`{id}` · ");
        let pos = b.text[at..]
            .find(&line)
            .map_or_else(|| panic!("{id} missing or out of order"), |p| p + at);
        assert!(
            b.text[pos..]
                .lines()
                .next()
                .is_some_and(|l| l.ends_with(&format!(" · score {score}")))
        );
        at = pos;
    }
    assert!(s.iter().any(|(id, _)| id == &c.id(ids.chunk2)), "{s:?}");
    assert_sizes(&b, bytes4());
}

#[test]
fn query_brief_says_how_a_typo_was_searched() {
    let (c, _) = corpus();
    let index = Index::build(&c, &mut |_, _| {});
    let b = brief::query_brief(&c, &index, "clipbord", 3, None, bytes4());
    assert!(
        b.text.starts_with(
            "# Context brief\n\nQuery: clipbord · top 1 by BM25\nSearched as: clipbord → clipboard\n"
        ),
        "{}",
        b.text
    );
    assert!(
        b.text
            .contains("## Later\n`notes/todo.md#chunk-2` · todo.md · line 4 · score ")
    );
}

#[test]
fn query_brief_without_hits_says_no_sections_matched() {
    let (c, _) = corpus();
    let index = Index::build(&c, &mut |_, _| {});
    let b = brief::query_brief(&c, &index, "zzzz", 3, Some(50), bytes4());
    assert_eq!(
        b.text,
        "# Context brief\n\nQuery: zzzz · top 0 by BM25\n\nNo sections matched.\n"
    );
    assert_eq!((b.sections, b.left_out.len()), (0, 0));
}

#[test]
fn query_brief_under_a_budget_lists_left_out_hits() {
    let (c, _) = corpus();
    let index = Index::build(&c, &mut |_, _| {});
    let s = scores(&c, &index, "clipboard brief");
    let full = brief::query_brief(&c, &index, "clipboard brief", 3, None, bytes4());
    let b = brief::query_brief(
        &c,
        &index,
        "clipboard brief",
        3,
        Some(full.tokens - 1),
        bytes4(),
    );
    assert!(b.tokens < full.tokens);
    assert!(!b.left_out.is_empty());
    assert_eq!(b.sections + b.left_out.len(), s.len());
    let line = format!(
        "Left out (over the {}-token budget): {}\n",
        full.tokens - 1,
        b.left_out.join(", ")
    );
    assert!(b.text.ends_with(&line), "{}", b.text);
}

#[test]
fn pack_names_the_first_50_left_out_ids_and_counts_the_rest() {
    let mut c = Corpus::new();
    let text: String = (0..80)
        .map(|i| format!("## S{i:02}\nbody {i:02} text\n"))
        .collect();
    let src = c.add_source(Source::virtual_text(text.clone()));
    let root = c.add_root(Node::new(NodeKind::Root, Format::Markdown, "many", ""));
    let file = c.add_child(
        root,
        Node::new(NodeKind::File, Format::Markdown, "m.md", "m.md"),
    );
    let mut units = Vec::new();
    for i in 0..80 {
        let start = text.find(&format!("## S{i:02}\n")).expect("heading");
        let end = start + format!("## S{i:02}\nbody {i:02} text\n").len();
        let mut n = Node::new(
            NodeKind::Section,
            Format::Markdown,
            format!("S{i:02}"),
            "m.md",
        );
        n.seg = Some(format!("s{i:02}").into());
        n.span = Some(TextSpan {
            source: src,
            start,
            own_end: end,
            end,
        });
        units.push(c.add_child(file, n));
    }
    c.finalize();
    let b = brief::selection_brief(&c, &units, Some(600), bytes4());
    assert!(b.tokens <= 600, "{} tokens", b.tokens);
    assert!(b.sections > 0);
    assert_eq!(b.sections + b.left_out.len(), 80);
    let first = b.left_out.first().expect("some left out").clone();
    let listed = b.left_out[..50].join(", ");
    let closing = format!(
        "\nLeft out (over the 600-token budget): {listed} and {} more ({} in all)\n",
        b.left_out.len() - 50,
        b.left_out.len()
    );
    assert!(b.text.ends_with(&closing), "{}", b.text);
    assert!(first.starts_with("many/m.md#s"));
    assert_sizes(&b, bytes4());
}
