//! The TUI ranks a query whose last word is complete as `skillnav search` does, and Enter
//! opens the highlighted hit (`tests/fixtures/index/hono-helpers`, `keps`); a one-character
//! CJK word is searchable (`cjk`). Words with
//! colons are text in the TUI and the CLI alike (`tests/fixtures/index/colons`).

use skillnav::index::filter::search_all;
use skillnav::index::{FuzzyIndex, Index, SearchOptions};
use skillnav::tui::input::action::Action;

use crate::support::fs::fixture_path;
use crate::support::tui::{act, tui_over};

/// Type `query` into the search box of `app` (opened first).
fn type_query(app: &mut skillnav::tui::state::app::App, query: &str) {
    act(app, &[Action::SearchOpen]);
    for c in query.chars() {
        act(app, &[Action::SearchInsert(c)]);
    }
}

/// The titles of the first `n` content hits the TUI shows.
fn content_titles(app: &skillnav::tui::state::app::App, n: usize) -> Vec<String> {
    let hits = app.search.view.content.iter().take(n);
    hits.map(|h| app.corpus.node(h.node).title.clone())
        .collect()
}

/// The first six rows of the results list below the search line, each cut to `cells`
/// characters.
fn list_rows(app: &skillnav::tui::state::app::App, cells: usize) -> Vec<String> {
    let screen = crate::support::tui::screen(app);
    let rows = screen.lines().skip(1).take(6);
    rows.map(|l| l.chars().take(cells).collect()).collect()
}

/// On Hono's helpers page `cookie helper` listed Helpers first while typing (`helper`
/// expanded to `helpers`) and Enter opened Cookie Helper, another row. `helper` is a
/// complete word: the list shown is `search`'s, and Enter opens its highlighted row.
#[test]
fn cookie_helper_enter_opens_the_highlighted_hit_which_is_the_cli_first() {
    let dir = fixture_path("index/hono-helpers");
    let mut app = tui_over(&dir, "hono-helpers", 100, 20);
    type_query(&mut app, "cookie helper");
    assert_eq!(
        content_titles(&app, 3),
        ["Cookie Helper", "Helpers", "Proxy Helper"]
    );
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
    let highlighted = app.search.view.hit(app.search.selected).map(|h| h.node);
    act(&mut app, &[Action::SearchAccept]);
    assert_eq!(app.tree.current(), highlighted);
    assert_eq!(corpus.node(tui[0]).title, "Cookie Helper");
    assert_eq!(app.status, format!("→ {}", corpus.id(tui[0])));
}

/// While the last word is still being typed (`helpe`) the list expands it; Enter opens the
/// row highlighted in that list, not the first hit of a ranking made again without it.
#[test]
fn enter_opens_the_highlighted_hit_while_the_last_word_is_unfinished() {
    let dir = fixture_path("index/hono-helpers");
    let mut app = tui_over(&dir, "hono-helpers", 100, 20);
    type_query(&mut app, "cookie helpe");
    assert_eq!(content_titles(&app, 2), ["Helpers", "Cookie Helper"]);
    let highlighted = app.search.view.hit(0).map(|h| h.node);
    act(&mut app, &[Action::SearchAccept]);
    assert_eq!(app.tree.current(), highlighted);
}

/// On the KEP tree `pod scheduling readiness` listed "Pod Readiness Gates" sections first
/// while typing (`readiness` expanded to `readinessgates`), and the KEP "Pod Scheduling
/// Readiness" sat below every content row. `readiness` is complete, so nothing is
/// expanded, and the title holding every word heads the list.
#[test]
fn pod_scheduling_readiness_lists_its_kep_title_first_and_no_readiness_gates() {
    let dir = fixture_path("index/keps");
    let mut app = tui_over(&dir, "keps", 100, 12);
    type_query(&mut app, "pod scheduling readiness");
    // Folded forms only (other number, same stem); no `readiness…` expansion.
    assert_eq!(
        app.search.view.terms,
        [
            "pod",
            "pods",
            "scheduling",
            "schedulability",
            "schedule",
            "scheduled",
            "scheduler",
            "readiness",
            "ready"
        ]
    );
    let left = list_rows(&app, 42);
    assert_eq!(
        left,
        [
            "Titles holding every word · 2             ",
            "  # KEP-3521: Pod Schedu…  11k tok   46kB ",
            "  ▪ 3521-pod-scheduling-…  11k tok   49kB ",
            "Content (BM25) · 50                       ",
            "  # Story 1  keps/sig-sc…   99 tok   6.43 ",
            "  # Goals ‹ KEP-3521: Po…   97 tok   5.23 ",
        ]
    );
    let kep = "keps/sig-scheduling/3521-pod-scheduling-readiness/README.md#kep-3521-pod-scheduling-readiness";
    let want = format!(
        "Content (BM25): 3 hits\n     6.431  Story 1  {kep}/proposal/user-stories-optional/story-1:266\n     5.233  Goals  {kep}/motivation/goals:210\n     5.099  Story 3  {kep}/proposal/user-stories-optional/story-3:280\n"
    );
    for prefix in [false, true] {
        let mut cmd = crate::support::child::skillnav_command();
        cmd.args(["search", "pod scheduling readiness", "--top-k", "3"]);
        if prefix {
            cmd.arg("--prefix");
        }
        let out = cmd.arg(&dir).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let content = text.split_inclusive('\n').take(4).collect::<String>();
        assert_eq!(content, want, "prefix {prefix}");
    }
}

/// At 80 columns the results list is 33 cells wide: the score took 8 of them and rows could
/// not be told apart (`# Feature Int…  176 tok  14.26`); a list under 40 cells shows no
/// id and no score, and gives their room to the titles.
#[test]
fn an_80_column_results_list_gives_the_score_room_to_the_titles() {
    let dir = fixture_path("index/keps");
    let mut app = tui_over(&dir, "keps", 80, 8);
    type_query(&mut app, "pod readiness gates");
    let left = list_rows(&app, 34);
    assert_eq!(
        left,
        [
            "Titles holding every word · 1    │",
            "  ▪ 580-pod-readiness-… 1.7k tok │",
            "Content (BM25) · 50              │",
            "  # PodSpec              158 tok │",
            "  # Feature Integration  176 tok │",
            "  # Constraint… ‹ PodSpec 41 tok │",
        ]
    );
}

/// `锁` (lock) and `鍵` (key) occur only inside longer CJK runs: each character is indexed
/// beside the bigrams, so a one-character word finds its sections in the CLI, in a brief and
/// in the TUI; `东京` still searches its bigram only.
#[test]
fn one_character_cjk_words_find_their_sections() {
    let dir = fixture_path("index/cjk");
    for (q, want) in [
        ("锁", "     1.842  互斥锁  cjk/locks.md#互斥锁:1\n"),
        (
            "鍵",
            "     1.758  合鍵の作り方  cjk/locks.md#合鍵の作り方:5\n",
        ),
        (
            "东京",
            "     1.775  东京的地铁  cjk/locks.md#东京的地铁:9\n",
        ),
    ] {
        let out = crate::support::child::skillnav_command()
            .args(["search", q])
            .arg(&dir)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let content = text.split_inclusive('\n').take(2).collect::<String>();
        assert_eq!(
            content,
            format!("Content (BM25): 1 hits\n{want}"),
            "search {q}"
        );
    }
    let out = crate::support::child::skillnav_command()
        .args(["brief", "--query", "锁"])
        .arg(&dir)
        .output()
        .unwrap();
    let brief = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        brief.lines().skip(7).take(4).collect::<Vec<_>>(),
        [
            "## 互斥锁",
            "`cjk/locks.md#互斥锁` · locks.md · lines 1–4 · score 1.842",
            "",
            "使用互斥锁保护共享数据。加锁以后再读写。",
        ]
    );
    let mut app = tui_over(&dir, "cjk", 80, 8);
    type_query(&mut app, "鍵");
    let screen = crate::support::tui::screen(&app);
    assert_eq!(
        screen.lines().take(5).collect::<Vec<_>>(),
        [
            " / 鍵  1 content · 0 titles                  o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ ",
            "Content (BM25) · 1               │合鍵の作り方 cjk/locks.md#合鍵…  84B · 26 tok ",
            "  # 合鍵の作… ‹ locks.md  26 tok │# 合鍵の作り方                                ",
            "Titles (fuzzy) · 0               │──────────────                                ",
            "  no matches                     │                                              ",
        ]
    );
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
    assert_eq!(app.status, format!("→ {}", corpus.id(shown)));
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

/// At 80 columns (a 33-cell list) on the KEP tree, same-titled hits read
/// `# Table of Contents ‹…` and differed only in their tokens: the `‹ ancestor` naming each
/// KEP was cut away. The title and its ancestor now share the room (docs/DESIGN.md §6).
#[test]
fn same_titled_hits_at_80_columns_show_their_ancestors() {
    let dir = fixture_path("index/same-titles");
    let mut app = tui_over(&dir, "same-titles", 80, 12);
    type_query(&mut app, "table of contents");
    let left = list_rows(&app, 34);
    assert_eq!(
        left,
        [
            "Titles holding every word · 2    │",
            "  # Table… ‹ KEP-3022: M… 21 tok │",
            "  # Table… ‹ KEP-3521: P… 21 tok │",
            "Content (BM25) · 1               │",
            "  # Table… ‹ KEP-1287: I… 21 tok │",
            "Titles (fuzzy) · 1               │",
        ]
    );
}
