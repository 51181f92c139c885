//! Syntax highlighting of code blocks and swapping highlighted lines into a render.

use std::collections::HashSet;

use skillnav::render::{
    Highlighter, RenderOptions, Role, SyntaxTheme, apply, highlight::plain_lines, render_markdown,
};

const RUST: &str =
    "fn main() {\n    let answer: u32 = 42; // comment\n    println!(\"{answer}\");\n}\n";

#[test]
fn rust_snippet_has_several_colours() {
    let h = Highlighter::new();
    let lines = h.highlight(RUST, "rust", SyntaxTheme::DARK);
    assert_eq!(lines.len(), 4);
    let fgs: HashSet<_> = lines
        .iter()
        .flat_map(|l| l.spans.iter().filter_map(|s| s.style.fg))
        .collect();
    assert!(fgs.len() > 1, "only {fgs:?}");
    assert!(
        lines
            .iter()
            .all(|l| l.spans.iter().all(|s| s.style.role == Role::CodeBlock))
    );
    assert_eq!(lines[1].plain(), "    let answer: u32 = 42; // comment");
}

#[test]
fn fence_aliases_map_to_syntaxes() {
    let h = Highlighter::new();
    let cases = [
        ("rs", "Rust"),
        // The JavaScript family uses syntect's own JavaScript: two-face's JS and TS syntaxes
        // loop forever on `a /* c */` (see src/render/highlight.rs).
        ("ts", "JavaScript"),
        ("typescript", "JavaScript"),
        ("tsx", "JavaScript"),
        ("js", "JavaScript"),
        ("jsx", "JavaScript"),
        ("sh", "Bourne Again Shell (bash)"),
        ("console", "Bourne Again Shell (bash)"),
        ("toml", "TOML"),
        ("json", "JSON"),
        ("yaml", "YAML"),
        ("py", "Python"),
        ("go", "Go"),
        ("c#", "C#"),
        ("csharp", "C#"),
        ("diff", "Diff"),
        ("md", "Markdown"),
    ];
    for (lang, name) in cases {
        assert_eq!(h.syntax_name(lang).as_deref(), Some(name), "lang {lang}");
    }
    assert_eq!(h.syntax_name("text"), None);
    assert_eq!(h.syntax_name(""), None);
}

#[test]
fn unknown_lang_falls_back_to_plain() {
    let h = Highlighter::new();
    let lines = h.highlight("a\tb\nc\x1b[2J\n", "no-such-language", SyntaxTheme::DARK);
    assert_eq!(lines, plain_lines("a\tb\nc\x1b[2J\n"));
    assert_eq!(lines[0].plain(), "a   b");
    assert_eq!(lines[1].plain(), "c␛[2J");
    assert!(
        lines
            .iter()
            .all(|l| l.spans.iter().all(|s| s.style.fg.is_none()))
    );
}

#[test]
fn themes_resolve_by_name() {
    assert_eq!(
        SyntaxTheme::from_name("monokai extended"),
        Some(SyntaxTheme::DARK)
    );
    assert_eq!(SyntaxTheme::from_name("GitHub"), Some(SyntaxTheme::LIGHT));
    assert!(SyntaxTheme::from_name("InspiredGitHub").is_some());
    assert_eq!(SyntaxTheme::from_name("nope"), None);
    assert!(SyntaxTheme::names().contains(&"Nord"));
}

#[test]
fn apply_swaps_code_lines_keeping_prefix_and_width() {
    let src = "> ```rust\n> fn main() { let very_long_name = 1; }\n> ```\n";
    let width = 20;
    let mut r = render_markdown(
        src,
        &RenderOptions {
            width,
            terms: vec!["main".into()],
            show_frontmatter: true,
            ..RenderOptions::default()
        },
    );
    let block = r.code_blocks[0].clone();
    assert_eq!((block.lang.as_str(), block.line_count), ("rust", 1));
    let h = Highlighter::new();
    let hl = h.highlight(&block.code, &block.lang, SyntaxTheme::DARK);
    let before = r.lines.len();
    apply(&mut r, 0, hl, width);
    assert_eq!(r.lines.len(), before);
    let line = &r.lines[block.first_line];
    assert_eq!(line.plain(), "│ fn main() { let v…");
    assert_eq!(line.spans[0].style.role, Role::Quote);
    assert!(
        line.spans
            .iter()
            .any(|s| s.style.role == Role::Match && s.text == "main")
    );
    assert!(line.spans.iter().any(|s| s.style.fg.is_some()));
    assert!(line.width() <= usize::from(width));
}

#[test]
fn apply_ignores_stale_results() {
    let mut r = render_markdown("```rust\nfn a() {}\n```\n", &RenderOptions::default());
    let before = r.clone();
    apply(&mut r, 0, plain_lines("x\ny\n"), 80);
    apply(&mut r, 5, plain_lines("x\n"), 80);
    assert_eq!(r, before);
}

#[test]
fn highlighter_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Highlighter>();
    let h = Highlighter::shared();
    std::thread::scope(|s| {
        let t = s.spawn(|| h.highlight("x = 1\n", "py", SyntaxTheme::LIGHT).len());
        assert_eq!(t.join().ok(), Some(1));
    });
}
