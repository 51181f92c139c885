//! Markdown rendering: exact output of a fixture with every construct (snapshots with role
//! markers at widths 40 and 80), headings, offsets, hit marking, sanitising, tiny widths.

use proptest::prelude::*;
use skillnav::render::{Line, RenderOptions, Rendered, Role, render_markdown};

const FIXTURE: &str = include_str!("../fixtures/render/all_constructs.md");

fn opts(width: u16) -> RenderOptions {
    RenderOptions {
        width,
        terms: Vec::new(),
        show_frontmatter: true,
        ..RenderOptions::default()
    }
}

/// Plain text with role markers: every non-`Text` span is written `«Role:text»`.
fn markup(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        for span in &line.spans {
            if span.style.role == Role::Text {
                out.push_str(&span.text);
            } else {
                out.push_str(&format!("«{:?}:{}»", span.style.role, span.text));
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

fn assert_fits(r: &Rendered, width: usize) {
    for (i, l) in r.lines.iter().enumerate() {
        assert!(
            l.width() <= width,
            "line {i} is {} cells at width {width}: {:?}",
            l.width(),
            l.plain()
        );
    }
}

#[test]
fn all_constructs_at_40() {
    let r = render_markdown(FIXTURE, &opts(40));
    assert_fits(&r, 40);
    snapshot("all_constructs_40", markup(&r.lines));
}

#[test]
fn all_constructs_at_80() {
    let r = render_markdown(FIXTURE, &opts(80));
    assert_fits(&r, 80);
    snapshot("all_constructs_80", markup(&r.lines));
}

#[test]
fn all_constructs_plain_lines_at_40() {
    let r = render_markdown(FIXTURE, &opts(40));
    let lines = r.plain_lines();
    assert_eq!(lines[0], "---");
    assert_eq!(lines[2], "description: How to configure CORS Midd…");
    assert_eq!(&lines[5..7], ["# CORS Middleware", "─────────────────"]);
    assert_eq!(
        &lines[19..25],
        [
            "• origin: allowed origin",
            "• allowMethods: methods",
            "  ◦ nested item",
            "    ▪ deeper item",
            "☐ todo task",
            "☑ done task",
        ]
    );
    assert_eq!(
        &lines[29..33],
        [
            "│ Quoted text that is long enough to",
            "│ wrap around at narrow widths.",
            "│",
            "│ │ Nested quote.",
        ]
    );
    assert_eq!(lines[34], "─".repeat(40));
    assert_eq!(
        &lines[36..40],
        [
            "── rust ────────────────────────────────",
            "fn main() {",
            "    println!(\"hello\");",
            "}"
        ]
    );
    assert_eq!(
        &lines[43..49],
        [
            "┌─────────────┬─────────┬─────────┐",
            "│ Option      │  Type   │ Default │",
            "├─────────────┼─────────┼─────────┤",
            "│ origin      │ string  │       * │",
            "│ credentials │ boolean │   false │",
            "└─────────────┴─────────┴─────────┘",
        ]
    );
    assert_eq!(lines[54], "[image: logo image]");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("[1]: The footnote text.")
    );
}

#[test]
fn headings_code_blocks_and_offsets() {
    let r = render_markdown(FIXTURE, &opts(80));
    assert_eq!(
        r.headings,
        vec![
            (5, 1, "CORS Middleware".to_string()),
            (14, 2, "Options".to_string()),
            (52, 3, "Footnotes".to_string())
        ]
    );
    for &(line, _, ref text) in &r.headings {
        assert!(r.lines[line].plain().ends_with(text.as_str()));
    }
    assert_eq!(r.line_offsets.len(), r.lines.len());
    assert!(
        r.line_offsets.windows(2).all(|w| w[0] <= w[1]),
        "offsets must be non-decreasing"
    );
    // The heading line points at the `# CORS Middleware` source line.
    assert!(FIXTURE[r.line_offsets[5]..].starts_with("# CORS Middleware"));
    assert!(FIXTURE[r.line_offsets[34]..].starts_with("\tprintln!"));
    let blocks: Vec<_> = r
        .code_blocks
        .iter()
        .map(|c| (c.lang.as_str(), c.first_line, c.line_count))
        .collect();
    assert_eq!(blocks, vec![("rust", 33, 3), ("", 37, 1)]);
    assert_eq!(
        r.code_blocks[0].code,
        "fn main() {\n\tprintln!(\"hello\");\n}\n"
    );
    assert!(
        r.lines[33]
            .spans
            .iter()
            .all(|s| s.style.role == Role::CodeBlock)
    );
}

#[test]
fn frontmatter_hidden_when_asked() {
    let r = render_markdown(
        FIXTURE,
        &RenderOptions {
            show_frontmatter: false,
            ..opts(80)
        },
    );
    assert_eq!(r.plain_lines()[0], "# CORS Middleware");
    assert_eq!(r.headings[0].0, 0);
    let shown = render_markdown(FIXTURE, &opts(80));
    assert!(shown.lines[1].has_role(Role::FrontMatter));
}

#[test]
fn match_marks_cors_in_cors_middleware() {
    let r = render_markdown(
        FIXTURE,
        &RenderOptions {
            terms: vec!["cors".into()],
            ..opts(80)
        },
    );
    let heading = &r.lines[5];
    let hit: Vec<_> = heading
        .spans
        .iter()
        .filter(|s| s.style.role == Role::Match)
        .map(|s| s.text.as_str())
        .collect();
    assert_eq!(hit, vec!["CORS"]);
    // The match keeps the heading's bold.
    assert!(heading.spans.iter().all(|s| s.style.bold));
    assert!(r.match_lines.contains(&5));
    assert_eq!(r.match_lines, vec![1, 2, 5, 8, 9, 10]);
    assert!(
        r.match_lines
            .iter()
            .all(|&i| r.lines[i].has_role(Role::Match))
    );
    let unmarked = (0..r.lines.len()).filter(|i| !r.match_lines.contains(i));
    assert!(
        unmarked
            .into_iter()
            .all(|i| !r.lines[i].has_role(Role::Match))
    );
}

#[test]
fn inline_styles_links_and_code() {
    let src = "A *b* **c** ~~d~~ `e` [f](http://g) <http://h> ![i](j.png)";
    let r = render_markdown(src, &opts(80));
    assert_eq!(
        markup(&r.lines),
        "A «Emphasis:b» «Strong:c» «Strike:d» «InlineCode:e» «Link:f»«LinkUrl: (http://g)» \
         «Link:http://h» «Image:[image: i]»\n"
    );
    let spans = &r.lines[0].spans;
    assert!(spans[1].style.italic && spans[3].style.bold && spans[5].style.strike);
    assert!(spans[9].style.underline && spans[10].style.dim);
}

#[test]
fn escape_sequences_never_reach_output() {
    let src = "---\nname: \x1b[31mred\n---\n# Ti\x1b]0;pwned\x07tle\n\nText \x1b[2J clear \u{9b}31m and \x07 bell.\n\n\
               ```sh\necho \x1b[1mbold\n```\n\n| a\x1b[0m | b |\n|---|---|\n| \x1b[5m | x |\n\n\
               <p>\x1b[7m</p>\n\n[l\x1b[0mink](http://x/\x1b[0m)\n";
    for width in [1u16, 7, 80] {
        let r = render_markdown(src, &opts(width));
        for line in &r.lines {
            for span in &line.spans {
                assert!(
                    !span.text.chars().any(char::is_control),
                    "control char in {:?}",
                    span.text
                );
            }
        }
        if width == 80 {
            let all = r.plain_lines().join("\n");
            assert!(
                all.contains("Text ␛[2J clear \u{FFFD}31m and ␇ bell."),
                "{all}"
            );
            assert!(all.contains("echo ␛[1mbold"), "{all}");
        }
    }
}

#[test]
fn every_line_fits_at_every_width() {
    let src = format!(
        "{FIXTURE}\n\n中文字符和emoji 👍👍 e\u{301}te\n\n> - [ ] 中文 quote item with `code`\n"
    );
    for width in 1..=100u16 {
        let r = render_markdown(&src, &opts(width));
        assert_fits(&r, usize::from(width));
        assert_eq!(r.lines.len(), r.line_offsets.len());
    }
}

#[test]
fn width_zero_renders_nothing() {
    let r = render_markdown(FIXTURE, &opts(0));
    assert!(r.lines.is_empty() && r.headings.is_empty() && r.code_blocks.is_empty());
}

#[test]
fn loose_list_items_are_separated_by_blank_lines() {
    let r = render_markdown("- a\n\n- b\n\npara", &opts(20));
    assert_eq!(r.plain_lines(), vec!["• a", "", "• b", "", "para"]);
    let r = render_markdown("3. x\n4. y\n", &opts(20));
    assert_eq!(r.plain_lines(), vec!["3. x", "4. y"]);
}

#[test]
fn wide_table_is_fitted_with_wrapped_cells() {
    let src = "| k | description |\n|---|---|\n| a | a fairly long description text |\n";
    let r = render_markdown(src, &opts(24));
    assert_eq!(
        r.plain_lines(),
        vec![
            "┌───┬──────────────────┐",
            "│ k │ description      │",
            "├───┼──────────────────┤",
            "│ a │ a fairly long    │",
            "│   │ description text │",
            "└───┴──────────────────┘",
        ]
    );
}

#[test]
fn long_code_lines_are_truncated_not_wrapped() {
    let r = render_markdown("```\nabcdefghijklmnop\n```\n", &opts(8));
    assert_eq!(r.plain_lines(), vec!["abcdefg…"]);
    assert_eq!(r.code_blocks[0].line_count, 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn tiny_widths_never_panic(
        src in "([-#>*`|~\\[\\]()!: \n1.xa中👍\u{301}\t\x1b_]|```|---|\\| a \\|){0,80}",
        width in 1u16..=3,
    ) {
        let r = render_markdown(&src, &RenderOptions { width, terms: vec!["a".into()], show_frontmatter: true, ..RenderOptions::default() });
        prop_assert_eq!(r.lines.len(), r.line_offsets.len());
        for l in &r.lines {
            prop_assert!(l.width() <= usize::from(width));
        }
    }

    #[test]
    fn any_text_any_width_fits(src in "\\PC{0,200}", width in 1u16..=30) {
        let r = render_markdown(&src, &opts(width));
        for l in &r.lines {
            prop_assert!(l.width() <= usize::from(width));
        }
    }
}

#[test]
fn loose_task_list_and_heading_with_link() {
    let r = render_markdown("- [ ] a\n\n- [x] b\n\n## See [docs](http://d)\n", &opts(40));
    assert_eq!(
        r.plain_lines(),
        vec!["☐ a", "", "☑ b", "", "## See docs (http://d)"]
    );
    assert_eq!(r.headings, vec![(4, 2, "See docs".to_string())]);
}
