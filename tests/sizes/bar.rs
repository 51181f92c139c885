//! The reproductions in the TUI and the CLI: KEP-3521's Summary has one size everywhere;
//! with a budget the bar shows the packed brief; a selected skill leaves its licence out.

use crossterm::event::KeyCode;
use skillnav::tokens::{Encoding, TokenCounter, TokenTable};

use super::*;
use crate::support::child::skillnav_command;
use crate::support::corpus::{get, load};
use crate::support::tui::*;

/// `skillnav ARGS…` → stdout (exit 0 asserted).
fn cli(args: &[&str]) -> String {
    let out = skillnav_command()
        .args(args)
        .output()
        .expect("run skillnav");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The node `id` in `tree --json` output: `(bytes, tokens)`.
fn tree_json_size(json: &str, id: &str) -> (u64, u64) {
    fn find<'a>(v: &'a serde_json::Value, id: &str) -> Option<&'a serde_json::Value> {
        if v["id"] == id {
            return Some(v);
        }
        v["children"].as_array()?.iter().find_map(|c| find(c, id))
    }
    let v: serde_json::Value = serde_json::from_str(json).expect("json");
    let n = v["roots"]
        .as_array()
        .and_then(|r| r.iter().find_map(|r| find(r, id)))
        .expect("node in tree --json");
    (n["bytes"].as_u64().unwrap(), n["tokens"].as_u64().unwrap())
}

/// The `Sources:` line of a brief.
fn sources_line(brief: &str) -> &str {
    brief
        .lines()
        .find(|l| l.starts_with("Sources: "))
        .expect("Sources line")
}

#[test]
fn kep_summary_is_1116_bytes_and_226_tokens_in_the_row_tree_json_brief_and_export() {
    let dir = kep_dir();
    let d = dir.to_str().unwrap();
    // The tree (and its preview header) and `tree --json`.
    let c = load(&dir);
    let table = TokenTable::count_all(&c, TokenCounter::new(Encoding::O200kBase));
    let summary = get(&c, SUMMARY);
    assert_eq!(
        (c.node(summary).bytes, table.total(summary)),
        (1116, Some(226))
    );
    assert_eq!(
        tree_json_size(&cli(&["tree", d, "--json"]), SUMMARY),
        (1116, 226)
    );
    // `skillnav brief --select`: the sources as stored.
    let brief = cli(&["brief", d, "--select", SUMMARY]);
    assert_eq!(
        sources_line(&brief),
        "Sources: 3521-pod-scheduling-readiness · 1 section · 226 tokens (o200k_base) · 1,116 bytes"
    );
    // The TUI: the preview header, the brief preview's Sources line, and the bar showing
    // the brief `y` copies (its exact tokens).
    let mut app = tui_over(&dir, KEP, 120, 40);
    let node = id(&app, SUMMARY);
    select(&mut app, &[node]);
    assert_eq!(app.selection_tokens, (BRIEF_TOKENS, true));
    assert!(
        top_line(&app).ends_with(" o200k · sel 1 · 300/20k tok ▰▱▱▱▱▱▱▱ "),
        "{}",
        top_line(&app)
    );
    press(&mut app, KeyCode::Char('p'));
    let b = built(&app);
    assert_eq!((b.tokens, b.text.as_str()), (BRIEF_TOKENS, brief.as_str()));
    // The export: the table's tokens and the reference file's bytes.
    let out = tempfile::tempdir().unwrap();
    let skill = out.path().join("kep-3521-pod-scheduling-readiness");
    let opts = skillnav::curate::export::ExportOptions {
        description: None,
        max_reference_bytes: skillnav::curate::export::DEFAULT_MAX_REFERENCE_BYTES,
        with_catalog: false,
        force: false,
        counter: TokenCounter::new(Encoding::O200kBase),
    };
    let levels = skillnav::curate::exposure::ExposureMap::new();
    let r = skillnav::curate::export::export_skill(&c, &[summary], &levels, &skill, &opts)
        .expect("export");
    assert_eq!((r.sections[0].bytes, r.sections[0].tokens), (1116, 226));
    assert_eq!(
        crate::support::fs::size(&skill.join("references/01-summary.md")),
        1116
    );
    let md = std::fs::read_to_string(skill.join("SKILL.md")).unwrap();
    assert!(md.contains("| 226 | on-demand |"), "{md}");
}

/// Tokens of the md brief of KEP-3521's Summary alone: what `y` copies and the bar shows.
const BRIEF_TOKENS: u64 = 300;

#[test]
fn with_a_1k_budget_the_bar_shows_the_packed_brief_and_how_many_sections_were_left_out() {
    let dir = kep_dir();
    let mut app = tui_over(&dir, KEP, 120, 40);
    let nodes = [id(&app, SUMMARY), id(&app, MOTIVATION), id(&app, PROPOSAL)];
    select(&mut app, &nodes);
    press(&mut app, KeyCode::Char('B'));
    clear_input(&mut app);
    type_text(&mut app, "1000");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.curate.budget, Some(1000));
    press(&mut app, KeyCode::Char('p'));
    let b = built(&app);
    assert_eq!((b.tokens, b.left_out.len()), (PACKED_TOKENS, 1));
    assert_eq!(app.selection_tokens, (PACKED_TOKENS, true));
    let line = top_line(&app);
    assert!(
        line.ends_with(" o200k · sel 3 · 913/1.0k tok ▰▰▰▰▰▰▰▰ · 1 left out "),
        "{line:?}"
    );
    // `skillnav brief` with the same budget copies the same text.
    let d = dir.to_str().unwrap();
    let cli_brief = cli(&[
        "brief",
        d,
        "--select",
        SUMMARY,
        "--select",
        MOTIVATION,
        "--select",
        PROPOSAL,
        "--max-tokens",
        "1000",
        "--mode",
        "auto",
    ]);
    assert_eq!(
        TokenCounter::new(Encoding::O200kBase).count(&cli_brief),
        PACKED_TOKENS
    );
}

/// Tokens of the md brief of Summary, Motivation and Proposal packed under 1,000 tokens.
const PACKED_TOKENS: u64 = 913;

#[test]
fn selecting_theme_factory_leaves_its_licence_txt_out_of_the_brief_and_the_bar() {
    let dir = fixture_path("formats/skills");
    let d = dir.to_str().unwrap();
    let mut app = tui_over(&dir, "skills", 120, 40);
    let skill = id(&app, "skills/theme-factory");
    let licence = id(&app, "skills/theme-factory/LICENSE.txt");
    select(&mut app, &[skill]);
    press(&mut app, KeyCode::Char('p'));
    let b = built(&app);
    let ids: Vec<&str> = b
        .text
        .lines()
        .filter_map(|l| l.strip_prefix('`'))
        .filter_map(|l| l.split('`').next())
        .collect();
    assert_eq!(
        ids,
        [
            "skills/theme-factory/SKILL.md",
            "skills/theme-factory/themes/arctic-frost.md",
            "skills/theme-factory/themes/ocean-depths.md",
        ]
    );
    assert_eq!(app.selection_tokens, (b.tokens, true));
    let cli_brief = cli(&["brief", d, "--select", "skills/theme-factory"]);
    assert_eq!(cli_brief, b.text);
    // Picked by id, the licence comes.
    press(&mut app, KeyCode::Esc);
    act(
        &mut app,
        &[skillnav::tui::input::action::Action::ToggleSelect],
    );
    select(&mut app, &[licence]);
    press(&mut app, KeyCode::Char('p'));
    assert!(
        built(&app)
            .text
            .contains("`skills/theme-factory/LICENSE.txt`")
    );
}

#[test]
fn an_estimate_over_the_budget_is_drawn_with_its_ellipsis_and_not_as_over() {
    let mut app = tui_over(&kep_dir(), KEP, 120, 40);
    let node = id(&app, SUMMARY);
    select(&mut app, &[node]);
    app.curate.budget = Some(4_000);
    // While the brief is being built the bar shows the estimate: the selection before
    // packing, which the packed brief will not exceed.
    app.selection_tokens = (7_900, false);
    assert!(
        top_line(&app).ends_with(" o200k · sel 1 · 7.9k…/4.0k tok ▰▰▰▰▰▰▰▰ "),
        "{}",
        top_line(&app)
    );
}
