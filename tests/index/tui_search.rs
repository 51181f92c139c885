//! The TUI ranks a finished query (Enter) as `skillnav search` does: while typing, the
//! last word is expanded as a prefix; on Enter the query runs again without expansion and
//! the jump goes to that ranking's first hit (`tests/fixtures/index/cookie`). Words with
//! colons are text in the TUI and the CLI alike (`tests/fixtures/index/colons`).

use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};
use skillnav::tui::input::action::Action;

use crate::support::fs::fixture_path;
use crate::support::tui::{act, tui_over};

#[test]
fn tui_enter_ranks_the_finished_query_like_the_cli() {
    let dir = fixture_path("index/cookie");
    let mut app = tui_over(&dir, "cookie", 100, 20);
    act(&mut app, &[Action::SearchOpen]);
    for c in "cookie helper".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    assert!(!app.search.finished);
    act(&mut app, &[Action::SearchAccept]);
    assert!(app.search.finished);
    let corpus = app.corpus.clone();
    let idx = Index::build(&corpus, &mut |_, _| {});
    let fz = FuzzyIndex::build(&corpus);
    let opts = SearchOptions {
        top_k: app.settings.search.top_k,
        prefix: false,
    };
    let (cli, _) = search_all(&corpus, Some(&idx), Some(&fz), "cookie helper", &opts);
    let tui: Vec<_> = app.search.view.content.iter().map(|h| h.node).collect();
    assert_eq!(tui, cli.hits.iter().map(|h| h.node).collect::<Vec<_>>());
    assert_eq!(corpus.node(tui[0]).title, "Cookie Helper");
    assert_eq!(app.status, format!("→ {}", corpus.node(tui[0]).id));
}

#[test]
fn colon_words_find_their_sections_in_the_tui_and_the_cli() {
    let dir = fixture_path("index/colons");
    for (q, title) in [
        ("std::io", "Reading files"),
        ("update:modelValue", "Two-way binding"),
        ("v-on:click", "Click handlers"),
    ] {
        let mut app = tui_over(&dir, "colons", 100, 20);
        act(&mut app, &[Action::SearchOpen]);
        for c in q.chars() {
            act(&mut app, &[Action::SearchInsert(c)]);
        }
        act(&mut app, &[Action::SearchAccept]);
        let top = app
            .search
            .view
            .content
            .first()
            .map(|h| app.corpus.node(h.node).title.clone());
        assert_eq!(top.as_deref(), Some(title), "tui {q}");
        let out = crate::support::child::skillnav_command()
            .args(["search", q, "--json", "--top-k", "1"])
            .arg(&dir)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["hits"][0]["title"], title, "cli {q}");
    }
}

/// Moving down to a hit and pressing Enter opens that hit, even though the finished query
/// (ranked again without prefix expansion) would put another node first: in tmux,
/// `Install and auth` then ↓ ↓ Enter opened a section that was not on the highlighted row.
#[test]
fn enter_opens_the_highlighted_hit_not_the_reranked_first() {
    let dir = fixture_path("index/cookie");
    let mut app = tui_over(&dir, "cookie", 100, 20);
    act(&mut app, &[Action::SearchOpen]);
    for c in "cookie helper".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    act(&mut app, &[Action::MoveDown]);
    assert_eq!(app.search.selected, 1);
    let shown = app.search.view.hit(1).expect("a second hit").node;
    let corpus = app.corpus.clone();
    assert_ne!(corpus.node(shown).title, "Cookie Helper");
    act(&mut app, &[Action::SearchAccept]);
    assert_eq!(app.tree.current(), Some(shown));
    assert_eq!(app.status, format!("→ {}", corpus.node(shown).id));
    assert!(!app.search.showing);
}

/// A filter no node passes (`status:acepted`, a typo) leaves the search empty: the CLI, its
/// JSON and the TUI's top line name it with the statuses that exist, instead of an empty
/// list with no word (`tests/fixtures/formats2/git-adr`: 33 accepted ADRs, one proposed).
#[test]
fn a_misspelt_status_filter_is_named_with_the_statuses_that_exist() {
    let dir = fixture_path("formats2/git-adr");
    let out = crate::support::child::skillnav_command()
        .args(["search", "status:acepted"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("no node has status = acepted (status here: accepted 33, proposed 1)\n"),
        "{text}"
    );
    let out = crate::support::child::skillnav_command()
        .args(["search", "status:acepted", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["filter_misses"],
        serde_json::json!([{
            "key": "status",
            "value": "acepted",
            "known": [{"value": "accepted", "count": 33}, {"value": "proposed", "count": 1}],
            "note": "no node has status = acepted (status here: accepted 33, proposed 1)",
        }])
    );
    // A filter that some node passes is no miss, even with no text hit beside it.
    let out = crate::support::child::skillnav_command()
        .args(["search", "status:accepted", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["filter_misses"], serde_json::json!([]));

    let mut app = tui_over(&dir, "adr", 160, 20);
    act(&mut app, &[Action::SearchOpen]);
    for c in "status:acepted".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    let top = crate::support::tui::top_line(&app);
    assert!(
        top.contains(
            "0 content · 0 titles · no node has status = acepted (status here: accepted 33, proposed 1)"
        ),
        "{top}"
    );
}

/// An unknown word of a longer query is suggested in the TUI's top line as `search` prints
/// it (`not found: helpr (did you mean helper?)`); before, only the CLI said so.
#[test]
fn the_tui_top_line_suggests_the_unknown_word_of_a_longer_query() {
    let dir = fixture_path("index/cookie");
    let mut app = tui_over(&dir, "cookie", 120, 20);
    act(&mut app, &[Action::SearchOpen]);
    for c in "cookie helpr".chars() {
        act(&mut app, &[Action::SearchInsert(c)]);
    }
    act(&mut app, &[Action::SearchAccept]);
    let top = crate::support::tui::top_line(&app);
    assert!(top.contains("titles · not found: helpr → helper?"), "{top}");
}
