//! The budget bar: presets, a typed budget with its overage, and the bar colours.

use crossterm::event::KeyCode;
use skillnav::tui::input::keymap::Mode;
use skillnav::tui::state::app::App;
use skillnav::tui::state::curate::InputPurpose;
use skillnav::util::human;

use super::*;
use crate::support::tui::*;

/// `b` steps the budget down, so 8k is one press from the default 20k (it took three:
/// 100k, none, 8k): 20k → 8k → 4k → none → 100k → 20k.
#[test]
fn b_steps_the_budget_down_from_20k_to_8k_in_one_press() {
    let mut app = hono(100, 30);
    assert_eq!(app.curate.budget, Some(20_000));
    assert!(
        top_line(&app).ends_with(" o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ "),
        "{}",
        top_line(&app)
    );
    let steps: [(Option<u64>, &str, &str); 5] = [
        (
            Some(8_000),
            "Budget 8.0k tokens",
            " o200k · sel 0 · 0/8.0k tok ▱▱▱▱▱▱▱▱ ",
        ),
        (
            Some(4_000),
            "Budget 4.0k tokens",
            " o200k · sel 0 · 0/4.0k tok ▱▱▱▱▱▱▱▱ ",
        ),
        (None, "No token budget", " o200k · sel 0 · 0 tok "),
        (
            Some(100_000),
            "Budget 100k tokens",
            " o200k · sel 0 · 0/100k tok ▱▱▱▱▱▱▱▱ ",
        ),
        (
            Some(20_000),
            "Budget 20k tokens",
            " o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ ",
        ),
    ];
    for (budget, status, top) in steps {
        press(&mut app, KeyCode::Char('b'));
        assert_eq!(app.curate.budget, budget);
        assert_eq!(app.status, status);
        let line = top_line(&app);
        assert!(line.ends_with(top), "{line:?} ends with {top:?}");
    }
    // With a selection under budget the bar fills in the theme's success colour.
    let other = id(&app, OTHER_MD);
    select(&mut app, &[other]);
    press(&mut app, KeyCode::Char('b')); // 8k
    let tokens = brief_count(&app, &[other]);
    let filled = (tokens * 8).div_ceil(8_000) as usize;
    let bar = format!("{}{}", "▰".repeat(filled), "▱".repeat(8 - filled));
    let line = top_line(&app);
    assert!(
        line.ends_with(&format!(
            " o200k · sel 1 · {}/8.0k tok {bar} ",
            human::short_count(tokens)
        )),
        "{line:?}"
    );
}

/// Space selects the row under the cursor and moves down, so three presses select three
/// rows in a row (it selected one row three times over: selected, deselected, selected).
#[test]
fn space_selects_and_moves_the_cursor_down() {
    let mut app = hono(100, 30);
    let middleware = id(&app, MIDDLEWARE);
    goto(&mut app, middleware);
    // Three leaf rows in a row (a parent would select the rows below it too).
    let leaf = |app: &App, r: usize| {
        app.tree
            .rows
            .get(r)
            .is_some_and(|row| app.corpus.node(row.id).children.is_empty())
    };
    let first = (0..app.tree.rows.len())
        .find(|&r| (r..r + 3).all(|k| leaf(&app, k)))
        .expect("three leaf rows");
    app.tree.cursor = first;
    let rows: Vec<_> = (first..first + 3).map(|r| app.tree.rows[r].id).collect();
    for _ in 0..3 {
        press(&mut app, KeyCode::Char(' '));
    }
    assert_eq!(app.tree.cursor, first + 3);
    let marks: Vec<_> = rows
        .iter()
        .map(|n| app.selection.mark(&app.corpus, *n))
        .collect();
    assert_eq!(marks, [skillnav::model::Mark::Full; 3]);
    assert_eq!(app.selection.len(), 3);
}

#[test]
fn custom_budget_below_the_selection_shows_the_exact_overage() {
    let mut app = hono(100, 30);
    let small = id(&app, MIDDLEWARE);
    select(&mut app, &[small]);
    let tokens = brief_count(&app, &[small]);
    assert_eq!(app.selection_tokens, (tokens, true));
    assert!((101..1000).contains(&tokens), "a short section: {tokens}");
    // `B` opens the prompt with the current budget.
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(input_purpose(&app), Some(InputPurpose::Budget));
    assert_eq!(input_text(&app), "20000");
    let text = screen(&app);
    assert!(
        text.contains("Token budget") && text.contains("Tokens (12000, 12k; 0 = no budget):"),
        "{text}"
    );
    // Invalid input keeps the prompt open with an error.
    clear_input(&mut app);
    type_text(&mut app, "abc");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Input);
    assert_eq!(input_text(&app), "abc");
    assert_eq!(
        app.status,
        "not a token budget: \"abc\" (e.g. 12000, 12k, 0 for none)"
    );
    assert_eq!(app.curate.budget, Some(20_000));
    // 100 tokens.
    clear_input(&mut app);
    type_text(&mut app, "100");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode(), Mode::Normal);
    assert!(app.input_box().is_none());
    assert_eq!(app.curate.budget, Some(100));
    assert_eq!(app.status, "Budget 100 tokens");
    // The bar shows what will be sent: the packed brief, which names the section it left
    // out, within the budget.
    let packed = brief_count(&app, &[small]);
    assert!(packed <= 100, "{packed}");
    let filled = (packed * 8).div_ceil(100) as usize;
    let bars = format!("{}{}", "▰".repeat(filled), "▱".repeat(8 - filled));
    let t = draw(&app);
    let buf = t.backend().buffer();
    let line = row_text(buf, 0);
    assert!(
        line.ends_with(&format!(
            " o200k · sel 1 · {packed}/100 tok {bars} · 1 left out "
        )),
        "{line:?}"
    );
    // The bar keeps the top line's background (its colours: see the test below).
    let status_bg = app.theme.top.bg.expect("top background");
    let bar: Vec<u16> = (0..buf.area.width)
        .filter(|x| "▰▱".contains(buf[(*x, 0)].symbol()))
        .collect();
    assert_eq!(bar.len(), 8);
    for x in bar {
        assert_eq!(buf[(x, 0)].bg, status_bg, "bar cell {x}");
    }
    // `0` means no budget.
    press(&mut app, KeyCode::Char('B'));
    assert_eq!(input_text(&app), "100");
    clear_input(&mut app);
    type_text(&mut app, "0");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.curate.budget, None);
    assert_eq!(app.status, "No token budget");
    assert!(top_line(&app).ends_with(&format!(" o200k · sel 1 · {tokens} tok ")));
    // Esc leaves the budget as it was.
    press(&mut app, KeyCode::Char('B'));
    type_text(&mut app, "5k");
    press(&mut app, KeyCode::Esc);
    assert_eq!((app.mode(), app.curate.budget), (Mode::Normal, None));
}

/// BUG (src/tui/view/top.rs `budget_pieces`): the bar and overage styles are built as
/// `t.error.patch(t.top)` / `t.mark.patch(t.top)`; `patch` lets the *second* style win, so
/// the top line's foreground (`status_fg`) replaces the error / success colour and the bar is
/// never red (nor green). `t.top.patch(t.error)` (and the same for `mark`, `dim`, `key`,
/// `query`: the `/` key hint, the dim `search` placeholder and the query colour are lost the
/// same way) keeps the top line's background with the element's colour.
/// Repro: select a 198-token section, `B` `10` Enter (below even the packed brief's
/// frame), draw: the `▰` cells have fg `Rgb(186, 194, 222)` (`status_fg`), not the theme's
/// error `Rgb(243, 139, 168)`.
#[test]
fn budget_bar_cells_use_the_error_colour_when_over_and_success_under() {
    let mut app = hono(100, 30);
    let small = id(&app, MIDDLEWARE);
    select(&mut app, &[small]);
    let cells = |app: &App, sym: &str| {
        let t = draw(app);
        let buf = t.backend().buffer();
        (0..buf.area.width)
            .filter(|x| buf[(*x, 0)].symbol() == sym)
            .map(|x| buf[(x, 0)].fg)
            .collect::<Vec<_>>()
    };
    // Under the 20k budget: filled cells in the success colour.
    let under = cells(&app, "▰");
    assert_eq!(under.len(), 1);
    assert_eq!(under[0], app.theme.mark.fg.expect("success colour"));
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    type_text(&mut app, "10");
    press(&mut app, KeyCode::Enter);
    let error = app.theme.error.fg.expect("error colour");
    let over = cells(&app, "▰");
    assert_eq!(over, vec![error; 8]);
    assert_eq!(cells(&app, "+"), vec![error], "the +N over text");
    // Within 10% under the budget the bar warns (a brief adds its header and provenance).
    let total = app.selection_tokens.0;
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    type_text(&mut app, &(total + total / 20).to_string());
    press(&mut app, KeyCode::Enter);
    let warn = app.theme.warn.fg.expect("warn colour");
    assert_eq!(cells(&app, "▰"), vec![warn; 8]);
    assert!(cells(&app, "+").is_empty());
}

/// The number the top bar shows for `units` (the number beside the budget is the brief `y`
/// copies, docs/DESIGN.md §6): the tokens of the core brief of them under the app's budget.
fn brief_count(app: &App, units: &[skillnav::model::NodeId]) -> u64 {
    skillnav::brief::selection_brief(&app.corpus, units, app.curate.budget, counter()).tokens
}

/// The token count on a brief's `Sources:` line (`… · 1,234 tokens (o200k_base) · …`).
fn sources_tokens(brief: &str) -> u64 {
    let line = brief
        .lines()
        .find(|l| l.starts_with("Sources: "))
        .expect("a Sources line");
    let tokens = line
        .split(" · ")
        .find(|p| p.ends_with("tokens (o200k_base)"))
        .expect("a token count");
    tokens
        .trim_end_matches(" tokens (o200k_base)")
        .replace(',', "")
        .parse()
        .expect("a number")
}

#[test]
fn the_top_bar_counts_the_brief_y_copies_and_its_sources_line_the_rows() {
    let mut app = hono(100, 30);
    let (logger, cors) = (id(&app, LOGGER), id(&app, CORS));
    select(&mut app, &[cors, logger]);
    // The rows' sizes are the sources as stored: the Sources line states their sum.
    let table: u64 = [logger, cors]
        .iter()
        .map(|n| app.tokens.total(*n).expect("counted"))
        .sum();
    let (shown, exact) = app.selection_tokens;
    assert!(exact, "the worker's exact count arrived");
    // The bar is the brief `y` copies: the preview's text, exactly.
    press(&mut app, KeyCode::Char('p'));
    let b = built(&app);
    assert_eq!(b.tokens, shown);
    assert_eq!(sources_tokens(&b.text), table);
    press(&mut app, KeyCode::Esc);
    let line = top_line(&app);
    assert!(
        line.ends_with(&format!(
            " o200k · sel 2 · {}/20k tok ▰▱▱▱▱▱▱▱ ",
            human::short_count(shown)
        )),
        "{line:?}"
    );
    // And so does `skillnav brief` of the same selection.
    let out = crate::support::child::skillnav_command()
        .arg("brief")
        .arg(hono_dir())
        .args(["--select", CORS, "--select", LOGGER])
        .output()
        .expect("skillnav brief runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), b.text);
    assert_eq!(counter().count(&b.text), shown);
}
