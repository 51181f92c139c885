//! What the tree and preview show for a node's kind: a code file (JSON) as highlighted code
//! rows, the text before a file's first heading as "(preamble)", a doc-tree folder's contents
//! with each child's summary, a lazytools chunk titled without its `{#id}` (docs/DESIGN.md §6
//! and §2 "Sectioning", docs/FORMATS.md §2).

use skillnav::render::Role;

use crate::support::fs::{copy_dir, fixture_path};
use crossterm::event::{KeyCode, KeyModifiers};

use crate::support::tui::{act, goto, id, key_action, preview_rows, screen, tui_over};

/// A copy of `tests/fixtures/preview/notes` (the app may write nothing there, but a copy
/// keeps the fixture safe).
fn notes() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tmp");
    copy_dir(&fixture_path("preview/notes"), &tmp.path().join("notes"));
    tmp
}

#[test]
fn a_json_file_is_previewed_as_highlighted_code() {
    let tmp = notes();
    let mut app = tui_over(&tmp.path().join("notes"), "notes", 90, 22);
    let node = id(&app, "notes/summary.json");
    goto(&mut app, node);
    let rows: Vec<String> = preview_rows(&app)
        .into_iter()
        .map(|r| r.trim_end().to_string())
        .collect();
    assert_eq!(
        rows,
        [
            "{",
            "  \"name\": \"hono_docs\",",
            "  \"total_pages\": 85,",
            "  \"base_url\": \"http://127.0.0.1:8765/docs/\",",
            "  \"llms_txt_detected\": true,",
            "  \"llms_txt_variant\": \"explicit\",",
            "  \"pages\": [",
            "    {",
            "      \"title\": \"Context\",",
            "      \"url\": \"http://127.0.0.1:8765/docs/api/contex…",
            "    },",
            "    {",
            "      \"title\": \"HTTPException\",",
            "      \"url\": \"http://127.0.0.1:8765/docs/api/except…",
            "    }",
            "  ]",
            "}",
            "",
            "",
        ]
    );
    let doc = app.preview.doc.clone().expect("preview");
    assert_eq!(doc.rendered.code_blocks.len(), 1);
    assert_eq!(doc.rendered.code_blocks[0].lang, "json");
    // The worker's highlighting replaced the plain rows: the key is coloured.
    let key = &doc.rendered.lines[1].spans;
    assert!(key.iter().all(|s| s.style.role == Role::CodeBlock));
    assert!(key.iter().any(|s| s.style.fg.is_some()), "{key:?}");
}

#[test]
fn the_text_before_the_first_heading_is_the_preamble_row() {
    let tmp = notes();
    let mut app = tui_over(&tmp.path().join("notes"), "notes", 90, 12);
    let node = id(&app, "notes/README.md#readmemd");
    goto(&mut app, node);
    let want = [
        " / search                                              o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ ",
        "  ▾ ◆ notes              473B   Σ158 │(preamble) notes/README.md#readmemd ·… 65B · 14 tok ",
        "    ▾ ≡ README.md        101B     24 │Notes kept while reading the Hono docs. Start with  ",
        "        # (preamble)      65B     14 │the summary.                                        ",
        "        # Pages           36B     10 │                                                    ",
        "      ≡ summary.json     372B    134 │                                                    ",
        "                                     │                                                    ",
        "                                     │                                                    ",
        "                                     │                                                    ",
        "                                     │                                                    ",
        "                                     │                                                    ",
        "                                              ␣ select  y copy  / search  ? help  q quit  ",
    ];
    assert_eq!(screen(&app), want.join("\n"));
}

#[test]
fn a_doc_tree_folder_lists_each_child_with_its_summary() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("PTX-Mini");
    copy_dir(&fixture_path("formats2/doc-tree/PTX-Mini"), &dir);
    let mut app = tui_over(&dir, "ptx", 100, 24);
    let node = id(&app, "ptx/4-Syntax");
    goto(&mut app, node);
    let rows: Vec<String> = preview_rows(&app)
        .into_iter()
        .map(|r| r.trim_end().to_string())
        .collect();
    assert_eq!(
        rows,
        [
            "Source format, comments, statements, identifiers and",
            "constants of PTX programs.",
            "",
            "Contents (5)",
            "≡ README.md  336B · 85 tok",
            "  lists 4 children",
            "▪ 4.1. Source Format  191B · 56 tok",
            "  Source modules are ASCII text; lines end with newlines.",
            "▪ 4.2. Comments  47B · 15 tok",
            "  C-style block and line comments.",
            "▪ 4.9. Identifiers  158B · 40 tok",
            "  Rules for user-defined identifiers and predefined name…",
            "▪ Constants  201B · 72 tok",
            "  Integer, floating-point and predicate constants, merge…",
            "",
            "Warnings (1)",
            "! 4-Syntax/4-2-Comments: leaf folder without doc.md",
            "",
            "",
            "",
            "",
        ]
    );
}

#[test]
fn a_lazytools_chunk_row_shows_its_heading_without_the_id_attribute() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("demo");
    copy_dir(&fixture_path("lazytools/anchors"), &dir);
    let mut app = tui_over(&dir, "demo", 100, 9);
    let node = id(&app, "demo/components.md#chunk-1");
    goto(&mut app, node);
    let want = [
        " / search                                                        o200k · sel 0 · 0/20k tok ▱▱▱▱▱▱▱▱ ",
        "  ▾ ◆ demo                   2.9kB   Σ624 │Async Components demo/components.md… 525B · 109 tok  42% ",
        "    ▾ ★ demo                 2.9kB   Σ624 │## Async Components                                      ",
        "      ▸ ≡ SKILL.md           1.5kB    327 │                                                         ",
        "      ▾ ≡ components.md      1.4kB    297 ││ WARNING                                                ",
        "          ¶ Components        417B     87 ││ Async components need a loader that returns a promise. ",
        "          ¶ Async Components  525B    109 ││ Keep the loader small.                                 ",
        "          ¶ Props             463B    101 │                                                         ",
        "                                                        ␣ select  y copy  / search  ? help  q quit  ",
    ];
    assert_eq!(screen(&app), want.join("\n"));
}

#[test]
fn a_file_edited_after_the_load_is_previewed_as_changed_and_ctrl_r_shows_the_edit() {
    let tmp = notes();
    let mut app = tui_over(&tmp.path().join("notes"), "notes", 90, 12);
    // The load let the texts go (docs/DESIGN.md §8 "Memory"): the preview reads the file
    // again, and it no longer holds what was loaded.
    std::fs::write(
        tmp.path().join("notes/summary.json"),
        "{\"edited\": true}\n",
    )
    .expect("edit");
    let node = id(&app, "notes/summary.json");
    goto(&mut app, node);
    let words = |app: &crate::support::tui::Tui| {
        let rows = preview_rows(app).join(" ");
        rows.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let shown = words(&app);
    assert!(
        shown.contains(
            "summary.json changed on disk or was removed since it was loaded; Ctrl-r reloads"
        ),
        "{shown}"
    );
    let reload = key_action(&app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    act(&mut app, &[reload]);
    let node = id(&app, "notes/summary.json");
    goto(&mut app, node);
    let shown = words(&app);
    assert!(shown.contains("\"edited\": true"), "{shown}");
}
