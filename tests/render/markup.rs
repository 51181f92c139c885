//! Markup rendered the way a reader wants it (`tests/fixtures/render/vitepress.md`): HTML
//! comments hidden, in-page links as their text, custom containers and alerts as titled
//! blocks, badges as their text, the fence language in the block's frame line, heading
//! anchors dropped; the raw view keeps every byte of markup.

use skillnav::render::raw::render_raw;
use skillnav::render::{Line, LongLines, RenderOptions, Role, render_markdown};

const FIXTURE: &str = include_str!("../fixtures/render/vitepress.md");

/// Plain text with role markers for the roles that carry meaning here.
fn markup(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        for span in &line.spans {
            match span.style.role {
                Role::Strong | Role::InlineCode | Role::CodeLang | Role::Html | Role::LinkUrl => {
                    out.push_str(&format!("«{:?}:{}»", span.style.role, span.text));
                }
                _ => out.push_str(&span.text),
            }
        }
        out.push('\n');
    }
    out
}

fn snapshot(name: &str, value: String) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../fixtures/render/snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, value));
}

fn opts(width: u16) -> RenderOptions {
    RenderOptions {
        width,
        ..RenderOptions::default()
    }
}

#[test]
fn vitepress_markup_renders_like_glow() {
    let r = render_markdown(FIXTURE, &opts(60));
    snapshot("vitepress_60", markup(&r.lines));
    let text = r.plain_lines().join("\n");
    for gone in ["<!--", "(#summary)", ":::", "<Badge", "{#"] {
        assert!(!text.contains(gone), "{gone} is shown:\n{text}");
    }
}

#[test]
fn heading_anchors_and_in_page_links_leave_the_text() {
    let src = "## Options {#opts}\n\nSee [Options](#opts) and [docs](https://hono.dev).\n";
    let r = render_markdown(src, &opts(80));
    assert_eq!(
        r.plain_lines(),
        ["## Options", "", "See Options and docs (https://hono.dev)."]
    );
    assert_eq!(r.headings, [(0, 2, "Options".to_string())]);
    // Braces that are no anchor stay.
    let r = render_markdown("# Set {x}\n", &opts(80));
    assert_eq!(r.plain_lines()[0], "# Set {x}");
}

#[test]
fn raw_view_keeps_every_line_of_markup() {
    let keep = RenderOptions {
        long_code: LongLines::Keep,
        ..opts(80)
    };
    let r = render_raw(FIXTURE, &keep);
    let want: Vec<String> = FIXTURE.lines().map(|l| l.replace('\t', "    ")).collect();
    assert_eq!(r.plain_lines(), want);
}

#[test]
fn highlighted_code_keeps_its_layout_kept_whole_or_wrapped() {
    use skillnav::render::{Highlighter, SyntaxTheme, apply};
    let src = "> ```rust\n> let s = \"a long string that will not fit in twenty-four cells\";\n> let t = 1;\n> ```\n";
    for (mode, rows) in [(LongLines::Keep, 2), (LongLines::Wrap, 4)] {
        let opts = RenderOptions {
            width: 24,
            long_code: mode,
            ..RenderOptions::default()
        };
        let mut r = render_markdown(src, &opts);
        let plain = r.plain_lines();
        let block = r.code_blocks[0].clone();
        assert_eq!(block.row_count(), rows, "{mode:?}: {plain:?}");
        let hl = Highlighter::shared().highlight(&block.code, "rust", SyntaxTheme::DARK);
        apply(&mut r, 0, hl, 24);
        // The same text in the same rows, quote bars kept, now in colours.
        assert_eq!(r.plain_lines(), plain, "{mode:?}");
        let first = &r.lines[block.first_line];
        assert_eq!(first.spans[0].text, "│ ");
        assert!(
            first.spans.len() > 2,
            "{mode:?}: not highlighted: {first:?}"
        );
    }
    let wrapped = render_markdown(
        src,
        &RenderOptions {
            width: 24,
            long_code: LongLines::Wrap,
            ..RenderOptions::default()
        },
    );
    assert_eq!(
        wrapped.plain_lines(),
        [
            "│ ── rust ──────────────",
            "│ let s = \"a long string",
            "│  that will not fit in ",
            "│ twenty-four cells\";",
            "│ let t = 1;",
        ]
    );
}
